"""The result of a bootstrap interval (:func:`sigfast.bootstrap_interval`), beside the other results so the
engine that builds it need not import the front-end that asks for it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .base import ConfidenceInterval, Result, flat_row

__all__ = ["BootstrapInterval"]


@dataclass(frozen=True)
class BootstrapInterval(Result):
    """A bootstrap confidence interval of a metric (one system) or of δ = metric(y) − metric(x).

    ``bias_correction`` (z0) and ``acceleration`` (a) are the BCa constants
    (None for the percentile interval); ``quantiles`` are the levels of the
    bootstrap distribution read off for the two ends.
    """

    method: str
    metric: str
    statistic: str
    estimate: float
    confidence_level: float
    confidence_interval: ConfidenceInterval
    n_resamples: int
    seed: int
    n_items: int
    systems: tuple[str, ...]
    quantiles: tuple[float, float]
    bias_correction: float | None = None
    acceleration: float | None = None
    resampling: str = "items"
    distribution: np.ndarray | None = field(default=None, repr=False, compare=False)
    signature: str = ""
    #: Resamples the interval rests on (fewer than ``n_resamples`` only with ``nan_policy="omit"``).
    n_valid: int | None = None
    nan_policy: str = "raise"
    #: Clusters resampled (whole clusters drawn), or None when items were.
    n_clusters: int | None = None

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row: the estimate, the interval ends and the settings, as numbers."""
        row = flat_row(self.to_dict())
        row["quantile_low"], row["quantile_high"] = self.quantiles
        row.pop("quantiles", None)
        return [row]

    def __repr__(self) -> str:
        from .._api import short_repr

        lo, hi = self.confidence_interval
        return short_repr(
            self,
            f"{self.method} interval of the {self.statistic} of {self.metric} ({' vs '.join(self.systems)})",
            {
                "estimate": f"{self.estimate:.6g}",
                "confidence_interval": f"({lo:.6g}, {hi:.6g})",
                "confidence_level": self.confidence_level,
                "n_resamples": f"{self.n_resamples:,}",
                "seed": self.seed,
            },
        )

    def _text(self) -> str:
        lo, hi = self.confidence_interval
        used = "" if self.n_valid in (None, self.n_resamples) else f", {self.n_valid} defined"
        return (
            f"{self.metric} {self.statistic} = {self.estimate:.6g}, {100 * self.confidence_level:g}% "
            f"{self.method} interval [{lo:.6g}, {hi:.6g}] (B = {self.n_resamples}{used}, seed {self.seed})\n"
            f"  {self.signature}\n"
        )
