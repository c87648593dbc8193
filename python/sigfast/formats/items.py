"""Files of per-item values: one score, or one row of statistics, per item.

``tsv``
    One item per line, one or more numbers separated by tabs or spaces; an
    optional first line of names; lines starting with ``#`` are comments.
``jsonl``
    One JSON value per line: a number, a list of numbers, or an object
    (``{"score": 0.5}`` or named statistics ``{"tp": 3, "guessed": 4, "gold": 5}``).
``npy``
    A 1-D or 2-D numeric NumPy array.

These formats take no gold file and have no reference scorer, report or
units: their one view is the statistics, with the metric chosen by the
caller (default: the mean of one value per item). Reading is
:func:`sigfast.io.read_items`.
"""

from __future__ import annotations

from typing import Any

from ._base import FormatSpec, ItemStats, ScoreReport, display

__all__ = ["SPECS"]


def _scorer(fmt: str) -> Any:
    def score(gold: Any, system: Any) -> ScoreReport:
        from ..io import read_items

        values, names = read_items(system, fmt)
        k = values.shape[1]
        stat_names = names or tuple(f"s{i}" for i in range(k))
        stats = {"values": ItemStats(None, stat_names, values, counts=False)}
        return ScoreReport(
            format=fmt,
            gold="",
            system=display(system),
            text="",
            scores={},
            stats=stats,
            default_metric="values",
        )

    score.__name__ = f"score_{fmt}"
    return score


def _is_jsonl(head: list[str]) -> bool:
    lines = [ln.strip() for ln in head if ln.strip()]
    return bool(lines) and all(ln[:1] in "{[" for ln in lines[:5])


_COMMON = dict(reference="none (per-item values)", needs_gold=False, metrics=("values",))

SPECS = (
    FormatSpec(
        name="tsv",
        description="per-item scores or statistics, one item per line (tab or space separated)",
        score=_scorer("tsv"),
        extensions=(".tsv",),
        **_COMMON,  # type: ignore[arg-type]
    ),
    FormatSpec(
        name="jsonl",
        description="per-item scores or statistics, one JSON value per line",
        score=_scorer("jsonl"),
        aliases=("json",),
        extensions=(".jsonl", ".json"),
        detect=_is_jsonl,
        **_COMMON,  # type: ignore[arg-type]
    ),
    FormatSpec(
        name="npy",
        description="per-item scores or statistics as a 1-D or 2-D NumPy array",
        score=_scorer("npy"),
        extensions=(".npy",),
        split_unit=None,
        **_COMMON,  # type: ignore[arg-type]
    ),
)
