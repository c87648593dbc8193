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

__all__ = ["ItemStats", "ScoreReport", "available", "get_scorer"]

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
