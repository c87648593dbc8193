"""What a file or folder given without a format is, where its name, its layout or its first lines say so:
the LLM harnesses' logs and run folders, and per-item records (an item-id column beside score columns).

:func:`sigfast.formats.detect_format` asks these first; each answer is a format name, ``None`` (not one of
these: the extension and the formats' own ``detect`` decide), or a :class:`FormatHint`: the input is
recognized, and the error says which ``-f`` (with which options) or which other path reads it. Nothing here
reads a log: the readers do, once the format is known (``-f records`` reads an ``id,score`` file as it
reads any records file).
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..exceptions import InputError

__all__ = ["FormatHint", "by_content", "by_name", "folder_format", "records_fields"]


class FormatHint(InputError):
    """The input's kind is recognized, but it must be named (``-f`` with options) or given another way."""


#: the names of an item-id column, as harnesses and users write them
ID_FIELDS = ("id", "item_id", "doc_id", "example_id", "question_id", "qid", "sample_id", "instance_id", "uid", "idx")
#: the extensions of records files (``-f records`` picks its layout from them)
_RECORD_LAYOUTS = {".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "tsv"}
_HELM_FILES = ("stats.json", "run_spec.json", "scenario_state.json", "scenario.json", "instances.json")
_LLM = "lm-eval, inspect, helm, lighteval or records"


def _bare(p: Path) -> str:
    return p.name[:-3] if p.name.endswith(".gz") else p.name


def _results_hint(p: Path, text: str) -> FormatHint | None:
    """A harness's results file (aggregates only): the error naming what holds the per-item scores."""
    if '"config_general"' in text:
        return FormatHint(
            f"{p} is a lighteval results file: it holds the aggregates, not the per-item scores; give the model's "
            "details folder (OUTPUT/details/MODEL) or its details_TASK_DATE.parquet, with -f lighteval"
        )
    if re.search(r'"results"\s*:', text) and re.search(r'"(configs|versions|n-shot|config)"\s*:', text):
        return FormatHint(
            f"{p} is an lm-eval results file: it holds the aggregates, not the per-item scores; give its run "
            f"folder ({p.parent}) or the samples_TASK_TIME.jsonl beside it (lm-eval --log_samples), with -f lm-eval"
        )
    return None


def _head_text(p: Path, n: int = 60) -> str:
    import gzip

    try:
        opener: Any = gzip.open if p.name.endswith(".gz") else open
        with opener(p, "rt", encoding="utf-8", errors="replace") as fh:
            return "".join(ln for _, ln in zip(range(n), fh))[:200_000]
    except (OSError, EOFError):
        return ""


def by_name(p: Path) -> str | None:
    """The format a file's name gives (an lm-eval samples file, lighteval details, HELM per-instance
    statistics), or a :class:`FormatHint` for a harness file that holds no per-item scores."""
    from .lighteval import _DETAILS
    from .lmeval import _RESULTS, _SAMPLES

    name = p.name
    if _SAMPLES.match(name):
        return "lm-eval"
    if _DETAILS.match(name):
        return "lighteval"
    bare = _bare(p)
    if bare == "per_instance_stats.json":
        return "helm"
    if bare in _HELM_FILES and any(
        (p.parent / f).is_file() for f in ("per_instance_stats.json", "per_instance_stats.json.gz")
    ):
        raise FormatHint(
            f"{p} is a file of the HELM run folder {p.parent}; give the folder (or its per_instance_stats.json), "
            "with -f helm"
        )
    if _RESULTS.match(name):
        hint = _results_hint(p, _head_text(p))
        if hint is not None:
            raise hint
    if bare.lower().endswith(".parquet"):
        raise FormatHint(
            f"{p}: a Parquet file is read as per-item records (-f records, with -o id=FIELD -o score=FIELD) or as "
            "lighteval details (-f lighteval); name the format"
        )
    return None


def _first_json(head: Sequence[str]) -> Any:
    for ln in head:
        if ln.strip():
            try:
                return json.loads(ln)
            except ValueError:
                return None
    return None


def by_content(p: Path, head: Sequence[str]) -> str | None:
    """The format a file's first lines give (an Inspect JSON log, HELM per-instance statistics, an lm-eval
    samples file under another name, per-item records with ``id`` and ``score`` fields), ``None``, or a
    :class:`FormatHint` (a results file; records whose fields must be named)."""
    text = "\n".join(head)
    start = text.lstrip()[:1]
    if start == "{":
        if re.search(r'"eval"\s*:\s*\{', text) and re.search(r'"version"\s*:', text) and '"status"' in text:
            return "inspect"
        hint = _results_hint(p, text)
        if hint is not None:
            raise hint
        first = _first_json(head)
        if isinstance(first, dict):
            if (
                "doc_id" in first
                and "doc" in first
                and ({"resps", "filtered_resps", "doc_hash", "arguments"} & set(first))
            ):
                return "lm-eval"
            return _records(p, list(first), [first])
        return None
    if start == "[":
        if re.search(r'"instance_id"\s*:', text) and re.search(r'"stats"\s*:', text):
            return "helm"
        return None
    lines = [ln for ln in head if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return None
    delim = "\t" if "\t" in lines[0] else "," if "," in lines[0] else None
    if delim is None:
        fields = lines[0].split()
        rows = [dict(zip(fields, ln.split())) for ln in lines[1:6]]
    else:
        reader = csv.reader(lines[:6], delimiter=delim)
        table = [r for r in reader]
        fields = [f.strip() for f in table[0]]
        rows = [dict(zip(fields, (v.strip() for v in r))) for r in table[1:]]
    return _records(p, fields, rows, delim=delim or " ")


def _is_number(v: Any) -> bool:
    if isinstance(v, bool):
        return True
    if isinstance(v, (int, float)):
        return True
    if isinstance(v, str):
        try:
            float(v)
        except ValueError:
            return v.strip().lower() in ("true", "false")
        return True
    return False


def records_fields(fields: Sequence[str], rows: Sequence[dict[str, Any]]) -> tuple[str | None, list[str]]:
    """(the item-id field, the numeric fields) of records with these fields and first rows."""
    idf = next((f for f in ID_FIELDS if f in fields), None)
    if idf is None:
        lower = {str(f).lower(): f for f in fields}
        idf = next((lower[f] for f in ID_FIELDS if f in lower), None)
    numeric = [f for f in fields if f != idf and rows and all(f in r and _is_number(r[f]) for r in rows)]
    return idf, numeric


def _records(p: Path, fields: Sequence[str], rows: Sequence[dict[str, Any]], delim: str = "") -> str | None:
    """``"records"`` for a file of records with the fields ``-f records`` reads by default (``id`` and
    ``score``) in a layout it reads; a :class:`FormatHint` naming the options for an id field beside
    numeric fields named otherwise; ``None`` for a file with no id field (per-item values)."""
    idf, numeric = records_fields(fields, rows)
    if idf is None or not numeric:
        return None
    ext = os.path.splitext(_bare(p))[1].lower()
    layout = _RECORD_LAYOUTS.get(ext)
    want = {"jsonl": "", ",": "csv", "\t": "tsv"}.get(delim, "")
    if delim == " ":  # whitespace-separated: records read tab- or comma-separated fields
        raise FormatHint(
            f"{p}: an item-id column {idf!r} beside numeric columns ({', '.join(numeric)}), separated by spaces: "
            f"items are matched by id when read with -f records, which reads tab- or comma-separated files (or "
            "JSON lines); separate the columns with tabs or commas, or drop the id column to read the scores in "
            "line order"
        )
    opts = []
    if delim and layout != want:
        opts.append(f"-o layout={want}")
    elif not delim and layout != "jsonl":
        opts.append("-o layout=jsonl")
    if idf == "id" and "score" in numeric and not opts:
        return "records"
    if idf != "id":
        opts.insert(0, f"-o id={idf}")
    score = "score" if "score" in numeric else numeric[0]
    if score != "score":
        opts.insert(1 if idf != "id" else 0, f"-o score={score}")
    others = [f for f in numeric if f != score]
    more = f" (or -o score= another of {', '.join(others)}; comma-separated for several)" if others else ""
    raise FormatHint(
        f"{p}: per-item records with an item-id field {idf!r} and numeric fields ({', '.join(numeric)}); read "
        f"them by id with -f records {' '.join(opts)}{more}"
    )


def folder_format(p: Path) -> str:
    """The format of a folder of LLM logs (an lm-eval output or run folder, a HELM suite or run folder,
    lighteval's output or details folder, a folder of Inspect logs or of records files), or a
    :class:`FormatHint` naming the formats that read folders."""
    from ._logs import runs_in

    found = []
    for fmt in ("lm-eval", "helm", "lighteval"):
        try:
            runs_in(p, fmt)
        except (InputError, OSError):
            continue
        found.append(fmt)
    try:
        files = sorted(f for f in p.iterdir() if f.is_file())
    except OSError as e:
        raise FormatHint(f"{p}: cannot list the folder ({e.strerror or e})") from None
    if any(_bare(f).endswith(".eval") for f in files) or any(
        by_content_safe(f) == "inspect" for f in files[:20] if _bare(f).endswith(".json")
    ):
        found.append("inspect")
    if not found:
        recs = [f for f in files if os.path.splitext(_bare(f))[1].lower() in _RECORD_LAYOUTS]
        if recs and all(by_content_safe(f) == "records" for f in recs[:20]):
            found.append("records")
    if len(found) == 1:
        return found[0]
    if found:
        raise FormatHint(f"{p} holds the logs of several harnesses ({', '.join(found)}); name one with -f")
    raise FormatHint(
        f"{p} is a folder, and no harness's run layout is in it: a folder of runs is read with -f {_LLM} "
        "(sigfast.formats.runs_in lists the layouts); files of other formats are given one by one"
    )


def by_content_safe(f: Path) -> str | None:
    """:func:`by_content` of a file's first lines, ``None`` where it says nothing or hints at another format."""
    try:
        return by_content(f, _head_text(f).splitlines())
    except InputError:
        return None
