"""The pieces every format module declares and returns.

A format module declares one or more :class:`FormatSpec` in a module-level
``SPECS`` tuple: its name, aliases, file extensions, a typed options schema
(:class:`Option`) and a ``score(gold, system, **options) -> ScoreReport``
function. One call of ``score`` parses one system file against gold once;
its :class:`ScoreReport` serves the three views of that parse:

* ``text`` — the reference scorer's report, byte for byte;
* ``stats`` — per-item sufficient statistics for each of the format's metrics;
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError

__all__ = [
    "MISSING",
    "FormatSpec",
    "ItemStats",
    "Option",
    "Parsed",
    "ScoreReport",
    "UnitTable",
    "Units",
    "display",
    "read_file_bytes",
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
            elif isinstance(value, (bool, np.bool_)):
                v = bool(value)
            else:
                raise self._bad(value, fmt)
        elif t is int:
            if isinstance(value, str):
                try:
                    v = int(value.strip())
                except ValueError:
                    raise self._bad(value, fmt) from None
            elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
                v = int(value)
            else:
                raise self._bad(value, fmt)
        elif t is float:
            if isinstance(value, str):
                try:
                    v = float(value.strip())
                except ValueError:
                    raise self._bad(value, fmt) from None
            elif isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
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
    stats: dict[str, ItemStats]
    default_metric: str
    item_ids: tuple[str, ...] | None = None
    views: tuple[str, ...] = ()
    unit_source: Callable[[str], UnitTable] | None = field(default=None, repr=False, compare=False)
    warnings: tuple[str, ...] = ()
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
class FormatSpec:
    """A format's declaration; the registry (:mod:`sigfast.formats`) reads it.

    ``score(gold, system, **options)`` parses one system file against gold
    (``gold`` is None for formats of per-item values, ``needs_gold=False``).
    ``views`` lists the unit views, the first being the default.
    ``metrics`` lists the per-item metrics ``stats`` offers (for ``sigfast
    info``; the first is the headline). ``detect(first_lines)`` may claim a
    file from its first lines when its extension says nothing.
    ``gold_optional``: the format reads gold from the system file when no
    gold file is given.
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
    #: ``join(reports, names, options) -> reports``: the systems' reports with their items matched by id, for
    #: ``Parsed.statistics`` (the LLM logs, :mod:`sigfast.formats._logs`)
    join: Callable[..., tuple[ScoreReport, ...]] | None = None
    #: ``name_systems(reports, names, explicit) -> names``: the systems' names from their files' content (the
    #: model named in an LLM log) where the caller did not name them (``explicit[k]`` False), for ``parse``
    name_systems: Callable[..., tuple[str, ...]] | None = None

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
        from ..stats import Statistics

        reports = self.reports
        if self.spec.join is not None:  # items matched by id (LLM logs)
            reports = self.spec.join(reports, self.names, self.options)
        first = reports[0]
        key = first.default_metric if metric is None or not self.spec.needs_gold else metric
        if key not in first.stats:
            raise InputError(
                f"format {self.format!r} has no per-item metric {key!r}; choose one of {', '.join(sorted(first.stats))}"
            )
        items = [r.stats[key] for r in reports]
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


def display(path: str | Path | Any) -> str:
    return str(path)


def read_file_bytes(path: str | Path | Any, role: str) -> tuple[bytes, str]:
    """A file's bytes (gunzipped when it is gzip data) and its display name.

    Errors name the file and say what is wrong: missing, unreadable, or a
    broken gzip stream.
    """
    import gzip

    name = display(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise FormatError(f"cannot read the {role} file: {e.strerror or e}", path=name) from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise FormatError(
                f"the {role} file looks gzip-compressed but cannot be decompressed: {e}", path=name
            ) from None
    return data, name
