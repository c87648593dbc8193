"""Statistics that are not sums: the bootstrap over items of a median, a
quantile, a correlation, an AUC or any vectorized Python callable.

Resample ``b`` draws its item indices from the same counter-based stream as
:func:`sigfast.paired_bootstrap` (``(seed, "boot", b)``), so the resamples
are the same for any statistic, any thread count and any block size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from . import _native
from ._options import DEFAULT_CONFIDENCE, DEFAULT_SEED, check_seed, shared_options
from ._progress import ProgressArg
from .exceptions import InputError, MetricError
from .executor import check_int as _check_int

__all__ = ["ITEM_STATISTICS", "item_bootstrap", "item_indices", "item_statistic"]


def _registry() -> dict[str, tuple[int, str]]:
    from .metrics import get, specs

    out = {"mean": (1, "arithmetic mean")}
    for spec in specs():
        if spec.get("kind") == "items":
            out[spec["name"]] = (get(spec["name"]).n_stats, spec["description"])
    return out


#: Built-in item statistics: name -> (number of inputs, description). Read off the one metric
#: registry (the entries of kind "items"), plus the mean.
ITEM_STATISTICS: dict[str, tuple[int, str]] = _registry()


def resolve_statistic(statistic: str, params: dict[str, Any]) -> tuple[str, dict[str, float]]:
    """The canonical name and float parameters of a built-in item statistic, resolved by the one metric
    registry (names, aliases such as ``kendall``, parameter ranges): a name means what it means there."""
    from .metrics import _item_params, get

    name = str(statistic).lower()
    if name == "mean":
        if params:
            raise MetricError(f"item statistic 'mean' takes no parameters, got {sorted(params)}")
        return name, {}
    choose = f"choose one of {', '.join(ITEM_STATISTICS)}"
    try:
        base = get(name)
    except MetricError:
        import difflib

        close = difflib.get_close_matches(name, [*ITEM_STATISTICS, "kendall"], n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise MetricError(f"unknown item statistic {statistic!r}{hint}; {choose}") from None
    if base.kind != "items":
        raise MetricError(
            f"{statistic!r} is the registry's {base.native} ({base.description}), a metric of summed statistics, "
            f"not an item statistic; {choose}"
        )
    m = get(name, **{k: v for k, v in params.items() if v is not None})
    given = {k for k, v in params.items() if v is not None}
    return str(m.native), {k: v for k, v in _item_params(m).items() if k in given or m.native == "quantile"}


def _label(name: str, params: dict[str, float]) -> str:
    if not params:
        return name
    return name + "(" + ",".join(f"{k}={v:g}" for k, v in sorted(params.items())) + ")"


def _vec(a: Any, what: str) -> np.ndarray:
    v = np.asarray(a)
    if v.ndim != 1:
        raise InputError(f"{what} must be 1-D (one value per item), got shape {v.shape}")
    if not (np.issubdtype(v.dtype, np.number) or v.dtype == np.bool_):
        raise InputError(f"{what}: expected numbers, got dtype {v.dtype}")
    v = np.ascontiguousarray(v, dtype=np.float64)
    if not np.all(np.isfinite(v)):
        i = int(np.argmax(~np.isfinite(v)))
        raise InputError(f"{what} has a non-finite value {v[i]} at item {i}")
    return v


def item_statistic(x: Any, y: Any = None, statistic: str = "median", **params: Any) -> float:
    """A built-in item statistic of ``x`` (and reference ``y`` for two-input statistics)."""
    name, p = resolve_statistic(statistic, params)
    xv = _vec(x, "x")
    if ITEM_STATISTICS[name][0] == 2:
        if y is None:
            raise InputError(f"{name} needs a reference y (human scores or labels)")
        yv = _vec(y, "y")
        if yv.size != xv.size:
            raise InputError(f"x has {xv.size} items, y has {yv.size}")
        return float(_native.item_statistic(_native.MetricHandle(name, p), xv, yv))
    return float(_native.item_statistic(_native.MetricHandle(name, p), xv, None))


@shared_options
def item_indices(
    n: int, *, n_resamples: int, seed: int = DEFAULT_SEED, start: int = 0, stream: int | None = None
) -> np.ndarray:
    """Item indices of bootstrap resamples ``start .. start + n_resamples`` (``(n_resamples, n)``, int64).

    Exactly the draws :func:`item_bootstrap` (and :func:`sigfast.paired_bootstrap`
    with ``resampling="items"``) use, whatever the block, in random stream version
    ``stream`` (``None``: the default).
    """

    n = _check_int("n", n, 1, 2**32)
    count = _check_int("n_resamples", n_resamples, 0)
    start = _check_int("start", start, 0)
    seed = check_seed(seed)
    return np.asarray(_native.item_indices(n, _native.Job(seed, count, start, stream=stream)))


def item_bootstrap(
    x: Any,
    y: Any = None,
    *,
    statistic: str | Callable[..., Any] = "median",
    reference: Any = None,
    systems: tuple[str, str] | None = None,
    n_resamples: int = 10_000,
    seed: int = DEFAULT_SEED,
    variant: Literal["bk", "koehn", "shifted", "sacrebleu", "moses"] = "bk",
    alternative: Literal["two-sided", "greater", "less"] | None = None,
    confidence_level: float = DEFAULT_CONFIDENCE,
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
    **params: Any,
) -> Any:
    """Deprecated: the bootstrap over items of a statistic that is not a sum is
    :func:`sigfast.paired_bootstrap` with an item metric and ``nan_policy="omit"``.

    Two systems: ``paired_bootstrap(Statistics, metric=statistic, resampling="items",
    nan_policy="omit", ...)``, a :class:`~sigfast.PairedTestResult`. One system:
    ``bootstrap_interval(..., method="percentile", nan_policy="omit")``, a
    :class:`~sigfast.BootstrapInterval`. ``statistic`` is a registry name
    (``"median"``, ``"quantile"`` with ``q=``, ``"pearson"``, ``"kendall_b"``, ...) or
    a callable called as :func:`sigfast.metrics.custom` documents for item
    statistics (``f(scores)`` or, with ``reference``, ``f(scores, reference)``, each
    a (resamples, items) array). The numbers are those of the calls above: one
    code path, one label per rule.
    """
    import warnings

    from .intervals import bootstrap_interval
    from .metrics import Metric, custom, get
    from .significance import paired_bootstrap
    from .stats import Statistics

    warnings.warn(
        "sigfast.item_bootstrap is deprecated: use sigfast.paired_bootstrap(x, y, metric=STATISTIC, "
        "nan_policy='omit') (per-item columns: score, and the reference for correlations), or "
        "sigfast.bootstrap_interval(..., method='percentile', nan_policy='omit') for one system",
        DeprecationWarning,
        stacklevel=2,
    )
    cols = [_vec(x, "x")] + ([] if y is None else [_vec(y, "y")])
    n = cols[0].size
    if n == 0:
        raise InputError("no items")
    if any(c.size != n for c in cols):
        raise InputError(f"x has {n} items, y has {cols[1].size}")
    rv = None if reference is None else _vec(reference, "reference")
    if rv is not None and rv.size != n:
        raise InputError(f"x has {n} items, the reference has {rv.size}")
    m: Metric
    if callable(statistic):
        if params:
            raise InputError(f"parameters {sorted(params)} are for built-in statistics, not a callable")
        names = ("score",) if rv is None else ("score", "reference")
        m = custom(statistic, stat_names=names, on="items", name=getattr(statistic, "__name__", "callable"))
    else:
        name, p = resolve_statistic(statistic, dict(params))
        k = ITEM_STATISTICS[name][0]
        if k == 2 and rv is None:
            raise InputError(f"{name} correlates each system with a reference: pass reference= (human scores/labels)")
        if k == 1 and rv is not None:
            raise InputError(f"{name} is a statistic of one vector; it takes no reference=")
        m = get(name, **p)
    names_s = tuple(str(s) for s in systems) if systems is not None else (("x", "y")[: len(cols)])
    values = np.stack([np.stack([c] if rv is None else [c, rv], axis=1) for c in cols])
    stats = Statistics(values, names_s, m.stat_names)
    common: dict[str, Any] = dict(
        metric=m,
        n_resamples=n_resamples,
        seed=seed,
        confidence_level=confidence_level,
        resampling="items",
        nan_policy="omit",
        stream=stream,
        n_threads=n_threads,
        return_distribution=return_distribution,
    )
    if y is None:
        return bootstrap_interval(stats, method="percentile", **common)
    return paired_bootstrap(stats, variant=variant, alternative=alternative, pvalue=pvalue, progress=progress, **common)
