"""The pieces every format module declares and returns.

A format module declares one or more :class:`FormatSpec` in a module-level
``SPECS`` tuple: its name, aliases, file extensions, a typed options schema
(:class:`Option`) and a ``score(gold, system, **options) -> ScoreReport``
function. One call of ``score`` parses one system file against gold once;
its :class:`ScoreReport` serves the three views of that parse:

* ``text`` — the reference scorer's report, byte for byte;
* ``stats`` — per-item sufficient statistics for each of the format's metrics
  (a mapping; :class:`LazyStats` builds the arrays from the parse on first access);
* ``units(view)`` — the labelled units (tokens, arcs, spans, brackets,
  links) that diff, oracle, agreement and McNemar compare, as a
  :class:`UnitTable`.

:func:`sigfast.formats.parse` runs ``score`` for every system and gathers
the reports into a :class:`Parsed`, whose ``statistics()`` and ``units()``
are what :func:`sigfast.read`, the analyses and the CLI use.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..exceptions import FormatError, InputError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FORM_PUNCT",
    "MISSING",
    "SPLIT_UNITS",
    "FormatSpec",
    "ItemStats",
    "LazyStats",
    "Option",
    "Parsed",
    "Punct",
    "ScoreReport",
    "UnitTable",
    "Units",
    "decode_utf8",
    "display",
    "gather_limited",
    "max_file_bytes",
    "read_file_bytes",
    "read_text",
    "shorten",
    "split_lines",
]

#: The label of a unit a system has no word for (raw-text systems).
MISSING = "∅"


# --------------------------------------------------------------------------------------------
# options


@dataclass(frozen=True)
class Option:
    """One option of a format: its name, type, default and allowed values.

    ``type`` is ``str``, ``int``, ``float``, ``bool`` or ``"path"`` (a file
    path, ``str`` or ``os.PathLike``). Values given as strings (from the
    command line's ``-o key=value``) are converted to the type; other values
    must already have it. ``choices`` restricts the (converted) value;
    ``minimum``/``maximum`` bound numbers; ``nullable`` allows ``None``.
    """

    name: str
    type: Any
    default: Any = None
    help: str = ""
    choices: tuple[Any, ...] | None = None
    aliases: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False

    @property
    def type_name(self) -> str:
        if isinstance(self.type, tuple):
            return "list" if list in self.type else "/".join(t.__name__ for t in self.type)
        return self.type if isinstance(self.type, str) else self.type.__name__

    def describe(self) -> str:
        """``name=TYPE`` with choices or range, for messages and ``sigfast info``."""
        if self.choices is not None:
            what = "|".join(str(c) for c in self.choices)
        else:
            what = self.type_name
            if self.minimum is not None or self.maximum is not None:
                lo = "" if self.minimum is None else f"{self.minimum:g}"
                hi = "" if self.maximum is None else f"{self.maximum:g}"
                what += f" in [{lo}, {hi}]"
        return f"{self.name}={what}"

    def coerce(self, value: Any, fmt: str) -> Any:
        """``value`` checked (and converted from a string) for this option, or FormatError."""
        if value is None:
            if self.nullable or self.default is None:
                return None
            raise self._bad(value, fmt)
        t = self.type
        v: Any = value
        # numpy's scalar types, where numpy is loaded (a value cannot be one where it is not)
        np_ = sys.modules.get("numpy")
        np_bool: tuple[type, ...] = (np_.bool_,) if np_ is not None else ()
        np_int: tuple[type, ...] = (np_.integer,) if np_ is not None else ()
        np_float: tuple[type, ...] = (np_.floating,) if np_ is not None else ()
        if t == "path":
            if not isinstance(value, (str, os.PathLike)):
                raise self._bad(value, fmt)
            v = value
        elif t is bool:
            if isinstance(value, str):
                low = value.strip().lower()
                if low in ("true", "yes", "1", "on"):
                    v = True
                elif low in ("false", "no", "0", "off"):
                    v = False
                else:
                    raise self._bad(value, fmt)
            elif isinstance(value, (bool, *np_bool)):
                v = bool(value)
            else:
                raise self._bad(value, fmt)
        elif t is int:
            if isinstance(value, str):
                try:
                    v = int(value.strip())
                except ValueError:
                    raise self._bad(value, fmt) from None
            elif isinstance(value, (int, *np_int)) and not isinstance(value, (bool, *np_bool)):
                v = int(value)
            else:
                raise self._bad(value, fmt)
        elif t is float:
            if isinstance(value, str):
                try:
                    v = float(value.strip())
                except ValueError:
                    raise self._bad(value, fmt) from None
            elif isinstance(value, (int, float, *np_int, *np_float)) and not isinstance(value, bool):
                v = float(value)
            else:
                raise self._bad(value, fmt)
            if not math.isfinite(v):
                raise self._bad(value, fmt)
        elif t is str:
            if not isinstance(value, str):
                raise self._bad(value, fmt)
        elif isinstance(t, tuple):  # several accepted Python types, passed through
            if not isinstance(value, t):
                raise self._bad(value, fmt)
        if self.choices is not None and v not in self.choices:
            raise self._bad(value, fmt)
        if self.minimum is not None and v < self.minimum:
            raise self._bad(value, fmt)
        if self.maximum is not None and v > self.maximum:
            raise self._bad(value, fmt)
        return v

    def _bad(self, value: Any, fmt: str) -> FormatError:
        return FormatError(f"format {fmt!r}: option {self.describe()} cannot be {value!r}")


# --------------------------------------------------------------------------------------------
# what one parse gives


@dataclass(frozen=True)
class ItemStats:
    """Per-item sufficient statistics of one system for one metric.

    ``values`` has shape (items, len(stat_names)); items are sentences,
    segments or documents, in file order. ``metric`` is a name understood by
    :func:`sigfast.metrics.get` with ``metric_params`` (``None`` for files of
    plain per-item values), and summing ``values`` over all items and
    applying the metric gives the corpus score exactly.

    ``item_metric_params`` are the parameters of the same metric for one
    item alone, where the reference scorer's sentence-level score differs
    from its corpus formula (sacrebleu's sentence BLEU uses the effective
    order); ``None``: ``metric_params``. :meth:`item_scores` applies it to
    each row.
    """

    metric: str | None
    stat_names: tuple[str, ...]
    values: np.ndarray
    metric_params: dict[str, Any] = field(default_factory=dict)
    counts: bool = True
    item_metric_params: dict[str, Any] | None = None
    #: data about the items of all systems that a format's ``join`` adds (cluster keys, per-sample values;
    #: see :mod:`sigfast.formats._logs`): copied into ``Statistics.provenance``
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def item_metric(self) -> Any:
        """The registry metric that scores one item (``metric`` with ``item_metric_params``)."""
        from ..metrics import get

        if self.metric is None:
            raise InputError("per-item values name no metric; there is no per-item score to compute")
        params = self.metric_params if self.item_metric_params is None else self.item_metric_params
        return get(self.metric, **params)

    def item_scores(self) -> np.ndarray:
        """Each item's score alone, as the reference scorer computes it for one sentence or document."""
        return self.item_metric().evaluate(self.values, 1)


class LazyStats(Mapping[str, ItemStats]):
    """A report's per-item statistics by metric name, built on first access.

    The names are known from the parse; ``build()`` makes every
    :class:`ItemStats` at once (the arrays of one parse), the first time one is
    read. A format whose report needs no numpy (``ner``, ``conlleval``) gives
    this, so that ``sigfast score`` prints its report without importing numpy,
    while ``compare``, ``--per-item`` and the API read the same parse's arrays.
    """

    __slots__ = ("_build", "_built", "_keys")

    def __init__(self, keys: Sequence[str], build: Callable[[], Mapping[str, ItemStats]]) -> None:
        self._keys = dict.fromkeys(keys)
        self._build: Callable[[], Mapping[str, ItemStats]] | None = build
        self._built: Mapping[str, ItemStats] | None = None

    def _get(self) -> Mapping[str, ItemStats]:
        if self._built is None:
            assert self._build is not None
            built = self._build()
            if list(built) != list(self._keys):
                raise InputError("internal: a format's statistics do not have the names it declared")
            self._built, self._build = built, None
        return self._built

    def __getitem__(self, key: str) -> ItemStats:
        if key not in self._keys:
            raise KeyError(key)
        return self._get()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        state = "built" if self._built is not None else "not built yet"
        return f"LazyStats({list(self._keys)}, {state})"


@dataclass(frozen=True)
class UnitTable:
    """One system's labels for the units of one view, from the same parse as its score.

    Token views (one unit per gold word or token) give ``keys=None``: unit i
    is gold unit i, the same for every system. Set views (spans, brackets,
    links) give ``keys``, one hashable per unit, so that the units of several
    systems can be united: a unit a system does not have gets the label
    ``absent`` for it, and ``gold_present`` is False for units only systems
    proposed. A unit is correct iff its system label equals its gold label;
    the format guarantees that the correct units are exactly what its
    metric's numerator counts.
    """

    view: str
    gold: np.ndarray
    system: np.ndarray
    sentence: np.ndarray
    forms: tuple[str, ...]
    n_sentences: int
    keys: tuple[Any, ...] | None = None
    gold_present: np.ndarray | None = None
    absent: str = "O"
    sentence_ids: tuple[str, ...] = ()
    groups: np.ndarray | None = None
    group_name: str = "gold label"
    note: str = ""


@dataclass(frozen=True)
class ScoreReport:
    """One system file scored against gold, as the reference scorer does.

    ``text`` is the report printed exactly as the reference scorer prints it
    (same numbers, precision and rounding); ``scores`` maps metric names to
    unrounded corpus values; ``stats`` maps the same names to per-item
    statistics; ``default_metric`` is the headline metric (e.g. ``"las"``).
    ``units(view)`` gives the labelled units of ``views`` (see
    :class:`UnitTable`), from the same parse.
    """

    format: str
    gold: str
    system: str
    text: str
    scores: dict[str, float]
    stats: Mapping[str, ItemStats]
    default_metric: str
    item_ids: tuple[str, ...] | None = None
    views: tuple[str, ...] = ()
    unit_source: Callable[[str], UnitTable] | None = field(default=None, repr=False, compare=False)
    warnings: tuple[str, ...] = ()
    #: the reference scorer's own structured output where it has one (sacrebleu's JSON objects, one per
    #: metric, with its full-precision details), for ``sigfast score --json``
    reference_json: Any = None
    #: the parsed per-item log of formats that match items by id (a :class:`sigfast.formats._logs.LogRun`)
    log: Any = field(default=None, repr=False, compare=False)

    def units(self, view: str | None = None) -> UnitTable:
        """The labelled units of ``view`` (default: the format's first view)."""
        if not self.views or self.unit_source is None:
            raise InputError(
                f"format {self.format!r} has no units to compare (no diff, oracle, agreement or McNemar on units); "
                "formats with units: see `sigfast info`"
            )
        v = self.views[0] if view is None else view
        if v not in self.views:
            raise InputError(f"format {self.format!r} has no view {v!r}; its views: {', '.join(self.views)}")
        return self.unit_source(v)


@dataclass(frozen=True)
class Units:
    """Gold and system labels of the same units, for several systems.

    ``gold`` has one label per unit; ``systems[k]`` likewise for system
    ``names[k]``. ``sentence`` gives each unit's sentence (0-based, gold
    order), ``forms`` its text (a word, or the words of a span) for display;
    ``sentence_ids`` the sentences' ids where the file has them.
    ``gold_present`` is False for units that only a system proposed.
    ``groups`` (optional) is what per-label tables group units by (for the
    ``uas``/``las`` views: the gold relation), described by ``group_name``.
    """

    view: str
    names: tuple[str, ...]
    gold: np.ndarray
    systems: tuple[np.ndarray, ...]
    sentence: np.ndarray
    forms: tuple[str, ...]
    n_sentences: int
    sentence_ids: tuple[str, ...] = ()
    gold_present: np.ndarray | None = None
    align: str = "tokens"
    groups: np.ndarray | None = None
    group_name: str = "gold label"
    format: str = ""
    #: the format's options as resolved (defaults filled in), for signatures
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n_units(self) -> int:
        return len(self.gold)

    def correct(self, k: int) -> np.ndarray:
        """Units system k labels as gold does, true negatives of set views included: a span that only
        another system proposed is correct for k (gold and k both say ``O``)."""
        return self.systems[k] == self.gold

    def matched(self, k: int) -> np.ndarray:
        """Correct units among the gold units: their number is the reference scorer's numerator
        (correct words, chunks, brackets, links), for every view and any number of systems united."""
        ok = self.correct(k)
        return ok if self.gold_present is None else ok & self.gold_present

    def system(self, name: str) -> np.ndarray:
        return self.systems[self.names.index(name)]

    def sentence_label(self, s: int) -> str:
        if self.sentence_ids and s < len(self.sentence_ids) and self.sentence_ids[s]:
            return self.sentence_ids[s]
        return f"#{s + 1}"


def combine_units(tables: Sequence[UnitTable], names: Sequence[str], fmt: str, align: str) -> Units:
    """The units of several systems' tables of one view, united (see :class:`UnitTable`)."""
    import numpy as np

    first = tables[0]
    if first.keys is None:
        for t in tables[1:]:
            if t.keys is not None or len(t.gold) != len(first.gold):
                raise InputError("internal: token views of different length")  # pragma: no cover
        return Units(
            view=first.view,
            names=tuple(names),
            gold=first.gold,
            systems=tuple(t.system for t in tables),
            sentence=first.sentence,
            forms=first.forms,
            n_sentences=first.n_sentences,
            sentence_ids=first.sentence_ids,
            gold_present=first.gold_present,
            align=align,
            groups=first.groups,
            group_name=first.group_name,
            format=fmt,
        )
    index: dict[Any, int] = {}
    order: list[Any] = []
    info: list[tuple[int, str, Any, bool, Any]] = []  # sentence, form, gold label, present, group
    for t in tables:
        assert t.keys is not None
        present = t.gold_present if t.gold_present is not None else np.ones(len(t.keys), bool)
        for u, key in enumerate(t.keys):
            if key in index:
                k = index[key]
                if present[u] and not info[k][3]:
                    info[k] = (int(t.sentence[u]), t.forms[u], t.gold[u], True, _group(t, u))
                continue
            index[key] = len(order)
            order.append(key)
            info.append(
                (int(t.sentence[u]), t.forms[u], t.gold[u] if present[u] else t.absent, bool(present[u]), _group(t, u))
            )
    perm = sorted(range(len(order)), key=lambda k: (info[k][0], order[k]))
    systems = []
    for t in tables:
        assert t.keys is not None
        lab = np.full(len(order), t.absent, dtype=object)
        pos = np.fromiter((index[k] for k in t.keys), dtype=np.int64, count=len(t.keys))
        lab[pos] = t.system
        systems.append(lab[perm])
    groups = None
    if first.groups is not None:
        groups = np.array([info[k][4] for k in perm], dtype=object)
    return Units(
        view=first.view,
        names=tuple(names),
        gold=np.array([info[k][2] for k in perm], dtype=object),
        systems=tuple(systems),
        sentence=np.array([info[k][0] for k in perm], dtype=np.int64),
        forms=tuple(info[k][1] for k in perm),
        n_sentences=first.n_sentences,
        sentence_ids=first.sentence_ids,
        gold_present=np.array([info[k][3] for k in perm], dtype=bool),
        align=align,
        groups=groups,
        group_name=first.group_name,
        format=fmt,
    )


def _group(t: UnitTable, u: int) -> Any:
    return None if t.groups is None else t.groups[u]


@dataclass(frozen=True)
class Punct:
    """How a format judges its units punctuation, for ``--no-punct`` / ``no_punct=True``.

    ``kind``: ``"form"`` (the unit's gold words are made only of Unicode
    punctuation, category P*: ``eval.pl``'s rule), ``"relation"`` (the gold
    word's universal dependency relation is ``punct``: ``conll18_ud_eval.py``'s
    CLAS rule; the units' ``groups`` or the ``las`` view carry it),
    ``"none"`` (nothing to leave out: the scorer already deletes punctuation)
    or ``"refuse"`` (the units have no words; ``--no-punct`` is an error).
    ``rule`` is the sentence a note prints. ``views``: the views the rule
    applies to (None: every view); the other views keep every unit, and
    ``other`` says why.
    """

    kind: str
    rule: str
    views: tuple[str, ...] | None = None
    other: str = ""


#: The punctuation rule of a format that declares none: eval.pl's FORM rule on the unit's gold words.
FORM_PUNCT = Punct(
    "form", "gold words made only of Unicode punctuation (category P), eval.pl's rule; the format's scorer has none"
)

#: The units ``sigfast split`` and ``resample`` can cut a format's files into.
SPLIT_UNITS = ("sentence", "line", "document")


@dataclass(frozen=True)
class ReadmeRow:
    """A format's row of the README's formats table (``python -m sigfast.docs`` writes the table from the
    declarations): its reference scorer and what it reads, what the tests check against that scorer, and
    where its speed against the scorer is measured. Formats declaring equal rows share one row."""

    scorer: str
    checked: str = "—"
    speed: str = "—"


@dataclass(frozen=True)
class FormatSpec:
    """A format's declaration; the registry (:mod:`sigfast.formats`) reads it.

    ``score(gold, system, **options)`` parses one system file against gold
    (``gold`` is None for formats of per-item values, ``needs_gold=False``).
    ``views`` lists the unit views, the first being the default.
    ``metrics`` lists every per-item metric ``stats`` offers (for ``sigfast
    info``; the first is the headline); ``<...>`` stands for a part that the
    data or an option decides (``f1:<TYPE>``: one per chunk type), and a last
    ``"..."`` for further metrics a log names (the LLM logs). ``detect(first_lines)`` may claim a
    file from its first lines when its extension says nothing.
    ``gold_optional``: the format reads gold from the system file when no
    gold file is given. ``split_unit``: what ``sigfast split`` cuts its
    files into (``"sentence"``, ``"line"`` or ``"document"``; None if they
    cannot be cut). ``punct``: its punctuation rule (:class:`Punct`).
    """

    name: str
    description: str
    reference: str
    score: Callable[..., ScoreReport]
    options: tuple[Option, ...] = ()
    aliases: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    views: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    needs_gold: bool = True
    detect: Callable[[list[str]], bool] | None = None
    #: the gold may be left out (conlleval: one file holds the gold and the system columns)
    gold_optional: bool = False
    #: without a gold file, the first system file's gold is the gold the others must have (conlleval: its
    #: ``score(first, other)`` checks that their tokens and gold tags agree)
    gold_from_first: bool = False
    #: the unit ``sigfast split`` / ``resample`` cut its files into (one of :data:`SPLIT_UNITS`; None: its
    #: files cannot be cut into units of their own)
    split_unit: str | None = None
    #: how ``--no-punct`` judges its units punctuation
    punct: Punct = FORM_PUNCT
    #: ``join(reports, names, options) -> reports``: the systems' reports with their items matched by id, for
    #: ``Parsed.statistics`` (the LLM logs, :mod:`sigfast.formats._logs`)
    join: Callable[..., tuple[ScoreReport, ...]] | None = None
    #: ``name_systems(reports, names, explicit) -> names``: the systems' names from their files' content (the
    #: model named in an LLM log) where the caller did not name them (``explicit[k]`` False), for ``parse``
    name_systems: Callable[..., tuple[str, ...]] | None = None
    #: ``runs(folder) -> paths``: the runs of several systems in one folder, one path per system, sorted (the
    #: folder itself, ``[folder]``, when it is one run); None: the format's systems are given file by file.
    #: The format owns its layout: :func:`sigfast.formats.runs_in` only calls this.
    runs: Callable[[Path], list[Path]] | None = None
    #: its row of the README's formats table (None: the format is not in that table, e.g. a plug-in's)
    readme: ReadmeRow | None = None

    def option(self, key: str) -> Option | None:
        k = key.replace("-", "_")
        for o in self.options:
            if o.name == k or k in o.aliases:
                return o
        return None

    def validate(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options checked against the schema: unknown or ill-typed → FormatError listing the valid ones."""
        out: dict[str, Any] = {}
        for key, value in options.items():
            o = self.option(str(key))
            if o is None:
                valid = ", ".join(o.describe() for o in self.options) or "none"
                raise FormatError(f"format {self.name!r} has no option {key!r}; its options: {valid}")
            if o.name in out:
                raise FormatError(f"format {self.name!r}: option {o.name} given twice (also as an alias)")
            out[o.name] = o.coerce(value, self.name)
        return out


@dataclass(frozen=True)
class Parsed:
    """Gold and systems parsed once; the report, statistics and units are views of it."""

    spec: FormatSpec
    options: Mapping[str, Any]
    gold: str | None
    names: tuple[str, ...]
    reports: tuple[ScoreReport, ...]
    gold_input: Any = field(default=None, repr=False, compare=False)

    @property
    def format(self) -> str:
        return self.spec.name

    def report(self, system: int | str = 0) -> ScoreReport:
        k = self.names.index(system) if isinstance(system, str) else int(system)
        return self.reports[k]

    def metric_names(self) -> list[str]:
        return list(self.reports[0].stats)

    def statistics(self, metric: str | None = None) -> Any:
        """Per-item statistics of every system for ``metric`` (default: the headline metric)."""
        import numpy as np

        from ..engine.stats import Statistics

        reports = self.reports
        if self.spec.join is not None:  # items matched by id (LLM logs)
            reports = self.spec.join(reports, self.names, self.options)
        first = reports[0]
        key = first.default_metric if metric is None or not self.spec.needs_gold else metric
        if key not in first.stats:
            folded = [k for k in first.stats if k.lower() == str(key).lower()]  # names are case-insensitive
            key = folded[0] if len(folded) == 1 else self._by_registry_name(key, first)
        items = [r.stats[key] for r in reports]
        for it in items:  # a join may mark a metric it cannot give (e.g. pass@K of partial credit)
            if "unusable" in it.extra:
                raise InputError(str(it.extra["unusable"]))
        n0, k0 = items[0].values.shape
        for n, it in zip(self.names[1:], items[1:]):
            n1, k1 = it.values.shape
            if n1 != n0:
                raise InputError(
                    f"system {n!r} has {n1} items, but {self.names[0]!r} has {n0}; paired tests need the same "
                    "items in the same order"
                )
            if k1 != k0:
                raise InputError(f"system {n!r} has {k1} values per item, but {self.names[0]!r} has {k0}")
        it0 = items[0]
        if self.spec.needs_gold:
            summary = "; ".join(
                f"{n}: {key} = {r.scores.get(key, float('nan')):.4f}" for n, r in zip(self.names, reports)
            )
            source = f"{self.format} {key} vs {self.gold}: {summary}"
        else:
            source = f"{self.format} files"
        k = it0.values.shape[1]
        metric_name = it0.metric
        if metric_name is None:  # per-item values: the caller's metric, or the mean of one value
            metric_name = metric if metric is not None else ("mean" if k == 1 else None)
        provenance: dict[str, Any] = {
            "format": self.format,
            "options": {o.name: self.options.get(o.name, o.default) for o in self.spec.options},
        }
        if isinstance(self.gold_input, (list, tuple)):
            provenance["gold_files"] = len(self.gold_input)
        provenance.update(it0.extra)
        resolved = provenance.pop("resolved_options", None)  # LLM logs: options as the logs resolved them
        if resolved:
            provenance["options"] = {**provenance["options"], **resolved}
        common = dict(
            provenance=provenance,
            metric=metric_name,
            item_ids=first.item_ids,
            source=source,
            metric_params=it0.metric_params,
            metric_label=key if self.spec.needs_gold else None,
        )
        if it0.counts:
            return Statistics.from_counts(
                {n: it.values for n, it in zip(self.names, items)}, stat_names=it0.stat_names, **common
            )
        return Statistics(np.stack([it.values for it in items]), self.names, it0.stat_names, **common)

    def _by_registry_name(self, name: str, first: ScoreReport) -> str:
        """The statistics a registry metric's name (or alias) stands for in this format: the headline
        if it is computed with that metric, else the one statistics computed with it (``-m macro_f1_2008``
        on conll08 is its ``labeled_macro_f1``)."""
        from ..exceptions import MetricError
        from ..metrics import get

        stats = first.stats
        import difflib

        close = difflib.get_close_matches(str(name).lower(), list(stats), n=1, cutoff=0.6)
        choose = (f"did you mean {close[0]!r}? " if close else "") + f"choose one of {', '.join(sorted(stats))}"

        def native(m: Any) -> str:
            return m.native or m.name

        try:
            wanted = native(get(name))
        except (MetricError, InputError):
            raise InputError(f"format {self.format!r} has no per-item metric {name!r}; {choose}") from None
        found = []
        for k, st in stats.items():
            try:
                if st.metric is not None and native(get(st.metric, **st.metric_params)) == wanted:
                    found.append(k)
            except (MetricError, InputError):  # pragma: no cover - the formats' own metrics resolve
                continue
        default = first.default_metric
        if default in found:
            return default
        if len(found) == 1:
            return found[0]
        if found:
            raise InputError(
                f"format {self.format!r} computes several statistics with metric {name!r} ({', '.join(found)}); "
                "name one of them"
            )
        raise InputError(f"format {self.format!r} has no per-item metric {name!r}; {choose}")

    def units(self, view: str | None = None) -> Units:
        """The labelled units of ``view`` for every system, united (see :class:`UnitTable`)."""
        from dataclasses import replace

        tables = [r.units(view) for r in self.reports]
        o = self.spec.option("align")  # the alignment the scorer used: the option given, else its default
        align = str(self.options.get("align", o.default if o is not None else "tokens"))
        options = {o.name: self.options.get(o.name, o.default) for o in self.spec.options}
        return replace(combine_units(tables, self.names, self.format, align), options=options)


# --------------------------------------------------------------------------------------------
# files

#: The default limit on one input file's size, in bytes after gzip decompression (1 GiB);
#: the environment variable ``SIGFAST_MAX_FILE_BYTES`` sets another.
DEFAULT_MAX_FILE_BYTES = 1 << 30
_CHUNK = 1 << 24
_PIECE = 1 << 20  # bytes decompressed at a time
_BOM = b"\xef\xbb\xbf"


def max_file_bytes() -> int:
    """The size limit of one input file (``SIGFAST_MAX_FILE_BYTES``, default 1 GiB)."""
    raw = os.environ.get("SIGFAST_MAX_FILE_BYTES", "").strip().replace("_", "")
    if not raw:
        return DEFAULT_MAX_FILE_BYTES
    try:
        v = int(raw)
    except ValueError:
        raise InputError(f"SIGFAST_MAX_FILE_BYTES must be a whole number of bytes, got {raw!r}") from None
    if v < 1:
        raise InputError(f"SIGFAST_MAX_FILE_BYTES must be at least 1, got {v}")
    return v


def display(path: str | Path | Any) -> str:
    return str(path)


def shorten(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters (with the full length) for error messages."""
    r = repr(value)
    if len(r) <= limit:
        return r
    n = len(value) if isinstance(value, (str, bytes)) else len(r)
    return f"{r[: limit - 1]}… ({n:,} characters)"


def _too_large(name: str, role: str, limit: int, what: str = "", member: str | None = None) -> FormatError:
    if member is not None:
        return FormatError(
            f"member {member} of the {role} file is larger than {limit:,} bytes once decompressed, sigfast's limit "
            "for one input file or archive member (an archive that expands without end?); give a genuine file, or "
            "raise the limit with SIGFAST_MAX_FILE_BYTES=N",
            path=name,
        )
    return FormatError(
        f"the {role} file is larger than {limit:,} bytes{what}, sigfast's limit for one input file (an endless "
        "stream such as /dev/zero?); give a regular file, or raise the limit with SIGFAST_MAX_FILE_BYTES=N",
        path=name,
    )


def gather_limited(
    pieces: Iterable[bytes],
    name: str,
    role: str,
    what: str = " once decompressed",
    *,
    member: str | None = None,
    declared: int | None = None,
) -> bytearray:
    """The pieces a decompressor yields, joined, stopped as soon as they pass :func:`max_file_bytes`.

    The one size check of every codec (gzip here, an ``.eval`` log's deflate and zstd members):
    it runs while decompressing, so a small archive that expands without end costs at most the
    limit in memory, never its full size. The result grows in place (a bytearray, no join), so a
    file at the limit takes about the limit. ``member`` names the archive member being read (the
    limit holds for each member);
    ``declared``, the size its archive declares, refuses it before any work when above the limit.
    """
    limit = max_file_bytes()
    if declared is not None and declared > limit:
        raise _too_large(name, role, limit, what, member)
    out = bytearray()
    for piece in pieces:
        out += piece
        if len(out) > limit:
            del out[:]
            raise _too_large(name, role, limit, what, member)
    return out


def _gunzip(data: bytes, limit: int) -> Iterator[bytes]:
    """Every gzip member of ``data`` (as gzip.decompress reads them), at most ``limit + 1`` bytes at a time."""
    import zlib

    rest = data
    while rest[:2] == b"\x1f\x8b":
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        buf = rest
        while not d.eof:  # with empty input too while zlib still holds output (a long match)
            piece = d.decompress(buf, min(limit + 1, _PIECE))
            buf = d.unconsumed_tail
            if not piece and not buf:
                raise EOFError("the compressed stream ends before its end marker")
            yield piece
        rest = d.unused_data.lstrip(b"\x00")


def read_file_bytes(path: str | Path | Any, role: str, *, keep_bom: bool = False) -> tuple[bytes, str]:
    """A file's bytes and its display name: the one way every reader opens a file.

    Gzip data (by its magic bytes, whatever the file's name) is decompressed;
    a UTF-8 byte-order mark at the start is dropped (unless ``keep_bom``:
    ``sigfast split`` writes files back byte for byte); a file larger than
    :func:`max_file_bytes` (after decompression, checked while decompressing:
    :func:`gather_limited`) stops with a FormatError, so an endless stream
    ends with an error, not with memory exhausted. Errors name the file and
    say what is wrong: missing, unreadable, too large, or a broken gzip stream.
    """
    import zlib

    if path is None or not isinstance(path, (str, os.PathLike)):
        raise InputError(f"the {role} file must be a path (str or os.PathLike), got {type(path).__name__}")
    name = display(path)
    limit = max_file_bytes()
    chunks: list[bytes] = []
    size = 0
    try:
        with open(path, "rb") as fh:
            while True:
                b = fh.read(min(_CHUNK, limit + 1 - size))
                if not b:
                    break
                chunks.append(b)
                size += len(b)
                if size > limit:
                    raise _too_large(name, role, limit)
    except IsADirectoryError:
        raise FormatError(f"the {role} file is a directory, expected a file", path=name) from None
    except FileNotFoundError:
        raise FormatError(f"cannot read the {role} file: no such file", path=name) from None
    except OSError as e:
        raise FormatError(f"cannot read the {role} file: {e.strerror or e}", path=name) from None
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    del chunks
    if data[:2] == b"\x1f\x8b":
        try:
            out = gather_limited(_gunzip(data, limit), name, role)
        except (zlib.error, EOFError) as e:
            raise FormatError(
                f"the {role} file looks gzip-compressed but cannot be decompressed: {e}", path=name
            ) from None
        del data
        data = bytes(out)
        del out
    if data.startswith(_BOM) and not keep_bom:
        data = data[len(_BOM) :]
    return data, name


def decode_utf8(data: bytes, name: str, role: str = "") -> str:
    """``data`` as UTF-8 text, or a FormatError naming the line and byte that are not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        start = data.rfind(b"\n", 0, e.start) + 1
        col = len(data[start : e.start].decode("utf-8", "replace")) + 1
        what = f"the {role} file" if role else "the file"
        raise FormatError(
            f"byte 0x{data[e.start]:02x} at column {col} is not valid UTF-8 ({what} must be UTF-8); "
            "re-encode it (e.g. iconv -f LATIN1 -t UTF-8)",
            path=name,
            line=line,
        ) from None


def read_text(path: str | Path | Any, role: str) -> tuple[str, str]:
    """A file's text (UTF-8; gzip, byte-order mark and size limit as :func:`read_file_bytes`) and its name."""
    data, name = read_file_bytes(path, role)
    return decode_utf8(data, name, role), name


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only (a final newline ends the last line; no empty line after it)."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines
