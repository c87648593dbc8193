"""The format layer: one reader per format, and a format owns its knowledge.

* every format reads ``.gz`` (a sweep over every registered format: the same report, scores and
  statistics from the gzip files as from the plain ones), drops a UTF-8 byte-order mark (the same
  sweep), and stops at a size limit with a clear error (an endless stream included);
* units come from the parse that scored: after ``parse`` no file is read again, whatever view;
* split units and punctuation rules are declared by the formats (``FormatSpec.split_unit``,
  ``FormatSpec.punct``), CoNLL-2012 coreference is a registered format;
* a format from another distribution (entry-point group ``sigfast.formats``) works with
  ``score``, ``compare`` and ``info``.
"""

from __future__ import annotations

import gzip
import json
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import pytest

import fuzzlib
import sigfast
import sigfast.formats as formats
from sigfast.cli import main
from sigfast.exceptions import FormatError, InputError

DATA = Path(__file__).resolve().parent / "data"
BOM = b"\xef\xbb\xbf"

# one (gold, system, options) case per registered format; gold "" = the system file holds the gold
CASES: dict[str, tuple[str, str, dict[str, str]]] = {
    fmt: (*fuzzlib.FORMAT_SEEDS[fmt], {}) for fmt in formats.available() if fmt in fuzzlib.FORMAT_SEEDS
}
# the files an option names are read by the same reader (EVALB's parameter file, POS's training file)
EXTRA = {
    "evalb": ("trees/gold.mrg", "trees/test.mrg", "prm", "trees/unlabeled.prm"),
    "pos": ("pos/gold.txt", "pos/system.txt", "train", "pos/train.txt"),
}


def _signature(rep: formats.ScoreReport) -> tuple:
    return (
        rep.text,
        rep.scores,
        {k: (st.stat_names, st.values.tolist()) for k, st in rep.stats.items()},
        rep.item_ids,
    )


def _copy(src: Path, dst: Path, transform) -> Path:
    dst.write_bytes(transform(src.read_bytes()))
    return dst


def _score_both(fmt: str, tmp_path: Path, transform, gold: str, system: str, opts: dict) -> tuple:
    def run(tf, tag: str) -> formats.ScoreReport:
        d = tmp_path / tag
        d.mkdir(exist_ok=True)
        o = dict(opts)
        for k, v in o.items():
            o[k] = str(_copy(DATA / v, d / Path(v).name, tf))
        s = _copy(DATA / system, d / Path(system).name, tf)
        g = _copy(DATA / gold, d / ("gold_" + Path(gold).name), tf) if gold else None
        # the display names differ between the two runs; compare everything but the paths
        rep = formats.score(fmt, g, s, **o)
        return rep

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = run(lambda b: b, "plain")
        other = run(transform, "other")
    return plain, other


def _without_paths(rep: formats.ScoreReport, root: Path) -> tuple:
    sig = _signature(rep)
    return (sig[0].replace(str(root / "plain"), "X").replace(str(root / "other"), "X"), *sig[1:])


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_every_format_reads_gzip(fmt, tmp_path):
    gold, system, opts = CASES[fmt]
    plain, gz = _score_both(fmt, tmp_path, gzip.compress, gold, system, opts)
    assert _without_paths(plain, tmp_path) == _without_paths(gz, tmp_path)


@pytest.mark.parametrize("fmt", sorted(EXTRA))
def test_option_files_read_gzip(fmt, tmp_path):
    gold, system, key, path = EXTRA[fmt]
    plain, gz = _score_both(fmt, tmp_path, gzip.compress, gold, system, {key: path})
    assert _without_paths(plain, tmp_path) == _without_paths(gz, tmp_path)


def test_gzip_sweep_covers_every_format_with_seed_files():
    # tests/test_fuzz.py::test_every_format_has_seed_files requires seed files of every format
    assert set(CASES) == set(formats.available()) & set(fuzzlib.FORMAT_SEEDS)


_BINARY = (".npy", ".parquet", ".eval")  # a byte-order mark is text's


@pytest.mark.parametrize("fmt", sorted(f for f in CASES if not CASES[f][1].endswith(_BINARY)))
def test_every_text_format_drops_a_byte_order_mark(fmt, tmp_path):
    gold, system, opts = CASES[fmt]
    plain, bom = _score_both(fmt, tmp_path, lambda b: BOM + b, gold, system, opts)
    assert _without_paths(plain, tmp_path) == _without_paths(bom, tmp_path)


def test_naacl_alignment_with_a_byte_order_mark(tmp_path):
    # issue 23: a BOM made the first link of a NAACL file unreadable as sentence 1 (AER 0.2857)
    g = _copy(DATA / "alignment/gold.naacl", tmp_path / "g.naacl", lambda b: BOM + b)
    s = _copy(DATA / "alignment/system.naacl", tmp_path / "s.naacl", lambda b: BOM + b)
    with pytest.warns(UserWarning):
        r = formats.score("alignment", g, s)
        plain = formats.score("alignment", DATA / "alignment/gold.naacl", DATA / "alignment/system.naacl")
    assert f"{r.scores['aer']:.4f}" == "0.1905" and r.scores == plain.scores


def test_size_limit_on_files_and_gzip(tmp_path, monkeypatch):
    p = tmp_path / "a.tsv"
    p.write_text("1\n" * 100)
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", "150")
    with pytest.raises(FormatError, match=r"larger than 150 bytes.*SIGFAST_MAX_FILE_BYTES"):
        sigfast.io.read_items(p)
    z = tmp_path / "z.tsv.gz"
    z.write_bytes(gzip.compress(b"1\n" * 100))  # small compressed, too large decompressed
    with pytest.raises(FormatError, match="once decompressed"):
        sigfast.io.read_items(z)
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", "lots")
    with pytest.raises(InputError, match="SIGFAST_MAX_FILE_BYTES"):
        sigfast.io.read_items(p)


def test_endless_stream_stops_with_an_error(tmp_path, monkeypatch, capsys):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    b = tmp_path / "b.tsv"
    b.write_text("1\n2\n")
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", str(1 << 20))
    assert main(["compare", "-f", "tsv", "/dev/zero", str(b), "-n", "10"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/zero: the input file is larger than 1,048,576 bytes" in err


def test_broken_gzip_names_the_file(tmp_path):
    p = tmp_path / "s.hyp"
    p.write_bytes(gzip.compress(b"a b c\n")[:-6])
    with pytest.raises(FormatError, match=r"s.hyp: the system file looks gzip-compressed but cannot be decompressed"):
        formats.score("mt", DATA / "mt/edge.ref1", p)


# ------------------------------------------------------------------------------------------------
# units from the one parse


VIEW_CASES = {f: c for f, c in CASES.items() if formats.spec(f).views}


@pytest.mark.parametrize("fmt", sorted(VIEW_CASES))
def test_units_come_from_the_parse_that_scored(fmt, tmp_path, monkeypatch):
    gold, system, _ = VIEW_CASES[fmt]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh = formats.parse(fmt, DATA / gold if gold else None, [DATA / system])
        expected = {v: fresh.units(v) for v in fresh.spec.views}
        parsed = formats.parse(fmt, DATA / gold if gold else None, [DATA / system])

    def no_read(*a, **k):
        raise AssertionError("a file was read again after scoring")

    import builtins

    import sigfast.formats._base as base

    monkeypatch.setattr(base, "read_file_bytes", no_read)
    monkeypatch.setattr(builtins, "open", no_read)
    for v in parsed.spec.views:
        u = parsed.units(v)
        assert u.gold.tolist() == expected[v].gold.tolist()
        assert [s.tolist() for s in u.systems] == [s.tolist() for s in expected[v].systems]


# ------------------------------------------------------------------------------------------------
# knowledge a format declares


def test_split_units_come_from_the_formats(tmp_path):
    from sigfast.studies import splits

    for s in formats.specs():
        assert s.split_unit in (*splits.UNITS, None), s.name
    assert formats.spec("conllu").split_unit == "sentence" and formats.spec("mt").split_unit == "line"
    corpus = tmp_path / "c.txt"
    corpus.write_text("".join(f"line {i}\n" for i in range(10)))
    r = splits.random_splits(corpus, None, n_splits=1, format="sacrebleu")  # an alias: mt's unit, line
    assert r.manifest["unit"] == "line" and r.manifest["n_units"] == 10
    with pytest.raises(InputError, match="format 'conll2012' declares no unit"):
        splits.random_splits(corpus, None, n_splits=1, format="conll2012")
    with pytest.raises(InputError, match="unknown format"):
        splits.random_splits(corpus, None, n_splits=1, format="nope")


def test_punctuation_rules_come_from_the_formats():
    from sigfast.analysis.units import PUNCT_RULES

    assert PUNCT_RULES["conllu"] == formats.spec("conllu").punct.rule
    assert {s.name for s in formats.specs() if s.punct.kind == "refuse"} >= {"alignment", "conll2012"}
    assert formats.spec("evalb").punct.kind == "none" and formats.spec("conll08").punct.views == ("las", "uas", "label")


def test_conll2012_is_a_registered_format(capsys):
    assert "conll2012" in formats.available()
    assert {formats.spec(a).name for a in ("conll12", "coref")} == {"conll2012"}
    assert main(["info"]) == 0
    assert "  conll2012: CoNLL-2012 coreference" in capsys.readouterr().out
    k, r1, r2 = (DATA / "analysis" / f for f in ("coref_key.conll", "coref_r1.conll", "coref_r2.conll"))
    # hand counts (tests/test_papers_tuggener.py): r1 P 1/2 R 1/3, r2 P 3/4 R 1
    p = formats.parse("conll2012", k, [r1, r2], measure="arcs")
    assert [r.scores["precision"] for r in p.reports] == [1 / 2, 3 / 4]
    assert [r.scores["recall"] for r in p.reports] == [1 / 3, 1.0]
    assert formats.detect_format(k) == "conll2012"


def test_conll2012_bad_inputs(tmp_path, capsys):
    k = DATA / "analysis" / "coref_key.conll"
    lines = k.read_text().splitlines()
    short = tmp_path / "short.conll"
    i = next(i for i, ln in enumerate(lines) if ln and not ln.startswith("#"))
    cols = lines[i].split()
    short.write_text("\n".join(lines[:i] + [" ".join(cols[:3] + cols[-1:])] + lines[i + 1 :]) + "\n")
    with pytest.raises(FormatError, match=rf"short.conll, line {i + 1}: CoNLL-2012 line has 4 columns"):
        formats.score("conll2012", k, short, measure="arcs")
    ragged = tmp_path / "ragged.conll"
    wide = " ".join(cols[:-1] + ["x", cols[-1]])  # one column more than the sentence's next line
    ragged.write_text("\n".join(lines[:i] + [wide] + lines[i + 1 :]) + "\n")
    with pytest.raises(FormatError, match="the sentence's earlier lines have"):
        formats.score("conll2012", k, ragged, measure="arcs")
    r1 = DATA / "analysis" / "coref_r1.conll"
    assert main(["oracle", "-f", "conll2012", str(k), str(r1), "--show-systems", "nope"]) == 2  # usage
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--show-systems does not apply to coreference mentions" in err


# ------------------------------------------------------------------------------------------------
# a format from another distribution

_TOY = '''
"""A toy format: one label per line in gold and system; accuracy per line."""
import numpy as np
from sigfast.formats import FormatSpec, ItemStats, Option, Punct, ScoreReport, UnitTable
from sigfast.formats._base import read_text, split_lines

def score(gold, system, *, upper=False):
    g, gname = read_text(gold, "gold")
    s, sname = read_text(system, "system")
    gl, sl = split_lines(g), split_lines(s)
    if upper:
        gl, sl = [x.upper() for x in gl], [x.upper() for x in sl]
    ok = np.array([a == b for a, b in zip(gl, sl)], dtype=np.float64)
    stats = {"accuracy": ItemStats("accuracy", ("correct", "total"), np.column_stack([ok, np.ones_like(ok)]))}
    def units(view):
        return UnitTable(view, np.array(gl, dtype=object), np.array(sl, dtype=object),
                         np.arange(len(gl)), tuple(gl), len(gl))
    return ScoreReport("toy", gname, sname, f"accuracy: {ok.mean():.4f}\\n", {"accuracy": float(ok.mean())},
                       stats, "accuracy", views=("labels",), unit_source=units)

def runs(folder):
    """A folder of .lab files, one per system."""
    return sorted(folder.glob("*.lab"))

SPECS = (FormatSpec(name="toy", description="one label per line", reference="none (a test plug-in)",
                    score=score, options=(Option("upper", bool, False, "compare upper-cased"),),
                    views=("labels",), metrics=("accuracy",), split_unit="line",
                    punct=Punct("form", "labels made only of punctuation"), runs=runs),)
'''


@pytest.fixture
def toy_plugin(tmp_path, monkeypatch):
    """The registry as it is with a distribution that declares ``toy = "toyfmt"`` in the group."""
    (tmp_path / "toyfmt.py").write_text(textwrap.dedent(_TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = EntryPoint(name="toy", value="toyfmt", group=formats.ENTRY_POINT_GROUP)
    import importlib.metadata as md

    real = md.entry_points

    def entry_points(**kw):
        if kw.get("group") == formats.ENTRY_POINT_GROUP:
            return (ep,)
        return real(**kw)

    monkeypatch.setattr(md, "entry_points", entry_points)
    monkeypatch.setattr(formats._registry, "_LOADED", dict(formats._registry._LOADED))
    monkeypatch.setattr(formats._registry, "_SCANNED", False)
    rng = np.random.default_rng(0)
    labels = [str(x) for x in rng.integers(0, 3, 60)]
    gold = tmp_path / "gold.lab"
    gold.write_text("\n".join(labels) + "\n")
    systems = []
    for name, p in (("a", 0.3), ("b", 0.1)):
        f = tmp_path / f"{name}.lab"
        f.write_text("\n".join(x if rng.random() > p else "9" for x in labels) + "\n")
        systems.append(f)
    return gold, systems


def test_a_format_from_an_entry_point(toy_plugin, capsys):
    gold, (a, b) = toy_plugin
    assert "toy" in formats.available()
    assert main(["info"]) == 0
    assert "  toy: one label per line [none (a test plug-in)]" in capsys.readouterr().out
    assert main(["score", "-f", "toy", str(gold), str(a), "-o", "upper=true"]) == 0
    out = capsys.readouterr().out
    acc = float(out.split()[-1])
    labels = gold.read_text().split()
    assert acc == pytest.approx(np.mean([x == y for x, y in zip(labels, a.read_text().split())]), abs=5e-5)
    assert main(["compare", "-f", "toy", str(gold), str(a), str(b), "-n", "2000", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res[0]["metric"] == "accuracy" and "format:toy" in res[0]["signature"]
    assert main(["compare", "--test", "mcnemar", "-f", "toy", str(gold), str(a), str(b), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["baseline"] == "a"
    assert main(["score", "-f", "toy", str(gold), str(a), "-o", "nope=1"]) == 1
    assert "format 'toy' has no option 'nope'" in capsys.readouterr().err
    # the declaration serves diff (with its punctuation rule) and split (its unit) too
    assert main(["diff", "-f", "toy", "--no-punct", str(gold), str(a), str(b)]) == 0
    assert "rule: labels made only of punctuation" in capsys.readouterr().out
    from sigfast.studies import splits

    r = splits.random_splits(gold, None, n_splits=1, format="toy")
    assert r.manifest["unit"] == "line" and r.manifest["n_units"] == 60
    # the format owns its folder layout: runs_in and every command read a folder of its runs by its declaration
    folder = gold.parent / "runs"
    folder.mkdir()
    for f in (a, b):
        (folder / f.name).write_bytes(f.read_bytes())
    assert formats.runs_in(folder, "toy") == [str(folder / "a.lab"), str(folder / "b.lab")]
    assert main(["info"]) == 0
    assert "a folder of runs: A folder of .lab files, one per system." in capsys.readouterr().out
    assert main(["compare", "-f", "toy", str(gold), str(a), str(b), "-n", "2000", "--json"]) == 0
    by_files = json.loads(capsys.readouterr().out)
    assert main(["compare", "-f", "toy", str(gold), str(folder), "-n", "2000", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_files


def test_a_broken_plugin_is_one_clear_error(toy_plugin, monkeypatch, tmp_path):
    (tmp_path / "toyfmt.py").write_text("SPECS = ('not a spec',)\n")
    import sys

    sys.modules.pop("toyfmt", None)
    with pytest.raises(InputError, match="entry point 'toy'.*expected FormatSpec declarations"):
        formats.spec("toy")
    sys.modules.pop("toyfmt", None)


# ------------------------------------------------------------------------------------------------
# bounded error messages


def test_error_messages_quote_a_huge_token_in_part(tmp_path, capsys):
    big = "x" * 1_000_000
    ner_gold = DATA / "chunk" / "ner_gold.txt"
    lines = ner_gold.read_text().split("\n")
    i = next(i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("-DOCSTART-"))
    cols = lines[i].split(" ")
    lines[i] = " ".join([big] + cols[1:])
    sys_file = tmp_path / "ner_sys.txt"
    sys_file.write_text("\n".join(lines))
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"0.5\n{big}\n0.7\n")
    pharaoh = tmp_path / "a.pharaoh"
    pharaoh.write_text(f"0-0 1-{big}\n\n\n\n")
    digits = tmp_path / "d.pharaoh"  # a number too long for int(): an error, not "internal error"
    digits.write_text(f"0-0 1-{'1' * 1_000_000}\n\n\n\n")
    naacl = tmp_path / "d.naacl"
    naacl.write_text(f"{'1' * 1_000_000} 1 1\n")
    conllx = tmp_path / "s.conllx"
    conllx.write_text(
        (DATA / "dependency" / "basic.sys.conllx").read_text().replace("\tcat\t", f"\t{big}\t", 1), encoding="utf-8"
    )
    runs = [
        ["score", "-f", "ner", str(ner_gold), str(sys_file)],
        ["seeds", str(seeds), str(seeds)],
        ["mcnemar", str(seeds), str(seeds)],
        [
            "score",
            "-f",
            "alignment",
            "-o",
            "system_format=pharaoh",
            str(DATA / "alignment" / "gold.pharaoh"),
            str(pharaoh),
        ],
        ["score", "-f", "alignment", str(DATA / "alignment" / "gold.pharaoh"), str(digits)],
        ["score", "-f", "alignment", str(DATA / "alignment" / "gold.naacl"), str(naacl)],
        ["score", "-f", "conllx", "--strict", str(DATA / "dependency" / "basic.gold.conllx"), str(conllx)],
    ]
    for cmd in runs:
        assert main(cmd) == 1, cmd
        err = capsys.readouterr().err
        assert err.startswith("sigfast: error: ") and err.count("\n") == 1, cmd
        assert len(err) < 1000 and ("xxxxxxxxxx" in err or "1111111111" in err), (cmd, len(err))
        assert "internal error" not in err, cmd


def test_none_for_files_is_an_input_error():
    with pytest.raises(InputError, match="give the system files"):
        sigfast.read(None, None, format="tsv")
    with pytest.raises(InputError, match="must be a path"):
        formats.score("mt", None, DATA / "mt" / "edge.hyp")


def test_metaeval_tables_drop_a_byte_order_mark(tmp_path):
    from sigfast.metaeval import read_scores

    body = "system\ti1\ti2\ti3\nA\t1\t2\t3\nB\t2\t1\t0\n"
    plain, bom = tmp_path / "plain.tsv", tmp_path / "bom.tsv.gz"
    plain.write_text(body)
    bom.write_bytes(gzip.compress(BOM + body.encode()))
    a, b = read_scores(plain), read_scores(bom)
    assert (a.systems, a.items) == (b.systems, b.items) == (("A", "B"), ("i1", "i2", "i3"))
    assert np.array_equal(a.values, b.values)


def test_rouge_types_are_rouge_scores(tmp_path):
    rs = pytest.importorskip("rouge_score.rouge_scorer")
    ref, sys_ = DATA / "summarization" / "edge.ref", DATA / "summarization" / "edge.sys"
    rep = formats.score("rouge", ref, sys_, rouge_types="rouge9,rougeL")  # rouge-score knows rouge9
    docs = list(zip(ref.read_text().split("\n"), sys_.read_text().split("\n")))
    scorer = rs.RougeScorer(["rouge9"])
    want = [scorer.score(r, s)["rouge9"].fmeasure for r, s in docs[: len(rep.stats["rouge9"].values)]]
    assert rep.stats["rouge9"].values[:, 0].tolist() == pytest.approx(want, abs=0)
    for bad in ("rouge10", "rouge0", "rougeX"):  # rouge-score: "Invalid rouge type" / "requires positive n"
        with pytest.raises(InputError, match="rouge-score knows rouge1 to rouge9, rougeL and rougeLsum"):
            formats.score("rouge", ref, sys_, rouge_types=bad)
        with pytest.raises(ValueError):
            rs.RougeScorer([bad]).score("a b", "a b")


def test_numbers_too_long_for_int_are_read_as_text(tmp_path):
    # Python's int() refuses strings of more than 4,300 digits; a HEAD that long is a wrong head to the
    # scripts (compared as text), for scores and units alike
    big = "1" * 5000
    src = (DATA / "dependency" / "basic.sys.conllx").read_text().split("\n")
    f = src[0].split("\t")
    f[6] = big
    src[0] = "\t".join(f)
    s = tmp_path / "s.conllx"
    s.write_text("\n".join(src))
    gold = DATA / "dependency" / "basic.gold.conllx"
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        base = formats.score("conll07", gold, DATA / "dependency" / "basic.sys.conllx")
        rep = formats.score("conll07", gold, s)
        u = formats.parse("conll07", gold, [s, s]).units("las")
    assert rep.stats["uas"].values[:, 0].sum() == base.stats["uas"].values[:, 0].sum() - (
        base.units("uas").system[0] == base.units("uas").gold[0]
    )
    assert big in u.systems[0][0]


def test_system_names_drop_what_every_file_name_shares(tmp_path) -> None:
    """Common leading/trailing parts of the stems (cut at '.', '_', ' ') are dropped; '-' does not
    cut; one file keeps its stem; collisions fall back to longer names; NAME=PATH wins."""
    from sigfast.formats import named_systems, system_names

    wmt = [f"out/newstest2021.de-en.hyp.{s}.en" for s in ("Facebook-AI", "VolcTrans-AT", "VolcTrans-GLAT")]
    assert system_names(wmt) == ["Facebook-AI", "VolcTrans-AT", "VolcTrans-GLAT"]
    assert system_names(wmt[1:]) == ["VolcTrans-AT", "VolcTrans-GLAT"]  # '-' is part of a name
    assert system_names(wmt[:1]) == ["newstest2021.de-en.hyp.Facebook-AI"]
    assert system_names(["benepar_gum_news.mrg", "stanza_gum_news.mrg.gz"]) == ["benepar", "stanza"]
    assert system_names(["run.a.txt", "run.a.b.txt"]) == ["a", "a.b"]  # never empty
    assert system_names(wmt, shorten=False) == [
        f"newstest2021.de-en.hyp.{s}" for s in ("Facebook-AI", "VolcTrans-AT", "VolcTrans-GLAT")
    ]
    assert system_names(["AntNLP/en_ewt.conllu", "BOUN/en_ewt.conllu"]) == ["AntNLP", "BOUN"]
    # a short name an explicit NAME=PATH already takes: the unnamed files keep their longer names
    named, _ = named_systems(["UEdin=" + str(tmp_path / "x.txt"), "d/x.hyp.UEdin.en", "d/x.hyp.UF.en"])
    assert named == ["UEdin", "x.hyp.UEdin", "x.hyp.UF"]
    named, _ = named_systems(["base=" + str(tmp_path / "x.txt"), "d/x.hyp.UEdin.en", "d/x.hyp.UF.en"])
    assert named == ["base", "UEdin", "UF"]
