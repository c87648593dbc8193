"""Anytime-valid confidence sequences for a mean score and a paired difference, and a release gate.

A fixed-n interval or p-value checked after every batch of items is not valid: peeking and
stopping when it looks good inflates the error rate. A confidence sequence (CS) covers the
true mean at every look at once (with probability ≥ the level, over the whole sequence), so
it may be checked after every batch and the evaluation stopped as soon as it decides.

Three sequences, for the mean of per-item scores (``x``) or of the paired differences y − x; the
interval at a look depends only on the items up to it (for a given method and bounds), so the
sequence can be recomputed after every batch as the run grows:

* ``"asymptotic"``: the asymptotic CS (Waudby-Smith et al. 2021; Howard et al. 2021's
  two-sided normal mixture boundary with the standard deviation estimated):
  mean_t ± σ̂_t · √((t + ρ)(log(1 + t/ρ) + 2 log(1/α))) / t, σ̂_t the sample standard deviation
  (ddof 1) of the first t values and ρ = t_opt / (2 log(1/α) + log(1 + 2 log(1/α))) (the
  boundary is tightest after ``t_opt`` items; confseq's ``best_rho``). Valid as the looks grow;
  evalsig's ``confidence_sequence`` with ``rho = √ρ`` gives the same numbers.
* ``"empirical-bernstein"``: for scores in known ``bounds`` [lo, hi]: Howard et al. (2021),
  Theorem 4 with the polynomial stitching boundary of their eq. (10) (s = 1.4, η = 2). On the
  scale of the bounds (values (x − lo)/(hi − lo) in [0, 1], differences in [−1, 1]), with the
  predictable centre x̂_i the mean of the values before item i (the middle of the range for the
  first), V_t = Σ (x_i − x̂_i)² and the range c (1 for a mean, 2 for a difference):
  mean_t ± S(max(V_t, m)) / t with m = 1, ℓ(v) = s log log(η v / m) + log(ζ(s) / log(η)^s) + log(2/α),
  S(v) = √(k1² v ℓ(v) + (k2 c ℓ(v))²) + k2 c ℓ(v), k1 = (η^¼ + η^−¼)/√2, k2 = (√η + 1)/2.
  Valid at every sample size, for any bounded scores (no normal approximation).
* ``"plugin-bernstein"``: for scores in known ``bounds``: Waudby-Smith & Ramdas (2023)'s predictable
  plug-in empirical-Bernstein sequence (their Theorem 2), a sum of bets on the values u_i in [0, 1]
  (a difference d in [−w, w] as (d + w)/2w): with μ̂_t = (1/2 + Σ_{i≤t} u_i)/(t + 1),
  σ̂²_t = (1/4 + Σ_{i≤t} (u_i − μ̂_i)²)/(t + 1) and the bets
  λ_t = min(√(2 log(2/α) / (σ̂²_{t−1} t log(1 + t))), 1/2),
  Σλ_i u_i / Σλ_i ± (log(2/α) + Σ 4 (u_i − μ̂_{i−1})² ψ(λ_i)) / Σλ_i, ψ(λ) = (−log(1 − λ) − λ)/4.
  Valid at every sample size; narrower than the stitched sequence up to a few thousand items (about
  4,000 for a 0/1 score at accuracy 1/2), wider after, so the default for bounded scores.

:func:`gate` walks the items in batches and stops at the first look whose interval lies wholly
above the minimum difference (ALLOW) or wholly below it (REJECT); otherwise INCONCLUSIVE at the
end. ``sigfast gate`` exits 0, 3 or 4 for them (:data:`EXIT_CODES`).

The tests check the boundaries and sequences against numpy implementations of the papers' formulas
and confseq's published test values, and the asymptotic sequence and gate against evalsig 0.1.2's
``evalsig.inference.sequential`` outputs (tests/data/peer/evalsig_sequential.json).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._api import checked_keywords
from ..engine.options import DEFAULT_CONFIDENCE
from ..exceptions import InputError
from ..results.base import ConfidenceInterval, Result

__all__ = [
    "EXIT_CODES",
    "ConfidenceSequenceResult",
    "GateResult",
    "confidence_sequence",
    "gate",
    "normal_mixture_boundary",
    "normal_mixture_rho",
    "stitching_boundary",
]

#: ``sigfast gate``'s exit status for each verdict (1 and 2 stay errors and usage errors).
EXIT_CODES = {"ALLOW": 0, "REJECT": 3, "INCONCLUSIVE": 4}

_METHODS = ("asymptotic", "empirical-bernstein", "plugin-bernstein")
_STITCH_S, _STITCH_ETA = 1.4, 2.0


# --------------------------------------------------------------------------------------------
# boundaries (closed forms)


def _zeta(s: float) -> float:
    """Riemann ζ(s) for s > 1: Euler-Maclaurin after 10 terms (error far below 1e-15 for s ≥ 1.01)."""
    n = 10
    total = math.fsum(k**-s for k in range(1, n))
    total += n ** (1.0 - s) / (s - 1.0) + 0.5 * n**-s
    bern = (1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6)
    rising = s  # s (s + 1) ... (s + 2j - 2)
    fact = 2.0  # (2j)!
    for j, b in enumerate(bern, start=1):
        total += b / fact * rising * n ** (-s - 2 * j + 1)
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        fact *= (2 * j + 1) * (2 * j + 2)
    return total


def normal_mixture_rho(t_opt: float, alpha: float) -> float:
    """ρ of the two-sided normal mixture tightest at intrinsic time ``t_opt`` for level ``alpha``:
    t_opt / (2 log(1/α) + log(1 + 2 log(1/α)))."""
    la = 2.0 * math.log(1.0 / alpha)
    return t_opt / (la + math.log1p(la))


def normal_mixture_boundary(v: Any, alpha: float, rho: float) -> Any:
    """Howard et al. (2021)'s two-sided normal mixture boundary √((v + ρ)(log(1 + v/ρ) + 2 log(1/α)))
    for a sum with variance process ``v`` (scalar or array)."""
    v = np.asarray(v, dtype=np.float64)
    return np.sqrt((v + rho) * (np.log1p(v / rho) + 2.0 * math.log(1.0 / alpha)))


def stitching_boundary(
    v: Any, alpha: float, v_min: float, c: float, s: float = _STITCH_S, eta: float = _STITCH_ETA
) -> Any:
    """Howard et al. (2021)'s polynomial stitching boundary (eq. 10) at max(v, v_min), one-sided at
    level ``alpha``, for a sub-gamma process with scale ``c``."""
    v = np.maximum(np.asarray(v, dtype=np.float64), v_min)
    k1 = (eta**0.25 + eta**-0.25) / math.sqrt(2.0)
    k2 = (math.sqrt(eta) + 1.0) / 2.0
    ell = s * np.log(np.log(eta * v / v_min)) + math.log(_zeta(s) / math.log(eta) ** s) + math.log(1.0 / alpha)
    term = k2 * c * ell
    return np.sqrt(k1 * k1 * v * ell + term * term) + term


# --------------------------------------------------------------------------------------------
# the sequence


@dataclass(frozen=True)
class ConfidenceSequenceResult(Result):
    """A confidence sequence: the interval of the mean (``statistic="mean"``) or of the paired
    difference y − x (``"difference"``) after each look (``looks``: the item counts), valid at
    every look at once. ``confidence_interval`` is the last look's."""

    method: str
    statistic: str
    metric: str
    systems: tuple[str, ...]
    estimate: float
    confidence_level: float
    confidence_interval: ConfidenceInterval
    n_items: int
    batch: int
    looks: np.ndarray = field(repr=False, compare=False)
    estimates: np.ndarray = field(repr=False, compare=False)
    lower: np.ndarray = field(repr=False, compare=False)
    upper: np.ndarray = field(repr=False, compare=False)
    t_opt: float | None = None
    bounds: tuple[float, float] | None = None
    signature: str = ""
    warnings: tuple[str, ...] = ()

    _hidden = ("looks", "estimates", "lower", "upper")

    def rows(self) -> list[dict[str, Any]]:
        """One row per look: the items seen, the running estimate and the interval."""
        return [
            {"n_items": int(n), "estimate": float(e), "low": float(lo), "high": float(hi)}
            for n, e, lo, hi in zip(self.looks, self.estimates, self.lower, self.upper)
        ]

    def _text(self) -> str:
        lo, hi = self.confidence_interval
        what = f"difference ({' - '.join(reversed(self.systems))})" if self.statistic == "difference" else ""
        what = what or f"({self.systems[0]})"
        lines = [
            f"{self.metric} {what} = {self.estimate:.6g}; {100 * self.confidence_level:g}% "
            f"anytime-valid {self.method} interval [{lo:.6g}, {hi:.6g}] after {self.n_items} items "
            f"({len(self.looks)} looks, every {self.batch})"
        ]
        lines.extend(f"  warning: {w}" for w in self.warnings)
        lines.append(f"  {self.signature}")
        return "\n".join(lines) + "\n"


def _values(x: Any, y: Any, systems: Any, system: Any) -> tuple[np.ndarray, Any, Any, bool]:
    """(values, stats, metric, paired): the per-item scores, or the paired differences y − x."""
    from ..engine.executor import one_input, pair_inputs
    from .errorbars import item_scores

    pair = y is not None or systems is not None
    stats, m = pair_inputs(x, y, systems, None, {}) if pair else one_input(x, system, None, {})
    v = item_scores(stats, m)
    return (v[1] - v[0] if pair else v[0]), stats, m, pair


def _resolve_method(method: str, values_raw: np.ndarray, bounds: Any) -> tuple[str, tuple[float, float] | None]:
    m = str(method).lower().replace("_", "-")
    if m in ("eb", "bernstein"):
        m = "empirical-bernstein"
    if m not in (*_METHODS, "auto"):
        raise InputError(
            f"method must be 'auto', 'asymptotic', 'empirical-bernstein' or 'plugin-bernstein', got {method!r}"
        )
    b: tuple[float, float] | None = None
    if bounds is not None:
        try:
            lo, hi = (float(v) for v in bounds)
        except (TypeError, ValueError):
            raise InputError(f"bounds must be two numbers (low, high), got {bounds!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise InputError(f"bounds must be two finite numbers low < high, got {bounds!r}")
        b = (lo, hi)
    if m == "auto":
        if b is None and values_raw.size and float(values_raw.min()) >= 0.0 and float(values_raw.max()) <= 1.0:
            b = (0.0, 1.0)
        m = "plugin-bernstein" if b is not None else "asymptotic"
    if m in ("empirical-bernstein", "plugin-bernstein") and b is None:
        b = (0.0, 1.0)
    if m == "asymptotic":
        b = None
    return m, b


def _looks(n: int, batch: int) -> np.ndarray:
    looks = np.arange(batch, n + 1, batch, dtype=np.int64)
    if looks.size == 0 or looks[-1] != n:
        looks = np.append(looks, n)
    return looks


def _sequence(
    d: np.ndarray,
    looks: np.ndarray,
    method: str,
    alpha: float,
    t_opt: float,
    scale: tuple[float, float, float] | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(estimates, lower, upper) at ``looks`` for the values ``d`` (already differences when paired);
    ``scale`` (empirical-Bernstein): the values' lower end (0 for differences), the bounds' width and the
    range c of the rescaled values (1 for a mean, 2 for a difference)."""
    t = looks.astype(np.float64)
    csum = np.cumsum(d)
    means = csum[looks - 1] / t
    if method == "asymptotic":
        # the sample variance (ddof 1) of each prefix from prefix sums of the values less the first one
        # (the shift keeps the sums well conditioned, and a prefix of equal values exactly at variance 0)
        shifted = d - d[0]
        s1 = np.cumsum(shifted)[looks - 1]
        s2 = np.cumsum(shifted * shifted)[looks - 1]
        with np.errstate(invalid="ignore", divide="ignore"):
            var = np.where(t > 1, (s2 - s1 * s1 / t) / np.maximum(t - 1, 1), np.nan)
        sd = np.sqrt(np.maximum(var, 0.0))
        rho = normal_mixture_rho(t_opt, alpha)
        with np.errstate(invalid="ignore", divide="ignore"):
            half = sd * normal_mixture_boundary(t, alpha, rho) / t
        half = np.where((t > 1) & (sd > 0), half, np.inf)
        return means, means - half, means + half
    assert scale is not None
    lo_b, width, c = scale
    if method == "plugin-bernstein":
        return _plugin_bernstein(d, looks, alpha, lo_b, width, c)
    u = (d - lo_b) / width  # in [0, 1] (a mean) or [-1, 1] (a difference, lo_b = 0)
    n = u.size
    centre = np.empty(n)
    centre[0] = 0.5 if c == 1.0 else 0.0
    if n > 1:
        centre[1:] = np.cumsum(u)[:-1] / np.arange(1, n)
    v = np.cumsum((u - centre) ** 2)[looks - 1]
    half = stitching_boundary(v, alpha / 2.0, 1.0, c) / t * width
    clip_lo, clip_hi = (lo_b, lo_b + width) if c == 1.0 else (-width, width)
    lower = np.maximum(means - half, clip_lo)
    upper = np.minimum(means + half, clip_hi)
    return means, lower, upper


def _plugin_bernstein(
    d: np.ndarray, looks: np.ndarray, alpha: float, lo_b: float, width: float, c: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Waudby-Smith & Ramdas (2023)'s predictable plug-in empirical-Bernstein sequence on the values mapped
    to [0, 1], mapped back (see the module docstring)."""
    span = width * c  # the values' range: [lo, hi] for a mean, [-w, w] for a difference
    low_end = lo_b if c == 1.0 else -width
    u = (d - low_end) / span
    n = u.size
    t = np.arange(1, n + 1, dtype=np.float64)
    mu = (0.5 + np.cumsum(u)) / (t + 1.0)  # mu_t
    mu_prev = np.concatenate(([0.5], mu[:-1]))  # mu_{t-1}
    var = (0.25 + np.cumsum((u - mu) ** 2)) / (t + 1.0)  # sigma^2_t
    var_prev = np.concatenate(([0.25], var[:-1]))
    log2a = math.log(2.0 / alpha)
    lam = np.minimum(np.sqrt(2.0 * log2a / (var_prev * t * np.log1p(t))), 0.5)
    psi = -np.log1p(-lam) - lam  # 4 psi_E(lambda); v_i = 4 (u_i - mu_{i-1})^2
    lam_sum = np.cumsum(lam)[looks - 1]
    centre = np.cumsum(lam * u)[looks - 1] / lam_sum
    margin = (log2a + np.cumsum((u - mu_prev) ** 2 * psi)[looks - 1]) / lam_sum
    means = np.cumsum(d)[looks - 1] / looks
    lower = low_end + span * np.maximum(centre - margin, 0.0)
    upper = low_end + span * np.minimum(centre + margin, 1.0)
    return means, lower, upper


@checked_keywords
def confidence_sequence(
    x: Any,
    y: Any = None,
    *,
    systems: tuple[Any, Any] | None = None,
    system: Any = None,
    method: Literal["auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"] = "auto",
    confidence_level: float = DEFAULT_CONFIDENCE,
    bounds: tuple[float, float] | None = None,
    batch: int = 1,
    t_opt: float = 100.0,
) -> ConfidenceSequenceResult:
    """Anytime-valid confidence sequence of a mean score (``x``) or of the paired difference y − x,
    looked at after every ``batch`` items (and after the last).

    ``x``, ``y``: per-item scores in the order the items were run (1-D), or a
    :class:`~sigfast.Statistics` of per-item scores (``system=`` one system, ``systems=`` two).
    ``method``: ``"asymptotic"``, ``"plugin-bernstein"`` or ``"empirical-bernstein"`` (these two for
    scores within ``bounds``, the range every score can take; default [0, 1]; a score outside is an
    error) or ``"auto"`` (default: plug-in empirical-Bernstein with ``bounds``, or with [0, 1] when
    every score lies in [0, 1]; else asymptotic; the signature names the one used). ``estimate`` and
    ``estimates`` are the plain running means (the plug-in sequence is centred on a weighted mean).
    ``t_opt``: the item count at which the
    asymptotic sequence is tightest; fix it before looking at the data. See the module docstring.
    """
    seq, _ = _run(x, y, systems, system, method, confidence_level, bounds, batch, t_opt)
    return seq


def _run(
    x: Any, y: Any, systems: Any, system: Any, method: str, confidence_level: float, bounds: Any, batch: Any, t_opt: Any
) -> tuple[ConfidenceSequenceResult, dict[str, Any]]:
    """The sequence and the signature fields it rests on (the gate's signature adds its own)."""
    from ..engine.executor import check_level
    from ..results.signature import build

    cl = check_level(confidence_level)
    alpha = 1.0 - cl
    b = _count_arg("batch", batch)
    if isinstance(t_opt, bool) or not (isinstance(t_opt, (int, float)) and math.isfinite(t_opt) and t_opt > 0):
        raise InputError(f"t_opt must be a positive number of items, got {t_opt!r}")
    d, stats, m, pair = _values(x, y, systems, system)
    raw = np.asarray(stats.values[:, :, 0], dtype=np.float64) if pair else d
    meth, bnds = _resolve_method(method, raw, bounds)
    if bnds is not None:
        flat = np.ravel(raw)
        bad = np.flatnonzero((flat < bnds[0]) | (flat > bnds[1]))
        if bad.size:
            raise InputError(
                f"a score ({flat[bad[0]]:g}) lies outside bounds [{bnds[0]:g}, {bnds[1]:g}]: the "
                "empirical-Bernstein sequence needs every score within its bounds; pass the scores' true range"
            )
    n = d.size
    looks = _looks(n, b)
    scale = None
    if bnds is not None:
        width = bnds[1] - bnds[0]
        scale = (0.0, width, 2.0) if pair else (bnds[0], width, 1.0)
    est, lower, upper = _sequence(d, looks, meth, alpha, float(t_opt), scale)
    fields: dict[str, Any] = dict(
        stats=stats,
        metric=m,
        variant=meth,
        conf=cl,
        batch=b,
        t_opt=float(t_opt) if meth == "asymptotic" else None,
        bounds=list(bnds) if bnds is not None else None,
    )
    sig = build("confidence_sequence_difference" if pair else "confidence_sequence", **fields)
    seq = ConfidenceSequenceResult(
        method=meth,
        statistic="difference" if pair else "mean",
        metric=m.name,
        systems=tuple(stats.systems),
        estimate=float(est[-1]),
        confidence_level=cl,
        confidence_interval=ConfidenceInterval(float(lower[-1]), float(upper[-1])),
        n_items=int(n),
        batch=b,
        looks=looks,
        estimates=est,
        lower=lower,
        upper=upper,
        t_opt=float(t_opt) if meth == "asymptotic" else None,
        bounds=bnds,
        signature=sig,
    )
    return seq, fields


def _count_arg(name: str, v: Any) -> int:
    from .classical import _count

    i = _count(name, v)
    if i < 1:
        raise InputError(f"{name} must be at least 1, got {i}")
    return i


# --------------------------------------------------------------------------------------------
# the gate


@dataclass(frozen=True)
class GateResult(Result):
    """A release gate's verdict on the difference y − x (candidate minus baseline).

    ``verdict``: ``"ALLOW"`` (the interval lies above ``min_difference`` at look ``n_used``),
    ``"REJECT"`` (it lies below) or ``"INCONCLUSIVE"`` (neither, at any look); ``exit_code`` is
    ``sigfast gate``'s exit status for it (:data:`EXIT_CODES`). ``confidence_interval`` is the
    anytime-valid interval at the deciding look (the last look when inconclusive).
    """

    verdict: str
    exit_code: int
    min_difference: float
    method: str
    metric: str
    systems: tuple[str, ...]
    estimate: float
    confidence_level: float
    confidence_interval: ConfidenceInterval
    n_used: int
    n_items: int
    batch: int
    min_items: int
    sequence: ConfidenceSequenceResult = field(repr=False, compare=False)
    signature: str = ""

    _hidden = ("sequence",)

    def _text(self) -> str:
        lo, hi = self.confidence_interval
        x, y = self.systems
        where = (
            f"after {self.n_used} of {self.n_items} items" if self.n_used < self.n_items else f"{self.n_items} items"
        )
        why = {
            "ALLOW": f"the whole interval lies above {self.min_difference:g}",
            "REJECT": f"the whole interval lies below {self.min_difference:g}",
            "INCONCLUSIVE": f"the interval still contains {self.min_difference:g}",
        }[self.verdict]
        return (
            f"{self.verdict}: {y} - {x} = {self.estimate:+.4g}, {100 * self.confidence_level:g}% anytime-valid "
            f"{self.method} interval [{lo:+.4g}, {hi:+.4g}] ({where}, looks every {self.batch}); {why} "
            f"(exit {self.exit_code})\n  {self.signature}\n"
        )


@checked_keywords
def gate(
    x: Any,
    y: Any = None,
    *,
    systems: tuple[Any, Any] | None = None,
    min_difference: float = 0.0,
    confidence_level: float = DEFAULT_CONFIDENCE,
    method: Literal["auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"] = "auto",
    bounds: tuple[float, float] | None = None,
    batch: int = 10,
    min_items: int = 30,
    t_opt: float = 100.0,
) -> GateResult:
    """Should the candidate ``y`` ship over the baseline ``x``? A sequential decision on y − x that
    may stop early.

    The confidence sequence of the paired difference (:func:`confidence_sequence`) is looked at
    after every ``batch`` items from ``min_items`` on (and after the last item): the first look
    whose interval lies wholly above ``min_difference`` gives ALLOW, wholly below REJECT; if no
    look decides, INCONCLUSIVE. A negative ``min_difference`` is a non-inferiority margin (ALLOW:
    the candidate is at most that much worse). Every verdict holds at the level whatever look
    it came from.
    """
    from ..results.signature import build

    md = float(min_difference)
    if not math.isfinite(md):
        raise InputError(f"min_difference must be a finite number, got {min_difference!r}")
    if y is None and systems is None:
        raise InputError("gate compares two runs: pass x (baseline) and y (candidate), or a Statistics and systems=")
    mi = _count_arg("min_items", min_items)
    seq, fields = _run(x, y, systems, None, method, confidence_level, bounds, batch, t_opt)
    idx = len(seq.looks) - 1
    verdict = "INCONCLUSIVE"
    for i, n in enumerate(seq.looks):
        if n < mi:  # the warm-up: no verdict before min_items
            continue
        if seq.lower[i] > md:
            verdict, idx = "ALLOW", i
            break
        if seq.upper[i] < md:
            verdict, idx = "REJECT", i
            break
    sig = build("gate", min_diff=md, min_items=mi, **fields)
    return GateResult(
        verdict=verdict,
        exit_code=EXIT_CODES[verdict],
        min_difference=md,
        method=seq.method,
        metric=seq.metric,
        systems=seq.systems,
        estimate=float(seq.estimates[idx]),
        confidence_level=seq.confidence_level,
        confidence_interval=ConfidenceInterval(float(seq.lower[idx]), float(seq.upper[idx])),
        n_used=int(seq.looks[idx]),
        n_items=seq.n_items,
        batch=seq.batch,
        min_items=mi,
        sequence=seq,
        signature=sig,
    )
