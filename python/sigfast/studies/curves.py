"""Significance against test-set size (Berg-Kirkpatrick et al. 2012, §3.3, Figures 9 and 10).

For test sets of growing size (initial segments of the test set, or random
subsets drawn without replacement), every pair of systems is tested with the
paired bootstrap on shared resamples; at each size the gain threshold is the
``percentile``-th percentile of the gains of comparisons whose p-value lies
in ``band`` (§3.1.1), so one sees the gain needed for significance shrink as
the test set grows.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine.backends import run_tasks
from ..engine.options import shared_options
from ..engine.stats import Statistics
from ..exceptions import InputError
from ..metrics import resolve_metric
from ..results.base import Key, Result, flat_row, option
from ..results.plot import pyplot
from ..results.signature import data_hash
from ._common import check_int, input_fields, pairwise_task, progress_cb, rng, sub_seed

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
class TestSizeCurve(Result):
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
    #: A hash of the statistics the curve was drawn from (:func:`sigfast.signature.hash_data`).
    data: str = ""
    #: What the statistics were read from (``Statistics.provenance``: format, options).
    provenance: Mapping[str, Any] = field(default_factory=dict)
    #: The random stream version of the bootstraps.
    stream_version: int = 0
    #: Output option: put every test's p-value and gain (``pvalues``, ``gains``) in to_dict/JSON.
    include_tests: bool = option(True)

    _keys = (
        *("systems", "pairs", "metric", "sizes", "mode", "n_draws", "n_resamples", "seed", "variant", "alpha"),
        *("band", "percentile", "thresholds", "gain_thresholds", Key("display_scale", "scale"), "signature"),
        Key("pvalues", when="include_tests"),
        Key("gains", when="include_tests"),
    )

    @property
    def signature(self) -> str:
        """Sizes, draw mode and count, the bootstrap (variant, B, seed), alpha, the gain-threshold band and
        percentile, the metric, the systems and a hash of the statistics."""
        from ..results.signature import build

        return build(
            "test_size",
            variant=self.variant,
            metric=[self.metric],
            **input_fields(self.provenance),
            mode=self.mode,
            sizes=list(self.sizes),
            draws=self.n_draws,
            systems=list(self.systems),
            B=self.n_resamples,
            seed=self.seed,
            alpha=self.alpha,
            band=list(self.band),
            percentile=self.percentile,
            stream=self.stream_version or None,
            data=self.data or None,
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per test-set size (:meth:`thresholds`), with the signature."""
        return [{**flat_row(r), "metric": self.metric, "signature": self.signature} for r in self.thresholds()]

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

    @property
    def gain_unit(self) -> str:
        """The unit gains are shown in (:func:`sigfast.metrics.gain_unit`): points, or the metric's units."""
        from ..metrics import gain_unit

        return gain_unit(self.metric, self.scale)

    def gain_thresholds(self) -> list[Any]:
        """One :class:`sigfast.GainThreshold` per size (class ``"size N"``), for :meth:`GainThreshold.describe`."""
        from ..inference.pairwise import GainThreshold

        return [
            GainThreshold(f"size {t['size']}", t["threshold"], t["n_in_band"], self.band, self.percentile)
            for t in self.thresholds()
        ]

    def tables(self) -> list[Any]:
        """The threshold table (for every output style); thresholds in the display scale, with warnings."""
        from ..results.report import Table

        s, u = self.scale, self.gain_unit

        def f(v: float | None) -> str:
            return "" if v is None else f"{s * v:.2f}" if (s == 100 or u == "points") else f"{v:.4g}"

        ths = self.gain_thresholds()
        rows = [
            [
                t["size"],
                th.display(s, u),
                t["n_in_band"],
                f"{t['n_significant']}/{t['n_tests']}",
                f(t["min_significant_gain"]),
                f(t["max_nonsignificant_gain"]),
                "" if th.warning is None else ("no threshold" if th.threshold is None else "few comparisons"),
            ]
            for t, th in zip(self.thresholds(), ths)
        ]
        unit = f" ({u})"
        head = [
            "size",
            f"threshold{unit}",
            f"in band [{self.band[0]:g}, {self.band[1]:g}]",
            f"significant (p < {self.alpha:g})",
            f"min sig. gain{unit}",
            f"max non-sig. gain{unit}",
            "warning",
        ]
        title = (
            f"test-size curve: {len(self.systems)} systems, {len(self.pairs)} pairs, {self.mode} subsets "
            f"x {self.n_draws}, {self.variant} bootstrap B = {self.n_resamples}, seed {self.seed}; threshold = "
            f"{self.percentile:g}th percentile of gains with p in the band"
        )
        notes = tuple(th.describe(s, u) for th in ths)
        return [Table(tuple(head), tuple(tuple(r) for r in rows), title=title, notes=notes, signature=self.signature)]

    def table(self, markdown: bool = False) -> str:
        """The threshold table as text or markdown (``format``, without the last line break)."""
        return self.format("markdown" if markdown else "text").removesuffix("\n")

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Left: confidence (1 − p) against gain, one colour per size (BK Figs. 9, 10); right: the gain
        threshold against size, with the band of gains where significance is not decided by the gain.

        Axis limits are robust: the confidence axis starts at the 2nd percentile of the
        confidences of tests with a non-zero gain (never above 0.5), so a pair with gain 0 (p = 1
        under the BK rule) cannot drag it to 0; gains are cut at 1.5 × the largest gain with
        confidence below 0.999 (when that at least halves the axis). Points beyond a limit are drawn
        on the edge as open triangles and the axis labels say how many. The right panel (log-log)
        shows, per size, the threshold, the smallest significant and the largest non-significant
        gain, with a reference line ∝ 1/√size through the threshold at the largest size (the
        central limit theorem's rate); when fewer than two sizes have any of these, the figure has
        the left panel only, never an empty one. Each size's threshold and its number of comparisons
        in the band are printed under the size on the x axis. A line breaks at a size without a value (no
        comparison in the band, no significant or no non-significant test) rather than bridging it.
        """
        from ..results.plot import confidence_floor, gain_ceiling, log_ticks, scatter_clipped

        plt = pyplot()
        s = self.scale
        unit = f" ({self.gain_unit})"
        ths = self.thresholds()
        gts = self.gain_thresholds()

        def positive(v: float | None) -> float:  # NaN where there is no value (or none on a log scale)
            return s * v if v is not None and v > 0 else float("nan")

        sizes = np.array(self.sizes, dtype=float)
        thr_y = np.array([positive(t["threshold"]) for t in ths])
        sig_y = np.array([positive(t["min_significant_gain"]) for t in ths])
        non_y = np.array([positive(t["max_nonsignificant_gain"]) for t in ths])
        thr_pts = [(size, y, g) for size, y, g in zip(self.sizes, thr_y, gts) if np.isfinite(y)]
        sig_pts = [(size, y) for size, y in zip(self.sizes, sig_y) if np.isfinite(y)]
        non_pts = [(size, y) for size, y in zip(self.sizes, non_y) if np.isfinite(y)]
        # the right panel only when it shows a curve: something at two or more sizes
        right = len({x[0] for x in thr_pts + sig_pts + non_pts}) >= 2
        if right:
            fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.6))
        else:
            fig, ax1 = plt.subplots(figsize=(6.2, 4.6))
        cmap = plt.get_cmap("viridis")
        nz = len(self.sizes)
        all_g = np.concatenate([g.ravel() for g in self.gains]) * s
        all_c = 1 - np.concatenate([p.ravel() for p in self.pvalues])
        ymin = confidence_floor(all_c, all_g)
        thr_max = max((y for _, y, _ in thr_pts), default=0.0)
        xmax = gain_ceiling(all_g, all_c, at_least=1.2 * thr_max)
        n_right = n_low = 0
        for z, size in enumerate(self.sizes):
            r_, l_ = scatter_clipped(
                ax1,
                s * self.gains[z].ravel(),
                1 - self.pvalues[z].ravel(),
                xmax=xmax,
                ymin=ymin,
                s=7,
                alpha=0.6,
                color=cmap(z / max(nz - 1, 1)),
                label=str(size),
            )
            n_right += r_
            n_low += l_
        ax1.axhspan(1 - self.band[1], 1 - self.band[0], color="grey", alpha=0.15, lw=0)
        xlabel = f"{self.metric} gain{unit}"
        if xmax is not None:
            ax1.set_xlim(0, xmax * 1.02)
            xlabel += f"\naxis cut at {xmax:.3g} (robust limit): {n_right} test(s) with larger gains on the edge"
        else:
            ax1.set_xlim(left=0)
        ylabel = "confidence (1 - p)"
        if ymin > 0:
            ax1.set_ylim(ymin - 0.01, 1.01)
            ylabel += f"\naxis from {ymin:g} (robust limit)" + (f"; {n_low} below, on the edge" if n_low else "")
        ax1.set_xlabel(xlabel, fontsize="small")
        ax1.set_ylabel(ylabel, fontsize="small")
        ax1.set_title(f"shaded: p in [{self.band[0]:g}, {self.band[1]:g}]", fontsize="small")
        ax1.legend(title="test size", fontsize="x-small", title_fontsize="x-small", loc="lower right")
        if right:
            # NaN breaks a line: no segment bridges a size without a value
            if sig_pts:
                ax2.plot(sizes, sig_y, color="tab:green", lw=0.8, marker="^", ms=4, label="smallest significant gain")
            if non_pts:
                ax2.plot(sizes, non_y, color="tab:red", lw=0.8, marker="v", ms=4, label="largest non-significant gain")
            if thr_pts:
                x, y, g = zip(*thr_pts)
                ax2.plot(sizes, thr_y, color="tab:blue", lw=1.4)
                few = [gi.warning is not None for gi in g]
                if not all(few):
                    ax2.scatter(
                        [xi for xi, f in zip(x, few) if not f],
                        [yi for yi, f in zip(y, few) if not f],
                        color="tab:blue",
                        zorder=3,
                        label=f"gain threshold ({self.percentile:g}th pct.)",
                    )
                if any(few):
                    ax2.scatter(
                        [xi for xi, f in zip(x, few) if f],
                        [yi for yi, f in zip(y, few) if f],
                        facecolors="white",
                        edgecolors="tab:blue",
                        zorder=3,
                        label=f"gain threshold, on < {g[0].min_reliable} comparisons",
                    )
                if len(thr_pts) >= 2:
                    big, ref = thr_pts[-1][0], thr_pts[-1][1]
                    xs = np.array([min(self.sizes), max(self.sizes)], dtype=float)
                    ax2.plot(xs, ref * np.sqrt(big / xs), color="grey", lw=0.8, ls="--", label="∝ 1/√size")
            ax2.margins(x=0.12)
            ax2.set_xscale("log")
            ax2.set_yscale("log")
            # each size's threshold and its comparisons in the band under the size: labels in the plot
            # would collide with each other and with the lines
            ticks = [
                f"{z}\n{y:.2f}\nn={g.n_comparisons}" if np.isfinite(y) else f"{z}\n-\nn={g.n_comparisons}"
                for z, y, g in zip(self.sizes, thr_y, gts)
            ]
            ax2.set_xticks(list(self.sizes), ticks, fontsize=7)
            ax2.minorticks_off()
            ax2.set_xlabel(
                f"test-set size (items, log scale)\nunder each size: gain threshold{unit}, n = comparisons in the band",
                fontsize="small",
            )
            ax2.set_ylabel(f"gain{unit}, log scale", fontsize="small")
            ax2.set_title(
                f"gain threshold (p in [{self.band[0]:g}, {self.band[1]:g}]) and the gains where significance "
                "is decided",
                fontsize="small",
            )
            lo_y, hi_y = ax2.get_ylim()
            ticks = log_ticks(lo_y, hi_y)
            ax2.set_yticks(ticks, [f"{t:g}" for t in ticks])
            ax2.set_ylim(lo_y, hi_y)
            ax2.legend(fontsize="x-small", loc="upper right")
        fig.suptitle(f"{self.metric}: significance vs test-set size ({self.mode}, B = {self.n_resamples:,})")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig


@shared_options
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
    stream: int | None = None,
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
    ``stream`` picks the random stream version of the bootstraps (``None``: the default).
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
            tasks.append((stats, idx, n_resamples, sub_seed(seed, z, r, 1), variant, metric, n_threads, stream))
    cb = progress_cb(progress, len(tasks), "test sizes")
    results = run_tasks(backend, pairwise_task, tasks, cb)
    pv, gains = [], []
    for z in range(len(sizes)):
        block = results[z * n_draws : (z + 1) * n_draws]
        pv.append(np.stack([p[qi, qj] for _, p in block]))
        gains.append(np.stack([np.abs(sc[qj] - sc[qi]) for sc, _ in block]))
    name = metric if isinstance(metric, str) else (stats.metric_label or met.name)
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
        data=data_hash(stats),
        provenance=dict(stats.provenance),
        stream_version=stream,
    )


test_size_curve.__test__ = False  # type: ignore[attr-defined]
