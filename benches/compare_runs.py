"""Before/after: every ratio two runs of ``run_all.py`` share, and sigfast's own best times.

    python benches/compare_runs.py benches/results-6f98252.json benches/results.json

A ratio (sigfast against its peer, or against a floor) moves with the peer's timing noise as well
as with sigfast, so the second table lists sigfast's own best times in both runs: a change in
sigfast shows there, a change in a peer only in the first. Both runs should come from the same
machine (the header says which), since ratios depend on the CPU.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def _better(kind: str, before: float, after: float) -> float:
    """How many times better ``after`` is: speed-ups grow, times over a floor shrink."""
    if kind == "of_floor":
        return before / after
    return after / before


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    out = []
    for label, r in (("before", a), ("after", b)):
        s, m = r["sigfast"], r["machine"]
        out.append(
            f"{label}: {s['commit_short']} ({s['build_profile']} build), {m['cpu_model']}, {m['cores']} cores, "
            f"{r['date_utc']}"
        )
    out += ["", "ratio                                                      scope      before     after  after/before"]
    for name, rb in b["benchmarks"].items():
        ra = a["benchmarks"].get(name)
        if not ra:
            out.append(f"{name}: new in the second run")
            continue
        old = {(r["name"], r["scope"]): r for r in ra["ratios"]}
        for r in rb["ratios"]:
            o = old.get((r["name"], r["scope"]))
            if o is None or r.get("kind") == "scaling":
                continue
            gain = _better(r.get("kind", "speedup"), o["best"], r["best"])
            out.append(
                f"{name[:14]:14s} {r['name'][:42]:42s} {r['scope'][:9]:9s} {o['best']:9.3g} {r['best']:9.3g}  "
                f"{gain:.2f}x {'better' if gain >= 1 else 'worse'}"
            )
    out += ["", "sigfast's own best time (s)                                before     after  before/after"]
    for name, rb in b["benchmarks"].items():
        ra = a["benchmarks"].get(name)
        if not ra:
            continue
        for key, t in rb["timings"].items():
            o = ra["timings"].get(key)
            if o is None or t.get("who", "sigfast") != "sigfast" or "sigfast" not in key:
                continue
            gain = o["best_s"] / t["best_s"]
            out.append(f"{name[:14]:14s} {key[:43]:43s} {o['best_s']:9.4g} {t['best_s']:9.4g}  {gain:.2f}x")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (args.before, args.after))
    print("\n".join(compare(a, b)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
