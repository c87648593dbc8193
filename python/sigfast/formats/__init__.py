"""Readers that score system outputs against gold exactly as reference scorers do.

Each module registers its formats in a module-level ``FORMATS`` mapping of
name -> ``score(gold, system, **options) -> ScoreReport``. Modules are
imported only when a format is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ._base import ItemStats, ScoreReport

__all__ = ["ItemStats", "ScoreReport", "available", "detect_format", "get_scorer"]

_MODULES = (
    "dependency",
    "conllu",
    "conll09",
    "chunk",
    "pos",
    "trees",
    "alignment",
    "mt",
    "summarization",
    "generic",
)


def _registry() -> dict[str, Callable[..., ScoreReport]]:
    out: dict[str, Callable[..., ScoreReport]] = {}
    for name in _MODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{name}":
                continue
            raise
        out.update(getattr(mod, "FORMATS", {}))
    return out


def available() -> list[str]:
    """Names of the file formats sigfast can score."""
    return sorted(_registry())


def get_scorer(fmt: str) -> Callable[..., ScoreReport]:
    from ..exceptions import InputError

    reg = _registry()
    try:
        return reg[fmt]
    except KeyError:
        raise InputError(f"unknown format {fmt!r}; available: {', '.join(sorted(reg))}") from None


def score(fmt: str, gold: Any, system: Any, **options: Any) -> ScoreReport:
    """Score one system file against gold in format ``fmt``."""
    return get_scorer(fmt)(gold, system, **options)


_EXTENSIONS = {
    ".conllu": "conllu",
    ".mrg": "evalb",
    ".ptb": "evalb",
    ".tree": "evalb",
    ".trees": "evalb",
    ".talp": "alignment",
    ".naacl": "alignment",
    ".wa": "alignment",
    ".tsv": "tsv",
    ".jsonl": "jsonl",
    ".npy": "npy",
}


def detect_format(path: Any) -> str:
    """The format of a file, from its extension or, failing that, its first lines.

    Raises InputError when the file does not say unambiguously; name the
    format then (``format=...``, ``--format``).
    """
    import gzip
    from pathlib import Path

    from ..exceptions import InputError

    p = Path(str(path))
    name = p.name[:-3] if p.name.endswith(".gz") else p.name
    suffix = Path(name).suffix.lower()
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    try:
        opener = gzip.open if p.name.endswith(".gz") else open
        with opener(p, "rt", encoding="utf-8", errors="replace") as fh:
            head = [ln.rstrip("\n") for _, ln in zip(range(50), fh)]
    except OSError as e:
        raise InputError(f"{p}: cannot read the file to detect its format ({e})") from None
    lines = [ln for ln in head if ln.strip()]
    if lines and all(ln.lstrip().startswith("(") for ln in lines[:5]):
        return "evalb"
    if any(ln.startswith("# sent_id") or ln.startswith("# text") for ln in head):
        return "conllu"
    cols = [ln.split("\t") for ln in lines if not ln.startswith("#")]
    if cols and all(len(c) == 10 for c in cols) and all(c[0].split("-")[0].split(".")[0].isdigit() for c in cols):
        return "conllu"
    raise InputError(
        f"{p}: cannot tell the file's format from its name or first lines; "
        f"name it with format= (one of {', '.join(available())})"
    )
