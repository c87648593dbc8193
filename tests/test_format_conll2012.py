"""CoNLL-2012 coreference scored as scorer.pl v8.01 scores it (MUC, B³, CEAFm, CEAFe, BLANC), LEA as coval.

The expected outputs in tests/data/coref/expected/ are the reference scorers' own, recorded by
``scripts/coref_reference_outputs.py`` (commits and commands in expected/SCORER.txt): scorer.pl's
reports byte for byte (its first line names its own path; sigfast's names sigfast, see
docs/divergences.md), coval's LEA numerators and denominators per document. The pairs are in
tests/data/coref/cases/ (hand-made: scripts/make_coref_cases.py) and tests/data/coref/ontogum/ (12 OntoGUM
documents and two systems made from them: scripts/make_coref_systems.py); SOURCE.md says how.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import formats
from sigfast.cli import main
from sigfast.exceptions import FormatError

DATA = Path(__file__).parent / "data" / "coref"
EXP = DATA / "expected"
CASES = sorted(p.stem for p in (DATA / "cases").glob("*.key"))
ONTOGUM = ("ontogum_strong", "ontogum_weak")


def files(case: str) -> tuple[Path, Path]:
    if case.startswith("ontogum_"):
        return DATA / "ontogum" / "key.conll", DATA / "ontogum" / f"{case.split('_', 1)[1]}.conll"
    return DATA / "cases" / f"{case}.key", DATA / "cases" / f"{case}.response"


def body(text: str) -> str:
    """A report without its first line (scorer.pl names its own path there, sigfast names sigfast)."""
    first, rest = text.split("\n", 1)
    assert first.startswith("version: 8.01 ")
    return rest


_NUM = re.compile(r"\d+\.\d+")


def same_report(got: str, want: str, several_documents: bool) -> None:
    """Byte for byte; over several documents, a float sum (B³, CEAFe) of scorer.pl may differ from sigfast's in
    its 15th digit: scorer.pl adds documents in Perl's hash order, which changes from run to run (sigfast prints
    the correctly rounded sum, one of the values scorer.pl prints; docs/divergences.md)."""
    if got == want or not several_documents:
        assert got == want
        return
    assert _NUM.sub("#", got) == _NUM.sub("#", want)
    for a, b in zip(_NUM.findall(got), _NUM.findall(want)):
        if a != b:
            assert len(a.replace(".", "")) >= 15 and float(a) == pytest.approx(float(b), rel=2e-15, abs=0), (a, b)


def test_the_cases_cover_what_the_parity_needs():
    assert len(CASES) + len(ONTOGUM) >= 10
    assert {"singletons", "nested", "split", "merge", "spurious", "missing", "empty", "multidoc"} <= set(CASES)
    assert "8.01" in (EXP / "SCORER.txt").read_text()


@pytest.mark.parametrize("case", CASES + list(ONTOGUM))
def test_totals_report_is_scorer_pl_byte_for_byte(case):
    key, rsp = files(case)
    rep = formats.score("conll2012", key, rsp)
    same_report(body(rep.text), body((EXP / f"{case}.all.none.txt").read_text()), len(rep.item_ids) > 1)


@pytest.mark.parametrize("case", ONTOGUM)
@pytest.mark.parametrize("metric", ["muc", "blanc"])
def test_one_metric_report_is_scorer_pl_byte_for_byte(case, metric):
    key, rsp = files(case)
    rep = formats.score("conll2012", key, rsp, report=metric)
    same_report(body(rep.text), body((EXP / f"{case}.{metric}.none.txt").read_text()), True)


def _blocks(section: str) -> tuple[list[str], str]:
    """A metric's per-document blocks (each from its key's '====> ' line) and its totals."""
    docs, _, totals = section.partition("\n====== TOTALS =======\n")
    parts = re.split(r"(?m)^(?=====> )", docs)
    head = parts[0]
    # a document block is two entity dumps (key, response) and its scores: pair them up
    rest = parts[1:]
    blocks = ["".join(rest[i : i + 2]) for i in range(0, len(rest), 2)]
    return [head, *sorted(blocks)], totals


@pytest.mark.parametrize("case", CASES)
def test_per_document_report_is_scorer_pl_byte_for_byte(case):
    key, rsp = files(case)
    got = body(formats.score("conll2012", key, rsp, per_document=True).text)
    want = body((EXP / f"{case}.all.docs.txt").read_text())
    if case != "multidoc":
        assert got == want
        return
    # several documents: scorer.pl prints them in Perl's hash order, sigfast in key order; the same blocks
    g = got.split("\nMETRIC ")
    w = want.split("\nMETRIC ")
    assert len(g) == len(w) == 6
    for a, b in zip(g[1:], w[1:]):
        (ga, ta), (wa, tb) = _blocks(a), _blocks(b)
        assert ga == wa
        same_report(ta, tb, True)


def test_one_named_document_is_scorer_pl_byte_for_byte():
    key, rsp = files("multidoc")
    rep = formats.score("conll2012", key, rsp, document="(b/c/01); part 000")
    assert body(rep.text) == body((EXP / "multidoc.all.named.txt").read_text())
    assert rep.item_ids == ("(b/c/01); part 000",)
    with pytest.raises(FormatError, match="no document named 'nope'"):
        formats.score("conll2012", key, rsp, document="nope")


@pytest.mark.parametrize("case", [c for c in CASES if (EXP / "nosingletons" / f"{c}.all.none.txt").exists()])
def test_singletons_removed_is_scorer_pl_on_files_without_them(case):
    key, rsp = files(case)
    rep = formats.score("conll2012", key, rsp, singletons="remove")
    want = body((EXP / "nosingletons" / f"{case}.all.none.txt").read_text())
    same_report(body(rep.text), want, len(rep.item_ids) > 1)


#: coval reads '(1(0)' as '(0)' alone (its parser drops an opening followed by '('), and keeps a repeated
#: response mention that scorer.pl drops (sigfast scores LEA on scorer.pl's entities: docs/divergences.md)
_NOT_COVAL = ("glued", "repeated")


@pytest.mark.parametrize("case", [c for c in CASES if c not in _NOT_COVAL] + list(ONTOGUM))
def test_lea_is_coval_per_document(case):
    want = json.loads((EXP / "lea.json").read_text())[case]
    key, rsp = files(case)
    rep = formats.score("conll2012", key, rsp)
    lea = rep.stats["lea"].values
    assert len(want) == len(rep.item_ids)
    for i, name in enumerate(rep.item_ids):
        # coval names a document by its '#begin document' line's rest, as scorer.pl does
        w = next(v for k, v in want.items() if k.strip() == name.strip() or name.strip() in k)
        np.testing.assert_allclose(lea[i], w, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------------------------
# numbers: the sums of per-document statistics are the corpus numbers


_RPF = re.compile(r"Recall: \(([\d.e+-]+) / ([\d.e+-]+)\) [\d.]+%\tPrecision: \(([\d.e+-]+) / ([\d.e+-]+)\)")


def _totals(text: str) -> dict[str, list[float]]:
    """Each metric's corpus numerators and denominators as scorer.pl printed them."""
    out = {}
    for sec in text.split("\nMETRIC ")[1:]:
        m = sec.split(":", 1)[0]
        tot = sec.split("====== TOTALS =======")[1]
        rows = [[float(x) for x in g] for g in _RPF.findall(tot)]
        out[m] = rows[1] + rows[2] if m == "blanc" else rows[1]
        out["mentions"] = rows[0]
    return out


@pytest.mark.parametrize("case", CASES + list(ONTOGUM))
def test_summed_document_statistics_are_the_corpus_numbers(case):
    key, rsp = files(case)
    rep = formats.score("conll2012", key, rsp)
    want = _totals((EXP / f"{case}.all.none.txt").read_text())
    for m in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
        got = rep.stats[m].values.sum(0)
        # printed with 15 significant digits
        np.testing.assert_allclose(got, want[m], rtol=1e-14, atol=0)

    # the registry's metrics on the summed statistics: F1 = 2PR/(P+R) of the printed numbers
    def f1(nr, dr, np_, dp):
        r, p = (nr / dr if dr else 0), (np_ / dp if dp else 0)
        return 2 * p * r / (p + r) if p + r else 0

    for m in ("muc", "bcub", "ceafm", "ceafe"):
        assert rep.scores[m] == pytest.approx(f1(*want[m]), abs=1e-13)
    conll = (f1(*want["muc"]) + f1(*want["bcub"]) + f1(*want["ceafe"])) / 3
    assert rep.scores["conll_f1"] == pytest.approx(conll, abs=1e-13)
    blanc_line = (EXP / f"{case}.all.none.txt").read_text().split("BLANC: ")[1]
    assert f"F1: {int(rep.scores['blanc'] * 10000) / 100:.15g}%" in blanc_line.split("\n")[0]


def test_each_document_alone_is_its_row():
    key, rsp = files("multidoc")
    rep = formats.score("conll2012", key, rsp)
    for i, name in enumerate(rep.item_ids):
        one = formats.score("conll2012", key, rsp, document=name)
        for m, st in rep.stats.items():
            np.testing.assert_array_equal(one.stats[m].values[0], st.values[i])


def test_item_scores_are_each_documents_scores():
    key, rsp = files("ontogum_weak")
    rep = formats.score("conll2012", key, rsp)
    muc = rep.stats["muc"]
    v = muc.values
    r, p = v[:, 0] / v[:, 1], np.divide(v[:, 2], v[:, 3], out=np.zeros(len(v)), where=v[:, 3] > 0)
    f = np.divide(2 * p * r, p + r, out=np.zeros(len(v)), where=(p + r) > 0)
    np.testing.assert_allclose(muc.item_scores(), f, rtol=1e-15)


# ------------------------------------------------------------------------------------------------
# the command line, significance and options


def test_cli_score_prints_the_report(capsys):
    key, rsp = files("ontogum_strong")
    assert main(["score", "-f", "conll2012", str(key), str(rsp)]) == 0
    out = capsys.readouterr().out
    assert body((EXP / "ontogum_strong.all.none.txt").read_text()) in out


def test_compare_two_systems_on_the_conll_f1():
    key, a, b = DATA / "ontogum" / "key.conll", DATA / "ontogum" / "strong.conll", DATA / "ontogum" / "weak.conll"
    st = sigfast.read(str(key), [str(a), str(b)], format="conll2012")
    assert st.metric == "conll_f1" and st.n_items == 12
    r = sigfast.paired_bootstrap(st, n_resamples=999, seed=1)
    sa = formats.score("conll2012", key, a).scores["conll_f1"]
    sb = formats.score("conll2012", key, b).scores["conll_f1"]
    assert (r.score_x, r.score_y) == (pytest.approx(sa, abs=1e-12), pytest.approx(sb, abs=1e-12))
    assert 0 < r.pvalue <= 1


def test_cluster_doc_groups_the_parts():
    key, rsp = files("multidoc")
    st = sigfast.read(str(key), [str(rsp), str(rsp)], format="conll2012", cluster="doc")
    assert st.provenance["clusters"] == ("a", "a", "b/c/01", "b/c/01", "d")


def test_documents_as_items_sum_their_parts():
    key, rsp = files("multidoc")
    parts = formats.score("conll2012", key, rsp)
    docs = formats.score("conll2012", key, rsp, items="document")
    assert docs.item_ids == ("a", "b/c/01", "d") and docs.text == parts.text and docs.scores == parts.scores
    for m, st in docs.stats.items():
        p = parts.stats[m].values
        np.testing.assert_array_equal(st.values, np.stack([p[0] + p[1], p[2] + p[3], p[4]]))


def test_options_of_the_other_measure_are_refused():
    from sigfast.exceptions import InputError

    key, rsp = files("multidoc")
    with pytest.raises(InputError, match="option report applies to measure=scorer"):
        formats.score("conll2012", key, rsp, measure="arcs", report="muc")
    with pytest.raises(InputError, match="option criterion applies to measure=arcs"):
        formats.score("conll2012", key, rsp, criterion="nominal")
    with pytest.raises(InputError, match="give one of them"):
        formats.score("conll2012", key, rsp, items="document", cluster="doc")


def test_arcs_stays_an_option():
    k = Path(__file__).parent / "data" / "analysis" / "coref_key.conll"
    r1 = Path(__file__).parent / "data" / "analysis" / "coref_r1.conll"
    rep = formats.score("conll2012", k, r1, measure="arcs")
    assert rep.default_metric == "f1" and rep.scores["precision"] == 1 / 2
    assert formats.score("conll2012", k, r1).default_metric == "conll_f1"


# ------------------------------------------------------------------------------------------------
# bad input: a clear error where scorer.pl dies, misreads or scores the wrong thing


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_bad_inputs(tmp_path):
    key, rsp = files("missing")
    lines = key.read_text().splitlines(keepends=True)
    # OntoGUM's GENTLE_poetry_road: a closing bracket of a chain that is not open (scorer.pl dies)
    bad = [ln.replace("\t0)\n", "\t9)\n", 1) if i == 2 else ln for i, ln in enumerate(lines)]
    p = _write(tmp_path, "open.key", "".join(bad))
    with pytest.raises(FormatError, match=r"open.key, line 3: document '\(missing\); part 000': a mention of chain 9"):
        formats.score("conll2012", p, rsp)
    # a field that is not coreference (a missing column)
    cut = [ln.rsplit("\t", 1)[0] + "\n" if i == 3 else ln for i, ln in enumerate(lines)]
    p = _write(tmp_path, "cut.key", "".join(cut))
    with pytest.raises(FormatError, match=r"cut.key, line 4: coreference field 'NN'"):
        formats.score("conll2012", p, rsp)
    # the same document name twice
    p = _write(tmp_path, "twice.key", "".join(lines) * 2)
    with pytest.raises(FormatError, match="also begins at line 1"):
        formats.score("conll2012", p, rsp)
    # a key document missing from the response, and token counts that differ
    mk, _ = files("multidoc")
    with pytest.raises(FormatError, match=r"document '\(a\); part 000' of the key .* is not in the response"):
        formats.score("conll2012", mk, rsp)
    short = [ln for i, ln in enumerate(lines) if i != 3]
    p = _write(tmp_path, "short.response", "".join(short))
    with pytest.raises(FormatError, match="27 token lines in the response but 28 in the key"):
        formats.score("conll2012", key, p)
    # more than 10 repeated response mentions: scorer.pl refuses to score
    rep = "".join(lines).replace("\t(0\n", "\t(0|(5)|(6)|(7)|(8)|(9)|(10)|(11)|(12)|(13)|(14)|(15)\n")
    dup = "".join(lines).replace("\t(0\n", "\t(0|(5)\n")
    p = _write(tmp_path, "many.response", rep.replace("(5)|", "(5)|(5)|(5)|(5)|(5)|(5)|(5)|(5)|(5)|(5)|(5)|(5)|"))
    k2 = _write(tmp_path, "many.key", dup)
    with pytest.raises(FormatError, match="repeated mentions"):
        formats.score("conll2012", k2, p)


def test_cli_errors_are_one_line(tmp_path, capsys):
    key, rsp = files("missing")
    p = _write(tmp_path, "x.response", rsp.read_text().replace("#end document\n", ""))
    assert main(["score", "-f", "conll2012", str(key), str(p)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no '#end document'" in err


def test_readme_coreference_example_prints_what_it_says(monkeypatch, capsys):
    """The README's worked comparison (its Coreference section) prints its comments."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Coreference\n", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    exec(compile(block, "README.md", "exec"), {})
    want = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    assert capsys.readouterr().out.splitlines() == want


def test_ontogum_files_as_distributed(shared_data, tmp_path):
    """OntoGUM's own files ('# begin document ' with an empty name, 3 columns, fields such as '(1(2)'): read
    as scorer.pl reads them; the one whose brackets do not pair up is an error naming its line (scorer.pl
    dies on it: "Detected the end of a mention [3](2) without begin (?,19)")."""
    import tarfile

    with tarfile.open(shared_data / "coreference" / "ontogum_conll" / "ontogum_conll.tar.gz") as tar:
        for name in ("GUM_news_worship", "GENTLE_poetry_road"):
            (tmp_path / f"{name}.conll").write_bytes(tar.extractfile(f"{name}.conll").read())
    one = tmp_path / "GUM_news_worship.conll"
    assert formats.detect_format(one) == "conll2012"
    rep = formats.score("conll2012", one, one)
    assert rep.item_ids == ("",) and rep.scores["muc"] == 1.0 and rep.scores["conll_f1"] == 1.0
    road = tmp_path / "GENTLE_poetry_road.conll"
    with pytest.raises(
        FormatError, match=r"GENTLE_poetry_road.conll, line 21: .*chain 3 closes here but was not opened"
    ):
        formats.score("conll2012", road, road)
