"""Several samples per item: generations, Inspect epochs, HELM trials.

An LLM harness may sample each item several times. The log readers keep the
per-sample values in ``Statistics.provenance["samples"]`` (``{system: array}``,
items × most samples, NaN-padded) and give each item the mean of its samples
(or the harness's reduction, ``provenance["sample_reducer"]``).

:func:`variance_components` splits the variance of an item's value (the mean of
its K_i samples) into what lies between items and what the sampling within
items adds (Miller 2024, §4, "Adding Error Bars to Evals"): with m_i the mean
and s_i² the variance (ddof = 1) of item i's samples,

    Var(m_i) = σ²_between + mean_i(σ²_within / K_i),

estimated as ``var(m_i, ddof=1)`` and ``mean_i(σ̂² / K_i)`` with σ̂² the mean
of s_i² over the items with K_i ≥ 2 (the one-way ANOVA moments: with K samples
on every item, the share is MS_within / MS_between). The between-item part,
their difference, is kept at 0 or above (by chance it is negative when the
items barely differ), so ``within_share``, within / (between + within), lies
in [0, 1]: the share of the score's variance that more samples per item would
remove (min(1, MS_within / MS_between) with K samples on every item). For a
difference of two systems the within terms of both are added and the
between-item variance is that of the items' differences.

:func:`pass_at_k` is the unbiased pass@k estimator of Chen et al. (2021,
"Evaluating Large Language Models Trained on Code"): an item with n samples
of which c are correct gets 1 − C(n−c, k)/C(n, k) (computed as
1 − ∏_{j=n−c+1}^{n} (1 − k/j)), the probability that k samples drawn without
replacement from its n include a correct one; the benchmark's pass@k is the
mean over items. It is a *sample reducer*: :func:`reduce_samples` (and the
log readers' ``-o reducer=pass@K``) makes it each item's value, so that every
test, interval and clustered scheme then runs on per-item pass@k scores as on
any mean: one path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InputError

__all__ = ["VarianceComponents", "pass_at_k", "reduce", "reduce_samples", "variance_components"]


@dataclass(frozen=True)
class VarianceComponents:
    """Between- and within-item variance of items' sample means (see the module docstring)."""

    n_items: int
    #: items with at least two samples (the within-item variance is estimated on them)
    n_repeated: int
    mean_samples: float
    #: var(m_i, ddof=1): the variance of the items' values
    total: float
    #: mean_i(σ̂²_within / K_i): what sampling within items adds to it (σ̂²_within: the mean
    #: sample variance of the items with two or more samples); NaN when no item has two
    within: float
    #: max(total − within, 0): the variance between items, kept at 0 or above (the moment estimate
    #: total − within is negative by chance when items barely differ; a variance is not)
    between: float

    @property
    def within_share(self) -> float:
        """within / (between + within), in [0, 1]: the share of the score's variance due to sampling
        within items (within / total where total ≥ within; 1 where the items do not differ beyond
        what their samples vary; NaN without variance or without a repeated item)."""
        whole = self.between + self.within
        return self.within / whole if whole > 0 else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_items": self.n_items,
            "n_repeated": self.n_repeated,
            "mean_samples": self.mean_samples,
            "total": self.total,
            "within": self.within,
            "between": self.between,
            "within_share": self.within_share,
        }


def _item(i: int, ids: Any) -> str:
    """How a message names item ``i``: its id where the caller has ids, else its position."""
    return f"item {ids[i]!r}" if ids is not None else f"item {i}"


def _matrix(samples: Any, what: str = "samples", ids: Any = None) -> np.ndarray:
    a = np.asarray(samples, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2 or a.shape[0] == 0:
        raise InputError(f"{what} must be items x samples (NaN where an item has fewer), got shape {a.shape}")
    k = np.sum(~np.isnan(a), axis=1)
    if (k == 0).any():
        raise InputError(f"{what}: {_item(int(np.flatnonzero(k == 0)[0]), ids)} has no sample")
    if np.isinf(a).any():
        raise InputError(f"{what}: a sample value is infinite")
    return a


def _within(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Per item: sample count K_i and mean m_i; and mean_i(σ̂²_w / K_i), with σ̂²_w the mean of s_i²
    (ddof = 1) over the items with K_i ≥ 2 (NaN when no item has two samples)."""
    k = np.sum(~np.isnan(a), axis=1)
    m = np.nansum(a, axis=1) / k
    rep = k > 1
    if not rep.any():
        return k, m, math.nan
    dev = np.where(np.isnan(a[rep]), 0.0, a[rep] - m[rep, None])
    s2 = float(np.mean(np.sum(dev * dev, axis=1) / (k[rep] - 1)))
    return k, m, float(np.mean(s2 / k))


def variance_components(samples: Any, other: Any = None) -> VarianceComponents:
    """The variance components of one system's per-sample values (items × samples, NaN-padded),
    or of the difference ``other − samples`` of two systems on the same items."""
    a = _matrix(samples)
    k, m, within = _within(a)
    n_rep = int(np.sum(k > 1))
    if other is not None:
        b = _matrix(other, "other")
        if b.shape[0] != a.shape[0]:
            raise InputError(f"the two systems' samples cover {a.shape[0]} and {b.shape[0]} items")
        kb, mb, wb = _within(b)
        m = mb - m
        within = (0.0 if math.isnan(within) else within) + (0.0 if math.isnan(wb) else wb)
        n_rep = int(np.sum((k > 1) | (kb > 1)))
        k = (k + kb) / 2
    n = a.shape[0]
    total = float(np.var(m, ddof=1)) if n > 1 else math.nan
    if n_rep == 0:
        within = math.nan
    return VarianceComponents(
        n_items=n,
        n_repeated=n_rep,
        mean_samples=float(np.mean(k)),
        total=total,
        within=within,
        between=total - within if not total - within < 0 else 0.0,  # NaN stays NaN
    )


def pass_at_k(correct: Any, k: int, ids: Any = None) -> np.ndarray:
    """The unbiased pass@k estimate of each item (Chen et al. 2021) from its samples' correctness
    (items × samples of 0/1, NaN-padded): 1 − C(n−c, k)/C(n, k) with n samples, c correct.
    ``ids`` (one per item) name the items in messages (else their positions)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"pass@k needs a whole number k >= 1, got {k!r}")
    a = _matrix(correct, "pass@k samples", ids)
    ok = np.isnan(a) | (a == 0) | (a == 1)
    if not ok.all():
        i, j = (int(v) for v in np.argwhere(~ok)[0])
        raise InputError(
            f"pass@k counts correct samples: {_item(i, ids)}, sample {j + 1} is {float(a[i, j])!r}, not 0 or 1 (pass@k "
            "needs a pass/fail score per sample)"
        )
    n = np.sum(~np.isnan(a), axis=1)
    c = np.nansum(a, axis=1).astype(np.int64)
    short = np.flatnonzero(n < k)
    if short.size:
        i = int(short[0])
        raise InputError(
            f"pass@{k} needs at least {k} samples per item; {_item(i, ids)} has {int(n[i])} ({short.size} items have "
            f"fewer than {k})"
        )
    out = np.empty(a.shape[0])
    for i, (ni, ci) in enumerate(zip(n.tolist(), c.tolist())):
        if ni - ci < k:
            out[i] = 1.0
            continue
        prod = 1.0
        for j in range(ni - ci + 1, ni + 1):
            prod *= 1.0 - k / j
        out[i] = 1.0 - prod
    return out


_PASS = re.compile(r"pass@(\d+)$")


def check_reducer(reducer: str) -> int | None:
    """None for ``"mean"``, K for ``"pass@K"``; anything else is an InputError."""
    if reducer == "mean":
        return None
    m = _PASS.match(str(reducer))
    if m is None or int(m.group(1)) < 1:
        raise InputError(f"sample reducer must be 'mean' or 'pass@K' (K a whole number >= 1), got {reducer!r}")
    return int(m.group(1))


def reduce(samples: Any, reducer: str, ids: Any = None) -> np.ndarray:
    """Each item's value from its samples: ``"mean"`` or ``"pass@K"`` (``ids`` name the items in messages)."""
    k = check_reducer(reducer)
    if k is None:
        a = _matrix(samples, ids=ids)
        return np.nansum(a, axis=1) / np.sum(~np.isnan(a), axis=1)
    return pass_at_k(samples, k, ids)


def reduce_samples(stats: Any, reducer: str) -> Any:
    """Statistics whose per-item values are each item's samples reduced by ``reducer``
    (``"mean"`` or ``"pass@K"``), from ``stats.provenance["samples"]``; everything else (ids,
    clusters, names) is kept, and ``provenance["sample_reducer"]`` says how."""
    prov: Mapping[str, Any] = stats.provenance or {}
    samples = prov.get("samples")
    if not samples:
        raise InputError(
            "these statistics hold one value per item, no per-sample values (provenance['samples']): read logs "
            "with several samples per item (generations, Inspect epochs)"
        )
    missing = [s for s in stats.systems if s not in samples]
    if missing:
        raise InputError(f"no per-sample values for {missing}")
    ids = getattr(stats, "item_ids", None)
    values = np.stack([reduce(samples[s], reducer, ids) for s in stats.systems])[:, :, None]
    new_prov = dict(prov)
    new_prov["sample_reducer"] = reducer
    return stats.replace(
        values=values,
        stat_names=("score",),
        metric="mean",
        counts=False,
        metric_params={"higher_is_better": True},
        provenance=new_prov,
    )
