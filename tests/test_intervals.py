"""Proportion intervals against statsmodels / scipy; bootstrap intervals on the engine.

References are computed in-test with statsmodels.stats.proportion.proportion_confint
and scipy.stats.binomtest(...).proportion_ci (statsmodels 0.15.0, scipy 1.17.1
when written). BCa intervals are checked exactly against a direct numpy/scipy
computation of the BCa formula on the same bootstrap distribution, and
against scipy.stats.bootstrap(method="BCa") within Monte-Carlo error.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import sigfast
from sigfast.exceptions import InputError
from sigfast.inference.intervals import (
    agresti_coull_interval,
    bootstrap_interval,
    clopper_pearson_interval,
    proportion_interval,
    wilson_interval,
)

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")
proportion = pytest.importorskip("statsmodels.stats.proportion")

TOL = 1e-10


def test_proportion_intervals_match_statsmodels_and_scipy() -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 40)) if rng.random() < 0.4 else int(rng.integers(40, 300_000))
        k = int(rng.integers(0, n + 1)) if rng.random() < 0.7 else int(rng.choice([0, n, n - 1, 1])) % (n + 1)
        cl = float(rng.choice([0.9, 0.95, 0.99, float(rng.uniform(0.5, 0.999))]))
        for method, f in (
            ("wilson", wilson_interval),
            ("beta", clopper_pearson_interval),
            ("agresti_coull", agresti_coull_interval),
        ):
            lo, hi = f(k, n, cl)
            rlo, rhi = proportion.proportion_confint(k, n, alpha=1 - cl, method=method)
            assert abs(lo - rlo) <= TOL and abs(hi - rhi) <= TOL, (method, k, n, cl)
        res = stats.binomtest(k, n)
        for alt in ("two-sided", "greater", "less"):
            res = stats.binomtest(k, n, alternative=alt)
            for method, kw, f in (
                ("wilson", {}, wilson_interval),
                ("wilsoncc", {"correction": True}, wilson_interval),
                ("exact", {}, clopper_pearson_interval),
            ):
                lo, hi = f(k, n, cl, alternative=alt, **kw)
                ref = res.proportion_ci(cl, method)
                assert abs(lo - ref.low) <= TOL and abs(hi - ref.high) <= TOL, (method, alt, k, n, cl)


def test_proportion_interval_dispatch_and_errors() -> None:
    assert proportion_interval(90, 100) == wilson_interval(90, 100)
    assert proportion_interval(90, 100, method="clopper_pearson") == clopper_pearson_interval(90, 100)
    assert proportion_interval(90, 100, method="wilsoncc") == wilson_interval(90, 100, correction=True)
    assert proportion_interval(90, 100, method="agresti-coull") == agresti_coull_interval(90, 100)
    with pytest.raises(InputError, match="unknown"):
        proportion_interval(1, 2, method="wald")
    with pytest.raises(InputError, match="n >= 1"):
        wilson_interval(0, 0)
    with pytest.raises(InputError, match="exceed"):
        wilson_interval(3, 2)
    with pytest.raises(InputError, match="whole number"):
        wilson_interval(1.5, 2)
    with pytest.raises(InputError, match="confidence_level"):
        wilson_interval(1, 2, 1.0)
    # n = 1 and the boundaries are defined
    assert wilson_interval(1, 1).high == 1.0 and wilson_interval(0, 1).low == 0.0
    assert clopper_pearson_interval(0, 1) == (0.0, pytest.approx(0.975))


def test_gorman_bedrick_style_wilson_intervals() -> None:
    # Gorman & Bedrick (2019) report token accuracy on the WSJ standard test split
    # (sections 22-24, 129,654 tokens) with 95% Wilson intervals computed by their
    # confint.py: a1 = 1/(1 + z^2/n), a2 = acc + z^2/(2n),
    # a3 = z*sqrt(acc(1-acc)/n + z^2/(4n^2)), bounds a1*(a2 -/+ a3).
    # Their Table 2's printed values were not available to us; this recomputes that
    # formula from counts (accuracy = correct / n) for accuracies in their range.
    n = 129_654
    z = stats.norm.ppf(0.975)
    for correct in (125_000, 125_900, 126_100, 126_300, 126_500, 126_620, 126_700):
        acc = correct / n
        a1 = 1 / (1 + z * z / n)
        a2 = acc + z * z / (2 * n)
        a3 = z * np.sqrt(acc * (1 - acc) / n + z * z / (4 * n * n))
        lo, hi = wilson_interval(correct, n)
        assert abs(lo - a1 * (a2 - a3)) <= 1e-12 and abs(hi - a1 * (a2 + a3)) <= 1e-12
        # and the interval half-width at 97% accuracy is about 0.09 points
        assert 0.0007 < (hi - lo) / 2 < 0.0011


# ----------------------------------------------------------------- bootstrap


def _bca_direct(theta_b: np.ndarray, theta_hat: float, jack: np.ndarray, cl: float) -> tuple[float, float]:
    """The BCa formula written out as scipy.stats.bootstrap states it."""
    B = theta_b.size
    z0 = special.ndtri((np.sum(theta_b < theta_hat) + np.sum(theta_b <= theta_hat)) / (2 * B))
    dev = jack.mean() - jack
    a = np.sum(dev**3) / (6 * np.sum(dev**2) ** 1.5)
    za = special.ndtri((1 - cl) / 2)
    a1 = special.ndtr(z0 + (z0 + za) / (1 - a * (z0 + za)))
    a2 = special.ndtr(z0 + (z0 - za) / (1 - a * (z0 - za)))
    return tuple(np.quantile(theta_b, [a1, a2]))  # type: ignore[return-value]


def test_bca_equals_direct_formula_on_same_distribution() -> None:
    rng = np.random.default_rng(1)
    for trial in range(20):
        n = int(rng.integers(5, 400))
        x = rng.gamma(2.0, 0.2, n)  # skewed scores
        cl = float(rng.choice([0.9, 0.95, 0.99]))
        r = bootstrap_interval(x, n_resamples=3000, seed=trial, confidence_level=cl, return_distribution=True)
        jack = (x.sum() - x) / (n - 1)
        lo, hi = _bca_direct(r.distribution, x.mean(), jack, cl)
        assert abs(r.confidence_interval.low - lo) <= 1e-12 and abs(r.confidence_interval.high - hi) <= 1e-12
        assert r.estimate == pytest.approx(x.mean())
        # F1 on counts (tp, guessed, gold): jackknife on the summed statistics
        tp = rng.integers(0, 6, n).astype(float)
        c = np.stack([tp, tp + rng.integers(0, 3, n), tp + rng.integers(0, 3, n)], axis=1)
        r = bootstrap_interval(c, metric="f1", n_resamples=2000, seed=trial, return_distribution=True)
        tot = c.sum(0)
        loo = tot - c
        jack = 2 * loo[:, 0] / (loo[:, 1] + loo[:, 2])
        # resampled F1 values can tie the estimate exactly: use the engine's own value of the
        # estimate (equal to the formula up to rounding) so that ties are counted alike
        assert r.estimate == pytest.approx(2 * tot[0] / (tot[1] + tot[2]), rel=1e-14)
        lo, hi = _bca_direct(r.distribution, r.estimate, jack, 0.95)
        assert abs(r.confidence_interval.low - lo) <= 1e-12 and abs(r.confidence_interval.high - hi) <= 1e-12


def test_paired_intervals_match_paired_bootstrap_and_direct_bca() -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(0.6, 0.2, 300)
    y = x + rng.normal(0.02, 0.1, 300)
    r = bootstrap_interval(x, y, method="percentile", n_resamples=4000, seed=9)
    pb = sigfast.paired_bootstrap(x, y, n_resamples=4000, seed=9, progress=False)
    assert tuple(r.confidence_interval) == tuple(pb.confidence_interval)
    assert r.statistic == "difference" and r.estimate == pytest.approx(pb.statistic)
    r = bootstrap_interval(x, y, n_resamples=4000, seed=9, return_distribution=True)
    jack = (y.sum() - y) / 299 - (x.sum() - x) / 299
    lo, hi = _bca_direct(r.distribution, y.mean() - x.mean(), jack, 0.95)
    assert abs(r.confidence_interval.low - lo) <= 1e-12 and abs(r.confidence_interval.high - hi) <= 1e-12
    d = json.loads(r.to_json())
    assert d["method"] == "bca" and "distribution" not in d


def test_bca_agrees_with_scipy_within_monte_carlo_error() -> None:
    rng = np.random.default_rng(3)
    B = 20_000
    for trial in range(3):
        n = 200
        x = rng.lognormal(0, 0.6, n)
        ours = bootstrap_interval(x, n_resamples=B, seed=trial).confidence_interval
        ref = stats.bootstrap((x,), np.mean, method="BCa", n_resamples=B, random_state=trial).confidence_interval
        half = (ref.high - ref.low) / 2
        # Monte-Carlo sd of each end with B = 2*10^4 is a few % of the half-width (more in the skewed tail)
        assert abs(ours.low - ref.low) < 0.1 * half and abs(ours.high - ref.high) < 0.1 * half
        # a ratio metric (F1 on per-item counts), scipy resampling the paired columns
        tp = rng.integers(0, 5, n).astype(float)
        g, go = tp + rng.integers(0, 3, n), tp + rng.integers(0, 3, n)

        def f1(tp, g, go, axis=-1):  # type: ignore[no-untyped-def]
            return 2 * tp.sum(axis) / (g.sum(axis) + go.sum(axis))

        ref = stats.bootstrap(
            (tp, g, go), f1, paired=True, method="BCa", n_resamples=B, random_state=trial
        ).confidence_interval
        ours = bootstrap_interval(np.stack([tp, g, go], 1), metric="f1", n_resamples=B, seed=trial).confidence_interval
        half = (ref.high - ref.low) / 2
        assert abs(ours.low - ref.low) < 0.1 * half and abs(ours.high - ref.high) < 0.1 * half


def test_bootstrap_interval_inputs_and_edge_cases() -> None:
    # constant scores: a defined, degenerate interval (scipy gives NaN with a warning)
    r = bootstrap_interval(np.full(50, 0.7), n_resamples=500)
    assert tuple(r.confidence_interval) == (pytest.approx(0.7), pytest.approx(0.7))
    # a Statistics object: pick one system
    st = sigfast.Statistics.from_scores({"a": [0.1, 0.5, 0.9, 0.4], "b": [0.2, 0.6, 0.8, 0.5]})
    r = bootstrap_interval(st, system="b", n_resamples=500)
    assert r.systems == ("b",) and r.estimate == pytest.approx(0.525)
    r2 = bootstrap_interval(st, systems=("a", "b"), n_resamples=500)
    assert r2.statistic == "difference" and r2.estimate == pytest.approx(0.05)
    with pytest.raises(InputError, match="name one"):
        bootstrap_interval(st)
    # a custom metric (Python callable on summed statistics) goes through the engine's sums
    with pytest.warns(DeprecationWarning, match=r"takes one \(resamples, k\) array of sums"):  # the old one-array form
        metric = sigfast.metrics.custom(lambda s: s[:, 0] / s[:, 1], stat_names=2)
    r3 = bootstrap_interval(
        np.array([[1.0, 2.0], [2.0, 2.0], [0.0, 2.0]]), metric=metric, n_resamples=300, method="percentile"
    )
    assert r3.estimate == pytest.approx(0.5)
    # n = 1: the percentile interval is the point, BCa needs the jackknife
    assert tuple(bootstrap_interval([0.3], method="percentile", n_resamples=100).confidence_interval) == (0.3, 0.3)
    with pytest.raises(InputError, match="at least 2 items"):
        bootstrap_interval([0.3])
    with pytest.raises(InputError, match="method"):
        bootstrap_interval([0.3, 0.4], method="basic")
    with pytest.raises(InputError, match="metric="):
        bootstrap_interval(np.ones((3, 2)))
    assert "bca interval" in str(bootstrap_interval([0.1, 0.2, 0.3], n_resamples=100))
