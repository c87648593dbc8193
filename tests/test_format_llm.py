"""LLM-evaluation logs (sigfast.formats: lm-eval, inspect, helm, lighteval, records).

The logs under tests/data/llm/ were made by the real harnesses, offline, on Fig-QA (1,094 items in
547 clusters of 2) by scripts/make_llm_logs.py (versions in tests/data/llm/SOURCE.md). The
references here are the harnesses' own numbers, read from their results files and log headers
with json/zipfile in this file, and per-item values recomputed from the raw log fields (the
model's log-likelihoods, the graders' letters), never sigfast's own output.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

import sigfast
from _warns import warnings_on_stderr
from sigfast.cli import main
from sigfast.exceptions import FormatError, InputError
from sigfast.formats import parse, spec

# the bad logs below are edited copies: their per-item values no longer give the aggregate beside them (warned)
pytestmark = pytest.mark.filterwarnings("ignore:.*the per-item log and the aggregate disagree")

DATA = Path(__file__).resolve().parent / "data" / "llm"
LMEVAL = DATA / "lm-eval"
LM_RUNS = [LMEVAL / f"dummy-seed{k}" for k in (1, 2, 3)]
INSPECT = DATA / "inspect"


@functools.cache
def _parse(fmt: str, paths: tuple, **options):
    """One parse per set of logs for the whole module (Parsed is immutable)."""
    return parse(fmt, None, list(paths), **options)


def _lines(path: Path) -> list[dict]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _write_lines(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")


def _samples(run: Path, task: str = "figqa") -> Path:
    (f,) = [p for p in run.iterdir() if p.name.startswith(f"samples_{task}_2")]
    return f


def _results(samples: Path) -> dict:
    time = samples.name.split("_")[-1].split(".jsonl")[0]
    return json.loads((samples.parent / f"results_{time}.json").read_text())


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    with warnings_on_stderr():
        rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def _one_line_error(capsys, *args: str) -> str:
    rc, out, err = _cli(capsys, *args)
    assert rc == 1, (out, err)
    errors = [ln for ln in err.strip().splitlines() if not ln.startswith("sigfast: warning: ")]
    assert len(errors) == 1 and errors[0].startswith("sigfast: error: "), err
    return errors[0]


# --------------------------------------------------------------------------------------------
# lm-eval


def test_lmeval_scores_equal_the_results_files():
    """sigfast's per-model score equals lm-eval's aggregate in results_<time>.json, every digit."""
    p = _parse("lm-eval", tuple(LM_RUNS), task="figqa")
    assert p.names == ("dummy-seed1", "dummy-seed2", "dummy-seed3")  # from the results files' model_name
    for run, rep in zip(LM_RUNS, p.reports):
        res = _results(_samples(run))
        assert res["model_name"] == rep.log.model
        for m in ("acc", "acc_norm"):
            want = res["results"]["figqa"][f"{m},none"]
            assert rep.scores[m] == want, (run.name, m)
            assert repr(want) in rep.text
        st = p.statistics("acc")
        k = p.names.index(rep.log.model)
        assert float(np.mean(st.values[k, :, 0])) == pytest.approx(res["results"]["figqa"]["acc,none"], abs=0)


def test_lmeval_item_values_from_the_log_likelihoods():
    """acc and acc_norm per document, recomputed from the dummy model's log-likelihoods and the choices."""
    st = _parse("lm-eval", tuple(LM_RUNS), task="figqa").statistics
    acc, norm = st("acc"), st("acc_norm")
    rows = _lines(_samples(LM_RUNS[0]))
    assert acc.item_ids == tuple(str(r["doc_id"]) for r in rows)
    for k, r in enumerate(rows):
        ll = [float(x[0]) for x in r["filtered_resps"]]
        gold = int(r["target"])
        lengths = [len(c) for c in r["doc"]["options"]]  # characters of each choice, as lm-eval normalises
        assert acc.values[0, k, 0] == float(int(np.argmax(ll)) == gold)
        assert norm.values[0, k, 0] == float(int(np.argmax(np.array(ll) / lengths)) == gold)


def test_lmeval_clusters_and_ids():
    p = parse("lm-eval", None, LM_RUNS, task="figqa", cluster="pair", id="id")
    st = p.statistics("acc")
    assert st.item_ids[:3] == ("figqa-0000", "figqa-0001", "figqa-0002")
    clusters = st.provenance["clusters"]
    assert len(clusters) == 1094 and len(set(clusters)) == 547
    assert clusters[:4] == ("pair-000", "pair-000", "pair-001", "pair-001")
    assert st.provenance["cluster_field"] == "pair" and st.provenance["task"] == "figqa"
    assert "samples" not in st.provenance  # one sample per document


def test_lmeval_items_matched_by_id_not_position(tmp_path):
    """A samples file with its lines shuffled gives the same statistics, item for item."""
    src = _samples(LM_RUNS[1])
    rows = _lines(src)
    rng = np.random.default_rng(0)
    shuffled = [rows[i] for i in rng.permutation(len(rows))]
    run = tmp_path / "run"
    run.mkdir()
    _write_lines(run / src.name.removesuffix(".gz"), shuffled)
    shutil.copy(src.parent / f"results_{src.name.split('_')[-1].split('.jsonl')[0]}.json", run)
    a = _parse("lm-eval", tuple(LM_RUNS[:2]), task="figqa").statistics("acc")
    b = parse("lm-eval", None, [LM_RUNS[0], run], task="figqa").statistics("acc")
    assert a.item_ids == b.item_ids
    np.testing.assert_array_equal(a.values, b.values)
    r1 = sigfast.paired_bootstrap(a, n_resamples=2000, seed=1)
    r2 = sigfast.paired_bootstrap(b, n_resamples=2000, seed=1)
    assert (r1.pvalue, r1.statistic) == (r2.pvalue, r2.statistic)


def test_lmeval_run_folder_task_and_file():
    # the samples file itself, the model's folder, and the output folder holding one model
    f = _samples(LM_RUNS[0])
    a = parse("lm-eval", None, [f]).reports[0]
    b = _parse("lm-eval", tuple(LM_RUNS), task="figqa").reports[0]
    assert a.scores == b.scores and a.log.path == b.log.path
    with pytest.raises(InputError, match=r"holds the samples of 2 tasks \(figqa, figqa_rev\); pick one with --task"):
        parse("lm-eval", None, [LM_RUNS[0]])
    with pytest.raises(InputError, match="holds the runs of 3 models"):
        parse("lm-eval", None, [LMEVAL], task="figqa")
    with pytest.raises(InputError, match=r"no samples of task 'nope' \(it has: figqa, figqa_rev\)"):
        parse("lm-eval", None, [LM_RUNS[0]], task="nope")
    with pytest.raises(InputError, match=r"a log of task 'figqa', not of task 'figqa_rev'"):
        parse("lm-eval", None, [f], task="figqa_rev")
    rev = parse("lm-eval", None, [LM_RUNS[0]], task="figqa_rev").reports[0]
    res = _results(_samples(LM_RUNS[0], "figqa_rev"))
    assert len(rev.item_ids) == 100 and rev.scores["acc"] == res["results"]["figqa_rev"]["acc,none"]


def test_lmeval_names_from_the_log_unless_given(tmp_path):
    p = parse("lm-eval", None, [f"A={LM_RUNS[0]}", str(LM_RUNS[1])], task="figqa")
    assert p.names == ("A", "dummy-seed2")
    # two runs of one model: the model's name and the folder's
    copy = tmp_path / "again"
    shutil.copytree(LM_RUNS[0], copy)
    p = parse("lm-eval", None, [LM_RUNS[0], copy], task="figqa")
    assert p.names == ("dummy-seed1", "dummy-seed1 (again)")


def test_lmeval_without_results_file_warns(tmp_path):
    src = _samples(LM_RUNS[2])
    shutil.copy(src, tmp_path / src.name)
    with pytest.warns(UserWarning, match="no results_<time>.json beside it"):
        p = parse("lm-eval", None, [tmp_path / src.name])
    assert p.names == (src.name.removesuffix(".jsonl.gz"),)  # named after the file
    assert p.reports[0].log.aggregates == {}


# --------------------------------------------------------------------------------------------
# bad logs: one error naming the item, from the API and from the command line


REV = _samples(LM_RUNS[0], "figqa_rev")  # 100 documents: the bad logs are edited copies of it


def _bad_run(tmp_path: Path, name: str, edit) -> Path:
    """A copy of model 1's figqa_rev run (100 documents) with its samples edited by ``edit(rows) -> rows``."""
    run = tmp_path / name
    run.mkdir()
    _write_lines(run / REV.name.removesuffix(".gz"), edit(_lines(REV)))
    shutil.copy(REV.parent / f"results_{REV.name.split('_')[-1].split('.jsonl')[0]}.json", run)
    return run


def _set(rows: list[dict], k: int, **kv) -> list[dict]:
    rows[k] = {**rows[k], **kv}
    return rows


BAD = {
    "missing": (
        lambda rows: rows[:3] + rows[5:],
        r"\(dummy-seed1 \(missing\)\) lacks 2 of the 100 items of dummy-seed1 \(samples_figqa_rev_\S+\) \('3', '4'\)",
    ),
    "extra": (
        lambda rows: rows + [{**rows[0], "doc_id": 5000}, {**rows[1], "doc_id": 5001}],
        r"\(dummy-seed1 \(extra\)\) has 2 items that dummy-seed1 \(samples_figqa_rev_\S+\) lacks \('5000', '5001'\)",
    ),
    "hash": (
        lambda rows: _set(rows, 7, prompt_hash="0" * 64),
        r"item '7': prompt_hash differs between dummy-seed1 \(samples_\S+\) \(\S+\) and dummy-seed1 \(hash\) "
        r".*different prompts",
    ),
    "duplicate": (lambda rows: rows[:10] + [rows[9]] + rows[10:], r"item id '9' occurs twice \(line 10 and 11\)"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_lmeval_bad_logs(tmp_path, capsys, case):
    """Each bad log is refused with one line naming the item, from the API and the command line (exit 1)."""
    edit, msg = BAD[case]
    run = _bad_run(tmp_path, case, edit)
    with pytest.raises((InputError, FormatError), match=msg):
        parse("lm-eval", None, [REV, run]).statistics("acc")
    line = _one_line_error(capsys, "compare", "-f", "lm-eval", REV, run, "-n", "100")
    assert re.search(msg, line), line


def test_lmeval_log_of_another_task(capsys):
    a, b = _samples(LM_RUNS[0], "figqa_rev"), _samples(LM_RUNS[1])
    msg = r"a log of task 'figqa', but .*samples_figqa_rev_.* is a log of task 'figqa_rev'; compare logs of one task"
    with pytest.raises(InputError, match=msg):
        parse("lm-eval", None, [a, b]).statistics()
    line = _one_line_error(capsys, "compare", "-f", "lm-eval", a, b, "-n", "100")
    assert "a log of task 'figqa'" in line


def test_lmeval_intersect(tmp_path, capsys):
    run = _bad_run(tmp_path, "fewer", lambda rows: rows[:3] + rows[5:])
    with pytest.warns(
        UserWarning,
        match=r"--intersect: testing the 98 items that all 2 logs share; dropped "
        r"dummy-seed1 \(samples_\S+\): 2 of 100, dummy-seed1 \(fewer\): 0 of 98",
    ):
        st = parse("lm-eval", None, [REV, run], intersect=True).statistics("acc")
    assert st.values.shape == (2, 98, 1) and "3" not in st.item_ids
    assert st.provenance["intersect"]["common"] == 98
    assert sorted(st.provenance["intersect"]["dropped"].values()) == [0, 2]
    rc, out, err = _cli(capsys, "compare", "-f", "lm-eval", REV, run, "--intersect", "-n", "100")
    assert rc == 0 and "98 items" in out and "warning: --intersect: testing the 98 items" in err


# --------------------------------------------------------------------------------------------
# the command line


def test_cli_score_and_compare_lmeval(capsys):
    rc, out, _ = _cli(capsys, "score", "-f", "lm-eval", *LM_RUNS, "--task", "figqa")
    assert rc == 0
    for run in LM_RUNS:
        res = _results(_samples(run))
        assert f"model {res['model_name']}: 1094 items" in out
        assert out.count(repr(res["results"]["figqa"]["acc,none"])) == 2  # sigfast's and lm-eval's column
    rc, out, _ = _cli(capsys, "compare", "-f", "lm-eval", *LM_RUNS[:2], "--task", "figqa", "-m", "acc", "-n", "1000")
    assert rc == 0
    assert "dummy-seed1" in out and "dummy-seed2" in out and "1094 items" in out
    assert "format:lm-eval[task=figqa" in out


def test_info_lists_the_llm_formats(capsys):
    rc, out, _ = _cli(capsys, "info")
    assert rc == 0
    for name in ("lm-eval", "inspect", "helm", "lighteval", "records"):
        assert f"  {name}: " in out
    assert "-o task=str" in out and "-o cluster=str" in out and "-o intersect=bool" in out
    assert spec("lm-evaluation-harness").name == "lm-eval" and spec("inspect_ai").name == "inspect"


# --------------------------------------------------------------------------------------------
# Inspect

INSPECT_JSON = [INSPECT / f"figqa_{m}.json.gz" for m in ("alpha", "beta", "gamma")]
INSPECT_EVAL = [INSPECT / f"figqa_{m}_12items.eval" for m in ("alpha", "beta")]
GRADE = {"C": 1.0, "P": 0.5, "I": 0.0}  # Inspect's value_to_float for its grades


def _member(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A zip member's bytes, zstd members (method 93, Inspect's) decompressed with zstandard."""
    if info.compress_type != 93:
        return z.read(info)
    import zstandard

    z.fp.seek(info.header_offset)
    head = z.fp.read(30)
    z.fp.seek(info.header_offset + 30 + int.from_bytes(head[26:28], "little") + int.from_bytes(head[28:30], "little"))
    raw = z.fp.read(info.compress_size)
    return zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True).read()


@functools.cache
def _inspect_raw(path: Path) -> dict:
    """The log as Inspect wrote it: header and samples, read with zipfile and zstandard, or json."""
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as z:
            log = json.loads(_member(z, z.getinfo("header.json")))
            log["samples"] = [json.loads(_member(z, i)) for i in z.infolist() if i.filename.startswith("samples/")]
            return log
    return json.loads(gzip.decompress(path.read_bytes()))


@pytest.mark.parametrize("path", INSPECT_JSON + INSPECT_EVAL, ids=lambda p: p.name)
def test_inspect_scores_equal_the_log_header(path):
    """sigfast's score of each scorer equals the accuracy in Inspect's log header, every digit."""
    raw = _inspect_raw(path)
    rep = _parse("inspect", (path,)).reports[0]
    want = {s["name"]: s["metrics"]["accuracy"]["value"] for s in raw["results"]["scores"]}
    assert set(want) == {"choice", "model_graded_qa"}
    for scorer, value in want.items():
        assert rep.scores[scorer] == value, scorer
        assert repr(value) in rep.text
    assert rep.log.model == raw["eval"]["model"] and rep.log.task == "figqa"


def test_inspect_items_epochs_and_clusters_from_the_raw_grades():
    """Each item's value is the mean of its epochs' grades (C 1, P 0.5, I 0); epochs and clusters are kept."""
    p = _parse("inspect", tuple(INSPECT_JSON), cluster="pair")
    assert p.names == ("mockllm/alpha", "mockllm/beta", "mockllm/gamma")
    for scorer in ("choice", "model_graded_qa"):
        st = p.statistics(scorer)
        assert st.values.shape == (3, 1094, 1)
        assert len(set(st.provenance["clusters"])) == 547 and st.provenance["cluster_field"] == "pair"
        for k, path in enumerate(INSPECT_JSON):
            grades: dict[str, dict[int, float]] = {}
            for s in _inspect_raw(path)["samples"]:
                grades.setdefault(str(s["id"]), {})[s["epoch"]] = GRADE[s["scores"][scorer]["value"]]
            want = np.array([np.mean(list(grades[i].values())) for i in st.item_ids])
            np.testing.assert_array_equal(st.values[k, :, 0], want)
            per_epoch = np.array([[grades[i][e] for e in (1, 2)] for i in st.item_ids])
            np.testing.assert_array_equal(st.provenance["samples"][p.names[k]], per_epoch)
    assert "P" in {s["scores"]["model_graded_qa"]["value"] for s in _inspect_raw(INSPECT_JSON[0])["samples"]}


def test_inspect_eval_zstd_and_deflate(tmp_path):
    """The .eval logs (zstd members, as Inspect writes them) and the same logs rewritten with deflate (older
    Inspect) read alike."""
    a = _parse("inspect", tuple(INSPECT_EVAL)).statistics("choice")
    assert a.systems == ("mockllm/alpha", "mockllm/beta") and a.values.shape == (2, 12, 1)
    paths = []
    for src in INSPECT_EVAL:
        dst = tmp_path / src.name
        with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
            for info in z.infolist():
                out.writestr(info.filename, _member(z, info))
        paths.append(dst)
    b = parse("inspect", None, paths).statistics("choice")
    np.testing.assert_array_equal(a.values, b.values)
    assert a.item_ids == b.item_ids


def test_inspect_zstd_without_a_decompressor(monkeypatch):
    import sys

    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 reads zstd zip members itself")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(FormatError, match=r"zstd-compressed .* needs Python 3.14 or the zstandard package"):
        parse("inspect", None, INSPECT_EVAL[:1])


def _inspect_edit(tmp_path: Path, name: str, edit) -> Path:
    """Model beta's 12-item log, edited by ``edit(log)`` and written as a JSON log."""
    import copy

    log = copy.deepcopy(_inspect_raw(INSPECT_EVAL[1]))
    edit(log)
    out = tmp_path / f"{name}.json"
    out.write_text(json.dumps(log))
    return out


def test_inspect_bad_logs(tmp_path, capsys):
    def other_input(log):
        for s in log["samples"]:
            if s["id"] == "figqa-0005":
                s["input"] = "It was as quiet as a tomb."

    def unknown_grade(log):
        (s,) = [s for s in log["samples"] if s["id"] == "figqa-0001" and s["epoch"] == 2]
        s["scores"]["choice"]["value"] = "X"

    def failed(log):
        log["status"] = "error"

    cases = [
        (other_input, r"item 'figqa-0005': input differs between mockllm/alpha .* and mockllm/beta"),
        (unknown_grade, r"sample 'figqa-0001', epoch 2, choice: score value 'X' is not a grade"),
        (failed, r"the log's status is 'error', not 'success'"),
    ]
    for k, (edit, msg) in enumerate(cases):
        bad = _inspect_edit(tmp_path, f"bad{k}", edit)
        with pytest.raises((InputError, FormatError), match=msg):
            parse("inspect", None, [INSPECT_EVAL[0], bad]).statistics()
        line = _one_line_error(capsys, "compare", "-f", "inspect", INSPECT_EVAL[0], bad, "-n", "100")
        assert re.search(msg, line), line


def test_cli_score_and_compare_inspect(capsys):
    rc, out, _ = _cli(capsys, "score", "-f", "inspect", *INSPECT_JSON, "-o", "cluster=pair")
    assert rc == 0 and out.count("1094 items, 547 clusters (pair)") == 3 and "epochs: 2" in out
    rc, out, _ = _cli(capsys, "compare", "-f", "inspect", *INSPECT_EVAL, "-m", "model_graded_qa", "-n", "1000")
    assert rc == 0 and "mockllm/alpha" in out and "12 items" in out


# --------------------------------------------------------------------------------------------
# lm-eval: a task with several filters (hand-made from lm-eval's documented samples schema)


def _gsm8k_like(folder: Path, model: str, correct: dict[str, list[int]]) -> Path:
    """A run of a two-filter task: one samples line per document and filter, and its results file."""
    folder.mkdir()
    time = "2025-01-02T03-04-05.678901"
    rows = []
    for f, vals in correct.items():
        for d, v in enumerate(vals):
            rows.append(
                {"doc_id": d, "doc": {"question": f"q{d}"}, "target": "1", "filter": f, "metrics": ["exact_match"],
                 "doc_hash": f"d{d}", "prompt_hash": f"p{d}", "target_hash": "t", "exact_match": float(v)}
            )  # fmt: skip
    _write_lines(folder / f"samples_gsm_{time}.jsonl", rows)
    results = {
        "results": {"gsm": {f"exact_match,{f}": sum(v) / len(v) for f, v in correct.items()}},
        "versions": {"gsm": 3},
        "n-shot": {"gsm": 5},
        "model_name": model,
        "config": {"model": "hf", "model_args": f"pretrained={model},revision=abc123"},
    }
    (folder / f"results_{time}.json").write_text(json.dumps(results))
    return folder


def test_lmeval_filters(tmp_path):
    a = _gsm8k_like(tmp_path / "a", "org/m1", {"strict-match": [1, 0, 1, 1], "flexible-extract": [1, 1, 1, 1]})
    b = _gsm8k_like(tmp_path / "b", "org/m2", {"strict-match": [0, 0, 1, 0], "flexible-extract": [1, 0, 1, 0]})
    p = parse("lm-eval", None, [a, b])
    assert p.names == ("org/m1@abc123", "org/m2@abc123")  # model name and revision from the log
    assert p.reports[0].scores == {"exact_match,strict-match": 0.75, "exact_match,flexible-extract": 1.0}
    st = p.statistics("exact_match,flexible-extract")
    assert st.values[:, :, 0].tolist() == [[1, 1, 1, 1], [1, 0, 1, 0]]
    one = parse("lm-eval", None, [a, b], filter="strict-match")
    assert one.statistics("exact_match").values[:, :, 0].tolist() == [[1, 0, 1, 1], [0, 0, 1, 0]]
    with pytest.raises(InputError, match=r"no filter 'nope'; its filters: strict-match, flexible-extract"):
        parse("lm-eval", None, [a], filter="nope")


# --------------------------------------------------------------------------------------------
# records


RECORDS = [
    {"qid": "q1", "ok": 1, "topic": "t1", "seed": 0, "m": "gpt-x"},
    {"qid": "q1", "ok": 0, "topic": "t1", "seed": 1, "m": "gpt-x"},
    {"qid": "q2", "ok": 1, "topic": "t1", "seed": 0, "m": "gpt-x"},
    {"qid": "q2", "ok": 1, "topic": "t1", "seed": 1, "m": "gpt-x"},
    {"qid": "q3", "ok": 0, "topic": "t2", "seed": 1, "m": "gpt-x"},
    {"qid": "q3", "ok": 0, "topic": "t2", "seed": 0, "m": "gpt-x"},
]
REC_OPTS = dict(id="qid", score="ok", cluster="topic", sample="seed", model="m")


def _write_records(path: Path, rows: list[dict]) -> Path:
    import csv

    if path.suffix == ".jsonl":
        _write_lines(path, rows)
    elif path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
    else:
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]), delimiter="\t" if path.suffix == ".tsv" else ",")
            w.writeheader()
            w.writerows(rows)
    return path


@pytest.mark.parametrize("ext", [".jsonl", ".csv", ".tsv", ".parquet"])
def test_records_layouts(tmp_path, ext):
    other = [{**r, "m": "gpt-y", "ok": 1 - r["ok"]} for r in reversed(RECORDS)]  # another order: matched by id
    a = _write_records(tmp_path / f"a{ext}", RECORDS)
    b = _write_records(tmp_path / f"b{ext}", other)
    p = parse("records", None, [a, b], **REC_OPTS)
    st = p.statistics()
    assert p.names == ("gpt-x", "gpt-y") and st.item_ids == ("q1", "q2", "q3")
    assert st.values[:, :, 0].tolist() == [[0.5, 1.0, 0.0], [0.5, 0.0, 1.0]]
    assert st.provenance["clusters"] == ("t1", "t1", "t2")
    samples = st.provenance["samples"]
    assert samples["gpt-x"].tolist() == [[1, 0], [1, 1], [0, 0]]  # in file order within an item
    assert p.reports[0].scores["ok"] == 0.5


def test_records_errors(tmp_path, capsys):
    dup = _write_records(tmp_path / "dup.jsonl", RECORDS)
    with pytest.raises(FormatError, match=r"item id 'q1' occurs twice \(line 1 and 2\).*-o sample=FIELD"):
        parse("records", None, [dup], id="qid", score="ok")
    twice = _write_records(tmp_path / "twice.jsonl", RECORDS + [RECORDS[0]])
    with pytest.raises(FormatError, match=r"item 'q1', sample '0' occurs twice \(line 1 and 7\)"):
        parse("records", None, [twice], **REC_OPTS)
    bad = _write_records(tmp_path / "bad.csv", [{**RECORDS[0], "ok": "yes!"}])
    with pytest.raises(FormatError, match=r"bad.csv, line 2, ok: 'yes!' is not a number"):
        parse("records", None, [bad], **REC_OPTS)
    with pytest.raises(FormatError, match=r"line 1: no field 'id' \(its fields: qid, ok, topic, seed, m\)"):
        parse("records", None, [dup])
    line = _one_line_error(capsys, "score", "-f", "records", dup, "-o", "id=qid", "-o", "score=ok")
    assert "item id 'q1' occurs twice" in line


# --------------------------------------------------------------------------------------------
# HELM

HELM_RUNS = sorted((DATA / "helm").iterdir())


def _json_any(path: Path):
    for p in (path, path.with_name(path.name + ".gz")):
        if p.is_file():
            return json.loads(gzip.decompress(p.read_bytes()) if p.name.endswith(".gz") else p.read_text())
    raise FileNotFoundError(path)


def test_helm_scores_equal_stats_json():
    """sigfast's mean of every statistic equals HELM's stats.json (unperturbed, test split), every digit."""
    p = _parse("helm", tuple(HELM_RUNS), cluster="pair")
    assert p.names == ("sigfast/mock-alpha", "sigfast/mock-beta", "sigfast/mock-gamma", "simple/model1")
    for run, rep in zip(HELM_RUNS, p.reports):
        stats = {
            s["name"]["name"]: s["mean"]
            for s in _json_any(run / "stats.json")
            if set(s["name"]) == {"name", "split"} and s["name"]["split"] == "test" and "mean" in s
        }
        assert rep.default_metric == "exact_match"
        for m, v in rep.scores.items():
            assert v == stats[m], (run.name, m)
        assert repr(stats["exact_match"]) in rep.text


def test_helm_items_from_the_completions():
    """exact_match per instance, recomputed from the completion and the correct reference's letter."""
    p = _parse("helm", tuple(HELM_RUNS), cluster="pair")
    st = p.statistics("exact_match")
    assert st.values.shape == (4, 1094, 1) and len(set(st.provenance["clusters"])) == 547
    for k, run in enumerate(HELM_RUNS):
        want = {}
        for rs in _json_any(run / "scenario_state.json")["request_states"]:
            inst = rs["instance"]
            correct = [r["output"]["text"] for r in inst["references"] if "correct" in r["tags"]]
            letter = [a for a, t in rs["output_mapping"].items() if t in correct]
            want[inst["id"]] = float(rs["result"]["completions"][0]["text"].strip() in letter)
        np.testing.assert_array_equal(st.values[k, :, 0], [want[i] for i in st.item_ids])
    assert st.values[3].sum() == 0  # HELM's simple/model1 echoes the prompt's last word ("Answer:")


def _helm_copy(tmp_path: Path, src: Path, name: str, n: int = 60) -> Path:
    """A copy of a HELM run with its first ``n`` instances (the bad-run tests need no more)."""
    dst = tmp_path / name
    dst.mkdir()
    for f in ("run_spec.json", "scenario.json", "stats.json"):
        shutil.copy(src / f, dst / f)
    pis = _json_any(src / "per_instance_stats.json")[:n]
    keep = {e["instance_id"] for e in pis}
    state = _json_any(src / "scenario_state.json")
    state["request_states"] = [rs for rs in state["request_states"] if rs["instance"]["id"] in keep]
    (dst / "per_instance_stats.json").write_text(json.dumps(pis))
    (dst / "scenario_state.json").write_text(json.dumps(state))
    return dst


def test_helm_bad_runs(tmp_path, capsys):
    base = _helm_copy(tmp_path, HELM_RUNS[0], "base")
    other = _helm_copy(tmp_path, HELM_RUNS[1], "other-input")
    state = json.loads((other / "scenario_state.json").read_text())
    state["request_states"][5]["instance"]["input"]["text"] = "It was as quiet as a tomb."
    (other / "scenario_state.json").write_text(json.dumps(state))
    msg = r"item 'figqa-0005': input differs between sigfast/mock-alpha .* and sigfast/mock-beta"
    with pytest.raises(InputError, match=msg):
        parse("helm", None, [base, other]).statistics()
    assert re.search(msg, _one_line_error(capsys, "compare", "-f", "helm", base, other, "-n", "100"))
    task = _helm_copy(tmp_path, HELM_RUNS[1], "other-task")
    spec_ = json.loads((task / "run_spec.json").read_text())
    spec_["name"] = "mmlu:subject=anatomy,model=sigfast_mock-beta"
    (task / "run_spec.json").write_text(json.dumps(spec_))
    with pytest.raises(InputError, match=r"a log of task 'mmlu:subject=anatomy', but .* is a log of task 'figqa'"):
        parse("helm", None, [base, task]).statistics()
    fewer = _helm_copy(tmp_path, HELM_RUNS[1], "fewer", n=58)
    with pytest.raises(
        InputError, match=r"lacks 2 of the 60 items of sigfast/mock-alpha \('figqa-0058', 'figqa-0059'\)"
    ):
        parse("helm", None, [base, fewer]).statistics()


# --------------------------------------------------------------------------------------------
# lighteval

LIGHTEVAL = DATA / "lighteval"
LE_RUNS = [LIGHTEVAL / "details" / f"dummy-seed{k}" for k in (1, 2, 3)]


def _le_results(run: Path) -> dict:
    (f,) = (LIGHTEVAL / "results" / run.name).glob("results_*.json")
    return json.loads(f.read_text())


def test_lighteval_scores_equal_the_results_files():
    p = _parse("lighteval", tuple(LE_RUNS), cluster="pair")
    assert p.names == ("dummy-seed1", "dummy-seed2", "dummy-seed3")  # config_general.model_name
    for run, rep in zip(LE_RUNS, p.reports):
        want = _le_results(run)["results"]["figqa|0"]["acc"]
        assert rep.scores["acc"] == want and repr(want) in rep.text


def test_lighteval_items_from_the_log_probabilities():
    """acc per document recomputed from the dummy model's log-probabilities; rows matched by doc id."""
    import pyarrow.parquet as pq

    st = _parse("lighteval", tuple(LE_RUNS), cluster="pair").statistics("acc")
    assert st.values.shape == (3, 1094, 1) and len(set(st.provenance["clusters"])) == 547
    for k, run in enumerate(LE_RUNS):
        (f,) = run.glob("*/details_*.parquet")
        rows = pq.read_table(f).to_pylist()
        want = {
            r["doc"]["id"]: float(np.argmax(r["model_response"]["logprobs"]) == r["doc"]["gold_index"]) for r in rows
        }
        np.testing.assert_array_equal(st.values[k, :, 0], [want[i] for i in st.item_ids])
    by_field = parse("lighteval", None, LE_RUNS[:1], id="specific.id").statistics("acc")
    assert sorted(by_field.item_ids)[:2] == ["figqa-0000", "figqa-0001"]


def test_lighteval_task_and_folders():
    (f,) = LE_RUNS[0].glob("*/details_*.parquet")
    assert parse("lighteval", None, [f], task="figqa").reports[0].log.task == "figqa|0"
    with pytest.raises(InputError, match=r"a log of task 'figqa\|0', not of task 'mmlu'"):
        parse("lighteval", None, [f], task="mmlu")
    with pytest.raises(FormatError, match="no lighteval details file"):
        parse("lighteval", None, [LIGHTEVAL])


# --------------------------------------------------------------------------------------------
# Inspect: two epoch reducers, and errored samples (logs made by inspect-ai 0.3.285, tests/data/llm/SOURCE.md)

CASES = DATA / "inspect-cases"
REDUCERS = [CASES / f"figqa_{m}_reducers.json.gz" for m in ("alpha", "beta")]
ERRORED = [CASES / f"figqa_{m}_errored.json.gz" for m in ("alpha", "beta")]


def _header(raw: dict) -> dict[tuple[str, str], float]:
    """(score, reducer) -> the accuracy in Inspect's header (reducer None: Inspect's default, the mean)."""
    return {
        (s["name"], s.get("reducer") or "mean"): s["metrics"]["accuracy"]["value"] for s in raw["results"]["scores"]
    }


def _grades(raw: dict, scorer: str) -> dict[str, list[float]]:
    """Each item's scored epochs' grades (C 1, P 0.5, I 0), from the raw samples; errored samples have none."""
    out: dict[str, list[float]] = {}
    for s in raw["samples"]:
        if s.get("scores"):
            out.setdefault(s["id"], []).append(GRADE[s["scores"][scorer]["value"]])
    return out


@pytest.mark.parametrize("path", REDUCERS, ids=lambda p: p.name)
def test_inspect_every_reducer_equals_the_header(path):
    """Each reduction the log keeps gives Inspect's header accuracy to the last digit; the default is the first
    reducer the header reports, and -o reducer=pass@2 finds Inspect's pass_at_2."""
    raw = _inspect_raw(path)
    header = _header(raw)
    assert {r for _, r in header} == {"mean", "pass_at_2"} and raw["eval"]["config"]["epochs"] == 3
    default = _parse("inspect", (path,)).reports[0]
    assert default.log.sample_reducer == raw["results"]["scores"][0]["reducer"] == "mean"
    assert "the log's reductions: mean, pass_at_2" in default.text
    for reducer in ("mean", "pass_at_2", "pass@2"):
        rep = _parse("inspect", (path,), reducer=reducer).reports[0]
        name = reducer.replace("pass@2", "pass_at_2")
        assert rep.log.sample_reducer == name and f"item value = {name} of its samples" in rep.text
        for scorer in ("choice", "model_graded_qa"):
            assert rep.scores[scorer] == header[(scorer, name)], (scorer, reducer)
            assert rep.log.aggregates[scorer] == header[(scorer, name)]


def test_inspect_pass_at_k_items_from_the_raw_grades(capsys):
    """pass_at_2 per item (the log's reduction) and pass@3 (sigfast's, from the epochs) equal Chen et al.'s formula
    on the raw grades; score, compare and the signature apply and name the reducer."""
    import math

    st2 = _parse("inspect", tuple(REDUCERS), reducer="pass_at_2").statistics("choice")
    st3 = _parse("inspect", tuple(REDUCERS), reducer="pass@3").statistics("choice")
    for k, path in enumerate(REDUCERS):
        grades = _grades(_inspect_raw(path), "choice")
        for st, kk in ((st2, 2), (st3, 3)):
            want = []
            for i in st.item_ids:
                n, c = len(grades[i]), int(sum(grades[i]))
                want.append(1 - math.comb(n - c, kk) / math.comb(n, kk))
            np.testing.assert_allclose(st.values[k, :, 0], want, rtol=1e-15, atol=1e-15)
    assert st2.provenance["sample_reducer"] == "pass_at_2" and st3.provenance["sample_reducer"] == "pass@3"
    assert st2.provenance["samples"][st2.systems[0]].shape == (60, 3)
    header = _header(_inspect_raw(REDUCERS[0]))
    rc, out, _ = _cli(capsys, "score", "-f", "inspect", REDUCERS[0], "-o", "reducer=pass_at_2")
    assert rc == 0 and out.count(repr(header[("choice", "pass_at_2")])) == 2
    rc, out, _ = _cli(capsys, "score", "-f", "inspect", REDUCERS[0], "-o", "reducer=pass@2", "--json")
    assert rc == 0 and json.loads(out)[0]["scores"]["choice"] == header[("choice", "pass_at_2")]
    assert "reducer=pass_at_2" in json.loads(out)[0]["signature"]
    rc, out, _ = _cli(capsys, "compare", "-f", "inspect", *REDUCERS, "-o", "reducer=pass_at_2", "-n", "200")
    assert rc == 0 and "reducer=pass_at_2" in out and f"{header[('choice', 'pass_at_2')]:.4f}" in out
    # partial credit (P = 0.5) is no pass/fail score: pass@3 of model_graded_qa is an error naming the item
    with pytest.raises(InputError, match=r"model_graded_qa with -o reducer=pass@3: .*item 'figqa-\d+', sample \d"):
        _parse("inspect", tuple(REDUCERS), reducer="pass@3").statistics("model_graded_qa")
    with pytest.raises(InputError, match=r"no sample reducer 'median'; the log's reductions: mean, pass_at_2"):
        parse("inspect", None, REDUCERS[:1], reducer="median")


@pytest.mark.parametrize("path", ERRORED, ids=lambda p: p.name)
def test_inspect_errored_samples_left_out_as_inspect_does(path, capsys):
    """Samples that errored (fail_on_error=False) have no score; Inspect's header leaves them out, and so does
    sigfast: every score equals the header's, each item's value is the mean of its scored epochs, and an item none
    of whose epochs was scored is not an item."""
    raw = _inspect_raw(path)
    errored = [(s["id"], s["epoch"]) for s in raw["samples"] if s.get("error") and not s.get("scores")]
    assert errored and raw["eval"]["config"]["fail_on_error"] is False
    assert raw["results"]["completed_samples"] == len(raw["samples"]) - len(errored)
    rep = _parse("inspect", (path,)).reports[0]
    for (scorer, _), value in _header(raw).items():
        assert rep.scores[scorer] == value, scorer
    grades = _grades(raw, "choice")
    assert rep.item_ids == tuple(grades)  # the items with a scored sample, in the log's order
    np.testing.assert_array_equal(rep.stats["choice"].values[:, 0], [np.mean(grades[i]) for i in rep.item_ids])
    assert f"errored samples left out (no score, as Inspect leaves them out): {len(errored)}" in rep.text
    assert rep.log.resolved["errored_samples"] == len(errored)
    rc, out, _ = _cli(capsys, "score", "-f", "inspect", path, "--json")
    assert rc == 0 and f"errored_samples={len(errored)}]" in json.loads(out)[0]["signature"]
    first = errored[0]
    msg = rf"{len(errored)} samples errored .*\(the first: sample '{first[0]}', epoch {first[1]}\)"
    with pytest.raises(FormatError, match=msg):
        parse("inspect", None, [path], errored="refuse")


def test_inspect_errored_items_compare(capsys):
    """An item that errored in every epoch of one model only: matched by id, it is missing from that log (an error
    naming it, or --intersect); the signature counts the errored samples of both logs."""
    n = sum(
        1 for p in ERRORED for s in _inspect_raw(p)["samples"] if s.get("error") and not s.get("scores")
    )  # fmt: skip
    with pytest.raises(InputError, match=r"\(mockllm/alpha\) lacks 1 of the 59 items of mockllm/beta \('figqa-0007'\)"):
        parse("inspect", None, ERRORED[::-1]).statistics()
    with pytest.warns(UserWarning, match="--intersect: testing the 58 items"):
        st = parse("inspect", None, ERRORED, intersect=True).statistics("choice")
    assert st.provenance["options"]["errored_samples"] == n
    rc, out, _ = _cli(capsys, "compare", "-f", "inspect", *ERRORED, "--intersect", "-n", "200")
    assert rc == 0 and f"errored_samples={n}" in out and "58 items" in out


def test_inspect_no_results_header_warns(tmp_path):
    def drop(log):
        del log["results"]

    bare = _inspect_edit(tmp_path, "bare", drop)
    with pytest.warns(UserWarning, match="the log has no results header"):
        rep = parse("inspect", None, [bare]).reports[0]
    assert (
        rep.log.aggregates == {}
        and rep.scores["choice"] == _parse("inspect", (INSPECT_EVAL[1],)).reports[0].scores["choice"]
    )


def test_inspect_different_epochs_warn():
    """A 3-epoch log against a 2-epoch one of the same task: their item values are means of different numbers of
    samples (a warning)."""
    with pytest.warns(UserWarning) as got:
        parse("inspect", None, [REDUCERS[0], INSPECT_JSON[1]], intersect=True).statistics("choice")
    messages = [str(w.message) for w in got]
    assert any("different numbers of epochs per item (mockllm/alpha: 3, mockllm/beta: 2)" in m for m in messages)
    assert any("--intersect: testing the 60 items" in m for m in messages)


# --------------------------------------------------------------------------------------------
# lm-eval: repeats (logs made by lm-eval 0.4.13 with repeats: 4, tests/data/llm/SOURCE.md)

REPEATS = [DATA / "lm-eval-repeats" / f"dummy-seed{k}" for k in (1, 2)]


def _repeat_acc(row: dict) -> list[float]:
    """Each repeat's acc from the raw log-likelihoods: resps holds one list per choice, one entry per repeat."""
    lls = np.array([[float(x[0]) for x in choice] for choice in row["resps"]])
    return [float(np.argmax(lls[:, j]) == int(row["target"])) for j in range(lls.shape[1])]


def test_lmeval_repeats_as_samples(capsys):
    """Default: lm-eval's own acc (the first repeat), equal to its results file; the 4 repeats are the samples, so
    -o reducer=pass@2 gives Chen et al.'s pass@2 of the repeats, in score, compare and the signature."""
    import math

    p = _parse("lm-eval", tuple(REPEATS))
    st = p.statistics("acc")
    for k, run in enumerate(REPEATS):
        res = _results(_samples(run, "figqa_rep4"))
        assert res["configs"]["figqa_rep4"]["repeats"] == 4
        assert p.reports[k].scores["acc"] == res["results"]["figqa_rep4"]["acc,none"]
        assert p.reports[k].scores["acc_norm"] == res["results"]["figqa_rep4"]["acc_norm,none"]
        rows = {str(r["doc_id"]): r for r in _lines(_samples(run, "figqa_rep4"))}
        per = np.array([_repeat_acc(rows[i]) for i in st.item_ids])
        np.testing.assert_array_equal(st.provenance["samples"][p.names[k]], per)
        np.testing.assert_array_equal(st.values[k, :, 0], per[:, 0])
        want = [1 - math.comb(4 - int(c), 2) / math.comb(4, 2) for c in per.sum(axis=1)]
        rep = _parse("lm-eval", (run,), reducer="pass@2").reports[0]
        np.testing.assert_allclose(rep.stats["acc"].values[:, 0], [want[st.item_ids.index(i)] for i in rep.item_ids])
        rc, out, _ = _cli(capsys, "score", "-f", "lm-eval", run, "-o", "reducer=pass@2", "--json")
        assert rc == 0 and json.loads(out)[0]["scores"]["acc"] == pytest.approx(np.mean(want), rel=1e-15)
    assert st.provenance["sample_reducer"] == "first"
    rc, out, _ = _cli(capsys, "compare", "-f", "lm-eval", *REPEATS, "-o", "reducer=pass@2", "-n", "200")
    assert rc == 0 and "format:lm-eval[task=figqa_rep4," in out and "reducer=pass@2" in out
    with pytest.raises(InputError, match=r"pass@5 needs at least 5 samples per item; item '0' has 4"):
        parse("lm-eval", None, REPEATS, reducer="pass@5").statistics("acc")


def test_lmeval_signature_names_the_task(capsys):
    rc, out, _ = _cli(capsys, "compare", "-f", "lm-eval", *LM_RUNS[:2], "--task", "figqa", "-n", "100")
    assert rc == 0 and "format:lm-eval[task=figqa," in out
    rc, out, _ = _cli(capsys, "compare", "-f", "lm-eval", *REPEATS, "-n", "100")  # the task found in the folders
    assert rc == 0 and "format:lm-eval[task=figqa_rep4," in out and "task=-" not in out


# --------------------------------------------------------------------------------------------
# lighteval on a re-ordered data set (logs made by lighteval 0.13.0, tests/data/llm/SOURCE.md)

REORDERED = [DATA / "lighteval-reordered" / "details" / f"dummy-seed{k}" for k in (1, 2)]


def _le_rows(run: Path) -> list[dict]:
    import pyarrow.parquet as pq

    (f,) = run.glob("*/details_*.parquet")
    return pq.read_table(f).to_pylist()


def test_lighteval_reordered_ids_from_doc_specific(capsys):
    """Model 2 ran on the same items in another order: lighteval's doc.id (the row's position) names other
    documents, so matching by it is refused (the message says what to do); -o id=id reads doc.specific.id, the
    data set's own id, and each model's score still equals its results file."""
    rows = [_le_rows(r) for r in REORDERED]
    assert [r["doc"]["id"] for r in rows[1]] == [r["doc"]["id"] for r in rows[0]]  # positions, both 0..59
    assert [r["doc"]["specific"]["id"] for r in rows[1]] != [r["doc"]["specific"]["id"] for r in rows[0]]
    with pytest.raises(InputError, match=r"query differs .*lighteval's doc.id is the row's position.*-o id=FIELD"):
        parse("lighteval", None, REORDERED).statistics()
    p = parse("lighteval", None, REORDERED, id="id", cluster="pair")
    st = p.statistics("acc")
    assert st.item_ids == tuple(r["doc"]["specific"]["id"] for r in rows[0])
    for k, run in enumerate(REORDERED):
        want = {
            r["doc"]["specific"]["id"]: float(np.argmax(r["model_response"]["logprobs"]) == r["doc"]["gold_index"])
            for r in rows[k]
        }
        np.testing.assert_array_equal(st.values[k, :, 0], [want[i] for i in st.item_ids])
        res = json.loads(
            next((LIGHTEVAL.parent / "lighteval-reordered" / "results" / run.name).glob("*.json")).read_text()
        )
        assert p.reports[k].scores["acc"] == res["results"]["figqa|0"]["acc"]
    pair = {r["doc"]["specific"]["id"]: r["doc"]["specific"]["pair"] for r in rows[1]}
    assert st.provenance["clusters"] == tuple(pair[i] for i in st.item_ids)
    same = parse("lighteval", None, REORDERED, id="specific.id").statistics("acc")
    np.testing.assert_array_equal(same.values, st.values)
    rc, out, _ = _cli(capsys, "info")
    assert rc == 0 and "-o id=id reads doc.specific.id" in out  # sigfast info documents it


# --------------------------------------------------------------------------------------------
# HELM with 3 train trials (runs made by crfm-helm 0.5.16, tests/data/llm/SOURCE.md)

HELM_TRIALS = sorted((DATA / "helm-trials").iterdir())


def _helm_test_means(run: Path) -> dict[str, float]:
    return {
        s["name"]["name"]: s["mean"]
        for s in _json_any(run / "stats.json")
        if set(s["name"]) == {"name", "split"} and s["name"]["split"] == "test" and "mean" in s
    }


def test_helm_trials_scores_equal_stats_json():
    """With 3 train trials HELM averages each trial's mean; sigfast's score of every statistic equals stats.json to
    the last digit (the mean of the items' trial averages does not, for some: the test would see the difference)."""
    p = _parse("helm", tuple(HELM_TRIALS), cluster="pair")
    naive_differs = 0
    for run, rep in zip(HELM_TRIALS, p.reports):
        stats = _helm_test_means(run)
        assert stats["num_train_trials"] == 3
        for m, v in rep.scores.items():
            assert v == stats[m], (run.name, m)
            naive_differs += float(np.mean(rep.stats[m].values[:, 0])) != stats[m]
        assert repr(stats["exact_match"]) in rep.text and "train trials: 3" in rep.text
    assert naive_differs > 0


def test_helm_trials_are_samples_from_the_completions(capsys):
    """Each trial's exact_match per instance, recomputed from the completion and the correct reference's letter,
    is the item's sample; the item's value is their mean; -o reducer=pass@2 reduces them."""
    import math

    p = _parse("helm", tuple(HELM_TRIALS), cluster="pair")
    st = p.statistics("exact_match")
    assert st.values.shape == (3, 90, 1) and len(set(st.provenance["clusters"])) == 45
    for k, run in enumerate(HELM_TRIALS):
        per: dict[str, dict[int, float]] = {}
        for rs in _json_any(run / "scenario_state.json")["request_states"]:
            inst = rs["instance"]
            correct = [r["output"]["text"] for r in inst["references"] if "correct" in r["tags"]]
            letter = [a for a, t in rs["output_mapping"].items() if t in correct]
            per.setdefault(inst["id"], {})[rs["train_trial_index"]] = float(
                rs["result"]["completions"][0]["text"].strip() in letter
            )
        want = np.array([[per[i][t] for t in (0, 1, 2)] for i in st.item_ids])
        np.testing.assert_array_equal(st.provenance["samples"][p.names[k]], want)
        np.testing.assert_allclose(st.values[k, :, 0], want.mean(axis=1), rtol=1e-15)
        pass2 = [1 - math.comb(3 - int(c), 2) / math.comb(3, 2) for c in want.sum(axis=1)]
        got = parse("helm", None, [run], reducer="pass@2").statistics("exact_match")
        np.testing.assert_allclose(got.values[0, :, 0], pass2, rtol=1e-15)
    rc, out, _ = _cli(capsys, "compare", "-f", "helm", *HELM_TRIALS[:2], "-o", "cluster=pair", "-n", "200")
    assert rc == 0 and "90 items" in out and "clusters(45,pair)" in out


def test_lmeval_repeats_without_results_file(tmp_path):
    """Without the results file (no task config), the repeats are read from the responses themselves."""
    src = _samples(REPEATS[0], "figqa_rep4")
    shutil.copy(src, tmp_path / src.name)
    with pytest.warns(UserWarning, match="no results_<time>.json beside it"):
        bare = parse("lm-eval", None, [tmp_path / src.name], reducer="pass@2").reports[0]
    full = _parse("lm-eval", (REPEATS[0],), reducer="pass@2").reports[0]
    np.testing.assert_array_equal(bare.stats["acc"].values, full.stats["acc"].values)
