"""Documentation generated from the registries: ``python -m sigfast.docs [README.md]``.

Rewrites the block between ``<!-- metrics:start -->`` and ``<!-- metrics:end -->`` in the
README with the metric list read from the Rust registry, so the README never lists a
metric, parameter or default by hand. ``tests/test_readme.py`` fails while it is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

__all__ = ["metrics_markdown", "update_readme"]

_START, _END = "<!-- metrics:start -->", "<!-- metrics:end -->"


def _param(p: dict) -> str:
    if p["type"] == "choice":
        what = "|".join(p["choices"])
    elif p["type"] in ("int", "float"):
        lo = "(" if p.get("open_min") else "["
        hi = "inf)" if p["max"] == float("inf") else f"{p['max']:g}]"
        what = f"{p['type']} in {lo}{p['min']:g}, {hi}"
    else:
        what = p["type"]
    default = "derived" if p["default"] is None else str(p["default"]).lower()
    return f"`{p['name']}` ({what}, default {default})"


def metrics_markdown() -> str:
    """The metric list as a markdown table, from ``sigfast.metrics.specs()``."""
    from .metrics import specs

    rows = ["| metric | also | parameters | better | shown | what it computes |", "|---|---|---|---|---|---|"]
    for m in specs():
        aliases = ", ".join(f"`{a['name']}`" for a in m["aliases"]) or "—"
        params = "; ".join(_param(p) for p in m["params"]) or "—"
        better = {True: "higher", False: "lower", None: "`higher_is_better`"}[m["higher_is_better"]]
        shown = {"fraction": "×100", "points": "0–100", "plain": "as is"}[m["scale"]]
        cells = [f"`{m['name']}`", aliases, params, better, shown, m["description"]]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def update_readme(path: str | Path) -> bool:
    """Rewrite the metric list in ``path``; True if it changed."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    new = re.sub(
        re.escape(_START) + ".*?" + re.escape(_END),
        lambda _: f"{_START}\n{metrics_markdown()}\n{_END}",
        text,
        flags=re.S,
    )
    if new != text:
        p.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":  # pragma: no cover
    target = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    print(f"{target}: {'updated' if update_readme(target) else 'up to date'}")
