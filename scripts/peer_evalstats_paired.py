"""Run evalstats' own paired-binary intervals on fixed 2x2 tables; write tests/data/peer/evalstats_paired.json.

Run in a separate environment that has evalstats (not sigfast's):

    python3 -m venv /work/peerenv && /work/peerenv/bin/pip install evalstats==0.3.3
    /work/peerenv/bin/python scripts/peer_evalstats_paired.py

Each table is [[both right, only x right], [only y right, both wrong]] (x the baseline, y the
candidate); evalstats computes p(A) - p(B) of arrays A, B, so A = y and B = x. Tango is
``tango_scc_paired_ci(..., c=0.0)``: Chang et al.'s closed form of Tango's score interval with
no continuity correction, i.e. Tango (1998). tests/test_paired_binary.py compares sigfast with
the file (no evalstats needed there).
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
from evalstats.core.resampling import bonett_price_paired_ci, newcombe_mover_paired_ci, tango_scc_paired_ci

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "peer" / "evalstats_paired.json"


def tables() -> list[list[int]]:
    fixed = [
        [1, 1, 7, 12],  # Fagerland, Lydersen & Laake (2014), Table I (Bentur et al.)
        [10, 0, 0, 20],
        [0, 5, 3, 22],
        [30, 0, 0, 0],
        [0, 0, 0, 30],
        [0, 30, 0, 0],
        [0, 0, 30, 0],
        [12, 3, 9, 6],
        [50, 1, 0, 49],
        [80, 5, 12, 3],
        [200, 14, 31, 55],
        [5, 0, 1, 0],
        [0, 2, 2, 0],
        [1, 0, 0, 0],
    ]
    rng = np.random.default_rng(20261128)
    for n in (10, 30, 100, 300, 1000):
        for _ in range(6):
            p = rng.dirichlet(np.ones(4))
            fixed.append([int(v) for v in rng.multinomial(n, p)])
    return fixed


def main() -> None:
    out = []
    for n11, b, c, n00 in tables():
        # items: (x, y) = (1,1) n11 times, (1,0) b times, (0,1) c times, (0,0) n00 times
        x = np.array([1] * n11 + [1] * b + [0] * c + [0] * n00, dtype=float)
        y = np.array([1] * n11 + [0] * b + [1] * c + [0] * n00, dtype=float)
        for level in (0.9, 0.95, 0.99):
            alpha = 1.0 - level
            row = {"table": [[n11, b], [c, n00]], "confidence_level": level}
            row["newcombe"] = list(newcombe_mover_paired_ci(y, x, alpha))
            row["tango"] = list(tango_scc_paired_ci(y, x, alpha, c=0.0))
            row["bonett-price"] = list(bonett_price_paired_ci(y, x, alpha))
            out.append(row)
    doc = {
        "tool": f"evalstats {version('evalstats')}",
        "functions": "evalstats.core.resampling: newcombe_mover_paired_ci, tango_scc_paired_ci(c=0.0), "
        "bonett_price_paired_ci (arrays A = y, B = x; alpha = 1 - confidence_level)",
        "command": "python3 -m venv /work/peerenv && /work/peerenv/bin/pip install evalstats==0.3.3 && "
        "/work/peerenv/bin/python scripts/peer_evalstats_paired.py",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "cases": out,
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
