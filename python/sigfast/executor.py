"""One request, one executor: every resampling question sigfast answers runs here.

A :class:`Request` is a frozen value holding everything that decides a
result: the statistics (with their system names), the metric with its
parameters, the test, variant and sidedness, B, the seed, the confidence
level, the p-value rule, the resampling scheme, the undefined-resample
policy (``nan_policy``), threads and backend. :func:`request` builds and
validates one (the only place where these settings are checked);
:func:`run` answers it and builds the result with its signature.

The public functions are thin front-ends: :func:`sigfast.paired_bootstrap`,
:func:`sigfast.permutation_test`, :func:`sigfast.bootstrap_interval`,
:func:`sigfast.pairwise` (and through them the power functions, the studies
and the CLI) each build a request and hand it to :func:`run`.

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

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _native
from ._options import (
    DEFAULT_BACKEND,
    DEFAULT_CONFIDENCE,
    DEFAULT_NAN_POLICY,
    DEFAULT_PERMUTATIONS,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    NAN_POLICIES,
    check_int,
    check_level,
    check_nan_policy,
    check_resamples,
    check_seed,
    check_threads,
    shared_options,
)
from ._progress import resolve as _resolve_progress
from .exceptions import InputError
from .metrics import Metric, observed, resolve_metric
from .multitest import ROMANO_WOLF
from .stats import Statistics

if TYPE_CHECKING:
    from .clusters import Clusters
    from .designs import Design

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
    "ask",
    "block_values",
    "request",
    "resolve_variant",
    "run",
]

DEFAULT_STREAM = int(_native.STREAM_VERSION)  # the random stream version results use by default
STREAM_VERSIONS = tuple(int(v) for v in _native.STREAM_VERSIONS)
MIN_ITEMS = 10  # fewer items than this: results carry a loud warning
BLOCK = int(_native.CHUNK)  # resamples per chunk of a streamed pass
#: resamples per block of an item statistic's streamed pass (its values come through Python: a
#: smaller block keeps the working set near 1 MiB; any block size gives the same bytes)
ITEM_BLOCK = BLOCK // 8
PAIR_BLOCK = int(_native.PAIR_BLOCK)
_ITEM_BUDGET = 1 << 22  # items gathered per block for a Python item statistic

#: The questions a request can ask.
QUESTIONS = ("paired", "interval", "pairwise")
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


def check_alpha(alpha: Any) -> float:
    """A significance level in (0, 1); anything else (None, a string, 1.5) is an InputError."""
    if isinstance(alpha, (bool, np.bool_)):
        raise InputError(f"alpha must be a number in (0, 1), got {alpha!r}")
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise InputError(f"alpha must be a number in (0, 1), got {alpha!r:.60}") from None
    if not 0.0 < a < 1.0:
        raise InputError(f"alpha must be in (0, 1), got {alpha!r:.60}")
    return a


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
    from ._api import series_name as name

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
    """Everything that decides a result, validated once by :func:`request`.

    ``question`` is ``"paired"`` (two systems: bootstrap or permutation test),
    ``"interval"`` (a bootstrap interval of one system's score, or of the
    difference of two) or ``"pairwise"`` (every pair of several systems).
    ``stats`` holds the systems compared, in order, with their names; ``metric``
    the resolved metric with its parameters; ``stream`` the random stream
    version. Settings that cannot change the numbers (threads, backend) are
    here too, so one value runs anywhere.
    """

    question: str
    test: str
    stats: Statistics = field(repr=False)
    metric: Metric
    variant: str
    alternative: str
    engine_alternative: str
    method: str
    n_resamples: int
    seed: int | None
    confidence_level: float
    pvalue: str
    resampling: str
    nan_policy: str = "raise"
    stream: int = DEFAULT_STREAM
    n_threads: int = 0
    backend: Any = "local"
    return_distribution: bool = False
    # all pairs
    correction: str = "none"
    alpha: float = 0.05
    mode: str = "shared"
    shard_size: int = PAIR_BLOCK
    labels: Mapping[str, str] = field(default_factory=dict)
    combinations: frozenset[str] = frozenset()
    groups: str = "boundaries"
    #: all pairs: P(best) and the expected rank of each system from the shared resamples
    bootstrap_ranks: bool = False
    #: Where the resampled indices come from (:data:`DRAWS`).
    draws: str = "sigfast"
    #: the items' clusters when whole clusters are resampled (``resampling == "clusters"``)
    clusters: Clusters | None = None
    #: the rows of a two-level or crossed design (``resampling`` "two-level" or "crossed": :mod:`sigfast.designs`)
    design: Design | None = None

    @property
    def plus_one(self) -> bool:
        return self.pvalue == "plus_one"

    @property
    def systems(self) -> tuple[str, ...]:
        return self.stats.systems


@shared_options
def request(
    question: str,
    x: Any,
    y: Any = None,
    *,
    systems: Any = None,
    system: Any = None,
    metric: Any = None,
    metric_params: Mapping[str, Any] | None = None,
    test: str = "bootstrap",
    variant: str | None = None,
    alternative: str | None = None,
    method: str | None = None,
    n_resamples: Any = DEFAULT_RESAMPLES,
    seed: Any = DEFAULT_SEED,
    confidence_level: Any = DEFAULT_CONFIDENCE,
    pvalue: str = "plus_one",
    resampling: str = "auto",
    nan_policy: str = DEFAULT_NAN_POLICY,
    stream: int | None = None,
    n_threads: int | None = None,
    backend: Any = DEFAULT_BACKEND,
    return_distribution: bool = False,
    correction: str = "holm",
    alpha: float = 0.05,
    mode: str = "shared",
    shard_size: Any = PAIR_BLOCK,
    labels: Mapping[str, str] | None = None,
    combinations: Sequence[str] = (),
    groups: str = "boundaries",
    bootstrap_ranks: bool = False,
    draws: str = "sigfast",
    clusters: Any = None,
) -> Request:
    """Build and validate a :class:`Request`: the one place where inputs and settings are checked.

    ``question="paired"`` with ``test="bootstrap"`` (``variant``,
    ``alternative``) or ``test="permutation"`` (``method``: approximate,
    exact or auto; ``alternative``); ``question="interval"`` (``method``:
    bca or percentile; one system, or two for their difference);
    ``question="pairwise"`` (all pairs of ``x``'s systems). ``draws`` (bootstrap questions):
    where the resampled indices come from (:data:`DRAWS`).

    ``clusters`` (one key per item) resamples whole clusters; without it, the
    statistics' own cluster keys (``provenance["clusters"]``) are used unless
    ``resampling`` is ``"items"`` or ``"distinct"`` (:func:`sigfast.clusters.resolve`).
    """
    params = dict(metric_params or {})
    nan_policy = check_nan_policy(nan_policy)
    if question == "paired":
        stats, m = pair_inputs(x, y, systems, metric, params)
        if test == "bootstrap":
            B = check_resamples(n_resamples)
            sd: int | None = check_seed(seed)
            cl = check_level(confidence_level)
            v, alt, native_alt = resolve_variant(variant or "bk", alternative)
            res = check_resampling(m, resampling)
            cspec = resolve_clusters(stats, clusters, resampling)
            draws = check_draws(draws, m, res)
            pv = check_pvalue(pvalue)
            meth = "bootstrap"
        elif test == "permutation":
            if draws != "sigfast":
                raise InputError(f"draws={draws!r} is for the bootstrap; the permutation test draws swaps")
            if resampling in ("two-level", "crossed"):
                raise InputError(
                    f"resampling={resampling!r} is a bootstrap scheme; use test='bootstrap' (the permutation test "
                    "swaps whole items)"
                )
            meth = method or "auto"
            if meth not in ("approximate", "exact", "auto"):
                raise InputError(f"method must be 'approximate', 'exact' or 'auto', got {method!r}")
            alt = alternative or "two-sided"
            if alt not in ALTERNATIVES:
                raise InputError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
            native_alt = alt
            sd = check_seed(seed)
            pv = check_pvalue(pvalue)
            cspec = resolve_clusters(stats, clusters, "auto")
            n = stats.n_items if cspec is None else cspec.n_clusters
            unit = "items" if cspec is None else "clusters"
            exact = meth == "exact" or (meth == "auto" and n <= 20)
            if exact and n > _native.MAX_EXACT_ITEMS:
                raise InputError(
                    f"the exact test enumerates 2^n arrangements; n = {n} {unit} is above the limit of "
                    f"{_native.MAX_EXACT_ITEMS}. Use method='approximate'"
                )
            meth = "exact" if exact else "approximate"
            B = (1 << n) if exact else check_resamples(n_resamples)
            if exact:
                pv = "exact"  # the seed stays in the request; an exact test draws nothing
            v, cl, res = "paired-swap", math.nan, "items" if cspec is None else "clusters"
        else:
            raise InputError(f"test must be 'bootstrap' or 'permutation', got {test!r}")
    elif question == "interval":
        B = check_resamples(n_resamples, 2)
        sd = check_seed(seed)
        cl = check_level(confidence_level)
        meth = method or "bca"
        if meth not in ("bca", "percentile"):
            raise InputError(f"method must be 'bca' or 'percentile', got {method!r}")
        if y is not None or systems is not None:
            stats, m = pair_inputs(x, y, systems, metric, params)
        else:
            stats, m = one_input(x, system, metric, params)
        res = check_resampling(m, resampling)
        cspec = resolve_clusters(stats, clusters, resampling)
        draws = check_draws(draws, m, res)
        if meth == "bca" and stats.n_items < 2:
            raise InputError("the BCa interval needs at least 2 items (the jackknife leaves one out)")
        if meth == "bca" and cspec is not None and cspec.n_clusters < 2:
            raise InputError("the BCa interval needs at least 2 clusters (the jackknife leaves one out)")
        test, v, alt, native_alt, pv = "interval", ("difference" if stats.n_systems == 2 else "score"), "", "", ""
    elif question == "pairwise":
        stats = many_inputs(x, metric)
        if systems is not None:
            stats = stats.select(*systems)
        if stats.n_systems < 2:
            raise InputError("pairwise() needs at least two systems")
        m = resolve_metric(metric, stats, **params)
        B = check_resamples(n_resamples)
        sd = check_seed(seed)
        v, alt, native_alt = resolve_variant(variant or "bk", alternative)
        if groups not in ("boundaries", "strict"):
            raise InputError(f"groups must be 'boundaries' or 'strict', got {groups!r}")
        if mode not in ("shared", "independent"):
            raise InputError(f"mode must be 'shared' or 'independent', got {mode!r}")
        if mode == "independent" and not (isinstance(backend, str) and backend == "local"):
            raise InputError(
                "mode='independent' runs its pairs in this process (each pair streams its own resamples); "
                "a process pool or Ray runs mode='shared' only: use backend='local' or mode='shared'"
            )
        res = check_resampling(m, resampling)
        if res in ("two-level", "crossed"):
            raise InputError(
                f"resampling={res!r} compares two systems or gives an interval; all pairs run on items or clusters"
            )
        cspec = resolve_clusters(stats, clusters, resampling)
        draws = check_draws(draws, m, res, mode)
        shard_size = check_int("shard_size", shard_size, PAIR_BLOCK)
        if shard_size % PAIR_BLOCK:
            raise InputError(f"shard_size must be a multiple of {PAIR_BLOCK}, got {shard_size}")
        alpha = check_alpha(alpha)
        pv = check_pvalue(pvalue)
        cl, meth = math.nan, mode
        test = "bootstrap"
        if mode != "shared":
            asked = [
                what
                for what, on in (
                    ("correction='romano-wolf'", correction == ROMANO_WOLF),
                    ("bootstrap_ranks=True", bootstrap_ranks),
                    ("return_distribution=True", return_distribution),
                )
                if on
            ]
            if asked:
                raise InputError(
                    f"{' and '.join(asked)} reads every system's values on the same resamples: "
                    "use mode='shared' (mode='independent' gives each pair its own resamples)"
                )
    else:
        raise InputError(f"question must be one of {QUESTIONS}, got {question!r}")
    design = None
    if res in ("two-level", "crossed"):
        from .designs import check_design_metric, design_of

        if draws != "sigfast":
            raise InputError(f"draws={draws!r} draws items as sacrebleu does; resampling={res!r} needs draws='sigfast'")
        design = design_of(stats, res)
        check_design_metric(design, stats, m)
    if cspec is not None:
        if draws != "sigfast":
            raise InputError(
                f"draws={draws!r} draws items as sacrebleu does, so it cannot resample whole clusters; pass "
                "resampling='items' to draw items (or draws='sigfast' to draw clusters)"
            )
        res = "clusters"
    elif res == "clusters":  # pragma: no cover - resolve_clusters refuses it first
        raise InputError("resampling='clusters' needs clusters")
    threads = check_threads(n_threads)
    label_map = dict(labels or {})
    combos = frozenset(str(c) for c in combinations)
    unknown = (set(label_map) | combos) - set(stats.systems)
    if unknown:
        raise InputError(f"labels/combinations name unknown systems: {sorted(unknown)}")
    return Request(
        question=question,
        test=test,
        stats=stats,
        metric=m,
        variant=v,
        alternative=alt,
        engine_alternative=native_alt,
        method=meth,
        n_resamples=B,
        seed=sd,
        confidence_level=cl,
        pvalue=pv,
        resampling=res,
        nan_policy=nan_policy,
        stream=stream,
        n_threads=threads,
        backend=backend,
        return_distribution=bool(return_distribution),
        correction=correction,
        alpha=float(alpha),
        mode=mode,
        shard_size=int(shard_size),
        labels=label_map,
        combinations=combos,
        groups=groups,
        bootstrap_ranks=bool(bootstrap_ranks),
        draws=draws,
        clusters=cspec,
        design=design,
    )


#: What :func:`request` takes besides the question, by name (:func:`ask` passes these on).
_ASKED = frozenset(inspect.signature(request).parameters) - {"question"}


def ask(question: str, arguments: Mapping[str, Any], /, **fixed: Any) -> Request:
    """:func:`request` for a public front-end, with the arguments it was called with (its ``locals()``
    on entry): every one that :func:`request` takes by the same name (``seed``, ``stream``,
    ``n_threads``, ``nan_policy``, ``metric_params``, ...) is passed on as it is, so that no front-end
    forwards the shared options by hand; ``fixed``: what the front-end decides itself (``test=``, or
    ``x=`` for an argument it names otherwise). The options are checked once, by :func:`request`."""
    kw = {k: v for k, v in arguments.items() if k in _ASKED}
    kw.update(fixed)
    return request(question, **kw)


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
    from .metrics import call_items

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
    from .metrics import call_items

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
        exact=req.method == "exact",
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
    exact = req.method == "exact"
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
    exact = req.method == "exact"
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


def run(req: Request, progress: Any = None) -> Any:
    """Answer a request: its result, with the signature built from the request."""
    if req.question == "paired":
        return _run_permutation(req, progress) if req.test == "permutation" else _run_bootstrap(req, progress)
    if req.question == "interval":
        return _run_interval(req, progress)
    if req.question == "pairwise":
        return _run_pairwise(req, progress)
    raise InputError(f"unknown question {req.question!r}")  # pragma: no cover


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
    from .signature import for_request

    return for_request(req, test, **fields)


def _run_bootstrap(req: Request, progress: Any) -> Any:
    from .results import ConfidenceInterval, PairedTestResult

    stats, m, B = req.stats, req.metric, req.n_resamples
    table = _pair_table(stats)
    cb = _resolve_progress(progress, B, float(B) * stats.n_items, "bootstrap")
    sx, sy = (float(v) for v in _observed(stats, m))
    delta = sy - sx
    orient = 1.0 if m.higher_is_better else -1.0
    cl = req.confidence_level
    levels = ((1.0 - cl) / 2.0, (1.0 + cl) / 2.0)
    qi: dict[str, list[int]] = {}

    # Counts and the three percentile intervals stream over the resamples (crate::stream):
    # no B-sized array is kept unless return_distribution (or nan_policy='omit') asks for one.
    def setup(summary: Any, total: int) -> None:
        summary.add_bootstrap_rule(_NATIVE_VARIANT[req.variant], req.engine_alternative, orient, delta)
        for q in ("theta", "x", "y"):
            qi[q] = [summary.add_quantile(q, lv) for lv in levels]

    ps = _summarize(table, req, 2, B, setup, cb)
    count = int(ps.summary.counts()[0])
    p = _pvalue(count, ps.n_valid, req.plus_one)
    ci, cx, cy = (ConfidenceInterval(*(ps.summary.quantile(i) for i in qi[q])) for q in ("theta", "x", "y"))
    resampling = _resampling_label(ps.distinct, req)
    return PairedTestResult(
        signature=_signature(req, "paired_bootstrap", resampling=resampling),
        test="paired_bootstrap",
        variant=req.variant,
        alternative=req.alternative,
        metric=m.name,
        display_scale=m.display_scale,
        higher_is_better=m.higher_is_better,
        systems=(stats.systems[0], stats.systems[1]),
        score_x=sx,
        score_y=sy,
        statistic=delta,
        pvalue=p,
        count=count,
        n_resamples=B,
        pvalue_method="(c+1)/(B+1)" if req.plus_one else "c/B",
        seed=req.seed,
        n_items=stats.n_items,
        resampling=resampling,
        confidence_level=cl,
        confidence_interval=ci,
        score_x_interval=cx,
        score_y_interval=cy,
        version=_native.__version__,
        stream_version=req.stream,
        distribution=ps.values if req.return_distribution else None,
        warnings=_unit_warnings(req) + _omitted_warning(ps.n_valid, B),
        n_valid=ps.n_valid,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
    )


def _omitted_warning(n_valid: int, B: int) -> tuple[str, ...]:
    if n_valid == B:
        return ()
    return (
        f"nan_policy='omit': the statistic is undefined on {B - n_valid} of {B} resamples; the p-value and "
        f"intervals use the {n_valid} others",
    )


def _run_permutation(req: Request, progress: Any) -> Any:
    from .results import PairedTestResult

    stats, m, B = req.stats, req.metric, req.n_resamples
    exact = req.method == "exact"
    n = stats.n_items
    table = _pair_table(stats)
    cb = _resolve_progress(progress, B, float(B) * n, "permutation")
    sx, sy = (float(v) for v in _observed(stats, m))
    delta = sy - sx

    def setup(summary: Any, total: int) -> None:
        summary.add_permutation_rule(req.alternative, delta)

    ps = _summarize(table, req, 2, B, setup, cb, swap=True)
    count = int(ps.summary.counts()[0])
    p = _pvalue(count, ps.n_valid, req.plus_one and not exact)
    test = "exact_permutation" if exact else "approximate_randomization"
    if req.clusters is None:
        resampling = "all-arrangements" if exact else "swap-each-item-p=0.5"
        sig = _signature(req, test)
    else:
        unit = str(req.clusters.label)
        resampling = f"all-arrangements-of-{unit}" if exact else f"swap-each-cluster-p=0.5-{unit}"
        sig = _signature(req, test, resampling=req.clusters.label)
    return PairedTestResult(
        signature=sig,
        test=test,
        variant="paired-swap",
        alternative=req.alternative,
        metric=m.name,
        display_scale=m.display_scale,
        higher_is_better=m.higher_is_better,
        systems=(stats.systems[0], stats.systems[1]),
        score_x=sx,
        score_y=sy,
        statistic=delta,
        pvalue=p,
        count=count,
        n_resamples=B,
        pvalue_method="c/2^n (exact)" if exact else ("(c+1)/(B+1)" if req.plus_one else "c/B"),
        seed=None if exact else req.seed,
        n_items=n,
        resampling=resampling,
        version=_native.__version__,
        stream_version=req.stream,
        distribution=ps.values if req.return_distribution else None,
        warnings=_unit_warnings(req) + _omitted_warning(ps.n_valid, B),
        n_valid=ps.n_valid,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
    )


def _run_interval(req: Request, progress: Any) -> Any:
    from .intervals import BootstrapInterval, _bca_levels, _jackknife
    from .results import ConfidenceInterval

    stats, m, B = req.stats, req.metric, req.n_resamples
    paired = stats.n_systems == 2
    n_sys = stats.n_systems
    table = _pair_table(stats) if paired else np.ascontiguousarray(stats.values[0])
    est_all = observed(m, stats)
    theta_hat = float(est_all[1] - est_all[0]) if paired else float(est_all[0])
    cl = req.confidence_level
    alpha = (1.0 - cl) / 2.0
    z0 = acc = None
    idx: list[int] = []
    q1, q2 = alpha, 1.0 - alpha

    # θ* streams through a summary (crate::stream): the percentile levels are known
    # up front (one pass); BCa counts θ* below θ̂ first, then reads its levels off a
    # second pass over the same resamples. Quantiles are exact (numpy's "linear").
    def setup(summary: Any, total: int) -> None:
        if req.method == "percentile":
            idx[:] = [summary.add_quantile("theta", q) for q in (q1, q2)]  # a second setup replaces
        else:
            summary.add_less_rule(theta_hat)
            summary.add_less_rule(theta_hat, True)

    cb = _resolve_progress(progress, B, float(B) * stats.n_items, "bootstrap")
    ps = _summarize(table, req, n_sys, B, setup, cb)
    if req.method == "bca":
        codes = None if req.clusters is None else req.clusters.codes
        if paired:
            jack = _jackknife(stats.values[1], m, codes) - _jackknife(stats.values[0], m, codes)
        else:
            jack = _jackknife(stats.values[0], m, codes)
        less, less_eq = (int(c) for c in ps.summary.counts())
        q1, q2, z0, acc = _bca_levels(less, less_eq, ps.n_valid, jack, alpha)
        idx = [ps.summary.add_quantile("theta", q) for q in (q1, q2)]
        _again(ps, table, req, n_sys, B)
    lo, hi = (ps.summary.quantile(i) for i in idx)
    theta_b = None
    if req.return_distribution and ps.values is not None:
        v = ps.values
        theta_b = np.ascontiguousarray(v[:, 1] - v[:, 0]) if paired else np.ascontiguousarray(v[:, 0])
    resampling = _resampling_label(ps.distinct, req)
    return BootstrapInterval(
        signature=_signature(req, f"bootstrap_interval_{req.method}", resampling=resampling),
        method=req.method,
        metric=m.name,
        statistic="difference" if paired else "score",
        estimate=theta_hat,
        confidence_level=cl,
        confidence_interval=ConfidenceInterval(float(lo), float(hi)),
        n_resamples=B,
        seed=int(req.seed or 0),
        n_items=stats.n_items,
        systems=tuple(stats.systems),
        quantiles=(float(q1), float(q2)),
        bias_correction=z0,
        acceleration=acc,
        resampling=resampling,
        distribution=theta_b,
        n_valid=ps.n_valid,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
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
    from ._backends import iter_tasks

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


def _run_pairwise(req: Request, progress: Any) -> Any:
    from .pairwise import PairwiseResult, _adjust_matrix

    stats, m, B = req.stats, req.metric, req.n_resamples
    s, k, n = stats.n_systems, stats.n_stats, stats.n_items
    obs = _observed(stats, m, pair=False)
    orient = 1.0 if m.higher_is_better else -1.0
    nv = _NATIVE_VARIANT[req.variant]
    native_alt = req.engine_alternative
    cb = _resolve_progress(progress, B, float(B) * n * s, "pairwise")
    n_valid = np.full((s, s), B, dtype=np.int64)

    if req.mode == "independent":
        counts = np.zeros((s, s), dtype=np.uint64)
        pair = 0
        for i in range(s):
            for j in range(i + 1, s):
                pair += 1
                table2 = np.ascontiguousarray(np.concatenate([stats.values[i], stats.values[j]], axis=1))
                d_obs = float(obs[j] - obs[i])
                alt_ji = {"greater": "less", "less": "greater"}.get(native_alt, native_alt)

                # both directions count on one stream of δ* (−δ* for (j, i)), in bounded memory
                def setup(summary: Any, total: int, d_obs: float = d_obs, alt_ji: str = alt_ji) -> None:
                    summary.add_bootstrap_rule(nv, native_alt, orient, d_obs)
                    summary.add_bootstrap_rule(nv, alt_ji, orient, -d_obs, True)

                ps = _summarize_pair(table2, req, B, setup, pair)
                counts[i, j], counts[j, i] = (int(c) for c in ps.summary.counts())
                n_valid[i, j] = n_valid[j, i] = ps.n_valid
                if cb is not None:
                    cb(pair, s * (s - 1) // 2)
        resampling_used = _resampling_label(None, req) if req.clusters is not None else req.resampling
    else:
        table = np.ascontiguousarray(stats.values.transpose(1, 0, 2).reshape(n, s * k))
        obs_list = [float(x) for x in obs]
        if m.native is not None and not m.on_items and req.draws == "sigfast":
            shards: Sequence[tuple[int, int]] = _Shards(B, req.shard_size)
            if req.backend == "local":
                shards = [(0, B)]
            args = (m.handle, req.seed, req.resampling, obs_list, nv, native_alt, orient, None)
            args = args + (req.n_threads, req.stream, None if req.clusters is None else req.clusters.codes)
            counts, sum_of_blocks, distinct = _run_shards(req.backend, table, shards, args, cb, s)
            if req.variant in _CENTRED:
                means = (sum_of_blocks / B).ravel().tolist()
                args = args[:7] + (means, *args[8:])
                counts, _, _ = _run_shards(req.backend, table, shards, args, cb, s)
        else:
            if req.backend != "local":
                raise InputError(
                    f"{m.name} runs locally only (a Python metric, an item statistic or draws={req.draws!r}); "
                    "use backend='local'"
                )
            counts, block_sums, distinct, valid = _python_pair_counts(table, req, s, B, obs_list, None, cb)
            if req.variant in _CENTRED:
                means = _blocked_means(block_sums, valid).ravel().tolist()
                counts, _, _, valid = _python_pair_counts(table, req, s, B, obs_list, means, cb)
            n_valid[:] = valid
        resampling_used = _resampling_label(distinct, req)

    cnt = counts.astype(np.float64)
    if (n_valid == B).all():
        pv = (cnt + 1) / (B + 1) if req.plus_one else cnt / B
    else:
        nvf = n_valid.astype(np.float64)
        pv = (cnt + 1) / (nvf + 1) if req.plus_one else cnt / nvf
    np.fill_diagonal(pv, np.nan)
    delta = obs[None, :] - obs[:, None]
    values = p_best = expected_rank = None
    if req.correction == ROMANO_WOLF or req.bootstrap_ranks or req.return_distribution:
        values = resampled_scores(req)  # the draws the counts above were read from
    if req.correction == ROMANO_WOLF:
        from .pairwise import _romano_wolf_matrix

        adjusted = _romano_wolf_matrix(values, obs, req.alternative, req.plus_one)
    else:
        adjusted = _adjust_matrix(pv, req.correction, req.alpha)
    if req.bootstrap_ranks:
        from .pairwise import bootstrap_ranks

        p_best, expected_rank, _ = bootstrap_ranks(values, m.higher_is_better)
    omitted = int((B - n_valid).max())
    return PairwiseResult(
        signature=_signature(req, "pairwise_bootstrap", resampling=resampling_used),
        groups=req.groups,
        display_scale=m.display_scale,
        systems=stats.systems,
        metric=m.name,
        higher_is_better=m.higher_is_better,
        scores=np.asarray(obs),
        delta=delta,
        pvalues=pv,
        counts=counts,
        adjusted=adjusted,
        correction=req.correction,
        alpha=req.alpha,
        variant=req.variant,
        alternative=req.alternative,
        n_resamples=B,
        seed=int(req.seed or 0),
        pvalue_method="(c+1)/(B+1)" if req.plus_one else "c/B",
        mode=req.mode,
        resampling=resampling_used,
        n_items=n,
        version=_native.__version__,
        stream_version=req.stream,
        labels=dict(req.labels),
        combinations=req.combinations,
        warnings=_unit_warnings(req) + (_omitted_warning(B - omitted, B) if omitted else ()),
        n_valid=n_valid if omitted else None,
        nan_policy=req.nan_policy,
        n_clusters=_n_clusters(req),
        p_best=p_best,
        expected_rank=expected_rank,
        distribution=values if req.return_distribution else None,
    )


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


@dataclass(frozen=True)
class AsoRequest:
    """Everything that decides ASO's bootstrap (:mod:`sigfast.seeds`), validated once (:meth:`of`), as
    :class:`Request` is for the paired tests: the systems' scores (one per random seed) with their
    names, the pairs compared, the quantile-grid step ``dt``, B, seed, threads and the stream version; ``keep`` keeps
    every resample's violation ratios. (A request of its own: ASO resamples each system's seeds
    apart, unpaired, so none of :class:`Request`'s statistics, metric or paired schemes apply.)"""

    arrays: tuple[np.ndarray, ...]
    names: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    dt: float
    n_resamples: int
    seed: int
    n_threads: int
    keep: bool = False
    #: the random stream version (:func:`sigfast._options.check_stream`)
    stream: int = DEFAULT_STREAM

    @classmethod
    @shared_options
    def of(
        cls,
        arrays: Sequence[np.ndarray],
        names: Sequence[str],
        pairs: Sequence[tuple[int, int]],
        *,
        dt: Any,
        n_resamples: Any,
        seed: Any,
        n_threads: Any = None,
        keep: bool = False,
        stream: Any = None,
    ) -> AsoRequest:
        """The request with each setting checked (the scores are checked by :mod:`sigfast.seeds`)."""
        try:
            step = float(dt)
        except (TypeError, ValueError):
            raise InputError(f"dt must be a number, got {dt!r}") from None
        if not 0.0 < step < 1.0:
            raise InputError(f"dt must be in (0, 1), got {dt!r}")
        if len(names) != len(arrays):
            raise InputError(f"{len(arrays)} systems but {len(names)} names")
        if any(not (0 <= i < len(arrays) and 0 <= j < len(arrays) and i != j) for i, j in pairs):
            raise InputError(f"pairs must name two different systems among {len(arrays)}, got {list(pairs)}")
        return cls(
            arrays=tuple(arrays),
            names=tuple(str(n) for n in names),
            pairs=tuple((int(i), int(j)) for i, j in pairs),
            dt=step,
            n_resamples=check_resamples(n_resamples),
            seed=check_seed(seed),
            n_threads=check_threads(n_threads),
            keep=bool(keep),
            stream=stream,
        )

    @property
    def grid_points(self) -> int:
        """Points of the quantile grid the violation ratio is integrated on."""
        return len(_native.aso_grid(self.dt))


def run_aso(req: AsoRequest, progress: Any = None) -> tuple[list[float], list[float], list[float], np.ndarray | None]:
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
