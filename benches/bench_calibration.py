"""Benchmark: a calibration study (Berg-Kirkpatrick et al. 2012, §4.2) with sigfast against numpy.

The study: 25 systems (300 pairs), 200 test sets of m = 500 items drawn with
replacement from the population, every pair tested on every test set with
the BK paired bootstrap, B = 10,000 resamples. Statistics: per-sentence LAS
counts (correct, system, gold -> F1) of the 25 CoNLL 2018 en_ewt parsers when
/work/shared/data is present, else synthetic counts of the same shape.

The full study runs once with sigfast (sigfast.studies.calibration; for
wide tables it sums each distinct column once, 8 columns per engine call on
the same resamples, see sigfast.studies._common.COLUMN_BLOCK). The speed
comparison then runs in interleaved rounds (the machine is shared, so every
implementation sees the same load): per round, sigfast on 20 test sets (with
and without the column-blocked path) and each numpy version on one test set;
each figure is the best round, as time per (test set × resample), so the
scale-down does not favour either side:

* numpy-shared: shared resamples for all systems, as sigfast does (fn. 5 of
  BK): index draws (B × m), gather rows and sum per system in chunks,
  metric per system, the BK count for all 300 pairs at once.
* numpy-matmul: the same, but each chunk's resample counts (B × m, from
  bincount) times the item table by BLAS — the fastest numpy we know.
* numpy-shared-dedup / numpy-matmul-dedup: the same, summing each distinct
  column once, as sigfast's study path does (25 systems share the gold
  column, and systems on gold tokens share it as their system column too).
* numpy-per-pair: the textbook study, one paired bootstrap per pair (its
  own index draws per pair), as a researcher would loop a two-system test.

Run: python benches/bench_calibration.py [--rounds 5] [--threads 2]
"""

from __future__ import annotations

import argparse
import glob
import os
import time
from pathlib import Path

import numpy as np

import sigfast
from sigfast.studies import calibration

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"

S_PAIRS_M = 500
CHUNK = 1000


def load() -> tuple[sigfast.Statistics, str]:
    gold = EWT / "gold" / "en_ewt.conllu.gz"
    if gold.is_file():
        systems = {
            os.path.basename(os.path.dirname(p)): p
            for p in sorted(glob.glob(str(EWT / "systems" / "*" / "en_ewt.conllu.gz")))
        }
        return sigfast.read(str(gold), systems, format="conllu", metric="las"), "en_ewt LAS, 25 CoNLL 2018 parsers"
    rng = np.random.default_rng(0)
    n, s = 2077, 25
    gold_n = rng.integers(1, 40, n).astype(float)
    vals = []
    for k in range(s):
        sys_n = gold_n
        corr = rng.binomial(gold_n.astype(int), 0.7 + 0.005 * k).astype(float)
        vals.append(np.stack([corr, sys_n, gold_n], 1))
    return sigfast.Statistics.from_counts(
        np.stack(vals), stat_names=("correct", "system", "gold"), metric="f1"
    ), "synthetic counts, 25 systems"


def f1(sums: np.ndarray) -> np.ndarray:
    """F1 from summed (correct, system, gold) along the last axis."""
    c, s, g = sums[..., 0], sums[..., 1], sums[..., 2]
    return np.where(s + g > 0, 2 * c / np.maximum(s + g, 1e-300), 0.0)


def bk_counts(vals: np.ndarray, obs: np.ndarray, qi: np.ndarray, qj: np.ndarray) -> np.ndarray:
    """BK exceedances per pair: delta* in the observed direction exceeding 2 * delta."""
    d = vals[:, qj] - vals[:, qi]
    od = obs[qj] - obs[qi]
    sign = np.where(od >= 0, 1.0, -1.0)
    return ((sign * d) > 2 * sign * od).sum(0)


def numpy_shared(table: np.ndarray, s: int, B: int, rng: np.random.Generator, qi, qj) -> np.ndarray:
    m = table.shape[0]
    obs = f1(table.sum(0).reshape(s, 3))
    counts = np.zeros(len(qi))
    chunk = 200  # 200 x 500 x 75 gathered floats = 60 MB per chunk
    for start in range(0, B, chunk):
        c = min(chunk, B - start)
        idx = rng.integers(0, m, (c, m))
        sums = table[idx].sum(1).reshape(c, s, 3)
        counts += bk_counts(f1(sums), obs, qi, qj)
    return (counts + 1) / (B + 1)


def numpy_matmul(table: np.ndarray, s: int, B: int, rng: np.random.Generator, qi, qj) -> np.ndarray:
    m = table.shape[0]
    obs = f1(table.sum(0).reshape(s, 3))
    counts = np.zeros(len(qi))
    for start in range(0, B, CHUNK):
        c = min(CHUNK, B - start)
        idx = rng.integers(0, m, (c, m)) + (np.arange(c) * m)[:, None]
        w = np.bincount(idx.ravel(), minlength=c * m).reshape(c, m).astype(np.float64)
        sums = (w @ table).reshape(c, s, 3)
        counts += bk_counts(f1(sums), obs, qi, qj)
    return (counts + 1) / (B + 1)


def dedup(fn):
    """The same numpy study summing each distinct column once (as sigfast's study path does)."""

    def run(table, s, B, rng, qi, qj):
        uniq, inv = np.unique(table, axis=1, return_inverse=True)
        inv = np.asarray(inv).reshape(-1)
        m = table.shape[0]
        obs = f1(table.sum(0).reshape(s, 3))
        counts = np.zeros(len(qi))
        chunk = 500
        for start in range(0, B, chunk):
            c = min(chunk, B - start)
            idx = rng.integers(0, m, (c, m))
            if fn == "gather":
                usums = uniq[idx].sum(1)
            else:
                w = np.bincount((idx + (np.arange(c) * m)[:, None]).ravel(), minlength=c * m).reshape(c, m)
                usums = w.astype(np.float64) @ uniq
            counts += bk_counts(f1(usums[:, inv].reshape(c, s, 3)), obs, qi, qj)
        return (counts + 1) / (B + 1)

    return run


def numpy_per_pair(table: np.ndarray, s: int, B: int, rng: np.random.Generator, qi, qj) -> np.ndarray:
    m = table.shape[0]
    t3 = table.reshape(m, s, 3)
    out = np.zeros(len(qi))
    for q, (i, j) in enumerate(zip(qi, qj)):
        pair = np.ascontiguousarray(t3[:, [i, j], :].reshape(m, 6))
        obs = f1(pair.sum(0).reshape(2, 3))
        cnt = 0
        for start in range(0, B, CHUNK):
            c = min(CHUNK, B - start)
            idx = rng.integers(0, m, (c, m))
            v = f1(pair[idx].sum(1).reshape(c, 2, 3))
            cnt += bk_counts(v, obs, np.array([0]), np.array([1]))[0]
        out[q] = (cnt + 1) / (B + 1)
    return out


def best(fn, repeats: int) -> tuple[float, object]:
    times, res = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        res = fn()
        times.append(time.perf_counter() - t)
    return min(times), res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; each figure is the best round")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--test-sets", type=int, default=200, help="test sets of the full study")
    ap.add_argument("--round-test-sets", type=int, default=20, help="sigfast test sets per round")
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--np-pair-resamples", type=int, default=500, help="B for the numpy per-pair run (1 test set)")
    args = ap.parse_args()
    stats, what = load()
    s, n = stats.n_systems, stats.n_items
    T, B, m = args.test_sets, args.resamples, S_PAIRS_M
    print(f"data: {what}; {s} systems ({s * (s - 1) // 2} pairs), population {n} items, m = {m}")
    print(
        f"sigfast {sigfast.__version__}, numpy {np.__version__}, threads {args.threads}; "
        f"{args.rounds} interleaved rounds, best round per implementation"
    )

    # the full study once, for the record
    t0 = time.perf_counter()
    res = calibration(stats, m=m, n_test_sets=T, n_resamples=B, seed=1, n_threads=args.threads, progress=False)
    t_full = time.perf_counter() - t0
    print(f"full study: {T} test sets x {s * (s - 1) // 2} pairs x B = {B}: {t_full:.2f} s (one run)")

    from sigfast.studies import _common
    from sigfast.studies._common import subset

    iu = np.triu_indices(s, 1)
    qi, qj = iu
    rng_sets = np.random.default_rng(7)
    idx0 = rng_sets.integers(0, n, m)
    table0 = np.ascontiguousarray(stats.values[:, idx0, :].transpose(1, 0, 2).reshape(m, s * 3))
    R = args.round_test_sets

    def sf_blocked():
        return calibration(stats, m=m, n_test_sets=R, n_resamples=B, seed=1, n_threads=args.threads, progress=False)

    def sf_plain():
        saved, _common.COLUMN_BLOCK = _common.COLUMN_BLOCK, 0
        try:
            return calibration(stats, m=m, n_test_sets=R, n_resamples=B, seed=1, n_threads=args.threads, progress=False)
        finally:
            _common.COLUMN_BLOCK = saved

    impls = [
        ("sigfast", sf_blocked, R, B),
        ("sigfast (pairwise per test set, no column blocking)", sf_plain, R, B),
        ("numpy-shared", lambda: numpy_shared(table0, s, B, np.random.default_rng(3), qi, qj), 1, B),
        ("numpy-matmul", lambda: numpy_matmul(table0, s, B, np.random.default_rng(3), qi, qj), 1, B),
        ("numpy-shared-dedup", lambda: dedup("gather")(table0, s, B, np.random.default_rng(3), qi, qj), 1, B),
        ("numpy-matmul-dedup", lambda: dedup("matmul")(table0, s, B, np.random.default_rng(3), qi, qj), 1, B),
    ]
    bests = {name: float("inf") for name, *_ in impls}
    outs = {}
    for _ in range(args.rounds):
        for name, fn, sets_, b in impls:
            t0 = time.perf_counter()
            outs[name] = fn()
            bests[name] = min(bests[name], (time.perf_counter() - t0) / (sets_ * b))
    t0 = time.perf_counter()
    numpy_per_pair(table0, s, args.np_pair_resamples, np.random.default_rng(3), qi, qj)
    bests["numpy-per-pair"] = (time.perf_counter() - t0) / args.np_pair_resamples
    unit_sf = bests["sigfast"]
    print(f"{'implementation':<52} {'us per test set x resample':>27} {'sigfast faster by':>18}")
    for name, unit in bests.items():
        print(f"{name:<52} {unit * 1e6:>27.3f} {unit / unit_sf:>17.1f}x")
    same = np.array_equal(
        outs["sigfast"].pvalues["population"],
        outs["sigfast (pairwise per test set, no column blocking)"].pvalues["population"],
    )
    print(
        f"(sigfast rounds: {R} test sets x B = {B}; numpy rounds: 1 test set x B = {B}; per-pair: 1 test set x "
        f"B = {args.np_pair_resamples}, one run; blocked and plain sigfast p-values identical: {same})"
    )

    direct = sigfast.pairwise(
        subset(stats, idx0), n_resamples=B, seed=9, correction="none", resampling="items", n_threads=args.threads
    )
    diff = np.abs(direct.pvalues[iu] - outs["numpy-shared"])
    print(
        f"check: |p(sigfast) - p(numpy-shared)| on one test set: max {diff.max():.4f}, mean {diff.mean():.5f} "
        f"(Monte-Carlo error at B = {B}: about {np.sqrt(0.25 / B):.4f} at p = 0.5)"
    )
    s05 = next(e for e in res.summary() if e["band"] == [0.04, 0.06])["in_domain"]
    print(f"study: p in (0.04, 0.06]: {s05['n']} tests, {100 * s05['share']:.1f}% agree with the population")


if __name__ == "__main__":
    main()
