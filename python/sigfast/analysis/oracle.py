"""Oracle upper bound over N systems.

A unit counts as correct for the oracle if any system labels it correctly.
The oracle accuracy, overall and per gold label, is an upper bound for any
combination (voting, selection) of the systems; ``gain`` is its distance to
the best single system. For span units (view ``spans``) only gold spans
count, so the figure is the oracle *recall*; for character-aligned CoNLL-U
it is recall over gold words (see :mod:`.units`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._api import checked_keywords
from ..exceptions import InputError
from ..results.base import Key, Result, option
from ..results.signature import build
from .units import Units, exact_sentences

__all__ = ["OracleResult", "oracle", "oracle_units"]


@dataclass(frozen=True)
class OracleResult(Result):
    """``accuracy[k]`` of each system, the ``oracle`` accuracy and per-label rows
    (label, count, best single system's correct count on it, oracle correct count).

    ``label_correct[r][k]`` is system k's correct count on the label of row r
    (every system beside the oracle, Tuggener 2017, Tables 9 and 10);
    ``exact[k]`` the sentences all of whose units system k gets right and
    ``oracle_exact`` those all of whose units some system gets right (Tables 3
    and 5), of ``n_sentences``; ``note`` says what was left out of the units.
    """

    view: str
    names: tuple[str, ...]
    n_units: int
    correct: tuple[int, ...]
    oracle_correct: int
    best: str
    labels: tuple[tuple[str, int, int, int], ...]
    only_one: tuple[int, ...]  # units only system k got right
    none_correct: int
    group_name: str = "gold label"
    label_correct: tuple[tuple[int, ...], ...] = ()
    n_sentences: int = 0
    exact: tuple[int, ...] = ()
    oracle_exact: int = 0
    note: str = ""
    #: what produced the result (:func:`sigfast.signature.build`): format and options, view, alignment,
    #: systems, unit count and a hash of the labels
    signature: str = ""
    #: Output options of the text, markdown and LaTeX reports: the per-label rows shown (None: all) and
    #: the systems given a per-label column (``systems`` by name, or the ``top_systems`` most accurate;
    #: text shows at most 8 unless told, the other styles all).
    per_label: int | None = option(None)
    systems: Sequence[str] | None = option(None)
    top_systems: int | None = option(None)

    _keys = (
        *("view", "names", "n_units", Key("correct", "correct_by_system"), "oracle_correct", "best"),
        *(Key("labels", "label_records"), Key("only_one", "only_one_by_system"), "none_correct", "group_name"),
        *("n_sentences", Key("exact", "exact_by_system"), "oracle_exact", "note", "signature"),
        *(Key("accuracy", "accuracy_by_system"), "oracle", "best_accuracy", "gain"),
        *(Key("exact_share", "exact_share_by_system"), "oracle_exact_share"),
    )

    @property
    def accuracy(self) -> tuple[float, ...]:
        return tuple(c / self.n_units if self.n_units else float("nan") for c in self.correct)

    @property
    def oracle(self) -> float:
        return self.oracle_correct / self.n_units if self.n_units else float("nan")

    @property
    def best_accuracy(self) -> float:
        return self.accuracy[self.names.index(self.best)]

    @property
    def gain(self) -> float:
        return self.oracle - self.best_accuracy

    @property
    def exact_share(self) -> tuple[float, ...]:
        """Share of fully correct sentences per system."""
        return tuple(e / self.n_sentences if self.n_sentences else float("nan") for e in self.exact)

    @property
    def oracle_exact_share(self) -> float:
        return self.oracle_exact / self.n_sentences if self.n_sentences else float("nan")

    def label_table(self) -> tuple[tuple[str, int, tuple[int, ...], int], ...]:
        """Per label: (label, count, each system's correct count in ``names`` order, oracle correct)."""
        return tuple((l, n, c, o) for (l, n, _b, o), c in zip(self.labels, self.label_correct))

    def correct_by_system(self) -> dict[str, int]:
        return dict(zip(self.names, self.correct))

    def only_one_by_system(self) -> dict[str, int]:
        return dict(zip(self.names, self.only_one))

    def exact_by_system(self) -> dict[str, int]:
        return dict(zip(self.names, self.exact))

    def accuracy_by_system(self) -> dict[str, float]:
        return dict(zip(self.names, self.accuracy))

    def exact_share_by_system(self) -> dict[str, float]:
        return dict(zip(self.names, self.exact_share))

    def label_records(self) -> list[dict[str, Any]]:
        """Per label: count, the best system's and the oracle's correct units and accuracy, and each
        system's (the ``labels`` of :meth:`to_dict`)."""
        return [
            {
                "label": l,
                "count": n,
                "best_correct": b,
                "oracle_correct": o,
                "best_accuracy": b / n if n else None,
                "oracle_accuracy": o / n if n else None,
                "correct": dict(zip(self.names, c)),
                "accuracy": {k: (v / n if n else None) for k, v in zip(self.names, c)},
            }
            for (l, n, b, o), c in zip(self.labels, self.label_correct)
        ]

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per (label, system): label "(all)" for every unit, "(sentences)" for
        sentences all of whose units are right, then each gold label (or group); system "oracle" for
        the oracle; the count, correct units and accuracy as numbers."""
        common = {"view": self.view, "note": self.note, "signature": self.signature}
        out: list[dict[str, Any]] = []
        per_label = [("(all)", self.n_units, self.correct, self.oracle_correct)]
        if self.n_sentences and len(self.exact) == len(self.names):
            per_label.append(("(sentences)", self.n_sentences, self.exact, self.oracle_exact))
        per_label += [(lab, n, c, o) for (lab, n, _b, o), c in zip(self.labels, self.label_correct)]
        for lab, n, corr, orc in per_label:
            for name, c in [*zip(self.names, corr), ("oracle", orc)]:
                out.append(
                    {"label": lab, "system": name, "count": n, "correct": c, "accuracy": c / n if n else None, **common}
                )
        return out

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{len(self.names)} systems, {self.view}, {self.n_units} units",
            {"best": self.best, "oracle": f"{self.oracle:.4f}", "gain": f"{self.gain:+.4f}"},
        )

    def _report(self, style: str) -> str:
        """The report; the per-label table has a column per system (the options ``systems``, or the
        ``top_systems`` most accurate; text shows at most 8 unless told, the other styles all)."""
        from .diff import _signed
        from .report import format_oracle

        text = format_oracle(self, style, self.per_label, systems=self.systems, top_systems=self.top_systems)
        return _signed(text, self.signature, style)


def oracle_units(units: Units, *, note: str = "") -> OracleResult:
    """The oracle of ``units``; ``note`` says what was left out of them (see
    :func:`~sigfast.analysis.units.without_punct`)."""
    mask = np.ones(units.n_units, bool) if units.gold_present is None else units.gold_present.copy()
    g = units.gold[mask]
    C = np.stack([s[mask] == g for s in units.systems]) if units.systems else np.zeros((0, len(g)), bool)
    if C.shape[0] == 0:
        raise InputError("the oracle needs at least one system")
    correct = C.sum(1)
    best = int(np.argmax(correct))  # first of ties, in the order given
    anyc = np.asarray(C.any(0), dtype=bool)
    ncorr = C.sum(0)
    only = tuple(int(np.sum(C[k] & (ncorr == 1))) for k in range(C.shape[0]))
    grp = g if units.groups is None else units.groups[mask]
    cnt = Counter(grp)
    labels = sorted(cnt, key=lambda x: (-cnt[x], x))
    rows = []
    per_system = []
    best_row = np.asarray(C[best], dtype=bool)
    for lab in labels:
        m = np.asarray(grp == lab, dtype=bool)
        rows.append((lab, int(m.sum()), int(best_row[m].sum()), int(anyc[m].sum())))
        per_system.append(tuple(int(n) for n in C[:, m].sum(1)))
    # sentences: every unit counts, those only some system proposed too (a system that does not
    # propose a gold-absent unit is right about it)
    all_correct = [units.correct(k) for k in range(len(units.systems))]
    any_all = np.logical_or.reduce(all_correct) if all_correct else np.zeros(units.n_units, bool)
    return OracleResult(
        view=units.view,
        names=units.names,
        n_units=int(len(g)),
        correct=tuple(int(c) for c in correct),
        oracle_correct=int(anyc.sum()),
        best=units.names[best],
        labels=tuple(rows),
        only_one=only,
        none_correct=int((~anyc).sum()),
        group_name=units.group_name,
        label_correct=tuple(per_system),
        n_sentences=units.n_sentences,
        exact=tuple(exact_sentences(units, c) for c in all_correct),
        oracle_exact=exact_sentences(units, any_all),
        note=note,
        signature=build("oracle", units=units, note=note or None),
    )


@checked_keywords
def oracle(
    gold: Any,
    systems: Sequence[Any],
    *,
    names: Sequence[str] | None = None,
    no_punct: bool = False,
    **read_options: Any,
) -> OracleResult:
    """Oracle upper bound of system files (or label lists) against gold; ``no_punct=True`` leaves
    out units whose gold word is punctuation."""
    from .units import load_units

    u, note = load_units(gold, systems, names, no_punct, read_options)
    return oracle_units(u, note=note)
