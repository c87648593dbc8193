"""Evaluation designs beyond one run: repeats within items, and items crossed with prompts.

An LLM evaluation often has more than one observation per item: K samples of each item (lm-eval
``repeats``, Inspect epochs, several training-run seeds read with ``-o run=FIELD``), or each item
run under P prompt templates (records read with ``-o prompt=FIELD``). The readers keep these
observations in ``Statistics.provenance["samples"]`` (items × K, NaN-padded; keyed columns for
runs and prompts). This module turns them into a :class:`Design` (one row per observation, every
system's score side by side, so that resamples are paired across systems) for the engine's two
design schemes:

``resampling="two-level"``
    draw items with replacement, then, within each drawn item, its K_i repeats with replacement;
    a drawn item counts with the mean of its drawn repeats (the item value the readers give).
``resampling="crossed"``
    draw items and prompts independently (Owen 2007's pigeonhole bootstrap); a cell (item, prompt)
    is weighted by the product of the two counts. Every item must be run under every prompt.

Both are bootstraps of the mean score (a metric of one summed statistic, scored as its mean:
``mean``, ``accuracy`` on 0/1 scores, ...); the draws are in ``src/engine/designs.rs``
(deterministic for any thread count, the cluster bootstrap's item stream, a second stream for the
second level). :func:`sigfast.compare` and :func:`sigfast.interval` take them as ``resampling=``.

The analytic counterparts:

:func:`nested_variance`
    the one-way random-effects split of an item's value into the variance between items
    (σ²_between, of the items' expected scores) and within items (σ²_within, of one repeat around
    its item's expectation). Miller (2024, "Adding Error Bars to Evals", arXiv:2411.00640, on resampling
    K answers per question) gives the variance of the mean score over n items with K repeats each as

        Var(mean) = (σ²_between + σ²_within / K) / n,

    so :meth:`NestedVariance.standard_error` gives the error for any n and K and
    :meth:`NestedVariance.repeats_needed` the smallest K that reaches a target error. The shares of
    the item value's variance (within: (σ²_within/K) / (σ²_between + σ²_within/K), between: the
    rest) have intervals from the F distribution: with F = MS_between / MS_within of the one-way
    ANOVA, F · θ follows F(n − 1, Σ(K_i − 1)) where θ is the within share (exact for normal scores
    and equal K; Searle, Casella & McCulloch 1992, §3.5), so θ lies in
    [F_{α/2} / F, F_{1−α/2} / F], cut to [0, 1]. Both shares and their intervals always lie in [0, 1].
:func:`prompt_scores`
    each system's score under each prompt, and their spread across prompts (quantiles 5, 25, 50,
    75 and 95 %, as PromptEval (Polo et al. 2024) reports them, the range and the standard
    deviation); for two systems the per-prompt differences and how many prompts each wins.
:func:`crossed_standard_error`
    the two-way cluster-robust standard error (items × prompts; Cameron, Gelbach and Miller 2011)
    of a crossed design's mean or paired difference: :func:`sigfast.standard_error` on the cells.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._options import DEFAULT_CONFIDENCE
from .exceptions import InputError

__all__ = [
    "DESIGNS",
    "Design",
    "NestedVariance",
    "PromptScores",
    "crossed_standard_error",
    "design_of",
    "nested_variance",
    "prompt_scores",
    "stack",
]

#: The design schemes (``resampling=`` values) of this module.
DESIGNS = ("two-level", "crossed")


@dataclass(frozen=True, eq=False)
class Design:
    """One row per observation: ``table`` (rows × systems, each system's score), ``items`` (the
    row's item code, ``0 .. n_items-1``), ``second`` (its repeat, run or prompt code) and what the
    second level is (``field``)."""

    kind: str
    table: np.ndarray
    items: np.ndarray
    second: np.ndarray
    field: str
    n_items: int
    #: the most repeats of an item (two-level) or the number of prompts (crossed)
    n_second: int

    @property
    def n_rows(self) -> int:
        return int(self.table.shape[0])

    @property
    def label(self) -> str:
        """``two-level(G,K,field)`` or ``crossed(G,P,field)``: how results and signatures name the scheme."""
        from .signature import Part, _value

        return Part(f"{self.kind}({self.n_items},{self.n_second},{_value(self.field)})")

    @property
    def digest(self) -> str:
        """A hash of the rows, their codes and the scheme (the signature's ``design`` field)."""
        from .signature import hash_data

        return hash_data(self.kind, self.table, self.items, self.second)


def _samples(stats: Any, systems: Sequence[str], kind: str) -> tuple[list[np.ndarray], Mapping[str, Any]]:
    prov: Mapping[str, Any] = getattr(stats, "provenance", None) or {}
    samples = prov.get("samples")
    if not samples:
        raise InputError(
            f"resampling={kind!r} needs each item's observations, and these statistics hold one value per item: "
            "read logs with repeats (lm-eval repeats, Inspect epochs, HELM trials), or records with -o sample=, "
            "-o run= or -o prompt="
        )
    reducer = prov.get("sample_reducer", "mean")
    if reducer != "mean":
        raise InputError(
            f"resampling={kind!r} resamples the mean of an item's observations, but these items' values are their "
            f"{reducer}; read them with -o reducer=mean"
        )
    missing = [s for s in systems if s not in samples]
    if missing:
        raise InputError(f"no per-sample values of system {missing[0]!r} (its log has one value per item)")
    mats = [np.asarray(samples[s], dtype=np.float64) for s in systems]
    if any(m.shape[0] != stats.n_items for m in mats):
        raise InputError(
            "the per-sample values do not fit these items (the statistics were cut after reading): read the logs "
            "again for the items you test"
        )
    return mats, prov


def design_of(stats: Any, kind: str) -> Design:
    """The :class:`Design` of a :class:`~sigfast.Statistics` read with per-sample values, for ``kind``
    ``"two-level"`` or ``"crossed"``; every system must have the same observations of every item."""
    if kind not in DESIGNS:
        raise InputError(f"a design is one of {DESIGNS}, got {kind!r}")
    systems = tuple(stats.systems)
    mats, prov = _samples(stats, systems, kind)
    shape = mats[0].shape
    present = ~np.isnan(mats[0])
    ids = getattr(stats, "item_ids", None)

    def name(i: int) -> str:
        return f"item {ids[i]!r}" if ids is not None and len(ids) == shape[0] else f"item {i}"

    for s, m in zip(systems[1:], mats[1:]):
        if m.shape != shape or not np.array_equal(~np.isnan(m), present):
            bad = 0
            if m.shape[0] == shape[0]:
                k0, k1 = present.sum(axis=1), (~np.isnan(m)).sum(axis=1)
                bad = int(np.flatnonzero(k0 != k1)[0]) if (k0 != k1).any() else 0
            raise InputError(
                f"system {s!r} has other observations of {name(bad)} than {systems[0]!r}: the {kind} bootstrap pairs "
                "the systems' observations, so every system needs the same samples (or prompts) of every item"
            )
    if (present.sum(axis=1) == 0).any():
        raise InputError(f"{name(int(np.flatnonzero(present.sum(axis=1) == 0)[0]))} has no observation")
    axis = str(prov.get("sample_axis") or "")
    if kind == "crossed":
        if axis not in ("prompt", "run"):
            raise InputError(
                "resampling='crossed' crosses items with prompts (or training runs) that are the same for every item: "
                "read records with -o prompt=FIELD (or -o run=FIELD); repeats and epochs are numbered within each "
                "item only, so use resampling='two-level' for them"
            )
        if not present.all():
            i, j = (int(v[0]) for v in np.nonzero(~present))
            keys = prov.get("sample_keys") or ()
            p = keys[j] if j < len(keys) else j
            raise InputError(
                f"the crossed bootstrap needs every item under every {axis}: {name(i)} has no {axis} {p!r}; test the "
                f"items that have every {axis}, or use resampling='two-level'"
            )
    rows_i, rows_j = np.nonzero(present)  # item-major, columns in order
    table = np.ascontiguousarray(np.column_stack([m[present] for m in mats]))
    field = str(prov.get("sample_field") or {"prompt": "prompts", "run": "runs"}.get(axis, "samples"))
    if kind == "two-level" and not axis:
        field = str(prov.get("sample_kind") or "samples")
    return Design(
        kind=kind,
        table=table,
        items=np.ascontiguousarray(rows_i.astype(np.uint32)),
        second=np.ascontiguousarray(rows_j.astype(np.uint32)),
        field=field,
        n_items=int(shape[0]),
        n_second=int(present.sum(axis=1).max()) if kind == "two-level" else int(shape[1]),
    )


def check_design_metric(design: Design, stats: Any, m: Any) -> None:
    """The design schemes resample a mean of per-observation scores: the metric must be native, of one
    statistic, and score the items' values as their mean (checked on the observed scores)."""
    if m.native is None or m.on_items or m.n_stats != 1:
        raise InputError(
            f"resampling={design.kind!r} resamples the mean of per-sample scores; {m.name} is not such a mean "
            "(use a mean metric, or resampling='items')"
        )
    from .metrics import observed

    obs = np.asarray(observed(m, stats), dtype=np.float64)
    mean_of_means = np.array(
        [
            float(np.mean(np.bincount(design.items, design.table[:, s]) / np.bincount(design.items)))
            for s in range(design.table.shape[1])
        ]
    )
    if not np.allclose(obs, mean_of_means, rtol=1e-9, atol=1e-12):
        raise InputError(
            f"resampling={design.kind!r} resamples the mean of per-sample scores, but {m.name} of these items "
            f"({obs.tolist()}) is not the mean of their samples' means ({mean_of_means.tolist()}); use a mean metric"
        )


# --------------------------------------------------------------------------------------------
# the nested (two-level) variance


@dataclass(frozen=True)
class NestedVariance:
    """Between- and within-item variance of a score with repeats (see the module docstring)."""

    n_items: int
    #: the mean number of repeats per item (K̄)
    repeats: float
    #: σ²_between: the variance of the items' expected scores (kept at 0 or above)
    between: float
    #: σ²_within: the variance of one repeat around its item's expected score (NaN without a repeated item)
    within: float
    #: (σ²_within / K̄) / (σ²_between + σ²_within / K̄): the share of an item value's variance due to its repeats
    within_share: float
    within_share_interval: tuple[float, float]
    #: 1 − within_share
    between_share: float
    between_share_interval: tuple[float, float]
    confidence_level: float
    #: F = MS_between / MS_within and its degrees of freedom (n − 1, Σ(K_i − 1))
    f_statistic: float
    df: tuple[int, int]

    def standard_error(self, n_items: int | None = None, repeats: float | None = None) -> float:
        """Miller (2024, K resampled answers per question): sqrt((σ²_between + σ²_within / K) / n) for n
        items and K repeats each (default: this evaluation's)."""
        n = self.n_items if n_items is None else _positive("n_items", n_items)
        k = self.repeats if repeats is None else _positive("repeats", repeats)
        return math.sqrt((self.between + self.within / k) / n)

    def repeats_needed(self, standard_error: float, n_items: int | None = None) -> int:
        """The fewest repeats per item with which n items reach ``standard_error``: the smallest K with
        (σ²_between + σ²_within / K) / n ≤ se²; an error when no K does (σ²_between / n alone is above se²)."""
        se = _positive("standard_error", standard_error)
        n = self.n_items if n_items is None else _positive("n_items", n_items)
        room = n * se * se - self.between
        if not room > 0:
            need = self.between / (se * se)
            raise InputError(
                f"no number of repeats reaches a standard error of {se:g} with {n:g} items: the items alone vary by "
                f"σ²_between = {self.between:.4g}, so it needs more than {need:.0f} items"
            )
        if self.within == 0:
            return 1
        return max(1, math.ceil(self.within / room - 1e-12))

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_items": self.n_items,
            "repeats": self.repeats,
            "between": self.between,
            "within": self.within,
            "within_share": self.within_share,
            "within_share_interval": list(self.within_share_interval),
            "between_share": self.between_share,
            "between_share_interval": list(self.between_share_interval),
            "confidence_level": self.confidence_level,
            "f_statistic": self.f_statistic,
            "df": list(self.df),
            "standard_error": self.standard_error(),
        }


def _positive(name: str, v: Any) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a positive number, got {v!r}") from None
    if not (x > 0 and math.isfinite(x)):
        raise InputError(f"{name} must be a positive number, got {v!r}")
    return x


def nested_variance(samples: Any, other: Any = None, *, confidence_level: float = DEFAULT_CONFIDENCE) -> NestedVariance:
    """The variance split of per-sample scores (items × K, NaN-padded; or a :class:`~sigfast.Statistics`
    read with samples, of one system or two: then of their paired difference ``other − samples``).

    The point estimates are :func:`sigfast.samples.variance_components`' one-way ANOVA moments (with
    K repeats on every item: σ²_within = MS_within, σ²_between = max(0, (MS_between − MS_within) / K));
    the shares' intervals come from the F distribution (module docstring)."""
    from scipy import stats as st

    from .executor import check_level
    from .samples import _matrix, variance_components

    cl = check_level(confidence_level)
    if hasattr(samples, "provenance"):
        stats = samples
        systems = tuple(stats.systems)
        if len(systems) > 2:
            raise InputError("nested_variance takes one system, or two for their paired difference")
        mats, _ = _samples(stats, systems, "two-level")
        a, b = mats[0], (mats[1] if len(mats) == 2 else None)
    else:
        a, b = _matrix(samples), (None if other is None else _matrix(other, "other"))
    comp = variance_components(a, b)
    ks = [np.sum(~np.isnan(a), axis=1)] + ([] if b is None else [np.sum(~np.isnan(b), axis=1)])
    k_items = np.mean(ks, axis=0)
    kbar = float(np.mean(k_items))
    n = comp.n_items
    df2 = int(sum(int(np.sum(k - 1)) for k in ks))
    df1 = n - 1
    within_item = comp.within  # mean_i(σ²_w / K_i): what the repeats add to an item value's variance
    if n < 2 or df2 < 1 or math.isnan(within_item):
        raise InputError(
            "the variance split needs at least 2 items and an item with two or more samples "
            f"(here {n} items, {comp.n_repeated} with repeats)"
        )
    # σ²_within of one repeat: the within part scaled back by the items' mean 1/K_i
    sigma_w = within_item / float(np.mean(1.0 / k_items))
    total = comp.total
    f = total / within_item if within_item > 0 else math.inf
    share = comp.within_share
    alpha = 1.0 - cl
    if within_item == 0:
        lo_hi = (0.0, 0.0)
    elif total == 0:
        lo_hi = (1.0, 1.0)
    else:
        lo_hi = (
            min(1.0, float(st.f.ppf(alpha / 2, df1, df2)) / f),
            min(1.0, float(st.f.ppf(1 - alpha / 2, df1, df2)) / f),
        )
    return NestedVariance(
        n_items=n,
        repeats=kbar,
        between=comp.between,
        within=sigma_w,
        within_share=share,
        within_share_interval=lo_hi,
        between_share=1.0 - share if not math.isnan(share) else math.nan,
        between_share_interval=(1.0 - lo_hi[1], 1.0 - lo_hi[0]),
        confidence_level=cl,
        f_statistic=f,
        df=(df1, df2),
    )


# --------------------------------------------------------------------------------------------
# crossed designs: per-prompt scores and the two-way error

#: the quantiles across prompts that :func:`prompt_scores` reports (PromptEval's)
PROMPT_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True)
class PromptScores:
    """Each system's score under each prompt and their spread across prompts."""

    systems: tuple[str, ...]
    prompts: tuple[str, ...]
    field: str
    #: systems × prompts: the mean score of each system under each prompt
    scores: np.ndarray
    #: systems × len(PROMPT_QUANTILES): quantiles across prompts (numpy's linear rule)
    quantiles: np.ndarray
    #: systems: max − min across prompts
    spread: np.ndarray
    #: systems: standard deviation across prompts (ddof = 1)
    sd: np.ndarray
    #: two systems: per-prompt difference (second − first) and the prompts each is better on
    difference: np.ndarray | None = None
    wins: tuple[int, int, int] | None = None  # (first better, second better, tied)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "field": self.field,
            "prompts": list(self.prompts),
            "quantile_levels": list(PROMPT_QUANTILES),
            "systems": {
                s: {
                    "scores": self.scores[i].tolist(),
                    "quantiles": self.quantiles[i].tolist(),
                    "spread": float(self.spread[i]),
                    "sd": float(self.sd[i]),
                }
                for i, s in enumerate(self.systems)
            },
        }
        if self.difference is not None and self.wins is not None:
            out["difference"] = self.difference.tolist()
            out["wins"] = {self.systems[0]: self.wins[0], self.systems[1]: self.wins[1], "tied": self.wins[2]}
        return out


def prompt_scores(stats: Any) -> PromptScores:
    """Per-prompt scores of a :class:`~sigfast.Statistics` read with ``-o prompt=FIELD`` (or ``-o run=``)."""
    d = design_of(stats, "crossed")
    prov = stats.provenance
    keys = tuple(str(k) for k in (prov.get("sample_keys") or range(d.n_second)))
    n_sys = d.table.shape[1]
    scores = np.empty((n_sys, d.n_second))
    for s in range(n_sys):
        scores[s] = np.bincount(d.second, d.table[:, s], minlength=d.n_second) / np.bincount(
            d.second, minlength=d.n_second
        )
    q = np.quantile(scores, PROMPT_QUANTILES, axis=1).T
    sd = np.std(scores, axis=1, ddof=1) if d.n_second > 1 else np.full(n_sys, math.nan)
    diff = wins = None
    if n_sys == 2:
        diff = scores[1] - scores[0]
        wins = (int(np.sum(diff < 0)), int(np.sum(diff > 0)), int(np.sum(diff == 0)))
    return PromptScores(
        systems=tuple(stats.systems),
        prompts=keys,
        field=d.field,
        scores=scores,
        quantiles=q,
        spread=scores.max(axis=1) - scores.min(axis=1),
        sd=sd,
        difference=diff,
        wins=wins,
    )


def crossed_standard_error(stats: Any, *, confidence_level: float = DEFAULT_CONFIDENCE) -> Any:
    """The two-way cluster-robust standard error (items × prompts) of a crossed design's mean (one
    system) or paired difference (two): :func:`sigfast.standard_error` on the cells, with the items
    and the prompts as its two cluster factors."""
    from .clusters import Clusters
    from .errorbars import standard_error

    d = design_of(stats, "crossed")
    items, second = Clusters(d.items, "items"), Clusters(d.second, d.field)
    if d.table.shape[1] > 2:
        raise InputError("crossed_standard_error takes one system, or two for their paired difference")
    if d.table.shape[1] == 2:
        return standard_error(
            d.table[:, 0],
            d.table[:, 1],
            clusters=items,
            clusters2=second,
            confidence_level=confidence_level,
        )
    return standard_error(d.table[:, 0], clusters=items, clusters2=second, confidence_level=confidence_level)


def stack(runs: Mapping[str, Mapping[str, Any]], *, axis: str = "prompt") -> Any:
    """One :class:`~sigfast.Statistics` of per-item scores from several logs per system: ``runs[system][key]``
    is that system's log (a :class:`~sigfast.Statistics` of one system, as :func:`sigfast.read` gives it)
    under prompt template ``key`` (``axis="prompt"``) or of training run ``key`` (``axis="run"``). Items are
    matched by id and observations by key: every log of every system must hold the same items, and every
    system the same keys. An item's value is the mean over its keys (its value in each log: the mean of
    that log's samples); the per-key values feed ``resampling="crossed"`` and ``"two-level"``."""
    from .stats import Statistics

    if axis not in ("prompt", "run"):
        raise InputError(f"axis must be 'prompt' or 'run', got {axis!r}")
    if not runs:
        raise InputError("stack() needs at least one system")
    systems = [str(s) for s in runs]
    keys = [str(k) for k in next(iter(runs.values()))]
    if not keys:
        raise InputError(f"system {systems[0]!r} has no log")
    ids: tuple[str, ...] | None = None
    cols: dict[str, np.ndarray] = {}
    for s, by_key in runs.items():
        if sorted(map(str, by_key)) != sorted(keys):
            raise InputError(f"system {s!r} has the {axis}s {sorted(map(str, by_key))}, {systems[0]!r} {sorted(keys)}")
        mat = np.empty((0, 0))
        for j, k in enumerate(keys):
            st = by_key[k] if k in by_key else dict(zip(map(str, by_key), by_key.values()))[k]
            if st.n_systems != 1 or st.values.shape[2] != 1:
                raise InputError(f"{s!r}, {axis} {k!r}: give one system's per-item scores (one statistic)")
            these = tuple(st.item_ids or ())
            if not these:
                raise InputError(f"{s!r}, {axis} {k!r}: the log has no item ids to match by")
            if ids is None:
                ids = these
            if set(these) != set(ids) or len(these) != len(ids):
                raise InputError(
                    f"{s!r}, {axis} {k!r}: its items differ from the first log's ({len(these)} and {len(ids)} items); "
                    "stack logs of the same items"
                )
            at = {i: n for n, i in enumerate(these)}
            if j == 0:
                mat = np.empty((len(ids), len(keys)))
            mat[:, j] = st.values[0, [at[i] for i in ids], 0]
        cols[s] = mat
    assert ids is not None
    values = np.stack([cols[s].mean(axis=1) for s in systems])[:, :, None]
    return Statistics(
        values=values,
        systems=tuple(systems),
        stat_names=("score",),
        metric="mean",
        item_ids=ids,
        source=f"stacked {axis}s",
        provenance={
            "format": "stacked",
            "samples": cols,
            "sample_reducer": "mean",
            "sample_axis": axis,
            "sample_field": axis,
            "sample_keys": tuple(keys),
        },
    )
