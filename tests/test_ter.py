"""TER statistics (``sigfast._native.ter_stats``) against sacrebleu's TER.

Expected numbers are produced in each test by the reference scorer itself,
sacrebleu 2.x from PyPI (a test dependency; never imported by the package):
``TER(normalized=..., no_punct=..., asian_support=...,
case_sensitive=...)._extract_corpus_statistics(hyps, refs)`` for the
per-segment ``[edits, average reference length]``, ``.corpus_score`` for the
corpus score and ``.sentence_score`` per segment; the tokenizer is
``sacrebleu.tokenizers.tokenizer_ter.TercomTokenizer``.

sacrebleu's TER takes about 12 s per WMT21 system and reference set here, so
every segment of the 19 WMT21 de-en systems (one and two references) and the
long synthetic sentences where TER's limits bite are compared with sacrebleu's
outputs recorded by ``scripts/ter_reference_outputs.py`` (its version and
command inside ``tests/data/peer/sacrebleu_ter.json.gz``); the edge cases, the
tokenizer sweep and the first WMT21 segments run sacrebleu live.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
import sacrebleu.metrics.ter as sb_ter  # noqa: E402
from sacrebleu.metrics import TER  # noqa: E402
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer  # noqa: E402

from sigfast import _native  # noqa: E402

WMT = Path("machine_translation") / "wmt21_newstest2021_de_en"
OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, v)) for v in itertools.product((False, True), repeat=4)]


def lines(path: Path) -> list[str]:
    """Lines as sacrebleu's command line reads them (split on "\\n", right-stripped)."""
    with open(path, encoding="utf-8", newline="\n") as f:
        return [ln.rstrip() for ln in f]


def ter_score(edits: float, ref_len: float) -> float:
    """sacrebleu's score from summed statistics (its documented special cases)."""
    if ref_len > 0:
        return 100 * (edits / ref_len)
    return 100.0 if edits > 0 else 0.0


def mine(hyps, refs, **opts) -> np.ndarray:
    out = _native.ter_stats(hyps, refs, **opts)
    assert out.shape == (len(hyps), 2) and out.dtype == np.float64
    return out


@contextlib.contextmanager
def memoized_sacrebleu():
    """sacrebleu's pairwise ``translation_edit_rate`` memoized (it is pure), so
    that corpus and sentence scores of the same pairs are computed once."""
    original = sb_ter.translation_edit_rate
    memo = functools.lru_cache(maxsize=None)(lambda h, r: original(list(h), list(r)))
    sb_ter.translation_edit_rate = lambda h, r: memo(tuple(h), tuple(r))
    try:
        yield
    finally:
        sb_ter.translation_edit_rate = original


def compare(hyps: list[str], refs: list[list[str]], **opts) -> None:
    """Per-segment statistics, corpus score and sentence scores against sacrebleu."""
    with memoized_sacrebleu():
        _compare(hyps, refs, **opts)


def _compare(hyps: list[str], refs: list[list[str]], **opts) -> None:
    ter = TER(**opts)
    expected = ter._extract_corpus_statistics(hyps, refs)
    got = mine(hyps, refs, **opts)
    for i, (e, g) in enumerate(zip(expected, got.tolist())):
        assert [float(x) for x in e] == g, (i, opts, hyps[i], [r[i] for r in refs])
    corpus = ter.corpus_score(hyps, refs)
    assert ter_score(sum(got[:, 0].tolist()), sum(got[:, 1].tolist())) == corpus.score
    for i, h in enumerate(hyps):
        s = ter.sentence_score(h, [r[i] for r in refs])
        assert (s.num_edits, s.ref_length) == (int(got[i, 0]), got[i, 1])
        assert ter_score(*got[i]) == s.score


# --- WMT21 de-en: every system, every segment, one and two references -------


@functools.cache
def recorded() -> dict:
    """sacrebleu's own outputs where running it live takes minutes (``scripts/ter_reference_outputs.py``)."""
    with gzip.open(Path(__file__).parent / "data" / "peer" / "sacrebleu_ter.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def test_wmt21_first_segments(shared_data: Path) -> None:
    """Live: the first 80 segments of two systems against sacrebleu run here."""
    d = shared_data / WMT
    ref_a = lines(d / "newstest2021.de-en.ref.A.en")[:80]
    ref_b = lines(d / "newstest2021.de-en.ref.B.en")[:80]
    for sysname in ("Online-W", "happypoet"):
        hyps = lines(d / "system-outputs" / f"newstest2021.de-en.hyp.{sysname}.en")[:80]
        compare(hyps, [ref_a, ref_b])
        compare(hyps, [ref_b])


def test_wmt21_all_systems(shared_data: Path) -> None:
    """Every segment of every system, two references and one, against sacrebleu's recorded
    per-segment statistics and corpus scores (its sentence scores were checked equal to the
    segment statistics when recorded)."""
    d = shared_data / WMT
    ref_a = lines(d / "newstest2021.de-en.ref.A.en")
    ref_b = lines(d / "newstest2021.de-en.ref.B.en")
    systems = sorted((d / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    assert len(systems) == 19
    runs = recorded()["wmt21_de_en"]
    assert sorted(runs) == [p.name for p in systems]
    assert recorded()["sentence_scores_equal_segment_statistics"] is True
    for p in systems:
        hyps = lines(p)
        for name, refs in (("AB", [ref_a, ref_b]), ("A", [ref_a])):
            want = runs[p.name][name]
            got = mine(hyps, refs)
            assert got.tolist() == want["stats"], (p.name, name)
            assert ter_score(sum(got[:, 0].tolist()), sum(got[:, 1].tolist())) == want["corpus"], (p.name, name)


# --- synthetic cases ---------------------------------------------------------

EDGE_HYPS = [
    "",
    "a",
    "   ",
    "The cat sat on the mat.",
    "the CAT sat on THE mat",
    "Hello, world!!! (really?) \"quoted\" it's John's 3.5-4 items, 1,000.5 &amp; &lt;tag&gt; &quot;x&quot;",
    "Dr. Smith's dog's toy's; e.g. U.S.A. -- well... 10-20 vs. 10 - 20 ,5 5, .5",
    "line one\n-continued and\nnext line",
    "中文分词测试。我们来了！",
    "日本語のテキスト、カタカナとひらがな。テスト",
    "混合 mixed 文本 text，全角（括号）ＡＢＣ１２３！？：；",
    "㈠㈡ ㍿ 豈 ︰︱ ⺀⺁ ㇀ 㐀㐁 \u3f22\u3f23 \u9fff\ua000 ・｡｢｣､･",
    "ΑΣ ΣΑΣ İstanbul straße STRASSE ǅ",
    "a b c d e f g h i j k l m n o p",
    "the the the the the the",
]
EDGE_REFS = [
    ["", "a", "", "The cat sat on the mat.", "the cat sat on the mat", "x"],
    ["Hello world", "hello , world", "", "The mat sat on the cat .", "THE CAT SAT", ""],
]


def _edge_corpus():
    hyps, refs_a, refs_b = [], [], []
    for h in EDGE_HYPS:
        for ra in EDGE_REFS[0] + EDGE_HYPS[::3]:
            hyps.append(h)
            refs_a.append(ra)
            refs_b.append(EDGE_REFS[1][len(hyps) % len(EDGE_REFS[1])])
    return hyps, refs_a, refs_b


@pytest.mark.parametrize("opts", ALL_OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "default")
def test_edge_cases_all_options(opts) -> None:
    hyps, ra, rb = _edge_corpus()
    compare(hyps, [ra], **opts)
    compare(hyps, [ra, rb], **opts)


def _permuted(rng: random.Random, ref: list[str], n_moves: int) -> list[str]:
    h = list(ref)
    for _ in range(n_moves):
        i = rng.randrange(len(h))
        k = rng.randint(1, 12)
        block = h[i : i + k]
        del h[i : i + k]
        j = rng.randrange(len(h) + 1)
        h[j:j] = block
    for _ in range(len(h) // 10):
        op = rng.random()
        i = rng.randrange(len(h))
        if op < 0.4:
            h[i] = rng.choice(["x", "y", "z", "the"])
        elif op < 0.7:
            del h[i]
        else:
            h.insert(i, rng.choice(["p", "q", "of"]))
    return h


def test_long_sentences_where_the_limits_bite() -> None:
    """Shift blocks longer than 10 words, shifts further than 50 words, the 1,000-candidate
    budget, and length ratios that widen the beam, against sacrebleu's recorded outputs (it takes
    half a minute on these; the recording confirmed the candidate budget runs out)."""
    rec = recorded()["long_sentences"]
    assert rec["most_shift_candidates"] >= 1000
    hyps, refs = rec["hyps"], rec["refs"]
    for key, rs in (("one_reference", [refs]), ("two_references", [refs, refs[::-1]])):
        got = mine(hyps, rs)
        assert got.tolist() == rec[key]["stats"], key
        assert ter_score(sum(got[:, 0].tolist()), sum(got[:, 1].tolist())) == rec[key]["corpus"], key


# --- the tokenizer over code points -------------------------------------------


@pytest.mark.parametrize(
    "opts",
    [o for o in ALL_OPTIONS if o["normalized"] or o["no_punct"]],
    ids=lambda o: "-".join(k for k, v in o.items() if v),
)
def test_tokenizer_over_cjk_and_punctuation_ranges(opts) -> None:
    cps = list(range(0x20, 0x250)) + list(range(0x2000, 0x4000)) + list(range(0xF900, 0x10000))
    cps = [c for c in cps if not 0xD800 <= c <= 0xDFFF]
    chunks = []
    for k in range(0, len(cps), 48):
        part = "".join(chr(c) + ("a.5, 's " if i % 3 == 0 else "") for i, c in enumerate(cps[k : k + 48]))
        chunks.append(part)
    tok = TercomTokenizer(**opts)
    expected = [tok(c.rstrip()) for c in chunks]
    assert _native.ter_tokenize(chunks, **opts) == expected


def test_errors() -> None:
    with pytest.raises(ValueError, match="at least one reference"):
        _native.ter_stats(["a"], [])
    with pytest.raises(ValueError, match="line-aligned"):
        _native.ter_stats(["a", "b"], [["a"]])
    # deterministic across thread counts
    hyps, ra, rb = _edge_corpus()
    assert (_native.ter_stats(hyps, [ra, rb], threads=1) == _native.ter_stats(hyps, [ra, rb], threads=2)).all()
