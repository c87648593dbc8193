"""The resampling tests: each one module declaring a :class:`Test`, and one dispatch list, :data:`TESTS`.

A test's module holds its settings, its validation, what it asks the engine (:mod:`sigfast.executor`) and
its signature fields (``bootstrap.py``, ``permutation.py``, ``interval.py``, ``pairwise.py``, ``aso.py``).
:func:`request` checks the shared settings and hands the rest to the test's ``validate``; :func:`run`
answers a request through the test's ``run``. The public functions (:func:`sigfast.paired_bootstrap`,
:func:`sigfast.permutation_test`, :func:`sigfast.bootstrap_interval`, :func:`sigfast.pairwise`,
:func:`sigfast.aso`) are front-ends that build a request with :func:`ask` and run it; :func:`run_test`
runs any registered test by name, and ``sigfast compare --test NAME`` any test declared with ``cli=True``.

Adding a test (README "Adding a test"): a module beside these declaring ``TEST = Test(...)`` and one line in
:data:`TESTS`; or, from another distribution, the module named in the entry point group
:data:`ENTRY_POINT_GROUP` (``[project.entry-points."sigfast.tests"] trimmed = "mypackage.trimmed"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._api import closest
from ..engine.executor import Request
from ..engine.options import DEFAULT_BACKEND, DEFAULT_NAN_POLICY, check
from ..exceptions import ArgumentError, InputError
from . import aso, bootstrap, interval, pairwise, permutation
from ._declare import Test, signed

__all__ = [
    "ENTRY_POINT_GROUP",
    "TESTS",
    "Request",
    "Test",
    "ask",
    "available",
    "get",
    "keywords",
    "register",
    "request",
    "run",
    "run_test",
    "signed",
    "unregister",
]

#: The dispatch list: every resampling test of the package, one line each (the only place that registers
#: one; nothing else names it).
TESTS: tuple[Test, ...] = (bootstrap.TEST, permutation.TEST, interval.TEST, pairwise.TEST, aso.TEST)

#: The entry point group through which another distribution adds tests: each entry point names a module
#: with a ``TEST`` (or ``TESTS``), or a :class:`Test`.
ENTRY_POINT_GROUP = "sigfast.tests"

_REGISTRY: dict[str, Test] = {}
_LOADED_ENTRY_POINTS = False


def register(*tests: Test) -> None:
    """Add tests (a name already taken by another test is an error)."""
    for t in tests:
        if not isinstance(t, Test):
            raise InputError(f"expected a sigfast.resampling.Test declaration, got {type(t).__name__}")
        other = _REGISTRY.get(t.name)
        if other is not None and other is not t:
            raise InputError(f"a resampling test named {t.name!r} is declared twice")
        _REGISTRY[t.name] = t


def unregister(name: str) -> None:
    """Remove a test added by :func:`register` or an entry point (the package's own stay)."""
    if any(t.name == name for t in TESTS):
        raise InputError(f"{name!r} is one of the package's tests; it stays registered")
    _REGISTRY.pop(name, None)


register(*TESTS)


def _load_plugins() -> None:
    global _LOADED_ENTRY_POINTS
    if _LOADED_ENTRY_POINTS:
        return
    _LOADED_ENTRY_POINTS = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        origin = f"entry point {ep.name!r} ({ep.value}) of group {ENTRY_POINT_GROUP!r}"
        try:
            obj = ep.load()
        except Exception as e:  # a broken plug-in: one clear error, not a traceback
            raise InputError(f"{origin} cannot be loaded: {type(e).__name__}: {e}") from None
        found = (obj,) if isinstance(obj, Test) else getattr(obj, "TESTS", None) or (getattr(obj, "TEST", None),)
        if not all(isinstance(t, Test) for t in found):
            raise InputError(f"{origin}: a test module needs TEST = sigfast.resampling.Test(...)")
        register(*found)


def available() -> list[str]:
    """Every registered test's name: the package's, then those added (by :func:`register` or entry points)."""
    _load_plugins()
    return list(_REGISTRY)


def get(name: str) -> Test:
    """The declaration of test ``name``; an unknown name is an error naming the closest."""
    if not isinstance(name, str):
        raise InputError(f"a test name must be a string, got {name!r}")
    if name not in _REGISTRY:
        _load_plugins()
    t = _REGISTRY.get(name)
    if t is None:
        raise InputError(f"unknown resampling test {name!r}{closest(name, _REGISTRY)}; known: {', '.join(_REGISTRY)}")
    return t


def keywords(name: str) -> frozenset[str]:
    """What test ``name`` takes by keyword: its own settings and the shared ones (:data:`COMMON`)."""
    return get(name).keywords


def request(test: str, /, x: Any = None, y: Any = None, **arguments: Any) -> Request:
    """Build and validate the request of test ``test``: the one place where its inputs and settings are
    checked. The shared settings (``nan_policy``, ``stream``, ``n_threads``, ``backend``,
    ``return_distribution``) are checked here; the rest by the test's own ``validate``, which returns the
    request's fields. Whole clusters are drawn by sigfast's streams only (not ``draws="sacrebleu"``); a two-level or
    crossed scheme (``resampling``) reads its design from the statistics (:mod:`sigfast.designs`)."""
    spec = get(test)
    unknown = sorted(set(arguments) - spec.keywords)
    if unknown:
        k = unknown[0]
        raise ArgumentError(f"the {spec.name} test got an unexpected keyword argument {k!r}{closest(k, spec.keywords)}")
    stream = check("stream", arguments.pop("stream", None))
    nan_policy = check("nan_policy", arguments.pop("nan_policy", DEFAULT_NAN_POLICY))
    n_threads = arguments.pop("n_threads", None)
    # a test that reads backend or return_distribution (pairwise) gets it in its validate too
    reads = _validate_keywords(spec)
    if "return_distribution" in reads:
        return_distribution = bool(arguments.setdefault("return_distribution", False))
    else:
        return_distribution = bool(arguments.pop("return_distribution", False))
    read = "backend" in reads
    backend = arguments.get("backend", DEFAULT_BACKEND) if read else arguments.pop("backend", DEFAULT_BACKEND)
    fields = spec.validate(x, y, **arguments)
    if fields.get("resampling") in ("two-level", "crossed"):  # the rows of a design (sigfast.designs)
        from ..engine.design_rows import check_design_metric, design_of

        res = fields["resampling"]
        if fields.get("draws", "sigfast") != "sigfast":
            raise InputError(
                f"draws={fields['draws']!r} draws items as sacrebleu does; resampling={res!r} needs draws='sigfast'"
            )
        design = design_of(fields["stats"], res)
        check_design_metric(design, fields["stats"], fields["metric"])
        fields["design"] = design
    cspec = fields.get("clusters")
    if cspec is not None:
        if fields.get("draws", "sigfast") != "sigfast":
            raise InputError(
                f"draws={fields['draws']!r} draws items as sacrebleu does, so it cannot resample whole clusters; "
                "pass resampling='items' to draw items (or draws='sigfast' to draw clusters)"
            )
        fields["resampling"] = "clusters"
    elif fields.get("resampling") == "clusters":  # pragma: no cover - resolve_clusters refuses it first
        raise InputError("resampling='clusters' needs clusters")
    threads = check("n_threads", n_threads)
    return Request(
        test=spec.name,
        nan_policy=nan_policy,
        stream=stream,
        n_threads=threads,
        backend=backend,
        return_distribution=return_distribution,
        **fields,
    )


def _validate_keywords(spec: Test) -> frozenset[str]:
    import inspect

    return frozenset(inspect.signature(spec.validate).parameters)


def ask(test: str, arguments: Mapping[str, Any], /, **fixed: Any) -> Request:
    """:func:`request` for a public front-end, with the arguments it was called with (its ``locals()`` on
    entry): every one that test ``test`` takes by the same name (``seed``, ``stream``, ``n_threads``,
    ``nan_policy``, ``metric_params``, ...; and ``x``, ``y``) is passed on as it is, so that no front-end
    forwards the shared options by hand; ``fixed``: what the front-end decides itself (``x=`` for an
    argument it names otherwise). The options are checked once, by :func:`request`."""
    taken = keywords(test) | {"x", "y"}
    kw = {k: v for k, v in arguments.items() if k in taken}
    kw.update(fixed)
    return request(test, **kw)


def run(req: Request, progress: Any = None) -> Any:
    """Answer a request through its test's declaration: the result, with the signature built from the
    request."""
    return get(req.test).run(req, progress)


def run_test(test: str, x: Any, y: Any = None, *, progress: Any = None, **arguments: Any) -> Any:
    """Run the resampling test ``test`` (any registered one: the package's, or a plug-in's) on ``x`` and ``y``
    with the settings it takes (:func:`keywords`): ``run_test("bootstrap", a, b, n_resamples=10_000)`` is
    ``sigfast.paired_bootstrap(a, b, n_resamples=10_000)``."""
    return run(request(test, x, y, **arguments), progress)
