"""Clustered items: which items belong together, and what that does to a standard error.

Items of an evaluation are often not independent: several questions on one
passage, the segments of one document, the two halves of a Winograd-style
pair. Resampling items as if they were independent then understates the
uncertainty; Miller (2024, "Adding Error Bars to Evals") shows by how much.

A :class:`Clusters` value holds one cluster per item, as dense codes
``0 .. G-1`` numbered in order of first appearance, and where the keys came
from (``field``). :func:`resolve` picks the clusters of a request (an
explicit ``clusters=`` argument, or ``Statistics.provenance["clusters"]``
that the log readers fill from ``-o cluster=FIELD``); the executor then
resamples whole clusters (``resampling="clusters"``), and the signature
records ``resampling:clusters(G,field)`` and hashes the assignment with the
data.

:func:`cluster_se` is the cluster-robust (CR1) standard error of a mean of
per-item values: with residuals e_i = v_i − mean(v) summed within each
cluster (E_g = Σ_{i∈g} e_i),

    SE² = G / (G − 1) · Σ_g E_g² / n²,

the sandwich estimator of an intercept-only least-squares fit with the
small-sample factor G/(G−1) (statsmodels' ``cov_type="cluster"``, whose
other factor (n − 1)/(n − k) is 1 for k = 1 regressor). Singleton clusters
give the heteroskedasticity-robust HC1 error, n/(n − 1) · Σ e_i² / n², which
equals the usual s/√n. The design effect is (SE_cluster / SE_iid)², with
SE_iid = s/√n (s: the sample standard deviation, ddof = 1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InputError

__all__ = ["Clusters", "cluster_se", "codes_of", "power_of_two_scale", "resolve", "two_way_se", "unscale"]


def codes_of(keys: Any) -> tuple[np.ndarray, list[Any]]:
    """Dense cluster codes (uint32, numbered in order of first appearance) and the distinct keys in
    that order, from one key per item (strings, numbers or any hashable)."""
    if isinstance(keys, np.ndarray) and keys.dtype != object and keys.ndim == 1:
        uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return np.ascontiguousarray(rank[inverse].astype(np.uint32)), [k.item() for k in uniq[order]]
    seen: dict[Any, int] = {}
    out = np.empty(len(keys), dtype=np.uint32)
    for i, k in enumerate(keys):
        if k is None or (isinstance(k, float) and math.isnan(k)):
            raise InputError(f"item {i} has no cluster key ({k!r}); every item needs one")
        try:
            out[i] = seen.setdefault(k, len(seen))
        except TypeError:
            raise InputError(f"cluster key of item {i} is {k!r}, not a key (strings or numbers)") from None
    return out, list(seen)


@dataclass(frozen=True, eq=False)
class Clusters:
    """One cluster per item: ``codes[i]`` in ``0 .. n_clusters-1`` (first appearance order),
    ``field`` the field or rule the keys came from, ``keys`` the distinct keys by code."""

    codes: np.ndarray
    field: str
    keys: tuple[Any, ...] = ()

    @classmethod
    def from_keys(cls, keys: Any, field: str | None = None, n_items: int | None = None, what: str = "") -> Clusters:
        """Clusters from one key per item; ``n_items`` checks the length (``what`` says where they came from)."""
        if isinstance(keys, Clusters):
            spec = keys
        else:
            if isinstance(keys, (str, bytes)) or not hasattr(keys, "__len__"):
                raise InputError(
                    f"clusters= must hold one cluster key per item (a list or array), got {type(keys).__name__}"
                )
            if hasattr(keys, "to_numpy"):  # a pandas Series
                keys = keys.to_numpy()
            try:
                arr = np.asarray(keys) if not isinstance(keys, np.ndarray) else keys
            except ValueError:  # ragged keys ([[1], 2, 3]): codes_of names the item whose key is no key
                arr = np.empty(len(keys), dtype=object)
                for i, key in enumerate(keys):
                    arr[i] = key
            if arr.ndim != 1:
                raise InputError(f"clusters= must be one key per item (1-D); got shape {arr.shape}")
            if arr.dtype.kind == "f" and np.isnan(arr).any():
                raise InputError(f"item {int(np.flatnonzero(np.isnan(arr))[0])} has no cluster key (NaN)")
            codes, uniq = codes_of(arr if arr.dtype != object else list(arr))
            spec = cls(codes, field or "given", tuple(uniq))
        if n_items is not None and len(spec.codes) != n_items:
            src = f" ({what})" if what else ""
            raise InputError(
                f"{len(spec.codes)} cluster keys{src} for {n_items} items: give one cluster per item, in the items' "
                "order (keys read with the items go stale when the statistics are cut to other items: pass "
                "clusters= for the items you test)"
            )
        return spec

    def __post_init__(self) -> None:
        c = np.ascontiguousarray(self.codes, dtype=np.uint32)
        c.flags.writeable = False
        object.__setattr__(self, "codes", c)

    @property
    def n_items(self) -> int:
        return int(self.codes.shape[0])

    @property
    def n_clusters(self) -> int:
        return int(self.codes.max()) + 1 if self.codes.size else 0

    @property
    def sizes(self) -> np.ndarray:
        """Items per cluster, by code."""
        return np.bincount(self.codes, minlength=self.n_clusters)

    @property
    def label(self) -> str:
        """``clusters(G,field)``: how the signature and results name the scheme."""
        from ..results.signature import Part, _value

        return Part(f"clusters({self.n_clusters},{_value(self.field)})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Clusters) and self.field == other.field and np.array_equal(self.codes, other.codes)

    def __hash__(self) -> int:
        return hash((self.field, self.codes.tobytes()))

    def __repr__(self) -> str:
        return f"Clusters({self.n_clusters} clusters of {self.n_items} items, field={self.field!r})"


def resolve(stats: Any, clusters: Any, resampling: str) -> Clusters | None:
    """The clusters a request resamples, or None.

    ``clusters`` given (one key per item, or a :class:`Clusters`): those, and
    ``resampling`` must be ``"auto"`` or ``"clusters"``. Else, with
    ``resampling`` ``"auto"`` or ``"clusters"``, the statistics' own cluster
    keys (``provenance["clusters"]``, read by a log reader's ``-o
    cluster=FIELD``) when present; ``"clusters"`` without any is an error.
    ``"items"`` (or ``"distinct"``) resamples items even where keys exist.
    """
    prov: Mapping[str, Any] = getattr(stats, "provenance", None) or {}
    if clusters is not None and clusters is not False:
        if resampling not in ("auto", "clusters"):
            raise InputError(
                f"clusters= asks for cluster resampling, but resampling={resampling!r} asks for another; "
                "leave resampling='auto' (or 'clusters')"
            )
        return Clusters.from_keys(clusters, None, stats.n_items, "clusters=")
    if clusters is False or resampling not in ("auto", "clusters"):
        return None
    keys = prov.get("clusters")
    if keys is None and "clusters" in prov.get("stale", ()):
        raise InputError(
            "these statistics were read with cluster keys, but their items were changed since "
            "(Statistics.replace), so the keys no longer fit: pass clusters= (one key per item) for the items "
            "you test, Statistics.take() to cut items with their keys, or resampling='items'"
        )
    if keys is None:
        if resampling == "clusters":
            raise InputError(
                "resampling='clusters' needs the items' clusters: pass clusters= (one key per item), or read the "
                "logs with their cluster field (-o cluster=FIELD)"
            )
        return None
    field = str(prov.get("cluster_field") or "clusters")
    return Clusters.from_keys(keys, field, stats.n_items, f"Statistics.provenance['clusters'], field {field!r}")


def few_clusters_warning(spec: Clusters | None) -> tuple[str, ...]:
    """The warning results carry when there are too few clusters to resample."""
    from .options import MIN_ITEMS

    if spec is None or spec.n_clusters >= MIN_ITEMS:
        return ()
    g = spec.n_clusters
    return (
        f"only {g} cluster{'s' if g != 1 else ''} ({spec.field}): cluster resampling needs at least {MIN_ITEMS} "
        "clusters to say anything; with so few, intervals and p-values are meaningless",
    )


# --------------------------------------------------------------------------------------------
# cluster-robust standard errors


def power_of_two_scale(values: np.ndarray) -> int:
    """The exponent k such that values · 2^-k are of moderate size (largest magnitude near 1), or 0 when
    they already are: means, residuals and their squares of scores near 1e300 (or 1e-300) then neither
    overflow nor underflow, and scaling by a power of two changes no bit of the result."""
    finite = np.abs(values[np.isfinite(values)])
    top = float(finite.max()) if finite.size else 0.0
    if top == 0.0 or 2.0**-400 < top < 2.0**400:
        return 0
    return math.frexp(top)[1]


def cluster_se(values: Any, codes: np.ndarray | None = None) -> tuple[float, float]:
    """(mean, standard error) of per-item ``values``: cluster-robust (CR1, see the module docstring)
    when ``codes`` (dense cluster codes) are given, else s/√n; NaN where it is undefined (fewer than
    two items, or two clusters). Sums run in item order (residuals) and in cluster order (their
    squares), on the values scaled by a power of two where they are huge or tiny
    (:func:`power_of_two_scale`)."""
    v = np.asarray(values, dtype=np.float64)
    k = power_of_two_scale(v)
    if k:
        v = np.ldexp(v, -k)
    n = v.shape[0]
    mean = float(np.sum(v) / n) if n else math.nan
    if codes is None:
        se = math.nan if n < 2 else float(math.sqrt(float(np.sum((v - mean) ** 2)) / (n - 1) / n))
    else:
        var = _cr1_sum(v - mean, codes)
        se = math.nan if math.isnan(var) else float(math.sqrt(var) / n)
    return (unscale(mean, k), unscale(se, k)) if k else (mean, se)


def _cr1_sum(resid: np.ndarray, codes: np.ndarray) -> float:
    """G/(G − 1) · Σ_g E_g² (E_g: the residuals summed within cluster g), n² times the CR1 variance of
    the mean; NaN with fewer than two clusters."""
    g = int(codes.max()) + 1
    if g < 2:
        return math.nan
    e = np.bincount(codes, weights=resid, minlength=g)
    return g / (g - 1) * float(np.sum(e * e))


def intersection_codes(codes: np.ndarray, codes2: np.ndarray) -> np.ndarray:
    """Dense codes of the cells of two clusterings (items in the same cluster of both)."""
    g2 = int(codes2.max()) + 1 if codes2.size else 1
    return codes_of(codes.astype(np.uint64) * np.uint64(g2) + codes2.astype(np.uint64))[0]


def two_way_se(values: Any, codes: np.ndarray, codes2: np.ndarray) -> tuple[float, float]:
    """(mean, standard error) of per-item ``values`` clustered two ways (Cameron, Gelbach and Miller
    2011): V = V₁ + V₂ − V₁₂, each term the CR1 variance of :func:`cluster_se` with its own G/(G − 1)
    factor (V₁₂ over the cells of both clusterings; singleton cells give HC1), as statsmodels'
    ``cov_type="cluster"`` with two columns of groups computes it. V can be negative; the standard
    error is then NaN (as statsmodels' is), never a number; NaN also with fewer than two clusters of
    either kind."""
    v = np.asarray(values, dtype=np.float64)
    k = power_of_two_scale(v)
    if k:
        v = np.ldexp(v, -k)
    n = v.shape[0]
    mean = float(np.sum(v) / n) if n else math.nan
    resid = v - mean
    var = _cr1_sum(resid, codes) + _cr1_sum(resid, codes2) - _cr1_sum(resid, intersection_codes(codes, codes2))
    se = float(math.sqrt(var) / n) if var >= 0 else math.nan
    return (unscale(mean, k), unscale(se, k)) if k else (mean, se)


def unscale(x: float, k: int) -> float:
    """x · 2^k, infinite (not an OverflowError) beyond the largest float."""
    try:
        return math.ldexp(x, k)
    except OverflowError:
        return math.copysign(math.inf, x)
