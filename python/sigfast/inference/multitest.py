"""Corrections for multiple comparisons, and replicability analysis over datasets.

:func:`adjust` takes any list of p-values (from sigfast's resampling tests,
its classical tests, or elsewhere) and returns adjusted p-values and
rejections for Bonferroni, Holm, Hochberg, Benjamini-Hochberg and
Benjamini-Yekutieli; the adjusted p-values equal
``statsmodels.stats.multitest.multipletests(p, alpha, method)`` with
methods ``bonferroni``, ``holm``, ``simes-hochberg``, ``fdr_bh`` and
``fdr_by``.

:func:`romano_wolf` is the correction that needs the resamples themselves:
Romano & Wolf's (2005) step-down max-statistic p-values from the bootstrap
values of every system on the same resamples (what :func:`sigfast.pairwise`
and :func:`sigfast.leaderboard` pass it for ``correction="romano-wolf"``).

:func:`replicability` implements Dror, Baumer, Bogomolov & Reichart (2017),
"Replicability Analysis for Natural Language Processing: Testing
Significance with Multiple Datasets": from one p-value per dataset (or
split), it estimates how many datasets show an effect (partial-conjunction
p-values combined by Bonferroni or Fisher) and identifies which (Holm).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._api import checked_keywords
from ..engine.corrections import METHODS, RomanoWolf, _alpha, _pvalues, adjust, max_t_stepdown, romano_wolf
from ..engine.corrections import ROMANO_WOLF as ROMANO_WOLF
from ..exceptions import InputError
from ..results.multitest import AdjustedPValues, ReplicabilityResult
from .classical import _chi2_sf_even

__all__ = [
    "METHODS",
    "AdjustedPValues",
    "ReplicabilityResult",
    "RomanoWolf",
    "adjust",
    "max_t_stepdown",
    "replicability",
    "romano_wolf",
]


def _partial_conjunction(ps_desc: np.ndarray, u: int, method: str) -> float:
    """p-value of 'fewer than u of N nulls are false', from the N-u+1 largest p-values."""
    n = ps_desc.size
    top = ps_desc[: n - u + 1]
    if method == "bonferroni":
        return float(min(1.0, (n - u + 1) * float(top.min())))
    if (top == 0).any():
        return 0.0
    stat = -2.0 * float(np.sum(np.log(top)))
    return _chi2_sf_even(stat, 2 * (n - u + 1))


@checked_keywords
def replicability(
    pvalues: Sequence[float] | np.ndarray,
    *,
    alpha: float = 0.05,
    method: str = "bonferroni",
    names: Sequence[str] | None = None,
) -> ReplicabilityResult:
    """Replicability analysis over several test sets or splits (Dror et al. 2017).

    ``pvalues`` holds one p-value per dataset, each from a test of the same
    two systems. ``method="bonferroni"`` combines the N − u + 1 largest
    p-values as (N − u + 1)·min (valid under any dependence between
    datasets); ``method="fisher"`` by Fisher's χ² with 2(N − u + 1) degrees
    of freedom (for independent datasets). The partial-conjunction p-values
    are made monotone in u by a running maximum; k̂ counts those ≤ alpha.
    The identified datasets are Holm's rejections at ``alpha`` (which are
    the k̂ smallest p-values of the Bonferroni estimate).
    """
    p = _pvalues(pvalues)
    a = _alpha(alpha)
    m = {"bonferroni": "bonferroni", "b": "bonferroni", "fisher": "fisher", "f": "fisher"}.get(str(method).lower())
    if m is None:
        raise InputError(f"replicability method must be 'bonferroni' or 'fisher', got {method!r}")
    if names is not None:
        names = tuple(str(s) for s in names)
        if len(names) != p.size:
            raise InputError(f"{len(names)} names for {p.size} p-values")
    if p.size == 0:
        raise InputError("replicability analysis needs at least one p-value")
    ps_desc = np.sort(p)[::-1]
    pc: list[float] = []
    for u in range(1, p.size + 1):
        v = _partial_conjunction(ps_desc, u, m)
        pc.append(max(v, pc[-1]) if pc else v)
    k = sum(1 for v in pc if v <= a)
    holm = adjust(p, "holm", alpha=a)
    ident = tuple(int(i) for i in np.flatnonzero(holm.reject)[np.argsort(p[holm.reject], kind="mergesort")])
    return ReplicabilityResult(m, a, tuple(float(v) for v in p), int(k), tuple(pc), ident, names)
