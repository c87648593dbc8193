"""The paired permutation test (approximate randomization, or exact over all 2^n arrangements): swap each
item's (or each cluster's) two scores.

One module holds everything about the test: its settings, its validation, what it asks the engine (a
permutation rule on δ* over swapped resamples) and its signature fields; :data:`TEST` is its entry in
:data:`sigfast.resampling.TESTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import _native
from ..engine.executor import (
    ALTERNATIVES,
    Request,
    _n_clusters,
    _observed,
    _omitted_warning,
    _pair_table,
    _pvalue,
    _summarize,
    _unit_warnings,
    check_pvalue,
    pair_inputs,
    resolve_clusters,
)
from ..engine.options import DEFAULT_PERMUTATIONS, DEFAULT_SEED, check_resamples, check_seed
from ..engine.progress import resolve as _resolve_progress
from ..exceptions import InputError
from ..results.base import PairedTestResult
from ._declare import Test, signed

__all__ = ["TEST", "Settings"]


@dataclass(frozen=True)
class Settings:
    """The permutation test's own settings: approximate or exact, and the sidedness."""

    method: str
    alternative: str

    @property
    def exact(self) -> bool:
        return self.method == "exact"


def validate(
    x: Any,
    y: Any = None,
    *,
    systems: Any = None,
    metric: Any = None,
    metric_params: Mapping[str, Any] | None = None,
    method: str | None = None,
    alternative: str | None = None,
    n_resamples: Any = DEFAULT_PERMUTATIONS,
    seed: Any = DEFAULT_SEED,
    pvalue: str = "plus_one",
    draws: str = "sigfast",
    clusters: Any = None,
) -> dict[str, Any]:
    """Two systems, the method (``approximate``, ``exact`` or ``auto``: exact up to 20 items or clusters),
    the sidedness, B (``2^n`` when exact), the seed and the p-value rule (``exact`` when exact)."""
    stats, m = pair_inputs(x, y, systems, metric, dict(metric_params or {}))
    if draws != "sigfast":
        raise InputError(f"draws={draws!r} is for the bootstrap; the permutation test draws swaps")
    meth = method or "auto"
    if meth not in ("approximate", "exact", "auto"):
        raise InputError(f"method must be 'approximate', 'exact' or 'auto', got {method!r}")
    alt = alternative or "two-sided"
    if alt not in ALTERNATIVES:
        raise InputError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    sd = check_seed(seed)
    pv = check_pvalue(pvalue)
    cspec = resolve_clusters(stats, clusters, "auto")
    n = stats.n_items if cspec is None else cspec.n_clusters
    unit = "items" if cspec is None else "clusters"
    exact = meth == "exact" or (meth == "auto" and n <= 20)
    if exact and n > _native.MAX_EXACT_ITEMS:
        raise InputError(
            f"the exact test enumerates 2^n arrangements; n = {n} {unit} is above the limit of "
            f"{_native.MAX_EXACT_ITEMS}. Use method='approximate'"
        )
    B = (1 << n) if exact else check_resamples(n_resamples)
    if exact:
        pv = "exact"  # the seed stays in the request; an exact test draws nothing
    return dict(
        settings=Settings("exact" if exact else "approximate", alt),
        stats=stats,
        metric=m,
        n_resamples=B,
        seed=sd,
        pvalue=pv,
        resampling="items" if cspec is None else "clusters",
        clusters=cspec,
        draws=draws,
    )


def signature(req: Request) -> dict[str, Any]:
    """The signature fields of the permutation test's settings (an exact test names no seed)."""
    return dict(
        variant="paired-swap",
        alt=req.alternative,
        B=req.n_resamples,
        seed=None if req.exact else req.seed,
        p=req.pvalue,
    )


def run(req: Request, progress: Any) -> PairedTestResult:

    stats, m, B = req.stats, req.metric, req.n_resamples
    exact = req.exact
    n = stats.n_items
    table = _pair_table(stats)
    cb = _resolve_progress(progress, B, float(B) * n, "permutation")
    sx, sy = (float(v) for v in _observed(stats, m))
    delta = sy - sx

    def setup(summary: Any, total: int) -> None:
        summary.add_permutation_rule(req.alternative, delta)

    ps = _summarize(table, req, 2, B, setup, cb, swap=True)
    count = int(ps.summary.counts()[0])
    p = _pvalue(count, ps.n_valid, req.plus_one and not exact)
    test = "exact_permutation" if exact else "approximate_randomization"
    if req.clusters is None:
        resampling = "all-arrangements" if exact else "swap-each-item-p=0.5"
        sig = signed(req, test, signature(req))
    else:
        unit = str(req.clusters.label)
        resampling = f"all-arrangements-of-{unit}" if exact else f"swap-each-cluster-p=0.5-{unit}"
        sig = signed(req, test, signature(req), resampling=req.clusters.label)
    return PairedTestResult(
        signature=sig,
        test=test,
        variant="paired-swap",
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
        pvalue_method="c/2^n (exact)" if exact else ("(c+1)/(B+1)" if req.plus_one else "c/B"),
        seed=None if exact else req.seed,
        n_items=n,
        resampling=resampling,
        version=_native.__version__,
        stream_version=req.stream,
        distribution=ps.values if req.return_distribution else None,
        warnings=_unit_warnings(req) + _omitted_warning(ps.n_valid, B),
        n_valid=ps.n_valid,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
    )


TEST = Test(
    "permutation", validate, run, signature, cli=True, doc="the paired permutation test (sigfast.permutation_test)"
)
