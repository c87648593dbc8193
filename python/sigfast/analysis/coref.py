"""Coreference mentions classed by their antecedents (Tuggener 2017, Sect. 5; Table 8).

Input: CoNLL-2012 files (``#begin document (NAME); part NNN`` … ``#end
document``, whitespace-separated columns, word form in column 4, POS in
column 5, coreference in the last column: ``(12``, ``12)``, ``(12)``,
``-``, several joined by ``|``). Key and responses must hold the same
documents with the same words (else :class:`FormatError`).

Mentions are ordered by (sentence, first word, last word). A mention is
*nominal* if it spans several words or its POS is a noun tag (``NN``,
``NNS``, ``NNP``, ``NNPS`` by default); a *pronoun* if it is one word with
a pronoun tag (``PRP``, ``PRP$``). A mention is *anaphoric* in a partition if
an earlier mention of its chain exists (singletons never are).

Every key mention that is anaphoric in the key is classed for a response:

* ``FN`` — the response does not have it, or has it first in its chain;
* otherwise, criterion ``"any"``: ``TP`` if any of its response antecedents
  is one of its key antecedents, else ``WL`` (wrong linkage);
* criterion ``"nominal"`` (closest nominal antecedent): key chains without
  a nominal mention, and key mentions with no nominal key antecedent
  (cataphora), are left out; ``TP`` if the *closest* nominal response
  antecedent is one of its key antecedents, ``WL`` if it is not, ``FN`` if
  the response gives it no nominal antecedent.

A response mention that is anaphoric in the response (under ``"nominal"``:
with a nominal response antecedent) but not in the key (absent, or first of
its key chain) is ``FP`` for that response; where the other response does
not resolve it, it is ``TN`` there.

ARCS scores (Tuggener 2014) of one response derive from its classes:
precision = TP / (TP + WL + FP), recall = TP / (TP + WL + FN), F1 their
harmonic mean (a wrong linkage is an error of both precision and recall);
:func:`arcs` gives them, :class:`CorefDiffResult` both responses' (``arcs1``,
``arcs2``; Tuggener 2017, Table 7).

:func:`coref_oracle` gives, for several responses, the recall of each and
its upper bound, the share of classed key mentions that at least one
response resolves correctly (``TP``), overall and by mention type: nouns
(several words, or a noun tag), and single-word mentions by their POS tag
(``PRP``, ``PRP$``, ...; Tuggener 2017, Table 11).

The diff of two responses counts, over these mentions, the transitions
S1 → S2: corrections (an error → ``TP``, ``FP`` → ``TN``), new errors
(``TP`` → an error, ``TN`` → ``FP``) and changed errors (``WL`` ↔ ``FN``),
overall and by mention type (the pronoun's lower-cased form, or
``NOUN`` for nominal and other mentions).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from .._api import checked_keywords
from ..exceptions import InputError
from ..formats.conll2012 import (
    CLASSES,
    NOUN_TAGS,
    PRONOUN_TAGS,
    CorefDoc,
    Mention,
    check_docs,
    classify_mentions,
    read_conll2012,
)
from ..formats.conll2012 import is_nominal as _is_nominal
from ..results.base import Key, Result
from ..results.signature import build

__all__ = [
    "ArcsScores",
    "CorefDiffResult",
    "CorefOracleResult",
    "arcs",
    "classify_mentions",
    "coref_diff",
    "coref_oracle",
    "read_conll2012",
]

_CDoc = CorefDoc
_check_docs = check_docs


def _mtype(doc: _CDoc, m: Mention, pron_tags: tuple[str, ...]) -> str:
    s, a, b = m
    if a == b and doc.words[s][a][1] in pron_tags:
        return doc.words[s][a][0].lower()
    return "NOUN"


@dataclass(frozen=True)
class ArcsScores:
    """ARCS counts of one response and the scores they give (Tuggener 2014)."""

    criterion: str
    tp: int
    wl: int
    fn: int
    fp: int

    @property
    def precision(self) -> float:
        d = self.tp + self.wl + self.fp
        return self.tp / d if d else 0.0

    @property
    def recall(self) -> float:
        d = self.tp + self.wl + self.fn
        return self.tp / d if d else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float:
        """TP / (TP + WL): resolution over the key mentions the response resolves (ARCS' ``Acc``)."""
        d = self.tp + self.wl
        return self.tp / d if d else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "accuracy": self.accuracy,
        }

    @classmethod
    def from_counts(cls, criterion: str, counts: dict[str, int]) -> ArcsScores:
        return cls(criterion, *(int(counts.get(c, 0)) for c in ("TP", "WL", "FN", "FP")))


@dataclass(frozen=True)
class CorefDiffResult(Result):
    criterion: str
    system1: str
    system2: str
    classes: tuple[str, ...]
    counts1: dict[str, int]
    counts2: dict[str, int]
    transitions: dict[str, int]
    by_type: dict[str, dict[str, int]]
    n_mentions: int
    n_differ: int
    corrections: int
    new_errors: int
    changed_errors: int

    _extra = ("share_differ", "arcs1", "arcs2")

    @property
    def share_differ(self) -> float:
        return self.n_differ / self.n_mentions if self.n_mentions else float("nan")

    @property
    def arcs1(self) -> ArcsScores:
        """ARCS precision / recall / F1 of response 1 (its TP, WL, FN, FP do not depend on response 2)."""
        return ArcsScores.from_counts(self.criterion, self.counts1)

    @property
    def arcs2(self) -> ArcsScores:
        return ArcsScores.from_counts(self.criterion, self.counts2)

    @property
    def signature(self) -> str:
        """The criterion, the two responses and a hash of every mention's class transition (the
        result is a function of them)."""
        return build(
            "coref_diff",
            variant=self.criterion,
            systems=[self.system1, self.system2],
            items=self.n_mentions,
            data=[self.transitions, self.by_type],
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per transition (class in response 1 -> class in response 2) with its count."""
        return [
            {
                "criterion": self.criterion,
                "system1": self.system1,
                "system2": self.system2,
                "from": a,
                "to": b,
                "count": self.transitions.get(f"{a}->{b}", 0),
                "signature": self.signature,
            }
            for a in self.classes
            for b in self.classes
        ]

    def _report(self, style: str) -> str:
        from .diff import _signed
        from .report import format_coref_diff

        return _signed(format_coref_diff(self, style), self.signature, style)


@checked_keywords
def coref_diff(
    key: Any,
    response1: Any,
    response2: Any,
    *,
    criterion: str = "any",
    names: tuple[str, str] | None = None,
    noun_tags: tuple[str, ...] = NOUN_TAGS,
    pronoun_tags: tuple[str, ...] = PRONOUN_TAGS,
) -> CorefDiffResult:
    """Class every mention for two responses and count the transitions (Tuggener 2017, Table 8)."""
    kd, kn = read_conll2012(key, "key")
    r1, n1 = read_conll2012(response1, "response")
    r2, n2 = read_conll2012(response2, "response")
    _check_docs(kd, kn, r1, n1)
    _check_docs(kd, kn, r2, n2)
    names = names or (str(response1), str(response2))
    c1: Counter = Counter()
    c2: Counter = Counter()
    tr: Counter = Counter()
    by_type: dict[str, Counter] = defaultdict(Counter)
    good = {"TP", "TN"}
    cor = new = chg = total = 0
    for k, a, b in zip(kd, r1, r2):
        x = classify_mentions(k, a, criterion, noun_tags)
        y = classify_mentions(k, b, criterion, noun_tags)
        for m in sorted(set(x) | set(y)):
            p, q = x.get(m, "TN"), y.get(m, "TN")
            total += 1
            c1[p] += 1
            c2[q] += 1
            t = f"{p}->{q}"
            tr[t] += 1
            if p != q:
                doc = k if m in x and p != "FP" else (a if m in x else b)
                by_type[_mtype(doc, m, pronoun_tags)][t] += 1
                if p not in good and q in good:
                    cor += 1
                elif p in good and q not in good:
                    new += 1
                else:
                    chg += 1
    return CorefDiffResult(
        criterion=criterion,
        system1=names[0],
        system2=names[1],
        classes=CLASSES,
        counts1=dict(c1),
        counts2=dict(c2),
        transitions=dict(tr),
        by_type={t: dict(v) for t, v in sorted(by_type.items())},
        n_mentions=total,
        n_differ=cor + new + chg,
        corrections=cor,
        new_errors=new,
        changed_errors=chg,
    )


def _read_all(key: Any, responses: list[Any]) -> tuple[list[_CDoc], list[list[_CDoc]]]:
    kd, kn = read_conll2012(key, "key")
    out = []
    for r in responses:
        rd, rn = read_conll2012(r, "response")
        _check_docs(kd, kn, rd, rn)
        out.append(rd)
    return kd, out


def arcs(key: Any, response: Any, *, criterion: str = "any", noun_tags: tuple[str, ...] = NOUN_TAGS) -> ArcsScores:
    """ARCS counts and precision / recall / F1 of one response (Tuggener 2014; see the module docstring)."""
    kd, (rd,) = _read_all(key, [response])
    c: Counter = Counter()
    for k, r in zip(kd, rd):
        c.update(classify_mentions(k, r, criterion, noun_tags).values())
    return ArcsScores.from_counts(criterion, c)


def _key_type(doc: _CDoc, m: Mention, noun_tags: tuple[str, ...]) -> str:
    """``NOUN`` for nominal mentions, else the single word's POS tag."""
    s, a, _b = m
    return "NOUN" if _is_nominal(doc, m, noun_tags) else doc.words[s][a][1]


_TYPE_LABELS = {"all": "Overall", "NOUN": "Nouns"}


@dataclass(frozen=True)
class CorefOracleResult(Result):
    """Per mention type: (type, classed key mentions, TP of each response, mentions some response gets
    right); the first row is ``all``, then ``NOUN``, ``PRP``, ``PRP$``, then other types by count."""

    criterion: str
    names: tuple[str, ...]
    rows: tuple[tuple[str, int, tuple[int, ...], int], ...]
    noun_tags: tuple[str, ...] = NOUN_TAGS

    _keys = ("criterion", "names", "noun_tags", Key("rows", "type_records"), "signature")

    @staticmethod
    def type_label(t: str) -> str:
        return _TYPE_LABELS.get(t, t)

    def row(self, mention_type: str) -> tuple[str, int, tuple[int, ...], int]:
        for r in self.rows:
            if r[0] == mention_type:
                return r
        raise InputError(f"no key mention of type {mention_type!r}; types: {', '.join(r[0] for r in self.rows)}")

    def recall(self, mention_type: str = "all") -> dict[str, float]:
        _t, n, tps, _u = self.row(mention_type)
        return {k: (t / n if n else float("nan")) for k, t in zip(self.names, tps)}

    def upper_bound(self, mention_type: str = "all") -> float:
        _t, n, _tps, u = self.row(mention_type)
        return u / n if n else float("nan")

    def type_records(self) -> list[dict[str, Any]]:
        """Per mention type: the key mentions, each response's TP and recall, and the upper bound (the
        ``rows`` of :meth:`to_dict`)."""
        return [
            {
                "type": t,
                "mentions": n,
                "tp": dict(zip(self.names, tps)),
                "recall": {k: (v / n if n else None) for k, v in zip(self.names, tps)},
                "upper_bound_tp": u,
                "upper_bound": u / n if n else None,
            }
            for t, n, tps, u in self.rows
        ]

    @property
    def signature(self) -> str:
        """The criterion, the responses, the noun tags and a hash of the per-type counts."""
        return build(
            "coref_oracle",
            variant=self.criterion,
            systems=list(self.names),
            noun_tags=list(self.noun_tags),
            data=[list(r) for r in self.rows],
        )

    def to_rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per (mention type, response), the upper bound as response "upper bound" (the
        protocol's ``rows()``: this result's field ``rows`` holds the per-type counts)."""
        out = []
        for t, n, tps, u in self.rows:
            for name, tp in [*zip(self.names, tps), ("upper bound", u)]:
                out.append(
                    {
                        "type": t,
                        "system": name,
                        "mentions": n,
                        "tp": tp,
                        "recall": tp / n if n else None,
                        "criterion": self.criterion,
                        "signature": self.signature,
                    }
                )
        return out

    def _report(self, style: str) -> str:
        from .diff import _signed
        from .report import format_coref_oracle

        return _signed(format_coref_oracle(self, style), self.signature, style)


def coref_oracle(
    key: Any,
    responses: Any,
    *,
    criterion: str = "nominal",
    names: Any = None,
    noun_tags: tuple[str, ...] = NOUN_TAGS,
) -> CorefOracleResult:
    """Recall of each response and the upper bound of all of them, by mention type (Tuggener 2017,
    Table 11: criterion ``"nominal"``, types nouns / PRP / PRP$). Every key mention that is classed
    (anaphoric in the key; under ``"nominal"`` with a nominal key antecedent) counts once; it is in
    the upper bound if at least one response classes it ``TP``."""
    from ..formats import named_systems

    if criterion not in ("any", "nominal"):
        raise InputError(f"criterion must be 'any' or 'nominal', not {criterion!r}")
    sys_names, paths = named_systems(responses, names)
    if not paths:
        raise InputError("give at least one response")
    kd, rds = _read_all(key, list(paths))
    total: dict[str, list[int]] = defaultdict(lambda: [0] * (len(paths) + 2))  # mentions, TP..., any TP
    for d, k in enumerate(kd):
        classes = [classify_mentions(k, rd[d], criterion, noun_tags) for rd in rds]
        mentions = sorted({m for c in classes for m, v in c.items() if v != "FP"})
        for m in mentions:
            t = _key_type(k, m, noun_tags)
            hits = [c.get(m) == "TP" for c in classes]
            for ty in ("all", t):
                row = total[ty]
                row[0] += 1
                for j, h in enumerate(hits):
                    row[1 + j] += h
                row[-1] += any(hits)
    head = ["all", "NOUN", "PRP", "PRP$"]
    rest = sorted((t for t in total if t not in head), key=lambda t: (-total[t][0], t))
    rows = tuple((t, total[t][0], tuple(total[t][1:-1]), total[t][-1]) for t in head + rest if t in total or t == "all")
    if not rows:
        rows = (("all", 0, tuple(0 for _ in paths), 0),)
    return CorefOracleResult(criterion=criterion, names=tuple(sys_names), rows=rows, noun_tags=tuple(noun_tags))
