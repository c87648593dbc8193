//! Chunking and named-entity recognition scored as `conlleval` (the Perl
//! script of CoNLL-2000/2003, version 2004-01-26) scores them: the one parse
//! behind `sigfast.formats.chunk`'s `conlleval` and `ner` formats.
//!
//! Pure Rust, no Python, no arrays of Python's: [`score_conlleval`] and
//! [`score_ner`] read the token/tag columns of the files (bytes split on a
//! one-byte delimiter as Perl's `split` does, or fields the caller split
//! on a regular expression), check them, run conlleval's chunk logic on the
//! one stream of lines and count, per sentence, the correct, guessed and
//! gold chunks of each type, the correct tags and the tokens ([`Scored`]).
//! The report text, the statistics and the units are read off that result
//! by the Python layer, which also words the messages that quote tokens
//! ([`Bad::Token`], [`Bad::GoldColumn`]).
//!
//! conlleval's rules, as its `startOfChunk` / `endOfChunk` and main loop
//! state them: a boundary line (empty, or first field `boundary`) reads as
//! `O O`; a tag splits at its first hyphen into prefix and type (type `0`
//! is the empty type); a chunk is correct when gold and system start it on
//! the same line with the same type, no line in between ends one side's
//! chunk without the other's or has different types, and both end together.
//! The end of input closes every chunk.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::{Error, FileRole};

/// An id that names no string (a line without that field).
const NONE: u32 = u32::MAX;

/// The lines of one file: its bytes and one-byte delimiter, or each line's
/// fields already split (Perl's `split` on a regular expression, done by the
/// caller, trailing empty fields dropped).
pub enum Source<'a> {
    Bytes(&'a [u8], u8),
    Fields(Vec<Vec<String>>),
}

/// The options both formats share.
#[derive(Clone, Debug)]
pub struct Options {
    /// `iobes`: `S-`/`U-` read as `B-`, `E-`/`L-` as `I-` before chunking.
    pub iobes: bool,
    /// conlleval `-r`: tags carry no prefix.
    pub raw: bool,
    /// conlleval `-o`.
    pub o_tag: String,
    /// The sentence-boundary token (`-X-`).
    pub boundary: String,
    /// `-DOCSTART-` lines end a sentence and are not counted.
    pub skip_docstart: bool,
}

/// Input the Python layer words itself, because the message quotes tokens.
#[derive(Debug)]
pub enum Bad {
    /// Any other error, ready to raise.
    Error(Error),
    /// `ner`: the system file's token differs from the gold file's.
    Token {
        gold_line: usize,
        system_line: usize,
        /// 1-based sentence
        sentence: usize,
        gold: String,
        system: String,
    },
    /// `conlleval` with a gold file: a line's (token, gold tag) differs from
    /// the system file's; empty strings on an empty line.
    GoldColumn {
        /// 1-based line
        line: usize,
        gold: (String, String),
        system: (String, String),
    },
}

impl From<Error> for Bad {
    fn from(e: Error) -> Self {
        Bad::Error(e)
    }
}

fn format_error(file: FileRole, line: Option<usize>, message: String) -> Bad {
    Bad::Error(Error::Format {
        file,
        line,
        message,
    })
}

// ---------------------------------------------------------------------------------------------
// strings

/// FxHash-style hashing: the keys are short tags and tokens of trusted files.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Field strings by id (first seen, first numbered), shared by the files of one call.
#[derive(Default)]
struct Vocab {
    ids: HashMap<Box<[u8]>, u32, BuildHasherDefault<Fx>>,
    words: Vec<Box<[u8]>>,
    /// the id last asked for (tags repeat: most lines are `O`)
    last: Option<u32>,
}

impl Vocab {
    fn id(&mut self, w: &[u8]) -> u32 {
        if let Some(i) = self.last {
            if *self.words[i as usize] == *w {
                return i;
            }
        }
        let i = match self.ids.get(w) {
            Some(&i) => i,
            None => {
                let i = u32::try_from(self.words.len()).unwrap_or(NONE - 1);
                self.words.push(w.into());
                self.ids.insert(w.into(), i);
                i
            }
        };
        self.last = Some(i);
        i
    }

    fn text(&self, id: u32) -> String {
        String::from_utf8_lossy(&self.words[id as usize]).into_owned()
    }
}

// ---------------------------------------------------------------------------------------------
// columns

/// Per line of one file: its field count (0: an empty line), the ids of its
/// second-to-last and last fields, and its first field (the token).
struct Columns<'a> {
    role: FileRole,
    nf: Vec<u32>,
    prev: Vec<u32>,
    last: Vec<u32>,
    /// byte range of each line's first field in `text`
    first: Vec<(usize, usize)>,
    text: Cow<'a, [u8]>,
}

impl<'a> Columns<'a> {
    fn read(src: Source<'a>, role: FileRole, want_prev: bool, vocab: &mut Vocab) -> Columns<'a> {
        match src {
            Source::Bytes(data, d) => Self::from_bytes(data, d, role, want_prev, vocab),
            Source::Fields(lines) => Self::from_fields(lines, role, want_prev, vocab),
        }
    }

    /// Perl's `split(/d/, $line)` on every line: fields between delimiters, a
    /// leading empty field kept, trailing empty fields dropped.
    fn from_bytes(
        data: &'a [u8],
        d: u8,
        role: FileRole,
        want_prev: bool,
        vocab: &mut Vocab,
    ) -> Columns<'a> {
        let body = data.strip_suffix(b"\n").unwrap_or(data);
        let n = body.iter().filter(|&&b| b == b'\n').count() + 1;
        let mut c = Columns {
            role,
            nf: Vec::with_capacity(n),
            prev: Vec::with_capacity(if want_prev { n } else { 0 }),
            last: Vec::with_capacity(n),
            first: Vec::with_capacity(n),
            text: Cow::Borrowed(data),
        };
        let mut fields: Vec<(usize, usize)> = Vec::with_capacity(8);
        let mut start = 0;
        for line in body.split(|&b| b == b'\n') {
            fields.clear();
            let mut a = 0;
            for (k, &b) in line.iter().enumerate() {
                if b == d {
                    fields.push((a, k));
                    a = k + 1;
                }
            }
            fields.push((a, line.len()));
            while fields.last().is_some_and(|&(x, y)| x == y) {
                fields.pop();
            }
            c.push_line(fields.len(), start, line, &fields, want_prev, vocab);
            start += line.len() + 1;
        }
        c
    }

    fn push_line(
        &mut self,
        k: usize,
        start: usize,
        line: &[u8],
        fields: &[(usize, usize)],
        want_prev: bool,
        vocab: &mut Vocab,
    ) {
        self.nf.push(u32::try_from(k).unwrap_or(u32::MAX));
        if k == 0 {
            self.first.push((start, start));
            self.last.push(NONE);
            if want_prev {
                self.prev.push(NONE);
            }
            return;
        }
        let (a, b) = fields[0];
        self.first.push((start + a, start + b));
        let (a, b) = fields[k - 1];
        self.last.push(vocab.id(&line[a..b]));
        if want_prev {
            self.prev.push(if k >= 2 {
                let (a, b) = fields[k - 2];
                vocab.id(&line[a..b])
            } else {
                NONE
            });
        }
    }

    fn from_fields(
        lines: Vec<Vec<String>>,
        role: FileRole,
        want_prev: bool,
        vocab: &mut Vocab,
    ) -> Columns<'a> {
        let n = lines.len();
        let mut c = Columns {
            role,
            nf: Vec::with_capacity(n),
            prev: Vec::with_capacity(if want_prev { n } else { 0 }),
            last: Vec::with_capacity(n),
            first: Vec::with_capacity(n),
            text: Cow::Owned(Vec::new()),
        };
        let mut text: Vec<u8> = Vec::new();
        let mut fields: Vec<(usize, usize)> = Vec::new();
        let mut line: Vec<u8> = Vec::new();
        for f in &lines {
            // the line's fields laid end to end; the first one also goes to `text`
            line.clear();
            fields.clear();
            for s in f {
                fields.push((line.len(), line.len() + s.len()));
                line.extend_from_slice(s.as_bytes());
            }
            let start = text.len();
            if let Some(s) = f.first() {
                text.extend_from_slice(s.as_bytes());
            }
            c.push_line(f.len(), start, &line, &fields, want_prev, vocab);
        }
        c.text = Cow::Owned(text);
        c
    }

    fn lines(&self) -> usize {
        self.nf.len()
    }

    fn token(&self, line: usize) -> &[u8] {
        let (a, b) = self.first[line];
        &self.text[a..b]
    }

    fn token_text(&self, line: usize) -> String {
        String::from_utf8_lossy(self.token(line)).into_owned()
    }

    /// The line is not empty and its first field is `word`.
    fn is_word(&self, line: usize, word: &[u8]) -> bool {
        self.nf[line] > 0 && self.token(line) == word
    }

    /// Every non-empty line has the first one's field count, and at least `need`.
    fn check_field_count(&self, need: u32) -> Result<(), Bad> {
        let Some(i0) = self.nf.iter().position(|&k| k > 0) else {
            return Err(format_error(
                self.role,
                None,
                "the file holds no tokens, only empty lines".into(),
            ));
        };
        let f0 = self.nf[i0];
        if let Some(i) = self.nf.iter().position(|&k| k > 0 && k != f0) {
            return Err(format_error(
                self.role,
                Some(i + 1),
                format!(
                    "{} fields where the first line has {f0} (conlleval: unexpected number of \
                     features); every line needs the same columns, check for a missing column or a \
                     token that holds the delimiter",
                    self.nf[i]
                ),
            ));
        }
        if f0 < need {
            let what = if need == 3 {
                "(token ... gold-tag system-tag)"
            } else {
                "(token ... tag)"
            };
            return Err(format_error(
                self.role,
                Some(i0 + 1),
                format!(
                    "{f0} field(s) per line; this format needs at least {need} {what}; is the \
                     delimiter right?"
                ),
            ));
        }
        Ok(())
    }

    /// Boundary lines: empty, first field `boundary`, or (`skip_docstart`) `-DOCSTART-`.
    fn boundaries(&self, opt: &Options) -> Vec<bool> {
        (0..self.lines())
            .map(|i| {
                self.nf[i] == 0
                    || self.token(i) == opt.boundary.as_bytes()
                    || (opt.skip_docstart && self.token(i) == b"-DOCSTART-")
            })
            .collect()
    }

    fn has_docstart(&self) -> bool {
        (0..self.lines()).any(|i| self.is_word(i, b"-DOCSTART-"))
    }
}

/// The token lines of a `ner` file and the sentences they make.
struct Tokens {
    /// token lines, in file order
    lines: Vec<usize>,
    /// sentence of each token (0-based)
    sent: Vec<usize>,
    /// index into `lines` of each sentence's first token
    firsts: Vec<usize>,
    /// the file ends with a boundary line
    trailing_boundary: bool,
}

impl Tokens {
    fn of(c: &Columns, opt: &Options) -> Result<Tokens, Bad> {
        let is_b = c.boundaries(opt);
        let mut t = Tokens {
            lines: Vec::new(),
            sent: Vec::new(),
            firsts: Vec::new(),
            trailing_boundary: is_b.last().copied().unwrap_or(true),
        };
        for (i, &b) in is_b.iter().enumerate() {
            if b {
                continue;
            }
            if i == 0 || is_b[i - 1] {
                t.firsts.push(t.lines.len());
            }
            t.sent.push(t.firsts.len() - 1);
            t.lines.push(i);
        }
        if t.lines.is_empty() {
            return Err(format_error(
                c.role,
                None,
                "the file holds no tokens".into(),
            ));
        }
        Ok(t)
    }

    fn sentence_lengths(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.firsts.windows(2).map(|w| w[1] - w[0]).collect();
        if let Some(&f) = self.firsts.last() {
            out.push(self.lines.len() - f);
        }
        out
    }
}

/// The gold and system `ner` files hold the same sentences and tokens.
fn check_same_tokens(gc: &Columns, sc: &Columns, gt: &Tokens, st: &Tokens) -> Result<(), Bad> {
    let hint = if gc.has_docstart() == sc.has_docstart() {
        ""
    } else {
        "; only one file has -DOCSTART- lines (each is a sentence of its own): docstart='skip' leaves \
         them out of both"
    };
    let (gl, sl) = (gt.sentence_lengths(), st.sentence_lengths());
    let k = gl.len().min(sl.len());
    if let Some(i) = (0..k).find(|&i| gl[i] != sl[i]) {
        let gline = gt.lines[gt.firsts[i]] + 1;
        let sline = st.lines[st.firsts[i]] + 1;
        return Err(format_error(
            FileRole::System,
            Some(sline),
            format!(
                "sentence {} (gold line {gline}) has {} tokens in the gold file but {} in the system \
                 file (line {sline}); the files must hold the same sentences and tokens, separated by \
                 empty lines{hint}",
                i + 1,
                gl[i],
                sl[i]
            ),
        ));
    }
    if gl.len() != sl.len() {
        let (which, role, tt) = if gl.len() > sl.len() {
            ("gold", FileRole::Gold, gt)
        } else {
            ("system", FileRole::System, st)
        };
        return Err(format_error(
            role,
            Some(tt.lines[tt.firsts[k]] + 1),
            format!(
                "the gold file has {} sentences and the system file {}; the {which} file goes on \
                 with sentence {} here{hint}",
                gl.len(),
                sl.len(),
                k + 1
            ),
        ));
    }
    let differ = gt
        .lines
        .iter()
        .zip(&st.lines)
        .position(|(&g, &s)| gc.token(g) != sc.token(s));
    if let Some(i) = differ {
        let (g, s) = (gt.lines[i], st.lines[i]);
        return Err(Bad::Token {
            gold_line: g + 1,
            system_line: s + 1,
            sentence: gt.sent[i] + 1,
            gold: gc.token_text(g),
            system: sc.token_text(s),
        });
    }
    Ok(())
}

/// Two `conlleval` files hold the same tokens and gold tags, line for line.
fn check_same_gold(gc: &Columns, c: &Columns, vocab: &Vocab) -> Result<(), Bad> {
    let n = gc.lines().min(c.lines());
    fn key<'c>(x: &'c Columns<'_>, i: usize) -> (bool, &'c [u8], u32) {
        if x.nf[i] > 0 {
            (true, x.token(i), x.prev[i])
        } else {
            (false, &[], NONE)
        }
    }
    if let Some(i) = (0..n).find(|&i| key(gc, i) != key(c, i)) {
        let text = |x: &Columns| -> (String, String) {
            if x.nf[i] > 0 {
                (x.token_text(i), vocab.text(x.prev[i]))
            } else {
                (String::new(), String::new())
            }
        };
        return Err(Bad::GoldColumn {
            line: i + 1,
            gold: text(gc),
            system: text(c),
        });
    }
    if gc.lines() != c.lines() {
        return Err(format_error(
            FileRole::Gold,
            Some(n + 1),
            format!(
                "{} lines but {{system}} has {}; the files must have the same lines",
                gc.lines(),
                c.lines()
            ),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// conlleval's chunk logic

/// A tag's prefix, as conlleval's rules compare it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Prefix {
    B,
    I,
    O,
    E,
    Open,
    Close,
    Dot,
    Other,
}

impl Prefix {
    fn of(p: &str) -> Prefix {
        match p {
            "B" => Prefix::B,
            "I" => Prefix::I,
            "O" => Prefix::O,
            "E" => Prefix::E,
            "[" => Prefix::Open,
            "]" => Prefix::Close,
            "." => Prefix::Dot,
            _ => Prefix::Other,
        }
    }
}

/// conlleval's `/^([^-]*)-(.*)$/`: the prefix before the first hyphen, the
/// type after it (`0` reads as the empty type, as Perl's truth would have it).
fn split_tag(tag: &str) -> (&str, &str) {
    let (p, t) = tag.split_once('-').unwrap_or((tag, ""));
    (p, if t == "0" { "" } else { t })
}

/// conlleval's `endOfChunk(prevTag, tag, prevType, type)`.
fn end_of_chunk(p0: Prefix, p1: Prefix, same_type: bool) -> bool {
    use Prefix::{Close, Dot, Open, B, E, I, O};
    matches!(
        (p0, p1),
        (B, B) | (B, O) | (I, B) | (I, O) | (E, E) | (E, I) | (E, O)
    ) || (p0 != O && p0 != Dot && !same_type)
        || p0 == Open
        || p0 == Close
}

/// conlleval's `startOfChunk(prevTag, tag, prevType, type)`.
fn start_of_chunk(p0: Prefix, p1: Prefix, same_type: bool) -> bool {
    use Prefix::{Close, Dot, Open, B, E, I, O};
    matches!(
        (p0, p1),
        (B, B) | (I, B) | (O, B) | (O, I) | (E, E) | (E, I) | (O, E)
    ) || (p1 != O && p1 != Dot && !same_type)
        || p1 == Open
        || p1 == Close
}

/// A tag as token accuracy compares it: as written, except that a tag with
/// an empty type reads as its prefix alone, and with `raw` both outside tags
/// read as `o_tag`. One to one with (prefix, type).
fn acc_label(prefix: &str, typ: &str, raw: bool, o_tag: &str) -> String {
    if raw {
        if prefix == "O" && typ.is_empty() {
            return o_tag.to_string();
        }
        return if typ.is_empty() {
            "0".into()
        } else {
            typ.into()
        };
    }
    if typ.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}-{typ}")
    }
}

/// One stream of lines as conlleval chunked and counted it; the units are read from it.
///
/// Per line (`n` lines): `tok` (a token, not a boundary line), `gold` and
/// `system` (tag ids; boundary lines hold the `O` id), `sent` (the item the
/// line counts for; -1 before the first token), `start_gold`/`start_system`
/// (a chunk starts on this line). `end_gold`/`end_system` have `n + 1`
/// entries: a chunk open before line k is closed at k (the end of input
/// closes every chunk). `correct_start`/`correct_end`: for each correct
/// chunk, the line where it starts and the line that closes it. Per tag id:
/// `tag_type` (index into `types`, after the `iobes` reading) and
/// `acc_tags` (the tag as token accuracy compares it).
#[derive(Debug, Default)]
pub struct Chunked {
    pub tok: Vec<bool>,
    pub gold: Vec<u32>,
    pub system: Vec<u32>,
    pub sent: Vec<i64>,
    pub n_sent: usize,
    pub start_gold: Vec<bool>,
    pub start_system: Vec<bool>,
    pub end_gold: Vec<bool>,
    pub end_system: Vec<bool>,
    pub correct_start: Vec<u64>,
    pub correct_end: Vec<u64>,
    pub tag_type: Vec<u32>,
    pub types: Vec<String>,
    pub acc_tags: Vec<String>,
}

/// What a scored file gives: the chunk types (sorted), the per-sentence
/// counts (`n_items` rows of `3 * types + 2`: correct chunks per type,
/// guessed per type, gold per type, correct tags, tokens), each item's
/// first line (0-based, in the system file) and the chunking itself.
#[derive(Debug)]
pub struct Scored {
    pub types: Vec<String>,
    pub counts: Vec<i64>,
    pub n_items: usize,
    pub item_lines: Vec<usize>,
    pub chunked: Chunked,
    /// the tokens of the token lines (the gold file's, for `ner`), for the units
    pub tokens: Vec<(usize, usize)>,
    pub token_text: Vec<u8>,
}

impl Scored {
    /// Columns per item: `3 * types + 2`.
    pub fn width(&self) -> usize {
        3 * self.types.len() + 2
    }

    /// The counts summed over the items.
    pub fn totals(&self) -> Vec<i64> {
        let w = self.width();
        let mut out = vec![0i64; w];
        for row in self.counts.chunks_exact(w) {
            for (o, &x) in out.iter_mut().zip(row) {
                *o += x;
            }
        }
        out
    }

    /// The tokens of the token lines, in order.
    pub fn tokens(&self) -> Vec<String> {
        self.tokens
            .iter()
            .map(|&(a, b)| String::from_utf8_lossy(&self.token_text[a..b]).into_owned())
            .collect()
    }
}

/// Per tag id (dense), what the rules need.
struct Tags {
    prefix: Vec<Prefix>,
    /// index into the sorted types
    ty: Vec<u32>,
    /// token accuracy's key: equal keys <=> the tags count as equal
    acc: Vec<u32>,
    types: Vec<String>,
    acc_tags: Vec<String>,
}

fn tag_table(names: &[String], opt: &Options) -> Tags {
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(names.len());
    let mut acc_ids: HashMap<(String, String), u32> = HashMap::new();
    let mut acc = Vec::with_capacity(names.len());
    let mut acc_tags = Vec::with_capacity(names.len());
    for t in names {
        let tag = if opt.raw {
            if *t == opt.o_tag || t == "O" {
                "O".to_string()
            } else {
                format!("B-{t}")
            }
        } else {
            t.clone()
        };
        let (p, ty) = split_tag(&tag);
        acc_tags.push(acc_label(p, ty, opt.raw, &opt.o_tag));
        let next = u32::try_from(acc_ids.len()).unwrap_or(NONE);
        acc.push(
            *acc_ids
                .entry((p.to_string(), ty.to_string()))
                .or_insert(next),
        );
        let p = if opt.iobes {
            match p {
                "S" | "U" => "B",
                "E" | "L" => "I",
                _ => p,
            }
        } else {
            p
        };
        pairs.push((p.to_string(), ty.to_string()));
    }
    let mut types: Vec<String> = pairs.iter().map(|(_, t)| t.clone()).collect();
    types.sort();
    types.dedup();
    let ty = pairs
        .iter()
        .map(|(_, t)| u32::try_from(types.binary_search(t).unwrap_or(0)).unwrap_or(0))
        .collect();
    Tags {
        prefix: pairs.iter().map(|(p, _)| Prefix::of(p)).collect(),
        ty,
        acc,
        types,
        acc_tags,
    }
}

/// conlleval on one stream of lines: `gold`/`system` tag ids into `vocab`
/// (ignored on boundary lines, which read as `O O`).
fn evaluate(
    gold: &[u32],
    system: &[u32],
    is_b: &[bool],
    vocab: &mut Vocab,
    opt: &Options,
) -> (Vec<i64>, Vec<usize>, Chunked) {
    let n = is_b.len();
    // the tags in use, numbered densely (O first); the vocabulary may also hold tokens
    let o = vocab.id(b"O");
    let mut dense = vec![NONE; vocab.words.len()];
    let mut names: Vec<String> = Vec::new();
    let mut number = |id: u32, dense: &mut Vec<u32>| -> u32 {
        let d = &mut dense[id as usize];
        if *d == NONE {
            *d = u32::try_from(names.len()).unwrap_or(NONE);
            names.push(vocab.text(id));
        }
        *d
    };
    let o_d = number(o, &mut dense);
    let mut g = Vec::with_capacity(n);
    let mut s = Vec::with_capacity(n);
    for i in 0..n {
        if is_b[i] {
            g.push(o_d);
            s.push(o_d);
        } else {
            g.push(number(gold[i], &mut dense));
            s.push(number(system[i], &mut dense));
        }
    }
    let tags = tag_table(&names, opt);
    let nt = tags.types.len();
    let width = 3 * nt + 2;
    let mut c = Chunked {
        tok: is_b.iter().map(|&b| !b).collect(),
        sent: Vec::with_capacity(n),
        start_gold: Vec::with_capacity(n),
        start_system: Vec::with_capacity(n),
        end_gold: Vec::with_capacity(n + 1),
        end_system: Vec::with_capacity(n + 1),
        ..Chunked::default()
    };
    let mut first_line = Vec::new();
    let mut cur: i64 = -1;
    for j in 0..n {
        if !is_b[j] && (j == 0 || is_b[j - 1]) {
            cur += 1;
            first_line.push(j);
        }
        c.sent.push(cur);
    }
    let n_sent = first_line.len();
    let mut counts = vec![0i64; n_sent * width];
    let row = |sent: i64| usize::try_from(sent).unwrap_or(0) * width;
    let mut in_correct = false;
    let mut cstart = 0usize;
    for j in 0..=n {
        let (sg, ss, eg, es, same) = if j < n {
            let (pg, ps) = if j == 0 {
                (o_d, o_d)
            } else {
                (g[j - 1], s[j - 1])
            };
            let (x, y) = (g[j] as usize, s[j] as usize);
            let (px, py) = (pg as usize, ps as usize);
            let gsame = tags.ty[px] == tags.ty[x];
            let ssame = tags.ty[py] == tags.ty[y];
            (
                start_of_chunk(tags.prefix[px], tags.prefix[x], gsame),
                start_of_chunk(tags.prefix[py], tags.prefix[y], ssame),
                end_of_chunk(tags.prefix[px], tags.prefix[x], gsame),
                end_of_chunk(tags.prefix[py], tags.prefix[y], ssame),
                tags.ty[x] == tags.ty[y],
            )
        } else {
            (false, false, true, true, true)
        };
        if in_correct && eg && es {
            let t = tags.ty[g[j - 1] as usize] as usize;
            counts[row(c.sent[cstart]) + t] += 1;
            c.correct_start.push(cstart as u64);
            c.correct_end.push(j as u64);
        }
        if sg && ss && same {
            in_correct = true;
            cstart = j;
        } else if eg || es || !same {
            in_correct = false;
        }
        c.end_gold.push(eg);
        c.end_system.push(es);
        if j == n {
            break;
        }
        c.start_gold.push(sg);
        c.start_system.push(ss);
        if is_b[j] {
            continue;
        }
        let r = row(c.sent[j]);
        let (x, y) = (g[j] as usize, s[j] as usize);
        if ss {
            counts[r + nt + tags.ty[y] as usize] += 1;
        }
        if sg {
            counts[r + 2 * nt + tags.ty[x] as usize] += 1;
        }
        if tags.acc[x] == tags.acc[y] {
            counts[r + 3 * nt] += 1;
        }
        counts[r + 3 * nt + 1] += 1;
    }
    c.gold = g;
    c.system = s;
    c.n_sent = n_sent;
    c.tag_type = tags.ty;
    c.types = tags.types;
    c.acc_tags = tags.acc_tags;
    (counts, first_line, c)
}

fn scored(
    counts: Vec<i64>,
    item_lines: Vec<usize>,
    chunked: Chunked,
    toks: &Columns,
    lines: &[usize],
) -> Scored {
    Scored {
        types: chunked.types.clone(),
        counts,
        n_items: chunked.n_sent,
        item_lines,
        chunked,
        tokens: lines.iter().map(|&i| toks.first[i]).collect(),
        token_text: toks.text.to_vec(),
    }
}

/// The `conlleval` format: one file of `token ... gold-tag system-tag` lines
/// (`system`), and optionally another file (`gold`) whose tokens and gold
/// tags must be the same, line for line.
pub fn score_conlleval(
    system: Source<'_>,
    gold: Option<Source<'_>>,
    opt: &Options,
) -> Result<Scored, Bad> {
    let mut vocab = Vocab::default();
    let c = Columns::read(system, FileRole::System, true, &mut vocab);
    c.check_field_count(2)?;
    let is_b = c.boundaries(opt);
    if is_b.iter().all(|&b| b) {
        return Err(format_error(
            FileRole::System,
            None,
            "the file holds no tokens, only sentence boundaries".into(),
        ));
    }
    if let Some(gold) = gold {
        let gc = Columns::read(gold, FileRole::Gold, true, &mut vocab);
        gc.check_field_count(2)?;
        check_same_gold(&gc, &c, &vocab)?;
    }
    let (counts, first_line, chunked) = evaluate(&c.prev, &c.last, &is_b, &mut vocab, opt);
    let lines: Vec<usize> = (0..is_b.len()).filter(|&i| !is_b[i]).collect();
    Ok(scored(counts, first_line, chunked, &c, &lines))
}

/// The `ner` format: a gold and a system file of `token ... tag` lines with
/// the same sentences and tokens, scored as conlleval scores the pasted
/// `token gold-tag system-tag` file with one empty line between sentences
/// (and one at the end if the gold file ends with one).
pub fn score_ner(gold: Source<'_>, system: Source<'_>, opt: &Options) -> Result<Scored, Bad> {
    let mut vocab = Vocab::default();
    let gc = Columns::read(gold, FileRole::Gold, false, &mut vocab);
    let sc = Columns::read(system, FileRole::System, false, &mut vocab);
    gc.check_field_count(2)?;
    sc.check_field_count(2)?;
    let gt = Tokens::of(&gc, opt)?;
    let st = Tokens::of(&sc, opt)?;
    check_same_tokens(&gc, &sc, &gt, &st)?;
    let n_tok = gt.lines.len();
    let n_sent = gt.firsts.len();
    let total = n_tok + n_sent - usize::from(!gt.trailing_boundary);
    let mut g = vec![NONE; total];
    let mut s = vec![NONE; total];
    let mut is_b = vec![true; total];
    for i in 0..n_tok {
        let pos = i + gt.sent[i];
        g[pos] = gc.last[gt.lines[i]];
        s[pos] = sc.last[st.lines[i]];
        is_b[pos] = false;
    }
    let (counts, _, chunked) = evaluate(&g, &s, &is_b, &mut vocab, opt);
    let item_lines = gt.firsts.iter().map(|&f| st.lines[f]).collect();
    Ok(scored(counts, item_lines, chunked, &gc, &gt.lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt() -> Options {
        Options {
            iobes: false,
            raw: false,
            o_tag: "O".into(),
            boundary: "-X-".into(),
            skip_docstart: false,
        }
    }

    fn counts_of(text: &str) -> Scored {
        match score_conlleval(Source::Bytes(text.as_bytes(), b' '), None, &opt()) {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn perl_split_keeps_leading_and_drops_trailing_empty_fields() {
        let mut v = Vocab::default();
        let c = Columns::from_bytes(b" a b\nx y  \n \n\nz", b' ', FileRole::System, true, &mut v);
        assert_eq!(c.nf, vec![3, 2, 0, 0, 1]);
        assert_eq!(c.token(0), b"");
        assert_eq!(c.token(1), b"x");
        assert_eq!(v.text(c.last[1]), "y");
        assert_eq!(v.text(c.prev[0]), "a");
        assert_eq!(c.prev[4], NONE);
    }

    #[test]
    fn one_sentence_counts() {
        // gold: PER (Ann Lee), LOC (Rome); system: PER (Ann), LOC (Rome)
        let s = counts_of("Ann B-PER B-PER\nLee I-PER O\nin O O\nRome B-LOC B-LOC\n");
        assert_eq!(s.types, vec!["", "LOC", "PER"]);
        let t = s.totals();
        // correct per type, guessed per type, gold per type, correct tags, tokens
        assert_eq!(t, vec![0, 1, 0, 0, 1, 1, 0, 1, 1, 3, 4]);
        assert_eq!(s.item_lines, vec![0]);
        assert_eq!(s.chunked.correct_start, vec![3]);
        assert_eq!(s.chunked.correct_end, vec![4]);
    }

    #[test]
    fn boundaries_split_items_and_end_of_input_closes_chunks() {
        let s = counts_of("a B-X B-X\n\nb I-Y I-Y\n-X- O O\nc B-X B-X\n");
        assert_eq!(s.n_items, 3);
        assert_eq!(s.item_lines, vec![0, 2, 4]);
        let w = s.width();
        let correct: Vec<i64> = s
            .counts
            .chunks(w)
            .map(|r| r[..s.types.len()].iter().sum())
            .collect();
        assert_eq!(correct, vec![1, 1, 1]);
    }

    #[test]
    fn errors_name_the_line() {
        let e = score_conlleval(Source::Bytes(b"a O O\nb O\n", b' '), None, &opt()).unwrap_err();
        match e {
            Bad::Error(Error::Format { line, message, .. }) => {
                assert_eq!(line, Some(2));
                assert!(
                    message.starts_with("2 fields where the first line has 3"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
        let e = score_ner(
            Source::Bytes(b"a\tO\nb\tO\n", b'\t'),
            Source::Bytes(b"a\tO\nc\tO\n", b'\t'),
            &opt(),
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                Bad::Token {
                    system_line: 2,
                    sentence: 1,
                    ..
                }
            ),
            "{e:?}"
        );
    }
}
