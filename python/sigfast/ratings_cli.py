"""``sigfast rate``: Bradley–Terry ratings of a battle file (:func:`sigfast.bradley_terry`), in every output style."""

from __future__ import annotations

import argparse

from . import _cli


def run_rate(args: argparse.Namespace) -> int:
    from .formats import spec
    from .ratings import bradley_terry, rating_tables, win_rates

    _cli.precheck(args)
    path = args.battles
    options = spec("battles").validate(_cli.format_options(args))
    from .formats.battles import read_battles

    table = read_battles(path, **options)
    r = bradley_terry(
        table,
        ties=args.ties,
        se=args.se,
        scale=args.scale,
        base=args.base,
        offset=args.offset,
        anchor=args.anchor,
        level=args.confidence,
        ridge=args.ridge,
    )
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    sig = f"{r.signature()}|format:battles{'|' + opts if opts else ''}"
    wr = win_rates(table, args.baseline, level=args.confidence) if args.baseline else None
    tables = rating_tables(r, wr, signature=sig)

    def data() -> dict:
        d = r.to_dict()
        d["signature"] = sig
        if wr is not None:
            d["win_rates"] = wr.to_dict()
        return d

    def render(style: str) -> str:
        from .report import render_tables

        if style == "csv":
            return tables[0].render("csv")
        return render_tables(tables, style)

    _cli.emit(args, data=data, render=render)
    return 0
