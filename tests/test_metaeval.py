"""Item-level statistics and metric meta-evaluation against independent references.

References: scipy.stats (pearsonr, spearmanr, kendalltau, mannwhitneyu), numpy,
nlpstats (Deutsch et al.'s reference implementation; skipped if not installed)
and plain numpy/Python loops written here from the papers' definitions. Never
sigfast against itself, except for determinism checks.

Monte-Carlo tolerances: two independent resampling runs of B resamples each
estimate the same quantity. For a p-value p the standard error of the
difference is sqrt(2 p (1 - p) / B); we allow 4 of them plus 2/B. For a
2.5 % / 97.5 % percentile, the standard error of one estimate is about
sqrt(q (1 - q) / B) / f(x_q), which depends on the unknown density (and
correlations over a few resampled systems have heavy tails), so we use a
distribution-free bound instead: the q-quantile of one run must lie between
the other run's order statistics at ranks qB ± 4 sqrt(2 B q (1 - q)), i.e.
within 4 standard errors of the difference of the two empirical CDFs at that
point; checked at q = 0.025, 0.25, 0.5, 0.75, 0.975 (B = 2000).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import sigfast
from sigfast import metaeval
from sigfast.exceptions import InputError, MetricError
from sigfast.inference.itemlevel import item_bootstrap, item_indices, item_statistic

scipy_stats = pytest.importorskip("scipy.stats")


def _tied(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    return rng.integers(0, k, n).astype(float) * 0.5 - 1.0


# --------------------------------------------------------------------------- statistics vs scipy
@pytest.mark.parametrize("n", [2, 3, 7, 50, 400])
@pytest.mark.parametrize("k", [2, 5, 1000])
def test_correlations_equal_scipy_with_ties(n: int, k: int) -> None:
    rng = np.random.default_rng(n * 31 + k)
    for _ in range(5):
        x, y = _tied(rng, n, k), _tied(rng, n, max(2, k // 2))
        refs = {
            "pearson": scipy_stats.pearsonr,
            "spearman": scipy_stats.spearmanr,
            "kendall_b": lambda a, b: scipy_stats.kendalltau(a, b, variant="b"),
            "kendall_c": lambda a, b: scipy_stats.kendalltau(a, b, variant="c"),
        }
        for name, ref in refs.items():
            with np.errstate(all="ignore"), _quiet():
                want = float(ref(x, y)[0])
            got = item_statistic(x, y, name)
            if math.isnan(want):
                assert math.isnan(got), name
            else:
                assert abs(got - want) <= 1e-12, (name, got, want)


class _quiet:
    def __enter__(self) -> None:
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *a: object) -> None:
        self._w.__exit__(*a)


def test_quantiles_equal_numpy() -> None:
    rng = np.random.default_rng(1)
    for n in (1, 2, 5, 100, 101):
        x = _tied(rng, n, 7)
        assert item_statistic(x, statistic="median") == np.median(x)
        assert item_statistic(x, statistic="mean") == pytest.approx(np.mean(x), abs=1e-12)
        for q in (0.0, 0.025, 0.1, 0.5, 0.9, 0.975, 1.0):
            assert abs(item_statistic(x, statistic="quantile", q=q) - np.quantile(x, q)) <= 1e-12


def test_auc_equals_mann_whitney() -> None:
    rng = np.random.default_rng(2)
    for n in (2, 10, 300):
        labels = rng.integers(0, 2, n).astype(float)
        labels[0], labels[-1] = 0, 1
        scores = _tied(rng, n, 6)
        n1, n0 = labels.sum(), n - labels.sum()
        u = scipy_stats.mannwhitneyu(scores[labels == 1], scores[labels == 0]).statistic
        assert abs(item_statistic(scores, labels, "auc") - u / (n1 * n0)) <= 1e-12
        # ties as 1/2 by the pair definition
        pos, neg = scores[labels == 1], scores[labels == 0]
        pairs = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
        assert abs(item_statistic(scores, labels, "auc") - pairs / (n1 * n0)) <= 1e-12
    with pytest.raises(InputError):
        item_statistic([0.1, 0.2], [0, 2], "auc")


def _pairs_loop(x: np.ndarray, y: np.ndarray, eps: float | None = None, thr: float | None = None) -> float:
    """The papers' pair definitions, one pair at a time."""
    if thr is not None:  # WMT DARR: |Δhuman| >= thr, metric tie is discordant
        c = d = 0
        for i, j in itertools.combinations(range(len(x)), 2):
            dh = y[i] - y[j]
            if (abs(dh) >= thr) if thr > 0 else (dh != 0):
                if (dh > 0 and x[i] > x[j]) or (dh < 0 and x[i] < x[j]):
                    c += 1
                else:
                    d += 1
        return (c - d) / (c + d) if c + d else math.nan  # no qualifying pair: undefined
    good = tot = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dm, dh = x[i] - x[j], y[i] - y[j]
        mt = abs(dm) <= eps if eps is not None else dm == 0
        ht = dh == 0
        good += (mt and ht) or (not mt and not ht and np.sign(dm) == np.sign(dh))
        tot += 1
    return good / tot


def test_pair_statistics_equal_loops() -> None:
    rng = np.random.default_rng(3)
    for n in (2, 5, 40):
        x, y = _tied(rng, n, 5), rng.integers(0, 100, n).astype(float)
        for thr in (0.0, 25.0, 60.0):
            want = _pairs_loop(x, y, thr=thr)
            for name in ("tau_like", "tau_like_pooled"):  # one group: the two are equal
                got = item_statistic(x, y, name, threshold=thr)
                assert (math.isnan(got) and math.isnan(want)) or abs(got - want) <= 1e-12, (name, thr, got, want)
        assert abs(item_statistic(x, y, "pairwise_accuracy") - _pairs_loop(x, y)) <= 1e-12
        for eps in (0.0, 0.5, 1.2):
            assert abs(item_statistic(x, y, "acc_eq", epsilon=eps) - _pairs_loop(x, y, eps=eps)) <= 1e-12


def test_tie_calibration_is_the_best_threshold() -> None:
    rng = np.random.default_rng(4)
    x, y = rng.normal(size=30).round(1), rng.integers(0, 3, 30).astype(float)
    cands = sorted({0.0} | {abs(a - b) for a, b in itertools.combinations(x, 2)})
    best = max(_pairs_loop(x, y, eps=e) for e in cands)
    assert abs(item_statistic(x, y, "acc_eq") - best) <= 1e-12


def test_unknown_statistic() -> None:
    with pytest.raises(MetricError):
        item_statistic([1.0, 2.0], [1.0, 2.0], "kendall_z")
    with pytest.raises(MetricError):
        item_statistic([1.0, 2.0], statistic="quantile", q=1.5)
    # the registry's default q is 0.5: the median
    assert item_statistic([1.0, 2.0, 7.0], statistic="quantile") == float(np.median([1.0, 2.0, 7.0]))


# --------------------------------------------------------------------------- item bootstrap
def _pb(x, y, metric, ref=None, **kw):
    """paired_bootstrap of an item statistic on (score[, reference]) columns."""
    cols = [np.asarray(x)[:, None], np.asarray(y)[:, None]]
    if ref is not None:
        cols = [np.concatenate([c, np.asarray(ref)[:, None]], axis=1) for c in cols]
    return sigfast.paired_bootstrap(cols[0], cols[1], metric=metric, nan_policy="omit", **kw)


def test_item_bootstrap_uses_the_announced_indices() -> None:
    rng = np.random.default_rng(5)
    x, y = _tied(rng, 60, 9), _tied(rng, 60, 9) + 0.3
    r = _pb(x, y, "median", n_resamples=700, seed=9, return_distribution=True)
    idx = item_indices(60, n_resamples=700, seed=9)
    want = np.stack([np.median(x[idx], axis=1), np.median(y[idx], axis=1)], 1)
    assert np.array_equal(r.distribution, want)
    # a Python callable (the one convention: a (resamples, items) array per column) gives the same values
    med = sigfast.metrics.custom(lambda a: np.median(a, axis=1), stat_names=1, on="items")
    rc = _pb(x, y, med, n_resamples=700, seed=9, return_distribution=True)
    assert np.array_equal(rc.distribution, want)
    assert rc.pvalue == r.pvalue
    # the numpy loop's p-value (BK: delta* > 2 delta)
    d = want[:, 1] - want[:, 0]
    delta = np.median(y) - np.median(x)
    c = (d > 2 * delta).sum() if delta > 0 else (d < 2 * delta).sum()
    assert r.pvalue == (c + 1) / 701
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert r.confidence_interval == pytest.approx((lo, hi), abs=1e-12)
    # the deprecated item_bootstrap is this call
    with pytest.warns(DeprecationWarning, match="item_bootstrap is deprecated"):
        old = item_bootstrap(x, y, statistic="median", n_resamples=700, seed=9)
    assert (old.pvalue, old.confidence_interval, old.signature) == (r.pvalue, r.confidence_interval, r.signature)


def test_item_bootstrap_correlation_and_threads() -> None:
    rng = np.random.default_rng(6)
    h = rng.normal(size=80)
    a, b = h + rng.normal(size=80), h + 2 * rng.normal(size=80)
    r1 = _pb(a, b, "kendall_b", h, n_resamples=600, n_threads=1, return_distribution=True)
    r2 = _pb(a, b, "kendall_b", h, n_resamples=600, n_threads=2, return_distribution=True)
    assert r1.distribution.tobytes() == r2.distribution.tobytes()
    idx = item_indices(80, n_resamples=600)
    with _quiet():
        want = [scipy_stats.kendalltau(a[i], h[i])[0] for i in idx[:50]]
    assert np.allclose(r1.distribution[:50, 0], want, atol=1e-12, rtol=0)
    assert "metric:kendall_b" in r1.signature
    one = sigfast.bootstrap_interval(
        np.stack([a, h], 1), metric="spearman", method="percentile", n_resamples=300, nan_policy="omit"
    )
    assert one.confidence_interval.low < one.estimate < one.confidence_interval.high


def test_mean_statistic_sees_paired_bootstrap_resamples() -> None:
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=40), rng.normal(size=40) + 0.2
    with pytest.warns(DeprecationWarning):
        r = item_bootstrap(x, y, statistic="mean", n_resamples=500, seed=3, return_distribution=True)
    p = sigfast.paired_bootstrap(x, y, n_resamples=500, seed=3, resampling="items", return_distribution=True)
    assert np.allclose(r.distribution, p.distribution, atol=1e-12)


# --------------------------------------------------------------------------- levels
def _matrix(rng: np.random.Generator, s: int, n: int, missing: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    human = rng.integers(0, 6, (s, n)).astype(float)
    metrics = np.stack([human + rng.normal(0, sd, (s, n)).round(1) for sd in (1.0, 2.0, 3.0)])
    if missing:
        human[rng.random((s, n)) < missing] = np.nan
        human[:, 0] = np.nan  # an unscored item
    return human, metrics


def _level_numpy(level: str, x: np.ndarray, z: np.ndarray, f) -> float:
    ok = ~np.isnan(z)
    with _quiet():
        if level == "system":
            return f(np.array([x[i, ok[i]].mean() for i in range(len(x))]), np.nanmean(z, 1))
        if level == "global":
            return f(x[ok], z[ok])
        axis_groups = (
            [(x[ok[:, j], j], z[ok[:, j], j]) for j in range(x.shape[1])]
            if level == "item"
            else [(x[i, ok[i]], z[i, ok[i]]) for i in range(x.shape[0])]
        )
        vals = [f(a, b) if len(a) > 1 else np.nan for a, b in axis_groups]
        vals = [v for v in vals if not np.isnan(v)]
        return float(np.mean(vals))


_SCIPY = {
    "pearson": lambda a, b: scipy_stats.pearsonr(a, b)[0],
    "spearman": lambda a, b: scipy_stats.spearmanr(a, b)[0],
    "kendall_b": lambda a, b: scipy_stats.kendalltau(a, b)[0],
    "kendall_c": lambda a, b: scipy_stats.kendalltau(a, b, variant="c")[0],
}


@pytest.mark.parametrize("level", metaeval.LEVELS)
@pytest.mark.parametrize("stat", list(_SCIPY))
def test_levels_equal_numpy_and_scipy(level: str, stat: str) -> None:
    rng = np.random.default_rng(8)
    h, m = _matrix(rng, 7, 25, missing=0.2)
    r = metaeval.evaluate(h, m, level=level, statistic=stat, interval="none", test="none")
    for k in range(3):
        assert abs(r.correlations[k] - _level_numpy(level, m[k], h, _SCIPY[stat])) <= 1e-12


def test_levels_equal_nlpstats() -> None:
    nl = pytest.importorskip("nlpstats.correlations")
    rng = np.random.default_rng(9)
    h, m = _matrix(rng, 6, 20, missing=0.15)
    h[:, 0] = 1.0  # nlpstats refuses an all-NaN column
    for k in range(3):
        x = np.where(np.isnan(h), np.nan, m[k])
        for lv, nlv in (("system", "system"), ("item", "input"), ("global", "global")):
            for stat, coef in (("pearson", "pearson"), ("spearman", "spearman"), ("kendall_b", "kendall")):
                with _quiet():
                    want = nl.correlate(x, h, nlv, coef)
                got = metaeval.evaluate(h, m[k][None], level=lv, statistic=stat, interval="none", test="none")
                assert abs(got.correlations[0] - want) <= 1e-12, (lv, stat)


def test_item_level_tie_calibration_is_one_epsilon_for_all_items() -> None:
    rng = np.random.default_rng(10)
    h, m = _matrix(rng, 5, 12)
    x = m[0]
    cands = sorted({0.0} | {abs(x[a, j] - x[b, j]) for j in range(12) for a, b in itertools.combinations(range(5), 2)})
    best = max(np.mean([_pairs_loop(x[:, j], h[:, j], eps=e) for j in range(12)]) for e in cands)
    got = metaeval.evaluate(h, m, level="item", statistic="acc_eq", interval="none", test="none")
    assert abs(got.correlations[0] - best) <= 1e-12


def test_missing_metric_score_is_an_error() -> None:
    rng = np.random.default_rng(11)
    h, m = _matrix(rng, 4, 6, missing=0.3)
    m[1][~np.isnan(h)] = np.where(np.arange((~np.isnan(h)).sum()) == 2, np.nan, m[1][~np.isnan(h)])
    with pytest.raises(InputError, match="metric 2 .*system 2"):
        metaeval.evaluate(h, m, interval="none", test="none")
    m2 = m.copy()
    m2[:, np.isnan(h)] = np.nan  # metric scores where humans did not score are ignored
    m2[1] = np.where(np.isnan(h), np.nan, m[0])
    metaeval.evaluate(h, m2, interval="none", test="none")


# --------------------------------------------------------------------------- BOOT-* vs numpy and nlpstats
def _boot_numpy(level: str, x: np.ndarray, z: np.ndarray, f: str, scheme: str, B: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    s, n = z.shape
    out = []
    for _ in range(B):
        rows = rng.integers(0, s, s) if scheme in ("systems", "both") else np.arange(s)
        cols = rng.integers(0, n, n) if scheme in ("inputs", "both") else np.arange(n)
        xs, zs = x[rows][:, cols], z[rows][:, cols]
        keep = ~np.isnan(zs).all(axis=1)
        out.append(_fast_level(level, xs[keep], zs[keep], f))
    return np.array(out)


def _close_distribution(got: np.ndarray, want: np.ndarray, B: int) -> None:
    """Distribution-free: each quantile of ``got`` lies between the order statistics of ``want`` at
    ranks qB ± 4 sqrt(2 B q (1 - q)) (4 standard errors of the difference of two rank positions)."""
    got, want = got[np.isfinite(got)], np.sort(want[np.isfinite(want)])
    n = want.size
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        k = q * n
        d = 4 * math.sqrt(2 * n * q * (1 - q))
        lo, hi = want[max(0, int(k - d))], want[min(n - 1, int(math.ceil(k + d)))]
        assert lo <= np.quantile(got, q) <= hi, (q, lo, np.quantile(got, q), hi)


def _kendall_groups(x: np.ndarray, z: np.ndarray, axis: int) -> np.ndarray:
    """tau-b within each column (axis=0) or row (axis=1), over cells where z is scored; vectorized pairs."""
    if axis == 1:
        x, z = x.T, z.T
    ok = ~np.isnan(z)
    z = np.where(ok, z, 0.0)
    x = np.where(ok, x, 0.0)
    both = ok[:, None, :] & ok[None, :, :]
    upper = np.triu(np.ones((x.shape[0], x.shape[0]), bool), 1)[:, :, None] & both
    dx = np.sign(x[:, None, :] - x[None, :, :])
    dz = np.sign(z[:, None, :] - z[None, :, :])
    n0 = upper.sum((0, 1))
    s = (dx * dz * upper).sum((0, 1))
    tx = ((dx == 0) & upper).sum((0, 1))
    tz = ((dz == 0) & upper).sum((0, 1))
    with np.errstate(all="ignore"):
        tau = s / np.sqrt((n0 - tx) * (n0 - tz))
    return np.where((n0 > 0) & (tx < n0) & (tz < n0), tau, np.nan)


def _fast_level(level: str, x: np.ndarray, z: np.ndarray, stat: str) -> float:
    if level == "item" and stat == "kendall_b":
        v = _kendall_groups(x, z, 0)
        return float(np.nanmean(v))
    return _level_numpy(level, x, z, _SCIPY[stat])


def test_vectorized_reference_equals_scipy() -> None:
    rng = np.random.default_rng(18)
    h, m = _matrix(rng, 6, 15, missing=0.2)
    assert abs(_fast_level("item", m[0], h, "kendall_b") - _level_numpy("item", m[0], h, _SCIPY["kendall_b"])) < 1e-12


@pytest.mark.parametrize("scheme", ["systems", "inputs", "both"])
@pytest.mark.parametrize("level", ["system", "item", "global"])
def test_bootstrap_matches_numpy_loop(scheme: str, level: str) -> None:
    rng = np.random.default_rng(12)
    h, m = _matrix(rng, 8, 30, missing=0.1)
    B = 2000
    stat = "pearson" if level != "item" else "kendall_b"
    r = metaeval.evaluate(
        h, m[:1], level=level, statistic=stat, interval=scheme, test="none", n_resamples=B, return_samples=True
    )
    want = _boot_numpy(level, m[0], h, stat, scheme, B, seed=1)
    _close_distribution(r.samples[:, 0], want, B)


@pytest.mark.parametrize("scheme", ["systems", "inputs", "both"])
def test_bootstrap_matches_nlpstats(scheme: str) -> None:
    nl = pytest.importorskip("nlpstats.correlations")
    rng = np.random.default_rng(13)
    h, m = _matrix(rng, 8, 20)
    B = 2000
    np.random.seed(0)
    with _quiet():
        ref = nl.bootstrap(m[0], h, "system", "pearson", scheme, n_resamples=B)
    r = metaeval.evaluate(
        h, m[:1], level="system", statistic="pearson", interval=scheme, test="none", n_resamples=B, return_samples=True
    )
    _close_distribution(r.samples[:, 0], np.array(ref.samples), B)
    want = np.sort(ref.samples)
    for q, got in ((0.025, r.intervals[0, 0]), (0.975, r.intervals[0, 1])):
        d = 4 * math.sqrt(2 * B * q * (1 - q))
        assert want[max(0, int(q * B - d))] <= got <= want[min(B - 1, int(math.ceil(q * B + d)))]


# --------------------------------------------------------------------------- PERM-* vs numpy and nlpstats
def _z(a: np.ndarray, ok: np.ndarray) -> np.ndarray:
    return np.where(ok, (a - a[ok].mean()) / a[ok].std(), np.nan)


def _perm_numpy(
    level: str, x: np.ndarray, y: np.ndarray, z: np.ndarray, f: str, scheme: str, B: int, seed: int
) -> float:
    rng = np.random.default_rng(seed)
    ok = ~np.isnan(z)
    x, y = _z(x, ok), _z(y, ok)
    obs = _fast_level(level, x, z, f) - _fast_level(level, y, z, f)
    s, n = z.shape
    c = 0
    for _ in range(B):
        if scheme == "systems":
            mask = np.repeat(rng.random(s)[:, None] < 0.5, n, 1)
        elif scheme == "inputs":
            mask = np.repeat(rng.random(n)[None, :] < 0.5, s, 0)
        elif scheme == "both-rowcol":  # whole rows, then whole columns: a cell flips when one of the two does
            mask = (rng.random(s)[:, None] < 0.5) ^ (rng.random(n)[None, :] < 0.5)
        else:  # "both": every cell on its own coin
            mask = rng.random((s, n)) < 0.5
        xp, yp = np.where(mask, y, x), np.where(mask, x, y)
        d = _fast_level(level, xp, z, f) - _fast_level(level, yp, z, f)
        c += abs(d) >= abs(obs) - 1e-12
    return c / B


def _p_close(got: float, want: float, B: int) -> None:
    p = (got + want) / 2
    assert abs(got - want) <= 4 * math.sqrt(2 * p * (1 - p) / B) + 2 / B, (got, want)


@pytest.mark.parametrize(
    ("scheme", "level", "stat"),
    [
        ("systems", "system", "pearson"),
        ("inputs", "system", "pearson"),
        ("both", "system", "pearson"),
        ("systems", "item", "kendall_b"),
        ("inputs", "item", "kendall_b"),
        ("both", "item", "kendall_b"),
        ("both", "global", "kendall_b"),
        ("both-rowcol", "system", "pearson"),
        ("both-rowcol", "item", "kendall_b"),
    ],
)
def test_permutation_matches_numpy_loop(scheme: str, level: str, stat: str) -> None:
    rng = np.random.default_rng(14)
    h, m = _matrix(rng, 8, 25, missing=0.1)
    m[1] = m[0] + rng.normal(0, 1.5, m[0].shape)  # close metrics: moderate p
    B = 1500
    r = metaeval.evaluate(
        h, m[:2], level=level, statistic=stat, interval="none", test=f"perm-{scheme}", n_resamples=B, pvalue="raw"
    )
    want = _perm_numpy(level, m[0], m[1], h, stat, scheme, B, seed=2)
    _p_close(r.pvalues[0, 1], want, B)


def _permute_cells(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cell-wise PERM-BOTH swap (the paper's code, sacrerouge), as an nlpstats permutation method:
    each (system, input) cell on its own coin."""
    mask = np.random.rand(*x.shape) > 0.5
    return np.where(mask, y, x), np.where(mask, x, y)


@pytest.mark.parametrize(
    ("scheme", "level"),
    [
        ("systems", "system"),
        ("inputs", "system"),
        ("inputs", "input"),
        ("both-rowcol", "system"),  # nlpstats' own "both": rows, then columns
        ("both", "system"),  # nlpstats' driver with the cell-wise swap
        ("both-rowcol", "global"),
    ],
)
def test_permutation_matches_nlpstats(scheme: str, level: str) -> None:
    nl = pytest.importorskip("nlpstats.correlations")
    rng = np.random.default_rng(15)
    h, m = _matrix(rng, 8, 20)
    m[1] = m[0] + rng.normal(0, 1.0, m[0].shape)
    B = 1500 if level == "system" else 300
    np.random.seed(1)
    method = {"both-rowcol": "both", "both": _permute_cells}.get(scheme, scheme)
    with _quiet():
        ref = nl.permutation_test(m[0], m[1], h, level, "pearson", method, n_resamples=B)
    r = metaeval.evaluate(
        h,
        m[:2],
        level="item" if level == "input" else level,
        statistic="pearson",
        interval="none",
        test=f"perm-{scheme}",
        n_resamples=B,
        pvalue="raw",
    )
    _p_close(r.pvalues[0, 1], ref.pvalue, B)


# --------------------------------------------------------------------------- Williams
def test_williams_formula_worked_case() -> None:
    # Graham & Baldwin (2014), eq. 3, by hand: r12 = .8, r13 = .6, r23 = .5, n = 30
    r12, r13, r23, n = 0.8, 0.6, 0.5, 30
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    t = (r12 - r13) * math.sqrt(
        (n - 1) * (1 + r23) / (2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    )
    assert t == pytest.approx(1.7701145567382515, abs=1e-12)
    assert sigfast._native.williams_t(r12, r13, r23, n) == pytest.approx(t, abs=1e-12)
    assert 2 * scipy_stats.t.sf(t, n - 3) == pytest.approx(0.08796, abs=1e-4)


def test_williams_matches_nlpstats_and_scipy() -> None:
    rng = np.random.default_rng(16)
    h, m = _matrix(rng, 12, 15)
    r = metaeval.evaluate(
        h, m, level="system", statistic="pearson", interval="none", test="williams", correction="none"
    )
    hs, ms = h.mean(1), m.mean(2)
    for a, b in itertools.combinations(range(3), 2):
        r12 = abs(scipy_stats.pearsonr(ms[a], hs)[0])
        r13 = abs(scipy_stats.pearsonr(ms[b], hs)[0])
        r23 = abs(scipy_stats.pearsonr(ms[a], ms[b])[0])
        n = 12
        k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
        t = (r12 - r13) * math.sqrt(
            (n - 1) * (1 + r23) / (2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
        )
        assert r.pvalues[a, b] == pytest.approx(2 * scipy_stats.t.sf(abs(t), n - 3), abs=1e-10)
    nl = pytest.importorskip("nlpstats.correlations")
    for a, b in itertools.combinations(range(3), 2):
        assert r.pvalues[a, b] == pytest.approx(nl.williams_test(m[a], m[b], h, "system", "pearson").pvalue, abs=1e-10)


# --------------------------------------------------------------------------- result object
def test_result_views_and_determinism() -> None:
    rng = np.random.default_rng(17)
    h, m = _matrix(rng, 6, 30)
    kw = dict(level="item", statistic="kendall_b", interval="both", test="perm-both", n_resamples=300, seed=4)
    r1 = metaeval.evaluate(h, {"a": m[0], "b": m[1], "c": m[2]}, n_threads=1, return_samples=True, **kw)
    r2 = metaeval.evaluate(h, {"a": m[0], "b": m[1], "c": m[2]}, n_threads=2, return_samples=True, **kw)
    assert r1.samples.tobytes() == r2.samples.tobytes()
    assert np.array_equal(r1.pvalues, r2.pvalues, equal_nan=True)
    assert r1.order()[0] == 0  # least noise correlates best
    assert sum(len(c) for c in r1.clusters()) == 3
    d = r1.to_dict()
    assert d["ranking"][0]["metric"] == "a" and "signature" in d
    assert r1.to_csv().startswith("metric,rank,correlation,low,high")
    assert r1.format("markdown").startswith("| rank")
    assert "\\begin{tabular}" in r1.format("latex")
    assert "PERM-BOTH" in str(r1)


def test_clusters_follow_wmt_rule() -> None:
    base = metaeval.evaluate(np.eye(3) + 1, np.stack([np.eye(3)] * 3), interval="none", test="none")
    adj = np.array([[np.nan, 0.2, 0.01], [0.2, np.nan, 0.2], [0.01, 0.2, np.nan]])
    r = base.__class__(
        **{
            **base.__dict__,
            "correlations": np.array([0.9, 0.8, 0.7]),
            "adjusted": adj,
            "pvalues": adj,
            "test": "PERM-BOTH",
        }
    )
    # c is significantly worse than a (in the current cluster {a, b}) -> new cluster
    assert r.clusters() == [["metric0", "metric1"], ["metric2"]]


def test_hyps_file_names_match_systems() -> None:
    from sigfast.cli.metaeval import _system_of

    systems = ("UEdin", "Online-W", "Online-A")
    assert _system_of("newstest2021.en-de.hyp.UEdin.de", systems) == "UEdin"
    assert _system_of("Online-W", systems) == "Online-W"
    assert _system_of("hyp.Online-W.Online-A.de", systems) == "hyp.Online-W.Online-A.de"  # ambiguous: kept
    assert _system_of("other.de", systems) == "other.de"


# --------------------------------------------------------------------------- reading WMT's files
def _w(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def test_read_wmt_da_csv_header_suffixes_and_aliases(tmp_path) -> None:
    """WMT's DA csv (``SYS SID RAW.SCR Z.SCR N``): Z.SCR by default, ``Name.ID`` cut to ``Name``,
    ``Nemo`` is NVIDIA-NeMo; cells as a plain split of the lines gives them."""
    text = "SYS SID RAW.SCR Z.SCR N \nUF.15 2 95 1.0 4 \nNemo.7 2 80 0.25 2 \nUF.15 1 50 -0.5 1 \nHUMAN.0 1 70 0.1 3 \n"
    t = metaeval.read_scores(_w(tmp_path, "ad-seg-scores-xx-en.csv", text))
    assert t.systems == ("UF", "NVIDIA-NeMo", "HUMAN") and t.items == ("2", "1")
    want = {(r.split()[0].split(".")[0], r.split()[1]): float(r.split()[3]) for r in text.splitlines()[1:]}
    for (s, i), v in want.items():
        s = "NVIDIA-NeMo" if s == "Nemo" else s
        assert t.values[t.systems.index(s), t.items.index(i)] == v
    assert np.isnan(t.values[1, 1])
    raw = metaeval.read_scores(tmp_path / "ad-seg-scores-xx-en.csv", score_column="RAW.SCR", aliases={})
    assert raw.systems == ("UF", "Nemo", "HUMAN") and raw.values[0, 0] == 95
    # ids kept when cutting them would merge two systems
    t2 = metaeval.read_scores(_w(tmp_path, "d.csv", "SYS SID Z.SCR\nA.1 1 0.5\nA.2 1 0.25\n"))
    assert t2.systems == ("A.1", "A.2")
    # the system-level file: one row per system, a system column that is not the first
    s = metaeval.read_scores(
        _w(tmp_path, "s.csv", "RAW.SCR Z.SCR N SYS N.ALL \n79.4 0.11 959 UF.15 1270 \n70 -0.03 948 Nemo.7 1343 \n")
    )
    assert s.is_system_level and s.systems == ("UF", "NVIDIA-NeMo") and s.values.ravel().tolist() == [0.11, -0.03]


def test_read_system_and_segment_score_files(tmp_path) -> None:
    """``system score`` lines: one per system is system-level (WMT's COMET files), a block per
    system is segment-level in segment order (mt-metrics-eval's ``.seg.score``), as
    mt-metrics-eval's ReadScoreFile reads them (``None`` = not scored)."""
    sys_t = metaeval.read_scores(_w(tmp_path, "COMET_newstest2021_ref-A.tsv", "A\t0.5\nB\t0.25\nNemo\t0.75\n"))
    assert sys_t.is_system_level and sys_t.systems == ("A", "B", "NVIDIA-NeMo")
    assert sys_t.values[:, 0].tolist() == [0.5, 0.25, 0.75]
    seg = "A 1.0\nA None\nA 3.0\nB 4.0\nB 5.0\nB 6.0\n"
    t = metaeval.read_scores(_w(tmp_path, "m/xx-en/BLEU-refA.seg.score", seg))
    ref: dict[str, list[float]] = {}  # mt-metrics-eval's ReadScoreFile, written out
    for line in seg.splitlines():
        name, score = line.split()
        ref.setdefault(name, []).append(float(score) if score != "None" else math.nan)
    assert t.items == ("1", "2", "3") and not t.is_system_level
    assert t.name == "BLEU-refA" and sys_t.name == ""  # the metric an mt-metrics-eval file name names
    np.testing.assert_array_equal(t.values, np.array([ref["A"], ref["B"]]))
    # a .seg.score file with one line per system is still segment-level; a .sys.score with blocks is refused
    assert not metaeval.read_scores(_w(tmp_path, "X-refA.seg.score", "A 1\nB 2\n")).is_system_level
    with pytest.raises(sigfast.FormatError, match="one line per system"):
        metaeval.read_scores(_w(tmp_path, "X-refA.sys.score", "A 1\nA 2\nB 2\nB 3\n"))
    with pytest.raises(sigfast.FormatError, match=r"B \(1\) have fewer"):
        metaeval.read_scores(_w(tmp_path, "Y-refA.seg.score", "A 1\nA 2\nB 2\n"))
    with pytest.raises(sigfast.FormatError, match=r"line 2"):
        metaeval.read_scores(_w(tmp_path, "Z.tsv", "A 1\nB x\n"))


def _mtme(tmp_path, human: str, metrics: dict[str, str]):
    root = tmp_path / "wmt99"
    _w(root, "human-scores/xx-en.wmt-z.seg.score", human)
    for name, text in metrics.items():
        _w(root, f"metric-scores/xx-en/{name}", text)
    return root


def test_read_mtme_layout_and_align(tmp_path) -> None:
    human = "A 0.5\nA None\nA 0.1\nB -0.5\nB 0.2\nB None\nC 0.0\nC 0.3\nC 0.9\n"
    bleu = "A 10\nA 20\nA 30\nB 5\nB 6\nB 7\nC 1\nC 2\nC 3\nref 99\nref 99\nref 99\n"
    root = _mtme(tmp_path, human, {"BLEU-refA.seg.score": bleu, "BLEU-refA.sys.score": "A 20\nB 6\nC 2\n"})
    d = metaeval.read_mtme(tmp_path)  # the folder holding one test set
    assert (d.lp, d.level, d.human_name, list(d.metrics)) == ("xx-en", "seg", "wmt-z", ["BLEU-refA"])
    systems, items, h, m = metaeval.align(d.human, d.metrics)
    assert systems == ("A", "B", "C") and items == ("1", "2", "3")  # the scored reference "ref" is not human-scored
    assert m[0].tolist() == [[10, 20, 30], [5, 6, 7], [1, 2, 3]]
    r = metaeval.evaluate(h, m, names=["BLEU"], level="system", statistic="pearson", interval="none", test="none")
    hs = [np.mean([0.5, 0.1]), np.mean([-0.5, 0.2]), np.mean([0.0, 0.3, 0.9])]
    ms = [np.mean([10, 30]), np.mean([5, 6]), np.mean([1, 2, 3])]
    assert r.correlations[0] == pytest.approx(scipy_stats.pearsonr(ms, hs)[0], abs=1e-12)
    with pytest.raises(InputError, match="no xx-en human scores at level 'sys'"):
        metaeval.read_mtme(root, level="sys")
    _w(root, "human-scores/xx-en.wmt-z.sys.score", "A 0.3\nB -0.1\nC 0.4\n")
    s = metaeval.read_mtme(root, level="sys", metrics=["BLEU"])
    systems, items, h, m = metaeval.align(s.human, s.metrics)
    assert items == (metaeval.SYSTEM_LEVEL_ITEM,) and m[0, :, 0].tolist() == [20, 6, 2]
    _w(root, "human-scores/xx-en.mqm.seg.score", human)
    with pytest.raises(InputError, match="several xx-en seg-level human scores"):
        metaeval.read_mtme(root)
    assert metaeval.read_mtme(root, human="mqm").human_name == "mqm"


def test_unscored_cells_policy_names_system_item_and_file(tmp_path) -> None:
    human = metaeval.read_scores(
        _w(tmp_path, "h.tsv", "system\tseg_id\tz\nA\t1\t0.5\nA\t2\t0.1\nB\t1\t0.2\nB\t2\t0.3\nC\t1\t0.4\nC\t2\t0.6\n")
    )
    met = metaeval.read_scores(_w(tmp_path, "m.seg.score", "A 1\nA 2\nB None\nB 3\nC 4\nC 5\n"))
    with pytest.raises(InputError, match=r"metric 'M' \(.*m\.seg\.score\) has no score for system 'B', item '1'"):
        metaeval.align(human, {"M": met})
    with pytest.warns(UserWarning, match="1 human-scored cell"):
        systems, _items, h, _m = metaeval.align(human, {"M": met}, missing="omit")
    assert np.isnan(h[1, 0]) and h[1, 1] == 0.3 and systems == ("A", "B", "C")
    comet = metaeval.read_scores(_w(tmp_path, "COMET.tsv", "A\t0.5\nB\tNone\nC\t0.7\n"))
    with pytest.raises(InputError, match=r"COMET\.tsv\) has no score for system 'B', its system-level score"):
        metaeval.align(human, {"COMET": comet})
    with pytest.warns(UserWarning):
        systems, *_ = metaeval.align(human, {"COMET": comet}, missing="omit")
    assert systems == ("A", "C")
    with pytest.raises(InputError, match="one score per system: evaluate at level 'system'"):
        metaeval.align(human, {"COMET": comet}, level="item", missing="omit")
    with pytest.raises(InputError, match="missing must be"):
        metaeval.align(human, {"M": met}, missing="zero")


def test_plot_has_a_zero_line_and_a_legend(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(3)
    h, m = _matrix(rng, 6, 20)
    r = metaeval.evaluate(h, m, names=["a", "b", "c"], level="system", statistic="pearson", n_resamples=200)
    fig = r.plot(tmp_path / "m.png")
    ax = fig.axes[0]
    assert any(list(ln.get_xdata()) == [0.0, 0.0] for ln in ax.get_lines())  # the zero line
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "cluster 1" in labels and "no correlation" in labels and any("BOOT-BOTH" in lb for lb in labels)
