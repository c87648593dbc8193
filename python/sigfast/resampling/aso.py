"""ASO's bootstrap (almost stochastic order, Dror et al. 2019; del Barrio et al. 2018): every system's scores
over random seeds resampled apart (unpaired), the violation ratio of each pair per resample.

One module holds everything about the test: its settings, its validation and what it asks the engine;
:data:`TEST` is its entry in :data:`sigfast.resampling.TESTS`. It declares no signature fields: its run
returns the violation ratios, and :mod:`sigfast.seeds` builds and signs the result from the scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _native
from ..engine.executor import run_aso
from ..engine.options import check_resamples, check_seed
from ..exceptions import InputError
from ._declare import Test

__all__ = ["TEST", "Settings"]


@dataclass(frozen=True)
class Settings:
    """ASO's own settings: the systems' scores (one per random seed) with their names, the pairs compared,
    the quantile-grid step ``dt``; ``keep`` keeps every resample's violation ratios."""

    arrays: tuple[np.ndarray, ...]
    names: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    dt: float
    keep: bool = False

    @property
    def grid_points(self) -> int:
        """Points of the quantile grid the violation ratio is integrated on."""
        return len(_native.aso_grid(self.dt))


def validate(
    x: Sequence[np.ndarray],
    y: Any = None,
    *,
    names: Sequence[str],
    pairs: Sequence[tuple[int, int]],
    dt: Any,
    n_resamples: Any,
    seed: Any,
    keep: bool = False,
) -> dict[str, Any]:
    """``x``: the systems' scores (checked by :mod:`sigfast.seeds`), with their ``names``; the ``pairs``
    compared (indices), the grid step ``dt`` in (0, 1), B and the seed."""
    arrays = x
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
    settings = Settings(
        tuple(arrays), tuple(str(n) for n in names), tuple((int(i), int(j)) for i, j in pairs), step, bool(keep)
    )
    return dict(settings=settings, n_resamples=check_resamples(n_resamples), seed=check_seed(seed))


TEST = Test("aso", validate, run_aso, doc="ASO's bootstrap over random seeds (sigfast.aso)")
