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

__all__ = ["Metric", "available", "custom", "display_scale", "get", "specs"]


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
    )


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
) -> Metric:
    """A metric from a Python callable, vectorized over resamples.

    ``func(sums)`` receives summed statistics of shape ``(resamples, k)`` and
    returns ``(resamples,)`` values.
    """
    if not callable(func):
        raise MetricError("custom metric must be callable")
    names = tuple(f"s{i}" for i in range(stat_names)) if isinstance(stat_names, int) else tuple(stat_names)
    return Metric(
        name or getattr(func, "__name__", "custom"),
        names,
        higher_is_better,
        None,
        {},
        func,
        counts=False,
        description="user-defined metric",
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
    if stats is not None and m.native is not None and hasattr(stats, "values"):
        check_statistics(m, stats)
    return m


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
