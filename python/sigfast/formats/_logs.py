"""What the readers of LLM-evaluation logs share: one system's log of one task, items matched by id.

The readers (``lm-eval``, ``inspect``, ``helm``, ``lighteval``, ``records``)
each turn one system's log into a :class:`LogRun`: the task, the model, the
item ids in log order, every per-item metric (an item's value is the
reduction of its samples, as the harness reduces them: the mean unless the
log says otherwise), the per-sample values where an item has several
(generations, Inspect epochs), the items' cluster keys where asked for, the
per-item fields that must agree between two logs of the same task (prompt,
target and document hashes, or the input and target text), and the
harness's own aggregate of each metric (from its results file or log header).

:func:`join` then matches the systems' items **by id, never by position**:

* a log whose task differs from the first log's is an error naming both tasks;
* an item the first log has and another lacks, or the reverse, is an error
  naming the first few ids and the counts, unless ``intersect=True``
  (``--intersect``): then the items all logs share are tested, with a warning
  and the counts in ``Statistics.provenance["intersect"]``;
* the same id with a different prompt, target or document (hash) is an error
  naming the item, the field and the two systems; so is the same id in two
  clusters;
* duplicate ids in one log are an error of the reader, naming the id.

What :meth:`sigfast.formats.Parsed.statistics` then puts in
``Statistics.provenance`` (besides ``format`` and ``options``), for the
clustered and repeated-sample inference:

``"clusters"``
    tuple of the items' cluster keys (strings), in the order of
    ``Statistics.item_ids``; present when a cluster field was given.
``"cluster_field"``
    the field (or rule) the keys came from.
``"samples"``
    ``{system: array}``, each array of shape (items, most samples of an
    item): row i holds item i's per-sample values (NaN-padded where an item
    has fewer samples), whose mean (or the harness's reduction) is the item's
    value; present when some item has more than one sample.
``"sample_reducer"``
    how an item's samples make its value: the log's own reduction unless ``-o reducer=`` names
    another (Inspect: the first reducer its header reports; lm-eval with ``repeats``: ``first``, the
    first repeat, as its ``take_first`` filter; HELM: the mean over train trials; records:
    ``mean``), a reduction the log holds (Inspect's ``pass_at_2``...), or ``"mean"`` / ``"pass@K"``
    computed from the samples (:func:`sigfast.samples.pass_at_k`).
``"task"``, ``"harness"``
    the task and the harness that made the logs.
``"intersect"``
    ``{"common": n, "dropped": {system: k}}`` when ``intersect=True`` dropped
    items.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..exceptions import FormatError, InputError, ScorerWarning
from ._base import ItemStats, Option, ReadmeRow, ScoreReport, read_text

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "COMMON_OPTIONS",
    "LogRun",
    "LogWarning",
    "checked",
    "first_ids",
    "join",
    "mean_in_order",
    "name_systems",
    "open_text",
    "read_json",
    "report",
    "runs_in",
]

#: Options every log reader takes.
#: The default of ``-o reducer=``: the log's own reduction of an item's samples.
LOG_REDUCER = None

COMMON_OPTIONS = (
    Option(
        "cluster",
        str,
        None,
        help="the items' cluster key: a field of the item (document, sample metadata or record), for the "
        "clustered tests; stored per item in Statistics.provenance['clusters']",
    ),
    Option(
        "intersect",
        bool,
        False,
        help="test the items all logs share when they hold different items (with a warning and the counts), "
        "instead of refusing them",
    ),
    Option(
        "reducer",
        str,
        LOG_REDUCER,
        help="how an item's samples (epochs, repeats, train trials) make its value: default the log's own "
        "(Inspect: the first reducer its header reports; lm-eval repeats: the first, as its take_first filter; "
        "HELM, records: the mean); a reduction the log holds (Inspect: pass_at_2, ...); mean; or pass@K (Chen et "
        "al. 2021's unbiased estimator, from pass/fail samples; needs K samples per item)",
    ),
)


#: the README's formats-table row of every LLM-log format (``FormatSpec.readme``)
LOG_README_ROW = ReadmeRow(
    scorer=(
        "the harness's own aggregate (lm-eval's and lighteval's results files, Inspect's log header, HELM's "
        "`stats.json`); items matched by id, never by position; cluster keys (`-o cluster=FIELD`) make every "
        "test resample whole clusters (see [Comparing LLMs](#comparing-llms)); repeated samples (Inspect "
        "epochs, lm-eval repeats, HELM trials) are reduced per item as the harness reduced them (Inspect: the"
        " first of its epoch reducers), or as `-o reducer=` says (`mean`, `pass@K`, or a reduction the log "
        "holds); Inspect's errored samples are left out as Inspect leaves them, and counted"
    ),
    checked=(
        "per-model scores equal to the last digit on logs made by the real harnesses "
        "([tests/data/llm](tests/data/llm/SOURCE.md)); missing, extra or duplicate ids, a changed prompt or "
        "target, or a log of another task are one-line errors (`--intersect` tests the shared items)"
    ),
    speed="—",
)


@dataclass(frozen=True)
class Reduction:
    """One of a log's own reductions of the items' samples (Inspect keeps one per epoch reducer)."""

    #: metric -> one value per item, in the run's item order
    values: Mapping[str, np.ndarray]
    #: metric -> sigfast's aggregate computed the harness's way
    scores: Mapping[str, float]
    #: metric -> the harness's own aggregate of this reduction
    aggregates: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class LogRun:
    """One system's per-item log of one task, as a reader read it."""

    harness: str
    path: str
    task: str
    model: str
    ids: tuple[str, ...]
    #: metric -> one value per item (the reduction of the item's samples)
    values: Mapping[str, np.ndarray]
    #: metric -> (items, most samples) NaN-padded per-sample values, where an item has several samples
    samples: Mapping[str, np.ndarray] = field(default_factory=dict)
    #: metric -> whether a higher value is better
    higher_is_better: Mapping[str, bool] = field(default_factory=dict)
    clusters: tuple[str, ...] | None = None
    cluster_field: str | None = None
    #: field -> one value per item that two logs of the same task must share (hashes, input, target)
    checks: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    #: metric -> the harness's own aggregate, as its results file or header stores it
    aggregates: Mapping[str, float] = field(default_factory=dict)
    #: where the aggregates come from (a file name, "log header")
    aggregate_source: str = ""
    #: metric -> sigfast's value computed the harness's way (same order of summation)
    scores: Mapping[str, float] = field(default_factory=dict)
    #: setup that two logs of one task must share (task version, n-shot, ...)
    setup: Mapping[str, Any] = field(default_factory=dict)
    headline: str = ""
    sample_reducer: str = "mean"
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    #: the log's own reductions by reducer name (Inspect's epoch reducers), the default among them
    reductions: Mapping[str, Reduction] = field(default_factory=dict)
    #: metric -> why it has no per-item values (a document's value is not a number, ...): an error if asked for
    unusable: Mapping[str, str] = field(default_factory=dict)
    #: what an item's several samples are ("epochs", "repeats", "train trials") and how many the run made
    sample_kind: str = "samples"
    n_samples: int = 1
    #: where the samples' columns are keyed by a field (``-o run=FIELD``: training runs, ``-o prompt=FIELD``:
    #: prompt templates): that axis ("run" or "prompt"), the field and the column keys, the same columns for
    #: every item (NaN where an item lacks one); empty where the samples are only numbered
    sample_axis: str = ""
    sample_field: str = ""
    sample_keys: tuple[str, ...] = ()
    #: what a message adds where two logs hold different tasks (" (pick it with --task)") or differ on an
    #: item's checked fields (how the reader's ids can be chosen otherwise): the reader's own advice
    task_hint: str = ""
    id_hint: str = ""
    #: options as the log resolved them (the task read, the reducer, errored samples left out): for signatures
    resolved: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.ids)
        for m, v in self.values.items():
            if len(v) != n:  # pragma: no cover - the readers build them together
                raise InputError(f"internal: {len(v)} values of {m} for {n} items")


# --------------------------------------------------------------------------------------------
# reading


def open_text(path: str | os.PathLike[str], role: str = "log") -> Iterator[tuple[int, str]]:
    """(line number, line) of a text file, read by the formats' one reader (gzip, a byte-order mark,
    the size limit: :func:`~sigfast.formats._base.read_text`); lines keep their ends, universal
    newlines as in text mode; errors name the file."""
    text, _ = read_text(path, role)
    yield from enumerate(io.StringIO(text, newline=None), 1)


def read_json(path: str | os.PathLike[str], role: str = "log") -> Any:
    """A JSON file (gzip allowed) parsed; errors name the file and line."""
    text = "".join(line for _, line in open_text(path, role))
    return parse_json(text, str(path), role)


def parse_json(text: str | bytes, name: str, role: str = "log", line: int = 1, unique_keys: bool = False) -> Any:
    """``text`` parsed as JSON; an error names the file and the line (``line``: the file's line number of
    the text's first line, for one line of a JSON-lines file). ``unique_keys``: an object naming a key twice
    is an error (JSON keeps the last silently)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise FormatError(
                    f"the {role} names the field {k!r} twice; give every field its own name (which one would be read?)",
                    path=name,
                    line=line,
                )
            out[k] = v
        return out

    try:
        return json.loads(text, object_pairs_hook=pairs if unique_keys else None)
    except json.JSONDecodeError as e:
        raise FormatError(
            f"the {role} is not valid JSON ({e.msg}, column {e.colno})", path=name, line=e.lineno + line - 1
        ) from None


def mean_in_order(values: Sequence[float]) -> float:
    """sum(values) / len(values) with Python floats added left to right, as the harnesses compute means."""
    total = 0.0
    for v in values:
        total += float(v)
    return total / len(values)


def first_ids(ids: Sequence[str], k: int = 5) -> str:
    shown = ", ".join(repr(i) for i in list(ids)[:k])
    return shown + (f", ... ({len(ids) - k} more)" if len(ids) > k else "")


def id_text(v: Any) -> str:
    """An item id as sigfast names it: a string (JSON numbers as written: 3, not 3.0)."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def check_unique(ids: Sequence[str], path: str, where: Sequence[Any] | None = None, what: str = "line") -> None:
    """Duplicate ids are an error naming the id and where it occurs twice."""
    seen: dict[str, int] = {}
    for k, i in enumerate(ids):
        if i in seen:
            a = where[seen[i]] if where is not None else seen[i] + 1
            b = where[k] if where is not None else k + 1
            raise FormatError(
                f"item id {i!r} occurs twice ({what} {a} and {b}); every item needs its own id "
                "(two samples of one item need a sample field: -o sample=FIELD)",
                path=path,
            )
        seen[i] = k


def pad_samples(per_item: Sequence[Sequence[float]]) -> np.ndarray:
    """Per-item lists of sample values as an (items, most samples) array, NaN-padded."""
    import numpy as np

    k = max((len(s) for s in per_item), default=0)
    out = np.full((len(per_item), k), np.nan)
    for i, s in enumerate(per_item):
        out[i, : len(s)] = s
    return out


def key_text(v: Any, where: str, field_name: str, role: str = "cluster", path: str | None = None) -> str:
    """An id or cluster key as a string; None, an empty (or blank) string, NaN (a float, or the text ``nan``
    that ``str()`` writes for one), a list or an object are errors naming ``where`` (the item) and the field: a
    missing key must not become one cluster (or item) of its own."""
    bad = v is None or isinstance(v, (list, dict, Mapping)) or (isinstance(v, float) and not math.isfinite(v))
    if not bad:
        text = id_text(v)
        if text.strip() and text.strip().lower() != "nan":
            return text
    if role == "cluster":
        what = "not a cluster key; every item needs one (fill it in, or leave -o cluster= out)"
    else:
        what = "not an item id; every item needs one of its own"
    raise FormatError(f"{where}: {role} field {field_name!r} is {v!r}, {what}", path=path)


def cluster_keys(
    items: Sequence[Mapping[str, Any]],
    field_name: str | None,
    path: str,
    what: str,
    ids: Sequence[str] | None = None,
) -> tuple[str, ...] | None:
    """Each item's cluster key from ``field_name`` (``a.b`` reaches into nested objects), or None; errors name
    the item by its id (``ids``) where the log has ids."""
    if field_name is None:
        return None
    out = []
    for k, it in enumerate(items):
        where = f"{what} {ids[k]!r}" if ids is not None else f"{what} {k + 1}"
        v: Any = it
        for part in field_name.split("."):
            if not isinstance(v, Mapping) or part not in v:
                have = ", ".join(sorted(str(x) for x in it)) if isinstance(it, Mapping) else "none"
                raise FormatError(f"{where} has no cluster field {field_name!r} (its fields: {have})", path=path)
            v = v[part]
        out.append(key_text(v, where, field_name, path=path))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# the report


def _num(v: float) -> str:
    return repr(float(v)) if math.isfinite(v) else str(v)


def report(run: LogRun, fmt: str) -> ScoreReport:
    """A ScoreReport of one log: its text, sigfast's scores and per-item statistics of every metric (a metric
    the log cannot give, :attr:`LogRun.unusable`, is marked so: asking for it is an error naming why)."""
    import numpy as np

    stats = {
        m: ItemStats(
            "mean",
            ("score",),
            np.asarray(v, dtype=np.float64)[:, None],
            metric_params={"higher_is_better": bool(run.higher_is_better.get(m, True))},
            counts=False,
            extra={"unusable": run.unusable[m]} if m in run.unusable else {},
        )
        for m, v in run.values.items()
    }
    what = [run.harness] + ([f"task {run.task!r}"] if run.task else []) + ([f"model {run.model}"] if run.model else [])
    lines = [
        f"{', '.join(what)}: {len(run.ids)} items"
        + (f", {len(set(run.clusters))} clusters ({run.cluster_field})" if run.clusters is not None else "")
    ]
    if run.samples:
        k = {m: s.shape[1] for m, s in run.samples.items()}
        kind = "samples" if run.sample_kind == "samples" else f"samples ({run.sample_kind})"
        lines.append(f"{kind} per item: up to {max(k.values())} (item value = {run.sample_reducer} of its samples)")
    elif run.sample_reducer not in ("mean", ""):
        lines.append(f"item value = {run.sample_reducer}")
    if len(run.reductions) > 1:
        lines.append(f"the log's reductions: {', '.join(run.reductions)} (pick one with -o reducer=NAME)")
    for key, v in run.setup.items():
        lines.append(f"{key}: {v}")
    lines.extend(run.notes)
    for m, why in run.unusable.items():
        lines.append(f"{m}: no per-item value ({why})")
    head = ("metric", "sigfast", run.aggregate_source or "log")
    rows = [
        (m, _num(run.scores[m]), _num(run.aggregates[m]) if m in run.aggregates else "-")
        for m in run.values
        if m in run.scores
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(3)]
    for r in [head, *rows]:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return ScoreReport(
        format=fmt,
        gold="",
        system=run.path,
        text="\n".join(lines) + "\n",
        scores=dict(run.scores),
        stats=stats,
        default_metric=run.headline or next(iter(run.values)),
        item_ids=run.ids,
        warnings=run.warnings,
        log=run,
    )


def check_usable(reports: Sequence[ScoreReport], metrics: Sequence[str]) -> None:
    """An InputError for the first of ``metrics`` that a report marks unusable (``sigfast score``)."""
    for r in reports:
        for m in metrics:
            st = r.stats.get(m)
            if st is not None and "unusable" in st.extra:
                raise InputError(str(st.extra["unusable"]))


_INSPECT_PASS = re.compile(r"pass_at_(\d+)$")


def _canonical(name: str) -> str:
    """A reducer's name as sigfast compares them: Inspect's ``pass_at_K`` is ``pass@K``."""
    m = _INSPECT_PASS.match(name)
    return f"pass@{m.group(1)}" if m else name


def with_reducer(run: LogRun, reducer: str | None) -> LogRun:
    """The run with each item's value its samples reduced by ``reducer`` (``-o reducer=``): None keeps the log's
    own reduction; a reduction the log holds (Inspect's reducers; ``pass@2`` finds ``pass_at_2``) is taken as
    the log has it; otherwise ``mean`` or ``pass@K`` is computed from the samples. A metric that cannot be reduced
    so (partial credit for pass@K, too few samples) is marked unusable: an error naming the item when asked for.
    The harness's aggregates belong to its own reduction, so another one has none to compare with."""
    import numpy as np

    from ..samples import check_reducer, reduce

    if reducer is None or reducer == run.sample_reducer:
        return dataclasses.replace(run, resolved={**run.resolved, "reducer": run.sample_reducer})
    reducer = str(reducer)
    for name, red in run.reductions.items():
        if name == reducer or _canonical(name) == _canonical(reducer):
            lacking = {
                m: f"{run.path}: {m} with -o reducer={reducer}: the log has no {name} reduction of {m}"
                for m in run.values
                if m not in red.values and m not in run.unusable
            }
            return dataclasses.replace(
                run,
                values={m: red.values.get(m, np.full(len(run.ids), np.nan)) for m in run.values},
                unusable={**run.unusable, **lacking},
                scores={m: red.scores[m] for m in run.values if m in red.scores},
                aggregates=dict(red.aggregates),
                sample_reducer=name,
                resolved={**run.resolved, "reducer": name},
            )
    try:
        check_reducer(_canonical(reducer))
    except InputError:
        own = f"the log's reductions: {', '.join(run.reductions)}; " if run.reductions else ""
        raise InputError(
            f"{run.path}: no sample reducer {reducer!r}; {own}sigfast computes mean and pass@K (K a whole number)"
        ) from None
    wanted = _canonical(reducer)
    values: dict[str, np.ndarray] = {}
    unusable = dict(run.unusable)
    for m, v in run.values.items():
        if m in unusable:
            values[m] = v
            continue
        samples = run.samples.get(m)
        if samples is None and wanted == "mean":
            values[m] = v  # one sample per item: its value is its mean
            continue
        try:
            values[m] = reduce(samples if samples is not None else np.asarray(v)[:, None], wanted, run.ids)
        except InputError as e:
            why = str(e)
            if samples is None:
                why += f" (the log holds one value per item of {m}: no {run.sample_kind} to reduce)"
            unusable[m] = f"{run.path}: {m} with -o reducer={reducer}: {why}"
            values[m] = np.full(len(run.ids), np.nan)
    notes = list(run.notes)
    if run.aggregates:
        notes.append(
            f"{run.aggregate_source or 'the log'} aggregates the {run.sample_reducer} of each item's samples, not "
            f"the {wanted}: no harness number to compare with"
        )
    return dataclasses.replace(
        run,
        values=values,
        unusable=unusable,
        scores={m: mean_in_order(v) for m, v in values.items() if m not in unusable},
        aggregates={},
        sample_reducer=wanted,
        notes=tuple(notes),
        resolved={**run.resolved, "reducer": wanted},
    )


def read_report(fmt: str, system: Any, read: Any, options: dict[str, Any]) -> ScoreReport:
    """One system's log read by ``read(system, **options)`` (errors a malformed file provokes named, see
    :func:`guarded`), its samples reduced by ``-o reducer=`` (:func:`with_reducer`), checked against the
    harness's own aggregates (:func:`checked`) and reported. ``intersect`` is the join's option."""
    options = dict(options)
    options.pop("intersect", None)
    reducer = options.pop("reducer", None)
    run = guarded(fmt, system, read, **options)
    return report(checked(with_reducer(run, reducer)), fmt)


class LogWarning(ScorerWarning):
    """A log that sigfast reads with a caveat (no results file, items dropped by --intersect, ...)."""


def guarded(fmt: str, path: Any, read: Any, **options: Any) -> LogRun:
    """``read(path, **options)``, with any error but a SigfastError that a malformed file provokes (a field of
    the wrong type, a broken zip, gzip, zstd or Parquet stream, raised by the reader or by the decoders it
    calls) turned into a FormatError naming the file."""
    from ..exceptions import SigfastError

    try:
        return read(path, **options)
    except SigfastError:
        raise
    except Exception as e:
        raise FormatError(
            f"not a readable {fmt} log: {type(e).__name__}: {e}; is it a {fmt} file as the harness wrote it?",
            path=str(path),
        ) from None


def checked(run: LogRun) -> LogRun:
    """The run, warned about: its own warnings, and every metric whose aggregate recomputed from the per-item
    values differs from the harness's own (beyond the last bits that another order of summation can change)."""
    import warnings

    out = list(run.warnings)
    for m, v in run.scores.items():
        a = run.aggregates.get(m)
        if a is not None and not math.isclose(a, v, rel_tol=1e-12, abs_tol=1e-15):
            out.append(
                f"{run.path}: {m} = {v!r} from the per-item values, but {run.aggregate_source or 'the log'} says "
                f"{a!r}; the per-item log and the aggregate disagree (an edited or partial log?)"
            )
    for w in out:
        warnings.warn(w, LogWarning, stacklevel=4)
    return dataclasses.replace(run, warnings=tuple(out))


# --------------------------------------------------------------------------------------------
# matching items by id


def join(
    reports: Sequence[ScoreReport], names: Sequence[str], options: Mapping[str, Any] | None = None
) -> tuple[ScoreReport, ...]:
    """The systems' reports with their items matched by id (see the module's docstring): every report with the
    same items, in the first log's order, and the shared data in each metric's ``ItemStats.extra``."""
    import numpy as np

    options = options or {}
    runs: list[LogRun] = [r.log for r in reports]
    first = runs[0]
    for n, r in zip(names[1:], runs[1:]):
        if r.task != first.task:
            raise InputError(
                f"{r.path} ({n}): a log of task {r.task!r}, but {first.path} ({names[0]}) is a log of task "
                f"{first.task!r}; compare logs of one task" + r.task_hint
            )
        for key, v in first.setup.items():
            w = r.setup.get(key)
            if key in r.setup and w != v:
                raise InputError(
                    f"{r.path} ({n}): {key} {w!r}, but {first.path} ({names[0]}) has {key} {v!r}; the logs come from "
                    "different task setups, so their items are not the same test"
                )
    common = _common_ids(runs, names, bool(options.get("intersect", False)))
    # the reduction of the logs with several samples per item (with one, every reduction is the value itself)
    reducers = {n: r.sample_reducer for n, r in zip(names, runs) if r.n_samples > 1 or r.samples}
    reducer = next(iter(reducers.values()), first.sample_reducer)
    if len(set(reducers.values())) > 1:
        raise InputError(
            "the logs reduce their items' samples differently ("
            + ", ".join(f"{n}: {v}" for n, v in reducers.items())
            + "); name one reduction for all with -o reducer=NAME"
        )
    warnings: list[str] = []
    counts = {n: r.n_samples for n, r in zip(names, runs)}
    if len(set(counts.values())) > 1:
        kinds = sorted({r.sample_kind for r in runs if r.n_samples > 1})
        warnings.append(
            f"the logs have different numbers of {'/'.join(kinds) or 'samples'} per item ("
            + ", ".join(f"{n}: {k}" for n, k in counts.items())
            + "): their items' values are reductions of different numbers of samples, so the systems differ in "
            "how noisy their per-item values are as well as in skill"
        )
    index = [{i: k for k, i in enumerate(r.ids)} for r in runs]
    order = [np.fromiter((ix[i] for i in common), dtype=np.int64, count=len(common)) for ix in index]
    keyed = _keyed_samples(runs, names)
    _check_fields(runs, names, common, order)
    clusters = _clusters(runs, names, common, order)
    metrics = [m for m in first.values if all(m in r.values for r in runs)]
    dropped = {n: len(r.ids) - len(common) for n, r in zip(names, runs)}
    extra_common: dict[str, Any] = {"harness": first.harness, "task": first.task}
    if any(dropped.values()):
        warnings.append(
            f"--intersect: testing the {len(common)} items that all {len(runs)} logs share; dropped "
            + ", ".join(f"{n}: {k} of {len(r.ids)}" for (n, k), r in zip(dropped.items(), runs))
        )
        extra_common["intersect"] = {"common": len(common), "dropped": dropped}
    if clusters is not None:
        extra_common["clusters"] = clusters
        extra_common["cluster_field"] = first.cluster_field
    resolved = {**first.resolved, "reducer": reducer}
    errored = sum(int(r.resolved.get("errored_samples", 0)) for r in runs)
    if errored:
        resolved["errored_samples"] = errored
    extra_common["resolved_options"] = resolved
    out = []
    for rep, o in zip(reports, order):
        stats = {}
        for m in metrics:
            st = rep.stats[m]
            extra = {**st.extra, **extra_common}
            samples = {n: rr.samples[m][oo] for n, rr, oo in zip(names, runs, order) if m in rr.samples}
            if samples and keyed is not None:  # columns of one key order for every system
                samples = {n: samples[n][:, cols] for n, cols in zip(names, keyed[2]) if n in samples}
            if samples:
                extra["samples"] = samples
                if keyed is not None:
                    extra["sample_axis"], extra["sample_field"] = keyed[0], keyed[1]
                    extra["sample_keys"] = keyed[3]
            if samples or reducer != "mean":
                extra["sample_reducer"] = reducer
            unusable = [r.stats[m].extra["unusable"] for r in reports if "unusable" in r.stats[m].extra]
            if unusable:  # any system's: the metric cannot be compared
                extra["unusable"] = unusable[0]
            stats[m] = dataclasses.replace(st, values=st.values[o], extra=extra)
        out.append(
            dataclasses.replace(
                rep, stats=stats, item_ids=tuple(common), warnings=tuple(rep.warnings) + tuple(warnings)
            )
        )
    import warnings as _w

    for w in dict.fromkeys(warnings):
        _w.warn(w, LogWarning, stacklevel=3)
    return tuple(out)


def _keyed_samples(runs: Sequence[LogRun], names: Sequence[str]) -> tuple[str, str, list[Any], tuple[str, ...]] | None:
    """Where the samples are keyed by a run or prompt field: (axis, field, each run's column order in the first
    run's key order, the keys), or None; logs keyed differently, or by different keys, are an error."""
    import numpy as np

    axes = {(r.sample_axis, r.sample_field) for r in runs}
    if axes == {("", "")}:
        return None
    if len(axes) > 1:
        raise InputError(
            "the logs key their samples differently ("
            + ", ".join(
                f"{n}: {r.sample_axis or 'numbered'}" + (f" {r.sample_field!r}" if r.sample_field else "")
                for n, r in zip(names, runs)
            )
            + "); read every system with the same -o run= or -o prompt= field"
        )
    first = runs[0]
    keys = first.sample_keys
    cols = []
    for n, r in zip(names, runs):
        if set(r.sample_keys) != set(keys):
            missing = sorted(set(keys) - set(r.sample_keys))
            extra = sorted(set(r.sample_keys) - set(keys))
            raise InputError(
                f"{r.path} ({n}): its {first.sample_axis}s ({first.sample_field}) differ from those of {first.path} "
                f"({names[0]}): "
                + "; ".join(
                    x for x in (f"lacks {missing[:5]}" if missing else "", f"adds {extra[:5]}" if extra else "") if x
                )
                + f"; every system needs the same {first.sample_axis}s to be matched by item and {first.sample_axis}"
            )
        at = {k: j for j, k in enumerate(r.sample_keys)}
        cols.append(np.array([at[k] for k in keys], dtype=np.int64))
    return first.sample_axis, first.sample_field, cols, tuple(keys)


def name_systems(reports: Sequence[ScoreReport], names: Sequence[str], explicit: Sequence[bool]) -> tuple[str, ...]:
    """Names from the logs (the model, with its revision) unless the caller named the system; two logs of one
    model get their file's name too (``model (file)``)."""
    runs: list[LogRun] = [r.log for r in reports]
    out = [n if (e or not r.model) else r.model for n, r, e in zip(names, runs, explicit)]
    dup = {n for n in out if out.count(n) > 1}
    if dup:
        out = [f"{o} ({n})" if o in dup and o != n else o for o, n in zip(out, names)]
    if len(set(out)) != len(out):
        seen: dict[str, int] = {}
        final = []
        for n in out:
            seen[n] = seen.get(n, 0) + 1
            final.append(n if seen[n] == 1 else f"{n} #{seen[n]}")
        out = final
    return tuple(out)


def _common_ids(runs: Sequence[LogRun], names: Sequence[str], intersect: bool) -> list[str]:
    first = runs[0]
    ref = set(first.ids)
    for n, r in zip(names[1:], runs[1:]):
        have = set(r.ids)
        missing = [i for i in first.ids if i not in have]
        extra = [i for i in r.ids if i not in ref]
        if (missing or extra) and not intersect:
            parts = []
            if missing:
                parts.append(f"lacks {len(missing)} of the {len(first.ids)} items of {names[0]} ({first_ids(missing)})")
            if extra:
                parts.append(f"has {len(extra)} items that {names[0]} lacks ({first_ids(extra)})")
            raise InputError(
                f"{r.path} ({n}) " + " and ".join(parts) + "; paired tests need the same items in every log: "
                "compare logs of the same items, or pass --intersect (-o intersect=true) to test the items they share"
            )
    common = (
        [i for i in first.ids if all(i in s for s in ({*r.ids} for r in runs[1:]))]
        if len(runs) > 1
        else list(first.ids)
    )
    if not common:
        raise InputError("the logs share no item id; they are not logs of the same items")
    return common


def _check_fields(
    runs: Sequence[LogRun], names: Sequence[str], common: Sequence[str], order: Sequence[np.ndarray]
) -> None:
    first = runs[0]
    for key, vals in first.checks.items():
        ref = [vals[k] for k in order[0]]
        for n, r, o in zip(names[1:], runs[1:], order[1:]):
            if key not in r.checks:
                continue
            other = r.checks[key]
            for j, k in enumerate(o):
                if other[k] != ref[j]:
                    hint = first.id_hint
                    raise InputError(
                        f"item {common[j]!r}: {key} differs between {names[0]} ({first.path}) and {n} ({r.path}) "
                        f"({_short(ref[j])} vs {_short(other[k])}); the logs come from different prompts, targets or "
                        "documents (few-shot set, template, task version), so the items are not the same test" + hint
                    )


def _clusters(
    runs: Sequence[LogRun], names: Sequence[str], common: Sequence[str], order: Sequence[np.ndarray]
) -> tuple[str, ...] | None:
    first = runs[0]
    if first.clusters is None:
        return None
    ref = tuple(first.clusters[k] for k in order[0])
    for n, r, o in zip(names[1:], runs[1:], order[1:]):
        if r.clusters is None:  # pragma: no cover - one cluster option for all logs
            continue
        for j, k in enumerate(o):
            if r.clusters[k] != ref[j]:
                raise InputError(
                    f"item {common[j]!r} is in cluster {ref[j]!r} in {names[0]} ({first.path}) but in "
                    f"{r.clusters[k]!r} in {n} ({r.path}); one item belongs to one cluster"
                )
    return ref


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "...'"


def path_text(p: Any) -> str:
    return str(Path(str(p)))


# --------------------------------------------------------------------------------------------
# a folder of runs (one per system)


def subfolders(base: Path, is_run: Callable[[Path], Any]) -> list[Path]:
    """The sub-folders of ``base`` that are runs (``is_run``), sorted: a layout of one run per sub-folder."""
    return sorted(d for d in base.iterdir() if d.is_dir() and is_run(d))


def files_in(base: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files of ``base`` ending in one of ``suffixes`` (gzipped or not), sorted: one run per file."""
    return sorted(f for f in base.iterdir() if f.is_file() and f.name.removesuffix(".gz").endswith(suffixes))


def runs_in(path: str | os.PathLike[str], fmt: str) -> list[str]:
    """The runs of several systems in one folder of logs of format ``fmt``, one path per system,
    sorted: what ``sigfast pairwise DIR`` (and :func:`sigfast.read`) takes as the systems.

    Each format declares its own layout (``FormatSpec.runs``; ``sigfast info`` shows it): for example
    lm-eval's ``--output_path`` folder holds one sub-folder per model, an Inspect log folder one
    ``.eval`` or ``.json`` log per model. A path that is one run already is returned as it is. No runs:
    an InputError naming the folder; a format without a folder layout: an InputError saying so.
    """
    from . import spec

    s = spec(fmt)
    p = Path(os.fspath(path))
    if not p.is_dir():
        if p.exists():
            return [str(p)]
        raise FormatError("no such file or folder", path=str(p))
    if s.runs is None:
        raise InputError(f"format {s.name!r} has no folder of runs; give its files one per system")
    try:
        found = s.runs(p)
    except OSError as e:
        raise FormatError(f"cannot list the folder: {e.strerror or e}", path=str(p)) from None
    if not found:
        raise InputError(f"{p}: no {s.name} runs in the folder (see sigfast.formats.runs_in for the layouts it reads)")
    return [str(f) for f in found]
