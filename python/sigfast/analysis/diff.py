"""What changed between two systems, unit by unit (Tuggener 2017).

For every unit labeled differently by S1 and S2 exactly one of these holds:

* **correction** — S1 is wrong, S2 is right (shown as ``S1 → S2``);
* **new error** — S1 is right, S2 is wrong (``S1 → S2``);
* **changed error** — both are wrong, with different labels
  (``Key → S1 → S2``).

Shares are given of the differing units (they sum to 1) and of all units.
``delta`` = accuracy(S2) − accuracy(S1) = (corrections − new errors) / units,
so a small Δ can hide many changes.
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

__all__ = ["DiffResult", "LabelAccuracy", "PairwiseDiffResult", "diff", "diff_units", "label_accuracy", "pairwise"]


@dataclass(frozen=True)
class LabelAccuracy:
    """Per-gold-label accuracy of every system: ``rows`` = (label, count, (correct per system...)).

    ``group_name`` says what the rows are (``gold label``, or ``gold relation``
    for attachments, where a unit is correct only if the whole label is)."""

    names: tuple[str, ...]
    rows: tuple[tuple[str, int, tuple[int, ...]], ...]
    group_name: str = "gold label"

    def sorted(self, by: str = "frequency") -> tuple[tuple[str, int, tuple[int, ...]], ...]:
        """The rows by ``"frequency"`` (the stored order: count, then label) or by ``"delta"``: the
        largest accuracy difference between the last and the first system first, in absolute value
        (Tuggener 2017, Table 12), then by count and label."""
        if by == "frequency":
            return self.rows
        if by != "delta":
            raise InputError(f"sort must be 'frequency' or 'delta', not {by!r}")
        if len(self.names) < 2:
            raise InputError("sorting by delta needs two systems")

        def key(row: tuple[str, int, tuple[int, ...]]) -> tuple[float, int, str]:
            lab, n, c = row
            return (-abs(c[-1] - c[0]) / n if n else 0.0, -n, lab)

        return tuple(sorted(self.rows, key=key))

    def to_dict(self, sort: str = "frequency") -> dict[str, Any]:
        return {
            "names": list(self.names),
            "group_name": self.group_name,
            "sort": sort,
            "rows": [
                {
                    "label": l,
                    "count": n,
                    "correct": dict(zip(self.names, c)),
                    "accuracy": {k: (v / n if n else None) for k, v in zip(self.names, c)},
                    **({"delta": ((c[-1] - c[0]) / n if n else None)} if len(c) == 2 else {}),
                }
                for l, n, c in self.sorted(sort)
            ],
        }


def label_accuracy(units: Units, systems: Sequence[int] | None = None) -> LabelAccuracy:
    idx = list(range(len(units.names))) if systems is None else list(systems)
    g = units.gold
    grp = g if units.groups is None else units.groups
    mask = np.ones(len(g), bool) if units.gold_present is None else units.gold_present
    cnt = Counter(grp[mask])
    labels = sorted(cnt, key=lambda x: (-cnt[x], x))
    rows = []
    for lab in labels:
        m = mask & (grp == lab)
        rows.append((lab, int(m.sum()), tuple(int(np.sum(units.systems[k][m] == g[m])) for k in idx)))
    return LabelAccuracy(names=tuple(units.names[k] for k in idx), rows=tuple(rows), group_name=units.group_name)


@dataclass(frozen=True)
class DiffResult(Result):
    """Differences between ``system1`` and ``system2`` over the same gold units."""

    view: str
    system1: str
    system2: str
    n_units: int
    n_correct1: int
    n_correct2: int
    n_differ: int
    corrections: int
    new_errors: int
    changed_errors: int
    top_corrections: tuple[tuple[str, int], ...]
    top_new_errors: tuple[tuple[str, int], ...]
    top_changed_errors: tuple[tuple[str, int], ...]
    labels: LabelAccuracy
    top_k: int = 10
    n_sentences: int = 0
    exact1: int = 0
    exact2: int = 0
    note: str = ""
    #: what produced the result (:func:`sigfast.signature.build`): format and options, view, alignment,
    #: the two systems, unit count and a hash of the labels
    signature: str = ""
    #: Output options: the order of the per-label rows (``"frequency"`` or ``"delta"``: the largest
    #: accuracy difference first) and how many the text, markdown and LaTeX reports show (None: all).
    sort: str = option("frequency")
    max_labels: int | None = option(None)

    _keys = (
        *("view", "system1", "system2", "n_units", "n_correct1", "n_correct2", "n_differ", "corrections"),
        *("new_errors", "changed_errors", Key("*", "transition_records"), "top_k", "n_sentences", "exact1"),
        *("exact2", "note", "signature", "accuracy1", "accuracy2", "delta", "share_differ", "shares_of_differ"),
        *("shares_of_units", "exact_share1", "exact_share2", Key("labels", "label_records")),
    )

    @property
    def accuracy1(self) -> float:
        return self.n_correct1 / self.n_units if self.n_units else float("nan")

    @property
    def accuracy2(self) -> float:
        return self.n_correct2 / self.n_units if self.n_units else float("nan")

    @property
    def delta(self) -> float:
        return self.accuracy2 - self.accuracy1

    @property
    def share_differ(self) -> float:
        return self.n_differ / self.n_units if self.n_units else float("nan")

    @property
    def exact_share1(self) -> float:
        """Share of sentences all of whose units system1 gets right (Tuggener 2017, Tables 3 and 5)."""
        return self.exact1 / self.n_sentences if self.n_sentences else float("nan")

    @property
    def exact_share2(self) -> float:
        return self.exact2 / self.n_sentences if self.n_sentences else float("nan")

    def share(self, what: str, of: str = "differ") -> float:
        n = getattr(self, what)
        d = self.n_differ if of == "differ" else self.n_units
        return n / d if d else float("nan")

    def shares_of_differ(self) -> dict[str, float]:
        """Corrections, new and changed errors as shares of the units labeled differently."""
        return {k: self.share(k) for k in ("corrections", "new_errors", "changed_errors")}

    def shares_of_units(self) -> dict[str, float]:
        """Corrections, new and changed errors as shares of all units."""
        return {k: self.share(k, "units") for k in ("corrections", "new_errors", "changed_errors")}

    def transition_records(self) -> dict[str, list[dict[str, Any]]]:
        """The top transitions of each class as records (``transition``, ``count``)."""
        return {
            k: [{"transition": t, "count": n} for t, n in getattr(self, k)]
            for k in ("top_corrections", "top_new_errors", "top_changed_errors")
        }

    def label_records(self) -> dict[str, Any]:
        """Per-label accuracy (:class:`LabelAccuracy`) in the ``sort`` order."""
        return self.labels.to_dict(self.sort)

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records (long format): ``kind`` "all" (every unit), "sentences" (sentences all of whose
        units a system gets right), "label" (per gold label or group) with each system's correct
        count, or a transition ("correction", "new error", "changed error") with its count; numbers
        as numbers; ``note`` says what was left out of the units."""
        common = {
            "system1": self.system1,
            "system2": self.system2,
            "view": self.view,
            "note": self.note,
            "signature": self.signature,
        }
        out: list[dict[str, Any]] = [
            {
                "kind": "all",
                "key": "",
                "count": self.n_units,
                "correct1": self.n_correct1,
                "correct2": self.n_correct2,
                **common,
            }
        ]
        if self.n_sentences:  # sentences all of whose units each system gets right
            out.append(
                {
                    "kind": "sentences",
                    "key": "",
                    "count": self.n_sentences,
                    "correct1": self.exact1,
                    "correct2": self.exact2,
                    **common,
                }
            )
        for lab, n, (c1, c2) in self.labels.sorted("frequency"):
            out.append({"kind": "label", "key": lab, "count": n, "correct1": c1, "correct2": c2, **common})
        for kind, top in (
            ("correction", self.top_corrections),
            ("new error", self.top_new_errors),
            ("changed error", self.top_changed_errors),
        ):
            out += [{"kind": kind, "key": t, "count": c, "correct1": None, "correct2": None, **common} for t, c in top]
        return out

    def __repr__(self) -> str:
        from .._api import short_repr

        return short_repr(
            self,
            f"{self.system1} -> {self.system2}, {self.view}",
            {
                "n_units": self.n_units,
                "differ": self.n_differ,
                "corrections": self.corrections,
                "new_errors": self.new_errors,
                "changed_errors": self.changed_errors,
                "delta": f"{self.delta:+.4f}",
            },
        )

    def _report(self, style: str) -> str:
        from .report import format_diff

        return _signed(format_diff(self, style, self.max_labels, self.sort), self.signature, style)


def _signed(text: str, signature: str, style: str) -> str:
    """A report with its signature: a last line (text, markdown) or a comment line (LaTeX: the style's
    ``comment``, :mod:`sigfast.styles`)."""
    if style == "json" or not signature:
        return text
    from ..results.styles import get

    comment = get(style).comment
    line = f"signature: {signature}" if comment is None else comment(f"signature: {signature}")
    return text.rstrip("\n") + "\n" + line + "\n"


def _arrow(*xs: str) -> str:
    return " → ".join(xs)


def diff_units(
    units: Units, system1: int | str = 0, system2: int | str = 1, *, top_k: int = 10, note: str = ""
) -> DiffResult:
    """Diff two systems of ``units`` (indices or names). ``note`` says what was left out of the units
    (see :func:`~sigfast.analysis.units.without_punct`)."""
    i = units.names.index(system1) if isinstance(system1, str) else int(system1)
    j = units.names.index(system2) if isinstance(system2, str) else int(system2)
    if i == j:
        raise InputError("diff needs two different systems")
    g, a, b = units.gold, units.systems[i], units.systems[j]
    ca, cb = a == g, b == g
    dif = a != b
    cor = dif & ~ca & cb
    new = dif & ca & ~cb
    chg = dif & ~ca & ~cb
    tc = Counter(_arrow(x, y) for x, y in zip(a[cor], b[cor]))
    tn = Counter(_arrow(x, y) for x, y in zip(a[new], b[new]))
    tg = Counter(_arrow(k, x, y) for k, x, y in zip(g[chg], a[chg], b[chg]))

    def top(c: Counter) -> tuple[tuple[str, int], ...]:
        return tuple(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:top_k])

    return DiffResult(
        view=units.view,
        system1=units.names[i],
        system2=units.names[j],
        n_units=units.n_units,
        n_correct1=int(ca.sum()),
        n_correct2=int(cb.sum()),
        n_differ=int(dif.sum()),
        corrections=int(cor.sum()),
        new_errors=int(new.sum()),
        changed_errors=int(chg.sum()),
        top_corrections=top(tc),
        top_new_errors=top(tn),
        top_changed_errors=top(tg),
        labels=label_accuracy(units, [i, j]),
        top_k=top_k,
        n_sentences=units.n_sentences,
        exact1=exact_sentences(units, ca),
        exact2=exact_sentences(units, cb),
        note=note,
        signature=build("diff", units=units, systems=[units.names[i], units.names[j]], top=top_k, note=note or None),
    )


@checked_keywords
def diff(
    gold: Any,
    system1: Any,
    system2: Any,
    *,
    top_k: int = 10,
    names: Sequence[str] | None = None,
    no_punct: bool = False,
    **read_options: Any,
) -> DiffResult:
    """Diff two system files (or label lists) against gold.

    ``gold``/``system1``/``system2`` are paths (read with
    :func:`sigfast.analysis.read_units`: ``format``, ``view`` and the
    format's options pass through), or label lists (sentences of labels, or
    one flat list). ``no_punct=True`` leaves out units whose gold word is
    punctuation (:func:`~sigfast.analysis.units.without_punct`).
    """
    from .units import load_units

    u, note = load_units(gold, [system1, system2], names, no_punct, read_options, list_names=("S1", "S2"))
    return diff_units(u, 0, 1, top_k=top_k, note=note)


@dataclass(frozen=True)
class PairwiseDiffResult(Result):
    """Share of units labeled differently (``differ[i][j]``) beside Δaccuracy (``delta[i][j]`` = acc_j − acc_i).

    (Named ``PairwiseResult`` before; that name is :class:`sigfast.PairwiseResult`, the
    all-pairs significance test.)
    """

    view: str
    names: tuple[str, ...]
    n_units: int
    accuracy: tuple[float, ...]
    differ: tuple[tuple[float, ...], ...]
    delta: tuple[tuple[float, ...], ...]
    signature: str = ""

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per ordered pair (i, j): share of units labeled differently and Δaccuracy."""
        n = len(self.names)
        return [
            {
                "system_i": self.names[i],
                "system_j": self.names[j],
                "accuracy_i": self.accuracy[i],
                "accuracy_j": self.accuracy[j],
                "differ": self.differ[i][j],
                "delta": self.delta[i][j],
                "view": self.view,
                "n_units": self.n_units,
                "signature": self.signature,
            }
            for i in range(n)
            for j in range(n)
            if i != j
        ]

    def _report(self, style: str) -> str:
        from .report import format_pairwise

        return _signed(format_pairwise(self, style), self.signature, style)


def pairwise(units: Units) -> PairwiseDiffResult:
    n = len(units.names)
    if n < 2:
        raise InputError("a pairwise matrix needs at least two systems")
    codes: dict[Any, int] = {}
    arr = np.stack([np.array([codes.setdefault(v, len(codes)) for v in s], dtype=np.int64) for s in units.systems])
    N = units.n_units
    acc = [float(np.mean(units.systems[k] == units.gold)) if N else float("nan") for k in range(n)]
    differ = [[float(np.mean(arr[i] != arr[j])) if N else float("nan") for j in range(n)] for i in range(n)]
    delta = [[acc[j] - acc[i] for j in range(n)] for i in range(n)]
    return PairwiseDiffResult(
        view=units.view,
        names=units.names,
        n_units=N,
        accuracy=tuple(acc),
        differ=tuple(tuple(r) for r in differ),
        delta=tuple(tuple(r) for r in delta),
        signature=build("diff_pairwise", units=units),
    )


def __getattr__(name: str) -> Any:
    if name == "PairwiseResult":  # the old name of PairwiseDiffResult
        import warnings

        warnings.warn(
            "sigfast.analysis.diff.PairwiseResult is now PairwiseDiffResult (sigfast.PairwiseResult is the "
            "all-pairs significance test)",
            DeprecationWarning,
            stacklevel=2,
        )
        return PairwiseDiffResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
