"""Type stubs of the private native module (Rust, pyo3). Not a public API.

``tests/test_native_stub.py`` keeps this file and the compiled module in step: every public
name of one is in the other, and functions take the same parameter names.
"""

from collections.abc import Callable, Mapping
from typing import Any

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
MAX_RESAMPLES: int
MAX_THREADS: int
CHUNK: int
METRICS: list[dict[str, Any]]
UD_METRICS: list[str]

_Progress = Callable[[int, int], object] | None
_F64 = npt.NDArray[np.float64]

class Summary:
    """A streaming summary of a test: counts, the blocked mean of θ and exact quantiles."""

    def __init__(self, total: int, stride: int) -> None: ...
    def add_bootstrap_rule(
        self, variant: str, alternative: str, orient: float, observed: float, negate: bool = False
    ) -> None: ...
    def add_permutation_rule(self, alternative: str, observed: float) -> None: ...
    def add_less_rule(self, value: float, or_equal: bool = False) -> None: ...
    def add_quantile(self, quantity: str, q: float) -> int: ...
    def pending(self) -> bool: ...
    def passes(self) -> int: ...
    def begin_pass(self) -> None: ...
    def feed(self, rows: _F64) -> None: ...
    def end_pass(self) -> bool: ...
    def counts(self) -> list[int]: ...
    def mean(self) -> float | None: ...
    def quantile(self, i: int) -> float | None: ...

def metric_resolve(name: str, params: Mapping[str, object] | None = None) -> dict[str, Any]: ...
def metric_check(stats: _F64, metric: str, params: Mapping[str, object] | None = None) -> None: ...
def stream_bootstrap(
    summary: Summary,
    data: _F64,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    resampling: str,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
) -> int | None: ...
def stream_permutation(
    summary: Summary,
    data: _F64,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    exact: bool,
    threads: int,
    progress: _Progress = None,
) -> None: ...
def bootstrap_values(
    data: _F64,
    metric: str,
    params: Mapping[str, float],
    seed: int,
    n_resamples: int,
    resampling: str,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
) -> tuple[_F64, int | None]: ...
def bootstrap_sums(
    data: _F64,
    seed: int,
    start: int,
    count: int,
    resampling: str,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
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
def bleu_stats(hyps: list[str], refs: list[list[str]], tokenize: str, max_order: int = 4) -> npt.NDArray[np.uint64]: ...
def chrf_stats(
    hyps: list[str], refs: list[list[str]], char_order: int = 6, word_order: int = 0, beta: float = 2.0
) -> npt.NDArray[np.uint64]: ...
def tokenize_lines(lines: list[str], tokenize: str) -> list[str]: ...
def lcs_lengths(a: list[str], b: list[str]) -> list[int]: ...
def ud_evaluate(
    gold: bytes, system: bytes, gold_name: str | None = None, system_name: str | None = None
) -> tuple[Any, Any]: ...
def evalb_score(
    gold: bytes,
    test: bytes,
    prm: bytes | None = None,
    cutoff_len: int | None = None,
    max_error: int | None = None,
    gold_name: str | None = None,
    system_name: str | None = None,
    prm_name: str | None = None,
) -> Any: ...
