"""Many models at once from the bootstrap (issue 32 item 4): Romano-Wolf step-down p-values, P(best) and
the expected rank, each checked against an independent numpy oracle on the same resampled values, the
values against the documented draws (``item_indices``), and the step-down against evalstats' own
Romano-Wolf on the same draws (tests/data/peer/evalstats_romano_wolf.json, written by
scripts/peer_evalstats_romano_wolf.py; evalstats is not needed here)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.cli import main
from sigfast.exceptions import InputError
from sigfast.itemlevel import item_indices
from sigfast.multitest import max_t_stepdown
from sigfast.pairwise import bootstrap_ranks

PEER = Path(__file__).resolve().parent / "data" / "peer" / "evalstats_romano_wolf.json"


def _systems(kind: str, s: int = 5, n: int = 120, seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    base = rng.normal(0.0, 1.0, n)
    if kind == "binary":  # many ties: resampled accuracies on a lattice of k/n
        return {f"m{k}": (rng.random(n) < 0.55 + 0.04 * k).astype(float) for k in range(s)}
    return {f"m{k}": base + 0.08 * k + rng.normal(0.0, 0.8, n) for k in range(s)}


# ------------------------------------------------------------------ the oracles (numpy, written out)
def _oracle_step_down(values, obs, family, sides, plus_one=True):
    """Romano & Wolf (2005), Algorithm 4.1 of their 2016 note, step by step: the largest standardized
    statistic over the hypotheses not yet passed, at each step, then the running maximum."""
    B = values.shape[0]
    k = len(family)
    t = np.empty(k)
    tb = np.empty((B, k))
    for h, ((i, j), side) in enumerate(zip(family, sides)):
        d_star = values[:, j] - values[:, i]
        d = obs[j] - obs[i]
        sd = np.std(d_star)
        sd = sd if sd > 0 else 1.0
        f = np.abs if side == 0 else (lambda x, s=side: s * x)
        t[h] = f(d) / sd
        tb[:, h] = f(d_star - d) / sd
    order = sorted(range(k), key=lambda h: -t[h])  # Python's sort is stable: ties in the given order
    out = np.empty(k)
    running = 0.0
    for step, h in enumerate(order):
        rest = order[step:]
        c = sum(1 for b in range(B) if max(tb[b, r] for r in rest) >= t[h])
        p = (c + 1) / (B + 1) if plus_one else c / B
        running = max(running, p)
        out[h] = min(running, 1.0)
    return out


def _oracle_ranks(values, higher_is_better=True):
    from scipy.stats import rankdata

    key = values if higher_is_better else -values
    ranks = rankdata(-key, axis=1, method="average")  # 1 = best, ties take their mean rank
    best = key == key.max(axis=1, keepdims=True)
    share = best / best.sum(axis=1, keepdims=True)
    return share.mean(axis=0), ranks.mean(axis=0)


def _family(res, alternative):
    """The families and sides the oracle tests, as the result's adjusted matrix holds them."""
    s = len(res.systems)
    upper = [(i, j) for i in range(s) for j in range(i + 1, s)]
    if alternative in ("greater", "less"):
        side = 1 if alternative == "greater" else -1
        return [(upper, [side] * len(upper)), ([(j, i) for i, j in upper], [side] * len(upper))]
    if alternative == "two-sided":
        return [(upper, [0] * len(upper))]
    return [(upper, [-1 if res.scores[j] < res.scores[i] else 1 for i, j in upper])]


# ------------------------------------------------------------------ Romano-Wolf
@pytest.mark.parametrize(
    ("kind", "variant", "alternative", "pvalue"),
    [
        ("normal", "bk", None, "plus_one"),
        ("binary", "bk", None, "plus_one"),
        ("normal", "shifted", "two-sided", "plus_one"),
        ("binary", "shifted", "two-sided", "raw"),
        ("normal", "shifted", "greater", "plus_one"),
        ("normal", "shifted", "less", "raw"),
    ],
)
def test_romano_wolf_equals_a_numpy_oracle_on_the_same_resamples(kind, variant, alternative, pvalue):
    data = _systems(kind)
    res = sigfast.pairwise(
        data,
        n_resamples=600,
        seed=11,
        variant=variant,
        alternative=alternative,
        pvalue=pvalue,
        correction="romano-wolf",
        return_distribution=True,
    )
    values = res.distribution
    assert values.shape == (600, 5)
    for family, sides in _family(res, res.alternative):
        want = _oracle_step_down(values, res.scores, family, sides, plus_one=pvalue == "plus_one")
        got = np.array([res.adjusted[i, j] for i, j in family])
        np.testing.assert_array_equal(got, want)
    if res.alternative not in ("greater", "less"):
        np.testing.assert_array_equal(res.adjusted, res.adjusted.T)  # one family of unordered pairs


def test_the_values_are_the_documented_draws_and_the_counts_come_from_them():
    """The matrix Romano-Wolf and the ranks read is the shared bootstrap's: each row the systems' means on
    ``item_indices`` (the documented stream), and the pairs' counts (BK's rule) are read off it."""
    data = _systems("normal")
    res = sigfast.pairwise(
        data, n_resamples=500, seed=5, resampling="items", correction="romano-wolf", return_distribution=True
    )
    idx = item_indices(120, n_resamples=500, seed=5)
    x = np.stack([data[name] for name in res.systems])
    rebuilt = x[:, idx].mean(axis=2).T
    np.testing.assert_allclose(res.distribution, rebuilt, rtol=0, atol=1e-12)
    d_star = rebuilt[:, None, :] - rebuilt[:, :, None]
    delta = res.scores[None, :] - res.scores[:, None]
    bk = np.where(delta > 0, d_star > 2 * delta, d_star < 2 * delta).sum(axis=0)
    off = ~np.eye(5, dtype=bool)
    np.testing.assert_array_equal(bk[off], res.counts[off])
    upper = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    sides = [-1 if res.scores[j] < res.scores[i] else 1 for i, j in upper]
    want = _oracle_step_down(rebuilt, res.scores, upper, sides)
    np.testing.assert_allclose([res.adjusted[i, j] for i, j in upper], want, rtol=0, atol=1e-12)


def test_the_step_down_equals_evalstats_romano_wolf_on_the_same_draws():
    """evalstats studentizes each resample (bootstrap-t); rebuilt here from the same per-item differences
    and indices, its statistics stepped down by sigfast's reduction give evalstats' p-values."""
    doc = json.loads(PEER.read_text(encoding="utf-8"))
    assert doc["tool"] == "evalstats 0.3.3"
    for case in doc["cases"]:
        m, B, salt = case["items"], case["resamples"], case["salt"]
        pos = np.arange(B * m, dtype=np.uint64) + np.uint64(salt) * np.uint64(1 << 32)
        x = pos * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        idx = ((x >> np.uint64(33)) % np.uint64(m)).astype(np.int64).reshape(B, m)
        scores = [np.asarray(v) for v in case["scores"]]
        diffs = np.stack([scores[int(a[1:])] - scores[int(b[1:])] for a, b in case["pairs"]])
        means = diffs.mean(axis=1)
        ses = diffs.std(axis=1, ddof=1) / np.sqrt(m)
        t = np.abs(means) / np.where(ses > 1e-12, ses, 1.0)
        resampled = diffs[:, idx]
        b_ses = resampled.std(axis=2, ddof=1) / np.sqrt(m)
        t_star = np.abs((resampled.mean(axis=2) - means[:, None]) / np.where(b_ses > 1e-12, b_ses, 1.0))
        got = max_t_stepdown(t, t_star.T)
        np.testing.assert_allclose(got, case["adjusted"], rtol=0, atol=1e-12)


def test_romano_wolf_is_refused_where_there_are_no_shared_resamples():
    data = _systems("normal", s=3)
    with pytest.raises(InputError, match="use mode='shared'"):
        sigfast.pairwise(data, n_resamples=100, mode="independent", correction="romano-wolf")
    with pytest.raises(InputError, match="bootstrap_ranks=True .* use mode='shared'"):
        sigfast.pairwise(data, n_resamples=100, mode="independent", bootstrap_ranks=True)
    with pytest.raises(InputError, match="pairs='bootstrap'"):
        sigfast.leaderboard(data, n_resamples=100, correction="romano-wolf")
    with pytest.raises(InputError, match="versus must be 'best' or one of the models"):
        sigfast.leaderboard(data, n_resamples=100, versus="m9")
    with pytest.raises(InputError, match="at least two models"):
        sigfast.leaderboard({"m0": data["m0"]}, n_resamples=100, versus="best")
    with pytest.raises(InputError, match="t_star must be resamples x 2"):
        max_t_stepdown([1.0, 2.0], np.zeros((5, 3)))


# ------------------------------------------------------------------ P(best), expected rank
@pytest.mark.parametrize("kind", ["normal", "binary"])
def test_p_best_and_expected_rank_equal_a_numpy_oracle(kind):
    data = _systems(kind, n=40)  # 40 binary items: ties for the best on many resamples
    res = sigfast.pairwise(data, n_resamples=800, seed=2, bootstrap_ranks=True, return_distribution=True)
    p_best, e_rank = _oracle_ranks(res.distribution)
    np.testing.assert_allclose(res.p_best, p_best, rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.expected_rank, e_rank, rtol=0, atol=1e-12)
    assert abs(res.p_best.sum() - 1) < 1e-12 and abs(res.expected_rank.sum() - 15) < 1e-9
    lower = bootstrap_ranks(res.distribution, higher_is_better=False)
    want = _oracle_ranks(res.distribution, higher_is_better=False)
    np.testing.assert_allclose(lower[0], want[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(lower[1], want[1], rtol=0, atol=1e-12)
    if kind == "binary":
        shared = res.distribution.max(axis=1, keepdims=True) == res.distribution
        assert (shared.sum(axis=1) > 1).any()  # the ties were there to split


def test_bootstrap_ranks_show_only_when_asked():
    data = _systems("normal", s=3)
    plain = sigfast.pairwise(data, n_resamples=200, seed=1)
    assert plain.p_best is None and "p_best" not in plain.to_dict() and "P(best)" not in plain.format("text")
    assert "p_best_i" not in plain.rows()[0]
    ranked = sigfast.pairwise(data, n_resamples=200, seed=1, bootstrap_ranks=True)
    d = ranked.to_dict()
    assert set(d["p_best"]) == set(data) and set(d["expected_rank"]) == set(data)
    assert "P(best)" in ranked.format("text") and "E[rank]" in ranked.format("text")
    row = ranked.rows()[0]
    assert row["p_best_j"] == d["p_best"][row["system_j"]]
    np.testing.assert_array_equal(ranked.pvalues, plain.pvalues)  # the tests themselves do not change


# ------------------------------------------------------------------ the leaderboard
@pytest.mark.parametrize("correction", ["romano-wolf", "holm"])
def test_leaderboard_versus_the_best_and_a_baseline_equal_the_oracle(correction):
    from statsmodels.stats.multitest import multipletests

    data = _systems("normal", s=4)
    pw = sigfast.pairwise(data, n_resamples=700, seed=9, bootstrap_ranks=True, return_distribution=True)
    values, obs = pw.distribution, pw.scores
    for versus, ref in (("best", int(np.argmax(obs))), ("m1", 1)):
        lb = sigfast.leaderboard(
            data, n_resamples=700, seed=9, versus=versus, correction=correction, bootstrap_ranks=True, pairs="none"
        )
        assert lb.versus == f"m{ref}"
        others = [j for j in range(4) if j != ref]
        family = [(ref, j) for j in others]
        raw = [_oracle_step_down(values, obs, [f], [0])[0] for f in family]
        want = (
            _oracle_step_down(values, obs, family, [0] * 3)
            if correction == "romano-wolf"
            else multipletests(raw, method="holm")[1]
        )
        np.testing.assert_allclose(lb.versus_pvalues[others], raw, rtol=0, atol=1e-12)
        np.testing.assert_allclose(lb.versus_adjusted[others], want, rtol=0, atol=1e-12)
        assert np.isnan(lb.versus_adjusted[ref])
        np.testing.assert_array_equal(lb.p_best, pw.p_best)  # the same draws as sigfast.pairwise
        np.testing.assert_array_equal(lb.expected_rank, pw.expected_rank)
        rows = {r["system"]: r for r in lb.rows()}
        assert rows[f"m{others[0]}"]["adjusted_vs"] == lb.versus_adjusted[others[0]]
        assert f"versus:m{ref}" in lb.signature and f"correction:{correction}@0.05" in lb.signature


def test_leaderboard_bootstrap_pairs_take_romano_wolf():
    data = _systems("normal", s=4)
    lb = sigfast.leaderboard(data, n_resamples=500, seed=4, pairs="bootstrap", correction="romano-wolf")
    pw = sigfast.pairwise(data, n_resamples=500, seed=4, correction="romano-wolf")
    np.testing.assert_array_equal(lb.pairwise.adjusted, pw.adjusted)
    assert lb.pairwise.correction == "romano-wolf"


# ------------------------------------------------------------------ the command line
def test_cli_pairwise_and_interval_take_the_new_options(tmp_path, capsys):
    data = _systems("normal", s=3, n=60)
    files = []
    for name, v in data.items():
        p = tmp_path / f"{name}.txt"
        p.write_text("".join(f"{x:.6f}\n" for x in v), encoding="utf-8")
        files.append(str(p))
    assert main(["pairwise", *files, "-n", "300", "--correction", "romano-wolf", "--bootstrap-ranks", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    got = got[0] if isinstance(got, list) else got
    api = sigfast.pairwise(
        {k: np.round(v, 6) for k, v in data.items()}, n_resamples=300, correction="romano-wolf", bootstrap_ranks=True
    )
    np.testing.assert_allclose(np.array(got["adjusted"], dtype=float), api.adjusted, rtol=0, atol=1e-12)
    assert got["p_best"] == {k: float(v) for k, v in zip(api.systems, api.p_best)}
    assert main(["interval", *files, "-n", "300", "--versus", "best", "--correction", "romano-wolf", "--csv"]) == 0
    head = capsys.readouterr().out.splitlines()[0].split(",")
    assert {"versus", "delta_vs", "pvalue_vs", "adjusted_vs"} <= set(head)
