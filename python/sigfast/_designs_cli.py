"""The handlers of ``sigfast proportions`` (small-sample and paired-binary intervals) and ``sigfast gate``
(an anytime-valid release gate).

Both read their files as ``compare`` does (:func:`sigfast._cli.parse_inputs`: gold and system files in a
scorer's format, LLM logs, or per-item score files) and take each system's per-item scores, whose mean is
the metric (:func:`sigfast.errorbars.item_scores`).
"""

from __future__ import annotations

import argparse
from typing import Any

from . import _cli

__all__ = ["run_design", "run_gate", "run_proportions"]


def _item_scores(args: argparse.Namespace, *, min_systems: int) -> tuple[Any, Any, Any]:
    """(per-item scores as systems × items, the statistics, the parsed input) of the first metric."""
    from .errorbars import item_scores
    from .exceptions import InputError
    from .metrics import resolve_metric

    _cli.precheck(args)
    _cli.detect_gold_format(args)
    parsed = _cli.parse_inputs(args, min_systems=min_systems)
    metrics = list(args.metric) if getattr(args, "metric", None) else [None]
    if len(metrics) > 1:
        raise InputError(f"`sigfast {args.command}` takes one metric (-m); got {len(metrics)}")
    stats = parsed.statistics(metrics[0])
    m = resolve_metric(None if parsed.spec.needs_gold else metrics[0], stats)
    return item_scores(stats, m), stats, parsed


def run_proportions(args: argparse.Namespace) -> int:
    """``sigfast proportions``: each system's accuracy with Wilson, Clopper-Pearson, Jeffreys and Beta-binomial
    intervals; with two or more systems, each system against the first (the baseline): the Newcombe, Tango and
    Bonett-Price intervals of the paired difference with McNemar's test."""
    import numpy as np

    from .exceptions import InputError
    from .intervals import beta_binomial_interval, clopper_pearson_interval, jeffreys_interval, wilson_interval
    from .paired_binary import PAIRED_METHODS, paired_proportion_interval
    from .report import Table
    from .results import Result

    v, stats, _ = _item_scores(args, min_systems=1)
    names = [str(s) for s in stats.systems]
    bad = np.argwhere((v != 0) & (v != 1))
    if bad.size:
        s, i = (int(k) for k in bad[0])
        raise InputError(
            f"{names[s]}: item {i + 1} scores {v[s, i]:g}; proportion intervals need per-item correctness 0 or 1 "
            "(several samples per item: -o reducer=pass@N, N the samples per item, makes each item 0/1, right when "
            "any sample is; other scores: `sigfast interval`)"
        )
    method = args.method or "newcombe"
    if method not in PAIRED_METHODS:
        raise InputError(f"--method {method} is for `sigfast gate`; proportions take {', '.join(PAIRED_METHODS)}")
    level = args.confidence
    k = v.sum(axis=1).astype(int)
    n = v.shape[1]
    one = [
        {
            "system": nm,
            "accuracy": float(kk / n),
            "successes": int(kk),
            "n_items": n,
            "confidence_level": level,
            **{
                f"{name}_{end}": float(val)
                for name, ci in (
                    ("wilson", wilson_interval(int(kk), n, level)),
                    ("clopper_pearson", clopper_pearson_interval(int(kk), n, level)),
                    ("jeffreys", jeffreys_interval(int(kk), n, level)),
                    ("beta_binomial", beta_binomial_interval(int(kk), n, level)),
                )
                for end, val in (("low", ci.low), ("high", ci.high))
            },
        }
        for nm, kk in zip(names, k)
    ]
    from dataclasses import replace

    from .signature import format_part

    where = {"format": format_part(getattr(stats, "provenance", None))}
    pairs: list[Result] = [
        replace(
            paired_proportion_interval(v[0], v[j], method=method, confidence_level=level, systems=(names[0], names[j])),
            provenance=where,
        )
        for j in range(1, len(names))
    ]

    def ci(lo: float, hi: float, scale: float = 100.0) -> str:
        return f"[{scale * lo:.2f}, {scale * hi:.2f}]"

    pct = f"{100 * level:g}%"
    tables = [
        Table(
            ("system", "accuracy", f"{pct} Wilson", "Clopper-Pearson", "Jeffreys", "Beta-binomial (uniform prior)"),
            tuple(
                (
                    r["system"],
                    f"{100 * r['accuracy']:.2f}",
                    ci(r["wilson_low"], r["wilson_high"]),
                    ci(r["clopper_pearson_low"], r["clopper_pearson_high"]),
                    ci(r["jeffreys_low"], r["jeffreys_high"]),
                    ci(r["beta_binomial_low"], r["beta_binomial_high"]),
                )
                for r in one
            ),
            notes=(f"accuracy x100 on {n} items; Beta-binomial: the posterior Beta(k + 1, n - k + 1) interval",),
        )
    ]
    if pairs:
        head = ("system", "delta x100", *(f"{m}" for m in PAIRED_METHODS), "fixed", "broken", "McNemar p")
        body = []
        for r in pairs:
            assert hasattr(r, "intervals")
            (_, b), (c, _) = r.table  # type: ignore[attr-defined]
            body.append(
                (
                    r.systems[1],  # type: ignore[attr-defined]
                    f"{100 * r.estimate:+.2f}",  # type: ignore[attr-defined]
                    *(ci(*r.intervals[m]) for m in PAIRED_METHODS),  # type: ignore[attr-defined]
                    c,
                    b,
                    f"{r.mcnemar_pvalue:.4g}",  # type: ignore[attr-defined]
                )
            )
        from ._commands import signature_notes

        tables.append(
            Table(
                head,
                tuple(body),
                notes=(
                    f"{pct} intervals of each system's accuracy minus {names[0]}'s (x100), on the same items; "
                    "fixed/broken = items only the system / only the baseline gets right; McNemar mid-p",
                ),
                signature="\n".join(signature_notes(names[1:], [r.signature for r in pairs])),  # type: ignore[attr-defined]
            )
        )

    def tidy() -> list[dict[str, Any]]:
        return [*({"kind": "one", **r} for r in one), *({"kind": "paired", **row} for p in pairs for row in p.rows())]

    from .report import render_tables

    _cli.emit(
        args,
        text=render_tables(tables, "text"),
        tables=lambda: tables,
        results=[_cli.Rows(tidy)],
        data=lambda: {"systems": one, "paired": [p.to_dict() for p in pairs]},
    )
    return 0


def run_gate(args: argparse.Namespace) -> int:
    """``sigfast gate``: ALLOW / REJECT / INCONCLUSIVE for SYSTEM over BASELINE; exits 0 / 3 / 4."""
    from .exceptions import InputError
    from .sequential import gate

    _, stats, _ = _item_scores(args, min_systems=2)
    if stats.n_systems != 2:
        raise InputError(f"`sigfast gate` compares two runs, BASELINE and SYSTEM; got {stats.n_systems}")
    method = args.method or "auto"
    if method not in ("auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"):
        raise InputError(
            f"--method {method} is for `sigfast proportions`; gate takes auto, asymptotic, plugin-bernstein or "
            "empirical-bernstein"
        )
    r = gate(
        stats,
        systems=(stats.systems[0], stats.systems[1]),
        min_difference=args.min_diff,
        confidence_level=args.confidence,
        method=method,
        bounds=tuple(args.bounds) if args.bounds else None,
        batch=args.batch,
        min_items=args.min_items,
        t_opt=args.t_opt,
    )
    _cli.emit(args, results=[r])
    return r.exit_code


def run_design(args: argparse.Namespace) -> int:
    """``sigfast design``: what an evaluation's design says about its error. Samples per item (repeats,
    epochs, runs): each system's variance split into between and within items with intervals, Miller's
    standard error for the items and repeats run, and the repeats a target error needs
    (``--target-se``); items crossed with prompts (``-o prompt=``): each system's score under each prompt
    with the spread across prompts and the two-way cluster-robust standard error."""
    from .designs import PROMPT_QUANTILES, crossed_standard_error, nested_variance, prompt_scores
    from .exceptions import InputError
    from .executor import MIN_ITEMS
    from .report import Table, render_tables
    from .signature import format_part

    _cli.precheck(args)
    _cli.detect_gold_format(args)
    parsed = _cli.parse_inputs(args, min_systems=1)
    metrics = list(args.metric) if getattr(args, "metric", None) else [None]
    if len(metrics) > 1:
        raise InputError(f"`sigfast design` takes one metric (-m); got {len(metrics)}")
    stats = parsed.statistics(metrics[0])
    names = [str(s) for s in stats.systems]
    prov = stats.provenance or {}
    level = args.confidence
    pct = f"{100 * level:g}%"
    crossed = prov.get("sample_axis") == "prompt"
    tables: list[Any] = []
    data: dict[str, Any] = {"format": format_part(prov), "items": stats.n_items, "systems": names}
    if crossed:
        ps = prompt_scores(stats)
        qs = "/".join(f"{100 * q:g}" for q in PROMPT_QUANTILES)
        tables.append(
            Table(
                ("system", *ps.prompts, f"quantiles {qs}%", "range", "sd"),
                tuple(
                    (
                        s,
                        *(f"{v:.4f}" for v in ps.scores[i]),
                        " ".join(f"{v:.4f}" for v in ps.quantiles[i]),
                        f"{ps.spread[i]:.4f}",
                        f"{ps.sd[i]:.4f}",
                    )
                    for i, s in enumerate(names)
                ),
                title=f"score under each {ps.field} ({len(ps.prompts)} prompts x {stats.n_items} items)",
            )
        )
        data["prompts"] = ps.to_dict()
        rows: list[tuple[str, ...]] = []
        for j in range(1, len(names)):
            se = crossed_standard_error(stats.select(names[0], names[j]), confidence_level=level)
            pj = prompt_scores(stats.select(names[0], names[j]))
            wins = pj.wins or (0, 0, 0)
            rows.append(
                (
                    f"{names[j]} - {names[0]}",
                    f"{se.estimate:+.4f}",
                    f"{se.standard_error:.4f}",
                    f"[{se.confidence_interval[0]:+.4f}, {se.confidence_interval[1]:+.4f}]",
                    f"{se.pvalue:.4g}",
                    f"{wins[1]}/{wins[0]}/{wins[2]}",
                )
            )
            data.setdefault("differences", []).append({"system": names[j], **se.to_dict(), "prompt_wins": wins})
        if rows:
            tables.append(
                Table(
                    ("difference", "estimate", "two-way SE", f"{pct} normal interval", "p", "prompts won/lost/tied"),
                    tuple(rows),
                    notes=(
                        "two-way cluster-robust standard errors over items and prompts (Cameron, Gelbach & Miller "
                        "2011); the crossed bootstrap of the same difference: sigfast compare --resampling crossed",
                        *(
                            (
                                f"warning: only {len(ps.prompts)} prompts: a two-way error (and a crossed bootstrap) "
                                f"leans on so few clusters that it says little (under {MIN_ITEMS})",
                            )
                            if len(ps.prompts) < MIN_ITEMS
                            else ()
                        ),
                    ),
                )
            )
    else:
        nested_rows: list[tuple[str, ...]] = []
        for s in names:
            nv = nested_variance(stats.select(s), confidence_level=level)
            need = ""
            if args.target_se is not None:
                try:
                    need = str(nv.repeats_needed(args.target_se, args.items))
                except InputError as e:
                    need = f"none ({str(e).split(':', 1)[0]})"
            planned = nv.standard_error(args.items, args.repeats)
            nested_rows.append(
                (
                    s,
                    f"{nv.repeats:g}",
                    f"{nv.between:.4g}",
                    f"{nv.within:.4g}",
                    f"{nv.within_share:.3f} [{nv.within_share_interval[0]:.3f}, {nv.within_share_interval[1]:.3f}]",
                    f"{nv.standard_error():.4f}",
                    f"{planned:.4f}",
                    need,
                )
            )
            entry = {"system": s, **nv.to_dict(), "planned_standard_error": planned}
            if need:
                entry["repeats_needed"] = None if not need.isdigit() else int(need)
            data.setdefault("nested", []).append(entry)
        n_plan = stats.n_items if args.items is None else args.items
        k_plan = "the repeats run" if args.repeats is None else f"{args.repeats:g} repeats"
        tables.append(
            Table(
                (
                    "system",
                    "repeats",
                    "σ²_between",
                    "σ²_within",
                    f"within share [{pct}]",
                    "SE",
                    f"SE at {n_plan:g} items, {k_plan}",
                    "repeats for --target-se" if args.target_se is not None else "",
                ),
                tuple(nested_rows),
                notes=(
                    "SE = sqrt((σ²_between + σ²_within/K)/n) (Miller 2024, K answers per question); within share: "
                    "the part of an item value's variance that its repeats add, with its F interval (always in "
                    "[0, 1]); the two-level bootstrap of a difference: sigfast compare --resampling two-level",
                ),
            )
        )
    if not tables:  # pragma: no cover - every branch adds one
        raise InputError("nothing to report")
    _cli.emit(args, text=render_tables(tables, "text"), tables=lambda: tables, data=lambda: data)
    return 0
