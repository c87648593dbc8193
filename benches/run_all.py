"""Run every speed benchmark in one process and write one JSON.

    python benches/run_all.py                  # the full run: writes benches/results.json
    python benches/run_all.py --quick          # tiny sizes, to check that everything runs
    python benches/run_all.py --only conllu --only evalb
    python benches/run_all.py --list

Each benchmark is one entry of REGISTRY: a name and ``module:function`` in benches/; the
function takes a :class:`benchlib.Ctx` and returns a record (timings and ratios, see
benchlib.py). Adding a benchmark is one entry. A benchmark whose peer, reference script or data
is missing is recorded as skipped, with the reason, and the run goes on.

The JSON holds the machine (CPU model, cores, load average before and after the run and each
benchmark), the date, sigfast's version, build profile and git commit, the peers' versions,
and for each benchmark its parameters, every repeat's time, best and median, threads, and
ratios per core (sigfast on one thread against the peer on one thread) and on all cores
(sigfast on all threads against the peer's best single-process configuration, named in the
record). ``benches/make_readme.py`` turns it into the README's Speed section.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import benchlib  # noqa: E402

#: name -> "module:function" (module in benches/). Order = run order.
REGISTRY: dict[str, str] = {
    "bootstrap_f1": "bench_core:bootstrap_f1",
    "bootstrap_scores": "bench_core:bootstrap_scores",
    "permutation": "bench_core:permutation",
    "token_scaling": "bench_core:token_scaling",
    "pairwise": "bench_pairwise:pairwise",
    "conllu": "bench_conllu:conllu",
    "analysis": "bench_analysis:analysis",
    "conlleval": "bench_chunk:conlleval",
    "evalb": "bench_trees:evalb",
    "startup": "bench_startup:startup",
    "mt": "bench_mt:mt",
    "ter": "bench_ter:ter",
    "rouge": "bench_rouge:rouge",
    "aso": "bench_aso:aso",
    "metaeval": "metaeval_entry:metaeval",
}

EVALUATIO_VENV = benchlib.REFS.parent / "venv-evaluatio" / "bin" / "python"

PEERS = ("numpy", "scipy", "threadpoolctl", "sacrebleu", "rouge-score", "nltk", "deepsig", "nlpstats", "evaluatio")


def git(*args: str) -> str | None:
    try:
        r = subprocess.run(["git", "-C", str(benchlib.ROOT), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def machine() -> dict[str, Any]:
    mem = None
    try:
        with open("/proc/meminfo") as fh:
            kib = int(fh.readline().split()[1])
            mem = round(kib / 2**20, 1)
    except (OSError, ValueError, IndexError):
        pass
    return {
        "cpu_model": benchlib.cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": mem,
        "os": platform.platform(),
        "python": platform.python_version(),
    }


def sigfast_info() -> dict[str, Any]:
    import sigfast
    from sigfast import _native

    dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!benches")
    return {
        "version": sigfast.__version__,
        "build_profile": getattr(_native, "BUILD_PROFILE", None),
        "commit": git("rev-parse", "HEAD"),
        "commit_short": git("rev-parse", "--short", "HEAD"),
        "commit_date": git("show", "-s", "--format=%cI", "HEAD"),
        "dirty_outside_benches": bool(dirty) if dirty is not None else None,
    }


def load(spec: str) -> Any:
    module, func = spec.split(":")
    mod = importlib.import_module(module)
    if not hasattr(mod, func):
        raise benchlib.Skip(f"{module}.py has no {func}(ctx) function")
    return getattr(mod, func)


def summary_line(name: str, rec: dict[str, Any]) -> str:
    parts = []
    for r in rec.get("ratios", []):
        unit = "x floor" if r["kind"] == "of_floor" else "x"
        parts.append(f"{r['name']} [{r['scope']}] {r['best']:.3g}{unit}")
    return f"{name}: " + ("; ".join(parts) if parts else "(no ratios)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="tiny sizes: checks that every benchmark runs (seconds)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="run only NAME (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    ap.add_argument(
        "--out",
        help="JSON to write (default: benches/results.json; results-quick.json under --quick, "
        "results-partial.json with --only)",
    )
    ap.add_argument("--repeat", type=int, help="timed repeats per configuration (default 5; 2 under --quick)")
    ap.add_argument("--slow-repeat", type=int, help="repeats of peers taking tens of seconds (default 3; 1 quick)")
    ap.add_argument("--data", default=str(benchlib.DATA), help="shared data folder (default: %(default)s)")
    ap.add_argument("--refs", default=str(benchlib.REFS), help="fetched reference scorers (default: %(default)s)")
    ap.add_argument(
        "--old-venv",
        default="/tmp/sigfast-old/.venv",
        help="venv of the previous release (commit b43b667) for the analysis benchmark",
    )
    ap.add_argument(
        "--evaluatio-python",
        default=str(EVALUATIO_VENV) if EVALUATIO_VENV.exists() else None,
        help="python of a venv with evaluatio (it pins numpy < 2.1), if not importable here (default: %(default)s)",
    )
    a = ap.parse_args(argv)

    if a.list:
        for name, spec in REGISTRY.items():
            print(f"{name:18s} {spec}")
        return 0
    unknown = [n for n in a.only if n not in REGISTRY]
    if unknown:
        ap.error(f"unknown benchmark(s) {', '.join(unknown)}; --list shows them")
    names = [n for n in REGISTRY if not a.only or n in a.only]

    blas_note = "threadpoolctl: BLAS limited to 1 thread for per-core peers, default for all-cores ones"
    if not benchlib.have_blas_control():
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = "1"
        blas_note = "threadpoolctl missing: BLAS fixed to 1 thread (multi-threaded BLAS not tried)"

    out = (
        Path(a.out)
        if a.out
        else HERE / ("results-quick.json" if a.quick else "results-partial.json" if a.only else "results.json")
    )
    repeat = a.repeat or (2 if a.quick else 5)
    slow = a.slow_repeat or (1 if a.quick else 3)
    peers = {p: benchlib.version_of(p) for p in PEERS}
    if a.evaluatio_python and not peers["evaluatio"]:
        r = subprocess.run(
            [a.evaluatio_python, "-c", "import importlib.metadata as m; print(m.version('evaluatio'))"],
            capture_output=True,
            text=True,
        )
        peers["evaluatio"] = f"{r.stdout.strip()} ({a.evaluatio_python})" if r.returncode == 0 else None
    started = time.time()
    result: dict[str, Any] = {
        "schema": 1,
        "date_utc": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join(["python", "benches/run_all.py", *(argv if argv is not None else sys.argv[1:])]),
        "quick": a.quick,
        "partial": bool(a.only),
        "repeat": repeat,
        "slow_repeat": slow,
        "machine": {**machine(), "loadavg_before": benchlib.loadavg()},
        "sigfast": sigfast_info(),
        "peers": peers,
        "blas": blas_note,
        "benchmarks": {},
        "skipped": {},
        "errors": {},
    }
    print(
        f"sigfast {result['sigfast']['version']} ({result['sigfast']['build_profile']}) at "
        f"{result['sigfast']['commit_short']}; {result['machine']['cpu_model']}, {result['machine']['cores']} cores, "
        f"load {result['machine']['loadavg_before']}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="sigfast-bench-") as tmp:
        ctx = benchlib.Ctx(
            quick=a.quick,
            repeat=repeat,
            slow_repeat=slow,
            data=Path(a.data),
            refs=Path(a.refs),
            tmp=Path(tmp),
            cores=os.cpu_count() or 1,
            old_venv=Path(a.old_venv) if a.old_venv else None,
            evaluatio_python=a.evaluatio_python,
        )
        for name in names:
            print(f"[{name}]", file=sys.stderr, flush=True)
            before, t0 = benchlib.loadavg(), time.perf_counter()
            try:
                rec = load(REGISTRY[name])(ctx)
            except (benchlib.Skip, ImportError) as e:
                result["skipped"][name] = str(e)
                print(f"{name}: skipped ({e})", flush=True)
                continue
            except Exception as e:  # record, go on with the others
                result["errors"][name] = "".join(traceback.format_exception(e))[-4000:]
                print(f"{name}: ERROR {e!r}", flush=True)
                continue
            rec.setdefault("command", f"python benches/run_all.py --only {name}" + (" --quick" if a.quick else ""))
            rec["elapsed_s"] = round(time.perf_counter() - t0, 2)
            rec["loadavg_before"], rec["loadavg_after"] = before, benchlib.loadavg()
            result["benchmarks"][name] = rec
            print(summary_line(name, rec), flush=True)
    result["machine"]["loadavg_after"] = benchlib.loadavg()
    result["elapsed_s"] = round(time.time() - started, 1)
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"wrote {out} ({result['elapsed_s']} s; {len(result['benchmarks'])} run, "
        f"{len(result['skipped'])} skipped, {len(result['errors'])} errors)"
    )
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
