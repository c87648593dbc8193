"""Chunking and named-entity recognition scored exactly like ``conlleval``.

Reference: ``conlleval`` (Perl), version 2004-01-26 (Erik Tjong Kim Sang, CoNLL-2000/2003), as in
``deeppavlov/ner`` @ f107d6da6017b8a2ac56013e1f9985e376ef99da (md5 66f60a06f6c514346b1a11491c91d1b4).

Formats
-------
``"conlleval"``
    One file laid out as conlleval reads it: ``token ... gold-tag system-tag`` per line, fields
    separated by ``delimiter`` (a regular expression, default one space), sentences separated by
    empty lines or lines whose first field is ``boundary`` (default ``-X-``). Pass the file as
    ``system`` (``gold`` may be ``None``, the same path, or another conlleval-layout file whose
    tokens and gold tags must be identical: handy when several systems' files share one gold).
``"ner"``
    Two files in CoNLL-2003 column layout (``token ... tag``): the token in the first column, the
    tag in the last. Columns are separated by TAB if the first non-empty line of the file holds a
    TAB, otherwise by one space (``delimiter=`` overrides, as a regular expression). Both files
    must hold the same sentences and tokens (extra empty lines do not matter); the result is what
    conlleval prints for the ``token gold-tag system-tag`` file with one empty line between
    sentences, and one at the end if the gold file ends with an empty line (that can matter to
    conlleval when a chunk has an unknown prefix such as ``X-``).

Options (both formats)
    ``scheme``: ``"iob"`` (default; also ``"iob1"``, ``"iob2"``, ``"conlleval"``): conlleval's own
    chunk start/end rules, which read IOB1 and IOB2 alike (an ``I-`` after ``O`` or after another
    type starts a chunk). ``"iobes"`` (also ``"bioes"``, ``"bilou"``): ``S-``/``U-`` are read as
    ``B-`` and ``E-``/``L-`` as ``I-`` before chunking (conlleval itself does not know ``S-``: it
    joins ``S-PER S-PER`` into one chunk); token accuracy still compares the original tags.
    ``raw`` (conlleval ``-r``): tags carry no prefix; every tag other than ``o_tag`` is a
    one-token chunk. ``o_tag`` (``-o``, default ``"O"``). ``delimiter`` (``-d``). ``boundary``
    (default ``-X-``). ``docstart``: ``"keep"`` (default: ``-DOCSTART-`` lines are ordinary tokens,
    as conlleval counts them) or ``"skip"`` (such lines end a sentence and are not counted).

Statistics (items = sentences, in file order)
    ``f1``/``precision``/``recall``: [correct_chunks, guessed_chunks, gold_chunks];
    ``accuracy``: [correct_tags, tokens]; ``f1:<TYPE>``: [correct, guessed, gold] of one chunk
    type. A correct chunk is credited to the sentence where it starts. ``scores`` holds the
    metrics on the summed statistics (fractions, not percentages).

Units (``ScoreReport.units(view)``; views ``"tags"``, the default, and ``"spans"``)
    Read from the very chunking that the statistics count (same options, same code path), so
    that the correct units are the statistic's numerator, per sentence and in total.

    ``"tags"``: one unit per token conlleval counts for accuracy (boundary lines, and
    ``-DOCSTART-`` lines with ``docstart="skip"``, are none); ``sentence`` is its item, ``forms``
    its token. Labels are the gold and system tags as token accuracy compares them: the original
    tags (not the ``iobes`` reading), except that a tag whose type is empty reads as its prefix
    (``B-`` and ``B-0`` are ``B``) and, with ``raw``, both outside tags (``O`` and ``o_tag``) read
    as ``o_tag``. Labels are equal iff the tag counts correct: units correct = ``accuracy[0]``.

    ``"spans"``: one unit per chunk that conlleval finds in gold or in the system. A chunk runs
    from the line where it starts to the first line that ends it (a start without an end leaves
    it open), and is keyed ``(sentence, start, end)``: the item it is credited to (where it
    starts) and its token offsets in that item (``end`` exclusive; past the item's last token
    for a chunk of unknown prefix that conlleval does not close at a boundary). Labels are chunk
    types (a type ``O``, from tags ``B-O``, reads ``O'``, so that no type is ``"O"``). A gold chunk
    is one unit whose system label is the type of the system chunk with the same key, or ``"O"``
    when the system has none (a type error shows as ``PER`` -> ``LOC``); a system chunk that no
    gold chunk has gives a unit of gold label ``"O"`` and ``gold_present=False``. Where the two
    chunks have the same key and type but conlleval did not count them correct (its state broke
    inside the chunk, or they close on different boundary lines: only odd tags do this), the system
    chunk gets a unit of its own keyed ``(sentence, start, end, "uncredited")``, so it counts as
    guessed and not correct, as conlleval counts it. Hence units correct = correct chunks,
    gold-present units = gold chunks and units with a system label other than ``"O"`` = guessed
    chunks, per sentence. Per type, gold and guessed counts follow the labels too; conlleval
    credits a correct chunk to the type of its last line, which differs from the type it started
    with only when the type changes inside the chunk or the chunk runs through a boundary.

``ScoreReport.text`` is conlleval's report byte for byte (the ``processed ...`` line, the
``accuracy:`` line when tokens > 0, and one line per chunk type, including conlleval's habit of
printing the empty type twice when both sides have it). With ``latex=True`` (conlleval ``-l``,
also ``l=True``) it is what ``conlleval -l`` prints instead: the rows of a LaTeX table (a header
row, one row per chunk type, an ``Overall`` row), byte for byte.

Differences from conlleval, all of them errors instead of numbers: files that are empty, hold no
tokens, are not UTF-8, or hold a carriage return (Windows line ends would become part of the
last tag in conlleval) raise :class:`~sigfast.exceptions.FormatError`, as do lines with a field
count other than the first line's (conlleval stops with "unexpected number of features").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from ..metrics import get as _get_metric
from ._base import FormatSpec, ItemStats, Option, ScoreReport, UnitTable, decode_utf8, display, read_file_bytes, shorten

__all__ = ["SPECS", "UNCREDITED", "VIEWS", "score_conlleval", "score_ner"]

_SCHEMES = {
    "iob": "iob",
    "iob1": "iob",
    "iob2": "iob",
    "conlleval": "iob",
    "bio": "iob",
    "iobes": "iobes",
    "bioes": "iobes",
    "bilou": "iobes",
}
_REGEX_META = set(".^$*+?{}[]\\|()")
VIEWS = ("tags", "spans")


# --------------------------------------------------------------------------------------------
# reading


def _read(path: Any, role: str = "system") -> bytes:
    if path is None:
        raise InputError("a file path is needed")
    data, name = read_file_bytes(path, role)
    if not data.strip():
        raise FormatError("the file is empty; expected one token per line with its tags", path=name)
    decode_utf8(data, name, role)
    cr = data.find(b"\r")
    if cr >= 0:
        raise FormatError(
            "carriage return (Windows line end): conlleval would read it as part of the last tag; "
            "convert the file with dos2unix",
            path=name,
            line=data.count(b"\n", 0, cr) + 1,
        )
    return data


@dataclass
class _Cols:
    """Per-line columns of one file.

    ``nf``: fields per line (0 = empty line); ``prev``/``last``: ids of the second-to-last and
    last field in ``vocab`` (meaningless where the line is empty). First fields (tokens) are kept as byte
    offsets ``fst``/``fln`` into ``raw`` (fast reader) or as strings in ``first`` (exact reader).
    """

    path: str
    nf: np.ndarray
    prev: np.ndarray
    last: np.ndarray
    vocab: list[str]
    raw: np.ndarray | None = None
    fst: np.ndarray | None = None
    fln: np.ndarray | None = None
    first: list[str] | None = None

    def word_mask(self, word: str) -> np.ndarray:
        """Lines whose first field is ``word``."""
        if self.first is not None:
            return np.array([f == word for f in self.first], bool)
        assert self.raw is not None and self.fst is not None and self.fln is not None
        bb = word.encode("utf-8")
        m = self.fln == len(bb)
        idx = np.flatnonzero(m)
        n = len(self.raw)
        for k, byte in enumerate(bb):
            ok = self.raw[np.minimum(self.fst[idx] + k, n - 1)] == byte
            m[idx[~ok]] = False
            idx = idx[ok]
        return m

    def token(self, line: int) -> str:
        if self.first is not None:
            return self.first[line]
        assert self.raw is not None and self.fst is not None and self.fln is not None
        st, ln = int(self.fst[line]), int(self.fln[line])
        return self.raw[st : st + ln].tobytes().decode("utf-8")

    def tokens(self, lines: np.ndarray) -> list[str]:
        if self.first is not None:
            return [self.first[int(i)] for i in lines]
        assert self.raw is not None and self.fst is not None and self.fln is not None
        data = self.raw.tobytes()
        st = self.fst[lines]
        return [data[a:b].decode("utf-8") for a, b in zip(st.tolist(), (st + self.fln[lines]).tolist())]


def _delim_byte(delimiter: str) -> int | None:
    if delimiter in ("\\t",):
        return 9
    if len(delimiter) == 1 and delimiter not in _REGEX_META and ord(delimiter) < 128 and delimiter != "\n":
        return ord(delimiter)
    return None


def _perl_split(line: str, rx: re.Pattern[str]) -> list[str]:
    """Perl's ``split(/$delimiter/, $line)``: trailing empty fields are dropped."""
    if not line:
        return []
    parts = rx.split(line)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _columns(data: bytes, path: str, delimiter: str, want_prev: bool = True) -> _Cols:
    b = _delim_byte(delimiter)
    if b is not None:
        cols = _columns_fast(data, path, b, want_prev)
        if cols is not None:
            return cols
    try:
        rx = re.compile(delimiter)
    except re.error as e:
        raise InputError(f"delimiter {delimiter!r} is not a valid regular expression: {e}") from None
    if rx.match(""):
        raise InputError(f"delimiter {delimiter!r} matches the empty string; give a non-empty separator")
    text = data.decode("utf-8")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    n = len(lines)
    nf = np.zeros(n, np.int64)
    first: list[str] = [""] * n
    prev = np.full(n, -1, np.int64)
    last = np.full(n, -1, np.int64)
    ids: dict[str, int] = {}
    for i, line in enumerate(lines):
        f = _perl_split(line, rx)
        k = len(f)
        nf[i] = k
        if k:
            first[i] = f[0]
            last[i] = ids.setdefault(f[-1], len(ids))
            prev[i] = ids.setdefault(f[-2], len(ids)) if k >= 2 else -1
    vocab = [""] * len(ids)
    for s, j in ids.items():
        vocab[j] = s
    return _Cols(path, nf, prev, last, vocab, first=first)


def _keys(a: np.ndarray, st: np.ndarray, ln: np.ndarray) -> np.ndarray:
    """One comparable key per byte slice ``a[st:st+ln]`` (equal keys <=> equal slices)."""
    if len(st) == 0:
        return np.zeros(0, np.uint64)
    width = int(ln.max())
    n = len(a)
    if width <= 7:
        # load 8 bytes at each start at once, keep the slice's bytes, add its length on top
        words = np.take(_words(a), st)
        return (words & _MASKS[ln]) | (ln.astype(np.uint64) << np.uint64(56))
    m = np.zeros((len(st), width + 8), np.uint8)
    m[:, :8] = ln.astype("<u8").view(np.uint8).reshape(-1, 8)
    for k in range(width):
        col = a[np.minimum(st + k, n - 1)]
        col = np.where(ln > k, col, 0)
        m[:, 8 + k] = col
    return np.ascontiguousarray(m).view(f"V{width + 8}").ravel()


def _factorize(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index of one occurrence of each distinct key, id of each key)."""
    if keys.dtype == np.uint64 and len(keys) > 4096:
        # tags are few: a 4096-bucket hash table, used only if no two distinct keys share a bucket
        h = ((keys * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(52)).astype(np.intp)
        table = np.zeros(4096, np.uint64)
        table[h] = keys
        if np.array_equal(table[h], keys):
            first = np.full(4096, -1, np.intp)
            first[h] = np.arange(len(keys))  # any occurrence will do
            used = np.flatnonzero(first >= 0)
            idmap = np.zeros(4096, np.intp)
            idmap[used] = np.arange(len(used))
            return first[used], idmap[h]
        # else: find the keys in a sample, then look every key up; exact, checked below
        u = np.unique(keys[:: max(1, len(keys) // 2048)])
        pos = np.minimum(np.searchsorted(u, keys), len(u) - 1)
        if np.array_equal(u[pos], keys):
            first = np.zeros(len(u), np.int64)
            first[pos] = np.arange(len(keys))  # any occurrence will do
            return first, pos
    _, idx, inv = np.unique(keys, return_index=True, return_inverse=True)
    return idx, inv.ravel()


def _columns_fast(data: bytes, path: str, d: int, want_prev: bool) -> _Cols | None:
    """Vectorized reading when the delimiter is one byte and no field is empty; else None."""
    a = np.frombuffer(data, np.uint8)
    n = len(a)
    # positions of newlines and delimiters; a line's delimiters sit between its newline and the
    # previous one in this list
    sp = np.flatnonzero(a <= max(d, 10))
    v = a[sp]
    is_nl = v == 10
    is_d = v == d
    if not np.all(is_nl | is_d):  # other control bytes (or TABs inside space-separated fields)
        keep = is_nl | is_d
        sp, is_nl, is_d = sp[keep], is_nl[keep], is_d[keep]
    # an empty field (two delimiters in a row, or one at the start or end of a line) needs Perl's
    # split rules: leave those files to the exact reader
    if len(sp) and (a[0] == d or a[-1] == d or np.any((np.diff(sp) == 1) & (is_d[1:] | is_d[:-1]))):
        return None
    if not data.endswith(b"\n"):
        sp = np.append(sp, n)
        is_nl = np.append(is_nl, True)
    k_nl = np.flatnonzero(is_nl)
    ends = sp[k_nl]
    nlines = len(ends)
    starts = np.empty(nlines, np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    lo = np.empty(nlines, np.int64)  # index in sp of the line's first delimiter
    lo[0] = 0
    lo[1:] = k_nl[:-1] + 1
    hi = k_nl
    c = hi - lo  # delimiters in the line
    full = ends > starts
    if np.any((c < 1) & full):
        return None  # single-field lines: the exact path gives conlleval's verdict
    # every line is computed, the empty ones too (their values are not used)
    last_st = sp[hi - 1] + 1
    last_st[0] = max(int(last_st[0]), 0) if full[0] else 0
    ln = ends - last_st
    if want_prev:
        prev_st = np.where(c >= 2, sp[np.maximum(hi - 2, 0)] + 1, starts)
        prev_ln = last_st - 1 - prev_st
        st = np.concatenate([prev_st, last_st])
        ln = np.concatenate([prev_ln, ln])
    else:
        st = last_st
    m = nlines if want_prev else 0
    np.maximum(ln, 0, out=ln)
    np.minimum(st, n, out=st)
    keys = _keys(a, st, ln)
    idx, inv = _factorize(keys)
    vocab = [data[int(st[i]) : int(st[i] + ln[i])].decode("utf-8") for i in idx]
    nf = np.where(full, c + 1, 0)
    last = inv[m:]
    prev = inv[:m] if want_prev else np.full(nlines, -1, np.intp)
    fln = np.where(full, sp[np.minimum(lo, len(sp) - 1)] - starts, 0)
    return _Cols(path, nf, prev, last, vocab, raw=a, fst=starts, fln=fln)


def _check_field_count(c: _Cols, need: int) -> None:
    nz = np.flatnonzero(c.nf)
    if len(nz) == 0:
        raise FormatError("the file holds no tokens, only empty lines", path=c.path)
    f0 = int(c.nf[nz[0]])
    bad = nz[c.nf[nz] != f0]
    if len(bad):
        i = int(bad[0])
        raise FormatError(
            f"{int(c.nf[i])} fields where the first line has {f0} (conlleval: unexpected number of "
            "features); every line needs the same columns, check for a missing column or a token "
            "that holds the delimiter",
            path=c.path,
            line=i + 1,
        )
    if f0 < need:
        raise FormatError(
            f"{f0} field(s) per line; this format needs at least {need} "
            + ("(token ... gold-tag system-tag)" if need == 3 else "(token ... tag)")
            + "; is the delimiter right?",
            path=c.path,
            line=int(nz[0]) + 1,
        )


def _word_mask(c: _Cols, word: str) -> np.ndarray:
    return c.word_mask(word) & (c.nf > 0)


# --------------------------------------------------------------------------------------------
# conlleval's chunk logic


def _split_tag(tag: str) -> tuple[str, str]:
    # conlleval: /^([^-]*)-(.*)$/ -> prefix before the first hyphen, type = the rest; "0" is false.
    i = tag.find("-")
    if i < 0:
        p, t = tag, ""
    else:
        p, t = tag[:i], tag[i + 1 :]
    if t == "0":
        t = ""
    return p, t


def _end_of_chunk(pt: str, t: str, ptype: str, typ: str) -> bool:
    if (pt, t) in (("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O")):
        return True
    if pt != "O" and pt != "." and ptype != typ:
        return True
    return pt in ("]", "[")


def _start_of_chunk(pt: str, t: str, ptype: str, typ: str) -> bool:
    if (pt, t) in (("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E")):
        return True
    if t != "O" and t != "." and ptype != typ:
        return True
    return t in ("[", "]")


_IOBES = {"S": "B", "U": "B", "E": "I", "L": "I"}


def _acc_label(prefix: str, typ: str, raw: bool, o_tag: str) -> str:
    """A tag as token accuracy compares it (prefix and type): equal labels <=> counted equal.

    The tag as written, except that a tag with an empty type reads as its prefix alone (``B-`` and
    ``B-0`` are ``B``, as for conlleval), and with ``raw`` the outside tags (``o_tag`` and ``O``)
    are both ``o_tag``. The map from (prefix, type) is one-to-one: a prefix holds no hyphen.
    """
    if raw:
        if prefix == "O" and not typ:
            return o_tag
        return typ or "0"  # raw tags were made "B-<tag>"; only "0" gives an empty type
    return f"{prefix}-{typ}" if typ else prefix


def _fmt_pct(x: float) -> str:
    return f"{x:6.2f}"


def _pad_left7(s: str) -> str:
    # Perl's %-7s, by bytes
    return s + " " * max(0, 7 - len(s.encode("utf-8")))


def _pad17(s: str) -> str:
    # Perl's %17s pads by bytes (the script does not decode its input)
    return " " * max(0, 17 - len(s.encode("utf-8"))) + s


def _evaluate(
    gold: np.ndarray,
    system: np.ndarray,
    is_b: np.ndarray,
    vocab: list[str],
    *,
    scheme: str,
    raw: bool,
    o_tag: str,
) -> dict[str, Any]:
    """conlleval on one stream of lines. ``gold``/``system``: tag ids into ``vocab`` (ignored on
    boundary lines, which conlleval reads as ``O O``)."""
    tok = ~is_b
    n = len(gold)
    if len(vocab) > 64:
        # keep the tags actually used (the file vocabulary may also hold the tokens)
        gt, st = gold[tok], system[tok]
        used = np.flatnonzero(np.bincount(gt, minlength=len(vocab)) + np.bincount(st, minlength=len(vocab)))
        dense = np.zeros(len(vocab), np.intp)
        dense[used] = np.arange(len(used))
        vocab = [vocab[int(i)] for i in used]
        gold = np.where(tok, dense[gold], 0)
        system = np.where(tok, dense[system], 0)
    vocab = list(vocab)
    if "O" not in vocab:
        vocab.append("O")
    o_id = vocab.index("O")
    g = np.where(is_b, o_id, gold)  # boundary lines read as "O O"
    s = np.where(is_b, o_id, system)
    tags = vocab
    if raw:
        tags = ["O" if (t == o_tag or t == "O") else "B-" + t for t in vocab]
    pt = [_split_tag(t) for t in tags]
    acc_tags = [_acc_label(p, t, raw, o_tag) for p, t in pt]
    acc_ids: dict[tuple[str, str], int] = {}
    acc_key = np.array([acc_ids.setdefault(x, len(acc_ids)) for x in pt], np.int64)
    if scheme == "iobes":
        pt = [(_IOBES.get(p, p), t) for p, t in pt]
    types = sorted({t for _, t in pt})
    type_id = {t: i for i, t in enumerate(types)}
    v = len(tags)
    tp = np.array([type_id[t] for _, t in pt], np.int64)
    # conlleval's start/end rules depend only on the (previous, current) tag pair
    start = np.zeros((v, v), bool)
    end = np.zeros((v, v), bool)
    for i, (p0, t0) in enumerate(pt):
        for j, (p1, t1) in enumerate(pt):
            start[i, j] = _start_of_chunk(p0, p1, t0, t1)
            end[i, j] = _end_of_chunk(p0, p1, t0, t1)

    start_f, end_f = start.ravel(), end.ravel()
    sg, ss, eg, es = (np.empty(n + 1, bool) for _ in range(4))
    for x, st_out, en_out in ((g, sg, eg), (s, ss, es)):
        code = np.empty(n, np.intp)  # (previous tag, tag) pair
        code[0] = o_id * v
        np.multiply(x[:-1], v, out=code[1:])
        code += x
        np.take(start_f, code, out=st_out[:n])
        np.take(end_f, code, out=en_out[:n])
        st_out[n] = False
        en_out[n] = True  # the end of input closes any chunk
    sg, ss = sg[:n], ss[:n]
    tg, ts = tp[g], tp[s]
    same = tg == ts
    cand = np.append(sg & ss & same, False)
    brk = eg | es | np.append(~same, True)
    # inCorrect before line j = the last line k < j that is a candidate start or a break was a start
    ev = cand | brk
    lastev = np.maximum.accumulate(np.where(ev, np.arange(n + 1), -1))
    before = np.empty(n + 1, np.int64)
    before[0] = -1
    before[1:] = lastev[:-1]
    state = (before >= 0) & cand[np.maximum(before, 0)]
    corr_at = np.flatnonzero(state & eg & es)  # lines j >= 1 where a correct chunk ends
    corr_start = before[corr_at]
    corr_type = tg[corr_at - 1]

    new = tok.copy()  # first token of a sentence
    new[1:] &= is_b[:-1]
    first_line = np.flatnonzero(new)
    sent = np.cumsum(new) - 1  # sentence of each token line (boundary lines: the one before)
    n_sent = len(first_line)
    nt = len(types)
    # one count matrix per sentence: [correct_t..., guessed_t..., gold_t..., correct_tags, tokens]
    width = 3 * nt + 2
    tok_sent = sent[tok]
    cols = np.concatenate(
        [
            sent[corr_start] * width + corr_type,
            sent[ss] * width + nt + ts[ss],
            sent[sg] * width + 2 * nt + tg[sg],
            sent[tok & (acc_key[g] == acc_key[s])] * width + 3 * nt,
            tok_sent * width + 3 * nt + 1,
        ]
    )
    counts = np.bincount(cols, minlength=n_sent * width).reshape(n_sent, width)
    # what the units (``_units``) are read from: this very chunking, kept as it was counted
    parse = _Chunked(
        tok=tok,
        gold=g,
        system=s,
        sent=sent,
        n_sent=n_sent,
        start_gold=sg,
        start_system=ss,
        end_gold=eg,
        end_system=es,
        correct_start=corr_start,
        correct_end=corr_at,
        tag_type=tp,
        types=types,
        acc_tags=acc_tags,
    )
    return dict(types=types, counts=counts, first_line=first_line, parse=parse)


@dataclass(frozen=True)
class _Chunked:
    """One stream of lines as :func:`_evaluate` chunked and counted it; the units are read from it.

    Per line of the stream (``n`` lines): ``tok`` (a token, not a boundary line), ``gold`` and
    ``system`` (tag ids; boundary lines hold the ``O`` id), ``sent`` (the item the line counts
    for), ``start_gold``/``start_system`` (a chunk starts on this line). ``end_gold``/``end_system``
    have ``n + 1`` entries: a chunk open before line k is closed at k (the end of input closes
    every chunk). ``correct_start``/``correct_end``: for each correct chunk, the line where it
    starts and the line that closes it. Per tag id: ``tag_type`` (index into ``types``, after
    the ``iobes`` reading) and ``acc_tags`` (the tag as token accuracy compares it).
    """

    tok: np.ndarray
    gold: np.ndarray
    system: np.ndarray
    sent: np.ndarray
    n_sent: int
    start_gold: np.ndarray
    start_system: np.ndarray
    end_gold: np.ndarray
    end_system: np.ndarray
    correct_start: np.ndarray
    correct_end: np.ndarray
    tag_type: np.ndarray
    types: list[str]
    acc_tags: list[str]


#: Key tag of a system chunk with the bounds and type of a gold chunk that conlleval did not
#: count as correct (see ``_units``).
UNCREDITED = "uncredited"


def _type_label(t: str) -> str:
    # a chunk type's label; never "O", the label of "no chunk" (a type "O" comes from tags "B-O")
    return t + "'" if t.rstrip("'") == "O" else t


def _units(c: _Chunked, view: str, tokens: Callable[[], list[str]]) -> UnitTable:
    """The units of one view, read from the chunking that the statistics counted."""
    forms = tokens()
    lines = np.flatnonzero(c.tok)
    if view == "tags":
        lab = np.array(c.acc_tags, dtype=object)
        return UnitTable(
            view="tags",
            gold=lab[c.gold[lines]],
            system=lab[c.system[lines]],
            sentence=c.sent[lines],
            forms=tuple(forms),
            n_sentences=c.n_sent,
            note="tags as conlleval's token accuracy compares them",
        )
    n = len(c.tok)
    before = np.zeros(n + 1, np.int64)  # tokens before each line
    np.cumsum(c.tok, out=before[1:])
    sent_first = np.searchsorted(c.sent[lines], np.arange(c.n_sent))  # first token of each item
    at = np.arange(n + 1)
    # (item, first token, end token) within the item where the chunk starts: the item the
    # statistics credit a chunk to; a chunk that goes on past a boundary (conlleval does not close
    # chunks of unknown prefixes at one) ends past the item's last token
    sides = []
    for start, end, tags in ((c.start_gold, c.end_gold, c.gold), (c.start_system, c.end_system, c.system)):
        st = np.flatnonzero(start)
        # a chunk ends at the first end after its start (a start without an end leaves it open)
        nxt = np.minimum.accumulate(np.where(end, at, n)[::-1])[::-1]
        en = nxt[st + 1]
        item = c.sent[st]
        a = before[st] - sent_first[item]
        b = a + before[en] - before[st]
        keys = list(zip(item.tolist(), a.tolist(), b.tolist()))
        sides.append((st.tolist(), en.tolist(), keys, c.tag_type[tags[st]].tolist()))
    (g_st, g_en, g_keys, g_ty), (s_st, s_en, s_keys, s_ty) = sides
    credited = dict(zip(c.correct_start.tolist(), c.correct_end.tolist()))
    types = [_type_label(t) for t in c.types]
    keys: list[Any] = list(g_keys)
    gold = [types[t] for t in g_ty]
    system = ["O"] * len(g_keys)
    present = [True] * len(g_keys)
    spans = [(int(before[s]), int(before[e])) for s, e in zip(g_st, g_en)]
    index = {k: i for i, k in enumerate(g_keys)}
    for key, s, e, t in zip(s_keys, s_st, s_en, s_ty):
        i = index.get(key)
        if i is not None and (types[t] != gold[i] or credited.get(s) == e == g_en[i]):
            system[i] = types[t]  # the gold chunk's unit: correct, or its type changed
            continue
        if i is not None:
            # the bounds and type of a gold chunk, yet not counted correct (conlleval's state
            # broke inside it, or the two chunks close on different boundary lines): a chunk of
            # its own, so that it counts as guessed but not correct, as conlleval counts it
            key = (*key, UNCREDITED)
        keys.append(key)
        gold.append("O")
        system.append(types[t])
        present.append(False)
        spans.append((int(before[s]), int(before[e])))
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return UnitTable(
        view="spans",
        gold=np.array([gold[i] for i in order], dtype=object),
        system=np.array([system[i] for i in order], dtype=object),
        sentence=np.array([keys[i][0] for i in order], dtype=np.int64),
        forms=tuple(" ".join(forms[spans[i][0] : spans[i][1]]) for i in order),
        n_sentences=c.n_sent,
        keys=tuple(keys[i] for i in order),
        gold_present=np.array([present[i] for i in order], dtype=bool),
        note="chunks as conlleval finds them; key (sentence, first token, end token) in the chunk's sentence",
    )


_F1 = _get_metric("f1")
_PRECISION = _get_metric("precision")
_RECALL = _get_metric("recall")
_ACCURACY = _get_metric("accuracy")


def _report(
    r: dict[str, Any],
    fmt: str,
    gold: str,
    system: str,
    item_lines: np.ndarray,
    words: Callable[[], list[str]],
    latex: bool = False,
) -> ScoreReport:
    types: list[str] = r["types"]
    counts: np.ndarray = r["counts"]
    nt = len(types)
    n_items = counts.shape[0]
    tot = counts.sum(0)
    csum, ssum, gsum = tot[:nt], tot[nt : 2 * nt], tot[2 * nt : 3 * nt]
    tot_c, tot_s, tot_g = int(csum.sum()), int(ssum.sum()), int(gsum.sum())
    ctags, tokens = int(tot[3 * nt]), int(tot[3 * nt + 1])
    out = [f"processed {tokens} tokens with {tot_g} phrases; found: {tot_s} phrases; correct: {tot_c}.\n"]
    precision = 100 * tot_c / tot_s if tot_s > 0 else 0.0
    recall = 100 * tot_c / tot_g if tot_g > 0 else 0.0
    fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    if tokens > 0:
        out.append(
            f"accuracy: {_fmt_pct(100 * ctags / tokens)}%; precision: {_fmt_pct(precision)}%; "
            f"recall: {_fmt_pct(recall)}%; FB1: {_fmt_pct(fb1)}\n"
        )
    keys = sorted([t for i, t in enumerate(types) if gsum[i] > 0] + [t for i, t in enumerate(types) if ssum[i] > 0])
    shown: list[str] = []
    last: str | None = None
    for t in keys:
        if not last or last != t:  # Perl: not($lastType) or $lastType ne $i
            shown.append(t)
        last = t
    rows = []
    for t in shown:
        i = types.index(t)
        c, fg, fc = int(csum[i]), int(ssum[i]), int(gsum[i])
        p = 100 * c / fg if fg else 0.0
        rc = 100 * c / fc if fc else 0.0
        f = 0.0 if p + rc == 0.0 else 2 * p * rc / (p + rc)
        rows.append((t, p, rc, f))
        out.append(f"{_pad17(t)}: precision: {_fmt_pct(p)}%; recall: {_fmt_pct(rc)}%; FB1: {_fmt_pct(f)}  {fg}\n")
    if latex:  # conlleval -l: the rows of a LaTeX table instead of the report
        out = ["        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline"]
        out += [
            f"\n{_pad_left7(t)} &  {_fmt_pct(p)}\\% & {_fmt_pct(rc)}\\% & {_fmt_pct(f)} \\\\" for t, p, rc, f in rows
        ]
        out.append("\\hline\n")
        out.append(f"Overall &  {_fmt_pct(precision)}\\% & {_fmt_pct(recall)}\\% & {_fmt_pct(fb1)} \\\\\\hline\n")

    names = ("tp", "guessed", "gold")
    chunks = np.stack([counts[:, :nt].sum(1), counts[:, nt : 2 * nt].sum(1), counts[:, 2 * nt : 3 * nt].sum(1)], axis=1)
    acc = np.ascontiguousarray(counts[:, 3 * nt :])
    stats: dict[str, ItemStats] = {
        "f1": ItemStats("f1", names, chunks),
        "precision": ItemStats("precision", names, chunks),
        "recall": ItemStats("recall", names, chunks),
        "accuracy": ItemStats("accuracy", ("correct", "total"), acc),
    }
    used = [i for i in range(nt) if gsum[i] > 0 or ssum[i] > 0]
    for i in used:
        stats[f"f1:{types[i]}"] = ItemStats("f1", names, np.ascontiguousarray(counts[:, [i, nt + i, 2 * nt + i]]))
    # the metrics on the summed statistics: all F1 rows (overall, then per type) in one call
    sums = chunks.sum(0)
    f1_rows = np.array([sums] + [[csum[i], ssum[i], gsum[i]] for i in used], np.float64)
    f1 = _F1.evaluate(f1_rows, n_items)
    scores = {
        "f1": float(f1[0]),
        "precision": float(_PRECISION.evaluate(sums[None, :], n_items)[0]),
        "recall": float(_RECALL.evaluate(sums[None, :], n_items)[0]),
        "accuracy": float(_ACCURACY.evaluate(tot[None, 3 * nt :], n_items)[0]),
    }
    for k, i in enumerate(used):
        scores[f"f1:{types[i]}"] = float(f1[k + 1])
    parse: _Chunked = r["parse"]
    return ScoreReport(
        fmt,
        gold,
        system,
        "".join(out),
        scores,
        stats,
        "f1",
        tuple(map("line {}".format, (item_lines + 1).tolist())),
        views=VIEWS,
        unit_source=lambda view: _units(parse, view, words),
    )


def _options(scheme: str, docstart: str) -> str:
    sch = _SCHEMES.get(str(scheme).lower())
    if sch is None:
        raise InputError(f"unknown tag scheme {scheme!r}; choose one of {', '.join(sorted(_SCHEMES))}")
    if docstart not in ("keep", "skip"):
        raise InputError(f"docstart must be 'keep' or 'skip', got {docstart!r}")
    return sch


def score_conlleval(
    gold: Any = None,
    system: Any = None,
    *,
    scheme: str = "iob",
    raw: bool = False,
    o_tag: str = "O",
    delimiter: str = " ",
    boundary: str = "-X-",
    docstart: str = "keep",
    latex: bool = False,
) -> ScoreReport:
    """Score one conlleval-layout file (``token ... gold-tag system-tag``) as conlleval does."""
    sch = _options(scheme, docstart)
    if system is None:
        system, gold = gold, None
    if system is None:
        raise InputError("the conlleval format needs the file with token, gold and system columns")
    spath = display(system)
    c = _columns(_read(system), spath, delimiter)
    _check_field_count(c, 2)
    is_b = (c.nf == 0) | _word_mask(c, boundary)
    if docstart == "skip":
        is_b |= _word_mask(c, "-DOCSTART-")
    if is_b.all():
        raise FormatError("the file holds no tokens, only sentence boundaries", path=spath)
    if gold is not None and Path(gold) != Path(system):
        gc = _columns(_read(gold, "gold"), display(gold), delimiter)
        _check_field_count(gc, 2)
        _same_gold_column(gc, c)
    r = _evaluate(c.prev, c.last, is_b, c.vocab, scheme=sch, raw=raw, o_tag=o_tag)
    gname = display(gold) if gold is not None else spath
    return _report(r, "conlleval", gname, spath, r["first_line"], lambda: c.tokens(np.flatnonzero(~is_b)), bool(latex))


def _same_gold_column(gc: _Cols, c: _Cols) -> None:
    n = min(len(gc.nf), len(c.nf))
    for i, (a, b) in enumerate(zip(_gold_lines(gc, n), _gold_lines(c, n))):
        if a != b:
            raise FormatError(
                f"token/gold tag {shorten(a[1:])} in the gold file but {shorten(b[1:])} at the same line of "
                f"{c.path}; both conlleval files must hold the same tokens and gold tags",
                path=gc.path,
                line=i + 1,
            )
    if len(gc.nf) != len(c.nf):
        raise FormatError(
            f"{len(gc.nf)} lines but {c.path} has {len(c.nf)}; the files must have the same lines",
            path=gc.path,
            line=n + 1,
        )


def _gold_lines(c: _Cols, n: int) -> list[tuple[bool, str, str]]:
    """(empty line?, token, gold tag) of the first ``n`` lines (``""`` on empty lines)."""
    full = (c.nf[:n] > 0).tolist()
    toks = c.tokens(np.arange(n))
    vocab = c.vocab
    return [(f, t if f else "", vocab[p] if f else "") for f, t, p in zip(full, toks, c.prev[:n].tolist())]


def _auto_delimiter(data: bytes) -> str:
    for line in data.split(b"\n", 50):
        if line.strip():
            return "\t" if b"\t" in line else " "
    return " "


def score_ner(
    gold: Any,
    system: Any,
    *,
    scheme: str = "iob",
    raw: bool = False,
    o_tag: str = "O",
    delimiter: str | None = None,
    boundary: str = "-X-",
    docstart: str = "keep",
    latex: bool = False,
) -> ScoreReport:
    """Score a CoNLL-2003 column file of system tags against a gold one, as conlleval does."""
    sch = _options(scheme, docstart)
    gpath, spath = display(gold), display(system)
    gdata, sdata = _read(gold, "gold"), _read(system)
    gc = _columns(gdata, gpath, delimiter if delimiter is not None else _auto_delimiter(gdata), False)
    sc = _columns(sdata, spath, delimiter if delimiter is not None else _auto_delimiter(sdata), False)
    for c in (gc, sc):
        _check_field_count(c, 2)
    gtok, stok = _tokens(gc, boundary, docstart), _tokens(sc, boundary, docstart)
    _match(gc, sc, gtok, stok)
    # one stream "token gold system" with one boundary line between sentences, and one at the end
    # if the gold file ends with one (that can matter to conlleval: a chunk of unknown prefix,
    # e.g. ``X``, is not closed by an ``O``, but is by the end of the input)
    sent = gtok["sent"]
    n_tok = len(sent)
    n_sent = int(sent[-1]) + 1
    pos = np.arange(n_tok) + sent
    total = n_tok + n_sent - (0 if gtok["trailing_boundary"] else 1)
    vocab = list(gc.vocab)
    remap = _remap(vocab, sc.vocab)
    g = np.zeros(total, np.int64)
    s = np.zeros(total, np.int64)
    is_b = np.ones(total, bool)
    g[pos] = gc.last[gtok["lines"]]
    s[pos] = remap[sc.last[stok["lines"]]]
    is_b[pos] = False
    r = _evaluate(g, s, is_b, vocab, scheme=sch, raw=raw, o_tag=o_tag)
    return _report(r, "ner", gpath, spath, stok["lines"][gtok["firsts"]], lambda: gc.tokens(gtok["lines"]), bool(latex))


def _remap(vocab: list[str], other: list[str]) -> np.ndarray:
    """Ids of ``other``'s strings in ``vocab`` (appended to it where missing)."""
    ids = {t: i for i, t in enumerate(vocab)}
    out = np.empty(len(other), np.int64)
    for k, t in enumerate(other):
        j = ids.get(t)
        if j is None:
            j = ids[t] = len(vocab)
            vocab.append(t)
        out[k] = j
    return out


def _tokens(c: _Cols, boundary: str, docstart: str) -> dict[str, np.ndarray]:
    is_b = (c.nf == 0) | _word_mask(c, boundary)
    if docstart == "skip":
        is_b |= _word_mask(c, "-DOCSTART-")
    lines = np.flatnonzero(~is_b)
    if len(lines) == 0:
        raise FormatError("the file holds no tokens", path=c.path)
    tok = ~is_b
    new = tok & np.append(True, ~tok[:-1])
    sent_all = np.cumsum(new) - 1
    sent = sent_all[lines]
    firsts = np.flatnonzero(np.append(True, sent[1:] != sent[:-1]))
    return {"lines": lines, "sent": sent, "firsts": firsts, "trailing_boundary": bool(is_b[-1])}


def _match(gc: _Cols, sc: _Cols, gt: dict[str, np.ndarray], st: dict[str, np.ndarray]) -> None:
    hint = ""
    if _word_mask(gc, "-DOCSTART-").any() != _word_mask(sc, "-DOCSTART-").any():
        hint = (
            "; only one file has -DOCSTART- lines (each is a sentence of its own): "
            "docstart='skip' leaves them out of both"
        )
    gl = np.diff(np.append(gt["firsts"], len(gt["sent"])))
    sl = np.diff(np.append(st["firsts"], len(st["sent"])))
    k = min(len(gl), len(sl))
    bad = np.flatnonzero(gl[:k] != sl[:k])
    if len(bad):
        i = int(bad[0])
        gline = int(gt["lines"][gt["firsts"][i]]) + 1
        sline = int(st["lines"][st["firsts"][i]]) + 1
        raise FormatError(
            f"sentence {i + 1} (gold line {gline}) has {int(gl[i])} tokens in the gold file but "
            f"{int(sl[i])} in the system file (line {sline}); the files must hold the same sentences "
            f"and tokens, separated by empty lines{hint}",
            path=sc.path,
            line=sline,
        )
    if len(gl) != len(sl):
        which, path, _c, tt = ("gold", gc.path, gc, gt) if len(gl) > len(sl) else ("system", sc.path, sc, st)
        line = int(tt["lines"][tt["firsts"][k]]) + 1
        raise FormatError(
            f"the gold file has {len(gl)} sentences and the system file {len(sl)}; the {which} file "
            f"goes on with sentence {k + 1} here{hint}",
            path=path,
            line=line,
        )
    gl_, sl_ = gt["lines"], st["lines"]
    diff = _first_token_diff(gc, sc, gl_, sl_)
    if diff is not None:
        i = diff
        gline, sline = int(gl_[i]) + 1, int(sl_[i]) + 1
        raise FormatError(
            f"token {shorten(sc.token(int(sl_[i])))} where the gold file (line {gline}) has "
            f"{shorten(gc.token(int(gl_[i])))} in sentence {int(gt['sent'][i]) + 1}; the system file must "
            "keep the gold tokens",
            path=sc.path,
            line=sline,
        )


def _first_token_diff(gc: _Cols, sc: _Cols, gl: np.ndarray, sl: np.ndarray) -> int | None:
    """Index of the first token that differs between the files (None if all are equal)."""
    if gc.raw is None or sc.raw is None:
        g, s = gc.tokens(gl), sc.tokens(sl)
        for i, (x, y) in enumerate(zip(g, s)):
            if x != y:
                return i
        return None
    assert gc.fst is not None and gc.fln is not None and sc.fst is not None and sc.fln is not None
    glen, slen = gc.fln[gl], sc.fln[sl]
    bad_len = np.flatnonzero(glen != slen)
    upto = int(bad_len[0]) if len(bad_len) else len(gl)
    ln = glen[:upto]
    gst, sst = gc.fst[gl[:upto]], sc.fst[sl[:upto]]
    ga, sa = _words(gc.raw), _words(sc.raw)
    # compare 8 bytes at a time, then the next 8 of the tokens that are still that long
    x = np.take(ga, gst) ^ np.take(sa, sst)
    diff = (x & _MASKS[np.minimum(ln, 8)]) != 0
    idx = np.flatnonzero(ln > 8)
    if len(idx):  # every further 8-byte chunk of the longer tokens, at once
        nch = (ln[idx] - 1) // 8
        rep = np.repeat(idx, nch)
        off = 8 * (np.arange(len(rep)) - np.repeat(np.cumsum(nch) - nch, nch) + 1)
        x = np.take(ga, gst[rep] + off) ^ np.take(sa, sst[rep] + off)
        diff[rep[(x & _MASKS[np.minimum(ln[rep] - off, 8)]) != 0]] = True
    d = np.flatnonzero(diff)
    if len(d):
        return int(d[0])
    return upto if upto < len(gl) else None


_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], np.uint64)


def _words(a: np.ndarray) -> np.ndarray:
    """``w[i]`` = the 8 bytes of ``a`` from offset ``i`` (zero-padded) as a little-endian word."""
    n = len(a)
    pad = np.zeros(n + 8, np.uint8)
    pad[:n] = a
    return np.ndarray((n + 1,), "<u8", buffer=pad, strides=(1,))


def _chunk_options(delimiter_default: str | None) -> tuple[Option, ...]:
    return (
        Option(
            "scheme", str, "iob", "tag scheme: iob (IOB1/IOB2, conlleval's rules) or iobes", choices=tuple(_SCHEMES)
        ),
        Option("raw", bool, False, "conlleval -r: tags carry no prefix"),
        Option("o_tag", str, "O", "conlleval -o: the outside tag"),
        Option(
            "delimiter",
            str,
            delimiter_default,
            "conlleval -d: field separator (a regular expression)",
            nullable=delimiter_default is None,
        ),
        Option("boundary", str, "-X-", "sentence boundary token"),
        Option(
            "docstart",
            str,
            "keep",
            "-DOCSTART- lines: ordinary tokens (keep) or sentence ends (skip)",
            choices=("keep", "skip"),
        ),
        Option("latex", bool, False, "conlleval -l: the report as rows of a LaTeX table", aliases=("l",)),
    )


_TAG = re.compile(r"O|[BIESUL]-\S+")


def _looks_like_tag_columns(head: list[str]) -> bool:
    """CoNLL-2003-style columns: every token line has at least two fields and ends in an IOB/IOBES tag."""
    rows = [ln.split() for ln in head if ln.strip() and not ln.startswith("-DOCSTART-")]
    return bool(rows) and all(len(r) >= 2 and _TAG.fullmatch(r[-1]) for r in rows)


SPECS = (
    FormatSpec(
        name="conlleval",
        description="chunking / NER in conlleval's layout (token ... gold-tag system-tag), one file",
        reference="conlleval 2004-01-26 (CoNLL-2000/2003)",
        score=score_conlleval,
        options=_chunk_options(" "),
        gold_optional=True,
        gold_from_first=True,
        views=VIEWS,
        metrics=("f1", "precision", "recall", "accuracy", "f1:<TYPE>"),
        split_unit="sentence",
    ),
    FormatSpec(
        name="ner",
        description="chunking / NER as two CoNLL-2003 column files (gold, system), scored like conlleval",
        reference="conlleval 2004-01-26 (CoNLL-2000/2003)",
        score=score_ner,
        options=_chunk_options(None),
        aliases=("chunk", "bio", "conll2003", "iob"),
        views=VIEWS,
        metrics=("f1", "precision", "recall", "accuracy", "f1:<TYPE>"),
        detect=_looks_like_tag_columns,
        split_unit="sentence",
    ),
)
