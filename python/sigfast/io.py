"""Reading per-item scores or statistics from TSV, JSONL or .npy files."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from .exceptions import FormatError

__all__ = ["read_items"]


def _number(tok: str, path: str, line: int, col: int) -> float:
    try:
        v = float(tok)
    except ValueError:
        raise FormatError(f"column {col}: {tok!r} is not a number", path=path, line=line) from None
    if not math.isfinite(v):
        raise FormatError(f"column {col}: {tok!r} is not finite; fix or remove that item", path=path, line=line)
    return v


def _read_text(path: str) -> list[str]:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise FormatError("no such file", path=path) from None
    except IsADirectoryError:
        raise FormatError("is a directory, expected a file", path=path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FormatError(
            f"bytes that are not UTF-8 at byte {e.start}; re-encode the file as UTF-8", path=path, line=line
        ) from None
    return text.splitlines()


def read_items(path: str | Path, fmt: str = "auto") -> tuple[np.ndarray, tuple[str, ...] | None]:
    """Per-item values ``(items, statistics)`` and statistic names (or None).

    TSV: one item per line, one or more numbers separated by tabs or spaces;
    an optional first line of names; lines starting with ``#`` are comments.
    JSONL: one JSON value per line: a number, a list of numbers, or an object
    (``{"score": 0.5}`` or named statistics ``{"tp": 3, "guessed": 4, "gold": 5}``).
    ``.npy``: a 1-D or 2-D numeric array.
    """
    p = str(path)
    if fmt == "auto":
        suffix = Path(p).suffix.lower()
        fmt = {".jsonl": "jsonl", ".json": "jsonl", ".npy": "npy"}.get(suffix, "tsv")
    if fmt == "npy":
        try:
            arr = np.load(p, allow_pickle=False)
        except FileNotFoundError:
            raise FormatError("no such file", path=p) from None
        except ValueError as e:
            raise FormatError(f"not a numeric .npy array ({e})", path=p) from None
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2 or not np.issubdtype(arr.dtype, np.number):
            raise FormatError(f"expected a 1-D or 2-D numeric array, got {arr.dtype} {arr.shape}", path=p)
        bad = np.argwhere(~np.isfinite(arr))
        if len(bad):
            raise FormatError(f"item {int(bad[0][0])} has a non-finite value", path=p)
        if arr.shape[0] == 0:
            raise FormatError("the array has zero items", path=p)
        return arr.astype(np.float64), None
    lines = _read_text(p)
    rows: list[list[float]] = []
    names: tuple[str, ...] | None = None
    width: int | None = None
    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if s.startswith("#") and fmt == "tsv":
            continue
        if not s:
            raise FormatError("empty line; every line must hold one item (use '#' for comments)", path=p, line=i)
        if fmt == "jsonl":
            try:
                obj: Any = json.loads(s)
            except json.JSONDecodeError as e:
                raise FormatError(f"not valid JSON ({e.msg})", path=p, line=i) from None
            if isinstance(obj, dict):
                keys = tuple(obj)
                if names is None:
                    names = keys
                elif keys != names:
                    raise FormatError(f"keys {list(keys)} differ from the first line's {list(names)}", path=p, line=i)
                vals = list(obj.values())
            elif isinstance(obj, list):
                vals = obj
            else:
                vals = [obj]
            row = []
            for c, v in enumerate(vals, 1):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise FormatError(f"value {c} is {v!r}, not a number", path=p, line=i)
                if not math.isfinite(v):
                    raise FormatError(f"value {c} is not finite", path=p, line=i)
                row.append(float(v))
        else:
            toks = s.split()
            if not rows and names is None:
                try:
                    float(toks[0])
                except ValueError:
                    names = tuple(toks)
                    continue
            row = [_number(t, p, i, c) for c, t in enumerate(toks, 1)]
        if width is None:
            width = len(row)
            if names is not None and len(names) != width:
                raise FormatError(f"{width} values but {len(names)} names in the header", path=p, line=i)
        elif len(row) != width:
            raise FormatError(f"{len(row)} values, but earlier lines have {width}", path=p, line=i)
        rows.append(row)
    if not rows:
        raise FormatError("no items: the file is empty", path=p)
    return np.array(rows, dtype=np.float64), names
