"""Hooks a lower module reads and the package fills (standard library only, so that filling them costs no
start-up time).

:data:`PASSED_ON` maps a kind of keyword a function's ``**kwargs`` passes on (``"metric_params"``,
``"format_options"``, ``"read_options"``) to a function listing the names it takes. The registries that
know those names (metrics, formats, the analyses' unit readers) sit above :mod:`sigfast._api`, which checks
keywords; ``sigfast/__init__.py`` registers their lists here, so ``_api`` imports none of them.

:data:`CALLED` maps a module that can be called (``"report"``: ``sigfast.report(...)`` is
:func:`sigfast.htmlreport.report`) to the function a call runs; the package root fills it, so the low
module (:mod:`sigfast.report`, which the results use) imports nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable

PASSED_ON: dict[str, Callable[[], set[str]]] = {}
CALLED: dict[str, Callable[..., object]] = {}
