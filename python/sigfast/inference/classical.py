"""Classical paired and two-sample tests with exact or asymptotic p-values.

Every test compares a candidate system ``y`` with a baseline ``x``; the
statistic and the alternative refer to ``y`` against ``x`` (``"greater"``:
``y`` is better / larger), as in :func:`sigfast.paired_bootstrap`.

Only numpy and the standard library are used: the distributions (normal,
Student t, binomial, chi-square, the exact Wilcoxon signed-rank and
Mann-Whitney null distributions) are computed here. Each function's
docstring names the scipy or statsmodels call it equals; the tests check
them to 1e-10 on hundreds of random inputs.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._api import checked_keywords
from ..engine.options import DEFAULT_CONFIDENCE
from ..exceptions import InputError
from ..results.base import ConfidenceInterval, Result

__all__ = [
    "TestResult",
    "binomial_test",
    "mann_whitney_u",
    "mcnemar",
    "paired_ttest",
    "sign_test",
    "welch_ttest",
    "wilcoxon",
]

_ALTERNATIVES = ("two-sided", "greater", "less")
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


# --------------------------------------------------------------------------
# Result object
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TestResult(Result):
    """The outcome of a classical test (scipy-familiar names).

    ``statistic`` and ``pvalue`` follow ``test``, ``variant`` and
    ``alternative``; ``effect_size`` is named by ``effect_size_name``;
    ``n`` is the number of items (pairs, or both samples together);
    ``details`` holds the test's intermediate counts (discordant pairs,
    degrees of freedom, rank sums, ...).
    """

    __test__ = False  # not a pytest class

    test: str
    variant: str
    alternative: str
    statistic: float
    pvalue: float
    n: int
    effect_size: float | None = None
    effect_size_name: str = ""
    confidence_level: float | None = None
    confidence_interval: ConfidenceInterval | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    #: A hash of the inputs (:func:`sigfast.signature.hash_data`), set by the test function.
    data: str = ""
    #: Where the inputs came from, for the signature (the CLI's McNemar: format and options, view,
    #: alignment, systems).
    provenance: Mapping[str, Any] = field(default_factory=dict)

    _keys = (
        *("test", "variant", "alternative", "statistic", "pvalue", "n", "effect_size", "effect_size_name"),
        *("confidence_level", "confidence_interval", "data", "details", "signature"),
    )

    @property
    def signature(self) -> str:
        """What produced the result: the test, variant, sidedness, size, the counts it rests on and a
        hash of the inputs."""
        from ..results.signature import build

        counts = {k: v for k, v in self.details.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
        return build(
            self.test,
            variant=self.variant,
            alt=self.alternative,
            items=self.n,
            conf=self.confidence_level,
            data=self.data or None,
            **counts,
            **self.provenance,
        )

    @property
    def df(self) -> float | None:
        """Degrees of freedom (t-tests), else None."""
        return self.details.get("df")

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row (details flattened into columns)."""
        d = self.to_dict()
        details = d.pop("details")
        ci = d.pop("confidence_interval")
        d["confidence_interval_low"] = None if ci is None else ci["low"]
        d["confidence_interval_high"] = None if ci is None else ci["high"]
        return [{**d, **{k: v for k, v in details.items() if not isinstance(v, (list, dict))}}]

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{self.test} {self.variant} ({self.alternative})",
            {
                "statistic": f"{self.statistic:.6g}",
                "pvalue": f"{self.pvalue:.6g}",
                "n": self.n,
                **(
                    {self.effect_size_name or "effect_size": f"{self.effect_size:.6g}"}
                    if self.effect_size is not None
                    else {}
                ),
            },
        )

    def _text(self) -> str:
        lines = [f"{self.test} ({self.variant}, {self.alternative})"]
        lines.append(f"  statistic = {self.statistic:.6g}   p = {self.pvalue:.6g}   n = {self.n}")
        if self.effect_size is not None:
            lines.append(f"  {self.effect_size_name or 'effect size'} = {self.effect_size:.6g}")
        if self.confidence_interval is not None:
            lo, hi = self.confidence_interval
            lines.append(f"  {100 * (self.confidence_level or 0):g}% CI [{lo:.6g}, {hi:.6g}]")
        lines.append(f"  {self.signature}")
        return "\n".join(lines) + "\n"


def _hashed(func: Callable[..., TestResult]) -> Callable[..., TestResult]:
    """Record a hash of the test's inputs in its result (the signature's ``data:``)."""
    import functools
    from dataclasses import replace

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> TestResult:
        r = func(*args, **kwargs)
        from ..results.signature import hash_data

        arrays = [a for a in args if a is not None] + [v for k, v in sorted(kwargs.items()) if k in ("x", "y", "table")]
        return replace(r, data=hash_data(*[a if isinstance(a, (int, float)) else np.asarray(a) for a in arrays]))

    return wrapper


# --------------------------------------------------------------------------
# Special functions (numpy + math only)
# --------------------------------------------------------------------------


def _ndtr(z: float) -> float:
    """Standard normal CDF."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _nsf(z: float) -> float:
    """Standard normal survival function."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _ndtri(p: float) -> float:
    """Standard normal quantile: a rational first guess refined by Halley steps on erfc."""
    if math.isnan(p) or not 0.0 <= p <= 1.0:
        raise InputError(f"probability must be in [0, 1], got {p}")
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p == 0.5:
        return 0.0
    q = min(p, 1.0 - p)  # 1 - p is exact for p in [0.5, 1]
    t = math.sqrt(-2.0 * math.log(q))
    x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t**3))
    for _ in range(50):
        err = _ndtr(x) - q
        pdf = math.exp(-0.5 * x * x - _LOG_SQRT_2PI)
        if pdf == 0.0:
            break
        u = err / pdf
        step = u / (1.0 + 0.5 * x * u)
        x -= step
        if abs(step) <= 1e-16 * max(1.0, abs(x)):
            break
    return -x if p > 0.5 else x


def _nisf(q: float) -> float:
    """Standard normal inverse survival function: the z with P(Z > z) = q, accurate for tiny q
    (``_nisf(1e-17)`` = 8.49, where ``_ndtri(1 - q)`` rounds 1 - q to 1 and gives inf)."""
    return -_ndtri(q)


_STIRLING_SERIES = (1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0, 1.0 / 1188.0)


def _stirling_corr(z: float) -> float:
    """lgamma(z) - [(z - 1/2) log z - z + log sqrt(2 pi)], accurate for all z > 0."""
    if z >= 15.0:
        zi = 1.0 / z
        z2 = zi * zi
        s = _STIRLING_SERIES
        return zi * (s[0] + z2 * (s[1] + z2 * (s[2] + z2 * (s[3] + z2 * s[4]))))
    return math.lgamma(z) - ((z - 0.5) * math.log(z) - z + _LOG_SQRT_2PI)


def _beta_front(a: float, b: float, x: float, y: float) -> float:
    """x^a y^b / B(a, b), computed without cancellation for large a and b."""
    if x == 0.0 or y == 0.0:
        return 0.0
    s = a + b
    # log(x (a+b) / a) = log1p((x b - y a) / a), and likewise for y.
    d = x * b - y * a
    la = a * math.log1p(d / a) if abs(d / a) < 0.5 else a * math.log(x * s / a)
    lb = b * math.log1p(-d / b) if abs(d / b) < 0.5 else b * math.log(y * s / b)
    corr = _stirling_corr(s) - _stirling_corr(a) - _stirling_corr(b)
    return math.sqrt(a * b / s) / math.sqrt(2.0 * math.pi) * math.exp(la + lb + corr)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            return h
    raise ArithmeticError(f"incomplete beta continued fraction did not converge (a={a}, b={b}, x={x})")


def _betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """Regularized incomplete beta I_x(a, b); ``y`` = 1 - x when known more precisely."""
    if y is None:
        y = 1.0 - x
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    front = _beta_front(a, b, x, y)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, y) / b


def _betaincc(a: float, b: float, x: float, y: float | None = None) -> float:
    """1 - I_x(a, b) without cancellation."""
    if y is None:
        y = 1.0 - x
    return _betainc(b, a, y, x)


def _solve_increasing(
    f: Callable[[float], float], target: float, lo: float, hi: float, fprime: Callable[[float], float] | None = None
) -> float:
    """Root of f(x) = target for increasing f on [lo, hi]: Newton steps kept inside a shrinking bracket."""
    x = 0.5 * (lo + hi)
    for _ in range(400):
        fx = f(x) - target
        if fx == 0.0:
            return x
        if fx > 0:
            hi = x
        else:
            lo = x
        nx = None
        if fprime is not None:
            d = fprime(x)
            if d > 0 and math.isfinite(d):
                nx = x - fx / d
                if not (lo < nx < hi):
                    nx = None
        if nx is None:
            nx = 0.5 * (lo + hi)
        if nx == x or hi - lo <= 4e-16 * max(abs(lo), abs(hi), 1e-300):
            return nx
        x = nx
    return x


def _t_sf(t: float, df: float) -> float:
    """Survival function of Student's t."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    t2 = t * t
    x = df / (df + t2)
    y = t2 / (df + t2)
    tail = 0.5 * _betainc(0.5 * df, 0.5, x, y)  # P(T > |t|)
    return tail if t > 0 else 1.0 - tail


def _t_cdf(t: float, df: float) -> float:
    return _t_sf(-t, df)


def _t_ppf(q: float, df: float) -> float:
    """Quantile of Student's t."""
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -_t_ppf(1.0 - q, df)
    tail = 1.0 - q
    hi = max(1.0, abs(_ndtri(q)) * 2)
    while _t_sf(hi, df) > tail:
        hi *= 2.0
        if hi > 1e300:
            return math.inf
    lg = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def pdf(t: float) -> float:
        return math.exp(lg - (df + 1) / 2 * math.log1p(t * t / df))

    return _solve_increasing(lambda t: -_t_sf(t, df), -tail, 0.0, hi, pdf)


def _beta_ppf(q: float, a: float, b: float) -> float:
    """Quantile of the Beta(a, b) distribution."""
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return 1.0
    lb = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)

    def pdf(x: float) -> float:
        if x <= 0 or x >= 1:
            return 0.0
        return math.exp((a - 1) * math.log(x) + (b - 1) * math.log1p(-x) - lb)

    if q > 0.5:  # solve on the upper tail for accuracy
        return _solve_increasing(lambda x: -_betaincc(a, b, x), -(1.0 - q), 0.0, 1.0, pdf)
    return _solve_increasing(lambda x: _betainc(a, b, x), q, 0.0, 1.0, pdf)


_EXACT_HALF_N = 1000  # p = 1/2 and n up to this: exact integer sums, correctly rounded


def _half_tail(lo: int, hi: int, n: int) -> float:
    """sum_{j=lo..hi} C(n, j) / 2^n in exact integer arithmetic."""
    c = math.comb(n, lo)
    total = 0
    for j in range(lo, hi + 1):
        total += c
        c = c * (n - j) // (j + 1)
    return total / (1 << n)


def _binom_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k), X ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p == 0.5 and n <= _EXACT_HALF_N:
        return _half_tail(0, k, n) if 2 * k <= n else 1.0 - _half_tail(k + 1, n, n)
    return _betaincc(k + 1.0, float(n - k), p, 1.0 - p)


def _binom_sf(k: int, n: int, p: float) -> float:
    """P(X > k), X ~ Binomial(n, p)."""
    if k < 0:
        return 1.0
    if k >= n:
        return 0.0
    if p == 0.5 and n <= _EXACT_HALF_N:
        return _half_tail(k + 1, n, n) if 2 * k >= n else 1.0 - _half_tail(0, k, n)
    return _betainc(k + 1.0, float(n - k), p, 1.0 - p)


def _stirlerr(n: float) -> float:
    """log(n!) - [(n + 1/2) log n - n + log sqrt(2 pi)] (Loader's Stirling error), n >= 1."""
    return _stirling_corr(n + 1.0) + (n + 0.5) * math.log1p(1.0 / n) - 1.0


def _bd0(x: float, m: float) -> float:
    """Deviance term x log(x/m) + m - x, without cancellation (Loader 2000)."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)
        s = (x - m) * v
        ej = 2.0 * x * v
        v2 = v * v
        for j in range(1, 1000):
            ej *= v2
            s1 = s + ej / (2 * j + 1)
            if s1 == s:
                return s1
            s = s1
        return s
    return x * math.log(x / m) + m - x


def _binom_pmf(k: int, n: int, p: float) -> float:
    """P(X = k) by Loader's saddle-point expansion (relative error ~1e-15)."""
    if k < 0 or k > n:
        return 0.0
    q = 1.0 - p
    if p == 0.0:
        return 1.0 if k == 0 else 0.0
    if q == 0.0:
        return 1.0 if k == n else 0.0
    if k == 0:
        return math.exp(n * math.log1p(-p))
    if k == n:
        return math.exp(n * math.log(p))
    if p == 0.5 and n <= _EXACT_HALF_N:
        return math.comb(n, k) / (1 << n)
    lc = _stirlerr(n) - _stirlerr(k) - _stirlerr(n - k) - _bd0(k, n * p) - _bd0(n - k, n * q)
    return math.exp(lc) * math.sqrt(n / (2.0 * math.pi * k * (n - k)))


def _chi2_sf_even(x: float, df: int) -> float:
    """P(chi^2_df > x) for even df: the Poisson(x/2) probability of fewer than df/2 events."""
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    h = 0.5 * x
    logh = math.log(h)
    logterm = -h
    total = 0.0
    for j in range(df // 2):
        if j > 0:
            logterm += logh - math.log(j)
        total += math.exp(logterm)
    return min(1.0, total)


def _chi2_sf_1(x: float) -> float:
    """P(chi^2_1 > x)."""
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(0.5 * x))


# --------------------------------------------------------------------------
# Input helpers
# --------------------------------------------------------------------------


def _alt(alternative: str) -> str:
    a = str(alternative).lower()
    if a not in _ALTERNATIVES:
        raise InputError(f"alternative must be one of {_ALTERNATIVES}, got {alternative!r}")
    return a


def _count(name: str, v: Any) -> int:
    try:
        i = operator.index(v)
    except TypeError:
        fv = float(v) if isinstance(v, (float, np.floating)) else None
        if fv is None or not fv.is_integer():
            raise InputError(f"{name} must be a whole number, got {v!r}") from None
        i = int(fv)
    if i < 0:
        raise InputError(f"{name} must be >= 0, got {i}")
    return int(i)


def _vector(a: Any, what: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    if not np.issubdtype(arr.dtype, np.number):
        raise InputError(f"{what}: expected numbers, got dtype {arr.dtype}")
    if arr.ndim > 1:
        raise InputError(f"{what}: expected a 1-D sequence of per-item values, got shape {arr.shape}")
    arr = arr.astype(np.float64).ravel()
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{what}: item {i} is {arr[i]} (not a finite number); remove or fix it")
    if arr.size and float(np.abs(arr).max()) > _MAX_MAGNITUDE:
        i = int(np.argmax(np.abs(arr)))
        raise InputError(
            f"{what}: item {i} is {arr[i]:g}: so large that squares of variances overflow float64; rescale the values "
            f"(magnitudes must stay below {_MAX_MAGNITUDE:.3g})"
        )
    return arr


_MAX_MAGNITUDE = 1e75  # fourth powers (Welch's degrees of freedom) and their sums stay finite


def _paired(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    xa, ya = _vector(x, "x"), _vector(y, "y")
    if xa.shape != ya.shape:
        raise InputError(f"paired test: x has {xa.size} items, y has {ya.size}; they must be the same items")
    if xa.size == 0:
        raise InputError("paired test: no items")
    return xa, ya


def _binary(a: np.ndarray, what: str) -> np.ndarray:
    ok = (a == 0) | (a == 1)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise InputError(f"{what}: item {i} is {a[i]!r}; McNemar needs per-item correctness 0 or 1")
    return a.astype(bool)


# --------------------------------------------------------------------------
# Binomial family: binomial test, McNemar, sign test
# --------------------------------------------------------------------------


def _binom_two_sided(k: int, n: int, p: float) -> float:
    """scipy.stats.binomtest's two-sided p-value: outcomes no more likely than k (relative tolerance 1e-7)."""
    if k == p * n:
        return 1.0
    d = _binom_pmf(k, n, p) * (1 + 1e-7)
    if k < p * n:
        lo, hi = int(math.ceil(p * n)), n
        while lo < hi:  # first j >= ceil(pn) with pmf(j) <= d (pmf decreasing there)
            mid = (lo + hi) // 2
            if _binom_pmf(mid, n, p) <= d:
                hi = mid
            else:
                lo = mid + 1
        first = lo if _binom_pmf(lo, n, p) <= d else n + 1
        pval = _binom_cdf(k, n, p) + _binom_sf(first - 1, n, p)
    else:
        lo, hi = 0, int(math.floor(p * n))
        while lo < hi:  # last j <= floor(pn) with pmf(j) <= d (pmf increasing there)
            mid = (lo + hi + 1) // 2
            if _binom_pmf(mid, n, p) <= d:
                lo = mid
            else:
                hi = mid - 1
        last = lo if _binom_pmf(lo, n, p) <= d else -1
        pval = _binom_cdf(last, n, p) + _binom_sf(k - 1, n, p)
    return min(1.0, pval)


def _binom_p(k: int, n: int, p: float, alternative: str, mid: bool = False) -> float:
    if n == 0:
        return 1.0
    if alternative == "greater":
        pv = _binom_sf(k - 1, n, p)
        return pv - 0.5 * _binom_pmf(k, n, p) if mid else pv
    if alternative == "less":
        pv = _binom_cdf(k, n, p)
        return pv - 0.5 * _binom_pmf(k, n, p) if mid else pv
    if mid:
        if p != 0.5:
            raise InputError("the two-sided mid-p test is defined here for p = 0.5 only")
        m = min(k, n - k)
        return min(1.0, 2.0 * (_binom_cdf(m, n, 0.5) - 0.5 * _binom_pmf(m, n, 0.5)))
    if p == 0.5:
        m = min(k, n - k)
        return 1.0 if 2 * k == n else min(1.0, 2.0 * _binom_cdf(m, n, 0.5))
    return _binom_two_sided(k, n, p)


@checked_keywords
@_hashed
def binomial_test(k: int, n: int, p: float = 0.5, *, alternative: str = "two-sided", mid_p: bool = False) -> TestResult:
    """Exact binomial test of ``k`` successes in ``n`` trials.

    Equals ``scipy.stats.binomtest(k, n, p, alternative).pvalue`` (the
    two-sided p-value sums the outcomes no more likely than ``k``, with
    scipy's relative tolerance 1e-7). ``mid_p=True`` subtracts half the
    probability of the observed outcome (two-sided only for p = 0.5).
    ``statistic`` is k/n.
    """
    k, n = _count("k", k), _count("n", n)
    if n < 1:
        raise InputError("binomial test needs n >= 1 trials")
    if k > n:
        raise InputError(f"k ({k}) must not exceed n ({n})")
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise InputError(f"p must be in [0, 1], got {p}")
    alt = _alt(alternative)
    pv = _binom_p(k, n, p, alt, mid_p)
    return TestResult(
        "binomial_test", "mid-p" if mid_p else "exact", alt, k / n, pv, n, details={"k": k, "n": n, "p": p}
    )


_MCNEMAR_METHODS = {
    "exact": "exact",
    "binomial": "exact",
    "mid-p": "mid-p",
    "midp": "mid-p",
    "mid_p": "mid-p",
    "asymptotic": "asymptotic",
    "chi2": "asymptotic",
    "chisquare": "asymptotic",
}


def _discordant(x: Any, y: Any) -> tuple[int, int, int]:
    if y is None:
        t = np.asarray(x)
        if t.shape != (2, 2):
            raise InputError(
                "mcnemar: pass two 0/1 vectors of per-item correctness (x, y), or one 2x2 table "
                "[[both right, only x right], [only y right, both wrong]]"
            )
        vals = [[_count(f"table[{i}][{j}]", t[i, j]) for j in range(2)] for i in range(2)]
        return vals[0][1], vals[1][0], sum(map(sum, vals))
    xa, ya = _paired(x, y)
    xb, yb = _binary(xa, "x"), _binary(ya, "y")
    b = int(np.count_nonzero(xb & ~yb))
    c = int(np.count_nonzero(yb & ~xb))
    return b, c, int(xa.size)


@checked_keywords
@_hashed
def mcnemar(
    x: Any,
    y: Any = None,
    *,
    method: Literal["mid-p", "exact", "asymptotic"] = "mid-p",
    correction: bool = True,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
) -> TestResult:
    """McNemar's test on paired binary outcomes (per-item correct / incorrect).

    ``x`` and ``y`` are 0/1 correctness of the baseline and the candidate on
    the same items (tokens or sentences), or ``x`` is a 2x2 table
    ``[[both right, only x right], [only y right, both wrong]]``. With
    b = #(only x right) and c = #(only y right), under H0
    c ~ Binomial(b + c, 1/2).

    method
        ``"mid-p"`` (default; Fagerland, Lydersen & Laake 2013, as used by
        Gorman & Bedrick 2019): 2·[P(C ≤ m) − P(C = m)/2] with m = min(b, c),
        from the binomial pmf. ``"exact"``: the conditional binomial test,
        equal to ``statsmodels.stats.contingency_tables.mcnemar(table,
        exact=True).pvalue`` (and ``scipy.stats.binomtest(c, b+c)``).
        ``"asymptotic"``: chi-square (b − c)²/(b + c) on 1 df, or with
        ``correction`` (Edwards) (|b − c| − 1)²/(b + c), equal to statsmodels'
        ``mcnemar(table, exact=False, correction=...)`` whenever b ≠ c (for
        b = c the corrected statistic is clamped at 0 here, p = 1).
    alternative
        ``"greater"``: y is right more often than x (c > b). One-sided exact
        and mid-p p-values are binomial tails of c; one-sided asymptotic
        p-values use z = (c − b ∓ correction)/√(b + c).

    ``statistic`` is min(b, c) for the two-sided exact and mid-p tests (as
    statsmodels reports), c for one-sided ones, and the chi-square (two-sided)
    or z (one-sided) for the asymptotic test. ``effect_size`` is the accuracy
    gain (c − b)/n. No discordant pairs gives p = 1.
    """
    alt = _alt(alternative)
    m = _MCNEMAR_METHODS.get(str(method).lower())
    if m is None:
        raise InputError(f"mcnemar method must be 'mid-p', 'exact' or 'asymptotic', got {method!r}")
    b, c, n = _discordant(x, y)
    nd = b + c
    details: dict[str, Any] = {
        "b": b,
        "c": c,
        "n_discordant": nd,
        "odds_ratio": (c / b) if b else (math.inf if c else math.nan),
    }
    variant = m
    if m == "asymptotic":
        if alt == "two-sided":
            variant = "chi2-corrected" if correction else "chi2"
        else:
            variant = "z-corrected" if correction else "z"
        details["correction"] = bool(correction)
    if nd == 0:
        stat, p = 0.0, 1.0
    elif m in ("exact", "mid-p"):
        stat = float(min(b, c)) if alt == "two-sided" else float(c)
        p = _binom_p(c, nd, 0.5, alt, mid=m == "mid-p")
    else:
        cc = 1.0 if correction else 0.0
        if alt == "two-sided":
            diff = max(0.0, abs(b - c) - cc)
            stat = diff * diff / nd
            p = _chi2_sf_1(stat)
        else:
            d = (c - b) - cc if alt == "greater" else (c - b) + cc
            stat = d / math.sqrt(nd)
            p = _nsf(stat) if alt == "greater" else _ndtr(stat)
    return TestResult(
        "mcnemar",
        variant,
        alt,
        float(stat),
        float(min(1.0, max(0.0, p))),
        n,
        (c - b) / n if n else 0.0,
        "accuracy_difference",
        details=details,
    )


@checked_keywords
@_hashed
def sign_test(
    x: Any,
    y: Any,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    mid_p: bool = False,
) -> TestResult:
    """Paired sign test of ``y`` against ``x``: ties (y = x) are dropped.

    With n+ = #(y > x) and n− = #(y < x), the p-value is
    ``scipy.stats.binomtest(n+, n+ + n−, 0.5, alternative).pvalue``;
    ``statistic`` is n+. The two-sided p-value also equals statsmodels'
    ``sign_test(y - x)``. ``effect_size`` is (n+ − n−)/(n+ + n−) (0 when all
    pairs are tied, p = 1).
    """
    xa, ya = _paired(x, y)
    alt = _alt(alternative)
    d = ya - xa
    npos, nneg = int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))
    nn = npos + nneg
    p = _binom_p(npos, nn, 0.5, alt, mid_p)
    eff = (npos - nneg) / nn if nn else 0.0
    return TestResult(
        "sign_test",
        "mid-p" if mid_p else "exact",
        alt,
        float(npos),
        p,
        int(xa.size),
        eff,
        "sign_effect",
        details={"n_positive": npos, "n_negative": nneg, "n_ties": int(xa.size) - nn},
    )


# --------------------------------------------------------------------------
# t-tests
# --------------------------------------------------------------------------


def _t_pvalue(t: float, df: float, alt: str) -> float:
    if alt == "greater":
        return _t_sf(t, df)
    if alt == "less":
        return _t_cdf(t, df)
    return min(1.0, 2.0 * _t_sf(abs(t), df))


def _t_interval(est: float, se: float, df: float, alt: str, cl: float) -> ConfidenceInterval:
    if alt == "two-sided":
        q = _t_ppf(0.5 + cl / 2.0, df)
        return ConfidenceInterval(est - q * se, est + q * se)
    q = _t_ppf(cl, df)
    if alt == "greater":
        return ConfidenceInterval(est - q * se, math.inf)
    return ConfidenceInterval(-math.inf, est + q * se)


def _cl(confidence_level: float) -> float:
    cl = float(confidence_level)
    if not 0.0 < cl < 1.0:
        raise InputError(f"confidence_level must be in (0, 1), got {confidence_level}")
    return cl


def _degenerate_t(mean: float, alt: str) -> tuple[float, float]:
    """t and p when the standard error is 0 (all differences equal)."""
    if mean == 0:
        return 0.0, 1.0
    t = math.copysign(math.inf, mean)
    if alt == "two-sided":
        return t, 0.0
    return t, (0.0 if (alt == "greater") == (mean > 0) else 1.0)


@checked_keywords
@_hashed
def paired_ttest(
    x: Any,
    y: Any,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    confidence_level: float = DEFAULT_CONFIDENCE,
) -> TestResult:
    """Paired t-test of the mean difference d = y − x.

    Equals ``scipy.stats.ttest_rel(y, x, alternative=...)`` (statistic,
    pvalue, ``df``, ``confidence_interval(confidence_level)`` of the mean
    difference). ``effect_size`` is Cohen's d_z = mean(d)/sd(d).
    Needs n ≥ 2. All differences equal: t = ±inf with p = 0 (or 1 against
    the other one-sided alternative), or t = 0 with p = 1 when they are all
    zero (scipy returns NaN for both).
    """
    xa, ya = _paired(x, y)
    alt = _alt(alternative)
    cl = _cl(confidence_level)
    n = int(xa.size)
    if n < 2:
        raise InputError(f"the paired t-test needs at least 2 pairs, got {n}")
    d = ya - xa
    mean = float(np.mean(d))
    var = float(np.var(d, ddof=1))
    df = n - 1.0
    se = math.sqrt(var / n)
    if se == 0.0:
        t, p = _degenerate_t(mean, alt)
        ci = _t_interval(mean, 0.0, df, alt, cl)
        eff = 0.0 if mean == 0 else math.copysign(math.inf, mean)
    else:
        t = mean / se
        p = _t_pvalue(t, df, alt)
        ci = _t_interval(mean, se, df, alt, cl)
        eff = mean / math.sqrt(var)
    return TestResult(
        "paired_ttest",
        "student",
        alt,
        t,
        p,
        n,
        eff,
        "cohens_dz",
        cl,
        ci,
        details={"df": df, "mean_difference": mean, "standard_error": se},
    )


@checked_keywords
@_hashed
def welch_ttest(
    x: Any,
    y: Any,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    equal_var: bool = False,
    confidence_level: float = DEFAULT_CONFIDENCE,
) -> TestResult:
    """Two-sample t-test of mean(y) − mean(x) for scores that are not paired.

    Welch's test by default: equals ``scipy.stats.ttest_ind(y, x,
    equal_var=False, alternative=...)`` including ``df`` and
    ``confidence_interval``; ``equal_var=True`` gives Student's pooled test.
    ``effect_size`` is Cohen's d with the pooled standard deviation.
    Each sample needs ≥ 2 values.
    """
    xa, ya = _vector(x, "x"), _vector(y, "y")
    alt = _alt(alternative)
    cl = _cl(confidence_level)
    n1, n2 = int(ya.size), int(xa.size)
    if n1 < 2 or n2 < 2:
        raise InputError(f"the two-sample t-test needs at least 2 values in each sample, got {n2} and {n1}")
    m1, m2 = float(np.mean(ya)), float(np.mean(xa))
    v1, v2 = float(np.var(ya, ddof=1)), float(np.var(xa, ddof=1))
    diff = m1 - m2
    pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / (n1 + n2 - 2)
    if equal_var:
        df = float(n1 + n2 - 2)
        se = math.sqrt(pooled * (1.0 / n1 + 1.0 / n2))
    else:
        a, b = v1 / n1, v2 / n2
        se = math.sqrt(a + b)
        df = (a + b) ** 2 / (a**2 / (n1 - 1) + b**2 / (n2 - 1)) if se > 0 else float(n1 + n2 - 2)
    if se == 0.0:
        t, p = _degenerate_t(diff, alt)
        ci = _t_interval(diff, 0.0, df, alt, cl)
    else:
        t = diff / se
        p = _t_pvalue(t, df, alt)
        ci = _t_interval(diff, se, df, alt, cl)
    eff = diff / math.sqrt(pooled) if pooled > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    return TestResult(
        "welch_ttest" if not equal_var else "student_ttest",
        "welch" if not equal_var else "pooled",
        alt,
        t,
        p,
        n1 + n2,
        eff,
        "cohens_d",
        cl,
        ci,
        details={"df": df, "mean_difference": diff, "standard_error": se, "n_x": n2, "n_y": n1},
    )


# --------------------------------------------------------------------------
# Rank tests
# --------------------------------------------------------------------------


def _rank_average(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks (1-based) and the sizes of the tie groups (in sorted order)."""
    n = a.size
    if n == 0:
        return np.empty(0), np.empty(0)
    order = np.argsort(a, kind="mergesort")
    s = a[order]
    starts = np.concatenate([[True], s[1:] != s[:-1]])
    idx = np.flatnonzero(starts)
    sizes = np.diff(np.append(idx, n))
    avg = idx + (sizes + 1) / 2.0
    ranks = np.empty(n)
    ranks[order] = np.repeat(avg, sizes)
    return ranks, sizes.astype(np.float64)


def _subset_sum_dist(weights: np.ndarray) -> np.ndarray:
    """Distribution of sum(w_i B_i), B_i iid Bernoulli(1/2), for non-negative integer weights."""
    total = int(weights.sum())
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    top = 0
    for w in weights.tolist():
        w = int(w)
        if w == 0:
            continue
        nxt = dist[: top + w + 1] * 0.5
        nxt[w : top + w + 1] += 0.5 * dist[: top + 1]
        top += w
        dist[: top + 1] = nxt
    return dist


def _tails(dist: np.ndarray, k: int) -> tuple[float, float]:
    """(P(S <= k), P(S >= k))."""
    le = float(dist[: k + 1].sum()) if k >= 0 else 0.0
    ge = float(dist[max(k, 0) :].sum()) if k < dist.size else 0.0
    return min(1.0, le), min(1.0, ge)


_ZERO_METHODS = ("wilcox", "pratt", "zsplit")
_MAX_EXACT_WILCOXON = 1000
_MAX_EXACT_MWU_WORK = 50_000_000  # m * n * min(m, n) integer operations


@checked_keywords
@_hashed
def wilcoxon(
    x: Any,
    y: Any,
    *,
    zero_method: Literal["wilcox", "pratt", "zsplit"] = "wilcox",
    correction: bool = False,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    method: Literal["auto", "exact", "asymptotic"] = "auto",
) -> TestResult:
    """Wilcoxon signed-rank test on the paired differences d = y − x.

    Equals ``scipy.stats.wilcoxon(y, x, zero_method=..., correction=...,
    alternative=..., method=...)`` with scipy's defaults and its choice for
    ``method="auto"``: more than 50 pairs → normal approximation (with the
    tie correction of the variance, and the continuity correction if
    ``correction``); otherwise, without ties or zero differences → the exact
    null distribution (dynamic programming over the ranks); with ties or
    zeros and n ≤ 13 → the exact conditional distribution of the observed
    (average) ranks under random signs, which is what scipy's
    ``PermutationMethod`` enumerates there; otherwise the normal
    approximation. ``method="exact"`` always uses the exact conditional
    distribution of the observed ranks (with ties or zeros this is the
    permutation distribution, where scipy's ``method="exact"`` would use the
    untied table).

    ``zero_method``: ``"wilcox"`` drops zero differences, ``"pratt"`` ranks
    them and drops them afterwards, ``"zsplit"`` splits their ranks between
    the positive and negative sums.

    ``statistic`` is min(R+, R−) two-sided and R+ one-sided (as scipy);
    ``effect_size`` is the matched-pairs rank-biserial correlation
    (R+ − R−)/(R+ + R−). All differences zero gives p = 1.
    """
    xa, ya = _paired(x, y)
    alt = _alt(alternative)
    zm = str(zero_method).lower()
    if zm not in _ZERO_METHODS:
        raise InputError(f"zero_method must be one of {_ZERO_METHODS}, got {zero_method!r}")
    if method not in ("auto", "exact", "asymptotic"):
        raise InputError(f"method must be 'auto', 'exact' or 'asymptotic', got {method!r}")
    d = ya - xa
    n_all = int(d.size)
    zeros = d == 0
    n_zero = int(np.count_nonzero(zeros))
    dd = d[~zeros] if zm == "wilcox" else d
    count = int(dd.size)
    r, t = _rank_average(np.abs(dd))
    has_ties = bool((t > 1).any())
    r_plus = float(np.sum(r[dd > 0]))
    r_minus = float(np.sum(r[dd < 0]))
    if zm == "zsplit":
        half = float(np.sum(r[dd == 0])) / 2.0
        r_plus += half
        r_minus += half
    base = {"r_plus": r_plus, "r_minus": r_minus, "n_zero": n_zero, "n_used": count, "zero_method": zm}
    if n_zero == n_all:
        stat = min(r_plus, r_minus) if alt == "two-sided" else r_plus
        return TestResult(
            "wilcoxon", "all-zero", alt, stat, 1.0, n_all, 0.0, "rank_biserial", details={**base, "method": "none"}
        )

    m = method
    if m == "auto":
        if n_all > 50:
            m = "asymptotic"
        elif not (has_ties or n_zero > 0):
            m = "exact"
        elif n_all <= 13:
            m = "exact"
        else:
            m = "asymptotic"

    z = None
    if m == "asymptotic":
        mn = count * (count + 1.0) * 0.25
        var = count * (count + 1.0) * (2.0 * count + 1.0)
        tt = t.copy()
        if zm == "pratt":
            mn -= n_zero * (n_zero + 1.0) * 0.25
            var -= n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
            if n_zero > 0:
                tt[0] = 0.0  # the zeros' tie group does not enter the variance (as scipy)
        se = math.sqrt(max(0.0, var - float(np.sum(tt**3 - tt)) / 2.0) / 24.0)
        z = (r_plus - mn) / se if se > 0 else 0.0
        if correction and se > 0:
            sign = 1.0 if alt == "greater" else (-1.0 if alt == "less" else float(np.sign(z)))
            z -= sign * 0.5 / se
        if alt == "greater":
            p = _nsf(z)
        elif alt == "less":
            p = _ndtr(z)
        else:
            p = 2.0 * min(_ndtr(z), _nsf(z))
        variant = "asymptotic"
    else:
        if count > _MAX_EXACT_WILCOXON:
            raise InputError(
                f"the exact signed-rank distribution is limited to {_MAX_EXACT_WILCOXON} pairs "
                f"(got {count}); use method='asymptotic' (or 'auto')"
            )
        # exact conditional distribution: each nonzero |d| rank enters R+ with probability 1/2
        signed = dd != 0
        if not has_ties and zm == "wilcox":
            dist = _subset_sum_dist(np.arange(1, count + 1))
            k = int(round(r_plus))
        else:
            dist = _subset_sum_dist(np.rint(2.0 * r[signed]).astype(np.int64))
            offset = float(np.sum(r[~signed])) / 2.0 if zm == "zsplit" else 0.0
            k = int(round(2.0 * (r_plus - offset)))
        le, ge = _tails(dist, k)
        if alt == "greater":
            p = ge
        elif alt == "less":
            p = le
        else:
            p = min(1.0, 2.0 * min(le, ge))
        variant = "exact" if not (has_ties or n_zero) else "exact-conditional"
    stat = min(r_plus, r_minus) if alt == "two-sided" else r_plus
    tot = r_plus + r_minus
    eff = (r_plus - r_minus) / tot if tot > 0 else 0.0
    details = {**base, "method": m, "ties": has_ties}
    if z is not None:
        details["z"] = z
        details["correction"] = bool(correction)
    return TestResult(
        "wilcoxon", variant, alt, stat, float(min(1.0, max(0.0, p))), n_all, eff, "rank_biserial", details=details
    )


def _mwu_sf_exact(u: int, m: int, n: int) -> float:
    """P(U >= u) for Mann-Whitney U with sample sizes m, n and no ties (exact integer counts)."""
    if m > n:
        m, n = n, m
    top = m * n
    if u <= 0:
        return 1.0
    if u > top:
        return 0.0
    # counts = coefficients of the Gaussian binomial [m+n choose m]_q
    #        = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i)
    c = np.zeros(top + 1, dtype=object)
    c[0] = 1
    deg = 0
    for i in range(1, m + 1):
        s = n + i
        buf = np.zeros(deg + s + 1, dtype=object)
        buf[: deg + 1] = c[: deg + 1]
        buf[s:] -= c[: deg + 1]
        for r0 in range(i):  # divide by (1 - q^i): running sums with stride i
            buf[r0::i] = np.cumsum(buf[r0::i])
        deg = deg + s - i
        c[: deg + 1] = buf[: deg + 1]
    total = sum(c.tolist())
    upper = sum(c[u:].tolist())
    lower = total - upper
    return upper / total if upper <= lower else 1.0 - lower / total


@checked_keywords
@_hashed
def mann_whitney_u(
    x: Any,
    y: Any,
    *,
    use_continuity: bool = True,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    method: Literal["auto", "exact", "asymptotic"] = "auto",
) -> TestResult:
    """Wilcoxon rank-sum / Mann-Whitney U test of ``y`` against ``x`` (not paired).

    Equals ``scipy.stats.mannwhitneyu(y, x, use_continuity=...,
    alternative=..., method=...)``; ``statistic`` is U of ``y``.
    ``method="auto"`` follows scipy: exact (no tie correction) when a sample
    has at most 8 values and there are no ties, otherwise the normal
    approximation with the tie-corrected variance and the continuity
    correction. ``effect_size`` is the common-language effect size
    U/(n_x n_y) = P(Y > X) + P(Y = X)/2; ``details["rank_biserial"]`` is
    2·U/(n_x n_y) − 1. All values tied gives p = 1 (two-sided).
    """
    xa, ya = _vector(x, "x"), _vector(y, "y")
    if xa.size == 0 or ya.size == 0:
        raise InputError("Mann-Whitney U needs at least one value in each sample")
    alt = _alt(alternative)
    if method not in ("auto", "exact", "asymptotic"):
        raise InputError(f"method must be 'auto', 'exact' or 'asymptotic', got {method!r}")
    n1, n2 = int(ya.size), int(xa.size)
    ranks, t = _rank_average(np.concatenate([ya, xa]))
    r1 = float(np.sum(ranks[:n1]))
    u1 = r1 - n1 * (n1 + 1) / 2.0
    u2 = n1 * n2 - u1
    if alt == "greater":
        u, f = u1, 1.0
    elif alt == "less":
        u, f = u2, 1.0
    else:
        u, f = max(u1, u2), 2.0
    ties = bool((t > 1).any())
    m = method
    if m == "auto":
        m = "asymptotic" if (n1 > 8 and n2 > 8) or ties else "exact"
    details: dict[str, Any] = {"u_y": u1, "u_x": u2, "n_x": n2, "n_y": n1, "method": m, "ties": ties}
    if m == "exact":
        if n1 * n2 * min(n1, n2) > _MAX_EXACT_MWU_WORK:
            raise InputError(
                f"the exact Mann-Whitney distribution for samples of {n2} and {n1} values is too "
                "large to compute here; use method='asymptotic' (or 'auto')"
            )
        p = _mwu_sf_exact(int(u), n1, n2)
    else:
        mu = n1 * n2 / 2.0
        nn = n1 + n2
        tie_term = float(np.sum(t**3 - t))
        s = math.sqrt(n1 * n2 / 12.0 * ((nn + 1) - tie_term / (nn * (nn - 1))))
        num = u - mu
        if use_continuity:
            num -= 0.5
        if s == 0.0:  # every value tied: no information
            z = 0.0 if num == 0 else math.copysign(math.inf, num)
        else:
            z = num / s
        p = _nsf(z)
        details["z"] = z
        details["use_continuity"] = bool(use_continuity)
    p = min(1.0, max(0.0, p * f))
    cles = u1 / (n1 * n2)
    details["rank_biserial"] = 2.0 * cles - 1.0
    return TestResult("mann_whitney_u", m, alt, u1, p, n1 + n2, cles, "common_language_effect_size", details=details)


# --------------------------------------------------------------------------
# CLI hook
# --------------------------------------------------------------------------


def _read_binary_file(path: str) -> np.ndarray:
    """Per-item correctness, one 0 or 1 per line, read by the ``tsv`` format's reader
    (:func:`sigfast.formats.items.read_items`; ``.jsonl``/``.npy`` by extension)."""
    from ..exceptions import FormatError
    from ..formats.items import read_items_lines

    values, _, lines = read_items_lines(path)
    if values.shape[1] != 1:
        raise FormatError(
            f"{values.shape[1]} values per line; write one 0/1 per item, one item per line", path=str(path)
        )
    bad = np.flatnonzero((values[:, 0] != 0) & (values[:, 0] != 1))
    if len(bad):
        i = int(bad[0])
        raise FormatError(
            f"item {i + 1} is {values[i, 0]:g}; expected per-item correctness 0 or 1, one per line",
            path=str(path),
            line=None if lines is None else lines[i],
        )
    return np.ascontiguousarray(values[:, 0], dtype=np.float64)
