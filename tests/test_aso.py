"""Almost Stochastic Order (sigfast.aso, sigfast.compare_seeds, `sigfast seeds`).

References, none of them sigfast's own code:
* a slow numpy re-derivation of the violation ratio from its definition
  (Dror et al. 2019; deepsig 1.2.8's quantile function and grid), checked
  exactly, and an exact integral of the step quantile functions, checked to
  the grid's precision;
* the independent stream oracle in tests/oracle.py (numpy's Philox, a Python
  xoshiro256++ and Lemire rejection) driving a numpy bootstrap, checked to
  1e-12 on every resample's violation ratio and on ε_min;
* deepsig itself (when installed): its empirical violation ratio exactly, and
  ε_min within Monte-Carlo error over repeated seeded runs;
* scipy (when installed) for the Welch and Mann-Whitney columns.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import subprocess
import sys
import warnings
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

import sigfast
from oracle import STREAMS, indices
from sigfast import InputError, _native
from sigfast.cli import main

TAG_ASO = 0x61736F5F  # "aso_"


# --------------------------------------------------------------------------
# Slow references
# --------------------------------------------------------------------------


def slow_quantile(scores: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The empirical quantile function: the sorted score of rank ceil(n p) (1-based), clipped to [1, n]."""
    s = np.sort(np.asarray(scores, dtype=np.float64))
    n = len(s)
    return s[np.clip(np.ceil(n * p).astype(np.int64) - 1, 0, n - 1)]


def slow_violation_ratio(a: np.ndarray, b: np.ndarray, dt: float) -> float:
    """ε_W2(A, B) on deepsig's grid: the first grid point is in the distance, never in the violation set."""
    t = np.arange(dt, 1, dt)
    f, g = slow_quantile(a, t), slow_quantile(b, t)
    w = (g - f) ** 2 * dt
    total = np.sum(w)
    if total == 0:
        return 0.5
    return float(np.sum(np.where(f < g, w, 0.0)[1:]) / total)


def exact_violation_ratio(a: np.ndarray, b: np.ndarray) -> float:
    """ε_W2 of the step quantile functions integrated exactly over (0, 1) (no grid)."""
    sa, sb = np.sort(a), np.sort(b)
    n, m = len(sa), len(sb)
    cuts = sorted({Fraction(k, n) for k in range(n + 1)} | {Fraction(k, m) for k in range(m + 1)})
    total = viol = 0.0
    for lo, hi in itertools.pairwise(cuts):
        mid = (lo + hi) / 2
        f = sa[math.ceil(mid * n) - 1]
        g = sb[math.ceil(mid * m) - 1]
        w = float(hi - lo) * (g - f) ** 2
        total += w
        if f < g:
            viol += w
    return 0.5 if total == 0 else viol / total


def oracle_resample(scores: np.ndarray, seed: int, b: int, sub: int, stream: int = 2) -> np.ndarray:
    """Resample b of one system from the independent stream oracle (stream version ``stream``)."""
    n = len(scores)
    return np.sort(scores)[indices(seed, TAG_ASO, b, sub, n, n, stream)]


def oracle_aso(a, b, seed, n_resamples, dt=0.005, level=0.95, stream=2):
    """(bootstrap ratios, ε_min) with numpy only, from the definitions."""
    vr = slow_violation_ratio(a, b, dt)
    ratios = np.array(
        [
            slow_violation_ratio(oracle_resample(a, seed, r, 0, stream), oracle_resample(b, seed, r, 1, stream), dt)
            for r in range(n_resamples)
        ]
    )
    const = math.sqrt(len(a) * len(b) / (len(a) + len(b)))
    sigma = np.std(const * (ratios - vr))
    eps = float(np.clip(vr - sigma / const * NormalDist().inv_cdf(1 - level), 0, 1))
    return ratios, eps


def normal_runs(rng: np.random.Generator, n: int, effect: float) -> tuple[np.ndarray, np.ndarray]:
    return rng.normal(effect, 1.0, n), rng.normal(0.0, 1.0, n)


# --------------------------------------------------------------------------
# The violation ratio without bootstrap
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dt", [0.005, 0.001, 0.01, 0.25, 0.3, 0.007, 1e-4])
def test_grid_is_numpy_arange(dt):
    assert np.array_equal(_native.aso_grid(dt), np.arange(dt, 1, dt))


def test_empirical_violation_ratio_equals_slow_numpy_exactly():
    rng = np.random.default_rng(11)
    for trial in range(200):
        n, m = rng.integers(2, 60, 2)
        a = rng.normal(rng.normal(0, 1), rng.uniform(0.1, 2), n)
        b = rng.normal(0, 1, m)
        if trial % 5 == 0:  # ties and shared values
            a, b = np.round(a, 1), np.round(b, 1)
        dt = [0.005, 0.001, 0.01, 0.02][trial % 4]
        assert sigfast.seeds.violation_ratio(a, b, dt=dt) == slow_violation_ratio(a, b, dt), (trial, n, m, dt)


def test_empirical_violation_ratio_edge_cases():
    a = np.array([1.0, 2.0, 3.0, 4.0])
    assert sigfast.seeds.violation_ratio(a, a) == 0.5  # zero distance
    assert sigfast.seeds.violation_ratio(a + 10, a) == 0.0  # A above B everywhere
    # A below B everywhere: all but the first grid point, as deepsig integrates
    assert sigfast.seeds.violation_ratio(a, a + 10, dt=0.25) == 2 / 3
    assert sigfast.seeds.violation_ratio(a, a + 10) == slow_violation_ratio(a, a + 10, 0.005)


@pytest.mark.parametrize("dt", [0.005, 1e-4])
def test_empirical_violation_ratio_to_grid_precision(dt):
    """The grid sum is the exact integral of the step functions up to O(dt) per jump."""
    rng = np.random.default_rng(5)
    for _ in range(30):
        n, m = rng.integers(2, 40, 2)
        a, b = rng.normal(0.3, 1, n), rng.normal(0, 1, m)
        exact = exact_violation_ratio(a, b)
        d2max = (max(a.max(), b.max()) - min(a.min(), b.min())) ** 2
        total = np.mean((slow_quantile(b, np.arange(dt, 1, dt)) - slow_quantile(a, np.arange(dt, 1, dt))) ** 2)
        # each of the n + m jumps and the two ends move at most one grid cell of weight dt·d2max
        bound = 2 * (n + m + 3) * dt * d2max / total
        got = sigfast.seeds.violation_ratio(a, b, dt=dt)
        assert abs(got - exact) <= bound, (got, exact, bound)
        if dt == 1e-4:
            assert abs(got - exact) < 0.02


def test_empirical_violation_ratio_equals_deepsig_exactly():
    pytest.importorskip("deepsig")
    ds = sys.modules["deepsig.aso"]
    rng = np.random.default_rng(3)
    for trial in range(20):
        n, m = rng.integers(2, 50, 2)
        a, b = rng.normal(0.2, 1, n), rng.normal(0, 1, m)
        dt = [0.005, 0.01, 0.001][trial % 3]
        assert sigfast.seeds.violation_ratio(a, b, dt=dt) == ds.compute_violation_ratio(a, b, dt=dt)


# --------------------------------------------------------------------------
# The bootstrap and ε_min
# --------------------------------------------------------------------------


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize(("n_a", "n_b", "effect"), [(5, 5, 0.0), (20, 20, 0.5), (7, 30, 1.5), (50, 12, -0.3)])
def test_bootstrap_equals_independent_oracle(n_a, n_b, effect, stream):
    rng = np.random.default_rng(n_a * 100 + n_b)
    a, b = rng.normal(effect, 1, n_a), rng.normal(0, 1, n_b)
    B, seed = 60, 987
    r = sigfast.aso(a, b, n_resamples=B, seed=seed, return_distribution=True, n_threads=1, stream=stream)
    assert r.stream_version == stream and f"/v{stream}|" in r.signature
    ratios, eps = oracle_aso(a, b, seed, B, stream=stream)
    np.testing.assert_allclose(r.distribution, ratios, rtol=1e-12, atol=1e-15)
    assert r.violation_ratio == slow_violation_ratio(a, b, 0.005)
    assert r.statistic == pytest.approx(eps, rel=1e-10, abs=1e-12)
    assert r.bootstrap_mean == pytest.approx(ratios.mean(), rel=1e-12)


def test_epsilon_formula_and_corrections():
    rng = np.random.default_rng(8)
    a, b = normal_runs(rng, 10, 0.4)
    base = sigfast.aso(a, b, n_resamples=300, return_distribution=True)
    sd = np.std(base.distribution)
    const = math.sqrt(10 * 10 / 20)
    assert base.sigma == pytest.approx(const * sd, rel=1e-12)
    for corr, m, level in [
        ("bonferroni", 3, 1 - 0.05 / 3),
        ("deepsig", 3, 0.95 + 0.05 / 3),  # deepsig 1.2.8's formula: alpha (1 - 1/m)
        ("none", 3, 0.95),
        ("bonferroni", 1, 0.95),
        ("deepsig", 2, 0.975),  # the two agree for m = 2
        ("bonferroni", 2, 0.975),
    ]:
        r = sigfast.aso(a, b, n_resamples=300, num_comparisons=m, correction=corr)
        assert r.adjusted_confidence_level == pytest.approx(level, abs=1e-15)
        expected = min(1, max(0, base.violation_ratio + sd * NormalDist().inv_cdf(level)))
        assert r.statistic == pytest.approx(expected, rel=1e-9, abs=1e-12)
        assert r.sigma == base.sigma
    x, y = np.linspace(0, 1, 10) + 0.15, np.linspace(0, 1, 10)  # ε_W2 = 0, ε_min inside (0, 1)
    strict = sigfast.aso(x, y, n_resamples=300, num_comparisons=5)
    loose = sigfast.aso(x, y, n_resamples=300, num_comparisons=5, correction="deepsig")
    assert 0 < loose.statistic < strict.statistic < 1


# (n, effect size in standard deviations): sample sizes 5-50, null to clear dominance
DEEPSIG_CASES = [(5, 0.0), (5, 1.5), (12, 0.8), (20, 0.3), (50, 0.5)]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "effect"), DEEPSIG_CASES)
def test_epsilon_min_agrees_with_deepsig_within_monte_carlo_error(n, effect):
    """deepsig is random: compare with the spread of repeated seeded runs of both.

    ε_min = ε_W2 + z·sd(bootstrap ratios); ε_W2 is the same double in both
    (tested above), so they differ only through the bootstrap's Monte-Carlo
    error in the sd. With B = 100 resamples, deepsig runs R_d = 3 times
    (seeds 10,000 apart, so its per-iteration seeds seed+1..seed+B never
    overlap) and sigfast R_s = 40 times. Each deepsig value must lie within
    sigfast's mean ± 5 sd (sd over sigfast's runs), and the two means within
    4 standard errors.
    """
    deepsig = pytest.importorskip("deepsig")
    rng = np.random.default_rng(1000 + n)
    a, b = normal_runs(rng, n, effect)
    B = 100
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = np.array(
            [
                deepsig.aso(a, b, num_bootstrap_iterations=B, seed=10_000 * k, show_progress=False, num_jobs=1)
                for k in range(1, 4)
            ]
        )
    sf = np.array([sigfast.aso(a, b, n_resamples=B, seed=s).statistic for s in range(40)])
    spread = max(sf.std(ddof=1), ds.std(ddof=1))
    assert np.all(np.abs(ds - sf.mean()) <= 5 * spread + 1e-12), (ds, sf.mean(), spread)
    se = spread * math.sqrt(1 / len(ds) + 1 / len(sf))
    assert abs(ds.mean() - sf.mean()) <= 4 * se + 1e-12, (ds.mean(), sf.mean(), se)
    # the spread itself is of the same size (the sd estimate of 3 runs is rough)
    if sf.std() > 1e-9:
        assert 0.1 < ds.std(ddof=1) / sf.std(ddof=1) < 5


@pytest.mark.slow
def test_compare_seeds_matches_deepsig_multi_aso():
    deepsig = pytest.importorskip("deepsig")
    rng = np.random.default_rng(21)
    scores = {"a": rng.normal(0, 1, 8), "b": rng.normal(0.6, 1, 8), "c": rng.normal(1.5, 1, 8)}
    B = 60
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = deepsig.multi_aso(scores, num_bootstrap_iterations=B, seed=4242, show_progress=False)
    runs = np.array(
        [sigfast.compare_seeds(scores, n_resamples=B, seed=s, correction="deepsig").eps_min for s in range(30)]
    )
    mean, spread = runs.mean(0), runs.std(0, ddof=1)
    off = ~np.eye(3, dtype=bool)
    assert np.all(np.abs(ds - mean)[off] <= 5 * spread[off] + 1e-12), (ds, mean, spread)
    assert np.all(np.diag(runs[0]) == 1.0) and np.all(np.diag(ds) == 1.0)


def test_deepsig_two_systems_multi_aso_is_reproduced():
    """deepsig 1.2.8's multi_aso raises the level to level + (1 - level)/1 = 1.0 for two systems, so
    every eps_min is 1: correction="deepsig" reproduces that (with a warning), the default Bonferroni
    keeps deepsig.aso's 0.95 (where sigfast departs from multi_aso)."""
    deepsig = pytest.importorskip("deepsig")
    rng = np.random.default_rng(23)
    a, b = rng.normal(0.0, 1, 10), rng.normal(0.4, 1, 10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = deepsig.multi_aso({"a": list(a), "b": list(b)}, num_bootstrap_iterations=200, seed=7, show_progress=False)
        ds_aso = deepsig.aso(a, b, num_bootstrap_iterations=200, seed=7, show_progress=False)
    assert np.array_equal(ds, np.ones((2, 2)))  # deepsig's own numbers
    c = sigfast.compare_seeds({"a": a, "b": b}, n_resamples=200, correction="deepsig")
    assert np.array_equal(c.eps_min, np.ones((2, 2)))
    assert c.adjusted_confidence_level == 1.0 and c.warnings and "deepsig" in str(c)
    # deepsig.aso corrects only for num_comparisons > 1: aso(correction="deepsig") keeps 0.95
    one = sigfast.aso(a, b, n_resamples=200, correction="deepsig")
    assert one.adjusted_confidence_level == 0.95
    runs = [sigfast.aso(a, b, n_resamples=200, seed=s).statistic for s in range(20)]
    assert abs(ds_aso - np.mean(runs)) <= 5 * np.std(runs, ddof=1) + 1e-12
    # the default departs from multi_aso with two systems: a usable bound, no warning
    d = sigfast.compare_seeds({"a": a, "b": b}, n_resamples=200)
    assert d.adjusted_confidence_level == 0.95 and not d.warnings and d.eps_min[1, 0] < 1


def test_deepsig_level_formula_for_three_systems():
    """multi_aso's level for m = 3 pairs is 0.95 + 0.05/3 (deepsig's code), Bonferroni's 1 - 0.05/3."""
    rng = np.random.default_rng(24)
    scores = {"a": rng.normal(0, 1, 6), "b": rng.normal(0.5, 1, 6), "c": rng.normal(1, 1, 6)}
    assert sigfast.compare_seeds(scores, n_resamples=50, correction="deepsig").adjusted_confidence_level == (
        pytest.approx(0.95 + 0.05 / 3, abs=1e-15)
    )
    assert sigfast.compare_seeds(scores, n_resamples=50).adjusted_confidence_level == pytest.approx(
        1 - 0.05 / 3, abs=1e-15
    )


def test_same_bytes_for_any_thread_count():
    rng = np.random.default_rng(2)
    a, b = normal_runs(rng, 20, 0.3)
    runs = [sigfast.aso(a, b, n_resamples=3000, seed=77, n_threads=t, return_distribution=True) for t in (1, 2, 3, 8)]
    for r in runs[1:]:
        assert r.to_dict() == runs[0].to_dict()
        assert r.distribution.tobytes() == runs[0].distribution.tobytes()
    scores = {"x": a, "y": b, "z": rng.normal(0.1, 1, 9)}
    many = [sigfast.compare_seeds(scores, n_resamples=1000, seed=5, n_threads=t) for t in (1, 2, 4)]
    for c in many[1:]:
        assert c.eps_min.tobytes() == many[0].eps_min.tobytes()
        assert c.to_json() == many[0].to_json()
    assert sigfast.aso(a, b, seed=78).statistic != sigfast.aso(a, b, seed=77).statistic


def test_two_systems_compare_equals_aso():
    rng = np.random.default_rng(4)
    a, b = normal_runs(rng, 15, 0.4)
    c = sigfast.compare_seeds({"A": a, "B": b}, n_resamples=500, seed=3)
    r = sigfast.aso(a, b, n_resamples=500, seed=3)
    assert c.aso("A", "B").to_dict() == r.to_dict()
    assert c.eps_min[0, 1] == r.statistic
    # the reverse direction follows deepsig.multi_aso: 1 - ε_W2(A, B) with the same σ̂
    ba = c.aso("B", "A")
    assert ba.violation_ratio == 1 - r.violation_ratio
    assert ba.sigma == r.sigma


def test_compare_seeds_classical_columns():
    rng = np.random.default_rng(6)
    scores = {"base": rng.normal(0, 1, 10), "new": rng.normal(1, 1, 12), "alt": rng.normal(0.2, 1, 7)}
    c = sigfast.compare_seeds(scores, n_resamples=200)
    assert c.num_comparisons == 3
    for p in c.pairs:
        a, b = scores[p.a], scores[p.b]
        w = sigfast.welch_ttest(b, a)
        u = sigfast.mann_whitney_u(b, a)
        assert p.welch.to_dict() == w.to_dict()
        assert p.mann_whitney.to_dict() == u.to_dict()
        assert p.welch_pvalue_adjusted == min(1.0, 3 * w.pvalue)
        assert p.mann_whitney_pvalue_adjusted == min(1.0, 3 * u.pvalue)
    stats = pytest.importorskip("scipy.stats")
    p = c.pairs[0]
    a, b = scores[p.a], scores[p.b]
    ref = stats.ttest_ind(a, b, equal_var=False)
    assert p.welch.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert p.welch.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    ref = stats.mannwhitneyu(a, b)
    assert p.mann_whitney.statistic == ref.statistic
    assert p.mann_whitney.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    none = sigfast.compare_seeds(scores, n_resamples=200, correction="none")
    assert none.pairs[0].welch_pvalue_adjusted == none.pairs[0].welch.pvalue


def test_dominance_reading():
    rng = np.random.default_rng(9)
    hi, lo = rng.normal(3, 1, 20), rng.normal(0, 1, 20)
    r = sigfast.aso(hi, lo, names=("ours", "baseline"))
    assert r.dominant and r.statistic < 0.5
    assert r.reading.startswith("ours is almost stochastically dominant over baseline at ε_min = ")
    assert "< τ = 0.5" in r.reading
    back = sigfast.aso(lo, hi, names=("baseline", "ours"))
    assert not back.dominant
    assert "not shown" in back.reading and "≥ τ = 0.5" in back.reading
    strict = sigfast.aso(hi, lo, tau=0.2)
    assert strict.tau == 0.2 and "τ = 0.2" in strict.reading
    c = sigfast.compare_seeds({"ours": hi, "baseline": lo})
    assert [(a, b) for a, b, _ in c.dominance()] == [("ours", "baseline")]
    assert c.pairs[0].verdict == "ours ≻ baseline"


# --------------------------------------------------------------------------
# Result objects
# --------------------------------------------------------------------------


def test_result_object():
    rng = np.random.default_rng(10)
    a, b = normal_runs(rng, 6, 0.5)
    r = sigfast.aso(a, b, n_resamples=400, seed=9, names=("new", "old"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.statistic = 0.0  # type: ignore[misc]
    d = json.loads(r.to_json())
    assert d["statistic"] == r.statistic == r.epsilon_min
    assert d["systems"] == ["new", "old"]
    assert d["dominant"] == r.dominant and d["reading"] == r.reading
    for part in ("test:aso", "variant:deepsig", "B:400", "seed:9", "conf:0.95", "dt:0.005", "tau:0.5", "stream:philox"):
        assert part in r.signature
    text = str(r)
    assert text.count("\n") >= 6
    assert "ε_min" in text and r.reading in text and r.signature in text and "Dror" in text
    m = sigfast.aso(a, b, num_comparisons=4)
    assert "conf:0.95" in m.signature and "correction:bonferroni(m=4)=0.9875" in m.signature
    c = sigfast.compare_seeds({"x": a, "y": b, "z": a + 1}, n_resamples=100)
    with pytest.raises(ValueError):
        c.eps_min[0, 1] = 0  # read-only
    dc = json.loads(c.to_json())
    assert dc["systems"] == ["x", "y", "z"] and len(dc["pairs"]) == 3
    assert dc["eps_min"][0][0] == 1.0 and dc["violation_ratio"][0][0] is None
    assert "ε_min (row over column)" in str(c)
    assert c.to_csv().count("\n") == 4
    assert c.format("latex").startswith("\\begin{table}") and "\\succ" in c.format("latex")
    assert "| system" in c.format("markdown") and "|-" in c.format("markdown")


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "match"),
    [
        ([1.0, float("nan"), 2.0], [1.0, 2.0], r"score 1 is nan"),
        ([1.0, 2.0], [1.0, float("inf")], r"score 1 is inf"),
        ([1.0], [1.0, 2.0], r"at least 2 scores"),
        ([], [1.0, 2.0], r"no scores"),
        ([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0], r"1-D"),
        (["a", "b"], [1.0, 2.0], r"expected numbers"),
    ],
)
def test_bad_scores_raise_input_error(a, b, match):
    with pytest.raises(InputError, match=match):
        sigfast.aso(a, b)
    with pytest.raises(InputError, match=match):
        sigfast.compare_seeds({"first": a, "second": b})


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"confidence_level": 1.0}, "confidence_level"),
        ({"confidence_level": 0}, "confidence_level"),
        ({"n_resamples": 0}, "n_resamples"),
        ({"n_resamples": 1.5}, "n_resamples"),
        ({"seed": -1}, "seed"),
        ({"dt": 0}, "dt"),
        ({"dt": 1e-9}, "integration points"),
        ({"tau": 0}, "tau"),
        ({"correction": "holm"}, "correction"),
        ({"num_comparisons": 0}, "num_comparisons"),
        ({"n_threads": 0}, "n_threads"),
        ({"names": ("x", "x")}, "names"),
    ],
)
def test_bad_arguments_raise_input_error(kwargs, match):
    with pytest.raises(InputError, match=match):
        sigfast.aso([1.0, 2.0, 3.0], [2.0, 3.0, 4.0], **kwargs)


def test_bad_collections():
    with pytest.raises(InputError, match="at least 2 systems"):
        sigfast.compare_seeds({"only": [1.0, 2.0]})
    with pytest.raises(InputError, match="dict"):
        sigfast.compare_seeds("abc")
    with pytest.raises(InputError, match="scores of 'b'"):
        sigfast.compare_seeds({"a": [1.0, 2.0], "b": [3.0]})
    with pytest.raises(InputError, match="alternative"):
        sigfast.compare_seeds({"a": [1.0, 2.0], "b": [3.0, 4.0]}, alternative="up")
    c = sigfast.compare_seeds([[1.0, 2.0, 3.0], [2.0, 3.0, 5.0]], n_resamples=50)
    assert c.systems == ("system 0", "system 1")


def test_ctrl_c_stops_the_bootstrap():
    """A KeyboardInterrupt from the progress relay (as from Ctrl-C) cancels the work promptly."""
    import time

    calls = []

    def interrupt(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    t = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        sigfast.aso(np.arange(50.0), np.arange(50.0) + 1, n_resamples=50_000_000, n_threads=1, progress=interrupt)
    assert time.perf_counter() - t < 10 and len(calls) == 1


def test_import_stays_light():
    code = (
        "import sys, sigfast; heavy = [m for m in ('deepsig', 'scipy', 'matplotlib', 'sigfast.seeds') "
        "if m in sys.modules]; sigfast.aso; heavy2 = [m for m in ('deepsig', 'scipy', 'matplotlib') "
        "if m in sys.modules]; print(heavy, heavy2)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] []"


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def _write(path, values):
    path.write_text("# scores over seeds\n" + "\n".join(repr(float(v)) for v in values) + "\n\n")
    return str(path)


def test_cli_seeds(tmp_path, capsys):
    rng = np.random.default_rng(12)
    base = _write(tmp_path / "run_base.txt", rng.normal(0.70, 0.02, 10))
    ours = _write(tmp_path / "run_ours.txt", rng.normal(0.76, 0.02, 10))
    assert main(["seeds", base, ours, "-n", "500"]) == 0
    out = capsys.readouterr().out
    assert "base" in out and "ours" in out and "ε_min" in out and "Welch" in out and "B = 500" in out
    assert main(["aso", f"Baseline={base}", f"Ours={ours}", "--json", "--seed", "3"]) == 0
    d = json.loads(capsys.readouterr().out)[0]  # JSON output: a list of records
    assert d["systems"] == ["Baseline", "Ours"] and d["seed"] == 3 and d["n_resamples"] == 1000
    ref = sigfast.compare_seeds(
        {"Baseline": np.loadtxt(base), "Ours": np.loadtxt(ours)}, seed=3, n_resamples=1000
    )  # same numbers as the API
    assert d["eps_min"] == ref.to_dict()["eps_min"]
    for flag, check in [
        ("--csv", lambda s: s.startswith("a,b,n_a")),
        ("--markdown", lambda s: "| system" in s),
        ("--latex", lambda s: "\\begin{tabular}" in s),
    ]:
        assert main(["seeds", base, ours, "-n", "100", flag]) == 0
        assert check(capsys.readouterr().out), flag
    for ext, check in [
        ("json", lambda s: json.loads(s)[0]["n_resamples"] == 100),
        ("csv", lambda s: s.startswith("a,b,")),
        ("md", lambda s: "| A" in s),
        ("tex", lambda s: "\\toprule" in s),
    ]:
        target = tmp_path / f"out.{ext}"
        assert main(["seeds", base, ours, "-n", "100", "--output", str(target)]) == 0
        assert check(target.read_text()), ext
        assert "ε_min" in capsys.readouterr().out  # the table is still printed


def test_cli_errors(tmp_path, capsys):
    good = _write(tmp_path / "a.txt", [0.1, 0.2, 0.3])
    bad = tmp_path / "b.txt"
    bad.write_text("0.1\nzero\n")
    assert main(["seeds", good, str(bad)]) == 1
    err = capsys.readouterr().err
    assert "b.txt, line 2" in err and "not a number" in err
    two = tmp_path / "c.txt"
    two.write_text("0.1 0.2\n")
    assert main(["seeds", good, str(two)]) == 1
    assert "one score per line" in capsys.readouterr().err
    one = tmp_path / "d.txt"
    one.write_text("0.5\n")
    assert main(["seeds", good, str(one)]) == 1
    assert "at least 2" in capsys.readouterr().err
    assert main(["seeds", good]) == 2  # one system: a usage error
    assert "at least two" in capsys.readouterr().err
    assert main(["seeds", good, good.replace("a.txt", "e.txt"), "--output", str(tmp_path / "x.pdf")]) == 2
    assert main(["seeds", good, _write(tmp_path / "f.txt", [1, 2]), "--output", str(tmp_path / "x.pdf")]) == 2
    assert "unknown extension" in capsys.readouterr().err
