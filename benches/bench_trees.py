"""EVALB: sigfast's "evalb" format against the EVALB binary built with ``gcc -O2``, on the GUM trees.

EVALB's source (``EVALB/evalb.c`` and ``COLLINS.prm``, fetched into the refs folder, never
committed) is compiled here with ``gcc -O2`` (its own Makefile builds with ``-g`` and no
optimisation, a slower binary that would flatter sigfast). Both scorers read the four GUM file
pairs (gold against benepar and stanza, fiction 1,070 + news 736 trees) with COLLINS.prm's
settings and ``-e 10000`` (MAX_ERROR; plain COLLINS.prm gives up on the news files).

EVALB runs as a subprocess per pair (how it is used; its start-up is about a millisecond).
sigfast is timed in-process (``sigfast.formats.score("evalb", GOLD, SYSTEM,
max_error=10000)``: read, score in Rust, EVALB's text and per-sentence statistics) and as a
process per pair (``sigfast score -f evalb -o max_error=10000``: Python's start-up and imports
cost far more than EVALB's run, so that ratio is below 1). The benchmark first checks that
the reports are identical. Both sides are single-threaded.
"""

from __future__ import annotations

import subprocess
import warnings
from typing import Any

from bench_conllu import sigfast_cli
from benchlib import Ctx, Skip, need, ratio, rounds, run_quiet, timing


def build_evalb(ctx: Ctx):
    """EVALB compiled with gcc -O2 from the fetched source (cached beside it); (binary, prm)."""
    src = need(ctx.refs / "EVALB" / "evalb.c", "EVALB's evalb.c")
    prm = need(ctx.refs / "EVALB" / "COLLINS.prm", "EVALB's COLLINS.prm")
    exe = src.parent / "evalb_O2"
    if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
        try:
            subprocess.run(["gcc", "-O2", "-w", "-o", str(exe), str(src)], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise Skip(f"cannot build EVALB with gcc -O2: {e}") from e
    return exe, prm


def evalb(ctx: Ctx) -> dict[str, Any]:
    from sigfast.formats import score
    from sigfast.formats.trees import EvalbWarning

    exe, prm = build_evalb(ctx)
    data = need(ctx.data / "constituency_parsing" / "gum_benepar_stanza", "the GUM trees")
    parts = ctx.size(("fiction", "news"), ("news",))
    pairs = [(data / f"gold_gum_{p}.mrg", data / f"{s}_gum_{p}.mrg") for s in ("benepar", "stanza") for p in parts]
    warnings.simplefilter("ignore", EvalbWarning)
    cli = sigfast_cli(ctx)
    run_ref = lambda: [run_quiet([str(exe), "-p", str(prm), "-e", "10000", str(g), str(s)]) for g, s in pairs]
    run_sig = lambda: [score("evalb", g, s, max_error=10000).text for g, s in pairs]
    run_cli = lambda: [
        run_quiet([*cli, "score", "-f", "evalb", "-o", "max_error=10000", str(g), str(s)]) for g, s in pairs
    ]
    expected = run_ref()
    same = sum(a == b for a, b in zip(expected, run_sig()))
    if same != len(pairs):
        raise RuntimeError(f"sigfast's EVALB report differs on {len(pairs) - same} pairs")
    times = rounds({"reference": run_ref, "sigfast": run_sig, "sigfast_cli": run_cli}, ctx)
    t = {
        "reference": timing(times["reference"], "EVALB", "evalb -p COLLINS.prm -e 10000 (gcc -O2), per pair", 1),
        "sigfast": timing(times["sigfast"], "sigfast", "sigfast.formats.score('evalb', ...) per pair, in-process", 1),
        "sigfast_cli": timing(times["sigfast_cli"], "sigfast", "sigfast score -f evalb per pair", 1),
    }
    trees = sum(len(g.read_bytes().splitlines()) for g, _ in pairs)
    one = "both scorers are single-threaded: the same measurement serves per core and all cores"
    return {
        "title": f"EVALB on GUM ({len(pairs)} file pairs, {trees:,} tree pairs)",
        "params": {"pairs": len(pairs), "trees": trees, "prm": "COLLINS.prm", "max_error": 10000, "gcc": "-O2"},
        "timings": t,
        "ratios": [
            ratio(t, "EVALB built with gcc -O2, a process per file pair", "per core", "reference", "sigfast", note=one),
            ratio(
                t, "EVALB built with gcc -O2, a process per file pair", "all cores", "reference", "sigfast", note=one
            ),
            ratio(
                t,
                "EVALB (gcc -O2); sigfast as a process per file pair too",
                "whole process",
                "reference",
                "sigfast_cli",
            ),
        ],
        "checks": {"identical_reports": f"{same}/{len(pairs)}"},
    }
