"""Error bars for one model and for a leaderboard (Miller 2024, "Adding Error Bars to Evals").

:func:`standard_error` gives the standard error of one system's mean score, or
of the paired difference of two systems, with its normal (CLT) interval:
cluster-robust (CR1, :func:`sigfast.clusters.cluster_se`) when the items are
clustered, with the iid error beside it, the design effect
(SE_cluster / SE_iid)², the number of clusters and, where the items were
sampled several times, the within-item share of the variance
(:func:`sigfast.samples.variance_components`).

:func:`leaderboard` gives every model's score with its standard error, its
normal interval and its bootstrap interval (whole clusters resampled when
the items are clustered; the executor's interval question), and tests the
pairs of models.

**Which pair tests for a leaderboard.** With S models there are S(S−1)/2
pairs: 124,750 for 500 models. A resampling p-value is at least 1/(B+1), so
at B = 10⁴ no pair can pass Holm's first threshold 0.05/124,750 ≈ 4·10⁻⁷,
and a bootstrap leaderboard of that size separates nothing, however large
the differences. What a leaderboard user needs is which models are
distinguishable from which, controlling the chance of any false claim; so
the default (``pairs="normal"``) tests each pair with the paired z-test on
the cluster-robust standard error of the per-item differences (the CLT test
Miller recommends: its p-values are not floored by B), corrected by Holm
over all pairs, and groups models by the WMT boundary rule
(:func:`sigfast.pairwise.significance_groups`). ``pairs="bootstrap"`` runs
:func:`sigfast.pairwise` instead (fine for tens of models; for hundreds,
raise B or use ``correction="bh"``, which controls the false discovery rate
instead of the family-wise error); ``pairs="none"`` gives the intervals only.
The normal test needs per-item scores whose mean is the metric (accuracy,
exact match, any mean); corpus metrics (BLEU, F1 on summed counts) take
``pairs="bootstrap"``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ._api import checked_keywords
from ._options import DEFAULT_CONFIDENCE, DEFAULT_SEED, shared_options
from .clusters import Clusters, cluster_se, power_of_two_scale, two_way_se, unscale
from .exceptions import InputError
from .metrics import Metric
from .results import ConfidenceInterval, Key, Result

__all__ = ["Leaderboard", "StandardErrorResult", "leaderboard", "standard_error"]


# --------------------------------------------------------------------------------------------
# per-item scores


def item_scores(stats: Any, m: Metric) -> np.ndarray:
    """Per-item scores whose mean is the metric (systems × items), or an InputError for metrics
    that are not means (the CLT error bars need them)."""
    native = getattr(m, "native", None)
    if native == "mean" and stats.n_stats == 1:
        return np.asarray(stats.values[:, :, 0], dtype=np.float64)
    if native == "accuracy" and stats.n_stats == 2 and np.all(stats.values[:, :, 1] == 1.0):
        return np.asarray(stats.values[:, :, 0], dtype=np.float64)
    raise InputError(
        f"normal (CLT) standard errors are for a mean of per-item scores; {m.name} is not one (its value is "
        "not the mean of one number per item). Use a bootstrap interval (sigfast.bootstrap_interval, which "
        "resamples clusters too), or pairs='bootstrap'"
    )


def _z(confidence_level: float) -> float:
    from .classical import _nisf

    return _nisf((1.0 - confidence_level) / 2.0)


def _two_sided(z: float) -> float:
    from .classical import _nsf

    return min(1.0, 2.0 * _nsf(abs(z)))


def _components(stats: Any, systems: Sequence[str]) -> Any:
    """Variance components of one system's samples or of the difference of two, when the
    statistics carry per-sample values."""
    from .samples import variance_components

    samples = (getattr(stats, "provenance", None) or {}).get("samples")
    if not samples or any(s not in samples for s in systems):
        return None
    if len(systems) == 1:
        return variance_components(samples[systems[0]])
    return variance_components(samples[systems[0]], samples[systems[1]])


# --------------------------------------------------------------------------------------------
# one system, or a paired difference


@dataclass(frozen=True)
class StandardErrorResult(Result):
    """The standard error of a mean score (``statistic="score"``) or of the paired difference of
    two systems' means (``"difference"``: y − x), with its normal interval.

    ``standard_error`` is cluster-robust (CR1) when ``n_clusters`` is set, else the iid s/√n;
    ``se_iid`` is always the iid one, ``design_effect`` = (standard_error / se_iid)². For a
    difference, ``zstat`` and ``pvalue`` are the two-sided normal test of no difference: NaN, with a
    warning (a ``RuntimeWarning`` and a line in ``warnings``), where it is undefined (one item or one
    cluster; differences that do not vary), never p = 0 from a zero standard error.
    ``within_item_share`` (items sampled several times): the share of the variance of the items'
    values that the sampling within items adds.
    """

    statistic: str
    metric: str
    systems: tuple[str, ...]
    estimate: float
    standard_error: float
    se_iid: float
    confidence_level: float
    confidence_interval: ConfidenceInterval
    n_items: int
    n_clusters: int | None = None
    cluster_field: str | None = None
    design_effect: float | None = None
    zstat: float | None = None
    pvalue: float | None = None
    within_item_share: float | None = None
    samples_per_item: float | None = None
    signature: str = ""
    warnings: tuple[str, ...] = ()
    #: two-way clustered (Cameron, Gelbach and Miller 2011): ``n_clusters`` / ``cluster_field`` the first
    #: factor (items), ``n_clusters2`` / ``cluster_field2`` the second (prompt templates)
    two_way: bool = False
    n_clusters2: int | None = None
    cluster_field2: str | None = None

    _keys = (
        *("statistic", "metric", "systems", "estimate", "standard_error", "se_iid", "confidence_level"),
        *("confidence_interval", "n_items", "n_clusters", "cluster_field", "design_effect", "zstat", "pvalue"),
        *("within_item_share", "samples_per_item"),
        *(Key(k, when="two_way") for k in ("two_way", "n_clusters2", "cluster_field2")),
        *("signature", "warnings"),
    )

    def _text(self) -> str:
        lo, hi = self.confidence_interval
        what = " - ".join(reversed(self.systems)) if self.statistic == "difference" else self.systems[0]
        kind = f"cluster-robust over {self.n_clusters} clusters ({self.cluster_field})" if self.n_clusters else "iid"
        if self.two_way:
            kind = (
                f"two-way cluster-robust over {self.n_clusters} {self.cluster_field} x {self.n_clusters2} "
                f"{self.cluster_field2} clusters"
            )
        lines = [
            f"{self.metric} {self.statistic} ({what}) = {self.estimate:.6g}, SE {self.standard_error:.6g} ({kind}), "
            f"{100 * self.confidence_level:g}% normal interval [{lo:.6g}, {hi:.6g}]; {self.n_items} items"
        ]
        if self.n_clusters:
            lines.append(f"  iid SE {self.se_iid:.6g}; design effect {self.design_effect:.4g}")
        if self.pvalue is not None:
            lines.append(f"  z = {self.zstat:.4g}, p = {self.pvalue:.4g} (two-sided normal test of no difference)")
        if self.within_item_share is not None and math.isfinite(self.within_item_share):
            lines.append(
                f"  {self.samples_per_item:.3g} samples per item; within-item share of the variance "
                f"{self.within_item_share:.3g}"
            )
        lines.extend(f"  warning: {w}" for w in self.warnings)
        lines.append(f"  {self.signature}")
        return "\n".join(lines) + "\n"


@checked_keywords
def standard_error(
    x: Any,
    y: Any = None,
    *,
    systems: tuple[Any, Any] | None = None,
    system: Any = None,
    clusters: Any = None,
    clusters2: Any = None,
    confidence_level: float = DEFAULT_CONFIDENCE,
) -> StandardErrorResult:
    """Standard error and normal interval of a mean score (``x``) or of the paired difference
    y − x of two systems' means, cluster-robust when the items are clustered.

    ``x``, ``y``: per-item scores (1-D), or a :class:`~sigfast.Statistics` of per-item
    scores (``system=`` one system, ``systems=`` two). ``clusters``: one key per item;
    default: the statistics' own (``provenance["clusters"]``, from ``-o cluster=FIELD``);
    ``clusters=False`` gives the iid error only. The clustered error is CR1 with the
    G/(G−1) correction (equal to statsmodels' OLS ``cov_type="cluster"`` on the per-item
    scores, and to Inspect's ``stderr(cluster=...)``). Scores near 1e300 are computed scaled by a
    power of two (the same bits where nothing overflows). See the module docstring.

    ``clusters2``: a second cluster key per item (e.g. the prompt template, when every item is run
    under several templates and each row is one item × template): the error is then two-way
    cluster-robust (Cameron, Gelbach and Miller 2011), V = V_clusters + V_clusters2 − V_both, each
    a CR1 variance with its own G/(G − 1) factor, equal to statsmodels' OLS ``cov_type="cluster"``
    with ``groups=np.column_stack([clusters, clusters2])``. Where V comes out negative (possible
    with two-way clustering) the standard error, interval, z and p are NaN with a warning, as
    statsmodels' are; no eigenvalue fix is applied. The result says ``two_way=True`` and its
    signature ``variant:cr1-twoway``.
    """
    from .executor import check_level, one_input, pair_inputs

    cl = check_level(confidence_level)
    pair = y is not None or systems is not None
    stats, m = pair_inputs(x, y, systems, None, {}) if pair else one_input(x, system, None, {})
    v = item_scores(stats, m)
    spec = _resolve(stats, clusters)
    spec2 = None
    if clusters2 is not None:
        if spec is None:
            raise InputError(
                "clusters2= is the second factor of a two-way clustering: give the first too (clusters=, one key "
                "per item, or statistics read with -o cluster=FIELD)"
            )
        spec2 = Clusters.from_keys(clusters2, "given2", stats.n_items, "clusters2=")
    k = power_of_two_scale(v)  # scores near 1e300: computed on v · 2^-k, exactly, then scaled back
    if k:
        v = np.ldexp(v, -k)
    values = v[1] - v[0] if pair else v[0]
    codes = None if spec is None else spec.codes
    est, se_iid = cluster_se(values)
    if spec2 is not None:
        se = two_way_se(values, spec.codes, spec2.codes)[1]  # type: ignore[union-attr]
    else:
        se = cluster_se(values, codes)[1] if codes is not None else se_iid
    z = _z(cl)
    if pair:  # the difference of the two means, as the metric computes each
        est = float(np.sum(v[1]) / v.shape[1] - np.sum(v[0]) / v.shape[1])
    undefined: tuple[str, ...] = ()
    if math.isnan(se) and spec2 is not None and spec.n_clusters > 1 and spec2.n_clusters > 1:  # type: ignore[union-attr]
        undefined = (
            "the two-way cluster-robust variance is negative here (V_clusters + V_clusters2 - V_both < 0, possible "
            f"with two-way clustering): the standard error, the interval{', z and p are' if pair else ' is'} NaN; "
            "use the one-way error of the factor with the larger variance (clusters= alone) or more clusters",
        )
    elif math.isnan(se):  # one item, or one cluster
        word = "clusters" if spec is not None else "items"
        count = spec.n_clusters if spec is not None else stats.n_items
        if spec2 is not None and spec2.n_clusters < count:
            count = spec2.n_clusters
        undefined = (
            f"the standard error is undefined on {count} {word if count != 1 else word[:-1]} (it needs at least two "
            f"{word}): the interval{', z and p are' if pair else ' is'} NaN",
        )
    if pair:  # a spread at the rounding error of the values (0.7 - 0.2 and 0.8 - 0.3) is none
        noise = 64 * np.finfo(np.float64).eps * float(np.max(np.abs(values)))
        se, se_iid = (0.0 if 0 < e <= noise else e for e in (se, se_iid))
    zstat = None
    if pair:
        if se > 0:
            zstat = est / se
        elif se == 0 and est == 0:
            zstat = 0.0
        else:  # no spread at all (or none defined): the normal test says nothing, and p is never 0
            zstat = math.nan
            if se == 0:
                undefined += (
                    "the per-item differences do not vary (SE 0): the normal test of no difference is undefined, "
                    "z and p are NaN; test on more items, or use an exact test (sigfast.sign_test, mcnemar)",
                )
    est, se, se_iid = unscale(est, k), unscale(se, k), unscale(se_iid, k)
    lo, hi = est - z * se, est + z * se
    if any(math.isinf(x) for x in (est, se, se_iid, lo, hi)):
        raise InputError(
            f"the scores are too large for a standard error (it overflows: largest |score| "
            f"{float(np.max(np.abs(np.ldexp(v, k)))):.3g}): rescale them"
        )
    if undefined:
        import warnings as _warnings

        for w in undefined:
            _warnings.warn(f"sigfast.standard_error: {w}", RuntimeWarning, stacklevel=3)
    comp = _components(stats, stats.systems)
    from .signature import build

    sig = build(
        "standard_error_difference" if pair else "standard_error",
        stats=stats,
        metric=m,
        clusters=spec if spec2 is None else np.column_stack([spec.codes, spec2.codes]),  # type: ignore[union-attr]
        variant=("cr1-twoway" if spec2 is not None else "cr1") if spec is not None else "iid",
        cluster=spec.label if spec is not None else None,
        cluster2=spec2.label if spec2 is not None else None,
        conf=cl,
    )
    warnings: tuple[str, ...] = ()
    from .clusters import few_clusters_warning

    warnings += few_clusters_warning(spec) + few_clusters_warning(spec2) + undefined
    from .paired_binary import normal_interval_warnings

    warnings += normal_interval_warnings(v, difference=pair, names=stats.systems)
    return StandardErrorResult(
        statistic="difference" if pair else "score",
        metric=m.name,
        systems=tuple(stats.systems),
        estimate=float(est),
        standard_error=float(se),
        se_iid=float(se_iid),
        confidence_level=cl,
        confidence_interval=ConfidenceInterval(float(lo), float(hi)),
        n_items=stats.n_items,
        n_clusters=None if spec is None else spec.n_clusters,
        cluster_field=None if spec is None else spec.field,
        design_effect=None if spec is None or se_iid == 0 else float((se / se_iid) ** 2),
        zstat=None if zstat is None else float(zstat),
        pvalue=(math.nan if math.isnan(zstat) else _two_sided(float(zstat))) if zstat is not None else None,
        within_item_share=None if comp is None else float(comp.within_share),
        samples_per_item=None if comp is None else float(comp.mean_samples),
        signature=sig,
        warnings=warnings,
        two_way=spec2 is not None,
        n_clusters2=None if spec2 is None else spec2.n_clusters,
        cluster_field2=None if spec2 is None else spec2.field,
    )


def _resolve(stats: Any, clusters: Any) -> Clusters | None:
    from .clusters import resolve

    return resolve(stats, None if clusters is None else clusters, "auto") if clusters is not False else None


# --------------------------------------------------------------------------------------------
# a leaderboard


def pair_standard_errors(values: np.ndarray, codes: np.ndarray | None) -> np.ndarray:
    """S × S standard errors of the paired differences of S systems' mean scores (``values``:
    systems × items): cluster-robust CR1 with ``codes``, else iid (the singleton-cluster case,
    s_d/√n). Each pair's squared cluster sums are added in cluster order."""
    s, n = values.shape
    means = np.sum(values, axis=1) / n
    resid = values - means[:, None]
    if codes is None:
        u = resid.T  # n × S: every item its own cluster
        g = n
    else:
        g = int(codes.max()) + 1
        u = np.zeros((g, s))
        np.add.at(u, codes, resid.T)
    factor = g / (g - 1) if g > 1 else math.nan
    out = np.zeros((s, s))
    for i in range(s - 1):
        d = u[:, i + 1 :] - u[:, i : i + 1]
        var = np.sum(d * d, axis=0)
        out[i, i + 1 :] = out[i + 1 :, i] = np.sqrt(factor * var) / n
    return out


@dataclass(frozen=True)
class Leaderboard(Result):
    """Every model's score with its standard error, normal and bootstrap intervals, and (unless
    ``pairs="none"``) the tests of every pair with the ranking and significance groups.

    Arrays are by system, in ``systems`` order; pair matrices ``[i, j]`` concern δ = score(j) −
    score(i). ``pairwise`` holds the bootstrap pairwise result when ``pairs="bootstrap"``.
    """

    systems: tuple[str, ...]
    metric: str
    higher_is_better: bool
    scores: np.ndarray
    standard_errors: np.ndarray | None
    se_iid: np.ndarray | None
    normal_intervals: np.ndarray | None
    bootstrap_intervals: np.ndarray | None
    n_items: int
    confidence_level: float
    pairs: str
    correction: str
    alpha: float
    groups: str
    n_resamples: int | None = None
    seed: int | None = None
    method: str | None = None
    n_clusters: int | None = None
    cluster_field: str | None = None
    within_item_share: np.ndarray | None = None
    delta: np.ndarray | None = field(default=None, repr=False)
    pair_se: np.ndarray | None = field(default=None, repr=False)
    pvalues: np.ndarray | None = field(default=None, repr=False)
    adjusted: np.ndarray | None = field(default=None, repr=False)
    pairwise: Any = field(default=None, repr=False)
    display_scale: int = 1
    signature: str = ""
    warnings: tuple[str, ...] = ()
    #: ``"sidak"``: the intervals hold all together at ``confidence_level`` (Šidák), each at
    #: ``interval_level`` = confidence_level^(1/S); None: each interval at ``confidence_level``
    simultaneous: str | None = None
    interval_level: float | None = None
    #: ``versus=``: the model every other is tested against (the observed best, or the one named), with
    #: each model's difference to it, its bootstrap p-value and the p-value adjusted over the S − 1
    #: comparisons by ``correction`` (NaN at the reference itself); else None.
    versus: str | None = None
    versus_delta: np.ndarray | None = field(default=None, repr=False)
    versus_pvalues: np.ndarray | None = field(default=None, repr=False)
    versus_adjusted: np.ndarray | None = field(default=None, repr=False)
    #: ``bootstrap_ranks=True``: each model's share of the resamples on which it is best (ties shared
    #: evenly) and its mean rank over them; else None.
    p_best: np.ndarray | None = field(default=None, repr=False)
    expected_rank: np.ndarray | None = field(default=None, repr=False)

    _keys = (
        *("systems", "metric", "higher_is_better", "n_items", "n_clusters", "cluster_field", "confidence_level"),
        Key("simultaneous", when="simultaneous"),
        Key("interval_level", when="simultaneous"),
        Key("versus", when="versus"),
        *("pairs", "correction", "alpha", "n_resamples", "seed", "method", "models"),
        Key("groups", "significance_groups"),
        *("warnings", "signature"),
    )

    @property
    def design_effects(self) -> np.ndarray | None:
        if self.standard_errors is None or self.n_clusters is None or self.se_iid is None:
            return None
        with np.errstate(divide="ignore", invalid="ignore"):
            return (self.standard_errors / self.se_iid) ** 2

    def order(self) -> list[int]:
        from .pairwise import _order

        return _order(self.scores, self.higher_is_better)

    def significance(self) -> np.ndarray | None:
        """``[i, j]``: whether models i and j differ after the correction (None without pair tests)."""
        if self.pairwise is not None:
            return np.asarray(self.pairwise.significance())
        if self.adjusted is None:
            return None
        with np.errstate(invalid="ignore"):
            return np.isfinite(self.adjusted) & (self.adjusted < self.alpha)

    def rank_ranges(self) -> dict[str, tuple[int, int]] | None:
        from .pairwise import rank_ranges

        sig = self.significance()
        return None if sig is None else dict(zip(self.systems, rank_ranges(self.scores, self.higher_is_better, sig)))

    def significance_groups(self) -> list[list[str]] | None:
        """Groups of models, best first (:func:`sigfast.pairwise.significance_groups`)."""
        from .pairwise import significance_groups

        sig = self.significance()
        if sig is None:
            return None
        groups = significance_groups(self.scores, self.higher_is_better, sig, self.groups, self.order())
        return [[self.systems[i] for i in g] for g in groups]

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row per model, best first: rank, score, standard errors, intervals, design
        effect, rank range and significance group."""
        ranges = self.rank_ranges()
        groups = self.significance_groups()
        group_of = {s: k + 1 for k, g in enumerate(groups or []) for s in g}
        deff = self.design_effects
        out = []
        for rank, i in enumerate(self.order(), 1):
            name = self.systems[i]
            row: dict[str, Any] = {"rank": rank, "system": name, "metric": self.metric, "score": float(self.scores[i])}
            if self.standard_errors is not None:
                row["se"] = float(self.standard_errors[i])
                row["se_iid"] = float(self.se_iid[i])  # type: ignore[index]
                if deff is not None:
                    row["design_effect"] = float(deff[i])
                row["normal_low"], row["normal_high"] = (float(v) for v in self.normal_intervals[i])  # type: ignore[index]
            if self.bootstrap_intervals is not None:
                row["bootstrap_low"], row["bootstrap_high"] = (float(v) for v in self.bootstrap_intervals[i])
            if self.within_item_share is not None:
                row["within_item_share"] = float(self.within_item_share[i])
            if ranges is not None:
                row["rank_low"], row["rank_high"] = ranges[name]
                row["group"] = group_of.get(name)
            if self.p_best is not None and self.expected_rank is not None:
                row["p_best"], row["expected_rank"] = float(self.p_best[i]), float(self.expected_rank[i])
            if self.versus is not None:
                row["versus"] = self.versus
                row["delta_vs"] = float(self.versus_delta[i])  # type: ignore[index]
                row["pvalue_vs"] = float(self.versus_pvalues[i])  # type: ignore[index]
                row["adjusted_vs"] = float(self.versus_adjusted[i])  # type: ignore[index]
            row.update(
                n_items=self.n_items,
                n_clusters=self.n_clusters,
                confidence_level=self.confidence_level,
                signature=self.signature,
            )
            if self.simultaneous:
                row["simultaneous"], row["interval_level"] = self.simultaneous, self.interval_level
            out.append(row)
        return out

    def comparisons(self) -> list[dict[str, Any]]:
        """One row per unordered pair (i < j): models, δ, its standard error, p and adjusted p."""
        if self.pairwise is not None:
            return list(self.pairwise.comparisons())
        if self.pvalues is None:
            return []
        s = len(self.systems)
        rows = []
        for i in range(s):
            for j in range(i + 1, s):
                rows.append(
                    {
                        "system_i": self.systems[i],
                        "system_j": self.systems[j],
                        "delta": float(self.delta[i, j]),  # type: ignore[index]
                        "se": float(self.pair_se[i, j]),  # type: ignore[index]
                        "pvalue": float(self.pvalues[i, j]),
                        "adjusted": float(self.adjusted[i, j]),  # type: ignore[index]
                        "significant": bool(self.adjusted[i, j] < self.alpha),  # type: ignore[index]
                    }
                )
        return rows

    def models(self) -> list[dict[str, Any]]:
        """:meth:`rows` without the signature (the ``models`` of :meth:`to_dict`)."""
        return [{k: v for k, v in r.items() if k != "signature"} for r in self.rows()]

    def tables(self) -> list[Any]:
        from .report import Table, _fmt_p

        rows = self.rows()
        sc = self.display_scale

        def num(v: Any, scale: int = sc) -> str:
            return "" if v is None or (isinstance(v, float) and not math.isfinite(v)) else f"{v * scale:.4g}"

        head = ["rank", "system", self.metric]
        if self.standard_errors is not None:
            head += ["SE", "normal interval"]
            if self.n_clusters is not None:
                head += ["design effect"]
        if self.bootstrap_intervals is not None:
            head += ["bootstrap interval"]
        if self.within_item_share is not None:
            head += ["within-item share"]
        if self.significance() is not None:
            head += ["ranks", "group"]
        ranked = self.p_best is not None
        if ranked:
            head += ["P(best)", "E[rank]"]
        if self.versus is not None:
            head += [f"delta vs {self.versus}", "p", f"p ({self.correction})"]
        body = []
        for r in rows:
            cells = [r["rank"], r["system"], num(r["score"])]
            if self.standard_errors is not None:
                cells += [num(r["se"]), f"[{num(r['normal_low'])}, {num(r['normal_high'])}]"]
                if self.n_clusters is not None:
                    cells += [num(r.get("design_effect"), 1)]
            if self.bootstrap_intervals is not None:
                cells += [f"[{num(r['bootstrap_low'])}, {num(r['bootstrap_high'])}]"]
            if self.within_item_share is not None:
                cells += [num(r.get("within_item_share"), 1)]
            if "rank_low" in r:
                cells += [f"{r['rank_low']}-{r['rank_high']}", r["group"]]
            if ranked:
                cells += [f"{r['p_best']:.4f}", f"{r['expected_rank']:.3f}"]
            if self.versus is not None:
                if r["system"] == self.versus:
                    cells += ["(reference)", "", ""]
                else:
                    cells += [f"{sc * r['delta_vs']:+.4g}", _fmt_p(r["pvalue_vs"]), _fmt_p(r["adjusted_vs"])]
            body.append(tuple(cells))
        cl = f"{100 * self.confidence_level:g}%"
        if self.simultaneous:
            cl += f" simultaneous (Šidák: each at {100 * self.interval_level:.4g}%)"  # type: ignore[operator]
        notes = [
            f"{self.n_items} items"
            + (
                f" in {self.n_clusters} clusters ({self.cluster_field}): standard errors cluster-robust (CR1)"
                if self.n_clusters
                else ""
            )
            + f"; {cl} intervals"
            + (
                f"; bootstrap: {self.method}, B = {self.n_resamples}, seed {self.seed}"
                if self.bootstrap_intervals is not None
                else ""
            )
        ]
        if self.pairs != "none":
            test = (
                "paired z-tests on the per-item differences"
                if self.pairs == "normal"
                else "paired bootstrap (sigfast.pairwise)"
            )
            notes.append(f"pairs: {test}, {self.correction} at alpha {self.alpha:g}; groups by the {self.groups} rule")
        if ranked or self.versus is not None:
            notes.append(
                f"from B = {self.n_resamples} shared bootstrap resamples (seed {self.seed}), as sigfast.pairwise "
                "draws them"
            )
        if ranked:
            notes.append(
                "P(best): share of the resamples on which a model is best (ties shared evenly); E[rank]: its mean "
                "rank over them"
            )
        if self.versus is not None:
            notes.append(
                f"vs {self.versus}: two-sided bootstrap p of each model's difference to {self.versus} (standardized by "
                f"its bootstrap standard deviation, centred at the observed one), {self.correction} over the "
                f"{len(self.systems) - 1} comparisons"
            )
            if self.correction == "romano-wolf":
                from .pairwise import ROMANO_WOLF_NOTE

                notes.append(ROMANO_WOLF_NOTE)
        notes.extend(f"warning: {w}" for w in self.warnings)
        return [Table(tuple(head), tuple(body), title="Leaderboard", notes=tuple(notes), signature=self.signature)]


@checked_keywords
@shared_options
def leaderboard(
    data: Any,
    *,
    metric: Any = None,
    systems: Sequence[str | int] | None = None,
    clusters: Any = None,
    confidence_level: float = DEFAULT_CONFIDENCE,
    bootstrap: bool = True,
    n_resamples: int = 10_000,
    seed: int = DEFAULT_SEED,
    method: Literal["percentile", "bca"] = "percentile",
    pairs: Literal["normal", "bootstrap", "none"] = "normal",
    correction: str = "holm",
    alpha: float = 0.05,
    groups: Literal["boundaries", "strict"] = "boundaries",
    simultaneous: Literal["none", "sidak"] = "none",
    versus: str | None = None,
    bootstrap_ranks: bool = False,
    stream: int | None = None,
    n_threads: int | None = None,
    **metric_params: Any,
) -> Leaderboard:
    """Every model's score with its standard error, normal (CLT) and bootstrap intervals, and the
    pairs of models tested, ranked and grouped: error bars for one model (one system) or for a
    leaderboard.

    ``data``: a :class:`~sigfast.Statistics` (e.g. ``sigfast.read`` on a folder of logs), a
    DataFrame with a column per model, or a mapping model → per-item scores. ``clusters``: one
    key per item; default: the statistics' own (``-o cluster=FIELD``); ``clusters=False``:
    none. Standard errors and normal intervals need a mean of per-item scores; for other
    metrics they are left out (``standard_errors`` is None) and ``pairs`` must be
    ``"bootstrap"`` or ``"none"``. Bootstrap intervals (``bootstrap=True``) are
    :func:`sigfast.bootstrap_interval`'s, one model at a time, on the same resamples
    (whole clusters when clustered). ``pairs``: ``"normal"`` (default: paired z-tests on the
    cluster-robust errors of the per-item differences, see the module docstring for why),
    ``"bootstrap"`` (:func:`sigfast.pairwise`) or ``"none"``; ``correction`` and ``alpha``
    adjust the family of all pairs, ``groups`` the grouping rule. ``stream``: the random stream
    version of the bootstrap draws (``None``: the default; the signature names it).
    ``simultaneous="sidak"``: the S models' intervals (normal and bootstrap) hold all at once with
    probability ``confidence_level`` for independent estimates (Šidák): each is computed at
    ``confidence_level ** (1 / S)`` (``interval_level``); the pair tests are unchanged.
    ``correction="romano-wolf"`` (with ``pairs="bootstrap"``, or for ``versus``): Romano & Wolf's
    step-down p-values from the bootstrap (:func:`sigfast.pairwise`).
    ``versus="best"`` (the model with the best observed score) or a model's name (a baseline): every
    other model tested against it, a two-sided bootstrap p-value of each difference on the shared
    resamples of :func:`sigfast.pairwise` (the same seed and stream; the statistic of
    :func:`sigfast.multitest.romano_wolf`), adjusted over the S − 1 comparisons by ``correction``.
    ``bootstrap_ranks=True``: each model's P(best) and expected rank from the same resamples
    (:func:`sigfast.pairwise.bootstrap_ranks`).
    """
    arguments = locals()
    from .executor import ask, check_level, check_threads, many_inputs, resampled_scores, run
    from .metrics import observed, resolve_metric
    from .multitest import ROMANO_WOLF, adjust, romano_wolf
    from .pairwise import _adjust_matrix
    from .pairwise import bootstrap_ranks as _bootstrap_ranks

    cl = check_level(confidence_level)
    if pairs not in ("normal", "bootstrap", "none"):
        raise InputError(f"pairs must be 'normal', 'bootstrap' or 'none', got {pairs!r}")
    if groups not in ("boundaries", "strict"):
        raise InputError(f"groups must be 'boundaries' or 'strict', got {groups!r}")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be in (0, 1), got {alpha}")
    if simultaneous not in ("none", "sidak"):
        raise InputError(f"simultaneous must be 'none' or 'sidak', got {simultaneous!r}")
    if correction == ROMANO_WOLF and pairs == "normal":
        raise InputError(
            "correction='romano-wolf' steps down over bootstrap resamples; the normal pair tests have none: "
            "use pairs='bootstrap' (or pairs='none' with versus=)"
        )
    check_threads(n_threads)
    stats = many_inputs(data, metric)
    if systems is not None:
        stats = stats.select(*systems)
    ref = None
    if versus is not None:
        if stats.n_systems < 2:
            raise InputError("versus= tests the other models against one: give at least two models")
        if versus in stats.systems:
            ref = stats.systems.index(versus)
        elif versus != "best":
            raise InputError(f"versus must be 'best' or one of the models {list(stats.systems)}, got {versus!r}")
    each = cl ** (1.0 / stats.n_systems) if simultaneous == "sidak" else cl  # Šidák's per-interval level
    m = resolve_metric(metric, stats, **metric_params)
    spec = _resolve(stats, clusters)
    scores = np.asarray(observed(m, stats), dtype=np.float64)
    s = stats.n_systems
    try:
        v = item_scores(stats, m)
    except InputError:
        if pairs == "normal":
            raise
        v = None
    codes = None if spec is None else spec.codes
    se = se_iid = normal = None
    z = _z(each)
    k = 0
    if v is not None:
        k = power_of_two_scale(v)  # scores near 1e300: computed on v · 2^-k, exactly, then scaled back
        if k:
            v = np.ldexp(v, -k)
        se_iid = np.array([unscale(cluster_se(v[j])[1], k) for j in range(s)])
        se = np.array([unscale(cluster_se(v[j], codes)[1], k) for j in range(s)]) if codes is not None else se_iid
        normal = np.column_stack([scores - z * se, scores + z * se])
    # the shared options (seed, stream, threads, ...) reach every request by name (executor.ask); the
    # leaderboard decides the data, the resolved metric, its clusters and the level
    own = dict(x=stats, metric=m, metric_params={}, systems=None, clusters=spec if spec is not None else False)
    boot = None
    if bootstrap:
        boot = np.empty((s, 2))
        for j, name in enumerate(stats.systems):
            req = ask("interval", arguments, **own, system=name, confidence_level=each, correction="none")
            boot[j] = tuple(run(req, progress=False).confidence_interval)
    shares = None
    samples = (stats.provenance or {}).get("samples")
    if samples and all(n in samples for n in stats.systems):
        from .samples import variance_components

        shares = np.array([variance_components(samples[n]).within_share for n in stats.systems])
    delta = pair_se = pv = adjusted = pw = None
    pair_warnings: tuple[str, ...] = ()
    if pairs == "normal" and s > 1:
        assert v is not None
        delta = scores[None, :] - scores[:, None]
        pair_se = pair_standard_errors(v, codes)
        # a spread at the rounding error of the scores is none
        pair_se[pair_se <= 64 * np.finfo(np.float64).eps * float(np.max(np.abs(v)))] = 0.0
        with np.errstate(over="ignore"):
            pair_se = np.ldexp(pair_se, k) if k else pair_se
        with np.errstate(divide="ignore", invalid="ignore"):
            # no spread (or one item): the normal test is undefined, p NaN (never 0); equal scores: p = 1
            zz = np.where(pair_se > 0, delta / pair_se, np.where((delta == 0) & (pair_se == 0), 0.0, np.nan))
        pv = np.full_like(zz, np.nan)
        defined = ~np.isnan(zz)
        pv[defined] = np.vectorize(_two_sided, otypes=[np.float64])(zz[defined])
        np.fill_diagonal(pv, np.nan)
        undefined = np.isnan(pv) & ~np.eye(s, dtype=bool)
        # an undefined test stays in the family (as p = 1: never rejected) and is reported as NaN
        adjusted = _adjust_matrix(np.where(undefined, 1.0, pv), correction, alpha)
        adjusted[undefined] = np.nan
        if undefined.any():
            bad = int(undefined.sum()) // 2
            pair_warnings = (
                f"{bad} pair{'s' if bad != 1 else ''} of models whose per-item differences do not vary (or that "
                f"have fewer than two {'clusters' if codes is not None else 'items'}): their normal test is "
                "undefined, p is NaN and they count as not separated; use pairs='bootstrap' or more items",
            )
    elif pairs == "bootstrap" and s > 1:
        pw = run(ask("pairwise", arguments, **own, bootstrap_ranks=False), progress=False)
    p_best = expected_rank = vs_delta = vs_p = vs_adj = None
    if versus is not None or bootstrap_ranks:
        # every model on the shared resamples of sigfast.pairwise (one request, the same draws)
        values = resampled_scores(ask("pairwise", arguments, **own, bootstrap_ranks=False))
        if bootstrap_ranks:
            p_best, expected_rank, _ = _bootstrap_ranks(values, m.higher_is_better)
        if versus is not None:
            from .pairwise import _order

            if ref is None:
                ref = _order(scores, m.higher_is_better)[0]
            others = np.array([j for j in range(s) if j != ref])
            rw = romano_wolf(values, scores, np.column_stack((np.full(others.size, ref), others)))
            vs_delta, vs_p, vs_adj = (np.full(s, np.nan) for _ in range(3))
            vs_delta[others] = scores[others] - scores[ref]
            vs_p[others] = rw.pvalues
            if correction == ROMANO_WOLF:
                vs_adj[others] = rw.adjusted
            elif correction in ("none", None):
                vs_adj[others] = rw.pvalues
            else:
                vs_adj[others] = adjust(rw.pvalues, correction, alpha=alpha).adjusted
    from .clusters import few_clusters_warning
    from .executor import few_items_warning
    from .paired_binary import normal_interval_warnings
    from .signature import build

    resampled = bootstrap or pairs == "bootstrap" or versus is not None or bootstrap_ranks
    sig = build(
        "leaderboard",
        stats=stats,
        metric=m,
        clusters=spec,
        variant=f"se:{'cr1' if spec is not None else 'iid'}" + (f"+bootstrap:{method}" if bootstrap else ""),
        resampling=spec.label if spec is not None and (bootstrap or pairs == "bootstrap") else None,
        cluster=spec.label if spec is not None else None,
        B=n_resamples if resampled else None,
        seed=seed if resampled else None,
        stream=stream if resampled else None,
        conf=cl,
        correction=f"{correction}@{alpha:g}" if pairs != "none" or versus is not None else None,
        pairs=pairs,
        groups="strict" if groups == "strict" and pairs != "none" else None,  # the default is not signed
        simultaneous="sidak" if simultaneous == "sidak" else None,
        versus=None if ref is None else stats.systems[ref],
    )
    return Leaderboard(
        systems=tuple(stats.systems),
        metric=m.name,
        higher_is_better=m.higher_is_better,
        scores=scores,
        standard_errors=se,
        se_iid=se_iid,
        normal_intervals=normal,
        bootstrap_intervals=boot,
        n_items=stats.n_items,
        confidence_level=cl,
        pairs=pairs,
        correction=correction,
        alpha=float(alpha),
        groups=groups,
        n_resamples=n_resamples if resampled else None,
        seed=seed if resampled else None,
        method=method if bootstrap else None,
        n_clusters=None if spec is None else spec.n_clusters,
        cluster_field=None if spec is None else spec.field,
        within_item_share=shares,
        delta=delta,
        pair_se=pair_se,
        pvalues=pv,
        adjusted=adjusted,
        pairwise=pw,
        display_scale=m.display_scale,
        simultaneous="sidak" if simultaneous == "sidak" else None,
        interval_level=each if simultaneous == "sidak" else None,
        versus=None if ref is None else stats.systems[ref],
        versus_delta=vs_delta,
        versus_pvalues=vs_p,
        versus_adjusted=vs_adj,
        p_best=p_best,
        expected_rank=expected_rank,
        signature=sig,
        warnings=few_items_warning(stats.n_items)
        + few_clusters_warning(spec)
        + pair_warnings
        + (() if v is None else normal_interval_warnings(v, names=stats.systems)),
    )
