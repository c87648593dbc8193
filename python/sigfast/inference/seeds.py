"""Compare score distributions over random seeds: Almost Stochastic Order.

Deep-learning results vary with the random seed, so a paper compares the
*distributions* of scores over several seeds. Almost Stochastic Order (ASO;
Dror, Shlomov & Reichart 2019, after del Barrio, Cuesta-Albertos & Matrán
2018) measures how far the scores of A fail to dominate those of B:

* The violation ratio ε_W2(A, B) is the part of the squared 2-Wasserstein
  distance between the two empirical quantile functions where B's quantile
  function lies above A's. It is 0 when A's quantiles are everywhere at
  least B's, 1 when B's are everywhere higher.
* ε_min is a one-sided upper confidence bound on ε_W2: the observed ratio
  plus z₁₋α times the bootstrap standard deviation of the ratio. Because it
  is an *upper* bound, reading "A dominates B" from ε_min < τ is
  conservative.
* The reading rule of Dror et al. (2019) is τ = 0.5: below it, A is almost
  stochastically dominant over B. Ulmer, Hardmeier & Frellsen (2022) found
  that τ = 0.5 admits many false positives on small samples and suggest the
  stricter τ = 0.2; pass ``tau=0.2`` for that reading.

The numbers follow ``deepsig`` 1.2.8 (``deepsig.aso`` and
``deepsig.multi_aso``), except where listed below: its quantile function (the sorted score of rank
⌈n·t⌉), its integration grid ``numpy.arange(dt, 1, dt)`` with the first
point left out of the violation set, a violation ratio of 0.5 when the
distance is zero, σ̂ = √(nm/(n+m)) · sd(bootstrap ratios) with numpy's
population standard deviation, ε_min = clip(ε_W2 − σ̂/√(nm/(n+m)) ·
Φ⁻¹(1 − level), 0, 1), and, for several systems, ε_min(B, A) from
1 − ε_W2(A, B) with the same σ̂. The one difference is the random stream:
the bootstrap here draws from sigfast's counter-based stream, so one seed
gives the same bytes for any number of threads, and the bootstrap part of
ε_min agrees with deepsig's within Monte-Carlo error.

Multiple comparisons, and where sigfast departs from deepsig:

* ``correction="bonferroni"`` (the default) tests each of the m pairs at
  level 1 − α/m, as deepsig's documentation describes ("Bonferroni
  correction"). deepsig 1.2.8's *code* computes level + (1 − level)/m
  instead (``multi_aso(use_bonferroni=True)``, its default, and ``aso(...,
  num_comparisons=m)`` for m > 1), which is looser for m ≥ 3 (α(1 − 1/m)
  instead of α/m). So the default ε_min of sigfast differs from deepsig's
  default for m ≥ 3, and for two systems (below).
* ``correction="deepsig"`` reproduces deepsig 1.2.8's code: in
  :func:`compare_seeds`, ``multi_aso``'s level + (1 − level)/m for every
  m ≥ 1, so with two systems (m = 1) the level is 1.0, Φ⁻¹(0) = −∞ and
  every ε_min is 1 (NaN when the bootstrap spread is 0), as ``multi_aso``
  returns; in :func:`aso`, ``deepsig.aso``'s rule, which corrects only for
  m > 1 (with m = 1 the level stays as given). The two-system ε_min of 1 is
  deepsig's behaviour, not a finding: the result carries a warning.
* ``correction="none"`` leaves the level alone.

The other departure is the random stream (above): ε_min agrees with
deepsig's within Monte-Carlo error, not bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .. import _native
from .._api import checked_keywords, checked_module
from ..engine.options import DEFAULT_CONFIDENCE, DEFAULT_SEED
from ..engine.progress import ProgressArg
from ..exceptions import FormatError, InputError
from ..results.base import Key, Result, deprecated_alias, flat_row
from ..results.report import latex_escape

__all__ = [
    "DEFAULT_DT",
    "DEFAULT_RESAMPLES",
    "DEFAULT_TAU",
    "AsoResult",
    "SeedComparison",
    "SeedPair",
    "aso",
    "compare_seeds",
    "violation_ratio",
]

DEFAULT_RESAMPLES = 1000  # deepsig's num_bootstrap_iterations
DEFAULT_DT = 0.005  # deepsig's dt
DEFAULT_TAU = 0.5  # Dror et al. (2019)
STRICT_TAU = 0.2  # Ulmer et al. (2022)
_CORRECTIONS = ("bonferroni", "deepsig", "none")
_ALTERNATIVES = ("two-sided", "greater", "less")
_RULE = (
    "rule: A is almost stochastically dominant over B when ε_min < τ; τ = 0.5 is the rule of "
    "Dror et al. (2019), Ulmer et al. (2022) advise τ = 0.2 against false positives"
)


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _scores(values: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(values)
    except Exception as e:  # ragged lists and the like
        raise InputError(f"{name}: cannot read the scores as numbers ({e})") from None
    if arr.dtype == np.bool_ or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise InputError(f"{name}: expected numbers (one score per random seed), got dtype {arr.dtype}")
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise InputError(f"{name}: expected a 1-D list of scores (one per seed), got shape {arr.shape}")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if arr.size == 0:
        raise InputError(f"{name}: no scores; give at least 2 (one per random seed)")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{name}: score {i} is {arr[i]} (not a finite number); remove or rerun that seed")
    if arr.size < 2:
        raise InputError(f"{name}: ASO needs at least 2 scores (one per random seed), got 1")
    return arr


def _int(name: str, v: Any, lo: int, hi: int) -> int:
    from ..engine.executor import check_int

    return check_int(name, v, lo, hi)  # one integer check: a bool (n_resamples=True) is refused


def _unit(name: str, v: Any, closed_high: bool = False) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a number, got {v!r}") from None
    ok = 0.0 < f <= 1.0 if closed_high else 0.0 < f < 1.0
    if not ok:
        raise InputError(f"{name} must be in (0, 1{']' if closed_high else ')'}, got {v!r}")
    return f


def _adjusted_level(confidence_level: float, m: int, correction: str, *, multi: bool = False) -> float:
    """The level each pair is tested at. ``multi``: as ``deepsig.multi_aso`` (its correction applies
    for every m, so m = 1 gives 1.0); otherwise as ``deepsig.aso`` (only for m > 1)."""
    if not isinstance(correction, str) or correction not in _CORRECTIONS:
        raise InputError(f"correction must be one of {', '.join(_CORRECTIONS)}, got {correction!r:.60}")
    if correction == "none":
        return confidence_level
    if correction == "deepsig":
        if m <= 1 and not multi:
            return confidence_level
        return confidence_level + (1.0 - confidence_level) / m
    if m <= 1:
        return confidence_level
    return 1.0 - (1.0 - confidence_level) / m


def _deepsig_two_systems_warning(level: float, correction: str) -> tuple[str, ...]:
    if correction == "deepsig" and level >= 1.0:
        return (
            "correction='deepsig' reproduces deepsig 1.2.8's multi_aso, which raises the level to 1.0 for two "
            "systems (level + (1 - level)/1), so every eps_min is 1 whatever the scores; use "
            "correction='bonferroni' (deepsig.aso's level) for a usable bound",
        )
    return ()


def _epsilon(vr: float, sd: float, n_a: int, n_b: int, level: float) -> tuple[float, float]:
    """(ε_min, σ̂) as deepsig forms them from the bootstrap's population sd."""
    from .classical import _ndtri

    const = math.sqrt(n_a * n_b / (n_a + n_b))
    sigma_hat = const * sd
    with np.errstate(all="ignore"):  # level 1.0 (deepsig's two-system multi_aso): Φ⁻¹(0) = −∞
        eps = float(vr - (1.0 / const) * np.float64(sigma_hat) * _ndtri(1.0 - level))
    if math.isnan(eps):  # 0 · ∞, as numpy.clip(nan) in deepsig
        return math.nan, sigma_hat
    return min(1.0, max(0.0, eps)), sigma_hat


def _native_call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except ValueError as e:  # the core's Error::Input
        raise InputError(str(e)) from None


def _names(scores: Any) -> tuple[list[str], list[Any]]:
    if isinstance(scores, Mapping):
        names = [str(k) for k in scores]
        values = list(scores.values())
    else:
        if isinstance(scores, np.ndarray) and scores.ndim == 2:
            values = list(scores)
        elif isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence | np.ndarray):
            raise InputError("scores: give a dict {name: scores} or a list of score lists, one per system")
        else:
            values = list(scores)
        names = [f"system {i}" for i in range(len(values))]
    if len(set(names)) != len(names):
        raise InputError(f"system names must be distinct, got {names}")
    if len(values) < 2:
        raise InputError(f"ASO compares at least 2 systems, got {len(values)}")
    return names, values


def _run(req: Any, progress: ProgressArg) -> tuple[list[float], list[float], list[float], np.ndarray | None]:
    """ASO's bootstrap of a validated request (:mod:`sigfast.resampling.aso`), through the one runner."""
    from ..resampling import run

    try:
        return run(req, progress)  # type: ignore[no-any-return]
    except ValueError as e:  # the core's Error::Input
        if isinstance(e, InputError):
            raise
        raise InputError(str(e)) from None


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------


def _g(v: float) -> str:
    return f"{v:.4f}" if abs(v) < 1000 else f"{v:.4g}"


def _aso_signature(r: Any, test: str, **fields: Any) -> str:
    """The signature of an ASO result or comparison, in the one dialect."""
    from ..results.signature import build

    correction = None
    if r.num_comparisons > 1 and r.correction != "none":
        correction = f"{r.correction}(m={r.num_comparisons})={r.adjusted_confidence_level:.6g}"
    return build(
        test,
        variant=getattr(r, "variant", "deepsig"),
        B=r.n_resamples,
        seed=r.seed,
        conf=r.confidence_level,
        correction=correction,
        dt=r.dt,
        tau=r.tau,
        stream=r.stream_version or None,
        **fields,
    )


@dataclass(frozen=True)
class AsoResult(Result):
    """Almost Stochastic Order of system A over system B.

    ``statistic`` is ε_min: the upper ``adjusted_confidence_level`` bound on
    the violation ratio ε_W2(A, B) (``violation_ratio``), from the bootstrap
    standard deviation ``sigma`` (deepsig's σ̂). A is read as almost
    stochastically dominant over B when ``statistic < tau``
    (:attr:`dominant`, :attr:`reading`).
    """

    test: str
    variant: str
    systems: tuple[str, str]
    statistic: float
    violation_ratio: float
    sigma: float
    bootstrap_mean: float
    tau: float
    confidence_level: float
    adjusted_confidence_level: float
    correction: str
    num_comparisons: int
    n_resamples: int
    seed: int
    dt: float
    grid_points: int
    n_a: int
    n_b: int
    mean_a: float
    mean_b: float
    sd_a: float
    sd_b: float
    version: str = ""
    stream_version: int = 0
    distribution: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: A hash of the two systems' scores (:func:`sigfast.signature.hash_data`).
    data: str = ""

    _extra = ("dominant", "reading")

    @property
    def epsilon_min(self) -> float:
        """ε_min (the same as ``statistic``)."""
        return self.statistic

    @property
    def dominant(self) -> bool:
        """True when A is almost stochastically dominant over B: ε_min < τ."""
        return self.statistic < self.tau

    @property
    def reading(self) -> str:
        a, b = self.systems
        e = f"ε_min = {self.statistic:.4f}"
        if self.dominant:
            return f"{a} is almost stochastically dominant over {b} at {e} < τ = {self.tau:g}"
        return f"{a} is not shown to be almost stochastically dominant over {b}: {e} ≥ τ = {self.tau:g}"

    @property
    def signature(self) -> str:
        """What produced the result (:func:`sigfast.signature.build`): test, variant, systems, seeds per
        system, B, seed, confidence level (and its correction), dt, τ and a hash of the scores."""
        return _aso_signature(self, "aso", systems=list(self.systems), items=[self.n_a, self.n_b], data=self.data)

    def rows(self) -> list[dict[str, Any]]:
        row = flat_row(self.to_dict())
        row["a"], row["b"] = self.systems
        return [row]

    def _text(self) -> str:
        a, b = self.systems
        w = max(len(a), len(b), 6)
        level = f"{100 * self.adjusted_confidence_level:.4g}%"
        if self.adjusted_confidence_level != self.confidence_level:
            level += (
                f" ({100 * self.confidence_level:g}% with {self.correction} over {self.num_comparisons} comparisons)"
            )
        return (
            "\n".join(
                [
                    f"Almost Stochastic Order ({self.variant}): {a} over {b}",
                    f"  {a:<{w}}  mean {_g(self.mean_a)}  sd {_g(self.sd_a)}  ({self.n_a} seeds)",
                    f"  {b:<{w}}  mean {_g(self.mean_b)}  sd {_g(self.sd_b)}  ({self.n_b} seeds)",
                    f"  violation ratio ε_W2 = {self.violation_ratio:.4f}   σ̂ = {self.sigma:.4f}"
                    f"   ({self.n_resamples} bootstrap resamples)",
                    f"  ε_min = {self.statistic:.4f}   (upper {level} bound on ε_W2)",
                    f"  {self.reading}",
                    f"  {_RULE}",
                    f"  {self.signature}",
                ]
            )
            + "\n"
        )


@dataclass(frozen=True)
class SeedPair(Result):
    """One pair of systems: ASO both ways and the classical tests of A against B.

    ``welch`` and ``mann_whitney`` test A (as ``y``) against B (as ``x``):
    positive t and U above n_a·n_b/2 mean A scores higher.
    ``*_pvalue_adjusted`` are Bonferroni-adjusted over all pairs unless the
    correction is ``"none"``.
    """

    a: str
    b: str
    aso_ab: AsoResult
    aso_ba: AsoResult
    welch: Any
    mann_whitney: Any
    welch_pvalue_adjusted: float
    mann_whitney_pvalue_adjusted: float

    _keys = (
        *("signature", "a", "b", "verdict", "aso_ab", "aso_ba", "welch", "welch_pvalue_adjusted", "mann_whitney"),
        "mann_whitney_pvalue_adjusted",
    )

    @property
    def verdict(self) -> str:
        """ "A ≻ B", "B ≻ A" (almost stochastic dominance at τ) or "none"."""
        ab, ba = self.aso_ab.dominant, self.aso_ba.dominant
        if ab and ba:
            return f"{self.a} ≻ {self.b} and {self.b} ≻ {self.a}"
        if ab:
            return f"{self.a} ≻ {self.b}"
        if ba:
            return f"{self.b} ≻ {self.a}"
        return "none"

    @property
    def signature(self) -> str:
        """ASO of the pair (its settings and data) with the classical tests' sidedness."""
        r = self.aso_ab
        return _aso_signature(
            r,
            "seeds_pair",
            alt=self.welch.alternative,
            systems=[self.a, self.b],
            items=[r.n_a, r.n_b],
            data=r.data,
        )

    def rows(self) -> list[dict[str, Any]]:
        return [_pair_row(self, self.aso_ab)]


def _fp(p: float) -> str:
    return f"{p:.4g}" if p >= 1e-4 else f"{p:.2e}"


def _pair_row(p: SeedPair, r: AsoResult, **extra: Any) -> dict[str, Any]:
    return {
        "a": p.a,
        "b": p.b,
        "n_a": r.n_a,
        "n_b": r.n_b,
        "mean_a": r.mean_a,
        "mean_b": r.mean_b,
        "eps_min_ab": r.statistic,
        "eps_min_ba": p.aso_ba.statistic,
        "violation_ratio_ab": r.violation_ratio,
        "sigma": r.sigma,
        "verdict": p.verdict,
        "welch_t": p.welch.statistic,
        "welch_df": p.welch.df,
        "welch_p": p.welch.pvalue,
        "welch_p_adjusted": p.welch_pvalue_adjusted,
        "mwu_u": p.mann_whitney.statistic,
        "mwu_p": p.mann_whitney.pvalue,
        "mwu_p_adjusted": p.mann_whitney_pvalue_adjusted,
        "confidence_level": r.confidence_level,
        "adjusted_confidence_level": r.adjusted_confidence_level,
        "tau": r.tau,
        "n_resamples": r.n_resamples,
        "seed": r.seed,
        **extra,
    }


@dataclass(frozen=True)
class SeedComparison(Result):
    """ASO for every pair of systems, with Welch's t and Mann-Whitney U beside it.

    ``eps_min[i, j]`` is ε_min of system i over system j (row over column);
    the diagonal is 1 as in ``deepsig.multi_aso``. ``violation_ratio`` is
    ε_W2 in the same layout (NaN on the diagonal). ``pairs`` lists each
    unordered pair once, in input order.
    """

    systems: tuple[str, ...]
    eps_min: np.ndarray
    violation_ratio: np.ndarray
    pairs: tuple[SeedPair, ...]
    n: tuple[int, ...]
    means: tuple[float, ...]
    sds: tuple[float, ...]
    tau: float
    confidence_level: float
    adjusted_confidence_level: float
    correction: str
    num_comparisons: int
    n_resamples: int
    seed: int
    dt: float
    alternative: str
    version: str = ""
    stream_version: int = 0
    #: A hash of every system's scores (:func:`sigfast.signature.hash_data`).
    data: str = ""
    #: Loud caveats (``correction="deepsig"`` with two systems: every ε_min is 1, as deepsig's).
    warnings: tuple[str, ...] = ()

    _keys = (
        *("systems", "n", "means", "sds", "eps_min", "violation_ratio", "pairs", Key("dominance", "dominance_records")),
        *("tau", "confidence_level", "adjusted_confidence_level", "correction", "num_comparisons", "n_resamples"),
        *("seed", "dt", "alternative", "version", "stream_version", "warnings", "signature"),
    )

    @property
    def signature(self) -> str:
        """Every pair's settings, the systems, their seed counts and a hash of all their scores."""
        return _aso_signature(
            self, "seeds", alt=self.alternative, systems=list(self.systems), items=list(self.n), data=self.data
        )

    def aso(self, a: str, b: str) -> AsoResult:
        """The ASO result of system ``a`` over system ``b``."""
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p.aso_ab
            if (p.b, p.a) == (a, b):
                return p.aso_ba
        raise InputError(f"no pair ({a!r}, {b!r}) among systems {list(self.systems)}")

    def dominance(self) -> list[tuple[str, str, float]]:
        """(A, B, ε_min) for every ordered pair where A is almost stochastically dominant over B."""
        out = []
        for p in self.pairs:
            for r in (p.aso_ab, p.aso_ba):
                if r.dominant:
                    out.append((r.systems[0], r.systems[1], r.statistic))
        return out

    # ---- tables ---------------------------------------------------------

    def _pvalue_heads(self) -> tuple[str, str]:
        adj = self.correction != "none" and self.num_comparisons > 1
        return ("Welch p (Bonf.)", "MWU p (Bonf.)") if adj else ("Welch p", "MWU p")

    def pair_rows(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows of the side-by-side table, one row per pair."""
        wp, up = self._pvalue_heads()
        header = ["A", "B", "ε_min(A≻B)", "ε_min(B≻A)", f"ASO (τ={self.tau:g})", "mean A−B", "Welch t", wp, "MWU U", up]
        rows = []
        for p in self.pairs:
            rows.append(
                [
                    p.a,
                    p.b,
                    f"{p.aso_ab.statistic:.4f}",
                    f"{p.aso_ba.statistic:.4f}",
                    p.verdict,
                    f"{p.aso_ab.mean_a - p.aso_ab.mean_b:+.4g}",
                    f"{p.welch.statistic:.3f}",
                    _fp(p.welch_pvalue_adjusted),
                    f"{p.mann_whitney.statistic:g}",
                    _fp(p.mann_whitney_pvalue_adjusted),
                ]
            )
        return header, rows

    def matrix_rows(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows of the ε_min matrix (row over column)."""
        header = ["ε_min (row over column)", *self.systems]
        rows = []
        for i, s in enumerate(self.systems):
            rows.append([s] + ["—" if i == j else f"{self.eps_min[i, j]:.4f}" for j in range(len(self.systems))])
        return header, rows

    def _summary_rows(self) -> tuple[list[str], list[list[str]]]:
        header = ["system", "seeds", "mean", "sd"]
        rows = [[s, str(n), _g(m), _g(sd)] for s, n, m, sd in zip(self.systems, self.n, self.means, self.sds)]
        return header, rows

    def _caption(self) -> str:
        level = f"{100 * self.confidence_level:g}%"
        if self.adjusted_confidence_level != self.confidence_level:
            level += (
                f" ({self.correction} over {self.num_comparisons} pairs: {100 * self.adjusted_confidence_level:.4g}%)"
            )
        return (
            f"ASO ({self.pairs[0].aso_ab.variant}) at confidence {level}, B = {self.n_resamples} bootstrap "
            f"resamples, seed {self.seed}, dt = {self.dt:g}; classical tests {self.alternative}"
        )

    def table(self, markdown: bool = False) -> str:
        from ..results.report import format_table

        parts = []
        for header, rows in (self._summary_rows(), self.pair_rows(), self.matrix_rows()):
            parts.append(format_table(rows, header, markdown=markdown))
        return "\n\n".join(parts)

    def dominance_records(self) -> list[dict[str, Any]]:
        """:meth:`dominance` as records (``a``, ``b``, ``eps_min``): the ``dominance`` of :meth:`to_dict`."""
        return [{"a": a, "b": b, "eps_min": e} for a, b, e in self.dominance()]

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per pair, every number at full precision."""
        return [_pair_row(p, p.aso_ab, signature=self.signature) for p in self.pairs]

    def tables(self) -> list[Any]:
        """The systems' seeds, means and sds (under the caption), the pairs side by side (ε_min both
        ways, the verdict, Welch, Mann-Whitney) and the ε_min matrix, with the reading rule."""
        from ..results.report import Table

        def table(head_rows: tuple[list[str], list[list[str]]], **kw: Any) -> Table:
            head, rows = head_rows
            return Table(tuple(head), tuple(tuple(r) for r in rows), **kw)

        header, _ = self.pair_rows()
        tex_head = (
            "A",
            "B",
            r"$\varepsilon_{\min}(A \succ B)$",
            r"$\varepsilon_{\min}(B \succ A)$",
            rf"ASO ($\tau={self.tau:g}$)",
            r"mean $A-B$",
            "Welch $t$",
            latex_escape(header[7]),
            "MWU $U$",
            latex_escape(header[9]),
        )
        return [
            table(self._summary_rows(), title=self._caption()),
            table(self.pair_rows(), latex_header=tex_head),
            table(
                self.matrix_rows(),
                latex_header=(r"$\varepsilon_{\min}$ (row over column)", *(latex_escape(x) for x in self.systems)),
                notes=(_RULE, *(f"warning: {w}" for w in self.warnings)),
                signature=self.signature,
            ),
        ]

    to_markdown = deprecated_alias("markdown", "to_markdown")
    to_latex = deprecated_alias("latex", "to_latex")

    def _text(self) -> str:
        warn = [f"warning: {w}" for w in self.warnings]
        return "\n".join([self._caption(), "", self.table(), "", _RULE, *warn, self.signature]) + "\n"


# --------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------


def violation_ratio(scores_a: Any, scores_b: Any, *, dt: float = DEFAULT_DT) -> float:
    """ε_W2(A, B) of the empirical quantile functions (no bootstrap), as deepsig integrates it."""
    a, b = _scores(scores_a, "scores_a"), _scores(scores_b, "scores_b")
    return float(_native_call(_native.aso_violation_ratio, a, b, _unit("dt", dt)))


def _result(
    names: tuple[str, str],
    a: np.ndarray,
    b: np.ndarray,
    vr: float,
    boot_mean: float,
    sd: float,
    level: float,
    common: dict[str, Any],
    distribution: np.ndarray | None = None,
) -> AsoResult:
    from ..results.signature import hash_data

    eps, sigma_hat = _epsilon(vr, sd, a.size, b.size, level)
    return AsoResult(
        data=hash_data(a, b),
        test="aso",
        variant="deepsig",
        systems=names,
        statistic=eps,
        violation_ratio=vr,
        sigma=sigma_hat,
        bootstrap_mean=boot_mean,
        adjusted_confidence_level=level,
        n_a=int(a.size),
        n_b=int(b.size),
        mean_a=float(np.mean(a)),
        mean_b=float(np.mean(b)),
        sd_a=float(np.std(a, ddof=1)),
        sd_b=float(np.std(b, ddof=1)),
        distribution=distribution,
        **common,
    )


def _request(
    arrays: list[np.ndarray],
    names: Sequence[str],
    pairs: list[tuple[int, int]],
    n_resamples: Any,
    seed: Any,
    dt: Any,
    n_threads: Any,
    keep: bool = False,
    stream: Any = None,
) -> Any:
    """The one validated request of the bootstrap (:mod:`sigfast.resampling.aso`)."""
    from ..resampling import request

    try:
        return request(
            "aso",
            arrays,
            names=names,
            pairs=pairs,
            dt=dt,
            n_resamples=n_resamples,
            seed=seed,
            n_threads=n_threads,
            keep=keep,
            stream=stream,
        )
    except ValueError as e:  # the grid's own check in the core
        if isinstance(e, InputError):
            raise
        raise InputError(str(e)) from None


def _common(req: Any, confidence_level: Any, tau: Any, correction: str, m: int) -> dict[str, Any]:
    """The result fields every ASO result shares: the request's B, seed and dt, and the reading's τ
    and levels."""
    return {
        "tau": _unit("tau", tau, closed_high=True),
        "confidence_level": _unit("confidence_level", confidence_level),
        "correction": correction,
        "num_comparisons": m,
        "n_resamples": req.n_resamples,
        "seed": req.seed,
        "dt": req.dt,
        "grid_points": _native_call(lambda: req.grid_points),
        "version": _native.__version__,
        "stream_version": req.stream,
    }


@checked_keywords
def aso(
    scores_a: Any,
    scores_b: Any,
    *,
    confidence_level: float = DEFAULT_CONFIDENCE,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    dt: float = DEFAULT_DT,
    num_comparisons: int = 1,
    correction: Literal["bonferroni", "deepsig", "none"] = "bonferroni",
    tau: float = DEFAULT_TAU,
    names: tuple[str, str] = ("A", "B"),
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
) -> AsoResult:
    """Almost Stochastic Order of A's scores over B's (one score per random seed).

    Returns ε_min (``statistic``) as ``deepsig.aso(scores_a, scores_b,
    confidence_level, num_comparisons, num_bootstrap_iterations=n_resamples,
    dt)`` defines it with ``correction="deepsig"``; the default
    ``"bonferroni"`` departs from deepsig's code for num_comparisons ≥ 3
    (1 − α/m where deepsig uses level + (1 − level)/m; see the module
    docstring). A is read as
    almost stochastically dominant over B when ε_min < ``tau`` (0.5, Dror et
    al. 2019; 0.2 is the stricter advice of Ulmer et al. 2022).

    num_comparisons, correction
        With ``num_comparisons = m > 1`` the level is corrected for m
        comparisons: ``"bonferroni"`` (1 − α/m), ``"deepsig"`` (deepsig
        1.2.8's level + (1 − level)/m) or ``"none"``.
    seed, n_threads
        Key of the counter-based stream; the same seed gives the same bytes
        for any number of threads.
    stream
        The random stream version (``None``: the default; ``1`` reproduces results
        whose signature says ``stream:...v1``).
    return_distribution
        Keep the bootstrap violation ratios (``result.distribution``).
    """
    if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)):
        raise InputError(f"names must be two different names, got {names!r:.60}")
    names = tuple(str(n) for n in names)
    if len(names) != 2 or names[0] == names[1]:
        raise InputError(f"names must be two different names, got {list(names)}")
    a, b = _scores(scores_a, f"scores_a ({names[0]})"), _scores(scores_b, f"scores_b ({names[1]})")
    m = _int("num_comparisons", num_comparisons, 1, 2**31)
    req = _request([a, b], names, [(0, 1)], n_resamples, seed, dt, n_threads, return_distribution, stream)
    common = _common(req, confidence_level, tau, correction, m)
    level = _adjusted_level(common["confidence_level"], m, correction)
    vr, mean, sd, samples = _run(req, progress)
    dist = None if samples is None else np.asarray(samples)[:, 0].copy()
    return _result((names[0], names[1]), a, b, vr[0], mean[0], sd[0], level, common, dist)


@checked_keywords
def compare_seeds(
    scores: Mapping[str, Any] | Sequence[Any],
    *,
    confidence_level: float = DEFAULT_CONFIDENCE,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    dt: float = DEFAULT_DT,
    correction: Literal["bonferroni", "deepsig", "none"] = "bonferroni",
    tau: float = DEFAULT_TAU,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
) -> SeedComparison:
    """ASO between every pair of systems, with Welch's t and Mann-Whitney U side by side.

    ``scores`` maps each system's name to its scores over random seeds (or
    is a list of score lists). Like ``deepsig.multi_aso``, each unordered
    pair is bootstrapped once and both directions are read from it
    (ε_W2(B, A) = 1 − ε_W2(A, B), same σ̂); the level is corrected for the
    m = S(S−1)/2 pairs by ``correction``: ``"bonferroni"`` (default, 1 − α/m;
    not deepsig's code), ``"deepsig"`` (``multi_aso``'s level + (1 − level)/m
    for every m, so with two systems the level is 1.0 and every ε_min is 1,
    as deepsig returns; the result warns) or ``"none"``. The classical
    p-values are Bonferroni-adjusted over the same pairs unless
    ``correction="none"``. Welch's t (:func:`sigfast.welch_ttest`) and
    Mann-Whitney U (:func:`sigfast.mann_whitney_u`) test A (``y``) against B
    (``x``) with ``alternative``.

    Every system's resample r comes from its own stream, shared by all of
    its pairs, so two systems give exactly :func:`aso`'s result. ``stream``
    picks the random stream version (as in :func:`aso`).
    """
    from ..results.signature import hash_data
    from .classical import mann_whitney_u, welch_ttest
    from .multitest import adjust

    names, values = _names(scores)
    arrays = [_scores(v, f"scores of {n!r}") for n, v in zip(names, values)]
    if alternative not in _ALTERNATIVES:
        raise InputError(f"alternative must be one of {_ALTERNATIVES}, got {alternative!r}")
    s = len(arrays)
    m = s * (s - 1) // 2
    pairs = [(i, j) for i in range(s) for j in range(i + 1, s)]
    req = _request(arrays, names, pairs, n_resamples, seed, dt, n_threads, stream=stream)
    common = _common(req, confidence_level, tau, correction, m)
    level = _adjusted_level(common["confidence_level"], m, correction, multi=True)
    vr, mean, sd, _ = _run(req, progress)
    welch = [welch_ttest(arrays[j], arrays[i], alternative=alternative) for i, j in pairs]
    mwu = [mann_whitney_u(arrays[j], arrays[i], alternative=alternative) for i, j in pairs]
    if correction == "none" or m == 1:
        wadj = [r.pvalue for r in welch]
        uadj = [r.pvalue for r in mwu]
    else:
        wadj = list(adjust([r.pvalue for r in welch], "bonferroni").adjusted)
        uadj = list(adjust([r.pvalue for r in mwu], "bonferroni").adjusted)
    eps = np.eye(s)
    ratio = np.full((s, s), np.nan)
    out = []
    for k, (i, j) in enumerate(pairs):
        ab = _result((names[i], names[j]), arrays[i], arrays[j], vr[k], mean[k], sd[k], level, common)
        ba = _result((names[j], names[i]), arrays[j], arrays[i], 1.0 - vr[k], 1.0 - mean[k], sd[k], level, common)
        eps[i, j], eps[j, i] = ab.statistic, ba.statistic
        ratio[i, j], ratio[j, i] = ab.violation_ratio, ba.violation_ratio
        out.append(SeedPair(names[i], names[j], ab, ba, welch[k], mwu[k], float(wadj[k]), float(uadj[k])))
    eps.setflags(write=False)
    ratio.setflags(write=False)
    return SeedComparison(
        systems=tuple(names),
        eps_min=eps,
        violation_ratio=ratio,
        pairs=tuple(out),
        n=tuple(int(a.size) for a in arrays),
        means=tuple(float(np.mean(a)) for a in arrays),
        sds=tuple(float(np.std(a, ddof=1)) for a in arrays),
        tau=common["tau"],
        confidence_level=common["confidence_level"],
        adjusted_confidence_level=level,
        correction=correction,
        num_comparisons=m,
        n_resamples=common["n_resamples"],
        seed=common["seed"],
        dt=common["dt"],
        alternative=alternative,
        version=common["version"],
        stream_version=common["stream_version"],
        data=hash_data(list(names), arrays),
        warnings=_deepsig_two_systems_warning(level, correction),
    )


# --------------------------------------------------------------------------
# score files (`sigfast seeds`, whose handler is sigfast._commands.run_seeds)
# --------------------------------------------------------------------------


def read_scores(path: str) -> np.ndarray:
    """One score per line (one per random seed), read by the ``tsv`` format's reader
    (:func:`sigfast.formats.items.read_items`; ``.jsonl``/``.npy`` by extension): an optional
    header line, ``#`` comments, no empty line but at the end; gzip and a byte-order mark are read."""
    from ..formats.items import read_items

    values, _ = read_items(path)
    if values.shape[1] != 1:
        raise FormatError(
            f"{values.shape[1]} values per line; a seeds file holds one score per line (one per random seed)",
            path=str(path),
        )
    if len(values) < 2:
        raise FormatError(f"{len(values)} score(s); ASO needs at least 2 (one per random seed)", path=str(path))
    return np.ascontiguousarray(values[:, 0], dtype=np.float64)


checked_module(globals())  # every exported function checks its keywords and simple types
