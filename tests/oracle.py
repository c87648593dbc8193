"""A slow, independent pure-numpy oracle of sigfast's random streams and sums.

It reimplements both documented stream versions (CHANGELOG.md, "Random stream") using numpy's
own Philox for the key step, so a bug in sigfast's Philox, xoshiro, lane order, bounded-int
mapping or summation order shows up as a mismatch:

* version 1: Philox4x64-10 keyed by (seed, tag), counter (resample, sub, 0, 0), seeds one
  xoshiro256++; its 64-bit outputs are the words; Lemire bounded integers on the 32-bit halves
  (low half first) with rejection, the last index of a run reading the high half only if the
  low half was rejected; float sums in draw order;
* version 2: four xoshiro256++ lanes, lane l seeded by the Philox block of counter
  (resample, sub, l, 2); step t gives 32-bit words lo(o[t][0]), hi(o[t][0]), lo(o[t][1]), ...;
  a bounded integer takes one word (Lemire, rejection), a 64-bit word two (low first); float
  sums are the count-weighted sum over items in item order.
"""

from __future__ import annotations

import numpy as np

TAG_BOOTSTRAP = 0x626F6F74
TAG_PERMUTE = 0x7065726D
U64 = np.uint64


STREAMS = (1, 2)
LANES = 4


def philox_state(seed: int, tag: int, resample: int, sub: int = 0, lane: int = 0, version: int = 0) -> np.ndarray:
    """The Philox4x64-10 block of counter (resample, sub, lane, version) under key (seed, tag)."""
    key = seed | (tag << 64)
    counter = ((resample | (sub << 64) | (lane << 128) | (version << 192)) - 1) % (1 << 256)  # numpy increments first
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


def lane_words(seed: int, tag: int, resample: int, sub: int, count: int) -> np.ndarray:
    """The first ``count`` 32-bit words of a version-2 stream (as uint64 values below 2^32)."""
    steps = -(-count // (2 * LANES))
    outs = np.stack(
        [xoshiro_words(philox_state(seed, tag, resample, sub, lane, 2), steps) for lane in range(LANES)], axis=1
    )  # (steps, lanes)
    words = np.empty((steps, LANES, 2), dtype=U64)
    words[:, :, 0] = outs & U64(0xFFFFFFFF)
    words[:, :, 1] = outs >> U64(32)
    return words.reshape(-1)[:count]


def words64(seed: int, tag: int, resample: int, sub: int, count: int, stream: int) -> np.ndarray:
    """The first ``count`` 64-bit words of a stream (version 2: two 32-bit words each, low first)."""
    if stream == 1:
        return xoshiro_words(philox_state(seed, tag, resample, sub), count)
    w = lane_words(seed, tag, resample, sub, 2 * count)
    return w[0::2] | (w[1::2] << U64(32))


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


def bounded32(words: np.ndarray, n: int, count: int) -> np.ndarray | None:
    """First ``count`` accepted indices in [0, n), one 32-bit word each (version 2)."""
    m = words * U64(n)
    ok = (m & U64(0xFFFFFFFF)) >= U64((1 << 32) % n)
    idx = (m >> U64(32))[ok]
    if len(idx) < count:
        return None
    return idx[:count].astype(np.int64)


def indices(seed: int, tag: int, b: int, sub: int, n: int, count: int, stream: int = 2) -> np.ndarray:
    """The first ``count`` bounded indices in [0, n) of stream (seed, tag, b, sub), in draw order."""
    extra = 8
    while True:
        if stream == 1:
            idx = bounded(xoshiro_words(philox_state(seed, tag, b, sub), count // 2 + extra), n, count)
        else:
            idx = bounded32(lane_words(seed, tag, b, sub, count + extra), n, count)
        if idx is not None:
            return idx
        extra *= 4


def boot_indices(seed: int, b: int, n: int, stream: int = 2, sub: int = 0) -> np.ndarray:
    """The item indices of bootstrap resample b, in draw order."""
    return indices(seed, TAG_BOOTSTRAP, b, sub, n, n, stream)


def boot_sums(table: np.ndarray, seed: int, b: int, stream: int = 2, sub: int = 0) -> np.ndarray:
    """Summed statistics of bootstrap resample b over items: exact for integers; floats summed in
    draw order (version 1) or as the count-weighted sum in item order (version 2)."""
    n = table.shape[0]
    idx = boot_indices(seed, b, n, stream, sub)
    counts = np.bincount(idx, minlength=n).astype(np.float64)
    if np.all(table == np.round(table)):
        return counts @ table
    if stream == 1:
        return np.cumsum(table[idx], axis=0)[-1]  # floats: in draw order
    return np.cumsum(counts[:, None] * table, axis=0)[-1]  # floats: products, added in item order


def swap_bits(seed: int, b: int, n: int, stream: int = 2) -> np.ndarray:
    words = words64(seed, TAG_PERMUTE, b, 0, (n + 63) // 64, stream)
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
