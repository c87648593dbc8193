"""The paired bootstrap (Berg-Kirkpatrick et al. 2012; Koehn 2004): two systems on the same resampled items.

One module holds everything about the test: its settings, its validation, what it asks the engine (a
bootstrap rule on δ* and the percentile intervals of δ*, x* and y*, streamed over the resamples) and its
signature fields; :data:`TEST` is its entry in :data:`sigfast.resampling.TESTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import _native
from ..engine.executor import (
    _NATIVE_VARIANT,
    Request,
    _n_clusters,
    _observed,
    _omitted_warning,
    _pair_table,
    _pvalue,
    _resampling_label,
    _summarize,
    _unit_warnings,
    check_draws,
    check_pvalue,
    check_resampling,
    pair_inputs,
    resolve_clusters,
    resolve_variant,
)
from ..engine.options import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_level,
    check_resamples,
    check_seed,
)
from ..engine.progress import resolve as _resolve_progress
from ..results.base import ConfidenceInterval, PairedTestResult
from ._declare import Test, signed

__all__ = ["TEST", "Settings"]


@dataclass(frozen=True)
class Settings:
    """The bootstrap's own settings: the variant, the sidedness (as users name it and as the engine
    counts it) and the confidence level of the percentile intervals."""

    variant: str
    alternative: str
    engine_alternative: str
    confidence_level: float


def validate(
    x: Any,
    y: Any = None,
    *,
    systems: Any = None,
    metric: Any = None,
    metric_params: Mapping[str, Any] | None = None,
    variant: str | None = None,
    alternative: str | None = None,
    n_resamples: Any = DEFAULT_RESAMPLES,
    seed: Any = DEFAULT_SEED,
    confidence_level: Any = DEFAULT_CONFIDENCE,
    pvalue: str = "plus_one",
    resampling: str = "auto",
    draws: str = "sigfast",
    clusters: Any = None,
) -> dict[str, Any]:
    """Two systems (``x`` and ``y``, or two ``systems`` of a table), the variant and sidedness, B, the seed,
    the confidence level, the p-value rule, the scheme and the draws (:data:`sigfast.executor.DRAWS`)."""
    stats, m = pair_inputs(x, y, systems, metric, dict(metric_params or {}))
    B = check_resamples(n_resamples)
    sd = check_seed(seed)
    cl = check_level(confidence_level)
    v, alt, native_alt = resolve_variant(variant or "bk", alternative)
    res = check_resampling(m, resampling)
    cspec = resolve_clusters(stats, clusters, resampling)
    draws = check_draws(draws, m, res)
    pv = check_pvalue(pvalue)
    return dict(
        settings=Settings(v, alt, native_alt, cl),
        stats=stats,
        metric=m,
        n_resamples=B,
        seed=sd,
        pvalue=pv,
        resampling=res,
        clusters=cspec,
        draws=draws,
    )


def signature(req: Request) -> dict[str, Any]:
    """The signature fields of the bootstrap's settings."""
    return dict(
        variant=req.variant,
        alt=req.alternative,
        B=req.n_resamples,
        seed=req.seed,
        conf=req.confidence_level,
        p=req.pvalue,
    )


def run(req: Request, progress: Any) -> PairedTestResult:

    stats, m, B = req.stats, req.metric, req.n_resamples
    table = _pair_table(stats)
    cb = _resolve_progress(progress, B, float(B) * stats.n_items, "bootstrap")
    sx, sy = (float(v) for v in _observed(stats, m))
    delta = sy - sx
    orient = 1.0 if m.higher_is_better else -1.0
    cl = req.confidence_level
    levels = ((1.0 - cl) / 2.0, (1.0 + cl) / 2.0)
    qi: dict[str, list[int]] = {}

    # Counts and the three percentile intervals stream over the resamples (crate::stream):
    # no B-sized array is kept unless return_distribution (or nan_policy='omit') asks for one.
    def setup(summary: Any, total: int) -> None:
        summary.add_bootstrap_rule(_NATIVE_VARIANT[req.variant], req.engine_alternative, orient, delta)
        for q in ("theta", "x", "y"):
            qi[q] = [summary.add_quantile(q, lv) for lv in levels]

    ps = _summarize(table, req, 2, B, setup, cb)
    count = int(ps.summary.counts()[0])
    p = _pvalue(count, ps.n_valid, req.plus_one)
    ci, cx, cy = (ConfidenceInterval(*(ps.summary.quantile(i) for i in qi[q])) for q in ("theta", "x", "y"))
    resampling = _resampling_label(ps.distinct, req)
    return PairedTestResult(
        signature=signed(req, "paired_bootstrap", signature(req), resampling=resampling),
        test="paired_bootstrap",
        variant=req.variant,
        alternative=req.alternative,
        metric=m.name,
        display_scale=m.display_scale,
        higher_is_better=m.higher_is_better,
        systems=(stats.systems[0], stats.systems[1]),
        score_x=sx,
        score_y=sy,
        statistic=delta,
        pvalue=p,
        count=count,
        n_resamples=B,
        pvalue_method="(c+1)/(B+1)" if req.plus_one else "c/B",
        seed=req.seed,
        n_items=stats.n_items,
        resampling=resampling,
        confidence_level=cl,
        confidence_interval=ci,
        score_x_interval=cx,
        score_y_interval=cy,
        version=_native.__version__,
        stream_version=req.stream,
        distribution=ps.values if req.return_distribution else None,
        warnings=_unit_warnings(req) + _omitted_warning(ps.n_valid, B),
        n_valid=ps.n_valid,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
    )


TEST = Test("bootstrap", validate, run, signature, cli=True, doc="the paired bootstrap (sigfast.paired_bootstrap)")
