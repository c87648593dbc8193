"""The sigfast command line: tables, JSON, one-line errors with exit 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sigfast.cli import main


def _write(path: Path, rows: np.ndarray) -> Path:
    path.write_text("\n".join("\t".join(f"{v:g}" for v in np.atleast_1d(r)) for r in rows) + "\n")
    return path


def test_compare_scores_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(0)
    a = _write(tmp_path / "a.tsv", rng.normal(0.5, 0.1, 200))
    b = _write(tmp_path / "b.tsv", rng.normal(0.6, 0.1, 200))
    assert main(["compare", str(a), str(b), "-n", "2000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "\na " in out and " b " in out and "berg-kirkpatrick" in out and "seed:3" in out
    assert main(["compare", str(a), str(b), "-n", "2000", "--json", "--test", "permutation"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d[0]["test"] == "approximate_randomization" and d[0]["n_resamples"] == 2000
    assert d[0]["pvalue"] == pytest.approx(1 / 2001)


def test_compare_f1_statistics_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows_a = [{"tp": 3, "guessed": 4, "gold": 5}, {"tp": 1, "guessed": 2, "gold": 2}] * 30
    rows_b = [{"tp": 4, "guessed": 4, "gold": 5}, {"tp": 2, "guessed": 2, "gold": 2}] * 30
    for name, rows in (("a.jsonl", rows_a), ("b.jsonl", rows_b)):
        (tmp_path / name).write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    rc = main(["compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "-m", "f1", "-n", "1000", "--json"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["metric"] == "f1" and d["score_y"] == pytest.approx(12 / 13)


@pytest.mark.parametrize(
    "content_a,content_b,message",
    [
        ("0.1\n0.2\n", "0.1\n", "'b' has 1 items, but 'a' has 2"),
        ("0.1\nnan\n", "0.1\n0.2\n", "line 2: column 1: 'nan' is not finite"),
        ("", "0.1\n", "empty"),
        ("0.1\n\n0.3\n", "0.1\n0.2\n0.3\n", "line 2: empty line"),
        ("0.1\nx\n", "0.1\n0.2\n", "line 2: column 1: 'x' is not a number"),
    ],
)
def test_bad_files_one_line_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content_a: str, content_b: str, message: str
) -> None:
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text(content_a)
    b.write_text(content_b)
    assert main(["compare", str(a), str(b), "-n", "10"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sigfast: error:") and message in err


def test_undecodable_and_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = tmp_path / "a.tsv"
    a.write_bytes(b"0.1\n\xff\xfe\n")
    assert main(["compare", str(a), str(a)]) == 1
    assert "line 2" in capsys.readouterr().err
    assert main(["compare", str(tmp_path / "nope.tsv"), str(a)]) == 1
    assert "no such file" in capsys.readouterr().err


def test_bad_resamples_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a.tsv", np.arange(5.0))
    for bad in ("0", "-5", "18446744073709551616", "1.5"):
        with pytest.raises(SystemExit) as e:
            main(["compare", str(a), str(a), "-n", bad])
        assert e.value.code == 2
        assert "--resamples must be" in capsys.readouterr().err


def test_demo_and_info(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "-n", "2000"]) == 0
    out = capsys.readouterr().out
    assert "NER F1" in out and "distinct-rows(4)" in out and "p = " in out
    assert main(["info"]) == 0
    assert "random stream" in capsys.readouterr().out


def test_module_entry_point() -> None:
    r = subprocess.run([sys.executable, "-m", "sigfast", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "compare" in r.stdout


# --------------------------------------------------------------------------- the one CLI (issues 19, 22, 23)


def test_demo_runs_every_test_with_the_resamples_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "-n", "1e3", "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)
    assert [r["n_resamples"] for r in runs] == [1000, 1000, 1000]
    assert runs[1]["test"] == "approximate_randomization"


def test_compare_detects_the_format_as_score_does(capsys: pytest.CaptureFixture[str]) -> None:
    ud = Path(__file__).parent / "data" / "analysis"
    gold, raw = str(ud / "ud_gold.conllu"), str(ud / "ud_sys_raw.conllu")
    for cmd in (["compare", "-n", "200"], ["pairwise", "-n", "200"]):
        assert main([*cmd, gold, f"raw={raw}", f"gold={gold}", "--json"]) == 0, cmd
        out = json.loads(capsys.readouterr().out)
        assert out[0]["metric"] == "las", cmd  # CoNLL-U's headline, the first file taken as gold
    assert main(["compare", "--test", "mcnemar", gold, f"raw={raw}", f"gold={gold}"]) == 0
    assert "conllu las, align chars" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["score", "-f", "conlu", "A", "B"], "did you mean 'conllu'"),
        (["compare", "-m", "lass", "GOLD", "A", "B"], "did you mean 'las'"),
        (["score", "-m", "lass", "GOLD", "A"], "did you mean 'las'"),
    ],
)
def test_mistyped_names_get_the_closest(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    ud = Path(__file__).parent / "data" / "analysis"
    files = {"GOLD": str(ud / "ud_gold.conllu"), "A": str(ud / "ud_sys_raw.conllu"), "B": str(ud / "ud_gold.conllu")}
    assert main([files.get(a, a) for a in argv]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err, err


def test_metrics_get_names_the_closest() -> None:
    import sigfast

    with pytest.raises(sigfast.MetricError, match="did you mean 'bleu'"):
        sigfast.metrics.get("blue")


def test_resamples_in_scientific_notation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a.tsv", np.arange(20.0))
    b = _write(tmp_path / "b.tsv", np.arange(20.0) + 1)
    assert main(["compare", str(a), str(b), "-n", "1e3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["n_resamples"] == 1000


def _scores(path: Path, systems: list[str], shift: float = 0.0) -> Path:
    rng = np.random.default_rng(len(systems))
    path.write_text(
        "system\titem\tscore\n"
        + "".join(f"{s}\t{i}\t{k + shift + rng.random():.4f}\n" for k, s in enumerate(systems) for i in range(6))
    )
    return path


@pytest.mark.parametrize(
    "extra,needle,code",
    [
        (["--rename", "A=B"], "two systems named 'B'", 1),  # the tables' names: an input error
        (["--rename", "A=Z", "--rename", "A=Y"], "--rename A= given twice", 2),  # the flags alone: usage
        (["--name", "x", "--name", "x"], "--name x given twice", 2),
        (["--name", "x", "--name", "y", "--name", "z"], "3 --name for 2 metric score file(s)", 2),
    ],
)
def test_metaeval_name_collisions_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], needle: str, code: int
) -> None:
    human = _scores(tmp_path / "human.tsv", ["A", "B", "C"])
    m1 = _scores(tmp_path / "m1.tsv", ["A", "B", "C"], 0.1)
    m2 = _scores(tmp_path / "m2.tsv", ["A", "B", "C"], 0.2)
    argv = ["metaeval", str(human), str(m1), str(m2), "--level", "system", "--interval", "none", "--test", "none"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv, *extra]) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err, err


@pytest.mark.parametrize("content", ['[{"name": "a", ', "\xff\xfe", "{not json}"])
def test_broken_json_spec_is_one_format_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    spec = tmp_path / "spec.json"
    spec.write_bytes(content.encode("latin-1"))
    assert main(["across-splits", "--spec", str(spec)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"sigfast: error: {spec}") and "internal error" not in err, err
    manifest = tmp_path / "manifest.json"
    manifest.write_bytes(content.encode("latin-1"))
    a = _write(tmp_path / "a.tsv", np.arange(20.0))
    assert main(["across-splits", "--manifest", str(manifest), str(a), str(a)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(manifest) in err and "internal error" not in err, err


def test_info_markdown_tables_keep_their_columns(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    assert main(["info", "--markdown"]) == 0
    out = capsys.readouterr().out
    for block in out.split("\n\n"):
        lines = [ln for ln in block.splitlines() if ln.startswith("|")]
        if lines:  # every row has as many cells as the header: a | inside a cell is escaped
            assert len({len(re.findall(r"(?<!\\)\|", ln)) for ln in lines}) == 1, block[:300]


def test_compare_mcnemar_refuses_a_metric_and_a_view_that_disagree(capsys: pytest.CaptureFixture[str]) -> None:
    ud = Path(__file__).parent / "data" / "analysis"
    gold = str(ud / "ud_gold.conllu")
    base = ["compare", "--test", "mcnemar", "-f", "conllu", gold, f"A={gold}", f"B={gold}"]
    assert main([*base, "-m", "upos", "--view", "upos"]) == 0
    capsys.readouterr()
    for extra, needle, code in (
        (["-m", "upos", "--view", "las"], "name different units", 2),  # two flags that disagree: usage
        (["-m", "clas"], "views", 1),  # a name the format's views lack
    ):
        assert main([*base, *extra]) == code
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and needle in err, err


def test_draws_sacrebleu_from_the_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--draws sacrebleu` is the Python API's draws="sacrebleu" (tests/test_variants.py checks it against
    sacrebleu itself): the same p-value and signature."""
    import sigfast

    rng = np.random.default_rng(5)
    a, b = rng.random(50), rng.random(50) + 0.05
    fa, fb = _write(tmp_path / "a.tsv", a), _write(tmp_path / "b.tsv", b)
    argv = ["compare", str(fa), str(fb), "--variant", "sacrebleu", "--draws", "sacrebleu", "-n", "1000", "--json"]
    assert main(argv) == 0
    (d,) = json.loads(capsys.readouterr().out)
    stats = sigfast.read(None, {"a": str(fa), "b": str(fb)}, format="tsv")
    r = sigfast.paired_bootstrap(stats, variant="sacrebleu", draws="sacrebleu", n_resamples=1000)
    assert d["pvalue"] == r.pvalue and d["signature"] == r.signature and "draws:sacrebleu" in r.signature
    assert main(["compare", str(fa), str(fb), "--test", "permutation", "--draws", "sacrebleu"]) == 2
    assert "--draws sacrebleu is for --test bootstrap" in capsys.readouterr().err


def test_stream_from_the_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--stream N` is the Python API's stream=N on compare, pairwise and interval: the same numbers and
    signature (tests/test_engine_oracle.py checks both versions against an independent oracle); the
    default is the newest version; an unknown version is one line, exit 1."""
    import sigfast

    rng = np.random.default_rng(6)
    cols = {k: rng.random(60) + d for k, d in (("a", 0.0), ("b", 0.04), ("c", 0.08))}
    paths = {k: str(_write(tmp_path / f"{k}.tsv", v)) for k, v in cols.items()}
    stats = sigfast.read(None, paths, format="tsv")
    for v in (1, 2):
        assert main(["compare", paths["a"], paths["b"], "-n", "2000", "--stream", str(v), "--json"]) == 0
        (d,) = json.loads(capsys.readouterr().out)
        r = sigfast.paired_bootstrap(stats, systems=("a", "b"), n_resamples=2000, stream=v)
        assert d["pvalue"] == r.pvalue and d["signature"] == r.signature
        assert sigfast.signature.stream_version(r.signature) == v
        assert main(["interval", *paths.values(), "-n", "500", "--stream", str(v), "--json"]) == 0
        (board,) = json.loads(capsys.readouterr().out)
        lb = sigfast.leaderboard(stats, n_resamples=500, stream=v, pairs="none")
        low = {x["system"]: x["bootstrap_low"] for x in board["models"]}
        assert low == {s: float(x) for s, x in zip(lb.systems, lb.bootstrap_intervals[:, 0])}
        assert board["signature"] == lb.signature
        assert sigfast.signature.stream_version(lb.signature) == v
    assert main(["compare", paths["a"], paths["b"], "-n", "100", "--json"]) == 0
    (d,) = json.loads(capsys.readouterr().out)
    assert sigfast.signature.stream_version(d["signature"]) == max(sigfast.executor.STREAM_VERSIONS)
    with pytest.raises(SystemExit) as e:  # a usage error, found while the arguments are parsed
        main(["pairwise", *paths.values(), "-n", "100", "--stream", "9"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--stream must be one of" in err


# --------------------------------------------------------------------------------------------
# metaeval: each flag reaches the library (the library is checked against numpy, scipy, nlpstats and
# mt-metrics-eval in tests/test_metaeval*.py); the command line gives the API's result on the same files


def _long(path: Path, values: np.ndarray, systems: list[str]) -> Path:
    path.write_text(
        "system\titem\tscore\n"
        + "".join(
            f"{s}\t{j}\t{'None' if np.isnan(v) else repr(float(v))}\n"
            for s, row in zip(systems, values)
            for j, v in enumerate(row, start=1)  # items 1, 2, ... as a block file numbers them
        )
    )
    return path


def _blocks(path: Path, values: np.ndarray, systems: list[str]) -> Path:
    """mt-metrics-eval's ``SYSTEM SCORE`` lines: a block per system, one line per item in item order."""
    path.write_text(
        "".join(f"{s}\t{'None' if np.isnan(v) else repr(float(v))}\n" for s, row in zip(systems, values) for v in row)
    )
    return path


def _metaeval_api(human: Path, metrics: dict[str, Path], *, missing: str = "error", **kw: object) -> dict:
    from sigfast import metaeval

    h = metaeval.read_scores(human)
    tables = {k: metaeval.read_scores(p) for k, p in metrics.items()}
    level = str(kw.get("level", "item"))
    systems, _items, hv, mv = metaeval.align(h, tables, missing=missing, level=level)  # type: ignore[arg-type]
    r = metaeval.evaluate(hv, mv, names=list(tables), systems=systems, **kw)  # type: ignore[arg-type]
    return json.loads(r.to_json())


def _metaeval_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["metaeval", *argv, "--json"]) == 0
    (d,) = json.loads(capsys.readouterr().out)
    return d


def test_metaeval_rowcol_test_and_pooled_tau_like_are_the_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(21)
    systems = ["A", "B", "C", "D", "E"]
    h = np.round(rng.normal(size=(5, 12)) * 2)  # integer human scores: ties, as MQM has them
    human = _long(tmp_path / "human.tsv", h, systems)
    m1 = _long(tmp_path / "m1.tsv", h + rng.normal(0, 1, h.shape), systems)
    m2 = _long(tmp_path / "m2.tsv", h + rng.normal(0, 2, h.shape), systems)
    kw = dict(statistic="tau_like_pooled", n_resamples=300, seed=9)
    for test in ("perm-both-rowcol", "perm-both"):
        argv = [str(human), str(m1), str(m2), "--test", test, "--statistic", "tau_like_pooled"]
        got = _metaeval_cli([*argv, "-n", "300", "--seed", "9"], capsys)
        assert got == _metaeval_api(human, {"m1": m1, "m2": m2}, test=test, **kw)
        assert f"pairs:{test.upper()}|" in got["signature"] + "|" and "variant:item:tau_like_pooled" in got["signature"]
    rowcol = _metaeval_cli([str(human), str(m1), str(m2), "--test", "perm-both-rowcol", "-n", "300"], capsys)
    cells = _metaeval_cli([str(human), str(m1), str(m2), "-n", "300"], capsys)
    assert rowcol["comparisons"][0]["pvalue"] != cells["comparisons"][0]["pvalue"]  # two schemes, not one


def test_metaeval_help_says_which_scheme_and_statistic_is_which() -> None:
    from sigfast.cli import build_parser

    def helps(command: str) -> dict[str, str]:
        p = build_parser(command)
        sub = next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction").choices[command]
        return {s: a.help or "" for a in sub._actions for s in a.option_strings}

    meta = helps("metaeval")
    assert "perm-both (" in meta["--test"] and "own coin" in meta["--test"]
    assert "perm-both-rowcol (" in meta["--test"] and "nlpstats" in meta["--test"]
    stat = meta["--statistic"]
    assert "tau_like (" in stat and "mean over items" in stat
    assert "tau_like_pooled (" in stat and "KendallLike(average_by='item')" in stat and "sum(C-D)/sum(C+D)" in stat
    assert "(default omit: " in meta["--nan-policy"] and "omit-system (" in meta["--nan-policy"]
    seeds = helps("seeds")["--correction"]
    assert "multi_aso" in seeds and "1.0" in seeds and "two systems" in seeds


def _sparse_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    """System A is scored on one item only: a resample of items that misses it leaves A empty."""
    rng = np.random.default_rng(5)
    h = rng.normal(size=(6, 8))
    h[0, 1:] = np.nan
    systems = list("ABCDEF")
    return (
        _long(tmp_path / "human.tsv", h, systems),
        _long(tmp_path / "m1.tsv", h + rng.normal(0, 0.5, h.shape), systems),
        _long(tmp_path / "m2.tsv", h + rng.normal(0, 1.5, h.shape), systems),
    )


def test_metaeval_nan_policy_is_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    human, m1, m2 = _sparse_files(tmp_path)
    base = [str(human), str(m1), str(m2), "--level", "system", "--statistic", "pearson", "--interval", "inputs"]
    base += ["-n", "400"]
    kw = dict(level="system", statistic="pearson", interval="inputs", n_resamples=400)
    default = _metaeval_cli(base, capsys)
    assert default == _metaeval_api(human, {"m1": m1, "m2": m2}, nan_policy="omit", **kw)
    assert default["nan_policy"] == "omit" and min(default["n_valid"]) < 400  # some resamples dropped
    keep = _metaeval_cli([*base, "--nan-policy", "omit-system"], capsys)
    assert keep == _metaeval_api(human, {"m1": m1, "m2": m2}, nan_policy="omit-system", **kw)
    assert keep["n_valid"] == [400, 400] and "nan:omit-system" in keep["signature"]
    assert main(["metaeval", *base, "--nan-policy", "raise"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pass --nan-policy omit" in err, err
    with pytest.raises(SystemExit) as e:
        main(["metaeval", *base, "--nan-policy", "drop"])
    assert e.value.code == 2


def test_metaeval_unscored_cells_names_and_layouts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--missing, --level passed to align, --rename keeping the file in messages, mt-metrics-eval names."""
    rng = np.random.default_rng(8)
    systems = ["A", "B", "C", "D"]
    h = rng.normal(size=(4, 6))
    human = _long(tmp_path / "human.tsv", h, systems)
    m = h + rng.normal(0, 0.5, h.shape)
    m[1, 2] = np.nan  # B, item 3: scored by the human, not by the metric
    chrf = _blocks(tmp_path / "chrF-refA.seg.score", m, systems)
    bleu = _blocks(tmp_path / "BLEU-refA.seg.score", h + rng.normal(0, 1, h.shape), systems)
    base = [str(human), str(chrf), str(bleu), "--interval", "none", "--test", "none"]
    for extra in ([], ["--rename", "B=Bee"]):
        assert main(["metaeval", *base, *extra]) == 1
        err = capsys.readouterr().err
        b = "Bee" if extra else "B"
        want = f"metric 'chrF-refA' ({chrf}) has no score for system '{b}', item '3'"
        assert err.count("\n") == 1 and want in err and "--missing omit" in err, err
    assert main(["metaeval", *base, "--missing", "omit", "--metric-layout", "blocks", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "warning: missing='omit': 1 human-scored cell(s)" in err, err
    (got,) = json.loads(out)
    with pytest.warns(UserWarning, match="1 human-scored cell"):
        want = _metaeval_api(
            human, {"chrF-refA": chrf, "BLEU-refA": bleu}, missing="omit", interval="none", test="none"
        )
    assert got == want and got["metrics"] == ["chrF-refA", "BLEU-refA"]  # named as mt-metrics-eval names them
    # a system-level table at item level is refused by align, naming the file
    sys_file = tmp_path / "COMET.tsv"
    sys_file.write_text("".join(f"{s}\t{float(v)!r}\n" for s, v in zip(systems, np.nanmean(m, 1))))
    assert main(["metaeval", str(human), str(sys_file), "--interval", "none", "--test", "none"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{sys_file} holds one score per system" in err and "--level system" in err, err
    # --lp and --gold belong to a test-set folder
    assert main(["metaeval", *base, "--lp", "de-en"]) == 2  # a flag for a folder given with a file: usage
    assert "is a file" in capsys.readouterr().err


def test_seeds_deepsig_correction_is_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`seeds --correction deepsig` is compare_seeds(correction="deepsig") (checked against deepsig 1.2.8's
    multi_aso in tests/test_seeds*.py): with two systems the level is 1.0, every eps_min 1, with a warning."""
    from sigfast.inference.seeds import compare_seeds

    rng = np.random.default_rng(4)
    a, b = rng.normal(0.7, 0.02, 8), rng.normal(0.72, 0.02, 8)
    fa, fb = _write(tmp_path / "a.txt", a), _write(tmp_path / "b.txt", b)
    argv = ["seeds", f"A={fa}", f"B={fb}", "--correction", "deepsig", "-n", "200", "--json"]
    assert main(argv) == 0
    (got,) = json.loads(capsys.readouterr().out)
    read = {k: np.loadtxt(p) for k, p in (("A", fa), ("B", fb))}
    want = json.loads(json.dumps(compare_seeds(read, correction="deepsig", n_resamples=200).to_dict()))
    assert got == want
    assert got["adjusted_confidence_level"] == 1.0 and any("multi_aso" in w for w in got["warnings"])
