"""sigfast: exact, deterministic and fast significance testing for NLP evaluation.

>>> import numpy as np, sigfast
>>> rng = np.random.default_rng(0)
>>> a, b = rng.normal(0.50, 0.1, 500), rng.normal(0.52, 0.1, 500)
>>> r = sigfast.paired_bootstrap(a, b, n_resamples=10_000, seed=1)
>>> r.pvalue < 0.05
True
"""

from __future__ import annotations

from . import exceptions, io, metrics
from ._native import STREAM_VERSION, __version__
from .exceptions import FormatError, InputError, MetricError, SigfastError
from .pairwise import PairwiseResult, gain_threshold, pairwise
from .read import read
from .results import ConfidenceInterval, PairedTestResult
from .significance import paired_bootstrap, permutation_test
from .stats import Statistics

__all__ = [
    "ConfidenceInterval",
    "FormatError",
    "InputError",
    "MetricError",
    "PairedTestResult",
    "PairwiseResult",
    "STREAM_VERSION",
    "SigfastError",
    "Statistics",
    "__version__",
    "exceptions",
    "gain_threshold",
    "io",
    "metrics",
    "paired_bootstrap",
    "pairwise",
    "permutation_test",
    "read",
]
