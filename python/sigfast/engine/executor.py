"""The engine: one request, the resampling loops that answer it, and the checks its settings share.

A :class:`Request` is a frozen value holding everything that decides a
result: the statistics (with their system names), the metric with its
parameters, B, the seed, the p-value rule, the resampling scheme, the
undefined-resample policy (``nan_policy``), threads and backend, and the
test's own settings (variant and sidedness, a method, a confidence level).
Each resampling test is one module of :mod:`sigfast.resampling` declaring
how its request is validated, what it asks the engine and its signature
fields; :func:`sigfast.resampling.request` builds a request and
:func:`sigfast.resampling.run` answers it through the test's declaration.

The public functions are thin front-ends: :func:`sigfast.paired_bootstrap`,
:func:`sigfast.permutation_test`, :func:`sigfast.bootstrap_interval`,
:func:`sigfast.pairwise`, :func:`sigfast.aso` (and through them the power
functions, the studies and the CLI) each build a request and run it.

Resampling: built-in metrics on summed statistics stream through the Rust
engine (a ``_native.Plan`` and a ``_native.Job`` given to ``resample_summary``,
``resample_values`` or ``resample_pairs``), with no per-resample Python work. Item statistics and Python callables are
evaluated block by block on the same counter-based draws (:func:`block_values`,
the one Python resampling loop), so every path sees the same resamples.

Undefined resamples (a correlation of constant values, a callable returning
NaN): ``nan_policy="raise"`` (default) stops with an error naming the first
one; ``"omit"`` drops them, computes p-values and intervals on the others and
reports how many were kept (``n_valid``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _native
from ..exceptions import InputError
from ..metrics import Metric, observed, resolve_metric
from .options import (
    DEFAULT_BACKEND,
    DEFAULT_NAN_POLICY,
    DEFAULT_PERMUTATIONS,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MIN_ITEMS,
    NAN_POLICIES,
)
from .options import check_alpha as check_alpha
from .options import check_int as check_int
from .options import check_level as check_level
from .options import check_nan_policy as check_nan_policy
from .options import check_resamples as check_resamples
from .options import check_seed as check_seed
from .options import check_threads as check_threads
from .progress import resolve as _resolve_progress
from .stats import Statistics

if TYPE_CHECKING:
    from .clusters import Clusters
    from .design_rows import Design

__all__ = [
    "ALTERNATIVES",
    "DEFAULT_PERMUTATIONS",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_STREAM",
    "DRAWS",
    "NAN_POLICIES",
    "RESAMPLING",
    "VARIANTS",
    "Request",
    "block_values",
    "resolve_variant",
]

DEFAULT_STREAM = int(_native.STREAM_VERSION)  # the random stream version results use by default
STREAM_VERSIONS = tuple(int(v) for v in _native.STREAM_VERSIONS)
BLOCK = int(_native.CHUNK)  # resamples per chunk of a streamed pass
#: resamples per block of an item statistic's streamed pass (its values come through Python: a
#: smaller block keeps the working set near 1 MiB; any block size gives the same bytes)
ITEM_BLOCK = BLOCK // 8
PAIR_BLOCK = int(_native.PAIR_BLOCK)
_ITEM_BUDGET = 1 << 22  # items gathered per block for a Python item statistic

#: Resampling schemes: items (n draws), distinct statistic rows (multinomial counts), whole
#: clusters of items (G cluster draws, or cluster swaps: :mod:`sigfast.clusters`), or auto (the
#: statistics' own clusters when they carry some, else items or distinct rows). Each scheme is one
#: entry here and one branch in :func:`block_values` / the engine, reaching every test at once.
RESAMPLING = ("auto", "items", "distinct", "clusters", "two-level", "crossed")
#: Where a bootstrap's resampled item indices come from: sigfast's counter-based stream (the
#: default: any B, any thread count, the same bytes everywhere), or sacrebleu's own draws
#: (``numpy.random.default_rng(seed).choice(n, size=(B, n))``, the index matrix of sacrebleu 2.x's
#: ``--paired-bs`` and of its confidence intervals), fed through the same summaries, so that
#: ``variant="sacrebleu", draws="sacrebleu"`` gives sacrebleu's p-value.
DRAWS = ("sigfast", "sacrebleu")
ALTERNATIVES = ("two-sided", "greater", "less")
#: The bootstrap variants, as users name them.
VARIANTS = ("bk", "koehn", "shifted", "sacrebleu", "moses")
_VARIANTS = {
    "bk": "berg-kirkpatrick",
    "berg-kirkpatrick": "berg-kirkpatrick",
    "koehn": "koehn",
    "shifted": "shifted",
    "sacrebleu": "sacrebleu",
    "moses": "moses",
}
_NATIVE_VARIANT = {
    "berg-kirkpatrick": "bk",
    "koehn": "koehn",
    "shifted": "shifted",
    "sacrebleu": "sacrebleu",
    "moses": "moses",
}
#: Variants whose counts need the bootstrap mean (of δ* or of |δ*|) from a first pass.
_CENTRED = ("shifted", "sacrebleu", "moses")


# --------------------------------------------------------------------------------------------
# validation of single settings


def check_pvalue(pvalue: str) -> str:
    if pvalue not in ("plus_one", "raw"):
        raise InputError(f"pvalue must be 'plus_one' ((c+1)/(B+1)) or 'raw' (c/B), got {pvalue!r}")
    return pvalue


def check_draws(draws: str, m: Metric, resampling: str, mode: str = "shared") -> str:
    """The draw source of a bootstrap (:data:`DRAWS`), validated against the metric and the scheme."""
    if draws not in DRAWS:
        raise InputError(
            f"draws must be 'sigfast' (sigfast's own stream) or 'sacrebleu' (sacrebleu's numpy draws), got {draws!r}"
        )
    if draws == "sigfast":
        return draws
    if m.on_items:
        raise InputError(
            f"draws={draws!r} resamples summed statistics, as sacrebleu does; {m.name} is computed on the items"
        )
    if resampling == "distinct":
        raise InputError(f"draws={draws!r} draws item indices; it cannot use resampling='distinct'")
    if mode != "shared":
        raise InputError(f"draws={draws!r} uses one index matrix for every pair; use mode='shared'")
    return draws


def check_resampling(m: Metric, resampling: str) -> str:
    """The resampling scheme, validated; an item statistic draws items (its value does not
    follow from counts of distinct statistic rows)."""
    if resampling not in RESAMPLING:
        raise InputError(
            f"resampling must be 'auto', 'items', 'distinct', 'clusters', 'two-level' or 'crossed', got {resampling!r}"
        )
    if resampling in ("clusters", "two-level", "crossed"):
        return resampling
    if m.on_items:
        if resampling == "distinct":
            raise InputError(
                f"{m.name} is computed on the resampled items, so it cannot use resampling='distinct'; "
                "use 'items' (or 'auto')"
            )
        return "items"
    return resampling


def resolve_variant(variant: str, alternative: str | None) -> tuple[str, str, str]:
    """(variant name, sidedness as reported, sidedness the engine counts) of a bootstrap variant.

    ``bk`` and ``koehn`` are one-sided in the observed direction and take no
    ``alternative``; ``shifted`` takes any; ``sacrebleu`` and ``moses`` are
    two-sided only (their rules count |δ*|).
    """
    v = _VARIANTS.get(str(variant).lower())
    if v is None:
        raise InputError(f"unknown bootstrap variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if v == "shifted":
        alt = alternative or "two-sided"
        if alt not in ALTERNATIVES:
            raise InputError(f"alternative must be one of {ALTERNATIVES}, got {alt!r}")
        return v, alt, alt
    if v in ("sacrebleu", "moses"):
        if alternative not in (None, "two-sided"):
            raise InputError(
                f"the {v} rule is two-sided (it counts |delta*|); use variant='shifted' for a one-sided test"
            )
        return v, "two-sided", "two-sided"
    if alternative is not None:
        raise InputError(
            f"the {v} bootstrap is one-sided in the direction of the observed difference; "
            "it takes no alternative= (use variant='shifted' for a chosen sidedness)"
        )
    return v, ("observed-direction" if v == "berg-kirkpatrick" else "observed-winner"), "two-sided"


def few_items_warning(n: int) -> tuple[str, ...]:
    """The warning results carry when a test set has fewer than MIN_ITEMS items."""
    if n >= MIN_ITEMS:
        return ()
    return (
        f"only {n} item{'s' if n != 1 else ''}: resampling tests need at least {MIN_ITEMS} items to say "
        "anything (with so few, every resample can equal the observed data, giving zero-width intervals "
        "and meaningless p-values); test on more items",
    )


# --------------------------------------------------------------------------------------------
# inputs -> Statistics


def align_pandas(objs: Sequence[Any], names: Sequence[str]) -> list[Any]:
    """pandas objects paired by their index labels, not by position.

    When every object has an index (Series, DataFrames) and the indexes differ
    in order only, the others are reordered to the first one's labels; when
    they hold different labels an :class:`InputError` names the first labels
    that differ. Anything without an index is paired by position.
    """
    idx = [getattr(o, "index", None) for o in objs]
    if len(objs) < 2 or any(i is None or not hasattr(o, "loc") for i, o in zip(idx, objs)):
        return list(objs)
    first = idx[0]
    out = [objs[0]]
    for name, o, ix in zip(names[1:], objs[1:], idx[1:]):
        if ix.equals(first):
            out.append(o)
            continue
        for nm, i in ((names[0], first), (name, ix)):
            if not i.is_unique:
                dup = [lab for lab in i[i.duplicated()][:3]]
                raise InputError(
                    f"{nm}: the index repeats labels {dup}; items are paired by index label, so each label "
                    "must name one item"
                )
        a, b = set(first), set(ix)
        if a != b:
            only_a = [lab for lab in first if lab not in b][:3]
            only_b = [lab for lab in ix if lab not in a][:3]
            raise InputError(
                f"{names[0]} and {name} have different index labels (items are paired by label): "
                f"{only_a} only in {names[0]}, {only_b} only in {name}; select the shared items first "
                "(e.g. x.loc[common], y.loc[common])"
            )
        out.append(o.loc[first])
    return out


def series_name(x: Any) -> str | None:
    from .._api import series_name as name

    return name(x)


def _f(a: np.ndarray, what: str) -> np.ndarray:
    if not np.issubdtype(a.dtype, np.number) and a.dtype != np.bool_:
        raise InputError(f"{what}: expected numbers, got dtype {a.dtype}")
    return a.astype(np.float64)


def pair_inputs(x: Any, y: Any, systems: Any, metric: Any, metric_params: dict[str, Any]) -> tuple[Statistics, Metric]:
    """Two systems' statistics and the resolved metric, from a Statistics (and ``systems``) or
    two arrays (1-D scores or items x statistics; pandas objects aligned on their index)."""
    if isinstance(x, Statistics):
        if y is not None:
            raise InputError("pass either a Statistics object (and systems=) or two arrays x, y")
        stats = x
        if systems is None:
            if stats.n_systems != 2:
                raise InputError(
                    f"the statistics hold {stats.n_systems} systems; name the two to compare with "
                    f"systems=(baseline, candidate) from {list(stats.systems)}"
                )
            systems = (0, 1)
        if len(systems) != 2:
            raise InputError("systems= must name exactly two systems (baseline, candidate)")
        if stats.index(systems[0]) == stats.index(systems[1]):
            raise InputError("cannot compare a system with itself")
        stats = stats.select(*systems)
    else:
        if y is None:
            raise InputError("paired tests need two systems: pass x and y (or one Statistics with two systems)")
        if systems is not None:
            names = tuple(str(s) for s in systems)
        else:  # pandas Series keep their names
            nx, ny = series_name(x), series_name(y)
            names = (nx or "x", ny or "y") if nx != ny else ("x", "y")
        if len(names) != 2 or names[0] == names[1]:
            raise InputError(f"systems= must give two different names, got {list(names)}")
        x, y = align_pandas((x, y), names)
        xa, ya = np.asarray(x), np.asarray(y)
        if xa.ndim == 1 and ya.ndim == 1:
            hib = metric_params.pop("higher_is_better", True)
            stats = Statistics.from_scores({names[0]: xa, names[1]: ya}, higher_is_better=hib)
            if metric is None or metric == "mean":
                metric_params["higher_is_better"] = hib
        elif xa.ndim == 2 and ya.ndim == 2:
            if xa.shape[1] != ya.shape[1]:
                raise InputError(f"x has {xa.shape[1]} statistics per item, y has {ya.shape[1]}")
            if xa.shape[0] != ya.shape[0]:
                raise InputError(f"x has {xa.shape[0]} items, y has {ya.shape[0]}; a paired test needs the same items")
            stats = _table_stats({names[0]: xa, names[1]: ya}, metric, metric_params)
        else:
            raise InputError(
                f"x and y must both be 1-D (one score per item) or both 2-D (items x statistics); "
                f"got shapes {xa.shape} and {ya.shape}"
            )
    m = resolve_metric(metric, stats, **metric_params)  # checks the metric's invariants
    return stats, m


def _table_stats(arrays: dict[str, np.ndarray], metric: Any, metric_params: dict[str, Any]) -> Statistics:
    """Statistics from per-system (items x statistics) arrays, named after the metric's statistics."""
    k = next(iter(arrays.values())).shape[1]
    m = (
        resolve_metric(metric, None, **metric_params)
        if (metric is not None and not callable(metric)) or isinstance(metric, Metric)
        else None
    )
    stat_names = m.stat_names if m is not None and m.n_stats == k else tuple(f"s{i}" for i in range(k))
    if m is not None and m.counts:
        return Statistics.from_counts(arrays, stat_names=stat_names)
    return Statistics(np.stack([_f(a, n) for n, a in arrays.items()]), tuple(arrays), stat_names)


def one_input(x: Any, system: Any, metric: Any, params: dict[str, Any]) -> tuple[Statistics, Metric]:
    """One system's statistics and the resolved metric (for an interval of its score)."""
    if isinstance(x, Statistics):
        stats = x
        if system is None:
            if stats.n_systems != 1:
                raise InputError(
                    f"the statistics hold {stats.n_systems} systems; name one with system= "
                    f"(or two with systems=(baseline, candidate) for their difference) "
                    f"from {list(stats.systems)}"
                )
            system = 0
        stats = stats.select(system)
    else:
        name = series_name(x) or "x"
        xa = np.asarray(x)
        if xa.ndim == 1:
            hib = params.pop("higher_is_better", True)
            stats = Statistics.from_scores({name: xa}, higher_is_better=hib)
            if metric is None or metric == "mean":
                params["higher_is_better"] = hib
        elif xa.ndim == 2:
            if metric is None:
                raise InputError("per-item statistics (items x statistics) need metric=")
            if not callable(metric) or isinstance(metric, Metric):
                m0 = resolve_metric(metric, None, **params)
                if m0.n_stats != xa.shape[1]:
                    raise InputError(f"metric {m0.name!r} needs {m0.n_stats} statistics per item, got {xa.shape[1]}")
            stats = _table_stats({name: xa}, metric, params)
        else:
            raise InputError(f"x must be 1-D (one score per item) or 2-D (items x statistics); got shape {xa.shape}")
    m = resolve_metric(metric, stats, **params)
    return stats, m


def many_inputs(data: Any, metric: Any) -> Statistics:
    """All systems' statistics for :func:`sigfast.pairwise`: a Statistics, a DataFrame (a column per
    system) or a mapping of system name -> per-item array (pandas Series aligned on their index)."""
    if isinstance(data, Statistics):
        return data
    if hasattr(data, "columns") and hasattr(data, "to_numpy") and not isinstance(data, Mapping):
        data = {str(c): data[c].to_numpy() for c in data.columns}  # a pandas DataFrame: a column per system
    if isinstance(data, Mapping):
        names = [str(k) for k in data]
        arrays = dict(zip(names, (np.asarray(v) for v in align_pandas(list(data.values()), names))))
        if all(a.ndim == 1 for a in arrays.values()):
            return Statistics.from_scores(arrays)
        m = resolve_metric(metric) if metric is not None and not callable(metric) else None
        stat_names = (
            m.stat_names if m is not None else tuple(f"s{i}" for i in range(next(iter(arrays.values())).shape[1]))
        )
        return (
            Statistics.from_counts(arrays, stat_names=stat_names, metric=m.name if m else None)
            if (m and m.counts)
            else Statistics(np.stack(list(arrays.values())), tuple(arrays), stat_names)
        )
    raise InputError("pairwise() takes a Statistics object or a mapping of system name -> per-item array")


# --------------------------------------------------------------------------------------------
# the request


@dataclass(frozen=True)
class Request:
    """Everything that decides a result, validated once (:func:`sigfast.resampling.request`).

    ``test`` names the declared test that answers it (:data:`sigfast.resampling.TESTS`); ``settings`` holds
    that test's own validated settings (a frozen value each test declares: a bootstrap's variant and
    sidedness, a permutation test's method, an interval's method, pairwise's correction and mode, ASO's
    scores), read as attributes of the request (``req.variant``): a request has no setting its test
    does not take. The other fields are the engine's: ``stats`` holds the systems compared, in order, with
    their names; ``metric`` the resolved metric with its parameters; ``stream`` the random stream version;
    the resampling scheme, the p-value rule and the undefined-resample policy. Settings that cannot change
    the numbers (threads, backend) are here too, so one value runs anywhere.
    """

    test: str
    settings: Any = field(repr=False)
    stats: Statistics | None = field(default=None, repr=False)
    metric: Metric | None = None
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int | None = DEFAULT_SEED
    pvalue: str = "plus_one"
    resampling: str = "items"
    nan_policy: str = DEFAULT_NAN_POLICY
    stream: int = DEFAULT_STREAM
    n_threads: int = 0
    backend: Any = DEFAULT_BACKEND
    return_distribution: bool = False
    #: Where the resampled indices come from (:data:`DRAWS`).
    draws: str = "sigfast"
    #: the items' clusters when whole clusters are resampled (``resampling == "clusters"``)
    clusters: Clusters | None = None
    #: the rows of a two-level or crossed design (``resampling`` "two-level" or "crossed": :mod:`sigfast.designs`)
    design: Design | None = None

    def __getattr__(self, name: str) -> Any:  # the test's own settings (only called for other names)
        if name.startswith("__") or name == "settings":
            raise AttributeError(name)
        try:
            return getattr(self.settings, name)
        except AttributeError:
            raise AttributeError(f"a {self.test!r} request has no setting {name!r}") from None

    @property
    def plus_one(self) -> bool:
        return self.pvalue == "plus_one"

    @property
    def exact(self) -> bool:
        """All arrangements enumerated (an exact permutation test), not drawn."""
        return bool(getattr(self.settings, "exact", False))

    @property
    def systems(self) -> tuple[str, ...]:
        return self.stats.systems if self.stats is not None else tuple(self.settings.names)


def resampled_scores(req: Request, progress: Any = None) -> np.ndarray:
    """Every system's metric on every shared resample of a ``"pairwise"`` request (B × systems): the
    draws of :func:`sigfast.pairwise` with ``mode="shared"`` (the same seed, stream, resampling and
    clusters; the pairs' counts are read off these values), for the statistics that need the
    resamples themselves (Romano–Wolf, P(best), expected rank). Rows on which a value is undefined
    are NaN (``nan_policy="omit"``)."""
    stats = req.stats
    s, k, n = stats.n_systems, stats.n_stats, stats.n_items
    table = np.ascontiguousarray(stats.values.transpose(1, 0, 2).reshape(n, s * k))
    values, _ = _stored(table, req, s, req.n_resamples, progress)
    return np.asarray(values, dtype=np.float64)


def resolve_clusters(stats: Statistics, clusters: Any, resampling: str) -> Clusters | None:
    from .clusters import resolve

    return resolve(stats, clusters, resampling)


# --------------------------------------------------------------------------------------------
# the one resampling loop


def block_values(
    table: np.ndarray,
    m: Metric,
    n_systems: int,
    seed: int,
    start: int,
    count: int,
    threads: int,
    *,
    resampling: str = "items",
    swap: bool = False,
    exact: bool = False,
    sub: int = 0,
    clusters: Clusters | None = None,
    stream: int = DEFAULT_STREAM,
) -> tuple[np.ndarray, int | None]:
    """The metric's values on resamples ``start .. start+count`` (count x systems) of ``table``
    (items x systems·k): bootstrap draws, or the paired swaps when ``swap``; whole clusters
    drawn or swapped when ``clusters`` is given; from stream version ``stream``. The same
    counter-based draws as the streamed native paths. Returns the values (NaN where the
    statistic is undefined) and the distinct-row count (None for item and cluster draws)."""
    n = table.shape[0]
    k = table.shape[1] // n_systems
    if clusters is not None:
        vals = _cluster_values(table, m, n_systems, seed, start, count, threads, swap, exact, sub, clusters, stream)
        return vals, None
    if m.on_items and m.native is None:
        return _python_item_values(table, m, n_systems, seed, start, count, swap, exact, sub, stream), None
    job = _native.Job(seed, count, start, sub, threads, stream)
    test = "permutation" if swap else "bootstrap"
    if m.on_items:
        vals, _ = _native.resample_values(_native.Plan(table, m.handle, test, exact=exact), job)
        return np.ascontiguousarray(np.asarray(vals, dtype=np.float64).reshape(count, n_systems)), None
    sums, distinct = _native.resample_values(_native.Plan(table, None, test, resampling, exact=exact), job)
    vals = np.empty((count, n_systems))
    for j in range(n_systems):
        vals[:, j] = m.evaluate(sums[:, j * k : (j + 1) * k], n, check_finite=False)
    return vals, distinct


def indexed_values(table: np.ndarray, m: Metric, n_systems: int, idx: np.ndarray) -> np.ndarray:
    """The metric's values (resamples x systems) on explicit resamples ``idx`` (resamples x n item
    indices) of ``table`` (items x systems·k): each resample's statistics summed, then evaluated."""
    n = table.shape[0]
    k = table.shape[1] // n_systems
    c = idx.shape[0]
    out = np.empty((c, n_systems))
    step = max(1, min(c, _ITEM_BUDGET // max(1, n)))
    for first in range(0, c, step):
        part = idx[first : first + step]
        r = part.shape[0]
        counts = np.bincount((part + (np.arange(r) * n)[:, None]).ravel(), minlength=r * n).reshape(r, n)
        sums = counts.astype(np.float64) @ table  # integer statistics sum exactly
        for j in range(n_systems):
            out[first : first + r, j] = m.evaluate(sums[:, j * k : (j + 1) * k], n, check_finite=False)
    return out


def _sacrebleu_draws(n: int, seed: int) -> Callable[[int], np.ndarray]:
    """sacrebleu's index matrix, row block by row block: ``numpy.random.default_rng(seed).choice(n,
    size=(B, n), replace=True)`` (numpy fills it row by row from one generator, so consecutive blocks
    are its consecutive rows)."""
    gen = np.random.default_rng(seed)
    return lambda count: gen.choice(n, size=(count, n), replace=True)


def _python_item_values(
    table: np.ndarray,
    m: Metric,
    n_systems: int,
    seed: int,
    start: int,
    count: int,
    swap: bool,
    exact: bool,
    sub: int,
    stream: int,
) -> np.ndarray:
    from ..metrics import call_items

    n = table.shape[0]
    k = table.shape[1] // n_systems
    out = np.empty((count, n_systems))
    step = max(1, min(count, _ITEM_BUDGET // max(1, n * k)))
    for first in range(0, count, step):
        c = min(step, count - first)
        if swap:
            mask = np.asarray(_native.swap_masks(n, _native.Job(seed, c, start + first, stream=stream), exact))[
                :, :, None
            ]
            x, y = table[None, :, :k], table[None, :, k:]
            out[first : first + c, 0] = call_items(m, np.where(mask, y, x))
            out[first : first + c, 1] = call_items(m, np.where(mask, x, y))
        else:
            idx = np.asarray(_native.item_indices(n, _native.Job(seed, c, start + first, sub, stream=stream)))
            for j in range(n_systems):
                out[first : first + c, j] = call_items(m, table[:, j * k : (j + 1) * k][idx])
    return out


def _cluster_values(
    table: np.ndarray,
    m: Metric,
    n_systems: int,
    seed: int,
    start: int,
    count: int,
    threads: int,
    swap: bool,
    exact: bool,
    sub: int,
    clusters: Clusters,
    stream: int,
) -> np.ndarray:
    """:func:`block_values` on whole clusters (see :mod:`sigfast.engine`'s cluster drivers)."""
    n = table.shape[0]
    k = table.shape[1] // n_systems
    codes = clusters.codes
    if m.on_items and m.native is None:
        return _python_cluster_item_values(table, m, n_systems, seed, start, count, swap, exact, sub, clusters, stream)
    job = _native.Job(seed, count, start, sub, threads, stream)
    test = "permutation" if swap else "bootstrap"
    if m.on_items:
        vals, _ = _native.resample_values(_native.Plan(table, m.handle, test, clusters=codes, exact=exact), job)
        return np.ascontiguousarray(np.asarray(vals, dtype=np.float64).reshape(count, n_systems))
    # a Python metric of summed statistics: the cluster sums drawn, or the item swaps of the cluster rows
    sums, _ = _native.resample_values(_native.Plan(table, None, test, clusters=codes, exact=exact), job)
    vals = np.empty((count, n_systems))
    for j in range(n_systems):  # a Python callable takes no item count
        vals[:, j] = m.evaluate(sums[:, j * k : (j + 1) * k], n, check_finite=False)
    return vals


def _python_cluster_item_values(
    table: np.ndarray,
    m: Metric,
    n_systems: int,
    seed: int,
    start: int,
    count: int,
    swap: bool,
    exact: bool,
    sub: int,
    clusters: Clusters,
    stream: int,
) -> np.ndarray:
    """A Python item statistic on the items of the drawn clusters (drawn clusters in draw order,
    each cluster's items in item order), or with every item of a swapped cluster swapped."""
    from ..metrics import call_items

    k = table.shape[1] // n_systems
    out = np.empty((count, n_systems))
    codes = clusters.codes
    g = clusters.n_clusters
    if swap:
        masks = np.asarray(_native.swap_masks(g, _native.Job(seed, count, start, stream=stream), exact))[:, codes][
            :, :, None
        ]
        x, y = table[None, :, :k], table[None, :, k:]
        out[:, 0] = call_items(m, np.where(masks, y, x))
        out[:, 1] = call_items(m, np.where(masks, x, y))
        return out
    members = np.argsort(codes, kind="stable")  # cluster c's items, in item order
    sizes = np.bincount(codes, minlength=g)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    draws = np.asarray(_native.item_indices(g, _native.Job(seed, count, start, sub, stream=stream)))
    for r in range(count):
        d = draws[r]
        lens = sizes[d]
        ends = np.cumsum(lens)
        idx = members[np.repeat(offsets[d] - (ends - lens), lens) + np.arange(int(ends[-1]))]
        for j in range(n_systems):
            out[r, j] = call_items(m, table[idx, j * k : (j + 1) * k][None])[0]
    return out


def _may_be_undefined(m: Metric) -> bool:
    """Metrics whose resampled value can be undefined: item statistics and Python callables."""
    return m.on_items or m.native is None


def _raise_undefined(vals: np.ndarray, m: Metric, start: int) -> None:
    """nan_policy='raise': say where the statistic is undefined instead of letting NaN fall out of
    every comparison."""
    bad = ~np.isfinite(vals)
    if not bad.any():
        return
    n_bad = int(bad.any(axis=1).sum())
    first = start + int(np.argmax(bad.any(axis=1)))
    what = (
        f"a resample whose values are all equal has no {m.name}"
        if m.native is not None
        else f"the metric {m.name!r} returned a non-finite value"
    )
    raise InputError(
        f"{m.name} is undefined (NaN) on {n_bad} of resamples {start}..{start + vals.shape[0] - 1} (first: "
        f"resample {first}): {what}. Test on more items, or pass nan_policy='omit' to drop undefined "
        "resamples (the result reports how many were kept)"
    )


def _request_blocks(
    table: np.ndarray,
    req: Request,
    n_sys: int,
    B: int,
    cb: Any,
    *,
    block: int = BLOCK,
    nan_policy: str = "raise",
    swap: bool = False,
    sub: int = 0,
) -> Any:
    """:func:`blocks` of the request's resamples: its metric, seed, threads, draws, resampling,
    method, clusters and stream."""
    return blocks(
        table,
        req.metric,
        n_sys,
        req.seed or 0,
        B,
        req.n_threads,
        block=block,
        nan_policy=nan_policy,
        cb=cb,
        draws=req.draws,
        resampling=req.resampling,
        swap=swap,
        exact=req.exact,
        sub=sub,
        clusters=req.clusters,
        stream=req.stream,
    )


def blocks(
    table: np.ndarray,
    m: Metric,
    n_systems: int,
    seed: int,
    total: int,
    threads: int,
    *,
    block: int = BLOCK,
    nan_policy: str = "raise",
    cb: Any = None,
    draws: str = "sigfast",
    **kw: Any,
) -> Any:
    """Yield ``(start, values, distinct)`` for the resamples 0 .. total in blocks of ``block``
    (values checked against ``nan_policy='raise'``; with ``'omit'`` NaN rows are kept for the
    caller to drop). ``draws="sacrebleu"`` takes the indices from sacrebleu's generator."""
    check = nan_policy == "raise" and _may_be_undefined(m)
    source = _sacrebleu_draws(table.shape[0], seed) if draws == "sacrebleu" else None
    for start in range(0, total, block):
        count = min(block, total - start)
        if source is not None:
            vals, distinct = indexed_values(table, m, n_systems, source(count)), None
        else:
            vals, distinct = block_values(table, m, n_systems, seed, start, count, threads, **kw)
        if check:
            _raise_undefined(vals, m, start)
        yield start, vals, distinct
        if cb is not None:
            cb(start + count, total)


def _stream(
    summary: Any, table: np.ndarray, req: Request, n_sys: int, B: int, cb: Any, *, swap: bool = False, sub: int = 0
) -> int | None:
    """Run the passes ``summary`` needs over B resamples (bootstrap, or swaps when ``swap``),
    chunk by chunk: memory stays O(chunk x systems) for any B. Returns the distinct-row count."""
    m = req.metric
    exact = req.exact
    codes = None if req.clusters is None else req.clusters.codes
    d = req.design
    if d is not None:  # rows of the design, not the items' values (request() checked the metric)
        plan = _native.Plan(d.table, m.handle, "bootstrap", d.kind, clusters=d.items, second=d.second)
        job = _native.Job(req.seed, sub=sub, threads=req.n_threads, stream=req.stream, progress=cb)
        return _native.resample_summary(plan, job, summary)
    if m.native is not None and not m.on_items and (codes is not None or req.draws == "sigfast"):
        if swap:
            seed = req.seed if codes is None else req.seed or 0
            plan = _native.Plan(table, m.handle, "permutation", clusters=codes, exact=exact)
            _native.resample_summary(
                plan, _native.Job(seed, threads=req.n_threads, stream=req.stream, progress=cb), summary
            )
            return None
        resampling = "items" if codes is not None else req.resampling
        plan = _native.Plan(table, m.handle, "bootstrap", resampling, clusters=codes)
        job = _native.Job(req.seed, sub=sub, threads=req.n_threads, stream=req.stream, progress=cb)
        return _native.resample_summary(plan, job, summary)
    distinct = None
    while summary.pending():
        summary.begin_pass()
        for _, vals, d in _request_blocks(table, req, n_sys, B, cb, block=ITEM_BLOCK, swap=swap, sub=sub):
            summary.feed(vals)
            distinct = d
        summary.end_pass()
    return distinct


def _stored(
    table: np.ndarray, req: Request, n_sys: int, B: int, cb: Any, *, swap: bool = False, sub: int = 0
) -> tuple[np.ndarray, int | None]:
    """Every resample's values (B x systems), from the same draws as the streamed pass."""
    m = req.metric
    exact = req.exact
    codes = None if req.clusters is None else req.clusters.codes
    d = req.design
    if d is not None:
        plan = _native.Plan(d.table, m.handle, "bootstrap", d.kind, clusters=d.items, second=d.second)
        job = _native.Job(req.seed, B, sub=sub, threads=req.n_threads, stream=req.stream, progress=cb)
        values, _ = _native.resample_values(plan, job)
        return np.asarray(values), None
    if m.native is not None and not m.on_items and (codes is not None or req.draws == "sigfast"):
        if swap:  # exact: arrangements 0..B of the 2^n (B = 2^n); the seed is not read
            seed = req.seed or 0 if exact or codes is not None else req.seed
            plan = _native.Plan(table, m.handle, "permutation", clusters=codes, exact=exact)
            values, _ = _native.resample_values(
                plan, _native.Job(seed, B, threads=req.n_threads, stream=req.stream, progress=cb)
            )
            return np.asarray(values), None
        resampling = "items" if codes is not None else req.resampling
        plan = _native.Plan(table, m.handle, "bootstrap", resampling, clusters=codes)
        job = _native.Job(req.seed, B, sub=sub, threads=req.n_threads, stream=req.stream, progress=cb)
        values, distinct = _native.resample_values(plan, job)
        return np.asarray(values), distinct
    out = np.empty((B, n_sys))
    distinct = None
    for start, vals, d in _request_blocks(table, req, n_sys, B, cb, nan_policy=req.nan_policy, swap=swap, sub=sub):
        out[start : start + vals.shape[0]] = vals
        distinct = d
    return out, distinct


def _feed_stored(summary: Any, values: np.ndarray) -> None:
    """Run the passes ``summary`` needs over stored values."""
    B = values.shape[0]
    while summary.pending():
        summary.begin_pass()
        for start in range(0, B, BLOCK):
            summary.feed(np.ascontiguousarray(values[start : start + BLOCK]))
        summary.end_pass()


@dataclass
class _Pass:
    """The resamples of one request as a summary sees them: streamed, or stored (kept for
    ``return_distribution``, or filtered for ``nan_policy='omit'``)."""

    summary: Any
    values: np.ndarray | None  # every resample (B x systems), when stored
    valid: np.ndarray | None  # the rows fed to the summary, when stored
    n_valid: int
    distinct: int | None
    #: streamed with nan_policy='omit' and some resample undefined: later passes feed only the
    #: defined rows
    filtered: bool = False


def _omit_passes(
    summary: Any, table: np.ndarray, req: Request, n_sys: int, B: int, cb: Any, *, swap: bool = False, sub: int = 0
) -> int | None:
    """The passes ``summary`` still needs, feeding only the resamples whose values are all
    defined (``nan_policy='omit'``, streamed: every resample is recomputed from (seed, index))."""
    distinct = None
    while summary.pending():
        summary.begin_pass()
        for _, vals, d in _request_blocks(
            table, req, n_sys, B, cb, block=ITEM_BLOCK, nan_policy="omit", swap=swap, sub=sub
        ):
            ok = np.isfinite(vals).all(axis=1)
            rows = vals if ok.all() else np.ascontiguousarray(vals[ok])
            if rows.shape[0]:
                summary.feed(rows)
            distinct = d
        summary.end_pass()
    return distinct


def _stream_omit(
    table: np.ndarray,
    req: Request,
    n_sys: int,
    B: int,
    setup: Callable[[Any, int], None],
    cb: Any,
    *,
    swap: bool = False,
    sub: int = 0,
) -> _Pass:
    """``nan_policy='omit'`` in memory that does not grow with B. The first pass feeds a summary
    of all B resamples and counts the defined ones; when every resample is defined that pass
    stands (one pass, as for 'raise'). Otherwise a summary of the n_valid defined resamples
    takes its passes over the same resamples, skipping the undefined ones: the same counts and
    quantiles as filtering a stored distribution, without storing it."""
    summary = _native.Summary(B, n_sys)
    setup(summary, B)
    summary.begin_pass()
    n_valid = 0
    clean = True
    distinct = None
    for _, vals, d in _request_blocks(
        table, req, n_sys, B, cb, block=ITEM_BLOCK, nan_policy="omit", swap=swap, sub=sub
    ):
        ok = np.isfinite(vals).all(axis=1)
        n_valid += int(ok.sum())
        clean = clean and bool(ok.all())
        if clean:
            summary.feed(vals)
        distinct = d
    if clean:
        summary.end_pass()
        d2 = _omit_passes(summary, table, req, n_sys, B, None, swap=swap, sub=sub)
        return _Pass(summary, None, None, B, distinct if d2 is None else d2)
    if n_valid == 0:
        raise InputError(f"{req.metric.name} is undefined on every one of the {B} resamples; no test is possible")
    summary = _native.Summary(n_valid, n_sys)
    setup(summary, n_valid)
    _omit_passes(summary, table, req, n_sys, B, None, swap=swap, sub=sub)
    return _Pass(summary, None, None, n_valid, distinct, filtered=True)


def _summarize(
    table: np.ndarray,
    req: Request,
    n_sys: int,
    B: int,
    setup: Callable[[Any, int], None],
    cb: Any,
    *,
    swap: bool = False,
) -> _Pass:
    """Feed B resamples through a summary that ``setup(summary, total)`` configures."""
    omit = req.nan_policy == "omit" and _may_be_undefined(req.metric)
    if omit and not req.return_distribution:
        return _stream_omit(table, req, n_sys, B, setup, cb, swap=swap)
    if omit or req.return_distribution:
        values, distinct = _stored(table, req, n_sys, B, cb, swap=swap)
        valid = values
        if omit:
            ok = np.isfinite(values).all(axis=1)
            if not ok.all():
                valid = np.ascontiguousarray(values[ok])
            if valid.shape[0] == 0:
                raise InputError(
                    f"{req.metric.name} is undefined on every one of the {B} resamples; no test is possible"
                )
        summary = _native.Summary(valid.shape[0], n_sys)
        setup(summary, valid.shape[0])
        _feed_stored(summary, valid)
        return _Pass(summary, values, valid, int(valid.shape[0]), distinct)
    summary = _native.Summary(B, n_sys)
    setup(summary, B)
    distinct = _stream(summary, table, req, n_sys, B, cb, swap=swap)
    return _Pass(summary, None, None, B, distinct)


def _again(ps: _Pass, table: np.ndarray, req: Request, n_sys: int, B: int) -> None:
    """A second set of passes over the same resamples (after rules were added)."""
    if ps.valid is not None:
        _feed_stored(ps.summary, ps.valid)
    elif ps.filtered:
        _omit_passes(ps.summary, table, req, n_sys, B, None)
    else:
        _stream(ps.summary, table, req, n_sys, B, None)


# --------------------------------------------------------------------------------------------
# running a request


def _pvalue(count: int, total: int, plus_one: bool) -> float:
    return float(count + 1) / float(total + 1) if plus_one else float(count) / float(total)


def _pair_table(stats: Statistics) -> np.ndarray:
    return np.ascontiguousarray(np.concatenate([stats.values[0], stats.values[1]], axis=1))


def _observed(stats: Statistics, m: Metric, pair: bool = True) -> np.ndarray:
    s = observed(m, stats)
    if m.on_items and not np.all(np.isfinite(s)):
        if pair:
            raise InputError(f"{m.name} is undefined on these items (constant values?); no test is possible")
        bad = [stats.systems[j] for j in np.flatnonzero(~np.isfinite(s))]
        raise InputError(f"{m.name} is undefined on the items of {bad} (constant values?); no test is possible")
    return np.asarray(s, dtype=np.float64)


def _resampling_label(distinct: int | None, req: Request | None = None) -> str:
    if req is not None and req.clusters is not None:
        return req.clusters.label
    if req is not None and req.design is not None:
        return req.design.label
    return f"distinct-rows({distinct})" if distinct is not None else "items"


def _unit_warnings(req: Request) -> tuple[str, ...]:
    """Few items, or few clusters."""
    from .clusters import few_clusters_warning

    d = req.design
    few_prompts: tuple[str, ...] = ()
    if d is not None and d.kind == "crossed" and d.n_second < MIN_ITEMS:
        few_prompts = (
            f"only {d.n_second} {d.field}s crossed with the items: the crossed bootstrap draws them as it draws "
            f"items, and with fewer than {MIN_ITEMS} its intervals and p-values say little",
        )
    return few_items_warning(req.stats.n_items) + few_clusters_warning(req.clusters) + few_prompts


def _n_clusters(req: Request) -> int | None:
    return None if req.clusters is None else req.clusters.n_clusters


def _signature(req: Request, test: str, **fields: Any) -> str:
    from ..results.signature import for_request

    return for_request(req, test, **fields)


def _omitted_warning(n_valid: int, B: int) -> tuple[str, ...]:
    if n_valid == B:
        return ()
    return (
        f"nan_policy='omit': the statistic is undefined on {B - n_valid} of {B} resamples; the p-value and "
        f"intervals use the {n_valid} others",
    )


# --------------------------------------------------------------------------------------------
# all pairs


def _shard_task(
    table: np.ndarray,
    metric: Any,
    seed: int,
    start: int,
    stop: int,
    resampling: str,
    observed: list[float],
    variant: str,
    alternative: str,
    orient: float,
    means: list[float] | None,
    threads: int,
    stream: int = DEFAULT_STREAM,
    clusters: np.ndarray | None = None,
    progress: Any = None,
) -> tuple[np.ndarray, np.ndarray, int | None]:
    """One shard of resamples (a pure function of its arguments, for process pools and Ray);
    ``clusters`` (cluster codes): whole clusters drawn."""
    resampling = "items" if clusters is not None else resampling
    plan = _native.Plan(np.ascontiguousarray(table), metric, "bootstrap", resampling, clusters=clusters)
    job = _native.Job(seed, stop - start, start, threads=threads, stream=stream, progress=progress)
    counts, sums, distinct = _native.resample_pairs(plan, job, observed, (variant, alternative, orient), means)
    return np.asarray(counts), np.asarray(sums), distinct


def _run_shards(
    backend: Any,
    table: np.ndarray,
    shards: Sequence[tuple[int, int]],
    args: tuple[Any, ...],
    progress: Any,
    s: int,
) -> tuple[np.ndarray, np.ndarray, int | None]:
    """Every shard's counts, folded as the shards come back in order: (counts, the sum of the block sums
    added block by block in order, the first shard's distinct count). Nothing per shard is kept, and an
    Executor or Ray holds a bounded window of shards (:func:`sigfast._backends.iter_tasks`), so memory
    does not grow with B."""
    from .backends import iter_tasks

    if backend == "local":  # in-process: the engine reports progress itself
        results: Any = (_shard_task(table, *args[:2], a, b, *args[2:], progress=progress) for a, b in shards)
    else:
        tasks = ((table, *args[:2], a, b, *args[2:]) for a, b in shards)
        weights = (b - a for a, b in shards)
        total = sum(b - a for a, b in shards)
        results = iter_tasks(backend, _shard_task, tasks, progress, weights, total=total)
    counts = np.zeros((s, s), dtype=np.uint64)
    acc = np.zeros((s, s))
    distinct = None
    for k, (c, sums, d) in enumerate(results):
        if k == 0:
            distinct = d
        counts += np.asarray(c, dtype=np.uint64).reshape(s, s)
        for blk in np.asarray(sums).reshape(-1, s, s):  # block order, as the engine's mean_blocked
            acc = acc + blk
    return counts, acc, distinct


class _Shards(Sequence[tuple[int, int]]):
    """The shards ``[a, min(a + size, B))`` of B resamples, made as they are asked for (10^10 resamples are
    152,588 shards of 65,536)."""

    def __init__(self, B: int, size: int) -> None:
        self.B, self.size = B, size

    def __len__(self) -> int:
        return -(-self.B // self.size)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not -len(self) <= k < len(self):
            raise IndexError(k)
        a = (k % len(self)) * self.size
        return (a, min(a + self.size, self.B))


def _blocked_means(block_sums: np.ndarray, total: int) -> np.ndarray:
    acc = np.zeros(block_sums.shape[1:])
    for blk in block_sums:  # block order, as the engine's mean_blocked
        acc = acc + blk
    return acc / total


def _python_pair_counts(
    table: np.ndarray,
    req: Request,
    s: int,
    B: int,
    observed: list[float],
    means: list[float] | None,
    cb: Any,
) -> tuple[np.ndarray, np.ndarray, int | None, int]:
    """Exceedance counts of every pair from blocks of values (metrics off the native sums path)."""
    m = req.metric
    nv = _NATIVE_VARIANT[req.variant]
    orient = 1.0 if m.higher_is_better else -1.0
    counts = np.zeros((s, s), dtype=np.uint64)
    parts = []
    distinct = None
    n_valid = 0
    for _, vals, d in _request_blocks(table, req, s, B, cb, block=PAIR_BLOCK, nan_policy=req.nan_policy):
        distinct = d
        if req.nan_policy == "omit":
            ok = np.isfinite(vals).all(axis=1)
            if not ok.all():
                vals = np.ascontiguousarray(vals[ok])
        n_valid += vals.shape[0]
        if vals.shape[0] == 0:
            continue
        c, bs = _native.pair_counts(vals, observed, (nv, req.engine_alternative, orient), means, req.n_threads)
        counts += np.asarray(c, dtype=np.uint64)
        parts.append(np.asarray(bs))
    if n_valid == 0:
        raise InputError(f"{m.name} is undefined on every one of the {B} resamples; no test is possible")
    return counts, np.stack(parts), distinct, n_valid


def _summarize_pair(table2: np.ndarray, req: Request, B: int, setup: Callable[[Any, int], None], sub: int) -> _Pass:
    """One pair's pass of ``mode='independent'`` on its own sub-stream ``sub``."""
    omit = req.nan_policy == "omit" and _may_be_undefined(req.metric)
    if omit:
        return _stream_omit(table2, req, 2, B, setup, None, sub=sub)
    summary = _native.Summary(B, 2)
    setup(summary, B)
    _stream(summary, table2, req, 2, B, None, sub=sub)
    return _Pass(summary, None, None, B, None)


# --------------------------------------------------------------------------------------------
# unpaired resampling: ASO's bootstrap of each system's scores over random seeds


def run_aso(req: Request, progress: Any = None) -> tuple[list[float], list[float], list[float], np.ndarray | None]:
    """ASO's bootstrap (:mod:`sigfast.seeds`): every system's scores resampled on its own stream,
    the violation ratio of each pair per resample, summarised in Rust (mean and sd; all of them
    when ``req.keep``)."""
    B = req.n_resamples
    work = float(B) * (req.grid_points * (len(req.arrays) + len(req.pairs)) + sum(a.size for a in req.arrays)) * 20.0
    cb = _resolve_progress(progress, B, work, "ASO bootstrap")
    job = _native.Job(req.seed, B, threads=req.n_threads, stream=req.stream, progress=cb)
    vr, _count, mean, sd, samples = _native.aso_bootstrap(
        list(req.arrays), list(req.names), list(req.pairs), req.dt, job, req.keep
    )
    return list(vr), list(mean), list(sd), samples
