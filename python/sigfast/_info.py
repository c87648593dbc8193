"""``sigfast info``: the version, the random stream, every format and every metric.

The formats' declarations live in modules that import numpy; so that ``info``
starts in a blink, it reads them from :mod:`sigfast._formats_table`, a table
generated from those declarations (``python -m sigfast._info`` writes it),
whenever the table was generated from the format modules as they are now (a
hash of their source) and no other distribution adds formats (entry points of
the group ``sigfast.formats``) and the registry is not loaded yet (in a
Python process that has read files, the registry itself answers). Otherwise it
reads the declarations themselves. ``tests/test_cli_startup.py`` checks that the table is current.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["format_module", "format_table", "run_info", "write_table"]

_PKG = Path(__file__).resolve().parent
_TABLE = _PKG / "_formats_table.py"


def _source_hash() -> str:
    """A hash of what the format declarations are made of: the source of :mod:`sigfast.formats` and of the
    metric registry's Python side, and the native registry's tables."""
    import hashlib

    from . import _native

    h = hashlib.sha256()
    for p in sorted((_PKG / "formats").glob("*.py")) + [_PKG / "metrics.py"]:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    for name in ("METRICS", "UD_METRICS", "UD_UNIT_VIEWS"):
        h.update(repr(getattr(_native, name, None)).encode())
    return h.hexdigest()[:16]


def _external_formats() -> bool:
    """Whether an installed distribution may declare formats (an ``entry_points.txt`` naming the group):
    a quick scan of ``sys.path``, erring on the side of yes."""
    for entry in sys.path:
        if not entry:
            entry = "."
        if not os.path.isdir(entry):
            if os.path.exists(entry):  # a zip archive on the path: it could hold distributions
                return True
            continue
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(entry, name, "entry_points.txt"), encoding="utf-8") as fh:
                        if "sigfast.formats" in fh.read():
                            return True
                except OSError:
                    continue
    return False


def format_table() -> list[dict[str, Any]]:
    """Every format's declaration as plain data (what ``info`` shows), read from the format modules."""
    from .formats import specs

    return [
        {
            "name": s.name,
            "module": s.score.__module__,
            "aliases": list(s.aliases),
            "extensions": list(s.extensions),
            "reference": s.reference,
            "description": s.description,
            "options": [
                {
                    "name": o.name,
                    "type": o.type_name,
                    "default": list(o.default) if isinstance(o.default, tuple) else o.default,
                    "default_text": "-" if o.default is None else str(o.default),
                    "choices": None if o.choices is None else list(o.choices),
                    "help": o.help,
                    "describe": o.describe(),
                }
                for o in s.options
            ],
            "views": list(s.views),
            "metrics": list(s.metrics),
            "runs": " ".join((s.runs.__doc__ or "").replace("``", "").split()) if s.runs is not None else None,
        }
        for s in specs()
    ]


def _formats() -> list[dict[str, Any]]:
    if "sigfast.formats" in sys.modules:  # the registry is loaded already (a Python caller): ask it
        return format_table()
    try:
        from ._formats_table import FORMATS, SOURCE
    except ImportError:  # pragma: no cover - a checkout without the generated table
        return format_table()
    if SOURCE == _source_hash() and not _external_formats():
        import json

        return json.loads(FORMATS)  # type: ignore[no-any-return]
    return format_table()


def format_module(name: str) -> str | None:
    """The module that declares format ``name`` (a name or an alias), by the generated table: a hint that
    lets a subcommand import that one format module instead of all of them (None: not in the table)."""
    try:
        from ._formats_table import MODULES
    except ImportError:  # pragma: no cover
        return None
    return MODULES.get(name.strip().lower())


def write_table(path: Path = _TABLE) -> None:
    """Write :mod:`sigfast._formats_table` from the format modules (``python -m sigfast._info``)."""
    import json
    import pprint

    table = format_table()
    modules = {n: f["module"] for f in table for n in (f["name"], *f["aliases"])}
    # the table as JSON text: importing this module (for MODULES) costs no parse of it
    data = json.dumps(table, ensure_ascii=True, separators=(",", ":"))
    text = "(\n" + "".join(f"    {data[i : i + 100]!r}\n" for i in range(0, len(data), 100)) + ")"
    path.write_text(
        '"""Generated by `python -m sigfast._info` from the format declarations; do not edit."""\n'
        "# fmt: off\n\n"
        "#: a hash of what the declarations are made of (sigfast._info._source_hash)\n"
        f"SOURCE = {_source_hash()!r}\n\n"
        "#: format name or alias -> the module that declares it\n"
        f"MODULES = {pprint.pformat(modules, width=116)}\n\n"
        "#: every format's declaration, as JSON (sigfast._info.format_table)\n"
        f"FORMATS = {text}\n",
        encoding="utf-8",
    )


def _param_text(p: dict[str, Any]) -> str:
    if p["type"] == "choice":
        what = "|".join(p["choices"])
    elif p["type"] in ("int", "float"):
        lo = "(" if p.get("open_min") else "["
        what = f"{p['type']} in {lo}{p['min']:g}, {p['max']:g}]"
    else:
        what = p["type"]
    default = "-" if p["default"] is None else p["default"]
    return f"{p['name']}={what} (default {default})"


def run_info(args: argparse.Namespace) -> int:
    from . import _cli, _native

    _cli.precheck(args)
    fmts = _formats()
    mets = [dict(s) for s in _native.METRICS]

    def tables() -> list[Any]:
        from .report import Table

        f_rows = tuple(
            (
                s["name"],
                ", ".join(s["aliases"]),
                s["reference"],
                ", ".join(o["describe"] for o in s["options"]),
                ", ".join(s["views"]),
                ", ".join(s["metrics"]),
            )
            for s in fmts
        )
        m_rows = tuple(
            (
                m["name"],
                ", ".join(a["name"] for a in m["aliases"]),
                ", ".join(_param_text(p) for p in m["params"]) or "-",
                {True: "higher", False: "lower", None: "parameter"}[m["higher_is_better"]],
                {"fraction": "x100", "points": "0-100", "plain": "as is"}[m["scale"]],
                m["description"],
            )
            for m in mets
        )
        return [
            Table(("format", "aliases", "reference scorer", "options", "unit views", "metrics"), f_rows, "Formats"),
            Table(("metric", "aliases", "parameters", "better", "shown", "description"), m_rows, "Metrics"),
        ]

    head = (
        f"sigfast {_native.__version__} ({_native.BUILD_PROFILE} build)\n"
        f"random stream: philox4x64-10 keyed (seed, scheme, resample) -> xoshiro256++ "
        f"(version 2: four SIMD lanes), version {_native.STREAM_VERSION} by default "
        f"(versions {', '.join(map(str, _native.STREAM_VERSIONS))}: stream= in Python)\n"
        f"threads: {os.cpu_count()} cores available\n\n"
    )
    lines = [head.rstrip("\n"), "", "Formats (--format NAME; -o KEY=VALUE):"]
    for f in fmts:
        lines.append(f"  {f['name']}: {f['description']} [{f['reference']}]")
        if f["aliases"]:
            lines.append(f"      aliases: {', '.join(f['aliases'])}")
        for o in f["options"]:
            lines.append(f"      -o {o['describe']} (default {o['default_text']}): {o['help']}")
        if f["views"]:
            lines.append(f"      unit views: {', '.join(f['views'])}")
        lines.append(f"      metrics: {', '.join(f['metrics'])}")
        if f.get("runs"):
            lines.append(f"      a folder of runs: {f['runs']}")
    lines += ["", "Metrics (--metric NAME; parameters in Python: sigfast.metrics.get(NAME, **params)):"]
    for m in mets:
        aliases = f" (also {', '.join(a['name'] for a in m['aliases'])})" if m["aliases"] else ""
        lines.append(f"  {m['name']}{aliases}: {m['description']} [{m['reference']}]")
        for p in m["params"]:
            lines.append(f"      {_param_text(p)}: {p['help']}")

    def rows() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for f in fmts:
            out.append(
                {
                    "kind": "format",
                    "name": f["name"],
                    "aliases": " ".join(f["aliases"]),
                    "reference": f["reference"],
                    "options": " ".join(o["describe"] for o in f["options"]),
                    "views": " ".join(f["views"]),
                    "metrics": " ".join(f["metrics"]),
                    "description": f["description"],
                }
            )
        for m in mets:
            out.append(
                {
                    "kind": "metric",
                    "name": m["name"],
                    "aliases": " ".join(a["name"] for a in m["aliases"]),
                    "reference": m["reference"],
                    "options": " ".join(_param_text(p) for p in m["params"]),
                    "higher_is_better": m["higher_is_better"],
                    "scale": m["scale"],
                    "description": m["description"],
                }
            )
        return out

    _cli.emit(
        args,
        text="\n".join(lines) + "\n",
        tables=tables,
        results=[_cli.Rows(rows)],
        data=lambda: {
            "version": _native.__version__,
            "stream_version": _native.STREAM_VERSION,
            "stream_versions": list(_native.STREAM_VERSIONS),
            "formats": [
                {
                    "name": s["name"],
                    "aliases": s["aliases"],
                    "extensions": s["extensions"],
                    "reference": s["reference"],
                    "options": [
                        {k: o[k] for k in ("name", "type", "default", "choices", "help")} for o in s["options"]
                    ],
                    "views": s["views"],
                    "metrics": s["metrics"],
                }
                for s in fmts
            ],
            "metrics": mets,
        },
    )
    return 0


if __name__ == "__main__":
    write_table()
    print(f"wrote {_TABLE}")
