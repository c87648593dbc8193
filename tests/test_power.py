"""Power / test-set size by simulation (Berg-Kirkpatrick et al. 2012, §4.1).

The simulated McNemar power is checked against the exact power of the same
model, computed in-test by summing scipy.stats.binom probabilities over the
number of discordant pairs d and the candidate's wins c, with the mid-p or
exact rejection rule written out from scipy's binomial cdf/pmf.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sigfast.exceptions import InputError
from sigfast.power import bootstrap_power, bootstrap_sample_size, mcnemar_power, mcnemar_sample_size

stats = pytest.importorskip("scipy.stats")


def exact_power(n: int, gain: float, disc: float, alpha: float, method: str, alternative: str) -> float:
    share = 0.5 * (1 + gain / disc)
    ds = np.arange(n + 1)
    wd = stats.binom.pmf(ds, n, disc)
    total = 0.0
    for d in ds[wd > 1e-14]:
        c = np.arange(d + 1)
        if d == 0:
            p = np.ones(1)
        elif alternative == "greater":
            p = stats.binom.sf(c - 1, d, 0.5) - (0.5 * stats.binom.pmf(c, d, 0.5) if method == "mid-p" else 0)
        else:
            m = np.minimum(c, d - c)
            if method == "mid-p":
                p = 2 * stats.binom.cdf(m, d, 0.5) - stats.binom.pmf(m, d, 0.5)
            else:
                p = np.minimum(1.0, 2 * stats.binom.cdf(m, d, 0.5))
        total += wd[d] * float(np.sum(stats.binom.pmf(c, d, share)[p <= alpha]))
    return total


@pytest.mark.parametrize(
    "method,alternative", [("mid-p", "two-sided"), ("exact", "two-sided"), ("exact", "greater"), ("mid-p", "greater")]
)
def test_simulated_power_matches_exact_power(method: str, alternative: str) -> None:
    n, gain, disc, sims = 1500, 0.015, 0.06, 4000
    sim = mcnemar_power(n, gain, disc, method=method, alternative=alternative, n_simulations=sims, seed=3)
    ex = exact_power(n, gain, disc, 0.05, method, alternative)
    assert abs(sim - ex) < 4 * math.sqrt(ex * (1 - ex) / sims), (sim, ex)


def test_mcnemar_sample_size() -> None:
    gain, disc = 0.01, 0.04
    r = mcnemar_sample_size(gain, disc, power=0.8, n_simulations=2000, seed=7)
    assert r.n is not None and r.power is not None and r.power >= 0.8
    curve = dict(r.curve)
    lower = max(n for n in curve if n < r.n)
    assert curve[lower] < 0.8 and r.n - lower <= max(1, 0.01 * r.n)  # the bracket's lower end fails
    # the exact power agrees with the target within the simulation's resolution
    ex = exact_power(r.n, gain, disc, 0.05, "mid-p", "two-sided")
    assert abs(ex - 0.8) < 0.04, ex
    assert exact_power(int(r.n * 0.85), gain, disc, 0.05, "mid-p", "two-sided") < 0.8
    # deterministic for a seed, and serializable
    again = mcnemar_sample_size(gain, disc, power=0.8, n_simulations=2000, seed=7)
    assert again == r
    d = json.loads(r.to_json())
    assert d["n"] == r.n and d["test"] == "mcnemar"
    assert "items give power" in str(r)
    # a bigger gain needs fewer items; one-sided needs fewer than two-sided
    assert mcnemar_sample_size(0.02, disc, n_simulations=1000).n < r.n
    assert mcnemar_sample_size(gain, disc, n_simulations=2000, seed=7, alternative="greater").n < r.n


def test_sample_size_not_reached_and_errors() -> None:
    r = mcnemar_sample_size(0.001, 0.5, n_simulations=200, max_n=1000)
    assert r.n is None and r.power is None and "not reached" in str(r)
    with pytest.raises(InputError, match="discordance"):
        mcnemar_power(100, 0.1, 0.05)
    with pytest.raises(InputError, match="discordance"):
        mcnemar_sample_size(0.01, 0.0)
    with pytest.raises(InputError, match="power"):
        mcnemar_sample_size(0.01, 0.05, power=1.0)
    with pytest.raises(InputError, match="alpha"):
        mcnemar_power(100, 0.01, 0.05, alpha=0)
    with pytest.raises(InputError, match="method"):
        mcnemar_power(100, 0.01, 0.05, method="z")
    with pytest.raises(InputError):
        bootstrap_power(100)
    with pytest.raises(InputError, match="pool"):
        bootstrap_power(100, 0.01, 0.05, x=[1.0], y=[0.0])


def test_no_gain_is_reached_at_no_size_without_simulating() -> None:
    """With a gain of 0 the bootstrap rejects at about alpha at every size, so a target power above
    alpha is never reached: the answer comes at once (it used to simulate up to max_n = 10^7 items)."""
    r = bootstrap_sample_size(0.0, 0.55, n_resamples=50, n_simulations=20)
    assert r.n is None and r.power is None and r.curve == ()
    assert "reached at no test size" in str(r)
    # the simulation agrees: at gain 0 the power is about alpha, far below the target 0.8
    assert bootstrap_power(2000, 0.0, 0.55, n_resamples=200, n_simulations=200) < 0.2


def test_bootstrap_sample_size_accuracy_model() -> None:
    r = bootstrap_sample_size(0.02, 0.06, power=0.8, n_simulations=100, n_resamples=300, seed=1)
    assert r.n is not None and r.power >= 0.8 and r.test == "paired_bootstrap"
    # the BK bootstrap is one-sided at alpha: close to McNemar's one-sided exact test at that size
    ex = exact_power(r.n, 0.02, 0.06, 0.05, "exact", "greater")
    assert 0.6 < ex < 0.95, ex
    assert bootstrap_sample_size(0.02, 0.06, power=0.8, n_simulations=100, n_resamples=300, seed=1) == r


def test_bootstrap_power_from_a_pool() -> None:
    rng = np.random.default_rng(0)
    x = (rng.random(400) < 0.70).astype(float)
    y = np.where(rng.random(400) < 0.15, 1.0, x)  # y fixes some of x's errors
    p_small = bootstrap_power(30, x=x, y=y, n_simulations=40, n_resamples=200, seed=2)
    p_big = bootstrap_power(800, x=x, y=y, n_simulations=40, n_resamples=200, seed=2)
    assert 0.0 <= p_small < p_big and p_big > 0.9
    # per-item counts with a named metric
    c = np.stack([x, np.ones(400)], 1)
    cy = np.stack([y, np.ones(400)], 1)
    assert bootstrap_power(800, x=c, y=cy, metric="accuracy", n_simulations=20, n_resamples=200, seed=2) > 0.9


@pytest.mark.parametrize("power", [0.05, 0.01])
def test_simulated_sample_sizes_refuse_a_power_at_or_below_alpha(power: float) -> None:
    """As the analytic power functions: a target power at or below alpha asks for no difference (an
    InputError, a SigfastError), before anything is simulated; mcnemar_power estimates a power and
    takes any alpha in (0, 1)."""
    from sigfast.exceptions import SigfastError

    for f in (mcnemar_sample_size, bootstrap_sample_size):
        with pytest.raises(SigfastError, match=r"power must be above alpha \(0.05\)"):
            f(0.02, 0.06, power=power, alpha=0.05, n_simulations=10)
    assert 0.0 <= mcnemar_power(50, 0.02, 0.06, alpha=0.6, n_simulations=20) <= 1.0
