"""Files of per-item values: one score, or one row of statistics, per item.

``tsv``
    One item per line, one or more numbers separated by tabs or spaces; an
    optional first line of names (a header only when every field is a name:
    ``0.5x1`` or ``O.7`` on line 1 is a mistyped number, an error, not a
    header; the report names the line taken as a header); lines starting
    with ``#`` are comments.
``jsonl``
    One JSON value per line: a number, a list of numbers, or an object
    (``{"score": 0.5}`` or named statistics ``{"tp": 3, "guessed": 4, "gold": 5}``).
``npy``
    A 1-D or 2-D numeric NumPy array.

These formats take no gold file and have no reference scorer, report or
units: their one view is the statistics, with the metric chosen by the
caller (default: the mean of one value per item). :func:`read_items` is
their one reader (``sigfast.io.read_items`` is the same function); files are
opened as by every format (gzip, byte-order mark, size limit:
:func:`~sigfast.formats._base.read_file_bytes`).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError
from ._base import FormatSpec, ItemStats, ReadmeRow, ScoreReport, decode_utf8, display, read_file_bytes

__all__ = ["SPECS", "header_note", "is_name", "read_items", "read_items_header", "read_items_lines"]


def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


def _number(tok: str, path: str, line: int, col: int) -> float:
    try:
        v = float(tok)
    except ValueError:
        raise FormatError(f"column {col}: {_short(tok)} is not a number", path=path, line=line) from None
    if not math.isfinite(v):
        raise FormatError(
            f"column {col}: {_short(tok)} is not finite (as a float64); fix or remove that item", path=path, line=line
        )
    return v


def _read_text(path: str) -> list[str]:
    data, name = read_file_bytes(path, "input")
    text = decode_utf8(data, name)
    # lines end at \n (or \r\n; \r alone in a file without \n): a U+2028 or \x0c inside a line stays in
    # that line, so line numbers are the ones an editor shows (str.splitlines() would break there too)
    lines = [x.removesuffix("\r") for x in text.split("\n")] if "\n" in text else text.split("\r")
    while lines and not lines[-1].strip():  # blank lines at the very end hold no item
        lines.pop()
    return lines


def _read_npy(p: str) -> np.ndarray:
    """A 1-D or 2-D real numeric .npy array, its header checked against the file before loading."""
    import io as _io

    data, _ = read_file_bytes(p, "input", keep_bom=True)
    fh = _io.BytesIO(data)
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fh)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(fh)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = fmt.read_array_header_2_0(fh)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except Exception as e:  # numpy raises ValueError, EOFError, SyntaxError, TokenError, ... on a bad header
        raise FormatError(f"not a valid .npy file ({type(e).__name__}: {e})", path=p) from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise FormatError(f"expected a numeric array, got dtype {dtype}", path=p)
    if np.issubdtype(dtype, np.complexfloating):
        raise FormatError(f"complex numbers ({dtype}) are not scores or statistics; save the real part", path=p)
    if not (np.issubdtype(dtype, np.number) or dtype == np.bool_):
        raise FormatError(f"expected a numeric array, got dtype {dtype}", path=p)
    if len(shape) not in (1, 2):
        raise FormatError(f"expected a 1-D or 2-D array, got shape {shape}", path=p)
    count = 1
    for d in shape:
        count *= int(d)
    need = count * dtype.itemsize
    have = len(data) - fh.tell()
    if need != have:
        raise FormatError(
            f"the header declares shape {shape} of {dtype} ({need} bytes of data) but the file holds "
            f"{have} bytes after it; the file is truncated or corrupt",
            path=p,
        )
    try:
        arr = np.frombuffer(data, dtype=dtype, count=count, offset=fh.tell())
        arr = arr.reshape(shape, order="F" if fortran else "C")
    except (ValueError, MemoryError) as e:
        raise FormatError(f"cannot read the array ({e})", path=p) from None
    return arr


_NAME = re.compile(r"[A-Za-z_]")
_DIGIT_LOOKALIKES = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", ",": "."})


def is_name(tok: str) -> bool:
    """Whether a field of a first line is a column name (``score``, ``tp``, ``acc_norm``, ``l2``), not a number
    or a mistyped one: a name starts with a letter or ``_``, and a field with a digit and a decimal point
    that is a number once a letter O or l (I) is read as 0 or 1, or a comma as a point (``O.7``, ``l.5``), is
    a mistyped number."""
    if not _NAME.match(tok):
        return False  # starts with a digit, a sign or a point: 0.5x1, 0,5, -0.3a, .7.
    if any(c.isdigit() for c in tok) and ("." in tok or "," in tok):
        try:
            float(tok.translate(_DIGIT_LOOKALIKES))
        except ValueError:
            return True
        return False
    return True


def header_note(line: int, names: tuple[str, ...]) -> str:
    """What the report says about a first line taken as a header."""
    return f"line {line} ({' '.join(names)}) is taken as a header of column names, not as an item"


def read_items(path: str | Path, fmt: str = "auto") -> tuple[np.ndarray, tuple[str, ...] | None]:
    """Per-item values ``(items, statistics)`` and statistic names (or None); see :func:`read_items_lines`."""
    values, names, _ = read_items_lines(path, fmt)
    return values, names


def read_items_lines(
    path: str | Path, fmt: str = "auto"
) -> tuple[np.ndarray, tuple[str, ...] | None, list[int] | None]:
    """Per-item values, statistic names and each item's line number (see :func:`read_items_header`)."""
    values, names, line_of, _ = read_items_header(path, fmt)
    return values, names, line_of


def read_items_header(
    path: str | Path, fmt: str = "auto"
) -> tuple[np.ndarray, tuple[str, ...] | None, list[int] | None, int | None]:
    """Per-item values ``(items, statistics)`` and statistic names (or None).

    TSV: one item per line, one or more numbers separated by tabs or spaces;
    an optional first line of names; lines starting with ``#`` are comments;
    an empty line is an error (a missing item?), except at the end of the file.
    JSONL: one JSON value per line: a number, a list of numbers, or an object
    (``{"score": 0.5}`` or named statistics ``{"tp": 3, "guessed": 4, "gold": 5}``).
    ``.npy``: a 1-D or 2-D numeric array. Also returns each item's line
    number (None for ``.npy``), for error messages, and the line taken as a TSV
    header (None when there is none): a first line is a header only when every
    field is a name (:func:`is_name`); a mistyped number there is an error.
    """
    p = str(path)
    if fmt == "auto":
        name = Path(p).name.lower()
        name = name[:-3] if name.endswith(".gz") else name
        suffix = Path(name).suffix
        fmt = {".jsonl": "jsonl", ".json": "jsonl", ".npy": "npy"}.get(suffix, "tsv")
    if fmt not in ("tsv", "jsonl", "npy"):
        raise FormatError(f"unknown layout {fmt!r}; use 'tsv', 'jsonl' or 'npy'", path=p)
    if fmt == "npy":
        arr = _read_npy(p)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.shape[0] == 0:
            raise FormatError("the array has zero items", path=p)
        if arr.shape[1] == 0:
            raise FormatError("the array has zero values per item", path=p)
        arr = arr.astype(np.float64)
        bad = np.argwhere(~np.isfinite(arr))
        if len(bad):
            raise FormatError(f"item {int(bad[0][0])} has a non-finite value", path=p)
        _check_sums(arr, p)
        return arr.astype(np.float64), None, None, None
    lines = _read_text(p)
    rows: list[list[float]] = []
    line_of: list[int] = []
    names: tuple[str, ...] | None = None
    header: int | None = None
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
            except RecursionError:
                raise FormatError("JSON nested too deeply", path=p, line=i) from None
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
                    raise FormatError(f"value {c} is {_short(v)}, not a number", path=p, line=i)
                try:
                    fv = float(v)
                except OverflowError:
                    fv = math.inf
                if not math.isfinite(fv):
                    raise FormatError(
                        f"value {c} is {_short(v)} is not finite (as a float64); fix or remove that item",
                        path=p,
                        line=i,
                    )
                row.append(fv)
        else:
            toks = s.split()
            if not rows and names is None:
                try:
                    float(toks[0])
                except ValueError:
                    if all(is_name(t) for t in toks):
                        names, header = tuple(toks), i
                        dup = next((t for t in names if names.count(t) > 1), None)
                        if dup is not None:
                            raise FormatError(
                                f"the header names {dup!r} twice; give each column its own name", path=p, line=i
                            ) from None
                        continue
                    bad = next(c for c, t in enumerate(toks, 1) if not is_name(t))
                    if _is_float(toks[bad - 1]):
                        what = f"is a number beside the name {_short(toks[0])} in column 1: the line is neither "
                        what += "an item nor"
                    else:
                        what = "is neither a number nor a column name, so the line is not"
                    raise FormatError(
                        f"column {bad}: {_short(toks[bad - 1])} {what} a header (a first line is a header only when "
                        "every field is a name, such as score or tp); fix the value",
                        path=p,
                        line=i,
                    ) from None
            row = [_number(t, p, i, c) for c, t in enumerate(toks, 1)]
        if width is None:
            width = len(row)
            if names is not None and len(names) != width:
                raise FormatError(f"{width} values but {len(names)} names in the header", path=p, line=i)
        elif len(row) != width:
            raise FormatError(f"{len(row)} values, but earlier lines have {width}", path=p, line=i)
        rows.append(row)
        line_of.append(i)
    if not rows:
        raise FormatError("no items: the file is empty", path=p)
    arr = np.array(rows, dtype=np.float64)
    _check_sums(arr, p, line_of)
    return arr, names, line_of, header


def _is_float(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _check_sums(arr: np.ndarray, p: str, line_of: list[int] | None = None) -> None:
    """Sums over items must stay finite: |value| x items below the float64 maximum."""
    if arr.size == 0:
        return
    mag = np.abs(arr)
    n = arr.shape[0]
    if float(mag.max()) * n <= np.finfo(np.float64).max:
        return
    i, c = (int(v) for v in np.unravel_index(int(np.argmax(mag)), arr.shape))
    raise FormatError(
        f"column {c + 1}: {arr[i, c]:g} is so large that sums of {n} items overflow float64; rescale the "
        f"values (magnitudes must stay below {np.finfo(np.float64).max / n:.3g})",
        path=p,
        line=line_of[i] if line_of else None,
    )


def _scorer(fmt: str) -> Any:
    def score(gold: Any, system: Any) -> ScoreReport:
        values, names, _, header = read_items_header(system, fmt)
        k = values.shape[1]
        stat_names = names or tuple(f"s{i}" for i in range(k))
        stats = {"values": ItemStats(None, stat_names, values, counts=False)}
        return ScoreReport(
            format=fmt,
            gold="",
            system=display(system),
            text="",
            scores={},
            stats=stats,
            default_metric="values",
            warnings=() if header is None or names is None else (header_note(header, names),),
        )

    score.__name__ = f"score_{fmt}"
    return score


def _is_jsonl(head: list[str]) -> bool:
    lines = [ln.strip() for ln in head if ln.strip()]
    return bool(lines) and all(ln[:1] in "{[" for ln in lines[:5])


_COMMON = dict(reference="none (per-item values)", needs_gold=False, metrics=("values",))

#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="per-item scores or statistics",
    checked="—",
    speed="—",
)


SPECS = (
    FormatSpec(
        name="tsv",
        readme=README_ROW,
        description="per-item scores or statistics, one item per line (tab or space separated)",
        score=_scorer("tsv"),
        extensions=(".tsv",),
        split_unit="line",
        **_COMMON,  # type: ignore[arg-type]
    ),
    FormatSpec(
        name="jsonl",
        readme=README_ROW,
        description="per-item scores or statistics, one JSON value per line",
        score=_scorer("jsonl"),
        aliases=("json",),
        extensions=(".jsonl", ".json"),
        detect=_is_jsonl,
        split_unit="line",
        **_COMMON,  # type: ignore[arg-type]
    ),
    FormatSpec(
        name="npy",
        readme=README_ROW,
        description="per-item scores or statistics as a 1-D or 2-D NumPy array",
        score=_scorer("npy"),
        extensions=(".npy",),
        **_COMMON,  # type: ignore[arg-type]
    ),
)
