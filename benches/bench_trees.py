"""Time sigfast's "evalb" format against the EVALB binary on the GUM trees.

Usage:
    python benches/bench_trees.py --evalb /path/to/EVALB/evalb --prm /path/to/EVALB/COLLINS.prm [--repeat 5]

EVALB is not shipped with sigfast: build it yourself from its sources. Both
scorers read the same files (gold vs benepar and gold vs stanza, GUM fiction
1,070 + news 736 = 1,806 trees per system) with COLLINS.prm's settings and
MAX_ERROR 10000 (``evalb -p COLLINS.prm -e 10000``; sigfast: built-in
default, ``max_error=10000``). EVALB is timed as a subprocess (how it is
used), sigfast as an in-process call that reads the files and builds the
report. Each figure is the best of ``--repeat`` runs of all four file pairs.
The script also checks that both print the same report.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import warnings
from pathlib import Path

from sigfast.formats import score
from sigfast.formats.trees import EvalbWarning

GUM = Path(__file__).resolve().parents[2] / "shared" / "data" / "constituency_parsing" / "gum_benepar_stanza"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evalb", required=True, help="the EVALB binary")
    ap.add_argument("--prm", required=True, help="EVALB's COLLINS.prm")
    ap.add_argument("--data", default=str(GUM), help="folder with gold_gum_*.mrg and <system>_gum_*.mrg")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    data = Path(a.data)
    pairs = [
        (data / f"gold_gum_{part}.mrg", data / f"{system}_gum_{part}.mrg")
        for system in ("benepar", "stanza")
        for part in ("fiction", "news")
    ]
    warnings.simplefilter("ignore", EvalbWarning)

    def run_evalb() -> list[str]:
        return [
            subprocess.run(
                [a.evalb, "-p", a.prm, "-e", "10000", str(g), str(s)], capture_output=True, text=True, check=True
            ).stdout
            for g, s in pairs
        ]

    def run_sigfast() -> list[str]:
        return [score("evalb", g, s, max_error=10000).text for g, s in pairs]

    ref, ours = run_evalb(), run_sigfast()  # warm-up and parity check
    same = all(x == y for x, y in zip(ref, ours))
    trees = sum(len(g.read_bytes().splitlines()) for g, _ in pairs)
    times: dict[str, list[float]] = {"evalb": [], "sigfast": []}
    for _ in range(a.repeat):
        for name, fn in (("evalb", run_evalb), ("sigfast", run_sigfast)):
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    be, bs = min(times["evalb"]), min(times["sigfast"])
    print(f"pairs: {len(pairs)} file pairs, {trees} tree pairs in all; identical reports: {same}")
    for name, best in (("EVALB  ", be), ("sigfast", bs)):
        runs = ", ".join(f"{t * 1000:.1f}" for t in times[name.strip().lower()])
        print(f"{name} best of {a.repeat}: {best * 1000:8.2f} ms  (all: {runs})")
    print(f"ratio sigfast / EVALB: {bs / be:.3f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
