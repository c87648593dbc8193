"""The engine's random draws and resampled sums equal an independent numpy oracle, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from oracle import TAG_BOOTSTRAP, TAG_PERMUTE, boot_sums, philox_state, swap_bits, swap_sums, xoshiro_words
from sigfast import _native


@pytest.mark.parametrize("seed,b", [(0, 0), (12345, 7), (2**64 - 1, 2**40 + 3)])
def test_stream_words_equal_oracle(seed: int, b: int) -> None:
    for tag in (TAG_BOOTSTRAP, TAG_PERMUTE):
        got = np.asarray(_native.stream_words(seed, tag, b, 0, 40))
        want = xoshiro_words(philox_state(seed, tag, b), 40)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", [0, 1, 987654321])
@pytest.mark.parametrize("n", [1, 2, 3, 17, 250])
def test_bootstrap_sums_integer_exact(seed: int, n: int) -> None:
    rng = np.random.default_rng(n + seed)
    table = rng.integers(0, 40, (n, 6)).astype(np.float64)
    got, distinct = _native.bootstrap_sums(np.ascontiguousarray(table), seed, 0, 9, "items", 1, None)
    assert distinct is None
    for b in range(9):
        np.testing.assert_array_equal(got[b], boot_sums(table, seed, b))


@pytest.mark.parametrize("width", [1, 2, 7, 20])
def test_bootstrap_sums_wide_and_large_integers(width: int) -> None:
    rng = np.random.default_rng(width)
    n = 60
    table = rng.integers(0, 50, (n, width)).astype(np.float64)
    table[0, 0] = 2.0**40  # forces 64-bit integer lanes
    got, _ = _native.bootstrap_sums(np.ascontiguousarray(table), 3, 5, 4, "items", 2, None)
    for j, b in enumerate(range(5, 9)):
        np.testing.assert_array_equal(got[j], boot_sums(table, 3, b))


@pytest.mark.parametrize("n", [5, 64, 301])
def test_bootstrap_sums_float_lane_order(n: int) -> None:
    rng = np.random.default_rng(n)
    table = rng.normal(size=(n, 2))
    got, _ = _native.bootstrap_sums(np.ascontiguousarray(table), 42, 0, 6, "items", 1, None)
    for b in range(6):
        np.testing.assert_array_equal(got[b], boot_sums(table, 42, b))


@pytest.mark.parametrize("n", [3, 64, 65, 200])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_permutation_sums_equal_oracle(n: int, kind: str) -> None:
    rng = np.random.default_rng(n)
    table = rng.integers(0, 9, (n, 4)).astype(np.float64) if kind == "int" else rng.normal(size=(n, 4))
    table = np.ascontiguousarray(table)
    got = _native.permutation_sums(table, 77, 0, 5, False, 1, None)
    for b in range(5):
        np.testing.assert_array_equal(got[b], swap_sums(table, swap_bits(77, b, n)))


def test_exact_permutation_sums_enumerate_masks() -> None:
    rng = np.random.default_rng(0)
    n = 6
    table = np.ascontiguousarray(rng.integers(0, 9, (n, 2)).astype(np.float64))
    got = _native.permutation_sums(table, 0, 0, 1 << n, True, 2, None)
    for mask in range(1 << n):
        bits = np.array([(mask >> i) & 1 for i in range(n)], dtype=np.float64)
        np.testing.assert_array_equal(got[mask], swap_sums(table, bits))


def test_values_follow_sums() -> None:
    """bootstrap_values = metric(bootstrap_sums) for a built-in metric."""
    rng = np.random.default_rng(5)
    from conftest import f1_counts

    table = np.ascontiguousarray(np.concatenate([f1_counts(rng, 80, 0.7), f1_counts(rng, 80, 0.8)], 1))
    vals, _ = _native.bootstrap_values(table, "fbeta", {"beta": 1.0}, 8, 37, "items", 2, None)
    for b in range(37):
        s = boot_sums(table, 8, b)
        for k in range(2):
            tp, g, gold = s[3 * k : 3 * k + 3]
            p, r = tp / g, tp / gold
            assert vals[b, k] == pytest.approx(2 * p * r / (p + r), rel=1e-15)


@pytest.mark.parametrize("kind", ["int", "float", "wide"])
def test_simd_and_scalar_builds_give_same_bytes(kind: str) -> None:
    rng = np.random.default_rng(1)
    if kind == "int":
        table = rng.integers(0, 9, (300, 6)).astype(np.float64)
    elif kind == "float":
        table = rng.normal(size=(300, 2))
    else:
        table = rng.normal(size=(300, 9))
    table = np.ascontiguousarray(table)
    try:
        _native.set_simd(True)
        a, _ = _native.bootstrap_sums(table, 5, 0, 1001, "items", 2, None)
        p = _native.permutation_sums(
            np.ascontiguousarray(table[:, :8]) if table.shape[1] % 2 else table, 5, 0, 301, False, 2, None
        )
        _native.set_simd(False)
        b, _ = _native.bootstrap_sums(table, 5, 0, 1001, "items", 2, None)
        q = _native.permutation_sums(
            np.ascontiguousarray(table[:, :8]) if table.shape[1] % 2 else table, 5, 0, 301, False, 2, None
        )
    finally:
        _native.set_simd(True)
    assert a.tobytes() == b.tobytes() and p.tobytes() == q.tobytes()
    for r in range(0, 1001, 97):
        np.testing.assert_array_equal(a[r], boot_sums(table, 5, r))


def test_duplicate_columns_summed_once_same_bytes() -> None:
    """Identical columns are summed once inside the engine; the sums are the oracle's."""
    rng = np.random.default_rng(3)
    base = rng.integers(0, 9, (200, 3)).astype(np.float64)
    table = np.ascontiguousarray(np.concatenate([base, base[:, 2:3], base, base[:, :1]], 1))
    got, _ = _native.bootstrap_sums(table, 4, 0, 40, "items", 2, None)
    for b in range(40):
        np.testing.assert_array_equal(got[b], boot_sums(table, 4, b))
    fl = np.ascontiguousarray(np.concatenate([rng.normal(size=(100, 1))] * 3, 1))
    got, _ = _native.bootstrap_sums(fl, 4, 0, 10, "items", 1, None)
    for b in range(10):
        np.testing.assert_array_equal(got[b], boot_sums(fl, 4, b))
