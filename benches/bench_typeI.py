"""Type-I error of the meta-evaluation pair tests on simulated nulls.

Each dataset has S systems and N items. Human scores h_ij = q_i + e_ij (system quality q_i ~ N(0, 1),
noise e_ij ~ N(0, 1)); two metrics m_ij = h_ij + d_ij with independent d_ij ~ N(0, sd^2) of the same
sd, so the two metrics are exchangeable and neither correlates better with the humans: every test of
"A correlates differently from B" should reject at rate alpha. For each dataset sigfast runs
PERM-SYSTEMS, PERM-INPUTS, PERM-BOTH (cells), PERM-BOTH-ROWCOL and Williams' test, two-sided at
alpha = 0.05; the rate is the share of datasets rejected, with its binomial standard error.

A plain numpy version of the published PERM-SYSTEMS (Deutsch, Dror & Roth 2021: z-normalise each
metric over all cells, swap whole systems with probability 1/2, compare |delta*| with |delta|, p =
c/B) runs on the same datasets, to tell the method from the implementation.

    .venv/bin/python benches/bench_typeI.py                       # system level, Pearson
    .venv/bin/python benches/bench_typeI.py --level item --statistic kendall_b
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time

import numpy as np

from sigfast import metaeval

TESTS = ("perm-systems", "perm-inputs", "perm-both", "perm-both-rowcol", "williams")


def _perm_systems_numpy(h: np.ndarray, x: np.ndarray, y: np.ndarray, B: int, rng: np.random.Generator) -> float:
    """The published PERM-SYSTEMS at system level (Pearson), vectorised over the resamples."""
    z = lambda a: (a - a.mean()) / a.std()
    x, y = z(x), z(y)
    hs, xs, ys = h.mean(1), x.mean(1), y.mean(1)

    def r(a: np.ndarray) -> np.ndarray:  # Pearson of each row of a with hs
        a = a - a.mean(-1, keepdims=True)
        b = hs - hs.mean()
        return (a @ b) / np.sqrt((a * a).sum(-1) * (b @ b))

    obs = r(xs[None])[0] - r(ys[None])[0]
    swap = rng.random((B, h.shape[0])) < 0.5
    d = r(np.where(swap, ys, xs)) - r(np.where(swap, xs, ys))
    return float(np.mean(np.abs(d) >= abs(obs) - 1e-12))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", type=int, default=1000)
    ap.add_argument("-n", "--resamples", type=int, default=1000)
    ap.add_argument("--systems", type=int, default=8)
    ap.add_argument("--items", type=int, default=50)
    ap.add_argument("--sd", type=float, default=1.0, help="metric noise sd")
    ap.add_argument("--level", default="system")
    ap.add_argument("--statistic", default="pearson")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    S, N, B = args.systems, args.items, args.resamples
    rejected = dict.fromkeys(TESTS, 0)
    numpy_rej = 0
    t0 = time.perf_counter()
    for k in range(args.datasets):
        h = rng.normal(size=(S, 1)) + rng.normal(size=(S, N))
        m = np.stack([h + rng.normal(0, args.sd, (S, N)), h + rng.normal(0, args.sd, (S, N))])
        for test in TESTS:
            r = metaeval.evaluate(
                h, m, level=args.level, statistic=args.statistic, interval="none", test=test, n_resamples=B,
                seed=args.seed * 100_003 + k, correction="none", n_threads=1,
            )  # fmt: skip
            rejected[test] += bool(r.pvalues[0, 1] < args.alpha)
        if args.level == "system" and args.statistic == "pearson":
            numpy_rej += _perm_systems_numpy(h, m[0], m[1], B, rng) < args.alpha
    secs = time.perf_counter() - t0
    D = args.datasets
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}")
    print(
        f"{D} datasets, {S} systems x {N} items, metric noise sd {args.sd}, {args.level} level {args.statistic}, "
        f"B = {B}, two-sided, alpha = {args.alpha}, seed {args.seed}; {secs:.0f} s"
    )
    print(f"{'test':<22} {'rejections':>10} {'rate':>7} {'s.e.':>7}")
    rows = [(t.upper(), rejected[t]) for t in TESTS]
    if args.level == "system" and args.statistic == "pearson":
        rows.append(("numpy PERM-SYSTEMS", int(numpy_rej)))
    for name, c in rows:
        p = c / D
        print(f"{name:<22} {c:>10} {p:>7.3f} {math.sqrt(p * (1 - p) / D):>7.4f}")


if __name__ == "__main__":
    main()
