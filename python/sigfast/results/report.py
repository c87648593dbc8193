"""Plain-text, markdown and JSON presentation of results (no dependencies).

Called, this module is :func:`sigfast.htmlreport.report`, the report of a whole comparison:
``sigfast.report(gold, systems, format=..., metrics=[...])`` (the package's ``report`` is this module,
so that ``sigfast.report.Table`` and ``sigfast.report(...)`` both hold whichever is imported first).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .tables import _csv as _csv
from .tables import _latex as _latex
from .tables import _markdown_table as _markdown_table
from .tables import _text_table as _text_table
from .tables import format_table, latex_escape, markdown_escape

__all__ = [
    "Table",
    "format_result",
    "format_table",
    "latex_escape",
    "markdown_escape",
    "render_tables",
]


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
    delta_label = f"delta ({r.systems[1]} - {r.systems[0]})"
    w = max(20, len(str(r.systems[0])), len(str(r.systems[1])), len(delta_label))
    lines = [
        f"{r.test.replace('_', ' ')} ({r.variant}, {r.alternative}), metric {r.metric}{unit}, {r.n_items} items",
        f"  {r.systems[0]:<{w}} {_fmt_score(scale, r.score_x):>10}"
        + (
            f"   [{_fmt_score(scale, r.score_x_interval.low)}, {_fmt_score(scale, r.score_x_interval.high)}]"
            if r.score_x_interval
            else ""
        ),
        f"  {r.systems[1]:<{w}} {_fmt_score(scale, r.score_y):>10}"
        + (
            f"   [{_fmt_score(scale, r.score_y_interval.low)}, {_fmt_score(scale, r.score_y_interval.high)}]"
            if r.score_y_interval
            else ""
        ),
        f"  {delta_label:<{w}} {scale * r.statistic:>+10.4f}"
        + (
            f"   {int(100 * r.confidence_level)}% CI [{scale * r.confidence_interval.low:+.4f}, "
            f"{scale * r.confidence_interval.high:+.4f}]"
            if r.confidence_interval
            else ""
        ),
        f"  p = {_fmt_p(r.pvalue)}  ({r.count} of {_n_used(r)} resamples, p = {r.pvalue_method})",
    ]
    if getattr(r, "sidedness", ""):
        lines.append(f"  note: {r.sidedness}")
    lines.append(f"  {r.signature}")
    lines += [f"  WARNING: {w}" for w in getattr(r, "warnings", ())]
    return "\n".join(lines)


def _n_used(r: Any) -> str:
    n_valid = getattr(r, "n_valid", None)
    if n_valid is None or n_valid == r.n_resamples:
        return str(r.n_resamples)
    return f"{n_valid} defined (of {r.n_resamples})"


# --------------------------------------------------------------------------------------------
# one table type, rendered by every output style (:mod:`sigfast.styles`)


@dataclass(frozen=True)
class Table:
    """A titled table with notes and the signature of what it shows: what every result turns into
    for text, markdown and LaTeX (CSV output is tidy data: :meth:`sigfast.results.Result.rows`)."""

    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    title: str = ""
    notes: tuple[str, ...] = ()
    #: printed as the last note in text and markdown, as a comment line in LaTeX (never in a caption)
    signature: str = ""
    #: LaTeX only: the header cells as TeX (math, for instance) instead of the escaped ``header``
    latex_header: tuple[str, ...] | None = None
    #: LaTeX only: indices of the rows a rule is drawn above (between groups of rows)
    rules: tuple[int, ...] = ()

    def _signature_lines(self) -> tuple[str, ...]:
        """``signature: ...``, or the lines of :func:`sigfast._commands.signature_notes` (shared part, then
        each row's)."""
        if not self.signature:
            return ()
        if self.signature.startswith("signature"):
            return tuple(self.signature.split("\n"))
        return (f"signature: {self.signature}",)

    def _notes(self) -> tuple[str, ...]:
        return self.notes + self._signature_lines()

    def note_lines(self) -> tuple[str, ...]:
        """The notes, then the signature's lines: what a style of :mod:`sigfast.styles` shows under the table."""
        return self._notes()

    def render(self, style: str) -> str:
        """The table in an output style of :mod:`sigfast.styles` (an unknown style is an error)."""
        from .styles import get

        return get(style).render_table(self)


def render_tables(tables: Sequence[Table], style: str) -> str:
    """Several tables in one style (text, markdown, LaTeX and any style of :mod:`sigfast.styles` that renders
    tables; CSV for one table only: several tables are not one tidy table, so the CLI writes a result's
    tidy rows instead)."""
    if style == "csv":
        if len(tables) != 1:
            raise ValueError("CSV holds one table; write the result's rows() instead")  # pragma: no cover
        return tables[0].render("csv")
    return "\n".join(t.render(style) for t in tables)


class _CallableModule(types.ModuleType):
    """This module, callable as :func:`sigfast.htmlreport.report` (which the package root registers in
    :data:`sigfast._hooks.CALLED`: the HTML report sits above this module)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .._hooks import CALLED

        return CALLED["report"](*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
