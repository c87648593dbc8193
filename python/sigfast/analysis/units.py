"""The units that the analyses compare, from the formats' own parses.

A *unit* is one thing every system labels: a syntactic word (POS tag,
head, dependency label), a token's tag, a chunk, a bracket, an alignment
link. :class:`Units` holds, for every unit, the gold label and each
system's label, all as strings, in one table, so that the analyses
(:mod:`.diff`, :mod:`.oracle`, :mod:`.agreement`) and McNemar never see
files.

Units come from the format layer (:mod:`sigfast.formats`): the same parse
that gives a format's report and statistics gives its units, and a unit's
system label equals its gold label exactly when the reference scorer counts
it correct. So the correct units are the score's numerator: correct words =
conll18_ud_eval's LAS numerator, correct spans = conlleval's correct chunks,
matched brackets = EVALB's, sure/possible links = AER's counts. Each
format's views are listed by ``sigfast info``; raw-text CoNLL-U systems are
aligned on characters in Rust, as ``conll18_ud_eval.py`` does
(``align="chars"``, the default; ``align="tokens"`` requires the gold
words).

:func:`units_from_labels` builds units from Python lists instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..exceptions import InputError
from ..formats._base import MISSING, Units

__all__ = ["MISSING", "Units", "read_units", "units_from_labels"]


def read_units(
    gold: Any,
    systems: Sequence[Any],
    *,
    format: str = "auto",
    view: str | None = None,
    names: Sequence[str] | None = None,
    **options: Any,
) -> Units:
    """Read a gold file and system files into :class:`Units`.

    ``format`` is any format with units (``sigfast info`` lists them and
    their views) or ``"auto"``; ``view`` defaults to the format's first view
    (``las`` for CoNLL-U, ``tags`` for NER, ``brackets`` for trees).
    ``options`` are the format's options (e.g. ``align="tokens"``,
    ``scheme="iobes"``). This is ``sigfast.formats.parse(format, gold,
    systems, **options).units(view)``.
    """
    from ..formats import parse

    systems = list(systems)
    if not systems:
        raise InputError("give at least one system file")
    return parse(format, gold, systems, names=names, **options).units(view)


def units_from_labels(
    gold: Sequence[Sequence[str]] | Sequence[str],
    systems: Sequence[Sequence[Sequence[str]] | Sequence[str]],
    names: Sequence[str] | None = None,
    *,
    view: str = "labels",
    forms: Sequence[Sequence[str]] | None = None,
) -> Units:
    """Build :class:`Units` from Python lists.

    ``gold`` is a list of sentences (lists of labels) or one flat list (one
    sentence); each system likewise, with exactly the same shape (else
    :class:`InputError`). ``None`` in a system stands for a missing label.
    """

    def nested(x: Any) -> list[list[Any]]:
        x = list(x)
        if x and all(isinstance(v, (str, type(None))) for v in x):
            return [x]
        return [list(s) for s in x]

    g = nested(gold)
    names = tuple(names) if names is not None else tuple(f"S{i + 1}" for i in range(len(systems)))
    if len(names) != len(systems):
        raise InputError(f"{len(names)} names for {len(systems)} systems")
    if len(set(names)) != len(names):
        raise InputError(f"system names must be distinct: {list(names)}")
    syss = []
    for name, s in zip(names, systems):
        s = nested(s)
        if len(s) != len(g):
            raise InputError(f"system {name!r} has {len(s)} sentences, gold has {len(g)}")
        for i, (a, b) in enumerate(zip(g, s)):
            if len(a) != len(b):
                raise InputError(f"system {name!r}, sentence {i + 1}: {len(b)} labels, gold has {len(a)}")
        syss.append(np.array([MISSING if v is None else str(v) for sent in s for v in sent], dtype=object))
    if any(v is None for sent in g for v in sent):
        raise InputError("gold labels cannot be None")
    flat_g = [str(v) for sent in g for v in sent]
    sent = np.repeat(np.arange(len(g)), [len(s) for s in g])
    if forms is not None:
        fl = tuple(str(v) for s in nested(forms) for v in s)
        if len(fl) != len(flat_g):
            raise InputError("forms must have the shape of gold")
    else:
        fl = tuple("" for _ in flat_g)
    return Units(
        view=view,
        names=names,
        gold=np.array(flat_g, dtype=object),
        systems=tuple(syss),
        sentence=sent,
        forms=fl,
        n_sentences=len(g),
    )
