"""Type-I error of the two-system tests under a true null (the suite's smaller check, at full size).

Pairs of systems with equal expected scores: x = base + e1, y = base + e2 (base, e1, e2 ~ N(0, 1)
per item, n items). Each test runs with B resamples and one seed per data set; the share of data
sets it rejects, with its standard error sqrt(r (1 - r) / D). The bootstrap variants "bk" and
"koehn" are one-sided by construction and are read at alpha / 2, the shifted bootstrap and the
approximate randomization test two-sided at alpha.

    python benches/bench_null_paired.py --datasets 2000 --items 200 --resamples 1000
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import sigfast


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", type=int, default=2000)
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--alpha", type=float, default=0.05)
    args = ap.parse_args()
    rng = np.random.default_rng(2024)
    d, n, b, a = args.datasets, args.items, args.resamples, args.alpha
    rejects = {
        "paired bootstrap, shifted (alpha)": 0,
        "paired bootstrap, bk (alpha/2)": 0,
        "paired bootstrap, koehn (alpha/2)": 0,
        "approximate randomization (alpha)": 0,
    }
    t0 = time.perf_counter()
    for i in range(d):
        base = rng.normal(size=n)
        x, y = base + rng.normal(size=n), base + rng.normal(size=n)
        keys = list(rejects)
        rejects[keys[0]] += sigfast.paired_bootstrap(x, y, n_resamples=b, seed=i, variant="shifted").pvalue <= a
        rejects[keys[1]] += sigfast.paired_bootstrap(x, y, n_resamples=b, seed=i, variant="bk").pvalue <= a / 2
        rejects[keys[2]] += sigfast.paired_bootstrap(x, y, n_resamples=b, seed=i, variant="koehn").pvalue <= a / 2
        rejects[keys[3]] += sigfast.permutation_test(x, y, n_resamples=b, seed=i).pvalue <= a
    secs = time.perf_counter() - t0
    print(f"{d} data sets, {n} items, B = {b}, alpha = {a}, data seed 2024, test seed = data set index; {secs:.0f} s")
    print(f"{'test':38} {'rejections':>10} {'rate':>7} {'s.e.':>7}")
    for k, v in rejects.items():
        r = v / d
        print(f"{k:38} {v:>10} {r:>7.3f} {math.sqrt(r * (1 - r) / d):>7.4f}")


if __name__ == "__main__":
    main()
