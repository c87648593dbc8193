"""Inspect (inspect_ai) evaluation logs: ``.eval`` (zip) and ``.json``.

Format ``"inspect"``: one log file per system (``.eval``, ``.json``, or either
gzipped). The log's header names the task (``eval.task``), the model
(``eval.model``, with ``@revision`` when the model arguments name one: the
system's name) and Inspect's own results: for each score, its metrics
(``accuracy``, ``mean``, ``stderr``, ...), which ``sigfast score -f inspect``
prints beside sigfast's recomputation. A log whose status is not ``success``
is refused (its samples are incomplete).

Samples: one per item and epoch, with the item's ``id``, its ``epoch``, the
``input``, ``target`` and ``metadata``, and one value per scorer
(``scores[name].value``): a grade ``C``/``I``/``P``/``N``, a number, a
boolean, or a dictionary of those (one score per key, named by the key, as
Inspect names them). Values become numbers as Inspect's ``value_to_float()``
maps them: ``C`` → 1, ``P`` → 0.5, ``I`` and ``N`` → 0, numbers as they are,
``yes``/``true`` → 1 and ``no``/``false`` → 0 (any case), numeric strings as
numbers; anything else is an error naming the sample (Inspect warns and uses 0).

Items are the sample ids, matched by id between systems; the input and
target must agree for every matched item. An item's value is its epochs'
values reduced as Inspect reduced them: the log keeps one reduction per epoch
reducer (``Epochs(3, ["mean", "pass_at_2"])`` gives two), and the item value
is the one the header reports first (its headline's reducer), unless
``-o reducer=NAME`` picks another (``pass_at_2``, or ``pass@2``); a reducer
the log lacks is computed from the epochs where sigfast has it (``mean``,
``pass@K``). The report names the reducer and lists the log's. The per-epoch
values are kept for repeated-sample inference
(``Statistics.provenance["samples"]``). The corpus score is the mean of the
items' values, summed in the log's order as Inspect's ``accuracy()`` and
``mean()`` sum them.

Samples that errored and have no score (an evaluation run with
``fail_on_error=False``) are left out, as Inspect's scoring leaves them out:
an item's value is the reduction of its scored epochs, and an item none of
whose epochs was scored is not among the log's items. The report counts them,
and so does the signature (``errored_samples=N``); ``-o errored=refuse``
makes them an error instead. A log without a results header is read from its
samples, with a warning.

Each score is a metric (``-m choice``, ``-m model_graded_qa``); the
headline is the log's. ``-o cluster=FIELD`` reads each item's cluster key
from its sample metadata (every epoch of an item must agree).

``.eval`` logs written by Inspect 0.3.1xx and later compress their members
with zstd: Python 3.14 reads them, earlier Pythons need the ``zstandard``
package (``pip install 'sigfast[inspect]'``); older deflate logs need nothing.
"""

from __future__ import annotations

import io
import math
import os
import re
import statistics
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from . import _logs
from ._base import FormatSpec, Option, ScoreReport, decode_utf8, gather_limited, read_file_bytes

__all__ = ["SPECS", "read_log", "value_to_float"]

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_ZIP_ZSTANDARD = 93
_PIECE = 1 << 20  # bytes decompressed at a time


def value_to_float(value: Any, where: str) -> float:
    """A score value as a number, as Inspect's default ``value_to_float()`` maps it (errors instead of 0)."""
    if isinstance(value, str):
        if value == "C":
            return 1.0
        if value == "P":
            return 0.5
        if value in ("I", "N"):
            return 0.0
        low = value.lower()
        if low in ("yes", "true"):
            return 1.0
        if low in ("no", "false"):
            return 0.0
        if _NUMBER.match(value.strip()):
            return float(value)
    elif isinstance(value, (bool, int, float)):
        v = float(value)
        if math.isfinite(v):
            return v
    raise FormatError(
        f"{where}: score value {value!r} is not a grade (C, I, P, N), a number or a boolean; "
        "Inspect's value_to_float would count it as 0, sigfast refuses it"
    )


# --------------------------------------------------------------------------------------------
# files


def _zip_bytes(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: str) -> bytearray:
    """A member's bytes, decompressed piece by piece and stopped at the size limit (``gather_limited``:
    a member, like a file, may hold at most ``SIGFAST_MAX_FILE_BYTES``); zstd members (Inspect's
    default) through compression.zstd or zstandard."""
    import zlib

    member = info.filename
    try:
        try:
            return gather_limited(_zip_pieces(zf, info), path, "log", member=member, declared=info.file_size)
        except NotImplementedError:  # zipfile without zstd: before Python 3.14 (zipfile-zstd patches it in)
            if info.compress_type != _ZIP_ZSTANDARD:
                raise
        data = gather_limited(_zstd_pieces(_raw_member(zf, info, path), path), path, "log", member=member)
    except FormatError:
        raise
    except NotImplementedError as e:
        raise FormatError(f"member {member} of the .eval log cannot be read: {e}", path=path) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError, RuntimeError, _Corrupt) as e:
        raise FormatError(f"member {member} of the .eval log is corrupt: {e}", path=path) from None
    if zlib.crc32(data) != info.CRC or len(data) != info.file_size:
        raise FormatError(f"member {member} of the .eval log is corrupt (CRC or size mismatch)", path=path)
    return data


def _zip_text(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: str) -> str:
    """A member as UTF-8 text (a byte-order mark dropped), its bytes released before the JSON is parsed
    (a member near the size limit then takes about twice its size, not three times)."""
    data = _zip_bytes(zf, info, path)
    if data[:3] == b"\xef\xbb\xbf":
        del data[:3]
    text = decode_utf8(data, f"{path}:{info.filename}", "log")
    del data
    return text


class _Corrupt(Exception):
    """A zstd frame that cannot be decompressed (zstandard's or compression.zstd's error)."""


def _zip_pieces(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """A member through zipfile (stored, deflate, bzip2, lzma; zstd on Python 3.14), a chunk at a time
    (zipfile checks the CRC at the end)."""
    with zf.open(info) as fh:
        while piece := fh.read(_PIECE):
            yield piece


def _zstd_pieces(raw: bytes, path: str) -> Iterator[bytes]:
    """A zstd member's frames, decompressed a chunk at a time."""
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+
    except ImportError:
        try:
            import zstandard
        except ImportError:
            raise FormatError(
                "the .eval log is zstd-compressed (Inspect 0.3.1xx and later); reading it needs Python 3.14 or "
                "the zstandard package: pip install zstandard (or pip install 'sigfast[inspect]')",
                path=path,
            ) from None
        try:
            with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw), read_across_frames=True) as r:
                while piece := r.read(_PIECE):
                    yield piece
        except zstandard.ZstdError as e:
            raise _Corrupt(str(e)) from None
        return
    rest = raw
    try:
        while rest:  # every frame, as zstd.decompress reads them
            d = zstd.ZstdDecompressor()
            buf = rest
            while not d.eof:
                piece = d.decompress(buf, _PIECE)
                buf = b""
                if not piece and d.needs_input:
                    raise EOFError("the compressed stream ends before its end marker")
                yield piece
            rest = d.unused_data
    except zstd.ZstdError as e:
        raise _Corrupt(str(e)) from None


def _raw_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: str) -> bytes:
    fp = zf.fp
    assert fp is not None
    fp.seek(info.header_offset)
    head = fp.read(30)
    if head[:4] != b"PK\x03\x04":
        raise FormatError(f"member {info.filename} of the .eval log has no local header", path=path)
    n, m = int.from_bytes(head[26:28], "little"), int.from_bytes(head[28:30], "little")
    fp.seek(info.header_offset + 30 + n + m)
    return fp.read(info.compress_size)


def _read_eval_zip(path: Path, data: bytes | None = None) -> dict[str, Any]:
    name = str(path)
    try:
        zf = zipfile.ZipFile(path if data is None else io.BytesIO(data))
    except (OSError, zipfile.BadZipFile) as e:
        raise FormatError(f"not a readable .eval log (a zip file): {e}", path=name) from None
    with zf:
        members = {i.filename: i for i in zf.infolist()}
        if "header.json" not in members:
            raise FormatError(
                "the .eval log has no header.json: the evaluation did not finish (its samples are incomplete)",
                path=name,
            )
        log = _logs.parse_json(_zip_text(zf, members["header.json"], name), f"{name}:header.json", "log header")
        samples = []
        for fn in sorted(members):
            if fn.startswith("samples/") and fn.endswith(".json"):
                samples.append(_logs.parse_json(_zip_text(zf, members[fn], name), f"{name}:{fn}", "sample"))
        log["samples"] = samples
        if "reductions.json" in members:
            log["reductions"] = _logs.parse_json(_zip_text(zf, members["reductions.json"], name), name, "reductions")
    return log


def _read_any(path: Path) -> dict[str, Any]:
    # the formats' one reader: gzip (of a .json or an .eval), a byte-order mark, the size limit
    data, name = read_file_bytes(path, "log")
    if data[:4] == b"PK\x03\x04":
        return _read_eval_zip(path, data)
    log = _logs.parse_json(decode_utf8(data, name, "log"), name, "log")
    if not isinstance(log, dict):
        raise FormatError("expected a JSON object (an Inspect log)", path=str(path))
    return log


# --------------------------------------------------------------------------------------------
# the log


def _model_name(ev: Mapping[str, Any]) -> str:
    name = str(ev.get("model") or "")
    args = ev.get("model_args") or {}
    rev = args.get("revision") if isinstance(args, Mapping) else None
    if name and rev not in (None, "", "main"):
        name = f"{name}@{rev}"
    return name


def _text(v: Any) -> Any:
    """The input or target as a comparable value (chat messages and lists as their JSON)."""
    if isinstance(v, str):
        return v
    import json

    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def _reducer_name(r: Any) -> str:
    """An epoch reducer as Inspect names it in the header and the reductions (None: its default, the mean)."""
    return str(r) if r not in (None, "") else "mean"


def read_log(path: Any, *, cluster: str | None = None, errored: str = "skip") -> _logs.LogRun:
    """One Inspect log as a :class:`~sigfast.formats._logs.LogRun`."""
    p = Path(os.fspath(path))
    name = str(p)
    log = _read_any(p)
    if "eval" not in log or not isinstance(log.get("eval"), Mapping):
        raise FormatError("no 'eval' header: not an Inspect log", path=name)
    ev = log["eval"]
    status = log.get("status")
    if status != "success":
        raise FormatError(
            f"the log's status is {status!r}, not 'success': the evaluation did not finish, so its samples are "
            "incomplete; rerun it (inspect eval-retry) and give the finished log",
            path=name,
        )
    samples = log.get("samples")
    if not samples:
        raise FormatError("the log holds no samples (it was written with --no-log-samples?)", path=name)

    # one entry per (id, epoch), ids in the log's order of first appearance; a sample that errored and has no
    # score (fail_on_error=False) is left out, as Inspect's scoring leaves it out
    order: dict[str, int] = {}
    per_item: list[dict[int, Mapping[str, Any]]] = []
    left_out: list[tuple[str, int]] = []
    seen: set[tuple[str, int]] = set()
    for s in samples:
        if not isinstance(s, Mapping) or "id" not in s:
            raise FormatError("a sample without an id", path=name)
        i = _logs.key_text(s["id"], "a sample", "id", "id", path=name)
        ep = s.get("epoch", 1)
        if isinstance(ep, bool) or not isinstance(ep, int):
            raise FormatError(f"sample {i!r}: epoch {ep!r} is not a whole number", path=name)
        if (i, ep) in seen:
            raise FormatError(f"sample {i!r}, epoch {ep} occurs twice; every item needs its own id", path=name)
        seen.add((i, ep))
        if not s.get("scores"):
            if s.get("error"):
                left_out.append((i, ep))
                continue
            raise FormatError(f"sample {i!r}, epoch {ep} has no scores (and no error)", path=name)
        k = order.setdefault(i, len(order))
        if k == len(per_item):
            per_item.append({})
        per_item[k][ep] = s
    if left_out and errored == "refuse":
        i, ep = left_out[0]
        raise FormatError(
            f"{len(left_out)} samples errored and have no score (the first: sample {i!r}, epoch {ep}); "
            "-o errored=refuse refuses them: rerun them (inspect eval-retry), or leave them out as Inspect does "
            "(-o errored=skip)",
            path=name,
        )
    if not per_item:
        raise FormatError(f"every sample of the log errored ({len(left_out)}): there is no score to test", path=name)
    ids = tuple(order)
    first_sample = [eps[min(eps)] for eps in per_item]

    # per-epoch values of every score; every scored sample has every score
    score_names: list[str] = []
    per_score_samples: dict[str, list[list[float]]] = {}
    keys_of: dict[tuple[str, int], list[str]] = {}
    for k, (i, eps) in enumerate(zip(ids, per_item)):
        for ep in sorted(eps):
            s = eps[ep]
            scores = s.get("scores")
            if not isinstance(scores, Mapping):
                raise FormatError(f"sample {i!r}, epoch {ep}: scores is {type(scores).__name__}, not an object", name)
            keys = keys_of.setdefault((i, ep), [])
            for scorer, sc in scores.items():
                value = sc.get("value") if isinstance(sc, Mapping) else None
                pairs = value.items() if isinstance(value, Mapping) else [(scorer, value)]
                for key, v in pairs:
                    key = str(key)
                    keys.append(key)
                    if key not in per_score_samples:
                        per_score_samples[key] = [[] for _ in ids]
                        score_names.append(key)
                    per_score_samples[key][k].append(value_to_float(v, f"{name}: sample {i!r}, epoch {ep}, {key}"))
    for (i, ep), keys in keys_of.items():
        lacking = [key for key in score_names if key not in keys]
        if lacking:
            raise FormatError(
                f"sample {i!r}, epoch {ep} has no score {lacking[0]!r} (other samples have it)", path=name
            )

    # Inspect's own aggregates (per reducer), and its reductions: the items' values as Inspect reduced them
    results = log.get("results")
    warnings: list[str] = []
    if not isinstance(results, Mapping) or not results.get("scores"):
        warnings.append(
            f"{name}: the log has no results header (Inspect's own scores): the item values are read from the "
            "samples, and Inspect's aggregates are not checked"
        )
        results = {}
    header_reducers: list[str] = []
    aggregates: dict[str, dict[str, float]] = {}
    for sc in results.get("scores") or ():
        if not isinstance(sc, Mapping):
            continue
        red = _reducer_name(sc.get("reducer"))
        header_reducers.append(red)
        metrics = sc.get("metrics") or {}
        key = str(sc.get("name"))
        for mname in ("accuracy", "mean"):
            m = metrics.get(mname)
            if isinstance(m, Mapping) and isinstance(m.get("value"), (int, float)) and key in per_score_samples:
                aggregates.setdefault(red, {})[key] = float(m["value"])
                break
    pos = {i: k for k, i in enumerate(ids)}
    reductions: dict[str, dict[str, np.ndarray]] = {}
    red_scores: dict[str, dict[str, float]] = {}
    for r in log.get("reductions") or ():
        if not isinstance(r, Mapping):
            continue
        red = _reducer_name(r.get("reducer"))
        got: dict[str, dict[str, float]] = {}
        seq: dict[str, list[float]] = {}
        for entry in r.get("samples") or ():
            sid = _logs.id_text(entry.get("sample_id"))
            v = entry.get("value")
            pairs = v.items() if isinstance(v, Mapping) else [(str(r.get("scorer")), v)]
            for key, x in pairs:
                f = value_to_float(x, f"{name}: the {red} reduction of {key}, sample {sid!r}")
                got.setdefault(str(key), {})[sid] = f
                seq.setdefault(str(key), []).append(f)
        for key, vals in got.items():
            if key not in per_score_samples:
                continue
            missing = [i for i in ids if i not in vals]
            extra = [i for i in vals if i not in pos]
            if missing or extra:
                what = f"lack the scored samples {_logs.first_ids(missing)}" if missing else ""
                what += (" and " if missing and extra else "") + (
                    f"hold samples that have no score {_logs.first_ids(extra)}" if extra else ""
                )
                raise FormatError(f"the {red} reductions of {key} {what}", path=name)
            reductions.setdefault(red, {})[key] = np.array([vals[i] for i in ids])
            red_scores.setdefault(red, {})[key] = _logs.mean_in_order(seq[key])  # in the log's order, as Inspect
    epochs_cfg = (ev.get("config") or {}).get("epochs") if isinstance(ev.get("config"), Mapping) else None
    epochs = max(len(e) for e in per_item)
    n_epochs = int(epochs_cfg) if isinstance(epochs_cfg, int) and not isinstance(epochs_cfg, bool) else epochs
    default = header_reducers[0] if header_reducers else (next(iter(reductions)) if reductions else "mean")
    head = results.get("headline") or {}
    if isinstance(head, Mapping) and head.get("reducer") and _reducer_name(head["reducer"]) in reductions:
        default = _reducer_name(head["reducer"])
    if reductions and default not in reductions:
        raise FormatError(
            f"the header reports the {default} reduction, but the log's reductions are {', '.join(reductions)}",
            path=name,
        )
    values: dict[str, np.ndarray] = {}
    for key, rows in per_score_samples.items():
        got_values = reductions.get(default, {}).get(key)
        values[key] = got_values if got_values is not None else np.array([statistics.mean(r) for r in rows])
    scores = {key: red_scores.get(default, {}).get(key, _logs.mean_in_order(list(v))) for key, v in values.items()}
    headline = str(head.get("score") or "") if isinstance(head, Mapping) else ""
    if headline not in values:
        headline = score_names[0]
    samples_arr = {key: _logs.pad_samples(rows) for key, rows in per_score_samples.items()} if epochs > 1 else {}
    clusters = None
    if cluster is not None:
        clusters = _logs.cluster_keys([s.get("metadata") or {} for s in first_sample], cluster, name, "sample", ids)
        for k, eps in enumerate(per_item):  # every epoch of an item in its one cluster
            for ep, s in eps.items():
                other = _logs.cluster_keys([s.get("metadata") or {}], cluster, name, f"sample {ids[k]!r}, epoch")
                if other is not None and other[0] != clusters[k]:
                    raise FormatError(
                        f"sample {ids[k]!r}: its epochs disagree on {cluster} (epoch {min(eps)}: {clusters[k]!r}, "
                        f"epoch {ep}: {other[0]!r}); one item belongs to one cluster",
                        path=name,
                    )
    setup: dict[str, Any] = {}
    if ev.get("task_version") not in (None, 0):
        setup["task version"] = ev.get("task_version")
    notes = [f"epochs: {n_epochs}"] if n_epochs > 1 else []
    resolved: dict[str, Any] = {}
    if left_out:
        whole = [i for i in dict.fromkeys(i for i, _ in left_out) if i not in pos]
        notes.append(
            f"errored samples left out (no score, as Inspect leaves them out): {len(left_out)} ("
            + ", ".join(f"{i!r} epoch {ep}" for i, ep in left_out[:3])
            + (f", ... {len(left_out) - 3} more" if len(left_out) > 3 else "")
            + ")"
            + (f"; items with no scored sample, not in the log's items: {_logs.first_ids(whole)}" if whole else "")
        )
        resolved["errored"] = errored
        resolved["errored_samples"] = len(left_out)
    run = _logs.LogRun(
        harness="inspect",
        path=name,
        task=str(ev.get("task") or ""),
        model=_model_name(ev),
        ids=ids,
        values=values,
        samples=samples_arr,
        higher_is_better=dict.fromkeys(values, True),
        clusters=clusters,
        cluster_field=cluster,
        checks={
            "input": tuple(_text(s.get("input")) for s in first_sample),
            "target": tuple(_text(s.get("target")) for s in first_sample),
        },
        aggregates=aggregates.get(default, {}),
        aggregate_source="log header",
        scores=scores,
        setup=setup,
        headline=headline,
        sample_reducer=default,
        notes=tuple(notes),
        warnings=tuple(warnings),
        reductions={
            red: _logs.Reduction(vals, red_scores.get(red, {}), aggregates.get(red, {}))
            for red, vals in reductions.items()
        },
        sample_kind="epochs",
        n_samples=n_epochs,
        resolved=resolved,
    )
    return run


def _score(gold: Any, system: Any, **options: Any) -> ScoreReport:
    if gold is not None:
        raise InputError("format 'inspect' reads the gold from the logs; give the log files only")
    return _logs.read_report("inspect", system, read_log, options)


def _runs(folder: Path) -> list[Path]:
    """An Inspect log folder: one ``.eval`` or ``.json`` log per model."""
    return _logs.files_in(folder, (".eval", ".json"))


SPECS = (
    FormatSpec(
        name="inspect",
        readme=_logs.LOG_README_ROW,
        description="Inspect (inspect_ai) logs, .eval or .json: samples with ids, epochs and scorers "
        "(C/I/P grades as value_to_float maps them), items matched by sample id",
        reference="Inspect's log header (each score's accuracy or mean)",
        score=_score,
        options=(
            Option(
                "errored",
                str,
                "skip",
                choices=("skip", "refuse"),
                help="samples that errored and have no score (fail_on_error=False): skip leaves them out as Inspect "
                "does (their count in the report and signature), refuse makes them an error",
            ),
            *_logs.COMMON_OPTIONS,
        ),
        aliases=("inspect-ai", "inspect_ai"),
        extensions=(".eval",),
        metrics=("choice", "match", "model_graded_qa", "..."),
        gold_optional=True,
        join=_logs.join,
        name_systems=_logs.name_systems,
        runs=_runs,
    ),
)
