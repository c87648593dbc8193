"""The handlers of ``sigfast diff``, ``sigfast oracle`` and ``sigfast agreement``.

:mod:`sigfast.cli` registers the subcommands and their flags and calls a
handler (a function of the parsed arguments returning the exit status) when
its subcommand runs. Files are read through the format registry (one parse
per file; units from the format's own scorer). Bad input raises
:class:`sigfast.exceptions.SigfastError`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..cli import common as _cli

__all__ = ["run_agreement", "run_diff", "run_oracle"]


def _units(args: argparse.Namespace, gold: str, systems: list[str]) -> tuple[Any, str]:
    from ..formats import parse
    from .units import units_of

    parsed = parse(args.format or "auto", gold, systems, **_cli.format_options(args))
    return units_of(parsed, args.view, no_punct=args.no_punct)


def _is_coref(args: argparse.Namespace) -> bool:
    """Whether the files are CoNLL-2012 coreference (``--format conll2012`` or an alias), whose diff and
    oracle class mentions by their antecedents; the unit flags that do not apply are refused."""
    from ..exceptions import UsageError
    from ..formats import spec

    if not args.format or spec(args.format).name != "conll2012":
        return False
    unused = [
        flag
        for flag, given in (
            ("--no-punct", args.no_punct),
            ("--view", args.view),
            ("--align", getattr(args, "align", None)),
            ("--show-systems", getattr(args, "show_systems", None)),
            ("--top-systems", getattr(args, "top_systems", None)),
            ("--matrix", getattr(args, "matrix", False)),
        )
        if given
    ]
    if unused:
        raise UsageError(
            f"{', '.join(unused)} {'does' if len(unused) == 1 else 'do'} not apply to coreference mentions "
            "(--format conll2012): its table has one column per response and classes mentions, not units"
        )
    opts = _cli.format_options(args)
    if opts:
        raise UsageError(
            f"-o {', '.join(opts)}: give the antecedent criterion with --criterion for diff and oracle of "
            "--format conll2012"
        )
    return True


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
            else r.format(style, max_labels=args.label_rows, sort=args.sort)
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
        out = o.format(style, per_label=args.label_rows, systems=chosen, top_systems=args.top_systems)
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
