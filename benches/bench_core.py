"""Speed of the core engine, as ratios measured in one run (issue: sigfast core).

Run from the repository root after `pip install -e .`:

    python benches/bench_core.py [--quick] [--evaluatio PATH/TO/venv/bin/python]

Figures (best of --repeat runs each, wall clock):
1. two systems' F1 statistics, n = 2,000, B = 10^6, all cores, against
   (a) the best vectorized numpy version (counts matrix @ statistics; timed
       at B = 20,000 and scaled per resample),
   (b) evaluatio's paired bootstrap on the same per-item scores (its own venv;
       it pins an old numpy), B = 10^6,
   (c) the floor: drawing and counting the same B x n indices, nothing else;
2. token-level accuracy, B = 10^6: 130,000 tokens against 1,300 tokens;
3. approximate randomization, n = 2,000, B = 10^4, against
   scipy.stats.permutation_test (paired 'samples', vectorized);
4. thread scaling 1 -> 2 threads of benchmark 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

import sigfast
from sigfast import _native


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def f1_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.poisson(3.0, n)

    def tagger(recall: float) -> np.ndarray:
        tp = rng.binomial(gold, recall)
        fp = rng.poisson(0.05 * (gold + 1))
        return np.stack([tp, tp + fp, gold], 1).astype(np.float64)

    return tagger(0.86), tagger(0.87)


def numpy_f1_bootstrap(x: np.ndarray, y: np.ndarray, B: int, batch: int = 1000) -> np.ndarray:
    """The best vectorized numpy version we know: a counts matrix times the statistics."""
    n = len(x)
    table = np.concatenate([x, y], 1)
    g = np.random.default_rng(1)
    out = np.empty(B)

    def f1(s: np.ndarray) -> np.ndarray:
        p, r = s[:, 0] / s[:, 1], s[:, 0] / s[:, 2]
        return 2 * p * r / (p + r)

    for start in range(0, B, batch):
        m = min(batch, B - start)
        idx = g.integers(0, n, (m, n))
        counts = np.bincount((idx + (np.arange(m) * n)[:, None]).ravel(), minlength=m * n).reshape(m, n)
        sums = counts.astype(np.float64) @ table
        out[start : start + m] = f1(sums[:, 3:]) - f1(sums[:, :3])
    return out


EVALUATIO_SNIPPET = """
import sys, time, numpy as np
from evaluatio.inference.hypothesis import paired_bootstrap_test
d = np.load(sys.argv[1]); B = int(sys.argv[2]); rep = int(sys.argv[3])
x, y = d['x'].tolist(), d['y'].tolist()
ts = []
for _ in range(rep):
    t = time.perf_counter(); paired_bootstrap_test(x, y, B); ts.append(time.perf_counter() - t)
print(min(ts))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="B = 10^5 instead of 10^6 (smoke run)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--evaluatio", default="benches/.venv-evaluatio/bin/python")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args()
    B = 100_000 if a.quick else 1_000_000
    rep = a.repeat
    n = 2000
    res: dict[str, float | str] = {"cores": os.cpu_count() or 0, "B": B, "n": n, "sigfast": sigfast.__version__}

    x, y = f1_data(n)
    run = lambda th: sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=B, n_threads=th, progress=False)
    res["f1_sigfast_all_cores_s"] = best(lambda: run(None), rep)
    res["f1_sigfast_1_thread_s"] = best(lambda: run(1), rep)
    res["thread_scaling_1_to_2"] = res["f1_sigfast_1_thread_s"] / best(lambda: run(2), rep)
    nb = 20_000
    res["f1_numpy_s_scaled"] = best(lambda: numpy_f1_bootstrap(x, y, nb), max(1, rep - 1)) * (B / nb)
    res["f1_floor_all_cores_s"] = best(lambda: _native.draw_count_floor(n, B, 1, 0), rep)
    res["ratio_numpy_over_sigfast"] = res["f1_numpy_s_scaled"] / res["f1_sigfast_all_cores_s"]
    res["ratio_sigfast_over_floor"] = res["f1_sigfast_all_cores_s"] / res["f1_floor_all_cores_s"]

    # evaluatio on the same per-item scores (sentence-level F1 as scores)
    def sent_f1(s: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            f = 2 * s[:, 0] / (s[:, 1] + s[:, 2])
        return np.nan_to_num(f, nan=1.0)

    sx, sy = sent_f1(x), sent_f1(y)
    res["scores_sigfast_all_cores_s"] = best(
        lambda: sigfast.paired_bootstrap(sx, sy, n_resamples=B, progress=False), rep
    )
    if os.path.exists(a.evaluatio):
        path = "/tmp/sigfast_bench_scores.npz"
        np.savez(path, x=sx, y=sy)
        out = subprocess.run(
            [a.evaluatio, "-c", EVALUATIO_SNIPPET, path, str(B), str(rep)], capture_output=True, text=True, check=True
        )
        res["scores_evaluatio_s"] = float(out.stdout.strip().splitlines()[-1])
        res["ratio_evaluatio_over_sigfast"] = res["scores_evaluatio_s"] / res["scores_sigfast_all_cores_s"]
    else:
        res["scores_evaluatio_s"] = (
            "not installed (python3 -m venv benches/.venv-evaluatio && "
            "benches/.venv-evaluatio/bin/pip install evaluatio==0.5.2)"
        )

    # token-level accuracy: cost follows distinct rows
    rng = np.random.default_rng(3)
    for tokens in (1_300, 130_000):
        ta = (rng.random(tokens) < 0.97).astype(np.float64)
        tb = np.where(rng.random(tokens) < 0.8, ta, (rng.random(tokens) < 0.972)).astype(np.float64)
        res[f"tokens_{tokens}_s"] = best(lambda: sigfast.paired_bootstrap(ta, tb, n_resamples=B, progress=False), rep)
    res["ratio_130k_over_1300"] = res["tokens_130000_s"] / res["tokens_1300_s"]

    # approximate randomization vs scipy
    from scipy import stats

    Bp = 10_000
    sx2, sy2 = sx.copy(), sy.copy()
    res["ar_sigfast_s"] = best(lambda: sigfast.permutation_test(x, y, metric="f1", n_resamples=Bp, progress=False), rep)

    def f1_stat(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
        # a, b: (..., n) per-item values; paired permutation swaps a[i] and b[i]
        return b.mean(axis=axis) - a.mean(axis=axis)

    res["ar_scipy_s"] = best(
        lambda: stats.permutation_test(
            (sx2, sy2), f1_stat, permutation_type="samples", vectorized=True, n_resamples=Bp, rng=0
        ),
        rep,
    )
    res["ar_sigfast_scores_s"] = best(lambda: sigfast.permutation_test(sx2, sy2, n_resamples=Bp, progress=False), rep)
    res["ratio_scipy_over_sigfast_ar"] = res["ar_scipy_s"] / res["ar_sigfast_scores_s"]
    print(json.dumps(res, indent=2))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(res, fh, indent=2)


if __name__ == "__main__":
    sys.exit(main())
