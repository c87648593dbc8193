"""conlleval parity for the "conlleval" and "ner" formats (sigfast.formats.chunk).

How the expected outputs in tests/data/chunk/*.expected were produced: the reference scorer is
``conlleval`` v2004-01-26 from ``deeppavlov/ner`` @ f107d6da6017b8a2ac56013e1f9985e376ef99da
(file ``conlleval``, md5 66f60a06f6c514346b1a11491c91d1b4), run with perl 5.36:

    perl conlleval.pl < X.txt > X.expected                    (iob1, iob2_vs_iob1, edge, iobes,
                                                               random_3col, random_2col)
    perl conlleval.pl -r -o OUT < raw.txt > raw.expected
    perl conlleval.pl -d '\\t' < tab.txt > tab.expected
    # iobes.txt with S- -> B- and E- -> I- on both tag columns:
    awk '{ if (NF==3) { for (i=2;i<=3;i++) { sub(/^S-/,"B-",$i); sub(/^E-/,"I-",$i) } } print }' \\
        iobes.txt | perl conlleval.pl > iobes_as_iob2.expected
    # ner_gold.txt (CoNLL-2003, 4 columns) + ner_system.txt (token TAB tag), pasted:
    paste -d' ' <(cut -d' ' -f1,4 ner_gold.txt) <(cut -f2 ner_system.txt) | sed 's/^ *$//' \\
        | perl conlleval.pl > ner.expected
    ... | grep -v DOCSTART | perl conlleval.pl > ner_nodocstart.expected
    # the LaTeX table (-l) of each: the same commands with -l, into X.latex.expected
    perl conlleval.pl -l < X.txt > X.latex.expected           (iob1, iob2_vs_iob1, edge, random_*)
    perl conlleval.pl -l -r -o OUT < raw.txt > raw.latex.expected
    perl conlleval.pl -l -d '\\t' < tab.txt > tab.latex.expected
    paste ... (as above) | perl conlleval.pl -l > ner.latex.expected
    printf 'a O O\\n' | perl conlleval.pl -l      (no chunk at all: NO_CHUNK_LATEX below)

random_*.txt were drawn from a seeded generator of odd tags (E-, S-, [, ], ., B-0, X, B-A-B, ...).
The CoNLL-2003 figures (92.22 / 93.03) are those of shared/data/ner/conll2003_en_testb/SOURCE.md,
and the full reports below are conlleval's output on the pasted "token gold system" files.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import sigfast.formats as formats
from sigfast.exceptions import FormatError
from sigfast.formats import chunk
from sigfast.metrics import get as get_metric

DATA = Path(__file__).resolve().parent / "data" / "chunk"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
CONLL03 = SHARED / "ner" / "conll2003_en_testb"


def _check_stats(r) -> None:
    """Summed per-sentence statistics through the metric give the corpus scores and the text."""
    for name, st in r.stats.items():
        n = st.values.shape[0]
        v = get_metric(st.metric, **st.metric_params).evaluate(st.values.sum(0, keepdims=True), n)[0]
        assert v == r.scores[name], name
    f = r.stats["f1"].values.sum(0)
    a = r.stats["accuracy"].values.sum(0)
    head = r.text.splitlines()[0]
    assert head == f"processed {a[1]} tokens with {f[2]} phrases; found: {f[1]} phrases; correct: {f[0]}."
    m = re.search(r"accuracy: +([\d.]+)%; precision: +([\d.]+)%; recall: +([\d.]+)%; FB1: +([\d.]+)", r.text)
    assert m is not None
    assert m.group(1) == f"{100 * r.scores['accuracy']:.2f}"
    assert m.group(2) == f"{100 * r.scores['precision']:.2f}"
    assert m.group(3) == f"{100 * r.scores['recall']:.2f}"
    assert m.group(4) == f"{100 * r.scores['f1']:.2f}"


CASES = [
    ("iob1", {}),
    ("iob2_vs_iob1", {}),
    ("edge", {}),
    ("random_3col", {}),
    ("random_2col", {}),
    ("raw", {"raw": True, "o_tag": "OUT"}),
    ("tab", {"delimiter": r"\t"}),
]


@pytest.mark.parametrize("name,opts", CASES)
def test_conlleval_fixtures_match_reference(name, opts):
    r = chunk.score_conlleval(None, DATA / f"{name}.txt", **opts)
    assert r.text == (DATA / f"{name}.expected").read_text(encoding="utf-8")
    assert r.default_metric == "f1"
    if r.stats["accuracy"].values.sum() > 0:
        _check_stats(r)


@pytest.mark.parametrize("name", ["iob1", "edge", "random_3col", "random_2col"])
def test_fast_and_exact_readers_agree(name):
    # "[ ]" is the same delimiter as " " but is not a single byte: the line-by-line reader is used
    a = chunk.score_conlleval(None, DATA / f"{name}.txt")
    b = chunk.score_conlleval(None, DATA / f"{name}.txt", delimiter="[ ]")
    assert a.text == b.text
    assert a.stats.keys() == b.stats.keys()
    for k in a.stats:
        assert np.array_equal(a.stats[k].values, b.stats[k].values)


def test_edge_details():
    r = chunk.score_conlleval(DATA / "edge.txt")  # the one file may also come as `gold`
    # "-DOCSTART- -X- O O" is a token of its own sentence; empty lines and -X- lines end sentences
    assert r.stats["accuracy"].values.tolist() == [[1, 1], [3, 6], [3, 5], [6, 8], [0, 2]]
    assert r.item_ids == ("line 1", "line 4", "line 11", "line 17", "line 27")
    # per empty-line paragraph, conlleval.pl gives (correct, found, phrases) = (0, 0, 0), (3, 8, 6),
    # (2, 5, 5), (0, 1, 1); the -X- line splits the second paragraph into two items
    assert r.stats["f1"].values.tolist() == [[0, 0, 0], [1, 5, 3], [2, 3, 3], [2, 5, 5], [0, 1, 1]]
    # the empty type appears twice in the table but once in the statistics
    assert "f1:" in r.stats and "f1:ÄÖ" in r.stats
    assert r.stats["f1:ORG"].values.sum(0).tolist() == [1, 3, 1]


def test_iob1_per_sentence():
    r = chunk.score_conlleval(None, DATA / "iob1.txt")
    # conlleval.pl on each sentence alone: "processed 13 tokens with 5 phrases; found: 7 phrases;
    # correct: 4." and "processed 5 tokens with 3 phrases; found: 2 phrases; correct: 1."
    assert r.stats["f1"].values.tolist() == [[4, 7, 5], [1, 2, 3]]
    assert r.stats["accuracy"].values.tolist() == [[12, 13], [4, 5]]


def test_iobes_scheme():
    r = chunk.score_conlleval(None, DATA / "iobes.txt", scheme="iobes")
    conv = (DATA / "iobes_as_iob2.expected").read_text().splitlines()
    orig = (DATA / "iobes.expected").read_text().splitlines()
    lines = r.text.splitlines()
    # chunks as conlleval finds them after S->B, E->I; token accuracy on the original tags
    assert lines[0] == conv[0] and lines[2:] == conv[2:]
    assert lines[1].split(";")[0] == orig[1].split(";")[0]
    assert lines[1].split(";")[1:] == conv[1].split(";")[1:]
    # conlleval itself (scheme "iob") reads S-PER S-PER as one chunk
    assert chunk.score_conlleval(None, DATA / "iobes.txt").text == "\n".join(orig) + "\n"


def test_ner_two_files_match_pasted_conlleval():
    r = chunk.score_ner(DATA / "ner_gold.txt", DATA / "ner_system.txt")
    assert r.text == (DATA / "ner.expected").read_text()
    _check_stats(r)
    assert len(r.item_ids) == 5
    r2 = chunk.score_ner(DATA / "ner_gold.txt", DATA / "ner_system.txt", docstart="skip")
    assert r2.text == (DATA / "ner_nodocstart.expected").read_text()
    assert len(r2.item_ids) == 4


def test_ner_docstart_hint(tmp_path):
    # a system file without the -DOCSTART- line: an error that says what to do, or docstart="skip"
    s = tmp_path / "nodoc.txt"
    s.write_text((DATA / "ner_system.txt").read_text().split("\n\n", 1)[1])
    with pytest.raises(FormatError, match="only one file has -DOCSTART- lines"):
        chunk.score_ner(DATA / "ner_gold.txt", s)
    r = chunk.score_ner(DATA / "ner_gold.txt", s, docstart="skip")
    assert r.text == (DATA / "ner_nodocstart.expected").read_text()


def test_conlleval_with_separate_gold_file(tmp_path):
    r = chunk.score_conlleval(DATA / "iob1.txt", DATA / "iob1.txt")
    assert r.text == (DATA / "iob1.expected").read_text()
    other = tmp_path / "other.txt"
    other.write_text((DATA / "iob1.txt").read_text().replace("the DT B-NP I-NP", "the DT I-NP I-NP"))
    with pytest.raises(FormatError, match="same tokens and gold tags"):
        chunk.score_conlleval(DATA / "iob1.txt", other)


def test_registered():
    assert {"conlleval", "ner"} <= set(formats.available())
    r = formats.score("conlleval", None, DATA / "iob1.txt")
    assert r.text == (DATA / "iob1.expected").read_text()


# ------------------------------------------------------------------------------- real data

EXPECTED_CONLL03 = {
    "elmo_lstm_crf": (
        "processed 46435 tokens with 5648 phrases; found: 5658 phrases; correct: 5213.\n"
        "accuracy:  98.25%; precision:  92.14%; recall:  92.30%; FB1:  92.22\n"
        "              LOC: precision:  93.78%; recall:  93.05%; FB1:  93.41  1655\n"
        "             MISC: precision:  81.34%; recall:  81.34%; FB1:  81.34  702\n"
        "              ORG: precision:  90.11%; recall:  91.57%; FB1:  90.83  1688\n"
        "              PER: precision:  97.27%; recall:  97.03%; FB1:  97.15  1613\n"
    ),
    "flair_lstm_crf": (
        "processed 46435 tokens with 5648 phrases; found: 5682 phrases; correct: 5270.\n"
        "accuracy:  98.42%; precision:  92.75%; recall:  93.31%; FB1:  93.03\n"
        "              LOC: precision:  93.66%; recall:  93.82%; FB1:  93.74  1671\n"
        "             MISC: precision:  83.99%; recall:  84.47%; FB1:  84.23  706\n"
        "              ORG: precision:  91.15%; recall:  92.41%; FB1:  91.78  1684\n"
        "              PER: precision:  97.29%; recall:  97.53%; FB1:  97.41  1621\n"
    ),
}


@pytest.mark.parametrize("system", sorted(EXPECTED_CONLL03))
def test_conll2003_real_taggers(system, tmp_path):
    if not CONLL03.is_dir():
        pytest.skip("shared/data is absent")
    gold, sysf = CONLL03 / "gold.conll", CONLL03 / f"{system}.conll"
    r = chunk.score_ner(gold, sysf)
    assert r.text == EXPECTED_CONLL03[system]
    _check_stats(r)
    assert len(r.item_ids) == 3453
    # the same through one pasted conlleval file (paste gold sys | cut, as for conlleval.pl)
    pasted = []
    for g, s in zip(gold.read_text().split("\n"), sysf.read_text().split("\n")):
        pasted.append("" if not g else f"{g.split(chr(9))[0]} {g.split(chr(9))[1]} {s.split(chr(9))[1]}")
    f = tmp_path / "pasted.txt"
    f.write_text("\n".join(pasted))
    r2 = chunk.score_conlleval(None, f)
    assert r2.text == r.text
    for k in r.stats:
        assert np.array_equal(r.stats[k].values, r2.stats[k].values)


# conlleval.pl on each WNUT-16 file as stored ("token gold pred", one space): perl conlleval.pl < X.txt
EXPECTED_WNUT16 = {
    "elmo_lstm_crf": (
        "processed 61908 tokens with 3473 phrases; found: 2669 phrases; correct: 1392.\n"
        "accuracy:  92.89%; precision:  52.15%; recall:  40.08%; FB1:  45.33\n"
        "          company: precision:  69.78%; recall:  31.24%; FB1:  43.16  278\n"
        "         facility: precision:  49.25%; recall:  38.74%; FB1:  43.36  199\n"
        "              loc: precision:  62.36%; recall:  67.80%; FB1:  64.96  959\n"
        "            movie: precision:  13.33%; recall:   5.88%; FB1:   8.16  15\n"
        "      musicartist: precision:  19.23%; recall:   2.62%; FB1:   4.61  26\n"
        "            other: precision:  34.96%; recall:  15.92%; FB1:  21.88  266\n"
        "           person: precision:  44.42%; recall:  71.78%; FB1:  54.88  779\n"
        "          product: precision:  37.25%; recall:   7.72%; FB1:  12.79  51\n"
        "       sportsteam: precision:  46.48%; recall:  22.45%; FB1:  30.28  71\n"
        "           tvshow: precision:  16.00%; recall:  12.12%; FB1:  13.79  25\n"
    ),
    "flair_lstm_crf": (
        "processed 61908 tokens with 3473 phrases; found: 3081 phrases; correct: 1506.\n"
        "accuracy:  92.90%; precision:  48.88%; recall:  43.36%; FB1:  45.96\n"
        "          company: precision:  65.80%; recall:  40.90%; FB1:  50.45  386\n"
        "         facility: precision:  40.07%; recall:  45.45%; FB1:  42.59  287\n"
        "              loc: precision:  68.14%; recall:  68.37%; FB1:  68.25  885\n"
        "            movie: precision:   6.67%; recall:   5.88%; FB1:   6.25  30\n"
        "      musicartist: precision:  16.67%; recall:   0.52%; FB1:   1.02  6\n"
        "            other: precision:  29.57%; recall:  16.61%; FB1:  21.27  328\n"
        "           person: precision:  45.82%; recall:  72.82%; FB1:  56.25  766\n"
        "          product: precision:  14.05%; recall:  10.57%; FB1:  12.06  185\n"
        "       sportsteam: precision:  30.73%; recall:  37.41%; FB1:  33.74  179\n"
        "           tvshow: precision:   6.90%; recall:   6.06%; FB1:   6.45  29\n"
    ),
}


@pytest.mark.parametrize("system", sorted(EXPECTED_WNUT16))
def test_wnut16_conlleval_files_sharing_gold(system):
    wnut = SHARED / "ner" / "wnut16_test"
    if not wnut.is_dir():
        pytest.skip("shared/data is absent")
    # SOURCE.md: FB1 45.33 (elmo) and 45.96 (flair); the elmo file serves as gold for both (its
    # token and gold columns must equal those of the system file)
    r = chunk.score_conlleval(wnut / "elmo_lstm_crf.txt", wnut / f"{system}.txt")
    assert r.text == EXPECTED_WNUT16[system]
    assert len(r.item_ids) == 3850
    _check_stats(r)


# ------------------------------------------------------------------------------- bad input


def _w(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


def test_bad_input(tmp_path):
    g = _w(tmp_path, "g.txt", "a\tB-PER\nb\tO\n\nc\tO\n")
    with pytest.raises(FormatError, match=r"g.txt, line 4: the gold file has 2 sentences and the system file 1"):
        chunk.score_ner(g, _w(tmp_path, "s1.txt", "a\tB-PER\nb\tO\n\n\n"))
    with pytest.raises(FormatError, match=r"s2.txt, line 2: token 'x' where the gold file \(line 2\) has 'b'"):
        chunk.score_ner(g, _w(tmp_path, "s2.txt", "a\tB-PER\nx\tO\n\nc\tO\n"))
    long_g = _w(tmp_path, "lg.txt", "internationalization\tO\nb\tO\n")
    with pytest.raises(FormatError, match=r"sl.txt, line 1: token 'internationalizatiom' where"):
        chunk.score_ner(long_g, _w(tmp_path, "sl.txt", "internationalizatiom\tO\nb\tO\n"))
    with pytest.raises(FormatError, match=r"s3.txt, line 1: sentence 1 .* has 2 tokens in the gold file but 3"):
        chunk.score_ner(g, _w(tmp_path, "s3.txt", "a\tB-PER\nb\tO\nc\tO\n"))
    with pytest.raises(FormatError, match=r"s4.txt, line 2: 1 fields where the first line has 2"):
        chunk.score_ner(g, _w(tmp_path, "s4.txt", "a\tB-PER\nb\n\nc\tO\n"))
    with pytest.raises(FormatError, match=r"s5.txt: the file is empty"):
        chunk.score_ner(g, _w(tmp_path, "s5.txt", "\n\n"))
    with pytest.raises(FormatError, match=r"s6.txt, line 4: byte 0xe9 at column 1 is not valid UTF-8"):
        chunk.score_ner(g, _w(tmp_path, "s6.txt", b"a\tB-PER\nb\tO\n\n\xe9\tO\n"))
    with pytest.raises(FormatError, match=r"s7.txt, line 1: carriage return"):
        chunk.score_ner(g, _w(tmp_path, "s7.txt", "a\tB-PER\r\nb\tO\r\n\r\nc\tO\r\n"))
    with pytest.raises(FormatError, match=r"c1.txt, line 2: 2 fields where the first line has 3"):
        chunk.score_conlleval(None, _w(tmp_path, "c1.txt", "a O O\nb O\n"))
    with pytest.raises(FormatError, match=r"c2.txt, line 1: 1 field\(s\) per line"):
        chunk.score_conlleval(None, _w(tmp_path, "c2.txt", "a\nb\n"))
    with pytest.raises(FormatError, match=r"c3.txt: the file holds no tokens"):
        chunk.score_conlleval(None, _w(tmp_path, "c3.txt", "-X- O O\n\n"))
    with pytest.raises(FormatError, match=r"missing.txt: cannot read the system file"):
        chunk.score_conlleval(None, tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="unknown tag scheme"):
        chunk.score_conlleval(None, DATA / "iob1.txt", scheme="iobx")


# ------------------------------------------------------------------------------- conlleval -l

NO_CHUNK_LATEX = (
    "        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\\hline\n"
    "Overall &    0.00\\% &   0.00\\% &   0.00 \\\\\\hline\n"
)


@pytest.mark.parametrize("name,opts", CASES)
def test_latex_table_matches_reference(name, opts):
    # conlleval -l, byte for byte: the empty type twice (edge), a type padded by bytes (ÄÖ)
    r = chunk.score_conlleval(None, DATA / f"{name}.txt", latex=True, **opts)
    assert r.text == (DATA / f"{name}.latex.expected").read_text(encoding="utf-8")
    plain = chunk.score_conlleval(None, DATA / f"{name}.txt", **opts)
    assert r.scores == plain.scores
    for k in r.stats:
        assert np.array_equal(r.stats[k].values, plain.stats[k].values)


def test_latex_table_ner_and_cli(tmp_path, capsys):
    from sigfast.cli import main

    expected = (DATA / "ner.latex.expected").read_text(encoding="utf-8")
    assert chunk.score_ner(DATA / "ner_gold.txt", DATA / "ner_system.txt", latex=True).text == expected
    assert formats.score("ner", DATA / "ner_gold.txt", DATA / "ner_system.txt", l="true").text == expected
    assert (
        main(["score", "-f", "ner", "-o", "latex=true", str(DATA / "ner_gold.txt"), str(DATA / "ner_system.txt")]) == 0
    )
    assert capsys.readouterr().out == expected
    f = tmp_path / "none.txt"
    f.write_text("a O O\n")
    assert chunk.score_conlleval(None, f, latex=True).text == NO_CHUNK_LATEX
    assert formats.spec("conlleval").option("latex").type is bool
