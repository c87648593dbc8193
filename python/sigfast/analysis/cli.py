"""Subcommands ``sigfast diff``, ``sigfast oracle`` and ``sigfast agreement``.

:func:`add_cli` registers them on the main parser's subparsers; each sets
``handler`` (a function of the parsed arguments returning the exit
status). Files are read through the format registry (one parse per file;
units from the format's own scorer), with the flags of :mod:`sigfast._cli`.
Bad input raises :class:`sigfast.exceptions.SigfastError`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import _cli

__all__ = ["add_cli", "run_agreement", "run_diff", "run_oracle"]


def _reading(p: argparse.ArgumentParser) -> None:
    _cli.add_format(p)
    p.add_argument(
        "--view",
        help="the units to compare (default: the format's first view; `sigfast info` lists every format's views)",
    )
    _cli.add_align(p)
    p.add_argument(
        "--no-punct",
        action="store_true",
        help="leave out units whose gold word is punctuation, by the format scorer's rule (CoNLL-U: gold "
        "relation punct, as conll18_ud_eval.py's CLAS; CoNLL-X/2007/2008/2009: FORM of Unicode punctuation, "
        "as the scripts' -p; other formats: that FORM rule)",
    )
    _cli.add_output(p)


def _units(args: argparse.Namespace, gold: str, systems: list[str]) -> tuple[Any, str]:
    from ..formats import parse
    from .units import units_of

    parsed = parse(args.format or "auto", gold, systems, **_cli.format_options(args))
    return units_of(parsed, args.view, no_punct=args.no_punct)


def _is_coref(args: argparse.Namespace) -> bool:
    fmt = (args.format or "").lower()
    if fmt in ("conll2012", "conll12", "coref"):
        if args.no_punct:
            from ..exceptions import InputError

            raise InputError("--no-punct does not apply to coreference mentions (--format conll2012)")
        return True
    return False


def _emit(args: argparse.Namespace, render: Any, results: Any = None) -> int:
    """Print ``render(style)``; CSV is the tidy rows of ``results`` (one table for several results)."""
    _cli.emit(
        args,
        render=lambda style: render(style) if style == "json" else render(style).rstrip("\n") + "\n",
        results=results,
    )
    return 0


def run_diff(args: argparse.Namespace) -> int:
    from .coref import coref_diff
    from .diff import diff_units

    _cli.precheck(args)
    if _is_coref(args):
        crits = ["any", "nominal"] if args.criterion == "both" else [args.criterion]
        n1, p1 = _named(args.system1)
        n2, p2 = _named(args.system2)
        results = [coref_diff(args.gold, p1, p2, criterion=c, names=(n1, n2)) for c in crits]

        def render_coref(style: str) -> str:
            if style == "json":
                return json.dumps({r.criterion: r.to_dict() for r in results}, ensure_ascii=False, indent=2) + "\n"
            return "\n".join(r.format(style) for r in results)

        return _emit(args, render_coref, results)
    u, note = _units(args, args.gold, [args.system1, args.system2])
    r = diff_units(u, 0, 1, top_k=args.top, note=note)
    return _emit(
        args,
        lambda style: (
            r.to_json(sort=args.sort, indent=2) + "\n"
            if style == "json"
            else r.format(style, max_labels=args.labels, sort=args.sort)
        ),
        [r],
    )


def _named(item: str) -> tuple[str, str]:
    import os

    from ..formats import system_names

    if "=" in item and not os.path.exists(item):
        n, _, p = item.partition("=")
        return n, p
    return system_names([item])[0], item


def _system_list(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [n.strip() for v in values for n in v.split(",") if n.strip()]


def run_oracle(args: argparse.Namespace) -> int:
    from .diff import pairwise
    from .oracle import oracle_units
    from .report import format_oracle

    _cli.precheck(args)
    if _is_coref(args):
        return _run_coref_oracle(args)
    u, note = _units(args, args.gold, args.systems)
    o = oracle_units(u, note=note)
    chosen = _system_list(args.show_systems)
    if chosen is not None or args.top_systems is not None:
        format_oracle(o, "csv", 0, systems=chosen, top_systems=args.top_systems)  # bad names fail before output

    def render(style: str) -> str:
        if style == "json":
            d: dict[str, Any] = {"oracle": o.to_dict()}
            if args.matrix:
                d["pairwise"] = pairwise(u).to_dict()
            return json.dumps(d, ensure_ascii=False, indent=2) + "\n"
        out = o.format(style, per_label=args.labels, systems=chosen, top_systems=args.top_systems)
        if args.matrix:
            out = out.rstrip("\n") + "\n\n" + pairwise(u).format(style)
        return out

    return _emit(args, render, [o, pairwise(u)] if args.matrix else [o])


def _run_coref_oracle(args: argparse.Namespace) -> int:
    from .coref import coref_oracle

    crits = ["any", "nominal"] if args.criterion == "both" else [args.criterion]
    named = [_named(s) for s in args.systems]
    responses = {n: p for n, p in named}
    if len(responses) != len(named):
        from ..exceptions import InputError

        raise InputError(f"response names must be distinct: {[n for n, _ in named]}")
    results = [coref_oracle(args.gold, responses, criterion=c) for c in crits]

    def render(style: str) -> str:
        if style == "json":
            return json.dumps({r.criterion: r.to_dict() for r in results}, ensure_ascii=False, indent=2) + "\n"
        return "\n".join(r.format(style) for r in results)

    return _emit(args, render, results)


def run_agreement(args: argparse.Namespace) -> int:
    from .agreement import agreement_units

    _cli.precheck(args)
    u, note = _units(args, args.gold, args.systems)
    r = agreement_units(u, lowest=args.lowest, include_gold=args.include_gold, min_units=args.min_units, note=note)
    return _emit(args, lambda style: r.to_json(indent=2) + "\n" if style == "json" else r.format(style), [r])


def add_cli(subparsers: Any) -> None:
    """Register ``diff``, ``oracle`` and ``agreement`` on ``subparsers``."""
    d = subparsers.add_parser(
        "diff",
        help="what changed between two systems (corrections, new/changed errors)",
        description="Units labeled differently by SYS1 and SYS2, split into corrections, new errors and changed "
        "errors, with top transitions and per-label accuracy (Tuggener 2017). --format conll2012 compares "
        "coreference mentions (ARCS classes).",
    )
    d.add_argument("gold")
    d.add_argument("system1", help="SYS1 (PATH or NAME=PATH)")
    d.add_argument("system2", help="SYS2 (PATH or NAME=PATH)")
    d.add_argument("--top", type=int, default=10, help="transitions shown per class (default 10)")
    d.add_argument(
        "--criterion",
        choices=["any", "nominal", "both"],
        default="both",
        help="conll2012: antecedent criterion (default both)",
    )
    d.add_argument("--labels", type=int, default=30, help="per-label rows shown (default 30)")
    d.add_argument(
        "--sort",
        choices=["frequency", "delta"],
        default="frequency",
        help="order of the per-label table: most frequent label first (default), or largest accuracy "
        "difference |Δ| first (Tuggener 2017, Table 12)",
    )
    _reading(d)
    d.set_defaults(handler=run_diff)

    o = subparsers.add_parser(
        "oracle",
        help="oracle upper bound over N systems",
        description="A unit counts as correct if any system gets it right; overall and per gold label, every "
        "system's accuracy beside the oracle's and its gain over the best single system, and the share of "
        "fully correct sentences (Tuggener 2017, Tables 3, 5, 9, 10). --format conll2012 gives each response's "
        "ARCS recall and their upper bound by mention type (Table 11).",
    )
    o.add_argument("gold")
    o.add_argument("systems", nargs="+", help="SYSTEM ... (PATH or NAME=PATH)")
    o.add_argument("--matrix", action="store_true", help="also print the pairwise diff / Δaccuracy matrix")
    o.add_argument("--labels", type=int, default=30, help="per-label rows shown (most frequent; default 30)")
    o.add_argument(
        "--systems",
        dest="show_systems",
        action="append",
        default=None,
        metavar="NAME[,NAME...]",
        help="the systems that get a column in the per-label table, in this order (repeatable)",
    )
    o.add_argument(
        "--top-systems",
        type=_cli._positive_int("--top-systems"),
        default=None,
        metavar="N",
        help="per-label columns for the N most accurate systems (default: all; text folds to the 8 most accurate)",
    )
    o.add_argument(
        "--criterion",
        choices=["any", "nominal", "both"],
        default="nominal",
        help="conll2012: antecedent criterion of the recall upper bound (default nominal, Tuggener 2017 Table 11)",
    )
    _reading(o)
    o.set_defaults(handler=run_oracle)

    a = subparsers.add_parser(
        "agreement",
        help="Krippendorff's alpha across systems, lowest-alpha sentences",
        description="Krippendorff's alpha (nominal) per sentence and over the corpus across the systems; the "
        "lowest-alpha sentences with each system's labels beside gold (Gorman & Bedrick 2019).",
    )
    a.add_argument("gold")
    a.add_argument("systems", nargs="+", help="SYSTEM ... (PATH or NAME=PATH)")
    a.add_argument("--lowest", type=int, default=5, help="lowest-alpha sentences shown (default 5)")
    a.add_argument("--include-gold", action="store_true", help="count gold as one more coder")
    a.add_argument("--min-units", type=int, default=2, help="rank only sentences with at least N units (default 2)")
    _reading(a)
    a.set_defaults(handler=run_agreement)
