"""CoNLL-X (eval.pl) and CoNLL 2007 (eval07.pl) dependency scoring: parity and bad input.

Expected texts below were produced by running the reference scorers on the
fixtures in tests/data/dependency/ (perl 5.36.0):

* eval.pl v1.9 from elikip/bist-parser @ 4cd6a29d6c737ff29cb61c0e51532a9d60c4818c,
  bmstparser/src/utils/eval.pl (md5 9e4f58f57ebfd7e979c0879c445ea1e2):
  ``perl eval.pl -q [FLAGS] -g tests/data/dependency/GOLD -s tests/data/dependency/SYSTEM``
* eval07.pl v1.4 from mstrise/dep2label @ 7a4626bc3a3c20fb18bc1c2ba2f1b124c00958aa,
  eval07.pl (md5 18fe5089e7eca6fb87d511b720ac7dd6), same command line.

Each key is (gold file, system file, the flags given after ``-q``); the value
is the script's whole stdout. Fixtures: ``basic.*`` are hand-written (punctuation
of many Unicode categories, ``-LRB-``, ``a.``, ``$``, ``%``, a sentence made only of
punctuation, a DERIV token, several roots, labels differing only in case, a
HEAD written ``02``); ``spaces_nofinal.sys.conllx`` is ``basic.sys`` with
space-separated columns and no final blank line; ``en_ewt25.*`` are 25
sentences of UD 2.2 en_ewt test (gold) and the HIT-SCIR CoNLL 2018 output whose
tokens match, converted to 10 columns (CoNLL-U comments, multiword-token and
empty-node lines dropped; UPOS in CPOSTAG, XPOS in POSTAG). They are third-party
data and are not in the repository: ``tests/_dependency_fixtures.py`` rebuilds them
at test time from /work/shared/data (the cases are skipped when it is absent), and
the reference scorers were run on those generated files.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from _dependency_fixtures import en_ewt25, en_ewt_available
from _warns import expect_warnings
from sigfast import metrics
from sigfast.exceptions import FormatError, InputError
from sigfast.formats import score, spec
from sigfast.formats.dependency import DependencyWarning, is_punct

DATA = Path(__file__).resolve().parent / "data" / "dependency"

# The warnings the reference scorers give on the fixture system files, which sigfast repeats:
# basic.sys writes a HEAD '02', spaces_nofinal.sys also lacks the final blank line, and HIT-SCIR's
# tags differ from the gold ones.
_HEAD_02 = "HEAD '02' is the gold HEAD '2' written differently"
SYSTEM_WARNINGS = {
    "basic.sys.conllx": (_HEAD_02,),
    "spaces_nofinal.sys.conllx": ("lacks 1 blank line", _HEAD_02),
    "en_ewt25.hitscir.conllx": ("CPOSTAG 'AUX' differs from the gold 'SCONJ'",),
}


def _score(fmt, gold_path, sys_path, **opts):
    """``score``, expecting the DependencyWarnings of the system file (SYSTEM_WARNINGS)."""
    with expect_warnings(DependencyWarning, *SYSTEM_WARNINGS[Path(sys_path).name]):
        return score(fmt, gold_path, sys_path, **opts)


@pytest.fixture(scope="module")
def en_ewt25_files(tmp_path_factory) -> tuple[Path, Path]:
    """(gold, system) en_ewt25 files, generated from shared/data into a temporary folder."""
    if not en_ewt_available():
        pytest.skip("shared/data (conll2018_en_ewt) is not beside the checkout")
    return en_ewt25(tmp_path_factory.mktemp("en_ewt25"))


def _fixture_paths(request, gold: str, system: str) -> tuple[Path, Path]:
    """Paths of a parity case's files: en_ewt25.* are generated, the rest are in DATA."""
    if gold.startswith("en_ewt25.") or system.startswith("en_ewt25."):
        g, s = request.getfixturevalue("en_ewt25_files")
        return g.parent / gold, s.parent / system
    return DATA / gold, DATA / system


EXPECTED_EVAL = {
    ("basic.gold.conllx", "basic.sys.conllx", ""): (  # exit status 0
        "  Labeled   attachment score: 6 / 13 * 100 = 46.15 %\n"
        "  Unlabeled attachment score: 9 / 13 * 100 = 69.23 %\n"
        "  Label accuracy score:       8 / 13 * 100 = 61.54 %\n"
    ),
    ("basic.gold.conllx", "basic.sys.conllx", "-p"): (  # exit status 0
        "  Labeled   attachment score: 12 / 25 * 100 = 48.00 %\n"
        "  Unlabeled attachment score: 17 / 25 * 100 = 68.00 %\n"
        "  Label accuracy score:       18 / 25 * 100 = 72.00 %\n"
    ),
    ("basic.gold.conllx", "basic.sys.conllx", "-b"): (  # exit status 0
        "     Sent.          Attachment      Correct        Scoring          \n"
        "    ID Tokens  -   Unlab. Lab.   HEAD HEAD+DEPREL   tokens   - - - -\n"
        "  ============================================================================\n"
        "     1    7    0   75.00  50.00     3       2           4    0 0 0 0\n"
        "     2    8    0   75.00  50.00     3       2           4    0 0 0 0\n"
        "     3    2    0     NaN    NaN     0       0           0    0 0 0 0\n"
        "     4    8    0   60.00  40.00     3       2           5    0 0 0 0\n"
        "\n"
        "\n"
        "  Labeled   attachment score: 6 / 13 * 100 = 46.15 %\n"
        "  Unlabeled attachment score: 9 / 13 * 100 = 69.23 %\n"
        "  Label accuracy score:       8 / 13 * 100 = 61.54 %\n"
    ),
    ("basic.gold.conllx", "basic.sys.conllx", "-p -b"): (  # exit status 0
        "     Sent.          Attachment      Correct        Scoring          \n"
        "    ID Tokens  -   Unlab. Lab.   HEAD HEAD+DEPREL   tokens   - - - -\n"
        "  ============================================================================\n"
        "     1    7    0   71.43  42.86     5       3           7    0 0 0 0\n"
        "     2    8    0   75.00  50.00     6       4           8    0 0 0 0\n"
        "     3    2    0   50.00  50.00     1       1           2    0 0 0 0\n"
        "     4    8    0   62.50  50.00     5       4           8    0 0 0 0\n"
        "\n"
        "\n"
        "  Labeled   attachment score: 12 / 25 * 100 = 48.00 %\n"
        "  Unlabeled attachment score: 17 / 25 * 100 = 68.00 %\n"
        "  Label accuracy score:       18 / 25 * 100 = 72.00 %\n"
    ),
    ("en_ewt25.gold.conllx", "en_ewt25.hitscir.conllx", ""): (  # exit status 0
        "  Labeled   attachment score: 295 / 319 * 100 = 92.48 %\n"
        "  Unlabeled attachment score: 306 / 319 * 100 = 95.92 %\n"
        "  Label accuracy score:       299 / 319 * 100 = 93.73 %\n"
    ),
    ("en_ewt25.gold.conllx", "en_ewt25.hitscir.conllx", "-p"): (  # exit status 0
        "  Labeled   attachment score: 339 / 364 * 100 = 93.13 %\n"
        "  Unlabeled attachment score: 350 / 364 * 100 = 96.15 %\n"
        "  Label accuracy score:       344 / 364 * 100 = 94.51 %\n"
    ),
}

EXPECTED_EVAL07 = {
    ("basic.gold.conllx", "basic.sys.conllx", ""): (  # exit status 0
        "  Labeled   attachment score: 12 / 25 * 100 = 48.00 %\n"
        "  Unlabeled attachment score: 17 / 25 * 100 = 68.00 %\n"
        "  Label accuracy score:       18 / 25 * 100 = 72.00 %\n"
    ),
    ("basic.gold.conllx", "basic.sys.conllx", "-p"): (  # exit status 0
        "  Labeled   attachment score: 6 / 13 * 100 = 46.15 %\n"
        "  Unlabeled attachment score: 9 / 13 * 100 = 69.23 %\n"
        "  Label accuracy score:       8 / 13 * 100 = 61.54 %\n"
    ),
    ("basic.gold.conllx", "basic.sys.conllx", "-d"): (  # exit status 0
        "  Labeled   attachment score: 12 / 24 * 100 = 50.00 %\n"
        "  Unlabeled attachment score: 17 / 24 * 100 = 70.83 %\n"
        "  Label accuracy score:       17 / 24 * 100 = 70.83 %\n"
    ),
    ("basic.gold.conllx", "basic.sys.conllx", "-p -d -b"): (  # exit status 0
        "     Sent.          Attachment      Correct        Scoring          \n"
        "    ID Tokens  -   Unlab. Lab.   HEAD HEAD+DEPREL   tokens   - - - -\n"
        "  ============================================================================\n"
        "     1    7    0   75.00  50.00     3       2           4    0 0 0 0\n"
        "     2    8    0   75.00  50.00     3       2           4    0 0 0 0\n"
        "     3    2    0     NaN    NaN     0       0           0    0 0 0 0\n"
        "     4    8    0   75.00  50.00     3       2           4    0 0 0 0\n"
        "\n"
        "\n"
        "  Labeled   attachment score: 6 / 12 * 100 = 50.00 %\n"
        "  Unlabeled attachment score: 9 / 12 * 100 = 75.00 %\n"
        "  Label accuracy score:       7 / 12 * 100 = 58.33 %\n"
    ),
    ("basic.gold.conllx", "spaces_nofinal.sys.conllx", ""): (  # exit status 0
        "  Labeled   attachment score: 12 / 25 * 100 = 48.00 %\n"
        "  Unlabeled attachment score: 17 / 25 * 100 = 68.00 %\n"
        "  Label accuracy score:       18 / 25 * 100 = 72.00 %\n"
    ),
    ("basic.gold.conllx", "spaces_nofinal.sys.conllx", "-b"): (  # exit status 0
        "     Sent.          Attachment      Correct        Scoring          \n"
        "    ID Tokens  -   Unlab. Lab.   HEAD HEAD+DEPREL   tokens   - - - -\n"
        "  ============================================================================\n"
        "     1    7    0   71.43  42.86     5       3           7    0 0 0 0\n"
        "     2    8    0   75.00  50.00     6       4           8    0 0 0 0\n"
        "     3    2    0   50.00  50.00     1       1           2    0 0 0 0\n"
        "     4    8    0   62.50  50.00     5       4           8    0 0 0 0\n"
        "\n"
        "\n"
        "  Labeled   attachment score: 12 / 25 * 100 = 48.00 %\n"
        "  Unlabeled attachment score: 17 / 25 * 100 = 68.00 %\n"
        "  Label accuracy score:       18 / 25 * 100 = 72.00 %\n"
    ),
    ("en_ewt25.gold.conllx", "en_ewt25.hitscir.conllx", ""): (  # exit status 0
        "  Labeled   attachment score: 339 / 364 * 100 = 93.13 %\n"
        "  Unlabeled attachment score: 350 / 364 * 100 = 96.15 %\n"
        "  Label accuracy score:       344 / 364 * 100 = 94.51 %\n"
    ),
    ("en_ewt25.gold.conllx", "en_ewt25.hitscir.conllx", "-p"): (  # exit status 0
        "  Labeled   attachment score: 295 / 319 * 100 = 92.48 %\n"
        "  Unlabeled attachment score: 306 / 319 * 100 = 95.92 %\n"
        "  Label accuracy score:       299 / 319 * 100 = 93.73 %\n"
    ),
}

_X_OPTS = {"": {}, "-p": {"p": True}, "-b": {"evalb": True}, "-p -b": {"p": True, "evalb": True}}
_07_OPTS = {
    "": {},
    "-p": {"p": True},
    "-d": {"d": True},
    "-b": {"evalb": True},
    "-p -d -b": {"p": True, "d": True, "evalb": True},
}


def _check_stats(rep):
    """The per-sentence statistics sum to the printed counts and give the scores through the metric."""
    lines = [ln for ln in rep.text.splitlines() if "score:" in ln]
    for name, line in zip(("las", "uas", "label_acc"), lines):
        st = rep.stats[name]
        assert st.metric == "accuracy"
        assert st.values.shape == (len(rep.item_ids), 2)
        correct, total = (int(x) for x in st.values.sum(0))
        assert f" {correct} / {total} * 100 = " in line
        m = metrics.get(st.metric, **st.metric_params)
        assert m.evaluate(st.values.sum(0, keepdims=True), st.values.shape[0])[0] == rep.scores[name]
        assert rep.scores[name] == correct / total
    assert rep.default_metric == "las"


@pytest.mark.parametrize("key", list(EXPECTED_EVAL))
def test_conllx_parity(key, request):
    gold, system, flags = key
    gold_path, sys_path = _fixture_paths(request, gold, system)
    rep = _score("conllx", gold_path, sys_path, **_X_OPTS[flags])
    assert rep.text == EXPECTED_EVAL[key]
    assert rep.format == "conllx"
    _check_stats(rep)


@pytest.mark.parametrize("key", list(EXPECTED_EVAL07))
def test_conll07_parity(key, request):
    gold, system, flags = key
    gold_path, sys_path = _fixture_paths(request, gold, system)
    rep = _score("conll07", gold_path, sys_path, **_07_OPTS[flags])
    assert rep.text == EXPECTED_EVAL07[key]
    _check_stats(rep)


def test_conllx_without_final_blank_line_scores_like_eval07():
    # eval.pl stops with "line mismatch ... sys : past end of file" (exit 1) when the
    # system file lacks the final blank line; sigfast ignores that difference, as
    # eval07.pl does, and gives eval.pl's numbers for the same tokens.
    rep = _score("conllx", DATA / "basic.gold.conllx", DATA / "spaces_nofinal.sys.conllx")
    assert rep.text == EXPECTED_EVAL[("basic.gold.conllx", "basic.sys.conllx", "")]
    rep = _score("conllx", DATA / "basic.gold.conllx", DATA / "spaces_nofinal.sys.conllx", p=True, evalb=True)
    assert rep.text == EXPECTED_EVAL[("basic.gold.conllx", "basic.sys.conllx", "-p -b")]


def test_identical_files_score_100():
    rep = score("conll07", DATA / "basic.gold.conllx", DATA / "basic.gold.conllx")
    assert rep.text == (
        "  Labeled   attachment score: 25 / 25 * 100 = 100.00 %\n"
        "  Unlabeled attachment score: 25 / 25 * 100 = 100.00 %\n"
        "  Label accuracy score:       25 / 25 * 100 = 100.00 %\n"
    )
    assert rep.scores == {"las": 1.0, "uas": 1.0, "label_acc": 1.0}


def test_per_sentence_values_and_ids():
    rep = _score("conllx", DATA / "basic.gold.conllx", DATA / "basic.sys.conllx")
    # sentence 3 ("! ?") is all punctuation: no scoring token
    np.testing.assert_array_equal(rep.stats["las"].values, [[2, 4], [2, 4], [0, 0], [2, 5]])
    np.testing.assert_array_equal(rep.stats["uas"].values, [[3, 4], [3, 4], [0, 0], [3, 5]])
    assert rep.item_ids == ("line 1", "line 9", "line 18", "line 21")


def test_punct_flag_means_opposite_things():
    g, s = DATA / "basic.gold.conllx", DATA / "basic.sys.conllx"
    x_default = _score("conllx", g, s).stats["las"].values.sum(0)
    x_p = _score("conllx", g, s, p=True).stats["las"].values.sum(0)
    x_punct = _score("conllx", g, s, punct=True).stats["las"].values.sum(0)
    c_default = _score("conll07", g, s).stats["las"].values.sum(0)
    c_p = _score("conll07", g, s, p=True).stats["las"].values.sum(0)
    c_nopunct = _score("conll07", g, s, punct=False).stats["las"].values.sum(0)
    assert list(x_default) == list(c_p) == list(c_nopunct) == [6, 13]
    assert list(x_p) == list(x_punct) == list(c_default) == [12, 25]
    assert list(_score("conll07", g, s, p="true").stats["las"].values.sum(0)) == [6, 13]


def test_option_errors():
    g, s = DATA / "basic.gold.conllx", DATA / "basic.sys.conllx"
    with pytest.raises(InputError, match="contradict"):
        score("conllx", g, s, p=True, punct=False)
    with pytest.raises(InputError, match="contradict"):
        score("conll07", g, s, d=True, deriv=True)
    with pytest.raises(FormatError, match="no option"):
        score("conllx", g, s, deriv=False)
    with pytest.raises(FormatError, match="punct=bool cannot be 'maybe'"):
        score("conll07", g, s, punct="maybe")
    assert spec("conllx").score is not spec("conll07").score


@pytest.mark.parametrize(
    "word, expected",
    [
        (".", True),
        ("''", True),
        ("%", True),
        ("-", True),
        ("—", True),
        ("…", True),
        ("¿", True),
        ("。", True),
        ("#", True),
        ("&", True),
        ("*", True),
        ("@", True),
        ("§", True),
        ('"', True),
        ("?!", True),
        ("``", False),
        ("$", False),
        ("€", False),
        ("+", False),
        ("<", False),
        ("|", False),
        ("~", False),
        ("^", False),
        ("a.", False),
        ("-LRB-", False),
        ("", False),
    ],
)
def test_is_punct(word, expected):
    # Unicode general category P* (eval.pl: Encode::decode_utf8($w) =~ /^\p{Punctuation}+$/)
    assert is_punct(word) is expected


# --- bad input -----------------------------------------------------------------------------


def _gold_lines():
    return (DATA / "basic.gold.conllx").read_text(encoding="utf-8").split("\n")


def _write(path, lines):
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def gold_path():
    return DATA / "basic.gold.conllx"


def _raises(tmp_path, gold, lines, match, fmt="conllx", line=None, **opts):
    sys_path = _write(tmp_path / "sys.conllx", lines)
    with pytest.raises(FormatError, match=match) as ei:
        score(fmt, gold, sys_path, **opts)
    if line is not None:
        assert ei.value.line == line
    return ei.value


@pytest.mark.parametrize("fmt", ["conllx", "conll07"])
def test_missing_sentence(tmp_path, gold_path, fmt):
    lines = _gold_lines()
    cut = lines.index("", 19)  # drop the last sentence (lines 21..28)
    e = _raises(tmp_path, gold_path, lines[: cut + 1], "4 sentences but the system file has 3", fmt)
    assert e.path.endswith("sys.conllx")


def test_extra_sentence(tmp_path, gold_path):
    lines = _gold_lines()
    _raises(tmp_path, gold_path, lines[:-1] + lines[:8], "4 sentences but the system file has 5")


def test_token_count_differs(tmp_path, gold_path):
    lines = _gold_lines()
    del lines[3]  # sentence 1 loses a token
    _raises(
        tmp_path,
        gold_path,
        lines,
        r"sentence 1 has 7 tokens in the gold file .*\(from line 1\) but 6 in the system file",
        line=7,
    )


def test_token_count_differs_sentence_merge(tmp_path, gold_path):
    lines = _gold_lines()
    del lines[7]  # the blank line after sentence 1: sentences 1 and 2 merge
    _raises(tmp_path, gold_path, lines, "has 4 sentences but the system file has 3", line=8)


def test_form_mismatch(tmp_path, gold_path):
    # refused with strict=True; without it scored as the scripts score it (tests/test_divergences.py)
    lines = _gold_lines()
    lines[1] = lines[1].replace("cat", "dog")
    _raises(tmp_path, gold_path, lines, "system FORM 'dog' differs from the gold FORM 'cat'", line=2, strict=True)


def test_too_few_columns(tmp_path, gold_path):
    lines = _gold_lines()
    lines[2] = "\t".join(lines[2].split("\t")[:7])
    _raises(tmp_path, gold_path, lines, "sentence 1: 7 columns, expected 8 to 10", line=3)


def test_too_many_columns(tmp_path, gold_path):
    lines = _gold_lines()
    lines[9] = lines[9] + "\textra"
    _raises(tmp_path, gold_path, lines, "sentence 2: 11 columns", line=10)


def test_head_not_a_number(tmp_path, gold_path):
    lines = _gold_lines()
    f = lines[0].split("\t")
    f[6] = "_"
    lines[0] = "\t".join(f)
    # in the system: a wrong head to eval.pl (tests/test_divergences.py), refused with strict=True
    _raises(tmp_path, gold_path, lines, "HEAD .* is '_', not a non-negative integer", line=1, strict=True)


def test_leading_whitespace(tmp_path, gold_path):
    lines = _gold_lines()
    lines[4] = " " + lines[4]
    _raises(tmp_path, gold_path, lines, "starts with whitespace", line=5)


def test_empty_file(tmp_path, gold_path):
    e = _raises(tmp_path, gold_path, [], "system file is empty")
    assert e.line is None
    with pytest.raises(FormatError, match="gold file is empty"):
        score("conll07", _write(tmp_path / "g", []), gold_path)


def test_only_blank_lines(tmp_path):
    p = _write(tmp_path / "blank.conllx", ["", "", ""])
    with pytest.raises(FormatError, match="no token lines"):
        score("conll07", p, p)


def test_not_utf8(tmp_path, gold_path):
    data = (DATA / "basic.gold.conllx").read_bytes().replace("¿".encode(), b"\xbf")
    p = tmp_path / "latin1.conllx"
    p.write_bytes(data)
    with pytest.raises(FormatError, match="0xbf at column 3 is not valid UTF-8") as ei:
        score("conllx", gold_path, p)
    assert ei.value.line == 5 and ei.value.path == str(p)


def test_missing_file(tmp_path, gold_path):
    with pytest.raises(FormatError, match="cannot read the system file"):
        score("conllx", gold_path, tmp_path / "nope.conllx")


def test_no_scoring_token(tmp_path):
    # eval.pl: "Illegal division by zero" (exit 255) when every token is punctuation
    p = _write(tmp_path / "punct.conllx", ["1\t!\t_\tP\tP\t_\t0\tROOT\t_\t_", "2\t?\t_\tP\tP\t_\t1\tP\t_\t_", ""])
    with pytest.raises(FormatError, match="no token is scored.*punct=True"):
        score("conllx", p, p)
    rep = score("conllx", p, p, punct=True)
    assert rep.text.splitlines()[0] == "  Labeled   attachment score: 2 / 2 * 100 = 100.00 %"


# --- units: the correct units are the numbers the reference scorers print -----------------

_VIEW_LINE = {"las": "Labeled   attachment", "uas": "Unlabeled attachment", "label": "Label accuracy"}
_VIEW_STAT = {"las": "las", "uas": "uas", "label": "label_acc"}


def _printed(text: str, start: str) -> tuple[int, int]:
    line = next(ln for ln in text.splitlines() if ln.strip().startswith(start))
    c, t = line.split(":")[1].split(" * 100")[0].split(" / ")
    return int(c), int(t)


def _b_table(text: str) -> list[tuple[int, int, int]]:
    """(HEAD right, HEAD+DEPREL right, scoring tokens) per sentence from the -b table."""
    rows = []
    for ln in text.splitlines():
        f = ln.split()
        if len(f) == 12 and f[0].isdigit() and f[-4:] == ["0", "0", "0", "0"]:
            rows.append((int(f[5]), int(f[6]), int(f[7])))
    return rows


@pytest.mark.parametrize("fmt, key", [("conllx", k) for k in EXPECTED_EVAL] + [("conll07", k) for k in EXPECTED_EVAL07])
def test_units_correct_equals_printed_counts(fmt, key, request):
    # for every view: correct units == the script's numerator, units == its scoring tokens,
    # per sentence too (the -b table where the script printed one, else the statistics)
    gold, system, flags = key
    gold_path, sys_path = _fixture_paths(request, gold, system)
    expected = (EXPECTED_EVAL if fmt == "conllx" else EXPECTED_EVAL07)[key]
    rep = _score(fmt, gold_path, sys_path, **(_X_OPTS if fmt == "conllx" else _07_OPTS)[flags])
    assert rep.views == spec(fmt).views == ("las", "uas", "label")
    n = len(rep.item_ids)
    table = _b_table(expected)
    for view in rep.views:
        u = rep.units(view)
        assert u.keys is None and u.n_sentences == n and u.sentence_ids == rep.item_ids
        correct = u.gold == u.system
        assert (int(correct.sum()), len(u.gold)) == _printed(expected, _VIEW_LINE[view])
        per_sentence = np.bincount(u.sentence[correct], minlength=n)
        tokens = np.bincount(u.sentence, minlength=n)
        np.testing.assert_array_equal(per_sentence, rep.stats[_VIEW_STAT[view]].values[:, 0])
        np.testing.assert_array_equal(tokens, rep.stats[_VIEW_STAT[view]].values[:, 1])
        if table and view != "label":
            assert per_sentence.tolist() == [r[0 if view == "uas" else 1] for r in table]
            assert tokens.tolist() == [r[2] for r in table]
        if view in ("las", "uas"):
            assert u.group_name == "gold relation" and u.groups is not None


def test_units_labels():
    rep = _score("conll07", DATA / "basic.gold.conllx", DATA / "basic.sys.conllx")
    las, uas, lab = (rep.units(v) for v in ("las", "uas", "label"))
    rows = list(zip(las.forms, las.gold, las.system, uas.gold, uas.system, lab.gold, lab.system, las.groups))
    assert rows[0] == ("The", "NMOD(+1)", "NMOD(+1)", "+1", "+1", "NMOD", "NMOD", "NMOD")
    assert rows[1] == ("cat", "SBJ(+1)", "sbj(+1)", "+1", "+1", "SBJ", "sbj", "SBJ")  # labels differ in case
    assert rows[2][:5] == ("sat", "ROOT(root)", "ROOT(root)", "root", "root")
    # HEAD written 02 for gold 2: the script compares strings, so it is wrong though it reads the same
    assert rows[-1] == ("#", "NMOD(-6)", "NMOD(-6)≠", "-6", "-6≠", "NMOD", "NMOD", "NMOD")
    # eval07.pl -d leaves the DERIV token out; -p punctuation
    forms = rep.units("las").forms
    assert "lich" in forms and "。" in forms
    assert "lich" not in _score("conll07", DATA / "basic.gold.conllx", DATA / "basic.sys.conllx", d=True).units().forms
    assert "。" not in _score("conllx", DATA / "basic.gold.conllx", DATA / "basic.sys.conllx").units().forms
    with pytest.raises(InputError, match="no view 'sem'"):
        rep.units("sem")
