"""Metrics on summed sufficient statistics.

Built-in metrics are computed in Rust; any other metric is a Python callable
vectorized over resamples: it receives summed statistics of shape
``(resamples, statistics)`` and returns one value per resample.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .exceptions import MetricError

__all__ = ["Metric", "available", "custom", "display_scale", "get", "observed", "specs"]


@dataclass(frozen=True)
class Metric:
    """A metric: its name, statistics layout and direction.

    ``native`` names the registry entry computed in Rust (``None`` for a
    Python callable); ``params`` are its validated parameters, defaults
    filled in; ``scale`` says how scores are shown (``"fraction"``: ×100,
    ``"points"`` and ``"plain"``: as they are).
    """

    name: str
    stat_names: tuple[str, ...]
    higher_is_better: bool
    native: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    func: Callable[[np.ndarray], np.ndarray] | None = None
    counts: bool = True
    description: str = ""
    scale: str = "plain"
    kind: str = "sums"

    @property
    def on_items(self) -> bool:
        """True for a statistic of the items themselves (median, correlations, AUC): it is
        recomputed on every resample's items instead of read off summed statistics."""
        return self.kind == "items"

    @property
    def n_stats(self) -> int:
        return len(self.stat_names)

    @property
    def display_scale(self) -> int:
        """100 for fractions shown in percent or points, 1 otherwise."""
        return 100 if self.scale == "fraction" else 1

    def evaluate(self, sums: np.ndarray, n_items: int) -> np.ndarray:
        """The metric on each row of summed statistics ``(rows, n_stats)``."""
        sums = np.ascontiguousarray(np.atleast_2d(np.asarray(sums, dtype=np.float64)))
        if self.on_items:
            raise MetricError(
                f"metric {self.name!r} is computed on the items themselves, not on summed statistics; "
                "use sigfast.metrics.observed(metric, statistics), or pass it to paired_bootstrap, "
                "permutation_test, bootstrap_interval or pairwise"
            )
        if sums.shape[1] != self.n_stats:
            raise MetricError(f"metric {self.name!r} needs {self.n_stats} statistics, got {sums.shape[1]}")
        if self.native is not None:
            from . import _native

            return np.asarray(_native.metric_scores(sums, self.native, dict(self.params), float(n_items)))
        assert self.func is not None
        out = np.asarray(self.func(sums), dtype=np.float64)
        if out.shape != (sums.shape[0],):
            raise MetricError(
                f"custom metric {self.name!r} must return one value per row: "
                f"got shape {out.shape} for {sums.shape[0]} rows"
            )
        if not np.all(np.isfinite(out)):
            raise MetricError(f"custom metric {self.name!r} returned a non-finite value")
        return out


def specs() -> list[dict[str, Any]]:
    """The metric registry, as declared once in Rust: one dict per metric with its ``name``,
    ``aliases``, ``params`` (name, type, range or choices, default, help), ``higher_is_better``,
    ``scale``, ``counts``, ``description`` and ``reference``."""
    from . import _native

    return [dict(s) for s in _native.METRICS]


def available() -> list[str]:
    """Names of the built-in metrics, aliases included."""
    return [n for s in specs() for n in [s["name"], *(a["name"] for a in s["aliases"])]]


def get(name: str, **params: Any) -> Metric:
    """A built-in metric by name, e.g. ``get("bleu", smooth="floor")``.

    Unknown names, unknown parameters and values of the wrong type or range
    raise :class:`~sigfast.exceptions.MetricError`.
    """
    from . import _native

    if not isinstance(name, str):
        raise MetricError(f"a metric name must be a string, got {name!r}")
    r = _native.metric_resolve(name, params)
    return Metric(
        name=r["label"],
        stat_names=tuple(r["stat_names"]),
        higher_is_better=bool(r["higher_is_better"]),
        native=r["name"],
        params=dict(r["params"]),
        counts=bool(r["counts"]),
        description=r["description"],
        scale=r["scale"],
        kind=str(r.get("kind", "sums")),
    )


def observed(m: Metric, stats: Any) -> np.ndarray:
    """The metric on each system of ``stats`` (one value per system): from the summed
    statistics, or for an item statistic from each system's items (column 0: its scores,
    column 1: the reference, for two-input statistics)."""
    if not m.on_items:
        return np.asarray(m.evaluate(stats.totals(), stats.n_items), dtype=np.float64)

    out = np.empty(stats.n_systems)
    for j in range(stats.n_systems):
        out[j] = item_value(m, np.asarray(stats.values[j], dtype=np.float64))
    return out


def item_value(m: Metric, v: np.ndarray) -> float:
    """An item statistic on one system's items ``v`` (items × statistics)."""
    if m.native is None:
        return float(_call_items(m, v[None, :, :])[0])
    from . import _native

    x = np.ascontiguousarray(v[:, 0])
    ref = np.ascontiguousarray(v[:, 1]) if v.shape[1] > 1 else None
    return float(_native.item_statistic(m.native, _item_params(m), x, ref))


def _call_items(m: Metric, rows: np.ndarray) -> np.ndarray:
    """A Python item statistic on resampled items ``rows`` (resamples × items × statistics):
    the callable gets one (resamples × items) array per statistic."""
    assert m.func is not None
    out = np.asarray(m.func(*(rows[:, :, c] for c in range(rows.shape[2]))), dtype=np.float64)
    if out.shape != (rows.shape[0],):
        raise MetricError(
            f"metric {m.name!r} must return one value per resample: got shape {out.shape} for {rows.shape[0]} resamples"
        )
    return out


_ITEM_BUDGET = 1 << 22  # items gathered per block for a Python item statistic


def _custom_item_values(
    table: np.ndarray, m: Metric, n_systems: int, seed: int, start: int, count: int, swap: bool, exact: bool, sub: int
) -> np.ndarray:
    from . import _native

    n = table.shape[0]
    k = table.shape[1] // n_systems
    out = np.empty((count, n_systems))
    step = max(1, min(count, _ITEM_BUDGET // max(1, n * k)))
    for first in range(0, count, step):
        c = min(step, count - first)
        if swap:
            mask = np.asarray(_native.swap_masks(n, seed, start + first, c, exact))[:, :, None]
            x, y = table[None, :, :k], table[None, :, k:]
            out[first : first + c, 0] = _call_items(m, np.where(mask, y, x))
            out[first : first + c, 1] = _call_items(m, np.where(mask, x, y))
        else:
            idx = np.asarray(_native.item_indices(n, seed, start + first, c, sub))
            for j in range(n_systems):
                out[first : first + c, j] = _call_items(m, table[:, j * k : (j + 1) * k][idx])
    return out


def _item_params(m: Metric) -> dict[str, float]:
    return {k: float(v) for k, v in m.params.items() if v is not None}


def resample_values(
    table: np.ndarray,
    m: Metric,
    n_systems: int,
    seed: int,
    start: int,
    count: int,
    threads: int,
    *,
    resampling: str = "items",
    swap: bool = False,
    exact: bool = False,
    sub: int = 0,
) -> tuple[np.ndarray, int | None]:
    """The metric's values on resamples ``start .. start+count`` (count × systems) of
    ``table`` (items × systems·k), for metrics the native sums path does not stream (Python
    callables and item statistics): bootstrap draws, or the paired swaps when ``swap``.
    The same counter-based draws as every other path. Returns the values and the
    distinct-row count (None for item draws)."""
    from . import _native

    n = table.shape[0]
    if m.on_items and m.native is None:
        return _custom_item_values(table, m, n_systems, seed, start, count, swap, exact, sub), None
    if m.on_items:
        p = _item_params(m)
        if swap:
            vals = _native.item_permutation_values(table, m.native, p, seed, start, count, exact, threads, None)
        else:
            vals = _native.item_bootstrap_values(table, m.native, p, seed, start, count, threads, None, sub)
        return np.ascontiguousarray(np.asarray(vals, dtype=np.float64).reshape(count, n_systems)), None
    k = table.shape[1] // n_systems
    distinct = None
    if swap:
        sums = _native.permutation_sums(table, seed, start, count, exact, threads, None)
    else:
        sums, distinct = _native.bootstrap_sums(table, seed, start, count, resampling, threads, None, sub)
    vals = np.empty((count, n_systems))
    for j in range(n_systems):
        vals[:, j] = m.evaluate(sums[:, j * k : (j + 1) * k], n)
    return vals, distinct


def display_scale(metric: Metric | str) -> int:
    """100 for metrics shown in percent (fractions), 1 for the others (BLEU, chrF, means)."""
    if isinstance(metric, Metric):
        return metric.display_scale
    try:
        return get(metric).display_scale
    except MetricError:
        return 1


def custom(
    func: Callable[[np.ndarray], np.ndarray],
    *,
    stat_names: tuple[str, ...] | list[str] | int,
    higher_is_better: bool = True,
    name: str | None = None,
    on: str = "sums",
) -> Metric:
    """A metric from a Python callable, vectorized over resamples.

    ``on="sums"`` (default): ``func(sums)`` receives summed statistics of shape
    ``(resamples, k)`` and returns ``(resamples,)`` values. ``on="items"``: a
    statistic of the items themselves (a trimmed mean, a correlation of your own):
    ``func(col_0, …, col_k-1)`` receives each statistic's resampled items as a
    ``(resamples, items)`` array and returns ``(resamples,)`` values; every test and
    interval draws the same items or swaps for it as for the built-in ones.
    """
    if not callable(func):
        raise MetricError("custom metric must be callable")
    if on not in ("sums", "items"):
        raise MetricError(f"on= is 'sums' or 'items', got {on!r}")
    names = tuple(f"s{i}" for i in range(stat_names)) if isinstance(stat_names, int) else tuple(stat_names)
    return Metric(
        name or getattr(func, "__name__", "custom"),
        names,
        higher_is_better,
        None,
        {},
        func,
        counts=False,
        description="user-defined metric" if on == "sums" else "user-defined item statistic",
        kind=on,
    )


def resolve_metric(metric: Any, stats: Any = None, **params: Any) -> Metric:
    """A Metric from a Metric, a name, a callable, or the statistics' default."""
    if isinstance(metric, Metric):
        if params:
            raise MetricError("metric parameters go to sigfast.metrics.get() when passing a Metric")
        m = metric
    elif callable(metric):
        k = stats.n_stats if stats is not None else 1
        m = custom(metric, stat_names=k)
    else:
        name = metric
        if name is None:
            name = getattr(stats, "metric", None)
            if name is None:
                if stats is not None and stats.n_stats == 1:
                    name = "mean"
                else:
                    raise MetricError("no metric given and the statistics name none; pass metric=")
            base = dict(getattr(stats, "metric_params", {}) or {})
            base.update(params)
            params = base
        m = get(str(name), **params)
        label = getattr(stats, "metric_label", None)
        if metric is None and label:
            from dataclasses import replace

            m = replace(m, name=str(label))
    if stats is not None and m.n_stats != stats.n_stats:
        raise MetricError(
            f"metric {m.name!r} needs {m.n_stats} statistics per item ({', '.join(m.stat_names)}); "
            f"the data have {stats.n_stats} ({', '.join(stats.stat_names)})"
        )
    if stats is not None and m.on_items and hasattr(stats, "values"):
        check_items(m, stats)
    elif stats is not None and m.native is not None and hasattr(stats, "values"):
        check_statistics(m, stats)
    return m


def check_items(m: Metric, stats: Any) -> None:
    """An item statistic needs finite values, and a reference (column 1) for two-input
    statistics; raises InputError naming the system and item."""
    from .exceptions import InputError

    vals = np.asarray(stats.values, dtype=np.float64)
    bad = np.argwhere(~np.isfinite(vals))
    if bad.size:
        j, i, c = (int(v) for v in bad[0])
        raise InputError(
            f"system {stats.systems[j]!r}, item {i + 1}, {m.stat_names[c]}: {vals[j, i, c]} is not a finite "
            f"number; {m.name} needs a finite value for every item"
        )


def check_statistics(m: Metric, stats: Any) -> None:
    """Check each system's statistics against the metric's invariants, declared once in the
    Rust registry (non-negative whole counts where the metric reads counts; tp <= guessed,
    correct <= total, ...). Raises InputError naming the system, item and statistic."""
    from . import _native
    from .exceptions import InputError

    for j, name in enumerate(stats.systems):
        try:
            _native.metric_check(np.ascontiguousarray(stats.values[j]), m.native, dict(m.params))
        except InputError as e:
            src = f" ({stats.source})" if getattr(stats, "source", None) else ""
            raise InputError(f"system {name!r}{src}, {e}") from None
