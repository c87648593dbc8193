"""The format registry: one reader per format serves the report, the statistics and the units.

Every module in this package whose name does not start with ``_`` is a
format module: it declares its formats in a ``SPECS`` tuple of
:class:`FormatSpec` (name, aliases, extensions, typed options, views,
metrics, split unit, punctuation rule, and a ``score`` function). Nothing
else registers them: adding a file here adds a format. A format can also
come from another distribution, through the entry-point group
``sigfast.formats`` (:data:`ENTRY_POINT_GROUP`): the entry point names a
module like these (or its ``FormatSpec`` declarations).

Modules are imported on use. A format named by its canonical name whose
module has the same name (``conllu``, ``pos``, ``mt``, ``alignment``,
``items``…) imports that module alone; an alias, an extension or a listing
(``available()``, ``sigfast info``) imports every format module once.

:func:`parse` reads gold and systems once into a :class:`Parsed`;
``Parsed.statistics(metric)``, ``Parsed.units(view)`` and
``Parsed.report(system).text`` are the three views of that one parse.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..exceptions import InputError
from . import _registry as _registry
from ._base import (
    MISSING,
    FormatSpec,
    ItemStats,
    LazyStats,
    Option,
    Parsed,
    Punct,
    ReadmeRow,
    ScoreReport,
    Units,
    UnitTable,
)
from ._logs import runs_in
from ._registry import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
from ._registry import available, spec, specs

__all__ = [
    "ENTRY_POINT_GROUP",
    "MISSING",
    "FormatSpec",
    "ItemStats",
    "LazyStats",
    "Option",
    "Parsed",
    "Punct",
    "ReadmeRow",
    "ScoreReport",
    "UnitTable",
    "Units",
    "available",
    "detect_format",
    "named_systems",
    "parse",
    "runs_in",
    "score",
    "spec",
    "specs",
    "system_names",
]


def score(fmt: str, gold: Any, system: Any, **options: Any) -> ScoreReport:
    """Score one system file against gold in format ``fmt`` (options checked against its schema)."""
    s = spec(fmt)
    return s.score(gold, system, **s.validate(options))


def _stem(p: str) -> str:
    name = os.path.basename(p.rstrip("/\\")) or p
    if name.endswith(".gz"):
        name = name[:-3]
    stem, ext = os.path.splitext(name)
    return stem if stem and 1 < len(ext) <= 8 else name


def system_names(paths: Sequence[Any], *, shorten: bool = True) -> list[str]:
    """Short stable names for system files: the file name without its extension (and ``.gz``),
    less what every name shares.

    With ``shorten`` (default), the parts that all the names begin or end with, cut at ``.``,
    ``_`` or a space, are dropped: ``newstest2021.de-en.hyp.Facebook-AI.en`` and
    ``newstest2021.de-en.hyp.UEdin.en`` are ``Facebook-AI`` and ``UEdin``;
    ``benepar_gum_news.mrg`` and ``stanza_gum_news.mrg`` are ``benepar`` and ``stanza``
    (a ``-`` does not cut: ``VolcTrans-AT`` stays whole). One file keeps its whole stem.
    Where two files have the same stem (``AntNLP/en_ewt.conllu`` and
    ``BOUN/en_ewt.conllu``) those files are named by their folder (``AntNLP``, ``BOUN``),
    failing that ``folder/stem``, failing that by their paths as given (the same file twice:
    ``a``, ``a #2``). ``NAME=PATH`` names a system explicitly.
    """
    strs = [str(p) for p in paths]
    names = [_stem(p) for p in strs]
    if shorten and len(names) > 1 and not _duplicates(names):
        names = _drop_common_parts(names)
    for rename in (lambda p, n: _parent(p), lambda p, n: f"{_parent(p)}/{_stem(p)}"):
        dup = _duplicates(names)
        if dup:
            names = [rename(p, n) if n in dup else n for p, n in zip(strs, names)]
    dup = _duplicates(names)
    if dup:
        names = [p if n in dup else n for p, n in zip(strs, names)]
    seen: dict[str, int] = {}
    out = []
    for n in names:  # the very same file given twice: n, n #2, ...
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} #{seen[n]}")
    return out


def _drop_common_parts(names: Sequence[str]) -> list[str]:
    """Drop the leading and trailing parts (cut at ``.``, ``_`` or a space) that every name has,
    keeping at least one part of each."""
    import re

    heads = [re.split(r"(?<=[._ ])", n) for n in names]  # "a.b.c" -> ["a.", "b.", "c"]
    k = 0
    while all(len(h) > k + 1 for h in heads) and len({h[k] for h in heads}) == 1:
        k += 1
    names = ["".join(h[k:]) for h in heads]
    tails = [re.split(r"(?=[._ ])", n) for n in names]  # "b.c" -> ["b", ".c"]
    j = 0
    while all(len(t) > j + 1 for t in tails) and len({t[-1 - j] for t in tails}) == 1:
        j += 1
    return ["".join(t[: len(t) - j]) for t in tails]


def _duplicates(names: Sequence[str]) -> set[str]:
    return {n for n in names if names.count(n) > 1}


def _parent(p: str) -> str:
    return os.path.basename(os.path.dirname(os.path.abspath(p)))


def named_systems(systems: Any, names: Sequence[str] | None = None) -> tuple[list[str], list[Any]]:
    """(names, paths) from a path, a list of paths or NAME=PATH strings, or a mapping."""
    if systems is None or isinstance(systems, (bytes, bytearray)):
        raise InputError(
            "give the system files: a path, a list of paths (NAME=PATH names one) or a mapping name → path"
        )
    if isinstance(systems, (str, os.PathLike)):
        systems = [systems]
    if isinstance(systems, Mapping):
        pairs = [(str(k), v) for k, v in systems.items()]
        given, paths = [p[0] for p in pairs], [p[1] for p in pairs]
    else:
        given, paths = [], []
        for s in systems:
            if isinstance(s, str) and "=" in s and not os.path.exists(s):
                n, p = s.split("=", 1)
                if not n or not p:
                    raise InputError(f"{s!r}: write NAME=PATH")
                given.append(n)
                paths.append(p)
            else:
                given.append("")
                paths.append(s)
        unnamed = [p for n, p in zip(given, paths) if not n]
        auto = system_names(unnamed) if paths else []
        if set(auto) & {n for n in given if n}:  # a short name taken by a NAME=PATH: the longer names
            auto = system_names(unnamed, shorten=False)
        it = iter(auto)
        given = [n or next(it) for n in given]
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(paths):
            raise InputError(f"{len(names)} names for {len(paths)} system files")
        given = names
    if not paths:
        raise InputError("no system files given")
    if len(set(given)) != len(given):
        raise InputError(f"system names must be distinct: {given}")
    return given, paths


def _explicit_names(systems: Any, names: Sequence[str] | None) -> list[bool]:
    """Which systems the caller named (NAME=PATH, a mapping, or ``names=``), as :func:`named_systems` reads them."""
    if names is not None:
        return [True] * len(names)
    if isinstance(systems, (str, os.PathLike)):
        systems = [systems]
    if isinstance(systems, Mapping):
        return [True] * len(systems)
    return [isinstance(s, str) and "=" in s and not os.path.exists(s) for s in systems]


def detect_format(path: Any) -> str:
    """The format of a file or folder, from its name, its extension, its first lines or its layout.

    An LLM harness's log is told by its name (``samples_<task>_<time>.jsonl``,
    ``details_<task>_<date>.parquet``, ``per_instance_stats.json``) or its first lines (an Inspect
    ``.json`` log), a folder by the runs in it (:func:`runs_in`), and a file of per-item records with
    ``id`` and ``score`` fields (CSV, TSV or JSON lines) is ``records``, read by id, before its extension
    would make it per-item values read by line. Raises InputError when the input does not say
    unambiguously; name the format then (``format=...``, ``--format``). A recognized input that needs
    options or another path (records whose fields are named otherwise, a harness's results file, a
    folder with no runs) is a :class:`~sigfast.formats._detect.FormatHint` (an InputError) that names them.
    """
    import gzip

    from . import _detect

    p = Path(str(path))
    if p.is_dir():
        return _detect.folder_format(p)
    named = _detect.by_name(p)
    if named is not None:
        return named
    name = p.name[:-3] if p.name.endswith(".gz") else p.name
    suffix = Path(name).suffix.lower()
    all_specs = specs()
    by_ext = [s.name for s in all_specs if suffix and suffix in s.extensions]
    if len(by_ext) == 1 and by_ext[0] not in ("tsv", "jsonl"):  # per-item files: their first lines first
        return by_ext[0]
    try:
        opener: Any = gzip.open if p.name.endswith(".gz") else open
        with opener(p, "rt", encoding="utf-8", errors="replace") as fh:
            head = [ln.rstrip("\n").lstrip("\ufeff") for _, ln in zip(range(50), fh)]
    except OSError as e:
        raise InputError(f"{p}: cannot read the file to detect its format ({e})") from None
    shaped = _detect.by_content(p, head)
    if shaped is not None:
        return shaped
    if len(by_ext) == 1:
        return by_ext[0]
    claims = [s.name for s in all_specs if s.detect is not None and s.detect(head)]
    if by_ext:
        claims = [c for c in claims if c in by_ext] or by_ext
    if len(claims) == 1:
        return claims[0]
    raise InputError(
        f"{p}: cannot tell the file's format from its name or first lines"
        + (f" (it could be {', '.join(claims)})" if claims else "")
        + f"; name it with format= / --format (one of {', '.join(available())})"
    )


def parse(
    fmt: str,
    gold: Any,
    systems: Any,
    *,
    names: Sequence[str] | None = None,
    only_metrics: Sequence[str] | None = None,
    **options: Any,
) -> Parsed:
    """Read gold and system files once (format ``fmt``, or ``"auto"``) into a :class:`Parsed`.

    ``systems`` is a path, a list of paths (``NAME=PATH`` strings name a
    system), or a mapping name → path. Options are checked against the
    format's schema before any file is read. ``only_metrics``: the metrics
    the caller will read; a format whose ``metric`` option chooses what it
    scores (``mt``) then scores only those (the others cost time, not bytes).
    """
    sys_names, paths = named_systems(systems, names)
    if fmt in (None, "auto"):
        fmt = detect_format(gold if gold is not None else paths[0])
    s = spec(fmt)
    options = dict(options)
    if only_metrics and "metric" not in options and s.option("metric") is not None:
        wanted = [str(m).lower() for m in only_metrics]
        if all(m in s.metrics for m in wanted):
            options["metric"] = ",".join(wanted)
    if "align" in options and s.option("align") is None:
        # every other format compares the gold tokens: "tokens" is what it does, "chars" cannot be done
        if str(options["align"]) != "tokens":
            raise InputError(
                f"format {s.name!r} compares systems on the gold tokens; align={options['align']!r} (character "
                "alignment) is for CoNLL-U raw-text systems"
            )
        del options["align"]
    opts = s.validate(options)
    if s.needs_gold and gold is None and not s.gold_optional:
        raise InputError(f"format {s.name!r} needs a gold file")
    if not s.needs_gold and gold is not None:
        raise InputError(f"format {s.name!r} reads per-item values and takes no gold file")
    if gold is None and s.gold_from_first and len(paths) > 1:
        # every file holds the gold (conlleval): the others' gold columns must be the first one's
        reports = tuple(s.score(paths[0] if k else None, p, **opts) for k, p in enumerate(paths))
    else:
        reports = tuple(s.score(gold, p, **opts) for p in paths)
    if s.name_systems is not None:  # names from the files (the model an LLM log names)
        sys_names = list(s.name_systems(reports, sys_names, _explicit_names(systems, names)))
    return Parsed(
        spec=s,
        options=opts,
        gold=None if gold is None else str(gold),
        names=tuple(sys_names),
        reports=reports,
        gold_input=gold,
    )
