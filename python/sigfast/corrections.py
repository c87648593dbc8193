"""Corrections for multiple comparisons: :func:`adjust` (Bonferroni, Holm, Hochberg, Benjamini-Hochberg,
Benjamini-Yekutieli) and the adjustment of a matrix of pairwise p-values, both used by the engine and by the
front-ends (:mod:`sigfast.multitest` documents them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._api import checked_keywords
from ._options import check_alpha
from .exceptions import InputError
from .results_multitest import AdjustedPValues

__all__ = ["METHODS", "adjust"]
METHODS = {
    "bonferroni": "bonferroni",
    "bonf": "bonferroni",
    "b": "bonferroni",
    "holm": "holm",
    "h": "holm",
    "hochberg": "hochberg",
    "simes-hochberg": "hochberg",
    "sh": "hochberg",
    "bh": "fdr_bh",
    "fdr_bh": "fdr_bh",
    "benjamini-hochberg": "fdr_bh",
    "by": "fdr_by",
    "fdr_by": "fdr_by",
    "benjamini-yekutieli": "fdr_by",
}


def _pvalues(pvalues: Any) -> np.ndarray:
    try:
        p = np.asarray(pvalues, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("p-values must be numbers") from None
    if p.ndim == 0:
        p = p.reshape(1)
    if p.ndim != 1:
        raise InputError(f"p-values must be a flat list, got shape {p.shape}")
    nan = np.isnan(p)
    if nan.any():
        i = int(np.flatnonzero(nan)[0])
        raise InputError(
            f"p-value {i} is NaN; a correction cannot use an undefined p-value. Fix or drop that comparison "
            "(for a test with no evidence either way, the p-value is 1)"
        )
    bad = (p < 0) | (p > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"p-value {i} is {p[i]!r}, outside [0, 1]")
    return p


def _alpha(alpha: float) -> float:
    return check_alpha(alpha)


@checked_keywords
def adjust(pvalues: Sequence[float] | np.ndarray, method: str = "holm", *, alpha: float = 0.05) -> AdjustedPValues:
    """Adjust p-values for multiple comparisons.

    method
        ``"bonferroni"``, ``"holm"`` (step-down, family-wise error),
        ``"hochberg"`` (step-up, family-wise error under independence or
        positive dependence), ``"bh"`` / ``"fdr_bh"`` (Benjamini-Hochberg
        false discovery rate), ``"by"`` / ``"fdr_by"`` (Benjamini-Yekutieli,
        any dependence).

    Returns the adjusted p-values (capped at 1, equal to statsmodels'
    ``multipletests(pvalues, alpha, method)[1]``) and ``reject`` (the
    step-wise rejections at ``alpha``, as statsmodels' ``[0]``). NaN or
    values outside [0, 1] raise :class:`~sigfast.InputError`.
    """
    p = _pvalues(pvalues)
    a = _alpha(alpha)
    m = METHODS.get(str(method).lower())
    if m is None:
        raise InputError(f"unknown correction {method!r}; choose one of bonferroni, holm, hochberg, bh, by")
    n = p.size
    if n == 0:
        e = np.empty(0)
        return AdjustedPValues(m, a, e, e.copy(), np.empty(0, dtype=bool))
    order = np.argsort(p, kind="mergesort")
    ps = p[order]
    rank = np.arange(1, n + 1, dtype=np.float64)
    if m == "bonferroni":
        adj = np.minimum(p * n, 1.0)
        rej = p <= a / n
    else:
        if m == "holm":
            raw = ps * (n - rank + 1)
            adj_s = np.maximum.accumulate(raw)
            ok = ps <= a / (n - rank + 1)
            rej_s = np.cumprod(ok).astype(bool)  # step down: stop at the first failure
        else:
            if m == "hochberg":
                raw = ps * (n - rank + 1)
                ok = ps <= a / (n - rank + 1)
            else:
                factor = rank / n
                if m == "fdr_by":
                    factor = factor / np.sum(1.0 / rank)
                raw = ps / factor
                ok = ps <= factor * a
            adj_s = np.minimum.accumulate(raw[::-1])[::-1]
            rej_s = np.zeros(n, dtype=bool)  # step up: everything up to the last success
            if ok.any():
                rej_s[: int(np.flatnonzero(ok)[-1]) + 1] = True
        adj = np.empty(n)
        adj[order] = np.minimum(adj_s, 1.0)
        rej = np.empty(n, dtype=bool)
        rej[order] = rej_s
    return AdjustedPValues(m, a, p.copy(), adj, rej)


def _adjust_matrix(pv: np.ndarray, correction: str, alpha: float) -> np.ndarray:
    s = pv.shape[0]
    iu = np.triu_indices(s, 1)
    if correction in ("none", None):
        return pv.copy()
    upper = np.asarray(adjust(pv[iu], correction, alpha=alpha).adjusted)
    out = np.full_like(pv, np.nan)
    out[iu] = upper
    lower_src = adjust(pv.T[iu], correction, alpha=alpha).adjusted  # (j, i) entries of the same family
    out[(iu[1], iu[0])] = np.asarray(lower_src)
    return out
