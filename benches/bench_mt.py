"""MT statistics: sigfast's "mt" format against sacrebleu (BLEU, chrF, chrF++), same 2,000 segments.

Data: the first 2,000 lines of compare_mt_ted_slk_eng's ``ted.sys1.detok.eng`` and
``ted.ref.detok.eng``. sacrebleu is timed on lines already in memory, for its per-segment
statistics alone (``METRIC()._extract_corpus_statistics(hyps, [refs])``, a fresh metric object
each run, which is where ``corpus_score`` spends its time). sigfast is timed end to end,
``sigfast.formats.score("mt", REF, SYS, metric=...)``: reading both files, tokenizing,
counting, the corpus score and the report (more work than the peer does). The benchmark first
checks that both give identical statistics and corpus scores. Both are single-threaded.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchlib import Ctx, need, ratio, rounds, timing, version_of

METRIC_NAMES = {"bleu": "BLEU", "chrf": "chrF", "chrf++": "chrF++"}


def mt(ctx: Ctx) -> dict[str, Any]:
    from sacrebleu.metrics import BLEU, CHRF

    from sigfast.formats import score

    src = need(ctx.data / "machine_translation" / "compare_mt_ted_slk_eng", "the compare_mt TED data")
    segments = ctx.size(2000, 200)
    paths = {}
    for kind, name in (("sys", "ted.sys1.detok.eng"), ("ref", "ted.ref.detok.eng")):
        lines = (src / name).read_text(encoding="utf-8").split("\n")[:segments]
        paths[kind] = ctx.tmp / f"mt.{name}"
        paths[kind].write_text("\n".join(lines) + "\n", encoding="utf-8")
    hyps = paths["sys"].read_text(encoding="utf-8").split("\n")[:-1]
    refs = paths["ref"].read_text(encoding="utf-8").split("\n")[:-1]
    makers = {"bleu": BLEU, "chrf": CHRF, "chrf++": lambda: CHRF(word_order=2)}
    fns: dict[str, Any] = {}
    for metric, make in makers.items():
        rep = score("mt", str(paths["ref"]), str(paths["sys"]), metric=metric)
        assert rep.stats[metric].values.astype(np.int64).tolist() == make()._extract_corpus_statistics(hyps, [refs])
        assert rep.scores[metric] == make().corpus_score(hyps, [refs]).score
        fns[f"sacrebleu_{metric}"] = lambda make=make: make()._extract_corpus_statistics(hyps, [refs])
        fns[f"sigfast_{metric}"] = lambda metric=metric: score(
            "mt", str(paths["ref"]), str(paths["sys"]), metric=metric
        )
    times = rounds(fns, ctx)
    sb = version_of("sacrebleu")
    t: dict[str, Any] = {}
    ratios = []
    one = "both are single-threaded: the same measurement serves per core and all cores"
    for metric in makers:
        t[f"sacrebleu_{metric}"] = timing(
            times[f"sacrebleu_{metric}"], "sacrebleu", f"sacrebleu {sb} {metric} _extract_corpus_statistics", 1
        )
        t[f"sigfast_{metric}"] = timing(
            times[f"sigfast_{metric}"], "sigfast", f"sigfast.formats.score('mt', REF, SYS, metric='{metric}')", 1
        )
        for scope in ("per core", "all cores"):
            ratios.append(
                ratio(
                    t,
                    f"sacrebleu {METRIC_NAMES[metric]} statistics",
                    scope,
                    f"sacrebleu_{metric}",
                    f"sigfast_{metric}",
                    note=one,
                )
            )
    return {
        "title": f"BLEU, chrF, chrF++ statistics, {segments:,} segments",
        "params": {"segments": segments, "data": "compare_mt_ted_slk_eng sys1 vs ref (detok)", "tokenize": "13a"},
        "timings": t,
        "ratios": ratios,
        "checks": {"identical_statistics_and_scores": True},
    }
