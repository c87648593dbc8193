"""``expect_warnings``: the test expects these warnings, each at least once, and no other.

The suite turns sigfast's scorer warnings and deprecations into errors (``filterwarnings`` in
pyproject.toml), so a test that triggers one must say so. ``pytest.warns`` fails when no
warning matches and re-emits the warnings that do not match, which those filters then turn
into errors: nesting one ``pytest.warns`` per pattern requires each pattern to be seen and
lets any other scorer warning or sigfast deprecation fail the test.
"""

from __future__ import annotations

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
