"""Frozen result objects: every number says how it was produced."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

import numpy as np

__all__ = ["ConfidenceInterval", "PairedTestResult"]


class ConfidenceInterval(NamedTuple):
    low: float
    high: float


def _plain(v: Any) -> Any:
    if isinstance(v, ConfidenceInterval):
        return {"low": _plain(float(v.low)), "high": _plain(float(v.high))}
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


@dataclass(frozen=True)
class PairedTestResult:
    """The outcome of a paired test of system ``y`` against system ``x``.

    ``statistic`` is δ = metric(y) − metric(x); ``pvalue`` follows the
    ``test``, ``variant`` and ``alternative`` named here; ``count`` is the
    number of resamples at least as extreme, out of ``n_resamples``.
    """

    test: str
    variant: str
    alternative: str
    metric: str
    higher_is_better: bool
    systems: tuple[str, str]
    score_x: float
    score_y: float
    statistic: float
    pvalue: float
    count: int
    n_resamples: int
    pvalue_method: str
    seed: int | None
    n_items: int
    resampling: str
    confidence_level: float | None = None
    confidence_interval: ConfidenceInterval | None = None
    score_x_interval: ConfidenceInterval | None = None
    score_y_interval: ConfidenceInterval | None = None
    display_scale: int = 1
    version: str = ""
    stream_version: int = 0
    distribution: np.ndarray | None = field(default=None, repr=False, compare=False)
    signature: str = ""
    #: Loud caveats about the result (e.g. fewer than ``MIN_ITEMS`` items); printed in reports.
    warnings: tuple[str, ...] = ()
    #: Resamples the p-value and intervals rest on (fewer than ``n_resamples`` only when
    #: ``nan_policy="omit"`` dropped undefined ones).
    n_valid: int | None = None
    nan_policy: str = "raise"

    @property
    def winner(self) -> str | None:
        """The system with the better observed score (None on a tie)."""
        if self.score_x == self.score_y:
            return None
        better_y = (self.score_y > self.score_x) == self.higher_is_better
        return self.systems[1] if better_y else self.systems[0]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "distribution"}

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def to_frame(self) -> Any:
        """A one-row pandas DataFrame of :meth:`to_dict` (intervals as ``*_low``/``*_high`` columns)."""
        from ._api import frame

        row: dict[str, Any] = {}
        for k, v in self.to_dict().items():
            if isinstance(v, dict) and set(v) == {"low", "high"}:
                row[f"{k}_low"], row[f"{k}_high"] = v["low"], v["high"]
            elif isinstance(v, list):
                row[k] = " vs ".join(map(str, v))
            else:
                row[k] = v
        return frame([row])

    def __repr__(self) -> str:
        from ._api import short_repr

        ci = self.confidence_interval
        return short_repr(
            self,
            f"{self.test} {self.variant} ({self.alternative}), {self.metric}: "
            f"{self.systems[0]} {self.score_x:.6g} vs {self.systems[1]} {self.score_y:.6g}",
            {
                "statistic": f"{self.statistic:+.6g}",
                "pvalue": f"{self.pvalue:.6g}",
                "confidence_interval": None if ci is None else f"({ci.low:+.6g}, {ci.high:+.6g})",
                "n_resamples": f"{self.n_resamples:,}",
                "seed": self.seed,
                "n_items": self.n_items,
            },
        )

    def __str__(self) -> str:
        from .report import format_result

        return format_result(self)
