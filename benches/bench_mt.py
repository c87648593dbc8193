"""Time sigfast's "mt" format against sacrebleu on the same 2,000 segments, in one run.

Usage: python benches/bench_mt.py [--repeat 5] [--data /path/to/shared/data]

Data: the first 2,000 lines of compare_mt_ted_slk_eng's ted.sys1.detok.eng and
ted.ref.detok.eng (written to a temporary folder). For each metric it times

* sigfast: ``sigfast.formats.score("mt", ref, sys, metric=...)`` end to end
  (reading both files, tokenizing, counting, the corpus score, the report);
* sacrebleu: ``METRIC()._extract_corpus_statistics(hyps, [refs])`` on lines
  already in memory (statistics only), and ``METRIC().corpus_score(hyps,
  [refs])`` (a fresh metric object each time, so its tokenizer cache starts
  empty),

reports the best of ``--repeat`` runs of each, and the ratios. It also checks
that both give the same statistics and corpus score.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

import numpy as np

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
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    args = ap.parse_args()

    import sacrebleu
    from sacrebleu.metrics import BLEU, CHRF

    src = Path(args.data) / "machine_translation" / "compare_mt_ted_slk_eng"
    tmp = Path(tempfile.mkdtemp(prefix="bench_mt_"))
    paths = {}
    for kind, name in (("sys", "ted.sys1.detok.eng"), ("ref", "ted.ref.detok.eng")):
        lines = (src / name).read_text(encoding="utf-8").split("\n")[: args.segments]
        p = tmp / name
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[kind] = p
    hyps = [x.rstrip() for x in paths["sys"].read_text(encoding="utf-8").split("\n")[:-1]]
    refs = [x.rstrip() for x in paths["ref"].read_text(encoding="utf-8").split("\n")[:-1]]
    assert len(hyps) == len(refs) == args.segments

    print(
        f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, "
        f"sacrebleu {sacrebleu.__version__}; {args.segments} segments; best of {args.repeat}"
    )
    makers = {"bleu": BLEU, "chrf": CHRF, "chrf++": lambda: CHRF(word_order=2)}
    for metric, make in makers.items():
        rep = score("mt", str(paths["ref"]), str(paths["sys"]), metric=metric)
        ref_stats = make()._extract_corpus_statistics(hyps, [refs])
        assert rep.stats[metric].values.astype(np.int64).tolist() == ref_stats
        assert rep.scores[metric] == make().corpus_score(hyps, [refs]).score

        t_sig = best_of(lambda: score("mt", str(paths["ref"]), str(paths["sys"]), metric=metric), args.repeat)
        t_ext = best_of(lambda: make()._extract_corpus_statistics(hyps, [refs]), args.repeat)
        t_cor = best_of(lambda: make().corpus_score(hyps, [refs]), args.repeat)
        print(
            f"{metric:7s} sigfast {t_sig * 1e3:8.1f} ms | sacrebleu statistics {t_ext * 1e3:8.1f} ms "
            f"(x{t_ext / t_sig:5.1f}) | sacrebleu corpus_score {t_cor * 1e3:8.1f} ms (x{t_cor / t_sig:5.1f})"
        )


if __name__ == "__main__":
    main()
