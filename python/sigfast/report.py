"""Plain-text, markdown and JSON presentation of results (no dependencies)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["format_result", "format_table"]


def _fmt_score(scale: int, v: float) -> str:
    """A score as shown: fractions ×100 with 2 decimals, others with 4 (2 from 10 up)."""
    if scale == 100:
        return f"{100 * v:.2f}"
    return f"{v:.4f}" if abs(v) < 10 else f"{v:.2f}"


def _fmt_p(p: float) -> str:
    return f"{p:.4g}" if p >= 1e-4 else f"{p:.2e}"


def format_result(r: Any) -> str:
    """A readable block for one PairedTestResult."""
    scale = r.display_scale
    unit = " (x100)" if scale == 100 else ""
    lines = [
        f"{r.test.replace('_', ' ')} ({r.variant}, {r.alternative}), metric {r.metric}{unit}, {r.n_items} items",
        f"  {r.systems[0]:<20} {_fmt_score(scale, r.score_x):>10}"
        + (
            f"   [{_fmt_score(scale, r.score_x_interval.low)}, {_fmt_score(scale, r.score_x_interval.high)}]"
            if r.score_x_interval
            else ""
        ),
        f"  {r.systems[1]:<20} {_fmt_score(scale, r.score_y):>10}"
        + (
            f"   [{_fmt_score(scale, r.score_y_interval.low)}, {_fmt_score(scale, r.score_y_interval.high)}]"
            if r.score_y_interval
            else ""
        ),
        f"  delta (y - x)        {scale * r.statistic:>+10.4f}"
        + (
            f"   {int(100 * r.confidence_level)}% CI [{scale * r.confidence_interval.low:+.4f}, "
            f"{scale * r.confidence_interval.high:+.4f}]"
            if r.confidence_interval
            else ""
        ),
        f"  p = {_fmt_p(r.pvalue)}  ({r.count} of {r.n_resamples} resamples, p = {r.pvalue_method})",
        f"  {r.signature}",
    ]
    lines += [f"  WARNING: {w}" for w in getattr(r, "warnings", ())]
    return "\n".join(lines)


def format_table(rows: Sequence[Sequence[Any]], header: Sequence[str], markdown: bool = False) -> str:
    """A fixed-width (or markdown) table."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    if markdown:
        out = [
            "| " + " | ".join(c.ljust(w) for c, w in zip(cells[0], widths)) + " |",
            "|" + "|".join("-" * (w + 2) for w in widths) + "|",
        ]
        out += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in cells[1:]]
        return "\n".join(out)
    out = ["  ".join(c.ljust(w) for c, w in zip(cells[0], widths)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells[1:]]
    return "\n".join(out)
