"""The Porter stemmer and stemmed ROUGE / ROUGE-Lsum against NLTK and rouge-score.

Expected values are computed in each test by the reference implementations
(test dependencies, never imported by the package):
``nltk.stem.porter.PorterStemmer()`` (NLTK's default ``NLTK_EXTENSIONS``
mode, the one rouge-score uses), ``rouge_score.tokenize.tokenize(text,
stemmer)`` and ``rouge_score.rouge_scorer.RougeScorer(types,
use_stemmer=True).score`` / ``.score_multi``.

Word lists: every distinct token of the summarization and machine
translation data in ``../shared/data`` (both rouge-score's ``[a-z0-9]+``
tokens and raw whitespace-separated words), NLTK's own Porter test
vocabulary when the ``porter_test`` package of nltk_data is installed
(``python -m nltk.downloader porter_test``; not shipped here), and
generated words built from stems and the suffixes every rule looks at.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from sigfast import _native
from sigfast.formats import score

nltk_porter = pytest.importorskip("nltk.stem.porter")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
from rouge_score import tokenize as rs_tokenize  # noqa: E402

STEMMER = nltk_porter.PorterStemmer()
HEADLINE = Path("summarization") / "compare_mt_headline_sum"


def shared_words(root: Path) -> list[str]:
    words: set[str] = set()
    for sub in ("summarization", "machine_translation"):
        for p in sorted((root / sub).rglob("*")):
            if not p.is_file() or p.suffix in (".md", ".csv", ".tsv"):
                continue
            text = p.read_bytes().decode("utf-8", errors="replace")
            words.update(re.findall(r"[a-z0-9]+", text.lower()))
            words.update(w for w in text.split() if len(w) <= 40)
    return sorted(words)


def assert_stems(words: list[str]) -> None:
    got = _native.porter_stem(words)
    bad = [(w, STEMMER.stem(w), g) for w, g in zip(words, got) if STEMMER.stem(w) != g]
    assert not bad, f"{len(bad)} of {len(words)} differ, e.g. {bad[:10]}"


def test_porter_on_shared_data_vocabulary(shared_data: Path) -> None:
    words = shared_words(shared_data)
    assert len(words) > 50_000
    assert_stems(words)


def test_porter_on_nltk_test_vocabulary() -> None:
    nltk_data = pytest.importorskip("nltk.data")
    try:
        path = nltk_data.find("stemmers/porter_test/porter_vocabulary.txt")
    except LookupError:
        pytest.skip("nltk_data's porter_test is not installed (python -m nltk.downloader porter_test)")
    words = path.open().read().decode("utf-8").splitlines()
    assert_stems(words)


STEMS = [
    "",
    "a",
    "y",
    "b",
    "by",
    "sky",
    "tr",
    "hop",
    "fil",
    "conflat",
    "troubl",
    "siz",
    "cri",
    "gener",
    "analo",
    "oat",
    "privat",
    "sensibil",
    "formal",
    "electr",
    "rel",
    "cond",
    "contro",
    "agr",
    "yy",
    "syzyg",
    "ion",
    "adopt",
    "homolog",
    "communi",
    "feud",
    "hope",
    "vile",
    "digit",
    "valen",
    "hesit",
    "radic",
    "decis",
]
SUFFIXES = [
    "",
    "s",
    "es",
    "ies",
    "sses",
    "ss",
    "ied",
    "eed",
    "ed",
    "ing",
    "y",
    "ational",
    "tional",
    "enci",
    "anci",
    "izer",
    "bli",
    "abli",
    "alli",
    "entli",
    "eli",
    "ousli",
    "ization",
    "ation",
    "ator",
    "alism",
    "iveness",
    "fulness",
    "ousness",
    "aliti",
    "iviti",
    "biliti",
    "fulli",
    "logi",
    "icate",
    "ative",
    "alize",
    "iciti",
    "ical",
    "ful",
    "ness",
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "sion",
    "tion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
    "e",
    "ll",
    "lle",
    "at",
    "bl",
    "iz",
    "pp",
    "ss",
    "zz",
    "ll",
]


def test_porter_on_generated_words() -> None:
    words = {s + a + b for s, a, b in itertools.product(STEMS, SUFFIXES, SUFFIXES[:30])}
    rng = random.Random(11)
    letters = "aeiouybcdlmnprstwxz"
    for _ in range(20_000):
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) + rng.choice(SUFFIXES))
    words |= {w.upper() for w in list(words)[:2000]} | {"yyyy", "y" * 30, "ies", "ied", "sses", "alli" * 3}
    assert_stems(sorted(words))


def test_rouge_tokenize_with_stemming(shared_data: Path) -> None:
    d = shared_data / HEADLINE
    texts = [ln for p in sorted(d.glob("sum.*")) for ln in p.read_text(encoding="utf-8").split("\n")]
    # non-ASCII letters, including the two that lowercase to ASCII (U+0130, U+212A)
    texts += ["İstanbul KELVIN \u212aelvin Ünïcödé naïve café's 3.5%", "", "   ", "a-b_c\td\ne"]
    for stem in (False, True):
        expected = [rs_tokenize.tokenize(t, STEMMER if stem else None) for t in texts]
        assert _native.rouge_tokenize(texts, stem) == expected


def test_rouge_tokenize_over_code_points() -> None:
    cps = [c for c in range(0x80, 0x30000) if not 0xD800 <= c <= 0xDFFF]
    texts = ["".join(f"ab{chr(c)}" for c in cps[k : k + 256]) for k in range(0, len(cps), 256)]
    assert _native.rouge_tokenize(texts, False) == [rs_tokenize.tokenize(t, None) for t in texts]


def lines(path: Path) -> list[str]:
    text = path.read_bytes().decode("utf-8")
    out = text.split("\n")
    if text.endswith("\n"):
        out.pop()
    return out


TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def check_report(rep, preds: list[str], refs: list[list[str]], types: list[str]) -> None:
    """Per-document P/R/F of the report against rouge-score, bit for bit."""
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=True)
    if len(refs) == 1:
        expected = [scorer.score(t, p) for t, p in zip(refs[0], preds)]
    else:
        expected = [scorer.score_multi(list(ts), p) for ts, p in zip(zip(*refs), preds)]
    n = len(preds)
    for t in types:
        for field, suffix in (("fmeasure", ""), ("precision", "_precision"), ("recall", "_recall")):
            ref_vals = [float(getattr(e[t], field)) for e in expected]
            assert rep.stats[t + suffix].values[:, 0].tolist() == ref_vals, t + suffix
            mean = sum(ref_vals) / n
            # the mean over documents: summation order differs, so a few ulps apart
            assert abs(rep.scores[t + suffix] - mean) <= 1e-12 * max(1.0, abs(mean))


@pytest.mark.parametrize("system", ["sum.sys1.eng", "sum.sys2.eng"])
def test_headline_stemmed(shared_data: Path, system: str) -> None:
    d = shared_data / HEADLINE
    rep = score("rouge", str(d / "sum.ref.eng"), str(d / system), rouge_types=TYPES, use_stemmer=True)
    check_report(rep, lines(d / system), [lines(d / "sum.ref.eng")], TYPES)


def test_headline_stemmed_two_references(shared_data: Path) -> None:
    # the other system's output serves as a second reference
    d = shared_data / HEADLINE
    refs = [d / "sum.ref.eng", d / "sum.sys2.eng"]
    rep = score("rouge", [str(p) for p in refs], str(d / "sum.sys1.eng"), rouge_types=TYPES, use_stemmer=True)
    check_report(rep, lines(d / "sum.sys1.eng"), [lines(p) for p in refs], TYPES)


def test_multi_sentence_summaries_lsum(shared_data: Path, tmp_path: Path) -> None:
    # documents of 1-5 headlines each, sentences separated by " <n> "
    d = shared_data / HEADLINE
    rng = random.Random(5)
    ref, s1, s2 = (lines(d / f) for f in ("sum.ref.eng", "sum.sys1.eng", "sum.sys2.eng"))
    docs: list[tuple[str, str, str]] = []
    i = 0
    while i < 1200:
        k, j = rng.randint(1, 5), rng.randint(1, 5)
        docs.append((" <n> ".join(ref[i : i + k]), " <n> ".join(s1[i : i + j]), " <n> ".join(s2[i + 1 : i + k + 1])))
        i += max(k, j)
    paths = []
    for c, name in enumerate(("ref", "sys1", "ref2")):
        p = tmp_path / name
        p.write_text("\n".join(doc[c] for doc in docs) + "\n", encoding="utf-8")
        paths.append(p)
    as_nl = lambda xs: [x.replace(" <n> ", "\n") for x in xs]
    preds = as_nl([doc[1] for doc in docs])
    refs1, refs2 = as_nl([doc[0] for doc in docs]), as_nl([doc[2] for doc in docs])
    for ref_paths, refs in (([paths[0]], [refs1]), ([paths[0], paths[2]], [refs1, refs2])):
        rep = score(
            "rouge",
            [str(p) for p in ref_paths],
            str(paths[1]),
            rouge_types=TYPES,
            use_stemmer=True,
            sentence_sep=" <n> ",
        )
        check_report(rep, preds, refs, TYPES)
    # rougeLsum alone, and differing from rougeL once documents have several sentences
    rep = score("rouge", str(paths[0]), str(paths[1]), rouge_types=["rougeLsum"], sentence_sep=" <n> ")
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False)
    assert rep.stats["rougeLsum"].values[:, 0].tolist() == [
        scorer.score(t, p)["rougeLsum"].fmeasure for t, p in zip(refs1, preds)
    ]
    full = score("rouge", str(paths[0]), str(paths[1]), rouge_types=["rougeL", "rougeLsum"], sentence_sep=" <n> ")
    assert full.scores["rougeL"] != full.scores["rougeLsum"]


def test_native_errors() -> None:
    with pytest.raises(ValueError, match="unknown ROUGE type"):
        _native.rouge_scores(["a"], [["a"]], ["rougeQ"])
    with pytest.raises(ValueError, match="line-aligned"):
        _native.rouge_scores(["a", "b"], [["a"]], ["rouge1"])
    with pytest.raises(ValueError, match="at least one reference"):
        _native.rouge_scores(["a"], [], ["rouge1"])
