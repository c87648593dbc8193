//! Translation edit rate (TER) statistics as sacrebleu 2.x computes them.
//!
//! Per segment: `(edits, average reference length)`, where `edits` is the
//! smallest number of edits (insertions, deletions, substitutions and block
//! shifts) of the hypothesis over the references, and the length is the mean
//! of the references' token counts. Corpus TER is `Σedits / Σlength` (×100 in
//! sacrebleu's report; 100 when the lengths sum to 0 and the edits do not,
//! 0 when both do).
//!
//! The search is sacrebleu's Tercom approximation, reproduced for its
//! results:
//!
//! * greedy: while some block shift lowers the edit distance, apply the best
//!   one (most reduction, then longest block, then earliest block start in
//!   the hypothesis, then earliest destination); each applied shift costs one
//!   edit;
//! * blocks are runs of 1..=10 words that occur in both sequences at start
//!   positions at most 50 apart, that cover at least one wrongly aligned
//!   hypothesis word and one wrongly aligned reference word, and that are
//!   not already aligned inside themselves; the destinations tried are the
//!   start of the hypothesis (for a run at the start of the reference) and
//!   the positions just after the hypothesis words aligned with the
//!   reference word before the run and with each word of the run but its
//!   last;
//! * at most 1,000 candidate shifts are scored per segment and reference;
//!   when the budget runs out during a round, that round's best shift is
//!   dropped;
//! * the edit distance is a Levenshtein distance restricted to a band of
//!   ±25 cells (wider for very unequal lengths) around the length-scaled
//!   diagonal; the alignment behind it breaks ties as Tercom does
//!   (match/substitution first, then the hypothesis-word deletion, then the
//!   reference-word insertion), and the wrongly aligned words and the
//!   alignment that guide the shifts come from that one path.
//!
//! Tokenization is sacrebleu's `TercomTokenizer` (see [`tokenize`]). The
//! references are tokenized twice, as sacrebleu does (once when it caches
//! them, once when it reads them); the hypothesis once.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::{Error, Result};

use crate::textstats::{rstrip_ws, space_punct, split_number_punct, split_ws};

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
/// Cost of a cell outside the band; `INF + 1` must not overflow.
const INF: u32 = u32::MAX / 4;

/// The options of sacrebleu's `TER` (and of its `TercomTokenizer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerOptions {
    /// Tokenize punctuation and numbers, decode four XML entities, join lines.
    pub normalized: bool,
    /// Remove `. , ? : ; ! " ( )` (and, with `asian_support`, CJK and
    /// full-width punctuation).
    pub no_punct: bool,
    /// With `normalized`, make CJK characters tokens; with `no_punct`, also
    /// remove CJK punctuation.
    pub asian_support: bool,
    /// Keep case; otherwise lines are lowercased with Rust's
    /// `str::to_lowercase` (the Python binding lowercases with Python's own
    /// `str.lower` instead and passes `case_sensitive = true`).
    pub case_sensitive: bool,
}

/// Characters that TER's Asian normalization makes tokens of their own:
/// CJK ideographs (with extension A), strokes, radicals, compatibility
/// blocks, enclosed letters and months (sacrebleu's range runs on to
/// U+3F22), CJK and full-width punctuation.
fn is_asian_split(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x31C0..=0x31EF
            | 0x2E80..=0x2EFF
            | 0x3300..=0x33FF
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0x3200..=0x3F22
    ) || is_asian_punct(c)
}

/// CJK punctuation and the full-width forms of `. , ? : ; ! " ( )`.
fn is_asian_punct(c: char) -> bool {
    matches!(
        c as u32,
        0x3001
            | 0x3002
            | 0x3008..=0x3011
            | 0x3014..=0x301F
            | 0xFF61..=0xFF65
            | 0x30FB
            | 0xFF0E
            | 0xFF0C
            | 0xFF1F
            | 0xFF1A
            | 0xFF1B
            | 0xFF01
            | 0xFF02
            | 0xFF08
            | 0xFF09
    )
}

fn is_western_punct(c: char) -> bool {
    matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
}

/// The normalizer's Western part on a line: entities, punctuation marks as
/// tokens, the possessive `'s` split off, then the number-aware period,
/// comma and dash rules.
fn normalize_western(line: &str) -> Vec<char> {
    let l = line
        .replace("\n-", "")
        .replace('\n', " ")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let spaced: String = space_punct(&l, true).into_iter().collect();
    // The line is padded with a space at its end, so the end-of-line form of
    // the possessive rule never applies.
    let spaced = spaced.replace("'s ", " 's ");
    let chars: Vec<char> = spaced.chars().collect();
    split_number_punct(&chars)
}

/// sacrebleu's `TercomTokenizer` on one line that is already right-stripped:
/// the tokens joined by single spaces.
pub fn tokenize(line: &str, opts: TerOptions) -> String {
    if line.is_empty() {
        return String::new();
    }
    let lowered;
    let mut s: &str = line;
    if !opts.case_sensitive {
        lowered = line.to_lowercase();
        s = &lowered;
    }
    let mut chars: Vec<char> = if opts.normalized {
        let w = normalize_western(s);
        if opts.asian_support {
            let mut out = Vec::with_capacity(w.len() + 16);
            for c in w {
                if is_asian_split(c) {
                    out.extend([' ', c, ' ']);
                } else {
                    out.push(c);
                }
            }
            out
        } else {
            w
        }
    } else {
        s.chars().collect()
    };
    if opts.no_punct {
        chars.retain(|&c| !(is_western_punct(c) || (opts.asian_support && is_asian_punct(c))));
    }
    let joined: String = chars.into_iter().collect();
    split_ws(&joined).join(" ")
}

/// How sacrebleu's TER reads a hypothesis: right-stripped, tokenized.
pub fn preprocess_hyp(line: &str, opts: TerOptions) -> String {
    tokenize(rstrip_ws(line), opts)
}

/// How sacrebleu's TER reads a reference: right-stripped and tokenized,
/// twice.
pub fn preprocess_ref(line: &str, opts: TerOptions) -> String {
    let once = tokenize(rstrip_ws(line), opts);
    tokenize(rstrip_ws(&once), opts)
}

/// Cell operations of the edit-distance band, in Tercom's preference order.
const OP_DIAG: u8 = 0; // match or substitution
const OP_DEL: u8 = 1; // hypothesis word dropped
const OP_INS: u8 = 2; // reference word added
const OP_NONE: u8 = 3; // outside the band

/// The band of the edit-distance matrix: its width and the length-scaled
/// diagonal depend only on the two lengths, which shifts never change.
struct Band {
    ratio: f64,
    width: i64,
    n_hyp: usize,
    n_ref: usize,
}

impl Band {
    fn new(n_hyp: usize, n_ref: usize) -> Self {
        let ratio = if n_hyp > 0 {
            n_ref as f64 / n_hyp as f64
        } else {
            1.0
        };
        let width = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH as i64
        };
        Band {
            ratio,
            width,
            n_hyp,
            n_ref,
        }
    }

    /// Columns `lo..hi` computed in row `i` (1-based hypothesis position).
    fn cols(&self, i: usize) -> (usize, usize) {
        let diag = (i as f64 * self.ratio).floor() as i64;
        let lo = (diag - self.width).max(0) as usize;
        let hi = if i == self.n_hyp {
            self.n_ref + 1
        } else {
            ((diag + self.width).max(0) as usize).min(self.n_ref + 1)
        };
        (lo, hi)
    }
}

/// One row of the band: `prev` is row `i - 1`, `cur` is filled for row `i`
/// (all of `cur` is reset first). `ops`, when given, receives each cell's
/// operation. Returns nothing; the costs are in `cur`.
#[inline]
fn band_row(
    band: &Band,
    i: usize,
    word: u32,
    rf: &[u32],
    prev: &[u32],
    cur: &mut [u32],
    mut ops: Option<&mut [u8]>,
) {
    cur.fill(INF);
    if let Some(o) = ops.as_deref_mut() {
        o.fill(OP_NONE);
    }
    let (lo, hi) = band.cols(i);
    for j in lo..hi {
        let (cost, op) = if j == 0 {
            (prev[0] + 1, OP_DEL)
        } else {
            let diag = prev[j - 1] + u32::from(word != rf[j - 1]);
            let del = prev[j] + 1;
            let ins = cur[j - 1] + 1;
            // strictly smaller replaces: ties keep the earlier operation
            let mut best = (INF, OP_NONE);
            for cand in [(diag, OP_DIAG), (del, OP_DEL), (ins, OP_INS)] {
                if cand.0 < best.0 {
                    best = cand;
                }
            }
            best
        };
        if cost < INF {
            cur[j] = cost;
            if let Some(o) = ops.as_deref_mut() {
                o[j] = op;
            }
        }
    }
}

/// What one full edit-distance computation tells the shift search.
struct Alignment {
    cost: u32,
    /// For each reference position, the hypothesis position it is aligned
    /// to (or the last hypothesis position before it; -1 before the start).
    align: Vec<i64>,
    /// Prefix sums of the wrongly aligned hypothesis / reference words.
    hyp_err: Vec<u32>,
    ref_err: Vec<u32>,
}

/// The beam edit distance of one hypothesis against one reference, with a
/// full matrix kept for the current hypothesis so that candidate shifts
/// restart from the rows of their unchanged prefix.
struct BeamEd<'a> {
    rf: &'a [u32],
    band: Band,
    /// Costs and operations of the current hypothesis, row-major,
    /// `(n_hyp + 1) × (n_ref + 1)`.
    costs: Vec<u32>,
    ops: Vec<u8>,
    scratch_a: Vec<u32>,
    scratch_b: Vec<u32>,
}

impl<'a> BeamEd<'a> {
    fn new(n_hyp: usize, rf: &'a [u32]) -> Self {
        let w = rf.len() + 1;
        let mut costs = vec![INF; (n_hyp + 1) * w];
        let mut ops = vec![OP_NONE; (n_hyp + 1) * w];
        for j in 0..w {
            costs[j] = j as u32;
            ops[j] = OP_INS;
        }
        BeamEd {
            rf,
            band: Band::new(n_hyp, rf.len()),
            costs,
            ops,
            scratch_a: vec![INF; w],
            scratch_b: vec![INF; w],
        }
    }

    /// Fill the matrix for `hyp` and read the alignment off its path.
    fn align(&mut self, hyp: &[u32]) -> Alignment {
        let w = self.rf.len() + 1;
        for i in 1..=hyp.len() {
            let (done, rest) = self.costs.split_at_mut(i * w);
            band_row(
                &self.band,
                i,
                hyp[i - 1],
                self.rf,
                &done[(i - 1) * w..],
                &mut rest[..w],
                Some(&mut self.ops[i * w..(i + 1) * w]),
            );
        }
        let cost = self.costs[hyp.len() * w + self.rf.len()];
        // walk back from the last cell, then replay forwards
        let mut path = Vec::with_capacity(hyp.len() + self.rf.len());
        let (mut i, mut j) = (hyp.len(), self.rf.len());
        while i > 0 || j > 0 {
            let op = self.ops[i * w + j];
            path.push(op);
            match op {
                OP_DIAG => {
                    i -= 1;
                    j -= 1;
                }
                OP_DEL => i -= 1,
                OP_INS => j -= 1,
                // unreachable: every cell on the path lies inside the band
                _ => break,
            }
        }
        let mut align = vec![-1i64; self.rf.len()];
        let mut hyp_err = Vec::with_capacity(hyp.len() + 1);
        let mut ref_err = Vec::with_capacity(self.rf.len() + 1);
        hyp_err.push(0u32);
        ref_err.push(0u32);
        let (mut ph, mut pr) = (-1i64, -1i64);
        for &op in path.iter().rev() {
            if ph + 1 > hyp.len() as i64 || pr + 1 > self.rf.len() as i64 {
                break;
            }
            match op {
                OP_DIAG => {
                    ph += 1;
                    pr += 1;
                    align[pr as usize] = ph;
                    let wrong = u32::from(hyp[ph as usize] != self.rf[pr as usize]);
                    hyp_err.push(hyp_err.last().unwrap() + wrong);
                    ref_err.push(ref_err.last().unwrap() + wrong);
                }
                OP_DEL => {
                    ph += 1;
                    hyp_err.push(hyp_err.last().unwrap() + 1);
                }
                _ => {
                    pr += 1;
                    align[pr as usize] = ph;
                    ref_err.push(ref_err.last().unwrap() + 1);
                }
            }
        }
        Alignment {
            cost,
            align,
            hyp_err,
            ref_err,
        }
    }

    /// The edit distance of `cand`, whose first `prefix` words equal those
    /// of the hypothesis last given to [`BeamEd::align`].
    fn cost_from(&mut self, cand: &[u32], prefix: usize) -> u32 {
        let w = self.rf.len() + 1;
        let n = cand.len();
        if prefix >= n {
            return self.costs[n * w + self.rf.len()];
        }
        let mut prev = std::mem::take(&mut self.scratch_a);
        let mut cur = std::mem::take(&mut self.scratch_b);
        prev.copy_from_slice(&self.costs[prefix * w..(prefix + 1) * w]);
        for i in prefix + 1..=n {
            band_row(&self.band, i, cand[i - 1], self.rf, &prev, &mut cur, None);
            std::mem::swap(&mut prev, &mut cur);
        }
        let cost = prev[self.rf.len()];
        self.scratch_a = prev;
        self.scratch_b = cur;
        cost
    }
}

/// `words` with the block `start..start + len` moved to `target`, as
/// sacrebleu moves it (destinations inside or just after the block move it
/// right by `target - start` words, clipped at the end).
fn perform_shift(words: &[u32], start: usize, len: usize, target: usize, out: &mut Vec<u32>) {
    out.clear();
    let block = &words[start..start + len];
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(block);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + len..]);
    } else if target > start + len {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..target]);
        out.extend_from_slice(block);
        out.extend_from_slice(&words[target..]);
    } else {
        let mid = (len + target).min(words.len());
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..mid.max(start + len)]);
        out.extend_from_slice(block);
        out.extend_from_slice(&words[mid.max(start + len)..]);
    }
}

/// The best shift of one round: `(reduction, shifted words)`, or `None`.
/// `checked` counts the candidates scored so far for this segment.
fn best_shift(
    hyp: &[u32],
    rf: &[u32],
    ed: &mut BeamEd<'_>,
    checked: &mut usize,
) -> (u32, Option<(i64, Vec<u32>)>) {
    let a = ed.align(hyp);
    let pre = a.cost;
    // (reduction, block length, -start, -target) of the best so far
    let mut best: Option<(i64, usize, i64, i64)> = None;
    let mut best_words: Vec<u32> = Vec::new();
    let mut cand: Vec<u32> = Vec::with_capacity(hyp.len());
    'pairs: for sh in 0..hyp.len() {
        for sr in 0..rf.len() {
            if sh.abs_diff(sr) > MAX_SHIFT_DIST {
                continue;
            }
            let mut len = 0;
            while len < MAX_SHIFT_SIZE
                && sh + len < hyp.len()
                && sr + len < rf.len()
                && hyp[sh + len] == rf[sr + len]
            {
                len += 1;
                // a block is worth moving only if it holds a wrongly aligned
                // hypothesis word, meets a wrongly aligned reference word, and
                // its reference run is not aligned inside the block itself
                let hyp_wrong = a.hyp_err[sh + len] - a.hyp_err[sh] > 0;
                let ref_wrong = a.ref_err[sr + len] - a.ref_err[sr] > 0;
                let inside = (sh as i64) <= a.align[sr] && a.align[sr] < (sh + len) as i64;
                if hyp_wrong && ref_wrong && !inside {
                    let mut prev_target = -1i64;
                    for off in -1..len as i64 {
                        let r = sr as i64 + off;
                        let target = if r == -1 { 0 } else { a.align[r as usize] + 1 };
                        if target == prev_target {
                            continue;
                        }
                        prev_target = target;
                        let t = target as usize;
                        perform_shift(hyp, sh, len, t, &mut cand);
                        let prefix = sh.min(t);
                        let prefix = prefix
                            + hyp[prefix..]
                                .iter()
                                .zip(&cand[prefix..])
                                .take_while(|(x, y)| x == y)
                                .count();
                        let cost = ed.cost_from(&cand, prefix);
                        *checked += 1;
                        let key = (pre as i64 - cost as i64, len, -(sh as i64), -target);
                        if best.is_none_or(|b| key > b) {
                            best = Some(key);
                            best_words.clone_from(&cand);
                        }
                    }
                    if *checked >= MAX_SHIFT_CANDIDATES {
                        break 'pairs;
                    }
                }
            }
        }
    }
    (pre, best.map(|b| (b.0, best_words)))
}

/// Edits of `hyp` against one non-empty reference (token ids).
fn edits_against(hyp: &[u32], rf: &[u32]) -> u64 {
    if rf.is_empty() {
        return hyp.len() as u64;
    }
    let mut ed = BeamEd::new(hyp.len(), rf);
    let mut words = hyp.to_vec();
    let mut shifts = 0u64;
    let mut checked = 0usize;
    loop {
        let (pre, best) = best_shift(&words, rf, &mut ed, &mut checked);
        match best {
            Some((gain, shifted)) if checked < MAX_SHIFT_CANDIDATES && gain > 0 => {
                shifts += 1;
                words = shifted;
            }
            _ => return shifts + u64::from(pre),
        }
    }
}

fn intern<'a>(tokens: Vec<&'a str>, ids: &mut HashMap<&'a str, u32>) -> Vec<u32> {
    tokens
        .into_iter()
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t).or_insert(next)
        })
        .collect()
}

/// TER statistics `[edits, average reference length]` of one segment whose
/// lines are already preprocessed (see [`preprocess_hyp`],
/// [`preprocess_ref`]): tokens separated by whitespace. With several
/// references, the fewest edits (over references) and the mean length.
/// `None` when there are no references.
pub fn ter_tokens<'a>(hyp: &'a str, refs: &[&'a str]) -> Option<[f64; 2]> {
    if refs.is_empty() {
        return None;
    }
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let h = intern(split_ws(hyp), &mut ids);
    let mut best = u64::MAX;
    let mut total_len = 0u64;
    for r in refs {
        let r = intern(split_ws(r), &mut ids);
        let e = edits_against(&h, &r);
        total_len += r.len() as u64;
        best = best.min(e);
    }
    Some([best as f64, total_len as f64 / refs.len() as f64])
}

/// TER statistics of one segment from raw lines (see [`ter_tokens`]).
pub fn ter_segment(hyp: &str, refs: &[&str], opts: TerOptions) -> Option<[f64; 2]> {
    let h = preprocess_hyp(hyp, opts);
    let r: Vec<String> = refs.iter().map(|r| preprocess_ref(r, opts)).collect();
    let rr: Vec<&str> = r.iter().map(String::as_str).collect();
    ter_tokens(&h, &rr)
}

/// TER statistics of every segment, `[edits, average reference length]`
/// each: `refs[k][i]` is reference `k` of segment `i`. Segments run in
/// parallel on `threads` threads (0: one per core); each segment's result
/// depends on its own lines only.
pub fn ter_stats(
    hyps: &[String],
    refs: &[Vec<String>],
    opts: TerOptions,
    threads: usize,
) -> Result<Vec<[f64; 2]>> {
    if refs.is_empty() {
        return Err(Error::input(
            "TER needs at least one reference stream; pass refs=[lines_of_reference_1, ...]",
        ));
    }
    for (k, r) in refs.iter().enumerate() {
        if r.len() != hyps.len() {
            return Err(Error::input(format!(
                "reference stream {k} has {} lines but there are {} hypotheses; every reference \
                 must be line-aligned with the hypotheses",
                r.len(),
                hyps.len()
            )));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start threads: {e}")))?;
    let out = pool.install(|| {
        (0..hyps.len())
            .into_par_iter()
            .with_min_len(8)
            .map(|i| {
                let seg_refs: Vec<&str> = refs.iter().map(|r| r[i].as_str()).collect();
                ter_segment(&hyps[i], &seg_refs, opts).unwrap_or([0.0, 0.0])
            })
            .collect()
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(normalized: bool, no_punct: bool, asian: bool, case: bool) -> TerOptions {
        TerOptions {
            normalized,
            no_punct,
            asian_support: asian,
            case_sensitive: case,
        }
    }

    #[test]
    fn tokenizer_options() {
        let plain = TerOptions::default();
        assert_eq!(tokenize("Hello, World.", plain), "hello, world.");
        assert_eq!(
            tokenize("Hello, World.", opts(false, false, false, true)),
            "Hello, World."
        );
        assert_eq!(
            tokenize("Hello, World.", opts(true, false, false, false)),
            "hello , world ."
        );
        assert_eq!(
            tokenize("Hello, (World).", opts(false, true, false, false)),
            "hello world"
        );
        assert_eq!(
            tokenize("it's 3.5-4", opts(true, false, false, false)),
            "it 's 3.5 - 4"
        );
        assert_eq!(
            tokenize("a &amp;lt; b", opts(true, false, false, false)),
            "a < b"
        );
        // CJK characters split only with normalization and Asian support
        assert_eq!(
            tokenize("中文。ok", opts(true, false, true, false)),
            "中 文 。 ok"
        );
        assert_eq!(
            tokenize("中文。ok", opts(true, false, false, false)),
            "中文。ok"
        );
        assert_eq!(
            tokenize("中文。ok", opts(false, true, true, false)),
            "中文ok"
        );
        assert_eq!(tokenize("", plain), "");
        assert_eq!(preprocess_hyp("  a  b \t", plain), "a b");
    }

    fn seg(h: &str, r: &[&str]) -> [f64; 2] {
        ter_tokens(h, r).unwrap()
    }

    #[test]
    fn edits_without_shifts() {
        assert_eq!(seg("a b c", &["a b c"]), [0.0, 3.0]);
        assert_eq!(seg("a b c", &["a x c"]), [1.0, 3.0]);
        assert_eq!(seg("a b", &["a b c d"]), [2.0, 4.0]);
        assert_eq!(seg("", &["a b"]), [2.0, 2.0]);
        assert_eq!(seg("a b", &[""]), [2.0, 0.0]);
        assert_eq!(seg("", &[""]), [0.0, 0.0]);
        assert_eq!(ter_tokens("a", &[]), None);
    }

    #[test]
    fn shifts_count_once() {
        // moving "c d" to the front is one shift instead of four edits
        assert_eq!(seg("a b c d", &["c d a b"]), [1.0, 4.0]);
        // several references: fewest edits, mean length
        assert_eq!(seg("a b c", &["a b c d e", "x b c"]), [1.0, 4.0]);
    }

    #[test]
    fn shift_moves() {
        let w = [0, 1, 2, 3, 4];
        let mut out = Vec::new();
        perform_shift(&w, 3, 2, 1, &mut out);
        assert_eq!(out, [0, 3, 4, 1, 2]);
        perform_shift(&w, 0, 2, 4, &mut out);
        assert_eq!(out, [2, 3, 0, 1, 4]);
        // destination inside or just after the block: moved right, clipped
        perform_shift(&w, 1, 2, 2, &mut out);
        assert_eq!(out, [0, 3, 1, 2, 4]);
        perform_shift(&w, 2, 2, 4, &mut out);
        assert_eq!(out, [0, 1, 4, 2, 3]);
    }
}
