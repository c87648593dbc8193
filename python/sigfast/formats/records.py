"""Per-item records of any harness: JSON lines, CSV/TSV or Parquet, one record per item (or per sample).

Format ``"records"``: one file per system. The fields are named by options:

``-o id=FIELD``
    the item id (default ``id``); items are matched by id between systems.
``-o score=FIELD[,FIELD...]``
    the per-item score(s) (default ``score``); each is a metric named by its
    field. Values are numbers, booleans (0/1) or numeric strings.
``-o cluster=FIELD``
    the item's cluster key (for the clustered tests); an empty or NaN key is an
    error naming the item (it would make the items without a key one cluster).
``-o sample=FIELD``
    the sample (generation, epoch, seed) a record is of, when an item has
    several records: the item's value is the mean of its samples, and the
    samples are kept for repeated-sample inference. Without it, an id that
    occurs twice is an error.
``-o run=FIELD``
    the training run (seed) a record is of: an item's samples are its runs,
    keyed by this field (the same run keys for every item and system), for the
    two-level bootstrap (runs within items) or the crossed one (items × runs).
``-o prompt=FIELD``
    the prompt (template) a record was made with: items are crossed with
    prompts, one record per (item, prompt) (several with ``-o sample=``, then
    averaged); an item's value is the mean over its prompts, and the per-prompt
    values are kept for the crossed designs (``resampling="crossed"``).
``-o model=FIELD``
    a field naming the model (the same in every record): the system's name.
``-o check=FIELD[,FIELD...]``
    fields that must agree between two systems for every matched item (a
    prompt or target hash, the gold answer).
``-o layout=json|jsonl|csv|tsv|parquet``
    the file layout; default from the extension (``.json``: an array of
    objects or one object per line, ``.jsonl``, ``.csv``, ``.tsv``,
    ``.parquet``; ``.gz`` allowed except for Parquet).

The corpus score of a metric is the mean of its items' values. A CSV header
naming a column twice is an error, and so is a JSON record naming a field
twice or a Parquet file naming a column twice; Parquet decimal columns are read
as floats.
Parquet needs ``pyarrow`` (``pip install 'sigfast[parquet]'``), imported only when a
Parquet file is read.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from . import _logs
from ._base import FormatSpec, Option, ReadmeRow, ScoreReport, read_file_bytes

__all__ = ["SPECS", "read_parquet", "read_records", "records_run"]

LAYOUTS = ("json", "jsonl", "csv", "tsv", "parquet")


def layout_of(path: Path, layout: str | None) -> str:
    """The file layout: ``layout`` when given, else from the extension (``.gz`` set aside)."""
    if layout is not None:
        return layout
    name = path.name[:-3] if path.name.endswith(".gz") else path.name
    ext = os.path.splitext(name)[1].lower()
    found = {
        ".jsonl": "jsonl",
        ".json": "json",
        ".ndjson": "jsonl",
        ".csv": "csv",
        ".tsv": "tsv",
        ".parquet": "parquet",
    }
    if ext not in found:
        raise FormatError(
            f"cannot tell the layout from the extension {ext or '(none)'}; give -o layout={'|'.join(LAYOUTS)}",
            path=str(path),
        )
    return found[ext]


def _json_records(path: Path, role: str) -> tuple[list[Mapping[str, Any]], list[int]] | None:
    """A .json file that holds an array of objects: the objects, each with the line it starts on; None when
    the file is not an array (then it is read as one object per line)."""
    text = "".join(line for _, line in _logs.open_text(path, role))
    start = len(text) - len(text.lstrip())
    if not text[start:].startswith("["):
        return None
    dec = json.JSONDecoder()
    recs: list[Mapping[str, Any]] = []
    where: list[int] = []
    i = start + 1
    n = len(text)

    def skip(k: int) -> int:
        while k < n and text[k] in " \t\r\n":
            k += 1
        return k

    i = skip(i)
    if i < n and text[i] == "]":
        return recs, where
    while True:
        line = text.count("\n", 0, i) + 1
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError as e:
            raise FormatError(
                f"the {role} file is not valid JSON ({e.msg}, column {e.colno})", str(path), e.lineno
            ) from None
        if not isinstance(obj, Mapping):
            raise FormatError(f"expected an array of JSON objects (one per {role})", str(path), line)
        recs.append(obj)
        where.append(line)
        i = skip(i)
        if i < n and text[i] == ",":
            i = skip(i + 1)
            continue
        if i < n and text[i] == "]":
            if skip(i + 1) != n:
                raise FormatError("text after the array's end", str(path), text.count("\n", 0, i) + 1)
            return recs, where
        raise FormatError(f"expected ',' or ']' between the {role}s", str(path), text.count("\n", 0, i) + 1)


def read_parquet(path: Path) -> list[dict[str, Any]]:
    """The rows of a Parquet file as dicts (pyarrow, imported here)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise FormatError(
            "reading Parquet needs pyarrow: pip install pyarrow (or pip install 'sigfast[parquet]')", path=str(path)
        ) from None
    import pyarrow as pa

    data, _ = read_file_bytes(path, "Parquet")  # the formats' one reader: gzip, the size limit
    # In this thread only, and closed before anything is returned or raised: pyarrow's thread pools, once
    # started by a read, ended a process that exited soon after (an error message, exit 1) with SIGABRT
    # ("terminate called without an active exception"; 3 of 40 runs of read_table then exit)
    try:
        with pq.ParquetFile(io.BytesIO(data), pre_buffer=False) as pf:
            table = pf.read(use_threads=False)  # (read_table refuses a column named twice, on many lines)
        try:
            names = table.column_names
            twice = next((c for k, c in enumerate(names) if c in names[:k]), None)
            if twice is not None:
                raise FormatError(
                    f"the Parquet file names the column {twice!r} twice; give every column its own name", str(path)
                )
            return table.to_pylist()
        finally:
            del table
    except (OSError, ValueError, ArithmeticError, NotImplementedError, pa.ArrowException) as e:
        if isinstance(e, FormatError):
            raise
        raise FormatError(f"not a readable Parquet file: {' '.join(str(e).split())}", path=str(path)) from None


def read_records(
    path: Any, layout: str | None = None, role: str = "record"
) -> tuple[list[Mapping[str, Any]], list[int]]:
    """(records, their line numbers; row numbers for Parquet) of a records file: JSON (an array of objects,
    or one object per line), JSON lines, CSV/TSV or Parquet. ``role`` names a record in messages."""
    p = Path(os.fspath(path))
    lay = layout_of(p, layout)
    name = str(p)
    if lay == "parquet":
        rows = read_parquet(p)
        return rows, list(range(1, len(rows) + 1))
    if lay == "json":
        array = _json_records(p, role)
        if array is not None:
            return array
    lines = list(_logs.open_text(p, f"{role}s"))
    if lay in ("json", "jsonl"):
        recs, where = [], []
        for ln, line in lines:
            if not line.strip():
                continue
            obj = _logs.parse_json(line, name, role, ln, unique_keys=True)
            if not isinstance(obj, Mapping):
                raise FormatError("expected one JSON object per line", name, ln)
            recs.append(obj)
            where.append(ln)
        return recs, where
    text = "".join(line for _, line in lines)
    reader = csv.DictReader(io.StringIO(text), delimiter="\t" if lay == "tsv" else ",")
    header = reader.fieldnames or []
    seen: set[str] = set()
    for h in header:
        if h in seen:
            raise FormatError(
                f"the header names the column {h!r} twice; give every column its own name (which one would be read?)",
                name,
                1,
            )
        seen.add(h)
    recs = []
    where = []
    for row in reader:
        if None in row:
            raise FormatError("more fields than the header names", name, reader.line_num)
        recs.append(row)
        where.append(reader.line_num)
    return recs, where


def _fields(v: str | None) -> list[str]:
    return [f.strip() for f in v.split(",") if f.strip()] if v else []


def _number(v: Any, where: str) -> float:
    import decimal

    if isinstance(v, (bool, np.bool_)):
        return float(v)
    if isinstance(v, (int, float, np.integer, np.floating, decimal.Decimal)):
        f = float(v)  # a Parquet decimal: the nearest float
    elif isinstance(v, str):
        low = v.strip().lower()
        if low in ("true", "false"):
            return float(low == "true")
        try:
            f = float(low)
        except ValueError:
            raise FormatError(f"{where}: {v!r} is not a number") from None
    else:
        raise FormatError(f"{where}: {v!r} is not a number")
    if not np.isfinite(f):
        raise FormatError(f"{where}: {v!r} is not a finite number")
    return f


def records_run(
    recs: Sequence[Mapping[str, Any]],
    where: Sequence[int],
    name: str,
    *,
    id: str = "id",
    score: str = "score",
    cluster: str | None = None,
    sample: str | None = None,
    run: str | None = None,
    prompt: str | None = None,
    model: str | None = None,
    check: str | None = None,
    harness: str = "records",
    task: str = "",
    what: str = "line",
) -> _logs.LogRun:
    """A :class:`~sigfast.formats._logs.LogRun` from records (dicts) with the fields named."""
    if not recs:
        raise FormatError("the file holds no record", path=name)
    metrics = _fields(score)
    if not metrics:
        raise InputError("-o score= names no field")
    checks = _fields(check)
    if run and prompt:
        raise InputError("give one of -o run= and -o prompt= (a records file crosses its items with one of them)")
    if run and sample:
        raise InputError("-o run= tells an item's samples apart already; leave out -o sample=")
    keyed = run or prompt
    needed = [id, *metrics, *checks] + [f for f in (cluster, sample, run, prompt, model) if f]
    for k, r in enumerate(recs):
        missing = [f for f in needed if f not in r]
        if missing:
            raise FormatError(
                f"no field {missing[0]!r} (its fields: {', '.join(map(str, r))}); name the fields with "
                "-o id=, -o score=, -o cluster=, -o sample=, -o run=, -o prompt=",
                name,
                where[k],
            )
    order: dict[str, int] = {}
    rows: list[list[int]] = []
    for k, r in enumerate(recs):
        i = _logs.key_text(r[id], f"{what} {where[k]}", id, "id", path=name)
        j = order.setdefault(i, len(order))
        if j == len(rows):
            rows.append([])
        rows[j].append(k)
    ids = tuple(order)
    cell_of: list[str] = []
    if keyed:
        cell_of = [_logs.key_text(r[keyed], f"{what} {where[k]}", keyed, keyed, path=name) for k, r in enumerate(recs)]
    for i, ks in zip(ids, rows):
        if len(ks) > 1:
            if keyed and sample is None:
                cells: dict[str, int] = {}
                for k in ks:
                    if cell_of[k] in cells:
                        raise FormatError(
                            f"item {i!r}, {keyed} {cell_of[k]!r} occurs twice ({what} {where[cells[cell_of[k]]]} and "
                            f"{where[k]})" + (" (several samples of one cell need -o sample=FIELD)" if prompt else ""),
                            path=name,
                        )
                    cells[cell_of[k]] = k
                continue
            if sample is None:
                raise FormatError(
                    f"item id {i!r} occurs twice ({what} {where[ks[0]]} and {where[ks[1]]}); every item needs its own "
                    "id (several samples of one item need a sample field: -o sample=FIELD)",
                    path=name,
                )
            seen: dict[Any, int] = {}
            for k in ks:
                s: Any = _logs.id_text(recs[k][sample])
                if keyed:
                    s = (cell_of[k], s)
                if s in seen:
                    raise FormatError(
                        f"item {i!r}, sample {s!r} occurs twice ({what} {where[seen[s]]} and {where[k]})", path=name
                    )
                seen[s] = k
    values: dict[str, np.ndarray] = {}
    samples: dict[str, np.ndarray] = {}
    keys: tuple[str, ...] = tuple(dict.fromkeys(cell_of)) if keyed else ()
    for m in metrics:
        per = [[_number(recs[k][m], f"{name}, {what} {where[k]}, {m}") for k in ks] for ks in rows]
        if keyed:
            col = {c: j for j, c in enumerate(keys)}
            cells_m = np.full((len(rows), len(keys)), np.nan)
            for j, (ks, p) in enumerate(zip(rows, per)):
                acc: dict[str, list[float]] = {}
                for k, v in zip(ks, p):
                    acc.setdefault(cell_of[k], []).append(v)
                for c, vs in acc.items():
                    cells_m[j, col[c]] = float(np.mean(vs))
            values[m] = np.array([float(np.mean(r[~np.isnan(r)])) for r in cells_m])
            samples[m] = cells_m
            continue
        values[m] = np.array([float(np.mean(p)) for p in per])
        if any(len(p) > 1 for p in per):
            samples[m] = _logs.pad_samples(per)
    for f in [cluster, *checks]:
        if f is None:
            continue
        for i, ks in zip(ids, rows):
            if f == cluster:
                vals = {_logs.key_text(recs[k][f], f"item {i!r} ({what} {where[k]})", f, path=name) for k in ks}
            else:
                vals = {_logs.id_text(recs[k][f]) for k in ks}
            if len(vals) > 1:
                raise FormatError(f"item {i!r}: its samples disagree on {f} ({', '.join(sorted(vals))})", path=name)
    firsts = [recs[ks[0]] for ks in rows]
    model_name = ""
    if model is not None:
        names = {str(r[model]) for r in recs}
        if len(names) > 1:
            raise FormatError(
                f"the {model} field names {len(names)} models ({', '.join(sorted(names)[:5])}); give one "
                "file per model",
                path=name,
            )
        model_name = names.pop()
    log_run = _logs.LogRun(
        harness=harness,
        path=name,
        task=task,
        model=model_name,
        ids=ids,
        values=values,
        samples=samples,
        higher_is_better=dict.fromkeys(values, True),
        clusters=_logs.cluster_keys(firsts, cluster, name, "item", ids) if cluster else None,
        cluster_field=cluster,
        checks={f: tuple(_logs.id_text(r[f]) for r in firsts) for f in checks},
        scores={m: _logs.mean_in_order(v) for m, v in values.items()},
        headline=metrics[0],
        sample_kind=("runs" if run else "prompts") if keyed else "samples",
        n_samples=len(keys) if keyed else max(len(ks) for ks in rows),
        sample_axis=("run" if run else "prompt") if keyed else "",
        sample_field=keyed or "",
        sample_keys=keys,
    )
    return log_run


def _score(gold: Any, system: Any, **options: Any) -> ScoreReport:
    if gold is not None:
        raise InputError("format 'records' reads per-item scores; give the system files only")
    options = dict(options)
    layout = options.pop("layout", None)

    def read(path: Any, **opts: Any) -> _logs.LogRun:
        recs, where = read_records(path, layout)
        what = "row" if layout_of(Path(os.fspath(path)), layout) == "parquet" else "line"
        return records_run(recs, where, str(path), what=what, **opts)

    return _logs.read_report("records", system, read, options)


def _runs(folder: Path) -> list[Path]:
    """A folder of per-item records: one ``.jsonl``, ``.json``, ``.csv``, ``.tsv`` or ``.parquet`` file (gzipped
    or not) per system."""
    return _logs.files_in(folder, (".jsonl", ".json", ".csv", ".tsv", ".parquet"))


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer=(
        "per-item records of any harness (JSON lines, CSV/TSV, Parquet): `-o id= -o score= -o cluster= -o "
        "sample=`; without `-f`, a file whose header names `id` and `score` is read so ([Formats "
        "detected](#formats-detected))"
    ),
    checked="—",
    speed="—",
)


SPECS = (
    FormatSpec(
        name="records",
        readme=README_ROW,
        description="per-item records of any harness (JSON lines, CSV/TSV, Parquet) with the id, score, cluster "
        "and sample fields named by options; items matched by id",
        reference="none (the mean of the per-item scores)",
        score=_score,
        options=(
            Option("id", str, "id", help="the field holding the item id"),
            Option(
                "score", str, "score", help="the field(s) holding per-item scores (comma-separated: several metrics)"
            ),
            Option("sample", str, None, help="the field telling an item's samples apart (several records per item)"),
            Option(
                "run",
                str,
                None,
                help="the field naming a record's training run (seed): an item's samples are its runs, keyed alike "
                "for every item (two-level or crossed designs)",
            ),
            Option(
                "prompt",
                str,
                None,
                help="the field naming a record's prompt template: items crossed with prompts, one record per (item, "
                "prompt); kept for the crossed designs",
            ),
            Option("model", str, None, help="the field naming the model (the system's name)"),
            Option("check", str, None, help="fields that must agree between systems for every item (comma-separated)"),
            Option("layout", str, None, choices=LAYOUTS, help="the file layout (default: from the extension)"),
            *_logs.COMMON_OPTIONS,
        ),
        aliases=("per-item-records",),
        metrics=("score", "..."),
        gold_optional=True,
        join=_logs.join,
        name_systems=_logs.name_systems,
        runs=_runs,
    ),
)
