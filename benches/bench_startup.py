"""Start-up: the command line as whole processes, against the time a user waits and against conlleval.

Each command runs as its own process, as a user runs it (best of ``--repeat``, default 5, in
interleaved rounds):

* ``sigfast --help`` (target: at most 0.1 s), ``sigfast --version``;
* ``sigfast score -f ner GOLD SYSTEM`` on CoNLL-2003 English test with the flair tagger (target: at
  most 0.2 s), and the reference on the same data, ``perl conlleval < FILE`` on the pasted ``token
  gold system`` file (target: sigfast faster, a ratio of at least 1);
* for scale, the interpreter's own start-up (``python -c pass``: every Python command pays it) and
  ``python -c "import numpy"`` (what ``score -f ner`` no longer imports).

sigfast's package is byte-compiled first (``python -m compileall``), as an installed package is:
without ``__pycache__`` every run would compile the modules it imports again. The benchmark first
checks that ``sigfast score -f ner`` prints conlleval's report byte for byte.
"""

from __future__ import annotations

import compileall
from pathlib import Path
from typing import Any

from bench_conllu import sigfast_cli
from benchlib import Ctx, need, ratio, rounds, run_quiet, timing

TAGGER = "flair_lstm_crf"
#: the issue's targets, in seconds (whole process, best of the repeats)
HELP_MAX, SCORE_MAX = 0.1, 0.2


def startup(ctx: Ctx) -> dict[str, Any]:
    import sigfast

    ref = need(ctx.refs / "conlleval", "conlleval (perl, v2004-01-26)")
    data = need(ctx.data / "ner" / "conll2003_en_testb", "the CoNLL-2003 testb data")
    gold, system = data / "gold.conll", data / f"{TAGGER}.conll"
    glines = gold.read_text(encoding="utf-8").split("\n")
    slines = system.read_text(encoding="utf-8").split("\n")
    pasted = ctx.tmp / f"{TAGGER}.pasted"
    # paste -d' ' <(cut -f1,2 GOLD | tr '\t' ' ') <(cut -f2 SYSTEM), empty lines kept empty
    rows = [" ".join([*g.split("\t")[:2], s.split("\t")[1]]) if g else "" for g, s in zip(glines, slines)]
    pasted.write_text("\n".join(rows), encoding="utf-8")
    package = Path(sigfast.__file__).parent
    compileall.compile_dir(str(package), quiet=1)
    cli = sigfast_cli(ctx)
    score = [*cli, "score", "-f", "ner", str(gold), str(system)]
    expected = run_quiet(["perl", str(ref)], stdin_path=pasted)
    if run_quiet(score) != expected:
        raise RuntimeError("sigfast score -f ner does not print conlleval's report")
    times = rounds(
        {
            "help": lambda: run_quiet([*cli, "--help"]),
            "version": lambda: run_quiet([*cli, "--version"]),
            "score_ner": lambda: run_quiet(score),
            "conlleval": lambda: run_quiet(["perl", str(ref)], stdin_path=pasted),
            "python": lambda: run_quiet([ctx.python, "-c", "pass"]),
            "numpy": lambda: run_quiet([ctx.python, "-c", "import numpy"]),
        },
        ctx,
    )
    cmd = "sigfast" if len(cli) == 1 else "python -m sigfast"
    t = {
        "help": timing(times["help"], "sigfast", f"{cmd} --help", 1),
        "version": timing(times["version"], "sigfast", f"{cmd} --version", 1),
        "score_ner": timing(times["score_ner"], "sigfast", f"{cmd} score -f ner GOLD SYSTEM", 1),
        "conlleval": timing(times["conlleval"], "conlleval", "perl conlleval < FILE (the pasted file)", 1),
        "python": timing(times["python"], "python", "python -c pass", 1),
        "numpy": timing(times["numpy"], "python", 'python -c "import numpy"', 1),
    }
    limits = [
        {"timing": "help", "max_s": HELP_MAX, "met": t["help"]["best_s"] <= HELP_MAX},
        {"timing": "score_ner", "max_s": SCORE_MAX, "met": t["score_ner"]["best_s"] <= SCORE_MAX},
    ]
    return {
        "title": f"Start-up, CoNLL-2003 English test ({TAGGER})",
        "params": {
            "tagger": TAGGER,
            "tokens": sum(1 for g in glines if g),
            "bytecode": "compiled (compileall) before timing",
            "cli": " ".join(Path(c).name if i == 0 else c for i, c in enumerate(cli)),
        },
        "timings": t,
        "ratios": [
            ratio(
                t,
                "conlleval (perl) on the pasted file; sigfast on the two original files",
                "whole process",
                "conlleval",
                "score_ner",
                target=1.0,
            ),
        ],
        "limits": limits,
        "checks": {"identical_reports": True},
    }
