"""The README's five-minute tour runs as written."""

from __future__ import annotations

import re
from pathlib import Path


def test_tour_runs() -> None:
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    tour = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    ns: dict[str, object] = {}
    exec(compile(tour, "README.md", "exec"), ns)
    r = ns["r"]
    assert r.n_resamples == 1_000_000 and r.seed == 12345  # the defaults the README promises
    assert 0 < r.pvalue <= 1 and r.statistic > 0
