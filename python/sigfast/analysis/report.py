"""Text and markdown tables for the analysis results.

``style`` is ``"text"`` (aligned columns), ``"markdown"`` (GitHub tables),
``"json"`` (``result.to_json(indent=2)``) or any other output style of
:mod:`sigfast.styles` (its ``table``, ``heading`` and ``note``). Percentages have two decimals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..exceptions import InputError
from ..results.styles import get as get_style

__all__ = [
    "format_agreement",
    "format_coref_diff",
    "format_coref_oracle",
    "format_diff",
    "format_oracle",
    "format_pairwise",
    "format_result",
    "table",
]


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def _num(x: float, d: int = 4) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], style: str = "text", right: Sequence[bool] | None = None
) -> str:
    """Render rows as an aligned text table or a markdown table (any other style: a
    :class:`sigfast.report.Table` in that style of :mod:`sigfast.styles`)."""
    if style not in ("text", "markdown"):
        from ..results.report import Table

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
    return get_style(style).heading(t)


def _check(style: str) -> None:
    get_style(style)  # an unknown style is an error naming the known ones


def format_result(result: Any, style: str = "text") -> str:
    _check(style)
    if style == "json":
        return result.to_json(indent=2)
    return result.format(style)


def _note(note: str, style: str) -> list[str]:
    if not note:
        return []
    return [get_style(style).note(note), ""]


def _delta_pct(a: int, b: int, n: int) -> str:
    return f"{100 * (b - a) / n:+.2f}" if n else "n/a"


def format_diff(d: Any, style: str = "text", max_labels: int | None = None, sort: str = "frequency") -> str:
    _check(style)
    if style == "json":
        return d.to_json(sort=sort, indent=2)
    out = [_title(f"Diff {d.system1} → {d.system2} ({d.view}, {d.n_units} units)", style), ""]
    out += _note(d.note, style)
    rows = [
        ["accuracy %", _pct(d.accuracy1), _pct(d.accuracy2), f"{100 * d.delta:+.2f}"],
        ["correct", d.n_correct1, d.n_correct2, f"{d.n_correct2 - d.n_correct1:+d}"],
    ]
    if d.n_sentences:
        rows += [
            [
                "correct sentences %",
                _pct(d.exact_share1),
                _pct(d.exact_share2),
                _delta_pct(d.exact1, d.exact2, d.n_sentences),
            ],
            [f"correct sentences (of {d.n_sentences})", d.exact1, d.exact2, f"{d.exact2 - d.exact1:+d}"],
        ]
    out.append(table(["", d.system1, d.system2, "Δ"], rows, style))
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
    by = "largest |Δ| first" if sort == "delta" else "most frequent first"
    out += ["", _title(f"Per-label accuracy (by {d.labels.group_name}; {by})", style), ""]
    rows = []
    ordered = d.labels.sorted(sort)
    shown = ordered if max_labels is None else ordered[:max_labels]
    for lab, n, (c1, c2) in shown:
        rows.append(
            [
                lab,
                n,
                _pct(c1 / n) if n else "n/a",
                _pct(c2 / n) if n else "n/a",
                _delta_pct(c1, c2, n),
            ]
        )
    out.append(table(["label", "count", f"{d.system1} %", f"{d.system2} %", "Δ"], rows, style))
    if len(shown) < len(ordered):
        what = "labels with smaller |Δ|" if sort == "delta" else "rarer labels"
        out.append(f"({len(ordered) - len(shown)} {what} not shown)")
    return "\n".join(out) + "\n"


#: Per-label columns the text report shows at most, unless told which (``systems``/``top_systems``).
TEXT_MAX_SYSTEMS = 8


def oracle_columns(
    o: Any, style: str, systems: Sequence[str] | None = None, top_systems: int | None = None
) -> tuple[list[int], str]:
    """Which systems get a per-label column (indices into ``o.names``), and a note on those left out.

    ``systems`` names them (in that order); else the ``top_systems`` most accurate; else every
    system, most accurate first, except that the text style folds to the
    :data:`TEXT_MAX_SYSTEMS` most accurate.
    """
    n = len(o.names)
    order = sorted(range(n), key=lambda k: (-o.correct[k], o.names[k]))
    if systems:
        unknown = [s for s in systems if s not in o.names]
        if unknown:
            raise InputError(f"no system named {unknown[0]!r}; the systems are {', '.join(o.names)}")
        idx = [o.names.index(s) for s in dict.fromkeys(systems)]
    elif top_systems is not None:
        if top_systems < 1:
            raise InputError(f"top_systems must be at least 1, not {top_systems}")
        idx = order[:top_systems]
    elif style == "text" and n > TEXT_MAX_SYSTEMS:
        idx = order[:TEXT_MAX_SYSTEMS]
    else:
        idx = order
    left = n - len(idx)
    note = ""
    if left:
        note = (
            f"({left} more system{'s' if left > 1 else ''} not shown: --systems A,B,... or --top-systems N "
            "pick the columns; CSV, markdown, LaTeX and JSON have every system)"
        )
    return idx, note


def format_oracle(
    o: Any,
    style: str = "text",
    per_label: int | None = None,
    *,
    systems: Sequence[str] | None = None,
    top_systems: int | None = None,
) -> str:
    _check(style)
    if style == "json":
        return o.to_json(indent=2)
    out = [_title(f"Oracle upper bound over {len(o.names)} systems ({o.view}, {o.n_units} units)", style), ""]
    out += _note(o.note, style)
    order = sorted(range(len(o.names)), key=lambda k: (-o.correct[k], o.names[k]))
    has_sent = bool(o.n_sentences) and len(o.exact) == len(o.names)
    head = ["system", "correct", "accuracy %"] + ([f"correct sentences % (of {o.n_sentences})"] if has_sent else [])
    head.append("only this one right")
    rows = []
    for k in order:
        r: list[Any] = [o.names[k], o.correct[k], _pct(o.accuracy[k])]
        if has_sent:
            r.append(_pct(o.exact_share[k]))
        rows.append(r + [o.only_one[k]])
    r = ["ORACLE (any system right)", o.oracle_correct, _pct(o.oracle)]
    if has_sent:
        r.append(_pct(o.oracle_exact_share))
    rows.append(r + [""])
    out.append(table(head, rows, style))
    out += [
        "",
        f"Best single system: {o.best} {_pct(o.best_accuracy)}%; oracle {_pct(o.oracle)}%; "
        f"gain {100 * o.gain:+.2f} points; no system right on {o.none_correct} units",
        "",
    ]
    out.append(_title(f"Per {o.group_name}: accuracy % of each system, the oracle, and its gain over {o.best}", style))
    out.append("")
    labs = o.labels if per_label is None else o.labels[:per_label]
    if len(o.label_correct) == len(o.labels):
        idx, fold = oracle_columns(o, style, systems, top_systems)
        rows = []
        for (l, n, b, c), per in zip(labs, o.label_correct):
            rows.append(
                [l, n] + [_pct(per[k] / n) if n else "n/a" for k in idx] + [_pct(c / n), f"{100 * (c - b) / n:+.2f}"]
            )
        head = ["label", "count"] + [o.names[k] for k in idx] + ["oracle", "gain"]
        rows.insert(
            0,
            ["all", o.n_units] + [_pct(o.accuracy[k]) for k in idx] + [_pct(o.oracle), f"{100 * o.gain:+.2f}"],
        )
        out.append(table(head, rows, style))
        if fold:
            out.append(fold)
    else:  # a result built without per-system label counts
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
    # columns headed by the names when the table fits in 120 characters; else by codes S1..Sn, each
    # row saying its code once ("S1 name"), so no long name is printed twice on a line
    fits = sum(max(len(x), 6) + 2 for x in p.names) + max(len(x) for x in p.names) + 9 <= 120
    short = list(p.names) if fits else [f"S{i + 1}" for i in range(n)]
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
        r = [p.names[i] if fits else f"{short[i]} {p.names[i]}", _pct(p.accuracy[i])]
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
        *_note(a.note, style),
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
    a1, a2 = d.arcs1, d.arcs2
    rows: list[list[Any]] = [[c, d.counts1.get(c, 0), d.counts2.get(c, 0), ""] for c in cls]
    for what, shown in (("precision", "precision"), ("recall", "recall"), ("f1", "F1")):
        x, y = getattr(a1, what), getattr(a2, what)
        rows.append([f"ARCS {shown} %", _pct(x), _pct(y), f"{100 * (y - x):+.2f}"])
    out.append(table(["class", d.system1, d.system2, "Δ"], rows, style))
    out += [
        "",
        f"ARCS_{d.criterion} (Tuggener 2014): precision = TP / (TP + WL + FP), recall = TP / (TP + WL + FN), "
        "F1 their harmonic mean",
    ]
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


def format_coref_oracle(o: Any, style: str = "text") -> str:
    _check(style)
    if style == "json":
        return o.to_json(indent=2)
    out = [
        _title(
            f"ARCS_{o.criterion} recall by mention type and its upper bound over {len(o.names)} responses "
            "(a key mention counts if any response resolves it correctly)",
            style,
        ),
        "",
    ]
    head = ["mention type", "mentions"] + list(o.names) + ["upper bound", "gain"]
    rows = []
    for ty, n, tps, ub in o.rows:
        best = max(tps) if tps else 0
        rows.append(
            [o.type_label(ty), n]
            + [_pct(t / n) if n else "n/a" for t in tps]
            + [_pct(ub / n) if n else "n/a", _delta_pct(best, ub, n)]
        )
    out.append(table(head, rows, style))
    out += [
        "",
        "recall = TP / key mentions classed (TP + WL + FN); gain = upper bound − the best response on that row; "
        "nouns: several words, or one word tagged " + "/".join(o.noun_tags),
    ]
    return "\n".join(out) + "\n"
