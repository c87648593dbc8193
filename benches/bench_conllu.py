"""CoNLL-U scoring: sigfast's "conllu" format against conll18_ud_eval.py, on the 25 en_ewt systems.

The reference, ``conll18_ud_eval.py`` v1.2 (ufal/conll2018, ``evaluation_script/``; fetched into
the refs folder, never committed), runs **as a subprocess**, once per system file, the way it
is used: ``python conll18_ud_eval.py -v GOLD SYSTEM``. Its time therefore includes starting
Python for each file (a few tens of ms of the 0.5–1 s a file takes). It runs under the same
interpreter as the benchmark.

sigfast is timed two ways:

* in-process: ``sigfast.formats.score("conllu", GOLD, SYSTEM)`` per file (read, align on
  characters and count in Rust, build the verbose table and the per-sentence statistics of all
  13 metrics; gold re-read for every file, as the reference does);
* whole process, as the reference: ``sigfast score -f conllu GOLD SYSTEM`` once per file
  (start-up and imports included).

Both read the same gunzipped files. The benchmark first checks that sigfast's text equals the
reference's stdout for every file. The scorers are single-threaded on both sides, so the
per-core and the all-cores figures are the same measurement.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path
from typing import Any

from benchlib import Ctx, need, ratio, rounds, run_quiet, timing

REFERENCE = "conll18_ud_eval.py"


def ewt_files(ctx: Ctx, systems: int | None = None) -> tuple[Path, list[Path]]:
    """Gunzip the en_ewt gold and system files into ctx.tmp once; (gold, systems)."""
    d = need(ctx.data / "dependency_parsing" / "conll2018_en_ewt", "the en_ewt data")
    out = ctx.tmp / "en_ewt"
    if not out.is_dir():
        out.mkdir()
        (out / "gold.conllu").write_bytes(gzip.decompress((d / "gold" / "en_ewt.conllu.gz").read_bytes()))
        for s in sorted((d / "systems").iterdir()):
            (out / f"{s.name}.conllu").write_bytes(gzip.decompress((s / "en_ewt.conllu.gz").read_bytes()))
    files = sorted(p for p in out.glob("*.conllu") if p.name != "gold.conllu")
    return out / "gold.conllu", files[:systems]


def sigfast_cli(ctx: Ctx) -> list[str]:
    exe = shutil.which("sigfast", path=str(Path(ctx.python).parent))
    return [exe] if exe else [ctx.python, "-m", "sigfast"]


def conllu(ctx: Ctx) -> dict[str, Any]:
    from sigfast.formats import score

    ref = need(ctx.refs / REFERENCE, f"{REFERENCE} v1.2 (ufal/conll2018 evaluation_script/)")
    gold, systems = ewt_files(ctx, ctx.size(None, 3))
    cli = sigfast_cli(ctx)
    run_ref = lambda: [run_quiet([ctx.python, str(ref), "-v", str(gold), str(s)]) for s in systems]
    run_sig = lambda: [score("conllu", gold, s).text for s in systems]
    run_cli = lambda: [run_quiet([*cli, "score", "-f", "conllu", str(gold), str(s)]) for s in systems]
    expected, got = run_ref(), run_sig()
    same = sum(a == b for a, b in zip(expected, got))
    if same != len(systems):
        raise RuntimeError(f"sigfast's conllu report differs from {REFERENCE} on {len(systems) - same} files")
    startup = lambda: [run_quiet([ctx.python, "-c", "pass"]) for _ in systems]
    times = rounds(
        {"reference": run_ref, "sigfast": run_sig, "sigfast_cli": run_cli, "python_startup": startup},
        ctx,
        slow=["reference"],
    )
    n = len(systems)
    t = {
        "reference": timing(
            times["reference"],
            REFERENCE,
            f"python {REFERENCE} -v GOLD SYSTEM, one subprocess per file (Python start-up included)",
            1,
        ),
        "sigfast": timing(times["sigfast"], "sigfast", "sigfast.formats.score('conllu', GOLD, SYSTEM) per file", 1),
        "sigfast_cli": timing(times["sigfast_cli"], "sigfast", "sigfast score -f conllu GOLD SYSTEM per file", 1),
        "python_startup": timing(
            times["python_startup"],
            "python",
            "python -c pass, once per file: the start-up inside the reference's time",
            1,
        ),
    }
    one = "both scorers are single-threaded: the same measurement serves per core and all cores"
    start_ms = 1e3 * t["python_startup"]["best_s"] / n
    name = f"{REFERENCE} -v, a subprocess per file (its time includes Python's start-up, {start_ms:.0f} ms a file)"
    return {
        "title": f"CoNLL-U: conll18_ud_eval.py on {n} en_ewt systems",
        "params": {"systems": n, "gold_sentences": 2077, "reference": f"{REFERENCE} v1.2, subprocess per file"},
        "timings": t,
        "ratios": [
            ratio(
                t,
                name,
                "per core",
                "reference",
                "sigfast",
                note=one,
            ),
            ratio(
                t,
                name,
                "all cores",
                "reference",
                "sigfast",
                note=one,
            ),
            ratio(t, f"{REFERENCE} -v; sigfast as a process per file too", "whole process", "reference", "sigfast_cli"),
        ],
        "checks": {"identical_verbose_tables": f"{same}/{n}"},
    }
