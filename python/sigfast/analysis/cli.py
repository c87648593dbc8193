"""Subcommands ``sigfast diff``, ``sigfast oracle`` and ``sigfast agreement``.

:func:`add_cli` registers them on the main parser's subparsers; each sets
``analysis_handler`` (a function of the parsed arguments returning the
exit status), so the main CLI runs ``args.analysis_handler(args)``. Bad
input raises :class:`sigfast.exceptions.SigfastError`.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..exceptions import InputError

__all__ = ["add_cli", "run_agreement", "run_diff", "run_oracle"]


def _reading(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        "-f",
        default="auto",
        choices=["auto", "conllu", "bio", "ptb", "conll2012"],
        help="conllu (CoNLL-U / CoNLL-X), bio (CoNLL-2003 columns), ptb (Penn trees), conll2012 "
        "(coreference, diff only); auto: ptb if the file starts with '(', conllu if it has 10 "
        "tab-separated columns, else bio",
    )
    p.add_argument(
        "--view",
        help="conllu: upos, xpos, deprel, uas, las (default); bio: tags (default), spans; ptb: brackets (default), pos",
    )
    p.add_argument(
        "--align",
        choices=["strict", "chars"],
        default="strict",
        help="strict (default): systems must have the gold words, else an error; chars: CoNLL-U "
        "words aligned on characters like conll18_ud_eval.py (raw-text systems)",
    )
    p.add_argument("--subtypes", action="store_true", help="keep deprel subtypes (default: nmod:poss -> nmod)")
    p.add_argument("--column", type=int, default=-1, help="bio: tag column (0-based; default the last)")
    p.add_argument("--names", help="comma-separated system names (default: file or folder names)")
    p.add_argument("--style", choices=["text", "markdown", "json"], default="text", help="output style")
    p.add_argument("--json", action="store_true", help="same as --style json")


def _opts(args: argparse.Namespace) -> dict[str, Any]:
    if args.format == "conll2012":
        raise InputError(f"--format conll2012 is only for `sigfast diff`, not `sigfast {args.command}`")
    return dict(
        format=args.format,
        view=args.view,
        align=args.align,
        subtypes=args.subtypes,
        column=args.column,
        names=args.names.split(",") if args.names else None,
    )


def _style(args: argparse.Namespace) -> str:
    return "json" if args.json else args.style


def run_diff(args: argparse.Namespace) -> int:
    from .coref import coref_diff
    from .diff import diff

    if args.format == "conll2012":
        names = tuple(args.names.split(",")) if args.names else None
        if names is not None and len(names) != 2:
            raise InputError("--names needs two names for diff")
        crits = ["any", "nominal"] if args.criterion == "both" else [args.criterion]
        results = [coref_diff(args.gold, args.system1, args.system2, criterion=c, names=names) for c in crits]
        if _style(args) == "json":
            import json

            print(json.dumps({r.criterion: r.to_dict() for r in results}, ensure_ascii=False, indent=2))
        else:
            print("\n".join(r.format(_style(args)) for r in results), end="")
        return 0
    r = diff(args.gold, args.system1, args.system2, top_k=args.top, **_opts(args))
    print(r.format(_style(args), max_labels=args.labels), end="")
    return 0


def run_oracle(args: argparse.Namespace) -> int:
    from .diff import pairwise
    from .oracle import oracle_units
    from .report import format_oracle
    from .units import read_units

    u = read_units(args.gold, args.systems, **_opts(args))
    o = oracle_units(u)
    style = _style(args)
    if style == "json":
        import json

        d = {"oracle": o.to_dict()}
        if args.matrix:
            d["pairwise"] = pairwise(u).to_dict()
        print(json.dumps(d, ensure_ascii=False, indent=2))
        return 0
    print(format_oracle(o, style, per_label=args.labels), end="")
    if args.matrix:
        print()
        print(pairwise(u).format(style), end="")
    return 0


def run_agreement(args: argparse.Namespace) -> int:
    from .agreement import agreement

    r = agreement(
        args.gold,
        args.systems,
        lowest=args.lowest,
        include_gold=args.include_gold,
        min_units=args.min_units,
        **_opts(args),
    )
    print(r.format(_style(args)), end="")
    return 0


def add_cli(subparsers: Any) -> None:
    """Register ``diff``, ``oracle`` and ``agreement`` on ``subparsers``."""
    d = subparsers.add_parser(
        "diff",
        help="what changed between two systems (corrections, new/changed errors)",
        description="Units labeled differently by SYS1 and SYS2, split into corrections, "
        "new errors and changed errors, with top transitions and per-label "
        "accuracy (Tuggener 2017).",
    )
    d.add_argument("gold")
    d.add_argument("system1")
    d.add_argument("system2")
    d.add_argument("--top", type=int, default=10, help="transitions shown per class (default 10)")
    d.add_argument(
        "--criterion",
        choices=["any", "nominal", "both"],
        default="both",
        help="conll2012: antecedent criterion (default both)",
    )
    d.add_argument("--labels", type=int, default=30, help="per-label rows shown (most frequent; default 30)")
    _reading(d)
    d.set_defaults(analysis_handler=run_diff)

    o = subparsers.add_parser(
        "oracle",
        help="oracle upper bound over N systems",
        description="A unit counts as correct if any system gets it right; overall and per "
        "gold label, with the gain over the best single system.",
    )
    o.add_argument("gold")
    o.add_argument("systems", nargs="+")
    o.add_argument("--matrix", action="store_true", help="also print the pairwise diff / Δaccuracy matrix")
    o.add_argument("--labels", type=int, default=30, help="per-label rows shown (most frequent; default 30)")
    _reading(o)
    o.set_defaults(analysis_handler=run_oracle)

    a = subparsers.add_parser(
        "agreement",
        help="Krippendorff's alpha across systems, lowest-alpha sentences",
        description="Krippendorff's alpha (nominal) per sentence and over the corpus across "
        "the systems; the lowest-alpha sentences with each system's labels "
        "beside gold (Gorman & Bedrick 2019).",
    )
    a.add_argument("gold")
    a.add_argument("systems", nargs="+")
    a.add_argument("--lowest", type=int, default=5, help="lowest-alpha sentences shown (default 5)")
    a.add_argument("--include-gold", action="store_true", help="count gold as one more coder")
    a.add_argument("--min-units", type=int, default=2, help="rank only sentences with at least N units (default 2)")
    _reading(a)
    a.set_defaults(analysis_handler=run_agreement)
