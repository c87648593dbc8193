"""Coverage, type-I error and speed of the two-level and crossed bootstraps (issue 32, items 1 and 2).

    PYTHONPATH=python python benches/bench_design_schemes.py [--datasets 1000] [--resamples 1000] [--speed]

Coverage and type-I error: D simulated data sets per row; each rate is followed by its binomial standard
error sqrt(r (1 − r) / D).

* Two-level (items, then repeats): y_ij = a_i + e_ij, a_i ~ N(0, σ_b²), e_ij ~ N(0, σ_w²), n items × K
  repeats. Coverage of the 95% percentile interval of the mean (truth 0) from the engine's two-level
  bootstrap; beside it the normal interval with Miller's SE (sigfast.designs.nested_variance) and the
  items-only bootstrap of the item means. Type I: two systems with the same item effects and their own
  repeat noise (no difference), the two-level bootstrap's 95% interval of the paired difference excluding 0.
* Crossed (items × prompts): y_ip = a_i + b_p + e_ip (σ_a, σ_b, σ_e), n items × P prompts. Coverage of the
  crossed (pigeonhole) bootstrap's 95% percentile interval of the mean (truth 0: prompts are a sample of
  templates) and of the normal interval with the two-way cluster-robust SE; the items-only bootstrap of the
  items' means over prompts for contrast. Type I: two systems sharing a_i and b_p with a system × prompt
  interaction c_p ~ N(0, σ_c²) (prompt sensitivity, mean 0) and independent cell noise: "A beats B across
  prompts" rejected at 5% (0 outside the 95% interval of the difference).

Speed (--speed): 10,000 items × 5 repeats (two-level: 50,000 rows) and 10,000 items × 10 prompts (crossed:
100,000 cells, each the mean of 5 repeats), two systems, B = 10,000, one thread, against a numpy
implementation of the same draws (numpy's generator; BLAS on one thread).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np

from sigfast import _native
from sigfast.clusters import two_way_se
from sigfast.designs import nested_variance
from sigfast.metrics import resolve_metric

MEAN = resolve_metric("mean", None).handle
Z = 1.959963984540054


def _rate(hits: int, d: int) -> str:
    r = hits / d
    return f"{r:.3f} ± {np.sqrt(r * (1 - r) / d):.3f}"


def _engine(table: np.ndarray, kind: str, items: np.ndarray, second: np.ndarray, seed: int, B: int) -> np.ndarray:
    plan = _native.Plan(np.ascontiguousarray(table), MEAN, "bootstrap", kind, clusters=items, second=second)
    v, _ = _native.resample_values(plan, _native.Job(seed, B, threads=1))
    return np.asarray(v)


def _covers(lo: float, hi: float, truth: float = 0.0) -> bool:
    return lo <= truth <= hi


def two_level_rows(D: int, B: int) -> list[str]:
    rows = []
    for n, k, sb, sw in [(30, 3, 0.5, 1.0), (100, 4, 0.5, 1.0), (100, 4, 1.0, 0.3), (50, 2, 0.0, 1.0)]:
        items = np.repeat(np.arange(n), k).astype(np.uint32)
        reps = np.tile(np.arange(k), n).astype(np.uint32)
        cov = {"two-level bootstrap": 0, "Miller SE (normal)": 0, "items-only bootstrap": 0}
        t1 = 0
        for d in range(D):
            rng = np.random.default_rng([n, k, d])
            a = rng.normal(0, sb, (n, 1))
            y = a + rng.normal(0, sw, (n, k))
            v = _engine(y.reshape(-1, 1), "two-level", items, reps, d, B)[:, 0]
            cov["two-level bootstrap"] += _covers(*np.quantile(v, [0.025, 0.975]))
            se = nested_variance(y).standard_error()
            cov["Miller SE (normal)"] += _covers(y.mean() - Z * se, y.mean() + Z * se)
            m = y.mean(axis=1)
            idx = np.asarray(_native.item_indices(n, d, 0, B, 0))
            cov["items-only bootstrap"] += _covers(*np.quantile(m[idx].mean(axis=1), [0.025, 0.975]))
            y2 = a + rng.normal(0, sw, (n, k))  # system B: same items, its own repeats
            w = _engine(np.column_stack([y.ravel(), y2.ravel()]), "two-level", items, reps, d, B)
            t1 += not _covers(*np.quantile(w[:, 1] - w[:, 0], [0.025, 0.975]))
        share = (sw**2 / k) / (sb**2 + sw**2 / k)
        rows.append(
            f"| {n} | {k} | {sb} | {sw} | {share:.2f} | "
            + " | ".join(_rate(c, D) for c in cov.values())
            + f" | {_rate(t1, D)} |"
        )
    return rows


def share_rows(D: int) -> list[str]:
    """Coverage of the 95% F interval of the within share θ = (σ_w²/K) / (σ_b² + σ_w²/K) (nested_variance)."""
    rows = []
    cases = [(30, 3, 0.5, 1.0), (100, 4, 0.5, 1.0), (100, 4, 1.0, 0.3), (50, 2, 0.0, 1.0), (1000, 2, 0.5, 1.0)]
    for n, k, sb, sw in cases:
        theta = (sw**2 / k) / (sb**2 + sw**2 / k)
        hits = 0
        for d in range(D):
            rng = np.random.default_rng([n, k, d, 3])
            y = rng.normal(0, sb, (n, 1)) + rng.normal(0, sw, (n, k))
            lo, hi = nested_variance(y).within_share_interval
            hits += lo <= theta <= hi
        rows.append(f"| {n} | {k} | {sb} | {sw} | {theta:.2f} | {_rate(hits, D)} |")
    return rows


def crossed_rows(D: int, B: int) -> list[str]:
    rows = []
    cases = [(50, 10, 0.5, 0.3, 0.7, 0.2), (100, 5, 0.5, 0.3, 0.7, 0.2), (50, 20, 0.3, 0.0, 1.0, 0.0)]
    for n, p, sa, sb, se_, sc in cases:
        items = np.repeat(np.arange(n), p).astype(np.uint32)
        prompts = np.tile(np.arange(p), n).astype(np.uint32)
        cov = {"crossed bootstrap": 0, "two-way SE (normal)": 0, "items-only bootstrap": 0}
        t1 = {"crossed bootstrap": 0, "two-way SE (normal)": 0, "items-only bootstrap": 0}
        for d in range(D):
            rng = np.random.default_rng([n, p, d, 7])
            a, b = rng.normal(0, sa, (n, 1)), rng.normal(0, sb, (1, p))
            y = a + b + rng.normal(0, se_, (n, p))
            v = _engine(y.reshape(-1, 1), "crossed", items, prompts, d, B)[:, 0]
            cov["crossed bootstrap"] += _covers(*np.quantile(v, [0.025, 0.975]))
            est, se = two_way_se(y.ravel(), items, prompts)
            cov["two-way SE (normal)"] += _covers(est - Z * se, est + Z * se)
            idx = np.asarray(_native.item_indices(n, d, 0, B, 0))
            m = y.mean(axis=1)
            cov["items-only bootstrap"] += _covers(*np.quantile(m[idx].mean(axis=1), [0.025, 0.975]))
            c = rng.normal(0, sc, (1, p))  # system × prompt interaction: no difference on average
            y2 = a + b + c + rng.normal(0, se_, (n, p))
            w = _engine(np.column_stack([y.ravel(), y2.ravel()]), "crossed", items, prompts, d, B)
            t1["crossed bootstrap"] += not _covers(*np.quantile(w[:, 1] - w[:, 0], [0.025, 0.975]))
            diff = (y2 - y).ravel()
            est, se = two_way_se(diff, items, prompts)
            t1["two-way SE (normal)"] += not _covers(est - Z * se, est + Z * se)
            dm = (y2 - y).mean(axis=1)
            t1["items-only bootstrap"] += not _covers(*np.quantile(dm[idx].mean(axis=1), [0.025, 0.975]))
        rows.append(
            f"| {n} | {p} | {sa} | {sb} | {se_} | {sc} | "
            + " | ".join(_rate(c, D) for c in cov.values())
            + " | "
            + " | ".join(_rate(c, D) for c in t1.values())
            + " |"
        )
    return rows


def speed() -> list[str]:
    n, k, p, B = 10_000, 5, 10, 10_000
    rng = np.random.default_rng(0)
    y2 = rng.random((n * k, 2))
    items2 = np.repeat(np.arange(n), k).astype(np.uint32)
    reps = np.tile(np.arange(k), n).astype(np.uint32)
    cells = rng.random((n, p, k, 2)).mean(axis=2).reshape(n * p, 2)
    items_c = np.repeat(np.arange(n), p).astype(np.uint32)
    prompts = np.tile(np.arange(p), n).astype(np.uint32)
    out = []

    def clock(f) -> float:
        """CPU seconds of this (one-threaded) process: on a shared machine wall time counts the other jobs."""
        t = time.process_time()
        f()
        return time.process_time() - t

    t_two = clock(lambda: _engine(y2, "two-level", items2, reps, 1, B))
    t_cross = clock(lambda: _engine(cells, "crossed", items_c, prompts, 1, B))

    def numpy_two_level() -> None:
        g = np.random.default_rng(1)
        yy = y2.reshape(n, k, 2)
        for s in range(0, B, 100):
            m = min(100, B - s)
            it = g.integers(0, n, (m, n))
            rp = g.integers(0, k, (m, n, k))
            yy[it[:, :, None], rp].mean(axis=(1, 2))

    def numpy_crossed() -> None:
        g = np.random.default_rng(1)
        yc = cells.reshape(n, p, 2)
        for s in range(0, B, 500):
            m = min(500, B - s)
            u = np.zeros((m, n))
            np.add.at(u, (np.repeat(np.arange(m), n), g.integers(0, n, m * n)), 1.0)
            v = np.zeros((m, p))
            np.add.at(v, (np.repeat(np.arange(m), p), g.integers(0, p, m * p)), 1.0)
            for c in range(2):
                np.einsum("bp,bp->b", u @ yc[:, :, c], v) / (n * p)

    t_np_two = clock(numpy_two_level)
    t_np_cross = clock(numpy_crossed)
    out.append(f"| two-level | {n:,} items × {k} repeats ({n * k:,} rows) | {t_two:.2f} s | {t_np_two:.2f} s |")
    out.append(f"| crossed | {n:,} items × {p} prompts ({n * p:,} cells) | {t_cross:.2f} s | {t_np_cross:.2f} s |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--no-coverage", action="store_true")
    ap.add_argument("--shares", action="store_true")
    a = ap.parse_args()
    t0 = time.time()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if not a.no_coverage:
        print(f"\n### Two-level bootstrap, {a.datasets} data sets per row, B = {a.resamples}\n")
        print(
            "| n | K | σ_b | σ_w | within share | two-level bootstrap | Miller SE (normal) | items-only bootstrap "
            "| type I, two-level |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("\n".join(two_level_rows(a.datasets, a.resamples)))
        print(f"\n### Crossed bootstrap, {a.datasets} data sets per row, B = {a.resamples}\n")
        print(
            "| n | P | σ_a | σ_b | σ_e | σ_c | coverage: crossed bootstrap | two-way SE | items-only bootstrap "
            "| type I: crossed bootstrap | two-way SE | items-only bootstrap |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("\n".join(crossed_rows(a.datasets, a.resamples)))
    if a.shares:
        print(f"\n### The within share's 95% F interval, {a.datasets} data sets per row\n")
        print("| n | K | σ_b | σ_w | within share θ | coverage |")
        print("|---:|---:|---:|---:|---:|---:|")
        print("\n".join(share_rows(a.datasets)))
    if a.speed:
        print("\n### Speed, B = 10,000, two systems, one thread (CPU seconds of the process)\n")
        print("| scheme | design | sigfast (Rust) | numpy, same draws |")
        print("|---|---|---:|---:|")
        print("\n".join(speed()))
    print(f"\nload average at end: {os.getloadavg()[0]:.1f}; wall {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
