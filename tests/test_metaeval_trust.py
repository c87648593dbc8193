"""Meta-evaluation definitions and inputs that can be trusted (issue 23), against independent references.

References: numpy loops over pairs written here from the definitions (WMT's DARR τ-like as
mt-metrics-eval's ``KendallLike`` computes it; the grouped levels as Deutsch et al. define them),
scipy (pearsonr, kendalltau) and numpy's quantiles; never sigfast against itself.
"""

from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import metaeval
from sigfast.exceptions import InputError, SigfastError
from sigfast.inference.itemlevel import item_statistic

scipy_stats = pytest.importorskip("scipy.stats")
NAN = math.nan


def _tau_like_counts(x: np.ndarray, y: np.ndarray, thr: float) -> tuple[int, int]:
    """(concordant, discordant) pairs as mt-metrics-eval's KendallLike counts them: |Δy| >= thr
    (> 0 when thr is 0), concordant when x orders the pair as y does, discordant otherwise."""
    c = d = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dy = y[i] - y[j]
        if (abs(dy) >= thr) if thr > 0 else dy != 0:
            if (dy > 0 and x[i] > x[j]) or (dy < 0 and x[i] < x[j]):
                c += 1
            else:
                d += 1
    return c, d


def _grouped_tau_like(x: np.ndarray, h: np.ndarray, thr: float, axis: int) -> tuple[float, float]:
    """(mean of the defined groups' τ-like, pooled Σ(C−D)/Σ(C+D)) over columns (axis 0) or rows (1)."""
    if axis == 1:
        x, h = x.T, h.T
    vals, cs, ds = [], 0, 0
    for j in range(h.shape[1]):
        ok = ~np.isnan(h[:, j])
        c, d = _tau_like_counts(x[ok, j], h[ok, j], thr)
        cs, ds = cs + c, ds + d
        if c + d:
            vals.append((c - d) / (c + d))
    return (float(np.mean(vals)) if vals else NAN), ((cs - ds) / (cs + ds) if cs + ds else NAN)


# --------------------------------------------------------------------------- τ-like
def test_tau_like_skips_a_group_without_pairs() -> None:
    """The issue's smallest repro: the third item has one distinct human score, so no τ-like."""
    h = [[1, 2, NAN], [3, 0, NAN], [2, 1, NAN]]
    m = [[1, 2, 5], [3, 1, 5], [2, 0, 5]]
    kw = dict(level="item", interval="none", test="none")
    full = metaeval.evaluate(h, {"m": m}, statistic="tau_like", **kw).correlations[0]
    two = metaeval.evaluate(np.array(h)[:, :2], {"m": np.array(m)[:, :2]}, statistic="tau_like", **kw)
    assert full == pytest.approx(2 / 3, abs=1e-15) and two.correlations[0] == pytest.approx(2 / 3, abs=1e-15)


@pytest.mark.parametrize("level", ["item", "system_grouped"])
@pytest.mark.parametrize("thr", [0.0, 2.0])
def test_tau_like_mean_and_pooled_equal_numpy(level: str, thr: float) -> None:
    rng = np.random.default_rng(3)
    h = rng.integers(0, 5, (6, 14)).astype(float)
    h[rng.random(h.shape) < 0.25] = NAN
    h[:, 3] = 2.0  # every human score tied: no pair
    h[1:, 5] = NAN  # one scored cell
    m = rng.integers(0, 4, (2, 6, 14)).astype(float)
    axis = 0 if level == "item" else 1
    for stat, pos in (("tau_like", 0), ("tau_like_pooled", 1)):
        r = metaeval.evaluate(h, m, level=level, statistic=stat, threshold=thr, interval="none", test="none")
        for k in range(2):
            want = _grouped_tau_like(m[k], h, thr, axis)[pos]
            assert r.correlations[k] == pytest.approx(want, abs=1e-13), (stat, k)


def test_pooled_tau_like_bootstrap_and_permutation_equal_numpy() -> None:
    """BOOT-INPUTS of the pooled τ-like: resample b's value is Σ w_j (C_j − D_j) / Σ w_j (C_j + D_j) with
    the item multiplicities w of that resample (read off sigfast's own indices); PERM-INPUTS swaps whole
    items, so its p-value follows from the per-item counts of both metrics."""
    rng = np.random.default_rng(4)
    s, n, B = 5, 12, 400
    h = rng.integers(0, 6, (s, n)).astype(float)
    m = np.stack([h + rng.normal(0, 2, (s, n)), h + rng.normal(0, 2, (s, n))])
    r = metaeval.evaluate(
        h, m, level="item", statistic="tau_like_pooled", interval="inputs", test="none", n_resamples=B,
        seed=9, return_samples=True,
    )  # fmt: skip
    cd = np.array([[_tau_like_counts(m[k][:, j], h[:, j], 0.0) for j in range(n)] for k in range(2)], dtype=float)
    num, den = cd[..., 0] - cd[..., 1], cd[..., 0] + cd[..., 1]
    # the bootstrap's item draws come from (seed, TAG_META_BOOT, b, 1): compare the distribution instead
    w = np.random.default_rng(1).multinomial(n, [1 / n] * n, size=20_000)
    want = (w @ num.T) / (w @ den.T)
    for k in range(2):
        got = np.sort(r.samples[:, k])
        for q in (0.1, 0.5, 0.9):
            d = 4 * math.sqrt(2 * B * q * (1 - q))
            lo, hi = got[max(0, int(q * B - d))], got[min(B - 1, int(math.ceil(q * B + d)))]
            assert lo <= np.quantile(want[:, k], q) <= hi
        assert r.intervals[k, 0] == pytest.approx(np.quantile(r.samples[:, k], 0.025), abs=1e-15)
    p = metaeval.evaluate(
        h, m, level="item", statistic="tau_like_pooled", interval="none", test="perm-inputs", n_resamples=2000,
        pvalue="raw",
    ).pvalues[0, 1]  # fmt: skip
    obs = num[0].sum() / den[0].sum() - num[1].sum() / den[1].sum()
    flips = np.random.default_rng(2).random((20_000, n)) < 0.5
    a_num = np.where(flips, num[1], num[0]).sum(1)
    a_den = np.where(flips, den[1], den[0]).sum(1)
    b_num = np.where(flips, num[0], num[1]).sum(1)
    b_den = np.where(flips, den[0], den[1]).sum(1)
    want_p = np.mean(np.abs(a_num / a_den - b_num / b_den) >= abs(obs) - 1e-12)
    assert abs(p - want_p) <= 4 * math.sqrt(want_p * (1 - want_p) * (1 / 2000 + 1 / 20_000)) + 1e-3


# --------------------------------------------------------------------------- undefined correlations
def _table(seed: int = 0, s: int = 6, n: int = 30) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    h = rng.normal(size=(s, n))
    return h, h + rng.normal(size=h.shape)


@pytest.mark.parametrize("test", ["perm-systems", "perm-inputs", "perm-both", "perm-both-rowcol", "williams"])
def test_a_constant_metric_gets_no_pvalue(test: str) -> None:
    h, good = _table()
    noise = np.random.default_rng(1).normal(size=h.shape)
    const = np.ones_like(h)
    r = metaeval.evaluate(
        h, {"good": good, "noise": noise, "const": const}, level="system", statistic="pearson", test=test,
        n_resamples=300,
    )  # fmt: skip
    assert math.isnan(r.correlations[2]) and np.isfinite(r.correlations[:2]).all()
    assert np.isnan(r.pvalues[2, :2]).all() and np.isnan(r.pvalues[:2, 2]).all()
    assert np.isnan(r.adjusted[2, :2]).all()
    assert np.isfinite(r.pvalues[0, 1])
    assert np.isnan(r.intervals[2]).all() and np.isfinite(r.intervals[:2]).all()
    assert any("undefined" in w for w in r.warnings) and "warning:" in str(r)
    assert not r.significant(0, 2) and not r.significant(1, 2)


def test_a_constant_human_table_gets_no_pvalue() -> None:
    _, good = _table()
    r = metaeval.evaluate(np.ones_like(good), [good, good[::-1]], level="system", statistic="pearson", n_resamples=200)
    assert np.isnan(r.correlations).all() and np.isnan(r.pvalues).all() and np.isnan(r.intervals).all()
    assert r.n_valid_perm[0, 1] == 0 and r.warnings


def test_permutation_counts_only_defined_resamples() -> None:
    """valid = resamples whose δ* is defined; with nan_policy='raise' an undefined one stops the run."""
    h = np.array([[1.0, 2.0], [3.0, 4.0]])
    # a and b have the same z-scores on different cells: swapping cell 1 but not cell 0 makes the
    # permuted a constant (and the reverse the permuted b), so half the resamples have no δ*
    a = np.array([[0.0, 1.0], [0.0, 0.0]])
    b = np.array([[1.0, 0.0], [0.0, 0.0]])
    B = 4000
    r = metaeval.evaluate(h, [a, b], level="global", statistic="pearson", interval="none", n_resamples=B)
    valid = int(r.n_valid_perm[0, 1])
    assert abs(valid - B / 2) <= 4 * math.sqrt(B / 4)
    # every defined δ* is ±|δ|, so c = valid and p = (valid + 1) / (valid + 1)
    assert r.pvalues[0, 1] == 1.0
    with pytest.raises(InputError, match="undefined on"):
        metaeval.evaluate(
            h, [a, b], level="global", statistic="pearson", interval="none", n_resamples=B, nan_policy="raise"
        )


# --------------------------------------------------------------------------- nan_policy at system level
def _sparse() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    h = rng.normal(size=(6, 8))
    h[0, 1:] = NAN  # system 0 is scored on one item: a BOOT-INPUTS resample often leaves it empty
    return h, np.stack([h + rng.normal(0, 0.5, h.shape), h + rng.normal(0, 1.5, h.shape)])


def _system_boot_numpy(x: np.ndarray, h: np.ndarray, B: int, drop_system: bool) -> np.ndarray:
    rng = np.random.default_rng(11)
    out = np.full(B, NAN)
    for b in range(B):
        cols = rng.integers(0, h.shape[1], h.shape[1])
        hs, xs = h[:, cols], x[:, cols]
        keep = ~np.isnan(hs).all(axis=1)
        if not keep.all() and not drop_system:
            continue  # the resample is undefined
        ok = ~np.isnan(hs[keep])
        cnt = ok.sum(1)
        hm = np.where(ok, hs[keep], 0).sum(1) / cnt
        xm = np.where(ok, xs[keep], 0).sum(1) / cnt
        out[b] = np.corrcoef(xm, hm)[0, 1]
    return out


@pytest.mark.parametrize("policy", ["omit", "omit-system"])
def test_empty_system_policy_against_numpy(policy: str) -> None:
    h, m = _sparse()
    B = 2000
    r = metaeval.evaluate(
        h, m[:1], level="system", statistic="pearson", interval="inputs", test="none", n_resamples=B,
        nan_policy=policy, return_samples=True,
    )  # fmt: skip
    got = r.samples[:, 0]
    want = _system_boot_numpy(m[0], h, B, drop_system=policy == "omit-system")
    # how often a resample is undefined: P(item 0 not drawn) = (7/8)^8 = 0.344
    share = np.isnan(got).mean()
    if policy == "omit":
        assert abs(share - (7 / 8) ** 8) <= 4 * math.sqrt(0.344 * 0.656 / B) and r.n_valid[0] == (~np.isnan(got)).sum()
        assert any("undefined on" in w for w in r.warnings)
    else:
        assert share == 0 and r.n_valid[0] == B
    fin = np.sort(got[np.isfinite(got)])
    ref = np.sort(want[np.isfinite(want)])
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        k = q * fin.size
        d = 4 * math.sqrt(2 * fin.size * q * (1 - q))
        assert fin[max(0, int(k - d))] <= np.quantile(ref, q) <= fin[min(fin.size - 1, int(math.ceil(k + d)))]
    lo, hi = np.quantile(fin, [0.025, 0.975])  # the interval is numpy's over the defined resamples
    assert (r.intervals[0, 0], r.intervals[0, 1]) == pytest.approx((lo, hi), abs=1e-15)
    assert f"nan:{policy}" in r.signature and r.nan_policy == policy and r.to_dict()["nan_policy"] == policy


def test_empty_system_policy_raise() -> None:
    h, m = _sparse()
    with pytest.raises(InputError, match="nan_policy='omit'"):
        metaeval.evaluate(
            h, m, level="system", statistic="pearson", interval="inputs", n_resamples=200, nan_policy="raise"
        )
    h2 = h.copy()
    h2[0] = NAN
    with pytest.raises(InputError, match="no human score"):
        metaeval.evaluate(h2, m, level="system", statistic="pearson", n_resamples=10)


def test_drop_resample_and_drop_system_differ_on_a_sparse_table() -> None:
    h, m = _sparse()
    kw = dict(level="system", statistic="pearson", interval="inputs", test="none", n_resamples=2000)
    omit = metaeval.evaluate(h, m, **kw)
    keep = metaeval.evaluate(h, m, nan_policy="omit-system", **kw)
    assert omit.n_valid[0] < 2000 == keep.n_valid[0]
    assert omit.signature != keep.signature


# --------------------------------------------------------------------------- range and scale
def test_statistics_stay_in_their_range() -> None:
    rng = np.random.default_rng(6)
    worst = {"kendall_b": 0.0, "acc_eq": 0.0, "pearson": 0.0, "spearman": 0.0, "kendall_c": 0.0}
    for _ in range(200):
        n = int(rng.integers(2, 60))
        x = rng.integers(0, 4, n) * 0.1 + 0.1
        for stat in worst:
            v = item_statistic(x, x, stat)
            if np.isfinite(v):
                worst[stat] = max(worst[stat], v)
        h = rng.integers(0, 4, (4, 7)) * 0.1
        v = metaeval.evaluate(h, [h], level="item", statistic="acc_eq", interval="none", test="none")
        worst["acc_eq"] = max(worst["acc_eq"], v.correlations[0])
    assert all(v <= 1.0 for v in worst.values()), worst


@pytest.mark.parametrize("scale", [1e300, 1e-300, 1e-160, 1e160, 1e-310])
def test_pearson_at_the_ends_of_the_float_range(scale: float) -> None:
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=40), rng.normal(size=40) + 0.3
    y = y + 0.5 * x
    want = scipy_stats.pearsonr(x, y)[0]  # scipy on the rescaled data
    tol = 1e-9 if scale < 1e-300 else 1e-12
    assert item_statistic(x * scale, y, "pearson") == pytest.approx(want, abs=tol)
    h = y.reshape(5, 8)
    r = metaeval.evaluate(h * scale, [x.reshape(5, 8) * scale], level="global", statistic="pearson", n_resamples=50)
    assert r.correlations[0] == pytest.approx(want, abs=tol) and np.isfinite(r.intervals).all()
    # the paired test of two systems' (score, reference) columns is no longer refused
    res = sigfast.paired_bootstrap(
        np.column_stack([x * scale, y]), np.column_stack([(x + 0.1 * y) * scale, y]), metric="pearson",
        n_resamples=200, progress=False,
    )  # fmt: skip
    assert res.score_x == pytest.approx(want, abs=tol) and 0 < res.pvalue <= 1


# --------------------------------------------------------------------------- inputs
def _rows_file(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "human.tsv"
    p.write_text(text, encoding="utf-8")
    return p


def test_duplicated_systems_are_errors(tmp_path: Path) -> None:
    wide = "system\ti1\ti2\ti3\nA\t1\t2\t3\nB\t2\t1\t0\nA\t9\t9\t1\n"
    with pytest.raises(SigfastError, match=r"system 'A'"):  # the reader names the file
        metaeval.read_scores(_rows_file(tmp_path, wide), layout="wide")
    with pytest.raises(InputError, match=r"system 'A' appears twice \(rows 1 and 3"):
        metaeval.ScoreTable(("A", "B", "A"), ("i1",), np.zeros((3, 1)))
    with pytest.raises(InputError, match="item 'i1' appears twice"):
        metaeval.ScoreTable(("A", "B"), ("i1", "i1"), np.zeros((2, 2)))
    with pytest.raises(InputError, match="systems must name"):
        metaeval.evaluate(np.eye(3), [np.eye(3)], systems=["a", "a", "b"], n_resamples=5)


BAD_CALLS = [
    ("non-numeric cell", lambda h, m: metaeval.evaluate([[1, "x"], [2, 3]], [[[1, 2], [2, 3]]])),
    ("ragged human", lambda h, m: metaeval.evaluate([[1, 2], [3]], [[[1, 2], [3, 4]]])),
    ("ragged metric", lambda h, m: metaeval.evaluate(h, {"a": [[1, 2], [3]]})),
    ("non-numeric metric", lambda h, m: metaeval.evaluate(h, {"a": np.full(h.shape, "abc")})),
    ("metric shape", lambda h, m: metaeval.evaluate(h, {"a": m[:2]})),
    ("1-D human", lambda h, m: metaeval.evaluate(h[0], [m])),
    ("confidence None", lambda h, m: metaeval.evaluate(h, [m], confidence_level=None)),
    ("confidence kwarg", lambda h, m: metaeval.evaluate(h, [m], confidence="0.9")),
    ("alpha None", lambda h, m: metaeval.evaluate(h, [m], alpha=None)),
    ("alpha str", lambda h, m: metaeval.evaluate(h, [m], alpha="x")),
    ("alpha 2", lambda h, m: metaeval.evaluate(h, [m], alpha=2)),
    ("names int", lambda h, m: metaeval.evaluate(h, [m], names=5)),
    ("names str", lambda h, m: metaeval.evaluate(h, [m], names="ab")),
    ("names short", lambda h, m: metaeval.evaluate(h, [m, m], names=["a"])),
    ("names duplicate", lambda h, m: metaeval.evaluate(h, [m, m], names=["a", "a"])),
    ("interval", lambda h, m: metaeval.evaluate(h, [m], interval=5)),
    ("test None", lambda h, m: metaeval.evaluate(h, [m, m], test=None)),
    ("test int", lambda h, m: metaeval.evaluate(h, [m, m], test=3)),
    ("test name", lambda h, m: metaeval.evaluate(h, [m, m], test="perm-cells")),
    ("nan_policy", lambda h, m: metaeval.evaluate(h, [m], nan_policy="drop")),
    ("nan_policy None", lambda h, m: metaeval.evaluate(h, [m], nan_policy=None)),
    ("level", lambda h, m: metaeval.evaluate(h, [m], level=None)),
    ("statistic", lambda h, m: metaeval.evaluate(h, [m], statistic="auc")),
    ("statistic None", lambda h, m: metaeval.evaluate(h, [m], statistic=None)),
    ("n_resamples bool", lambda h, m: metaeval.evaluate(h, [m], n_resamples=True)),
    ("n_resamples float", lambda h, m: metaeval.evaluate(h, [m], n_resamples=1e3)),
    ("seed", lambda h, m: metaeval.evaluate(h, [m], seed=-1)),
    ("threads", lambda h, m: metaeval.evaluate(h, [m], n_threads="2")),
    ("correction", lambda h, m: metaeval.evaluate(h, [m, m], correction=None)),
    ("correction name", lambda h, m: metaeval.evaluate(h, [m, m], correction="nope")),
    ("alternative", lambda h, m: metaeval.evaluate(h, [m], alternative="less")),
    ("pvalue", lambda h, m: metaeval.evaluate(h, [m], pvalue=None)),
    ("threshold", lambda h, m: metaeval.evaluate(h, [m], statistic="tau_like", threshold="x")),
    ("inf human", lambda h, m: metaeval.evaluate(np.where(h > 1, np.inf, h), [m])),
    ("nan metric", lambda h, m: metaeval.evaluate(h, [np.where(h > 1, np.nan, m)])),
    ("all missing", lambda h, m: metaeval.evaluate(np.full(h.shape, np.nan), [m])),
    ("no metrics", lambda h, m: metaeval.evaluate(h, {})),
    ("williams small", lambda h, m: metaeval.evaluate(h[:3], [m[:3], m[:3]], level="system", test="williams")),
    ("samples memory", lambda h, m: metaeval.evaluate(h, [m], n_resamples=2**40, return_samples=True)),
    ("pairwise alpha None", lambda h, m: sigfast.pairwise({"a": [1, 0, 1], "b": [0, 1, 1]}, alpha=None)),
    ("pairwise alpha str", lambda h, m: sigfast.pairwise({"a": [1, 0, 1], "b": [0, 1, 1]}, alpha="x")),
    ("adjust alpha None", lambda h, m: sigfast.adjust([0.1, 0.2], "holm", alpha=None)),
    ("adjust alpha list", lambda h, m: sigfast.adjust([0.1, 0.2], "holm", alpha=[0.05])),
    ("seeds correction None", lambda h, m: sigfast.compare_seeds({"a": [1, 2], "b": [2, 3]}, correction=None)),
    ("seeds confidence None", lambda h, m: sigfast.compare_seeds({"a": [1, 2], "b": [2, 3]}, confidence_level=None)),
    ("seeds names", lambda h, m: sigfast.aso([1, 2], [2, 3], names=5)),
    ("score table inf", lambda h, m: metaeval.ScoreTable(("a",), ("i",), np.array([[np.inf]]))),
    (
        "align no shared",
        lambda h, m: metaeval.align(
            metaeval.ScoreTable(("a",), ("i",), np.ones((1, 1))),
            {"x": metaeval.ScoreTable(("b",), ("i",), np.ones((1, 1)))},
        ),
    ),
]


@pytest.mark.parametrize(("what", "call"), BAD_CALLS, ids=[w for w, _ in BAD_CALLS])
def test_bad_inputs_are_sigfast_errors(what: str, call) -> None:  # type: ignore[no-untyped-def]
    h, m = _table(2, s=5, n=6)
    with pytest.raises(SigfastError) as e:
        call(h, m)
    msg = str(e.value)
    assert msg and "\n" not in msg.strip() and len(msg) < 400, msg


def test_ctrl_c_stops_a_billion_resamples_at_once() -> None:
    """A KeyboardInterrupt from the progress relay (as from Ctrl-C) stops B = 10^9 within a second:
    nothing B-sized is allocated or filled before the first poll."""
    import time

    h, m = _table(3, s=5, n=20)

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    for kw in ({"interval": "both", "test": "none"}, {"interval": "none", "test": "perm-both"}):
        t = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            metaeval.evaluate(
                h, [m, m[::-1]], level="system", statistic="pearson", n_resamples=10**9, progress=interrupt, **kw
            )
        assert time.perf_counter() - t < 1.0, kw


# --------------------------------------------------------------------------- memory
_MEM = """
import numpy as np, resource, sys
import sigfast
from sigfast import metaeval
rng = np.random.default_rng(0)
h = rng.normal(size=(5, 20)); m = np.stack([h + rng.normal(size=h.shape), h + rng.normal(size=h.shape)])
x = np.column_stack([rng.normal(size=100), rng.normal(size=100)])
B = int(sys.argv[1])
metaeval.evaluate(h, m, level="system", statistic="pearson", interval="both", test="none", n_resamples=B)
sigfast.paired_bootstrap(x[:, 0], x[:, 1], metric="median", n_resamples=B, nan_policy="omit", progress=False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_memory_does_not_grow_with_resamples() -> None:
    """Stored, 4 x 10^5 resamples of 2 metrics (and the median's 2 systems) would add about 13 MiB of
    values and their copies; streamed, the peak stays within 3 MiB of a 10^3-resample run."""
    env = dict(os.environ)
    peaks = []
    for B in (1000, 400_000):
        out = subprocess.run([sys.executable, "-c", _MEM, str(B)], capture_output=True, text=True, env=env, check=True)
        peaks.append(int(out.stdout.split()[-1]) / 1024)
    assert peaks[1] - peaks[0] < 3.0, peaks
