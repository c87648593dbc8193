"""Text and markdown tables for the analysis results.

``style`` is ``"text"`` (aligned columns), ``"markdown"`` (GitHub tables) or
``"json"`` (``result.to_json(indent=2)``). Percentages have two decimals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..exceptions import InputError

__all__ = [
    "format_agreement",
    "format_coref_diff",
    "format_diff",
    "format_oracle",
    "format_pairwise",
    "format_result",
    "table",
]

STYLES = ("text", "markdown", "json", "csv", "latex")


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def _num(x: float, d: int = 4) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], style: str = "text", right: Sequence[bool] | None = None
) -> str:
    """Render rows as an aligned text table or a markdown table."""
    if style in ("csv", "latex"):
        from ..report import Table

        return Table(tuple(headers), tuple(tuple(r) for r in rows)).render(style).rstrip("\n")
    hs = [str(h) for h in headers]
    rs = [[str(c) for c in r] for r in rows]
    if right is None:
        right = [i > 0 for i in range(len(hs))]
    if style == "markdown":
        esc = [[c.replace("|", "\\|") for c in r] for r in [hs] + rs]
        out = ["| " + " | ".join(esc[0]) + " |", "|" + "|".join("---:" if r else ":---" for r in right) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in esc[1:]]
        return "\n".join(out)
    w = [max(len(r[i]) for r in [hs] + rs) for i in range(len(hs))]

    def line(r: list[str]) -> str:
        return "  ".join(c.rjust(w[i]) if right[i] else c.ljust(w[i]) for i, c in enumerate(r)).rstrip()

    return "\n".join([line(hs), "  ".join("-" * x for x in w)] + [line(r) for r in rs])


def _title(t: str, style: str) -> str:
    return {"markdown": f"### {t}", "csv": f"# {t}", "latex": f"% {t}"}.get(style, t)


def _check(style: str) -> None:
    if style not in STYLES:
        raise InputError(f"style must be one of {', '.join(STYLES)}, not {style!r}")


def format_result(result: Any, style: str = "text") -> str:
    _check(style)
    if style == "json":
        return result.to_json(indent=2)
    return result.format(style)


def format_diff(d: Any, style: str = "text", max_labels: int | None = None) -> str:
    _check(style)
    if style == "json":
        return d.to_json(indent=2)
    out = [_title(f"Diff {d.system1} → {d.system2} ({d.view}, {d.n_units} units)", style), ""]
    out.append(
        table(
            ["", d.system1, d.system2, "Δ"],
            [
                ["accuracy %", _pct(d.accuracy1), _pct(d.accuracy2), f"{100 * d.delta:+.2f}"],
                ["correct", d.n_correct1, d.n_correct2, f"{d.n_correct2 - d.n_correct1:+d}"],
            ],
            style,
        )
    )
    out += ["", f"Units labeled differently: {d.n_differ} of {d.n_units} ({_pct(d.share_differ)}%)", ""]
    rows = [
        [name, getattr(d, k), _pct(d.share(k)), _pct(d.share(k, "units"))]
        for name, k in (
            ("corrections", "corrections"),
            ("new errors", "new_errors"),
            ("changed errors", "changed_errors"),
        )
    ]
    rows.append(["total", d.n_differ, _pct(1.0) if d.n_differ else "n/a", _pct(d.share_differ)])
    out.append(table(["difference", "count", "% of differing", "% of units"], rows, style))
    for title, k in (
        (f"Top corrections ({d.system1} → {d.system2})", "top_corrections"),
        (f"Top new errors ({d.system1} → {d.system2})", "top_new_errors"),
        (f"Top changed errors (Key → {d.system1} → {d.system2})", "top_changed_errors"),
    ):
        total = getattr(d, k.replace("top_", ""))
        items = getattr(d, k)
        out += ["", _title(title, style), ""]
        if not items:
            out.append("(none)")
            continue
        out.append(table(["transition", "count", "% of class"], [[t, n, _pct(n / total)] for t, n in items], style))
    out += ["", _title(f"Per-label accuracy (by {d.labels.group_name})", style), ""]
    rows = []
    shown = d.labels.rows if max_labels is None else d.labels.rows[:max_labels]
    for lab, n, (c1, c2) in shown:
        rows.append(
            [
                lab,
                n,
                _pct(c1 / n) if n else "n/a",
                _pct(c2 / n) if n else "n/a",
                f"{100 * (c2 - c1) / n:+.2f}" if n else "n/a",
            ]
        )
    out.append(table(["label", "count", f"{d.system1} %", f"{d.system2} %", "Δ"], rows, style))
    if len(shown) < len(d.labels.rows):
        out.append(f"({len(d.labels.rows) - len(shown)} rarer labels not shown)")
    return "\n".join(out) + "\n"


def format_oracle(o: Any, style: str = "text", per_label: int | None = None) -> str:
    _check(style)
    if style == "json":
        return o.to_json(indent=2)
    out = [_title(f"Oracle upper bound over {len(o.names)} systems ({o.view}, {o.n_units} units)", style), ""]
    order = sorted(range(len(o.names)), key=lambda k: (-o.correct[k], o.names[k]))
    rows = [[o.names[k], o.correct[k], _pct(o.accuracy[k]), o.only_one[k]] for k in order]
    rows.append(["ORACLE (any system right)", o.oracle_correct, _pct(o.oracle), ""])
    out.append(table(["system", "correct", "accuracy %", "only this one right"], rows, style))
    out += [
        "",
        f"Best single system: {o.best} {_pct(o.best_accuracy)}%; oracle {_pct(o.oracle)}%; "
        f"gain {100 * o.gain:+.2f} points; no system right on {o.none_correct} units",
        "",
    ]
    out.append(_title(f"Per {o.group_name}", style))
    out.append("")
    labs = o.labels if per_label is None else o.labels[:per_label]
    out.append(
        table(
            ["label", "count", f"best ({o.best}) %", "oracle %", "gain"],
            [[l, n, _pct(b / n), _pct(c / n), f"{100 * (c - b) / n:+.2f}"] for l, n, b, c in labs],
            style,
        )
    )
    if len(labs) < len(o.labels):
        out.append(f"({len(o.labels) - len(labs)} rarer labels not shown)")
    return "\n".join(out) + "\n"


def format_pairwise(p: Any, style: str = "text") -> str:
    _check(style)
    if style == "json":
        return p.to_json(indent=2)
    n = len(p.names)
    short = [f"S{i + 1}" for i in range(n)]
    out = [
        _title(
            f"Pairwise: % of units labeled differently (upper right) and Δaccuracy "
            f"column − row in points (lower left) ({p.view}, {p.n_units} units)",
            style,
        ),
        "",
    ]
    rows = []
    for i in range(n):
        r = [f"{short[i]} {p.names[i]}", _pct(p.accuracy[i])]
        for j in range(n):
            if i == j:
                r.append("—")
            elif j > i:
                r.append(_pct(p.differ[i][j]))
            else:
                r.append(f"{100 * p.delta[j][i]:+.2f}")
        rows.append(r)
    out.append(table(["system", "acc %"] + short, rows, style))
    return "\n".join(out) + "\n"


def format_agreement(a: Any, style: str = "text") -> str:
    _check(style)
    if style == "json":
        return a.to_json(indent=2)
    coders = f"{len(a.names)} systems" + (" + gold" if a.include_gold else "")
    out = [
        _title(f"Krippendorff's α (nominal) across {coders} ({a.view})", style),
        "",
        f"corpus α = {_num(a.corpus_alpha)}; mean sentence α = {_num(a.mean_sentence_alpha)} "
        f"over {len(a.sentence_alpha) - a.n_undefined} sentences ({a.n_undefined} with α undefined: "
        "no disagreement possible)",
    ]
    for rank, s in enumerate(a.lowest, 1):
        out += ["", _title(f"{rank}. sentence {s.sentence + 1} ({s.sentence_id}), α = {_num(s.alpha)}", style), ""]
        headers = ["unit", "gold"] + list(a.names)
        rows = []
        for i, f in enumerate(s.forms):
            r = [f or str(i + 1), s.gold[i]]
            for sy in s.systems:
                v = sy[i]
                r.append(v if v == s.gold[i] else f"{v}*")
            rows.append(r)
        out.append(table(headers, rows, style, right=[False] * len(headers)))
    if a.lowest:
        out += ["", "(* = differs from gold)"]
    return "\n".join(out) + "\n"


def format_coref_diff(d: Any, style: str = "text") -> str:
    _check(style)
    if style == "json":
        return d.to_json(indent=2)
    out = [_title(f"Coreference mentions, criterion '{d.criterion}': {d.system1} → {d.system2}", style), ""]
    cls = d.classes
    out.append(
        table(["class"] + [d.system1, d.system2], [[c, d.counts1.get(c, 0), d.counts2.get(c, 0)] for c in cls], style)
    )
    out += ["", _title(f"Transitions {d.system1} → {d.system2} (rows {d.system1}, columns {d.system2})", style), ""]
    rows = [[a] + [d.transitions.get(f"{a}->{b}", 0) for b in cls] for a in cls]
    out.append(table([""] + list(cls), rows, style))
    out += [
        "",
        f"Mentions classed differently: {d.n_differ} of {d.n_mentions} ({_pct(d.share_differ)}%): "
        f"{d.corrections} corrections, {d.new_errors} new errors, {d.changed_errors} changed errors",
    ]
    if d.by_type:
        trans = sorted({t for v in d.by_type.values() for t in v})
        out += ["", _title("Changed mentions by type (pronoun form, or NOUN)", style), ""]
        rows = [[ty] + [v.get(t, 0) for t in trans] + [sum(v.values())] for ty, v in d.by_type.items()]
        out.append(table(["type"] + [t.replace("->", "→") for t in trans] + ["total"], rows, style))
    return "\n".join(out) + "\n"
