//! Per-document ROUGE as rouge-score 0.1.2 computes it
//! (`RougeScorer(types, use_stemmer).score` / `.score_multi`).
//!
//! * Tokens: the text lowercased, every run of characters outside `[a-z0-9]`
//!   a separator; with stemming, tokens longer than three characters are
//!   replaced by their Porter stem ([`crate::porter::stem`]).
//! * `rougeN`: clipped n-gram overlap; P = overlap / max(prediction n-grams,
//!   1), R = overlap / max(target n-grams, 1), F = 2PR / (P + R) (0 when
//!   P + R = 0).
//! * `rougeL`: the longest common subsequence of the whole token sequences
//!   (all 0 when either side has no tokens).
//! * `rougeLsum`: the texts split into sentences at `\n` (empty pieces
//!   dropped); for each target sentence the union of its LCS index sets with
//!   every prediction sentence (each LCS read back preferring, on ties, to
//!   drop the target token), whose tokens count as hits while neither
//!   side's total count of that token is used up; P = hits / prediction
//!   tokens, R = hits / target tokens.
//! * Several targets: per type, the target with the highest F (the first on
//!   ties), with its P and R.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::porter;
use crate::textstats::lcs_len;
use crate::{Error, Result};

/// A ROUGE type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeType {
    /// `rougeN`, N >= 1.
    N(usize),
    /// `rougeL`.
    L,
    /// `rougeLsum`.
    LSum,
}

impl RougeType {
    /// `rouge1`, `rouge2`, ..., `rougeL`, `rougeLsum`.
    pub fn parse(name: &str) -> Result<RougeType> {
        match name {
            "rougeL" => return Ok(RougeType::L),
            "rougeLsum" => return Ok(RougeType::LSum),
            _ => {}
        }
        let n = name
            .strip_prefix("rouge")
            .filter(|d| {
                !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && !d.starts_with('0')
            })
            .and_then(|d| d.parse::<usize>().ok());
        match n {
            Some(n) => Ok(RougeType::N(n)),
            None => Err(Error::input(format!(
                "unknown ROUGE type {name:?}; use rougeN (N >= 1), rougeL or rougeLsum"
            ))),
        }
    }
}

/// rouge-score's tokens of a text, with or without stemming.
pub fn tokenize(text: &str, use_stemmer: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            let t = std::mem::take(cur);
            out.push(if use_stemmer && t.len() > 3 {
                porter::stem(&t)
            } else {
                t
            });
        }
    };
    for c in text.chars() {
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() {
                cur.push(c.to_ascii_lowercase());
            } else {
                flush(&mut cur, &mut out);
            }
            continue;
        }
        // a few non-ASCII letters lowercase to ASCII ones (U+0130 → "i" and a
        // combining dot, the Kelvin sign → "k")
        for l in c.to_lowercase() {
            if l.is_ascii_alphanumeric() {
                cur.push(l);
            } else {
                flush(&mut cur, &mut out);
            }
        }
    }
    flush(&mut cur, &mut out);
    // rouge-score's final check keeps only [a-z0-9]+ tokens
    out.retain(|t| {
        !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    out
}

/// Precision, recall and F-measure as rouge-score computes them.
pub type Prf = [f64; 3];

fn fmeasure(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// Sorted distinct n-grams of `s` with their counts.
fn ngram_counts(s: &[u32], n: usize) -> Vec<(&[u32], u32)> {
    if s.len() < n {
        return Vec::new();
    }
    let mut w: Vec<&[u32]> = s.windows(n).collect();
    w.sort_unstable();
    let mut out: Vec<(&[u32], u32)> = Vec::with_capacity(w.len());
    for g in w {
        match out.last_mut() {
            Some((last, c)) if *last == g => *c += 1,
            _ => out.push((g, 1)),
        }
    }
    out
}

fn ngram_prf(target: &[u32], pred: &[u32], n: usize) -> Prf {
    let (t, p) = (ngram_counts(target, n), ngram_counts(pred, n));
    let (mut i, mut j, mut overlap) = (0, 0, 0u64);
    while i < t.len() && j < p.len() {
        match t[i].0.cmp(p[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                overlap += u64::from(t[i].1.min(p[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    let n_t = target.len().saturating_sub(n - 1) as u64;
    let n_p = pred.len().saturating_sub(n - 1) as u64;
    let prec = overlap as f64 / n_p.max(1) as f64;
    let rec = overlap as f64 / n_t.max(1) as f64;
    [prec, rec, fmeasure(prec, rec)]
}

fn lcs_prf(target: &[u32], pred: &[u32]) -> Prf {
    if target.is_empty() || pred.is_empty() {
        return [0.0; 3];
    }
    let l = lcs_len(target, pred) as f64;
    let prec = l / pred.len() as f64;
    let rec = l / target.len() as f64;
    [prec, rec, fmeasure(prec, rec)]
}

/// Indices into `r` of one longest common subsequence of `r` and `c`, read
/// back from the end: a match is taken, else the step that keeps the longer
/// subsequence, dropping the `r` token on ties.
fn lcs_indices(r: &[u32], c: &[u32], table: &mut Vec<u32>, out: &mut Vec<usize>) {
    let w = c.len() + 1;
    table.clear();
    table.resize((r.len() + 1) * w, 0);
    for i in 1..=r.len() {
        for j in 1..=c.len() {
            table[i * w + j] = if r[i - 1] == c[j - 1] {
                table[(i - 1) * w + j - 1] + 1
            } else {
                table[(i - 1) * w + j].max(table[i * w + j - 1])
            };
        }
    }
    let (mut i, mut j) = (r.len(), c.len());
    while i > 0 && j > 0 {
        if r[i - 1] == c[j - 1] {
            out.push(i - 1);
            i -= 1;
            j -= 1;
        } else if table[i * w + j - 1] > table[(i - 1) * w + j] {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

fn summary_lcs_prf(target: &[Vec<u32>], pred: &[Vec<u32>], n_ids: usize) -> Prf {
    if target.is_empty() || pred.is_empty() {
        return [0.0; 3];
    }
    let m: usize = target.iter().map(Vec::len).sum();
    let n: usize = pred.iter().map(Vec::len).sum();
    if m == 0 || n == 0 {
        return [0.0; 3];
    }
    let mut left_t = vec![0u32; n_ids];
    let mut left_p = vec![0u32; n_ids];
    for s in target {
        for &t in s {
            left_t[t as usize] += 1;
        }
    }
    for s in pred {
        for &t in s {
            left_p[t as usize] += 1;
        }
    }
    let mut hits = 0u64;
    let mut table = Vec::new();
    let mut idx = Vec::new();
    let mut in_union = Vec::new();
    for r in target {
        in_union.clear();
        in_union.resize(r.len(), false);
        for c in pred {
            idx.clear();
            lcs_indices(r, c, &mut table, &mut idx);
            for &i in &idx {
                in_union[i] = true;
            }
        }
        for (i, &t) in r.iter().enumerate() {
            let t = t as usize;
            if in_union[i] && left_t[t] > 0 && left_p[t] > 0 {
                hits += 1;
                left_t[t] -= 1;
                left_p[t] -= 1;
            }
        }
    }
    let rec = hits as f64 / m as f64;
    let prec = hits as f64 / n as f64;
    [prec, rec, fmeasure(prec, rec)]
}

struct Ids<'a> {
    map: HashMap<&'a str, u32>,
}

impl<'a> Ids<'a> {
    fn of(&mut self, toks: &'a [String]) -> Vec<u32> {
        toks.iter()
            .map(|t| {
                let next = self.map.len() as u32;
                *self.map.entry(t.as_str()).or_insert(next)
            })
            .collect()
    }
}

/// Tokens of one text: the whole text, and (only when `sentences`) each of
/// its non-empty `\n`-separated pieces.
struct Doc {
    all: Vec<String>,
    sents: Vec<Vec<String>>,
}

fn doc(text: &str, use_stemmer: bool, sentences: bool) -> Doc {
    let sents = if sentences {
        text.split('\n')
            .filter(|s| !s.is_empty())
            .map(|s| tokenize(s, use_stemmer))
            .collect()
    } else {
        Vec::new()
    };
    Doc {
        all: tokenize(text, use_stemmer),
        sents,
    }
}

/// The scores of one prediction against its targets: one [`Prf`] per type.
pub fn score_document(
    pred: &str,
    targets: &[&str],
    types: &[RougeType],
    use_stemmer: bool,
) -> Vec<Prf> {
    let sentences = types.contains(&RougeType::LSum);
    let p = doc(pred, use_stemmer, sentences);
    let ts: Vec<Doc> = targets
        .iter()
        .map(|t| doc(t, use_stemmer, sentences))
        .collect();
    let mut ids = Ids {
        map: HashMap::new(),
    };
    let p_all = ids.of(&p.all);
    let p_sents: Vec<Vec<u32>> = p.sents.iter().map(|s| ids.of(s)).collect();
    let t_ids: Vec<(Vec<u32>, Vec<Vec<u32>>)> = ts
        .iter()
        .map(|t| (ids.of(&t.all), t.sents.iter().map(|s| ids.of(s)).collect()))
        .collect();
    let n_ids = ids.map.len();
    types
        .iter()
        .map(|&ty| {
            let mut best: Option<Prf> = None;
            for (t_all, t_sents) in &t_ids {
                let s = match ty {
                    RougeType::N(n) => ngram_prf(t_all, &p_all, n),
                    RougeType::L => lcs_prf(t_all, &p_all),
                    RougeType::LSum => summary_lcs_prf(t_sents, &p_sents, n_ids),
                };
                if best.is_none_or(|b| s[2] > b[2]) {
                    best = Some(s);
                }
            }
            best.unwrap_or([0.0; 3])
        })
        .collect()
}

/// Per-document scores, `docs × types` [`Prf`]s flattened row-major;
/// `targets[k][i]` is target `k` of document `i`. Documents run in parallel
/// on `threads` threads (0: one per core).
pub fn rouge_scores(
    preds: &[String],
    targets: &[Vec<String>],
    types: &[RougeType],
    use_stemmer: bool,
    threads: usize,
) -> Result<Vec<Prf>> {
    if targets.is_empty() {
        return Err(Error::input("ROUGE needs at least one reference stream"));
    }
    if types.is_empty() {
        return Err(Error::input("no ROUGE type requested"));
    }
    for (k, t) in targets.iter().enumerate() {
        if t.len() != preds.len() {
            return Err(Error::input(format!(
                "reference stream {k} has {} documents but there are {} predictions; every reference \
                 must be line-aligned with the predictions",
                t.len(),
                preds.len()
            )));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start threads: {e}")))?;
    let rows: Vec<Vec<Prf>> = pool.install(|| {
        (0..preds.len())
            .into_par_iter()
            .with_min_len(16)
            .map(|i| {
                let ts: Vec<&str> = targets.iter().map(|t| t[i].as_str()).collect();
                score_document(&preds[i], &ts, types, use_stemmer)
            })
            .collect()
    });
    Ok(rows.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(
            tokenize("The cat's 2 hats!", false),
            ["the", "cat", "s", "2", "hats"]
        );
        assert_eq!(
            tokenize("The cat's 2 hats!", true),
            ["the", "cat", "s", "2", "hat"]
        );
        assert_eq!(
            tokenize("\u{130}x \u{212a}elvin caf\u{e9}", false),
            ["i", "x", "kelvin", "caf"]
        );
        assert!(tokenize("  ", true).is_empty());
    }

    #[test]
    fn types() {
        assert_eq!(RougeType::parse("rouge2").unwrap(), RougeType::N(2));
        assert_eq!(RougeType::parse("rougeLsum").unwrap(), RougeType::LSum);
        assert!(RougeType::parse("rouge0").is_err());
        assert!(RougeType::parse("rougeX").is_err());
    }

    #[test]
    fn scores() {
        let t = [
            RougeType::N(1),
            RougeType::N(2),
            RougeType::L,
            RougeType::LSum,
        ];
        let s = score_document("a b c d", &["a b x d"], &t, false);
        assert_eq!(s[0], [0.75, 0.75, 0.75]);
        assert_eq!(s[1][0], 1.0 / 3.0);
        assert_eq!(s[2], [0.75, 0.75, 0.75]);
        assert_eq!(s[3], s[2]);
        // best target by F per type
        let s = score_document("a b", &["x", "a b c"], &t[..1], false);
        assert_eq!(s[0][0], 1.0);
        // summary level: hits limited by token counts
        let s = score_document("a b\nb a", &["a b\nc"], &[RougeType::LSum], false);
        assert_eq!(s[0], [0.5, 2.0 / 3.0, fmeasure(0.5, 2.0 / 3.0)]);
        let s = score_document("", &["a"], &t, false);
        assert!(s.iter().all(|p| *p == [0.0; 3]));
    }
}
