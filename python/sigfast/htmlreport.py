"""One page for a whole comparison: ``sigfast report`` and :func:`report`.

The report gathers results that other parts of sigfast compute and renders them; it computes no
statistic of its own. For each metric: :func:`sigfast.leaderboard` (each system's score with its
bootstrap interval, and its standard error and design effect where the metric is a mean of
per-item scores), :func:`sigfast.pairwise` (all pairs on shared resamples, corrected p-values,
rank ranges, significance groups) and :func:`sigfast.gain_threshold`. Where the format has units
(``sigfast info`` lists the views): the oracle's per-label table (:mod:`sigfast.analysis.oracle`)
and, for chosen pairs, Tuggener's diff (:mod:`sigfast.analysis.diff`) with McNemar's test per
label (:func:`sigfast.mcnemar`). Per bucket of item length: each system's metric on the items of
the bucket, and for the chosen pairs the paired bootstrap (:func:`sigfast.paired_bootstrap`) on
them. For the chosen pairs: the items whose scores (the reference scorer's per-item score) differ
most, with gold and both outputs.

The page (:mod:`sigfast._html`) is one self-contained HTML file: inline styles, script and SVG
figures, nothing fetched. Its data is one JSON document (:meth:`Report.to_dict`); every number on
the page carries its path in that document.
"""

from __future__ import annotations

import math
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _native
from ._api import checked_keywords
from ._html import esc, fmt, num, table
from .engine.options import DEFAULT_CONFIDENCE, DEFAULT_SEED
from .exceptions import InputError
from .results.base import Key, Result

__all__ = ["Report", "build_report", "report"]

#: item-length buckets (units or words per item), as compare-mt's sentence-length buckets
BUCKETS = ((1, 9), (10, 19), (20, 29), (30, 39), (40, None))
REPORT_VERSION = 1
#: the pairs shown without ``pairs``: each of the first six systems of the ranking with the next
DEFAULT_PAIRS = 5


@dataclass(frozen=True)
class Report(Result):
    """A whole comparison gathered for one page: ``data`` is the JSON document (:meth:`to_dict`);
    ``format("html")`` is the page, ``format("text")`` the leaderboards as text."""

    data: dict[str, Any] = field(repr=False)
    signature: str = ""

    _keys = (Key("*", "data"),)  # to_dict() is the document itself

    def rows(self) -> list[dict[str, Any]]:
        if "ratings" in self.data:
            return list(self.data["ratings"]["models"])
        return [
            {"metric": m["metric"], **{k: v for k, v in row.items()}}
            for m in self.data["metrics"]
            for row in m["table"]
        ]

    def tables(self) -> list[Any]:
        from .results.report import Table

        if "ratings" in self.data:
            return [Table(("battles",), ((self.data["ratings"]["n_battles"],),), title=self.data["title"])]
        out = []
        for m in self.data["metrics"]:
            sc = m["display_scale"]
            rows = tuple(
                (
                    r["rank"],
                    r["system"],
                    fmt(r["score"], _ff(m), sc),
                    f"[{fmt(r['low'], _ff(m), sc)}, {fmt(r['high'], _ff(m), sc)}]",
                    f"{r['rank_low']}-{r['rank_high']}",
                    r["group"],
                )
                for r in m["table"]
            )
            out.append(
                Table(
                    (
                        "rank",
                        "system",
                        m["metric"],
                        f"{_pct(self.data['settings']['confidence_level'])} interval",
                        "ranks",
                        "group",
                    ),
                    rows,
                    title=f"Leaderboard: {m['metric']}",
                    notes=(f"pair tests: {m['pairwise']['signature']}",),
                    signature=self.signature,
                )
            )
        return out

    def _report(self, style: str) -> str:
        if style == "html":
            return render_battles(self.data) if "ratings" in self.data else render(self.data)
        return super()._report(style)


def _pct(cl: float) -> str:
    return f"{100 * cl:g}%"


# --------------------------------------------------------------------------------------------
# gathering


@checked_keywords
def report(
    gold: Any,
    systems: Sequence[Any] = (),
    *,
    format: str = "auto",
    metrics: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    n_resamples: int = 100_000,
    interval_resamples: int = 10_000,
    seed: int = DEFAULT_SEED,
    stream: int | None = None,
    confidence_level: float = DEFAULT_CONFIDENCE,
    correction: str = "holm",
    alpha: float = 0.05,
    pairs: Sequence[tuple[str, str]] = (),
    top_items: int = 10,
    band: tuple[float, float] = (0.04, 0.06),
    percentile: float = 95.0,
    title: str | None = None,
    tasks: Sequence[str] = (),
    n_threads: int | None = None,
    **options: Any,
) -> Report:
    """The report of a comparison: ``gold`` and ``systems`` files in ``format`` (any format;
    ``gold=None`` for per-item files or a folder of LLM logs), one or more ``metrics`` (default:
    the format's headline metric). ``n_resamples``: the pair tests' resamples;
    ``interval_resamples``: each system's bootstrap interval's (10,000, as ``sigfast interval``).
    ``pairs``: the pairs of systems shown in the pair views (default: each of the first six systems of
    the first metric's ranking with the next). ``tasks``: LLM logs of several tasks: a table of each
    system's score, cluster-robust standard error and design effect per task (the other sections show
    ``task``, or the first of ``tasks``). ``options``: the format's options (``cluster="pair"``, ...).
    ``report(...).format("html")`` is the page, ``.to_json()`` its data. ``format="battles"``: ``gold`` is a
    battle file and the report shows :func:`sigfast.bradley_terry`'s ratings (:func:`battles_report`)."""
    from .cli.common import _runs
    from .formats import parse

    if format == "battles":
        if systems:
            raise InputError("format 'battles' takes one battle file (gold=), no system files")
        return battles_report(gold, level=confidence_level, title=title, **options)

    systems = _runs(format, [str(s) for s in systems])  # a folder of LLM runs: its runs, as the CLI reads it
    if not systems:
        raise InputError("give at least two system files")
    tasks = list(tasks)
    if tasks and "task" not in options:
        options["task"] = tasks[0]
    only = [m for m in metrics or () if m] or None  # a format that can (mt) computes only the metrics shown
    parsed = parse(format, gold, systems, names=names, only_metrics=only, **options)
    per_task = [
        (
            t,
            parsed
            if t == options["task"]
            else parse(format, gold, systems, names=names, only_metrics=only, **{**options, "task": t}),
        )
        for t in tasks
    ]
    return build_report(
        parsed,
        per_task=per_task,
        gold_paths=[] if gold is None else ([gold] if isinstance(gold, (str, os.PathLike)) else list(gold)),
        system_paths=systems,
        metrics=list(metrics) if metrics else [None],
        n_resamples=n_resamples,
        interval_resamples=interval_resamples,
        seed=seed,
        stream=stream,
        confidence_level=confidence_level,
        correction=correction,
        alpha=alpha,
        pairs=[tuple(p) for p in pairs],
        top_items=top_items,
        band=band,
        percentile=percentile,
        title=title,
        n_threads=n_threads,
        command=None,
    )


def build_report(
    parsed: Any,
    *,
    gold_paths: Sequence[Any],
    system_paths: Sequence[str],
    metrics: Sequence[str | None],
    n_resamples: int,
    interval_resamples: int,
    seed: int,
    stream: int | None,
    confidence_level: float,
    correction: str,
    alpha: float,
    pairs: Sequence[tuple[str, str]],
    top_items: int,
    band: tuple[float, float],
    percentile: float,
    title: str | None,
    n_threads: int | None,
    command: Sequence[str] | None,
    per_task: Sequence[tuple[str, Any]] = (),
) -> Report:
    """The report of a parse (:class:`sigfast.formats.Parsed`): what :func:`report` and ``sigfast report``
    run. ``command``: the command line that made it (shown under "How to reproduce")."""
    from .inference.errorbars import leaderboard
    from .inference.pairwise import gain_threshold, pairwise

    names = list(parsed.names)
    if len(names) < 2:
        raise InputError("a report compares at least two systems")
    for a, b in pairs:
        for s in (a, b):
            if s not in names:
                raise InputError(f"--pair {a},{b}: no system {s!r}; the systems are {', '.join(names)}")
        if a == b:
            raise InputError(f"--pair {a},{b}: a pair is two different systems")
    needs_gold = parsed.spec.needs_gold
    out_metrics = []
    stats_of = {}
    for metric in metrics:
        stats = parsed.statistics(metric)
        mname = None if needs_gold else metric
        lb = leaderboard(
            stats,
            metric=mname,
            confidence_level=confidence_level,
            n_resamples=interval_resamples,
            seed=seed,
            stream=stream,
            pairs="none",
            n_threads=n_threads,
        )
        pw = pairwise(
            stats,
            metric=mname,
            n_resamples=n_resamples,
            seed=seed,
            stream=stream,
            correction=correction,
            alpha=alpha,
            n_threads=n_threads,
        )
        ths = gain_threshold(pw, band=band, percentile=percentile)
        lbd = lb.to_dict()
        pwd = pw.to_dict()
        group_of = {s: k + 1 for k, g in enumerate(pwd["clusters"]) for s in g}
        rows = []
        for r in lbd["models"]:
            s = r["system"]
            rows.append(
                {
                    "rank": r["rank"],
                    "system": s,
                    "score": r["score"],
                    "low": r.get("bootstrap_low"),
                    "high": r.get("bootstrap_high"),
                    "se": r.get("se"),
                    "design_effect": r.get("design_effect"),
                    "rank_low": pwd["rank_ranges"][s][0],
                    "rank_high": pwd["rank_ranges"][s][1],
                    "group": group_of.get(s),
                }
            )
        key = lbd["metric"]
        stats_of[key] = (stats, pw)
        out_metrics.append(
            {
                "metric": key,
                "label": stats.metric_label or key,
                "display_scale": int(pw.display_scale),
                "higher_is_better": bool(pw.higher_is_better),
                "table": rows,
                "leaderboard": lbd,
                "pairwise": pwd,
                "order": [names[i] for i in pw.order()],
                "comparisons": pw.comparisons(),
                "thresholds": [t.to_dict() for t in ths],
                "significant": np.asarray(pw.significance()).tolist(),
            }
        )
    first = out_metrics[0]
    order = first["order"]
    if not pairs:  # each of the first systems with the next (the closest calls at the top)
        top = order[: DEFAULT_PAIRS + 1]
        pairs = [(top[k], top[k + 1]) for k in range(len(top) - 1)]
    pairs = list(dict.fromkeys(pairs))

    units = None
    if needs_gold and parsed.reports[0].views:
        units = parsed.units(None)
    labels = _labels(units) if units is not None else None
    frequency = _frequency(units) if units is not None and units.gold_present is None else None
    lengths = _item_lengths(parsed, units, gold_paths)
    if lengths is not None and len(lengths) != stats_of[first["metric"]][0].n_items:
        lengths = None  # items are not sentences (documents, say): no length buckets
    buckets = _buckets(out_metrics, stats_of, lengths) if lengths is not None else None
    item_scores = _item_scores(parsed, first["metric"], stats_of[first["metric"]][0])
    texts = _item_texts(parsed, gold_paths, system_paths)
    pair_views = []
    for a, b in pairs:
        view: dict[str, Any] = {"a": a, "b": b}
        if units is not None:
            view["diff"] = _diff(units, a, b)
        if buckets is not None:
            view["buckets"] = _bucket_tests(
                stats_of[first["metric"]][0],
                first["metric"],
                lengths,
                a,
                b,
                interval_resamples,
                seed,
                stream,
                n_threads,
            )
        if item_scores is not None:
            view["items"] = _top_items(parsed, item_scores, units, texts, a, b, top_items)
        pair_views.append(view)
    tasks = _tasks(per_task, metrics[0], names, confidence_level) if per_task else None
    data = {
        "sigfast_report": REPORT_VERSION,
        "version": _native.__version__,
        "title": title or f"sigfast report: {len(names)} systems, {', '.join(m['label'] for m in out_metrics)}",
        "format": parsed.format,
        "gold": [str(g) for g in gold_paths],
        "systems": names,
        "n_items": int(stats_of[first["metric"]][0].n_items),
        "settings": {
            "n_resamples": n_resamples,
            "interval_resamples": interval_resamples,
            "seed": seed,
            "stream": stream,
            "confidence_level": confidence_level,
            "correction": correction,
            "alpha": alpha,
            "band": list(band),
            "percentile": percentile,
            "top_items": top_items,
        },
        "metrics": out_metrics,
        "labels": labels,
        "buckets": buckets,
        "frequency": frequency,
        "pairs": pair_views,
        "tasks": tasks,
        "reproduce": _reproduce(
            parsed,
            gold_paths,
            system_paths,
            out_metrics,
            pairs,
            n_resamples,
            interval_resamples,
            seed,
            correction,
            alpha,
            command,
        ),
    }
    from .results.signature import build, hash_data

    sig = build(
        "report",
        stats=stats_of[first["metric"]][0],
        metric=[m["metric"] for m in out_metrics],
        B=n_resamples,
        seed=seed,
        stream=stream,
        conf=confidence_level,
        correction=f"{correction}@{alpha:g}",
        intervals=interval_resamples,
        gain=f"{band[0]:g}-{band[1]:g}@{percentile:g}",
        pairs=hash_data([list(p) for p in pairs]),
        top=top_items,
        tasks=",".join(t for t, _ in per_task) or None,
    )
    data["signature"] = sig
    return Report(data=_plain(data), signature=sig)


def _plain(v: Any) -> Any:
    """JSON-ready values: numpy scalars as Python numbers, non-finite floats as None."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return _plain(v.tolist())
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else None
    return v


def _tasks(per_task: Sequence[tuple[str, Any]], metric: str | None, names: list[str], cl: float) -> dict[str, Any]:
    """Each system's score with its standard error (cluster-robust where the items are clustered) and
    design effect on each task: :func:`sigfast.leaderboard`'s normal intervals, task by task."""
    from .inference.errorbars import leaderboard

    out = []
    for task, parsed in per_task:
        if list(parsed.names) != names:
            raise InputError(f"task {task!r}: the systems are {', '.join(parsed.names)}, not {', '.join(names)}")
        stats = parsed.statistics(metric)
        lb = leaderboard(
            stats,
            metric=None if parsed.spec.needs_gold else metric,
            confidence_level=cl,
            bootstrap=False,
            pairs="none",
        )
        d = lb.to_dict()
        by = {r["system"]: r for r in d["models"]}
        out.append(
            {
                "task": task,
                "metric": d["metric"],
                "n_items": d["n_items"],
                "n_clusters": d["n_clusters"],
                "cluster_field": d["cluster_field"],
                "display_scale": int(lb.display_scale),
                "systems": [
                    {k: by[s].get(k) for k in ("score", "se", "se_iid", "design_effect", "normal_low", "normal_high")}
                    for s in names
                ],
                "signature": d["signature"],
            }
        )
    return {"tasks": out}


def _labels(units: Any) -> dict[str, Any]:
    """The oracle's per-label table: each system's accuracy on the units of each gold label."""
    from .analysis.oracle import oracle_units

    o = oracle_units(units)
    rows = []
    for (lab, count, _best, oracle), per in zip(o.labels, o.label_correct):
        rows.append({"label": lab, "count": count, "correct": list(per), "oracle_correct": oracle})
    return {
        "view": o.view,
        "group_name": o.group_name,
        "systems": list(o.names),
        "n_units": o.n_units,
        "correct": list(o.correct),
        "oracle_correct": o.oracle_correct,
        "rows": rows,
        "signature": o.signature,
    }


#: word-frequency buckets: how often the unit's gold word occurs in the gold file (compare-mt's buckets
#: count a training set's words; a report has only the test set)
FREQUENCY_BUCKETS = ((1, 1), (2, 4), (5, 19), (20, 99), (100, None))


def _frequency(units: Any) -> dict[str, Any] | None:
    """Each system's correct units among the units whose gold word occurs a given number of times in the
    gold file (case folded): a token view's accuracy by word frequency."""
    from collections import Counter

    if len(units.forms) != units.n_units:
        return None
    words = [f.lower() for f in units.forms]
    count = Counter(words)
    freq = np.array([count[w] for w in words])
    out = []
    for lo, hi in FREQUENCY_BUCKETS:
        sel = (freq >= lo) & ((freq <= hi) if hi is not None else True)
        if not sel.any():
            continue
        out.append(
            {
                "bucket": f"{lo}–{hi}" if hi is not None and hi != lo else (f"{lo}" if hi == lo else f"{lo}+"),
                "n_units": int(sel.sum()),
                "correct": [int(np.sum(s[sel] == units.gold[sel])) for s in units.systems],
            }
        )
    return {"view": units.view, "systems": list(units.names), "buckets": out}


def _item_lengths(parsed: Any, units: Any, gold_paths: Sequence[Any]) -> np.ndarray | None:
    """Each item's length: gold units per sentence (formats with token views), or words of the first
    reference line (line-aligned text formats); None where items have no length."""
    if units is not None and units.gold_present is None:  # a token view: one unit per gold word
        return np.bincount(units.sentence, minlength=units.n_sentences)
    if parsed.format == "mt" and gold_paths:
        from .formats.mt import read_segments

        return np.array([len(line.split()) for line in read_segments(gold_paths[0], "reference")])
    return None


def _bucket_of(lengths: np.ndarray) -> list[tuple[str, np.ndarray]]:
    out = []
    for lo, hi in BUCKETS:
        sel = (lengths >= lo) & ((lengths <= hi) if hi is not None else True)
        if sel.any():
            out.append((f"{lo}–{hi}" if hi is not None else f"{lo}+", np.flatnonzero(sel)))
    return out


def _buckets(out_metrics: list[dict[str, Any]], stats_of: dict[str, Any], lengths: np.ndarray) -> dict[str, Any]:
    """Each system's score on the items of each length bucket (the metric on the bucket's items)."""
    from .metrics import observed, resolve_metric

    res: dict[str, Any] = {"unit": "words per item", "buckets": [], "metrics": []}
    parts = _bucket_of(lengths)
    res["buckets"] = [{"bucket": name, "n_items": len(idx)} for name, idx in parts]
    for m in out_metrics:
        stats = stats_of[m["metric"]][0]
        if len(lengths) != stats.n_items:
            return {}
        metric = resolve_metric(None, stats)
        scores = [[float(v) for v in observed(metric, stats.take(idx))] for _name, idx in parts]
        res["metrics"].append({"metric": m["metric"], "display_scale": m["display_scale"], "scores": scores})
    return res


def _bucket_tests(
    stats: Any, metric: str, lengths: np.ndarray, a: str, b: str, B: int, seed: int, stream: Any, n_threads: Any
) -> list[dict[str, Any]]:
    """The paired bootstrap of b against a on each bucket's items."""
    from .inference.significance import paired_bootstrap

    out = []
    two = stats.select(a, b)
    for name, idx in _bucket_of(lengths):
        r = paired_bootstrap(two.take(idx), n_resamples=B, seed=seed, stream=stream, n_threads=n_threads)
        out.append(
            {"bucket": name, "n_items": len(idx), "delta": r.statistic, "pvalue": r.pvalue, "signature": r.signature}
        )
    return out


def _diff(units: Any, a: str, b: str) -> dict[str, Any]:
    """Tuggener's diff of the pair, and McNemar's test per gold label on the units' correctness."""
    from .analysis.diff import diff_units
    from .inference.classical import mcnemar

    units = _two(units, a, b)  # the units of `sigfast diff GOLD A B`: its signature hashes these
    d = diff_units(units, 0, 1, top_k=10).to_dict()
    g = units.gold
    ca, cb = units.systems[0] == g, units.systems[1] == g
    grp = g if units.groups is None else units.groups
    mask = np.ones(len(g), bool) if units.gold_present is None else units.gold_present
    tests = []
    for row in d["labels"]["rows"]:  # the units label_accuracy counts
        sel = mask & (grp == row["label"])
        t = mcnemar(ca[sel].astype(np.int8), cb[sel].astype(np.int8))
        tests.append({"label": row["label"], "pvalue": t.pvalue})
    d["mcnemar"] = tests
    return d


def _two(units: Any, a: str, b: str) -> Any:
    """The units of systems ``a`` and ``b`` alone, as reading gold, a and b gives them: for set views
    (spans, brackets), the units only other systems proposed are left out."""
    from dataclasses import replace

    i, j = units.names.index(a), units.names.index(b)
    sa, sb = units.systems[i], units.systems[j]
    two = replace(units, names=(a, b), systems=(sa, sb))
    if units.gold_present is None:
        return two
    keep = units.gold_present | (sa != units.gold) | (sb != units.gold)
    forms = tuple(f for f, k in zip(units.forms, keep) if k) if len(units.forms) == len(keep) else units.forms
    return replace(
        two,
        gold=units.gold[keep],
        systems=(sa[keep], sb[keep]),
        sentence=units.sentence[keep],
        forms=forms,
        gold_present=units.gold_present[keep],
        groups=None if units.groups is None else units.groups[keep],
    )


def _item_scores(parsed: Any, metric: str, stats: Any) -> np.ndarray | None:
    """Each system's score on each item alone (systems × items): the reference scorer's per-item score
    where the format gives one, else a mean metric's per-item values; None where there is none."""
    from .inference.errorbars import item_scores
    from .metrics import resolve_metric

    if parsed.spec.join is None and parsed.spec.needs_gold:
        try:
            key = metric if metric in parsed.reports[0].stats else parsed.reports[0].default_metric
            return np.stack([r.stats[key].item_scores() for r in parsed.reports])
        except (InputError, KeyError):
            pass
    try:
        return item_scores(stats, resolve_metric(None, stats))
    except InputError:
        return None


def _item_texts(parsed: Any, gold_paths: Sequence[Any], system_paths: Sequence[str]) -> dict[str, list[str]] | None:
    """The lines of line-aligned text formats (MT, summaries): gold's and each system's."""
    if parsed.format != "mt" or not gold_paths:
        return None
    from .cli.common import path_of
    from .formats.mt import read_segments

    out = {"gold": read_segments(gold_paths[0], "reference")}
    for name, p in zip(parsed.names, system_paths):
        out[name] = read_segments(path_of(p))
    return out


def _top_items(parsed: Any, scores: np.ndarray, units: Any, texts: Any, a: str, b: str, k: int) -> dict[str, Any]:
    names = list(parsed.names)
    i, j = names.index(a), names.index(b)
    delta = scores[j] - scores[i]
    with np.errstate(invalid="ignore"):
        order = np.argsort(-np.abs(np.nan_to_num(delta)), kind="stable")[:k]
    ids = parsed.reports[0].item_ids
    items = []
    for n in order:
        n = int(n)
        it: dict[str, Any] = {
            "item": n + 1,
            "id": ids[n] if ids else None,
            "score_a": float(scores[i, n]),
            "score_b": float(scores[j, n]),
            "delta": float(delta[n]),
        }
        if units is not None and n < units.n_sentences:
            sel = np.flatnonzero(units.sentence == n)
            ua, ub = units.systems[i][sel], units.systems[j][sel]
            it["tokens"] = [
                [units.forms[u] if u < len(units.forms) else "", str(units.gold[u]), str(x), str(y)]
                for u, x, y in zip(sel, ua, ub)
            ]
        elif texts is not None:
            it["gold"], it["output_a"], it["output_b"] = texts["gold"][n], texts[a][n], texts[b][n]
        items.append(it)
    return {"view": units.view if units is not None else None, "items": items}


def _reproduce(
    parsed: Any,
    gold_paths: Sequence[Any],
    system_paths: Sequence[str],
    out_metrics: list[dict[str, Any]],
    pairs: Sequence[tuple[str, str]],
    B: int,
    Bi: int,
    seed: int,
    correction: str,
    alpha: float,
    command: Sequence[str] | None,
) -> list[dict[str, str]]:
    """The commands that give this report's numbers (``sigfast report`` itself first)."""
    fmt_args = ["-f", parsed.format] + [a for k, v in _options(parsed) for a in ("-o", f"{k}={v}")]
    if len(gold_paths) > 1:  # several references: --ref each
        fmt_args += [a for g in gold_paths for a in ("--ref", str(g))]
        files = list(system_paths)
    else:
        files = [str(g) for g in gold_paths] + list(system_paths)
    ms = [a for m in out_metrics for a in ("-m", m["metric"])]
    out = []
    if command:
        out.append({"what": "this report", "command": shlex.join(command)})
    out.append(
        {
            "what": "pair tests, rank ranges and groups (JSON)",
            "command": shlex.join(
                ["sigfast", "pairwise", *fmt_args, *files, *ms, "-n", str(B), "--seed", str(seed)]
                + ["--correction", correction, "--alpha", f"{alpha:g}", "--json"]
            ),
        }
    )
    out.append(
        {
            "what": "each system's interval (JSON)",
            "command": shlex.join(
                ["sigfast", "interval", *fmt_args, *files, *ms, "-n", str(Bi), "--seed", str(seed), "--json"]
            ),
        }
    )
    if parsed.spec.needs_gold and parsed.reports[0].views:
        out.append(
            {
                "what": "per-label accuracy and the oracle",
                "command": shlex.join(["sigfast", "oracle", *fmt_args, *files]),
            }
        )
        name_of = dict(zip(parsed.names, system_paths))
        for a, b in pairs[:1]:
            out.append(
                {
                    "what": f"Tuggener's diff of {a} and {b}",
                    "command": shlex.join(["sigfast", "diff", *fmt_args, files[0], name_of[a], name_of[b]]),
                }
            )
    return out


def _options(parsed: Any) -> list[tuple[str, Any]]:
    """The format options given (those that differ from the defaults)."""
    out = []
    for o in parsed.spec.options:
        v = parsed.options.get(o.name, o.default)
        if o.name in parsed.options and v != o.default:
            out.append((o.name, v))
    return out


# --------------------------------------------------------------------------------------------
# rendering


def _ff(m: dict[str, Any], sign: str = "") -> str:
    """The format of a metric's scores as shown (as the text reports: two decimals for fractions shown
    ×100 and for scores from 10 up, four otherwise)."""
    big = m["display_scale"] == 100 or max(abs(r["score"]) for r in m["table"]) >= 10
    return f"{sign}.2f" if big else f"{sign}.4f"


def _pf(p: float | None) -> str:
    return ".2e" if p is not None and p < 1e-4 else ".4f"


def render(d: dict[str, Any]) -> str:
    """The report's page body (the ``html`` style puts the document around it)."""
    parts = [f"<header><h1>{esc(d['title'])}</h1>", _summary(d), "</header>", _toc(d)]
    parts.append('<section id="leaderboard"><h2>Leaderboard</h2>')
    for k, m in enumerate(d["metrics"]):
        parts.append(_leaderboard(d, k, m))
    parts.append("</section>")
    parts.append('<section id="pvalues"><h2>Pair p-values (corrected)</h2>')
    for k, m in enumerate(d["metrics"]):
        parts.append(_heatmap(d, k, m))
    parts.append("</section>")
    parts.append('<section id="gain"><h2>Confidence against gain</h2>')
    for k, m in enumerate(d["metrics"]):
        parts.append(_gain(d, k, m))
    parts.append("</section>")
    if d.get("labels"):
        parts.append(_labels_html(d))
    if d.get("buckets") or d.get("frequency"):
        parts.append(_buckets_html(d))
    if d.get("tasks"):
        parts.append(_tasks_html(d))
    if d.get("pairs"):
        parts.append(_pairs_html(d))
    parts.append(_signatures(d))
    parts.append(_reproduce_html(d))
    return "\n".join(parts)


def _summary(d: dict[str, Any]) -> str:
    s = d["settings"]
    return (
        f"<p>{len(d['systems'])} systems on {num(d['n_items'], 'n_items', 'd')} items, format "
        f"<code>{esc(d['format'])}</code>; pair tests: paired bootstrap, "
        f"B = {num(s['n_resamples'], 'settings/n_resamples', ',d')}, "
        f"{esc(s['correction'])} correction at α = {num(s['alpha'], 'settings/alpha', 'g')}; intervals: "
        f"{num(s['confidence_level'], 'settings/confidence_level', 'g', 100)}% bootstrap, B = "
        f"{num(s['interval_resamples'], 'settings/interval_resamples', ',d')}; "
        f"seed {num(s['seed'], 'settings/seed', 'd')}. "
        f"sigfast {esc(d['version'])}.</p>"
    )


def _toc(d: dict[str, Any]) -> str:
    links = [("leaderboard", "Leaderboard"), ("pvalues", "p-values"), ("gain", "Confidence vs gain")]
    if d.get("labels"):
        links.append(("labels", "Per label"))
    if d.get("buckets") or d.get("frequency"):
        links.append(("buckets", "Per bucket"))
    if d.get("tasks"):
        links.append(("tasks", "Per task"))
    if d.get("pairs"):
        links.append(("pairs", "Pairs"))
    links += [("signatures", "Signatures"), ("reproduce", "How to reproduce")]
    return '<nav class="toc" aria-label="sections">' + "".join(f'<a href="#{i}">{t}</a>' for i, t in links) + "</nav>"


def _leaderboard(d: dict[str, Any], k: int, m: dict[str, Any]) -> str:
    sc, f = m["display_scale"], _ff(m)
    base = f"metrics/{k}/table"
    has_se = any(r["se"] is not None for r in m["table"])
    has_deff = any(r["design_effect"] is not None for r in m["table"])
    cl = _pct(d["settings"]["confidence_level"])
    head = ["rank", "system", esc(m["label"]) + (" (×100)" if sc == 100 else ""), f"{cl} interval"]
    if has_se:
        head.append("SE")
    if has_deff:
        head.append("design effect")
    head += ["rank range", "group"]
    rows, sv = [], []
    for r_i, r in enumerate(m["table"]):
        p = f"{base}/{r_i}"
        cells = [
            num(r["rank"], f"{p}/rank", "d"),
            esc(r["system"]),
            num(r["score"], f"{p}/score", f, sc),
            f"[{num(r['low'], f'{p}/low', f, sc)}, {num(r['high'], f'{p}/high', f, sc)}]",
        ]
        vals: list[Any] = [r["rank"], r["system"], r["score"], r["low"]]
        if has_se:
            cells.append(num(r["se"], f"{p}/se", ".4g", sc))
            vals.append(r["se"])
        if has_deff:
            cells.append(num(r["design_effect"], f"{p}/design_effect", ".2f"))
            vals.append(r["design_effect"])
        cells += [
            f"{num(r['rank_low'], f'{p}/rank_low', 'd')}–{num(r['rank_high'], f'{p}/rank_high', 'd')}",
            num(r["group"], f"{p}/group", "d"),
        ]
        vals += [r["rank_low"], r["group"]]
        rows.append(cells)
        sv.append(vals)
    numeric = [True, False, True, True] + [True] * (has_se + has_deff) + [True, True]
    groups = m["pairwise"]["clusters"]
    lb = m["leaderboard"]
    cap = (
        f"{esc(m['label'])}: score, {cl} bootstrap interval ({esc(lb.get('method') or '')}), rank range and "
        f"significance group ({len(groups)} group{'s' if len(groups) != 1 else ''})"
    )
    if lb.get("n_clusters"):
        cap += f"; {lb['n_clusters']} clusters ({esc(lb.get('cluster_field'))}): standard errors cluster-robust"
    notes = "".join(
        f"<p class=note>warning: {esc(w)}</p>" for w in [*lb.get("warnings", []), *m["pairwise"].get("warnings", [])]
    )
    return (
        f'<section class="metric"><h3 id="lb-{k}">{esc(m["label"])}</h3>'
        + _errorbars_svg(d, k, m)
        + table(head, rows, caption=cap, sort_values=sv, numeric=numeric)
        + notes
        + f'<p class="sig">intervals: <code>{esc(lb["signature"])}</code><br>ranks and groups: '
        f"<code>{esc(m['pairwise']['signature'])}</code></p></section>"
    )


def _errorbars_svg(d: dict[str, Any], k: int, m: dict[str, Any]) -> str:
    """Each system's score and interval, best first: dots with horizontal bars."""
    sc = m["display_scale"]
    rows = m["table"]
    vals = [v for r in rows for v in (r["low"], r["high"], r["score"]) if v is not None]
    lo, hi = min(vals) * sc, max(vals) * sc
    pad = (hi - lo) * 0.05 or 1.0
    lo, hi = lo - pad, hi + pad
    left, width, rowh = 190, 520, 16
    h = rowh * len(rows) + 40

    def x(v: float) -> float:
        return left + (v * sc - lo) / (hi - lo) * width

    g = []
    for n, r in enumerate(rows):
        y = 20 + n * rowh + rowh / 2
        shade = "#d9d9d9" if (r["group"] or 0) % 2 == 0 else "#ffffff"
        g.append(f'<rect x="0" y="{y - rowh / 2:.1f}" width="{left + width + 10}" height="{rowh}" fill="{shade}"/>')
        g.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{esc(r["system"])}</text>')
        if r["low"] is not None and r["high"] is not None:
            g.append(
                f'<line x1="{x(r["low"]):.1f}" x2="{x(r["high"]):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                'stroke="#1f1f1f" stroke-width="2"/>'
            )
        g.append(
            f'<circle cx="{x(r["score"]):.1f}" cy="{y:.1f}" r="3.5" fill="#1f4e99"><title>{esc(r["system"])}: '
            f"{fmt(r['score'], _ff(m), sc)} [{fmt(r['low'], _ff(m), sc)}, {fmt(r['high'], _ff(m), sc)}], "
            f"ranks {r['rank_low']}–{r['rank_high']}, group {r['group']}</title></circle>"
        )
    ticks = _ticks(lo, hi)
    for t in ticks:
        xx = left + (t - lo) / (hi - lo) * width
        g.append(f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="14" y2="{h - 20}" stroke="#bbb" stroke-dasharray="2,3"/>')
        g.append(f'<text x="{xx:.1f}" y="{h - 6}" text-anchor="middle" font-size="10">{t:g}</text>')
    best, worst = rows[0], rows[-1]
    alt = (
        f"Error bars of {len(rows)} systems on {m['label']}, best first: {best['system']} "
        f"{fmt(best['score'], _ff(m), sc)} down to {worst['system']} {fmt(worst['score'], _ff(m), sc)}; "
        f"alternate grey bands mark the {_groups(m)}. "
        "The table below holds every value."
    )
    return (
        f'<figure><svg role="img" aria-labelledby="eb-{k}" width="{left + width + 20}" height="{h}" '
        f'viewBox="0 0 {left + width + 20} {h}" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="eb-{k}">{esc(alt)}</title>' + "".join(g) + f"</svg><figcaption>{esc(alt)}</figcaption></figure>"
    )


def _groups(m: dict[str, Any]) -> str:
    n = len({r["group"] for r in m["table"]})
    word = m.get("group_word", "significance group")
    return f"{n} {word}{'s' if n != 1 else ''}"


def _ticks(lo: float, hi: float, n: int = 6) -> list[float]:
    span = hi - lo
    if span <= 0:
        return [lo]
    step = 10 ** math.floor(math.log10(span / n))
    for mult in (1, 2, 5, 10):
        if span / (step * mult) <= n:
            step *= mult
            break
    start = math.ceil(lo / step) * step
    return [round(start + i * step, 10) for i in range(int((hi - start) / step) + 1)]


#: a sequential palette (viridis's anchors): lightness rises from dark to light, so it reads in
#: greyscale and for red-green colour blindness
_PALETTE = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))


def _colour(t: float) -> str:
    t = min(1.0, max(0.0, t))
    pos = t * (len(_PALETTE) - 1)
    i = min(int(pos), len(_PALETTE) - 2)
    f = pos - i
    c = [round(a + (b - a) * f) for a, b in zip(_PALETTE[i], _PALETTE[i + 1])]
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _heatmap(d: dict[str, Any], k: int, m: dict[str, Any]) -> str:
    pw = m["pairwise"]
    names = d["systems"]
    idx = {s: i for i, s in enumerate(names)}
    order = [idx[s] for s in m["order"]]
    adj = pw["adjusted"]
    alpha = pw["alpha"]
    finite = [adj[i][j] for i in order for j in order if i != j and adj[i][j] is not None]
    pmin = max(min([*finite, alpha / 10]), 1e-300)  # the scale always shows alpha
    lmin = math.log10(pmin)

    def t_of(p: float) -> float:
        return 0.0 if lmin == 0 else (math.log10(max(p, pmin)) - lmin) / (0 - lmin)

    n = len(order)
    cell = 22 if n <= 30 else max(6, 660 // n)
    longest = max(len(s) for s in names)
    margin = min(200, 7 * longest + 10)
    size = margin + n * cell
    g = []
    for r, i in enumerate(order):
        y = margin + r * cell
        g.append(
            f'<text x="{margin - 4}" y="{y + cell * 0.7:.1f}" text-anchor="end" font-size="11">{esc(names[i])}</text>'
        )
        g.append(
            f'<text transform="translate({margin + r * cell + cell * 0.65:.1f},{margin - 4}) rotate(-60)" '
            'font-size="11">'
            f"{esc(names[i])}</text>"
        )
        for c, j in enumerate(order):
            x = margin + c * cell
            if i == j:
                g.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#ffffff" stroke="#999"/>')
                continue
            p = adj[i][j]
            colour = "#ffffff" if p is None else _colour(t_of(p))
            star = p is not None and m["significant"][i][j]
            label = f"{names[j]} vs {names[i]}: corrected p = {'undefined' if p is None else fmt(p, _pf(p))}" + (
                " (significant)" if star else ""
            )
            g.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{colour}" stroke="#fff">'
                f"<title>{esc(label)}</title></rect>"
            )
            if star and cell >= 12:
                light = t_of(p) > 0.55
                g.append(
                    f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.75:.1f}" text-anchor="middle" font-size="12" '
                    f'fill="{"#000" if light else "#fff"}" aria-hidden="true">*</text>'
                )
    # the colour bar
    bar_x = size + 30
    for s in range(50):
        g.append(
            f'<rect x="{bar_x}" y="{margin + s * (n * cell) / 50:.1f}" width="14" height="{(n * cell) / 50 + 0.5:.1f}" '
            f'fill="{_colour(s / 49)}"/>'
        )
    g.append(f'<text x="{bar_x + 18}" y="{margin + 10}" font-size="10">p = {fmt(pmin, ".0e")}</text>')
    g.append(f'<text x="{bar_x + 18}" y="{margin + n * cell}" font-size="10">p = 1</text>')
    ya = margin + t_of(alpha) * n * cell
    g.append(f'<line x1="{bar_x - 3}" x2="{bar_x + 17}" y1="{ya:.1f}" y2="{ya:.1f}" stroke="#d00" stroke-width="2"/>')
    g.append(f'<text x="{bar_x + 18}" y="{ya + 4:.1f}" font-size="10">α = {alpha:g}</text>')
    width = bar_x + 90
    n_sig = sum(1 for i in range(len(names)) for j in range(i + 1, len(names)) if m["significant"][i][j])
    n_pairs = len(names) * (len(names) - 1) // 2
    alt = (
        f"Heat map of the {pw['correction']}-corrected p-values of all {n_pairs} pairs on {m['label']}, systems best "
        f"first; darker is a smaller p-value (log scale from {fmt(pmin, '.0e')} to 1), * marks the {n_sig} pairs "
        f"significant at α = {alpha:g}. Every value is in the table below."
    )
    svg = (
        f'<figure><svg role="img" aria-labelledby="hm-{k}" width="{width}" height="{size + 10}" '
        f'viewBox="0 0 {width} {size + 10}" xmlns="http://www.w3.org/2000/svg"><title id="hm-{k}">{esc(alt)}</title>'
        + "".join(g)
        + f"</svg><figcaption>{esc(alt)}</figcaption></figure>"
    )
    head = ["system"] + [esc(names[j]) for j in order]
    rows, sv = [], []
    for i in order:
        cells, vals = [esc(names[i])], [names[i]]
        for j in order:
            p = adj[i][j]
            if i == j or p is None:
                cells.append("" if i == j else "–")
                vals.append("")
                continue
            star = "<span class=sigstar>*</span>" if m["significant"][i][j] else ""
            cells.append(num(p, f"metrics/{k}/pairwise/adjusted/{i}/{j}", _pf(p)) + star)
            vals.append(p)
        rows.append(cells)
        sv.append(vals)
    tab = table(
        head,
        rows,
        caption=f"{esc(m['label'])}: corrected p-value of each pair (row against column; * significant)",
        sort_values=sv,
        numeric=[False] + [True] * len(order),
        cls="pmatrix",
    )
    return (
        f'<section class="metric"><h3 id="pv-{k}">{esc(m["label"])}</h3>{svg}'
        f"<details><summary>The p-values as a table</summary>{tab}</details>"
        f'<p class="sig"><code>{esc(pw["signature"])}</code></p></section>'
    )


def _gain(d: dict[str, Any], k: int, m: dict[str, Any]) -> str:
    sc = m["display_scale"]
    rows = m["comparisons"]
    th = m["thresholds"][0] if m["thresholds"] else None
    shown = [r for r in rows if r["pvalue"] is not None and r["gain"] is not None]  # undefined tests: table only
    gains = [r["gain"] * sc for r in shown]
    conf = [1 - r["pvalue"] for r in shown]
    gmax = max([*gains, *([th["threshold"] * sc * 1.2] if th and th["threshold"] is not None else []), 0.0]) or 1.0
    cmin = min(0.5, min(conf)) if conf else 0.5
    left, top, w, h = 60, 12, 560, 300

    def x(v: float) -> float:
        return left + v / gmax * w

    def y(c: float) -> float:
        return top + (1 - (c - cmin) / (1 - cmin)) * h

    g = [f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fff" stroke="#888"/>']
    for t in _ticks(0, gmax):
        g.append(f'<text x="{x(t):.1f}" y="{top + h + 14}" text-anchor="middle" font-size="10">{t:g}</text>')
    for t in _ticks(cmin, 1.0, 5):
        g.append(f'<text x="{left - 4}" y="{y(t) + 3:.1f}" text-anchor="end" font-size="10">{t:g}</text>')
        g.append(f'<line x1="{left}" x2="{left + w}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#eee"/>')
    c95 = 1 - d["settings"]["alpha"]
    if c95 >= cmin:
        g.append(
            f'<line x1="{left}" x2="{left + w}" y1="{y(c95):.1f}" y2="{y(c95):.1f}" '
            'stroke="#999" stroke-dasharray="4,3"/>'
        )
    for r, gx, cy in zip(shown, gains, conf):
        g.append(
            f'<circle cx="{x(gx):.1f}" cy="{y(cy):.1f}" r="2.6" fill="#1f4e99" fill-opacity="0.7">'
            f"<title>{esc(r['system_i'])} vs {esc(r['system_j'])}: gain {fmt(r['gain'], '.4g', sc)}, "
            f"confidence {fmt(1 - r['pvalue'], '.4f')}</title></circle>"
        )
    if th and th["threshold"] is not None:
        tx = x(th["threshold"] * sc)
        g.append(
            f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{top}" y2="{top + h}" stroke="#b35806" stroke-width="2" '
            'stroke-dasharray="6,3"/>'
        )
        g.append(f'<text x="{tx + 4:.1f}" y="{top + 12}" font-size="11" fill="#7f3b08">gain threshold</text>')
    g.append(
        f'<text x="{left + w / 2}" y="{top + h + 30}" text-anchor="middle" font-size="11">'
        f"|gain| ({esc(m['label'])}{' ×100' if sc == 100 else ''})</text>"
    )
    g.append(
        f'<text transform="translate(14,{top + h / 2}) rotate(-90)" text-anchor="middle" font-size="11">'
        "confidence 1 − p</text>"
    )
    thr_text = (
        f"The gain threshold (the {num(th['percentile'], f'metrics/{k}/thresholds/0/percentile', 'g')}th "
        "percentile of the gains of pairs with p in "
        f"[{num(th['band'][0], f'metrics/{k}/thresholds/0/band/0', 'g')}, "
        f"{num(th['band'][1], f'metrics/{k}/thresholds/0/band/1', 'g')}], Berg-Kirkpatrick et al. 2012) is "
        + num(th["threshold"], f"metrics/{k}/thresholds/0/threshold", ".4g", sc)
        + f" from {num(th['n_comparisons'], f'metrics/{k}/thresholds/0/n_comparisons', 'd')} pairs"
        + (f"; {esc(th['warning'])}" if th.get("warning") else "")
        + "."
        if th and th["threshold"] is not None
        else "No pair has a p-value in the band, so there is no gain threshold."
    )
    alt = (
        f"Scatter plot of confidence (1 − p, uncorrected) against the absolute gain of each of the {len(rows)} pairs "
        f"on {m['label']}; the dashed vertical line is the gain threshold and the dashed horizontal line "
        f"confidence {c95:g}. Every point is in the table below."
    )
    svg = (
        f'<figure><svg role="img" aria-labelledby="cg-{k}" width="{left + w + 20}" height="{top + h + 40}" '
        f'viewBox="0 0 {left + w + 20} {top + h + 40}" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="cg-{k}">{esc(alt)}</title>' + "".join(g) + f"</svg><figcaption>{esc(alt)}</figcaption></figure>"
    )
    trs, sv = [], []
    for r in sorted(range(len(rows)), key=lambda q: -(rows[q]["gain"] or 0.0)):
        c = rows[r]
        p = f"metrics/{k}/comparisons/{r}"
        trs.append(
            [
                esc(c["system_i"]),
                esc(c["system_j"]),
                num(c["delta"], f"{p}/delta", "+.4g", sc),
                num(c["pvalue"], f"{p}/pvalue", _pf(c["pvalue"])),
                num(c["adjusted"], f"{p}/adjusted", _pf(c["adjusted"])),
            ]
        )
        sv.append([c["system_i"], c["system_j"], c["delta"], c["pvalue"], c["adjusted"]])
    tab = table(
        ["system i", "system j", "δ (j − i)", "p", "corrected p"],
        trs,
        caption=f"{esc(m['label'])}: every pair, largest gain first",
        sort_values=sv,
        numeric=[False, False, True, True, True],
    )
    return (
        f'<section class="metric"><h3 id="cg-h-{k}">{esc(m["label"])}</h3>{svg}<p>{thr_text}</p>'
        f"<details><summary>Every pair as a table</summary>{tab}</details></section>"
    )


def _labels_html(d: dict[str, Any]) -> str:
    lab = d["labels"]
    names = lab["systems"]
    order = d["metrics"][0]["order"]
    idx = [names.index(s) for s in order]
    head = [esc(lab["group_name"]), "units"] + [esc(s) for s in order] + ["oracle"]
    rows, sv = [], []
    for r_i, r in enumerate(lab["rows"]):
        cnt = r["count"]
        cells = [esc(r["label"]), num(cnt, f"labels/rows/{r_i}/count", "d")]
        vals: list[Any] = [r["label"], cnt]
        for j in idx:
            cells.append(num(r["correct"][j], f"labels/rows/{r_i}/correct/{j}", ".1f", 100 / cnt if cnt else 1))
            vals.append(r["correct"][j] / cnt if cnt else None)
        cells.append(num(r["oracle_correct"], f"labels/rows/{r_i}/oracle_correct", ".1f", 100 / cnt if cnt else 1))
        vals.append(r["oracle_correct"] / cnt if cnt else None)
        rows.append(cells)
        sv.append(vals)
    tab = table(
        head,
        rows,
        caption=f"Accuracy (%) on the units of each {esc(lab['group_name'])}, view {esc(lab['view'])}; "
        "systems in the order of the leaderboard",
        sort_values=sv,
        numeric=[False] + [True] * (len(head) - 1),
    )
    return (
        '<section id="labels"><h2>Per label</h2><p>Accuracy of each system on the '
        f"{num(lab['n_units'], 'labels/n_units', ',d')} "
        f"units of view <code>{esc(lab['view'])}</code> by {esc(lab['group_name'])}, beside the oracle "
        "(a unit counts as correct "
        f"if any system gets it right; Tuggener 2017). McNemar's test per label for a pair is under Pairs.</p>{tab}"
        f'<p class="sig"><code>{esc(lab["signature"])}</code></p></section>'
    )


def _buckets_html(d: dict[str, Any]) -> str:
    parts = ['<section id="buckets"><h2>Per bucket</h2>']
    if d.get("buckets"):
        parts.append(_length_html(d))
    if d.get("frequency"):
        parts.append(_frequency_html(d))
    parts.append("</section>")
    return "".join(parts)


def _length_html(d: dict[str, Any]) -> str:
    b = d["buckets"]
    parts = [
        f"<h3>By item length</h3><p>Each system's score on the items of each length bucket ({esc(b['unit'])}); "
        "the paired test of each chosen pair per bucket is under Pairs.</p>"
    ]
    order = d["metrics"][0]["order"]
    names = d["systems"]
    for k, m in enumerate(b["metrics"]):
        sc = m["display_scale"]
        head = ["system"] + [
            f"{esc(x['bucket'])} ({num(x['n_items'], f'buckets/buckets/{q}/n_items', 'd')})"
            for q, x in enumerate(b["buckets"])
        ]
        rows, sv = [], []
        for s in order:
            j = names.index(s)
            cells, vals = [esc(s)], [s]
            for q in range(len(b["buckets"])):
                v = m["scores"][q][j]
                cells.append(num(v, f"buckets/metrics/{k}/scores/{q}/{j}", _ff(d["metrics"][k]), sc))
                vals.append(v)
            rows.append(cells)
            sv.append(vals)
        parts.append(
            table(
                head,
                rows,
                caption=f"{esc(d['metrics'][k]['label'])} by item length{' (×100)' if sc == 100 else ''}",
                sort_values=sv,
                numeric=[False] + [True] * len(b["buckets"]),
            )
        )
    return "".join(parts)


def _tasks_html(d: dict[str, Any]) -> str:
    tasks = d["tasks"]["tasks"]
    names = d["systems"]
    order = d["metrics"][0]["order"]
    cl = _pct(d["settings"]["confidence_level"])
    head = ["system"]
    for t in tasks:
        head += [f"{esc(t['task'])} {esc(t['metric'])}", "SE", "design effect"]
    rows, sv = [], []
    for s in order:
        j = names.index(s)
        cells, vals = [esc(s)], [s]
        for q, t in enumerate(tasks):
            r, sc = t["systems"][j], t["display_scale"]
            p = f"tasks/tasks/{q}/systems/{j}"
            f = ".2f" if sc == 100 else ".4f"
            cells += [
                num(r["score"], f"{p}/score", f, sc),
                num(r["se"], f"{p}/se", ".4f" if sc == 1 else ".2f", sc),
                num(r["design_effect"], f"{p}/design_effect", ".2f"),
            ]
            vals += [r["score"], r["se"], r["design_effect"]]
        rows.append(cells)
        sv.append(vals)
    notes = "".join(
        f"<p class=note>{esc(t['task'])}: {num(t['n_items'], f'tasks/tasks/{q}/n_items', 'd')} items"
        + (
            f" in {num(t['n_clusters'], f'tasks/tasks/{q}/n_clusters', 'd')} clusters ({esc(t['cluster_field'])}): "
            "standard errors cluster-robust (CR1), design effect (SE / SE<sub>iid</sub>)²"
            if t["n_clusters"]
            else ""
        )
        + f'.</p><p class="sig"><code>{esc(t["signature"])}</code></p>'
        for q, t in enumerate(tasks)
    )
    tab = table(
        head,
        rows,
        caption=f"Each task: score, standard error ({cl} normal interval = score ± z·SE) and design effect",
        sort_values=sv,
        numeric=[False] + [True] * (len(head) - 1),
    )
    return f'<section id="tasks"><h2>Per task</h2>{tab}{notes}</section>'


def _frequency_html(d: dict[str, Any]) -> str:
    fr = d["frequency"]
    names = fr["systems"]
    order = d["metrics"][0]["order"]
    head = ["system"] + [
        f"{esc(b['bucket'])} ({num(b['n_units'], f'frequency/buckets/{q}/n_units', ',d')} units)"
        for q, b in enumerate(fr["buckets"])
    ]
    rows, sv = [], []
    for s in order:
        j = names.index(s)
        cells, vals = [esc(s)], [s]
        for q, b in enumerate(fr["buckets"]):
            n = b["n_units"]
            cells.append(num(b["correct"][j], f"frequency/buckets/{q}/correct/{j}", ".2f", 100 / n))
            vals.append(b["correct"][j] / n)
        rows.append(cells)
        sv.append(vals)
    return (
        f"<h3>By word frequency</h3><p>Accuracy (%) of each system on the units (view <code>{esc(fr['view'])}</code>) "
        "whose gold word occurs 1, 2–4, 5–19, 20–99 or 100 or more times in the gold file (case folded).</p>"
        + table(
            head,
            rows,
            caption="Accuracy (%) by gold-word frequency",
            sort_values=sv,
            numeric=[False] + [True] * len(fr["buckets"]),
        )
    )


def _pairs_html(d: dict[str, Any]) -> str:
    names = d["systems"]
    first = d["pairs"][0]
    opts_a = "".join(
        f'<option value="{esc(s)}"{" selected" if s == first["a"] else ""}>{esc(s)}</option>' for s in names
    )
    opts_b = "".join(
        f'<option value="{esc(s)}"{" selected" if s == first["b"] else ""}>{esc(s)}</option>' for s in names
    )
    listed = ", ".join(f"{esc(p['a'])} – {esc(p['b'])}" for p in d["pairs"])
    parts = [
        '<section id="pairs" class="pairs"><h2>Pairs</h2>',
        f"<p>Pick two systems. This report holds the pairs {listed}; add others with <code>--pair A,B</code>.</p>",
        '<div class="picker" role="group" aria-label="system picker">'
        f'<label>system A <select class="pa" aria-label="system A">{opts_a}</select></label>'
        f'<label>system B <select class="pb" aria-label="system B">{opts_b}</select></label></div>',
        '<p class="missing" hidden role="status">This pair is not in the report: run it again with <code></code>.</p>',
    ]
    m0 = d["metrics"][0]
    for q, pv in enumerate(d["pairs"]):
        parts.append(
            f'<div class="pairview" data-a="{esc(pv["a"])}" data-b="{esc(pv["b"])}"{" hidden" if q else ""}>'
            f"<h3>{esc(pv['a'])} (A) and {esc(pv['b'])} (B)</h3>"
        )
        if "diff" in pv:
            parts.append(_diff_html(q, pv))
        if "buckets" in pv:
            parts.append(_bucket_tests_html(d, q, pv, m0))
        if "items" in pv:
            parts.append(_items_html(d, q, pv, m0))
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


def _diff_html(q: int, pv: dict[str, Any]) -> str:
    df = pv["diff"]
    p = f"pairs/{q}/diff"
    summary = (
        f"<p>Of {num(df['n_units'], f'{p}/n_units', ',d')} units (view <code>{esc(df['view'])}</code>), A and B label "
        f"{num(df['n_differ'], f'{p}/n_differ', ',d')} differently: {num(df['corrections'], f'{p}/corrections', ',d')} "
        f"corrections (B right, A wrong), {num(df['new_errors'], f'{p}/new_errors', ',d')} new errors "
        "(A right, B wrong) "
        f"and {num(df['changed_errors'], f'{p}/changed_errors', ',d')} changed errors (both wrong; Tuggener 2017). "
        f"Accuracy A {num(df['accuracy1'], f'{p}/accuracy1', '.2f', 100)}%, "
        f"B {num(df['accuracy2'], f'{p}/accuracy2', '.2f', 100)}%.</p>"
    )
    tabs = []
    for cls, title in (
        ("corrections", "corrections"),
        ("new_errors", "new errors"),
        ("changed_errors", "changed errors"),
    ):
        recs = df.get(f"top_{cls}") or []
        rows = [[esc(r["transition"]), num(r["count"], f"{p}/top_{cls}/{n}/count", "d")] for n, r in enumerate(recs)]
        if rows:
            tabs.append(
                table(
                    ["transition (A → B)" if cls != "changed_errors" else "transition (gold → A → B)", "units"],
                    rows,
                    caption=f"Top {title}",
                    numeric=[False, True],
                    sort_values=[[r["transition"], r["count"]] for r in recs],
                )
            )
    lab_rows, sv = [], []
    tests = {t["label"]: (n, t["pvalue"]) for n, t in enumerate(df.get("mcnemar", []))}
    a, b = _ptr(pv["a"]), _ptr(pv["b"])
    for n, r in enumerate(df["labels"]["rows"]):
        tn, tp = tests.get(r["label"], (None, None))
        acc = r["accuracy"]
        lab_rows.append(
            [
                esc(r["label"]),
                num(r["count"], f"{p}/labels/rows/{n}/count", "d"),
                num(acc[pv["a"]], f"{p}/labels/rows/{n}/accuracy/{a}", ".2f", 100),
                num(acc[pv["b"]], f"{p}/labels/rows/{n}/accuracy/{b}", ".2f", 100),
                num(tp, f"{p}/mcnemar/{tn}/pvalue", _pf(tp)) if tn is not None else "",
            ]
        )
        sv.append([r["label"], r["count"], acc[pv["a"]], acc[pv["b"]], tp])
    labs = table(
        ["label", "units", "A %", "B %", "McNemar p"],
        lab_rows,
        caption="Per gold label: accuracy of A and B, McNemar's mid-p test (uncorrected) on the label's units",
        numeric=[False, True, True, True, True],
        sort_values=sv,
    )
    return (
        f"<h4>What changed (Tuggener's diff)</h4>{summary}<div class=row>{''.join(tabs)}</div>{labs}"
        f'<p class="sig"><code>{esc(df["signature"])}</code></p>'
    )


def _ptr(key: str) -> str:
    """A key as one step of a ``data-k`` path (JSON Pointer's escapes: ``~`` as ``~0``, ``/`` as ``~1``)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def _bucket_tests_html(d: dict[str, Any], q: int, pv: dict[str, Any], m0: dict[str, Any]) -> str:
    sc = m0["display_scale"]
    rows, sv = [], []
    for n, t in enumerate(pv["buckets"]):
        p = f"pairs/{q}/buckets/{n}"
        rows.append(
            [
                esc(t["bucket"]),
                num(t["n_items"], f"{p}/n_items", "d"),
                num(t["delta"], f"{p}/delta", _ff(m0, "+"), sc),
                num(t["pvalue"], f"{p}/pvalue", _pf(t["pvalue"])),
            ]
        )
        sv.append([n, t["n_items"], t["delta"], t["pvalue"]])
    B = d["settings"]["interval_resamples"]
    sig = pv["buckets"][0]["signature"] if pv["buckets"] else ""
    return (
        "<h4>By item length</h4>"
        + table(
            ["words per item", "items", f"δ {esc(m0['label'])} (B − A)", "p"],
            rows,
            caption="Paired bootstrap of B against A on each bucket's items "
            f"(B = {num(B, 'settings/interval_resamples', ',d')}, uncorrected)",
            numeric=[False, True, True, True],
            sort_values=sv,
        )
        + f'<p class="sig"><code>{esc(sig)}</code></p>'
    )


def _items_html(d: dict[str, Any], q: int, pv: dict[str, Any], m0: dict[str, Any]) -> str:
    sc = m0["display_scale"]
    items = pv["items"]["items"]
    parts = [f"<h4>Items where A and B differ most ({esc(m0['label'])} of the item alone)</h4><ol class=items>"]
    for n, it in enumerate(items):
        p = f"pairs/{q}/items/items/{n}"
        head = (
            f"item {num(it['item'], f'{p}/item', 'd')}"
            + (f" (id <code>{esc(it['id'])}</code>)" if it.get("id") else "")
            + f": A {num(it['score_a'], f'{p}/score_a', _ff(m0), sc)}, "
            f"B {num(it['score_b'], f'{p}/score_b', _ff(m0), sc)}, "
            f"δ {num(it['delta'], f'{p}/delta', _ff(m0, '+'), sc)}"
        )
        body = ""
        if "tokens" in it:
            toks = []
            for form, g, a, b in it["tokens"]:
                differ = a != b or a != g
                lab = (
                    f"<small>gold {esc(g)}</small><small>A {esc(a)}</small><small>B {esc(b)}</small>" if differ else ""
                )
                toks.append(f'<span class="tok{" d" if differ else ""}">{esc(form)}{lab}</span>')
            body = f"<div class=sent>{''.join(toks)}</div>"
        elif "gold" in it:
            body = (
                f"<dl><dt>gold</dt><dd>{esc(it['gold'])}</dd><dt>A ({esc(pv['a'])})</dt><dd>{esc(it['output_a'])}</dd>"
                f"<dt>B ({esc(pv['b'])})</dt><dd>{esc(it['output_b'])}</dd></dl>"
            )
        parts.append(f"<li><p>{head}</p>{body}</li>")
    parts.append("</ol>")
    return "".join(parts)


def _signatures(d: dict[str, Any]) -> str:
    rows = [("this report (its settings and data)", d["signature"])]
    for m in d["metrics"]:
        rows.append((f"{m['label']}: intervals", m["leaderboard"]["signature"]))
        rows.append((f"{m['label']}: pair tests, ranks, groups, gain threshold", m["pairwise"]["signature"]))
    if d.get("labels"):
        rows.append(("per label, oracle", d["labels"]["signature"]))
    for t in (d.get("tasks") or {}).get("tasks", []):
        rows.append((f"task {t['task']}", t["signature"]))
    for pv in d.get("pairs", []):
        if "diff" in pv:
            rows.append((f"diff {pv['a']} – {pv['b']}", pv["diff"]["signature"]))
        if pv.get("buckets"):
            rows.append((f"per-length tests {pv['a']} – {pv['b']}", pv["buckets"][0]["signature"]))
    body = "".join(f"<tr><th scope=row>{esc(w)}</th><td><code>{esc(s)}</code></td></tr>" for w, s in rows)
    return (
        '<section id="signatures"><h2>Signatures</h2><p>What produced each number: test, metric, format and options, '
        'items, resamples, seed and a hash of the data (see the README\'s "Reading a signature").</p>'
        f'<div class="tw" tabindex="0" role="region" aria-label="signatures"><table class="grid sigs"><thead><tr>'
        "<th scope=col>numbers</th><th scope=col>signature</th></tr></thead>"
        f"<tbody>{body}</tbody></table></div></section>"
    )


def _reproduce_html(d: dict[str, Any]) -> str:
    items = "".join(
        f"<li>{esc(r['what'])}:<pre class=cmd><code>{esc(r['command'])}</code></pre></li>" for r in d["reproduce"]
    )
    return (
        '<section id="reproduce"><h2>How to reproduce</h2><p>Run from the folder the report was made in; the '
        f"same seed gives the same numbers on any machine and thread count.</p><ul>{items}</ul></section>"
    )


# --------------------------------------------------------------------------------------------
# battles


def battles_report(
    battles: Any, *, level: float = DEFAULT_CONFIDENCE, title: str | None = None, command: Any = None, **options: Any
) -> Report:
    """The report of a battle file (the ``battles`` format): :func:`sigfast.bradley_terry`'s ratings with
    their intervals, rank ranges and tiers, and its predicted win probabilities (cluster-robust standard
    errors with a cluster field, sandwich ones otherwise), as ``sigfast rate`` gives them."""
    from .formats import spec
    from .formats.battles import read_battles
    from .inference.ratings import bradley_terry

    opts = spec("battles").validate(options)
    table = read_battles(battles, **opts)
    se = "cluster" if opts.get("cluster") else "sandwich"
    r = bradley_terry(table, se=se, level=level)
    d = r.to_dict()
    cmd = ["sigfast", "rate", str(battles), *[a for k, v in options.items() for a in ("-o", f"{k}={v}")]]
    cmd += ["--se", se, "--confidence", f"{level:g}", "--json"]
    data = {
        "sigfast_report": REPORT_VERSION,
        "version": _native.__version__,
        "title": title or f"sigfast report: {len(r.models)} models rated from {d['n_battles']:,} battles",
        "format": "battles",
        "ratings": d,
        "signature": d["signature"],
        "reproduce": ([{"what": "this report", "command": shlex.join(command)}] if command else [])
        + [{"what": "the ratings (JSON)", "command": shlex.join(cmd)}],
    }
    return Report(data=_plain(data), signature=d["signature"])


def render_battles(d: dict[str, Any]) -> str:
    rt = d["ratings"]
    models = rt["models"]
    order = sorted(range(len(models)), key=lambda i: -models[i]["rating"])
    cl = _pct(rt["level"])
    rows, sv = [], []
    for i in order:
        r, p = models[i], f"ratings/models/{i}"
        rows.append(
            [
                num(r["rank"], f"{p}/rank", "d"),
                esc(r["model"]),
                num(r["rating"], f"{p}/rating", ".1f"),
                f"[{num(r['lower'], f'{p}/lower', '.1f')}, {num(r['upper'], f'{p}/upper', '.1f')}]",
                num(r["se"], f"{p}/se", ".1f"),
                f"{num(r['rank'], f'{p}/rank', 'd')}–{num(r['worst_rank'], f'{p}/worst_rank', 'd')}",
                num(r["tier"], f"{p}/tier", "d"),
            ]
        )
        sv.append([r["rank"], r["model"], r["rating"], r["lower"], r["se"], r["worst_rank"], r["tier"]])
    lb = table(
        ["rank", "model", "rating (Elo)", f"{cl} interval", "SE", "rank range", "tier"],
        rows,
        caption=f"Bradley–Terry ratings, {esc(rt['se_method'])} standard errors, ties {esc(rt['ties'])}",
        sort_values=sv,
        numeric=[True, False, True, True, True, True, True],
    )
    wp = rt["win_probability"]
    head = ["model"] + [esc(models[j]["model"]) for j in order]
    wrows = [
        [esc(models[i]["model"])] + [num(wp[i][j], f"ratings/win_probability/{i}/{j}", ".3f") for j in order]
        for i in order
    ]
    wtab = table(
        head,
        wrows,
        caption="Predicted probability that the row's model beats the column's",
        numeric=[False] + [True] * len(order),
    )
    fig_m = {
        "label": "rating",
        "group_word": "tier",
        "display_scale": 1,
        "pairwise": {"clusters": [[models[i]["model"] for i in order]]},
        "table": [
            {
                "system": models[i]["model"],
                "score": models[i]["rating"],
                "low": models[i]["lower"],
                "high": models[i]["upper"],
                "rank_low": models[i]["rank"],
                "rank_high": models[i]["worst_rank"],
                "group": models[i]["tier"],
            }
            for i in order
        ],
    }
    fig = _errorbars_svg(d, 0, fig_m)
    notes = "".join(f"<p class=note>warning: {esc(w)}</p>" for w in rt.get("warnings", []))
    items = "".join(
        f"<li>{esc(r['what'])}:<pre class=cmd><code>{esc(r['command'])}</code></pre></li>" for r in d["reproduce"]
    )
    return (
        f"<header><h1>{esc(d['title'])}</h1><p>{num(rt['n_battles'], 'ratings/n_battles', ',d')} battles"
        + (
            f" in {num(rt['n_clusters'], 'ratings/n_clusters', ',d')} clusters ({esc(rt['cluster_field'])})"
            if rt["n_clusters"]
            else ""
        )
        + f"; sigfast {esc(d['version'])}.</p></header>"
        f'<section id="leaderboard"><h2>Ratings</h2>{fig}{lb}{notes}</section>'
        f'<section id="winprob"><h2>Win probabilities</h2>{wtab}</section>'
        f'<section id="signatures"><h2>Signatures</h2><p class="sig"><code>{esc(rt["signature"])}</code></p></section>'
        f'<section id="reproduce"><h2>How to reproduce</h2><ul>{items}</ul></section>'
    )


# --------------------------------------------------------------------------------------------
# the command line


def run_report(args: Any) -> int:
    """``sigfast report``: the report of the files, printed in the chosen style (``--output FILE.html``
    writes the page; ``--data FILE.json`` its data)."""
    import argparse

    from .cli import common as _cli
    from .exceptions import UsageError

    _cli.precheck(args)
    if args.data:
        if os.path.splitext(args.data)[1].lower() != ".json":
            raise UsageError(f"--data {args.data}: the report's data is JSON; name a .json file")
        folder = os.path.dirname(os.path.abspath(args.data))
        if not os.path.isdir(folder):
            raise InputError(f"{args.data}: the folder {folder} does not exist")
    pairs = []
    for it in args.pair or ():
        a, comma, b = it.partition(",")
        if not comma or not a or not b:
            raise UsageError(f"--pair takes A,B (two system names), got {it!r}")
        pairs.append((a, b))
    _cli.detect_gold_format(args)
    if args.format == "battles":  # a battle file: the ratings (sigfast rate's)
        if len(args.files) != 1:
            raise UsageError("-f battles takes one battle file")
        opts = _cli.format_options(args)
        rep = battles_report(args.files[0], level=args.confidence, title=args.title, command=_command(args), **opts)
        _cli.emit(args, render=rep.format, data=rep.to_dict, results=[rep])
        _write_data(args, rep)
        return 0
    if args.metric and (args.format or args.ref):
        _cli.metric_option(args, list(args.metric))  # as `score -m`: a format that can computes only those (mt)
    tasks = list(args.tasks or ())
    if tasks and args.task is None:
        args.task = tasks[0]
    parsed = _cli.parse_inputs(args, min_systems=2)
    per_task = []
    for t in tasks:
        if t == args.task:
            per_task.append((t, parsed))
            continue
        other = argparse.Namespace(**vars(args))
        other.task = t
        per_task.append((t, _cli.parse_inputs(other, min_systems=2)))
    gold, system_args = _cli.split_systems(args, args.files, min_systems=2)  # the files parse_inputs read
    gold_paths = [] if gold is None else ([gold] if isinstance(gold, (str, os.PathLike)) else list(gold))
    rep = build_report(
        parsed,
        gold_paths=gold_paths,
        system_paths=system_args,
        metrics=list(args.metric) if args.metric else [None],
        n_resamples=args.resamples,
        interval_resamples=args.interval_resamples,
        seed=args.seed,
        stream=args.stream,
        confidence_level=args.confidence,
        correction=args.correction,
        alpha=args.alpha,
        pairs=pairs,
        top_items=args.top,
        band=tuple(args.band),
        percentile=args.percentile,
        title=args.title,
        n_threads=args.threads,
        per_task=per_task,
        command=_command(args),
    )
    _cli.emit(args, render=rep.format, data=rep.to_dict, results=[rep])
    _write_data(args, rep)
    return 0


def _command(args: Any) -> list[str] | None:
    """The command line that runs this report, as ``sigfast.cli.main`` received it."""
    argv = getattr(args, "_argv", None)
    return None if argv is None else ["sigfast", *argv]


def _write_data(args: Any, rep: Report) -> None:
    import json
    import sys

    if args.data:
        with open(args.data, "w", encoding="utf-8") as fh:
            json.dump(rep.to_dict(), fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        print(f"sigfast: wrote {args.data}", file=sys.stderr)
