"""Studies of significance itself (Gorman & Bedrick 2019; Berg-Kirkpatrick et al. 2012).

* :func:`random_splits` / :func:`verify_splits`: K seeded random train/dev/test
  splits of a corpus, written byte for byte with a manifest of hashes.
* :func:`resample_train`: training sets drawn with replacement (BK §3.2.1).
* :func:`across_splits`: every pair tested on every split, significant wins
  after a correction, replicability and score ranges (G&B Table 3), the
  standard split beside the random ones with Wilson intervals (G&B Table 2,
  Fig. 1).
* :func:`test_size_curve`: significance and the gain threshold against
  test-set size (BK Figures 9 and 10).
* :func:`calibration`: p-value bands against agreement with the population
  sign, in-domain and across domains, per target domain (BK §4.2, Table 1),
  and the domains overlaid at a fixed test size (BK Fig. 11).
"""

from __future__ import annotations

from .._api import checked_module
from .across import (
    AcrossSplitsResult,
    across_splits,
    binary_outcomes,
    proportion_counts,
    split_statistics,
    split_units,
    unit_statistics,
)
from .calibration import DEFAULT_BANDS, CalibrationResult, calibration, domains_from_item_ids
from .curves import TestSizeCurve, default_sizes, test_size_curve
from .splits import (
    Corpus,
    ResampleResult,
    SplitResult,
    random_splits,
    read_units,
    resample_train,
    split_sizes,
    verify_resample,
    verify_splits,
)

__all__ = [
    "DEFAULT_BANDS",
    "AcrossSplitsResult",
    "CalibrationResult",
    "Corpus",
    "ResampleResult",
    "SplitResult",
    "TestSizeCurve",
    "across_splits",
    "binary_outcomes",
    "calibration",
    "default_sizes",
    "domains_from_item_ids",
    "proportion_counts",
    "random_splits",
    "read_units",
    "resample_train",
    "split_sizes",
    "split_statistics",
    "split_units",
    "test_size_curve",
    "unit_statistics",
    "verify_resample",
    "verify_splits",
]

checked_module(globals())  # every exported function checks its keywords and simple types
