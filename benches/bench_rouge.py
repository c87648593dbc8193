"""Time sigfast's ROUGE with stemming against rouge-score, in one run.

Usage: python benches/bench_rouge.py [--repeat 5] [--data /path/to/shared/data]

Data: ``summarization/compare_mt_headline_sum`` (2,000 headlines), system 1
against the reference, and the same documents grouped into multi-sentence
summaries (1-5 headlines each, joined by newlines) for ``rougeLsum``.
Types rouge1, rouge2, rougeL (and rougeLsum), ``use_stemmer=True``. It times

* rouge-score: ``RougeScorer(types, use_stemmer=True)`` then ``.score(ref,
  sys)`` per document, on lines already in memory (a fresh scorer each run);
* sigfast end to end: ``sigfast.formats.score("rouge", ref, sys,
  rouge_types=..., use_stemmer=True)`` (reading both files, scoring, the
  report);
* sigfast's scorer alone, on one thread and on all cores:
  ``sigfast._native.rouge_scores(sys, [ref], types, True, threads)``.

Each figure is the best of ``--repeat`` runs (the machine is shared). It
first checks that both give identical per-document scores.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from pathlib import Path

from sigfast import _native
from sigfast.formats import score


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    args = ap.parse_args()

    import rouge_score
    from rouge_score import rouge_scorer

    d = Path(args.data) / "summarization" / "compare_mt_headline_sum"
    ref = (d / "sum.ref.eng").read_text(encoding="utf-8").split("\n")[:-1]
    sys1 = (d / "sum.sys1.eng").read_text(encoding="utf-8").split("\n")[:-1]
    rng = random.Random(5)
    ref_doc, sys_doc, i = [], [], 0
    while i < len(ref):
        k = rng.randint(1, 5)
        ref_doc.append(" <n> ".join(ref[i : i + k]))
        sys_doc.append(" <n> ".join(sys1[i : i + k]))
        i += k
    tmp = Path(tempfile.mkdtemp(prefix="bench_rouge_"))
    files = {}
    for name, lines in (("ref", ref), ("sys", sys1), ("ref_doc", ref_doc), ("sys_doc", sys_doc)):
        files[name] = tmp / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")

    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}; python {platform.python_version()}, "
        f"rouge-score {getattr(rouge_score, '__version__', '0.1.2')}; best of {args.repeat}"
    )
    cases = [
        ("2,000 headlines, rouge1/2/L", ["rouge1", "rouge2", "rougeL"], "ref", "sys", None),
        (
            f"{len(ref_doc)} multi-sentence docs, rouge1/2/L/Lsum",
            ["rouge1", "rouge2", "rougeL", "rougeLsum"],
            "ref_doc",
            "sys_doc",
            " <n> ",
        ),
    ]
    for title, types, r, s, sep in cases:
        rl = [x.replace(sep, "\n") if sep else x for x in (ref if r == "ref" else ref_doc)]
        sl = [x.replace(sep, "\n") if sep else x for x in (sys1 if s == "sys" else sys_doc)]

        def run_rouge_score():
            sc = rouge_scorer.RougeScorer(types, use_stemmer=True)
            return [sc.score(t, p) for t, p in zip(rl, sl)]

        def run_sigfast():
            return score("rouge", str(files[r]), str(files[s]), rouge_types=types, use_stemmer=True, sentence_sep=sep)

        expected = run_rouge_score()
        rep = run_sigfast()
        for t in types:
            assert rep.stats[t].values[:, 0].tolist() == [e[t].fmeasure for e in expected], t
        t_rs = best_of(run_rouge_score, args.repeat)
        t_e2e = best_of(run_sigfast, args.repeat)
        t_1 = best_of(lambda: _native.rouge_scores(sl, [rl], types, True, 1), args.repeat)
        t_n = best_of(lambda: _native.rouge_scores(sl, [rl], types, True, 0), args.repeat)
        print(
            f"{title}: rouge-score {t_rs * 1e3:8.1f} ms | sigfast end to end {t_e2e * 1e3:6.1f} ms "
            f"(x{t_rs / t_e2e:5.1f}) | scorer 1 thread {t_1 * 1e3:6.1f} ms (x{t_rs / t_1:5.1f}) "
            f"| all cores {t_n * 1e3:6.1f} ms (x{t_rs / t_n:5.1f})"
        )


if __name__ == "__main__":
    main()
