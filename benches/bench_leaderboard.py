"""Family-wise error and power of Holm and Romano-Wolf on all pairs of S systems, by simulation.

Each data set: S systems scored on n shared items, x[s, i] = e[i] + mu[s] + u[s, i] with an item
effect e ~ N(0, 1) shared by every system (so the systems' scores correlate 0.5, as models on one
benchmark do) and u ~ N(0, 1). The metric is the mean score. Every data set runs
``sigfast.pairwise(variant="shifted", correction="romano-wolf", n_resamples=B)`` once (two-sided,
shared resamples); Holm adjusts the same unadjusted p-values (``multitest.adjust``), Romano-Wolf's
p-values are the result's. A pair is rejected when its adjusted p-value is below alpha = 0.05.

Scenarios: "equal" (every mean equal: the complete null), "two groups" (the first half of the
systems at 0, the rest at +d: pairs within a group are true nulls, pairs across are not) and
"spread" (means 0, d, 2d, ...: every pair differs). The family-wise error is the share of data sets
with at least one true null rejected; the power is the mean share of false nulls rejected (per
pair), and "any" the share of data sets with at least one false null rejected. Every rate comes with
its standard error over the D data sets (binomial sqrt(r (1 - r) / D) for shares of data sets, the
standard deviation over data sets / sqrt(D) for the per-pair power).

    PYTHONPATH=python python benches/bench_leaderboard.py --datasets 1000
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time

import numpy as np

import sigfast
from sigfast.pairwise import _adjust_matrix

ALPHA = 0.05


def _share(k: int, d: int) -> str:
    r = k / d
    return f"{r:.3f} ± {math.sqrt(r * (1 - r) / d):.3f}"


def _mean(x: list[float]) -> str:
    a = np.asarray(x, dtype=float)
    if a.size == 0:
        return "-"
    return f"{a.mean():.3f} ± {a.std(ddof=1) / math.sqrt(a.size):.3f}"


def means(scenario: str, s: int, d: float) -> np.ndarray:
    if scenario == "equal":
        return np.zeros(s)
    if scenario == "two groups":
        return np.where(np.arange(s) < s // 2, 0.0, d)
    return d * np.arange(s)


def run(scenario: str, s: int, d: float, n: int, datasets: int, B: int, seed: int) -> dict[str, object]:
    mu = means(scenario, s, d)
    iu = np.triu_indices(s, 1)
    null = mu[iu[0]] == mu[iu[1]]
    out: dict[str, list[float]] = {f"{m}_{k}": [] for m in ("holm", "rw") for k in ("fwe", "power", "any")}
    for k in range(datasets):
        rng = np.random.default_rng([seed, s, k])
        x = rng.normal(size=n)[None, :] + mu[:, None] + rng.normal(size=(s, n))
        res = sigfast.pairwise(
            {f"s{j}": x[j] for j in range(s)},
            n_resamples=B,
            seed=k,
            variant="shifted",
            correction="romano-wolf",
            resampling="items",
            n_threads=1,
        )
        for name, adj in (("holm", _adjust_matrix(res.pvalues, "holm", ALPHA)), ("rw", res.adjusted)):
            rej = adj[iu] < ALPHA
            out[f"{name}_fwe"].append(float(rej[null].any()))
            if (~null).any():
                out[f"{name}_power"].append(float(rej[~null].mean()))
                out[f"{name}_any"].append(float(rej[~null].any()))
    return {key: v for key, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", type=int, default=1000)
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261128)
    args = ap.parse_args()
    t0 = time.time()
    D = args.datasets
    head = (
        "| S | scenario | d | true nulls | Holm FWE | Romano-Wolf FWE | Holm power | Romano-Wolf power "
        "| Holm any | Romano-Wolf any |"
    )
    lines = [head, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in (5, 10):
        for scenario, d in (("equal", 0.0), ("two groups", 0.25), ("spread", 0.1 if s == 5 else 0.05)):
            r = run(scenario, s, d, args.items, D, args.resamples, args.seed)
            mu = means(scenario, s, d)
            iu = np.triu_indices(s, 1)
            nulls = int((mu[iu[0]] == mu[iu[1]]).sum())
            fwe = [_share(int(sum(r[f"{m}_fwe"])), D) if nulls else "-" for m in ("holm", "rw")]
            power = [_mean(r[f"{m}_power"]) for m in ("holm", "rw")]
            anyp = [_share(int(sum(r[f"{m}_any"])), D) if r[f"{m}_any"] else "-" for m in ("holm", "rw")]
            lines.append(
                f"| {s} | {scenario} | {d:g} | {nulls} of {len(iu[0])} | " + " | ".join(fwe + power + anyp) + " |"
            )
            print(lines[-1], flush=True)
    took = time.time() - t0
    load = os.getloadavg()
    print()
    print("\n".join(lines))
    print(
        f"\n{D} data sets per row, n = {args.items} items, B = {args.resamples}, alpha = {ALPHA}; "
        f"{took:.0f} s on {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"load average {load[0]:.1f}"
    )


if __name__ == "__main__":
    main()
