"""Statistics that are not sums: the bootstrap over items of a median, a
quantile, a correlation, an AUC or any vectorized Python callable.

Resample ``b`` draws its item indices from the same counter-based stream as
:func:`sigfast.paired_bootstrap` (``(seed, "boot", b)``), so the resamples
are the same for any statistic, any thread count and any block size.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from . import _native
from ._progress import ProgressArg
from ._progress import resolve as _resolve_progress
from .exceptions import InputError, MetricError
from .results import ConfidenceInterval, _plain
from .significance import _NATIVE_VARIANT, _VARIANTS, DEFAULT_SEED, _check_int, _plus_one, _threads

__all__ = ["ITEM_STATISTICS", "ItemBootstrapResult", "item_bootstrap", "item_indices", "item_statistic"]


def _registry() -> dict[str, tuple[int, str]]:
    from .metrics import get, specs

    out = {"mean": (1, "arithmetic mean")}
    for spec in specs():
        if spec.get("kind") == "items":
            out[spec["name"]] = (get(spec["name"]).n_stats, spec["description"])
    return out


#: Built-in item statistics: name -> (number of inputs, description). Read off the one metric
#: registry (the entries of kind "items"), plus the mean.
ITEM_STATISTICS: dict[str, tuple[int, str]] = _registry()
_ALIASES = {"tau_b": "kendall_b", "tau_c": "kendall_c", "accuracy": "pairwise_accuracy"}
_INDEX_BUDGET = 1 << 22  # indices per block handed to a Python callable


def resolve_statistic(statistic: str, params: dict[str, Any]) -> tuple[str, dict[str, float]]:
    """The canonical name and float parameters of a built-in item statistic, validated by the
    metric registry (names, aliases, parameter ranges)."""
    from .metrics import _item_params, get

    name = _ALIASES.get(str(statistic).lower(), str(statistic).lower())
    if name == "mean":
        if params:
            raise MetricError(f"item statistic 'mean' takes no parameters, got {sorted(params)}")
        return name, {}
    if name not in ITEM_STATISTICS and name != "kendall":
        raise MetricError(f"unknown item statistic {statistic!r}; choose one of {', '.join(ITEM_STATISTICS)}")
    m = get(name, **{k: v for k, v in params.items() if v is not None})
    given = {k for k, v in params.items() if v is not None}
    return str(m.native), {k: v for k, v in _item_params(m).items() if k in given or name == "quantile"}


def _label(name: str, params: dict[str, float]) -> str:
    if not params:
        return name
    return name + "(" + ",".join(f"{k}={v:g}" for k, v in sorted(params.items())) + ")"


def _vec(a: Any, what: str) -> np.ndarray:
    v = np.asarray(a)
    if v.ndim != 1:
        raise InputError(f"{what} must be 1-D (one value per item), got shape {v.shape}")
    if not (np.issubdtype(v.dtype, np.number) or v.dtype == np.bool_):
        raise InputError(f"{what}: expected numbers, got dtype {v.dtype}")
    v = np.ascontiguousarray(v, dtype=np.float64)
    if not np.all(np.isfinite(v)):
        i = int(np.argmax(~np.isfinite(v)))
        raise InputError(f"{what} has a non-finite value {v[i]} at item {i}")
    return v


def item_statistic(x: Any, y: Any = None, statistic: str = "median", **params: Any) -> float:
    """A built-in item statistic of ``x`` (and reference ``y`` for two-input statistics)."""
    name, p = resolve_statistic(statistic, params)
    xv = _vec(x, "x")
    if ITEM_STATISTICS[name][0] == 2:
        if y is None:
            raise InputError(f"{name} needs a reference y (human scores or labels)")
        yv = _vec(y, "y")
        if yv.size != xv.size:
            raise InputError(f"x has {xv.size} items, y has {yv.size}")
        return float(_native.item_statistic(name, p, xv, yv))
    return float(_native.item_statistic(name, p, xv, None))


def item_indices(n: int, *, n_resamples: int, seed: int = DEFAULT_SEED, start: int = 0) -> np.ndarray:
    """Item indices of bootstrap resamples ``start .. start + n_resamples`` (``(n_resamples, n)``, int64).

    Exactly the draws :func:`item_bootstrap` (and :func:`sigfast.paired_bootstrap`
    with ``resampling="items"``) use, whatever the block.
    """
    n = _check_int("n", n, 1, 2**32)
    count = _check_int("n_resamples", n_resamples, 0)
    start = _check_int("start", start, 0)
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    return np.asarray(_native.item_indices(n, seed, start, count))


@dataclass(frozen=True)
class ItemBootstrapResult:
    """A bootstrap over items of one system (interval) or two (paired test).

    ``statistic`` is stat(x) for one system and δ = stat(y) − stat(x) for two;
    ``pvalue`` is None for one system. ``n_valid`` counts the resamples on
    which the statistic was defined (a constant resample has no correlation);
    intervals and p-values use those.
    """

    test: str
    variant: str
    alternative: str
    statistic_name: str
    systems: tuple[str, ...]
    score_x: float
    score_y: float | None
    statistic: float
    pvalue: float | None
    count: int | None
    n_resamples: int
    n_valid: int
    pvalue_method: str
    seed: int
    n_items: int
    confidence_level: float
    confidence_interval: ConfidenceInterval
    score_x_interval: ConfidenceInterval
    score_y_interval: ConfidenceInterval | None
    version: str
    stream_version: int
    distribution: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def signature(self) -> str:
        return "|".join(
            [
                f"sigfast:{self.version}",
                f"test:{self.test}",
                f"variant:{self.variant}",
                f"alt:{self.alternative}",
                f"statistic:{self.statistic_name}",
                f"n:{self.n_resamples}",
                f"seed:{self.seed}",
                f"p:{self.pvalue_method}",
                "resampling:items",
                f"rng:philox4x64-10+xoshiro256pp/v{self.stream_version}",
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        out = {k: _plain(v) for k, v in self.__dict__.items() if k != "distribution"}
        out["signature"] = self.signature
        return out

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        ci = self.confidence_interval
        cl = int(round(100 * self.confidence_level))
        lines = [f"{self.test}: {self.statistic_name} over {self.n_items} items, {self.n_resamples} resamples"]
        if self.score_y is None:
            lines.append(f"  {self.systems[0]}: {self.statistic:.6g}  {cl}% CI [{ci.low:.6g}, {ci.high:.6g}]")
        else:
            lines.append(f"  {self.systems[0]}: {self.score_x:.6g}   {self.systems[1]}: {self.score_y:.6g}")
            lines.append(
                f"  delta = {self.statistic:+.6g}  {cl}% CI [{ci.low:+.6g}, {ci.high:+.6g}]  p = {self.pvalue:.4g}"
            )
        if self.n_valid < self.n_resamples:
            lines.append(f"  ({self.n_resamples - self.n_valid} resamples left out: statistic undefined)")
        lines.append(f"  {self.signature}")
        return "\n".join(lines)


def _interval(v: np.ndarray, cl: float) -> ConfidenceInterval:
    v = np.ascontiguousarray(v[np.isfinite(v)])
    if v.size == 0:
        return ConfidenceInterval(math.nan, math.nan)
    return ConfidenceInterval(*_native.percentile_interval(v, cl))


def item_bootstrap(
    x: Any,
    y: Any = None,
    *,
    statistic: str | Callable[..., Any] = "median",
    reference: Any = None,
    systems: tuple[str, str] | None = None,
    n_resamples: int = 10_000,
    seed: int = DEFAULT_SEED,
    variant: Literal["bk", "koehn", "shifted"] = "bk",
    alternative: Literal["two-sided", "greater", "less"] | None = None,
    confidence_level: float = 0.95,
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
    **params: Any,
) -> ItemBootstrapResult:
    """Bootstrap over items of a statistic that is not a sum.

    Parameters
    ----------
    x, y
        One value per item for system x (and, for a paired test, system y).
    statistic
        A built-in name (:data:`ITEM_STATISTICS`: ``"median"``, ``"quantile"``
        (with ``q=``), ``"pearson"``, ``"spearman"``, ``"kendall_b"``,
        ``"kendall_c"``, ``"tau_like"``, ``"pairwise_accuracy"``,
        ``"acc_eq"``, ``"auc"``, ``"mean"``) or a callable vectorized over
        resamples: it receives an array ``(rows, n)`` of resampled values (and,
        with ``reference``, a second one of resampled reference values) and
        returns ``(rows,)``.
    reference
        For two-input statistics: the reference each system is correlated
        with (human scores; labels for ``"auc"``), resampled with the same
        indices.
    n_resamples, seed, variant, alternative, pvalue, n_threads, progress
        As in :func:`sigfast.paired_bootstrap`.
    **params
        Parameters of the statistic (``q``, ``threshold``, ``epsilon``).

    Returns
    -------
    ItemBootstrapResult
        One system: the statistic and its percentile interval. Two systems:
        δ = stat(y) − stat(x), its interval and a paired-bootstrap p-value.
    """
    xv = _vec(x, "x")
    n = xv.size
    if n == 0:
        raise InputError("no items")
    yv = None if y is None else _vec(y, "y")
    if yv is not None and yv.size != n:
        raise InputError(f"x has {n} items, y has {yv.size}")
    rv = None if reference is None else _vec(reference, "reference")
    if rv is not None and rv.size != n:
        raise InputError(f"x has {n} items, the reference has {rv.size}")
    B = _check_int("n_resamples", n_resamples, 1)
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    cl = float(confidence_level)
    if not 0 < cl < 1:
        raise InputError(f"confidence_level must be in (0, 1), got {confidence_level}")
    v = _VARIANTS.get(str(variant).lower())
    if v is None:
        raise InputError(f"unknown bootstrap variant {variant!r}; choose 'bk', 'koehn' or 'shifted'")
    if v == "shifted":
        alt = alternative or "two-sided"
        if alt not in ("two-sided", "greater", "less"):
            raise InputError(f"alternative must be 'two-sided', 'greater' or 'less', got {alt!r}")
    elif alternative is not None:
        raise InputError(f"the {v} bootstrap is one-sided in the observed direction; it takes no alternative=")
    else:
        alt = "observed-direction" if v == "berg-kirkpatrick" else "observed-winner"
    plus_one = _plus_one(pvalue)
    threads = _threads(n_threads)
    names = tuple(str(s) for s in systems) if systems is not None else (("x", "y") if yv is not None else ("x",))
    cols = [xv] if yv is None else [xv, yv]
    cb = _resolve_progress(progress, B, float(B) * n * len(cols), "bootstrap")

    if callable(statistic):
        if params:
            raise InputError(f"parameters {sorted(params)} are for built-in statistics, not a callable")
        label = getattr(statistic, "__name__", "callable")
        func = statistic

        def call(rows: np.ndarray, ref: np.ndarray | None) -> np.ndarray:
            out = np.asarray(func(rows) if ref is None else func(rows, ref), dtype=np.float64)
            if out.shape != (rows.shape[0],):
                raise MetricError(
                    f"statistic {label!r} must return one value per resample: got shape {out.shape} "
                    f"for {rows.shape[0]} resamples"
                )
            return out

        observed = [float(call(c[None, :], None if rv is None else rv[None, :])[0]) for c in cols]
        values = np.empty((B, len(cols)))
        step = max(1, min(B, _INDEX_BUDGET // n))
        for start in range(0, B, step):
            count = min(step, B - start)
            idx = np.asarray(_native.item_indices(n, seed, start, count))
            ref = None if rv is None else rv[idx]
            for s, c in enumerate(cols):
                values[start : start + count, s] = call(c[idx], ref)
            if cb is not None:
                cb(start + count, B)
    else:
        name, p = resolve_statistic(statistic, dict(params))
        label = _label(name, p)
        k = ITEM_STATISTICS[name][0]
        if k == 2 and rv is None:
            raise InputError(f"{name} correlates each system with a reference: pass reference= (human scores/labels)")
        if k == 1 and rv is not None:
            raise InputError(f"{name} is a statistic of one vector; it takes no reference=")
        table = np.ascontiguousarray(np.stack(cols if k == 1 else [a for c in cols for a in (c, rv)], axis=1))
        observed = [float(_native.item_statistic(name, p, c, rv if k == 2 else None)) for c in cols]
        values = np.asarray(_native.item_bootstrap_values(table, name, p, seed, 0, B, threads, cb))
    valid_x = values[:, 0]
    if yv is None:
        ci = _interval(valid_x, cl)
        return ItemBootstrapResult(
            test="bootstrap_interval",
            variant="percentile",
            alternative="none",
            statistic_name=label,
            systems=names,
            score_x=observed[0],
            score_y=None,
            statistic=observed[0],
            pvalue=None,
            count=None,
            n_resamples=B,
            n_valid=int(np.isfinite(valid_x).sum()),
            pvalue_method="none",
            seed=seed,
            n_items=n,
            confidence_level=cl,
            confidence_interval=ci,
            score_x_interval=ci,
            score_y_interval=None,
            version=_native.__version__,
            stream_version=_native.STREAM_VERSION,
            distribution=values if return_distribution else None,
        )
    deltas = values[:, 1] - values[:, 0]
    ok = np.isfinite(deltas)
    d = np.ascontiguousarray(deltas[ok])
    delta = observed[1] - observed[0]
    if d.size == 0 or not math.isfinite(delta):
        raise InputError(f"{label} is undefined on these items (constant values?); no test is possible")
    native_alt = alt if v == "shifted" else "two-sided"
    count, total, pv = _native.bootstrap_pvalue(d, delta, _NATIVE_VARIANT[v], native_alt, 1.0, plus_one)
    return ItemBootstrapResult(
        test="item_bootstrap",
        variant=v,
        alternative=alt,
        statistic_name=label,
        systems=names,
        score_x=observed[0],
        score_y=observed[1],
        statistic=delta,
        pvalue=float(pv),
        count=int(count),
        n_resamples=B,
        n_valid=int(total),
        pvalue_method="(c+1)/(B+1)" if plus_one else "c/B",
        seed=seed,
        n_items=n,
        confidence_level=cl,
        confidence_interval=_interval(deltas, cl),
        score_x_interval=_interval(values[:, 0], cl),
        score_y_interval=_interval(values[:, 1], cl),
        version=_native.__version__,
        stream_version=_native.STREAM_VERSION,
        distribution=values if return_distribution else None,
    )
