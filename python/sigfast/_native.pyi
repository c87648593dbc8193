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
STREAM_VERSIONS: tuple[int, ...]
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
    stream: int = 2,
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
    stream: int = 2,
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
    stream: int = 2,
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
    stream: int = 2,
) -> tuple[_F64, int | None]: ...
def permutation_values(
    data: _F64,
    metric: str,
    params: Mapping[str, float],
    seed: int,
    n_resamples: int,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
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
    stream: int = 2,
) -> _F64: ...
def metric_scores(sums: _F64, metric: str, params: Mapping[str, float], n_items: float) -> _F64: ...
def metric_rows(
    rows: list[list[float]], metric: str, params: Mapping[str, object] | None, n_items: float
) -> list[float]: ...
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
def draw_count_floor(n: int, n_resamples: int, seed: int, threads: int, stream: int = 2) -> int: ...
def stream_words(
    seed: int, tag: int, resample: int, sub: int, count: int, stream: int = 2
) -> npt.NDArray[np.uint64]: ...
def binomial_draws(seed: int, n: int, p: float, count: int, stream: int = 2) -> npt.NDArray[np.uint64]: ...
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
    stream: int = 2,
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
def set_simd(enabled: bool, avx512: bool = True) -> None: ...
def bleu_stats(hyps: list[str], refs: list[list[str]], tokenize: str, max_order: int = 4) -> npt.NDArray[np.uint64]: ...
def chrf_stats(
    hyps: list[str], refs: list[list[str]], char_order: int = 6, word_order: int = 0, beta: float = 2.0
) -> npt.NDArray[np.uint64]: ...
def tokenize_lines(lines: list[str], tokenize: str) -> list[str]: ...
def lcs_lengths(a: list[str], b: list[str]) -> list[int]: ...
def ud_evaluate(
    gold: bytes, system: bytes, gold_name: str | None = None, system_name: str | None = None
) -> tuple[bytes, list[str | None]]: ...
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

# --- conlleval chunk scoring (formats conlleval and ner): plain values for the report, the parse for the rest
_Lines = bytes | list[list[str]]

class _ChunkParse:
    """The parse of one scored file: per-item counts, the chunking and the tokens, on request."""

    def counts(self) -> npt.NDArray[np.int64]: ...
    def chunked(self) -> dict[str, Any]: ...
    def tokens(self) -> list[str]: ...

def chunk_conlleval(
    system: _Lines,
    delimiter: int,
    gold: _Lines | None = None,
    *,
    iobes: bool = False,
    raw: bool = False,
    o_tag: str = "O",
    boundary: str = "-X-",
    skip_docstart: bool = False,
    gold_name: str | None = None,
    system_name: str | None = None,
) -> tuple[dict[str, Any], _ChunkParse]: ...
def chunk_ner(
    gold: _Lines,
    system: _Lines,
    gold_delimiter: int,
    system_delimiter: int,
    *,
    iobes: bool = False,
    raw: bool = False,
    o_tag: str = "O",
    boundary: str = "-X-",
    skip_docstart: bool = False,
    gold_name: str | None = None,
    system_name: str | None = None,
) -> tuple[dict[str, Any], _ChunkParse]: ...

# --- units of the formats' own parses
MISSING: str
UD_UNIT_VIEWS: list[str]

def ud_units(
    gold: bytes, system: bytes, view: str, gold_name: str | None = None, system_name: str | None = None
) -> dict[str, object]: ...
def evalb_units(
    gold: bytes,
    test: bytes,
    prm: bytes | None = None,
    cutoff_len: int | None = None,
    max_error: int | None = None,
    gold_name: str | None = None,
    system_name: str | None = None,
    prm_name: str | None = None,
) -> dict[str, object]: ...

# --- TER and ROUGE statistics
def ter_stats(
    hyps: list[str],
    refs: list[list[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    threads: int = 0,
) -> _F64: ...
def ter_tokenize(
    lines: list[str],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> list[str]: ...
def rouge_scores(
    preds: list[str], refs: list[list[str]], rouge_types: list[str], use_stemmer: bool = False, threads: int = 0
) -> _F64: ...
def rouge_tokenize(texts: list[str], use_stemmer: bool = False) -> list[list[str]]: ...
def porter_stem(words: list[str]) -> list[str]: ...

# --- Almost Stochastic Order
TAG_ASO: int

def aso_bootstrap(
    systems: list[_F64],
    names: list[str],
    pairs: list[tuple[int, int]],
    dt: float,
    seed: int,
    n_resamples: int,
    threads: int,
    keep: bool = False,
    progress: _Progress = None,
    stream: int = 2,
) -> tuple[list[float], list[int], list[float], list[float], _F64 | None]: ...
def aso_grid(dt: float) -> _F64: ...
def aso_violation_ratio(a: _F64, b: _F64, dt: float) -> float: ...

# --- item-level statistics and meta-evaluation
TAG_META_BOOT: int
TAG_META_PERM: int

def item_statistic(name: str, params: Mapping[str, float], x: _F64, y: _F64 | None = None) -> float: ...
def item_bootstrap_values(
    data: _F64,
    name: str,
    params: Mapping[str, float],
    seed: int,
    start: int,
    count: int,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
    stream: int = 2,
) -> _F64: ...
def item_permutation_values(
    data: _F64,
    name: str,
    params: Mapping[str, float],
    seed: int,
    start: int,
    count: int,
    exact: bool,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
) -> _F64: ...
def item_indices(n: int, seed: int, start: int, count: int, sub: int = 0, stream: int = 2) -> npt.NDArray[np.int64]: ...
def swap_masks(
    n: int, seed: int, start: int, count: int, exact: bool = False, stream: int = 2
) -> npt.NDArray[np.bool_]: ...
def tie_calibration(x: _F64, y: _F64, group: npt.NDArray[np.int64]) -> tuple[float, float]: ...
def meta_observed(human: _F64, metrics: _F64, level: str, name: str, params: Mapping[str, float]) -> _F64: ...
def meta_bootstrap_intervals(
    human: _F64,
    metrics: _F64,
    level: str,
    name: str,
    params: Mapping[str, float],
    scheme: str,
    seed: int,
    count: int,
    confidence: float,
    threads: int,
    keep: bool = False,
    drop_empty: bool = True,
    progress: _Progress = None,
    stream: int = 2,
) -> tuple[list[tuple[float, float]], list[int], list[tuple[float, float]], list[int], _F64 | None, int]: ...
def meta_permutation(
    human: _F64,
    metrics: _F64,
    level: str,
    name: str,
    params: Mapping[str, float],
    scheme: str,
    pairs: list[tuple[int, int]],
    seed: int,
    n_resamples: int,
    alternative: str,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
) -> tuple[_F64, npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...
def williams_t(r12: float, r13: float, r23: float, n: int) -> float: ...

# cluster resampling (crate::engine::clusters); `clusters`: uint32 codes 0..G-1, one per item
_U32 = npt.NDArray[np.uint32]

def cluster_sums(data: _F64, clusters: _U32) -> tuple[_F64, npt.NDArray[np.uint64]]: ...
def cluster_bootstrap_values(
    data: _F64,
    clusters: _U32,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    start: int,
    count: int,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
    stream: int = 2,
) -> _F64: ...
def cluster_bootstrap_sums(
    data: _F64,
    clusters: _U32,
    seed: int,
    start: int,
    count: int,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
    stream: int = 2,
) -> tuple[_F64, _F64]: ...
def cluster_permutation_values(
    data: _F64,
    clusters: _U32,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    start: int,
    count: int,
    exact: bool,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
) -> _F64: ...
def cluster_item_bootstrap_values(
    data: _F64,
    clusters: _U32,
    name: str,
    params: Mapping[str, float],
    seed: int,
    start: int,
    count: int,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
    stream: int = 2,
) -> _F64: ...
def cluster_item_permutation_values(
    data: _F64,
    clusters: _U32,
    name: str,
    params: Mapping[str, float],
    seed: int,
    start: int,
    count: int,
    exact: bool,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
) -> _F64: ...
def stream_cluster_bootstrap(
    summary: Summary,
    data: _F64,
    clusters: _U32,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    threads: int,
    progress: _Progress = None,
    sub: int = 0,
    stream: int = 2,
) -> None: ...
def stream_cluster_permutation(
    summary: Summary,
    data: _F64,
    clusters: _U32,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    exact: bool,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
) -> None: ...
def cluster_pairwise_shard(
    data: _F64,
    clusters: _U32,
    metric: str,
    params: Mapping[str, object] | None,
    seed: int,
    sub: int,
    start: int,
    stop: int,
    observed: list[float],
    variant: str,
    alternative: str,
    orient: float,
    means: list[float] | None,
    threads: int,
    progress: _Progress = None,
    stream: int = 2,
) -> tuple[npt.NDArray[np.uint64], _F64]: ...
def cluster_draws(
    n_clusters: int, seed: int, start: int, count: int, sub: int = 0, stream: int = 2
) -> npt.NDArray[np.int64]: ...

# Bradley–Terry on a count table (crate::battles); cells: a, b (model indices), outcome (0 a wins, 1 b wins,
# 2 tie), cluster code, Σw, Σw²
def battles_fit(
    a: npt.NDArray[np.uint32],
    b: npt.NDArray[np.uint32],
    outcome: npt.NDArray[np.uint8],
    cluster: npt.NDArray[np.uint32],
    w: _F64,
    w2: _F64,
    n_models: int,
    ties: str,
    ridge: float = 0.0,
    crit: float = 1.920729410347062,
    anchor: int | None = None,
) -> dict[str, Any]: ...
