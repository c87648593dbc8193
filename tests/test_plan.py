"""The resampling plan and its job as values (issue 30 item 1): ``_native.Job`` checks the stream
once and pickles; ``_native.Plan`` names its draw and scheme; the one-binding-per-question calls give
the documented streams' sums; the meta-evaluation and ASO resample with the engine's draw block,
checked against the pure-numpy stream oracle (tests/oracle.py), not against sigfast."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from oracle import STREAMS, boot_sums, indices, swap_bits, swap_sums
from sigfast import _native
from sigfast.exceptions import InputError


def test_a_job_checks_its_stream_once_and_pickles() -> None:
    with pytest.raises(InputError, match="stream"):
        _native.Job(1, 10, stream=3)
    j = _native.Job(7, 20, 5, 2, 1, 1, progress=lambda done, total: None)
    back = pickle.loads(pickle.dumps(j))  # without its callback
    assert (back.seed, back.count, back.start, back.sub, back.threads, back.stream) == (7, 20, 5, 2, 1, 1)
    assert repr(back) == "Job(seed=7, count=20, start=5, sub=2, threads=1, stream=1)"


def test_a_plan_names_its_draw_and_scheme() -> None:
    t = np.zeros((4, 2))
    with pytest.raises(InputError, match="unknown test"):
        _native.Plan(t, None, "jackknife")
    with pytest.raises(InputError, match="unknown resampling"):
        _native.Plan(t, None, "bootstrap", "rows")
    with pytest.raises(InputError, match="permutation"):
        _native.Plan(t, None, "bootstrap", exact=True)


@pytest.mark.parametrize("stream", STREAMS)
def test_plan_values_are_the_streams_sums(stream: int) -> None:
    rng = np.random.default_rng(4)
    table = np.ascontiguousarray(rng.integers(0, 7, (23, 4)).astype(np.float64))
    job = _native.Job(11, 6, 3, 1, 2, stream)
    got, _ = _native.resample_values(_native.Plan(table), job)
    want = np.stack([boot_sums(table, 11, 3 + r, stream, sub=1) for r in range(6)])
    assert np.array_equal(np.asarray(got), want)
    pt = np.ascontiguousarray(table[:, :2])
    got = np.asarray(_native.resample_values(_native.Plan(pt, None, "permutation"), job)[0])
    want = np.stack([swap_sums(pt, swap_bits(11, 3 + r, 23, stream)) for r in range(6)])
    assert np.array_equal(got, want)


@pytest.mark.parametrize("stream", STREAMS)
def test_aso_draws_are_the_engine_draw_block(stream: int) -> None:
    """Resample b of system s: indices into its sorted scores from the stream (seed, TAG_ASO, b, s)."""
    rng = np.random.default_rng(6)
    a, b = rng.normal(0.2, 1, 13), rng.normal(0, 1, 9)
    B, seed = 5, 21
    job = _native.Job(seed, B, stream=stream)
    _, _, _, _, samples = _native.aso_bootstrap([a, b], ["a", "b"], [(0, 1)], 0.01, job, True)
    for r in range(B):
        ia = indices(seed, _native.TAG_ASO, r, 0, 13, 13, stream)
        ib = indices(seed, _native.TAG_ASO, r, 1, 9, 9, stream)
        want = _native.aso_violation_ratio(np.sort(a)[ia], np.sort(b)[ib], 0.01)
        assert np.asarray(samples)[r, 0] == want


@pytest.mark.parametrize("stream", STREAMS)
def test_meta_bootstrap_draws_are_the_engine_draw_block(stream: int) -> None:
    """BOOT-SYSTEMS at system level: resample b's systems from (seed, TAG_META_BOOT, b, 0); its
    value is numpy's Pearson correlation of the drawn systems' mean scores."""
    rng = np.random.default_rng(8)
    s, n = 7, 5
    h = rng.normal(size=(s, n))
    m = np.ascontiguousarray((h + rng.normal(scale=0.5, size=(s, n))).reshape(1, s * n))
    B, seed = 6, 3
    handle = _native.MetricHandle("pearson")
    job = _native.Job(seed, B, stream=stream)
    out = _native.meta_bootstrap_intervals(h, m, "system", handle, "systems", job, 0.95, True)
    samples = np.asarray(out[4])
    hs, ms = h.mean(axis=1), m.reshape(s, n).mean(axis=1)
    for r in range(B):
        rows = indices(seed, _native.TAG_META_BOOT, r, 0, s, s, stream)
        assert samples[r, 0] == pytest.approx(np.corrcoef(hs[rows], ms[rows])[0, 1], abs=1e-12)
