//! Per-segment text statistics for sacrebleu-compatible BLEU and chrF.
//!
//! Everything here works on already-read, already-lowercased (if wanted)
//! lines; Python owns file reading and error messages. The rules reproduce
//! sacrebleu 2.6.0's observable behaviour:
//!
//! * whitespace is Python's `str.isspace()` set (not Rust's `White_Space`:
//!   Python also counts U+001C..U+001F), so `split_ws` equals `str.split()`;
//! * the `13a` tokenizer is the mteval-v13a rule set applied as four
//!   left-to-right, non-overlapping two-character rewrites; `zh` makes each
//!   character of sacrebleu's Chinese ranges a token and applies the same
//!   rules to the rest; `char` makes every character a token;
//! * BLEU statistics are `[hyp_len, ref_len, correct_1..N, total_1..N]` with
//!   correct counts clipped by the maximum count over references and the
//!   closest reference length (ties go to the shorter one);
//! * chrF statistics are `[hyp, ref, match]` per character order then per
//!   word order, against the reference with the best sentence F-score (the
//!   first one on ties).

/// Python's `str.isspace()` for one character.
pub fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\u{09}'..='\u{0D}'
            | '\u{1C}'..='\u{20}'
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// Python's `str.split()` with no argument.
pub fn split_ws(s: &str) -> Vec<&str> {
    s.split(is_py_space).filter(|t| !t.is_empty()).collect()
}

/// Python's `str.rstrip()` with no argument.
pub fn rstrip_ws(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

/// The tokenizers whose output this module reproduces exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokenizer {
    /// `none`: split on whitespace only.
    None,
    /// `13a`: mteval-v13a, sacrebleu's default.
    Tok13a,
    /// `char`: every non-whitespace character is a token.
    Char,
    /// `zh`: every Chinese character is a token, the rest is split as `13a`.
    Zh,
}

impl Tokenizer {
    pub fn parse(name: &str) -> Option<Tokenizer> {
        match name {
            "none" => Some(Tokenizer::None),
            "13a" => Some(Tokenizer::Tok13a),
            "char" => Some(Tokenizer::Char),
            "zh" => Some(Tokenizer::Zh),
            _ => None,
        }
    }
}

fn in_13a_class(c: char) -> bool {
    // { | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  /
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// Rewrite every pair (a, b) with `left(a) && right(b)` left to right without
/// overlap, as a fixed-width regular-expression substitution does.
fn rewrite_pairs(
    s: &[char],
    left: impl Fn(char) -> bool,
    right: impl Fn(char) -> bool,
    emit: impl Fn(&mut Vec<char>, char, char),
) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len() + s.len() / 4 + 4);
    let mut i = 0;
    while i < s.len() {
        if i + 1 < s.len() && left(s[i]) && right(s[i + 1]) {
            emit(&mut out, s[i], s[i + 1]);
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// Surround every character of the mteval punctuation class with spaces
/// (sacrebleu's first regular-expression rule); with `pad`, one space is
/// added at each end first, as `13a` and TER's normalizer do.
pub(crate) fn space_punct(line: &str, pad: bool) -> Vec<char> {
    let mut s: Vec<char> = Vec::with_capacity(line.len() + line.len() / 2 + 2);
    if pad {
        s.push(' ');
    }
    for c in line.chars() {
        if in_13a_class(c) {
            s.push(' ');
            s.push(c);
            s.push(' ');
        } else {
            s.push(c);
        }
    }
    if pad {
        s.push(' ');
    }
    s
}

/// The three number-aware rules that follow: a period or comma is split off
/// unless a digit precedes it, then unless a digit follows it, and a dash is
/// split off a preceding digit.
pub(crate) fn split_number_punct(s: &[char]) -> Vec<char> {
    let digit = |c: char| c.is_ascii_digit();
    let dot = |c: char| c == '.' || c == ',';
    let s = rewrite_pairs(s, |c| !digit(c), dot, |o, a, b| o.extend([a, ' ', b, ' ']));
    let s = rewrite_pairs(&s, dot, |c| !digit(c), |o, a, b| o.extend([' ', a, ' ', b]));
    rewrite_pairs(
        &s,
        digit,
        |c| c == '-',
        |o, a, b| o.extend([a, ' ', b, ' ']),
    )
}

fn join_tokens(s: Vec<char>) -> String {
    let joined: String = s.into_iter().collect();
    split_ws(&joined).join(" ")
}

/// The `13a` tokenization of one line (already right-stripped), joined by
/// single spaces.
pub fn tokenize_13a(line: &str) -> String {
    let mut l = line
        .replace("<skipped>", "")
        .replace("-\n", "")
        .replace('\n', " ");
    if l.contains('&') {
        l = l
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    join_tokens(split_number_punct(&space_punct(&l, true)))
}

/// Whether sacrebleu's `zh` tokenizer treats `c` as a Chinese character
/// (each one becomes a token of its own).
///
/// Two of sacrebleu's range bounds are written as six-hex-digit `\u`
/// escapes, which Python reads as a four-digit escape followed by a digit
/// or letter; compared as strings, they select U+2001..=U+2A6D (general
/// punctuation, currency signs, arrows, mathematical operators, ...) and
/// U+2F81..=U+2FA1 instead of the supplementary-plane ideographs. This
/// reproduces what sacrebleu does, not what its comments say.
pub fn is_zh_char(c: char) -> bool {
    matches!(
        c as u32,
        0x3400..=0x4DB5
            | 0x4E00..=0x9FBB
            | 0xF900..=0xFA2D
            | 0xFA30..=0xFA6A
            | 0xFA70..=0xFAD9
            // (sacrebleu's U+2600..U+26FF and U+2700..U+27BF lie inside this one)
            | 0x2001..=0x2A6D
            | 0x2F81..=0x2FA1
            | 0xFF00..=0xFFEF
            | 0x2E80..=0x2EFF
            | 0x3000..=0x303F
            | 0x31C0..=0x31EF
            | 0x2F00..=0x2FDF
            | 0x2FF0..=0x2FFF
            | 0x3100..=0x312F
            | 0x31A0..=0x31BF
            | 0xFE10..=0xFE1F
            | 0xFE30..=0xFE4F
            | 0x3200..=0x33FF
    )
}

/// sacrebleu's `zh` tokenization of one line: stripped at both ends, every
/// Chinese character (see [`is_zh_char`]) made a token, and the rest
/// tokenized by the `13a` rules (without `13a`'s entity and `<skipped>`
/// handling and without its padding, as sacrebleu applies them).
pub fn tokenize_zh(line: &str) -> String {
    let line = line.trim_matches(is_py_space);
    let mut spaced = String::with_capacity(line.len() + 16);
    for c in line.chars() {
        if is_zh_char(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    join_tokens(split_number_punct(&space_punct(&spaced, false)))
}

/// A line right-stripped and tokenized, as sacrebleu's BLEU preprocesses it
/// (lowercasing, if wanted, is done by the caller), joined by single spaces.
pub fn tokenize(line: &str, tok: Tokenizer) -> String {
    let line = rstrip_ws(line);
    match tok {
        Tokenizer::None => line.to_string(),
        Tokenizer::Tok13a => tokenize_13a(line),
        Tokenizer::Zh => tokenize_zh(line),
        Tokenizer::Char => {
            let mut out = String::with_capacity(line.len() * 2);
            for c in line.chars() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push(c);
            }
            out
        }
    }
}

/// Sorted distinct keys with their counts.
fn run_lengths<K: Ord + Copy>(mut keys: Vec<K>) -> Vec<(K, u32)> {
    keys.sort_unstable();
    let mut out: Vec<(K, u32)> = Vec::with_capacity(keys.len());
    for g in keys {
        match out.last_mut() {
            Some((last, c)) if *last == g => *c += 1,
            _ => out.push((g, 1)),
        }
    }
    out
}

/// Sorted distinct n-grams of `seq` with their counts.
fn ngram_counts<T: Ord>(seq: &[T], n: usize) -> Vec<(&[T], u32)> {
    if n == 0 || seq.len() < n {
        return Vec::new();
    }
    run_lengths(seq.windows(n).collect())
}

/// Character n-grams (n <= 6) packed 21 bits a character into one integer,
/// sorted, with their counts; equal keys are equal n-grams.
fn char_ngram_counts(chars: &[char], n: usize) -> Vec<(u128, u32)> {
    debug_assert!(n <= 6);
    if n == 0 || chars.len() < n {
        return Vec::new();
    }
    run_lengths(
        chars
            .windows(n)
            .map(|w| w.iter().fold(0u128, |k, &c| (k << 21) | c as u128))
            .collect(),
    )
}

/// Merge two sorted count lists keeping the maximum count of each n-gram.
fn merge_max<K: Ord + Copy>(a: &[(K, u32)], b: &[(K, u32)]) -> Vec<(K, u32)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[i].0, a[i].1.max(b[j].1)));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// (total hypothesis n-grams, clipped matches) of sorted count lists.
fn clipped_matches<K: Ord + Copy>(hyp: &[(K, u32)], rf: &[(K, u32)]) -> (u64, u64) {
    let total: u64 = hyp.iter().map(|&(_, c)| c as u64).sum();
    let (mut i, mut j, mut m) = (0, 0, 0u64);
    while i < hyp.len() && j < rf.len() {
        match hyp[i].0.cmp(&rf[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                m += hyp[i].1.min(rf[j].1) as u64;
                i += 1;
                j += 1;
            }
        }
    }
    (total, m)
}

fn intern<'a>(tokens: &[&'a str], ids: &mut std::collections::HashMap<&'a str, u32>) -> Vec<u32> {
    tokens
        .iter()
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t).or_insert(next)
        })
        .collect()
}

/// sacrebleu's closest reference length: the smallest |hyp - ref|, ties to
/// the shorter reference. `None` when there are no references.
pub fn closest_ref_len(hyp_len: usize, ref_lens: &[usize]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for &r in ref_lens {
        let d = hyp_len.abs_diff(r);
        best = match best {
            None => Some((d, r)),
            Some((bd, br)) if d < bd || (d == bd && r < br) => Some((d, r)),
            b => b,
        };
    }
    best.map(|(_, r)| r)
}

/// BLEU statistics of one segment from whitespace-separated token strings:
/// `[hyp_len, ref_len, correct_1..max_order, total_1..max_order]`.
pub fn bleu_segment(hyp: &str, refs: &[&str], max_order: usize) -> Vec<u64> {
    let hyp_t = split_ws(hyp);
    let refs_t: Vec<Vec<&str>> = refs.iter().map(|r| split_ws(r)).collect();
    let mut ids = std::collections::HashMap::with_capacity(hyp_t.len() * 2 + 8);
    let hyp_i = intern(&hyp_t, &mut ids);
    let refs_i: Vec<Vec<u32>> = refs_t.iter().map(|r| intern(r, &mut ids)).collect();
    let ref_lens: Vec<usize> = refs_t.iter().map(Vec::len).collect();
    let mut out = vec![0u64; 2 + 2 * max_order];
    out[0] = hyp_t.len() as u64;
    out[1] = closest_ref_len(hyp_t.len(), &ref_lens).unwrap_or(0) as u64;
    for n in 1..=max_order {
        let (total, correct) = if max_order <= 4 {
            // token ids packed 32 bits each into one integer
            let packed = |ids: &[u32]| -> Vec<(u128, u32)> {
                if ids.len() < n {
                    return Vec::new();
                }
                run_lengths(
                    ids.windows(n)
                        .map(|w| w.iter().fold(0u128, |k, &t| (k << 32) | t as u128))
                        .collect(),
                )
            };
            let h = packed(&hyp_i);
            let mut rc: Vec<(u128, u32)> = Vec::new();
            for r in &refs_i {
                let c = packed(r);
                rc = if rc.is_empty() { c } else { merge_max(&rc, &c) };
            }
            clipped_matches(&h, &rc)
        } else {
            let h = ngram_counts(&hyp_i, n);
            let mut rc: Vec<(&[u32], u32)> = Vec::new();
            for r in &refs_i {
                let c = ngram_counts(r, n);
                rc = if rc.is_empty() { c } else { merge_max(&rc, &c) };
            }
            clipped_matches(&h, &rc)
        };
        out[1 + n] = correct;
        out[1 + max_order + n] = total;
    }
    out
}

/// BLEU statistics of a line pair set: tokenization then [`bleu_segment`].
pub fn bleu_line(hyp: &str, refs: &[&str], tok: Tokenizer, max_order: usize) -> Vec<u64> {
    let h = tokenize(hyp, tok);
    let r: Vec<String> = refs.iter().map(|r| tokenize(r, tok)).collect();
    let rr: Vec<&str> = r.iter().map(String::as_str).collect();
    bleu_segment(&h, &rr, max_order)
}

const PUNCTS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// chrF++'s word split: whitespace split, then one punctuation mark split off
/// the end of a word, or else off its start.
pub fn chrf_words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for w in split_ws(s) {
        let mut it = w.chars();
        let first = it.next().unwrap();
        if it.next().is_none() {
            out.push(w);
            continue;
        }
        let last = w.chars().next_back().unwrap();
        if PUNCTS.contains(last) {
            let k = w.len() - last.len_utf8();
            out.push(&w[..k]);
            out.push(&w[k..]);
        } else if PUNCTS.contains(first) {
            let k = first.len_utf8();
            out.push(&w[..k]);
            out.push(&w[k..]);
        } else {
            out.push(w);
        }
    }
    out
}

/// sacrebleu's `CHRF._compute_f_score` (effective-order averaging, no eps
/// smoothing) on one statistics vector; the same floating-point operations
/// in the same order.
pub fn chrf_f_score(stats: &[u64], beta: f64) -> f64 {
    let s: Vec<f64> = stats.iter().map(|&v| v as f64).collect();
    crate::metric::chrf(&s, stats.len() / 3, beta, false)
}

struct ChrfSide<'a> {
    chars: Vec<char>,
    words: Vec<&'a str>,
}

impl<'a> ChrfSide<'a> {
    fn new(s: &'a str, word_order: usize) -> Self {
        let chars = s.chars().filter(|&c| !is_py_space(c)).collect();
        let words = if word_order > 0 {
            chrf_words(s)
        } else {
            Vec::new()
        };
        ChrfSide { chars, words }
    }
}

fn push_match<K: Ord + Copy>(out: &mut Vec<u64>, h: &[(K, u32)], r: &[(K, u32)]) {
    let (hyp_total, m) = clipped_matches(h, r);
    let ref_total: u64 = r.iter().map(|&(_, c)| c as u64).sum();
    out.push(if r.is_empty() { 0 } else { hyp_total });
    out.push(ref_total);
    out.push(m);
}

/// chrF statistics of one segment (lines as given: lowercasing, if wanted, is
/// done by the caller): `[hyp, ref, match]` for char orders 1..=char_order
/// then word orders 1..=word_order, against the best reference.
pub fn chrf_segment(
    hyp: &str,
    refs: &[&str],
    char_order: usize,
    word_order: usize,
    beta: f64,
) -> Vec<u64> {
    let h = ChrfSide::new(hyp, word_order);
    let packed = char_order <= 6;
    let hc: Vec<Vec<(u128, u32)>> = if packed {
        (1..=char_order)
            .map(|n| char_ngram_counts(&h.chars, n))
            .collect()
    } else {
        Vec::new()
    };
    let hcs: Vec<Vec<(&[char], u32)>> = if packed {
        Vec::new()
    } else {
        (1..=char_order)
            .map(|n| ngram_counts(&h.chars, n))
            .collect()
    };
    let hw: Vec<Vec<(&[&str], u32)>> = (1..=word_order)
        .map(|n| ngram_counts(&h.words, n))
        .collect();
    let mut best: Vec<u64> = Vec::new();
    let mut best_f = -1.0f64;
    for r in refs {
        let rs = ChrfSide::new(r, word_order);
        let mut stats = Vec::with_capacity(3 * (char_order + word_order));
        for n in 1..=char_order {
            if packed {
                push_match(&mut stats, &hc[n - 1], &char_ngram_counts(&rs.chars, n));
            } else {
                push_match(&mut stats, &hcs[n - 1], &ngram_counts(&rs.chars, n));
            }
        }
        for n in 1..=word_order {
            push_match(&mut stats, &hw[n - 1], &ngram_counts(&rs.words, n));
        }
        let f = chrf_f_score(&stats, beta);
        if f > best_f {
            best_f = f;
            best = stats;
        }
    }
    best
}

/// Length of the longest common subsequence of two token sequences
/// (ROUGE-L), in O(len(a)·len(b)) time and O(min) memory.
pub fn lcs_len<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut prev = vec![0usize; short.len() + 1];
    let mut cur = vec![0usize; short.len() + 1];
    for x in long {
        for (j, y) in short.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                cur[j].max(prev[j + 1])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[short.len()]
}

/// [`lcs_len`] of two whitespace-separated token strings.
pub fn lcs_len_str(a: &str, b: &str) -> usize {
    let (ta, tb) = (split_ws(a), split_ws(b));
    let mut ids = std::collections::HashMap::with_capacity(ta.len() + tb.len());
    let (ia, ib) = (intern(&ta, &mut ids), intern(&tb, &mut ids));
    lcs_len(&ia, &ib)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_like_python() {
        assert_eq!(split_ws(" a\u{1c}b\u{3000}c\t\n"), vec!["a", "b", "c"]);
        assert_eq!(rstrip_ws("x \u{a0}\r"), "x");
        assert!(!is_py_space('\u{200b}'));
        assert!(!is_py_space('\u{feff}'));
    }

    #[test]
    fn tok13a_rules() {
        assert_eq!(tokenize_13a("Hello, world."), "Hello , world .");
        assert_eq!(tokenize_13a("3.14 and 1,000"), "3.14 and 1,000");
        assert_eq!(tokenize_13a("1990-2000"), "1990 - 2000");
        assert_eq!(tokenize_13a("a-b"), "a-b");
        assert_eq!(tokenize_13a("it's (ok)"), "it's ( ok )");
        // sequential replacement: "&amp;lt;" becomes "&lt;" and then "<"
        assert_eq!(tokenize_13a("&quot;x&quot; &amp;lt;"), "\" x \" <");
        assert_eq!(tokenize_13a("a..b"), "a . . b");
        assert_eq!(tokenize_13a("<skipped>x"), "x");
        assert_eq!(tokenize_13a("end 2020."), "end 2020 .");
        assert_eq!(tokenize_13a(""), "");
    }

    #[test]
    fn zh_rules() {
        // expected strings from sacrebleu 2.6.0's TokenizerZh
        assert_eq!(tokenize_zh("我们去北京。"), "我 们 去 北 京 。");
        assert_eq!(tokenize_zh("  他说“你好”… "), "他 说 “ 你 好 ” …");
        assert_eq!(
            tokenize_zh("价格3.5元，共1,000件"),
            "价 格 3.5 元 ， 共 1,000 件"
        );
        assert_eq!(tokenize_zh("ABC，ＡＢＣ！"), "ABC ， Ａ Ｂ Ｃ ！");
        // supplementary-plane ideographs are not in sacrebleu's effective ranges
        assert_eq!(
            tokenize_zh("\u{20000}\u{2F800}x 中"),
            "\u{20000}\u{2F800}x 中"
        );
        assert_eq!(tokenize_zh("€10 →"), "€ 10 →");
        assert!(is_zh_char('\u{2001}') && !is_zh_char('\u{2000}') && is_zh_char('\u{2A6D}'));
        assert!(!is_zh_char('\u{2A6E}') && !is_zh_char('\u{2FE0}'));
        assert_eq!(tokenize("中文 x", Tokenizer::Zh), "中 文 x");
    }

    #[test]
    fn bleu_counts() {
        let s = bleu_segment("the cat the cat", &["the cat sat", "the the cat cat on"], 4);
        // hyp len 4; refs 3 and 5 both at distance 1 -> the shorter (3)
        assert_eq!(s[0], 4);
        assert_eq!(s[1], 3);
        // unigrams: the x2 (max ref count 2), cat x2 (max 2) -> 4 of 4;
        // bigrams: "the cat" x2 but at most once in any one reference -> 1
        // (sacrebleu 2.6.0 gives [4, 3, 4, 1, 0, 0, 4, 3, 2, 1] with tokenize="none")
        assert_eq!(&s[2..6], &[4, 1, 0, 0]);
        assert_eq!(&s[6..10], &[4, 3, 2, 1]);
        // the packed (order <= 4) and the generic paths agree on the first orders
        let g = bleu_segment("the cat the cat", &["the cat sat", "the the cat cat on"], 5);
        assert_eq!(&g[2..6], &s[2..6]);
        assert_eq!(&g[7..11], &s[6..10]);
        let e = bleu_segment("", &["a b"], 4);
        assert_eq!(e, vec![0, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn lcs() {
        assert_eq!(lcs_len_str("a b c d", "b d"), 2);
        assert_eq!(lcs_len_str("a b c", "c b a"), 1);
        assert_eq!(lcs_len_str("", "a"), 0);
        assert_eq!(lcs_len_str("x a y b z", "a b a b"), 2);
        assert_eq!(lcs_len(&[1, 2, 3, 2, 1], &[2, 1, 2, 3, 2, 1]), 5);
    }

    #[test]
    fn chrf_counts() {
        let s = chrf_segment("ab c", &["abc"], 2, 0, 2.0);
        assert_eq!(s, vec![3, 3, 3, 2, 2, 2]);
        let s = chrf_segment("x", &["", "x"], 1, 0, 2.0);
        assert_eq!(s, vec![1, 1, 1]);
        // no reference n-grams of an order -> hyp count reported as 0
        let s = chrf_segment("abc", &["a"], 2, 0, 2.0);
        assert_eq!(s, vec![3, 1, 1, 0, 0, 0]);
        assert_eq!(chrf_words("(hi) a, b"), vec!["(hi", ")", "a", ",", "b"]);
        assert!((chrf_f_score(&[3, 3, 3], 2.0) - 100.0).abs() < 1e-12);
        // the packed (order <= 6) and the generic (order > 6) paths agree
        let a = chrf_segment(
            "ab abc abcd abcdefg hij",
            &["abcdefg x", "b abcd"],
            7,
            2,
            2.0,
        );
        let b = chrf_segment(
            "ab abc abcd abcdefg hij",
            &["abcdefg x", "b abcd"],
            6,
            2,
            2.0,
        );
        assert_eq!(&a[..18], &b[..18]);
        assert_eq!(&a[21..], &b[18..]);
    }
}
