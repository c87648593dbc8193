"""One signature for every result (issue 19): for every result type, two runs that differ in exactly one
setting (metric, parameter, format option, view, alignment, data, B, seed, ...) have different
signatures, identical runs identical ones, and ``sigfast.signature.parse`` reads each back.

Each case is a function of one settings dict; every variation changes one setting of the base.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sigfast
from sigfast.results.signature import parse, unparse

DATA = Path(__file__).resolve().parent / "data"
MT = DATA / "mt"
UD = DATA / "analysis"
NER = DATA / "chunk"
COREF = DATA / "analysis"
B = 300


def _mt(s: dict[str, Any]) -> sigfast.Statistics:
    hyp2 = MT / ("edge.ref2" if s["data"] == 0 else "edge.ref1")
    return sigfast.read(
        MT / "edge.ref1" if s["data"] == 0 else MT / "edge.ref2",
        {"a": MT / "edge.hyp", "b": hyp2},
        format="mt",
        metric=s["metric"],
        tokenize=s["tokenize"],
    )


MT_BASE = {"metric": "bleu", "tokenize": "13a", "data": 0, "B": B, "seed": 1, "smooth": "exp"}
MT_VARY = {"metric": "chrf", "tokenize": "intl", "data": 1, "B": B + 1, "seed": 2, "smooth": "floor"}


def _params(s: dict[str, Any]) -> dict[str, Any]:
    return {"smooth": s["smooth"]} if s["metric"] == "bleu" else {"beta": 2 if s["smooth"] == "floor" else 3}


def _scores(s: dict[str, Any], k: int = 3, n: int = 40) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(10 + s["data"])
    return {f"s{j}": rng.normal(0.5 + 0.05 * j, 0.1, n) for j in range(k)}


UNITS_BASE = {"view": "las", "align": "chars", "table": "verbose", "data": 0}
UNITS_VARY = {"view": "upos", "align": "tokens", "table": "counts", "data": 1}


def _units_opts(s: dict[str, Any]) -> dict[str, Any]:
    if s["align"] == "tokens" and s["data"] == 0:  # raw text cannot be aligned on tokens: compare gold files
        return {"format": "conllu", "view": s["view"], "align": "tokens", "table": s["table"], "_data": 1}
    return {"format": "conllu", "view": s["view"], "align": s["align"], "table": s["table"], "_data": s["data"]}


def _read_units(s: dict[str, Any]) -> Any:
    from sigfast.analysis import read_units

    o = _units_opts(s)
    gold = str(UD / "ud_gold.conllu")
    systems = [gold, str(UD / "ud_sys_raw.conllu")] if o.pop("_data") == 0 else [gold, gold]
    return read_units(gold, systems, names=["A", "B"], **o)


def _coref(s: dict[str, Any]) -> tuple[str, str, str]:
    r = [str(COREF / "coref_r1.conll"), str(COREF / "coref_r2.conll")]
    return str(COREF / "coref_key.conll"), *(r if s["data"] == 0 else r[::-1])


def _seed_scores(s: dict[str, Any]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20 + s["data"])
    return {"a": rng.normal(0.7, 0.02, 6), "b": rng.normal(0.72, 0.02, 6), "c": rng.normal(0.71, 0.02, 6)}


def _meta(s: dict[str, Any]) -> Any:
    rng = np.random.default_rng(30 + s["data"])
    h = rng.normal(size=(6, 10)) + np.arange(6)[:, None]
    metrics = {f"m{k}": h + rng.normal(size=h.shape) * (k + 1) for k in range(s["metrics"])}
    params = s["params"] if s["statistic"] == "tau_like" else {}
    rest = {k: s[k] for k in META_MORE if k in s}
    return sigfast.metaeval.evaluate(
        h,
        metrics,
        level=s.get("level", "system"),
        statistic=s["statistic"],
        n_resamples=s["B"],
        seed=s["seed"],
        **rest,
        **params,
    )


#: every other setting of metaeval.evaluate that changes its result (MetaEvalSettings), base -> other value
META_MORE = {
    "interval": ("both", "systems"),
    "test": ("perm-both", "perm-systems"),
    "confidence_level": (0.95, 0.9),
    "alternative": ("two-sided", "greater"),
    "pvalue": ("plus_one", "raw"),
    "correction": ("holm", "bonferroni"),
    "alpha": (0.05, 0.1),
    "nan_policy": ("omit", "omit-system"),
}


def _split_file(s: dict[str, Any], tmp: Path) -> str:
    src = (DATA / "studies" / "tiny.conllu").read_text()
    p = tmp / f"corpus{s['data']}.conllu"
    p.write_text(src if s["data"] == 0 else src + "\n")  # other bytes, other data hash
    return str(p)


def _stats3(s: dict[str, Any], n: int = 200) -> sigfast.Statistics:
    rng = np.random.default_rng(40 + s["data"])
    acc = {"a": 0.7, "b": 0.75, "c": 0.72}
    return sigfast.Statistics.from_scores({k: (rng.random(n) < v).astype(float) for k, v in acc.items()})


def _splits3(s: dict[str, Any]) -> list[sigfast.Statistics]:
    return [_stats3({"data": s["data"] + 10 * k}, 80) for k in range(3)]


def _across_units(s: dict[str, Any]) -> Any:
    """McNemar across three "splits" (parts of the units) of CoNLL-U units: the view, alignment and format
    option are signed."""
    from sigfast.studies import across_splits, unit_statistics

    u = _read_units(s)
    k = np.arange(u.n_units)
    masks = [k < u.n_units // 2, k >= u.n_units // 2, k >= 0]
    return across_splits([unit_statistics(u, m) for m in masks], test="mcnemar", variant=s["variant"])


def _across_metric(s: dict[str, Any]) -> Any:
    """The bootstrap across three "splits" of CoNLL-U statistics: the metric and the alignment are signed."""
    from sigfast.formats import parse

    gold = str(UD / "ud_gold.conllu")
    systems = {"A": gold, "B": str(UD / "ud_sys_raw.conllu") if s["data"] == 0 else gold}
    st = parse("conllu", gold, systems, align=s["align"] if s["data"] == 0 else "tokens").statistics(s["metric"])
    return sigfast.studies.across_splits([st, st, st], test="bootstrap", n_resamples=s["B"], seed=s["seed"])


#: the benchmark design of the analytic power results: base, one change per setting
DESIGN = (
    {"cluster_size": 5, "icc": 0.1, "correlation": 0.2, "accuracy": 0.5, "alpha": 0.05, "power": 0.8},
    {"cluster_size": 4, "icc": 0.2, "correlation": 0.3, "accuracy": 0.7, "alpha": 0.1, "power": 0.9},
)


def _design(s: dict[str, Any]) -> dict[str, Any]:
    return {k: s[k] for k in DESIGN[0]}


#: result type -> (function of the settings, base settings, one change per setting)
CASES: dict[str, tuple[Callable[[dict[str, Any]], Any], dict[str, Any], dict[str, Any]]] = {
    "paired_bootstrap": (
        lambda s: sigfast.paired_bootstrap(_mt(s), n_resamples=s["B"], seed=s["seed"], **_params(s)),
        MT_BASE,
        MT_VARY,
    ),
    "permutation_test": (
        lambda s: sigfast.permutation_test(
            _mt(s), n_resamples=s["B"], seed=s["seed"], method="approximate", **_params(s)
        ),
        MT_BASE,
        MT_VARY,
    ),
    "bootstrap_interval": (
        lambda s: sigfast.bootstrap_interval(
            _mt(s), systems=("a", "b"), n_resamples=s["B"], seed=s["seed"], **_params(s)
        ),
        MT_BASE,
        MT_VARY,
    ),
    "pairwise": (
        lambda s: sigfast.pairwise(
            _scores(s),
            metric=s["metric"],
            n_resamples=s["B"],
            seed=s["seed"],
            groups=s["groups"],
            **({"q": s["q"]} if s["metric"] == "quantile" else {}),
        ),
        {"metric": "quantile", "q": 0.5, "data": 0, "B": B, "seed": 1, "groups": "boundaries"},
        {"metric": "median", "q": 0.4, "data": 1, "B": B + 1, "seed": 2, "groups": "strict"},
    ),
    "paired_bootstrap_clusters": (
        lambda s: sigfast.paired_bootstrap(
            _scores(s, 2, 60)["s0"],
            _scores(s, 2, 60)["s1"],
            clusters=np.arange(60) // s["cluster_size"],
            n_resamples=s["B"],
            seed=s["seed"],
        ),
        {"cluster_size": 4, "data": 0, "B": B, "seed": 1},
        {"cluster_size": 5, "data": 1, "B": B + 1, "seed": 2},
    ),
    "standard_error": (
        lambda s: sigfast.standard_error(
            _scores(s, 2, 60)["s0"],
            _scores(s, 2, 60)["s1"] if s["pair"] else None,
            clusters=np.arange(60) // s["cluster_size"] if s["cluster_size"] else False,
            confidence_level=s["conf"],
        ),
        {"pair": True, "cluster_size": 4, "conf": 0.95, "data": 0},
        {"pair": False, "cluster_size": 5, "conf": 0.9, "data": 1},
    ),
    "leaderboard": (
        lambda s: sigfast.leaderboard(
            _scores(s, 3, 60),
            clusters=np.arange(60) // s["cluster_size"],
            pairs=s["pairs"],
            groups=s["groups"],
            method=s["method"],
            confidence_level=s["conf"],
            correction=s["correction"],
            n_resamples=s["B"],
            seed=s["seed"],
        ),
        {
            "cluster_size": 4,
            "pairs": "bootstrap",
            "groups": "boundaries",
            "method": "percentile",
            "conf": 0.95,
            "correction": "holm",
            "data": 0,
            "B": 100,
            "seed": 1,
        },
        {
            "cluster_size": 5,
            "pairs": "normal",
            "groups": "strict",
            "method": "bca",
            "conf": 0.9,
            "correction": "bonferroni",
            "data": 1,
            "B": 101,
            "seed": 2,
        },
    ),
    "benchmark_power": (
        lambda s: sigfast.minimum_detectable_difference(s["n"], **_design(s)),
        {"n": 500, **DESIGN[0]},
        {"n": 400, **DESIGN[1]},
    ),
    "items_needed": (
        lambda s: sigfast.items_needed(s["difference"], **_design(s)),
        {"difference": 0.05, **DESIGN[0]},
        {"difference": 0.04, **DESIGN[1]},
    ),
    "pairwise_unpaired": (
        lambda s: sigfast.pairwise_unpaired(_scores(s), test=s["test"]),
        {"test": "ranksum", "data": 0},
        {"test": "welch", "data": 1},
    ),
    "mcnemar": (
        lambda s: sigfast.mcnemar(
            (np.random.default_rng(s["data"]).random(50) < 0.7).astype(int), np.ones(50, int), method=s["method"]
        ),
        {"method": "mid-p", "data": 0},
        {"method": "exact", "data": 1},
    ),
    "sample_size": (
        lambda s: sigfast.bootstrap_sample_size(
            x=_scores(s, 2, 60)["s0"],
            y=_scores(s, 2, 60)["s1"],
            metric="mean",
            **s["metric"],
            n_simulations=4,
            n_resamples=s["B"],
            seed=s["seed"],
            max_n=64,
        ),
        {"metric": {}, "data": 0, "B": 50, "seed": 1},
        {"metric": {"higher_is_better": False}, "data": 1, "B": 51, "seed": 2},
    ),
    "aso": (
        lambda s: sigfast.aso(
            _seed_scores(s)["a"], _seed_scores(s)["b"], n_resamples=s["B"], seed=s["seed"], dt=s["dt"]
        ),
        {"data": 0, "B": 100, "seed": 1, "dt": 0.005},
        {"data": 1, "B": 101, "seed": 2, "dt": 0.01},
    ),
    "seeds": (
        lambda s: sigfast.compare_seeds(_seed_scores(s), n_resamples=s["B"], seed=s["seed"], tau=s["tau"]),
        {"data": 0, "B": 100, "seed": 1, "tau": 0.5},
        {"data": 1, "B": 101, "seed": 2, "tau": 0.2},
    ),
    "seeds_pair": (
        lambda s: sigfast.compare_seeds(_seed_scores(s), n_resamples=s["B"], seed=s["seed"]).pairs[0],
        {"data": 0, "B": 100, "seed": 1},
        {"data": 1, "B": 101, "seed": 2},
    ),
    "metaeval": (
        _meta,
        {
            "metrics": 2,
            "statistic": "tau_like",
            "params": {"threshold": 0.0},
            "data": 0,
            "B": 100,
            "seed": 1,
            "level": "system",
            **{k: v[0] for k, v in META_MORE.items()},
        },
        {
            "metrics": 3,
            "statistic": "pearson",
            "params": {"threshold": 0.5},
            "data": 1,
            "B": 101,
            "seed": 2,
            "level": "item",
            **{k: v[1] for k, v in META_MORE.items()},
        },
    ),
    "adjust": (
        lambda s: sigfast.adjust([0.01, 0.02 + s["data"] / 100, 0.3], s["method"]),
        {"method": "holm", "data": 0},
        {"method": "bh", "data": 1},
    ),
    "replicability": (
        lambda s: sigfast.replicability([0.01, 0.02 + s["data"] / 100, 0.3], method=s["method"]),
        {"method": "bonferroni", "data": 0},
        {"method": "fisher", "data": 1},
    ),
    "diff": (
        lambda s: sigfast.analysis.diff_units(_read_units(s), 0, 1),
        UNITS_BASE,
        UNITS_VARY,
    ),
    "diff_pairwise": (lambda s: sigfast.analysis.pairwise(_read_units(s)), UNITS_BASE, UNITS_VARY),
    "oracle": (lambda s: sigfast.analysis.oracle_units(_read_units(s)), UNITS_BASE, UNITS_VARY),
    "agreement": (lambda s: sigfast.analysis.agreement_units(_read_units(s)), UNITS_BASE, UNITS_VARY),
    "coref_diff": (
        lambda s: sigfast.analysis.coref_diff(*_coref(s), criterion=s["criterion"]),
        {"criterion": "any", "data": 0},
        {"criterion": "nominal", "data": 1},
    ),
    "coref_oracle": (
        lambda s: sigfast.analysis.coref_oracle(_coref(s)[0], list(_coref(s)[1:]), criterion=s["criterion"]),
        {"criterion": "any", "data": 0},
        {"criterion": "nominal", "data": 1},
    ),
    "across_splits": (
        lambda s: sigfast.studies.across_splits(_splits3(s), test=s["test"], n_resamples=s["B"], seed=s["seed"]),
        {"test": "bootstrap", "data": 0, "B": B, "seed": 1},
        {"test": "permutation", "data": 1, "B": B + 1, "seed": 2},
    ),
    "across_splits_units": (
        _across_units,
        {**UNITS_BASE, "variant": "mid-p"},
        {**UNITS_VARY, "variant": "exact"},
    ),
    "across_splits_metric": (
        _across_metric,
        {"metric": "las", "align": "chars", "data": 0, "B": B, "seed": 1},
        {"metric": "uas", "align": "tokens", "data": 1, "B": B + 1, "seed": 2},
    ),
    "test_size": (
        lambda s: sigfast.studies.test_size_curve(
            _stats3(s),
            sizes=[50, 100],
            mode="random",
            n_draws=2,
            n_resamples=s["B"],
            seed=s["seed"],
            variant=s["variant"],
        ),
        {"variant": "bk", "data": 0, "B": B, "seed": 1},
        {"variant": "koehn", "data": 1, "B": B + 1, "seed": 2},
    ),
    "calibration": (
        lambda s: sigfast.studies.calibration(_stats3(s), m=50, n_test_sets=2, n_resamples=s["B"], seed=s["seed"]),
        {"data": 0, "B": B, "seed": 1},
        {"data": 1, "B": B + 1, "seed": 2},
    ),
    "paired_proportion": (
        lambda s: sigfast.paired_proportion_interval(
            (np.random.default_rng(s["data"]).random(60) < 0.6).astype(int),
            (np.random.default_rng(s["data"] + 7).random(60) < 0.7).astype(int),
            method=s["method"],
            confidence_level=s["conf"],
        ),
        {"method": "newcombe", "conf": 0.95, "data": 0},
        {"method": "tango", "conf": 0.9, "data": 1},
    ),
    "confidence_sequence": (
        lambda s: sigfast.confidence_sequence(
            np.random.default_rng(s["data"]).random(80),
            method=s["method"],
            confidence_level=s["conf"],
            batch=s["batch"],
        ),
        {"method": "asymptotic", "conf": 0.95, "batch": 1, "data": 0},
        {"method": "empirical-bernstein", "conf": 0.9, "batch": 10, "data": 1},
    ),
    "gate": (
        lambda s: sigfast.gate(
            np.random.default_rng(s["data"]).random(80),
            np.random.default_rng(s["data"] + 7).random(80),
            min_difference=s["min_diff"],
            method=s["method"],
            min_items=s["min_items"],
        ),
        {"method": "asymptotic", "min_diff": 0.0, "min_items": 30, "data": 0},
        {"method": "empirical-bernstein", "min_diff": -0.05, "min_items": 20, "data": 1},
    ),
    "bradley_terry": (
        lambda s: sigfast.bradley_terry(
            _battles(s["data"]), ties=s["ties"], se=s["se"], scale=s["scale"], anchor=s["anchor"], level=s["conf"]
        ),
        {"ties": "half", "se": "sandwich", "scale": 400.0, "anchor": None, "conf": 0.95, "data": 0},
        {"ties": "davidson", "se": "model", "scale": 300.0, "anchor": "m1", "conf": 0.9, "data": 1},
    ),
    "bradley_terry_bootstrap": (
        lambda s: (
            sigfast.bradley_terry(
                _battles(s["data"]), bootstrap=s["B"], seed=s["seed"], stream=s["stream"], level=s["conf"]
            ).bootstrap
        ),
        {"B": 20, "seed": 1, "stream": 2, "conf": 0.95, "data": 0},
        {"B": 21, "seed": 2, "stream": 1, "conf": 0.9, "data": 1},
    ),
    "win_rates": (
        lambda s: sigfast.win_rates(_battles(s["data"]), s["baseline"], level=s["conf"]),
        {"baseline": "m0", "conf": 0.95, "data": 0},
        {"baseline": "m1", "conf": 0.9, "data": 1},
    ),
    "paired_win_rate": (
        lambda s: sigfast.paired_win_rate(
            {**_battles(s["data"]), "q": [str(k // 6) for k in range(300)]},
            *s["pair"],
            s["baseline"],
            level=s["conf"],
            cluster="q",
        ),
        {"pair": ("m2", "m3"), "baseline": "m0", "conf": 0.95, "data": 0},
        {"pair": ("m1", "m3"), "baseline": "m1", "conf": 0.9, "data": 1},
    ),
    "report": (
        lambda s: sigfast.report(
            MT / "edge.ref1" if s["data"] == 0 else MT / "edge.ref2",
            [str(MT / "edge.hyp"), str(MT / ("edge.ref2" if s["data"] == 0 else "edge.ref1"))],
            format="mt",
            names=["a", "b"],
            metrics=[s["metric"]],
            tokenize=s["tokenize"],
            n_resamples=s["B"],
            interval_resamples=50,
            seed=s["seed"],
        ),
        {"metric": "bleu", "tokenize": "13a", "data": 0, "B": B, "seed": 1},
        {"metric": "chrf", "tokenize": "intl", "data": 1, "B": B + 1, "seed": 2},
    ),
    "prediction_powered": (
        lambda s: sigfast.prediction_powered(*_judged(s["data"]), power_tuning=s["tuned"], level=s["conf"]),
        {"tuned": True, "conf": 0.95, "data": 0},
        {"tuned": False, "conf": 0.9, "data": 1},
    ),
}


def _battles(seed: int) -> dict[str, list[str]]:
    """Battles of four models with ties, drawn from a seeded generator."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, 300)
    b = (a + rng.integers(1, 4, 300)) % 4
    win = rng.choice(["model_a", "model_b", "tie"], 300, p=[0.45, 0.4, 0.15])
    return {"model_a": [f"m{i}" for i in a], "model_b": [f"m{i}" for i in b], "winner": list(win)}


def _judged(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A judge's score of 200 items and a human label on 50 of them (NaN elsewhere)."""
    rng = np.random.default_rng(seed)
    human = rng.random(200)
    judge = human + rng.normal(0, 0.2, 200)
    human[50:] = np.nan
    return judge, human


#: the result type each case gives (every public result class has at least one case)
TYPES = {
    "paired_bootstrap": "PairedTestResult",
    "permutation_test": "PairedTestResult",
    "paired_bootstrap_clusters": "PairedTestResult",
    "bootstrap_interval": "BootstrapInterval",
    "pairwise": "PairwiseResult",
    "pairwise_unpaired": "UnpairedPairwiseResult",
    "mcnemar": "TestResult",
    "sample_size": "SampleSizeResult",
    "benchmark_power": "BenchmarkPower",
    "items_needed": "BenchmarkPower",
    "standard_error": "StandardErrorResult",
    "leaderboard": "Leaderboard",
    "aso": "AsoResult",
    "seeds": "SeedComparison",
    "seeds_pair": "SeedPair",
    "metaeval": "MetaEvalResult",
    "adjust": "AdjustedPValues",
    "replicability": "ReplicabilityResult",
    "diff": "DiffResult",
    "diff_pairwise": "PairwiseDiffResult",
    "oracle": "OracleResult",
    "agreement": "AgreementResult",
    "coref_diff": "CorefDiffResult",
    "coref_oracle": "CorefOracleResult",
    "across_splits": "AcrossSplitsResult",
    "across_splits_units": "AcrossSplitsResult",
    "across_splits_metric": "AcrossSplitsResult",
    "test_size": "TestSizeCurve",
    "calibration": "CalibrationResult",
    "split": "SplitResult",
    "resample_train": "SplitResult",  # one class for splits and drawn training sets
    "paired_proportion": "PairedProportionResult",
    "confidence_sequence": "ConfidenceSequenceResult",
    "gate": "GateResult",
    "bradley_terry": "Ratings",
    "bradley_terry_bootstrap": "BootstrapRatings",
    "win_rates": "WinRates",
    "paired_win_rate": "PairedWinRate",
    "prediction_powered": "PredictionPowered",
    "report": "Report",
}

#: analytic results that rest on no data (the settings are the whole question)
NO_DATA = {"benchmark_power", "items_needed"}


def _split_cases(tmp: Path) -> dict[str, Any]:
    from sigfast.studies import random_splits, resample_train

    return {
        "split": (
            lambda s: random_splits(_split_file(s, tmp), None, n_splits=s["k"], seed=s["seed"]),
            {"data": 0, "k": 2, "seed": 1},
            {"data": 1, "k": 3, "seed": 2},
        ),
        "resample_train": (
            lambda s: resample_train(_split_file(s, tmp), None, sizes=s["sizes"], seed=s["seed"]),
            {"data": 0, "sizes": [4], "seed": 1},
            {"data": 1, "sizes": [5], "seed": 2},
        ),
    }


def _check(make: Callable[[dict[str, Any]], Any], base: dict[str, Any], vary: dict[str, Any], name: str = "") -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = make(dict(base))
        assert type(r).__name__ == TYPES[name], (name, type(r))
        sig = r.signature
        assert sig == make(dict(base)).signature  # identical runs, identical signatures
        fields = parse(sig)
        assert unparse(fields) == sig and fields["sigfast"] == sigfast.__version__ and fields["test"]
        assert ("data" in fields) != (name in NO_DATA), sig
        # printed and serialized: the text, markdown and JSON carry it, LaTeX as a comment line
        assert sig in r.format("text") and sig in r.format("markdown") and f"% signature: {sig}" in r.format("latex")
        assert r.to_dict()["signature"] == sig
        for key, value in vary.items():
            other = make({**base, key: value}).signature
            assert other != sig, f"changing {key} left the signature alone: {sig}"
            assert unparse(parse(other)) == other


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_setting_changes_the_signature(name: str) -> None:
    _check(*CASES[name], name=name)


@pytest.mark.parametrize("name", ["split", "resample_train"])
def test_manifests_sign_their_settings_and_data(name: str, tmp_path: Path) -> None:
    _check(*_split_cases(tmp_path)[name], name=name)


def public_result_classes() -> set[type]:
    """Every Result subclass of the package (found by walking ``Result.__subclasses__()`` after importing
    every module), but for private ones."""
    import importlib
    import pkgutil

    from sigfast.results.base import Result

    for m in pkgutil.walk_packages(sigfast.__path__, "sigfast."):
        if not m.name.endswith("__main__"):
            importlib.import_module(m.name)

    def walk(c: type) -> set[type]:
        return {c, *(x for s in c.__subclasses__() for x in walk(s))}

    return {
        c for c in walk(Result) - {Result} if c.__module__.startswith("sigfast.") and not c.__name__.startswith("_")
    }


def test_every_result_type_is_covered() -> None:
    """Every public result class has a case above (the classes are found, not listed by hand)."""
    found = {c.__name__ for c in public_result_classes()}
    assert len(found) >= 25
    assert found == set(TYPES.values()), (found - set(TYPES.values()), set(TYPES.values()) - found)
    assert set(TYPES) == set(CASES) | {"split", "resample_train"}


def test_mcnemar_from_the_shell_signs_view_alignment_and_format_options(capsys: pytest.CaptureFixture) -> None:
    from sigfast.cli import main

    gold = str(UD / "ud_gold.conllu")

    def sig(*extra: str) -> str:
        capsys.readouterr()
        assert main(["compare", "--test", "mcnemar", "-f", "conllu", gold, f"A={gold}", f"B={gold}", *extra]) == 0
        line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("signature"))
        return line.split(": ", 1)[1]

    base = sig("--view", "las")
    assert base == sig("--view", "las") and unparse(parse(base)) == base
    assert parse(base)["align"] == "chars"  # conllu's default, as used
    for other in (
        sig("--view", "upos"),
        sig("--view", "las", "--align", "tokens"),
        sig("--view", "las", "-o", "table=counts"),
    ):
        assert other != base


def test_parse_refuses_what_is_not_a_signature() -> None:
    with pytest.raises(sigfast.InputError):
        parse("test:x|B:3")
    with pytest.raises(sigfast.InputError):
        parse("sigfast:0.1|test:x|test:y")
    name, params = sigfast.signature.parse_value("bleu[max_order=4,smooth=exp]")
    assert name == "bleu" and params == {"max_order": "4", "smooth": "exp"}


_SETTINGS = {
    "level": "system",
    "statistic": "pearson",
    "params": {},
    "interval": "both",
    "test": "perm-both",
    "n_resamples": 10,
    "seed": 1,
    "confidence_level": 0.95,
    "alternative": "two-sided",
    "pvalue": "plus_one",
    "correction": "holm",
    "alpha": 0.05,
    "nan_policy": "omit",
}


def test_metaeval_signature_names_the_metrics_and_hashes_the_data() -> None:
    base = {"metrics": 2, "statistic": "pearson", "params": {}, "data": 0, "B": 50, "seed": 1}
    two, three = _meta(base), _meta({**base, "metrics": 3})
    assert parse(two.signature)["metric"] == "m0+m1" and parse(three.signature)["metric"] == "m0+m1+m2"
    assert parse(two.signature)["data"] != parse(_meta({**base, "data": 1}).signature)["data"]
    # the signature is built from the one frozen, validated value of the settings
    import dataclasses

    st = two.settings
    assert isinstance(st, sigfast.metaeval.MetaEvalSettings) and dataclasses.is_dataclass(st)
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.seed = 2  # type: ignore[misc]
    assert two.signature == st.signature(
        metrics=two.metrics, n_items=two.n_items, n_systems=two.n_systems, data=two.data
    )
    with pytest.raises(sigfast.InputError, match="n_resamples"):
        sigfast.metaeval.MetaEvalSettings.of(**{**_SETTINGS, "n_resamples": True})


def test_score_json_signs_each_report(capsys: pytest.CaptureFixture) -> None:
    """`sigfast score --json` signs each report (format with every option, metrics, system, data hash); the text
    stays the reference scorer's report (no signature line: the parity tests compare it byte for byte)."""
    import json

    from sigfast.cli import main

    def run(*argv: str) -> tuple[list[dict[str, Any]], str]:
        capsys.readouterr()
        assert main(["score", "-f", "mt", *argv, "--json"]) == 0
        records = json.loads(capsys.readouterr().out)
        assert main(["score", "-f", "mt", *argv]) == 0
        return records, capsys.readouterr().out

    (base,), text = run("--ref", str(MT / "edge.ref1"), str(MT / "edge.hyp"))
    sig = base["signature"]
    assert "signature" not in text and unparse(parse(sig)) == sig and parse(sig)["test"] == "score"
    assert parse(sig)["format"].startswith("mt[") and parse(sig)["systems"] == "edge" and "data" in parse(sig)
    assert sig == run("--ref", str(MT / "edge.ref1"), str(MT / "edge.hyp"))[0][0]["signature"]
    for other in (
        run("--ref", str(MT / "edge.ref2"), str(MT / "edge.hyp")),  # other data
        run("--ref", str(MT / "edge.ref1"), str(MT / "edge.hyp"), "-o", "tokenize=intl"),  # a format option
        run("--ref", str(MT / "edge.ref1"), str(MT / "edge.hyp"), "-m", "chrf"),  # other metrics
    ):
        assert other[0][0]["signature"] != sig
