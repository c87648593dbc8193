"""Summaries scored like rouge-score 0.1.2: ROUGE-N and ROUGE-L per document.

Format ``"rouge"``: plain UTF-8 text, one document (summary) per line;
``gold`` is one reference file or a list of reference files, line-aligned
with the system file (lines are split on ``"\\n"`` only).

Per document, exactly as ``rouge_score.rouge_scorer.RougeScorer(types,
use_stemmer=False).score(target, prediction)`` computes it:

* tokens: the line lowercased with Python's ``str.lower()``, every run of
  characters outside ``[a-z0-9]`` turned into a space, split (so non-ASCII
  letters vanish);
* ROUGE-N: clipped n-gram overlap; P = overlap / max(prediction n-grams, 1),
  R = overlap / max(target n-grams, 1), F = 2PR / (P + R) (0 when P + R = 0);
* ROUGE-L: longest common subsequence over the whole token sequences (0 when
  either side has no tokens);
* several references: per ROUGE type the reference with the highest F
  (the first one on ties), as ``score_multi`` does; its P and R are kept.

Options: ``rouge_types=("rouge1", "rouge2", "rougeL")`` (any ``rougeN``
with N >= 1, and ``rougeL``); ``use_stemmer=False``. Porter stemming
(``use_stemmer=True``) is refused: NLTK's stemmer is not reproduced here.

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
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..exceptions import InputError
from ..metrics import get as get_metric
from ._base import FormatSpec, ItemStats, Option, ScoreReport, display
from .mt import _paths, read_aligned

__all__ = ["SPECS", "rouge_tokens", "score_rouge"]

_WORD = re.compile(r"[a-z0-9]+")
_TYPE = re.compile(r"rouge([1-9][0-9]*)$")


def rouge_tokens(text: str) -> list[str]:
    """rouge-score's default tokenization without stemming."""
    return _WORD.findall(text.lower())


def _prf(overlap: int, n_pred: int, n_target: int) -> tuple[float, float, float]:
    p = overlap / max(n_pred, 1)
    r = overlap / max(n_target, 1)
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f


def _ngram_scores(target: list[str], pred: list[str], n: int) -> tuple[float, float, float]:
    t = Counter(zip(*(target[i:] for i in range(n))))
    p = Counter(zip(*(pred[i:] for i in range(n))))
    overlap = sum(min(c, p[g]) for g, c in t.items() if g in p)
    return _prf(overlap, sum(p.values()), sum(t.values()))


def _lcs_scores(target: list[str], pred: list[str], lcs: int) -> tuple[float, float, float]:
    if not target or not pred:
        return 0.0, 0.0, 0.0
    p = lcs / len(pred)
    r = lcs / len(target)
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f


def _parse_types(rouge_types: Any) -> list[tuple[str, int]]:
    types = [t.strip() for t in rouge_types.split(",")] if isinstance(rouge_types, str) else list(rouge_types)
    if not types:
        raise InputError("no ROUGE type requested; use e.g. rouge_types=('rouge1', 'rouge2', 'rougeL')")
    out = []
    for t in dict.fromkeys(types):
        if t == "rougeL":
            out.append((t, 0))
            continue
        m = _TYPE.match(str(t))
        if not m:
            hint = " (rougeLsum equals rougeL on one-line documents; use rougeL)" if t == "rougeLsum" else ""
            raise InputError(f"unknown ROUGE type {t!r}; use rougeN (N >= 1) or rougeL{hint}")
        out.append((t, int(m.group(1))))
    return out


def score_rouge(
    gold: Any,
    system: Any,
    *,
    rouge_types: str | Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    use_stemmer: bool = False,
) -> ScoreReport:
    """Score one system file against one or more reference files like rouge-score."""
    if use_stemmer:
        raise InputError(
            "use_stemmer=True is not supported: rouge-score stems with NLTK's Porter stemmer, which sigfast "
            "does not reproduce exactly. Score with rouge-score yourself and give sigfast the per-document "
            "scores with metric='mean', or use use_stemmer=False"
        )
    types = _parse_types(rouge_types)
    ref_paths = _paths(gold)
    sys_name = display(system)
    preds, refs = read_aligned(system, ref_paths)

    n_docs = len(preds)
    k = len(types)
    prf = np.zeros((n_docs, k, 3), dtype=np.float64)
    ref_tok = [[rouge_tokens(x) for x in r] for r in refs]
    pred_tok = [rouge_tokens(x) for x in preds]
    lcs: list[list[int]] = []
    if any(n == 0 for _, n in types):
        from .. import _native

        # tokens are [a-z0-9]+, so joining them with spaces loses nothing
        joined = [" ".join(t) for t in pred_tok]
        lcs = [_native.lcs_lengths([" ".join(t) for t in r], joined) for r in ref_tok]
    for i, pt in enumerate(pred_tok):
        for j, (_, n) in enumerate(types):
            best = None
            for k, r in enumerate(ref_tok):
                s = _lcs_scores(r[i], pt, lcs[k][i]) if n == 0 else _ngram_scores(r[i], pt, n)
                if best is None or s[2] > best[2]:
                    best = s
            prf[i, j] = best

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


SPECS = (
    FormatSpec(
        name="rouge",
        description="summaries: one document per line, one or more reference files as gold",
        reference="rouge-score 0.1.2 (ROUGE-1/2/L)",
        score=score_rouge,
        options=(
            Option("rouge_types", (str, list, tuple), ("rouge1", "rouge2", "rougeL"), "ROUGE types (comma-separated)"),
            Option("use_stemmer", bool, False, "Porter stemming as rouge-score applies it"),
        ),
        aliases=("summarization", "rouge_score"),
        metrics=("rouge1", "rouge2", "rougeL"),
    ),
)
