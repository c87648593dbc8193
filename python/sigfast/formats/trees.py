"""Constituency trees in Penn bracket format, scored exactly like EVALB.

Format ``"evalb"`` (alias ``"penn"``): one tree per line in both files, gold
line *i* against system line *i*, scored by the semantics of EVALB (Sekine &
Collins 1997, revised 2006 with F-measure), by default with the settings of
its ``COLLINS.prm``:

* ``DELETE_LABEL TOP -NONE- , : `` '' .`` (punctuation and traces are
  dropped from the words and from the bracket spans), ``DELETE_LABEL_FOR_LENGTH
  -NONE-`` (punctuation counts toward the length), ``EQ_LABEL ADVP PRT``,
  ``CUTOFF_LEN 40``, ``LABELED 1``, ``MAX_ERROR 10``.
* Function tags are stripped from phrase labels (``NP-SBJ-1`` -> ``NP``,
  ``S=2`` -> ``S``); ``ROOT`` and the unlabeled PTB root are brackets that
  count (only ``TOP`` is deleted).
* An empty system tree is a *Skip* sentence; a different number of words or a
  different word is an *Error* sentence; both count in the number of
  sentences only. EVALB stops without a summary at the error after
  ``MAX_ERROR + 1`` errors; so does this reader (FormatError), unless you
  raise ``max_error``.

Options:

``prm``
    Path of an EVALB parameter file, read like ``evalb -p FILE`` (keys DEBUG,
    MAX_ERROR, CUTOFF_LEN, LABELED, DELETE_LABEL, DELETE_LABEL_FOR_LENGTH,
    QUOTE_LABEL, EQ_LABEL, EQ_WORD; EVALB's built-in defaults apply to keys the
    file does not set). Default: COLLINS.prm's settings, built in.
``max_error``, ``cutoff_len``
    Override MAX_ERROR / CUTOFF_LEN after the prm (EVALB's ``-e`` / ``-c``
    given after ``-p``).

The report: ``text`` is EVALB's stdout byte for byte (per-sentence table,
totals line, ``-- All --`` and ``-- len<=N --`` summaries); EVALB's stderr
messages for error sentences are issued as one :class:`EvalbWarning`.
Statistics per sentence (error and skip sentences are all zeros):

* ``f1`` (default; All sentences): [matched, test brackets, gold brackets],
  metric ``f1``; also ``precision`` and ``recall`` on the same counts;
* ``f1_len40`` (``f1_len<N>`` for another cutoff): the same, zero for
  sentences longer than the cutoff;
* ``tagging_accuracy``: [correct tags, words], metric ``accuracy``;
* ``complete_match``: [1 if complete match, 1 if valid], metric ``accuracy``;
* ``no_crossing`` / ``two_or_less_crossing``: [1 if so, 1 if valid],
  ``accuracy``; ``avg_crossing``: [crossing brackets, 1 if valid], metric
  ``error_rate`` (a plain ratio, lower is better).

``scores`` holds these as fractions (EVALB prints percentages).

Units
-----
``views=("brackets", "pos")``, both from the bytes the report was computed
from (no file is read again) and the same evaluation
(``sigfast._native.evalb_units``: same reading, deletions, label processing,
quote repair and bracket matching). Sentences are the lines (0-based).

``brackets`` (set view, keyed): one unit per bracket EVALB counts, spans in
word positions after deletions, labels as EVALB compares them (function tags
stripped). On each span, every gold bracket EVALB matched is a unit whose
system label is its gold label (so an ``EQ_LABEL`` or ``LABELED 0`` match is
correct); the unmatched gold and unmatched test brackets of the span are
paired in file order into units with different labels (``VP`` -> ``NP``);
leftover gold brackets get system label ``"O"``, leftover test brackets are
units with gold label ``"O"`` and ``gold_present=False``. Keys:
``(sentence, start, end, 0, k, gold label)`` for the k-th gold bracket of
the span, ``(sentence, start, end, 1, j, "")`` for its j-th leftover test
bracket. An error or skip sentence (status 1 or 2, in no total) has no
system units: its gold brackets are units with system label ``"O"``. So per
sentence, the correct units are EVALB's matched brackets, the gold-present
units its gold brackets (plus those of error and skip sentences) and the
units with a system label other than ``"O"`` its test brackets.

``pos`` (set view, keyed ``(sentence, word, gold tag)``): one unit per word
of EVALB's tagging accuracy (words after deletions of scored sentences: none
in an error or skip sentence); the system label is the gold tag when EVALB
counts the tag correct, else the system's tag. So per sentence the units are
EVALB's words and the correct units its correct tags.

A real label that reads like the absent label (``O``, ``O'``, ...) is shown
with one more ``'``. Keys carry the gold label because EVALB's quote repair
(``QUOTE_LABEL``) can shift gold positions for one system and not another.

Not reproduced: DEBUG dumps (DEBUG >= 1), EVALB's undefined behaviour beyond its
fixed buffers (lines over 4999 bytes, more than 200 words or brackets, words
over 100 or labels over 30 bytes, more than 20 quote terminals: scored
correctly here), and malformed trees, which are errors here.
"""

from __future__ import annotations

import numbers
import os
import warnings
from collections.abc import Callable
from typing import Any

from ..exceptions import FormatError, InputError, ScorerWarning
from ..metrics import get as _get_metric
from ._base import (
    FormatSpec,
    ItemStats,
    LazyStats,
    Option,
    Punct,
    ReadmeRow,
    ScoreReport,
    UnitTable,
    display,
    read_file_bytes,
)

__all__ = ["SPECS", "VIEWS", "EvalbWarning", "score_evalb"]

_KIND = "evalb"
VIEWS = ("brackets", "pos")
#: The label of a unit a system (or gold) has no bracket for.
_ABSENT = "O"


class EvalbWarning(ScorerWarning):
    """Sentences EVALB reports as errors on stderr (length or word mismatch)."""


def _read(path: Any, what: str) -> bytes:
    if not isinstance(path, (str, os.PathLike)):
        raise FormatError(f"{what} must be a path to a file with one tree per line, got {type(path).__name__}")
    return read_file_bytes(path, what)[0]


def score_evalb(
    gold: Any,
    system: Any,
    *,
    prm: str | os.PathLike[str] | None = None,
    max_error: int | None = None,
    cutoff_len: int | None = None,
) -> ScoreReport:
    """Score a system's trees against gold trees as ``evalb -p COLLINS.prm`` does."""
    from .. import _native

    gpath, spath = display(gold), display(system)
    g = _read(gold, "gold")
    s = _read(system, "system")
    # An empty line is a tree without words (EVALB: a skipped parse), so only a file without
    # any line, or a gold file without a single bracket, has no trees.
    for data, path, what in ((g, gpath, "gold"), (s, spath, "system")):
        if not data or (what == "gold" and b"(" not in data):
            raise FormatError(
                f"the {what} file has no trees (it is empty); expected one bracketed tree per line", path=path
            )
    prm_bytes = None
    prm_path = None
    if prm is not None:
        prm_path = display(prm)
        prm_bytes = _read(prm, "parameter (prm)")
    for name, v in (("max_error", max_error), ("cutoff_len", cutoff_len)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Integral)):
            raise InputError(f"option {name} must be an integer, got {v!r}")
    args = (
        g,
        s,
        prm_bytes,
        None if cutoff_len is None else int(cutoff_len),
        None if max_error is None else int(max_error),
        gpath,
        spath,
        prm_path,
    )
    text, rows, messages, prm_warnings, cutoff = _native.evalb_score(*args)
    for w in prm_warnings:
        warnings.warn(f"{prm_path}: {w}", EvalbWarning, stacklevel=2)
    if messages:
        shown = "; ".join(f"line {ln}: {m}" for ln, m in messages[:5])
        more = f" (and {len(messages) - 5} more)" if len(messages) > 5 else ""
        warnings.warn(
            f"{spath}: {len(messages)} sentence(s) scored as EVALB 'Error' (counted in no total but the number of "
            f"sentences): {shown}{more}",
            EvalbWarning,
            stacklevel=2,
        )
    return _report(text, rows, int(cutoff), gpath, spath, _unit_source(args))


#: each statistic's metric and names (the arrays: :func:`_item_stats`)
_BRACKETS = ("matched", "test_brackets", "gold_brackets")
_METRICS = {
    "f1": ("f1", _BRACKETS),
    "precision": ("precision", _BRACKETS),
    "recall": ("recall", _BRACKETS),
    "f1_len": ("f1", _BRACKETS),
    "tagging_accuracy": ("accuracy", ("correct_tags", "words")),
    "complete_match": ("accuracy", ("complete", "valid")),
    "no_crossing": ("accuracy", ("no_crossing", "valid")),
    "two_or_less_crossing": ("accuracy", ("two_or_less_crossing", "valid")),
    "avg_crossing": ("error_rate", ("crossing", "valid")),
}


def _report(
    text: str, rows: bytes, cutoff: int, gpath: str, spath: str, unit_source: Callable[[str], UnitTable]
) -> ScoreReport:
    """The report: EVALB's text, and the corpus scores from the per-sentence rows summed (plain Python
    values, no numpy); the per-sentence statistics are built from the same rows when asked."""
    flat = memoryview(rows).cast("q")  # sentences × 9: id, len, status, matched, gold, test, crossing, words, tags
    n = len(flat) // 9
    sid, length, status, matched, gold_b, test_b, crossing, words, tags = (flat[k::9].tolist() for k in range(9))
    valid = [int(x == 0) for x in status]
    complete = [v * (g == t == m) for v, g, t, m in zip(valid, gold_b, test_b, matched)]
    sums = {
        "f1": [sum(matched), sum(test_b), sum(gold_b)],
        "f1_len": [sum(x for x, ln in zip(col, length) if ln <= cutoff) for col in (matched, test_b, gold_b)],
        "tagging_accuracy": [sum(tags), sum(words)],
        "complete_match": [sum(complete), sum(valid)],
        "no_crossing": [sum(v for v, c in zip(valid, crossing) if c == 0), sum(valid)],
        "two_or_less_crossing": [sum(v for v, c in zip(valid, crossing) if c <= 2), sum(valid)],
        "avg_crossing": [sum(crossing), sum(valid)],
    }
    sums["precision"] = sums["recall"] = sums["f1"]
    scores = {
        _key(name, cutoff): _get_metric(metric).score_rows([sums[name]], n)[0] for name, (metric, _) in _METRICS.items()
    }
    return ScoreReport(
        format=_KIND,
        gold=gpath,
        system=spath,
        text=text,
        scores=scores,
        stats=LazyStats(list(scores), lambda: _item_stats(rows, cutoff)),
        default_metric="f1",
        item_ids=tuple(f"line {i}" for i in sid),
        views=VIEWS,
        unit_source=unit_source,
    )


def _key(name: str, cutoff: int) -> str:
    return f"f1_len{cutoff}" if name == "f1_len" else name


def _item_stats(raw: bytes, cutoff: int) -> dict[str, ItemStats]:
    """The per-sentence statistics of every metric, from the rows."""
    import numpy as np

    rows = np.frombuffer(raw, np.int64).reshape(-1, 9)
    status = rows[:, 2]
    valid = (status == 0).astype(np.float64)
    matched = rows[:, 3].astype(np.float64)
    gold_b = rows[:, 4].astype(np.float64)
    test_b = rows[:, 5].astype(np.float64)
    crossing = rows[:, 6].astype(np.float64)
    brackets = np.column_stack([matched, test_b, gold_b])
    inside = (rows[:, 1] <= cutoff).astype(np.float64)[:, None]
    complete = valid * ((gold_b == test_b) & (test_b == matched))
    values = {
        "f1": brackets,
        "precision": brackets,
        "recall": brackets,
        "f1_len": brackets * inside,
        "tagging_accuracy": rows[:, [8, 7]].astype(np.float64),
        "complete_match": np.column_stack([complete, valid]),
        "no_crossing": np.column_stack([valid * (crossing == 0), valid]),
        "two_or_less_crossing": np.column_stack([valid * (crossing <= 2), valid]),
        "avg_crossing": np.column_stack([crossing, valid]),
    }
    return {_key(k, cutoff): ItemStats(m, names, values[k]) for k, (m, names) in _METRICS.items()}


# --------------------------------------------------------------------------------------------
# units


def _unit_source(args: tuple[Any, ...]) -> Callable[[str], UnitTable]:
    """The views' units, on first use, from the bytes the score was computed from (no file is read
    again) and the same evaluation in Rust (``evalb_units``: same reading, deletions, label
    processing, quote repair and bracket matching). Building them with every score would make
    scoring about 1.7 times slower, for units that only diff, oracle, agreement and McNemar use."""
    cache: dict[str, dict[str, Any]] = {}

    def source(view: str) -> UnitTable:
        if "u" not in cache:
            from .. import _native

            cache["u"] = _native.evalb_units(*args)
        u = cache["u"]
        return _brackets(u) if view == "brackets" else _pos(u)

    return source


def _shown(label: str) -> str:
    """A label as a unit label: one that reads like the absent label (O, O', ...) gets one more '."""
    return label + "'" if label.rstrip("'") == _ABSENT else label


def _sentence_ids(u: dict[str, Any]) -> tuple[str, ...]:
    import numpy as np

    return tuple(f"line {i}" for i in np.asarray(u["rows"])[:, 0].tolist())


def _brackets(u: dict[str, Any]) -> UnitTable:
    import numpy as np

    words: list[str] = u["words"]
    off: list[int] = np.asarray(u["word_offsets"]).tolist()
    g_sent, g_start, g_end = (np.asarray(u[k]).tolist() for k in ("gold_sentence", "gold_start", "gold_end"))
    g_match: list[int] = np.asarray(u["gold_match"]).tolist()
    t_sent, t_start, t_end = (np.asarray(u[k]).tolist() for k in ("test_sentence", "test_start", "test_end"))
    g_label = [_shown(x) for x in u["gold_label"]]
    t_label = [_shown(x) for x in u["test_label"]]
    spans: dict[tuple[int, int, int], tuple[list[int], list[int]]] = {}
    for i, span in enumerate(zip(g_sent, g_start, g_end)):
        spans.setdefault(span, ([], []))[0].append(i)
    matched = {j for j in g_match if j >= 0}
    for j, span in enumerate(zip(t_sent, t_start, t_end)):
        if j not in matched:
            spans.setdefault(span, ([], []))[1].append(j)
    keys: list[tuple[Any, ...]] = []
    gold: list[str] = []
    system: list[str] = []
    sentence: list[int] = []
    forms: list[str] = []
    present: list[bool] = []
    for span in sorted(spans):
        s, a, b = span
        gi, free = spans[span]
        form = " ".join(words[off[s] + a : off[s] + b])
        rest = iter(free)  # the span's unmatched test brackets, in file order
        for k, i in enumerate(gi):
            lab = g_label[i]
            if g_match[i] >= 0:
                sys_lab = lab
            else:
                other = next(rest, None)
                sys_lab = _ABSENT if other is None else t_label[other]
            keys.append((s, a, b, 0, k, lab))
            gold.append(lab)
            system.append(sys_lab)
            present.append(True)
        for k, j in enumerate(rest):
            keys.append((s, a, b, 1, k, ""))
            gold.append(_ABSENT)
            system.append(t_label[j])
            present.append(False)
        n = len(keys) - len(sentence)
        sentence.extend([s] * n)
        forms.extend([form] * n)
    ids = _sentence_ids(u)
    return UnitTable(
        view="brackets",
        gold=np.array(gold, dtype=object),
        system=np.array(system, dtype=object),
        sentence=np.array(sentence, dtype=np.int64),
        forms=tuple(forms),
        n_sentences=len(ids),
        keys=tuple(keys),
        gold_present=np.array(present, dtype=bool),
        absent=_ABSENT,
        sentence_ids=ids,
        note="brackets as EVALB counts and matches them; error and skip sentences: gold brackets only",
    )


def _pos(u: dict[str, Any]) -> UnitTable:
    import numpy as np

    words: list[str] = u["words"]
    off: list[int] = np.asarray(u["word_offsets"]).tolist()
    sent: list[int] = np.asarray(u["tag_sentence"]).tolist()
    idx: list[int] = np.asarray(u["tag_word"]).tolist()
    ok: list[bool] = np.asarray(u["tag_correct"]).tolist()
    gold = [_shown(x) for x in u["gold_tag"]]
    system = [g if c else _shown(t) for g, t, c in zip(gold, u["test_tag"], ok)]
    ids = _sentence_ids(u)
    return UnitTable(
        view="pos",
        gold=np.array(gold, dtype=object),
        system=np.array(system, dtype=object),
        sentence=np.array(sent, dtype=np.int64),
        forms=tuple(words[off[s] + i] for s, i in zip(sent, idx)),
        n_sentences=len(ids),
        keys=tuple(zip(sent, idx, gold)),
        gold_present=np.ones(len(gold), dtype=bool),
        absent=_ABSENT,
        sentence_ids=ids,
        note="the words of EVALB's tagging accuracy (none in error and skip sentences)",
    )


def _is_trees(head: list[str]) -> bool:
    lines = [ln for ln in head if ln.strip()]
    return bool(lines) and all(ln.lstrip().startswith("(") for ln in lines[:5])


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="EVALB with COLLINS.prm or any `.prm`",
    checked="byte-identical report",
    speed="see [Speed](#speed)",
)


SPECS = (
    FormatSpec(
        name="evalb",
        readme=README_ROW,
        description="bracketed constituency trees (Penn Treebank), scored like EVALB",
        reference="EVALB (Sekine & Collins), COLLINS.prm or any .prm",
        score=score_evalb,
        options=(
            Option("prm", "path", None, "EVALB parameter file (default: COLLINS.prm's settings)", nullable=True),
            Option("max_error", int, None, "EVALB -e: error sentences allowed", minimum=0, nullable=True),
            Option("cutoff_len", int, None, "EVALB -c: length cut-off of the second summary", minimum=0, nullable=True),
        ),
        aliases=("penn", "ptb", "trees"),
        extensions=(".mrg", ".ptb", ".tree", ".trees"),
        views=VIEWS,
        metrics=(
            "f1",
            "precision",
            "recall",
            "f1_len<CUTOFF_LEN>",
            "tagging_accuracy",
            "complete_match",
            "no_crossing",
            "two_or_less_crossing",
            "avg_crossing",
        ),
        detect=_is_trees,
        split_unit="line",
        punct=Punct("none", "none left to drop, EVALB's parameter file already deletes punctuation (DELETE_LABEL)"),
    ),
)
