"""One reproducibility signature for every result: everything that produced it, pinned.

Every result type (paired tests, pairwise, classical tests, intervals,
studies, analyses, seed comparisons, meta-evaluation) builds its signature
here, from the fields each stage declares:

``sigfast:VERSION|test:T|variant:V|alt:A|metric:M[params]|format:F[options]|view:W|align:L|resampling:R|items:N|B:B|seed:S|conf:C|p:P|stream:K|data:HASH``

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
:func:`parse` reads any signature back into a dict (:func:`unparse` writes it
again); :func:`shared` splits the signatures of a table's rows into the part
they share, printed once, and what each row adds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "build",
    "data_hash",
    "for_request",
    "format_part",
    "hash_data",
    "metric_part",
    "parse",
    "shared",
    "stream_name",
    "stream_version",
    "unparse",
]

# The random stream of each version, as signatures name it (``stream:NAME``); see CHANGELOG.md,
# "Random stream", for each one's exact definition.
_STREAMS = {1: "philox4x64-10+xoshiro256pp/v1", 2: "philox4x64-10+xoshiro256pp-x4/v2"}

_ORDER = (
    "test",
    "variant",
    "alt",
    "metric",
    "format",
    "view",
    "align",
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


class Part(str):
    """A signature part already in its final form (``name[key=value,...]``): not escaped again."""


def _value(v: Any) -> str:
    if isinstance(v, Part):
        return str(v)
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
        return Part(f"custom:{_value(getattr(metric, 'name', 'metric'))}")
    name = getattr(metric, "name", native)
    params = dict(getattr(metric, "params", {}) or {})
    label = name if name == native else f"{name}={native}"
    return Part(f"{label}[{_params(params)}]" if params else label)


def format_part(provenance: Mapping[str, Any] | None) -> str:
    """``format[option=value,...]`` from a Statistics' provenance, or ``arrays``."""
    if not provenance:
        return Part("arrays")
    opts = dict(provenance.get("options", {}))
    if provenance.get("gold_files", 1) != 1:
        opts["refs"] = provenance["gold_files"]
    fmt = provenance.get("format", "arrays")  # provenance a caller made (samples, clusters) names none
    return Part(f"{fmt}[{_params(opts)}]" if opts else str(fmt))


def data_hash(stats: Any, clusters: Any = None) -> str:
    """The first 12 hex digits of a SHA-256 over the statistics (values, systems, statistic names)
    and, when whole clusters were resampled, the cluster assignment (the items' dense cluster codes:
    which items go together, whatever the keys are called)."""
    h = hashlib.sha256()
    values = np.ascontiguousarray(np.asarray(stats.values, dtype=np.float64))
    h.update(str(values.shape).encode())
    h.update(values.tobytes())
    h.update("\x1f".join(map(str, stats.systems)).encode())
    h.update("\x1f".join(map(str, stats.stat_names)).encode())
    if clusters is not None:
        codes = np.ascontiguousarray(np.asarray(getattr(clusters, "codes", clusters), dtype=np.uint32))
        h.update(b"clusters" + str(codes.shape).encode() + codes.tobytes())
    return h.hexdigest()[:12]


def hash_data(*parts: Any) -> str:
    """The first 12 hex digits of a SHA-256 over ``parts``: numeric arrays by shape and float64
    bytes, labels (strings, object arrays) by their text, mappings by sorted items, and
    sequences part by part; what a result was computed from, so two runs on different inputs
    never share a signature."""
    h = hashlib.sha256()

    def feed(x: Any) -> None:
        if x is None:
            h.update(b"\x00")
        elif isinstance(x, (str, bytes)):
            h.update(b"s" + (x.encode() if isinstance(x, str) else x) + b"\x1e")
        elif isinstance(x, (bool, int, float, np.generic)):
            h.update(b"n" + repr(float(x) if not isinstance(x, bool) else int(x)).encode() + b"\x1e")
        elif isinstance(x, np.ndarray) and (np.issubdtype(x.dtype, np.number) or x.dtype == np.bool_):
            a = np.ascontiguousarray(x, dtype=np.float64)
            h.update(b"a" + str(a.shape).encode() + a.tobytes())
        elif isinstance(x, np.ndarray):  # labels: their text, in one update (units hold ~10^6 of them)
            h.update(b"o" + str(x.shape).encode())
            items = x.ravel().tolist()
            try:
                text = "\x1f".join(items)
            except TypeError:  # not all strings
                text = "\x1f".join(map(str, items))
            h.update(text.encode("utf-8", "surrogatepass"))
        elif isinstance(x, Mapping):
            h.update(b"m")
            for k in sorted(x, key=str):
                feed(str(k))
                feed(x[k])
        elif hasattr(x, "values") and hasattr(x, "stat_names") and hasattr(x, "systems"):
            h.update(b"S" + data_hash(x).encode())
        elif isinstance(x, (list, tuple)):
            h.update(b"l" + str(len(x)).encode())
            for v in x:
                feed(v)
        else:
            feed(np.asarray(x))
        h.update(b"\x1f")

    for p in parts:
        feed(p)
    return h.hexdigest()[:12]


def stream_name(version: int) -> str:
    """The signature's name of random stream version ``version`` (``stream:`` field)."""
    from .exceptions import InputError

    if version not in _STREAMS:
        raise InputError(f"unknown stream version {version!r}; known: {sorted(_STREAMS)}")
    return _STREAMS[version]


def stream_version(signature: Any) -> int | None:
    """The random stream version a signature (a string, or a dict from :func:`parse`) names, or
    None when it names none (a result without resamples). Pass it back as ``stream=`` to
    reproduce the result."""
    from .exceptions import InputError

    fields = parse(signature) if isinstance(signature, str) else signature
    name = fields.get("stream")
    if name is None:
        return None
    _, sep, tail = str(name).rpartition("/v")
    if not sep or not tail.isdigit() or _STREAMS.get(int(tail)) != name:
        raise InputError(f"unknown random stream {name!r} in a signature; this build knows {sorted(_STREAMS.values())}")
    return int(tail)


def units_fields(units: Any) -> dict[str, Any]:
    """Signature fields of labelled units (``diff``, ``oracle``, ``agreement``, McNemar): the
    format with its options, the view, the alignment used, the unit count and a hash of the
    labels."""
    prov = {"format": units.format or "labels", "options": dict(getattr(units, "options", {}) or {})}
    return {
        "format": format_part(prov) if units.format else "labels",
        "view": units.view,
        "align": getattr(units, "align", None),
        "items": units.n_units,
        "systems": list(units.names),
        "data": hash_data(units.gold, list(units.systems), list(units.names)),
    }


def build(
    test: str, *, stats: Any = None, metric: Any = None, units: Any = None, clusters: Any = None, **fields: Any
) -> str:
    """The signature of a result of ``test``: the one builder every result uses.

    ``stats`` (a :class:`~sigfast.Statistics`) adds the format with its
    options, the item count and the data hash; ``metric`` (a resolved
    :class:`~sigfast.metrics.Metric`, or a list of metric names) adds the metric with its
    parameters; ``units`` (labelled units) adds format, view, alignment, unit count and a
    hash of the labels; ``clusters`` (the :class:`~sigfast.clusters.Clusters` resampled) joins the
    data hash. Other fields (``variant``, ``alt``, ``resampling``, ``B``,
    ``seed``, ``conf``, ``correction``, ``p``, ``stream``, ``view``, ``data``, ...) are
    added as given (a ``data`` that is not a string is hashed with :func:`hash_data`);
    None values are left out. ``stream`` (a stream version number, or its name) is added
    wherever a seed or B is: the default version unless given.
    """
    from . import _native

    if "data" in fields and fields["data"] is not None and not isinstance(fields["data"], str):
        fields["data"] = hash_data(fields["data"])
    if isinstance(fields.get("stream"), (int, np.integer)) and not isinstance(fields["stream"], bool):
        fields["stream"] = stream_name(int(fields["stream"]))
    f: dict[str, str] = {"test": _value(test)}
    if units is not None:
        f.update({k: _value(v) for k, v in units_fields(units).items() if v is not None})
    f.update({k: _value(v) for k, v in fields.items() if v is not None})
    if metric is not None:
        f["metric"] = _value(list(metric)) if isinstance(metric, (list, tuple)) else metric_part(metric)
    if stats is not None:
        f["format"] = format_part(getattr(stats, "provenance", None))
        f.setdefault("items", str(stats.n_items))
        f["data"] = data_hash(stats, clusters)
    if "stream" not in f and ("B" in f or "seed" in f):
        f["stream"] = stream_name(int(_native.STREAM_VERSION))
    keys = [k for k in _ORDER if k in f] + sorted(k for k in f if k not in _ORDER)
    return "|".join([f"sigfast:{_native.__version__}"] + [f"{k}:{f[k]}" for k in keys])


def parse(signature: str) -> dict[str, str]:
    """A signature read back into a dict of its fields (``{"sigfast": VERSION, "test": ..., ...}``),
    in order; :func:`unparse` writes the same string again. Values stay strings:
    ``parse_value`` splits ``name[key=value,...]`` parts (metric, format)."""
    from .exceptions import InputError

    if not isinstance(signature, str) or not signature.startswith("sigfast:"):
        raise InputError(f"not a sigfast signature: {signature!r} (it starts with 'sigfast:VERSION|')")
    out: dict[str, str] = {}
    for part in signature.strip().split("|"):
        key, colon, value = part.partition(":")
        if not colon or not key or key in out:
            raise InputError(f"not a sigfast signature: field {part!r} of {signature!r}")
        out[key] = value
    return out


def unparse(fields: Mapping[str, Any]) -> str:
    """The signature string of a dict :func:`parse` returned."""
    return "|".join(f"{k}:{v}" for k, v in fields.items())


def parse_value(value: str) -> tuple[str, dict[str, str]]:
    """``("bleu", {"max_order": "4", ...})`` from ``"bleu[max_order=4,...]"`` (no brackets: no parameters)."""
    if not value.endswith("]") or "[" not in value:
        return value, {}
    name, _, rest = value.partition("[")
    params = dict(p.split("=", 1) for p in rest[:-1].split(",") if "=" in p)
    return name, params


def shared(signatures: Any) -> tuple[str, list[str]]:
    """The fields every signature shares (a signature of its own) and, for each signature, the
    fields it adds (``key:value|...``), so that a table prints the shared part once."""
    sigs = [parse(s) for s in signatures]
    if not sigs:
        return "", []
    common = {k: v for k, v in sigs[0].items() if all(s.get(k) == v for s in sigs[1:])}
    rest = ["|".join(f"{k}:{v}" for k, v in s.items() if k not in common) for s in sigs]
    return unparse(common), rest


def for_report(parsed: Any, system: int, metrics: Sequence[str]) -> str:
    """The signature of a reference scorer's report (``sigfast score``): the format with every option,
    the metrics reported, the system, its item count and a hash of the per-item statistics and the
    scores the report rests on."""
    r = parsed.reports[system]
    provenance: dict[str, Any] = {
        "format": parsed.format,
        "options": {o.name: parsed.options.get(o.name, o.default) for o in parsed.spec.options},
    }
    if isinstance(parsed.gold_input, (list, tuple)):
        provenance["gold_files"] = len(parsed.gold_input)
    resolved = getattr(getattr(r, "log", None), "resolved", None)  # LLM logs: the task read, the reducer...
    if resolved:
        provenance["options"].update(resolved)
    first = r.stats.get(r.default_metric) or next(iter(r.stats.values()), None)
    return build(
        "score",
        metric=list(metrics),
        format=format_part(provenance),
        systems=[parsed.names[system]],
        items=None if first is None else int(first.values.shape[0]),
        data=[{m: r.scores[m] for m in metrics}, {k: v.values for k, v in r.stats.items()}],
    )


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
            groups="strict" if getattr(req, "groups", "boundaries") == "strict" else None,  # default: unsigned
        )
    if req.nan_policy != "raise":
        f["nan"] = req.nan_policy
    f["stream"] = req.stream
    if req.clusters is not None:
        f.setdefault("resampling", req.clusters.label)
    design = getattr(req, "design", None)
    if design is not None:  # the rows resampled: their scheme, and a hash of the rows and codes
        f.setdefault("resampling", design.label)
        f["design"] = design.digest
    if getattr(req, "draws", "sigfast") != "sigfast":  # explicit draws: their source names the stream
        f["draws"] = req.draws
        f["stream"] = "numpy-pcg64-choice"
    f.update(fields)
    return build(test, stats=req.stats, metric=req.metric, clusters=req.clusters, **f)
