"""`sigfast.read`: files -> Statistics for the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ._api import checked_keywords
from .engine.stats import Statistics

__all__ = ["read"]


@checked_keywords
def read(
    gold: str | Path | Sequence[str | Path] | None,
    systems: str | Path | Sequence[str | Path] | Mapping[str, str | Path],
    *,
    format: str = "auto",
    metric: str | None = None,
    names: Sequence[str] | None = None,
    **options: Any,
) -> Statistics:
    """Score system files against gold and keep per-item statistics for one metric.

    ``format`` names a format (``sigfast.formats.available()``), including
    ``"tsv"``, ``"jsonl"`` and ``"npy"`` for files of per-item scores or
    statistics (then ``gold`` is None); ``"auto"`` (default) detects it from
    the file's extension or first lines where that is unambiguous, and
    otherwise asks for the format by name. ``systems`` is a path, a list of
    paths (``"NAME=PATH"`` names a system) or a mapping name → path; by
    default a system is named after its file (:func:`sigfast.formats.system_names`).
    ``metric`` picks one of the format's metrics (e.g. ``"las"``, ``"uas"``,
    ``"f1"``); default: its headline metric. ``options`` are the format's
    options (``sigfast info``), checked against its schema. The result's
    ``source`` holds each system's corpus score as the reference scorer
    reports it.

    This is ``sigfast.formats.parse(format, gold, systems, **options).statistics(metric)``.
    """
    from .formats import parse

    return parse(
        format, gold, systems, names=names, only_metrics=None if metric is None else [metric], **options
    ).statistics(metric)
