"""Helpers shared by the study modules."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..engine.stats import Statistics
from ..exceptions import InputError


def sub_seed(seed: int, *k: int) -> int:
    """A 64-bit seed derived from (seed, k...) (numpy SeedSequence), for the engine's streams."""
    return int(np.random.SeedSequence([int(seed), *map(int, k)]).generate_state(1, np.uint64)[0])


def rng(seed: int, *k: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([int(seed), *map(int, k)]))


def subset(stats: Statistics, idx: Any) -> Statistics:
    """The statistics of the items at ``idx`` (repeats allowed), in that order."""
    idx = np.asarray(idx, dtype=np.int64)
    if idx.ndim != 1 or idx.size == 0:
        raise InputError("an item subset must be a non-empty 1-D list of indices")
    if idx.min() < 0 or idx.max() >= stats.n_items:
        raise InputError(f"item index out of range for {stats.n_items} items")
    return stats.take(idx)


def read_json(path: Any, what: str) -> Any:
    """The JSON document in the file ``path`` (a split manifest, a ``--spec``); a file that is not JSON is a
    one-line :class:`~sigfast.exceptions.FormatError` naming the file, the line and the column."""
    import json
    from pathlib import Path

    from ..exceptions import FormatError

    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FormatError(
            f"{what} is not UTF-8 text (byte {e.start}); write it as UTF-8 JSON", path=str(path)
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(
            f"column {e.colno}: {what} is not valid JSON ({e.msg}); fix the file", path=str(path), line=e.lineno
        ) from None


def input_fields(provenance: Any) -> dict[str, Any]:
    """Signature fields of what a study's statistics were read from: the format with every option, the
    units' view and the alignment used (nothing for numbers passed from Python)."""
    if not provenance:
        return {}
    from ..results.signature import format_part

    return {
        "format": format_part(provenance),
        "view": provenance.get("view"),
        "align": provenance.get("align", (provenance.get("options") or {}).get("align")),
    }


def with_signature(tables: list[Any], signature: str) -> list[Any]:
    """``tables`` with the result's signature under the last one (text, markdown; a comment in LaTeX)."""
    from dataclasses import replace

    return [*tables[:-1], replace(tables[-1], signature=signature)] if tables else tables


def check_int(name: str, v: Any, lo: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
        raise InputError(f"{name} must be an integer >= {lo}, got {v!r}")
    return int(v)


def plain(v: Any) -> Any:
    """JSON-safe: numpy to Python, non-finite floats to None."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return plain(v.tolist())
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else None
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def metric_name(stats: Statistics, metric: Any) -> str:
    if isinstance(metric, str):
        return metric
    return stats.metric_label or stats.metric or "metric"


def progress_cb(progress: Any, total: int, desc: str) -> Any:
    """None: a bar on a terminal only; True: always; False: none; or a callable(done, total)."""
    from ..engine.progress import resolve

    return resolve(progress, total, float("inf") if total > 1 else 0.0, desc)


def pairwise_task(
    stats: Statistics,
    idx: Any,
    n_resamples: int,
    seed: int,
    variant: str,
    metric: Any,
    n_threads: int | None,
    stream: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores (S,) and p-values (S×S, [i, j] tests j against i) of all pairs on the items at ``idx``.

    A pure function of its arguments (for process pools and Ray): all pairs
    share the engine's bootstrap resamples (Berg-Kirkpatrick et al. 2012, fn. 5);
    equal to ``sigfast.pairwise(..., resampling="items", correction="none")``.
    """
    from ..inference.pairwise import pairwise

    sub = stats if idx is None else subset(stats, idx)
    r = pairwise(
        sub,
        metric=metric,
        n_resamples=n_resamples,
        seed=seed,
        variant=variant,
        correction="none",
        resampling="items",
        stream=stream,
        n_threads=n_threads,
        progress=False,
    )
    return np.asarray(r.scores), np.asarray(r.pvalues)
