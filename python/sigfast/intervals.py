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
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ._api import checked_keywords
from ._options import DEFAULT_CONFIDENCE, DEFAULT_SEED
from .classical import _beta_ppf, _count, _ndtr, _ndtri
from .exceptions import InputError
from .metrics import Metric
from .results import ConfidenceInterval, Result, flat_row

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


@dataclass(frozen=True)
class BootstrapInterval(Result):
    """A bootstrap confidence interval of a metric (one system) or of δ = metric(y) − metric(x).

    ``bias_correction`` (z0) and ``acceleration`` (a) are the BCa constants
    (None for the percentile interval); ``quantiles`` are the levels of the
    bootstrap distribution read off for the two ends.
    """

    method: str
    metric: str
    statistic: str
    estimate: float
    confidence_level: float
    confidence_interval: ConfidenceInterval
    n_resamples: int
    seed: int
    n_items: int
    systems: tuple[str, ...]
    quantiles: tuple[float, float]
    bias_correction: float | None = None
    acceleration: float | None = None
    resampling: str = "items"
    distribution: np.ndarray | None = field(default=None, repr=False, compare=False)
    signature: str = ""
    #: Resamples the interval rests on (fewer than ``n_resamples`` only with ``nan_policy="omit"``).
    n_valid: int | None = None
    nan_policy: str = "raise"
    #: Clusters resampled (whole clusters drawn), or None when items were.
    n_clusters: int | None = None

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row: the estimate, the interval ends and the settings, as numbers."""
        row = flat_row(self.to_dict())
        row["quantile_low"], row["quantile_high"] = self.quantiles
        row.pop("quantiles", None)
        return [row]

    def __repr__(self) -> str:
        from ._api import short_repr

        lo, hi = self.confidence_interval
        return short_repr(
            self,
            f"{self.method} interval of the {self.statistic} of {self.metric} ({' vs '.join(self.systems)})",
            {
                "estimate": f"{self.estimate:.6g}",
                "confidence_interval": f"({lo:.6g}, {hi:.6g})",
                "confidence_level": self.confidence_level,
                "n_resamples": f"{self.n_resamples:,}",
                "seed": self.seed,
            },
        )

    def _text(self) -> str:
        lo, hi = self.confidence_interval
        used = "" if self.n_valid in (None, self.n_resamples) else f", {self.n_valid} defined"
        return (
            f"{self.metric} {self.statistic} = {self.estimate:.6g}, {100 * self.confidence_level:g}% "
            f"{self.method} interval [{lo:.6g}, {hi:.6g}] (B = {self.n_resamples}{used}, seed {self.seed})\n"
            f"  {self.signature}\n"
        )


def _jackknife(values: np.ndarray, m: Metric, clusters: np.ndarray | None = None) -> np.ndarray:
    """Leave-one-item-out metric values from the sufficient statistics: (items,); an item
    statistic is recomputed on the n - 1 remaining items. With ``clusters`` (cluster codes),
    leave-one-cluster-out values: (clusters,)."""
    if clusters is not None:
        return _jackknife_clusters(values, m, clusters)
    n = values.shape[0]
    if m.on_items:
        from .metrics import item_value

        keep = np.ones(n, dtype=bool)
        out = np.empty(n)
        for i in range(n):
            keep[i] = False
            out[i] = item_value(m, values[keep])
            keep[i] = True
        return out
    total = np.cumsum(values, axis=0)[-1]
    loo = total[None, :] - values
    return np.asarray(m.evaluate(loo, n - 1), dtype=np.float64)


def _jackknife_clusters(values: np.ndarray, m: Metric, codes: np.ndarray) -> np.ndarray:
    g = int(codes.max()) + 1
    n = values.shape[0]
    sizes = np.bincount(codes, minlength=g)
    if m.on_items:
        from .metrics import item_value

        return np.array([item_value(m, values[codes != c]) for c in range(g)], dtype=np.float64)
    total = np.cumsum(values, axis=0)[-1]
    csum = np.zeros((g, values.shape[1]))
    np.add.at(csum, codes, values)
    loo = total[None, :] - csum
    out = np.empty(g)
    for size in np.unique(sizes):  # the metric takes one item count per call
        sel = sizes == size
        out[sel] = m.evaluate(loo[sel], int(n - size))
    return out


def _acceleration(dev: np.ndarray) -> float:
    """a = Σd³ / (6 (Σd²)^{3/2}); scale-free, so deviations too large to cube are rescaled
    by a power of two (only then: the plain formula's bytes are kept wherever it is finite)."""
    with np.errstate(over="ignore", invalid="ignore"):
        den = float(np.sum(dev**2))
        try:
            a = float(np.sum(dev**3)) / (6.0 * den**1.5) if den > 0 else 0.0
        except OverflowError:
            a = math.inf
    if math.isfinite(a):
        return a
    top = float(np.max(np.abs(dev)))
    if not math.isfinite(top) or top == 0.0:
        raise InputError("the jackknife deviations are not finite: rescale the statistics")
    d = dev / 2.0 ** math.floor(math.log2(top))
    den = float(np.sum(d**2))
    return float(np.sum(d**3)) / (6.0 * den**1.5) if den > 0 else 0.0


def _bca_levels(less: int, less_eq: int, B: int, jack: np.ndarray, alpha: float) -> tuple[float, float, float, float]:
    """BCa levels from the counts #{θ* < θ̂} and #{θ* ≤ θ̂} of B resamples."""
    pct = (less + less_eq) / (2.0 * B)
    # a bootstrap distribution entirely on one side of the estimate gives z0 = ±inf; keep it finite
    pct = min(max(pct, 1.0 / (2.0 * B)), 1.0 - 1.0 / (2.0 * B))
    z0 = _ndtri(pct)
    dev = jack.mean() - jack
    a = _acceleration(dev)
    za = _ndtri(alpha)
    n1 = z0 + za
    n2 = z0 - za
    a1 = _ndtr(z0 + n1 / (1.0 - a * n1))
    a2 = _ndtr(z0 + n2 / (1.0 - a * n2))
    return a1, a2, z0, a


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
    from .executor import ask, run

    req = ask("interval", arguments)
    result: BootstrapInterval = run(req, progress=False)
    return result
