"""Summaries scored like rouge-score 0.1.2: ROUGE-N, ROUGE-L and ROUGE-Lsum per document.

Format ``"rouge"``: plain UTF-8 text, one document (summary) per line;
``gold`` is one reference file or a list of reference files, line-aligned
with the system file (lines are split on ``"\\n"`` only).

Per document, exactly as ``rouge_score.rouge_scorer.RougeScorer(types,
use_stemmer=False).score(target, prediction)`` computes it:

* tokens: the line lowercased with Python's ``str.lower()``, every run of
  characters outside ``[a-z0-9]`` turned into a space, split (so non-ASCII
  letters vanish); with ``use_stemmer=True`` every token longer than three
  characters replaced by its stem from NLTK's Porter stemmer (default mode),
  reimplemented in Rust and checked against NLTK;
* ROUGE-N: clipped n-gram overlap; P = overlap / max(prediction n-grams, 1),
  R = overlap / max(target n-grams, 1), F = 2PR / (P + R) (0 when P + R = 0);
* ROUGE-L: longest common subsequence over the whole token sequences (0 when
  either side has no tokens);
* ROUGE-Lsum: summary-level LCS over sentences (rouge-score splits the texts
  at newlines; here, at ``sentence_sep``, see below): for each reference
  sentence the union of its LCS with every system sentence, each token
  counted at most as often as it occurs on both sides;
* several references: per ROUGE type the reference with the highest F
  (the first one on ties), as ``score_multi`` does; its P and R are kept.

Options: ``rouge_types=("rouge1", "rouge2", "rougeL")`` (the types
rouge-score knows: ``rouge1`` to ``rouge9``, ``rougeL`` and ``rougeLsum``;
any other is an error, as in rouge-score); ``use_stemmer=False``;
``sentence_sep=None``: a string that separates sentences inside a line (e.g.
``"<n>"``); it is replaced by a newline in every document before scoring, as
if the document had been given to rouge-score with newlines between its
sentences. Without it each document is one sentence, and ``rougeLsum``
equals ``rougeL``.

Tokenizing, stemming and scoring run in Rust (``sigfast._native``).

Statistics: for each type ``T``, ``stats[T]`` is the per-document F-measure
with metric ``mean``; ``stats[T + "_precision"]`` and ``stats[T +
"_recall"]`` likewise. Corpus values are the means over documents.

``ScoreReport.text``: rouge-score has no deterministic corpus report (its
aggregator bootstraps without a seed), so the text is one line per type,
``rouge1: precision = 0.412345 recall = ... fmeasure = ...``, with the
means over documents to six decimals.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..exceptions import InputError
from ..metrics import get as get_metric
from ._base import FormatSpec, ItemStats, Option, ReadmeRow, ScoreReport, display
from .mt import _paths, read_aligned

__all__ = ["SPECS", "rouge_tokens", "score_rouge"]

_WORD = re.compile(r"[a-z0-9]+")
# rouge-score's own rule (``re.match(r"rouge[0-9]$", ...)`` and n > 0): rouge1 ... rouge9; it raises
# "Invalid rouge type" for rouge10 and beyond, and "rougen requires positive n" for rouge0
_TYPE = re.compile(r"rouge([1-9])\Z")


def rouge_tokens(text: str) -> list[str]:
    """rouge-score's default tokenization without stemming."""
    return _WORD.findall(text.lower())


def _parse_types(rouge_types: Any) -> list[tuple[str, int]]:
    types = [t.strip() for t in rouge_types.split(",")] if isinstance(rouge_types, str) else list(rouge_types)
    if not types:
        raise InputError("no ROUGE type requested; use e.g. rouge_types=('rouge1', 'rouge2', 'rougeL')")
    out = []
    for t in dict.fromkeys(types):
        if t in ("rougeL", "rougeLsum"):
            out.append((t, 0))
            continue
        m = _TYPE.match(str(t))
        if not m:
            raise InputError(
                f"unknown ROUGE type {str(t)[:40]!r}; rouge-score knows rouge1 to rouge9, rougeL and rougeLsum "
                "(it refuses any other with 'Invalid rouge type')"
            )
        out.append((t, int(m.group(1))))
    return out


def score_rouge(
    gold: Any,
    system: Any,
    *,
    rouge_types: str | Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    use_stemmer: bool = False,
    sentence_sep: str | None = None,
) -> ScoreReport:
    """Score one system file against one or more reference files like rouge-score."""
    types = _parse_types(rouge_types)
    if sentence_sep is not None and (not isinstance(sentence_sep, str) or not sentence_sep):
        raise InputError(f"sentence_sep must be a non-empty string or None, got {sentence_sep!r}")
    ref_paths = _paths(gold)
    sys_name = display(system)
    preds, refs = read_aligned(system, ref_paths)
    if sentence_sep is not None:
        preds = [x.replace(sentence_sep, "\n") for x in preds]
        refs = [[x.replace(sentence_sep, "\n") for x in r] for r in refs]

    from .. import _native

    n_docs = len(preds)
    # documents × types × (precision, recall, F)
    prf = _native.rouge_scores(preds, refs, [t for t, _ in types], bool(use_stemmer))

    met = get_metric("mean")
    scores: dict[str, float] = {}
    stats: dict[str, ItemStats] = {}
    lines = []
    for j, (t, _) in enumerate(types):
        vals = {}
        for q, suffix in ((2, ""), (0, "_precision"), (1, "_recall")):
            v = np.ascontiguousarray(prf[:, j, q : q + 1])
            key = t + suffix
            stats[key] = ItemStats(metric="mean", stat_names=("score",), values=v, metric_params={}, counts=False)
            scores[key] = vals[q] = float(met.evaluate(v.sum(0, keepdims=True), n_docs)[0])
        lines.append(f"{t}: precision = {vals[0]:.6f} recall = {vals[1]:.6f} fmeasure = {vals[2]:.6f}\n")
    return ScoreReport(
        format="rouge",
        gold=", ".join(display(p) for p in ref_paths),
        system=sys_name,
        text="".join(lines),
        scores=scores,
        stats=stats,
        default_metric=types[0][0],
    )


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="rouge-score ROUGE-1/2/L/Lsum, Porter stemming (NLTK's), multi-reference",
    checked="identical per-document scores; stems identical to NLTK's",
    speed="see [Speed](#speed)",
)


SPECS = (
    FormatSpec(
        name="rouge",
        readme=README_ROW,
        description="summaries: one document per line, one or more reference files as gold",
        reference="rouge-score 0.1.2 (ROUGE-1/2/L/Lsum, Porter stemming)",
        score=score_rouge,
        options=(
            Option("rouge_types", (str, list, tuple), ("rouge1", "rouge2", "rougeL"), "ROUGE types (comma-separated)"),
            Option("use_stemmer", bool, False, "Porter stemming as rouge-score applies it"),
            Option(
                "sentence_sep", str, None, "separator of sentences inside a line (rougeLsum), e.g. <n>", nullable=True
            ),
        ),
        aliases=("summarization", "rouge_score"),
        split_unit="line",
        metrics=("<TYPE>", "<TYPE>_precision", "<TYPE>_recall"),
    ),
)
