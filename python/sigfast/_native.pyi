"""Type stubs of the private native module (Rust, pyo3). Not a public API."""

from collections.abc import Callable, Mapping

import numpy as np
import numpy.typing as npt

__version__: str
STREAM_VERSION: int
TAG_BOOTSTRAP: int
TAG_PERMUTE: int
BLOCK: int
MAX_EXACT_ITEMS: int
BUILD_PROFILE: str
PAIR_BLOCK: int

_Progress = Callable[[int, int], object] | None
_F64 = npt.NDArray[np.float64]

def bootstrap_values(
    data: _F64,
    metric: str,
    params: Mapping[str, float],
    seed: int,
    n_resamples: int,
    resampling: str,
    threads: int,
    progress: _Progress = None,
) -> tuple[_F64, int | None]: ...
def bootstrap_sums(
    data: _F64,
    seed: int,
    start: int,
    count: int,
    resampling: str,
    threads: int,
    progress: _Progress = None,
) -> tuple[_F64, int | None]: ...
def permutation_values(
    data: _F64,
    metric: str,
    params: Mapping[str, float],
    seed: int,
    n_resamples: int,
    threads: int,
    progress: _Progress = None,
) -> _F64: ...
def exact_permutation_values(
    data: _F64,
    metric: str,
    params: Mapping[str, float],
    threads: int,
    progress: _Progress = None,
) -> _F64: ...
def permutation_sums(
    data: _F64,
    seed: int,
    start: int,
    count: int,
    exact: bool,
    threads: int,
    progress: _Progress = None,
) -> _F64: ...
def metric_scores(sums: _F64, metric: str, params: Mapping[str, float], n_items: float) -> _F64: ...
def bootstrap_pvalue(
    deltas: _F64,
    observed: float,
    variant: str,
    alternative: str,
    orient: float,
    plus_one: bool,
) -> tuple[int, int, float]: ...
def permutation_pvalue(deltas: _F64, observed: float, alternative: str, plus_one: bool) -> tuple[int, int, float]: ...
def percentile_interval(values: _F64, confidence: float) -> tuple[float, float]: ...
def draw_count_floor(n: int, n_resamples: int, seed: int, threads: int) -> int: ...
def stream_words(seed: int, tag: int, resample: int, sub: int, count: int) -> npt.NDArray[np.uint64]: ...
def binomial_draws(seed: int, n: int, p: float, count: int) -> npt.NDArray[np.uint64]: ...
def pairwise_shard(
    data: _F64,
    metric: str,
    params: Mapping[str, float],
    seed: int,
    sub: int,
    start: int,
    stop: int,
    resampling: str,
    observed: list[float],
    variant: str,
    alternative: str,
    orient: float,
    means: list[float] | None,
    threads: int,
    progress: _Progress = None,
) -> tuple[npt.NDArray[np.uint64], _F64, int | None]: ...
def pair_counts(
    values: _F64,
    observed: list[float],
    variant: str,
    alternative: str,
    orient: float,
    means: list[float] | None,
    threads: int,
) -> tuple[npt.NDArray[np.uint64], _F64]: ...
def set_simd(enabled: bool) -> None: ...
def evalb_units(
    gold: bytes,
    test: bytes,
    prm: bytes | None = None,
    cutoff_len: int | None = None,
    max_error: int | None = None,
    gold_name: str | None = None,
    system_name: str | None = None,
    prm_name: str | None = None,
) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_] | list[str]]: ...
def __getattr__(name: str) -> object: ...  # format hot loops (evalb_score, ud_evaluate, bleu_stats, ...)
