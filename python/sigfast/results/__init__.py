"""Results and their outputs: the result base (:mod:`sigfast.results.base`), the signature
builder, the output styles, the reports and the result classes of each test.

``from sigfast.results import Result`` (and every name of :mod:`sigfast.results.base`) keeps working; the
names load on first use, so the command line's start-up does not import the base (numpy)."""

from __future__ import annotations


def __getattr__(name: str) -> object:
    if name.startswith("__") or name == "base":
        raise AttributeError(name)
    import importlib

    base = importlib.import_module(f"{__name__}.base")
    try:
        return getattr(base, name)
    except AttributeError:
        raise AttributeError(f"module 'sigfast.results' has no attribute {name!r}") from None
