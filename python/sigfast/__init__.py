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

from . import _hooks

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
    from . import analysis, exceptions, io, metrics, studies
    from ._native import STREAM_VERSION, __version__
    from .analysis import coref_diff, krippendorff_alpha
    from .analysis.agreement import agreement  # from their modules: each shares its module's name
    from .analysis.diff import diff
    from .analysis.oracle import oracle
    from .engine.stats import Statistics
    from .exceptions import ArgumentError, FormatError, InputError, MetricError, ScorerWarning, SigfastError
    from .htmlreport import Report, report
    from .inference import seeds
    from .inference.classical import (
        TestResult,
        binomial_test,
        mann_whitney_u,
        mcnemar,
        paired_ttest,
        sign_test,
        welch_ttest,
        wilcoxon,
    )
    from .inference.errorbars import Leaderboard, StandardErrorResult, leaderboard, standard_error
    from .inference.intervals import (
        BootstrapInterval,
        agresti_coull_interval,
        beta_binomial_interval,
        bootstrap_interval,
        clopper_pearson_interval,
        jeffreys_interval,
        proportion_interval,
        wilson_interval,
    )
    from .inference.multitest import AdjustedPValues, ReplicabilityResult, adjust, replicability
    from .inference.paired_binary import PairedProportionResult, paired_proportion_interval
    from .inference.pairwise import PairwiseResult, UnpairedPairwiseResult, gain_threshold, pairwise, pairwise_unpaired
    from .inference.power import (
        BenchmarkPower,
        bootstrap_power,
        bootstrap_sample_size,
        items_needed,
        mcnemar_power,
        mcnemar_sample_size,
        minimum_detectable_difference,
    )
    from .inference.ppi import PredictionPowered, prediction_powered
    from .inference.ratings import PairedWinRate, Ratings, WinRates, bradley_terry, paired_win_rate, win_rates
    from .inference.seeds import AsoResult, SeedComparison, aso, compare_seeds
    from .inference.sequential import ConfidenceSequenceResult, GateResult, confidence_sequence, gate
    from .inference.significance import paired_bootstrap, permutation_test
    from .read import read
    from .results import signature
    from .results.base import ConfidenceInterval, PairedTestResult
del TYPE_CHECKING

# Every public name loads on first use (PEP 562), so `import sigfast` and the command line's start-up
# stay light: numpy and the engine load when a test runs, not when `sigfast --help` does.
_LAZY: dict[str, tuple[str, str | None]] = {
    "STREAM_VERSION": ("_native", "STREAM_VERSION"),
    "__version__": ("_native", "__version__"),
    "exceptions": ("exceptions", None),
    "io": ("io", None),
    "metrics": ("metrics", None),
    "signature": ("results.signature", None),
    "analysis": ("analysis", None),
    "studies": ("studies", None),
    "seeds": ("inference.seeds", None),
    "itemlevel": ("inference.itemlevel", None),
    "metaeval": ("metaeval", None),
    **{
        n: ("inference.classical", n)
        for n in ("TestResult", "binomial_test", "mann_whitney_u", "mcnemar", "paired_ttest")
    },
    **{n: ("inference.classical", n) for n in ("sign_test", "welch_ttest", "wilcoxon")},
    **{
        n: ("exceptions", n)
        for n in ("ArgumentError", "FormatError", "InputError", "MetricError", "ScorerWarning", "SigfastError")
    },
    **{
        n: ("inference.intervals", n)
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
    **{n: ("inference.paired_binary", n) for n in ("PairedProportionResult", "paired_proportion_interval")},
    **{
        n: ("inference.sequential", n)
        for n in ("ConfidenceSequenceResult", "GateResult", "confidence_sequence", "gate")
    },
    **{n: ("inference.multitest", n) for n in ("AdjustedPValues", "ReplicabilityResult", "adjust", "replicability")},
    **{
        n: ("inference.pairwise", n)
        for n in ("PairwiseResult", "UnpairedPairwiseResult", "gain_threshold", "pairwise", "pairwise_unpaired")
    },
    **{
        n: ("inference.power", n)
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
    "report": ("results.report", None),  # the presentation module, callable: sigfast.report(gold, systems, ...)
    "Report": ("htmlreport", "Report"),
    **{n: ("results.base", n) for n in ("ConfidenceInterval", "PairedTestResult")},
    **{n: ("inference.significance", n) for n in ("paired_bootstrap", "permutation_test")},
    "Statistics": ("engine.stats", "Statistics"),
    **{n: ("analysis", n) for n in ("agreement", "coref_diff", "diff", "krippendorff_alpha", "oracle")},
    **{n: ("inference.seeds", n) for n in ("aso", "compare_seeds", "AsoResult", "SeedComparison")},
    "item_bootstrap": ("inference.itemlevel", "item_bootstrap"),
    "errorbars": ("inference.errorbars", None),
    **{n: ("inference.errorbars", n) for n in ("leaderboard", "standard_error", "Leaderboard", "StandardErrorResult")},
    "samples": ("engine.samples", None),
    "clusters": ("engine.clusters", None),
    "designs": ("inference.designs", None),
    **{
        n: ("inference.ratings", n)
        for n in (
            "PairedWinRate",
            "Ratings",
            "WinRates",
            "bradley_terry",
            "paired_win_rate",
            "win_rates",
        )
    },
    **{n: ("inference.ppi", n) for n in ("PredictionPowered", "prediction_powered")},
}
#: Names that are both a submodule and the function it defines (``sigfast.pairwise``, ``sigfast.read``):
#: the package attribute is the function, also after the submodule is imported.
_FUNCTIONS_OVER_MODULES = ("pairwise", "read")


def _metric_parameter_names() -> set[str]:
    from .metrics import parameter_names

    return parameter_names()


def _format_option_names() -> set[str]:
    from .formats._registry import option_names

    return option_names()


def _unit_reader_keywords() -> set[str]:
    from .analysis import units

    return units.reader_keywords()


# What ``**metric_params``, ``**options`` and ``**read_options`` take, for the keyword checks of
# :mod:`sigfast._api` (which sits below the registries that know them).
_hooks.PASSED_ON.update(
    metric_params=_metric_parameter_names,
    format_options=_format_option_names,
    read_options=_unit_reader_keywords,
)


def _html_report(*args: object, **kwargs: object) -> object:
    from .htmlreport import report

    return report(*args, **kwargs)  # type: ignore[arg-type]


# ``sigfast.report(...)``: the module :mod:`sigfast.report` (tables, below the results) called runs the
# HTML report, which sits above everything; the root hands it over here.
_hooks.CALLED["report"] = _html_report


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
    if name in _MOVED:  # a module's path from before the folders: the module, under both names
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'sigfast' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# ---- old module paths (scripts/move_to_layers.py) ----
#: Each module's path before the package was laid out in folders by layer
#: (scripts/move_to_layers.py), and where it is now: ``import sigfast.executor`` (and ``styles``,
#: ``report``, ...) gives the same module object.
_MOVED = {
    "executor": "engine.executor",
    "clusters": "engine.clusters",
    "samples": "engine.samples",
    "stats": "engine.stats",
    "_backends": "engine.backends",
    "_progress": "engine.progress",
    "_options": "engine.options",
    "bca": "engine.bca",
    "corrections": "engine.corrections",
    "design_rows": "engine.design_rows",
    "results": "results.base",
    "signature": "results.signature",
    "report": "results.report",
    "styles": "results.styles",
    "tables": "results.tables",
    "_plot": "results.plot",
    "results_interval": "results.interval",
    "results_pairwise": "results.pairwise",
    "results_multitest": "results.multitest",
    "significance": "inference.significance",
    "intervals": "inference.intervals",
    "pairwise": "inference.pairwise",
    "classical": "inference.classical",
    "multitest": "inference.multitest",
    "power": "inference.power",
    "errorbars": "inference.errorbars",
    "seeds": "inference.seeds",
    "itemlevel": "inference.itemlevel",
    "paired_binary": "inference.paired_binary",
    "sequential": "inference.sequential",
    "ppi": "inference.ppi",
    "ratings": "inference.ratings",
    "designs": "inference.designs",
    "_cli": "cli.common",
    "_commands": "cli.commands",
    "_info": "cli.info",
    "metaeval_cli": "cli.metaeval",
    "ratings_cli": "cli.ratings",
    "_designs_cli": "cli.designs",
    "demo": "cli.demo",
}


class _OldPaths:
    """Finds an old module path: the module at its new place, under both names (one object)."""

    @staticmethod
    def find_spec(fullname: str, path: object = None, target: object = None) -> object:
        new = _MOVED.get(fullname.partition("sigfast.")[2]) if fullname.startswith("sigfast.") else None
        if new is None or new == fullname.partition("sigfast.")[2]:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(fullname, _OldPathLoader(f"sigfast.{new}"))


class _OldPathLoader:
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: object) -> object:
        import importlib

        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: object) -> None:
        # the import system gave the module the old path's spec: it keeps its own (its relative imports
        # resolve from its package, with no "__package__ != __spec__.parent" warning)
        module.__spec__ = self.spec  # type: ignore[attr-defined]


_sys.meta_path.append(_OldPaths)
# ---- end of old module paths ----


class _Package(_types.ModuleType):
    """The package module: importing the submodule ``sigfast.pairwise`` (or ``sigfast.read``) binds the
    function of that name, as an eager ``from .pairwise import pairwise`` would."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _FUNCTIONS_OVER_MODULES and isinstance(value, _types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
