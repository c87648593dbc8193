"""A toy resampling test, the one file of README's "Adding a test": the paired bootstrap of a difference of
trimmed means (each system's mean after cutting the lowest and the highest ``trim`` share of its items'
scores, as ``scipy.stats.trim_mean``).

``tests/test_adding_a_test.py`` registers it through the entry point group ``sigfast.tests`` (as a package
declaring ``[project.entry-points."sigfast.tests"] trimmed = "toytrimmed"`` would) and runs it through
``sigfast.resampling.run_test("trimmed", ...)`` and ``sigfast compare --test trimmed``. In the package it
would be ``python/sigfast/resampling/trimmed.py`` and one line in ``TESTS``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from sigfast.exceptions import InputError
from sigfast.metrics import Metric, custom
from sigfast.resampling import Request, Test, bootstrap, signed


@dataclass(frozen=True)
class Settings(bootstrap.Settings):
    """The bootstrap's settings (variant, sidedness, confidence level) and the share cut from each end."""

    trim: float = 0.1


def trimmed_mean(trim: float) -> Metric:
    """The statistic, on each resample's items: ``scores`` is (resamples, items)."""

    def trimmed_mean(scores: np.ndarray) -> np.ndarray:
        n = scores.shape[1]
        k = math.floor(trim * n)
        return np.sort(scores, axis=1)[:, k : n - k].mean(axis=1)

    return custom(trimmed_mean, stat_names=("score",), on="items")


def validate(
    x: Any,
    y: Any = None,
    *,
    systems: Any = None,
    trim: float = 0.1,
    variant: str | None = None,
    alternative: str | None = None,
    n_resamples: Any = None,
    seed: Any = None,
    confidence_level: Any = None,
    pvalue: str | None = None,
) -> dict[str, Any]:
    """``trim`` in [0, 0.5); the rest as the paired bootstrap's (its defaults where not given)."""
    if isinstance(trim, bool) or not isinstance(trim, (int, float)) or not 0 <= trim < 0.5:
        raise InputError(f"trim must be a share in [0, 0.5), got {trim!r}")
    given = dict(n_resamples=n_resamples, seed=seed, confidence_level=confidence_level, pvalue=pvalue)
    fields = bootstrap.validate(
        x,
        y,
        systems=systems,
        metric=trimmed_mean(float(trim)),
        variant=variant,
        alternative=alternative,
        resampling="items",
        **{k: v for k, v in given.items() if v is not None},
    )
    fields["settings"] = Settings(**asdict(fields["settings"]), trim=float(trim))
    return fields


def signature(req: Request) -> dict[str, Any]:
    """The bootstrap's signature fields and the trimmed share."""
    return {**bootstrap.signature(req), "trim": req.trim}


def run(req: Request, progress: Any) -> Any:
    """What it asks the engine: the paired bootstrap of its statistic (δ* of the two trimmed means on the
    same resampled items); the result is the bootstrap's, under this test's name and signature."""
    r = bootstrap.run(req, progress)
    name = "trimmed_mean_bootstrap"
    return replace(r, test=name, signature=signed(req, name, signature(req), resampling=r.resampling))


TEST = Test("trimmed", validate, run, signature, cli=True, doc="the paired bootstrap of a difference of trimmed means")
