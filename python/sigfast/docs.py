"""Documentation generated from the registries: ``python -m sigfast.docs [README.md]``.

Rewrites the block between ``<!-- metrics:start -->`` and ``<!-- metrics:end -->`` in the
README with the metric list read from the Rust registry, and the block between
``<!-- formats:start -->`` and ``<!-- formats:end -->`` with the formats table read from the
format declarations (``FormatSpec.readme``), and the block between ``<!-- options:start -->``
and ``<!-- options:end -->`` with the shared options (:data:`sigfast._options.OPTIONS`), so the
README never lists a metric, parameter, default, format or shared option by hand.
``tests/test_readme.py`` fails while any of them is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

__all__ = ["formats_markdown", "metrics_markdown", "options_markdown", "update_readme"]

_START, _END = "<!-- metrics:start -->", "<!-- metrics:end -->"
_F_START, _F_END = "<!-- formats:start -->", "<!-- formats:end -->"
_O_START, _O_END = "<!-- options:start -->", "<!-- options:end -->"


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


def formats_markdown() -> str:
    """The formats table as markdown, from the format declarations: one row per distinct
    ``FormatSpec.readme``, naming every format that declares it (in the registry's order)."""
    from .formats import specs

    groups: dict[object, list[str]] = {}
    for s in specs():
        if s.readme is not None:
            groups.setdefault(s.readme, []).append(s.name)
    rows = [
        "| format | reference scorer | what is checked | speed vs the reference (measured, `benches/`) |",
        "|---|---|---|---|",
    ]
    for row, names in groups.items():
        cells = [", ".join(f"`{n}`" for n in names), row.scorer, row.checked, row.speed]  # type: ignore[attr-defined]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def options_markdown() -> str:
    """The table of the options every resampling function shares (:data:`sigfast._options.OPTIONS`)."""
    from .engine.options import OPTIONS

    rows = ["| Python | command line | default | meaning |", "|---|---|---|---|"]
    rows += [f"| `{name}` | `{o.flag}` | {o.default} | {o.meaning} |" for name, o in OPTIONS.items()]
    return "\n".join(rows)


def _block(text: str, start: str, end: str, body: str) -> str:
    return re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: f"{start}\n{body}\n{end}", text, flags=re.S)


def update_readme(path: str | Path) -> bool:
    """Rewrite the metric list, the formats table and the options table in ``path``; True if it changed."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    new = _block(_block(text, _START, _END, metrics_markdown()), _F_START, _F_END, formats_markdown())
    new = _block(new, _O_START, _O_END, options_markdown())
    if new != text:
        p.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":  # pragma: no cover
    target = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    print(f"{target}: {'updated' if update_readme(target) else 'up to date'}")
