"""Multiple-comparison corrections and replicability analysis.

Corrections are compared in-test with statsmodels.stats.multitest.multipletests
(statsmodels 0.15.0 when written) on hundreds of random p-value lists. The
replicability estimates are checked against a case worked by hand (below),
which is also the example in the README of Dror et al.'s own code
(rtmdrr/replicability-analysis-NLP): p = 0.168, 0.297, 0.357, 0.019, 0.218,
0.001 at alpha = 0.05.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sigfast.exceptions import InputError
from sigfast.inference.multitest import adjust, replicability

multitest = pytest.importorskip("statsmodels.stats.multitest")
stats = pytest.importorskip("scipy.stats")

PAIRS = [
    ("bonferroni", "bonferroni"),
    ("holm", "holm"),
    ("hochberg", "simes-hochberg"),
    ("bh", "fdr_bh"),
    ("by", "fdr_by"),
]


def test_corrections_match_statsmodels(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # statsmodels' multipletests calls gc.collect() on every call (slow in a big process)
    import gc

    monkeypatch.setattr(gc, "collect", lambda *args: 0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 60))
        p = rng.uniform(0, 1, n) ** float(rng.uniform(0.3, 5))
        if rng.random() < 0.3:
            p = np.round(p, 2)  # ties
        if rng.random() < 0.1:
            p[0] = 0.0
            p[-1] = 1.0
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        for ours, theirs in PAIRS:
            r = adjust(p, ours, alpha=alpha)
            reject, adjusted, _, _ = multitest.multipletests(p, alpha=alpha, method=theirs)
            assert np.max(np.abs(r.adjusted - adjusted)) <= 1e-12, (ours, p)
            assert np.array_equal(r.reject, reject), (ours, p)
    # scipy's false_discovery_control gives the same BH / BY values
    p = rng.uniform(0, 1, 40) ** 3
    assert np.allclose(adjust(p, "bh").adjusted, stats.false_discovery_control(p, method="bh"), atol=1e-12)
    assert np.allclose(adjust(p, "by").adjusted, stats.false_discovery_control(p, method="by"), atol=1e-12)


def test_adjust_result_object() -> None:
    r = adjust([0.01, 0.04, 0.03], method="holm")
    assert np.allclose(np.asarray(r), [0.03, 0.06, 0.06])
    assert r[0] == pytest.approx(0.03) and len(r) == 3
    assert r.reject.tolist() == [True, False, False]
    d = json.loads(r.to_json())
    assert d["method"] == "holm" and d["reject"] == [True, False, False]
    assert adjust([], "bh").adjusted.size == 0
    assert adjust(0.2, "bonferroni").adjusted.tolist() == [0.2]
    assert adjust([0.6, 0.9], "bonferroni").adjusted.tolist() == [1.0, 1.0]  # capped at 1


@pytest.mark.parametrize("bad", [[0.1, float("nan")], [0.1, -0.01], [1.5], [0.2, float("inf")]])
def test_invalid_pvalues_raise(bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="p-value 1|p-value 0"):
        adjust(bad, "holm")
    with pytest.raises(InputError):
        replicability(bad)


def test_invalid_arguments() -> None:
    with pytest.raises(InputError, match="unknown correction"):
        adjust([0.1], "sidak-ish")
    with pytest.raises(InputError, match="alpha"):
        adjust([0.1], "holm", alpha=0)
    with pytest.raises(InputError, match="flat"):
        adjust([[0.1, 0.2]], "holm")
    with pytest.raises(InputError, match="names"):
        replicability([0.1, 0.2], names=["a"])
    with pytest.raises(InputError, match="bonferroni' or 'fisher"):
        replicability([0.1], method="stouffer")
    with pytest.raises(InputError, match="at least one"):
        replicability([])


DROR = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]


def test_replicability_bonferroni_worked_by_hand() -> None:
    # Sorted: 0.001, 0.019, 0.168, 0.218, 0.297, 0.357; N = 6.
    # p^{u/N} = (N - u + 1) * p_(u):  u=1: 6*0.001 = 0.006;  u=2: 5*0.019 = 0.095;
    # u=3: 4*0.168 = 0.672; u=4: 3*0.218 = 0.654 -> running max 0.672; u=5: 2*0.297 = 0.594 -> 0.672;
    # u=6: 1*0.357 -> 0.672.  Only u=1 is <= 0.05, so k-hat = 1; Holm rejects only 0.001 (index 5).
    r = replicability(DROR, alpha=0.05, method="bonferroni", names=list("ABCDEF"))
    assert r.k_estimate == 1
    assert np.allclose(r.partial_conjunction, [0.006, 0.095, 0.672, 0.672, 0.672, 0.672])
    assert r.identified == (5,) and r.identified_names == ("F",)
    assert "k̂ = 1 of 6" in str(r)
    json.loads(r.to_json())
    # at alpha = 0.1 the second dataset joins: 0.095 <= 0.1, and Holm: 0.019 <= 0.1/5
    r = replicability(DROR, alpha=0.1)
    assert r.k_estimate == 2 and r.identified == (5, 3)


def test_replicability_fisher_worked_by_hand() -> None:
    # u=1: -2 * sum(log p) over all six = 32.8443, chi-square with 12 df:
    #      exp(-16.4222) * sum_{j<6} 16.4222^j / j! = 0.0010237
    # u=2: drop 0.001: statistic 19.0288 on 10 df: exp(-9.5144) * sum_{j<5} 9.5144^j/j! = 0.039898
    # u=3: drop 0.019: statistic 11.1022 on 8 df: exp(-5.5511) * sum_{j<4} 5.5511^j/j! = 0.19598
    # so k-hat = 2 at alpha = 0.05 (identification by Holm is still only index 5).
    r = replicability(DROR, alpha=0.05, method="fisher")
    assert r.k_estimate == 2
    assert r.partial_conjunction[0] == pytest.approx(0.0010237, rel=1e-4)
    assert r.partial_conjunction[1] == pytest.approx(0.039898, rel=1e-4)
    assert r.partial_conjunction[2] == pytest.approx(0.19598, rel=1e-4)
    assert r.identified == (5,)
    # and the chi-square tails equal scipy's to 1e-12
    desc = sorted(DROR, reverse=True)
    for u in range(1, 7):
        top = desc[: 6 - u + 1]
        want = stats.chi2.sf(-2 * np.sum(np.log(top)), 2 * len(top))
        assert abs(max(want, r.partial_conjunction[u - 2] if u > 1 else 0) - r.partial_conjunction[u - 1]) < 1e-12


def test_replicability_edge_cases() -> None:
    r = replicability([0.0, 0.0, 0.5], method="fisher")
    assert r.partial_conjunction[0] == 0.0 and r.k_estimate == 2
    r = replicability([1.0, 1.0])
    assert r.k_estimate == 0 and r.identified == ()
    r = replicability([0.01])
    assert r.k_estimate == 1 and r.identified == (0,)
    for v in replicability(np.linspace(0.001, 1, 50), method="fisher").partial_conjunction:
        assert 0.0 <= v <= 1.0 and not math.isnan(v)
