"""conlleval: sigfast's "conlleval" and "ner" formats against conlleval (perl), CoNLL-2003 English test.

The reference, ``conlleval`` v2004-01-26 (fetched into the refs folder, never committed), runs
as a perl subprocess on a pasted ``token gold system`` file per tagger: ``perl conlleval <
FILE``. perl's start-up is part of its time (a few ms). sigfast is timed

* in-process: ``score_conlleval(None, FILE)`` (the same pasted file) and
  ``score_ner(GOLD, SYSTEM)`` (the two original files, checking that every token matches);
* whole process, as the reference: ``sigfast score -f ner GOLD SYSTEM`` (the CLI reads the two
  original files; Python start-up and imports included: they cost more than conlleval's whole
  run, so this ratio is below 1).

The benchmark first checks that the three reports are byte-identical. Both sides are
single-threaded, so per core and all cores are the same measurement.
"""

from __future__ import annotations

from typing import Any

from bench_conllu import sigfast_cli
from benchlib import Ctx, need, ratio, rounds, run_quiet, timing

TAGGERS = ("elmo_lstm_crf", "flair_lstm_crf")


def conlleval(ctx: Ctx) -> dict[str, Any]:
    from sigfast.formats.chunk import score_conlleval, score_ner

    ref = need(ctx.refs / "conlleval", "conlleval (perl, v2004-01-26)")
    data = need(ctx.data / "ner" / "conll2003_en_testb", "the CoNLL-2003 testb data")
    gold = data / "gold.conll"
    glines = gold.read_text(encoding="utf-8").split("\n")
    limit = ctx.size(None, 4000)
    pairs = []
    for name in TAGGERS:
        system = data / f"{name}.conll"
        slines = system.read_text(encoding="utf-8").split("\n")
        rows = [
            f"{g.split(chr(9))[0]} {g.split(chr(9))[1]} {s.split(chr(9))[1]}" if g else ""
            for g, s in zip(glines, slines)
        ]
        if limit:  # quick: the first sentences only (cut at a blank line), gold and system alike
            cut = rows.index("", limit)
            rows = rows[:cut]
            g2, s2 = ctx.tmp / f"gold_{name}.conll", ctx.tmp / f"sys_{name}.conll"
            g2.write_text("\n".join(glines[:cut]) + "\n", encoding="utf-8")
            s2.write_text("\n".join(slines[:cut]) + "\n", encoding="utf-8")
        else:
            g2, s2 = gold, system
        pasted = ctx.tmp / f"{name}.pasted"
        pasted.write_text("\n".join(rows) + "\n", encoding="utf-8")
        pairs.append((pasted, g2, s2))
    cli = sigfast_cli(ctx)
    run_ref = lambda: [run_quiet(["perl", str(ref)], stdin_path=p) for p, _, _ in pairs]
    run_sig = lambda: [score_conlleval(None, p).text for p, _, _ in pairs]
    run_ner = lambda: [score_ner(g, s).text for _, g, s in pairs]
    run_cli = lambda: [run_quiet([*cli, "score", "-f", "ner", str(g), str(s)]) for _, g, s in pairs]
    expected = run_ref()
    if not expected == run_sig() == run_ner():
        raise RuntimeError("sigfast's conlleval/ner report differs from conlleval's")
    cli_same = run_cli() == expected
    times = rounds({"reference": run_ref, "sigfast": run_sig, "sigfast_ner": run_ner, "sigfast_cli": run_cli}, ctx)
    t = {
        "reference": timing(times["reference"], "conlleval", "perl conlleval < FILE, one process per tagger", 1),
        "sigfast": timing(times["sigfast"], "sigfast", "score_conlleval(None, FILE) per tagger, in-process", 1),
        "sigfast_ner": timing(times["sigfast_ner"], "sigfast", "score_ner(GOLD, SYSTEM) per tagger, in-process", 1),
        "sigfast_cli": timing(times["sigfast_cli"], "sigfast", "sigfast score -f ner GOLD SYSTEM per tagger", 1),
    }
    one = "both scorers are single-threaded: the same measurement serves per core and all cores"
    return {
        "title": "conlleval on CoNLL-2003 English test (2 taggers)",
        "params": {
            "taggers": list(TAGGERS),
            "tokens_per_tagger": sum(1 for r in pairs[0][0].read_text().split("\n") if r),
        },
        "timings": t,
        "ratios": [
            ratio(t, "conlleval (perl), a process per tagger", "per core", "reference", "sigfast", note=one),
            ratio(t, "conlleval (perl), a process per tagger", "all cores", "reference", "sigfast", note=one),
            ratio(
                t,
                "conlleval (perl); sigfast's ner format on the 2 original files",
                "per core",
                "reference",
                "sigfast_ner",
                note=one,
            ),
            ratio(t, "conlleval (perl); sigfast as a process too", "whole process", "reference", "sigfast_cli"),
        ],
        "checks": {"identical_reports": True, "cli_identical": cli_same},
    }
