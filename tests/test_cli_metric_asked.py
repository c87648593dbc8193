"""The metric asked for is the metric reported (issue 19): every subcommand and public test function that
takes a metric, run on real data from ``../shared/data``, names that metric in its result, in its report
and in its signature (``sigfast.signature.parse(sig)["metric"]``), or refuses a metric it cannot give.

UPOS accuracy (not the headline LAS) on Upper Sorbian (CoNLL 2018 shared task, two raw-text systems
aligned on characters), precision (not the headline F1) on CoNLL-2003 NER, chrF on WMT21 en-de outputs.
Small resample counts: what is checked is the naming, not the numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sigfast
from sigfast.cli import main
from sigfast.results.signature import parse, parse_value

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
HSB = SHARED / "dependency_parsing" / "conll2018_hsb_ufal"
UD_GOLD = HSB / "gold" / "hsb_ufal.conllu.gz"
UD_SYS = [f"{n}={HSB / 'systems' / n / 'hsb_ufal.conllu.gz'}" for n in ("IBM-NY", "HIT-SCIR-18")]
NER = SHARED / "ner" / "conll2003_en_testb"
MQM = SHARED / "metric_meta_evaluation" / "wmt21_newstest2021_en_de_mqm"


@pytest.fixture(autouse=True)
def _data(shared_data: Path) -> None:
    """Skips (or fails under CI) when ../shared/data is missing (tests/conftest.py)."""


def _metric_of(sig: str) -> str:
    """The metric a signature names: its label before any ``=native`` and ``[params]``."""
    return parse_value(parse(sig)["metric"])[0].split("=")[0]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str]:
    """(JSON records, text report) of one run of a command line (the text through --output)."""
    import tempfile

    capsys.readouterr()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.txt"
        assert main([*argv, "--json", "--output", str(out)]) == 0, argv
        return json.loads(capsys.readouterr().out), out.read_text(encoding="utf-8")


def _signatures(text: str) -> list[str]:
    """Every signature a text report prints (a table's shared part counts as one)."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        for head in ("signature: ", "signature (shared): "):
            if line.startswith(head):
                out.append(line[len(head) :])
        if line.startswith("sigfast:"):
            out.append(line)
    return out


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "mcnemar"])
def test_compare_reports_the_metric_asked(test: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "-f", "conllu", "-m", "upos", "--test", test, "-n", "200", str(UD_GOLD), *UD_SYS]
    records, text = _run(argv, capsys)
    sigs = _signatures(text)
    assert sigs and all(_metric_of(s) == "upos" for s in sigs), text
    assert all(_metric_of(r["signature"]) == "upos" for r in records)
    if test == "mcnemar":  # McNemar on the units of the view: the view, its alignment and the metric, signed
        assert all(
            parse(r["signature"])["view"] == "upos" and parse(r["signature"])["align"] == "chars" for r in records
        )
        assert "conllu upos, align chars" in text
    else:
        assert {r["metric"] for r in records} == {"upos"} and "upos" in text.splitlines()[1]


def test_score_shows_the_metrics_asked(capsys: pytest.CaptureFixture[str]) -> None:
    records, text = _run(["score", "-m", "upos", "-m", "uas", str(UD_GOLD), *UD_SYS], capsys)
    assert [list(r["scores"]) for r in records] == [["upos", "uas"]] * 2
    assert text.splitlines()[1].split() == ["system", "upos", "uas"] and "las" not in text
    # the report's metrics only: a mistyped one names the closest
    assert main(["score", "-m", "lass", str(UD_GOLD), *UD_SYS]) == 1
    assert "did you mean 'las'" in capsys.readouterr().err


def test_pairwise_reports_the_metric_asked(capsys: pytest.CaptureFixture[str]) -> None:
    records, text = _run(["pairwise", "-f", "conllu", "-m", "upos", "-n", "200", str(UD_GOLD), *UD_SYS], capsys)
    assert [r["metric"] for r in records] == ["upos"] and _metric_of(records[0]["signature"]) == "upos"
    assert _signatures(text) and all(_metric_of(s) == "upos" for s in _signatures(text))
    assert "upos" in text


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("splits")
    assert main(["split", str(UD_GOLD), "-f", "conllu", "-k", "2", "--out-dir", str(out), "--no-verify"]) == 0
    return str(out / "manifest.json")


@pytest.mark.parametrize("test", ["mcnemar", "bootstrap"])
def test_across_splits_reports_the_metric_asked(test: str, manifest: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`-m upos` with McNemar (the default test) compares the UPOS units, not the LAS ones; with the
    bootstrap it tests UPOS accuracy; the metric, view and alignment are signed."""
    argv = ["across-splits", "--manifest", manifest, "-f", "conllu", "-m", "upos", "--test", test, "-n", "100"]
    records, text = _run([*argv, str(UD_GOLD), *UD_SYS], capsys)
    (r,) = records
    sig = parse(r["signature"])
    assert r["metric"] == "upos" and _metric_of(r["signature"]) == "upos" and sig["format"].startswith("conllu[")
    assert sig.get("view") == ("upos" if test == "mcnemar" else None) and sig["align"] == "chars"
    assert "upos" in text and [_metric_of(s) for s in _signatures(text)] == ["upos"]
    # UPOS accuracy, not LAS: the scores are those of the UPOS units
    whole = sigfast.formats.parse("conllu", str(UD_GOLD), UD_SYS).reports[0].scores
    assert (
        min(r["scores"]["IBM-NY"]) > whole["las"] + 0.1 and abs(sum(r["scores"]["IBM-NY"]) / 2 - whole["upos"]) < 0.05
    )


def test_across_splits_refuses_a_metric_its_views_cannot_give(
    manifest: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["across-splits", "--manifest", manifest, "-f", "conllu", str(UD_GOLD), *UD_SYS]
    for extra, needle, code in (
        (["-m", "clas"], "has the views", 1),  # CLAS is a metric, not a view of units: McNemar cannot test it
        (["-m", "upos", "--view", "las"], "name different units", 2),  # flags that disagree: usage
        (["-m", "uppos"], "did you mean 'upos'", 1),
        (["--test", "bootstrap", "--view", "las"], "--view is for --test mcnemar", 2),
    ):
        assert main([*base, *extra]) == code, extra
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and needle in err, (extra, err)


def test_test_size_and_calibration_report_the_metric_asked(capsys: pytest.CaptureFixture[str]) -> None:
    files = ["-f", "conllu", "-m", "upos", str(UD_GOLD), *UD_SYS]
    for argv in (
        ["test-size", *files, "--sizes", "100", "300", "-n", "100"],
        ["calibration", *files, "--size", "100", "--test-sets", "2", "-n", "100"],
    ):
        records, text = _run(argv, capsys)
        (r,) = records
        assert r["metric"] == "upos" and _metric_of(r["signature"]) == "upos", argv
        assert parse(r["signature"])["format"].startswith("conllu[") and parse(r["signature"])["align"] == "chars"
        assert [_metric_of(s) for s in _signatures(text)] == ["upos"], text


def test_metaeval_reports_the_metrics_asked(capsys: pytest.CaptureFixture[str]) -> None:
    hyps = [str(p) for p in sorted((MQM / "system-outputs").glob("*.de"))[:3]]
    argv = ["metaeval", str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv"), "--ref"]
    argv += [str(MQM / "newstest2021.en-de.ref.A.de"), "--hyps", *hyps, "-m", "chrf", "--level", "system"]
    argv += ["--statistic", "pearson", "--interval", "none", "--test", "none", "--rename", "Nemo=NVIDIA-NeMo"]
    records, text = _run(argv, capsys)
    (r,) = records
    assert r["metrics"] == ["chrF"] and "chrF" in text and "sentBLEU" not in text
    assert parse(r["signature"])["metric"] == "chrF"


# --------------------------------------------------------------------------- the Python API


@pytest.fixture(scope="module")
def ner() -> sigfast.Statistics:
    return sigfast.read(
        NER / "gold.conll", {"elmo": NER / "elmo_lstm_crf.conll", "flair": NER / "flair_lstm_crf.conll"}, format="ner"
    )


def _named(result: Any, asked: str) -> None:
    assert result.metric == asked, result.metric
    assert asked in str(result)
    assert _metric_of(result.signature) == asked, result.signature


def test_api_test_functions_report_the_metric_asked(ner: sigfast.Statistics) -> None:
    assert ner.stat_names == ("tp", "guessed", "gold")
    kw: dict[str, Any] = {"metric": "precision", "n_resamples": 200}
    _named(sigfast.paired_bootstrap(ner, **kw), "precision")
    _named(sigfast.permutation_test(ner, **kw), "precision")
    _named(sigfast.bootstrap_interval(ner, system="flair", **kw), "precision")
    _named(sigfast.pairwise(ner, **kw), "precision")
    r = sigfast.read(NER / "gold.conll", [NER / "elmo_lstm_crf.conll", NER / "flair_lstm_crf.conll"], metric="recall")
    _named(sigfast.paired_bootstrap(r, n_resamples=200), "recall")


def test_api_studies_report_the_metric_asked(ner: sigfast.Statistics) -> None:
    from sigfast import studies

    halves = [
        studies.split_statistics(
            ner,
            {
                "kind": "sigfast-splits",
                "unit": "sentence",
                "n_units": ner.n_items,
                "parts": ["test"],
                "splits": [{"indices": {"test": idx}}],
            },
        )[0]
        for idx in (list(range(0, ner.n_items, 2)), list(range(1, ner.n_items, 2)))
    ]
    for r in (
        studies.across_splits(halves, test="bootstrap", metric="precision", n_resamples=100),
        studies.test_size_curve(ner, metric="precision", sizes=[500], n_resamples=100),
        studies.calibration(ner, metric="precision", m=300, n_test_sets=2, n_resamples=100),
    ):
        assert r.metric == "precision" and _metric_of(r.signature) == "precision", type(r)
        assert "precision" in r.table() and [_metric_of(s) for s in _signatures(r.table())] == ["precision"]


@pytest.mark.parametrize("asked", ["UPOS", "Upos", "LAS"])
def test_metric_names_are_case_insensitive(asked: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`-m LAS` is `-m las`: the same records and the same signature (metric names fold case everywhere)."""
    base = ["compare", "-f", "conllu", str(UD_GOLD), *UD_SYS, "--resamples", "200"]
    upper, _ = _run([*base, "-m", asked], capsys)
    lower, _ = _run([*base, "-m", asked.lower()], capsys)
    assert upper == lower
    assert _metric_of(lower[0]["signature"]) == asked.lower()
