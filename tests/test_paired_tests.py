"""Paired tests against independent references: brute force, numpy, calibration."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import sigfast
from conftest import f1_counts


def f1(s: np.ndarray) -> float:
    tp, g, gold = s
    p = tp / g if g else 0.0
    r = tp / gold if gold else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


@pytest.mark.parametrize("n", [1, 2, 5, 9])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_permutation_equals_brute_force(n: int, alternative: str) -> None:
    rng = np.random.default_rng(n)
    x, y = f1_counts(rng, n, 0.6), f1_counts(rng, n, 0.8)
    r = sigfast.permutation_test(x, y, metric="f1", method="exact", alternative=alternative)
    obs = f1(y.sum(0)) - f1(x.sum(0))
    count = 0
    for swaps in itertools.product([0, 1], repeat=n):
        sw = np.array(swaps, dtype=bool)[:, None]
        xs, ys = np.where(sw, y, x).sum(0), np.where(sw, x, y).sum(0)
        d = f1(ys) - f1(xs)
        tol = 1e-12
        if alternative == "two-sided":
            count += abs(d) >= abs(obs) - tol
        elif alternative == "greater":
            count += d >= obs - tol
        else:
            count += d <= obs + tol
    assert r.count == count
    assert r.pvalue == count / 2**n
    assert r.test == "exact_permutation" and r.n_resamples == 2**n


def test_exact_mean_scores_brute_force() -> None:
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=12), rng.normal(0.5, 1, size=12)
    r = sigfast.permutation_test(x, y, method="exact")
    obs = y.mean() - x.mean()
    ds = [np.where(m, x - y, y - x).mean() for m in itertools.product([0, 1], repeat=12)]
    assert r.count == sum(abs(d) >= abs(obs) - 1e-12 for d in ds)


@pytest.mark.parametrize("call", ["bootstrap", "bootstrap_float", "permutation", "distinct"])
def test_same_bytes_for_any_thread_count(call: str) -> None:
    rng = np.random.default_rng(11)
    x, y = f1_counts(rng, 500, 0.7), f1_counts(rng, 500, 0.72)
    outs = []
    for threads in (1, 2, 3):
        if call == "bootstrap":
            r = sigfast.paired_bootstrap(
                x, y, metric="f1", n_resamples=3001, n_threads=threads, return_distribution=True
            )
        elif call == "bootstrap_float":
            r = sigfast.paired_bootstrap(
                x[:, 0] * 0.1, y[:, 0] * 0.1, n_resamples=3001, n_threads=threads, return_distribution=True
            )
        elif call == "permutation":
            r = sigfast.permutation_test(
                x, y, metric="f1", n_resamples=3001, n_threads=threads, return_distribution=True
            )
        else:
            xa = (rng.random(20000) < 0.9).astype(float) if threads == 1 else xa  # noqa: F821
            ya = (rng.random(20000) < 0.91).astype(float) if threads == 1 else ya  # noqa: F821
            r = sigfast.paired_bootstrap(xa, ya, n_resamples=3001, n_threads=threads, return_distribution=True)
            assert r.resampling.startswith("distinct-rows")
        outs.append((r.to_json(), r.distribution.tobytes()))
    assert outs[0] == outs[1] == outs[2]


def test_custom_metric_matches_builtin() -> None:
    rng = np.random.default_rng(2)
    x, y = f1_counts(rng, 300, 0.7), f1_counts(rng, 300, 0.75)

    def my_f1(s: np.ndarray) -> np.ndarray:
        p, r = s[:, 0] / s[:, 1], s[:, 0] / s[:, 2]
        return 2 * p * r / (p + r)

    a = sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=2000, seed=4)
    # my_f1 takes the old one-array form
    with pytest.warns(DeprecationWarning, match=r"takes one \(resamples, k\) array of sums"):
        b = sigfast.paired_bootstrap(x, y, metric=my_f1, n_resamples=2000, seed=4)
    assert a.count == b.count and a.pvalue == b.pvalue
    assert a.confidence_interval == pytest.approx(b.confidence_interval, rel=1e-12)
    c = sigfast.permutation_test(x, y, metric="f1", n_resamples=2000, seed=4)
    with pytest.warns(DeprecationWarning, match=r"takes one \(resamples, k\) array of sums"):
        d = sigfast.permutation_test(x, y, metric=my_f1, n_resamples=2000, seed=4)
    assert c.count == d.count


def _bk_numpy(x: np.ndarray, y: np.ndarray, B: int, seed: int) -> float:
    """An independent Berg-Kirkpatrick paired bootstrap in numpy (its own RNG)."""
    g = np.random.default_rng(seed)
    n = len(x)
    obs = y.mean() - x.mean()
    c = 0
    for _ in range(B // 1000):
        idx = g.integers(0, n, (1000, n))
        d = y[idx].mean(1) - x[idx].mean(1)
        c += int((d > 2 * obs).sum())
    return c / B


def test_bk_agrees_with_independent_numpy() -> None:
    rng = np.random.default_rng(7)
    n = 300
    base = rng.normal(size=n)
    x = base + rng.normal(0, 1, n)
    y = base + rng.normal(0.07, 1, n)
    B = 40_000
    r = sigfast.paired_bootstrap(x, y, n_resamples=B, seed=1, pvalue="raw")
    ref = _bk_numpy(x, y, B, seed=99)
    se = np.sqrt(2 * ref * (1 - ref) / B)
    assert 0.002 < ref < 0.5
    assert abs(r.pvalue - ref) < 4.5 * se + 1e-4, (r.pvalue, ref)
    assert r.variant == "berg-kirkpatrick" and r.alternative == "observed-direction"


def test_shifted_and_koehn_agree_with_numpy() -> None:
    rng = np.random.default_rng(8)
    n = 250
    base = rng.normal(size=n)
    x, y = base + rng.normal(0, 1, n), base + rng.normal(0.1, 1, n)
    B = 40_000
    g = np.random.default_rng(5)
    idx = g.integers(0, n, (B, n))
    d = y[idx].mean(1) - x[idx].mean(1)
    obs = y.mean() - x.mean()
    shifted_ref = np.mean(np.abs(d - d.mean()) >= abs(obs))
    koehn_ref = np.mean(d <= 0) if obs > 0 else np.mean(d >= 0)
    s = sigfast.paired_bootstrap(x, y, variant="shifted", n_resamples=B, pvalue="raw")
    k = sigfast.paired_bootstrap(x, y, variant="koehn", n_resamples=B, pvalue="raw")
    for got, ref in ((s.pvalue, shifted_ref), (k.pvalue, koehn_ref)):
        se = np.sqrt(2 * ref * (1 - ref) / B) + 1e-4
        assert abs(got - ref) < 4.5 * se, (got, ref)
    # the percentile interval of delta agrees too
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert s.confidence_interval.low == pytest.approx(lo, abs=0.01)
    assert s.confidence_interval.high == pytest.approx(hi, abs=0.01)


def test_distinct_rows_same_distribution_as_items() -> None:
    rng = np.random.default_rng(9)
    n = 6400
    x = (rng.random(n) < 0.90).astype(float)
    y = np.where(rng.random(n) < 0.5, x, (rng.random(n) < 0.91).astype(float))
    a = sigfast.paired_bootstrap(x, y, n_resamples=20_000, resampling="items", return_distribution=True)
    b = sigfast.paired_bootstrap(x, y, n_resamples=20_000, resampling="distinct", return_distribution=True)
    assert a.resampling == "items" and b.resampling == "distinct-rows(4)"
    da = a.distribution[:, 1] - a.distribution[:, 0]
    db = b.distribution[:, 1] - b.distribution[:, 0]
    assert db.mean() == pytest.approx(da.mean(), abs=4 * da.std() / np.sqrt(20_000) * 1.5)
    assert db.std() == pytest.approx(da.std(), rel=0.04)
    assert abs(a.pvalue - b.pvalue) < 4 * np.sqrt(2 * a.pvalue * (1 - a.pvalue) / 20_000) + 1e-3


def test_binomial_sampler_matches_pmf() -> None:
    stats = pytest.importorskip("scipy.stats")
    from sigfast import _native

    for n, p in [(30, 0.2), (1000, 0.3), (130_000, 0.02), (50, 0.97)]:
        draws = np.asarray(_native.binomial_draws(123, n, p, 100_000))
        lo, hi = stats.binom.ppf([1e-4, 1 - 1e-4], n, p).astype(int)
        ks = np.arange(lo, hi + 1)
        obs = np.array([(draws == k).sum() for k in ks])
        exp = stats.binom.pmf(ks, n, p) * len(draws)
        keep = exp > 5
        chi2 = (((obs - exp) ** 2) / exp)[keep].sum()
        dof = keep.sum() - 1
        assert stats.chi2.sf(chi2, dof) > 1e-4, (n, p, chi2, dof)


@pytest.mark.slow
def test_null_calibration() -> None:
    """Under H0 (600 simulated pairs, n = 200) rejection rates are 2.5%-7.5% (about 2.8 standard errors
    of a rate of 5% either side; the 1,000-pair calibration with its standard errors is
    ``benches/bench_null_paired.py``, recorded in ``benches/RESULTS-typeI.md``)."""
    rng = np.random.default_rng(2024)
    sims, n, B = 600, 200, 1000
    rejects = {"shifted": 0, "ar": 0, "bk": 0, "koehn": 0}
    for i in range(sims):
        base = rng.normal(size=n)
        x, y = base + rng.normal(size=n), base + rng.normal(size=n)
        r = sigfast.paired_bootstrap(
            x, y, n_resamples=B, seed=i, variant="shifted", n_threads=1, return_distribution=True
        )
        rejects["shifted"] += r.pvalue <= 0.05
        rb = sigfast.paired_bootstrap(x, y, n_resamples=B, seed=i, variant="bk", n_threads=1)
        rejects["bk"] += rb.pvalue <= 0.025
        rk = sigfast.paired_bootstrap(x, y, n_resamples=B, seed=i, variant="koehn", n_threads=1)
        rejects["koehn"] += rk.pvalue <= 0.025
        ra = sigfast.permutation_test(x, y, n_resamples=B, seed=i, n_threads=1)
        rejects["ar"] += ra.pvalue <= 0.05
    rates = {k: v / sims for k, v in rejects.items()}
    for _k, rate in rates.items():
        assert 0.025 <= rate <= 0.075, rates


def test_real_gain_is_detected() -> None:
    rng = np.random.default_rng(4)
    x, y = f1_counts(rng, 1000, 0.6), None
    gold = x[:, 2]
    y = f1_counts(rng, 1000, 0.75, gold=gold.astype(int))
    for v in ("bk", "koehn", "shifted"):
        r = sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=10_000, variant=v)
        assert r.pvalue == pytest.approx(1 / 10_001)  # never 0
        assert r.winner == "y"
    assert sigfast.permutation_test(x, y, metric="f1", n_resamples=10_000).pvalue == 1 / 10_001


def test_result_describes_itself() -> None:
    r = sigfast.paired_bootstrap([0.1, 0.5, 0.3], [0.2, 0.6, 0.3], n_resamples=99, seed=5)
    d = json.loads(r.to_json())
    for key in (
        "test",
        "variant",
        "alternative",
        "n_resamples",
        "seed",
        "pvalue",
        "statistic",
        "confidence_interval",
        "signature",
        "pvalue_method",
        "score_x",
        "score_y",
    ):
        assert key in d
    assert d["seed"] == 5 and d["n_resamples"] == 99
    assert "seed:5" in r.signature and "B:99" in r.signature
    assert r.statistic == pytest.approx(0.2 / 3)
    raw = sigfast.paired_bootstrap([0.1, 0.5, 0.3], [0.2, 0.6, 0.3], n_resamples=99, seed=5, pvalue="raw")
    assert raw.pvalue == raw.count / 99 and r.pvalue == (r.count + 1) / 100
