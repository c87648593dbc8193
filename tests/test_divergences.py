"""Input that a reference scorer scores with a warning: sigfast scores it the same way, says so,
and refuses it with ``strict=True`` (``--strict``).

Expected outputs come from the reference Perl scorers run on the fixtures (perl 5.36.0):

* eval.pl v1.9 (elikip/bist-parser @ 4cd6a29d6c737ff29cb61c0e51532a9d60c4818c,
  bmstparser/src/utils/eval.pl, md5 9e4f58f57ebfd7e979c0879c445ea1e2) and eval07.pl v1.4
  (mstrise/dep2label @ 7a4626bc3a3c20fb18bc1c2ba2f1b124c00958aa, md5
  18fe5089e7eca6fb87d511b720ac7dd6):
  ``perl eval.pl -q [-p|-b] -g tests/data/dependency/basic.gold.conllx -s tests/data/dependency/lenient.sys.conllx``
  (EVAL below: stdout; stderr held "Word/pos mismatch, line 2/6/10" for eval.pl and one
  "Warning: ignoring word/pos mismatch, line 2" for eval07.pl, and Perl's 'Argument "_" isn't
  numeric'; exit status 0);
* eval08.pl v1.8 (andre-martins/TurboParser @ 5ae9a15a16f7388ebd264cbbcc81f00463d3169a,
  scripts_srl/eval08.pl, md5 3611a68bfd6c3a8925af0685cfd90cb0) and eval09.pl v0.4
  (swabhs/joint-lstm-parser @ 465e352c390dd544f6584f34e3554adc6e7972d5, md5
  92ba88903f64a2f34d5d9031507e376f): ``perl eval0N.pl -q [-p] -g basic.gold.conll0N -s
  lenient.sys.conll0N > lenient.conll0N[.p].expected`` (one "Warning: ignoring word/pos
  mismatch, line 1" and Perl's 'Argument "_" isn't numeric' on stderr).

``lenient.sys.conllx`` is ``basic.sys.conllx`` with FORM ``cat`` -> ``dog`` (line 2), ``a.`` ->
``.`` (line 6: punctuation only in the system; the scripts decide punctuation by the gold FORM),
CPOSTAG ``UH`` -> ``INTJ`` (line 10), HEAD ``2`` -> ``_`` (line 12: no number, a wrong head to
the scripts), ``2`` -> ``+2`` (line 23: the same number, compared as text) and ``2`` -> ``+3``
(line 21); ``basic.sys`` already has HEAD ``02`` for ``2`` (line 28). The CoNLL-2008/2009 ones
change a FORM (``John`` -> ``Jon``, ``.`` -> ``?``), PPOSS/PPOS on line 7, two HEADs to
``+3``/``+4`` and one (line 19) to ``_``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from _warns import expect_warnings, warnings_on_stderr
from sigfast.cli import main
from sigfast.exceptions import FormatError
from sigfast.formats import score, spec
from sigfast.formats.dependency import DependencyWarning

DATA = Path(__file__).resolve().parent / "data" / "dependency"
GOLD, LENIENT = DATA / "basic.gold.conllx", DATA / "lenient.sys.conllx"

_LAS_7_13 = (
    "  Labeled   attachment score: 4 / 13 * 100 = 30.77 %\n"
    "  Unlabeled attachment score: 6 / 13 * 100 = 46.15 %\n"
    "  Label accuracy score:       8 / 13 * 100 = 61.54 %\n"
)
_LAS_15_25 = (
    "  Labeled   attachment score: 10 / 25 * 100 = 40.00 %\n"
    "  Unlabeled attachment score: 14 / 25 * 100 = 56.00 %\n"
    "  Label accuracy score:       18 / 25 * 100 = 72.00 %\n"
)
EVAL = {
    ("conllx", ""): _LAS_7_13,
    ("conllx", "-p"): _LAS_15_25,
    ("conllx", "-b"): (
        "     Sent.          Attachment      Correct        Scoring          \n"
        "    ID Tokens  -   Unlab. Lab.   HEAD HEAD+DEPREL   tokens   - - - -\n"
        "  ============================================================================\n"
        "     1    7    0   75.00  50.00     3       2           4    0 0 0 0\n"
        "     2    8    0   50.00  50.00     2       2           4    0 0 0 0\n"
        "     3    2    0     NaN    NaN     0       0           0    0 0 0 0\n"
        "     4    8    0   20.00   0.00     1       0           5    0 0 0 0\n"
        "\n"
        "\n" + _LAS_7_13
    ),
    ("conll07", ""): _LAS_15_25,
    ("conll07", "-p"): _LAS_7_13,
    ("conll07", "-d"): (
        "  Labeled   attachment score: 10 / 24 * 100 = 41.67 %\n"
        "  Unlabeled attachment score: 14 / 24 * 100 = 58.33 %\n"
        "  Label accuracy score:       17 / 24 * 100 = 70.83 %\n"
    ),
}
FLAGS = {"": {}, "-p": {"p": True}, "-b": {"evalb": True}, "-d": {"d": True}}


@pytest.mark.parametrize("fmt, flags", sorted(EVAL))
def test_dependency_scored_as_the_scripts_with_warnings(fmt, flags):
    with pytest.warns(DependencyWarning) as rec:
        r = score(fmt, GOLD, LENIENT, **FLAGS[flags])
    assert r.text == EVAL[(fmt, flags)]
    msgs = [str(w.message) for w in rec]
    assert msgs == list(r.warnings) and len(msgs) == 4
    assert "line 2: the system FORM 'dog' differs from the gold FORM 'cat' (2 token line(s)" in msgs[0]
    assert "line 10: the system CPOSTAG 'INTJ' differs from the gold 'UH'" in msgs[1]
    assert "line 23: the system HEAD '+2' is the gold HEAD '2' written differently (2 token line(s)" in msgs[2]
    assert "line 12: the system HEAD '_' is not a non-negative integer (1 token line(s)" in msgs[3]
    # the units follow the same reading: correct units == the printed numerators
    u = r.units("las")
    assert int((u.gold == u.system).sum()) == int(r.stats["las"].values[:, 0].sum())


@pytest.mark.parametrize("fmt", ["conllx", "conll07"])
def test_dependency_strict_refuses(fmt, tmp_path):
    with pytest.raises(FormatError, match=r"lenient.sys.conllx, line 2: .*FORM 'dog' differs"):
        score(fmt, GOLD, LENIENT, strict=True)
    lines = (DATA / "basic.sys.conllx").read_text(encoding="utf-8").split("\n")
    f = lines[22].split("\t")
    f[6] = "+2"
    lines[22] = "\t".join(f)
    plus = tmp_path / "plus.conllx"
    plus.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 23: .*HEAD \(column 7\) is '\+2'.*strict=true refuses"):
        score(fmt, GOLD, plus, strict=True)
    f[6] = "_"
    lines[22] = "\t".join(f)
    plus.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 23: .*HEAD \(column 7\) is '_'.*compares a system HEAD as text"):
        score(fmt, GOLD, plus, strict=True)
    with expect_warnings(DependencyWarning, "HEAD '_' is not a non-negative integer", "HEAD '02'"):
        score(fmt, GOLD, plus)
    # a gold HEAD must be a number, strict or not
    with pytest.raises(FormatError, match=r"plus.conllx, line 23: .*HEAD \(column 7\) is '_'"):
        score(fmt, plus, GOLD)
    # HEADs like 02 were read as the scripts read them before: strict keeps that, with the warning
    with pytest.warns(DependencyWarning, match="HEAD '02'"):
        score(fmt, GOLD, DATA / "basic.sys.conllx", strict=True)
    assert spec(fmt).option("strict").default is False


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
@pytest.mark.parametrize("p", [False, True])
def test_conll0809_scored_as_the_scripts_with_warnings(fmt, p):
    sys_path = DATA / f"lenient.sys.{fmt}"
    with pytest.warns(DependencyWarning) as rec:
        r = score(fmt, DATA / f"basic.gold.{fmt}", sys_path, p=p)
    assert r.text == (DATA / f"lenient.{fmt}{'.p' if p else ''}.expected").read_text(encoding="utf-8")
    msgs = [str(w.message) for w in rec]
    assert len(msgs) == 3 and "line 1: the system FORM 'Jon' differs from the gold FORM 'John'" in msgs[0]
    assert f"line 7: the system {'PPOSS' if fmt == 'conll08' else 'PPOS'} 'VBN' differs" in msgs[1]
    assert "line 19: the system HEAD '_' is not a non-negative integer" in msgs[2]
    with pytest.raises(FormatError, match="FORM 'Jon' differs"):
        score(fmt, DATA / f"basic.gold.{fmt}", sys_path, strict=True)


def test_cli_warning_lines_and_strict(capsys):
    with warnings_on_stderr():
        assert main(["score", "-f", "conllx", str(GOLD), str(LENIENT)]) == 0
    out = capsys.readouterr()
    assert out.out == EVAL[("conllx", "")]
    err = out.err.splitlines()
    assert len(err) == 4 and all(e.startswith("sigfast: warning: ") for e in err)
    assert main(["score", "-f", "conllx", "-o", "strict=true", str(GOLD), str(LENIENT)]) == 1
    assert "FORM 'dog' differs" in capsys.readouterr().err
    for cmd in (["score"], ["compare", "-n", "50"], ["pairwise", "-n", "50"]):
        assert main([*cmd, "--strict", "-f", "conllx", str(GOLD), str(LENIENT), f"b={DATA / 'basic.sys.conllx'}"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("sigfast: error: ") and "FORM 'dog' differs" in err, cmd
    assert main(["score", "--strict", "-o", "strict=false", "-f", "conllx", str(GOLD), str(LENIENT)]) == 2
    assert "--strict and -o strict=false both given" in capsys.readouterr().err
    # formats without a strict mode refuse --strict (they refuse such input anyway: it would do nothing)
    mt = Path(__file__).resolve().parent / "data" / "mt"
    assert (
        main(["score", "--strict", "-f", "mt", "-o", "metric=bleu", str(mt / "edge.ref1"), str(mt / "edge.hyp")]) == 2
    )
    err = capsys.readouterr().err
    assert "format 'mt' has no strict mode" in err and "--strict is for " in err and "conllx" in err
    tr = Path(__file__).resolve().parent / "data" / "trees"
    assert main(["score", "--strict", "-f", "evalb", str(tr / "gold.mrg"), str(tr / "test.mrg")]) == 2
    assert "format 'evalb' has no strict mode" in capsys.readouterr().err


def test_compare_warns_and_scores(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("default")  # as in a fresh process: the CLI prints each warning as one line
        rc = main(["compare", "-n", "100", "-f", "conllx", str(GOLD), str(DATA / "basic.sys.conllx"), str(LENIENT)])
    assert rc == 0
    err = capsys.readouterr().err.splitlines()
    assert any("HEAD '02'" in e for e in err) and any("FORM 'dog'" in e for e in err)
    assert all(e.startswith("sigfast: warning: ") for e in err)


def test_every_new_option_in_info_and_cli(capsys):
    """The options of this page's reference behaviours are in the schemas (`sigfast info` lists
    them) and work from the command line with `-o`, aer.py's and sacrebleu's names included."""
    assert main(["info", "--json"]) == 0
    info = {f["name"]: {o["name"] for o in f["options"]} for f in json.loads(capsys.readouterr().out)[0]["formats"]}
    for fmt, names in {
        "conllx": {"strict"},
        "conll07": {"strict"},
        "conll08": {"strict"},
        "conll09": {"strict"},
        "alignment": {"strict", "all_sure", "ignore_possible", "sentence_ids", "reverse_gold", "reverse_system"},
        "conlleval": {"latex"},
        "ner": {"latex"},
        "mt": {"ter_normalized", "ter_no_punct", "ter_asian_support", "ter_case_sensitive"},
    }.items():
        assert names <= info[fmt], fmt
    al = Path(__file__).resolve().parent / "data" / "alignment"
    # aer.py's flag names through -o: --allSure --ignorePossible --reverseHyp (tests/test_format_alignment.py)
    args = ["score", "-f", "alignment", "-o", "allSure=true", "-o", "ignorePossible=true", "-o", "reverseHyp=true"]
    assert main([*args, str(al / "gold.pharaoh"), str(al / "system_reversed.pharaoh")]) == 0
    assert capsys.readouterr().out.endswith("system_reversed.pharaoh: 37.5% (54.5%/69.2%/11)\n")
    assert (
        main(["score", "-f", "alignment", "-o", "sentence_ids=text", str(al / "gold.naacl"), str(al / "system.naacl")])
        == 0
    )
    out = capsys.readouterr()
    assert out.out == (al / "wpt.expected").read_text() and out.err == ""
    assert (
        main(["score", "-f", "alignment", "-o", "sentence_ids=bytes", str(al / "gold.naacl"), str(al / "system.naacl")])
        == 1
    )
    assert "sentence_ids=value|text" in capsys.readouterr().err
