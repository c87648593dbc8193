"""``sigfast rate``: Bradley–Terry ratings of a battle file (:func:`sigfast.bradley_terry`), in every output style."""

from __future__ import annotations

import argparse

from . import common as _cli


def run_rate(args: argparse.Namespace) -> int:
    import dataclasses

    from ..formats import spec
    from ..inference.ratings import bradley_terry, win_rates

    _cli.precheck(args)
    path = args.battles
    options = spec("battles").validate(_cli.format_options(args))
    from ..formats.battles import read_battles

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
        bootstrap=args.bootstrap or 0,
        seed=args.seed,
        stream=args.stream,
        n_threads=args.threads,
    )
    if args.baseline:
        r = dataclasses.replace(r, win_rates=win_rates(table, args.baseline, level=args.confidence))
    _cli.emit(args, render=r.format, results=[r])
    return 0
