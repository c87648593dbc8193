"""Helpers shared by the study modules."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..exceptions import InputError
from ..stats import Statistics


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
    from ..signature import format_part

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
    from .._progress import resolve

    return resolve(progress, total, float("inf") if total > 1 else 0.0, desc)


#: Columns per engine call in the column-blocked path (0: off, the default). It was written when the
#: engine took 29 ms at 9-16 columns and 122 ms at 75 (500 items, B = 10^4, one thread); with the
#: engine's const-generic wide-row kernels (6.6 ms at 15 columns, 23 ms at 75) one call for all columns
#: is faster (measured when the engine gained wide-row kernels), so the path stays off; it gives the same p-values.
COLUMN_BLOCK = 0


def blocked_pair_pvalues(
    stats: Statistics,
    n_resamples: int,
    seed: int,
    variant: str,
    metric: Any,
    n_threads: int | None,
    stream: int | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """All-pairs BK/Koehn p-values on shared resamples, summing ``COLUMN_BLOCK`` columns per engine call.

    Identical columns are summed once (a column's sums depend only on the
    column and the resamples).

    The same resamples, sums, metric values and exceedance counts as
    :func:`sigfast.pairwise` with ``resampling="items"`` and ``correction="none"``
    (checked by the tests); None where this path does not apply (a Python
    metric, the shifted variant, narrow tables).
    """
    from .. import _native
    from ..executor import _NATIVE_VARIANT, PAIR_BLOCK, check_stream, resolve_variant
    from ..executor import check_threads as _threads
    from ..metrics import resolve_metric

    v = resolve_variant(variant, None)[0] if str(variant).lower() in ("bk", "berg-kirkpatrick", "koehn") else None
    m = resolve_metric(metric, stats)
    s, n, k = stats.n_systems, stats.n_items, stats.n_stats
    if COLUMN_BLOCK <= 0 or v not in ("berg-kirkpatrick", "koehn") or m.native is None or s * k <= COLUMN_BLOCK:
        return None
    threads = _threads(n_threads)
    table = np.ascontiguousarray(stats.values.transpose(1, 0, 2).reshape(n, s * k))
    observed = m.evaluate(stats.totals(), n)
    orient = 1.0 if m.higher_is_better else -1.0
    # identical columns (the gold counts every system shares, systems on gold tokens) are summed once
    uniq, inverse = np.unique(table, axis=1, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    w = uniq.shape[1]
    counts = np.zeros((s, s), dtype=np.uint64)
    params = dict(m.params)
    for start in range(0, n_resamples, PAIR_BLOCK):
        count = min(PAIR_BLOCK, n_resamples - start)
        usums = np.empty((count, w))
        for c0 in range(0, w, COLUMN_BLOCK):
            c1 = min(c0 + COLUMN_BLOCK, w)
            part, _ = _native.bootstrap_sums(
                np.ascontiguousarray(uniq[:, c0:c1]),
                seed,
                start,
                count,
                "items",
                threads,
                None,
                stream=check_stream(stream),
            )
            usums[:, c0:c1] = part
        sums = usums[:, inverse]
        vals = np.empty((count, s))
        for j in range(s):
            vals[:, j] = _native.metric_scores(
                np.ascontiguousarray(sums[:, j * k : (j + 1) * k]), m.native, params, float(n)
            )
        c, _ = _native.pair_counts(
            np.ascontiguousarray(vals),
            [float(x) for x in observed],
            _NATIVE_VARIANT[v],
            "two-sided",
            orient,
            None,
            threads,
        )
        counts += np.asarray(c, dtype=np.uint64).reshape(s, s)
    pv = (counts.astype(np.float64) + 1) / (n_resamples + 1)
    np.fill_diagonal(pv, np.nan)
    return np.asarray(observed), pv


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
    from ..pairwise import pairwise

    sub = stats if idx is None else subset(stats, idx)
    fast = blocked_pair_pvalues(sub, n_resamples, seed, variant, metric, n_threads, stream)
    if fast is not None:
        return fast
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
