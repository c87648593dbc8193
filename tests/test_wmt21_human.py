"""Pairwise rank-sum tests on WMT21 de-en human scores against the organisers' own table.

The organisers' file humaneval/adwilcox-deen.csv holds, for row system a and
column system b, the p-value of a one-sided Wilcoxon rank-sum test that a's
segment-level z-scores are higher than b's, printed only when it is below
0.05 and a's mean is higher (0.12 elsewhere, a display value).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from sigfast.inference.pairwise import pairwise_unpaired


def _load(shared_data):  # type: ignore[no-untyped-def]
    d = shared_data / "machine_translation" / "wmt21_newstest2021_de_en" / "humaneval"
    seg: dict[str, dict[int, float]] = defaultdict(dict)
    for line in (d / "ad-seg-scores-de-en.csv").read_text().splitlines()[1:]:
        t = line.split()
        if t:
            seg[t[0]][int(t[1])] = float(t[3])  # Z.SCR: mean standardised score of the segment
    lines = [ln.split() for ln in (d / "adwilcox-deen.csv").read_text().strip().splitlines()]
    return seg, lines[0], lines[1:]


def test_agrees_with_organisers(shared_data) -> None:  # type: ignore[no-untyped-def]
    seg, cols, rows = _load(shared_data)
    res = pairwise_unpaired({k: list(v.values()) for k, v in seg.items()}, test="ranksum", alternative="greater")
    idx = {name: i for i, name in enumerate(res.systems)}
    agree = total = 0
    disagreements = []
    for row in rows:
        a = row[0]
        for b, v in zip(cols, row[1:]):
            if a == b:
                continue
            theirs = float(v)
            ours = res.pvalues[idx[b], idx[a]]  # [i, j]: p that j scores higher than i
            if theirs < 0.12:  # printed: the same p-value
                assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-15)
            total += 1
            if (theirs < 0.05) == (ours < 0.05):
                agree += 1
            else:
                disagreements.append((a, b))
    assert total == 380
    # The one disagreement: happypoet's z-scores are stochastically higher than
    # Watermelon's (rank-sum p = 0.038) but its MEAN is lower (-0.061 vs -0.043),
    # and the organisers only report the direction of the higher mean.
    assert agree == 379 and disagreements == [("happypoet.8", "Watermelon.13")]
    means = {k: np.mean(list(v.values())) for k, v in seg.items()}
    assert means["happypoet.8"] < means["Watermelon.13"]
