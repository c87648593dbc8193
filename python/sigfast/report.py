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


def markdown_escape(s: Any) -> str:
    """A markdown table cell: ``|`` escaped (``\\|``), line breaks as spaces."""
    return str(s).replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", " ").replace("\n", " ")


def format_table(rows: Sequence[Sequence[Any]], header: Sequence[str], markdown: bool = False) -> str:
    """A fixed-width (or markdown) table; markdown cells are escaped (:func:`markdown_escape`)."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    if markdown:
        cells = [[markdown_escape(c) for c in row] for row in cells]
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


def _text_table(t: Table) -> str:
    head = f"{t.title}\n" if t.title else ""
    return head + format_table(t.rows, t.header) + "".join(f"\n{n}" for n in t._notes()) + "\n"


def _markdown_table(t: Table) -> str:
    head = f"**{t.title}**\n\n" if t.title else ""
    notes = "".join(f"\n{n}  " for n in t._notes())
    return head + format_table(t.rows, t.header, markdown=True) + ("\n" + notes if notes else "") + "\n"


def render_tables(tables: Sequence[Table], style: str) -> str:
    """Several tables in one style (text, markdown, LaTeX and any style of :mod:`sigfast.styles` that renders
    tables; CSV for one table only: several tables are not one tidy table, so the CLI writes a result's
    tidy rows instead)."""
    if style == "csv":
        if len(tables) != 1:
            raise ValueError("CSV holds one table; write the result's rows() instead")  # pragma: no cover
        return tables[0].render("csv")
    return "\n".join(t.render(style) for t in tables)


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in rows:
        w.writerow([_plain_cell(c) for c in r])
    return buf.getvalue()


def _plain_cell(c: Any) -> Any:
    if isinstance(c, float) and c != c:
        return ""
    return c


_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "δ": r"$\delta$",
    "α": r"$\alpha$",
    "ε": r"$\varepsilon$",
    "τ": r"$\tau$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "→": r"$\rightarrow$",
    "−": "-",
    "±": r"$\pm$",
    "×": r"$\times$",
    "≻": r"$\succ$",
}


def latex_escape(s: Any) -> str:
    return "".join(_TEX.get(ch, ch) for ch in str(s))


def _latex(t: Table) -> str:
    def numeric(col: int) -> bool:
        vals = [str(r[col]).strip().lstrip("+-−").replace(".", "", 1).replace("e", "", 1) for r in t.rows]
        vals = [v for v in vals if v not in ("", "-", "nan")]
        return bool(vals) and all(v.replace("-", "").isdigit() for v in vals)

    align = "".join("r" if numeric(c) else "l" for c in range(len(t.header)))
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\begin{tabular}{" + align + "}",
        r"\toprule",
        " & ".join(t.latex_header or [latex_escape(h) for h in t.header]) + r" \\",
        r"\midrule",
    ]
    for k, r in enumerate(t.rows):
        if k in t.rules and k > 0:
            lines.append(r"\midrule")
        lines.append(" & ".join(latex_escape(c) for c in r) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    caption = " ".join([t.title, *(n for n in t.notes if not n.startswith("signature: "))]).strip()
    if caption:
        lines.append(r"\caption{" + latex_escape(caption) + "}")
    lines.append(r"\end{table}")
    sigs = [n for n in t.notes if n.startswith("signature: ")] + list(t._signature_lines())
    return "\n".join(lines) + "\n" + "".join(f"% {sg}\n" for sg in sigs)


class _CallableModule(types.ModuleType):
    """This module, callable as :func:`sigfast.htmlreport.report`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .htmlreport import report

        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
