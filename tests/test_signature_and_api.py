"""A signature that pins the result, and the Python API's ergonomics (issue: one vocabulary, honest names)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import sigfast

WMT = "machine_translation/wmt21_newstest2021_de_en"


def _mt(shared_data: Path, refs: int = 1, **options: object) -> sigfast.Statistics:
    d = shared_data / WMT
    gold = [d / "newstest2021.de-en.ref.A.en", d / "newstest2021.de-en.ref.B.en"][:refs]
    systems = {s: d / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in ("Facebook-AI", "UEdin")}
    return sigfast.read(gold if refs > 1 else gold[0], systems, format="mt", metric="bleu", **options)


def test_settings_that_change_the_result_change_the_signature(shared_data: Path) -> None:
    kw = dict(n_resamples=500, seed=4)
    base = _mt(shared_data)
    sigs = {
        "base": sigfast.paired_bootstrap(base, **kw).signature,
        "smooth": sigfast.paired_bootstrap(base, smooth="floor", **kw).signature,
        "tokenizer": sigfast.paired_bootstrap(_mt(shared_data, tokenize="intl"), **kw).signature,
        "case": sigfast.paired_bootstrap(_mt(shared_data, lowercase=True), **kw).signature,
        "refs": sigfast.paired_bootstrap(_mt(shared_data, refs=2), **kw).signature,
        "seed": sigfast.paired_bootstrap(base, n_resamples=500, seed=5).signature,
        "B": sigfast.paired_bootstrap(base, n_resamples=501, seed=4).signature,
        "variant": sigfast.paired_bootstrap(base, variant="sacrebleu", **kw).signature,
        "conf": sigfast.paired_bootstrap(base, confidence_level=0.9, **kw).signature,
        "p": sigfast.paired_bootstrap(base, pvalue="raw", **kw).signature,
    }
    assert len(set(sigs.values())) == len(sigs), sigs
    assert "smooth=floor" in sigs["smooth"] and "tokenize=intl" in sigs["tokenizer"]
    assert "lowercase=true" in sigs["case"] and "refs=2" in sigs["refs"]
    # the same settings give the same signature
    assert sigfast.paired_bootstrap(base, **kw).signature == sigs["base"]


def test_every_result_type_has_a_signature() -> None:
    a = np.linspace(0, 1, 40)
    b = a[::-1].copy()
    st = sigfast.Statistics.from_scores({"a": a, "b": b, "c": a * 0.9})
    for r in (
        sigfast.paired_bootstrap(a, b, n_resamples=50),
        sigfast.permutation_test(a, b, n_resamples=50),
        sigfast.pairwise(st, n_resamples=50),
        sigfast.bootstrap_interval(a, n_resamples=50),
        sigfast.mcnemar([1, 0, 1], [1, 1, 1]),
        sigfast.aso(a, b, n_resamples=20),
    ):
        assert r.signature.startswith(f"sigfast:{sigfast.__version__}|test:"), r


def test_series_and_dataframe_names_become_system_names() -> None:
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(1)
    x = pd.Series(rng.normal(0.5, 0.1, 100), name="baseline")
    y = pd.Series(rng.normal(0.55, 0.1, 100), name="ours")
    r = sigfast.paired_bootstrap(x, y, n_resamples=200)
    assert r.systems == ("baseline", "ours")
    df = pd.DataFrame({"A": x, "B": y, "C": y + 0.01})
    assert sigfast.pairwise(df, n_resamples=200).systems == ("A", "B", "C")
    assert sigfast.Statistics.from_scores(df).systems == ("A", "B", "C")
    f = r.to_frame()
    assert list(f["systems"]) == ["baseline vs ours"] and f["pvalue"][0] == r.pvalue


def test_misspelt_keywords_name_the_closest_valid_one() -> None:
    a = np.arange(10.0)
    with pytest.raises(TypeError, match="n_resample.*did you mean 'n_resamples'"):
        sigfast.paired_bootstrap(a, a + 1, n_resample=10)
    with pytest.raises(TypeError, match="'sed'.*did you mean 'seed'"):
        sigfast.pairwise({"a": a, "b": a}, sed=3)
    with pytest.raises(TypeError, match="confidence_levle"):
        sigfast.bootstrap_interval(a, confidence_levle=0.9)
    # a metric's parameter still reaches the metric (and is checked there)
    with pytest.raises(sigfast.MetricError):
        sigfast.paired_bootstrap(a, a + 1, beta=2.0)


def test_reprs_are_short_and_multi_line() -> None:
    a = np.linspace(0, 1, 200)
    st = sigfast.Statistics.from_scores({"a": a, "b": a[::-1].copy()})
    for r in (
        sigfast.paired_bootstrap(a, a[::-1].copy(), n_resamples=50),
        sigfast.pairwise(st, n_resamples=50),
        sigfast.mcnemar([1, 0, 1], [1, 1, 1]),
        sigfast.bootstrap_interval(a, n_resamples=50),
    ):
        text = repr(r)
        assert len(text) < 400 and "\n" in text and all(len(line) < 120 for line in text.splitlines()), text


def test_printed_result_names_the_systems_in_its_delta_line() -> None:
    x = np.linspace(0, 1, 40)
    r = sigfast.paired_bootstrap(x, x + 0.1, systems=("baseline", "a-much-longer-system-name"), n_resamples=200)
    lines = str(r).splitlines()
    delta = next(ln for ln in lines if ln.strip().startswith("delta"))
    assert "delta (a-much-longer-system-name - baseline)" in delta and "(y - x)" not in str(r)
    # the value columns line up under the longest label
    cols = {ln.index(ln.split()[-3] if "[" in ln else ln.split()[-1]) for ln in lines[1:3]}
    assert len(cols) == 1


def test_markdown_tables_escape_pipes() -> None:
    """A cell holding ``|`` (a metric description, ``a|b`` choices) stays in its column in markdown."""
    from sigfast.results.report import Table, format_table

    md = format_table([["a|b", "x"], ["c", "y\\z"]], ["choice (a|b)", "v"], markdown=True)
    rows = md.splitlines()
    # GitHub's rule: an unescaped | splits a cell; every row has the header's three separators
    assert all(len(re.findall(r"(?<!\\)\|", r)) == 3 for r in rows), md
    assert "a\\|b" in md and "choice (a\\|b)" in md
    assert "a|b" in Table(("k",), (("a|b",),)).render("text")  # text tables are not escaped
