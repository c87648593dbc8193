"""Power and test-set size by simulation (Berg-Kirkpatrick et al. 2012, §4.1).

How many test items are needed before a test detects a given accuracy gain
with a given power? Items are simulated from a two-system model: on each
item the two systems disagree in correctness with probability
``discordance``; the candidate ``y`` is the one that is right on a share
(1 + gain/discordance)/2 of those items, so that its accuracy exceeds the
baseline's by ``gain``. (Items on which both are right or both wrong do not
change McNemar's test or the paired bootstrap of an accuracy difference.)
All draws come from sigfast's counter-based streams
(``sigfast._native.binomial_draws``) and the bootstrap runs on the core
engine, so one seed gives the same answer everywhere.

:func:`bootstrap_sample_size` can instead subsample a pool of real per-item
statistics of two systems (e.g. from a development set) for any metric.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from . import _native
from ._api import checked_keywords
from ._options import DEFAULT_SEED, check_seed, shared_options
from .classical import _ALTERNATIVES, _MCNEMAR_METHODS, _ndtri, mcnemar
from .exceptions import InputError
from .results import Result

__all__ = [
    "BenchmarkPower",
    "SampleSizeResult",
    "bootstrap_power",
    "bootstrap_sample_size",
    "items_needed",
    "mcnemar_power",
    "mcnemar_sample_size",
    "minimum_detectable_difference",
]


@dataclass(frozen=True)
class SampleSizeResult(Result):
    """The smallest test size ``n`` at which the simulated power reaches ``target_power``.

    ``n`` is None when even ``max_n`` items do not reach it. ``curve`` lists
    every (size, estimated power) evaluated during the search.
    """

    test: str
    n: int | None
    power: float | None
    target_power: float
    alpha: float
    gain: float | None
    discordance: float | None
    n_simulations: int
    seed: int
    curve: tuple[tuple[int, float], ...]
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def signature(self) -> str:
        """The search's settings: test, target power, alpha, the model (gain, discordance) or the pool's
        metric and data hash, simulations, resamples, seed, tolerance."""
        from .signature import build

        d = self.details
        return build(
            f"sample_size_{self.test}",
            variant=d.get("variant") or d.get("method"),
            alt=d.get("alternative"),
            metric=None,
            power=self.target_power,
            alpha=self.alpha,
            gain=self.gain,
            discordance=self.discordance,
            simulations=self.n_simulations,
            B=d.get("n_resamples"),
            seed=self.seed,
            model=d.get("model"),
            pool_metric=d.get("metric"),
            correction=d.get("correction"),
            rtol=d.get("rtol"),
            stream=d.get("stream"),
            data=d.get("data"),
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per evaluated test size: (n, estimated power) with the search's settings."""
        base = {k: v for k, v in self.to_dict().items() if k not in ("curve", "details", "n", "power")}
        return [{"n_items": int(size), "power": float(pw), "chosen": size == self.n, **base} for size, pw in self.curve]

    def _text(self) -> str:
        return f"{self._summary()}\n  {self.signature}\n"

    def _summary(self) -> str:
        if self.n is None and self.gain == 0 and not self.curve:
            return (
                f"{self.test}: power {self.target_power:g} at alpha {self.alpha:g} is reached at no test size: "
                "with a gain of 0 the test rejects at about its false-positive rate alpha"
            )
        if self.n is None:
            return (
                f"{self.test}: power {self.target_power:g} at alpha {self.alpha:g} not reached within "
                f"{self.curve[-1][0] if self.curve else 0} items"
            )
        return (
            f"{self.test}: {self.n} items give power {self.power:.3f} (target {self.target_power:g}, "
            f"alpha {self.alpha:g}, {self.n_simulations} simulations, seed {self.seed})"
        )


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def _stream_seed(seed: int, *keys: int) -> int:
    """A 64-bit stream key derived from (seed, keys) by numpy's SeedSequence hashing."""
    ss = np.random.SeedSequence([int(seed) & (2**64 - 1), *[int(k) for k in keys]])
    return int(ss.generate_state(1, np.uint64)[0])


_MAX_ITEMS = 1 << 40  # test-set sizes: 2^40 items is far beyond any corpus


def _model(gain: float, discordance: float) -> tuple[float, float]:
    g, d = float(gain), float(discordance)
    if not (math.isfinite(g) and math.isfinite(d)):
        raise InputError("gain and discordance must be finite numbers")
    if not 0.0 < d <= 1.0:
        raise InputError(
            f"discordance (share of items where the systems differ in correctness) must be in (0, 1], got {d}"
        )
    if not abs(g) <= d:
        raise InputError(f"an accuracy gain of {g} needs a discordance of at least |gain|, got {d}")
    return g, d


def _discordant_draws(
    n: int, gain: float, disc: float, sims: int, seed: int, stream: int
) -> tuple[np.ndarray, np.ndarray]:
    """(b, c) for ``sims`` simulated test sets of n items: b = only-x-right, c = only-y-right."""
    d = np.asarray(
        _native.binomial_draws(_stream_seed(seed, n, 0), int(n), disc, int(sims), stream=stream), dtype=np.int64
    )
    share = 0.5 * (1.0 + gain / disc)
    c = np.empty_like(d)
    for val in np.unique(d):
        idx = np.flatnonzero(d == val)
        key = _stream_seed(seed, n, 1, int(val))
        c[idx] = _native.binomial_draws(key, int(val), share, int(idx.size), stream=stream)
    return d - c, c


def _normal_guess(g: float, d: float, za: float, zb: float, max_n: int) -> int:
    """Normal-approximation size: sqrt(n) g = za sqrt(d) + zb sqrt(d - g^2), capped at max_n."""
    if g == 0:
        return max_n
    root = (za * math.sqrt(d) + zb * math.sqrt(max(d - g * g, 0.0))) / abs(g)
    return int(min(float(max_n), max(1.0, root * root)))


def _rtol(rtol: float) -> float:
    r = float(rtol)
    if not 0.0 <= r < 1.0:
        raise InputError(f"rtol must be in [0, 1), got {rtol}")
    return r


def _above_alpha(pw: float, a: float, power: Any) -> None:
    """A target power at or below alpha is an InputError: the one check of every power function."""
    if pw <= a:
        raise InputError(
            f"power must be above alpha ({a:g}), got {power!r}: a test at level alpha rejects with probability "
            "alpha when the models do not differ at all, so a power at or below it asks for no difference"
        )


def _check_common(power: float | None, alpha: float, sims: int, seed: int) -> tuple[float, float, int, int]:
    """Checked (target power, alpha, simulations, seed); ``power=None``: no target (a power is estimated,
    NaN in its place)."""
    from .executor import check_int as _check_int

    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise InputError(f"alpha must be in (0, 1), got {alpha}")
    pw = math.nan
    if power is not None:
        pw = float(power)
        if not 0.0 < pw < 1.0:
            raise InputError(f"power must be in (0, 1), got {power}")
        _above_alpha(pw, a, power)
    return pw, a, _check_int("n_simulations", sims, 1, 1 << 30), check_seed(seed)


def _search(
    power_at: Callable[[int], float], target: float, n_start: int, max_n: int, rtol: float
) -> tuple[int | None, list[tuple[int, float]]]:
    """Smallest n with power_at(n) >= target: doubling, then bisection down to a relative width rtol.

    Powers are Monte-Carlo estimates, so sizes closer than their noise cannot be told apart;
    ``rtol`` stops the bisection there.
    """
    curve: dict[int, float] = {}

    def f(n: int) -> float:
        if n not in curve:
            curve[n] = power_at(n)
        return curve[n]

    lo, hi = 0, min(max_n, max(1, n_start))
    while f(hi) < target:
        lo = hi
        if hi >= max_n:
            return None, sorted(curve.items())
        hi = min(max_n, hi * 2)
    while hi - lo > max(1.0, rtol * hi):
        mid = (lo + hi) // 2
        if f(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi, sorted(curve.items())


# --------------------------------------------------------------------------
# McNemar
# --------------------------------------------------------------------------


class _McNemarRule:
    """Rejection rule of mcnemar() at level alpha for each number of discordant pairs."""

    def __init__(self, method: str, alternative: str, correction: bool, alpha: float) -> None:
        self.method, self.alt, self.corr, self.alpha = method, alternative, correction, alpha
        self.cache: dict[int, int] = {}

    def p(self, c: int, d: int) -> float:
        return mcnemar(
            [[0, d - c], [c, 0]],
            method=self.method,
            correction=self.corr,
            alternative="greater" if self.alt == "less" else self.alt,
        ).pvalue

    def crit(self, d: int) -> int:
        """Smallest c (upper side) rejecting with d discordant pairs; d + 1 if none."""
        if d in self.cache:
            return self.cache[d]
        lower = (d + 1) // 2 if self.alt == "two-sided" else 0
        if d == 0:
            self.cache[d] = 1
            return 1
        tail = self.alpha / 2 if self.alt == "two-sided" else self.alpha
        g = int(round(d / 2 + max(0.0, -_ndtri(tail)) * math.sqrt(d) / 2))
        g = min(max(g, lower), d)
        if self.p(g, d) <= self.alpha:
            while g - 1 >= lower and self.p(g - 1, d) <= self.alpha:
                g -= 1
        else:
            while g <= d and self.p(g, d) > self.alpha:
                g += 1
        self.cache[d] = g
        return g

    def reject(self, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        d = b + c
        crit = np.array([self.crit(int(v)) for v in d], dtype=np.int64)
        if self.alt == "greater":
            return c >= crit
        if self.alt == "less":
            return b >= crit
        return (c >= crit) | (b >= crit)


def _mcnemar_args(method: str, alternative: str) -> tuple[str, str]:
    m = _MCNEMAR_METHODS.get(str(method).lower())
    if m is None:
        raise InputError(f"mcnemar method must be 'mid-p', 'exact' or 'asymptotic', got {method!r}")
    if alternative not in _ALTERNATIVES:
        raise InputError(f"alternative must be one of {_ALTERNATIVES}, got {alternative!r}")
    return m, alternative


@checked_keywords
@shared_options
def mcnemar_power(
    n: int,
    gain: float,
    discordance: float,
    *,
    alpha: float = 0.05,
    method: Literal["mid-p", "exact", "asymptotic"] = "mid-p",
    correction: bool = True,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    n_simulations: int = 2000,
    seed: int = DEFAULT_SEED,
    stream: int | None = None,
) -> float:
    """Simulated power of :func:`sigfast.mcnemar` on ``n`` items.

    The share of ``n_simulations`` simulated test sets (accuracy gain
    ``gain`` of y over x, the systems differing on a share ``discordance``
    of items) on which McNemar's test rejects at ``alpha``. For a two-sided
    test a rejection in the wrong direction counts, as it does for the test.
    ``stream`` picks the random stream version (``None``: the default).
    """
    from .executor import check_int as _check_int

    g, d = _model(gain, discordance)
    _, a, sims, seed = _check_common(None, alpha, n_simulations, seed)
    n = _check_int("n", n, 1, _MAX_ITEMS)
    m, alt = _mcnemar_args(method, alternative)
    rule = _McNemarRule(m, alt, correction, a)
    b, c = _discordant_draws(n, g, d, sims, seed, stream)
    return float(np.mean(rule.reject(b, c)))


@checked_keywords
@shared_options
def mcnemar_sample_size(
    gain: float,
    discordance: float,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    method: Literal["mid-p", "exact", "asymptotic"] = "mid-p",
    correction: bool = True,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    n_simulations: int = 2000,
    seed: int = DEFAULT_SEED,
    max_n: int = 100_000_000,
    rtol: float = 0.01,
    stream: int | None = None,
) -> SampleSizeResult:
    """Smallest number of test items at which McNemar's test detects ``gain`` with ``power``.

    ``gain`` is the accuracy difference acc(y) − acc(x) and ``discordance``
    the share of items where exactly one system is right (for taggers
    around 97% accurate, typically 1–3%). The power at each size is
    estimated from ``n_simulations`` simulated test sets (see
    :func:`mcnemar_power`); the size is found by doubling, then bisection,
    stopping when the bracket is narrower than ``rtol`` × n: sizes closer
    than that cannot be told apart by power estimates whose Monte-Carlo
    error is ±≈ √(p(1−p)/n_simulations) (``details["power_se"]``). ``stream`` picks the
    random stream version (``None``: the default).
    """
    from .executor import check_int as _check_int

    g, d = _model(gain, discordance)
    pw, a, sims, seed = _check_common(power, alpha, n_simulations, seed)
    max_n = _check_int("max_n", max_n, 1, _MAX_ITEMS)
    m, alt = _mcnemar_args(method, alternative)
    rule = _McNemarRule(m, alt, correction, a)

    def power_at(n: int) -> float:
        b, c = _discordant_draws(n, g, d, sims, seed, stream)
        return float(np.mean(rule.reject(b, c)))

    # a normal-approximation first guess keeps the search short
    za = -_ndtri(a / 2 if alt == "two-sided" else a)
    zb = -_ndtri(1 - pw)
    guess = _normal_guess(g, d, za, zb, max_n)
    n, curve = _search(power_at, pw, max(1, guess // 2), max_n, _rtol(rtol))
    return SampleSizeResult(
        "mcnemar",
        n,
        dict(curve).get(n) if n is not None else None,
        pw,
        a,
        g,
        d,
        sims,
        seed,
        tuple(curve),
        {
            "method": m,
            "alternative": alt,
            "correction": correction,
            "power_se": math.sqrt(pw * (1 - pw) / sims),
            "rtol": rtol,
            "stream": stream,
        },
    )


# --------------------------------------------------------------------------
# Paired bootstrap
# --------------------------------------------------------------------------


def _bootstrap_detects(
    x: Any,
    y: Any,
    metric: Any,
    B: int,
    seed: int,
    variant: str,
    alpha: float,
    direction: float,
    metric_params: dict[str, Any],
    stream: int,
) -> bool:
    from .significance import paired_bootstrap

    r = paired_bootstrap(
        x, y, metric=metric, n_resamples=B, seed=seed, variant=variant, stream=stream, progress=False, **metric_params
    )
    better = (r.statistic * direction > 0) if r.higher_is_better else (r.statistic * direction < 0)
    return bool(better and r.pvalue <= alpha)


@checked_keywords
@shared_options
def bootstrap_power(
    n: int,
    gain: float | None = None,
    discordance: float | None = None,
    *,
    x: Any = None,
    y: Any = None,
    metric: Any = None,
    alpha: float = 0.05,
    variant: Literal["bk", "koehn", "shifted"] = "bk",
    n_simulations: int = 200,
    n_resamples: int = 1000,
    seed: int = DEFAULT_SEED,
    stream: int | None = None,
    **metric_params: Any,
) -> float:
    """Simulated power of :func:`sigfast.paired_bootstrap` on test sets of ``n`` items.

    Either the two-system accuracy model (``gain``, ``discordance``; see the
    module docstring) or a pool of real per-item scores / statistics ``x``,
    ``y`` (with ``metric``) from which each simulated test set draws ``n``
    items with replacement; the gain is then the pool's own. A simulated
    test set counts as detected when y is better and p ≤ ``alpha``. ``stream`` picks the
    random stream version (``None``: the default).
    """
    from .executor import check_int as _check_int
    from .executor import check_resamples as _resamples

    n = _check_int("n", n, 1, _MAX_ITEMS)
    _, a, sims, seed = _check_common(None, alpha, n_simulations, seed)
    B = _resamples(n_resamples)
    run = _bootstrap_runner(gain, discordance, x, y, metric, a, variant, sims, B, seed, dict(metric_params), stream)
    return run(n)


def _bootstrap_runner(
    gain: Any,
    discordance: Any,
    x: Any,
    y: Any,
    metric: Any,
    alpha: float,
    variant: str,
    sims: int,
    B: int,
    seed: int,
    params: dict[str, Any],
    stream: int,
) -> Callable[[int], float]:
    if x is None and y is None:
        if gain is None or discordance is None:
            raise InputError("give gain and discordance (accuracy model), or a pool of per-item x and y")
        g, d = _model(gain, discordance)
        direction = 1.0 if g >= 0 else -1.0

        def run(n: int) -> float:
            b, c = _discordant_draws(n, g, d, sims, seed, stream)
            hits = 0
            for s in range(sims):
                xs = np.zeros(n)
                ys = np.zeros(n)
                xs[: b[s]] = 1.0
                ys[b[s] : b[s] + c[s]] = 1.0
                hits += _bootstrap_detects(
                    xs, ys, "mean", B, _stream_seed(seed, n, 2, s), variant, alpha, direction, {}, stream
                )
            return hits / sims

        return run
    if x is None or y is None or gain is not None or discordance is not None:
        raise InputError("a pool needs both x and y (and no gain/discordance: the pool's own gain is used)")
    from .executor import pair_inputs as _pair

    stats, m = _pair(x, y, None, metric, dict(params))
    full = m.evaluate(stats.totals(), stats.n_items)
    direction = 1.0 if full[1] - full[0] >= 0 else -1.0
    if not m.higher_is_better:
        direction = -direction
    vx, vy = stats.values[0], stats.values[1]
    pool = stats.n_items

    def run(n: int) -> float:
        hits = 0
        for s in range(sims):
            idx = np.random.Generator(np.random.Philox(key=_stream_seed(seed, n, 3, s))).integers(0, pool, n)
            hits += _bootstrap_detects(
                vx[idx], vy[idx], m, B, _stream_seed(seed, n, 2, s), variant, alpha, direction, {}, stream
            )
        return hits / sims

    return run


@checked_keywords
@shared_options
def bootstrap_sample_size(
    gain: float | None = None,
    discordance: float | None = None,
    *,
    x: Any = None,
    y: Any = None,
    metric: Any = None,
    power: float = 0.8,
    alpha: float = 0.05,
    variant: Literal["bk", "koehn", "shifted"] = "bk",
    n_simulations: int = 200,
    n_resamples: int = 1000,
    seed: int = DEFAULT_SEED,
    max_n: int = 10_000_000,
    rtol: float = 0.02,
    stream: int | None = None,
    **metric_params: Any,
) -> SampleSizeResult:
    """Smallest test size at which the paired bootstrap detects the gain with ``power``.

    As :func:`bootstrap_power`, searched over n by doubling and bisection.
    Each evaluated size runs ``n_simulations`` bootstraps of
    ``n_resamples`` resamples on the core engine; keep both modest (the
    defaults take seconds on the accuracy model, where resampling runs over
    the three distinct item types). ``stream`` picks the random stream version.
    """
    from .executor import check_int as _check_int
    from .executor import check_resamples as _resamples

    pw, a, sims, seed = _check_common(power, alpha, n_simulations, seed)
    B = _resamples(n_resamples)
    max_n = _check_int("max_n", max_n, 1, _MAX_ITEMS)
    run = _bootstrap_runner(gain, discordance, x, y, metric, a, variant, sims, B, seed, dict(metric_params), stream)
    start = 16
    rt = _rtol(rtol)
    no_gain = False
    if gain is not None and discordance is not None:
        g, d = _model(gain, discordance)
        za, zb = -_ndtri(a), -_ndtri(1 - pw)
        start = _normal_guess(g, d, za, zb, max_n) // 2
        # With no gain every size rejects at about the false-positive rate alpha, so a target power
        # above alpha is reached at no size: say so at once instead of simulating up to max_n items.
        no_gain = g == 0 and pw > a
    if no_gain:
        n, curve = None, []
    else:
        n, curve = _search(run, pw, max(1, start), max_n, rt)
    return SampleSizeResult(
        "paired_bootstrap",
        n,
        dict(curve).get(n) if n is not None else None,
        pw,
        a,
        None if gain is None else float(gain),
        None if discordance is None else float(discordance),
        sims,
        seed,
        tuple(curve),
        {
            "variant": variant,
            "n_resamples": B,
            "model": "pool" if x is not None else "accuracy",
            "power_se": math.sqrt(pw * (1 - pw) / sims),
            "rtol": rtol,
            "stream": stream,
            **_pool_fields(x, y, metric, metric_params),
        },
    )


def _pool_fields(x: Any, y: Any, metric: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The metric and a data hash of a pool of per-item x and y (for the signature)."""
    if x is None:
        return {}
    from .signature import hash_data

    name = metric if isinstance(metric, str) or metric is None else getattr(metric, "name", "custom")
    label = f"{name or 'mean'}" + (f"[{','.join(f'{k}={v}' for k, v in sorted(params.items()))}]" if params else "")
    return {"metric": label, "data": hash_data(np.asarray(x), np.asarray(y))}


# --------------------------------------------------------------------------
# analytic power for a benchmark: clustered items, paired models
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchmarkPower(Result):
    """The smallest difference two models must differ by to be detected on a benchmark
    (:func:`minimum_detectable_difference`), or the items a target difference needs
    (:func:`items_needed`), under the normal model of the paired mean difference.

    ``standard_error`` is that of the difference of the two models' mean scores on
    ``n_items`` items: sqrt(sd_difference² · design_effect / n_items).
    """

    question: str
    difference: float
    n_items: int
    n_clusters: float
    cluster_size: float
    icc: float
    correlation: float
    sd_x: float
    sd_y: float
    sd_difference: float
    design_effect: float
    standard_error: float
    alpha: float
    power: float

    @property
    def signature(self) -> str:
        from .signature import build

        return build(
            self.question,
            variant="normal-paired",
            alt="two-sided",
            alpha=self.alpha,
            power=self.power,
            items=self.n_items,
            # items_needed answers for a given difference (its input); minimum_detectable_difference
            # computes it from the items
            difference=self.difference if self.question == "items_needed" else None,
            cluster_size=self.cluster_size,
            icc=self.icc,
            correlation=self.correlation,
            sd=(self.sd_x, self.sd_y),
        )

    def _text(self) -> str:
        what = (
            f"a difference of {self.difference:.4g} is detected"
            if self.question == "minimum_detectable_difference"
            else f"a difference of {self.difference:.4g} needs"
        )
        clusters = (
            f" in {self.n_clusters:g} clusters of {self.cluster_size:g} (ICC {self.icc:g}, design effect "
            f"{self.design_effect:.4g})"
            if self.cluster_size != 1
            else ""
        )
        return (
            f"{what} with power {self.power:g} at alpha {self.alpha:g} (two-sided) on {self.n_items} items{clusters}; "
            f"paired correlation {self.correlation:g}, SE of the difference {self.standard_error:.4g}\n"
            f"  {self.signature}\n"
        )


def _benchmark_model(
    sd: float | None,
    sd_y: float | None,
    accuracy: float,
    correlation: float,
    cluster_size: float,
    icc: float,
    alpha: float,
    power: float,
) -> tuple[float, float, float, float, float]:
    """(sd_x, sd_y, sd of the per-item difference, design effect, z_{1-α/2} + z_{power}); parameters
    outside their range (power at or below alpha included) are InputErrors."""
    from .classical import _ndtri, _nisf

    def finite(name: str, v: Any, lo: float, hi: float, lo_open: bool = False, hi_open: bool = False) -> float:
        try:
            f = float(v)
        except (TypeError, ValueError):
            raise InputError(f"{name} must be a number, got {v!r}") from None
        bad = not math.isfinite(f) or f < lo or f > hi or (lo_open and f == lo) or (hi_open and f == hi)
        if bad:
            left, right = "(" if lo_open else "[", ")" if hi_open else "]"
            raise InputError(f"{name} must be in {left}{lo:g}, {hi:g}{right}, got {v!r}")
        return f

    a = finite("alpha", alpha, 0.0, 1.0, True, True)
    pw = finite("power", power, 0.0, 1.0, True, True)
    _above_alpha(pw, a, power)
    if sd is None:
        acc = finite("accuracy", accuracy, 0.0, 1.0, True, True)
        sx = math.sqrt(acc * (1.0 - acc))
    else:
        sx = finite("sd", sd, 0.0, math.inf, True)
    sy = sx if sd_y is None else finite("sd_y", sd_y, 0.0, math.inf, True)
    rho = finite("correlation", correlation, -1.0, 1.0)
    m = finite("cluster_size", cluster_size, 1.0, math.inf)
    r = finite("icc", icc, 0.0, 1.0)
    # the variance of the difference, scaled by the larger sd so that neither an sd near 1e300 nor one
    # near 1e-300 overflows or underflows
    big = max(sx, sy)
    ux, uy = sx / big, sy / big
    var_d = ux * ux + uy * uy - 2.0 * rho * ux * uy
    if var_d <= 0:
        raise InputError(
            "the two models' scores are perfectly correlated with equal spread: their difference has no variance"
        )
    sdd = big * math.sqrt(var_d)
    if not math.isfinite(sdd):
        raise InputError(f"sd {sx:g} and sd_y {sy:g} give a difference whose spread overflows: rescale the scores")
    deff = 1.0 + (m - 1.0) * r
    # the upper-tail quantile z_{1-α/2} from α/2 itself: 1 - α/2 rounds to 1 for α below about 1e-16
    return sx, sy, sdd, deff, _nisf(a / 2.0) + _ndtri(pw)


@checked_keywords
def minimum_detectable_difference(
    n_items: int,
    *,
    sd: float | None = None,
    sd_y: float | None = None,
    accuracy: float = 0.5,
    correlation: float = 0.0,
    cluster_size: float = 1,
    icc: float = 0.0,
    alpha: float = 0.05,
    power: float = 0.8,
) -> BenchmarkPower:
    """The smallest difference of two models' mean scores that a two-sided paired test at ``alpha``
    detects with probability ``power`` on ``n_items`` items (Miller 2024, §5).

    The per-item score has standard deviation ``sd`` (model x) and ``sd_y`` (model y, default
    ``sd``); without ``sd``, scores are right/wrong with accuracy ``accuracy`` (sd = √(a(1−a));
    the default 0.5 is the most variable). ``correlation``: between the two models' scores on an
    item (models tend to find the same items hard: the higher, the smaller the detectable
    difference). Items come in clusters of ``cluster_size`` whose per-item differences have
    intra-cluster correlation ``icc``; the design effect is 1 + (cluster_size − 1)·icc. Then

        SE = √((sd_x² + sd_y² − 2·correlation·sd_x·sd_y) · design_effect / n_items),
        MDD = (z_{1−α/2} + z_{power}) · SE.
    """
    from .executor import check_int

    n = check_int("n_items", n_items, 1)
    sx, sy, sdd, deff, z = _benchmark_model(sd, sd_y, accuracy, correlation, cluster_size, icc, alpha, power)
    se = sdd * math.sqrt(deff / n)
    if not math.isfinite(z * se):
        raise InputError(f"the detectable difference overflows (sd {sx:g}, design effect {deff:g}): rescale the scores")
    return BenchmarkPower(
        "minimum_detectable_difference",
        z * se,
        n,
        n / float(cluster_size),
        float(cluster_size),
        float(icc),
        float(correlation),
        sx,
        sy,
        sdd,
        deff,
        se,
        float(alpha),
        float(power),
    )


@checked_keywords
def items_needed(
    difference: float,
    *,
    sd: float | None = None,
    sd_y: float | None = None,
    accuracy: float = 0.5,
    correlation: float = 0.0,
    cluster_size: float = 1,
    icc: float = 0.0,
    alpha: float = 0.05,
    power: float = 0.8,
) -> BenchmarkPower:
    """The items (a whole number of clusters of ``cluster_size``) on which a two-sided paired test at
    ``alpha`` detects a difference of ``difference`` with probability ``power``: the smallest n with
    :func:`minimum_detectable_difference` (same model and parameters) at most ``difference``,
    n = ⌈(z_{1−α/2} + z_{power})² · sd_difference² · design_effect / difference²⌉, rounded up to
    whole clusters."""
    try:
        delta = abs(float(difference))
    except (TypeError, ValueError):
        raise InputError(f"difference must be a number, got {difference!r}") from None
    if not (math.isfinite(delta) and delta > 0):
        raise InputError(f"difference must be a finite non-zero number, got {difference!r}")
    sx, sy, sdd, deff, z = _benchmark_model(sd, sd_y, accuracy, correlation, cluster_size, icc, alpha, power)
    root = z * sdd / delta * math.sqrt(deff)  # need = root², checked before squaring (1e-160 overflows it)
    m = float(cluster_size)
    if not math.isfinite(root) or root > math.sqrt(_MAX_ITEMS):
        raise InputError(f"a difference of {delta:g} needs more than 2^40 items under this model")
    need = root * root
    n = max(1, math.ceil(need * (1.0 - 1e-12)))  # a rounding error must not add an item
    if m.is_integer():
        n = max(math.ceil(n / m), 1) * int(m)
    se = sdd * math.sqrt(deff / n)
    return BenchmarkPower(
        "items_needed",
        delta,
        n,
        n / m,
        m,
        float(icc),
        float(correlation),
        sx,
        sy,
        sdd,
        deff,
        se,
        float(alpha),
        float(power),
    )
