"""Exceptions raised by sigfast.

Every error about the user's data or arguments is a :class:`SigfastError`
and also a :class:`ValueError`, so ``except ValueError`` catches it.
``KeyboardInterrupt`` from Ctrl-C passes through untouched.
"""

from __future__ import annotations

__all__ = ["ArgumentError", "FormatError", "InputError", "MetricError", "ScorerWarning", "SigfastError", "UsageError"]


class SigfastError(ValueError):
    """Base class of sigfast's errors."""


class InputError(SigfastError):
    """Data or arguments that cannot be used (shape, NaN, counts, sizes)."""


class UsageError(InputError):
    """Arguments that do not fit together or are too few (one system where a test needs two, a flag that
    needs another flag, ``KEY=VALUE`` written otherwise): the command line prints one line and exits 2,
    as for an unknown flag."""


class ArgumentError(InputError, TypeError):
    """A keyword a public function does not take (the message names the closest one it does), or an
    argument of the wrong type (``alpha="0.05"``, ``bootstrap="no"``): a :class:`SigfastError` that is
    also the ``TypeError`` Python raises for such calls."""


class FormatError(SigfastError):
    """A file that cannot be read: names the file, the line and what to do."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        where = ""
        if path is not None:
            where = f"{path}"
            if line is not None:
                where += f", line {line}"
            where += ": "
        super().__init__(where + message)
        self.path = path
        self.line = line


class MetricError(SigfastError):
    """An unknown metric, or statistics that do not fit the metric."""


class ScorerWarning(UserWarning):
    """Base class of the warnings a reader gives where a reference scorer would warn, or would
    read the input differently (``DependencyWarning``, ``EvalbWarning``, ``AlignmentWarning``,
    ``LogWarning``): ``warnings.simplefilter("ignore", ScorerWarning)`` silences them all, and
    ``"error"`` turns them into exceptions (``--strict`` refuses such input outright)."""
