"""Judge scores corrected by human labels: prediction-powered inference (PPI, Angelopoulos et al. 2023) and its
power-tuned form (PPI++, Angelopoulos, Duchi & Zrnic 2024).

A judge (an LLM judge, an automatic metric) scores every item; humans score a subset. The estimate of the mean
human score is ``λ · mean(judge on the unlabelled items) + mean(human − λ · judge on the labelled items)``: the
judge's mean, corrected by its bias measured where both exist. ``λ = 1`` is PPI; PPI++ picks ``λ`` to minimise
the variance, with ppi-python's rule ``λ = cov(Y, Ŷ) / ((1 + n/N) · var(Ŷ))`` (``cov`` over the n labelled items
with divisor n, ``var`` over all n + N judge scores with divisor n + N − 1, clipped to [0, 1]); ``λ = 0`` is the
human mean alone. The standard error is ``sqrt(var(λŶ_unlabelled)/N + var(Y − λŶ)/n)`` (divisor N and n), as
ppi-python's ``ppi_mean_ci``; equal to it to rounding (``tests/test_ppi.py``).

Paired differences: give a second system's judge and human scores on the same items (``judge_b=``,
``human_b=``); the estimate is of mean(human_a − human_b), the same formula applied to the per-item differences
(both systems must be labelled on the same items). Clusters (``clusters=``, one key per item): the standard
error sums each cluster's influence ``ψ_i`` (``λ(Ŷ_i − mean)/N`` for an unlabelled item, ``(R_i − mean R)/n`` for
a labelled one, ``R = Y − λŶ``) and squares the sums, times ``G/(G−1)``; without clusters it is the formula above.
λ is the same plug-in rule with or without clusters.

This is arithmetic on a few vectors; with the resampling-plan engine (issue 30) a judge-corrected estimate becomes
one more input of the plan, and its bootstrap comes from there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InputError
from ..results.base import Result

__all__ = ["PredictionPowered", "prediction_powered"]


@dataclass(frozen=True)
class PredictionPowered(Result):
    """A judge-corrected mean (or paired difference) with its interval, beside the human-only one."""

    estimate: float
    se: float
    lower: float
    upper: float
    lam: float
    n_labelled: int
    n_unlabelled: int
    level: float
    paired: bool
    n_clusters: int
    classical_estimate: float
    classical_lower: float
    classical_upper: float
    judge_mean: float
    signature: str = ""

    _extra = ("width_ratio",)

    @property
    def width_ratio(self) -> float:
        """Interval width relative to the human-only interval on the labelled items."""
        return (self.upper - self.lower) / (self.classical_upper - self.classical_lower)


def _vec(x: Any, name: str) -> np.ndarray:
    try:
        v = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be numbers") from None
    if v.ndim != 1:
        raise InputError(f"{name} must be one-dimensional, not of shape {v.shape}")
    return v


def prediction_powered(
    judge: Sequence[float],
    human: Sequence[float],
    *,
    judge_b: Sequence[float] | None = None,
    human_b: Sequence[float] | None = None,
    clusters: Sequence[Any] | None = None,
    power_tuning: bool = True,
    lam: float | None = None,
    level: float = 0.95,
) -> PredictionPowered:
    """The prediction-powered estimate and interval of the mean human score (or, with ``judge_b``/``human_b``,
    of the mean paired difference a − b on the same items).

    ``judge``: the judge's score of every item (finite). ``human``: the human score, NaN where the item has no
    human label. ``power_tuning``: PPI++'s λ (default) or plain PPI (λ = 1); ``lam=`` fixes λ. ``clusters``: one
    key per item; the standard error is cluster-robust. See the module's documentation.
    """
    from scipy.stats import norm

    from ..results.signature import build, hash_data

    if not (0.0 < level < 1.0):
        raise InputError(f"level must be in (0, 1), not {level!r}")
    yhat = _vec(judge, "judge")
    y = _vec(human, "human")
    if y.shape != yhat.shape:
        raise InputError(f"judge and human differ in length ({len(yhat)}, {len(y)})")
    paired = judge_b is not None or human_b is not None
    if paired:
        if judge_b is None or human_b is None:
            raise InputError("a paired difference needs both judge_b and human_b")
        yb_hat, yb = _vec(judge_b, "judge_b"), _vec(human_b, "human_b")
        if yb_hat.shape != yhat.shape or yb.shape != y.shape:
            raise InputError("judge_b and human_b must have one score per item, as judge and human")
        if not np.array_equal(np.isnan(y), np.isnan(yb)):
            k = int(np.flatnonzero(np.isnan(y) != np.isnan(yb))[0])
            raise InputError(f"item {k}: labelled for one system and not the other (a paired difference needs both)")
        yhat = yhat - yb_hat
        y = y - yb
    if not np.all(np.isfinite(yhat)):
        k = int(np.flatnonzero(~np.isfinite(yhat))[0])
        raise InputError(f"item {k}: the judge score is not a finite number ({yhat[k]!r})")
    lab = ~np.isnan(y)
    if np.any(np.isinf(y)):
        raise InputError("a human score is infinite")
    n, big_n = int(lab.sum()), int((~lab).sum())
    if n < 2 or big_n < 1:
        raise InputError(f"needs at least 2 labelled and 1 unlabelled item (got {n} and {big_n})")
    Y, Yh, Yu = y[lab], yhat[lab], yhat[~lab]
    if lam is not None:
        if not (isinstance(lam, (int, float)) and math.isfinite(lam)):
            raise InputError(f"lam must be a finite number, not {lam!r}")
        lam_ = float(lam)
    elif power_tuning:
        cov = float(np.mean((Y - Y.mean()) * (Yh - Yh.mean())))
        var = float(np.var(np.concatenate([Yh, Yu]), ddof=1))
        lam_ = 0.0 if var == 0 else min(1.0, max(0.0, cov / ((1.0 + n / big_n) * var)))
    else:
        lam_ = 1.0
    R = Y - lam_ * Yh
    est = lam_ * float(Yu.mean()) + float(R.mean())
    n_cl = 0
    if clusters is None:
        var_est = float(np.var(lam_ * Yu)) / big_n + float(np.var(R)) / n
    else:
        keys = list(clusters)
        if len(keys) != len(y):
            raise InputError(f"clusters has {len(keys)} keys for {len(y)} items")
        codes: dict[Any, int] = {}
        g = np.array([codes.setdefault(k, len(codes)) for k in keys])
        psi = np.empty(len(y))
        psi[~lab] = lam_ * (Yu - Yu.mean()) / big_n
        psi[lab] = (R - R.mean()) / n
        sums = np.bincount(g, weights=psi, minlength=len(codes))
        n_cl = len(codes)
        var_est = float(np.sum(sums**2)) * (n_cl / (n_cl - 1) if n_cl > 1 else 1.0)
    se = math.sqrt(var_est)
    z = float(norm.ppf(0.5 + level / 2))
    cl_se = float(np.std(Y)) / math.sqrt(n)
    if clusters is not None:
        gl = g[lab]
        sums = np.bincount(gl, weights=(Y - Y.mean()) / n, minlength=len(codes))
        used = int(np.sum(np.bincount(gl, minlength=len(codes)) > 0))
        cl_se = math.sqrt(float(np.sum(sums**2)) * (used / (used - 1) if used > 1 else 1.0))
    return PredictionPowered(
        estimate=est,
        se=se,
        lower=est - z * se,
        upper=est + z * se,
        lam=lam_,
        n_labelled=n,
        n_unlabelled=big_n,
        level=level,
        paired=paired,
        n_clusters=n_cl,
        classical_estimate=float(Y.mean()),
        classical_lower=float(Y.mean()) - z * cl_se,
        classical_upper=float(Y.mean()) + z * cl_se,
        judge_mean=float(yhat.mean()),
        signature=build(
            "prediction_powered",
            variant="ppi++" if lam is None and power_tuning else "ppi" if lam is None else f"lambda={lam_:g}",
            statistic="difference" if paired else "mean",
            conf=level,
            items=len(y),
            labelled=n,
            clusters=n_cl or None,
            data=hash_data(yhat, y, *(() if clusters is None else (g,))),
        ),
    )
