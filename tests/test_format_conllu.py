"""CoNLL-U scoring (format "conllu") against conll18_ud_eval.py v1.2.

How the expected numbers were produced
--------------------------------------
Reference scorer: ``evaluation_script/conll18_ud_eval.py`` of ufal/conll2018 at commit
f2bc4dd16326d149d68bb53b427d3266fbe6a00a (v1.2, md5 6cbfb34f71fa0d1e495d1619ea0dafc9), run with
Python 3.11:

    python3 conll18_ud_eval.py -v tests/data/conllu/<case>-gold.conllu tests/data/conllu/<case>-sys.conllu
    python3 conll18_ud_eval.py -c tests/data/conllu/<case>-gold.conllu tests/data/conllu/<case>-sys.conllu

for the synthetic fixtures (VERBOSE holds the -v stdout verbatim, COUNTS the -c numbers as
(correct, gold, system, aligned)), and for the real data

    python3 conll18_ud_eval.py -v gold.conllu systems/<TEAM>.conllu

on the gunzipped files of shared/data/dependency_parsing/conll2018_en_ewt (REAL_ROWS: rows of the
-v table). The per-sentence numbers of the "mwt" case come from the scorer's ``evaluate()`` run on
each sentence pair separately (same segmentation, so each sentence is its own document).

Fixtures (tests/data/conllu/): mwt = multiword tokens split differently or not at all (LCS
alignment, case-insensitive forms, FEATS reduced to universal features, DEPREL subtypes);
empty = empty nodes on both sides; tok = tokenization mismatch incl. a FORM with a no-break space;
split = sentence segmentation mismatch; func = content vs functional relations and punctuation
for CLAS/MLAS/BLEX, gold lemma "_".
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.exceptions import FormatError
from sigfast.formats import available, score
from sigfast.formats.conllu import METRICS, counts

DATA = Path(__file__).resolve().parent / "data" / "conllu"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"
CASES = ("mwt", "empty", "tok", "split", "func")

VERBOSE = {
    "mwt": (
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc\n"
        "-----------+-----------+-----------+-----------+-----------\n"
        "Tokens     |    100.00 |    100.00 |    100.00 |\n"
        "Sentences  |    100.00 |    100.00 |    100.00 |\n"
        "Words      |     75.00 |     75.00 |     75.00 |\n"
        "UPOS       |     75.00 |     75.00 |     75.00 |    100.00\n"
        "XPOS       |     75.00 |     75.00 |     75.00 |    100.00\n"
        "UFeats     |     75.00 |     75.00 |     75.00 |    100.00\n"
        "AllTags    |     75.00 |     75.00 |     75.00 |    100.00\n"
        "Lemmas     |     68.75 |     68.75 |     68.75 |     91.67\n"
        "UAS        |     62.50 |     62.50 |     62.50 |     83.33\n"
        "LAS        |     62.50 |     62.50 |     62.50 |     83.33\n"
        "CLAS       |     66.67 |     75.00 |     70.59 |     85.71\n"
        "MLAS       |     44.44 |     50.00 |     47.06 |     57.14\n"
        "BLEX       |     55.56 |     62.50 |     58.82 |     71.43\n"
    ),
    "empty": (
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc\n"
        "-----------+-----------+-----------+-----------+-----------\n"
        "Tokens     |    100.00 |    100.00 |    100.00 |\n"
        "Sentences  |    100.00 |    100.00 |    100.00 |\n"
        "Words      |    100.00 |    100.00 |    100.00 |\n"
        "UPOS       |    100.00 |    100.00 |    100.00 |    100.00\n"
        "XPOS       |    100.00 |    100.00 |    100.00 |    100.00\n"
        "UFeats     |    100.00 |    100.00 |    100.00 |    100.00\n"
        "AllTags    |    100.00 |    100.00 |    100.00 |    100.00\n"
        "Lemmas     |    100.00 |    100.00 |    100.00 |    100.00\n"
        "UAS        |     57.14 |     57.14 |     57.14 |     57.14\n"
        "LAS        |     57.14 |     57.14 |     57.14 |     57.14\n"
        "CLAS       |     60.00 |     60.00 |     60.00 |     60.00\n"
        "MLAS       |     60.00 |     60.00 |     60.00 |     60.00\n"
        "BLEX       |     60.00 |     60.00 |     60.00 |     60.00\n"
    ),
    "tok": (
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc\n"
        "-----------+-----------+-----------+-----------+-----------\n"
        "Tokens     |     50.00 |     60.00 |     54.55 |\n"
        "Sentences  |    100.00 |    100.00 |    100.00 |\n"
        "Words      |     50.00 |     60.00 |     54.55 |\n"
        "UPOS       |     50.00 |     60.00 |     54.55 |    100.00\n"
        "XPOS       |     50.00 |     60.00 |     54.55 |    100.00\n"
        "UFeats     |     50.00 |     60.00 |     54.55 |    100.00\n"
        "AllTags    |     50.00 |     60.00 |     54.55 |    100.00\n"
        "Lemmas     |     50.00 |     60.00 |     54.55 |    100.00\n"
        "UAS        |     41.67 |     50.00 |     45.45 |     83.33\n"
        "LAS        |     41.67 |     50.00 |     45.45 |     83.33\n"
        "CLAS       |     37.50 |     42.86 |     40.00 |     75.00\n"
        "MLAS       |     25.00 |     28.57 |     26.67 |     50.00\n"
        "BLEX       |     37.50 |     42.86 |     40.00 |     75.00\n"
    ),
    "split": (
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc\n"
        "-----------+-----------+-----------+-----------+-----------\n"
        "Tokens     |     90.00 |     81.82 |     85.71 |\n"
        "Sentences  |      0.00 |      0.00 |      0.00 |\n"
        "Words      |     90.00 |     81.82 |     85.71 |\n"
        "UPOS       |     80.00 |     72.73 |     76.19 |     88.89\n"
        "XPOS       |     80.00 |     72.73 |     76.19 |     88.89\n"
        "UFeats     |     80.00 |     72.73 |     76.19 |     88.89\n"
        "AllTags    |     80.00 |     72.73 |     76.19 |     88.89\n"
        "Lemmas     |     90.00 |     81.82 |     85.71 |    100.00\n"
        "UAS        |     70.00 |     63.64 |     66.67 |     77.78\n"
        "LAS        |     60.00 |     54.55 |     57.14 |     66.67\n"
        "CLAS       |     57.14 |     57.14 |     57.14 |     66.67\n"
        "MLAS       |     57.14 |     57.14 |     57.14 |     66.67\n"
        "BLEX       |     57.14 |     57.14 |     57.14 |     66.67\n"
    ),
    "func": (
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc\n"
        "-----------+-----------+-----------+-----------+-----------\n"
        "Tokens     |    100.00 |    100.00 |    100.00 |\n"
        "Sentences  |    100.00 |    100.00 |    100.00 |\n"
        "Words      |    100.00 |    100.00 |    100.00 |\n"
        "UPOS       |     85.71 |     85.71 |     85.71 |     85.71\n"
        "XPOS       |     92.86 |     92.86 |     92.86 |     92.86\n"
        "UFeats     |     92.86 |     92.86 |     92.86 |     92.86\n"
        "AllTags    |     85.71 |     85.71 |     85.71 |     85.71\n"
        "Lemmas     |     92.86 |     92.86 |     92.86 |     92.86\n"
        "UAS        |     85.71 |     85.71 |     85.71 |     85.71\n"
        "LAS        |     71.43 |     71.43 |     71.43 |     71.43\n"
        "CLAS       |    100.00 |     85.71 |     92.31 |     85.71\n"
        "MLAS       |     66.67 |     57.14 |     61.54 |     57.14\n"
        "BLEX       |     83.33 |     71.43 |     76.92 |     71.43\n"
    ),
}

COUNTS = {
    "mwt": {
        "Tokens": (14, 14, 14, None),
        "Sentences": (3, 3, 3, None),
        "Words": (12, 16, 16, None),
        "UPOS": (12, 16, 16, 12),
        "XPOS": (12, 16, 16, 12),
        "UFeats": (12, 16, 16, 12),
        "AllTags": (12, 16, 16, 12),
        "Lemmas": (11, 16, 16, 12),
        "UAS": (10, 16, 16, 12),
        "LAS": (10, 16, 16, 12),
        "CLAS": (6, 8, 9, 7),
        "MLAS": (4, 8, 9, 7),
        "BLEX": (5, 8, 9, 7),
    },
    "empty": {
        "Tokens": (7, 7, 7, None),
        "Sentences": (1, 1, 1, None),
        "Words": (7, 7, 7, None),
        "UPOS": (7, 7, 7, 7),
        "XPOS": (7, 7, 7, 7),
        "UFeats": (7, 7, 7, 7),
        "AllTags": (7, 7, 7, 7),
        "Lemmas": (7, 7, 7, 7),
        "UAS": (4, 7, 7, 7),
        "LAS": (4, 7, 7, 7),
        "CLAS": (3, 5, 5, 5),
        "MLAS": (3, 5, 5, 5),
        "BLEX": (3, 5, 5, 5),
    },
    "tok": {
        "Tokens": (6, 10, 12, None),
        "Sentences": (1, 1, 1, None),
        "Words": (6, 10, 12, None),
        "UPOS": (6, 10, 12, 6),
        "XPOS": (6, 10, 12, 6),
        "UFeats": (6, 10, 12, 6),
        "AllTags": (6, 10, 12, 6),
        "Lemmas": (6, 10, 12, 6),
        "UAS": (5, 10, 12, 6),
        "LAS": (5, 10, 12, 6),
        "CLAS": (3, 7, 8, 4),
        "MLAS": (2, 7, 8, 4),
        "BLEX": (3, 7, 8, 4),
    },
    "split": {
        "Tokens": (9, 11, 10, None),
        "Sentences": (0, 3, 3, None),
        "Words": (9, 11, 10, None),
        "UPOS": (8, 11, 10, 9),
        "XPOS": (8, 11, 10, 9),
        "UFeats": (8, 11, 10, 9),
        "AllTags": (8, 11, 10, 9),
        "Lemmas": (9, 11, 10, 9),
        "UAS": (7, 11, 10, 9),
        "LAS": (6, 11, 10, 9),
        "CLAS": (4, 7, 7, 6),
        "MLAS": (4, 7, 7, 6),
        "BLEX": (4, 7, 7, 6),
    },
    "func": {
        "Tokens": (14, 14, 14, None),
        "Sentences": (1, 1, 1, None),
        "Words": (14, 14, 14, None),
        "UPOS": (12, 14, 14, 14),
        "XPOS": (13, 14, 14, 14),
        "UFeats": (13, 14, 14, 14),
        "AllTags": (12, 14, 14, 14),
        "Lemmas": (13, 14, 14, 14),
        "UAS": (12, 14, 14, 14),
        "LAS": (10, 14, 14, 14),
        "CLAS": (6, 7, 6, 7),
        "MLAS": (4, 7, 6, 7),
        "BLEX": (5, 7, 6, 7),
    },
}

REAL_ROWS = {
    "Stanford-18": (
        "Tokens     |     99.06 |     99.03 |     99.04 |\n"
        "Sentences  |     85.33 |     79.83 |     82.49 |\n"
        "Words      |     99.06 |     99.03 |     99.04 |\n"
        "LAS        |     83.88 |     83.86 |     83.87 |     84.68\n"
        "CLAS       |     80.98 |     80.71 |     80.84 |     81.58\n"
        "MLAS       |     76.46 |     76.20 |     76.33 |     77.03\n"
        "BLEX       |     78.30 |     78.03 |     78.17 |     78.88\n"
    ),
    "UDPipe-Future": (
        "Tokens     |     99.07 |     98.97 |     99.02 |\n"
        "Sentences  |     83.61 |     71.45 |     77.05 |\n"
        "Words      |     99.07 |     98.97 |     99.02 |\n"
        "LAS        |     82.55 |     82.47 |     82.51 |     83.32\n"
        "CLAS       |     79.29 |     79.00 |     79.14 |     79.94\n"
        "MLAS       |     74.84 |     74.58 |     74.71 |     75.46\n"
        "BLEX       |     77.78 |     77.50 |     77.64 |     78.42\n"
    ),
    "ArmParser": (
        "Tokens     |     99.08 |     98.98 |     99.03 |\n"
        "Sentences  |     23.46 |     35.10 |     28.12 |\n"
        "Words      |     99.08 |     98.98 |     99.03 |\n"
        "LAS        |     65.72 |     65.66 |     65.69 |     66.33\n"
        "CLAS       |     62.39 |     63.50 |     62.94 |     64.23\n"
        "MLAS       |     57.23 |     58.24 |     57.73 |     58.92\n"
        "BLEX       |     60.20 |     61.27 |     60.73 |     61.97\n"
    ),
    "conll18-baseline": (
        "Tokens     |     99.08 |     98.98 |     99.03 |\n"
        "Sentences  |     81.47 |     70.05 |     75.33 |\n"
        "Words      |     99.08 |     98.98 |     99.03 |\n"
        "LAS        |     77.60 |     77.53 |     77.56 |     78.32\n"
        "CLAS       |     73.76 |     73.39 |     73.58 |     74.24\n"
        "MLAS       |     68.88 |     68.53 |     68.70 |     69.32\n"
        "BLEX       |     71.20 |     70.84 |     71.02 |     71.66\n"
    ),
    "HIT-SCIR-18": (
        "Tokens     |     99.08 |     98.98 |     99.03 |\n"
        "Sentences  |     81.47 |     70.05 |     75.33 |\n"
        "Words      |     99.08 |     98.98 |     99.03 |\n"
        "LAS        |     84.61 |     84.52 |     84.57 |     85.39\n"
        "CLAS       |     81.73 |     81.55 |     81.64 |     82.49\n"
        "MLAS       |     74.87 |     74.71 |     74.79 |     75.57\n"
        "BLEX       |     78.52 |     78.35 |     78.44 |     79.26\n"
    ),
    "NLP-Cube": (
        "Tokens     |     99.30 |     99.22 |     99.26 |\n"
        "Sentences  |     80.80 |     72.32 |     76.32 |\n"
        "Words      |     99.30 |     99.22 |     99.26 |\n"
        "LAS        |     82.82 |     82.76 |     82.79 |     83.41\n"
        "CLAS       |     79.44 |     79.18 |     79.31 |     79.88\n"
        "MLAS       |     73.87 |     73.63 |     73.75 |     74.28\n"
        "BLEX       |     73.89 |     73.65 |     73.77 |     74.30\n"
    ),
}


def _pair(case: str) -> tuple[Path, Path]:
    return DATA / f"{case}-gold.conllu", DATA / f"{case}-sys.conllu"


def test_registered() -> None:
    assert "conllu" in available()


@pytest.mark.parametrize("case", CASES)
def test_verbose_table_matches_reference(case: str) -> None:
    r = score("conllu", *_pair(case))
    assert r.text == VERBOSE[case]
    assert r.default_metric == "las"
    assert r.format == "conllu"


@pytest.mark.parametrize("case", CASES)
def test_counts_match_reference(case: str) -> None:
    got = counts(*_pair(case))
    for m, (c, g, s, a) in COUNTS[case].items():
        assert got[m][:3] == (c, g, s), m
        if a is not None:
            assert got[m][3] == a, m


@pytest.mark.parametrize("case", CASES)
def test_item_stats_sum_to_corpus_score(case: str) -> None:
    r = score("conllu", *_pair(case))
    assert set(r.scores) == {m.lower() for m in METRICS}
    f1 = sigfast.metrics.get("f1")
    for m, (c, g, s, _) in COUNTS[case].items():
        st = r.stats[m.lower()]
        assert st.metric == "f1" and st.stat_names == ("correct", "system", "gold")
        n = st.values.shape[0]
        tot = st.values.sum(0, keepdims=True)
        assert tuple(tot[0]) == (c, s, g), m
        value = float(f1.evaluate(tot, n)[0])
        assert value == r.scores[m.lower()]
        # The scorer's formula, 2*correct/(system+gold), to the last few ulps.
        assert value == pytest.approx(2 * c / (s + g) if s + g else 0.0, rel=1e-13, abs=0)


def test_counts_table_and_short_output() -> None:
    r = score("conllu", *_pair("func"), table="counts")
    # python3 conll18_ud_eval.py -c func-gold.conllu func-sys.conllu (rows MLAS, Words, Tokens)
    lines = r.text.splitlines()
    assert lines[0] == "Metric     | Correct   |      Gold | Predicted | Aligned"
    assert "MLAS       |         4 |         7 |         6 |         7" in lines
    assert "Words      |        14 |        14 |        14 |        14" in lines
    assert "Tokens     |        14 |        14 |        14 |          " in lines
    # python3 conll18_ud_eval.py mwt-gold.conllu mwt-sys.conllu
    assert score("conllu", *_pair("mwt"), table="short").text == (
        "LAS F1 Score: 62.50\nMLAS Score: 47.06\nBLEX Score: 58.82\n"
    )
    with pytest.raises(ValueError):
        score("conllu", *_pair("mwt"), table="wide")


def test_per_sentence_stats_same_segmentation() -> None:
    # conll18_ud_eval.evaluate() on each sentence pair of mwt-gold/mwt-sys alone:
    # (correct, system, gold) for Words, Lemmas, LAS, CLAS, MLAS, BLEX.
    expected = {
        "words": [(5, 6, 6), (5, 6, 7), (2, 4, 3)],
        "lemmas": [(4, 6, 6), (5, 6, 7), (2, 4, 3)],
        "las": [(5, 6, 6), (5, 6, 7), (0, 4, 3)],
        "clas": [(3, 3, 3), (3, 3, 3), (0, 3, 2)],
        "mlas": [(2, 3, 3), (2, 3, 3), (0, 3, 2)],
        "blex": [(2, 3, 3), (3, 3, 3), (0, 3, 2)],
    }
    r = score("conllu", *_pair("mwt"))
    assert r.item_ids == ("mwt-1", "mwt-2", "mwt-3")
    for m, rows in expected.items():
        assert [tuple(int(v) for v in row) for row in r.stats[m].values] == rows, m


def test_per_sentence_stats_split_mismatch() -> None:
    # Gold g1 "Hello." g2 "It rains." g3 "We stay home and read."; the system merges g1+g2 and
    # splits g3 after "home", tokenizing "andread" as one word. Derived by hand (documented rule:
    # aligned words count for the gold word's sentence, unaligned system words and system
    # sentences for the gold sentence holding their first character); the sums are the
    # reference scorer's counts above.
    r = score("conllu", *_pair("split"))
    rows = lambda m: [tuple(int(v) for v in row) for row in r.stats[m].values]
    assert rows("words") == [(2, 2, 2), (3, 3, 3), (4, 5, 6)]
    assert rows("tokens") == [(2, 2, 2), (3, 3, 3), (4, 5, 6)]
    assert rows("sentences") == [(0, 1, 1), (0, 0, 1), (0, 2, 1)]
    assert rows("las") == [(1, 2, 2), (3, 3, 3), (2, 5, 6)]
    assert r.item_ids == ("g1", "g2", "g3")


def test_bytes_and_gzip_input(tmp_path: Path) -> None:
    g, s = _pair("tok")
    gz = tmp_path / "sys.conllu.gz"
    gz.write_bytes(gzip.compress(s.read_bytes()))
    assert score("conllu", g.read_bytes(), gz).text == VERBOSE["tok"]


# ---------------------------------------------------------------- bad input

GOOD = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n"


def _bad(tmp_path: Path, text: str | bytes, gold: str = GOOD, side: str = "system") -> FormatError:
    gp, sp = tmp_path / "gold.conllu", tmp_path / "sys.conllu"
    gp.write_text(gold, encoding="utf-8")
    data = text.encode("utf-8") if isinstance(text, str) else text
    if side == "gold":
        gp.write_bytes(data)
        sp.write_text(GOOD, encoding="utf-8")
    else:
        sp.write_bytes(data)
    with pytest.raises(FormatError) as ei:
        score("conllu", gp, sp)
    err = ei.value
    assert isinstance(err, ValueError)
    assert err.path == str(gp if side == "gold" else sp)
    return err


def test_empty_file(tmp_path: Path) -> None:
    err = _bad(tmp_path, "")
    assert "no sentence" in str(err)
    err = _bad(tmp_path, "", side="gold")
    assert "gold" in str(err)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("# c\n1\ta\ta\tX\t_\t_\t0\troot\t_\n\n", 2, "10 TAB-separated columns, found 9"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\tx\n\n", 1, "found 11"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\nB\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n", 2, "word ID"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n3\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n", 2, "expected 2"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\tone\tdep\t_\t_\n\n", 2, "HEAD"),
        (
            "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t?\tdep\t_\t_\n\n",
            3,
            "HEAD",
        ),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n", 2, "empty line"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\n", 1, "root"),
        ("1\ta\ta\tX\t_\t_\t2\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n", 1, "cycle"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t7\tdep\t_\t_\n\n", 1, "outside"),
    ],
)
def test_malformed_lines(tmp_path: Path, text: str, line: int, needle: str) -> None:
    err = _bad(tmp_path, text)
    assert err.line == line
    assert needle in str(err)
    assert "sentence 1" in str(err)


def test_error_names_later_sentence_and_sent_id(tmp_path: Path) -> None:
    text = GOOD + "# sent_id = second\n1\ta\ta\tX\t_\t_\t0\troot\t_\n\n"
    err = _bad(tmp_path, text, gold=GOOD + GOOD)
    assert err.line == 5
    assert "sentence 2" in str(err) and "second" in str(err)


def test_undecodable_bytes(tmp_path: Path) -> None:
    err = _bad(tmp_path, GOOD.encode() + b"1\t\xff\t_\t_\t_\t_\t0\t_\t_\t_\n\n", gold=GOOD + GOOD)
    assert err.line == 4 and "UTF-8" in str(err)


def test_text_mismatch(tmp_path: Path) -> None:
    # The reference scorer raises UDError "The concatenation of tokens in gold file and in system
    # file differ!" here.
    text = GOOD + "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tc\tc\tX\t_\t_\t1\tdep\t_\t_\n\n"
    err = _bad(tmp_path, text, gold=GOOD + GOOD)
    assert "text mismatch" in str(err)
    assert err.line == 5 and "sentence 2" in str(err)
    assert "'b'" in str(err) and "'c'" in str(err)
    # A system that stops early.
    err = _bad(tmp_path, GOOD, gold=GOOD + GOOD)
    assert "text mismatch" in str(err)


# ---------------------------------------------------------------- real data


def _source_rows() -> list[tuple[str, ...]]:
    rows = []
    for line in (EWT / "SOURCE.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (\S+) \| \d+ \| (?:True|False) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|", line)
        if m:
            rows.append(m.groups())
    return rows


@pytest.fixture(scope="module")
def ewt_reports() -> dict[str, object]:
    if not (EWT / "SOURCE.md").exists():
        pytest.skip("shared/data/dependency_parsing/conll2018_en_ewt is absent")
    gold = EWT / "gold" / "en_ewt.conllu.gz"
    return {t: score("conllu", gold, EWT / "systems" / t / "en_ewt.conllu.gz") for t, *_ in _source_rows()}


def test_en_ewt_matches_reference_table(ewt_reports: dict) -> None:
    for team, rows in REAL_ROWS.items():
        text = ewt_reports[team].text
        for row in rows.splitlines(keepends=True):
            assert row in text, (team, row)


def test_en_ewt_matches_source_md(ewt_reports: dict) -> None:
    rows = _source_rows()
    assert len(rows) == 25
    for team, words, upos, uas, las in rows:
        r = ewt_reports[team]
        got = tuple(f"{100 * r.scores[k]:.2f}" for k in ("words", "upos", "uas", "las"))
        assert got == (words, upos, uas, las), team


def test_en_ewt_item_stats(ewt_reports: dict) -> None:
    r = ewt_reports["Stanford-18"]
    # python3 conll18_ud_eval.py -c gold.conllu Stanford-18.conllu: LAS 21045 / 25096 / 25090,
    # MLAS and BLEX gold 15155, system 15104, correct 11548 and 11826; Sentences 1658 / 2077 / 1943.
    assert r.stats["las"].values.shape == (2077, 3)
    assert tuple(r.stats["las"].values.sum(0)) == (21045, 25090, 25096)
    assert tuple(r.stats["mlas"].values.sum(0)) == (11548, 15104, 15155)
    assert tuple(r.stats["blex"].values.sum(0)) == (11826, 15104, 15155)
    assert tuple(r.stats["sentences"].values.sum(0)) == (1658, 1943, 2077)
    assert len(r.item_ids) == 2077
    for m in ("las", "mlas", "blex"):
        v = r.stats[m].values
        assert np.all(v[:, 0] <= v[:, 1]) and np.all(v[:, 0] <= v[:, 2])
