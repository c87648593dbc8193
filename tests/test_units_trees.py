"""The units of the "evalb" format: correct units == EVALB's numerators, per system and sentence.

``brackets``: correct units == EVALB's matched brackets; units with a system label other than
"O" == its test brackets; gold-present units == the gold brackets EVALB counts (for every
sentence, error and skip sentences included: those of gold scored against itself).
``pos``: units == EVALB's words of the tagging accuracy, correct units == its correct tags.
Checked for each system's own table and for several systems united by ``parse().units()``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from sigfast.formats import parse, score
from sigfast.formats.trees import EvalbWarning

DATA = Path(__file__).resolve().parent / "data" / "trees"
GUM = Path(__file__).resolve().parents[2] / "shared" / "data" / "constituency_parsing" / "gum_benepar_stanza"


def _quiet(fn, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EvalbWarning)
        return fn(*a, **kw)


def _per_sentence(sentence: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(sentence[mask], minlength=n)


def _gold_brackets(gold: Path, **kw) -> np.ndarray:
    """The gold brackets EVALB counts in every sentence: gold scored against itself."""
    return _quiet(score, "evalb", gold, gold, **kw).stats["f1"].values[:, 2].astype(int)


def _check_report(r, gold_counts: np.ndarray | None) -> None:
    n = len(r.item_ids)
    matched, test_b, gold_b = (r.stats["f1"].values[:, k].astype(int) for k in range(3))
    valid = r.stats["complete_match"].values[:, 1].astype(bool)
    t = r.units("brackets")
    assert r.views == ("brackets", "pos") and t.view == "brackets" and t.n_sentences == n
    assert len(set(t.keys)) == len(t.keys) == len(t.gold) == len(t.system) == len(t.forms)
    ok = t.system == t.gold
    assert not (ok & ~t.gold_present).any()  # a test-only bracket is never correct
    assert np.array_equal(_per_sentence(t.sentence, ok, n), matched)
    assert np.array_equal(_per_sentence(t.sentence, t.system != "O", n), test_b)
    present = _per_sentence(t.sentence, t.gold_present, n)
    assert np.array_equal(present[valid], gold_b[valid])
    if gold_counts is not None:
        assert np.array_equal(present, gold_counts)
    assert (t.gold[~t.gold_present] == "O").all() and (t.gold[t.gold_present] != "O").all()
    # an error or skip sentence has no system unit
    assert (t.system[~valid[t.sentence]] == "O").all()
    p = r.units("pos")
    words, correct = (r.stats["tagging_accuracy"].values[:, k].astype(int) for k in (1, 0))
    assert p.gold_present.all() and len(set(p.keys)) == len(p.keys)
    assert np.array_equal(_per_sentence(p.sentence, np.ones(len(p.gold), bool), n), words)
    assert np.array_equal(_per_sentence(p.sentence, p.system == p.gold, n), correct)


def _check_united(parsed, gold_counts: np.ndarray | None) -> None:
    for view in ("brackets", "pos"):
        u = parsed.units(view)
        n = u.n_sentences
        assert len(u.systems) == len(parsed.names)
        for k, r in enumerate(parsed.reports):
            if view == "brackets":
                num = r.stats["f1"].values[:, 0]
                sys_units = r.stats["f1"].values[:, 1]
            else:
                num = r.stats["tagging_accuracy"].values[:, 0]
                sys_units = r.stats["tagging_accuracy"].values[:, 1]
            ok = u.gold_present & (u.systems[k] == u.gold)
            assert np.array_equal(_per_sentence(u.sentence, ok, n), num.astype(int)), (view, parsed.names[k])
            assert np.array_equal(_per_sentence(u.sentence, u.systems[k] != "O", n), sys_units.astype(int))
        if view == "brackets" and gold_counts is not None:
            assert np.array_equal(_per_sentence(u.sentence, u.gold_present, n), gold_counts)


FILES = [
    ("gold.mrg", "test.mrg", {}),
    ("gold.mrg", "test.mrg", {"cutoff_len": 5}),
    ("quote_gold.mrg", "quote_test.mrg", {"prm": "quote.prm"}),
    ("quote_gold.mrg", "quote_test.mrg", {}),
    ("unlabeled_gold.mrg", "unlabeled_test.mrg", {"prm": "unlabeled.prm"}),
    ("nan_gold.mrg", "nan_test.mrg", {}),
    ("errors_gold.mrg", "errors_test.mrg", {"max_error": 11}),
]


@pytest.mark.parametrize("gold,test,kw", FILES)
def test_law_on_test_trees(gold, test, kw):
    if "prm" in kw:
        kw = {**kw, "prm": DATA / kw["prm"]}
    r = _quiet(score, "evalb", DATA / gold, DATA / test, **kw)
    # QUOTE_LABEL repairs can add gold words for one system: no system-independent gold count there
    gold_counts = None if "quote" in gold else _gold_brackets(DATA / gold, **kw)
    _check_report(r, gold_counts)
    # united with gold itself as a second system
    parsed = _quiet(parse, "evalb", DATA / gold, {"sys": DATA / test, "gold": DATA / gold}, **kw)
    _check_united(parsed, gold_counts)


@pytest.mark.parametrize("part", ["news", "fiction"])
@pytest.mark.parametrize("prm", ["collins", "gum_source_md"])
def test_law_on_gum(part, prm):
    if not GUM.is_dir():
        pytest.skip("shared/data is not beside the checkout")
    kw = {"max_error": 10000} if prm == "collins" else {"prm": DATA / "gum_source_md.prm"}
    gold = GUM / f"gold_gum_{part}.mrg"
    gold_counts = _gold_brackets(gold, **kw)
    parsed = _quiet(parse, "evalb", gold, [GUM / f"benepar_gum_{part}.mrg", GUM / f"stanza_gum_{part}.mrg"], **kw)
    assert parsed.names == ("benepar", "stanza")  # benepar_gum_{part}, stanza_gum_{part}
    for r in parsed.reports:
        _check_report(r, gold_counts)
        assert (r.stats["complete_match"].values[:, 1] == 0).any()  # error sentences are exercised
    _check_united(parsed, gold_counts)


def _units(tmp_path, gold: str, test: str, view: str = "brackets", **kw):
    g, t = tmp_path / "g.mrg", tmp_path / "t.mrg"
    g.write_text(gold)
    t.write_text(test)
    tab = _quiet(score, "evalb", g, t, **kw).units(view)
    return {k: (gl, sl) for k, gl, sl in zip(tab.keys, tab.gold, tab.system)}, tab


def test_bracket_units_by_example(tmp_path):
    gold = "(TOP (S (NP-SBJ (DT a) (NN b)) (VP (VB c) (PRT (RP up)) (NP (NP (NN d)))) (. .)))\n(S (A x) (B y))\n"
    test = "(TOP (S (VP (DT a) (NN b)) (VP (VB c) (ADVP (RB up))) (NP (NN d)) (. .)))\n(S (A x))\n"
    units, tab = _units(tmp_path, gold, test)
    assert units == {
        (0, 0, 5, 0, 0, "S"): ("S", "S"),  # TOP deleted, "." dropped from the span
        (0, 0, 2, 0, 0, "NP"): ("NP", "VP"),  # function tag stripped; label transition NP -> VP
        (0, 2, 4, 1, 0, ""): ("O", "VP"),  # a test-only bracket
        (0, 2, 5, 0, 0, "VP"): ("VP", "O"),
        (0, 3, 4, 0, 0, "PRT"): ("PRT", "PRT"),  # EQ_LABEL ADVP PRT: matched, shown with the gold label
        (0, 4, 5, 0, 0, "NP"): ("NP", "NP"),  # the unary chain NP NP against one NP
        (0, 4, 5, 0, 1, "NP"): ("NP", "O"),
        (1, 0, 2, 0, 0, "S"): ("S", "O"),  # error sentence (length mismatch): gold brackets only
    }
    assert tab.forms[tab.keys.index((0, 0, 2, 0, 0, "NP"))] == "a b"
    assert tab.gold_present.tolist() == [k[3] == 0 for k in tab.keys]
    assert list(tab.keys) == sorted(tab.keys)


def test_bracket_units_gold_root_and_labels_like_absent(tmp_path):
    gold = "(S (O (NN a) (NN b)) (VP (VB c)))\n"
    test = "(S (O' (NN a) (NN b)) (O (VB c)))\n"
    units, _ = _units(tmp_path, gold, test)
    assert units == {
        (0, 0, 3, 0, 0, "S"): ("S", "S"),
        (0, 0, 2, 0, 0, "O'"): ("O'", "O''"),  # a real "O" is O', a real O' is O''
        (0, 2, 3, 0, 0, "VP"): ("VP", "O'"),
    }


def test_unlabeled_match_takes_the_gold_label(tmp_path):
    prm = tmp_path / "u.prm"
    prm.write_text("LABELED 0\n")
    units, _ = _units(tmp_path, "(S (NP (A a) (B b)) (C c))\n", "(X (Y (A a) (B b)) (C c))\n", prm=prm)
    assert units == {(0, 0, 3, 0, 0, "S"): ("S", "S"), (0, 0, 2, 0, 0, "NP"): ("NP", "NP")}


def test_pos_units(tmp_path):
    gold = "(S (NP (DT the) (NN cat)) (, ,) (VP (VBD sat)))\n(S (A a))\n"
    test = "(S (NP (DT the) (VB cat)) (, ,) (VP (VBD sat)))\n(S (A b))\n"
    units, tab = _units(tmp_path, gold, test, view="pos")
    # punctuation is deleted (COLLINS.prm); the error sentence has no word EVALB counts
    assert units == {(0, 0, "DT"): ("DT", "DT"), (0, 1, "NN"): ("NN", "VB"), (0, 2, "VBD"): ("VBD", "VBD")}
    assert tab.forms == ("the", "cat", "sat") and tab.sentence_ids == ("line 1", "line 2")


def test_units_errors_go_through_the_error_contract():
    from sigfast import _native
    from sigfast.exceptions import FormatError

    with pytest.raises(FormatError, match=r"t.mrg, line 1: tree 1, column \d+: unbalanced"):
        _native.evalb_units(b"(S (A a))\n", b"(S (A a)\n", None, None, None, "g.mrg", "t.mrg", None)
    with pytest.raises(FormatError, match=r"p.prm, line 1: DELETE_LABEL has no value"):
        _native.evalb_units(b"(S (A a))\n", b"(S (A a))\n", b"DELETE_LABEL\n", None, None, "g", "t", "p.prm")
