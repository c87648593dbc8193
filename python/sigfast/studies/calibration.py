"""Calibration of p-values (Berg-Kirkpatrick et al. 2012, §4.2 and Table 1).

A large pool of items stands for the population: the sign of each pair's
metric difference on the whole pool is the truth. Test sets of ``m`` items
are drawn from the pool with replacement; every pair of systems is tested on
every test set (all pairs share the engine's bootstrap resamples of that
test set). Among tests whose p-value lies in a band, the share whose
observed sign agrees with the population is the calibration: for a
well-calibrated one-sided p, about 1 − p.

Across domains: with several pools (domains) of the same systems, test sets
drawn from one domain are judged against the population sign of each other
domain as well, so a p band on one test set is set against the share that
agree on the others (BK's in-domain vs. out-of-domain columns of Table 1).
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
from ..results.base import Key, Result, option
from ..results.plot import pyplot
from ..results.signature import hash_data
from ._common import check_int, input_fields, pairwise_task, progress_cb, rng, sub_seed, with_signature

__all__ = ["DEFAULT_BANDS", "CalibrationResult", "calibration", "domains_from_item_ids"]

#: p-value bands (lo, hi]: the first includes 0; (0.04, 0.06] is "p near 0.05".
DEFAULT_BANDS: tuple[tuple[float, float], ...] = (
    (0.0, 0.01),
    (0.01, 0.04),
    (0.04, 0.06),
    (0.06, 0.1),
    (0.1, 0.2),
    (0.2, 0.3),
    (0.3, 0.5),
    (0.5, 1.0),
)


def domains_from_item_ids(stats: Statistics, sep: str = "-") -> dict[str, Statistics]:
    """Split statistics into domains by the item id prefix before ``sep`` (e.g. EWT's ``weblog-...``)."""
    from ._common import subset

    if stats.item_ids is None:
        raise InputError("the statistics have no item ids to take domains from")
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(stats.item_ids):
        groups.setdefault(str(name).split(sep, 1)[0], []).append(i)
    return {g: subset(stats, idx) for g, idx in sorted(groups.items())}


@dataclass(frozen=True)
class CalibrationResult(Result):
    """Per test: ``pvalues[d][t, q]`` and ``deltas[d][t, q]`` for source domain d, test set t, pair q.

    ``population_delta[e][q]`` is pair q's difference (system j − system i,
    oriented so that positive is better) on the whole pool of domain e.
    """

    systems: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    domains: tuple[str, ...]
    metric: str
    m: int
    n_test_sets: int
    n_resamples: int
    seed: int
    variant: str
    bands: tuple[tuple[float, float], ...]
    pvalues: Mapping[str, np.ndarray]
    deltas: Mapping[str, np.ndarray]
    population_delta: Mapping[str, np.ndarray]
    scale: int = 1
    #: A hash of the pools of statistics (:func:`sigfast.signature.hash_data`).
    data: str = ""
    #: What the statistics were read from (``Statistics.provenance``: format, options).
    provenance: Mapping[str, Any] = field(default_factory=dict)
    #: The random stream version of the bootstraps.
    stream_version: int = 0
    #: Output option: put every test's p-value and difference (``pvalues``, ``deltas``) in to_dict/JSON.
    include_tests: bool = option(False)

    _keys = (
        *("systems", "pairs", "domains", "metric", "m", "n_test_sets", "n_resamples", "seed", "variant", "bands"),
        *("population_delta", "summary", "per_target", "rows", "signature"),
        Key("pvalues", when="include_tests"),
        Key("deltas", when="include_tests"),
    )

    @property
    def signature(self) -> str:
        """Test-set size and count, the bootstrap (variant, B, seed), the bands, the metric, the
        domains, the systems and a hash of the pools."""
        from ..results.signature import build

        return build(
            "calibration",
            variant=self.variant,
            metric=[self.metric],
            **input_fields(self.provenance),
            m=self.m,
            test_sets=self.n_test_sets,
            domains=list(self.domains),
            systems=list(self.systems),
            bands=[f"{lo:g}-{hi:g}" for lo, hi in self.bands],
            B=self.n_resamples,
            seed=self.seed,
            stream=self.stream_version or None,
            data=self.data or None,
        )

    def agreement(self, source: str, target: str) -> np.ndarray:
        """1 where a test's observed sign on ``source`` agrees with ``target``'s population, 0 where not, NaN
        where either difference is zero (no direction)."""
        d = self.deltas[source]
        pop = self.population_delta[target][None, :]
        out = (np.sign(d) == np.sign(pop)).astype(np.float64)
        out[(d == 0) | (pop == 0)] = np.nan
        return out

    def rows(self) -> list[dict[str, Any]]:
        """One row per (source, target, band): tests in the band with a direction (``n``), the share
        agreeing, mean p, and ``zero``: the tests in the band left out because the observed difference
        (or the target population's) is exactly 0, so that no sign can agree."""
        out = []
        for src in self.domains:
            p = self.pvalues[src]
            for tgt in self.domains:
                agree = self.agreement(src, tgt)
                for lo, hi in self.bands:
                    band = ((p > lo) | (lo == 0)) & (p <= hi)
                    sel = band & np.isfinite(agree)
                    n = int(sel.sum())
                    out.append(
                        {
                            "source": src,
                            "target": tgt,
                            "in_domain": src == tgt,
                            "band": [lo, hi],
                            "n": n,
                            "agree": int(np.nansum(agree[sel])),
                            "share": float(agree[sel].mean()) if n else None,
                            "mean_p": float(p[sel].mean()) if n else None,
                            "zero": int((band & ~np.isfinite(agree)).sum()),
                        }
                    )
        return out

    def summary(self) -> list[dict[str, Any]]:
        """Table 1: per band, the share agreeing in-domain and cross-domain (pooled over domains)."""
        rows = self.rows()
        out = []
        for lo, hi in self.bands:
            entry: dict[str, Any] = {"band": [lo, hi]}
            for kind, want in (("in_domain", True), ("cross_domain", False)):
                sel = [r for r in rows if r["band"] == [lo, hi] and r["in_domain"] == want]
                n = sum(r["n"] for r in sel)
                a = sum(r["agree"] for r in sel)
                z = sum(r["zero"] for r in sel)
                entry[kind] = {"n": n, "agree": a, "share": a / n if n else None, "zero": z}
            ps = [self.pvalues[d] for d in self.domains]
            allp = np.concatenate([x.ravel() for x in ps])
            sel = ((allp > lo) | (lo == 0)) & (allp <= hi)
            entry["mean_p"] = float(allp[sel].mean()) if sel.any() else None
            out.append(entry)
        return out

    def per_target(self) -> dict[str, list[dict[str, Any]]]:
        """Table 1 per target domain: for each band, the tests drawn from each source domain (the
        target itself, in-domain, first) and the share whose sign agrees with the target's population."""
        rows = self.rows()
        out: dict[str, list[dict[str, Any]]] = {}
        for tgt in self.domains:
            sources = [tgt] + [d for d in self.domains if d != tgt]
            entries = []
            for lo, hi in self.bands:
                by_src = {
                    r["source"]: {k: r[k] for k in ("n", "agree", "share", "mean_p", "zero")}
                    for r in rows
                    if r["target"] == tgt and r["band"] == [lo, hi]
                }
                cross = [by_src[d] for d in sources[1:]]
                n = sum(c["n"] for c in cross)
                a = sum(c["agree"] for c in cross)
                z = sum(c["zero"] for c in cross)
                entries.append(
                    {
                        "band": [lo, hi],
                        "in_domain": by_src[tgt],
                        "sources": {d: by_src[d] for d in sources},
                        "cross_domain": {"n": n, "agree": a, "share": a / n if n else None, "zero": z},
                    }
                )
            out[tgt] = entries
        return out

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{len(self.systems)} systems, {len(self.domains)} domain(s), {self.n_test_sets} test sets of {self.m}",
            {"metric": self.metric, "variant": self.variant, "n_resamples": f"{self.n_resamples:,}", "seed": self.seed},
        )

    def tables(self) -> list[Any]:
        """The calibration tables (for every output style): the pooled table, then one per target domain.

        Pooled: per p band, the share of tests agreeing with the population of their own domain
        (in-domain) and of every other domain (cross-domain). Per target domain T (with several
        domains): per band, the tests drawn from each source domain, T itself first (in-domain),
        with the share whose sign agrees with T's population, as "share (tests)".
        """
        from ..results.report import Table

        cross = len(self.domains) > 1
        summary = self.summary()
        zeros = sum(e["in_domain"]["zero"] for e in summary)
        head = ["p band", "mean p", "1 - mean p", "tests", "agree (in-domain)", "left out (difference 0)"]
        if cross:
            head += ["tests (cross)", "agree (cross-domain)", "left out (cross)"]
        body = []
        for e in summary:
            lo, hi = e["band"]
            row = [
                _band(lo, hi),
                "" if e["mean_p"] is None else f"{e['mean_p']:.3f}",
                "" if e["mean_p"] is None else f"{1 - e['mean_p']:.3f}",
                e["in_domain"]["n"],
                _pct(e["in_domain"]["share"]),
                e["in_domain"]["zero"],
            ]
            if cross:
                row += [e["cross_domain"]["n"], _pct(e["cross_domain"]["share"]), e["cross_domain"]["zero"]]
            body.append(row)
        head_line = (
            f"calibration: {len(self.systems)} systems, {len(self.pairs)} pairs, {self.n_test_sets} test "
            f"sets of m = {self.m} per domain ({', '.join(self.domains)}), {self.variant} bootstrap, "
            f"B = {self.n_resamples}, seed {self.seed}"
        )
        notes: tuple[str, ...] = (
            "agree: share of tests whose sign agrees with the population's (1 - p when calibrated)",
            f"left out: tests whose observed difference (or the population's) is exactly 0 have no sign to "
            f"agree; they are not in 'tests' or 'agree' ({zeros} in-domain in all), but they are in 'mean p'",
        )
        if cross:
            notes += ("pooled over domains; one table per target domain follows",)
        out = [Table(tuple(head), tuple(tuple(r) for r in body), title=head_line, notes=notes)]
        if not cross:
            return with_signature(out, self.signature)
        mean_p = [e["mean_p"] for e in self.summary()]
        for tgt, entries in self.per_target().items():
            sources = list(entries[0]["sources"])
            thead = ["p band", "1 - mean p"]
            thead += [f"from {d} (in-domain)" if d == tgt else f"from {d}" for d in sources]
            thead += ["cross-domain pooled"]
            trows = []
            for e, mp in zip(entries, mean_p):
                lo, hi = e["band"]
                cells = [_cell(e["sources"][d]) for d in sources]
                trows.append((_band(lo, hi), "" if mp is None else f"{1 - mp:.3f}", *cells, _cell(e["cross_domain"])))
            out.append(
                Table(
                    tuple(thead),
                    tuple(trows),
                    title=f"target domain {tgt}: share of tests agreeing with the {tgt} population, by source domain",
                    notes=(
                        f"cells: share agreeing (tests); tests drawn from the source domain, m = {self.m}; tests "
                        f"with a difference of exactly 0 (here or in the {tgt} population) are left out: "
                        f"{sum(e['in_domain']['zero'] + e['cross_domain']['zero'] for e in entries)} of them",
                    ),
                )
            )
        return with_signature(out, self.signature)

    def table(self, markdown: bool = False) -> str:
        """Every table (:meth:`tables`), as text or markdown (``format``, without the last line break)."""
        return self.format("markdown" if markdown else "text").removesuffix("\n")

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Two panels: confidence against gain overlaid per domain at the fixed test size m
        (Berg-Kirkpatrick et al. 2012, Fig. 11; :meth:`plot_domains`) and the calibration
        (:meth:`plot_calibration`)."""
        plt = pyplot()
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.9))
        self.plot_domains(ax=ax1)
        self.plot_calibration(ax=ax2)
        fig.suptitle(
            f"{self.metric}: {len(self.systems)} systems, {self.n_test_sets} test sets of m = {self.m} per domain, "
            f"{self.variant} bootstrap B = {self.n_resamples:,}",
            fontsize="medium",
        )
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig

    def plot_domains(self, path: str | os.PathLike[str] | None = None, *, ax: Any = None) -> Any:
        """BK Fig. 11: confidence (1 − p) against |gain| on test sets of the same size m drawn from each
        domain, overlaid. Each test is a faint dot; each domain's median confidence per gain bin is a
        line. Robust axes as in :meth:`sigfast.PairwiseResult.plot_confidence_vs_gain`."""
        from ..results.plot import confidence_floor, gain_ceiling, scatter_clipped

        plt = pyplot()
        own = ax is None
        if own:
            fig, ax = plt.subplots(figsize=(6.4, 4.8))
        else:
            fig = ax.figure
        scale = self.scale
        gains = {d: scale * np.abs(self.deltas[d]).ravel() for d in self.domains}
        conf = {d: 1 - self.pvalues[d].ravel() for d in self.domains}
        all_g = np.concatenate(list(gains.values()))
        all_c = np.concatenate(list(conf.values()))
        ymin = confidence_floor(all_c, all_g)
        xmax = gain_ceiling(all_g, all_c)
        n_right = n_low = 0
        colours = plt.get_cmap("tab10")
        for k, d in enumerate(self.domains):
            c = colours(k % 10)
            r_, l_ = scatter_clipped(
                ax, gains[d], conf[d], xmax=xmax, ymin=ymin, s=3, alpha=0.12, color=c, rasterized=True
            )
            n_right += r_
            n_low += l_
            # equal-count bins along the gain (about 12 per domain, at least 3 tests each):
            # median gain against median confidence, so every domain gets a line
            order = np.argsort(gains[d], kind="stable")
            size = max(3, order.size // 12)
            mids, meds = [], []
            for lo in range(0, order.size - size + 1, size):
                sel = order[lo : lo + size] if lo + 2 * size <= order.size else order[lo:]
                mids.append(float(np.median(gains[d][sel])))
                meds.append(float(np.median(conf[d][sel])))
            ax.plot(mids, meds, color=c, lw=1.8, label=f"{d} ({gains[d].size} tests)")
        ax.axhline(0.95, color="grey", lw=0.8, ls="--")
        unit = " (points)" if scale == 100 else ""
        xlabel = f"{self.metric} gain{unit}"
        if xmax is not None:
            ax.set_xlim(0, xmax * 1.02)
            xlabel += f"\naxis cut at {xmax:.3g} (robust limit): {n_right} test(s) beyond, on the edge"
        else:
            ax.set_xlim(left=0)
        ylabel = "confidence (1 - p)"
        if ymin > 0:
            ax.set_ylim(ymin - 0.01, 1.01)
            ylabel += f"\naxis from {ymin:g} (robust limit)" + (f"; {n_low} below, on the edge" if n_low else "")
        ax.set_xlabel(xlabel, fontsize="small")
        ax.set_ylabel(ylabel, fontsize="small")
        ax.set_title(f"by domain at fixed test size m = {self.m} (lines: medians, equal-count bins)", fontsize="small")
        ax.legend(title="test sets from", fontsize="x-small", title_fontsize="x-small", loc="lower right")
        if own:
            fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig

    def plot_calibration(
        self, path: str | os.PathLike[str] | None = None, *, ax: Any = None, min_tests: int = 20
    ) -> Any:
        """Share agreeing against the band's mean p (log axis: the bands near 0 are most of BK's), with
        the 1 − p line: per target domain (one colour each), in-domain tests (solid) and tests from
        the other domains (dashed); with one domain, its one curve. Bands with fewer than
        ``min_tests`` tests are left out (the axis label says so), as are tests with a difference of
        exactly 0 (no sign to agree; the tables count them)."""
        plt = pyplot()  # first: without matplotlib, the error names the extra to install
        from matplotlib.lines import Line2D

        own = ax is None
        if own:
            fig, ax = plt.subplots(figsize=(5.8, 4.6))
        else:
            fig = ax.figure
        colours = plt.get_cmap("tab10")
        mean_p = [e["mean_p"] for e in self.summary()]
        multi = len(self.domains) > 1
        kinds = (("in_domain", "-", "o"), ("cross_domain", "--", "s")) if multi else (("in_domain", "-", "o"),)
        per = self.per_target()
        dropped = 0
        xmax, xmin = 0.0, 1.0
        for k, d in enumerate(self.domains):
            colour = colours(k % 10)
            for kind, ls, marker in kinds:
                pts = []
                for e, mp in zip(per[d], mean_p):
                    if mp is None or e[kind]["share"] is None:
                        continue
                    if e[kind]["n"] < min_tests:
                        dropped += 1
                        continue
                    pts.append((mp, e[kind]["share"]))
                if pts:
                    x, y = zip(*pts)
                    xmax = max(xmax, *x)
                    xmin = min(xmin, *(v for v in x if v > 0), 1.0)
                    ax.plot(x, y, marker=marker, ms=3.5, color=colour, ls=ls, lw=1.3)
        # a log p axis: BK's bands crowd near 0 (seven of nine below 0.1)
        top = min(1.0, max(0.1, 1.5 * xmax))
        bottom = 10.0 ** np.floor(np.log10(max(min(xmin, 0.01), 1e-12)))
        xs = np.logspace(np.log10(bottom), np.log10(top), 80)
        ax.plot(xs, 1 - xs, color="grey", ls=":", lw=1.0)
        handles = [Line2D([], [], color="grey", ls=":", label="1 - p (calibrated)")]
        handles += [Line2D([], [], color=colours(k % 10), lw=2, label=d) for k, d in enumerate(self.domains)]
        if multi:
            handles += [
                Line2D([], [], color="black", ls="-", marker="o", ms=3.5, label="in-domain tests"),
                Line2D([], [], color="black", ls="--", marker="s", ms=3.5, label="tests from other domains"),
            ]
        xlabel = "p-value (band mean, log scale)"
        zeros = sum(e[kind]["zero"] for d in self.domains for e in per[d] for kind, _, _ in kinds)
        left = [f"{dropped} band(s) with fewer than {min_tests} tests"] if dropped else []
        left += [f"{zeros} test(s) with a difference of 0 (no sign)"] if zeros else []
        if left:
            xlabel += "\nleft out: " + "; ".join(left)
        ax.set_xlabel(xlabel, fontsize="small")
        ax.set_ylabel("share agreeing with the target population", fontsize="small")
        ax.set_xscale("log")
        ax.set_xlim(bottom, top)
        ticks = [t for t in (1e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0) if bottom <= t <= top]
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.minorticks_off()
        lows = [np.min(ln.get_ydata()) for ln in ax.get_lines() if len(ln.get_ydata())]
        ax.set_ylim(max(0.0, min(0.5, float(np.floor(min(lows, default=0.0) * 10) / 10))), 1.02)
        for lo, _ in self.bands:  # the band edges, faint
            if bottom < lo < top:
                ax.axvline(lo, color="lightgrey", lw=0.6, zorder=0)
        ax.set_title(
            "calibration (BK Table 1) per target domain" if multi else "calibration (BK Table 1)", fontsize="small"
        )
        ax.legend(
            handles=handles,
            title="target domain" if multi else None,
            loc="lower left",
            fontsize="x-small",
            title_fontsize="x-small",
            ncol=2 if multi else 1,
        )
        if own:
            fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150)
        return fig


def _band(lo: float, hi: float) -> str:
    return f"{'[' if lo == 0 else '('}{lo:g}, {hi:g}]"


def _cell(e: Mapping[str, Any]) -> str:
    return "" if not e["n"] else f"{_pct(e['share'])} ({e['n']})"


def _pct(v: float | None) -> str:
    return "" if v is None else f"{100 * v:.1f}%"


@shared_options
def calibration(
    pools: Statistics | Mapping[str, Statistics],
    *,
    m: int = 500,
    n_test_sets: int = 200,
    n_resamples: int = 10_000,
    seed: int = 0,
    variant: str = "bk",
    bands: Sequence[tuple[float, float]] = DEFAULT_BANDS,
    pairs: Sequence[tuple[str | int, str | int]] | None = None,
    metric: Any = None,
    backend: Any = "local",
    n_threads: int | None = None,
    stream: int | None = None,
    progress: Any = None,
) -> CalibrationResult:
    """A calibration study (Berg-Kirkpatrick et al. 2012, §4.2, Table 1).

    ``pools``: one Statistics (the population), or a mapping domain ->
    Statistics with the same systems (for in- and cross-domain columns).
    From each pool, ``n_test_sets`` test sets of ``m`` items are drawn with
    replacement (test set t of domain d from the generator seeded by
    (seed, d, t)) and every pair of systems is tested on each with the paired
    bootstrap (``variant``, default BK: one-sided in the observed direction)
    on ``n_resamples`` shared resamples seeded by (seed, d, t, 1). ``pairs``
    restricts the pairs (default: all). ``backend``: ``"local"``, ``"ray"``
    or a ``concurrent.futures.Executor`` (one task per test set; results do
    not depend on it).
    ``stream`` picks the random stream version of the bootstraps (``None``: the default).
    """
    if isinstance(pools, Statistics):
        pools = {"population": pools}
    if not isinstance(pools, Mapping) or not pools:
        raise InputError("pools must be a Statistics or a non-empty mapping of domain -> Statistics")
    domains = tuple(str(k) for k in pools)
    first = next(iter(pools.values()))
    for d, st in pools.items():
        if not isinstance(st, Statistics):
            raise InputError(f"domain {d!r}: expected a sigfast.Statistics")
        if st.systems != first.systems or st.stat_names != first.stat_names:
            raise InputError(
                f"domain {d!r} has other systems or statistics than {domains[0]!r}; "
                "every domain needs the same systems in the same order"
            )
    S = first.n_systems
    if S < 2:
        raise InputError("calibration() needs at least two systems")
    m = check_int("m", m, 1)
    n_test_sets = check_int("n_test_sets", n_test_sets, 1)
    n_resamples = check_int("n_resamples", n_resamples, 1)
    seed = check_int("seed", seed, 0)
    bands = tuple((float(lo), float(hi)) for lo, hi in bands)
    for lo, hi in bands:
        if not 0 <= lo < hi <= 1:
            raise InputError(f"each band must satisfy 0 <= low < high <= 1, got ({lo}, {hi})")
    if pairs is None:
        pair_idx = tuple((i, j) for i in range(S) for j in range(i + 1, S))
    else:
        pair_idx = tuple((first.index(a), first.index(b)) for a, b in pairs)
        if any(i == j for i, j in pair_idx):
            raise InputError("a pair must name two different systems")
    met = resolve_metric(metric, first)
    orient = 1.0 if met.higher_is_better else -1.0
    qi = np.array([i for i, _ in pair_idx])
    qj = np.array([j for _, j in pair_idx])
    pop_delta = {}
    for d, st in pools.items():
        sc = met.evaluate(st.totals(), st.n_items)
        pop_delta[str(d)] = orient * (sc[qj] - sc[qi])
    tasks = []
    for di, st in enumerate(pools.values()):
        for t in range(n_test_sets):
            idx = rng(seed, di, t).integers(0, st.n_items, m)
            tasks.append((st, idx, n_resamples, sub_seed(seed, di, t, 1), variant, metric, n_threads, stream))
    cb = progress_cb(progress, len(tasks), "calibration test sets")
    results = run_tasks(backend, pairwise_task, tasks, cb)
    pvalues, deltas = {}, {}
    for di, d in enumerate(domains):
        block = results[di * n_test_sets : (di + 1) * n_test_sets]
        pvalues[d] = np.stack([pv[qi, qj] for _, pv in block])
        deltas[d] = np.stack([orient * (sc[qj] - sc[qi]) for sc, _ in block])
    return CalibrationResult(
        systems=first.systems,
        pairs=pair_idx,
        domains=domains,
        metric=metric if isinstance(metric, str) else (first.metric_label or met.name),
        m=m,
        n_test_sets=n_test_sets,
        n_resamples=n_resamples,
        seed=seed,
        variant=variant,
        bands=bands,
        pvalues=pvalues,
        deltas=deltas,
        population_delta=pop_delta,
        scale=met.display_scale,
        data=hash_data(list(pools.values())),
        provenance=dict(first.provenance),
        stream_version=stream,
    )
