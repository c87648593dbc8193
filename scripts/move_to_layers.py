"""Move python/sigfast into folders by layer (issue 30, item 6; docs: shared/design/plan.md) and rewrite the imports.

    python scripts/move_to_layers.py [--dry-run]

Rerunnable: a module already at its new place is left there, imports already rewritten stay as they are,
so the coordinator can run it again after merging a branch written against the flat layout (git's rename
detection carries the merged edits into the moved files; run this again for imports the branch added).

What it does, in order:
1. ``git mv`` each module of :data:`MOVES` to its layer (``engine/``, ``results/``, ``inference/``, ``cli/``,
   ``metaeval/``), creating the packages (``results/__init__.py`` re-exports ``results.base`` lazily, so
   ``from sigfast.results import Result`` keeps working without slowing the command line's start-up).
2. Rewrites every relative import under ``python/sigfast`` (module-level and lazy ones, ``from . import x``
   included) from the module's old place to its new one, with the old names kept as aliases
   (``from .cli import common as _cli``).
3. Rewrites the command table's handler strings and the package root's lazy names to the new modules, and
   keeps every old dotted path importable (``sigfast.executor``, ``sigfast.styles``, ``sigfast.report``, ...):
   the package root maps each old name to the same module object (:data:`MOVES`), so documented imports,
   monkeypatching through an old path and pickles keep working.
4. Patches the few files that name a moved file by its path (listed in :data:`TEXT`).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "python" / "sigfast"

#: old module (dotted, under sigfast) -> new module; ``X -> X`` with a package: the file becomes its __init__
MOVES: dict[str, str] = {
    # the engine: requests, resampling loops, schemes, shared options
    "executor": "engine.executor",
    "clusters": "engine.clusters",
    "samples": "engine.samples",
    "stats": "engine.stats",
    "_backends": "engine.backends",
    "_progress": "engine.progress",
    "_options": "engine.options",
    "bca": "engine.bca",
    "corrections": "engine.corrections",
    "design_rows": "engine.design_rows",
    # results and their outputs
    "results": "results.base",
    "signature": "results.signature",
    "report": "results.report",
    "styles": "results.styles",
    "tables": "results.tables",
    "_plot": "results.plot",
    "results_interval": "results.interval",
    "results_pairwise": "results.pairwise",
    "results_multitest": "results.multitest",
    # the public front-ends
    **{
        m: f"inference.{m}"
        for m in (
            "significance",
            "intervals",
            "pairwise",
            "classical",
            "multitest",
            "power",
            "errorbars",
            "seeds",
            "itemlevel",
            "paired_binary",
            "sequential",
            "ppi",
            "ratings",
            "designs",
        )
    },
    # the command line
    "cli": "cli",
    "_cli": "cli.common",
    "_commands": "cli.commands",
    "_info": "cli.info",
    "metaeval_cli": "cli.metaeval",
    "ratings_cli": "cli.ratings",
    "_designs_cli": "cli.designs",
    "demo": "cli.demo",
    # meta-evaluation
    "metaeval": "metaeval",
}

#: packages whose __init__ is a moved module (the module's own file becomes the package)
_SELF = {old for old, new in MOVES.items() if old == new}

_RESULTS_INIT = '''"""Results and their outputs: the result base (:mod:`sigfast.results.base`), the signature
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
'''

_INITS = {
    "engine": '"""The engine: the request, the resampling loops that answer it, the schemes, the shared options."""\n',
    "inference": '"""The public front-ends: each builds a request (or a closed form) and returns a result."""\n',
    "results": _RESULTS_INIT,
}

_ALIAS_START = "# ---- old module paths (scripts/move_to_layers.py) ----\n"
_ALIAS_END = "# ---- end of old module paths ----\n"
_ALIAS_CODE = '''#: Each module's path before the package was laid out in folders by layer
#: (scripts/move_to_layers.py), and where it is now: ``import sigfast.executor`` (and ``styles``,
#: ``report``, ...) gives the same module object.
_MOVED = {moved}


class _OldPaths:
    """Finds an old module path: the module at its new place, under both names (one object)."""

    @staticmethod
    def find_spec(fullname: str, path: object = None, target: object = None) -> object:
        new = _MOVED.get(fullname.partition("sigfast.")[2]) if fullname.startswith("sigfast.") else None
        if new is None or new == fullname.partition("sigfast.")[2]:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(fullname, _OldPathLoader(f"sigfast.{{new}}"))


class _OldPathLoader:
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: object) -> object:
        import importlib

        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: object) -> None:
        # the import system gave the module the old path's spec: it keeps its own (its relative imports
        # resolve from its package, with no "__package__ != __spec__.parent" warning)
        module.__spec__ = self.spec  # type: ignore[attr-defined]


_sys.meta_path.append(_OldPaths)
'''

#: files that name a moved file by its path: (file, old text, new text); each is applied once
TEXT: list[tuple[str, str, str]] = [
    (
        "python/sigfast/cli/info.py",
        "_PKG = Path(__file__).resolve().parent\n",
        "_PKG = Path(__file__).resolve().parents[1]\n",
    ),
    ("README.md", "`python/sigfast/styles.py`", "`python/sigfast/results/styles.py`"),
    (
        "README.md",
        "`formats/` reads files into statistics, `executor.py` is the engine every resampling test runs on,\n"
        "`resampling/` holds the tests (one module each, one dispatch list), the public front-ends build their\n"
        "requests, `results.py` and its neighbours hold the results, and the CLI, analyses, studies and\n"
        "meta-evaluation sit on top.",
        "its folders follow the data's way: `formats/` reads files into statistics; `engine/` holds the request,\n"
        "the resampling loops, the schemes and the shared options; `resampling/` the tests (one module each, one\n"
        "dispatch list); `inference/` the public front-ends; `results/` the result classes, signatures and output\n"
        "styles; `cli/`, `analysis/`, `studies/` and `metaeval/` sit on top. Every public name stays at\n"
        "`sigfast.*`, and a module's path from before the folders (`sigfast.executor`, `sigfast.styles`) still\n"
        "imports it.",
    ),
    ("tests/test_output_styles.py", '{"python/sigfast/styles.py"}', '{"python/sigfast/results/styles.py"}'),
    (
        "tests/test_options.py",
        'FRONT_ENDS = ("significance.py", "pairwise.py", "intervals.py")',
        'FRONT_ENDS = ("inference/significance.py", "inference/pairwise.py", "inference/intervals.py")',
    ),
    (
        "tests/test_options.py",
        '["_options.py:" + str(_line_of("_options.py", "DEFAULT_SEED = 12345"))]',
        '["engine/options.py:" + str(_line_of("engine/options.py", "DEFAULT_SEED = 12345"))]',
    ),
    ("tests/test_options.py", 'uses[0].startswith("_options.py:")', 'uses[0].startswith("engine/options.py:")'),
    ("tests/test_options.py", 'p.name != "_options.py"', 'p.name != "options.py"'),
    ("tests/test_options.py", 'p.name == "_options.py"', 'p.name == "options.py"'),
    (
        "tests/test_options.py",
        'FRONT_ENDS = ("significance.py", "pairwise.py", "intervals.py", "errorbars.py")',
        'FRONT_ENDS = ("inference/significance.py", "inference/pairwise.py", "inference/intervals.py",'
        ' "inference/errorbars.py")',
    ),
    (
        "tests/test_cli_vocabulary.py",
        'pkg = Path(cli.__file__).parent\n    for path in pkg.rglob("*.py"):\n'
        '        if path.name == "cli.py" and path.parent == pkg:',
        'pkg = Path(cli.__file__).parents[1]\n    for path in pkg.rglob("*.py"):\n'
        "        if path == Path(cli.__file__):",
    ),
    (
        "tests/test_api_inputs_sweep.py",
        'if where in ("_plot.py:pyplot", "_cli.py:precheck"):',
        'if where in ("results/plot.py:pyplot", "cli/common.py:precheck"):',
    ),
    # the package root: a module's old path is also its attribute (``sigfast.executor.DEFAULT_SEED``)
    (
        "python/sigfast/__init__.py",
        """    raise AttributeError(f"module 'sigfast' has no attribute {name!r}")\n""",
        """    if name in _MOVED:  # a module's path from before the folders: the module, under both names\n"""
        """        import importlib\n\n"""
        """        return importlib.import_module(f".{name}", __name__)\n"""
        """    raise AttributeError(f"module 'sigfast' has no attribute {name!r}")\n""",
    ),
    # the start-up tests: the layers' packages are not counted, and the module lists compare sorted
    (
        "tests/test_cli_process.py",
        'sorted(m for m in new if m.split(".")[0] == "sigfast")',
        'sorted(m for m in new if m.split(".")[0] == "sigfast" and m not in _LAYERS)',
    ),
    (
        "tests/test_cli_process.py",
        "before = set(sys.modules)\n",
        "before = set(sys.modules)\n_LAYERS = {'sigfast.engine', 'sigfast.results', 'sigfast.inference'}\n",
    ),
    ("tests/test_cli_process.py", 'd["sigfast"] == want and', 'd["sigfast"] == sorted(want) and'),
    ("tests/test_cli_process.py", '"sigfast._options", "sigfast.cli"], d', '"sigfast._options", "sigfast.cli"]), d'),
    (
        "tests/test_cli_process.py",
        'assert d["sigfast"] == ["sigfast", "sigfast._hooks", "sigfast._native",',
        'assert d["sigfast"] == sorted(["sigfast", "sigfast._hooks", "sigfast._native",',
    ),
    ("tests/test_cli_process.py", '    assert d["sigfast"] == [\n', '    assert d["sigfast"] == sorted([\n'),
    ("tests/test_cli_process.py", '        "sigfast.styles",\n    ], d\n', '        "sigfast.styles",\n    ]), d\n'),
]
#: every mention of these, in these files, is replaced (module names in the start-up tests, the generator's command)
WORDS: list[tuple[str, str, str]] = [
    *[
        (test, f'"sigfast.{old}"', f'"sigfast.{new}"')
        for test in ("tests/test_cli_process.py", "tests/test_architecture.py")
        for old, new in MOVES.items()
        if old != new
    ],
    *[(f, "python -m sigfast._info", "python -m sigfast.cli.info") for f in ("README.md", "tests/test_cli_process.py")],
    ("python/sigfast/cli/info.py", "python -m sigfast._info", "python -m sigfast.cli.info"),
    ("python/sigfast/cli/info.py", "sigfast._info.", "sigfast.cli.info."),
]


def run(cmd: list[str], dry: bool) -> None:
    print("$", " ".join(cmd))
    if not dry:
        subprocess.run(cmd, check=True, cwd=ROOT)


def old_file(old: str) -> Path:
    return PKG / (old.replace(".", "/") + ".py")


def new_file(new: str, old: str) -> Path:
    if old in _SELF:
        return PKG / new.replace(".", "/") / "__init__.py"
    return PKG / (new.replace(".", "/") + ".py")


def move_files(dry: bool) -> set[Path]:
    for pkg, text in _INITS.items():
        init = PKG / pkg / "__init__.py"
        if not init.exists() and not dry:
            init.parent.mkdir(exist_ok=True)
            init.write_text(text)
            run(["git", "add", str(init.relative_to(ROOT))], dry)
    moved = set()
    for old, new in MOVES.items():
        src, dst = old_file(old), new_file(new, old)
        if dst.exists() or not src.exists():
            continue
        if not dry:
            dst.parent.mkdir(parents=True, exist_ok=True)
        run(["git", "mv", str(src.relative_to(ROOT)), str(dst.relative_to(ROOT))], dry)
        moved.add(dst)
    return moved


# ------------------------------------------------------------------------------------------------- imports
def module_of(path: Path) -> tuple[str, list[str]]:
    """(dotted module under sigfast, its package's parts) of a file at its current place."""
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def new_to_old() -> dict[str, str]:
    return {new: old for old, new in MOVES.items()}


def modules_now() -> set[str]:
    out = {""}
    for f in PKG.rglob("*.py"):
        out.add(module_of(f)[0])
    for f in PKG.glob("*.so"):
        out.add(f.name.split(".")[0])
    out.add("_native")
    return out


def old_modules(now: set[str]) -> set[str]:
    back = new_to_old()
    return {back.get(m, m) for m in now}


def relative(from_package: list[str], target: str) -> str:
    """The relative ``from`` part that names ``target`` (dotted under sigfast, '' the root) from a package."""
    t = [p for p in target.split(".") if p]
    common = 0
    while common < min(len(t), len(from_package)) and t[common] == from_package[common]:
        common += 1
    dots = "." * (len(from_package) - common + 1)
    return dots + ".".join(t[common:])


def rewrite_imports(path: Path, olds: set[str], now: set[str], fresh: bool) -> bool:
    """Rewrite the relative imports of ``path`` for its new place. ``fresh``: moved by this run, so every
    import is read from the module's old place (the flat layout); otherwise only the imports that name no
    module at the new place are (what a branch merged after the move added)."""
    if any(path == PKG / pkg / "__init__.py" for pkg in _INITS):
        return False  # written for the new layout
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    now_mod, now_pkg = module_of(path)
    old_mod = new_to_old().get(now_mod, now_mod)
    is_pkg = path.name == "__init__.py"
    if old_mod in _SELF or not is_pkg:
        old_pkg = old_mod.split(".")[:-1]
    else:
        old_pkg = old_mod.split(".")
    old_pkg = [p for p in old_pkg if p]
    lines = text.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        if not fresh:
            here = now_pkg[: len(now_pkg) - node.level + 1] if node.level > 1 else list(now_pkg)
            at_new = ".".join(here + ([node.module] if node.module else []))
            # an old module's name that is now a package: its submodules are the new layout's
            renamed = at_new in MOVES and MOVES[at_new] != at_new
            renamed = renamed and not all(f"{at_new}.{a.name}" in now for a in node.names)

            def moved_away(name: str, at_new: str = at_new) -> bool:  # an old submodule now elsewhere
                full = f"{at_new}.{name}".strip(".")
                return full not in now and full in MOVES and MOVES[full] != full

            if not renamed and at_new in now and not any(moved_away(a.name) for a in node.names):
                continue  # it names modules and names at the new place: written for it
        base_parts = old_pkg[: len(old_pkg) - node.level + 1] if node.level > 1 else list(old_pkg)
        base = ".".join(base_parts + ([node.module] if node.module else []))
        if base not in olds and not any(f"{base}.{a.name}".strip(".") in olds for a in node.names):
            continue  # already written for the new place (or not a sigfast module): leave it
        groups: dict[str, list[str]] = {}
        for a in node.names:
            full = f"{base}.{a.name}".strip(".")
            if full in olds and full != base:
                target = MOVES.get(full, full)
                parent, _, leaf = target.rpartition(".")
                alias = a.asname or a.name
                groups.setdefault(parent, []).append(leaf if alias == leaf else f"{leaf} as {alias}")
            else:
                target = MOVES.get(base, base)
                groups.setdefault(f"={target}", []).append(a.name if not a.asname else f"{a.name} as {a.asname}")
        indent = re.match(r"[ \t]*", lines[node.lineno - 1]).group(0)
        out = []
        for where, names in groups.items():
            mod = where[1:] if where.startswith("=") else where
            rel = relative(now_pkg, mod)
            out.append(f"{indent}from {rel} import {', '.join(names)}\n")
        new = "".join(out)
        old = "".join(lines[node.lineno - 1 : node.end_lineno])
        if new.replace(" ", "") != old.replace(" ", "").replace("(\n", "").replace(",\n)", "").replace("\n", ""):
            edits.append((node.lineno - 1, node.end_lineno, new))
    if not edits:
        return False
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = [new]
    path.write_text("".join(lines), encoding="utf-8")
    return True


def rewrite_absolute(path: Path, now: set[str]) -> bool:
    """``from sigfast.OLD import ...`` (tests, benches, scripts) to the new modules. ``import sigfast.OLD`` stays
    (its code reads ``sigfast.OLD.name``; the old path gives the same module), and so does ``from sigfast import
    name``, the package's public name (``sigfast.pairwise`` is a function)."""
    text = path.read_text(encoding="utf-8")
    olds = "|".join(sorted((re.escape(o) for o, n in MOVES.items() if o != n), key=len, reverse=True))

    def repl(m: re.Match[str]) -> str:
        here = m.group(2) + m.group(3)
        names = [n.split(" as ")[0].strip() for n in m.group(4).strip("()\\ ").split(",") if n.strip()]
        if m.group(3) and here in now:
            return m.group(0)  # a module of the new layout (sigfast.results.signature)
        if not m.group(3) and here in now and names and all(f"{here}.{n}" in now for n in names):
            return m.group(0)  # submodules of a package of the new layout (from sigfast.results import styles)
        return f"{m.group(1)}sigfast.{MOVES[m.group(2)]}{m.group(3)} import{m.group(4)}"

    pattern = rf"^([ \t]*from[ \t]+)sigfast\.({olds})((?:\.\w+)*)[ \t]+import([^\n]*)"
    new = re.sub(pattern, repl, text, flags=re.M)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


# ------------------------------------------------------------------------------------------------- strings
def rewrite_strings() -> None:
    cli = PKG / "cli" / "__init__.py"
    if cli.exists():
        s = cli.read_text(encoding="utf-8")
        for old, new in MOVES.items():
            s = s.replace(f'"sigfast.{old}:', f'"sigfast.{new}:')
        cli.write_text(s, encoding="utf-8")
    root = PKG / "__init__.py"
    s = root.read_text(encoding="utf-8")
    head, sep, tail = s.partition("_LAZY: dict[str, tuple[str, str | None]] = {")
    if sep:
        body, end, rest = tail.partition("\n}\n")
        for old, new in MOVES.items():
            body = body.replace(f'("{old}", ', f'("{new}", ')
        s = head + sep + body + end + rest
    moved = "{\n" + "".join(f'    "{o}": "{n}",\n' for o, n in MOVES.items() if o != n) + "}"
    block = _ALIAS_START + _ALIAS_CODE.format(moved=moved) + _ALIAS_END
    if _ALIAS_START in s:
        s = s.split(_ALIAS_START)[0] + block + s.split(_ALIAS_END, 1)[1]
    else:
        s = s.replace("\nclass _Package(", "\n" + block + "\n\nclass _Package(", 1)
    root.write_text(s, encoding="utf-8")
    for rel, old, new in TEXT:
        f = ROOT / rel
        if f.exists():
            t = f.read_text(encoding="utf-8")
            if old in t and new not in t:  # applied once, also when the script runs again
                f.write_text(t.replace(old, new), encoding="utf-8")
    for rel, old, new in WORDS:
        f = ROOT / rel
        if f.exists():
            t = f.read_text(encoding="utf-8")
            end = "" if old.endswith(".") else r"(?![\w])"  # a whole name, or a module's prefix
            f.write_text(re.sub(re.escape(old) + end, new, t), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="print the git mv commands only")
    dry = ap.parse_args().dry_run
    olds = old_modules(modules_now()) | set(MOVES)
    moved = move_files(dry)
    if dry:
        return 0
    now = modules_now()
    changed = [p for p in sorted(PKG.rglob("*.py")) if rewrite_imports(p, olds, now, p in moved)]
    others = [p for d in ("tests", "benches", "scripts") for p in sorted((ROOT / d).rglob("*.py"))]
    changed += [p for p in others if p.name != Path(__file__).name and rewrite_absolute(p, now)]
    print(f"rewrote the imports of {len(changed)} files")
    rewrite_strings()
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "format", "-q", "python", "tests"], cwd=ROOT)
    subprocess.run([*ruff, "check", "--fix", "-q", "python"], cwd=ROOT)
    subprocess.run([*ruff, "check", "--select", "I", "--fix", "-q", "tests", "benches", "scripts"], cwd=ROOT)
    subprocess.run([*ruff, "format", "-q", "python", "tests"], cwd=ROOT)
    # the formats table's hash covers the format modules' source: written again for the moved imports
    subprocess.run(
        [sys.executable, "-m", "sigfast.cli.info"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(PKG.parent)}
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
