"""sigfast: exact, deterministic and fast significance testing for NLP evaluation.

>>> import numpy as np, sigfast
>>> rng = np.random.default_rng(0)
>>> a, b = rng.normal(0.50, 0.1, 500), rng.normal(0.52, 0.1, 500)
>>> r = sigfast.paired_bootstrap(a, b, n_resamples=10_000, seed=1)
>>> r.pvalue < 0.05
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import exceptions, io, metrics, signature
from ._native import STREAM_VERSION, __version__
from .classical import (
    TestResult,
    binomial_test,
    mann_whitney_u,
    mcnemar,
    paired_ttest,
    sign_test,
    welch_ttest,
    wilcoxon,
)
from .exceptions import FormatError, InputError, MetricError, SigfastError
from .intervals import (
    BootstrapInterval,
    agresti_coull_interval,
    bootstrap_interval,
    clopper_pearson_interval,
    proportion_interval,
    wilson_interval,
)
from .multitest import AdjustedPValues, ReplicabilityResult, adjust, replicability
from .pairwise import PairwiseResult, UnpairedPairwiseResult, gain_threshold, pairwise, pairwise_unpaired
from .power import (
    BenchmarkPower,
    bootstrap_power,
    bootstrap_sample_size,
    items_needed,
    mcnemar_power,
    mcnemar_sample_size,
    minimum_detectable_difference,
)
from .read import read
from .results import ConfidenceInterval, PairedTestResult
from .significance import paired_bootstrap, permutation_test
from .stats import Statistics

__all__ = [
    "STREAM_VERSION",
    "AdjustedPValues",
    "AsoResult",
    "BenchmarkPower",
    "BootstrapInterval",
    "ConfidenceInterval",
    "FormatError",
    "InputError",
    "Leaderboard",
    "MetricError",
    "PairedTestResult",
    "PairwiseResult",
    "ReplicabilityResult",
    "SeedComparison",
    "SigfastError",
    "StandardErrorResult",
    "Statistics",
    "TestResult",
    "UnpairedPairwiseResult",
    "__version__",
    "adjust",
    "agreement",
    "agresti_coull_interval",
    "analysis",
    "aso",
    "binomial_test",
    "bootstrap_interval",
    "bootstrap_power",
    "bootstrap_sample_size",
    "clopper_pearson_interval",
    "compare_seeds",
    "coref_diff",
    "diff",
    "exceptions",
    "gain_threshold",
    "io",
    "items_needed",
    "krippendorff_alpha",
    "leaderboard",
    "mann_whitney_u",
    "mcnemar",
    "mcnemar_power",
    "mcnemar_sample_size",
    "metrics",
    "minimum_detectable_difference",
    "oracle",
    "paired_bootstrap",
    "paired_ttest",
    "pairwise",
    "pairwise_unpaired",
    "permutation_test",
    "proportion_interval",
    "read",
    "replicability",
    "seeds",
    "sign_test",
    "signature",
    "standard_error",
    "studies",
    "welch_ttest",
    "wilcoxon",
    "wilson_interval",
]

if TYPE_CHECKING:  # the lazy names below, typed for mypy and IDEs
    from . import analysis, seeds, studies
    from .analysis import agreement, coref_diff, diff, krippendorff_alpha, oracle
    from .errorbars import Leaderboard, StandardErrorResult, leaderboard, standard_error
    from .seeds import AsoResult, SeedComparison, aso, compare_seeds

# Error analysis and studies load on first use, so `import sigfast` stays light.
_LAZY = {
    "analysis": ("analysis", None),
    "studies": ("studies", None),
    "agreement": ("analysis", "agreement"),
    "coref_diff": ("analysis", "coref_diff"),
    "diff": ("analysis", "diff"),
    "krippendorff_alpha": ("analysis", "krippendorff_alpha"),
    "oracle": ("analysis", "oracle"),
    "seeds": ("seeds", None),
    "aso": ("seeds", "aso"),
    "compare_seeds": ("seeds", "compare_seeds"),
    "AsoResult": ("seeds", "AsoResult"),
    "SeedComparison": ("seeds", "SeedComparison"),
    "itemlevel": ("itemlevel", None),
    "item_bootstrap": ("itemlevel", "item_bootstrap"),
    "metaeval": ("metaeval", None),
    "errorbars": ("errorbars", None),
    "leaderboard": ("errorbars", "leaderboard"),
    "standard_error": ("errorbars", "standard_error"),
    "Leaderboard": ("errorbars", "Leaderboard"),
    "StandardErrorResult": ("errorbars", "StandardErrorResult"),
    "samples": ("samples", None),
    "clusters": ("clusters", None),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        mod = importlib.import_module(f".{module}", __name__)
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sigfast' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
