"""Corrections for multiple comparisons: :func:`adjust` (Bonferroni, Holm, Hochberg, Benjamini-Hochberg,
Benjamini-Yekutieli), Romano–Wolf's step-down from the resamples (:func:`romano_wolf`) and the adjustment of a
matrix of pairwise p-values, used by the engine and by the front-ends (:mod:`sigfast.multitest` documents them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._api import checked_keywords
from ..exceptions import InputError
from ..results.multitest import AdjustedPValues
from .options import check_alpha

__all__ = ["METHODS", "ROMANO_WOLF", "RomanoWolf", "adjust", "max_t_stepdown", "romano_wolf"]
METHODS = {
    "bonferroni": "bonferroni",
    "bonf": "bonferroni",
    "b": "bonferroni",
    "holm": "holm",
    "h": "holm",
    "hochberg": "hochberg",
    "simes-hochberg": "hochberg",
    "sh": "hochberg",
    "bh": "fdr_bh",
    "fdr_bh": "fdr_bh",
    "benjamini-hochberg": "fdr_bh",
    "by": "fdr_by",
    "fdr_by": "fdr_by",
    "benjamini-yekutieli": "fdr_by",
}


def _pvalues(pvalues: Any) -> np.ndarray:
    try:
        p = np.asarray(pvalues, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("p-values must be numbers") from None
    if p.ndim == 0:
        p = p.reshape(1)
    if p.ndim != 1:
        raise InputError(f"p-values must be a flat list, got shape {p.shape}")
    nan = np.isnan(p)
    if nan.any():
        i = int(np.flatnonzero(nan)[0])
        raise InputError(
            f"p-value {i} is NaN; a correction cannot use an undefined p-value. Fix or drop that comparison "
            "(for a test with no evidence either way, the p-value is 1)"
        )
    bad = (p < 0) | (p > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"p-value {i} is {p[i]!r}, outside [0, 1]")
    return p


def _alpha(alpha: float) -> float:
    return check_alpha(alpha)


@checked_keywords
def adjust(pvalues: Sequence[float] | np.ndarray, method: str = "holm", *, alpha: float = 0.05) -> AdjustedPValues:
    """Adjust p-values for multiple comparisons.

    method
        ``"bonferroni"``, ``"holm"`` (step-down, family-wise error),
        ``"hochberg"`` (step-up, family-wise error under independence or
        positive dependence), ``"bh"`` / ``"fdr_bh"`` (Benjamini-Hochberg
        false discovery rate), ``"by"`` / ``"fdr_by"`` (Benjamini-Yekutieli,
        any dependence).

    Returns the adjusted p-values (capped at 1, equal to statsmodels'
    ``multipletests(pvalues, alpha, method)[1]``) and ``reject`` (the
    step-wise rejections at ``alpha``, as statsmodels' ``[0]``). NaN or
    values outside [0, 1] raise :class:`~sigfast.InputError`.
    """
    p = _pvalues(pvalues)
    a = _alpha(alpha)
    m = METHODS.get(str(method).lower())
    if m is None:
        raise InputError(f"unknown correction {method!r}; choose one of bonferroni, holm, hochberg, bh, by")
    n = p.size
    if n == 0:
        e = np.empty(0)
        return AdjustedPValues(m, a, e, e.copy(), np.empty(0, dtype=bool))
    order = np.argsort(p, kind="mergesort")
    ps = p[order]
    rank = np.arange(1, n + 1, dtype=np.float64)
    if m == "bonferroni":
        adj = np.minimum(p * n, 1.0)
        rej = p <= a / n
    else:
        if m == "holm":
            raw = ps * (n - rank + 1)
            adj_s = np.maximum.accumulate(raw)
            ok = ps <= a / (n - rank + 1)
            rej_s = np.cumprod(ok).astype(bool)  # step down: stop at the first failure
        else:
            if m == "hochberg":
                raw = ps * (n - rank + 1)
                ok = ps <= a / (n - rank + 1)
            else:
                factor = rank / n
                if m == "fdr_by":
                    factor = factor / np.sum(1.0 / rank)
                raw = ps / factor
                ok = ps <= factor * a
            adj_s = np.minimum.accumulate(raw[::-1])[::-1]
            rej_s = np.zeros(n, dtype=bool)  # step up: everything up to the last success
            if ok.any():
                rej_s[: int(np.flatnonzero(ok)[-1]) + 1] = True
        adj = np.empty(n)
        adj[order] = np.minimum(adj_s, 1.0)
        rej = np.empty(n, dtype=bool)
        rej[order] = rej_s
    return AdjustedPValues(m, a, p.copy(), adj, rej)


def _adjust_matrix(pv: np.ndarray, correction: str, alpha: float) -> np.ndarray:
    s = pv.shape[0]
    iu = np.triu_indices(s, 1)
    if correction in ("none", None):
        return pv.copy()
    upper = np.asarray(adjust(pv[iu], correction, alpha=alpha).adjusted)
    out = np.full_like(pv, np.nan)
    out[iu] = upper
    lower_src = adjust(pv.T[iu], correction, alpha=alpha).adjusted  # (j, i) entries of the same family
    out[(iu[1], iu[0])] = np.asarray(lower_src)
    return out


#: The correction computed from the bootstrap resamples (not from p-values: :func:`adjust` cannot do it).
ROMANO_WOLF = "romano-wolf"

#: Values one block of the step-down holds at most (resamples × hypotheses).
_RW_BLOCK = 1 << 21


@dataclass(frozen=True)
class RomanoWolf:
    """Romano–Wolf step-down p-values of a family of differences (:func:`romano_wolf`).

    ``pvalues``: each hypothesis' own bootstrap p-value of the same statistic (one step, no
    correction); ``adjusted``: the step-down p-values, family-wise error at any alpha; ``scale``: each
    difference's bootstrap standard deviation (1 where the difference does not vary); ``n_resamples``:
    the resamples used."""

    pvalues: np.ndarray
    adjusted: np.ndarray
    scale: np.ndarray
    n_resamples: int


def romano_wolf(values: Any, observed: Any, pairs: Any, *, sides: Any = 0, plus_one: bool = True) -> RomanoWolf:
    """Romano & Wolf (2005) step-down p-values of the differences ``values[:, j] − values[:, i]`` for each
    ``(i, j)`` of ``pairs``, from the bootstrap.

    ``values``: resamples × systems, each system's statistic on the same bootstrap resamples (rows
    with a non-finite value are dropped); ``observed``: each system's statistic on the data. Each
    difference δ_h is standardized by its bootstrap standard deviation σ_h (numpy's ``std``, ddof 0,
    over the resamples kept; 1 where it is 0): t_h = side(δ_h)/σ_h and, on resample b,
    t*_bh = side(δ*_bh − δ_h)/σ_h, centred at the observed difference (the bootstrap's null), where
    side(x) is |x| for ``sides`` 0 (two-sided), x for +1 and −x for −1 (``sides``: one per hypothesis
    or one for all). With the hypotheses in decreasing order of t (ties in their given order), step k
    counts the resamples whose largest t* among hypotheses k, k+1, ... reaches t_(k):
    p_(k) = (c_k + 1) / (B + 1) (``plus_one``; else c_k / B); the adjusted p-values are their running
    maximum down the order (the monotonicity of Romano & Wolf 2016, Algorithm 4.1), at most 1.
    ``pvalues`` are each hypothesis' own count, (#{t*_h ≥ t_h} + 1) / (B + 1).
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise InputError(f"values must be resamples x systems, got shape {v.shape}")
    ok = np.isfinite(v).all(axis=1)
    if not ok.all():
        v = v[ok]
    B = v.shape[0]
    if B == 0:
        raise InputError("romano_wolf() needs at least one resample on which every value is defined")
    ij = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    i, j = ij[:, 0], ij[:, 1]
    k = ij.shape[0]
    obs = np.asarray(observed, dtype=np.float64)
    delta = obs[j] - obs[i]
    side = np.broadcast_to(np.asarray(sides, dtype=np.int64), (k,))
    if k == 0:
        e = np.empty(0)
        return RomanoWolf(e, e.copy(), e.copy(), B)
    rows = max(1, _RW_BLOCK // k)
    # the bootstrap standard deviation of each difference: its mean, then its spread (two passes)
    total = np.zeros(k)
    for a in range(0, B, rows):
        total += (v[a : a + rows, j] - v[a : a + rows, i]).sum(axis=0)
    mean = total / B
    ss = np.zeros(k)
    for a in range(0, B, rows):
        d = v[a : a + rows, j] - v[a : a + rows, i] - mean
        ss += (d * d).sum(axis=0)
    sd = np.sqrt(ss / B)
    scale = np.where(sd > 0, sd, 1.0)

    def stat(x: np.ndarray) -> np.ndarray:
        return np.where(side == 0, np.abs(x), np.where(side < 0, -x, x)) / scale

    t = stat(delta)
    steps = _StepDown(t)
    for a in range(0, B, rows):
        steps.feed(stat(v[a : a + rows, j] - v[a : a + rows, i] - delta))
    single, adjusted = steps.pvalues(plus_one)
    return RomanoWolf(single, adjusted, scale, B)


class _StepDown:
    """The counts of the step-down, fed block by block: with the hypotheses in decreasing order of the
    observed statistics ``t`` (ties in their given order), step k counts the resamples whose largest
    statistic among hypotheses k, k+1, ... reaches t_(k); ``own`` counts each hypothesis' own
    exceedances."""

    def __init__(self, t: np.ndarray) -> None:
        self.t = np.asarray(t, dtype=np.float64)
        self.order = np.argsort(-self.t, kind="stable")
        self.t_sorted = self.t[self.order]
        self.own = np.zeros(self.t.size, dtype=np.int64)
        self.steps = np.zeros(self.t.size, dtype=np.int64)
        self.total = 0

    def feed(self, ts: np.ndarray) -> None:
        self.own += (ts >= self.t).sum(axis=0)
        suffix = np.maximum.accumulate(ts[:, self.order][:, ::-1], axis=1)[:, ::-1]
        self.steps += (suffix >= self.t_sorted).sum(axis=0)
        self.total += ts.shape[0]

    def pvalues(self, plus_one: bool) -> tuple[np.ndarray, np.ndarray]:
        """(each hypothesis' own p-value, the step-down p-values made monotone down the order, at most 1)."""
        B = self.total
        if plus_one:
            single, step = (self.own + 1) / (B + 1), (self.steps + 1) / (B + 1)
        else:
            single, step = self.own / B, self.steps / B
        adjusted = np.empty(self.t.size)
        adjusted[self.order] = np.minimum(np.maximum.accumulate(step), 1.0)
        return single, adjusted


def max_t_stepdown(t: Any, t_star: Any, *, plus_one: bool = True) -> np.ndarray:
    """The step-down max-statistic p-values (Romano & Wolf 2005; 2016, Algorithm 4.1) of hypotheses
    with observed statistics ``t`` (k; larger is more extreme) and their bootstrap null statistics
    ``t_star`` (resamples × k, already centred and scaled as the statistic asks): with the hypotheses
    in decreasing order of t, p_(k) = (#{b : max over hypotheses k, k+1, ... of t*_b ≥ t_(k)} + 1) /
    (B + 1) (``plus_one``; else the count / B), then the running maximum down the order, at most 1.
    The reduction :func:`romano_wolf` uses on its standardized differences."""
    tt = np.asarray(t, dtype=np.float64).reshape(-1)
    ts = np.asarray(t_star, dtype=np.float64)
    if ts.ndim != 2 or ts.shape[1] != tt.size or ts.shape[0] == 0:
        raise InputError(f"t_star must be resamples x {tt.size} (one column per hypothesis), got shape {ts.shape}")
    if not (np.isfinite(tt).all() and np.isfinite(ts).all()):
        raise InputError("the statistics must be finite")
    steps = _StepDown(tt)
    rows = max(1, _RW_BLOCK // max(1, tt.size))
    for a in range(0, ts.shape[0], rows):
        steps.feed(ts[a : a + rows])
    return steps.pvalues(plus_one)[1]


def _romano_wolf_matrix(values: Any, obs: np.ndarray, alternative: str, plus_one: bool) -> np.ndarray:
    """The Romano–Wolf step-down p-values of every pair as an S × S matrix (``[i, j]``: system j against
    system i) from every system's values on the shared resamples, sided as the pairwise test: two-sided
    |δ|, the observed direction (the ``bk`` and ``koehn`` rules), or one-sided (``greater``:
    δ = m(j) − m(i) > 0, ``less``: < 0), where the upper and lower triangles are two families, as
    :func:`_adjust_matrix` makes them for the other corrections."""
    s = obs.shape[0]
    iu = np.triu_indices(s, 1)
    out = np.full((s, s), np.nan)
    if alternative in ("greater", "less"):
        side = 1 if alternative == "greater" else -1
        for rows, cols in ((iu[0], iu[1]), (iu[1], iu[0])):
            rw = romano_wolf(values, obs, np.column_stack((rows, cols)), sides=side, plus_one=plus_one)
            out[rows, cols] = rw.adjusted
        return out
    if alternative == "two-sided":
        sides: Any = 0
    else:  # one-sided in the observed direction
        sides = np.where(obs[iu[1]] < obs[iu[0]], -1, 1)
    rw = romano_wolf(values, obs, np.column_stack(iu), sides=sides, plus_one=plus_one)
    out[iu] = rw.adjusted
    out[(iu[1], iu[0])] = rw.adjusted
    return out
