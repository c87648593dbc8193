"""Intervals for the difference of two models' accuracies on the same binary items.

With x the baseline's and y the candidate's per-item correctness (0/1) on the same n items, the
2x2 table is ``[[both right, only x right], [only y right, both wrong]]`` = [[n11, b], [c, n00]]
(:func:`sigfast.mcnemar`'s layout) and the difference is δ = p_y − p_x = (c − b)/n. Three
intervals of δ, the ones Fagerland, Lydersen & Laake (2014) recommend:

* ``"newcombe"``: Newcombe's hybrid score interval (Newcombe 1998, method 10): the Wilson
  intervals of the two accuracies combined (square-and-add) with the correlation φ of the
  table, φ's numerator n11·n00 − b·c lowered by n/2 when above it (0 between 0 and n/2), φ = 0
  when a margin is 0;
* ``"tango"``: Tango's score interval (Tango 1998): the δ0 whose score statistic
  (c − b − nδ0)/√(n(2p̃ + δ0(1 − δ0))), p̃ the restricted maximum-likelihood estimate of the
  probability of "only x right" under δ = δ0, lies within ±z; its ends are found by bisection
  to machine precision (−1 or 1 where every item is discordant one way);
* ``"bonett-price"``: the Bonett–Price interval (Bonett & Price 2012): the Wald interval on
  add-one counts, p_b = (b + 1)/(n + 2), p_c = (c + 1)/(n + 2),
  (p_c − p_b) ± z √((p_b + p_c − (p_c − p_b)²)/(n + 2)), cut to [−1, 1].

The tests compare each with evalstats 0.3.3's own functions (``newcombe_mover_paired_ci``,
``tango_scc_paired_ci`` with no continuity correction, ``bonett_price_paired_ci``) on fixed
tables (tests/data/peer/evalstats_paired.json) to 1e-10, and Tango's with a scipy solution of
the paper's equations. McNemar's test (:func:`sigfast.mcnemar`, mid-p) is reported beside them.

:func:`normal_interval_warnings` is the warning a normal (CLT) interval carries where it is
the wrong tool: a score at 0 or 1 (a zero-width interval) or fewer than 100 items.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine.options import DEFAULT_CONFIDENCE
from ..exceptions import InputError
from ..results.base import ConfidenceInterval, Result

__all__ = [
    "PAIRED_METHODS",
    "PairedProportionResult",
    "bonett_price_interval",
    "newcombe_interval",
    "normal_interval_warnings",
    "paired_proportion_interval",
    "tango_interval",
]

#: The paired-binary intervals, in the order a result lists them.
PAIRED_METHODS = ("newcombe", "tango", "bonett-price")
_ALIASES = {"newcombe": "newcombe", "hybrid-score": "newcombe", "tango": "tango", "bonett-price": "bonett-price"}

#: Below this many items a normal interval draws a warning.
SMALL_N = 100


# --------------------------------------------------------------------------------------------
# the table


def paired_table(x: Any, y: Any = None) -> tuple[int, int, int, int]:
    """(n11, b, c, n00) from two 0/1 vectors (x baseline, y candidate) or a 2x2 table
    ``[[both right, only x right], [only y right, both wrong]]``."""
    from .classical import _count, _paired

    if y is None:
        t = np.asarray(x, dtype=object)
        if t.shape != (2, 2):
            raise InputError(
                "paired_proportion_interval: pass two 0/1 vectors of per-item correctness (x, y), or one 2x2 "
                "table [[both right, only x right], [only y right, both wrong]]"
            )
        n11, b, c, n00 = (_count(f"table[{i}][{j}]", t[i, j]) for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
    else:
        xa, ya = _paired(x, y)
        for a, what in ((xa, "x"), (ya, "y")):
            bad = np.flatnonzero((a != 0) & (a != 1))
            if bad.size:
                i = int(bad[0])
                raise InputError(
                    f"{what}: item {i} is {a[i]!r}; paired proportion intervals need per-item correctness 0 or 1"
                )
        xb, yb = xa.astype(bool), ya.astype(bool)
        n11 = int(np.count_nonzero(xb & yb))
        b = int(np.count_nonzero(xb & ~yb))
        c = int(np.count_nonzero(~xb & yb))
        n00 = int(np.count_nonzero(~xb & ~yb))
    if n11 + b + c + n00 == 0:
        raise InputError("paired_proportion_interval: the table holds no items")
    return n11, b, c, n00


def _z(confidence_level: float) -> float:
    from .classical import _ndtri
    from .intervals import _level

    return -_ndtri((1.0 - _level(confidence_level)) / 2.0)


def _clip(v: float) -> float:
    return min(max(v, -1.0), 1.0)


# --------------------------------------------------------------------------------------------
# the three intervals (tables in, interval of p_y - p_x out)


def newcombe_interval(
    n11: int, b: int, c: int, n00: int, confidence_level: float = DEFAULT_CONFIDENCE
) -> ConfidenceInterval:
    """Newcombe's hybrid score interval (1998, method 10) of p_y − p_x from the 2x2 table."""
    from .intervals import wilson_interval

    n = n11 + b + c + n00
    kx, ky = n11 + b, n11 + c
    lx, ux = wilson_interval(kx, n, confidence_level)
    ly, uy = wilson_interval(ky, n, confidence_level)
    px, py = kx / n, ky / n
    if min(kx, n - kx, ky, n - ky) == 0:
        phi = 0.0
    else:
        a = n11 * n00 - b * c
        num = a - n / 2.0 if a > n / 2.0 else (float(a) if a < 0 else 0.0)
        phi = num / math.sqrt(float(kx) * (n - kx) * ky * (n - ky))
    d = py - px
    lo_y, hi_x = py - ly, ux - px  # the lower end: y as low as it goes, x as high
    hi_y, lo_x = uy - py, px - lx
    lo = d - math.sqrt(max(lo_y * lo_y + hi_x * hi_x - 2.0 * phi * lo_y * hi_x, 0.0))
    hi = d + math.sqrt(max(hi_y * hi_y + lo_x * lo_x - 2.0 * phi * hi_y * lo_x, 0.0))
    return ConfidenceInterval(_clip(lo), _clip(hi))


def _tango_score(delta: float, b: int, c: int, n: int) -> float:
    """Tango's score statistic at δ0 = ``delta`` (δ = p_y − p_x; c: only y right, b: only x right)."""
    big_a = 2.0 * n
    big_b = -c - b + (2.0 * n - c + b) * delta
    big_c = -b * delta * (1.0 - delta)
    p = (math.sqrt(max(big_b * big_b - 4.0 * big_a * big_c, 0.0)) - big_b) / (2.0 * big_a)
    var = n * (2.0 * p + delta * (1.0 - delta))
    num = c - b - n * delta
    if var <= 0.0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def _bisect_decreasing(f: Any, target: float, lo: float, hi: float) -> float:
    """The point of [lo, hi] where the decreasing ``f`` crosses ``target``, to machine precision."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def tango_interval(
    n11: int, b: int, c: int, n00: int, confidence_level: float = DEFAULT_CONFIDENCE
) -> ConfidenceInterval:
    """Tango's (1998) asymptotic score interval of p_y − p_x from the 2x2 table."""
    n = n11 + b + c + n00
    z = _z(confidence_level)
    d = (c - b) / n

    def score(delta: float) -> float:
        return _tango_score(delta, b, c, n)

    lo = -1.0 if b == n else _bisect_decreasing(score, z, -1.0, d)
    hi = 1.0 if c == n else _bisect_decreasing(score, -z, d, 1.0)
    return ConfidenceInterval(lo, hi)


def bonett_price_interval(
    n11: int, b: int, c: int, n00: int, confidence_level: float = DEFAULT_CONFIDENCE
) -> ConfidenceInterval:
    """The Bonett–Price (2012) adjusted Wald interval of p_y − p_x from the 2x2 table."""
    n = n11 + b + c + n00
    z = _z(confidence_level)
    pb, pc = (b + 1.0) / (n + 2.0), (c + 1.0) / (n + 2.0)
    d = pc - pb
    se = math.sqrt(max(pb + pc - d * d, 0.0) / (n + 2.0))
    return ConfidenceInterval(_clip(d - z * se), _clip(d + z * se))


_FUNCTIONS = {"newcombe": newcombe_interval, "tango": tango_interval, "bonett-price": bonett_price_interval}


# --------------------------------------------------------------------------------------------
# the result


@dataclass(frozen=True)
class PairedProportionResult(Result):
    """An interval of the accuracy difference p_y − p_x of two models on the same binary items.

    ``confidence_interval`` is ``method``'s; ``intervals`` holds all three paired intervals
    (Newcombe, Tango, Bonett–Price) side by side, and ``mcnemar_pvalue`` McNemar's mid-p test of
    no difference (:func:`sigfast.mcnemar`). ``table`` is [[both right, only x right],
    [only y right, both wrong]].
    """

    method: str
    systems: tuple[str, str]
    estimate: float
    confidence_level: float
    confidence_interval: ConfidenceInterval
    n_items: int
    accuracy_x: float
    accuracy_y: float
    table: tuple[tuple[int, int], tuple[int, int]]
    intervals: Mapping[str, ConfidenceInterval] = field(default_factory=dict)
    mcnemar_pvalue: float = 1.0
    data: str = ""
    #: Where the items came from, for the signature (the CLI's: the format with its options).
    provenance: Mapping[str, Any] = field(default_factory=dict)

    @property
    def signature(self) -> str:
        """What produced the result: the interval, level, items, the discordant counts and a hash of
        the table."""
        from ..results.signature import build

        (_, b), (c, _) = self.table
        return build(
            "paired_proportion",
            variant=self.method,
            items=self.n_items,
            systems=list(self.systems),
            conf=self.confidence_level,
            b=b,
            c=c,
            data=self.data or None,
            **self.provenance,
        )

    def rows(self) -> list[dict[str, Any]]:
        """One row per interval method (the chosen one first), with the counts and McNemar's p."""
        (n11, b), (c, n00) = self.table
        order = [self.method] + [m for m in PAIRED_METHODS if m != self.method]
        return [
            {
                "method": m,
                "baseline": self.systems[0],
                "system": self.systems[1],
                "accuracy_baseline": self.accuracy_x,
                "accuracy": self.accuracy_y,
                "difference": self.estimate,
                "confidence_level": self.confidence_level,
                "low": float(self.intervals[m].low),
                "high": float(self.intervals[m].high),
                "n_items": self.n_items,
                "both_right": n11,
                "only_baseline_right": b,
                "only_system_right": c,
                "both_wrong": n00,
                "mcnemar_pvalue": self.mcnemar_pvalue,
                "signature": self.signature,
            }
            for m in order
        ]

    def _text(self) -> str:
        lo, hi = self.confidence_interval
        x, y = self.systems
        lines = [
            f"{y} - {x}: accuracy {self.accuracy_y:.4g} - {self.accuracy_x:.4g} = {self.estimate:+.4g} on "
            f"{self.n_items} items; {100 * self.confidence_level:g}% {_NAMES[self.method]} interval "
            f"[{lo:+.4g}, {hi:+.4g}]"
        ]
        others = [m for m in PAIRED_METHODS if m != self.method]
        lines.append(
            "  "
            + "; ".join(f"{_NAMES[m]} [{self.intervals[m].low:+.4g}, {self.intervals[m].high:+.4g}]" for m in others)
        )
        (_, b), (c, _) = self.table
        lines.append(f"  only {x} right {b}, only {y} right {c}; McNemar (mid-p) p = {self.mcnemar_pvalue:.4g}")
        lines.append(f"  {self.signature}")
        return "\n".join(lines) + "\n"


_NAMES = {"newcombe": "Newcombe hybrid-score", "tango": "Tango score", "bonett-price": "Bonett-Price"}


def paired_proportion_interval(
    x: Any,
    y: Any = None,
    *,
    method: str = "newcombe",
    confidence_level: float = DEFAULT_CONFIDENCE,
    systems: Sequence[str] = ("x", "y"),
) -> PairedProportionResult:
    """Interval of the accuracy difference p_y − p_x of two models on the same binary items.

    ``x``, ``y``: the baseline's and the candidate's per-item correctness (0/1, same items in
    the same order), or ``x`` a 2x2 table ``[[both right, only x right], [only y right, both
    wrong]]`` and ``y`` None. ``method``: ``"newcombe"`` (default; Newcombe 1998, method 10),
    ``"tango"`` (Tango 1998) or ``"bonett-price"`` (Bonett & Price 2012); all three are
    computed and listed, with McNemar's mid-p test. See the module docstring for the formulas.
    """
    from ..results.signature import hash_data
    from .classical import mcnemar
    from .intervals import _level

    m = _ALIASES.get(str(method).lower().replace("_", "-"))
    if m is None:
        raise InputError(f"unknown paired proportion interval {method!r}; choose newcombe, tango or bonett-price")
    cl = _level(confidence_level)
    names = tuple(str(s) for s in systems)
    if len(names) != 2:
        raise InputError(f"systems must name the two models (baseline, candidate), got {systems!r}")
    n11, b, c, n00 = paired_table(x, y)
    n = n11 + b + c + n00
    intervals = {k: f(n11, b, c, n00, cl) for k, f in _FUNCTIONS.items()}
    table = ((n11, b), (c, n00))
    mc = mcnemar(np.array(table))
    return PairedProportionResult(
        method=m,
        systems=(names[0], names[1]),
        estimate=(c - b) / n,
        confidence_level=cl,
        confidence_interval=intervals[m],
        n_items=n,
        accuracy_x=(n11 + b) / n,
        accuracy_y=(n11 + c) / n,
        table=table,
        intervals=intervals,
        mcnemar_pvalue=float(mc.pvalue),
        data=hash_data(np.array(table, dtype=np.float64)),
    )


# --------------------------------------------------------------------------------------------
# where a normal interval is the wrong tool


def normal_interval_warnings(values: Any, *, difference: bool = False, names: Sequence[str] = ()) -> tuple[str, ...]:
    """The warnings a normal (CLT) interval carries: ``values`` (systems × items) at 0 or 1 for a
    system (binary scores there give an interval of width 0), or fewer than :data:`SMALL_N` items;
    each names the interval to use instead. ``difference``: the interval is of a paired
    difference of the systems' means."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim == 1:
        v = v[None, :]
    n = v.shape[1]
    binary = bool(np.all((v == 0) | (v == 1)))
    if binary:
        use = (
            "sigfast.paired_proportion_interval (Newcombe, Tango or Bonett-Price; `sigfast proportions`)"
            if difference
            else "sigfast.proportion_interval (wilson, jeffreys or clopper-pearson; `sigfast proportions`)"
        )
    else:
        use = "sigfast.bootstrap_interval (BCa)"
    out: list[str] = []
    means = v.mean(axis=1)
    at_edge = [
        names[i] if i < len(names) else f"system {i}"
        for i, mu in enumerate(means)
        if mu in (0.0, 1.0) and np.all((v[i] >= 0) & (v[i] <= 1))
    ]
    if at_edge:
        out.append(
            f"{', '.join(at_edge)} scored 0 or 1 on every item: a normal interval there has width 0 and covers "
            f"nothing; use {use}"
        )
    if n < SMALL_N:
        out.append(f"only {n} items: normal intervals under-cover below {SMALL_N} items; use {use}")
    return tuple(out)
