"""End-to-end analysis on the shared real system outputs (skipped when absent).

* CoNLL 2018 en_ewt: 25 raw-text parsers, aligned to gold on characters
  (``align="chars"``). The per-system correct counts equal those of the
  conll18_ud_eval.py semantics as implemented by ``sigfast.formats.conllu.counts``
  (itself checked against conll18_ud_eval.py v1.2 in tests/test_conllu*.py);
  every other figure below was produced by this module
  (``sigfast oracle/diff/agreement GOLD SYS... --align chars``) and is pinned
  so that a change shows up.
* CoNLL-2003 testb, ELMo vs Flair taggers: span correct counts equal
  conlleval's correct chunks (``sigfast.formats.chunk`` ``ner`` format:
  flair 5270 tp; tag accuracy 45703/46435).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sigfast.analysis import agreement_units, diff_units, oracle_units, pairwise, read_units

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"
NER = SHARED / "ner" / "conll2003_en_testb"


@pytest.fixture(scope="module")
def ewt():
    if not (EWT / "gold" / "en_ewt.conllu.gz").exists():
        pytest.skip("shared en_ewt data absent")
    systems = sorted(EWT.glob("systems/*/en_ewt.conllu.gz"))
    assert len(systems) == 25
    return read_units(EWT / "gold" / "en_ewt.conllu.gz", systems, view="las", align="chars"), systems


def test_ewt_las_counts_match_conll18(ewt):
    from sigfast.formats.conllu import counts

    u, systems = ewt
    assert u.n_units == 25096 and u.n_sentences == 2077
    for name in ("HIT-SCIR-18", "Stanford-18", "NLP-Cube", "ArmParser"):
        path = next(p for p in systems if p.parent.name == name)
        c = counts(EWT / "gold" / "en_ewt.conllu.gz", path)["LAS"]
        k = u.names.index(name)
        assert int(u.correct(k).sum()) == c[0]  # correct
        assert int(np.sum(u.systems[k] != "∅")) == c[3]  # aligned words


def test_ewt_oracle_las(ewt):
    u, _ = ewt
    o = oracle_units(u)
    assert o.best == "HIT-SCIR-18" and o.correct[u.names.index("HIT-SCIR-18")] == 21212
    assert (o.oracle_correct, o.n_units, o.none_correct) == (23823, 25096, 1273)
    assert round(100 * o.oracle, 2) == 94.93 and round(100 * o.gain, 2) == 10.40


def test_ewt_diff_two_parsers(ewt):
    u, _ = ewt
    d = diff_units(u, "HIT-SCIR-18", "Stanford-18")
    # LAS (recall over gold words) 84.52 vs 83.86: Δ -0.67 points, but 11.94% of words differ
    assert (d.n_correct1, d.n_correct2) == (21212, 21045)
    assert (d.n_differ, d.corrections, d.new_errors, d.changed_errors) == (2996, 955, 1122, 919)
    assert d.top_corrections[0] == ("amod(+1) → compound(+1)", 14)
    p = pairwise(u)
    i, j = u.names.index("HIT-SCIR-18"), u.names.index("LATTICE-18")
    assert round(100 * p.differ[i][j], 2) == 9.58 and round(100 * p.delta[i][j], 2) == -0.55


def test_ewt_agreement(ewt):
    u, _ = ewt
    a = agreement_units(u, lowest=3)
    assert round(a.corpus_alpha, 4) == 0.8088
    low = a.lowest[0]
    assert low.sentence_id.endswith("civilization_1201f7692b7769fb_ENG_20050908_010400-0008")
    assert round(low.alpha, 4) == -0.0161 and len(low.systems) == 25
    assert all(a.lowest[k].alpha <= a.lowest[k + 1].alpha for k in range(2))


@pytest.fixture(scope="module")
def ner():
    if not (NER / "gold.conll").exists():
        pytest.skip("shared CoNLL-2003 data absent")
    return [NER / f for f in ("gold.conll", "elmo_lstm_crf.conll", "flair_lstm_crf.conll")]


def test_ner_tags_and_spans(ner):
    g, e, f = ner
    t = read_units(g, [e, f], view="tags")
    assert [int(t.correct(k).sum()) for k in (0, 1)] == [45622, 45703]  # conlleval token accuracy counts
    d = diff_units(t, 0, 1)
    assert (d.n_units, d.n_differ, d.corrections, d.new_errors, d.changed_errors) == (46435, 416, 215, 134, 67)
    s = read_units(g, [e, f], view="spans")
    o = oracle_units(s)
    assert o.n_units == 5648 and o.correct == (5213, 5270)  # conlleval correct chunks
    assert o.oracle_correct == 5335 and round(100 * o.gain, 2) == 1.15
    ds = diff_units(s, 0, 1)
    assert (ds.n_differ, ds.corrections, ds.new_errors, ds.changed_errors) == (378, 205, 130, 43)
    a = agreement_units(t, lowest=1)
    assert round(a.corpus_alpha, 4) == 0.9718


def test_ner_matches_chunk_scorer(ner):
    from sigfast.formats import score

    g, e, f = ner
    s = read_units(g, [e, f], view="spans")
    for k, path in enumerate((e, f)):
        rep = score("ner", g, path)
        assert int(s.correct(k)[s.gold_present].sum()) == int(rep.stats["f1"].values[:, 0].sum())


def test_sequoia_multiword_tokens_match_conll18():
    # fr_sequoia has multiword tokens (du = de le, ...): aligned inside them by LCS, like conll18_ud_eval.py
    from sigfast.formats.conllu import counts

    d = SHARED / "dependency_parsing" / "conll2018_fr_sequoia"
    gold = next(iter(sorted(d.glob("gold/*.conllu.gz"))), None)
    if gold is None:
        pytest.skip("shared fr_sequoia data absent")
    systems = sorted(d.glob("systems/*/*.conllu.gz"))[:4]
    for view, key in (("las", "LAS"), ("upos", "UPOS")):
        u = read_units(gold, systems, view=view, align="chars")
        for k, s in enumerate(systems):
            c = counts(gold, s)[key]
            assert (int(u.correct(k).sum()), int(np.sum(u.systems[k] != "∅"))) == (c[0], c[3])
