"""The formats' registry: each format module's ``SPECS`` (imported on first use) and the formats of other
distributions (entry points), looked up by name or alias."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

from ..exceptions import InputError
from ._base import FormatSpec

_PACKAGE = __name__.rpartition(".")[0]
_LOADED: dict[str, FormatSpec] = {}


_SCANNED = False


def _module_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if not m.name.startswith("_"))


#: The entry-point group through which another distribution adds formats (see :func:`_load_entry_points`).
ENTRY_POINT_GROUP = "sigfast.formats"


def _register(specs_: Any, origin: str) -> None:
    for s in specs_:
        if not isinstance(s, FormatSpec):
            raise InputError(f"{origin}: expected FormatSpec declarations, got {type(s).__name__}")
        for key in (s.name, *s.aliases):
            key = key.lower()
            other = _LOADED.get(key)
            if other is not None and other is not s:
                raise InputError(f"format name {key!r} is declared twice ({other.name}, {s.name}; {origin})")
            _LOADED[key] = s


def _load(module: str) -> None:
    mod = importlib.import_module(f"{_PACKAGE}.{module}")
    _register(getattr(mod, "SPECS", ()), f"sigfast.formats.{module}")


def _load_entry_points() -> None:
    """Formats of other distributions: each entry point of the group ``sigfast.formats`` names a module
    with a ``SPECS`` tuple (as the modules of this package have), a :class:`FormatSpec`, or a tuple of them.

    In a ``pyproject.toml``: ``[project.entry-points."sigfast.formats"] myformat = "mypackage.myformat"``.
    """
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        origin = f"entry point {ep.name!r} ({ep.value})"
        try:
            obj = ep.load()
        except Exception as e:  # a broken plug-in: one clear error, not a traceback
            raise InputError(
                f"{origin} of group {ENTRY_POINT_GROUP!r} cannot be loaded: {type(e).__name__}: {e}"
            ) from None
        if isinstance(obj, FormatSpec):
            found: Any = (obj,)
        elif isinstance(obj, (tuple, list)):
            found = obj
        else:
            found = getattr(obj, "SPECS", None)
            if found is None:
                raise InputError(f"{origin}: a format module needs a SPECS tuple of FormatSpec")
        _register(found, origin)


def _scan() -> None:
    global _SCANNED
    if not _SCANNED:
        for m in _module_names():
            _load(m)
        _load_entry_points()
        _SCANNED = True


def specs() -> list[FormatSpec]:
    """Every format's declaration, sorted by name."""
    _scan()
    seen: dict[str, FormatSpec] = {}
    for s in _LOADED.values():
        seen[s.name] = s
    return [seen[k] for k in sorted(seen)]


def available() -> list[str]:
    """Canonical names of the formats sigfast reads."""
    return [s.name for s in specs()]


def spec(fmt: str) -> FormatSpec:
    """The declaration of format ``fmt`` (a canonical name or an alias)."""
    if not isinstance(fmt, str):
        raise InputError(f"a format name must be a string, got {fmt!r}")
    key = fmt.strip().lower()
    if key not in _LOADED and key in _module_names():
        _load(key)
    if key not in _LOADED:
        _scan()
    if key not in _LOADED:
        import difflib

        close = difflib.get_close_matches(key, sorted(_LOADED), n=1, cutoff=0.6)
        hint = f" (did you mean {_LOADED[close[0]].name!r}?)" if close else ""
        raise InputError(f"unknown format {fmt!r}{hint}; available: {', '.join(available())}")
    return _LOADED[key]


def option_names() -> set[str]:
    """Every format option's name and alias: what a reader's ``**options`` takes (each format checks its own)."""
    out: set[str] = set()
    for s in specs():
        for o in s.options:
            out.add(o.name)
            out.update(o.aliases)
    return out
