"""Adding a resampling test (issue 30, items 5 and 9): one module, one line in the dispatch list.

The toy test ``tests/data/resampling/toytrimmed.py`` (the paired bootstrap of a difference of trimmed means)
is registered from the test suite alone, through the entry point group ``sigfast.tests``: nothing in the
package names it, yet ``sigfast.resampling.run_test("trimmed", ...)`` and ``sigfast compare --test trimmed``
run it, its numbers equal scipy's ``trim_mean`` on the engine's own draws (rebuilt by ``tests/oracle.py``),
and its signature names its setting. The README's "Adding a test" names the files a contributor touches;
a test here keeps that list true.
"""

from __future__ import annotations

import ast
import importlib.metadata as md
import json
import re
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

import oracle
import sigfast
from sigfast import cli, resampling
from sigfast.cli import main
from sigfast.exceptions import InputError
from sigfast.results.signature import parse

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "sigfast"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy test, found as another distribution's entry point would be."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "data" / "resampling"))
    ep = EntryPoint(name="trimmed", value="toytrimmed", group=resampling.ENTRY_POINT_GROUP)
    real = md.entry_points

    def entry_points(**kw):  # type: ignore[no-untyped-def]
        if kw.get("group") == resampling.ENTRY_POINT_GROUP:
            return [ep]
        return real(**kw)

    monkeypatch.setattr(md, "entry_points", entry_points)
    monkeypatch.setattr(resampling, "_LOADED_ENTRY_POINTS", False)
    try:
        yield
    finally:
        resampling.unregister("trimmed")
        cli._MORE_TESTS.clear()


def _pair(n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.normal(0.5, 0.2, n)
    x[:3] += 4.0  # outliers the trimmed mean cuts
    return x, x + rng.normal(0.05, 0.1, n)


def test_the_toy_test_reaches_the_api_with_scipys_numbers(toy: None) -> None:
    x, y = _pair()
    n, B, seed = len(x), 300, 3
    r = resampling.run_test("trimmed", x, y, trim=0.1, n_resamples=B, seed=seed, return_distribution=True)
    delta = scipy.stats.trim_mean(y, 0.1) - scipy.stats.trim_mean(x, 0.1)
    assert r.statistic == pytest.approx(delta, abs=1e-12)
    # each resample's two trimmed means: scipy's on the engine's draws, rebuilt independently
    idx = np.stack([oracle.boot_indices(seed, b, n) for b in range(B)])
    ref = np.c_[scipy.stats.trim_mean(x[idx], 0.1, axis=1), scipy.stats.trim_mean(y[idx], 0.1, axis=1)]
    np.testing.assert_allclose(r.distribution, ref, rtol=0, atol=1e-12)
    # Berg-Kirkpatrick's count: resampled differences beyond twice the observed one
    count = int(np.sum(ref[:, 1] - ref[:, 0] > 2 * delta))
    assert r.count == count and r.pvalue == (count + 1) / (B + 1)
    assert r.test == "trimmed_mean_bootstrap"
    fields = parse(r.signature)
    assert fields["test"] == "trimmed_mean_bootstrap" and fields["trim"] == "0.1" and fields["B"] == str(B)
    assert parse(resampling.run_test("trimmed", x, y, trim=0.2, n_resamples=B).signature)["trim"] == "0.2"


def test_the_toy_test_is_validated_by_its_own_declaration(toy: None) -> None:
    x, y = _pair()
    with pytest.raises(InputError, match=r"trim must be a share in \[0, 0.5\)"):
        resampling.run_test("trimmed", x, y, trim=0.5)
    with pytest.raises(sigfast.ArgumentError, match="unexpected keyword argument 'trimm'; did you mean 'trim'"):
        resampling.run_test("trimmed", x, y, trimm=0.1)
    assert "trim" in resampling.keywords("trimmed") and "stream" in resampling.keywords("trimmed")


def test_the_toy_test_reaches_compare(toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x, y = _pair()
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text("".join(f"{float(v)!r}\n" for v in x))
    b.write_text("".join(f"{float(v)!r}\n" for v in y))
    assert main(["compare", "--test", "trimmed", str(a), str(b), "-n", "300", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = out[0] if isinstance(out, list) else out
    api = resampling.run_test("trimmed", x, y, n_resamples=300, seed=3)
    assert got["test"] == "trimmed_mean_bootstrap" and got["pvalue"] == api.pvalue
    assert got["statistic"] == pytest.approx(api.statistic, abs=1e-12)
    assert main(["compare", "--test", "trimmed", str(a), str(b), "-n", "300"]) == 0
    assert "trimmed_mean_bootstrap" in capsys.readouterr().out
    # a flag the test does not take is a usage error; an unknown test is argparse's
    assert main(["compare", "--test", "trimmed", "--draws", "sacrebleu", str(a), str(b)]) == 2
    assert "--draws sacrebleu is for --test bootstrap" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["compare", "--test", "trimmd", str(a), str(b)])
    assert e.value.code == 2 and "invalid choice: 'trimmd'" in capsys.readouterr().err


def test_an_unknown_test_is_an_error_naming_the_closest() -> None:
    with pytest.raises(InputError, match="unknown resampling test 'bootstrp'; did you mean 'bootstrap'"):
        resampling.request("bootstrp", np.arange(20.0), np.arange(20.0))


# ----------------------------------------------------------------------------------------- one dispatch list
def test_each_test_is_one_module_of_the_one_dispatch_list() -> None:
    """Every module of ``sigfast/resampling`` (but the private ones) declares ``TEST``, each one test, and
    the dispatch list holds exactly those: a module is registered there and nowhere else."""
    modules = sorted(p.stem for p in (PACKAGE / "resampling").glob("*.py") if not p.stem.startswith("_"))
    assert [t.name for t in resampling.TESTS] == ["bootstrap", "permutation", "interval", "pairwise", "aso"]
    assert sorted(t.run.__module__.rpartition(".")[2] for t in resampling.TESTS if t.name != "aso") == sorted(
        m for m in modules if m != "aso"
    )
    for m in modules:
        tree = ast.parse((PACKAGE / "resampling" / f"{m}.py").read_text(encoding="utf-8"))
        declared = [n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "TEST"]
        assert len(declared) == 1, m
    # no other module of the package names a test's run
    for p in PACKAGE.rglob("*.py"):
        if p.parent.name != "resampling":
            assert not re.search(r"\b_run_(bootstrap|permutation|interval|pairwise)\b", p.read_text()), p


def test_a_request_holds_only_its_tests_settings() -> None:
    """No sentinels: a permutation request has no confidence level or variant, an interval no sidedness,
    pairwise's mode is its own setting (not ``method``)."""
    x, y = np.arange(30.0), np.arange(30.0) + 0.5
    perm = resampling.request("permutation", x, y, n_resamples=100)
    assert perm.method == "approximate" and perm.alternative == "two-sided"
    for name in ("confidence_level", "variant"):
        with pytest.raises(AttributeError, match=f"a 'permutation' request has no setting '{name}'"):
            getattr(perm, name)
    interval = resampling.request("interval", x, n_resamples=100)
    assert interval.method == "bca" and interval.statistic == "score"
    with pytest.raises(AttributeError):
        interval.alternative  # noqa: B018
    pw = resampling.request("pairwise", {"a": x, "b": y, "c": x[::-1]}, n_resamples=100, mode="independent")
    assert pw.mode == "independent" and not hasattr(pw.settings, "method")


def test_aso_is_a_request_like_the_others() -> None:
    arrays = [np.arange(5.0), np.arange(5.0) + 1]
    req = resampling.request("aso", arrays, names=["a", "b"], pairs=[(0, 1)], dt=0.1, n_resamples=5, seed=1)
    assert isinstance(req, resampling.Request) and req.test == "aso" and req.names == ("a", "b")
    with pytest.raises(InputError, match="dt must be in"):
        resampling.request("aso", [np.arange(5.0)] * 2, names=["a", "b"], pairs=[(0, 1)], dt=2, n_resamples=5, seed=1)


def test_splits_and_drawn_training_sets_are_one_result_class() -> None:
    from sigfast.studies import ResampleResult, SplitResult

    assert ResampleResult is SplitResult


# ----------------------------------------------------------------------------------------- the README
def test_readme_names_every_file_of_a_test() -> None:
    """README "Adding a test" names at most 3 files, each of which exists (a pattern ``NAME.py`` stands for
    the new module, beside the existing tests' modules), and the dispatch list it names is the one."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adding a test\n", 1)[1].split("\n## ", 1)[0]
    steps = re.findall(r"^\d+\. .*?`((?:python|tests|src)/[\w/.]+\.(?:py|rs))`", section, flags=re.M)
    assert steps == ["python/sigfast/resampling/NAME.py", "python/sigfast/resampling/__init__.py", "tests/test_NAME.py"]
    assert len(steps) <= 3
    for f in steps:
        assert (ROOT / f).parent.is_dir() and ("NAME" in f or (ROOT / f).is_file()), f
    assert "TESTS" in (PACKAGE / "resampling" / "__init__.py").read_text(encoding="utf-8")
    for f in re.findall(r"`((?:python|tests)/[\w/.]+\.py)`", section):  # every other file it names exists
        assert "NAME" in f or (ROOT / f).is_file(), f
