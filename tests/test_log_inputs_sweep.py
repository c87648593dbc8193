"""A sweep over the bad LLM-log and records inputs of issue 29: each gives a SigfastError naming the document, item,
field or line (on the command line: one line, exit 1), or the correct result; never a traceback, a silent switch to
another metric, or items merged into one cluster.

Every bad input is an edited copy of a log the real harness wrote (tests/data/llm/, see SOURCE.md there) or a small
records file written here; the correct results are read from the unedited logs and files, not from sigfast.
"""

from __future__ import annotations

import copy
import csv
import decimal
import gzip
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from _warns import warnings_on_stderr
from sigfast.cli import main
from sigfast.exceptions import SigfastError
from sigfast.formats import parse

# the bad logs are edited copies: their per-item values no longer give the aggregate beside them (warned)
pytestmark = pytest.mark.filterwarnings("ignore:.*the per-item log and the aggregate disagree")

DATA = Path(__file__).resolve().parent / "data" / "llm"
LM_RUN = DATA / "lm-eval" / "dummy-seed1"
HELM_RUN = sorted((DATA / "helm").iterdir())[0]
INSPECT_BETA = DATA / "inspect" / "figqa_beta_12items.eval"
INSPECT_ALPHA = DATA / "inspect" / "figqa_alpha_12items.eval"
LE_RUN = DATA / "lighteval" / "details" / "dummy-seed1"


def _lines(path: Path) -> list[str]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return fh.read().splitlines(keepends=True)


def _samples(task: str) -> Path:
    (f,) = [p for p in LM_RUN.iterdir() if p.name.startswith(f"samples_{task}_2")]
    return f


def _lmeval_copy(tmp_path: Path, name: str, edit: Callable[[list[dict]], None], task: str = "figqa_rev") -> Path:
    """Model 1's run of ``task`` with its samples (as JSON objects) edited by ``edit(rows)``, results file beside."""
    src = _samples(task)
    run = tmp_path / name
    run.mkdir()
    rows = [json.loads(ln) for ln in _lines(src)]
    edit(rows)
    (run / src.name.removesuffix(".gz")).write_text("".join(json.dumps(r) + "\n" for r in rows))
    time = src.name.split("_")[-1].split(".jsonl")[0]
    shutil.copy(src.parent / f"results_{time}.json", run)
    return run


def _cli(capsys, *args: object) -> tuple[int, str, str]:
    with warnings_on_stderr():
        rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def _one_line_error(capsys, *args: object) -> str:
    rc, out, err = _cli(capsys, *args)
    assert rc == 1, (out, err)
    errors = [ln for ln in err.strip().splitlines() if not ln.startswith("sigfast: warning: ")]
    assert len(errors) == 1 and errors[0].startswith("sigfast: error: "), err
    assert "Traceback" not in err
    return errors[0]


def _refused(capsys, fmt: str, paths: list, options: dict, metric: str | None, msg: str, command: str = "compare"):
    """The API and the command line refuse the input with ``msg`` (a regex)."""
    with pytest.raises(SigfastError, match=msg):
        parse(fmt, None, paths, **options).statistics(metric)
    opts = [a for k, v in options.items() for a in ("-o", f"{k}={v}")]
    args = [command, "-f", fmt, *paths, *opts, *(["-m", metric] if metric else [])]
    if command == "compare":
        args += ["-n", "100"]
    line = _one_line_error(capsys, *args)
    assert re.search(msg, line), line
    return line


# --------------------------------------------------------------------------------------------
# lm-eval: a non-finite or non-numeric value of the metric asked for


def _set_acc(value):
    def edit(rows):
        rows[6]["acc"] = value  # doc_id 6, line 7

    return edit


@pytest.mark.parametrize(
    "value", [float("nan"), None, "1", [1.0], float("inf")], ids=["nan", "null", "string", "list", "inf"]
)
def test_lmeval_bad_metric_value(tmp_path, capsys, value):
    """One document's acc is not a number: acc (the default, or -m acc) is an error naming the document, its line
    and the field; acc_norm (asked for) is still read, equal to the unedited log's; nothing runs on acc_norm
    in acc's place."""
    bad = _lmeval_copy(tmp_path, "bad", _set_acc(value))
    msg = r"line 7: document '6': acc is .*, not a finite number"
    for metric in (None, "acc"):
        _refused(capsys, "lm-eval", [_samples("figqa_rev"), bad], {}, metric, msg)
        line = _one_line_error(capsys, "score", "-f", "lm-eval", bad, *(["-m", metric] if metric else []))
        assert re.search(msg, line), line
    got = parse("lm-eval", None, [_samples("figqa_rev"), bad]).statistics("acc_norm")
    want = parse("lm-eval", None, [_samples("figqa_rev")]).statistics("acc_norm")
    np.testing.assert_array_equal(got.values[1], want.values[0])


def test_lmeval_truncated_line_is_named(tmp_path, capsys):
    """A samples file cut in the middle of line 150 is refused at line 150 (not line 1)."""
    src = _samples("figqa")
    lines = _lines(src)[:150]
    lines[-1] = lines[-1][: len(lines[-1]) // 2]
    run = tmp_path / "cut"
    run.mkdir()
    (run / src.name.removesuffix(".gz")).write_text("".join(lines))
    msg = r"line 150: the samples line is not valid JSON"
    line = _one_line_error(capsys, "score", "-f", "lm-eval", run)
    assert re.search(msg, line), line
    with pytest.raises(SigfastError, match=msg):
        parse("lm-eval", None, [run])


def test_lmeval_cluster_key_missing(tmp_path, capsys):
    def edit(rows):
        rows[3]["doc"]["pair"] = ""
        rows[8]["doc"]["pair"] = None

    bad = _lmeval_copy(tmp_path, "bad", edit)
    _refused(
        capsys, "lm-eval", [_samples("figqa_rev"), bad], {"cluster": "pair"}, "acc", r"document '3': cluster field"
    )


def test_lmeval_bad_reducer_name(capsys):
    opts = {"task": "figqa_rev", "reducer": "median"}
    _refused(capsys, "lm-eval", [LM_RUN], opts, "acc", r"no sample reducer 'median'", "score")
    # one sample per document: pass@2 cannot be computed (the message says why), pass@1 is the value itself
    opts = {"task": "figqa_rev", "reducer": "pass@2"}
    _refused(capsys, "lm-eval", [LM_RUN], opts, "acc", r"item '0' has 1 .*no repeats", "score")
    one = parse("lm-eval", None, [LM_RUN], task="figqa_rev", reducer="pass@1").statistics("acc")
    plain = parse("lm-eval", None, [LM_RUN], task="figqa_rev").statistics("acc")
    np.testing.assert_array_equal(one.values, plain.values)


# --------------------------------------------------------------------------------------------
# lighteval: a null metric value, no silent switch to em


def _le_copy(tmp_path: Path, edit: Callable[[list[dict]], None]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    (src,) = LE_RUN.glob("*/details_*.parquet")
    dst = tmp_path / "details" / "dummy-seed1" / src.parent.name / src.name
    dst.parent.mkdir(parents=True)
    results = DATA / "lighteval" / "results" / "dummy-seed1"
    shutil.copytree(results, tmp_path / "results" / "dummy-seed1")
    rows = pq.read_table(src).to_pylist()
    edit(rows)
    pq.write_table(pa.Table.from_pylist(rows), dst)
    return dst


@pytest.mark.parametrize("value", [None, float("nan")], ids=["null", "nan"])
def test_lighteval_bad_metric_value(tmp_path, capsys, value):
    def edit(rows):
        rows[4]["metric"]["acc"] = value

    bad = _le_copy(tmp_path, edit)
    doc = json.dumps(str(_le_rows()[4]["doc"]["id"]))[1:-1]
    msg = rf"row 5: document '{doc}': acc is (None|nan), not a finite number"
    for metric in (None, "acc"):
        _refused(capsys, "lighteval", [bad], {}, metric, msg, command="score")


def _le_rows() -> list[dict]:
    import pyarrow.parquet as pq

    (src,) = LE_RUN.glob("*/details_*.parquet")
    return pq.read_table(src).to_pylist()


# --------------------------------------------------------------------------------------------
# Inspect


def _inspect_json(tmp_path: Path, name: str, edit: Callable[[dict], None]) -> Path:
    from sigfast.formats.inspectlog import _read_any

    log = copy.deepcopy(_read_any(INSPECT_BETA))
    edit(log)
    out = tmp_path / f"{name}.json"
    out.write_text(json.dumps(log))
    return out


def test_inspect_epochs_disagree_on_the_cluster(tmp_path, capsys):
    def edit(log):
        (s,) = [s for s in log["samples"] if s["id"] == "figqa-0003" and s["epoch"] == 2]
        s["metadata"]["pair"] = "pair-999"

    bad = _inspect_json(tmp_path, "bad", edit)
    msg = r"sample 'figqa-0003': its epochs disagree on pair \(epoch 1: 'pair-001', epoch 2: 'pair-999'\)"
    _refused(capsys, "inspect", [INSPECT_ALPHA, bad], {"cluster": "pair"}, None, msg)


def test_inspect_empty_cluster_key(tmp_path, capsys):
    def edit(log):
        for s in log["samples"]:
            if s["id"] == "figqa-0004":
                s["metadata"]["pair"] = ""

    bad = _inspect_json(tmp_path, "bad", edit)
    _refused(capsys, "inspect", [INSPECT_ALPHA, bad], {"cluster": "pair"}, None, r"sample 'figqa-0004': cluster")


def test_inspect_errored_first_sample_named(tmp_path, capsys):
    """The log's first sample errored (no score): it is left out, not blamed on the next sample; a sample that
    lacks a score the others have is named, with its epoch."""

    def errored(log):
        s = log["samples"][0]
        s["scores"], s["error"] = {}, {"message": "RuntimeError('boom')", "traceback": ""}

    bad = _inspect_json(tmp_path, "errored", errored)
    rep = parse("inspect", None, [bad]).reports[0]
    first = json.loads(bad.read_text())["samples"][0]
    assert f"errored samples left out (no score, as Inspect leaves them out): 1 ('{first['id']}' epoch " in rep.text

    def lacking(log):
        del log["samples"][5]["scores"]["choice"]

    bad = _inspect_json(tmp_path, "lacking", lacking)
    s = json.loads(bad.read_text())["samples"][5]
    _refused(
        capsys, "inspect", [bad], {}, None, rf"sample '{s['id']}', epoch {s['epoch']} has no score 'choice'", "score"
    )


def test_inspect_score_value_not_a_grade(tmp_path, capsys):
    def edit(log):
        log["samples"][2]["scores"]["choice"]["value"] = [1, 0]

    bad = _inspect_json(tmp_path, "bad", edit)
    s = json.loads(bad.read_text())["samples"][2]
    _refused(
        capsys, "inspect", [bad], {}, None, rf"sample '{s['id']}', epoch {s['epoch']}, choice: score value", "score"
    )


# --------------------------------------------------------------------------------------------
# HELM: counts


def _helm_copy(tmp_path: Path, edit: Callable[[list[dict]], None]) -> Path:
    dst = tmp_path / "run"
    dst.mkdir()
    for f in ("run_spec.json", "scenario.json", "stats.json"):
        shutil.copy(HELM_RUN / f, dst / f)
    pis = json.loads(gzip.decompress((HELM_RUN / "per_instance_stats.json.gz").read_bytes()))[:40]
    edit(pis)
    (dst / "per_instance_stats.json").write_text(json.dumps(pis))
    return dst


@pytest.mark.parametrize(
    "field,value,msg",
    [
        ("count", -1, r"count -1 is not a whole number >= 0"),
        ("count", 0.5, r"count 0.5 is not a whole number >= 0"),
        ("count", "1", r"count '1' is not a whole number >= 0"),
        ("sum", float("nan"), r"sum nan is not a finite number"),
        ("sum", None, r"sum None is not a finite number"),
    ],
)
def test_helm_bad_counts(tmp_path, capsys, field, value, msg):
    def edit(pis):
        st = next(s for s in pis[7]["stats"] if s["name"]["name"] == "exact_match")
        st[field] = value

    bad = _helm_copy(tmp_path, edit)
    full = rf"instance 'figqa-0007', train trial 0, statistic 'exact_match': {msg}"
    _refused(capsys, "helm", [bad], {}, None, full, "score")


# --------------------------------------------------------------------------------------------
# records: cluster keys, duplicate headers, decimals


RECS = [
    {"id": "q1", "score": 1, "topic": "t1"},
    {"id": "q2", "score": 0, "topic": "t1"},
    {"id": "q3", "score": 1, "topic": ""},
    {"id": "q4", "score": 1, "topic": "t2"},
]


def _csv(path: Path, header: list[str], rows: list[list]) -> Path:
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


@pytest.mark.parametrize("value", ["", "nan", "NaN", " "], ids=["empty", "nan", "NaN", "blank"])
def test_records_csv_cluster_key_missing(tmp_path, capsys, value):
    a = _csv(tmp_path / "a.csv", ["id", "score", "topic"], [[r["id"], r["score"], r["topic"] or value] for r in RECS])
    msg = r"item 'q3' \(line 4\): cluster field 'topic' is .*, not a cluster key"
    _refused(capsys, "records", [a], {"cluster": "topic"}, None, msg, "score")


@pytest.mark.parametrize("ext", [".jsonl", ".parquet"])
def test_records_nan_or_null_cluster_key(tmp_path, capsys, ext):
    rows = [dict(r) for r in RECS]
    rows[2]["topic"] = float("nan") if ext == ".jsonl" else None
    path = tmp_path / f"a{ext}"
    if ext == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        where = r"line 3"
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
        where = r"row 3"
    _refused(capsys, "records", [path], {"cluster": "topic"}, None, rf"item 'q3' \({where}\): cluster field", "score")


def test_records_empty_id(tmp_path, capsys):
    a = _csv(tmp_path / "a.csv", ["id", "score"], [["q1", 1], ["", 0]])
    _refused(capsys, "records", [a], {}, None, r"line 3: id field 'id' is '', not an item id", "score")


def test_records_duplicate_csv_header(tmp_path, capsys):
    a = _csv(tmp_path / "a.csv", ["id", "score", "score"], [["q1", 1, 0], ["q2", 0, 1]])
    _refused(capsys, "records", [a], {}, None, r"line 1: the header names the column 'score' twice", "score")
    t = tmp_path / "a.tsv"
    t.write_text("id\tscore\tid\nq1\t1\tq9\n")
    _refused(capsys, "records", [t], {}, None, r"the header names the column 'id' twice", "score")


def test_records_parquet_decimal_scores(tmp_path, capsys):
    """A decimal128 score column is read, each value the float nearest to the decimal."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    scores = [decimal.Decimal("0.1"), decimal.Decimal("0.35"), decimal.Decimal("1.00"), decimal.Decimal("0.333")]
    table = pa.table({"id": ["a", "b", "c", "d"], "score": pa.array(scores, type=pa.decimal128(10, 3))})
    path = tmp_path / "dec.parquet"
    pq.write_table(table, path)
    st = parse("records", None, [path]).statistics()
    assert st.values[0, :, 0].tolist() == [0.1, 0.35, 1.0, 0.333]
    rc, out, _ = _cli(capsys, "score", "-f", "records", path, "--json")
    assert rc == 0 and json.loads(out)[0]["scores"]["score"] == sum([0.1, 0.35, 1.0, 0.333]) / 4


def test_records_bad_score_named(tmp_path, capsys):
    for bad in ("", "NaN", "[1]", "abc"):
        a = _csv(tmp_path / "a.csv", ["id", "score"], [["q1", 1], ["q2", bad]])
        _refused(capsys, "records", [a], {}, None, r"a.csv, line 3, score: .* not a (finite )?number", "score")


def test_inspect_logs_reducing_differently(tmp_path, capsys):
    """Two logs whose headers report different first reducers: no silent mix of a mean and a pass@2; one
    -o reducer= for both is taken."""
    src = DATA / "inspect-cases" / "figqa_beta_reducers.json.gz"
    log = json.loads(gzip.decompress(src.read_bytes()))
    log["results"]["scores"] = log["results"]["scores"][1:2] + log["results"]["scores"][:1]
    log["results"]["headline"]["reducer"] = "pass_at_2"
    other = tmp_path / "beta_pass_first.json"
    other.write_text(json.dumps(log))
    alpha = DATA / "inspect-cases" / "figqa_alpha_reducers.json.gz"
    msg = r"reduce their items' samples differently \(mockllm/alpha: mean, mockllm/beta: pass_at_2\)"
    _refused(capsys, "inspect", [alpha, other], {}, "choice", msg)
    st = parse("inspect", None, [alpha, other], reducer="pass_at_2").statistics("choice")
    assert st.provenance["sample_reducer"] == "pass_at_2" and st.provenance["options"]["reducer"] == "pass_at_2"


def test_records_duplicate_json_key_and_parquet_column(tmp_path, capsys):
    j = tmp_path / "a.jsonl"
    j.write_text('{"id": "q1", "score": 1}\n{"id": "q2", "score": 1, "score": 0}\n')
    _refused(capsys, "records", [j], {}, None, r"a.jsonl, line 2: the record names the field 'score' twice", "score")
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = pa.Table.from_arrays([pa.array(["q1", "q2"]), pa.array([1, 0]), pa.array([0, 1])], ["id", "score", "score"])
    path = tmp_path / "a.parquet"
    pq.write_table(t, path)
    _refused(capsys, "records", [path], {}, None, r"the Parquet file names the column 'score' twice", "score")


def test_records_different_sample_counts_warn(tmp_path):
    """Two systems with 2 and 3 samples per item: tested, with a warning that their item values average different
    numbers of samples."""
    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    a.write_text(
        "".join(json.dumps({"id": f"q{i}", "s": s, "score": (i + s) % 2}) + "\n" for i in range(4) for s in range(2))
    )
    b.write_text(
        "".join(json.dumps({"id": f"q{i}", "s": s, "score": (i * s) % 2}) + "\n" for i in range(4) for s in range(3))
    )
    with pytest.warns(UserWarning, match=r"different numbers of samples per item \(a: 2, b: 3\)"):
        st = parse("records", None, [a, b], sample="s").statistics()
    assert st.values[:, :, 0].tolist() == [[0.5] * 4, [0.0, 1 / 3, 0.0, 1 / 3]]


def test_records_read_a_json_array_as_json_lines(tmp_path: Path) -> None:
    """One records reader for JSON: a .json file holding an array of objects gives the same items as one object
    per line (the battles format reads through it too); a broken array names its line."""
    import json

    import sigfast

    rows = [{"id": f"q{i}", "score": i % 3 / 2} for i in range(12)]
    arr, lines = tmp_path / "a.json", tmp_path / "b.jsonl"
    arr.write_text("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows))
    a = sigfast.read(None, [str(arr)], format="records")
    b = sigfast.read(None, [str(lines)], format="records")
    assert a.item_ids == b.item_ids and (a.values == b.values).all()
    bad = tmp_path / "c.json"
    bad.write_text('[\n{"id": "q0", "score": 1},\n{"id": "q1" "score": 0}\n]\n')
    with pytest.raises(sigfast.FormatError, match=r"c\.json.*line 3"):
        sigfast.read(None, [str(bad)], format="records")
