"""Paired significance tests of two systems on the same items.

Both tests draw every resample from a counter-based stream keyed by
(seed, resample index), so one seed gives the same bytes for any thread count.
They are front-ends: each builds one :class:`~sigfast.executor.Request` and
hands it to :func:`sigfast.executor.run`.
"""

from __future__ import annotations

from typing import Any, Literal

from ._api import checked_keywords
from ._options import DEFAULT_CONFIDENCE
from ._options import MAX_RESAMPLES as MAX_RESAMPLES
from ._progress import ProgressArg
from .executor import _NATIVE_VARIANT as _NATIVE_VARIANT
from .executor import _VARIANTS as _VARIANTS
from .executor import DEFAULT_PERMUTATIONS as DEFAULT_PERMUTATIONS
from .executor import DEFAULT_RESAMPLES, DEFAULT_SEED, ask, run
from .executor import MIN_ITEMS as MIN_ITEMS
from .executor import VARIANTS as VARIANTS
from .executor import few_items_warning as few_items_warning
from .executor import resolve_variant as resolve_variant
from .results import PairedTestResult

__all__ = ["DEFAULT_RESAMPLES", "DEFAULT_SEED", "paired_bootstrap", "permutation_test"]


@checked_keywords
def paired_bootstrap(
    x: Any,
    y: Any = None,
    *,
    metric: Any = None,
    systems: tuple[Any, Any] | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    variant: Literal["bk", "koehn", "shifted", "sacrebleu", "moses"] = "bk",
    alternative: Literal["two-sided", "greater", "less"] | None = None,
    confidence_level: float = DEFAULT_CONFIDENCE,
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    resampling: Literal["auto", "items", "distinct", "clusters", "two-level", "crossed"] = "auto",
    clusters: Any = None,
    nan_policy: Literal["raise", "omit"] = "raise",
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
    draws: Literal["sigfast", "sacrebleu"] = "sigfast",
    **metric_params: Any,
) -> PairedTestResult:
    """Paired bootstrap test of system ``y`` against baseline ``x``.

    Parameters
    ----------
    x, y
        Per-item scores (1-D) or per-item sufficient statistics (items ×
        statistics) of the baseline and the candidate; or ``x`` is a
        :class:`~sigfast.Statistics` and ``systems`` names the two systems.
    metric
        A built-in metric name (``"f1"``, ``"bleu"``, ...), a
        :class:`~sigfast.metrics.Metric`, or a callable on summed statistics
        called as :func:`sigfast.metrics.custom` documents (one array per
        statistic: ``f(tp, guessed, gold)``, one value per resample). Default:
        the statistics' own metric, or the mean of 1-D scores.
    n_resamples
        Bootstrap resamples B (default 10^6; a whole number from 1 to 2^40). They
        stream through in chunks: memory does not grow with B.
    seed
        Key of the counter-based random stream (0 ≤ seed < 2^64). The same
        seed gives the same result for any ``n_threads``.
    variant
        ``"bk"``: Berg-Kirkpatrick et al. (2012), p = share of resamples with
        δ* > 2δ, one-sided in the direction of the observed δ.
        ``"koehn"``: Koehn (2004), share of resamples that the observed
        winner does not win. ``"shifted"``: Moses / sacrebleu,
        |δ* − mean(δ*)| ≥ |δ| (two-sided by default).
    alternative
        Only for ``"shifted"``: ``"two-sided"``, ``"greater"`` or ``"less"``.
    pvalue
        ``"plus_one"``: (c + 1)/(B + 1), never 0 (default); ``"raw"``: c/B.
    resampling
        ``"items"`` draws n indices per resample; ``"distinct"`` draws
        multinomial counts over distinct statistic rows (the same
        distribution at a cost that follows distinct rows); ``"auto"`` uses
        distinct rows when there are at most n/32 of them, or whole clusters when the
        statistics carry cluster keys (``"clusters"``: see ``clusters``).
        ``"two-level"`` draws items, then each drawn item's samples (repeats, epochs,
        runs) with replacement; ``"crossed"`` draws items and prompts independently and
        weights a cell by the product of their counts. Both resample the per-sample scores
        the readers keep (:mod:`sigfast.designs`); the signature records
        ``resampling:two-level(G,K,field)`` or ``crossed(G,P,field)``.
    clusters
        One cluster key per item (a document, a passage, a question pair): each resample draws
        G whole clusters (with replacement) instead of n items, paired across the two systems,
        and the metric sees the drawn clusters' items (a mean divides by their count). Default:
        the statistics' own keys (``Statistics.provenance["clusters"]``, which the LLM log
        readers fill from ``-o cluster=FIELD``), unless ``resampling="items"``. The signature
        records ``resampling:clusters(G,field)`` and hashes the assignment with the data.
    nan_policy
        Resamples on which the metric is undefined (an item statistic of constant
        values, a callable returning NaN): ``"raise"`` (default) stops with an error;
        ``"omit"`` drops them, uses the others for the p-value and intervals and
        reports how many it kept (``n_valid``, and a line in ``warnings``).
    stream
        The random stream version (``None``: the default, 2). Every version stays
        selectable: ``stream=1`` reproduces results whose signature says
        ``stream:...v1`` (sigfast before stream version 2), bit for bit.
    draws
        Where the resampled items come from: ``"sigfast"`` (default), sigfast's own
        counter-based stream; ``"sacrebleu"``, sacrebleu 2.x's draws
        (``numpy.random.default_rng(seed).choice(n, size=(B, n))``; sacrebleu's default seed is
        sigfast's, :data:`DEFAULT_SEED`, unless ``SACREBLEU_SEED`` says otherwise: pass that as ``seed``). With
        ``variant="sacrebleu"`` and ``n_resamples=1000`` it gives sacrebleu's own
        ``--paired-bs`` p-value. Metrics on summed statistics only.
    progress
        None (a bar on a terminal for long runs), True, False, or a callable
        ``(done, total)`` called about ten times a second.
    **metric_params
        Parameters of a named metric, e.g. ``beta=0.5`` or ``smooth="floor"``.

    Returns
    -------
    PairedTestResult
        ``statistic`` (δ = metric(y) − metric(x)), ``pvalue``,
        ``confidence_interval`` (percentile interval of δ*), each system's
        score and interval, and the test's full description.
    """
    req = ask("paired", locals(), test="bootstrap")
    result: PairedTestResult = run(req, progress)
    return result


@checked_keywords
def permutation_test(
    x: Any,
    y: Any = None,
    *,
    metric: Any = None,
    systems: tuple[Any, Any] | None = None,
    method: Literal["approximate", "exact", "auto"] = "auto",
    n_resamples: int = DEFAULT_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    clusters: Any = None,
    nan_policy: Literal["raise", "omit"] = "raise",
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_distribution: bool = False,
    **metric_params: Any,
) -> PairedTestResult:
    """Paired permutation test: swap the two systems' statistics item by item.

    ``method="approximate"`` (approximate randomization) swaps each item with
    probability 1/2 in each of ``n_resamples`` resamples and reports
    (c + 1)/(B + 1) (or c/B with ``pvalue="raw"``); ``"exact"`` enumerates all
    2^n arrangements (n ≤ 20 by default of ``"auto"``, at most 26) and reports
    the exact share c/2^n, which counts the observed arrangement and so is
    never 0. ``alternative`` refers to δ = metric(y) − metric(x). Resampled
    δ within 100 ulps of the observed δ count as ties (as in scipy).

    ``clusters`` (one key per item; default: the statistics' own, see
    :func:`paired_bootstrap`) swaps whole clusters: every item of a swapped cluster
    trades its two systems' statistics, and ``"exact"``/``"auto"`` count clusters
    (all 2^G arrangements for G ≤ 20 clusters under ``"auto"``).

    Other parameters are as in :func:`paired_bootstrap`. Results on fewer than
    ``MIN_ITEMS`` (10) items carry a warning in ``warnings``.
    """
    req = ask("paired", locals(), test="permutation")
    result: PairedTestResult = run(req, progress)
    return result
