"""diff, oracle, agreement on CoNLL-U with character alignment: this checkout against the previous release.

CoNLL-U character alignment (``--align chars``, now the CoNLL-U default) used to run in Python;
it now runs in Rust. This benchmark times the same command lines with this checkout's ``sigfast``
and with the previous release's (commit b43b667, installed in its own venv, ``--old-venv``;
skipped with a note when that venv is absent):

    sigfast oracle GOLD SYS... --align chars          (the 25 en_ewt systems)
    sigfast agreement GOLD SYS... --align chars
    sigfast diff GOLD SYS1 SYS2 --align chars          (the first two systems)

Each is a whole process (start-up, reading, alignment, analysis, report), on the gunzipped
files. Per core: both with ``RAYON_NUM_THREADS=1``; all cores: both with the default thread
count. Build the old release once:

    git worktree add /tmp/sigfast-old b43b667
    python3 -m venv /tmp/sigfast-old/.venv && /tmp/sigfast-old/.venv/bin/pip install /tmp/sigfast-old
"""

from __future__ import annotations

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
    for cmd, args in commands.items():
        for scope, env, threads in (("1", {"RAYON_NUM_THREADS": "1"}, 1), ("all", None, ctx.cores)):
            fns[f"old_{cmd}_{scope}"] = lambda args=args, env=env: run_quiet([str(old), *args], env=env)
            fns[f"new_{cmd}_{scope}"] = lambda args=args, env=env: run_quiet([*new, *args], env=env)
            shown = f"sigfast {args[0]} GOLD {'SYS1 SYS2' if cmd == 'diff' else f'{len(systems)} SYS'} --align chars"
            env_s = " (RAYON_NUM_THREADS=1)" if env else ""
            meta[f"old_{cmd}_{scope}"] = (f"sigfast {OLD_COMMIT}", shown + env_s, threads)
            meta[f"new_{cmd}_{scope}"] = ("sigfast", shown + env_s, threads)
    times = rounds(fns, ctx, slow=fns)
    t = {k: timing(times[k], *meta[k]) for k in fns}
    ratios = []
    for cmd in commands:
        ratios.append(ratio(t, f"sigfast {cmd}, release {OLD_COMMIT}", "per core", f"old_{cmd}_1", f"new_{cmd}_1"))
        ratios.append(ratio(t, f"sigfast {cmd}, release {OLD_COMMIT}", "all cores", f"old_{cmd}_all", f"new_{cmd}_all"))
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
