"""Bad input gets a clear ValueError subclass that says what and where."""

from __future__ import annotations

import numpy as np
import pytest

import sigfast
from sigfast import InputError


def test_errors_are_value_errors() -> None:
    assert issubclass(InputError, ValueError) and issubclass(sigfast.FormatError, ValueError)


@pytest.mark.parametrize("fn", [sigfast.paired_bootstrap, sigfast.permutation_test])
def test_bad_inputs(fn) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="different numbers of items.*'x': 3.*'y': 2"):
        fn([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="system 'y', item 1.*not finite"):
        fn([1.0, 2.0], [1.0, np.nan])
    with pytest.raises(InputError, match="not finite"):
        fn([1.0, np.inf], [1.0, 2.0])
    with pytest.raises(InputError, match="zero items"):
        fn([], [])
    with pytest.raises(InputError, match="expected numbers"):
        fn(["a", "b"], ["c", "d"])
    with pytest.raises(InputError, match="1-D .* 2-D"):
        fn(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)))
    with pytest.raises(InputError, match="negative count -1.*item 0"):
        fn(np.array([[-1, 2, 3]]), np.array([[1, 2, 3]]), metric="f1")
    with pytest.raises(sigfast.MetricError, match="needs 3 statistics"):
        fn(np.ones((4, 2)), np.ones((4, 2)), metric="f1")


def test_bad_arguments() -> None:
    x, y = [0.1, 0.2, 0.3], [0.2, 0.2, 0.4]
    with pytest.raises(InputError, match="n_resamples must be at least 1"):
        sigfast.paired_bootstrap(x, y, n_resamples=0)
    with pytest.raises(InputError, match="n_resamples must be an integer"):
        sigfast.paired_bootstrap(x, y, n_resamples=1.5)
    with pytest.raises(InputError, match="seed"):
        sigfast.paired_bootstrap(x, y, seed=-1)
    with pytest.raises(InputError, match="variant"):
        sigfast.paired_bootstrap(x, y, variant="nope")
    with pytest.raises(InputError, match="one-sided in the direction"):
        sigfast.paired_bootstrap(x, y, alternative="greater")
    with pytest.raises(InputError, match="confidence_level"):
        sigfast.paired_bootstrap(x, y, confidence_level=1.5)
    with pytest.raises(InputError, match="exact test enumerates"):
        sigfast.permutation_test(np.zeros(40), np.ones(40), method="exact")
    with pytest.raises(InputError, match="pvalue must be"):
        sigfast.permutation_test(x, y, pvalue="zero")


def test_statistics_validation() -> None:
    with pytest.raises(InputError, match="shape"):
        sigfast.Statistics(np.zeros((2, 3)), ("a", "b"), ("s",))
    with pytest.raises(InputError, match="unique"):
        sigfast.Statistics(np.zeros((2, 3, 1)), ("a", "a"), ("s",))
    st = sigfast.Statistics.from_scores({"a": [1, 2], "b": [2, 3], "c": [0, 0]})
    with pytest.raises(InputError, match="name the two"):
        sigfast.paired_bootstrap(st)
    with pytest.raises(InputError, match="no system named 'z'"):
        sigfast.paired_bootstrap(st, systems=("a", "z"))
    r = sigfast.paired_bootstrap(st, systems=("c", "a"), n_resamples=10)
    assert r.systems == ("c", "a")
    assert st.values.flags.writeable is False
