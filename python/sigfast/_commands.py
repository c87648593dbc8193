"""The handlers of ``sigfast compare``, ``mcnemar``, ``score``, ``pairwise``, ``demo``, ``info`` and ``seeds``.

:mod:`sigfast.cli` builds the parser and imports this module only when one of
these subcommands runs; each handler takes the parsed arguments and returns
the exit status. Bad input raises :class:`sigfast.exceptions.SigfastError`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from . import _cli

__all__ = [
    "run_compare",
    "run_demo",
    "run_interval",
    "run_mcnemar",
    "run_pairwise",
    "run_score",
    "run_seeds",
    "signature_notes",
]

_MCNEMAR_VARIANTS = ("mid-p", "exact", "asymptotic", "asymptotic-nocc")

# --------------------------------------------------------------------------------------------
# compare


def _parse_inputs(args: argparse.Namespace, *, min_systems: int) -> Any:
    return _cli.parse_inputs(args, min_systems=min_systems)


def _input_error(msg: str) -> Exception:
    from .exceptions import InputError

    return InputError(msg)


def _usage_error(msg: str) -> Exception:
    """Arguments that do not fit together, or too few files: exit 2, as argparse's usage errors."""
    from .exceptions import UsageError

    return UsageError(msg)


def _metrics(args: argparse.Namespace) -> list[str | None]:
    return list(args.metric) if args.metric else [None]


def run_compare(args: argparse.Namespace) -> int:
    _cli.precheck(args)
    _cli.detect_gold_format(args)
    if args.variant is not None and args.test in ("permutation", "exact"):
        raise _usage_error("permutation tests have no --variant")
    if args.draws != "sigfast" and args.test != "bootstrap":
        raise _usage_error(f"--draws {args.draws} is for --test bootstrap")
    if args.test == "mcnemar":
        return _run_mcnemar(args, _parse_inputs(args, min_systems=2) if args.format or args.ref else None)
    import sigfast

    from .significance import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES

    if args.view:
        raise _usage_error("--view is for --test mcnemar")
    if args.resampling != "auto" and args.test != "bootstrap":
        raise _usage_error(f"--resampling {args.resampling} is for --test bootstrap")
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
            stream=args.stream,
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
                    variant=_cli.bootstrap_variant(args.variant),
                    alternative=args.alternative,
                    confidence_level=args.confidence,
                    draws=args.draws,
                    resampling=args.resampling,
                    **common,
                )
            else:
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
            "*" if r.pvalue < 0.05 and r.reaches(0.05) else "",
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
        *dict.fromkeys(
            f"no star: with {r.n_clusters or r.n_items} {'clusters' if r.n_clusters else 'items'} the smallest "
            f"p-value the design can give is {r.design_min_pvalue:.3g}, so a p below 0.05 says nothing (it is the "
            "resampling floor 1/(B+1) or Monte Carlo noise)"
            for r in results
            if r.pvalue < 0.05 and not r.reaches(0.05)
        ),
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
        if metrics:
            if len(metrics) > 1:
                raise _usage_error("--test mcnemar compares one view of units; give one --metric or --view")
            views = tuple(parsed.spec.views)
            if metrics[0] not in views:
                raise _input_error(
                    f"--test mcnemar compares units; format {parsed.format!r} has the views "
                    f"{', '.join(views) or '(none)'} (-m or --view), not {metrics[0]!r}"
                    f"{_cli.did_you_mean(metrics[0], views)}; test {metrics[0]} with --test bootstrap or permutation"
                )
            if view is not None and view != metrics[0]:
                raise _usage_error(
                    f"-m {metrics[0]} and --view {view} name different units; McNemar compares one view's units: "
                    "give one"
                )
            view = metrics[0]
        units = parsed.units(view)
        names = list(units.names)
        correct = [units.correct(k).astype(np.float64) for k in range(len(names))]
        what = f"{units.n_units} units ({parsed.format} {units.view}, align {units.align})"
        from .signature import units_fields

        provenance = {k: v for k, v in units_fields(units).items() if k not in ("data", "systems", "items")}
        provenance["metric"] = [units.view]  # the accuracy of the view's units is what McNemar compares
    else:
        if args.view or getattr(args, "align", None):
            raise _usage_error("--view and --align need --format files")
        files = [f.partition("=")[2] if "=" in f and not os.path.exists(f) else f for f in args.files]
        given = [f.partition("=")[0] if "=" in f and not os.path.exists(f) else "" for f in args.files]
        auto = system_names(files)
        names = [g or a for g, a in zip(given, auto)]
        if len(files) < 2:
            raise _usage_error("give a BASELINE file and at least one SYSTEM file of 0/1 correctness")
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

    shown: list[tuple[Any, ...]] = [
        (names[0], f"{100 * correct[0].mean():.2f}", _ci(acc[0]), "(baseline)", "", "", "", "")
    ]
    for n, c, a, r in zip(names[1:], correct[1:], acc[1:], results):
        shown.append(
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
        tuple(shown),
        notes=(
            f"test: McNemar ({results[0].variant}, {results[0].alternative}) on {what}; "
            "fixed/broken = units only the system / only the baseline gets right",
        ),
        signature="\n".join(signature_notes(names[1:], [r.signature for r in results])),
    )

    def tidy() -> list[dict[str, Any]]:
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
        results=[_cli.Rows(tidy)],
        data=lambda: [
            {"baseline": names[0], "system": n, "accuracy": float(c.mean()), "wilson": list(a), **r.to_dict()}
            for n, c, a, r in zip(names[1:], correct[1:], acc[1:], results)
        ],
    )
    return 0


def _ci(ci: Any) -> str:
    return f"[{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]"


def run_mcnemar(args: argparse.Namespace) -> int:
    _cli.precheck(args)
    args.view = None
    args.align = None
    return _run_mcnemar(args, None)


# --------------------------------------------------------------------------------------------
# score


def run_score(args: argparse.Namespace) -> int:
    _cli.precheck(args)
    _cli.positional_format_hint(args)
    if not args.format and not args.ref:
        from .formats import detect_format

        args.format = detect_format(_cli.path_of(args.files[0]))
    one_file = bool(args.format) and not args.ref and _gold_inside(args.format)
    if not args.ref and len(args.files) < 2 and not one_file:
        raise _usage_error("give GOLD and SYSTEM files (or --ref GOLD SYSTEM ...)")
    if one_file:
        # conlleval's own form: each FILE holds the gold and the system tags; the same file given
        # twice (GOLD SYSTEM, as for other formats) is that one file
        if len({os.path.realpath(f) for f in args.files}) == 1:
            args.files = args.files[:1]
    wanted = list(dict.fromkeys(args.metric or ()))
    if wanted and not args.per_item:
        _metric_option(args, wanted)
    parsed = _parse_inputs(args, min_systems=1)
    if not parsed.spec.needs_gold:
        raise _input_error(f"format {parsed.format!r} holds per-item values; there is no reference scorer to run")
    if parsed.spec.join is not None:  # LLM logs: a metric the log cannot give (bad values, -o reducer=) is an error
        from .formats._logs import check_usable

        check_usable(parsed.reports, wanted or [parsed.reports[0].default_metric])
    if args.per_item:
        return _score_per_item(args, parsed)
    several = len(parsed.names) > 1
    metrics = [_report_metric(parsed, m) for m in wanted] or list(parsed.reports[0].scores)
    text = None  # with -m: the chosen metrics, as a table
    if not wanted or parsed.spec.option("metric") is not None:
        # the reference scorer's own report (with -m, a report of the chosen metrics only)
        text = "".join(
            (f"== {n} ==\n" if several else "") + r.text + ("" if r.text.endswith("\n") else "\n")
            for n, r in zip(parsed.names, parsed.reports)
        )

    def signatures() -> list[str]:
        """Every report's signature (format with its options, metrics, system, data hash): in the JSON records
        and under the markdown and LaTeX tables; the text stays the reference scorer's report, byte for byte
        (and imports no signature code), and the CSV its tidy scores as before."""
        from .signature import for_report

        return [for_report(parsed, k, metrics) for k in range(len(parsed.names))]

    def tables(signed: bool = True) -> list[Any]:
        from .report import Table

        rows = tuple((n, *(f"{r.scores[m]:.6g}" for m in metrics)) for n, r in zip(parsed.names, parsed.reports))
        sig = "\n".join(signature_notes(list(parsed.names), signatures())) if signed else ""
        return [Table(("system", *metrics), rows, title=f"{parsed.format} scores against {parsed.gold}", signature=sig)]

    def rows() -> list[dict[str, Any]]:
        return [
            {"system": n, "format": r.format, "gold": r.gold, "file": r.system, **{m: r.scores[m] for m in metrics}}
            for n, r in zip(parsed.names, parsed.reports)
        ]

    _cli.emit(
        args,
        text=text if text is not None else tables(signed=False)[0].render("text"),
        tables=tables,
        results=[_cli.Rows(rows)],
        data=lambda: [
            {
                "format": r.format,
                "gold": r.gold,
                "system": r.system,
                "name": n,
                "scores": {m: r.scores[m] for m in metrics},
            }
            | ({} if r.reference_json is None else {"reference": r.reference_json})
            | {"signature": sig}
            for n, r, sig in zip(parsed.names, parsed.reports, signatures())
        ],
    )
    return 0


def _metric_option(args: argparse.Namespace, wanted: list[str]) -> None:
    """``score -m``: a format whose report takes a list of metrics (``mt``: ``-o metric=``) computes only those."""
    from .formats import detect_format, spec

    fmt = args.format or detect_format(_cli.path_of(args.ref[0]))
    if spec(fmt).option("metric") is None:
        return
    given = _cli.format_options(args)
    if "metric" in given:
        raise _usage_error(f"-m and -o metric={given['metric']} both given; give one")
    args.option = [*(args.option or ()), "metric=" + ",".join(wanted)]


def _report_metric(parsed: Any, name: str) -> str:
    """The key of ``name`` in the reports' scores: the name itself, or the score a registry metric's name
    stands for; an unknown name is an error that names the closest ones."""
    scores = parsed.reports[0].scores
    if name in scores:
        return name
    try:
        key = parsed._by_registry_name(name, parsed.reports[0])
    except _cli.InputError:
        key = None
    if key in scores:
        return str(key)
    raise _input_error(
        f"format {parsed.format!r} reports no metric {name!r}{_cli.did_you_mean(name, scores)}; its report's "
        f"metrics: {', '.join(scores)}"
    )


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


def run_pairwise(args: argparse.Namespace) -> int:
    import sigfast

    from .pairwise import gain_threshold

    _cli.precheck(args, plots=("plot", "heatmap"))
    band = _cli.threshold_band(args)
    _cli.detect_gold_format(args)
    parsed = _parse_inputs(args, min_systems=2)
    labels = {}
    for it in args.label or ():
        k, eq, v = it.partition("=")
        if not eq:
            raise _usage_error(f"--label takes SYSTEM=GROUP, got {it!r}")
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
                stream=args.stream,
                variant=_cli.bootstrap_variant(args.variant),
                alternative=args.alternative,
                draws=args.draws,
                correction=args.correction,
                alpha=args.alpha,
                mode=args.mode,
                resampling=args.resampling,
                groups=args.groups,
                bootstrap_ranks=args.bootstrap_ranks,
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
        text="\n".join(r.format("text", **th) for r in results),
        tables=lambda: [t for r in results for t in r.with_options(**th).tables()],
        data=data,
        results=results,
    )
    return 0


# --------------------------------------------------------------------------------------------
# demo, info


def run_demo(args: argparse.Namespace) -> int:
    from . import demo

    _cli.precheck(args)
    if args.save:
        for p in demo.save_sample(args.save):
            print(f"wrote {p}", file=sys.stderr)
    runs = demo.run_demo(n_resamples=args.resamples, seed=args.seed, threads=args.threads)
    text = "sigfast demo: built-in sample data (synthetic taggers)\n\n" + "".join(
        f"== {title} ({sec:.2f} s)\n{r}\n\n" for title, r, sec in runs
    )
    _cli.emit(
        args,
        text=text,
        tables=lambda: [_results_table([r]) for _, r, _ in runs],
        data=lambda: [{"title": title, "seconds": sec, **r.to_dict()} for title, r, sec in runs],
        results=[_cli.Rows(lambda: [{"title": title, **r.rows()[0]} for title, r, _ in runs])],
    )
    return 0


# --------------------------------------------------------------------------------------------
# seeds


def run_seeds(args: argparse.Namespace) -> int:
    """``sigfast seeds``: ASO, Welch and Mann-Whitney on every pair of systems' scores over seeds."""
    from .exceptions import UsageError
    from .formats import named_systems
    from .seeds import compare_seeds, read_scores

    _cli.precheck(args)
    names, paths = named_systems(list(args.systems))
    if len(names) < 2:
        raise UsageError("give at least two systems' score files (NAME=FILE or FILE)")
    scores = {name: read_scores(str(path)) for name, path in zip(names, paths)}
    res = compare_seeds(
        scores,
        confidence_level=args.confidence,
        n_resamples=args.resamples,
        seed=args.seed,
        stream=args.stream,
        dt=args.dt,
        correction=args.correction,
        tau=args.tau,
        alternative=args.alternative or "two-sided",
        n_threads=args.threads,
        progress=args.progress,
    )
    _cli.emit(args, render=res.format, results=[res])
    return 0


# --------------------------------------------------------------------------------------------
# interval


def run_interval(args: argparse.Namespace) -> int:
    """``sigfast interval``: every system's score with its standard error and intervals
    (:func:`sigfast.leaderboard` without the pair tests)."""
    import sigfast

    _cli.precheck(args)
    _cli.detect_gold_format(args)
    parsed = _parse_inputs(args, min_systems=1)
    results = [
        sigfast.leaderboard(
            parsed.statistics(metric),
            metric=None if parsed.spec.needs_gold else metric,
            confidence_level=args.confidence,
            n_resamples=args.resamples,
            seed=args.seed,
            stream=args.stream,
            pairs="none",
            versus=args.versus,
            correction=args.correction,
            bootstrap_ranks=args.bootstrap_ranks,
            n_threads=args.threads,
        )
        for metric in _metrics(args)
    ]
    _cli.emit(args, results=results, data=lambda: [r.to_dict() for r in results])
    return 0
