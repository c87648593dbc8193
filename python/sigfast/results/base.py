"""Frozen result objects: every number says how it was produced.

Every result shares one shape (:class:`Result`): SciPy's names where they
apply (``statistic``, ``pvalue``, ``confidence_interval``), a ``signature``
built by :mod:`sigfast.signature`, ``to_dict()``/``to_json()``, ``rows()`` and
``to_frame()`` as tidy data (one row per system, pair or metric; numbers as
numbers), and one ``format(style)`` for text, markdown, LaTeX, CSV and JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, NamedTuple, TypeVar

import numpy as np

from .._api import checked_methods, closest
from ..exceptions import ArgumentError

__all__ = ["ConfidenceInterval", "Key", "PairedTestResult", "Result", "deprecated_alias", "option"]


class ConfidenceInterval(NamedTuple):
    low: float
    high: float


def _plain(v: Any) -> Any:
    if isinstance(v, ConfidenceInterval):
        return {"low": _plain(float(v.low)), "high": _plain(float(v.high))}
    if isinstance(v, Result):
        return v.to_dict()
    if is_dataclass(v) and not isinstance(v, type) and hasattr(v, "to_dict"):  # a part of a result
        return _plain(v.to_dict())
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "iub":  # whole numbers and booleans: tolist() gives them plain
            return v.tolist()
        if v.dtype.kind == "f" and v.ndim:  # one list of floats, non-finite entries set to None in place
            out = v.tolist()
            for idx in np.argwhere(~np.isfinite(v)).tolist():
                at = out
                for k in idx[:-1]:
                    at = at[k]
                at[idx[-1]] = None
            return out
        return _plain(v.tolist())
    if isinstance(v, (set, frozenset)):
        return sorted(_plain(x) for x in v)
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return _plain(v.item())
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def flat_row(d: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """One tidy row from a (plain) dict: intervals as ``*_low``/``*_high`` columns, nested mappings
    as ``outer_inner`` columns, lists of names joined with " vs ", lists of numbers as ``key_0``,
    ``key_1``, ...; other lists (nested tables) are left out."""
    row: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            if set(v) == {"low", "high"}:
                row[f"{key}_low"], row[f"{key}_high"] = v["low"], v["high"]
            else:
                row.update(flat_row(v, f"{key}_"))
        elif isinstance(v, (list, tuple)):
            if v and all(isinstance(x, str) for x in v):
                row[key] = " vs ".join(v)
            elif all(x is None or (isinstance(x, (int, float, np.number)) and not isinstance(x, bool)) for x in v):
                row.update({f"{key}_{i}": x for i, x in enumerate(v)})
        else:
            row[key] = v
    return row


class Key(NamedTuple):
    """One entry of a result's :meth:`Result.to_dict` (see ``Result._keys``): ``name`` holds the value of
    ``source`` (a field, a property or a method called without arguments; default: ``name`` itself),
    and is left out unless the option ``when`` is true. The name ``"*"`` merges the items of a mapping
    (a manifest) in."""

    name: str
    source: str = ""
    when: str = ""


def option(default: Any) -> Any:
    """A display setting of a result (how a table is sorted or cut, whether the per-test values go into
    the JSON), not part of what was computed: a dataclass field that :meth:`Result.format`,
    :meth:`Result.to_dict`, :meth:`Result.to_json`, :meth:`Result.to_frame` and :meth:`Result.to_csv` take
    as a keyword (``r.format("text", sort="delta")``; :meth:`Result.with_options`), left out of
    ``to_dict()``, ``repr()`` and comparisons."""
    return field(default=default, compare=False, repr=False, metadata={"option": True})


def deprecated_alias(style: str, name: str) -> Any:
    """A thin, deprecated method ``name`` that returns ``self.format(style, **options)`` (an old name kept
    because tests or users still call it)."""

    def alias(self: Result, **options: Any) -> str:
        import warnings

        warnings.warn(
            f"sigfast: {type(self).__name__}.{name}() is deprecated; use .format({style!r})",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.format(style, **options)

    alias.__name__ = alias.__qualname__ = name
    alias.__doc__ = f"Deprecated: ``format({style!r})``."
    alias.deprecated_alias = True  # type: ignore[attr-defined]
    return alias


def design_min_pvalue(test: str, units: int, alternative: str = "two-sided") -> float:
    """The smallest p-value a resampling test on ``units`` units (clusters, else items) can give
    whatever B (:attr:`PairedTestResult.design_min_pvalue`): u^-u for the bootstrap (its least likely
    resample, every draw the same unit), 2^-u for a sign-flip permutation (2^(1-u) two-sided)."""
    u = int(units)
    if u < 1:
        return 1.0
    if "permutation" in test or "randomization" in test:
        return min(1.0, 2.0 ** ((1 if alternative == "two-sided" else 0) - u))
    return math.exp(-u * math.log(u))


_JSON_KEYWORDS = ("skipkeys", "ensure_ascii", "check_circular", "allow_nan", "cls", "indent", "separators")
_JSON_KEYWORDS += ("default", "sort_keys")


class Result:
    """The shape every result shares (a mixin of frozen dataclasses): one protocol for every output.

    The output methods live here and nowhere else: :meth:`to_dict`, :meth:`to_json`, :meth:`rows` as
    :meth:`to_frame` and :meth:`to_csv`, :meth:`format` (``"text"``, ``"markdown"``, ``"latex"``,
    ``"csv"``, ``"json"``) and ``str()`` (the text without its last line break). A result class
    says what differs as data, and fills in the hooks:

    - ``signature``: a field, or a property built by :func:`sigfast.signature.build`.
    - ``_keys`` (data): the keys of :meth:`to_dict` in order, each a name or a :class:`Key` (a value
      taken from another field, property or method; one present only under an option). Without it:
      every field but ``_hidden`` and the options, then the properties named in ``_extra``, then the
      signature (at its field's place when it is a field).
    - :func:`option` fields (data): display settings that every output method takes as keywords.
    - ``rows()``: tidy records, one per system, pair, metric or label; numbers as numbers (the CSV
      and :meth:`to_frame`). Default: the one flat row of :meth:`to_dict`. (``to_rows()`` instead,
      where a field is already named ``rows``.)
    - ``tables()``: the :class:`sigfast.report.Table` list that text, markdown and LaTeX show
      (title, notes, signature, LaTeX header and rule rows are table data). Default: :meth:`rows`.
      It may take the options as keywords too (``pairwise.tables(band=...)``: :meth:`with_options`).
    - ``_text()``: the readable text block, where it is more than the tables as text.
    - ``_report(style)``: text, markdown and LaTeX of a report that is more than tables (prose and
      tables interleaved: the error analyses of :mod:`sigfast.analysis`).

    A structural test (``tests/test_results_protocol.py``) keeps subclasses from defining the
    output methods themselves, but for :func:`deprecated_alias` methods.
    """

    #: fields left out of to_dict (large arrays kept for the caller)
    _hidden: tuple[str, ...] = ("distribution", "samples")
    #: the keys of to_dict, in order (names or :class:`Key`); empty: the fields (see the class docs)
    _keys: tuple[str | Key, ...] = ()
    #: properties appended to the fields in to_dict (without ``_keys``)
    _extra: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        checked_methods(cls)  # a misspelt keyword to any result's method names the closest one

    # ---------------------------------------------------------------- options
    def _option_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self) if f.metadata.get("option"))  # type: ignore[arg-type]

    def with_options(self: _R, **options: Any) -> _R:
        """The same result with other display settings (:func:`option` fields)."""
        if not options:
            return self
        known = self._option_names()
        unknown = [k for k in options if k not in known]
        if unknown:
            have = f"; its options are {', '.join(known)}" if known else "; it takes none"
            raise ArgumentError(
                f"{type(self).__name__} has no output option {unknown[0]!r}{closest(unknown[0], known)}{have}"
            )
        return replace(self, **options)  # type: ignore[type-var]

    # ---------------------------------------------------------------- data
    def _dict_keys(self) -> tuple[str | Key, ...]:
        if self._keys:
            return self._keys
        names = [
            f.name
            for f in fields(self)  # type: ignore[arg-type]
            if f.name not in self._hidden and not f.metadata.get("option")
        ]
        return (*names, *self._extra, *(() if "signature" in names else ("signature",)))

    def to_dict(self, **options: Any) -> dict[str, Any]:
        """Everything the result holds, as JSON-ready values (non-finite numbers as None)."""
        r = self.with_options(**options)
        out: dict[str, Any] = {}
        for key in r._dict_keys():
            k = Key(key) if isinstance(key, str) else key
            if k.when and not getattr(r, k.when):
                continue
            v = getattr(r, k.source or k.name)
            v = _plain(v() if callable(v) else v)
            if k.name == "*":
                out.update(v)
            else:
                out[k.name] = v
        return out

    def to_json(self, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON (indented by 2, UTF-8 kept); options and ``json.dumps`` keywords."""
        names = self._option_names()
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in names}
        for k in kwargs:
            if k not in _JSON_KEYWORDS:
                raise ArgumentError(
                    f"{type(self).__name__}.to_json() got an unexpected keyword argument {k!r}"
                    f"{closest(k, [*names, *_JSON_KEYWORDS])} (it takes its output options and json.dumps keywords)"
                )
        kwargs.setdefault("indent", 2)
        kwargs.setdefault("ensure_ascii", False)
        return json.dumps(self.to_dict(**options), **kwargs)

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records: one per system, pair or metric; numbers as numbers (here: one row)."""
        return [flat_row(self.to_dict())]

    def to_rows(self) -> list[dict[str, Any]]:
        """:meth:`rows` (the name every output method calls: a result may hold a field named ``rows``)."""
        return self.rows()

    def to_frame(self, **options: Any) -> Any:
        """:meth:`rows` as a pandas DataFrame, the table :meth:`to_csv` writes (pandas is optional,
        imported here)."""
        from .._api import frame

        return frame(flat_row(r) for r in self.with_options(**options).to_rows())

    def to_csv(self, **options: Any) -> str:
        """:meth:`rows` as CSV that ``pandas.read_csv`` loads as it is."""
        return rows_csv(flat_row(r) for r in self.with_options(**options).to_rows())

    # ---------------------------------------------------------------- presentation
    def tables(self) -> list[Any]:
        """What text, markdown and LaTeX show: by default :meth:`rows` as one table."""
        from .report import Table

        rows = self.to_rows()
        head = tuple(dict.fromkeys(k for r in rows for k in r if k != "signature"))
        body = tuple(tuple(_cell(r.get(k)) for k in head) for r in rows)
        return [Table(head, body, title=type(self).__name__, signature=self.signature)]  # type: ignore[attr-defined]

    def _report(self, style: str) -> str:
        from .report import render_tables

        return render_tables(self.tables(), style)

    def _text(self) -> str:
        return self._report("text")

    def format(self, style: str = "text", **options: Any) -> str:
        """The result in an output style of :mod:`sigfast.styles`: ``"text"``, ``"markdown"``, ``"latex"``
        (the signature in a comment line), ``"csv"`` (:meth:`rows`), ``"json"`` (:meth:`to_dict`) or a
        registered one; ``options``: its :func:`option` fields. An unknown style is an error naming the
        known ones."""
        from .styles import get

        found = get(style)  # before the options: an unknown style is the error, whatever else is asked
        return found.format(self.with_options(**options))

    def __str__(self) -> str:
        return self.format("text").removesuffix("\n")


checked_methods(Result)

_R = TypeVar("_R", bound=Result)


def _cell(v: Any) -> Any:
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else v


def rows_csv(rows: Any) -> str:
    """CSV of tidy records: a header of every key, numbers at full precision, missing as empty."""
    import io

    rows = list(rows)
    buf = io.StringIO()
    write_rows_csv(buf.write, lambda: rows)
    return buf.getvalue()


def write_rows_csv(write: Callable[[str], Any], rows: Callable[[], Iterable[Mapping[str, Any]]]) -> None:
    """:func:`rows_csv` written piece by piece: ``rows()`` is called twice (the header's keys, then the
    rows), so a result's rows can be made one at a time and never held all at once (the CLI's CSV of
    two million pairs)."""
    import csv
    import io

    head = list(dict.fromkeys(k for r in rows() for k in r))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=head, lineterminator="\n", restval="")
    w.writeheader()
    for n, r in enumerate(rows(), 1):
        w.writerow({k: ("" if v is None or (isinstance(v, float) and v != v) else v) for k, v in r.items()})
        if n % 4096 == 0:
            write(buf.getvalue())
            buf.seek(0)
            buf.truncate()
    write(buf.getvalue())


def iter_rows_of(result: Any) -> Iterator[dict[str, Any]]:
    """A result's tidy rows one at a time: its ``iter_rows()`` when it makes them lazily, else ``to_rows()``
    (or ``rows()``)."""
    it = getattr(result, "iter_rows", None)
    if it is not None:
        return iter(it())
    return iter((getattr(result, "to_rows", None) or result.rows)())


@dataclass(frozen=True)
class PairedTestResult(Result):
    """The outcome of a paired test of system ``y`` against system ``x``.

    ``statistic`` is δ = metric(y) − metric(x); ``pvalue`` follows the
    ``test``, ``variant`` and ``alternative`` named here; ``count`` is the
    number of resamples at least as extreme, out of ``n_resamples``.
    """

    test: str
    variant: str
    alternative: str
    metric: str
    higher_is_better: bool
    systems: tuple[str, str]
    score_x: float
    score_y: float
    statistic: float
    pvalue: float
    count: int
    n_resamples: int
    pvalue_method: str
    seed: int | None
    n_items: int
    resampling: str
    confidence_level: float | None = None
    confidence_interval: ConfidenceInterval | None = None
    score_x_interval: ConfidenceInterval | None = None
    score_y_interval: ConfidenceInterval | None = None
    display_scale: int = 1
    version: str = ""
    stream_version: int = 0
    distribution: np.ndarray | None = field(default=None, repr=False, compare=False)
    signature: str = ""
    #: Loud caveats about the result (e.g. fewer than ``MIN_ITEMS`` items); printed in reports.
    warnings: tuple[str, ...] = ()
    #: Resamples the p-value and intervals rest on (fewer than ``n_resamples`` only when
    #: ``nan_policy="omit"`` dropped undefined ones).
    n_valid: int | None = None
    nan_policy: str = "raise"
    #: Clusters resampled (whole clusters drawn or swapped), or None when items were.
    n_clusters: int | None = None

    @property
    def winner(self) -> str | None:
        """The system with the better observed score (None on a tie)."""
        if self.score_x == self.score_y:
            return None
        better_y = (self.score_y > self.score_x) == self.higher_is_better
        return self.systems[1] if better_y else self.systems[0]

    @property
    def design_min_pvalue(self) -> float:
        """The smallest p-value the design itself can give, whatever B: with u units resampled (the
        clusters, else the items), the bootstrap's least likely resample (every draw the same unit) has
        probability u^-u, so its p-value is 0 or at least that, and 0 is reported as the floor
        1/(B+1), which then says nothing; a sign-flip permutation's p is at least 2^-u (one-sided;
        2^(1-u) two-sided). 1 cluster: 1; 2 clusters: 0.25 (bootstrap), 0.5 (two-sided permutation);
        3 clusters: 0.037 (bootstrap). A p-value below ``alpha`` is evidence only where this is below
        ``alpha`` too (:meth:`reaches`)."""
        u = self.n_clusters if self.n_clusters is not None else self.n_items
        return design_min_pvalue(self.test, u, self.alternative)

    def reaches(self, alpha: float = 0.05) -> bool:
        """Whether this design can give a p-value below ``alpha`` at all (:attr:`design_min_pvalue`):
        with 1 or 2 clusters it cannot, and a p below alpha is only the resampling floor 1/(B+1);
        the reports print no significance star there."""
        return self.design_min_pvalue < alpha

    @property
    def sidedness(self) -> str:
        """One line saying which side the p-value and the interval each cover, when they differ
        (a one-sided p beside a two-sided interval); empty when they agree or there is no interval."""
        if self.confidence_interval is None or self.alternative == "two-sided":
            return ""
        cl = f"{100 * (self.confidence_level or 0):g}%"
        side = {
            "observed-direction": "one-sided in the observed direction",
            "observed-winner": "one-sided (the observed winner)",
            "greater": "one-sided (greater)",
            "less": "one-sided (less)",
        }.get(self.alternative, self.alternative)
        return (
            f"p is {side}; the {cl} interval of delta is two-sided (it may include 0 where p < 0.05: "
            "they answer different questions)"
        )

    def rows(self) -> list[dict[str, Any]]:
        """One tidy row: the pair (``system_x``, ``system_y``), scores, δ, p and intervals as numbers."""
        row = flat_row(self.to_dict())
        row["system_x"], row["system_y"] = self.systems
        return [row]

    def tables(self) -> list[Any]:
        from .report import Table, _fmt_p, _fmt_score

        scale = self.display_scale
        ci = self.confidence_interval
        head = ("baseline", self.metric, "system", self.metric, "delta", "CI", "p")
        row = (
            self.systems[0],
            _fmt_score(scale, self.score_x),
            self.systems[1],
            _fmt_score(scale, self.score_y),
            f"{scale * self.statistic:+.4f}",
            f"[{scale * ci.low:+.4f}, {scale * ci.high:+.4f}]" if ci else "",
            _fmt_p(self.pvalue),
        )
        notes = (
            f"test: {self.test} ({self.variant}, {self.alternative})",
            *([self.sidedness] if self.sidedness else []),
        )
        return [Table(head, (row,), notes=notes, signature=self.signature)]

    def _text(self) -> str:
        from .report import format_result

        return format_result(self) + "\n"

    def __repr__(self) -> str:
        from .._api import short_repr

        ci = self.confidence_interval
        return short_repr(
            self,
            f"{self.test} {self.variant} ({self.alternative}), {self.metric}: "
            f"{self.systems[0]} {self.score_x:.6g} vs {self.systems[1]} {self.score_y:.6g}",
            {
                "statistic": f"{self.statistic:+.6g}",
                "pvalue": f"{self.pvalue:.6g}",
                "confidence_interval": None if ci is None else f"({ci.low:+.6g}, {ci.high:+.6g})",
                "n_resamples": f"{self.n_resamples:,}",
                "seed": self.seed,
                "n_items": self.n_items,
            },
        )
