"""Paired significance tests of two systems on the same items.

Both tests draw every resample from a counter-based stream keyed by
(seed, resample index), so one seed gives the same bytes for any thread count.
"""

from __future__ import annotations

import operator
from typing import Any, Literal

import numpy as np

from . import _native
from ._api import checked_keywords, series_name
from ._progress import ProgressArg
from ._progress import resolve as _resolve_progress
from .exceptions import InputError
from .metrics import Metric, observed, resample_values, resolve_metric
from .results import ConfidenceInterval, PairedTestResult
from .stats import Statistics

__all__ = ["DEFAULT_RESAMPLES", "DEFAULT_SEED", "paired_bootstrap", "permutation_test"]

DEFAULT_RESAMPLES = 1_000_000
DEFAULT_PERMUTATIONS = 100_000
DEFAULT_SEED = 12345
MAX_RESAMPLES = int(_native.MAX_RESAMPLES)  # 2^40: a larger count is an InputError
MIN_ITEMS = 10  # fewer items than this: results carry a loud warning
_BLOCK = int(_native.CHUNK)  # resamples per chunk of a streamed pass


def _resamples(v: Any, lo: int = 1) -> int:
    b = _check_int("n_resamples", v, lo)
    if b > MAX_RESAMPLES:
        raise InputError(
            f"n_resamples must be <= 2^40 = {MAX_RESAMPLES}, got {b}; 10^6 resamples already resolve "
            "p-values to about 0.001"
        )
    return b


def few_items_warning(n: int) -> tuple[str, ...]:
    """The warning results carry when a test set has fewer than MIN_ITEMS items."""
    if n >= MIN_ITEMS:
        return ()
    return (
        f"only {n} item{'s' if n != 1 else ''}: resampling tests need at least {MIN_ITEMS} items to say "
        "anything (with so few, every resample can equal the observed data, giving zero-width intervals "
        "and meaningless p-values); test on more items",
    )


def _run_stream(
    summary: Any,
    table: np.ndarray,
    m: Metric,
    k: int,
    B: int,
    seed: int,
    threads: int,
    cb: Any,
    *,
    resampling: str = "items",
    swap: bool = False,
    exact: bool = False,
    sub: int = 0,
) -> int | None:
    """Run the passes ``summary`` needs over B resamples (bootstrap, or swaps when ``swap``),
    chunk by chunk: memory stays O(chunk x systems) for any B. Returns the distinct-row count."""
    if m.native is not None and not m.on_items:
        if swap:
            _native.stream_permutation(summary, table, m.native, dict(m.params), seed, exact, threads, cb)
            return None
        return _native.stream_bootstrap(summary, table, m.native, dict(m.params), seed, resampling, threads, cb, sub)
    s = table.shape[1] // k
    distinct = None
    while summary.pending():
        summary.begin_pass()
        for start in range(0, B, _BLOCK):
            count = min(_BLOCK, B - start)
            vals, distinct = resample_values(
                table, m, s, seed, start, count, threads, resampling=resampling, swap=swap, exact=exact, sub=sub
            )
            _check_finite(vals, m, start)
            summary.feed(vals)
            if cb is not None:
                cb(start + count, B)
        summary.end_pass()
    return distinct


def _resampling(m: Metric, resampling: str) -> str:
    """The resampling mode, validated; an item statistic draws items (its value does not
    follow from counts of distinct statistic rows)."""
    if resampling not in ("auto", "items", "distinct"):
        raise InputError(f"resampling must be 'auto', 'items' or 'distinct', got {resampling!r}")
    if m.on_items:
        if resampling == "distinct":
            raise InputError(
                f"{m.name} is computed on the resampled items, so it cannot use resampling='distinct'; "
                "use 'items' (or 'auto')"
            )
        return "items"
    return resampling


def _check_finite(vals: np.ndarray, m: Metric, start: int) -> None:
    """An item statistic can be undefined on a resample (a correlation of constant values):
    say so instead of letting NaN fall out of every comparison."""
    if m.on_items and not np.all(np.isfinite(vals)):
        bad = int((~np.isfinite(vals)).any(axis=1).sum())
        first = start + int(np.argmax(~np.isfinite(vals).all(axis=1)))
        raise InputError(
            f"{m.name} is undefined (NaN) on {bad} of resamples {start}..{start + vals.shape[0] - 1} (first: "
            f"resample {first}): a resample whose values are all equal has no {m.name}. Test on more items, or use "
            "sigfast.itemlevel.item_bootstrap, which drops undefined resamples and reports how many it kept"
        )


def _feed_stored(summary: Any, values: np.ndarray) -> None:
    """Run the passes ``summary`` needs over stored values (return_distribution=True)."""
    B = values.shape[0]
    while summary.pending():
        summary.begin_pass()
        for start in range(0, B, _BLOCK):
            summary.feed(np.ascontiguousarray(values[start : start + _BLOCK]))
        summary.end_pass()


def _pvalue(count: int, total: int, plus_one: bool) -> float:
    return float(count + 1) / float(total + 1) if plus_one else float(count) / float(total)


_VARIANTS = {
    "bk": "berg-kirkpatrick",
    "berg-kirkpatrick": "berg-kirkpatrick",
    "koehn": "koehn",
    "shifted": "shifted",
    "sacrebleu": "sacrebleu",
    "moses": "moses",
}
_NATIVE_VARIANT = {
    "berg-kirkpatrick": "bk",
    "koehn": "koehn",
    "shifted": "shifted",
    "sacrebleu": "sacrebleu",
    "moses": "moses",
}
_ALTERNATIVES = ("two-sided", "greater", "less")
#: The bootstrap variants, as users name them.
VARIANTS = ("bk", "koehn", "shifted", "sacrebleu", "moses")


def resolve_variant(variant: str, alternative: str | None) -> tuple[str, str, str]:
    """(variant name, sidedness as reported, sidedness the engine counts) of a bootstrap variant.

    ``bk`` and ``koehn`` are one-sided in the observed direction and take no
    ``alternative``; ``shifted`` takes any; ``sacrebleu`` and ``moses`` are
    two-sided only (their rules count |δ*|).
    """
    v = _VARIANTS.get(str(variant).lower())
    if v is None:
        raise InputError(f"unknown bootstrap variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if v == "shifted":
        alt = alternative or "two-sided"
        if alt not in _ALTERNATIVES:
            raise InputError(f"alternative must be one of {_ALTERNATIVES}, got {alt!r}")
        return v, alt, alt
    if v in ("sacrebleu", "moses"):
        if alternative not in (None, "two-sided"):
            raise InputError(
                f"the {v} rule is two-sided (it counts |delta*|); use variant='shifted' for a one-sided test"
            )
        return v, "two-sided", "two-sided"
    if alternative is not None:
        raise InputError(
            f"the {v} bootstrap is one-sided in the direction of the observed difference; "
            "it takes no alternative= (use variant='shifted' for a chosen sidedness)"
        )
    return v, ("observed-direction" if v == "berg-kirkpatrick" else "observed-winner"), "two-sided"


def _check_int(name: str, v: Any, lo: int, hi: int | None = None) -> int:
    if isinstance(v, (bool, np.bool_)):
        raise InputError(f"{name} must be an integer, got {v!r} (a bool is not a count)")
    try:
        i = operator.index(v)
    except TypeError:
        raise InputError(f"{name} must be an integer, got {v!r}") from None
    if i < lo or (hi is not None and i > hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise InputError(f"{name} must be {rng}, got {i}")
    return int(i)


def _threads(n_threads: int | None) -> int:
    if n_threads is None:
        return 0
    return _check_int("n_threads", n_threads, 1, 1024)


def _plus_one(pvalue: str) -> bool:
    if pvalue not in ("plus_one", "raw"):
        raise InputError(f"pvalue must be 'plus_one' ((c+1)/(B+1)) or 'raw' (c/B), got {pvalue!r}")
    return pvalue == "plus_one"


def _pair(x: Any, y: Any, systems: Any, metric: Any, metric_params: dict[str, Any]) -> tuple[Statistics, Metric]:
    if isinstance(x, Statistics):
        if y is not None:
            raise InputError("pass either a Statistics object (and systems=) or two arrays x, y")
        stats = x
        if systems is None:
            if stats.n_systems != 2:
                raise InputError(
                    f"the statistics hold {stats.n_systems} systems; name the two to compare with "
                    f"systems=(baseline, candidate) from {list(stats.systems)}"
                )
            systems = (0, 1)
        if len(systems) != 2:
            raise InputError("systems= must name exactly two systems (baseline, candidate)")
        if stats.index(systems[0]) == stats.index(systems[1]):
            raise InputError("cannot compare a system with itself")
        stats = stats.select(*systems)
    else:
        if y is None:
            raise InputError("paired tests need two systems: pass x and y (or one Statistics with two systems)")
        if systems is not None:
            names = tuple(str(s) for s in systems)
        else:  # pandas Series keep their names
            nx, ny = series_name(x), series_name(y)
            names = (nx or "x", ny or "y") if nx != ny else ("x", "y")
        if len(names) != 2 or names[0] == names[1]:
            raise InputError(f"systems= must give two different names, got {list(names)}")
        xa, ya = np.asarray(x), np.asarray(y)
        if xa.ndim == 1 and ya.ndim == 1:
            hib = metric_params.pop("higher_is_better", True)
            stats = Statistics.from_scores({names[0]: xa, names[1]: ya}, higher_is_better=hib)
            if metric is None or metric == "mean":
                metric_params["higher_is_better"] = hib
        elif xa.ndim == 2 and ya.ndim == 2:
            if xa.shape[1] != ya.shape[1]:
                raise InputError(f"x has {xa.shape[1]} statistics per item, y has {ya.shape[1]}")
            if xa.shape[0] != ya.shape[0]:
                raise InputError(f"x has {xa.shape[0]} items, y has {ya.shape[0]}; a paired test needs the same items")
            m = resolve_metric(metric, None, **metric_params) if metric is not None else None
            stat_names = (
                m.stat_names
                if m is not None and m.n_stats == xa.shape[1]
                else tuple(f"s{i}" for i in range(xa.shape[1]))
            )
            counts = bool(m is not None and m.counts)
            if counts:
                stats = Statistics.from_counts({names[0]: xa, names[1]: ya}, stat_names=stat_names)
            else:
                stats = Statistics(np.stack([_f(xa, "x"), _f(ya, "y")]), names, stat_names)
        else:
            raise InputError(
                f"x and y must both be 1-D (one score per item) or both 2-D (items x statistics); "
                f"got shapes {xa.shape} and {ya.shape}"
            )
    m = resolve_metric(metric, stats, **metric_params)  # checks the metric's invariants
    return stats, m


def _f(a: np.ndarray, what: str) -> np.ndarray:
    if not np.issubdtype(a.dtype, np.number) and a.dtype != np.bool_:
        raise InputError(f"{what}: expected numbers, got dtype {a.dtype}")
    return a.astype(np.float64)


def _table(stats: Statistics) -> np.ndarray:
    return np.ascontiguousarray(np.concatenate([stats.values[0], stats.values[1]], axis=1))


def _observed(stats: Statistics, m: Metric) -> tuple[float, float]:
    s = observed(m, stats)
    if m.on_items and not np.all(np.isfinite(s)):
        raise InputError(f"{m.name} is undefined on these items (constant values?); no test is possible")
    return float(s[0]), float(s[1])


def _stored_values(
    table: np.ndarray, m: Metric, n_sys: int, seed: int, B: int, threads: int, cb: Any, **kw: Any
) -> tuple[np.ndarray, int | None]:
    """Every resample's values (B x systems) for metrics off the native sums path, block by
    block from the same draws as the streamed pass (return_distribution=True)."""
    out = np.empty((B, n_sys))
    distinct = None
    for start in range(0, B, _BLOCK):
        count = min(_BLOCK, B - start)
        out[start : start + count], distinct = resample_values(table, m, n_sys, seed, start, count, threads, **kw)
        _check_finite(out[start : start + count], m, start)
        if cb is not None:
            cb(start + count, B)
    return out, distinct


@checked_keywords
def paired_bootstrap(
    x: Any,
    y: Any = None,
    *,
    metric: Any = None,
    systems: tuple[Any, Any] | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    variant: Literal["bk", "koehn", "shifted", "sacrebleu", "moses"] = "bk",
    alternative: Literal["two-sided", "greater", "less"] | None = None,
    confidence_level: float = 0.95,
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    resampling: Literal["auto", "items", "distinct"] = "auto",
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
    **metric_params: Any,
) -> PairedTestResult:
    """Paired bootstrap test of system ``y`` against baseline ``x``.

    Parameters
    ----------
    x, y
        Per-item scores (1-D) or per-item sufficient statistics (items ×
        statistics) of the baseline and the candidate; or ``x`` is a
        :class:`~sigfast.Statistics` and ``systems`` names the two systems.
    metric
        A built-in metric name (``"f1"``, ``"bleu"``, ...), a
        :class:`~sigfast.metrics.Metric`, or a callable on summed statistics
        ``(resamples, k) -> (resamples,)``. Default: the statistics' own
        metric, or the mean of 1-D scores.
    n_resamples
        Bootstrap resamples B (default 10^6; a whole number from 1 to 2^40). They
        stream through in chunks: memory does not grow with B.
    seed
        Key of the counter-based random stream (0 ≤ seed < 2^64). The same
        seed gives the same result for any ``n_threads``.
    variant
        ``"bk"``: Berg-Kirkpatrick et al. (2012), p = share of resamples with
        δ* > 2δ, one-sided in the direction of the observed δ.
        ``"koehn"``: Koehn (2004), share of resamples that the observed
        winner does not win. ``"shifted"``: Moses / sacrebleu,
        |δ* − mean(δ*)| ≥ |δ| (two-sided by default).
    alternative
        Only for ``"shifted"``: ``"two-sided"``, ``"greater"`` or ``"less"``.
    pvalue
        ``"plus_one"``: (c + 1)/(B + 1), never 0 (default); ``"raw"``: c/B.
    resampling
        ``"items"`` draws n indices per resample; ``"distinct"`` draws
        multinomial counts over distinct statistic rows (the same
        distribution at a cost that follows distinct rows); ``"auto"`` uses
        distinct rows when there are at most n/32 of them.
    progress
        None (a bar on a terminal for long runs), True, False, or a callable
        ``(done, total)`` called about ten times a second.
    **metric_params
        Parameters of a named metric, e.g. ``beta=0.5`` or ``smooth="floor"``.

    Returns
    -------
    PairedTestResult
        ``statistic`` (δ = metric(y) − metric(x)), ``pvalue``,
        ``confidence_interval`` (percentile interval of δ*), each system's
        score and interval, and the test's full description.
    """
    stats, m = _pair(x, y, systems, metric, dict(metric_params))
    B = _resamples(n_resamples)
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    if not 0 < float(confidence_level) < 1:
        raise InputError(f"confidence_level must be in (0, 1), got {confidence_level}")
    v, alt, native_alt = resolve_variant(variant, alternative)
    resampling = _resampling(m, resampling)
    plus_one = _plus_one(pvalue)
    threads = _threads(n_threads)
    table = _table(stats)
    k = stats.n_stats
    cb = _resolve_progress(progress, B, float(B) * stats.n_items, "bootstrap")

    sx, sy = _observed(stats, m)
    delta = sy - sx
    orient = 1.0 if m.higher_is_better else -1.0
    cl = float(confidence_level)
    # Counts and the three percentile intervals stream over the resamples (crate::stream):
    # no B-sized array is kept unless return_distribution asks for one.
    summary = _native.Summary(B, 2)
    summary.add_bootstrap_rule(_NATIVE_VARIANT[v], native_alt, orient, delta)
    levels = ((1.0 - cl) / 2.0, (1.0 + cl) / 2.0)
    qi = {q: [summary.add_quantile(q, lv) for lv in levels] for q in ("theta", "x", "y")}
    values = None
    if return_distribution:
        if m.native is not None and not m.on_items:
            values, distinct = _native.bootstrap_values(
                table, m.native, dict(m.params), seed, B, resampling, threads, cb
            )
        else:
            values, distinct = _stored_values(table, m, 2, seed, B, threads, cb, resampling=resampling)
        _feed_stored(summary, np.asarray(values))
    else:
        distinct = _run_stream(summary, table, m, k, B, seed, threads, cb, resampling=resampling)
    count = int(summary.counts()[0])
    p = _pvalue(count, B, plus_one)
    ci, cx, cy = (ConfidenceInterval(*(summary.quantile(i) for i in qi[q])) for q in ("theta", "x", "y"))
    total = B
    from .signature import build as _signature

    return PairedTestResult(
        signature=_signature(
            "paired_bootstrap",
            stats=stats,
            metric=m,
            variant=v,
            alt=alt,
            resampling=f"distinct-rows({distinct})" if distinct is not None else "items",
            B=int(total),
            seed=seed,
            conf=cl,
            p="plus_one" if plus_one else "raw",
        ),
        test="paired_bootstrap",
        variant=v,
        alternative=alt,
        metric=m.name,
        display_scale=m.display_scale,
        higher_is_better=m.higher_is_better,
        systems=(stats.systems[0], stats.systems[1]),
        score_x=sx,
        score_y=sy,
        statistic=delta,
        pvalue=p,
        count=int(count),
        n_resamples=int(total),
        pvalue_method="(c+1)/(B+1)" if plus_one else "c/B",
        seed=seed,
        n_items=stats.n_items,
        resampling=f"distinct-rows({distinct})" if distinct is not None else "items",
        confidence_level=cl,
        confidence_interval=ci,
        score_x_interval=cx,
        score_y_interval=cy,
        version=_native.__version__,
        stream_version=_native.STREAM_VERSION,
        distribution=values if return_distribution else None,
        warnings=few_items_warning(stats.n_items),
    )


@checked_keywords
def permutation_test(
    x: Any,
    y: Any = None,
    *,
    metric: Any = None,
    systems: tuple[Any, Any] | None = None,
    method: Literal["approximate", "exact", "auto"] = "auto",
    n_resamples: int = DEFAULT_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
    **metric_params: Any,
) -> PairedTestResult:
    """Paired permutation test: swap the two systems' statistics item by item.

    ``method="approximate"`` (approximate randomization) swaps each item with
    probability 1/2 in each of ``n_resamples`` resamples and reports
    (c + 1)/(B + 1) (or c/B with ``pvalue="raw"``); ``"exact"`` enumerates all
    2^n arrangements (n ≤ 20 by default of ``"auto"``, at most 26) and reports
    the exact share c/2^n, which counts the observed arrangement and so is
    never 0. ``alternative`` refers to δ = metric(y) − metric(x). Resampled
    δ within 100 ulps of the observed δ count as ties (as in scipy).

    Other parameters are as in :func:`paired_bootstrap`. Results on fewer than
    ``MIN_ITEMS`` (10) items carry a warning in ``warnings``.
    """
    stats, m = _pair(x, y, systems, metric, dict(metric_params))
    if method not in ("approximate", "exact", "auto"):
        raise InputError(f"method must be 'approximate', 'exact' or 'auto', got {method!r}")
    if alternative not in _ALTERNATIVES:
        raise InputError(f"alternative must be one of {_ALTERNATIVES}, got {alternative!r}")
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    plus_one = _plus_one(pvalue)
    threads = _threads(n_threads)
    n = stats.n_items
    exact = method == "exact" or (method == "auto" and n <= 20)
    if exact and n > _native.MAX_EXACT_ITEMS:
        raise InputError(
            f"the exact test enumerates 2^n arrangements; n = {n} items is above the limit of "
            f"{_native.MAX_EXACT_ITEMS}. Use method='approximate'"
        )
    B = (1 << n) if exact else _resamples(n_resamples)
    table = _table(stats)
    k = stats.n_stats
    cb = _resolve_progress(progress, B, float(B) * n, "permutation")
    sx, sy = _observed(stats, m)
    delta = sy - sx
    summary = _native.Summary(B, 2)
    summary.add_permutation_rule(alternative, delta)
    values = None
    if return_distribution:
        if m.native is not None and not m.on_items:
            if exact:
                values = _native.exact_permutation_values(table, m.native, dict(m.params), threads, cb)
            else:
                values = _native.permutation_values(table, m.native, dict(m.params), seed, B, threads, cb)
        else:
            values, _ = _stored_values(table, m, 2, seed, B, threads, cb, swap=True, exact=exact)
        _feed_stored(summary, np.asarray(values))
    else:
        _run_stream(summary, table, m, k, B, seed, threads, cb, swap=True, exact=exact)
    count = int(summary.counts()[0])
    total = B
    p = _pvalue(count, B, plus_one and not exact)
    from .signature import build as _signature

    return PairedTestResult(
        signature=_signature(
            "exact_permutation" if exact else "approximate_randomization",
            stats=stats,
            metric=m,
            variant="paired-swap",
            alt=alternative,
            B=int(total),
            seed=None if exact else seed,
            p="exact" if exact else ("plus_one" if plus_one else "raw"),
        ),
        test="exact_permutation" if exact else "approximate_randomization",
        variant="paired-swap",
        alternative=alternative,
        metric=m.name,
        display_scale=m.display_scale,
        higher_is_better=m.higher_is_better,
        systems=(stats.systems[0], stats.systems[1]),
        score_x=sx,
        score_y=sy,
        statistic=delta,
        pvalue=p,
        count=int(count),
        n_resamples=int(total),
        pvalue_method="c/2^n (exact)" if exact else ("(c+1)/(B+1)" if plus_one else "c/B"),
        seed=None if exact else seed,
        n_items=n,
        resampling="all-arrangements" if exact else "swap-each-item-p=0.5",
        version=_native.__version__,
        stream_version=_native.STREAM_VERSION,
        distribution=values if return_distribution else None,
        warnings=few_items_warning(n),
    )
