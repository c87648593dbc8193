"""ASO speed against deepsig (the reference implementation).

    python benches/bench_aso.py [--repeat-deepsig 3] [--repeat 30] [--multi]

Cases, each with the same settings on both sides (confidence 0.95, dt =
0.005, B bootstrap iterations):
- 2 systems × 20 seeds, B = 1,000: ``deepsig.aso(num_jobs=1)`` against
  ``sigfast.aso(n_threads=1)`` (the per-core ratio), then all cores on
  both sides (``num_jobs=-1`` for deepsig, joblib processes);
- with ``--multi``: 5 systems × 20 seeds (10 pairs), B = 100,
  ``deepsig.multi_aso(num_jobs=1)`` against ``sigfast.compare_seeds``
  (which also runs Welch and Mann-Whitney on every pair);
- sigfast alone at B = 10^6 (1 thread and all cores), with the peak
  resident memory of a fresh process at B = 10^4 and B = 10^6.
Best of N runs, since the machine is shared; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import warnings

import numpy as np

import sigfast


def best(fn, repeat: int) -> float:
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def peak_rss_kib(n_resamples: int) -> int:
    code = (
        "import resource, numpy as np, sigfast\n"
        "rng = np.random.default_rng(0)\n"
        "a, b = rng.normal(0.5, 1, 20), rng.normal(0, 1, 20)\n"
        f"sigfast.aso(a, b, n_resamples={n_resamples})\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat-deepsig", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--multi", action="store_true", help="also 5 systems with deepsig.multi_aso")
    args = ap.parse_args()
    import deepsig

    warnings.simplefilter("ignore")
    cores = os.cpu_count()
    print(f"machine: {cpu_name()}, {cores} cores; python {platform.python_version()}")
    from importlib.metadata import version

    print(f"sigfast {sigfast.__version__}, deepsig {version('deepsig')}, numpy {np.__version__}")
    print(f"load average at start: {os.getloadavg()}")

    rng = np.random.default_rng(2024)
    a, b = rng.normal(0.3, 1, 20), rng.normal(0, 1, 20)
    B = 1000

    def ds(jobs: int) -> float:
        return deepsig.aso(a, b, num_bootstrap_iterations=B, num_jobs=jobs, seed=1, show_progress=False)

    def sf(threads: int | None) -> float:
        return sigfast.aso(a, b, n_resamples=B, seed=1, n_threads=threads).statistic

    sf(1)  # warm up
    t_ds1 = best(lambda: ds(1), args.repeat_deepsig)
    t_sf1 = best(lambda: sf(1), args.repeat)
    t_dsn = best(lambda: ds(-1), args.repeat_deepsig)
    t_sfn = best(lambda: sf(None), args.repeat)
    print(
        f"eps_min: deepsig {ds(1):.4f}, sigfast {sf(1):.4f} (violation ratio {sigfast.seeds.violation_ratio(a, b):.4f})"
    )
    print()
    print("| case | deepsig | sigfast | ratio |")
    print("|---|---|---|---|")
    print(
        f"| 2 × 20 seeds, B = {B}, one core (deepsig num_jobs=1, sigfast n_threads=1) | {t_ds1:.3f} s | "
        f"{1e3 * t_sf1:.2f} ms | **{t_ds1 / t_sf1:,.0f}×** |"
    )
    print(
        f"| 2 × 20 seeds, B = {B}, all {cores} cores (num_jobs=-1, n_threads=None) | {t_dsn:.3f} s | "
        f"{1e3 * t_sfn:.2f} ms | **{t_dsn / t_sfn:,.0f}×** |"
    )

    if args.multi:
        names = [f"s{i}" for i in range(5)]
        scores = {n: rng.normal(0.1 * i, 1, 20) for i, n in enumerate(names)}
        Bm = 100
        t_dm = best(
            lambda: deepsig.multi_aso(scores, num_bootstrap_iterations=Bm, num_jobs=1, seed=1, show_progress=False), 1
        )
        t_sm = best(lambda: sigfast.compare_seeds(scores, n_resamples=Bm, n_threads=1), args.repeat)
        print(
            f"| 5 × 20 seeds (10 pairs), B = {Bm}, one core (multi_aso vs compare_seeds incl. Welch + MWU) | "
            f"{t_dm:.3f} s | {1e3 * t_sm:.2f} ms | **{t_dm / t_sm:,.0f}×** |"
        )

    big = 1_000_000
    t_big1 = best(lambda: sigfast.aso(a, b, n_resamples=big, n_threads=1), 2)
    t_bign = best(lambda: sigfast.aso(a, b, n_resamples=big), 2)
    print()
    print(
        f"sigfast alone, 2 × 20 seeds, B = 10^6: {t_big1:.3f} s on one thread "
        f"({1e6 * t_big1 / big:.2f} µs per resample), {t_bign:.3f} s on all cores"
    )
    print(f"peak RSS of a fresh process: B = 10^4: {peak_rss_kib(10_000):,} KiB; B = 10^6: {peak_rss_kib(big):,} KiB")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
