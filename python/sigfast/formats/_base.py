"""What every format reader returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ItemStats", "ScoreReport", "display", "read_file_bytes"]


@dataclass(frozen=True)
class ItemStats:
    """Per-item sufficient statistics of one system for one metric.

    ``values`` has shape (items, len(stat_names)); items are sentences,
    segments or documents, in file order. ``metric`` is a name understood by
    :func:`sigfast.metrics.get` with ``metric_params``, and summing ``values``
    over all items and applying the metric gives the corpus score exactly.
    """

    metric: str
    stat_names: tuple[str, ...]
    values: np.ndarray
    metric_params: dict[str, Any] = field(default_factory=dict)
    counts: bool = True


@dataclass(frozen=True)
class ScoreReport:
    """One system file scored against gold, as the reference scorer does.

    ``text`` is the report printed exactly as the reference scorer prints it
    (same numbers, precision and rounding); ``scores`` maps metric names to
    unrounded corpus values; ``stats`` maps the same names to per-item
    statistics; ``default_metric`` is the headline metric (e.g. ``"las"``).
    """

    format: str
    gold: str
    system: str
    text: str
    scores: dict[str, float]
    stats: dict[str, ItemStats]
    default_metric: str
    item_ids: tuple[str, ...] | None = None


def display(path: str | Path | Any) -> str:
    return str(path)


def read_file_bytes(path: str | Path | Any, role: str) -> tuple[bytes, str]:
    """A file's bytes (gunzipped when it is gzip data) and its display name.

    Errors name the file and say what is wrong: missing, unreadable, or a
    broken gzip stream.
    """
    import gzip

    from ..exceptions import FormatError

    name = display(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise FormatError(f"cannot read the {role} file: {e.strerror or e}", path=name) from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise FormatError(
                f"the {role} file looks gzip-compressed but cannot be decompressed: {e}", path=name
            ) from None
    return data, name
