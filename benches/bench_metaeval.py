"""Meta-evaluation speed: all pairs of 10 metrics on 20 systems × 1,000 segments, B = 1,000.

    python benches/bench_metaeval.py [--repeat 2] [--quick]

Two tasks, each run by sigfast (1 thread and all cores), by nlpstats
(Deutsch et al.'s reference implementation, single-threaded) and by a plain
numpy loop written here (single-threaded), on the same inputs and B:

- system level, Pearson: BOOT-BOTH intervals of the 10 metrics' correlations
  and PERM-BOTH tests of the 45 pairs;
- item level ("per input", WMT's segment level), Kendall τ-b: the same.

sigfast's bootstrap shares its resamples among the metrics and also gives the
45 pairs' δ intervals; nlpstats bootstraps each metric on its own (less
work). Where a peer would run for many minutes (item level), it is timed on
the first ``b`` resamples (and, for permutations, the first pairs) and scaled
linearly to B = 1,000 and 45 pairs: every resample and pair costs the same in
those loops. Peak RSS of sigfast at two B values is measured in fresh
processes. Best of ``--repeat`` runs (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import warnings

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import numpy as np  # noqa: E402

from sigfast import _native, metaeval  # noqa: E402

K, S, N, B = 10, 20, 1000, 1000


def data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    quality = rng.normal(0, 0.5, (S, 1))
    human = np.clip(np.round(70 + 15 * (quality + rng.normal(0, 1, (S, N)))), 0, 100)
    noise = np.linspace(0.5, 3.0, K)
    metrics = np.stack([np.round(human / 15 + rng.normal(0, sd, (S, N)), 1) for sd in noise])
    return human, metrics


def best(fn, repeat: int) -> float:
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


# --------------------------------------------------------------------------- numpy loop
def _pearson(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def _kendall_items(x: np.ndarray, z: np.ndarray) -> float:
    """Mean over items of tau-b across systems (vectorized over items)."""
    iu = np.triu_indices(x.shape[0], 1)
    dx = np.sign(x[:, None, :] - x[None, :, :])[iu]
    dz = np.sign(z[:, None, :] - z[None, :, :])[iu]
    n0 = dx.shape[0]
    s = (dx * dz).sum(0)
    tx, tz = (dx == 0).sum(0), (dz == 0).sum(0)
    with np.errstate(all="ignore"):
        t = s / np.sqrt((n0 - tx) * (n0 - tz))
    return float(np.nanmean(t))


def _level(level: str, x: np.ndarray, z: np.ndarray) -> float:
    if level == "system":
        return _pearson(x.mean(1), z.mean(1))
    return _kendall_items(x, z)


def numpy_boot(level: str, h: np.ndarray, m: np.ndarray, b: int) -> None:
    rng = np.random.default_rng(1)
    vals = np.empty((b, K))
    for r in range(b):
        rows, cols = rng.integers(0, S, S), rng.integers(0, N, N)
        zs = h[rows][:, cols]
        for k in range(K):
            vals[r, k] = _level(level, m[k][rows][:, cols], zs)
    np.quantile(vals, [0.025, 0.975], axis=0)
    for a in range(K):
        for c in range(a + 1, K):
            np.quantile(vals[:, a] - vals[:, c], [0.025, 0.975])


def numpy_perm(level: str, h: np.ndarray, m: np.ndarray, b: int, pairs: list[tuple[int, int]]) -> None:
    rng = np.random.default_rng(2)
    z = [(x - x.mean()) / x.std() for x in m]
    for a, c in pairs:
        obs = _level(level, z[a], h) - _level(level, z[c], h)
        cnt = 0
        for _ in range(b):
            mask = rng.random((S, N)) < 0.5
            xa, xc = np.where(mask, z[c], z[a]), np.where(mask, z[a], z[c])
            cnt += abs(_level(level, xa, h) - _level(level, xc, h)) >= abs(obs)


# --------------------------------------------------------------------------- nlpstats
def nlp_boot(level: str, h: np.ndarray, m: np.ndarray, b: int) -> None:
    from nlpstats.correlations import bootstrap

    lv, coef = ("system", "pearson") if level == "system" else ("input", "kendall")
    np.random.seed(3)
    for k in range(K):
        bootstrap(m[k], h, lv, coef, "both", n_resamples=b)


def nlp_perm(level: str, h: np.ndarray, m: np.ndarray, b: int, pairs: list[tuple[int, int]]) -> None:
    from nlpstats.correlations import permutation_test

    lv, coef = ("system", "pearson") if level == "system" else ("input", "kendall")
    np.random.seed(4)
    for a, c in pairs:
        permutation_test(m[a], m[c], h, lv, coef, "both", n_resamples=b)


# --------------------------------------------------------------------------- sigfast
def sig_boot(level: str, h: np.ndarray, m: np.ndarray, threads: int | None, b: int = B) -> None:
    stat = "pearson" if level == "system" else "kendall_b"
    metaeval.evaluate(
        h,
        m,
        level=level,
        statistic=stat,
        interval="both",
        test="none",
        n_resamples=b,
        n_threads=threads,
        progress=False,
    )


def sig_perm(level: str, h: np.ndarray, m: np.ndarray, threads: int | None, b: int = B) -> None:
    stat = "pearson" if level == "system" else "kendall_b"
    metaeval.evaluate(
        h,
        m,
        level=level,
        statistic=stat,
        interval="none",
        test="perm-both",
        n_resamples=b,
        n_threads=threads,
        progress=False,
    )


def peak_rss(kind: str, b: int) -> int:
    code = (
        "import resource, sys; sys.path.insert(0, 'benches'); import bench_metaeval as bm; "
        f"h, m = bm.data(); bm.sig_{kind}('system', h, m, None, {b}); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument(
        "--quick", action="store_true", help="one repeat; peers on 9 of 45 pairs (system) and 10 resamples (item)"
    )
    args = ap.parse_args()
    rep = 1 if args.quick else args.repeat
    warnings.simplefilter("ignore")
    h, m = data()
    pairs = [(a, c) for a in range(K) for c in range(a + 1, K)]
    rows = []
    for level in ("system", "item"):
        if level == "system":
            pb, pp, np_pairs = B, B, pairs[:9] if args.quick else pairs  # peers at full B
        else:
            pb = 10 if args.quick else 20
            pp, np_pairs = pb, pairs[:3]
        scale_b, scale_p = B / pb, (B / pp) * (len(pairs) / len(np_pairs))
        res = {"level": level}
        res["sig1_boot"] = best(lambda: sig_boot(level, h, m, 1), rep)
        res["sigN_boot"] = best(lambda: sig_boot(level, h, m, None), rep)
        res["sig1_perm"] = best(lambda: sig_perm(level, h, m, 1), rep)
        res["sigN_perm"] = best(lambda: sig_perm(level, h, m, None), rep)
        nb = 100 if level == "item" else B
        res["np_boot"] = best(lambda: numpy_boot(level, h, m, nb), rep) * (B / nb)
        res["np_perm"] = best(lambda: numpy_perm(level, h, m, pp, np_pairs), rep) * scale_p
        res["nlp_boot"] = best(lambda: nlp_boot(level, h, m, pb), rep) * scale_b
        res["nlp_perm"] = best(lambda: nlp_perm(level, h, m, pp, np_pairs), rep) * scale_p
        res["peer_sample"] = {
            "nlpstats_boot_B": pb,
            "nlpstats_perm_B": pp,
            "perm_pairs": len(np_pairs),
            "numpy_boot_B": nb,
        }
        rows.append(res)
        print(json.dumps(res), flush=True)
    mem = {f"{k}_B{b}": peak_rss(k, b) for k in ("boot", "perm") for b in (1000, 64000)}
    print(json.dumps({"peak_rss_kib": mem}))
    print(
        json.dumps(
            {
                "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
                "python": platform.python_version(),
                "sigfast": _native.__version__,
                "build": _native.BUILD_PROFILE,
            }
        )
    )
    for r in rows:
        for task in ("boot", "perm"):
            s1, sn = r[f"sig1_{task}"], r[f"sigN_{task}"]
            print(
                f"{r['level']:6s} {task}: sigfast 1 thread {s1:.3f} s, all cores {sn:.3f} s; "
                f"nlpstats {r[f'nlp_{task}']:.1f} s ({r[f'nlp_{task}'] / s1:.0f}x per core); "
                f"numpy {r[f'np_{task}']:.1f} s ({r[f'np_{task}'] / s1:.0f}x per core)"
            )


if __name__ == "__main__":
    main()
