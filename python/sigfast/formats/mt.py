"""Machine translation output scored like sacrebleu 2.6.0: BLEU, chrF, chrF++, TER.

Format ``"mt"``: plain UTF-8 text, one segment per line; ``gold`` is one
reference file or a list of reference files (all line-aligned with the
system file). Lines are split on ``"\\n"`` only and right-stripped, as the
sacrebleu command line reads them.

Options:

* ``metric``: ``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``, or a list of
  them (the first is the headline metric); by default all four, BLEU first
  (so that ``sigfast.read(..., format="mt", metric="ter")``, which picks one
  of the computed metrics, finds each);
* ``tokenize``: BLEU tokenizer, ``"13a"`` (default), ``"none"``, ``"char"``,
  ``"zh"`` or ``"intl"`` (see :func:`_intl_tokenize` for its one limit);
  ``"ja-mecab"`` and ``"ko-mecab"`` call sacrebleu's own tokenizer objects
  when sacrebleu and MeCab are installed (``pip install "sacrebleu[ja]"`` or
  ``"sacrebleu[ko]"``), the n-gram counting staying in Rust; sacrebleu's
  SentencePiece tokenizers (``spm``, ``flores101``, ``flores200``,
  ``spBLEU-1K``) are refused;
* ``lowercase``: lowercase hypotheses and references for BLEU (sacrebleu's
  ``-lc``, which is BLEU's only); ``chrf_lowercase``: the same for chrF and
  chrF++ (``--chrf-lowercase``); TER has ``ter_case_sensitive``;
* ``width``: decimals of the score in the report, 2 by default (sacrebleu's
  ``Score.format()``); ``width=1`` is the sacrebleu command line's default;
* TER, as sacrebleu's flags of the same names: ``ter_normalized``
  (``--ter-normalized``: tokenize punctuation and numbers), ``ter_no_punct``
  (``--ter-no-punct``: remove punctuation), ``ter_asian_support``
  (``--ter-asian-support``: CJK characters as tokens, CJK punctuation removed
  with ``ter_no_punct``), ``ter_case_sensitive`` (``--ter-case-sensitive``;
  TER lowercases by default). TER has its own tokenizer (``tokenize`` is for
  BLEU), and ``lowercase`` does not apply to it, as ``-lc`` does not in
  sacrebleu's command line.

Statistics per segment: BLEU ``[hyp_len, ref_len, correct_1..4,
total_1..4]`` (closest reference length, counts clipped by the maximum count
over references) with metric ``bleu`` (``smooth="exp"``); chrF ``[hyp, ref,
match]`` per char order 1..6 then word order 1..2 (chrF++), against the
reference with the best sentence chrF, with metric ``chrf``; TER ``[edits,
ref_len]`` (the fewest edits over the references, the mean reference length)
with metric ``ter`` (sacrebleu's 0–100 scale). Summing them and applying the
metric gives sacrebleu's ``corpus_score`` exactly.

One segment alone (``ItemStats.item_scores()``, ``sigfast score --per-item``)
is scored as sacrebleu's ``sentence_score`` scores it: BLEU with the
effective order (``item_metric_params`` ``{"smooth": "exp",
"effective_order": True}``, sacrebleu's ``sentence_bleu`` and the
``--sentence-level`` command line), chrF and TER with the corpus formula on
the segment's statistics.

``ScoreReport.reference_json``: one object per metric, as sacrebleu's command
line prints it in JSON (``sacrebleu REF... -i SYS -m bleu chrf ter -w WIDTH``:
``name``, ``score`` at ``width`` decimals, ``signature``, BLEU's
``verbose_score``, and each signature field), with the full-precision details
of sacrebleu's score objects: for BLEU ``precisions``, ``bp``, ``ratio``,
``sys_len``, ``ref_len``, ``counts``, ``totals`` and ``sentence_signature``
(the signature of sentence BLEU, ``eff:yes``, that ``score --per-item``
uses); for chrF ``char_order``, ``word_order``, ``beta``; for TER
``num_edits`` and ``ref_length``. ``sigfast score -f mt --json`` prints it.

``ScoreReport.text``: one line per metric, exactly as sacrebleu's command line
prints it (``sacrebleu REF... -i SYS -m bleu chrf -f text -w 2`` gives the
same text byte for byte for ``metric=["bleu", "chrf"]``; sacrebleu prints
its metrics in the order BLEU, chrF, TER whatever the order of ``-m``, this
module in the order of ``metric``), aligned on ``=`` as sacrebleu aligns
several metrics; sacrebleu cannot print chrF and chrF++ in one call, so with
both the alignment spans their lines too. The
signature names sacrebleu 2.6.0, the version whose numbers these are.
Tokenization and n-gram counting run in Rust (``sigfast._native``).

Option ``docs``: a file of one document id per segment (the shared WMT21 data keeps no document
ids; WMT's xml files carry them). The clustered tests then resample whole documents
(``Statistics.provenance["clusters"]``, see :mod:`sigfast.clusters`).
"""

from __future__ import annotations

import math
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from ..metrics import get as get_metric
from ._base import (
    FormatSpec,
    ItemStats,
    Option,
    ReadmeRow,
    ScoreReport,
    decode_utf8,
    display,
    read_file_bytes,
    read_text,
    split_lines,
)

__all__ = ["SACREBLEU_VERSION", "SPECS", "read_segments", "score_mt"]

#: The sacrebleu release whose numbers and report lines this module reproduces.
SACREBLEU_VERSION = "2.6.0"

_TOKENIZERS = ("13a", "none", "char", "zh", "intl")
#: sacrebleu tokenizers used through sacrebleu itself: name -> (module, class, pip extra)
_DELEGATED = {
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab", "ja"),
    "ko-mecab": ("tokenizer_ko_mecab", "TokenizerKoMecab", "ko"),
}
_SPM = ("spm", "flores101", "flores200", "spBLEU-1K")
_METRICS = ("bleu", "chrf", "chrf++", "ter")


def read_aligned(system: Any, ref_paths: Sequence[Any]) -> tuple[list[str], list[list[str]]]:
    """The system's lines and each reference's lines; every file must have the same number of lines."""
    sys_name = display(system)
    hyps = read_segments(system)
    refs = []
    for p in ref_paths:
        r = read_segments(p, "reference")
        if len(r) != len(hyps):
            longer = system if len(r) < len(hyps) else p
            raise FormatError(
                f"has {len(r)} lines but the system file {sys_name} has {len(hyps)}; "
                f"line {min(len(r), len(hyps)) + 1} exists only in {display(longer)}. "
                "Every reference must be line-aligned with the system output",
                path=display(p),
                line=min(len(r), len(hyps)) + 1,
            )
        refs.append(r)
    return hyps, refs


def read_segments(path: Any, role: str = "system") -> list[str]:
    """The lines of a UTF-8 file, split on ``\\n`` and right-stripped.

    Raises :class:`FormatError` for a missing or empty file and for bytes that
    are not UTF-8 (naming the line); gzip, a byte-order mark and the size
    limit as every reader (:func:`~sigfast.formats._base.read_file_bytes`).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"expected a file path, got {type(path).__name__}")
    data, name = read_file_bytes(path, role)
    if not data:
        raise FormatError("the file is empty; expected one segment per line", path=name)
    return [ln.rstrip() for ln in split_lines(decode_utf8(data, name, role))]


def _paths(gold: Any) -> list[Any]:
    if isinstance(gold, (str, os.PathLike)):
        return [gold]
    if isinstance(gold, Sequence) and not isinstance(gold, (bytes, bytearray)):
        out = list(gold)
        if not out:
            raise InputError("no reference file given")
        return out
    raise InputError(f"gold must be a path or a list of paths, got {type(gold).__name__}")


# --- the intl tokenizer ---------------------------------------------------
#
# sacrebleu's "intl" tokenizer uses the `regex` module's \p{N}, \p{P} and
# \p{S} (Unicode general categories). We use Python's own unicodedata. The two
# agree on every character assigned in Python's Unicode database (checked by
# tests/test_format_mt.py over all code points); characters unassigned there
# may be assigned in the newer Unicode of `regex`, so a line containing one is
# refused rather than risk a different number.


@lru_cache(maxsize=65536)
def _gc(c: str) -> str:
    """The major general category (N, P, S, ...) of one character."""
    return unicodedata.category(c)[0]


def _intl_tokenize(line: str, *, path: str, lineno: int) -> str:
    for c in line:
        if unicodedata.category(c) == "Cn":
            raise FormatError(
                f"character U+{ord(c):04X} is unassigned in this Python's Unicode "
                f"{unicodedata.unidata_version}; tokenize='intl' cannot be reproduced exactly for it. "
                "Use tokenize='13a' or a newer Python",
                path=path,
                line=lineno,
            )
    # (\P{N})(\p{P}) -> "\1 \2 " ; (\p{P})(\P{N}) -> " \1 \2" ; (\p{S}) -> " \1 "
    # each as a left-to-right, non-overlapping substitution.
    out: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if i + 1 < n and _gc(line[i]) != "N" and _gc(line[i + 1]) == "P":
            out += (line[i], " ", line[i + 1], " ")
            i += 2
        else:
            out.append(line[i])
            i += 1
    s = "".join(out)
    out = []
    i, n = 0, len(s)
    while i < n:
        if i + 1 < n and _gc(s[i]) == "P" and _gc(s[i + 1]) != "N":
            out += (" ", s[i], " ", s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    s = "".join(" " + c + " " if _gc(c) == "S" else c for c in out)
    return " ".join(s.split())


def _delegated_tokenizer(name: str):
    """sacrebleu's own tokenizer object for ``ja-mecab`` / ``ko-mecab``."""
    module, cls, extra = _DELEGATED[name]
    try:
        import importlib

        tok = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    except (ImportError, RuntimeError) as e:
        raise InputError(
            f"tokenizer {name!r} is not implemented natively by sigfast; it runs sacrebleu's own tokenizer, "
            f'which needs sacrebleu and MeCab: pip install "sacrebleu[{extra}]" ({e.__class__.__name__}: '
            f"{str(e).strip().splitlines()[0] if str(e).strip() else e!r})"
        ) from None
    return tok


# --- BLEU and chrF --------------------------------------------------------


def _native():
    from .. import _native as nat

    if not hasattr(nat, "bleu_stats"):
        raise RuntimeError("sigfast._native lacks the text statistics; rebuild with `pip install -e .`")
    return nat


def _bleu_details(sums: np.ndarray) -> tuple[list[float], float]:
    """Precisions (as sacrebleu reports them) and brevity penalty of summed BLEU statistics."""
    sys_len, ref_len = int(sums[0]), int(sums[1])
    order = (len(sums) - 2) // 2
    correct = [int(x) for x in sums[2 : 2 + order]]
    total = [int(x) for x in sums[2 + order :]]
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    prec = [0.0] * order
    if not any(correct):
        return prec, bp
    halvings = 1.0
    for k in range(order):
        if total[k] == 0:
            break
        if correct[k] == 0:
            halvings *= 2
            prec[k] = 100.0 / (halvings * total[k])
        else:
            prec[k] = 100.0 * correct[k] / total[k]
    return prec, bp


def _signature(nrefs: int, items: list[tuple[str, Any]]) -> str:
    return "|".join([f"nrefs:{nrefs}"] + [f"{k}:{v}" for k, v in items] + [f"version:{SACREBLEU_VERSION}"])


def _align(lines: list[str]) -> str:
    # sacrebleu's print_single_results: right-align the text before " =".
    if len(lines) == 1:
        return lines[0] + "\n"
    cut = [ln.index("=") - 1 for ln in lines]
    w = max(cut)
    return "".join(f"{ln[:c]:>{w}}{ln[c:]}\n" for c, ln in zip(cut, lines))


def score_mt(
    gold: Any,
    system: Any,
    *,
    metric: str | Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    chrf_lowercase: bool = False,
    width: int = 2,
    ter_normalized: bool = False,
    ter_no_punct: bool = False,
    ter_asian_support: bool = False,
    ter_case_sensitive: bool = False,
    docs: Any = None,
) -> ScoreReport:
    """Score one system file against one or more reference files like sacrebleu; ``docs``: a file of
    one document id per segment, whose documents the clustered tests resample whole."""
    if metric is None:
        metric = _METRICS
    metrics = [m.strip() for m in metric.split(",")] if isinstance(metric, str) else list(metric)
    metrics = [str(m).lower() for m in metrics]
    if not metrics:
        raise InputError("no metric requested; use metric='bleu', 'chrf', 'chrf++' or 'ter'")
    for m in metrics:
        if m not in _METRICS:
            raise InputError(f"unknown MT metric {m!r}; choose from {', '.join(_METRICS)}")
    if tokenize in _SPM:
        raise InputError(
            f"sigfast does not support tokenizer {tokenize!r}: it needs sentencepiece and a model file that "
            "sacrebleu downloads. Install them (pip install sacrebleu sentencepiece), score with sacrebleu, "
            "and give sigfast the per-segment statistics"
        )
    if tokenize not in _TOKENIZERS and tokenize not in _DELEGATED:
        raise InputError(
            f"tokenizer {tokenize!r} is not supported; choose from {', '.join(_TOKENIZERS + tuple(_DELEGATED))}"
        )
    lowercase = bool(lowercase)
    chrf_lowercase = bool(chrf_lowercase)
    if isinstance(width, bool) or not isinstance(width, int) or not 0 <= width <= 17:
        raise InputError(f"width must be an integer from 0 to 17, got {width!r}")

    ref_paths = _paths(gold)
    sys_name = display(system)
    hyps, refs = read_aligned(system, ref_paths)

    def lowered(on: bool) -> tuple[list[str], list[list[str]]]:
        return ([h.lower() for h in hyps], [[x.lower() for x in r] for r in refs]) if on else (hyps, refs)

    nat = _native()
    n = len(hyps)
    nrefs = len(refs)
    scores: dict[str, float] = {}
    details: list[dict[str, Any]] = []
    stats: dict[str, ItemStats] = {}
    lines: list[str] = []
    params: dict[str, Any]
    item_params: dict[str, Any] | None
    for m in dict.fromkeys(metrics):
        if m == "bleu":
            hyps_c, refs_c = lowered(lowercase)
            case = "lc" if lowercase else "mixed"
            tok_sig = tokenize
            if tokenize in _DELEGATED:
                tok = _delegated_tokenizer(tokenize)
                tok_sig = tok.signature()
                values = nat.bleu_stats([tok(h) for h in hyps_c], [[tok(x) for x in r] for r in refs_c], "none", 4)
            elif tokenize == "intl":
                h_t = [_intl_tokenize(h, path=sys_name, lineno=i + 1) for i, h in enumerate(hyps_c)]
                r_t = [
                    [_intl_tokenize(x, path=display(p), lineno=i + 1) for i, x in enumerate(r)]
                    for p, r in zip(ref_paths, refs_c)
                ]
                values = nat.bleu_stats(h_t, r_t, "none", 4)
            else:
                values = nat.bleu_stats(hyps_c, refs_c, tokenize, 4)
            params = {"smooth": "exp"}
            item_params = {"smooth": "exp", "effective_order": True}
            met = get_metric("bleu", **params)
            sums = values.sum(0)
            value = float(met.evaluate(sums[None, :], n)[0])
            prec, bp = _bleu_details(sums)
            sys_len, ref_len = int(sums[0]), int(sums[1])
            ratio = sys_len / ref_len if ref_len else 0
            sig = _signature(nrefs, [("case", case), ("eff", "no"), ("tok", tok_sig), ("smooth", "exp")])
            verbose = (
                f"{'/'.join(f'{p:.1f}' for p in prec)} "
                f"(BP = {bp:.3f} ratio = {ratio:.3f} hyp_len = {sys_len:d} ref_len = {ref_len:d})"
            )
            lines.append(f"BLEU|{sig} = {value:.{width}f} {verbose}")
            order = (len(sums) - 2) // 2
            details.append(
                _json("BLEU", value, width, sig, verbose)
                | {
                    "precisions": prec,
                    "bp": bp,
                    "ratio": ratio,
                    "sys_len": sys_len,
                    "ref_len": ref_len,
                    "counts": [int(x) for x in sums[2 : 2 + order]],
                    "totals": [int(x) for x in sums[2 + order :]],
                    "sentence_signature": _signature(
                        nrefs, [("case", case), ("eff", "yes"), ("tok", tok_sig), ("smooth", "exp")]
                    ),
                }
            )
        elif m == "ter":
            ter_opts = dict(
                normalized=bool(ter_normalized),
                no_punct=bool(ter_no_punct),
                asian_support=bool(ter_asian_support),
                case_sensitive=bool(ter_case_sensitive),
            )
            # sacrebleu's -lc is BLEU's; TER reads the segments as they are (and lowercases unless case-sensitive)
            values = nat.ter_stats(hyps, refs, **ter_opts)
            params, item_params = {}, None
            met = get_metric("ter")
            value = float(met.evaluate(values.sum(0, keepdims=True), n)[0])
            yn = {True: "yes", False: "no"}
            sig = _signature(
                nrefs,
                [
                    ("case", "mixed" if ter_case_sensitive else "lc"),
                    ("tok", "tercom"),
                    ("norm", yn[bool(ter_normalized)]),
                    ("punct", yn[not ter_no_punct]),
                    ("asian", yn[bool(ter_asian_support)]),
                ],
            )
            lines.append(f"TER|{sig} = {value:.{width}f}")
            tsum = values.sum(0)
            details.append(
                _json("TER", value, width, sig) | {"num_edits": float(tsum[0]), "ref_length": float(tsum[1])}
            )
        else:
            word_order = 2 if m == "chrf++" else 0
            hyps_c, refs_c = lowered(chrf_lowercase)
            case = "lc" if chrf_lowercase else "mixed"
            values = nat.chrf_stats(hyps_c, refs_c, 6, word_order, 2.0)
            params, item_params = {"char_order": 6, "word_order": word_order, "beta": 2}, None
            met = get_metric("chrf", **params)
            value = float(met.evaluate(values.sum(0, keepdims=True), n)[0])
            sig = _signature(nrefs, [("case", case), ("eff", "yes"), ("nc", 6), ("nw", word_order), ("space", "no")])
            name = f"chrF2{'+' * word_order}"
            lines.append(f"{name}|{sig} = {value:.{width}f}")
            details.append(_json(name, value, width, sig) | {"char_order": 6, "word_order": word_order, "beta": 2})
        scores[m] = value
        stats[m] = ItemStats(
            metric="chrf" if m.startswith("chrf") else m,
            stat_names=met.stat_names,
            values=np.ascontiguousarray(values, dtype=np.float64),
            metric_params=params,
            counts=met.counts,
            item_metric_params=item_params,
        )
    if docs is not None:
        ids = _document_ids(docs, n)
        stats = {k: replace(st, extra={"clusters": ids, "cluster_field": "doc"}) for k, st in stats.items()}
    return ScoreReport(
        format="mt",
        gold=", ".join(display(p) for p in ref_paths),
        system=sys_name,
        text=_align(lines),
        scores=scores,
        stats=stats,
        default_metric=metrics[0],
        reference_json=details,
    )


def _document_ids(path: Any, n: int) -> tuple[str, ...]:
    """One document id per segment, from a file of one id per line (WMT's document ids)."""
    text, name = read_text(path, "document ids")
    ids = tuple(ln.strip() for ln in split_lines(text.rstrip("\n")))
    if len(ids) != n:
        raise FormatError(
            f"{len(ids)} document ids for {n} segments; give one document id per segment, line by line", path=name
        )
    for i, d in enumerate(ids, 1):
        if not d:
            raise FormatError("an empty document id; every segment needs one", path=name, line=i)
    return ids


def _json(name: str, value: float, width: int, sig: str, verbose: str | None = None) -> dict[str, Any]:
    """A metric as sacrebleu's command line prints it in JSON (``Score.format(is_json=True)``)."""
    d: dict[str, Any] = {"name": name, "score": float(f"{value:.{width}f}"), "signature": sig}
    if verbose is not None:
        d["verbose_score"] = verbose
    for part in sig.split("|"):
        key, val = part.split(":")
        d[key] = val
    return d


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer=(
        "sacrebleu BLEU, chrF, chrF++ (13a, zh, char, intl; ja-/ko-mecab through sacrebleu; multi-reference; "
        "`lowercase` is `-lc`, BLEU's, `chrf_lowercase` is `--chrf-lowercase`); TER (`ter_normalized`, "
        "`ter_no_punct`, `ter_asian_support`, `ter_case_sensitive`); `-o docs=FILE` (one document id per "
        "segment) resamples whole documents"
    ),
    checked=(
        "identical scores and statistics (TER: all 19 WMT21 de-en systems, 1 and 2 references); `score "
        "--json` holds sacrebleu's JSON fields and its full-precision details"
    ),
    speed="see [Speed](#speed)",
)


SPECS = (
    FormatSpec(
        name="mt",
        readme=README_ROW,
        description="machine translation: one segment per line, one or more reference files as gold",
        reference=f"sacrebleu {SACREBLEU_VERSION} (BLEU, chrF, chrF++, TER)",
        score=score_mt,
        options=(
            Option("metric", (str, list, tuple), None, "metrics in the report (comma-separated)", nullable=True),
            Option(
                "tokenize",
                str,
                "13a",
                "BLEU tokenizer (sacrebleu's names)",
                choices=_TOKENIZERS + tuple(_DELEGATED) + _SPM,
            ),
            Option("lowercase", bool, False, "BLEU: lowercase before scoring (sacrebleu -lc, which is BLEU's only)"),
            Option("chrf_lowercase", bool, False, "chrF, chrF++: lowercase before scoring (--chrf-lowercase)"),
            Option("width", int, 2, "decimals in the report (sacrebleu -w)", minimum=0, maximum=17),
            Option("ter_normalized", bool, False, "TER: tokenize punctuation and numbers (--ter-normalized)"),
            Option("ter_no_punct", bool, False, "TER: remove punctuation (--ter-no-punct)"),
            Option("ter_asian_support", bool, False, "TER: CJK characters as tokens (--ter-asian-support)"),
            Option("ter_case_sensitive", bool, False, "TER: keep case (--ter-case-sensitive)"),
            Option(
                "docs",
                "path",
                None,
                "a file of one document id per segment (WMT's document ids): the clustered tests resample whole "
                "documents (Statistics.provenance['clusters'])",
                nullable=True,
            ),
        ),
        aliases=("sacrebleu", "bleu", "translation"),
        metrics=_METRICS,
        split_unit="line",
    ),
)
