"""sigfast: exact, deterministic and fast significance testing for NLP evaluation.

>>> import numpy as np, sigfast
>>> rng = np.random.default_rng(0)
>>> a, b = rng.normal(0.50, 0.1, 500), rng.normal(0.52, 0.1, 500)
>>> r = sigfast.paired_bootstrap(a, b, n_resamples=10_000, seed=1)
>>> r.pvalue < 0.05
True
"""

from __future__ import annotations

import sys as _sys
import types as _types

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time); mypy reads it so

__all__ = [
    "STREAM_VERSION",
    "AdjustedPValues",
    "ArgumentError",
    "AsoResult",
    "BenchmarkPower",
    "BootstrapInterval",
    "ConfidenceInterval",
    "ConfidenceSequenceResult",
    "FormatError",
    "GateResult",
    "InputError",
    "Leaderboard",
    "MetricError",
    "PairedProportionResult",
    "PairedTestResult",
    "PairedWinRate",
    "PairwiseResult",
    "PredictionPowered",
    "Ratings",
    "ReplicabilityResult",
    "Report",
    "ScorerWarning",
    "SeedComparison",
    "SigfastError",
    "StandardErrorResult",
    "Statistics",
    "TestResult",
    "UnpairedPairwiseResult",
    "WinRates",
    "__version__",
    "adjust",
    "agreement",
    "agresti_coull_interval",
    "analysis",
    "aso",
    "beta_binomial_interval",
    "binomial_test",
    "bootstrap_interval",
    "bootstrap_power",
    "bootstrap_sample_size",
    "bradley_terry",
    "clopper_pearson_interval",
    "compare_seeds",
    "confidence_sequence",
    "coref_diff",
    "diff",
    "exceptions",
    "gain_threshold",
    "gate",
    "io",
    "items_needed",
    "jeffreys_interval",
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
    "paired_proportion_interval",
    "paired_ttest",
    "paired_win_rate",
    "pairwise",
    "pairwise_unpaired",
    "permutation_test",
    "prediction_powered",
    "proportion_interval",
    "read",
    "replicability",
    "report",
    "seeds",
    "sign_test",
    "signature",
    "standard_error",
    "studies",
    "welch_ttest",
    "wilcoxon",
    "wilson_interval",
    "win_rates",
]

if TYPE_CHECKING:  # the lazy names below, typed for mypy and IDEs
    from . import analysis, exceptions, io, metrics, seeds, signature, studies
    from ._native import STREAM_VERSION, __version__
    from .analysis import agreement, coref_diff, diff, krippendorff_alpha, oracle
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
    from .errorbars import Leaderboard, StandardErrorResult, leaderboard, standard_error
    from .exceptions import ArgumentError, FormatError, InputError, MetricError, ScorerWarning, SigfastError
    from .htmlreport import Report, report
    from .intervals import (
        BootstrapInterval,
        agresti_coull_interval,
        beta_binomial_interval,
        bootstrap_interval,
        clopper_pearson_interval,
        jeffreys_interval,
        proportion_interval,
        wilson_interval,
    )
    from .multitest import AdjustedPValues, ReplicabilityResult, adjust, replicability
    from .paired_binary import PairedProportionResult, paired_proportion_interval
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
    from .ppi import PredictionPowered, prediction_powered
    from .ratings import PairedWinRate, Ratings, WinRates, bradley_terry, paired_win_rate, win_rates
    from .read import read
    from .results import ConfidenceInterval, PairedTestResult
    from .seeds import AsoResult, SeedComparison, aso, compare_seeds
    from .sequential import ConfidenceSequenceResult, GateResult, confidence_sequence, gate
    from .significance import paired_bootstrap, permutation_test
    from .stats import Statistics
del TYPE_CHECKING

# Every public name loads on first use (PEP 562), so `import sigfast` and the command line's start-up
# stay light: numpy and the engine load when a test runs, not when `sigfast --help` does.
_LAZY: dict[str, tuple[str, str | None]] = {
    "STREAM_VERSION": ("_native", "STREAM_VERSION"),
    "__version__": ("_native", "__version__"),
    "exceptions": ("exceptions", None),
    "io": ("io", None),
    "metrics": ("metrics", None),
    "signature": ("signature", None),
    "analysis": ("analysis", None),
    "studies": ("studies", None),
    "seeds": ("seeds", None),
    "itemlevel": ("itemlevel", None),
    "metaeval": ("metaeval", None),
    **{n: ("classical", n) for n in ("TestResult", "binomial_test", "mann_whitney_u", "mcnemar", "paired_ttest")},
    **{n: ("classical", n) for n in ("sign_test", "welch_ttest", "wilcoxon")},
    **{
        n: ("exceptions", n)
        for n in ("ArgumentError", "FormatError", "InputError", "MetricError", "ScorerWarning", "SigfastError")
    },
    **{
        n: ("intervals", n)
        for n in (
            "BootstrapInterval",
            "agresti_coull_interval",
            "beta_binomial_interval",
            "bootstrap_interval",
            "clopper_pearson_interval",
            "jeffreys_interval",
            "proportion_interval",
            "wilson_interval",
        )
    },
    **{n: ("paired_binary", n) for n in ("PairedProportionResult", "paired_proportion_interval")},
    **{n: ("sequential", n) for n in ("ConfidenceSequenceResult", "GateResult", "confidence_sequence", "gate")},
    **{n: ("multitest", n) for n in ("AdjustedPValues", "ReplicabilityResult", "adjust", "replicability")},
    **{
        n: ("pairwise", n)
        for n in ("PairwiseResult", "UnpairedPairwiseResult", "gain_threshold", "pairwise", "pairwise_unpaired")
    },
    **{
        n: ("power", n)
        for n in (
            "BenchmarkPower",
            "bootstrap_power",
            "bootstrap_sample_size",
            "items_needed",
            "mcnemar_power",
            "mcnemar_sample_size",
            "minimum_detectable_difference",
        )
    },
    "read": ("read", "read"),
    "report": ("report", None),  # the presentation module, callable: sigfast.report(gold, systems, ...)
    "Report": ("htmlreport", "Report"),
    **{n: ("results", n) for n in ("ConfidenceInterval", "PairedTestResult")},
    **{n: ("significance", n) for n in ("paired_bootstrap", "permutation_test")},
    "Statistics": ("stats", "Statistics"),
    **{n: ("analysis", n) for n in ("agreement", "coref_diff", "diff", "krippendorff_alpha", "oracle")},
    **{n: ("seeds", n) for n in ("aso", "compare_seeds", "AsoResult", "SeedComparison")},
    "item_bootstrap": ("itemlevel", "item_bootstrap"),
    "errorbars": ("errorbars", None),
    **{n: ("errorbars", n) for n in ("leaderboard", "standard_error", "Leaderboard", "StandardErrorResult")},
    "samples": ("samples", None),
    "clusters": ("clusters", None),
    "designs": ("designs", None),
    **{
        n: ("ratings", n)
        for n in (
            "PairedWinRate",
            "Ratings",
            "WinRates",
            "bradley_terry",
            "paired_win_rate",
            "win_rates",
        )
    },
    **{n: ("ppi", n) for n in ("PredictionPowered", "prediction_powered")},
}
#: Names that are both a submodule and the function it defines (``sigfast.pairwise``, ``sigfast.read``):
#: the package attribute is the function, also after the submodule is imported.
_FUNCTIONS_OVER_MODULES = ("pairwise", "read")


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        mod = importlib.import_module(f".{module}", __name__)
        value = mod if attr is None else getattr(mod, attr)
        if name in __all__ and isinstance(value, _types.FunctionType) and not getattr(value, "_sigfast_checked", False):
            from ._api import checked_keywords  # every public function checks its keywords and types

            value = checked_keywords(value)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sigfast' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Package(_types.ModuleType):
    """The package module: importing the submodule ``sigfast.pairwise`` (or ``sigfast.read``) binds the
    function of that name, as an eager ``from .pairwise import pairwise`` would."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _FUNCTIONS_OVER_MODULES and isinstance(value, _types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
