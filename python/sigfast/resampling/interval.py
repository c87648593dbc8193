"""The bootstrap interval of one system's score, or of the difference of two: percentile or BCa (Efron 1987).

One module holds everything about the test: its settings, its validation, what it asks the engine (the
quantiles of θ*, and for BCa the counts of θ* below θ̂ first, then the levels they give, on a second pass
over the same resamples) and its signature fields; :data:`TEST` is its entry in
:data:`sigfast.resampling.TESTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.bca import _bca_levels, _jackknife
from ..engine.executor import (
    Request,
    _again,
    _n_clusters,
    _pair_table,
    _resampling_label,
    _summarize,
    check_draws,
    check_resampling,
    one_input,
    pair_inputs,
    resolve_clusters,
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
from ..exceptions import InputError
from ..metrics import observed
from ..results.base import ConfidenceInterval
from ..results.interval import BootstrapInterval
from ._declare import Test, signed

__all__ = ["TEST", "Settings"]


@dataclass(frozen=True)
class Settings:
    """The interval's own settings: its method, its confidence level, and what it is of (``score``: one
    system's, ``difference``: of two)."""

    method: str
    confidence_level: float
    statistic: str


def validate(
    x: Any,
    y: Any = None,
    *,
    systems: Any = None,
    system: Any = None,
    metric: Any = None,
    metric_params: Mapping[str, Any] | None = None,
    method: str | None = None,
    n_resamples: Any = DEFAULT_RESAMPLES,
    seed: Any = DEFAULT_SEED,
    confidence_level: Any = DEFAULT_CONFIDENCE,
    resampling: str = "auto",
    draws: str = "sigfast",
    clusters: Any = None,
) -> dict[str, Any]:
    """One system (``x``, or ``system`` of a table), or two for their difference; the method (``bca`` or
    ``percentile``), B (at least 2), the seed, the confidence level, the scheme and the draws."""
    B = check_resamples(n_resamples, 2)
    sd = check_seed(seed)
    cl = check_level(confidence_level)
    meth = method or "bca"
    if meth not in ("bca", "percentile"):
        raise InputError(f"method must be 'bca' or 'percentile', got {method!r}")
    params = dict(metric_params or {})
    if y is not None or systems is not None:
        stats, m = pair_inputs(x, y, systems, metric, params)
    else:
        stats, m = one_input(x, system, metric, params)
    res = check_resampling(m, resampling)
    cspec = resolve_clusters(stats, clusters, resampling)
    draws = check_draws(draws, m, res)
    if meth == "bca" and stats.n_items < 2:
        raise InputError("the BCa interval needs at least 2 items (the jackknife leaves one out)")
    if meth == "bca" and cspec is not None and cspec.n_clusters < 2:
        raise InputError("the BCa interval needs at least 2 clusters (the jackknife leaves one out)")
    return dict(
        settings=Settings(meth, cl, "difference" if stats.n_systems == 2 else "score"),
        stats=stats,
        metric=m,
        n_resamples=B,
        seed=sd,
        resampling=res,
        clusters=cspec,
        draws=draws,
    )


def signature(req: Request) -> dict[str, Any]:
    """The signature fields of the interval's settings (``variant`` names what it is of)."""
    return dict(variant=req.statistic, B=req.n_resamples, seed=req.seed, conf=req.confidence_level)


def run(req: Request, progress: Any) -> BootstrapInterval:

    stats, m, B = req.stats, req.metric, req.n_resamples
    paired = stats.n_systems == 2
    n_sys = stats.n_systems
    table = _pair_table(stats) if paired else np.ascontiguousarray(stats.values[0])
    est_all = observed(m, stats)
    theta_hat = float(est_all[1] - est_all[0]) if paired else float(est_all[0])
    cl = req.confidence_level
    alpha = (1.0 - cl) / 2.0
    z0 = acc = None
    idx: list[int] = []
    q1, q2 = alpha, 1.0 - alpha

    # θ* streams through a summary (crate::stream): the percentile levels are known
    # up front (one pass); BCa counts θ* below θ̂ first, then reads its levels off a
    # second pass over the same resamples. Quantiles are exact (numpy's "linear").
    def setup(summary: Any, total: int) -> None:
        if req.method == "percentile":
            idx[:] = [summary.add_quantile("theta", q) for q in (q1, q2)]  # a second setup replaces
        else:
            summary.add_less_rule(theta_hat)
            summary.add_less_rule(theta_hat, True)

    cb = _resolve_progress(progress, B, float(B) * stats.n_items, "bootstrap")
    ps = _summarize(table, req, n_sys, B, setup, cb)
    if req.method == "bca":
        codes = None if req.clusters is None else req.clusters.codes
        if paired:
            jack = _jackknife(stats.values[1], m, codes) - _jackknife(stats.values[0], m, codes)
        else:
            jack = _jackknife(stats.values[0], m, codes)
        less, less_eq = (int(c) for c in ps.summary.counts())
        q1, q2, z0, acc = _bca_levels(less, less_eq, ps.n_valid, jack, alpha)
        idx = [ps.summary.add_quantile("theta", q) for q in (q1, q2)]
        _again(ps, table, req, n_sys, B)
    lo, hi = (ps.summary.quantile(i) for i in idx)
    theta_b = None
    if req.return_distribution and ps.values is not None:
        v = ps.values
        theta_b = np.ascontiguousarray(v[:, 1] - v[:, 0]) if paired else np.ascontiguousarray(v[:, 0])
    resampling = _resampling_label(ps.distinct, req)
    return BootstrapInterval(
        signature=signed(req, f"bootstrap_interval_{req.method}", signature(req), resampling=resampling),
        method=req.method,
        metric=m.name,
        statistic="difference" if paired else "score",
        estimate=theta_hat,
        confidence_level=cl,
        confidence_interval=ConfidenceInterval(float(lo), float(hi)),
        n_resamples=B,
        seed=int(req.seed or 0),
        n_items=stats.n_items,
        systems=tuple(stats.systems),
        quantiles=(float(q1), float(q2)),
        bias_correction=z0,
        acceleration=acc,
        resampling=resampling,
        distribution=theta_b,
        n_valid=ps.n_valid,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
    )


TEST = Test("interval", validate, run, signature, doc="a bootstrap interval (sigfast.bootstrap_interval)")
