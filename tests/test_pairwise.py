"""All-pairs tests on shared resamples: equal to two-system tests, same bytes on every backend."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import sigfast
from sigfast.inference.pairwise import PAIR_BLOCK, gain_threshold, pairwise


def _stats(S: int = 5, n: int = 250, seed: int = 0) -> sigfast.Statistics:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 10, n)
    arr = {
        f"sys{j}": np.stack([rng.binomial(gold, 0.6 + 0.02 * j), gold + rng.integers(0, 2, n), gold], 1)
        for j in range(S)
    }
    return sigfast.Statistics.from_counts(arr, stat_names=("tp", "guessed", "gold"), metric="f1")


@pytest.mark.parametrize("variant", ["bk", "koehn", "shifted"])
def test_pairs_equal_two_system_test(variant: str) -> None:
    st = _stats()
    pw = pairwise(st, n_resamples=2000, seed=9, variant=variant, resampling="items")
    for i in range(st.n_systems):
        for j in range(st.n_systems):
            if i != j:
                r = sigfast.paired_bootstrap(
                    st, systems=(i, j), n_resamples=2000, seed=9, variant=variant, resampling="items"
                )
                assert (r.count, r.pvalue) == (pw.counts[i, j], pw.pvalues[i, j])
                assert r.statistic == pytest.approx(pw.delta[i, j], abs=1e-15)


def test_shifted_mean_is_blocked_across_backends() -> None:
    st = _stats(S=4, n=60)
    B = 2 * PAIR_BLOCK + 1000
    local = pairwise(st, n_resamples=B, seed=4, variant="shifted", resampling="items")
    with ThreadPoolExecutor(2) as ex:
        threaded = pairwise(st, n_resamples=B, seed=4, variant="shifted", resampling="items", backend=ex)
    assert local.to_json() == threaded.to_json()
    r = sigfast.paired_bootstrap(st, systems=(0, 3), n_resamples=B, seed=4, variant="shifted", resampling="items")
    assert r.count == local.counts[0, 3]


def test_process_pool_same_bytes() -> None:
    st = _stats(S=3, n=80)
    with ProcessPoolExecutor(2) as ex:
        a = pairwise(st, n_resamples=PAIR_BLOCK + 10, seed=1, backend=ex)
    b = pairwise(st, n_resamples=PAIR_BLOCK + 10, seed=1)
    assert a.to_json() == b.to_json()


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one local Ray cluster at a time (test_studies.py has the other)
def test_ray_same_bytes() -> None:
    ray = pytest.importorskip("ray")
    st = _stats(S=3, n=80)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        a = pairwise(st, n_resamples=PAIR_BLOCK + 10, seed=1, backend="ray", variant="shifted")
    finally:
        ray.shutdown()
    b = pairwise(st, n_resamples=PAIR_BLOCK + 10, seed=1, variant="shifted")
    assert a.to_json() == b.to_json()


def test_independent_mode_and_custom_metric() -> None:
    st = _stats(S=3)
    ind = pairwise(st, n_resamples=3000, mode="independent")
    sh = pairwise(st, n_resamples=3000)
    assert ind.mode == "independent" and not np.array_equal(ind.counts, sh.counts)
    # same decisions up to Monte Carlo error
    assert np.nanmax(np.abs(ind.pvalues - sh.pvalues)) < 0.05

    def f1(s: np.ndarray) -> np.ndarray:
        p, r = s[:, 0] / s[:, 1], s[:, 0] / s[:, 2]
        return 2 * p * r / (p + r)

    # f1 takes the old one-array form

    with pytest.warns(DeprecationWarning, match=r"takes one \(resamples, k\) array of sums"):
        cu = pairwise(st, metric=f1, n_resamples=3000)
    assert np.array_equal(cu.counts, sh.counts)


def test_groups_ranks_thresholds_by_hand() -> None:
    st = _stats(S=4)
    pw = pairwise(st, n_resamples=2000, labels={"sys0": "A", "sys1": "A", "sys2": "B"}, combinations=["sys3"])
    assert pw.pair_class(0, 1) == "same" and pw.pair_class(0, 2) == "different"
    assert pw.pair_class(1, 3) == "combination"
    # hand-made threshold: p-values in band -> 95th percentile of gains (numpy linear)
    rows = [r for r in pw.comparisons() if 0.0 <= r["pvalue"] <= 1.0]
    thr = gain_threshold(pw, band=(0.0, 1.0), percentile=50)
    gains = sorted(r["gain"] for r in rows)
    assert thr[0].n_comparisons == 6
    assert thr[0].threshold == pytest.approx((gains[2] + gains[3]) / 2)
    ranks = pw.rank_ranges()
    best = pw.systems[pw.order()[0]]
    assert ranks[best][0] == 1
    assert sum(len(g) for g in pw.clusters()) == 4


def test_plots_render(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    pw = pairwise(_stats(S=4), n_resamples=1000)
    pw.plot_confidence_vs_gain(tmp_path / "c.png")
    pw.plot_heatmap(tmp_path / "h.svg")
    assert (tmp_path / "c.png").stat().st_size > 1000 and (tmp_path / "h.svg").stat().st_size > 1000


def test_bad_arguments() -> None:
    st = _stats(S=3)
    with pytest.raises(sigfast.InputError, match="multiple of 65536"):
        pairwise(st, shard_size=PAIR_BLOCK + 1)
    with pytest.raises(sigfast.InputError, match="unknown systems"):
        pairwise(st, labels={"nope": "x"})
    with pytest.raises(sigfast.InputError, match="at least two"):
        pairwise(st, systems=["sys0"])
    with pytest.raises(sigfast.InputError, match="backend"):
        pairwise(st, n_resamples=10, backend="spark")


def test_no_star_where_the_design_cannot_reach_alpha() -> None:
    """With 2 clusters the bootstrap's smallest possible p is 2^-2 = 0.25 (enumerated: the least likely resample
    draws one cluster twice), so a p at the 1/(B+1) floor is no evidence: no pair is significant, one group, every
    rank range the whole ranking, no star in the text or CSV; with 4 clusters (4^-4) the same data can be."""
    import itertools

    rng = np.random.default_rng(0)
    data = {k: rng.normal(mu, 0.1, 40) for k, mu in (("a", 0.5), ("b", 0.7), ("c", 0.9))}
    two = sigfast.pairwise(data, clusters=np.repeat([0, 1], 20), n_resamples=2000)
    # the floor by enumeration: the probability of the least likely multiset of 2 draws from 2 clusters
    draws = list(itertools.product(range(2), repeat=2))
    floor = min(sum(sorted(d) == sorted(e) for e in draws) for d in draws) / len(draws)
    assert two.design_min_pvalue == pytest.approx(floor) and not two.reaches()
    assert float(np.nanmin(two.adjusted)) < 0.05  # the floor 1/(B+1): what the star used to be printed for
    assert not two.significance().any() and two.clusters() == [["c", "b", "a"]]
    assert set(two.rank_ranges().values()) == {(1, 3)}
    assert not any(r["significant"] for r in two.rows())
    assert "no star and one group: with 2 clusters" in two.format("text")

    def stars(r: sigfast.PairwiseResult) -> str:
        md = r.format("markdown")
        return md[md.index("all pairs") : md.index("gain threshold (")]

    assert "| *" not in stars(two)
    four = sigfast.pairwise(data, clusters=np.repeat([0, 1, 2, 3], 10), n_resamples=2000)
    assert four.reaches() and four.significance().any() and "| *" in stars(four)
