"""Clustered items: the type-I error of item vs cluster resampling, and a clustered leaderboard.

Two parts, each printing the figures that ``benches/RESULTS-clusters.md`` records:

``--type1``: how often a paired test rejects a true null at alpha = 0.05 when items are
clustered. Each dataset has 100 clusters of 10 items; the per-item scores of the two systems
are x = u_c + e, y = v_c + f with u, v ~ N(0, 0.3) per cluster and e, f ~ N(0, 0.7) per item,
so the per-item differences have intra-cluster correlation 0.3 and mean 0. Each dataset is
tested with ``sigfast.paired_bootstrap(variant="shifted")`` (two-sided), once resampling items
and once resampling whole clusters, B = 999 (so that p <= 0.05 has probability 0.05 under an
exact null); the rejection rate and its binomial standard error are printed for each scheme.
:func:`simulate` is also what ``tests/test_errorbars.py`` runs, on fewer resamples.

``--pairwise``: ``sigfast.pairwise`` on 500 models x 10,000 items in 1,000 clusters of 10
(right/wrong scores), B = 10,000, with clusters: seconds on one thread (per core) and on all
cores; and ``sigfast.leaderboard`` (normal pair tests, no bootstrap) on the same data.
``--quick`` runs 50 models x 1,000 items, B = 1,000.

    python benches/bench_clusters.py --type1
    python benches/bench_clusters.py --pairwise [--quick]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time

import numpy as np

import sigfast

N_CLUSTERS, CLUSTER_SIZE, ICC = 100, 10, 0.3


def datasets(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` null datasets: x, y (count x n) and the items' cluster keys (n)."""
    rng = np.random.default_rng(seed)
    n = N_CLUSTERS * CLUSTER_SIZE
    keys = np.repeat(np.arange(N_CLUSTERS), CLUSTER_SIZE)
    u = rng.normal(0.0, math.sqrt(ICC), (count, N_CLUSTERS, 2))
    e = rng.normal(0.0, math.sqrt(1.0 - ICC), (count, n, 2))
    xy = u[:, keys, :] + e
    return xy[:, :, 0], xy[:, :, 1], keys


def simulate(
    count: int, scheme: str, *, n_resamples: int = 999, seed: int = 0, alpha: float = 0.05
) -> tuple[float, float]:
    """(rejection rate, its standard error) of the two-sided shifted paired bootstrap at ``alpha``
    on ``count`` null datasets, resampling ``scheme`` ("items" or "clusters")."""
    x, y, keys = datasets(count, seed)
    clusters = keys if scheme == "clusters" else None
    resampling = "auto" if scheme == "clusters" else "items"
    hits = 0
    for k in range(count):
        r = sigfast.paired_bootstrap(
            x[k],
            y[k],
            variant="shifted",
            n_resamples=n_resamples,
            seed=k,
            clusters=clusters,
            resampling=resampling,
            n_threads=1,
            progress=False,
        )
        hits += r.pvalue <= alpha
    rate = hits / count
    return rate, math.sqrt(rate * (1 - rate) / count)


def machine() -> str:
    py = platform.python_version()
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {py}, sigfast {sigfast.__version__}"


def type1(count: int, B: int) -> None:
    print(f"machine: {machine()}")
    print(f"{count} datasets of {N_CLUSTERS} clusters x {CLUSTER_SIZE} items, ICC {ICC}, B = {B}, alpha 0.05")
    for scheme in ("items", "clusters"):
        t = time.perf_counter()
        rate, se = simulate(count, scheme, n_resamples=B)
        print(f"  {scheme:8s} rejection rate {rate:.4f} (SE {se:.4f})  [{time.perf_counter() - t:.1f} s]")


def pairwise(quick: bool, repeat: int) -> None:
    S, n, B = (50, 1_000, 1_000) if quick else (500, 10_000, 10_000)
    rng = np.random.default_rng(0)
    keys = np.arange(n) // 10
    effect = rng.normal(0.0, 0.5, n // 10)[keys]
    skill = np.linspace(-0.5, 0.5, S)
    scores = (rng.random((S, n)) < 1 / (1 + np.exp(-(skill[:, None] + effect[None, :])))).astype(float)
    stats = sigfast.Statistics.from_scores({f"m{j:03d}": scores[j] for j in range(S)})
    print(f"machine: {machine()}")
    print(f"{S} models x {n} items in {n // 10} clusters of 10, B = {B}")

    def run(threads: int | None) -> float:
        t = time.perf_counter()
        pw = sigfast.pairwise(stats, clusters=keys, n_resamples=B, seed=1, n_threads=threads, progress=False)
        dt = time.perf_counter() - t
        assert pw.n_clusters == n // 10
        return dt

    for threads, label in ((1, "1 thread (per core)"), (None, f"all cores ({os.cpu_count()})")):
        times = [run(threads) for _ in range(repeat)]
        print(f"  pairwise, {label}: best {min(times):.2f} s, all {', '.join(f'{t:.2f}' for t in times)}")
    t = time.perf_counter()
    lb = sigfast.leaderboard(stats, clusters=keys, bootstrap=False)
    dt = time.perf_counter() - t
    print(f"  leaderboard (normal pair tests, Holm, groups): {dt:.2f} s; {len(lb.significance_groups() or [])} groups")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--type1", action="store_true")
    ap.add_argument("--pairwise", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--datasets", type=int, default=2000)
    ap.add_argument("-B", type=int, default=999)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    if not (a.type1 or a.pairwise):
        ap.error("choose --type1 and/or --pairwise")
    if a.type1:
        type1(200 if a.quick else a.datasets, 199 if a.quick else a.B)
    if a.pairwise:
        pairwise(a.quick, 1 if a.quick else a.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
