"""Two-way cluster-robust standard errors (items × prompt templates; Cameron, Gelbach and Miller 2011)
against statsmodels' OLS with two columns of cluster groups, and Šidák simultaneous intervals of the
leaderboard against a direct scipy computation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
import statsmodels.api as sm

import sigfast
from sigfast.exceptions import SigfastError


def _statsmodels_se(y: np.ndarray, g1: np.ndarray, g2: np.ndarray) -> float:
    r = sm.OLS(y, np.ones(len(y))).fit(cov_type="cluster", cov_kwds={"groups": np.column_stack([g1, g2])})
    return float(r.bse[0])


def _crossed(seed: int, n_items: int, n_prompts: int, repeats: int = 1, drop: float = 0.0):
    rng = np.random.default_rng(seed)
    g1 = np.repeat(np.arange(n_items), n_prompts * repeats)
    g2 = np.tile(np.repeat(np.arange(n_prompts), repeats), n_items)
    keep = rng.random(len(g1)) >= drop
    g1, g2 = g1[keep], g2[keep]
    item, prompt = rng.normal(size=n_items), rng.normal(size=n_prompts)
    x = (item[g1] + 0.5 * prompt[g2] + rng.normal(size=len(g1)) > 0).astype(float)
    y = (item[g1] + 0.8 * prompt[g2] + 0.2 + rng.normal(size=len(g1)) > 0).astype(float)
    return x, y, g1, g2


@pytest.mark.parametrize(
    ("seed", "n_items", "n_prompts", "repeats", "drop"),
    [(0, 40, 6, 1, 0.0), (1, 25, 4, 3, 0.0), (2, 60, 10, 1, 0.3), (3, 15, 12, 2, 0.5)],
)
def test_two_way_se_equals_statsmodels(seed, n_items, n_prompts, repeats, drop):
    x, y, g1, g2 = _crossed(seed, n_items, n_prompts, repeats, drop)
    items = [f"q{i}" for i in g1]
    prompts = np.array([f"template-{j}" for j in g2], dtype=object)
    one = sigfast.standard_error(x, clusters=items, clusters2=prompts)
    assert one.two_way and one.n_clusters == len(set(g1)) and one.n_clusters2 == len(set(g2))
    assert abs(one.standard_error - _statsmodels_se(x, g1, g2)) < 1e-10
    z = scipy.stats.norm.isf(0.025)
    lo, hi = one.confidence_interval
    assert abs(lo - (x.mean() - z * one.standard_error)) < 1e-12
    assert abs(hi - (x.mean() + z * one.standard_error)) < 1e-12
    diff = sigfast.standard_error(x, y, clusters=items, clusters2=prompts)
    ref = _statsmodels_se(y - x, g1, g2)
    assert abs(diff.standard_error - ref) < 1e-10
    assert abs(diff.zstat - (y.mean() - x.mean()) / ref) < 1e-8
    assert abs(diff.pvalue - 2 * scipy.stats.norm.sf(abs(diff.zstat))) < 1e-12


def test_two_way_result_and_signature_say_two_way():
    x, _, g1, g2 = _crossed(4, 30, 10)
    r = sigfast.standard_error(x, clusters=g1, clusters2=g2)
    d = r.to_dict()
    assert d["two_way"] is True and d["n_clusters2"] == 10
    assert "variant:cr1-twoway" in r.signature and "cluster2:clusters(10,given2)" in r.signature
    assert "two-way cluster-robust" in str(r)
    one = sigfast.standard_error(x, clusters=g1)
    assert "two_way" not in one.to_dict() and "variant:cr1|" in one.signature
    assert one.signature.split("|data:")[1][:12] != r.signature.split("|data:")[1][:12]
    # the second clustering's assignment is part of the data hash
    other = sigfast.standard_error(x, clusters=g1, clusters2=(g2 + g1) % 10)
    assert other.signature != r.signature


def test_two_way_negative_variance_is_nan_with_warning():
    rng = np.random.default_rng(9)  # statsmodels' two-way variance of this mean is negative (-0.0169)
    g1, g2 = np.repeat(np.arange(4), 3), np.tile(np.arange(3), 4)
    y = rng.normal(size=12)
    r = sm.OLS(y, np.ones(12)).fit(cov_type="cluster", cov_kwds={"groups": np.column_stack([g1, g2])})
    assert r.cov_params()[0, 0] < 0
    with pytest.warns(RuntimeWarning, match="two-way cluster-robust variance is negative"):
        res = sigfast.standard_error(y, clusters=g1, clusters2=g2)
    assert math.isnan(res.standard_error) and all(math.isnan(v) for v in res.confidence_interval)
    assert any("negative" in w for w in res.warnings)
    with pytest.warns(RuntimeWarning, match="negative"):
        d = sigfast.standard_error(np.zeros(12), y, clusters=g1, clusters2=g2)
    assert math.isnan(d.zstat) and math.isnan(d.pvalue)


def test_two_way_bad_input():
    x, _, g1, g2 = _crossed(5, 10, 3)
    with pytest.raises(SigfastError, match="clusters2= is the second factor"):
        sigfast.standard_error(x, clusters2=g2)
    with pytest.raises(SigfastError, match="cluster keys"):
        sigfast.standard_error(x, clusters=g1, clusters2=g2[:-1])


# --------------------------------------------------------------------------------------------
# Šidák simultaneous intervals


def _board(seed: int = 7, s: int = 5, n: int = 200) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {f"m{j}": (rng.random(n) < 0.4 + 0.08 * j).astype(float) for j in range(s)}


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_sidak_normal_intervals_equal_scipy(level):
    data = _board()
    lb = sigfast.leaderboard(data, confidence_level=level, simultaneous="sidak", bootstrap=False, pairs="none")
    s = len(data)
    each = level ** (1 / s)  # Šidák: (1 - alpha_family)^(1/S)
    assert abs(lb.interval_level - each) < 1e-15 and lb.simultaneous == "sidak"
    z = scipy.stats.norm.ppf(1 - (1 - each) / 2)
    for j, v in enumerate(data.values()):
        se = v.std(ddof=1) / math.sqrt(len(v))
        assert abs(lb.standard_errors[j] - se) < 1e-12
        assert np.allclose(lb.normal_intervals[j], [v.mean() - z * se, v.mean() + z * se], rtol=0, atol=1e-10)
    # every interval wider than the per-interval one; family coverage of independent intervals = level
    plain = sigfast.leaderboard(data, confidence_level=level, bootstrap=False, pairs="none")
    assert np.all(np.diff(lb.normal_intervals, axis=1) > np.diff(plain.normal_intervals, axis=1))
    assert abs(each**s - level) < 1e-12
    d = lb.to_dict()
    assert d["simultaneous"] == "sidak" and abs(d["interval_level"] - each) < 1e-15
    assert "simultaneous:sidak" in lb.signature and "Šidák" in str(lb)


def test_sidak_bootstrap_intervals_at_the_per_interval_level_and_default_unchanged():
    data = _board(s=3, n=120)
    lb = sigfast.leaderboard(data, simultaneous="sidak", n_resamples=999, pairs="none")
    each = 0.95 ** (1 / 3)
    # the same intervals as a leaderboard asked for at the per-interval level (same draws)
    ref = sigfast.leaderboard(data, n_resamples=999, pairs="none", confidence_level=each)
    assert np.array_equal(lb.bootstrap_intervals, ref.bootstrap_intervals)
    assert np.array_equal(lb.normal_intervals, ref.normal_intervals)
    plain = sigfast.leaderboard(data, n_resamples=999, pairs="none")
    assert plain.simultaneous is None and "simultaneous" not in plain.to_dict()
    assert "simultaneous" not in plain.signature
    assert np.array_equal(
        plain.normal_intervals,
        sigfast.leaderboard(data, n_resamples=999, pairs="none", simultaneous="none").normal_intervals,
    )
    with pytest.raises(SigfastError):
        sigfast.leaderboard(data, simultaneous="bonferroni")


def test_two_way_with_one_prompt_is_undefined_not_a_number():
    x, _, g1, _ = _crossed(6, 20, 1)
    with pytest.warns(RuntimeWarning, match="undefined on 1 cluster"):
        r = sigfast.standard_error(x, clusters=g1, clusters2=np.zeros(len(x), dtype=int))
    assert math.isnan(r.standard_error)
