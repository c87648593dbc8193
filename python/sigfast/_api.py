"""Small helpers that keep the public API SciPy-familiar and hard to misuse.

* :func:`checked_keywords` — every public function checks its arguments
  before it runs: a keyword that is neither one of its own parameters nor
  (for one taking ``**metric_params`` or a reader's ``**options``) a metric
  parameter or format option raises :class:`~sigfast.exceptions.ArgumentError`
  (a ``SigfastError`` and a ``TypeError``) naming the closest valid keyword
  (``n_resample=10`` → "did you mean 'n_resamples'?"), instead of passing
  the typo on; a value must have the parameter's annotated simple type or be
  one of its ``Literal`` choices (``bootstrap="no"`` is an error);
  :func:`checked_methods` does the same for the methods of the result
  classes and ``Statistics``, :func:`checked_module` for a public module's
  exported functions;
* :func:`frame` — a pandas DataFrame from rows, for ``to_frame()``
  (pandas is an optional extra, imported only here);
* :func:`short_repr` — a short multi-line ``repr`` for result objects.
"""

from __future__ import annotations

import ast
import difflib
import functools
import inspect
import numbers
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from . import _hooks

__all__ = ["checked_keywords", "checked_methods", "checked_module", "closest", "frame", "series_name", "short_repr"]

F = TypeVar("F", bound=Callable[..., Any])


def _provided(kind: str) -> Callable[[], set[str]]:
    """The names of kind ``kind`` a ``**kwargs`` passes on, read when a call needs them from the provider the
    package registered (:data:`sigfast._hooks.PASSED_ON`): this module imports no registry."""

    def names() -> set[str]:
        return _hooks.PASSED_ON[kind]()

    return names


#: What a function's ``**name`` passes on, by that name: metric parameters, a format's options
#: (checked against the format's schema by the reader), or the unit readers' keywords.
_PASSED_ON: dict[str, Callable[[], set[str]]] = {
    "metric_params": _provided("metric_params"),
    "read_options": _provided("read_options"),
    "options": _provided("format_options"),
}
#: A method's ``**params`` are a metric's (``Statistics.scores``); its other ``**kwargs`` (display
#: options, ``json.dumps`` keywords) are checked where they are used.
_METHODS_PASS_ON: dict[str, Callable[[], set[str]]] = {
    "params": _provided("metric_params"),
    "metric_params": _provided("metric_params"),
}


def closest(name: str, names: Iterable[str]) -> str:
    """``"; did you mean 'seed'?"`` for the closest of ``names`` to a mistyped ``name`` (or ``""``)."""
    close = difflib.get_close_matches(name, sorted(set(names)), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


_SIMPLE = {"bool", "int", "float", "str", "None"}


def _annotation_check(annotation: Any) -> tuple[frozenset[str], tuple[Any, ...] | None] | None:
    """What an annotation (a string: ``from __future__ import annotations``) lets through: the simple
    types among ``bool``, ``int``, ``float``, ``str``, ``None`` and the ``Literal`` choices; None where
    it names anything else (then the function checks the value itself)."""
    if not isinstance(annotation, str):
        return None
    kinds: set[str] = set()
    choices: tuple[Any, ...] | None = None
    for part in _split_union(annotation):
        if part in _SIMPLE:
            kinds.add(part)
        elif part.startswith("Literal[") and part.endswith("]"):
            try:
                value = ast.literal_eval("(" + part[len("Literal[") : -1] + ",)")
            except (ValueError, SyntaxError):
                return None
            choices = (choices or ()) + tuple(value)
        else:
            return None
    return frozenset(kinds), choices


def _split_union(annotation: str) -> list[str]:
    """``"Literal['a', 'b'] | None"`` -> ``["Literal['a', 'b']", "None"]`` (bars inside brackets kept)."""
    parts, depth, cur = [], 0, ""
    for ch in annotation:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "|" and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def _is_kind(value: Any, kind: str) -> bool:
    import numpy as np

    if kind == "None":
        return value is None
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if isinstance(value, (bool, np.bool_)):
        return False  # True is not a count, a level or a name
    if isinstance(value, np.ndarray) and value.ndim == 0:  # np.array(0.05): the number it holds
        return value.dtype.kind in ("iu" if kind == "int" else "iuf" if kind == "float" else "U")
    if kind == "int":
        try:
            operator.index(value)
        except TypeError:
            return False
        return True
    if kind == "float":
        return isinstance(value, numbers.Real)
    return isinstance(value, str)


_KIND_TEXT = {
    "bool": "True or False",
    "int": "an integer (a whole number)",
    "float": "a number",
    "str": "a string",
    "None": "None",
}


#: the exact types each simple kind lets through without a closer look (the common case: one test)
_FAST = {"bool": (bool,), "int": (int,), "float": (float, int), "str": (str,), "None": (type(None),)}


def _check_value(func: str, name: str, value: Any, kinds: frozenset[str], choices: tuple[Any, ...] | None) -> None:
    import numpy as np

    from .exceptions import ArgumentError, InputError

    if any(_is_kind(value, k) for k in kinds):
        return
    if choices is not None:
        try:
            ok = any(isinstance(value, type(c)) and value == c for c in choices)  # np.str_ is a str
        except (TypeError, ValueError):  # an array compared with a choice
            ok = False
        if ok:
            return
        shown = ", ".join(repr(c) for c in choices) + (" or None" if "None" in kinds else "")
        hint = closest(value, [c for c in choices if isinstance(c, str)]) if isinstance(value, str) else ""
        raise InputError(f"{func}(): {name} must be one of {shown}, got {value!r:.60}{hint}")
    want = " or ".join(_KIND_TEXT[k] for k in sorted(kinds, key=list(_KIND_TEXT).index))
    what = f"({type(value).__name__})"
    if isinstance(value, (bool, np.bool_)):
        what = "(a bool is not a count)" if "int" in kinds else "(a bool is not a number or a name)"
    raise ArgumentError(f"{func}(): {name} must be {want}, got {value!r:.60} {what}")


def checked_keywords(
    func: F, *, positional: bool = True, passes: Mapping[str, Callable[[], set[str]]] | None = None
) -> F:
    """Check a public function's arguments before it runs (see the module doc): a keyword that is not
    one of its parameters (nor, for a function taking ``**metric_params`` or a reader's ``**options``,
    a metric parameter or a format option) is an :class:`~sigfast.exceptions.ArgumentError` (a
    ``SigfastError`` and a ``TypeError``) naming the closest valid keyword; a value of a parameter
    annotated with simple types (``bool``, ``int``, ``float``, ``str``, ``None``) or ``Literal``
    choices must be one of them (``bootstrap="no"``, ``alpha="0.05"`` and ``method="bootsrap"`` are
    errors, the last naming the closest choice). Other annotations are left to the function.
    ``positional=False`` (methods, :func:`checked_methods`) checks the values given by keyword only,
    so that a method called in a loop with positional arguments costs one test of ``kwargs``.
    ``passes``: what each name of a ``**kwargs`` passes on (default :data:`_PASSED_ON`); other
    ``**kwargs`` are left to the function."""
    if getattr(func, "_sigfast_checked", False):
        return func
    sig = inspect.signature(func)
    name = func.__qualname__ if "." in func.__qualname__ and "<" not in func.__qualname__ else func.__name__
    params = sig.parameters
    own = [n for n, p in params.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL, p.POSITIONAL_ONLY)]
    var_kw = next((n for n, p in params.items() if p.kind is p.VAR_KEYWORD), None)
    passed_on = (_PASSED_ON if passes is None else passes).get(var_kw) if var_kw is not None else None
    own_set = frozenset(own)
    # per checked parameter: (exact types let through at once, string choices let through at once,
    # the kinds, the choices): the common call costs a type lookup per argument
    checks: dict[str, tuple[tuple[type, ...], frozenset[str], frozenset[str], tuple[Any, ...] | None]] = {}
    for n, p in params.items():
        c = _annotation_check(p.annotation) if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) else None
        if c is not None:
            kinds, choices = c
            fast = tuple(t for k in kinds for t in _FAST[k])
            checks[n] = (fast, frozenset(x for x in choices or () if isinstance(x, str)), kinds, choices)
    by_position = [n for n, p in params.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    position_checks = [(i, n, checks[n]) for i, n in enumerate(by_position) if n in checks] if positional else []
    required = [n for n in own if params[n].default is params[n].empty]
    open_ended = any(p.kind is p.VAR_POSITIONAL for p in params.values())

    def refuse(message: str) -> None:
        from .exceptions import ArgumentError

        raise ArgumentError(message)

    def check(k: str, v: Any, c: tuple[Any, ...]) -> None:
        if type(v) in c[0] or (type(v) is str and v in c[1]):
            return
        _check_value(name, k, v, c[2], c[3])

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            for k, v in kwargs.items():
                if k in own_set:
                    c = checks.get(k)
                    if c is not None:
                        check(k, v, c)
                elif var_kw is None or passed_on is not None:
                    extra = passed_on() if passed_on is not None else set()
                    if k not in extra:
                        refuse(f"{name}() got an unexpected keyword argument {k!r}{closest(k, [*own, *extra])}")
                else:  # an unnamed **kwargs (metrics.get's parameters) checks them, but not a misspelt own name
                    missing = [n for n in required[len(args) :] if n not in kwargs]
                    hint = closest(k, missing)
                    if hint:
                        refuse(f"{name}() got an unexpected keyword argument {k!r}{hint}")
        if positional and args:
            if len(args) > len(by_position) and not open_ended:
                refuse(f"{name}() takes {len(by_position)} positional arguments but {len(args)} were given")
            if kwargs:
                for k in by_position[: len(args)]:
                    if k in kwargs:
                        refuse(f"{name}() got multiple values for argument {k!r}")
            for i, k, c in position_checks:
                if i < len(args):
                    check(k, args[i], c)
        return func(*args, **kwargs)

    wrapper._sigfast_checked = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def checked_methods(cls: type) -> type:
    """:func:`checked_keywords` on every public method a class defines itself (functions, class and
    static methods; values given by keyword): a misspelt keyword to ``Statistics.from_scores`` or to
    ``PairwiseResult.plot_heatmap`` names the closest one. :class:`sigfast.results.Result` applies it
    to every result class."""
    for attr, value in list(vars(cls).items()):
        if attr.startswith("_") or getattr(value, "deprecated_alias", False):  # an alias warns at its caller
            continue
        if inspect.isfunction(value):
            setattr(cls, attr, checked_keywords(value, positional=False, passes=_METHODS_PASS_ON))
        elif isinstance(value, (classmethod, staticmethod)) and inspect.isfunction(value.__func__):
            func = checked_keywords(value.__func__, positional=False, passes=_METHODS_PASS_ON)
            setattr(cls, attr, type(value)(func))
    return cls


def checked_module(namespace: dict[str, Any]) -> None:
    """:func:`checked_keywords` on every function a public module exports (its ``__all__``), where it
    is exported: ``sigfast.studies``, ``sigfast.analysis``, ``sigfast.seeds`` and ``sigfast.io`` call
    it on their ``globals()`` last (``sigfast/__init__.py`` does the same for the package's own names;
    ``sigfast.metrics``, on the command line's start-up path, does not import this module)."""
    for attr in namespace.get("__all__", ()):
        value = namespace.get(attr)
        if inspect.isfunction(value) and not getattr(value, "_sigfast_checked", False):
            namespace[attr] = checked_keywords(value)


def series_name(x: Any) -> str | None:
    """The name of a pandas Series (or anything with a string ``name``), else None."""
    name = getattr(x, "name", None)
    if name is None or not hasattr(x, "__array__"):
        return None
    return str(name)


def frame(rows: Iterable[Mapping[str, Any]]) -> Any:
    """A pandas DataFrame of ``rows`` (pandas is an optional extra: ``pip install 'sigfast[pandas]'``)."""
    try:
        import pandas as pd
    except ImportError:
        from .exceptions import InputError

        raise InputError("to_frame() needs pandas: pip install 'sigfast[pandas]'") from None
    return pd.DataFrame(list(rows))


def short_repr(obj: Any, head: str, fields: Mapping[str, Any]) -> str:
    """``Name(head,\\n  key=value, ...)`` wrapped at about 100 characters."""
    parts = [f"{k}={v}" for k, v in fields.items()]
    lines, cur = [], ""
    for p in parts:
        if cur and len(cur) + len(p) > 96:
            lines.append(cur.rstrip(", "))
            cur = ""
        cur += p + ", "
    if cur:
        lines.append(cur.rstrip(", "))
    body = ",\n  ".join(lines)
    return f"{type(obj).__name__}({head},\n  {body})"
