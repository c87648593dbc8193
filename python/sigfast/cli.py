"""The ``sigfast`` command line.

Every subcommand speaks the vocabulary of :mod:`sigfast._cli` (the same
flag has the same name, type, default and meaning everywhere). Errors:
a :class:`~sigfast.exceptions.SigfastError` or an ``OSError`` prints one
line on standard error and exits 1; a usage error (unknown flag, bad value)
exits 2, as argparse does; ``--debug`` shows the traceback instead; a closed
pipe (``| head``) ends quietly; Ctrl-C exits 130.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from . import _cli

__all__ = ["main"]

_BOOT_VARIANTS = ("bk", "koehn", "shifted", "sacrebleu", "moses")
_MCNEMAR_VARIANTS = ("mid-p", "exact", "asymptotic", "asymptotic-nocc")
_TESTS = ("bootstrap", "permutation", "exact", "mcnemar")


def _test_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--test",
        "-t",
        default="bootstrap",
        choices=_TESTS,
        help="paired bootstrap (default), approximate randomization, exact permutation, or McNemar on the "
        "units' correctness",
    )
    p.add_argument(
        "--variant",
        default=None,
        help="bootstrap: bk (Berg-Kirkpatrick 2012, default), koehn, shifted, sacrebleu (sacrebleu's rule), moses "
        "(Moses' rule); mcnemar: mid-p (default), exact, asymptotic, asymptotic-nocc",
    )
    p.add_argument(
        "--alternative",
        choices=("two-sided", "greater", "less"),
        default=None,
        help="sidedness (shifted bootstrap, permutation, McNemar; default two-sided)",
    )


def _log_args(p: argparse.ArgumentParser) -> None:
    """Flags of the LLM-log formats (lm-eval, inspect, helm, lighteval, records): -o task= and -o intersect=."""
    p.add_argument("--task", default=None, help="LLM logs: the task to read from a run folder (-o task=NAME)")
    p.add_argument(
        "--intersect",
        action="store_true",
        help="LLM logs: test the items all logs share when they hold different items, with a warning and the "
        "counts (-o intersect=true); without it, missing or extra items are an error",
    )


def _raw_p(p: argparse.ArgumentParser) -> None:
    p.add_argument("--raw-p", action="store_true", help="report c/B instead of (c+1)/(B+1)")


def _parser() -> argparse.ArgumentParser:
    from ._native import __version__

    ap = argparse.ArgumentParser(
        prog="sigfast",
        description="Exact, deterministic and fast significance tests for NLP evaluation.",
        epilog="Errors print one line and exit 1; usage errors exit 2; --debug shows tracebacks.",
    )
    ap.add_argument("--version", action="version", version=f"sigfast {__version__}")
    ap.add_argument("--debug", action="store_true", help="show tracebacks instead of one-line errors")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    c = sub.add_parser(
        "compare",
        help="test whether systems differ from a baseline",
        description="Compare a baseline with one or more systems. Without --format the files hold per-item "
        "scores or statistics (TSV, JSONL or .npy); with --format the first file is gold (or give --ref) and "
        "the others are system outputs: BASELINE SYSTEM [SYSTEM ...]. A system may be NAME=PATH.",
    )
    c.add_argument("files", nargs="+", metavar="FILE", help="[GOLD] BASELINE SYSTEM [SYSTEM ...]")
    _cli.add_format(c)
    _cli.add_refs(c)
    _cli.add_metric(c)
    _test_args(c)
    c.add_argument("--view", help="--test mcnemar: the units to compare (default: the metric's, or the format's first)")
    _cli.add_align(c)
    _cli.add_strict(c)
    _log_args(c)
    c.add_argument(
        "-n",
        "--resamples",
        type=_cli._positive_int("--resamples", _cli.MAX_RESAMPLES),
        default=None,
        metavar="N",
        help="resamples (default 1,000,000 for the bootstrap, 100,000 for permutations; at most 2^40)",
    )
    _cli.add_seed(c)
    _cli.add_confidence(c)
    _raw_p(c)
    _cli.add_threads(c)
    _cli.add_progress(c)
    _cli.add_output(c)
    c.set_defaults(handler=_cmd_compare)

    m = sub.add_parser(
        "mcnemar",
        help="McNemar's test on files of per-item 0/1 correctness",
        description="McNemar's test of each SYSTEM against BASELINE on per-item correctness (0/1, one per item "
        "or whitespace-separated). The same as `sigfast compare --test mcnemar` on such files.",
    )
    m.add_argument("files", nargs="+", metavar="FILE", help="BASELINE SYSTEM [SYSTEM ...] (NAME=PATH allowed)")
    m.add_argument("--variant", default="mid-p", choices=_MCNEMAR_VARIANTS, help="McNemar variant (default mid-p)")
    m.add_argument("--alternative", choices=("two-sided", "greater", "less"), default=None)
    _cli.add_confidence(m)
    _cli.add_output(m)
    m.set_defaults(handler=_cmd_mcnemar)

    s = sub.add_parser(
        "score",
        help="score system files like the reference scorer",
        description="Print the reference scorer's report for each SYSTEM against GOLD (or --ref). The format "
        "is detected from the file name or content when --format is not given.",
    )
    s.add_argument("files", nargs="+", metavar="FILE", help="GOLD SYSTEM [SYSTEM ...] (or SYSTEM ... with --ref)")
    _cli.add_format(s)
    _cli.add_refs(s)
    _cli.add_strict(s)
    _log_args(s)
    s.add_argument(
        "--per-item",
        action="store_true",
        help="each item's score and statistics as the reference scores one sentence or document alone (sentence "
        "BLEU with the effective order, per-sentence LAS, F1 counts, AER counts, per-document ROUGE)",
    )
    _cli.add_metric(s)
    _cli.add_output(s)
    s.set_defaults(handler=_cmd_score)

    pw = sub.add_parser(
        "pairwise",
        help="test every pair of systems on shared resamples",
        description="All pairs of systems with shared bootstrap resamples (Berg-Kirkpatrick et al. 2012, fn. 5), "
        "corrected for the family of comparisons, with a ranking, rank ranges and significance clusters.",
    )
    pw.add_argument(
        "files", nargs="+", metavar="FILE", help="SYSTEM ... (per-item files), or GOLD SYSTEM ... with --format"
    )
    _cli.add_format(pw)
    _cli.add_refs(pw)
    _cli.add_strict(pw)
    _log_args(pw)
    _cli.add_metric(pw)
    pw.add_argument("--variant", default="bk", choices=_BOOT_VARIANTS, help="bootstrap p-value rule (default bk)")
    pw.add_argument("--alternative", choices=("two-sided", "greater", "less"), default=None)
    _cli.add_resamples(pw, 1_000_000)
    _cli.add_seed(pw)
    _cli.add_correction(pw)
    _cli.add_alpha(pw)
    pw.add_argument(
        "--groups",
        default="boundaries",
        choices=("boundaries", "strict"),
        help="boundaries (WMT style: a boundary where every system above beats every system below; default) or "
        "strict (no significant difference inside a group)",
    )
    pw.add_argument("--mode", default="shared", choices=("shared", "independent"), help="shared resamples (default)")
    pw.add_argument(
        "--resampling",
        default="auto",
        choices=("auto", "items", "distinct"),
        help="items, distinct rows, or auto (default)",
    )
    pw.add_argument("--backend", default="local", choices=("local", "ray", "processes"))
    _cli.add_threads(pw)
    pw.add_argument("--label", action="append", metavar="SYSTEM=GROUP", help="group of a system (repeatable)")
    pw.add_argument("--combination", action="append", metavar="SYSTEM", help="a system combination (repeatable)")
    from .studies.cli import add_threshold_args

    add_threshold_args(pw)
    pw.add_argument("--plot", metavar="FILE", help="confidence-vs-gain plot (.png, .svg or .pdf)")
    pw.add_argument("--heatmap", metavar="FILE", help="p-value heat map (.png, .svg or .pdf)")
    _cli.add_progress(pw)
    _cli.add_output(pw)
    pw.set_defaults(handler=_cmd_pairwise)

    d = sub.add_parser("demo", help="run the main job on built-in sample data")
    d.add_argument(
        "--save",
        metavar="FOLDER",
        help="write the sample data as files the other subcommands read (F1 statistics, 0/1 correctness, scores)",
    )
    _cli.add_resamples(d, 1_000_000, "bootstrap resamples")
    _cli.add_seed(d)
    _cli.add_threads(d)
    _cli.add_output(d)
    d.set_defaults(handler=_cmd_demo)

    i = sub.add_parser("info", help="version, random stream, formats (options, views) and metrics (parameters)")
    _cli.add_output(i)
    i.set_defaults(handler=_cmd_info)

    from .analysis.cli import add_cli as add_analysis_cli
    from .seeds import add_cli as add_seeds_cli
    from .studies.cli import add_cli as add_studies_cli

    add_seeds_cli(sub)
    add_analysis_cli(sub)
    add_studies_cli(sub)
    from .metaeval_cli import add_cli as add_metaeval_cli

    add_metaeval_cli(sub)
    return ap


# --------------------------------------------------------------------------------------------
# compare


def _parse_inputs(args: argparse.Namespace, *, min_systems: int) -> Any:
    return _cli.parse_inputs(args, min_systems=min_systems)


def _input_error(msg: str) -> Exception:
    from .exceptions import InputError

    return InputError(msg)


def _metrics(args: argparse.Namespace) -> list[str | None]:
    return list(args.metric) if args.metric else [None]


def _cmd_compare(args: argparse.Namespace) -> int:
    _cli.precheck(args)
    if args.test == "mcnemar":
        return _run_mcnemar(args, _parse_inputs(args, min_systems=2) if args.format or args.ref else None)
    import sigfast

    from .significance import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES

    if args.view:
        raise _input_error("--view is for --test mcnemar")
    parsed = _parse_inputs(args, min_systems=2)
    results = []
    for metric in _metrics(args):
        if parsed.spec.needs_gold:
            stats, m = parsed.statistics(metric), None
        else:
            stats, m = parsed.statistics(metric), metric
        base = stats.systems[0]
        common: dict[str, Any] = dict(
            metric=m,
            seed=args.seed,
            pvalue="raw" if args.raw_p else "plus_one",
            n_threads=args.threads,
            progress=args.progress,
        )
        for other in stats.systems[1:]:
            if args.test == "bootstrap":
                r = sigfast.paired_bootstrap(
                    stats,
                    systems=(base, other),
                    n_resamples=args.resamples or DEFAULT_RESAMPLES,
                    variant=args.variant or "bk",
                    alternative=args.alternative,
                    confidence_level=args.confidence,
                    **common,
                )
            else:
                if args.variant:
                    raise _input_error("permutation tests have no --variant")
                r = sigfast.permutation_test(
                    stats,
                    systems=(base, other),
                    method="exact" if args.test == "exact" else "approximate",
                    n_resamples=args.resamples or DEFAULT_PERMUTATIONS,
                    alternative=args.alternative or "two-sided",
                    **common,
                )
            results.append(r)
    source = getattr(parsed, "gold", None)
    _cli.emit(
        args,
        text=_results_text(results, source=f"{parsed.format} vs {source}" if source else None),
        tables=lambda: [_results_table(results)],
        results=results,
    )
    return 0


def _results_table(results: list[Any]) -> Any:
    from .report import Table, _fmt_p, _fmt_score

    r0 = results[0]
    several = len({r.metric for r in results}) > 1
    rows = []
    for r in results:
        scale = r.display_scale
        ci = r.confidence_interval
        row = [
            r.systems[0],
            _fmt_score(scale, r.score_x),
            r.systems[1],
            _fmt_score(scale, r.score_y),
            f"{scale * r.statistic:+.4f}",
            f"[{scale * ci.low:+.4f}, {scale * ci.high:+.4f}]" if ci else "",
            _fmt_p(r.pvalue),
            "*" if r.pvalue < 0.05 else "",
        ]
        rows.append(([f"{r.metric}{' x100' if scale == 100 else ''}"] if several else []) + row)
    unit = "" if several else (" x100" if r0.display_scale == 100 else "")
    ci_head = f"{round(100 * r0.confidence_level)}% CI" if r0.confidence_level else "CI"
    head = (["metric"] if several else []) + [
        "baseline",
        f"{'score' if several else r0.metric}{unit}",
        "system",
        f"{'score' if several else r0.metric}{unit}",
        "delta",
        ci_head,
        "p",
        "p<.05",
    ]
    notes = (
        f"test: {r0.test} ({r0.variant}, {r0.alternative}); {r0.n_items} items; {r0.n_resamples:,} resamples; "
        f"seed {r0.seed}; p = {r0.pvalue_method}",
        *dict.fromkeys(r.sidedness for r in results if r.sidedness),
    )
    sig = signature_notes(
        [f"{r.systems[1]} vs {r.systems[0]}, {r.metric}" for r in results], [r.signature for r in results]
    )
    return Table(tuple(head), tuple(tuple(x) for x in rows), notes=notes, signature="\n".join(sig))


def signature_notes(labels: list[str], signatures: list[str]) -> tuple[str, ...]:
    """The signatures of a table's rows: the part they share once, then what each row adds."""
    from .signature import shared

    sigs = list(dict.fromkeys(signatures))
    if len(sigs) == 1:
        return (f"signature: {sigs[0]}",)
    common, rest = shared(signatures)
    return (f"signature (shared): {common}", *(f"  {lab}: {r}" for lab, r in zip(labels, rest)))


def _results_text(results: list[Any], source: str | None) -> str:
    t = _results_table(results)
    head = f"{source}\n" if source else ""
    warn = "".join(
        f"WARNING: {w}\n" for w in dict.fromkeys(w for r in results for w in getattr(r, "warnings", ()) or ())
    )
    return head + warn + t.render("text")


# --------------------------------------------------------------------------------------------
# McNemar


def _mcnemar_kw(variant: str | None, alternative: str | None) -> dict[str, Any]:
    v = variant or "mid-p"
    if v not in _MCNEMAR_VARIANTS:
        raise _input_error(f"McNemar variants: {', '.join(_MCNEMAR_VARIANTS)}; got {v!r}")
    method = "asymptotic" if v.startswith("asymptotic") else v
    return dict(method=method, correction=v != "asymptotic-nocc", alternative=alternative or "two-sided")


def _run_mcnemar(args: argparse.Namespace, parsed: Any) -> int:
    import numpy as np

    from .classical import _read_binary_file, mcnemar
    from .formats import system_names
    from .intervals import wilson_interval

    if parsed is not None:
        view = args.view
        metrics = [m for m in _metrics(args) if m is not None]
        if view is None and metrics:
            if len(metrics) > 1:
                raise _input_error("--test mcnemar compares one view of units; give one --metric or --view")
            view = metrics[0] if metrics[0] in parsed.spec.views else None
            if view is None:
                raise _input_error(
                    f"--test mcnemar compares units; format {parsed.format!r} has the views "
                    f"{', '.join(parsed.spec.views) or '(none)'} (--view), not {metrics[0]!r}"
                )
        units = parsed.units(view)
        names = list(units.names)
        correct = [units.correct(k).astype(np.float64) for k in range(len(names))]
        what = f"{units.n_units} units ({parsed.format} {units.view}, align {units.align})"
        from .signature import units_fields

        provenance = {k: v for k, v in units_fields(units).items() if k not in ("data", "systems", "items")}
    else:
        if args.view or getattr(args, "align", None):
            raise _input_error("--view and --align need --format files")
        files = [f.partition("=")[2] if "=" in f and not os.path.exists(f) else f for f in args.files]
        given = [f.partition("=")[0] if "=" in f and not os.path.exists(f) else "" for f in args.files]
        auto = system_names(files)
        names = [g or a for g, a in zip(given, auto)]
        if len(files) < 2:
            raise _input_error("give a BASELINE file and at least one SYSTEM file of 0/1 correctness")
        correct = [_read_binary_file(f) for f in files]
        if len({c.size for c in correct}) != 1:
            raise _input_error(
                "the 0/1 files list different numbers of items: "
                + ", ".join(f"{n}: {c.size}" for n, c in zip(names, correct))
            )
        what = f"{correct[0].size} items"
        provenance = {"format": "binary"}
    kw = _mcnemar_kw(args.variant, args.alternative)
    from dataclasses import replace

    results = [
        replace(mcnemar(correct[0], c, **kw), provenance={**provenance, "systems": [names[0], n]})
        for n, c in zip(names[1:], correct[1:])
    ]
    level = getattr(args, "confidence", 0.95)
    acc = [wilson_interval(int(c.sum()), int(c.size), level) for c in correct]
    from .report import Table, _fmt_p

    rows = [(names[0], f"{100 * correct[0].mean():.2f}", _ci(acc[0]), "(baseline)", "", "", "", "")]
    for n, c, a, r in zip(names[1:], correct[1:], acc[1:], results):
        rows.append(
            (
                n,
                f"{100 * c.mean():.2f}",
                _ci(a),
                f"{100 * (c.mean() - correct[0].mean()):+.2f}",
                int(((c == 1) & (correct[0] == 0)).sum()),
                int(((c == 0) & (correct[0] == 1)).sum()),
                _fmt_p(r.pvalue),
                "*" if r.pvalue < 0.05 else "",
            )
        )
    table = Table(
        ("system", "accuracy", f"{round(100 * level)}% Wilson", "delta", "fixed", "broken", "p", "p<.05"),
        tuple(rows),
        notes=(
            f"test: McNemar ({results[0].variant}, {results[0].alternative}) on {what}; "
            "fixed/broken = units only the system / only the baseline gets right",
        ),
        signature="\n".join(signature_notes(names[1:], [r.signature for r in results])),
    )

    def rows() -> list[dict[str, Any]]:
        return [
            {
                "baseline": names[0],
                "system": n,
                "accuracy_baseline": float(correct[0].mean()),
                "accuracy": float(c.mean()),
                "wilson_low": float(a[0]),
                "wilson_high": float(a[1]),
                "fixed": int(((c == 1) & (correct[0] == 0)).sum()),
                "broken": int(((c == 0) & (correct[0] == 1)).sum()),
                **r.rows()[0],
            }
            for n, c, a, r in zip(names[1:], correct[1:], acc[1:], results)
        ]

    _cli.emit(
        args,
        text=table.render("text"),
        tables=lambda: [table],
        results=[_Rows(rows)],
        data=lambda: [
            {"baseline": names[0], "system": n, "accuracy": float(c.mean()), "wilson": list(a), **r.to_dict()}
            for n, c, a, r in zip(names[1:], correct[1:], acc[1:], results)
        ],
    )
    return 0


class _Rows:
    """Tidy rows a command builds itself, for :func:`sigfast._cli.emit` (CSV)."""

    def __init__(self, rows: Any) -> None:
        self._rows = rows

    def rows(self) -> list[dict[str, Any]]:
        return list(self._rows())


def _ci(ci: Any) -> str:
    return f"[{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]"


def _cmd_mcnemar(args: argparse.Namespace) -> int:
    _cli.precheck(args)
    args.view = None
    args.align = None
    return _run_mcnemar(args, None)


# --------------------------------------------------------------------------------------------
# score


def _cmd_score(args: argparse.Namespace) -> int:
    from .report import Table

    _cli.precheck(args)
    if not args.ref and len(args.files) < 2 and not (args.format and _gold_inside(args.format)):
        raise _input_error("give GOLD and SYSTEM files (or --ref GOLD SYSTEM ...)")
    if args.metric and not args.per_item:
        raise _input_error("-m/--metric picks the metrics of --per-item; the report holds the format's own metrics")
    if not args.format and not args.ref:
        from .formats import detect_format

        args.format = detect_format(args.files[0])
    parsed = _parse_inputs(args, min_systems=1)
    if not parsed.spec.needs_gold:
        raise _input_error(f"format {parsed.format!r} holds per-item values; there is no reference scorer to run")
    if args.per_item:
        return _score_per_item(args, parsed)
    several = len(parsed.names) > 1
    text = "".join(
        (f"== {n} ==\n" if several else "") + r.text + ("" if r.text.endswith("\n") else "\n")
        for n, r in zip(parsed.names, parsed.reports)
    )
    metrics = list(parsed.reports[0].scores)

    def tables() -> list[Any]:
        rows = tuple((n, *(f"{r.scores[m]:.6g}" for m in metrics)) for n, r in zip(parsed.names, parsed.reports))
        return [Table(("system", *metrics), rows, title=f"{parsed.format} scores against {parsed.gold}")]

    def rows() -> list[dict[str, Any]]:
        return [
            {"system": n, "format": r.format, "gold": r.gold, "file": r.system, **{m: r.scores[m] for m in metrics}}
            for n, r in zip(parsed.names, parsed.reports)
        ]

    _cli.emit(
        args,
        text=text,
        tables=tables,
        results=[_Rows(rows)],
        data=lambda: [
            {"format": r.format, "gold": r.gold, "system": r.system, "name": n, "scores": r.scores}
            for n, r in zip(parsed.names, parsed.reports)
        ],
    )
    return 0


def _gold_inside(fmt: str) -> bool:
    """The format reads the gold from the system files (conlleval, the LLM logs): one FILE is enough."""
    from .formats import spec

    return spec(fmt).gold_optional


def _score_per_item(args: argparse.Namespace, parsed: Any) -> int:
    """``score --per-item``: every item's score alone (``ItemStats.item_scores``) and its statistics."""
    import json

    from .report import Table

    first = parsed.reports[0]
    wanted = list(dict.fromkeys(args.metric)) if args.metric else [first.default_metric]
    for m in wanted:
        if m not in first.stats:
            raise _input_error(
                f"format {parsed.format!r} has no per-item metric {m!r}; choose from {', '.join(first.stats)}"
            )
    # per system: (item stats, item scores) of each metric
    per = [{m: (r.stats[m], r.stats[m].item_scores()) for m in wanted} for r in parsed.reports]
    n_items = {len(next(iter(p.values()))[1]) for p in per}
    several = len(parsed.names) > 1
    with_ids = any(r.item_ids for r in parsed.reports)

    def ids(k: int) -> tuple[str, ...]:
        r = parsed.reports[k]
        n = len(next(iter(per[k].values()))[1])
        return tuple(r.item_ids) if r.item_ids else ("",) * n

    def num(v: float, full: bool) -> Any:
        v = float(v)
        if v.is_integer() and abs(v) < 2**53:
            return int(v)
        return v if full else f"{v:.6g}"

    def table(full: bool) -> Table:
        head: list[str] = (["system"] if several else []) + ["item"] + (["id"] if with_ids else [])
        for m in wanted:
            st = per[0][m][0]
            head += [m, *(f"{m}:{x}" if len(wanted) > 1 else x for x in st.stat_names)]
        rows = []
        for k, name in enumerate(parsed.names):
            item_ids = ids(k)
            for i in range(len(item_ids)):
                row: list[Any] = ([name] if several else []) + [i + 1] + ([item_ids[i]] if with_ids else [])
                for m in wanted:
                    st, sc = per[k][m]
                    row += [num(sc[i], full), *(num(x, full) for x in st.values[i])]
                rows.append(tuple(row))
        notes = []
        for m, (st, _) in per[0].items():
            im = st.item_metric()
            params = ", ".join(f"{k}={v}" for k, v in im.params.items() if v is not None)
            notes.append(f"{m}: metric {im.name}{f' ({params})' if params else ''} on each item's statistics alone")
        title = f"{parsed.format} per item against {parsed.gold}" + (
            "" if len(n_items) == 1 else " (systems with different item counts)"
        )
        return Table(tuple(head), tuple(rows), title=title, notes=tuple(notes))

    def data() -> list[dict[str, Any]]:
        out = []
        for k, (name, r) in enumerate(zip(parsed.names, parsed.reports)):
            item_ids = ids(k)
            metrics = {}
            for m, (st, _) in per[k].items():
                im = st.item_metric()
                metrics[m] = {
                    "metric": im.native or im.name,
                    "params": dict(im.params),
                    "stat_names": list(st.stat_names),
                }
            items = []
            for i in range(len(item_ids)):
                items.append(
                    {
                        "item": i + 1,
                        "id": item_ids[i] or None,
                        "scores": {m: float(sc[i]) for m, (_, sc) in per[k].items()},
                        "stats": {
                            m: dict(zip(st.stat_names, (num(x, True) for x in st.values[i])))
                            for m, (st, _) in per[k].items()
                        },
                    }
                )
            out.append(
                {
                    "format": r.format,
                    "gold": r.gold,
                    "system": r.system,
                    "name": name,
                    "metrics": metrics,
                    "items": items,
                }
            )
        return out

    def render(style: str) -> str:
        if style == "json":
            return json.dumps(data(), indent=2, ensure_ascii=False) + "\n"
        return table(full=style == "csv").render(style)

    _cli.emit(args, render=render)
    return 0


# --------------------------------------------------------------------------------------------
# pairwise


def _cmd_pairwise(args: argparse.Namespace) -> int:
    import sigfast

    from .pairwise import gain_threshold
    from .studies.cli import threshold_band

    _cli.precheck(args, plots=("plot", "heatmap"))
    band = threshold_band(args)
    parsed = _parse_inputs(args, min_systems=2)
    labels = {}
    for it in args.label or ():
        k, eq, v = it.partition("=")
        if not eq:
            raise _input_error(f"--label takes SYSTEM=GROUP, got {it!r}")
        labels[k] = v
    results = []
    for metric in _metrics(args):
        stats = parsed.statistics(metric)
        backend: Any = args.backend
        pool = None
        if backend == "processes":
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor()
            backend = pool
        try:
            res = sigfast.pairwise(
                stats,
                metric=None if parsed.spec.needs_gold else metric,
                n_resamples=args.resamples,
                seed=args.seed,
                variant=args.variant,
                alternative=args.alternative,
                correction=args.correction,
                alpha=args.alpha,
                mode=args.mode,
                resampling=args.resampling,
                groups=args.groups,
                backend=backend,
                n_threads=args.threads,
                labels=labels,
                combinations=args.combination or (),
                progress=args.progress,
            )
        except BaseException:
            if pool is not None:  # Ctrl-C or an error: stop the workers now, not after every shard
                from ._backends import stop_process_pool

                stop_process_pool(pool)
                pool = None
            raise
        finally:
            if pool is not None:
                pool.shutdown()
        results.append(res)
    last = results[-1]
    th = dict(band=band, percentile=args.percentile)
    if args.plot or args.heatmap:
        from ._plot import pyplot

        if args.plot:
            pyplot().close(last.plot_confidence_vs_gain(args.plot, **th))
        if args.heatmap:
            pyplot().close(last.plot_heatmap(args.heatmap))

    def data() -> Any:
        out = []
        for r in results:
            d = r.to_dict()
            d["thresholds"] = [t.to_dict() for t in gain_threshold(r, **th)]
            d["display_scale"] = r.display_scale
            out.append(d)
        return out

    _cli.emit(
        args,
        text="\n".join(r.report(**th) for r in results),
        tables=lambda: [t for r in results for t in r.tables(**th)],
        data=data,
        results=results,
    )
    return 0


# --------------------------------------------------------------------------------------------
# demo, info


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo, save_sample

    _cli.precheck(args)
    if args.save:
        for p in save_sample(args.save):
            print(f"wrote {p}", file=sys.stderr)
    runs = run_demo(n_resamples=args.resamples, seed=args.seed, threads=args.threads)
    text = "sigfast demo: built-in sample data (synthetic taggers)\n\n" + "".join(
        f"== {title} ({sec:.2f} s)\n{r}\n\n" for title, r, sec in runs
    )
    _cli.emit(
        args,
        text=text,
        tables=lambda: [_results_table([r]) for _, r, _ in runs],
        data=lambda: [{"title": title, "seconds": sec, **r.to_dict()} for title, r, sec in runs],
        results=[_Rows(lambda: [{"title": title, **r.rows()[0]} for title, r, _ in runs])],
    )
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    from . import _native
    from .formats import specs
    from .metrics import specs as metric_specs
    from .report import Table

    _cli.precheck(args)
    fmts = specs()
    mets = metric_specs()

    def tables() -> list[Any]:
        f_rows = tuple(
            (
                s.name,
                ", ".join(s.aliases),
                s.reference,
                ", ".join(o.describe() for o in s.options),
                ", ".join(s.views),
                ", ".join(s.metrics),
            )
            for s in fmts
        )
        m_rows = tuple(
            (
                m["name"],
                ", ".join(a["name"] for a in m["aliases"]),
                ", ".join(_param_text(p) for p in m["params"]) or "-",
                {True: "higher", False: "lower", None: "parameter"}[m["higher_is_better"]],
                {"fraction": "x100", "points": "0-100", "plain": "as is"}[m["scale"]],
                m["description"],
            )
            for m in mets
        )
        return [
            Table(("format", "aliases", "reference scorer", "options", "unit views", "metrics"), f_rows, "Formats"),
            Table(("metric", "aliases", "parameters", "better", "shown", "description"), m_rows, "Metrics"),
        ]

    head = (
        f"sigfast {_native.__version__} ({_native.BUILD_PROFILE} build)\n"
        f"random stream: philox4x64-10 keyed (seed, scheme, resample) -> xoshiro256++, "
        f"version {_native.STREAM_VERSION}\n"
        f"threads: {os.cpu_count()} cores available\n\n"
    )
    lines = [head.rstrip("\n"), "", "Formats (--format NAME; -o KEY=VALUE):"]
    for f in fmts:
        lines.append(f"  {f.name}: {f.description} [{f.reference}]")
        if f.aliases:
            lines.append(f"      aliases: {', '.join(f.aliases)}")
        for o in f.options:
            default = "-" if o.default is None else o.default
            lines.append(f"      -o {o.describe()} (default {default}): {o.help}")
        if f.views:
            lines.append(f"      unit views: {', '.join(f.views)}")
        lines.append(f"      metrics: {', '.join(f.metrics)}")
    lines += ["", "Metrics (--metric NAME; parameters in Python: sigfast.metrics.get(NAME, **params)):"]
    for m in mets:
        aliases = f" (also {', '.join(a['name'] for a in m['aliases'])})" if m["aliases"] else ""
        lines.append(f"  {m['name']}{aliases}: {m['description']} [{m['reference']}]")
        for p in m["params"]:
            lines.append(f"      {_param_text(p)}: {p['help']}")

    def rows() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for f in fmts:
            out.append(
                {
                    "kind": "format",
                    "name": f.name,
                    "aliases": " ".join(f.aliases),
                    "reference": f.reference,
                    "options": " ".join(o.describe() for o in f.options),
                    "views": " ".join(f.views),
                    "metrics": " ".join(f.metrics),
                    "description": f.description,
                }
            )
        for m in mets:
            out.append(
                {
                    "kind": "metric",
                    "name": m["name"],
                    "aliases": " ".join(a["name"] for a in m["aliases"]),
                    "reference": m["reference"],
                    "options": " ".join(_param_text(p) for p in m["params"]),
                    "higher_is_better": m["higher_is_better"],
                    "scale": m["scale"],
                    "description": m["description"],
                }
            )
        return out

    _cli.emit(
        args,
        text="\n".join(lines) + "\n",
        tables=tables,
        results=[_Rows(rows)],
        data=lambda: {
            "version": _native.__version__,
            "stream_version": _native.STREAM_VERSION,
            "formats": [
                {
                    "name": s.name,
                    "aliases": list(s.aliases),
                    "extensions": list(s.extensions),
                    "reference": s.reference,
                    "options": [
                        {
                            "name": o.name,
                            "type": o.type_name,
                            "default": _jsonable(o.default),
                            "choices": None if o.choices is None else list(o.choices),
                            "help": o.help,
                        }
                        for o in s.options
                    ],
                    "views": list(s.views),
                    "metrics": list(s.metrics),
                }
                for s in fmts
            ],
            "metrics": mets,
        },
    )
    return 0


def _jsonable(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def _param_text(p: dict[str, Any]) -> str:
    if p["type"] == "choice":
        what = "|".join(p["choices"])
    elif p["type"] in ("int", "float"):
        lo = "(" if p.get("open_min") else "["
        what = f"{p['type']} in {lo}{p['min']:g}, {p['max']:g}]"
    else:
        what = p["type"]
    default = "-" if p["default"] is None else p["default"]
    return f"{p['name']}={what} (default {default})"


# --------------------------------------------------------------------------------------------
# main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 error, 2 usage, 130 interrupted)."""
    parser = _parser()
    args = parser.parse_args(argv)
    from .exceptions import SigfastError

    try:
        with _cli.one_line_warnings():
            return int(args.handler(args))
    except KeyboardInterrupt:
        print("sigfast: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python from complaining at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:  # pragma: no cover
            pass
        return 0
    except (SigfastError, OSError) as e:
        if args.debug:
            raise
        msg = " ".join(str(e).split("\n"))
        if isinstance(e, OSError) and not isinstance(e, SigfastError):
            msg = f"{e.filename + ': ' if getattr(e, 'filename', None) else ''}{e.strerror or msg}"
        print(f"sigfast: error: {msg}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug: still one line, with the way to the traceback
        if args.debug:
            raise
        print(
            f"sigfast: internal error: {type(e).__name__}: {e}. This is a bug: please report it with the "
            "command (--debug shows the traceback)",
            file=sys.stderr,
        )
        return 1
