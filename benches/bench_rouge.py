"""ROUGE with stemming: sigfast against rouge-score.

Data: ``summarization/compare_mt_headline_sum``, system 1 against the reference: the 2,000
headlines (rouge1, rouge2, rougeL), all with ``use_stemmer=True``. rouge-score is timed as
``RougeScorer(types, use_stemmer=True)`` (fresh each run) and ``.score(ref, sys)`` per document
on lines in memory (one thread). sigfast is timed for its scorer alone
(``_native.rouge_scores(sys, [ref], types, True, threads)``, one thread and all cores) and end
to end (``sigfast.formats.score("rouge", REF, SYS, ...)``: reading, scoring, report; one
thread). The benchmark checks that both give identical per-document F-measures.
"""

from __future__ import annotations

from typing import Any

from benchlib import Ctx, need, ratio, rounds, timing, version_of

TYPES = ["rouge1", "rouge2", "rougeL"]


def rouge(ctx: Ctx) -> dict[str, Any]:
    from rouge_score import rouge_scorer

    from sigfast import _native
    from sigfast.formats import score

    d = need(ctx.data / "summarization" / "compare_mt_headline_sum", "the compare_mt headline data")
    docs = ctx.size(2000, 200)
    ref = (d / "sum.ref.eng").read_text(encoding="utf-8").split("\n")[:docs]
    sys1 = (d / "sum.sys1.eng").read_text(encoding="utf-8").split("\n")[:docs]
    files = {}
    for name, lines in (("ref", ref), ("sys", sys1)):
        files[name] = ctx.tmp / f"rouge.{name}"
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")

    def run_rs() -> list[Any]:
        sc = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        return [sc.score(r, s) for r, s in zip(ref, sys1)]

    run_e2e = lambda: score("rouge", str(files["ref"]), str(files["sys"]), rouge_types=TYPES, use_stemmer=True)
    run_native = lambda th: _native.rouge_scores(sys1, [ref], TYPES, True, th)
    expected, rep = run_rs(), run_e2e()
    for ty in TYPES:
        assert rep.stats[ty].values[:, 0].tolist() == [e[ty].fmeasure for e in expected], ty
    fns = {
        "rouge_score": run_rs,
        "sigfast_1": lambda: run_native(1),
        "sigfast_all": lambda: run_native(0),
        "sigfast_e2e": run_e2e,
    }
    times = rounds(fns, ctx)
    t = {
        "rouge_score": timing(
            times["rouge_score"],
            "rouge-score",
            f"rouge-score {version_of('rouge-score')} RougeScorer(use_stemmer=True).score per document",
            1,
        ),
        "sigfast_1": timing(times["sigfast_1"], "sigfast", "_native.rouge_scores(..., threads=1)", 1),
        "sigfast_all": timing(times["sigfast_all"], "sigfast", "_native.rouge_scores(..., threads=0)", ctx.cores),
        "sigfast_e2e": timing(times["sigfast_e2e"], "sigfast", "sigfast.formats.score('rouge', REF, SYS, ...)", 1),
    }
    return {
        "title": f"ROUGE-1/2/L with stemming, {docs:,} headlines",
        "params": {"documents": docs, "rouge_types": TYPES, "use_stemmer": True},
        "timings": t,
        "ratios": [
            ratio(t, "rouge-score (use_stemmer=True)", "per core", "rouge_score", "sigfast_1"),
            ratio(
                t,
                "rouge-score (use_stemmer=True)",
                "all cores",
                "rouge_score",
                "sigfast_all",
                note="rouge-score: one thread",
            ),
            ratio(t, "rouge-score; sigfast end to end (files, report)", "per core", "rouge_score", "sigfast_e2e"),
        ],
        "checks": {"identical_fmeasures": True},
    }
