"""Tests of sigfast.analysis: diff / oracle / agreement / coreference classes.

Expected numbers are worked out by hand in the comments (toy data), or come
from independent implementations: a direct coincidence-matrix formula for
Krippendorff's alpha written below, and the ``krippendorff`` package
(PyPI, ``pip install krippendorff``; ``krippendorff.alpha(reliability_data=...,
level_of_measurement="nominal")``), and sigfast's own conll18_ud_eval.py
port (``sigfast.formats.conllu.counts``) for the character alignment.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from sigfast.analysis import (
    MISSING,
    agreement,
    agreement_units,
    coref_diff,
    diff,
    diff_units,
    krippendorff_alpha,
    oracle,
    oracle_units,
    pairwise,
    read_units,
    units_from_labels,
)
from sigfast.cli import build_parser, handler
from sigfast.exceptions import FormatError, InputError, SigfastError

DATA = Path(__file__).parent / "data" / "analysis"

# --------------------------------------------------------------------------- Tuggener's toy example
# Tuggener (2017), Tables 1-2: a key of 10 tokens and three responses that all
# reach 60% accuracy, yet differ pairwise on 40% (R1/R2), 60% (R1/R3) and
# 20% (R2/R3) of the tokens. The paper's own tag strings are not reproduced;
# these responses are built to have exactly the stated properties:
#   R1 right on tokens 0-5, R2 on 0-3,6,7, R3 on 0-2,6-8 (wrong labels shared
#   where two responses are both wrong, so they only differ where one is right).
KEY = ["DT", "NN", "VBZ", "DT", "JJ", "NN", "IN", "DT", "NN", "."]
R1 = ["DT", "NN", "VBZ", "DT", "JJ", "NN", "RP", "PDT", "VB", ","]
R2 = ["DT", "NN", "VBZ", "DT", "NN", "VB", "IN", "DT", "VB", ","]
R3 = ["DT", "NN", "VBZ", "PDT", "NN", "VB", "IN", "DT", "NN", ","]


def toy_units():
    return units_from_labels(KEY, [R1, R2, R3], ["R1", "R2", "R3"], view="pos")


def test_toy_accuracies_and_pairwise_differences():
    u = toy_units()
    p = pairwise(u)
    assert p.accuracy == (0.6, 0.6, 0.6)
    assert p.differ[0][1] == pytest.approx(0.4)
    assert p.differ[0][2] == pytest.approx(0.6)
    assert p.differ[1][2] == pytest.approx(0.2)
    assert all(d == 0 for row in p.delta for d in row)  # Δaccuracy 0 hides 20-60% differences


def test_toy_diff_classes():
    u = toy_units()
    d12 = diff_units(u, "R1", "R2")
    # R1 -> R2: tokens 4,5 new errors (JJ->NN, NN->VB), 6,7 corrections (RP->IN, PDT->DT)
    assert (d12.n_differ, d12.corrections, d12.new_errors, d12.changed_errors) == (4, 2, 2, 0)
    assert dict(d12.top_corrections) == {"RP → IN": 1, "PDT → DT": 1}
    assert dict(d12.top_new_errors) == {"JJ → NN": 1, "NN → VB": 1}
    assert d12.delta == 0 and d12.share_differ == pytest.approx(0.4)
    assert d12.share("corrections") == 0.5 and d12.share("corrections", "units") == pytest.approx(0.2)
    d13 = diff_units(u, "R1", "R3")
    assert (d13.n_differ, d13.corrections, d13.new_errors, d13.changed_errors) == (6, 3, 3, 0)
    d23 = diff_units(u, "R2", "R3")
    assert (d23.n_differ, d23.corrections, d23.new_errors, d23.changed_errors) == (2, 1, 1, 0)
    assert dict(d23.top_corrections) == {"VB → NN": 1} and dict(d23.top_new_errors) == {"DT → PDT": 1}


def test_toy_oracle():
    o = oracle_units(toy_units())
    # tokens 0-8 are right in at least one response; token 9 in none
    assert o.oracle == pytest.approx(0.9) and o.gain == pytest.approx(0.3)
    assert o.best == "R1" and o.none_correct == 1
    assert o.only_one == (2, 0, 1)  # only R1 gets tokens 4, 5; only R3 gets token 8
    rows = {l: (n, b, c) for l, n, b, c in o.labels}
    assert rows["NN"] == (3, 2, 3) and rows["."] == (1, 0, 0)


def test_changed_errors_and_per_label_table():
    d = diff([["A", "B", "C", "A"]], [["A", "C", "B", "B"]], [["B", "A", "A", "B"]])
    # unit0 new error A→B; unit1 C→A (both wrong, key B): changed; unit2 B→A: changed; unit3 unchanged
    assert (d.corrections, d.new_errors, d.changed_errors, d.n_differ) == (0, 1, 2, 3)
    assert dict(d.top_changed_errors) == {"B → C → A": 1, "C → B → A": 1}
    assert dict((r[0], r[1:]) for r in d.labels.rows) == {"A": (2, (1, 0)), "B": (1, (0, 0)), "C": (1, (0, 0))}
    js = json.loads(d.to_json())
    assert js["changed_errors"] == 2 and js["shares_of_differ"]["changed_errors"] == pytest.approx(2 / 3)
    for style in ("text", "markdown"):
        t = d.format(style)
        assert "changed errors" in t and "B → C → A" in t


def test_reports_render():
    u = toy_units()
    for style in ("text", "markdown", "json"):
        from sigfast.analysis import format_result

        for r in (diff_units(u, 0, 1), oracle_units(u), pairwise(u), agreement_units(u, lowest=1)):
            assert format_result(r, style)
    with pytest.raises(InputError):
        diff_units(u, 0, 1).format("rtf")
    page = diff_units(u, 0, 1).format("html")  # the html style: one page around the report's sections
    assert page.startswith("<!DOCTYPE html>") and "<h3>" in page and "<table" in page


# --------------------------------------------------------------------------- Krippendorff's alpha


def alpha_direct(data):
    """Nominal alpha from the coincidence matrix, coded independently of the package:
    o_ck = sum over units of (#ordered pairs of coders (i, j), i != j, with values (c, k)) / (m_u - 1)."""
    coders, n_units = len(data), len(data[0])
    o = Counter()
    for u in range(n_units):
        vals = [data[i][u] for i in range(coders) if data[i][u] is not None]
        m = len(vals)
        if m < 2:
            continue
        for a, b in permutations(range(m), 2):
            o[vals[a], vals[b]] += 1.0 / (m - 1)
    nc = Counter()
    for (c, _k), v in o.items():
        nc[c] += v
    n = sum(nc.values())
    do = sum(v for (c, k), v in o.items() if c != k)
    de = sum(nc[c] * nc[k] for c in nc for k in nc if c != k)
    return 1.0 - (n - 1) * do / de


def random_data(rng, coders, units, cats, p_missing):
    d = rng.integers(0, cats, size=(coders, units)).tolist()
    # make agreement better than chance
    for u in range(units):
        if rng.random() < 0.6:
            v = d[0][u]
            for i in range(coders):
                if rng.random() < 0.8:
                    d[i][u] = v
    return [[None if rng.random() < p_missing else f"c{x}" for x in row] for row in d]


@pytest.mark.parametrize("seed", range(8))
def test_alpha_matches_direct_formula(seed):
    rng = np.random.default_rng(seed)
    data = random_data(
        rng, int(rng.integers(2, 7)), int(rng.integers(5, 60)), int(rng.integers(2, 6)), [0.0, 0.1, 0.3][seed % 3]
    )
    assert krippendorff_alpha(data) == pytest.approx(alpha_direct(data), abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_alpha_matches_krippendorff_package(seed):
    kp = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(100 + seed)
    data = random_data(
        rng, int(rng.integers(2, 7)), int(rng.integers(5, 60)), int(rng.integers(2, 6)), [0.0, 0.15, 0.3][seed % 3]
    )
    num = np.array([[np.nan if v is None else float(v[1:]) for v in row] for row in data])
    ref = kp.alpha(reliability_data=num, level_of_measurement="nominal")
    assert krippendorff_alpha(data) == pytest.approx(ref, abs=1e-12)


def test_alpha_known_values_and_undefined():
    # Krippendorff's textbook example (nominal, 4 coders, 12 units, missing values): alpha = 0.743
    d = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    assert round(krippendorff_alpha(d), 3) == 0.743
    assert krippendorff_alpha(d) == pytest.approx(alpha_direct(d), abs=1e-12)
    assert math.isnan(krippendorff_alpha([["a", "a"], ["a", "a"]]))  # no expected disagreement
    assert math.isnan(krippendorff_alpha([["a", None], [None, "b"]]))  # nothing pairable


def test_sentence_alpha_and_lowest():
    gold = [["A", "B", "C"], ["A", "A"], ["B", "C", "C", "A"]]
    s1 = [["A", "B", "C"], ["A", "B"], ["B", "C", "A", "A"]]
    s2 = [["A", "B", "B"], ["A", "A"], ["C", "C", "A", None]]
    s3 = [["A", "C", "C"], ["B", "A"], ["B", "C", "C", "A"]]
    u = units_from_labels(
        gold, [s1, s2, s3], ["x", "y", "z"], forms=[["w1", "w2", "w3"], ["v1", "v2"], ["u1", "u2", "u3", "u4"]]
    )
    r = agreement_units(u, lowest=2)
    for k in range(3):
        ref = alpha_direct([[v if v != MISSING else None for v in np.asarray(s)[u.sentence == k]] for s in u.systems])
        assert r.sentence_alpha[k] == pytest.approx(ref, abs=1e-12)
    flat = [[None if v == MISSING else v for v in s] for s in u.systems]
    assert r.corpus_alpha == pytest.approx(alpha_direct(flat), abs=1e-12)
    assert [v.sentence for v in r.lowest] == sorted(range(3), key=lambda k: r.sentence_alpha[k])[:2]
    assert r.lowest[0].systems[1][-1] in (MISSING, "A", "C")
    assert "(* = differs from gold)" in r.format()
    with_gold = agreement_units(u, include_gold=True)
    flatg = flat + [list(u.gold)]
    assert with_gold.corpus_alpha == pytest.approx(alpha_direct(flatg), abs=1e-12)


# --------------------------------------------------------------------------- files and alignment


def test_conllu_character_alignment_matches_conll18():
    from sigfast.formats.conllu import counts

    g, s = DATA / "ud_gold.conllu", DATA / "ud_sys_raw.conllu"
    u = read_units(g, [s], view="las", align="chars")
    assert list(u.gold) == [
        "nsubj(+2)",
        "aux(+2)",
        "advmod(+1)",
        "root(root)",
        "punct(-1)",
        "compound(+1)",
        "nsubj(+2)",
        "cop(+1)",
        "root(root)",
        "punct(-1)",
    ]
    # worked by hand: I→go (+3); punct:x → punct; New→York amod; York→go across sentences (-3);
    # 'is' heads to the unaligned 'big.' (?); gold 'big' and '.' have no aligned word (∅)
    assert list(u.systems[0]) == [
        "nsubj(+3)",
        "aux(+2)",
        "advmod(+1)",
        "root(root)",
        "punct(-1)",
        "amod(+1)",
        "parataxis(-3)",
        "cop(?)",
        MISSING,
        MISSING,
    ]
    c = counts(g, s)
    for view, key in (("las", "LAS"), ("uas", "UAS"), ("upos", "UPOS")):
        uu = read_units(g, [s], view=view, align="chars")
        assert int(uu.correct(0).sum()) == c[key][0]  # conll18 correct count
        assert int(np.sum(uu.systems[0] != MISSING)) == c[key][3]  # aligned words
    # las per-label rows are grouped by gold relation (a unit is right only if head and relation are)
    rows = {r[0]: (r[1], r[2]) for r in oracle_units(u).labels}
    assert rows == {
        "nsubj": (2, 0),
        "root": (2, 1),
        "aux": (1, 1),
        "advmod": (1, 1),
        "punct": (2, 1),
        "compound": (1, 0),
        "cop": (1, 0),
    }


def test_conllu_strict_rejects_other_tokenization():
    with pytest.raises(FormatError) as e:
        read_units(DATA / "ud_gold.conllu", [DATA / "ud_sys_raw.conllu"], view="upos", align="tokens")
    msg = str(e.value)
    assert "ud_sys_raw.conllu, line 15" in msg and "sentence 2" in msg and "--align chars" in msg


def test_conllu_text_mismatch(tmp_path):
    bad = tmp_path / "bad.conllu"
    bad.write_text((DATA / "ud_sys_raw.conllu").read_text().replace("York", "Yorke"))
    with pytest.raises(FormatError, match="text mismatch"):
        read_units(DATA / "ud_gold.conllu", [bad], align="chars")


def _bio(path, sents):
    path.write_text("\n\n".join("\n".join(f"{w}\t{t}" for w, t in s) for s in sents) + "\n")
    return path


def test_bio_spans_and_tags(tmp_path):
    g = _bio(
        tmp_path / "g.conll",
        [
            [("EU", "B-ORG"), ("rejects", "O"), ("German", "B-MISC"), ("call", "O")],
            [("Peter", "B-PER"), ("Blackburn", "I-PER")],
        ],
    )
    a = _bio(
        tmp_path / "a.conll",
        [
            [("EU", "B-ORG"), ("rejects", "O"), ("German", "B-LOC"), ("call", "O")],
            [("Peter", "B-PER"), ("Blackburn", "B-PER")],
        ],
    )
    b = _bio(
        tmp_path / "b.conll",
        [
            [("EU", "O"), ("rejects", "O"), ("German", "B-MISC"), ("call", "O")],
            [("Peter", "B-PER"), ("Blackburn", "I-PER")],
        ],
    )
    t = diff(g, a, b, names=["a", "b"])
    assert (t.n_units, t.corrections, t.new_errors, t.changed_errors) == (6, 2, 1, 0)
    s = diff(g, a, b, view="spans", names=["a", "b"])
    # span units: EU/ORG, German/MISC, Peter Blackburn/PER (gold) + Peter/PER, Blackburn/PER (a only)
    assert s.n_units == 5
    assert dict(s.top_corrections) == {"LOC → MISC": 1, "PER → O": 2, "O → PER": 1}
    assert dict(s.top_new_errors) == {"ORG → O": 1}
    o = oracle(g, [a, b], view="spans", names=["a", "b"])
    assert o.n_units == 3 and o.correct == (1, 2) and o.oracle_correct == 3


def test_bio_token_mismatch_and_counts(tmp_path):
    g = _bio(tmp_path / "g.conll", [[("EU", "B-ORG"), ("rejects", "O")], [("Peter", "B-PER")]])
    bad = _bio(tmp_path / "s.conll", [[("EU", "B-ORG"), ("reject", "O")], [("Peter", "B-PER")]])
    with pytest.raises(FormatError) as e:
        diff(g, bad, g)
    assert "s.conll, line 2" in str(e.value) and "'reject'" in str(e.value)
    short = _bio(tmp_path / "t.conll", [[("EU", "B-ORG"), ("rejects", "O")]])
    with pytest.raises(FormatError, match="2 sentences and the system file 1"):
        oracle(g, [short])
    merged = _bio(tmp_path / "m.conll", [[("EU", "B-ORG"), ("rejects", "O"), ("Peter", "B-PER")]])
    with pytest.raises(FormatError):
        agreement(g, [merged, g])
    # conlleval reads a tag without a prefix (here "ORG"), so the units do too: no error
    tag = _bio(tmp_path / "x.conll", [[("EU", "ORG"), ("rejects", "O")], [("Peter", "B-PER")]])
    assert diff(g, tag, g).n_units == 3
    empty = tmp_path / "e.conll"
    empty.write_text("\n")
    with pytest.raises(FormatError, match="empty"):
        diff(g, empty, g)
    with pytest.raises(InputError):
        diff(g, g, g, align="chars")


def test_label_lists_must_match():
    with pytest.raises(InputError, match="sentence 1"):
        diff([["A", "B"]], [["A"]], [["A", "B"]])
    with pytest.raises(InputError):
        oracle([["A"]], [[["A"]], [["A"], ["B"]]])


# --------------------------------------------------------------------------- coreference


def test_coref_classes_and_transitions():
    k, r1, r2 = DATA / "coref_key.conll", DATA / "coref_r1.conll", DATA / "coref_r2.conll"
    # key: {John, He}, {Mary, her, She}, {Bill}; r1: {John, He, She}, {Mary}; r2: {John, He}, {Mary, her, Bill, She}
    a = coref_diff(k, r1, r2, criterion="any", names=("r1", "r2"))
    # He TP->TP; her FN->TP; She WL->TP (Mary is among r2's antecedents); Bill TN->FP
    assert a.transitions == {"TP->TP": 1, "FN->TP": 1, "WL->TP": 1, "TN->FP": 1}
    assert (a.n_mentions, a.n_differ, a.corrections, a.new_errors, a.changed_errors) == (4, 3, 2, 1, 0)
    assert a.counts1 == {"TP": 1, "FN": 1, "WL": 1, "TN": 1} and a.counts2 == {"TP": 3, "FP": 1}
    assert a.by_type == {"her": {"FN->TP": 1}, "she": {"WL->TP": 1}, "NOUN": {"TN->FP": 1}}
    n = coref_diff(k, r1, r2, criterion="nominal", names=("r1", "r2"))
    # closest nominal antecedent of She in r2 is Bill -> WL stays WL
    assert n.transitions == {"TP->TP": 1, "FN->TP": 1, "WL->WL": 1, "TN->FP": 1}
    assert (n.n_differ, n.corrections, n.new_errors) == (2, 1, 1)
    assert "WL" in n.format() and json.loads(n.to_json())["criterion"] == "nominal"


def test_coref_bad_input(tmp_path):
    with pytest.raises(FormatError, match="words differ"):
        coref_diff(DATA / "coref_key.conll", DATA / "coref_badwords.conll", DATA / "coref_r2.conll")
    bad = tmp_path / "b.conll"
    bad.write_text((DATA / "coref_r1.conll").read_text().replace("#end document\n", ""))
    with pytest.raises(FormatError, match="no '#end document'"):
        coref_diff(DATA / "coref_key.conll", bad, DATA / "coref_r2.conll")
    with pytest.raises(InputError):
        coref_diff(DATA / "coref_key.conll", DATA / "coref_r1.conll", DATA / "coref_r2.conll", criterion="x")


# --------------------------------------------------------------------------- CLI


def _run(argv, capsys):
    args = build_parser(argv[0]).parse_args(argv)
    rc = handler(args.handler)(args)
    return rc, capsys.readouterr().out


def test_cli(tmp_path, capsys):
    g = _bio(tmp_path / "g.conll", [[("EU", "B-ORG"), ("rejects", "O")], [("Peter", "B-PER")]])
    a = _bio(tmp_path / "a.conll", [[("EU", "B-LOC"), ("rejects", "O")], [("Peter", "B-PER")]])
    b = _bio(tmp_path / "b.conll", [[("EU", "B-ORG"), ("rejects", "O")], [("Peter", "O")]])
    rc, out = _run(["diff", str(g), str(a), str(b)], capsys)
    assert rc == 0 and "Units labeled differently: 2 of 3" in out
    rc, out = _run(["oracle", str(g), str(a), str(b), "--matrix", "--json"], capsys)
    assert rc == 0 and json.loads(out)[0]["oracle"]["oracle"] == 1.0
    rc, out = _run(["agreement", str(g), f"A={a}", f"B={b}", "--markdown"], capsys)
    assert rc == 0 and "| unit | gold | A | B |" in out
    rc, out = _run(
        [
            "diff",
            str(DATA / "coref_key.conll"),
            str(DATA / "coref_r1.conll"),
            str(DATA / "coref_r2.conll"),
            "--format",
            "conll2012",
        ],
        capsys,
    )
    assert rc == 0 and "criterion 'any'" in out and "criterion 'nominal'" in out
    with pytest.raises(SigfastError):
        _run(
            [
                "diff",
                str(DATA / "ud_gold.conllu"),
                str(DATA / "ud_sys_raw.conllu"),
                str(DATA / "ud_gold.conllu"),
                "--align",
                "tokens",
            ],
            capsys,
        )
    rc, out = _run(
        [
            "diff",
            str(DATA / "ud_gold.conllu"),
            str(DATA / "ud_sys_raw.conllu"),
            str(DATA / "ud_gold.conllu"),
            "--view",
            "uas",
        ],
        capsys,
    )
    assert rc == 0 and "(uas, 10 units)" in out


# --------------------------------------------------------------------------- Penn trees


def test_ptb_brackets_and_pos():
    from sigfast.formats import score

    g, s = DATA / "trees_gold.mrg", DATA / "trees_sys.mrg"
    u = read_units(g, [g, s], names=["same", "prt"])
    assert u.view == "brackets"
    # EVALB's brackets (COLLINS.prm): ROOT is a bracket, punctuation is not a word, every bracket of a
    # unary chain is its own unit; "O" = no such bracket
    assert list(u.gold) == ["NP", "ROOT", "S", "VP", "O", "PP", "NP", "ROOT", "S", "VP"]
    assert list(u.systems[1]) == ["NP", "ROOT", "S", "VP", "PRT", "O", "NP", "ROOT", "S", "VP"]
    d = diff_units(u, 0, 1)
    assert dict(d.top_new_errors) == {"O → PRT": 1, "PP → O": 1} and d.corrections == 0
    o = oracle_units(u)
    assert o.n_units == 9 and o.correct == (9, 8)  # gold brackets only
    matched, test, gold = score("evalb", g, s).stats["f1"].values.sum(0)
    assert (int(u.matched(1).sum()), int(sum(u.systems[1] != "O")), int(u.gold_present.sum())) == (
        matched,
        test,
        gold,
    )
    p = read_units(g, [s], view="pos")
    correct_tags, words = score("evalb", g, s).stats["tagging_accuracy"].values.sum(0)
    assert (p.n_units, int(p.correct(0).sum())) == (words, correct_tags) == (7, 6)


def test_ptb_word_mismatch():
    # EVALB scores a sentence whose words differ as an error sentence (a warning, no brackets):
    # so do the units, which come from the same evaluation
    from sigfast.formats.trees import EvalbWarning

    with pytest.warns(EvalbWarning, match="Words unmatch"):
        u = read_units(DATA / "trees_gold.mrg", [DATA / "trees_badword.mrg"])
    assert int(u.matched(0)[u.sentence == 0].sum()) == 0


def test_conllu_head_out_of_range(tmp_path):
    bad = tmp_path / "bad.conllu"
    bad.write_text(
        (DATA / "ud_gold.conllu")
        .read_text()
        .replace("5\t.\t.\tPUNCT\t.\t_\t4\tpunct", "5\t.\t.\tPUNCT\t.\t_\t9\tpunct", 1)
    )
    with pytest.raises(FormatError, match="HEAD 9 of word 5 points outside the sentence"):
        read_units(DATA / "ud_gold.conllu", [bad])


def test_pairwise_matrix_names_each_system_once_per_line() -> None:
    """The matrix heads its columns with the names when they fit, else with codes S1..Sn, and never
    prints a name twice on one line (Tuggener 2017, Table 1's layout)."""
    from sigfast.analysis.report import format_pairwise

    text = format_pairwise(pairwise(toy_units()))
    head = text.splitlines()[2]
    assert head.split() == ["system", "acc", "%", "R1", "R2", "R3"]
    for line in text.splitlines()[4:7]:
        assert sum(line.count(n) for n in ("R1", "R2", "R3")) == 1
    long = [f"a-very-long-system-name-{k}-from-a-file-stem" for k in range(3)]
    u = units_from_labels(KEY, [R1, R2, R3], long, view="pos")
    text = format_pairwise(pairwise(u))
    assert text.splitlines()[2].split()[-3:] == ["S1", "S2", "S3"]
    for k, line in enumerate(text.splitlines()[4:7]):
        assert line.startswith(f"S{k + 1} {long[k]}") and line.count(long[k]) == 1
