"""Metric meta-evaluation: how well do metrics agree with human judgements,
with intervals, and does metric A agree significantly better than metric B?

Scores live on a systems × items table (NaN = not scored). Levels:

* ``"system"``: average each system's scored items, correlate across systems;
* ``"global"``: every scored (system, item) cell, flattened ("no grouping");
* ``"item"``: correlate across systems within each item, average over items
  ("group by item", "per input", WMT's segment level);
* ``"system_grouped"``: correlate across items within each system, average.

Statistics (:data:`sigfast.itemlevel.ITEM_STATISTICS`): ``pearson``,
``spearman``, ``kendall_b``, ``kendall_c``, ``tau_like`` (WMT DARR,
``threshold=25`` for DA), ``pairwise_accuracy`` and ``acc_eq`` (with tie
calibration unless ``epsilon=`` is given; one ε for all groups, as WMT23).

Intervals: BOOT-SYSTEMS / BOOT-INPUTS / BOOT-BOTH (Deutsch, Dror & Roth 2021)
resample systems, items or both and recompute the correlation (percentile
intervals over the resamples on which it is defined). Tests of "A correlates
better than B": PERM-SYSTEMS / PERM-INPUTS / PERM-BOTH swap A's and B's
z-normalised scores per system, per item or per cell; or Williams' test for
dependent correlations (Graham & Baldwin 2014). All heavy loops run in Rust.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from . import _native
from ._progress import ProgressArg
from ._progress import resolve as _resolve_progress
from .exceptions import FormatError, InputError
from .executor import DEFAULT_SEED, check_stream
from .executor import check_int as _check_int
from .executor import check_threads as _threads
from .itemlevel import ITEM_STATISTICS, _label, resolve_statistic
from .results import Result
from .signature import hash_data

__all__ = [
    "LEVELS",
    "MetaEvalResult",
    "ScoreTable",
    "align",
    "evaluate",
    "read_scores",
    "segment_scores",
]

LEVELS = ("system", "global", "item", "system_grouped")
_LEVEL_ALIASES = {"segment": "global", "none": "global", "input": "item", "sys": "system_grouped"}
_SCHEMES = ("systems", "inputs", "both")
_TESTS = ("perm-systems", "perm-inputs", "perm-both", "williams", "none")
_MISSING = {"", "none", "nan", "na", "n/a", "null", "-"}


# --------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class ScoreTable:
    """Scores of systems on items: ``values[i, j]`` for system i, item j (NaN = missing)."""

    systems: tuple[str, ...]
    items: tuple[str, ...]
    values: np.ndarray

    def __post_init__(self) -> None:
        v = np.asarray(self.values, dtype=np.float64)
        if v.shape != (len(self.systems), len(self.items)):
            raise InputError(f"values have shape {v.shape}, expected {len(self.systems)} x {len(self.items)}")
        if np.isinf(v).any():
            raise InputError("scores must be finite or NaN (missing)")
        object.__setattr__(self, "values", v)

    @classmethod
    def from_long(cls, rows: Sequence[tuple[Any, Any, Any]]) -> ScoreTable:
        """From (system, item, score) rows; a repeated cell is an error."""
        systems: dict[str, int] = {}
        items: dict[str, int] = {}
        cells: dict[tuple[int, int], float] = {}
        for s, i, v in rows:
            si = systems.setdefault(str(s), len(systems))
            ii = items.setdefault(str(i), len(items))
            if (si, ii) in cells:
                raise InputError(f"system {s!r}, item {i!r} has two scores")
            cells[si, ii] = _num(v)
        values = np.full((len(systems), len(items)), np.nan)
        for (si, ii), v in cells.items():
            values[si, ii] = v
        return cls(tuple(systems), tuple(items), values)

    def select(self, systems: Sequence[str], items: Sequence[str]) -> np.ndarray:
        """The values on these systems and items (missing ones NaN)."""
        si = {s: k for k, s in enumerate(self.systems)}
        ii = {s: k for k, s in enumerate(self.items)}
        out = np.full((len(systems), len(items)), np.nan)
        cols = [ii.get(i, -1) for i in items]
        have = np.array([c >= 0 for c in cols])
        cidx = np.array([max(c, 0) for c in cols], dtype=np.int64)
        for r, s in enumerate(systems):
            k = si.get(s)
            if k is not None:
                out[r, have] = self.values[k, cidx[have]]
        return out


def _num(v: Any) -> float:
    if isinstance(v, str):
        if v.strip().lower() in _MISSING:
            return math.nan
        try:
            return float(v)
        except ValueError:
            raise InputError(f"score {v!r} is not a number") from None
    return float(v)


_SYS_COLS = ("system", "sys", "system_name", "model")
_ITEM_COLS = ("item", "seg_id", "segment", "sid", "seg", "segment_id", "item_id", "doc_seg", "id")


def read_scores(
    path: str | os.PathLike[str],
    *,
    layout: Literal["auto", "long", "wide"] = "auto",
    score_column: str | None = None,
) -> ScoreTable:
    """Read a score table from a TSV/CSV/whitespace-separated file.

    ``long``: one ``system item score`` row per cell (a header naming the
    columns, e.g. ``system mqm_avg_score seg_id``, picks them by name:
    system/sys, item/seg_id/segment/sid, and ``score_column`` or the one
    left). ``wide``: a header ``system item1 item2 ...`` and one row per
    system. Missing scores: empty, ``None``, ``NaN``, ``NA``, ``-``.
    ``auto``: long when every row has three fields, else wide.
    """
    from .formats._base import read_text

    text, name = read_text(path, "score table")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise FormatError("the file has no rows", path=name)
    delim = "\t" if "\t" in lines[0] else ("," if "," in lines[0] else None)

    def split(ln: str) -> list[str]:
        if delim == "\t" and " " in ln.strip() and len(ln.split("\t")) < 3:
            return ln.split()
        return [c.strip() for c in (ln.split(delim) if delim else ln.split())]

    rows = [split(ln) for ln in lines]
    if layout == "auto":
        layout = "long" if all(len(r) == 3 for r in rows) else "wide"
    if layout == "long":
        head = [c.lower() for c in rows[0]]
        has_header = any(c in _SYS_COLS for c in head)
        if has_header:
            try:
                cs = next(k for k, c in enumerate(head) if c in _SYS_COLS)
                ci = next(k for k, c in enumerate(head) if c in _ITEM_COLS and k != cs)
            except StopIteration:
                raise FormatError(
                    f"header {rows[0]} must name a system column ({'/'.join(_SYS_COLS[:2])}) "
                    f"and an item column ({'/'.join(_ITEM_COLS[:4])})",
                    path=name,
                    line=1,
                ) from None
            if score_column is not None:
                if score_column.lower() not in head:
                    raise FormatError(f"no column {score_column!r} in header {rows[0]}", path=name, line=1)
                cv = head.index(score_column.lower())
            else:
                rest = [k for k in range(len(head)) if k not in (cs, ci)]
                if len(rest) != 1:
                    raise FormatError(
                        f"several score columns {[rows[0][k] for k in rest]}: pass score_column=", path=name
                    )
                cv = rest[0]
            body = rows[1:]
        else:
            cs, ci, cv = 0, 1, 2
            body = rows
        out = []
        for ln, r in enumerate(body, start=2 if has_header else 1):
            if len(r) <= max(cs, ci, cv):
                raise FormatError(f"expected {len(rows[0])} fields, got {len(r)}", path=name, line=ln)
            try:
                out.append((r[cs], r[ci], _num(r[cv])))
            except InputError as e:
                raise FormatError(str(e), path=name, line=ln) from None
        return ScoreTable.from_long(out)
    if layout != "wide":
        raise InputError(f"layout must be 'auto', 'long' or 'wide', got {layout!r}")
    head = rows[0]
    items = tuple(head[1:])
    systems, values = [], []
    for ln, r in enumerate(rows[1:], start=2):
        if len(r) != len(head):
            raise FormatError(f"expected {len(head)} fields like the header, got {len(r)}", path=name, line=ln)
        systems.append(r[0])
        try:
            values.append([_num(v) for v in r[1:]])
        except InputError as e:
            raise FormatError(str(e), path=name, line=ln) from None
    return ScoreTable(tuple(systems), items, np.array(values, dtype=np.float64).reshape(len(systems), len(items)))


def align(
    human: ScoreTable, metrics: Mapping[str, ScoreTable], *, systems: Sequence[str] | None = None
) -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray, np.ndarray]:
    """Human and metric scores on shared systems and the human table's items.

    Systems: ``systems`` or those in the human table and every metric table.
    Returns (systems, items, human S × N, metrics K × S × N).
    """
    if not metrics:
        raise InputError("no metric tables")
    if systems is None:
        shared = [s for s in human.systems if all(s in m.systems for m in metrics.values())]
    else:
        shared = [str(s) for s in systems]
        missing = [s for s in shared if s not in human.systems]
        if missing:
            raise InputError(f"systems without human scores: {missing}")
    if len(shared) < 2:
        raise InputError(f"fewer than two systems are shared by the human and metric tables: {shared}")
    items = human.items
    h = human.select(shared, items)
    ms = np.stack([m.select(shared, items) for m in metrics.values()])
    return tuple(shared), tuple(items), h, ms


def segment_scores(
    references: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    systems: Mapping[str, str | os.PathLike[str]],
    *,
    metric: Literal["bleu", "chrf", "chrf++"] = "chrf",
    **options: Any,
) -> ScoreTable:
    """Segment-level scores of MT outputs, from sigfast's ``mt`` format.

    ``"bleu"`` is sacrebleu's sentence BLEU (exponential smoothing, effective
    order); ``"chrf"`` / ``"chrf++"`` are sentence chrF / chrF++. Items are
    the 1-based line numbers (as strings).
    """
    from .metrics import get as get_metric
    from .read import read

    m = str(metric).lower()
    if m not in ("bleu", "chrf", "chrf++"):
        raise InputError(f"segment metric must be 'bleu', 'chrf' or 'chrf++', got {metric!r}")
    st = read(references, dict(systems), format="mt", metric=m, **options)
    if m == "bleu":
        met = get_metric("bleu", smooth="exp", effective_order=True)
    else:
        met = get_metric("chrf", **dict(st.metric_params))
    values = np.stack([met.evaluate(st.values[s], 1) for s in range(st.n_systems)])
    items = tuple(str(i + 1) for i in range(st.n_items))
    return ScoreTable(st.systems, items, values)


# --------------------------------------------------------------------------- result
def _t_sf(t: float, df: float) -> float:
    from .classical import _t_sf as tsf

    return float(tsf(t, df))


@dataclass(frozen=True)
class MetaEvalResult(Result):
    """Correlations of metrics with human scores, intervals, and all pairwise tests.

    ``pvalues[a, b]`` tests whether metrics a and b correlate differently
    (two-sided) or a better than b (one-sided); ``delta[a, b]`` = r(a) − r(b);
    ``adjusted`` applies ``correction`` to the family of unordered pairs.
    """

    metrics: tuple[str, ...]
    level: str
    statistic: str
    correlations: np.ndarray
    intervals: np.ndarray | None
    interval_method: str
    delta: np.ndarray
    delta_intervals: np.ndarray | None
    pvalues: np.ndarray
    adjusted: np.ndarray
    test: str
    alternative: str
    correction: str
    alpha: float
    confidence_level: float
    n_resamples: int
    seed: int
    n_systems: int
    n_items: int
    n_cells: int
    n_valid: np.ndarray
    version: str
    stream_version: int
    systems: tuple[str, ...] = ()
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: A hash of the human and metric scores (:func:`sigfast.signature.hash_data`).
    data: str = ""
    #: The p-value rule: "plus_one" ((c+1)/(B+1)) or "raw" (c/B).
    p_rule: str = "plus_one"

    @property
    def signature(self) -> str:
        """Level, statistic, interval and pair test, the metrics compared, B, seed, level, correction,
        p-value rule and a hash of the scores (:func:`sigfast.signature.build`)."""
        from .signature import build

        return build(
            "metaeval",
            variant=f"{self.level}:{self.statistic}",
            alt=self.alternative,
            metric=list(self.metrics),
            interval=self.interval_method,
            pairs=self.test,
            items=self.n_items,
            systems=self.n_systems,
            B=self.n_resamples,
            seed=self.seed,
            conf=self.confidence_level,
            correction=f"{self.correction}@{self.alpha:g}",
            p=self.p_rule,
            stream=self.stream_version or None,
            data=self.data or None,
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per metric (:meth:`ranking`), with the settings and the signature."""
        common = {
            "level": self.level,
            "statistic": self.statistic,
            "interval_method": self.interval_method,
            "test": self.test,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "signature": self.signature,
        }
        return [{**r, **common} for r in self.ranking()]

    def order(self) -> list[int]:
        """Metric indices, best correlation first (NaN last)."""
        key = np.where(np.isfinite(self.correlations), -self.correlations, np.inf)
        return [int(i) for i in np.argsort(key, kind="stable")]

    def significant(self, a: int, b: int) -> bool:
        p = self.adjusted[a, b]
        return bool(np.isfinite(p) and p < self.alpha)

    def clusters(self) -> list[list[str]]:
        """WMT-style significance clusters, best first.

        Walking down the ranking, a metric starts a new cluster when some
        metric of the current cluster is significantly better than it (after
        the correction); otherwise it joins the current cluster.
        """
        if self.test == "none":
            return [[self.metrics[i] for i in self.order()]]
        order = self.order()
        groups: list[list[int]] = [[order[0]]]
        for m in order[1:]:
            if any(self.significant(c, m) for c in groups[-1]):
                groups.append([m])
            else:
                groups[-1].append(m)
        return [[self.metrics[i] for i in g] for g in groups]

    def ranking(self) -> list[dict[str, Any]]:
        """One row per metric, best first: rank (cluster), correlation, interval."""
        cl = {m: k + 1 for k, g in enumerate(self.clusters()) for m in g}
        rows = []
        for i in self.order():
            iv = self.intervals[i] if self.intervals is not None else (math.nan, math.nan)
            rows.append(
                {
                    "metric": self.metrics[i],
                    "rank": cl[self.metrics[i]],
                    "correlation": float(self.correlations[i]),
                    "low": float(iv[0]),
                    "high": float(iv[1]),
                }
            )
        return rows

    def comparisons(self) -> list[dict[str, Any]]:
        """One row per unordered pair (a before b in the ranking)."""
        order = self.order()
        rows = []
        for x in range(len(order)):
            for y in range(x + 1, len(order)):
                a, b = order[x], order[y]
                di = self.delta_intervals[a, b] if self.delta_intervals is not None else (math.nan, math.nan)
                rows.append(
                    {
                        "metric_a": self.metrics[a],
                        "metric_b": self.metrics[b],
                        "delta": float(self.delta[a, b]),
                        "delta_low": float(di[0]),
                        "delta_high": float(di[1]),
                        "pvalue": float(self.pvalues[a, b]),
                        "adjusted": float(self.adjusted[a, b]),
                        "significant": self.significant(a, b),
                    }
                )
        return rows

    def to_dict(self) -> dict[str, Any]:
        def f(v: Any) -> Any:
            if isinstance(v, float) and not math.isfinite(v):
                return None
            return v

        return {
            "metrics": list(self.metrics),
            "systems": list(self.systems),
            "level": self.level,
            "statistic": self.statistic,
            "interval_method": self.interval_method,
            "test": self.test,
            "alternative": self.alternative,
            "correction": self.correction,
            "alpha": self.alpha,
            "confidence_level": self.confidence_level,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "n_systems": self.n_systems,
            "n_items": self.n_items,
            "n_cells": self.n_cells,
            "ranking": [{k: f(v) for k, v in r.items()} for r in self.ranking()],
            "comparisons": [{k: f(v) for k, v in r.items()} for r in self.comparisons()],
            "clusters": self.clusters(),
            "signature": self.signature,
        }

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        cl = int(round(100 * self.confidence_level))
        order = self.order()
        head = ["rank", "metric", self.statistic, f"{cl}% CI ({self.interval_method})"]
        if self.test != "none":
            head.append(f"p vs next ({self.correction})")
        rows = []
        for pos, r in enumerate(self.ranking()):
            row = [
                str(r["rank"]),
                r["metric"],
                f"{r['correlation']:.4f}",
                "" if math.isnan(r["low"]) else f"[{r['low']:.4f}, {r['high']:.4f}]",
            ]
            if self.test != "none":
                nxt = order[pos + 1] if pos + 1 < len(order) else None
                row.append("" if nxt is None else f"{self.adjusted[order[pos], nxt]:.4f}")
            rows.append(row)
        return head, rows

    def table(self, markdown: bool = False) -> str:
        from .report import format_table

        head, rows = self._rows()
        return format_table(rows, head, markdown=markdown)

    def to_markdown(self) -> str:
        return self.table(markdown=True) + f"\n\nsignature: {self.signature}\n"

    def to_latex(self) -> str:
        head, rows = self._rows()

        def esc(s: str) -> str:
            return s.replace("\\", r"\textbackslash{}").replace("&", r"\&").replace("%", r"\%").replace("_", r"\_")

        out = [r"\begin{tabular}{" + "l" * len(head) + "}", r"\hline"]
        out.append(" & ".join(esc(h) for h in head) + r" \\")
        out.append(r"\hline")
        prev = None
        for r in rows:
            if prev is not None and r[0] != prev:
                out.append(r"\hline")
            prev = r[0]
            out.append(" & ".join(esc(c) for c in r) + r" \\")
        out += [r"\hline", r"\end{tabular}"]
        return "\n".join(out) + f"\n% signature: {self.signature}\n"

    def _text(self) -> str:
        return str(self) + "\n"

    def format(self, style: str = "text") -> str:
        if style == "markdown":
            return self.to_markdown()
        if style == "latex":
            return self.to_latex()
        return super().format(style)

    def __str__(self) -> str:
        return (
            f"{self.statistic} at {self.level} level: {len(self.metrics)} metrics, {self.n_systems} systems, "
            f"{self.n_items} items ({self.n_cells} scored cells); intervals {self.interval_method}, "
            f"pairs {self.test}, {self.n_resamples} resamples, seed {self.seed}\n{self.table()}\n{self.signature}"
        )

    def plot(self, path: str | os.PathLike[str] | None = None, *, ax: Any = None) -> Any:
        """Correlations with their intervals, best first, one colour per cluster."""
        from ._plot import pyplot

        plt = pyplot()
        rows = self.ranking()
        if ax is None:
            fig, ax = plt.subplots(figsize=(6, 1.2 + 0.32 * len(rows)))
        else:
            fig = ax.figure
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for k, r in enumerate(rows):
            y = len(rows) - 1 - k
            c = colours[(r["rank"] - 1) % len(colours)]
            if not math.isnan(r["low"]):
                ax.plot([r["low"], r["high"]], [y, y], color=c, lw=2)
            ax.plot([r["correlation"]], [y], "o", color=c)
        ax.set_yticks(range(len(rows)), [r["metric"] for r in reversed(rows)])
        ax.set_xlabel(f"{self.statistic} ({self.level} level)")
        ax.set_title(f"{self.interval_method} {int(round(100 * self.confidence_level))}% intervals; colour = cluster")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig


# --------------------------------------------------------------------------- API
def _matrices(human: Any, metrics: Any, names: Sequence[str] | None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    h = np.asarray(human, dtype=np.float64)
    if h.ndim != 2:
        raise InputError(f"human scores must be systems x items (2-D), got shape {h.shape}")
    if isinstance(metrics, Mapping):
        names = [str(k) for k in metrics]
        m = np.stack([np.asarray(v, dtype=np.float64) for v in metrics.values()]) if metrics else np.zeros((0,))
    else:
        m = np.asarray(metrics, dtype=np.float64)
        if m.ndim == 2:
            m = m[None]
        names = list(names) if names is not None else [f"metric{k}" for k in range(m.shape[0])]
    if m.ndim != 3 or m.shape[1:] != h.shape:
        raise InputError(f"metric scores must be metrics x {h.shape[0]} systems x {h.shape[1]} items, got {m.shape}")
    if len(names) != m.shape[0] or len(set(names)) != len(names):
        raise InputError(f"need {m.shape[0]} distinct metric names, got {names}")
    if m.shape[0] < 1:
        raise InputError("no metrics")
    return np.ascontiguousarray(h), np.ascontiguousarray(m.reshape(m.shape[0], -1)), names


def _adjust(p: list[float], correction: str, alpha: float) -> np.ndarray:
    if str(correction).lower() == "none":
        return np.asarray(p, dtype=np.float64)
    from .multitest import adjust

    return np.asarray(adjust(p, correction, alpha=alpha).adjusted)


def _level(level: str) -> str:
    lv = _LEVEL_ALIASES.get(str(level).lower(), str(level).lower())
    if lv not in LEVELS:
        raise InputError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return lv


def evaluate(
    human: Any,
    metrics: Any,
    *,
    names: Sequence[str] | None = None,
    systems: Sequence[str] = (),
    level: str = "item",
    statistic: str = "kendall_b",
    interval: Literal["systems", "inputs", "both", "none"] = "both",
    test: Literal["perm-systems", "perm-inputs", "perm-both", "williams", "none"] = "perm-both",
    n_resamples: int = 1000,
    seed: int = DEFAULT_SEED,
    confidence_level: float = 0.95,
    alternative: Literal["two-sided", "greater"] = "two-sided",
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    correction: str = "holm",
    alpha: float = 0.05,
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_samples: bool = False,
    **params: Any,
) -> MetaEvalResult:
    """Meta-evaluate metrics against human scores.

    Parameters
    ----------
    human
        Human scores, systems × items (NaN where not scored).
    metrics
        A mapping name → systems × items array, or an array metrics × systems
        × items (with ``names``). Metric scores must be finite wherever the
        human score exists; elsewhere they are ignored.
    level
        ``"system"``, ``"global"``, ``"item"`` or ``"system_grouped"``.
    statistic
        ``"pearson"``, ``"spearman"``, ``"kendall_b"``, ``"kendall_c"``,
        ``"tau_like"`` (``threshold=``), ``"pairwise_accuracy"``, ``"acc_eq"``
        (tie calibration, or ``epsilon=``).
    interval
        BOOT-SYSTEMS / BOOT-INPUTS / BOOT-BOTH percentile intervals, or
        ``"none"``. The same resamples give each pair's δ interval.
    test
        PERM-SYSTEMS / PERM-INPUTS / PERM-BOTH permutation tests of every pair
        (z-normalised scores; the same swap masks for all pairs), Williams'
        test (absolute correlations; n = systems, cells, or the largest item
        group, as Deutsch et al.'s code), or ``"none"``.
    alternative
        ``"two-sided"``; ``"greater"`` tests r(a) > r(b) for ``pvalues[a, b]``.
    pvalue
        ``"plus_one"`` ((c + 1)/(B + 1), default) or ``"raw"`` (c/B, as nlpstats).
    correction, alpha
        Multiple-testing correction over the unordered pairs
        (:func:`sigfast.adjust`) and the level for clusters.
    stream
        The random stream version (``None``: the default; ``1`` reproduces results
        whose signature says ``stream:...v1``).

    Returns
    -------
    MetaEvalResult
    """
    h, m, names_l = _matrices(human, metrics, names)
    s_count, n = h.shape
    k = len(names_l)
    lv = _level(level)
    sname, p = resolve_statistic(statistic, dict(params))
    if ITEM_STATISTICS[sname][0] != 2 or sname == "auc":
        raise InputError(f"{sname} is not a correlation; choose one of pearson, spearman, kendall_b, ...")
    label = _label(sname, p)
    if interval not in (*_SCHEMES, "none"):
        raise InputError(f"interval must be one of systems, inputs, both, none; got {interval!r}")
    test = str(test).lower()
    if test not in _TESTS:
        raise InputError(f"test must be one of {', '.join(_TESTS)}; got {test!r}")
    if alternative not in ("two-sided", "greater"):
        raise InputError(f"alternative must be 'two-sided' or 'greater', got {alternative!r}")
    if pvalue not in ("plus_one", "raw"):
        raise InputError(f"pvalue must be 'plus_one' or 'raw', got {pvalue!r}")
    B = _check_int("n_resamples", n_resamples, 1)
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    cl = float(confidence_level)
    if not 0 < cl < 1:
        raise InputError(f"confidence_level must be in (0, 1), got {confidence_level}")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be in (0, 1), got {alpha}")
    threads = _threads(n_threads)
    stream = check_stream(stream)
    observed = np.asarray(_native.meta_observed(h, m, lv, sname, p))
    delta = observed[:, None] - observed[None, :]

    intervals = delta_iv = None
    samples = None
    n_valid = np.full(k, B)
    if interval != "none":
        cb = _resolve_progress(progress, B, float(B) * s_count * n * k, f"BOOT-{interval.upper()}")
        samples = np.asarray(
            _native.meta_bootstrap(h, m, lv, sname, p, interval, seed, 0, B, threads, cb, stream=stream)
        )
        intervals = np.full((k, 2), np.nan)
        delta_iv = np.full((k, k, 2), np.nan)
        for a in range(k):
            v = samples[:, a]
            ok = np.isfinite(v)
            n_valid[a] = int(ok.sum())
            if ok.any():
                intervals[a] = _native.percentile_interval(np.ascontiguousarray(v[ok]), cl)
            for b in range(a + 1, k):
                d = samples[:, a] - samples[:, b]
                d = np.ascontiguousarray(d[np.isfinite(d)])
                if d.size:
                    lo, hi = _native.percentile_interval(d, cl)
                    delta_iv[a, b] = (lo, hi)
                    delta_iv[b, a] = (-hi, -lo)

    pv = np.full((k, k), np.nan)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    if test.startswith("perm") and pairs:
        scheme = test.split("-", 1)[1]
        jobs = pairs if alternative == "two-sided" else pairs + [(b, a) for a, b in pairs]
        cb = _resolve_progress(progress, B, float(B) * s_count * n * len(jobs), test.upper())
        _obs, counts, valid = _native.meta_permutation(
            h, m, lv, sname, p, scheme, jobs, seed, B, alternative, threads, cb, stream=stream
        )
        for (a, b), c, t in zip(jobs, counts, valid):
            val = (c + 1) / (t + 1) if pvalue == "plus_one" else (c / t if t else math.nan)
            pv[a, b] = val
            if alternative == "two-sided":
                pv[b, a] = val
    elif test == "williams" and pairs:
        if lv == "system":
            ns = float(s_count)
        elif lv == "global":
            ns = float(np.isfinite(h).sum())
        elif lv == "item":
            ns = float(np.isfinite(h).sum(axis=0).max())
        else:
            ns = float(np.isfinite(h).sum(axis=1).max())
        if ns <= 3:
            raise InputError(f"Williams' test needs more than 3 observations, got {ns:g}")
        mask = np.isnan(h)
        mm = m.reshape(k, s_count, n)
        for a, b in pairs:
            ha = np.where(mask, np.nan, mm[a])
            r23 = abs(float(_native.meta_observed(np.ascontiguousarray(ha), mm[b].reshape(1, -1), lv, sname, p)[0]))
            r12, r13 = abs(observed[a]), abs(observed[b])
            t = float(_native.williams_t(r12, r13, r23, ns))
            if alternative == "two-sided":
                pv[a, b] = pv[b, a] = 2 * _t_sf(abs(t), ns - 3)
            else:
                pv[a, b] = _t_sf(t, ns - 3)
                pv[b, a] = _t_sf(-t, ns - 3)
    adjusted = np.full((k, k), np.nan)
    if test != "none" and pairs:
        if alternative == "two-sided":
            flat = [pv[a, b] for a, b in pairs]
            fin = [i for i, x in enumerate(flat) if np.isfinite(x)]
            if fin:
                adj = _adjust([flat[i] for i in fin], correction, alpha)
                for i, v in zip(fin, adj):
                    a, b = pairs[i]
                    adjusted[a, b] = adjusted[b, a] = v
        else:
            both = [(a, b) for a, b in pairs] + [(b, a) for a, b in pairs]
            flat = [pv[a, b] for a, b in both]
            fin = [i for i, x in enumerate(flat) if np.isfinite(x)]
            if fin:
                adj = _adjust([flat[i] for i in fin], correction, alpha)
                for i, v in zip(fin, adj):
                    adjusted[both[i]] = v
    return MetaEvalResult(
        metrics=tuple(names_l),
        level=lv,
        statistic=label,
        correlations=observed,
        intervals=intervals,
        interval_method="none" if interval == "none" else f"BOOT-{interval.upper()}",
        delta=delta,
        delta_intervals=delta_iv,
        pvalues=pv,
        adjusted=adjusted,
        test=test.upper() if test.startswith("perm") else test,
        alternative=alternative,
        correction=correction,
        alpha=float(alpha),
        confidence_level=cl,
        n_resamples=B,
        seed=seed,
        n_systems=s_count,
        n_items=int((~np.isnan(h)).any(axis=0).sum()),
        n_cells=int((~np.isnan(h)).sum()),
        n_valid=n_valid,
        version=_native.__version__,
        stream_version=stream,
        systems=tuple(systems),
        samples=samples if return_samples else None,
        data=hash_data(h, m, names_l),
        p_rule=pvalue,
    )
