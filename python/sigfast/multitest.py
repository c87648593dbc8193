"""Corrections for multiple comparisons, and replicability analysis over datasets.

:func:`adjust` takes any list of p-values (from sigfast's resampling tests,
its classical tests, or elsewhere) and returns adjusted p-values and
rejections for Bonferroni, Holm, Hochberg, Benjamini-Hochberg and
Benjamini-Yekutieli; the adjusted p-values equal
``statsmodels.stats.multitest.multipletests(p, alpha, method)`` with
methods ``bonferroni``, ``holm``, ``simes-hochberg``, ``fdr_bh`` and
``fdr_by``.

:func:`romano_wolf` is the correction that needs the resamples themselves:
Romano & Wolf's (2005) step-down max-statistic p-values from the bootstrap
values of every system on the same resamples (what :func:`sigfast.pairwise`
and :func:`sigfast.leaderboard` pass it for ``correction="romano-wolf"``).

:func:`replicability` implements Dror, Baumer, Bogomolov & Reichart (2017),
"Replicability Analysis for Natural Language Processing: Testing
Significance with Multiple Datasets": from one p-value per dataset (or
split), it estimates how many datasets show an effect (partial-conjunction
p-values combined by Bonferroni or Fisher) and identifies which (Holm).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._api import checked_keywords
from .classical import _chi2_sf_even
from .exceptions import InputError
from .results import Result

__all__ = [
    "METHODS",
    "AdjustedPValues",
    "ReplicabilityResult",
    "RomanoWolf",
    "adjust",
    "max_t_stepdown",
    "replicability",
    "romano_wolf",
]

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
    from .executor import check_alpha

    return check_alpha(alpha)


@dataclass(frozen=True)
class AdjustedPValues(Result):
    """Adjusted p-values, in the order given; ``np.asarray(result)`` gives them."""

    method: str
    alpha: float
    pvalues: np.ndarray
    adjusted: np.ndarray
    reject: np.ndarray

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.adjusted if dtype is None else self.adjusted.astype(dtype)

    def __len__(self) -> int:
        return int(self.adjusted.size)

    def __getitem__(self, i: Any) -> Any:
        return self.adjusted[i]

    @property
    def signature(self) -> str:
        """The correction, alpha, the family's size and a hash of the p-values."""
        from .signature import build

        return build(
            "adjust",
            variant=self.method,
            items=len(self),
            correction=f"{self.method}@{self.alpha:g}",
            data=self.pvalues,
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per hypothesis: its p-value, adjusted p-value and decision."""
        return [
            {
                "hypothesis": i,
                "pvalue": float(p),
                "adjusted": float(a),
                "reject": bool(r),
                "method": self.method,
                "alpha": self.alpha,
                "signature": self.signature,
            }
            for i, (p, a, r) in enumerate(zip(self.pvalues, self.adjusted, self.reject))
        ]

    def _text(self) -> str:
        return (
            "\n".join(
                [f"{self.method} at alpha {self.alpha:g}: {int(self.reject.sum())} of {len(self)} rejected"]
                + [
                    f"  p = {p:.6g}  adjusted {a:.6g}{'  *' if r else ''}"
                    for p, a, r in zip(self.pvalues, self.adjusted, self.reject)
                ]
                + [f"  {self.signature}"]
            )
            + "\n"
        )


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


@dataclass(frozen=True)
class ReplicabilityResult(Result):
    """Replicability analysis over N datasets (Dror et al. 2017).

    ``k_estimate``: the number of datasets in which the effect is declared
    (k̂ = #{u : p^{u/N} ≤ α}, from the monotone partial-conjunction
    p-values); ``partial_conjunction[u-1]`` = p^{u/N}, the p-value of "fewer
    than u datasets have an effect"; ``identified``: indices of the datasets
    identified by Holm's procedure at ``alpha`` (the family-wise error is
    controlled), ``names`` their labels when given.
    """

    method: str
    alpha: float
    pvalues: tuple[float, ...]
    k_estimate: int
    partial_conjunction: tuple[float, ...]
    identified: tuple[int, ...]
    names: tuple[str, ...] | None = None

    _extra = ("identified_names",)

    @property
    def identified_names(self) -> tuple[str, ...] | None:
        if self.names is None:
            return None
        return tuple(self.names[i] for i in self.identified)

    @property
    def signature(self) -> str:
        """The method, alpha, the number of datasets and a hash of their p-values (and names)."""
        from .signature import build

        return build(
            "replicability",
            variant=self.method,
            items=len(self.pvalues),
            alpha=self.alpha,
            data=[list(self.pvalues), list(self.names or ())],
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per dataset: its p-value, the partial-conjunction p-value p^{u/N} of
        u = its rank, and whether Holm identifies it."""
        names = self.names or tuple(str(i) for i in range(len(self.pvalues)))
        return [
            {
                "dataset": names[i],
                "pvalue": p,
                "partial_conjunction": self.partial_conjunction[i],
                "identified": i in self.identified,
                "k_estimate": self.k_estimate,
                "method": self.method,
                "alpha": self.alpha,
                "signature": self.signature,
            }
            for i, p in enumerate(self.pvalues)
        ]

    def _text(self) -> str:
        who = self.identified_names if self.names is not None else self.identified
        return (
            f"replicability ({self.method}, alpha={self.alpha:g}): effect in k̂ = {self.k_estimate} of "
            f"{len(self.pvalues)} datasets; identified (Holm): {list(who)}\n  {self.signature}\n"
        )


def _partial_conjunction(ps_desc: np.ndarray, u: int, method: str) -> float:
    """p-value of 'fewer than u of N nulls are false', from the N-u+1 largest p-values."""
    n = ps_desc.size
    top = ps_desc[: n - u + 1]
    if method == "bonferroni":
        return float(min(1.0, (n - u + 1) * float(top.min())))
    if (top == 0).any():
        return 0.0
    stat = -2.0 * float(np.sum(np.log(top)))
    return _chi2_sf_even(stat, 2 * (n - u + 1))


@checked_keywords
def replicability(
    pvalues: Sequence[float] | np.ndarray,
    *,
    alpha: float = 0.05,
    method: str = "bonferroni",
    names: Sequence[str] | None = None,
) -> ReplicabilityResult:
    """Replicability analysis over several test sets or splits (Dror et al. 2017).

    ``pvalues`` holds one p-value per dataset, each from a test of the same
    two systems. ``method="bonferroni"`` combines the N − u + 1 largest
    p-values as (N − u + 1)·min (valid under any dependence between
    datasets); ``method="fisher"`` by Fisher's χ² with 2(N − u + 1) degrees
    of freedom (for independent datasets). The partial-conjunction p-values
    are made monotone in u by a running maximum; k̂ counts those ≤ alpha.
    The identified datasets are Holm's rejections at ``alpha`` (which are
    the k̂ smallest p-values of the Bonferroni estimate).
    """
    p = _pvalues(pvalues)
    a = _alpha(alpha)
    m = {"bonferroni": "bonferroni", "b": "bonferroni", "fisher": "fisher", "f": "fisher"}.get(str(method).lower())
    if m is None:
        raise InputError(f"replicability method must be 'bonferroni' or 'fisher', got {method!r}")
    if names is not None:
        names = tuple(str(s) for s in names)
        if len(names) != p.size:
            raise InputError(f"{len(names)} names for {p.size} p-values")
    if p.size == 0:
        raise InputError("replicability analysis needs at least one p-value")
    ps_desc = np.sort(p)[::-1]
    pc: list[float] = []
    for u in range(1, p.size + 1):
        v = _partial_conjunction(ps_desc, u, m)
        pc.append(max(v, pc[-1]) if pc else v)
    k = sum(1 for v in pc if v <= a)
    holm = adjust(p, "holm", alpha=a)
    ident = tuple(int(i) for i in np.flatnonzero(holm.reject)[np.argsort(p[holm.reject], kind="mergesort")])
    return ReplicabilityResult(m, a, tuple(float(v) for v in p), int(k), tuple(pc), ident, names)
