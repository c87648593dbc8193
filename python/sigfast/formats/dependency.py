"""CoNLL-X and CoNLL 2007 dependency parses, scored like ``eval.pl`` and ``eval07.pl``.

Formats:

* ``"conllx"``: the CoNLL-X (2006) shared task scorer ``eval.pl`` v1.9
  (2006/05/09), run as ``perl eval.pl -q -g GOLD -s SYSTEM [-p] [-b]``.
* ``"conll07"``: the CoNLL 2007 shared task scorer ``eval07.pl`` v1.4
  (2007/04/02), run as ``perl eval07.pl -q -g GOLD -s SYSTEM [-p] [-d] [-b]``.

Both read 10-column files (ID FORM LEMMA CPOSTAG POSTAG FEATS HEAD DEPREL
PHEAD PDEPREL; columns split on ASCII whitespace, so 8 to 10 columns are
accepted), one token per line, a blank line after each sentence. Only FORM,
HEAD and DEPREL are used; PHEAD/PDEPREL are ignored, as by the scripts.

Scores, over the *scoring* tokens: LAS (head and label right), UAS (head
right), label accuracy. HEAD and DEPREL are compared as strings, as the
scripts do (``02`` is not ``2``, ``root`` is not ``ROOT``); several roots or
cycles are just errors. Printed percentages are ``100 - errors*100/total``,
as the scripts compute them.

Options:

* ``punct`` (bool): score punctuation tokens, i.e. tokens whose gold FORM
  consists only of Unicode punctuation (general category P*). **The default
  differs**: ``eval.pl`` leaves punctuation out (``punct=False``) and its
  ``-p`` flag scores it; ``eval07.pl`` scores it (``punct=True``) and its
  ``-p`` flag leaves it out.
* ``p`` (bool): the script's own ``-p`` flag, with that script's meaning
  (``conllx``: ``p=True`` = ``punct=True``; ``conll07``: ``p=True`` =
  ``punct=False``). Give ``punct`` or ``p``, not both with different meanings.
* ``deriv`` (bool, ``conll07`` only, default True): score tokens whose gold
  DEPREL is ``DERIV``; ``deriv=False`` (or ``d=True``) is ``eval07.pl -d``.
* ``evalb`` (bool, default False): also print the per-sentence table of
  ``-b`` before the score lines.

Statistics per sentence (items = non-empty sentences in file order):
``las``, ``uas``, ``label_acc``, each metric ``accuracy`` with
``[correct, total]`` over the sentence's scoring tokens (a sentence made only
of punctuation gives ``[0, 0]``). Default metric: ``las``. ``scores`` are
fractions (``correct / total``), as the metric computes them.

``ScoreReport.text`` is what ``-q`` prints (with ``evalb=True``, what ``-q -b``
prints): the three lines ``"  Labeled   attachment score: C / T * 100 = X %"``
etc., with the scripts' rounding.

Units (``ScoreReport.units(view)``, ``Parsed.units(view)``): one unit per
*scoring* token, i.e. exactly the tokens the script counts under the given
options (punctuation left out or not, DERIV tokens left out or not), in file
order; ``sentence`` is the item (the index into ``stats``), ``forms`` the gold
FORM, ``sentence_ids`` the ``item_ids``. Views (token views, ``keys=None``):

* ``las``: ``DEPREL(HEAD)``, the HEAD shown as its offset from the token's
  position (``nsubj(+1)``, ``ROOT(root)``); the system label equals the gold
  label iff the script counts the token's head *and* label right;
* ``uas``: the HEAD as that offset; equal iff the head is right;
* ``label``: the DEPREL; equal iff the label is right.

The units come from the same parse that counts the scores (the files are
read once): it records which lines it counted, and the units are built from
those lines on first use. Every system label is the gold label when the script's string comparison of
HEAD (resp. DEPREL) says equal, otherwise the system's own value, marked
``≠`` when it would read like the gold one (HEAD ``02`` against ``2``). So
per sentence and in total, the correct units of ``las``/``uas``/``label`` are
exactly the ``correct`` column of ``stats["las"]``/``["uas"]``/``["label_acc"]``,
and the units are its ``total`` column. ``las`` and ``uas`` units are grouped
by the gold DEPREL (``group_name="gold relation"``).

Input the scripts score with a warning, or read as text where the numbers
may surprise, is scored as they score it, with one :class:`DependencyWarning`
per kind and system file (the command line prints each as one line); the
option ``strict`` (``-o strict=true``, ``--strict``) refuses the first three:

* a system FORM that differs from gold (the scripts warn "word/pos
  mismatch"; punctuation is decided by the gold FORM);
* a system HEAD written ``+N`` (a number to Perl; compared as text, so ``+2``
  is a wrong head against ``2``), and a system HEAD that is no number at all
  (``_``, ``-1``: compared as text, a wrong head; Perl warns);
* a CPOSTAG that differs from gold (the scripts warn and ignore it; so does
  sigfast, strict or not), and HEADs that are the same number written
  differently (``02``, ``+2`` and ``2``: counted wrong, as by the scripts).

Where sigfast differs from the scripts (it refuses input they would score
wrongly, or is lenient where they stop without any score; see also
docs/divergences.md):

* a gold HEAD that is not a non-negative integer (``+N`` accepted unless
  ``strict``), a line with fewer than 8 or more than 10 columns, a token
  line starting with whitespace (it shifts the columns for the scripts),
  bytes that are not UTF-8, or an empty file is an error;
* blank lines at the very end of either file are ignored (as ``eval07.pl``
  does; ``eval.pl`` stops with "line mismatch" when one file lacks the final
  blank line);
* no scoring token at all: an error (the scripts die with "Illegal division
  by zero").

Per sentence (``ItemStats.item_scores()``, ``sigfast score --per-item``) a
sentence without scoring tokens has accuracy 0 from ``[0, 0]``; the ``-b``
table prints ``NaN`` there.
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ..exceptions import FormatError, InputError, ScorerWarning
from ..metrics import get as get_metric
from ._base import (
    FormatSpec,
    ItemStats,
    Option,
    Punct,
    ReadmeRow,
    ScoreReport,
    UnitTable,
    decode_utf8,
    display,
    read_file_bytes,
    shorten,
    split_lines,
)

__all__ = ["SPECS", "VIEWS", "DependencyWarning", "is_punct", "score_conll07", "score_conllx"]

# Perl's \s on byte strings (eval.pl, eval07.pl, eval08.pl read bytes).
ASCII_WS = re.compile(r"[ \t\n\r\f\v]+")
# Perl's \s on character strings (eval09.pl reads with a :utf8 layer).
UNICODE_WS = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")

_OTHER_WS = re.compile("[ \n\r\f\v]|\t\t")
_OTHER_UNI_WS = re.compile("[\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]|\t\t")
_DIGITS = re.compile(r"[0-9]+\Z")
_SIGNED_DIGITS = re.compile(r"\+?[0-9]+\Z")


class DependencyWarning(ScorerWarning):
    """Input that the CoNLL dependency scorers (``eval.pl``, ``eval07.pl``, ``eval08.pl``,
    ``eval09.pl``) score with a warning, or read in a way that changes the number: sigfast scores
    it as they do and says so (``strict=True`` refuses what it refused before)."""


@dataclass
class Lenience:
    """What the scripts score anyway, collected while reading both files (see :func:`check_token`).

    ``strict``: refuse a FORM that differs from gold and a HEAD written ``+N`` instead. Each kind
    becomes one warning per system file (:meth:`messages`), naming its first line and the count.
    """

    strict: bool
    script: str
    pos_name: str
    form: list[tuple[int, str, str]] = field(default_factory=list)  # (line, gold, system)
    pos: list[tuple[int, str, str]] = field(default_factory=list)
    head: list[tuple[int, str, str]] = field(default_factory=list)  # same number, other text
    not_number: list[tuple[int, str]] = field(default_factory=list)  # system HEADs that are no number
    missing_blank: int = 0  # blank lines at the end of gold past the system file's end
    extra_blank: int = 0  # blank lines at the end of the system file past gold's end

    def messages(self, sname: str) -> list[str]:
        out = []
        for n, what, verb in (
            (self.missing_blank, "missing", "lacks"),
            (self.extra_blank, "extra", "has"),
        ):
            if not n:
                continue
            if self.script == "eval.pl":
                said = "eval.pl stops there with 'Fatal: line mismatch' and prints no score; sigfast ignores them"
            else:
                said = (
                    f"{self.script} warns 'Warning: ignoring {what} blank line at the end of {sname}.' and ignores "
                    "them, as does sigfast"
                )
            out.append(
                f"{sname}: the system file {verb} {n} blank line(s) at its end "
                f"{'that the gold file has' if what == 'missing' else 'that the gold file does not have'}; {said}"
            )
        if self.form:
            line, g, sy = self.form[0]
            out.append(
                f"{sname}, line {line}: the system FORM {shorten(sy)} differs from the gold FORM {shorten(g)} "
                f"({len(self.form)} token line(s) in all); {self.script} only warns ('word/pos mismatch') and "
                "scores the tokens, and so does sigfast (punctuation is decided by the gold FORM); strict=true "
                "refuses such a file"
            )
        if self.pos:
            line, g, sy = self.pos[0]
            out.append(
                f"{sname}, line {line}: the system {self.pos_name} {shorten(sy)} differs from the gold {shorten(g)} "
                f"({len(self.pos)} token line(s) in all); {self.script} warns ('word/pos mismatch') and ignores it, "
                "as does sigfast"
            )
        if self.head:
            line, g, sy = self.head[0]
            out.append(
                f"{sname}, line {line}: the system HEAD {shorten(sy)} is the gold HEAD {shorten(g)} written "
                f"differently ({len(self.head)} token line(s) in all); {self.script} compares HEADs as text, so "
                "the head counts as wrong where the token is scored, and so does sigfast"
                + ("; strict=true refuses a HEAD written +N" if any(h[2][:1] == "+" for h in self.head) else "")
            )
        if self.not_number:
            line, h = self.not_number[0]
            out.append(
                f"{sname}, line {line}: the system HEAD {shorten(h)} is not a non-negative integer "
                f"({len(self.not_number)} token line(s) in all); {self.script} compares it as text, so the head "
                "counts as wrong where the token is scored, and so does sigfast; strict=true refuses it"
            )
        return out

    def warn(self, sname: str) -> tuple[str, ...]:
        msgs = self.messages(sname)
        for m in msgs:
            warnings.warn(m, DependencyWarning, stacklevel=4)
        return tuple(msgs)


def is_punct(word: str) -> bool:
    """``word =~ /^\\p{Punctuation}+$/``: non-empty, every character in category P*."""
    return bool(word) and all(unicodedata.category(c)[0] == "P" for c in word)


def read_lines(path: Any, what: str) -> list[str]:
    """The lines of a UTF-8 file, split on ``\\n`` only (the newline removed).

    ``what`` ("gold" or "system") only goes into error messages. Gzip, a
    byte-order mark and the size limit as every reader (:func:`read_file_bytes`).
    """
    data, name = read_file_bytes(path, what)
    if not data:
        raise FormatError(
            f"the {what} file is empty; expected one token per line and a blank line after each sentence",
            path=name,
        )
    return split_lines(decode_utf8(data, name, what))


def perl_split(line: str, ws: re.Pattern[str] = ASCII_WS) -> list[str]:
    """``split(/\\s+/, $line)``: a leading empty field is kept, trailing ones dropped."""
    # fast path: single tabs are the only whitespace
    if not (_OTHER_WS if ws is ASCII_WS else _OTHER_UNI_WS).search(line):
        parts = line.split("\t")
    else:
        parts = ws.split(line)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


@dataclass
class Block:
    """What one call of the scripts' ``read_sent`` returns.

    ``number`` is the scripts' sentence number (empty blocks from extra blank
    lines count too); ``tokens`` are 0-based indices of the token lines (the
    same in both files); ``gold_buf``/``sys_buf`` are the indices of all the
    lines the scripts pushed into their line buffers for this block (used by
    eval08/eval09 for the semantic frames).
    """

    number: int
    start: int
    tokens: list[int]
    gold_buf: list[int]
    sys_buf: list[int]


def _sentences(lines: list[str], blank: re.Pattern[str]) -> list[tuple[int, int]]:
    """(first line index, token count) of each sentence; runs of blank lines separate them."""
    out: list[tuple[int, int]] = []
    inside = False
    for i, ln in enumerate(lines):
        if blank.fullmatch(ln):
            inside = False
        elif inside:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            inside = True
            out.append((i, 1))
    return out


def walk(
    gold: list[str],
    system: list[str],
    gname: str,
    sname: str,
    ws: re.Pattern[str] = ASCII_WS,
    lenience: Lenience | None = None,
) -> list[Block]:
    """Read both files in lockstep, line by line, as the scripts' ``read_sent`` does.

    A sentence ends at a whitespace-only line; both files must have the same
    layout. Extra whitespace-only lines at the end of one file are skipped (as
    ``eval07.pl``, ``eval08.pl`` and ``eval09.pl`` do), but still pushed to
    that file's line buffer, as those scripts do.
    """
    blank = re.compile(f"(?:{ws.pattern})?")
    blocks: list[Block] = []
    i = 0
    ng, ns = len(gold), len(system)
    eof = False
    while not eof:
        start = i
        toks: list[int] = []
        gbuf: list[int] = []
        sbuf: list[int] = []
        while True:
            g = gold[i] if i < ng else None
            s = system[i] if i < ns else None
            if g is not None:
                gbuf.append(i)
            if s is not None:
                sbuf.append(i)
            if g is not None and s is None:
                if blank.fullmatch(g):
                    i += 1
                    if lenience is not None:
                        lenience.missing_blank += 1
                    continue
                _layout_error(gold, system, gname, sname, blank, i)
            if g is None and s is not None:
                if blank.fullmatch(s):
                    i += 1
                    if lenience is not None:
                        lenience.extra_blank += 1
                    continue
                _layout_error(gold, system, gname, sname, blank, i)
            if g is None and s is None:
                eof = True
                break
            assert g is not None and s is not None
            gb = bool(blank.fullmatch(g))
            if gb != bool(blank.fullmatch(s)):
                _layout_error(gold, system, gname, sname, blank, i)
            i += 1
            if gb:
                break
            toks.append(i - 1)
        blocks.append(Block(len(blocks) + 1, start, toks, gbuf, sbuf))
    return blocks


def _layout_error(
    gold: list[str],
    system: list[str],
    gname: str,
    sname: str,
    blank: re.Pattern[str],
    i: int,
) -> None:
    fix = "gold and system files must have the same tokens, one per line, with a blank line after each sentence"
    sg = _sentences(gold, blank)
    ss = _sentences(system, blank)
    if len(sg) != len(ss):
        raise FormatError(
            f"the gold file {gname} has {len(sg)} sentences but the system file has {len(ss)} "
            f"(first difference at line {i + 1}); {fix}",
            path=sname,
            line=i + 1,
        )
    for k, ((g0, gn), (s0, sn)) in enumerate(zip(sg, ss), 1):
        if gn != sn or g0 != s0:
            if gn != sn:
                raise FormatError(
                    f"sentence {k} has {gn} tokens in the gold file {gname} (from line {g0 + 1}) "
                    f"but {sn} in the system file (from line {s0 + 1}); {fix}",
                    path=sname,
                    line=min(g0 + gn, s0 + sn) + 1,
                )
            break
    g_blank = i < len(gold) and bool(blank.fullmatch(gold[i]))
    raise FormatError(
        f"the blank lines differ from the gold file {gname}: line {i + 1} is "
        f"{'blank' if not g_blank else 'a token line'} here but "
        f"{'blank' if g_blank else 'a token line or past the end'} in gold; {fix}",
        path=sname,
        line=i + 1,
    )


def as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off"):
        return False
    raise InputError(f"option {name!r} must be true or false, got {value!r}")


def resolve_punct(options: dict[str, Any], default: bool, p_means_score: bool, script: str) -> bool:
    """The ``punct`` setting from ``punct=`` or the script's own ``p=`` flag."""
    punct = options.pop("punct", None)
    p = options.pop("p", None)
    out = default
    if p is not None:
        out = p_means_score if as_bool("p", p) else default
    if punct is not None:
        v = as_bool("punct", punct)
        if p is not None and v != out:
            raise InputError(
                f"options -o punct={str(v).lower()} and -o p={str(as_bool('p', p)).lower()} contradict each other "
                f"(for {script}, -p {'scores' if p_means_score else 'leaves out'} punctuation); give one of them"
            )
        out = v
    return out


def score_punct_hint(options: dict[str, Any], p_means_score: bool) -> str:
    """How to score punctuation, spelled as the command line takes it (and as Python does), naming the
    option the user gave: the script's ``p`` if given, else ``punct``."""
    if options.get("p") is not None:
        v = "true" if p_means_score else "false"
        return f"-o p={v} (p={v.capitalize()} in Python)"
    return "-o punct=true (punct=True in Python)"


def no_extra(options: dict[str, Any], fmt: str, allowed: str) -> None:
    if options:
        raise InputError(f"format {fmt!r} takes no option(s) {sorted(options)}; its options are {allowed}")


def pct(err: int, tot: int) -> float:
    """``100 - err*100.0/tot``, the scripts' way of computing a percentage."""
    return 100 - err * 100.0 / tot


def perl_f(x: float, spec: str = "%.2f", width: int = 0) -> str:
    """Perl's printf of a float (nan/inf spelled as Perl spells them)."""
    if x != x:
        return "NaN".rjust(width)
    if x in (float("inf"), float("-inf")):
        return ("Inf" if x > 0 else "-Inf").rjust(width)
    return (spec % x).rjust(width)


def check_token(
    gf: list[str],
    sf: list[str],
    i: int,
    gname: str,
    sname: str,
    *,
    form_col: int,
    head_col: int,
    sentence: int,
    pos_col: int | None = None,
    lenience: Lenience | None = None,
) -> None:
    """FORM equality and HEAD syntax for one token line pair (0-based line index ``i``).

    Without ``lenience`` (or with a strict one) a FORM that differs from gold and a HEAD that is
    not plain digits are errors. With a lenient one, as the scripts do: a FORM that differs is
    recorded for a warning, a HEAD written ``+N`` (a number to Perl) is accepted, and so is a
    system HEAD that is no number at all (``_``, ``-1``: the scripts compare it as text, so it is
    a wrong head), recorded; HEADs that are the same number written differently (``+2``, ``02``
    and ``2``) are recorded, since the scripts compare them as text. A gold HEAD must be a
    number. A different ``pos_col`` value is recorded in either mode.
    """
    lenient = lenience is not None and not lenience.strict
    if gf[form_col] != sf[form_col]:
        if not lenient:
            raise FormatError(
                f"sentence {sentence}: the system FORM {shorten(sf[form_col])} differs from the gold FORM "
                f"{shorten(gf[form_col])} on the same line of {gname}; the files must contain the same tokens "
                "in the same order"
                + (" (the scorer only warns: without strict=true sigfast scores it too)" if lenience else ""),
                path=sname,
                line=i + 1,
            )
        assert lenience is not None
        lenience.form.append((i + 1, gf[form_col], sf[form_col]))
    syntax = _SIGNED_DIGITS if lenient else _DIGITS
    for fields, name, is_sys in ((gf, gname, False), (sf, sname, True)):
        h = fields[head_col]
        if not syntax.match(h):
            if lenient and is_sys:
                assert lenience is not None
                lenience.not_number.append((i + 1, h))
                continue
            plus = lenience is not None and _SIGNED_DIGITS.match(h)
            raise FormatError(
                f"sentence {sentence}: HEAD (column {head_col + 1}) is {shorten(h)}, not a non-negative "
                "integer; every token needs the number of its head (0 for the root)"
                + (" (strict=true refuses a HEAD written +N)" if plus else "")
                + (
                    " (the scorer compares a system HEAD as text: without strict=true sigfast does too)"
                    if lenience is not None and not plus and name == sname
                    else ""
                ),
                path=name,
                line=i + 1,
            )
    if lenience is not None:
        if pos_col is not None and gf[pos_col] != sf[pos_col]:
            lenience.pos.append((i + 1, gf[pos_col], sf[pos_col]))
        g, sy = gf[head_col], sf[head_col]
        if g != sy and _SIGNED_DIGITS.match(sy) and _same_number(g, sy):
            lenience.head.append((i + 1, g, sy))


def _fields(line: str, i: int, name: str, sentence: int, lo: int, hi: int, fmt: str) -> list[str]:
    if line[:1] and line[0] in " \t\n\r\f\v":
        raise FormatError(
            f"sentence {sentence}: the token line starts with whitespace, which shifts the columns "
            f"for the {fmt} scorer; remove the leading whitespace",
            path=name,
            line=i + 1,
        )
    f = perl_split(line)
    if not lo <= len(f) <= hi:
        raise FormatError(
            f"sentence {sentence}: {len(f)} columns, expected {lo if lo == hi else f'{lo} to {hi}'} "
            f"(ID FORM LEMMA CPOSTAG POSTAG FEATS HEAD DEPREL PHEAD PDEPREL, separated by tabs or spaces)",
            path=name,
            line=i + 1,
        )
    return f


def _options(fmt: str, options: dict[str, Any]) -> tuple[bool, bool, bool, bool]:
    """(punct, deriv, evalb, strict) from the options of ``fmt``."""
    opts = dict(options)
    strict = as_bool("strict", opts.pop("strict", False))
    if fmt == "conllx":
        punct = resolve_punct(opts, False, True, "eval.pl")
        deriv = True
        allowed = "punct, p, evalb, strict"
    else:
        punct = resolve_punct(opts, True, False, "eval07.pl")
        deriv = True
        if "deriv" in opts and "d" in opts:
            if as_bool("deriv", opts["deriv"]) == as_bool("d", opts["d"]):
                raise InputError("options deriv and d contradict each other (d=True is deriv=False); give one")
        if "d" in opts:
            deriv = not as_bool("d", opts.pop("d"))
        if "deriv" in opts:
            deriv = as_bool("deriv", opts.pop("deriv"))
        allowed = "punct, p, deriv, d, evalb, strict"
    evalb = as_bool("evalb", opts.pop("evalb", False))
    no_extra(opts, fmt, allowed)
    return punct, deriv, evalb, strict


def _parse(
    gold: Any,
    system: Any,
    fmt: str,
    punct: bool,
    deriv: bool,
    evalb: bool,
    lenience: Lenience,
    units: list[Any] | None = None,
) -> tuple[list[tuple[int, int, int, int]], list[str], list[str]]:
    """Both files read and compared as the script does.

    Returns per sentence ``(tot, las_ok, uas_ok, la_ok)``, the item ids and
    the ``-b`` table lines; with a ``units`` list, appends the gold and system
    lines and then one ``(item, position, line index)`` per scoring token
    (exactly the tokens counted in ``tot``): a :class:`Scored`'s parts.
    """
    gname, sname = display(gold), display(system)
    glines = read_lines(gold, "gold")
    slines = read_lines(system, "system")
    blocks = walk(glines, slines, gname, sname, lenience=lenience)
    if units is not None:
        units += [glines, slines]

    rows: list[tuple[int, int, int, int]] = []  # per sentence: tot, las_ok, uas_ok, la_ok
    ids: list[str] = []
    b_lines: list[str] = []
    k = 0
    for b in blocks:
        if not b.tokens:
            continue
        k += 1
        tot = las = uas = la = 0
        for pos, i in enumerate(b.tokens, 1):
            gf = _fields(glines[i], i, gname, k, 8, 10, fmt)
            sf = _fields(slines[i], i, sname, k, 8, 10, fmt)
            check_token(gf, sf, i, gname, sname, form_col=1, head_col=6, sentence=k, pos_col=3, lenience=lenience)
            if not punct and is_punct(gf[1]):
                continue
            if not deriv and gf[7] == "DERIV":
                continue
            tot += 1
            h_ok = gf[6] == sf[6]
            d_ok = gf[7] == sf[7]
            uas += h_ok
            la += d_ok
            las += h_ok and d_ok
            if units is not None:
                units.append((k - 1, pos, i))
        rows.append((tot, las, uas, la))
        ids.append(f"line {b.tokens[0] + 1}")
        if evalb:
            if tot > 0:
                u, lab = pct(tot - uas, tot), pct(tot - las, tot)
            else:
                u = lab = float("nan")
            b_lines.append(
                f"  {b.number:4d} {len(b.tokens):4d}    0  {perl_f(u, '%6.2f', 6)} {perl_f(lab, '%6.2f', 6)}  "
                f"{uas:4d}    {las:4d}        {tot:4d}    0 0 0 0"
            )
    if not rows:
        raise FormatError("the gold file has no token lines (only blank lines); nothing to score", path=gname)
    return rows, ids, b_lines


def _score(gold: Any, system: Any, fmt: str, **options: Any) -> ScoreReport:
    punct, deriv, evalb, strict = _options(fmt, options)
    gname, sname = display(gold), display(system)
    script = "eval.pl" if fmt == "conllx" else "eval07.pl"
    lenience = Lenience(strict, script, "CPOSTAG")
    got: list[Any] = []  # the lines read and the tokens counted: the units, from this one parse
    rows, ids, b_lines = _parse(gold, system, fmt, punct, deriv, evalb, lenience, got)
    scored = Scored(got[2:], got[0], got[1], form=1, head=6, rel=7)
    arr = np.asarray(rows, dtype=np.int64)
    tot, las, uas, la = (int(x) for x in arr.sum(0))
    if tot == 0:
        raise FormatError(
            "no token is scored: every gold token is punctuation"
            + ("" if punct else f" and punctuation is left out; {score_punct_hint(options, fmt == 'conllx')} scores it")
            + f" ({'eval.pl' if fmt == 'conllx' else 'eval07.pl'} dies with 'Illegal division by zero' here)",
            path=gname,
        )
    out: list[str] = []
    if evalb:
        out += [
            "     Sent.          Attachment      Correct        Scoring          ",
            "    ID Tokens  -   Unlab. Lab.   HEAD HEAD+DEPREL   tokens   - - - -",
            "  ============================================================================",
            *b_lines,
            "",
            "",
        ]
    out += [
        f"  Labeled   attachment score: {las} / {tot} * 100 = {pct(tot - las, tot):.2f} %",
        f"  Unlabeled attachment score: {uas} / {tot} * 100 = {pct(tot - uas, tot):.2f} %",
        f"  Label accuracy score:       {la} / {tot} * 100 = {pct(tot - la, tot):.2f} %",
    ]
    acc = get_metric("accuracy")
    stats: dict[str, ItemStats] = {}
    scores: dict[str, float] = {}
    n = len(rows)
    for name, col in (("las", 1), ("uas", 2), ("label_acc", 3)):
        values = np.ascontiguousarray(np.stack([arr[:, col], arr[:, 0]], axis=1), dtype=np.float64)
        stats[name] = ItemStats(metric="accuracy", stat_names=acc.stat_names, values=values)
        scores[name] = float(acc.evaluate(values.sum(0, keepdims=True), n)[0])
    item_ids = tuple(ids)
    warned = lenience.warn(sname)

    return ScoreReport(
        format=fmt,
        gold=gname,
        system=sname,
        text="\n".join(out) + "\n",
        scores=scores,
        stats=stats,
        default_metric="las",
        item_ids=item_ids,
        views=VIEWS,
        unit_source=token_units(scored, n, item_ids),
        warnings=warned,
    )


# --------------------------------------------------------------------------------------------
# units


#: The unit views of the syntactic scores (``conllx``, ``conll07``, and the syntax of ``conll08``/``conll09``).
VIEWS = ("las", "uas", "label")


class TokenRow(NamedTuple):
    """One scoring token as the script compared it: item, 1-based position, gold FORM, HEAD/DEPREL of both files."""

    item: int
    pos: int
    form: str
    gold_head: str
    gold_rel: str
    sys_head: str
    sys_rel: str
    head_ok: bool
    rel_ok: bool


def _digits(s: str) -> str:
    """A HEAD written ``+N`` or ``N`` as its plain digits, without leading zeros."""
    return s.lstrip("+").lstrip("0") or "0"


def _same_number(a: str, b: str) -> bool:
    """Whether two HEADs (digits, perhaps ``+``) are the same number, at any length."""
    return _digits(a) == _digits(b)


def _attachment(head: str, pos: int) -> str:
    """A HEAD shown as its offset from the token (``-1``, ``+3``) or ``root``, as the CoNLL-U units do
    (a system HEAD that is no number, which the scripts count wrong, or one too long for an offset,
    as written)."""
    if not _SIGNED_DIGITS.match(head) or len(_digits(head)) > 18:
        return head
    h = int(head)
    return "root" if h == 0 else f"{h - pos:+d}"


def system_label(ok: bool, gold: str, mine: str) -> str:
    """The label a system gets for a unit: the gold label iff the script counts it correct.

    Otherwise its own label, marked with ``≠`` where it would read like the
    gold one (the script compares other text than is shown, e.g. HEAD ``02``
    against ``2``).
    """
    if ok:
        return gold
    return mine + "\u2260" if mine == gold else mine


class Scored(NamedTuple):
    """The scoring tokens one parse counted, as (item, 1-based position, line index) triples, with the
    lines it read and their columns: the units are built from these on first use (no file is read,
    nothing is parsed again; only the fields of the counted lines are split once more)."""

    tokens: list[tuple[int, int, int]]
    gold: Any  # the gold lines, or anything with ``fields(i, k)``
    system: Any
    form: int
    head: int
    rel: int

    def rows(self) -> list[TokenRow]:
        split = (lambda lines: lambda i, k: perl_split(lines[i])) if isinstance(self.gold, list) else None
        gf = split(self.gold) if split else self.gold.fields
        sf = split(self.system) if split else self.system.fields
        out = []
        for item, pos, i in self.tokens:
            g, s = gf(i, item + 1), sf(i, item + 1)
            gh, gr, sh, sr = g[self.head], g[self.rel], s[self.head], s[self.rel]
            out.append(TokenRow(item, pos, g[self.form], gh, gr, sh, sr, gh == sh, gr == sr))
        return out


def token_units(scored: list[TokenRow] | Scored, n_items: int, item_ids: tuple[str, ...]) -> Callable[[str], UnitTable]:
    """The token views (:data:`VIEWS`) of the scoring tokens (built on first use from a :class:`Scored`)."""
    made: dict[str, Any] = {}

    def table(view: str) -> UnitTable:
        if not made:
            rows = scored.rows() if isinstance(scored, Scored) else scored
            made["rows"] = rows
            made["sentence"] = np.fromiter((r.item for r in rows), dtype=np.int64, count=len(rows))
            made["forms"] = tuple(r.form for r in rows)
            made["relation"] = np.array([r.gold_rel for r in rows], dtype=object)
        rows, sentence, forms, relation = made["rows"], made["sentence"], made["forms"], made["relation"]
        gold: list[str] = []
        system: list[str] = []
        for r in rows:
            if view == "label":
                g, ok, mine = r.gold_rel, r.rel_ok, r.sys_rel
            else:
                g, mine = _attachment(r.gold_head, r.pos), _attachment(r.sys_head, r.pos)
                ok = r.head_ok
                if view == "las":
                    g, mine, ok = f"{r.gold_rel}({g})", f"{r.sys_rel}({mine})", ok and r.rel_ok
            gold.append(g)
            system.append(system_label(ok, g, mine))
        grouped = view in ("las", "uas")
        return UnitTable(
            view=view,
            gold=np.array(gold, dtype=object),
            system=np.array(system, dtype=object),
            sentence=sentence,
            forms=forms,
            n_sentences=n_items,
            sentence_ids=item_ids,
            groups=relation if grouped else None,
            group_name="gold relation" if grouped else "gold label",
        )

    return table


def score_conllx(gold: Any, system: Any, **options: Any) -> ScoreReport:
    """Score a CoNLL-X file like ``eval.pl -q`` (punctuation left out unless ``punct=True``)."""
    return _score(gold, system, "conllx", **options)


def score_conll07(gold: Any, system: Any, **options: Any) -> ScoreReport:
    """Score a CoNLL 2007 file like ``eval07.pl -q`` (punctuation scored unless ``punct=False``)."""
    return _score(gold, system, "conll07", **options)


_PUNCT = Option("punct", bool, None, "score punctuation tokens (default: eval.pl no, eval07.pl yes)", nullable=True)
_EVALB = Option("evalb", bool, False, "also print the per-sentence table of -b")
#: The ``strict`` option of the CoNLL dependency formats (conllx, conll07, conll08, conll09).
STRICT = Option(
    "strict",
    bool,
    False,
    "refuse a system FORM that differs from gold and a HEAD written +N (the scorer warns, or reads +N as N)",
)
_METRIC_NAMES = ("las", "uas", "label_acc")

#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="`eval.pl`, `eval07.pl` (punctuation rules, `-p`, `-b`)",
    checked="byte-identical summaries",
    speed="—",
)


SPECS = (
    FormatSpec(
        name="conllx",
        readme=README_ROW,
        description="CoNLL-X (2006) dependency parses, scored like eval.pl",
        reference="eval.pl v1.9 (CoNLL-X shared task)",
        score=score_conllx,
        options=(_PUNCT, Option("p", bool, None, "eval.pl's -p: score punctuation", nullable=True), _EVALB, STRICT),
        aliases=("conll06", "conll2006"),
        views=VIEWS,
        metrics=_METRIC_NAMES,
        split_unit="sentence",
        punct=Punct("form", "gold FORM made only of Unicode punctuation (category P), eval.pl's rule"),
    ),
    FormatSpec(
        name="conll07",
        readme=README_ROW,
        description="CoNLL 2007 dependency parses, scored like eval07.pl",
        reference="eval07.pl v1.4 (CoNLL 2007 shared task)",
        score=score_conll07,
        options=(
            _PUNCT,
            Option("p", bool, None, "eval07.pl's -p: leave punctuation out", nullable=True),
            Option("deriv", bool, None, "score tokens whose gold DEPREL is DERIV (default yes)", nullable=True),
            Option("d", bool, None, "eval07.pl's -d: leave DERIV tokens out", nullable=True),
            _EVALB,
            STRICT,
        ),
        aliases=("conll2007",),
        views=VIEWS,
        metrics=_METRIC_NAMES,
        split_unit="sentence",
        punct=Punct("form", "gold FORM made only of Unicode punctuation (category P), eval07.pl -p"),
    ),
)
