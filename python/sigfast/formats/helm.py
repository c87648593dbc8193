"""HELM run folders: per-instance statistics and instance ids.

Format ``"helm"``: one run folder per system, ``benchmark_output/runs/<suite>/<run name>/`` as
``helm-run`` writes it (each file may be gzipped, ``.json.gz``), or its per-instance statistics
file, read with the run's other files where they are beside it:

``per_instance_stats.json``
    one entry per instance, train trial and perturbation: ``instance_id``, ``train_trial_index``,
    ``stats`` (each a named statistic of that instance: ``count``, ``sum``, ``mean``...). Items are
    the instance ids, matched by id between systems; the unperturbed entries are read.
``stats.json``
    HELM's aggregate of every statistic (``mean``), which ``sigfast score -f helm`` prints beside
    sigfast's recomputation.
``run_spec.json``
    the model (``adapter_spec.model``: the system's name) and the run's name, whose part without
    ``model=...`` is the task (two logs of different tasks are refused).
``scenario_state.json`` (optional)
    the instances: each item's input and references must agree between systems, and
    ``-o cluster=FIELD`` reads the cluster key from the instance's ``extra_data`` (or a field of the
    instance, e.g. ``sub_split``).

Metrics: every statistic with one value per instance (``exact_match``, ``quasi_exact_match``,
``f1_score``, ...); an instance's value is ``sum / count`` of its statistic (``count`` a whole
number: anything else is an error naming the instance), averaged over train trials when there are
several (the trials are kept as samples); the corpus score is computed as HELM computes it: per
trial, the instances' sums over their counts, added in the file's order, then the mean of the
trials' means (equal to ``stats.json`` to the last digit; the mean of the items' trial averages
can differ from it in the last digits). ``-o split=NAME`` picks the split when
the run has several (default: the one there is, else ``test``).
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

__all__ = ["SPECS", "read_run"]


def _file(folder: Path, name: str, required: bool = True) -> Path | None:
    for n in (name, name + ".gz"):
        if (folder / n).is_file():
            return folder / n
    if required:
        raise FormatError(f"no {name} in the HELM run folder", path=str(folder))
    return None


def _task(run_name: str) -> str:
    """The run's name without its model part: ``mmlu:subject=anatomy,model=openai_gpt2`` -> ``mmlu:subject=anatomy``."""
    head, _, args = run_name.partition(":")
    kept = [a for a in args.split(",") if a and not a.startswith(("model=", "model_deployment="))]
    return head + (":" + ",".join(kept) if kept else "")


def _name_key(name: Mapping[str, Any]) -> tuple[str, str, bool]:
    return str(name.get("name")), str(name.get("split")), "perturbation" in name or "sub_split" in name


def read_run(path: Any, *, cluster: str | None = None, split: str | None = None) -> _logs.LogRun:
    """One HELM run folder as a :class:`~sigfast.formats._logs.LogRun`."""
    given = Path(os.fspath(path))
    if given.is_file():  # the per-instance statistics themselves; the run's other files beside them if there
        folder, pis_path = given.parent, given
    elif given.is_dir():
        folder = given
        pis_path = _file(folder, "per_instance_stats.json")
    else:
        raise FormatError("no such HELM run folder", path=str(given))
    assert pis_path is not None
    name = str(given)
    entries = _logs.read_json(pis_path, "per-instance statistics")
    if not isinstance(entries, list) or not entries:
        raise FormatError("expected a non-empty JSON list of per-instance statistics", path=str(pis_path))
    run_spec_path = _file(folder, "run_spec.json", required=given.is_dir())
    run_spec = _logs.read_json(run_spec_path, "run spec") if run_spec_path is not None else {}
    stats_path = _file(folder, "stats.json", required=False)
    state_path = _file(folder, "scenario_state.json", required=False)

    # unperturbed entries: instance -> trial -> {stat: value}
    splits: set[str] = set()
    per: dict[str, dict[int, dict[str, float]]] = {}
    for k, e in enumerate(entries):
        if not isinstance(e, Mapping) or "instance_id" not in e:
            raise FormatError(f"entry {k + 1} has no instance_id", path=str(pis_path))
        if e.get("perturbation"):
            continue
        i = _logs.key_text(e["instance_id"], f"entry {k + 1}", "instance_id", "id", path=str(pis_path))
        trial = e.get("train_trial_index", 0)
        if isinstance(trial, bool) or not isinstance(trial, int) or trial < 0:
            raise FormatError(f"instance {i!r}: train_trial_index {trial!r} is not a whole number", path=str(pis_path))
        row = per.setdefault(i, {})
        if trial in row:
            raise FormatError(
                f"instance {i!r}, train trial {trial} occurs twice; every item needs its own id", path=str(pis_path)
            )
        vals: dict[str, float] = {}
        for st in e.get("stats") or ():
            nm = st.get("name") or {}
            stat, sp, perturbed = _name_key(nm)
            if perturbed:
                continue
            count, total = st.get("count"), st.get("sum")
            where = f"instance {i!r}, train trial {trial}, statistic {stat!r}"
            if isinstance(count, bool) or not isinstance(count, (int, float)) or count < 0 or count != int(count):
                raise FormatError(f"{where}: count {count!r} is not a whole number >= 0", path=str(pis_path))
            if not count:  # HELM's empty statistic: no value
                continue
            if isinstance(total, bool) or not isinstance(total, (int, float)) or not math.isfinite(total):
                raise FormatError(f"{where}: sum {total!r} is not a finite number", path=str(pis_path))
            splits.add(sp)
            vals[f"{sp}\t{stat}"] = (float(total), int(count))
        row[trial] = vals
    if not per:
        raise FormatError("no unperturbed instance in the per-instance statistics", path=str(pis_path))
    if split is None:
        split = next(iter(splits)) if len(splits) == 1 else ("test" if "test" in splits else None)
        if split is None:
            raise InputError(
                f"{name}: statistics of several splits ({', '.join(sorted(splits))}); pick one with -o split="
            )
    elif split not in splits:
        raise InputError(f"{name}: no split {split!r}; its splits: {', '.join(sorted(splits))}")
    ids = tuple(per)
    # metrics: statistics every instance (and trial) has
    prefix = f"{split}\t"
    common: list[str] | None = None
    for row in per.values():
        for vals in row.values():
            have = [k[len(prefix) :] for k in vals if k.startswith(prefix)]
            common = have if common is None else [m for m in common if m in set(have)]
    metrics = common or []
    if not metrics:
        raise FormatError(f"no statistic that every instance has in split {split!r}", path=str(pis_path))
    values: dict[str, np.ndarray] = {}
    samples: dict[str, np.ndarray] = {}
    scores: dict[str, float] = {}
    trial_set = sorted({t for r in per.values() for t in r})
    trials = len(trial_set)
    for m in metrics:
        per_item = [[per[i][t][prefix + m][0] / per[i][t][prefix + m][1] for t in sorted(per[i])] for i in ids]
        values[m] = np.array([sum(v) / len(v) for v in per_item])
        if trials > 1:
            samples[m] = _logs.pad_samples(per_item)
        scores[m] = _helm_mean(per, ids, trial_set, prefix + m)
    aggregates: dict[str, float] = {}
    if stats_path is not None:
        for st in _logs.read_json(stats_path, "stats") or ():
            nm = st.get("name") or {}
            stat, sp, perturbed = _name_key(nm)
            if sp == split and not perturbed and stat in values and isinstance(st.get("mean"), (int, float)):
                aggregates[stat] = float(st["mean"])
    adapter = run_spec.get("adapter_spec") or {}
    model = str(adapter.get("model") or adapter.get("model_deployment") or "")
    checks: dict[str, tuple[Any, ...]] = {}
    clusters = None
    if state_path is not None:
        state = _logs.read_json(state_path, "scenario state")
        instances: dict[str, Mapping[str, Any]] = {}
        for rs in state.get("request_states") or ():
            inst = rs.get("instance") or {}
            if inst.get("perturbation"):
                continue
            instances.setdefault(_logs.id_text(inst.get("id")), inst)
        missing = [i for i in ids if i not in instances]
        if missing:
            raise FormatError(f"scenario_state.json lacks the instances {_logs.first_ids(missing)}", path=name)
        insts = [instances[i] for i in ids]
        checks["input"] = tuple(json.dumps(x.get("input"), sort_keys=True) for x in insts)
        checks["references"] = tuple(json.dumps(x.get("references"), sort_keys=True) for x in insts)
        if cluster is not None:
            clusters = _logs.cluster_keys(
                [{**x, **(x.get("extra_data") or {})} for x in insts], cluster, name, "instance", ids
            )
    elif cluster is not None:
        raise FormatError("-o cluster needs the instances: no scenario_state.json in the run folder", path=name)
    scenario = run_spec.get("scenario_spec") or {}
    headline = next((m for m in ("exact_match", "quasi_exact_match", "f1_score") if m in values), metrics[0])
    run = _logs.LogRun(
        harness="helm",
        path=name,
        task=_task(str(run_spec.get("name") or "")),
        model=model,
        ids=ids,
        values={headline: values[headline], **{m: v for m, v in values.items() if m != headline}},
        samples=samples,
        higher_is_better={
            m: not re.search(r"(runtime|tokens|cost|length|num_|batch_size|finish_reason)", m) for m in values
        },
        clusters=clusters,
        cluster_field=cluster,
        checks=checks,
        aggregates=aggregates,
        aggregate_source="stats.json" if stats_path is not None else "",
        scores=scores,
        setup={"scenario": json.dumps(scenario, sort_keys=True)} if scenario else {},
        headline=headline,
        sample_reducer="mean",
        notes=(f"split: {split}",)
        + (
            (f"train trials: {trials} (HELM's score: the mean of each trial's mean over the instances)",)
            if trials > 1
            else ()
        ),
        sample_kind="train trials",
        n_samples=trials,
    )
    return run


def _helm_mean(
    per: Mapping[str, Mapping[int, Mapping[str, tuple[float, int]]]], ids: Any, trials: Any, key: str
) -> float:
    """A statistic's corpus score as HELM computes it: per train trial, the instances' sums and counts added in the
    file's order (one Stat merged), its mean sum / count; then the mean of the trials' means, added in trial order
    (equal to the mean of the items' trial averages in exact arithmetic, not in the last digits)."""
    means = []
    for t in trials:
        total, count = 0.0, 0
        for i in ids:
            if t in per[i]:
                s, c = per[i][t][key]
                total += s
                count += c
        means.append(total / count)
    total = 0.0
    for m in means:
        total += m
    return total / len(means)


def _score(gold: Any, system: Any, **options: Any) -> ScoreReport:
    if gold is not None:
        raise InputError("format 'helm' reads the gold from the runs; give the run folders only")
    return _logs.read_report("helm", system, read_run, options)


def _is_run(d: Path) -> bool:
    return any((d / f).is_file() for f in ("per_instance_stats.json", "per_instance_stats.json.gz"))


def _runs(folder: Path) -> list[Path]:
    """A HELM suite's runs folder: one sub-folder per run holding ``per_instance_stats.json`` (or the run's
    folder itself)."""
    return [folder] if _is_run(folder) else _logs.subfolders(folder, _is_run)


SPECS = (
    FormatSpec(
        name="helm",
        readme=_logs.LOG_README_ROW,
        description="HELM run folders (per_instance_stats.json, stats.json, run_spec.json, scenario_state.json): "
        "per-instance statistics, items matched by instance id",
        reference="HELM's stats.json (the mean of each statistic)",
        score=_score,
        options=(
            Option("split", str, None, help="the split whose statistics to read (default: the only one, or test)"),
            *_logs.COMMON_OPTIONS,
        ),
        aliases=("crfm-helm",),
        metrics=("exact_match", "quasi_exact_match", "f1_score", "..."),
        gold_optional=True,
        join=_logs.join,
        name_systems=_logs.name_systems,
        runs=_runs,
    ),
)
