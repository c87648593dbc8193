"""Built-in metrics on summed statistics equal direct formulas and sacrebleu."""

from __future__ import annotations

import numpy as np
import pytest

import sigfast
from sigfast.metrics import get


def ev(name: str, s: list[float], n: int = 1, **p: float) -> float:
    return float(get(name, **p).evaluate(np.array([s], dtype=float), n)[0])


def test_direct_formulas() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        tp, extra_g, extra_gold = rng.integers(0, 100, 3)
        g, gold = tp + extra_g, tp + extra_gold
        p = tp / g if g else 0.0
        r = tp / gold if gold else 0.0
        assert ev("precision", [tp, g, gold]) == p
        assert ev("recall", [tp, g, gold]) == r
        f = 2 * p * r / (p + r) if p + r else 0.0
        assert ev("f1", [tp, g, gold]) == pytest.approx(f, rel=1e-15, abs=0)
        b = 0.5
        fb = (1 + b * b) * p * r / (b * b * p + r) if p + r else 0.0
        assert ev("fbeta", [tp, g, gold], beta=b) == pytest.approx(fb, rel=1e-15, abs=0)
        c, t = rng.integers(0, 50), rng.integers(50, 100)
        assert ev("accuracy", [c, t]) == c / t
        assert ev("error_rate", [c, t]) == c / t
        a_s, a_p, a, s = rng.integers(0, 20), rng.integers(20, 40), rng.integers(40, 60), rng.integers(20, 30)
        assert ev("aer", [a_s, a_p, a, s]) == pytest.approx(1 - (a_s + a_p) / (a + s), rel=1e-15)
        w = 0.5
        syn, semp, semr = c / t, tp / g if g else 0.0, tp / gold if gold else 0.0
        P, R = w * semp + (1 - w) * syn, w * semr + (1 - w) * syn
        assert ev("macro_f1_2008", [c, t, tp, g, gold]) == pytest.approx(2 * P * R / (P + R), rel=1e-14)
    assert ev("mean", [3.0], 4) == 0.75
    assert get("aer").higher_is_better is False and get("bleu").higher_is_better is True


def _sentences(rng: np.random.Generator, k: int) -> list[str]:
    vocab = "the a cat dog sat on mat , . house big small runs quickly blue".split()
    return [" ".join(rng.choice(vocab, rng.integers(0, 14))) for _ in range(k)]


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_bleu_equals_sacrebleu(smooth: str) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    from sacrebleu.metrics import BLEU

    rng = np.random.default_rng(1)
    for trial in range(30):
        hyps, refs = _sentences(rng, 6), _sentences(rng, 6)
        bleu = BLEU(smooth_method=smooth)
        want = bleu.corpus_score(hyps, [refs]).score
        stats = np.array(bleu._extract_corpus_statistics(hyps, [refs]), dtype=float)
        got = float(get("bleu", smooth=smooth).evaluate(stats.sum(0, keepdims=True), len(hyps))[0])
        assert got == want, (trial, got, want)
    del sacrebleu


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_equals_sacrebleu(word_order: int) -> None:
    pytest.importorskip("sacrebleu")
    from sacrebleu.metrics import CHRF

    rng = np.random.default_rng(2)
    for trial in range(30):
        hyps, refs = _sentences(rng, 5), _sentences(rng, 5)
        chrf = CHRF(word_order=word_order)
        want = chrf.corpus_score(hyps, [refs]).score
        stats = np.array(chrf._extract_corpus_statistics(hyps, [refs]), dtype=float)
        got = float(get("chrf", word_order=word_order).evaluate(stats.sum(0, keepdims=True), len(hyps))[0])
        assert got == want, (trial, got, want)


def test_statistics_scores_and_unknown_metric() -> None:
    st = sigfast.Statistics.from_counts(
        {"a": [[1, 2, 4]], "b": [[2, 2, 4]]}, stat_names=("tp", "guessed", "gold"), metric="f1"
    )
    assert st.scores() == {"a": pytest.approx(1 / 3), "b": pytest.approx(2 / 3)}
    with pytest.raises(sigfast.MetricError, match="unknown metric"):
        get("blue")
    with pytest.raises(sigfast.MetricError, match="needs 10 statistics"):
        st.scores("bleu")
