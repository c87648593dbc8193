"""What every format reader returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ItemStats", "ScoreReport"]


@dataclass(frozen=True)
class ItemStats:
    """Per-item sufficient statistics of one system for one metric.

    ``values`` has shape (items, len(stat_names)); items are sentences,
    segments or documents, in file order. ``metric`` is a name understood by
    :func:`sigfast.metrics.get` with ``metric_params``, and summing ``values``
    over all items and applying the metric gives the corpus score exactly.
    """

    metric: str
    stat_names: tuple[str, ...]
    values: np.ndarray
    metric_params: dict[str, Any] = field(default_factory=dict)
    counts: bool = True


@dataclass(frozen=True)
class ScoreReport:
    """One system file scored against gold, as the reference scorer does.

    ``text`` is the report printed exactly as the reference scorer prints it
    (same numbers, precision and rounding); ``scores`` maps metric names to
    unrounded corpus values; ``stats`` maps the same names to per-item
    statistics; ``default_metric`` is the headline metric (e.g. ``"las"``).
    """

    format: str
    gold: str
    system: str
    text: str
    scores: dict[str, float]
    stats: dict[str, ItemStats]
    default_metric: str
    item_ids: tuple[str, ...] | None = None


def display(path: str | Path | Any) -> str:
    return str(path)
