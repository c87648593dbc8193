"""Run evalstats' own Romano-Wolf step-down on fixed per-item differences and fixed resampled indices;
write tests/data/peer/evalstats_romano_wolf.json.

Run in a separate environment that has evalstats (not sigfast's):

    python3 -m venv /work/peerenv && /work/peerenv/bin/pip install evalstats==0.3.3
    /work/peerenv/bin/python scripts/peer_evalstats_romano_wolf.py

``evalstats.core.paired.romano_wolf_stepdown_pvalues`` studentizes every resample (a bootstrap-t:
each pair's resampled mean difference minus the observed one, over that resample's standard error)
and steps down over the pairs. Its resampled item indices come from ``rng.integers(0, m, size=(b, m))``;
here ``rng`` hands out the blocks of one fixed index matrix (:func:`indices`, a 64-bit LCG that
tests/test_romano_wolf.py recomputes), so the test rebuilds evalstats' statistic matrix from the same
draws and checks sigfast's step-down (``sigfast.multitest.max_t_stepdown``) against evalstats' p-values
without evalstats installed.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from evalstats.core.paired import romano_wolf_stepdown_pvalues

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "peer" / "evalstats_romano_wolf.json"


def indices(n_resamples: int, m: int, salt: int) -> np.ndarray:
    """Resampled item indices (n_resamples x m) from a 64-bit LCG of the position (the test's copy is
    the same three lines)."""
    pos = np.arange(n_resamples * m, dtype=np.uint64) + np.uint64(salt) * np.uint64(1 << 32)
    x = pos * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    return ((x >> np.uint64(33)) % np.uint64(m)).astype(np.int64).reshape(n_resamples, m)


class FixedDraws:
    """An ``rng`` whose ``integers(0, m, size=(b, m))`` returns the next b rows of a fixed index matrix."""

    def __init__(self, idx: np.ndarray) -> None:
        self.idx, self.at = idx, 0

    def integers(self, low: int, high: int, size: tuple[int, int]) -> np.ndarray:
        assert low == 0 and high == self.idx.shape[1] and size[1] == high
        out = self.idx[self.at : self.at + size[0]]
        self.at += size[0]
        return out


def cases() -> list[dict]:
    out = []
    rng = np.random.default_rng(20261128)
    # (systems, items, resamples, binary, mean gaps between systems)
    for s, m, B, binary, gap in (
        (3, 40, 500, False, 0.0),
        (4, 60, 999, False, 0.15),
        (5, 50, 800, True, 0.05),
        (6, 80, 600, False, 0.08),
    ):
        base = rng.normal(0.0, 1.0, m)
        if binary:
            scores = [(rng.random(m) < 0.5 + gap * k).astype(float) for k in range(s)]
        else:
            scores = [base + gap * k + rng.normal(0.0, 0.7, m) for k in range(s)]
        out.append({"systems": s, "items": m, "resamples": B, "scores": [x.tolist() for x in scores]})
    return out


def main() -> None:
    results = []
    for salt, case in enumerate(cases()):
        scores = [np.asarray(x) for x in case["scores"]]
        s, m, B = case["systems"], case["items"], case["resamples"]
        pairs = [(f"s{a}", f"s{b}") for a in range(s) for b in range(a + 1, s)]
        res = {
            (f"s{a}", f"s{b}"): SimpleNamespace(per_input_diffs=scores[a] - scores[b])
            for a in range(s)
            for b in range(a + 1, s)
        }
        idx = indices(B, m, salt)
        adj = romano_wolf_stepdown_pvalues(res, pairs, B, FixedDraws(idx), batch_size=128)
        results.append({**case, "salt": salt, "pairs": [list(p) for p in pairs], "adjusted": [adj[p] for p in pairs]})
    doc = {
        "tool": f"evalstats {version('evalstats')}",
        "function": "evalstats.core.paired.romano_wolf_stepdown_pvalues(results, pairs, B, rng, batch_size=128); "
        "per_input_diffs = scores[a] - scores[b] for each pair (a < b); rng hands out indices(B, m, salt)",
        "command": "/work/peerenv/bin/python scripts/peer_evalstats_romano_wolf.py",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "cases": results,
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
