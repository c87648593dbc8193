"""Units of conllx / conll07 / conll08 / conll09 on real parser output: the correct units are the numerator.

The law, for every view and every format: per system and per sentence, the
number of correct units equals the numerator of the matching per-item
statistics (the counts the module reports, which the parity tests in
test_format_dependency.py and test_format_conll09.py check against eval.pl,
eval07.pl, eval08.pl and eval09.pl output), and the units are exactly the
scored things (the total column; for the semantic view the guessed and gold
counts too).

Data: 150 sentences of UD 2.2 English-EWT test (gold) and the CoNLL 2018
outputs of HIT-SCIR, UDPipe-Future and Stanford whose word forms equal gold,
rebuilt at test time from /work/shared/data (skipped when absent; the data is
not redistributed, see tests/data/dependency/README.md). They are written as
CoNLL-X files, and as CoNLL-2008 / CoNLL-2009 files whose syntax is the
parser's and whose semantic layer is derived from it (see ``_srl_rows``):
every verb is a predicate, its dependents are its arguments with their
relation as role (conll09: ``obl:tmod`` becomes the two-role cell
``obl|tmod``), so that predicates, senses and roles differ between systems
as their tags, features and trees do.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from _dependency_fixtures import EN_EWT, EN_EWT_GOLD, _read_conllu_words, en_ewt_available
from sigfast.formats import UnitTable, parse, spec

# Real parser output: some of its POS tags differ from the gold ones, which the scripts (and sigfast) only
# warn about ('word/pos mismatch'); the units law does not depend on the tags.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*the system (CPOSTAG|PPOSS|PPOS) '[^']*' differs from the gold '"
    ":sigfast.formats.dependency.DependencyWarning"
)

SYSTEMS = ("HIT-SCIR-18", "UDPipe-Future", "Stanford-18")
_N = 150
_WINDOW = 400

# view -> the statistics whose first column is its numerator
SYNTAX = {"las": "las", "uas": "uas", "label": "label_acc"}
SEMANTIC = {"sem": "sem_labeled_f1", "sem_unlabeled": "sem_unlabeled_f1"}


def _pick() -> tuple[list[list[list[str]]], list[list[list[list[str]]]]]:
    gold = _read_conllu_words(EN_EWT_GOLD)
    systems = [_read_conllu_words(EN_EWT / "systems" / s / "en_ewt.conllu.gz") for s in SYSTEMS]
    by_forms = []
    for sents in systems:
        d: dict[tuple[str, ...], list[list[str]]] = {}
        for s in sents:
            d.setdefault(tuple(c[1] for c in s), s)
        by_forms.append(d)
    picked_g: list[list[list[str]]] = []
    picked_s: list[list[list[list[str]]]] = [[] for _ in SYSTEMS]
    for sent in gold[:_WINDOW]:
        forms = tuple(c[1] for c in sent)
        matches = [d.get(forms) for d in by_forms]
        if len(forms) < 2 or any(m is None for m in matches):
            continue
        rows = [sent, *matches]
        # every field used must be one whitespace-free field for the scripts' split
        if any(len(c[k].split()) > 1 for r in rows for c in r for k in (1, 2, 3, 4, 5, 7)):  # type: ignore[union-attr]
            continue
        picked_g.append(sent)
        for k, m in enumerate(matches):
            # UDPipe-Future writes empty FEATS: `_` keeps the columns in place
            picked_s[k].append([[f or "_" for f in c] for c in m])  # type: ignore[union-attr]
        if len(picked_g) == _N:
            break
    assert len(picked_g) == _N
    return picked_g, picked_s


def _conllx(sents: list[list[list[str]]]) -> str:
    out = []
    for s in sents:
        for c in s:
            out.append("\t".join((*c[:8], "_", "_")) + "\n")
        out.append("\n")
    return "".join(out)


def _srl_rows(sent: list[list[str]], fmt: str, plain_senses: bool) -> list[tuple[str, list[str]]]:
    """(PRED, argument cells) per word: verbs are predicates, their dependents the arguments.

    Sense ``01`` for finite verbs, ``02`` otherwise (written ``1``/``2`` when
    ``plain_senses``, which both scripts read as the same senses); conll08:
    sense ``SU`` for a verb in a ``conj`` relation and role ``SU`` for
    ``punct`` dependents (skipped by eval08.pl unless -u), relation subtypes
    joined with ``-``; conll09: subtypes make a second role (``obl|tmod``).
    """
    preds = [c for c in sent if c[3] == "VERB"]
    out = []
    for c in sent:
        if c[3] == "VERB":
            sense = "01" if "VerbForm=Fin" in c[5] else "02"
            if plain_senses:
                sense = sense.lstrip("0")
            if fmt == "conll08" and c[7].startswith("conj"):
                sense = "SU"
            pred = f"{c[2]}.{sense}"
        else:
            pred = "_"
        cells = []
        for p in preds:
            if c[6] != p[0]:
                cells.append("_")
            elif fmt == "conll08":
                cells.append("SU" if c[7] == "punct" else c[7].replace(":", "-"))
            else:
                cells.append(c[7].replace(":", "|"))
        out.append((pred, cells))
    return out


def _conll0809(sents: list[list[list[str]]], fmt: str, system: bool) -> str:
    out = []
    for k, s in enumerate(sents):
        for c, (pred, cells) in zip(s, _srl_rows(s, fmt, system and k % 2 == 1)):
            wid, form, lemma, upos, xpos, feats, head, deprel = c[:8]
            if fmt == "conll08":
                cols = [wid, form, lemma, xpos, xpos, form, lemma, xpos, head, deprel, pred]
            else:
                filled = "_" if pred == "_" else "Y"
                cols = [wid, form, lemma, lemma, upos, upos, feats, feats, head, head, deprel, deprel, filled, pred]
            out.append("\t".join(cols + cells) + "\n")
        out.append("\n")
    return "".join(out)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, tuple[Path, list[Path]]]:
    """format -> (gold, [systems]) for conllx, conll08 and conll09, built from shared/data."""
    if not en_ewt_available():
        pytest.skip("shared/data (conll2018_en_ewt) is not beside the checkout")
    for s in SYSTEMS:
        if not (EN_EWT / "systems" / s / "en_ewt.conllu.gz").is_file():
            pytest.skip(f"shared/data has no {s} output")
    d = tmp_path_factory.mktemp("units_dep")
    gold, systems = _pick()
    out: dict[str, tuple[Path, list[Path]]] = {}
    for fmt in ("conllx", "conll08", "conll09"):
        paths = []
        for name, sents in (("gold", gold), *zip(SYSTEMS, systems)):
            p = d / f"{name}.{fmt}"
            text = _conllx(sents) if fmt == "conllx" else _conll0809(sents, fmt, name != "gold")
            p.write_text(text, encoding="utf-8", newline="\n")
            paths.append(p)
        out[fmt] = (paths[0], paths[1:])
    return out


def _per_sentence(mask: np.ndarray, sentence: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(sentence[mask], minlength=n)


def _check_table(t: UnitTable, stats: np.ndarray, semantic: bool) -> None:
    """One system's table: correct units == numerator per sentence, units == the scored things."""
    n = stats.shape[0]
    assert t.n_sentences == n
    assert len(t.gold) == len(t.system) == len(t.sentence) == len(t.forms)
    correct = t.gold == t.system
    np.testing.assert_array_equal(_per_sentence(correct, t.sentence, n), stats[:, 0])
    if semantic:
        assert t.keys is not None and len(set(t.keys)) == len(t.keys)
        assert t.gold_present is not None
        assert t.absent == "O"
        assert not (t.system[~t.gold_present] == "O").any()  # a proposed unit is never absent
        assert (t.gold[~t.gold_present] == "O").all() and not (t.gold[t.gold_present] == "O").any()
        # [correct, guessed, gold]
        np.testing.assert_array_equal(_per_sentence(t.system != "O", t.sentence, n), stats[:, 1])
        np.testing.assert_array_equal(_per_sentence(t.gold_present, t.sentence, n), stats[:, 2])
    else:
        assert t.keys is None
        # [correct, total]: the units are exactly the scoring tokens
        np.testing.assert_array_equal(_per_sentence(np.ones(len(t.gold), bool), t.sentence, n), stats[:, 1])


def _check_parsed(p, views: dict[str, str]) -> None:
    for view, metric in views.items():
        u = p.units(view)
        st = p.statistics(metric)
        n = st.n_items
        assert u.n_sentences == n and u.view == view
        present = np.ones(u.n_units, bool) if u.gold_present is None else u.gold_present
        for k, rep in enumerate(p.reports):
            values = rep.stats[metric].values
            _check_table(rep.units(view), values, view in SEMANTIC)
            # united: per sentence and in total, correct gold units == the numerator
            ok = u.correct(k) & present
            np.testing.assert_array_equal(_per_sentence(ok, u.sentence, n), values[:, 0])
            assert int(ok.sum()) == int(st.totals()[k, 0])
            if view in SYNTAX:
                assert int(u.correct(k).sum()) == int(st.totals()[k, 0])
                assert u.n_units == int(st.totals()[k, 1])
        if view in ("las", "uas"):
            assert u.group_name == "gold relation" and u.groups is not None
        assert list(u.sentence) == sorted(u.sentence)


@pytest.mark.parametrize(
    "fmt, opts",
    [
        ("conllx", {}),
        ("conllx", {"p": True}),
        ("conll07", {}),
        ("conll07", {"p": True}),
        ("conll07", {"d": True}),
    ],
)
def test_conllx_conll07_units(files, fmt, opts):
    gold, systems = files["conllx"]
    p = parse(fmt, gold, systems, **opts)
    assert p.names == ("HIT-SCIR-18", "UDPipe-Future", "Stanford-18")
    assert spec(fmt).views == ("las", "uas", "label")
    _check_parsed(p, SYNTAX)
    # the headline numerator, as the brief of Parsed has it
    las = p.units("las")
    for k in range(3):
        assert las.correct(k).sum() == p.statistics("las").totals()[k, 0]
    # systems differ, and not only on punctuation
    assert len({int(las.correct(k).sum()) for k in range(3)}) > 1


@pytest.mark.parametrize(
    "fmt, opts", [("conll08", {}), ("conll08", {"su": True}), ("conll09", {}), ("conll09", {"p": True})]
)
def test_conll08_conll09_units(files, fmt, opts):
    gold, systems = files[fmt]
    p = parse(fmt, gold, systems, **opts)
    assert spec(fmt).views == ("las", "uas", "label", "sem", "sem_unlabeled")
    _check_parsed(p, {**SYNTAX, **SEMANTIC})
    sem = p.units("sem")
    assert sem.gold_present is not None and (~sem.gold_present).any()
    # the derived semantics make the systems differ in senses and roles, not only in arcs
    wrong = sem.gold_present & (sem.systems[0] != sem.gold) & (sem.systems[0] != "O")
    assert wrong.any()
    # the same semantic keys name the same gold unit in every system's table
    gold_of = {}
    for rep in p.reports:
        t = rep.units("sem")
        for key, g, present in zip(t.keys, t.gold, t.gold_present):
            if present:
                assert gold_of.setdefault(key, g) == g


def test_conll09_two_role_cells_and_plain_senses(files):
    # conll09: `obl|tmod` cells give two gold units for one argument; senses written `1` for
    # gold `01` are right (eval09.pl compares digit senses as numbers)
    gold, systems = files["conll09"]
    t = parse("conll09", gold, systems[:1]).report(0).units("sem")
    cells = {}
    for key in t.keys:
        cells.setdefault(key[:3], []).append(key[3])
    assert any(len(v) > 1 for v in cells.values())
    senses = [
        (g, s)
        for (k, _p, a, _j), g, s, present in zip(t.keys, t.gold, t.system, t.gold_present)
        if a == 0 and k % 2 == 1 and present and s != "O"
    ]
    assert senses and all(g.startswith(".0") for g, _ in senses)
    assert sum(g == s for g, s in senses) > len(senses) // 2
