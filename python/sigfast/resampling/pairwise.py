"""Every pair of several systems on shared bootstrap resamples (Berg-Kirkpatrick et al. 2012, footnote 5),
or each pair on its own resamples (``mode="independent"``).

One module holds everything about the test: its settings, its validation, what it asks the engine (pair
counts of δ* beyond each observed δ, in shards of whole blocks, from every system's metric on one
resample) and its signature fields; :data:`TEST` is its entry in :data:`sigfast.resampling.TESTS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _native
from ..engine.corrections import ROMANO_WOLF, _adjust_matrix, _romano_wolf_matrix
from ..engine.executor import (
    _CENTRED,
    _NATIVE_VARIANT,
    PAIR_BLOCK,
    Request,
    _blocked_means,
    _n_clusters,
    _observed,
    _omitted_warning,
    _python_pair_counts,
    _resampling_label,
    _run_shards,
    _Shards,
    _summarize_pair,
    _unit_warnings,
    check_draws,
    check_int,
    check_pvalue,
    check_resampling,
    many_inputs,
    resampled_scores,
    resolve_clusters,
    resolve_variant,
)
from ..engine.options import DEFAULT_BACKEND, DEFAULT_RESAMPLES, DEFAULT_SEED, check_alpha, check_resamples, check_seed
from ..engine.progress import resolve as _resolve_progress
from ..exceptions import InputError
from ..metrics import resolve_metric
from ..results.pairwise import PairwiseResult, bootstrap_ranks
from ._declare import Test, signed

__all__ = ["TEST", "Settings"]


@dataclass(frozen=True)
class Settings:
    """Pairwise's own settings: the bootstrap variant and sidedness, the correction at ``alpha`` (one of
    :func:`sigfast.multitest.adjust`'s, or ``romano-wolf`` from the shared resamples), the mode (``shared``
    resamples, or ``independent`` ones per pair), the shard size, the systems' labels and combinations (pair
    classes), the grouping rule, and whether each system's P(best) and expected rank are estimated from the
    shared resamples (``bootstrap_ranks``)."""

    variant: str
    alternative: str
    engine_alternative: str
    correction: str
    alpha: float
    mode: str
    shard_size: int
    labels: Mapping[str, str] = field(default_factory=dict)
    combinations: frozenset[str] = frozenset()
    groups: str = "boundaries"
    bootstrap_ranks: bool = False


def validate(
    x: Any,
    y: Any = None,
    *,
    systems: Any = None,
    metric: Any = None,
    metric_params: Mapping[str, Any] | None = None,
    variant: str | None = None,
    alternative: str | None = None,
    n_resamples: Any = DEFAULT_RESAMPLES,
    seed: Any = DEFAULT_SEED,
    pvalue: str = "plus_one",
    resampling: str = "auto",
    draws: str = "sigfast",
    clusters: Any = None,
    correction: str = "holm",
    alpha: float = 0.05,
    mode: str = "shared",
    shard_size: Any = PAIR_BLOCK,
    labels: Mapping[str, str] | None = None,
    combinations: Sequence[str] = (),
    groups: str = "boundaries",
    bootstrap_ranks: bool = False,
    backend: Any = DEFAULT_BACKEND,
    return_distribution: bool = False,
) -> dict[str, Any]:
    """All pairs of ``x``'s systems (or of ``systems``): the variant, sidedness, B, seed, scheme, draws, the
    correction at ``alpha``, the mode (a process pool or Ray runs ``shared`` only), the shard size (whole
    blocks), labels and combinations naming known systems, and the grouping rule. Romano–Wolf,
    ``bootstrap_ranks`` and ``return_distribution`` read every system's values on the same resamples:
    ``mode="shared"`` only. The two-level and crossed schemes compare two systems (all pairs run on items or
    clusters)."""
    stats = many_inputs(x, metric)
    if systems is not None:
        stats = stats.select(*systems)
    if stats.n_systems < 2:
        raise InputError("pairwise() needs at least two systems")
    m = resolve_metric(metric, stats, **dict(metric_params or {}))
    B = check_resamples(n_resamples)
    sd = check_seed(seed)
    v, alt, native_alt = resolve_variant(variant or "bk", alternative)
    if groups not in ("boundaries", "strict"):
        raise InputError(f"groups must be 'boundaries' or 'strict', got {groups!r}")
    if mode not in ("shared", "independent"):
        raise InputError(f"mode must be 'shared' or 'independent', got {mode!r}")
    if mode == "independent" and not (isinstance(backend, str) and backend == "local"):
        raise InputError(
            "mode='independent' runs its pairs in this process (each pair streams its own resamples); "
            "a process pool or Ray runs mode='shared' only: use backend='local' or mode='shared'"
        )
    res = check_resampling(m, resampling)
    if res in ("two-level", "crossed"):
        raise InputError(
            f"resampling={res!r} compares two systems or gives an interval; all pairs run on items or clusters"
        )
    cspec = resolve_clusters(stats, clusters, resampling)
    draws = check_draws(draws, m, res, mode)
    shard_size = check_int("shard_size", shard_size, PAIR_BLOCK)
    if shard_size % PAIR_BLOCK:
        raise InputError(f"shard_size must be a multiple of {PAIR_BLOCK}, got {shard_size}")
    alpha = check_alpha(alpha)
    pv = check_pvalue(pvalue)
    if mode != "shared":
        asked = [
            what
            for what, on in (
                ("correction='romano-wolf'", correction == ROMANO_WOLF),
                ("bootstrap_ranks=True", bootstrap_ranks),
                ("return_distribution=True", return_distribution),
            )
            if on
        ]
        if asked:
            raise InputError(
                f"{' and '.join(asked)} reads every system's values on the same resamples: "
                "use mode='shared' (mode='independent' gives each pair its own resamples)"
            )
    label_map = dict(labels or {})
    combos = frozenset(str(c) for c in combinations)
    unknown = (set(label_map) | combos) - set(stats.systems)
    if unknown:
        raise InputError(f"labels/combinations name unknown systems: {sorted(unknown)}")
    return dict(
        settings=Settings(
            v,
            alt,
            native_alt,
            correction,
            float(alpha),
            mode,
            int(shard_size),
            label_map,
            combos,
            groups,
            bool(bootstrap_ranks),
        ),
        stats=stats,
        metric=m,
        n_resamples=B,
        seed=sd,
        pvalue=pv,
        resampling=res,
        clusters=cspec,
        draws=draws,
    )


def signature(req: Request) -> dict[str, Any]:
    """The signature fields of pairwise's settings (the default grouping is left unsigned)."""
    return dict(
        variant=req.variant,
        alt=req.alternative,
        B=req.n_resamples,
        seed=req.seed,
        correction=f"{req.correction}@{req.alpha:g}",
        p=req.pvalue,
        mode=req.mode,
        groups="strict" if req.groups == "strict" else None,
    )


def run(req: Request, progress: Any) -> PairwiseResult:

    stats, m, B = req.stats, req.metric, req.n_resamples
    s, k, n = stats.n_systems, stats.n_stats, stats.n_items
    obs = _observed(stats, m, pair=False)
    orient = 1.0 if m.higher_is_better else -1.0
    nv = _NATIVE_VARIANT[req.variant]
    native_alt = req.engine_alternative
    cb = _resolve_progress(progress, B, float(B) * n * s, "pairwise")
    n_valid = np.full((s, s), B, dtype=np.int64)

    if req.mode == "independent":
        counts = np.zeros((s, s), dtype=np.uint64)
        pair = 0
        for i in range(s):
            for j in range(i + 1, s):
                pair += 1
                table2 = np.ascontiguousarray(np.concatenate([stats.values[i], stats.values[j]], axis=1))
                d_obs = float(obs[j] - obs[i])
                alt_ji = {"greater": "less", "less": "greater"}.get(native_alt, native_alt)

                # both directions count on one stream of δ* (−δ* for (j, i)), in bounded memory
                def setup(summary: Any, total: int, d_obs: float = d_obs, alt_ji: str = alt_ji) -> None:
                    summary.add_bootstrap_rule(nv, native_alt, orient, d_obs)
                    summary.add_bootstrap_rule(nv, alt_ji, orient, -d_obs, True)

                ps = _summarize_pair(table2, req, B, setup, pair)
                counts[i, j], counts[j, i] = (int(c) for c in ps.summary.counts())
                n_valid[i, j] = n_valid[j, i] = ps.n_valid
                if cb is not None:
                    cb(pair, s * (s - 1) // 2)
        resampling_used = _resampling_label(None, req) if req.clusters is not None else req.resampling
    else:
        table = np.ascontiguousarray(stats.values.transpose(1, 0, 2).reshape(n, s * k))
        obs_list = [float(x) for x in obs]
        if m.native is not None and not m.on_items and req.draws == "sigfast":
            shards: Sequence[tuple[int, int]] = _Shards(B, req.shard_size)
            if req.backend == "local":
                shards = [(0, B)]
            args = (m.handle, req.seed, req.resampling, obs_list, nv, native_alt, orient, None)
            args = args + (req.n_threads, req.stream, None if req.clusters is None else req.clusters.codes)
            counts, sum_of_blocks, distinct = _run_shards(req.backend, table, shards, args, cb, s)
            if req.variant in _CENTRED:
                means = (sum_of_blocks / B).ravel().tolist()
                args = args[:7] + (means, *args[8:])
                counts, _, _ = _run_shards(req.backend, table, shards, args, cb, s)
        else:
            if req.backend != "local":
                raise InputError(
                    f"{m.name} runs locally only (a Python metric, an item statistic or draws={req.draws!r}); "
                    "use backend='local'"
                )
            counts, block_sums, distinct, valid = _python_pair_counts(table, req, s, B, obs_list, None, cb)
            if req.variant in _CENTRED:
                means = _blocked_means(block_sums, valid).ravel().tolist()
                counts, _, _, valid = _python_pair_counts(table, req, s, B, obs_list, means, cb)
            n_valid[:] = valid
        resampling_used = _resampling_label(distinct, req)

    cnt = counts.astype(np.float64)
    if (n_valid == B).all():
        pv = (cnt + 1) / (B + 1) if req.plus_one else cnt / B
    else:
        nvf = n_valid.astype(np.float64)
        pv = (cnt + 1) / (nvf + 1) if req.plus_one else cnt / nvf
    np.fill_diagonal(pv, np.nan)
    delta = obs[None, :] - obs[:, None]
    values = p_best = expected_rank = None
    if req.correction == ROMANO_WOLF or req.bootstrap_ranks or req.return_distribution:
        values = resampled_scores(req)  # the draws the counts above were read from
    if req.correction == ROMANO_WOLF:
        adjusted = _romano_wolf_matrix(values, obs, req.alternative, req.plus_one)
    else:
        adjusted = _adjust_matrix(pv, req.correction, req.alpha)
    if req.bootstrap_ranks:
        p_best, expected_rank, _ = bootstrap_ranks(values, m.higher_is_better)
    omitted = int((B - n_valid).max())
    return PairwiseResult(
        signature=signed(req, "pairwise_bootstrap", signature(req), resampling=resampling_used),
        groups=req.groups,
        display_scale=m.display_scale,
        systems=stats.systems,
        metric=m.name,
        higher_is_better=m.higher_is_better,
        scores=np.asarray(obs),
        delta=delta,
        pvalues=pv,
        counts=counts,
        adjusted=adjusted,
        correction=req.correction,
        alpha=req.alpha,
        variant=req.variant,
        alternative=req.alternative,
        n_resamples=B,
        seed=int(req.seed or 0),
        pvalue_method="(c+1)/(B+1)" if req.plus_one else "c/B",
        mode=req.mode,
        resampling=resampling_used,
        n_items=n,
        version=_native.__version__,
        stream_version=req.stream,
        labels=dict(req.labels),
        combinations=req.combinations,
        warnings=_unit_warnings(req) + (_omitted_warning(B - omitted, B) if omitted else ()),
        n_valid=n_valid if omitted else None,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
        p_best=p_best,
        expected_rank=expected_rank,
        distribution=values if req.return_distribution else None,
    )


TEST = Test("pairwise", validate, run, signature, doc="every pair of several systems (sigfast.pairwise)")
