"""A slow, independent pure-numpy oracle of sigfast's random streams and sums.

It reimplements the documented stream (Philox4x64-10 keyed by (seed, tag),
counter (resample, sub), seeding xoshiro256++; Lemire bounded integers on
32-bit halves with rejection) using numpy's own Philox for the key step, so a
bug in sigfast's Philox, xoshiro, bounded-int mapping or summation order
shows up as a mismatch.
"""

from __future__ import annotations

import numpy as np

TAG_BOOTSTRAP = 0x626F6F74
TAG_PERMUTE = 0x7065726D
U64 = np.uint64


def philox_state(seed: int, tag: int, resample: int, sub: int = 0) -> np.ndarray:
    key = seed | (tag << 64)
    counter = ((resample | (sub << 64)) - 1) % (1 << 256)  # numpy increments before use
    g = np.random.Philox(key=key, counter=counter)
    return g.random_raw(4).astype(U64)


def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << U64(k)) | (x >> U64(64 - k))


def xoshiro_words(state: np.ndarray, count: int) -> np.ndarray:
    s = [U64(v) for v in state]
    if all(v == 0 for v in s):
        s[0] = U64(1)
    out = np.empty(count, dtype=U64)
    with np.errstate(over="ignore"):
        for j in range(count):
            out[j] = _rotl(s[0] + s[3], 23) + s[0]
            t = s[1] << U64(17)
            s[2] ^= s[0]
            s[3] ^= s[1]
            s[1] ^= s[2]
            s[0] ^= s[3]
            s[2] ^= t
            s[3] = _rotl(s[3], 45)
    return out


def bounded(words: np.ndarray, n: int, count: int) -> np.ndarray | None:
    """First `count` accepted indices in [0, n) from the 32-bit halves, low half first."""
    halves = np.empty(2 * len(words), dtype=np.uint64)
    halves[0::2] = words & U64(0xFFFFFFFF)
    halves[1::2] = words >> U64(32)
    m = halves * U64(n)
    threshold = (1 << 32) % n
    ok = (m & U64(0xFFFFFFFF)) >= U64(threshold)
    idx = (m >> U64(32))[ok]
    if len(idx) < count:
        return None
    return idx[:count].astype(np.int64)


def boot_indices(seed: int, b: int, n: int) -> np.ndarray:
    words = xoshiro_words(philox_state(seed, TAG_BOOTSTRAP, b), n // 2 + 8)
    idx = bounded(words, n, n)
    assert idx is not None
    return idx


def boot_sums(table: np.ndarray, seed: int, b: int) -> np.ndarray:
    """Summed statistics of bootstrap resample b over items (exact for integers; floats summed in draw order)."""
    n = table.shape[0]
    idx = boot_indices(seed, b, n)
    if np.all(table == np.round(table)):
        counts = np.bincount(idx, minlength=n).astype(np.float64)
        return counts @ table
    return np.cumsum(table[idx], axis=0)[-1]  # floats: in draw order


def swap_bits(seed: int, b: int, n: int) -> np.ndarray:
    words = xoshiro_words(philox_state(seed, TAG_PERMUTE, b), (n + 63) // 64)
    bits = [(int(words[i // 64]) >> (i % 64)) & 1 for i in range(n)]
    return np.array(bits, dtype=np.float64)


def swap_sums(table: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """(x', y') sums after swapping items with bit 1 (x: first half of columns)."""
    k = table.shape[1] // 2
    x, y = table[:, :k], table[:, k:]
    tx, ty = np.cumsum(x, axis=0)[-1], np.cumsum(y, axis=0)[-1]
    d = y - x
    if np.all(table == np.round(table)):
        acc = (d * bits[:, None]).sum(axis=0)  # integers: exact in any order
    else:
        # floats: item i in lane i mod 4, in item order, lanes combined (l0 + l1) + (l2 + l3)
        prod = d * bits[:, None]
        lanes = []
        for lane in range(4):
            part = prod[lane::4]
            lanes.append(np.cumsum(part, axis=0)[-1] if len(part) else np.zeros(k))
        acc = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
    return np.concatenate([tx + acc, ty - acc])
