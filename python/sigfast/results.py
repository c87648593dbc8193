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
    #: Loud caveats about the result (e.g. fewer than ``MIN_ITEMS`` items); printed in reports.
    warnings: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        """A reproducibility string naming everything that produced the p-value."""
        parts = [
            f"sigfast:{self.version}",
            f"test:{self.test}",
            f"variant:{self.variant}",
            f"alt:{self.alternative}",
            f"metric:{self.metric}",
            f"n:{self.n_resamples}",
            f"seed:{self.seed if self.seed is not None else 'none'}",
            f"p:{self.pvalue_method}",
            f"resampling:{self.resampling}",
            f"rng:philox4x64-10+xoshiro256pp/v{self.stream_version}",
        ]
        return "|".join(parts)

    @property
    def winner(self) -> str | None:
        """The system with the better observed score (None on a tie)."""
        if self.score_x == self.score_y:
            return None
        better_y = (self.score_y > self.score_x) == self.higher_is_better
        return self.systems[1] if better_y else self.systems[0]

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "distribution"}
        out["signature"] = self.signature
        return out

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 2)
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        from .report import format_result

        return format_result(self)
