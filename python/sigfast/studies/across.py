"""Comparisons across K random splits (Gorman & Bedrick 2019, Table 3 and Figure 1).

Given each system's per-item statistics on the test part of K splits, every
pair of systems is tested on every split; after a correction for multiple
comparisons, the number of splits in which one system is significantly
better than the other is counted, the replicability analysis of Dror et al.
(2017) estimates in how many splits the effect holds, and each system's score
range across splits is reported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._backends import run_tasks
from .._plot import pyplot
from ..classical import mcnemar
from ..exceptions import InputError
from ..metrics import resolve_metric
from ..multitest import adjust, replicability
from ..stats import Statistics
from ._common import check_int, plain, progress_cb, sub_seed, subset

__all__ = ["TESTS", "AcrossSplitsResult", "across_splits", "binary_outcomes", "split_statistics", "split_units"]

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
        from pathlib import Path

        splits = json.loads(Path(splits).read_text())
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
    correct = {name: units.correct(k).astype(np.float64) for k, name in enumerate(units.names)}
    out = []
    for s in manifest["splits"]:
        mask = np.isin(units.sentence, np.asarray(s["indices"][part], dtype=np.int64))
        if not mask.any():
            raise InputError(f"split {s.get('name', '?')}: its {part} part holds no units")
        out.append(_unit_accuracy({n: c[mask] for n, c in correct.items()}))
    return out


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
        from ..pairwise import pairwise
        from ..significance import resolve_variant

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
        )
        iu = np.triu_indices(s, 1)
        pv[iu] = r.pvalues[iu]  # [i, j], i < j: the two-sided test of j against i
        pv[(iu[1], iu[0])] = r.pvalues[iu]
        return pv
    if test == "permutation":
        from ..significance import permutation_test

        for i in range(s):
            for j in range(i + 1, s):
                pv[i, j] = pv[j, i] = permutation_test(
                    st.select(i, j), metric=metric, n_resamples=n_resamples, seed=seed, method="approximate"
                ).pvalue
        return pv
    from ..classical import paired_ttest, sign_test, wilcoxon

    fn = {"sign": sign_test, "wilcoxon": wilcoxon, "ttest": paired_ttest}.get(test)
    if fn is None:
        raise InputError(f"unknown test {test!r}; choose one of {', '.join(TESTS)} or pass a callable")
    sc = _item_scores(st)
    for i in range(s):
        for j in range(i + 1, s):
            pv[i, j] = pv[j, i] = fn(sc[i], sc[j]).pvalue
    return pv


@dataclass(frozen=True)
class AcrossSplitsResult:
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

    @property
    def n_splits(self) -> int:
        return len(self.split_names)

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
                    }
                )
        return rows

    def to_dict(self) -> dict[str, Any]:
        return plain(
            {
                "systems": list(self.systems),
                "splits": list(self.split_names),
                "metric": self.metric,
                "higher_is_better": self.higher_is_better,
                "test": self.test,
                "variant": self.variant,
                "sidedness": self.sidedness,
                "alpha": self.alpha,
                "correction": self.correction,
                "family": self.family,
                "seed": self.seed,
                "n_resamples": self.n_resamples,
                "n_items": list(self.n_items),
                "scores": {n: list(self.scores[s]) for s, n in enumerate(self.systems)},
                "score_ranges": self.score_ranges(),
                "comparisons": self.comparisons(),
            }
        )

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def to_frame(self) -> Any:
        """One row per pair of systems (:meth:`comparisons`) as a pandas DataFrame."""
        from .._api import frame

        return frame(self.comparisons())

    @property
    def signature(self) -> str:
        from ..signature import build

        return (
            build(
                "across_splits",
                variant=f"{self.test}:{self.variant or '-'}",
                alt=self.sidedness,
                metric=None,
                splits=self.n_splits,
                items="+".join(map(str, self.n_items)),
                B=self.n_resamples,
                seed=self.seed,
                correction=f"{self.correction}@{self.alpha:g}/{self.family}",
            )
            + f"|metric:{self.metric}"
        )

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

    def tables(self, max_rows: int | None = None) -> list[Any]:
        """Score ranges per system and significant wins per pair (for every output style)."""
        from ..report import Table, _fmt_score

        scale = self.display_scale
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
                f"{scale * ranges[s]['range']:.2f}",
                f"{ranges[s]['best_rank']}-{ranges[s]['worst_rank']}",
            ]
            for s in order
        ]
        head = (
            f"{len(self.systems)} systems on {self.n_splits} splits, {self.test} test"
            f"{f' ({self.variant}, {self.sidedness})' if self.variant else f' ({self.sidedness})'}, "
            f"{self.correction} over {self.family}, alpha {self.alpha:g}"
        )
        t1 = Table(("system", "mean", "min", "max", "range", "ranks"), tuple(tuple(r) for r in rows), title=head)
        pairs = []
        for r in self.comparisons():
            a, b = (
                (r["system_j"], r["system_i"])
                if r["mean_delta"] * (1 if self.higher_is_better else -1) >= 0
                else (r["system_i"], r["system_j"])
            )
            wins_a = r["j_significantly_better"] if a == r["system_j"] else r["i_significantly_better"]
            wins_b = r["i_significantly_better"] if a == r["system_j"] else r["j_significantly_better"]
            k_a = r["k_hat_j_better"] if a == r["system_j"] else r["k_hat_i_better"]
            pairs.append(
                [
                    a,
                    b,
                    f"{scale * abs(r['mean_delta']):.2f}",
                    f"{wins_a}/{self.n_splits}",
                    f"{wins_b}/{self.n_splits}",
                    k_a,
                ]
            )
        pairs.sort(key=lambda row: -float(row[2]))
        if max_rows is not None:
            pairs = pairs[:max_rows]
        t2 = Table(
            ("better (mean)", "worse", "mean gain", "sig. better", "sig. worse", "k-hat"),
            tuple(tuple(p) for p in pairs),
            title="pairs, largest mean gain first",
        )
        return [t1, t2]

    def table(self, markdown: bool = False, max_rows: int | None = None) -> str:
        from ..report import render_tables

        return render_tables(self.tables(max_rows), "markdown" if markdown else "text").rstrip("\n")

    def __str__(self) -> str:
        return self.table()

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Each system's score on every split (dots) and its range (bar), best mean first (G&B Figure 1)."""
        plt = pyplot()
        scale = self.display_scale
        means = self.scores.mean(1)
        order = np.argsort(-means if self.higher_is_better else means, kind="stable")
        n = len(order)
        fig, ax = plt.subplots(figsize=(max(5.0, 0.35 * n + 2), 4.2))
        rng = np.random.default_rng(0)
        for pos, s in enumerate(order):
            v = scale * self.scores[s]
            ax.vlines(pos, v.min(), v.max(), color="grey", lw=1)
            ax.scatter(pos + rng.uniform(-0.15, 0.15, v.size), v, s=9, alpha=0.7, color="tab:blue")
            ax.scatter([pos], [scale * means[s]], marker="_", s=120, color="black")
        ax.set_xticks(range(n), [self.systems[s] for s in order], rotation=90, fontsize=7)
        ax.set_ylabel(self.metric + (" (x100)" if scale == 100 else ""))
        ax.set_title(f"{self.metric} on {self.n_splits} random splits")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig


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
    seed: int = 12345,
    variant: str | None = None,
    backend: Any = "local",
    progress: Any = None,
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
    m = resolve_metric(metric, stats_list[0])
    K, S = len(stats_list), len(systems)
    scores = np.stack([m.evaluate(st.totals(), st.n_items) for st in stats_list], axis=1)
    cb = progress_cb(progress, K, "splits")
    if variant is not None and test not in ("mcnemar", "bootstrap"):
        raise InputError(f"the {test} test has no variants; variant= is for mcnemar and bootstrap")
    if test == "mcnemar" and variant not in (None, "mid-p", "exact", "asymptotic", "asymptotic-nocc"):
        raise InputError(f"McNemar variants: mid-p, exact, asymptotic, asymptotic-nocc; got {variant!r}")
    if test == "bootstrap":
        from ..significance import resolve_variant

        resolve_variant(variant or "bk", "two-sided" if (variant or "bk") == "shifted" else None)
    one_sided = test == "bootstrap" and (variant or "bk") in ("bk", "berg-kirkpatrick", "koehn")
    used_variant = variant or {"mcnemar": "mid-p", "bootstrap": "bk"}.get(str(test))
    tasks = [(st, test, binarize, n_resamples, sub_seed(seed, k), metric, variant) for k, st in enumerate(stats_list)]
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
    return AcrossSplitsResult(
        display_scale=m.display_scale,
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
    )
