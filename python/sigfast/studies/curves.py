"""Significance against test-set size (Berg-Kirkpatrick et al. 2012, §3.3, Figures 9 and 10).

For test sets of growing size (initial segments of the test set, or random
subsets drawn without replacement), every pair of systems is tested with the
paired bootstrap on shared resamples; at each size the gain threshold is the
``percentile``-th percentile of the gains of comparisons whose p-value lies
in ``band`` (§3.1.1), so one sees the gain needed for significance shrink as
the test set grows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._backends import run_tasks
from .._plot import pyplot
from ..exceptions import InputError
from ..metrics import resolve_metric
from ..stats import Statistics
from ._common import check_int, pairwise_task, plain, progress_cb, rng, sub_seed

__all__ = ["TestSizeCurve", "default_sizes", "test_size_curve"]


def default_sizes(n: int, start: int = 100) -> list[int]:
    """start, 2·start, 4·start, ... below n, then n itself."""
    out = []
    s = start
    while s < n:
        out.append(s)
        s *= 2
    out.append(n)
    return out


@dataclass(frozen=True)
class TestSizeCurve:
    """``pvalues[z][r, q]`` and ``gains[z][r, q]``: size index z, draw r, pair q (i < j)."""

    __test__ = False  # not a pytest class

    systems: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    metric: str
    sizes: tuple[int, ...]
    mode: str
    n_draws: int
    n_resamples: int
    seed: int
    variant: str
    alpha: float
    band: tuple[float, float]
    percentile: float
    pvalues: tuple[np.ndarray, ...]
    gains: tuple[np.ndarray, ...]
    scale: int

    def thresholds(self) -> list[dict[str, Any]]:
        """Per size: the gain threshold, comparisons in the band, and the share significant at ``alpha``."""
        lo, hi = self.band
        out = []
        for z, size in enumerate(self.sizes):
            p, g = self.pvalues[z].ravel(), self.gains[z].ravel()
            sel = (p >= lo) & (p <= hi)
            thr = float(np.percentile(g[sel], self.percentile)) if sel.any() else None
            sig = p < self.alpha
            out.append(
                {
                    "size": size,
                    "threshold": thr,
                    "n_in_band": int(sel.sum()),
                    "n_tests": int(p.size),
                    "n_significant": int(sig.sum()),
                    "min_significant_gain": float(g[sig].min()) if sig.any() else None,
                    "max_nonsignificant_gain": float(g[~sig].max()) if (~sig).any() else None,
                }
            )
        return out

    def to_dict(self, include_tests: bool = True) -> dict[str, Any]:
        d = {
            "systems": list(self.systems),
            "pairs": [list(p) for p in self.pairs],
            "metric": self.metric,
            "sizes": list(self.sizes),
            "mode": self.mode,
            "n_draws": self.n_draws,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "variant": self.variant,
            "alpha": self.alpha,
            "band": list(self.band),
            "percentile": self.percentile,
            "thresholds": self.thresholds(),
        }
        if include_tests:
            d["pvalues"] = [p.tolist() for p in self.pvalues]
            d["gains"] = [g.tolist() for g in self.gains]
        return plain(d)

    def to_json(self, include_tests: bool = True, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(include_tests), **kwargs)

    def to_frame(self) -> Any:
        """One row per test-set size (:meth:`thresholds`) as a pandas DataFrame."""
        from .._api import frame

        return frame(self.thresholds())

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{len(self.systems)} systems, sizes {', '.join(map(str, self.sizes))}",
            {
                "metric": self.metric,
                "mode": self.mode,
                "variant": self.variant,
                "n_resamples": f"{self.n_resamples:,}",
                "seed": self.seed,
            },
        )

    def tables(self) -> list[Any]:
        """The threshold table (for every output style)."""
        from ..report import Table

        s = self.scale

        def f(v: float | None) -> str:
            return "" if v is None else f"{s * v:.2f}"

        rows = [
            [
                t["size"],
                f(t["threshold"]),
                t["n_in_band"],
                f"{t['n_significant']}/{t['n_tests']}",
                f(t["min_significant_gain"]),
                f(t["max_nonsignificant_gain"]),
            ]
            for t in self.thresholds()
        ]
        unit = " (points)" if s == 100 else ""
        head = [
            "size",
            f"threshold{unit}",
            f"in band [{self.band[0]:g}, {self.band[1]:g}]",
            f"significant (p < {self.alpha:g})",
            "min sig. gain",
            "max non-sig. gain",
        ]
        title = (
            f"test-size curve: {len(self.systems)} systems, {len(self.pairs)} pairs, {self.mode} subsets "
            f"x {self.n_draws}, {self.variant} bootstrap B = {self.n_resamples}, seed {self.seed}; threshold = "
            f"{self.percentile:g}th percentile of gains with p in the band"
        )
        return [Table(tuple(head), tuple(tuple(r) for r in rows), title=title)]

    def table(self, markdown: bool = False) -> str:
        return self.tables()[0].render("markdown" if markdown else "text").rstrip("\n")

    def __str__(self) -> str:
        return self.table()

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Left: confidence (1 − p) against gain, one colour per size (Fig. 9); right: threshold vs size (Fig. 10)."""
        plt = pyplot()
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
        cmap = plt.get_cmap("viridis")
        nz = len(self.sizes)
        for z, size in enumerate(self.sizes):
            ax1.scatter(
                self.scale * self.gains[z].ravel(),
                1 - self.pvalues[z].ravel(),
                s=6,
                alpha=0.6,
                color=cmap(z / max(nz - 1, 1)),
                label=str(size),
            )
        ax1.axhline(1 - self.band[1], color="grey", lw=0.6, ls=":")
        ax1.axhline(1 - self.band[0], color="grey", lw=0.6, ls=":")
        unit = " (points)" if self.scale == 100 else ""
        ax1.set_xlabel(f"{self.metric} gain{unit}")
        ax1.set_ylabel("confidence (1 - p)")
        ax1.legend(title="test size", fontsize="x-small", loc="lower right")
        th = [(t["size"], self.scale * t["threshold"]) for t in self.thresholds() if t["threshold"] is not None]
        if th:
            x, y = zip(*th)
            ax2.plot(x, y, marker="o")
            for xi, yi in th:
                ax2.annotate(f"{yi:.2f}", (xi, yi), fontsize=7, xytext=(3, 3), textcoords="offset points")
        ax2.set_xscale("log")
        ax2.set_xticks(list(self.sizes), [str(z) for z in self.sizes], fontsize=7)
        ax2.minorticks_off()
        ax2.set_xlabel("test-set size (items)")
        ax2.set_ylabel(f"gain threshold{unit}")
        ax2.set_title(f"gain with p in [{self.band[0]:g}, {self.band[1]:g}], {self.percentile:g}th pct.")
        fig.suptitle(f"{self.metric}: significance vs test-set size ({self.mode}, B = {self.n_resamples})")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig


def test_size_curve(
    stats: Statistics,
    *,
    sizes: Sequence[int] | None = None,
    mode: str = "prefix",
    n_draws: int = 1,
    n_resamples: int = 10_000,
    seed: int = 0,
    variant: str = "bk",
    alpha: float = 0.05,
    band: tuple[float, float] = (0.04, 0.06),
    percentile: float = 95.0,
    pairs: Sequence[tuple[str | int, str | int]] | None = None,
    metric: Any = None,
    backend: Any = "local",
    n_threads: int | None = None,
    progress: Any = None,
) -> TestSizeCurve:
    """Test every pair on growing test sets (Berg-Kirkpatrick et al. 2012, Figures 9 and 10).

    ``sizes``: default 100, 200, 400, ... and the full set (:func:`default_sizes`).
    ``mode="prefix"``: the first ``size`` items (one draw); ``"random"``:
    ``n_draws`` random subsets without replacement per size, draw r of size
    index z from the generator seeded by (seed, z, r). Each test uses
    ``n_resamples`` bootstrap resamples shared by all pairs, seeded by
    (seed, z, r, 1). Gains are oriented so that positive means the observed
    winner's margin; p-values are the BK test's (one-sided, observed
    direction) unless ``variant`` says otherwise.
    """
    if not isinstance(stats, Statistics):
        raise InputError("test_size_curve() takes a sigfast.Statistics")
    if stats.n_systems < 2:
        raise InputError("test_size_curve() needs at least two systems")
    n = stats.n_items
    sizes = default_sizes(n) if sizes is None else [int(s) for s in sizes]
    if not sizes or any(not 1 <= s <= n for s in sizes):
        raise InputError(f"sizes must lie in 1..{n} (the number of items), got {list(sizes)}")
    if mode not in ("prefix", "random"):
        raise InputError(f"mode must be 'prefix' or 'random', got {mode!r}")
    n_draws = check_int("n_draws", n_draws, 1)
    if mode == "prefix" and n_draws != 1:
        raise InputError("prefix mode has one test set per size; use mode='random' for several draws")
    n_resamples = check_int("n_resamples", n_resamples, 1)
    seed = check_int("seed", seed, 0)
    if not 0 <= band[0] <= band[1] <= 1:
        raise InputError(f"band must satisfy 0 <= low <= high <= 1, got {band}")
    if not 0 <= percentile <= 100:
        raise InputError(f"percentile must be in [0, 100], got {percentile}")
    S = stats.n_systems
    if pairs is None:
        pair_idx = tuple((i, j) for i in range(S) for j in range(i + 1, S))
    else:
        pair_idx = tuple((stats.index(a), stats.index(b)) for a, b in pairs)
    qi = np.array([i for i, _ in pair_idx])
    qj = np.array([j for _, j in pair_idx])
    met = resolve_metric(metric, stats)
    tasks = []
    for z, size in enumerate(sizes):
        for r in range(n_draws):
            if mode == "prefix":
                idx = np.arange(size)
            else:
                idx = np.sort(rng(seed, z, r).choice(n, size, replace=False))
            tasks.append((stats, idx, n_resamples, sub_seed(seed, z, r, 1), variant, metric, n_threads))
    cb = progress_cb(progress, len(tasks), "test sizes")
    results = run_tasks(backend, pairwise_task, tasks, cb)
    pv, gains = [], []
    for z in range(len(sizes)):
        block = results[z * n_draws : (z + 1) * n_draws]
        pv.append(np.stack([p[qi, qj] for _, p in block]))
        gains.append(np.stack([np.abs(sc[qj] - sc[qi]) for sc, _ in block]))
    name = metric if isinstance(metric, str) else met.name
    return TestSizeCurve(
        systems=stats.systems,
        pairs=pair_idx,
        metric=name,
        sizes=tuple(sizes),
        mode=mode,
        n_draws=n_draws,
        n_resamples=n_resamples,
        seed=seed,
        variant=variant,
        alpha=alpha,
        band=(float(band[0]), float(band[1])),
        percentile=float(percentile),
        pvalues=tuple(pv),
        gains=tuple(gains),
        scale=met.display_scale,
    )


test_size_curve.__test__ = False  # type: ignore[attr-defined]
