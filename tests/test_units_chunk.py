"""Units of the "conlleval" and "ner" formats: the same chunking as their scores.

The law: for every view, the correct units (system label == gold label) are the numerator of the
statistic, per system and per sentence: conlleval's correct chunks for ``spans``, its correct
tags for ``tags``. For ``spans`` also: gold-present units are the gold chunks and units with a
system label are the guessed chunks, per sentence and per type.

Why the units are read from the scorer's own chunking: the old reader
(``sigfast.analysis.units.read_units(format="bio", view="spans")``) had a chunker of its own. On
``tests/data/chunk/iobes.txt`` (gold and system columns split into two files) it found 5 gold
spans and 2 correct, where ``score("conlleval", scheme="iobes")`` counts 4 gold chunks and 3
correct: it closed a chunk after every ``E-`` and so split gold ``New B-LOC / York E-LOC /
City E-LOC`` into "New York" and "City" (conlleval reads ``E-`` as ``I-`` there: one chunk
"New York City", which the system also has). It also refused tags that conlleval reads
(``]-VP``, ``.``, ``X``, ``[-NP``, ``U-PER``...: "is not a BIO/BIOES tag"), as in the
random_*.txt fixtures below.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sigfast.formats as formats
from sigfast.formats import chunk

DATA = Path(__file__).resolve().parent / "data" / "chunk"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
CONLL03 = SHARED / "ner" / "conll2003_en_testb"
WNUT16 = SHARED / "ner" / "wnut16_test"


def _per_sentence(mask: np.ndarray, sentence: np.ndarray, n: int) -> list[int]:
    return np.bincount(sentence[mask], minlength=n).tolist()


def check_law(r, *, per_type_correct: bool = False) -> None:
    """Units of both views against the report's statistics, per sentence (see the module doc)."""
    assert r.views == ("tags", "spans")
    acc = r.stats["accuracy"].values
    f1 = r.stats["f1"].values
    n = acc.shape[0]

    t = r.units("tags")
    assert t.keys is None and t.n_sentences == n
    assert len(t.gold) == len(t.system) == len(t.sentence) == len(t.forms)
    assert _per_sentence(t.gold == t.system, t.sentence, n) == acc[:, 0].tolist()  # correct tags
    assert _per_sentence(np.ones(len(t.gold), bool), t.sentence, n) == acc[:, 1].tolist()  # tokens
    assert r.units().view == "tags"  # the default view

    s = r.units("spans")
    assert s.keys is not None and s.gold_present is not None and s.n_sentences == n
    assert len(set(s.keys)) == len(s.keys)
    assert [k[0] for k in s.keys] == s.sentence.tolist()
    ok = s.gold == s.system
    has = s.system != s.absent
    assert _per_sentence(ok, s.sentence, n) == f1[:, 0].tolist()  # correct chunks
    assert _per_sentence(has, s.sentence, n) == f1[:, 1].tolist()  # guessed chunks
    assert _per_sentence(s.gold_present, s.sentence, n) == f1[:, 2].tolist()  # gold chunks
    assert not np.any(s.gold[~s.gold_present] != s.absent)  # a system-only unit has gold "O"
    assert np.all(s.gold_present | has)  # every unit is a gold or a system chunk
    assert not np.any(ok & ~s.gold_present)
    for name, st in r.stats.items():  # per type: gold and guessed chunks by label
        if name.startswith("f1:"):
            label = chunk._type_label(name[3:])
            g, c = st.values.sum(0)[[2, 0]]
            assert int(np.sum(s.gold_present & (s.gold == label))) == g, name
            assert int(np.sum(s.system == label)) == st.values[:, 1].sum(), name
            if per_type_correct:
                assert int(np.sum(ok & (s.gold == label))) == c, name


# ------------------------------------------------------------------------------- fixtures

CASES = [
    ("iob1", {}),
    ("iob2_vs_iob1", {}),
    ("edge", {}),
    ("iobes", {}),
    ("iobes", {"scheme": "iobes"}),
    ("random_3col", {}),
    ("random_3col", {"scheme": "iobes"}),
    ("random_3col", {"raw": True, "o_tag": "X"}),
    ("random_2col", {}),
    ("random_2col", {"scheme": "bilou"}),
    ("raw", {"raw": True, "o_tag": "OUT"}),
    ("raw", {"raw": True}),
    ("tab", {"delimiter": r"\t"}),
    ("edge", {"docstart": "skip", "boundary": "-Y-"}),
    ("edge", {"delimiter": "[ ]"}),  # the line-by-line reader
]


@pytest.mark.parametrize("name,opts", CASES)
def test_fixture_units_are_the_statistics(name, opts):
    r = chunk.score_conlleval(None, DATA / f"{name}.txt", **opts)
    check_law(r)


@pytest.mark.parametrize("docstart", ["keep", "skip"])
def test_ner_fixture_units(docstart):
    r = chunk.score_ner(DATA / "ner_gold.txt", DATA / "ner_system.txt", docstart=docstart)
    check_law(r, per_type_correct=True)
    t = r.units("tags")
    assert ("-DOCSTART-" in t.forms) == (docstart == "keep")  # a counted token, or none


def test_iobes_units_agree_with_the_score():
    r = formats.score("conlleval", None, DATA / "iobes.txt", scheme="iobes")
    assert r.text.splitlines()[0] == "processed 9 tokens with 4 phrases; found: 4 phrases; correct: 3."
    s = r.units("spans")
    assert list(zip(s.keys, s.gold, s.system, s.forms)) == [
        ((0, 0, 1), "PER", "PER", "John"),
        ((0, 1, 2), "PER", "O", "Smith"),  # gold S-PER, the system's B-PER goes on
        ((0, 1, 3), "O", "PER", "Smith met"),  # ... to E-PER: a span gold does not have
        ((0, 3, 4), "PER", "PER", "Mary"),
        ((0, 5, 8), "LOC", "LOC", "New York City"),  # gold B-LOC E-LOC E-LOC is one chunk
    ]
    assert (int(s.gold_present.sum()), int(np.sum(s.gold == s.system))) == (4, 3)  # old reader: 5 and 2
    # token accuracy compares the original tags (S-PER vs B-PER is wrong), as the score does
    t = r.units("tags")
    assert list(zip(t.forms, t.gold, t.system)) == [
        ("John", "S-PER", "S-PER"),
        ("Smith", "S-PER", "B-PER"),
        ("met", "O", "E-PER"),
        ("Mary", "S-PER", "S-PER"),
        ("in", "O", "O"),
        ("New", "B-LOC", "B-LOC"),
        ("York", "E-LOC", "I-LOC"),
        ("City", "E-LOC", "E-LOC"),
        (".", "O", "O"),
    ]
    assert int(np.sum(t.gold == t.system)) == 6 == r.stats["accuracy"].values[0, 0]
    # conlleval's own reading (scheme "iob", iobes.expected: 4 gold, 2 found, 0 correct) does not
    # know S- and E-: it joins S-PER S-PER, and the system's chunk runs from B-PER to S-PER
    iob = formats.score("conlleval", None, DATA / "iobes.txt")
    check_law(iob)
    s2 = iob.units("spans")
    assert list(zip(s2.keys, s2.gold, s2.system, s2.forms)) == [
        ((0, 0, 2), "PER", "O", "John Smith"),
        ((0, 0, 4), "O", "PER", "John Smith met Mary"),
        ((0, 3, 4), "PER", "O", "Mary"),
        ((0, 5, 7), "LOC", "O", "New York"),
        ((0, 5, 8), "O", "LOC", "New York City"),
        ((0, 7, 8), "LOC", "O", "City"),
    ]


def test_views_declared():
    for name in ("conlleval", "ner", "chunk", "bio"):
        assert formats.spec(name).views == ("tags", "spans")
    assert formats.spec("pos").views == ("tags",)
    with pytest.raises(ValueError, match="has no view 'las'; its views: tags, spans"):
        formats.score("conlleval", None, DATA / "iob1.txt").units("las")


def _write(p: Path, lines: list[str]) -> Path:
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_type_errors_missed_and_spurious_chunks(tmp_path):
    f = _write(
        tmp_path / "t.txt",
        [
            "a B-PER B-LOC",  # a type error: one unit PER -> LOC
            "b I-PER I-LOC",
            "c O B-ORG",  # spurious: gold "O", not gold-present
            "d B-MISC O",  # missed: system "O"
            "",
            "e B-O B-O",  # a type named "O" (tags B-O) is not the "no chunk" label
            "f O B-O",
        ],
    )
    r = chunk.score_conlleval(None, f)
    check_law(r, per_type_correct=True)
    s = r.units("spans")
    assert list(zip(s.keys, s.gold, s.system, s.gold_present.tolist())) == [
        ((0, 0, 2), "PER", "LOC", True),
        ((0, 2, 3), "O", "ORG", False),
        ((0, 3, 4), "MISC", "O", True),
        ((1, 0, 1), "O'", "O'", True),
        ((1, 1, 2), "O", "O'", False),
    ]


def test_same_bounds_not_credited(tmp_path):
    # conlleval's state breaks inside the chunk when the types differ on a line that neither
    # starts nor ends it (prefix "."): same bounds, same type where they start, yet not correct
    # (an O after a "." tag does not end a chunk either: both run to the end of the input)
    f = _write(tmp_path / "t.txt", ["a B-A B-A", "b .-A .-A", "c .-A .-B", "d O O"])
    r = chunk.score_conlleval(None, f)
    assert r.stats["f1"].values.tolist() == [[0, 1, 1]]
    check_law(r)
    s = r.units("spans")
    assert list(zip(s.keys, s.gold, s.system)) == [((0, 0, 4), "A", "O"), ((0, 0, 4, chunk.UNCREDITED), "O", "A")]


def test_chunk_through_a_boundary_is_credited_where_it_starts(tmp_path):
    # an untyped chunk (B, then X) is not closed by the boundary (read as "O O"): it runs on into
    # the next sentence, and counts (gold, guessed, correct) for the sentence where it starts
    f = _write(tmp_path / "t.txt", ["a O O", "b B B", "c X X", "", "d X X", "e B-A B-A"])
    r = chunk.score_conlleval(None, f)
    assert r.stats["f1"].values.tolist() == [[1, 1, 1], [1, 1, 1]]
    check_law(r, per_type_correct=True)
    s = r.units("spans")
    assert list(zip(s.keys, s.gold, s.system, s.forms)) == [
        ((0, 1, 4), "", "", "b c d"),  # ends past sentence 0's last token
        ((1, 1, 2), "A", "A", "e"),
    ]


def test_raw_and_o_tag_labels(tmp_path):
    # raw (-r): with o_tag OUT, both "OUT" and "O" are outside tags, equal for token accuracy
    f = _write(tmp_path / "t.txt", ["a OUT O", "b NN NN", "c O OUT", "d 0 0", "e VB NN"])
    r = chunk.score_conlleval(None, f, raw=True, o_tag="OUT")
    check_law(r, per_type_correct=True)
    t = r.units("tags")
    assert list(zip(t.gold, t.system)) == [("OUT", "OUT"), ("NN", "NN"), ("OUT", "OUT"), ("0", "0"), ("VB", "NN")]
    assert r.stats["accuracy"].values.tolist() == [[4, 5]]


def test_empty_type_tags_compare_as_conlleval(tmp_path):
    # conlleval splits at the first hyphen; "B-" and "B-0" have the empty type, like "B"
    f = _write(tmp_path / "t.txt", ["a B-0 B", "b I- I", "c B-A-B B-A-B", "d O O"])
    r = chunk.score_conlleval(None, f)
    check_law(r)
    t = r.units("tags")
    assert list(zip(t.gold, t.system)) == [("B", "B"), ("I", "I"), ("B-A-B", "B-A-B"), ("O", "O")]


ODD_TAGS = ["O", "B-A", "I-A", "E-A", "S-A", "B-B", "I-B", "E-B", "S-B", "U-A", "L-A", "X", "X-A", "O-A", ".-A"]
ODD_TAGS += [".-B", "[", "]", "[-A", "]-A", "B", "I", "B-0", "I-", "B-O", "I-O", "O-O", "B-A-B", "0"]


@pytest.mark.parametrize("seed", range(4))
def test_law_on_random_odd_tags(tmp_path, seed):
    # seeded files of odd tags, boundaries and -DOCSTART- lines under every option that changes
    # the chunking: the law holds whatever conlleval makes of them
    rng = np.random.default_rng(seed)
    for it in range(40):
        tags = list(rng.choice(ODD_TAGS, size=int(rng.integers(1, 12)), replace=False))
        lines = []
        for _ in range(int(rng.integers(1, 50))):
            x = rng.random()
            if x < 0.1:
                lines.append("")
            elif x < 0.15:
                lines.append("-X- O O")
            elif x < 0.18:
                lines.append("-DOCSTART- O O")
            else:
                lines.append(f"w{rng.integers(4)} {rng.choice(tags)} {rng.choice(tags)}")
        lines.append("w O O")
        f = tmp_path / f"r{it}.txt"
        f.write_text("\n".join(lines) + ("\n" if rng.random() < 0.5 else ""), encoding="utf-8")
        for opts in ({}, {"scheme": "iobes"}, {"raw": True, "o_tag": "X"}, {"docstart": "skip"}):
            check_law(chunk.score_conlleval(None, f, **opts))


# ------------------------------------------------------------------------------- real data


def _sentences(path: Path) -> list[list[list[str]]]:
    text = path.read_text(encoding="utf-8")
    sep = "\t" if "\t" in text.split("\n", 1)[0] else " "
    out: list[list[list[str]]] = [[]]
    for line in text.split("\n"):
        if line.strip():
            out[-1].append(line.split(sep))
        elif out[-1]:
            out.append([])
    return [s for s in out if s]


def _chunks_iob(tags: list[str]) -> list[tuple[int, int, str]]:
    """Chunks of IOB1/IOB2 tags as conlleval reads them (an I- after O or another type starts one)."""
    out: list[tuple[int, int, str]] = []
    for i, t in enumerate(tags):
        if t == "O":
            continue
        p, typ = t.split("-", 1)
        prev = tags[i - 1] if i else "O"
        if p == "B" or prev == "O" or prev.split("-", 1)[1] != typ:
            out.append((i, i + 1, typ))
        else:
            a, _, _ = out[-1]
            out[-1] = (a, i + 1, typ)
    return out


def _encode(tags: list[str], scheme: str) -> list[str]:
    """Re-encode IOB tags (as conlleval chunks them) in IOB1 or IOBES."""
    new = ["O"] * len(tags)
    last_end = {}  # type -> end of its last chunk
    for a, b, typ in _chunks_iob(tags):
        if scheme == "iobes":
            if b - a == 1:
                new[a] = f"S-{typ}"
            else:
                new[a] = f"B-{typ}"
                new[a + 1 : b - 1] = [f"I-{typ}"] * (b - a - 2)
                new[b - 1] = f"E-{typ}"
        else:  # IOB1: B- only right after a chunk of the same type
            first = "B" if last_end.get(typ) == a else "I"
            new[a:b] = [f"{first}-{typ}"] + [f"I-{typ}"] * (b - a - 1)
        last_end[typ] = b
    return new


def _convert(src: Path, dst: Path, scheme: str, cols: tuple[int, ...] = (-1,)) -> Path:
    lines = []
    for sent in _sentences(src):
        fields = [list(f) for f in sent]
        for c in cols:
            enc = _encode([f[c] for f in fields], scheme)
            for f, t in zip(fields, enc):
                f[c] = t
        lines += [" ".join(f) for f in fields] + [""]
    dst.write_text("\n".join(lines), encoding="utf-8")
    return dst


def _key_labels(r) -> list[tuple]:
    s = r.units("spans")
    return list(zip(s.keys, s.gold.tolist(), s.system.tolist()))


@pytest.fixture(scope="module")
def conll03(tmp_path_factory):
    if not CONLL03.is_dir():
        pytest.skip("shared/data is absent")
    d = tmp_path_factory.mktemp("conll03")
    files = {"iob2": {n: CONLL03 / f"{n}.conll" for n in ("gold", "elmo_lstm_crf", "flair_lstm_crf")}}
    for scheme in ("iob1", "iobes"):
        files[scheme] = {n: _convert(p, d / f"{scheme}_{n}.txt", scheme) for n, p in files["iob2"].items()}
    return files


@pytest.mark.parametrize("scheme", ["iob2", "iob1", "iobes"])
@pytest.mark.parametrize("system", ["elmo_lstm_crf", "flair_lstm_crf"])
def test_conll2003_units_are_the_statistics(conll03, scheme, system):
    f = conll03[scheme]
    r = chunk.score_ner(f["gold"], f[system], scheme="iobes" if scheme == "iobes" else "iob")
    check_law(r, per_type_correct=True)
    # the re-encodings keep every chunk: the same counts and the same span units as IOB2
    base = chunk.score_ner(conll03["iob2"]["gold"], conll03["iob2"][system])
    assert r.stats["f1"].values.tolist() == base.stats["f1"].values.tolist()
    if scheme != "iob2":
        assert _key_labels(r) == _key_labels(base)
    correct = {"elmo_lstm_crf": 5213, "flair_lstm_crf": 5270}[system]  # SOURCE.md / conlleval
    s = r.units("spans")
    assert (int(np.sum(s.gold == s.system)), int(s.gold_present.sum())) == (correct, 5648)


@pytest.fixture(scope="module")
def wnut16(tmp_path_factory):
    if not WNUT16.is_dir():
        pytest.skip("shared/data is absent")
    d = tmp_path_factory.mktemp("wnut16")
    files = {"iob2": {n: WNUT16 / f"{n}.txt" for n in ("elmo_lstm_crf", "flair_lstm_crf")}}
    for scheme in ("iob1", "iobes"):  # both tag columns re-encoded
        files[scheme] = {n: _convert(p, d / f"{scheme}_{n}.txt", scheme, (-2, -1)) for n, p in files["iob2"].items()}
    return files


@pytest.mark.parametrize("system", ["elmo_lstm_crf", "flair_lstm_crf"])
@pytest.mark.parametrize("scheme", ["iob2", "iob1", "iobes"])
def test_wnut16_units_are_the_statistics(wnut16, system, scheme):
    # "token gold system" files; the elmo file serves as gold for both (same gold column)
    f = wnut16[scheme]
    r = chunk.score_conlleval(f["elmo_lstm_crf"], f[system], scheme="iobes" if scheme == "iobes" else "iob")
    check_law(r, per_type_correct=True)
    s = r.units("spans")
    assert int(np.sum(s.gold == s.system)) == {"elmo_lstm_crf": 1392, "flair_lstm_crf": 1506}[system]


def test_parsed_units_of_several_systems(conll03):
    f = conll03["iobes"]
    p = formats.parse("ner", f["gold"], [f["elmo_lstm_crf"], f["flair_lstm_crf"]], scheme="iobes")
    assert p.names == ("elmo", "flair")  # iobes_elmo_lstm_crf, iobes_flair_lstm_crf: the shared parts dropped
    acc = p.statistics("accuracy").values  # (systems, sentences, [correct, tokens])
    f1 = p.statistics("f1").values  # (systems, sentences, [correct, guessed, gold])
    t = p.units("tags")
    n = t.n_sentences
    assert n == acc.shape[1] == 3453
    for k in range(2):
        assert int(t.correct(k).sum()) == int(acc[k, :, 0].sum())
        assert _per_sentence(t.correct(k), t.sentence, n) == acc[k, :, 0].astype(int).tolist()
    s = p.units("spans")
    assert s.gold_present is not None
    assert int(s.gold_present.sum()) == 5648
    for k in range(2):
        c = s.correct(k)
        # a span only the other system proposed is "O" for gold and for system k: that agreement
        # is a correct unit of the united table, not a correct chunk; the chunks are the rest
        proposed = s.systems[k] != "O"
        assert np.array_equal(c & ~s.gold_present, ~s.gold_present & ~proposed)
        assert int(c[s.gold_present].sum()) == int(f1[k, :, 0].sum())
        assert _per_sentence(c & s.gold_present, s.sentence, n) == f1[k, :, 0].astype(int).tolist()
        assert _per_sentence(proposed, s.sentence, n) == f1[k, :, 1].astype(int).tolist()
        assert int(c.sum()) == int(f1[k, :, 0].sum()) + int(np.sum(~s.gold_present & ~proposed))
    # one unit per gold chunk and per span that either system alone proposed
    only = set()
    for k in range(2):
        u = p.report(k).units("spans")
        only.update(key for key, present in zip(u.keys, u.gold_present) if not present)
    assert s.n_units == 5648 + len(only)
