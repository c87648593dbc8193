"""Agreement between systems: Krippendorff's α (nominal), per sentence and over the corpus.

Coders are the systems (gold is not a coder unless ``include_gold=True``);
units are the units of :class:`~.units.Units` (words, tokens, spans); a
label ``∅`` (an unaligned word) is a missing value. With ``m_u`` values in
unit ``u`` and ``n_uc`` of them equal to ``c``, only units with
``m_u ≥ 2`` are pairable, and

    α = 1 − (n − 1) · Σ_u (m_u² − Σ_c n_uc²) / (m_u − 1)  /  (n² − Σ_c n_c²)

with ``n_c = Σ_u n_uc`` and ``n = Σ_c n_c`` over pairable units
(Krippendorff 2011, "Computing Krippendorff's alpha-reliability", the
coincidence-matrix form). α is undefined (``nan``) when there is no
pairable unit or every pairable value is the same category (expected
disagreement 0); such sentences are never among the lowest, nor are
sentences with fewer than ``min_units`` units (default 2: a one-unit
sentence always has α = 0 when its values differ at all). Sentences are
ranked by α, ties by sentence order (Gorman & Bedrick 2019, Table 4).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._api import checked_keywords
from ..exceptions import InputError
from ..results.base import Result
from ..results.signature import build
from .units import MISSING, Units

__all__ = ["AgreementResult", "SentenceView", "agreement", "agreement_units", "krippendorff_alpha"]


def _codes(rows: Sequence[np.ndarray], missing: Any) -> np.ndarray:
    table: dict[Any, int] = {}
    out = np.full((len(rows), len(rows[0]) if rows else 0), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            if v is None or v == missing or (isinstance(v, float) and math.isnan(v)):
                continue
            out[i, j] = table.setdefault(v, len(table))
    return out


def _alpha_parts(codes: np.ndarray, group: np.ndarray | None = None, n_groups: int = 1):
    """Per group: (Σ_u pairable disagreement / (m_u−1), n, Σ_c n_c²)."""
    K = int(codes.max()) + 1 if codes.size and codes.max() >= 0 else 1
    n_units = codes.shape[1]
    if group is None:
        group = np.zeros(n_units, dtype=np.int64)
    counts = np.zeros((n_units, K), dtype=np.int64)
    for row in codes:
        ok = row >= 0
        np.add.at(counts, (np.nonzero(ok)[0], row[ok]), 1)
    m = counts.sum(1)
    pair = m >= 2
    dis = np.zeros(n_units)
    dis[pair] = (m[pair] ** 2 - (counts[pair] ** 2).sum(1)) / (m[pair] - 1)
    D = np.bincount(group[pair], weights=dis[pair], minlength=n_groups)
    n = np.bincount(group[pair], weights=m[pair], minlength=n_groups)
    nc = np.zeros((n_groups, K))
    np.add.at(nc, group[pair], counts[pair])
    return D, n, (nc**2).sum(1)


def _alpha_from(D: float, n: float, snc2: float) -> float:
    denom = n * n - snc2
    if n < 2 or denom <= 0:
        return float("nan")
    return float(1.0 - (n - 1) * D / denom)


@checked_keywords
def krippendorff_alpha(data: Any, missing: Any = None) -> float:
    """Nominal Krippendorff's α of ``data`` (coders × units; any hashable labels).

    ``None``, ``nan`` and ``missing`` are missing values.
    """
    rows = [np.asarray(r, dtype=object) for r in data]
    if not rows or len({len(r) for r in rows}) != 1:
        raise InputError("data must be a non-empty coders × units table")
    codes = _codes(rows, missing)
    D, n, s = _alpha_parts(codes)
    return _alpha_from(D[0], n[0], s[0])


@dataclass(frozen=True)
class SentenceView:
    """One sentence: its α, its units' forms, gold labels and each system's labels."""

    sentence: int
    sentence_id: str
    alpha: float
    forms: tuple[str, ...]
    gold: tuple[str, ...]
    systems: tuple[tuple[str, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sentence": self.sentence,
            "sentence_id": self.sentence_id,
            "alpha": None if math.isnan(self.alpha) else self.alpha,
            "forms": list(self.forms),
            "gold": list(self.gold),
            "systems": [list(s) for s in self.systems],
        }


@dataclass(frozen=True)
class AgreementResult(Result):
    view: str
    names: tuple[str, ...]
    include_gold: bool
    corpus_alpha: float
    sentence_alpha: tuple[float, ...]
    lowest: tuple[SentenceView, ...]
    note: str = ""
    #: what produced the result (:func:`sigfast.signature.build`): format and options, view, alignment,
    #: systems, unit count and a hash of the labels
    signature: str = ""

    _keys = (
        *("view", "names", "include_gold", "corpus_alpha", "mean_sentence_alpha", "n_sentences", "n_undefined"),
        *("sentence_alpha", "lowest", "note", "signature"),
    )

    @property
    def n_sentences(self) -> int:
        return len(self.sentence_alpha)

    @property
    def mean_sentence_alpha(self) -> float:
        a = np.array(self.sentence_alpha, dtype=float)
        a = a[~np.isnan(a)]
        return float(a.mean()) if a.size else float("nan")

    @property
    def n_undefined(self) -> int:
        return int(np.isnan(np.array(self.sentence_alpha, dtype=float)).sum())

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per sentence: its α (empty where undefined) beside the corpus α."""
        return [
            {
                "sentence": k + 1,
                "alpha": None if math.isnan(a) else a,
                "corpus_alpha": self.corpus_alpha,
                "view": self.view,
                "include_gold": self.include_gold,
                "note": self.note,
                "signature": self.signature,
            }
            for k, a in enumerate(self.sentence_alpha)
        ]

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{len(self.names)} systems, {self.view}",
            {"corpus_alpha": f"{self.corpus_alpha:.4f}", "include_gold": self.include_gold},
        )

    def _report(self, style: str) -> str:
        from .diff import _signed
        from .report import format_agreement

        return _signed(format_agreement(self, style), self.signature, style)


def agreement_units(
    units: Units, *, lowest: int = 5, include_gold: bool = False, min_units: int = 2, note: str = ""
) -> AgreementResult:
    rows = list(units.systems) + ([units.gold] if include_gold else [])
    if len(rows) < 2:
        raise InputError("agreement needs at least two coders (systems, or one system with include_gold=True)")
    codes = _codes(rows, MISSING)
    D, n, s = _alpha_parts(codes)
    corpus = _alpha_from(D[0], n[0], s[0])
    S = units.n_sentences
    Ds, ns, ss = _alpha_parts(codes, units.sentence.astype(np.int64), S)
    per = tuple(_alpha_from(Ds[k], ns[k], ss[k]) for k in range(S))
    size = np.bincount(units.sentence.astype(np.int64), minlength=S)
    order = sorted((a, k) for k, a in enumerate(per) if not math.isnan(a) and size[k] >= min_units)[: max(0, lowest)]
    views = []
    for a, k in order:
        m = units.sentence == k
        idx = np.nonzero(m)[0]
        views.append(
            SentenceView(
                sentence=k,
                sentence_id=units.sentence_label(k),
                alpha=a,
                forms=tuple(units.forms[i] for i in idx),
                gold=tuple(units.gold[idx]),
                systems=tuple(tuple(sy[idx]) for sy in units.systems),
            )
        )
    return AgreementResult(
        view=units.view,
        names=units.names,
        include_gold=include_gold,
        corpus_alpha=corpus,
        sentence_alpha=per,
        lowest=tuple(views),
        note=note,
        signature=build("agreement", units=units, variant="gold" if include_gold else None, note=note or None),
    )


@checked_keywords
def agreement(
    gold: Any,
    systems: Sequence[Any],
    *,
    lowest: int = 5,
    include_gold: bool = False,
    min_units: int = 2,
    names: Sequence[str] | None = None,
    no_punct: bool = False,
    **read_options: Any,
) -> AgreementResult:
    """Krippendorff's α across system files (or label lists), with the lowest-α sentences;
    ``no_punct=True`` leaves out units whose gold word is punctuation."""
    from .units import load_units

    u, note = load_units(gold, systems, names, no_punct, read_options)
    return agreement_units(u, lowest=lowest, include_gold=include_gold, min_units=min_units, note=note)
