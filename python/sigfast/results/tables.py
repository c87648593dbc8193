"""Tables as text: fixed-width, markdown, CSV and LaTeX renderers of a table (:class:`sigfast.report.Table`),
which the built-in output styles (:mod:`sigfast.styles`) use. No dependencies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["format_table", "latex_escape", "markdown_escape"]


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


def _text_table(t: Any) -> str:
    head = f"{t.title}\n" if t.title else ""
    return head + format_table(t.rows, t.header) + "".join(f"\n{n}" for n in t._notes()) + "\n"


def _markdown_table(t: Any) -> str:
    head = f"**{t.title}**\n\n" if t.title else ""
    notes = "".join(f"\n{n}  " for n in t._notes())
    return head + format_table(t.rows, t.header, markdown=True) + ("\n" + notes if notes else "") + "\n"


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


def _latex(t: Any) -> str:
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
