"""sacrebleu's ``zh`` and ``char`` BLEU tokenizers, and the ``ja-mecab`` /
``ko-mecab`` path through sacrebleu's own tokenizer objects.

Expected values come from sacrebleu 2.x itself (a test dependency, never
imported by the package): ``TokenizerZh`` / ``TokenizerChar`` applied to the
right-stripped line (as ``BLEU._preprocess_segment`` does), and
``BLEU(tokenize=...)._extract_corpus_statistics`` / ``corpus_score`` for the
statistics and the report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sigfast import _native
from sigfast.formats import score

pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

# Hand-made Chinese and mixed-script lines: punctuation (CJK, full-width and
# ASCII), digits (half and full width), decimals and thousands, dashes, Latin
# words, general punctuation (curly quotes, ellipsis, dashes) that sacrebleu's
# zh ranges also cover, supplementary-plane ideographs (which they do not),
# Python-only whitespace and leading/trailing blanks.
HYPS = [
    "我们今天去北京。",
    "  他说：“你好！”然后走了…… ",
    "价格是3.5元，共1,000件；2020-2021年",
    "ＡＢＣ１２３，全角字母和数字！？",
    "Hello, 世界! This is a test.",
    "混合mixed文本text（括号）[brackets] 《书名》",
    "\u3000全角空格\u3000开头",
    "𠀀𠀁 are Extension B; 丽 is compatibility",
    "数学 ∑∞≠ → ← ★☆ ✓ € 10%",
    "",
    "a.b,c 5.5 .5 5. ,5 - 5-",
    "日本語のテキスト、カタカナ、ひらがな。한국어 텍스트",
    "中文\x1c分隔\u2028换行",
]
REFS = [
    [
        "我们今天去了北京。",
        "他说：“你好！”",
        "价格是3.5元，一共1,000件；2020-2021年",
        "ABC123，全角字母和数字！",
        "Hello 世界! This is the test.",
        "混合 mixed 文本 text (括号) [brackets] 《书名》",
        "全角空格开头",
        "𠀀 are Extension B ; 丽 is compatibility",
        "数学 ∑ ∞ ≠ → ★ ✓ € 10 %",
        "空",
        "a . b , c 5.5",
        "日本語のテキスト、カタカナ。",
        "中文 分隔 换行",
    ],
    [
        "今天我们去北京了。",
        "“你好！”他说。",
        "3.5元的价格",
        "ＡＢＣ１２３",
        "世界，你好！",
        "混合文本",
        "",
        "扩展B",
        "数学符号",
        "",
        "a b c",
        "日本語",
        "中文",
    ],
]


@pytest.mark.parametrize("lines", [HYPS, REFS[0], REFS[1]], ids=["hyps", "ref1", "ref2"])
def test_zh_and_char_tokenize(lines):
    zh, ch = TokenizerZh(), TokenizerChar()
    assert _native.tokenize_lines(lines, "zh") == [zh(x.rstrip()) for x in lines]
    assert _native.tokenize_lines(lines, "char") == [ch(x.rstrip()) for x in lines]


def test_zh_character_ranges_over_all_code_points():
    # every code point, in context: between Latin letters, digits and punctuation
    zh = TokenizerZh()
    cps = [c for c in range(0x20, 0x30000) if not 0xD800 <= c <= 0xDFFF]
    lines = ["".join(f"x{chr(c)}5.{chr(c)}," for c in cps[k : k + 64]) for k in range(0, len(cps), 64)]
    assert _native.tokenize_lines(lines, "zh") == [zh(x.rstrip()) for x in lines]


@pytest.mark.parametrize("tok", ["zh", "char"])
@pytest.mark.parametrize("nrefs", [1, 2])
def test_bleu_statistics(tok, nrefs):
    refs = REFS[:nrefs]
    expected = BLEU(tokenize=tok)._extract_corpus_statistics(HYPS, refs)
    got = _native.bleu_stats(HYPS, refs, tok, 4)
    assert got.astype(np.int64).tolist() == [list(map(int, s)) for s in expected]


def _write(tmp_path: Path, name: str, lines: list[str]) -> str:
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("lc", [False, True])
def test_format_mt_zh_report(tmp_path, lc):
    hyp = _write(tmp_path, "hyp.zh", HYPS)
    refs = [_write(tmp_path, f"ref{k}.zh", r) for k, r in enumerate(REFS)]
    rep = score("mt", refs, hyp, metric="bleu", tokenize="zh", lowercase=lc)
    read = lambda p: [x.rstrip() for x in Path(p).read_text(encoding="utf-8").split("\n")[:-1]]
    bleu = BLEU(tokenize="zh", lowercase=lc)
    corpus = bleu.corpus_score(read(hyp), [read(r) for r in refs])
    assert rep.scores["bleu"] == corpus.score
    assert rep.text.strip() == corpus.format(width=2, signature=bleu.get_signature().format())


JA = ["今日は良い天気です。", "東京へ行きました", "テスト、テスト。"]
JA_REF = ["今日はいい天気です。", "東京に行きました", "テストです。"]
KO = ["안녕하세요 세계", "오늘 날씨가 좋습니다.", "테스트입니다"]
KO_REF = ["안녕 세계", "오늘은 날씨가 좋네요.", "테스트"]


@pytest.mark.parametrize(
    "tok, module, hyps, ref",
    [("ja-mecab", "MeCab", JA, JA_REF), ("ko-mecab", "mecab_ko", KO, KO_REF)],
)
def test_mecab_through_sacrebleu(tmp_path, tok, module, hyps, ref):
    # optional: needs `pip install "sacrebleu[ja]"` / `"sacrebleu[ko]"`
    pytest.importorskip(module)
    hyp, rf = _write(tmp_path, "hyp", hyps), _write(tmp_path, "ref", ref)
    rep = score("mt", rf, hyp, metric="bleu", tokenize=tok)
    bleu = BLEU(tokenize=tok)
    stats = bleu._extract_corpus_statistics(hyps, [ref])
    assert rep.stats["bleu"].values.astype(np.int64).tolist() == [list(map(int, s)) for s in stats]
    corpus = bleu.corpus_score(hyps, [ref])
    assert rep.text.strip() == corpus.format(width=2, signature=bleu.get_signature().format())
