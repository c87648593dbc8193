"""The engine: the paired bootstrap and approximate randomization against the best numpy we can write.

Benchmarks (each a function of ``run_all.py``'s registry):

* ``bootstrap_f1``: two systems' F1 statistics (tp, guessed, gold per item), paired
  bootstrap (BK), against numpy (per resample ``np.bincount(indices, minlength=n)``, then
  counts @ statistics by BLAS, in chunks of resamples) and against the floor of an exact item
  bootstrap (``_native.draw_count_floor``: draw and count the same B × n indices, nothing else);
  and sigfast's own thread scaling.
* ``bootstrap_scores``: one score per item, against evaluatio's ``paired_bootstrap_test``
  (compiled; it pins numpy < 2.1, so it may live in its own venv: ``--evaluatio-python``), or
  against the same numpy where evaluatio is absent.
* ``permutation``: approximate randomization on per-item scores against a numpy sign flip
  (random ±1 per item per resample from random bits, chunked), and, as further, clearly
  labelled peers, ``scipy.stats.permutation_test`` (vectorized, paired ``samples``) and
  evaluatio's ``paired_permutation_test`` where installed.
* ``token_scaling``: token-level accuracy at 130,000 tokens against 1,300 (distinct-row
  resampling: the cost follows distinct rows, not items).

sigfast always resamples items here (``resampling="items"``), so that it does the same work
as the peers; its ``"auto"`` default would pick distinct-row resampling only where rows repeat
often (token accuracy).
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import numpy as np

import sigfast
from benchlib import Ctx, have_blas_control, ratio, rounds, timing, version_of, with_blas
from sigfast import _native

N_ITEMS = 2000
NUMPY_BOOT = "numpy: np.bincount per resample, counts @ statistics (BLAS), chunked"
SIGN_FLIP = "numpy sign flip: a random ±1 per item per resample, chunked"
SCIPY_PERM = "scipy.stats.permutation_test (generic; a second peer)"
FLOOR = "drawing and counting the same B × n indices (draw_count_floor)"
CHUNK = 256  # resamples per numpy chunk: (256 × 2,000) int64 indices = 4 MB


def f1_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two taggers' per-sentence (tp, guessed, gold), recall 0.86 and 0.87."""
    rng = np.random.default_rng(seed)
    gold = rng.poisson(3.0, n)

    def tagger(recall: float) -> np.ndarray:
        tp = rng.binomial(gold, recall)
        fp = rng.poisson(0.05 * (gold + 1))
        return np.stack([tp, tp + fp, gold], 1).astype(np.float64)

    return tagger(0.86), tagger(0.87)


def score_data(n: int, seed: int = 1, gain: float = 0.005) -> tuple[np.ndarray, np.ndarray]:
    """One continuous score per item for two systems (every row distinct)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0.50, 0.10, n)
    return a, a + rng.normal(gain, 0.05, n)


def _f1(s: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return 2 * s[..., 0] / (s[..., 1] + s[..., 2])


def numpy_paired_bootstrap(x: np.ndarray, y: np.ndarray, metric: str, B: int, seed: int = 7) -> float:
    """BK paired bootstrap p-value in numpy: per resample bincount, counts @ statistics.

    ``metric`` is ``"f1"`` (x, y: (n, 3) statistics) or ``"mean"`` (x, y: (n,) scores).
    """
    n = len(x)
    table = np.concatenate([x.reshape(n, -1), y.reshape(n, -1)], 1)
    k = table.shape[1] // 2
    score = _f1 if metric == "f1" else (lambda s: s[..., 0] / n)
    obs = float(score(table[:, k:].sum(0)) - score(table[:, :k].sum(0)))
    sign = 1.0 if obs >= 0 else -1.0
    rng = np.random.default_rng(seed)
    counts = np.empty((CHUNK, n))
    exceed = 0
    for start in range(0, B, CHUNK):
        m = min(CHUNK, B - start)
        idx = rng.integers(0, n, (m, n))
        for r in range(m):
            counts[r] = np.bincount(idx[r], minlength=n)
        sums = counts[:m] @ table
        delta = score(sums[:, k:]) - score(sums[:, :k])
        exceed += int(np.count_nonzero(sign * delta > 2 * sign * obs))
    return (exceed + 1) / (B + 1)


def numpy_sign_flip(a: np.ndarray, b: np.ndarray, B: int, seed: int = 8) -> float:
    """Two-sided approximate randomization of the mean difference, in numpy.

    Swapping item i's two scores flips the sign of d_i = b_i − a_i, so a resample's statistic is
    mean(s_i · d_i) with s_i = ±1, i.e. (2 · bits @ d − Σd) / n with one random bit per item.
    """
    d = b - a
    n = len(d)
    obs = abs(d.mean())
    total = d.sum()
    nbytes = (n + 7) // 8
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, B, CHUNK):
        m = min(CHUNK, B - start)
        raw = np.frombuffer(rng.bytes(m * nbytes), dtype=np.uint8).reshape(m, nbytes)
        bits = np.unpackbits(raw, axis=1, count=n).astype(np.float64)
        stat = (2.0 * (bits @ d) - total) / n
        hits += int(np.count_nonzero(np.abs(stat) >= obs - 1e-12 * max(1.0, obs)))
    return (hits + 1) / (B + 1)


def _numpy_configs(ctx: Ctx) -> list[tuple[str, int | None, int]]:
    """(config name, BLAS threads, threads reported) of the numpy peer."""
    out: list[tuple[str, int | None, int]] = [("BLAS 1 thread", 1, 1)]
    if have_blas_control() and ctx.cores > 1:
        out.append((f"BLAS default ({ctx.cores} threads)", None, ctx.cores))
    return out


def _numpy_peer(
    ctx: Ctx,
    fns: dict[str, Any],
    timings: dict[str, Any],
    key: str,
    label: str,
    make: Any,
    what: str,
    last: dict[str, Any],
) -> list[str]:
    """Register the numpy peer's configurations under ``key``; returns their keys. Each run's
    result goes to ``last[key]``."""
    keys = []

    def run() -> None:
        last[key] = make()

    for i, (config, blas, threads) in enumerate(_numpy_configs(ctx)):
        k = f"{key}_{i}"
        fns[k] = with_blas(blas, run)
        timings[k] = {"who": label, "what": what, "threads": threads, "config": config}
        keys.append(k)
    return keys


def _fill(timings: dict[str, Any], times: dict[str, list[float]]) -> None:
    for k, ts in times.items():
        meta = timings.get(k, {})
        timings[k] = timing(ts, meta.get("who", "sigfast"), meta.get("what", k), meta["threads"], meta.get("config"))


def _best_of(timings: dict[str, Any], keys: list[str]) -> str:
    return min(keys, key=lambda k: timings[k]["best_s"])


def bootstrap_f1(ctx: Ctx) -> dict[str, Any]:
    n, B = N_ITEMS, ctx.size(1_000_000, 5_000)
    x, y = f1_data(n)
    sf = lambda th: sigfast.paired_bootstrap(
        x, y, metric="f1", n_resamples=B, resampling="items", n_threads=th, progress=False
    )
    fns: dict[str, Any] = {
        "sigfast_1": lambda: sf(1),
        "sigfast_all": lambda: sf(None),
        "floor_1": lambda: _native.draw_count_floor(n, B, 12345, 1),
        "floor_all": lambda: _native.draw_count_floor(n, B, 12345, 0),
    }
    t: dict[str, Any] = {
        "sigfast_1": {"what": "paired_bootstrap(metric='f1', resampling='items', n_threads=1)", "threads": 1},
        "sigfast_all": {"what": "paired_bootstrap(metric='f1', resampling='items')", "threads": ctx.cores},
        "floor_1": {"what": "_native.draw_count_floor(n, B, seed, 1)", "threads": 1, "who": "floor"},
        "floor_all": {"what": "_native.draw_count_floor(n, B, seed, 0)", "threads": ctx.cores, "who": "floor"},
    }
    what = f"per resample np.bincount(idx, minlength=n), counts @ statistics, chunks of {CHUNK}"
    last: dict[str, Any] = {}
    make = lambda: numpy_paired_bootstrap(x, y, "f1", B)
    np_keys = _numpy_peer(ctx, fns, t, "numpy", "numpy", make, what, last)
    times = rounds(fns, ctx, slow=np_keys)
    _fill(t, times)
    best_np = _best_of(t, np_keys)
    p_sig, p_np = sf(None).pvalue, last["numpy"]
    return {
        "title": "Paired bootstrap, two systems' F1 statistics",
        "params": {"n": n, "B": B, "metric": "f1", "variant": "bk", "resampling": "items", "numpy_chunk": CHUNK},
        "timings": t,
        "ratios": [
            ratio(t, NUMPY_BOOT, "per core", np_keys[0], "sigfast_1"),
            ratio(t, NUMPY_BOOT, "all cores", best_np, "sigfast_all", note=f"numpy: {t[best_np]['config']}"),
            ratio(t, FLOOR, "per core", "floor_1", "sigfast_1", kind="of_floor", target=2.0),
            ratio(t, FLOOR, "all cores", "floor_all", "sigfast_all", kind="of_floor", target=2.0),
            ratio(
                t,
                "thread scaling (1 thread's time ÷ all threads' time)",
                "all cores",
                "sigfast_1",
                "sigfast_all",
                kind="scaling",
            ),
        ],
        "checks": {"pvalue_sigfast": p_sig, "pvalue_numpy": p_np, "note": "different random streams"},
    }


EVALUATIO_SNIPPET = """
import json, sys, time, numpy as np
from evaluatio.inference import hypothesis
fn = getattr(hypothesis, sys.argv[4])
d = np.load(sys.argv[1]); B = int(sys.argv[2]); rep = int(sys.argv[3])
x, y = d['x'].tolist(), d['y'].tolist()
fn(x, y, B)
ts, cpu = [], []
for _ in range(rep):
    t, c = time.perf_counter(), time.process_time()
    fn(x, y, B)
    ts.append(time.perf_counter() - t); cpu.append(time.process_time() - c)
print(json.dumps({"times": ts, "cpu": cpu}))
"""


EVALUATIO_NOTE = (
    "evaluatio runs in its own interpreter (its venv), after one warm-up call, separately from sigfast's "
    "interleaved rounds; its record gives CPU time over wall time (1 = one core busy)"
)


def _evaluatio_python(ctx: Ctx) -> str | None:
    if ctx.evaluatio_python:
        return ctx.evaluatio_python
    if version_of("evaluatio"):
        return ctx.python
    return None


def evaluatio_times(ctx: Ctx, a: np.ndarray, b: np.ndarray, B: int, fn: str) -> tuple[list[float], dict] | str:
    """Times of evaluatio's ``fn`` on (a, b) in its own interpreter, and its timing record; or why not."""
    py = _evaluatio_python(ctx)
    if not py:
        return "evaluatio not installed (pip install evaluatio, or --evaluatio-python PATH to a venv's python)"
    path = ctx.tmp / "evaluatio_scores.npz"
    np.savez(path, x=a, y=b)
    out = subprocess.run(
        [py, "-c", EVALUATIO_SNIPPET, str(path), str(B), str(ctx.repeat), fn], capture_output=True, text=True
    )
    if out.returncode != 0:
        return f"evaluatio failed: {out.stderr.strip()[-300:]}"
    res = json.loads(out.stdout.strip().splitlines()[-1])
    ver = subprocess.run(
        [py, "-c", "import importlib.metadata as m; print(m.version('evaluatio'))"], capture_output=True, text=True
    ).stdout.strip()
    busy = max(c / w for c, w in zip(res["cpu"], res["times"]))
    meta = {
        "who": "evaluatio",
        "what": f"evaluatio {ver} inference.hypothesis.{fn}; CPU time / wall time up to {busy:.2f}",
        "threads": max(1, round(busy)),
    }
    return res["times"], meta


def bootstrap_scores(ctx: Ctx) -> dict[str, Any]:
    n, B = N_ITEMS, ctx.size(1_000_000, 5_000)
    a, b = score_data(n)
    sf = lambda th: sigfast.paired_bootstrap(a, b, n_resamples=B, resampling="items", n_threads=th, progress=False)
    fns: dict[str, Any] = {"sigfast_1": lambda: sf(1), "sigfast_all": lambda: sf(None)}
    t: dict[str, Any] = {
        "sigfast_1": {"what": "paired_bootstrap(scores, resampling='items', n_threads=1)", "threads": 1},
        "sigfast_all": {"what": "paired_bootstrap(scores, resampling='items')", "threads": ctx.cores},
    }
    notes = []
    ev = evaluatio_times(ctx, a, b, B, "paired_bootstrap_test")
    np_keys: list[str] = []
    if isinstance(ev, str):  # no evaluatio: numpy is the peer
        notes.append(ev)
        what = f"per resample np.bincount(idx, minlength=n), counts @ scores, chunks of {CHUNK}"
        make = lambda: numpy_paired_bootstrap(a, b, "mean", B)
        np_keys = _numpy_peer(ctx, fns, t, "numpy", "numpy", make, what, {})
    times = rounds(fns, ctx, slow=np_keys)
    if not isinstance(ev, str):
        times["evaluatio"], t["evaluatio"] = ev
        notes.append(EVALUATIO_NOTE)
    _fill(t, times)
    ratios = []
    if np_keys:
        best_np = _best_of(t, np_keys)
        ratios += [
            ratio(t, NUMPY_BOOT, "per core", np_keys[0], "sigfast_1"),
            ratio(t, NUMPY_BOOT, "all cores", best_np, "sigfast_all", note=f"numpy: {t[best_np]['config']}"),
        ]
    else:
        ratios += [
            ratio(t, "evaluatio paired_bootstrap_test", "per core", "evaluatio", "sigfast_1"),
            ratio(
                t,
                "evaluatio paired_bootstrap_test",
                "all cores",
                "evaluatio",
                "sigfast_all",
                note="evaluatio: its default",
            ),
        ]
    return {
        "title": "Paired bootstrap, one score per item",
        "params": {"n": n, "B": B, "metric": "mean", "variant": "bk", "resampling": "items"},
        "timings": t,
        "ratios": ratios,
        "notes": notes,
    }


def permutation(ctx: Ctx) -> dict[str, Any]:
    from scipy import stats

    n, B = N_ITEMS, ctx.size(100_000, 1_000)
    a, b = score_data(n, seed=2, gain=0.002)
    sf = lambda th: sigfast.permutation_test(a, b, method="approximate", n_resamples=B, n_threads=th, progress=False)

    scipy_p: list[float] = []

    def scipy_ar() -> None:
        kw: dict[str, Any] = {"permutation_type": "samples", "vectorized": True, "n_resamples": B, "batch": CHUNK}
        stat = lambda u, v, axis=-1: v.mean(axis=axis) - u.mean(axis=axis)
        try:
            res = stats.permutation_test((a, b), stat, rng=np.random.default_rng(9), **kw)
        except TypeError:  # scipy < 1.15
            res = stats.permutation_test((a, b), stat, random_state=9, **kw)
        scipy_p.append(float(res.pvalue))

    fns: dict[str, Any] = {"sigfast_1": lambda: sf(1), "sigfast_all": lambda: sf(None), "scipy": scipy_ar}
    t: dict[str, Any] = {
        "sigfast_1": {"what": "permutation_test(scores, method='approximate', n_threads=1)", "threads": 1},
        "sigfast_all": {"what": "permutation_test(scores, method='approximate')", "threads": ctx.cores},
        "scipy": {
            "who": "scipy",
            "what": f"scipy.stats.permutation_test (scipy {version_of('scipy')}): paired 'samples', "
            f"vectorized, batch {CHUNK}",
            "threads": 1,
        },
    }
    what = f"random bit per item (unpackbits), (2 bits @ d − Σd)/n, chunks of {CHUNK}"
    last: dict[str, Any] = {}
    np_keys = _numpy_peer(ctx, fns, t, "numpy", "numpy sign flip", lambda: numpy_sign_flip(a, b, B), what, last)
    times = rounds(fns, ctx, slow=["scipy"])
    notes = []
    ev = evaluatio_times(ctx, a, b, B, "paired_permutation_test")
    if isinstance(ev, str):
        notes.append(ev)
    else:
        times["evaluatio"], t["evaluatio"] = ev
        notes.append(EVALUATIO_NOTE)
    _fill(t, times)
    best_np = _best_of(t, np_keys)
    ratios = [
        ratio(t, SIGN_FLIP, "per core", np_keys[0], "sigfast_1"),
        ratio(t, SIGN_FLIP, "all cores", best_np, "sigfast_all", note=f"numpy: {t[best_np]['config']}"),
        ratio(t, SCIPY_PERM, "per core", "scipy", "sigfast_1"),
        ratio(
            t,
            SCIPY_PERM,
            "all cores",
            "scipy",
            "sigfast_all",
            note="scipy's generic permutation_test, one process",
        ),
    ]
    if "evaluatio" in t:
        ratios += [
            ratio(t, "evaluatio paired_permutation_test", "per core", "evaluatio", "sigfast_1"),
            ratio(
                t,
                "evaluatio paired_permutation_test",
                "all cores",
                "evaluatio",
                "sigfast_all",
                note="evaluatio: its default",
            ),
        ]
    return {
        "title": "Approximate randomization, one score per item",
        "params": {"n": n, "B": B, "alternative": "two-sided"},
        "timings": t,
        "ratios": ratios,
        "notes": notes,
        "checks": {
            "pvalue_sigfast": sf(None).pvalue,
            "pvalue_numpy": last["numpy"],
            "pvalue_scipy": scipy_p[-1],
            "note": "different random streams",
        },
    }


def token_scaling(ctx: Ctx) -> dict[str, Any]:
    B = ctx.size(1_000_000, 5_000)
    rng = np.random.default_rng(3)
    data = {}
    for tokens in (1_300, 130_000):
        ta = (rng.random(tokens) < 0.97).astype(np.float64)
        tb = np.where(rng.random(tokens) < 0.8, ta, rng.random(tokens) < 0.972).astype(np.float64)
        data[tokens] = (ta, tb)
    fns: dict[str, Any] = {}
    t: dict[str, Any] = {}
    for tokens, (ta, tb) in data.items():
        for th, key in ((1, "1"), (None, "all")):
            k = f"tokens_{tokens}_{key}"
            fns[k] = lambda ta=ta, tb=tb, th=th: sigfast.paired_bootstrap(
                ta, tb, n_resamples=B, n_threads=th, progress=False
            )
            t[k] = {
                "what": f"paired_bootstrap(accuracy of {tokens:,} tokens, resampling='auto')",
                "threads": 1 if th else ctx.cores,
            }
    times = rounds(fns, ctx)
    _fill(t, times)
    note = "1.0 would mean that the cost does not grow with the items"
    return {
        "title": "Token-level accuracy: cost follows distinct rows",
        "params": {"B": B, "tokens": [1_300, 130_000], "resampling": "auto (distinct rows)"},
        "timings": t,
        "ratios": [
            {
                **ratio(
                    t,
                    "time at 130,000 tokens ÷ time at 1,300",
                    "per core",
                    "tokens_130000_1",
                    "tokens_1300_1",
                    "scaling",
                ),
                "note": note,
            },
            {
                **ratio(
                    t,
                    "time at 130,000 tokens ÷ time at 1,300",
                    "all cores",
                    "tokens_130000_all",
                    "tokens_1300_all",
                    "scaling",
                ),
                "note": note,
            },
        ],
    }
