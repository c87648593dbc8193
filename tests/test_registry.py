"""One format layer, one metric registry, one error contract.

* Every format rejects an unknown or ill-typed option with a FormatError that
  lists the valid ones, from Python and as a one-line CLI error (exit 1).
* Every metric rejects an invalid parameter with MetricError (never a panic).
* Every native error arrives as a SigfastError subclass.
* CoNLL-U units and scores agree on real raw-text systems: the correct
  units are conll18_ud_eval's numerators (the other formats' laws are in
  test_units_*.py).
"""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import _native, formats, metrics
from sigfast.cli import main
from sigfast.exceptions import FormatError, InputError, MetricError, SigfastError

DATA = Path(__file__).parent / "data"


def test_every_format_is_declared_once_and_lazily() -> None:
    specs = formats.specs()
    names = [s.name for s in specs]
    assert len(names) == len(set(names)) >= 15
    every = names + [a for s in specs for a in s.aliases]
    assert len(every) == len(set(every))
    for s in specs:
        assert formats.spec(s.name) is s
        for a in s.aliases:
            assert formats.spec(a) is s
        assert s.reference and s.description


@pytest.mark.parametrize("fmt", [s.name for s in formats.specs()])
def test_unknown_option_is_a_format_error_listing_the_valid_ones(fmt: str, tmp_path: Path, capsys) -> None:
    s = formats.spec(fmt)
    with pytest.raises(FormatError, match=f"format '{fmt}' has no option 'bogus'"):
        formats.parse(fmt, None if not s.needs_gold else "gold", ["sys"], bogus=1)
    with pytest.raises(FormatError) as e:
        s.validate({"bogus": 1})
    for o in s.options:  # the message lists the valid options
        assert o.name in str(e.value)
    # from the shell: one line, exit 1, before any file is read
    gold = [] if not s.needs_gold else ["gold"]
    assert main(["compare", "--format", fmt, *gold, "a", "b", "-o", "bogus=1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no option 'bogus'" in err


@pytest.mark.parametrize("fmt", [s.name for s in formats.specs() if s.options])
def test_ill_typed_options_are_format_errors(fmt: str) -> None:
    s = formats.spec(fmt)
    for o in s.options:
        bad = {bool: "maybe", int: "x1", float: "nan", str: 3}.get(o.type, object())
        if o.type == "path":
            bad = 7
        with pytest.raises(FormatError, match=f"option {o.name}="):
            s.validate({o.name: bad})


def test_metric_registry_is_the_one_definition() -> None:
    table = metrics.specs()
    assert [m["name"] for m in table] == [m["name"] for m in _native.METRICS]
    for m in table:
        got = metrics.get(m["name"])
        assert got.native == m["name"] and got.scale == m["scale"]
        assert len(got.stat_names) == got.n_stats >= 1
        assert set(got.params) == {p["name"] for p in m["params"]}


def test_direction_layout_and_kind_come_from_the_one_declaration() -> None:
    """What ``_native.METRICS`` exports (direction, statistic layout, kind) is what resolving the
    metric gives: the Rust declaration states each once, so they cannot disagree."""
    lower = set()
    for m in _native.METRICS:
        got = metrics.get(m["name"])
        assert list(got.stat_names) == m["stat_names"], m["name"]
        assert got.kind == m["kind"], m["name"]
        if m["higher_is_better"] is None:
            # a parameter decides (the mean's higher_is_better)
            assert metrics.get(m["name"], higher_is_better=False).higher_is_better is False
            assert metrics.get(m["name"], higher_is_better=True).higher_is_better is True
        else:
            assert got.higher_is_better is m["higher_is_better"], m["name"]
            if not got.higher_is_better:
                lower.add(m["name"])
    assert lower == {"aer", "error_rate", "ter"}
    assert not hasattr(_native, "ITEM_STATISTICS")  # item statistics are registry entries


def _bad_values(p: dict) -> list[object]:
    t = p["type"]
    if t == "bool":
        return ["perhaps", 2, 0.5]
    if t == "choice":
        return ["no-such-choice", 1]
    if t == "int":
        return [p["min"] - 1, p["max"] + 1, 1.5, "x"]
    lo = p["min"]
    out: list[object] = [math.nan, math.inf, "x", lo if p.get("open_min") else lo - 1]
    if math.isfinite(p["max"]):
        out.append(p["max"] * 2 + 1)
    return out


@pytest.mark.parametrize("name", [m["name"] for m in _native.METRICS])
def test_every_metric_rejects_invalid_parameters(name: str) -> None:
    spec = next(m for m in metrics.specs() if m["name"] == name)
    with pytest.raises(MetricError, match="has no parameter 'bogus'"):
        metrics.get(name, bogus=1)
    for p in spec["params"]:
        for bad in _bad_values(p):
            with pytest.raises(MetricError, match=p["name"]):
                metrics.get(name, **{p["name"]: bad})


def test_chrf_without_orders_is_a_metric_error_not_a_panic() -> None:
    with pytest.raises(MetricError, match="char_order \\+ word_order"):
        metrics.get("chrf", char_order=0)
    with pytest.raises(MetricError):
        _native.metric_scores(np.zeros((1, 3)), _native.MetricHandle("chrf", {"char_order": 0}), 1.0)


def test_native_errors_are_sigfast_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        _native.resample_values(_native.Plan(np.zeros((0, 2)), _native.MetricHandle("mean")), _native.Job(1, 10))
    with pytest.raises(MetricError):
        _native.MetricHandle("nope")
    with pytest.raises(InputError):
        _native.Plan(np.zeros((3, 2)), _native.MetricHandle("mean"), "bootstrap", "sideways")
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tx\n\n")
    with pytest.raises(FormatError) as e:
        _native.ud_evaluate(bad.read_bytes(), bad.read_bytes(), "g.conllu", "s.conllu")
    assert e.value.path == "g.conllu" and e.value.line == 1
    with pytest.raises(FormatError) as e:
        _native.evalb_score(b"(S (A a))\n", b"(S (A a)\n", None, None, None, "g.mrg", "s.mrg", None)
    assert e.value.path == "s.mrg" and isinstance(e.value, SigfastError)


def test_cli_errors_are_one_line_and_usage_errors_exit_2(tmp_path: Path, capsys) -> None:
    a = tmp_path / "a.tsv"
    a.write_text("0.1\n0.2\n")
    assert main(["compare", str(a), str(tmp_path / "missing.tsv")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sigfast: error:")
    with pytest.raises(SystemExit) as e:
        main(["compare", str(a), str(a), "--no-such-flag"])
    assert e.value.code == 2


# --------------------------------------------------------------------------- CoNLL-U on real data


def _en_ewt(shared_data: Path, names: list[str]) -> tuple[Path, list[Path]]:
    d = shared_data / "dependency_parsing" / "conll2018_en_ewt"
    return d / "gold" / "en_ewt.conllu.gz", [d / "systems" / n / "en_ewt.conllu.gz" for n in names]


def test_conllu_units_equal_conll18_numerators_on_raw_text_systems(shared_data: Path) -> None:
    """Correct words of the las/uas/upos/xpos/ufeats/lemmas units = conll18_ud_eval's numerators, per sentence."""
    gold, systems = _en_ewt(shared_data, ["HIT-SCIR-18", "Stanford-18", "UDPipe-Future", "NLP-Cube"])
    parsed = formats.parse("conllu", gold, systems)
    for view, metric in (
        ("las", "las"),
        ("uas", "uas"),
        ("upos", "upos"),
        ("xpos", "xpos"),
        ("ufeats", "ufeats"),
        ("lemmas", "lemmas"),
    ):
        u = parsed.units(view)
        st = parsed.statistics(metric)
        for k in range(len(systems)):
            per_sentence = np.bincount(u.sentence, weights=u.matched(k), minlength=st.n_items)
            assert np.array_equal(per_sentence, st.values[k, :, 0]), (view, k)
        # gold words are the units, and the recall denominator
        assert u.n_units == int(st.values[0, :, 2].sum())


def test_conllu_tokens_alignment_refuses_raw_text(shared_data: Path) -> None:
    gold, systems = _en_ewt(shared_data, ["HIT-SCIR-18"])
    with pytest.raises(FormatError, match="align=chars"):
        formats.parse("conllu", gold, systems, align="tokens").units("las")
    # the gold file aligned with itself on tokens: every word correct
    g = formats.parse("conllu", gold, [gold], align="tokens").units("las")
    assert g.correct(0).all()


def test_read_and_units_share_one_parse(shared_data: Path, tmp_path: Path) -> None:
    """sigfast.read and the units come from the same registry entry: their totals agree with score()."""
    gold, systems = _en_ewt(shared_data, ["HIT-SCIR-18"])
    st = sigfast.read(gold, systems, format="conllu", metric="las")
    rep = formats.score("conllu", gold, systems[0])
    c, s, g = st.values[0].sum(0)
    assert rep.scores["las"] == pytest.approx(2 * c / (s + g), rel=1e-15)
    plain = tmp_path / "gold.conllu"
    plain.write_bytes(gzip.decompress(gold.read_bytes()))
    assert formats.detect_format(plain) == "conllu" and formats.detect_format(gold) == "conllu"
