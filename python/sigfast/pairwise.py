"""Many systems at once: every pair on shared bootstrap resamples.

Each system's metric is computed once per shared resample and every pair's
δ* is read off the same matrix (Berg-Kirkpatrick et al. 2012, footnote 5).
Work is split into shards of whole blocks of resamples; a shard returns
integer exceedance counts and per-block sums, merged in shard order, so a
local run, a process pool and a Ray cluster give the same bytes.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from . import _native
from ._api import checked_keywords
from ._plot import pyplot
from ._progress import ProgressArg
from .exceptions import InputError
from .results import Key, Result, deprecated_alias, option
from .significance import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
)
from .stats import Statistics

__all__ = ["GainThreshold", "PairwiseResult", "gain_threshold", "pairwise"]

PAIR_BLOCK = int(_native.PAIR_BLOCK)
#: Pair classes (BK 2012 Figs. 2-8): both systems labelled with the same group, with different groups, a
#: system combination involved, or a system without a label (no labels given: every pair).
_PAIR_CLASSES = ("same", "different", "combination", "unlabeled")
#: How the pair classes read in legends, tables and reports.
PAIR_CLASS_NAMES = {
    "all": "all pairs",
    "same": "same group",
    "different": "different group",
    "combination": "system combination",
    "unlabeled": "unlabeled",
}


def pair_class_name(cls: str) -> str:
    """``"same group"`` for ``"same"``, ``"different group"`` for ``"different"``; others as they are."""
    return PAIR_CLASS_NAMES.get(cls, cls)


#: What the Romano–Wolf p-values are, in a report's notes.
ROMANO_WOLF_NOTE = (
    "romano-wolf: step-down max-statistic p-values (Romano & Wolf 2005) on the same resamples, each difference "
    "standardized by its bootstrap standard deviation and centred at the observed one"
)


# --------------------------------------------------------------------------- result
@dataclass(frozen=True)
class GainThreshold:
    """Berg-Kirkpatrick et al. (2012) §3.1.1: the gain beyond which a comparison is usually significant.

    ``threshold`` is in the metric's own units (a fraction for accuracy and
    F1); :meth:`describe` and :meth:`display` show it in the display scale
    (``scale=100``: points for fractions) and ``unit`` (:func:`sigfast.metrics.gain_unit`:
    ``"points"`` for fractions and 0-100 metrics such as BLEU, else the metric's own units).
    """

    pair_class: str
    threshold: float | None
    n_comparisons: int
    band: tuple[float, float]
    percentile: float

    @property
    def min_reliable(self) -> int:
        """Comparisons needed before the percentile rests on the data rather than on the largest gain.

        The q-th percentile of n gains is an interpolation between the two
        largest ones unless n ≥ 1 / (1 − q) (20 for the 95th percentile);
        never fewer than 5.
        """
        return max(5, math.ceil(100.0 / max(100.0 - self.percentile, 1.0)))

    @property
    def warning(self) -> str | None:
        """Why the threshold is not reliable, or None."""
        if self.threshold is None:
            return f"no comparison with p in [{self.band[0]:g}, {self.band[1]:g}]"
        if self.n_comparisons < self.min_reliable:
            return (
                f"only {self.n_comparisons} comparison{'s' if self.n_comparisons != 1 else ''} in the band; the "
                f"{self.percentile:g}th percentile needs {self.min_reliable} or more, so this is little more than "
                "the largest gain"
            )
        return None

    def display(self, scale: int = 1, unit: str | None = None) -> str:
        """The threshold as shown (no unit): 2 decimals in points (fractions x100, BLEU), else 4 digits."""
        if self.threshold is None:
            return ""
        points = scale == 100 or unit == "points"
        return f"{scale * self.threshold:.2f}" if points else f"{scale * self.threshold:.4g}"

    def describe(self, scale: int = 1, unit: str | None = None) -> str:
        """One line with the threshold and its unit (``unit``; default "points" for ``scale=100``), warning
        when few comparisons carry the threshold."""
        what = pair_class_name(self.pair_class)
        if self.threshold is None:
            return f"gain threshold ({what}): no comparison with p in [{self.band[0]:g}, {self.band[1]:g}]"
        unit = unit if unit is not None else ("points" if scale == 100 else "")
        shown = self.display(scale, unit) + (f" {unit}" if unit else "")
        line = (
            f"gain threshold ({what}): {shown}, the {self.percentile:g}th "
            f"percentile of |delta| over {self.n_comparisons} comparison{'s' if self.n_comparisons != 1 else ''} "
            f"with p in [{self.band[0]:g}, {self.band[1]:g}]"
        )
        if self.warning is not None:
            line += f" (warning: {self.warning})"
        return line

    def to_dict(self) -> dict[str, Any]:
        return {
            "pair_class": self.pair_class,
            "threshold": self.threshold,
            "n_comparisons": self.n_comparisons,
            "band": list(self.band),
            "percentile": self.percentile,
            "min_reliable": self.min_reliable,
            "warning": self.warning,
        }


@dataclass(frozen=True)
class PairwiseResult(Result):
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
    groups: str = "boundaries"
    signature: str = ""
    #: Loud caveats (e.g. fewer than ``MIN_ITEMS`` items); printed in reports.
    warnings: tuple[str, ...] = ()
    #: Resamples each pair's p-value rests on, when ``nan_policy="omit"`` dropped some (else None: all B).
    n_valid: np.ndarray | None = field(default=None, compare=False)
    nan_policy: str = "raise"
    #: Clusters resampled (whole clusters drawn), or None when items were.
    n_clusters: int | None = None
    #: ``bootstrap_ranks=True``: each system's share of the shared resamples on which it is best (ties
    #: shared evenly) and its mean rank over them (:func:`bootstrap_ranks`); else None.
    p_best: np.ndarray | None = field(default=None, compare=False)
    expected_rank: np.ndarray | None = field(default=None, compare=False)
    #: ``return_distribution=True``: every system's metric on every shared resample (B × systems).
    distribution: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: Output options: the p-value band and the percentile of the gain thresholds (Berg-Kirkpatrick
    #: et al. 2012, 3.1.1) that the text, markdown and LaTeX reports show.
    band: tuple[float, float] = option((0.04, 0.06))
    percentile: float = option(95.0)

    _keys = (
        *("systems", "metric", "higher_is_better", "scores", "delta", "pvalues", "adjusted", "counts"),
        *("correction", "alpha", "variant", "alternative", "n_resamples", "seed", "pvalue_method", "mode"),
        *("resampling", "n_items", "groups", "clusters", "rank_ranges"),
        Key("p_best", "_p_best", when="ranked"),
        Key("expected_rank", "_expected_rank", when="ranked"),
        *("signature", "warnings"),
    )

    @property
    def ranked(self) -> bool:
        """Whether P(best) and the expected rank were estimated (``bootstrap_ranks=True``)."""
        return self.p_best is not None and self.expected_rank is not None

    def _p_best(self) -> dict[str, float]:
        return dict(zip(self.systems, (float(x) for x in np.asarray(self.p_best))))

    def _expected_rank(self) -> dict[str, float]:
        return dict(zip(self.systems, (float(x) for x in np.asarray(self.expected_rank))))

    # ---------------------------------------------------------------- views
    @property
    def gain_unit(self) -> str:
        """The unit gains are shown in (:func:`sigfast.metrics.gain_unit`): points, or the metric's units."""
        from .metrics import gain_unit

        return gain_unit(self.metric, self.display_scale)

    def order(self) -> list[int]:
        """System indices from best to worst observed score."""
        key = -self.scores if self.higher_is_better else self.scores
        return [int(i) for i in np.argsort(key, kind="stable")]

    @property
    def design_min_pvalue(self) -> float:
        """The smallest p-value a pair's bootstrap can give on this design, whatever B
        (:func:`sigfast.results.design_min_pvalue`: u^-u with u the clusters, else the items): with 1 or 2
        clusters it is 1 or 0.25, and a p below ``alpha`` is then only the floor 1/(B+1)."""
        from .results import design_min_pvalue

        units = self.n_clusters if self.n_clusters is not None else self.n_items
        return design_min_pvalue("paired_bootstrap", units, self.alternative)

    def reaches(self) -> bool:
        """Whether the design can give a p-value below ``alpha`` at all (:attr:`design_min_pvalue`); where it
        cannot, no pair is significant: no star, one group, every rank range the whole ranking."""
        return self.design_min_pvalue < self.alpha

    def significant(self, i: int, j: int) -> bool:
        """Whether systems i and j differ after the correction (never where the design cannot reach alpha)."""
        p = self.adjusted[i, j]
        return bool(np.isfinite(p) and p < self.alpha and self.reaches())

    def significance(self) -> np.ndarray:
        """``[i, j]``: whether systems i and j differ after the correction (:meth:`significant`)."""
        with np.errstate(invalid="ignore"):
            return np.isfinite(self.adjusted) & (self.adjusted < self.alpha) & self.reaches()

    def rank_ranges(self) -> dict[str, tuple[int, int]]:
        """Each system's possible ranks: 1 + #significantly better .. S − #significantly worse."""
        ranges = rank_ranges(self.scores, self.higher_is_better, self.significance())
        return dict(zip(self.systems, ranges))

    def clusters(self, method: str | None = None) -> list[list[str]]:
        """Groups of systems, best first.

        ``"boundaries"`` (the WMT reports' rule, default): a boundary falls
        between ranks k and k + 1 exactly when every system ranked 1..k is
        significantly better than every system ranked below k (after the
        correction). Systems inside such a group can still differ
        significantly from each other: a group is what lies between two
        boundaries, not a set of systems that do not differ.

        ``"strict"``: walking down the ranking, a system starts a new group
        when it differs significantly from any system of the current group,
        so no two systems inside a group differ significantly.
        """
        groups = significance_groups(
            self.scores, self.higher_is_better, self.significance(), method or self.groups, self.order()
        )
        return [[self.systems[i] for i in g] for g in groups]

    def pair_class(self, i: int, j: int) -> str:
        """``"combination"`` when either system is one, ``"same"``/``"different"`` when both carry a
        label (group), else ``"unlabeled"`` (what every pair is when no labels are given)."""
        a, b = self.systems[i], self.systems[j]
        if a in self.combinations or b in self.combinations:
            return "combination"
        la, lb = self.labels.get(a), self.labels.get(b)
        if la is None or lb is None:
            return "unlabeled"
        return "same" if la == lb else "different"

    def pair_table(self) -> dict[str, np.ndarray]:
        """Every unordered pair (i < j, row by row) as arrays, not one object per pair (2,000 systems are
        1,999,000 pairs): ``i``, ``j``, ``delta``, ``pvalue``, ``adjusted``, ``count`` and ``pair_class``
        (an index into ``_PAIR_CLASSES``)."""
        s = len(self.systems)
        i, j = np.triu_indices(s, 1)
        comb = np.array([name in self.combinations for name in self.systems], dtype=bool)
        names: dict[str, int] = {}
        lab = np.array(
            [-1 if self.labels.get(n) is None else names.setdefault(self.labels[n], len(names)) for n in self.systems],
            dtype=np.int64,
        )
        cls = np.where(lab[i] == lab[j], _PAIR_CLASSES.index("same"), _PAIR_CLASSES.index("different"))
        cls[(lab[i] < 0) | (lab[j] < 0)] = _PAIR_CLASSES.index("unlabeled")
        cls[comb[i] | comb[j]] = _PAIR_CLASSES.index("combination")
        return {
            "i": i,
            "j": j,
            "delta": np.asarray(self.delta, dtype=np.float64)[i, j],
            "pvalue": np.asarray(self.pvalues, dtype=np.float64)[i, j],
            "adjusted": np.asarray(self.adjusted, dtype=np.float64)[i, j],
            "count": np.asarray(self.counts)[i, j],
            "pair_class": cls.astype(np.int8),
        }

    def iter_comparisons(self) -> Iterator[dict[str, Any]]:
        """:meth:`comparisons` one row at a time, made from :meth:`pair_table` as they are asked for."""
        t = self.pair_table()
        scores = [float(x) for x in self.scores]
        for i, j, d, p, a, c, k in zip(
            t["i"].tolist(),
            t["j"].tolist(),
            t["delta"].tolist(),
            t["pvalue"].tolist(),
            t["adjusted"].tolist(),
            t["count"].tolist(),
            t["pair_class"].tolist(),
        ):
            yield {
                "system_i": self.systems[i],
                "system_j": self.systems[j],
                "score_i": scores[i],
                "score_j": scores[j],
                "delta": d,
                "gain": abs(d),
                "pvalue": p,
                "adjusted": a,
                "count": int(c),
                "pair_class": _PAIR_CLASSES[k],
            }

    def comparisons(self) -> list[dict[str, Any]]:
        """One row per unordered pair (i < j): systems, δ, |gain|, p, adjusted p, class."""
        return list(self.iter_comparisons())

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """:meth:`rows` one row at a time (what the CLI's CSV output streams)."""
        common = {
            "metric": self.metric,
            "variant": self.variant,
            "alternative": self.alternative,
            "correction": self.correction,
            "alpha": self.alpha,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "n_items": self.n_items,
        }
        reaches = self.reaches()
        ranks: dict[str, Any] = {}
        if self.ranked:
            index = {name: k for k, name in enumerate(self.systems)}
            pb, er = np.asarray(self.p_best), np.asarray(self.expected_rank)
        for c in self.iter_comparisons():
            if self.ranked:
                a, b = index[c["system_i"]], index[c["system_j"]]
                ranks = {
                    "p_best_i": float(pb[a]),
                    "p_best_j": float(pb[b]),
                    "expected_rank_i": float(er[a]),
                    "expected_rank_j": float(er[b]),
                }
            yield {
                **c,
                "significant": bool(c["adjusted"] < self.alpha and reaches),
                **ranks,
                **common,
                "signature": self.signature,
            }

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per unordered pair (:meth:`comparisons`) with the metric, the test's
        settings, the decision and the signature as columns."""
        return list(self.iter_rows())

    def pair_classes(self) -> list[str]:
        """The pair classes present among the pairs, in the order of ``_PAIR_CLASSES``."""
        present = set(np.unique(self.pair_table()["pair_class"]).tolist())
        return [c for k, c in enumerate(_PAIR_CLASSES) if k in present]

    def gain_thresholds(
        self, *, band: tuple[float, float] | None = None, percentile: float | None = None
    ) -> list[GainThreshold]:
        """The thresholds worth printing: all pairs, then each class when the pairs fall in several
        (``band`` and ``percentile``: default the result's options)."""
        band = self.band if band is None else band
        percentile = self.percentile if percentile is None else percentile
        ths = gain_threshold(self, band=band, percentile=percentile)
        classes = self.pair_classes()
        return [t for t in ths if t.pair_class == "all" or (len(classes) > 1 and t.pair_class in classes)]

    def tables(self, **options: Any) -> list[Any]:
        """The ranking (with groups, rank ranges and p against the next system), every pair, and the gain
        thresholds (Berg-Kirkpatrick et al. 2012 §3.1.1) of all pairs and of each pair class (the
        options ``band`` and ``percentile``, here or on the result: :meth:`with_options`)."""

        if options:
            return self.with_options(**options).tables()
        return [self._ranking_table(), self._pairs_table(), self.threshold_table()]

    def _ranking_table(self) -> Any:
        """The ranking with groups, rank ranges and p against the next system (the text report's table)."""
        from .report import Table, _fmt_p, _fmt_score

        ranges = self.rank_ranges()
        order = self.order()
        cluster_of = {name: k + 1 for k, group in enumerate(self.clusters()) for name in group}
        rows = []
        for pos, i in enumerate(order):
            name = self.systems[i]
            nxt = order[pos + 1] if pos + 1 < len(order) else None
            p_next = _fmt_p(float(self.adjusted[i, nxt])) if nxt is not None else ""
            lo, hi = ranges[name]
            row: tuple[Any, ...] = (
                pos + 1,
                name,
                _fmt_score(self.display_scale, float(self.scores[i])),
                cluster_of[name],
                f"{lo}-{hi}" if lo != hi else str(lo),
                p_next,
            )
            if self.ranked:
                row += (f"{float(self.p_best[i]):.4f}", f"{float(self.expected_rank[i]):.3f}")  # type: ignore[index]
            rows.append(row)
        unit = " x100" if self.display_scale == 100 else ""
        group_head = "group" if self.groups == "strict" else "cluster"
        rule = (
            "clusters: a boundary where every system above is significantly better than every system below "
            "(WMT style; systems inside a cluster may still differ)"
            if self.groups == "boundaries"
            else "groups: no two systems inside a group differ significantly"
        )
        head: tuple[str, ...] = (
            "#",
            "system",
            f"{self.metric}{unit}",
            group_head,
            "rank range",
            f"p vs next ({self.correction})",
        )
        notes: tuple[str, ...] = (rule,)
        if self.ranked:
            head += ("P(best)", "E[rank]")
            notes += (
                "P(best): share of the resamples on which a system is best (ties shared evenly); E[rank]: its "
                "mean rank over them",
            )
        if self.correction == "romano-wolf":
            notes += (ROMANO_WOLF_NOTE,)
        return Table(
            head,
            tuple(rows),
            title=(
                f"pairwise {self.variant} bootstrap ({self.alternative}), {len(self.systems)} systems, "
                f"{self.n_items} items, B = {self.n_resamples:,} {self.mode} resamples ({self.resampling}), "
                f"seed {self.seed}, p = {self.pvalue_method}, correction {self.correction} at alpha {self.alpha}"
            ),
            notes=(*notes, *self._floor_note()),
            signature=self.signature,
        )

    def _floor_note(self) -> tuple[str, ...]:
        if self.reaches():
            return ()
        units = f"{self.n_clusters} clusters" if self.n_clusters is not None else f"{self.n_items} items"
        return (
            f"no star and one group: with {units} the smallest p-value the design can give is "
            f"{self.design_min_pvalue:.3g}, so a p below {self.alpha:g} says nothing (it is the resampling floor "
            "1/(B+1) or Monte Carlo noise)",
        )

    def _pairs_table(self) -> Any:
        """Every pair: δ, p, adjusted p, the decision and the pair class."""
        from .report import Table, _fmt_p

        unit = " x100" if self.display_scale == 100 else ""
        reaches = self.reaches()
        pair_rows = tuple(
            (
                c["system_i"],
                c["system_j"],
                f"{self.display_scale * c['delta']:+.4f}",
                _fmt_p(c["pvalue"]),
                _fmt_p(c["adjusted"]),
                "*" if c["adjusted"] < self.alpha and reaches else "",
                c["pair_class"],
            )
            for c in self.iter_comparisons()
        )
        return Table(
            (
                "system i",
                "system j",
                f"delta (j - i){unit}",
                "p",
                f"p ({self.correction})",
                f"p<{self.alpha:g}",
                "class",
            ),
            pair_rows,
            title="all pairs",
        )

    def threshold_table(self, *, band: tuple[float, float] | None = None, percentile: float | None = None) -> Any:
        """The gain thresholds as a table, in the metric's display scale, with each one's warning."""
        from .report import Table

        band = self.band if band is None else band
        percentile = self.percentile if percentile is None else percentile
        ths = self.gain_thresholds(band=band, percentile=percentile)
        unit = f" ({self.gain_unit})"
        classes = self.pair_classes()
        rows = tuple(
            (
                pair_class_name(t.pair_class),
                t.display(self.display_scale, self.gain_unit),
                t.n_comparisons,
                t.warning or "",
            )
            for t in ths
        )
        notes = [t.describe(self.display_scale, self.gain_unit) for t in ths]
        if len(classes) == 1:
            notes.append(
                "every pair is unlabeled (give labels= / --label SYSTEM=GROUP for same/different-group thresholds)"
                if classes[0] == "unlabeled"
                else f"every pair is of class {classes[0]!r}"
            )
        return Table(
            ("pairs", f"gain threshold{unit}", f"comparisons with p in [{band[0]:g}, {band[1]:g}]", "warning"),
            rows,
            title=(
                f"gain threshold (Berg-Kirkpatrick et al. 2012, 3.1.1): the {percentile:g}th percentile of |delta| "
                f"over the comparisons with unadjusted p in [{band[0]:g}, {band[1]:g}]"
            ),
            notes=tuple(notes),
        )

    def __repr__(self) -> str:
        from ._api import short_repr

        best = self.systems[self.order()[0]]
        return short_repr(
            self,
            f"{len(self.systems)} systems, {self.metric}, {self.variant} bootstrap ({self.alternative})",
            {
                "best": best,
                "clusters": len(self.clusters()),
                "correction": self.correction,
                "alpha": self.alpha,
                "n_resamples": f"{self.n_resamples:,}",
                "seed": self.seed,
                "n_items": self.n_items,
            },
        )

    def table(self, markdown: bool = False) -> str:
        """The ranking table (text or markdown)."""
        return self._ranking_table().render("markdown" if markdown else "text")

    report = deprecated_alias("text", "report")

    def _text(self) -> str:
        """The ranking, the gain thresholds (all pairs and each pair class) and the signature, as the CLI
        prints them; thresholds in the display scale (points for fractions), with their warnings."""
        from .report import format_table

        t = self._ranking_table()
        lines = [t.title, format_table(t.rows, t.header)]
        lines += [th.describe(self.display_scale, self.gain_unit) for th in self.gain_thresholds()]
        lines += list(t._notes())
        return "\n".join(lines) + "\n"

    # ---------------------------------------------------------------- plots
    def plot_confidence_vs_gain(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        ax: Any = None,
        band: tuple[float, float] = (0.04, 0.06),
        percentile: float = 95.0,
        robust: bool = True,
    ) -> Any:
        """Confidence (1 − p) against |gain|, one colour per pair class (Berg-Kirkpatrick et al. 2012, Figs. 2-8).

        Without labels every pair is in one neutral class, "all pairs (unlabeled)". The dashed
        vertical line is the gain threshold of all pairs (:func:`gain_threshold` with ``band`` and
        ``percentile``). With ``robust`` (default) the axes are cut where they would only squeeze
        the region where significance is decided: y from the 2nd percentile of the confidences
        (never above 0.5; pairs with gain 0, whose BK p is 1, left out), x at 1.5 × the largest gain
        with confidence below 0.999 (when that at least halves the axis); points beyond are drawn on
        the edge as open triangles and the axis labels say how many.
        """
        from ._plot import confidence_floor, gain_ceiling, scatter_clipped

        plt = pyplot()
        if ax is None:
            fig, ax = plt.subplots(figsize=(6.4, 4.6))
        else:
            fig = ax.figure
        scale = self.display_scale
        rows = self.comparisons()
        gains = np.array([scale * r["gain"] for r in rows])
        conf = np.array([1 - r["pvalue"] for r in rows])
        ths = self.gain_thresholds(band=band, percentile=percentile)
        thr_all = ths[0]
        ymin = confidence_floor(conf, gains) if robust else None
        xmax = None
        if robust:
            at_least = 1.2 * scale * thr_all.threshold if thr_all.threshold is not None else 0.0
            xmax = gain_ceiling(gains, conf, at_least=at_least)
        colours = {"same": "tab:blue", "different": "tab:orange", "combination": "tab:green", "unlabeled": "tab:grey"}
        classes = self.pair_classes()
        n_right = n_low = 0
        for cls in classes:
            sel = np.array([r["pair_class"] == cls for r in rows])
            if len(classes) == 1 and cls == "unlabeled":
                label = f"all pairs ({int(sel.sum())}), unlabeled"
            else:
                label = f"{pair_class_name(cls)} ({int(sel.sum())})"
            r_, l_ = scatter_clipped(
                ax, gains[sel], conf[sel], xmax=xmax, ymin=ymin, s=14, alpha=0.7, color=colours[cls], label=label
            )
            n_right += r_
            n_low += l_
        ax.axhline(1 - self.alpha, color="grey", lw=0.8, ls="--", label=f"p = {self.alpha:g}")
        unit = self.gain_unit
        if thr_all.threshold is not None:
            n_in = thr_all.n_comparisons
            ax.axvline(
                scale * thr_all.threshold,
                color="black",
                lw=0.9,
                ls=":",
                label=f"gain threshold {thr_all.display(scale, unit)} {unit}"
                + (f" (only {n_in} in band)" if thr_all.warning else f" (n = {n_in})"),
            )
        xlabel = f"{self.metric} gain ({unit})"
        if xmax is not None:
            ax.set_xlim(0, xmax * 1.02)
            xlabel += f"\naxis cut at {xmax:.3g}: {n_right} pair(s) with larger gains (confidence ~1) drawn on the edge"
        else:
            ax.set_xlim(left=0)
        ylabel = "confidence (1 - p)"
        if ymin is not None and ymin > 0:
            ax.set_ylim(ymin - 0.01, 1.01)
            if n_low:
                ylabel += f"\naxis from {ymin:g}; {n_low} pair(s) below on the edge"
        ax.set_xlabel(xlabel, fontsize="small")
        ax.set_ylabel(ylabel, fontsize="small")
        ax.set_title(
            f"{self.metric}: {len(self.systems)} systems, {self.variant} bootstrap, B = {self.n_resamples:,}",
            fontsize="medium",
        )
        notes = []
        if thr_all.threshold is None:
            notes.append(f"no comparison with p in [{band[0]:g}, {band[1]:g}]: no gain threshold")
        if len(classes) == 1 and classes[0] == "unlabeled":
            notes.append("no labels given: pairs are not split into same/different groups")
        if notes:
            ax.text(
                0.99,
                0.02,
                "\n".join(notes),
                transform=ax.transAxes,
                ha="right",
                va="bottom",
                fontsize="x-small",
                color="dimgrey",
            )
        ax.legend(loc="center right", fontsize="x-small")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig

    def plot_heatmap(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        adjusted: bool = True,
        ax: Any = None,
        annotate: bool | None = None,
    ) -> Any:
        """A heat map of (adjusted) p-values, systems ordered best first.

        Each cell [row i, column j] holds the p-value of the test of system j against system i,
        written in the cell (``annotate``; default up to 30 systems), with ``*`` and bold type
        where it is below ``alpha``; a black outline surrounds the blocks of cells that are not
        significant (with the diagonal): no pair within an outlined block differs significantly.
        The colour scale is logarithmic and spans the p-values shown, from the smallest one to 1
        (``alpha`` marked on the colour bar). Names set the margins and the tick font (long
        names get a smaller one); the numbers in the cells keep one size.
        """
        plt = pyplot()  # first: without matplotlib, the error names the extra to install
        from matplotlib.colors import LogNorm

        order = self.order()
        m = (self.adjusted if adjusted else self.pvalues)[np.ix_(order, order)]
        n = len(order)
        annotate = n <= 30 if annotate is None else annotate
        cell = 0.42 if annotate else 0.24
        names = [self.systems[i] for i in order]
        longest = max(len(x) for x in names)
        tick_fs = 7.0 if longest <= 18 else max(4.5, 7.0 * 18 / longest)
        label_in = longest * tick_fs * 0.56 / 72 + 0.3
        own = ax is None
        if own:
            side = max(2.4, cell * n)
            fig = plt.figure(figsize=(side + label_in + 1.7, side + label_in + 0.75), layout="constrained")
            ax = fig.add_subplot()
        else:
            fig = ax.figure
        finite = m[np.isfinite(m) & (m > 0)]
        # the colour scale spans the p-values shown (a Holm-adjusted p is far above 1/(B + 1))
        vmin = float(finite.min()) if finite.size and finite.min() < 1 else min(self.alpha, 0.5)
        shown = np.where(np.isfinite(m), np.clip(m, vmin, 1.0), np.nan)
        cmap = plt.get_cmap("viridis_r").with_extremes(bad="lightgrey")
        im = ax.imshow(shown, cmap=cmap, norm=LogNorm(vmin=vmin, vmax=1.0))
        ax.set_xticks(range(n), names, rotation=90, fontsize=tick_fs)
        ax.set_yticks(range(n), names, fontsize=tick_fs)
        ax.set_xlabel("system j (tested against the row)", fontsize="small")
        ax.set_ylabel("system i", fontsize="small")
        sig = np.isfinite(m) & (m < self.alpha) & self.reaches()
        np.fill_diagonal(sig, False)
        fs = 6.5  # a cell is 0.42 in wide whatever the number of systems
        if annotate:
            for a in range(n):
                for b in range(n):
                    p = m[a, b]
                    if a == b or not np.isfinite(p):
                        ax.text(b, a, "-", ha="center", va="center", fontsize=fs, color="dimgrey")
                        continue
                    dark = np.log(max(p, vmin)) > 0.55 * np.log(vmin)  # large p: the dark end of viridis_r
                    txt = "<.001" if p < 0.001 else f"{p:.3f}".lstrip("0") if p < 1 else "1"
                    ax.text(
                        b,
                        a,
                        txt + ("*" if sig[a, b] else ""),
                        ha="center",
                        va="center",
                        fontsize=fs,
                        color="white" if dark else "black",
                        fontweight="bold" if sig[a, b] else "normal",
                    )
        # outline the non-significant blocks: an edge wherever significance changes (the frame counts as
        # significant)
        segs = []
        padded = np.ones((n + 2, n + 2), bool)
        padded[1:-1, 1:-1] = sig
        for a in range(n):
            for b in range(n):
                if sig[a, b]:
                    continue
                if padded[a, b + 1]:
                    segs.append(((b - 0.5, a - 0.5), (b + 0.5, a - 0.5)))
                if padded[a + 2, b + 1]:
                    segs.append(((b - 0.5, a + 0.5), (b + 0.5, a + 0.5)))
                if padded[a + 1, b]:
                    segs.append(((b - 0.5, a - 0.5), (b - 0.5, a + 0.5)))
                if padded[a + 1, b + 2]:
                    segs.append(((b + 0.5, a - 0.5), (b + 0.5, a + 0.5)))
        if segs:
            from matplotlib.collections import LineCollection

            ax.add_collection(LineCollection(segs, colors="black", linewidths=1.6, capstyle="projecting"))
        what = f"{self.correction}-adjusted p" if adjusted and self.correction != "none" else "p"
        cbar = fig.colorbar(im, ax=ax, label=f"{what} (log scale)", shrink=0.8)
        ticks = {vmin, 1.0} | {10.0**k for k in range(-12, 1) if vmin * 1.5 < 10.0**k < 0.7}
        if vmin < self.alpha < 1:
            cbar.ax.axhline(self.alpha, color="black", lw=1.2)
            ticks.add(self.alpha)
        ticks_l = sorted(ticks)
        cbar.set_ticks(ticks_l, labels=[f"{t:.2g}" + (" (alpha)" if t == self.alpha else "") for t in ticks_l])
        cbar.ax.minorticks_off()
        cbar.ax.tick_params(labelsize=7)
        title = (
            f"{self.metric}: {what}-values of all pairs ({self.variant} bootstrap, B = {self.n_resamples:,})\n"
            f"* p < {self.alpha:g};  outlined: blocks of cells with p >= {self.alpha:g} "
            "(no pair within a block differs significantly)"
        )
        if own:
            fig.suptitle(title, fontsize="medium" if n > 8 else "small")
        else:
            ax.set_title(title, fontsize="small")
        if path is not None:
            fig.savefig(path, dpi=150, bbox_inches="tight")
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
    t = result.pair_table()
    with np.errstate(invalid="ignore"):
        in_band = (lo <= t["pvalue"]) & (t["pvalue"] <= hi)
    gain = np.abs(t["delta"][in_band])
    pair_class = t["pair_class"][in_band]
    out = []
    for k, cls in enumerate(("all",) + _PAIR_CLASSES):
        gains = gain if cls == "all" else gain[pair_class == k - 1]
        thr = float(np.percentile(gains, percentile)) if gains.size else None
        out.append(GainThreshold(cls, thr, int(gains.size), (lo, hi), percentile))
    return out


# --------------------------------------------------------------------------- ranking
def _order(scores: np.ndarray, higher_is_better: bool) -> list[int]:
    key = -np.asarray(scores) if higher_is_better else np.asarray(scores)
    return [int(i) for i in np.argsort(key, kind="stable")]


def rank_ranges(scores: Any, higher_is_better: bool, significant: np.ndarray) -> list[tuple[int, int]]:
    """Each system's possible ranks, 1 + #significantly better .. S − #significantly worse, from
    the observed ``scores`` and ``significant[i, j]`` (systems i and j differ): the one rule of
    :class:`PairwiseResult` and :func:`sigfast.leaderboard`."""
    sc = np.asarray(scores, dtype=np.float64)
    s = sc.shape[0]
    sig = np.asarray(significant, dtype=bool).copy()
    np.fill_diagonal(sig, False)
    j_better = (sc[None, :] > sc[:, None]) == higher_is_better  # [i, j]: j is better than i
    better = np.sum(sig & j_better, axis=1)
    worse = np.sum(sig & ~j_better, axis=1)
    return [(1 + int(b), s - int(w)) for b, w in zip(better, worse)]


#: Values one block of :func:`bootstrap_ranks` holds at most (resamples × systems).
_RANK_BLOCK = 1 << 20


def bootstrap_ranks(values: Any, higher_is_better: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """(P(best), expected rank, resamples used) of each system from its values on the same bootstrap
    resamples (``values``: resamples × systems; rows with a non-finite value are dropped).

    P(best): the share of resamples on which the system has the best value, a tie for the best shared
    evenly among the tied systems (each of t tied systems gets 1/t); expected rank: the mean over
    resamples of the system's rank, 1 for the best, tied systems taking the mean of the ranks they
    share. Each resample's systems are sorted once (O(S log S) a resample)."""
    v = np.asarray(values, dtype=np.float64)
    ok = np.isfinite(v).all(axis=1)
    if not ok.all():
        v = v[ok]
    B, s = v.shape
    if B == 0:
        raise InputError("no resample on which every system's value is defined: no rank can be estimated")
    key = v if higher_is_better else -v
    best = np.zeros(s)
    ranks = np.zeros(s)
    rows = max(1, _RANK_BLOCK // s)
    position = np.arange(1, s + 1, dtype=np.float64)
    for a in range(0, B, rows):
        x = key[a : a + rows]
        b = x.shape[0]
        top = x == x.max(axis=1, keepdims=True)
        best += (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
        order = np.argsort(-x, axis=1, kind="stable")  # best first
        srt = np.take_along_axis(x, order, axis=1)
        # runs of equal values in each sorted row share the mean of their positions
        run = np.zeros((b, s), dtype=np.int64)
        run[:, 1:] = np.cumsum(srt[:, 1:] != srt[:, :-1], axis=1)
        run += (np.arange(b, dtype=np.int64) * s)[:, None]
        flat = run.ravel()
        mean_position = np.bincount(flat, weights=np.tile(position, b)) / np.maximum(np.bincount(flat), 1)
        r = np.empty((b, s))
        np.put_along_axis(r, order, mean_position[run], axis=1)
        ranks += r.sum(axis=0)
    return best / B, ranks / B, B


def significance_groups(
    scores: Any, higher_is_better: bool, significant: np.ndarray, method: str, order: list[int] | None = None
) -> list[list[int]]:
    """Groups of system indices, best first (the rules of :meth:`PairwiseResult.clusters`), from the
    observed ``scores`` and ``significant[i, j]``; O(S²) for the boundaries rule."""
    if method not in ("boundaries", "strict"):
        raise InputError(f"groups must be 'boundaries' or 'strict', got {method!r}")
    order = order if order is not None else _order(np.asarray(scores), higher_is_better)
    sig = np.asarray(significant, dtype=bool)[np.ix_(order, order)]
    s = len(order)
    groups: list[list[int]] = [[order[0]]]
    if method == "boundaries":
        # a boundary below rank k: no pair (above, below) of the rectangle [:k, k:] is non-significant
        miss = np.zeros((s + 1, s + 1), dtype=np.int64)
        miss[1:, 1:] = np.cumsum(np.cumsum(~sig, axis=0), axis=1)
        for k in range(1, s):
            rect = miss[k, s] - miss[k, k]
            if rect == 0:
                groups.append([order[k]])
            else:
                groups[-1].append(order[k])
        return groups
    start = 0
    for k in range(1, s):
        if sig[start:k, k].any():
            groups.append([order[k]])
            start = k
        else:
            groups[-1].append(order[k])
    return groups


# --------------------------------------------------------------------------- API
@checked_keywords
def pairwise(
    data: Statistics | Mapping[str, Any],
    *,
    metric: Any = None,
    systems: Sequence[str | int] | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    variant: Literal["bk", "koehn", "shifted", "sacrebleu", "moses"] = "bk",
    alternative: Literal["two-sided", "greater", "less"] | None = None,
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    correction: str = "holm",
    alpha: float = 0.05,
    mode: Literal["shared", "independent"] = "shared",
    resampling: Literal["auto", "items", "distinct", "clusters"] = "auto",
    clusters: Any = None,
    backend: Any = "local",
    shard_size: int = PAIR_BLOCK,
    labels: Mapping[str, str] | None = None,
    combinations: Sequence[str] = (),
    groups: Literal["boundaries", "strict"] = "boundaries",
    nan_policy: Literal["raise", "omit"] = "raise",
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    draws: Literal["sigfast", "sacrebleu"] = "sigfast",
    bootstrap_ranks: bool = False,
    return_distribution: bool = False,
    **metric_params: Any,
) -> PairwiseResult:
    """Paired bootstrap tests of every pair of systems.

    ``mode="shared"`` draws one set of resamples for all systems: every
    pair's p-value equals :func:`sigfast.paired_bootstrap` on that pair with
    the same seed and ``resampling="items"`` (distinct-row resampling, when
    ``"auto"`` picks it, uses the distinct rows of all systems jointly).
    ``mode="independent"`` gives each pair its own sub-stream.
    ``correction`` adjusts the family of unordered pairs (``"holm"``,
    ``"bonferroni"``, ``"hochberg"``, ``"bh"``, ``"by"`` or ``"none"``), or is
    ``"romano-wolf"``: Romano & Wolf's (2005) step-down max-statistic p-values
    (:func:`sigfast.multitest.romano_wolf`) from every system's values on the same
    resamples, each pair's difference standardized by its bootstrap standard deviation
    and centred at the observed difference, sided as the test is (two-sided for
    ``shifted`` two-sided, the observed direction for ``bk``). ``bootstrap_ranks=True``
    adds each system's P(best) (the share of resamples on which it is best, ties shared
    evenly) and expected rank (its mean rank over the resamples) from the same resamples
    (:func:`bootstrap_ranks`); ``return_distribution=True`` keeps those values (B × systems)
    as ``distribution``. These three read every resample's values once more (B × systems
    in memory, computed in this process whatever the backend) and need ``mode="shared"``.
    ``backend`` is ``"local"``, ``"ray"`` or any ``concurrent.futures.Executor``;
    work is split into shards of ``shard_size`` resamples (a multiple of
    65,536) and every backend gives the same bytes. ``labels`` maps systems to
    a group (research group or model type) and ``combinations`` names system
    combinations, for :func:`gain_threshold` and the confidence-vs-gain plot.
    ``clusters`` (one key per item; default: the statistics' own, see
    :func:`sigfast.paired_bootstrap`) draws whole clusters, shared by all systems.
    ``draws="sacrebleu"`` resamples with sacrebleu's draws (see :func:`sigfast.paired_bootstrap`):
    every pair then has sacrebleu's p-value of that pair.
    ``stream`` picks the random stream version (as in :func:`sigfast.paired_bootstrap`).
    """
    arguments = locals()
    from .executor import ask, run

    req = ask("pairwise", arguments, x=data)
    result: PairwiseResult = run(req, progress)
    return result


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


def _romano_wolf_matrix(values: Any, obs: np.ndarray, alternative: str, plus_one: bool) -> np.ndarray:
    """The Romano–Wolf step-down p-values of every pair as an S × S matrix (``[i, j]``: system j against
    system i) from every system's values on the shared resamples, sided as the pairwise test: two-sided
    |δ|, the observed direction (the ``bk`` and ``koehn`` rules), or one-sided (``greater``:
    δ = m(j) − m(i) > 0, ``less``: < 0), where the upper and lower triangles are two families, as
    :func:`_adjust_matrix` makes them for the other corrections."""
    from .multitest import romano_wolf

    s = obs.shape[0]
    iu = np.triu_indices(s, 1)
    out = np.full((s, s), np.nan)
    if alternative in ("greater", "less"):
        side = 1 if alternative == "greater" else -1
        for rows, cols in ((iu[0], iu[1]), (iu[1], iu[0])):
            rw = romano_wolf(values, obs, np.column_stack((rows, cols)), sides=side, plus_one=plus_one)
            out[rows, cols] = rw.adjusted
        return out
    if alternative == "two-sided":
        sides: Any = 0
    else:  # one-sided in the observed direction
        sides = np.where(obs[iu[1]] < obs[iu[0]], -1, 1)
    rw = romano_wolf(values, obs, np.column_stack(iu), sides=sides, plus_one=plus_one)
    out[iu] = rw.adjusted
    out[(iu[1], iu[0])] = rw.adjusted
    return out


# --------------------------------------------------------------------------- unpaired scores
@dataclass(frozen=True)
class UnpairedPairwiseResult(Result):
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
    signature: str = ""

    _keys = ("signature", "systems", "test", "alternative", "means", "n", "pvalues", "adjusted", "correction", "alpha")

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per ordered pair (i, j): [i, j] tests system j against system i."""
        s = len(self.systems)
        return [
            {
                "system_i": self.systems[i],
                "system_j": self.systems[j],
                "mean_i": float(self.means[i]),
                "mean_j": float(self.means[j]),
                "n_i": int(self.n[i]),
                "n_j": int(self.n[j]),
                "pvalue": float(self.pvalues[i, j]),
                "adjusted": float(self.adjusted[i, j]),
                "test": self.test,
                "alternative": self.alternative,
                "correction": self.correction,
                "signature": self.signature,
            }
            for i in range(s)
            for j in range(s)
            if i != j
        ]

    def _text(self) -> str:
        return f"{self.table()}\nsignature: {self.signature}\n"

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
    from .signature import build

    sig = build(
        "pairwise_unpaired",
        variant=f"{test}{'+continuity' if test == 'ranksum' and use_continuity else ''}",
        alt=alternative,
        systems=names,
        items=[a.size for a in arrays],
        correction=f"{correction}@{alpha:g}",
        data=arrays,
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
        sig,
    )
