"""Look inside a difference: error transitions, oracle upper bounds and agreement.

A significance test says *whether* two systems differ; these functions say
*what* changed (Tuggener 2017; Gorman & Bedrick 2019):

* :func:`diff` — units labeled differently by S1 and S2, split into
  corrections, new errors and changed errors, with the top transitions and
  a per-label accuracy table;
* :func:`oracle` — the upper bound of N systems (a unit is right if any
  system gets it right) and its gain over the best one; :func:`pairwise` —
  the share of differing units beside Δaccuracy for every pair;
* :func:`agreement` — Krippendorff's α (nominal) per sentence and over the
  corpus, with the lowest-α sentences; :func:`krippendorff_alpha`;
* :func:`coref_diff` — coreference mentions classed TP / FP / FN / WL under
  the "any" and "nominal" antecedent criteria, their transitions and each
  response's ARCS precision / recall / F1 (:func:`arcs`);
  :func:`coref_oracle` — each response's ARCS recall and the upper bound of
  several, by mention type (nouns, PRP, PRP$).

``no_punct=True`` (``--no-punct``) leaves out units whose gold word is
punctuation, by each format scorer's own rule (:data:`PUNCT_RULES`).

Files are read by :func:`read_units` (CoNLL-U / CoNLL-X words, BIO tags and
spans); see :mod:`sigfast.analysis.units` for views and alignment.
"""

from .._api import checked_module
from .agreement import AgreementResult, agreement, agreement_units, krippendorff_alpha
from .coref import (
    ArcsScores,
    CorefDiffResult,
    CorefOracleResult,
    arcs,
    classify_mentions,
    coref_diff,
    coref_oracle,
    read_conll2012,
)
from .diff import DiffResult, LabelAccuracy, PairwiseDiffResult, diff, diff_units, label_accuracy, pairwise
from .oracle import OracleResult, oracle, oracle_units
from .report import format_result
from .units import (
    MISSING,
    PUNCT_RULES,
    Units,
    exact_sentences,
    punct_mask,
    read_units,
    units_from_labels,
    without_punct,
)

__all__ = [
    "MISSING",
    "PUNCT_RULES",
    "AgreementResult",
    "ArcsScores",
    "CorefDiffResult",
    "CorefOracleResult",
    "DiffResult",
    "LabelAccuracy",
    "OracleResult",
    "PairwiseDiffResult",
    "Units",
    "agreement",
    "agreement_units",
    "arcs",
    "classify_mentions",
    "coref_diff",
    "coref_oracle",
    "diff",
    "diff_units",
    "exact_sentences",
    "format_result",
    "krippendorff_alpha",
    "label_accuracy",
    "oracle",
    "oracle_units",
    "pairwise",
    "punct_mask",
    "read_conll2012",
    "read_units",
    "units_from_labels",
    "without_punct",
]


def __getattr__(name: str) -> object:
    if name == "PairwiseResult":  # the old name of PairwiseDiffResult (sigfast.PairwiseResult is the pairwise test)
        from . import diff as _diff

        return _diff.__getattr__(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


checked_module(globals())  # every exported function checks its keywords and simple types
