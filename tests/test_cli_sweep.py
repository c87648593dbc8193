"""The command line's conventions on every subcommand, and what a new user tries (issue 29).

Every subcommand: no abbreviated flag (``--resample`` is not ``--resamples``), an unknown flag is one line
naming the closest flag, exit 2; every usage error a handler finds (too few files, flags that do not fit
together) is one line with exit 2 too; ``--version`` prints on standard output. Then the inputs of the
issue's "Tried as a new user would" and "Misleading messages" bullets, each one SigfastError line (exit 1;
exit 2 for usage) or the same result as the explicit command: per-item files with an id column, a typo on
line 1 of a score file, the LLM harnesses' logs and folders given without ``-f``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sigfast import cli
from sigfast.cli import COMMANDS, FLAGS, main

ROOT = Path(__file__).resolve().parents[1]
LLM = ROOT / "tests" / "data" / "llm"


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err, err
    return err


def _positionals(cmd: cli.Command) -> list[str]:
    """Placeholder positional arguments, and the required flags, so that parsing reaches the flags."""
    out: list[str] = []
    for a in cmd.args:
        if a.nargs in (None, "+"):
            out.append("x")
    for spec in cmd.flags:
        key = spec.key if isinstance(spec, cli.Use) else spec
        required = FLAGS[key].required if not isinstance(spec, cli.Use) or spec.required is None else spec.required
        if required:
            out += [FLAGS[key].names[0], "1"]
    return out


def _long_flags(cmd: cli.Command) -> list[str]:
    return [
        n for spec in cmd.flags for n in FLAGS[spec.key if isinstance(spec, cli.Use) else spec].names if n[:2] == "--"
    ]


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: c.name)
def test_no_flag_is_abbreviated_and_unknown_flags_get_the_closest(cmd: cli.Command, capsys) -> None:
    flags = _long_flags(cmd)
    every = {n for c in COMMANDS for n in _long_flags(c)} | {"--help", "--version", "--debug"}
    # a prefix of each flag that no flag of this subcommand is (argparse would once have taken it for the flag)
    tried = 0
    for flag in flags:
        short = flag[:-1]
        if len(short) < 4 or short in every or short in ("--no", "--no-"):
            continue
        if sum(f.startswith(short) for f in flags) != 1:
            continue
        with pytest.raises(SystemExit) as e:
            main([cmd.name, *_positionals(cmd), short, "1"])
        assert e.value.code == 2, (cmd.name, short)
        err = _one_line(capsys.readouterr().err)
        assert f"unrecognized arguments: {short}" in err and f"did you mean {flag!r}" in err, (short, err)
        assert err.startswith(f"sigfast {cmd.name}: error:"), err
        tried += 1
    assert tried or not flags, cmd.name
    with pytest.raises(SystemExit) as e:
        main([cmd.name, *_positionals(cmd), "--zzzz-qqqq"])
    assert e.value.code == 2
    assert "unrecognized arguments: --zzzz-qqqq" in _one_line(capsys.readouterr().err)


def test_resample_is_not_resamples(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: `--resample 10` was silently `--resamples 10`."""
    for sub in ("compare", "pairwise", "interval", "seeds", "metaeval", "test-size"):
        with pytest.raises(SystemExit) as e:
            main([sub, "a", "b", "--resample", "10"])
        assert e.value.code == 2
        assert "did you mean '--resamples'" in _one_line(capsys.readouterr().err)


def test_version_prints_on_stdout() -> None:
    r = subprocess.run([sys.executable, "-m", "sigfast", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("sigfast ") and r.stdout.count("\n") == 1, r.stdout


@pytest.fixture
def scores(tmp_path: Path) -> dict[str, str]:
    rng = np.random.default_rng(2)
    out = {}
    for name, shift in (("a", 0.0), ("b", 0.05), ("c", 0.1)):
        p = tmp_path / f"{name}.tsv"
        p.write_text("".join(f"{v:.4f}\n" for v in rng.random(40) + shift))
        out[name] = str(p)
    return out


def test_usage_errors_of_the_handlers_exit_2(scores: dict[str, str], tmp_path: Path, capsys) -> None:
    """Every usage-type error a subcommand's handler finds: one line, exit 2 (argparse's own are exit 2 too)."""
    a, b = scores["a"], scores["b"]
    conll = str(ROOT / "tests" / "data" / "analysis" / "ud_gold.conllu")
    for argv, needle in (
        (["compare", a], "at least 2 SYSTEM files"),
        (["pairwise", a], "at least 2 SYSTEM files"),
        (["compare", "-f", "conllu", conll, conll], "at least 2 SYSTEM files"),
        (["mcnemar", a], "BASELINE file and at least one SYSTEM"),
        (["seeds", a], "at least two systems"),
        (["score", conll], "give GOLD and SYSTEM files"),
        (["compare", a, b, "-o", "novalue"], "takes KEY=VALUE"),
        (["compare", a, b, "-o", "k=1", "-o", "k=2"], "given twice"),
        (["compare", a, b, "--test", "permutation", "--variant", "bk"], "no --variant"),
        (["compare", a, b, "--variant", "mid-p"], "is a McNemar variant"),
        (["compare", a, b, "--test", "permutation", "--draws", "sacrebleu"], "is for --test bootstrap"),
        (["compare", a, b, "--view", "las"], "--view is for --test mcnemar"),
        (["compare", a, b, "--output", str(tmp_path / "out.xyz")], "unknown extension"),
        (["pairwise", a, b, "--band", "0.3", "0.1"], "LOW <= HIGH"),
        (["pairwise", a, b, "--label", "nogroup"], "SYSTEM=GROUP"),
        (["pairwise", a, b, "--plot", str(tmp_path / "p.gif")], "use a .png"),
        (["score", "ner", a, b], "is a format name, not a file"),
        (["metaeval", a, b, "--rename", "A"], "takes OLD=NEW"),
        (["metaeval", a, b, "--name", "x", "--name", "x"], "--name x given twice"),
        (["metaeval", a, "--hyps", b], "--hyps needs --ref"),
        (["across-splits", a, b], "give --manifest"),
    ):
        assert main(argv) == 2, argv
        err = _one_line(capsys.readouterr().err)
        assert err.startswith(f"sigfast {argv[0]}: error:") and needle in err, (argv, err)


# --------------------------------------------------------------------------- per-item files as users have them


def _records_files(tmp_path: Path, n: int = 30) -> dict[str, tuple[str, str]]:
    """The same two systems' scores as id,score CSV, TSV and JSON lines (the second file in another order)."""
    rng = np.random.default_rng(7)
    a, b = rng.random(n).round(4), (rng.random(n) + 0.1).round(4)
    order = rng.permutation(n)
    out = {}
    for layout, sep in (("csv", ","), ("tsv", "\t")):
        pa, pb = tmp_path / f"a.{layout}", tmp_path / f"b.{layout}"
        pa.write_text(f"id{sep}score\n" + "".join(f"q{i}{sep}{a[i]}\n" for i in range(n)))
        pb.write_text(f"id{sep}score\n" + "".join(f"q{i}{sep}{b[i]}\n" for i in order))
        out[layout] = (str(pa), str(pb))
    pa, pb = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    pa.write_text("".join(json.dumps({"id": f"q{i}", "score": float(a[i])}) + "\n" for i in range(n)))
    pb.write_text("".join(json.dumps({"id": f"q{i}", "score": float(b[i])}) + "\n" for i in order))
    out["jsonl"] = (str(pa), str(pb))
    return out


@pytest.mark.parametrize("layout", ["csv", "tsv", "jsonl"])
def test_id_score_files_are_read_by_id_as_records(layout: str, tmp_path: Path, capsys) -> None:
    """`id,score` (CSV, TSV) and {"id", "score"} JSON lines without -f: read as `-f records` reads them, by id
    (the second file is in another order), with a note; the same result as the explicit command, and the
    scores are the files' means."""
    fa, fb = _records_files(tmp_path)[layout]
    argv = ["compare", fa, fb, "-n", "2000", "--json"]
    assert main(argv) == 0
    out = capsys.readouterr()
    auto = json.loads(out.out)[0]
    assert "note:" in out.err and "-f records" in out.err and "by id" in out.err
    assert main([*argv, "-f", "records"]) == 0
    explicit = json.loads(capsys.readouterr().out)[0]
    assert auto["pvalue"] == explicit["pvalue"] and auto["signature"] == explicit["signature"]
    assert "format:records" in auto["signature"]
    import csv

    def mean(path: str) -> float:
        if layout == "jsonl":
            rows = [json.loads(ln) for ln in Path(path).read_text().splitlines()]
        else:
            rows = list(csv.DictReader(open(path), delimiter="," if layout == "csv" else "\t"))
        return float(np.mean([float(r["score"]) for r in rows]))

    assert auto["score_x"] == pytest.approx(mean(fa), abs=1e-12)
    assert auto["score_y"] == pytest.approx(mean(fb), abs=1e-12)


@pytest.mark.parametrize(
    "content,needle",
    [
        ("item_id,acc\nq0,1\nq1,0\n", "-f records -o id=item_id -o score=acc"),
        ("id,acc,f1\nq0,1,0.5\nq1,0,0.25\n", "-f records -o score=acc (or -o score= another of f1"),
        ("doc_id\tscore\nq0\t1\nq1\t0\n", "-f records -o id=doc_id"),
    ],
)
def test_id_files_named_otherwise_name_the_records_options(content: str, needle: str, tmp_path: Path, capsys) -> None:
    ext = "tsv" if "\t" in content else "csv"
    a, b = tmp_path / f"a.{ext}", tmp_path / f"b.{ext}"
    a.write_text(content)
    b.write_text(content)
    assert main(["compare", str(a), str(b), "-n", "100"]) == 1
    err = _one_line(capsys.readouterr().err)
    assert needle in err and str(a) in err, err
    # and the options it names read the files
    opts = needle.split(" (")[0].split()[2:]
    assert main(["compare", str(a), str(b), "-n", "100", "-f", "records", *opts]) == 0


def test_a_typo_on_line_1_is_not_a_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: a typo on line 1 turned 300 items into 299. A mistyped number is an error naming
    line 1; a real header is taken, and a note names the line."""
    rng = np.random.default_rng(3)
    vals = rng.random((2, 300)).round(3)
    good = tmp_path / "b.tsv"
    good.write_text("".join(f"{v}\n" for v in vals[1]))
    for typo in ("O.7", "0.5x1", "l.25", "0,5"):
        bad = tmp_path / "a.tsv"
        bad.write_text(f"{typo}\n" + "".join(f"{v}\n" for v in vals[0][1:]))
        assert main(["compare", str(bad), str(good), "-n", "100"]) == 1, typo
        err = _one_line(capsys.readouterr().err)
        assert f"{bad}, line 1: column 1: {typo!r}" in err and "header" in err, err
    named = tmp_path / "a.tsv"
    named.write_text("score\n" + "".join(f"{v}\n" for v in vals[0]))
    head = tmp_path / "c.tsv"
    head.write_text("score\n" + "".join(f"{v}\n" for v in vals[1]))
    assert main(["compare", str(named), str(head), "-n", "100", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)[0]["n_items"] == 300
    assert f"note: {named}: line 1 (score) is taken as a header" in out.err


# --------------------------------------------------------------------------- LLM logs without -f


def _same_as_explicit(argv: list[str], fmt: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--json"]) == 0, argv
    auto = json.loads(capsys.readouterr().out)
    assert main([*argv, "-f", fmt, "--json"]) == 0, argv
    explicit = json.loads(capsys.readouterr().out)
    assert [r.get("signature") for r in auto] == [r.get("signature") for r in explicit]
    assert f"format:{fmt}[" in auto[0]["signature"]
    return auto[0]


def test_llm_logs_are_detected_without_f(capsys: pytest.CaptureFixture[str]) -> None:
    """Inspect .json logs, lm-eval samples files and run folders, HELM run and suite folders, lighteval
    details: without -f, the result of the explicit -f (the issue: "line 1: not valid JSON", "value 2 is
    {'id': ...}", "the input file is a directory")."""
    ins = [str(LLM / "inspect" / f"figqa_{m}.json.gz") for m in ("alpha", "beta")]
    _same_as_explicit(["compare", *ins, "-n", "500"], "inspect", capsys)
    runs = [str(LLM / "lm-eval" / f"dummy-seed{k}") for k in (2, 3)]
    _same_as_explicit(["compare", *runs, "-n", "500"], "lm-eval", capsys)
    samples = [str(next((LLM / "lm-eval" / f"dummy-seed{k}").glob("samples_figqa_*"))) for k in (2, 3)]
    _same_as_explicit(["compare", *samples, "-n", "500"], "lm-eval", capsys)
    helm = [str(p) for p in sorted((LLM / "helm").iterdir())[:2]]
    _same_as_explicit(["compare", *helm, "-n", "500"], "helm", capsys)
    _same_as_explicit(["interval", str(LLM / "helm"), "-n", "200"], "helm", capsys)
    _same_as_explicit(["interval", str(LLM / "lighteval"), "-n", "200"], "lighteval", capsys)
    details = [str(next((LLM / "lighteval" / "details" / f"dummy-seed{k}").rglob("*.parquet"))) for k in (1, 2)]
    pytest.importorskip("pyarrow")
    _same_as_explicit(["compare", *details, "-n", "500"], "lighteval", capsys)


def test_what_no_format_reads_names_what_to_give(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A harness's results file, a folder with no runs, a Parquet file: one line naming the -f or the path."""
    lm_results = str(next((LLM / "lm-eval" / "dummy-seed2").glob("results_*.json")))
    le_results = str(next((LLM / "lighteval" / "results" / "dummy-seed1").glob("results_*.json")))
    helm_stats = str(LLM / "helm" / "figqa_model-sigfast_mock-alpha" / "stats.json")
    empty = tmp_path / "runs"
    empty.mkdir()
    (empty / "notes.txt").write_text("nothing here\n")
    for argv, needles in (
        (["compare", lm_results, lm_results], ("lm-eval results file", "samples_TASK_TIME.jsonl", "-f lm-eval")),
        (["interval", le_results], ("lighteval results file", "details", "-f lighteval")),
        (["interval", helm_stats], ("HELM run folder", "-f helm")),
        (["pairwise", str(empty)], ("is a folder", "-f lm-eval, inspect, helm, lighteval or records")),
        (["score", str(empty)], ("is a folder", "-f lm-eval")),
    ):
        assert main(argv) == 1, argv
        err = _one_line(capsys.readouterr().err)
        assert err.startswith("sigfast: error:") and all(n in err for n in needles), (argv, err)


def test_a_header_is_a_line_of_names() -> None:
    """Names (letters first; digits allowed where no decimal point makes them a number with a letter for a
    digit) are a header; numbers and mistyped numbers are not."""
    from sigfast.formats.items import is_name

    for name in ("score", "tp", "acc_norm", "l2", "f1", "acc@1", "bleu.4", "_x", "O"):
        assert is_name(name), name
    for number in ("0.5", "O.7", "l.5", "I.25", "o,5", "0,5", "0.5x1", "-0.3", ".7", "1e3"):
        assert not is_name(number), number


@pytest.mark.parametrize(
    ("line2", "shown"),
    [("0.\u20281x", "'1x'"), ("0.\x1b[31m1x", "'0.\\x1b[31m1x'"), ("0.4\x0c1x", "'1x'"), ("0.4\r", None)],
)
def test_an_error_line_stays_one_line_whatever_the_input_held(tmp_path: Path, capsys, line2: str, shown) -> None:
    """A U+2028, a form feed or an escape sequence copied from the input never breaks the error line (it is
    shown escaped), and line numbers count newlines as an editor does (a U+2028 inside line 2 is line 2)."""
    bad, ok = tmp_path / "bad.txt", tmp_path / "ok.txt"
    bad.write_text(f"0.5\n{line2}\n0.3\n", encoding="utf-8", newline="")
    ok.write_text("0.5\n0.4\n0.3\n", encoding="utf-8")
    code = main(["compare", str(bad), str(ok), "-n", "100"])
    err = capsys.readouterr().err
    if shown is None:  # a CRLF-style line end is a line end
        assert code == 0, err
        return
    assert code == 1
    line = _one_line(err)
    assert "line 2:" in line and shown in line
    assert line.rstrip("\n").isprintable()
