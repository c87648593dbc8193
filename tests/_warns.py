"""``expect_warnings``: the test expects these warnings, each at least once, and no other.

The suite turns sigfast's scorer warnings and deprecations into errors (``filterwarnings`` in
pyproject.toml), so a test that triggers one must say so. ``pytest.warns`` fails when no
warning matches and re-emits the warnings that do not match, which those filters then turn
into errors: nesting one ``pytest.warns`` per pattern requires each pattern to be seen and
lets any other scorer warning or sigfast deprecation fail the test. ``warnings_on_stderr``: the
command line run in the test's process prints its warnings, as it does for a user.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest


@contextmanager
def expect_warnings(category: type[Warning], *patterns: str) -> Iterator[None]:
    """A warning of ``category`` matching each regex in ``patterns`` (``re.search``; none: any)."""
    with ExitStack() as stack:
        for p in patterns or (None,):
            stack.enter_context(pytest.warns(category, match=p))
        yield


@contextmanager
def warnings_on_stderr() -> Iterator[None]:
    """For ``sigfast.cli.main`` run in the test's process: the command line's scorer warnings as a
    user sees them, one ``sigfast: warning: ...`` line each on standard error (which the test
    can read with capsys, as from a subprocess), not the errors the suite's filters make of them."""
    from sigfast.exceptions import ScorerWarning

    with warnings.catch_warnings():
        warnings.simplefilter("always", ScorerWarning)
        yield
