"""One reproducibility signature for every result: everything that produced it, pinned.

Every result type (paired tests, pairwise, classical tests, intervals,
studies, analyses, seed comparisons, meta-evaluation) builds its signature
here, from the fields each stage declares:

``sigfast:VERSION|test:T|variant:V|alt:A|metric:M[params]|format:F[options]|resampling:R|items:N|B:B|seed:S|conf:C|p:P|stream:K|data:HASH``

* ``metric`` names the metric with all its parameters, defaults filled in
  (``bleu[max_order=4,smooth=exp,smooth_value=-,effective_order=false]``);
  a Python callable shows as ``custom:NAME``;
* ``format`` names the file format and every reader option as resolved
  (``mt[metric=-,tokenize=13a,lowercase=false,width=2,refs=2]``), or
  ``arrays`` for numbers passed from Python;
* ``data`` is a short SHA-256 of the statistics themselves (values, system
  names and statistic names), so two runs on different inputs never share
  a signature even when every setting agrees.

Fields that do not apply to a result are left out, never filled with a
placeholder. Two runs that differ in any setting get different signatures.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["build", "data_hash", "for_request", "format_part", "metric_part"]

_ORDER = (
    "test",
    "variant",
    "alt",
    "metric",
    "format",
    "view",
    "resampling",
    "items",
    "systems",
    "B",
    "seed",
    "conf",
    "correction",
    "p",
    "stream",
    "data",
)


def _value(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}" if np.isfinite(v) else str(v)
    if isinstance(v, (list, tuple)):
        return "+".join(_value(x) for x in v)
    return str(v).replace("|", "/").replace(",", ";")


def _params(params: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={_value(v)}" for k, v in params.items())


def metric_part(metric: Any) -> str:
    """``name[param=value,...]`` of a resolved metric, ``custom:NAME`` for a callable."""
    if metric is None:
        return "-"
    native = getattr(metric, "native", None)
    if native is None:
        return f"custom:{getattr(metric, 'name', 'metric')}"
    name = getattr(metric, "name", native)
    params = dict(getattr(metric, "params", {}) or {})
    label = name if name == native else f"{name}={native}"
    return f"{label}[{_params(params)}]" if params else label


def format_part(provenance: Mapping[str, Any] | None) -> str:
    """``format[option=value,...]`` from a Statistics' provenance, or ``arrays``."""
    if not provenance:
        return "arrays"
    opts = dict(provenance.get("options", {}))
    if provenance.get("gold_files", 1) != 1:
        opts["refs"] = provenance["gold_files"]
    return f"{provenance['format']}[{_params(opts)}]" if opts else str(provenance["format"])


def data_hash(stats: Any) -> str:
    """The first 12 hex digits of a SHA-256 over the statistics (values, systems, statistic names)."""
    h = hashlib.sha256()
    values = np.ascontiguousarray(np.asarray(stats.values, dtype=np.float64))
    h.update(str(values.shape).encode())
    h.update(values.tobytes())
    h.update("\x1f".join(map(str, stats.systems)).encode())
    h.update("\x1f".join(map(str, stats.stat_names)).encode())
    return h.hexdigest()[:12]


def build(test: str, *, stats: Any = None, metric: Any = None, **fields: Any) -> str:
    """The signature of a result of ``test``.

    ``stats`` (a :class:`~sigfast.Statistics`) adds the format with its
    options, the item count and the data hash; ``metric`` (a resolved
    :class:`~sigfast.metrics.Metric`) adds the metric with its parameters.
    Other fields (``variant``, ``alt``, ``resampling``, ``B``, ``seed``,
    ``conf``, ``correction``, ``p``, ``stream``, ``view``, ...) are added as
    given; None values are left out.
    """
    from . import _native

    f: dict[str, str] = {"test": _value(test)}
    f.update({k: _value(v) for k, v in fields.items() if v is not None})
    if metric is not None:
        f["metric"] = metric_part(metric)
    if stats is not None:
        f["format"] = format_part(getattr(stats, "provenance", None))
        f.setdefault("items", str(stats.n_items))
        f["data"] = data_hash(stats)
    if "stream" not in f and ("B" in f or "seed" in f):
        f["stream"] = f"philox4x64-10+xoshiro256pp/v{_native.STREAM_VERSION}"
    keys = [k for k in _ORDER if k in f] + sorted(k for k in f if k not in _ORDER)
    return "|".join([f"sigfast:{_native.__version__}"] + [f"{k}:{f[k]}" for k in keys])


def for_request(req: Any, test: str, **fields: Any) -> str:
    """The signature of the result of an executor request (:class:`sigfast.executor.Request`):
    every setting of the request that can change the numbers, and ``fields`` the run adds
    (the resampling actually used)."""
    f: dict[str, Any] = {"variant": req.variant}
    exact = req.method == "exact"
    if req.question == "paired" and req.test == "permutation":
        f.update(alt=req.alternative, B=req.n_resamples, seed=None if exact else req.seed, p=req.pvalue)
    elif req.question == "paired":
        f.update(alt=req.alternative, B=req.n_resamples, seed=req.seed, conf=req.confidence_level, p=req.pvalue)
    elif req.question == "interval":
        f.update(B=req.n_resamples, seed=req.seed, conf=req.confidence_level)
    else:
        f.update(
            alt=req.alternative,
            B=req.n_resamples,
            seed=req.seed,
            correction=f"{req.correction}@{req.alpha:g}",
            p=req.pvalue,
            mode=req.mode,
        )
    if req.nan_policy != "raise":
        f["nan"] = req.nan_policy
    f.update(fields)
    return build(test, stats=req.stats, metric=req.metric, **f)
