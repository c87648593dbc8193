"""Word alignment AER parity (sigfast.formats.alignment).

How the expected outputs in tests/data/alignment/ were produced (reference scorers, run as is):

* ``wa_eval_align.pl`` (Rada Mihalcea 2003) from ``robertostling/eflomal`` @
  1fe2a43e3667fb2461736ddb48783ab0cf98a171, ``3rdparty/wa_eval_align.pl``
  (md5 05adab84f09717675f155bbb19aa08f9), perl 5.36:
      perl wa_eval_align.pl gold.naacl system.naacl > wpt.expected       (AER 1.0: the script
          compares sentence numbers as strings and "1" is not "0001")
      awk '{ $1 = sprintf("%04d", $1); print }' system.naacl > padded
      perl wa_eval_align.pl gold.naacl padded > wpt_padded.expected
* lilt ``aer.py`` from ``lilt/alignment-scripts`` @ 4da9bbfae633b1c8765281b0cd337233ed8d1446,
  ``scripts/aer.py`` (md5 9b49d00685fbbbf0c2e9b95561c5ad28), Python 3.11:
      python3 aer.py gold.pharaoh system.pharaoh --fAlpha 0.5 > lilt.expected
      python3 aer.py gold.pharaoh system_reversed.pharaoh --reverseHyp > lilt_reversed.expected
  (gold_question.pharaoh is gold.pharaoh with ``p`` written ``?``, the JHU "dreamt" convention,
  which aer.py does not read.) Its options --allSure and --ignorePossible, alone and together
  (AER_PY_OPTIONS below), on the same files:
      python3 aer.py gold.pharaoh system.pharaoh OPTS --fAlpha 0.5
      python3 aer.py gold.pharaoh system_reversed.pharaoh --reverseHyp OPTS
      python3 aer.py system.pharaoh gold.pharaoh --reverseRef --reverseHyp OPTS
* JHU MT-class ``score-alignments`` from ``azpoliak/align`` @
  1ac099b90e61c656369d1aff0f1b63cd68452b1d (md5 ccc57fae97b006847c86a5caf15acd13), Python 2.7.18:
      cp gold_question.pharaoh P.a; (P.e, P.f: 4 lines of 6 dummy words each)
      sed 's/p/-/g' system.pharaoh | python2 score-alignments -d P -n 0 > dreamt.expected

Real data: shared/data/word_alignment/hansards_enfr_wpt2003, reference AER/P/R of SOURCE.md for
the 16 aligners; Lilt's own aer.py lines (systems/lilt_*/enfr-results.txt) byte for byte; and
wa_eval_align.pl's report for ibm1.mle (sentence numbers zero-padded as above).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import pytest

import sigfast.exceptions as sigfast_errors
import sigfast.formats as formats
from _warns import expect_warnings, warnings_on_stderr
from sigfast.exceptions import FormatError
from sigfast.formats import alignment
from sigfast.metrics import get as get_metric

DATA = Path(__file__).resolve().parent / "data" / "alignment"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
WA = SHARED / "word_alignment" / "hansards_enfr_wpt2003"


def _padded_ids(warned: bool = True):
    """The gold NAACL files number sentences 0001, the NAACL system files 1: sigfast matches them by
    value and warns that wa_eval_align.pl would match none (AlignmentWarning)."""
    if not warned:
        return contextlib.nullcontext()
    return expect_warnings(alignment.AlignmentWarning, r"sentence number '(1' is written '0001|0001' is written '1)'")


def _check_stats(r) -> None:
    for name, st in r.stats.items():
        v = get_metric(st.metric).evaluate(st.values.sum(0, keepdims=True), st.values.shape[0])[0]
        assert v == r.scores[name], name


def test_wpt_report_matches_reference():
    with _padded_ids():
        r = alignment.score_alignment(DATA / "gold.naacl", DATA / "system.naacl")
    assert r.text == (DATA / "wpt_padded.expected").read_text()
    # a link both S and P in the system counts twice, as in wa_eval_align.pl; sentence 5 is system-only
    assert r.stats["aer"].values.tolist() == [[2, 3, 4, 3], [3, 4, 4, 2], [2, 2, 3, 2], [0, 1, 1, 1], [0, 0, 1, 0]]
    assert r.item_ids == ("1", "2", "3", "4", "5")
    assert r.default_metric == "aer"
    assert f"{r.scores['aer']:5.4f}" == "0.1905"
    _check_stats(r)
    # the reference's string comparison of sentence numbers is not mirrored (it gives AER 1.0)
    assert "AER       = 1.0000" in (DATA / "wpt.expected").read_text()


def test_lilt_report_matches_reference():
    r = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh", f_alpha=0.5)
    assert r.text.replace(str(DATA) + "/", "") == (DATA / "lilt.expected").read_text()
    _check_stats(r)
    rr = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system_reversed.pharaoh", reverse_system=True)
    assert rr.text.replace(str(DATA) + "/", "") == (DATA / "lilt_reversed.expected").read_text()
    for k in r.stats:
        assert np.array_equal(r.stats[k].values, rr.stats[k].values)


def test_dreamt_report_matches_reference():
    r = alignment.score_alignment(DATA / "gold_question.pharaoh", DATA / "system.pharaoh", report="dreamt")
    assert r.text == (DATA / "dreamt.expected").read_text()


def test_question_mark_possible_links_and_mixed_layouts():
    a = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh")
    b = alignment.score_alignment(DATA / "gold_question.pharaoh", DATA / "system.pharaoh")
    assert a.stats["aer"].values.tolist() == b.stats["aer"].values.tolist()
    # gold written in NAACL (1-based) vs Pharaoh (0-based) gives the same statistics
    c = alignment.score_alignment(DATA / "gold.naacl", DATA / "system.pharaoh")
    assert c.stats["aer"].values[:, 3].tolist() == a.stats["aer"].values[:, 3].tolist()
    # the WPT report can be asked for with Pharaoh files too
    one = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh", report="wpt")
    assert "   AER       = 0.2105\n" in one.text


def test_one_based_pharaoh(tmp_path):
    shifted = tmp_path / "sys1.txt"
    shifted.write_text(
        "\n".join(
            " ".join(f"{int(a) + 1}-{int(b) + 1}" for a, b in (t.replace("p", "-").split("-") for t in line.split()))
            for line in (DATA / "system.pharaoh").read_text().splitlines()
        )
        + "\n"
    )
    a = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh")
    b = alignment.score_alignment(DATA / "gold.pharaoh", shifted, system_base=1)
    assert np.array_equal(a.stats["aer"].values, b.stats["aer"].values)


def test_registered_names():
    assert "alignment" in formats.available()
    assert {formats.spec(a).name for a in ("aer", "pharaoh", "naacl")} == {"alignment"}
    r = formats.score("pharaoh", DATA / "gold.pharaoh", DATA / "system.pharaoh")
    a_s, a_p, a, s = r.stats["aer"].values.sum(0)
    assert r.scores["aer"] == 1.0 - (a_s + a_p) / (a + s)
    assert f"{100 * r.scores['aer']:.1f}" == "21.1"


# ------------------------------------------------------------------------------- real data

# SOURCE.md: AER, P, R in % (one decimal, as aer.py prints them)
REFERENCE = {
    "lilt_giza/test.enfr.grow-diagonal.talp": (5.9, 97.5, 89.7),
    "lilt_giza/test.enfr.grow-diagonal-final.talp": (6.2, 95.5, 91.6),
    "lilt_giza/test.enfr.intersection.talp": (7.6, 98.4, 85.6),
    "lilt_giza/test.enfr.talp": (8.0, 91.4, 92.9),
    "lilt_giza/test.enfr.reverse.talp": (9.8, 91.6, 88.3),
    "lilt_giza/test.enfr.union.talp": (9.9, 87.1, 95.5),
    "lilt_fastalign/test.enfr.grow-diagonal.talp": (10.5, 90.8, 87.8),
    "lilt_fastalign/test.enfr.intersection.talp": (11.2, 92.4, 84.5),
    "lilt_fastalign/test.enfr.grow-diagonal-final.talp": (12.1, 87.7, 88.3),
    "lilt_fastalign/test.enfr.reverse.talp": (15.9, 81.3, 88.7),
    "lilt_fastalign/test.enfr.talp": (16.4, 80.0, 90.1),
    "lilt_fastalign/test.enfr.union.talp": (19.5, 74.4, 94.4),
    "uva_nlp2_ibm/ibm2.vb.naacl": (20.4, 76.6, 85.0),
    "uva_nlp2_ibm/ibm2.mle.naacl": (20.5, 75.9, 86.4),
    "uva_nlp2_ibm/ibm1.mle.naacl": (28.5, 66.2, 81.4),
    "uva_nlp2_ibm/ibm1.vb.naacl": (28.6, 66.6, 79.9),
}


def _need_data():
    if not WA.is_dir():
        pytest.skip("shared/data is absent")


@pytest.mark.parametrize("system", sorted(REFERENCE))
def test_hansards_16_aligners(system):
    _need_data()
    f = WA / "systems" / system
    with _padded_ids(system.endswith(".naacl")):
        r = alignment.score_alignment(
            WA / "gold" / "test.wa.nonullalign", f, reverse_system="reverse" in system, report="lilt"
        )
    aer, p, rc = REFERENCE[system]
    assert f"{100 * r.scores['aer']:.1f}" == f"{aer:.1f}"
    assert f"{100 * r.scores['precision']:.1f}" == f"{p:.1f}"
    assert f"{100 * r.scores['recall']:.1f}" == f"{rc:.1f}"
    assert len(r.item_ids) == 447
    _check_stats(r)
    if system.startswith("lilt"):
        line = r.text.strip().replace(str(f.parent) + "/", "")
        assert line == AER_PY[system]
        if system.startswith("lilt_giza"):  # Lilt's own results file (its fast_align run differs slightly)
            assert line in (f.parent / "enfr-results.txt").read_text().splitlines()


# aer.py run in each system folder on the gold converted to Pharaoh (0-based, S -> "i-j",
# P -> "ipj", one line per sentence 1..447):
#   python3 aer.py gold.talp test.enfr.X.talp [--reverseHyp for *.reverse.talp]
AER_PY = {
    "lilt_fastalign/test.enfr.grow-diagonal-final.talp": "test.enfr.grow-diagonal-final.talp: 12.1% (87.7%/88.3%/5817)",
    "lilt_fastalign/test.enfr.grow-diagonal.talp": "test.enfr.grow-diagonal.talp: 10.5% (90.8%/87.8%/5374)",
    "lilt_fastalign/test.enfr.intersection.talp": "test.enfr.intersection.talp: 11.2% (92.4%/84.5%/4899)",
    "lilt_fastalign/test.enfr.reverse.talp": "test.enfr.reverse.talp: 15.9% (81.3%/88.7%/6747)",
    "lilt_fastalign/test.enfr.talp": "test.enfr.talp: 16.4% (80.0%/90.1%/7312)",
    "lilt_fastalign/test.enfr.union.talp": "test.enfr.union.talp: 19.5% (74.4%/94.4%/9160)",
    "lilt_giza/test.enfr.grow-diagonal-final.talp": "test.enfr.grow-diagonal-final.talp: 6.2% (95.5%/91.6%/5489)",
    "lilt_giza/test.enfr.grow-diagonal.talp": "test.enfr.grow-diagonal.talp: 5.9% (97.5%/89.7%/5072)",
    "lilt_giza/test.enfr.intersection.talp": "test.enfr.intersection.talp: 7.6% (98.4%/85.6%/4637)",
    "lilt_giza/test.enfr.reverse.talp": "test.enfr.reverse.talp: 9.8% (91.6%/88.3%/5672)",
    "lilt_giza/test.enfr.talp": "test.enfr.talp: 8.0% (91.4%/92.9%/6069)",
    "lilt_giza/test.enfr.union.talp": "test.enfr.union.talp: 9.9% (87.1%/95.5%/7104)",
}


WPT_IBM1_MLE = """
The following results assume correct file formats.
Make sure you have previously checked the file format
using wa_check_submission.pl


    Word Alignment Evaluation   
----------------------------------
   Evaluation of SURE alignments 
   Precision = 0.4330  
   Recall    = 0.8135
   F-measure = 0.5652
-----------------------------------
   Evaluation of PROBABLE alignments
   Precision = 0.6622
   Recall    = 0.2881
   F-measure = 0.4015
-----------------------------------
   AER       = 0.2852
"""


def test_hansards_wpt_report():
    _need_data()
    with _padded_ids():
        r = alignment.score_alignment(WA / "gold" / "test.wa.nonullalign", WA / "systems/uva_nlp2_ibm/ibm1.mle.naacl")
    assert r.text == WPT_IBM1_MLE


# ------------------------------------------------------------------------------- bad input


def _w(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


def test_bad_input(tmp_path):
    g = DATA / "gold.pharaoh"
    with pytest.raises(FormatError, match=r"s1.txt, line 4: 3 lines \(sentences\) but the gold file"):
        alignment.score_alignment(g, _w(tmp_path, "s1.txt", "0-0\n0-1\n0-0\n"))
    with pytest.raises(FormatError, match=r"s2.txt, line 2: '0:1' is not a link"):
        alignment.score_alignment(g, _w(tmp_path, "s2.txt", "0-0\n0:1\n0-0\n1-1\n"))
    with pytest.raises(FormatError, match=r"s3.txt, line 1: 0 lines \(sentences\) but the gold file"):
        alignment.score_alignment(g, _w(tmp_path, "s3.txt", ""))
    with pytest.raises(FormatError, match=r"s4.txt, line 2: byte 0xff at column 1 is not valid UTF-8"):
        alignment.score_alignment(g, _w(tmp_path, "s4.txt", b"0-0\n\xff\n0-0\n1-1\n"))
    with pytest.raises(FormatError, match=r"s5.txt: the system file has no link: .*report=wpt"):  # no link at all
        alignment.score_alignment(g, _w(tmp_path, "s5.txt", "\n\n\n\n"))
    with pytest.raises(FormatError, match=r"g6.txt: the gold file has no sure link"):
        alignment.score_alignment(_w(tmp_path, "g6.txt", "0p0\n\n\n\n"), DATA / "system.pharaoh")
    gn = DATA / "gold.naacl"
    with pytest.raises(FormatError, match=r"s7.txt, line 2: fewer than 3 fields"):
        alignment.score_alignment(gn, _w(tmp_path, "s7.txt", "1 1 1\n1 2\n"))
    with pytest.raises(FormatError, match=r"s8.txt, line 1: no S/P label"):
        alignment.score_alignment(gn, _w(tmp_path, "s8.txt", "1 1 1 X\n"))
    with pytest.raises(FormatError, match=r"s9.txt, line 1: position '01' is not a plain decimal integer"):
        alignment.score_alignment(gn, _w(tmp_path, "s9.txt", "1 01 1\n"))
    with pytest.raises(FormatError, match=r"s10.txt, line 1: sentence number 9 does not name a line"):
        alignment.score_alignment(g, _w(tmp_path, "s10.txt", "9 1 1\n"), system_format="naacl")
    with pytest.raises(FormatError, match=r"s11.txt, line 2: sentence number '01' also written '1'"):
        alignment.score_alignment(gn, _w(tmp_path, "s11.txt", "1 1 1\n01 2 2\n"))
    with pytest.raises(FormatError, match=r"s12.txt, line 1: link '0-0' below the first index 1"):
        alignment.score_alignment(g, _w(tmp_path, "s12.txt", "0-0\n\n\n\n"), system_base=1)


# ------------------------------------------------------------------------------- units (the law)


def _per_sentence(t, mask) -> list[int]:
    return np.bincount(t.sentence[mask], minlength=t.n_sentences).tolist()


def _check_units(r) -> None:
    """Per sentence: correct units == |A&S| ("sure") and |A&P| ("possible"), as the statistics count them."""
    v = r.stats["aer"].values.astype(int)
    assert r.views == ("sure", "possible")
    for view, col in (("sure", 0), ("possible", 1)):
        t = r.units(view)
        assert t.view == view and t.n_sentences == len(r.item_ids) and t.sentence_ids == r.item_ids
        assert len(set(t.keys)) == len(t.keys) == len(t.gold)
        ok = t.system == t.gold
        assert not (ok & ~t.gold_present).any()
        assert (t.gold[t.gold_present] == "link").all() and (t.gold[~t.gold_present] == "O").all()
        assert _per_sentence(t, ok) == v[:, col].tolist(), view
        assert _per_sentence(t, t.system == "link") == v[:, 2].tolist()  # |A| as counted
        if view == "sure":  # gold-present units: |S|, plus second copies of system links labelled S and P
            extra = np.array([k[3] == 1 for k in t.keys], bool) & t.gold_present
            assert _per_sentence(t, t.gold_present & ~extra) == v[:, 3].tolist()


def _check_united(parsed) -> None:
    for view, col in (("sure", 0), ("possible", 1)):
        u = parsed.units(view)
        for k, r in enumerate(parsed.reports):
            ok = u.gold_present & (u.systems[k] == u.gold)
            got = np.bincount(u.sentence[ok], minlength=u.n_sentences)
            want = r.stats["aer"].values[:, col].astype(int)
            # sentences only another system has (NAACL) come after this system's own
            assert got[: len(want)].tolist() == want.tolist() and not got[len(want) :].any(), (view, parsed.names[k])
            assert int((u.systems[k] == "link").sum()) == int(r.stats["aer"].values[:, 2].sum())


def test_units_wpt_counts_a_link_labelled_s_and_p_twice():
    with _padded_ids():
        r = alignment.score_alignment(DATA / "gold.naacl", DATA / "system.naacl")
    _check_units(r)
    t = r.units("sure")
    units = {k: (g, s) for k, g, s in zip(t.keys, t.gold, t.system)}
    # sentence 2: system "2 2 1 P" and "2 2 1 S" = 0-based (1, 0), gold sure: counted (and correct) twice
    assert units[("2", 1, 0, 0)] == ("link", "link") and units[("2", 1, 0, 1)] == ("link", "link")
    # sentence 3: system "3 3 2 S" is gold sure (2, 1); system "3 3 3 P" is no gold link
    assert units[("3", 2, 1, 0)] == ("link", "link")
    assert units[("3", 2, 2, 0)] == ("O", "link")
    p = r.units("possible")
    punits = {k: (g, s) for k, g, s in zip(p.keys, p.gold, p.system)}
    assert ("3", 1, 2, 0) not in units and punits[("3", 1, 2, 0)] == ("link", "O")  # gold "0003 2 3 0.5 P"
    assert punits[("1", 2, 3, 0)] == ("link", "link")  # gold "0001 3 4 P", system "1 3 4"
    assert punits[("1", 2, 2, 0)] == ("link", "O")  # gold "0001 3 3 P", not in the system
    assert p.forms[p.keys.index(("1", 2, 2, 0))] == "2-2"
    # sentence 5: only the system has it
    assert units[("5", 0, 0, 0)] == ("O", "link") and r.item_ids[4] == "5"


@pytest.mark.parametrize(
    "gold,system,kw",
    [
        ("gold.pharaoh", "system.pharaoh", {}),
        ("gold.pharaoh", "system.pharaoh", {"report": "wpt"}),
        ("gold_question.pharaoh", "system.pharaoh", {"report": "dreamt"}),
        ("gold.pharaoh", "system_reversed.pharaoh", {"reverse_system": True}),
        ("gold.pharaoh", "system_reversed.pharaoh", {"reverse_gold": True}),
        ("gold.pharaoh", "system.pharaoh", {"reverse_gold": True, "reverse_system": True}),
        ("gold.naacl", "system.pharaoh", {}),
        ("gold.naacl", "gold.naacl", {}),
        ("gold.naacl", "system.naacl", {"reverse_system": True}),
        ("gold.naacl", "system.naacl", {"system_base": 0, "gold_base": 0}),
        ("gold.naacl", "system.naacl", {"gold_base": 1, "system_base": 0}),
        ("gold.naacl", "system.pharaoh", {"reverse_gold": True, "system_base": 0, "report": "lilt"}),
        ("system.naacl", "gold.naacl", {}),
    ],
)
def test_units_law_on_test_files(gold, system, kw):
    with _padded_ids({gold, system} == {"gold.naacl", "system.naacl"}):
        r = alignment.score_alignment(DATA / gold, DATA / system, **kw)
    _check_units(r)


def test_units_reversed_system_lines_up_with_the_plain_one():
    a = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh")
    b = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system_reversed.pharaoh", reverse_system=True)
    for view in ("sure", "possible"):
        ta, tb = a.units(view), b.units(view)
        assert ta.keys == tb.keys and ta.system.tolist() == tb.system.tolist() and ta.gold.tolist() == tb.gold.tolist()


def test_units_united_test_files():
    with _padded_ids():
        parsed = formats.parse(
            "alignment", DATA / "gold.naacl", {"naacl": DATA / "system.naacl", "pharaoh": DATA / "system.pharaoh"}
        )
    _check_united(parsed)
    u = parsed.units("sure")
    # a unit only one system has is "O" for the other
    k = u.forms.index("1-0")
    assert u.sentence[k] == 1 and u.systems[0][k] == "link"


@pytest.mark.parametrize("system", sorted(REFERENCE))
def test_units_law_hansards(system):
    _need_data()
    with _padded_ids(system.endswith(".naacl")):
        r = alignment.score_alignment(
            WA / "gold" / "test.wa.nonullalign", WA / "systems" / system, reverse_system="reverse" in system
        )
    _check_units(r)


def test_units_united_hansards():
    _need_data()
    plain = [s for s in sorted(REFERENCE) if "reverse" not in s]
    with _padded_ids():  # the four uva_nlp2_ibm systems
        parsed = formats.parse("alignment", WA / "gold" / "test.wa.nonullalign", [WA / "systems" / s for s in plain])
    assert len(parsed.names) == 14
    _check_united(parsed)
    rev = [s for s in sorted(REFERENCE) if "reverse" in s]
    parsed = formats.parse(
        "alignment", WA / "gold" / "test.wa.nonullalign", [WA / "systems" / s for s in rev], reverse_system=True
    )
    _check_united(parsed)


# ------------------------------------------------------------------------------- aer.py options

# aer.py (see the module docstring) with --allSure / --ignorePossible: stdout, "|" for newlines
AER_PY_OPTIONS = {
    "--allSure": (
        "system.pharaoh: 25.0% (81.8%/69.2%/11)|F-Measure: 0.750|",
        "system_reversed.pharaoh: 25.0% (81.8%/69.2%/11)|",
        "gold.pharaoh: 25.0% (69.2%/81.8%/13)|",
    ),
    "--ignorePossible": (
        "system.pharaoh: 36.8% (54.5%/75.0%/11)|F-Measure: 0.632|",
        "system_reversed.pharaoh: 36.8% (54.5%/75.0%/11)|",
        "gold.pharaoh: 30.4% (61.5%/80.0%/13)|",
    ),
    "--allSure --ignorePossible": (
        "system.pharaoh: 37.5% (54.5%/69.2%/11)|F-Measure: 0.610|",
        "system_reversed.pharaoh: 37.5% (54.5%/69.2%/11)|",
        "gold.pharaoh: 29.2% (61.5%/81.8%/13)|",
    ),
}
_FLAG = {"--allSure": "all_sure", "--ignorePossible": "ignore_possible"}


def _lilt(r, folder) -> str:
    return r.text.replace(str(folder) + "/", "").replace("\n", "|")


@pytest.mark.parametrize("flags", sorted(AER_PY_OPTIONS))
def test_aer_py_options_synthetic(flags):
    opts = {_FLAG[f]: True for f in flags.split()}
    plain, rev, swapped = AER_PY_OPTIONS[flags]
    r = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh", f_alpha=0.5, **opts)
    assert _lilt(r, DATA) == plain
    _check_stats(r)
    rr = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system_reversed.pharaoh", reverse_system=True, **opts)
    assert _lilt(rr, DATA) == rev
    # the system's links as gold (its p links possible), both sides reversed: aer.py's flag names work too
    aliases = {{"all_sure": "allSure", "ignore_possible": "ignorePossible"}[k]: v for k, v in opts.items()}
    rs = formats.score(
        "alignment", DATA / "system.pharaoh", DATA / "gold.pharaoh", reverseRef=True, reverseHyp=True, **aliases
    )
    assert _lilt(rs, DATA) == swapped
    _check_stats(rs)
    # units follow the changed sets: correct sure units = |A&S|, correct possible units = |A&P|
    a_s, a_p = (int(x) for x in r.stats["aer"].values.sum(0)[:2])
    for view, n in (("sure", a_s), ("possible", a_p)):
        u = r.units(view)
        assert int((u.gold == u.system)[u.gold_present].sum()) == n


def test_all_sure_and_ignore_possible_sets():
    # sentence 1: gold 0-0 1-1 2p2 2p3 3-3, system 0-0 1-2 2-3 3-3 3-3 (A has 4 links). --allSure makes
    # 2-2 and 2-3 sure; --ignorePossible leaves them out of P; with both they are sure and not
    # possible (P = the dash links only): |A&S| = 3 (0-0 2-3 3-3), |A&P| = 2 (0-0 3-3), |A| = 4, |S| = 5
    r = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh", all_sure=True, ignore_possible=True)
    assert r.stats["aer"].values[0].tolist() == [3, 2, 4, 5]
    r = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh", all_sure=True)
    assert r.stats["aer"].values[0].tolist() == [3, 3, 4, 5]
    r = alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.pharaoh", ignore_possible=True)
    assert r.stats["aer"].values[0].tolist() == [2, 2, 4, 3]


# aer.py on the Hansards gold converted to Pharaoh (as for AER_PY above), in each system folder:
#   python3 aer.py gold.talp test.enfr.X.talp [--reverseHyp] OPTS --fAlpha 0.5      ("|" = newline)
AER_PY_HANSARDS_OPTIONS = {
    (
        "lilt_giza/test.enfr.grow-diagonal-final.talp",
        "--allSure",
    ): "test.enfr.grow-diagonal-final.talp: 54.3% (95.5%/30.1%/5489)|F-Measure: 0.457|",
    (
        "lilt_giza/test.enfr.grow-diagonal-final.talp",
        "--ignorePossible",
    ): "test.enfr.grow-diagonal-final.talp: 22.4% (67.4%/91.6%/5489)|F-Measure: 0.776|",
    (
        "lilt_giza/test.enfr.grow-diagonal-final.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.grow-diagonal-final.talp: 61.0% (67.4%/30.1%/5489)|F-Measure: 0.416|",
    (
        "lilt_giza/test.enfr.grow-diagonal.talp",
        "--allSure",
    ): "test.enfr.grow-diagonal.talp: 56.0% (97.5%/28.4%/5072)|F-Measure: 0.440|",
    (
        "lilt_giza/test.enfr.grow-diagonal.talp",
        "--ignorePossible",
    ): "test.enfr.grow-diagonal.talp: 20.5% (71.4%/89.7%/5072)|F-Measure: 0.795|",
    (
        "lilt_giza/test.enfr.grow-diagonal.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.grow-diagonal.talp: 61.9% (71.4%/28.4%/5072)|F-Measure: 0.406|",
    (
        "lilt_giza/test.enfr.intersection.talp",
        "--allSure",
    ): "test.enfr.intersection.talp: 58.7% (98.4%/26.2%/4637)|F-Measure: 0.413|",
    (
        "lilt_giza/test.enfr.intersection.talp",
        "--ignorePossible",
    ): "test.enfr.intersection.talp: 20.3% (74.6%/85.6%/4637)|F-Measure: 0.797|",
    (
        "lilt_giza/test.enfr.intersection.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.intersection.talp: 63.7% (74.6%/26.2%/4637)|F-Measure: 0.387|",
    (
        "lilt_giza/test.enfr.reverse.talp",
        "--allSure",
    ): "test.enfr.reverse.talp: 55.0% (91.6%/29.8%/5672)|F-Measure: 0.450|",
    (
        "lilt_giza/test.enfr.reverse.talp",
        "--ignorePossible",
    ): "test.enfr.reverse.talp: 26.6% (62.9%/88.3%/5672)|F-Measure: 0.734|",
    (
        "lilt_giza/test.enfr.reverse.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.reverse.talp: 62.1% (62.9%/29.8%/5672)|F-Measure: 0.404|",
    ("lilt_giza/test.enfr.talp", "--allSure"): "test.enfr.talp: 52.8% (91.4%/31.8%/6069)|F-Measure: 0.472|",
    ("lilt_giza/test.enfr.talp", "--ignorePossible"): "test.enfr.talp: 25.8% (61.8%/92.9%/6069)|F-Measure: 0.742|",
    (
        "lilt_giza/test.enfr.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.talp: 60.4% (61.8%/31.8%/6069)|F-Measure: 0.420|",
    ("lilt_giza/test.enfr.union.talp", "--allSure"): "test.enfr.union.talp: 49.6% (87.1%/35.5%/7104)|F-Measure: 0.504|",
    (
        "lilt_giza/test.enfr.union.talp",
        "--ignorePossible",
    ): "test.enfr.union.talp: 30.7% (54.3%/95.5%/7104)|F-Measure: 0.693|",
    (
        "lilt_giza/test.enfr.union.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.union.talp: 59.1% (54.3%/35.5%/7104)|F-Measure: 0.429|",
    (
        "lilt_fastalign/test.enfr.grow-diagonal-final.talp",
        "--allSure",
    ): "test.enfr.grow-diagonal-final.talp: 56.1% (87.7%/29.2%/5817)|F-Measure: 0.439|",
    (
        "lilt_fastalign/test.enfr.grow-diagonal-final.talp",
        "--ignorePossible",
    ): "test.enfr.grow-diagonal-final.talp: 27.7% (61.3%/88.3%/5817)|F-Measure: 0.723|",
    (
        "lilt_fastalign/test.enfr.grow-diagonal-final.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.grow-diagonal-final.talp: 62.7% (61.3%/29.2%/5817)|F-Measure: 0.396|",
    (
        "lilt_fastalign/test.enfr.grow-diagonal.talp",
        "--allSure",
    ): "test.enfr.grow-diagonal.talp: 57.2% (90.8%/28.0%/5374)|F-Measure: 0.428|",
    (
        "lilt_fastalign/test.enfr.grow-diagonal.talp",
        "--ignorePossible",
    ): "test.enfr.grow-diagonal.talp: 24.7% (65.9%/87.8%/5374)|F-Measure: 0.753|",
    (
        "lilt_fastalign/test.enfr.grow-diagonal.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.grow-diagonal.talp: 63.1% (65.9%/28.0%/5374)|F-Measure: 0.393|",
    (
        "lilt_fastalign/test.enfr.intersection.talp",
        "--allSure",
    ): "test.enfr.intersection.talp: 59.5% (92.4%/26.0%/4899)|F-Measure: 0.405|",
    (
        "lilt_fastalign/test.enfr.intersection.talp",
        "--ignorePossible",
    ): "test.enfr.intersection.talp: 23.6% (69.6%/84.5%/4899)|F-Measure: 0.764|",
    (
        "lilt_fastalign/test.enfr.intersection.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.intersection.talp: 64.5% (69.6%/26.0%/4899)|F-Measure: 0.378|",
    (
        "lilt_fastalign/test.enfr.reverse.talp",
        "--allSure",
    ): "test.enfr.reverse.talp: 54.6% (81.3%/31.5%/6747)|F-Measure: 0.454|",
    (
        "lilt_fastalign/test.enfr.reverse.talp",
        "--ignorePossible",
    ): "test.enfr.reverse.talp: 33.6% (53.1%/88.7%/6747)|F-Measure: 0.664|",
    (
        "lilt_fastalign/test.enfr.reverse.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.reverse.talp: 62.5% (53.1%/31.5%/6747)|F-Measure: 0.395|",
    ("lilt_fastalign/test.enfr.talp", "--allSure"): "test.enfr.talp: 52.7% (80.0%/33.5%/7312)|F-Measure: 0.473|",
    ("lilt_fastalign/test.enfr.talp", "--ignorePossible"): "test.enfr.talp: 35.9% (49.8%/90.1%/7312)|F-Measure: 0.641|",
    (
        "lilt_fastalign/test.enfr.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.talp: 61.7% (49.8%/33.5%/7312)|F-Measure: 0.401|",
    (
        "lilt_fastalign/test.enfr.union.talp",
        "--allSure",
    ): "test.enfr.union.talp: 48.8% (74.4%/39.1%/9160)|F-Measure: 0.512|",
    (
        "lilt_fastalign/test.enfr.union.talp",
        "--ignorePossible",
    ): "test.enfr.union.talp: 42.2% (41.6%/94.4%/9160)|F-Measure: 0.578|",
    (
        "lilt_fastalign/test.enfr.union.talp",
        "--allSure --ignorePossible",
    ): "test.enfr.union.talp: 60.1% (41.6%/39.1%/9160)|F-Measure: 0.403|",
}


@pytest.mark.parametrize("key", sorted(AER_PY_HANSARDS_OPTIONS))
def test_aer_py_options_hansards(key, tmp_path):
    _need_data()
    system, flags = key
    f = WA / "systems" / system
    opts = {_FLAG[x]: True for x in flags.split()}
    # the NAACL gold as it is, and converted to Pharaoh as aer.py was given it
    pharaoh = tmp_path / "gold.talp"
    links: dict[int, list[str]] = {}
    for line in (WA / "gold" / "test.wa.nonullalign").read_text().splitlines():
        sid, i, j, label = line.split()
        links.setdefault(int(sid), []).append(f"{int(i) - 1}{'-' if label == 'S' else 'p'}{int(j) - 1}")
    pharaoh.write_text("".join(" ".join(links.get(k, [])) + "\n" for k in range(1, 448)))
    for gold in (WA / "gold" / "test.wa.nonullalign", pharaoh):
        r = alignment.score_alignment(gold, f, reverse_system="reverse" in system, report="lilt", f_alpha=0.5, **opts)
        assert _lilt(r, f.parent) == AER_PY_HANSARDS_OPTIONS[key]
        _check_stats(r)


# ------------------------------------------------------------------------------- sentence ids


def test_sentence_ids_as_text_like_wa_eval_align(recwarn):
    # wpt.expected: wa_eval_align.pl on the files as they are ("1" is not "0001": AER 1.0)
    r = alignment.score_alignment(DATA / "gold.naacl", DATA / "system.naacl", sentence_ids="text")
    assert r.text == (DATA / "wpt.expected").read_text()
    assert r.item_ids == ("0001", "0002", "0003", "0004", "1", "2", "3", "4", "5")
    assert not r.warnings and not [w for w in recwarn if issubclass(w.category, alignment.AlignmentWarning)]
    _check_stats(r)
    with pytest.raises(sigfast_errors.InputError, match="two NAACL files"):
        alignment.score_alignment(DATA / "gold.pharaoh", DATA / "system.naacl", sentence_ids="text")


def test_sentence_ids_by_value_warn_and_strict_refuses(capsys):
    from sigfast.cli import main

    with pytest.warns(alignment.AlignmentWarning, match=r"sentence number '1' is written '0001' .*4 sentence"):
        r = alignment.score_alignment(DATA / "gold.naacl", DATA / "system.naacl")
    assert r.text == (DATA / "wpt_padded.expected").read_text() and len(r.warnings) == 1
    with pytest.raises(FormatError, match=r"system.naacl, line 1: sentence number '1' is written '0001'"):
        alignment.score_alignment(DATA / "gold.naacl", DATA / "system.naacl", strict=True)
    # the command line: one warning line, and --strict
    with warnings_on_stderr():
        assert main(["score", "-f", "alignment", str(DATA / "gold.naacl"), str(DATA / "system.naacl")]) == 0
    out = capsys.readouterr()
    assert out.out == (DATA / "wpt_padded.expected").read_text()
    assert out.err.count("\n") == 1 and out.err.startswith("sigfast: warning: ") and "0001" in out.err
    assert main(["score", "--strict", str(DATA / "gold.naacl"), str(DATA / "system.naacl")]) == 1
    assert capsys.readouterr().err.startswith("sigfast: error: ")


def test_sentence_ids_hansards():
    _need_data()
    gold, ibm1 = WA / "gold" / "test.wa.nonullalign", WA / "systems/uva_nlp2_ibm/ibm1.mle.naacl"
    # wa_eval_align.pl on the files as they are: every sentence number differs in writing (AER 1.0)
    r = alignment.score_alignment(gold, ibm1, sentence_ids="text")
    assert r.text == (DATA / "wpt.expected").read_text()
    with pytest.warns(alignment.AlignmentWarning, match="447 sentence"):
        assert alignment.score_alignment(gold, ibm1).text == WPT_IBM1_MLE


# ------------------------------------------------------------------------------- reference gaps (issue 22)
# wpt_nosure.expected and wpt_empty.expected: wa_eval_align.pl (md5 05adab84f09717675f155bbb19aa08f9), perl 5.36:
#     perl wa_eval_align.pl nosure_gold.naacl nosure_system.naacl > wpt_nosure.expected   (AER 0.0357)
#     perl wa_eval_align.pl gold.naacl empty.naacl > wpt_empty.expected                   (AER 0.0000)


def test_wpt_gold_without_sure_links_prints_the_scripts_numbers():
    with pytest.warns(alignment.AlignmentWarning, match="the gold file has no sure link") as rec:
        r = alignment.score_alignment(DATA / "nosure_gold.naacl", DATA / "nosure_system.naacl")
    assert r.text == (DATA / "wpt_nosure.expected").read_text()
    assert "AER       = 0.0357" in r.text and len(rec) == 1 and r.warnings == (str(rec[0].message),)
    with pytest.raises(FormatError, match="no sure link.*aer.py divides by zero"):
        alignment.score_alignment(DATA / "nosure_gold.naacl", DATA / "nosure_system.naacl", report="lilt")


def test_wpt_empty_submission_prints_the_scripts_numbers(capsys):
    from sigfast.cli import main

    with pytest.warns(alignment.AlignmentWarning, match="prints AER 0.0000 .* statistics .* give"):
        r = alignment.score_alignment(DATA / "gold.naacl", DATA / "empty.naacl")
    assert r.text == (DATA / "wpt_empty.expected").read_text()
    assert r.scores["aer"] == 1.0  # the formula: nothing aligned
    with warnings_on_stderr():
        assert main(["score", "-f", "alignment", str(DATA / "gold.naacl"), str(DATA / "empty.naacl")]) == 0
    out = capsys.readouterr()
    assert out.out == (DATA / "wpt_empty.expected").read_text()
    assert out.err.startswith("sigfast: warning: ") and out.err.count("\n") == 1


def test_f_alpha_without_a_correct_link(tmp_path, capsys):
    # aer.py --fAlpha 0.3 divides by zero here; sigfast prints the limit, 0, and says so
    from sigfast.cli import main

    s = _w(tmp_path, "wrong.pharaoh", "9-9\n9-8\n9-7\n9-6\n")
    with pytest.warns(alignment.AlignmentWarning, match="aer.py's F-measure divides by zero"):
        r = alignment.score_alignment(DATA / "gold.pharaoh", s, f_alpha=0.3)
    assert r.text.endswith("F-Measure: 0.000\n") and r.scores["precision"] == 0.0
    with warnings_on_stderr():
        assert main(["score", "-f", "alignment", "-o", "f_alpha=0.3", str(DATA / "gold.pharaoh"), str(s)]) == 0
    out = capsys.readouterr()
    assert out.out.endswith("F-Measure: 0.000\n") and "internal error" not in out.err
    assert out.err.startswith("sigfast: warning: ") and "divides by zero" in out.err


# ------------------------------------------------------------------------------- invariants (issue 23)

_OPTIONS = [
    {},
    {"all_sure": True},
    {"ignore_possible": True},
    {"all_sure": True, "ignore_possible": True},
    {"report": "wpt"},
    {"report": "dreamt"},
]


def _sweep(gold, systems, opts, metrics=("aer", "precision", "recall", "f1"), pairwise=False):
    import warnings

    import sigfast

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = formats.parse("alignment", gold, systems, **opts)
    for m in metrics:
        st = parsed.statistics(m)
        res = sigfast.paired_bootstrap(st, n_resamples=200, seed=1)
        assert res.score_x == parsed.reports[0].scores[m], (m, opts)
        assert res.score_y == parsed.reports[1].scores[m], (m, opts)
        if pairwise:
            pw = sigfast.pairwise(st, n_resamples=200, seed=1)
            assert len(pw.systems) == len(systems)


@pytest.mark.parametrize("opts", _OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_every_metric_and_option_runs_in_compare_project_files(opts):
    # gold.naacl lists a system link as S and P (counted twice by wa_eval_align.pl), and with
    # all_sure + ignore_possible S is not inside P: 11 of these combinations were refused before
    _sweep(DATA / "gold.pharaoh", [DATA / "system.pharaoh", DATA / "system.pharaoh"], opts, pairwise=True)
    _sweep(DATA / "gold.naacl", [DATA / "system.naacl", DATA / "system.naacl"], opts)
    rev = {**opts, "reverse_system": True}
    _sweep(DATA / "gold.pharaoh", [DATA / "system_reversed.pharaoh", DATA / "system_reversed.pharaoh"], rev)


@pytest.mark.parametrize("opts", _OPTIONS[:4], ids=lambda o: ",".join(o) or "defaults")
def test_every_metric_and_option_runs_in_compare_hansards(opts):
    _need_data()
    gold = WA / "gold" / "test.wa.nonullalign"
    systems = [WA / "systems" / s for s in ("lilt_giza/test.enfr.talp", "uva_nlp2_ibm/ibm2.vb.naacl")]
    _sweep(gold, systems, opts, pairwise=True)


def test_compare_cli_on_the_issue_command(capsys):
    from sigfast.cli import main

    files = [str(DATA / f) for f in ("gold.pharaoh", "system.pharaoh", "system_reversed.pharaoh")]
    assert main(["compare", "-f", "alignment", "-m", "precision", *files, "-n", "500", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert f"{res[0]['score_x']:.4f}" == "0.8182"
