//! CoNLL-U scoring with the semantics of the CoNLL 2018 shared task
//! evaluation script (`conll18_ud_eval.py` v1.2).
//!
//! Pure Rust. [`evaluate`] reads a gold and a system file (UTF-8 bytes),
//! aligns their words on the characters of the text without whitespace and
//! returns, for every **gold** sentence, the counts `[correct, system, gold,
//! aligned]` of each of the 13 metrics in [`METRICS`]. Summing the rows gives
//! the reference scorer's corpus counts.
//!
//! Reading follows the reference scorer: comments only before a sentence,
//! 10 TAB-separated columns, empty nodes (ID with `.`) skipped, Unicode `Zs`
//! characters removed from FORM, a multiword token `a-b` followed by its
//! b-a+1 words, FEATS reduced to the universal features (sorted), DEPREL cut
//! at the first `:`. It is stricter where the reference scorer would accept
//! a malformed file silently or crash: word IDs inside a multiword token
//! must be consecutive, a range must not be empty, IDs and HEADs are plain
//! ASCII integers, and a carriage return may only end a line.
//!
//! Sentence attribution (the reference scorer has none): a gold word, a
//! correct word and an aligned system word count for the gold sentence of
//! the gold word; an unaligned system word, and any system token or
//! sentence, count for the gold sentence containing its first character.

/// Metric names, in the order of the reference scorer's table.
pub const METRICS: [&str; 13] = [
    "Tokens",
    "Sentences",
    "Words",
    "UPOS",
    "XPOS",
    "UFeats",
    "AllTags",
    "Lemmas",
    "UAS",
    "LAS",
    "CLAS",
    "MLAS",
    "BLEX",
];
/// Counts per metric: correct, system, gold, aligned.
pub const N_COUNTS: usize = 4;
const M_TOKENS: usize = 0;
const M_SENTENCES: usize = 1;
const M_WORDS: usize = 2;
const C_CORRECT: usize = 0;
const C_SYSTEM: usize = 1;
const C_GOLD: usize = 2;
const C_ALIGNED: usize = 3;

#[cfg(test)]
const UNIVERSAL_FEATURES: [&str; 21] = [
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number",
    "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident",
    "Polarity", "Person", "Polite",
];
#[cfg(test)]
const CONTENT: [&str; 29] = [
    "nsubj",
    "obj",
    "iobj",
    "csubj",
    "ccomp",
    "xcomp",
    "obl",
    "vocative",
    "expl",
    "dislocated",
    "advcl",
    "advmod",
    "discourse",
    "nmod",
    "appos",
    "nummod",
    "acl",
    "amod",
    "conj",
    "fixed",
    "flat",
    "compound",
    "list",
    "parataxis",
    "orphan",
    "goeswith",
    "reparandum",
    "root",
    "dep",
];
#[cfg(test)]
const FUNCTIONAL: [&str; 7] = ["aux", "cop", "mark", "det", "clf", "case", "cc"];

/// Which input an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Gold,
    System,
}

/// A reading or matching error: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UdError {
    pub side: Side,
    /// 1-based line number, when known.
    pub line: Option<usize>,
    /// 1-based sentence number in that file, when known.
    pub sentence: Option<usize>,
    /// The sentence's `# sent_id`, when it has one.
    pub sent_id: Option<String>,
    pub message: String,
}

impl From<UdError> for crate::Error {
    fn from(e: UdError) -> Self {
        let (file, side) = match e.side {
            Side::Gold => (crate::FileRole::Gold, "gold"),
            Side::System => (crate::FileRole::System, "system"),
        };
        let mut where_ = String::new();
        if let Some(k) = e.sentence {
            where_ = format!(" (sentence {k}");
            if let Some(id) = &e.sent_id {
                where_.push_str(&format!(", sent_id {id}"));
            }
            where_.push(')');
        }
        let mut message = format!("{side} CoNLL-U file{where_}: {}", e.message);
        if e.message.starts_with("text mismatch") {
            message.push_str(" (gold file: {gold})");
        }
        crate::Error::Format {
            file,
            line: e.line,
            message,
        }
    }
}

/// Unicode general category Zs (stable since Unicode 4.1).
#[inline]
fn is_zs(c: char) -> bool {
    matches!(
        c,
        '\u{20}' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

struct Word<'a> {
    /// Byte span of the word's token (the whole multiword token for its words).
    start: u32,
    end: u32,
    mwt: bool,
    form: std::borrow::Cow<'a, str>,
    lemma: &'a str,
    upos: &'a str,
    xpos: &'a str,
    feats: std::borrow::Cow<'a, str>,
    deprel: &'a str,
    /// Global index of the parent, `u32::MAX` for the root's child.
    parent: u32,
    sent: u32,
    content: bool,
    functional: bool,
    /// First functional child and next functional sibling (`u32::MAX` = none), in word order.
    first_child: u32,
    next_sibling: u32,
    /// 1-based line of the word in its file.
    line: u32,
}

struct Sent<'a> {
    start: u32,
    end: u32,
    sent_id: Option<&'a str>,
}

struct Doc<'a> {
    text: String,
    tokens: Vec<(u32, u32)>,
    token_line: Vec<u32>,
    sents: Vec<Sent<'a>>,
    words: Vec<Word<'a>>,
}

struct PErr {
    line: Option<usize>,
    sentence: Option<usize>,
    sent_id: Option<String>,
    message: String,
}

const NONE: u32 = u32::MAX;

fn parse_uint(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_int(s: &str) -> Option<i64> {
    match s.strip_prefix('-') {
        Some(rest) => parse_uint(rest).map(|v| -(v as i64)),
        None => parse_uint(s).map(|v| v as i64),
    }
}

fn is_universal(feat: &str) -> bool {
    let name = feat.split('=').next().unwrap_or("");
    matches!(
        name,
        "PronType"
            | "NumType"
            | "Poss"
            | "Reflex"
            | "Foreign"
            | "Abbr"
            | "Gender"
            | "Animacy"
            | "Number"
            | "Case"
            | "Definite"
            | "Degree"
            | "VerbForm"
            | "Mood"
            | "Tense"
            | "Aspect"
            | "Voice"
            | "Evident"
            | "Polarity"
            | "Person"
            | "Polite"
    )
}

/// FEATS reduced to the universal features, sorted, joined by `|` (borrowed when already so).
fn universal_feats(f: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if f == "_" || f.is_empty() {
        return Cow::Borrowed("");
    }
    let mut prev = "";
    let mut clean = true;
    for x in f.split('|') {
        if !is_universal(x) || x < prev {
            clean = false;
            break;
        }
        prev = x;
    }
    if clean {
        return Cow::Borrowed(f);
    }
    let mut kept: Vec<&str> = f.split('|').filter(|x| is_universal(x)).collect();
    kept.sort_unstable();
    Cow::Owned(kept.join("|"))
}

/// Split a line on TABs into exactly 10 columns; otherwise the number found.
fn columns(line: &str) -> Result<[&str; 10], usize> {
    let mut out = [""; 10];
    let mut n = 0;
    for part in line.split('\t') {
        if n < 10 {
            out[n] = part;
        }
        n += 1;
    }
    if n == 10 {
        Ok(out)
    } else {
        Err(n)
    }
}

fn strip_zs(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(is_zs) {
        std::borrow::Cow::Owned(s.chars().filter(|&c| !is_zs(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

const COLS_HELP: &str = "a word line needs exactly 10 TAB-separated columns \
(ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC); a sentence ends with one empty line";

/// Read one CoNLL-U file the way the reference scorer does.
fn parse(data: &str) -> Result<Doc<'_>, PErr> {
    if data.len() >= u32::MAX as usize / 2 {
        return Err(PErr {
            line: None,
            sentence: None,
            sent_id: None,
            message: "file too large (>2 GB)".into(),
        });
    }
    // Lines: split on '\n'; a final '\n' does not start another line.
    let body = data.strip_suffix('\n').unwrap_or(data);
    let mut lines = body
        .split('\n')
        .take(if data.is_empty() { 0 } else { usize::MAX })
        .enumerate();
    let mut doc = Doc {
        text: String::with_capacity(data.len() / 4),
        tokens: Vec::new(),
        token_line: Vec::new(),
        sents: Vec::new(),
        words: Vec::with_capacity(data.len() / 64),
    };
    doc.tokens.reserve(data.len() / 64);
    doc.token_line.reserve(data.len() / 64);
    let mut in_sent = false;
    let mut sent_start_word = 0usize;
    let mut sent_first_line = 0usize;
    let mut pending_id: Option<&str> = None;
    let mut heads: Vec<i64> = Vec::new();
    let mut lineno = 0usize;
    macro_rules! fail {
        ($line:expr, $($arg:tt)*) => {
            return Err(PErr {
                line: Some($line),
                sentence: if in_sent { Some(doc.sents.len()) } else { None },
                sent_id: if in_sent { doc.sents.last().and_then(|s| s.sent_id).map(str::to_owned) } else { None },
                message: format!($($arg)*),
            })
        };
    }
    while let Some((i, raw)) = lines.next() {
        lineno = i + 1;
        let line = match clean(raw, lineno) {
            Ok(l) => l,
            Err(m) => fail!(lineno, "{m}"),
        };
        if !in_sent {
            if line.starts_with('#') {
                if let Some(rest) = line.strip_prefix("# sent_id") {
                    let rest = rest.trim_start();
                    if let Some(v) = rest.strip_prefix('=') {
                        pending_id = Some(v.trim());
                    }
                }
                continue;
            }
            in_sent = true;
            doc.sents.push(Sent {
                start: doc.text.len() as u32,
                end: 0,
                sent_id: pending_id.take(),
            });
            sent_start_word = doc.words.len();
            sent_first_line = lineno;
            heads.clear();
        }
        if line.is_empty() {
            finish_sentence(&mut doc, sent_start_word, &heads).map_err(|m| PErr {
                line: Some(sent_first_line),
                sentence: Some(doc.sents.len()),
                sent_id: doc.sents.last().and_then(|s| s.sent_id).map(str::to_owned),
                message: m,
            })?;
            let end = doc.text.len() as u32;
            doc.sents.last_mut().unwrap().end = end;
            in_sent = false;
            continue;
        }
        let cols = match columns(line) {
            Ok(c) => c,
            Err(n) => fail!(
                lineno,
                "expected 10 TAB-separated columns, found {n}: {:?}; {COLS_HELP}",
                trunc(line)
            ),
        };
        if cols[0].contains('.') {
            continue; // empty node
        }
        let form = strip_zs(cols[1]);
        if form.is_empty() {
            fail!(
                lineno,
                "empty FORM (after removing spaces); every token needs a non-empty FORM"
            );
        }
        let start = doc.text.len() as u32;
        doc.text.push_str(&form);
        let end = doc.text.len() as u32;
        doc.tokens.push((start, end));
        doc.token_line.push(lineno as u32);
        let expected = (doc.words.len() - sent_start_word + 1) as u64;
        let sent = (doc.sents.len() - 1) as u32;
        if cols[0].contains('-') {
            let parts: Vec<&str> = cols[0].split('-').collect();
            let (a, b) = match (
                parts.len(),
                parts.first().and_then(|p| parse_uint(p)),
                parts.get(1).and_then(|p| parse_uint(p)),
            ) {
                (2, Some(a), Some(b)) => (a, b),
                _ => fail!(
                    lineno,
                    "cannot parse multiword token ID {:?}; it must look like 3-4",
                    cols[0]
                ),
            };
            if a != expected || b < a {
                fail!(
                    lineno,
                    "multiword token range {:?} does not fit: the next word ID is {expected}",
                    cols[0]
                );
            }
            for k in a..=b {
                let Some((j, wraw)) = lines.next() else {
                    fail!(
                        lineno,
                        "the file ends inside multiword token {:?}; its words {a}..{b} must follow it",
                        cols[0]
                    );
                };
                lineno = j + 1;
                let wl = match clean(wraw, lineno) {
                    Ok(l) => l,
                    Err(m) => fail!(lineno, "{m}"),
                };
                let wc = match columns(wl) {
                    Ok(c) => c,
                    Err(n) => fail!(lineno, "expected 10 TAB-separated columns in word {k} of multiword token {:?}, found {n}: {:?}; {COLS_HELP}", cols[0], trunc(wl)),
                };
                if parse_uint(wc[0]) != Some(k) {
                    fail!(
                        lineno,
                        "word ID {:?} inside multiword token {:?}: expected {k}",
                        wc[0],
                        cols[0]
                    );
                }
                let Some(h) = parse_int(wc[6]) else {
                    fail!(
                        lineno,
                        "cannot parse HEAD {:?}; it must be an integer (0 for the root)",
                        wc[6]
                    );
                };
                if h < 0 {
                    fail!(lineno, "HEAD {h} is negative");
                }
                heads.push(h);
                doc.words.push(make_word(
                    start,
                    end,
                    true,
                    std::borrow::Cow::Borrowed(wc[1]),
                    &wc,
                    sent,
                ));
                if let Some(w) = doc.words.last_mut() {
                    w.line = lineno as u32;
                }
            }
        } else {
            match parse_uint(cols[0]) {
                None => fail!(
                    lineno,
                    "cannot parse word ID {:?}; it must be a positive integer",
                    cols[0]
                ),
                Some(id) if id != expected => {
                    fail!(
                        lineno,
                        "word ID {} for word {:?}: expected {expected} (IDs must be consecutive from 1)",
                        cols[0],
                        &*form
                    )
                }
                _ => {}
            }
            let Some(h) = parse_int(cols[6]) else {
                fail!(
                    lineno,
                    "cannot parse HEAD {:?}; it must be an integer (0 for the root)",
                    cols[6]
                );
            };
            if h < 0 {
                fail!(lineno, "HEAD {h} is negative");
            }
            heads.push(h);
            doc.words
                .push(make_word(start, end, false, form, &cols, sent));
            if let Some(w) = doc.words.last_mut() {
                w.line = lineno as u32;
            }
        }
    }
    if in_sent {
        fail!(
            lineno,
            "the file does not end with an empty line after the last sentence"
        );
    }
    if doc.sents.is_empty() {
        return Err(PErr {
            line: None,
            sentence: None,
            sent_id: None,
            message: "the file contains no sentence (it is empty or has only comments); \
                      a CoNLL-U file needs at least one sentence followed by an empty line"
                .into(),
        });
    }
    Ok(doc)
}

fn clean(raw: &str, n: usize) -> Result<&str, String> {
    let l = raw.strip_suffix('\r').unwrap_or(raw);
    if l.contains('\r') {
        return Err(format!(
            "line {n} contains a carriage return inside the line; use \\n or \\r\\n line ends"
        ));
    }
    Ok(l)
}

fn trunc(s: &str) -> String {
    if s.chars().count() > 80 {
        let t: String = s.chars().take(80).collect();
        t + "..."
    } else {
        s.to_owned()
    }
}

fn is_content(d: &str) -> bool {
    matches!(
        d,
        "nsubj"
            | "obj"
            | "iobj"
            | "csubj"
            | "ccomp"
            | "xcomp"
            | "obl"
            | "vocative"
            | "expl"
            | "dislocated"
            | "advcl"
            | "advmod"
            | "discourse"
            | "nmod"
            | "appos"
            | "nummod"
            | "acl"
            | "amod"
            | "conj"
            | "fixed"
            | "flat"
            | "compound"
            | "list"
            | "parataxis"
            | "orphan"
            | "goeswith"
            | "reparandum"
            | "root"
            | "dep"
    )
}

fn make_word<'a>(
    start: u32,
    end: u32,
    mwt: bool,
    form: std::borrow::Cow<'a, str>,
    c: &[&'a str],
    sent: u32,
) -> Word<'a> {
    let deprel = c[7].split(':').next().unwrap_or("");
    Word {
        start,
        end,
        mwt,
        form,
        lemma: c[2],
        upos: c[3],
        xpos: c[4],
        feats: universal_feats(c[5]),
        deprel,
        parent: NONE,
        sent,
        content: is_content(deprel),
        functional: matches!(
            deprel,
            "aux" | "cop" | "mark" | "det" | "clf" | "case" | "cc"
        ),
        first_child: NONE,
        next_sibling: NONE,
        line: 0,
    }
}

/// Link heads, check range, cycles and the single root; collect functional children.
fn finish_sentence(doc: &mut Doc<'_>, first: usize, heads: &[i64]) -> Result<(), String> {
    let n = heads.len();
    if n == 0 {
        return Err(
            "sentence without words (an empty line must follow each sentence exactly once)".into(),
        );
    }
    for (k, &h) in heads.iter().enumerate() {
        if h as usize > n {
            return Err(format!(
                "HEAD {h} of word {} points outside the sentence ({n} words)",
                k + 1
            ));
        }
    }
    // Cycle check: 0 unseen, 1 on the current path, 2 reaches the root.
    let mut state = vec![0u8; n + 1];
    state[0] = 2;
    let mut path = Vec::new();
    for k in 1..=n {
        let mut cur = k;
        path.clear();
        while state[cur] == 0 {
            state[cur] = 1;
            path.push(cur);
            cur = heads[cur - 1] as usize;
        }
        if state[cur] == 1 {
            return Err(format!(
                "the HEADs form a cycle through word {cur}; every word must lead to the root (HEAD 0)"
            ));
        }
        for &p in &path {
            state[p] = 2;
        }
    }
    let roots = heads.iter().filter(|&&h| h == 0).count();
    if roots != 1 {
        return Err(format!(
            "{roots} words have HEAD 0; a sentence needs exactly one root"
        ));
    }
    let mut last_child = vec![NONE; n];
    for (k, &h) in heads.iter().enumerate() {
        let h = h as usize;
        if h == 0 {
            continue;
        }
        let p = first + h - 1;
        let w = first + k;
        doc.words[w].parent = p as u32;
        if doc.words[w].functional {
            let lc = last_child[h - 1];
            if lc == NONE {
                doc.words[p].first_child = w as u32;
            } else {
                doc.words[lc as usize].next_sibling = w as u32;
            }
            last_child[h - 1] = w as u32;
        }
    }
    Ok(())
}

/// Word alignment of the reference scorer: `map[system word] = gold word` (or NONE).
fn align(g: &[Word<'_>], s: &[Word<'_>]) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut map = vec![NONE; s.len()];
    let mut pairs = Vec::with_capacity(g.len().min(s.len()));
    let (mut gi, mut si) = (0usize, 0usize);
    let mut lcs: Vec<u32> = Vec::new();
    let mut gl: Vec<String> = Vec::new();
    let mut sl: Vec<String> = Vec::new();
    while gi < g.len() && si < s.len() {
        if !g[gi].mwt && !s[si].mwt {
            if g[gi].start == s[si].start && g[gi].end == s[si].end {
                map[si] = gi as u32;
                pairs.push((gi as u32, si as u32));
                gi += 1;
                si += 1;
            } else if g[gi].start <= s[si].start {
                gi += 1;
            } else {
                si += 1;
            }
            continue;
        }
        // A multiword span: start it, then grow until no word of either side sticks out.
        let mut span_end;
        if g[gi].mwt {
            span_end = g[gi].end;
            if !s[si].mwt && s[si].start < g[gi].start {
                si += 1;
            }
        } else {
            span_end = s[si].end;
            if g[gi].start < s[si].start {
                gi += 1;
            }
        }
        let (gs, ss) = (gi, si);
        let inside = |w: &[Word<'_>], i: usize, e: u32| -> bool {
            i < w.len()
                && if w[i].mwt {
                    w[i].start < e
                } else {
                    w[i].end <= e
                }
        };
        while inside(g, gi, span_end) || inside(s, si, span_end) {
            let take_gold = gi < g.len() && (si >= s.len() || g[gi].start <= s[si].start);
            let w = if take_gold { &g[gi] } else { &s[si] };
            if w.mwt && w.end > span_end {
                span_end = w.end;
            }
            if take_gold {
                gi += 1;
            } else {
                si += 1;
            }
        }
        let (n, m) = (gi - gs, si - ss);
        if n == 0 || m == 0 {
            continue;
        }
        // LCS over lower-cased forms, suffix table with a zero border.
        gl.clear();
        gl.extend(g[gs..gi].iter().map(|w| w.form.to_lowercase()));
        sl.clear();
        sl.extend(s[ss..si].iter().map(|w| w.form.to_lowercase()));
        let w = m + 1;
        lcs.clear();
        lcs.resize((n + 1) * w, 0);
        for a in (0..n).rev() {
            for b in (0..m).rev() {
                let mut v = if gl[a] == sl[b] {
                    1 + lcs[(a + 1) * w + b + 1]
                } else {
                    0
                };
                v = v.max(lcs[(a + 1) * w + b]).max(lcs[a * w + b + 1]);
                lcs[a * w + b] = v;
            }
        }
        let (mut a, mut b) = (0usize, 0usize);
        while a < n && b < m {
            if gl[a] == sl[b] {
                map[ss + b] = (gs + a) as u32;
                pairs.push(((gs + a) as u32, (ss + b) as u32));
                a += 1;
                b += 1;
            } else if lcs[a * w + b] == lcs[(a + 1) * w + b] {
                a += 1;
            } else {
                b += 1;
            }
        }
    }
    (map, pairs)
}

/// Result of [`evaluate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Row-major (gold sentences × 13 metrics × 4 counts).
    pub counts: Vec<u64>,
    pub n_sentences: usize,
    /// `# sent_id` of each gold sentence (None where absent).
    pub sent_ids: Vec<Option<String>>,
}

fn to_err(side: Side, e: PErr) -> UdError {
    UdError {
        side,
        line: e.line,
        sentence: e.sentence,
        sent_id: e.sent_id,
        message: e.message,
    }
}

fn decode(side: Side, bytes: &[u8]) -> Result<&str, UdError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        UdError {
            side,
            line: Some(line),
            sentence: None,
            sent_id: None,
            message: format!(
                "bytes that are not UTF-8 at byte offset {at}; save the file as UTF-8"
            ),
        }
    })
}

fn sentence_at(sents: &[Sent<'_>], pos: u32) -> usize {
    sents.partition_point(|s| s.start <= pos).saturating_sub(1)
}

fn token_at(tokens: &[(u32, u32)], pos: u32) -> Option<usize> {
    let k = tokens.partition_point(|t| t.0 <= pos);
    if k == 0 || tokens[k - 1].1 <= pos {
        None
    } else {
        Some(k - 1)
    }
}

fn mismatch(gold: &Doc<'_>, sys: &Doc<'_>) -> UdError {
    let gb = gold.text.as_bytes();
    let sb = sys.text.as_bytes();
    let mut at = gb.iter().zip(sb).take_while(|(a, b)| a == b).count();
    while !gold.text.is_char_boundary(at) || !sys.text.is_char_boundary(at) {
        at -= 1;
    }
    let g20: String = gold.text[at..].chars().take(20).collect();
    let s20: String = sys.text[at..].chars().take(20).collect();
    let locate = |d: &Doc<'_>| -> (Option<usize>, Option<usize>, Option<String>) {
        match token_at(&d.tokens, at as u32) {
            Some(t) => {
                let k = sentence_at(&d.sents, at as u32);
                (
                    Some(d.token_line[t] as usize),
                    Some(k + 1),
                    d.sents[k].sent_id.map(str::to_owned),
                )
            }
            None => (None, None, None),
        }
    };
    let (gl, gsn, _) = locate(gold);
    let (sl, ssn, sid) = locate(sys);
    let where_ = |l: Option<usize>, s: Option<usize>| match (l, s) {
        (Some(l), Some(s)) => format!("line {l}, sentence {s}"),
        _ => "its end of file".to_owned(),
    };
    let message = format!(
        "text mismatch: the concatenation of tokens (without whitespace) in the gold file and in the system file \
         differ; first 20 differing characters in gold file: '{g20}' (gold {}) and system file: '{s20}' (system {}). \
         The system must keep the characters of the gold text",
        where_(gl, gsn),
        where_(sl, ssn)
    );
    UdError {
        side: Side::System,
        line: sl,
        sentence: ssn,
        sent_id: sid,
        message,
    }
}

/// Gold and system parsed, with identical texts (the scorer's precondition).
fn read_pair<'a>(gold: &'a [u8], system: &'a [u8]) -> Result<(Doc<'a>, Doc<'a>), UdError> {
    let gt = decode(Side::Gold, gold)?;
    let st = decode(Side::System, system)?;
    let g = parse(gt).map_err(|e| to_err(Side::Gold, e))?;
    let s = parse(st).map_err(|e| to_err(Side::System, e))?;
    if g.text != s.text {
        return Err(mismatch(&g, &s));
    }
    Ok((g, s))
}

/// What the scorer compares on an aligned pair of words.
struct Flags {
    upos: bool,
    xpos: bool,
    feats: bool,
    lemma: bool,
    uas: bool,
    las: bool,
}

/// The scorer's comparisons of gold word `gw` with its aligned system word
/// `sw`; `map[system word] = gold word`. A system parent without a gold
/// partner never equals a gold parent.
fn word_flags(gw: &Word<'_>, sw: &Word<'_>, map: &[u32]) -> Flags {
    let uas = if gw.parent == NONE || sw.parent == NONE {
        gw.parent == sw.parent
    } else {
        map[sw.parent as usize] == gw.parent
    };
    Flags {
        upos: gw.upos == sw.upos,
        xpos: gw.xpos == sw.xpos,
        feats: gw.feats == sw.feats,
        lemma: gw.lemma == "_" || gw.lemma == sw.lemma,
        uas,
        las: uas && gw.deprel == sw.deprel,
    }
}

/// The unit views of [`units`], in order.
pub const UNIT_VIEWS: [&str; 7] = ["las", "uas", "deprel", "upos", "xpos", "ufeats", "lemmas"];

/// Gold words with the labels the scorer compares, for diff, oracle,
/// agreement and McNemar: one unit per gold word (empty nodes excluded).
#[derive(Debug, Clone, PartialEq)]
pub struct Units {
    /// Per gold word: its sentence (0-based), form and 1-based line.
    pub sentence: Vec<u32>,
    pub forms: Vec<String>,
    pub lines: Vec<u32>,
    /// Per gold word: the aligned system word (`u32::MAX`: none) and that word's line.
    pub aligned: Vec<u32>,
    pub system_lines: Vec<u32>,
    pub n_system_words: usize,
    /// Per gold word: the gold relation without subtype (for per-relation tables).
    pub relation: Vec<String>,
    /// For the requested view of [`UNIT_VIEWS`]: (gold labels, system labels). A system label
    /// equals the gold label exactly when the scorer counts the word correct
    /// for that metric (for `deprel`: when the relations are equal); an
    /// unaligned gold word has the system label [`MISSING`].
    pub labels: Vec<(Vec<String>, Vec<String>)>,
    pub sent_ids: Vec<Option<String>>,
}

/// The label of a unit a system has no word for.
pub const MISSING: &str = "\u{2205}";

fn offset(parent: u32, word: usize) -> String {
    if parent == NONE {
        "root".to_string()
    } else {
        format!("{:+}", i64::from(parent) - word as i64)
    }
}

/// The units of `system` against `gold` (see [`Units`]) for the view
/// `UNIT_VIEWS[view]`, from the same parse and alignment as [`evaluate`].
/// `labels` then holds that one view.
pub fn units(gold: &[u8], system: &[u8], view: usize) -> Result<Units, UdError> {
    let (g, s) = read_pair(gold, system)?;
    let (map, pairs) = align(&g.words, &s.words);
    let n = g.words.len();
    let mut aligned = vec![NONE; n];
    for &(gi, si) in &pairs {
        aligned[gi as usize] = si;
    }
    let label_of = |w: &Word<'_>, head: String| -> String {
        match view {
            0 => format!("{}({head})", w.deprel),
            1 => head,
            2 => w.deprel.to_string(),
            3 => w.upos.to_string(),
            4 => w.xpos.to_string(),
            5 => w.feats.to_string(),
            _ => w.lemma.to_string(),
        }
    };
    let gold_l: Vec<String> = g
        .words
        .iter()
        .enumerate()
        .map(|(i, gw)| label_of(gw, offset(gw.parent, i)))
        .collect();
    let mut sys = vec![MISSING.to_string(); n];
    for &(gi, si) in &pairs {
        let (gi, si) = (gi as usize, si as usize);
        let (gw, sw) = (&g.words[gi], &s.words[si]);
        let f = word_flags(gw, sw, &map);
        let ok = [
            f.las,
            f.uas,
            gw.deprel == sw.deprel,
            f.upos,
            f.xpos,
            f.feats,
            f.lemma,
        ][view.min(6)];
        // the gold label when the scorer says correct, else the system's own value
        // (marked if it would read like the gold one)
        sys[gi] = if ok {
            gold_l[gi].clone()
        } else {
            let head = if view > 1 {
                String::new()
            } else if sw.parent == NONE {
                "root".to_string()
            } else if map[sw.parent as usize] == NONE {
                "?".to_string()
            } else {
                offset(map[sw.parent as usize], gi)
            };
            let mine = label_of(sw, head);
            if mine == gold_l[gi] {
                format!("{mine}\u{2260}")
            } else {
                mine
            }
        };
    }
    Ok(Units {
        sentence: g.words.iter().map(|w| w.sent).collect(),
        forms: g.words.iter().map(|w| w.form.to_string()).collect(),
        lines: g.words.iter().map(|w| w.line).collect(),
        system_lines: aligned
            .iter()
            .map(|&a| {
                if a == NONE {
                    0
                } else {
                    s.words[a as usize].line
                }
            })
            .collect(),
        aligned,
        n_system_words: s.words.len(),
        relation: g.words.iter().map(|w| w.deprel.to_string()).collect(),
        labels: vec![(gold_l, sys)],
        sent_ids: g
            .sents
            .iter()
            .map(|x| x.sent_id.map(str::to_owned))
            .collect(),
    })
}

/// Score `system` against `gold` (both UTF-8 CoNLL-U bytes).
pub fn evaluate(gold: &[u8], system: &[u8]) -> Result<Evaluation, UdError> {
    let (g, s) = read_pair(gold, system)?;
    let nm = METRICS.len();
    let ns = g.sents.len();
    let mut out = vec![0u64; ns * nm * N_COUNTS];
    let ix = |sent: usize, m: usize, c: usize| (sent * nm + m) * N_COUNTS + c;

    // Tokens and sentences: spans matched on identical start and end.
    fn spans(
        out: &mut [u64],
        gs: &[(u32, u32)],
        ss: &[(u32, u32)],
        sent_of: &dyn Fn(u32) -> usize,
        m: usize,
    ) {
        let nm = METRICS.len();
        let ix = |sent: usize, c: usize| (sent * nm + m) * N_COUNTS + c;
        for t in gs {
            out[ix(sent_of(t.0), C_GOLD)] += 1;
        }
        for t in ss {
            out[ix(sent_of(t.0), C_SYSTEM)] += 1;
        }
        let (mut a, mut b) = (0, 0);
        while a < gs.len() && b < ss.len() {
            if ss[b].0 < gs[a].0 {
                b += 1;
            } else if gs[a].0 < ss[b].0 {
                a += 1;
            } else {
                if gs[a].1 == ss[b].1 {
                    out[ix(sent_of(gs[a].0), C_CORRECT)] += 1;
                }
                a += 1;
                b += 1;
            }
        }
    }
    let sent_of = |p: u32| sentence_at(&g.sents, p);
    spans(&mut out, &g.tokens, &s.tokens, &sent_of, M_TOKENS);
    let gsp: Vec<(u32, u32)> = g.sents.iter().map(|x| (x.start, x.end)).collect();
    let ssp: Vec<(u32, u32)> = s.sents.iter().map(|x| (x.start, x.end)).collect();
    spans(&mut out, &gsp, &ssp, &sent_of, M_SENTENCES);

    let (map, pairs) = align(&g.words, &s.words);
    for w in &g.words {
        let k = w.sent as usize;
        for m in M_WORDS..=9 {
            out[ix(k, m, C_GOLD)] += 1;
        }
        if w.content {
            for m in 10..=12 {
                out[ix(k, m, C_GOLD)] += 1;
            }
        }
    }
    for (i, w) in s.words.iter().enumerate() {
        let k = if map[i] == NONE {
            sent_of(w.start)
        } else {
            g.words[map[i] as usize].sent as usize
        };
        for m in M_WORDS..=9 {
            out[ix(k, m, C_SYSTEM)] += 1;
        }
        if w.content {
            for m in 10..=12 {
                out[ix(k, m, C_SYSTEM)] += 1;
            }
        }
    }
    for &(gi, si) in &pairs {
        let gw = &g.words[gi as usize];
        let sw = &s.words[si as usize];
        let k = gw.sent as usize;
        let f = word_flags(gw, sw, &map);
        let (upos, feats, lemma, las) = (f.upos, f.feats, f.lemma, f.las);
        let flags = [
            true,
            f.upos,
            f.xpos,
            f.feats,
            f.upos && f.xpos && f.feats,
            f.lemma,
            f.uas,
            f.las,
        ];
        for (j, &ok) in flags.iter().enumerate() {
            let m = M_WORDS + j;
            out[ix(k, m, C_ALIGNED)] += 1;
            if ok {
                out[ix(k, m, C_CORRECT)] += 1;
            }
        }
        if gw.content {
            let mlas = las && upos && feats && {
                let (mut c, mut d) = (gw.first_child, sw.first_child);
                loop {
                    if c == NONE || d == NONE {
                        break c == d;
                    }
                    let (cw, dw) = (&g.words[c as usize], &s.words[d as usize]);
                    if map[d as usize] != c
                        || cw.deprel != dw.deprel
                        || cw.upos != dw.upos
                        || cw.feats != dw.feats
                    {
                        break false;
                    }
                    c = cw.next_sibling;
                    d = dw.next_sibling;
                }
            };
            for (m, ok) in [(10, las), (11, mlas), (12, las && lemma)] {
                out[ix(k, m, C_ALIGNED)] += 1;
                if ok {
                    out[ix(k, m, C_CORRECT)] += 1;
                }
            }
        }
    }
    Ok(Evaluation {
        counts: out,
        n_sentences: ns,
        sent_ids: g
            .sents
            .iter()
            .map(|x| x.sent_id.map(str::to_owned))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn totals(e: &Evaluation) -> Vec<[u64; 4]> {
        let mut t = vec![[0u64; 4]; METRICS.len()];
        for row in e.counts.chunks(METRICS.len() * N_COUNTS) {
            for m in 0..METRICS.len() {
                for c in 0..4 {
                    t[m][c] += row[m * 4 + c];
                }
            }
        }
        t
    }

    /// Words given as "form" or "surface w1 w2 ..." (a multiword token), chained heads.
    fn doc(words: &[&str]) -> String {
        let mut out = String::new();
        let mut n = 0;
        for w in words {
            let parts: Vec<&str> = w.split(' ').collect();
            if parts.len() == 1 {
                n += 1;
                out += &format!("{n}\t{}\t_\t_\t_\t_\t{}\t_\t_\t_\n", parts[0], n - 1);
            } else {
                out += &format!(
                    "{}-{}\t{}\t_\t_\t_\t_\t_\t_\t_\t_\n",
                    n + 1,
                    n + parts.len() - 1,
                    parts[0]
                );
                for p in &parts[1..] {
                    n += 1;
                    out += &format!("{n}\t{p}\t_\t_\t_\t_\t{}\t_\t_\t_\n", n - 1);
                }
            }
        }
        out + "\n"
    }

    fn words_correct(g: &[&str], s: &[&str]) -> u64 {
        let e = evaluate(doc(g).as_bytes(), doc(s).as_bytes()).unwrap();
        totals(&e)[M_WORDS][C_CORRECT]
    }

    #[test]
    fn relation_and_feature_sets() {
        for d in CONTENT {
            assert!(
                is_content(d)
                    && !make_word(
                        0,
                        1,
                        false,
                        "x".into(),
                        &["1", "x", "_", "_", "_", "_", "0", d, "_", "_"],
                        0
                    )
                    .functional
            );
        }
        for d in FUNCTIONAL {
            assert!(
                !is_content(d)
                    && make_word(
                        0,
                        1,
                        false,
                        "x".into(),
                        &["1", "x", "_", "_", "_", "_", "0", d, "_", "_"],
                        0
                    )
                    .functional
            );
        }
        for f in UNIVERSAL_FEATURES {
            assert!(is_universal(&format!("{f}=X")));
        }
        assert!(!is_content("punct") && !is_universal("NounClass=Bantu1"));
        assert_eq!(
            universal_feats("Tense=Past|Mood=Ind|Custom=1"),
            "Mood=Ind|Tense=Past"
        );
        assert_eq!(universal_feats("_"), "");
        let w = make_word(
            0,
            1,
            false,
            "x".into(),
            &["1", "x", "_", "_", "_", "_", "0", "obl:arg", "_", "_"],
            0,
        );
        assert!(w.content && w.deprel == "obl");
    }

    #[test]
    fn alignment_cases() {
        assert_eq!(words_correct(&["a", "b", "c"], &["a", "b", "c"]), 3);
        assert_eq!(words_correct(&["abc a b c"], &["a", "b", "c"]), 3);
        assert_eq!(words_correct(&["abcd a b c d"], &["ab a b", "cd c d"]), 4);
        assert_eq!(
            words_correct(&["abc a b c", "de d e"], &["a", "bcd b c d", "e"]),
            5
        );
        assert_eq!(words_correct(&["abcd"], &["a", "b", "c", "d"]), 0);
        assert_eq!(words_correct(&["a", "bc", "d"], &["a", "b", "c", "d"]), 2);
        assert_eq!(words_correct(&["a", "bc b c", "d"], &["a", "b", "cd"]), 2);
        assert_eq!(
            words_correct(
                &["abc a BX c", "def d EX f"],
                &["ab a b", "cd c d", "ef e f"]
            ),
            4
        );
        assert_eq!(words_correct(&["ab a b", "cd bc d"], &["a", "bc", "d"]), 2);
        assert_eq!(
            words_correct(&["a", "bc b c", "d"], &["ab AX BX", "cd CX a"]),
            1
        );
    }

    #[test]
    fn text_mismatch_is_an_error() {
        let e = evaluate(doc(&["a"]).as_bytes(), doc(&["b"]).as_bytes()).unwrap_err();
        assert_eq!(e.side, Side::System);
        assert!(e.message.contains("text mismatch"));
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn malformed_input() {
        let bad = [
            ("", "no sentence"),
            ("1\ta\n\n", "10 TAB"),
            ("x\ta\t_\t_\t_\t_\t0\t_\t_\t_\n\n", "word ID"),
            ("1\ta\t_\t_\t_\t_\tz\t_\t_\t_\n\n", "HEAD"),
            ("1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n", "empty line"),
            ("1\ta\t_\t_\t_\t_\t2\t_\t_\t_\n\n", "outside"),
            (
                "1\ta\t_\t_\t_\t_\t2\t_\t_\t_\n2\tb\t_\t_\t_\t_\t1\t_\t_\t_\n\n",
                "cycle",
            ),
            (
                "1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n2\tb\t_\t_\t_\t_\t0\t_\t_\t_\n\n",
                "root",
            ),
        ];
        for (text, needle) in bad {
            let e = evaluate(text.as_bytes(), doc(&["a"]).as_bytes()).unwrap_err();
            assert_eq!(e.side, Side::Gold, "{text:?}");
            assert!(e.message.contains(needle), "{text:?}: {}", e.message);
        }
        let e = evaluate(
            doc(&["a"]).as_bytes(),
            b"1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n\xff\n\n",
        )
        .unwrap_err();
        assert_eq!((e.side, e.line), (Side::System, Some(2)));
    }

    #[test]
    fn empty_nodes_comments_and_spaces() {
        let g = "# sent_id = s1\n1\ta b\t_\t_\t_\t_\t0\troot\t_\t_\n1.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n2\tc\t_\t_\t_\t_\t1\tdet\t_\t_\n\n";
        let s = "1\tab\t_\t_\t_\t_\t0\troot\t_\t_\n2\tc\t_\t_\t_\t_\t1\tdet\t_\t_\n\n";
        let e = evaluate(g.as_bytes(), s.as_bytes()).unwrap();
        let t = totals(&e);
        assert_eq!(t[9], [2, 2, 2, 2]);
        assert_eq!(t[10], [1, 1, 1, 1]);
        assert_eq!(e.sent_ids, vec![Some("s1".to_owned())]);
    }

    #[test]
    fn sentence_attribution() {
        // Gold has two sentences, the system one; the system's unaligned word "bc" sits in gold sentence 2.
        let g = "1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n\n1\tb\t_\t_\t_\t_\t0\t_\t_\t_\n2\tc\t_\t_\t_\t_\t1\t_\t_\t_\n\n";
        let s = "1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n2\tbc\t_\t_\t_\t_\t1\t_\t_\t_\n\n";
        let e = evaluate(g.as_bytes(), s.as_bytes()).unwrap();
        let row = |k: usize, m: usize| &e.counts[(k * 13 + m) * 4..(k * 13 + m) * 4 + 4];
        assert_eq!(row(0, M_WORDS), &[1, 1, 1, 1]);
        assert_eq!(row(1, M_WORDS), &[0, 1, 2, 0]);
        assert_eq!(row(0, M_SENTENCES), &[0, 1, 1, 0]);
        assert_eq!(row(1, M_SENTENCES), &[0, 0, 1, 0]);
    }
}
