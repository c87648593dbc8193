"""Every public function's arguments and every API input of issue 29 ("Internal errors",
"Numbers that should not be printed", the keyword and type conventions, the optional extras):
each gives a SigfastError saying what to do, or the right number checked against an independent
reference (scipy, numpy, exact enumeration), never a traceback or an impossible number."""

from __future__ import annotations

import inspect
import itertools
import math
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast._api import _annotation_check
from sigfast.engine.samples import variance_components
from sigfast.exceptions import ArgumentError, InputError, SigfastError

stats = pytest.importorskip("scipy.stats")

DATA = Path(__file__).parent / "data"


#: the public modules whose exported functions are documented API (``sigfast.studies.test_size_curve``,
#: ...); ``sigfast.metrics`` is on the command line's start-up path, which imports no more than it
#: needs: ``metrics.get`` names the closest of a metric's parameters itself (tested below)
MODULES = ("io", "studies", "seeds", "analysis")


def _public_functions() -> list[tuple[str, types.FunctionType]]:
    out = []
    for prefix, module in [("", sigfast), *((f"{m}.", getattr(sigfast, m)) for m in MODULES)]:
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, (type, types.ModuleType)):
                out.append((prefix + name, obj))
    return out


PUBLIC = _public_functions()


def test_the_walk_finds_the_public_functions() -> None:
    names = {n for n, _ in PUBLIC}
    assert {"minimum_detectable_difference", "items_needed", "leaderboard", "pairwise_unpaired", "read"} <= names
    assert {"studies.test_size_curve", "io.read_items", "analysis.read_units"} <= names
    assert len(names) >= 75


def _keyword_parameters(f: types.FunctionType) -> list[str]:
    return [
        n
        for n, p in inspect.signature(f).parameters.items()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and len(n) >= 3
    ]


@pytest.mark.parametrize(("name", "func"), PUBLIC, ids=[n for n, _ in PUBLIC])
def test_every_public_function_names_the_closest_keyword(name: str, func: types.FunctionType) -> None:
    """A misspelt keyword (each parameter's name with its last letter doubled) is a SigfastError (and
    the TypeError Python gives) naming the parameter, before any work starts."""
    params = _keyword_parameters(func)
    if not params:  # no parameters (metrics.available): any keyword is refused the same way
        with pytest.raises(ArgumentError, match="unexpected keyword argument 'zzz'"):
            func(zzz=1)
    for p in params:
        typo = p + p[-1]
        with pytest.raises(ArgumentError, match=rf"unexpected keyword argument {typo!r}; did you mean {p!r}\?") as e:
            func(**{typo: 1})
        assert isinstance(e.value, SigfastError) and isinstance(e.value, TypeError)


def _public_methods() -> list[tuple[str, object, str]]:
    """(Class.method, the callable as looked up on the class, its name) for every public method of
    every exported class, but methods whose ``**kwargs`` the method checks itself (display options)."""
    out = []
    for name in sigfast.__all__:
        cls = getattr(sigfast, name)
        if not isinstance(cls, type) or issubclass(cls, BaseException):
            continue
        for attr in dir(cls):
            if attr.startswith("_"):
                continue
            raw = inspect.getattr_static(cls, attr)
            func = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
            if not inspect.isfunction(func) or getattr(func, "deprecated_alias", False):
                continue
            if not func.__module__.startswith("sigfast"):
                continue  # NamedTuple's own methods
            kw = [p.name for p in inspect.signature(func).parameters.values() if p.kind is p.VAR_KEYWORD]
            if kw and kw[0] not in ("params", "metric_params"):
                continue  # display options (format, to_dict, ...): with_options checks them, tested below
            out.append((f"{name}.{attr}", cls, attr))
    return out


METHODS = _public_methods()


def test_the_walk_finds_the_methods() -> None:
    names = {n for n, _, _ in METHODS}
    assert {"PairwiseResult.plot_heatmap", "Statistics.from_scores", "Leaderboard.comparisons"} <= names
    assert len(names) >= 60


@pytest.mark.parametrize(("label", "cls", "attr"), METHODS, ids=[m[0] for m in METHODS])
def test_every_public_method_names_the_closest_keyword(label: str, cls: type, attr: str) -> None:
    """The methods of every exported class (results, Statistics): a misspelt keyword is an
    ArgumentError naming the closest, before the method runs (instance methods are called unbound,
    on None: the check comes first)."""
    raw = inspect.getattr_static(cls, attr)
    bound = isinstance(raw, (classmethod, staticmethod))
    func = getattr(cls, attr)
    params = [p for p in _keyword_parameters(raw.__func__ if bound else raw) if p not in ("self", "cls")]
    if not params:
        with pytest.raises(ArgumentError, match="unexpected keyword argument 'zzz'"):
            func(**{"zzz": 1}) if bound else func(None, zzz=1)
        return
    for p in params:
        typo = p + p[-1]
        with pytest.raises(ArgumentError, match=rf"{typo!r}; did you mean {p!r}\?"):
            func(**{typo: 1}) if bound else func(None, **{typo: 1})


def test_output_options_name_the_closest() -> None:
    gold, system = DATA / "chunk" / "ner_gold.txt", DATA / "chunk" / "ner_system.txt"
    d = sigfast.diff(gold, system, gold)
    assert d.format("text", sort="delta")
    for call in (lambda: d.format("text", sortt="delta"), lambda: d.to_dict(sortt="delta")):
        with pytest.raises(ArgumentError, match="no output option 'sortt'; did you mean 'sort'"):
            call()
    with pytest.raises(ArgumentError, match="'indnt'; did you mean 'indent'"):
        d.to_json(indnt=2)
    assert d.to_json(indent=None, sort="delta").startswith("{")
    with pytest.raises(InputError, match="got 'txt'; did you mean 'text'"):
        d.format("txt")


def test_the_readme_example_of_a_misspelt_keyword() -> None:
    from sigfast.exceptions import ArgumentError

    with pytest.raises(ArgumentError, match="n_resample.*did you mean 'n_resamples'") as e:
        sigfast.paired_bootstrap([0.1, 0.2], [0.2, 0.3], n_resample=10)
    assert isinstance(e.value, TypeError) and isinstance(e.value, SigfastError)
    with pytest.raises(ArgumentError, match="alpha"):
        sigfast.leaderboard({"a": [0.1, 0.2], "b": [0.2, 0.4]}, alpha="0.05")
    with pytest.raises(ArgumentError, match="bootstrap"):
        sigfast.leaderboard({"a": [0.1, 0.2], "b": [0.2, 0.4]}, bootstrap="no")
    with pytest.raises(SigfastError, match="'powr'; did you mean 'power'"):
        sigfast.minimum_detectable_difference(100, powr=0.9)
    with pytest.raises(SigfastError, match="'top_kk'; did you mean 'top_k'"):
        sigfast.diff(
            DATA / "chunk" / "ner_gold.txt",
            DATA / "chunk" / "ner_system.txt",
            DATA / "chunk" / "ner_gold.txt",
            top_kk=3,
        )
    with pytest.raises(SigfastError, match=r"no parameter 'smoth' \(did you mean 'smooth'\?\)"):
        sigfast.metrics.get("bleu", smoth=1)
    with pytest.raises(SigfastError, match="'formt'; did you mean 'format'"):
        sigfast.read(DATA / "chunk" / "ner_gold.txt", [DATA / "chunk" / "ner_system.txt"], formt="ner")


def _typed_parameters() -> list[tuple[str, types.FunctionType, str, frozenset[str], tuple | None]]:
    out = []
    for name, f in PUBLIC:
        for p in inspect.signature(f).parameters.values():
            c = _annotation_check(p.annotation)
            if c is not None and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                out.append((name, f, p.name, *c))
    return out


TYPED = _typed_parameters()


@pytest.mark.parametrize(("name", "func", "param", "kinds", "choices"), TYPED, ids=[f"{t[0]}.{t[2]}" for t in TYPED])
def test_every_typed_parameter_refuses_a_wrong_type(name, func, param, kinds, choices) -> None:
    """Every parameter annotated with simple types or choices refuses a value of another type (a list,
    and a string where it takes no string) with a SigfastError naming it, before any work starts."""
    name = func.__name__
    with pytest.raises(SigfastError, match=rf"{name}\(\): {param} must be"):
        func(**{param: [1]})
    if "str" not in kinds and choices is None:
        with pytest.raises(ArgumentError, match=rf"{param} must be"):
            func(**{param: "0.05"})
    if choices is not None and "str" not in kinds:
        with pytest.raises(InputError, match=rf"{param} must be one of"):
            func(**{param: "zzzz"})


def test_the_issues_type_and_choice_cases() -> None:
    data = {"a": np.linspace(0, 1, 30), "b": np.linspace(0, 1, 30) ** 2}
    with pytest.raises(ArgumentError, match="bootstrap must be True or False, got 'no'"):
        sigfast.leaderboard(data, bootstrap="no")
    with pytest.raises(ArgumentError, match="alpha must be a number, got '0.05'"):
        sigfast.leaderboard(data, alpha="0.05")
    with pytest.raises(InputError, match="pairs must be one of .*did you mean 'bootstrap'"):
        sigfast.leaderboard(data, pairs="bootsrap")
    with pytest.raises(InputError, match="variant must be one of .*did you mean 'koehn'"):
        sigfast.paired_bootstrap(data["a"], data["b"], variant="kohen")
    with pytest.raises(ArgumentError, match="n_resamples must be an integer"):
        sigfast.paired_bootstrap(data["a"], data["b"], n_resamples=True)
    # numpy scalars are numbers and bools
    r = sigfast.leaderboard(data, alpha=np.float64(0.05), bootstrap=np.bool_(False), n_resamples=np.int64(100))
    assert r.alpha == 0.05 and r.bootstrap_intervals is None


# --------------------------------------------------------------------------------------------
# internal errors


def test_unhashable_cluster_keys_are_named() -> None:
    x, y = np.linspace(0, 1, 30), np.linspace(0, 1, 30) ** 2
    with pytest.raises(InputError, match=r"cluster key of item 0 is \[1\], not a key"):
        sigfast.paired_bootstrap(x, y, clusters=[[1], *range(29)], n_resamples=100)
    with pytest.raises(InputError, match=r"cluster key of item 2 is \{\}, not a key"):
        sigfast.standard_error(x, clusters=[1, 2, {}, *range(27)])


def test_items_needed_for_a_tiny_difference_is_refused() -> None:
    with pytest.raises(InputError, match="a difference of 1e-160 needs more than 2\\^40 items"):
        sigfast.items_needed(1e-160)
    with pytest.raises(InputError, match="needs more than 2\\^40 items"):
        sigfast.items_needed(1e-300, sd=1e300)


def test_standard_error_of_huge_values_is_finite_and_right() -> None:
    rng = np.random.default_rng(1)
    v = rng.normal(0, 1, 200) * 1e300
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow warning
        r = sigfast.standard_error(v)
        d = sigfast.standard_error(v, v[::-1] * 0.5)
    scaled = v / 1e300
    assert r.standard_error == pytest.approx(stats.sem(scaled) * 1e300, rel=1e-12)
    assert r.estimate == pytest.approx(np.mean(scaled) * 1e300, rel=1e-12)
    diff = (v[::-1] * 0.5 - v) / 1e300
    assert d.standard_error == pytest.approx(stats.sem(diff) * 1e300, rel=1e-12)
    assert d.pvalue == pytest.approx(stats.ttest_1samp(diff, 0).pvalue, rel=0.05)  # z vs t, n = 200
    with pytest.raises(InputError, match="overflow|so large"):
        sigfast.standard_error([1.7e308, -1.7e308, 1.7e308, -1.7e308])


def test_scaling_by_a_power_of_two_changes_no_bit() -> None:
    from sigfast.engine.clusters import cluster_se

    rng = np.random.default_rng(2)
    v = rng.normal(0.5, 0.2, 101)
    codes = (np.arange(101) % 7).astype(np.uint32)
    for c in (None, codes):
        m, se = cluster_se(v, c)
        mb, seb = cluster_se(v * 2.0**1000, c)
        assert mb == m * 2.0**1000 and seb == se * 2.0**1000
        assert cluster_se(v * 2.0**-1040, c)[1] == pytest.approx(se * 2.0**-1040, rel=1e-12)


# --------------------------------------------------------------------------------------------
# numbers that should not be printed


def test_standard_error_of_one_item_is_nan_with_a_warning() -> None:
    with pytest.warns(RuntimeWarning, match="undefined on 1 item"):
        r = sigfast.standard_error([0.2], [0.7])
    assert math.isnan(r.standard_error) and math.isnan(r.zstat) and math.isnan(r.pvalue)
    text = r.format("text")
    assert "p = nan" in text and "warning: the standard error is undefined" in text
    with pytest.warns(RuntimeWarning, match="undefined on 1 cluster"):
        r = sigfast.standard_error([0.1, 0.2, 0.4], [0.5, 0.7, 0.6], clusters=["a", "a", "a"])
    assert math.isnan(r.pvalue)


def test_a_difference_without_spread_has_no_p_value() -> None:
    """0.7 − 0.2 and 0.8 − 0.3 differ only by rounding: SE 0, and z = 0.5/4e-17 would give p = 0."""
    with pytest.warns(RuntimeWarning, match="do not vary"):
        r = sigfast.standard_error([0.2, 0.3], [0.7, 0.8])
    assert r.standard_error == 0.0 and math.isnan(r.pvalue)
    same = sigfast.standard_error([0.2, 0.3], [0.2, 0.3])
    assert same.zstat == 0.0 and same.pvalue == 1.0
    with pytest.warns(RuntimeWarning, match="do not vary"):
        pass_fail = sigfast.standard_error(np.zeros(40), np.ones(40))
    assert math.isnan(pass_fail.pvalue)


def test_leaderboard_pairs_without_spread_are_nan_not_zero() -> None:
    x = np.linspace(0, 1, 40)
    lb = sigfast.leaderboard({"a": x, "b": x + 0.25, "c": x[::-1]}, bootstrap=False)
    i, j = lb.systems.index("a"), lb.systems.index("b")
    assert math.isnan(lb.pvalues[i, j]) and math.isnan(lb.adjusted[i, j])
    assert not lb.significance()[i, j]
    assert any("do not vary" in w for w in lb.warnings)
    assert np.nanmin(lb.pvalues) > 0
    # the other pairs: the z-test on the per-item differences (scipy's normal sf), Holm over all 3 pairs
    k = lb.systems.index("c")
    d = x[::-1] - x
    z = d.mean() / (d.std(ddof=1) / math.sqrt(d.size))
    assert lb.pvalues[i, k] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)


@pytest.mark.parametrize("power", [0.01, 0.05, 0.0, 1.0, -0.2])
def test_power_at_or_below_alpha_is_refused(power: float) -> None:
    with pytest.raises(InputError, match="power must be"):
        sigfast.minimum_detectable_difference(100, power=power)
    with pytest.raises(InputError, match="power must be"):
        sigfast.items_needed(0.05, power=power)


@pytest.mark.parametrize("alpha", [0.05, 1e-3, 1e-8, 1e-17, 1e-100, 1e-300])
def test_tiny_alpha_uses_the_upper_tail_quantile(alpha: float) -> None:
    r = sigfast.minimum_detectable_difference(100, alpha=alpha)
    z = stats.norm.isf(alpha / 2) + stats.norm.ppf(0.8)
    assert r.difference == pytest.approx(z * math.sqrt(0.5 / 100), rel=1e-12)
    n = sigfast.items_needed(0.2, alpha=alpha).n_items
    assert n == math.ceil(z * z * 0.5 / 0.04 * (1 - 1e-12))


def test_the_inverse_survival_function_equals_scipys() -> None:
    from sigfast.inference.classical import _nisf

    for q in [0.5, 0.3, 0.025, 1e-5, 5e-18, 1e-50, 1e-200, 1e-300]:
        assert _nisf(q) == pytest.approx(stats.norm.isf(q), rel=1e-13, abs=1e-15), q
    assert _nisf(5e-18) == pytest.approx(8.57, abs=0.01)  # where 1 - q rounds to 1 and ndtri(1) = inf


@pytest.mark.parametrize("sd", [1e-200, 1e-5, 1e5, 1e200, 1e300])
def test_extreme_sd_gives_the_formula_not_nan(sd: float) -> None:
    r = sigfast.minimum_detectable_difference(100, sd=sd, correlation=0.3)
    z = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    want = z * sd * math.sqrt(2 * (1 - 0.3)) / 10
    assert r.difference == pytest.approx(want, rel=1e-12)
    assert sigfast.items_needed(want, sd=sd, correlation=0.3).n_items == 100


def test_an_sd_whose_difference_overflows_is_refused() -> None:
    with pytest.raises(InputError, match="overflows"):
        sigfast.minimum_detectable_difference(100, sd=1.5e308)
    with pytest.raises(InputError, match="overflows"):
        sigfast.minimum_detectable_difference(1, sd=1e308, correlation=-1)


# --------------------------------------------------------------------------------------------
# within-item share


def test_within_item_share_on_repeats_with_no_item_effect() -> None:
    """Every sample an independent coin flip: no item effect; the between-item moment comes out
    negative about half the time, and the share is then 1 (it was 1.06), never above."""
    rng = np.random.default_rng(29)
    shares = []
    for _ in range(50):
        s = (rng.random((100, 4)) < 0.5).astype(float)
        vc = variance_components(s)
        assert vc.between >= 0
        shares.append(vc.within_share)
        # the one-way ANOVA moments (numpy): min(1, MS_within / MS_between)
        ms_between = 4 * np.var(s.mean(axis=1), ddof=1)
        ms_within = np.sum((s - s.mean(axis=1, keepdims=True)) ** 2) / (100 * 3)
        assert vc.within_share == pytest.approx(min(1.0, ms_within / ms_between), rel=1e-12)
    assert max(shares) == 1.0 and min(shares) < 1.0


def test_within_item_share_in_the_standard_error_and_leaderboard() -> None:
    rng = np.random.default_rng(5)
    a = (rng.random((60, 3)) < 0.5).astype(float)
    b = (rng.random((60, 3)) < 0.6).astype(float)
    st = sigfast.Statistics.from_scores({"a": a.mean(axis=1), "b": b.mean(axis=1)})
    st = st.replace(provenance={**(st.provenance or {}), "samples": {"a": a, "b": b}})
    r = sigfast.standard_error(st, system="a")
    assert 0.0 <= r.within_item_share <= 1.0
    lb = sigfast.leaderboard(st, bootstrap=False)
    assert np.all((lb.within_item_share >= 0) & (lb.within_item_share <= 1))


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(2, 12), st.integers(1, 5)),
        elements=st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.just(np.nan)),
    ),
    st.booleans(),
)
def test_within_item_share_lies_in_0_1(samples: np.ndarray, paired: bool) -> None:
    samples[:, 0] = np.where(np.isnan(samples[:, 0]), 0.0, samples[:, 0])  # every item has a sample
    vc = variance_components(samples, samples[::-1] * 0.5 if paired else None)
    share = vc.within_share
    assert math.isnan(share) or 0.0 <= share <= 1.0
    assert math.isnan(vc.between) or vc.between >= 0.0


# --------------------------------------------------------------------------------------------
# the significance star where the design cannot reach alpha


def _enumerated_bootstrap_min(u: int) -> float:
    """The smallest probability of any resample of u units drawn with replacement, by enumeration."""
    from collections import Counter

    counts = Counter(tuple(sorted(draw)) for draw in itertools.product(range(u), repeat=u))
    return min(counts.values()) / u**u


@pytest.mark.parametrize("g", [1, 2, 3, 4, 5])
def test_the_design_floor_by_enumeration(g: int) -> None:
    x = np.linspace(0, 1, 60)
    keys = np.arange(60) % g
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = sigfast.paired_bootstrap(x, x + 0.3, clusters=keys, n_resamples=200)
        p = sigfast.permutation_test(x, x + 0.3, clusters=keys, n_resamples=200)
    assert b.design_min_pvalue == pytest.approx(_enumerated_bootstrap_min(g), rel=1e-12)
    signs = list(itertools.product((-1, 1), repeat=g))  # sign flips of whole clusters
    # two-sided: the observed arrangement and its mirror are as extreme as anything
    assert p.design_min_pvalue == pytest.approx(min(1.0, 2 / len(signs)), rel=1e-12)
    assert b.reaches(0.05) == (g >= 3)
    assert p.reaches(0.05) == (g >= 6)


def test_no_star_with_two_clusters() -> None:
    from sigfast.cli.commands import _results_table

    x = np.linspace(0, 1, 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        two = sigfast.paired_bootstrap(x, x + 0.3, clusters=np.arange(100) % 2, n_resamples=1000)
        three = sigfast.paired_bootstrap(x, x + 0.3, clusters=np.arange(100) % 3, n_resamples=1000)
    assert two.pvalue < 0.05 and three.pvalue < 0.05  # both at the floor 1/(B+1)
    t2, t3 = _results_table([two]), _results_table([three])
    assert t2.rows[0][-1] == "" and any("no star: with 2 clusters" in n and "0.25" in n for n in t2.notes)
    assert t3.rows[0][-1] == "*" and not any("no star" in n for n in t3.notes)


# --------------------------------------------------------------------------------------------
# optional extras


def _block(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    for n in names:
        monkeypatch.setitem(sys.modules, n, None)


def test_every_plot_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(0)
    data = {k: rng.random(40) + i * 0.1 for i, k in enumerate("abc")}
    pw = sigfast.pairwise(data, n_resamples=200)
    _block(monkeypatch, "matplotlib", "matplotlib.pyplot", "matplotlib.colors", "matplotlib.lines")
    for plot in (pw.plot_heatmap, pw.plot_confidence_vs_gain):
        with pytest.raises(SigfastError, match=r"pip install 'sigfast\[plot\]'"):
            plot()


def test_to_frame_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    r = sigfast.paired_bootstrap(np.linspace(0, 1, 20), np.linspace(0, 1, 20) ** 2, n_resamples=100)
    _block(monkeypatch, "pandas")
    with pytest.raises(SigfastError, match=r"pip install 'sigfast\[pandas\]'"):
        r.to_frame()


def test_ray_backend_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(0)
    _block(monkeypatch, "ray")
    with pytest.raises(SigfastError, match=r"pip install 'sigfast\[ray\]'"):
        sigfast.pairwise({k: rng.random(30) for k in "abc"}, n_resamples=100, backend="ray")


def test_parquet_without_pyarrow_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted((DATA / "llm" / "lighteval" / "details").rglob("*.parquet"))
    assert files
    _block(monkeypatch, "pyarrow", "pyarrow.parquet")
    with pytest.raises(SigfastError, match=r"pip install 'sigfast\[parquet\]'"):
        sigfast.read(None, [str(files[0])], format="lighteval")


def test_zstd_eval_without_zstandard_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 reads zstd zip members itself")
    _block(monkeypatch, "zstandard")
    with pytest.raises(SigfastError, match=r"pip install 'sigfast\[inspect\]'"):
        sigfast.read(None, [str(DATA / "llm" / "inspect" / "figqa_alpha_12items.eval")], format="inspect")


def test_progress_without_tqdm_falls_back_to_plain_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _block(monkeypatch, "tqdm", "tqdm.auto")
    x = np.linspace(0, 1, 30)
    r = sigfast.paired_bootstrap(x, x**2, n_resamples=1000, progress=True)
    assert 0 < r.pvalue <= 1
    assert "100%" in capsys.readouterr().err


def test_every_matplotlib_import_comes_after_the_checked_one() -> None:
    """Structural: in every function that imports from matplotlib, sigfast._plot.pyplot() (which names
    the extra to install) runs first, so no plot raises a raw ModuleNotFoundError."""
    import ast

    root = Path(sigfast.__file__).parent
    seen = 0
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            own = [n for n in ast.walk(func) if n is not func]
            imports = [
                n.lineno
                for n in own
                if (isinstance(n, ast.ImportFrom) and (n.module or "").startswith("matplotlib"))
                or (isinstance(n, ast.Import) and any(a.name.startswith("matplotlib") for a in n.names))
            ]
            if not imports:
                continue
            checked = [
                n.lineno
                for n in own
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "pyplot"
            ]
            where = f"{path.relative_to(root)}:{func.name}"
            if where in ("results/plot.py:pyplot", "cli/common.py:precheck"):
                continue  # the checked import itself, and the CLI's own check naming the extra
            seen += 1
            assert checked and min(checked) < min(imports), where
    assert seen >= 3  # the heat map, the meta-evaluation and the calibration plots
