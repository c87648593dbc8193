"""diff, oracle, agreement on CoNLL-U with character alignment: this checkout against the previous release.

CoNLL-U character alignment (``--align chars``, now the CoNLL-U default) used to run in Python;
it now runs in Rust. This benchmark times the same command lines with this checkout's ``sigfast``
and with the previous release's (commit b43b667, installed in its own venv, ``--old-venv``;
skipped with a note when that venv is absent):

    sigfast oracle GOLD SYS... --align chars          (the 25 en_ewt systems)
    sigfast agreement GOLD SYS... --align chars
    sigfast diff GOLD SYS1 SYS2 --align chars          (the first two systems)

Each is a whole process (start-up, reading, alignment, analysis, report), on the gunzipped
files. Both commands are single-threaded (the benchmark records each run's CPU time beside its
wall time to show it), so one measurement at the default thread count serves per core and all
cores. Build the old release once:

    git worktree add /tmp/sigfast-old b43b667
    python3 -m venv /tmp/sigfast-old/.venv && /tmp/sigfast-old/.venv/bin/pip install /tmp/sigfast-old
"""

from __future__ import annotations

import resource
from pathlib import Path
from typing import Any

from bench_conllu import ewt_files, sigfast_cli
from benchlib import Ctx, Skip, ratio, rounds, run_quiet, timing

OLD_COMMIT = "b43b667"


def analysis(ctx: Ctx) -> dict[str, Any]:
    old = ctx.old_venv / "bin" / "sigfast" if ctx.old_venv else None
    if old is None or not old.exists():
        raise Skip(
            f"the previous release's venv is absent ({ctx.old_venv}); build it: git worktree add /tmp/sigfast-old "
            f"{OLD_COMMIT} && python3 -m venv /tmp/sigfast-old/.venv && /tmp/sigfast-old/.venv/bin/pip install "
            "/tmp/sigfast-old, or pass --old-venv"
        )
    gold, systems = ewt_files(ctx, ctx.size(None, 3))
    new = sigfast_cli(ctx)
    sys_args = [str(s) for s in systems]
    commands = {
        "oracle": ["oracle", str(gold), *sys_args, "--align", "chars"],
        "agreement": ["agreement", str(gold), *sys_args, "--align", "chars"],
        "diff": ["diff", str(gold), *sys_args[:2], "--align", "chars"],
    }
    notes = ["whole processes on both sides: start-up, reading, alignment, analysis and report"]
    if ctx.quick:  # agreement takes tens of seconds a run even on 3 systems
        del commands["agreement"]
        notes.append("agreement left out under --quick")
    version = run_quiet([str(old.parent / "python"), "-c", "import sigfast; print(sigfast.__version__)"]).strip()
    fns: dict[str, Any] = {}
    meta: dict[str, tuple[str, str, int]] = {}
    cpu: dict[str, list[float]] = {}

    def timed_cpu(key: str, cmd: list[str]) -> Any:
        def run() -> None:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run_quiet(cmd)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.setdefault(key, []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)

        return run

    for cmd, args in commands.items():
        shown = f"sigfast {args[0]} GOLD {'SYS1 SYS2' if cmd == 'diff' else f'{len(systems)} SYS'} --align chars"
        fns[f"old_{cmd}"] = timed_cpu(f"old_{cmd}", [str(old), *args])
        fns[f"new_{cmd}"] = timed_cpu(f"new_{cmd}", [*new, *args])
        meta[f"old_{cmd}"] = (f"sigfast {OLD_COMMIT}", shown, ctx.cores)
        meta[f"new_{cmd}"] = ("sigfast", shown, ctx.cores)
    times = rounds(fns, ctx, slow=fns)
    t = {}
    busy = 0.0
    for k in fns:
        t[k] = timing(times[k], *meta[k])
        t[k]["cpu_s"] = [round(c, 4) for c in cpu[k][-len(times[k]) :]]
        busy = max(busy, max(c / w for c, w in zip(t[k]["cpu_s"], times[k])))
    one = (
        f"single-threaded commands on both sides (CPU time / wall time at most {busy:.2f}): the same measurement "
        "serves per core and all cores"
        if busy < 1.3
        else f"CPU time / wall time up to {busy:.2f}: some command used more than one core, so the per-core "
        "figure is an all-cores one"
    )
    notes.append(one)
    ratios = []
    for cmd in commands:
        name = f"sigfast {cmd}, release {OLD_COMMIT}"
        ratios.append(ratio(t, name, "per core", f"old_{cmd}", f"new_{cmd}", note=one))
        ratios.append(ratio(t, name, "all cores", f"old_{cmd}", f"new_{cmd}", note=one))
    return {
        "title": f"diff / oracle / agreement on CoNLL-U, --align chars, {len(systems)} en_ewt systems",
        "params": {
            "systems": len(systems),
            "align": "chars",
            "old_release": OLD_COMMIT,
            "old_version": version,
            "old_venv": str(ctx.old_venv),
            "commands": {k: " ".join(["sigfast", *v[:1], "..."]) for k, v in commands.items()},
        },
        "timings": t,
        "ratios": ratios,
        "notes": notes,
    }


if __name__ == "__main__":
    raise SystemExit(Path(__file__).name + ": run through benches/run_all.py --only analysis")
