"""Issue 19: one request and one executor, one result shape, one signature.

* every subcommand's ``--csv`` (and ``--output x.csv``) is one tidy table that ``pandas.read_csv``
  loads as it is, its ``--json`` loads with ``pandas.read_json``, and its LaTeX keeps the signature
  in a comment line, never in a caption;
* pandas Series are paired by their index, not by position;
* the sacrebleu rule gives one label and one p-value on every path;
* a report's one-sided p-value beside a two-sided interval says so;
* ``nan_policy``, the one calling convention of a user's statistic, ``aso(n_resamples=True)``.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.cli import main

ROOT = Path(__file__).resolve().parent
DATA = ROOT / "data"
UD_GOLD = str(DATA / "analysis" / "ud_gold.conllu")
UD_RAW = str(DATA / "analysis" / "ud_sys_raw.conllu")
NER_GOLD = str(DATA / "chunk" / "ner_gold.txt")
NER_SYS = str(DATA / "chunk" / "ner_system.txt")


# --------------------------------------------------------------------------------------------
# every subcommand's data outputs load as they are


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("cli")
    import os

    cwd = os.getcwd()
    os.chdir(d)
    try:
        assert main(["demo", "--save", "sample", "-n", "200"]) == 0
    finally:
        os.chdir(cwd)
    rng = np.random.default_rng(3)
    out = {"dir": str(d)}
    for name, mu in (("base", 0.70), ("ours", 0.74), ("third", 0.71)):
        p = d / f"seeds_{name}.txt"
        p.write_text("\n".join(f"{v:.5f}" for v in rng.normal(mu, 0.02, 8)) + "\n")
        out[f"seeds_{name}"] = str(p)
    spec = []
    for k in range(3):
        entry: dict[str, object] = {"name": f"k{k}", "systems": {}}
        for name, acc in (("A", 0.7), ("B", 0.8)):
            f = d / f"{name}.{k}.tsv"
            f.write_text("\n".join(str(int(v)) for v in rng.random(60) < acc) + "\n")
            entry["systems"][name] = f.name  # type: ignore[index]
        spec.append(entry)
    (d / "spec.json").write_text(json.dumps(spec))
    out["spec"] = str(d / "spec.json")
    for name, scale in (("human", 1.0), ("m1", 0.8), ("m2", 0.3)):
        rows = ["system\titem\tscore"]
        base = np.arange(5.0)
        for s in range(5):
            for i in range(12):
                v = base[s] + scale * rng.normal() if name != "human" else base[s] + rng.normal() * 0.5
                rows.append(f"sys{s}\tseg{i}\t{v:.4f}")
        (d / f"{name}.tsv").write_text("\n".join(rows) + "\n")
        out[name] = str(d / f"{name}.tsv")
    return out


def _commands(f: dict[str, str]) -> dict[str, list[str]]:
    s = f["dir"] + "/sample"
    return {
        "compare": ["compare", f"{s}/scores_A.tsv", f"{s}/scores_B.tsv", f"{s}/scores_C.tsv", "-n", "2000"],
        "compare-format": [
            "compare",
            "-f",
            "conllu",
            "-m",
            "las",
            "-m",
            "uas",
            UD_GOLD,
            f"raw={UD_RAW}",
            f"gold={UD_GOLD}",
            "-n",
            "2000",
        ],
        "compare-permutation": [
            "compare",
            f"{s}/scores_A.tsv",
            f"{s}/scores_B.tsv",
            "--test",
            "permutation",
            "-n",
            "2000",
        ],
        "compare-mcnemar": [
            "compare",
            "--test",
            "mcnemar",
            "-f",
            "conllu",
            "--metric",
            "las",
            UD_GOLD,
            f"raw={UD_RAW}",
            f"gold={UD_GOLD}",
        ],
        "mcnemar": ["mcnemar", f"{s}/pos_A.txt", f"{s}/pos_B.txt"],
        "proportions": ["proportions", f"{s}/pos_A.txt", f"{s}/pos_B.txt"],
        "gate": ["gate", f"{s}/scores_A.tsv", f"{s}/scores_B.tsv", "--min-diff", "-0.1"],
        "score": ["score", "-f", "ner", NER_GOLD, NER_SYS],
        "score-per-item": ["score", "-f", "ner", NER_GOLD, NER_SYS, "--per-item"],
        "pairwise": ["pairwise", f"{s}/scores_A.tsv", f"{s}/scores_B.tsv", f"{s}/scores_C.tsv", "-n", "2000"],
        "demo": ["demo", "-n", "1000"],
        "info": ["info"],
        "seeds": ["seeds", f["seeds_base"], f["seeds_ours"], f["seeds_third"], "-n", "200"],
        "diff": ["diff", NER_GOLD, f"A={NER_SYS}", f"B={NER_GOLD}", "--view", "spans"],
        "oracle": ["oracle", NER_GOLD, f"A={NER_SYS}", f"B={NER_GOLD}", "--matrix"],
        "agreement": ["agreement", NER_GOLD, f"A={NER_SYS}", f"B={NER_GOLD}"],
        "diff-coref": [
            "diff",
            "-f",
            "conll2012",
            str(DATA / "analysis" / "coref_key.conll"),
            str(DATA / "analysis" / "coref_r1.conll"),
            str(DATA / "analysis" / "coref_r2.conll"),
        ],
        "oracle-coref": [
            "oracle",
            "-f",
            "conll2012",
            str(DATA / "analysis" / "coref_key.conll"),
            str(DATA / "analysis" / "coref_r1.conll"),
            str(DATA / "analysis" / "coref_r2.conll"),
        ],
        "split": ["split", str(DATA / "studies" / "tiny.conllu"), "-k", "2", "--out-dir", f["dir"] + "/splits"],
        "resample-train": [
            "resample-train",
            str(DATA / "studies" / "tiny.conllu"),
            "--out-dir",
            f["dir"] + "/resampled",
            "--sizes",
            "4",
            "8",
        ],
        "across-splits": ["across-splits", "--spec", f["spec"], "-n", "500"],
        "test-size": ["test-size", f"{s}/scores_A.tsv", f"{s}/scores_B.tsv", "--sizes", "50", "100", "-n", "300"],
        "calibration": [
            "calibration",
            f"{s}/scores_A.tsv",
            f"{s}/scores_B.tsv",
            "--size",
            "50",
            "--test-sets",
            "2",
            "-n",
            "300",
        ],
        "metaeval": ["metaeval", f["human"], f["m1"], f["m2"], "--level", "system", "-n", "100"],
    }


COMMANDS = list(
    _commands(
        {"dir": "", **dict.fromkeys(("seeds_base", "seeds_ours", "seeds_third", "spec", "human", "m1", "m2"), "")}
    )
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(argv) == 0, argv
    return capsys.readouterr().out


@pytest.mark.parametrize("name", COMMANDS)
def test_csv_and_json_load_as_they_are(
    name: str, files: dict[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pd = pytest.importorskip("pandas")
    argv = _commands(files)[name]
    out = _run([*argv, "--csv"], capsys)
    assert not any(line.startswith("#") for line in out.splitlines()), out[:500]
    df = pd.read_csv(io.StringIO(out))
    assert len(df) >= 1 and len(df.columns) >= 2, out[:500]
    # one tidy table: every row has every column; no interval written as a string, no rounded p-value
    with open(tmp_path / "x.csv", "w") as fh:
        fh.write(out)
    for col in df.columns:
        if df[col].dtype == object:
            cells = df[col].dropna().astype(str)
            assert not cells.str.match(r"^\s*\[[-+0-9.e, ]+\]\s*$").any(), (name, col)
            assert not cells.str.match(r"^[-+]?[0-9.]+e[-+][0-9]+$").any(), (name, col)  # a number as text
        if col.endswith("pvalue") or col in ("p", "adjusted", "welch_p", "mwu_p"):
            assert df[col].dtype.kind == "f", (name, col, df[col].dtype)
    # --output x.csv writes the same table
    target = tmp_path / "out.csv"
    _run([*argv, "--output", str(target)], capsys)
    assert pd.read_csv(target).shape == df.shape
    # JSON: a list of records that pandas.read_json loads
    js = _run([*argv, "--json"], capsys)
    assert isinstance(json.loads(js), list)
    assert len(pd.read_json(io.StringIO(js))) >= 1
    # LaTeX: the signature, where there is one, is a comment line, never in a caption
    tex = _run([*argv, "--latex"], capsys)
    for line in tex.splitlines():
        if "caption" in line:
            assert "sigfast:" not in line, line


def test_compare_says_which_side_each_number_covers(files: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    """The BK p-value is one-sided, the percentile interval two-sided: the report says so in one line."""
    s = files["dir"] + "/sample"
    out = _run(["compare", f"{s}/scores_A.tsv", f"{s}/scores_B.tsv", "-n", "2000"], capsys)
    assert "p is one-sided in the observed direction; the 95% interval of delta is two-sided" in out
    out = _run(["compare", f"{s}/scores_A.tsv", f"{s}/scores_B.tsv", "-n", "2000", "--variant", "shifted"], capsys)
    assert "one-sided" not in out  # a two-sided p beside a two-sided interval: nothing to say
    r = sigfast.paired_bootstrap(np.arange(30.0), np.arange(30.0) + 1, n_resamples=100)
    assert "one-sided" in str(r) and "one-sided" in r.sidedness


def test_mcnemar_on_raw_text_conllu_signs_the_alignment_it_used(capsys: pytest.CaptureFixture) -> None:
    """conllu aligns raw-text systems on characters by default: the report and the signature say chars."""
    out = _run(
        ["compare", "--test", "mcnemar", "-f", "conllu", "-m", "las", UD_GOLD, f"raw={UD_RAW}", f"gold={UD_GOLD}"],
        capsys,
    )
    assert "align chars" in out and "align tokens" not in out
    sig = next(line for line in out.splitlines() if line.startswith("signature"))
    fields = sigfast.signature.parse(sig.split(": ", 1)[1])
    assert fields["align"] == "chars" and fields["view"] == "las"
    assert fields["format"].startswith("conllu[") and "align=chars" in fields["format"]
    assert fields["data"] and fields["systems"] == "raw+gold"


# --------------------------------------------------------------------------------------------
# pandas inputs are paired by label


def test_pandas_series_are_paired_by_index() -> None:
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    a = pd.Series(rng.normal(0.5, 0.1, 300), index=[f"s{i}" for i in range(300)], name="base")
    b = pd.Series(a.to_numpy() + 0.02 + rng.normal(0, 0.01, 300), index=a.index, name="ours")
    shuffled = b.sample(frac=1, random_state=1)
    r1 = sigfast.paired_bootstrap(a, b, n_resamples=5000, seed=3)
    r2 = sigfast.paired_bootstrap(a, shuffled, n_resamples=5000, seed=3)
    assert r1.signature == r2.signature and r1.pvalue == r2.pvalue < 0.01
    assert (
        sigfast.permutation_test(a, shuffled, n_resamples=500).pvalue
        == sigfast.permutation_test(a, b, n_resamples=500).pvalue
    )
    assert sigfast.bootstrap_interval(a, shuffled, n_resamples=500).confidence_interval == (
        sigfast.bootstrap_interval(a, b, n_resamples=500).confidence_interval
    )
    pw = sigfast.pairwise({"base": a, "ours": shuffled}, n_resamples=500)
    assert pw.pvalues[0, 1] == sigfast.pairwise({"base": a, "ours": b}, n_resamples=500).pvalues[0, 1]
    other = b.rename(index={"s5": "x5", "s17": "x17"})
    with pytest.raises(sigfast.InputError, match=r"\['s5', 's17'\] only in base, \['x5', 'x17'\] only in ours"):
        sigfast.paired_bootstrap(a, other, n_resamples=100)
    dup = pd.Series([1.0, 2.0, 3.0], index=["a", "a", "b"])
    with pytest.raises(sigfast.InputError, match="repeats labels"):
        sigfast.paired_bootstrap(pd.Series([1.0, 2.0, 3.0], index=["a", "b", "c"]), dup, n_resamples=10)


# --------------------------------------------------------------------------------------------
# one code path, one label


def test_the_sacrebleu_rule_has_one_label_and_one_pvalue() -> None:
    rng = np.random.default_rng(4)
    x, y = rng.normal(0, 1, 80), rng.normal(0.3, 1, 80)
    with pytest.warns(DeprecationWarning, match="item_bootstrap is deprecated"):
        old = sigfast.item_bootstrap(x, y, statistic="median", variant="sacrebleu", n_resamples=2000)
    new = sigfast.paired_bootstrap(x[:, None], y[:, None], metric="median", variant="sacrebleu", n_resamples=2000)
    assert old.alternative == new.alternative == "two-sided"
    assert (old.test, old.variant, old.count, old.pvalue) == (new.test, new.variant, new.count, new.pvalue)
    # item_bootstrap is paired_bootstrap(..., nan_policy="omit"): the same request, the same signature
    omit = sigfast.paired_bootstrap(
        x[:, None], y[:, None], metric="median", variant="sacrebleu", n_resamples=2000, nan_policy="omit"
    )
    assert old.signature == omit.signature and omit.signature == new.signature + "|nan:omit"
    assert old.n_valid == new.n_valid == 2000


def test_nan_policy_omit_drops_undefined_resamples_and_says_how_many() -> None:
    # five distinct values among 12 items: some resamples are constant, where Pearson's r is undefined
    x = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2.0])
    ref = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3.0])
    a, b = np.stack([x, ref], 1), np.stack([x[::-1].copy(), ref], 1)
    with pytest.raises(sigfast.InputError, match="nan_policy='omit'"):
        sigfast.paired_bootstrap(a, b, metric="pearson", n_resamples=400)
    r = sigfast.paired_bootstrap(a, b, metric="pearson", n_resamples=400, nan_policy="omit", return_distribution=True)
    ok = np.isfinite(r.distribution).all(axis=1)
    assert 0 < r.n_valid == int(ok.sum()) < 400
    assert "nan:omit" in r.signature and any("undefined on" in w for w in r.warnings)
    d = r.distribution[ok, 1] - r.distribution[ok, 0]
    assert r.confidence_interval == pytest.approx(tuple(np.quantile(d, [0.025, 0.975])), abs=1e-12)
    # the same policy on every path
    p = sigfast.permutation_test(a, b, metric="pearson", n_resamples=400, nan_policy="omit", method="approximate")
    assert p.n_valid is not None and p.n_valid <= 400
    e = sigfast.permutation_test(a, b, metric="pearson", nan_policy="omit")  # exact: all 2^12 arrangements
    assert e.n_valid is not None and e.n_valid <= 4096 and e.pvalue == e.count / e.n_valid
    i = sigfast.bootstrap_interval(a, metric="pearson", n_resamples=400, nan_policy="omit", method="percentile")
    assert i.n_valid < 400
    pw = sigfast.pairwise(
        sigfast.Statistics(np.stack([a, b]), ("a", "b"), ("score", "reference")),
        metric="pearson",
        n_resamples=400,
        nan_policy="omit",
    )
    assert pw.n_valid is not None and pw.n_valid[0, 1] == r.n_valid
    with pytest.raises(sigfast.InputError, match="nan_policy"):
        sigfast.paired_bootstrap(a, b, metric="pearson", nan_policy="drop")


def test_a_users_statistic_has_one_calling_convention() -> None:
    rng = np.random.default_rng(5)
    tp = rng.integers(0, 5, (200, 1))
    x = np.hstack([tp, tp + rng.integers(0, 3, (200, 1)), tp + rng.integers(0, 3, (200, 1))]).astype(float)
    y = x.copy()
    y[:50, 0] = np.minimum(y[:50, 0] + 1, np.minimum(y[:50, 1], y[:50, 2]))

    def f1(tp: np.ndarray, guessed: np.ndarray, gold: np.ndarray) -> np.ndarray:  # one (resamples,) array each
        return 2 * tp / (guessed + gold)

    builtin = sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=1000, seed=2)
    mine = sigfast.paired_bootstrap(x, y, metric=f1, n_resamples=1000, seed=2)
    assert (mine.count, mine.pvalue) == (builtin.count, builtin.pvalue)
    with pytest.warns(DeprecationWarning, match="deprecated"):
        old = sigfast.paired_bootstrap(
            x, y, metric=lambda s: 2 * s[:, 0] / (s[:, 1] + s[:, 2]), n_resamples=1000, seed=2
        )
    assert old.count == builtin.count
    # an item statistic: the same convention, (resamples, items) arrays
    med = sigfast.metrics.custom(lambda v: np.median(v, axis=1), stat_names=1, on="items")
    a, b = rng.normal(size=60), rng.normal(size=60) + 0.3
    assert (
        sigfast.paired_bootstrap(a[:, None], b[:, None], metric=med, n_resamples=300).pvalue
        == sigfast.paired_bootstrap(a[:, None], b[:, None], metric="median", n_resamples=300).pvalue
    )


def test_aso_refuses_a_bool_count() -> None:
    with pytest.raises(sigfast.InputError, match="bool is not a count"):
        sigfast.aso([0.1, 0.2, 0.3], [0.2, 0.3, 0.4], n_resamples=True)
    with pytest.raises(sigfast.InputError, match="bool"):
        sigfast.paired_bootstrap(np.arange(20.0), np.arange(20.0), n_resamples=True)


def test_one_request_validated_once() -> None:
    """Every front-end builds the same frozen request: equal questions give equal requests."""
    from dataclasses import FrozenInstanceError

    from sigfast.resampling import request

    x, y = np.arange(30.0), np.arange(30.0) + 0.5
    r1 = request("bootstrap", x, y, n_resamples=100, variant="bk")
    r2 = request("bootstrap", x, y, n_resamples=100)
    assert (r1.variant, r1.alternative, r1.n_resamples, r1.seed) == (r2.variant, r2.alternative, 100, 12345)
    with pytest.raises(FrozenInstanceError):
        r1.n_resamples = 5  # type: ignore[misc]
    assert r1.resampling in ("auto", "items", "distinct") and r1.nan_policy == "raise"


def test_the_two_pairwise_result_classes_have_distinct_names() -> None:
    from sigfast.analysis import PairwiseDiffResult

    assert sigfast.PairwiseResult.__name__ == "PairwiseResult"
    assert PairwiseDiffResult.__name__ == "PairwiseDiffResult"
    with pytest.warns(DeprecationWarning):
        from sigfast.analysis.diff import PairwiseResult as old
    assert old is PairwiseDiffResult
