"""CoNLL-2012 coreference as the reference scorer scores it (``scorer.pl`` v8.01), plus LEA.

The reader follows ``scorer.pl``'s ``GetCoreference``: a document starts at a line matching
``#\\s*begin document NAME`` (NAME: the rest of the line, e.g. ``(wsj_0001); part 000``; every part is a
document of its own) and ends at a line holding ``# end document``; inside it every non-blank line is a
token, numbered from 0, and its coreference field is its last tab-separated column (the last
whitespace-separated column for a line without tabs, see ``docs/divergences.md``). In the field,
``(N+M)`` is discarded, then every ``(N)`` is a one-token mention, every ``(N`` opens a mention and every
``N)`` closes the latest open mention of N, in that order, each found leftmost first as the scorer's
substitutions find them; ``-``, ``_`` and ``|`` are the rest a field may hold. Entities are numbered by
first appearance, mentions kept in the order they close. The mention statistics, the matching of key
and response mentions and every metric are computed in Rust (``sigfast._native.coref_scores``,
``src/coref.rs``); this module reads, checks and prints the scorer's report.

Bad input is a :class:`~sigfast.exceptions.FormatError` naming the file and line: a field the scorer
cannot read, a mention closed before it opened or never closed (``scorer.pl`` dies on both), a token
line outside a document, a document without ``#end document``, a document name given twice (the
scorer would score the last only), key and response documents that differ, or a document whose key and
response token counts differ. More than 10 repeated response mentions stop the scoring, as they stop
``scorer.pl``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import FormatError
from ._base import read_text, shorten, split_lines

__all__ = [
    "REPORTS",
    "SCORER_METRICS",
    "SCORER_VERSION",
    "CorefDocument",
    "CorefScores",
    "read_documents",
    "report_text",
    "score_documents",
]

SCORER_VERSION = "8.01"
#: what ``scorer.pl all`` prints, in its order
SCORER_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
#: the reports ``-o report=...`` prints: scorer.pl's metric argument, and LEA in the same layout
REPORTS = ("all", *SCORER_METRICS, "lea")
#: a metric's offset in a document's statistics (``_native.COREF_STAT_NAMES``)
OFFSET = {"muc": 4, "bcub": 8, "ceafm": 12, "ceafe": 16, "blanc": 20, "lea": 28}

_BEGIN = re.compile(r"#\s*begin document (.*)\Z")
_END = re.compile(r"#\s*end document")
_DOUBLE = re.compile(r"\((\d+\+\d)\)")
_SINGLE = re.compile(r"\((\d+)\)")
_OPEN = re.compile(r"\((\d+)")
_CLOSE = re.compile(r"(\d+)\)")
_REST = re.compile(r"[|\-_]*")
_MAX_REPEATS = 10


@dataclass
class CorefDocument:
    """One document as scorer.pl reads it: its name, first line, token count and entities of mentions."""

    name: str
    line: int
    n_tokens: int
    entities: list[list[tuple[int, int]]]


def _take(rx: re.Pattern[str], field: str) -> tuple[list[str], str]:
    """Every match of ``rx``, leftmost first, each removed before the next search (a substitution loop)."""
    got: list[str] = []
    m = rx.search(field)
    while m:
        got.append(m.group(1))
        field = field[: m.start()] + field[m.end() :]
        m = rx.search(field)
    return got, field


def read_documents(path: Any, role: str) -> tuple[list[CorefDocument], str]:
    """The documents of a CoNLL-2012 file, read as scorer.pl reads them (see the module docstring)."""
    text, name = read_text(path, role)
    docs: list[CorefDocument] = []
    cur: CorefDocument | None = None
    index: dict[str, int] = {}
    half: dict[int, list[int]] = {}
    t = 0
    for ln_no, raw in enumerate(split_lines(text), 1):
        ln = raw[:-1] if raw.endswith("\r") else raw
        if cur is None:
            if ln.startswith("#"):
                m = _BEGIN.match(ln)
                if m:
                    cur = CorefDocument(m.group(1), ln_no, 0, [])
                    index, half, t = {}, {}, 0
                elif re.match(r"#\s*begin document", ln):
                    raise FormatError(
                        "'#begin document' needs a space and the document's name after it (scorer.pl does not "
                        "see this line)",
                        path=name,
                        line=ln_no,
                    )
                continue
            if ln.strip():
                raise FormatError("a token line outside '#begin document' … '#end document'", path=name, line=ln_no)
            continue
        if not ln.strip():
            continue
        if _END.search(ln):
            left = [k for k, v in index.items() if half.get(v)]
            if left:
                raise FormatError(
                    f"document {cur.name!r}: a mention of chain {left[0]} opened but never closed (scorer.pl stops: "
                    "'some mentions in the document do not close')",
                    path=name,
                    line=ln_no,
                )
            cur.n_tokens = t
            docs.append(cur)
            cur = None
            continue
        if _BEGIN.match(ln):
            raise FormatError("'#begin document' inside a document (missing '#end document')", path=name, line=ln_no)
        if "\t" in ln:
            cols = ln.split("\t")
            while len(cols) > 1 and cols[-1] == "":
                cols.pop()
            field = cols[-1]
        else:
            field = ln.split()[-1]
        if field not in ("_", "-"):
            _, f = _take(_DOUBLE, field)
            singles, f = _take(_SINGLE, f)
            opens, f = _take(_OPEN, f)
            closes, f = _take(_CLOSE, f)
            if not _REST.fullmatch(f):
                raise FormatError(
                    f"coreference field {shorten(field)} (the line's last column) is not made of '(N', 'N)', '(N)', "
                    "'-', '_' and '|'",
                    path=name,
                    line=ln_no,
                )
            for e in singles:
                i = index.setdefault(e, len(index))
                if i == len(cur.entities):
                    cur.entities.append([])
                cur.entities[i].append((t, t))
            for e in opens:
                i = index.setdefault(e, len(index))
                if i == len(cur.entities):
                    cur.entities.append([])
                half.setdefault(i, []).append(t)
            for e in closes:
                c = index.get(e)
                if c is None or not half.get(c):
                    raise FormatError(
                        f"document {cur.name!r}: a mention of chain {e} closes here but was not opened (scorer.pl "
                        "stops: 'Detected the end of a mention without begin')",
                        path=name,
                        line=ln_no,
                    )
                cur.entities[c].append((half[c].pop(), t))
        t += 1
    if cur is not None:
        raise FormatError(f"document {cur.name!r} has no '#end document'", path=name, line=cur.line)
    if not docs:
        raise FormatError(f"the {role} file has no '#begin document' line", path=name)
    seen: dict[str, int] = {}
    for d in docs:
        if d.name in seen:
            raise FormatError(
                f"document name {d.name!r} also begins at line {seen[d.name]}; scorer.pl would score only the last "
                "of them: give every document (part) its own name",
                path=name,
                line=d.line,
            )
        seen[d.name] = d.line
    return docs, name


@dataclass
class CorefScores:
    """Key and response documents (key order) and their statistics (documents × ``COREF_STATS``)."""

    key: list[CorefDocument]
    response: list[CorefDocument]
    key_name: str
    response_name: str
    stats: np.ndarray
    #: per document, the scorer's "Repeated mention ..." lines
    repeats: list[list[str]]


def _drop_singletons(ents: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    return [e for e in ents if len(e) != 1]


def _rows(docs: list[CorefDocument]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    d, e, a, b = [], [], [], []
    for i, doc in enumerate(docs):
        for j, ent in enumerate(doc.entities):
            for s, t in ent:
                d.append(i)
                e.append(j)
                a.append(s)
                b.append(t)

    def col(x: list[int]) -> np.ndarray:
        return np.asarray(x, dtype=np.uint32)

    return col(d), col(e), col(a), col(b)


def score_documents(key: Any, response: Any, *, document: str | None = None, singletons: str = "keep") -> CorefScores:
    """Read key and response and compute every document's statistics (see the module docstring)."""
    from .. import _native

    kd, kn = read_documents(key, "key")
    rd, rn = read_documents(response, "response")
    by_name = {d.name: d for d in rd}
    key_names = {d.name for d in kd}
    for d in kd:
        if d.name not in by_name:
            raise FormatError(
                f"document {d.name!r} of the key ({kn}) is not in the response; responses must hold every key "
                "document (an empty one for a document without coreference)",
                path=rn,
            )
    extra = [d for d in rd if d.name not in key_names]
    if extra:
        raise FormatError(
            f"document {extra[0].name!r} is not in the key ({kn}); responses hold the key's documents only",
            path=rn,
            line=extra[0].line,
        )
    if document is not None:
        if document not in key_names:
            near = ", ".join(repr(d.name) for d in kd[:3])
            raise FormatError(f"no document named {document!r} in the key (its first: {near})", path=kn)
        kd = [d for d in kd if d.name == document]
    rd = [by_name[d.name] for d in kd]
    for k, r in zip(kd, rd):
        if k.n_tokens != r.n_tokens:
            raise FormatError(
                f"document {k.name!r} has {r.n_tokens} token lines in the response but {k.n_tokens} in the key "
                f"({kn}); responses must have the key's tokens",
                path=rn,
                line=r.line,
            )
    if singletons == "remove":
        kd = [CorefDocument(d.name, d.line, d.n_tokens, _drop_singletons(d.entities)) for d in kd]
        rd = [CorefDocument(d.name, d.line, d.n_tokens, _drop_singletons(d.entities)) for d in rd]
    flat, reps = _native.coref_scores(*_rows(kd), *_rows(rd), len(kd))
    stats = np.asarray(flat, dtype=np.float64).reshape(len(kd), _native.COREF_STATS)
    repeats: list[list[str]] = [[] for _ in kd]
    n_rsp = 0
    for doc, in_key, s, e, a, b in reps:
        side = "key" if in_key else "response"
        repeats[doc].append(f"Repeated mention in the {side}: {s}, {e} {a}{b}\n")
        n_rsp += not in_key
    if n_rsp > _MAX_REPEATS:
        raise FormatError(
            f"{n_rsp} repeated mentions (the same span twice) in the response; scorer.pl refuses to score more than "
            f"{_MAX_REPEATS} ('a sign of a systematic error'): fix the output",
            path=rn,
        )
    return CorefScores(kd, rd, kn, rn, stats, repeats)


# ------------------------------------------------------------------------------------------------ the report


def _num(x: float) -> str:
    """A number as Perl prints it (``%.15g``)."""
    return f"{x:.15g}"


def _pct(x: float) -> str:
    return _num(int(x * 10000) / 100)


_RULE = "-" * 74 + "\n"


def show_rpf(nr: float, dr: float, np_: float, dp: float, f1: float | None = None) -> str:
    """scorer.pl's ``ShowRPF`` line: numerators, denominators and truncated percentages."""
    p = np_ / dp if dp else 0
    r = nr / dr if dr else 0
    if f1 is None:
        f1 = 2 * p * r / (p + r) if r + p else 0
    return (
        f"Recall: ({_num(nr)} / {_num(dr)}) {_pct(r)}%\tPrecision: ({_num(np_)} / {_num(dp)}) {_pct(p)}%"
        f"\tF1: {_pct(f1)}%\n{_RULE}"
    )


def blanc_rpf(s: Any) -> tuple[float, float, float]:
    """BLANC's recall, precision and F1 from summed link counts, as scorer.pl's totals compute them."""
    nra, dra, npa, dpa, nrr, drr, npr, dpr = (float(x) for x in s)
    ra = nra / dra if dra else -1
    rr = nrr / drr if drr else -1
    pa = npa / dpa if dpa else 0
    pr = npr / dpr if dpr else 0
    r, p = (ra + rr) / 2, (pa + pr) / 2
    fa = 2 * pa * ra / (pa + ra) if pa + ra else 0
    fr = 2 * pr * rr / (pr + rr) if pr + rr else 0
    f1 = (fa + fr) / 2
    if ra == -1 and rr == -1:
        r, p, f1 = 0, 0, 0
    elif ra == -1:
        r, p, f1 = rr, pr, fr
    elif rr == -1:
        r, p, f1 = ra, pa, fa
    return r, p, f1


def _dump(doc: CorefDocument) -> str:
    out = [f"====> {doc.name}:\nFile {doc.name}:\n"]
    for e, ent in enumerate(doc.entities):
        out.append(f"Entity {e}:" + "".join(f" ({a},{b})" for a, b in ent) + "\n")
    return "".join(out)


def _ident(s: np.ndarray) -> str:
    k, r, exact, invented = (int(x) for x in s[:4])
    return (
        f"Total key mentions: {k}\nTotal response mentions: {r}\nStrictly correct identified mentions: {exact}\n"
        f"Partially correct identified mentions: 0\nNo identified: {k - exact}\nInvented: {invented}\n"
    )


def corpus_sums(rows: np.ndarray) -> list[float]:
    """Column sums over documents, correctly rounded (``math.fsum``). scorer.pl adds its documents in Perl's
    hash order, which changes from run to run, so its float sums (B³, CEAFe) vary in their 15th digit
    between its own runs; the correctly rounded sum is one of the values it prints and the same every run."""
    return [math.fsum(col) for col in rows.T.tolist()]


def _metric_report(sc: CorefScores, metric: str, mode: str, single: bool) -> str:
    """One metric's output of ``CorScorer::Score`` (``mode``: "documents" or "totals")."""
    o = OFFSET[metric]
    width = 8 if metric == "blanc" else 4
    out: list[str] = []
    for i, (kdoc, rdoc) in enumerate(zip(sc.key, sc.response)):
        row = sc.stats[i]
        if mode == "totals":
            out.extend(sc.repeats[i])
            continue
        head = f"{kdoc.name}:\n" if metric != "blanc" or single else ":\n"
        if single:
            out.append(head + _dump(kdoc) + _dump(rdoc))
        else:
            out.append(_dump(kdoc) + _dump(rdoc) + head)
        out.extend(sc.repeats[i])
        out.append(_ident(row))
        if metric != "blanc":
            out.append(show_rpf(*row[o : o + 4]))
    tot = corpus_sums(sc.stats)
    out.append("\n====== TOTALS =======\nIdentification of Mentions: ")
    out.append(show_rpf(tot[2], tot[0], tot[2], tot[1]))
    if metric == "blanc":
        s = tot[o : o + width]
        r, p, f1 = blanc_rpf(s)
        out.append("\nCoreference:\nCoreference links: " + show_rpf(*s[:4]))
        out.append("Non-coreference links: " + show_rpf(*s[4:]))
        out.append("BLANC: " + show_rpf(r, 1, p, 1, f1))
    else:
        out.append("Coreference: " + show_rpf(*tot[o : o + 4]))
    return "".join(out)


def report_text(sc: CorefScores, report: str = "all", *, per_document: bool = False, single: bool = False) -> str:
    """scorer.pl's output for ``report`` (a metric or ``all``): per document as it prints them without a
    name argument (``per_document``), for one named document (``single``), or the totals alone (its
    ``none``). The first line names sigfast where scorer.pl names the path of its ``CorScorer.pm``."""
    from .._native import __version__

    mode = "documents" if per_document or single else "totals"
    out = [f"version: {SCORER_VERSION} sigfast {__version__} (conll2012, scorer.pl v{SCORER_VERSION})\n"]
    if report == "all":
        for m in SCORER_METRICS:
            out.append(f"\nMETRIC {m}:\n")
            out.append(_metric_report(sc, m, mode, single))
    else:
        out.append(_metric_report(sc, report, mode, single))
    return "".join(out)
