"""EVALB parity for the "evalb" / "penn" tree format.

How the expected outputs were produced (reference scorer, never vendored):
EVALB from ``nikitakit/self-attentive-parser`` @ 24435a156a64d7433829e9a500a81f46b7e58030,
folder ``EVALB/`` (md5(evalb.c) = ea2ce9b8e6f997cdebd4609749486e38), built with its Makefile
(``gcc -Wall -g -o evalb evalb.c``, gcc 12). Every ``tests/data/trees/expected/*.rsl`` file is
EVALB's stdout, produced in ``tests/data/trees/`` by:

    evalb -p COLLINS.prm gold.mrg test.mrg                      > expected/collins.rsl
    evalb -p COLLINS.prm -c 5 gold.mrg test.mrg                 > expected/collins_c5.rsl
    evalb -p quote.prm quote_gold.mrg quote_test.mrg            > expected/quote.rsl
    evalb -p COLLINS.prm quote_gold.mrg quote_test.mrg          > expected/quote_collins.rsl
    evalb -p unlabeled.prm unlabeled_gold.mrg unlabeled_test.mrg > expected/unlabeled.rsl
    evalb -p COLLINS.prm nan_gold.mrg nan_test.mrg              > expected/nan.rsl
    evalb -p COLLINS.prm -e 11 errors_gold.mrg errors_test.mrg  > expected/errors_e11.rsl

(``COLLINS.prm`` is the file in that EVALB folder; its settings are sigfast's built-in default.)
``evalb -p COLLINS.prm errors_gold.mrg errors_test.mrg`` exits 1 at line 13 without a summary.
The GUM figures below are md5 sums / numbers of EVALB's stdout for
``evalb -p COLLINS.prm [-e 10000] GOLD SYSTEM`` and ``evalb -p gum_source_md.prm GOLD SYSTEM``
on the files of shared/data/constituency_parsing/gum_benepar_stanza.
"""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

import numpy as np
import pytest

from sigfast.exceptions import FormatError
from sigfast.formats import available, score
from sigfast.formats.trees import EvalbWarning
from sigfast.metrics import get

DATA = Path(__file__).resolve().parent / "data" / "trees"
GUM = Path(__file__).resolve().parents[2] / "shared" / "data" / "constituency_parsing" / "gum_benepar_stanza"


def _score(gold, system, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EvalbWarning)
        return score("evalb", gold, system, **kw)


def _summary(text: str, block: str) -> dict[str, float]:
    part = text.split(f"-- {block} --\n")[1].split("\n\n")[0]
    out = {}
    for line in part.splitlines():
        k, v = line.split("=")
        out[k.strip()] = float(v)
    return out


def _check_stats(r) -> None:
    """Summed per-sentence statistics through the metric give the corpus score."""
    for name, st in r.stats.items():
        m = get(st.metric, **st.metric_params)
        v = m.evaluate(st.values.sum(0, keepdims=True), st.values.shape[0])[0]
        assert v == r.scores[name], name
        assert st.values.shape[0] == len(r.item_ids)


def test_registered():
    assert "evalb" in available()


@pytest.mark.parametrize(
    "gold,test,kw,expected",
    [
        ("gold.mrg", "test.mrg", {}, "collins.rsl"),
        ("gold.mrg", "test.mrg", {"cutoff_len": 5}, "collins_c5.rsl"),
        ("quote_gold.mrg", "quote_test.mrg", {"prm": "quote.prm"}, "quote.rsl"),
        ("quote_gold.mrg", "quote_test.mrg", {}, "quote_collins.rsl"),
        ("unlabeled_gold.mrg", "unlabeled_test.mrg", {"prm": "unlabeled.prm"}, "unlabeled.rsl"),
        ("nan_gold.mrg", "nan_test.mrg", {}, "nan.rsl"),
        ("errors_gold.mrg", "errors_test.mrg", {"max_error": 11}, "errors_e11.rsl"),
    ],
)
def test_text_equals_evalb_stdout(gold, test, kw, expected):
    if "prm" in kw:
        kw = {**kw, "prm": DATA / kw["prm"]}
    r = _score(DATA / gold, DATA / test, **kw)
    assert r.text == (DATA / "expected" / expected).read_text()
    _check_stats(r)


def test_synthetic_semantics():
    # gold.mrg / test.mrg rows (see expected/collins.rsl): function tags, TOP, PRT=ADVP, traces,
    # unary chains, crossing, length / word mismatch, skip, unlabeled root, empty bracket,
    # 41 words (beyond the cutoff), exactly 40, -LRB-, "(ROOT(S", "(())", CRLF.
    with pytest.warns(EvalbWarning, match="2 sentence"):
        r = score("penn", DATA / "gold.mrg", DATA / "test.mrg")
    assert r.format == "evalb" and r.default_metric == "f1"
    f1 = r.stats["f1"].values
    assert f1[0].tolist() == [6, 6, 6]  # NP-SBJ-1 and PP-LOC=2 stripped; "." dropped
    assert f1[1].tolist() == [4, 4, 4]  # PRT = ADVP, TOP ignored
    assert f1[3].tolist() == [4, 5, 5]  # unary chain NP NP vs NP: min count
    assert r.stats["avg_crossing"].values[4].tolist() == [1, 1]
    assert f1[5].tolist() == f1[6].tolist() == f1[7].tolist() == [0, 0, 0]  # error, error, skip
    assert r.stats["complete_match"].values[5].tolist() == [0, 0]
    assert r.stats["tagging_accuracy"].values[1].tolist() == [2, 3]
    assert r.stats["f1_len40"].values[9].tolist() == [0, 0, 0]  # 41 words
    assert r.stats["f1_len40"].values[10].tolist() == [2, 3, 3]  # exactly 40 counts as <= 40
    summary = _summary(r.text, "All")
    assert summary["Bracketing FMeasure"] == round(100 * r.scores["f1"], 2) == 90.38
    assert _summary(r.text, "len<=40")["Bracketing FMeasure"] == round(100 * r.scores["f1_len40"], 2)
    assert summary["Tagging accuracy"] == round(100 * r.scores["tagging_accuracy"], 2)
    assert summary["Complete match"] == round(100 * r.scores["complete_match"], 2)
    assert summary["Average crossing"] == round(r.scores["avg_crossing"], 2)
    assert r.item_ids[0] == "line 1" and len(r.item_ids) == 16


def test_prm_warnings_and_options(tmp_path):
    with pytest.warns(EvalbWarning, match="unknown keyword"):
        score("evalb", DATA / "unlabeled_gold.mrg", DATA / "unlabeled_test.mrg", prm=DATA / "unlabeled.prm")
    r = _score(DATA / "unlabeled_gold.mrg", DATA / "unlabeled_test.mrg", prm=DATA / "unlabeled.prm")
    assert "f1_len3" in r.stats
    dbg = tmp_path / "debug.prm"
    dbg.write_text("DEBUG 1\n")
    with pytest.warns(EvalbWarning, match="debug dumps are not reproduced"):
        score("evalb", DATA / "nan_gold.mrg", DATA / "nan_test.mrg", prm=dbg)
    bad = tmp_path / "bad.prm"
    bad.write_text("MAX_ERROR 3\nDELETE_LABEL\n")
    with pytest.raises(FormatError, match=r"bad.prm, line 2: DELETE_LABEL has no value"):
        score("evalb", DATA / "gold.mrg", DATA / "test.mrg", prm=bad)
    with pytest.raises(FormatError, match="cannot read the parameter"):
        score("evalb", DATA / "gold.mrg", DATA / "test.mrg", prm=tmp_path / "missing.prm")
    with pytest.raises(FormatError, match="max_error"):
        score("evalb", DATA / "gold.mrg", DATA / "test.mrg", max_error=1.5)


def test_too_many_errors_stops_like_evalb():
    # EVALB exits 1 at line 13 (the 12th error under MAX_ERROR 10) without a summary.
    with pytest.raises(FormatError, match=r"errors_test.mrg, line 13: .*MAX_ERROR=10.*max_error=N"):
        score("evalb", DATA / "errors_gold.mrg", DATA / "errors_test.mrg")


@pytest.mark.parametrize(
    "gold_line,test_line,match",
    [
        ("(S (NN a) (NN b))", "(S (NN a) (NN b)", r"test.mrg, line 2: tree 2, column \d+: unbalanced"),
        ("(S (NN a) (NN b))", "(S (NN a) (NN b)))", r"test.mrg, line 2: tree 2, column 18: unbalanced"),
        ("(S (NN a b))", "(S (NN a) (NN b))", r"gold.mrg, line 2: tree 2, .*more than two elements"),
        ("(S (NN a) (NN b))", "S NN a", r"test.mrg, line 2: tree 2, column 1: text outside a bracket"),
    ],
)
def test_malformed_trees(tmp_path, gold_line, test_line, match):
    g, t = tmp_path / "gold.mrg", tmp_path / "test.mrg"
    g.write_text("(S (NN x))\n" + gold_line + "\n")
    t.write_text("(S (NN x))\n" + test_line + "\n")
    with pytest.raises(FormatError, match=match):
        score("evalb", g, t)


def test_bad_files(tmp_path):
    g, t = tmp_path / "gold.mrg", tmp_path / "test.mrg"
    g.write_text("(S (NN a))\n(S (NN b))\n")
    t.write_text("(S (NN a))\n")
    with pytest.raises(FormatError, match=r"gold.mrg: the gold file has 2 trees .* has 1"):
        score("evalb", g, t)
    t.write_text("")
    with pytest.raises(FormatError, match=r"test.mrg: the system file has no trees"):
        score("evalb", g, t)
    t.write_bytes(b"(S (NN a))\n(S (NN \xe9t\xe9))\n")
    with pytest.raises(FormatError, match=r"test.mrg, line 2: tree 2: byte 0xe9 at column 8 is not UTF-8"):
        score("evalb", g, t)
    with pytest.raises(FormatError, match="cannot read the system file"):
        score("evalb", g, tmp_path / "nope.mrg")


GUM_EVALB = {
    # (set, system): (md5 of `evalb -p COLLINS.prm -e 10000` stdout, All F, len<=40 F,
    #                 md5 of `evalb -p gum_source_md.prm` stdout, All F, tagging accuracy)
    ("fiction", "benepar"): (
        "46c9ba4e2553cfed7b0c0df2bfb865f2",
        92.93,
        93.43,
        "ac7283a3288d3f536a24586d3ad4ad73",
        91.97,
        96.54,
    ),
    ("fiction", "stanza"): (
        "6f2ac98830ddab6500ef55bd88bbfb04",
        87.62,
        88.05,
        "88d7bd21402a94f6ad2859be3ff57264",
        85.45,
        97.95,
    ),
    ("news", "benepar"): (
        "0e501626efea54df9af1b3ae0b40e08a",
        93.07,
        93.41,
        "acfc02c7ce2dc095cf0a2ffd5bb9c783",
        91.72,
        97.31,
    ),
    ("news", "stanza"): (
        "ff77bcc8b6c3e4dddc15dd3e4cc57b26",
        89.63,
        90.58,
        "70a912b3e4d939cff4f7ba7df08e0329",
        87.65,
        98.63,
    ),
}


@pytest.mark.parametrize("part,system", sorted(GUM_EVALB))
def test_gum_parity(part, system):
    if not GUM.is_dir():
        pytest.skip("shared/data is not beside the checkout")
    gold, sys_ = GUM / f"gold_gum_{part}.mrg", GUM / f"{system}_gum_{part}.mrg"
    md5, f_all, f40, md5_src, f_src, tag_src = GUM_EVALB[(part, system)]
    r = _score(gold, sys_, max_error=10000)
    assert hashlib.md5(r.text.encode()).hexdigest() == md5
    assert round(100 * r.scores["f1"], 2) == f_all
    assert round(100 * r.scores["f1_len40"], 2) == f40
    _check_stats(r)
    # SOURCE.md's reference numbers = EVALB with gum_source_md.prm
    r = _score(gold, sys_, prm=DATA / "gum_source_md.prm")
    assert hashlib.md5(r.text.encode()).hexdigest() == md5_src
    assert round(100 * r.scores["f1"], 2) == f_src
    assert round(100 * r.scores["tagging_accuracy"], 2) == tag_src
    if part == "fiction":
        # plain COLLINS.prm: 11 errors, exactly what MAX_ERROR 10 lets through
        assert hashlib.md5(_score(gold, sys_).text.encode()).hexdigest() == md5
    else:
        # EVALB -p COLLINS.prm exits 1 on news (more than 11 mismatching sentences)
        with pytest.raises(FormatError, match="MAX_ERROR=10"):
            _score(gold, sys_)


def test_stats_shapes():
    r = _score(DATA / "gold.mrg", DATA / "test.mrg")
    assert r.stats["f1"].values.dtype == np.float64
    assert r.stats["f1"].stat_names == ("matched", "test_brackets", "gold_brackets")
    assert r.stats["tagging_accuracy"].metric == "accuracy"
    assert r.stats["complete_match"].values.sum(0).tolist() == [8, 12]


def test_single_empty_system_line_is_a_skip(tmp_path):
    # `evalb -p COLLINS.prm g t` with g = "(S (NN a))\n", t = "\n": one Skip sentence, no
    # bracket totals on the totals line, F = -nan.
    g, t = tmp_path / "g.mrg", tmp_path / "t.mrg"
    g.write_text("(S (NN a))\n")
    t.write_text("\n")
    r = _score(g, t)
    lines = r.text.splitlines()
    assert lines[3] == "   1    1    2    0.00   0.00     0      0    0      0      0     0     0.00"
    assert lines[5] == "      0     0     0.00"
    assert "Number of Skip  sentence  =      1" in lines
    assert "Bracketing FMeasure       =   -nan" in lines
    assert r.scores["f1"] == 0.0
