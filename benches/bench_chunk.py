"""Time sigfast's conlleval parity against conlleval.pl on the CoNLL-2003 English test set.

Usage:
    python benches/bench_chunk.py --conlleval /path/to/conlleval.pl [--data DIR] [--repeat 5]

``--conlleval`` (or the environment variable SIGFAST_CONLLEVAL) names the reference script,
``conlleval`` v2004-01-26 (deeppavlov/ner @ f107d6da6017b8a2ac56013e1f9985e376ef99da, md5
66f60a06f6c514346b1a11491c91d1b4); it is not part of sigfast. ``--data`` is the folder
``shared/data/ner/conll2003_en_testb`` (default: beside the repository).

For each system, the gold and system files are pasted into one "token gold system" file (as
conlleval reads it) and timed, best of ``--repeat`` runs, twice: with each variant run
``--repeat`` times in a row ("consecutive"), and with the variants taking turns ("interleaved":
each sigfast call follows a perl process, with colder caches; slower for sigfast):
  * conlleval.pl: the whole process, ``perl conlleval.pl < pasted``;
  * sigfast in-process: ``score_conlleval(None, pasted)`` (same file) and
    ``score_ner(gold, system)`` (the two original files), after one warm-up call;
  * sigfast whole process: ``python -c "...score_conlleval..."`` (interpreter start and imports
    included), for reference.
The reports are checked to be identical before anything is timed.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sigfast.formats.chunk import score_conlleval, score_ner

ROOT = Path(__file__).resolve().parents[1]


def best(fns, repeat: int, interleaved: bool) -> list[float]:
    """Best wall time of each function over ``repeat`` runs. ``interleaved``: the functions take
    turns in every round (each sigfast call then follows a perl process, with colder caches);
    otherwise each function runs ``repeat`` times in a row."""
    times: list[list[float]] = [[] for _ in fns]
    order = (
        [(i, fn) for _ in range(repeat) for i, fn in enumerate(fns)]
        if interleaved
        else [(i, fn) for i, fn in enumerate(fns) for _ in range(repeat)]
    )
    for i, fn in order:
        t = time.perf_counter()
        fn()
        times[i].append(time.perf_counter() - t)
    return [min(ts) for ts in times]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conlleval", default=os.environ.get("SIGFAST_CONLLEVAL"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "ner" / "conll2003_en_testb"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if not args.conlleval or not Path(args.conlleval).is_file():
        print("conlleval.pl not found: pass --conlleval PATH or set SIGFAST_CONLLEVAL", file=sys.stderr)
        return 2
    data = Path(args.data)
    gold = data / "gold.conll"
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"best of {args.repeat} runs; files: {data}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("elmo_lstm_crf", "flair_lstm_crf"):
            system = data / f"{name}.conll"
            rows = []
            for g, s in zip(gold.read_text().split("\n"), system.read_text().split("\n")):
                rows.append(f"{g.split(chr(9))[0]} {g.split(chr(9))[1]} {s.split(chr(9))[1]}" if g else "")
            pasted = Path(tmp) / f"{name}.txt"
            pasted.write_text("\n".join(rows))

            def perl() -> str:
                with open(pasted, "rb") as f:
                    return subprocess.run(
                        ["perl", args.conlleval], stdin=f, capture_output=True, check=True
                    ).stdout.decode()

            ref = perl()
            ours = score_conlleval(None, pasted).text
            ours_ner = score_ner(gold, system).text
            assert ref == ours == ours_ner, (ref, ours, ours_ner)
            whole_cmd = [
                sys.executable,
                "-c",
                "import sys; from sigfast.formats.chunk import score_conlleval; "
                "sys.stdout.write(score_conlleval(None, sys.argv[1]).text)",
                str(pasted),
            ]
            assert subprocess.run(whole_cmd, capture_output=True, check=True).stdout.decode() == ref
            fns = [
                perl,
                lambda: score_conlleval(None, pasted),
                lambda: score_ner(gold, system),
                lambda: subprocess.run(whole_cmd, capture_output=True, check=True),
            ]
            print(f"{name}: identical reports ({ref.splitlines()[1].split('FB1:')[1].strip()} FB1)")
            for inter in (False, True):
                t_perl, t_ours, t_ner, t_whole = best(fns, args.repeat, inter)
                print("  " + ("interleaved rounds" if inter else "consecutive runs"))
                print(f"    conlleval.pl (whole process)             {t_perl * 1000:8.1f} ms")
                print(
                    f"    sigfast conlleval format (in-process)    {t_ours * 1000:8.1f} ms   "
                    f"{t_perl / t_ours:5.1f}x faster"
                )
                print(
                    f"    sigfast ner format, 2 files (in-process) {t_ner * 1000:8.1f} ms   "
                    f"{t_perl / t_ner:5.1f}x faster"
                )
                print(
                    f"    sigfast conlleval format (whole process) {t_whole * 1000:8.1f} ms   {t_perl / t_whole:5.1f}x"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
