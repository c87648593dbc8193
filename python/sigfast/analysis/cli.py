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
    _cli.add_output(p)


def _units(args: argparse.Namespace, gold: str, systems: list[str]) -> Any:
    from ..formats import parse

    return parse(args.format or "auto", gold, systems, **_cli.format_options(args)).units(args.view)


def _emit(args: argparse.Namespace, render: Any) -> int:
    _cli.emit(args, render=lambda style: render(style) if style == "json" else render(style).rstrip("\n") + "\n")
    return 0


def run_diff(args: argparse.Namespace) -> int:
    from .coref import coref_diff
    from .diff import diff_units

    _cli.precheck(args)
    if (args.format or "").lower() == "conll2012":
        crits = ["any", "nominal"] if args.criterion == "both" else [args.criterion]
        n1, p1 = _named(args.system1)
        n2, p2 = _named(args.system2)
        results = [coref_diff(args.gold, p1, p2, criterion=c, names=(n1, n2)) for c in crits]

        def render_coref(style: str) -> str:
            if style == "json":
                return json.dumps({r.criterion: r.to_dict() for r in results}, ensure_ascii=False, indent=2) + "\n"
            return "\n".join(r.format(style) for r in results)

        return _emit(args, render_coref)
    u = _units(args, args.gold, [args.system1, args.system2])
    r = diff_units(u, 0, 1, top_k=args.top)
    return _emit(
        args,
        lambda style: r.to_json(indent=2) + "\n" if style == "json" else r.format(style, max_labels=args.labels),
    )


def _named(item: str) -> tuple[str, str]:
    import os

    from ..formats import system_names

    if "=" in item and not os.path.exists(item):
        n, _, p = item.partition("=")
        return n, p
    return system_names([item])[0], item


def run_oracle(args: argparse.Namespace) -> int:
    from .diff import pairwise
    from .oracle import oracle_units
    from .report import format_oracle

    _cli.precheck(args)
    u = _units(args, args.gold, args.systems)
    o = oracle_units(u)

    def render(style: str) -> str:
        if style == "json":
            d: dict[str, Any] = {"oracle": o.to_dict()}
            if args.matrix:
                d["pairwise"] = pairwise(u).to_dict()
            return json.dumps(d, ensure_ascii=False, indent=2) + "\n"
        out = format_oracle(o, style, per_label=args.labels)
        if args.matrix:
            out = out.rstrip("\n") + "\n\n" + pairwise(u).format(style)
        return out

    return _emit(args, render)


def run_agreement(args: argparse.Namespace) -> int:
    from .agreement import agreement_units

    _cli.precheck(args)
    u = _units(args, args.gold, args.systems)
    r = agreement_units(u, lowest=args.lowest, include_gold=args.include_gold, min_units=args.min_units)
    return _emit(args, lambda style: r.to_json(indent=2) + "\n" if style == "json" else r.format(style))


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
    d.add_argument("--labels", type=int, default=30, help="per-label rows shown (most frequent; default 30)")
    _reading(d)
    d.set_defaults(handler=run_diff)

    o = subparsers.add_parser(
        "oracle",
        help="oracle upper bound over N systems",
        description="A unit counts as correct if any system gets it right; overall and per gold label, with the "
        "gain over the best single system.",
    )
    o.add_argument("gold")
    o.add_argument("systems", nargs="+", help="SYSTEM ... (PATH or NAME=PATH)")
    o.add_argument("--matrix", action="store_true", help="also print the pairwise diff / Δaccuracy matrix")
    o.add_argument("--labels", type=int, default=30, help="per-label rows shown (most frequent; default 30)")
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
