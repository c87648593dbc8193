"""Format "mt": sacrebleu-compatible BLEU / chrF / chrF++ statistics and reports.

Expected numbers are produced in each test by the reference scorer itself,
sacrebleu 2.6.0 from PyPI (`pip install sacrebleu==2.6.0`, a test
dependency; never imported by the package), through its Python API:
``BLEU(tokenize=..., lowercase=...)._extract_corpus_statistics(hyps, refs)``
for per-segment statistics, ``.corpus_score(hyps, refs)`` for the corpus score
and ``.format(width=2, signature=...)`` for the report line (what
``sacrebleu REF... -i SYS -m bleu chrf -f text -w 2`` prints), with the files
read as the sacrebleu command line reads them (split on "\\n", each line
right-stripped).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.exceptions import FormatError, InputError
from sigfast.formats import score
from sigfast.metrics import get as get_metric

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU, CHRF  # noqa: E402

HERE = Path(__file__).resolve().parent
FIX = HERE / "data" / "mt"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
WMT = SHARED / "machine_translation" / "wmt21_newstest2021_de_en"
TED = SHARED / "machine_translation" / "compare_mt_ted_slk_eng"


def cli_lines(path: Path) -> list[str]:
    """Lines as sacrebleu's command line reads them (newline="\\n", rstrip)."""
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line.rstrip() for line in f]


def sacre(metric_obj, hyp: Path, refs: list[Path]):
    h = cli_lines(hyp)
    r = [cli_lines(p) for p in refs]
    stats = metric_obj._extract_corpus_statistics(h, r)
    # what corpus_score(h, r) does after extracting the same statistics
    corpus = metric_obj._aggregate_and_compute([list(x) for x in stats])
    metric_obj.num_refs = len(r)  # read by the signature
    return stats, corpus, r


def make(metric: str, **kw):
    tok = kw.get("tokenize", "13a")
    if metric == "bleu":
        return BLEU(tokenize=tok, lowercase=kw.get("lowercase", False))
    # sacrebleu's -lc is BLEU's; chrF's is --chrf-lowercase (sigfast: chrf_lowercase)
    return CHRF(word_order=2 if metric == "chrf++" else 0, lowercase=kw.get("chrf_lowercase", False))


def check(hyp: Path, refs: list[Path], metric: str, **kw):
    rep = score("mt", [str(p) for p in refs], str(hyp), metric=metric, **kw)
    ref_obj = make(metric, **kw)
    stats, corpus, _r = sacre(ref_obj, hyp, refs)
    st = rep.stats[metric]
    # per-segment statistics identical to sacrebleu's
    assert st.values.shape[0] == len(stats)
    assert st.values.astype(np.int64).tolist() == stats
    assert np.array_equal(st.values, np.asarray(stats, dtype=np.float64))
    # summed statistics through sigfast's metric == sacrebleu corpus score, exactly
    m = get_metric(st.metric, **st.metric_params)
    assert list(m.stat_names) == list(st.stat_names)
    value = m.evaluate(st.values.sum(0, keepdims=True), st.values.shape[0])[0]
    assert value == corpus.score
    assert rep.scores[metric] == corpus.score
    # the report line as sacrebleu formats it (width 2, long signature)
    expected = corpus.format(width=2, signature=ref_obj.get_signature().format())
    assert rep.text.strip() == expected
    return rep


# --- synthetic edge cases ------------------------------------------------------------


EDGE = [FIX / "edge.ref1", FIX / "edge.ref2"]


@pytest.mark.parametrize("metric", ["bleu", "chrf", "chrf++"])
@pytest.mark.parametrize("refs", [EDGE[:1], EDGE[1:], EDGE], ids=["ref1", "ref2", "both"])
def test_edge_cases_match_sacrebleu(metric, refs):
    # empty hypothesis, < 4 tokens, refs of different lengths, unicode punctuation,
    # HTML entities and <skipped>, trailing whitespace, CRLF reference, an empty reference,
    # Python-only whitespace (U+001C, U+0085, U+2028) inside lines
    check(FIX / "edge.hyp", refs, metric)


@pytest.mark.parametrize("tok", ["13a", "none", "char", "zh", "intl"])
@pytest.mark.parametrize("lc", [False, True])
def test_tokenizers_and_case(tok, lc):
    check(FIX / "edge.hyp", EDGE, "bleu", tokenize=tok, lowercase=lc)


@pytest.mark.parametrize("metric", ["chrf", "chrf++"])
def test_chrf_lowercase(metric):
    check(FIX / "edge.hyp", EDGE, metric, chrf_lowercase=True)
    # lowercase is BLEU's alone, as sacrebleu's -lc: chrF keeps case
    check(FIX / "edge.hyp", EDGE, metric, lowercase=True)


def test_tokenizer_13a_native_matches_sacrebleu():
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    lines = (
        cli_lines(FIX / "edge.hyp")
        + cli_lines(FIX / "edge.ref1")
        + [
            "a..b",
            "1.2.3",
            ",.,",
            "-1-2-",
            "x.,y",
            "&amp;lt;",
            "end 2020.",
            "3,",
            ".5",
            "<skipped><skipped>",
            "a-\nb",
            "!!!",
            "{[(<x>)]}",
            "'quote'",
            "5-",
            "٣.٣",
            "A.B.C.",
        ]
    )
    assert sigfast._native.tokenize_lines(lines, "13a") == [tok(x.rstrip()) for x in lines]


def test_all_empty_hypotheses(tmp_path):
    hyp = _write(tmp_path, "h.txt", "\n\n\n")
    rep = check(hyp, [_write(tmp_path, "r.txt", "a b\nc\nd e f\n")], "bleu")
    assert rep.scores["bleu"] == 0.0
    assert "BP = 0.000" in rep.text


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_identical_text(tmp_path):
    p = _write(tmp_path, "same.txt", "the quick brown fox jumps over the lazy dog\nanother fine line here\n")
    rep = check(p, [p], "bleu")
    assert rep.scores["bleu"] == 100.00000000000004  # sacrebleu's own value for identical text
    check(p, [p], "chrf++")


def test_several_metrics_aligned_like_cli():
    rep = score("mt", [str(p) for p in EDGE], str(FIX / "edge.hyp"), metric=["bleu", "chrf"])
    lines = rep.text.splitlines()
    assert len(lines) == 2 and lines[0].index(" = ") == lines[1].index(" = ")
    assert lines[0].lstrip().startswith("BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = ")
    assert lines[1].startswith("chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = ")
    assert rep.default_metric == "bleu"
    assert set(rep.stats) == {"bleu", "chrf"}


def test_metric_params_and_layout():
    rep = score("mt", str(EDGE[0]), str(FIX / "edge.hyp"), metric=["bleu", "chrf", "chrf++"])
    assert rep.stats["bleu"].metric == "bleu" and rep.stats["bleu"].metric_params == {"smooth": "exp"}
    assert rep.stats["bleu"].values.shape == (13, 10)
    assert rep.stats["chrf"].metric == "chrf"
    assert rep.stats["chrf"].metric_params == {"char_order": 6, "word_order": 0, "beta": 2}
    assert rep.stats["chrf"].values.shape == (13, 18)
    assert rep.stats["chrf++"].metric_params == {"char_order": 6, "word_order": 2, "beta": 2}
    assert rep.stats["chrf++"].values.shape == (13, 24)


def test_intl_categories_agree_with_regex():
    # tokenize="intl" uses unicodedata; sacrebleu uses the `regex` module. They must agree on
    # every character assigned in Python's Unicode database (unassigned ones are refused).
    regex = pytest.importorskip("regex")
    import unicodedata

    pn, pp, ps = regex.compile(r"\p{N}"), regex.compile(r"\p{P}"), regex.compile(r"\p{S}")
    for cp in range(0x110000):
        c = chr(cp)
        cat = unicodedata.category(c)
        if cat == "Cn":
            continue
        assert (cat[0] == "N") == bool(pn.match(c)), hex(cp)
        assert (cat[0] == "P") == bool(pp.match(c)), hex(cp)
        assert (cat[0] == "S") == bool(ps.match(c)), hex(cp)


def test_intl_refuses_unassigned(tmp_path):
    h = _write(tmp_path, "h.txt", "ok\nbad \U000e0080 char\n")
    r = _write(tmp_path, "r.txt", "ok\nbad char\n")
    with pytest.raises(FormatError, match=r"h\.txt, line 2: character U\+E0080"):
        score("mt", str(r), str(h), tokenize="intl")
    score("mt", str(r), str(h))  # 13a is exact for any character


# --- bad input -----------------------------------------------------------------------


def test_line_count_mismatch():
    with pytest.raises(FormatError) as e:
        score("mt", str(FIX / "short.ref"), str(FIX / "edge.hyp"))
    msg = str(e.value)
    # short.ref has 11 lines, edge.hyp 13: the first missing line is 12
    assert "short.ref, line 12" in msg and "has 11 lines" in msg and "edge.hyp has 13" in msg
    assert e.value.line == 12


def test_empty_files():
    with pytest.raises(FormatError, match=r"empty\.txt: the file is empty"):
        score("mt", str(FIX / "edge.ref1"), str(FIX / "empty.txt"))
    with pytest.raises(FormatError, match=r"empty\.txt: the file is empty"):
        score("mt", str(FIX / "empty.txt"), str(FIX / "edge.hyp"))


def test_undecodable_bytes():
    with pytest.raises(FormatError) as e:
        score("mt", str(FIX / "latin1.ref"), str(FIX / "latin1.hyp"))
    assert "latin1.hyp, line 3" in str(e.value) and "0xe9" in str(e.value) and "UTF-8" in str(e.value)
    assert e.value.line == 3


def test_bad_options(tmp_path):
    with pytest.raises(InputError, match="does not support tokenizer 'flores200'"):
        score("mt", str(EDGE[0]), str(FIX / "edge.hyp"), tokenize="flores200")
    with pytest.raises(FormatError, match="option tokenize=.* cannot be 'zh-x'"):
        score("mt", str(EDGE[0]), str(FIX / "edge.hyp"), tokenize="zh-x")
    with pytest.raises(InputError, match="unknown MT metric 'meteor'"):
        score("mt", str(EDGE[0]), str(FIX / "edge.hyp"), metric="meteor")
    with pytest.raises(FormatError, match="cannot read"):
        score("mt", str(tmp_path / "missing.txt"), str(FIX / "edge.hyp"))


# --- real data -----------------------------------------------------------------------


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")


def test_wmt21_de_en_all_systems_bleu():
    # 19 WMT21 de-en primary systems against reference A. (SOURCE.md lists no BLEU figures;
    # the reference here is sacrebleu 2.6.0 itself on the same files.)
    _need(WMT)
    ref = WMT / "newstest2021.de-en.ref.A.en"
    systems = sorted((WMT / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    assert len(systems) == 19
    r = [cli_lines(ref)]
    bleu = BLEU(references=r)  # caches the reference n-grams once
    sig = bleu.get_signature().format()
    for s in systems:
        rep = score("mt", str(ref), str(s), metric="bleu")
        h = cli_lines(s)
        corpus = bleu.corpus_score(h, None)
        assert rep.scores["bleu"] == corpus.score, s.name
        assert rep.stats["bleu"].values.sum(0).astype(np.int64).tolist() == [
            corpus.sys_len,
            corpus.ref_len,
            *corpus.counts,
            *corpus.totals,
        ]
        assert rep.text.strip() == corpus.format(width=2, signature=sig)


def test_wmt21_two_references_per_segment_stats():
    _need(WMT)
    refs = [WMT / "newstest2021.de-en.ref.A.en", WMT / "newstest2021.de-en.ref.B.en"]
    check(WMT / "system-outputs" / "newstest2021.de-en.hyp.Online-W.en", refs, "bleu")
    check(WMT / "system-outputs" / "newstest2021.de-en.hyp.UF.en", refs, "chrf++")
    check(WMT / "system-outputs" / "newstest2021.de-en.hyp.Facebook-AI.en", refs[:1], "chrf")


def test_ted_tokenized_and_detok():
    _need(TED)
    check(TED / "ted.sys1.detok.eng", [TED / "ted.ref.detok.eng"], "bleu")
    check(TED / "ted.sys2.eng", [TED / "ted.ref.eng"], "bleu", tokenize="none")


def test_report_equals_sacrebleu_command_line():
    # `python -m sacrebleu REF1 REF2 -i SYS -m bleu chrf -f text` (sacrebleu 2.6.0; its default
    # width is 1 decimal) against the same report with width=1, byte for byte; and -w 2 against
    # the default width.
    import subprocess
    import sys

    for width, extra in ((1, []), (2, ["-w", "2"])):
        cmd = [
            sys.executable,
            "-m",
            "sacrebleu",
            *map(str, EDGE),
            "-i",
            str(FIX / "edge.hyp"),
            "-m",
            "bleu",
            "chrf",
            "-f",
            "text",
            *extra,
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        rep = score("mt", [str(p) for p in EDGE], str(FIX / "edge.hyp"), metric=["bleu", "chrf"], width=width)
        assert rep.text == out


def test_default_metrics_and_read_integration():
    # by default all four metrics are computed, so sigfast.read(..., metric=...) finds each
    rep = score("mt", str(EDGE[0]), str(FIX / "edge.hyp"))
    assert rep.default_metric == "bleu" and list(rep.stats) == ["bleu", "chrf", "chrf++", "ter"]
    assert [ln.split("|")[0].strip() for ln in rep.text.splitlines()] == ["BLEU", "chrF2", "chrF2++", "TER"]
    st = sigfast.read(str(EDGE[0]), [str(FIX / "edge.hyp"), str(EDGE[1])], format="mt", metric="chrf++")
    assert st.metric == "chrf" and len(st.stat_names) == 24
