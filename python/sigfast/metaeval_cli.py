"""``sigfast metaeval``: metric meta-evaluation from the command line.

:func:`add_cli` registers the subcommand (flags of :mod:`sigfast._cli`); its
parser sets ``handler``, which the main CLI runs.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from . import _cli

__all__ = ["add_cli", "run_metaeval"]


def _pairs(items: list[str] | None, what: str) -> dict[str, str]:
    from .exceptions import InputError

    out = {}
    for it in items or ():
        if "=" not in it:
            raise InputError(f"{what} takes OLD=NEW, got {it!r}")
        a, b = it.split("=", 1)
        out[a] = b
    return out


def _system_of(name: str, systems: tuple[str, ...]) -> str:
    """A --hyps file named after its path (``newstest2021.en-de.hyp.UEdin.de``) belongs to
    the human table's system whose name is one of the name's dot-separated parts, when
    exactly one is; otherwise the name stays as it is (NAME=PATH names it explicitly)."""
    if name in systems:
        return name
    parts = name.split(".")
    hits = [s for s in systems if s in parts]
    return hits[0] if len(hits) == 1 else name


def run_metaeval(args: argparse.Namespace) -> int:
    """Run ``sigfast metaeval`` with parsed arguments; returns the exit status."""
    from .exceptions import InputError
    from .metaeval import ScoreTable, align, evaluate, read_scores, segment_scores

    _cli.precheck(args, plots=("plot",))

    rename = _pairs(args.rename, "--rename")
    human = read_scores(args.human, layout=args.layout, score_column=args.score_column)
    if rename:
        human = ScoreTable(tuple(rename.get(s, s) for s in human.systems), human.items, human.values)
    tables: dict[str, ScoreTable] = {}
    names = list(args.name or [])
    for k, path in enumerate(args.metrics):
        name = names[k] if k < len(names) else os.path.splitext(os.path.basename(path))[0]
        t = read_scores(path, layout=args.metric_layout, score_column=args.metric_score_column)
        tables[name] = ScoreTable(tuple(rename.get(s, s) for s in t.systems), t.items, t.values)
    if args.hyps:
        if not args.ref:
            raise InputError("--hyps needs --ref (reference files line-aligned with the outputs)")
        from .formats import named_systems

        hyp_names, hyp_paths = named_systems(args.hyps)
        hyps = {}
        for name, path in zip(hyp_names, hyp_paths):
            hyps[_system_of(name, human.systems)] = str(path)
        wanted = set(args.system or human.systems)
        hyps = {k: v for k, v in hyps.items() if k in wanted}
        if len(hyps) < 2:
            raise InputError(
                f"fewer than two --hyps files name systems of the human table ({sorted(human.systems)[:8]}...); "
                "use --rename OLD=NEW to match names"
            )
        for m in args.metric or ["bleu", "chrf"]:
            if m not in ("bleu", "chrf", "chrf++"):
                raise InputError(f"--metric for --hyps: bleu, chrf or chrf++ (segment scores), got {m!r}")
            label = {"bleu": "sentBLEU", "chrf": "chrF", "chrf++": "chrF++"}[m]
            tables[label] = segment_scores(args.ref, hyps, metric=m)
    if not tables:
        raise InputError("no metrics: give METRIC score files and/or --refs with --hyps")
    systems, _items, h, m = align(human, tables, systems=args.system or None)
    params: dict[str, Any] = {}
    if args.threshold is not None:
        params["threshold"] = args.threshold
    if args.epsilon is not None:
        params["epsilon"] = args.epsilon
    result = evaluate(
        h,
        m,
        names=list(tables),
        systems=systems,
        level=args.level,
        statistic=args.statistic,
        interval=args.interval,
        test=args.test,
        n_resamples=args.resamples,
        seed=args.seed,
        confidence_level=args.confidence,
        alternative=args.alternative,
        pvalue="raw" if args.raw_p else "plus_one",
        correction=args.correction,
        alpha=args.alpha,
        n_threads=args.threads,
        progress=args.progress,
        **params,
    )
    if args.plot:
        result.plot(args.plot)
    render = {
        "json": lambda: result.to_json() + "\n",
        "csv": result.to_csv,
        "markdown": result.to_markdown,
        "latex": result.to_latex,
        "text": lambda: str(result) + "\n",
    }
    _cli.emit(args, render=lambda style: render[style](), results=[result])
    return 0


def add_cli(subparsers: Any) -> None:
    """Register ``sigfast metaeval``."""
    p = subparsers.add_parser(
        "metaeval",
        help="correlate metrics with human scores, with intervals and pairwise metric tests",
        description="Meta-evaluate metrics: correlations with human scores at system, global, item or "
        "system-grouped level; BOOT-SYSTEMS/INPUTS/BOTH intervals; PERM-SYSTEMS/INPUTS/BOTH or Williams tests "
        "of every pair of metrics with a multiple-testing correction; WMT-style clusters. Score files hold "
        "'system item score' rows (TSV/CSV, a header may name the columns) or one row per system.",
    )
    p.add_argument("human", help="human score file")
    p.add_argument("metrics", nargs="*", help="metric score files")
    p.add_argument("--name", action="append", help="name of the next metric file (repeatable, in order)")
    _cli.add_refs(p)
    p.add_argument(
        "--hyps", nargs="+", metavar="FILE", help="system output files (PATH or NAME=PATH), scored against --ref"
    )
    p.add_argument(
        "--metric",
        "-m",
        action="append",
        default=None,
        metavar="METRIC",
        help="segment metric for --hyps (repeatable; default bleu and chrf): sentence BLEU, chrF, chrF++",
    )
    p.add_argument("--rename", action="append", metavar="OLD=NEW", help="rename a system in every table")
    p.add_argument("--system", action="append", help="systems to use (default: those in every table)")
    p.add_argument("--layout", default="auto", choices=["auto", "long", "wide"], help="human file layout")
    p.add_argument("--score-column", help="human score column (long files with a header)")
    p.add_argument("--metric-layout", default="auto", choices=["auto", "long", "wide"])
    p.add_argument("--metric-score-column")
    p.add_argument("--level", default="item", choices=["system", "global", "item", "system_grouped"])
    p.add_argument(
        "--statistic",
        default="kendall_b",
        help="pearson, spearman, kendall_b (default), kendall_c, tau_like, pairwise_accuracy, acc_eq",
    )
    p.add_argument("--threshold", type=float, help="tau_like: human difference that makes a pair (WMT DA: 25)")
    p.add_argument("--epsilon", type=float, help="acc_eq: fixed tie threshold (default: tie calibration)")
    p.add_argument("--interval", default="both", choices=["systems", "inputs", "both", "none"])
    p.add_argument(
        "--test", default="perm-both", choices=["perm-systems", "perm-inputs", "perm-both", "williams", "none"]
    )
    _cli.add_resamples(p, 1000)
    _cli.add_seed(p)
    _cli.add_confidence(p)
    p.add_argument("--alternative", default="two-sided", choices=["two-sided", "greater"])
    p.add_argument("--raw-p", action="store_true", help="report c/B instead of (c+1)/(B+1)")
    _cli.add_correction(p)
    _cli.add_alpha(p)
    _cli.add_threads(p)
    _cli.add_output(p)
    p.add_argument("--plot", metavar="FILE", help="plot of correlations with intervals (.png, .svg, .pdf)")
    _cli.add_progress(p)
    p.set_defaults(handler=run_metaeval)
