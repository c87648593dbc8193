"""Everything Tuggener (2017) reports, reproduced by sigfast.analysis: hand-computed checks.

Tuggener, D. (2017). A method for in-depth comparative evaluation: How (dis)similar are
outputs of POS taggers, dependency parsers and coreference resolvers really? EACL.

* Tables 1-2 (toy): key A B C D E, responses S1 = A B C X Y, S2 = Z B C D U,
  S3 = Z W C D E: each 60% accurate, overlaps on all answers 40 / 60 / 20 %
  (S1-S2 / S2-S3 / S1-S3), on correct answers 67 / 67 / 33 %.
* Tables 3 and 5: the share of fully correct sentences beside accuracy.
* Tables 9 and 10: every system's per-label accuracy beside the oracle's.
* Table 12 (A.1): the per-label table sorted by the largest accuracy difference.
* Table 7: ARCS precision / recall / F1 from the TP / FP / FN / WL classes; Tuggener 2014
  (and the author's ARCS scorer, README of github.com/dtuggener/ARCS) defines
  precision = TP / (TP + WL + FP), recall = TP / (TP + WL + FN).
* Table 11: ARCS_nom recall upper bound over several responses by mention type
  (nouns, PRP, PRP$).
* Evaluation without punctuation, by each format scorer's own rule.

Every expected number is worked out by hand in the comments, or comes from a reference
scorer's own output (eval08.pl numbers pinned in tests/test_format_conll09.py) or from an
independent code path (the per-sentence conll18_ud_eval statistics of the CoNLL-U format).
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sigfast.analysis import (
    PUNCT_RULES,
    arcs,
    coref_diff,
    coref_oracle,
    diff,
    diff_units,
    oracle,
    oracle_units,
    pairwise,
    punct_mask,
    read_units,
    units_from_labels,
    without_punct,
)
from sigfast.cli import build_parser, handler
from sigfast.exceptions import InputError

DATA = Path(__file__).parent / "data" / "analysis"
DEP = Path(__file__).parent / "data" / "dependency"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"


def _run(argv, capsys):
    argv = [str(a) for a in argv]
    args = build_parser(argv[0]).parse_args(argv)
    rc = handler(args.handler)(args)
    return rc, capsys.readouterr().out


# --------------------------------------------------------------------------- Tables 1-2


KEY = [["A", "B"], ["C", "D", "E"]]  # two "sentences", for the fully-correct-sentence counts
S1 = [["A", "B"], ["C", "X", "Y"]]
S2 = [["Z", "B"], ["C", "D", "U"]]
S3 = [["Z", "W"], ["C", "D", "E"]]


def toy():
    return units_from_labels(KEY, [S1, S2, S3], ["S1", "S2", "S3"], view="tags")


def test_table2_accuracy_and_overlap():
    p = pairwise(toy())
    assert p.accuracy == (0.6, 0.6, 0.6)
    # overlap on all answers = 1 - diff: S1-S2 share B, C (40%); S2-S3 share Z, C, D (60%); S1-S3 only C (20%)
    assert 1 - p.differ[0][1] == pytest.approx(0.4)
    assert 1 - p.differ[1][2] == pytest.approx(0.6)
    assert 1 - p.differ[0][2] == pytest.approx(0.2)


def test_table1_overlap_on_correct_answers():
    u = toy()
    # correct answers shared: S1 {A,B,C} and S2 {B,C,D}: 2 of 3 (67%); S2-S3 {C,D}: 67%; S1-S3 {C}: 33%
    for (a, b), shared in {("S1", "S2"): 2, ("S2", "S3"): 2, ("S1", "S3"): 1}.items():
        d = diff_units(u, a, b)
        assert d.n_correct1 - d.new_errors == shared  # right in a and still right in b


def test_table2_diff_classes():
    d = diff_units(toy(), "S1", "S2")
    # A: S1 right, S2 Z (new error A -> Z); D: X -> D (correction); E: both wrong, Y -> U (changed error)
    assert (d.n_differ, d.corrections, d.new_errors, d.changed_errors) == (3, 1, 1, 1)
    assert dict(d.top_new_errors) == {"A → Z": 1}
    assert dict(d.top_corrections) == {"X → D": 1}
    assert dict(d.top_changed_errors) == {"E → Y → U": 1}


def test_fully_correct_sentences_beside_accuracy():
    # sentence 1 (A B): only S1 gets both; sentence 2 (C D E): only S3 gets all three
    u = toy()
    d = diff_units(u, "S1", "S3")
    assert (d.n_sentences, d.exact1, d.exact2) == (2, 1, 1)
    assert d.exact_share1 == 0.5 and d.accuracy1 == 0.6
    o = oracle_units(u)
    assert o.exact == (1, 0, 1) and o.n_sentences == 2
    # every unit is right in some system, so the oracle gets both sentences
    assert o.oracle_exact == 2 and o.oracle == 1.0
    js = json.loads(o.to_json())
    assert js["exact"] == {"S1": 1, "S2": 0, "S3": 1} and js["oracle_exact_share"] == 1.0
    for style in ("text", "markdown", "latex"):
        out = d.format(style)
        assert "correct sentences" in out and "50.00" in out
    sent = next(row for row in d.rows() if row["kind"] == "sentences")  # tidy data: the counts themselves
    assert (sent["count"], sent["correct1"], sent["correct2"]) == (2, 1, 1)
    text = o.format()
    assert "correct sentences % (of 2)" in text


def test_sentence_without_units_is_correct():
    # eval.pl / eval08.pl count a sentence with no scoring token as exactly matched
    u = units_from_labels([["x"], [","]], [[["y"], [","]]], ["S"], forms=[["dog"], [","]])
    v, note = without_punct(u)
    assert v.n_units == 1 and v.n_sentences == 2 and "1 of 2 units" in note
    assert oracle_units(v).exact == (1,)  # sentence 2 lost its only unit: correct


# --------------------------------------------------------------------------- Tables 9-10


def per_label_units():
    #           NN  NN  NN  NN  DT  DT  VB  VB  JJ  IN
    gold = ["NN", "NN", "NN", "NN", "DT", "DT", "VB", "VB", "JJ", "IN"]
    a = ["NN", "NN", "NN", "JJ", "DT", "DT", "NN", "VB", "NN", "IN"]  # 7 right
    b = ["NN", "NN", "VB", "NN", "DT", "IN", "VB", "VB", "JJ", "IN"]  # 8 right
    c = ["JJ", "NN", "NN", "VB", "DT", "DT", "VB", "NN", "NN", "RP"]  # 5 right
    return units_from_labels(gold, [a, b, c], ["A", "B", "C"])


def test_every_system_per_label_beside_the_oracle():
    o = oracle_units(per_label_units())
    assert o.best == "B" and o.correct == (7, 8, 5)
    # NN: A 3/4, B 3/4, C 2/4, oracle 4/4 (every NN right somewhere); DT: 2, 1, 2 -> 2; VB: 1, 2, 1 -> 2;
    # JJ: 0, 1, 0 -> 1; IN: 1, 1, 0 -> 1
    table = {l: (n, c, u) for l, n, c, u in o.label_table()}
    assert table == {
        "NN": (4, (3, 3, 2), 4),
        "DT": (2, (2, 1, 2), 2),
        "VB": (2, (1, 2, 1), 2),
        "IN": (1, (1, 1, 0), 1),
        "JJ": (1, (0, 1, 0), 1),
    }
    assert [r[0] for r in o.labels] == ["NN", "DT", "VB", "IN", "JJ"]  # most frequent first
    d = o.to_dict()["labels"][0]
    assert d["accuracy"] == {"A": 0.75, "B": 0.75, "C": 0.5} and d["oracle_accuracy"] == 1.0
    md = o.format("markdown")
    # columns: most accurate first; gain is over the best single system (B), as Tables 9-10
    assert "| label | count | B | A | C | oracle | gain |" in md
    assert "| all | 10 | 80.00 | 70.00 | 50.00 | 100.00 | +20.00 |" in md
    assert "| NN | 4 | 75.00 | 75.00 | 50.00 | 100.00 | +25.00 |" in md
    assert "| DT | 2 | 50.00 | 100.00 | 100.00 | 100.00 | +50.00 |" in md
    # CSV is tidy data: one row per (label, system), counts as numbers
    tidy = {(row["label"], row["system"]): (row["count"], row["correct"]) for row in o.rows()}
    assert tidy[("(all)", "B")] == (10, 8) and tidy[("NN", "oracle")] == (4, 4) and tidy[("DT", "A")] == (2, 2)
    assert o.format("csv").startswith("label,system,count,correct,accuracy,")
    for style in ("text", "markdown", "latex"):
        assert "oracle" in o.format(style)


def test_per_label_columns_fold_with_many_systems(capsys):
    rng = np.random.default_rng(7)
    gold = [str(x) for x in rng.integers(0, 4, 60)]
    systems = [[g if rng.random() < 0.5 + k / 40 else "x" for g in gold] for k in range(12)]
    names = [f"sys{k:02d}" for k in range(12)]
    o = oracle_units(units_from_labels(gold, systems, names))
    ranked = sorted(range(12), key=lambda k: (-o.correct[k], names[k]))
    text = o.format("text")
    header = next(line for line in text.splitlines() if line.startswith("label"))
    shown = [n for n in names if n in header.split()]
    assert len(shown) == 8 and set(shown) == {names[k] for k in ranked[:8]}
    assert "4 more systems not shown" in text
    for style in ("markdown", "latex"):  # every column
        out = o.format(style)
        assert all(n in out.split("Per gold label")[1] for n in names)
    assert {row["system"] for row in o.rows()} == {*names, "oracle"}  # CSV: every system, tidy
    md = o.format("markdown", systems=["sys03", "sys00"])
    assert "| label | count | sys03 | sys00 | oracle | gain |" in md
    md = o.format("markdown", top_systems=2)
    assert f"| label | count | {names[ranked[0]]} | {names[ranked[1]]} | oracle | gain |" in md
    with pytest.raises(InputError, match="no system named 'nope'"):
        o.format("text", systems=["nope"])


def test_oracle_cli_systems_and_top(tmp_path, capsys):
    g = tmp_path / "g.conll"
    files = []
    tags = [["B-PER", "O", "B-LOC"], ["O", "B-ORG"]]
    variants = [
        [["B-PER", "O", "B-LOC"], ["O", "O"]],
        [["O", "O", "B-LOC"], ["O", "B-ORG"]],
        [["B-PER", "O", "O"], ["O", "B-ORG"]],
    ]
    words = [["Ann", "in", "Rome"], ["at", "IBM"]]

    def write(path, tg):
        path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts)) for ws, ts in zip(words, tg)) + "\n")

    write(g, tags)
    for k, v in enumerate(variants):
        f = tmp_path / f"s{k}.conll"
        write(f, v)
        files.append(f)
    rc, out = _run(["oracle", g, *files, "--show-systems", "s2,s0", "--markdown"], capsys)
    assert rc == 0 and "| label | count | s2 | s0 | oracle | gain |" in out
    rc, out = _run(["oracle", g, *files, "--top-systems", "1", "--markdown"], capsys)
    assert "| label | count | s0 | oracle | gain |" in out  # ties broken by name
    with pytest.raises(InputError):
        _run(["oracle", g, *files, "--show-systems", "zz"], capsys)


# --------------------------------------------------------------------------- Table 12


def test_sort_by_accuracy_difference(capsys, tmp_path):
    # NN: 4 tokens, S1 4 right, S2 3 (-25); VAIMP: 1, 1 -> 0 (-100); PROAV: 2, 0 -> 2 (+100);
    # ADJA: 3, 2 -> 3 (+33.33). By |delta|: PROAV (100, 2 tokens) before VAIMP (100, 1 token), ADJA, NN
    gold = ["NN"] * 4 + ["VAIMP"] + ["PROAV"] * 2 + ["ADJA"] * 3
    s1 = ["NN"] * 4 + ["VAIMP"] + ["PAV"] * 2 + ["ADJA", "ADJA", "ADJD"]
    s2 = ["NN", "NN", "NN", "NE"] + ["VVIMP"] + ["PROAV"] * 2 + ["ADJA"] * 3
    d = diff(gold, s1, s2, names=["TT", "CT"])
    assert [r[0] for r in d.labels.rows] == ["NN", "ADJA", "PROAV", "VAIMP"]
    assert [r[0] for r in d.labels.sorted("delta")] == ["PROAV", "VAIMP", "ADJA", "NN"]
    text = d.format(sort="delta")
    body = text.split("largest |Δ| first")[1]
    assert body.index("PROAV") < body.index("VAIMP") < body.index("ADJA") < body.index("NN")
    assert "+100.00" in body and "-100.00" in body and "+33.33" in body and "-25.00" in body
    js = json.loads(d.to_json(sort="delta"))
    assert [r["label"] for r in js["labels"]["rows"]] == ["PROAV", "VAIMP", "ADJA", "NN"]
    assert js["labels"]["rows"][1]["delta"] == -1.0
    with pytest.raises(InputError):
        d.labels.sorted("alphabet")
    # the CLI: default stays by frequency
    g = tmp_path / "g.tsv"
    a = tmp_path / "a.tsv"
    b = tmp_path / "b.tsv"
    for path, tags in ((g, gold), (a, s1), (b, s2)):
        path.write_text("\n".join(f"w{i}\t{t}" for i, t in enumerate(tags)) + "\n")
    rc, out = _run(["diff", g, a, b, "--format", "pos", "--markdown"], capsys)
    rows = [ln.split("|")[1].strip() for ln in out.split("Per-label accuracy")[1].splitlines() if ln.startswith("| ")]
    assert rows[1:5] == ["NN", "ADJA", "PROAV", "VAIMP"]
    rc, out = _run(["diff", g, a, b, "--format", "pos", "--sort", "delta", "--markdown"], capsys)
    assert rc == 0
    rows = [ln.split("|")[1].strip() for ln in out.split("Per-label accuracy")[1].splitlines() if ln.startswith("| ")]
    assert rows[1:5] == ["PROAV", "VAIMP", "ADJA", "NN"]
    rc, out = _run(["diff", g, a, b, "--format", "pos", "--csv"], capsys)  # tidy data, by frequency
    assert [ln.split(",")[1] for ln in out.splitlines() if ln.startswith("label,")] == ["NN", "ADJA", "PROAV", "VAIMP"]


# --------------------------------------------------------------------------- punctuation


def test_punct_rule_by_form():
    u = units_from_labels(
        ["P", "N", "P", "P", "N", "N"],
        [["P", "V", "P", "X", "N", "N"]],
        forms=[",", "dog", "--", "«»", "a.b", "."],
    )
    mask, rule = punct_mask(u)
    # ',' '--' '«»' '.' are all category P; 'dog' and 'a.b' are not (a.b has letters)
    assert mask.tolist() == [True, False, True, True, False, True]
    assert "category P" in rule
    v, note = without_punct(u)
    assert v.n_units == 2 and list(v.gold) == ["N", "N"] and "4 of 6 units" in note
    o = oracle(["P", "N", "P", "P", "N", "N"], [["P", "V", "P", "X", "N", "N"]], no_punct=True, forms=list(u.forms))
    assert (o.n_units, o.correct, o.note) == (2, (1,), note)  # 'dog' wrong (V), 'a.b' right


def test_conllu_punct_is_the_gold_relation():
    g, s = DATA / "ud_gold.conllu", DATA / "ud_sys_raw.conllu"
    for view in ("las", "upos", "lemmas"):
        u = read_units(g, [s], view=view, align="chars", no_punct=True)
        # ud_gold has 10 words, two of them '.' with relation punct
        assert u.n_units == 8, view
    # 'las' keeps the relation as groups; no punct relation is left
    u = read_units(g, [s], view="las", align="chars", no_punct=True)
    assert "punct" not in set(u.groups)
    # hand-worked (test_analysis.py): of the 8 non-punct words the system gets I/ca/n't... right:
    # aux(+2), advmod(+1), root(root) -> 3 correct (the punct -1 of sentence 1 no longer counts)
    assert int(u.correct(0).sum()) == 3
    with pytest.raises(InputError, match="relation punct"):
        punct_mask(read_units(g, [s], view="upos", align="chars"))


def test_eval08_punct_rule_matches_script_minus_p():
    # eval08.pl -p on basic.*.conll08: "Labeled attachment score: 13 / 16", "Exact syntactic match: 3 / 5"
    # (tests/test_format_conll09.py, from the script's own output); without -p 15 / 21 and 2 / 5
    g, s = DEP / "basic.gold.conll08", DEP / "basic.sys.conll08"
    d = diff(g, s, g, format="conll08", view="las", no_punct=True)
    assert (d.n_units, d.n_correct1, d.exact1, d.n_sentences) == (16, 13, 3, 5)
    d = diff(g, s, g, format="conll08", view="las")
    assert (d.n_units, d.n_correct1, d.exact1) == (21, 15, 2)
    assert d.note == ""
    # same as the format's own -p
    u = read_units(g, [s], format="conll08", view="las", punct=False)
    assert (u.n_units, int(u.correct(0).sum())) == (16, 13)
    # semantic dependencies are not touched (-p only changes syntax)
    sem = read_units(g, [s], format="conll08", view="sem")
    assert read_units(g, [s], format="conll08", view="sem", no_punct=True).n_units == sem.n_units


def test_punct_rules_documented_and_no_words():
    assert set(PUNCT_RULES) >= {"conllu", "conllx", "conll07", "conll08", "conll09", "evalb"}
    u = read_units(DATA / "trees_gold.mrg", [DATA / "trees_sys.mrg"], view="pos", no_punct=True)
    assert u.n_units == 7  # EVALB's COLLINS.prm had already left '.' and '!' out


def test_no_punct_cli_every_subcommand(capsys):
    g, s = DATA / "ud_gold.conllu", DATA / "ud_sys_raw.conllu"
    for cmd in (["diff", g, s, g], ["oracle", g, s, g], ["agreement", g, s, g]):
        for style in ("", "--json", "--csv", "--markdown", "--latex"):
            argv = [*cmd, "--no-punct"] + ([style] if style else [])
            rc, out = _run(argv, capsys)
            assert rc == 0
            assert "punctuation left out: 2 of 10 units" in out, (cmd[0], style)
    rc, out = _run(["diff", g, s, g, "--no-punct", "--json"], capsys)
    assert json.loads(out)[0]["n_units"] == 8
    with pytest.raises(InputError):
        _run(
            ["oracle", "--format", "conll2012", DATA / "coref_key.conll", DATA / "coref_r1.conll", "--no-punct"], capsys
        )


# --------------------------------------------------------------------------- coreference: Table 7


T11 = {k: DATA / f"coref_t11_{k}.conll" for k in ("key", "r1", "r2", "r3")}

# coref_t11_key.conll (one document, 4 sentences): chains
#   1: M1 "The old man" (0,0-2)  M2 his/PRP$ (0,4)  M3 He/PRP (1,0)  M4 "The man" (2,0-1)  M5 his/PRP$ (2,4)
#   2: D1 dog/NN (0,5)  D2 "the dog" (1,2-3)  D3 it/PRP (1,5)  D4 pet/NN (2,5)
#   3: I1 I/PRP (3,0)  I2 I/PRP (3,4)                       (no nominal: left out under "nominal")
# r1: [M1 M2 M3] [D1 D3 M5] [I1 I2]
#   any: M2 TP, M3 TP, M4 FN (absent), M5 WL, D2 FN, D3 TP, D4 FN, I2 TP; no FP
#   nominal: M2 TP, M3 TP, M4 FN, M5 WL (closest nominal antecedent D1), D2 FN, D3 TP, D4 FN
# r2: [M1 M4 M5] [M2 D1] [D2 D3 D4]
#   any: M2 FN (first of its chain), M3 FN, M4 TP, M5 TP, D2 FN, D3 TP, D4 TP, I2 FN; D1 FP (first in the key)
#   nominal: the same without I2; D1 is no FP (its only antecedent, his, is not nominal)
# r3: [M1 M3 M5 "his pet"] [D1 M4 D4] [I1 I2]
#   any: M2 FN, M3 TP, M4 WL, M5 TP, D2 FN, D3 FN, D4 TP (D1 among its antecedents), I2 TP; "his pet" FP
#   nominal: D4 WL (closest nominal antecedent M4 = "The man"), otherwise as any without I2
ARCS_EXPECTED = {
    # (response, criterion): (TP, WL, FN, FP)
    ("r1", "any"): (4, 1, 3, 0),
    ("r1", "nominal"): (3, 1, 3, 0),
    ("r2", "any"): (4, 0, 4, 1),
    ("r2", "nominal"): (4, 0, 3, 0),
    ("r3", "any"): (4, 1, 3, 1),
    ("r3", "nominal"): (2, 2, 3, 1),
}


@pytest.mark.parametrize("resp, crit", sorted(ARCS_EXPECTED))
def test_arcs_precision_recall_f1(resp, crit):
    tp, wl, fn, fp = ARCS_EXPECTED[resp, crit]
    a = arcs(T11["key"], T11[resp], criterion=crit)
    assert (a.tp, a.wl, a.fn, a.fp) == (tp, wl, fn, fp)
    p, r = Fraction(tp, tp + wl + fp), Fraction(tp, tp + wl + fn)
    assert a.precision == pytest.approx(float(p)) and a.recall == pytest.approx(float(r))
    assert a.f1 == pytest.approx(float(2 * p * r / (p + r)))
    assert a.accuracy == pytest.approx(tp / (tp + wl))


def test_arcs_hand_values():
    # r1 any: P = 4/5, R = 4/8, F1 = 8/13; r3 nominal: P = 2/5, R = 2/7, F1 = 1/3; r2 nominal: 1, 4/7, 8/11
    assert arcs(T11["key"], T11["r1"]).f1 == pytest.approx(8 / 13)
    a = arcs(T11["key"], T11["r3"], criterion="nominal")
    assert (a.precision, a.recall, a.f1) == pytest.approx((2 / 5, 2 / 7, 1 / 3))
    a = arcs(T11["key"], T11["r2"], criterion="nominal")
    assert (a.precision, a.recall, a.f1) == pytest.approx((1.0, 4 / 7, 8 / 11))


def test_coref_diff_carries_arcs(capsys):
    d = coref_diff(T11["key"], T11["r1"], T11["r3"], criterion="nominal", names=("r1", "r3"))
    assert (d.arcs1.tp, d.arcs1.wl, d.arcs1.fn, d.arcs1.fp) == ARCS_EXPECTED["r1", "nominal"]
    assert (d.arcs2.tp, d.arcs2.wl, d.arcs2.fn, d.arcs2.fp) == ARCS_EXPECTED["r3", "nominal"]
    js = json.loads(d.to_json())
    assert js["arcs1"]["f1"] == pytest.approx(6 / 11) and js["arcs2"]["f1"] == pytest.approx(1 / 3)
    # the existing toy (tests/test_analysis.py): r1 TP 1 WL 1 FN 1 -> P 1/2, R 1/3; r2 TP 3 FP 1 -> P 3/4, R 1
    a = coref_diff(DATA / "coref_key.conll", DATA / "coref_r1.conll", DATA / "coref_r2.conll", criterion="any")
    assert (a.arcs1.precision, a.arcs1.recall) == pytest.approx((1 / 2, 1 / 3))
    assert (a.arcs2.precision, a.arcs2.recall) == pytest.approx((3 / 4, 1.0))
    argv = ["diff", T11["key"], f"r1={T11['r1']}", f"r3={T11['r3']}", "--format", "conll2012"]
    rc, out = _run(argv, capsys)
    assert rc == 0 and "ARCS F1 %" in out and "54.55" in out and "33.33" in out and "61.54" in out
    rc, out = _run([*argv, "--json"], capsys)
    js = json.loads(out)[0]
    assert js["any"]["arcs1"]["precision"] == pytest.approx(4 / 5)
    assert js["nominal"]["arcs2"]["recall"] == pytest.approx(2 / 7)
    for style in ("--markdown", "--latex"):
        rc, out = _run([*argv, style], capsys)
        assert "ARCS precision" in out and "54.55" in out
    rc, out = _run([*argv, "--csv"], capsys)  # tidy data: one row per criterion and transition
    assert out.startswith("criterion,system1,system2,from,to,count,") and "any,r1,r3,TP,TP," in out


# --------------------------------------------------------------------------- coreference: Table 11


def test_coref_upper_bound_by_mention_type():
    o = coref_oracle(T11["key"], {k: T11[k] for k in ("r1", "r2", "r3")})
    # nominal: 7 classed key mentions (I2 left out). TP: r1 M2 M3 D3; r2 M4 M5 D3 D4; r3 M3 M5.
    # Some response gets every one but D2 (FN in all three): upper bound 6/7.
    # Nouns M4 D2 D4: r1 0, r2 2 (M4, D4), r3 0, bound 2/3; PRP M3 D3: 2, 1, 1, bound 2;
    # PRP$ M2 M5: 1, 1, 1, bound 2
    assert o.rows == (
        ("all", 7, (3, 4, 2), 6),
        ("NOUN", 3, (0, 2, 0), 2),
        ("PRP", 2, (2, 1, 1), 2),
        ("PRP$", 2, (1, 1, 1), 2),
    )
    assert o.recall("all") == pytest.approx({"r1": 3 / 7, "r2": 4 / 7, "r3": 2 / 7})
    assert o.upper_bound("all") == pytest.approx(6 / 7) and o.upper_bound("NOUN") == pytest.approx(2 / 3)
    # the recall of each response is its ARCS_nom recall
    for k in ("r1", "r2", "r3"):
        assert o.recall()[k] == pytest.approx(arcs(T11["key"], T11[k], criterion="nominal").recall)
    a = coref_oracle(T11["key"], {k: T11[k] for k in ("r1", "r2", "r3")}, criterion="any")
    # any: I2 (PRP) counts too: TP r1 M2 M3 D3 I2; r2 M4 M5 D3 D4; r3 M3 M5 D4 I2; all but D2 -> 7/8
    assert a.rows[0] == ("all", 8, (4, 4, 4), 7)
    assert a.row("PRP") == ("PRP", 3, (3, 1, 2), 3) and a.row("NOUN") == ("NOUN", 3, (0, 2, 1), 2)
    with pytest.raises(InputError):
        a.row("WP")


def test_coref_oracle_cli_every_style(capsys, tmp_path):
    argv = ["oracle", "--format", "conll2012", T11["key"], *(f"{k}={T11[k]}" for k in ("r1", "r2", "r3"))]
    rc, out = _run(argv, capsys)
    assert rc == 0 and "Overall" in out and "Nouns" in out and "PRP$" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("Overall"))
    assert line.split() == ["Overall", "7", "42.86", "57.14", "28.57", "85.71", "+28.57"]
    rc, out = _run([*argv, "--json"], capsys)
    js = json.loads(out)[0]["nominal"]
    assert js["rows"][1]["type"] == "NOUN" and js["rows"][1]["upper_bound"] == pytest.approx(2 / 3)
    rc, out = _run([*argv, "--csv"], capsys)  # tidy data: one row per (mention type, response)
    assert "NOUN,r2,3,2,0.6666666666666666,nominal," in out and "NOUN,upper bound,3,2," in out
    rc, out = _run([*argv, "--markdown"], capsys)
    assert "| Overall | 7 |" in out
    rc, out = _run([*argv, "--latex"], capsys)
    assert "\\begin{tabular}" in out and "PRP\\$" in out
    rc, out = _run([*argv, "--criterion", "both", "--json"], capsys)
    assert set(json.loads(out)[0]) == {"any", "nominal"}
    target = tmp_path / "t11.tex"
    rc, _ = _run([*argv, "--output", target], capsys)
    assert target.read_text().startswith("% ") or "\\begin{table}" in target.read_text()


# --------------------------------------------------------------------------- every output style


def test_new_outputs_in_every_style_and_file(tmp_path, capsys):
    g, s = DATA / "ud_gold.conllu", DATA / "ud_sys_raw.conllu"
    for ext in (".txt", ".json", ".csv", ".md", ".tex"):
        out = tmp_path / f"d{ext}"
        rc, _ = _run(["diff", g, s, g, "--sort", "delta", "--no-punct", "--output", out], capsys)
        assert rc == 0 and os.path.getsize(out) > 0
        text = out.read_text()
        if ext == ".json":
            js = json.loads(text)[0]
            assert js["labels"]["sort"] == "delta" and js["exact2"] == 2
        elif ext == ".csv":  # tidy data: the sentence counts as a row
            assert "sentences,," in text
        else:
            assert "correct sentences" in text
        out = tmp_path / f"o{ext}"
        rc, _ = _run(["oracle", g, s, g, "--output", out], capsys)
        text = out.read_text().replace("\\_", "_")  # LaTeX escapes the underscore
        assert "sys_raw" in text and ("oracle" in text.lower())  # ud_sys_raw, ud_gold: "ud_" dropped


# --------------------------------------------------------------------------- real data


@pytest.fixture(scope="session")
def ewt():
    if not (EWT / "gold" / "en_ewt.conllu.gz").exists():
        pytest.skip("shared en_ewt data absent")
    from sigfast.analysis.units import units_of
    from sigfast.formats import parse

    systems = sorted(EWT.glob("systems/*/en_ewt.conllu.gz"))
    p = parse("conllu", EWT / "gold" / "en_ewt.conllu.gz", systems)
    u, _ = units_of(p, "las")
    un, note = units_of(p, "las", no_punct=True)
    return p, u, un, note


def _gold_relations(path: Path) -> list[str]:
    """The universal relation of every gold word, read directly from the file."""
    import gzip

    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                out.append(cols[7].split(":")[0])
    return out


def test_ewt_fully_correct_sentences_match_conll18(ewt):
    p, u, _un, _note = ewt
    o = oracle_units(u)
    for k, name in enumerate(u.names):
        st = p.reports[k].stats["las"].values  # per sentence: correct, system words, gold words (conll18)
        assert o.exact[k] == int(np.sum(st[:, 0] == st[:, 2])), name
    k = u.names.index("HIT-SCIR-18")
    assert (o.exact[k], o.n_sentences, o.oracle_exact) == (896, 2077, 1519)
    # Tuggener's Tables 3 / 5 finding on real parsers: the ranking by accuracy and by fully correct
    # sentences differ: HIT-SCIR-18 has the higher LAS, Stanford-18 more fully correct sentences
    j = u.names.index("Stanford-18")
    assert o.accuracy[k] > o.accuracy[j] and o.exact[j] > o.exact[k]
    assert round(100 * o.exact_share[k], 2) == 43.14 and round(100 * o.exact_share[j], 2) == 45.02


def test_ewt_outputs_differ_far_more_than_las(ewt):
    _p, u, _un, _note = ewt
    pw = pairwise(u)
    n = len(u.names)
    differ = [pw.differ[i][j] for i in range(n) for j in range(i + 1, n)]
    delta = [abs(pw.delta[i][j]) for i in range(n) for j in range(i + 1, n)]
    # over the 300 pairs of the 25 parsers: the median pair labels 17.9% of the words differently while
    # their LAS differ by 3.9 points; for the three best, 9.6-13.8% of the words against 0.1-0.7 LAS points
    assert round(100 * float(np.median(differ)), 1) == 17.9 and round(100 * float(np.median(delta)), 1) == 3.9
    top = sorted(range(n), key=lambda k: -sum(u.correct(k)))[:3]
    for a in top:
        for b in top:
            if a < b:
                assert pw.differ[a][b] > 10 * abs(pw.delta[a][b])


def test_ewt_no_punct(ewt):
    _p, u, un, note = ewt
    rel = _gold_relations(EWT / "gold" / "en_ewt.conllu.gz")
    assert len(rel) == u.n_units == 25096
    assert un.n_units == sum(r != "punct" for r in rel) == 22028
    assert "3068 of 25096" in note
    o = oracle_units(un, note=note)
    k = un.names.index("HIT-SCIR-18")
    # without punctuation LAS rises from 84.52 to 85.70, the oracle from 94.93 to 95.05
    assert round(100 * o.accuracy[k], 2) == 85.70 and round(100 * o.oracle, 2) == 95.05
    assert o.best == "HIT-SCIR-18" and o.exact[k] == 917
    d = diff_units(un, "HIT-SCIR-18", "Stanford-18")
    assert d.labels.sorted("delta")[0][0] == "vocative"
