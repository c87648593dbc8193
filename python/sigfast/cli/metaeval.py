"""``sigfast metaeval``: metric meta-evaluation from the command line.

:mod:`sigfast.cli` registers the subcommand and its flags and calls
:func:`run_metaeval` when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from typing import Any

from . import common as _cli

__all__ = ["run_metaeval"]


def _pairs(items: list[str] | None, what: str) -> dict[str, str]:
    from ..exceptions import UsageError

    out: dict[str, str] = {}
    for it in items or ():
        if "=" not in it:
            raise UsageError(f"{what} takes OLD=NEW, got {it!r}")
        a, b = it.split("=", 1)
        if a in out:
            raise UsageError(f"{what} {a}= given twice ({a}={out[a]} and {it})")
        out[a] = b
    return out


def _renamed(table: Any, rename: dict[str, str], what: str) -> Any:
    """``table`` (a :class:`~sigfast.metaeval.ScoreTable`) after ``--rename``, keeping its file name for
    error messages: a new name that is already another system's is an error."""
    from ..exceptions import InputError

    if not rename:
        return table
    seen: dict[str, str] = {}
    for old in table.systems:
        n = rename.get(old, old)
        if n in seen:
            raise InputError(
                f"--rename: {what} would have two systems named {n!r} ({seen[n]!r} and {old!r}); rename onto a "
                "name no other system has"
            )
        seen[n] = old
    return table.renamed(rename)


#: the Python keyword a library message suggests -> the flag that sets it here
_FLAG_OF = {
    "missing='omit'": "--missing omit",
    "nan_policy='omit'": "--nan-policy omit",
    "with human=": "with --gold NAME",
    "with lp=": "with --lp",
}


@contextlib.contextmanager
def _as_flags() -> Iterator[None]:
    """Errors that suggest a keyword argument (``pass missing='omit'``) name the flag instead."""
    from ..exceptions import InputError

    try:
        yield
    except InputError as e:
        msg = str(e)
        if not any(k in msg for k in _FLAG_OF):
            raise
        for k, flag in _FLAG_OF.items():
            msg = msg.replace(k, flag)
        raise InputError(msg) from None


def _system_of(name: str, systems: tuple[str, ...]) -> str:
    """A --hyps file named after its path (``newstest2021.en-de.hyp.UEdin.de``) belongs to
    the human table's system whose name is one of the name's dot-separated parts, when
    exactly one is; otherwise the name stays as it is (NAME=PATH names it explicitly)."""
    if name in systems:
        return name
    parts = name.split(".")
    hits = [s for s in systems if s in parts]
    return hits[0] if len(hits) == 1 else name


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _read_human(args: argparse.Namespace, metric_names: list[str] | None) -> tuple[Any, dict[str, Any]]:
    """The human table, and the metric tables of an mt-metrics-eval test set when HUMAN is one."""
    from ..exceptions import UsageError
    from ..metaeval import read_mtme, read_scores

    if not os.path.isdir(args.human):
        given = [f for f, v in (("--lp", args.lp), ("--gold", args.gold)) if v is not None]
        if given:
            raise UsageError(
                f"{' and '.join(given)} name{'s' if len(given) == 1 else ''} the scores of an mt-metrics-eval "
                f"test-set folder, but HUMAN {args.human} is a file"
            )
        return read_scores(args.human, layout=args.layout, score_column=args.score_column), {}
    given = [f for f, v in (("--layout", args.layout != "auto"), ("--score-column", args.score_column)) if v]
    if given:
        raise UsageError(
            f"{' and '.join(given)}: HUMAN {args.human} is an mt-metrics-eval test-set folder, whose files are "
            "read as mt-metrics-eval writes them; drop the flag"
        )
    with _as_flags():
        d = read_mtme(
            args.human,
            lp=args.lp,
            human=args.gold,
            level="sys" if args.level == "system" else "seg",
            metrics=metric_names,
        )
    return d.human, dict(d.metrics)


def run_metaeval(args: argparse.Namespace) -> int:
    """Run ``sigfast metaeval`` with parsed arguments; returns the exit status."""
    from ..exceptions import InputError, UsageError
    from ..metaeval import align, evaluate, read_scores, segment_scores

    _cli.precheck(args, plots=("plot",))

    rename = _pairs(args.rename, "--rename")
    names = list(args.name or [])
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise UsageError(f"--name {dup} given twice; every metric needs its own name")
    if len(names) > len(args.metrics):
        raise UsageError(f"{len(names)} --name for {len(args.metrics)} metric score file(s); give one per file")
    # -m picks the test set's metrics when it does not name the metrics scored on --hyps
    human, tables = _read_human(args, None if args.hyps else args.metric)
    human = _renamed(human, rename, f"the human table {human.source or args.human}")
    tables = {k: _renamed(t, rename, f"the metric table {t.source or k}") for k, t in tables.items()}
    for k, path in enumerate(args.metrics):
        t = read_scores(path, layout=args.metric_layout, score_column=args.metric_score_column)
        name = names[k] if k < len(names) else (t.name or _stem(path))
        if name in tables:
            raise InputError(
                f"two metric score tables are named {name!r} ({path} and an earlier one); name them with --name"
            )
        tables[name] = _renamed(t, rename, f"the metric table {path}")
    if args.hyps:
        if not args.ref:
            raise UsageError("--hyps needs --ref (reference files line-aligned with the outputs)")
        from ..formats import named_systems

        hyp_names, hyp_paths = named_systems(args.hyps)
        hyps = {}
        for name, path in zip(hyp_names, hyp_paths):
            system = _system_of(name, human.systems)
            if system in hyps:
                raise InputError(f"two --hyps files are system {system!r}: {hyps[system]} and {path}")
            hyps[system] = str(path)
        wanted = set(args.system or human.systems)
        hyps = {k: v for k, v in hyps.items() if k in wanted}
        if len(hyps) < 2:
            raise InputError(
                f"fewer than two --hyps files name systems of the human table ({sorted(human.systems)[:8]}...); "
                "use --rename OLD=NEW to match names"
            )
        for m in args.metric or ["bleu", "chrf"]:
            if m not in ("bleu", "chrf", "chrf++"):
                raise UsageError(f"--metric for --hyps: bleu, chrf or chrf++ (segment scores), got {m!r}")
            label = {"bleu": "sentBLEU", "chrf": "chrF", "chrf++": "chrF++"}[m]
            if label in tables:
                raise InputError(f"metric {label!r} given twice (-m {m}, or a score file of that name)")
            tables[label] = segment_scores(args.ref, hyps, metric=m)
    elif args.metric and not os.path.isdir(args.human):
        raise UsageError(
            "--metric names the metrics scored on --hyps (with --ref) or kept from a test-set folder given as "
            "HUMAN; a metric score file is named by its file name or --name"
        )
    if not tables:
        raise UsageError("no metrics: give METRIC score files and/or --refs with --hyps")
    with _as_flags():
        systems, _items, h, m = align(
            human, tables, systems=args.system or None, missing=args.missing, level=args.level
        )
    params: dict[str, Any] = {}
    if args.threshold is not None:
        params["threshold"] = args.threshold
    if args.epsilon is not None:
        params["epsilon"] = args.epsilon
    with _as_flags():
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
            stream=args.stream,
            confidence_level=args.confidence,
            alternative=args.alternative or "two-sided",
            pvalue="raw" if args.raw_p else "plus_one",
            correction=args.correction,
            alpha=args.alpha,
            nan_policy=args.nan_policy,
            n_threads=args.threads,
            progress=args.progress,
            **params,
        )
    if args.plot:
        result.plot(args.plot)
    _cli.emit(args, render=result.format, results=[result])
    return 0
