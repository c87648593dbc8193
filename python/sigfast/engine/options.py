"""The options every resampling function shares, owned in one place: their defaults, their checks and
what they mean.

* the defaults (:data:`DEFAULT_SEED`, :data:`DEFAULT_RESAMPLES`, :data:`DEFAULT_PERMUTATIONS`,
  :data:`DEFAULT_CONFIDENCE`, :data:`DEFAULT_NAN_POLICY`, :data:`DEFAULT_BACKEND`): a keyword
  default or a flag's default that is the shared value is written as one of these names (the seed's
  literal is written here only, ``tests/test_options.py`` greps the package; an interval's 10,000
  resamples or a study's seed 0 are those functions' own defaults, in their signatures);
* the checks of single settings (:func:`check_int`, :func:`check_resamples`, :func:`check_seed`,
  :func:`check_stream`, :func:`check_threads`, :func:`check_level`, :func:`check_nan_policy`), each an
  :class:`~sigfast.exceptions.InputError` naming the setting; :func:`check` runs one by the option's
  name (the command line's flag types use it, so a bad ``--stream`` is refused while the arguments are
  parsed, before any file is read);
* :func:`shared_options`: the decorator that validates and resolves the shared options a function
  takes before its body runs (``stream=None`` arrives as the default stream version), the way
  scipy.stats' ``_axis_nan_policy`` decorator owns ``axis`` and ``nan_policy``. The random stream
  version is resolved there and nowhere else (``tests/test_options.py`` parses the package);
* :data:`OPTIONS`: each option's flag, default and meaning, from which the README's table is written.

Start-up stays light: this module imports nothing outside the standard library at import time (the
command line reads its defaults from here before numpy or the native module is loaded).
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

__all__ = [
    "DEFAULT_BACKEND",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_NAN_POLICY",
    "DEFAULT_PERMUTATIONS",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "NAN_POLICIES",
    "OPTIONS",
    "Option",
    "check",
    "check_int",
    "check_level",
    "check_nan_policy",
    "check_resamples",
    "check_seed",
    "check_stream",
    "check_threads",
    "default_stream",
    "shared_options",
    "stream_versions",
]

F = TypeVar("F", bound=Callable[..., Any])

#: The seed of every random draw unless one is given (the only place its value is written).
DEFAULT_SEED = 12345
#: Resamples of a bootstrap unless a count is given.
DEFAULT_RESAMPLES = 1_000_000
#: Rearrangements of an approximate permutation test unless a count is given.
DEFAULT_PERMUTATIONS = 100_000
#: Confidence level of intervals.
DEFAULT_CONFIDENCE = 0.95
#: What to do with resamples on which the statistic is undefined (NaN): :data:`NAN_POLICIES`.
NAN_POLICIES = ("raise", "omit")
DEFAULT_NAN_POLICY = "raise"
#: Where the tasks run.
DEFAULT_BACKEND = "local"
#: The largest resample count (2^40: the engine's counters and streams allow it).
MAX_RESAMPLES = 1 << 40


class Option(NamedTuple):
    """A shared option: its command-line flag, its default (as the README shows it) and what it means."""

    flag: str
    default: str
    meaning: str


#: What each shared option means, with its flag and default (``python -m sigfast.docs`` writes the
#: README's table of shared options from it; ``tests/test_readme.py`` fails while that is stale).
OPTIONS: dict[str, Option] = {
    "n_resamples": Option(
        "-n/--resamples",
        f"{DEFAULT_RESAMPLES:,} (a permutation test: {DEFAULT_PERMUTATIONS:,})",
        "resamples drawn, at most 2^40; 10^6 resolves a p-value to about 0.001",
    ),
    "seed": Option("--seed", str(DEFAULT_SEED), "the random seed, in [0, 2^64); one seed gives the same bytes"),
    "stream": Option(
        "--stream",
        "None (the newest version)",
        "the random stream version; an older one reproduces a result whose signature names it (stream:...vN)",
    ),
    "n_threads": Option("--threads", "None (all cores)", "threads; the result does not depend on them"),
    "nan_policy": Option(
        "--nan-policy",
        repr(DEFAULT_NAN_POLICY),
        "a resample on which the statistic is undefined: 'raise' stops, 'omit' drops it and says how many were kept",
    ),
    "confidence_level": Option("--confidence", str(DEFAULT_CONFIDENCE), "the confidence level of intervals, in (0, 1)"),
    "backend": Option(
        "--backend",
        repr(DEFAULT_BACKEND),
        "where the tasks run: 'local' (this process), 'processes' or 'ray'; every backend gives the same bytes",
    ),
}


def _error(message: str) -> Exception:
    from ..exceptions import InputError

    return InputError(message)


def _is_bool(v: Any) -> bool:
    np = sys.modules.get("numpy")  # numpy's bool, without importing numpy
    return isinstance(v, bool) or (np is not None and isinstance(v, np.bool_))


_STREAMS: tuple[int, tuple[int, ...]] | None = None  # (default, all): read from the engine once


def _streams() -> tuple[int, tuple[int, ...]]:
    global _STREAMS
    if _STREAMS is None:
        from .. import _native

        _STREAMS = int(_native.STREAM_VERSION), tuple(int(v) for v in _native.STREAM_VERSIONS)
    return _STREAMS


def stream_versions() -> tuple[int, ...]:
    """Every random stream version this build can draw from."""
    return _streams()[1]


def default_stream() -> int:
    """The random stream version results use by default (the newest)."""
    return _streams()[0]


def _whole(name: str, v: Any) -> int:
    """``v`` as a whole number; bools are refused (``n_resamples=True`` is not a count)."""
    if _is_bool(v):
        raise _error(f"{name} must be an integer, got {v!r} (a bool is not a count)")
    try:
        return int(operator.index(v))
    except TypeError:
        raise _error(f"{name} must be an integer, got {v!r}") from None


def check_int(name: str, v: Any, lo: int, hi: int | None = None) -> int:
    """A whole number in [lo, hi]; bools are refused (``n_resamples=True`` is not a count)."""
    i = _whole(name, v)
    if i < lo:
        raise _error(f"{name} must be at least {lo}, got {i}")
    if hi is not None and i > hi:
        raise _error(f"{name} must be at most {hi}, got {i}")
    return i


def check_resamples(v: Any, lo: int = 1) -> int:
    b = check_int("n_resamples", v, lo)
    if b > MAX_RESAMPLES:
        raise _error(
            f"n_resamples must be at most 2^40 = {MAX_RESAMPLES}, got {b}; 10^6 resamples already resolve "
            "p-values to about 0.001"
        )
    return b


def check_seed(seed: Any) -> int:
    """A seed: a whole number in [0, 2^64)."""
    s = _whole("seed", seed)
    if not 0 <= s < 1 << 64:
        raise _error(f"seed must be in [0, 2^64), got {s}")
    return s


def check_stream(stream: Any) -> int:
    """The random stream version to draw from: ``None`` gives the default (:func:`default_stream`);
    every version this build knows (:func:`stream_versions`) stays selectable, so a result's signature
    (``stream:...vN``) reproduces it."""
    default, versions = _streams()
    if stream is None:
        return default
    if _is_bool(stream) or (not isinstance(stream, int) and not hasattr(stream, "__index__")) or stream not in versions:
        raise _error(f"stream must be one of the stream versions {list(versions)} (default {default}), got {stream!r}")
    return int(stream)


def check_threads(n_threads: int | None) -> int:
    """Threads: ``None`` is 0 (all cores), else a count in [1, 1024]."""
    if n_threads is None:
        return 0
    return check_int("n_threads", n_threads, 1, 1024)


def check_level(confidence_level: Any) -> float:
    try:
        cl = float(confidence_level)
    except (TypeError, ValueError):
        raise _error(f"confidence_level must be a number in (0, 1), got {confidence_level!r}") from None
    if not 0.0 < cl < 1.0:
        raise _error(f"confidence_level must be in (0, 1), got {confidence_level}")
    return cl


def check_nan_policy(nan_policy: str) -> str:
    if nan_policy not in NAN_POLICIES:
        raise _error(
            f"nan_policy must be 'raise' (stop at an undefined resample) or 'omit' (drop undefined resamples "
            f"and report how many were kept), got {nan_policy!r}"
        )
    return nan_policy


#: The check of each shared option, by the option's name (:func:`check`).
_CHECKS: dict[str, Callable[[Any], Any]] = {
    "n_resamples": check_resamples,
    "seed": check_seed,
    "stream": check_stream,
    "n_threads": check_threads,
    "confidence_level": check_level,
    "nan_policy": check_nan_policy,
}

#: The options :func:`shared_options` resolves before a function's body runs (the others' meaning
#: still differs between functions: an exact permutation test ignores ``n_resamples``, an interval
#: needs 2, the studies' seeds are derived per split, the meta-evaluation's ``nan_policy`` has
#: ``omit-system``).
_RESOLVED = ("stream",)


def check(name: str, value: Any) -> Any:
    """The shared option ``name`` checked and resolved (``check("stream", None)`` is the default
    version), or an :class:`~sigfast.exceptions.InputError` naming it."""
    return _CHECKS[name](value)


def shared_options(func: F) -> F:
    """Check and resolve the shared options ``func`` takes (:data:`_RESOLVED`), given by keyword or
    by position, before its body runs: the body sees ``stream`` as a version number. The signature
    stays the function's own (``functools.wraps``)."""
    import functools
    import inspect  # here, not at the top: the command line's start-up imports this module

    sig = inspect.signature(func)
    names = [n for n in _RESOLVED if n in sig.parameters]
    if not names:
        return func
    by_position = [n for n, p in sig.parameters.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    slots = {n: (by_position.index(n) if n in by_position else None, sig.parameters[n].default) for n in names}

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for n, (i, default) in slots.items():
            if n in kwargs:
                kwargs[n] = check(n, kwargs[n])
            elif i is not None and i < len(args):
                args = (*args[:i], check(n, args[i]), *args[i + 1 :])
            else:
                kwargs[n] = check(n, default)
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


MIN_ITEMS = 10  # fewer items than this: results carry a loud warning


def check_alpha(alpha: Any) -> float:
    """A significance level in (0, 1); anything else (None, a string, 1.5) is an InputError."""
    import numpy as np

    from ..exceptions import InputError

    if isinstance(alpha, (bool, np.bool_)):
        raise InputError(f"alpha must be a number in (0, 1), got {alpha!r}")
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise InputError(f"alpha must be a number in (0, 1), got {alpha!r:.60}") from None
    if not 0.0 < a < 1.0:
        raise InputError(f"alpha must be in (0, 1), got {alpha!r:.60}")
    return a
