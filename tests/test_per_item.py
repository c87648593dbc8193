"""``sigfast score --per-item`` and ``ItemStats.item_scores()``: each item scored alone, as the
reference scorer scores one sentence or document, against the reference's own sentence-level
results.

* sacrebleu 2.6.0 (PyPI, run in the test): ``BLEU(effective_order=True).sentence_score`` and
  ``sacrebleu.sentence_bleu``, ``CHRF().sentence_score``, ``CHRF(word_order=2)``,
  ``TER().sentence_score``, compared at full precision;
* rouge-score 0.1.2 (PyPI, run in the test): ``RougeScorer(types, use_stemmer).score`` /
  ``score_multi`` per document, full precision;
* eval.pl v1.9 (see tests/test_format_dependency.py for the script's origin and md5): the
  per-sentence table of ``perl eval.pl -q -b`` (correct HEAD, HEAD+DEPREL, scoring tokens);
* conll18_ud_eval.py v1.2 (ufal/conll2018 @ f2bc4dd16326d149d68bb53b427d3266fbe6a00a, md5
  6cbfb34f71fa0d1e495d1619ea0dafc9): ``evaluate()`` on each sentence pair alone (counts
  recorded below; its F1 is ``2 * correct / (system + gold)``);
* conlleval 2004-01-26 (deeppavlov/ner @ f107d6da6017b8a2ac56013e1f9985e376ef99da, md5
  66f60a06f6c514346b1a11491c91d1b4): ``perl conlleval`` on each sentence alone (the "processed
  N tokens with G phrases; found: S phrases; correct: C." line);
* EVALB (see tests/test_format_trees.py): the per-sentence rows of its report;
* wa_eval_align.pl (robertostling/eflomal @ 1fe2a43e3667fb2461736ddb48783ab0cf98a171, md5
  05adab84f09717675f155bbb19aa08f9): ``perl wa_eval_align.pl`` on each sentence's lines of
  gold and system alone (sure P, R, F, probable P and AER, 4 decimals).

Where the recorded reference output is long (real data), the test holds the sha256 of the
lines the recording printed, in the format the test rebuilds from sigfast's per-item output.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from _dependency_fixtures import en_ewt25, en_ewt_available
from sigfast.cli import main
from sigfast.formats import chunk, score

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SHARED = HERE.parents[1] / "shared" / "data"
WMT = SHARED / "machine_translation" / "wmt21_newstest2021_de_en"

sacrebleu = pytest.importorskip("sacrebleu")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
from sacrebleu.metrics import BLEU, CHRF, TER  # noqa: E402


def per_item_json(capsys, *args: str) -> list[dict]:
    assert main(["score", "--per-item", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return [ln.rstrip() for ln in f]


# --- sacrebleu ---------------------------------------------------------------------------


def _check_mt(capsys, refs: list[Path], hyp: Path, **tok) -> None:
    opts = [x for k, v in tok.items() for x in ("-o", f"{k}={v}")]
    out = per_item_json(capsys, "-f", "mt", "-m", "bleu", "-m", "chrf", "-m", "chrf++", "-m", "ter", *opts,
                        *[x for r in refs for x in ("--ref", str(r))], str(hyp))  # fmt: skip
    items = out[0]["items"]
    h, r = lines(hyp), [lines(p) for p in refs]
    assert len(items) == len(h)
    bleu = BLEU(effective_order=True, **tok)
    chrf, chrfpp, ter = CHRF(), CHRF(word_order=2), TER()
    for i, seg in enumerate(h):
        rs = [x[i] for x in r]
        sc = items[i]["scores"]
        b = bleu.sentence_score(seg, rs)
        assert sc["bleu"] == b.score, i
        if not tok:
            assert sc["bleu"] == sacrebleu.sentence_bleu(seg, rs).score
        st = items[i]["stats"]["bleu"]
        assert [st["hyp_len"], st["ref_len"]] == [b.sys_len, b.ref_len]
        assert [st[f"correct_{n}"] for n in range(1, 5)] == b.counts
        assert sc["chrf"] == chrf.sentence_score(seg, rs).score, i
        assert sc["chrf++"] == chrfpp.sentence_score(seg, rs).score, i
        t = ter.sentence_score(seg, rs)
        assert sc["ter"] == t.score and items[i]["stats"]["ter"] == {"edits": t.num_edits, "ref_len": t.ref_length}
    assert out[0]["metrics"]["bleu"]["params"]["effective_order"] is True


@pytest.mark.parametrize("refs", [["edge.ref1"], ["edge.ref1", "edge.ref2"]], ids=["1ref", "2refs"])
def test_mt_sentence_scores_edge_cases(capsys, refs):
    # empty hypothesis and reference, fewer than 4 tokens (effective order), CJK, entities
    _check_mt(capsys, [DATA / "mt" / r for r in refs], DATA / "mt" / "edge.hyp")


def test_mt_sentence_scores_tokenizer(capsys):
    _check_mt(capsys, [DATA / "mt" / "edge.ref1"], DATA / "mt" / "edge.hyp", tokenize="intl", lowercase="True")


def test_mt_sentence_scores_wmt21(capsys, shared_data, tmp_path):
    d = shared_data / "machine_translation" / "wmt21_newstest2021_de_en"
    refs = []
    for k in ("A", "B"):  # the first 150 segments (sacrebleu's TER is slow)
        p = tmp_path / f"ref.{k}"
        p.write_text("\n".join(lines(d / f"newstest2021.de-en.ref.{k}.en")[:150]) + "\n", encoding="utf-8")
        refs.append(p)
    hyp = tmp_path / "online-w.txt"
    hyp.write_text("\n".join(lines(d / "system-outputs" / "newstest2021.de-en.hyp.Online-W.en")[:150]) + "\n")
    _check_mt(capsys, refs, hyp)


def test_item_scores_python_api():
    rep = score("mt", str(DATA / "mt" / "edge.ref1"), str(DATA / "mt" / "edge.hyp"), metric="bleu")
    st = rep.stats["bleu"]
    assert st.item_metric_params == {"smooth": "exp", "effective_order": True}
    assert st.item_metric().params["effective_order"] is True
    got = st.item_scores()
    h, r = lines(DATA / "mt" / "edge.hyp"), lines(DATA / "mt" / "edge.ref1")
    assert got.tolist() == [sacrebleu.sentence_bleu(a, [b]).score for a, b in zip(h, r)]
    # the corpus metric keeps its own parameters
    assert st.metric_params == {"smooth": "exp"}


# --- rouge-score --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "refs, stem",
    [(["edge.ref"], False), (["edge.ref", "edge.ref2"], True)],
    ids=["1ref", "2refs-stemmed"],
)
def test_rouge_per_document(capsys, refs, stem):
    s = DATA / "summarization"
    args = ["-f", "rouge", "-o", "rouge_types=rouge1,rouge2,rougeL", "-o", f"use_stemmer={stem}"]
    args += [x for r in refs for x in ("--ref", str(s / r))] + [str(s / "edge.sys")]
    out = per_item_json(capsys, *args, "-m", "rouge1", "-m", "rouge2_precision", "-m", "rougeL_recall")
    _check_rouge(out[0]["items"], [s / r for r in refs], s / "edge.sys", stem)


def _check_rouge(items, refs, hyp, stem):
    def split(p):
        t = p.read_bytes().decode("utf-8")
        out = t.split("\n")
        return out[:-1] if t.endswith("\n") else out

    sc = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=stem)
    preds, targets = split(hyp), [split(p) for p in refs]
    assert len(items) == len(preds)
    for i, p in enumerate(preds):
        ts = [t[i] for t in targets]
        e = sc.score(ts[0], p) if len(ts) == 1 else sc.score_multi(ts, p)
        got = items[i]["scores"]
        assert got == {
            "rouge1": e["rouge1"].fmeasure,
            "rouge2_precision": e["rouge2"].precision,
            "rougeL_recall": e["rougeL"].recall,
        }, i


def test_rouge_per_document_real(capsys, shared_data):
    d = shared_data / "summarization" / "compare_mt_headline_sum"
    out = per_item_json(
        capsys, "-f", "rouge", "-o", "use_stemmer=true", "-m", "rouge1", "-m", "rouge2_precision",
        "-m", "rougeL_recall", str(d / "sum.ref.eng"), str(d / "sum.sys1.eng"),
    )  # fmt: skip
    _check_rouge(out[0]["items"], [d / "sum.ref.eng"], d / "sum.sys1.eng", True)


# --- eval.pl ------------------------------------------------------------------------------


def _b_rows(text: str) -> list[tuple[int, int, int]]:
    """(HEAD right, HEAD+DEPREL right, scoring tokens) per sentence of eval.pl's -b table."""
    rows = []
    for ln in text.splitlines():
        f = ln.split()
        if len(f) == 12 and f[0].isdigit() and f[-4:] == ["0", "0", "0", "0"]:
            rows.append((int(f[5]), int(f[6]), int(f[7])))
    return rows


def test_conllx_per_sentence_las_uas(capsys):
    from test_divergences import EVAL
    from test_format_dependency import EXPECTED_EVAL

    dep = DATA / "dependency"
    cases = [
        (dep / "basic.sys.conllx", EXPECTED_EVAL[("basic.gold.conllx", "basic.sys.conllx", "-b")]),
        (dep / "lenient.sys.conllx", EVAL[("conllx", "-b")]),
    ]
    for sys_path, b_table in cases:
        out = per_item_json(
            capsys, "-f", "conllx", "-m", "uas", "-m", "las", str(dep / "basic.gold.conllx"), str(sys_path)
        )
        items = out[0]["items"]
        ref = _b_rows(b_table)
        assert len(items) == len(ref)
        for it, (uas, las, tot) in zip(items, ref):
            assert it["stats"]["uas"] == {"correct": uas, "total": tot}
            assert it["stats"]["las"] == {"correct": las, "total": tot}
            # eval.pl prints NaN for a sentence without scoring tokens; the accuracy metric gives 0 there
            assert it["scores"]["uas"] == (uas / tot if tot else 0.0)
            assert it["scores"]["las"] == (las / tot if tot else 0.0)
        assert any(t == 0 for *_, t in ref)


# --- conll18_ud_eval.py -------------------------------------------------------------------


def test_conllu_per_sentence_mwt(capsys):
    # evaluate() on each sentence pair of mwt-gold/mwt-sys alone: LAS (correct, system, gold)
    expected = [(5, 6, 6), (5, 6, 7), (0, 4, 3)]
    cu = DATA / "conllu"
    out = per_item_json(capsys, "-f", "conllu", "-m", "las", str(cu / "mwt-gold.conllu"), str(cu / "mwt-sys.conllu"))
    items = out[0]["items"]
    assert [it["id"] for it in items] == ["mwt-1", "mwt-2", "mwt-3"]
    for it, (c, s, g) in zip(items, expected):
        assert it["stats"]["las"] == {"correct": c, "system": s, "gold": g}
        # conll18_ud_eval's 2c/(s+g); sigfast's F1 is 2PR/(P+R), equal up to the last bit
        assert it["scores"]["las"] == pytest.approx(2 * c / (s + g), rel=1e-15, abs=0)


# python3: for each sentence pair of the en_ewt25 files (tests/_dependency_fixtures.py) read as
# CoNLL-U, conll18_ud_eval.evaluate(load_conllu(gold_i), load_conllu(sys_i)), printing
# f"{UAS.correct} {UAS.system_total} {UAS.gold_total} {LAS.correct} {LAS.system_total} {LAS.gold_total}\n"
EWT25_UD_SHA256 = "70741dcf9bc946edb1d46b3e61faa3d9728315d39e9242956dbfd8c0f88ca9ad"


def test_conllu_per_sentence_real(capsys, tmp_path):
    if not en_ewt_available():
        pytest.skip("shared/data (conll2018_en_ewt) is not beside the checkout")
    g, s = en_ewt25(tmp_path)
    out = per_item_json(capsys, "-f", "conllu", "-m", "uas", "-m", "las", str(g), str(s))
    rows = []
    for it in out[0]["items"]:
        u, l_ = it["stats"]["uas"], it["stats"]["las"]
        rows.append(f"{u['correct']} {u['system']} {u['gold']} {l_['correct']} {l_['system']} {l_['gold']}\n")
        assert it["scores"]["las"] == pytest.approx(2 * l_["correct"] / (l_["system"] + l_["gold"]), rel=1e-15)
    assert len(rows) == 25
    assert hashlib.sha256("".join(rows).encode()).hexdigest() == EWT25_UD_SHA256


# --- conlleval ----------------------------------------------------------------------------


def test_conlleval_per_sentence_counts(capsys):
    # conlleval on each sentence of the pasted ner fixture alone: (correct, found, phrases, tokens)
    expected = [(0, 0, 0, 1), (2, 3, 3, 9), (0, 2, 1, 2), (1, 1, 1, 2), (2, 6, 3, 30)]
    c = DATA / "chunk"
    out = per_item_json(
        capsys, "-f", "ner", "-m", "f1", "-m", "accuracy", str(c / "ner_gold.txt"), str(c / "ner_system.txt")
    )
    for it, (cor, found, gold, tokens) in zip(out[0]["items"], expected, strict=True):
        assert it["stats"]["f1"] == {"tp": cor, "guessed": found, "gold": gold}
        assert it["stats"]["accuracy"]["total"] == tokens
        p, r = (cor / found if found else 0.0), (cor / gold if gold else 0.0)
        assert it["scores"]["f1"] == pytest.approx(2 * p * r / (p + r) if p + r else 0.0, rel=1e-15, abs=0)


# perl conlleval on each sentence of the CoNLL-2003 test set alone (gold and system pasted as
# "token gold system", -DOCSTART- lines kept), printing f"{correct} {found} {phrases} {tokens}\n"
CONLL03_SHA256 = {
    "elmo_lstm_crf": "cd5aae4c72c1b42c7ebbdc39fb0a65ad487cbfd7ae4e0d3117937178244187e2",
    "flair_lstm_crf": "1a3a0381ffe5d78eb7b1af98cdfd97f0cb46466ac77f0fc814a81f15add325fd",
}


@pytest.mark.parametrize("system", sorted(CONLL03_SHA256))
def test_conlleval_per_sentence_real(system, shared_data):
    d = shared_data / "ner" / "conll2003_en_testb"
    r = chunk.score_ner(d / "gold.conll", d / f"{system}.conll")
    f1, acc = r.stats["f1"].values.astype(int), r.stats["accuracy"].values.astype(int)
    rows = "".join(f"{a} {b} {c} {t}\n" for (a, b, c), (_, t) in zip(f1.tolist(), acc.tolist()))
    assert hashlib.sha256(rows.encode()).hexdigest() == CONLL03_SHA256[system]


# --- EVALB --------------------------------------------------------------------------------


def _evalb_rows(text: str) -> list[tuple[int, int, int, int]]:
    """(status, matched, gold, test) of each sentence row of an EVALB report."""
    out = []
    for ln in text.splitlines():
        f = ln.split()
        if len(f) == 12 and f[0].isdigit():
            out.append((int(f[2]), int(f[5]), int(f[6]), int(f[7])))
        if ln.startswith("=== Summary"):
            break
    return out


def _check_evalb(items, rows):
    assert len(items) == len(rows)
    for it, (status, matched, gold, test) in zip(items, rows):
        if status == 0:
            assert it["stats"]["f1"] == {"matched": matched, "test_brackets": test, "gold_brackets": gold}
        else:  # error and skip sentences count in no total
            assert set(it["stats"]["f1"].values()) == {0}


def test_evalb_per_sentence(capsys):
    t = DATA / "trees"
    out = per_item_json(capsys, "-f", "evalb", "-m", "f1", str(t / "gold.mrg"), str(t / "test.mrg"))
    _check_evalb(out[0]["items"], _evalb_rows((t / "expected" / "collins.rsl").read_text()))


def test_evalb_per_sentence_real(capsys, shared_data):
    # the report is EVALB's stdout byte for byte (md5 in tests/test_format_trees.py GUM_EVALB), so
    # its sentence rows are EVALB's
    from test_format_trees import GUM_EVALB

    gum = shared_data / "constituency_parsing" / "gum_benepar_stanza"
    gold, sys_ = gum / "gold_gum_news.mrg", gum / "stanza_gum_news.mrg"
    r = score("evalb", gold, sys_, max_error=10000)
    assert hashlib.md5(r.text.encode()).hexdigest() == GUM_EVALB[("news", "stanza")][0]
    out = per_item_json(capsys, "-f", "evalb", "-o", "max_error=10000", str(gold), str(sys_))
    _check_evalb(out[0]["items"], _evalb_rows(r.text))


# --- wa_eval_align.pl ---------------------------------------------------------------------


def _wa_rows(out) -> list[str]:
    rows = []
    for it in out["items"]:
        tp, guessed, gold = (it["stats"]["f1"][k] for k in ("tp", "guessed", "gold"))
        sp, sr = (tp / guessed if guessed else 0.0), (tp / gold if gold else 0.0)
        sc = it["scores"]
        rows.append(
            f"{int(it['id']):04d} {sp:5.4f} {sr:5.4f} {sc['f1']:5.4f} {sc['precision']:5.4f} {sc['aer']:5.4f}\n"
        )
    return rows


def test_aer_per_sentence(capsys, tmp_path):
    # wa_eval_align.pl per sentence (the system's sentence numbers zero-padded as in gold):
    # sure P, R, F, probable P, AER; sentence 0002 has a link labelled both S and P in the system,
    # counted twice by the script (AER below 0)
    expected = [
        "0001 0.5000 0.6667 0.5714 0.7500 0.2857\n",
        "0002 0.6667 1.0000 0.8000 1.0000 -0.1667\n",
        "0003 1.0000 1.0000 1.0000 0.6667 0.2000\n",
        "0004 0.0000 0.0000 0.0000 1.0000 0.5000\n",
    ]
    a = DATA / "alignment"
    padded = tmp_path / "padded.naacl"
    padded.write_text(
        "".join(f"{int(x.split()[0]):04d} {' '.join(x.split()[1:])}\n" for x in lines(a / "system.naacl"))
    )
    out = per_item_json(
        capsys, "-f", "alignment", "-m", "f1", "-m", "precision", "-m", "aer", str(a / "gold.naacl"), str(padded)
    )
    assert _wa_rows(out[0])[:4] == expected
    # sentence 5 is the system's only: no gold link, AER 1 (wa_eval_align.pl scores gold sentences)
    assert out[0]["items"][4]["scores"]["aer"] == 1.0


# perl wa_eval_align.pl on each Hansards gold sentence's lines and ibm1.mle's (sentence numbers
# zero-padded), printing f"{id} {sure P} {sure R} {sure F} {probable P} {AER}\n" as it prints them
HANSARDS_IBM1_WA_SHA256 = "1087daa0395df4b21f238ba20cb62d1bee0018a561321e6f35326339857248e3"


def test_aer_per_sentence_real(capsys, shared_data):
    wa = shared_data / "word_alignment" / "hansards_enfr_wpt2003"
    out = per_item_json(
        capsys, "-f", "alignment", "-m", "f1", "-m", "precision", "-m", "aer",
        str(wa / "gold" / "test.wa.nonullalign"), str(wa / "systems" / "uva_nlp2_ibm" / "ibm1.mle.naacl"),
    )  # fmt: skip
    rows = _wa_rows(out[0])
    assert len(rows) == 447
    assert hashlib.sha256("".join(rows).encode()).hexdigest() == HANSARDS_IBM1_WA_SHA256


# --- output styles ------------------------------------------------------------------------


def test_output_styles(capsys, tmp_path):
    mt = DATA / "mt"
    base = ["score", "--per-item", "-f", "mt", "-m", "ter", str(mt / "edge.ref1"), str(mt / "edge.hyp")]
    assert main(base) == 0
    text = capsys.readouterr().out
    head = text.splitlines()[1].split()
    assert head == ["item", "ter", "edits", "ref_len"] and "metric ter on each item's statistics alone" in text
    assert main([*base, "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    ter = TER()
    h, r = lines(mt / "edge.hyp"), lines(mt / "edge.ref1")
    assert rows[0] == ["item", "ter", "edits", "ref_len"] and len(rows) == len(h) + 1
    for row, a, b in zip(rows[1:], h, r):
        assert float(row[1]) == ter.sentence_score(a, [b]).score  # full precision in CSV
    for style, mark in (("--markdown", "| item |"), ("--latex", r"\begin{tabular}")):
        assert main([*base, style]) == 0
        assert mark in capsys.readouterr().out
    # several systems: a system column; --output picks the style from the extension
    dest = tmp_path / "items.json"
    assert main([*base, f"again={mt / 'edge.ref2'}", "--output", str(dest)]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[1].split()[:2] == ["system", "item"]
    data = json.loads(dest.read_text())
    assert [d["name"] for d in data] == ["edge", "again"] and len(data[1]["items"]) == len(h)
    # errors: an unknown per-item metric
    assert main(["score", "--per-item", "-f", "mt", "-m", "meteor", str(mt / "edge.ref1"), str(mt / "edge.hyp")]) == 1
    assert "no per-item metric 'meteor'" in capsys.readouterr().err
    # -m without --per-item picks the report's metrics: sacrebleu's report of TER alone
    assert main(["score", "-f", "mt", "-m", "ter", str(mt / "edge.ref1"), str(mt / "edge.hyp")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("TER|") and "BLEU" not in out


def test_per_item_default_metric_and_ids(capsys):
    dep = DATA / "dependency"
    out = per_item_json(capsys, "-f", "conll09", str(dep / "basic.gold.conll09"), str(dep / "basic.sys.conll09"))
    item = out[0]["items"][0]
    assert list(item["scores"]) == ["labeled_macro_f1"] and item["id"] == "line 1"
    assert out[0]["metrics"]["labeled_macro_f1"]["params"] == {"weight": 0.5}
    st = score("conll09", dep / "basic.gold.conll09", dep / "basic.sys.conll09").stats["labeled_macro_f1"]
    assert np.array_equal(st.item_scores(), [d["scores"]["labeled_macro_f1"] for d in out[0]["items"]])
    assert re.fullmatch(r"line \d+", out[0]["items"][-1]["id"])


def test_per_item_values_are_the_reference_floats(capsys, tmp_path):
    """Per-item BLEU of a perfect match: sacrebleu's own float (100.00000000000004) in CSV and JSON,
    as the README says; the text table rounds it."""
    from sigfast.cli import main

    seg = "the cat sat on the mat today"
    want = sacrebleu.sentence_bleu(seg, [seg]).score
    (tmp_path / "r.txt").write_text(seg + "\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text(seg + "\n", encoding="utf-8")
    args = ["score", "-f", "mt", "-m", "bleu", "--per-item", str(tmp_path / "r.txt"), str(tmp_path / "h.txt")]
    assert main([*args, "--csv"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split(",")
    assert row[1] == repr(want) and float(row[1]) == want  # 100.00000000000004, bit for bit
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["items"][0]["scores"]["bleu"] == want
    assert main(args) == 0
    assert re.search(r"^1\s+100\s", capsys.readouterr().out, re.M)
