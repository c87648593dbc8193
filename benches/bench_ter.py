"""Time sigfast's TER statistics against sacrebleu's TER on WMT21 de-en, in one run.

Usage: python benches/bench_ter.py [--systems 2] [--repeat 3] [--data /path/to/shared/data]

Data: the first ``--systems`` system outputs (in name order) of
``machine_translation/wmt21_newstest2021_de_en``, 1,000 segments each,
against both references (A and B) and against reference A alone. For each
case it times, on lines already in memory:

* sacrebleu: ``TER()._extract_corpus_statistics(hyps, refs)`` (a fresh metric
  object each time, so its tokenizer cache starts empty), which is what
  ``corpus_score`` spends its time in;
* sigfast on one thread: ``sigfast._native.ter_stats(hyps, refs, threads=1)``
  (tokenization, lowercasing and the shift search; the per-core comparison);
* sigfast on all cores: the same with ``threads=0``.

Each figure is the best of ``--repeat`` runs (sigfast: ``--repeat`` + 2; the
machine is shared, and the best run is the one least disturbed by other work).
It checks that both give
identical per-segment statistics (checked on the timed runs' results).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path


def best_of(fn, repeat: int):
    """(best time, result of the last run)."""
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def read(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return [ln.rstrip() for ln in f]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    args = ap.parse_args()

    import sacrebleu
    from sacrebleu.metrics import TER

    from sigfast import _native

    d = Path(args.data) / "machine_translation" / "wmt21_newstest2021_de_en"
    ref_a = read(d / "newstest2021.de-en.ref.A.en")
    ref_b = read(d / "newstest2021.de-en.ref.B.en")
    systems = sorted((d / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))[: args.systems]
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}; python {platform.python_version()}, "
        f"sacrebleu {sacrebleu.__version__}; best of {args.repeat}"
    )
    for refs, name in (([ref_a, ref_b], "refs A+B"), ([ref_a], "ref A")):
        tot = {"sacrebleu": 0.0, "sigfast-1": 0.0, "sigfast-all": 0.0}
        for p in systems:
            hyps = read(p)
            t_sb, expected = best_of(lambda: TER()._extract_corpus_statistics(hyps, refs), args.repeat)
            t_1, got = best_of(lambda: _native.ter_stats(hyps, refs, threads=1), args.repeat + 2)
            t_n, got_n = best_of(lambda: _native.ter_stats(hyps, refs, threads=0), args.repeat + 2)
            assert got.tolist() == got_n.tolist() == [[float(x) for x in s] for s in expected], p.name
            tot["sacrebleu"] += t_sb
            tot["sigfast-1"] += t_1
            tot["sigfast-all"] += t_n
            sysname = p.name.split(".")[-2]
            print(
                f"{name:8s} {sysname:14s} sacrebleu {t_sb:7.2f} s | sigfast 1 thread {t_1 * 1e3:7.1f} ms "
                f"(x{t_sb / t_1:6.1f}) | all cores {t_n * 1e3:7.1f} ms (x{t_sb / t_n:6.1f})"
            )
        print(
            f"{name:8s} {'total':14s} sacrebleu {tot['sacrebleu']:7.2f} s | sigfast 1 thread "
            f"{tot['sigfast-1'] * 1e3:7.1f} ms (x{tot['sacrebleu'] / tot['sigfast-1']:6.1f}) | all cores "
            f"{tot['sigfast-all'] * 1e3:7.1f} ms (x{tot['sacrebleu'] / tot['sigfast-all']:6.1f})"
        )


if __name__ == "__main__":
    main()
