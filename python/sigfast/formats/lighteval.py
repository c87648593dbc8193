"""lighteval details: ``details_<task>_<date>.parquet`` with ``results_<date>.json``.

Format ``"lighteval"``: one run per system, given as a details file or a folder of them
(``OUTPUT/details/<model>/<date>/``, or ``OUTPUT/details/<model>/`` holding one date); ``--task``
(``-o task=NAME``, with or without the ``|few-shot`` suffix) picks the task where there are
several. lighteval writes them as

* ``OUTPUT/details/<model>/<date>/details_<task>_<date>.parquet``: one row per document,
  with the columns ``doc`` (``query``, ``choices``, ``gold_index``, ``id``, ``specific``...),
  ``model_response`` and ``metric`` (each sample-level metric's value for the document);
* ``OUTPUT/results/<model>/results_<date>.json``: the model's name (``config_general.model_name``,
  the system's name), the task versions and lighteval's aggregate of each metric
  (``results[task][metric]``), which ``sigfast score -f lighteval`` prints beside sigfast's
  recomputation.

Items are the documents, identified by ``doc.id`` and matched by id between systems; the query,
choices and gold index must agree for every matched item. lighteval's ``doc.id`` is the row's
position in the data set, so on a data set whose rows were re-ordered between runs it names
other documents: ``-o id=FIELD`` takes the id from ``doc.specific`` (the fields the task's prompt
function keeps, where the data set's own ids are: ``-o id=id`` reads ``doc.specific.id``), else
from ``doc``; ``specific.id`` names the path. Metrics: the sample-level metrics with numeric
values (Parquet decimals read as floats); a document whose value of one is not a finite number
(null, NaN) makes it an error when asked for or the default, naming the document (never a silent
switch to another metric). The corpus score is their mean in row order (``np.mean``, as
lighteval's ``corpus_level_fn``). ``-o cluster=FIELD`` reads the cluster key from
``doc.specific`` or ``doc``.

Reading Parquet needs ``pyarrow`` (``pip install 'sigfast[parquet]'``), imported only here.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from . import _logs
from ._base import FormatSpec, Option, ScoreReport
from .records import read_parquet

__all__ = ["SPECS", "find_details", "read_run"]

_DETAILS = re.compile(r"^details_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d.:-]+)\.parquet$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T[\d.:-]+$")


def _details_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and _DETAILS.match(p.name))


def _task_matches(file_task: str, task: str) -> bool:
    return file_task == task or file_task.rsplit("|", 1)[0] == task


def find_details(path: Any, task: str | None) -> Path:
    """The details file of one run: ``path`` is the file, its date folder, or its model folder (one date)."""
    p = Path(os.fspath(path))
    if p.is_file():
        m = _DETAILS.match(p.name)
        if m is None:  # a renamed details file: no task in its name, no results file found
            return p
        if task is not None and not _task_matches(m["task"], task):
            raise InputError(f"{p}: a log of task {m['task']!r}, not of task {task!r} (--task)")
        return p
    if not p.is_dir():
        raise FormatError("no such file or folder", path=str(p))
    files = _details_in(p)
    if not files:
        dates = sorted(d for d in p.iterdir() if d.is_dir() and _DATE.match(d.name) and _details_in(d))
        if len(dates) > 1:
            raise InputError(
                f"{p}: holds {len(dates)} runs ({', '.join(d.name for d in dates)}); give one run's folder"
            )
        if not dates:
            raise FormatError("no lighteval details file (details_<task>_<date>.parquet) in the folder", path=str(p))
        files = _details_in(dates[0])
    tasks = {_DETAILS.match(f.name)["task"]: f for f in files}  # type: ignore[index]
    if task is None:
        if len(tasks) > 1:
            raise InputError(
                f"{p}: holds the details of {len(tasks)} tasks ({', '.join(sorted(tasks))}); pick one with --task"
            )
        return next(iter(tasks.values()))
    hits = [t for t in tasks if _task_matches(t, task)]
    if len(hits) != 1:
        raise InputError(
            f"{p}: {'no' if not hits else 'several'} details of task {task!r} (it has: {', '.join(sorted(tasks))})"
        )
    return tasks[hits[0]]


def _results_for(details: Path) -> Path | None:
    """``OUTPUT/results/<model>/results_<date>.json`` for ``OUTPUT/details/<model>/<date>/details_...``."""
    date = details.parent.name
    parts = details.parent.parts
    if "details" not in parts:
        return None
    k = len(parts) - 1 - parts[::-1].index("details")
    root, model = Path(*parts[:k]), Path(*parts[k + 1 : -1]) if len(parts) - k > 2 else Path()
    for name in (f"results_{date}.json", f"results_{date}.json.gz"):
        f = root / "results" / model / name
        if f.is_file():
            return f
    return None


def _field(doc: Mapping[str, Any], field: str, where: str, specific_first: bool = True) -> Any:
    """A field of the document: ``doc.specific[field]`` (the task's own fields, where a data set's ids are),
    else ``doc[field]`` (lighteval's own: ``id`` is the row's position); ``specific_first=False`` looks in
    ``doc`` first (the default id, ``doc.id``). ``a.b`` is a path into nested fields (``specific.id``)."""
    if "." in field:  # a path into nested fields: specific.id
        v: Any = doc
        for part in field.split("."):
            v = v.get(part) if isinstance(v, Mapping) else None
        if v is not None:
            return v
    spec = doc.get("specific") if isinstance(doc.get("specific"), Mapping) else {}
    for src in (spec, doc) if specific_first else (doc, spec):
        if field in src and src[field] is not None:
            return src[field]
    raise FormatError(f"{where}: the document has no field {field!r} (in doc.specific or doc)")


def read_run(path: Any, *, task: str | None = None, id: str | None = None, cluster: str | None = None) -> _logs.LogRun:
    """One lighteval run's details of one task as a :class:`~sigfast.formats._logs.LogRun`."""
    details = find_details(path, task)
    name = str(details)
    named = _DETAILS.match(details.name)
    file_task = named["task"] if named else (task or "")
    rows = read_parquet(details)
    if not rows:
        raise FormatError("the details file holds no document", path=name)
    docs = []
    for k, r in enumerate(rows):
        doc = r.get("doc")
        if not isinstance(doc, Mapping) or not isinstance(r.get("metric"), Mapping):
            raise FormatError(f"row {k + 1} has no doc or metric column (a lighteval details file?)", path=name)
        docs.append(doc)
    field = id or "id"
    ids = tuple(
        _logs.key_text(
            _field(d, field, f"{name}, row {k + 1}", specific_first=id is not None),
            f"row {k + 1}",
            field,
            "id",
            path=name,
        )
        for k, d in enumerate(docs)
    )
    _logs.check_unique(ids, name, what="row")
    metric_names = list(rows[0]["metric"])
    values: dict[str, np.ndarray] = {}
    unusable: dict[str, str] = {}
    skipped = []
    for m in metric_names:
        col = [_number(r["metric"].get(m)) for r in rows]
        if all(v is None for v in col):  # no document has a number: not a per-item metric
            skipped.append(m)
            continue
        bad = next((k for k, v in enumerate(col) if v is None or not math.isfinite(v)), None)
        if bad is not None:
            unusable[m] = (
                f"{name}, row {bad + 1}: document {ids[bad]!r}: {m} is {rows[bad]['metric'].get(m)!r}, not a finite "
                f"number; every document needs one to test {m} (sigfast does not switch to another metric)"
            )
            values[m] = np.full(len(col), np.nan)
            continue
        values[m] = np.array(col, dtype=np.float64)
    if not values:
        raise FormatError("no sample-level metric with numeric values", path=name)
    results_file = _results_for(details) if named else None
    results: Mapping[str, Any] = {}
    warnings: list[str] = []
    if results_file is not None:
        results = _logs.read_json(results_file, "results")
    else:
        warnings.append(
            f"{name}: no results/<model>/results_<date>.json for it: the system is named after its file and "
            "lighteval's aggregates are not checked"
        )
    task_results = (results.get("results") or {}).get(file_task) or {}
    aggregates = {m: float(task_results[m]) for m in values if isinstance(task_results.get(m), (int, float))}
    general = results.get("config_general") or {}
    model = str(general.get("model_name") or "")
    rev = (
        (general.get("model_config") or {}).get("revision")
        if isinstance(general.get("model_config"), Mapping)
        else None
    )
    if model and rev not in (None, "", "main"):
        model = f"{model}@{rev}"
    setup = {}
    version = (results.get("versions") or {}).get(file_task)
    if version is not None:
        setup["task version"] = version
    run = _logs.LogRun(
        harness="lighteval",
        path=name,
        task=file_task,
        model=model,
        ids=ids,
        values=values,
        higher_is_better=dict.fromkeys(values, True),
        clusters=_logs.cluster_keys(
            [{**{k: v for k, v in d.items() if v is not None}, **(d.get("specific") or {})} for d in docs],
            cluster,
            name,
            "document",
            ids,
        )
        if cluster is not None
        else None,
        cluster_field=cluster,
        checks={
            "query": tuple(str(d.get("query")) for d in docs),
            "choices": tuple(json.dumps(d.get("choices")) for d in docs),
            "gold_index": tuple(json.dumps(d.get("gold_index")) for d in docs),
        },
        aggregates=aggregates,
        aggregate_source=results_file.name if results_file is not None else "",
        scores={m: float(np.mean(v)) for m, v in values.items() if m not in unusable},  # lighteval's, in row order
        setup=setup,
        headline=next(iter(values)),
        notes=(f"no per-item number: {', '.join(skipped)}",) if skipped else (),
        warnings=tuple(warnings),
        unusable=unusable,
        resolved={"task": file_task},
        id_hint="; lighteval's doc.id is the row's position in the data set: if the rows were re-ordered, "
        "match the documents by the data set's own id (-o id=FIELD, a field of doc.specific)",
    )
    return run


def _is_run(d: Path) -> bool:
    return bool(_details_in(d)) or any(x.is_dir() and _DATE.match(x.name) and _details_in(x) for x in d.iterdir())


def _runs(folder: Path) -> list[Path]:
    """lighteval's output folder (or its ``details/``): one sub-folder per model, holding the details Parquet
    files or dated folders of them (or the model's folder itself)."""
    base = folder / "details" if (folder / "details").is_dir() else folder
    return [folder] if _is_run(folder) else _logs.subfolders(base, _is_run)


def _number(v: Any) -> float | None:
    """A metric value as a float (a bool 0/1, a Parquet decimal exactly rounded), or None if it is no number."""
    import decimal

    if isinstance(v, (bool, int, float, np.bool_, np.integer, np.floating, decimal.Decimal)):
        return float(v)
    return None


def _score(gold: Any, system: Any, **options: Any) -> ScoreReport:
    if gold is not None:
        raise InputError("format 'lighteval' reads the gold from the details; give the details files or folders only")
    return _logs.read_report("lighteval", system, read_run, options)


SPECS = (
    FormatSpec(
        name="lighteval",
        readme=_logs.LOG_README_ROW,
        description="lighteval details (details_<task>_<date>.parquet, results_<date>.json), items matched by doc id; "
        "needs pyarrow",
        reference="lighteval's results file (the aggregate of each metric)",
        score=_score,
        options=(
            Option("task", str, None, help="the task whose details to read from a folder (--task)"),
            Option(
                "id",
                str,
                None,
                help="the item id: a field of doc.specific (the task's own fields; -o id=id reads doc.specific.id), "
                "else of doc, instead of doc.id (the row's position in the data set, wrong on a re-ordered one)",
            ),
            *_logs.COMMON_OPTIONS,
        ),
        aliases=("light-eval",),
        metrics=("acc", "em", "..."),
        gold_optional=True,
        join=_logs.join,
        name_systems=_logs.name_systems,
        runs=_runs,
    ),
)
