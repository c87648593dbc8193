"""Time sigfast's "conllu" format against conll18_ud_eval.py on all en_ewt system files.

Usage:
    python benches/bench_conllu.py --reference /path/to/conll18_ud_eval.py [--repeat 5]

The reference scorer is not shipped with sigfast: get ``conll18_ud_eval.py``
v1.2 yourself (ufal/conll2018, ``evaluation_script/``). The script gunzips the
gold file and the 25 system files of
``shared/data/dependency_parsing/conll2018_en_ewt`` into a temporary folder,
so that both scorers read the same plain CoNLL-U files, and times, in one run:

* reference, subprocess: ``python3 conll18_ud_eval.py -v GOLD SYSTEM`` once
  per system file (how it is used);
* reference, in-process: ``load_conllu_file(GOLD)``, ``load_conllu_file(SYSTEM)``,
  ``evaluate()`` and ``build_evaluation_table(..., verbose=True)`` per file,
  imported once (no interpreter start-up: the stricter comparison);
* sigfast: ``sigfast.formats.score("conllu", GOLD, SYSTEM)`` per file, which
  reads both files, aligns and scores them (Rust), and builds the verbose
  table and the per-sentence statistics.

Each figure is the best of ``--repeat`` runs over all 25 files. The script
also checks that sigfast's text equals the reference's stdout for every file.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sigfast.formats import score

EWT = Path(__file__).resolve().parents[2] / "shared" / "data" / "dependency_parsing" / "conll2018_en_ewt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", required=True, help="conll18_ud_eval.py (v1.2)")
    ap.add_argument("--data", default=str(EWT), help="the conll2018_en_ewt folder")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--python", default=sys.executable, help="interpreter for the subprocess runs")
    a = ap.parse_args()
    data = Path(a.data)

    spec = importlib.util.spec_from_file_location("conll18_ud_eval", a.reference)
    assert spec is not None and spec.loader is not None
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)

    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        gold = t / "gold.conllu"
        gold.write_bytes(gzip.decompress((data / "gold" / "en_ewt.conllu.gz").read_bytes()))
        systems = []
        for d in sorted((data / "systems").iterdir()):
            p = t / f"{d.name}.conllu"
            p.write_bytes(gzip.decompress((d / "en_ewt.conllu.gz").read_bytes()))
            systems.append(p)

        def run_subprocess() -> list[str]:
            return [
                subprocess.run(
                    [a.python, a.reference, "-v", str(gold), str(s)], capture_output=True, text=True, check=True
                ).stdout
                for s in systems
            ]

        def run_inprocess() -> list[str]:
            out = []
            for s in systems:
                ev = ref.evaluate(ref.load_conllu_file(str(gold)), ref.load_conllu_file(str(s)))
                out.append(ref.build_evaluation_table(ev, True, False) + "\n")
            return out

        def run_sigfast() -> list[str]:
            return [score("conllu", gold, s).text for s in systems]

        r_sub, r_in, ours = run_subprocess(), run_inprocess(), run_sigfast()  # warm-up and parity
        same = sum(x == y == z for x, y, z in zip(r_sub, r_in, ours))
        runs = {"subprocess": run_subprocess, "in-process": run_inprocess, "sigfast": run_sigfast}
        times: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(a.repeat):
            for name, fn in runs.items():
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)

    best = {k: min(v) for k, v in times.items()}
    print(f"files: {len(systems)} system files vs gold; identical verbose tables: {same}/{len(systems)}")
    for k, v in times.items():
        print(f"{k:11} best of {a.repeat}: {best[k]:8.3f} s  (all: {', '.join(f'{x:.3f}' for x in v)})")
    print(f"speed-up vs reference (subprocess): {best['subprocess'] / best['sigfast']:.1f}x")
    print(f"speed-up vs reference (in-process): {best['in-process'] / best['sigfast']:.1f}x")
    return 0 if same == len(systems) else 1


if __name__ == "__main__":
    sys.exit(main())
