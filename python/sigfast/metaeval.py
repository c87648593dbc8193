"""Metric meta-evaluation: how well do metrics agree with human judgements,
with intervals, and does metric A agree significantly better than metric B?

Scores live on a systems × items table (NaN = not scored). Levels:

* ``"system"``: average each system's scored items, correlate across systems;
* ``"global"``: every scored (system, item) cell, flattened ("no grouping");
* ``"item"``: correlate across systems within each item, average over items
  ("group by item", "per input", WMT's segment level);
* ``"system_grouped"``: correlate across items within each system, average.

Statistics (:data:`sigfast.itemlevel.ITEM_STATISTICS`): ``pearson``,
``spearman``, ``kendall_b``, ``kendall_c``, ``tau_like`` (WMT DARR,
``threshold=25`` for DA), ``pairwise_accuracy`` and ``acc_eq`` (with tie
calibration unless ``epsilon=`` is given; one ε for all groups, as WMT23).

At the grouped levels a group whose statistic is undefined (fewer than two
scored cells, a constant vector, no qualifying pair) is skipped, for every
statistic. ``tau_like`` averages the groups' τ-like values;
``tau_like_pooled`` is WMT's DARR τ-like, which pools the groups' pairs,
Σ(C − D)/Σ(C + D) (mt-metrics-eval ``KendallLike(average_by="item")``). On
one group (system and global level) the two are equal.

Intervals: BOOT-SYSTEMS / BOOT-INPUTS / BOOT-BOTH (Deutsch, Dror & Roth 2021)
resample systems, items or both and recompute the correlation (percentile
intervals over the resamples on which it is defined, streamed in memory that
does not grow with B). Tests of "A correlates better than B": PERM-SYSTEMS /
PERM-INPUTS swap A's and B's z-normalised scores per system or per item;
PERM-BOTH (``test="perm-both"``, the default) swaps each (system, item) cell
on its own coin, as the paper's code (sacrerouge) does; PERM-BOTH-ROWCOL
(``test="perm-both-rowcol"``) swaps whole systems and then whole items, as
nlpstats' ``permutation_test(..., "both")`` does (a cell ends up swapped when
exactly one of its row's and its column's coins says so). Or Williams' test
for dependent correlations (Graham & Baldwin 2014). All heavy loops run in
Rust.

Undefined resamples (``nan_policy``): a resample on which a correlation is
undefined (a constant resampled metric; at system level, a resample that
leaves a system with no scored item) is dropped with ``"omit"`` (the default;
``n_valid`` says how many each interval rests on), stops the run with
``"raise"``, or, with ``"omit-system"``, a system-level resample drops the
system that has no scored item and keeps the others (earlier versions did
this silently; nlpstats raises instead, as ``"raise"``). An observed correlation that is undefined has no interval and
no p-value (NaN, with a warning), never a p-value from counting.
"""

from __future__ import annotations

import math
import os
import re
import warnings as _warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from . import _native
from ._options import DEFAULT_CONFIDENCE, DEFAULT_SEED, shared_options
from ._progress import ProgressArg
from ._progress import resolve as _resolve_progress
from .exceptions import FormatError, InputError
from .executor import check_threads as _threads
from .itemlevel import ITEM_STATISTICS, _label, resolve_statistic
from .results import Result, deprecated_alias
from .signature import hash_data

__all__ = [
    "LEVELS",
    "MISSING_POLICIES",
    "SYSTEM_LEVEL_ITEM",
    "WMT_ALIASES",
    "MetaEvalResult",
    "MtmeData",
    "ScoreTable",
    "align",
    "evaluate",
    "read_mtme",
    "read_scores",
    "segment_scores",
]

LEVELS = ("system", "global", "item", "system_grouped")
_LEVEL_ALIASES = {"segment": "global", "none": "global", "input": "item", "sys": "system_grouped"}
_SCHEMES = ("systems", "inputs", "both")
_TESTS = ("perm-systems", "perm-inputs", "perm-both", "perm-both-rowcol", "williams", "none")
#: permutation test -> the native swap scheme
_PERM_SCHEMES = {
    "perm-systems": "systems",
    "perm-inputs": "inputs",
    "perm-both": "both",
    "perm-both-rowcol": "both-rowcol",
}
#: undefined resamples: drop the resample, stop, or (system level) drop the empty system
NAN_POLICIES = ("omit", "raise", "omit-system")
_MISSING = {"", "none", "nan", "na", "n/a", "null", "-"}


# --------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class ScoreTable:
    """Scores of systems on items: ``values[i, j]`` for system i, item j (NaN = missing)."""

    systems: tuple[str, ...]
    items: tuple[str, ...]
    values: np.ndarray
    #: The file it was read from (named in errors), if any.
    source: str = field(default="", compare=False)
    #: A name the file gives its scores (an mt-metrics-eval metric file: ``chrF-refA``), if any.
    name: str = field(default="", compare=False)

    @property
    def is_system_level(self) -> bool:
        """One score per system (its one item is :data:`SYSTEM_LEVEL_ITEM`)."""
        return self.items == (SYSTEM_LEVEL_ITEM,)

    def renamed(self, mapping: Mapping[str, str]) -> ScoreTable:
        """The same table with systems renamed through ``mapping`` (others kept)."""
        return replace(self, systems=tuple(mapping.get(s, s) for s in self.systems))

    def __post_init__(self) -> None:
        v = np.asarray(self.values, dtype=np.float64)
        if v.shape != (len(self.systems), len(self.items)):
            raise InputError(f"values have shape {v.shape}, expected {len(self.systems)} x {len(self.items)}")
        if np.isinf(v).any():
            raise InputError("scores must be finite or NaN (missing)")
        for what, names in (("system", self.systems), ("item", self.items)):
            if len(set(names)) != len(names):
                seen: dict[str, int] = {}
                for k, name in enumerate(names):
                    if name in seen:
                        raise InputError(
                            f"{what} {_short(name)} appears twice (rows {seen[name] + 1} and {k + 1} of the "
                            f"{what}s): each {what} needs one row of scores; remove or rename the duplicate"
                            if what == "system"
                            else f"item {_short(name)} appears twice (columns {seen[name] + 1} and {k + 1}): "
                            "each item needs one column of scores; remove or rename the duplicate"
                        )
                    seen[name] = k
        object.__setattr__(self, "values", v)

    @classmethod
    def from_long(cls, rows: Sequence[tuple[Any, Any, Any]]) -> ScoreTable:
        """From (system, item, score) rows; a repeated cell is an error."""
        systems: dict[str, int] = {}
        items: dict[str, int] = {}
        cells: dict[tuple[int, int], float] = {}
        for s, i, v in rows:
            si = systems.setdefault(str(s), len(systems))
            ii = items.setdefault(str(i), len(items))
            if (si, ii) in cells:
                raise InputError(f"system {s!r}, item {i!r} has two scores")
            cells[si, ii] = _num(v)
        values = np.full((len(systems), len(items)), np.nan)
        for (si, ii), v in cells.items():
            values[si, ii] = v
        return cls(tuple(systems), tuple(items), values)

    def select(self, systems: Sequence[str], items: Sequence[str]) -> np.ndarray:
        """The values on these systems and items (missing ones NaN)."""
        si = {s: k for k, s in enumerate(self.systems)}
        ii = {s: k for k, s in enumerate(self.items)}
        out = np.full((len(systems), len(items)), np.nan)
        cols = [ii.get(i, -1) for i in items]
        have = np.array([c >= 0 for c in cols])
        cidx = np.array([max(c, 0) for c in cols], dtype=np.int64)
        for r, s in enumerate(systems):
            k = si.get(s)
            if k is not None:
                out[r, have] = self.values[k, cidx[have]]
        return out


def _short(name: Any, limit: int = 60) -> str:
    """A name quoted for an error message, cut to ``limit`` characters."""
    r = repr(str(name))
    return r if len(r) <= limit else r[: limit - 4] + "...'"


def _num(v: Any) -> float:
    if isinstance(v, str):
        if v.strip().lower() in _MISSING:
            return math.nan
        try:
            return float(v)
        except ValueError:
            raise InputError(f"score {v!r} is not a number") from None
    return float(v)


_SYS_COLS = ("system", "sys", "system_name", "model")
_ITEM_COLS = ("item", "seg_id", "segment", "sid", "seg", "segment_id", "item_id", "doc_seg", "id")
#: Score columns preferred when a header names several: WMT's DA files give RAW.SCR, Z.SCR and N
#: (the number of ratings); WMT ranks systems by the standardised Z.SCR.
_PREFERRED_SCORES = ("z.scr", "z", "score")

#: The one item of a system-level table (one score per system: a ``system score`` file, an
#: mt-metrics-eval ``.sys.score`` file, WMT's ``ad-sys-scores-*.csv``).
SYSTEM_LEVEL_ITEM = "(system level)"

#: System names WMT's own files spell differently from the system outputs they score
#: (WMT21: the human evaluation files say ``Nemo`` for the outputs ``*.hyp.NVIDIA-NeMo.*``).
#: :func:`read_scores` applies them (``aliases=`` replaces them; ``{}`` turns them off) and
#: :func:`align` matches systems through them.
WMT_ALIASES: dict[str, str] = {"Nemo": "NVIDIA-NeMo"}

#: Policies for a cell the human table scores and a metric table does not (:func:`align`).
MISSING_POLICIES = ("error", "omit")


def _is_num(v: str) -> bool:
    if v.strip().lower() in _MISSING:
        return True
    try:
        float(v)
    except ValueError:
        return False
    return True


def _mtme_level(name: str) -> str | None:
    """The LEVEL of an mt-metrics-eval score file name (``SRC-TGT.NAME.LEVEL.score`` for human scores,
    ``METRIC-REF.LEVEL.score`` for a metric's): sys, domain, doc or seg; else None."""
    base = os.path.basename(name)
    if base.endswith(".gz"):
        base = base[:-3]
    toks = base.split(".")
    if len(toks) < 3 or toks[-1] != "score" or toks[-2] not in ("sys", "domain", "doc", "seg"):
        return None
    return toks[-2]


def _mtme_name(path: str) -> str:
    """The name an mt-metrics-eval score file gives its scores: ``chrF-refA`` for
    ``chrF-refA.seg.score``, ``de-en.mqm`` for ``de-en.mqm.seg.score`` (``.gz`` too)."""
    base = os.path.basename(path)
    return (base[:-3] if base.endswith(".gz") else base).rsplit(".", 2)[0]


def read_scores(
    path: str | os.PathLike[str],
    *,
    layout: Literal["auto", "long", "wide", "blocks"] = "auto",
    score_column: str | None = None,
    aliases: Mapping[str, str] | None = None,
) -> ScoreTable:
    """Read a score table from a TSV/CSV/whitespace-separated file.

    Layouts:

    * ``long``: one ``system item score`` row per cell. A header naming the
      columns picks them by name: system/sys, item/seg_id/segment/sid, and
      ``score_column`` or the one left (of several, ``Z.SCR``). WMT's DA
      files (``SYS SID RAW.SCR Z.SCR N``) read this way with Z.SCR, their
      ``Name.ID`` system names cut to ``Name``; WMT's MQM score files
      (``system mqm_avg_score seg_id``) too.
    * ``wide``: a header ``system item1 item2 ...`` and one row per system.
    * ``blocks``: ``system score`` lines, as WMT's score files and the
      mt-metrics-eval layout store them. One line per system is a
      system-level table (``COMET_newstest2021_ref-A.tsv``, ``*.sys.score``);
      several are a block per system, one line per segment in segment order
      (``*.seg.score``): item k is the system's k-th line (``"1"``, ``"2"``, ...).
    * A header with a system column and score columns but no item column
      (WMT's ``ad-sys-scores-*.csv``: ``RAW.SCR Z.SCR N SYS N.ALL``) is a
      system-level table.

    ``auto`` tells them apart by the header and the number of fields. Missing
    scores: empty, ``None``, ``NaN``, ``NA``, ``-``. System names are mapped
    through ``aliases`` (default :data:`WMT_ALIASES`). A file named as
    mt-metrics-eval names them (``METRIC-REF.LEVEL.score``) names its table
    ``METRIC-REF`` (:attr:`ScoreTable.name`).
    """
    from .formats._base import read_text

    if os.path.isdir(path):
        raise InputError(
            f"{os.fspath(path)} is a directory: an mt-metrics-eval test set (human-scores/, metric-scores/) "
            "is read by sigfast.metaeval.read_mtme"
        )
    text, name = read_text(path, "score table")
    lines = [
        (k, ln) for k, ln in enumerate(text.splitlines(), start=1) if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not lines:
        raise FormatError("the file has no rows", path=name)
    first = lines[0][1]
    delim = "\t" if "\t" in first else ("," if "," in first else None)

    def split(ln: str) -> list[str]:
        if delim == "\t" and " " in ln.strip() and len(ln.split("\t")) < 3:
            return ln.split()
        return [c.strip() for c in (ln.split(delim) if delim else ln.split())]

    rows = [split(ln) for _, ln in lines]
    linenos = [k for k, _ in lines]
    alias = dict(WMT_ALIASES if aliases is None else aliases)
    mtme = _mtme_level(name)
    if mtme == "domain":
        raise FormatError(
            "an mt-metrics-eval domain-level file (DOMAIN SYSTEM SCORE lines) is not read; use the sys or seg files",
            path=name,
        )
    head = [c.lower() for c in rows[0]]
    has_sys = any(c in _SYS_COLS for c in head)
    has_item = has_sys and any(c in _ITEM_COLS for c in head if c not in _SYS_COLS)
    if layout == "auto":
        if all(len(r) == 2 for r in rows):
            layout = "blocks"
        elif has_item or all(len(r) == 3 for r in rows):
            layout = "long"
        elif has_sys and head[0] not in _SYS_COLS:
            layout = "system"
        else:
            layout = "wide"
    if layout == "blocks":
        t = _read_blocks(rows, linenos, name, alias, mtme)
        return replace(t, name=_mtme_name(name)) if mtme else t
    if layout == "system":
        return _read_system_rows(rows, linenos, name, alias, score_column)
    if layout == "long":
        has_header = has_sys
        if has_header:
            try:
                cs = next(k for k, c in enumerate(head) if c in _SYS_COLS)
                ci = next(k for k, c in enumerate(head) if c in _ITEM_COLS and k != cs)
            except StopIteration:
                raise FormatError(
                    f"header {rows[0]} must name a system column ({'/'.join(_SYS_COLS[:2])}) "
                    f"and an item column ({'/'.join(_ITEM_COLS[:4])})",
                    path=name,
                    line=linenos[0],
                ) from None
            cv = _score_col(rows[0], head, (cs, ci), score_column, name, linenos[0])
            body, body_lines = rows[1:], linenos[1:]
        else:
            cs, ci, cv = 0, 1, 2
            body, body_lines = rows, linenos
        out = []
        for ln, r in zip(body_lines, body):
            if len(r) <= max(cs, ci, cv):
                raise FormatError(f"expected {len(rows[0])} fields, got {len(r)}", path=name, line=ln)
            try:
                out.append((r[cs], r[ci], _num(r[cv])))
            except InputError as e:
                raise FormatError(str(e), path=name, line=ln) from None
        names = _clean_names([s for s, _, _ in out], head, alias)
        try:
            t = ScoreTable.from_long([(n, i, v) for n, (_, i, v) in zip(names, out)])
        except InputError as e:
            raise FormatError(str(e), path=name) from None
        return replace(t, source=name)
    if layout != "wide":
        raise InputError(f"layout must be 'auto', 'long', 'wide' or 'blocks', got {layout!r}")
    head = rows[0]
    items = tuple(head[1:])
    systems, values = [], []
    for ln, r in zip(linenos[1:], rows[1:]):
        if len(r) != len(head):
            raise FormatError(f"expected {len(head)} fields like the header, got {len(r)}", path=name, line=ln)
        systems.append(r[0])
        try:
            values.append([_num(v) for v in r[1:]])
        except InputError as e:
            raise FormatError(str(e), path=name, line=ln) from None
    systems = [alias.get(s, s) for s in systems]
    _check_distinct(systems, name)
    return ScoreTable(
        tuple(systems), items, np.array(values, dtype=np.float64).reshape(len(systems), len(items)), source=name
    )


def _score_col(
    header: list[str], head: list[str], taken: tuple[int, ...], score_column: str | None, name: str, line: int
) -> int:
    if score_column is not None:
        if score_column.lower() not in head:
            raise FormatError(f"no column {score_column!r} in header {header}", path=name, line=line)
        return head.index(score_column.lower())
    rest = [k for k in range(len(head)) if k not in taken]
    if len(rest) == 1:
        return rest[0]
    for pref in _PREFERRED_SCORES:
        if pref in head and head.index(pref) in rest:
            return head.index(pref)
    raise FormatError(
        f"several score columns {[header[k] for k in rest]}: name one (score_column= / --score-column)", path=name
    )


def _clean_names(names: list[str], head: list[str], alias: Mapping[str, str]) -> list[str]:
    """WMT DA files name systems ``Name.ID`` (``UF.15``, ``Nemo.7``, ``HUMAN.0``): cut the ID when every
    name has one and the cut names stay distinct; then the aliases."""
    if "z.scr" in head or "raw.scr" in head:
        uniq = list(dict.fromkeys(names))
        cut = {s: re.sub(r"\.\d+$", "", s) for s in uniq}
        if all(cut[s] != s for s in uniq) and len(set(cut.values())) == len(uniq):
            names = [cut[s] for s in names]
    return [alias.get(s, s) for s in names]


def _check_distinct(systems: Sequence[str], name: str) -> None:
    seen = set()
    for s in systems:
        if s in seen:
            raise FormatError(f"system {s!r} has two rows", path=name)
        seen.add(s)


def _read_blocks(
    rows: list[list[str]], linenos: list[int], name: str, alias: Mapping[str, str], level: str | None
) -> ScoreTable:
    body, body_lines = rows, linenos
    if not _is_num(rows[0][1]):  # a header line (``system score``)
        body, body_lines = rows[1:], linenos[1:]
    per: dict[str, list[float]] = {}
    for ln, r in zip(body_lines, body):
        try:
            per.setdefault(alias.get(r[0], r[0]), []).append(_num(r[1]))
        except InputError as e:
            raise FormatError(f"{e} (expected 'SYSTEM SCORE' lines)", path=name, line=ln) from None
    if not per:
        raise FormatError("the file has no score lines", path=name)
    systems = tuple(per)
    counts = {s: len(v) for s, v in per.items()}
    if level == "sys" or (level is None and set(counts.values()) == {1}):
        many = [s for s, c in counts.items() if c > 1]
        if many:
            raise FormatError(
                f"a system-level file holds one line per system; {many[:3]} have {counts[many[0]]} lines", path=name
            )
        return ScoreTable(
            systems, (SYSTEM_LEVEL_ITEM,), np.array([[per[s][0]] for s in systems], dtype=np.float64), source=name
        )
    if len(set(counts.values())) != 1:
        most = max(counts.values())
        short = [f"{s} ({c})" for s, c in counts.items() if c != most][:4]
        raise FormatError(
            f"a segment-level file holds a block of one line per segment for every system ({most} lines); "
            f"{', '.join(short)} have fewer",
            path=name,
        )
    n = next(iter(counts.values()))
    values = np.array([per[s] for s in systems], dtype=np.float64)
    return ScoreTable(systems, tuple(str(k + 1) for k in range(n)), values, source=name)


def _read_system_rows(
    rows: list[list[str]], linenos: list[int], name: str, alias: Mapping[str, str], score_column: str | None
) -> ScoreTable:
    head = [c.lower() for c in rows[0]]
    cs = next(k for k, c in enumerate(head) if c in _SYS_COLS)
    cv = _score_col(rows[0], head, (cs,), score_column, name, linenos[0])
    raw, vals = [], []
    for ln, r in zip(linenos[1:], rows[1:]):
        if len(r) <= max(cs, cv):
            raise FormatError(f"expected {len(rows[0])} fields like the header, got {len(r)}", path=name, line=ln)
        try:
            vals.append(_num(r[cv]))
        except InputError as e:
            raise FormatError(str(e), path=name, line=ln) from None
        raw.append(r[cs])
    systems = _clean_names(raw, head, alias)
    _check_distinct(systems, name)
    return ScoreTable(tuple(systems), (SYSTEM_LEVEL_ITEM,), np.array(vals, dtype=np.float64)[:, None], source=name)


_MTME_LEVELS = {"seg": "seg", "segment": "seg", "sys": "sys", "system": "sys", "doc": "doc", "document": "doc"}


@dataclass(frozen=True)
class MtmeData:
    """Human and metric score tables of one language pair and level of an mt-metrics-eval test set."""

    root: str
    lp: str
    level: str
    human_name: str
    human: ScoreTable
    metrics: dict[str, ScoreTable]


def read_mtme(
    path: str | os.PathLike[str],
    *,
    lp: str | None = None,
    level: str = "seg",
    human: str | None = None,
    metrics: Sequence[str] | None = None,
) -> MtmeData:
    """Read a test set in the mt-metrics-eval layout (Google's ``mt-metrics-eval``; WMT publishes its
    metrics-task scores so):

    * ``human-scores/SRC-TGT.NAME.LEVEL.score`` (NAME e.g. ``mqm``, ``wmt-z``),
    * ``metric-scores/SRC-TGT/METRIC-REF.LEVEL.score`` (REF e.g. ``refA``, ``src``, ``all``),

    each holding ``SYSTEM SCORE`` lines (``None`` = not scored): one per system at the ``sys``
    level; a block per system, one line per segment in segment order, at ``seg`` (and ``doc``).
    ``path`` is the test set's directory (``.../wmt21.news``) or a folder holding exactly one.
    ``lp`` (e.g. ``de-en``) and ``human`` (the NAME) are needed only where there are several;
    ``metrics`` keeps those named (``chrF`` keeps every reference's ``chrF-REF``; ``chrF-refA`` one).
    Metric tables are named ``METRIC-REF``.
    """
    root = Path(os.fspath(path))
    if not root.is_dir():
        raise InputError(f"{root}: not a directory (an mt-metrics-eval test set has human-scores/ and metric-scores/)")
    if not (root / "human-scores").is_dir():
        subs = sorted(d for d in root.iterdir() if (d / "human-scores").is_dir())
        if len(subs) != 1:
            raise InputError(
                f"{root}: no human-scores/ folder"
                + (f"; it holds several test sets ({', '.join(d.name for d in subs)}): name one" if subs else "")
            )
        root = subs[0]
    lv = _MTME_LEVELS.get(str(level).lower())
    if lv is None:
        raise InputError(f"level must be seg, doc or sys, got {level!r}")
    found: dict[tuple[str, str, str], Path] = {}
    for f in sorted((root / "human-scores").iterdir()):
        toks = f.name[:-3].split(".") if f.name.endswith(".gz") else f.name.split(".")
        if len(toks) >= 4 and toks[-1] == "score":
            found[toks[0], ".".join(toks[1:-2]), toks[-2]] = f
    lps = sorted({k[0] for k in found})
    if not lps:
        raise InputError(f"{root / 'human-scores'}: no SRC-TGT.NAME.LEVEL.score files")
    if lp is None:
        if len(lps) > 1:
            raise InputError(f"{root}: several language pairs ({', '.join(lps)}); name one with lp=")
        lp = lps[0]
    elif lp not in lps:
        raise InputError(f"{root}: no human scores for {lp!r}; there are {', '.join(lps)}")
    names = sorted(k[1] for k in found if k[0] == lp and k[2] == lv)
    if not names:
        have = sorted({k[2] for k in found if k[0] == lp})
        raise InputError(f"{root}: no {lp} human scores at level {lv!r}; there are levels {', '.join(have)}")
    if human is None:
        if len(names) > 1:
            raise InputError(
                f"{root}: several {lp} {lv}-level human scores ({', '.join(names)}); choose one with human="
            )
        human = names[0]
    elif human not in names:
        raise InputError(f"{root}: no {lp} {lv}-level human score {human!r}; there are {', '.join(names)}")
    htable = read_scores(found[lp, human, lv], layout="blocks")
    mdir = root / "metric-scores" / lp
    tables: dict[str, ScoreTable] = {}
    if mdir.is_dir():
        for f in sorted(mdir.iterdir()):
            base = f.name[:-3] if f.name.endswith(".gz") else f.name
            parts = base.rsplit(".", 2)
            if len(parts) != 3 or parts[2] != "score" or parts[1] != lv:
                continue
            mname = parts[0]
            if metrics is not None and mname not in metrics and mname.rsplit("-", 1)[0] not in metrics:
                continue
            tables[mname] = replace(read_scores(f, layout="blocks"), name=mname)
    if not tables:
        raise InputError(
            f"{mdir}: no METRIC-REF.{lv}.score files" + (f" for metrics {list(metrics)}" if metrics is not None else "")
        )
    return MtmeData(str(root), lp, lv, human, replace(htable, name=human), tables)


def align(
    human: ScoreTable,
    metrics: Mapping[str, ScoreTable],
    *,
    systems: Sequence[str] | None = None,
    missing: Literal["error", "omit"] = "error",
    level: str | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray, np.ndarray]:
    """Human and metric scores on shared systems and the human table's items.

    Systems: ``systems`` or those in the human table and every metric table
    (names matched through :data:`WMT_ALIASES`; the human table's spelling is kept).
    A system-level metric table (one score per system) gives its score to
    every item of the system (what a system-level correlation averages); a
    system-level human table makes the result system-level (one item, the
    metrics' per-system means). ``level`` (the level you will evaluate at),
    when given, refuses system-level tables at any other level. A broadcast
    system-level score does not vary within a system, so only the schemes
    that resample or permute whole systems (``interval="systems"``,
    ``test="perm-systems"`` or Williams) treat it as what it is.

    ``missing``: what to do with a cell the human table scores and a metric
    table does not (NaN/None, or an item the metric table lacks):
    ``"error"`` (default) names the metric, its file, the system and the
    item; ``"omit"`` leaves such cells out for every metric (the metrics are
    compared on the same cells), with a warning saying how many, and drops a
    system left without any scored cell.

    Returns (systems, items, human S × N, metrics K × S × N).
    """
    if not metrics:
        raise InputError("no metric tables")
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing must be 'error' or 'omit', got {missing!r}")
    tables = {k: v for k, v in metrics.items()}
    sys_level = human.is_system_level or any(t.is_system_level for t in tables.values())
    if level is not None and sys_level and _level(level) != "system":
        which = [t.source or k for k, t in [("human", human), *tables.items()] if t.is_system_level]
        raise InputError(
            f"{', '.join(which)} hold{'s' if len(which) == 1 else ''} one score per system: evaluate at level "
            f"'system' (--level system), not {level!r}"
        )

    def lookup(t: ScoreTable) -> dict[str, str]:
        """human system name -> that system's name in table t (directly or through an alias)."""
        out = {}
        inv = {v: k for k, v in WMT_ALIASES.items()}
        have = set(t.systems)
        for s in human.systems:
            for cand in (s, WMT_ALIASES.get(s), inv.get(s)):
                if cand is not None and cand in have:
                    out[s] = cand
                    break
        return out

    maps = {k: lookup(t) for k, t in tables.items()}
    if systems is None:
        shared = [s for s in human.systems if all(s in m for m in maps.values())]
    else:
        shared = [str(s) for s in systems]
        if len(set(shared)) != len(shared):
            dup = next(s for s in shared if shared.count(s) > 1)
            raise InputError(f"systems names {_short(dup)} twice; name each system once")
        missing_h = [s for s in shared if s not in human.systems]
        if missing_h:
            raise InputError(f"systems without human scores: {missing_h}")
        for k, m in maps.items():
            lack = [s for s in shared if s not in m]
            if lack:
                raise InputError(f"metric {k!r}{_from(tables[k])} has no scores for systems {lack}")
    if len(shared) < 2:
        raise InputError(
            f"fewer than two systems are shared by the human and metric tables: {shared} (human: "
            f"{_names(human.systems)}; " + "; ".join(f"{k}: {_names(t.systems)}" for k, t in tables.items()) + ")"
        )
    if human.is_system_level:
        items: tuple[str, ...] = (SYSTEM_LEVEL_ITEM,)
        h = human.select(shared, items)
    else:
        items = human.items
        h = human.select(shared, items)
    planes = []
    for k, t in tables.items():
        names = [maps[k][s] for s in shared]
        if t.is_system_level:
            v = t.select(names, (SYSTEM_LEVEL_ITEM,))
            plane = np.repeat(v, len(items), axis=1)
        elif human.is_system_level:
            full = t.select(names, t.items)
            plane = np.full((len(shared), 1), np.nan)
            for r in range(len(shared)):
                row = full[r]
                if np.isnan(row).any():
                    j = int(np.flatnonzero(np.isnan(row))[0])
                    if missing == "error":
                        raise InputError(
                            f"metric {k!r}{_from(t)} has no score for system {shared[r]!r}, item {t.items[j]!r}, so "
                            "it has no system-level mean; pass missing='omit' to average the scored items"
                        )
                plane[r, 0] = np.nanmean(row) if np.isfinite(row).any() else np.nan
        else:
            plane = t.select(names, items)
        planes.append(plane)
    ms = np.stack(planes)
    gap = np.isfinite(h)[None] & ~np.isfinite(ms)
    if gap.any():
        if missing == "error":
            a, r, j = (int(x[0]) for x in np.nonzero(gap))
            k = list(tables)[a]
            t = tables[k]
            n_gap = int(gap.any(axis=0).sum())
            where = "its system-level score" if t.is_system_level else f"item {items[j]!r}"
            raise InputError(
                f"metric {k!r}{_from(t)} has no score for system {shared[r]!r}, {where}, which the human "
                f"table{_from(human)} scores ({n_gap} such cell{'s' if n_gap != 1 else ''} over all metrics); pass "
                "missing='omit' to leave those cells out for every metric"
            )
        drop = gap.any(axis=0)
        import warnings

        warnings.warn(
            f"missing='omit': {int(drop.sum())} human-scored cell(s) without a score from every metric were left out",
            stacklevel=2,
        )
        h = np.where(drop, np.nan, h)
        keep = np.isfinite(h).any(axis=1)
        if not keep.all():
            shared = [s for s, kp in zip(shared, keep) if kp]
            h, ms = h[keep], ms[:, keep]
            if len(shared) < 2:
                raise InputError(f"after leaving out the unscored cells fewer than two systems remain: {shared}")
    return tuple(shared), tuple(items), h, ms


def _from(t: ScoreTable) -> str:
    return f" ({t.source})" if t.source else ""


def _names(names: Sequence[str], k: int = 6) -> str:
    return ", ".join(names[:k]) + (", ..." if len(names) > k else "")


def segment_scores(
    references: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    systems: Mapping[str, str | os.PathLike[str]],
    *,
    metric: Literal["bleu", "chrf", "chrf++"] = "chrf",
    **options: Any,
) -> ScoreTable:
    """Segment-level scores of MT outputs, from sigfast's ``mt`` format.

    ``"bleu"`` is sacrebleu's sentence BLEU (exponential smoothing, effective
    order); ``"chrf"`` / ``"chrf++"`` are sentence chrF / chrF++. Items are
    the 1-based line numbers (as strings).
    """
    from .metrics import get as get_metric
    from .read import read

    m = str(metric).lower()
    if m not in ("bleu", "chrf", "chrf++"):
        raise InputError(f"segment metric must be 'bleu', 'chrf' or 'chrf++', got {metric!r}")
    st = read(references, dict(systems), format="mt", metric=m, **options)
    if m == "bleu":
        met = get_metric("bleu", smooth="exp", effective_order=True)
    else:
        met = get_metric("chrf", **dict(st.metric_params))
    values = np.stack([met.evaluate(st.values[s], 1) for s in range(st.n_systems)])
    items = tuple(str(i + 1) for i in range(st.n_items))
    return ScoreTable(st.systems, items, values)


# --------------------------------------------------------------------------- result
def _t_sf(t: float, df: float) -> float:
    from .classical import _t_sf as tsf

    return float(tsf(t, df))


@dataclass(frozen=True)
class MetaEvalResult(Result):
    """Correlations of metrics with human scores, intervals, and all pairwise tests.

    ``pvalues[a, b]`` tests whether metrics a and b correlate differently
    (two-sided) or a better than b (one-sided); ``delta[a, b]`` = r(a) − r(b);
    ``adjusted`` applies ``correction`` to the family of unordered pairs.
    """

    metrics: tuple[str, ...]
    level: str
    statistic: str
    correlations: np.ndarray
    intervals: np.ndarray | None
    interval_method: str
    delta: np.ndarray
    delta_intervals: np.ndarray | None
    pvalues: np.ndarray
    adjusted: np.ndarray
    test: str
    alternative: str
    correction: str
    alpha: float
    confidence_level: float
    n_resamples: int
    seed: int
    n_systems: int
    n_items: int
    n_cells: int
    n_valid: np.ndarray
    version: str
    stream_version: int
    systems: tuple[str, ...] = ()
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: A hash of the human and metric scores (:func:`sigfast.signature.hash_data`).
    data: str = ""
    #: The p-value rule: "plus_one" ((c+1)/(B+1)) or "raw" (c/B).
    p_rule: str = "plus_one"
    #: What an undefined resample does: "omit" (dropped), "raise" or "omit-system" (module docs).
    nan_policy: str = "omit"
    #: Loud caveats: undefined correlations (no interval, no p-value), dropped resamples.
    warnings: tuple[str, ...] = ()
    #: Per pair [a, b]: permutation resamples on which δ* was defined (0 where the observed
    #: δ is undefined, so no p-value); None without a permutation test.
    n_valid_perm: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: The validated settings the result was computed with (its signature is built from them).
    settings: MetaEvalSettings | None = field(default=None, repr=False, compare=False)

    _keys = (
        *("metrics", "systems", "level", "statistic", "interval_method", "test", "alternative", "correction"),
        *("alpha", "confidence_level", "n_resamples", "seed", "n_systems", "n_items", "n_cells", "n_valid"),
        *("nan_policy", "warnings", "ranking", "comparisons", "clusters", "signature"),
    )

    @property
    def signature(self) -> str:
        """Level, statistic, interval and pair test, the metrics compared, B, seed, level, correction,
        p-value rule, undefined-resample policy and a hash of the scores: :meth:`MetaEvalSettings.signature`
        of the settings the result was computed with."""
        st = self.settings
        if st is None:  # a result built by hand: its fields stand for the settings
            st = MetaEvalSettings(
                level=self.level,
                statistic=self.statistic,
                params=(),
                interval=self.interval_method.removeprefix("BOOT-").lower(),
                test=self.test.lower(),
                n_resamples=self.n_resamples,
                seed=self.seed,
                confidence_level=self.confidence_level,
                alternative=self.alternative,
                pvalue=self.p_rule,
                correction=self.correction,
                alpha=self.alpha,
                nan_policy=self.nan_policy,
                stream=self.stream_version,
            )
        return st.signature(
            metrics=self.metrics, n_items=self.n_items, n_systems=self.n_systems, data=self.data or None
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per metric (:meth:`ranking`), with the settings and the signature."""
        common = {
            "level": self.level,
            "statistic": self.statistic,
            "interval_method": self.interval_method,
            "test": self.test,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "signature": self.signature,
        }
        return [{**r, **common} for r in self.ranking()]

    def order(self) -> list[int]:
        """Metric indices, best correlation first (NaN last)."""
        key = np.where(np.isfinite(self.correlations), -self.correlations, np.inf)
        return [int(i) for i in np.argsort(key, kind="stable")]

    def significant(self, a: int, b: int) -> bool:
        p = self.adjusted[a, b]
        return bool(np.isfinite(p) and p < self.alpha)

    def clusters(self) -> list[list[str]]:
        """WMT-style significance clusters, best first.

        Walking down the ranking, a metric starts a new cluster when some
        metric of the current cluster is significantly better than it (after
        the correction); otherwise it joins the current cluster.
        """
        if self.test == "none":
            return [[self.metrics[i] for i in self.order()]]
        order = self.order()
        groups: list[list[int]] = [[order[0]]]
        for m in order[1:]:
            if any(self.significant(c, m) for c in groups[-1]):
                groups.append([m])
            else:
                groups[-1].append(m)
        return [[self.metrics[i] for i in g] for g in groups]

    def ranking(self) -> list[dict[str, Any]]:
        """One row per metric, best first: rank (cluster), correlation, interval."""
        cl = {m: k + 1 for k, g in enumerate(self.clusters()) for m in g}
        rows = []
        for i in self.order():
            iv = self.intervals[i] if self.intervals is not None else (math.nan, math.nan)
            rows.append(
                {
                    "metric": self.metrics[i],
                    "rank": cl[self.metrics[i]],
                    "correlation": float(self.correlations[i]),
                    "low": float(iv[0]),
                    "high": float(iv[1]),
                }
            )
        return rows

    def comparisons(self) -> list[dict[str, Any]]:
        """One row per unordered pair (a before b in the ranking)."""
        order = self.order()
        rows = []
        for x in range(len(order)):
            for y in range(x + 1, len(order)):
                a, b = order[x], order[y]
                di = self.delta_intervals[a, b] if self.delta_intervals is not None else (math.nan, math.nan)
                rows.append(
                    {
                        "metric_a": self.metrics[a],
                        "metric_b": self.metrics[b],
                        "delta": float(self.delta[a, b]),
                        "delta_low": float(di[0]),
                        "delta_high": float(di[1]),
                        "pvalue": float(self.pvalues[a, b]),
                        "adjusted": float(self.adjusted[a, b]),
                        "significant": self.significant(a, b),
                    }
                )
        return rows

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        cl = int(round(100 * self.confidence_level))
        order = self.order()
        head = ["rank", "metric", self.statistic, f"{cl}% CI ({self.interval_method})"]
        if self.test != "none":
            head.append(f"p vs next ({self.correction})")
        rows = []
        for pos, r in enumerate(self.ranking()):
            row = [
                str(r["rank"]),
                r["metric"],
                f"{r['correlation']:.4f}",
                "" if math.isnan(r["low"]) else f"[{r['low']:.4f}, {r['high']:.4f}]",
            ]
            if self.test != "none":
                nxt = order[pos + 1] if pos + 1 < len(order) else None
                row.append("" if nxt is None else f"{self.adjusted[order[pos], nxt]:.4f}")
            rows.append(row)
        return head, rows

    def table(self, markdown: bool = False) -> str:
        """The ranking table alone (text or markdown)."""
        from .report import format_table

        head, rows = self._rows()
        return format_table(rows, head, markdown=markdown)

    def tables(self) -> list[Any]:
        """The ranking (rank = significance cluster, correlation, interval, p against the next metric),
        with the warnings and the signature; LaTeX draws a rule between clusters."""
        from .report import Table

        head, rows = self._rows()
        starts = tuple(k for k in range(1, len(rows)) if rows[k][0] != rows[k - 1][0])
        notes = tuple(f"warning: {w}" for w in self.warnings)
        return [Table(tuple(head), tuple(tuple(r) for r in rows), notes=notes, signature=self.signature, rules=starts)]

    to_markdown = deprecated_alias("markdown", "to_markdown")
    to_latex = deprecated_alias("latex", "to_latex")

    def _text(self) -> str:
        return (
            f"{self.statistic} at {self.level} level: {len(self.metrics)} metrics, {self.n_systems} systems, "
            f"{self.n_items} items ({self.n_cells} scored cells); intervals {self.interval_method}, "
            f"pairs {self.test}, {self.n_resamples} resamples, seed {self.seed}\n{self.table()}\n"
            + "".join(f"warning: {w}\n" for w in self.warnings)
            + self.signature
            + "\n"
        )

    def plot(self, path: str | os.PathLike[str] | None = None, *, ax: Any = None) -> Any:
        """Correlations with their intervals, best first, one colour per significance cluster, a line
        at zero (no correlation) and a legend naming the clusters and the interval."""
        from ._plot import pyplot

        plt = pyplot()  # first: without matplotlib, the error names the extra to install
        from matplotlib.lines import Line2D

        rows = self.ranking()
        longest = max((len(r["metric"]) for r in rows), default=1)
        fs = max(5.0, 8.0 * min(1.0, 22 / longest))
        if ax is None:
            fig, ax = plt.subplots(figsize=(5.4 + longest * fs * 0.56 / 72, 1.9 + 0.32 * len(rows)))
        else:
            fig = ax.figure
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        cl = int(round(100 * self.confidence_level))
        for k, r in enumerate(rows):
            y = len(rows) - 1 - k
            c = colours[(r["rank"] - 1) % len(colours)]
            if not math.isnan(r["low"]):
                ax.plot([r["low"], r["high"]], [y, y], color=c, lw=2)
            ax.plot([r["correlation"]], [y], "o", color=c)
        ax.axvline(0.0, color="grey", lw=0.9, ls="--", zorder=0)
        ax.set_yticks(range(len(rows)), [r["metric"] for r in reversed(rows)], fontsize=fs)
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_xlabel(f"{self.statistic} with the human scores ({self.level} level)")
        n_cl = max((r["rank"] for r in rows), default=1)
        handles = [
            Line2D([], [], color=colours[(k - 1) % len(colours)], marker="o", lw=2, label=f"cluster {k}")
            for k in range(1, n_cl + 1)
        ]
        if self.intervals is not None:
            handles.append(Line2D([], [], color="black", lw=2, label=f"{cl}% interval ({self.interval_method})"))
        handles.append(Line2D([], [], color="grey", lw=0.9, ls="--", label="no correlation"))
        ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(4, len(handles)),
                  fontsize="x-small", frameon=False)  # fmt: skip
        clusters = (
            f"clusters: {self.test}, {self.correction} at alpha {self.alpha:g}" if self.test != "none" else "no test"
        )
        ax.set_title(f"{self.n_systems} systems, {self.n_items} items; {clusters}", fontsize="small", pad=22)
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=150, bbox_inches="tight")
        return fig


# --------------------------------------------------------------------------- API
def _float_array(a: Any, what: str) -> np.ndarray:
    """``a`` as a float64 array, or an InputError saying why not (a non-numeric cell, ragged rows)."""
    try:
        with _warnings.catch_warnings():
            _warnings.simplefilter("ignore")
            return np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as e:
        msg = str(e)
        if "inhomogeneous" in msg or "sequence" in msg:
            why = "its rows have different lengths (give a systems x items table; NaN for a missing score)"
        else:
            why = f"a cell is not a number ({msg[:80]}); use NaN for a missing score"
        raise InputError(f"{what}: {why}") from None


def _matrices(human: Any, metrics: Any, names: Sequence[str] | None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    h = _float_array(human, "human scores")
    if h.ndim != 2:
        raise InputError(f"human scores must be systems x items (2-D), got shape {h.shape}")
    if isinstance(metrics, Mapping):
        names = [str(k) for k in metrics]
        arrays = [_float_array(v, f"metric {_short(k)}") for k, v in metrics.items()]
        if any(a.shape != h.shape for a in arrays):
            bad = next(k for k, a in zip(names, arrays) if a.shape != h.shape)
            shape = next(a.shape for a in arrays if a.shape != h.shape)
            raise InputError(f"metric {_short(bad)} has shape {shape}; the human scores are {h.shape}")
        m = np.stack(arrays) if arrays else np.zeros((0,))
    else:
        m = _float_array(metrics, "metric scores")
        if m.ndim == 2:
            m = m[None]
        if names is not None:
            if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)):
                raise InputError(f"names must be a list of metric names, one per metric, got {names!r:.60}")
            names = [str(x) for x in names]
        else:
            names = [f"metric{k}" for k in range(m.shape[0] if m.ndim == 3 else 0)]
    if m.ndim != 3 or m.shape[1:] != h.shape:
        raise InputError(f"metric scores must be metrics x {h.shape[0]} systems x {h.shape[1]} items, got {m.shape}")
    if m.shape[0] < 1:
        raise InputError("no metrics")
    if len(names) != m.shape[0] or len(set(names)) != len(names):
        raise InputError(f"need {m.shape[0]} distinct metric names, got {[_short(x, 30) for x in names][:10]}")
    return np.ascontiguousarray(h), np.ascontiguousarray(m.reshape(m.shape[0], -1)), names


def _adjust(p: list[float], correction: str, alpha: float) -> np.ndarray:
    if str(correction).lower() == "none":
        return np.asarray(p, dtype=np.float64)
    from .multitest import adjust

    return np.asarray(adjust(p, correction, alpha=alpha).adjusted)


def _level(level: str) -> str:
    if not isinstance(level, str):
        raise InputError(f"level must be one of {', '.join(LEVELS)}, got {level!r:.60}")
    lv = _LEVEL_ALIASES.get(level.lower(), level.lower())
    if lv not in LEVELS:
        raise InputError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return lv


@dataclass(frozen=True)
class MetaEvalSettings:
    """Every setting of :func:`evaluate` that can change its numbers, validated once (:meth:`of`): the
    level, the statistic and its parameters, the interval and pair-test schemes, B, seed, confidence
    level, sidedness, p-value rule, correction and alpha, and the undefined-resample policy. The
    result's signature is built from it (:meth:`signature`), with the metrics compared and a hash of
    the scores; threads and progress are not here: they cannot change a number."""

    level: str
    statistic: str
    params: tuple[tuple[str, Any], ...]
    interval: str
    test: str
    n_resamples: int
    seed: int
    confidence_level: float
    alternative: str
    pvalue: str
    correction: str
    alpha: float
    nan_policy: str
    #: the random stream version (:data:`sigfast.executor.DEFAULT_STREAM` unless asked)
    stream: int

    @classmethod
    @shared_options
    def of(
        cls,
        *,
        level: Any,
        statistic: Any,
        params: Mapping[str, Any],
        interval: Any,
        test: Any,
        n_resamples: Any,
        seed: Any,
        confidence_level: Any,
        alternative: Any,
        pvalue: Any,
        correction: Any,
        alpha: Any,
        nan_policy: Any,
        stream: Any = None,
    ) -> MetaEvalSettings:
        """The settings, each checked (through the executor's checks where they are shared), or an
        :class:`~sigfast.exceptions.InputError` naming the first bad one."""
        from .executor import check_alpha, check_level, check_resamples, check_seed

        lv = _level(level)
        sname, p = resolve_statistic(statistic, dict(params))
        if ITEM_STATISTICS[sname][0] != 2 or sname == "auc":
            raise InputError(f"{sname} is not a correlation; choose one of pearson, spearman, kendall_b, ...")
        if not isinstance(interval, str) or interval not in (*_SCHEMES, "none"):
            raise InputError(f"interval must be one of systems, inputs, both, none; got {interval!r:.60}")
        if not isinstance(test, str) or test.lower() not in _TESTS:
            raise InputError(f"test must be one of {', '.join(_TESTS)}; got {test!r:.60}")
        if alternative not in ("two-sided", "greater"):
            raise InputError(f"alternative must be 'two-sided' or 'greater', got {alternative!r:.60}")
        if pvalue not in ("plus_one", "raw"):
            raise InputError(f"pvalue must be 'plus_one' or 'raw', got {pvalue!r:.60}")
        if nan_policy not in NAN_POLICIES:
            raise InputError(
                "nan_policy must be 'omit' (drop undefined resamples and report how many were kept), 'raise' "
                "(stop at an undefined resample) or 'omit-system' (system level: drop a system left with no "
                f"scored item, keep the resample); got {nan_policy!r:.60}"
            )
        if not isinstance(correction, str):
            raise InputError(f"correction must be a method name such as 'holm' or 'none', got {correction!r:.60}")
        return cls(
            level=lv,
            statistic=sname,
            params=tuple(p.items()),
            interval=interval,
            test=test.lower(),
            n_resamples=check_resamples(n_resamples),
            seed=check_seed(seed),
            confidence_level=check_level(confidence_level),
            alternative=alternative,
            pvalue=pvalue,
            correction=correction,
            alpha=float(check_alpha(alpha)),
            nan_policy=nan_policy,
            stream=stream,
        )

    @property
    def label(self) -> str:
        """The statistic with its parameters, as reports name it."""
        return _label(self.statistic, dict(self.params))

    @property
    def interval_method(self) -> str:
        return "none" if self.interval == "none" else f"BOOT-{self.interval.upper()}"

    @property
    def test_name(self) -> str:
        return self.test.upper() if self.test.startswith("perm") else self.test

    def signature(self, *, metrics: Sequence[str], n_items: int, n_systems: int, data: str | None) -> str:
        """Every setting, the metrics compared, the items and systems scored and a hash of the scores
        (:func:`sigfast.signature.build`)."""
        from .signature import build

        return build(
            "metaeval",
            variant=f"{self.level}:{self.label}",
            alt=self.alternative,
            metric=list(metrics),
            interval=self.interval_method,
            pairs=self.test_name,
            items=n_items,
            systems=n_systems,
            B=self.n_resamples,
            seed=self.seed,
            conf=self.confidence_level,
            correction=f"{self.correction}@{self.alpha:g}",
            p=self.pvalue,
            nan=self.nan_policy,
            stream=self.stream or None,
            data=data,
        )


def evaluate(
    human: Any,
    metrics: Any,
    *,
    names: Sequence[str] | None = None,
    systems: Sequence[str] = (),
    level: str = "item",
    statistic: str = "kendall_b",
    interval: Literal["systems", "inputs", "both", "none"] = "both",
    test: Literal["perm-systems", "perm-inputs", "perm-both", "perm-both-rowcol", "williams", "none"] = "perm-both",
    n_resamples: int = 1000,
    seed: int = DEFAULT_SEED,
    confidence_level: float = DEFAULT_CONFIDENCE,
    alternative: Literal["two-sided", "greater"] = "two-sided",
    pvalue: Literal["plus_one", "raw"] = "plus_one",
    correction: str = "holm",
    alpha: float = 0.05,
    nan_policy: Literal["omit", "raise", "omit-system"] = "omit",
    stream: int | None = None,
    n_threads: int | None = None,
    progress: ProgressArg = None,
    return_samples: bool = False,
    **params: Any,
) -> MetaEvalResult:
    """Meta-evaluate metrics against human scores.

    Parameters
    ----------
    human
        Human scores, systems × items (NaN where not scored).
    metrics
        A mapping name → systems × items array, or an array metrics × systems
        × items (with ``names``). Metric scores must be finite wherever the
        human score exists; elsewhere they are ignored.
    level
        ``"system"``, ``"global"``, ``"item"`` or ``"system_grouped"``.
    statistic
        ``"pearson"``, ``"spearman"``, ``"kendall_b"``, ``"kendall_c"``,
        ``"tau_like"`` (``threshold=``; at the grouped levels the mean of the
        groups' values), ``"tau_like_pooled"`` (WMT's DARR τ-like: the groups'
        pairs pooled, Σ(C − D)/Σ(C + D), as mt-metrics-eval's
        ``KendallLike(average_by="item")``), ``"pairwise_accuracy"``,
        ``"acc_eq"`` (tie calibration, or ``epsilon=``).
    interval
        BOOT-SYSTEMS / BOOT-INPUTS / BOOT-BOTH percentile intervals, or
        ``"none"``. The same resamples give each pair's δ interval. The
        intervals stream over the resamples: memory does not grow with B
        unless ``return_samples``.
    test
        PERM-SYSTEMS / PERM-INPUTS permutation tests of every pair
        (z-normalised scores; the same swap masks for all pairs); PERM-BOTH
        (``"perm-both"``: each cell swapped on its own coin, the paper's code)
        or PERM-BOTH-ROWCOL (``"perm-both-rowcol"``: whole systems, then whole
        items, as nlpstats); Williams' test (absolute correlations; n =
        systems, cells, or the largest item group, as Deutsch et al.'s code);
        or ``"none"``. On simulated nulls PERM-SYSTEMS rejects more often
        than α (0.061 at α = 0.05 with 8 systems, as a numpy version of the
        published method does: it is the method), the others hold α
        (``benches/RESULTS-typeI.md``).
    alternative
        ``"two-sided"``; ``"greater"`` tests r(a) > r(b) for ``pvalues[a, b]``.
    pvalue
        ``"plus_one"`` ((c + 1)/(B + 1), default) or ``"raw"`` (c/B, as nlpstats).
    correction, alpha
        Multiple-testing correction over the unordered pairs
        (:func:`sigfast.adjust`) and the level for clusters.
    nan_policy
        A resample on which a correlation is undefined: ``"omit"`` drops it
        (``n_valid`` counts the others), ``"raise"`` stops with an
        :class:`~sigfast.exceptions.InputError`, ``"omit-system"`` is
        ``"omit"`` except that a system-level resample that leaves a system
        with no scored item drops that system and keeps the resample.
    return_samples
        Keep every bootstrap resample's values (``samples``, B × metrics);
        their memory is reserved before the run (an InputError when it
        cannot be had).
    stream
        The random stream version (``None``: the default; ``1`` reproduces results
        whose signature says ``stream:...v1``).

    Returns
    -------
    MetaEvalResult
    """
    h, m, names_l = _matrices(human, metrics, names)
    s_count, n = h.shape
    k = len(names_l)
    st = MetaEvalSettings.of(
        level=level,
        statistic=statistic,
        params=params,
        interval=interval,
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        confidence_level=confidence_level,
        alternative=alternative,
        pvalue=pvalue,
        correction=correction,
        alpha=alpha,
        nan_policy=nan_policy,
        stream=stream,
    )
    lv, sname, p, label, interval, test = st.level, st.statistic, dict(st.params), st.label, st.interval, st.test
    alternative, pvalue, correction, nan_policy = st.alternative, st.pvalue, st.correction, st.nan_policy
    B, seed, cl, alpha = st.n_resamples, st.seed, st.confidence_level, st.alpha
    threads = _threads(n_threads)
    stream = st.stream
    systems = tuple(systems) if systems is not None else ()
    if systems and (len(systems) != s_count or len(set(map(str, systems))) != len(systems)):
        raise InputError(f"systems must name the {s_count} systems (rows) once each, got {len(systems)} names")
    scored = ~np.isnan(h)
    if lv == "system" and not scored.any(axis=1).all():
        bad = [systems[i] if systems else i for i in np.flatnonzero(~scored.any(axis=1))][:5]
        raise InputError(f"systems {bad} have no human score, so no system-level score; remove them from the table")
    drop_empty = nan_policy == "omit-system"
    notes: list[str] = []
    handle = _native.MetricHandle(sname, {key: float(v) for key, v in p.items()})
    observed = np.asarray(_native.meta_observed(h, m, lv, handle))
    delta = observed[:, None] - observed[None, :]
    undefined = [names_l[a] for a in range(k) if not np.isfinite(observed[a])]
    if undefined:
        notes.append(
            f"{label} at {lv} level is undefined for {undefined} (constant metric or human scores in every "
            "group?): no interval and no p-value for them"
        )

    intervals = delta_iv = None
    samples = None
    n_valid = np.full(k, B)
    if interval != "none":
        cb = _resolve_progress(progress, B, float(B) * s_count * n * k, f"BOOT-{interval.upper()}")
        job = _native.Job(seed, B, threads=threads, stream=stream, progress=cb)
        iv, nv, div, _ndv, smp, _passes = _native.meta_bootstrap_intervals(
            h, m, lv, handle, interval, job, cl, bool(return_samples), drop_empty
        )
        samples = None if smp is None else np.asarray(smp)
        n_valid = np.asarray(nv, dtype=np.int64)
        intervals = np.asarray(iv, dtype=np.float64).reshape(k, 2)
        delta_iv = np.full((k, k, 2), np.nan)
        upper = [(i, j) for i in range(k) for j in range(i + 1, k)]
        for (a, b), (lo, hi) in zip(upper, div):
            delta_iv[a, b] = (lo, hi)
            delta_iv[b, a] = (-hi, -lo)
        for a in range(k):  # an undefined observed correlation has no interval
            if not np.isfinite(observed[a]):
                intervals[a] = np.nan
                delta_iv[a, :] = np.nan
                delta_iv[:, a] = np.nan
        short = [(names_l[a], int(n_valid[a])) for a in range(k) if n_valid[a] < B and np.isfinite(observed[a])]
        if short and nan_policy == "raise":
            name, got = short[0]
            raise InputError(
                f"{label} of {name!r} is undefined on {B - got} of {B} BOOT-{interval.upper()} resamples (a "
                "resample with constant scores, or a system left with no scored item); pass nan_policy='omit' "
                "to drop them (the result reports how many were kept)"
            )
        for name, got in short:
            notes.append(
                f"{label} of {name!r} is undefined on {B - got} of {B} resamples; its interval uses the {got} others"
            )

    pv = np.full((k, k), np.nan)
    n_valid_perm = None
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    if test.startswith("perm") and pairs:
        scheme = _PERM_SCHEMES[test]
        jobs = pairs if alternative == "two-sided" else pairs + [(b, a) for a, b in pairs]
        cb = _resolve_progress(progress, B, float(B) * s_count * n * len(jobs), test.upper())
        job = _native.Job(seed, B, threads=threads, stream=stream, progress=cb)
        _obs, counts, valid = _native.meta_permutation(h, m, lv, handle, scheme, jobs, alternative, job)
        n_valid_perm = np.zeros((k, k), dtype=np.int64)
        for (a, b), c, t, o in zip(jobs, counts, valid, _obs):
            n_valid_perm[a, b] = t
            if not np.isfinite(o) or t == 0:
                val = math.nan  # an undefined δ (or one never defined on a resample) has no p-value
            else:
                if t < B and nan_policy == "raise":
                    raise InputError(
                        f"the difference of {names_l[a]!r} and {names_l[b]!r} is undefined on {B - t} of {B} "
                        f"{test.upper()} resamples; pass nan_policy='omit' to drop them"
                    )
                val = (c + 1) / (t + 1) if pvalue == "plus_one" else c / t
            pv[a, b] = val
            if alternative == "two-sided":
                pv[b, a] = val
                n_valid_perm[b, a] = t
        if not all(np.isfinite(pv[a, b]) for a, b in pairs):
            notes.append(f"{test.upper()}: no p-value where a correlation is undefined (NaN)")
    elif test == "williams" and pairs:
        if lv == "system":
            ns = float(s_count)
        elif lv == "global":
            ns = float(scored.sum())
        elif lv == "item":
            ns = float(scored.sum(axis=0).max())
        else:
            ns = float(scored.sum(axis=1).max())
        if ns <= 3:
            raise InputError(f"Williams' test needs more than 3 observations, got {ns:g}")
        mask = np.isnan(h)
        mm = m.reshape(k, s_count, n)
        for a, b in pairs:
            ha = np.where(mask, np.nan, mm[a])
            r23 = abs(float(_native.meta_observed(np.ascontiguousarray(ha), mm[b].reshape(1, -1), lv, handle)[0]))
            r12, r13 = abs(observed[a]), abs(observed[b])
            if not (np.isfinite(r12) and np.isfinite(r13) and np.isfinite(r23)):
                continue  # an undefined correlation: no p-value
            t = float(_native.williams_t(r12, r13, r23, ns))
            if not np.isfinite(t):
                continue
            if alternative == "two-sided":
                pv[a, b] = pv[b, a] = 2 * _t_sf(abs(t), ns - 3)
            else:
                pv[a, b] = _t_sf(t, ns - 3)
                pv[b, a] = _t_sf(-t, ns - 3)
        if not all(np.isfinite(pv[a, b]) for a, b in pairs):
            notes.append("Williams: no p-value where a correlation is undefined (NaN)")
    adjusted = np.full((k, k), np.nan)
    if test != "none" and pairs:
        if alternative == "two-sided":
            flat = [pv[a, b] for a, b in pairs]
            fin = [i for i, x in enumerate(flat) if np.isfinite(x)]
            if fin:
                adj = _adjust([flat[i] for i in fin], correction, alpha)
                for i, v in zip(fin, adj):
                    a, b = pairs[i]
                    adjusted[a, b] = adjusted[b, a] = v
        else:
            both = [(a, b) for a, b in pairs] + [(b, a) for a, b in pairs]
            flat = [pv[a, b] for a, b in both]
            fin = [i for i, x in enumerate(flat) if np.isfinite(x)]
            if fin:
                adj = _adjust([flat[i] for i in fin], correction, alpha)
                for i, v in zip(fin, adj):
                    adjusted[both[i]] = v
    return MetaEvalResult(
        metrics=tuple(names_l),
        level=lv,
        statistic=label,
        correlations=observed,
        intervals=intervals,
        interval_method=st.interval_method,
        delta=delta,
        delta_intervals=delta_iv,
        pvalues=pv,
        adjusted=adjusted,
        test=st.test_name,
        alternative=alternative,
        correction=correction,
        alpha=float(alpha),
        confidence_level=cl,
        n_resamples=B,
        seed=seed,
        n_systems=s_count,
        n_items=int(scored.any(axis=0).sum()),
        n_cells=int(scored.sum()),
        n_valid=n_valid,
        version=_native.__version__,
        stream_version=stream,
        systems=tuple(systems),
        samples=samples if return_samples else None,
        data=hash_data(h, m, names_l),
        p_rule=pvalue,
        nan_policy=nan_policy,
        warnings=tuple(notes),
        n_valid_perm=n_valid_perm,
        settings=st,
    )
