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
from typing import TYPE_CHECKING, Any

from ..exceptions import FormatError, InputError
from ..metrics import get as _get_metric
from ._base import (
    FormatSpec,
    ItemStats,
    LazyStats,
    Option,
    ReadmeRow,
    ScoreReport,
    UnitTable,
    decode_utf8,
    display,
    read_file_bytes,
)

if TYPE_CHECKING:
    import numpy as np

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


def _lines(data: bytes, delimiter: str) -> tuple[bytes | list[list[str]], int]:
    """A file's lines as the native reader takes them: its bytes and the delimiter byte, or (a
    regular-expression delimiter) each line's fields, split as Perl's ``split`` splits them."""
    b = _delim_byte(delimiter)
    if b is not None:
        return data, b
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
    return [_perl_split(line, rx) for line in lines], 0


# --------------------------------------------------------------------------------------------
# the report, the statistics and the units of one parse (sigfast._native.chunk_conlleval / chunk_ner)


def _fmt_pct(x: float) -> str:
    return f"{x:6.2f}"


def _pad_left7(s: str) -> str:
    # Perl's %-7s, by bytes
    return s + " " * max(0, 7 - len(s.encode("utf-8")))


def _pad17(s: str) -> str:
    # Perl's %17s pads by bytes (the script does not decode its input)
    return " " * max(0, 17 - len(s.encode("utf-8"))) + s


@dataclass(frozen=True)
class _Chunked:
    """One stream of lines as the native scorer (``sigfast._native.chunk_*``, ``src/conlleval.rs``)
    chunked and counted it; the units are read from it.

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
    import numpy as np

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


def _chunking(parse: Any) -> _Chunked:
    d = parse.chunked()
    return _Chunked(**{f: d[f] for f in _Chunked.__dataclass_fields__})


def _item_stats(counts: np.ndarray, types: list[str], used: list[int]) -> dict[str, ItemStats]:
    """The per-sentence statistics of every metric, from the counts (items × (3 × types + 2))."""
    import numpy as np

    nt = len(types)
    names = ("tp", "guessed", "gold")
    chunks = np.stack([counts[:, :nt].sum(1), counts[:, nt : 2 * nt].sum(1), counts[:, 2 * nt : 3 * nt].sum(1)], axis=1)
    acc = np.ascontiguousarray(counts[:, 3 * nt :])
    stats: dict[str, ItemStats] = {
        "f1": ItemStats("f1", names, chunks),
        "precision": ItemStats("precision", names, chunks),
        "recall": ItemStats("recall", names, chunks),
        "accuracy": ItemStats("accuracy", ("correct", "total"), acc),
    }
    for i in used:
        stats[f"f1:{types[i]}"] = ItemStats("f1", names, np.ascontiguousarray(counts[:, [i, nt + i, 2 * nt + i]]))
    return stats


def _report(r: dict[str, Any], parse: Any, fmt: str, gold: str, system: str, latex: bool = False) -> ScoreReport:
    """The report of one parse: conlleval's text and the corpus scores from the summed counts (plain
    Python values, no numpy); the per-item statistics and the units from the parse when asked."""
    types: list[str] = r["types"]
    tot: list[int] = r["totals"]
    n_items: int = r["n_items"]
    nt = len(types)
    csum, ssum, gsum = tot[:nt], tot[nt : 2 * nt], tot[2 * nt : 3 * nt]
    tot_c, tot_s, tot_g = sum(csum), sum(ssum), sum(gsum)
    ctags, tokens = tot[3 * nt], tot[3 * nt + 1]
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

    used = [i for i in range(nt) if gsum[i] > 0 or ssum[i] > 0]
    # the metrics on the summed statistics: all F1 rows (overall, then per type) in one call
    sums = [tot_c, tot_s, tot_g]
    f1 = _F1.score_rows([sums] + [[csum[i], ssum[i], gsum[i]] for i in used], n_items)
    scores = {
        "f1": f1[0],
        "precision": _PRECISION.score_rows([sums], n_items)[0],
        "recall": _RECALL.score_rows([sums], n_items)[0],
        "accuracy": _ACCURACY.score_rows([[ctags, tokens]], n_items)[0],
    }
    for k, i in enumerate(used):
        scores[f"f1:{types[i]}"] = f1[k + 1]
    units: dict[str, UnitTable] = {}

    def unit_source(view: str) -> UnitTable:
        if view not in units:
            units[view] = _units(_chunking(parse), view, parse.tokens)
        return units[view]

    return ScoreReport(
        fmt,
        gold,
        system,
        "".join(out),
        scores,
        LazyStats(
            ("f1", "precision", "recall", "accuracy", *(f"f1:{types[i]}" for i in used)),
            lambda: _item_stats(parse.counts(), types, used),
        ),
        "f1",
        tuple(f"line {k + 1}" for k in r["item_lines"]),
        views=VIEWS,
        unit_source=unit_source,
    )


def _options(scheme: str, docstart: str) -> str:
    sch = _SCHEMES.get(str(scheme).lower())
    if sch is None:
        raise InputError(f"unknown tag scheme {scheme!r}; choose one of {', '.join(sorted(_SCHEMES))}")
    if docstart not in ("keep", "skip"):
        raise InputError(f"docstart must be 'keep' or 'skip', got {docstart!r}")
    return sch


def _native_options(sch: str, raw: bool, o_tag: str, boundary: str, docstart: str) -> dict[str, Any]:
    return dict(
        iobes=sch == "iobes", raw=bool(raw), o_tag=str(o_tag), boundary=str(boundary), skip_docstart=docstart == "skip"
    )


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
    from .. import _native

    sch = _options(scheme, docstart)
    if system is None:
        system, gold = gold, None
    if system is None:
        raise InputError("the conlleval format needs the file with token, gold and system columns")
    spath = display(system)
    lines, d = _lines(_read(system), delimiter)
    other = None
    if gold is not None and Path(gold) != Path(system):
        other, _ = _lines(_read(gold, "gold"), delimiter)
    r, parse = _native.chunk_conlleval(
        lines,
        d,
        other,
        **_native_options(sch, raw, o_tag, boundary, docstart),
        gold_name=display(gold) if gold is not None else None,
        system_name=spath,
    )
    gname = display(gold) if gold is not None else spath
    return _report(r, parse, "conlleval", gname, spath, bool(latex))


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
    from .. import _native

    sch = _options(scheme, docstart)
    gpath, spath = display(gold), display(system)
    gdata, sdata = _read(gold, "gold"), _read(system)
    glines, gd = _lines(gdata, delimiter if delimiter is not None else _auto_delimiter(gdata))
    slines, sd = _lines(sdata, delimiter if delimiter is not None else _auto_delimiter(sdata))
    # conlleval on one stream "token gold system" with one boundary line between sentences, and one at
    # the end if the gold file ends with one (that can matter to conlleval: a chunk of unknown prefix,
    # e.g. ``X``, is not closed by an ``O``, but is by the end of the input)
    r, parse = _native.chunk_ner(
        glines,
        slines,
        gd,
        sd,
        **_native_options(sch, raw, o_tag, boundary, docstart),
        gold_name=gpath,
        system_name=spath,
    )
    return _report(r, parse, "ner", gpath, spath, bool(latex))


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


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="`conlleval` (IOB1/IOB2/IOBES, `-r`, `-d`, `-l`, per-type table)",
    checked="byte-identical report",
    speed="see [Speed](#speed)",
)


SPECS = (
    FormatSpec(
        name="conlleval",
        readme=README_ROW,
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
        readme=README_ROW,
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
