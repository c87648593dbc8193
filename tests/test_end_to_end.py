"""`sigfast compare` on real system outputs: the scores equal the reference scores in SOURCE.md.

Each case runs the CLI end to end (read, score like the reference scorer,
paired bootstrap) and checks each system's corpus score against the
reference score recorded in ../shared/data/<task>/<set>/SOURCE.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _warns import warnings_on_stderr
from sigfast.cli import main

HERE = Path(__file__).resolve().parent


def _compare(capsys: pytest.CaptureFixture[str], *args: str, warns: tuple[str, ...] = ()) -> list[dict]:
    """``sigfast compare ARGS -n 2000 --json``; ``warns``: a text in each of the scorer's warning lines
    that the command prints on standard error, and no other warning line."""
    with warnings_on_stderr():
        assert main(["compare", *args, "-n", "2000", "--json"]) == 0
    out = capsys.readouterr()
    lines = [ln for ln in out.err.splitlines() if ln.startswith("sigfast: warning: ")]
    assert len(lines) == len(warns) and all(any(w in ln for ln in lines) for w in warns), out.err
    return json.loads(out.out)


def test_en_ewt_las(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = shared_data / "dependency_parsing" / "conll2018_en_ewt"
    r = _compare(
        capsys,
        "--format",
        "conllu",
        "--metric",
        "las",
        str(d / "gold" / "en_ewt.conllu.gz"),
        str(d / "systems" / "HIT-SCIR-18" / "en_ewt.conllu.gz"),
        str(d / "systems" / "Stanford-18" / "en_ewt.conllu.gz"),
        str(d / "systems" / "UDPipe-Future" / "en_ewt.conllu.gz"),
    )
    assert [round(100 * r[0]["score_x"], 2)] + [round(100 * x["score_y"], 2) for x in r] == [84.57, 83.87, 82.51]
    assert r[0]["metric"] == "las" and r[0]["n_items"] == 2077


def test_gum_evalb_f1(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = shared_data / "constituency_parsing" / "gum_benepar_stanza"
    prm = HERE / "data" / "trees" / "gum_source_md.prm"  # the settings SOURCE.md describes
    for part, want in (("news", (91.72, 87.65)), ("fiction", (91.97, 85.45))):
        r = _compare(
            capsys,
            "--format",
            "evalb",
            "-o",
            f"prm={prm}",
            str(d / f"gold_gum_{part}.mrg"),
            str(d / f"benepar_gum_{part}.mrg"),
            str(d / f"stanza_gum_{part}.mrg"),
            # sentences EVALB scores as 'Error' (length or words differ): sigfast says so, as EVALB does
            warns=(f"benepar_gum_{part}.mrg: ", f"stanza_gum_{part}.mrg: "),
        )
        assert (round(100 * r[0]["score_x"], 2), round(100 * r[0]["score_y"], 2)) == want


def test_wmt21_bleu(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    d = shared_data / "machine_translation" / "wmt21_newstest2021_de_en"
    ref = d / "newstest2021.de-en.ref.A.en"
    a, b = (d / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in ("Facebook-AI", "Online-B"))
    r = _compare(capsys, "--format", "mt", "--metric", "bleu", str(ref), str(a), str(b))
    refs = [ref.read_text(encoding="utf-8").splitlines()]
    for path, got in ((a, r[0]["score_x"]), (b, r[0]["score_y"])):
        want = sacrebleu.corpus_bleu(path.read_text(encoding="utf-8").splitlines(), refs).score
        assert got == want


def test_hansards_aer(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = shared_data / "word_alignment" / "hansards_enfr_wpt2003"
    r = _compare(
        capsys,
        "--format",
        "alignment",
        str(d / "gold" / "test.wa.nonullalign"),
        str(d / "systems" / "lilt_giza" / "test.enfr.grow-diagonal.talp"),
        str(d / "systems" / "lilt_fastalign" / "test.enfr.grow-diagonal.talp"),
        str(d / "systems" / "uva_nlp2_ibm" / "ibm1.mle.naacl"),
        warns=("sentence number '1' is written '0001'",),  # matched by value; wa_eval_align.pl would match none
    )
    assert r[0]["metric"] == "aer" and r[0]["higher_is_better"] is False
    got = [round(100 * r[0]["score_x"], 1)] + [round(100 * x["score_y"], 1) for x in r]
    assert got == [5.9, 10.5, 28.5]
    assert r[0]["statistic"] > 0  # fast_align's AER is higher: the baseline (GIZA++) is better


def test_conll2003_ner_f1(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = shared_data / "ner" / "conll2003_en_testb"
    r = _compare(
        capsys,
        "--format",
        "ner",
        str(d / "gold.conll"),
        str(d / "elmo_lstm_crf.conll"),
        str(d / "flair_lstm_crf.conll"),
    )
    assert (round(100 * r[0]["score_x"], 2), round(100 * r[0]["score_y"], 2)) == (92.22, 93.03)
    assert r[0]["metric"] == "f1" and r[0]["pvalue"] < 0.05


def test_score_prints_the_reference_report(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = shared_data / "ner" / "conll2003_en_testb"
    assert main(["score", "-f", "ner", str(d / "gold.conll"), str(d / "flair_lstm_crf.conll")]) == 0
    out = capsys.readouterr().out
    assert "accuracy:" in out and "FB1:  93.03" in out
    assert main(["score", str(d / "gold.conll"), str(d / "flair_lstm_crf.conll")]) == 0  # detected: ner
    assert capsys.readouterr().out == out


def test_token_mismatch_is_one_line(shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = shared_data / "ner" / "conll2003_en_testb"
    lines = (d / "flair_lstm_crf.conll").read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.conll"
    bad.write_text("\n".join(lines[:-40]) + "\n", encoding="utf-8")
    assert (
        main(
            ["compare", "--format", "ner", str(d / "gold.conll"), str(d / "elmo_lstm_crf.conll"), str(bad), "-n", "100"]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert err.startswith("sigfast: error:") and err.count("\n") == 1 and "bad.conll" in err


def test_format_detection(shared_data: Path, tmp_path: Path) -> None:
    from sigfast.formats import detect_format

    assert (
        detect_format(shared_data / "dependency_parsing" / "conll2018_en_ewt" / "gold" / "en_ewt.conllu.gz") == "conllu"
    )
    assert detect_format(shared_data / "constituency_parsing" / "gum_benepar_stanza" / "gold_gum_news.mrg") == "evalb"
    odd = tmp_path / "x.txt"
    odd.write_text("hello world\n")
    import sigfast

    with pytest.raises(sigfast.InputError, match="cannot tell the file's format"):
        detect_format(odd)


def test_pairwise_en_ewt_and_wmt21(shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    d = shared_data / "dependency_parsing" / "conll2018_en_ewt"
    systems = sorted(p.name for p in (d / "systems").iterdir())
    assert len(systems) == 25
    files = [str(d / "systems" / s / "en_ewt.conllu.gz") for s in systems]
    assert (
        main(
            [
                "pairwise",
                "--format",
                "conllu",
                "--metric",
                "las",
                str(d / "gold" / "en_ewt.conllu.gz"),
                *files,
                "-n",
                "2000",
                "--plot",
                str(tmp_path / "ewt.png"),
                "--json",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)[0]
    assert res["metric"] == "las" and len(res["systems"]) == 25
    best = res["systems"][max(range(25), key=lambda i: res["scores"][i])]
    assert best == "HIT-SCIR-18" and res["clusters"][0][0] == "HIT-SCIR-18"
    assert (tmp_path / "ewt.png").stat().st_size > 10_000
    w = shared_data / "machine_translation" / "wmt21_newstest2021_de_en"
    hyps = sorted(str(p) for p in (w / "system-outputs").iterdir())
    assert len(hyps) == 19
    assert (
        main(
            [
                "pairwise",
                "--format",
                "mt",
                "--metric",
                "chrf",
                str(w / "newstest2021.de-en.ref.A.en"),
                *hyps,
                "-n",
                "2000",
                "--plot",
                str(tmp_path / "wmt.png"),
                "--json",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)[0]
    assert res["metric"] == "chrf" and len(res["systems"]) == 19
    assert (tmp_path / "wmt.png").stat().st_size > 10_000
