"""One vocabulary for every subcommand of the ``sigfast`` command line.

Every subcommand builds its flags from these helpers, so the same flag has
the same name, type, default and meaning everywhere:

* ``-n/--resamples N`` — a positive integer (0, negatives and values above
  the engine's bound are usage errors);
* ``--seed S`` — default 12345 everywhere, 0 ≤ S < 2^64;
* ``--format/-f F`` — one canonical name per format (aliases listed once,
  by ``sigfast info``); ``-o/--option KEY=VALUE`` — the format's options,
  checked against its schema;
* ``-m/--metric M`` — repeatable where several metrics make one table;
* ``--ref FILE`` — repeatable references (gold) for formats that take
  several (``mt``, ``rouge``);
* systems as ``PATH`` or ``NAME=PATH``; by default a system is named after
  its file (:func:`sigfast.formats.system_names`);
* ``--align chars|tokens`` wherever units are compared;
* ``--strict`` (``score``, ``compare``, ``pairwise``): ``-o strict=true`` for
  every format that has a strict mode, i.e. refuse the input a reference
  scorer only warns about instead of scoring it as the scorer does; formats
  without one already refuse all such input;
* ``--output FILE`` (its extension picks JSON, CSV, markdown, LaTeX or
  text) or ``--json/--csv/--markdown/--latex`` to standard output;
* ``--threads``, ``--progress/--no-progress``, ``--confidence``,
  ``--alpha``, ``--correction``.

Output paths and optional extras (matplotlib for plots) are checked before
any computation starts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .exceptions import InputError

__all__ = [
    "DEFAULT_SEED",
    "MAX_RESAMPLES",
    "add_align",
    "add_alpha",
    "add_confidence",
    "add_correction",
    "add_format",
    "add_metric",
    "add_output",
    "add_progress",
    "add_refs",
    "add_resamples",
    "add_seed",
    "add_strict",
    "add_threads",
    "emit",
    "format_options",
    "one_line_warnings",
    "precheck",
    "split_systems",
]

DEFAULT_SEED = 12345
#: The largest resample count any subcommand accepts (the engine's counters and streams allow it).
MAX_RESAMPLES = 1 << 40
CORRECTIONS = ("holm", "bonferroni", "hochberg", "bh", "by", "none")


def _positive_int(what: str, limit: int | None = None) -> Callable[[str], int]:
    def parse(s: str) -> int:
        try:
            v = int(s.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {s!r}") from None
        if v < 1:
            raise argparse.ArgumentTypeError(f"{what} must be at least 1, got {v}")
        if limit is not None and v > limit:
            raise argparse.ArgumentTypeError(f"{what} must be at most {limit:,}, got {v:,}")
        return v

    parse.__name__ = "positive int"
    return parse


def _seed(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, got {s!r}") from None
    if not 0 <= v < 1 << 64:
        raise argparse.ArgumentTypeError(f"the seed must be in [0, 2^64), got {v}")
    return v


def _level(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {s!r}") from None
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {v}")
    return v


# --------------------------------------------------------------------------------------------
# flags


def add_resamples(p: argparse.ArgumentParser, default: int, what: str = "resamples") -> None:
    p.add_argument(
        "-n",
        "--resamples",
        type=_positive_int("--resamples", MAX_RESAMPLES),
        default=default,
        metavar="N",
        help=f"{what} (default {default:,}; at most 2^40)",
    )


def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")


def add_threads(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--threads", type=_positive_int("--threads", 1024), default=None, help="threads (default: all cores)"
    )


def add_progress(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (default: on a terminal for long runs)",
    )


def add_confidence(p: argparse.ArgumentParser) -> None:
    p.add_argument("--confidence", type=_level, default=0.95, help="confidence level of intervals (default 0.95)")


def add_alpha(p: argparse.ArgumentParser) -> None:
    p.add_argument("--alpha", type=_level, default=0.05, help="significance level (default 0.05)")


def add_correction(p: argparse.ArgumentParser, default: str = "holm") -> None:
    p.add_argument(
        "--correction",
        default=default,
        choices=CORRECTIONS,
        help=f"multiple-testing correction (default {default})",
    )


def add_format(p: argparse.ArgumentParser, *, required: bool = False) -> None:
    p.add_argument(
        "--format",
        "-f",
        required=required,
        metavar="FORMAT",
        help="file format (`sigfast info` lists formats, aliases and options)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="a format option (repeatable; `sigfast info` lists them)",
    )


def add_metric(p: argparse.ArgumentParser, *, repeatable: bool = True) -> None:
    if repeatable:
        p.add_argument(
            "--metric",
            "-m",
            action="append",
            default=None,
            metavar="METRIC",
            help="metric (repeatable: several metrics in one table; default: the format's headline metric)",
        )
    else:
        p.add_argument("--metric", "-m", default=None, metavar="METRIC", help="metric (default: the headline metric)")


def add_refs(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ref",
        action="append",
        default=None,
        metavar="FILE",
        help="reference (gold) file, repeatable (mt, rouge: several references); then every FILE is a system",
    )


def add_align(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--align",
        choices=("chars", "tokens"),
        default=None,
        help="units: chars aligns words on characters as conll18_ud_eval.py does (CoNLL-U raw-text systems; "
        "the CoNLL-U default); tokens requires the gold words (every other format)",
    )


def add_strict(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--strict",
        action="store_true",
        help="refuse input that the reference scorer scores with a warning (-o strict=true for the formats that "
        "have it: conllx, conll07, conll08, conll09, alignment)",
    )


def add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--output",
        metavar="FILE",
        default=None,
        help="also write the result to FILE; its extension picks .json, .csv, .md, .tex or .txt",
    )
    g = p.add_mutually_exclusive_group()
    for style in ("json", "csv", "markdown", "latex"):
        g.add_argument(f"--{style}", action="store_true", help=f"print {style} instead of the text table")


# --------------------------------------------------------------------------------------------
# arguments → values


def format_options(args: argparse.Namespace) -> dict[str, str]:
    """``-o KEY=VALUE`` pairs (values stay strings: the format's schema converts them)."""
    out: dict[str, str] = {}
    for it in getattr(args, "option", None) or ():
        key, eq, value = it.partition("=")
        if not eq or not key:
            raise InputError(f"-o/--option takes KEY=VALUE, got {it!r}")
        key = key.strip().replace("-", "_")
        if key in out:
            raise InputError(f"option {key} given twice")
        out[key] = value
    if getattr(args, "align", None) is not None:
        out["align"] = args.align
    # the LLM-log flags are their formats' options
    flags = {"task": getattr(args, "task", None), "intersect": "true" if getattr(args, "intersect", False) else None}
    for key, value in flags.items():
        if value is not None:
            if key in out:
                raise InputError(f"--{key} and -o {key}={out[key]} both given; give one")
            out[key] = value
    return out


def split_systems(args: argparse.Namespace, files: Sequence[str], *, min_systems: int) -> tuple[Any, list[str]]:
    """(gold, system files) of a subcommand: ``--ref`` files are gold, else with ``--format`` the first FILE is."""
    refs = getattr(args, "ref", None)
    files = list(files)
    fmt = getattr(args, "format", None)
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
            raise InputError("give GOLD and SYSTEM files (or --ref GOLD)")
        gold, systems = files[0], files[1:]
    else:
        gold, systems = None, files
    if len(systems) < min_systems:
        what = "GOLD and " if gold is not None else ""
        raise InputError(f"give {what}at least {min_systems} SYSTEM file{'s' if min_systems > 1 else ''}")
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


def parse_inputs(args: argparse.Namespace, files: Sequence[str] | None = None, *, min_systems: int) -> Any:
    """The one parse of a subcommand's files (a :class:`~sigfast.formats.Parsed`): with ``--format`` or
    ``--ref`` the files are gold and system outputs; without, per-item files (tsv, jsonl or npy by extension)."""
    from .formats import parse

    gold, systems = split_systems(args, args.files if files is None else files, min_systems=min_systems)
    opts = format_options(args)
    if gold is None:
        fmt = getattr(args, "format", None) or item_format(systems)
        return parse(fmt, None, systems, **opts)
    fmt = getattr(args, "format", None) or "auto"
    if getattr(args, "strict", False):
        from .formats import detect_format, spec

        if fmt == "auto":
            fmt = detect_format(gold if not isinstance(gold, list) else gold[0])
        if spec(fmt).option("strict") is not None:
            if "strict" in opts:
                raise InputError(f"--strict and -o strict={opts['strict']} both given; give one")
            opts["strict"] = "true"
    return parse(fmt, gold, systems, **opts)


def style(args: argparse.Namespace) -> str:
    for s in ("json", "csv", "markdown", "latex"):
        if getattr(args, s, False):
            return s
    return "text"


def precheck(args: argparse.Namespace, *, plots: Sequence[str] = ()) -> None:
    """Check output paths and optional extras before any computation starts."""
    from .report import EXTENSIONS

    out = getattr(args, "output", None)
    paths = [out] if out else []
    if out:
        ext = os.path.splitext(out)[1].lower()
        if ext not in EXTENSIONS:
            raise InputError(f"--output {out}: unknown extension {ext or '(none)'}; use .json, .csv, .md, .tex or .txt")
    wanted_plots = [getattr(args, p, None) for p in plots]
    wanted_plots = [p for p in wanted_plots if p]
    for p in wanted_plots:
        ext = os.path.splitext(p)[1].lower()
        if ext not in (".png", ".pdf", ".svg"):
            raise InputError(f"plot {p}: use a .png, .pdf or .svg file name")
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

    from .report import EXTENSIONS, render_tables
    from .results import flat_row, rows_csv

    def default(s: str) -> str:
        if s == "csv" and results is not None:
            return rows_csv(flat_row(r) for res in results for r in (getattr(res, "to_rows", None) or res.rows)())
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
            return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
        if render is not None:
            return render(s)
        if s == "text":
            if text is None and results is not None:
                return "".join(r.format("text") for r in results)
            assert text is not None
            return text if text.endswith("\n") else text + "\n"
        if tables is None and results is not None:
            return "".join(r.format(s) for r in results)
        assert tables is not None
        return render_tables(tables(), s)

    out = getattr(args, "output", None)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(default(EXTENSIONS[os.path.splitext(out)[1].lower()]))
    sys.stdout.write(default(style(args)))
    if out:
        print(f"sigfast: wrote {out}", file=sys.stderr)


@contextlib.contextmanager
def one_line_warnings() -> Iterator[None]:
    """Warnings (a reference scorer's warnings that sigfast repeats, e.g. ``DependencyWarning``)
    printed on standard error as one line each: ``sigfast: warning: ...``."""
    import warnings

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        print(f"sigfast: warning: {' '.join(str(message).split())}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield
