"""Coverage of the paired-binary intervals and type-I error of the confidence sequences, by simulation.

Part 1, paired-binary intervals (Newcombe, Tango, Bonett-Price; the normal interval of the paired
difference beside them): model x with accuracy p and model y with accuracy p or p moved 0.03 toward
1/2, on n items, their per-item correctness correlated r (cell probabilities p11 = p py + cov,
p10 = p (1 - py) - cov, p01 = (1 - p) py - cov, p00 = (1 - p)(1 - py) + cov, cov = r sqrt(p(1-p) py(1-py)));
each data set is one multinomial table, and the rate is the share of data sets whose 95% interval
contains the true difference py - p.

Part 2, confidence sequences: the share of data sets in which the 95% sequence, looked at after
every batch of 10 items up to n_max, EVER excludes the true mean (the error over the whole
sequence; at most 0.05 is the promise); the fixed-n normal interval looked at the same way beside
them shows what peeking does to it. Scenarios: one Bernoulli mean, a paired binary difference with
true difference 0, and a paired difference of continuous bounded scores.

Part 3: the median width of each sequence after t items (up to 10,000), beside the fixed-n normal
interval's, for a 0/1 score and a paired 0/1 difference.

Every rate comes with its binomial standard error sqrt(r (1 - r) / D) over D data sets.

    PYTHONPATH=python python benches/bench_designs.py --datasets 2000
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time

import numpy as np

from sigfast.inference.paired_binary import PAIRED_METHODS, bonett_price_interval, newcombe_interval, tango_interval
from sigfast.inference.sequential import confidence_sequence

FUNCS = {"newcombe": newcombe_interval, "tango": tango_interval, "bonett-price": bonett_price_interval}
Z95 = 1.959963984540054


def _rate(k: int, d: int) -> str:
    r = k / d
    return f"{r:.3f} ± {math.sqrt(r * (1 - r) / d):.3f}"


def coverage(datasets: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    lines = [
        "| n | accuracy x | accuracy y | correlation | Newcombe | Tango | Bonett-Price | normal (iid SE) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    cache: dict[tuple[float, ...], tuple[bool, ...]] = {}
    for n in (30, 100, 300):
        for p in (0.05, 0.5, 0.95):
            for shift in (0.0, 0.03):
                py = p + shift if p < 0.5 else p - shift if p > 0.5 else p + shift
                delta = py - p
                for r in (0.0, 0.5):
                    cov = r * math.sqrt(p * (1 - p) * py * (1 - py))
                    # cells [both right, only x right, only y right, both wrong]; x has accuracy p, y has py
                    probs = [p * py + cov, p * (1 - py) - cov, (1 - p) * py - cov, (1 - p) * (1 - py) + cov]
                    tables = rng.multinomial(n, probs, size=datasets)
                    hits = np.zeros(len(PAIRED_METHODS) + 1, dtype=np.int64)
                    for t in tables:
                        key = (*(int(v) for v in t), delta)
                        if key not in cache:
                            n11, b, c, n00 = key[:4]
                            got = [f(n11, b, c, n00, 0.95) for f in FUNCS.values()]
                            d = (c - b) / n
                            s2 = (b + c - n * d * d) / (n - 1)
                            se = math.sqrt(max(s2, 0.0) / n)
                            got.append((d - Z95 * se, d + Z95 * se))
                            cache[key] = tuple(lo <= delta <= hi for lo, hi in got)
                        hits += np.array(cache[key], dtype=np.int64)
                    cells = " | ".join(_rate(int(h), datasets) for h in hits)
                    lines.append(f"| {n} | {p} | {py:g} | {r} | {cells} |")
    return lines


def _scenarios(rng: np.random.Generator, n: int):  # -> name, x, y (None: one mean), true value
    yield "mean, Bernoulli(0.5)", (rng.random(n) < 0.5).astype(float), None, 0.5
    yield "mean, Bernoulli(0.9)", (rng.random(n) < 0.9).astype(float), None, 0.9
    p, r = 0.7, 0.5
    q = p * (1 - p)
    cell = rng.choice(4, size=n, p=[p * p + r * q, q * (1 - r), q * (1 - r), (1 - p) ** 2 + r * q])
    yield "difference, binary 0.7 vs 0.7, corr 0.5", (cell <= 1).astype(float), np.isin(cell, (0, 2)).astype(float), 0.0
    x = rng.beta(2, 5, n)
    yield "difference, Beta(2, 5) scores vs the same", x, np.clip(x + rng.normal(0, 0.15, n), 0, 1), None


def type_one(datasets: int, n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    names: list[str] = []
    counts: dict[str, dict[str, int]] = {}
    # the Beta scenario's true difference: E[clip(x + e, 0, 1)] - E[x], by a large simulation once
    big = rng.beta(2, 5, 4_000_000)
    beta_delta = float(np.mean(np.clip(big + rng.normal(0, 0.15, big.size), 0, 1)) - np.mean(big))
    for _ in range(datasets):
        for name, x, y, truth in _scenarios(rng, n):
            truth = beta_delta if truth is None else truth
            if name not in counts:
                names.append(name)
                counts[name] = {
                    "asymptotic": 0,
                    "asymptotic from 30": 0,
                    "plugin-bernstein": 0,
                    "empirical-bernstein": 0,
                    "normal": 0,
                }
            c = counts[name]
            for method in ("asymptotic", "plugin-bernstein", "empirical-bernstein"):
                cs = confidence_sequence(x, y, method=method, batch=10)
                miss = (cs.lower > truth) | (cs.upper < truth)
                c[method] += bool(miss.any())
                if method == "asymptotic":
                    c["asymptotic from 30"] += bool(miss[cs.looks >= 30].any())
            d = x if y is None else y - x
            t = cs.looks
            csum, csq = np.cumsum(d)[t - 1], np.cumsum(d * d)[t - 1]
            mean = csum / t
            sd = np.sqrt(np.maximum(csq - t * mean * mean, 0) / (t - 1))
            half = Z95 * sd / np.sqrt(t)
            c["normal"] += bool(((mean - half > truth) | (mean + half < truth)).any())
    lines = [
        "| scenario | asymptotic (looks from 10) | asymptotic (from 30) | plug-in empirical-Bernstein | "
        "stitched empirical-Bernstein | fixed-n normal, peeking |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in names:
        c = counts[name]
        lines.append(
            f"| {name} | {_rate(c['asymptotic'], datasets)} | {_rate(c['asymptotic from 30'], datasets)} | "
            f"{_rate(c['plugin-bernstein'], datasets)} | {_rate(c['empirical-bernstein'], datasets)} | "
            f"{_rate(c['normal'], datasets)} |"
        )
    return lines


def widths(datasets: int, seed: int) -> list[str]:
    """Median width of each 95% sequence after t items, over data sets: a 0/1 score at accuracy 1/2 (a mean)
    and the paired difference of two 0/1 scores at accuracy 0.7, correlation 0.5; beside it the fixed-n
    normal interval's (valid at that one t only)."""
    rng = np.random.default_rng(seed)
    ts = (30, 100, 300, 1000, 3000, 10000)
    n = ts[-1]
    methods = ("asymptotic", "plugin-bernstein", "empirical-bernstein")
    lines = [
        "| data | method | " + " | ".join(f"t = {t:,}" for t in ts) + " |",
        "|---|---|" + "---:|" * len(ts),
    ]
    for name in ("mean, Bernoulli(0.5)", "difference, binary 0.7 vs 0.7, corr 0.5"):
        w = {m: [] for m in (*methods, "fixed-n normal")}
        for _ in range(datasets):
            if name.startswith("mean"):
                x, y = (rng.random(n) < 0.5).astype(float), None
                d = x
            else:
                p, r = 0.7, 0.5
                q = p * (1 - p)
                cell = rng.choice(4, size=n, p=[p * p + r * q, q * (1 - r), q * (1 - r), (1 - p) ** 2 + r * q])
                x, y = (cell <= 1).astype(float), np.isin(cell, (0, 2)).astype(float)
                d = y - x
            for m in methods:
                cs = confidence_sequence(x, y, method=m)
                w[m].append([cs.upper[t - 1] - cs.lower[t - 1] for t in ts])
            w["fixed-n normal"].append([2 * Z95 * d[:t].std(ddof=1) / math.sqrt(t) for t in ts])
        for m, rows in w.items():
            med = np.median(np.array(rows), axis=0)
            lines.append(f"| {name} | {m} | " + " | ".join(f"{v:.4f}" for v in med) + " |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", type=int, default=2000)
    ap.add_argument("--n-max", type=int, default=1000, help="items per sequence (part 2)")
    ap.add_argument("--width-datasets", type=int, default=200, help="data sets for the widths (part 3)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    t0 = time.perf_counter()
    print(f"\n## Coverage of 95% paired-binary intervals, {args.datasets} data sets per row\n")
    print("\n".join(coverage(args.datasets, args.seed)))
    t1 = time.perf_counter()
    print(f"\n({t1 - t0:.0f} s)")
    print(
        f"\n## Error over the whole sequence, 95% sequences looked at every 10 items up to {args.n_max}, "
        f"{args.datasets} data sets per row\n"
    )
    print("\n".join(type_one(args.datasets, args.n_max, args.seed + 1)))
    t2 = time.perf_counter()
    print(f"\n({t2 - t1:.0f} s)")
    print(f"\n## Median width of the 95% sequences after t items, {args.width_datasets} data sets\n")
    print("\n".join(widths(args.width_datasets, args.seed + 2)))
    print(f"\n({time.perf_counter() - t2:.0f} s)")


if __name__ == "__main__":
    main()
