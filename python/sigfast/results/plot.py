"""matplotlib, imported only when a plot is asked for, and the helpers the plots share.

Nothing here imports matplotlib at module level: ``import sigfast`` must not.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..exceptions import InputError

__all__ = ["confidence_floor", "gain_ceiling", "log_ticks", "pyplot", "scatter_clipped"]


def pyplot() -> Any:
    """matplotlib.pyplot, on the Agg backend when there is no display."""
    try:
        import matplotlib

        if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'sigfast[plot]'") from None
    return plt


def confidence_floor(confidence: Any, gains: Any = None, *, quantile: float = 2.0, step: float = 0.05) -> float:
    """A lower y-limit for confidence (1 − p) that a few outliers cannot drag to 0.

    The ``quantile``-th percentile of the confidences, rounded down to a
    multiple of ``step``, and never above 0.5 (so the region of p near
    0.05 always shows). Tests with gain 0 (when ``gains`` is given) are left
    out: under the BK rule their p is 1 (confidence 0) whatever the data.
    """
    c = np.asarray(confidence, dtype=float).ravel()
    if gains is not None:
        c = c[np.asarray(gains, dtype=float).ravel() != 0]
    c = c[np.isfinite(c)]
    if c.size == 0:
        return 0.0
    lo = float(np.percentile(c, quantile))
    return float(min(0.5, max(0.0, np.floor(lo / step) * step)))


def gain_ceiling(
    gains: Any, confidence: Any, *, saturated: float = 0.999, margin: float = 1.5, at_least: float = 0.0
) -> float | None:
    """An upper x-limit for gains: ``margin`` × the largest gain whose confidence is below ``saturated``
    (the 99.5th percentile of those gains when there are 200 or more).

    Larger gains all sit at confidence ≈ 1 and only squeeze the region where
    significance is decided (Berg-Kirkpatrick et al. 2012 cut their axes the
    same way). None when the cut would not at least halve the axis.
    """
    g = np.asarray(gains, dtype=float).ravel()
    c = np.asarray(confidence, dtype=float).ravel()
    ok = np.isfinite(g) & np.isfinite(c)
    g, c = g[ok], c[ok]
    if g.size == 0:
        return None
    open_ = g[c < saturated]
    if open_.size >= 200:  # many tests: a stray one should not set the axis
        top = float(np.percentile(open_, 99.5))
    else:
        top = float(open_.max()) if open_.size else float(np.percentile(g, 10))
    cut = max(margin * top, at_least)
    if cut <= 0 or cut >= 0.5 * g.max():  # cut only where it at least doubles the resolution
        return None
    return cut


def scatter_clipped(
    ax: Any, x: Any, y: Any, *, xmax: float | None = None, ymin: float | None = None, **kw: Any
) -> tuple[int, int]:
    """Scatter points; those beyond ``xmax`` or below ``ymin`` are drawn on that edge as open triangles.

    Returns (points beyond xmax, points below ymin), for the axis labels.
    """
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    right = np.zeros(x.size, bool) if xmax is None else x > xmax
    low = np.zeros(y.size, bool) if ymin is None else y < ymin
    inside = ~(right | low)
    ax.scatter(x[inside], y[inside], **kw)
    size = kw.get("s", 12)
    style = dict(s=size * 1.6, facecolors="none", edgecolors=kw.get("color"), alpha=kw.get("alpha"), clip_on=False)
    if right.any():
        assert xmax is not None
        ys = y[right] if ymin is None else np.maximum(y[right], ymin)
        ax.scatter(np.full(int(right.sum()), xmax), ys, marker=">", **style)
    low_only = low & ~right
    if low_only.any():
        assert ymin is not None
        ax.scatter(x[low_only], np.full(int(low_only.sum()), ymin), marker="v", **style)
    return int(right.sum()), int(low.sum())


def log_ticks(lo: float, hi: float) -> list[float]:
    """Readable tick values for a log axis from ``lo`` to ``hi`` (1-2-5 steps, finer for narrow ranges)."""
    if not (lo > 0 and hi > 0):
        return []
    lo, hi = min(lo, hi), max(lo, hi)
    steps = ((1.0,), (1.0, 2.0, 5.0), (1.0, 1.5, 2.0, 3.0, 5.0, 7.0), tuple(np.arange(1.0, 10.0, 0.5)))
    for k, mantissas in enumerate(steps):
        ticks = [
            round(m * 10.0**e, 12)
            for e in range(int(np.floor(np.log10(lo))) - 1, int(np.ceil(np.log10(hi))) + 1)
            for m in mantissas
            if lo <= m * 10.0**e <= hi
        ]
        if len(ticks) >= 3 or (k == len(steps) - 1 and len(ticks) >= 2):
            return ticks
    return [float(f"{v:.2g}") for v in np.geomspace(lo, hi, 3)]
