"""CoNLL-2008 and CoNLL-2009 joint syntactic-semantic dependencies, scored like ``eval08.pl`` / ``eval09.pl``.

Formats:

* ``"conll08"``: ``eval08.pl`` v1.8 (2008/10/22, the original that compares
  predicate senses numerically), run as ``perl eval08.pl -q -g GOLD -s SYSTEM
  [-p] [-u]``. Columns (whitespace separated): ID FORM LEMMA GPOS PPOS
  SPLIT_FORM SPLIT_LEMMA PPOSS HEAD DEPREL PRED ARG... (one ARG column per
  predicate of the sentence). Syntax is read from SPLIT_FORM, HEAD, DEPREL.
* ``"conll09"``: ``eval09.pl`` v0.4 (2009/03/01), run as ``perl eval09.pl -q
  -g GOLD -s SYSTEM [-p]``. Columns: ID FORM LEMMA PLEMMA POS PPOS FEAT PFEAT
  HEAD PHEAD DEPREL PDEPREL FILLPRED PRED APRED... Syntax is read from FORM,
  **HEAD and DEPREL** (PHEAD/PDEPREL are never read, as by the script).

Scores, as the scripts compute them:

* syntax: LAS, UAS, label accuracy over the scoring tokens (HEAD and DEPREL
  compared as strings), exact syntactic match (sentences without a head or
  label error among their scoring tokens);
* semantics: predicates are "dependencies" to a virtual root labelled with
  their sense (conll08: the part of PRED after the first ``.``, compared as
  Perl numbers, so ``01`` = ``1`` and ``XX`` = ``YY``; conll09: the part after
  the one dot, or the whole PRED without exactly one dot, compared as numbers
  when both are digits, else as strings); arguments are (predicate token,
  argument token, label) triples (conll09: a cell ``A0|A1`` holds two
  arguments; ``_`` and ``-`` are empty). Labeled and unlabeled precision /
  recall / F1 over arguments plus predicates, proposition precision / recall /
  F1 (a predicate with the right sense and exactly the gold argument set),
  exact semantic match;
* overall: macro precision / recall / F1 with semantic weight 0.5
  (``0.5 * semantic + 0.5 * attachment score``), exact overall match, micro
  precision / recall / F1 (syntactic and semantic dependencies pooled).

Options:

* ``punct`` (bool, default True): score punctuation tokens (gold FORM made
  only of Unicode punctuation) in the syntactic scores; ``punct=False`` (or
  ``p=True``) is the scripts' ``-p``.
* ``su`` (bool, ``conll08`` only, default False): score predicates with
  sense ``SU`` and arguments labelled ``SU``; ``su=True`` (or ``u=True``) is
  ``eval08.pl -u``.
* ``w_sem`` (float in [0, 1], default 0.5): W_sem, the weight of the
  semantic score in the macro scores (Surdeanu et al. 2008, Sect. 2.3): the
  ``OVERALL MACRO SCORES`` lines and the ``*_macro_*`` statistics'
  ``metric_params={"weight": w_sem}``. The scripts fix it at 0.5; with 0.5
  the report is theirs byte for byte.
* ``extra`` (bool, ``conll08`` only, default False): append sigfast's
  additions (below) to the report, after a line saying they are not
  eval08.pl's; the report before them stays byte-identical.

sigfast's additions for ``conll08`` (Surdeanu et al. 2008, Sect. 6), always
in ``stats``/``scores``, printed with ``extra=True``:

* the ratio of the semantic labeled F1 to LAS (``scores["sem_f1_las_ratio"]``,
  a ratio of two corpus scores, so it has no per-item statistics; its parts
  are ``sem_labeled_f1`` and ``las``);
* labeled precision / recall / F1 of the semantic dependencies of verbal and
  of nominal predicates (``sem_labeled_{precision,recall,f1}_{verbal,nominal}``,
  ``[correct, system, gold]``): a predicate is verbal when its PPOSS (column
  8, as each file gives it) starts with ``VB``, nominal when it starts with
  ``NN``, as eval08.pl's verbose per-PPOSS tables group arguments by the
  predicate's ``substr(PPOSS, 0, 2)``; a predicate's dependency on the
  virtual root (its sense) and its arguments count, gold and correct ones
  by the gold predicate's PPOSS, system ones by the system predicate's. The
  other predicates (neither) make up the rest of the overall counts;
* non-projective arcs: a token's arc from head h is non-projective in a tree
  when a token strictly between h and the token is not dominated by h (arcs
  from the root never are). ``nonproj_las`` / ``nonproj_uas`` (``accuracy``,
  ``[correct, gold non-projective arcs]``): LAS and UAS over the scoring
  tokens whose gold arc is non-projective; ``nonproj_unlabeled_{precision,
  recall,f1}`` (``[correct, system, gold]``): the non-projective links of the
  system tree against those of the gold tree, a link correct when both trees
  have it (same dependent, same head) non-projective (Table 14's unlabeled
  F1 for non-projective links). Only scoring tokens count (``punct=False``
  leaves punctuation out here too); projectivity is judged on the whole
  sentence, punctuation included.

Statistics per sentence (items = non-empty sentences in file order):
``las``, ``uas``, ``label_acc``, ``exact_syntactic``, ``exact_semantic``,
``exact_overall`` (metric ``accuracy``, ``[correct, total]``);
``sem_labeled_{precision,recall,f1}`` and ``sem_unlabeled_*`` (metrics
``precision``/``recall``/``f1`` with ``[correct, system, gold]`` counting
arguments and predicates); ``prop_{precision,recall,f1}`` (``[full
propositions right, system predicates, gold predicates]``);
``labeled_macro_f1`` and ``unlabeled_macro_f1`` (metric ``macro_f1_2008``,
``[syn_correct, syn_total, sem_correct, sem_guessed, sem_gold]``,
``metric_params={"weight": 0.5}``); ``labeled_macro_precision`` /
``_recall`` (the same metric with ``sem_gold`` set to ``sem_guessed``, resp.
``sem_guessed`` set to ``sem_gold``, which makes the F1 equal the precision,
resp. recall); ``labeled_micro_{precision,recall,f1}`` and
``unlabeled_micro_*``. Default metric: ``labeled_macro_f1``. ``scores`` are
the metrics on the summed statistics (fractions, not percentages).

Units (``ScoreReport.units(view)``, ``Parsed.units(view)``), collected by
the same parse that counts the scores (the files are read once); ``sentence`` is the item
(the index into ``stats``), ``sentence_ids`` the ``item_ids``, ``forms`` from
FORM (conll08: SPLIT_FORM):

* ``las``, ``uas``, ``label``: one unit per token scored syntactically (with
  ``punct=False`` punctuation is left out), labelled as in
  :mod:`sigfast.formats.dependency` (``DEPREL(offset of HEAD)``, the offset,
  the DEPREL); a system label equals the gold label iff the script counts
  the token right, so the correct units per sentence are the ``correct``
  column of ``stats["las"]``, ``["uas"]``, ``["label_acc"]``.
* ``sem``: one unit per semantic dependency the script counts, in gold or in
  the system (a set view: ``keys`` are ``(sentence, p, a, j)`` with ``p``
  the 1-based position of the predicate, ``a`` that of the argument, or 0
  for the predicate itself, its dependency on the virtual root, ``j`` the
  index among the roles of one cell; ``absent="O"``). A predicate's label is
  its sense as the script reads it, after a dot (``.01``; conll08: ``.``
  when PRED has none); its system label is the gold one iff the script
  counts the sense right (conll08 numerically, so ``.1`` for gold ``.01``
  shows ``.01``), else its own (marked ``≠`` if it reads the same). An
  argument's label is its role: a gold role the system gives the same
  predicate position and argument position is right (the scripts match
  arguments as sets of (argument, role) once the predicate positions match,
  whatever the senses); other roles the system gives there fill the gold
  roles it missed (wrong), then units of their own (``gold_present``
  False). Predicates and arguments skipped as ``SU`` (conll08 without
  ``su``) and a file's last token when it lacks the final blank line are
  not units, as they are not counted. So in one system's table the correct
  units are the numerator of ``sem_labeled_*`` (``corl_arg + corl_prop``),
  its units with a system label other than ``O`` the guessed count, its
  ``gold_present`` units the gold count, per sentence.
* ``sem_unlabeled``: the same units; a gold predicate unit is right iff the
  system has a predicate at that position, a gold argument unit ``j`` iff
  the system gives that predicate at least ``j + 1`` roles for that
  argument (the system label is then the gold one): the correct units are
  the numerator of ``sem_unlabeled_*`` (``coru_arg + coru_prop``).

A role written ``O`` is shown as ``'O'``, never as the absence mark. In
``Parsed.units`` (several systems united) a unit that only *other* systems
proposed has gold and system label ``O`` for a system that lacks it too, so
``correct(k)`` counts it: the semantic numerator is the correct units among
the ``gold_present`` ones (for the token views, all units).

``ScoreReport.text`` is what ``-q`` prints (from ``  SYNTACTIC SCORES:`` on,
and for conll08 the final ``Note: skipped SU ...`` block), with the scripts'
rounding (``100 - errors*100/total`` for the attachment scores).

Quirks of the scripts that are reproduced, because they change the numbers:

* the semantic frames of a sentence are read from its line buffer without
  its last line (normally the blank line): when a file does not end with a
  blank line, the last token of the last sentence is left out of the
  semantic scores (of that file only);
* eval08 scores the empty pseudo-sentence it reads at the end of the file
  (and one for each extra blank line) as an exactly matched semantic
  sentence: the exact semantic match then has one more sentence, right,
  than the other sentence counts. eval09 takes one such sentence back off.
  In the per-sentence statistics these pseudo-sentences are added to the
  ``exact_semantic`` counts of the preceding real sentence (the first one
  for those before it), so that the sums give the printed numbers.

As for ``conllx`` (:mod:`sigfast.formats.dependency`), a system FORM
(conll08: SPLIT_FORM) or PPOSS/PPOS that differs from gold, a system HEAD
written ``+N`` or that is no number, and HEADs that are one number written
differently are scored as the scripts score them, with a
:class:`~sigfast.formats.dependency.DependencyWarning`; ``strict=True``
refuses the FORM and HEAD cases.

Where sigfast differs from the scripts (see also docs/divergences.md):

* a gold HEAD that is not a non-negative integer, a line whose column count is not 11
  (conll08) or 14 (conll09) plus the number of predicates of its sentence, a
  token line starting with whitespace (conll08: it shifts the columns), an
  empty conll09 argument label (``A0||A1``), bytes that are not UTF-8, an
  empty file, extra blank lines at the end of one file that the scripts
  would read as a token line: errors (the scripts warn, die or misread);
* a corpus without any scoring token is an error (the scripts die);
* where ``eval08.pl`` dies with "Illegal division by zero" (no predicted or
  no gold predicate/argument, no correct semantic dependency, ...) and where
  ``eval09.pl`` does (macro or micro F1 with precision and recall 0), the
  text stops where the script's output stops, followed by a line saying so;
  ``scores`` then use 0 for the undefined ratios.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from ..metrics import get as get_metric
from ._base import FormatSpec, ItemStats, Option, Punct, ReadmeRow, ScoreReport, UnitTable, display, shorten
from .dependency import (
    ASCII_WS,
    STRICT,
    UNICODE_WS,
    Lenience,
    Scored,
    as_bool,
    check_token,
    is_punct,
    no_extra,
    pct,
    perl_split,
    read_lines,
    resolve_punct,
    score_punct_hint,
    system_label,
    token_units,
    walk,
)
from .dependency import VIEWS as SYNTAX_VIEWS

__all__ = ["EXTRA_HEADER", "SPECS", "VIEWS", "nonprojective", "score_conll08", "score_conll09"]

_WEIGHT = 0.5
_PERL_NUM = re.compile(r"([+-]?)(?:([0-9]+(?:[eE][+-]?[0-9]+)?)|(inf)|(nan))", re.IGNORECASE)
_UNI_TRIM = re.compile(f"^(?:{UNICODE_WS.pattern})|(?:{UNICODE_WS.pattern})$")
_ONE_DOT = re.compile(r"([^.]+)\.([^.]+)\Z", re.DOTALL)
_ALL_DIGITS = re.compile(r"[0-9]+\Z")
_BLANK08 = re.compile(f"(?:{ASCII_WS.pattern})?")
_BLANK09 = re.compile(f"(?:{UNICODE_WS.pattern})?")


def _perl_num(s: str | None) -> float:
    """The number Perl makes of a string without a dot (``"01"`` -> 1, ``"XX"`` -> 0, ``"info"`` -> Inf)."""
    if not s:
        return 0.0
    m = _PERL_NUM.match(s)
    if not m:
        return 0.0
    sign = -1.0 if m.group(1) == "-" else 1.0
    if m.group(2) is not None:
        return sign * float(m.group(2))
    if m.group(3) is not None:
        return sign * math.inf
    return math.nan


def _digits_value(s: str) -> int | float:
    if len(s) > 19:  # beyond 2^64 Perl compares doubles (inf for a very long number); int() would refuse
        return float(s)
    n = int(s)
    return n if n < 2**64 else float(n)


def _same_sense_09(g: str, s: str) -> bool:
    if _ALL_DIGITS.match(g) and _ALL_DIGITS.match(s):
        a, b = _digits_value(g), _digits_value(s)
        if isinstance(a, float) or isinstance(b, float):
            return float(a) == float(b)
        return a == b
    return g == s


_UNI_WS_CHARS = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000").union(
    chr(c) for c in range(0x2000, 0x200B)
)


def _trim(line: str) -> str:
    if not line or (line[0] not in _UNI_WS_CHARS and line[-1] not in _UNI_WS_CHARS):
        return line  # nothing to trim (the common case, without a regex)
    return _UNI_TRIM.sub("", line)


@dataclass
class _Prop:
    pos: int
    sense: str | None
    col: int
    args: set[tuple[int, str]] = field(default_factory=set)
    pposs: str = ""  # conll08: the predicate's PPOSS (column 8), which eval08.pl's per-tag tables use


@dataclass
class _Srl:
    tot_prop: int = 0
    pred_prop: int = 0
    coru_prop: int = 0
    corl_prop: int = 0
    full_prop: int = 0
    tot_arg: int = 0
    pred_arg: int = 0
    coru_arg: int = 0
    corl_arg: int = 0

    @property
    def exact(self) -> bool:
        return (
            self.tot_prop == self.corl_prop
            and self.pred_prop == self.corl_prop
            and self.tot_arg == self.corl_arg
            and self.pred_arg == self.corl_arg
        )


class _Die(Exception):
    pass


class _Reader:
    """Column access and validation for one file in one format."""

    def __init__(self, v08: bool, lines: list[str], name: str) -> None:
        self.v08 = v08
        self.lines = lines
        self.name = name
        self.cache: dict[int, list[str]] = {}

    def fields(self, i: int, sentence: int) -> list[str]:
        f = self.cache.get(i)
        if f is not None:
            return f
        line = self.lines[i]
        if self.v08:
            if ASCII_WS.match(line[:1] or "x"):
                raise FormatError(
                    f"sentence {sentence}: the token line starts with whitespace, which shifts the columns "
                    "for eval08.pl; remove the leading whitespace",
                    path=self.name,
                    line=i + 1,
                )
            f = perl_split(line, ASCII_WS)
        else:
            f = perl_split(_trim(line), UNICODE_WS)
        self.cache[i] = f
        return f

    def validate_sentence(self, toks: list[int], sentence: int) -> None:
        base, pcol = (11, 10) if self.v08 else (14, 13)
        rows = [self.fields(i, sentence) for i in toks]
        for i, f in zip(toks, rows):
            if len(f) < base:
                self._cols(i, sentence, len(f), base, None)
        if self.v08:
            npred = sum(1 for f in rows if f[pcol] != "_")
        else:
            npred = sum(1 for f in rows if f[pcol] not in ("_", "-"))
        for i, f in zip(toks, rows):
            if len(f) != base + npred:
                self._cols(i, sentence, len(f), base, npred)

    def _cols(self, i: int, sentence: int, n: int, base: int, npred: int | None) -> None:
        names = (
            "ID FORM LEMMA GPOS PPOS SPLIT_FORM SPLIT_LEMMA PPOSS HEAD DEPREL PRED ARG..."
            if self.v08
            else "ID FORM LEMMA PLEMMA POS PPOS FEAT PFEAT HEAD PHEAD DEPREL PDEPREL FILLPRED PRED APRED..."
        )
        if npred is None:
            want = f"at least {base}"
        else:
            want = f"{base + npred} ({base} + one argument column for each of the sentence's {npred} predicates)"
        raise FormatError(
            f"sentence {sentence}: {n} columns, expected {want}; columns are {names}",
            path=self.name,
            line=i + 1,
        )


def _frames(
    rd: _Reader, buf: list[int], v08: bool, su: bool, sentence: int, skipped: list[int], script: str
) -> list[_Prop]:
    """The script's ``parse_frames`` on a line buffer (its last line is not read)."""
    processed = buf[:-1]
    blank = _BLANK08 if v08 else _BLANK09
    for i in processed:
        if blank.fullmatch(rd.lines[i]):
            raise FormatError(
                f"extra blank lines at the end of the file, which {script} reads as a token line "
                "(the other file has fewer); remove the extra blank lines",
                path=rd.name,
                line=i + 1,
            )
    rows = [rd.fields(i, sentence) for i in processed]
    props: list[_Prop] = []
    count = 0
    for pos, f in enumerate(rows):
        if v08:
            ls = f[10]
            if ls == "_":
                continue
            parts = ls.split(".")
            while parts and parts[-1] == "":
                parts.pop()
            sense = parts[1] if len(parts) > 1 else None
            col = 11 + count
            count += 1
            if sense == "SU" and not su:
                skipped[0] += 1
                continue
            props.append(_Prop(pos, sense, col, pposs=f[7]))
        else:
            ls = f[13]
            if ls in ("_", "-"):
                continue
            m = _ONE_DOT.match(ls)
            props.append(_Prop(pos, m.group(2) if m else ls, 14 + count))
            count += 1
    for p in props:
        for pos, (i, f) in enumerate(zip(processed, rows)):
            label = f[p.col]
            if v08:
                if label == "_":
                    continue
                if label == "SU" and not su:
                    skipped[1] += 1
                    continue
                p.args.add((pos, label))
            else:
                if label in ("_", "-"):
                    continue
                parts = label.split("|")
                while parts and parts[-1] == "":
                    parts.pop()
                for a in parts:
                    a = _trim(a)
                    if not a:
                        raise FormatError(
                            f"sentence {sentence}: empty argument label in {shorten(label)} "
                            f"(column {p.col + 1}); eval09.pl dies here",
                            path=rd.name,
                            line=i + 1,
                        )
                    p.args.add((pos, a))
    return props


def _same_sense(g: _Prop, s: _Prop, v08: bool) -> bool:
    """The script's comparison of a gold and a system predicate's sense."""
    if v08:
        return _perl_num(g.sense) == _perl_num(s.sense)
    return _same_sense_09(g.sense or "", s.sense or "")


def _srl(gold: list[_Prop], system: list[_Prop], v08: bool) -> _Srl:
    c = _Srl()
    c.tot_prop, c.pred_prop = len(gold), len(system)
    c.tot_arg = sum(len(p.args) for p in gold)
    c.pred_arg = sum(len(p.args) for p in system)
    by_pos = {p.pos: p for p in system}
    for g in gold:
        s = by_pos.get(g.pos)
        if s is None:
            continue
        c.coru_prop += 1
        if _same_sense(g, s, v08):
            c.corl_prop += 1
            if g.args == s.args:
                c.full_prop += 1
        c.corl_arg += len(g.args & s.args)
        if v08:
            s_pos = {pos for pos, _ in s.args}
            c.coru_arg += sum(1 for pos, _ in g.args if pos in s_pos)
        else:
            gc: dict[int, int] = {}
            sc: dict[int, int] = {}
            for pos, _ in g.args:
                gc[pos] = gc.get(pos, 0) + 1
            for pos, _ in s.args:
                sc[pos] = sc.get(pos, 0) + 1
            c.coru_arg += sum(min(n, sc.get(pos, 0)) for pos, n in gc.items())
    return c


def _pred_class(pposs: str) -> str:
    """``verbal`` (PPOSS ``VB*``), ``nominal`` (``NN*``) or ``other``: eval08.pl's ``substr(PPOSS, 0, 2)``."""
    head = pposs[:2]
    return "verbal" if head == "VB" else "nominal" if head == "NN" else "other"


def _srl_by_class(gold: list[_Prop], system: list[_Prop], v08: bool) -> list[int]:
    """Labeled semantic counts by predicate class: [correct, system, gold] for verbal, then nominal.

    As :func:`_srl` counts them (a predicate's dependency on the root plus its arguments), split by
    the gold predicate's class (gold and correct) and the system predicate's class (system)."""
    out = {"verbal": [0, 0, 0], "nominal": [0, 0, 0], "other": [0, 0, 0]}
    by_pos = {p.pos: p for p in system}
    for g in gold:
        row = out[_pred_class(g.pposs)]
        row[2] += 1 + len(g.args)
        sp = by_pos.get(g.pos)
        if sp is not None:
            row[0] += int(_same_sense(g, sp, v08)) + len(g.args & sp.args)
    for sp in system:
        out[_pred_class(sp.pposs)][1] += 1 + len(sp.args)
    return out["verbal"] + out["nominal"]


def _heads(fields: list[list[str]], head_col: int) -> list[int]:
    """The HEADs as integers; a system HEAD the scripts count as wrong (``_``) reads as -1 (no head)."""
    out = []
    for f in fields:
        try:
            out.append(int(f[head_col]))
        except ValueError:
            out.append(-1)
    return out


def nonprojective(heads: list[int]) -> list[bool]:
    """For each token (1-based positions, ``heads[i]`` the head of token i + 1, 0 the root) whether its
    arc is non-projective: some token strictly between head and token is not dominated by the head.
    Arcs from the root, and to a head outside the sentence, are not; a cycle dominates nothing
    outside it."""
    n = len(heads)
    ancestors: list[set[int]] = [set()]
    for k in range(1, n + 1):
        seen: set[int] = set()
        a = heads[k - 1]
        while 0 < a <= n and a not in seen and a != k:
            seen.add(a)
            a = heads[a - 1]
        ancestors.append(seen)
    out = []
    for d in range(1, n + 1):
        h = heads[d - 1]
        if h <= 0 or h > n:
            out.append(False)
            continue
        lo, hi = min(h, d), max(h, d)
        out.append(any(h not in ancestors[k] for k in range(lo + 1, hi)))
    return out


_SRL_FIELDS = (
    "tot_prop",
    "pred_prop",
    "coru_prop",
    "corl_prop",
    "full_prop",
    "tot_arg",
    "pred_arg",
    "coru_arg",
    "corl_arg",
)


def _options(fmt: str, options: dict[str, Any]) -> tuple[bool, bool, bool]:
    """(punct, su, strict) from the options of ``fmt`` (``w_sem`` and ``extra`` are read by :func:`_extras`)."""
    v08 = fmt == "conll08"
    script = "eval08.pl" if v08 else "eval09.pl"
    opts = dict(options)
    opts.pop("w_sem", None)
    opts.pop("extra", None)
    strict = as_bool("strict", opts.pop("strict", False))
    punct = resolve_punct(opts, True, False, script)
    su = False
    if v08:
        if "su" in opts and "u" in opts and as_bool("su", opts["su"]) != as_bool("u", opts["u"]):
            raise InputError("options su and u contradict each other (u=True is su=True); give one")
        if "u" in opts:
            su = as_bool("u", opts.pop("u"))
        if "su" in opts:
            su = as_bool("su", opts.pop("su"))
        no_extra(opts, fmt, "punct, p, su, u, w_sem, extra, strict")
    else:
        no_extra(opts, fmt, "punct, p, w_sem, strict")
    return punct, su, strict


def _extras(fmt: str, options: dict[str, Any]) -> tuple[float, bool]:
    """(W_sem, extra) from the options of ``fmt``, checked against their schema."""
    w = _W_SEM.coerce(options.get("w_sem", _WEIGHT), fmt)
    extra = options.get("extra", False)
    if extra and fmt != "conll08":  # pragma: no cover - the schema of conll09 has no extra
        raise InputError("option extra is for conll08")
    return float(w), as_bool("extra", extra) if extra is not None else False


@dataclass
class _Parse:
    """What one reading of both files gives (see :func:`_parse`)."""

    syn_rows: list[list[int]]
    srl_rows: list[list[int]]
    ids: list[str]
    phantoms: list[int]
    skipped_g: list[int]
    skipped_s: list[int]
    #: per item: gold non-projective arcs, of them LAS-right, UAS-right; system non-projective arcs,
    #: links non-projective in both with the same head (scoring tokens only)
    np_rows: list[list[int]] = field(default_factory=list)
    #: per item: labeled semantic [correct, system, gold] of verbal, then of nominal predicates (conll08)
    cls_rows: list[list[int]] = field(default_factory=list)
    #: the gold and system readers (their lines, split), for the units of the tokens counted
    readers: tuple[Any, ...] = ()


@dataclass
class _SemSentence:
    """One item's predicates as the script read them, for the semantic units."""

    item: int
    forms: list[str]
    gold: list[_Prop]
    system: list[_Prop]


def _parse(
    gold: Any,
    system: Any,
    fmt: str,
    punct: bool,
    su: bool,
    lenience: Lenience,
    tokens: list[tuple[int, int, int]] | None = None,
    frames: list[_SemSentence] | None = None,
) -> _Parse:
    """Both files read and compared as the script does.

    With ``tokens`` and ``frames`` lists, also appends one ``(item, position, line index)``
    per syntactically scored token and one :class:`_SemSentence` per item.
    """
    v08 = fmt == "conll08"
    script = "eval08.pl" if v08 else "eval09.pl"
    gname, sname = display(gold), display(system)
    glines = read_lines(gold, "gold")
    slines = read_lines(system, "system")
    ws = ASCII_WS if v08 else UNICODE_WS
    blocks = walk(glines, slines, gname, sname, ws, lenience)
    grd, srd = _Reader(v08, glines, gname), _Reader(v08, slines, sname)
    form_col, head_col, dep_col = (5, 8, 9) if v08 else (1, 8, 10)
    pos_col = 7 if v08 else 5  # the "pos" the scripts compare: PPOSS (2008), PPOS (2009)

    syn_rows: list[list[int]] = []
    srl_rows: list[list[int]] = []
    ids: list[str] = []
    phantoms: list[int] = []  # pseudo-sentences attached to each item
    np_rows: list[list[int]] = []
    cls_rows: list[list[int]] = []
    pending = 0
    skipped_g, skipped_s = [0, 0], [0, 0]
    k = 0
    for b in blocks:
        if b.tokens:
            k += 1
            grd.validate_sentence(b.tokens, k)
            srd.validate_sentence(b.tokens, k)
        sent = k if b.tokens else k + 1
        gp = _frames(grd, b.gold_buf, v08, su, sent, skipped_g, script)
        sp = _frames(srd, b.sys_buf, v08, su, sent, skipped_s, script)
        c = _srl(gp, sp, v08)
        if not b.tokens:
            # the scripts score the empty pseudo-sentence; its counts are all 0
            assert not any(getattr(c, f) for f in _SRL_FIELDS)
            if phantoms:
                phantoms[-1] += 1
            else:
                pending += 1
            continue
        tot = las = uas = la = 0
        for i in b.tokens:
            check_token(
                grd.fields(i, k),
                srd.fields(i, k),
                i,
                gname,
                sname,
                form_col=form_col,
                head_col=head_col,
                sentence=k,
                pos_col=pos_col,
                lenience=lenience,
            )
        g_np = nonprojective(_heads([grd.fields(i, k) for i in b.tokens], head_col))
        s_np = nonprojective(_heads([srd.fields(i, k) for i in b.tokens], head_col))
        npr = [0, 0, 0, 0, 0]
        for pos, i in enumerate(b.tokens, 1):
            gf, sf = grd.fields(i, k), srd.fields(i, k)
            if not punct and is_punct(gf[form_col]):
                continue
            tot += 1
            h_ok = gf[head_col] == sf[head_col]
            d_ok = gf[dep_col] == sf[dep_col]
            uas += h_ok
            la += d_ok
            las += h_ok and d_ok
            if g_np[pos - 1]:
                npr[0] += 1
                npr[1] += h_ok and d_ok
                npr[2] += h_ok
            if s_np[pos - 1]:
                npr[3] += 1
                npr[4] += h_ok and g_np[pos - 1]
            if tokens is not None:
                tokens.append((k - 1, pos, i))
        if frames is not None:
            frames.append(_SemSentence(k - 1, [grd.fields(i, k)[form_col] for i in b.tokens], gp, sp))
        syn_exact = int(las == tot)
        srl_exact = int(c.exact)
        syn_rows.append([tot, las, uas, la, syn_exact, syn_exact and srl_exact])
        srl_rows.append([getattr(c, f) for f in _SRL_FIELDS] + [srl_exact])
        np_rows.append(npr)
        cls_rows.append(_srl_by_class(gp, sp, v08))
        phantoms.append(pending)
        pending = 0
        ids.append(f"line {b.tokens[0] + 1}")
    if not syn_rows:
        raise FormatError("the gold file has no token lines (only blank lines); nothing to score", path=gname)
    return _Parse(syn_rows, srl_rows, ids, phantoms, skipped_g, skipped_s, np_rows, cls_rows, (grd, srd))


#: The per-item metrics of both formats (the headline first), as ``stats`` keys.
METRIC_NAMES = (
    "labeled_macro_f1",
    "las",
    "uas",
    "label_acc",
    "exact_syntactic",
    "sem_labeled_precision",
    "sem_labeled_recall",
    "sem_labeled_f1",
    "sem_unlabeled_precision",
    "sem_unlabeled_recall",
    "sem_unlabeled_f1",
    "prop_precision",
    "prop_recall",
    "prop_f1",
    "exact_semantic",
    "labeled_macro_precision",
    "labeled_macro_recall",
    "unlabeled_macro_precision",
    "unlabeled_macro_recall",
    "unlabeled_macro_f1",
    "exact_overall",
    "labeled_micro_precision",
    "labeled_micro_recall",
    "labeled_micro_f1",
    "unlabeled_micro_precision",
    "unlabeled_micro_recall",
    "unlabeled_micro_f1",
)
#: conll08's additions (Surdeanu et al. 2008, Sect. 6)
METRIC_NAMES_08 = (
    *(f"sem_labeled_{w}_{k}" for k in ("verbal", "nominal") for w in ("precision", "recall", "f1")),
    "nonproj_las",
    "nonproj_uas",
    "nonproj_unlabeled_precision",
    "nonproj_unlabeled_recall",
    "nonproj_unlabeled_f1",
)


def _score(gold: Any, system: Any, fmt: str, **options: Any) -> ScoreReport:
    v08 = fmt == "conll08"
    script = "eval08.pl" if v08 else "eval09.pl"
    punct, su, strict = _options(fmt, options)
    w_sem, extra = _extras(fmt, options)
    gname, sname = display(gold), display(system)
    pos_name = "PPOSS" if v08 else "PPOS"
    lenience = Lenience(strict, script, pos_name)
    tokens: list[tuple[int, int, int]] = []  # the tokens counted: the units, from this one parse
    frames: list[_SemSentence] = []
    r = _parse(gold, system, fmt, punct, su, lenience, tokens, frames)
    syn_rows, srl_rows, ids, phantoms = r.syn_rows, r.srl_rows, r.ids, r.phantoms
    skipped_g, skipped_s = r.skipped_g, r.skipped_s
    syn = np.asarray(syn_rows, dtype=np.int64)
    srl = np.asarray(srl_rows, dtype=np.int64)
    ph = np.asarray(phantoms, dtype=np.int64)
    if not v08 and ph.sum() > 0:
        # eval09: "if srl tot_sent > syntactic tot_sent, take one off"
        j = int(np.nonzero(ph)[0][-1])
        ph[j] -= 1
    tot, las, uas, la, cor_sent, allcor = (int(x) for x in syn.sum(0))
    n_sent = len(syn_rows)
    S = dict(zip(_SRL_FIELDS, (int(x) for x in srl[:, :9].sum(0))))
    srl_cor = int(srl[:, 9].sum() + ph.sum())
    srl_tot = n_sent + int(ph.sum())
    if tot == 0:
        raise FormatError(
            "no token is scored: every gold token is punctuation and punctuation is left out; "
            f"{score_punct_hint(options, False)} scores it "
            f"({script} dies with 'Illegal division by zero' here)",
            path=gname,
        )

    text = _text(
        v08,
        script,
        tot,
        las,
        uas,
        la,
        cor_sent,
        n_sent,
        allcor,
        S,
        srl_cor,
        srl_tot,
        su,
        skipped_g,
        skipped_s,
        w_sem,
    )

    # per-item statistics
    n = n_sent
    col = {name: srl[:, i] for i, name in enumerate(_SRL_FIELDS)}
    sem_l = col["corl_arg"] + col["corl_prop"]
    sem_u = col["coru_arg"] + col["coru_prop"]
    guessed = col["pred_arg"] + col["pred_prop"]
    gold_n = col["tot_arg"] + col["tot_prop"]
    t, c_las, c_uas = syn[:, 0], syn[:, 1], syn[:, 2]
    ones = np.ones(n, dtype=np.int64)
    spec: dict[str, tuple[str, list[np.ndarray], dict[str, float]]] = {
        "las": ("accuracy", [c_las, t], {}),
        "uas": ("accuracy", [c_uas, t], {}),
        "label_acc": ("accuracy", [syn[:, 3], t], {}),
        "exact_syntactic": ("accuracy", [syn[:, 4], ones], {}),
        "sem_labeled_precision": ("precision", [sem_l, guessed, gold_n], {}),
        "sem_labeled_recall": ("recall", [sem_l, guessed, gold_n], {}),
        "sem_labeled_f1": ("f1", [sem_l, guessed, gold_n], {}),
        "sem_unlabeled_precision": ("precision", [sem_u, guessed, gold_n], {}),
        "sem_unlabeled_recall": ("recall", [sem_u, guessed, gold_n], {}),
        "sem_unlabeled_f1": ("f1", [sem_u, guessed, gold_n], {}),
        "prop_precision": ("precision", [col["full_prop"], col["pred_prop"], col["tot_prop"]], {}),
        "prop_recall": ("recall", [col["full_prop"], col["pred_prop"], col["tot_prop"]], {}),
        "prop_f1": ("f1", [col["full_prop"], col["pred_prop"], col["tot_prop"]], {}),
        "exact_semantic": ("accuracy", [srl[:, 9] + ph, ones + ph], {}),
        "labeled_macro_precision": ("macro_f1_2008", [c_las, t, sem_l, guessed, guessed], {"weight": w_sem}),
        "labeled_macro_recall": ("macro_f1_2008", [c_las, t, sem_l, gold_n, gold_n], {"weight": w_sem}),
        "labeled_macro_f1": ("macro_f1_2008", [c_las, t, sem_l, guessed, gold_n], {"weight": w_sem}),
        "unlabeled_macro_precision": ("macro_f1_2008", [c_uas, t, sem_u, guessed, guessed], {"weight": w_sem}),
        "unlabeled_macro_recall": ("macro_f1_2008", [c_uas, t, sem_u, gold_n, gold_n], {"weight": w_sem}),
        "unlabeled_macro_f1": ("macro_f1_2008", [c_uas, t, sem_u, guessed, gold_n], {"weight": w_sem}),
        "exact_overall": ("accuracy", [syn[:, 5], ones], {}),
        "labeled_micro_precision": ("precision", [c_las + sem_l, t + guessed, t + gold_n], {}),
        "labeled_micro_recall": ("recall", [c_las + sem_l, t + guessed, t + gold_n], {}),
        "labeled_micro_f1": ("f1", [c_las + sem_l, t + guessed, t + gold_n], {}),
        "unlabeled_micro_precision": ("precision", [c_uas + sem_u, t + guessed, t + gold_n], {}),
        "unlabeled_micro_recall": ("recall", [c_uas + sem_u, t + guessed, t + gold_n], {}),
        "unlabeled_micro_f1": ("f1", [c_uas + sem_u, t + guessed, t + gold_n], {}),
    }
    if v08:
        npa = np.asarray(r.np_rows, dtype=np.int64).reshape(n, 5)
        cls = np.asarray(r.cls_rows, dtype=np.int64).reshape(n, 6)
        for j, kind in enumerate(("verbal", "nominal")):
            cols3 = [cls[:, 3 * j], cls[:, 3 * j + 1], cls[:, 3 * j + 2]]
            for what in ("precision", "recall", "f1"):
                spec[f"sem_labeled_{what}_{kind}"] = (what, cols3, {})
        spec["nonproj_las"] = ("accuracy", [npa[:, 1], npa[:, 0]], {})
        spec["nonproj_uas"] = ("accuracy", [npa[:, 2], npa[:, 0]], {})
        for what in ("precision", "recall", "f1"):
            spec[f"nonproj_unlabeled_{what}"] = (what, [npa[:, 4], npa[:, 3], npa[:, 0]], {})
    stats: dict[str, ItemStats] = {}
    scores: dict[str, float] = {}
    item_ids = tuple(ids)
    warned = lenience.warn(sname)
    for name, (metric, cols, params) in spec.items():
        met = get_metric(metric, **params)
        values = np.ascontiguousarray(np.stack(cols, axis=1), dtype=np.float64)
        stats[name] = ItemStats(metric=metric, stat_names=met.stat_names, values=values, metric_params=dict(params))
        scores[name] = float(met.evaluate(values.sum(0, keepdims=True), n)[0])
    if v08:
        scores["sem_f1_las_ratio"] = scores["sem_labeled_f1"] / scores["las"] if scores["las"] else 0.0
        if extra:
            text += ("" if text.endswith("\n\n") else "\n") + _extra_text(stats, scores)
    return ScoreReport(
        format=fmt,
        gold=gname,
        system=sname,
        text=text,
        scores=scores,
        stats=stats,
        default_metric="labeled_macro_f1",
        item_ids=item_ids,
        views=VIEWS,
        unit_source=_unit_tables(
            fmt, Scored(tokens, *r.readers, *((5, 8, 9) if v08 else (1, 8, 10))), frames, item_ids
        ),
        warnings=warned,
    )


def _text(
    v08: bool,
    script: str,
    tot: int,
    las: int,
    uas: int,
    la: int,
    cor_sent: int,
    n_sent: int,
    allcor: int,
    S: dict[str, int],
    srl_cor: int,
    srl_tot: int,
    su: bool,
    skipped_g: list[int],
    skipped_s: list[int],
    w_sem: float = _WEIGHT,
) -> str:
    out: list[str] = []

    def div(a: float, b: float) -> float:
        if b == 0:
            raise _Die
        return a / b

    try:
        out.append("  SYNTACTIC SCORES:")
        lab_attach = pct(tot - las, tot)
        out.append(f"  Labeled   attachment score: {las} / {tot} * 100 = {lab_attach:.2f} %")
        unlab_attach = pct(tot - uas, tot)
        out.append(f"  Unlabeled attachment score: {uas} / {tot} * 100 = {unlab_attach:.2f} %")
        out.append(f"  Label accuracy score:       {la} / {tot} * 100 = {pct(tot - la, tot):.2f} %")
        out.append(f"  Exact syntactic match:      {cor_sent} / {n_sent} * 100 = {cor_sent * 100 / n_sent:.2f} %")
        out += ["", "  SEMANTIC SCORES: "]
        corl = S["corl_arg"] + S["corl_prop"]
        coru = S["coru_arg"] + S["coru_prop"]
        pred = S["pred_arg"] + S["pred_prop"]
        gold = S["tot_arg"] + S["tot_prop"]
        if v08:
            apl = div(corl * 100, pred)
            arl = div(corl * 100, gold)
            afl = div(2 * apl * arl, apl + arl)
        else:
            apl = corl * 100 / pred if pred else 0
            arl = corl * 100 / gold if gold else 0
            afl = 2 * apl * arl / (apl + arl) if apl + arl else 0
        out.append(
            f"  Labeled precision:          ({S['corl_arg']} + {S['corl_prop']}) / "
            f"({S['pred_arg']} + {S['pred_prop']}) * 100 = {apl:.2f} %"
        )
        out.append(
            f"  Labeled recall:             ({S['corl_arg']} + {S['corl_prop']}) / "
            f"({S['tot_arg']} + {S['tot_prop']}) * 100 = {arl:.2f} %"
        )
        out.append(f"  Labeled F1:                 {afl:.2f} ")
        if v08:
            apu = div(coru * 100, pred)
            aru = div(coru * 100, gold)
            afu = div(2 * apu * aru, apu + aru)
        else:
            apu = coru * 100 / pred if pred else 0
            aru = coru * 100 / gold if gold else 0
            afu = 2 * apu * aru / (apu + aru) if apu + aru else 0
        out.append(
            f"  Unlabeled precision:        ({S['coru_arg']} + {S['coru_prop']}) / "
            f"({S['pred_arg']} + {S['pred_prop']}) * 100 = {apu:.2f} %"
        )
        out.append(
            f"  Unlabeled recall:           ({S['coru_arg']} + {S['coru_prop']}) / "
            f"({S['tot_arg']} + {S['tot_prop']}) * 100 = {aru:.2f} %"
        )
        out.append(f"  Unlabeled F1:               {afu:.2f} ")
        full = S["full_prop"]
        if v08:
            ppl = div(full * 100, S["pred_prop"])
            prl = div(full * 100, S["tot_prop"])
        else:
            ppl = full * 100 / S["pred_prop"] if S["pred_prop"] else 0
            prl = full * 100 / S["tot_prop"] if S["tot_prop"] else 0
        pfl = 2 * ppl * prl / (ppl + prl) if ppl != 0 and prl != 0 else 0
        out.append(f"  Proposition precision:      {full} / {S['pred_prop']} * 100 = {ppl:.2f} %")
        out.append(f"  Proposition recall:         {full} / {S['tot_prop']} * 100 = {prl:.2f} %")
        out.append(f"  Proposition F1:             {pfl:.2f} ")
        out.append(f"  Exact semantic match:       {srl_cor} / {srl_tot} * 100 = {div(srl_cor * 100, srl_tot):.2f} %")
        out += ["", f"  OVERALL MACRO SCORES (Wsem = {w_sem:.2f}):"]
        lp = w_sem * apl + (1 - w_sem) * lab_attach
        lr = w_sem * arl + (1 - w_sem) * lab_attach
        lf = div(2 * lp * lr, lp + lr)
        out.append(f"  Labeled macro precision:    {lp:.2f} %")
        out.append(f"  Labeled macro recall:       {lr:.2f} %")
        out.append(f"  Labeled macro F1:           {lf:.2f} %")
        up = w_sem * apu + (1 - w_sem) * unlab_attach
        ur = w_sem * aru + (1 - w_sem) * unlab_attach
        uf = div(2 * up * ur, up + ur)
        out.append(f"  Unlabeled macro precision:  {up:.2f} %")
        out.append(f"  Unlabeled macro recall:     {ur:.2f} %")
        out.append(f"  Unlabeled macro F1:         {uf:.2f} %")
        out.append(f"  Exact overall match:        {allcor} / {n_sent} * 100 = {allcor * 100 / n_sent:.2f} %")
        out += ["", "  OVERALL MICRO SCORES:"]
        for kind, syn_c, c_arg, c_prop in (
            ("Labeled", las, S["corl_arg"], S["corl_prop"]),
            ("Unlabeled", uas, S["coru_arg"], S["coru_prop"]),
        ):
            corr = c_arg + c_prop + syn_c
            mp = div(100 * corr, S["pred_arg"] + S["pred_prop"] + tot)
            mr = div(100 * corr, S["tot_arg"] + S["tot_prop"] + tot)
            mf = div(2 * mp * mr, mp + mr)
            head = f"{kind} micro precision:".ljust(28)
            out.append(
                f"  {head}({syn_c} + {c_arg} + {c_prop}) / ({tot} + {S['pred_arg']} + {S['pred_prop']})"
                f" * 100 = {mp:.2f} %"
            )
            head = f"{kind} micro recall:".ljust(28)
            out.append(
                f"  {head}({syn_c} + {c_arg} + {c_prop}) / ({tot} + {S['tot_arg']} + {S['tot_prop']})"
                f" * 100 = {mr:.2f} %"
            )
            head = f"{kind} micro F1:".ljust(28)
            out.append(f"  {head}{mf:.2f} ")
        if v08:
            if not su:
                out += [
                    "",
                    "  Note: skipped SU predicates and arguments",
                    f"  \tSkipped {skipped_g[0]} SU predicates and {skipped_g[1]} SU arguments in gold output",
                    f"  \tSkipped {skipped_s[0]} SU predicates and {skipped_s[1]} SU arguments is system output",
                    "",
                ]
            else:
                out += ["", "  Note: NOT skipping SU predicates and arguments", ""]
    except _Die:
        out.append(
            f"[{script} stops here with 'Illegal division by zero' and prints nothing more; "
            "sigfast's scores take 0 for an undefined ratio]"
        )
    return "\n".join(out) + "\n"


#: The line that starts sigfast's additions to eval08.pl's report (``extra=True``).
EXTRA_HEADER = "  SIGFAST ADDITIONS (not printed by eval08.pl; Surdeanu et al. 2008, Sect. 6):"


def _extra_text(stats: dict[str, ItemStats], scores: dict[str, float]) -> str:
    """sigfast's additions, in eval08.pl's style (counts, then percentages with 2 decimals)."""

    def prf(name: str) -> tuple[int, int, int]:
        c, sy, g = (int(x) for x in stats[name].values.sum(0))
        return c, sy, g

    def ratio(a: int, b: int) -> str:
        return f"{a * 100 / b:.2f} %" if b else "n/a"

    def f1(c: int, sy: int, g: int) -> str:
        return f"{200 * c / (sy + g):.2f} %" if sy + g else "n/a"

    out = [EXTRA_HEADER]
    sem_f1, las = scores["sem_labeled_f1"], scores["las"]
    out.append(f"  Semantic labeled F1 / LAS:  {100 * sem_f1:.2f} / {100 * las:.2f} = {scores['sem_f1_las_ratio']:.4f}")
    for kind, tag in (("verbal", "VB*"), ("nominal", "NN*")):
        c, sy, g = prf(f"sem_labeled_f1_{kind}")
        out.append(f"  {kind.capitalize()} predicates (PPOSS {tag}), labeled semantic dependencies:")
        out.append(f"    precision:  {c} / {sy} * 100 = {ratio(c, sy)}")
        out.append(f"    recall:     {c} / {g} * 100 = {ratio(c, g)}")
        out.append(f"    F1:         {f1(c, sy, g)}")
    c, g = (int(x) for x in stats["nonproj_las"].values.sum(0))
    u = int(stats["nonproj_uas"].values[:, 0].sum())
    out.append(f"  Non-projective arcs (gold):  {g}")
    out.append(f"    LAS on them:  {c} / {g} * 100 = {ratio(c, g)}")
    out.append(f"    UAS on them:  {u} / {g} * 100 = {ratio(u, g)}")
    c, sy, g = prf("nonproj_unlabeled_f1")
    out.append("  Non-projective links, unlabeled (system's vs gold's):")
    out.append(f"    precision:  {c} / {sy} * 100 = {ratio(c, sy)}")
    out.append(f"    recall:     {c} / {g} * 100 = {ratio(c, g)}")
    out.append(f"    F1:         {f1(c, sy, g)}")
    return "\n".join(out) + "\n"


def score_conll08(gold: Any, system: Any, **options: Any) -> ScoreReport:
    """Score a CoNLL-2008 file like ``eval08.pl -q``."""
    return _score(gold, system, "conll08", **options)


def score_conll09(gold: Any, system: Any, **options: Any) -> ScoreReport:
    """Score a CoNLL-2009 file like ``eval09.pl -q``."""
    return _score(gold, system, "conll09", **options)


# --------------------------------------------------------------------------------------------
# units

#: The unit views: the syntactic ones of :mod:`.dependency`, then the semantic dependencies.
VIEWS = (*SYNTAX_VIEWS, "sem", "sem_unlabeled")
_ABSENT = "O"


def _unit_tables(
    fmt: str,
    tokens: Scored,
    frames: list[_SemSentence],
    item_ids: tuple[str, ...],
) -> Callable[[str], UnitTable]:
    """The unit views of one system, from the tokens and frames of the parse that scored it."""
    n_items = len(item_ids)
    syntax = token_units(tokens, n_items, item_ids)
    v08 = fmt == "conll08"

    def table(view: str) -> UnitTable:
        if view in SYNTAX_VIEWS:
            return syntax(view)
        return _sem_table(view, frames, v08, n_items, item_ids)

    return table


def _escape(label: str) -> str:
    """A label as a unit shows it: never the absence mark ``O`` (a role written ``O`` reads ``'O'``)."""
    return "'O'" if label == _ABSENT else label


def _sense(p: _Prop) -> str:
    """A predicate's unit label: its sense as the script reads it, after a dot (``.01``; ``.`` for none)."""
    return "." + (p.sense or "")


def _sem_table(view: str, frames: list[_SemSentence], v08: bool, n_items: int, item_ids: tuple[str, ...]) -> UnitTable:
    labeled = view == "sem"
    keys: list[tuple[int, int, int, int]] = []
    gold: list[str] = []
    system: list[str] = []
    present: list[bool] = []
    sentence: list[int] = []
    forms: list[str] = []

    def add(key: tuple[int, int, int, int], g: str | None, s: str | None, form: str) -> None:
        keys.append(key)
        gold.append(_ABSENT if g is None else g)
        system.append(_ABSENT if s is None else s)
        present.append(g is not None)
        sentence.append(key[0])
        forms.append(form)

    for fr in frames:
        k = fr.item
        g_by = {p.pos: p for p in fr.gold}
        s_by = {p.pos: p for p in fr.system}
        for pos in sorted(g_by.keys() | s_by.keys()):
            gp, sp = g_by.get(pos), s_by.get(pos)
            pform = _form(fr.forms, pos)
            sl: str | None
            # the predicate: a dependency on the virtual root, labelled with its sense
            if gp is None:
                assert sp is not None
                add((k, pos + 1, 0, 0), None, _sense(sp), pform)
            else:
                gl = _sense(gp)
                if sp is None:
                    sl = None
                elif labeled:
                    sl = system_label(_same_sense(gp, sp, v08), gl, _sense(sp))
                else:
                    sl = gl
                add((k, pos + 1, 0, 0), gl, sl, pform)
            # its arguments: (argument position, role) pairs, matched as sets
            g_args = _by_position(gp)
            s_args = _by_position(sp)
            for a in sorted(g_args.keys() | s_args.keys()):
                g_roles = sorted(g_args.get(a, ()))
                s_roles = s_args.get(a, set())
                rest = sorted(s_roles.difference(g_roles))
                form = f"{pform} → {_form(fr.forms, a)}"
                for j, role in enumerate(g_roles):
                    gl = _escape(role)
                    if role in s_roles:
                        sl = gl
                    elif rest:
                        mine = rest.pop(0)
                        sl = system_label(False, gl, _escape(mine)) if labeled else gl
                    else:
                        sl = None
                    add((k, pos + 1, a + 1, j), gl, sl, form)
                for j, role in enumerate(rest, len(g_roles)):
                    add((k, pos + 1, a + 1, j), None, _escape(role), form)
    return UnitTable(
        view=view,
        gold=np.array(gold, dtype=object),
        system=np.array(system, dtype=object),
        sentence=np.asarray(sentence, dtype=np.int64),
        forms=tuple(forms),
        n_sentences=n_items,
        keys=tuple(keys),
        gold_present=np.asarray(present, dtype=bool),
        absent=_ABSENT,
        sentence_ids=item_ids,
        note="semantic dependencies: predicate senses (argument 0) and arguments, matched as the script does",
    )


def _by_position(p: _Prop | None) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    if p is not None:
        for pos, role in p.args:
            out.setdefault(pos, set()).add(role)
    return out


def _form(forms: list[str], pos: int) -> str:
    return forms[pos] if 0 <= pos < len(forms) else "?"


_PUNCT = Option("punct", bool, None, "score punctuation tokens (default yes)", nullable=True)
_P = Option("p", bool, None, "the script's -p: leave punctuation out", nullable=True)
_W_SEM = Option(
    "w_sem",
    float,
    _WEIGHT,
    "W_sem, the weight of the semantic score in the macro scores (the scripts: 0.5)",
    minimum=0.0,
    maximum=1.0,
)
_EXTRA = Option(
    "extra",
    bool,
    False,
    "append sigfast's additions (semantic F1/LAS, verbal vs nominal predicates, non-projective arcs)",
)


def _punct(script: str) -> Punct:
    return Punct(
        "form",
        f"gold FORM made only of Unicode punctuation (category P), {script} -p",
        views=SYNTAX_VIEWS,
        other="none, semantic dependencies are kept as the scripts' -p only changes syntax",
    )


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="`eval08.pl`, `eval09.pl` (syntactic, semantic, macro F1)",
    checked="identical summary lines",
    speed="—",
)


SPECS = (
    FormatSpec(
        name="conll08",
        readme=README_ROW,
        description="CoNLL 2008 joint syntactic-semantic dependencies, scored like eval08.pl",
        reference="eval08.pl (CoNLL 2008 shared task)",
        score=score_conll08,
        options=(
            _PUNCT,
            _P,
            Option("su", bool, None, "score predicates with sense SU and SU arguments (eval08.pl -u)", nullable=True),
            Option("u", bool, None, "eval08.pl's -u (same as su)", nullable=True),
            _W_SEM,
            _EXTRA,
            STRICT,
        ),
        aliases=("conll2008",),
        views=VIEWS,
        split_unit="sentence",
        punct=_punct("eval08.pl"),
        metrics=METRIC_NAMES + METRIC_NAMES_08,
    ),
    FormatSpec(
        name="conll09",
        readme=README_ROW,
        description="CoNLL 2009 syntactic-semantic dependencies, scored like eval09.pl",
        reference="eval09.pl (CoNLL 2009 shared task)",
        score=score_conll09,
        options=(_PUNCT, _P, _W_SEM, STRICT),
        aliases=("conll2009",),
        views=VIEWS,
        split_unit="sentence",
        punct=_punct("eval09.pl"),
        metrics=METRIC_NAMES,
    ),
)
