"""Format "rouge": ROUGE-N / ROUGE-L per document like rouge-score.

Expected numbers are produced in each test by the reference scorer itself,
rouge-score 0.1.2 from PyPI (`pip install rouge-score==0.1.2`, a test
dependency; never imported by the package):
``RougeScorer(types, use_stemmer=False).score(target, prediction)`` per
document (``score_multi(targets, prediction)`` with several references), on
the files split on "\\n". The corpus value is the mean of the per-document
values (``sum(values) / len(values)``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sigfast.exceptions import FormatError, InputError
from sigfast.formats import score
from sigfast.metrics import get as get_metric

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

FIX = Path(__file__).resolve().parent / "data" / "summarization"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
HEADLINE = SHARED / "summarization" / "compare_mt_headline_sum"


def lines(path: Path) -> list[str]:
    text = path.read_bytes().decode("utf-8")
    out = text.split("\n")
    if text.endswith("\n"):
        out.pop()
    return out


def check(
    sys_path: Path, ref_paths: list[Path], types=("rouge1", "rouge2", "rougeL"), use_stemmer=False, sentence_sep=None
):
    rep = score(
        "rouge",
        [str(p) for p in ref_paths],
        str(sys_path),
        rouge_types=list(types),
        use_stemmer=use_stemmer,
        sentence_sep=sentence_sep,
    )
    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer)
    preds = lines(sys_path)
    refs = [lines(p) for p in ref_paths]
    if sentence_sep is not None:
        # what a rouge-score user does: one sentence per line of a multi-line text
        preds = [x.rstrip().replace(sentence_sep, "\n") for x in preds]
        refs = [[x.rstrip().replace(sentence_sep, "\n") for x in r] for r in refs]
    if len(refs) == 1:
        expected = [scorer.score(t, p) for t, p in zip(refs[0], preds)]
    else:
        expected = [scorer.score_multi(list(ts), p) for ts, p in zip(zip(*refs), preds)]
    n = len(preds)
    for t in types:
        for field, suffix in (("fmeasure", ""), ("precision", "_precision"), ("recall", "_recall")):
            key = t + suffix
            st = rep.stats[key]
            ref_vals = [float(getattr(e[t], field)) for e in expected]
            # per-document values bit for bit
            assert st.values[:, 0].tolist() == ref_vals, key
            assert st.metric == "mean" and st.stat_names == ("score",)
            m = get_metric(st.metric, **st.metric_params)
            value = m.evaluate(st.values.sum(0, keepdims=True), n)[0]
            assert value == rep.scores[key]
            mean = sum(ref_vals) / n
            assert abs(value - mean) <= 1e-15 * max(1.0, abs(mean)), key
            assert f"{value:.6f}" == f"{mean:.6f}"
        line = next(x for x in rep.text.splitlines() if x.startswith(t + ":"))
        exp_p = sum(float(e[t].precision) for e in expected) / n
        exp_r = sum(float(e[t].recall) for e in expected) / n
        exp_f = sum(float(e[t].fmeasure) for e in expected) / n
        assert line == f"{t}: precision = {exp_p:.6f} recall = {exp_r:.6f} fmeasure = {exp_f:.6f}"
    return rep


def test_edge_cases_single_reference():
    # empty summary, punctuation-only, non-ASCII letters (dropped by rouge-score's tokenizer),
    # U+0130 and the Kelvin sign (lowercase to ASCII letters), repeated n-grams, an empty
    # reference, reversed word order for ROUGE-L
    check(FIX / "edge.sys", [FIX / "edge.ref"], ("rouge1", "rouge2", "rouge3", "rougeL"))


def test_edge_cases_two_references():
    check(FIX / "edge.sys", [FIX / "edge.ref", FIX / "edge.ref2"])


def test_layout_and_default():
    rep = score("rouge", str(FIX / "edge.ref"), str(FIX / "edge.sys"))
    assert rep.default_metric == "rouge1"
    assert set(rep.stats) == {f"rouge{t}{s}" for t in ("1", "2", "L") for s in ("", "_precision", "_recall")}
    assert rep.stats["rougeL"].values.shape == (10, 1)
    assert np.all((rep.stats["rouge1"].values >= 0) & (rep.stats["rouge1"].values <= 1))


@pytest.mark.parametrize("refs", [["edge.ref"], ["edge.ref", "edge.ref2"]], ids=["one-ref", "two-refs"])
def test_edge_cases_stemmed_with_lsum(refs):
    check(FIX / "edge.sys", [FIX / r for r in refs], ("rouge1", "rouge2", "rougeL", "rougeLsum"), use_stemmer=True)


def test_unknown_type():
    with pytest.raises(InputError, match="rougeLsum"):
        score("rouge", str(FIX / "edge.ref"), str(FIX / "edge.sys"), rouge_types=["rougeX"])
    with pytest.raises(InputError, match="sentence_sep"):
        score("rouge", str(FIX / "edge.ref"), str(FIX / "edge.sys"), sentence_sep="")
    with pytest.raises(InputError, match="unknown ROUGE type 'rouge0'"):
        score("rouge", str(FIX / "edge.ref"), str(FIX / "edge.sys"), rouge_types=["rouge0"])


def test_line_count_mismatch():
    with pytest.raises(FormatError) as e:
        score("rouge", str(FIX / "short.ref"), str(FIX / "edge.sys"))
    assert "short.ref, line 8" in str(e.value) and "has 7 lines" in str(e.value)
    assert e.value.line == 8


def test_empty_file():
    with pytest.raises(FormatError, match=r"empty\.txt: the file is empty"):
        score("rouge", str(FIX / "edge.ref"), str(FIX / "empty.txt"))


def test_undecodable_bytes():
    with pytest.raises(FormatError) as e:
        score("rouge", str(FIX / "cp1252.ref"), str(FIX / "cp1252.sys"))
    assert "cp1252.sys, line 2" in str(e.value) and "0x92" in str(e.value)


def test_headline_both_systems():
    if not HEADLINE.exists():
        pytest.skip(f"shared data not found: {HEADLINE}")
    for name in ("sum.sys1.eng", "sum.sys2.eng"):
        check(HEADLINE / name, [HEADLINE / "sum.ref.eng"])


def test_long_random_documents(tmp_path):
    # longer documents over a small vocabulary exercise ROUGE-L's LCS (computed in Rust) and
    # repeated n-grams; generated with a fixed seed, compared with rouge-score in check()
    rng = np.random.default_rng(20261122)
    vocab = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "Iota", "kappa,"]
    sys_lines, ref_lines = [], []
    for _ in range(30):
        sys_lines.append(" ".join(rng.choice(vocab, size=int(rng.integers(0, 120)))))
        ref_lines.append(" ".join(rng.choice(vocab, size=int(rng.integers(1, 120)))))
    s = tmp_path / "long.sys"
    r = tmp_path / "long.ref"
    s.write_text("\n".join(sys_lines) + "\n", encoding="utf-8")
    r.write_text("\n".join(ref_lines) + "\n", encoding="utf-8")
    check(s, [r], ("rouge1", "rouge2", "rouge4", "rougeL"))
