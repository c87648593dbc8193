"""Small-sample intervals: Jeffreys and Beta-binomial for one model, Newcombe, Tango and Bonett-Price for two
models on the same binary items; each against an independent reference to 1e-10."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.exceptions import InputError
from sigfast.inference.paired_binary import bonett_price_interval, newcombe_interval, tango_interval

PEER = Path(__file__).parent / "data" / "peer" / "evalstats_paired.json"
FUNCS = {"newcombe": newcombe_interval, "tango": tango_interval, "bonett-price": bonett_price_interval}
GRID = [(k, n) for n in (1, 2, 5, 10, 30, 100, 300, 1000, 10_000) for k in sorted({0, 1, n // 3, n // 2, n - 1, n})]


# --------------------------------------------------------------------------------------------
# one model


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99, 0.999])
def test_jeffreys_equals_statsmodels(level: float) -> None:
    proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint
    for k, n in GRID:
        lo, hi = sigfast.jeffreys_interval(k, n, level)
        ref = proportion_confint(k, n, 1 - level, method="jeffreys")
        assert abs(lo - ref[0]) < 1e-10 and abs(hi - ref[1]) < 1e-10, (k, n, level)
        assert sigfast.proportion_interval(k, n, level, method="jeffreys") == (lo, hi)


@pytest.mark.parametrize("prior", [(1.0, 1.0), (0.5, 0.5), (2.0, 3.0), (0.1, 5.0)])
def test_beta_binomial_is_the_posterior_interval(prior: tuple[float, float]) -> None:
    beta = pytest.importorskip("scipy.stats").beta
    a, b = prior
    for k, n in GRID:
        for level in (0.9, 0.95, 0.99):
            lo, hi = sigfast.beta_binomial_interval(k, n, level, prior=prior)
            post = beta(k + a, n - k + b)
            assert abs(lo - post.ppf((1 - level) / 2)) < 1e-10 and abs(hi - post.ppf((1 + level) / 2)) < 1e-10
    assert sigfast.proportion_interval(3, 10, method="bayes", prior=prior) == sigfast.beta_binomial_interval(
        3, 10, prior=prior
    )


def test_beta_binomial_default_prior_is_uniform() -> None:
    assert sigfast.beta_binomial_interval(7, 30) == sigfast.beta_binomial_interval(7, 30, prior=(1, 1))
    with pytest.raises(InputError, match="prior"):
        sigfast.beta_binomial_interval(7, 30, prior=(0, 1))
    with pytest.raises(InputError, match="unknown proportion interval"):
        sigfast.proportion_interval(7, 30, method="jefreys")


# --------------------------------------------------------------------------------------------
# two models on the same items


def test_paired_intervals_equal_evalstats() -> None:
    """evalstats 0.3.3's own functions on the same tables (scripts/peer_evalstats_paired.py wrote the file)."""
    doc = json.loads(PEER.read_text())
    assert doc["tool"] == "evalstats 0.3.3" and len(doc["cases"]) >= 100
    for case in doc["cases"]:
        (n11, b), (c, n00) = case["table"]
        for method, f in FUNCS.items():
            lo, hi = f(n11, b, c, n00, case["confidence_level"])
            ref = case[method]
            assert abs(lo - ref[0]) < 1e-10 and abs(hi - ref[1]) < 1e-10, (method, case)


def _tango_oracle(n11: int, b: int, c: int, n00: int, level: float) -> tuple[float, float]:
    """Tango (1998) from the paper with scipy: the restricted MLE p21 of "only x right" from the score equation
    of the multinomial likelihood (solved by brentq, not by the closed-form quadratic), and the ends where the
    score statistic equals -/+ z (brentq)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    n = n11 + b + c + n00
    z = norm.ppf((1 + level) / 2)

    def p21(delta: float) -> float:
        # d/dp log L(p) = c/(p + delta) + b/p - 2 (n - b - c)/(1 - 2p - delta) = 0 on p > max(0, -delta)
        lo, hi = max(0.0, -delta), (1.0 - delta) / 2.0
        if b == 0 and c == 0:
            return lo
        ties = n - b - c

        def score(p: float) -> float:
            return c / (p + delta) + b / p - 2 * ties / (1 - 2 * p - delta)

        eps = 1e-15
        a, z_ = lo + eps * max(1, abs(lo)), hi - eps
        # the log-likelihood is concave: its derivative falls; the maximum is at an end where it does not cross 0
        if score(a) <= 0:
            return lo
        if ties == 0 or score(z_) >= 0:
            return hi
        return brentq(score, a, z_, xtol=1e-16, rtol=1e-15)

    def t(delta: float) -> float:
        return (c - b - n * delta) / math.sqrt(n * (2 * p21(delta) + delta * (1 - delta)))

    d = (c - b) / n
    eps = 1e-12
    lo = -1.0 if b == n else brentq(lambda v: t(v) - z, -1 + eps, d, xtol=1e-15, rtol=1e-15)
    hi = 1.0 if c == n else brentq(lambda v: t(v) + z, d, 1 - eps, xtol=1e-15, rtol=1e-15)
    return lo, hi


@pytest.mark.parametrize(
    "table", [(1, 1, 7, 12), (12, 3, 9, 6), (80, 5, 12, 3), (200, 14, 31, 55), (40, 0, 3, 17), (5, 2, 0, 1)]
)
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_tango_solves_the_papers_score_equation(table: tuple[int, int, int, int], level: float) -> None:
    pytest.importorskip("scipy")
    lo, hi = tango_interval(*table, level)
    ref = _tango_oracle(*table, level)
    assert abs(lo - ref[0]) < 1e-10 and abs(hi - ref[1]) < 1e-10, (table, (lo, hi), ref)


def _bonett_price_oracle(n11: int, b: int, c: int, n00: int, level: float) -> tuple[float, float]:
    from scipy.stats import norm

    n = n11 + b + c + n00
    z = norm.ppf((1 + level) / 2)
    p12, p21 = (c + 1) / (n + 2), (b + 1) / (n + 2)  # Bonett & Price (2012), eq. 6: add one to each discordant cell
    d = p12 - p21
    se = math.sqrt((p12 + p21 - d * d) / (n + 2))
    return max(d - z * se, -1.0), min(d + z * se, 1.0)


def test_bonett_price_matches_the_paper_formula() -> None:
    pytest.importorskip("scipy")
    rng = np.random.default_rng(5)
    for _ in range(200):
        t = rng.multinomial(int(rng.integers(1, 500)), rng.dirichlet(np.ones(4)))
        for level in (0.9, 0.95):
            lo, hi = bonett_price_interval(*map(int, t), level)
            ref = _bonett_price_oracle(*map(int, t), level)
            assert abs(lo - ref[0]) < 1e-12 and abs(hi - ref[1]) < 1e-12


def test_vectors_and_table_agree_and_orientation_is_y_minus_x() -> None:
    rng = np.random.default_rng(3)
    x = (rng.random(120) < 0.55).astype(int)
    y = (rng.random(120) < 0.7).astype(int)
    r = sigfast.paired_proportion_interval(x, y, method="tango", systems=("base", "new"))
    n11, b = int(((x == 1) & (y == 1)).sum()), int(((x == 1) & (y == 0)).sum())
    c, n00 = int(((x == 0) & (y == 1)).sum()), int(((x == 0) & (y == 0)).sum())
    t = sigfast.paired_proportion_interval([[n11, b], [c, n00]], method="tango", systems=("base", "new"))
    assert r.confidence_interval == t.confidence_interval and r.table == ((n11, b), (c, n00))
    assert r.estimate == pytest.approx(y.mean() - x.mean()) and r.accuracy_y == pytest.approx(y.mean())
    swapped = sigfast.paired_proportion_interval(y, x, method="tango")
    for m in ("newcombe", "tango", "bonett-price"):
        lo, hi = r.intervals[m]
        assert swapped.intervals[m] == pytest.approx((-hi, -lo), abs=1e-12), m
    # McNemar (mid-p) beside the intervals is sigfast.mcnemar's
    assert r.mcnemar_pvalue == sigfast.mcnemar(x, y).pvalue
    assert r.signature.startswith("sigfast:") and "variant:tango" in r.signature and f"b:{b}|c:{c}" in r.signature
    assert len(r.rows()) == 3 and r.rows()[0]["method"] == "tango"
    assert "Tango score interval" in r.format("text")


def test_edges_every_item_discordant_one_way_and_no_discordance() -> None:
    r = sigfast.paired_proportion_interval([[0, 0], [30, 0]])  # y right on every item, x on none
    assert r.estimate == 1.0 and r.intervals["tango"].high == 1.0 and r.intervals["newcombe"].high == 1.0
    r = sigfast.paired_proportion_interval([[10, 0], [0, 20]])  # no discordant item: a real interval around 0
    for m in ("newcombe", "tango", "bonett-price"):
        lo, hi = r.intervals[m]
        assert lo < 0 < hi, m
    assert r.mcnemar_pvalue == 1.0


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="correctness 0 or 1"):
        sigfast.paired_proportion_interval([0, 1, 0.5], [1, 1, 0])
    with pytest.raises(InputError, match="2x2"):
        sigfast.paired_proportion_interval([[1, 2, 3]])
    with pytest.raises(InputError, match="same items"):
        sigfast.paired_proportion_interval([0, 1], [1, 1, 0])
    with pytest.raises(InputError, match="no items"):
        sigfast.paired_proportion_interval([[0, 0], [0, 0]])
    with pytest.raises(InputError, match="unknown paired proportion interval"):
        sigfast.paired_proportion_interval([[1, 2], [3, 4]], method="wald")


# --------------------------------------------------------------------------------------------
# normal intervals warn where they are the wrong tool


def test_normal_interval_warns_on_small_or_degenerate_binary_scores() -> None:
    rng = np.random.default_rng(1)
    x = (rng.random(50) < 0.6).astype(float)
    one = sigfast.standard_error(x)
    assert any("only 50 items" in w and "proportion_interval" in w for w in one.warnings)
    pair = sigfast.standard_error(x, (rng.random(50) < 0.7).astype(float))
    assert any("paired_proportion_interval" in w for w in pair.warnings)
    perfect = sigfast.standard_error(np.ones(300))
    assert perfect.confidence_interval == (1.0, 1.0)
    assert any("scored 0 or 1 on every item" in w and "proportion_interval" in w for w in perfect.warnings)
    assert "warning:" in perfect.format("text")
    ok = sigfast.standard_error(rng.random(300))  # many items, scores inside (0, 1): no warning
    assert ok.warnings == ()
    small = sigfast.standard_error(rng.random(40))  # not binary: the bootstrap is named
    assert any("bootstrap_interval" in w for w in small.warnings)
    lb = sigfast.leaderboard({"a": x, "b": np.ones(50)}, bootstrap=False, pairs="none")
    assert any("b scored 0 or 1" in w for w in lb.warnings) and any("only 50 items" in w for w in lb.warnings)


def test_tango_on_random_tables() -> None:
    pytest.importorskip("scipy")
    rng = np.random.default_rng(11)
    for _ in range(60):
        t = tuple(int(v) for v in rng.multinomial(int(rng.integers(5, 400)), rng.dirichlet(np.ones(4))))
        lo, hi = tango_interval(*t, 0.95)
        ref = _tango_oracle(*t, 0.95)
        assert abs(lo - ref[0]) < 1e-10 and abs(hi - ref[1]) < 1e-10, (t, (lo, hi), ref)
