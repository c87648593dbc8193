"""Many systems at once: every pair on shared bootstrap resamples.

Each system's metric is computed once per shared resample and every pair's
δ* is read off the same matrix (Berg-Kirkpatrick et al. 2012, footnote 5).
Work is split into shards of whole blocks of resamples; a shard returns
integer exceedance counts and per-block sums, merged in shard order, so a
local run, a process pool and a Ray cluster give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from .. import _native
from .._api import checked_keywords
from ..engine.corrections import _adjust_matrix as _adjust_matrix
from ..engine.corrections import _romano_wolf_matrix as _romano_wolf_matrix
from ..engine.progress import ProgressArg
from ..engine.stats import Statistics
from ..exceptions import InputError
from ..results.pairwise import _PAIR_CLASSES as _PAIR_CLASSES
from ..results.pairwise import PAIR_CLASS_NAMES as PAIR_CLASS_NAMES
from ..results.pairwise import ROMANO_WOLF_NOTE as ROMANO_WOLF_NOTE
from ..results.pairwise import GainThreshold, PairwiseResult, UnpairedPairwiseResult, gain_threshold
from ..results.pairwise import _order as _order
from ..results.pairwise import bootstrap_ranks as bootstrap_ranks
from ..results.pairwise import pair_class_name as pair_class_name
from ..results.pairwise import rank_ranges as rank_ranges
from ..results.pairwise import significance_groups as significance_groups
from .significance import DEFAULT_RESAMPLES, DEFAULT_SEED

__all__ = ["GainThreshold", "PairwiseResult", "gain_threshold", "pairwise"]

PAIR_BLOCK = int(_native.PAIR_BLOCK)


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
    from ..resampling import ask, run

    req = ask("pairwise", arguments, x=data)
    result: PairwiseResult = run(req, progress)
    return result


# --------------------------------------------------------------------------- unpaired scores


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
    from ..results.signature import build

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
