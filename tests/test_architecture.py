"""The package's import graph has no circle (issue 30, item 6), as ``src/architecture.rs`` keeps the Rust
modules acyclic.

Every ``import`` and ``from … import`` under ``python/sigfast`` is read with :mod:`ast`, the lazy ones inside
functions and the ``TYPE_CHECKING`` ones included: a lazy import hides a circle from Python's import
machinery, not from a reader. ``from pkg import name`` is an edge to the submodule ``pkg.name`` when there
is one (``from . import _native``), else to ``pkg`` itself (a name its ``__init__`` defines). A strongly
connected component of more than one module fails the test, named module by module with the imports that
close it.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "sigfast"


def modules(root: Path) -> dict[str, tuple[Path, list[str]]]:
    """Dotted module name -> (file, the package it lives in, as name parts)."""
    out: dict[str, tuple[Path, list[str]]] = {}
    for f in sorted(root.rglob("*.py")):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            package = parts
        else:
            package = parts[:-1]
        out[".".join(parts)] = (f, package)
    for f in sorted(root.rglob("*.so")) + sorted(root.rglob("*.pyi")):  # compiled modules: leaves
        parts = list(f.relative_to(root.parent).parts)
        parts[-1] = parts[-1].split(".")[0]
        out.setdefault(".".join(parts), (f, parts[:-1]))
    return out


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t(]|import[ \t]+\w)")


def import_statements(text: str) -> Iterator[tuple[int, ast.stmt]]:
    """Every import statement of a module's source with its line, nested ones (in functions, classes,
    branches) included. Only the lines that start an import are parsed (with their parenthesised or
    backslashed continuation): parsing every module whole takes seconds, this a fraction of one. A line
    of prose that only looks like an import does not parse, and is left out."""
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        if not _IMPORT_LINE.match(lines[k]):
            k += 1
            continue
        first, stmt = k, lines[k].strip()
        while (stmt.count("(") > stmt.count(")") or stmt.endswith("\\")) and k + 1 < len(lines):
            k += 1
            stmt += "\n" + lines[k].strip()
        k += 1
        try:
            tree = ast.parse(stmt)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield first + 1, node


def import_graph(root: Path) -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first such import}, within the package."""
    mods = modules(root)
    graph: dict[str, dict[str, int]] = {}
    for name, (f, package) in mods.items():
        edges: dict[str, int] = {}
        graph[name] = edges
        if f.suffix != ".py":
            continue
        for line, node in import_statements(f.read_text(encoding="utf-8")):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                while t and t not in mods:  # `import sigfast.formats.lmeval as x`: the deepest module named
                    t = t.rpartition(".")[0]
                if t and t != name:
                    edges.setdefault(t, line)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # the package is a few hundred modules deep at most: recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def describe(graph: dict[str, dict[str, int]], comp: list[str]) -> str:
    inside = set(comp)
    lines = [f"an import circle of {len(comp)} modules:"]
    for m in comp:
        for t, line in sorted(graph[m].items()):
            if t in inside:
                lines.append(f"  {m} (line {line}) imports {t}")
    return "\n".join(lines)


@functools.lru_cache(maxsize=1)
def _package_graph() -> dict[str, dict[str, int]]:
    return import_graph(PACKAGE)


def test_the_package_has_no_import_circle() -> None:
    graph = _package_graph()
    found = cycles(graph)
    assert not found, "\n".join(describe(graph, c) for c in found)


def test_the_formats_do_not_import_the_package_root() -> None:
    """``sigfast/__init__.py`` is the public face and imports (lazily) every front-end, which read formats: a
    format importing a name from it (``from .. import __version__``) closed a circle through the whole
    package. Only the command line's handlers, at the top, use the public names (``import sigfast``)."""
    graph = _package_graph()
    importers = sorted(m for m in graph if "sigfast" in graph[m])
    assert importers == ["sigfast.cli.commands", "sigfast.cli.demo"]
    assert not any("sigfast" in graph[m] for m in graph if m.startswith("sigfast.formats"))


def test_the_parser_sees_lazy_imports_and_submodules() -> None:
    graph = _package_graph()
    assert "sigfast._native" in graph["sigfast.engine.executor"]  # `from . import _native`
    assert "sigfast.metrics" in graph["sigfast.engine.executor"]  # `from .metrics import ...`
    assert "sigfast.formats._registry" in graph["sigfast.formats._logs"]  # an import inside a function
    assert "sigfast.formats._base" in graph["sigfast.formats._registry"]  # `from ._base import FormatSpec`


def _write(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "toy"
    for rel, text in files.items():
        f = pkg / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return pkg


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"__init__.py": "", "a.py": "from .b import x\n", "b.py": "def f():\n    from .a import y\n"},
            [["toy.a", "toy.b"]],
        ),
        ({"__init__.py": "from .a import f\n", "a.py": "from . import __version__\n"}, [["toy", "toy.a"]]),
        ({"__init__.py": "", "a.py": "from . import b\n", "b.py": "x = 1\n"}, []),
        (
            {"__init__.py": "", "a.py": "from .b import (\n    x,\n    y,\n)\n", "b.py": "if x:\n    import toy.a\n"},
            [["toy.a", "toy.b"]],
        ),
        (
            {"__init__.py": "", "sub/__init__.py": "", "sub/c.py": "from ..a import q\n", "a.py": "import toy.sub.c\n"},
            [["toy.a", "toy.sub.c"]],
        ),
    ],
    ids=["lazy", "package-root", "none", "multi-line", "absolute-and-nested"],
)
def test_a_circle_is_found_and_named(tmp_path: Path, files: dict[str, str], expected: list[list[str]]) -> None:
    graph = import_graph(_write(tmp_path, files))
    found = cycles(graph)
    assert found == expected
    for c in found:
        assert describe(graph, c).startswith(f"an import circle of {len(c)} modules:")
