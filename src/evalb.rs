//! Constituency-tree scoring with the semantics of EVALB (Sekine & Collins
//! 1997, with the 2006 F-measure / quote-fix revision).
//!
//! Input is one Penn-bracketed tree per line (gold line *i* against test line
//! *i*), read as bytes. For each pair of lines this module computes what
//! EVALB prints in its per-sentence table (length, status, matched / gold /
//! test brackets, crossing brackets, words, correct tags), and [`render`]
//! prints the whole report (table, totals line and the two summary blocks)
//! byte for byte as EVALB's stdout.
//!
//! Semantics (see the design notes of the project for the full list):
//! * a terminal is `(TAG word)`; a terminal whose raw tag is a
//!   `DELETE_LABEL` is dropped from the word sequence; sentence length counts
//!   gold terminals whose tag is not a `DELETE_LABEL_FOR_LENGTH`;
//! * a bracket spans kept words; zero-width brackets are ignored; bracket
//!   labels lose everything from the first `-` or `=`; a bracket whose label
//!   equals (or is `EQ_LABEL`-equivalent to) a `DELETE_LABEL` is ignored;
//! * matching is greedy in file order: each gold bracket takes the first
//!   unmatched test bracket with the same span and an equivalent label;
//! * crossing counts test brackets that cross at least one gold bracket;
//! * an empty test tree is a *skip* sentence, differing word counts (after
//!   the `QUOTE_LABEL` fix) or words are *error* sentences; EVALB gives up
//!   (no summary) at the error after `MAX_ERROR + 1` errors.
//!
//! Where EVALB's behaviour is undefined (malformed brackets, text outside a
//! bracket) this module reports an error instead of a number. Its fixed
//! buffers (5000-byte lines, 200 words or brackets, 100-byte words, 30-byte
//! labels, 20 quote terminals) are not limits here.

use std::fmt::Write as _;

/// EVALB's parameters (a `.prm` file and the `-c`/`-e` switches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub debug: i64,
    pub max_error: i64,
    pub cutoff_len: i64,
    /// `LABELED`: 0 compares spans only.
    pub labeled: i64,
    pub delete_labels: Vec<Vec<u8>>,
    pub delete_labels_for_length: Vec<Vec<u8>>,
    pub quote_labels: Vec<Vec<u8>>,
    pub eq_labels: Vec<(Vec<u8>, Vec<u8>)>,
    pub eq_words: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Default for Params {
    /// EVALB's settings when no parameter file is given.
    fn default() -> Self {
        Params {
            debug: 0,
            max_error: 10,
            cutoff_len: 40,
            labeled: 1,
            delete_labels: Vec::new(),
            delete_labels_for_length: Vec::new(),
            quote_labels: Vec::new(),
            eq_labels: Vec::new(),
            eq_words: Vec::new(),
        }
    }
}

/// A problem in a parameter file: 1-based line and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrmError {
    pub line: usize,
    pub message: String,
}

#[inline]
fn is_space(c: u8) -> bool {
    // C's isspace in the "C" locale.
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

#[inline]
fn is_terminator(c: u8) -> bool {
    is_space(c) || c == b'(' || c == b')'
}

/// C's `atoi`: optional leading space and sign, then digits; 0 when none.
fn atoi(s: &[u8]) -> i64 {
    let mut i = 0;
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let mut v: i64 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        v = v.saturating_mul(10).saturating_add(i64::from(s[i] - b'0'));
        i += 1;
    }
    if neg {
        -v
    } else {
        v
    }
}

fn split_ws(s: &[u8]) -> Vec<&[u8]> {
    s.split(|&c| is_space(c))
        .filter(|t| !t.is_empty())
        .collect()
}

impl Params {
    /// The settings of EVALB's `COLLINS.prm`.
    #[must_use]
    pub fn collins() -> Self {
        let v = |xs: &[&str]| xs.iter().map(|x| x.as_bytes().to_vec()).collect::<Vec<_>>();
        Params {
            debug: 0,
            max_error: 10,
            cutoff_len: 40,
            labeled: 1,
            delete_labels: v(&["TOP", "-NONE-", ",", ":", "``", "''", "."]),
            delete_labels_for_length: v(&["-NONE-"]),
            quote_labels: Vec::new(),
            eq_labels: vec![(b"ADVP".to_vec(), b"PRT".to_vec())],
            eq_words: Vec::new(),
        }
    }

    /// Apply a parameter file the way `evalb -p FILE` reads it: lines that
    /// start with `#` or are shorter than 3 bytes (after trimming trailing
    /// space) are skipped; the keyword must start the line and be followed by
    /// white space; the value is the rest of the line. Returns EVALB's
    /// warnings (unknown keywords, `EQ_*` without two values), which EVALB
    /// prints and ignores.
    pub fn apply_prm(&mut self, text: &[u8]) -> Result<Vec<String>, PrmError> {
        let mut warnings = Vec::new();
        let mut lines: Vec<&[u8]> = text.split(|&c| c == b'\n').collect();
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        for (k, raw) in lines.iter().enumerate() {
            let lineno = k + 1;
            if raw.contains(&0) {
                return Err(PrmError {
                    line: lineno,
                    message: "NUL byte in parameter file".into(),
                });
            }
            let mut end = raw.len();
            while end > 1 && is_space(raw[end - 1]) {
                end -= 1;
            }
            let buf = &raw[..end];
            if buf.first() == Some(&b'#') || buf.len() < 3 {
                continue;
            }
            let mut i = 0;
            while i < buf.len() && !is_space(buf[i]) {
                i += 1;
            }
            while i < buf.len() && is_space(buf[i]) {
                i += 1;
            }
            let value = &buf[i..];
            let key_is = |kw: &str| {
                let kw = kw.as_bytes();
                buf.starts_with(kw) && (buf.len() == kw.len() || is_space(buf[kw.len()]))
            };
            const KEYS: [&str; 9] = [
                "DEBUG",
                "MAX_ERROR",
                "CUTOFF_LEN",
                "LABELED",
                "DELETE_LABEL",
                "DELETE_LABEL_FOR_LENGTH",
                "QUOTE_LABEL",
                "EQ_LABEL",
                "EQ_WORD",
            ];
            let Some(key) = KEYS.iter().find(|k| key_is(k)) else {
                warnings.push(format!(
                    "line {lineno}: unknown keyword ({}) in parameter file; EVALB ignores the line",
                    String::from_utf8_lossy(buf)
                ));
                continue;
            };
            if value.is_empty() {
                return Err(PrmError {
                    line: lineno,
                    message: format!("{key} has no value (EVALB's behaviour is undefined here)"),
                });
            }
            match *key {
                "DEBUG" => self.debug = atoi(value),
                "MAX_ERROR" => self.max_error = atoi(value),
                "CUTOFF_LEN" => self.cutoff_len = atoi(value),
                "LABELED" => self.labeled = atoi(value),
                "DELETE_LABEL" => self.delete_labels.push(value.to_vec()),
                "DELETE_LABEL_FOR_LENGTH" => self.delete_labels_for_length.push(value.to_vec()),
                "QUOTE_LABEL" => self.quote_labels.push(value.to_vec()),
                _ => {
                    let parts = split_ws(value);
                    if parts.len() != 2 {
                        warnings.push(format!(
                            "line {lineno}: {key} requires two values; EVALB ignores the line"
                        ));
                        continue;
                    }
                    let pair = (parts[0].to_vec(), parts[1].to_vec());
                    if *key == "EQ_LABEL" {
                        self.eq_labels.push(pair);
                    } else {
                        self.eq_words.push(pair);
                    }
                }
            }
        }
        Ok(warnings)
    }

    fn is_delete(&self, label: &[u8]) -> bool {
        self.delete_labels.iter().any(|d| d.as_slice() == label)
    }

    fn is_delete_for_length(&self, label: &[u8]) -> bool {
        self.delete_labels_for_length
            .iter()
            .any(|d| d.as_slice() == label)
    }

    fn is_quote_term(&self, label: &[u8], word: &[u8]) -> bool {
        matches!(word, b"'" | b"\"" | b"/")
            && self.quote_labels.iter().any(|q| q.as_slice() == label)
    }

    #[inline]
    fn label_eq(&self, a: &[u8], b: &[u8]) -> bool {
        a == b
            || self.eq_labels.iter().any(|(x, y)| {
                (a == x.as_slice() && b == y.as_slice()) || (a == y.as_slice() && b == x.as_slice())
            })
    }

    #[inline]
    fn word_eq(&self, a: &[u8], b: &[u8]) -> bool {
        a == b
            || self.eq_words.iter().any(|(x, y)| {
                (a == x.as_slice() && b == y.as_slice()) || (a == y.as_slice() && b == x.as_slice())
            })
    }

    fn is_deleted_bracket(&self, label: &[u8]) -> bool {
        self.delete_labels.iter().any(|d| self.label_eq(label, d))
    }
}

#[derive(Clone, Copy, Debug)]
struct Bracket<'a> {
    start: u32,
    end: u32,
    label: &'a [u8],
    /// 0 open, 1 matched, 5 ignored (EVALB's codes).
    state: u8,
}

#[derive(Clone, Debug)]
struct QuoteTerm<'a> {
    label: &'a [u8],
    word: &'a [u8],
    index: i64,
    bracket: usize,
    ends: Vec<usize>,
}

/// One tree as EVALB reads it.
#[derive(Default, Debug)]
struct Tree<'a> {
    /// Kept terminals (tag, word).
    terms: Vec<(&'a [u8], &'a [u8])>,
    brackets: Vec<Bracket<'a>>,
    quotes: Vec<QuoteTerm<'a>>,
    /// Terminals whose tag is not in DELETE_LABEL_FOR_LENGTH.
    len: u32,
    stack: Vec<usize>,
}

impl<'a> Tree<'a> {
    fn clear(&mut self) {
        self.terms.clear();
        self.brackets.clear();
        self.quotes.clear();
        self.len = 0;
        self.stack.clear();
    }
}

fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Read one line into `t`. Errors carry the 1-based byte column.
fn parse_line<'a>(line: &'a [u8], p: &Params, t: &mut Tree<'a>) -> Result<(), (usize, String)> {
    t.clear();
    let n = line.len();
    let mut pos = 0;
    let want_quotes = !p.quote_labels.is_empty();
    while pos < n {
        let c = line[pos];
        if is_space(c) {
            pos += 1;
        } else if c == b'(' {
            let open = pos;
            pos += 1;
            let ls = pos;
            while pos < n && !is_terminator(line[pos]) {
                pos += 1;
            }
            let label = &line[ls..pos];
            if pos >= n {
                return Err((open + 1, "unbalanced brackets: the line ends inside a bracket (EVALB reads one tree per line)".into()));
            }
            if is_space(line[pos]) {
                let mut q = pos + 1;
                while q < n && is_space(line[q]) {
                    q += 1;
                }
                let ws = q;
                while q < n && !is_terminator(line[q]) {
                    q += 1;
                }
                let word = &line[ws..q];
                if q >= n {
                    return Err((open + 1, "unbalanced brackets: the line ends inside a bracket (EVALB reads one tree per line)".into()));
                }
                if line[q] == b')' {
                    if !p.is_delete_for_length(label) {
                        t.len += 1;
                    }
                    if want_quotes && p.is_quote_term(label, word) {
                        t.quotes.push(QuoteTerm {
                            label,
                            word,
                            index: t.terms.len() as i64,
                            bracket: t.brackets.len(),
                            ends: t.stack.clone(),
                        });
                    }
                    if !p.is_delete(label) {
                        t.terms.push((label, word));
                    }
                    pos = q + 1;
                    continue;
                }
                if line[q] != b'(' || !word.is_empty() {
                    return Err((
                        q + 1,
                        format!(
                            "more than two elements in a bracket: ({} {} ... (a terminal is (TAG word), a phrase (LABEL (...) ...))",
                            show(label),
                            show(word)
                        ),
                    ));
                }
            }
            t.stack.push(t.brackets.len());
            t.brackets.push(Bracket {
                start: t.terms.len() as u32,
                end: 0,
                label,
                state: 0,
            });
        } else if c == b')' {
            match t.stack.pop() {
                Some(b) => t.brackets[b].end = t.terms.len() as u32,
                None => {
                    return Err((
                        pos + 1,
                        "unbalanced brackets: this ')' closes nothing".into(),
                    ))
                }
            }
            pos += 1;
        } else {
            let mut e = pos;
            while e < n && !is_terminator(line[e]) {
                e += 1;
            }
            return Err((
                pos + 1,
                format!(
                    "text outside a bracket: {:?} (EVALB cannot read this tree)",
                    show(&line[pos..e])
                ),
            ));
        }
    }
    if !t.stack.is_empty() {
        return Err((
            n + 1,
            format!(
                "unbalanced brackets: {} '(' not closed at the end of the line",
                t.stack.len()
            ),
        ));
    }
    Ok(())
}

/// EVALB's `reinsert_term`: put a deleted quote terminal back.
fn reinsert<'a>(q: &QuoteTerm<'a>, t: &mut Tree<'a>) {
    let ind = (q.index.max(0) as usize).min(t.terms.len());
    t.terms.insert(ind, (q.label, q.word));
    for (k, b) in t.brackets.iter_mut().enumerate() {
        if k >= q.bracket {
            b.start += 1;
            b.end += 1;
        }
    }
    for &e in &q.ends {
        t.brackets[e].end += 1;
    }
}

/// EVALB's `fix_quote`, run when the word counts differ.
fn fix_quote(p: &Params, g: &mut Tree<'_>, s: &mut Tree<'_>) {
    let mut gq = std::mem::take(&mut g.quotes);
    let mut sq = std::mem::take(&mut s.quotes);
    for i in 0..sq.len() {
        let ind = sq[i].index;
        for j in 0..gq.len() {
            if gq[j].index == ind && gq[j].label != sq[i].label {
                let gdel = p.is_delete(gq[j].label);
                let sdel = p.is_delete(sq[i].label);
                if gdel && !sdel {
                    reinsert(&gq[j], g);
                    for q in &mut gq[j..] {
                        q.index += 1;
                    }
                } else if sdel && !gdel {
                    reinsert(&sq[i], s);
                    for q in &mut sq[i..] {
                        q.index += 1;
                    }
                }
            }
        }
    }
    g.quotes = gq;
    s.quotes = sq;
}

/// The first `-` or `=` and everything after it removed.
#[inline]
fn strip_label(l: &[u8]) -> &[u8] {
    match l.iter().position(|&c| c == b'-' || c == b'=') {
        Some(i) => &l[..i],
        None => l,
    }
}

fn massage(p: &Params, bs: &mut [Bracket<'_>]) -> u32 {
    let mut kept = 0;
    for b in bs.iter_mut() {
        if b.start == b.end {
            b.state = 5;
            continue;
        }
        b.label = strip_label(b.label);
        b.state = if p.is_deleted_bracket(b.label) { 5 } else { 0 };
        if b.state != 5 {
            kept += 1;
        }
    }
    kept
}

/// Status of a sentence: 0 scored, 1 error, 2 skipped.
pub const STATUS_OK: u8 = 0;
pub const STATUS_ERROR: u8 = 1;
pub const STATUS_SKIP: u8 = 2;

/// One row of EVALB's per-sentence table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence {
    /// 1-based line number.
    pub id: usize,
    /// Gold length (terminals not in DELETE_LABEL_FOR_LENGTH).
    pub len: u32,
    pub status: u8,
    pub matched: u32,
    pub gold_brackets: u32,
    pub test_brackets: u32,
    pub crossing: u32,
    pub words: u32,
    pub correct_tags: u32,
    /// EVALB's stderr message for an error sentence.
    pub error: Option<String>,
}

impl Sentence {
    #[must_use]
    pub fn complete(&self) -> bool {
        self.status == STATUS_OK
            && self.gold_brackets == self.test_brackets
            && self.test_brackets == self.matched
    }
}

/// Which input a problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Gold,
    Test,
}

/// Why no report can be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A tree EVALB cannot read (1-based line and byte column).
    Malformed {
        side: Side,
        line: usize,
        column: usize,
        message: String,
    },
    /// Bytes that are not UTF-8.
    Encoding {
        side: Side,
        line: usize,
        message: String,
    },
    /// Different numbers of lines.
    LineCount { gold: usize, test: usize },
    /// EVALB exits without a summary at this error (`MAX_ERROR` exceeded).
    TooManyErrors {
        line: usize,
        errors: usize,
        max_error: i64,
        first: Vec<String>,
    },
}

impl From<EvalError> for crate::Error {
    fn from(e: EvalError) -> Self {
        use crate::FileRole;
        let role = |s: Side| match s {
            Side::Gold => FileRole::Gold,
            Side::Test => FileRole::System,
        };
        match e {
            EvalError::Malformed {
                side,
                line,
                column,
                message,
            } => crate::Error::Format {
                file: role(side),
                line: Some(line),
                message: format!(
                    "tree {line}, column {column}: {message}; fix the tree (one complete tree per line)"
                ),
            },
            EvalError::Encoding {
                side,
                line,
                message,
            } => crate::Error::Format {
                file: role(side),
                line: Some(line),
                message: format!("tree {line}: {message}"),
            },
            EvalError::LineCount { gold, test } => crate::Error::Format {
                file: FileRole::Gold,
                line: None,
                message: format!(
                    "the gold file has {gold} trees (lines) but the system file {{system}} has {test}; \
                     EVALB compares line i with line i, so both files need one tree per line for the \
                     same sentences (an empty line is a skipped parse)"
                ),
            },
            EvalError::TooManyErrors {
                line,
                errors,
                max_error,
                first,
            } => {
                let listed = if first.len() < errors {
                    format!("The first {} of the {errors} errors", first.len())
                } else {
                    format!("The {errors} errors")
                };
                crate::Error::Format {
                    file: FileRole::System,
                    line: Some(line),
                    message: format!(
                        "tree {line}: error sentence number {errors} (length or word mismatch) exceeds \
                         MAX_ERROR={max_error}: EVALB stops here and prints no summary. {listed}: {}. \
                         Fix the tokenisation, or allow more errors with -o max_error=N (EVALB's -e N; \
                         max_error=N in Python) to score the remaining sentences",
                        first.join("; ")
                    ),
                }
            }
        }
    }
}

impl From<PrmError> for crate::Error {
    fn from(e: PrmError) -> Self {
        crate::Error::Format {
            file: crate::FileRole::Params,
            line: Some(e.line),
            message: format!("{}; fix the parameter file", e.message),
        }
    }
}

/// The lines of a file as `fgets` returns them (a last line without a
/// newline counts; nothing after a final newline does).
#[must_use]
pub fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = data.split(|&c| c == b'\n').collect();
    if v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

fn check_text(data: &[u8], side: Side) -> Result<(), EvalError> {
    if let Err(e) = std::str::from_utf8(data) {
        let at = e.valid_up_to();
        let line = data[..at].iter().filter(|&&c| c == b'\n').count() + 1;
        let col = at
            - data[..at]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        return Err(EvalError::Encoding {
            side,
            line,
            message: format!(
                "byte 0x{:02x} at column {col} is not UTF-8; save the file as UTF-8",
                data[at]
            ),
        });
    }
    if let Some(at) = data.iter().position(|&c| c == 0) {
        let line = data[..at].iter().filter(|&&c| c == b'\n').count() + 1;
        return Err(EvalError::Encoding {
            side,
            line,
            message: "NUL byte in the file".into(),
        });
    }
    Ok(())
}

/// Score every line of `test` against the same line of `gold`.
pub fn evaluate(gold: &[u8], test: &[u8], p: &Params) -> Result<Vec<Sentence>, EvalError> {
    run(gold, test, p, |_, _, _, _| {})
}

/// The one evaluation loop: read both lines, score them, and show `visit`
/// each row with the two trees as scored (brackets massaged and matched for
/// a scored sentence) and, per gold bracket, the index of the test bracket
/// EVALB matched it with ([`UNMATCHED`] for none; empty unless scored).
fn run<'d>(
    gold: &'d [u8],
    test: &'d [u8],
    p: &Params,
    mut visit: impl FnMut(&Sentence, &mut Tree<'d>, &Tree<'d>, &[u32]),
) -> Result<Vec<Sentence>, EvalError> {
    check_text(gold, Side::Gold)?;
    check_text(test, Side::Test)?;
    let gl = split_lines(gold);
    let tl = split_lines(test);
    if gl.len() != tl.len() {
        return Err(EvalError::LineCount {
            gold: gl.len(),
            test: tl.len(),
        });
    }
    let mut out = Vec::with_capacity(gl.len());
    let mut g = Tree::default();
    let mut s = Tree::default();
    let mut pairs = Vec::new();
    let mut errors = 0usize;
    let mut first = Vec::new();
    for (k, (gline, tline)) in gl.iter().zip(tl.iter()).enumerate() {
        let id = k + 1;
        parse_line(gline, p, &mut g).map_err(|(column, message)| EvalError::Malformed {
            side: Side::Gold,
            line: id,
            column,
            message,
        })?;
        parse_line(tline, p, &mut s).map_err(|(column, message)| EvalError::Malformed {
            side: Side::Test,
            line: id,
            column,
            message,
        })?;
        let row = score_pair(p, &mut g, &mut s, id, &mut pairs);
        if let Some(msg) = &row.error {
            // EVALB: `if (Error_count++ > Max_error) exit(1);`
            if first.len() < 5 {
                first.push(format!("{id} : {msg}"));
            }
            if errors as i64 > p.max_error {
                return Err(EvalError::TooManyErrors {
                    line: id,
                    errors: errors + 1,
                    max_error: p.max_error,
                    first,
                });
            }
            errors += 1;
        }
        visit(&row, &mut g, &s, &pairs);
        out.push(row);
    }
    Ok(out)
}

/// Whether EVALB counts a word's tag correct (gold tag, test tag).
#[inline]
fn tag_ok(p: &Params, gold: &[u8], test: &[u8]) -> bool {
    p.label_eq(gold, test)
}

/// `pairs[k]` for a gold bracket EVALB matched with no test bracket.
const UNMATCHED: u32 = u32::MAX;

fn score_pair(
    p: &Params,
    g: &mut Tree<'_>,
    s: &mut Tree<'_>,
    id: usize,
    pairs: &mut Vec<u32>,
) -> Sentence {
    pairs.clear();
    let mut row = Sentence {
        id,
        len: g.len,
        ..Sentence::default()
    };
    if s.terms.is_empty() {
        row.status = STATUS_SKIP;
        return row;
    }
    if g.terms.len() != s.terms.len() {
        fix_quote(p, g, s);
        if g.terms.len() != s.terms.len() {
            row.status = STATUS_ERROR;
            row.error = Some(format!(
                "Length unmatch ({}|{})",
                g.terms.len(),
                s.terms.len()
            ));
            return row;
        }
    }
    for (a, b) in g.terms.iter().zip(s.terms.iter()) {
        if !p.word_eq(a.1, b.1) {
            row.status = STATUS_ERROR;
            row.error = Some(format!("Words unmatch ({}|{})", show(a.1), show(b.1)));
            return row;
        }
    }
    let gb = &mut g.brackets;
    let sb = &mut s.brackets;
    row.gold_brackets = massage(p, gb);
    row.test_brackets = massage(p, sb);
    let labeled = p.labeled != 0;
    let mut matched = 0;
    for gbr in gb.iter() {
        let mut with = UNMATCHED;
        if gbr.state != 5 {
            for (k, sbr) in sb.iter_mut().enumerate() {
                if sbr.state == 0
                    && sbr.start == gbr.start
                    && sbr.end == gbr.end
                    && (!labeled || p.label_eq(gbr.label, sbr.label))
                {
                    sbr.state = 1;
                    matched += 1;
                    with = k as u32;
                    break;
                }
            }
        }
        pairs.push(with);
    }
    row.matched = matched;
    let mut crossing = 0;
    for t in sb.iter() {
        if t.state == 5 {
            continue;
        }
        if gb.iter().any(|g| {
            g.state != 5
                && ((g.start < t.start && g.end > t.start && g.end < t.end)
                    || (g.start > t.start && g.start < t.end && g.end > t.end))
        }) {
            crossing += 1;
        }
    }
    row.crossing = crossing;
    row.words = g.terms.len() as u32;
    row.correct_tags = g
        .terms
        .iter()
        .zip(s.terms.iter())
        .filter(|(a, b)| tag_ok(p, a.0, b.0))
        .count() as u32;
    row
}

/// A bracket as EVALB counts it: it spans the kept words `start..end`
/// (positions after deletions, and after EVALB's quote repair) and carries
/// its label as EVALB compares it (function tags stripped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitBracket {
    pub start: u32,
    pub end: u32,
    pub label: String,
}

/// One sentence as EVALB scores it, unit by unit: what its row counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SentenceUnits {
    /// The row EVALB prints for this sentence (the same as [`evaluate`]'s).
    pub row: Sentence,
    /// The gold words after deletions: the positions brackets span.
    pub words: Vec<String>,
    /// Gold brackets EVALB counts, in file order. For an error or skip
    /// sentence (status ≠ 0, counted in no total) these are the brackets it
    /// would count; nothing is compared there.
    pub gold: Vec<UnitBracket>,
    /// Test brackets EVALB counts, in file order (empty unless status 0).
    pub test: Vec<UnitBracket>,
    /// Per gold bracket: the index in `test` of the bracket EVALB matched it
    /// with (empty unless status 0).
    pub matched: Vec<Option<u32>>,
    /// Per word of the tagging accuracy (status 0 only): gold tag, test tag,
    /// and whether EVALB counts the tag correct.
    pub tags: Vec<(String, String, bool)>,
}

fn unit_brackets(bs: &[Bracket<'_>]) -> (Vec<UnitBracket>, Vec<u32>) {
    let mut out = Vec::new();
    let mut index = vec![UNMATCHED; bs.len()];
    for (k, b) in bs.iter().enumerate() {
        if b.state != 5 {
            index[k] = out.len() as u32;
            out.push(UnitBracket {
                start: b.start,
                end: b.end,
                label: show(b.label),
            });
        }
    }
    (out, index)
}

/// Every sentence's units (see [`SentenceUnits`]), from the same reading,
/// deletions, quote repair and bracket matching as [`evaluate`]: per sentence,
/// matched pairs = `row.matched`, gold / test brackets = `row.gold_brackets` /
/// `row.test_brackets`, tags = `row.words`, correct tags = `row.correct_tags`.
pub fn units(gold: &[u8], test: &[u8], p: &Params) -> Result<Vec<SentenceUnits>, EvalError> {
    let mut out = Vec::new();
    run(gold, test, p, |row, g, s, pairs| {
        let words = g.terms.iter().map(|t| show(t.1)).collect();
        let mut u = SentenceUnits {
            row: row.clone(),
            words,
            ..SentenceUnits::default()
        };
        if row.status == STATUS_OK {
            let (gold, gi) = unit_brackets(&g.brackets);
            let (test, ti) = unit_brackets(&s.brackets);
            u.matched = pairs
                .iter()
                .zip(&gi)
                .filter(|(_, &k)| k != UNMATCHED)
                .map(|(&m, _)| (m != UNMATCHED).then(|| ti[m as usize]))
                .collect();
            u.gold = gold;
            u.test = test;
            u.tags = g
                .terms
                .iter()
                .zip(s.terms.iter())
                .map(|(a, b)| (show(a.0), show(b.0), tag_ok(p, a.0, b.0)))
                .collect();
        } else {
            // Not scored: EVALB's bracket processing on the gold tree alone.
            massage(p, &mut g.brackets);
            u.gold = unit_brackets(&g.brackets).0;
        }
        out.push(u);
    })?;
    Ok(out)
}

/// Sums EVALB keeps for "All" and for "len<=cutoff".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub sentences: u64,
    pub errors: u64,
    pub skipped: u64,
    pub gold_brackets: u64,
    pub test_brackets: u64,
    pub matched: u64,
    pub complete: u64,
    pub words: u64,
    pub crossing: u64,
    pub no_crossing: u64,
    pub two_or_less: u64,
    pub correct_tags: u64,
}

impl Totals {
    pub fn add(&mut self, r: &Sentence) {
        self.sentences += 1;
        match r.status {
            STATUS_ERROR => self.errors += 1,
            STATUS_SKIP => self.skipped += 1,
            _ => {
                self.gold_brackets += u64::from(r.gold_brackets);
                self.test_brackets += u64::from(r.test_brackets);
                self.matched += u64::from(r.matched);
                self.complete += u64::from(r.complete());
                self.words += u64::from(r.words);
                self.crossing += u64::from(r.crossing);
                self.no_crossing += u64::from(r.crossing == 0);
                self.two_or_less += u64::from(r.crossing <= 2);
                self.correct_tags += u64::from(r.correct_tags);
            }
        }
    }

    #[must_use]
    pub fn valid(&self) -> u64 {
        self.sentences - self.errors - self.skipped
    }
}

#[inline]
fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn f2(out: &mut String, x: f64) {
    // printf("%6.2f") as glibc prints it; 0/0 is the negative default NaN.
    if x.is_nan() {
        out.push_str("  -nan");
    } else {
        let _ = write!(out, "{x:6.2}");
    }
}

fn summary(out: &mut String, t: &Totals) {
    let valid = t.valid();
    let _ = writeln!(out, "Number of sentence        = {:6}", t.sentences);
    let _ = writeln!(out, "Number of Error sentence  = {:6}", t.errors);
    let _ = writeln!(out, "Number of Skip  sentence  = {:6}", t.skipped);
    let _ = writeln!(out, "Number of Valid sentence  = {valid:6}");
    let r = pct(t.matched, t.gold_brackets);
    let p = pct(t.matched, t.test_brackets);
    let f = 2.0 * p * r / (p + r);
    let lines: [(&str, f64); 8] = [
        ("Bracketing Recall         = ", r),
        ("Bracketing Precision      = ", p),
        ("Bracketing FMeasure       = ", f),
        ("Complete match            = ", pct(t.complete, valid)),
        (
            "Average crossing          = ",
            if valid > 0 {
                t.crossing as f64 / valid as f64
            } else {
                0.0
            },
        ),
        ("No crossing               = ", pct(t.no_crossing, valid)),
        ("2 or less crossing        = ", pct(t.two_or_less, valid)),
        ("Tagging accuracy          = ", pct(t.correct_tags, t.words)),
    ];
    for (name, v) in lines {
        out.push_str(name);
        f2(out, v);
        out.push('\n');
    }
}

/// EVALB's stdout for these rows: table, totals line, summary.
#[must_use]
pub fn render(rows: &[Sentence], p: &Params) -> String {
    let mut out = String::with_capacity(80 * (rows.len() + 40));
    out.push_str("  Sent.                        Matched  Bracket   Cross        Correct Tag\n");
    out.push_str(" ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n");
    out.push_str("============================================================================\n");
    let mut all = Totals::default();
    let mut cut = Totals::default();
    for r in rows {
        all.add(r);
        if i64::from(r.len) <= p.cutoff_len {
            cut.add(r);
        }
        let _ = write!(out, "{:4}  {:3}    {}  ", r.id, r.len, r.status);
        f2(
            &mut out,
            pct(u64::from(r.matched), u64::from(r.gold_brackets)),
        );
        out.push(' ');
        f2(
            &mut out,
            pct(u64::from(r.matched), u64::from(r.test_brackets)),
        );
        let _ = write!(
            out,
            "   {:3}    {:3}  {:3}    {:3}   {:4}  {:4}   ",
            r.matched, r.gold_brackets, r.test_brackets, r.crossing, r.words, r.correct_tags
        );
        f2(&mut out, pct(u64::from(r.correct_tags), u64::from(r.words)));
        out.push('\n');
    }
    out.push_str("============================================================================\n");
    if all.gold_brackets > 0 && all.test_brackets > 0 {
        out.push_str("                ");
        f2(&mut out, pct(all.matched, all.gold_brackets));
        out.push(' ');
        f2(&mut out, pct(all.matched, all.test_brackets));
        let _ = write!(
            out,
            " {:6} {:5} {:5}  {:5}",
            all.matched, all.gold_brackets, all.test_brackets, all.crossing
        );
    }
    let _ = write!(out, "  {:5} {:5}   ", all.words, all.correct_tags);
    f2(&mut out, pct(all.correct_tags, all.words));
    out.push('\n');
    out.push_str("=== Summary ===\n");
    out.push_str("\n-- All --\n");
    summary(&mut out, &all);
    let _ = writeln!(out, "\n-- len<={} --", p.cutoff_len);
    summary(&mut out, &cut);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(g: &str, t: &str) -> Vec<Sentence> {
        evaluate(g.as_bytes(), t.as_bytes(), &Params::collins()).unwrap()
    }

    #[test]
    fn perfect_match_with_function_tags_and_punct() {
        let g = "(ROOT (S (NP-SBJ (DT The) (NN cat)) (VP (VBD sat)) (. .)))\n";
        let t = "(ROOT (S (NP (DT The) (NN cat)) (VP (VBD sat)) (. .)))\n";
        let r = run(g, t);
        assert_eq!(r.len(), 1);
        let s = &r[0];
        assert_eq!(
            (s.len, s.status, s.matched, s.gold_brackets, s.test_brackets),
            (4, 0, 4, 4, 4)
        );
        assert_eq!((s.words, s.correct_tags, s.crossing), (3, 3, 0));
        assert!(s.complete());
    }

    #[test]
    fn prt_advp_equivalence_and_top_deleted() {
        let g = "(TOP (S (VP (VB give) (PRT (RP up)))))";
        let t = "(TOP (S (VP (VB give) (ADVP (RB up)))))";
        let s = &run(g, t)[0];
        assert_eq!((s.matched, s.gold_brackets, s.test_brackets), (3, 3, 3));
        assert_eq!(s.correct_tags, 1);
    }

    #[test]
    fn unary_chains_match_as_multisets() {
        let g = "(S (NP (NP (NN a))) (VP (VB b)))";
        let t = "(S (NP (NN a)) (VP (VP (VB b))))";
        let s = &run(g, t)[0];
        assert_eq!((s.matched, s.gold_brackets, s.test_brackets), (3, 4, 4));
    }

    #[test]
    fn crossing_counts_test_brackets() {
        let g = "(S (NP (A a) (B b)) (VP (C c) (D d)))";
        let t = "(S (A a) (X (B b) (C c)) (D d))";
        let s = &run(g, t)[0];
        assert_eq!((s.matched, s.crossing), (1, 1));
    }

    #[test]
    fn skip_and_errors() {
        let r = run(
            "(S (A a))\n(S (A a))\n(S (A a))\n",
            "\n(S (A a) (B b))\n(S (A z))\n",
        );
        assert_eq!(r[0].status, STATUS_SKIP);
        assert_eq!(r[1].error.as_deref(), Some("Length unmatch (1|2)"));
        assert_eq!(r[2].error.as_deref(), Some("Words unmatch (a|z)"));
    }

    #[test]
    fn too_many_errors_abort_like_evalb() {
        let mut p = Params::collins();
        p.max_error = 1;
        let g = "(S (A a))\n".repeat(3);
        let t = "(S (A b))\n".repeat(3);
        // errors 1 and 2 pass (0 > 1, 1 > 1 false); the third aborts.
        match evaluate(g.as_bytes(), t.as_bytes(), &p) {
            Err(EvalError::TooManyErrors { line, .. }) => assert_eq!(line, 3),
            other => panic!("{other:?}"),
        }
        p.max_error = 2;
        assert!(evaluate(g.as_bytes(), t.as_bytes(), &p).is_ok());
    }

    #[test]
    fn malformed_lines() {
        let p = Params::collins();
        for bad in [
            "(S (A a)",
            "(S (A a)))",
            "(S (A a b))",
            "S",
            "(S (A a) x)",
            "(NP word (NN x))",
        ] {
            let e = evaluate(bad.as_bytes(), bad.as_bytes(), &p).unwrap_err();
            assert!(
                matches!(
                    e,
                    EvalError::Malformed {
                        side: Side::Gold,
                        line: 1,
                        ..
                    }
                ),
                "{bad}: {e:?}"
            );
        }
        assert!(matches!(
            evaluate(b"(A a)\n(A a)\n", b"(A a)\n", &p),
            Err(EvalError::LineCount { gold: 2, test: 1 })
        ));
        assert!(matches!(
            evaluate(b"(A a)\n(A \xff)\n", b"(A a)\n(A a)\n", &p),
            Err(EvalError::Encoding {
                side: Side::Gold,
                line: 2,
                ..
            })
        ));
    }

    #[test]
    fn prm_parsing() {
        let mut p = Params::default();
        let w = p
            .apply_prm(b"# c\nDEBUG 0\nMAX_ERROR 10000  \nCUTOFF_LEN 30\nLABELED 0\nDELETE_LABEL TOP\nDELETE_LABEL_FOR_LENGTH -NONE-\nEQ_LABEL ADVP PRT\nEQ_LABEL X\nFOO 1\n")
            .unwrap();
        assert_eq!(p.max_error, 10000);
        assert_eq!(p.cutoff_len, 30);
        assert_eq!(p.labeled, 0);
        assert_eq!(p.delete_labels, vec![b"TOP".to_vec()]);
        assert_eq!(p.delete_labels_for_length, vec![b"-NONE-".to_vec()]);
        assert_eq!(p.eq_labels.len(), 1);
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn quote_repair_reinserts_deleted_quote() {
        // gold deletes ('' ') that the test tags POS: EVALB puts it back.
        let mut p = Params::collins();
        p.quote_labels = vec![b"''".to_vec(), b"POS".to_vec()];
        let g = "(ROOT (S (NP (NP (NNS students)) ('' ')) (VP (VBP say) (NP (NN hi))) (. .)))";
        let t = "(ROOT (S (NP (NP (NNS students)) (POS ')) (VP (VBP say) (NP (NN hi))) (. .)))";
        let r = evaluate(g.as_bytes(), t.as_bytes(), &p).unwrap();
        let s = &r[0];
        assert_eq!(
            (s.status, s.matched, s.gold_brackets, s.test_brackets),
            (0, 6, 6, 6)
        );
        assert_eq!((s.words, s.correct_tags, s.len), (4, 3, 5));
        // without QUOTE_LABEL it is a length mismatch
        let r = evaluate(g.as_bytes(), t.as_bytes(), &Params::collins()).unwrap();
        assert_eq!(r[0].error.as_deref(), Some("Length unmatch (3|4)"));
    }

    #[test]
    fn unlabeled_and_eq_word() {
        let mut p = Params::default();
        p.apply_prm(b"LABELED 0\nEQ_WORD colour color\n").unwrap();
        let r = evaluate(
            b"(S (NP (DT the) (NN colour)) (VB x))",
            b"(X (Y (DT the) (NN color)) (VB x))",
            &p,
        )
        .unwrap();
        assert_eq!((r[0].matched, r[0].gold_brackets), (2, 2));
    }

    /// Units agree with the rows of the same evaluation, sentence by sentence.
    fn check_units(g: &[u8], t: &[u8], p: &Params) -> Vec<SentenceUnits> {
        let rows = evaluate(g, t, p).unwrap();
        let us = units(g, t, p).unwrap();
        assert_eq!(rows.len(), us.len());
        for (r, u) in rows.iter().zip(&us) {
            assert_eq!(r, &u.row);
            assert_eq!(
                u.matched.len(),
                if r.status == STATUS_OK {
                    u.gold.len()
                } else {
                    0
                }
            );
            let m = u.matched.iter().flatten().count() as u32;
            if r.status != STATUS_OK {
                assert!(u.test.is_empty() && u.tags.is_empty());
                continue;
            }
            assert_eq!(m, r.matched);
            assert_eq!(u.gold.len() as u32, r.gold_brackets);
            assert_eq!(u.test.len() as u32, r.test_brackets);
            assert_eq!(u.tags.len() as u32, r.words);
            assert_eq!(u.words.len() as u32, r.words);
            assert_eq!(u.tags.iter().filter(|t| t.2).count() as u32, r.correct_tags);
            let mut used = vec![false; u.test.len()];
            for (gb, m) in u.gold.iter().zip(&u.matched) {
                assert!(gb.start < gb.end && gb.end as usize <= u.words.len());
                if let Some(k) = m {
                    let tb = &u.test[*k as usize];
                    assert!(!std::mem::replace(&mut used[*k as usize], true));
                    assert_eq!((tb.start, tb.end), (gb.start, gb.end));
                    assert!(p.labeled == 0 || p.label_eq(gb.label.as_bytes(), tb.label.as_bytes()));
                }
            }
        }
        us
    }

    #[test]
    fn units_export_brackets_as_evalb_counts_and_matches_them() {
        let p = Params::collins();
        // unary chains: NP NP vs NP and VP vs VP VP; function tags, punctuation, TOP, PRT = ADVP
        let g = b"(TOP (S (NP-SBJ (NP (NN a))) (, ,) (VP (VB b) (PRT (RP up))) (. .)))\n(S (A a))\n(S (A a))\n";
        let t = b"(TOP (S (NP (NN a)) (, ,) (VP (VP (VB b) (ADVP (RB up)))) (. .)))\n(S (A a) (B b))\n\n";
        let us = check_units(g, t, &p);
        let u = &us[0];
        assert_eq!(u.words, ["a", "b", "up"]);
        let b = |start, end, label: &str| UnitBracket {
            start,
            end,
            label: label.to_string(),
        };
        assert_eq!(
            u.gold,
            [
                b(0, 3, "S"),
                b(0, 1, "NP"),
                b(0, 1, "NP"),
                b(1, 3, "VP"),
                b(2, 3, "PRT")
            ]
        );
        assert_eq!(
            u.test,
            [
                b(0, 3, "S"),
                b(0, 1, "NP"),
                b(1, 3, "VP"),
                b(1, 3, "VP"),
                b(2, 3, "ADVP")
            ]
        );
        // greedy in file order: the second gold NP finds no test NP; gold VP takes the first test VP
        assert_eq!(u.matched, [Some(0), Some(1), None, Some(2), Some(4)]);
        assert_eq!(u.row.matched, 4);
        assert_eq!(
            u.tags,
            [
                ("NN".to_string(), "NN".to_string(), true),
                ("VB".to_string(), "VB".to_string(), true),
                ("RP".to_string(), "RB".to_string(), false),
            ]
        );
        // an error sentence: its gold brackets as EVALB would count them, nothing compared
        assert_eq!(us[1].row.status, STATUS_ERROR);
        assert_eq!(us[1].gold, [b(0, 1, "S")]);
        assert!(us[1].test.is_empty() && us[1].matched.is_empty() && us[1].tags.is_empty());
        assert_eq!(us[2].row.status, STATUS_SKIP);
        assert_eq!(us[2].gold, [b(0, 1, "S")]);
    }

    #[test]
    fn units_agree_with_rows_on_the_test_files() {
        let collins = Params::collins();
        check_units(
            include_bytes!("../tests/data/trees/gold.mrg"),
            include_bytes!("../tests/data/trees/test.mrg"),
            &collins,
        );
        let mut quote = Params::default();
        quote
            .apply_prm(include_bytes!("../tests/data/trees/quote.prm"))
            .unwrap();
        for p in [&quote, &collins] {
            check_units(
                include_bytes!("../tests/data/trees/quote_gold.mrg"),
                include_bytes!("../tests/data/trees/quote_test.mrg"),
                p,
            );
        }
        let mut unlabeled = Params::default();
        unlabeled
            .apply_prm(include_bytes!("../tests/data/trees/unlabeled.prm"))
            .unwrap();
        check_units(
            include_bytes!("../tests/data/trees/unlabeled_gold.mrg"),
            include_bytes!("../tests/data/trees/unlabeled_test.mrg"),
            &unlabeled,
        );
        let mut many = Params::collins();
        many.max_error = 11;
        check_units(
            include_bytes!("../tests/data/trees/errors_gold.mrg"),
            include_bytes!("../tests/data/trees/errors_test.mrg"),
            &many,
        );
    }

    #[test]
    fn render_shape() {
        let rows = run("(S (A a) (B b))", "(S (A a) (B b))");
        let text = render(&rows, &Params::collins());
        assert!(text.contains(
            "   1    2    0  100.00 100.00     1      1    1      0      2     2   100.00\n"
        ));
        assert!(text.contains("Bracketing FMeasure       = 100.00\n"));
        assert!(text.ends_with("Tagging accuracy          = 100.00\n"));
        let rows = run("(S (A a) (B b))", "(T (A a) (B b))");
        assert!(render(&rows, &Params::collins()).contains("Bracketing FMeasure       =   -nan\n"));
    }
}
