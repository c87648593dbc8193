"""What the subcommands of the ``sigfast`` command line share when they run.

The flags themselves are defined once, in :data:`sigfast.cli.FLAGS`; this
module turns parsed arguments into values (format options, gold and system
files, the detected format, the bootstrap or McNemar variant, the gain
threshold's band), checks output paths before any work starts, and prints a
result in the chosen style (:func:`emit`). It imports nothing heavy: each
subcommand's handler imports what it uses when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .exceptions import InputError, UsageError

__all__ = [
    "BOOTSTRAP_VARIANTS",
    "MCNEMAR_VARIANTS",
    "InputError",
    "Rows",
    "UsageError",
    "bootstrap_variant",
    "detect_gold_format",
    "did_you_mean",
    "emit",
    "format_options",
    "mcnemar_variant",
    "one_line_warnings",
    "parse_inputs",
    "path_of",
    "precheck",
    "split_systems",
    "threshold_band",
]

BOOTSTRAP_VARIANTS = ("bk", "koehn", "shifted", "sacrebleu", "moses")
MCNEMAR_VARIANTS = ("mid-p", "exact", "asymptotic", "asymptotic-nocc")


def did_you_mean(name: str, choices: Any) -> str:
    """``" (did you mean 'bleu'?)"`` for the closest of ``choices`` to a mistyped ``name`` (or ``""``)."""
    import difflib

    close = difflib.get_close_matches(str(name).lower(), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def bootstrap_variant(variant: str | None) -> str:
    """The bootstrap variant of ``--variant`` (default ``bk``); a McNemar variant is an error."""
    if variant is None:
        return "bk"
    if variant not in BOOTSTRAP_VARIANTS:
        raise UsageError(
            f"--variant {variant} is a McNemar variant; the bootstrap's are {', '.join(BOOTSTRAP_VARIANTS)}"
        )
    return variant


def mcnemar_variant(variant: str | None) -> str:
    """The McNemar variant of ``--variant`` (default ``mid-p``); a bootstrap variant is an error."""
    if variant is None:
        return "mid-p"
    if variant not in MCNEMAR_VARIANTS:
        raise UsageError(f"--variant {variant} is a bootstrap variant; McNemar's are {', '.join(MCNEMAR_VARIANTS)}")
    return variant


def threshold_band(args: argparse.Namespace) -> tuple[float, float]:
    """``--band LOW HIGH`` as a (low, high) pair, checked before any computation."""
    lo, hi = (float(x) for x in args.band)
    if lo > hi:
        raise UsageError(f"--band LOW HIGH needs LOW <= HIGH, got {lo:g} {hi:g}")
    return lo, hi


class Rows:
    """Tidy rows a command builds itself, for :func:`emit` (CSV)."""

    def __init__(self, rows: Callable[[], Any]) -> None:
        self._rows = rows

    def rows(self) -> list[dict[str, Any]]:
        return list(self._rows())


def path_of(item: str) -> str:
    """The path of a system argument (``NAME=PATH`` or ``PATH``)."""
    return item.partition("=")[2] if "=" in item and not os.path.exists(item) else item


def preload_format(name: str | None) -> None:
    """Import the one module that declares format ``name``, so that looking the name up does not import
    every format module (start-up time); an unknown name is left to the registry's own error."""
    if not name or name == "auto":
        return
    from ._info import format_module

    module = format_module(name)
    if module is None:
        return
    from . import formats

    short = module.rpartition(".")[2]
    if name.strip().lower() not in formats._LOADED and short in formats._module_names():
        formats._load(short)


def detect_gold_format(args: argparse.Namespace) -> None:
    """Without ``--format`` or ``--ref``, detect the first file's format as ``sigfast score`` does: a scorer's
    format (gold, then systems) or an LLM harness's log sets ``args.format``; a file of per-item records with
    ``id`` and ``score`` fields is read as ``-f records`` (by id), with a note on standard error; per-item files
    (or files no format claims) stay per-item files, read by their extension. An input that is recognized but
    needs ``-f`` with options (records named otherwise, a results file, a folder with no runs) is an error
    naming them."""
    if getattr(args, "format", None) or getattr(args, "ref", None) or not getattr(args, "files", None):
        return
    from .formats import detect_format, spec
    from .formats._detect import FormatHint

    first = path_of(args.files[0])
    try:
        fmt = detect_format(first)
    except FormatHint:
        raise
    except InputError:  # no format claims it: per-item scores or statistics
        return
    s = spec(fmt)
    if s.needs_gold:
        args.format = s.name
    if s.name == "records":
        print(
            f"sigfast: note: {first} holds per-item records with the fields id and score: read as -f records "
            "(items matched by id, not by line)",
            file=sys.stderr,
        )


# --------------------------------------------------------------------------------------------
# arguments → values


def format_options(args: argparse.Namespace) -> dict[str, str]:
    """``-o KEY=VALUE`` pairs (values stay strings: the format's schema converts them)."""
    out: dict[str, str] = {}
    for it in getattr(args, "option", None) or ():
        key, eq, value = it.partition("=")
        if not eq or not key:
            raise UsageError(f"-o/--option takes KEY=VALUE, got {it!r}")
        key = key.strip().replace("-", "_")
        if key in out:
            raise UsageError(f"option {key} given twice")
        out[key] = value
    if getattr(args, "align", None) is not None:
        out["align"] = args.align
    # the LLM-log flags are their formats' options
    flags = {
        "task": getattr(args, "task", None),
        "intersect": "true" if getattr(args, "intersect", False) else None,
        "cluster": getattr(args, "cluster", None),
    }
    for key, value in flags.items():
        if value is not None:
            if key in out:
                raise UsageError(f"--{key} and -o {key}={out[key]} both given; give one")
            out[key] = value
    return out


def split_systems(args: argparse.Namespace, files: Sequence[str], *, min_systems: int) -> tuple[Any, list[str]]:
    """(gold, system files) of a subcommand: ``--ref`` files are gold, else with ``--format`` the first FILE is."""
    refs = getattr(args, "ref", None)
    files = list(files)
    fmt = getattr(args, "format", None)
    preload_format(fmt)
    if fmt and not refs:
        from .formats import spec

        s = spec(fmt)
        if not s.needs_gold or s.gold_optional:  # per-item values, or gold inside: every file is a system
            fmt = None
    if refs:
        gold: Any = refs if len(refs) > 1 else refs[0]
        systems = files
    elif fmt:
        if not files:
            raise UsageError("give GOLD and SYSTEM files (or --ref GOLD)")
        gold, systems = files[0], _runs(fmt, files[1:])
    else:
        gold, systems = None, _runs(getattr(args, "format", None), files)
    if len(systems) < min_systems:
        what = "GOLD and " if gold is not None else ""
        raise UsageError(f"give {what}at least {min_systems} SYSTEM file{'s' if min_systems > 1 else ''}")
    return gold, systems


def item_format(files: Sequence[str]) -> str:
    """The per-item format of files given without ``--format``: jsonl or npy by extension, else tsv."""
    kinds = set()
    for f in files:
        name = f.partition("=")[2] if "=" in f and not os.path.exists(f) else f
        ext = os.path.splitext(name[:-3] if name.endswith(".gz") else name)[1].lower()
        kinds.add({".jsonl": "jsonl", ".json": "jsonl", ".npy": "npy"}.get(ext, "tsv"))
    if len(kinds) > 1:
        raise InputError(f"the per-item files mix layouts ({', '.join(sorted(kinds))}); give one layout")
    return kinds.pop()


def positional_format_hint(args: argparse.Namespace) -> None:
    """The old ``sigfast score evalb GOLD SYSTEM`` (a format's name where a file goes): say to use -f."""
    files = list(getattr(args, "files", None) or ())
    if getattr(args, "format", None) or getattr(args, "ref", None) or not files or os.path.exists(files[0]):
        return
    from .formats import spec

    try:
        name = spec(files[0]).name
    except InputError:  # not a format name either: the usual file error follows
        return
    rest = " ".join(files[1:]) or "GOLD SYSTEM"
    raise UsageError(
        f"{files[0]!r} is a format name, not a file: name the format with -f, as in "
        f"`sigfast {getattr(args, 'command', 'score')} -f {name} {rest}`"
    )


def parse_inputs(args: argparse.Namespace, files: Sequence[str] | None = None, *, min_systems: int) -> Any:
    """The one parse of a subcommand's files (a :class:`~sigfast.formats.Parsed`): with ``--format`` or
    ``--ref`` the files are gold and system outputs; without, per-item files (tsv, jsonl or npy by extension)."""
    from .formats import parse

    if files is None:
        positional_format_hint(args)
    gold, systems = split_systems(args, args.files if files is None else files, min_systems=min_systems)
    opts = format_options(args)
    if gold is None:
        fmt = getattr(args, "format", None) or item_format(systems)
    else:
        fmt = getattr(args, "format", None) or "auto"
    if getattr(args, "strict", False):
        from .formats import detect_format, spec, specs

        if fmt == "auto":
            fmt = detect_format(gold if not isinstance(gold, list) else gold[0])
        if spec(fmt).option("strict") is None:
            have = ", ".join(s.name for s in specs() if s.option("strict") is not None)
            raise UsageError(
                f"format {spec(fmt).name!r} has no strict mode (it already refuses the input its reference scorer "
                f"only warns about); --strict is for {have}"
            )
        if "strict" in opts:
            raise UsageError(f"--strict and -o strict={opts['strict']} both given; give one")
        opts["strict"] = "true"
    parsed = parse(fmt, gold, systems, **opts)
    if not parsed.spec.needs_gold:  # per-item files: the line each took as a header, if any
        for r in parsed.reports:
            for note in r.warnings:
                print(f"sigfast: note: {r.system}: {note}", file=sys.stderr)
    return parsed


def _runs(fmt: str | None, systems: list[str]) -> list[str]:
    """A folder that holds several systems' runs is those runs, where the format declares its folder layout
    (``FormatSpec.runs``, :func:`sigfast.formats.runs_in`: the LLM logs); a ``NAME=PATH``, a file or a folder
    that is one run stays as it is."""
    if not fmt or fmt == "auto":
        return systems
    from .formats import runs_in, spec

    if spec(fmt).runs is None:  # its systems are given file by file
        return systems
    out: list[str] = []
    for s in systems:  # only folders: a file (or a missing path) is left to the format's own reader
        out += runs_in(s, fmt) if os.path.isdir(s) else [s]
    return out


def style(args: argparse.Namespace) -> str:
    """The output style its ``--NAME`` flag asks for (:mod:`sigfast.styles`), or text."""
    from .styles import styles

    for s in styles(plugins=False):  # the parser has a flag for each style registered when it was built
        if s.flag and getattr(args, s.name, False):
            return s.name
    return "text"


def precheck(args: argparse.Namespace, *, plots: Sequence[str] = ()) -> None:
    """Check output paths and optional extras before any computation starts (and import the named format's
    module alone, :func:`preload_format`)."""
    fmt = getattr(args, "format", None)
    if isinstance(fmt, str):
        preload_format(fmt)

    out = getattr(args, "output", None)
    paths = [out] if out else []
    if out:
        ext = os.path.splitext(out)[1].lower()
        from .styles import by_extension, styles

        if by_extension(ext) is None:
            known = [s.extensions[0] for s in styles() if s.extensions]
            known = [*known[1:], known[0]] if known and known[0] == ".txt" else known  # .txt, the default, last
            raise UsageError(
                f"--output {out}: unknown extension {ext or '(none)'}; use {', '.join(known[:-1])} or {known[-1]}"
            )
    wanted_plots = [getattr(args, p, None) for p in plots]
    wanted_plots = [p for p in wanted_plots if p]
    for p in wanted_plots:
        ext = os.path.splitext(p)[1].lower()
        if ext not in (".png", ".pdf", ".svg"):
            raise UsageError(f"plot {p}: use a .png, .pdf or .svg file name")
    for p in [*paths, *wanted_plots]:
        folder = os.path.dirname(os.path.abspath(p))
        if not os.path.isdir(folder):
            raise InputError(f"{p}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise InputError(f"{p}: the folder {folder} is not writable")
    if wanted_plots:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError("plots need matplotlib: pip install 'sigfast[plot]'") from None


def emit(
    args: argparse.Namespace,
    *,
    text: str | None = None,
    tables: Callable[[], Sequence[Any]] | None = None,
    data: Callable[[], Any] | None = None,
    render: Callable[[str], str] | None = None,
    results: Sequence[Any] | None = None,
) -> None:
    """Print the result in the chosen style and write ``--output`` in its extension's style.

    ``results`` (result objects, :class:`sigfast.results.Result`) give the data outputs: CSV is
    their tidy ``rows()`` (one table, numbers at full precision, no comment lines) and JSON a
    list of their ``to_dict()`` records, so ``pandas.read_csv`` and ``pandas.read_json`` load
    either as it is. ``render(style)`` renders the result in any other style, or: ``text`` is
    the text report and ``tables()`` the tables for markdown and LaTeX; ``data()`` replaces the
    JSON records (a dict is written as a one-record list).
    """
    import json

    def default(s: str, write: Callable[[str], Any]) -> None:
        # CSV and JSON are written piece by piece: the rows of two million pairs are never one string
        if s == "csv" and results is not None:
            from .results import flat_row, iter_rows_of, write_rows_csv

            write_rows_csv(write, lambda: (flat_row(r) for res in results for r in iter_rows_of(res)))
            return
        if s == "json":
            if data is not None:
                payload = data()
            elif render is not None:
                payload = json.loads(render("json"))
            else:
                assert results is not None
                payload = [r.to_dict() for r in results]
            if isinstance(payload, dict):
                payload = [payload]
            chunks: list[str] = []
            for chunk in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(payload):
                chunks.append(chunk)
                if len(chunks) >= 8192:
                    write("".join(chunks))
                    chunks.clear()
            write("".join(chunks) + "\n")
            return
        write(text_of(s))

    def text_of(s: str) -> str:
        if render is not None:
            return render(s)
        if s == "text":
            if text is None and results is not None:
                return "".join(r.format("text") for r in results)
            assert text is not None
            return text if text.endswith("\n") else text + "\n"
        from .styles import get

        found = get(s)
        if results is not None and (tables is None or found.table is None):
            if not all(hasattr(r, "format") for r in results):  # a command's own tidy rows (Rows)
                raise UsageError(f"--{s}: the output style {s!r} renders results, and this command prints tables")
            if found.document is None:
                return "".join(r.format(s) for r in results)
            return found.wrap("".join(found.body(r) for r in results))  # one document around them all
        assert tables is not None
        from .report import render_tables

        return found.wrap(render_tables(tables(), s))

    out = getattr(args, "output", None)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            from .styles import by_extension

            found = by_extension(os.path.splitext(out)[1])
            assert found is not None  # precheck refused any other extension
            default(found.name, fh.write)
    default(style(args), sys.stdout.write)
    if out:
        print(f"sigfast: wrote {out}", file=sys.stderr)


def one_line(text: object) -> str:
    """A message as one terminal line: its own line breaks and runs of white space become one space, and
    any other character that is not printable (a U+2028 line separator, a carriage return or a control
    character copied from the input) is shown escaped (``\\u2028``), so an error or warning is always one
    line whatever the input held."""
    words = " ".join(str(text).split())  # str.split() also breaks at U+2028, U+2029, U+0085, \r, \v, \f
    if words.isprintable():
        return words
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in words)


@contextlib.contextmanager
def one_line_warnings() -> Iterator[None]:
    """Warnings (a reference scorer's warnings that sigfast repeats, e.g. ``DependencyWarning``)
    printed on standard error as one line each: ``sigfast: warning: ...``."""
    import warnings

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        print(f"sigfast: warning: {one_line(message)}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield
