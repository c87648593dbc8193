"""lm-evaluation-harness sample logs: ``samples_<task>_<time>.jsonl`` with ``results_<time>.json`` beside it.

Format ``"lm-eval"``. A system is one run of ``lm-eval ... --log_samples
--output_path OUT``, given as

* a run folder (``OUT/<model>/``, or ``OUT`` when it holds one model's
  folder): the samples file of the task picked with ``--task`` /
  ``-o task=NAME`` (needed when the folder holds several tasks), or
* a samples file (``samples_<task>_<time>.jsonl``, gzip allowed as ``.gz``; a file named
  otherwise is read as a samples file of the task ``-o task=`` names, without a results file).

The results file of the same time (``results_<time>.json``) beside the
samples gives the model name (``model_name``, with ``@revision`` when the
model arguments name a revision), the task version, n-shot, each metric's
direction and lm-eval's own aggregate (``results[task]["acc,none"]``), which
``sigfast score -f lm-eval`` prints beside sigfast's recomputation; without
it the system is named after its file, with a warning.

One line of the samples file is one document: ``doc_id``, ``doc``, the
per-document metric values (``acc``, ``acc_norm``, ``exact_match``, ``f1``,
...), ``filter``, ``doc_hash``, ``prompt_hash`` and ``target_hash``. Items are
the documents, identified by ``doc_id`` (or ``-o id=FIELD``, a field of
``doc``) and matched by id between systems; the three hashes must agree for
every matched item (see :mod:`sigfast.formats._logs`). A task with several
filters (``strict-match`` and ``flexible-extract`` for GSM8K) logs one line
per document and filter: ``-o filter=NAME`` picks one, otherwise the metrics
are named as lm-eval names them in its results (``exact_match,strict-match``).

Metrics: every per-document metric that lm-eval aggregates with ``mean``;
each item's statistic is its value (booleans count as 0/1), and the corpus
score their mean, summed as lm-eval sums them (``sum(values) / len(values)``
in document order). A document whose value of such a metric is not a finite
number (NaN, null, a string, a list) makes that metric an error when it is
asked for or is the default, naming the document and its line: sigfast never
switches to another metric. Metrics lm-eval aggregates over the corpus from
non-numeric per-document values (BLEU, corpus F1) have no per-item score and
are listed as such in the report.

A task run with ``repeats: K`` (its config in the results file) has K
responses per request; lm-eval scores the first (its ``take_first`` filter),
and so does sigfast by default (``-o reducer=first``). For a multiple-choice
task the K repeats' ``acc`` and ``acc_norm`` are recomputed from the
log-likelihoods in ``resps`` as lm-eval computes the first (which they are
checked to equal), and kept as the items' samples: ``-o reducer=mean`` or
``-o reducer=pass@K`` then makes each item's value from them.

``-o cluster=FIELD`` reads each item's cluster key from ``doc[FIELD]`` (dots
reach into nested fields).
"""

from __future__ import annotations

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

__all__ = ["SPECS", "find_logs", "read_run"]

_SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<time>\d{4}-\d{2}-\d{2}T[\d.:-]+?)\.jsonl(?:\.gz)?$")
_RESULTS = re.compile(r"^results_(?P<time>\d{4}-\d{2}-\d{2}T[\d.:-]+?)\.json(?:\.gz)?$")
#: keys of a samples line that are not metrics
_FIELDS = frozenset(
    "doc_id doc target arguments resps filtered_resps filter metrics doc_hash prompt_hash target_hash task_name".split()
)


def _samples_in(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_file() and _SAMPLES.match(p.name))
    except OSError as e:
        raise FormatError(f"cannot list the folder: {e.strerror or e}", path=str(folder)) from None


def find_logs(path: Any, task: str | None) -> tuple[Path, Path | None]:
    """(samples file, results file or None) of one run: ``path`` is a samples file or a run folder."""
    p = Path(os.fspath(path))
    if p.is_file():
        m = _SAMPLES.match(p.name)
        if m is None:  # a renamed samples file: no task in its name, no results file beside it
            return p, None
        if task is not None and m["task"] != task:
            raise InputError(f"{p}: a log of task {m['task']!r}, not of task {task!r} (--task)")
        return p, _results_beside(p, m["time"])
    if not p.is_dir():
        raise FormatError("no such file or folder", path=str(p))
    files = _samples_in(p)
    if not files:  # the --output_path folder: one folder per model
        subs = sorted(d for d in p.iterdir() if d.is_dir() and _samples_in(d))
        if len(subs) > 1:
            raise InputError(
                f"{p}: holds the runs of {len(subs)} models ({', '.join(d.name for d in subs)}); give one model's "
                "folder per system"
            )
        if not subs:
            raise FormatError("no lm-eval samples file (samples_<task>_<time>.jsonl) in the folder", path=str(p))
        files = _samples_in(subs[0])
    tasks: dict[str, list[Path]] = {}
    for f in files:
        tasks.setdefault(_SAMPLES.match(f.name)["task"], []).append(f)  # type: ignore[index]
    if task is None:
        if len(tasks) > 1:
            raise InputError(
                f"{p}: holds the samples of {len(tasks)} tasks ({', '.join(sorted(tasks))}); pick one with --task"
            )
        task = next(iter(tasks))
    if task not in tasks:
        raise InputError(f"{p}: no samples of task {task!r} (it has: {', '.join(sorted(tasks))})")
    chosen = tasks[task]
    if len(chosen) > 1:
        raise InputError(
            f"{p}: {len(chosen)} runs of task {task!r} ({', '.join(f.name for f in chosen)}); give the samples file "
            "of the run to test"
        )
    f = chosen[0]
    return f, _results_beside(f, _SAMPLES.match(f.name)["time"])  # type: ignore[index]


def _results_beside(samples: Path, time: str) -> Path | None:
    for name in (f"results_{time}.json", f"results_{time}.json.gz"):
        r = samples.parent / name
        if r.is_file():
            return r
    return None


def _model_name(results: Mapping[str, Any]) -> str:
    cfg = results.get("config") or {}
    args = cfg.get("model_args")
    if isinstance(args, str):  # older lm-eval: "pretrained=NAME,revision=R"
        args = dict(kv.split("=", 1) for kv in args.split(",") if "=" in kv)
    if not isinstance(args, Mapping):
        args = {}
    name = results.get("model_name") or next(
        (str(args[k]) for k in ("peft", "delta", "pretrained", "model", "path", "engine") if args.get(k)), ""
    )
    name = str(name or cfg.get("model") or "")
    rev = args.get("revision")
    if name and rev not in (None, "", "main"):
        name = f"{name}@{rev}"
    return name


def read_run(
    path: Any,
    *,
    task: str | None = None,
    filter: str | None = None,
    id: str | None = None,
    cluster: str | None = None,
) -> _logs.LogRun:
    """One lm-eval run's samples of one task as a :class:`~sigfast.formats._logs.LogRun`."""
    samples_file, results_file = find_logs(path, task)
    named = _SAMPLES.match(samples_file.name)
    task = named["task"] if named else (task or "")
    name = str(samples_file)
    rows: list[tuple[int, dict[str, Any]]] = []
    for ln, line in _logs.open_text(samples_file, "samples"):
        if not line.strip():
            continue
        obj = _logs.parse_json(line, name, "samples line", ln)
        if not isinstance(obj, dict) or "doc_id" not in obj:
            raise FormatError("expected one JSON object with a doc_id per line (an lm-eval samples file)", name, ln)
        rows.append((ln, obj))
    if not rows:
        raise FormatError("the samples file holds no document", path=name)
    filters = list(dict.fromkeys(str(r.get("filter", "none")) for _, r in rows))
    if filter is not None:
        if filter not in filters:
            raise InputError(f"{name}: no filter {filter!r}; its filters: {', '.join(filters)}")
        use = [filter]
    else:
        use = filters
    results: Mapping[str, Any] = {}
    warnings: list[str] = []
    if results_file is not None:
        results = _logs.read_json(results_file, "results")
        if not isinstance(results, Mapping):
            raise FormatError("expected a JSON object (an lm-eval results file)", path=str(results_file))
    else:
        warnings.append(
            f"{name}: no results_<time>.json beside it: the system is named after its file, and the task version, "
            "n-shot and lm-eval's aggregates are not checked"
        )
    task_results = (results.get("results") or {}).get(task) or {}
    task_cfg = (results.get("configs") or {}).get(task) or {}
    aggregation = {
        str(m.get("metric")): m.get("aggregation")
        for m in task_cfg.get("metric_list") or ()
        if isinstance(m, Mapping) and isinstance(m.get("aggregation"), str)
    }
    hib_cfg = (results.get("higher_is_better") or {}).get(task) or {}
    repeats = task_cfg.get("repeats")
    repeats = repeats if isinstance(repeats, int) and not isinstance(repeats, bool) and repeats > 1 else 1
    if not task_cfg:  # no results file: the repeats as the responses show them (one list per request)
        lengths = {len(x) for _, r in rows for x in (r.get("resps") or ()) if isinstance(x, list)}
        repeats = lengths.pop() if len(lengths) == 1 and min(lengths) > 1 else repeats
    delimiter = task_cfg.get("target_delimiter")
    delimiter = delimiter if isinstance(delimiter, str) else " "

    per_filter = {f: [(ln, r) for ln, r in rows if str(r.get("filter", "none")) == f] for f in use}
    ids0: tuple[str, ...] | None = None
    values: dict[str, np.ndarray] = {}
    hib: dict[str, bool] = {}
    aggregates: dict[str, float] = {}
    scores: dict[str, float] = {}
    not_per_item: list[str] = []
    unusable: dict[str, str] = {}
    samples: dict[str, np.ndarray] = {}
    repeat_notes: list[str] = []
    checks: dict[str, tuple[Any, ...]] = {}
    docs: list[Any] = []
    for f, frows in per_filter.items():
        ids = tuple(_doc_id(r, id, name, ln) for ln, r in frows)
        _logs.check_unique(ids, name, [ln for ln, _ in frows])
        if ids0 is None:
            ids0 = ids
            docs = [r.get("doc") or {} for _, r in frows]
            for key in ("doc_hash", "prompt_hash", "target_hash"):
                if all(key in r for _, r in frows):
                    checks[key] = tuple(r[key] for _, r in frows)
        elif set(ids) != set(ids0):
            raise FormatError(f"filter {f!r} logs other documents than filter {use[0]!r}", path=name)
        pos = {i: k for k, i in enumerate(ids)}
        order = [pos[i] for i in ids0]
        names = frows[0][1].get("metrics")
        metric_names = (
            [str(m) for m in names] if isinstance(names, list) else [k for k in frows[0][1] if k not in _FIELDS]
        )
        per_repeat = _repeat_values(frows, repeats, delimiter) if repeats > 1 else {}
        for m in metric_names:
            key = m if len(use) == 1 else f"{m},{f}"
            agg = aggregation.get(m, "mean")
            col = [r.get(m) for _, r in frows]
            # a metric lm-eval aggregates over the corpus (BLEU, F1: each document holds a tuple), or one the log
            # does not say how it aggregates and whose values are no numbers at all, has no per-item value; a
            # mean of per-document values where one document's value is not a number is an error when asked for
            if agg != "mean" or (m not in aggregation and not any(_is_number(v) for v in col)):
                not_per_item.append(key)
                continue
            hib[key] = bool(hib_cfg.get(m, True))
            bad = next((k for k, v in enumerate(col) if not _is_number(v) or not math.isfinite(float(v))), None)
            if bad is not None:
                ln = frows[bad][0]
                unusable[key] = (
                    f"{name}, line {ln}: document {ids[bad]!r}: {m} is {_json(col[bad])}, not a finite number; every "
                    f"document needs one to test {key} (sigfast does not switch to another metric)"
                )
                values[key] = np.full(len(col), np.nan)
                continue
            values[key] = np.array([float(col[k]) for k in order], dtype=np.float64)
            scores[key] = sum(float(col[k]) for k in range(len(col))) / len(col)  # lm-eval's mean, in file order
            agg_value = task_results.get(f"{m},{f}")
            if _is_number(agg_value):
                aggregates[key] = float(agg_value)
            rep = per_repeat.get(m)
            if isinstance(rep, str):
                repeat_notes.append(f"{key}: {rep}")
            elif rep is not None:
                if rep[:, 0].tolist() != [float(col[k]) for k in range(len(col))]:  # pragma: no cover - lm-eval's own
                    repeat_notes.append(f"{key}: the first repeat's recomputed {m} differs from the log's")
                else:
                    samples[key] = rep[order]
    if not values:
        raise FormatError(
            "no per-document metric with numeric values"
            + (f" (aggregated over the corpus only: {', '.join(not_per_item)})" if not_per_item else ""),
            path=name,
        )
    assert ids0 is not None
    clusters = _logs.cluster_keys(docs, cluster, name, "document", ids0) if cluster is not None else None
    setup: dict[str, Any] = {}
    if results:
        for label, key in (("task version", "versions"), ("n-shot", "n-shot")):
            v = (results.get(key) or {}).get(task)
            if v is not None:
                setup[label] = v
    if len(use) == 1 and len(filters) > 1:
        setup["filter"] = use[0]
    notes = []
    if not_per_item:
        notes.append(f"no per-item score (lm-eval aggregates them over the corpus): {', '.join(not_per_item)}")
    if repeats > 1:
        notes.append(
            f"repeats: {repeats} (lm-eval scores the first, its take_first filter; "
            + (f"the repeats' values of {', '.join(samples)} are recomputed from resps" if samples else "")
            + ("; " if samples and repeat_notes else "")
            + "; ".join(repeat_notes)
            + ")"
        )
    run = _logs.LogRun(
        harness="lm-eval",
        path=name,
        task=task,
        model=_model_name(results) if results else "",
        ids=ids0,
        values=values,
        samples=samples,
        higher_is_better=hib,
        clusters=clusters,
        cluster_field=cluster,
        checks=checks,
        aggregates=aggregates,
        aggregate_source=results_file.name if results_file is not None else "",
        scores=scores,
        setup=setup,
        headline=next(iter(values)),
        notes=tuple(notes),
        warnings=tuple(warnings),
        unusable=unusable,
        sample_reducer="first" if repeats > 1 else "mean",
        sample_kind="repeats",
        n_samples=repeats,
        resolved={"task": task},
        task_hint=" (pick it with --task)",
    )
    return run


def _repeat_values(rows: list[tuple[int, dict[str, Any]]], repeats: int, delimiter: str) -> dict[str, Any]:
    """Each repeat's acc and acc_norm of every document of a multiple-choice task run with ``repeats``, from the
    log-likelihoods in ``resps`` (one list per choice, one entry per repeat), as lm-eval computes them for the
    first: the argmax over the choices (acc_norm: of the log-likelihood over the choice's length in characters)
    against the target. {metric: (documents, repeats) array}, or {metric: why not} where the log does not hold
    what it takes (a generate_until task logs no per-repeat score)."""
    out: dict[str, list[list[float]]] = {"acc": [], "acc_norm": []}
    for _, r in rows:
        resps, args = r.get("resps"), r.get("arguments")
        if not isinstance(resps, list) or not isinstance(args, Mapping) or len(args) != len(resps) or not resps:
            why = "the log holds no per-repeat score of this task (only multiple-choice log-likelihoods are re-scored)"
            return dict.fromkeys(out, why)
        try:
            choices = []
            for a in args.values():
                c = str(a["arg_1"])
                choices.append(c[len(delimiter) :] if c.startswith(delimiter) else c)
            lls = np.array([[float(x[0]) for x in per_choice] for per_choice in resps], dtype=np.float64)
            target = r.get("target")
            gold = int(target) if str(target).lstrip("-").isdigit() else choices.index(str(target))
        except (KeyError, TypeError, ValueError, IndexError):
            return dict.fromkeys(out, "the resps of a document are not one log-likelihood per choice and repeat")
        if lls.shape != (len(choices), repeats):
            return dict.fromkeys(out, f"a document's resps hold {lls.shape[1]} repeats, not {repeats}")
        length = np.array([float(len(c)) for c in choices])
        out["acc"].append([float(int(np.argmax(lls[:, j])) == gold) for j in range(repeats)])
        out["acc_norm"].append([float(int(np.argmax(lls[:, j] / length)) == gold) for j in range(repeats)])
    return {m: np.array(v, dtype=np.float64) for m, v in out.items()}


def _json(v: Any) -> str:
    """A value as the log wrote it (JSON: null, NaN, "1", [1.0])."""
    import json

    try:
        return json.dumps(v)
    except (TypeError, ValueError):  # pragma: no cover - parsed from JSON
        return repr(v)


def _is_number(v: Any) -> bool:
    return isinstance(v, (bool, int, float)) and not (isinstance(v, float) and math.isnan(v))


def _doc_id(row: Mapping[str, Any], field: str | None, path: str, line: int) -> str:
    if field is None:
        return _logs.id_text(row["doc_id"])
    doc = row.get("doc")
    if not isinstance(doc, Mapping) or field not in doc:
        have = ", ".join(sorted(doc)) if isinstance(doc, Mapping) else "none"
        raise FormatError(f"the document has no id field {field!r} (its fields: {have})", path, line)
    return _logs.id_text(doc[field])


def _runs(folder: Path) -> list[Path]:
    """lm-eval's ``--output_path`` folder: one sub-folder per model holding ``samples_<task>_<time>.jsonl``
    (or the model's folder itself)."""
    return [folder] if _samples_in(folder) else _logs.subfolders(folder, _samples_in)


def _score(gold: Any, system: Any, **options: Any) -> ScoreReport:
    if gold is not None:
        raise InputError("format 'lm-eval' reads the gold from the logs; give the run folders or samples files only")
    return _logs.read_report("lm-eval", system, read_run, options)


SPECS = (
    FormatSpec(
        name="lm-eval",
        readme=_logs.LOG_README_ROW,
        description="lm-evaluation-harness per-document logs (samples_<task>_<time>.jsonl, results_<time>.json "
        "beside it); a run folder or a samples file per system, items matched by doc_id",
        reference="lm-eval's results file (the aggregate of each metric)",
        score=_score,
        options=(
            Option("task", str, None, help="the task whose samples to read from a run folder (--task)"),
            Option("filter", str, None, help="the filter whose lines to read (tasks with several filters)"),
            Option("id", str, None, help="a field of doc to use as the item id instead of doc_id"),
            *_logs.COMMON_OPTIONS,
        ),
        aliases=("lm-evaluation-harness", "lm_eval", "lmeval"),
        metrics=("acc", "acc_norm", "exact_match", "f1", "mcc", "..."),
        gold_optional=True,
        join=_logs.join,
        name_systems=_logs.name_systems,
        runs=_runs,
    ),
)
