"""``sigfast/_native.pyi`` describes the compiled module: the same public names, and for each
function (and each method of a class) the same parameter names, read from the compiled
module's ``__text_signature__``."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import sigfast
from sigfast import _native

STUB = Path(sigfast.__file__).with_name("_native.pyi")


def _public(name: str) -> bool:
    return not name.startswith("_") or name == "__version__"


def _stub() -> tuple[dict[str, ast.AST], dict[str, dict[str, ast.FunctionDef]]]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    top: dict[str, ast.AST] = {}
    methods: dict[str, dict[str, ast.FunctionDef]] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    top[t.id] = node
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top[node.name] = node
            if isinstance(node, ast.ClassDef):
                methods[node.name] = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
    return {k: v for k, v in top.items() if _public(k)}, methods


def _params(fn: ast.FunctionDef, skip_self: bool = False) -> list[str]:
    a = fn.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    return names[1:] if skip_self else names


def _compiled_params(obj: object) -> list[str]:
    sig = getattr(obj, "__text_signature__", None)
    assert sig, f"{obj!r} has no __text_signature__"
    params = list(inspect.signature(obj).parameters)  # type: ignore[arg-type]
    return [p for p in params if p not in ("self", "$self", "cls", "$cls")]


def test_stub_and_module_have_the_same_names() -> None:
    top, _ = _stub()
    compiled = {n for n in dir(_native) if _public(n)}
    assert set(top) - compiled == set(), "in the stub but not in the module"
    assert compiled - set(top) == set(), "in the module but not in the stub"
    assert "__getattr__" not in {n.name for n in ast.parse(STUB.read_text()).body if isinstance(n, ast.FunctionDef)}


def test_functions_take_the_stubs_parameters() -> None:
    top, methods = _stub()
    for name, node in top.items():
        obj = getattr(_native, name)
        if isinstance(node, ast.FunctionDef):
            assert _compiled_params(obj) == _params(node), name
        elif isinstance(node, ast.ClassDef):
            init = methods[name].get("__init__")
            assert init is not None, f"class {name} needs __init__ in the stub"
            assert _compiled_params(obj) == _params(init, skip_self=True), f"{name}.__init__"
            compiled_methods = {m for m in dir(obj) if not m.startswith("_")}
            stub_methods = {m for m in methods[name] if not m.startswith("_")}
            assert compiled_methods == stub_methods, name
            for m in stub_methods:
                if inspect.isdatadescriptor(vars(obj)[m]):  # a property: no parameters
                    continue
                assert _compiled_params(getattr(obj, m)) == _params(methods[name][m], skip_self=True), f"{name}.{m}"


def _generator() -> Any:
    """scripts/gen_native_stub.py, imported."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "scripts" / "gen_native_stub.py"
    spec = importlib.util.spec_from_file_location("gen_native_stub", path)
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_native_stub", gen)
    spec.loader.exec_module(gen)
    return gen


def test_stub_is_generated_from_the_rust_declarations() -> None:
    """The committed stub is what ``scripts/gen_native_stub.py`` writes from ``src/`` and the compiled module:
    a binding added or changed in Rust needs the script run again, never a hand edit."""
    gen = _generator()
    assert STUB.read_text(encoding="utf-8") == gen.generate(), "stale: run scripts/gen_native_stub.py"


def test_generated_types_follow_the_rust_types() -> None:
    """The type mapping itself, on declarations written out here (not read from the module)."""
    gen = _generator()
    classes = {"PySummary": gen.Class("PySummary", "Summary")}
    cases = {
        "PyReadonlyArray2<'py, f64>": "npt.NDArray[np.float64]",
        "PyReadonlyArray1<'_, u32>": "npt.NDArray[np.uint32]",
        "Option<&Bound<'py, PyDict>>": "dict[str, Any] | None",
        "PyResult<(u64, Option<usize>, f64)>": "tuple[int, int | None, float]",
        "Vec<(String, Vec<f64>)>": "list[tuple[str, list[float]]]",
        "PyResult<()>": "None",
        "&str": "str",
        "Option<Bound<'py, PyAny>>": "Any",
        "PyRef<'_, PySummary>": "Summary",
        "HashMap<String, usize>": "dict[str, int]",
        "PyResult<Bound<'py, PyArray1<i64>>>": "npt.NDArray[np.int64]",
    }
    assert {k: gen.py_type(k, classes) for k in cases} == cases
