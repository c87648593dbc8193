"""All pairs of systems on shared resamples (``sigfast.pairwise``), against a real floor and per-pair tests.

* The floor is the larger of two, measured in the same run, round by round: drawing and counting
  one shared resample stream of the same B × n (``_native.draw_count_floor(n, B, seed,
  threads)``), which any shared-resample method must do at least once; and the GEMM floor, one
  numpy/BLAS float64 product of the resample counts (B × n, in chunks of 1,024 rows) by the
  statistics (n × S·k), BLAS on one thread per core (its default for all cores), which any
  method that sums the statistics of every resample must match. Targets: ≤ 2× the floor on
  en_ewt, ≤ 1.5× per core on the 150-system case (issue 21).
* The S(S−1)/2 two-system tests: ``sigfast.paired_bootstrap`` on every pair with the same
  seed and ``resampling="items"`` (all pairs, not a sample); each pair's p-value must equal the
  pairwise one, and the benchmark checks that it does on the first pairs.
* Peak resident memory of a fresh process running ``pairwise`` at two B (it should not grow).
* A leaderboard: 1,000 systems × 10,000 items × B = 10^4 of per-item float scores (the mean),
  in fresh processes (one thread, all cores): time and peak resident memory, beside the same
  two floors.

Data: the 25 CoNLL 2018 en_ewt parsers' per-sentence LAS statistics (n = 2,077), and 150
synthetic systems (F1 counts, n = 2,000) for the wide case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

import sigfast
from benchlib import Ctx, have_blas_control, need, ratio, rounds, timing, with_blas
from sigfast import _native

SEED = 12345
GEMM_CHUNK = 1024  # rows of resample counts per BLAS product in the GEMM floor


def gemm_floor(n: int, B: int, width: int) -> Any:
    """One float64 BLAS product of B × n resample counts by n × width statistics, in chunks of rows
    (one chunk reused: the values do not change a product's time)."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 8, (n, width)).astype(np.float64)
    c = rng.poisson(1.0, (min(GEMM_CHUNK, B), n)).astype(np.float64)

    def run() -> None:
        for start in range(0, B, GEMM_CHUNK):
            m = min(GEMM_CHUNK, B - start)
            c[:m] @ x

    return run


def larger(t: dict[str, Any], a: str, b: str, what: str, threads: int) -> dict[str, Any]:
    """The timing, round by round, of the larger of two floors measured in the same rounds."""
    times = [max(x, y) for x, y in zip(t[a]["times_s"], t[b]["times_s"])]
    return timing(times, "floor", what, threads)


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


def _case(ctx: Ctx, stats: sigfast.Statistics, B: int, per_pair: bool, target: float) -> dict[str, Any]:
    S, n, k = stats.n_systems, stats.n_items, stats.n_stats
    pairs = [(i, j) for i in range(S) for j in range(i + 1, S)]
    pw = lambda th: sigfast.pairwise(
        stats, n_resamples=B, seed=SEED, correction="none", resampling="items", n_threads=th, progress=False
    )
    two = lambda th, i, j: sigfast.paired_bootstrap(
        stats, systems=(i, j), n_resamples=B, seed=SEED, resampling="items", n_threads=th, progress=False
    )
    gemm = gemm_floor(n, B, S * k)
    fns: dict[str, Any] = {
        "sigfast_1": lambda: pw(1),
        "sigfast_all": lambda: pw(None),
        "draw_1": lambda: _native.draw_count_floor(n, B, SEED, 1),
        "draw_all": lambda: _native.draw_count_floor(n, B, SEED, 0),
        "gemm_1": with_blas(1, gemm),
        "gemm_all": with_blas(None, gemm),
    }
    blas_all = ctx.cores if have_blas_control() else 1
    shape = f"({B} x {n}) @ ({n} x {S * k}) float64 in chunks of {GEMM_CHUNK} rows"
    meta = {
        "sigfast_1": ("sigfast", "pairwise(resampling='items', n_threads=1)", 1),
        "sigfast_all": ("sigfast", "pairwise(resampling='items')", ctx.cores),
        "draw_1": ("floor", "_native.draw_count_floor(n, B, seed, 1): one shared stream", 1),
        "draw_all": ("floor", "_native.draw_count_floor(n, B, seed, 0): one shared stream", ctx.cores),
        "gemm_1": ("floor", f"numpy/BLAS {shape}, BLAS 1 thread", 1),
        "gemm_all": ("floor", f"numpy/BLAS {shape}, BLAS default threads", blas_all),
    }
    if per_pair:
        for th, key, threads in ((1, "per_pair_1", 1), (None, "per_pair_all", ctx.cores)):
            fns[key] = lambda th=th: [two(th, i, j) for i, j in pairs]
            what = f"paired_bootstrap(resampling='items') on each of the {len(pairs)} pairs"
            meta[key] = ("sigfast, one test per pair", what, threads)
    times = rounds(fns, ctx, slow=[k for k in fns if k.startswith("per_pair")])
    t = {k: timing(times[k], *meta[k]) for k in fns}
    both = "the larger of the draw floor and the GEMM floor, round by round"
    t["floor_1"] = larger(t, "draw_1", "gemm_1", both, 1)
    t["floor_all"] = larger(t, "draw_all", "gemm_all", both, ctx.cores)
    floor_name = "the larger of drawing and counting B × n indices and the BLAS product of counts by statistics"
    ratios = [
        ratio(t, floor_name, "per core", "floor_1", "sigfast_1", kind="of_floor", target=target),
        ratio(t, floor_name, "all cores", "floor_all", "sigfast_all", kind="of_floor", target=target),
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


BIG_SNIPPET = """
import json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
import sigfast
from bench_pairwise import leaderboard
S, n, B, threads, repeat = (int(a) for a in sys.argv[2:7])
data = leaderboard(S, n)
times = []
for _ in range(repeat):
    t = time.perf_counter()
    sigfast.pairwise(data, n_resamples=B, seed=12345, correction="none", resampling="items",
                     n_threads=threads or None, progress=False)
    times.append(time.perf_counter() - t)
print(json.dumps({"times": times, "peak_rss_kib": peak_rss()}))
"""

# Peak resident memory of this process image: VmHWM of /proc/self/status (Linux) starts afresh
# at exec; getrusage's ru_maxrss keeps the parent's peak across fork + exec, so a benchmark
# child would report the benchmark process's own memory whenever that was larger.
PEAK_RSS = """
def peak_rss():
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""


def leaderboard(S: int, n: int, seed: int = 3) -> dict[str, np.ndarray]:
    """S systems' per-item float scores in [0, 1] (an item difficulty, a system gain, noise)."""
    rng = np.random.default_rng(seed)
    item = rng.random(n)
    gain = np.linspace(0.0, 0.05, S)
    scores = np.clip(item[None, :] + gain[:, None] + rng.normal(0.0, 0.1, (S, n)), 0.0, 1.0)
    return {f"sys{j:04d}": scores[j] for j in range(S)}


def _leaderboard_case(ctx: Ctx) -> dict[str, Any]:
    S, n, B = ctx.size((1000, 10_000, 10_000), (60, 1000, 1000))
    t: dict[str, Any] = {}
    memory: dict[str, int] = {}
    for key, threads in (("sigfast_1", 1), ("sigfast_all", 0)):
        out = subprocess.run(
            [ctx.python, "-c", PEAK_RSS + BIG_SNIPPET, str(Path(__file__).parent), str(S), str(n), str(B), str(threads)]
            + [str(ctx.slow_repeat)],
            capture_output=True,
            text=True,
            check=True,
        )
        rec = json.loads(out.stdout.strip().splitlines()[-1])
        what = "pairwise(mean of per-item float scores, resampling='items'" + (", n_threads=1)" if threads else ")")
        t[key] = timing(rec["times"], "sigfast", f"{what}, in a fresh process", 1 if threads else ctx.cores)
        memory[key] = rec["peak_rss_kib"]
    gemm = gemm_floor(n, B, S)
    shape = f"({B} x {n}) @ ({n} x {S}) float64 in chunks of {GEMM_CHUNK} rows"
    fns = {"draw_1": lambda: _native.draw_count_floor(n, B, SEED, 1), "gemm_1": with_blas(1, gemm)}
    times = rounds(fns, ctx, slow=list(fns))
    t["draw_1"] = timing(times["draw_1"], "floor", "_native.draw_count_floor(n, B, seed, 1)", 1)
    t["gemm_1"] = timing(times["gemm_1"], "floor", f"numpy/BLAS {shape}, BLAS 1 thread", 1)
    t["floor_1"] = larger(t, "draw_1", "gemm_1", "the larger of the draw floor and the GEMM floor, round by round", 1)
    return {
        "data": "synthetic per-item float scores in [0, 1], metric: mean",
        "systems": S,
        "items": n,
        "B": B,
        "timings": t,
        "ratios": [
            ratio(
                t,
                f"leaderboard ({S} systems): the larger of the draw floor and the BLAS product",
                "per core",
                "floor_1",
                "sigfast_1",
                kind="of_floor",
            )
        ],
        "peak_rss_kib": memory,
    }


MEM_SNIPPET = """
import sys
sys.path.insert(0, sys.argv[2])
import sigfast
from bench_pairwise import synthetic
st = synthetic(25, 2077)
sigfast.pairwise(st, n_resamples=int(sys.argv[1]), progress=False)
print(peak_rss())
"""


def peak_rss_kib(ctx: Ctx, B: int) -> int:
    out = subprocess.run(
        [ctx.python, "-c", PEAK_RSS + MEM_SNIPPET, str(B), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout.strip().splitlines()[-1])


def pairwise(ctx: Ctx) -> dict[str, Any]:
    ewt = ewt_stats(ctx, ctx.size(None, 6))
    B = ctx.size(100_000, 2_000)
    main = _case(ctx, ewt, B, per_pair=True, target=2.0)
    wide_S, wide_B = ctx.size(150, 30), ctx.size(10_000, 1_000)
    wide = _case(ctx, synthetic(wide_S, 2000), wide_B, per_pair=False, target=1.5)
    big = _leaderboard_case(ctx)
    timings = dict(main["timings"])
    ratios = list(main["ratios"])
    for prefix, case, label in (("wide", wide, f"{wide_S} synthetic systems"), ("big", big, None)):
        for k, v in case["timings"].items():
            timings[f"{prefix}_{k}"] = v
        for r in case["ratios"]:
            ratios.append(
                {
                    **r,
                    "name": f"{r['name']} ({label})" if label else r["name"],
                    "peer": f"{prefix}_{r['peer']}",
                    "sigfast": f"{prefix}_{r['sigfast']}",
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
            "stream": int(_native.STREAM_VERSION),
            "wide_case": {
                "data": "synthetic systems, F1 counts (tp, guessed, gold)",
                "systems": wide_S,
                "pairs": wide["pairs"],
                "items": wide["items"],
                "B": wide_B,
            },
            "big_case": {k: big[k] for k in ("data", "systems", "items", "B")},
        },
        "timings": timings,
        "ratios": ratios,
        "checks": main["checks"],
        "memory": {
            "what": "peak resident memory of a fresh process running pairwise on 25 synthetic systems, "
            "n = 2,077 (KiB in the JSON)",
            "peak_rss_kib_by_B": {str(b): peak_rss_kib(ctx, b) for b in mem_B},
            "big_case_peak_rss_kib": big["peak_rss_kib"],
        },
    }


if __name__ == "__main__":
    sys.exit("run through benches/run_all.py --only pairwise")
