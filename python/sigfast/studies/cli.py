"""The handlers of ``split``, ``resample-train``, ``across-splits``, ``test-size`` and ``calibration``.

:mod:`sigfast.cli` registers the subcommands and their flags and calls a
handler (a function ``args -> exit status``) when its subcommand runs.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path
from typing import Any

from ..cli import common as _cli
from ..exceptions import InputError, UsageError

__all__ = ["run_across", "run_calibration", "run_resample", "run_split", "run_test_size"]


def _emit(args: argparse.Namespace, results: list[Any], data: Any) -> int:
    if getattr(args, "plot", None):
        _close(results[-1].plot(args.plot))
        print(f"plot written to {args.plot}", file=sys.stderr)
    _cli.emit(
        args,
        text="\n\n".join(r.table() for r in results),
        tables=lambda: [t for r in results for t in r.tables()],
        data=lambda: [data(r) for r in results],
        results=results,
    )
    return 0


def _close(fig: Any) -> None:
    """Free a figure the command line has saved (pyplot keeps every figure open otherwise)."""
    from ..results.plot import pyplot

    pyplot().close(fig)


# --------------------------------------------------------------------------- handlers
def _manifest_report(args: argparse.Namespace, r: Any, key: str, check: Any, verified: str) -> int:
    from ..results.report import Table

    def data() -> Any:
        out = {k: v for k, v in r.manifest.items() if k != key}
        out["manifest"] = r.manifest_path
        out[key] = [{k: v for k, v in s.items() if k != "indices"} for s in r.manifest[key]]
        if check:
            out["verified"] = check
        out["signature"] = r.signature
        return out

    def tables() -> list[Any]:
        rows = []
        for s in r.manifest[key]:
            idx_of = s["indices"] if isinstance(s["indices"], dict) else {"train": s["indices"]}
            sizes = {part: len(idx) for part, idx in idx_of.items()}
            rows.append((s.get("name", ""), s.get("seed", ""), *(f"{p}={n}" for p, n in sizes.items())))
        width = max(len(x) for x in rows) if rows else 2
        head = ("name", "seed", *(f"part {i + 1}" for i in range(width - 2)))
        return [Table(head, tuple(x + ("",) * (width - len(x)) for x in rows), title=r.headline, signature=r.signature)]

    text = f"{r.headline}\nmanifest: {r.manifest_path}\n" + (verified if check else "") + f"signature: {r.signature}\n"
    _cli.emit(args, text=text, tables=tables, data=data, results=[r])
    return 0


def run_split(args: argparse.Namespace) -> int:
    from .splits import random_splits, verify_splits

    _cli.precheck(args)
    r = random_splits(
        args.corpus,
        args.out_dir,
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
        args.out_dir,
        sizes=args.sizes,
        n_samples=args.samples,
        seed=args.seed,
        unit=args.unit,
        format=args.format,
    )
    check = verify_resample(r.manifest) if args.verify else None
    note = f"verified: {check['files_checked']} file(s) match the corpus units at their indices\n" if check else ""
    return _manifest_report(args, r, "samples", check, note)


# --------------------------------------------------------------------------- across-splits
def _spec_inputs(args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    """The parsed files of each split of ``--spec`` (a JSON list, or ``{"splits": [...], "standard": {...}}``)
    and of its standard split (or None)."""
    from ..formats import parse
    from ._common import read_json

    raw = read_json(args.spec, "the --spec file")
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

    def rel(p: Any) -> str:
        if not isinstance(p, str):
            raise InputError(f"{args.spec}: expected a file path (a string), got {p!r}")
        return str(p if os.path.isabs(p) else base / p)

    def read(entry: Any, what: str) -> Any:
        if not isinstance(entry, dict) or not isinstance(entry.get("systems"), dict):
            raise InputError(f"{args.spec}: {what} needs 'systems', a mapping name -> path (and 'gold' with --format)")
        systems = {str(n): rel(p) for n, p in entry["systems"].items()}
        if fmt:
            if "gold" not in entry:
                raise InputError(f"{args.spec}: {what} needs 'gold' with --format")
            return parse(fmt, rel(entry["gold"]), systems, **opts)
        return parse(_cli.item_format(list(systems.values())), None, systems)

    out = {}
    for k, entry in enumerate(spec):
        name = str(entry.get("name", f"split{k:02d}")) if isinstance(entry, dict) else f"split{k:02d}"
        if name in out:
            raise InputError(f"{args.spec}: two splits are named {name!r}")
        out[name] = read(entry, f"split {k}")
    return out, None if std_entry is None else read(std_entry, "'standard'")


def _mcnemar_view(args: argparse.Namespace, parsed: Any, metric: str | None) -> tuple[bool, str | None]:
    """Whether the test runs on the units of a view (McNemar on a format with units), and which view.

    ``-m`` names the view there (``-m upos`` is ``--view upos``, as in ``compare --test mcnemar``); a metric
    no view gives, or ``-m`` and ``--view`` naming different units, is an error, never a silent LAS."""
    views = tuple(parsed.spec.views)
    if args.test != "mcnemar" or not views or args.binarize is not None:
        if args.view is not None:
            why = "--binarize tests whole items" if args.binarize is not None else "--view is for --test mcnemar"
            raise UsageError(
                f"{why} on a format with units; format {parsed.format!r} "
                + (f"has the views {', '.join(views)}" if views else "has no units")
            )
        return False, None
    view = args.view
    if metric is not None:
        if metric not in views:
            raise InputError(
                f"--test mcnemar compares the units of a view; format {parsed.format!r} has the views "
                f"{', '.join(views)} (-m or --view), not {metric!r}{_cli.did_you_mean(metric, views)}; test "
                f"{metric} with --test bootstrap or permutation"
            )
        if view is not None and view != metric:
            raise UsageError(
                f"-m {metric} and --view {view} name different units; McNemar compares one view's units: give one"
            )
        view = metric
    return True, view


def _split_input(args: argparse.Namespace, parsed: Any, metric: str | None) -> Any:
    """McNemar on a format with units runs on the units' correctness; other tests on the statistics."""
    on_units, view = _mcnemar_view(args, parsed, metric)
    if on_units:
        from .across import unit_statistics

        return unit_statistics(parsed.units(view))
    return parsed.statistics(metric)


def run_across(args: argparse.Namespace) -> int:
    from .across import across_splits, split_statistics, split_units

    _cli.precheck(args, plots=("plot",))
    if args.test == "mcnemar":
        variant = _cli.mcnemar_variant(args.variant)
    elif args.test == "bootstrap":
        variant = _cli.bootstrap_variant(args.variant)
    elif args.variant is not None:
        raise UsageError(f"the {args.test} test has no variants; --variant is for mcnemar and bootstrap")
    else:
        variant = None
    std_parsed: Any = None
    if args.spec:
        if args.files:
            raise UsageError("give either --spec or GOLD SYSTEM ... files with --manifest, not both")
        spec_parsed, std_parsed = _spec_inputs(args)
        if args.standard and std_parsed is not None:
            raise UsageError("the standard split is given twice: in --spec and with --standard")
    else:
        if not args.manifest:
            raise UsageError(
                "give --manifest (split manifest) with GOLD SYSTEM ... scored on the whole corpus, "
                "or --spec with each split's files"
            )
        _cli.detect_gold_format(args)
        parsed = _cli.parse_inputs(args, min_systems=2)
    if args.standard:
        std_parsed = _cli.parse_inputs(args, files=args.standard, min_systems=2)
    results = []
    for metric in args.metric or [None]:
        if args.spec:
            per_split = {name: _split_input(args, p, metric) for name, p in spec_parsed.items()}
        else:
            on_units, view = _mcnemar_view(args, parsed, metric)
            if on_units:
                parts = split_units(parsed.units(view), args.manifest, part=args.part)
            else:
                parts = split_statistics(parsed.statistics(metric), args.manifest, part=args.part)
            per_split = {f"split{k:02d}": st for k, st in enumerate(parts)}
        standard = None if std_parsed is None else _split_input(args, std_parsed, metric)
        results.append(
            across_splits(
                per_split,
                test=args.test,
                variant=variant,
                alpha=args.alpha,
                correction=args.correction,
                family=args.family,
                binarize=args.binarize,
                n_resamples=args.resamples,
                seed=args.seed,
                stream=args.stream,
                backend=args.backend,
                progress=args.progress,
                standard=standard,
                confidence=args.confidence,
            )
        )
    if args.plot:
        _close(results[-1].plot(args.plot))
    _cli.emit(
        args,
        text="\n\n".join(r.table(max_rows=args.top) for r in results),
        tables=lambda: [t for r in results for t in r.with_options(max_rows=args.top).tables()],
        data=lambda: [r.to_dict() for r in results],
        results=results,
    )
    return 0


# --------------------------------------------------------------------------- test-size, calibration
def _inputs(args: argparse.Namespace) -> Any:
    _cli.detect_gold_format(args)
    return _cli.parse_inputs(args, min_systems=2)


def run_test_size(args: argparse.Namespace) -> int:
    from .curves import test_size_curve

    _cli.precheck(args, plots=("plot",))
    band = _cli.threshold_band(args)
    variant = _cli.bootstrap_variant(args.variant)
    parsed = _inputs(args)
    results = [
        test_size_curve(
            parsed.statistics(metric),
            sizes=args.sizes,
            mode=args.subsets,
            n_draws=args.samples,
            n_resamples=args.resamples,
            seed=args.seed,
            stream=args.stream,
            variant=variant,
            alpha=args.alpha,
            band=band,
            percentile=args.percentile,
            backend=args.backend,
            n_threads=args.threads,
            progress=args.progress,
        )
        for metric in args.metric or [None]
    ]
    return _emit(args, results, lambda r: r.to_dict(include_tests=args.tests))


def run_calibration(args: argparse.Namespace) -> int:
    from .calibration import calibration, domains_from_item_ids

    _cli.precheck(args, plots=("plot",))
    variant = _cli.bootstrap_variant(args.variant)
    parsed = _inputs(args)
    kw: dict[str, Any] = {}
    if args.bands:
        edges = sorted(args.bands)
        kw["bands"] = list(itertools.pairwise(edges))
    results = []
    for metric in args.metric or [None]:
        stats = parsed.statistics(metric)
        pools: Any = stats
        if args.domains_by_id_prefix is not None:
            pools = domains_from_item_ids(stats, args.domains_by_id_prefix)
        results.append(
            calibration(
                pools,
                m=args.size,
                n_test_sets=args.test_sets,
                n_resamples=args.resamples,
                seed=args.seed,
                stream=args.stream,
                variant=variant,
                backend=args.backend,
                n_threads=args.threads,
                progress=args.progress,
                **kw,
            )
        )
    return _emit(args, results, lambda r: r.to_dict(include_tests=args.tests))
