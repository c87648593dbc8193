"""One registry of output styles: what ``result.format(style)``, every command's ``--STYLE`` flag and
``--output FILE.EXT`` read.

A style is one :class:`Style` declaration (its name, file extensions, and how it renders) passed to
:func:`register`; the six built-in styles are the list at the end of this module. Adding a style is
one file that declares and registers it: the CLI then takes ``--NAME`` on every command that writes a
result, ``--output FILE.EXT`` picks it by its extension, and ``result.format("NAME")`` renders it.

A style renders a result in one of two ways:

- ``render(result)``: the whole result as text (CSV and JSON: the result's ``rows()`` and
  ``to_dict()``).
- Otherwise the result's report in this style (``result._report(name)``), which by default is its
  ``tables()`` each rendered by ``table`` (one :class:`sigfast.report.Table` as text); the error
  analyses' reports (:mod:`sigfast.analysis.report`) also use ``heading`` (a title line) and ``note``
  (a note line), and a signature is written through ``comment`` where the style has one.

Styles of other distributions come from the entry point group ``sigfast.styles``
(:data:`ENTRY_POINT_GROUP`): each entry point names a :class:`Style`, a tuple of them, or a module
with a ``STYLES`` tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ENTRY_POINT_GROUP",
    "Style",
    "by_extension",
    "extensions",
    "get",
    "load_plugins",
    "names",
    "register",
    "styles",
    "unregister",
]

ENTRY_POINT_GROUP = "sigfast.styles"


def _error(message: str) -> Exception:
    from .exceptions import InputError  # imported on error alone: `sigfast --help` imports the registry

    return InputError(message)


def _same(s: str) -> str:
    return s


@dataclass(frozen=True)
class Style:
    """One output style."""

    #: the style's name: ``result.format(name)`` and the CLI flag ``--name``
    name: str
    #: the file extensions (with the dot, lower case) that ``--output`` maps to this style
    extensions: tuple[str, ...]
    #: the CLI flag's help (default: "print NAME instead of the text table")
    help: str = ""
    #: a data style (CSV, JSON): tidy rows or records for programs rather than a report for people
    data: bool = False
    #: the whole result as text; ``None``: the result's report in this style (``result._report(name)``)
    render: Callable[[Any], str] | None = None
    #: one :class:`sigfast.report.Table` as text (the tables of a report)
    table: Callable[[Any], str] | None = None
    #: a title line inside a report (the error analyses' section titles)
    heading: Callable[[str], str] = _same
    #: a note line inside a report
    note: Callable[[str], str] = _same
    #: a comment line (a signature under a report), or ``None``: the line as it is
    comment: Callable[[str], str] | None = None
    #: whether ``--NAME`` is a CLI flag (the text style is the default, so it has none)
    flag: bool = True
    #: wraps a whole output (one result, or the tables and results of one command) in a document, as
    #: ``html`` puts a page around its tables; ``None``: the output as it is
    document: Callable[[str], str] | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name.replace("-", "").isalnum() and self.name.islower()):
            raise _error(f"an output style's name is lower-case letters, digits and '-', not {self.name!r}")
        bad = [e for e in self.extensions if not (isinstance(e, str) and e.startswith(".") and e == e.lower())]
        if bad or isinstance(self.extensions, str):
            raise _error(f"output style {self.name!r}: extensions are a tuple like ('.md',), not {self.extensions!r}")
        if self.render is None and self.table is None:
            raise _error(f"output style {self.name!r} needs a table renderer (table=) or a result renderer (render=)")

    def format(self, result: Any) -> str:
        """The result (its output options already applied) in this style."""
        return self.wrap(self.body(result))

    def body(self, result: Any) -> str:
        """The result in this style without the document around it (:attr:`document`)."""
        if self.render is not None:
            return self.render(result)
        return result._report(self.name)

    def wrap(self, text: str) -> str:
        """``text`` (the bodies of one output) in the style's document, if it has one."""
        return text if self.document is None else self.document(text)

    def render_table(self, table: Any) -> str:
        if self.table is None:
            raise _error(f"the output style {self.name!r} renders whole results, not tables")
        return self.table(table)


_STYLES: dict[str, Style] = {}
_LOADED_ENTRY_POINTS = False


def register(*new: Style) -> None:
    """Add styles to the registry (a name or an extension declared twice is an error)."""
    for s in new:
        if not isinstance(s, Style):
            raise _error(f"expected a sigfast.styles.Style, got {type(s).__name__}")
        other = _STYLES.get(s.name)
        if other is not None and other != s:
            raise _error(f"output style {s.name!r} is declared twice")
        for ext in s.extensions:
            owner = next((o.name for o in _STYLES.values() if ext in o.extensions and o.name != s.name), None)
            if owner is not None:
                raise _error(f"the extension {ext} of output style {s.name!r} already picks {owner!r}")
        _STYLES[s.name] = s


def unregister(name: str) -> None:
    """Remove a style (tests that declare a toy style undo it)."""
    _STYLES.pop(name, None)


def load_plugins() -> None:
    """Register the styles of other distributions (the entry point group ``sigfast.styles``), once.

    Scanning the installed distributions takes a while, so it happens on a miss alone: a style name or
    an extension not registered yet (:func:`get`, :func:`by_extension`), a listing (:func:`styles`), or
    a command line with a flag or an ``--output`` extension that no registered style owns
    (``sigfast.cli.main``)."""
    global _LOADED_ENTRY_POINTS
    if _LOADED_ENTRY_POINTS:
        return
    _LOADED_ENTRY_POINTS = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        origin = f"entry point {ep.name!r} ({ep.value})"
        try:
            obj = ep.load()
        except Exception as e:  # a broken plug-in: one clear error, not a traceback
            raise _error(f"{origin} of group {ENTRY_POINT_GROUP!r} cannot be loaded: {type(e).__name__}: {e}") from None
        found = (obj,) if isinstance(obj, Style) else obj if isinstance(obj, (tuple, list)) else None
        if found is None:
            found = getattr(obj, "STYLES", None)
        if found is None:
            raise _error(f"{origin}: an output style module needs a STYLES tuple of Style")
        register(*found)


def styles(plugins: bool = True) -> tuple[Style, ...]:
    """Every registered style, the built-in ones first, in the order they were registered (``plugins``:
    the other distributions' styles too, :func:`load_plugins`; otherwise those registered so far)."""
    if plugins:
        load_plugins()
    return tuple(_STYLES.values())


def names() -> tuple[str, ...]:
    return tuple(s.name for s in styles())


def get(name: Any) -> Style:
    """The style named ``name``; an unknown name is an error naming the known ones, the closest first."""
    found = _STYLES.get(name) if isinstance(name, str) else None
    if found is None and isinstance(name, str):
        load_plugins()
        found = _STYLES.get(name)
    if found is not None:
        return found
    known = names()
    order, hint = list(known), ""
    if isinstance(name, str):  # the closest names first
        import difflib

        close = difflib.get_close_matches(name.lower(), known, n=len(known), cutoff=0.0)
        order = close + [k for k in known if k not in close]
        best = difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.6)  # as sigfast._api.closest
        hint = f"; did you mean {best[0]!r}?" if best else ""
    raise _error(f"unknown output style, got {name!r}{hint} (the styles, closest first: {', '.join(order)})")


def extensions() -> dict[str, str]:
    """Each file extension (``.md``) with the style it picks."""
    return {ext: s.name for s in styles() for ext in s.extensions}


def by_extension(ext: str) -> Style | None:
    """The style a file extension (``.md``) picks, or None."""
    ext = ext.lower()
    for plugins in (False, True):
        found = next((s for s in styles(plugins) if ext in s.extensions), None)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------------------------
# the built-in styles


def _markdown_table(t: Any) -> str:
    from .report import _markdown_table

    return _markdown_table(t)


def _text_table(t: Any) -> str:
    from .report import _text_table

    return _text_table(t)


def _csv_table(t: Any) -> str:
    from .report import _csv

    return _csv([t.header, *t.rows])


def _latex_table(t: Any) -> str:
    from .report import _latex

    return _latex(t)


def _html_table(t: Any) -> str:
    from ._html import table_of

    return table_of(t)


def _html_page(body: str) -> str:
    from ._html import page

    return page(body)


def _html_text(s: str, tag: str) -> str:
    from ._html import esc

    return f"<{tag}>{esc(s)}</{tag}>\n"


register(
    Style("text", (".txt",), data=False, render=lambda r: r._text(), table=_text_table, flag=False),
    Style("json", (".json",), data=True, render=lambda r: r.to_json() + "\n"),
    Style(
        "csv",
        (".csv",),
        data=True,
        render=lambda r: r.to_csv(),
        table=_csv_table,
        heading=lambda t: f"# {t}",
        note=lambda n: f"# {n}",
    ),
    Style(
        "markdown",
        (".md", ".markdown"),
        table=_markdown_table,
        heading=lambda t: f"### {t}",
        note=lambda n: f"*{n}*",
    ),
    Style(
        "latex",
        (".tex",),
        table=_latex_table,
        heading=lambda t: f"% {t}",
        note=lambda n: f"% {n}",
        comment=lambda c: f"% {c}",
    ),
    Style(
        "html",
        (".html", ".htm"),
        help="print a self-contained HTML page (inline styles and script, sortable tables; nothing fetched)",
        table=_html_table,
        heading=lambda t: _html_text(t, "h3"),
        note=lambda n: _html_text(n, "p"),
        comment=lambda c: _html_text(c, "code"),
        document=_html_page,
    ),
)
