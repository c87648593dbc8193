"""All pairs of systems on shared resamples (``sigfast.pairwise``), against a real floor and per-pair tests.

* The floor: drawing and counting one shared resample stream of the same B × n
  (``_native.draw_count_floor(n, B, seed, threads)``), which any shared-resample method must do
  at least once. The target "pairwise ≤ 2× the floor" is a ratio that can fail: it does on wide
  tables, where summing S × 3 columns and counting S(S−1)/2 pairs costs more than the draws.
* The S(S−1)/2 two-system tests: ``sigfast.paired_bootstrap`` on every pair with the same
  seed and ``resampling="items"`` (all pairs, not a sample); each pair's p-value must equal the
  pairwise one, and the benchmark checks that it does on the first pairs.
* Peak resident memory of a fresh process running ``pairwise`` at two B (it should not grow).

Data: the 25 CoNLL 2018 en_ewt parsers' per-sentence LAS statistics (n = 2,077), and 150
synthetic systems (F1 counts, n = 2,000) for the wide case.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

import sigfast
from benchlib import Ctx, need, ratio, rounds, timing
from sigfast import _native

SEED = 12345


def ewt_stats(ctx: Ctx, systems: int | None = None) -> sigfast.Statistics:
    d = need(ctx.data / "dependency_parsing" / "conll2018_en_ewt", "the en_ewt data")
    names = sorted(p.name for p in (d / "systems").iterdir())[:systems]
    return sigfast.read(
        d / "gold" / "en_ewt.conllu.gz",
        {s: d / "systems" / s / "en_ewt.conllu.gz" for s in names},
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


def _case(ctx: Ctx, stats: sigfast.Statistics, B: int, per_pair: bool) -> dict[str, Any]:
    S, n = stats.n_systems, stats.n_items
    pairs = [(i, j) for i in range(S) for j in range(i + 1, S)]
    pw = lambda th: sigfast.pairwise(
        stats, n_resamples=B, seed=SEED, correction="none", resampling="items", n_threads=th, progress=False
    )
    two = lambda th, i, j: sigfast.paired_bootstrap(
        stats, systems=(i, j), n_resamples=B, seed=SEED, resampling="items", n_threads=th, progress=False
    )
    fns: dict[str, Any] = {
        "sigfast_1": lambda: pw(1),
        "sigfast_all": lambda: pw(None),
        "floor_1": lambda: _native.draw_count_floor(n, B, SEED, 1),
        "floor_all": lambda: _native.draw_count_floor(n, B, SEED, 0),
    }
    meta = {
        "sigfast_1": ("sigfast", "pairwise(resampling='items', n_threads=1)", 1),
        "sigfast_all": ("sigfast", "pairwise(resampling='items')", ctx.cores),
        "floor_1": ("floor", "_native.draw_count_floor(n, B, seed, 1): one shared stream", 1),
        "floor_all": ("floor", "_native.draw_count_floor(n, B, seed, 0): one shared stream", ctx.cores),
    }
    if per_pair:
        for th, key, threads in ((1, "per_pair_1", 1), (None, "per_pair_all", ctx.cores)):
            fns[key] = lambda th=th: [two(th, i, j) for i, j in pairs]
            what = f"paired_bootstrap(resampling='items') on each of the {len(pairs)} pairs"
            meta[key] = ("sigfast, one test per pair", what, threads)
    times = rounds(fns, ctx, slow=[k for k in fns if k.startswith("per_pair")])
    t = {k: timing(times[k], *meta[k]) for k in fns}
    ratios = [
        ratio(
            t,
            "one shared stream: drawing and counting B × n indices (draw_count_floor)",
            "per core",
            "floor_1",
            "sigfast_1",
            kind="of_floor",
            target=2.0,
        ),
        ratio(
            t,
            "one shared stream: drawing and counting B × n indices (draw_count_floor)",
            "all cores",
            "floor_all",
            "sigfast_all",
            kind="of_floor",
            target=2.0,
        ),
    ]
    checks: dict[str, Any] = {}
    if per_pair:
        ratios += [
            ratio(
                t,
                f"the {len(pairs)} two-system tests (paired_bootstrap per pair)",
                "per core",
                "per_pair_1",
                "sigfast_1",
            ),
            ratio(
                t,
                f"the {len(pairs)} two-system tests (paired_bootstrap per pair)",
                "all cores",
                "per_pair_all",
                "sigfast_all",
            ),
        ]
        res = pw(None)
        same = [res.pvalues[i, j] == two(None, i, j).pvalue for i, j in pairs[:5]]
        checks["pairwise_pvalue_equals_two_system_test"] = f"{sum(same)}/{len(same)} pairs checked"
    return {"systems": S, "items": n, "pairs": len(pairs), "B": B, "timings": t, "ratios": ratios, "checks": checks}


MEM_SNIPPET = """
import resource, sys
sys.path.insert(0, sys.argv[2])
import sigfast
from bench_pairwise import synthetic
st = synthetic(25, 2077)
sigfast.pairwise(st, n_resamples=int(sys.argv[1]), progress=False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss_kib(ctx: Ctx, B: int) -> int:
    out = subprocess.run(
        [ctx.python, "-c", MEM_SNIPPET, str(B), str(Path(__file__).parent)], capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip().splitlines()[-1])


def pairwise(ctx: Ctx) -> dict[str, Any]:
    ewt = ewt_stats(ctx, ctx.size(None, 6))
    B = ctx.size(100_000, 2_000)
    main = _case(ctx, ewt, B, per_pair=True)
    wide_S, wide_B = ctx.size(150, 30), ctx.size(10_000, 1_000)
    wide = _case(ctx, synthetic(wide_S, 2000), wide_B, per_pair=False)
    timings = dict(main["timings"])
    ratios = list(main["ratios"])
    for k, v in wide["timings"].items():
        timings[f"wide_{k}"] = v
    for r in wide["ratios"]:
        ratios.append(
            {
                **r,
                "name": f"{r['name']} ({wide_S} synthetic systems)",
                "peer": f"wide_{r['peer']}",
                "sigfast": f"wide_{r['sigfast']}",
            }
        )
    mem_B = ctx.size((1 << 16, 1 << 20), (1 << 12, 1 << 14))
    return {
        "title": "All pairs on shared resamples",
        "params": {
            "data": "CoNLL 2018 en_ewt parsers, per-sentence LAS statistics (correct, system, gold)",
            "systems": main["systems"],
            "pairs": main["pairs"],
            "items": main["items"],
            "B": B,
            "seed": SEED,
            "resampling": "items",
            "correction": "none",
            "wide_case": {
                "data": "synthetic systems, F1 counts (tp, guessed, gold)",
                "systems": wide_S,
                "pairs": wide["pairs"],
                "items": wide["items"],
                "B": wide_B,
            },
        },
        "timings": timings,
        "ratios": ratios,
        "checks": main["checks"],
        "memory": {
            "what": "peak resident memory of a fresh process running pairwise on 25 synthetic systems, "
            "n = 2,077 (KiB in the JSON)",
            "peak_rss_kib_by_B": {str(b): peak_rss_kib(ctx, b) for b in mem_B},
        },
    }


if __name__ == "__main__":
    sys.exit("run through benches/run_all.py --only pairwise")
