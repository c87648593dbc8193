"""POS tagging accuracy (sigfast.formats.pos).

There is no reference scorer for POS accuracy; the expected counts below were counted by hand
from the fixtures in tests/data/pos/ (each assertion says which tokens are wrong). Real data:
the CoNLL 2018 en_ewt outputs in shared/data, where the organisers' baseline kept the UDPipe
pre-processing tags (so it agrees 100% with the UDPipe blind input on UPOS and XPOS).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sigfast.formats as formats
from sigfast.exceptions import FormatError
from sigfast.formats import pos
from sigfast.metrics import get as get_metric

DATA = Path(__file__).resolve().parent / "data" / "pos"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"


def _check_stats(r) -> None:
    for name, st in r.stats.items():
        v = get_metric(st.metric).evaluate(st.values.sum(0, keepdims=True), st.values.shape[0])[0]
        assert v == r.scores[name], name


@pytest.mark.parametrize("ext", ["conll", "txt"])
def test_conll_and_text_layouts(ext):
    r = pos.score_pos(DATA / f"gold.{ext}", DATA / f"system.{ext}", train=DATA / "train.txt")
    # wrong: barks VBZ->NNS (sentence 1), Zorbl NNP->NN (sentence 3); New_York split at the last "_"
    assert r.stats["accuracy"].values.tolist() == [[3, 4], [3, 3], [0, 1]]
    assert r.stats["sentence_accuracy"].values.tolist() == [[0, 1], [1, 1], [0, 1]]
    # unseen in train.txt: barks (wrong), New_York (right), Zorbl (wrong)
    assert r.stats["oov_accuracy"].values.tolist() == [[0, 1], [1, 1], [0, 1]]
    assert r.scores["accuracy"] == 0.75
    assert r.default_metric == "accuracy"
    assert r.text.splitlines()[:3] == [
        "tokens: 8; sentences: 3",
        "token accuracy:  75.00% (6/8)",
        "sentence accuracy:  33.33% (1/3)",
    ]
    assert r.text.splitlines()[3].startswith("OOV accuracy:  33.33% (1/3 tokens unseen in ")
    _check_stats(r)


def test_conllu_upos_xpos():
    r = pos.score_pos(DATA / "gold.conllu", DATA / "system.conllu")
    # multiword token line 2-3 and empty node 4.1 are skipped; n't PART->ADV is wrong
    assert r.stats["accuracy"].values.tolist() == [[4, 5], [1, 1]]
    assert "oov_accuracy" not in r.stats
    x = pos.score_pos(DATA / "gold.conllu", DATA / "system.conllu", tag="xpos")
    assert x.stats["accuracy"].values.tolist() == [[5, 5], [0, 1]]  # Yes UH->RB
    c = pos.score_pos(DATA / "gold.conllu", DATA / "system.conllu", tag_column=5)
    assert c.stats["accuracy"].values.tolist() == x.stats["accuracy"].values.tolist()
    _check_stats(r)


def test_ten_columns_read_as_conllu(tmp_path):
    # CoNLL-X / CoNLL-U content under another name: FORM and UPOS (CPOSTAG) by default
    g, s = tmp_path / "g.conll", tmp_path / "s.conll"
    g.write_bytes((DATA / "gold.conllu").read_bytes())
    s.write_bytes((DATA / "system.conllu").read_bytes())
    assert pos.score_pos(g, s).stats["accuracy"].values.tolist() == [[4, 5], [1, 1]]


def test_registered():
    assert "pos" in formats.available()
    r = formats.score("pos", DATA / "gold.txt", DATA / "system.txt", sep="_", layout="text")
    assert r.scores["accuracy"] == 0.75


def test_real_ewt_baseline_keeps_udpipe_tags():
    if not EWT.is_dir():
        pytest.skip("shared/data is absent")
    udpipe = EWT / "blind_input" / "en_ewt-udpipe.conllu.gz"
    r = pos.score_pos(udpipe, EWT / "systems" / "conll18-baseline" / "en_ewt.conllu.gz")
    assert r.text.splitlines()[:2] == ["tokens: 25071; sentences: 1786", "token accuracy: 100.00% (25071/25071)"]
    h = pos.score_pos(udpipe, EWT / "systems" / "HIT-SCIR-18" / "en_ewt.conllu.gz")
    assert h.stats["accuracy"].values.sum(0).tolist() == [23886, 25071]
    _check_stats(h)
    # the gold file is segmented differently (raw-text task): a clear error, not a number
    with pytest.raises(FormatError, match="sentence 3 has 3 tokens but 9 in the gold file"):
        pos.score_pos(EWT / "gold" / "en_ewt.conllu.gz", EWT / "systems" / "HIT-SCIR-18" / "en_ewt.conllu.gz")


def _w(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


def test_bad_input(tmp_path):
    g = DATA / "gold.conll"
    with pytest.raises(FormatError, match=r"gold.conll, line 11: the gold file has 3 sentences and the system file 2"):
        two = "The\tDT\ndog\tNN\nbarks\tNNS\n.\t.\n\nNew_York\tNNP\nis\tVBZ\nbig\tJJ\n"
        pos.score_pos(g, _w(tmp_path, "s1.txt", two))
    with pytest.raises(FormatError, match=r"s2.txt, line 2: token 'cat' where the gold file \(line 2\) has 'dog'"):
        pos.score_pos(g, _w(tmp_path, "s2.txt", "The\tDT\ncat\tNN\nbarks\tNNS\n.\t.\n\nNew_York\tNNP\n"))
    with pytest.raises(FormatError, match=r"s3.txt, line 2: 1 columns where the first line has 2"):
        pos.score_pos(g, _w(tmp_path, "s3.txt", "The\tDT\ndog\n"))
    with pytest.raises(FormatError, match=r"s4.txt: the file is empty"):
        pos.score_pos(g, _w(tmp_path, "s4.txt", "\n"))
    with pytest.raises(FormatError, match=r"s5.txt, line 2: byte 0xe9 at column 1 is not valid UTF-8"):
        pos.score_pos(g, _w(tmp_path, "s5.txt", b"The\tDT\n\xe9\tNN\n"))
    with pytest.raises(FormatError, match=r"s6.txt, line 1: token 'dog' is not word_TAG"):
        pos.score_pos(DATA / "gold.txt", _w(tmp_path, "s6.txt", "The_DT dog barks_VBZ ._.\n"), layout="text")
    with pytest.raises(FormatError, match=r"s7.txt, line 1: sentence 1 has 3 tokens but 4"):
        pos.score_pos(DATA / "gold.txt", _w(tmp_path, "s7.txt", "The_DT dog_NN barks_VBZ\n"))
    with pytest.raises(FormatError, match=r"s8.conllu, line 1: 3 TAB-separated columns"):
        pos.score_pos(DATA / "gold.conllu", _w(tmp_path, "s8.conllu", "1\tI\tI\n"))
    with pytest.raises(FormatError, match=r"no column 7 \(tag\)"):
        pos.score_pos(g, DATA / "system.conll", tag_column=7)


# ------------------------------------------------------------------------------- units


def _check_units(r) -> None:
    """The "tags" units are the accuracy statistics: correct units per sentence = its numerator."""
    acc = r.stats["accuracy"].values
    n = acc.shape[0]
    assert r.views == ("tags",)
    u = r.units("tags")
    assert u.keys is None and u.n_sentences == n
    assert len(u.gold) == len(u.system) == len(u.sentence) == len(u.forms)
    assert np.bincount(u.sentence[u.gold == u.system], minlength=n).tolist() == acc[:, 0].tolist()
    assert np.bincount(u.sentence, minlength=n).tolist() == acc[:, 1].tolist()
    sent = r.stats["sentence_accuracy"].values[:, 0]
    wrong = np.bincount(u.sentence[u.gold != u.system], minlength=n)
    assert (wrong == 0).astype(int).tolist() == sent.tolist()


@pytest.mark.parametrize(
    "gold,system,opts",
    [
        ("gold.conll", "system.conll", {}),
        ("gold.txt", "system.txt", {}),
        ("gold.conllu", "system.conllu", {}),
        ("gold.conllu", "system.conllu", {"tag": "xpos"}),
        ("gold.conllu", "system.conllu", {"tag_column": 3}),  # LEMMA as the tag
    ],
)
def test_units_are_the_accuracy(gold, system, opts):
    _check_units(pos.score_pos(DATA / gold, DATA / system, **opts))


def test_units_of_the_fixtures():
    u = pos.score_pos(DATA / "gold.txt", DATA / "system.txt").units()
    wrong = [(u.forms[i], u.gold[i], u.system[i], int(u.sentence[i])) for i in np.flatnonzero(u.gold != u.system)]
    assert wrong == [("barks", "VBZ", "NNS", 0), ("Zorbl", "NNP", "NN", 2)]
    assert "New_York" in u.forms  # split at the last "_"
    c = pos.score_pos(DATA / "gold.conllu", DATA / "system.conllu").units("tags")
    # multiword token 2-3 and empty node 4.1 are no units; its words ca and n't are
    assert c.forms == ("I", "ca", "n't", "go", ".", "Yes")
    assert [(g, s) for g, s in zip(c.gold, c.system) if g != s] == [("PART", "ADV")]


def _perturbed(gold: Path, out: Path, rate: float, seed: int) -> tuple[Path, int]:
    """The gold CoNLL-U with the UPOS of a random ``rate`` of its words changed; (file, changed)."""
    import gzip

    tags = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT", "SYM"]
    tags += ["SCONJ", "VERB", "X"]
    rng = np.random.default_rng(seed)
    lines, changed = [], 0
    for line in gzip.open(gold, "rt", encoding="utf-8").read().split("\n"):
        f = line.split("\t")
        if len(f) == 10 and f[0].isdigit() and rng.random() < rate:
            f[3] = str(rng.choice([t for t in tags if t != f[3]]))
            changed += 1
        lines.append("\t".join(f))
    out.write_text("\n".join(lines), encoding="utf-8")
    return out, changed


def test_units_on_ewt_gold_upos(tmp_path):
    # no CoNLL 2018 system has the gold words (raw-text task): taggers made from gold by
    # changing the UPOS of 3% and 8% of the words
    if not EWT.is_dir():
        pytest.skip("shared/data is absent")
    gold = EWT / "gold" / "en_ewt.conllu.gz"
    a, na = _perturbed(gold, tmp_path / "a.conllu", 0.03, 1)
    b, nb = _perturbed(gold, tmp_path / "b.conllu", 0.08, 2)
    p = formats.parse("pos", gold, [a, b])
    for k, changed in enumerate((na, nb)):
        _check_units(p.report(k))
        assert p.report(k).stats["accuracy"].values.sum(0).tolist() == [25096 - changed, 25096]
    u = p.units("tags")
    acc = p.statistics("accuracy").values
    assert u.n_units == 25096 and u.n_sentences == acc.shape[1] == 2077
    for k in range(2):
        assert int(u.correct(k).sum()) == int(acc[k, :, 0].sum())
        assert np.bincount(u.sentence[u.correct(k)], minlength=2077).tolist() == acc[k, :, 0].astype(int).tolist()


def test_units_on_ewt_real_taggers():
    # two real taggers against the UDPipe pre-processing they share words with (its tags are the
    # reference here, not gold)
    if not EWT.is_dir():
        pytest.skip("shared/data is absent")
    udpipe = EWT / "blind_input" / "en_ewt-udpipe.conllu.gz"
    systems = [EWT / "systems" / t / "en_ewt.conllu.gz" for t in ("HIT-SCIR-18", "LATTICE-18")]
    p = formats.parse("pos", udpipe, systems)
    assert p.names == ("HIT-SCIR-18", "LATTICE-18")
    acc = p.statistics("accuracy").values
    u = p.units("tags")
    for k in range(2):
        _check_units(p.report(k))
        assert int(u.correct(k).sum()) == int(acc[k, :, 0].sum())
        assert np.bincount(u.sentence[u.correct(k)], minlength=1786).tolist() == acc[k, :, 0].astype(int).tolist()
    assert int(u.correct(0).sum()) == 23886  # as test_real_ewt_baseline_keeps_udpipe_tags
