"""Item-level statistics (median, correlations, ...) are registry metrics: every test and
interval accepts them, and each agrees with a plain numpy/scipy loop over the same draws."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sigfast
from oracle import swap_bits
from sigfast import metrics
from sigfast.exceptions import InputError, MetricError
from sigfast.inference.itemlevel import item_indices
from sigfast.inference.pairwise import pairwise

N = 45
B = 400


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ref = rng.normal(size=N)
    a = ref + rng.normal(size=N)
    b = ref + 1.4 * rng.normal(size=N)
    return a, b, ref


ORACLES = {
    "median": lambda s, r: float(np.median(s)),
    "pearson": lambda s, r: float(np.corrcoef(s, r)[0, 1]),
    "spearman": lambda s, r: float(ss.spearmanr(s, r)[0]),
    "kendall_b": lambda s, r: float(ss.kendalltau(s, r)[0]),
}


def _arrays(name: str, a: np.ndarray, b: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if name == "median":
        return a, b
    return np.c_[a, ref], np.c_[b, ref]


def test_registry_marks_item_metrics() -> None:
    assert metrics.get("median").on_items
    assert metrics.get("kendall").native == "kendall_b"
    assert not metrics.get("f1").on_items
    assert {m["name"] for m in metrics.specs() if m.get("kind") == "items"} >= set(ORACLES)


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_bootstrap_matches_numpy_loop(name: str) -> None:
    a, b, ref = _data()
    x, y = _arrays(name, a, b, ref)
    r = sigfast.paired_bootstrap(x, y, metric=name, n_resamples=B, seed=7, return_distribution=True)
    f = ORACLES[name]
    assert r.statistic == pytest.approx(f(b, ref) - f(a, ref), abs=1e-12)
    idx = item_indices(N, n_resamples=B, seed=7)
    want = np.array([f(b[i], ref[i]) - f(a[i], ref[i]) for i in idx])
    np.testing.assert_allclose(r.distribution[:, 1] - r.distribution[:, 0], want, atol=1e-12)
    # Berg-Kirkpatrick: resamples where d* - d > d in the observed direction
    sgn = 1.0 if r.statistic >= 0 else -1.0
    count = int(np.sum(sgn * want > 2 * sgn * r.statistic))
    assert r.count == count
    assert r.pvalue == (count + 1) / (B + 1)


@pytest.mark.parametrize("name", ["median", "pearson", "spearman"])
def test_permutation_matches_numpy_swaps(name: str) -> None:
    a, b, ref = _data(1)
    x, y = _arrays(name, a, b, ref)
    r = sigfast.permutation_test(x, y, metric=name, n_resamples=B, seed=3, return_distribution=True)
    f = ORACLES[name]
    want = []
    for k in range(B):
        s = swap_bits(3, k, N).astype(bool)
        xa, yb = np.where(s, b, a), np.where(s, a, b)
        want.append(f(yb, ref) - f(xa, ref))
    want = np.array(want)
    np.testing.assert_allclose(r.distribution[:, 1] - r.distribution[:, 0], want, atol=1e-12)
    count = int(np.sum(np.abs(want) >= abs(r.statistic) - 1e-12))
    assert r.count == count
    assert r.pvalue == (count + 1) / (B + 1)


def test_registry_path_equals_item_bootstrap() -> None:
    a, b, ref = _data(2)
    for name in ("median", "pearson", "kendall_b"):
        x, y = _arrays(name, a, b, ref)
        r = sigfast.paired_bootstrap(x, y, metric=name, n_resamples=B, seed=5)
        kw = {} if name == "median" else {"reference": ref}
        with pytest.warns(DeprecationWarning, match="item_bootstrap is deprecated"):
            ib = sigfast.item_bootstrap(a, b, statistic=name, n_resamples=B, seed=5, **kw)
        assert r.pvalue == ib.pvalue
        assert r.statistic == pytest.approx(ib.statistic, abs=1e-15)
        assert tuple(r.confidence_interval) == pytest.approx(tuple(ib.confidence_interval), abs=1e-15)


def test_interval_percentile_equals_bootstrap_ci() -> None:
    a, b, ref = _data(3)
    x, y = _arrays("spearman", a, b, ref)
    ci = sigfast.bootstrap_interval(x, y, metric="spearman", method="percentile", n_resamples=B, seed=2)
    r = sigfast.paired_bootstrap(x, y, metric="spearman", n_resamples=B, seed=2)
    assert tuple(ci.confidence_interval) == pytest.approx(tuple(r.confidence_interval), abs=1e-15)
    # BCa on one system: jackknife over items, values against scipy
    one = sigfast.bootstrap_interval(a, metric="median", n_resamples=B, seed=2)
    assert one.estimate == pytest.approx(float(np.median(a)))
    lo, hi = one.confidence_interval
    assert lo <= np.median(a) <= hi


def test_pairwise_shared_equals_two_system_tests() -> None:
    a, b, ref = _data(4)
    c = ref + 0.8 * np.random.default_rng(9).normal(size=N)
    st = sigfast.Statistics.from_scores({"a": a, "b": b, "c": c}, reference=ref, metric="pearson")
    assert st.stat_names == ("score", "reference")
    pw = pairwise(st, n_resamples=B, seed=11)
    for i in range(3):
        for j in range(3):
            if i != j:
                r = sigfast.paired_bootstrap(st, systems=(i, j), n_resamples=B, seed=11)
                assert (r.count, r.pvalue) == (pw.counts[i, j], pw.pvalues[i, j])


def test_item_metrics_refuse_what_they_cannot_do() -> None:
    a, b, _ = _data(5)
    with pytest.raises(InputError, match="distinct"):
        sigfast.paired_bootstrap(a, b, metric="median", resampling="distinct", n_resamples=10)
    with pytest.raises(MetricError):
        metrics.get("median").evaluate(np.ones((1, 1)), 1)
    with pytest.raises(MetricError):
        metrics.get("quantile", q=1.5)
    with pytest.raises((InputError, MetricError)):
        sigfast.paired_bootstrap(np.r_[a[:-1], np.nan], b, metric="median", n_resamples=10)


def _trimmed(v: np.ndarray) -> np.ndarray:
    s = np.sort(v, axis=1)
    return s[:, 2:-2].mean(axis=1)


def test_python_item_statistic_runs_on_the_same_draws() -> None:
    a, b, ref = _data(6)
    m = metrics.custom(_trimmed, stat_names=1, on="items", name="trimmed")
    assert m.on_items
    r = sigfast.paired_bootstrap(a, b, metric=m, n_resamples=B, seed=8, return_distribution=True)
    idx = item_indices(N, n_resamples=B, seed=8)
    want = _trimmed(b[idx]) - _trimmed(a[idx])
    np.testing.assert_allclose(r.distribution[:, 1] - r.distribution[:, 0], want, atol=1e-12)
    assert r.statistic == pytest.approx(_trimmed(b[None])[0] - _trimmed(a[None])[0], abs=1e-12)
    # two columns: the callable gets scores and reference; equals the built-in Pearson
    corr = metrics.custom(
        lambda s, h: np.array([np.corrcoef(u, v)[0, 1] for u, v in zip(s, h)]), stat_names=2, on="items"
    )
    x, y = _arrays("pearson", a, b, ref)
    p1 = sigfast.permutation_test(x, y, metric=corr, n_resamples=B, seed=4)
    p2 = sigfast.permutation_test(x, y, metric="pearson", n_resamples=B, seed=4)
    assert p1.count == p2.count and p1.statistic == pytest.approx(p2.statistic, abs=1e-12)
    ci = sigfast.bootstrap_interval(a, metric=m, n_resamples=B, seed=2)  # BCa: jackknife through the callable
    lo, hi = ci.confidence_interval
    assert lo <= ci.estimate <= hi
    with pytest.raises(MetricError):
        metrics.custom(_trimmed, stat_names=1, on="rows")
    bad = metrics.custom(lambda v: v[:, :2], stat_names=1, on="items")
    with pytest.raises(MetricError, match="one value per resample"):
        sigfast.paired_bootstrap(a, b, metric=bad, n_resamples=10)
