"""Confidence intervals: binomial proportions, and bootstrap intervals on the engine.

Proportions (accuracy = correct / total):

* :func:`wilson_interval` equals ``statsmodels.stats.proportion.proportion_confint(k, n,
  alpha, method="wilson")`` and ``scipy.stats.binomtest(k, n).proportion_ci(cl, "wilson")``
  (``correction=True``: scipy's ``"wilsoncc"``);
* :func:`clopper_pearson_interval` equals ``proportion_confint(..., method="beta")`` and
  scipy's ``"exact"``;
* :func:`agresti_coull_interval` equals ``proportion_confint(..., method="agresti_coull")``;
* :func:`jeffreys_interval` equals ``proportion_confint(..., method="jeffreys")``, and
  :func:`beta_binomial_interval` (the equal-tailed posterior interval under a Beta(a, b) prior)
  equals ``scipy.stats.beta(successes + a, n - successes + b).ppf``.

Two models on the same binary items: :func:`sigfast.paired_proportion_interval`
(Newcombe, Tango, Bonett–Price).

Any metric on sufficient statistics: :func:`bootstrap_interval` draws the
bootstrap distribution with sigfast's core engine (the same counter-based
streams as :func:`sigfast.paired_bootstrap`) and returns the percentile or
the BCa interval (Efron 1987), the acceleration estimated by the jackknife
over items computed on the sufficient statistics.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from .._api import checked_keywords
from ..engine.bca import _acceleration as _acceleration
from ..engine.bca import _bca_levels as _bca_levels
from ..engine.bca import _jackknife as _jackknife
from ..engine.bca import _jackknife_clusters as _jackknife_clusters
from ..engine.options import DEFAULT_CONFIDENCE, DEFAULT_SEED
from ..exceptions import InputError
from ..results.base import ConfidenceInterval
from ..results.interval import BootstrapInterval
from .classical import _beta_ppf, _count, _ndtri

__all__ = [
    "BootstrapInterval",
    "agresti_coull_interval",
    "beta_binomial_interval",
    "bootstrap_interval",
    "clopper_pearson_interval",
    "jeffreys_interval",
    "proportion_interval",
    "wilson_interval",
]


def _kn(successes: Any, n: Any) -> tuple[int, int]:
    k, nn = _count("successes", successes), _count("n", n)
    if nn < 1:
        raise InputError("a proportion needs n >= 1 trials")
    if k > nn:
        raise InputError(f"successes ({k}) must not exceed n ({nn})")
    return k, nn


def _level(confidence_level: float) -> float:
    cl = float(confidence_level)
    if not 0.0 < cl < 1.0:
        raise InputError(f"confidence_level must be in (0, 1), got {confidence_level}")
    return cl


def _tail(cl: float, alternative: str) -> float:
    if alternative not in ("two-sided", "greater", "less"):
        raise InputError(f"alternative must be 'two-sided', 'greater' or 'less', got {alternative!r}")
    return (1.0 - cl) / 2.0 if alternative == "two-sided" else 1.0 - cl


@checked_keywords
def wilson_interval(
    successes: int,
    n: int,
    confidence_level: float = DEFAULT_CONFIDENCE,
    *,
    correction: bool = False,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
) -> ConfidenceInterval:
    """Wilson score interval for a binomial proportion ``successes / n``.

    Without ``correction`` equals statsmodels'
    ``proportion_confint(successes, n, 1 - confidence_level, "wilson")`` and
    scipy's ``binomtest(successes, n).proportion_ci(confidence_level,
    "wilson")``; with ``correction`` (continuity-corrected, Newcombe 1998)
    scipy's ``"wilsoncc"``. One-sided intervals (``"greater"``: a lower
    bound; ``"less"``: an upper bound) follow scipy.
    """
    k, nn = _kn(successes, n)
    cl = _level(confidence_level)
    z = -_ndtri(_tail(cl, alternative))
    p = k / nn
    q = 1.0 - p
    if not correction:
        z2 = z * z
        denom = 1.0 + z2 / nn
        center = (p + z2 / (2.0 * nn)) / denom
        dist = z * math.sqrt(p * q / nn + z2 / (4.0 * nn * nn)) / denom
        lo, hi = center - dist, center + dist
    else:
        denom = 2.0 * (nn + z * z)
        center = (2.0 * nn * p + z * z) / denom
        lo, hi = 0.0, 1.0
        if k > 0:
            lo = center - (1.0 + z * math.sqrt(z * z - 2.0 - 1.0 / nn + 4.0 * p * (nn * q + 1.0))) / denom
        if k < nn:
            hi = center + (1.0 + z * math.sqrt(z * z + 2.0 - 1.0 / nn + 4.0 * p * (nn * q - 1.0))) / denom
    if k == 0 or alternative == "less":
        lo = 0.0
    if k == nn or alternative == "greater":
        hi = 1.0
    return ConfidenceInterval(min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0))


@checked_keywords
def clopper_pearson_interval(
    successes: int,
    n: int,
    confidence_level: float = DEFAULT_CONFIDENCE,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
) -> ConfidenceInterval:
    """Clopper-Pearson ("exact") interval from beta quantiles.

    Equals statsmodels' ``proportion_confint(successes, n, 1 - cl, "beta")``
    and scipy's ``binomtest(successes, n).proportion_ci(cl, "exact")``.
    """
    k, nn = _kn(successes, n)
    cl = _level(confidence_level)
    a = _tail(cl, alternative)
    lo = 0.0 if (k == 0 or alternative == "less") else _beta_ppf(a, k, nn - k + 1)
    hi = 1.0 if (k == nn or alternative == "greater") else _beta_ppf(1.0 - a, k + 1, nn - k)
    return ConfidenceInterval(lo, hi)


@checked_keywords
def agresti_coull_interval(successes: int, n: int, confidence_level: float = DEFAULT_CONFIDENCE) -> ConfidenceInterval:
    """Agresti-Coull interval (two-sided), clipped to [0, 1].

    Equals statsmodels' ``proportion_confint(successes, n, 1 - cl, "agresti_coull")``.
    """
    k, nn = _kn(successes, n)
    cl = _level(confidence_level)
    z = -_ndtri((1.0 - cl) / 2.0)
    nc = nn + z * z
    pc = (k + z * z / 2.0) / nc
    dist = z * math.sqrt(pc * (1.0 - pc) / nc)
    return ConfidenceInterval(min(max(pc - dist, 0.0), 1.0), min(max(pc + dist, 0.0), 1.0))


def beta_binomial_interval(
    successes: int,
    n: int,
    confidence_level: float = DEFAULT_CONFIDENCE,
    *,
    prior: tuple[float, float] = (1.0, 1.0),
) -> ConfidenceInterval:
    """Bayesian (Beta-binomial) interval: the equal-tailed credible interval of the posterior
    Beta(successes + a, n − successes + b) of the accuracy under the prior Beta(a, b)
    (``prior=(a, b)``; default Beta(1, 1), the uniform prior).

    Its ends are the posterior's (1 − level)/2 and (1 + level)/2 quantiles, equal to
    ``scipy.stats.beta(successes + a, n - successes + b).ppf``. With ``prior=(0.5, 0.5)`` it is
    the Jeffreys interval (:func:`jeffreys_interval`). The ends are the posterior's own, also at
    0 or n successes (the interval then excludes the observed 0 or 1).
    """
    k, nn = _kn(successes, n)
    cl = _level(confidence_level)
    try:
        a, b = (float(v) for v in prior)
    except (TypeError, ValueError):
        raise InputError(f"prior must be two positive numbers (a, b) of a Beta(a, b) prior, got {prior!r}") from None
    if not (a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)):
        raise InputError(f"prior must be two positive numbers (a, b) of a Beta(a, b) prior, got {prior!r}")
    tail = (1.0 - cl) / 2.0
    return ConfidenceInterval(_beta_ppf(tail, k + a, nn - k + b), _beta_ppf(1.0 - tail, k + a, nn - k + b))


def jeffreys_interval(successes: int, n: int, confidence_level: float = DEFAULT_CONFIDENCE) -> ConfidenceInterval:
    """Jeffreys interval: the equal-tailed posterior interval under the Jeffreys prior Beta(1/2, 1/2)
    (Brown, Cai & DasGupta 2001), without their change at 0 or n successes.

    Equals statsmodels' ``proportion_confint(successes, n, 1 - confidence_level, "jeffreys")``.
    """
    return beta_binomial_interval(successes, n, confidence_level, prior=(0.5, 0.5))


_PROPORTION_METHODS = "wilson, wilsoncc, clopper-pearson, agresti-coull, jeffreys, beta-binomial (bayes)"


@checked_keywords
def proportion_interval(
    successes: int,
    n: int,
    confidence_level: float = DEFAULT_CONFIDENCE,
    method: str = "wilson",
    *,
    prior: tuple[float, float] = (1.0, 1.0),
) -> ConfidenceInterval:
    """A two-sided interval for ``successes / n`` by ``method``: ``"wilson"``,
    ``"wilsoncc"``, ``"clopper-pearson"`` (``"exact"``, ``"beta"``), ``"agresti-coull"``,
    ``"jeffreys"`` or ``"beta-binomial"`` (``"bayes"``: the posterior interval under the
    Beta(a, b) ``prior``, see :func:`beta_binomial_interval`)."""
    m = str(method).lower().replace("_", "-")
    if m == "wilson":
        return wilson_interval(successes, n, confidence_level)
    if m in ("wilsoncc", "wilson-cc"):
        return wilson_interval(successes, n, confidence_level, correction=True)
    if m in ("clopper-pearson", "exact", "beta"):
        return clopper_pearson_interval(successes, n, confidence_level)
    if m == "agresti-coull":
        return agresti_coull_interval(successes, n, confidence_level)
    if m == "jeffreys":
        return jeffreys_interval(successes, n, confidence_level)
    if m in ("beta-binomial", "bayes", "bayesian"):
        return beta_binomial_interval(successes, n, confidence_level, prior=prior)
    raise InputError(f"unknown proportion interval {method!r}; choose {_PROPORTION_METHODS}")


# --------------------------------------------------------------------------
# Bootstrap intervals
# --------------------------------------------------------------------------


@checked_keywords
def bootstrap_interval(
    x: Any,
    y: Any = None,
    *,
    metric: Any = None,
    system: Any = None,
    systems: tuple[Any, Any] | None = None,
    method: Literal["bca", "percentile"] = "bca",
    confidence_level: float = DEFAULT_CONFIDENCE,
    n_resamples: int = 10_000,
    seed: int = DEFAULT_SEED,
    resampling: Literal["auto", "items", "distinct", "clusters", "two-level", "crossed"] = "auto",
    clusters: Any = None,
    nan_policy: Literal["raise", "omit"] = "raise",
    stream: int | None = None,
    n_threads: int | None = None,
    return_distribution: bool = False,
    draws: Literal["sigfast", "sacrebleu"] = "sigfast",
    **metric_params: Any,
) -> BootstrapInterval:
    """Bootstrap percentile or BCa interval for any metric on sufficient statistics.

    One system: ``x`` holds per-item scores (1-D, the metric is their mean),
    per-item statistics (items × statistics, with ``metric=``), or a
    :class:`~sigfast.Statistics` (``system=`` picks one). Two systems
    (``y`` given, or ``systems=`` on a Statistics): the interval of
    δ = metric(y) − metric(x) under the paired bootstrap; its percentile
    interval equals :func:`sigfast.paired_bootstrap`'s ``confidence_interval``
    for the same seed and ``n_resamples``.

    ``method="bca"``: z0 = Φ⁻¹((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B), as
    ``scipy.stats.bootstrap``; the acceleration a = Σd³ / (6 (Σd²)^{3/2})
    with d the jackknife deviations (leave one item out of the summed
    statistics); the ends are the bootstrap quantiles (numpy's "linear") at
    Φ(z0 + (z0 ± z)/(1 − a(z0 ± z))). When every resample falls on one side
    of θ̂, z0 is computed from 1/(2B) instead of 0 (scipy returns NaN).

    ``clusters`` (one key per item; default: the statistics' own, see
    :func:`sigfast.paired_bootstrap`) draws whole clusters; the BCa jackknife then leaves one
    cluster out at a time.

    ``nan_policy`` is as in :func:`sigfast.paired_bootstrap`: ``"omit"`` drops the
    resamples on which the metric is undefined and reports how many were kept
    (``n_valid``). ``draws="sacrebleu"`` resamples with sacrebleu's draws (see
    :func:`sigfast.paired_bootstrap`); ``stream`` picks the random stream version (as there).
    """
    arguments = locals()
    from ..resampling import ask, run

    req = ask("interval", arguments)
    result: BootstrapInterval = run(req, progress=False)
    return result
