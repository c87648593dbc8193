"""What a resampling test declares: :class:`Test` (README "Adding a test")."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.executor import Request

__all__ = ["COMMON", "Test", "signed"]

#: The settings every request takes, checked by :func:`sigfast.resampling.request` itself (a test's
#: ``validate`` names one of them to read it too, as pairwise reads ``backend``).
COMMON = ("nan_policy", "stream", "n_threads", "backend", "return_distribution")


@dataclass(frozen=True)
class Test:
    """One resampling test, declared in one place: its name, how its request is validated, what it asks
    the engine, and its signature fields. The dispatch list :data:`sigfast.resampling.TESTS` (or the entry
    point group ``sigfast.tests``) registers it; nothing else names it.

    ``validate(x, y, *, keyword=default, ...)`` checks the test's inputs and settings (its keywords are the
    ones the test takes, and ``sigfast.resampling.ask`` passes on from a front-end's arguments by these
    names) and returns the request's fields: ``settings`` (the test's own frozen value, read as attributes
    of the request) and what applies of ``stats``, ``metric``, ``n_resamples``, ``seed``, ``pvalue``,
    ``resampling``, ``clusters`` and ``draws``. ``run(req, progress)`` answers a request with its result;
    ``signature(req)`` gives the signature fields of the test's settings (the engine adds the undefined-
    resample policy, the stream, the clusters and the draws; None: the run returns raw numbers that its
    front-end signs, as ASO's). ``cli``: ``sigfast compare --test NAME``
    runs it (a test of two systems that returns a paired test result).
    """

    name: str
    validate: Callable[..., dict[str, Any]]
    run: Callable[[Request, Any], Any]
    signature: Callable[[Request], Mapping[str, Any]] | None = None
    cli: bool = False
    doc: str = ""

    @property
    def keywords(self) -> frozenset[str]:
        """The keywords the test takes (its ``validate``'s, past ``x`` and ``y``) and the shared ones."""
        params = inspect.signature(self.validate).parameters
        return frozenset(n for n, p in params.items() if p.kind is p.KEYWORD_ONLY) | frozenset(COMMON)


def signed(req: Request, test: str, fields: Mapping[str, Any], **more: Any) -> str:
    """The signature of a result of ``test`` answering ``req``: the test's own ``fields`` (its declared
    ``signature(req)``), then what the engine adds, then ``more`` (the resampling actually used)."""
    from ..results.signature import for_request

    return for_request(req, test, fields, **more)
