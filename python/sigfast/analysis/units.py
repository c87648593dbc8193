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

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..exceptions import InputError
from ..formats._base import FORM_PUNCT, MISSING, Punct, Units

__all__ = [
    "MISSING",
    "PUNCT_RULES",
    "Units",
    "exact_sentences",
    "punct_mask",
    "read_units",
    "units_from_labels",
    "without_punct",
]


def read_units(
    gold: Any,
    systems: Sequence[Any],
    *,
    format: str = "auto",
    view: str | None = None,
    names: Sequence[str] | None = None,
    no_punct: bool = False,
    **options: Any,
) -> Units:
    """Read a gold file and system files into :class:`Units`.

    ``format`` is any format with units (``sigfast info`` lists them and
    their views) or ``"auto"``; ``view`` defaults to the format's first view
    (``las`` for CoNLL-U, ``tags`` for NER, ``brackets`` for trees).
    ``options`` are the format's options (e.g. ``align="tokens"``,
    ``scheme="iobes"``). This is ``sigfast.formats.parse(format, gold,
    systems, **options).units(view)``; ``no_punct=True`` then leaves out
    the units whose gold word is punctuation (:func:`without_punct`, rules in
    :data:`PUNCT_RULES`).
    """
    return read_units_noted(gold, systems, format=format, view=view, names=names, no_punct=no_punct, **options)[0]


def read_units_noted(
    gold: Any,
    systems: Sequence[Any],
    *,
    format: str = "auto",
    view: str | None = None,
    names: Sequence[str] | None = None,
    no_punct: bool = False,
    **options: Any,
) -> tuple[Units, str]:
    """:func:`read_units` and a note saying what was left out ("" when nothing was)."""
    from ..formats import parse

    systems = list(systems)
    if not systems:
        raise InputError("give at least one system file")
    parsed = parse(format, gold, systems, names=names, **options)
    return units_of(parsed, view, no_punct=no_punct)


def load_units(
    gold: Any,
    systems: Sequence[Any],
    names: Sequence[str] | None,
    no_punct: bool,
    read_options: dict[str, Any],
    list_names: Sequence[str] | None = None,
) -> tuple[Units, str]:
    """Units from files (:func:`read_units_noted`) or label lists (:func:`units_from_labels`, named
    ``names`` or else ``list_names``), punctuation left out on request; and the note."""
    if isinstance(gold, (list, tuple)):
        u = units_from_labels(gold, systems, names if names is not None else list_names, **read_options)
        return without_punct(u) if no_punct else (u, "")
    return read_units_noted(gold, systems, names=names, no_punct=no_punct, **read_options)


def units_of(parsed: Any, view: str | None = None, *, no_punct: bool = False) -> tuple[Units, str]:
    """The units of a :class:`~sigfast.formats.Parsed` (one view), punctuation left out on request,
    and a note saying what was left out."""
    u = parsed.units(view)
    if not no_punct:
        return u, ""
    relations = None
    if parsed.spec.punct.kind == "relation":
        # the gold relation of every gold word, whatever the view (every view of such a format has one
        # unit per gold word, in the same order, and its las view is grouped by the gold relation)
        relations = u.groups if u.groups is not None else parsed.reports[0].units("las").groups
    return without_punct(u, relations)


class _PunctRules(Mapping[str, str]):
    """Format name -> the rule its ``--no-punct`` applies, read from the formats' declarations
    (``FormatSpec.punct``) when first used."""

    def _rules(self) -> dict[str, str]:
        from ..formats import specs

        return {s.name: s.punct.rule for s in specs() if s.punct is not FORM_PUNCT}

    def __getitem__(self, key: str) -> str:
        return self._rules()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules())

    def __len__(self) -> int:
        return len(self._rules())

    def __repr__(self) -> str:
        return repr(self._rules())


#: How each format's units are judged punctuation (``--no-punct``, ``no_punct=True``): the rule each
#: format declares (``FormatSpec.punct``); formats not listed use eval.pl's FORM rule.
PUNCT_RULES: Mapping[str, str] = _PunctRules()


def _punct_of(fmt: str) -> Punct:
    if not fmt:
        return FORM_PUNCT
    from ..formats import spec

    try:
        return spec(fmt).punct
    except InputError:
        return FORM_PUNCT


def punct_mask(units: Units, relations: np.ndarray | None = None) -> tuple[np.ndarray, str]:
    """Which units have a punctuation gold word, and the rule used: the format's own
    (``FormatSpec.punct``, listed in :data:`PUNCT_RULES`).

    ``relation`` (CoNLL-U, ``conll18_ud_eval.py``): the gold word's universal
    relation is ``punct`` (``relations``: the gold relation of each unit; the
    ``las`` and ``uas`` views carry it as ``groups``). ``form`` (the
    CoNLL-X/2007/2008/2009 scripts' ``-p``, and every format that declares
    no rule): the unit's gold words are made only of characters of Unicode
    category P*; the CoNLL-2008/2009 semantic views keep every unit, as
    ``-p`` only changes the syntactic scores. ``none`` (EVALB): nothing, its
    parameter file already deletes punctuation. ``refuse`` (alignment links):
    an error.
    """
    from ..formats.dependency import is_punct

    fmt = units.format
    n = units.n_units
    rule = _punct_of(fmt)
    if rule.kind == "refuse":
        raise InputError(f"format {fmt!r}: {rule.rule}; --no-punct does not apply")
    if rule.views is not None and units.view not in rule.views:
        return np.zeros(n, bool), rule.other
    if rule.kind == "none":
        return np.zeros(n, bool), rule.rule
    if rule.kind == "relation":
        rel = units.groups if relations is None else relations
        if rel is None:
            raise InputError(
                f"{fmt} punctuation is the gold relation punct: read the units with no_punct=True "
                "(read_units), or pass relations="
            )
        rel = np.asarray(rel, dtype=object)
        if len(rel) != n:
            raise InputError(f"{len(rel)} relations for {n} units")
        return np.array([str(r).split(":")[0] == "punct" for r in rel], dtype=bool), rule.rule
    if n and not any(units.forms):
        raise InputError("these units have no word forms to judge punctuation by (give forms=)")
    mask = np.array([bool(f) and all(is_punct(w) for w in f.split(" ")) for f in units.forms], dtype=bool)
    return mask, rule.rule


def without_punct(units: Units, relations: np.ndarray | None = None) -> tuple[Units, str]:
    """``units`` without the units whose gold word is punctuation (:func:`punct_mask`), and a note
    saying how many were left out and by which rule. Sentences keep their numbers (a sentence of
    punctuation only has no units left)."""
    mask, rule = punct_mask(units, relations)
    keep = ~mask
    dropped = int(mask.sum())
    note = f"punctuation left out: {dropped} of {units.n_units} units; rule: {rule}"
    if not dropped:
        return units, note
    return (
        replace(
            units,
            gold=units.gold[keep],
            systems=tuple(s[keep] for s in units.systems),
            sentence=units.sentence[keep],
            forms=tuple(f for f, k in zip(units.forms, keep) if k),
            gold_present=None if units.gold_present is None else units.gold_present[keep],
            groups=None if units.groups is None else units.groups[keep],
        ),
        note,
    )


def exact_sentences(units: Units, correct: np.ndarray) -> int:
    """Sentences whose units are all correct (``correct``: one bool per unit). A sentence without
    units counts as correct, as in eval.pl's and eval08.pl's exact match."""
    wrong = np.unique(units.sentence[~np.asarray(correct, dtype=bool)])
    return int(units.n_sentences - len(wrong))


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


def reader_keywords() -> set[str]:
    """What the analyses' ``**read_options`` take: the unit readers' keywords and every format option."""
    import inspect

    from ..formats._registry import option_names

    out = option_names()
    for f in (read_units_noted, units_from_labels):
        out.update(n for n, p in inspect.signature(f).parameters.items() if p.kind is not p.VAR_KEYWORD)
    return out
