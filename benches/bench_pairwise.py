"""All-pairs speed (issue: many systems at once), ratios measured in one run.

    python benches/bench_pairwise.py [--quick]

For 25 systems (the en_ewt parsers' per-sentence LAS statistics when
../shared/data is present, n = 2,077, B = 10^5) and 150 synthetic systems
(n = 2,000, B = 10^4):
- shared: sigfast.pairwise on shared resamples (all pairs, Holm);
- per pair: the two-system sigfast.paired_bootstrap run once per pair
  (timed on a sample of pairs, scaled to all pairs: each pair costs the same);
- floor: one single-system bootstrap per system (the engine on each system's
  statistics alone), the least any shared-resampling method must do;
and peak memory of the pairwise run at B = 2^16 and B = 2^20 (25 systems),
each in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import sigfast
from sigfast import _native

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def best(fn, repeat: int) -> float:
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def ewt_stats() -> sigfast.Statistics:
    d = SHARED / "dependency_parsing" / "conll2018_en_ewt"
    systems = sorted(p.name for p in (d / "systems").iterdir())
    return sigfast.read(
        d / "gold" / "en_ewt.conllu.gz",
        {s: d / "systems" / s / "en_ewt.conllu.gz" for s in systems},
        format="conllu",
        metric="las",
    )


def synthetic(S: int, n: int, seed: int = 0) -> sigfast.Statistics:
    rng = np.random.default_rng(seed)
    gold = rng.poisson(3.0, n)
    arr = {}
    for j in range(S):
        tp = rng.binomial(gold, 0.80 + 0.1 * j / S)
        arr[f"sys{j:03d}"] = np.stack([tp, tp + rng.poisson(0.3, n), gold], 1)
    return sigfast.Statistics.from_counts(arr, stat_names=("tp", "guessed", "gold"), metric="f1")


def measure(stats: sigfast.Statistics, B: int, sample_pairs: int, repeat: int) -> dict[str, float]:
    S = stats.n_systems
    pairs = S * (S - 1) // 2
    out: dict[str, float] = {"systems": S, "items": stats.n_items, "B": B, "pairs": pairs}
    out["shared_s"] = best(lambda: sigfast.pairwise(stats, n_resamples=B, progress=False), repeat)
    rng = np.random.default_rng(1)
    chosen = [tuple(rng.choice(S, 2, replace=False)) for _ in range(sample_pairs)]

    def per_pair() -> None:
        for i, j in chosen:
            sigfast.paired_bootstrap(stats, systems=(int(i), int(j)), n_resamples=B, progress=False)

    out["per_pair_sample_s"] = best(per_pair, repeat)
    out["per_pair_all_s_scaled"] = out["per_pair_sample_s"] * pairs / sample_pairs
    m = sigfast.metrics.resolve_metric(None, stats)

    def single_each() -> None:
        for s in range(S):
            t = np.ascontiguousarray(stats.values[s])
            _native.bootstrap_values(t, m.native, dict(m.params), 12345, B, "auto", 0, None)

    out["single_system_each_s"] = best(single_each, repeat)
    out["ratio_per_pair_over_shared"] = out["per_pair_all_s_scaled"] / out["shared_s"]
    out["ratio_shared_over_single_each"] = out["shared_s"] / out["single_system_each_s"]
    return out


MEM_SNIPPET = """
import resource, sys, numpy as np, sigfast
sys.path.insert(0, sys.argv[2])
from bench_pairwise import synthetic
st = synthetic(25, 2077)
sigfast.pairwise(st, n_resamples=int(sys.argv[1]), progress=False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json")
    a = ap.parse_args()
    res: dict[str, object] = {"cores": os.cpu_count(), "sigfast": sigfast.__version__}
    st25 = ewt_stats() if SHARED.is_dir() else synthetic(25, 2077)
    res["25_systems_data"] = "en_ewt LAS" if SHARED.is_dir() else "synthetic"
    res["25_systems"] = measure(st25, 10_000 if a.quick else 100_000, 6 if a.quick else 12, a.repeat)
    res["150_systems"] = measure(synthetic(150, 2000), 2_000 if a.quick else 10_000, 20, a.repeat)
    mem = {}
    for B in (1 << 16, 1 << 20) if not a.quick else (1 << 14, 1 << 17):
        out = subprocess.run(
            [sys.executable, "-c", MEM_SNIPPET, str(B), str(Path(__file__).parent)],
            capture_output=True,
            text=True,
            check=True,
        )
        mem[str(B)] = int(out.stdout.strip().splitlines()[-1])  # KiB
    res["peak_rss_kib_by_B"] = mem
    print(json.dumps(res, indent=2))
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
