"""`sigfast.read`: files -> Statistics for the tests."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .exceptions import InputError
from .stats import Statistics

__all__ = ["read"]

_ITEM_FORMATS = ("tsv", "jsonl", "npy")


def _named(systems: Any) -> list[tuple[str, str]]:
    if isinstance(systems, (str, os.PathLike)):
        systems = [systems]
    if isinstance(systems, Mapping):
        return [(str(k), str(v)) for k, v in systems.items()]
    paths = [str(s) for s in systems]
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) != len(names):
        names = paths
    return list(zip(names, paths))


def read(
    gold: str | Path | Sequence[str | Path] | None,
    systems: str | Path | Sequence[str | Path] | Mapping[str, str | Path],
    *,
    format: str = "auto",
    metric: str | None = None,
    **options: Any,
) -> Statistics:
    """Score system files against gold and keep per-item statistics for one metric.

    ``format`` names a reader (``sigfast.formats.available()``), or ``"tsv"``,
    ``"jsonl"`` or ``"npy"`` for files of per-item scores/statistics (then
    ``gold`` is None); ``"auto"`` (default) detects it from the file's
    extension or first lines where that is unambiguous, and otherwise asks
    for the format by name. ``metric`` picks one of the reader's metrics (e.g.
    ``"las"``, ``"uas"``, ``"f1"``); default: the reader's headline metric.
    The result's ``source`` holds each system's corpus score as the reference
    scorer reports it.
    """
    named = _named(systems)
    if not named:
        raise InputError("no system files given")
    if format == "auto":
        from .formats import detect_format

        format = detect_format(gold if gold is not None else named[0][1])
    if format in _ITEM_FORMATS:
        from .io import read_items

        arrays = []
        stat_names = None
        for _name, path in named:
            a, nm = read_items(path, format)
            arrays.append(a)
            stat_names = stat_names or nm
        shapes = {a.shape for a in arrays}
        if len(shapes) > 1:
            raise InputError(
                "system files differ in items or columns: "
                + ", ".join(f"{n}: {a.shape}" for (n, _), a in zip(named, arrays))
            )
        k = arrays[0].shape[1]
        return Statistics(
            np.stack(arrays),
            tuple(n for n, _ in named),
            stat_names or tuple(f"s{i}" for i in range(k)),
            metric=metric or ("mean" if k == 1 else None),
            source=f"{format} files",
        )
    from .formats import get_scorer

    scorer = get_scorer(format)
    reports = [scorer(gold, path, **options) for _, path in named]
    key = metric or reports[0].default_metric
    if key not in reports[0].stats:
        raise InputError(
            f"format {format!r} has no per-item metric {key!r}; choose one of {', '.join(sorted(reports[0].stats))}"
        )
    items = [r.stats[key] for r in reports]
    lengths = {it.values.shape[0] for it in items}
    if len(lengths) != 1:
        raise InputError(
            "systems gave different numbers of items: "
            + ", ".join(f"{n}: {it.values.shape[0]}" for (n, _), it in zip(named, items))
        )
    first = items[0]
    summary = "; ".join(f"{n}: {key} = {r.scores.get(key, float('nan')):.4f}" for (n, _), r in zip(named, reports))
    return (
        Statistics.from_counts(
            {n: it.values for (n, _), it in zip(named, items)},
            stat_names=first.stat_names,
            metric=first.metric,
            item_ids=reports[0].item_ids,
            source=f"{format} {key} vs {gold}: {summary}",
            metric_params=first.metric_params,
            metric_label=key,
        )
        if first.counts
        else Statistics(
            np.stack([it.values for it in items]),
            tuple(n for n, _ in named),
            first.stat_names,
            metric=first.metric,
            item_ids=reports[0].item_ids,
            source=f"{format} {key} vs {gold}: {summary}",
            metric_params=first.metric_params,
            metric_label=key,
        )
    )
