"""Small helpers that keep the public API SciPy-familiar and hard to misuse.

* :func:`checked_keywords` — a public function taking ``**metric_params``
  raises ``TypeError`` naming the closest valid keyword when a keyword is
  neither one of its own parameters nor a parameter of any metric
  (``n_resample=10`` → "did you mean 'n_resamples'?"), instead of passing
  the typo on to the metric;
* :func:`frame` — a pandas DataFrame from rows, for ``to_frame()``
  (pandas is an optional extra, imported only here);
* :func:`short_repr` — a short multi-line ``repr`` for result objects.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

__all__ = ["checked_keywords", "frame", "series_name", "short_repr"]

F = TypeVar("F", bound=Callable[..., Any])


def _metric_parameter_names() -> set[str]:
    from .metrics import specs

    out: set[str] = set()
    for m in specs():
        for p in m["params"]:
            out.add(p["name"])
            out.update(p["aliases"])
    return out


def checked_keywords(func: F) -> F:
    """Reject keywords that are neither the function's parameters nor metric parameters (see module doc)."""
    sig = inspect.signature(func)
    own = [n for n, p in sig.parameters.items() if p.kind is not inspect.Parameter.VAR_KEYWORD]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        unknown = [k for k in kwargs if k not in own]
        if unknown:
            metric_names = _metric_parameter_names()
            for k in unknown:
                if k not in metric_names:
                    close = difflib.get_close_matches(k, own + sorted(metric_names), n=1, cutoff=0.6)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                    raise TypeError(f"{func.__name__}() got an unexpected keyword argument {k!r}{hint}")
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


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
