"""The ``sigfast`` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["main"]


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--metric", "-m", help="metric (default: the format's headline metric, or the mean of scores)")
    p.add_argument(
        "--test",
        "-t",
        default="bootstrap",
        choices=["bootstrap", "permutation", "exact", "mcnemar"],
        help="paired bootstrap (default), approximate randomization, exact permutation, or McNemar "
        "on token-level correctness (mid-p by default; see --mcnemar-method)",
    )
    p.add_argument(
        "--mcnemar-method",
        default="mid-p",
        choices=["mid-p", "exact", "asymptotic"],
        help="McNemar variant for --test mcnemar (default mid-p)",
    )
    p.add_argument(
        "--variant",
        default="bk",
        choices=["bk", "koehn", "shifted"],
        help="bootstrap p-value: Berg-Kirkpatrick 2012 (default), Koehn 2004, or shifted two-sided",
    )
    p.add_argument(
        "--alternative",
        choices=["two-sided", "greater", "less"],
        help="sidedness for --variant shifted and permutation tests (default two-sided)",
    )
    p.add_argument(
        "-n",
        "--resamples",
        type=int,
        default=None,
        help="resamples (default 1,000,000 for the bootstrap, 100,000 for permutations)",
    )
    p.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    p.add_argument("--confidence", type=float, default=0.95, help="confidence level of intervals (default 0.95)")
    p.add_argument("--raw-p", action="store_true", help="report c/B instead of (c+1)/(B+1)")
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (default: on a terminal for long runs)",
    )


def _options(items: Sequence[str] | None) -> dict[str, Any]:
    from .exceptions import InputError

    out: dict[str, Any] = {}
    for it in items or ():
        if "=" not in it:
            raise InputError(f"--option takes KEY=VALUE, got {it!r}")
        k, v = it.split("=", 1)
        val: Any = v
        if v.lower() in ("true", "false"):
            val = v.lower() == "true"
        else:
            try:
                val = int(v)
            except ValueError:
                try:
                    val = float(v)
                except ValueError:
                    val = v
        out[k.replace("-", "_")] = val
    return out


def _parser() -> argparse.ArgumentParser:
    from ._native import __version__

    ap = argparse.ArgumentParser(
        prog="sigfast",
        description="Exact, deterministic and fast significance tests for NLP evaluation.",
    )
    ap.add_argument("--version", action="version", version=f"sigfast {__version__}")
    ap.add_argument("--debug", action="store_true", help="show tracebacks instead of one-line errors")
    sub = ap.add_subparsers(dest="command", required=True)

    c = sub.add_parser(
        "compare",
        help="test whether systems differ",
        description="Compare a baseline with one or more systems. Without --format the files hold "
        "per-item scores or statistics (TSV, JSONL or .npy); with --format the first "
        "file is gold and the others are system outputs.",
    )
    c.add_argument("files", nargs="+", help="BASELINE SYSTEM [SYSTEM ...], or GOLD BASELINE SYSTEM ... with --format")
    c.add_argument("--format", "-f", help="file format of system outputs (see `sigfast info`)")
    c.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
    c.add_argument(
        "--input",
        choices=["auto", "tsv", "jsonl", "npy"],
        default="auto",
        help="layout of per-item files without --format",
    )
    _common(c)

    s = sub.add_parser(
        "score",
        help="score a system file like the reference scorer",
        description="Print the reference scorer's report for SYSTEM against GOLD.",
    )
    s.add_argument("format", help="file format (see `sigfast info`)")
    s.add_argument("gold")
    s.add_argument("system")
    s.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
    s.add_argument("--json", action="store_true", help="print scores as JSON")

    pw = sub.add_parser(
        "pairwise",
        help="test every pair of systems on shared resamples",
        description="All pairs of systems with shared bootstrap resamples, corrected for the family "
        "of comparisons, with groups of systems that do not differ significantly.",
    )
    pw.add_argument("files", nargs="+", help="SYSTEM ... (per-item files), or GOLD SYSTEM ... with --format")
    pw.add_argument("--format", "-f", help="file format of system outputs (see `sigfast info`)")
    pw.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
    pw.add_argument("--input", choices=["auto", "tsv", "jsonl", "npy"], default="auto")
    pw.add_argument("--metric", "-m")
    pw.add_argument("--variant", default="bk", choices=["bk", "koehn", "shifted"])
    pw.add_argument("--alternative", choices=["two-sided", "greater", "less"])
    pw.add_argument("-n", "--resamples", type=int, default=None, help="resamples (default 1,000,000)")
    pw.add_argument("--seed", type=int, default=12345)
    pw.add_argument("--correction", default="holm", choices=["holm", "bonferroni", "hochberg", "bh", "by", "none"])
    pw.add_argument("--alpha", type=float, default=0.05)
    pw.add_argument("--mode", default="shared", choices=["shared", "independent"])
    pw.add_argument("--backend", default="local", choices=["local", "ray", "processes"])
    pw.add_argument("--threads", type=int, default=None)
    pw.add_argument("--label", action="append", metavar="SYSTEM=GROUP", help="group of a system (repeatable)")
    pw.add_argument("--combination", action="append", metavar="SYSTEM", help="a system combination (repeatable)")
    pw.add_argument("--plot", help="confidence-vs-gain plot (.png, .svg or .pdf)")
    pw.add_argument("--heatmap", help="p-value heat map (.png, .svg or .pdf)")
    pw.add_argument("--csv", help="write one row per pair to this CSV file")
    pw.add_argument("--json", action="store_true")
    pw.add_argument("--markdown", action="store_true", help="print the table as markdown")
    pw.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)

    d = sub.add_parser("demo", help="run the main job on built-in sample data")
    d.add_argument("-n", "--resamples", type=int, default=1_000_000, help="bootstrap resamples (default 1,000,000)")
    d.add_argument("--seed", type=int, default=12345)
    d.add_argument("--threads", type=int, default=None)
    d.add_argument("--json", action="store_true")

    sub.add_parser("info", help="version, random stream, threads and formats")
    from . import classical

    classical.add_cli(sub)
    from .analysis.cli import add_cli as add_analysis_cli

    add_analysis_cli(sub)
    try:
        from .studies.cli import add_cli as add_studies_cli
    except ImportError:  # pragma: no cover - studies not installed
        pass
    else:
        add_studies_cli(sub)
    return ap


def _test(args: argparse.Namespace, x: Any, y: Any = None, **kw: Any) -> Any:
    import sigfast

    common = dict(
        metric=kw.pop("metric", args.metric),
        seed=args.seed,
        pvalue="raw" if args.raw_p else "plus_one",
        n_threads=args.threads,
        progress=args.progress,
        **kw,
    )
    if args.test == "bootstrap":
        return sigfast.paired_bootstrap(
            x,
            y,
            n_resamples=sigfast.significance.DEFAULT_RESAMPLES if args.resamples is None else args.resamples,
            variant=args.variant,
            alternative=args.alternative,
            confidence_level=args.confidence,
            **common,
        )
    method = "exact" if args.test == "exact" else "approximate"
    return sigfast.permutation_test(
        x,
        y,
        method=method,
        n_resamples=sigfast.significance.DEFAULT_PERMUTATIONS if args.resamples is None else args.resamples,
        alternative=args.alternative or "two-sided",
        **common,
    )


def _print_results(results: list[Any], as_json: bool, header: str | None = None) -> None:
    from .report import _fmt_p, _fmt_score, format_table

    if as_json:
        print(json.dumps([r.to_dict() for r in results], indent=2))
        return
    if header:
        print(header)
    r0 = results[0]

    scale = r0.display_scale
    rows = [[r0.systems[0], _fmt_score(scale, r0.score_x), "(baseline)", "", "", ""]]
    for r in results:
        ci = r.confidence_interval
        rows.append(
            [
                r.systems[1],
                _fmt_score(scale, r.score_y),
                f"{scale * r.statistic:+.4f}",
                f"[{scale * ci.low:+.4f}, {scale * ci.high:+.4f}]" if ci else "",
                _fmt_p(r.pvalue),
                "*" if r.pvalue < 0.05 else "",
            ]
        )
    unit = " x100" if scale == 100 else ""
    ci_head = f"{int(round(100 * r0.confidence_level))}% CI" if r0.confidence_level else "CI"
    print(format_table(rows, ["system", f"{r0.metric}{unit}", "delta", ci_head, "p", "p<.05"]))
    print(
        f"test: {r0.test} ({r0.variant}, {r0.alternative}); {r0.n_items} items; "
        f"{r0.n_resamples} resamples; seed {r0.seed}; p = {r0.pvalue_method}"
    )
    print(f"signature: {r0.signature}")
    for w in dict.fromkeys(w for r in results for w in getattr(r, "warnings", ())):
        print(f"WARNING: {w}")


_UNIT_FORMATS = {
    "conllu": "conllu",
    "conllx": "conllu",
    "conll07": "conllu",
    "pos": "conllu",
    "conlleval": "bio",
    "ner": "bio",
    "evalb": "ptb",
    "penn": "ptb",
}
_UNIT_VIEWS = {
    "las": "las",
    "uas": "uas",
    "label_acc": "deprel",
    "upos": "upos",
    "xpos": "xpos",
    "accuracy": None,
    "tagging_accuracy": "pos",
    None: None,
}


def _cmd_compare_mcnemar(args: argparse.Namespace) -> int:
    """McNemar on per-token correctness of each system against the first one."""
    import numpy as np

    from .classical import mcnemar
    from .exceptions import InputError
    from .report import format_table

    if args.format:
        from .analysis import read_units

        if len(args.files) < 3:
            raise InputError("with --format, give GOLD BASELINE SYSTEM [SYSTEM ...]")
        unit_fmt = _UNIT_FORMATS.get(args.format)
        if unit_fmt is None:
            raise InputError(
                f"--test mcnemar needs token-level labels; format {args.format!r} has none "
                f"(use one of {', '.join(sorted(_UNIT_FORMATS))})"
            )
        if args.metric not in _UNIT_VIEWS:
            raise InputError(
                f"--test mcnemar scores tokens with --metric one of "
                f"{', '.join(k for k in _UNIT_VIEWS if k)}; got {args.metric!r}"
            )
        names = _labels(args.files[1:])
        units = read_units(args.files[0], args.files[1:], format=unit_fmt, view=_UNIT_VIEWS[args.metric], names=names)
        correct = [units.correct(k).astype(np.float64) for k in range(len(names))]
        what = f"{units.n_units} tokens ({units.view})"
    else:
        if len(args.files) < 2:
            raise InputError("give a BASELINE file and at least one SYSTEM file of 0/1 correctness")
        from .classical import _read_binary_file

        names = _labels(args.files)
        correct = [_read_binary_file(f) for f in args.files]
        if len({c.size for c in correct}) != 1:
            raise InputError(
                "the 0/1 files list different numbers of items: "
                + ", ".join(f"{n}: {c.size}" for n, c in zip(names, correct))
            )
        what = f"{correct[0].size} items"
    alt = args.alternative or "two-sided"
    results = [mcnemar(correct[0], c, method=args.mcnemar_method, alternative=alt) for c in correct[1:]]
    if args.json:
        print(
            json.dumps(
                [{"baseline": names[0], "system": n, **r.to_dict()} for n, r in zip(names[1:], results)], indent=2
            )
        )
        return 0
    rows = [[names[0], f"{100 * correct[0].mean():.2f}", "(baseline)", "", "", ""]]
    for n, c, r in zip(names[1:], correct[1:], results):
        rows.append(
            [
                n,
                f"{100 * c.mean():.2f}",
                f"{100 * (c.mean() - correct[0].mean()):+.2f}",
                int(((c == 1) & (correct[0] == 0)).sum()),
                int(((c == 0) & (correct[0] == 1)).sum()),
                f"{r.pvalue:.4g}",
            ]
        )
    print(format_table(rows, ["system", "accuracy", "delta", "fixed", "broken", "p"]))
    print(f"test: McNemar ({args.mcnemar_method}, {alt}) on {what}; fixed/broken = discordant items")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    import sigfast

    from .exceptions import InputError

    if args.test == "mcnemar":
        return _cmd_compare_mcnemar(args)
    if args.format:
        if len(args.files) < 3:
            raise InputError("with --format, give GOLD BASELINE SYSTEM [SYSTEM ...]")
        stats = sigfast.read(
            args.files[0], args.files[1:], format=args.format, metric=args.metric, **_options(args.option)
        )
        base = stats.systems[0]
        results = [_test(args, stats, systems=(base, other), metric=None) for other in stats.systems[1:]]
        _print_results(results, args.json, header=None if args.json else f"{stats.source}")
        return 0
    if args.option:
        raise InputError("--option is for --format files")
    if len(args.files) < 2:
        raise InputError("give a BASELINE file and at least one SYSTEM file")
    arrays = []
    names = None
    for f in args.files:
        a, nm = sigfast.io.read_items(f, args.input)
        if arrays and a.shape[1] != arrays[0].shape[1]:
            raise InputError(f"{f}: {a.shape[1]} values per item, but {args.files[0]} has {arrays[0].shape[1]}")
        if arrays and a.shape[0] != arrays[0].shape[0]:
            raise InputError(
                f"{f}: {a.shape[0]} items, but {args.files[0]} has {arrays[0].shape[0]}; "
                "paired tests need the same items in the same order"
            )
        arrays.append(a)
        names = names or nm
    labels = _labels(args.files)
    results = []
    for lab, a in zip(labels[1:], arrays[1:]):
        x, y = arrays[0], a
        if x.shape[1] == 1 and (args.metric in (None, "mean")):
            x, y = x[:, 0], y[:, 0]
        results.append(_test(args, x, y, systems=(labels[0], lab)))
    _print_results(results, args.json)
    return 0


def _labels(paths: Sequence[str]) -> list[str]:
    """Short unique system names: file names without their common prefix and suffix."""
    base = [os.path.basename(p) for p in paths]
    labels = base if len(set(base)) == len(base) else list(paths)
    if len(labels) > 1 and len(set(labels)) == len(labels):
        pre = os.path.commonprefix(labels)
        suf = os.path.commonprefix([x[::-1] for x in labels])[::-1]
        cut = [x[len(pre) : len(x) - len(suf)] for x in labels]
        if all(cut) and len(set(cut)) == len(cut):
            labels = cut
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} #{seen[lab]}")
    return out


def _cmd_score(args: argparse.Namespace) -> int:
    from .formats import score

    rep = score(args.format, args.gold, args.system, **_options(args.option))
    if args.json:
        print(
            json.dumps({"format": rep.format, "gold": rep.gold, "system": rep.system, "scores": rep.scores}, indent=2)
        )
    else:
        print(rep.text, end="" if rep.text.endswith("\n") else "\n")
    return 0


def _cmd_pairwise(args: argparse.Namespace) -> int:
    import sigfast

    from .exceptions import InputError
    from .pairwise import gain_threshold

    if args.format:
        if len(args.files) < 3:
            raise InputError("with --format, give GOLD SYSTEM SYSTEM [SYSTEM ...]")
        stats = sigfast.read(
            args.files[0],
            dict(zip(_labels(args.files[1:]), args.files[1:])),
            format=args.format,
            metric=args.metric,
            **_options(args.option),
        )
        metric = None
    else:
        if len(args.files) < 2:
            raise InputError("give at least two SYSTEM files")
        stats = (
            sigfast.read(
                None, dict(zip(_labels(args.files), args.files)), format="tsv" if args.input == "auto" else args.input
            )
            if args.input != "auto"
            else _read_auto(args.files)
        )
        metric = args.metric
    labels = {}
    for it in args.label or ():
        if "=" not in it:
            raise InputError(f"--label takes SYSTEM=GROUP, got {it!r}")
        k, v = it.split("=", 1)
        labels[k] = v
    backend: Any = args.backend
    pool = None
    if backend == "processes":
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor()
        backend = pool
    try:
        res = sigfast.pairwise(
            stats,
            metric=metric,
            n_resamples=sigfast.significance.DEFAULT_RESAMPLES if args.resamples is None else args.resamples,
            seed=args.seed,
            variant=args.variant,
            alternative=args.alternative,
            correction=args.correction,
            alpha=args.alpha,
            mode=args.mode,
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
    if args.plot:
        res.plot_confidence_vs_gain(args.plot)
    if args.heatmap:
        res.plot_heatmap(args.heatmap)
    if args.csv:
        with open(args.csv, "w", encoding="utf-8") as fh:
            fh.write(res.to_csv())
    if args.json:
        d = res.to_dict()
        d["thresholds"] = [t.to_dict() for t in gain_threshold(res)]
        print(json.dumps(d, indent=2))
        return 0
    print(
        f"pairwise {res.variant} bootstrap ({res.alternative}), {len(res.systems)} systems, {res.n_items} items, "
        f"B = {res.n_resamples} {res.mode} resamples, seed {res.seed}, p = {res.pvalue_method}, "
        f"correction {res.correction} at alpha {res.alpha}"
    )
    print(res.table(markdown=args.markdown))
    thr = [t for t in gain_threshold(res) if t.n_comparisons]
    for t in thr:
        print(
            f"gain threshold ({t.pair_class}): {t.threshold:.4g} from {t.n_comparisons} comparisons with "
            f"p in [{t.band[0]}, {t.band[1]}]"
        )
    print(f"signature: {res.signature}")
    for w in res.warnings:
        print(f"WARNING: {w}")
    return 0


def _read_auto(files: Sequence[str]) -> Any:
    import numpy as np

    import sigfast

    from .exceptions import InputError

    arrays = []
    names = None
    for f in files:
        a, nm = sigfast.io.read_items(f)
        if arrays and a.shape != arrays[0].shape:
            raise InputError(
                f"{f}: {a.shape[0]} items x {a.shape[1]} values, but {files[0]} has "
                f"{arrays[0].shape[0]} x {arrays[0].shape[1]}"
            )
        arrays.append(a)
        names = names or nm
    k = arrays[0].shape[1]
    return sigfast.Statistics(
        np.stack(arrays),
        tuple(_labels(files)),
        names or tuple(f"s{i}" for i in range(k)),
        metric="mean" if k == 1 else None,
    )


def _cmd_mcnemar(args: argparse.Namespace) -> int:
    from .classical import run_mcnemar_cli

    return run_mcnemar_cli(args)


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(n_resamples=args.resamples, seed=args.seed, threads=args.threads, as_json=args.json)


def _cmd_info(args: argparse.Namespace) -> int:
    from . import _native
    from .formats import available

    print(f"sigfast {_native.__version__} ({_native.BUILD_PROFILE} build)")
    print(
        f"random stream: philox4x64-10 keyed (seed, scheme, resample) -> xoshiro256++, version {_native.STREAM_VERSION}"
    )
    print(f"threads: {os.cpu_count()} cores available")
    print(f"formats: {', '.join(available()) or '(none)'}")
    from .metrics import available as metrics

    print(f"metrics: {', '.join(metrics())}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 error, 2 usage)."""
    args = _parser().parse_args(argv)
    from .exceptions import SigfastError

    try:
        handler = getattr(args, "analysis_handler", None) or getattr(args, "study_handler", None)
        if handler is not None:
            return int(handler(args))
        rc = {
            "compare": _cmd_compare,
            "score": _cmd_score,
            "demo": _cmd_demo,
            "info": _cmd_info,
            "pairwise": _cmd_pairwise,
            "mcnemar": _cmd_mcnemar,
        }[args.command](args)
        return rc
    except KeyboardInterrupt:
        print("sigfast: interrupted", file=sys.stderr)
        return 130
    except (SigfastError, OSError) as e:
        if args.debug:
            raise
        msg = str(e).replace("\n", " ")
        print(f"sigfast: error: {msg}", file=sys.stderr)
        return 1
