"""A synthetic folder of many runs for the scale benchmarks (benches/RESULTS-memory.md): one records CSV
file per system (``id,score``), ``--items`` items with 0/1 scores, each system's accuracy drawn once.

    .venv/bin/python benches/make_runs.py /tmp/runs2000 --systems 2000 --items 300

Nothing is committed: the folder is made where asked, and ``sigfast pairwise -f records FOLDER`` reads it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def make_runs(folder: Path, systems: int, items: int, seed: int = 0) -> list[Path]:
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    width = len(str(systems - 1))
    out = []
    for s in range(systems):
        p = rng.uniform(0.3, 0.8)
        scores = (rng.random(items) < p).astype(int)
        f = folder / f"model{s:0{width}d}.csv"
        f.write_text("id,score\n" + "".join(f"q{i},{v}\n" for i, v in enumerate(scores)), encoding="utf-8")
        out.append(f)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--systems", type=int, default=2000)
    ap.add_argument("--items", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    make_runs(args.folder, args.systems, args.items, args.seed)
    print(f"wrote {args.systems} runs of {args.items} items to {args.folder}")


if __name__ == "__main__":
    main()
