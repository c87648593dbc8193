"""Gorman & Bedrick (2019) from files, from the shell: McNemar mid-p per pair on the words of raw-text
CoNLL 2018 parsers (aligned on characters as conll18_ud_eval.py aligns them), and across 20 random
splits with Bonferroni. The counts are checked against the scorer's own numerators and a direct
McNemar computation."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.cli import main

SYSTEMS = ("HIT-SCIR-18", "Stanford-18", "UDPipe-Future")


def _files(shared_data: Path) -> tuple[str, list[str]]:
    d = shared_data / "dependency_parsing" / "conll2018_en_ewt"
    return str(d / "gold" / "en_ewt.conllu.gz"), [str(d / "systems" / s / "en_ewt.conllu.gz") for s in SYSTEMS]


def test_mcnemar_mid_p_per_pair_from_files(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, systems = _files(shared_data)
    argv = ["compare", "--test", "mcnemar", "-f", "conllu", "--metric", "las", "--align", "chars", gold, *systems]
    assert main([*argv, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["system"] for r in rows] == list(SYSTEMS[1:]) and all(r["variant"] == "mid-p" for r in rows)
    # the units' correctness is the LAS numerator of conll18_ud_eval, per system
    parsed = sigfast.formats.parse("conllu", gold, systems)
    u = parsed.units("las")
    las = parsed.statistics("las").values[:, :, 0].sum(1)
    assert [int(u.correct(k).sum()) for k in range(3)] == [int(v) for v in las]
    # McNemar by hand: b = only the baseline right, c = only the system right; mid-p from the binomial pmf
    from scipy.stats import binom

    for k, r in zip((1, 2), rows):
        x, y = u.correct(0), u.correct(k)
        b, c = int((x & ~y).sum()), int((~x & y).sum())
        m = min(b, c)
        midp = min(1.0, 2 * (binom.cdf(m, b + c, 0.5) - 0.5 * binom.pmf(m, b + c, 0.5)))
        assert (r["details"]["b"], r["details"]["c"]) == (b, c)
        assert r["pvalue"] == pytest.approx(midp, rel=1e-9)
    assert main(argv) == 0
    assert "95% Wilson" in capsys.readouterr().out


def test_twenty_random_splits_with_bonferroni(shared_data: Path, tmp_path: Path, capsys) -> None:
    gold, systems = _files(shared_data)
    assert main(["split", gold, "-k", "20", "--out-dir", str(tmp_path / "s"), "-f", "conllu"]) == 0
    capsys.readouterr()
    manifest = tmp_path / "s" / "manifest.json"
    assert main(["across-splits", "-f", "conllu", "--manifest", str(manifest), gold, *systems, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["test"] == "mcnemar" and d["variant"] == "mid-p" and d["correction"] == "bonferroni"
    assert d["splits"] == [f"split{k:02d}" for k in range(20)]
    # split k's McNemar runs on the words of its test sentences (token level), checked directly for split 3
    u = sigfast.formats.parse("conllu", gold, systems).units("las")
    idx = json.loads(manifest.read_text())["splits"][3]["indices"]["test"]
    mask = np.isin(u.sentence, idx)
    direct = sigfast.mcnemar(u.correct(0)[mask].astype(float), u.correct(1)[mask].astype(float))
    r = sigfast.studies.across_splits(sigfast.studies.split_units(u, manifest), test="mcnemar")
    assert r.pvalues[3, 0, 1] == pytest.approx(direct.pvalue, rel=1e-12)
    assert np.allclose(r.adjusted[:, 0, 1], np.minimum(1, 20 * r.pvalues[:, 0, 1]))
    # any test and variant can be chosen, BK included, and the choice is printed
    assert (
        main(
            [
                "across-splits",
                "-f",
                "conllu",
                "--manifest",
                str(manifest),
                gold,
                *systems[:2],
                "--test",
                "bootstrap",
                "--variant",
                "bk",
                "-n",
                "200",
            ]
        )
        == 0
    )
    assert "bootstrap test (bk, one-sided, observed direction)" in capsys.readouterr().out
