"""The BCa interval's pieces (Efron 1987): leave-one-out (or leave-one-cluster-out) jackknife values,
the acceleration and the bias-corrected levels; the engine reads them off a bootstrap distribution's counts."""

from __future__ import annotations

import math

import numpy as np

from ..exceptions import InputError
from ..inference.classical import _ndtr, _ndtri
from ..metrics import Metric


def _jackknife(values: np.ndarray, m: Metric, clusters: np.ndarray | None = None) -> np.ndarray:
    """Leave-one-item-out metric values from the sufficient statistics: (items,); an item
    statistic is recomputed on the n - 1 remaining items. With ``clusters`` (cluster codes),
    leave-one-cluster-out values: (clusters,)."""
    if clusters is not None:
        return _jackknife_clusters(values, m, clusters)
    n = values.shape[0]
    if m.on_items:
        from ..metrics import item_value

        keep = np.ones(n, dtype=bool)
        out = np.empty(n)
        for i in range(n):
            keep[i] = False
            out[i] = item_value(m, values[keep])
            keep[i] = True
        return out
    total = np.cumsum(values, axis=0)[-1]
    loo = total[None, :] - values
    return np.asarray(m.evaluate(loo, n - 1), dtype=np.float64)


def _jackknife_clusters(values: np.ndarray, m: Metric, codes: np.ndarray) -> np.ndarray:
    g = int(codes.max()) + 1
    n = values.shape[0]
    sizes = np.bincount(codes, minlength=g)
    if m.on_items:
        from ..metrics import item_value

        return np.array([item_value(m, values[codes != c]) for c in range(g)], dtype=np.float64)
    total = np.cumsum(values, axis=0)[-1]
    csum = np.zeros((g, values.shape[1]))
    np.add.at(csum, codes, values)
    loo = total[None, :] - csum
    out = np.empty(g)
    for size in np.unique(sizes):  # the metric takes one item count per call
        sel = sizes == size
        out[sel] = m.evaluate(loo[sel], int(n - size))
    return out


def _acceleration(dev: np.ndarray) -> float:
    """a = Σd³ / (6 (Σd²)^{3/2}); scale-free, so deviations too large to cube are rescaled
    by a power of two (only then: the plain formula's bytes are kept wherever it is finite)."""
    with np.errstate(over="ignore", invalid="ignore"):
        den = float(np.sum(dev**2))
        try:
            a = float(np.sum(dev**3)) / (6.0 * den**1.5) if den > 0 else 0.0
        except OverflowError:
            a = math.inf
    if math.isfinite(a):
        return a
    top = float(np.max(np.abs(dev)))
    if not math.isfinite(top) or top == 0.0:
        raise InputError("the jackknife deviations are not finite: rescale the statistics")
    d = dev / 2.0 ** math.floor(math.log2(top))
    den = float(np.sum(d**2))
    return float(np.sum(d**3)) / (6.0 * den**1.5) if den > 0 else 0.0


def _bca_levels(less: int, less_eq: int, B: int, jack: np.ndarray, alpha: float) -> tuple[float, float, float, float]:
    """BCa levels from the counts #{θ* < θ̂} and #{θ* ≤ θ̂} of B resamples."""
    pct = (less + less_eq) / (2.0 * B)
    # a bootstrap distribution entirely on one side of the estimate gives z0 = ±inf; keep it finite
    pct = min(max(pct, 1.0 / (2.0 * B)), 1.0 - 1.0 / (2.0 * B))
    z0 = _ndtri(pct)
    dev = jack.mean() - jack
    a = _acceleration(dev)
    za = _ndtri(alpha)
    n1 = z0 + za
    n2 = z0 - za
    a1 = _ndtr(z0 + n1 / (1.0 - a * n1))
    a2 = _ndtr(z0 + n2 / (1.0 - a * n2))
    return a1, a2, z0, a
