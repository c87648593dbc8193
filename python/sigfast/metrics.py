"""Metrics on summed sufficient statistics.

Built-in metrics are computed in Rust; any other metric is a Python callable
vectorized over resamples, called by the one convention :func:`custom`
documents: one array per statistic, the first axis running over resamples,
one value per resample returned.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .exceptions import MetricError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Metric", "available", "custom", "display_scale", "gain_unit", "get", "observed", "specs"]


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
    #: How a Python callable is called: ``"columns"`` (the one convention, see :func:`custom`) or
    #: ``"matrix"`` (deprecated: one (resamples, k) array of sums).
    call: str = "columns"
    #: The native metric resolved once (``_native.MetricHandle``): what every native call takes.
    handle: Any = field(default=None, compare=False, repr=False)

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

    def evaluate(self, sums: np.ndarray, n_items: int, *, check_finite: bool = True) -> np.ndarray:
        """The metric on each row of summed statistics ``(rows, n_stats)``.

        A Python callable is called as :func:`custom` documents; ``check_finite=False``
        leaves NaN in place (the executor applies the request's ``nan_policy``)."""
        import numpy as np

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

            return np.asarray(_native.metric_scores(sums, self.handle, float(n_items)))
        out = _call(self, sums if self.call == "matrix" else tuple(sums[:, c] for c in range(sums.shape[1])))
        if out.shape != (sums.shape[0],):
            raise MetricError(
                f"custom metric {self.name!r} must return one value per resample: "
                f"got shape {out.shape} for {sums.shape[0]} resamples"
            )
        if check_finite and not np.all(np.isfinite(out)):
            raise MetricError(f"custom metric {self.name!r} returned a non-finite value")
        return out

    def score_rows(self, rows: Sequence[Sequence[float]], n_items: int) -> list[float]:
        """The metric on each of a few rows of summed statistics given as lists, without numpy: a
        report's corpus scores (``sigfast score`` prints them without importing numpy). The same
        Rust kernel as :meth:`evaluate`, so the same values; built-in metrics only."""
        if self.native is None or self.on_items:
            raise MetricError(f"metric {self.name!r}: score_rows needs a built-in metric on summed statistics")
        from . import _native

        return list(_native.metric_rows([[float(x) for x in r] for r in rows], self.handle, float(n_items)))


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

    if not isinstance(name, str):
        raise MetricError(f"a metric name must be a string, got {name!r}")
    try:
        r = _resolve(name, params)
    except MetricError as e:
        unknown = re.match(r"metric '([^']*)' has no parameter '([^']*)'", str(e))
        if unknown:  # name the closest of the metric's own parameters
            from ._api import closest

            own = [q for m in specs() if unknown.group(1) in (m["name"], *m.get("aliases", ())) for q in m["params"]]
            hint = closest(unknown.group(2), [n for q in own for n in (q["name"], *q["aliases"])])
            if hint:
                named = f"{unknown.group(0)} ({hint.removeprefix('; ')})"
                raise MetricError(str(e).replace(unknown.group(0), named, 1)) from None
        if not str(e).startswith("unknown metric"):
            raise
        import difflib

        close = difflib.get_close_matches(name.lower(), available(), n=1, cutoff=0.6)
        if not close:
            raise
        raise MetricError(
            f"unknown metric {name!r} (did you mean {close[0]!r}?); built-in metrics: {', '.join(available())}"
        ) from None
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
        handle=r["handle"],
    )


_RESOLVED: dict[tuple[str, tuple[tuple[str, Any], ...]], dict[str, Any]] = {}


def _resolve(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """``_native.metric_resolve``, once per name and parameters: a metric name crosses into Rust
    once, and every native call after takes the handle it gives."""
    from . import _native

    try:
        key = (name, tuple(sorted(params.items())))
        hash(key)
    except TypeError:  # an unhashable parameter value: Rust names it
        return dict(_native.metric_resolve(name, params))
    if key not in _RESOLVED:
        _RESOLVED[key] = dict(_native.metric_resolve(name, params))
    return _RESOLVED[key]


def observed(m: Metric, stats: Any) -> np.ndarray:
    """The metric on each system of ``stats`` (one value per system): from the summed
    statistics, or for an item statistic from each system's items (column 0: its scores,
    column 1: the reference, for two-input statistics)."""
    import numpy as np

    if not m.on_items:
        return np.asarray(m.evaluate(stats.totals(), stats.n_items), dtype=np.float64)

    out = np.empty(stats.n_systems)
    for j in range(stats.n_systems):
        out[j] = item_value(m, np.asarray(stats.values[j], dtype=np.float64))
    return out


def item_value(m: Metric, v: np.ndarray) -> float:
    """An item statistic on one system's items ``v`` (items × statistics)."""
    import numpy as np

    if m.native is None:
        return float(call_items(m, v[None, :, :])[0])
    from . import _native

    x = np.ascontiguousarray(v[:, 0])
    ref = np.ascontiguousarray(v[:, 1]) if v.shape[1] > 1 else None
    return float(_native.item_statistic(m.handle, x, ref))


def call_items(m: Metric, rows: np.ndarray) -> np.ndarray:
    """A Python item statistic on resampled items ``rows`` (resamples × items × statistics):
    the callable gets one (resamples × items) array per statistic (see :func:`custom`)."""
    out = _call(m, tuple(rows[:, :, c] for c in range(rows.shape[2])))
    if out.shape != (rows.shape[0],):
        raise MetricError(
            f"metric {m.name!r} must return one value per resample: got shape {out.shape} for {rows.shape[0]} resamples"
        )
    return out


def _item_params(m: Metric) -> dict[str, float]:
    return {k: float(v) for k, v in m.params.items() if v is not None}


def display_scale(metric: Metric | str) -> int:
    """100 for metrics shown in percent (fractions), 1 for the others (BLEU, chrF, means)."""
    if isinstance(metric, Metric):
        return metric.display_scale
    try:
        return get(metric).display_scale
    except MetricError:
        return 1


def gain_unit(metric: Metric | str, scale: int | None = None) -> str:
    """The unit a difference of the metric's values is shown in: ``"points"`` for fractions (shown
    x100, ``scale=100``) and for metrics on a 0-100 scale (BLEU, chrF, TER); else ``"<name> units"``
    (a mean of your scores, a correlation: the metric's own units)."""
    if scale == 100:
        return "points"
    m = metric if isinstance(metric, Metric) else None
    if m is None:
        try:
            m = get(str(metric))
        except Exception:  # a custom metric or a label: its own units
            return f"{metric} units"
    return "points" if m.scale in ("fraction", "points") else f"{m.name} units"


def custom(
    func: Callable[..., np.ndarray],
    *,
    stat_names: tuple[str, ...] | list[str] | int,
    higher_is_better: bool = True,
    name: str | None = None,
    on: str = "sums",
) -> Metric:
    """A metric from a Python callable, vectorized over resamples.

    **The one calling convention for a user's statistic** (metrics, item
    statistics, anything passed as ``metric=``): ``func(col_0, …, col_k-1)``
    receives one array per statistic, the first axis running over resamples,
    and returns one value per resample (shape ``(resamples,)``). With
    ``on="sums"`` (default) ``col_c`` holds statistic c summed over each
    resample's items, shape ``(resamples,)``: ``f1(tp, guessed, gold)``. With
    ``on="items"`` (a statistic of the items themselves: a trimmed mean, a
    correlation of your own) ``col_c`` holds statistic c of each resample's
    items, shape ``(resamples, items)``: ``trimmed(scores)`` or
    ``corr(scores, reference)``. Every test and interval draws the same items or
    swaps for it as for the built-in metrics. A value that is NaN on a resample
    is undefined there: ``nan_policy="raise"`` (default) stops, ``"omit"`` drops
    the resample.

    Deprecated: a callable on summed statistics that takes a single argument while
    there are several statistics is called the old way, with one
    ``(resamples, k)`` array, and warns.
    """
    if not callable(func):
        raise MetricError("custom metric must be callable")
    if on not in ("sums", "items"):
        raise MetricError(f"on= is 'sums' or 'items', got {on!r}")
    names = tuple(f"s{i}" for i in range(stat_names)) if isinstance(stat_names, int) else tuple(stat_names)
    label = name or getattr(func, "__name__", "custom")
    call = "columns"
    if on == "sums" and _one_argument(func, len(names)):
        import warnings

        warnings.warn(
            f"metric {label!r} takes one (resamples, k) array of sums; sigfast calls a user statistic as "
            f"f(*columns), one (resamples,) array per statistic (here f({', '.join(names)})). The one-array "
            "form still works but is deprecated",
            DeprecationWarning,
            stacklevel=3,
        )
        call = "matrix"
    return Metric(
        label,
        names,
        higher_is_better,
        None,
        {},
        func,
        counts=False,
        description="user-defined metric" if on == "sums" else "user-defined item statistic",
        kind=on,
        call=call,
    )


def _one_argument(func: Callable[..., Any], k: int) -> bool:
    """True for a callable that takes exactly one positional argument while there are k >= 2
    statistics (the deprecated one-array convention)."""
    import inspect

    if k < 2:
        return False
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return False
    params = list(sig.parameters.values())
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return False
    pos = [p for p in params if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    required = [p for p in pos if p.default is inspect.Parameter.empty]
    return len(required) == 1 and len(pos) < k


def _call(m: Metric, args: np.ndarray | tuple[np.ndarray, ...]) -> np.ndarray:
    """Call a Python metric with the columns ``args`` (or, deprecated, one array)."""
    import numpy as np

    assert m.func is not None
    out = m.func(args) if isinstance(args, np.ndarray) else m.func(*args)
    return np.asarray(out, dtype=np.float64)


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
    import numpy as np

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
    import numpy as np

    from . import _native
    from .exceptions import InputError

    for j, name in enumerate(stats.systems):
        try:
            _native.metric_check(np.ascontiguousarray(stats.values[j]), m.handle)
        except InputError as e:
            src = f" ({stats.source})" if getattr(stats, "source", None) else ""
            raise InputError(f"system {name!r}{src}, {e}") from None


def parameter_names() -> set[str]:
    """Every metric parameter's name and alias: what a ``**metric_params`` takes."""
    out: set[str] = set()
    for m in specs():
        for p in m["params"]:
            out.add(p["name"])
            out.update(p["aliases"])
    return out
