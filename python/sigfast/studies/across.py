"""Comparisons across K random splits (Gorman & Bedrick 2019, Table 3 and Figure 1).

Given each system's per-item statistics on the test part of K splits, every
pair of systems is tested on every split; after a correction for multiple
comparisons, the number of splits in which one system is significantly
better than the other is counted, the replicability analysis of Dror et al.
(2017) estimates in how many splits the effect holds, and each system's score
range across splits is reported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine.backends import run_tasks
from ..engine.options import DEFAULT_CONFIDENCE, DEFAULT_SEED, shared_options
from ..engine.stats import Statistics
from ..exceptions import InputError
from ..inference.classical import mcnemar
from ..inference.multitest import adjust, replicability
from ..metrics import resolve_metric
from ..results.base import Key, Result, flat_row, option
from ..results.plot import pyplot
from ..results.signature import hash_data
from ._common import check_int, input_fields, progress_cb, read_json, sub_seed, subset, with_signature

__all__ = [
    "TESTS",
    "AcrossSplitsResult",
    "across_splits",
    "binary_outcomes",
    "proportion_counts",
    "split_statistics",
    "split_units",
]

TESTS = ("mcnemar", "bootstrap", "permutation", "sign", "wilcoxon", "ttest")


def split_statistics(stats: Statistics, splits: Any, part: str = "test") -> list[Statistics]:
    """Cut corpus-level statistics into the ``part`` of each split of a manifest.

    ``splits`` is a :class:`~sigfast.studies.SplitResult`, a manifest dict, or
    the path of a ``manifest.json``; ``stats`` must have one item per unit of
    the split corpus, in corpus order.
    """
    manifest = _manifest(splits, stats.n_items, part)
    return [subset(stats, s["indices"][part]) for s in manifest["splits"]]


def _manifest(splits: Any, n_units: int, part: str) -> Mapping[str, Any]:
    if isinstance(splits, (str, os.PathLike)):
        splits = read_json(splits, "the split manifest")
    manifest = getattr(splits, "manifest", splits)
    if not isinstance(manifest, Mapping) or manifest.get("kind") != "sigfast-splits":
        raise InputError("expected a split manifest (SplitResult, dict or manifest.json path)")
    if manifest["unit"] == "document":
        raise InputError("document-level splits index documents, not items; score each split's files instead")
    if manifest["n_units"] != n_units:
        raise InputError(
            f"the manifest splits {manifest['n_units']} units but the statistics hold "
            f"{n_units} items; score the same corpus that was split"
        )
    if part not in manifest["parts"]:
        raise InputError(f"no part {part!r}; parts are {manifest['parts']}")
    return manifest


def split_units(units: Any, splits: Any, part: str = "test") -> list[Statistics]:
    """Token-level 0/1 correctness of each split's ``part``, from the units of a whole scored corpus.

    ``units`` (:class:`sigfast.formats.Units`, e.g. ``sigfast.formats.parse(...).units("las")``)
    come from the corpus that was split by sentence; split k's statistics hold,
    for every unit of a sentence in its ``part``, each system's correctness
    (statistics ``(correct, 1)`` per unit, metric ``accuracy``), so McNemar per split runs on
    tokens, as Gorman & Bedrick (2019) do.
    """
    manifest = _manifest(splits, units.n_sentences, part)
    out = []
    for s in manifest["splits"]:
        mask = np.isin(units.sentence, np.asarray(s["indices"][part], dtype=np.int64))
        if not mask.any():
            raise InputError(f"split {s.get('name', '?')}: its {part} part holds no units")
        out.append(unit_statistics(units, mask))
    return out


def unit_statistics(units: Any, mask: np.ndarray | None = None) -> Statistics:
    """Each system's correctness on ``units`` (all of them, or those in ``mask``) as accuracy statistics
    ``(correct, 1)`` per unit: what :func:`split_units` gives for each split, here for a whole test set
    (e.g. the standard split beside the random ones)."""
    m = np.ones(units.n_units, bool) if mask is None else np.asarray(mask, bool)
    st = _unit_accuracy({n: units.correct(k).astype(np.float64)[m] for k, n in enumerate(units.names)})
    provenance = {"view": units.view, "align": getattr(units, "align", None)}
    if units.format:
        provenance.update(format=units.format, options=dict(getattr(units, "options", {}) or {}))
    return st.replace(metric_label=units.view, provenance=provenance)


def _unit_accuracy(correct: Mapping[str, np.ndarray]) -> Statistics:
    """Per-unit correctness as accuracy statistics (correct, 1): accuracy is shown in percent."""
    return Statistics.from_counts(
        {n: np.stack([c, np.ones_like(c)], 1) for n, c in correct.items()},
        stat_names=("correct", "total"),
        metric="accuracy",
    )


def binary_outcomes(stats: Statistics, binarize: str | None = None) -> np.ndarray:
    """Per-item 0/1 correctness (systems × items) for McNemar-style tests.

    Items are already binary when the metric is ``mean`` with 0/1 scores or
    ``accuracy`` with one token per item. ``binarize="exact"`` makes any
    accuracy or F-score item binary: right when the item is perfect
    (correct = total, or tp = guessed = gold).
    """
    v = stats.values
    metric = stats.metric
    if metric == "mean" and v.shape[2] == 1 and np.isin(v, (0.0, 1.0)).all():
        return v[:, :, 0].astype(np.int8)
    if metric == "accuracy" and v.shape[2] == 2 and (v[:, :, 1] == 1).all() and np.isin(v[:, :, 0], (0, 1)).all():
        return v[:, :, 0].astype(np.int8)
    if binarize == "exact":
        if metric == "accuracy" and v.shape[2] == 2:
            return (v[:, :, 0] == v[:, :, 1]).astype(np.int8)
        if metric in ("f1", "fbeta", "precision", "recall") and v.shape[2] == 3:
            return ((v[:, :, 0] == v[:, :, 1]) & (v[:, :, 0] == v[:, :, 2])).astype(np.int8)
        raise InputError(f"binarize='exact' needs accuracy or F-score counts; metric is {metric!r}")
    if binarize is not None:
        raise InputError(f"binarize must be None or 'exact', got {binarize!r}")
    raise InputError(
        f"McNemar's test needs one 0/1 outcome per item, but these items hold {metric!r} statistics "
        f"{list(stats.stat_names)}; score tokens as items (0/1 accuracy), pass binarize='exact' "
        "(an item is right when it is perfect), or choose test='bootstrap' or 'permutation'"
    )


def proportion_counts(stats: Statistics) -> np.ndarray | None:
    """Each system's (successes, trials) when its score is a proportion of units, else None.

    Proportions are what Wilson intervals apply to: 0/1 scores per item
    (metric ``mean``: successes = the 1s, trials = the items, e.g. tokens from
    :func:`split_units`) and ``accuracy`` counts [correct, total] per item
    (successes and trials summed over the items).
    """
    v = stats.values
    if stats.metric == "mean" and v.shape[2] == 1 and np.isin(v, (0.0, 1.0)).all():
        return np.stack([v[:, :, 0].sum(1), np.full(v.shape[0], v.shape[1], dtype=float)], 1)
    if stats.metric == "accuracy" and v.shape[2] == 2:
        t = v.sum(1)
        if np.all(t == np.round(t)) and np.all((0 <= t[:, 0]) & (t[:, 0] <= t[:, 1])):
            return t
    return None


def _oracle_counts(stats: Statistics) -> np.ndarray | None:
    """The oracle ensemble's (successes, trials) (Gorman & Bedrick 2019, Figure 1: a unit is right when
    any system gets it right) when the items are 0/1 units (tokens), else None."""
    try:
        x = binary_outcomes(stats)
    except InputError:
        return None
    return np.array([float(x.max(axis=0).sum()), float(x.shape[1])])


def _item_scores(stats: Statistics) -> np.ndarray:
    if stats.values.shape[2] == 1:
        return stats.values[:, :, 0]
    m = resolve_metric(None, stats)
    return np.stack([m.evaluate(stats.values[s], 1) for s in range(stats.n_systems)])


def _split_pvalues(
    st: Statistics,
    test: str | Callable[..., float],
    binarize: str | None,
    n_resamples: int,
    seed: int,
    metric: Any,
    variant: str | None = None,
    stream: int | None = None,
) -> np.ndarray:
    """p-values of every pair on one split: [i, j] tests j against i (symmetric).

    Two-sided, except for the bootstrap variants ``bk`` and ``koehn``, which
    are one-sided in the observed direction (the same value both ways).
    """
    s = st.n_systems
    pv = np.full((s, s), np.nan)
    if callable(test):
        for i in range(s):
            for j in range(i + 1, s):
                pv[i, j] = pv[j, i] = float(test(st.select(i, j)))
        return pv
    if test == "mcnemar":
        x = binary_outcomes(st, binarize)
        v = variant or "mid-p"
        kw = dict(method="asymptotic" if v.startswith("asymptotic") else v, correction=v != "asymptotic-nocc")
        for i in range(s):
            for j in range(i + 1, s):
                pv[i, j] = pv[j, i] = mcnemar(x[i], x[j], **kw).pvalue
        return pv
    if test == "bootstrap":
        from ..inference.pairwise import pairwise
        from ..inference.significance import resolve_variant

        v = resolve_variant(variant or "bk", "two-sided" if variant == "shifted" else None)[0]
        r = pairwise(
            st,
            metric=metric,
            n_resamples=n_resamples,
            seed=seed,
            variant=variant or "bk",
            alternative="two-sided" if v in ("shifted",) else None,
            correction="none",
            resampling="items",
            stream=stream,
        )
        iu = np.triu_indices(s, 1)
        pv[iu] = r.pvalues[iu]  # [i, j], i < j: the two-sided test of j against i
        pv[(iu[1], iu[0])] = r.pvalues[iu]
        return pv
    if test == "permutation":
        from ..inference.significance import permutation_test

        for i in range(s):
            for j in range(i + 1, s):
                pv[i, j] = pv[j, i] = permutation_test(
                    st.select(i, j),
                    metric=metric,
                    n_resamples=n_resamples,
                    seed=seed,
                    method="approximate",
                    stream=stream,
                ).pvalue
        return pv
    from ..inference.classical import paired_ttest, sign_test, wilcoxon

    fn = {"sign": sign_test, "wilcoxon": wilcoxon, "ttest": paired_ttest}.get(test)
    if fn is None:
        raise InputError(f"unknown test {test!r}; choose one of {', '.join(TESTS)} or pass a callable")
    sc = _item_scores(st)
    for i in range(s):
        for j in range(i + 1, s):
            pv[i, j] = pv[j, i] = fn(sc[i], sc[j]).pvalue
    return pv


@dataclass(frozen=True)
class AcrossSplitsResult(Result):
    """Tests of every pair on K splits.

    ``scores[s, k]``: system s on split k. ``pvalues[k, i, j]``: two-sided
    p-value of the pair on split k; ``adjusted`` after ``correction`` over
    ``family``. ``wins[i, j]``: splits where j is significantly better than
    i. ``k_hat[i, j]``: the replicability estimate (Dror et al. 2017) of the
    number of splits where j is better than i, from one-sided p-values (half
    the two-sided p in the observed direction, 1 − p/2 against it).
    """

    systems: tuple[str, ...]
    split_names: tuple[str, ...]
    metric: str
    higher_is_better: bool
    test: str
    alpha: float
    correction: str
    family: str
    scores: np.ndarray
    pvalues: np.ndarray
    adjusted: np.ndarray
    wins: np.ndarray
    k_hat: np.ndarray
    n_items: tuple[int, ...]
    seed: int
    n_resamples: int | None
    display_scale: int = 1
    variant: str | None = None
    sidedness: str = "two-sided"
    counts: np.ndarray | None = None
    confidence: float = DEFAULT_CONFIDENCE
    standard_scores: np.ndarray | None = None
    standard_counts: np.ndarray | None = None
    #: The random stream version of the resampling tests.
    stream_version: int = 0
    standard_pvalues: np.ndarray | None = None
    standard_n_items: int | None = None
    #: A hash of the per-split statistics (:func:`sigfast.signature.hash_data`).
    data: str = ""
    #: What the statistics were read from (``Statistics.provenance``: format, options, view, alignment).
    provenance: Mapping[str, Any] = field(default_factory=dict)
    #: The oracle ensemble's (successes, trials) on each split (K x 2) and on the standard split, when
    #: the items are 0/1 units (:func:`_oracle_counts`), else None.
    oracle: np.ndarray | None = None
    standard_oracle: np.ndarray | None = None
    #: Output option: the pairs shown in the text, markdown and LaTeX tables (largest mean gain first;
    #: None: all).
    max_rows: int | None = option(None)

    _keys = (
        *("systems", Key("splits", "split_names"), "metric", "higher_is_better", "test", "variant", "sidedness"),
        *("alpha", "correction", "family", "seed", "n_resamples", "n_items", Key("scores", "scores_by_system")),
        *("score_ranges", "comparisons", "confidence", "per_split", Key("standard", "standard_split")),
        *("signature", Key("oracle", "oracle_summary")),
    )

    @property
    def gain_unit(self) -> str:
        """The unit score differences are shown in (:func:`sigfast.metrics.gain_unit`)."""
        from ..metrics import gain_unit

        return gain_unit(self.metric, self.display_scale)

    def oracle_scores(self) -> np.ndarray | None:
        """The oracle ensemble's accuracy on each split, or None (:attr:`oracle`)."""
        return None if self.oracle is None else self.oracle[:, 0] / self.oracle[:, 1]

    @property
    def n_splits(self) -> int:
        return len(self.split_names)

    @property
    def has_standard(self) -> bool:
        return self.standard_scores is not None

    def wilson(self, system: int, split: int | None = None) -> tuple[float, float] | None:
        """The Wilson interval (``confidence``) of a system's accuracy on a split (``None``: the standard
        split), or None when the score is not a proportion of units (:func:`proportion_counts`)."""
        from ..inference.intervals import wilson_interval

        c = self.standard_counts[system] if split is None and self.standard_counts is not None else None
        if split is not None and self.counts is not None:
            c = self.counts[system, split]
        if c is None:
            return None
        lo, hi = wilson_interval(int(round(c[0])), int(round(c[1])), self.confidence)
        return float(lo), float(hi)

    def _wilson_of(self, counts: np.ndarray) -> tuple[float, float]:
        from ..inference.intervals import wilson_interval

        lo, hi = wilson_interval(int(round(counts[0])), int(round(counts[1])), self.confidence)
        return float(lo), float(hi)

    def per_split(self) -> list[dict[str, Any]]:
        """One row per split and system: score, successes and trials, Wilson interval, rank on the split."""
        key = -self.scores if self.higher_is_better else self.scores
        ranks = np.argsort(np.argsort(key, axis=0, kind="stable"), axis=0, kind="stable") + 1
        out = []
        for k, split in enumerate(self.split_names):
            for s, name in enumerate(self.systems):
                ci = self.wilson(s, k)
                out.append(
                    {
                        "split": split,
                        "system": name,
                        "score": float(self.scores[s, k]),
                        "successes": None if self.counts is None else int(round(self.counts[s, k, 0])),
                        "trials": None if self.counts is None else int(round(self.counts[s, k, 1])),
                        "wilson": None if ci is None else list(ci),
                        "rank": int(ranks[s, k]),
                    }
                )
        return out

    def standard(self) -> list[dict[str, Any]] | None:
        """Per system: the standard split's score with its Wilson interval and rank, next to the random
        splits' min, mean and max and rank range (Gorman & Bedrick 2019, Table 2 and Figure 1)."""
        if self.standard_scores is None:
            return None
        sc = self.standard_scores
        key = -sc if self.higher_is_better else sc
        std_rank = np.argsort(np.argsort(key, kind="stable"), kind="stable") + 1
        ranges = self.score_ranges()
        out = []
        for s, name in enumerate(self.systems):
            ci = self.wilson(s)
            r = ranges[s]
            out.append(
                {
                    "system": name,
                    "standard": float(sc[s]),
                    "successes": None if self.standard_counts is None else int(round(self.standard_counts[s, 0])),
                    "trials": None if self.standard_counts is None else int(round(self.standard_counts[s, 1])),
                    "wilson": None if ci is None else list(ci),
                    "standard_rank": int(std_rank[s]),
                    "random_min": r["min"],
                    "random_mean": r["mean"],
                    "random_max": r["max"],
                    "random_best_rank": r["best_rank"],
                    "random_worst_rank": r["worst_rank"],
                }
            )
        return out

    def score_ranges(self) -> list[dict[str, Any]]:
        """Each system's score across splits: min, max, mean, standard deviation and rank range."""
        sc = self.scores
        key = -sc if self.higher_is_better else sc
        ranks = np.argsort(np.argsort(key, axis=0, kind="stable"), axis=0, kind="stable") + 1
        out = []
        for s, name in enumerate(self.systems):
            out.append(
                {
                    "system": name,
                    "min": float(sc[s].min()),
                    "max": float(sc[s].max()),
                    "mean": float(sc[s].mean()),
                    "sd": float(sc[s].std(ddof=1)) if self.n_splits > 1 else 0.0,
                    "range": float(sc[s].max() - sc[s].min()),
                    "best_rank": int(ranks[s].min()),
                    "worst_rank": int(ranks[s].max()),
                }
            )
        return out

    def comparisons(self) -> list[dict[str, Any]]:
        """One row per pair (i < j): mean δ, splits where each is significantly better, k̂ both ways."""
        rows = []
        s = len(self.systems)
        for i in range(s):
            for j in range(i + 1, s):
                d = self.scores[j] - self.scores[i]
                rows.append(
                    {
                        "system_i": self.systems[i],
                        "system_j": self.systems[j],
                        "mean_delta": float(d.mean()),
                        "j_better_splits": int((d > 0).sum() if self.higher_is_better else (d < 0).sum()),
                        "j_significantly_better": int(self.wins[i, j]),
                        "i_significantly_better": int(self.wins[j, i]),
                        "k_hat_j_better": int(self.k_hat[i, j]),
                        "k_hat_i_better": int(self.k_hat[j, i]),
                        "pvalues": [float(p) for p in self.pvalues[:, i, j]],
                        "adjusted": [float(p) for p in self.adjusted[:, i, j]],
                        **(
                            {
                                "standard_delta": float(self.standard_scores[j] - self.standard_scores[i]),
                                "standard_pvalue": float(self.standard_pvalues[i, j]),
                            }
                            if self.standard_scores is not None and self.standard_pvalues is not None
                            else {}
                        ),
                    }
                )
        return rows

    def scores_by_system(self) -> dict[str, list[float]]:
        """Each system's score on each split (the ``scores`` of :meth:`to_dict`)."""
        return {n: list(self.scores[s]) for s, n in enumerate(self.systems)}

    def standard_split(self) -> dict[str, Any] | None:
        """The standard split's size and :meth:`standard` (the ``standard`` of :meth:`to_dict`), or None."""
        return None if self.standard_scores is None else {"n_items": self.standard_n_items, "systems": self.standard()}

    def oracle_summary(self) -> dict[str, Any] | None:
        """The oracle ensemble's score on each split and on the standard split (the ``oracle`` of
        :meth:`to_dict`), or None."""
        if self.oracle is None:
            return None
        so = self.standard_oracle
        return {"scores": list(self.oracle_scores()), "standard": None if so is None else float(so[0] / so[1])}  # type: ignore[arg-type]

    @property
    def signature(self) -> str:
        """Test, variant and sidedness, the metric, the format with its options, the view and alignment of
        the units, the splits and their sizes, B, seed, the correction and its family, and a hash of the
        per-split statistics (:func:`sigfast.signature.build`)."""
        from ..results.signature import build

        return build(
            "across_splits",
            variant=f"{self.test}:{self.variant or '-'}",
            alt=self.sidedness,
            metric=[self.metric],
            **input_fields(self.provenance),
            splits=self.n_splits,
            items=list(self.n_items),
            systems=list(self.systems),
            B=self.n_resamples,
            seed=self.seed,
            correction=f"{self.correction}@{self.alpha:g}/{self.family}",
            stream=self.stream_version or None,
            data=self.data or None,
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per pair (:meth:`comparisons`; per-split p-values as ``pvalues_0``, ...)."""
        return [{**flat_row(r), "metric": self.metric, "signature": self.signature} for r in self.comparisons()]

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{len(self.systems)} systems on {self.n_splits} splits, {self.test} ({self.variant}, {self.sidedness})",
            {
                "metric": self.metric,
                "correction": self.correction,
                "family": self.family,
                "alpha": self.alpha,
                "seed": self.seed,
            },
        )

    def tables(self, **options: Any) -> list[Any]:
        """For every output style: score ranges per system; with a standard split, the standard split
        against the random splits (G&B Table 2 / Figure 1); significant wins per pair (G&B Table 3; the
        ``max_rows`` option cuts it); and each system's score on each split with its Wilson interval
        (when scores are proportions)."""
        from ..results.report import Table, _fmt_p, _fmt_score

        if options:
            return self.with_options(**options).tables()
        max_rows = self.max_rows

        scale = self.display_scale
        u = self.gain_unit
        unit = f" ({u})"
        pct = f"{round(100 * self.confidence)}% Wilson"
        ranges = self.score_ranges()
        order = sorted(
            range(len(ranges)), key=lambda s: -ranges[s]["mean"] if self.higher_is_better else ranges[s]["mean"]
        )
        rows = [
            [
                ranges[s]["system"],
                _fmt_score(scale, ranges[s]["mean"]),
                _fmt_score(scale, ranges[s]["min"]),
                _fmt_score(scale, ranges[s]["max"]),
                _fmt_gain(scale, ranges[s]["range"], u),
                f"{ranges[s]['best_rank']}-{ranges[s]['worst_rank']}",
            ]
            for s in order
        ]
        orc = self.oracle_scores()
        if orc is not None:
            rows.append(
                [
                    "(oracle ensemble)",
                    _fmt_score(scale, float(orc.mean())),
                    _fmt_score(scale, float(orc.min())),
                    _fmt_score(scale, float(orc.max())),
                    _fmt_gain(scale, float(orc.max() - orc.min()), u),
                    "-",
                ]
            )
        head = (
            f"{len(self.systems)} systems on {self.n_splits} splits, {self.test} test"
            f"{f' ({self.variant}, {self.sidedness})' if self.variant else f' ({self.sidedness})'}, "
            f"{self.correction} over {self.family}, alpha {self.alpha:g}"
        )
        t1 = Table(
            ("system", "mean", "min", "max", f"range{unit}", "ranks"),
            tuple(tuple(r) for r in rows),
            title=head,
            notes=(
                ("oracle ensemble: a unit is right when any system gets it right (Gorman & Bedrick 2019, Figure 1)",)
                if orc is not None
                else ()
            ),
        )
        out = [t1]
        std = self.standard()
        if std is not None:
            wil = self.standard_counts is not None  # no Wilson column when there is no proportion
            srows = []
            for e in sorted(std, key=lambda e: e["standard_rank"]):
                ci = e["wilson"]
                srows.append(
                    (
                        e["system"],
                        _fmt_score(scale, e["standard"]),
                        *((("" if ci is None else _ci(scale, ci)),) if wil else ()),
                        e["standard_rank"],
                        _fmt_score(scale, e["random_min"]),
                        _fmt_score(scale, e["random_mean"]),
                        _fmt_score(scale, e["random_max"]),
                        f"{e['random_best_rank']}-{e['random_worst_rank']}",
                    )
                )
            if self.standard_oracle is not None and orc is not None:
                so = self.standard_oracle
                ci = self._wilson_of(so)
                srows.append(
                    (
                        "(oracle ensemble)",
                        _fmt_score(scale, float(so[0] / so[1])),
                        *((_ci(scale, ci),) if wil else ()),
                        "-",
                        _fmt_score(scale, float(orc.min())),
                        _fmt_score(scale, float(orc.mean())),
                        _fmt_score(scale, float(orc.max())),
                        "-",
                    )
                )
            notes = []
            if not wil:
                notes.append(
                    f"no Wilson column: {self.metric} is not a proportion of units (Wilson intervals need "
                    "successes out of trials: 0/1 units or accuracy counts)"
                )
            else:
                notes.append(f"Wilson score interval on the standard split's units ({pct})")
            out.append(
                Table(
                    (
                        "system",
                        "standard",
                        *((pct,) if wil else ()),
                        "rank",
                        "random min",
                        "random mean",
                        "random max",
                        "random ranks",
                    ),
                    tuple(srows),
                    title=(
                        f"standard split ({self.standard_n_items} items) vs {self.n_splits} random splits "
                        "(Gorman & Bedrick 2019, Table 2 and Figure 1)"
                    ),
                    notes=tuple(notes),
                )
            )
        pairs = []
        for r in self.comparisons():
            a_is_j = r["mean_delta"] * (1 if self.higher_is_better else -1) >= 0
            a, b = (r["system_j"], r["system_i"]) if a_is_j else (r["system_i"], r["system_j"])
            wins_a = r["j_significantly_better"] if a_is_j else r["i_significantly_better"]
            wins_b = r["i_significantly_better"] if a_is_j else r["j_significantly_better"]
            k_a = r["k_hat_j_better"] if a_is_j else r["k_hat_i_better"]
            better_on = r["j_better_splits"] if a_is_j else self.n_splits - r["j_better_splits"] - _ties(self, r)
            row = [
                a,
                b,
                _fmt_gain(scale, abs(r["mean_delta"]), u),
                f"{better_on}/{self.n_splits}",
                f"{wins_a}/{self.n_splits}",
                f"{wins_b}/{self.n_splits}",
                k_a,
            ]
            if "standard_delta" in r:
                sd = r["standard_delta"] if a_is_j else -r["standard_delta"]
                row += [("+" if sd >= 0 else "") + _fmt_gain(scale, sd, u), _fmt_p(r["standard_pvalue"])]
            pairs.append(row)
        pairs.sort(key=lambda row: -float(row[2]))
        if max_rows is not None:
            pairs = pairs[:max_rows]
        phead: tuple[str, ...] = (
            "better (mean)",
            "worse",
            f"mean gain{unit}",
            "better on",
            "sig. better",
            "sig. worse",
            "k-hat",
        )
        pnotes = [
            "better on: random splits where the first system scores higher; sig. better/worse: significant after "
            f"{self.correction} over {self.family}"
        ]
        if self.has_standard:
            phead += (f"standard gain{unit}", "p (standard)")
            pnotes.append(
                "standard gain: first minus second system on the standard split (negative: the standard split "
                "ranks them the other way); p (standard): the same test on the standard split, uncorrected"
            )
        t2 = Table(phead, tuple(tuple(p) for p in pairs), title="pairs, largest mean gain first", notes=tuple(pnotes))
        out.append(t2)
        prow = []
        wil = self.counts is not None  # the Wilson and correct/units columns only for proportions
        for e in self.per_split():
            ci = e["wilson"]
            prow.append(
                (
                    e["split"],
                    e["system"],
                    _fmt_score(scale, e["score"]),
                    *(
                        (
                            "" if e["successes"] is None else f"{e['successes']}/{e['trials']}",
                            "" if ci is None else _ci(scale, ci),
                        )
                        if wil
                        else ()
                    ),
                    e["rank"],
                )
            )
        prow.sort(key=lambda r: (r[0], r[-1]))
        t3 = Table(
            (
                "split",
                "system",
                self.metric + (" x100" if scale == 100 else ""),
                *(("correct/units", pct) if wil else ()),
                "rank",
            ),
            tuple(prow),
            title="each system on each split" + (", with the Wilson interval of its accuracy" if wil else ""),
            notes=(
                f"Wilson score interval ({pct}) of correct/units, the proportion McNemar's test compares"
                if wil
                else f"no Wilson columns: {self.metric} is not a proportion of units (Wilson intervals need "
                "successes out of trials: 0/1 units or accuracy counts)",
            ),
        )
        out.append(t3)
        return with_signature(out, self.signature)

    def table(self, markdown: bool = False, max_rows: int | None = None) -> str:
        """Every table as text or markdown (``format``, without the last line break)."""
        return self.format("markdown" if markdown else "text", max_rows=max_rows).removesuffix("\n")

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Gorman & Bedrick (2019) Figure 1: per system, the range of its scores over the random splits
        (shaded) with each split's score (dots) and, when a standard split was given, the standard split's
        score with its Wilson interval (whiskers). Best system on top; the last row is the oracle ensemble
        (a unit is right when any system gets it right) when the items are 0/1 units. The legend sits
        above the plot; the names set the left margin and their font."""
        plt = pyplot()
        scale = self.display_scale
        means = self.scores.mean(1)
        base = self.standard_scores if self.standard_scores is not None else means
        order = list(np.argsort(-base if self.higher_is_better else base, kind="stable"))
        rows: list[tuple[str, np.ndarray, float | None, tuple[float, float] | None, str]] = []
        for s in order:
            std = None if self.standard_scores is None else float(self.standard_scores[s])
            rows.append((self.systems[s], self.scores[s], std, self.wilson(s) if std is not None else None, "tab:blue"))
        orc = self.oracle_scores()
        if orc is not None:
            so = self.standard_oracle
            rows.append(
                (
                    "oracle ensemble",
                    orc,
                    None if so is None else float(so[0] / so[1]),
                    None if so is None or self.standard_counts is None else self._wilson_of(so),
                    "tab:green",
                )
            )
        n = len(rows)
        longest = max(len(r[0]) for r in rows)
        fs = (8.0 if n <= 12 else 7.0) * min(1.0, 24 / max(longest, 1))
        fs = max(fs, 5.0)
        label_in = longest * fs * 0.56 / 72 + 0.25
        fig, ax = plt.subplots(figsize=(5.6 + label_in, max(3.4, 0.32 * n + 2.2)))
        rng = np.random.default_rng(0)
        for pos, (_name, sc, std, ci, colour) in enumerate(rows):
            y = n - 1 - pos
            first = pos == 0
            v = scale * np.asarray(sc)
            ax.barh(
                y,
                v.max() - v.min(),
                left=v.min(),
                height=0.62,
                color=colour,
                alpha=0.22,
                lw=0,
                label=f"range over {self.n_splits} random splits" if first else None,
            )
            ax.scatter(
                v,
                y + rng.uniform(-0.2, 0.2, v.size),
                s=5,
                color=colour,
                alpha=0.55,
                lw=0,
                label="one random split" if first else None,
            )
            if std is not None:
                x = scale * std
                err = None if ci is None else [[x - scale * ci[0]], [scale * ci[1] - x]]
                ax.errorbar(
                    [x],
                    [y],
                    xerr=err,
                    fmt="o",
                    ms=4,
                    color="black",
                    ecolor="black",
                    elinewidth=1.2,
                    capsize=3,
                    zorder=3,
                    label=(
                        f"standard split, {round(100 * self.confidence)}% Wilson interval"
                        if ci is not None
                        else "standard split"
                    )
                    if first
                    else None,
                )
            elif self.standard_scores is None:
                ax.plot(
                    [float(v.mean())] * 2,
                    [y - 0.31, y + 0.31],
                    color="black",
                    lw=1.4,
                    label="mean" if first else None,
                )
        if orc is not None:
            ax.axhline(0.5, color="grey", lw=0.6, ls="--")  # the oracle row apart from the systems
        labels = [r[0] for r in rows][::-1]
        ax.set_yticks(range(n), labels, fontsize=fs)
        if orc is not None:
            ax.get_yticklabels()[0].set_fontstyle("italic")
        ax.set_ylim(-0.7, n - 0.3)
        ax.set_xlabel(self.metric + (", points" if scale == 100 else ""), fontsize="small")
        ax.grid(axis="x", lw=0.4, alpha=0.5)
        title = f"{self.metric}: {self.n_splits} random splits"
        if self.standard_scores is not None:
            title += f" and the standard split ({self.standard_n_items:,} items)"
        ax.set_title(title + "\n(Gorman & Bedrick 2019, Figure 1)", fontsize="small", pad=24)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize="x-small", frameon=False)
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150, bbox_inches="tight")
        return fig


def _fmt_gain(scale: int, v: float, unit: str = "") -> str:
    """A difference as shown: points with 2 decimals (fractions x100, 0-100 metrics), else 4 decimals."""
    return f"{scale * v:.2f}" if (scale == 100 or unit == "points") else f"{v:.4f}"


def _ci(scale: int, ci: Sequence[float]) -> str:
    return f"[{scale * ci[0]:.2f}, {scale * ci[1]:.2f}]" if scale == 100 else f"[{ci[0]:.4f}, {ci[1]:.4f}]"


def _ties(r: AcrossSplitsResult, row: Mapping[str, Any]) -> int:
    i, j = r.systems.index(row["system_i"]), r.systems.index(row["system_j"])
    return int((r.scores[i] == r.scores[j]).sum())


@shared_options
def across_splits(
    per_split: Sequence[Statistics] | Mapping[str, Statistics],
    *,
    test: str | Callable[[Statistics], float] = "mcnemar",
    alpha: float = 0.05,
    correction: str = "bonferroni",
    family: str = "splits",
    binarize: str | None = None,
    metric: Any = None,
    n_resamples: int = 10_000,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    backend: Any = "local",
    progress: Any = None,
    standard: Statistics | None = None,
    confidence: float = DEFAULT_CONFIDENCE,
    stream: int | None = None,
) -> AcrossSplitsResult:
    """Test every pair of systems on each of K splits (Gorman & Bedrick 2019).

    ``per_split``: one Statistics per split (the same systems, any number of
    items), or a mapping split name -> Statistics (see
    :func:`split_statistics`). ``test``: ``"mcnemar"`` (mid-p, on 0/1 items;
    see :func:`binary_outcomes`), ``"bootstrap"`` (paired bootstrap,
    ``n_resamples``), ``"permutation"``, ``"sign"``,
    ``"wilcoxon"``, ``"ttest"`` (on per-item metric values), or a callable
    taking a two-system Statistics and returning a two-sided p-value.
    ``correction`` (``"bonferroni"``, ``"holm"``, ...) applies over each
    pair's K splits (``family="splits"``, as G&B) or over all pairs and
    splits (``family="all"``). Split k's resampling tests use the seed
    derived from (seed, k). ``backend``: ``"local"``, ``"ray"`` or a
    ``concurrent.futures.Executor`` (one task per split; the same numbers).
    ``variant``: the McNemar variant (``"mid-p"``, default; ``"exact"``,
    ``"asymptotic"``, ``"asymptotic-nocc"``) or the bootstrap variant
    (``"bk"``, default; ``"koehn"``, ``"shifted"``, ``"sacrebleu"``,
    ``"moses"``). ``bk`` and ``koehn`` are one-sided in the observed
    direction: a split counts as a significant win of the system that is
    better on it; the others are two-sided.

    ``standard``: the same systems scored on the standard split's test set
    (Gorman & Bedrick 2019, experiment 1), reported next to the random
    splits: its scores, the same test on every pair (seed derived from
    (seed, 0, 1)) and, for proportions, Wilson intervals. Wilson intervals at
    ``confidence`` accompany every score that is a proportion of units
    (:func:`proportion_counts`: 0/1 items such as tokens, or accuracy counts).
    ``stream`` picks the random stream version of the resampling tests (``None``:
    the default).
    """
    if isinstance(per_split, Mapping):
        names = tuple(str(k) for k in per_split)
        stats_list = list(per_split.values())
    else:
        stats_list = list(per_split)
        names = tuple(f"split{k:02d}" for k in range(len(stats_list)))
    if not stats_list:
        raise InputError("no splits given")
    for st in stats_list:
        if not isinstance(st, Statistics):
            raise InputError("each split must be a sigfast.Statistics")
    systems = stats_list[0].systems
    if len(systems) < 2:
        raise InputError("across_splits() needs at least two systems")
    for k, st in enumerate(stats_list):
        if st.systems != systems:
            raise InputError(
                f"split {names[k]} has systems {list(st.systems)}, the first split {list(systems)}; "
                "give the same systems in the same order"
            )
        if st.stat_names != stats_list[0].stat_names:
            raise InputError(f"split {names[k]} holds other statistics than the first split")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be in (0, 1), got {alpha}")
    if family not in ("splits", "all"):
        raise InputError(f"family must be 'splits' or 'all', got {family!r}")
    if not callable(test) and test not in TESTS:
        raise InputError(f"unknown test {test!r}; choose one of {', '.join(TESTS)} or pass a callable")
    n_resamples = check_int("n_resamples", n_resamples, 1)
    seed = check_int("seed", seed, 0)
    if not 0 < confidence < 1:
        raise InputError(f"confidence must be in (0, 1), got {confidence}")
    if standard is not None:
        if not isinstance(standard, Statistics):
            raise InputError("standard must be a sigfast.Statistics (the standard split's test set)")
        if set(standard.systems) != set(systems) or len(standard.systems) != len(systems):
            raise InputError(
                f"the standard split has systems {list(standard.systems)}, the random splits {list(systems)}; "
                "give the same systems"
            )
        standard = standard.select(*systems)
        if standard.stat_names != stats_list[0].stat_names:
            raise InputError("the standard split holds other statistics than the random splits")
    m = resolve_metric(metric, stats_list[0])
    K, S = len(stats_list), len(systems)
    scores = np.stack([m.evaluate(st.totals(), st.n_items) for st in stats_list], axis=1)
    cb = progress_cb(progress, K, "splits")
    if variant is not None and test not in ("mcnemar", "bootstrap"):
        raise InputError(f"the {test} test has no variants; variant= is for mcnemar and bootstrap")
    if test == "mcnemar" and variant not in (None, "mid-p", "exact", "asymptotic", "asymptotic-nocc"):
        raise InputError(f"McNemar variants: mid-p, exact, asymptotic, asymptotic-nocc; got {variant!r}")
    if test == "bootstrap":
        from ..inference.significance import resolve_variant

        resolve_variant(variant or "bk", "two-sided" if (variant or "bk") == "shifted" else None)
    one_sided = test == "bootstrap" and (variant or "bk") in ("bk", "berg-kirkpatrick", "koehn")
    used_variant = variant or {"mcnemar": "mid-p", "bootstrap": "bk"}.get(str(test))
    tasks = [
        (st, test, binarize, n_resamples, sub_seed(seed, k), metric, variant, stream) for k, st in enumerate(stats_list)
    ]
    pv = np.stack(run_tasks(backend, _split_pvalues, tasks, cb))
    iu = np.triu_indices(S, 1)
    adj = np.full_like(pv, np.nan)
    if correction in ("none", None):
        adj = pv.copy()
    elif family == "splits":
        for i, j in zip(*iu):
            a = np.asarray(adjust(pv[:, i, j], correction, alpha=alpha).adjusted)
            adj[:, i, j] = adj[:, j, i] = a
    else:
        flat = pv[:, iu[0], iu[1]]
        a = np.asarray(adjust(flat.ravel(), correction, alpha=alpha).adjusted).reshape(flat.shape)
        adj[:, iu[0], iu[1]] = a
        adj[:, iu[1], iu[0]] = a
    orient = 1.0 if m.higher_is_better else -1.0
    wins = np.zeros((S, S), dtype=np.int64)
    k_hat = np.zeros((S, S), dtype=np.int64)
    for i in range(S):
        for j in range(S):
            if i == j:
                continue
            better = orient * (scores[j] - scores[i]) > 0
            sig = adj[:, i, j] < alpha
            wins[i, j] = int((better & sig).sum())
            if one_sided:  # p is already one-sided in the observed direction
                one = np.where(better, pv[:, i, j], 1.0)
            else:
                one = np.where(better, pv[:, i, j] / 2, 1 - pv[:, i, j] / 2)
            one = np.clip(one, 0.0, 1.0)
            k_hat[i, j] = replicability(one, alpha=alpha, method="bonferroni").k_estimate
    props = [proportion_counts(st) for st in stats_list]
    counts = None if any(c is None for c in props) else np.stack(props, axis=1)  # type: ignore[arg-type]
    orc = [_oracle_counts(st) for st in stats_list]
    oracle = None if any(c is None for c in orc) else np.stack(orc)  # type: ignore[arg-type]
    std_scores = std_counts = std_pv = None
    if standard is not None:
        std_scores = np.asarray(m.evaluate(standard.totals(), standard.n_items))
        std_counts = proportion_counts(standard) if counts is not None else None
        std_pv = _split_pvalues(standard, test, binarize, n_resamples, sub_seed(seed, 0, 1), metric, variant, stream)
    return AcrossSplitsResult(
        oracle=oracle,
        standard_oracle=None if standard is None or oracle is None else _oracle_counts(standard),
        counts=counts,
        confidence=float(confidence),
        standard_scores=std_scores,
        standard_counts=std_counts,
        standard_pvalues=std_pv,
        standard_n_items=None if standard is None else standard.n_items,
        display_scale=100 if counts is not None else m.display_scale,  # proportions of units: percent
        systems=systems,
        split_names=names,
        metric=metric if isinstance(metric, str) else (stats_list[0].metric_label or m.name),
        higher_is_better=m.higher_is_better,
        test=test if isinstance(test, str) else getattr(test, "__name__", "custom"),
        variant=used_variant,
        sidedness="one-sided, observed direction" if one_sided else "two-sided",
        alpha=alpha,
        correction=str(correction),
        family=family,
        scores=scores,
        pvalues=pv,
        adjusted=adj,
        wins=wins,
        k_hat=k_hat,
        n_items=tuple(st.n_items for st in stats_list),
        seed=seed,
        n_resamples=n_resamples if test in ("bootstrap", "permutation") else None,
        data=hash_data(list(stats_list), standard),
        provenance=dict(stats_list[0].provenance),
        stream_version=stream,
    )
