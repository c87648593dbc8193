"""Error bars for LLM evaluation: cluster-robust standard errors against statsmodels and Inspect's
own header, repeated samples against a one-way ANOVA, pass@k against exact binomial
coefficients, benchmark power against simulation, and the type-I error of the cluster bootstrap."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.engine.samples import pass_at_k, reduce_samples, variance_components
from sigfast.exceptions import InputError

ROOT = Path(__file__).resolve().parent
INSPECT = ROOT / "data" / "llm" / "inspect"
MODELS = ("alpha", "beta", "gamma")


@pytest.fixture(scope="module")
def logs() -> sigfast.Statistics:
    return sigfast.read(None, [str(INSPECT / f"figqa_{m}.json.gz") for m in MODELS], format="inspect", cluster="pair")


def _ols_cluster_se(v: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    sm = pytest.importorskip("statsmodels.api")
    x = np.ones((len(v), 1))
    fit = sm.OLS(v, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    iid = sm.OLS(v, x).fit()
    return float(fit.bse[0]), float(iid.bse[0])


def test_cluster_robust_se_equals_statsmodels_ols_with_cluster_covariance(logs: sigfast.Statistics) -> None:
    groups = np.array([int(k.split("-")[1]) for k in logs.provenance["clusters"]])
    for j, name in enumerate(logs.systems):
        r = sigfast.standard_error(logs, system=name)
        want, want_iid = _ols_cluster_se(logs.values[j, :, 0], groups)
        assert r.standard_error == pytest.approx(want, rel=0, abs=1e-9)
        assert r.se_iid == pytest.approx(want_iid, rel=0, abs=1e-9)
        assert r.design_effect == pytest.approx((want / want_iid) ** 2, rel=1e-9)
        assert r.n_clusters == 547 and r.cluster_field == "pair"
    # the paired difference: OLS of the per-item differences on a constant
    r = sigfast.standard_error(logs, systems=("mockllm/alpha", "mockllm/gamma"))
    d = logs.values[2, :, 0] - logs.values[0, :, 0]
    want, want_iid = _ols_cluster_se(d, groups)
    assert r.standard_error == pytest.approx(want, rel=0, abs=1e-9)
    assert r.se_iid == pytest.approx(want_iid, rel=0, abs=1e-9)
    assert r.estimate == pytest.approx(d.mean(), rel=1e-12)
    from statistics import NormalDist

    assert r.pvalue == pytest.approx(2 * NormalDist().cdf(-abs(d.mean() / want)), rel=1e-9)
    lo, hi = r.confidence_interval
    assert (hi - lo) / 2 == pytest.approx(NormalDist().inv_cdf(0.975) * want, rel=1e-9)
    # uneven clusters, random data: statsmodels again
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 40, 500)
    v = rng.normal(0, 1, 40)[keys] + rng.normal(0, 1, 500)
    want, _ = _ols_cluster_se(v, keys)
    assert sigfast.standard_error(v, clusters=keys).standard_error == pytest.approx(want, rel=0, abs=1e-9)


def test_the_clustered_se_equals_inspects_own_header_stderr(logs: sigfast.Statistics) -> None:
    """Inspect's header holds stderr() and stderr(cluster="pair") of each scorer: sigfast's iid
    and cluster-robust errors on the same per-item values agree with both."""
    for j, m in enumerate(MODELS):
        head = json.load(gzip.open(INSPECT / f"figqa_{m}.json.gz"))["results"]["scores"]
        metrics = {s["name"]: s["metrics"] for s in head}["choice"]
        stderr = {(v["params"] or {}).get("cluster"): v["value"] for v in metrics.values() if v["name"] == "stderr"}
        r = sigfast.standard_error(logs, system=logs.systems[j])
        assert r.standard_error == pytest.approx(stderr["pair"], rel=1e-12)
        assert r.se_iid == pytest.approx(stderr[None], rel=1e-12)


def test_the_within_item_share_equals_one_way_anova(logs: sigfast.Statistics) -> None:
    """With K samples on every item, within / total = MS_within / MS_between of a one-way ANOVA
    of the samples on the item (statsmodels' anova_lm), here on 80 items."""
    smf = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    pd = pytest.importorskip("pandas")
    s = logs.provenance["samples"]["mockllm/beta"][:80]
    k = s.shape[1]
    df = pd.DataFrame({"y": s.ravel(), "item": np.repeat(np.arange(80), k).astype(str)})
    table = anova_lm(smf.ols("y ~ C(item)", df).fit())
    ms_between, ms_within = table["mean_sq"].iloc[0], table["mean_sq"].iloc[1]
    vc = variance_components(s)
    assert vc.within_share == pytest.approx(ms_within / ms_between, rel=1e-9)
    assert vc.total == pytest.approx(ms_between / k, rel=1e-9) and vc.within == pytest.approx(ms_within / k, rel=1e-9)
    r = sigfast.standard_error(logs, system="mockllm/beta")
    assert r.within_item_share == pytest.approx(
        variance_components(logs.provenance["samples"]["mockllm/beta"]).within_share
    )
    assert r.samples_per_item == 2.0


def test_pass_at_k_equals_the_exact_formula() -> None:
    rng = np.random.default_rng(2)
    correct = (rng.random((60, 9)) < rng.random((60, 1))).astype(float)
    correct[::7, 6:] = np.nan  # some items have 6 samples
    for k in (1, 2, 5):
        got = pass_at_k(correct, k)
        for i, row in enumerate(correct):
            n = int(np.sum(~np.isnan(row)))
            c = int(np.nansum(row))
            want = 1 - math.comb(n - c, k) / math.comb(n, k)
            assert got[i] == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert np.allclose(pass_at_k(correct, 1), np.nanmean(correct, axis=1), rtol=0, atol=1e-15)
    with pytest.raises(InputError, match="at least 7 samples per item; item 0 has 6"):
        pass_at_k(correct, 7)
    with pytest.raises(InputError, match="not 0 or 1"):
        pass_at_k(correct * 0.5, 1)


def test_pass_at_k_is_a_sample_reducer_feeding_every_test(logs: sigfast.Statistics) -> None:
    p2 = reduce_samples(logs, "pass@2")
    s = logs.provenance["samples"]
    for j, name in enumerate(logs.systems):
        assert np.array_equal(p2.values[j, :, 0], pass_at_k(s[name], 2))
    assert p2.provenance["sample_reducer"] == "pass@2" and p2.provenance["clusters"] == logs.provenance["clusters"]
    r = sigfast.paired_bootstrap(p2, systems=("mockllm/alpha", "mockllm/gamma"), n_resamples=200)
    assert r.n_clusters == 547
    # the log readers' option gives the same values
    opt = sigfast.read(None, [str(INSPECT / f"figqa_{m}.json.gz") for m in MODELS], format="inspect", reducer="pass@2")
    assert np.array_equal(opt.values, p2.values) and opt.provenance["sample_reducer"] == "pass@2"
    with pytest.raises(InputError, match="pass@3 needs at least 3 samples"):
        reduce_samples(logs, "pass@3")


def test_leaderboard_intervals_and_pairs(logs: sigfast.Statistics) -> None:
    lb = sigfast.leaderboard(logs, n_resamples=1000, seed=5)
    for j, name in enumerate(logs.systems):
        one = sigfast.standard_error(logs, system=name)
        assert lb.standard_errors[j] == one.standard_error and tuple(lb.normal_intervals[j]) == tuple(
            one.confidence_interval
        )
        iv = sigfast.bootstrap_interval(logs, system=name, method="percentile", n_resamples=1000, seed=5)
        assert tuple(lb.bootstrap_intervals[j]) == tuple(iv.confidence_interval) and iv.n_clusters == 547
    # every pair's z-test is standard_error on the pair; Holm over the three pairs
    from sigfast.inference.multitest import adjust

    ps = []
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        one = sigfast.standard_error(logs, systems=(logs.systems[i], logs.systems[j]))
        assert lb.pair_se[i, j] == pytest.approx(one.standard_error, rel=1e-12)
        assert lb.pvalues[i, j] == pytest.approx(one.pvalue, rel=1e-12)
        ps.append(one.pvalue)
    adj = adjust(ps, "holm").adjusted
    assert [lb.adjusted[0, 1], lb.adjusted[0, 2], lb.adjusted[1, 2]] == pytest.approx(list(adj), rel=1e-12)
    assert lb.significance_groups() == [["mockllm/gamma"], ["mockllm/beta"], ["mockllm/alpha"]]
    rows = lb.rows()
    assert [r["system"] for r in rows] == ["mockllm/gamma", "mockllm/beta", "mockllm/alpha"]
    assert rows[0]["design_effect"] > 1 and 0 < rows[0]["within_item_share"] < 1
    assert "resampling:clusters(547,pair)" in lb.signature and "Leaderboard" in lb.format("text")
    # pairs by bootstrap: the clustered pairwise result
    lbb = sigfast.leaderboard(logs, n_resamples=500, pairs="bootstrap", bootstrap=False)
    assert lbb.pairwise.n_clusters == 547 and lbb.significance_groups() is not None
    # unclustered on request
    lbi = sigfast.leaderboard(logs, clusters=False, bootstrap=False)
    assert lbi.n_clusters is None and np.array_equal(lbi.standard_errors, lbi.se_iid)


def test_many_models_group_quickly() -> None:
    """500 models: all 124,750 pairs by the normal test, Holm, groups in well under a second or two."""
    rng = np.random.default_rng(1)
    n, s = 1000, 500
    keys = np.arange(n) // 4
    skill = np.repeat([0.1, 0.3, 0.5, 0.7, 0.9], 100)  # five tiers of 100 models
    data = {f"m{j:03d}": (rng.random(n) < skill[j]).astype(float) for j in range(s)}
    lb = sigfast.leaderboard(data, clusters=keys, bootstrap=False)
    groups = lb.significance_groups()
    assert [sorted(g) for g in groups] == [
        [f"m{j:03d}" for j in range(t * 100, t * 100 + 100)] for t in range(4, -1, -1)
    ]
    assert np.nanmin(lb.pvalues) < 0.05 / (s * (s - 1) / 2)  # normal p-values are not floored by B


def test_minimum_detectable_difference_matches_simulation() -> None:
    """Under the model (clusters of 10, ICC 0.3, paired correlation 0.5), a true difference equal to
    the MDD is found by the clustered z-test at about the promised power (here 0.8)."""
    n, m, icc, rho, sd = 600, 10, 0.3, 0.5, 1.0
    r = sigfast.minimum_detectable_difference(n, sd=sd, correlation=rho, cluster_size=m, icc=icc)
    assert r.design_effect == pytest.approx(1 + 9 * 0.3)
    g = n // m
    rng = np.random.default_rng(3)
    sims = 2000
    cov = np.array([[1.0, rho], [rho, 1.0]])
    cl = rng.multivariate_normal([0, 0], cov * icc * sd**2, size=(sims, g))
    it = rng.multivariate_normal([0, 0], cov * (1 - icc) * sd**2, size=(sims, n))
    x = np.repeat(cl[:, :, 0], m, axis=1) + it[:, :, 0]
    y = r.difference + np.repeat(cl[:, :, 1], m, axis=1) + it[:, :, 1]
    d = y - x
    resid = d - d.mean(axis=1, keepdims=True)
    e = resid.reshape(sims, g, m).sum(axis=2)
    se = np.sqrt(g / (g - 1) * (e**2).sum(axis=1)) / n
    power = float(np.mean(np.abs(d.mean(axis=1) / se) > 1.959963984540054))
    assert abs(power - 0.8) < 3 * math.sqrt(0.8 * 0.2 / sims) + 0.01  # + the CR1 z-test's small-G excess
    need = sigfast.items_needed(r.difference, sd=sd, correlation=rho, cluster_size=m, icc=icc)
    assert need.n_items == n  # the inverse, to a whole number of clusters
    assert sigfast.items_needed(0.1).n_items == math.ceil((1.959963984540054 + 0.8416212335729143) ** 2 * 0.5 / 0.01)


def test_type_one_error_of_the_cluster_bootstrap() -> None:
    """ICC 0.3, 100 clusters of 10 items, null datasets: the cluster bootstrap rejects at alpha =
    0.05 within two standard errors of 0.05 (here 1,000 datasets at B = 199); the item bootstrap
    (on 150 of them) several times as often. ``benches/bench_clusters.py --type1`` records both
    rates on 2,000 datasets at B = 999 (benches/RESULTS-clusters.md)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_clusters", ROOT.parent / "benches" / "bench_clusters.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rate, se = bench.simulate(1000, "clusters", n_resamples=199, seed=0)
    assert abs(rate - 0.05) <= 2 * se, (rate, se)
    item_rate, item_se = bench.simulate(150, "items", n_resamples=199, seed=0)
    assert item_rate - 2 * item_se > 0.2, (item_rate, item_se)
