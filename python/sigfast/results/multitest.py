"""The results of multiple-comparison corrections and replicability analysis (:mod:`sigfast.multitest`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .base import Result

__all__ = ["AdjustedPValues", "ReplicabilityResult"]


@dataclass(frozen=True)
class AdjustedPValues(Result):
    """Adjusted p-values, in the order given; ``np.asarray(result)`` gives them."""

    method: str
    alpha: float
    pvalues: np.ndarray
    adjusted: np.ndarray
    reject: np.ndarray

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.adjusted if dtype is None else self.adjusted.astype(dtype)

    def __len__(self) -> int:
        return int(self.adjusted.size)

    def __getitem__(self, i: Any) -> Any:
        return self.adjusted[i]

    @property
    def signature(self) -> str:
        """The correction, alpha, the family's size and a hash of the p-values."""
        from .signature import build

        return build(
            "adjust",
            variant=self.method,
            items=len(self),
            correction=f"{self.method}@{self.alpha:g}",
            data=self.pvalues,
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per hypothesis: its p-value, adjusted p-value and decision."""
        return [
            {
                "hypothesis": i,
                "pvalue": float(p),
                "adjusted": float(a),
                "reject": bool(r),
                "method": self.method,
                "alpha": self.alpha,
                "signature": self.signature,
            }
            for i, (p, a, r) in enumerate(zip(self.pvalues, self.adjusted, self.reject))
        ]

    def _text(self) -> str:
        return (
            "\n".join(
                [f"{self.method} at alpha {self.alpha:g}: {int(self.reject.sum())} of {len(self)} rejected"]
                + [
                    f"  p = {p:.6g}  adjusted {a:.6g}{'  *' if r else ''}"
                    for p, a, r in zip(self.pvalues, self.adjusted, self.reject)
                ]
                + [f"  {self.signature}"]
            )
            + "\n"
        )


@dataclass(frozen=True)
class ReplicabilityResult(Result):
    """Replicability analysis over N datasets (Dror et al. 2017).

    ``k_estimate``: the number of datasets in which the effect is declared
    (k̂ = #{u : p^{u/N} ≤ α}, from the monotone partial-conjunction
    p-values); ``partial_conjunction[u-1]`` = p^{u/N}, the p-value of "fewer
    than u datasets have an effect"; ``identified``: indices of the datasets
    identified by Holm's procedure at ``alpha`` (the family-wise error is
    controlled), ``names`` their labels when given.
    """

    method: str
    alpha: float
    pvalues: tuple[float, ...]
    k_estimate: int
    partial_conjunction: tuple[float, ...]
    identified: tuple[int, ...]
    names: tuple[str, ...] | None = None

    _extra = ("identified_names",)

    @property
    def identified_names(self) -> tuple[str, ...] | None:
        if self.names is None:
            return None
        return tuple(self.names[i] for i in self.identified)

    @property
    def signature(self) -> str:
        """The method, alpha, the number of datasets and a hash of their p-values (and names)."""
        from .signature import build

        return build(
            "replicability",
            variant=self.method,
            items=len(self.pvalues),
            alpha=self.alpha,
            data=[list(self.pvalues), list(self.names or ())],
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per dataset: its p-value, the partial-conjunction p-value p^{u/N} of
        u = its rank, and whether Holm identifies it."""
        names = self.names or tuple(str(i) for i in range(len(self.pvalues)))
        return [
            {
                "dataset": names[i],
                "pvalue": p,
                "partial_conjunction": self.partial_conjunction[i],
                "identified": i in self.identified,
                "k_estimate": self.k_estimate,
                "method": self.method,
                "alpha": self.alpha,
                "signature": self.signature,
            }
            for i, p in enumerate(self.pvalues)
        ]

    def _text(self) -> str:
        who = self.identified_names if self.names is not None else self.identified
        return (
            f"replicability ({self.method}, alpha={self.alpha:g}): effect in k̂ = {self.k_estimate} of "
            f"{len(self.pvalues)} datasets; identified (Holm): {list(who)}\n  {self.signature}\n"
        )
