"""TER statistics: sigfast against sacrebleu's TER, WMT21 de-en.

Data: the first two WMT21 de-en system outputs in name order (1,000 segments each) against
reference A. sacrebleu is timed for ``TER()._extract_corpus_statistics(hyps, [refs])`` (a
fresh metric object each run; it is where ``corpus_score`` spends its time; one thread),
sigfast for ``_native.ter_stats(hyps, [refs], threads=...)`` (lowercasing, tercom
tokenization, beam edit distance and shift search in Rust) on one thread and on all cores, on
lines already in memory. The benchmark checks that both give identical per-segment statistics.
sacrebleu takes tens of seconds a system, so it runs ``--slow-repeat`` times.
"""

from __future__ import annotations

from typing import Any

from benchlib import Ctx, need, ratio, rounds, timing, version_of


def _read(path: Any) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [ln.rstrip() for ln in fh]


def ter(ctx: Ctx) -> dict[str, Any]:
    from sacrebleu.metrics import TER

    from sigfast import _native

    d = need(ctx.data / "machine_translation" / "wmt21_newstest2021_de_en", "the WMT21 de-en data")
    segments = ctx.size(1000, 40)
    ref = _read(d / "newstest2021.de-en.ref.A.en")[:segments]
    systems = sorted((d / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))[:2]
    hyps = [_read(p)[:segments] for p in systems]
    run_sb = lambda: [TER()._extract_corpus_statistics(h, [ref]) for h in hyps]
    run_sf = lambda th: [_native.ter_stats(h, [ref], threads=th) for h in hyps]
    expected = run_sb()
    for e, g in zip(expected, run_sf(0)):
        assert g.tolist() == [[float(x) for x in s] for s in e]
    fns = {"sacrebleu": run_sb, "sigfast_1": lambda: run_sf(1), "sigfast_all": lambda: run_sf(0)}
    times = rounds(fns, ctx, slow=["sacrebleu"])
    t = {
        "sacrebleu": timing(
            times["sacrebleu"],
            "sacrebleu",
            f"sacrebleu {version_of('sacrebleu')} TER _extract_corpus_statistics, per system",
            1,
        ),
        "sigfast_1": timing(times["sigfast_1"], "sigfast", "_native.ter_stats(hyps, [ref], threads=1)", 1),
        "sigfast_all": timing(times["sigfast_all"], "sigfast", "_native.ter_stats(hyps, [ref], threads=0)", ctx.cores),
    }
    return {
        "title": f"TER statistics, WMT21 de-en, {len(systems)} systems × {segments:,} segments, reference A",
        "params": {"systems": [p.name.split(".")[-2] for p in systems], "segments": segments, "references": ["A"]},
        "timings": t,
        "ratios": [
            ratio(t, "sacrebleu TER statistics", "per core", "sacrebleu", "sigfast_1"),
            ratio(
                t,
                "sacrebleu TER statistics",
                "all cores",
                "sacrebleu",
                "sigfast_all",
                note="sacrebleu: one process, one thread",
            ),
        ],
        "checks": {"identical_statistics": True},
    }
