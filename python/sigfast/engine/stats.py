"""Per-item sufficient statistics of one or more systems on one test set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._api import checked_methods
from ..exceptions import InputError

__all__ = ["PER_ITEM", "Statistics"]

#: Provenance entries that hold one entry per item (cluster keys; per-sample values by system).
PER_ITEM = ("clusters", "samples")


def _as_float_array(a: Any, what: str) -> np.ndarray:
    try:
        arr = np.asarray(a)
    except Exception as e:  # pragma: no cover - numpy's own message is kept
        raise InputError(f"{what}: cannot be read as an array ({e})") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise InputError(f"{what}: expected numbers, got an array of dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise InputError(f"{what}: complex numbers are not statistics")
    return arr.astype(np.float64, copy=False)


def _check_finite(arr: np.ndarray, what: str, systems: Sequence[str] | None = None) -> None:
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = _where(idx, systems)
        raise InputError(f"{what}: value {arr[idx]} at {where} is not finite; remove or fix that item")


def _check_sums(arr: np.ndarray, systems: Sequence[str]) -> None:
    """Sums over items must stay finite: |value| x items below the float64 maximum."""
    n = arr.shape[1]
    mag = np.abs(arr)
    if float(mag.max()) * n <= np.finfo(np.float64).max:
        return
    idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(mag)), arr.shape))
    raise InputError(
        f"statistics: value {arr[idx]:g} at {_where(idx, systems)} is so large that sums of {n} items "
        f"overflow float64; rescale the values (magnitudes must stay below {np.finfo(np.float64).max / n:.3g})"
    )


def _where(idx: tuple[int, ...], systems: Sequence[str] | None) -> str:
    if len(idx) == 3:
        s = systems[idx[0]] if systems else str(idx[0])
        return f"system {s!r}, item {idx[1]}, statistic {idx[2]}"
    return ", ".join(f"axis {a} index {i}" for a, i in enumerate(idx))


@checked_methods
@dataclass(frozen=True, eq=False)
class Statistics:
    """Sufficient statistics: ``values[s, i, k]`` is statistic ``k`` of item ``i`` for system ``s``.

    Build one with :meth:`from_scores` (one number per item, e.g. sentence
    accuracy or a learned metric's score), :meth:`from_counts` (e.g. correct,
    guessed and gold counts per sentence for F1) or a file reader
    (:func:`sigfast.read`). The array is float64, C-contiguous and read-only.
    """

    values: np.ndarray
    systems: tuple[str, ...]
    stat_names: tuple[str, ...]
    metric: str | None = None
    counts: bool = False
    item_ids: tuple[str, ...] | None = None
    source: str | None = None
    metric_params: Mapping[str, Any] = field(default_factory=dict)
    metric_label: str | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        v = _as_float_array(self.values, "statistics")
        if v.ndim != 3:
            raise InputError(
                f"statistics must have shape (systems, items, statistics); got {v.ndim} dimensions {v.shape}"
            )
        s, n, k = v.shape
        if s == 0:
            raise InputError("statistics hold no systems")
        if n == 0:
            raise InputError("statistics hold zero items; an empty test set cannot be tested")
        if k == 0:
            raise InputError("statistics hold zero statistics per item")
        if len(self.systems) != s:
            raise InputError(f"{len(self.systems)} system names for {s} systems")
        if len(set(self.systems)) != s:
            raise InputError(f"system names must be unique: {list(self.systems)}")
        if len(self.stat_names) != k:
            raise InputError(f"{len(self.stat_names)} statistic names for {k} statistics")
        _check_finite(v, "statistics", self.systems)
        _check_sums(v, self.systems)
        if self.counts and (v < 0).any():
            idx = tuple(int(i) for i in np.argwhere(v < 0)[0])
            raise InputError(f"statistics: negative count {v[idx]} at {_where(idx, self.systems)}; counts must be >= 0")
        if self.item_ids is not None and len(self.item_ids) != n:
            raise InputError(f"{len(self.item_ids)} item ids for {n} items")
        v = np.ascontiguousarray(v)
        if v is self.values and v.flags.writeable:
            v = v.copy()
        v.flags.writeable = False
        object.__setattr__(self, "values", v)
        object.__setattr__(self, "systems", tuple(str(x) for x in self.systems))
        object.__setattr__(self, "stat_names", tuple(str(x) for x in self.stat_names))
        object.__setattr__(self, "metric_params", dict(self.metric_params))
        object.__setattr__(self, "provenance", dict(self.provenance))

    # ------------------------------------------------------------------ build
    @classmethod
    def from_scores(
        cls,
        scores: Mapping[str, Any] | Sequence[Any] | np.ndarray,
        *,
        systems: Sequence[str] | None = None,
        higher_is_better: bool = True,
        item_ids: Sequence[str] | None = None,
        source: str | None = None,
        metric: str | None = None,
        reference: Any = None,
    ) -> Statistics:
        """One score per item and system; the metric is their mean unless ``metric``
        names an item-level statistic (``"median"``, ``"quantile"``, ...).

        ``scores`` is a mapping ``name -> 1-D array``, or a 2-D array
        ``(systems, items)``, or a sequence of 1-D arrays. ``reference`` (one number
        per item, e.g. human judgements) is stored beside each system's scores as a
        second statistic, for the statistics against a reference (``metric="pearson"``,
        ``"spearman"``, ``"kendall_b"``, ``"tau_like"``, ``"auc"``, ...).
        """
        names, arrays = _split_named(scores, systems)
        rows = []
        for name, a in zip(names, arrays):
            arr = _as_float_array(a, f"scores of {name!r}")
            if arr.ndim != 1:
                raise InputError(f"scores of {name!r} must be one number per item (1-D); got shape {arr.shape}")
            rows.append(arr)
        _same_length(names, [len(r) for r in rows])
        values = np.stack(rows)[:, :, None]
        stat_names: tuple[str, ...] = ("score",)
        if reference is not None:
            if metric is None:
                raise InputError("reference= needs metric= naming a statistic against a reference, e.g. 'pearson'")
            ref = _as_float_array(reference, "reference")
            if ref.ndim != 1 or len(ref) != values.shape[1]:
                raise InputError(f"reference must be one number per item ({values.shape[1]}); got shape {ref.shape}")
            values = np.concatenate([values, np.broadcast_to(ref[None, :, None], values.shape)], axis=2)
            stat_names = ("score", "reference")
        return cls(
            values,
            tuple(names),
            stat_names,
            metric=metric or "mean",
            item_ids=None if item_ids is None else tuple(item_ids),
            source=source,
            metric_params={"higher_is_better": higher_is_better} if metric in (None, "mean") else {},
        )

    @classmethod
    def from_counts(
        cls,
        counts: Mapping[str, Any] | Sequence[Any] | np.ndarray,
        *,
        stat_names: Sequence[str],
        metric: str | None = None,
        systems: Sequence[str] | None = None,
        item_ids: Sequence[str] | None = None,
        source: str | None = None,
        metric_params: Mapping[str, Any] | None = None,
        metric_label: str | None = None,
        provenance: Mapping[str, Any] | None = None,
    ) -> Statistics:
        """Non-negative per-item counts, e.g. ``stat_names=("tp", "guessed", "gold")``.

        ``counts`` is a mapping ``name -> (items, statistics)``, a 3-D array
        ``(systems, items, statistics)``, or a sequence of 2-D arrays.
        """
        names, arrays = _split_named(counts, systems)
        mats = []
        for name, a in zip(names, arrays):
            arr = _as_float_array(a, f"counts of {name!r}")
            if arr.ndim == 1 and len(stat_names) == 1:
                arr = arr[:, None]
            if arr.ndim != 2:
                raise InputError(f"counts of {name!r} must be (items, statistics); got shape {arr.shape}")
            if arr.shape[1] != len(stat_names):
                raise InputError(
                    f"counts of {name!r} have {arr.shape[1]} statistics per item; "
                    f"stat_names names {len(stat_names)}: {list(stat_names)}"
                )
            mats.append(arr)
        _same_length(names, [m.shape[0] for m in mats])
        return cls(
            np.stack(mats),
            tuple(names),
            tuple(stat_names),
            metric=metric,
            counts=True,
            item_ids=None if item_ids is None else tuple(item_ids),
            source=source,
            metric_params=metric_params or {},
            metric_label=metric_label,
            provenance=provenance or {},
        )

    # ------------------------------------------------------------------ views
    @property
    def n_systems(self) -> int:
        return int(self.values.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.values.shape[1])

    @property
    def n_stats(self) -> int:
        return int(self.values.shape[2])

    def index(self, system: str | int) -> int:
        """Position of a system given by name or index."""
        if isinstance(system, (int, np.integer)):
            i = int(system)
            if not -self.n_systems <= i < self.n_systems:
                raise InputError(f"system index {i} out of range for {self.n_systems} systems")
            return i % self.n_systems
        try:
            return self.systems.index(system)
        except ValueError:
            raise InputError(f"no system named {system!r}; systems are {list(self.systems)}") from None

    def select(self, *systems: str | int) -> Statistics:
        """The statistics of the given systems, in that order."""
        idx = [self.index(s) for s in systems]
        return self.replace(values=self.values[idx], systems=tuple(self.systems[i] for i in idx))

    def replace(self, **changes: Any) -> Statistics:
        """A copy with some fields changed (``values``, ``systems``, ``item_ids``, ...), checked anew.

        Per-item provenance (cluster keys, per-sample values: :data:`PER_ITEM`) describes the
        items it was read with: when ``values`` holds another number of items or ``item_ids``
        change, it is dropped (and its names kept in ``provenance["stale"]``, so that a clustered
        test asks for the new items' clusters instead of resampling items unawares); :meth:`take`
        keeps it with the items."""
        from dataclasses import replace

        if "provenance" not in changes and any(k in self.provenance for k in PER_ITEM):
            n = np.shape(changes["values"])[1] if "values" in changes and np.ndim(changes["values"]) == 3 else None
            ids_changed = "item_ids" in changes and changes["item_ids"] != self.item_ids
            if (n is not None and n != self.n_items) or ids_changed:
                prov = {k: v for k, v in self.provenance.items() if k not in PER_ITEM}
                prov["stale"] = tuple(k for k in PER_ITEM if k in self.provenance)
                changes["provenance"] = prov
        return replace(self, **changes)

    def take(self, idx: Any) -> Statistics:
        """The statistics of the items at ``idx`` (indices, repeats allowed), in that order, with
        their ids and their per-item provenance (cluster keys, per-sample values)."""
        idx = np.asarray(idx, dtype=np.int64)
        if idx.ndim != 1 or idx.size == 0:
            raise InputError("an item subset must be a non-empty 1-D list of indices")
        if idx.min() < -self.n_items or idx.max() >= self.n_items:
            raise InputError(f"item index out of range for {self.n_items} items")
        idx = idx % self.n_items
        prov = dict(self.provenance)
        if "clusters" in prov:
            keys = prov["clusters"]
            prov["clusters"] = tuple(keys[i] for i in idx)
        if "samples" in prov:
            prov["samples"] = {k: np.asarray(v)[idx] for k, v in prov["samples"].items()}
        ids = None if self.item_ids is None else tuple(self.item_ids[i] for i in idx)
        from dataclasses import replace

        return replace(self, values=np.ascontiguousarray(self.values[:, idx, :]), item_ids=ids, provenance=prov)

    def totals(self) -> np.ndarray:
        """Column sums per system, summed in item order: shape (systems, statistics)."""
        return np.cumsum(self.values, axis=1)[:, -1, :]

    def scores(self, metric: Any = None, **params: Any) -> dict[str, float]:
        """Each system's corpus-level metric on the summed statistics (an item statistic such as
        ``"median"`` or ``"pearson"``: on each system's items)."""
        from ..metrics import observed, resolve_metric

        m = resolve_metric(metric, self, **params)
        return {name: float(v) for name, v in zip(self.systems, observed(m, self))}

    def __repr__(self) -> str:
        return (
            f"Statistics(systems={list(self.systems)}, items={self.n_items}, "
            f"stats={list(self.stat_names)}, metric={self.metric!r})"
        )


def _split_named(data: Any, systems: Sequence[str] | None) -> tuple[list[str], list[Any]]:
    if hasattr(data, "columns") and hasattr(data, "to_numpy") and not isinstance(data, Mapping):
        # a pandas DataFrame: one column per system, named by its columns
        data = {str(c): data[c].to_numpy() for c in data.columns}
    if isinstance(data, Mapping):
        names = [str(k) for k in data.keys()]
        arrays = list(data.values())
        if systems is not None and list(systems) != names:
            raise InputError("give system names either as mapping keys or as systems=, not both")
    else:
        arrays = list(data)
        if systems is None:  # pandas Series keep their names
            from .._api import series_name

            given = [series_name(a) for a in arrays]
            names = (
                given if all(given) and len(set(given)) == len(given) else [f"system{i}" for i in range(len(arrays))]
            )
        else:
            names = list(systems)
        if len(names) != len(arrays):
            raise InputError(f"{len(names)} system names for {len(arrays)} systems")
    if not arrays:
        raise InputError("no systems given")
    return names, arrays


def _same_length(names: Sequence[str], lengths: Sequence[int]) -> None:
    if len(set(lengths)) > 1:
        detail = ", ".join(f"{n!r}: {k}" for n, k in zip(names, lengths))
        raise InputError(f"systems have different numbers of items ({detail}); a paired test needs the same items")
