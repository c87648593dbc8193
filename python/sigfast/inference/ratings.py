"""Bradley–Terry ratings of pairwise battles with model-based, sandwich and cluster-robust intervals.

:func:`bradley_terry` fits the model by maximum likelihood on a count table (:class:`~sigfast.formats.battles.
BattleTable`; the fit and the three covariance matrices are computed by the Rust core, ``_native.battles_fit``) and
reports it on the Elo scale: ``rating = offset + scale · (θ − θ_anchor) / ln(base)`` (FastChat's
``400·θ/ln 10 + 1000``; without an anchor, θ is centred: Σθ = 0 over the fitted models).

Standard errors (``se=``):

``model``
    the inverse of the Fisher information (the observed information of the fitted likelihood). With ties as half
    a win this is a quasi-likelihood, and the sandwich is the honest choice.
``sandwich``
    ``H⁻¹ G H⁻¹`` with ``G = Σ_battles w² s sᵀ`` (``s`` a battle's score): arena-rank's default
    (``arena_rank.models.bradley_terry.BradleyTerry.compute_hessian_and_covariance``). Where sigfast departs:
    arena-rank adds ``hessian_reg · N`` (1e-5 × the number of battles, unweighted data) to the Hessian's diagonal
    and inverts it; sigfast by default uses the inverse under the constraint Σθ = 0 (the Moore–Penrose inverse,
    no ridge): ``ridge=`` adds arena-rank's term (``ridge=1e-5 * n_battles`` reproduces it to rounding; for
    weighted data arena-rank's ridge is 1e-5 itself). With a ridge, sigfast projects the result onto Σθ = 0,
    which removes only the rounding that ``1/ridge²`` amplifies along the ratings' null direction.
``cluster``
    the cluster-robust sandwich: ``G = G/(G−1) · Σ_clusters S_c S_cᵀ`` with ``S_c`` the summed score of a
    cluster's battles (the ``G/(G−1)`` small-sample factor of Stata's ``vce(cluster)``, without its
    ``(N−1)/(N−K)``). Every battle its own cluster gives the sandwich times ``G/(G−1)``.

With an anchor, a rating's standard error is that of ``θ_i − θ_anchor`` (the anchor's is 0); without one, that of
the centred ``θ_i``. Intervals are ``rating ± z · se``. Ranks follow FastChat's rule (``1 +`` the number of models
whose lower bound exceeds this one's upper bound); ``worst_rank`` is the number of models whose upper bound reaches
this one's lower bound. Tiers (:attr:`Ratings.tier`) cut the models, in rating order, where a model's rating is
significantly below the first model of the current tier (a z test of the difference with the full covariance).

A model whose battles against the rest are only wins (or only losses) has no finite maximum-likelihood rating. It
is not fitted: its status says ``only wins`` (``only losses``, or ``disconnected``), its rating is NaN, a
:class:`~sigfast.exceptions.ScorerWarning` names it, and its interval is one-sided: from the likelihood-ratio bound
(the drop of ``z²/2`` in the log-likelihood of its battles with the fitted models, their ratings held at their
estimates) to +∞ (or from −∞). ``bootstrap=B`` resamples battles or whole clusters (:func:`bradley_terry`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine.options import DEFAULT_SEED, check_seed, shared_options
from ..exceptions import InputError, ScorerWarning
from ..formats.battles import BattleTable, read_battles, table_from_arrays
from ..results.base import Key, Result, flat_row

__all__ = [
    "BootstrapRatings",
    "PairedWinRate",
    "Ratings",
    "WinRates",
    "battle_table",
    "bradley_terry",
    "paired_win_rate",
    "rank_intervals",
    "rating_tables",
    "win_rates",
]

SE_METHODS = ("model", "sandwich", "cluster")
TIE_MODELS = ("half", "davidson")
_STATUS = {0: "fitted", 1: "only wins", -1: "only losses", 2: "disconnected"}


def _z(level: float) -> float:
    from scipy.stats import norm

    if not (0.0 < level < 1.0):
        raise InputError(f"level must be in (0, 1), not {level!r}")
    return float(norm.ppf(0.5 + level / 2.0))


def rank_intervals(lower: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank intervals from rating intervals by FastChat's rule: the best rank is 1 + the number of models whose
    lower bound exceeds this one's upper bound; the worst rank is the number of models whose upper bound reaches
    this one's lower bound (itself included). A NaN bound counts as unknown: −∞ for a lower bound, +∞ for an
    upper one."""
    lo = np.where(np.isnan(lower), -np.inf, np.asarray(lower, dtype=float))
    hi = np.where(np.isnan(upper), np.inf, np.asarray(upper, dtype=float))
    best = 1 + np.sum(lo[None, :] > hi[:, None], axis=1)
    worst = np.sum(hi[None, :] >= lo[:, None], axis=1)
    return best.astype(int), worst.astype(int)


def battle_table(battles: Any, **options: Any) -> BattleTable:
    """A :class:`BattleTable` from a table, a path (read with the ``battles`` format's options), or columns: a
    mapping or DataFrame with ``model_a``, ``model_b``, ``winner`` (and the ``cluster=``/``weight=`` columns)."""
    if isinstance(battles, BattleTable):
        if options:
            raise InputError(f"options {sorted(options)} apply to reading a file, not to a BattleTable")
        return battles
    if hasattr(battles, "columns") or isinstance(battles, Mapping):
        cols = battles
        cl, wt = options.pop("cluster", None), options.pop("weight", None)
        if options:
            raise InputError(f"unknown options for columns: {sorted(options)} (cluster=, weight= name columns)")
        for need in ("model_a", "model_b", "winner", *(c for c in (cl, wt) if c)):
            if need not in cols:
                raise InputError(f"no column {need!r} in the battles given")
        return table_from_arrays(
            list(cols["model_a"]),
            list(cols["model_b"]),
            list(cols["winner"]),
            cluster=None if cl is None else list(cols[cl]),
            weight=None if wt is None else list(cols[wt]),
        )
    from ..formats import spec

    return read_battles(battles, **spec("battles").validate(options))


@dataclass(frozen=True)
class BootstrapRatings(Result):
    """The bootstrap of a Bradley–Terry fit: percentile intervals of each rating on the fit's Elo scale,
    P(rank 1), and how many resamples could not rate each model (``not_rated``: in those the model had only
    wins or only losses, or no battle; its interval is over the other resamples and says so).
    ``failed``: resamples where no two models could be rated. ``draws``: the ratings, B × models (NaN: not
    rated). ``rank``/``worst_rank``: the rank interval from the percentile intervals (FastChat's rule,
    :func:`rank_intervals`); ``group``: significance groups, cut (in the fit's rating order) where the
    percentile interval of the difference between the group's first model and this one, over the resamples
    that rate both, lies above 0."""

    scheme: str
    B: int
    seed: int
    stream: int
    level: float
    models: tuple[str, ...]
    lower: np.ndarray
    upper: np.ndarray
    p_rank1: np.ndarray
    not_rated: np.ndarray
    failed: int
    draws: np.ndarray = field(repr=False)
    signature: str = ""
    rank: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    worst_rank: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    group: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))

    _keys = ("scheme", "B", "seed", "stream", "level", "failed", Key("models", "model_rows"), "signature")

    def model_rows(self) -> list[dict[str, Any]]:
        """One record per model: percentile interval (None where no resample rated it), P(rank 1), not rated,
        rank interval and significance group."""

        def f(x: float) -> float | None:
            return None if not np.isfinite(x) else float(x)

        return [
            {
                "model": m,
                "lower": f(self.lower[i]),
                "upper": f(self.upper[i]),
                "p_rank1": float(self.p_rank1[i]),
                "not_rated": int(self.not_rated[i]),
                "rank": int(self.rank[i]),
                "worst_rank": int(self.worst_rank[i]),
                "group": int(self.group[i]),
            }
            for i, m in enumerate(self.models)
        ]


@dataclass(frozen=True)
class Ratings(Result):
    """A Bradley–Terry fit on the Elo scale (see the module's documentation); ``win_rates``, where asked for
    (``sigfast rate --baseline``), each model's win rate against a baseline beside it."""

    models: tuple[str, ...]
    rating: np.ndarray
    se: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    status: tuple[str, ...]
    rank: np.ndarray
    worst_rank: np.ndarray
    tier: np.ndarray
    se_model: np.ndarray
    se_sandwich: np.ndarray
    se_cluster: np.ndarray
    theta: np.ndarray
    cov: np.ndarray = field(repr=False)
    se_method: str = "sandwich"
    ties: str = "half"
    scale: float = 400.0
    base: float = 10.0
    offset: float = 1000.0
    anchor: str | None = None
    level: float = 0.95
    ridge: float = 0.0
    nu: float = float("nan")
    n_battles: int = 0
    n_clusters: int = 0
    cluster_field: str | None = None
    loglik: float = float("nan")
    warnings: tuple[str, ...] = ()
    data: str = ""
    win_rates: WinRates | None = None
    signature: str = ""
    bootstrap: BootstrapRatings | None = None
    covariates: tuple[str, ...] = ()
    coef: np.ndarray = field(default_factory=lambda: np.zeros(0))
    coef_se_model: np.ndarray = field(default_factory=lambda: np.zeros(0))
    coef_se_sandwich: np.ndarray = field(default_factory=lambda: np.zeros(0))
    coef_se_cluster: np.ndarray = field(default_factory=lambda: np.zeros(0))

    _keys = (
        Key("models", "model_rows"),
        "se_method",
        "ties",
        "scale",
        "base",
        "offset",
        "anchor",
        "level",
        "ridge",
        "nu",
        "n_battles",
        "n_clusters",
        "cluster_field",
        "win_probability",
        Key("win_rates", when="win_rates"),
        Key("bootstrap", when="bootstrap"),
        Key("style", "coefficient_rows", when="covariates"),
        "warnings",
        "signature",
    )

    def coefficient_rows(self) -> list[dict[str, Any]]:
        """Style control: one record per covariate, its coefficient (on the logit scale, per standard deviation
        of the feature) and its three standard errors."""

        def f(x: float) -> float | None:
            return None if not np.isfinite(x) else float(x)

        return [
            {
                "covariate": c,
                "coef": float(self.coef[j]),
                "se_model": f(self.coef_se_model[j]),
                "se_sandwich": f(self.coef_se_sandwich[j]),
                "se_cluster": f(self.coef_se_cluster[j]),
            }
            for j, c in enumerate(self.covariates)
        ]

    @property
    def factor(self) -> float:
        """Elo points per unit of θ: scale / ln(base)."""
        return self.scale / math.log(self.base)

    @property
    def design_effect(self) -> np.ndarray:
        """Per model: (cluster-robust SE / sandwich SE)², the variance inflation from the clusters."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self.se_cluster / self.se_sandwich) ** 2

    def win_probability(self) -> np.ndarray:
        """P(row model beats column model), a tie counting half (under Davidson: P(win) + P(tie)/2)."""
        t = self.theta
        d = t[:, None] - t[None, :]
        if self.ties == "davidson":
            nu = self.nu
            pa = np.exp(t[:, None])
            pb = np.exp(t[None, :])
            pt = nu * np.sqrt(pa * pb)
            p = (pa + pt / 2) / (pa + pb + pt)
        else:
            p = 1.0 / (1.0 + np.exp(-d))
        np.fill_diagonal(p, np.nan)
        return p

    def model_rows(self) -> list[dict[str, Any]]:
        """One record per model: rating, interval (None for an infinite end), status, rank, tier and the three
        standard errors."""

        def f(x: float) -> float | None:
            return None if not np.isfinite(x) else float(x)

        return [
            {
                "model": m,
                "rating": f(self.rating[i]),
                "se": f(self.se[i]),
                "lower": None if self.lower[i] == -np.inf else f(self.lower[i]),
                "upper": None if self.upper[i] == np.inf else f(self.upper[i]),
                "status": self.status[i],
                "rank": int(self.rank[i]),
                "worst_rank": int(self.worst_rank[i]),
                "tier": int(self.tier[i]),
                "se_model": f(self.se_model[i]),
                "se_sandwich": f(self.se_sandwich[i]),
                "se_cluster": f(self.se_cluster[i]),
            }
            for i, m in enumerate(self.models)
        ]

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row per model (the CSV and ``to_frame``); with a bootstrap, its interval, rank interval,
        group and P(rank 1) as ``boot_*`` columns."""
        recs = self.model_rows()
        if self.bootstrap is not None:
            for r, b in zip(recs, self.bootstrap.model_rows()):
                r.update({f"boot_{k}": v for k, v in b.items() if k != "model"})
        return [flat_row({**r, "signature": self.signature}) for r in recs]

    def ranks(self, interval: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The rank interval (best, worst) of every model by FastChat's rule (:func:`rank_intervals`) from the
        intervals of ``interval``: ``model``, ``sandwich``, ``cluster`` (rating ± z·SE of that kind, the
        one-sided intervals of unfitted models kept) or ``bootstrap`` (the percentile intervals); None: the
        fit's own intervals (``rank``, ``worst_rank``)."""
        if interval is None or interval == self.se_method:
            return rank_intervals(self.lower, self.upper)
        if interval == "bootstrap":
            if self.bootstrap is None:
                raise InputError("no bootstrap in this result: fit with bootstrap=B")
            return rank_intervals(self.bootstrap.lower, self.bootstrap.upper)
        if interval not in SE_METHODS:
            raise InputError(f"unknown interval {interval!r}; one of {', '.join((*SE_METHODS, 'bootstrap'))}")
        se = {"model": self.se_model, "sandwich": self.se_sandwich, "cluster": self.se_cluster}[interval]
        if interval == "cluster" and not self.n_clusters:
            raise InputError("no cluster-robust intervals: the battles have no cluster field")
        z = _z(self.level)
        fitted = np.array([s == "fitted" for s in self.status])
        lo = np.where(fitted, self.rating - z * se, self.lower)
        hi = np.where(fitted, self.rating + z * se, self.upper)
        return rank_intervals(lo, hi)

    def tables(self) -> list[Any]:
        return rating_tables(self, self.win_rates, signature=self.signature)

    def order(self) -> list[int]:
        """Model indices by rating, best first (unfitted: only-wins first, only-losses and disconnected last)."""
        key = []
        for i, s in enumerate(self.status):
            r = self.rating[i]
            key.append((0 if s == "only wins" else 2 if s != "fitted" else 1, -r if np.isfinite(r) else 0.0, i))
        return [k[2] for k in sorted(key)]


@shared_options
def bradley_terry(
    battles: Any,
    *,
    ties: str = "half",
    se: str = "sandwich",
    scale: float = 400.0,
    base: float = 10.0,
    offset: float = 1000.0,
    anchor: str | None = None,
    level: float = 0.95,
    ridge: float = 0.0,
    bootstrap: int = 0,
    cluster_bootstrap: bool | None = None,
    seed: int = DEFAULT_SEED,
    stream: int | None = None,
    n_threads: int | None = None,
    **options: Any,
) -> Ratings:
    """Bradley–Terry ratings of ``battles`` by maximum likelihood, on the Elo scale, with intervals.

    ``battles``: a battle file (options of the ``battles`` format: ``schema=``, ``layout=``, ``cluster=``,
    ``weight=``, ``strong=``, ``baseline=``), a :class:`BattleTable`, or columns (a mapping or DataFrame with
    ``model_a``, ``model_b``, ``winner``; ``cluster=``/``weight=`` name columns). ``ties``: ``half`` (a tie is
    half a win on each side) or ``davidson``. ``se``: ``model``, ``sandwich`` or ``cluster`` (needs a cluster
    field). ``anchor``: a model placed at ``offset`` (FastChat anchors one model). ``ridge``: added to the
    information's diagonal (arena-rank's ``hessian_reg · N``; 0: none). See the module's documentation.
    ``bootstrap=B`` (B > 0) adds :class:`BootstrapRatings` (``.bootstrap``): B resamples of whole clusters
    (with a cluster field; ``cluster_bootstrap=False``: of battles) or of battles, each refitted from the full
    fit, from the random stream ``(seed, "boot", b)`` of version ``stream``; the same bytes for any ``n_threads``.
    """
    from .. import _native
    from ..results.signature import build, hash_data

    if ties not in TIE_MODELS:
        raise InputError(f"unknown tie model {ties!r}; one of {', '.join(TIE_MODELS)}")
    if se not in SE_METHODS:
        raise InputError(f"unknown standard error {se!r}; one of {', '.join(SE_METHODS)}")
    for nm, v in (("scale", scale), ("base", base), ("offset", offset), ("ridge", ridge)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InputError(f"{nm} must be a finite number, not {v!r}")
    if scale <= 0 or base <= 1:
        raise InputError(f"scale must be > 0 and base > 1 (got scale={scale!r}, base={base!r})")
    if ridge < 0:
        raise InputError(f"ridge must be ≥ 0, not {ridge!r}")
    z = _z(level)
    t = battle_table(battles, **options)
    if se == "cluster" and t.cluster_field is None:
        raise InputError("se='cluster' needs a cluster field (-o cluster=FIELD, e.g. judge or question_id)")
    m = len(t.models)
    if anchor is not None and anchor not in t.models:
        raise InputError(f"anchor {anchor!r} is not among the models ({', '.join(t.models[:8])}…)")
    ai = None if anchor is None else t.models.index(anchor)
    r = _native.battles_fit(
        t.a, t.b, t.outcome, t.cluster, t.w, t.w2, m, ties, ridge=float(ridge), crit=z * z / 2.0, anchor=ai
    )
    style = _style(t, r, ties, ridge, bootstrap) if t.battles is not None else None
    if style is not None:
        r = {**r, **style}
    theta_all = np.asarray(r["theta"], dtype=float)
    status_codes = np.asarray(r["status"])
    fitted = [int(i) for i in r["fitted"]]
    k = len(fitted)
    pos = {i: j for j, i in enumerate(fitted)}
    if ai is not None and ai not in pos:
        raise InputError(f"anchor {anchor!r} cannot be rated: it has {_STATUS[int(status_codes[ai])]}")
    fac = scale / math.log(base)

    def ses(cov: np.ndarray) -> np.ndarray:
        c = np.asarray(cov)[:k, :k]
        out = np.full(m, np.nan)
        for i in fitted:
            j = pos[i]
            if ai is None:
                v = c[j, j]
            else:
                q = pos[ai]
                v = c[j, j] + c[q, q] - 2 * c[j, q]
            out[i] = fac * math.sqrt(max(v, 0.0))
        return out

    se_m, se_s, se_c = ses(r["cov_model"]), ses(r["cov_sandwich"]), ses(r["cov_cluster"])
    if t.cluster_field is None:
        se_c = np.full(m, np.nan)
    chosen = {"model": se_m, "sandwich": se_s, "cluster": se_c}[se]
    cov = {"model": r["cov_model"], "sandwich": r["cov_sandwich"], "cluster": r["cov_cluster"]}[se]
    shift = 0.0 if ai is None else theta_all[ai]
    rating = offset + fac * (theta_all - shift)
    lower = rating - z * chosen
    upper = rating + z * chosen
    status = tuple(_STATUS[int(s)] for s in status_codes)
    bound = np.asarray(r["bound"], dtype=float)
    notes = []
    for i, s in enumerate(status):
        if s == "fitted":
            continue
        b = offset + fac * (bound[i] - shift) if np.isfinite(bound[i]) else np.nan
        if s == "only wins":
            lower[i], upper[i] = (b if np.isfinite(b) else -np.inf), np.inf
        elif s == "only losses":
            lower[i], upper[i] = -np.inf, (b if np.isfinite(b) else np.inf)
        else:
            lower[i], upper[i] = -np.inf, np.inf
        what = {
            "only wins": "only won against the rated models",
            "only losses": "only lost against the rated models",
            "disconnected": "has battles that do not connect it to the rated models both ways",
        }[s]
        side = (
            f"; its rating is at least {lower[i]:.1f} ({level * 100:g}% likelihood-ratio bound)"
            if s == "only wins" and np.isfinite(lower[i])
            else f"; its rating is at most {upper[i]:.1f} ({level * 100:g}% likelihood-ratio bound)"
            if s == "only losses" and np.isfinite(upper[i])
            else ""
        )
        notes.append(f"model {t.models[i]!r} {what}: it has no finite Bradley–Terry rating and is not fitted{side}")
    for n in notes:
        warnings.warn(n, ScorerWarning, stacklevel=2)
    # ranks (FastChat's rule) and tiers
    rank, worst = rank_intervals(lower, upper)
    tier = np.zeros(m, dtype=int)
    c = np.asarray(cov)[:k, :k]
    order = sorted(
        range(m),
        key=lambda i: (0 if status[i] == "only wins" else 2 if status[i] != "fitted" else 1, -np.nan_to_num(rating[i])),
    )
    cur, head = 0, None
    for i in order:
        if status[i] != "fitted":
            cur += 1
            tier[i] = cur
            head = None
            continue
        if head is None:
            cur += 1
            head = i
        else:
            jh, ji = pos[head], pos[i]
            v = c[jh, jh] + c[ji, ji] - 2 * c[jh, ji]
            d = theta_all[head] - theta_all[i]
            if v > 0 and d / math.sqrt(v) > z:
                cur += 1
                head = i
        tier[i] = cur
    theta = np.where(np.isfinite(theta_all), theta_all - shift, np.nan)
    boot = None
    if bootstrap:
        boot = _bootstrap(
            t, ties, int(bootstrap), cluster_bootstrap, seed, stream, n_threads, level, ai, fac, offset, order
        )
        notes += list(boot.warnings)
        boot = boot.result
    return Ratings(
        models=t.models,
        rating=rating,
        se=chosen,
        lower=lower,
        upper=upper,
        status=status,
        rank=rank,
        worst_rank=worst,
        tier=tier,
        se_model=se_m,
        se_sandwich=se_s,
        se_cluster=se_c,
        theta=theta,
        cov=np.asarray(cov),
        se_method=se,
        ties=ties,
        scale=float(scale),
        base=float(base),
        offset=float(offset),
        anchor=anchor,
        level=level,
        ridge=float(ridge),
        nu=math.exp(r["log_nu"]) if ties == "davidson" else float("nan"),
        n_battles=t.n_battles,
        n_clusters=int(r["n_clusters"]) if t.cluster_field else 0,
        cluster_field=t.cluster_field,
        loglik=float(r["loglik"]),
        warnings=tuple(notes),
        data=hash_data(t.models, t.a, t.b, t.outcome, t.cluster, t.w, t.w2),
        signature=build(
            "bradley_terry",
            variant=ties,
            se=se,
            format=_format_part(t),
            scale=float(scale),
            base=float(base),
            offset=float(offset),
            anchor=anchor or "mean",
            conf=level,
            ridge=float(ridge),
            items=t.n_battles,
            clusters=int(r["n_clusters"]) if t.cluster_field else None,
            data=hash_data(t.models, t.a, t.b, t.outcome, t.cluster, t.w, t.w2),
            scheme=None if boot is None else boot.scheme,
            B=None if boot is None else boot.B,
            seed=None if boot is None else boot.seed,
            stream=None if boot is None else boot.stream,
        ),
        bootstrap=boot,
        **_coef_fields(t, r),
    )


def _style(t: BattleTable, r: Mapping[str, Any], ties: str, ridge: float, bootstrap: int) -> dict[str, Any]:
    """The covariate-adjusted fit (style control) of the battles' rows: θ and the covariances over the models
    (then the covariates), in place of the plain fit's."""
    from .. import _native

    if ties != "half" or ridge or bootstrap:
        raise InputError(
            "style control (-o covariates=) fits ties as half a win, without a ridge or a bootstrap; leave "
            "ties, ridge and bootstrap at their defaults"
        )
    bad = [t.models[i] for i, s in enumerate(r["status"]) if s != 0]
    if bad:
        raise InputError(
            f"style control needs every model rated by the plain fit; {', '.join(map(repr, bad[:5]))} has only wins, "
            "only losses or no connection: remove its battles"
        )
    bt = t.battles
    assert bt is not None
    f = _native.battles_fit_adjusted(bt["a"], bt["b"], bt["outcome"], bt["cluster"], bt["w"], bt["x"], len(t.models))
    return {
        "theta": f["theta"],
        "beta": f["beta"],
        "cov_model": f["cov_model"],
        "cov_sandwich": f["cov_sandwich"],
        "cov_cluster": f["cov_cluster"],
        "loglik": f["loglik"],
        "n_clusters": f["n_clusters"],
    }


def _coef_fields(t: BattleTable, r: Mapping[str, Any]) -> dict[str, Any]:
    """The style-control coefficients and their standard errors (nothing without covariates)."""
    if "beta" not in r:
        return {}
    m = len(t.models)

    def se(cov: Any) -> np.ndarray:
        c = np.asarray(cov)
        return np.sqrt(np.maximum(np.diag(c)[m:], 0.0))

    return {
        "covariates": t.covariate_names,
        "coef": np.asarray(r["beta"], dtype=float),
        "coef_se_model": se(r["cov_model"]),
        "coef_se_sandwich": se(r["cov_sandwich"]),
        "coef_se_cluster": se(r["cov_cluster"]) if t.cluster_field else np.full(len(t.covariate_names), np.nan),
    }


@dataclass(frozen=True)
class _Boot:
    result: BootstrapRatings
    warnings: tuple[str, ...]


def _bootstrap(
    t: BattleTable,
    ties: str,
    B: int,
    by_cluster: bool | None,
    seed: int,
    stream: int,
    n_threads: int | None,
    level: float,
    ai: int | None,
    fac: float,
    offset: float,
    order: list[int],
) -> _Boot:
    """The bootstrap of the fit (see :func:`bradley_terry`), on the fit's Elo scale and anchor."""
    from .. import _native
    from ..results.signature import build, hash_data

    if isinstance(B, bool) or B < 1:
        raise InputError(f"bootstrap must be a positive number of resamples, not {B!r}")
    if by_cluster is None:
        by_cluster = t.cluster_field is not None
    if by_cluster and t.cluster_field is None:
        raise InputError("cluster_bootstrap=True needs a cluster field (-o cluster=FIELD, e.g. question_id)")
    if not by_cluster and not np.all(t.w == np.round(t.w)):
        raise InputError(
            "the bootstrap over battles needs unit weights (whole battle counts per cell); resample weighted "
            "battles by cluster (-o cluster=FIELD)"
        )
    seed = check_seed(seed)
    threads = 0 if n_threads is None else int(n_threads)
    m = len(t.models)
    v = np.asarray(
        _native.battles_bootstrap(
            t.a,
            t.b,
            t.outcome,
            t.cluster,
            t.w,
            t.w2,
            m,
            ties,
            by_cluster,
            _native.Job(seed, B, threads=threads, stream=stream),
        )
    )
    theta = v[:, :m]
    failed = int(np.sum(np.all(np.isnan(theta), axis=1)))
    if ai is not None:
        theta = theta - theta[:, [ai]]
    draws = offset + fac * theta
    not_rated = np.sum(np.isnan(draws), axis=0)
    lower = np.full(m, np.nan)
    upper = np.full(m, np.nan)
    for i in range(m):
        x = draws[:, i]
        x = x[np.isfinite(x)]
        if x.size:
            lower[i], upper[i] = _native.percentile_interval(np.ascontiguousarray(x), level)
    # P(rank 1): the share of the B resamples in which the model has the highest rating among those rated
    best = np.zeros(m)
    ok = ~np.all(np.isnan(draws), axis=1)
    top = np.nanargmax(np.where(np.isnan(draws[ok]), -np.inf, draws[ok]), axis=1) if ok.any() else np.array([], int)
    np.add.at(best, top, 1.0)
    p1 = best / B
    rank, worst = rank_intervals(lower, upper)
    # significance groups in the fit's order: a new group where the percentile interval of (head − model) > 0
    group = np.zeros(m, dtype=int)
    cur, head = 0, None
    for i in order:
        if head is not None:
            d = draws[:, head] - draws[:, i]
            d = d[np.isfinite(d)]
            if d.size == 0 or _native.percentile_interval(np.ascontiguousarray(d), level)[0] > 0:
                head = None
        if head is None:
            cur += 1
            head = i
        group[i] = cur
    scheme = f"clusters({t.cluster_field})" if by_cluster else "battles"
    notes = []
    for i in range(m):
        if not_rated[i]:
            notes.append(
                f"model {t.models[i]!r} could not be rated in {int(not_rated[i])} of {B} bootstrap resamples "
                "(only wins or only losses there): its bootstrap interval is over the other resamples only"
            )
    if failed:
        notes.append(f"{failed} of {B} bootstrap resamples could rate no two models")
    for n in notes:
        warnings.warn(n, ScorerWarning, stacklevel=3)
    sig = build(
        "bradley_terry_bootstrap",
        variant=ties,
        format=_format_part(t),
        scheme=scheme,
        B=B,
        seed=seed,
        stream=stream,
        conf=level,
        items=t.n_battles,
        data=hash_data(t.models, t.a, t.b, t.outcome, t.cluster, t.w, t.w2),
    )
    res = BootstrapRatings(
        scheme=scheme,
        B=B,
        seed=seed,
        stream=stream,
        level=level,
        models=t.models,
        lower=lower,
        upper=upper,
        p_rank1=p1,
        not_rated=not_rated,
        failed=failed,
        draws=draws,
        signature=sig,
        rank=rank,
        worst_rank=worst,
        group=group,
    )
    return _Boot(res, tuple(notes))


def _format_part(t: BattleTable) -> Any:
    """``battles[...]``: the options the battles were read with, for the signature."""
    from ..results.signature import format_part

    opts = {
        "schema": t.schema,
        "cluster": t.cluster_field,
        "weight": t.weight_field,
        "covariates": ",".join(c for c in t.covariate_names) or None,
    }
    return format_part({"format": "battles", "options": {k: v for k, v in opts.items() if v is not None}})


@dataclass(frozen=True)
class WinRates(Result):
    """Each model's win rate against a baseline (a tie counting half) with its interval."""

    baseline: str
    models: tuple[str, ...]
    rate: np.ndarray
    se: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    battles: np.ndarray
    clusters: np.ndarray
    level: float
    cluster_field: str | None
    signature: str = ""

    _keys = ("baseline", "level", "cluster_field", Key("models", "model_rows"), "signature")

    def model_rows(self) -> list[dict[str, Any]]:
        """One record per model: win rate, its standard error and interval, battles and clusters."""
        return [
            {
                "model": m,
                "win_rate": float(self.rate[i]),
                "se": float(self.se[i]),
                "lower": float(self.lower[i]),
                "upper": float(self.upper[i]),
                "battles": float(self.battles[i]),
                "clusters": int(self.clusters[i]),
            }
            for i, m in enumerate(self.models)
        ]

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row per model (the CSV and ``to_frame``)."""
        return [flat_row({"baseline": self.baseline, **r, "signature": self.signature}) for r in self.model_rows()]

    def tables(self) -> list[Any]:
        return [_win_rate_table(self, self.signature)]


def _win_rate_table(wr: WinRates, signature: str = "") -> Any:
    from ..results.report import Table

    wrows = tuple(
        (
            wr.models[i],
            round(float(wr.rate[i]), 4),
            round(float(wr.lower[i]), 4),
            round(float(wr.upper[i]), 4),
            round(float(wr.se[i]), 4),
            float(wr.battles[i]),
            int(wr.clusters[i]),
        )
        for i in np.argsort(-wr.rate, kind="stable")
    )
    return Table(
        ("model", "win_rate", "lower", "upper", "se", "battles", "clusters"),
        wrows,
        title=f"Win rate against {wr.baseline} (ties count half)",
        notes=("SE: " + (f"cluster-robust over {wr.cluster_field}" if wr.cluster_field else "over battles"),),
        signature=signature,
    )


def rating_tables(r: Ratings, wr: WinRates | None = None, *, signature: str = "") -> list[Any]:
    """The leaderboard (and the win rates) as :class:`sigfast.report.Table` for every output style."""
    from ..results.report import Table

    def num(x: float, nd: int = 1) -> Any:
        return round(float(x), nd) if np.isfinite(x) else ("+inf" if x == np.inf else "-inf" if x == -np.inf else "")

    rows = []
    for i in r.order():
        rows.append(
            (
                int(r.rank[i]),
                r.models[i],
                num(r.rating[i]),
                num(r.lower[i]),
                num(r.upper[i]),
                num(r.se[i], 2),
                num(r.se_sandwich[i], 2),
                num(r.se_cluster[i], 2) if r.n_clusters else "",
                num(r.design_effect[i], 2) if r.n_clusters else "",
                int(r.tier[i]),
                r.status[i],
            )
        )
    anchor = f"{r.anchor} at {r.offset:g}" if r.anchor else f"mean rating {r.offset:g}"
    notes = [
        f"Elo scale: {r.offset:g} + {r.scale:g}·θ/ln({r.base:g}), {anchor}; ties: {r.ties}"
        + (f" (Davidson ν = {r.nu:.4g})" if r.ties == "davidson" else "")
        + f"; interval: rating ± z·se ({r.se_method} SE, {r.level * 100:g}%); {r.n_battles} battles",
        "rank: 1 + models whose lower bound exceeds this one's upper bound (FastChat); tier: cut where a model is "
        "significantly below the tier's first",
    ]
    if r.n_clusters:
        notes.append(f"clusters: {r.cluster_field} ({r.n_clusters}); deff = (cluster SE / sandwich SE)²")
    notes += [f"warning: {w}" for w in r.warnings]
    head = ("rank", "model", "rating", "lower", "upper", "se", "se_sandwich", "se_cluster", "deff", "tier", "status")
    out = [Table(head, tuple(rows), title="Bradley–Terry ratings", notes=tuple(notes), signature=signature)]
    bt = r.bootstrap
    if bt is not None:
        brows = tuple(
            (
                r.models[i],
                num(bt.lower[i]),
                num(bt.upper[i]),
                f"{int(bt.rank[i])}-{int(bt.worst_rank[i])}",
                int(bt.group[i]),
                round(float(bt.p_rank1[i]), 4),
                int(bt.not_rated[i]),
            )
            for i in r.order()
        )
        bnotes = (
            f"{bt.B} resamples of {bt.scheme}, each refitted from the full fit; percentile interval "
            f"({bt.level * 100:g}%) on the same Elo scale; P(rank 1): share of resamples where the model rates "
            f"highest; not_rated: resamples where it had only wins or only losses; {bt.failed} resamples failed",
            "ranks: best-worst rank from the bootstrap intervals (FastChat's rule); group: cut where the "
            "bootstrap interval of the difference from the group's first model lies above 0",
        )
        out.append(
            Table(
                ("model", "boot_lower", "boot_upper", "ranks", "group", "p_rank1", "not_rated"),
                brows,
                title="Bootstrap of the ratings",
                notes=bnotes,
                signature=bt.signature,
            )
        )
    if r.covariates:
        srows = tuple(
            (
                c["covariate"],
                round(c["coef"], 4),
                num(c["se_model"] if c["se_model"] is not None else np.nan, 4),
                num(c["se_sandwich"] if c["se_sandwich"] is not None else np.nan, 4),
                num(c["se_cluster"] if c["se_cluster"] is not None else np.nan, 4) if r.n_clusters else "",
            )
            for c in r.coefficient_rows()
        )
        out.append(
            Table(
                ("covariate", "coef", "se_model", "se_sandwich", "se_cluster"),
                srows,
                title="Style control: covariate coefficients",
                notes=(
                    "ratings adjusted for these covariates: P(a beats b) = σ(θa − θb + Σ coef·x), x = (x_a − x_b)/"
                    "(x_a + x_b) standardized over the battles; coef on the logit scale per standard deviation",
                ),
                signature=signature,
            )
        )
    if wr is not None:
        out.append(_win_rate_table(wr))
    return out


def win_rates(battles: Any, baseline: str, *, level: float = 0.95, **options: Any) -> WinRates:
    """Win rate of every model against ``baseline`` (arena-hard-auto / AlpacaEval style: the weighted mean of 1
    for a win, ½ for a tie, 0 for a loss over its battles with the baseline), with the cluster-robust standard
    error of that ratio estimate (each battle its own cluster without a cluster field; ``G/(G−1)`` factor with
    one), and a normal interval."""
    from ..results.signature import build, hash_data

    z = _z(level)
    t = battle_table(battles, **options)
    if baseline not in t.models:
        raise InputError(f"baseline {baseline!r} is not among the models ({', '.join(t.models[:8])})")
    bi = t.models.index(baseline)
    others = [i for i in range(len(t.models)) if i != bi]
    rate, se_, lo, hi, nb, ncl = [], [], [], [], [], []
    for i in others:
        sel = ((t.a == i) & (t.b == bi)) | ((t.a == bi) & (t.b == i))
        if not sel.any():
            raise InputError(f"model {t.models[i]!r} has no battle with the baseline {baseline!r}")
        a, o, c, w, w2 = t.a[sel], t.outcome[sel], t.cluster[sel], t.w[sel], t.w2[sel]
        y = np.where(o == 2, 0.5, np.where((o == 0) == (a == i), 1.0, 0.0))
        big_w = w.sum()
        p = float((w * y).sum() / big_w)
        if t.cluster_field is None:
            var = float((w2 * (y - p) ** 2).sum()) / big_w**2
            g = 0
        else:
            sums: dict[int, float] = {}
            for ci, wi, yi in zip(c, w, y):
                sums[int(ci)] = sums.get(int(ci), 0.0) + wi * (yi - p)
            g = len(sums)
            var = sum(s * s for s in sums.values()) / big_w**2 * (g / (g - 1) if g > 1 else 1.0)
        s = math.sqrt(var)
        rate.append(p)
        se_.append(s)
        lo.append(p - z * s)
        hi.append(p + z * s)
        nb.append(big_w)
        ncl.append(g)
    return WinRates(
        baseline=baseline,
        models=tuple(t.models[i] for i in others),
        rate=np.array(rate),
        se=np.array(se_),
        lower=np.array(lo),
        upper=np.array(hi),
        battles=np.array(nb),
        clusters=np.array(ncl, dtype=int),
        level=level,
        cluster_field=t.cluster_field,
        signature=build(
            "win_rates",
            format=_format_part(t),
            baseline=baseline,
            conf=level,
            items=t.n_battles,
            data=hash_data(t.models, t.a, t.b, t.outcome, t.cluster, t.w, t.w2),
        ),
    )


@dataclass(frozen=True)
class PairedWinRate(Result):
    """The paired test of two models' win rates against one baseline, judged on the same prompts: the
    difference ``rate_a − rate_b``, its cluster-robust standard error, interval and two-sided p-value."""

    model_a: str
    model_b: str
    baseline: str
    rate_a: float
    rate_b: float
    difference: float
    se: float
    lower: float
    upper: float
    z: float
    pvalue: float
    level: float
    n_clusters: int
    shared_clusters: int
    cluster_field: str
    signature: str = ""

    _keys = (
        "model_a",
        "model_b",
        "baseline",
        "rate_a",
        "rate_b",
        "difference",
        "se",
        "lower",
        "upper",
        "z",
        "pvalue",
        "level",
        "n_clusters",
        "shared_clusters",
        "cluster_field",
        "signature",
    )

    def tables(self) -> list[Any]:
        from ..results.report import Table

        row = (
            self.model_a,
            self.model_b,
            round(self.rate_a, 4),
            round(self.rate_b, 4),
            round(self.difference, 4),
            round(self.lower, 4),
            round(self.upper, 4),
            round(self.se, 4),
            f"{self.pvalue:.3g}",
        )
        return [
            Table(
                ("model_a", "model_b", "rate_a", "rate_b", "difference", "lower", "upper", "se", "pvalue"),
                (row,),
                title=f"Paired win rates against {self.baseline} (ties count half)",
                notes=(
                    f"cluster-robust over {self.cluster_field} ({self.n_clusters} clusters, {self.shared_clusters} "
                    f"with battles of both models); z test, {self.level * 100:g}% interval",
                ),
                signature=self.signature,
            )
        ]


def paired_win_rate(
    battles: Any, model_a: str, model_b: str, baseline: str, *, level: float = 0.95, **options: Any
) -> PairedWinRate:
    """Does ``model_a``'s win rate against ``baseline`` differ from ``model_b``'s, both judged on the same prompts?

    Each win rate is that of :func:`win_rates` (the weighted mean of 1 for a win, ½ for a tie, 0 for a loss over
    the model's battles with the baseline). The battles must carry a cluster field (``cluster=``: the prompt,
    e.g. ``question_id``): the two rates are correlated through the prompts they share, and the standard error
    of the difference is the cluster-robust one of the two ratio estimates together: with ``u_c`` the sum over
    cluster c of ``w (y − rate_a) / W_a`` over A's battles minus the same for B's,
    ``se² = G/(G−1) · Σ_c u_c²`` (G: the clusters with a battle of either model; the ``G/(G−1)`` factor of
    :func:`win_rates`). Interval ``difference ± z·se``, two-sided normal p-value."""
    from scipy.stats import norm

    from ..results.signature import build, hash_data

    z = _z(level)
    t = battle_table(battles, **options)
    if t.cluster_field is None:
        raise InputError(
            "a paired test of two win rates needs the battles' prompt as a cluster field (cluster=question_id, "
            "-o cluster=FIELD): without it the two rates' shared prompts are not known"
        )
    for nm in (model_a, model_b, baseline):
        if nm not in t.models:
            raise InputError(f"model {nm!r} is not among the models ({', '.join(t.models[:8])})")
    if len({model_a, model_b, baseline}) < 3:
        raise InputError("model_a, model_b and the baseline must be three different models")
    bi = t.models.index(baseline)
    g = len(t.clusters)
    u = np.zeros(g)
    seen = np.zeros((2, g), dtype=bool)
    rates = []
    for side, name in enumerate((model_a, model_b)):
        i = t.models.index(name)
        sel = ((t.a == i) & (t.b == bi)) | ((t.a == bi) & (t.b == i))
        if not sel.any():
            raise InputError(f"model {name!r} has no battle with the baseline {baseline!r}")
        a, o, c, w = t.a[sel], t.outcome[sel], t.cluster[sel].astype(np.int64), t.w[sel]
        y = np.where(o == 2, 0.5, np.where((o == 0) == (a == i), 1.0, 0.0))
        big_w = float(w.sum())
        p = float((w * y).sum() / big_w)
        rates.append(p)
        np.add.at(u, c, (1.0 if side == 0 else -1.0) * w * (y - p) / big_w)
        seen[side, c] = True
    used = seen.any(axis=0)
    n_cl = int(used.sum())
    if n_cl < 2:
        raise InputError("the paired test needs battles in at least 2 clusters")
    var = float(np.sum(u[used] ** 2)) * n_cl / (n_cl - 1)
    se = math.sqrt(var)
    d = rates[0] - rates[1]
    if not se > 0:
        raise InputError(
            "the two win rates have no sampling variance here (every battle with the baseline has the same "
            "outcome): there is nothing to test"
        )
    zs = d / se
    pv = max(float(2.0 * norm.sf(abs(zs))), float(np.nextafter(0.0, 1.0)))  # a p-value is never 0
    return PairedWinRate(
        model_a=model_a,
        model_b=model_b,
        baseline=baseline,
        rate_a=rates[0],
        rate_b=rates[1],
        difference=d,
        se=se,
        lower=d - z * se,
        upper=d + z * se,
        z=float(zs),
        pvalue=float(pv),
        level=level,
        n_clusters=n_cl,
        shared_clusters=int((seen[0] & seen[1]).sum()),
        cluster_field=t.cluster_field,
        signature=build(
            "paired_win_rate",
            format=_format_part(t),
            models=f"{model_a},{model_b}",
            baseline=baseline,
            conf=level,
            items=t.n_battles,
            clusters=n_cl,
            data=hash_data(t.models, t.a, t.b, t.outcome, t.cluster, t.w, t.w2),
        ),
    )
