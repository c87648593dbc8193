"""CLI for the studies: ``split``, ``resample-train``, ``across-splits``, ``test-size``, ``calibration``.

:func:`add_cli` registers the subcommands; each parser sets ``handler``
(a function ``args -> exit status``). The flags are those of :mod:`sigfast._cli`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

from .. import _cli
from ..exceptions import InputError

__all__ = ["add_cli", "add_threshold_args", "threshold_band"]

_VARIANTS = ("bk", "koehn", "shifted", "sacrebleu", "moses")


# --------------------------------------------------------------------------- shared options
def _input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="GOLD SYSTEM [SYSTEM ...] with --format (SYSTEM may be NAME=PATH); without --format, "
        "files of per-item scores/statistics (TSV, JSONL or .npy), one per system",
    )
    _cli.add_format(p)
    _cli.add_refs(p)
    _cli.add_metric(p, repeatable=False)


def _unit_interval(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {s!r}") from None
    if not 0 <= v <= 1:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {v:g}")
    return v


def _percent(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentile in [0, 100], got {s!r}") from None
    if not 0 <= v <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentile in [0, 100], got {v:g}")
    return v


def add_threshold_args(p: argparse.ArgumentParser) -> None:
    """``--band LOW HIGH`` and ``--percentile P`` of the gain threshold (BK 2012 §3.1.1), the same everywhere."""
    p.add_argument(
        "--band",
        type=_unit_interval,
        nargs=2,
        default=[0.04, 0.06],
        metavar=("LOW", "HIGH"),
        help="gain threshold: the p-value band of the comparisons it is taken over (default 0.04 0.06)",
    )
    p.add_argument(
        "--percentile",
        type=_percent,
        default=95.0,
        metavar="P",
        help="gain threshold: the percentile of |gain| over the comparisons in the band (default 95)",
    )


def threshold_band(args: argparse.Namespace) -> tuple[float, float]:
    """``--band`` as a (low, high) pair, checked before any computation."""
    lo, hi = (float(x) for x in args.band)
    if lo > hi:
        raise InputError(f"--band LOW HIGH needs LOW <= HIGH, got {lo:g} {hi:g}")
    return lo, hi


def _read_stats(args: argparse.Namespace) -> Any:
    parsed = _cli.parse_inputs(args, min_systems=2)
    return parsed.statistics(args.metric)


def _run_args(p: argparse.ArgumentParser, default_resamples: int = 10_000) -> None:
    _cli.add_resamples(p, default_resamples, "bootstrap resamples per test")
    _cli.add_seed(p)
    _cli.add_threads(p)
    p.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="run test sets on this machine (default) or as Ray tasks",
    )
    p.add_argument("--plot", metavar="FILE", help="write the plot to this file (PNG, PDF or SVG; needs matplotlib)")
    _cli.add_progress(p)
    _cli.add_output(p)


def _emit(args: argparse.Namespace, result: Any, data: Any) -> int:
    if getattr(args, "plot", None):
        _close(result.plot(args.plot))
        print(f"plot written to {args.plot}", file=sys.stderr)
    _cli.emit(args, text=result.table(), tables=result.tables, data=data, results=[result])
    return 0


def _close(fig: Any) -> None:
    """Free a figure the command line has saved (pyplot keeps every figure open otherwise)."""
    from .._plot import pyplot

    pyplot().close(fig)


# --------------------------------------------------------------------------- handlers
def _manifest_report(args: argparse.Namespace, r: Any, key: str, check: Any, verified: str) -> int:
    from ..report import Table

    def data() -> Any:
        out = {k: v for k, v in r.manifest.items() if k != key}
        out["manifest"] = r.manifest_path
        out[key] = [{k: v for k, v in s.items() if k != "indices"} for s in r.manifest[key]]
        if check:
            out["verified"] = check
        return out

    def tables() -> list[Any]:
        rows = []
        for s in r.manifest[key]:
            idx_of = s["indices"] if isinstance(s["indices"], dict) else {"train": s["indices"]}
            sizes = {part: len(idx) for part, idx in idx_of.items()}
            rows.append((s.get("name", ""), s.get("seed", ""), *(f"{p}={n}" for p, n in sizes.items())))
        width = max(len(x) for x in rows) if rows else 2
        head = ("name", "seed", *(f"part {i + 1}" for i in range(width - 2)))
        return [Table(head, tuple(x + ("",) * (width - len(x)) for x in rows), title=str(r))]

    text = f"{r}\nmanifest: {r.manifest_path}\n" + (verified if check else "")
    _cli.emit(args, text=text, tables=tables, data=data, results=[r])
    return 0


def run_split(args: argparse.Namespace) -> int:
    from .splits import random_splits, verify_splits

    _cli.precheck(args)
    r = random_splits(
        args.corpus,
        args.out,
        n_splits=args.splits,
        ratios=args.ratios,
        parts=args.parts,
        seed=args.seed,
        unit=args.unit,
        format=args.format,
        keep_order=not args.shuffled_order,
    )
    check = verify_splits(r.manifest) if args.verify else None
    note = f"verified: {check['splits_checked']} split(s) partition the corpus exactly (unit hashes)\n" if check else ""
    return _manifest_report(args, r, "splits", check, note)


def run_resample(args: argparse.Namespace) -> int:
    from .splits import resample_train, verify_resample

    _cli.precheck(args)
    r = resample_train(
        args.corpus,
        args.out,
        sizes=args.sizes,
        n_samples=args.samples,
        seed=args.seed,
        unit=args.unit,
        format=args.format,
    )
    check = verify_resample(r.manifest) if args.verify else None
    note = f"verified: {check['files_checked']} file(s) match the corpus units at their indices\n" if check else ""
    return _manifest_report(args, r, "samples", check, note)


def _per_split_from_spec(args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    """The splits of ``--spec`` (a JSON list, or ``{"splits": [...], "standard": {...}}``) and the standard
    split's statistics (or None)."""
    from ..formats import parse

    raw = json.loads(Path(args.spec).read_text())
    spec = raw.get("splits", raw) if isinstance(raw, dict) else raw
    std_entry = raw.get("standard") if isinstance(raw, dict) else None
    if not isinstance(spec, list) or not spec:
        raise InputError(
            f"{args.spec}: expected a JSON list of {{'name', 'gold', 'systems': {{name: path}}}} "
            "(or {'splits': [...], 'standard': {'gold', 'systems'}})"
        )
    fmt = args.format
    opts = _cli.format_options(args)
    base = Path(args.spec).resolve().parent

    def rel(p: str) -> str:
        return str(p if os.path.isabs(p) else base / p)

    def read(entry: Any, what: str) -> Any:
        if not isinstance(entry, dict) or "systems" not in entry:
            raise InputError(f"{args.spec}: {what} needs 'systems' (and 'gold' with --format)")
        systems = {str(n): rel(p) for n, p in entry["systems"].items()}
        if fmt:
            if "gold" not in entry:
                raise InputError(f"{args.spec}: {what} needs 'gold' with --format")
            return _split_input(args, parse(fmt, rel(entry["gold"]), systems, **opts))
        return parse(_cli.item_format(list(systems.values())), None, systems).statistics(args.metric)

    out = {}
    for k, entry in enumerate(spec):
        name = str(entry.get("name", f"split{k:02d}")) if isinstance(entry, dict) else f"split{k:02d}"
        out[name] = read(entry, f"split {k}")
    return out, None if std_entry is None else read(std_entry, "'standard'")


def _split_input(args: argparse.Namespace, parsed: Any) -> Any:
    """McNemar on a format with units runs on the units' correctness (tokens); other tests on the statistics."""
    if args.test == "mcnemar" and parsed.spec.views and args.binarize is None:
        from .across import unit_statistics

        return unit_statistics(parsed.units(args.view))
    return parsed.statistics(args.metric)


def run_across(args: argparse.Namespace) -> int:
    from .across import across_splits, split_statistics, split_units

    _cli.precheck(args, plots=("plot",))
    standard: Any = None
    if args.spec:
        if args.files:
            raise InputError("give either --spec or GOLD SYSTEM ... files with --manifest, not both")
        per_split, standard = _per_split_from_spec(args)
        if args.standard and standard is not None:
            raise InputError("the standard split is given twice: in --spec and with --standard")
    else:
        if not args.manifest:
            raise InputError(
                "give --manifest (split manifest) with GOLD SYSTEM ... scored on the whole corpus, "
                "or --spec with each split's files"
            )
        parsed = _cli.parse_inputs(args, min_systems=2)
        if args.test == "mcnemar" and parsed.spec.views and args.binarize is None:
            parts = split_units(parsed.units(args.view), args.manifest, part=args.part)
        else:
            parts = split_statistics(parsed.statistics(args.metric), args.manifest, part=args.part)
        per_split = {f"split{k:02d}": st for k, st in enumerate(parts)}
    if args.standard:
        standard = _split_input(args, _cli.parse_inputs(args, files=args.standard, min_systems=2))
    r = across_splits(
        per_split,
        test=args.test,
        variant=args.variant,
        alpha=args.alpha,
        correction=args.correction,
        family=args.family,
        binarize=args.binarize,
        n_resamples=args.resamples,
        seed=args.seed,
        backend=args.backend,
        progress=args.progress,
        standard=standard,
        confidence=args.confidence,
    )
    if args.plot:
        _close(r.plot(args.plot))
    _cli.emit(args, text=r.table(max_rows=args.top), tables=lambda: r.tables(args.top), data=r.to_dict, results=[r])
    return 0


def run_test_size(args: argparse.Namespace) -> int:
    from .curves import test_size_curve

    _cli.precheck(args, plots=("plot",))
    band = threshold_band(args)
    stats = _read_stats(args)
    r = test_size_curve(
        stats,
        sizes=args.sizes,
        mode=args.mode,
        n_draws=args.draws,
        n_resamples=args.resamples,
        seed=args.seed,
        variant=args.variant,
        alpha=args.alpha,
        band=band,
        percentile=args.percentile,
        backend=args.backend,
        n_threads=args.threads,
        progress=args.progress,
    )
    return _emit(args, r, lambda: r.to_dict(include_tests=args.tests))


def run_calibration(args: argparse.Namespace) -> int:
    from .calibration import calibration, domains_from_item_ids

    _cli.precheck(args, plots=("plot",))
    stats = _read_stats(args)
    pools: Any = stats
    if args.domains_by_id_prefix is not None:
        pools = domains_from_item_ids(stats, args.domains_by_id_prefix)
    kw: dict[str, Any] = {}
    if args.bands:
        edges = sorted(args.bands)
        kw["bands"] = list(itertools.pairwise(edges))
    r = calibration(
        pools,
        m=args.size,
        n_test_sets=args.test_sets,
        n_resamples=args.resamples,
        seed=args.seed,
        variant=args.variant,
        backend=args.backend,
        n_threads=args.threads,
        progress=args.progress,
        **kw,
    )
    return _emit(args, r, lambda: r.to_dict(include_tests=args.tests))


# --------------------------------------------------------------------------- registration
def add_cli(subparsers: Any) -> None:
    """Register ``split``, ``resample-train``, ``across-splits``, ``test-size`` and ``calibration``."""
    from .splits import UNITS

    s = subparsers.add_parser(
        "split",
        help="K seeded random train/dev/test splits of a corpus, with a manifest",
        description="Cut CORPUS (and parallel files with the same number of units) into K random splits "
        "(Gorman & Bedrick 2019), written byte for byte as OUT/splitKK/STEM.PART.EXT with "
        "OUT/manifest.json (seed, sizes, indices, SHA-256 of every file and of the unit multiset).",
    )
    s.add_argument("corpus", nargs="+", help="corpus file(s), plain or gzip; parallel files are cut alike")
    s.add_argument("--out", "-O", required=True, help="output folder")
    s.add_argument("-k", "--splits", type=int, default=20, help="number of splits (default 20)")
    s.add_argument("--ratios", type=float, nargs="+", default=[0.8, 0.1, 0.1], help="part ratios (default 0.8 0.1 0.1)")
    s.add_argument("--parts", nargs="+", default=["train", "dev", "test"], help="part names (default train dev test)")
    _cli.add_seed(s)
    s.add_argument("--unit", choices=list(UNITS), help="sentence (blank-line blocks), line, or document (# newdoc)")
    s.add_argument("--format", "-f", help="pick the unit from the format (conllu: sentence, mt: line, ...)")
    s.add_argument("--shuffled-order", action="store_true", help="write units in permuted order, not corpus order")
    s.add_argument(
        "--verify",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="re-read the written files and check each split partitions the corpus (default on)",
    )
    _cli.add_output(s)
    s.set_defaults(handler=run_split)

    r = subparsers.add_parser(
        "resample-train",
        help="training sets drawn with replacement at given sizes, with a manifest",
        description="Draw training sets of the given sizes with replacement from CORPUS (Berg-Kirkpatrick et al. "
        "2012, §3.2.1), written as OUT/sizeM/sampleRR/STEM.EXT with OUT/manifest.json.",
    )
    r.add_argument("corpus", nargs="+", help="training corpus file(s); parallel files are drawn alike")
    r.add_argument("--out", "-O", required=True, help="output folder")
    r.add_argument("--sizes", type=int, nargs="+", required=True, help="training-set sizes in units")
    r.add_argument("--samples", type=int, default=1, help="training sets per size (default 1)")
    _cli.add_seed(r)
    r.add_argument("--unit", choices=list(UNITS), help="sentence, line or document")
    r.add_argument("--format", "-f", help="pick the unit from a format name")
    r.add_argument(
        "--verify",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="re-read the written files and check them against the corpus (default on)",
    )
    _cli.add_output(r)
    r.set_defaults(handler=run_resample)

    a = subparsers.add_parser(
        "across-splits",
        help="test every pair on K splits: significant wins, replicability, score ranges",
        description="Gorman & Bedrick (2019): every pair of systems tested on each split's test part; the number "
        "of splits where one is significantly better after a correction, the replicability estimate "
        "(Dror et al. 2017), each system's score range and, for proportions (McNemar on tokens, POS "
        "accuracy), each system's accuracy on each split with its Wilson interval. Either score the whole "
        "corpus (GOLD SYSTEM ...) and cut it with --manifest, or give --spec, a JSON list of {name, gold, "
        "systems: {name: path}} per split. --standard GOLD SYSTEM ... (or 'standard' in --spec) adds the "
        "standard split: its accuracy with a Wilson interval beside the random splits' range (G&B Table 2, "
        "Figure 1 with --plot) and the same test of every pair on it.",
    )
    a.add_argument(
        "files", nargs="*", metavar="FILE", help="GOLD SYSTEM ... scored on the whole split corpus (with --manifest)"
    )
    a.add_argument("--manifest", help="manifest.json written by `sigfast split`")
    a.add_argument("--part", default="test", help="which part of each split to test on (default test)")
    a.add_argument(
        "--spec",
        help="JSON list of per-split gold and system files, or {splits: [...], standard: {gold, systems}}",
    )
    a.add_argument(
        "--standard",
        nargs="+",
        metavar="FILE",
        help="the standard split's test set: GOLD SYSTEM ... (with --format; the same system names), scored "
        "and tested like each split and shown beside the random splits (table and --plot, G&B Figure 1)",
    )
    _cli.add_format(a)
    _cli.add_refs(a)
    _cli.add_metric(a, repeatable=False)
    a.add_argument(
        "--view",
        help="--test mcnemar on a format with units: the units compared (default: the format's first view)",
    )
    _cli.add_align(a)
    a.add_argument(
        "--test",
        "-t",
        default="mcnemar",
        choices=["mcnemar", "bootstrap", "permutation", "sign", "wilcoxon", "ttest"],
        help="per-split test (default mcnemar: on the units' correctness with --format, else on 0/1 items)",
    )
    a.add_argument(
        "--variant",
        default=None,
        help="mcnemar: mid-p (default), exact, asymptotic, asymptotic-nocc; bootstrap: bk (default), koehn, "
        "shifted, sacrebleu, moses",
    )
    a.add_argument("--binarize", choices=["exact"], help="McNemar on whole items: right when perfect")
    _cli.add_alpha(a)
    _cli.add_correction(a, "bonferroni")
    a.add_argument(
        "--family",
        choices=["splits", "all"],
        default="splits",
        help="correct over each pair's splits (default) or over all pairs and splits",
    )
    _cli.add_resamples(a, 10_000, "resamples for bootstrap/permutation")
    _cli.add_seed(a)
    a.add_argument("--backend", choices=["local", "ray"], default="local", help="run splits here or as Ray tasks")
    a.add_argument("--top", type=int, default=None, help="show only the N pairs with the largest mean gain")
    _cli.add_confidence(a)
    a.add_argument(
        "--plot",
        metavar="FILE",
        help="G&B Figure 1: each system's range over the random splits and the standard split with its "
        "Wilson interval (PNG, PDF or SVG)",
    )
    _cli.add_progress(a)
    _cli.add_output(a)
    a.set_defaults(handler=run_across)

    t = subparsers.add_parser(
        "test-size",
        help="significance and the gain threshold against test-set size",
        description="Berg-Kirkpatrick et al. (2012) Figures 9 and 10: every pair tested on initial segments "
        "(or random subsets) of 100, 200, 400, ... items and the full set; the gain threshold at each.",
    )
    _input_args(t)
    t.add_argument("--sizes", type=int, nargs="+", help="test-set sizes (default 100 200 400 ... and the full set)")
    t.add_argument(
        "--mode", choices=["prefix", "random"], default="prefix", help="initial segments (default) or random subsets"
    )
    t.add_argument("--draws", type=int, default=1, help="random subsets per size (--mode random)")
    t.add_argument("--variant", default="bk", choices=_VARIANTS, help="bootstrap variant (default bk)")
    _cli.add_alpha(t)
    add_threshold_args(t)
    t.add_argument("--tests", action="store_true", help="include every test's p-value and gain in the JSON")
    _run_args(t)
    t.set_defaults(handler=run_test_size)

    c = subparsers.add_parser(
        "calibration",
        help="p-value bands against agreement with the population (BK Table 1)",
        description="Berg-Kirkpatrick et al. (2012) §4.2: the scored test set is the population; test sets of "
        "--size items are drawn with replacement, every pair is tested on each, and among tests with "
        "p in a band the share whose sign agrees with the population is reported (Table 1). With domains "
        "(--domains-by-id-prefix), one table per target domain follows the pooled one, and --plot draws the "
        "domains overlaid at the fixed test size (Fig. 11) beside the calibration curves.",
    )
    _input_args(c)
    c.add_argument("--size", type=int, default=500, help="items per drawn test set, m (default 500)")
    c.add_argument("--test-sets", type=int, default=200, help="test sets drawn per domain (default 200)")
    c.add_argument("--variant", default="bk", choices=_VARIANTS, help="bootstrap variant (default bk)")
    c.add_argument("--bands", type=float, nargs="+", help="band edges, e.g. 0 0.01 0.04 0.06 0.1 0.2 0.5 1")
    c.add_argument(
        "--domains-by-id-prefix",
        nargs="?",
        const="-",
        default=None,
        metavar="SEP",
        help="treat the item-id prefix before SEP (default '-') as the domain; adds cross-domain columns",
    )
    c.add_argument("--tests", action="store_true", help="include every test's p-value and delta in the JSON")
    _run_args(c)
    c.set_defaults(handler=run_calibration)
