"""Word alignment scored with the alignment error rate (Och & Ney 2003).

AER = 1 - (|A&S| + |A&P|) / (|A| + |S|), precision = |A&P| / |A|, recall = |A&S| / |S|, all
summed over the corpus before dividing. A sure link is also a possible one (P here is S | P).

File layouts (each file is detected on its own, or set with ``gold_format``/``system_format``):

``pharaoh``
    One line per sentence, links ``i-j`` (sure), ``ipj`` or ``i?j`` (possible), 0-based by
    default, ``i`` on the source side. In a system file ``p``/``?`` links count as links like
    ``-`` and repeated links count once (as lilt's ``aer.py`` reads them).
``naacl`` (the HLT-NAACL 2003 / WPT shared-task layout)
    One link per line, ``sentence_no pos_L1 pos_L2 [S|P] [confidence]``, 1-based by default:
    three fields or a numeric fourth field or ``S`` = sure, ``P`` = possible; with five fields
    ``S``/``P`` may stand in field 4 or 5 (both = the link is in both sets). As in
    ``wa_eval_align.pl``, a system link listed both as S and as P counts twice.

Sentences: a Pharaoh file's line n is sentence n; NAACL sentence numbers are matched by their
integer value (``0001`` = ``1``) to each other and to Pharaoh line numbers (1-based), and
non-numeric NAACL sentence ids are matched as strings. Items are the gold sentences in file
order (for NAACL gold: in order of first appearance; system-only sentences come last). Where
gold and system write a sentence number differently, ``wa_eval_align.pl`` (which compares them
as text) would match none of its links: sigfast matches them and issues one
:class:`AlignmentWarning`; ``sentence_ids="text"`` compares them as text, as the script does
(its numbers, byte for byte), and ``strict=True`` refuses such files.

Options: ``gold_format``/``system_format`` (``"pharaoh"`` | ``"naacl"``, default: detected),
``gold_base``/``system_base`` (0 or 1: index of the first word; default 0 for Pharaoh, 1 for
NAACL), ``reverse_gold``/``reverse_system`` (swap the two positions of every link, e.g. for a
target-to-source alignment such as Lilt's ``*.reverse.talp``), ``report`` (``"wpt"`` prints
``wa_eval_align.pl``'s report, ``"lilt"`` the line of lilt's ``aer.py``, ``"dreamt"`` the last
three lines of the JHU MT-class ``score-alignments``; default ``"wpt"`` when the gold file is
NAACL, else ``"lilt"``), ``f_alpha`` (lilt's ``--fAlpha``: with ``report="lilt"``
adds its ``F-Measure:`` line), ``all_sure`` (``--allSure``: every gold link is sure, possible
ones too) and ``ignore_possible`` (``--ignorePossible``: gold links labelled possible are not
possible links; with both, they are sure and not possible, as in ``aer.py``), ``sentence_ids``
(``"value"`` or ``"text"``, above), ``strict``. aer.py's flag names are aliases
(``allSure``, ``ignorePossible``, ``reverseRef``, ``reverseHyp``, ``fAlpha``). The gold file is
always the first argument (``gold``), as in both reference scorers (``aer.py reference
hypothesis``, ``wa_eval_align.pl answer submission``).

Statistics per sentence: ``aer`` [a_and_s, a_and_p, a, s], counted as the report's reference
counts them: with ``report="wpt"`` as ``wa_eval_align.pl`` (a system link listed both as S and as
P counts twice in each of the three), with ``"lilt"``/``"dreamt"`` over the set of the system's
links, as ``aer.py`` reads them; ``precision`` [|A&P|, |A|, |P|] and ``recall`` [|A&S|, |A|,
|S|] (Och & Ney, over the set of the system's links; P is S | P); ``f1`` [sure_match,
sure_guessed, s]: the F-measure of ``wa_eval_align.pl``'s "Evaluation of SURE alignments"
(system links labelled P are left out; for a system without P labels it is the F of |A&S|/|A|
and |A&S|/|S|). Every count of A's links is at most |A|, the invariant the metric registry
declares; |A&S| may exceed |A&P| (``all_sure`` with ``ignore_possible``: S is not inside P) and,
with ``report="wpt"``, |S| (the double count). The harmonic mean of Och & Ney's precision and
recall (lilt's ``--fAlpha 0.5``) has no per-item statistics of the built-in metrics, so it is
only printed in the lilt report.

Units: ``views=("sure", "possible")``, set views over links from the same parse as the
statistics, keyed ``(sentence id, i, j, copy)`` (positions 0-based, after ``*_base`` and
``reverse_*``; the sentence id is the item id). ``sure``: the units are the gold sure links and
the system's links; the gold label is ``"link"`` for a sure link, else ``"O"`` (``gold_present``
= it is sure); the system label is ``"link"`` where the system has the link, else ``"O"``. So
the correct units of a sentence are |A&S|. ``possible``: the same over the possible links (S | P)
and the system's links, so the correct units are |A&P|. ``copy`` is 0, except for a system link
listed both as S and as P in a NAACL file: wa_eval_align.pl (and this module's statistics) counts
it twice, so it is two units, copy 0 and copy 1, each with the gold label of the link. Unit
forms are the links ``i-j``. Sentences only a system has (NAACL) follow the gold ones in that
system's order, so when systems are united their sentence numbers are the first system's.

References, run for parity: ``wa_eval_align.pl`` (Rada Mihalcea 2003; ``robertostling/eflomal``
@ 1fe2a43e3667fb2461736ddb48783ab0cf98a171, ``3rdparty/wa_eval_align.pl``) and lilt's ``aer.py``
(``lilt/alignment-scripts`` @ 4da9bbfae633b1c8765281b0cd337233ed8d1446, ``scripts/aer.py``).

Differences (docs/divergences.md has them all, with the options that restore the references):
where ``aer.py`` divides by zero (no sure gold link, no system link, ``--fAlpha`` without a
correct link) the lilt and dreamt reports raise :class:`~sigfast.exceptions.FormatError`, except
the F-measure, printed as its limit 0 with an :class:`AlignmentWarning`; the WPT report prints
what ``wa_eval_align.pl`` prints there (sure precision and recall 0, AER over the possible links;
AER 0.0000 for an empty submission), with an :class:`AlignmentWarning`, and the statistics keep
the formula (AER 1 for an empty submission). Lines with fewer than three fields or unknown labels
(``wa_eval_align.pl`` stops silently or ignores the line), line-count mismatch (``aer.py``:
AssertionError), positions that are not plain decimal integers or have more than 18 digits are
errors. ``wa_eval_align.pl`` compares
sentence numbers as strings (``1`` never matches ``0001``, giving AER 1.0); sigfast compares
their values and warns (``sentence_ids="text"`` gives the script's reading). Per sentence
(``score --per-item``) a gold sentence without system links has AER 1 (the formula on its
counts; wa_eval_align.pl prints 0.0000 for a file without links). ``score-alignments``
(``azpoliak/align`` @ 1ac099b90e61c656369d1aff0f1b63cd68452b1d,
Python 2) counts a gold link written both ``i-j`` and ``i?j`` twice in |A&P|; sigfast counts it once
(a possible link is a set member); it also silently stops at the shortest input, sigfast does not.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError, ScorerWarning
from ..metrics import get as _get_metric
from ._base import FormatSpec, ItemStats, Option, Punct, ReadmeRow, ScoreReport, UnitTable, display, read_text, shorten

__all__ = ["SPECS", "VIEWS", "AlignmentWarning", "score_alignment"]

VIEWS = ("sure", "possible")
_LINK_LABEL = "link"
_ABSENT = "O"

_LINK = re.compile(r"^(0|[1-9][0-9]*)([-p?])(0|[1-9][0-9]*)$")
_POS = re.compile(r"^(0|[1-9][0-9]*)$")
_NUM = re.compile(r"^[0-9.]+$")
_WS = re.compile(r"[ \t\n\r\f\v]+")
_INT = re.compile(r"^[0-9]+$")

Link = tuple[int, int]


class AlignmentWarning(ScorerWarning):
    """Input that ``wa_eval_align.pl`` reads differently from sigfast (sentence ids written
    differently in gold and system): sigfast says so and gives its own reading; the option
    ``sentence_ids="text"`` gives the script's, ``strict=True`` refuses such input."""


@dataclass
class _Sent:
    sure: set[Link] = field(default_factory=set)
    poss: set[Link] = field(default_factory=set)  # links labelled possible (not the S | P union)
    first_line: int = 0
    # the possible links P where they are not S | poss (aer.py --allSure --ignorePossible)
    p_only: set[Link] | None = None

    def possible(self) -> set[Link]:
        return self.sure | self.poss if self.p_only is None else self.p_only


@dataclass
class _File:
    path: str
    fmt: str
    sents: dict[Any, _Sent]  # key: line number (pharaoh) or sentence id (naacl, int if numeric)
    order: list[Any]
    n_lines: int
    spelled: dict[Any, str] = field(default_factory=dict)  # naacl: each sentence id as written


def _text(path: Any, role: str, empty_ok: bool = False) -> str:
    text, name = read_text(path, role)
    if not text.strip() and not empty_ok:
        raise FormatError("the file is empty; expected word alignments", path=name)
    return text


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [x[:-1] if x.endswith("\r") else x for x in lines]


def _detect(lines: list[str], path: str) -> str:
    for line in lines:
        f = line.split()
        if not f:
            continue
        if all(_LINK.match(x) for x in f):
            return "pharaoh"
        if len(f) >= 3 and _INT.match(f[1]) and _INT.match(f[2]):
            return "naacl"
        break
    raise FormatError(
        "cannot tell the layout: expected Pharaoh links 'i-j' or NAACL lines "
        "'sentence pos_L1 pos_L2 [S|P]'; name it with -o gold_format=pharaoh|naacl or -o system_format=... "
        "(gold_format=... in Python)",
        path=path,
    )


_MAX_DIGITS = 18  # positions and sentence numbers fit an int64 (and Python's int() of a string stays cheap)


def _number(x: str, what: str, path: str, line: int) -> int:
    if len(x) > _MAX_DIGITS:
        raise FormatError(f"{what} {shorten(x)} has more than {_MAX_DIGITS} digits", path=path, line=line)
    return int(x)


def _pos(x: str, base: int, path: str, line: int) -> int:
    if not _POS.match(x):
        raise FormatError(f"position {shorten(x)} is not a plain decimal integer", path=path, line=line)
    v = _number(x, "position", path, line) - base
    if v < -1 or (v < 0 and base == 0):
        raise FormatError(f"position {shorten(x)} below the first index {base}", path=path, line=line)
    return v  # -1: position 0 in a 1-based file (NULL), kept as a link like any other


def _read(
    path: Any,
    fmt: str | None,
    base: int | None,
    reverse: bool,
    is_gold: bool,
    as_text: bool = False,
    empty_layout: str | None = None,
) -> _File:
    """One file's links. A system file without any line (``empty_layout``: the gold's layout) is a
    system that proposes no link."""
    p = display(path)
    text = _text(path, "gold" if is_gold else "system", empty_ok=empty_layout is not None)
    lines = _lines(text)
    if not text.strip() and empty_layout is not None:
        fmt = fmt or empty_layout
        lines = lines if text else []
    fmt = fmt or _detect(lines, p)
    if fmt not in ("pharaoh", "naacl"):
        raise InputError(f"unknown alignment layout {fmt!r}; choose 'pharaoh' or 'naacl'")
    if base is None:
        base = 0 if fmt == "pharaoh" else 1
    if base not in (0, 1):
        raise InputError(f"index base must be 0 or 1, got {base!r}")
    sents: dict[Any, _Sent] = {}
    order: list[Any] = []
    spelled: dict[Any, str] = {}
    for ln, line in enumerate(lines, 1):
        if fmt == "pharaoh":
            s = _Sent(first_line=ln)
            for tok in line.split():
                m = _LINK.match(tok)
                if not m:
                    raise FormatError(
                        f"{shorten(tok)} is not a link 'i-j' (sure) or 'ipj'/'i?j' (possible) in sentence {ln}",
                        path=p,
                        line=ln,
                    )
                a = _number(m.group(1), "position", p, ln) - base
                b = _number(m.group(3), "position", p, ln) - base
                if a < 0 or b < 0:
                    raise FormatError(f"link {shorten(tok)} below the first index {base}", path=p, line=ln)
                link = (b, a) if reverse else (a, b)
                if m.group(2) == "-" or not is_gold:
                    s.sure.add(link)
                else:
                    s.poss.add(link)
            sents[ln] = s
            order.append(ln)
            continue
        f = _WS.split(line.strip(" \t\n\r\f\v"))
        if f == [""]:
            f = []
        if len(f) < 3:
            raise FormatError(
                "fewer than 3 fields (expected 'sentence pos_L1 pos_L2 [S|P] [confidence]'); "
                "wa_eval_align.pl stops here without a result; remove empty lines",
                path=p,
                line=ln,
            )
        sid: Any = _number(f[0], "sentence number", p, ln) if _INT.match(f[0]) and not as_text else f[0]
        if sid in spelled and spelled[sid] != f[0]:
            raise FormatError(f"sentence number {shorten(f[0])} also written {shorten(spelled[sid])}", path=p, line=ln)
        spelled[sid] = f[0]
        a, b = _pos(f[1], base, p, ln), _pos(f[2], base, p, ln)
        link = (b, a) if reverse else (a, b)
        n = len(f)
        sure = n == 3 or (n == 4 and (bool(_NUM.match(f[3])) or f[3] == "S")) or (n == 5 and "S" in (f[3], f[4]))
        poss = (n == 4 and f[3] == "P") or (n == 5 and "P" in (f[3], f[4]))
        if not (sure or poss):
            raise FormatError(
                f"no S/P label in {shorten(line.strip())} (wa_eval_align.pl would ignore the link); expected "
                "'sentence pos_L1 pos_L2 [S|P] [confidence]'",
                path=p,
                line=ln,
            )
        s = sents.get(sid)
        if s is None:
            s = sents[sid] = _Sent(first_line=ln)
            order.append(sid)
        if sure:
            s.sure.add(link)
        if poss:
            s.poss.add(link)
    return _File(p, fmt, sents, order, len(lines), spelled)


def _gold_sets(g: _File, all_sure: bool, ignore_possible: bool) -> None:
    """aer.py's --allSure (every gold link is sure) and --ignorePossible (links labelled possible
    are not possible links); with both, the labelled-possible links are sure and not possible."""
    if not (all_sure or ignore_possible):
        return
    for s in g.sents.values():
        dash = set(s.sure)
        if all_sure:
            s.sure = dash | s.poss
        if ignore_possible:
            s.poss = set()
            if all_sure:
                s.p_only = dash


def _pair(g: _File, s: _File, as_text: bool = False) -> tuple[list[Any], list[_Sent], list[_Sent]]:
    """Gold and system sentences side by side, in gold order."""
    empty = _Sent()
    if as_text and (g.fmt == "pharaoh" or s.fmt == "pharaoh"):
        raise InputError(
            "sentence_ids='text' is wa_eval_align.pl's reading of two NAACL files; a Pharaoh file's sentences "
            "are its lines"
        )
    if g.fmt == "pharaoh" or s.fmt == "pharaoh":
        ref = g if g.fmt == "pharaoh" else s
        n = ref.n_lines
        if g.fmt == "pharaoh" and s.fmt == "pharaoh" and g.n_lines != s.n_lines:
            raise FormatError(
                f"{s.n_lines} lines (sentences) but the gold file {g.path} has {g.n_lines}; "
                "one line per sentence in both",
                path=s.path,
                line=min(g.n_lines, s.n_lines) + 1,
            )
        for f in (g, s):
            if f.fmt == "naacl":
                for sid in f.order:
                    if not isinstance(sid, int) or not 1 <= sid <= n:
                        raise FormatError(
                            f"sentence number {shorten(sid)} does not name a line of the Pharaoh file "
                            f"{ref.path} ({n} lines; NAACL sentence n = line n)",
                            path=f.path,
                            line=f.sents[sid].first_line,
                        )
        keys = list(range(1, n + 1))
    else:
        keys = list(g.order) + [k for k in s.order if k not in g.sents]
    return keys, [g.sents.get(k, empty) for k in keys], [s.sents.get(k, empty) for k in keys]


def _f4(x: float) -> str:
    return f"{x:5.4f}"


def score_alignment(
    gold: Any,
    system: Any,
    *,
    gold_format: str | None = None,
    system_format: str | None = None,
    gold_base: int | None = None,
    system_base: int | None = None,
    reverse_gold: bool = False,
    reverse_system: bool = False,
    report: str | None = None,
    f_alpha: float | None = None,
    all_sure: bool = False,
    ignore_possible: bool = False,
    sentence_ids: str = "value",
    strict: bool = False,
) -> ScoreReport:
    """AER, precision and recall of a system word alignment against gold sure/possible links."""
    if sentence_ids not in ("value", "text"):
        raise InputError(f"sentence_ids must be 'value' or 'text', got {sentence_ids!r}")
    as_text = sentence_ids == "text"
    g = _read(gold, gold_format, gold_base, reverse_gold, True, as_text)
    s = _read(system, system_format, system_base, reverse_system, False, as_text, empty_layout=g.fmt)
    _gold_sets(g, bool(all_sure), bool(ignore_possible))
    keys, gs, ss = _pair(g, s, as_text)
    warned = _id_spelling(g, s, bool(strict)) if not as_text else ()
    kind = report or ("wpt" if g.fmt == "naacl" else "lilt")
    if kind not in ("wpt", "lilt", "dreamt"):
        raise InputError(f"report must be 'wpt', 'lilt' or 'dreamt', got {report!r}")
    rows = []
    for gsent, ssent in zip(gs, ss):
        S, Pl, P = gsent.sure, gsent.poss, gsent.possible()
        # wa_eval_align.pl: the system's links = its P-labelled links, then its S-labelled ones (a link
        # labelled both counts twice); aer.py and Och & Ney: the set of the system's links
        a_list = list(ssent.poss) + list(ssent.sure)
        a_set = ssent.sure | ssent.poss
        rows.append(
            (
                sum(1 for x in a_list if x in S),
                sum(1 for x in a_list if x in P),
                len(a_list),
                len(a_set & S),
                len(a_set & P),
                len(a_set),
                len(S),
                len(P),
                len(ssent.sure & S),
                len(ssent.sure),
                len(ssent.poss),
                len(Pl),
            )
        )
    v = np.array(rows, np.int64).reshape(-1, 12)
    tot = [int(x) for x in v.sum(0)]
    w_s, w_p, w_a, a_s, a_p, a, n_s, _n_p, sure_match, a_sure, a_poss, n_pl = tot
    notes: list[str] = []
    if kind != "wpt" and n_s == 0:
        raise FormatError(
            "the gold file has no sure link: recall and AER are undefined (aer.py divides by zero); use gold with "
            "S links (report=wpt prints what wa_eval_align.pl prints)",
            path=g.path,
        )
    if kind != "wpt" and a == 0:
        raise FormatError(
            "the system file has no link: precision is undefined (aer.py divides by zero; report=wpt prints what "
            "wa_eval_align.pl prints)",
            path=s.path,
        )
    if kind == "wpt":
        sp = sure_match / a_sure if a_sure else 0
        sr = sure_match / n_s if n_s else 0
        sf = 2 * sr * sp / (sr + sp) if sr and sp else 0
        pp = w_p / (a_sure + a_poss) if a_sure + a_poss else 0
        pr = w_p / (n_s + n_pl) if n_s + n_pl else 0
        pf = 2 * pr * pp / (pr + pp) if pr and pp else 0
        aer_w = 1 - (w_s + w_p) / (a_sure + a_poss + n_s) if a_sure + a_poss else 0
        if n_s == 0:
            notes.append(
                f"{g.path}: the gold file has no sure link: recall and Och & Ney's AER are undefined; as "
                "wa_eval_align.pl does, the report gives sure precision and recall 0 and its AER counts the "
                "possible links alone"
            )
        if w_a == 0:
            notes.append(
                f"{s.path}: the system file has no link: precision is undefined and wa_eval_align.pl prints "
                "AER 0.0000 (its guard); by the formula nothing aligned is AER 1, which sigfast's statistics "
                "(score --json, compare) give"
            )
        text = (
            "\nThe following results assume correct file formats.\n"
            "Make sure you have previously checked the file format\n"
            "using wa_check_submission.pl\n\n"
            "\n    Word Alignment Evaluation   \n"
            "----------------------------------\n"
            "   Evaluation of SURE alignments \n"
            f"   Precision = {_f4(sp)}  \n"
            f"   Recall    = {_f4(sr)}\n"
            f"   F-measure = {_f4(sf)}\n"
            "-----------------------------------\n"
            "   Evaluation of PROBABLE alignments\n"
            f"   Precision = {_f4(pp)}\n"
            f"   Recall    = {_f4(pr)}\n"
            f"   F-measure = {_f4(pf)}\n"
            "-----------------------------------\n"
            f"   AER       = {_f4(aer_w)}\n"
        )
    elif kind == "lilt":
        prec = float(a_p) / float(a)
        rec = float(a_s) / float(n_s)
        aer = 1.0 - ((float(a_p) + float(a_s)) / (float(a) + float(n_s)))
        text = f"{s.path}: {aer * 100.0:.1f}% ({prec * 100.0:.1f}%/{rec * 100.0:.1f}%/{a})\n"
        if f_alpha is not None and f_alpha >= 0.0:
            if prec == 0.0 or rec == 0.0:
                notes.append(
                    f"{s.path}: no correct link, so precision or recall is 0: aer.py's F-measure divides by zero "
                    "here; its limit, 0, is printed"
                )
                fm = 0.0
            else:
                fm = 1.0 / (f_alpha / prec + (1.0 - f_alpha) / rec)
            text += f"F-Measure: {fm:.3f}\n"
    else:
        text = f"Precision = {a_p / a:f}\nRecall = {a_s / n_s:f}\nAER = {1 - ((a_s + a_p) / (a + n_s)):f}\n"
    for note in notes:
        warnings.warn(note, AlignmentWarning, stacklevel=2)
    # aer: counted as the report's reference counts (wa_eval_align.pl: a link listed both S and P twice);
    # Och & Ney's precision and recall: over the set of the system's links, against P and S
    aer_cols = [0, 1, 2, 6] if kind == "wpt" else [3, 4, 5, 6]
    stats = {
        "aer": ItemStats("aer", ("a_and_s", "a_and_p", "a", "s"), v[:, aer_cols].copy()),
        "precision": ItemStats("precision", ("tp", "guessed", "gold"), v[:, [4, 5, 7]].copy()),
        "recall": ItemStats("recall", ("tp", "guessed", "gold"), v[:, [3, 5, 6]].copy()),
        "f1": ItemStats("f1", ("tp", "guessed", "gold"), v[:, [8, 9, 6]].copy()),
    }
    n = len(keys)
    scores = {
        k: float(_get_metric(st.metric).evaluate(st.values.sum(0, keepdims=True), n)[0]) for k, st in stats.items()
    }
    ids = tuple(str(k) for k in keys)
    return ScoreReport(
        "alignment",
        g.path,
        s.path,
        text,
        scores,
        stats,
        "aer",
        ids,
        views=VIEWS,
        unit_source=_unit_source(ids, gs, ss),
        warnings=warned + tuple(notes),
    )


def _id_spelling(g: _File, s: _File, strict: bool) -> tuple[str, ...]:
    """Sentences that two NAACL files number alike but write differently (``1`` and ``0001``).

    sigfast matches them (by value); ``wa_eval_align.pl`` compares the text and matches none of
    their links. ``strict``: FormatError; otherwise one :class:`AlignmentWarning`.
    """
    if g.fmt != "naacl" or s.fmt != "naacl":
        return ()
    odd = [k for k in s.order if k in g.spelled and g.spelled[k] != s.spelled[k]]
    if not odd:
        return ()
    k = odd[0]
    what = (
        f"sentence number {shorten(s.spelled[k])} is written {shorten(g.spelled[k])} in the gold file {g.path} "
        f"({len(odd)} sentence(s) in all); wa_eval_align.pl compares sentence numbers as text and would "
        "match none of their links"
    )
    if strict:
        raise FormatError(
            what + "; write them alike, or drop strict=true to match them by value",
            path=s.path,
            line=s.sents[k].first_line,
        )
    msg = (
        f"{s.path}, line {s.sents[k].first_line}: {what}; sigfast matches them by value (sentence_ids=text "
        "gives the script's reading, strict=true refuses it)"
    )
    warnings.warn(msg, AlignmentWarning, stacklevel=3)
    return (msg,)


def _unit_source(ids: tuple[str, ...], gs: list[_Sent], ss: list[_Sent]) -> Callable[[str], UnitTable]:
    return lambda view: _link_units(view, ids, gs, ss)


def _link_units(view: str, ids: tuple[str, ...], gs: list[_Sent], ss: list[_Sent]) -> UnitTable:
    """Gold links of the view (S, or S | P) and system links, labelled ``link`` / ``O`` (see the docstring)."""
    keys: list[tuple[str, int, int, int]] = []
    gold: list[str] = []
    system: list[str] = []
    sentence: list[int] = []
    present: list[bool] = []
    for k, (sid, gsent, ssent) in enumerate(zip(ids, gs, ss)):
        ref = gsent.sure if view == "sure" else gsent.possible()
        # the system's links as score_alignment counts them: a link labelled both S and P twice
        copies = [(x, 0) for x in ssent.sure] + [(x, int(x in ssent.sure)) for x in ssent.poss]
        units = {(x, 0): False for x in ref}
        for link in copies:
            units[link] = True
        for (x, c), has in sorted(units.items()):
            keys.append((sid, x[0], x[1], c))
            gold.append(_LINK_LABEL if x in ref else _ABSENT)
            system.append(_LINK_LABEL if has else _ABSENT)
            present.append(x in ref)
            sentence.append(k)
    return UnitTable(
        view=view,
        gold=np.array(gold, dtype=object),
        system=np.array(system, dtype=object),
        sentence=np.array(sentence, dtype=np.int64),
        forms=tuple(f"{i}-{j}" for _, i, j, _ in keys),
        n_sentences=len(ids),
        keys=tuple(keys),
        gold_present=np.array(present, dtype=bool),
        absent=_ABSENT,
        sentence_ids=ids,
        note=f"links: gold {'sure' if view == 'sure' else 'possible (S | P)'} links and system links",
    )


_LAYOUTS = ("pharaoh", "naacl")

#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="`wa_eval_align.pl` and Lilt's `aer.py` (AER, P, R; `--allSure`, `--ignorePossible`, reversed links)",
    checked="all 16 Hansards aligners",
    speed="—",
)


SPECS = (
    FormatSpec(
        name="alignment",
        readme=README_ROW,
        description="word alignments (Pharaoh i-j / ipj, or NAACL/WPT links), scored with AER",
        reference="wa_eval_align.pl (WPT 2003) and lilt's aer.py",
        score=score_alignment,
        options=(
            Option(
                "gold_format", str, None, "layout of the gold file (default: detected)", choices=_LAYOUTS, nullable=True
            ),
            Option(
                "system_format",
                str,
                None,
                "layout of the system file (default: detected)",
                choices=_LAYOUTS,
                nullable=True,
            ),
            Option("gold_base", int, None, "index of the first word in gold (0 or 1)", choices=(0, 1), nullable=True),
            Option(
                "system_base",
                int,
                None,
                "index of the first word in the system (0 or 1)",
                choices=(0, 1),
                nullable=True,
            ),
            Option(
                "reverse_gold",
                bool,
                False,
                "swap the two positions of every gold link (aer.py --reverseRef)",
                aliases=("reverse_ref", "reverseRef"),
            ),
            Option(
                "reverse_system",
                bool,
                False,
                "swap the two positions of every system link (aer.py --reverseHyp)",
                aliases=("reverse_hyp", "reverseHyp"),
            ),
            Option(
                "all_sure",
                bool,
                False,
                "every gold link is sure, possible ones too (aer.py --allSure)",
                aliases=("allSure",),
            ),
            Option(
                "ignore_possible",
                bool,
                False,
                "gold links labelled possible are not possible links (aer.py --ignorePossible)",
                aliases=("ignorePossible",),
            ),
            Option(
                "sentence_ids",
                str,
                "value",
                "NAACL sentence numbers matched by value (0001 = 1) or as text (wa_eval_align.pl)",
                choices=("value", "text"),
            ),
            Option(
                "strict",
                bool,
                False,
                "refuse NAACL sentence numbers written differently in gold and system (1 and 0001)",
            ),
            Option(
                "report",
                str,
                None,
                "wpt (wa_eval_align.pl), lilt (aer.py) or dreamt (score-alignments)",
                choices=("wpt", "lilt", "dreamt"),
                nullable=True,
            ),
            Option(
                "f_alpha",
                float,
                None,
                "aer.py --fAlpha (lilt report)",
                minimum=0.0,
                maximum=1.0,
                nullable=True,
                aliases=("fAlpha",),
            ),
        ),
        aliases=("aer", "pharaoh", "naacl", "wa"),
        extensions=(".talp", ".naacl", ".wa"),
        views=VIEWS,
        metrics=("aer", "precision", "recall", "f1"),
        split_unit="line",
        punct=Punct("refuse", "links have no words to judge punctuation by"),
    ),
)
