"""Part-of-speech tagging: token accuracy, sentence accuracy and accuracy on unseen words.

Format ``"pos"``: a gold and a system file with the same sentences and tokens, in one of three
layouts (``layout=``; by default ``conllu`` for ``*.conllu``/``*.conllu.gz`` and for files whose first
line has 10 TAB-separated columns starting with a number (CoNLL-X too), else ``text`` when every
token of the first line holds ``sep`` inside it, else ``conll``):

``conllu``
    CoNLL-U: 10 TAB-separated columns; comment lines (``#``) before a sentence, multiword-token
    lines (ID ``a-b``) and empty nodes (ID ``n.m``) are skipped. Word = FORM, tag = UPOS
    (``tag="xpos"`` for XPOS).
``conll``
    One token per line, columns separated by TAB if the first non-empty line holds one, else by
    runs of spaces; an empty line ends a sentence. Word = ``word_column`` (default 1), tag =
    ``tag_column`` (default -1, the last). Columns are numbered from 1; negative numbers count
    from the end. (They also override the CoNLL-U columns: FORM is 2, UPOS 4, XPOS 5.)
``text``
    One sentence per line, tokens separated by white space, each ``word<sep>TAG`` split at the
    LAST ``sep`` (default ``_``, so ``New_York_NNP`` is word ``New_York``, tag ``NNP``). Empty
    lines are skipped in both files.

``train=path``: a training file (same layouts, detected on its own; ``train_layout=``
overrides): tokens whose gold word never occurs in it are out-of-vocabulary, and their accuracy
is reported as in Gorman & Bedrick (2019), "We need to talk about standard splits" (words
compared exactly, case-sensitive). Files ending in ``.gz`` are read decompressed.

Statistics (items = sentences in file order): ``accuracy`` [correct, tokens] (the default),
``sentence_accuracy`` [1 if every token is right, 1] (metric ``accuracy``), and with ``train``
``oov_accuracy`` [correct_oov, oov_tokens]. There is no single reference scorer for POS
accuracy; ``ScoreReport.text`` is sigfast's own summary (counts and percentages with two
decimals, rounded half-to-even on the binary value as C's printf does).

Units (``ScoreReport.units("tags")``, the one view): one unit per token, in file order, from the
same parse as the statistics: gold label = gold tag, system label = system tag (the column the
options choose, compared as strings), ``sentence`` = the sentence's index, ``forms`` = the words.
Labels are equal iff the token counts correct, so the correct units of a sentence are its
``accuracy`` numerator.
"""

from __future__ import annotations

import re
from typing import Any

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
    display,
    read_text,
    shorten,
)

__all__ = ["SPECS", "VIEWS", "score_pos"]

Sentence = tuple[int, list[str], list[str], list[int]]  # first line, words, tags, line numbers

_SPACES = re.compile(r" +")
VIEWS = ("tags",)


def _text(path: Any, role: str) -> str:
    text, name = read_text(path, role)
    if not text.strip():
        raise FormatError("the file is empty; expected tagged sentences", path=name)
    return text


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [x[:-1] if x.endswith("\r") else x for x in lines]


def _layout(path: Any, lines: list[str], layout: str | None, sep: str) -> str:
    if layout is not None:
        if layout not in ("conll", "conllu", "text"):
            raise InputError(f"unknown layout {layout!r}; choose 'conll', 'conllu' or 'text'")
        return layout
    name = str(path)
    if name.endswith(".conllu") or name.endswith(".conllu.gz"):
        return "conllu"
    for line in lines:
        f = line.split()
        if f and not line.startswith("#"):
            if "\t" not in line and all(0 < t.rfind(sep) < len(t) - len(sep) for t in f):
                return "text"
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].split("-")[0].split(".")[0].isdigit():
                return "conllu"  # CoNLL-U or CoNLL-X (FORM 2, UPOS/CPOSTAG 4, XPOS/POSTAG 5)
            return "conll"
    return "conll"


def _col(spec: int, n: int, what: str, path: str, line: int) -> int:
    i = spec - 1 if spec > 0 else n + spec
    if spec == 0 or not 0 <= i < n:
        raise FormatError(
            f"no column {spec} ({what}) in a line of {n} columns; a missing column, or set {what}_column",
            path=path,
            line=line,
        )
    return i


def _parse(
    path: Any,
    role: str,
    *,
    layout: str | None,
    sep: str,
    word_column: int | None,
    tag_column: int | None,
    tag: str,
) -> list[Sentence]:
    p = display(path)
    lines = _lines(_text(path, role))
    lay = _layout(path, lines, layout, sep)
    out: list[Sentence] = []
    if lay == "text":
        if not sep:
            raise InputError("sep must not be empty")
        for ln, line in enumerate(lines, 1):
            toks = line.split()
            if not toks:
                continue
            words, tags = [], []
            for t in toks:
                w, s, g = t.rpartition(sep)
                if not s or not w or not g:
                    raise FormatError(
                        f"token {shorten(t)} is not word{sep}TAG (split at the last {sep!r}); set sep= or layout=",
                        path=p,
                        line=ln,
                    )
                words.append(w)
                tags.append(g)
            out.append((ln, words, tags, [ln] * len(words)))
        return out
    if lay == "conllu":
        wc = 2 if word_column is None else word_column
        if tag_column is not None:
            tc = tag_column
        elif tag.lower() in ("upos", "xpos"):
            tc = 4 if tag.lower() == "upos" else 5
        else:
            raise InputError(f"tag must be 'upos' or 'xpos', got {tag!r}")
        split = None
    else:
        wc = 1 if word_column is None else word_column
        tc = -1 if tag_column is None else tag_column
        first = next((x for x in lines if x.strip()), "")
        split = "\t" if "\t" in first else " "
    words: list[str] = []
    tags: list[str] = []
    lnos: list[int] = []
    width = None
    for ln, line in enumerate(lines + [""], 1):
        if not line.strip():
            if words:
                out.append((lnos[0], words, tags, lnos))
                words, tags, lnos = [], [], []
            continue
        if lay == "conllu":
            if line.startswith("#") and not words:
                continue
            f = line.split("\t")
            if len(f) != 10:
                raise FormatError(f"{len(f)} TAB-separated columns; CoNLL-U needs 10", path=p, line=ln)
            if "-" in f[0] or "." in f[0]:
                continue
        else:
            f = line.split("\t") if split == "\t" else _SPACES.split(line.strip(" "))
            if width is None:
                width = len(f)
            elif len(f) != width:
                raise FormatError(
                    f"{len(f)} columns where the first line has {width}; a missing column?", path=p, line=ln
                )
        n = len(f)
        w, t = f[_col(wc, n, "word", p, ln)], f[_col(tc, n, "tag", p, ln)]
        words.append(w)
        tags.append(t)
        lnos.append(ln)
    if not out:
        raise FormatError("the file holds no tokens", path=p)
    return out


def score_pos(
    gold: Any,
    system: Any,
    *,
    layout: str | None = None,
    sep: str = "_",
    word_column: int | None = None,
    tag_column: int | None = None,
    tag: str = "upos",
    train: Any = None,
    train_layout: str | None = None,
) -> ScoreReport:
    """Token, sentence and OOV accuracy of a POS tagger's output against gold tags."""
    opts = dict(layout=layout, sep=sep, word_column=word_column, tag_column=tag_column, tag=tag)
    gp, sp = display(gold), display(system)
    gs, ss = _parse(gold, "gold", **opts), _parse(system, "system", **opts)
    vocab: set[str] | None = None
    if train is not None:
        vocab = {w for _, words, _, _ in _parse(train, "training", **{**opts, "layout": train_layout}) for w in words}
    for i, (g, s) in enumerate(zip(gs, ss)):
        if len(g[1]) != len(s[1]):
            raise FormatError(
                f"sentence {i + 1} has {len(s[1])} tokens but {len(g[1])} in the gold file (line {g[0]}); "
                "both files must hold the same sentences and tokens",
                path=sp,
                line=s[0],
            )
        for k, (gw, sw) in enumerate(zip(g[1], s[1])):
            if gw != sw:
                raise FormatError(
                    f"token {shorten(sw)} where the gold file (line {g[3][k]}) has {shorten(gw)} (sentence {i + 1}, "
                    f"token {k + 1}); the system must keep the gold tokens",
                    path=sp,
                    line=s[3][k],
                )
    if len(gs) != len(ss):
        longer, path, k = ("gold", gp, gs) if len(gs) > len(ss) else ("system", sp, ss)
        raise FormatError(
            f"the gold file has {len(gs)} sentences and the system file {len(ss)}; the {longer} file goes on "
            f"with sentence {min(len(gs), len(ss)) + 1} here",
            path=path,
            line=k[min(len(gs), len(ss))][0],
        )
    rows = []
    for g, s in zip(gs, ss):
        ok = [a == b for a, b in zip(g[2], s[2])]
        c = sum(ok)
        if vocab is not None:
            oov = [w not in vocab for w in g[1]]
            co, no = sum(1 for o, k in zip(oov, ok) if o and k), sum(oov)
        else:
            co = no = 0
        rows.append((c, len(ok), int(c == len(ok)), 1, co, no))
    # per sentence: (correct, tokens) of each statistic, in these columns of ``rows``
    columns = {"accuracy": [0, 1], "sentence_accuracy": [2, 3]}
    if vocab is not None:
        columns["oov_accuracy"] = [4, 5]
    n = len(rows)
    t = [sum(col) for col in zip(*rows)] if rows else [0] * 6
    accuracy = _get_metric("accuracy")
    scores = {k: accuracy.score_rows([[t[i] for i in c]], n)[0] for k, c in columns.items()}
    text = (
        f"tokens: {t[1]}; sentences: {n}\n"
        f"token accuracy: {100 * t[0] / t[1]:6.2f}% ({t[0]}/{t[1]})\n"
        f"sentence accuracy: {100 * t[2] / n:6.2f}% ({t[2]}/{n})\n"
    )
    if vocab is not None:
        oov_pct = f"{100 * t[4] / t[5]:6.2f}%" if t[5] else "   n/a"
        text += f"OOV accuracy: {oov_pct} ({t[4]}/{t[5]} tokens unseen in {display(train)})\n"
    return ScoreReport(
        "pos",
        gp,
        sp,
        text,
        scores,
        LazyStats(list(columns), lambda: _item_stats(rows, columns)),
        "accuracy",
        tuple(f"line {s[0]}" for s in ss),
        views=VIEWS,
        unit_source=lambda view: _units(gs, ss, view),
    )


def _item_stats(rows: list[tuple[int, ...]], columns: dict[str, list[int]]) -> dict[str, ItemStats]:
    """Each statistic's per-sentence (correct, total), from the rows the report summed."""
    import numpy as np

    v = np.array(rows, np.int64).reshape(len(rows), 6)
    return {k: ItemStats("accuracy", ("correct", "total"), v[:, c].copy()) for k, c in columns.items()}


def _units(gold: list[Sentence], system: list[Sentence], view: str) -> UnitTable:
    """One unit per gold token: its gold and system tags, as the accuracy compared them."""
    import numpy as np

    if view != "tags":  # pragma: no cover - ScoreReport.units checks the view
        raise InputError(f"format 'pos' has no view {view!r}")
    lengths = [len(g[1]) for g in gold]
    return UnitTable(
        view="tags",
        gold=np.array([t for g in gold for t in g[2]], dtype=object),
        system=np.array([t for s in system for t in s[2]], dtype=object),
        sentence=np.repeat(np.arange(len(gold), dtype=np.int64), lengths),
        forms=tuple(w for g in gold for w in g[1]),
        n_sentences=len(gold),
    )


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="token, sentence and unseen-word accuracy (Gorman & Bedrick 2019)",
    checked="hand counts",
    speed="—",
)


SPECS = (
    FormatSpec(
        name="pos",
        readme=README_ROW,
        description="part-of-speech tags: token, sentence and unseen-word accuracy",
        reference="token accuracy (Gorman & Bedrick 2019)",
        score=score_pos,
        options=(
            Option(
                "layout",
                str,
                None,
                "conllu, conll (columns) or text (word_TAG)",
                choices=("conllu", "conll", "text"),
                nullable=True,
            ),
            Option("sep", str, "_", "text layout: word/tag separator (split at the last one)"),
            Option("word_column", int, None, "word column (1-based; negative from the end)", nullable=True),
            Option("tag_column", int, None, "tag column (1-based; negative from the end)", nullable=True),
            Option("tag", str, "upos", "CoNLL-U: UPOS or XPOS", choices=("upos", "xpos")),
            Option("train", "path", None, "training file: accuracy on words it never has (OOV)", nullable=True),
            Option(
                "train_layout",
                str,
                None,
                "layout of the training file",
                choices=("conllu", "conll", "text"),
                nullable=True,
            ),
        ),
        aliases=("tags", "tagging"),
        views=VIEWS,
        metrics=("accuracy", "sentence_accuracy", "oov_accuracy"),
        split_unit="sentence",
    ),
)
