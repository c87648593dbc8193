"""Property-based fuzzing: every reader and every public function that takes data returns a
valid result or raises a ``SigfastError``, never anything else.

The budget is a hypothesis settings profile chosen by ``SIGFAST_FUZZ`` ("ci", the default:
a few examples per test, deterministic, well under a minute in all; "dev": many more).
``benches/fuzz_campaign.py`` runs the same reader mutations for 10^5-10^6 executions.
"""

from __future__ import annotations

import inspect
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzlib
import sigfast
from sigfast.exceptions import SigfastError

settings.register_profile(
    "ci",
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("SIGFAST_FUZZ", "ci"))

# Arbitrary input: the readers' scorer warnings on it are incidental (the property is a result or a SigfastError).
pytestmark = pytest.mark.filterwarnings("ignore::sigfast.exceptions.ScorerWarning")

TARGETS = fuzzlib.targets()
WORK = Path(tempfile.mkdtemp(prefix="sigfast-fuzz-"))


def test_every_format_has_seed_files() -> None:
    assert fuzzlib.missing_formats() == []
    names = {t.name for t in TARGETS}
    for fmt in sigfast.formats.available():
        assert f"score:{fmt}" in names and f"read:{fmt}" in names
    for key in ("tsv", "jsonl", "npy"):
        assert f"read_items:{key}" in names


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_seed_files_are_valid(target: fuzzlib.Target) -> None:
    assert fuzzlib.run_case(target, list(target.seeds), WORK) == "ok"


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
@given(rnd=st.randoms(use_true_random=False))
def test_mutated_inputs_give_a_result_or_a_sigfast_error(target: fuzzlib.Target, rnd: random.Random) -> None:
    files = fuzzlib.mutated_files(target, rnd)
    fuzzlib.run_case(target, files, WORK)  # raises anything but a SigfastError


# ----------------------------------------------------------------------------- public API
finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
any_float = st.one_of(
    finite,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e308, -1e308, 5e-324, 0.5, 1.0]),
)
counts = st.integers(-3, 12)


@st.composite
def vectors(draw: Any, n: int | None = None) -> Any:
    size = n if n is not None else draw(st.integers(0, 25))
    kind = draw(st.sampled_from(["finite", "any", "ints", "bools", "list"]))
    if kind == "finite":
        return np.array(draw(st.lists(finite, min_size=size, max_size=size)))
    if kind == "any":
        return np.array(draw(st.lists(any_float, min_size=size, max_size=size)))
    if kind == "ints":
        return np.array(draw(st.lists(counts, min_size=size, max_size=size)))
    if kind == "bools":
        return np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)))
    return draw(st.lists(st.one_of(finite, counts), min_size=size, max_size=size))


@st.composite
def matrices(draw: Any, n: int | None = None, k: int | None = None) -> Any:
    rows = n if n is not None else draw(st.integers(0, 20))
    cols = k if k is not None else draw(st.integers(0, 6))
    vals = draw(st.lists(st.one_of(counts, any_float), min_size=rows * cols, max_size=rows * cols))
    return np.array(vals, dtype=np.float64).reshape(rows, cols)


@st.composite
def paired(draw: Any) -> tuple[Any, Any]:
    n = draw(st.integers(0, 25))
    if draw(st.booleans()):
        k = draw(st.integers(1, 5))
        return draw(matrices(n, k)), draw(matrices(n if draw(st.integers(0, 9)) else n + 1, k))
    return draw(vectors(n)), draw(vectors(n if draw(st.integers(0, 9)) else n + 1))


metric_names = st.sampled_from([None, "mean", "f1", "accuracy", "precision", "bleu", "chrf", "aer", "wer", "nope"])
small_b = st.one_of(st.integers(1, 300), st.sampled_from([0, -1, True, 2**41, 2.5]))


@st.composite
def battle_columns(draw: Any) -> dict[str, list[Any]]:
    """Battle columns of a few models: self-play, unknown winners, empty tables and one-sided models included."""
    n = draw(st.integers(0, 30))
    models = st.sampled_from(["a", "b", "c", "d", "", None, 1.5])
    winners = st.sampled_from(["model_a", "model_b", "tie", "tie (bothbad)", "x", None, float("nan")])
    return {
        "model_a": draw(st.lists(models, min_size=n, max_size=n)),
        "model_b": draw(st.lists(models, min_size=n, max_size=n)),
        "winner": draw(st.lists(winners, min_size=n, max_size=n)),
    }


@st.composite
def clustered_battles(draw: Any) -> dict[str, list[Any]]:
    """Battle columns with a prompt column (missing and empty keys included)."""
    cols = draw(battle_columns())
    n = len(cols["winner"])
    cols["q"] = draw(st.lists(st.sampled_from(["p1", "p2", "p3", "", None]), min_size=n, max_size=n))
    return cols


API_CALLS: dict[str, Any] = {
    "paired_bootstrap": st.tuples(paired(), st.fixed_dictionaries({"metric": metric_names, "n_resamples": small_b})),
    "permutation_test": st.tuples(
        paired(),
        st.fixed_dictionaries(
            {"metric": metric_names, "n_resamples": small_b, "method": st.sampled_from(["auto", "approximate"])}
        ),
    ),
    "bootstrap_interval": st.tuples(
        paired(),
        st.fixed_dictionaries(
            {"metric": metric_names, "n_resamples": small_b, "method": st.sampled_from(["bca", "percentile"])}
        ),
    ),
    "standard_error": st.tuples(
        paired(), st.fixed_dictionaries({"clusters": st.one_of(st.none(), st.lists(st.integers(0, 4), max_size=40))})
    ),
    "leaderboard": st.tuples(
        st.tuples(st.fixed_dictionaries({"a": vectors(), "b": vectors()})),
        st.fixed_dictionaries(
            {"n_resamples": small_b, "clusters": st.one_of(st.none(), st.lists(st.integers(0, 4), max_size=40))}
        ),
    ),
    "minimum_detectable_difference": st.tuples(
        st.tuples(st.one_of(st.integers(-5, 10**6), st.floats())),
        st.fixed_dictionaries({"icc": st.floats(), "cluster_size": st.floats(), "correlation": st.floats()}),
    ),
    "items_needed": st.tuples(
        st.tuples(st.floats()),
        st.fixed_dictionaries({"icc": st.floats(), "cluster_size": st.floats(), "accuracy": st.floats()}),
    ),
    "paired_ttest": st.tuples(paired(), st.just({})),
    "wilcoxon": st.tuples(paired(), st.just({})),
    "sign_test": st.tuples(paired(), st.just({})),
    "mcnemar": st.tuples(paired(), st.just({})),
    "mann_whitney_u": st.tuples(st.tuples(vectors(), vectors()), st.just({})),
    "welch_ttest": st.tuples(st.tuples(vectors(), vectors()), st.just({})),
    "aso": st.tuples(st.tuples(vectors(), vectors()), st.fixed_dictionaries({"n_resamples": small_b})),
    "compare_seeds": st.tuples(
        st.tuples(st.fixed_dictionaries({"a": vectors(), "b": vectors()})),
        st.fixed_dictionaries({"n_resamples": small_b}),
    ),
    "paired_proportion_interval": st.tuples(
        paired(), st.fixed_dictionaries({"method": st.sampled_from(["newcombe", "tango", "bonett-price", "x"])})
    ),
    "confidence_sequence": st.tuples(
        paired(),
        st.fixed_dictionaries(
            {
                "method": st.sampled_from(["auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"]),
                "batch": st.integers(-1, 12),
                "bounds": st.one_of(st.none(), st.tuples(st.floats(), st.floats())),
            }
        ),
    ),
    "bradley_terry": st.tuples(
        st.tuples(battle_columns()),
        st.fixed_dictionaries(
            {
                "ties": st.sampled_from(["half", "davidson", "x"]),
                "se": st.sampled_from(["model", "sandwich", "cluster"]),
                "anchor": st.sampled_from([None, "a", "z"]),
            }
        ),
    ),
    "win_rates": st.tuples(st.tuples(battle_columns(), st.sampled_from(["a", "b", "z"])), st.just({})),
    "paired_win_rate": st.tuples(
        st.tuples(
            clustered_battles(),
            st.sampled_from(["a", "b", "z"]),
            st.sampled_from(["b", "c"]),
            st.sampled_from(["c", "d"]),
        ),
        st.fixed_dictionaries({"cluster": st.sampled_from(["q", "zz"]), "level": st.floats(-1, 2)}),
    ),
    "prediction_powered": st.tuples(
        paired(),
        st.fixed_dictionaries(
            {"power_tuning": st.booleans(), "clusters": st.one_of(st.none(), st.lists(st.integers(0, 4), max_size=30))}
        ),
    ),
    "gate": st.tuples(
        paired(),
        st.fixed_dictionaries(
            {
                "min_difference": st.floats(),
                "method": st.sampled_from(["auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"]),
                "min_items": st.integers(-1, 40),
            }
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(API_CALLS))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(data=st.data())
def test_api_gives_a_result_or_a_sigfast_error(name: str, data: Any) -> None:
    (args, kwargs) = data.draw(API_CALLS[name])
    fn = getattr(sigfast, name)
    try:
        fn(*args, **kwargs)
    except SigfastError:
        pass


ints_any = st.one_of(st.integers(-5, 50), st.sampled_from([True, 2**70, -(2**70)]), st.floats(-5, 50))
probs = st.one_of(st.floats(-0.5, 1.5), st.sampled_from([float("nan"), float("inf"), 0.0, 1.0]))


@given(
    k=ints_any,
    n=ints_any,
    cl=probs,
    which=st.sampled_from(
        [
            "wilson_interval",
            "clopper_pearson_interval",
            "agresti_coull_interval",
            "proportion_interval",
            "jeffreys_interval",
            "beta_binomial_interval",
            "binomial_test",
        ]
    ),
)
def test_counts_api(k: Any, n: Any, cl: Any, which: str) -> None:
    fn = getattr(sigfast, which)
    try:
        fn(k, n, cl)  # binomial_test(k, n, p) takes a probability third, the intervals a level
    except SigfastError:
        pass


@given(
    p=st.lists(st.one_of(probs, st.floats()), max_size=12),
    method=st.sampled_from(["holm", "bonferroni", "bh", "by", "hochberg", "none", "x"]),
)
def test_multitest_api(p: list[float], method: str) -> None:
    for fn in (lambda: sigfast.adjust(p, method), lambda: sigfast.replicability(p, method=method)):
        try:
            fn()
        except SigfastError:
            pass


@given(
    n=ints_any,
    gain=probs,
    disc=probs,
    which=st.sampled_from(["mcnemar_power", "mcnemar_sample_size", "bootstrap_power", "bootstrap_sample_size"]),
)
def test_power_api(n: Any, gain: Any, disc: Any, which: str) -> None:
    fn = getattr(sigfast, which)
    try:
        if which == "mcnemar_power":
            fn(n, gain, disc)
        elif which == "mcnemar_sample_size":
            fn(gain, disc)
        elif which == "bootstrap_power":
            fn(n, gain, disc, n_resamples=50, n_simulations=20)
        else:
            fn(gain, disc, n_resamples=50, n_simulations=20)
    except SigfastError:
        pass


@given(
    scores=st.dictionaries(st.sampled_from("abcd"), vectors(), max_size=4),
    B=small_b,
    mode=st.sampled_from(["shared", "independent"]),
)
def test_pairwise_api(scores: dict[str, Any], B: Any, mode: str) -> None:
    for fn in (
        lambda: sigfast.pairwise(scores, n_resamples=B, mode=mode, progress=False),
        lambda: sigfast.pairwise_unpaired(scores),
    ):
        try:
            fn()
        except SigfastError:
            pass


@given(data=st.lists(st.lists(st.one_of(counts, any_float, st.none()), max_size=6), max_size=5))
def test_krippendorff_api(data: Any) -> None:
    try:
        sigfast.krippendorff_alpha(data)
    except SigfastError:
        pass


def test_every_data_function_is_fuzzed() -> None:
    """Each public function of ``sigfast.__all__`` that takes data is covered above (or by
    the reader fuzzing, for those that take files)."""
    covered = set(API_CALLS) | {
        "wilson_interval",
        "clopper_pearson_interval",
        "agresti_coull_interval",
        "proportion_interval",
        "jeffreys_interval",
        "beta_binomial_interval",
        "binomial_test",
        "adjust",
        "replicability",
        "mcnemar_power",
        "mcnemar_sample_size",
        "bootstrap_power",
        "bootstrap_sample_size",
        "pairwise",
        "pairwise_unpaired",
        "krippendorff_alpha",
        "read",  # reader targets
    }
    files_only = {"agreement", "coref_diff", "diff", "oracle"}  # gold/system files: analysis readers
    results_only = {"gain_threshold"}  # takes a PairwiseResult, not data
    public = {n for n in sigfast.__all__ if inspect.isfunction(getattr(sigfast, n))}
    assert public - covered - files_only - results_only == set()
