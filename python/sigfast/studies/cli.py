"""CLI for the studies: ``split``, ``resample-train``, ``across-splits``, ``test-size``, ``calibration``.

:func:`add_cli` registers the subcommands; each parser sets ``study_handler``
(a function ``args -> exit status``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..exceptions import InputError

__all__ = ["add_cli"]


# --------------------------------------------------------------------------- shared options
def _systems_arg(items: list[str]) -> dict[str, str]:
    """NAME=PATH or PATH; bare paths are named by file name, or by parent folder when file names repeat."""
    named: list[tuple[str | None, str]] = []
    for it in items:
        name, eq, path = it.partition("=")
        if eq and name and not os.path.exists(it):
            named.append((name, path))
        else:
            named.append((None, it))
    bare = [p for n, p in named if n is None]
    base = [os.path.basename(p) for p in bare]
    use_parent = len(set(base)) != len(base)
    out: dict[str, str] = {}
    for n, p in named:
        if n is None:
            n = os.path.basename(os.path.dirname(os.path.abspath(p))) if use_parent else os.path.basename(p)
        if n in out:
            raise InputError(f"two systems are named {n!r}; name them with NAME=PATH")
        out[n] = p
    return out


def _input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "files",
        nargs="+",
        help="GOLD SYSTEM [SYSTEM ...] with --format (SYSTEM may be NAME=PATH); without --format, "
        "files of per-item scores/statistics (TSV, JSONL or .npy), one per system",
    )
    p.add_argument("--format", "-f", help="file format of the system outputs (see `sigfast info`)")
    p.add_argument("--metric", "-m", help="metric (default: the format's headline metric)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
    p.add_argument(
        "--input",
        choices=["tsv", "jsonl", "npy"],
        default="tsv",
        help="layout of per-item files without --format (default tsv)",
    )


def _read_stats(args: argparse.Namespace) -> Any:
    from ..cli import _options
    from ..read import read

    opts = _options(args.option)
    if args.format:
        if len(args.files) < 3:
            raise InputError("give GOLD and at least two SYSTEM files")
        return read(args.files[0], _systems_arg(args.files[1:]), format=args.format, metric=args.metric, **opts)
    if len(args.files) < 2:
        raise InputError("give at least two per-item files")
    return read(None, _systems_arg(args.files), format=args.input, metric=args.metric)


def _run_args(p: argparse.ArgumentParser, default_resamples: int = 10_000) -> None:
    p.add_argument(
        "-n",
        "--resamples",
        type=int,
        default=default_resamples,
        help=f"bootstrap resamples per test (default {default_resamples:,})",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--threads", type=int, default=None, help="threads per test (default: all cores)")
    p.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="run test sets on this machine (default) or as Ray tasks",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--output", help="also write the JSON result to this file")
    p.add_argument("--plot", help="write the plot to this file (PNG, PDF or SVG; needs matplotlib)")
    p.add_argument("--markdown", action="store_true", help="markdown tables")
    p.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None, help="show progress (default: on a terminal)"
    )


def _emit(args: argparse.Namespace, result: Any, json_text: str) -> int:
    if getattr(args, "output", None):
        Path(args.output).write_text(json_text + "\n")
    if getattr(args, "plot", None):
        result.plot(args.plot)
    if args.json:
        print(json_text)
    else:
        print(result.table(markdown=getattr(args, "markdown", False)))
        if getattr(args, "plot", None):
            print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- handlers
def run_split(args: argparse.Namespace) -> int:
    from .splits import random_splits, verify_splits

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
    if args.json:
        out = {k: v for k, v in r.manifest.items() if k != "splits"}
        out["manifest"] = r.manifest_path
        out["splits"] = [{k: v for k, v in s.items() if k != "indices"} for s in r.manifest["splits"]]
        if check:
            out["verified"] = check
        print(json.dumps(out, indent=2))
    else:
        print(str(r))
        print(f"manifest: {r.manifest_path}")
        if check:
            print(f"verified: {check['splits_checked']} split(s) partition the corpus exactly (unit hashes)")
    return 0


def run_resample(args: argparse.Namespace) -> int:
    from .splits import resample_train, verify_resample

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
    if args.json:
        out = {k: v for k, v in r.manifest.items() if k != "samples"}
        out["manifest"] = r.manifest_path
        out["samples"] = [{k: v for k, v in s.items() if k != "indices"} for s in r.manifest["samples"]]
        if check:
            out["verified"] = check
        print(json.dumps(out, indent=2))
    else:
        print(str(r))
        print(f"manifest: {r.manifest_path}")
        if check:
            print(f"verified: {check['files_checked']} file(s) match the corpus units at their indices")
    return 0


def _per_split_from_spec(args: argparse.Namespace) -> dict[str, Any]:
    from ..cli import _options
    from ..read import read

    spec = json.loads(Path(args.spec).read_text())
    if isinstance(spec, dict):
        spec = spec.get("splits", spec)
    if not isinstance(spec, list) or not spec:
        raise InputError(f"{args.spec}: expected a JSON list of {{'name', 'gold', 'systems': {{name: path}}}}")
    fmt = args.format
    opts = _options(args.option)
    out = {}
    base = Path(args.spec).resolve().parent
    for k, entry in enumerate(spec):
        if not isinstance(entry, dict) or "systems" not in entry:
            raise InputError(f"{args.spec}: split {k} needs 'systems' (and 'gold' with --format)")

        def rel(p: str) -> str:
            return str(p if os.path.isabs(p) else base / p)

        systems = {str(n): rel(p) for n, p in entry["systems"].items()}
        name = str(entry.get("name", f"split{k:02d}"))
        if fmt:
            out[name] = read(rel(entry["gold"]), systems, format=fmt, metric=args.metric, **opts)
        else:
            out[name] = read(None, systems, format=args.input, metric=args.metric)
    return out


def run_across(args: argparse.Namespace) -> int:
    from .across import across_splits, split_statistics

    if args.spec:
        if args.files:
            raise InputError("give either --spec or GOLD SYSTEM ... files with --manifest, not both")
        per_split: Any = _per_split_from_spec(args)
    else:
        if not args.manifest:
            raise InputError(
                "give --manifest (split manifest) with GOLD SYSTEM ... scored on the whole corpus, "
                "or --spec with each split's files"
            )
        stats = _read_stats(args)
        parts = split_statistics(stats, args.manifest, part=args.part)
        per_split = {f"split{k:02d}": st for k, st in enumerate(parts)}
    r = across_splits(
        per_split,
        test=args.test,
        alpha=args.alpha,
        correction=args.correction,
        family=args.family,
        binarize=args.binarize,
        n_resamples=args.resamples,
        seed=args.seed,
        backend=args.backend,
        progress=args.progress,
    )
    if args.output:
        Path(args.output).write_text(r.to_json() + "\n")
    if args.plot:
        r.plot(args.plot)
    print(r.to_json() if args.json else r.table(markdown=args.markdown, max_rows=args.top))
    return 0


def run_test_size(args: argparse.Namespace) -> int:
    from .curves import test_size_curve

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
        band=tuple(args.band),
        percentile=args.percentile,
        backend=args.backend,
        n_threads=args.threads,
        progress=args.progress,
    )
    return _emit(args, r, r.to_json(include_tests=args.tests))


def run_calibration(args: argparse.Namespace) -> int:
    from .calibration import calibration, domains_from_item_ids

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
    return _emit(args, r, r.to_json(include_tests=args.tests))


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
    s.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    s.add_argument("--unit", choices=list(UNITS), help="sentence (blank-line blocks), line, or document (# newdoc)")
    s.add_argument("--format", "-f", help="pick the unit from a format name (conllu: sentence, mt: line, ...)")
    s.add_argument("--shuffled-order", action="store_true", help="write units in permuted order, not corpus order")
    s.add_argument(
        "--verify",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="re-read the written files and check each split partitions the corpus (default on)",
    )
    s.add_argument("--json", action="store_true", help="print the manifest (without indices) as JSON")
    s.set_defaults(study_handler=run_split)

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
    r.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    r.add_argument("--unit", choices=list(UNITS), help="sentence, line or document")
    r.add_argument("--format", "-f", help="pick the unit from a format name")
    r.add_argument(
        "--verify",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="re-read the written files and check them against the corpus (default on)",
    )
    r.add_argument("--json", action="store_true", help="print the manifest (without indices) as JSON")
    r.set_defaults(study_handler=run_resample)

    a = subparsers.add_parser(
        "across-splits",
        help="test every pair on K splits: significant wins, replicability, score ranges",
        description="Gorman & Bedrick (2019): every pair of systems tested on each split's test part; the number "
        "of splits where one is significantly better after a correction, the replicability estimate "
        "(Dror et al. 2017), and each system's score range. Either score the whole corpus (GOLD "
        "SYSTEM ...) and cut it with --manifest, or give --spec, a JSON list of {name, gold, "
        "systems: {name: path}} per split.",
    )
    a.add_argument("files", nargs="*", help="GOLD SYSTEM ... scored on the whole split corpus (with --manifest)")
    a.add_argument("--manifest", help="manifest.json written by `sigfast split`")
    a.add_argument("--part", default="test", help="which part of each split to test on (default test)")
    a.add_argument("--spec", help="JSON list of per-split gold and system files")
    a.add_argument("--format", "-f", help="file format of the system outputs")
    a.add_argument("--metric", "-m", help="metric (default: the format's headline metric)")
    a.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
    a.add_argument("--input", choices=["tsv", "jsonl", "npy"], default="tsv", help="per-item files without --format")
    a.add_argument(
        "--test",
        "-t",
        default="mcnemar",
        choices=["mcnemar", "bootstrap", "permutation", "sign", "wilcoxon", "ttest"],
        help="per-split test (default mcnemar, on 0/1 items)",
    )
    a.add_argument("--binarize", choices=["exact"], help="McNemar on whole items: right when perfect")
    a.add_argument("--alpha", type=float, default=0.05)
    a.add_argument("--correction", default="bonferroni", help="bonferroni (default), holm, hochberg, bh, by, none")
    a.add_argument(
        "--family",
        choices=["splits", "all"],
        default="splits",
        help="correct over each pair's splits (default) or over all pairs and splits",
    )
    a.add_argument("-n", "--resamples", type=int, default=10_000, help="resamples for bootstrap/permutation")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--backend", choices=["local", "ray"], default="local", help="run splits here or as Ray tasks")
    a.add_argument("--top", type=int, default=None, help="show only the N pairs with the largest mean gain")
    a.add_argument("--json", action="store_true")
    a.add_argument("--output", help="also write the JSON result here")
    a.add_argument("--plot", help="score-range plot (PNG, PDF or SVG)")
    a.add_argument("--markdown", action="store_true")
    a.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    a.set_defaults(study_handler=run_across)

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
    t.add_argument("--variant", default="bk", choices=["bk", "koehn", "shifted"])
    t.add_argument("--alpha", type=float, default=0.05)
    t.add_argument("--band", type=float, nargs=2, default=[0.04, 0.06], help="p band for the threshold")
    t.add_argument("--percentile", type=float, default=95.0, help="percentile of gains in the band (default 95)")
    t.add_argument("--tests", action="store_true", help="include every test's p-value and gain in the JSON")
    _run_args(t)
    t.set_defaults(study_handler=run_test_size)

    c = subparsers.add_parser(
        "calibration",
        help="p-value bands against agreement with the population (BK Table 1)",
        description="Berg-Kirkpatrick et al. (2012) §4.2: the scored test set is the population; test sets of "
        "--size items are drawn with replacement, every pair is tested on each, and among tests with "
        "p in a band the share whose sign agrees with the population is reported.",
    )
    _input_args(c)
    c.add_argument("--size", type=int, default=500, help="items per drawn test set, m (default 500)")
    c.add_argument("--test-sets", type=int, default=200, help="test sets drawn per domain (default 200)")
    c.add_argument("--variant", default="bk", choices=["bk", "koehn", "shifted"])
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
    c.set_defaults(study_handler=run_calibration)
