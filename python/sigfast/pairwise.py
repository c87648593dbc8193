"""Many systems at once: every pair on shared bootstrap resamples.

Each system's metric is computed once per shared resample and every pair's
δ* is read off the same matrix (Berg-Kirkpatrick et al. 2012, footnote 5).
Work is split into shards of whole blocks of resamples; a shard returns
integer exceedance counts and per-block sums, merged in shard order, so a
local run, a process pool and a Ray cluster give the same bytes.
"""

from __future__ import annotations

import csv
import io as _io
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from . import _native
from ._backends import run_tasks
from ._plot import pyplot
from ._progress import ProgressArg
from ._progress import resolve as _resolve_progress
from .exceptions import InputError
from .metrics import Metric, resolve_metric
from .significance import (
    _NATIVE_VARIANT,
    _VARIANTS,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    _check_int,
    _plus_one,
    _resamples,
    _run_stream,
    _threads,
    few_items_warning,
)
from .stats import Statistics

__all__ = ["GainThreshold", "PairwiseResult", "gain_threshold", "pairwise"]

PAIR_BLOCK = int(_native.PAIR_BLOCK)
_PAIR_CLASSES = ("same", "different", "combination")


# --------------------------------------------------------------------------- shards
def _shard_task(
    table: np.ndarray,
    native: str,
    params: dict[str, float],
    seed: int,
    start: int,
    stop: int,
    resampling: str,
    observed: list[float],
    variant: str,
    alternative: str,
    orient: float,
    means: list[float] | None,
    threads: int,
    progress: Any = None,
) -> tuple[np.ndarray, np.ndarray, int | None]:
    """One shard of resamples (a pure function of its arguments)."""
    counts, sums, distinct = _native.pairwise_shard(
        np.ascontiguousarray(table),
        native,
        params,
        seed,
        0,
        start,
        stop,
        resampling,
        observed,
        variant,
        alternative,
        orient,
        means,
        threads,
        progress,
    )
    return np.asarray(counts), np.asarray(sums), distinct


def _run_shards(
    backend: Any,
    table: np.ndarray,
    shards: list[tuple[int, int]],
    args: tuple[Any, ...],
    progress: Any,
) -> list[tuple[np.ndarray, np.ndarray, int | None]]:
    if backend == "local":  # in-process: the engine reports progress itself
        return [_shard_task(table, *args[:3], a, b, *args[3:], progress=progress) for a, b in shards]
    tasks = [(table, *args[:3], a, b, *args[3:]) for a, b in shards]
    return run_tasks(backend, _shard_task, tasks, progress, weights=[b - a for a, b in shards])


def _merge(results: list[tuple[np.ndarray, np.ndarray, int | None]], s: int) -> tuple[np.ndarray, np.ndarray]:
    counts = np.zeros((s, s), dtype=np.uint64)
    blocks = []
    for c, sums, _ in results:
        counts += np.asarray(c, dtype=np.uint64).reshape(s, s)
        blocks.append(np.asarray(sums).reshape(-1, s, s))
    return counts, np.concatenate(blocks) if blocks else np.zeros((0, s, s))


def _blocked_means(block_sums: np.ndarray, total: int) -> np.ndarray:
    acc = np.zeros(block_sums.shape[1:])
    for blk in block_sums:  # block order, as the engine's mean_blocked
        acc = acc + blk
    return acc / total


# --------------------------------------------------------------------------- result
@dataclass(frozen=True)
class GainThreshold:
    """Berg-Kirkpatrick et al. (2012) §3.1.1: the gain beyond which a comparison is usually significant."""

    pair_class: str
    threshold: float | None
    n_comparisons: int
    band: tuple[float, float]
    percentile: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "pair_class": self.pair_class,
            "threshold": self.threshold,
            "n_comparisons": self.n_comparisons,
            "band": list(self.band),
            "percentile": self.percentile,
        }


@dataclass(frozen=True)
class PairwiseResult:
    """All pairs of ``systems``; entry ``[i, j]`` tests system j against system i (δ = m(j) − m(i))."""

    systems: tuple[str, ...]
    metric: str
    higher_is_better: bool
    scores: np.ndarray
    delta: np.ndarray
    pvalues: np.ndarray
    counts: np.ndarray
    adjusted: np.ndarray
    correction: str
    alpha: float
    variant: str
    alternative: str
    n_resamples: int
    seed: int
    pvalue_method: str
    mode: str
    resampling: str
    n_items: int
    version: str
    stream_version: int
    labels: Mapping[str, str] = field(default_factory=dict)
    combinations: frozenset[str] = frozenset()
    display_scale: int = 1
    #: Loud caveats (e.g. fewer than ``MIN_ITEMS`` items); printed in reports.
    warnings: tuple[str, ...] = ()

    # ---------------------------------------------------------------- views
    @property
    def signature(self) -> str:
        return "|".join(
            [
                f"sigfast:{self.version}",
                "test:pairwise_bootstrap",
                f"variant:{self.variant}",
                f"alt:{self.alternative}",
                f"metric:{self.metric}",
                f"n:{self.n_resamples}",
                f"seed:{self.seed}",
                f"p:{self.pvalue_method}",
                f"mode:{self.mode}",
                f"correction:{self.correction}",
                f"resampling:{self.resampling}",
                f"rng:philox4x64-10+xoshiro256pp/v{self.stream_version}",
            ]
        )

    def order(self) -> list[int]:
        """System indices from best to worst observed score."""
        key = -self.scores if self.higher_is_better else self.scores
        return [int(i) for i in np.argsort(key, kind="stable")]

    def significant(self, i: int, j: int) -> bool:
        """Whether systems i and j differ after the correction."""
        p = self.adjusted[i, j]
        return bool(np.isfinite(p) and p < self.alpha)

    def rank_ranges(self) -> dict[str, tuple[int, int]]:
        """Each system's possible ranks: 1 + #significantly better .. S − #significantly worse."""
        out = {}
        s = len(self.systems)
        for i in range(s):
            better = worse = 0
            for j in range(s):
                if i == j or not self.significant(i, j):
                    continue
                j_better = (self.scores[j] > self.scores[i]) == self.higher_is_better
                if j_better:
                    better += 1
                else:
                    worse += 1
            out[self.systems[i]] = (1 + better, s - worse)
        return out

    def clusters(self) -> list[list[str]]:
        """Groups of systems, best first, as shared-task reports print them.

        A boundary falls between ranks k and k + 1 exactly when every system
        ranked 1..k is significantly better than every system ranked below k
        (after the correction); systems between two boundaries form a group.
        """
        order = self.order()
        groups: list[list[int]] = [[order[0]]]
        for k in range(1, len(order)):
            above, below = order[:k], order[k:]
            if all(self.significant(a, b) for a in above for b in below):
                groups.append([order[k]])
            else:
                groups[-1].append(order[k])
        return [[self.systems[i] for i in g] for g in groups]

    def pair_class(self, i: int, j: int) -> str:
        a, b = self.systems[i], self.systems[j]
        if a in self.combinations or b in self.combinations:
            return "combination"
        la, lb = self.labels.get(a), self.labels.get(b)
        return "same" if la is not None and la == lb else "different"

    def comparisons(self) -> list[dict[str, Any]]:
        """One row per unordered pair (i < j): systems, δ, |gain|, p, adjusted p, class."""
        rows = []
        s = len(self.systems)
        for i in range(s):
            for j in range(i + 1, s):
                rows.append(
                    {
                        "system_i": self.systems[i],
                        "system_j": self.systems[j],
                        "score_i": float(self.scores[i]),
                        "score_j": float(self.scores[j]),
                        "delta": float(self.delta[i, j]),
                        "gain": abs(float(self.delta[i, j])),
                        "pvalue": float(self.pvalues[i, j]),
                        "adjusted": float(self.adjusted[i, j]),
                        "count": int(self.counts[i, j]),
                        "pair_class": self.pair_class(i, j),
                    }
                )
        return rows

    def to_dict(self) -> dict[str, Any]:
        def mat(a: np.ndarray) -> list[list[float | None]]:
            return [[None if not math.isfinite(float(v)) else float(v) for v in row] for row in a]

        return {
            "systems": list(self.systems),
            "metric": self.metric,
            "higher_is_better": self.higher_is_better,
            "scores": [float(v) for v in self.scores],
            "delta": mat(self.delta),
            "pvalues": mat(self.pvalues),
            "adjusted": mat(self.adjusted),
            "counts": self.counts.astype(int).tolist(),
            "correction": self.correction,
            "alpha": self.alpha,
            "variant": self.variant,
            "alternative": self.alternative,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "pvalue_method": self.pvalue_method,
            "mode": self.mode,
            "resampling": self.resampling,
            "n_items": self.n_items,
            "clusters": self.clusters(),
            "rank_ranges": {k: list(v) for k, v in self.rank_ranges().items()},
            "signature": self.signature,
            "warnings": list(self.warnings),
        }

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def to_csv(self) -> str:
        rows = self.comparisons()
        buf = _io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(rows[0]) if rows else ["system_i", "system_j"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue()

    def table(self, markdown: bool = False) -> str:
        from .report import _fmt_p, _fmt_score, format_table

        ranges = self.rank_ranges()
        order = self.order()
        cluster_of = {name: k + 1 for k, group in enumerate(self.clusters()) for name in group}
        rows = []
        for pos, i in enumerate(order):
            name = self.systems[i]
            nxt = order[pos + 1] if pos + 1 < len(order) else None
            p_next = _fmt_p(float(self.adjusted[i, nxt])) if nxt is not None else ""
            lo, hi = ranges[name]
            rows.append(
                [
                    pos + 1,
                    name,
                    _fmt_score(self.display_scale, float(self.scores[i])),
                    cluster_of[name],
                    f"{lo}-{hi}" if lo != hi else str(lo),
                    p_next,
                ]
            )
        head = ["#", "system", self.metric, "group", "rank range", f"p vs next ({self.correction})"]
        return format_table(rows, head, markdown=markdown)

    def __str__(self) -> str:
        return (
            f"pairwise {self.variant} bootstrap, {len(self.systems)} systems, {self.n_items} items, "
            f"{self.n_resamples} {self.mode} resamples, seed {self.seed}\n{self.table()}\n{self.signature}"
            + "".join(f"\nWARNING: {w}" for w in self.warnings)
        )

    # ---------------------------------------------------------------- plots
    def plot_confidence_vs_gain(self, path: str | os.PathLike[str] | None = None, *, ax: Any = None) -> Any:
        """Confidence (1 − p) against |gain|, one colour per pair class (the paper's figures)."""
        plt = pyplot()
        if ax is None:
            fig, ax = plt.subplots(figsize=(6, 4.2))
        else:
            fig = ax.figure
        scale = self.display_scale
        colours = {"same": "tab:blue", "different": "tab:orange", "combination": "tab:green"}
        rows = self.comparisons()
        for cls in _PAIR_CLASSES:
            pts = [(scale * r["gain"], 1 - r["pvalue"]) for r in rows if r["pair_class"] == cls]
            if pts:
                g, c = zip(*pts)
                ax.scatter(g, c, s=12, alpha=0.7, color=colours[cls], label=f"{cls} ({len(pts)})")
        ax.axhline(0.95, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(f"{self.metric} gain" + (" (points)" if scale == 100 else ""))
        ax.set_ylabel("confidence (1 - p)")
        ax.set_title(f"{len(self.systems)} systems, {self.variant} bootstrap, B = {self.n_resamples}")
        ax.legend(loc="lower right", fontsize="small")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig

    def plot_heatmap(self, path: str | os.PathLike[str] | None = None, *, adjusted: bool = True, ax: Any = None) -> Any:
        """A heat map of (adjusted) p-values, systems ordered best first."""
        plt = pyplot()
        order = self.order()
        m = (self.adjusted if adjusted else self.pvalues)[np.ix_(order, order)]
        n = len(order)
        if ax is None:
            fig, ax = plt.subplots(figsize=(1.2 + 0.32 * n, 1.0 + 0.3 * n))
        else:
            fig = ax.figure
        im = ax.imshow(np.where(np.isfinite(m), m, np.nan), cmap="viridis_r", vmin=0, vmax=1)
        names = [self.systems[i] for i in order]
        ax.set_xticks(range(n), names, rotation=90, fontsize=7)
        ax.set_yticks(range(n), names, fontsize=7)
        fig.colorbar(im, ax=ax, label="adjusted p" if adjusted else "p")
        ax.set_title(f"{self.metric}: pairwise p-values ({self.correction})")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig


def gain_threshold(
    result: PairwiseResult,
    *,
    band: tuple[float, float] = (0.04, 0.06),
    percentile: float = 95.0,
) -> list[GainThreshold]:
    """The gain threshold per pair class (Berg-Kirkpatrick et al. 2012, §3.1.1).

    Among comparisons whose p-value lies in ``band`` (inclusive), the
    ``percentile``-th percentile (numpy's linear rule) of their absolute
    gains; one threshold for all pairs and one per class.
    """
    lo, hi = band
    if not 0 <= lo <= hi <= 1:
        raise InputError(f"band must satisfy 0 <= low <= high <= 1, got {band}")
    if not 0 <= percentile <= 100:
        raise InputError(f"percentile must be in [0, 100], got {percentile}")
    rows = [r for r in result.comparisons() if lo <= r["pvalue"] <= hi]
    out = []
    for cls in ("all",) + _PAIR_CLASSES:
        gains = [r["gain"] for r in rows if cls == "all" or r["pair_class"] == cls]
        thr = float(np.percentile(gains, percentile)) if gains else None
        out.append(GainThreshold(cls, thr, len(gains), (lo, hi), percentile))
    return out


# --------------------------------------------------------------------------- API
def _as_stats(data: Any, metric: Any) -> Statistics:
    if isinstance(data, Statistics):
        return data
    if isinstance(data, Mapping):
        arrays = {str(k): np.asarray(v) for k, v in data.items()}
        if all(a.ndim == 1 for a in arrays.values()):
            return Statistics.from_scores(arrays)
        m = resolve_metric(metric) if metric is not None and not callable(metric) else None
        names = m.stat_names if m is not None else tuple(f"s{i}" for i in range(next(iter(arrays.values())).shape[1]))
        return (
            Statistics.from_counts(arrays, stat_names=names, metric=m.name if m else None)
            if (m and m.counts)
            else Statistics(np.stack(list(arrays.values())), tuple(arrays), names)
        )
    raise InputError("pairwise() takes a Statistics object or a mapping of system name -> per-item array")


def pairwise(
    data: Statistics | Mapping[str, Any],
    *,
    metric: Any = None,
    systems: Sequence[str | int] | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    variant: Literal["bk", "koehn", "shifted"] = "bk",
    alternative: Literal["two-sided", "greater", "less"] | None = None,
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    correction: str = "holm",
    alpha: float = 0.05,
    mode: Literal["shared", "independent"] = "shared",
    resampling: Literal["auto", "items", "distinct"] = "auto",
    backend: Any = "local",
    shard_size: int = PAIR_BLOCK,
    labels: Mapping[str, str] | None = None,
    combinations: Sequence[str] = (),
    n_threads: int | None = None,
    progress: ProgressArg = None,
    **metric_params: Any,
) -> PairwiseResult:
    """Paired bootstrap tests of every pair of systems.

    ``mode="shared"`` draws one set of resamples for all systems: every
    pair's p-value equals :func:`sigfast.paired_bootstrap` on that pair with
    the same seed and ``resampling="items"`` (distinct-row resampling, when
    ``"auto"`` picks it, uses the distinct rows of all systems jointly).
    ``mode="independent"`` gives each pair its own sub-stream.
    ``correction`` adjusts the family of unordered pairs (``"holm"``,
    ``"bonferroni"``, ``"hochberg"``, ``"bh"``, ``"by"`` or ``"none"``).
    ``backend`` is ``"local"``, ``"ray"`` or any ``concurrent.futures.Executor``;
    work is split into shards of ``shard_size`` resamples (a multiple of
    65,536) and every backend gives the same bytes. ``labels`` maps systems to
    a group (research group or model type) and ``combinations`` names system
    combinations, for :func:`gain_threshold` and the confidence-vs-gain plot.
    """
    stats = _as_stats(data, metric)
    if systems is not None:
        stats = stats.select(*systems)
    if stats.n_systems < 2:
        raise InputError("pairwise() needs at least two systems")
    m: Metric = resolve_metric(metric, stats, **metric_params)
    B = _resamples(n_resamples)
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    v = _VARIANTS.get(str(variant).lower())
    if v is None:
        raise InputError(f"unknown bootstrap variant {variant!r}; choose 'bk', 'koehn' or 'shifted'")
    if v == "shifted":
        alt = alternative or "two-sided"
        if alt not in ("two-sided", "greater", "less"):
            raise InputError(f"alternative must be 'two-sided', 'greater' or 'less', got {alt!r}")
    elif alternative is not None:
        raise InputError(f"the {v} bootstrap is one-sided in the observed direction; it takes no alternative=")
    else:
        alt = "observed-direction" if v == "berg-kirkpatrick" else "observed-winner"
    native_alt = alt if v == "shifted" else "two-sided"
    if mode not in ("shared", "independent"):
        raise InputError(f"mode must be 'shared' or 'independent', got {mode!r}")
    if resampling not in ("auto", "items", "distinct"):
        raise InputError(f"resampling must be 'auto', 'items' or 'distinct', got {resampling!r}")
    shard_size = _check_int("shard_size", shard_size, PAIR_BLOCK)
    if shard_size % PAIR_BLOCK:
        raise InputError(f"shard_size must be a multiple of {PAIR_BLOCK}, got {shard_size}")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be in (0, 1), got {alpha}")
    plus_one = _plus_one(pvalue)
    threads = _threads(n_threads)
    labels = dict(labels or {})
    combos = frozenset(str(c) for c in combinations)
    unknown = (set(labels) | combos) - set(stats.systems)
    if unknown:
        raise InputError(f"labels/combinations name unknown systems: {sorted(unknown)}")

    s, k, n = stats.n_systems, stats.n_stats, stats.n_items
    observed = m.evaluate(stats.totals(), n)
    orient = 1.0 if m.higher_is_better else -1.0
    nv = _NATIVE_VARIANT[v]
    cb = _resolve_progress(progress, B, float(B) * n * s, "pairwise")

    resampling_used = resampling
    if mode == "independent":
        counts = np.zeros((s, s), dtype=np.uint64)
        pair = 0
        for i in range(s):
            for j in range(i + 1, s):
                pair += 1
                table2 = np.ascontiguousarray(np.concatenate([stats.values[i], stats.values[j]], axis=1))
                obs = float(observed[j] - observed[i])
                alt_ji = {"greater": "less", "less": "greater"}.get(native_alt, native_alt)
                # both directions count on one stream of δ* (−δ* for (j, i)), in bounded memory
                summary = _native.Summary(B, 2)
                summary.add_bootstrap_rule(nv, native_alt, orient, obs)
                summary.add_bootstrap_rule(nv, alt_ji, orient, -obs, True)
                _run_stream(summary, table2, m, k, B, seed, threads, None, resampling=resampling, sub=pair)
                counts[i, j], counts[j, i] = (int(c) for c in summary.counts())
                if cb is not None:
                    cb(pair, s * (s - 1) // 2)
    else:
        table = np.ascontiguousarray(stats.values.transpose(1, 0, 2).reshape(n, s * k))
        obs_list = [float(x) for x in observed]
        if m.native is not None:
            shards = [(a, min(a + shard_size, B)) for a in range(0, B, shard_size)]
            if backend == "local":
                shards = [(0, B)]
            args = (m.native, dict(m.params), seed, resampling, obs_list, nv, native_alt, orient, None, threads)
            results = _run_shards(backend, table, shards, args, cb)
            counts, block_sums = _merge(results, s)
            distinct = results[0][2]
            if v == "shifted":
                means = _blocked_means(block_sums, B).ravel().tolist()
                args = args[:8] + (means, threads)
                counts, _ = _merge(_run_shards(backend, table, shards, args, cb), s)
        else:
            if backend != "local":
                raise InputError("a Python metric runs locally only; use a built-in metric for other backends")
            counts, block_sums, distinct = _custom_counts(
                table, m, s, k, n, seed, B, resampling, obs_list, nv, native_alt, orient, None, threads, cb
            )
            if v == "shifted":
                means = _blocked_means(block_sums, B).ravel().tolist()
                counts, _, _ = _custom_counts(
                    table, m, s, k, n, seed, B, resampling, obs_list, nv, native_alt, orient, means, threads, cb
                )
        resampling_used = f"distinct-rows({distinct})" if distinct is not None else "items"

    cnt = counts.astype(np.float64)
    pv = (cnt + 1) / (B + 1) if plus_one else cnt / B
    np.fill_diagonal(pv, np.nan)
    delta = observed[None, :] - observed[:, None]
    adjusted = _adjust_matrix(pv, correction, alpha)
    return PairwiseResult(
        display_scale=m.display_scale,
        systems=stats.systems,
        metric=m.name,
        higher_is_better=m.higher_is_better,
        scores=np.asarray(observed),
        delta=delta,
        pvalues=pv,
        counts=counts,
        adjusted=adjusted,
        correction=correction,
        alpha=alpha,
        variant=v,
        alternative=alt,
        n_resamples=B,
        seed=seed,
        pvalue_method="(c+1)/(B+1)" if plus_one else "c/B",
        mode=mode,
        resampling=resampling_used,
        n_items=n,
        version=_native.__version__,
        stream_version=_native.STREAM_VERSION,
        labels=labels,
        combinations=combos,
        warnings=few_items_warning(n),
    )


def _custom_counts(
    table: np.ndarray,
    m: Metric,
    s: int,
    k: int,
    n: int,
    seed: int,
    B: int,
    resampling: str,
    observed: list[float],
    nv: str,
    alt: str,
    orient: float,
    means: list[float] | None,
    threads: int,
    cb: Any,
) -> tuple[np.ndarray, np.ndarray, int | None]:
    counts = np.zeros((s, s), dtype=np.uint64)
    blocks = []
    distinct = None
    for start in range(0, B, PAIR_BLOCK):
        count = min(PAIR_BLOCK, B - start)
        sums, distinct = _native.bootstrap_sums(table, seed, start, count, resampling, threads, None)
        vals = np.ascontiguousarray(np.stack([m.evaluate(sums[:, j * k : (j + 1) * k], n) for j in range(s)], 1))
        c, bs = _native.pair_counts(vals, observed, nv, alt, orient, means, threads)
        counts += np.asarray(c, dtype=np.uint64)
        blocks.append(np.asarray(bs))
        if cb is not None:
            cb(start + count, B)
    return counts, np.stack(blocks), distinct


def _adjust_matrix(pv: np.ndarray, correction: str, alpha: float) -> np.ndarray:
    s = pv.shape[0]
    iu = np.triu_indices(s, 1)
    if correction in ("none", None):
        return pv.copy()
    from .multitest import adjust

    upper = np.asarray(adjust(pv[iu], correction, alpha=alpha).adjusted)
    out = np.full_like(pv, np.nan)
    out[iu] = upper
    lower_src = adjust(pv.T[iu], correction, alpha=alpha).adjusted  # (j, i) entries of the same family
    out[(iu[1], iu[0])] = np.asarray(lower_src)
    return out


# --------------------------------------------------------------------------- unpaired scores
@dataclass(frozen=True)
class UnpairedPairwiseResult:
    """All pairs of systems scored on different items (e.g. human judgements).

    Entry ``[i, j]`` is the p-value of the one-sided test that system j
    scores higher than system i (``alternative="greater"``), or of the
    two-sided test; ``means`` and ``n`` describe each system's scores.
    """

    systems: tuple[str, ...]
    test: str
    alternative: str
    means: np.ndarray
    n: np.ndarray
    pvalues: np.ndarray
    adjusted: np.ndarray
    correction: str
    alpha: float

    def to_dict(self) -> dict[str, Any]:
        def mat(a: np.ndarray) -> list[list[float | None]]:
            return [[None if not math.isfinite(float(v)) else float(v) for v in row] for row in a]

        return {
            "systems": list(self.systems),
            "test": self.test,
            "alternative": self.alternative,
            "means": [float(v) for v in self.means],
            "n": [int(v) for v in self.n],
            "pvalues": mat(self.pvalues),
            "adjusted": mat(self.adjusted),
            "correction": self.correction,
            "alpha": self.alpha,
        }

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def table(self, markdown: bool = False) -> str:
        """Systems by mean score with the p-value against each lower-ranked system."""
        from .report import _fmt_p, format_table

        order = [int(i) for i in np.argsort(-self.means, kind="stable")]
        head = ["system", "mean", "n"] + [self.systems[j] for j in order]
        rows = []
        for i in order:
            cells = []
            for j in order:
                p = self.adjusted[j, i]
                cells.append(
                    "-"
                    if i == j
                    else (_fmt_p(float(p)) + ("*" if p < self.alpha else ""))
                    if self.means[i] > self.means[j]
                    else ""
                )
            rows.append([self.systems[i], f"{self.means[i]:.4f}", int(self.n[i])] + cells)
        return format_table(rows, head, markdown=markdown)


def pairwise_unpaired(
    scores: Mapping[str, Any],
    *,
    test: Literal["ranksum", "welch"] = "ranksum",
    alternative: Literal["greater", "two-sided"] = "greater",
    correction: str = "none",
    alpha: float = 0.05,
    use_continuity: bool = True,
) -> UnpairedPairwiseResult:
    """Pairwise Wilcoxon rank-sum (Mann-Whitney U) or Welch t-tests of unpaired scores.

    ``scores`` maps each system to its scores (any lengths), e.g.
    segment-level human judgements collected on different subsets of
    segments, as in the WMT human evaluation.
    """
    from .classical import mann_whitney_u, welch_ttest

    names = [str(k) for k in scores]
    if len(names) < 2:
        raise InputError("pairwise_unpaired() needs at least two systems")
    arrays = []
    for k in names:
        a = np.asarray(scores[k], dtype=np.float64)
        if a.ndim != 1 or a.size == 0:
            raise InputError(f"scores of {k!r} must be a non-empty 1-D array")
        if not np.all(np.isfinite(a)):
            raise InputError(f"scores of {k!r} contain a non-finite value")
        arrays.append(a)
    if test not in ("ranksum", "welch"):
        raise InputError(f"test must be 'ranksum' or 'welch', got {test!r}")
    if alternative not in ("greater", "two-sided"):
        raise InputError(f"alternative must be 'greater' or 'two-sided', got {alternative!r}")
    s = len(names)
    pv = np.full((s, s), np.nan)
    for i in range(s):
        for j in range(s):
            if i == j:
                continue
            if test == "ranksum":
                r = mann_whitney_u(arrays[i], arrays[j], alternative=alternative, use_continuity=use_continuity)
            else:
                r = welch_ttest(arrays[i], arrays[j], alternative=alternative)
            pv[i, j] = r.pvalue
    label = (
        "Wilcoxon rank-sum (Mann-Whitney U" + (", continuity" if use_continuity else "") + ")"
        if test == "ranksum"
        else "Welch t-test"
    )
    return UnpairedPairwiseResult(
        tuple(names),
        label,
        alternative,
        np.array([a.mean() for a in arrays]),
        np.array([a.size for a in arrays]),
        pv,
        _adjust_matrix(pv, correction, alpha),
        correction,
        alpha,
    )
