"""Classical tests against scipy / statsmodels on hundreds of random inputs.

Expected values are produced in-test by the references installed as test
dependencies (scipy 1.17.1, statsmodels 0.15.0 when this was written); the
mid-p McNemar test, which neither implements, is checked against a direct
computation from scipy.stats.binom's pmf and cdf (Fagerland et al. 2013:
2·[P(C ≤ m) − P(C = m)/2]), as in Gorman & Bedrick's own code.
"""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

from sigfast.exceptions import InputError
from sigfast.inference.classical import (
    TestResult,
    _betainc,
    _binom_pmf,
    _ndtri,
    _t_ppf,
    binomial_test,
    mann_whitney_u,
    mcnemar,
    paired_ttest,
    sign_test,
    welch_ttest,
    wilcoxon,
)

stats = pytest.importorskip("scipy.stats")
sm_ct = pytest.importorskip("statsmodels.stats.contingency_tables")

TOL = 1e-10
ALTS = ("two-sided", "greater", "less")


def close(a: float, b: float, tol: float = TOL) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol


# ----------------------------------------------------------------- special functions


def test_special_functions_match_scipy() -> None:
    rng = np.random.default_rng(11)
    special = pytest.importorskip("scipy.special")
    for _ in range(300):
        p = float(rng.uniform(1e-12, 1 - 1e-12)) if rng.random() < 0.8 else float(10 ** rng.uniform(-300, -1))
        assert abs(_ndtri(p) - special.ndtri(p)) <= 1e-12 * max(1, abs(special.ndtri(p)))
        a, b = float(10 ** rng.uniform(-1, 5)), float(10 ** rng.uniform(-1, 5))
        x = float(rng.uniform(0, 1))
        assert abs(_betainc(a, b, x) - special.betainc(a, b, x)) <= TOL
        df = float(10 ** rng.uniform(0, 5))
        q = float(rng.uniform(0.5, 0.9999))
        assert abs(_t_ppf(q, df) - stats.t.ppf(q, df)) <= 1e-9 * max(1.0, abs(stats.t.ppf(q, df)))
        n = int(rng.integers(1, 200_000))
        k = int(rng.integers(0, n + 1))
        pp = float(rng.uniform(0.001, 0.999))
        ref = stats.binom.pmf(k, n, pp)
        assert abs(_binom_pmf(k, n, pp) - ref) <= 1e-10 * ref + 1e-300  # relative, even far in the tail


# ----------------------------------------------------------------- binomial / McNemar / sign


def test_binomial_test_matches_scipy() -> None:
    rng = np.random.default_rng(1)
    for _ in range(300):
        n = int(rng.integers(1, 5000)) if rng.random() < 0.7 else int(rng.integers(1, 30))
        k = int(rng.integers(0, n + 1))
        p = float(rng.uniform(0.01, 0.99)) if rng.random() < 0.7 else 0.5
        for alt in ALTS:
            ours = binomial_test(k, n, p, alternative=alt).pvalue
            ref = stats.binomtest(k, n, p, alternative=alt).pvalue
            assert close(ours, ref), (k, n, p, alt, ours, ref)


def _table(rng: np.random.Generator) -> list[list[int]]:
    hi = int(rng.choice([5, 50, 500, 5000]))
    b, c = int(rng.integers(0, hi)), int(rng.integers(0, hi))
    return [[int(rng.integers(0, 1000)), b], [c, int(rng.integers(0, 100))]]


def test_mcnemar_matches_statsmodels_and_direct_midp() -> None:
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(400):
        t = _table(rng)
        b, c = t[0][1], t[1][0]
        nd = b + c
        if nd == 0:
            continue
        checked += 1
        ref = sm_ct.mcnemar(t, exact=True)
        r = mcnemar(t, method="exact")
        assert close(r.pvalue, ref.pvalue) and r.statistic == ref.statistic
        r = mcnemar(t, method="asymptotic", correction=False)
        ref = sm_ct.mcnemar(t, exact=False, correction=False)
        assert close(r.pvalue, ref.pvalue) and close(r.statistic, ref.statistic)
        if b != c:  # statsmodels does not clamp (|b-c| - 1) at 0 when b == c
            r = mcnemar(t, method="asymptotic", correction=True)
            ref = sm_ct.mcnemar(t, exact=False, correction=True)
            assert close(r.pvalue, ref.pvalue) and close(r.statistic, ref.statistic)
        # mid-p: direct computation from the binomial pmf / cdf
        m = min(b, c)
        mid = 2 * stats.binom.cdf(m, nd, 0.5) - stats.binom.pmf(m, nd, 0.5)
        assert close(mcnemar(t).pvalue, min(1.0, mid))
        assert close(
            mcnemar(t, alternative="greater").pvalue, stats.binom.sf(c, nd, 0.5) + 0.5 * stats.binom.pmf(c, nd, 0.5)
        )
        assert close(
            mcnemar(t, alternative="less").pvalue, stats.binom.cdf(c, nd, 0.5) - 0.5 * stats.binom.pmf(c, nd, 0.5)
        )
        # one-sided exact: binomial tails of c
        for alt in ("greater", "less"):
            assert close(
                mcnemar(t, method="exact", alternative=alt).pvalue, stats.binomtest(c, nd, 0.5, alternative=alt).pvalue
            )
        # one-sided asymptotic: normal tail of z = (c - b -/+ 1)/sqrt(b + c)
        z = (c - b - 1) / math.sqrt(nd)
        assert close(mcnemar(t, method="asymptotic", alternative="greater").pvalue, stats.norm.sf(z))
        z = (c - b + 1) / math.sqrt(nd)
        assert close(mcnemar(t, method="asymptotic", alternative="less").pvalue, stats.norm.cdf(z))
    assert checked > 300


def test_mcnemar_from_vectors_and_orientation() -> None:
    rng = np.random.default_rng(3)
    x = rng.random(2000) < 0.8
    y = rng.random(2000) < 0.85
    r = mcnemar(x.astype(int), y.astype(int))
    b = int(np.sum(x & ~y))
    c = int(np.sum(~x & y))
    assert (r.details["b"], r.details["c"]) == (b, c)
    assert r.effect_size == pytest.approx((c - b) / 2000)
    assert r.n == 2000
    t = [[int(np.sum(x & y)), b], [c, int(np.sum(~x & ~y))]]
    assert mcnemar(t).pvalue == r.pvalue
    # swapping the systems mirrors the one-sided p-values
    assert mcnemar(y, x, alternative="greater").pvalue == pytest.approx(mcnemar(x, y, alternative="less").pvalue)
    json.loads(r.to_json())
    assert isinstance(r, TestResult) and "mcnemar" in str(r)


def test_mcnemar_edge_cases() -> None:
    # no discordant pairs: p = 1, not NaN, for every method
    for method in ("mid-p", "exact", "asymptotic"):
        for alt in ALTS:
            r = mcnemar([1, 0, 1], [1, 0, 1], method=method, alternative=alt)
            assert r.pvalue == 1.0 and r.statistic == 0.0
    # b == c: every two-sided variant gives p = 1 (corrected chi-square clamped at 0)
    for method in ("mid-p", "exact", "asymptotic"):
        assert mcnemar([[3, 4], [4, 2]], method=method).pvalue == pytest.approx(1.0)
    # n = 1: one discordant pair; mid-p = 2 (P(C <= 0) - P(C = 0)/2) = 0.5, exact = 1
    assert mcnemar([1], [0]).pvalue == pytest.approx(0.5)
    assert mcnemar([1], [0], method="exact").pvalue == 1.0
    with pytest.raises(InputError, match="0 or 1"):
        mcnemar([0, 2], [1, 1])
    with pytest.raises(InputError, match="same items"):
        mcnemar([0, 1], [1])
    with pytest.raises(InputError, match="method"):
        mcnemar([0, 1], [1, 1], method="fisher")
    with pytest.raises(InputError, match="2x2"):
        mcnemar([[1, 2, 3]])
    with pytest.raises(InputError, match="finite"):
        mcnemar([0, float("nan")], [1, 1])


def test_mcnemar_130k_tokens_takes_milliseconds() -> None:
    rng = np.random.default_rng(4)
    x = rng.random(130_000) < 0.970
    y = rng.random(130_000) < 0.972
    mcnemar(x, y)
    best = min(_timed(lambda: mcnemar(x, y)) for _ in range(5))
    assert best < 0.05, best  # typically ~2 ms


def _timed(f) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def test_sign_test_matches_scipy_and_statsmodels() -> None:
    descr = pytest.importorskip("statsmodels.stats.descriptivestats")
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(1, 200))
        x = rng.integers(0, 5, n).astype(float)
        y = rng.integers(0, 5, n).astype(float)
        d = y - x
        npos, nneg = int((d > 0).sum()), int((d < 0).sum())
        for alt in ALTS:
            r = sign_test(x, y, alternative=alt)
            if npos + nneg == 0:
                assert r.pvalue == 1.0 and r.effect_size == 0.0
                continue
            assert close(r.pvalue, stats.binomtest(npos, npos + nneg, 0.5, alternative=alt).pvalue)
        if npos + nneg:
            assert close(sign_test(x, y).pvalue, descr.sign_test(d, 0)[1])


# ----------------------------------------------------------------- t-tests


def test_paired_ttest_matches_scipy() -> None:
    rng = np.random.default_rng(6)
    for _ in range(300):
        n = int(rng.integers(2, 500))
        x = rng.normal(0.6, 0.2, n)
        y = x + rng.normal(float(rng.normal(0, 0.05)), float(rng.uniform(0.01, 0.3)), n)
        cl = float(rng.choice([0.9, 0.95, 0.99]))
        for alt in ALTS:
            r = paired_ttest(x, y, alternative=alt, confidence_level=cl)
            ref = stats.ttest_rel(y, x, alternative=alt)
            assert close(r.statistic, ref.statistic) and close(r.pvalue, ref.pvalue)
            assert r.df == ref.df
            ci = ref.confidence_interval(cl)
            assert close(r.confidence_interval.low, ci.low) and close(r.confidence_interval.high, ci.high)
            d = y - x
            assert r.effect_size == pytest.approx(d.mean() / d.std(ddof=1))


def test_welch_and_student_match_scipy() -> None:
    rng = np.random.default_rng(7)
    for _ in range(150):
        n1, n2 = int(rng.integers(2, 300)), int(rng.integers(2, 300))
        x = rng.normal(0.5, float(rng.uniform(0.05, 0.5)), n1)
        y = rng.normal(0.5 + float(rng.normal(0, 0.05)), float(rng.uniform(0.05, 0.5)), n2)
        for ev in (False, True):
            for alt in ALTS:
                r = welch_ttest(x, y, equal_var=ev, alternative=alt)
                ref = stats.ttest_ind(y, x, equal_var=ev, alternative=alt)
                assert close(r.statistic, ref.statistic) and close(r.pvalue, ref.pvalue)
                assert close(r.df, ref.df)
                ci = ref.confidence_interval(0.95)
                assert close(r.confidence_interval.low, ci.low) and close(r.confidence_interval.high, ci.high)


def test_ttest_edge_cases() -> None:
    # all items tied: scipy gives NaN; we give t = 0, p = 1
    r = paired_ttest([0.5, 0.7, 0.9], [0.5, 0.7, 0.9])
    assert r.statistic == 0.0 and r.pvalue == 1.0
    r = paired_ttest([0.5, 0.75, 1.0], [1.0, 1.25, 1.5])  # constant gain, exact in binary
    assert r.pvalue == 0.0 and r.statistic == math.inf
    assert paired_ttest([0.5, 0.75], [1.0, 1.25], alternative="less").pvalue == 1.0
    with pytest.raises(InputError, match="at least 2"):
        paired_ttest([1.0], [2.0])
    with pytest.raises(InputError, match="at least 2"):
        welch_ttest([1.0], [2.0, 3.0])
    r = welch_ttest([1.0, 1.0], [1.0, 1.0])
    assert r.pvalue == 1.0 and not math.isnan(r.statistic)
    # one-sided intervals are open on one end; JSON writes the infinite end as null
    r = paired_ttest([0.1, 0.4, 0.3], [0.2, 0.6, 0.3], alternative="greater")
    assert r.confidence_interval.high == math.inf
    d = json.loads(r.to_json())
    assert d["confidence_interval"]["high"] is None and d["details"]["df"] == 2.0


# ----------------------------------------------------------------- rank tests


def _paired_sample(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = int(rng.choice([int(rng.integers(1, 14)), int(rng.integers(14, 51)), int(rng.integers(51, 200))]))
    x = rng.normal(0.0, 1.0, n)
    y = x + rng.normal(float(rng.normal(0, 0.3)), 1.0, n)
    if rng.random() < 0.5:  # ties and zero differences
        x, y = np.round(x), np.round(y)
    return x, y


def test_wilcoxon_matches_scipy() -> None:
    rng = np.random.default_rng(8)
    seen = set()
    permutation_cases = 0
    for _ in range(300):
        x, y = _paired_sample(rng)
        if np.all(x == y):
            continue
        d = y - x
        tied = np.unique(np.abs(d)).size < d.size or (d == 0).any()
        if d.size <= 13 and tied:
            # scipy enumerates 2^n sign flips here (~0.3 s a call): a dozen samples, one configuration each
            if permutation_cases >= 12:
                continue
            permutation_cases += 1
            combos = [(str(rng.choice(["wilcox", "pratt", "zsplit"])), str(rng.choice(ALTS)), False, "auto")]
        else:
            combos = [
                (zm, alt, corr, method)
                for zm in ("wilcox", "pratt", "zsplit")
                for alt in ALTS
                for corr in (False, True)
                for method in ("auto", "asymptotic")
            ]
            combos = [combos[i] for i in rng.choice(len(combos), 8, replace=False)]
        for zm, alt, corr, method in combos:
            ref = stats.wilcoxon(y, x, zero_method=zm, correction=corr, alternative=alt, method=method)
            if np.isnan(ref.pvalue):
                continue
            r = wilcoxon(x, y, zero_method=zm, correction=corr, alternative=alt, method=method)
            assert close(r.pvalue, ref.pvalue), (x, y, zm, alt, corr, method, r.pvalue, ref.pvalue)
            assert close(r.statistic, ref.statistic)
            seen.add(r.variant)
    assert permutation_cases >= 12
    assert {"exact", "exact-conditional", "asymptotic"} <= seen


def test_wilcoxon_exact_without_ties_matches_scipy_exact() -> None:
    rng = np.random.default_rng(9)
    for _ in range(200):
        n = int(rng.integers(1, 60))
        d = rng.permutation(np.arange(1, n + 1)) * rng.choice([-1.0, 1.0], n)
        x = np.zeros(n)
        for alt in ALTS:
            ref = stats.wilcoxon(d, x, alternative=alt, method="exact")
            r = wilcoxon(x, d, alternative=alt, method="exact")
            assert close(r.pvalue, ref.pvalue)


def test_wilcoxon_edge_cases() -> None:
    r = wilcoxon([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])  # all zero differences
    assert r.pvalue == 1.0 and r.effect_size == 0.0
    r = wilcoxon([1.0], [2.0])  # n = 1: exact, p = 1 two-sided
    assert r.pvalue == 1.0
    assert wilcoxon([1.0], [2.0], alternative="greater").pvalue == 0.5
    with pytest.raises(InputError, match="zero_method"):
        wilcoxon([1.0], [2.0], zero_method="drop")


def test_mann_whitney_matches_scipy() -> None:
    rng = np.random.default_rng(10)
    seen = set()
    for _ in range(150):
        n1 = int(rng.choice([int(rng.integers(1, 9)), int(rng.integers(9, 100))]))
        n2 = int(rng.choice([int(rng.integers(1, 9)), int(rng.integers(9, 100))]))
        x = rng.normal(0, 1, n1)
        y = rng.normal(float(rng.normal(0, 0.5)), 1, n2)
        if rng.random() < 0.4:
            x, y = np.round(x), np.round(y)
        for alt in ALTS:
            for cont in (True, False):
                for method in ("auto", "asymptotic", "exact"):
                    if method == "exact" and min(n1, n2) > 12:
                        continue
                    ref = stats.mannwhitneyu(y, x, use_continuity=cont, alternative=alt, method=method)
                    if np.isnan(ref.pvalue):
                        continue
                    r = mann_whitney_u(x, y, use_continuity=cont, alternative=alt, method=method)
                    assert close(r.pvalue, ref.pvalue), (x, y, alt, cont, method)
                    assert r.statistic == ref.statistic
                    seen.add(r.variant)
    assert seen == {"exact", "asymptotic"}


def test_mann_whitney_edge_cases() -> None:
    r = mann_whitney_u([1.0, 1.0], [1.0, 1.0, 1.0])  # all tied: p = 1, not NaN
    assert r.pvalue == 1.0
    r = mann_whitney_u([1.0], [2.0])
    assert r.pvalue == 1.0 and r.effect_size == 1.0
    with pytest.raises(InputError, match="at least one"):
        mann_whitney_u([], [1.0])


# ----------------------------------------------------------------- CLI hook


def test_cli_hook(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from sigfast.cli import main

    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("1\n1\n0\n1\n0\n")
    b.write_text("1\n1\n1\n1\n1\n")
    assert main(["mcnemar", str(a), str(b), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["details"]["c"] == 2 and out[0]["details"]["b"] == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n2\n")
    assert main(["mcnemar", str(a), str(bad)]) == 1
    assert "bad.txt, line 2" in capsys.readouterr().err
    short = tmp_path / "short.txt"
    short.write_text("1\n")
    assert main(["mcnemar", str(a), str(short)]) == 1
    assert "different numbers of items" in capsys.readouterr().err
    several = tmp_path / "several.txt"  # the tsv format: one item per line
    several.write_text("1 1 1 1 1\n")
    assert main(["mcnemar", str(a), str(several)]) == 1
    assert "5 values per line; write one 0/1 per item" in capsys.readouterr().err


def test_wilcoxon_exact_conditional_equals_enumeration() -> None:
    # Brute force over all 2^n sign flips of the observed differences (what scipy's
    # PermutationMethod enumerates for n <= 13), for each zero_method.
    rng = np.random.default_rng(12)
    for _ in range(60):
        n = int(rng.integers(1, 11))
        d = np.round(rng.normal(0, 1.5, n))
        if np.all(d == 0):
            continue
        zm = str(rng.choice(["wilcox", "pratt", "zsplit"]))
        dd = d[d != 0] if zm == "wilcox" else d
        ranks = stats.rankdata(np.abs(dd))
        signs = np.array([[1 if (m >> i) & 1 else -1 for i in range(dd.size)] for m in range(1 << dd.size)])
        flipped = signs * np.abs(dd)
        rp = ((flipped > 0) * ranks).sum(1)
        if zm == "zsplit":
            rp = rp + ranks[dd == 0].sum() / 2
        obs = ranks[dd > 0].sum() + (ranks[dd == 0].sum() / 2 if zm == "zsplit" else 0)
        le, ge = np.mean(rp <= obs + 1e-9), np.mean(rp >= obs - 1e-9)
        want = {"less": le, "greater": ge, "two-sided": min(1.0, 2 * min(le, ge))}
        for alt in ALTS:
            r = wilcoxon(np.zeros(n), d, zero_method=zm, alternative=alt, method="exact")
            assert close(r.pvalue, want[alt]), (d, zm, alt)


def test_mcnemar_on_real_sst2_outputs() -> None:
    # SST-2 test set, CNN vs LSTM classifiers (shared/data/text_classification/sst2_explainaboard,
    # from neulab/ExplainaBoard); SOURCE.md gives accuracies cnn 85.72 %, lstm 88.03 %.
    from pathlib import Path

    from sigfast.inference.intervals import wilson_interval

    root = Path(__file__).resolve().parents[2] / "shared" / "data" / "text_classification" / "sst2_explainaboard"
    if not root.is_dir():
        pytest.skip("shared data not available")
    gold = [line.rstrip("\n").split("\t")[-1] for line in (root / "sst2-dataset.tsv").read_text().splitlines()]
    cnn = (root / "sst2-cnn-output.txt").read_text().split()
    lstm = (root / "sst2-lstm-output.txt").read_text().split()
    assert len(gold) == len(cnn) == len(lstm) == 1821
    x = np.array([g == s for g, s in zip(gold, cnn)])
    y = np.array([g == s for g, s in zip(gold, lstm)])
    assert round(100 * x.mean(), 2) == 85.72 and round(100 * y.mean(), 2) == 88.03
    r = mcnemar(x, y)
    b, c = r.details["b"], r.details["c"]
    nd = b + c
    m = min(b, c)
    assert close(r.pvalue, 2 * stats.binom.cdf(m, nd, 0.5) - stats.binom.pmf(m, nd, 0.5))
    table = [[int(np.sum(x & y)), b], [c, int(np.sum(~x & ~y))]]
    assert close(mcnemar(x, y, method="exact").pvalue, sm_ct.mcnemar(table, exact=True).pvalue)
    assert close(mcnemar(x, y, method="asymptotic").pvalue, sm_ct.mcnemar(table, exact=False).pvalue)
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    for v in (x, y):
        lo, hi = wilson_interval(int(v.sum()), v.size)
        rlo, rhi = proportion.proportion_confint(int(v.sum()), v.size, method="wilson")
        assert close(lo, rlo) and close(hi, rhi)
