"""The rows of an evaluation design for the engine (:mod:`sigfast.designs` documents the designs): a
:class:`Design` (one row per observation, every system's score side by side, so that resamples are paired
across systems) made from the samples the readers keep, and the check that a metric is the mean the
two-level and crossed schemes resample. Below the engine (:mod:`sigfast.executor` and
:mod:`sigfast.resampling` read it); :mod:`sigfast.designs` re-exports it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InputError

__all__ = ["DESIGNS", "Design", "check_design_metric", "design_of"]

#: The design schemes (``resampling=`` values) of :mod:`sigfast.designs`.
DESIGNS = ("two-level", "crossed")


@dataclass(frozen=True, eq=False)
class Design:
    """One row per observation: ``table`` (rows × systems, each system's score), ``items`` (the
    row's item code, ``0 .. n_items-1``), ``second`` (its repeat, run or prompt code) and what the
    second level is (``field``)."""

    kind: str
    table: np.ndarray
    items: np.ndarray
    second: np.ndarray
    field: str
    n_items: int
    #: the most repeats of an item (two-level) or the number of prompts (crossed)
    n_second: int

    @property
    def n_rows(self) -> int:
        return int(self.table.shape[0])

    @property
    def label(self) -> str:
        """``two-level(G,K,field)`` or ``crossed(G,P,field)``: how results and signatures name the scheme."""
        from ..results.signature import Part, _value

        return Part(f"{self.kind}({self.n_items},{self.n_second},{_value(self.field)})")

    @property
    def digest(self) -> str:
        """A hash of the rows, their codes and the scheme (the signature's ``design`` field)."""
        from ..results.signature import hash_data

        return hash_data(self.kind, self.table, self.items, self.second)


def _samples(stats: Any, systems: Sequence[str], kind: str) -> tuple[list[np.ndarray], Mapping[str, Any]]:
    prov: Mapping[str, Any] = getattr(stats, "provenance", None) or {}
    samples = prov.get("samples")
    if not samples:
        raise InputError(
            f"resampling={kind!r} needs each item's observations, and these statistics hold one value per item: "
            "read logs with repeats (lm-eval repeats, Inspect epochs, HELM trials), or records with -o sample=, "
            "-o run= or -o prompt="
        )
    reducer = prov.get("sample_reducer", "mean")
    if reducer != "mean":
        raise InputError(
            f"resampling={kind!r} resamples the mean of an item's observations, but these items' values are their "
            f"{reducer}; read them with -o reducer=mean"
        )
    missing = [s for s in systems if s not in samples]
    if missing:
        raise InputError(f"no per-sample values of system {missing[0]!r} (its log has one value per item)")
    mats = [np.asarray(samples[s], dtype=np.float64) for s in systems]
    if any(m.shape[0] != stats.n_items for m in mats):
        raise InputError(
            "the per-sample values do not fit these items (the statistics were cut after reading): read the logs "
            "again for the items you test"
        )
    return mats, prov


def design_of(stats: Any, kind: str) -> Design:
    """The :class:`Design` of a :class:`~sigfast.Statistics` read with per-sample values, for ``kind``
    ``"two-level"`` or ``"crossed"``; every system must have the same observations of every item."""
    if kind not in DESIGNS:
        raise InputError(f"a design is one of {DESIGNS}, got {kind!r}")
    systems = tuple(stats.systems)
    mats, prov = _samples(stats, systems, kind)
    shape = mats[0].shape
    present = ~np.isnan(mats[0])
    ids = getattr(stats, "item_ids", None)

    def name(i: int) -> str:
        return f"item {ids[i]!r}" if ids is not None and len(ids) == shape[0] else f"item {i}"

    for s, m in zip(systems[1:], mats[1:]):
        if m.shape != shape or not np.array_equal(~np.isnan(m), present):
            bad = 0
            if m.shape[0] == shape[0]:
                k0, k1 = present.sum(axis=1), (~np.isnan(m)).sum(axis=1)
                bad = int(np.flatnonzero(k0 != k1)[0]) if (k0 != k1).any() else 0
            raise InputError(
                f"system {s!r} has other observations of {name(bad)} than {systems[0]!r}: the {kind} bootstrap pairs "
                "the systems' observations, so every system needs the same samples (or prompts) of every item"
            )
    if (present.sum(axis=1) == 0).any():
        raise InputError(f"{name(int(np.flatnonzero(present.sum(axis=1) == 0)[0]))} has no observation")
    axis = str(prov.get("sample_axis") or "")
    if kind == "crossed":
        if axis not in ("prompt", "run"):
            raise InputError(
                "resampling='crossed' crosses items with prompts (or training runs) that are the same for every item: "
                "read records with -o prompt=FIELD (or -o run=FIELD); repeats and epochs are numbered within each "
                "item only, so use resampling='two-level' for them"
            )
        if not present.all():
            i, j = (int(v[0]) for v in np.nonzero(~present))
            keys = prov.get("sample_keys") or ()
            p = keys[j] if j < len(keys) else j
            raise InputError(
                f"the crossed bootstrap needs every item under every {axis}: {name(i)} has no {axis} {p!r}; test the "
                f"items that have every {axis}, or use resampling='two-level'"
            )
    rows_i, rows_j = np.nonzero(present)  # item-major, columns in order
    table = np.ascontiguousarray(np.column_stack([m[present] for m in mats]))
    field = str(prov.get("sample_field") or {"prompt": "prompts", "run": "runs"}.get(axis, "samples"))
    if kind == "two-level" and not axis:
        field = str(prov.get("sample_kind") or "samples")
    return Design(
        kind=kind,
        table=table,
        items=np.ascontiguousarray(rows_i.astype(np.uint32)),
        second=np.ascontiguousarray(rows_j.astype(np.uint32)),
        field=field,
        n_items=int(shape[0]),
        n_second=int(present.sum(axis=1).max()) if kind == "two-level" else int(shape[1]),
    )


def check_design_metric(design: Design, stats: Any, m: Any) -> None:
    """The design schemes resample a mean of per-observation scores: the metric must be native, of one
    statistic, and score the items' values as their mean (checked on the observed scores)."""
    if m.native is None or m.on_items or m.n_stats != 1:
        raise InputError(
            f"resampling={design.kind!r} resamples the mean of per-sample scores; {m.name} is not such a mean "
            "(use a mean metric, or resampling='items')"
        )
    from ..metrics import observed

    obs = np.asarray(observed(m, stats), dtype=np.float64)
    mean_of_means = np.array(
        [
            float(np.mean(np.bincount(design.items, design.table[:, s]) / np.bincount(design.items)))
            for s in range(design.table.shape[1])
        ]
    )
    if not np.allclose(obs, mean_of_means, rtol=1e-9, atol=1e-12):
        raise InputError(
            f"resampling={design.kind!r} resamples the mean of per-sample scores, but {m.name} of these items "
            f"({obs.tolist()}) is not the mean of their samples' means ({mean_of_means.tolist()}); use a mean metric"
        )
