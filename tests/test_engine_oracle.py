"""The engine's random draws and resampled sums equal an independent numpy oracle, bit for bit,
in every stream version; and give the same bytes for any thread count, block split, shard and
SIMD build."""

from __future__ import annotations

import numpy as np
import pytest

from oracle import STREAMS, TAG_BOOTSTRAP, TAG_PERMUTE, boot_indices, boot_sums, swap_bits, swap_sums, words64
from sigfast import _native


def test_versions() -> None:
    assert _native.STREAM_VERSION == 2
    assert tuple(_native.STREAM_VERSIONS) == STREAMS
    with pytest.raises(ValueError, match="stream version 3"):
        _native.stream_words(1, TAG_BOOTSTRAP, 0, 0, 4, stream=3)


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("seed,b,sub", [(0, 0, 0), (12345, 7, 3), (2**64 - 1, 2**40 + 3, 2**64 - 1)])
def test_stream_words_equal_oracle(stream: int, seed: int, b: int, sub: int) -> None:
    for tag in (TAG_BOOTSTRAP, TAG_PERMUTE):
        got = np.asarray(_native.stream_words(seed, tag, b, sub, 40, stream=stream))
        np.testing.assert_array_equal(got, words64(seed, tag, b, sub, 40, stream))


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("n", [1, 2, 7, 250, 1000])
def test_item_indices_equal_oracle(stream: int, n: int) -> None:
    got = np.asarray(_native.item_indices(n, _native.Job(99, 3, 5, 2, stream=stream)))
    for r in range(3):
        np.testing.assert_array_equal(got[r], boot_indices(99, 5 + r, n, stream, sub=2))


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("seed", [0, 987654321])
@pytest.mark.parametrize("n", [1, 2, 3, 17, 250])
def test_bootstrap_sums_integer_exact(stream: int, seed: int, n: int) -> None:
    rng = np.random.default_rng(n + seed)
    table = rng.integers(0, 40, (n, 6)).astype(np.float64)
    got, distinct = _native.resample_values(
        _native.Plan(np.ascontiguousarray(table), None, "bootstrap", "items"), _native.Job(seed, 9, 0, 0, 1, stream)
    )
    assert distinct is None
    for b in range(9):
        np.testing.assert_array_equal(got[b], boot_sums(table, seed, b, stream))


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("width", [1, 2, 7, 20, 300])
def test_bootstrap_sums_wide_and_large_integers(stream: int, width: int) -> None:
    """Narrow tables add drawn rows; wide ones (and large values) go through a GEMM: exact either way."""
    rng = np.random.default_rng(width)
    n = 60
    table = rng.integers(0, 50, (n, width)).astype(np.float64)
    table[0, 0] = 2.0**40  # forces 64-bit exactness (an f64 product)
    got, _ = _native.resample_values(
        _native.Plan(np.ascontiguousarray(table), None, "bootstrap", "items"), _native.Job(3, 4, 5, 1, 2, stream)
    )
    small = np.ascontiguousarray(table[:, 1:]) if width > 1 else None  # sums below 2^24: an f32 product
    got_small = (
        None
        if small is None
        else _native.resample_values(
            _native.Plan(small, None, "bootstrap", "items"), _native.Job(3, 4, 5, 1, 2, stream)
        )[0]
    )
    for j, b in enumerate(range(5, 9)):
        np.testing.assert_array_equal(got[j], boot_sums(table, 3, b, stream, sub=1))
        if got_small is not None:
            np.testing.assert_array_equal(got_small[j], boot_sums(small, 3, b, stream, sub=1))


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("n,width", [(5, 2), (64, 2), (301, 2), (301, 5), (300, 13), (700, 1)])
def test_bootstrap_sums_float_order(stream: int, n: int, width: int) -> None:
    """Floats: draw order (version 1); the count-weighted sum in item order (version 2)."""
    rng = np.random.default_rng(n + width)
    table = rng.normal(size=(n, width)) * rng.choice([1e-3, 1.0, 1e3], size=(n, width))
    got, _ = _native.resample_values(
        _native.Plan(np.ascontiguousarray(table), None, "bootstrap", "items"), _native.Job(42, 6, 0, 0, 1, stream)
    )
    for b in range(6):
        np.testing.assert_array_equal(got[b], boot_sums(table, 42, b, stream))


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("n", [3, 64, 65, 200])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_permutation_sums_equal_oracle(stream: int, n: int, kind: str) -> None:
    rng = np.random.default_rng(n)
    table = rng.integers(0, 9, (n, 4)).astype(np.float64) if kind == "int" else rng.normal(size=(n, 4))
    table = np.ascontiguousarray(table)
    got = _native.resample_values(
        _native.Plan(table, None, "permutation", exact=False), _native.Job(77, 5, 0, threads=1, stream=stream)
    )[0]
    masks = np.asarray(_native.swap_masks(n, _native.Job(77, 5, 0, stream=stream)))
    for b in range(5):
        bits = swap_bits(77, b, n, stream)
        np.testing.assert_array_equal(masks[b], bits.astype(bool))
        np.testing.assert_array_equal(got[b], swap_sums(table, bits))


def test_exact_permutation_sums_enumerate_masks() -> None:
    rng = np.random.default_rng(0)
    n = 6
    table = np.ascontiguousarray(rng.integers(0, 9, (n, 2)).astype(np.float64))
    got = _native.resample_values(
        _native.Plan(table, None, "permutation", exact=True), _native.Job(0, 1 << n, 0, threads=2)
    )[0]
    for mask in range(1 << n):
        bits = np.array([(mask >> i) & 1 for i in range(n)], dtype=np.float64)
        np.testing.assert_array_equal(got[mask], swap_sums(table, bits))


@pytest.mark.parametrize("stream", STREAMS)
def test_values_follow_sums(stream: int) -> None:
    """bootstrap_values = metric(bootstrap_sums) for a built-in metric."""
    rng = np.random.default_rng(5)
    from conftest import f1_counts

    table = np.ascontiguousarray(np.concatenate([f1_counts(rng, 80, 0.7), f1_counts(rng, 80, 0.8)], 1))
    vals, _ = _native.resample_values(
        _native.Plan(table, _native.MetricHandle("fbeta", {"beta": 1.0})), _native.Job(8, 37, threads=2, stream=stream)
    )
    for b in range(37):
        s = boot_sums(table, 8, b, stream)
        for k in range(2):
            tp, g, gold = s[3 * k : 3 * k + 3]
            p, r = tp / g, tp / gold
            assert vals[b, k] == pytest.approx(2 * p * r / (p + r), rel=1e-15)


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("kind", ["int", "float", "wide", "widefloat"])
def test_simd_and_scalar_builds_give_same_bytes(stream: int, kind: str) -> None:
    rng = np.random.default_rng(1)
    if kind == "int":
        table = rng.integers(0, 9, (300, 6)).astype(np.float64)
    elif kind == "float":
        table = rng.normal(size=(300, 2))
    elif kind == "wide":
        table = rng.integers(0, 9, (300, 30)).astype(np.float64)
    else:
        table = rng.normal(size=(300, 9))
    table = np.ascontiguousarray(table)
    pt = np.ascontiguousarray(table[:, :8]) if table.shape[1] % 2 else table
    got = []
    try:
        # every build: AVX-512 where the CPU has it, AVX2 alone, portable
        for on, wide in [(True, True), (True, False), (False, False)]:
            _native.set_simd(on, avx512=wide)
            a, _ = _native.resample_values(
                _native.Plan(table, None, "bootstrap", "items"), _native.Job(5, 1001, 0, 0, 2, stream)
            )
            p = _native.resample_values(
                _native.Plan(pt, None, "permutation", exact=False), _native.Job(5, 301, 0, threads=2, stream=stream)
            )[0]
            f = _native.draw_count_floor(300, 500, 5, 2, stream)
            got.append((a.tobytes(), p.tobytes(), f))
    finally:
        _native.set_simd(True)
    assert got[0] == got[1] == got[2]
    for r in range(0, 1001, 97):
        np.testing.assert_array_equal(a[r], boot_sums(table, 5, r, stream))


@pytest.mark.parametrize("kind", ["float", "wide"])
def test_counts_past_16_bits_follow_the_oracle(kind: str) -> None:
    """Past 65,535 items a resample is counted in 32-bit cells, below in 16-bit ones: both give the
    oracle's sums (stream 2 counts every float or wide table), in every build."""
    rng = np.random.default_rng(8)
    for n in (65_535, 65_536, 70_001):
        if kind == "float":
            table = np.ascontiguousarray(rng.normal(size=(n, 2)))
        else:
            table = rng.integers(0, 5, (n, 12)).astype(np.float64)
        got = []
        try:
            for on, wide in [(True, True), (True, False), (False, False)]:
                _native.set_simd(on, avx512=wide)
                sums, _ = _native.resample_values(
                    _native.Plan(table, None, "bootstrap", "items"), _native.Job(3, 3, 0, 0, 1, 2)
                )
                got.append((sums.tobytes(), _native.draw_count_floor(n, 3, 3, 1, 2)))
        finally:
            _native.set_simd(True)
        assert got[0] == got[1] == got[2]
        for b in range(3):
            np.testing.assert_array_equal(sums[b], boot_sums(table, 3, b, 2))
        # the floor's checksum: item 0's count summed over the resamples
        assert got[0][1] == sum(int(np.sum(boot_indices(3, b, n, 2) == 0)) for b in range(3))


@pytest.mark.parametrize("stream", STREAMS)
def test_duplicate_columns_summed_once_same_bytes(stream: int) -> None:
    """Identical columns are summed once inside the engine; the sums are the oracle's."""
    rng = np.random.default_rng(3)
    base = rng.integers(0, 9, (200, 3)).astype(np.float64)
    table = np.ascontiguousarray(np.concatenate([base, base[:, 2:3], base, base[:, :1]], 1))
    got, _ = _native.resample_values(
        _native.Plan(table, None, "bootstrap", "items"), _native.Job(4, 40, 0, 0, 2, stream)
    )
    for b in range(40):
        np.testing.assert_array_equal(got[b], boot_sums(table, 4, b, stream))
    fl = np.ascontiguousarray(np.concatenate([rng.normal(size=(100, 1))] * 3, 1))
    got, _ = _native.resample_values(_native.Plan(fl, None, "bootstrap", "items"), _native.Job(4, 10, 0, 0, 1, stream))
    for b in range(10):
        np.testing.assert_array_equal(got[b], boot_sums(fl, 4, b, stream))


@pytest.mark.parametrize("stream", STREAMS)
def test_same_bytes_for_any_threads_blocks_and_shards(stream: int) -> None:
    """One seed gives the same bytes on 1 or 2 threads, in one block or several, in one shard or
    two, for the narrow (drawn rows), wide (GEMM) and float (fixed-order) sums and the pair counts."""
    rng = np.random.default_rng(11)
    n, s = 90, 5
    tables = {
        "narrow": rng.integers(0, 9, (n, 6)).astype(np.float64),
        "wide": rng.integers(0, 9, (n, 3 * s)).astype(np.float64),
        "float": rng.normal(size=(n, 3 * s)),
    }
    for t in tables.values():
        t = np.ascontiguousarray(t)
        one, _ = _native.resample_values(
            _native.Plan(t, None, "bootstrap", "items"), _native.Job(3, 700, 0, 0, 1, stream)
        )
        two, _ = _native.resample_values(
            _native.Plan(t, None, "bootstrap", "items"), _native.Job(3, 700, 0, 0, 2, stream)
        )
        split = np.concatenate(
            [
                _native.resample_values(
                    _native.Plan(t, None, "bootstrap", "items"), _native.Job(3, c, a, 0, 2, stream)
                )[0]
                for a, c in ((0, 3), (3, 290), (293, 407))
            ]
        )
        assert one.tobytes() == two.tobytes() == split.tobytes()
    table = np.ascontiguousarray(tables["wide"])
    obs = [0.5 + 0.01 * j for j in range(s)]
    B = 2 * _native.PAIR_BLOCK + 100
    for variant in ("bk", "shifted"):
        runs = []
        for threads, shards in ((1, [(0, B)]), (2, [(0, _native.PAIR_BLOCK), (_native.PAIR_BLOCK, B)])):
            parts = [
                _native.resample_pairs(
                    _native.Plan(table, _native.MetricHandle("f1")),
                    _native.Job(7, b - a, a, threads=threads, stream=stream),
                    obs,
                    (variant, "two-sided", 1.0),
                )
                for a, b in shards
            ]
            counts = sum(np.asarray(c, dtype=np.uint64) for c, _, _ in parts)
            sums = np.concatenate([np.asarray(x) for _, x, _ in parts])
            runs.append((counts.tobytes(), sums.tobytes()))
        assert runs[0] == runs[1]
