"""The ``sigfast`` command line: one parser, built from two tables.

:data:`FLAGS` defines every flag once (names, type, default, help); each
entry of :data:`COMMANDS` names its handler (``module:function``, imported
only when that subcommand runs), its positional arguments and the flags it
takes from :data:`FLAGS`. A subcommand may narrow a flag's choices or give it
another default, and then says why in the help; it cannot redefine a flag.
So the same flag has the same name, type and meaning everywhere
(``tests/test_cli_vocabulary.py`` walks every flag of every subcommand).

Start-up stays light: this module imports only :mod:`argparse` (and typing) and the shared options'
defaults (:mod:`sigfast._options`, standard library only), and only the
chosen subcommand's parser is filled in; ``sigfast --help`` and
``--version`` import neither numpy nor the subcommands' code.

Errors: a :class:`~sigfast.exceptions.SigfastError` or an ``OSError`` prints
one line on standard error and exits 1; a usage error (unknown flag, bad
value, too few files, flags that do not fit together:
:class:`~sigfast.exceptions.UsageError`) prints one line and exits 2, as argparse does;
no flag may be abbreviated, and an unknown one gets the closest flag; ``--debug`` shows the
traceback instead; a closed pipe (``| head``) ends quietly; Ctrl-C exits 130
and SIGTERM 143, after stopping worker processes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

__all__ = ["COMMANDS", "FLAGS", "Command", "Flag", "Use", "build_parser", "main"]

from ._options import (  # stdlib only: start-up stays light
    DEFAULT_BACKEND,
    DEFAULT_CONFIDENCE,
    DEFAULT_NAN_POLICY,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
)

# --------------------------------------------------------------------------------------------
# value types (each gives a one-line usage error)


def _whole(s: str, what: str) -> int:
    """A whole number: ``10000``, ``10_000`` or ``1e4`` (a float that is integral), not ``1.5``."""
    t = s.strip().replace("_", "")
    try:
        return int(t)
    except ValueError:
        pass
    try:
        v = float(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {s!r}") from None
    if not v.is_integer():
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {s!r}")
    return int(v)


def count(what: str, limit: int | None = None) -> Callable[[str], int]:
    """A positive whole number (``1e4`` is accepted, ``1.5``, 0 and negatives are not), at most ``limit``."""

    def parse(s: str) -> int:
        v = _whole(s, what)
        if v < 1:
            raise argparse.ArgumentTypeError(f"{what} must be at least 1, got {v}")
        if limit is not None and v > limit:
            raise argparse.ArgumentTypeError(f"{what} must be at most {limit:,}, got {v:,}")
        return v

    parse.__name__ = "count"
    return parse


def shared(name: str, flag: str) -> Callable[[str], int]:
    """A shared option's flag (``--seed``, ``--resamples``, ``--stream``, ``--threads``): a whole number
    in any spelling, checked by :func:`sigfast._options.check`, the check the Python API runs, so that a
    bad value is a usage error while the arguments are parsed, before any file is read."""

    def parse(s: str) -> int:
        from ._options import check
        from .exceptions import InputError

        try:
            return int(check(name, _whole(s, flag)))
        except InputError as e:
            raise argparse.ArgumentTypeError(flag + str(e).removeprefix(name)) from None

    parse.__name__ = name
    return parse


seed = shared("seed", "--seed")
stream = shared("stream", "--stream")
resamples = shared("n_resamples", "--resamples")
threads = shared("n_threads", "--threads")


def _float_in(s: str, what: str, inside: Callable[[float], bool]) -> float:
    """``s`` as a float for which ``inside`` holds, else an argparse error naming ``what``."""
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {s!r}") from None
    if not inside(v):
        raise argparse.ArgumentTypeError(f"expected {what}, got {v:g}")
    return v


def level(s: str) -> float:
    """A level strictly between 0 and 1 (confidence, alpha)."""
    return _float_in(s, "a number in (0, 1)", lambda v: 0 < v < 1)


def unit_interval(s: str) -> float:
    return _float_in(s, "a number in [0, 1]", lambda v: 0 <= v <= 1)


def percent(s: str) -> float:
    return _float_in(s, "a percentile in [0, 100]", lambda v: 0 <= v <= 100)


def positive(s: str) -> float:
    """A positive finite number (``--target-se``, ``--items``, ``--repeats``)."""
    return _float_in(s, "a positive number", lambda v: 0 < v < float("inf"))


def number(s: str) -> float:
    """A finite number (``--tau``, ``--dt``, ``--threshold``, ``--epsilon``, ``--ratios``, ``--bands``)."""
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {s!r}") from None
    if v != v or v in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {s!r}")
    return v


# --------------------------------------------------------------------------------------------
# the one table of flags


class Flag(NamedTuple):
    """One flag, defined once: its option strings, how argparse reads it, its default and help.

    ``deprecated``: old spellings, still accepted (hidden from the help) with a one-line warning.
    ``choices``: every value the flag takes anywhere; a subcommand may accept a subset.
    """

    names: tuple[str, ...]
    help: str
    default: Any = None
    type: Callable[[str], Any] | None = None
    action: Any = None
    choices: tuple[str, ...] | None = None
    nargs: Any = None
    metavar: Any = None
    dest: str | None = None
    required: bool = False
    deprecated: tuple[str, ...] = ()
    const: Any = None

    @property
    def key(self) -> str:
        return self.dest or next(n for n in self.names if n.startswith("--"))[2:].replace("-", "_")


_BOOT_VARIANTS = ("bk", "koehn", "shifted", "sacrebleu", "moses")
_MCNEMAR_VARIANTS = ("mid-p", "exact", "asymptotic", "asymptotic-nocc")
_PAIRED_TESTS = ("bootstrap", "permutation", "exact", "mcnemar", "sign", "wilcoxon", "ttest")
_META_TESTS = ("perm-systems", "perm-inputs", "perm-both", "perm-both-rowcol", "williams", "none")
_CORRECTIONS = ("holm", "bonferroni", "hochberg", "bh", "by", "none")

_flags = [
    # ---- inputs
    Flag(
        ("--format", "-f"),
        "file format (default: detected from the file name, its first lines or a folder's layout, where they say it "
        "unambiguously; `sigfast info` lists formats, aliases and options)",
        metavar="FORMAT",
    ),
    Flag(
        ("--option", "-o"),
        "a format option (repeatable; `sigfast info` lists each format's options)",
        action="append",
        metavar="KEY=VALUE",
    ),
    Flag(
        ("--ref",),
        "reference (gold) file, repeatable (mt, rouge: several references); then every FILE is a system",
        action="append",
        metavar="FILE",
    ),
    Flag(
        ("--metric", "-m"),
        "metric (repeatable: one result per metric, in one table where they share one; default: the format's "
        "headline metric)",
        action="append",
        metavar="METRIC",
    ),
    Flag(
        ("--view",),
        "the units compared (`sigfast info` lists each format's views; default: the view of the metric, else the "
        "format's first)",
        metavar="VIEW",
    ),
    Flag(
        ("--align",),
        "units: chars aligns words on characters as conll18_ud_eval.py does (CoNLL-U raw-text systems; the CoNLL-U "
        "default); tokens requires the gold words (every other format)",
        choices=("chars", "tokens"),
    ),
    Flag(
        ("--strict",),
        "refuse input that the reference scorer scores with a warning (-o strict=true for the formats that have "
        "it: conllx, conll07, conll08, conll09, alignment)",
        action="store_true",
        default=False,
    ),
    Flag(("--task",), "LLM logs: the task to read from a run folder (-o task=NAME)", metavar="NAME"),
    Flag(
        ("--intersect",),
        "LLM logs: test the items all logs share when they hold different items, with a warning and the counts "
        "(-o intersect=true); without it, missing or extra items are an error",
        action="store_true",
        default=False,
    ),
    Flag(
        ("--cluster",),
        "the items' cluster key, a field of each item (LLM logs: a sample's metadata or record field; -o "
        "cluster=FIELD): the bootstrap resamples whole clusters and standard errors are cluster-robust",
        metavar="FIELD",
    ),
    Flag(
        ("--no-punct",),
        "leave out units whose gold word is punctuation, by the format scorer's rule (CoNLL-U: gold relation "
        "punct, as conll18_ud_eval.py's CLAS; CoNLL-X/2007/2008/2009: FORM of Unicode punctuation, as the "
        "scripts' -p; other formats: that FORM rule)",
        action="store_true",
        default=False,
    ),
    Flag(
        ("--per-item",),
        "each item's score and statistics as the reference scores one sentence or document alone (sentence BLEU "
        "with the effective order, per-sentence LAS, F1 counts, AER counts, per-document ROUGE)",
        action="store_true",
        default=False,
    ),
    # ---- the test
    Flag(
        ("--test", "-t"),
        "the significance test",
        default="bootstrap",
        choices=_PAIRED_TESTS + _META_TESTS,
    ),
    Flag(
        ("--variant",),
        "the test's variant (default: bk for the bootstrap, mid-p for McNemar)",
        choices=_BOOT_VARIANTS + _MCNEMAR_VARIANTS,
    ),
    Flag(
        ("--alternative",),
        "sidedness (default: two-sided, except the bk and koehn bootstrap, one-sided in the observed direction)",
        choices=("two-sided", "greater", "less"),
    ),
    Flag(
        ("-n", "--resamples"),
        "resamples (at most 2^40; 1e6 and 10_000 are accepted)",
        default=DEFAULT_RESAMPLES,
        type=resamples,
        metavar="N",
    ),
    Flag(("--seed",), "random seed, in [0, 2^64)", default=DEFAULT_SEED, type=seed),
    Flag(
        ("--stream",),
        "random stream version (default: the newest, 2); 1 reproduces a result whose signature says stream:...v1",
        type=stream,
        metavar="N",
    ),
    Flag(
        ("--draws",),
        "the bootstrap's draws: sigfast's counter-based stream, or sacrebleu 2.x's own (numpy's "
        "default_rng(seed).choice), which with --variant sacrebleu gives sacrebleu's --paired-bs p-value to "
        "the digit",
        default="sigfast",
        choices=("sigfast", "sacrebleu"),
    ),
    Flag(("--confidence",), "confidence level of intervals", default=DEFAULT_CONFIDENCE, type=level),
    Flag(
        ("--target-se",),
        "design: the standard error wanted; reports the fewest repeats per item that reach it",
        type=positive,
        metavar="SE",
    ),
    Flag(("--items",), "design: the items of a planned evaluation (default: the items read)", type=positive),
    Flag(("--repeats",), "design: the repeats per item of a planned evaluation (default: those read)", type=positive),
    Flag(("--alpha",), "significance level", default=0.05, type=level),
    Flag(
        ("--correction",),
        "multiple-testing correction",
        default="holm",
        choices=_CORRECTIONS + ("romano-wolf", "deepsig"),
    ),
    Flag(
        ("--bootstrap-ranks",),
        "also each system's P(best) (share of the shared resamples on which it is best, ties shared evenly) and "
        "expected rank (its mean rank over them)",
        action="store_true",
        default=False,
    ),
    Flag(
        ("--versus",),
        "also test every other system against this one (best: the best observed score; or a system's name), "
        "a two-sided bootstrap p-value each, adjusted over the comparisons by --correction",
        metavar="best|SYSTEM",
    ),
    Flag(("--raw-p",), "report c/B instead of (c+1)/(B+1)", action="store_true", default=False),
    Flag(
        ("--nan-policy",),
        "a resample on which the statistic is undefined (a constant resampled score; at system level, a system "
        "left with no scored item)",
        default=DEFAULT_NAN_POLICY,
        choices=("raise", "omit", "omit-system"),
    ),
    # ---- how it runs
    Flag(("--threads",), "threads (default: all cores)", type=threads),
    Flag(
        ("--progress",),
        "show a progress bar (default: on a terminal for long runs)",
        action=argparse.BooleanOptionalAction,
    ),
    Flag(
        ("--backend",),
        "where the tasks run: this process (local), Ray tasks (ray) or worker processes (processes); the same "
        "numbers on each",
        default=DEFAULT_BACKEND,
        choices=("local", "ray", "processes"),
    ),
    # ---- all pairs
    Flag(
        ("--mode",),
        "shared resamples for every pair (shared) or each pair drawn on its own (independent)",
        default="shared",
        choices=("shared", "independent"),
    ),
    Flag(
        ("--resampling",),
        "items, distinct rows, or auto (distinct rows where rows repeat)",
        default="auto",
        choices=("auto", "items", "distinct", "two-level", "crossed"),
    ),
    Flag(
        ("--groups",),
        "boundaries (WMT style: a boundary where every system above beats every system below) or strict (no "
        "significant difference inside a group)",
        default="boundaries",
        choices=("boundaries", "strict"),
    ),
    Flag(("--label",), "the group of a system (repeatable)", action="append", metavar="SYSTEM=GROUP"),
    Flag(("--combination",), "a system combination (repeatable)", action="append", metavar="SYSTEM"),
    Flag(
        ("--band",),
        "gain threshold: the p-value band of the comparisons it is taken over",
        default=(0.04, 0.06),
        type=unit_interval,
        nargs=2,
        metavar=("LOW", "HIGH"),
    ),
    Flag(
        ("--percentile",),
        "gain threshold: the percentile of |gain| over the comparisons in the band",
        default=95.0,
        type=percent,
        metavar="P",
    ),
    Flag(("--plot",), "write the plot to FILE (.png, .pdf or .svg; needs matplotlib)", metavar="FILE"),
    Flag(("--heatmap",), "p-value heat map (.png, .svg or .pdf)", metavar="FILE"),
    # ---- output
    Flag(
        ("--output",),
        "also write the result to FILE; its extension picks the output style (sigfast.styles: .json, .csv, .md, "
        ".tex or .txt, and any registered style's)",
        metavar="FILE",
    ),
    Flag(
        ("--top",),
        "show only the first N rows of the ranked table",
        type=count("--top"),
        metavar="N",
    ),
    # ---- studies
    Flag(
        ("--out-dir",),
        "output folder",
        required=True,
        metavar="DIR",
        deprecated=("--out", "-O"),
    ),
    Flag(("-k", "--splits"), "number of splits", default=20, type=count("--splits"), metavar="K"),
    Flag(("--ratios",), "part ratios", default=(0.8, 0.1, 0.1), type=number, nargs="+"),
    Flag(("--parts",), "part names", default=("train", "dev", "test"), nargs="+"),
    Flag(
        ("--unit",),
        "sentence (blank-line blocks), line, or document (# newdoc); default: the format's unit",
        choices=("sentence", "line", "document"),
    ),
    Flag(("--shuffled-order",), "write units in permuted order, not corpus order", action="store_true", default=False),
    Flag(
        ("--verify",),
        "re-read the written files and check them against the corpus",
        default=True,
        action=argparse.BooleanOptionalAction,
    ),
    Flag(("--sizes",), "set sizes in items (units)", type=count("--sizes"), nargs="+", metavar="N"),
    Flag(("--samples",), "sets drawn per size", default=1, type=count("--samples")),
    Flag(
        ("--subsets",),
        "initial segments (prefix) or random subsets (random) of the test set",
        default="prefix",
        choices=("prefix", "random"),
        # --mode is pairwise's shared/independent resamples; test-size said --mode before
        deprecated=("--mode",),
    ),
    Flag(("--tests",), "include every test's p-value and gain in the JSON", action="store_true", default=False),
    Flag(("--size",), "items per drawn test set, m", default=500, type=count("--size")),
    Flag(("--test-sets",), "test sets drawn per domain", default=200, type=count("--test-sets")),
    Flag(("--bands",), "band edges, e.g. 0 0.01 0.04 0.06 0.1 0.2 0.5 1", type=number, nargs="+"),
    Flag(
        ("--domains-by-id-prefix",),
        "treat the item-id prefix before SEP (default '-') as the domain; adds cross-domain columns",
        nargs="?",
        const="-",
        metavar="SEP",
    ),
    Flag(("--manifest",), "manifest.json written by `sigfast split`", metavar="FILE"),
    Flag(("--part",), "which part of each split to test on", default="test"),
    Flag(
        ("--spec",),
        "JSON list of per-split gold and system files, or {splits: [...], standard: {gold, systems}}",
        metavar="FILE",
    ),
    Flag(
        ("--standard",),
        "the standard split's test set: GOLD SYSTEM ... (with --format; the same system names), scored and tested "
        "like each split and shown beside the random splits (table and --plot, G&B Figure 1)",
        nargs="+",
        metavar="FILE",
    ),
    Flag(("--binarize",), "McNemar on whole items: right when perfect", choices=("exact",)),
    Flag(
        ("--family",),
        "correct over each pair's splits (splits) or over all pairs and splits (all)",
        default="splits",
        choices=("splits", "all"),
    ),
    # ---- looking inside a difference
    Flag(
        ("--criterion",),
        "conll2012: the antecedent criterion",
        default="nominal",
        choices=("any", "nominal", "both"),
    ),
    Flag(
        ("--label-rows",),
        "per-label rows shown (most frequent first)",
        default=30,
        type=count("--label-rows"),
        metavar="N",
        # --labels N read too much like pairwise's --label SYSTEM=GROUP
        deprecated=("--labels",),
    ),
    Flag(
        ("--sort",),
        "order of the per-label table: most frequent label first (frequency), or largest accuracy difference "
        "|Δ| first (delta, Tuggener 2017, Table 12)",
        default="frequency",
        choices=("frequency", "delta"),
    ),
    Flag(("--matrix",), "also print the pairwise diff / Δaccuracy matrix", action="store_true", default=False),
    Flag(
        ("--show-systems",),
        "the systems that get a column in the per-label table, in this order (repeatable)",
        action="append",
        metavar="NAME[,NAME...]",
        # --systems read like metaeval's --system (systems used, not shown)
        deprecated=("--systems",),
    ),
    Flag(
        ("--top-systems",),
        "per-label columns for the N most accurate systems (default: all; text folds to the 8 most accurate)",
        type=count("--top-systems"),
        metavar="N",
    ),
    Flag(("--lowest",), "lowest-alpha sentences shown", default=5, type=count("--lowest"), metavar="N"),
    Flag(("--include-gold",), "count gold as one more coder", action="store_true", default=False),
    Flag(
        ("--min-units",), "rank only sentences with at least N units", default=2, type=count("--min-units"), metavar="N"
    ),
    # ---- seeds
    Flag(("--tau",), "dominance threshold on ε_min (strict: 0.2)", default=0.5, type=number),
    Flag(("--dt",), "integration step", default=0.005, type=number),
    # ---- metaeval
    Flag(("--name",), "name of the next metric file (repeatable, in order)", action="append"),
    Flag(("--hyps",), "system output files (PATH or NAME=PATH), scored against --ref", nargs="+", metavar="FILE"),
    Flag(("--rename",), "rename a system in every table (repeatable)", action="append", metavar="OLD=NEW"),
    Flag(("--system",), "a system to use (repeatable; default: those in every table)", action="append", metavar="NAME"),
    Flag(
        ("--layout",),
        "human file layout: long (system item score rows), wide (a row per system, a column per item), blocks "
        "('system score' lines: one per system, or a block per system in item order, as mt-metrics-eval's files)",
        default="auto",
        choices=("auto", "long", "wide", "blocks"),
    ),
    Flag(("--score-column",), "human score column (long files with a header)", metavar="NAME"),
    Flag(
        ("--metric-layout",),
        "metric file layout (as --layout)",
        default="auto",
        choices=("auto", "long", "wide", "blocks"),
    ),
    Flag(("--metric-score-column",), "metric score column (long files with a header)", metavar="NAME"),
    Flag(("--level",), "correlation level", default="item", choices=("system", "global", "item", "system_grouped")),
    Flag(
        ("--statistic",),
        "correlation statistic: pearson, spearman, kendall_b, kendall_c, tau_like (grouped levels: the mean over "
        "items of each item's tau-like), tau_like_pooled (WMT's DARR tau-like: all items' pairs pooled, "
        "sum(C-D)/sum(C+D), as mt-metrics-eval's KendallLike(average_by='item')), pairwise_accuracy, acc_eq",
        default="kendall_b",
    ),
    Flag(("--threshold",), "tau_like: human difference that makes a pair (WMT DA: 25)", type=number),
    Flag(("--epsilon",), "acc_eq: fixed tie threshold (default: tie calibration)", type=number),
    Flag(
        ("--missing",),
        "a cell the human table scores and a metric does not: error (naming the metric, its file, the system and "
        "the item) or omit (leave the cell out for every metric, with a warning)",
        default="error",
        choices=("error", "omit"),
    ),
    Flag(
        ("--lp",),
        "HUMAN as an mt-metrics-eval test-set folder: the language pair (e.g. de-en), where it holds several",
        metavar="SRC-TGT",
    ),
    Flag(
        ("--gold",),
        "HUMAN as an mt-metrics-eval test-set folder: the human scores human-scores/LP.NAME.LEVEL.score (e.g. mqm, "
        "wmt-z), where there are several",
        metavar="NAME",
    ),
    Flag(
        ("--interval",),
        "bootstrap intervals resampling systems, inputs, both, or none",
        default="both",
        choices=("systems", "inputs", "both", "none"),
    ),
    # ---- small-sample intervals, confidence sequences and the gate
    Flag(
        ("--method",),
        "how the interval is computed",
        choices=("newcombe", "tango", "bonett-price", "auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"),
    ),
    Flag(
        ("--min-diff",),
        "the smallest difference SYSTEM - BASELINE that allows the release (negative: a non-inferiority margin)",
        default=0.0,
        type=number,
        metavar="D",
    ),
    Flag(
        ("--bounds",),
        "the range every per-item score lies in (the empirical-Bernstein sequences; default 0 1)",
        type=number,
        nargs=2,
        metavar=("LOW", "HIGH"),
    ),
    Flag(("--batch",), "items between two looks at the confidence sequence", default=10, type=count("--batch")),
    Flag(("--min-items",), "items before the first verdict", default=30, type=count("--min-items"), metavar="N"),
    Flag(
        ("--t-opt",),
        "asymptotic sequence: the item count where it is tightest (fix it before the run)",
        default=100.0,
        type=number,
        metavar="N",
    ),
    # ---- rate (battles)
    Flag(
        ("--ties",),
        "how ties enter the Bradley–Terry likelihood: half a win on each side, or Davidson's tie model",
        default="half",
        choices=("half", "davidson"),
    ),
    Flag(
        ("--se",),
        "standard errors: model (inverse Fisher information), sandwich over battles (arena-rank's default), or "
        "cluster (cluster-robust sandwich; needs --cluster)",
        default="sandwich",
        choices=("model", "sandwich", "cluster"),
    ),
    Flag(("--scale",), "Elo points per ln(base) of strength (FastChat: 400)", default=400.0, type=number),
    Flag(("--base",), "the Elo scale's base (FastChat: 10)", default=10.0, type=number),
    Flag(("--offset",), "the rating of the anchor, or the mean rating without one", default=1000.0, type=number),
    Flag(("--anchor",), "the model placed at --offset (default: the mean rating is --offset)", metavar="MODEL"),
    Flag(
        ("--ridge",),
        "added to the information's diagonal for the standard errors (arena-rank: 1e-5 × battles; default 0)",
        default=0.0,
        type=number,
    ),
    Flag(
        ("--bootstrap",),
        "also B bootstrap resamples: of whole clusters with --cluster, of battles without; percentile intervals "
        "and P(rank 1), each resample refitted from the full fit",
        type=count("--bootstrap"),
        metavar="B",
    ),
    Flag(
        ("--baseline",),
        "also each model's win rate against this model (arena-hard-auto / AlpacaEval style)",
        metavar="MODEL",
    ),
    # ---- demo
    # ---- report
    Flag(
        ("--pair",),
        "a pair of systems for the pair views (repeatable; default: each of the first six systems with the next)",
        action="append",
        metavar="A,B",
    ),
    Flag(
        ("--interval-resamples",),
        "bootstrap resamples of each system's interval",
        default=10_000,
        type=count("--interval-resamples"),
        metavar="N",
    ),
    Flag(("--data",), "also write the report's data as one JSON file", metavar="FILE.json"),
    Flag(
        ("--tasks",),
        "LLM logs of several tasks: a table of each system's score, standard error and design effect per task "
        "(the other sections show --task, or the first of these)",
        nargs="+",
        metavar="TASK",
    ),
    Flag(("--title",), "the report's title", metavar="TEXT"),
    Flag(
        ("--save",),
        "write the sample data as files the other subcommands read (F1 statistics, 0/1 correctness, scores)",
        metavar="FOLDER",
    ),
]

#: Every flag of every subcommand, defined once, by key (the long name without dashes).
FLAGS: dict[str, Flag] = {f.key: f for f in _flags}
assert len(FLAGS) == len(_flags), "a flag is defined twice"
_FLAG_NAMES = frozenset(n for f in _flags for n in (*f.names, *f.deprecated))

#: What each choice of a flag means, one meaning everywhere; a subcommand's help lists its own choices.
CHOICES: dict[str, dict[str, str]] = {
    "test": {
        "bootstrap": "paired bootstrap",
        "permutation": "approximate randomization",
        "exact": "exact permutation",
        "mcnemar": "McNemar on the units' 0/1 correctness",
        "sign": "sign test on per-item values",
        "wilcoxon": "Wilcoxon signed-rank on per-item values",
        "ttest": "paired t-test on per-item values",
        "perm-systems": "permutation over systems",
        "perm-inputs": "permutation over inputs",
        "perm-both": "permutation over systems and inputs, each (system, input) cell on its own coin, as Deutsch "
        "et al.'s code",
        "perm-both-rowcol": "permutation of whole systems, then of whole inputs, as nlpstats' PERM-BOTH",
        "williams": "Williams' test",
        "none": "no test",
    },
    "variant": {
        "bk": "bootstrap: Berg-Kirkpatrick et al. 2012",
        "koehn": "bootstrap: Koehn 2004",
        "shifted": "bootstrap: centred, two-sided",
        "sacrebleu": "bootstrap: sacrebleu's rule",
        "moses": "bootstrap: Moses' rule",
        "mid-p": "McNemar: mid-p",
        "exact": "McNemar: exact binomial",
        "asymptotic": "McNemar: chi-square with continuity correction",
        "asymptotic-nocc": "McNemar: chi-square without continuity correction",
    },
    "correction": {
        "deepsig": "deepsig 1.2.8's multi_aso: level + (1 - level)/m for every m, so with two systems the level "
        "is 1.0 and every eps_min is 1, with a warning",
    },
    "method": {
        "newcombe": "Newcombe's hybrid score interval (1998, method 10)",
        "tango": "Tango's score interval (1998)",
        "bonett-price": "Bonett-Price adjusted Wald interval (2012)",
        "auto": "plug-in empirical-Bernstein when every score lies in --bounds (default 0 1), else asymptotic",
        "asymptotic": "Howard et al. 2021's asymptotic confidence sequence",
        "plugin-bernstein": "Waudby-Smith & Ramdas 2023's predictable plug-in empirical-Bernstein sequence "
        "(bounded scores)",
        "empirical-bernstein": "Howard et al. 2021's stitched empirical-Bernstein sequence (bounded scores; narrower "
        "than plug-in beyond a few thousand items)",
    },
    "nan_policy": {
        "raise": "stop with an error",
        "omit": "drop the resample and report how many were kept",
        "omit-system": "system level: drop the system left with no scored item and keep the resample",
    },
}


class Use(NamedTuple):
    """A subcommand's use of a flag: a subset of its choices, another default (with the reason, shown in
    the help), or help text of its own for what the flag means in this subcommand."""

    key: str
    default: Any = ...
    why: str | None = None
    choices: tuple[str, ...] | None = None
    help: str | None = None
    required: bool | None = None


class Arg(NamedTuple):
    """A positional argument."""

    dest: str
    help: str
    nargs: Any = None
    metavar: str | None = None


class Command(NamedTuple):
    name: str
    handler: str  # "module:function", imported when the subcommand runs
    help: str
    description: str
    args: tuple[Arg, ...] = ()
    flags: tuple[str | Use, ...] = ()
    aliases: tuple[str, ...] = ()


#: ``--output FILE`` and a flag ``--NAME`` for each output style of :mod:`sigfast.styles` (added by :func:`_fill`)
_OUTPUT = ("output",)
_INPUTS = ("format", "option", "ref", "strict", "task", "intersect")
_STUDY_N = (
    "each split, size or drawn test set runs one test per pair: 10,000 resamples per test keep a study within minutes"
)

_files_arg = Arg(
    "files",
    "GOLD SYSTEM [SYSTEM ...] with --format or a detected format (SYSTEM may be NAME=PATH); otherwise files "
    "of per-item scores/statistics (TSV, JSONL or .npy), one per system",
    nargs="+",
    metavar="FILE",
)

COMMANDS: tuple[Command, ...] = (
    Command(
        "compare",
        "sigfast._commands:run_compare",
        "test whether systems differ from a baseline",
        "Compare a baseline with one or more systems. The first file is gold (or give --ref) when the files are "
        "in a scorer's format (--format, or detected as `score` does); the others are system outputs: BASELINE "
        "SYSTEM [SYSTEM ...]. Files of per-item scores or statistics (TSV, JSONL or .npy) need no gold. A system "
        "may be NAME=PATH.",
        (Arg("files", "[GOLD] BASELINE SYSTEM [SYSTEM ...]", "+", "FILE"),),
        (
            *_INPUTS,
            "cluster",
            "metric",
            Use("test", choices=("bootstrap", "permutation", "exact", "mcnemar")),
            Use("variant"),
            "alternative",
            Use("view", help="--test mcnemar: the units compared (default: the metric's view, or the format's first)"),
            "align",
            Use(
                "resamples",
                default=None,
                why="1,000,000 for the bootstrap, 100,000 for permutations, whose p-values converge faster",
            ),
            "seed",
            "stream",
            "draws",
            Use(
                "resampling",
                choices=("auto", "items", "distinct", "two-level", "crossed"),
                help="the bootstrap's scheme: items, distinct rows, auto (distinct rows where rows repeat, whole "
                "clusters with --cluster), two-level (items, then each drawn item's samples: lm-eval repeats, "
                "Inspect epochs, -o sample= or -o run=) or crossed (items and prompts drawn independently: records "
                "read with -o prompt= or -o run=)",
            ),
            "confidence",
            "raw_p",
            "threads",
            "progress",
            *_OUTPUT,
        ),
    ),
    Command(
        "mcnemar",
        "sigfast._commands:run_mcnemar",
        "McNemar's test on files of per-item 0/1 correctness",
        "McNemar's test of each SYSTEM against BASELINE on per-item correctness: one 0 or 1 per line (the tsv "
        "format; .jsonl/.npy by extension). The same as `sigfast compare --test mcnemar` on such files.",
        (Arg("files", "BASELINE SYSTEM [SYSTEM ...] (NAME=PATH allowed)", "+", "FILE"),),
        (Use("variant", choices=_MCNEMAR_VARIANTS), "alternative", "confidence", *_OUTPUT),
    ),
    Command(
        "score",
        "sigfast._commands:run_score",
        "score system files like the reference scorer",
        "Print the reference scorer's report for each SYSTEM against GOLD (or --ref). The format is detected "
        "from the file name or content when --format is not given. -m picks the metrics shown.",
        (Arg("files", "GOLD SYSTEM [SYSTEM ...] (or SYSTEM ... with --ref)", "+", "FILE"),),
        (
            *_INPUTS,
            "per_item",
            Use("metric", help="the metrics shown (repeatable; default: the reference scorer's whole report)"),
            *_OUTPUT,
        ),
    ),
    Command(
        "pairwise",
        "sigfast._commands:run_pairwise",
        "test every pair of systems on shared resamples",
        "All pairs of systems with shared bootstrap resamples (Berg-Kirkpatrick et al. 2012, fn. 5), corrected "
        "for the family of comparisons, with a ranking, rank ranges and significance clusters.",
        (Arg("files", "SYSTEM ... (per-item files), or GOLD SYSTEM ... in a scorer's format", "+", "FILE"),),
        (
            *_INPUTS,
            "cluster",
            "metric",
            Use("variant", choices=_BOOT_VARIANTS),
            "alternative",
            "resamples",
            "seed",
            "stream",
            "draws",
            Use(
                "correction",
                choices=_CORRECTIONS + ("romano-wolf",),
                help="multiple-testing correction of the family of pairs; romano-wolf: Romano & Wolf's step-down "
                "p-values from the shared resamples",
            ),
            "alpha",
            "groups",
            "bootstrap_ranks",
            "mode",
            Use("resampling", choices=("auto", "items", "distinct")),
            "backend",
            "threads",
            "label",
            "combination",
            "band",
            "percentile",
            Use("plot", help="confidence-vs-gain plot (.png, .svg or .pdf; needs matplotlib)"),
            "heatmap",
            "progress",
            *_OUTPUT,
        ),
    ),
    Command(
        "interval",
        "sigfast._commands:run_interval",
        "every system's score with its standard error and intervals (error bars)",
        "Each system's score with its standard error (cluster-robust with --cluster), normal interval and "
        "bootstrap interval (whole clusters resampled): the error bars of one model or of a leaderboard. "
        "Files as for pairwise; a folder of LLM runs holds one run per system.",
        (Arg("files", "SYSTEM ... (per-item files, LLM logs), or GOLD SYSTEM ... in a scorer's format", "+", "FILE"),),
        (
            *_INPUTS,
            "cluster",
            "metric",
            Use(
                "resamples",
                default=10_000,
                why="an interval's bounds settle with fewer resamples than a small p-value",
                help="bootstrap resamples",
            ),
            "seed",
            "stream",
            "confidence",
            "versus",
            Use(
                "correction",
                choices=_CORRECTIONS + ("romano-wolf",),
                help="the correction of --versus over its comparisons; romano-wolf: Romano & Wolf's step-down "
                "p-values from the shared resamples",
            ),
            "bootstrap_ranks",
            "threads",
            *_OUTPUT,
        ),
    ),
    Command(
        "design",
        "sigfast._designs_cli:run_design",
        "what repeats and prompts do to an evaluation's error",
        "Samples per item (lm-eval repeats, Inspect epochs, records with -o sample= or -o run=): each system's "
        "variance split into between and within items with an interval of the within share, the standard error "
        "for n items and K repeats (Miller 2024; --items, --repeats plan another size) and the repeats "
        "--target-se needs. Items crossed with prompts (records with -o prompt=): each system's score under each "
        "prompt, quantiles across prompts, and each system minus the first with its two-way cluster-robust "
        "standard error. Files as for compare.",
        (Arg("files", "[GOLD] SYSTEM [SYSTEM ...] (LLM logs or records with samples or prompts)", "+", "FILE"),),
        (*_INPUTS, "metric", "confidence", "target_se", "items", "repeats", *_OUTPUT),
    ),
    Command(
        "proportions",
        "sigfast._designs_cli:run_proportions",
        "small-sample intervals of accuracies and of paired accuracy differences",
        "Each system's accuracy on per-item 0/1 correctness with its Wilson, Clopper-Pearson, Jeffreys and "
        "Beta-binomial (uniform prior) intervals; with two or more systems, each one's accuracy minus the first's "
        "(the baseline) on the same items with the Newcombe, Tango and Bonett-Price intervals and McNemar's test. "
        "Files as for compare.",
        (
            Arg(
                "files",
                "[GOLD] BASELINE [SYSTEM ...] (per-item 0/1 files, LLM logs, or a scorer's format)",
                "+",
                "FILE",
            ),
        ),
        (
            *_INPUTS,
            "metric",
            Use(
                "method",
                default="newcombe",
                why="Fagerland et al. 2014 recommend it",
                choices=("newcombe", "tango", "bonett-price"),
                help="the paired interval listed first",
            ),
            "confidence",
            *_OUTPUT,
        ),
    ),
    Command(
        "gate",
        "sigfast._designs_cli:run_gate",
        "release gate: ALLOW / REJECT / INCONCLUSIVE from an anytime-valid interval; exit 0 / 3 / 4",
        "Is SYSTEM better than BASELINE by more than --min-diff? The confidence sequence of the paired "
        "difference of per-item scores (Howard et al. 2021; Waudby-Smith & Ramdas 2023), looked at every --batch "
        "items from --min-items on: "
        "ALLOW (exit 0) at the first look whose interval lies above --min-diff, REJECT (exit 3) below it, "
        "INCONCLUSIVE (exit 4) if no look decides. Errors exit 1, usage errors 2. Files as for compare.",
        (Arg("files", "[GOLD] BASELINE SYSTEM", "+", "FILE"),),
        (
            *_INPUTS,
            "metric",
            "min_diff",
            Use(
                "method",
                default="auto",
                why="the bounded-score sequence where the scores allow it",
                choices=("auto", "asymptotic", "plugin-bernstein", "empirical-bernstein"),
            ),
            "bounds",
            "confidence",
            "batch",
            "min_items",
            "t_opt",
            *_OUTPUT,
        ),
    ),
    Command(
        "demo",
        "sigfast._commands:run_demo",
        "run the main job on built-in sample data",
        "Paired bootstrap and approximate randomization on built-in synthetic taggers; --save writes the data "
        "as files the other subcommands read.",
        (),
        (
            "save",
            Use(
                "resamples",
                default=None,
                why="1,000,000 for the bootstrap, 100,000 for the randomization test, as compare; -n N runs every "
                "test with N",
            ),
            "seed",
            "threads",
            *_OUTPUT,
        ),
    ),
    Command(
        "info",
        "sigfast._info:run_info",
        "version, random stream, formats (options, views) and metrics (parameters)",
        "The version, the random stream, every format with its aliases, options, unit views and metrics, and "
        "every metric with its parameters.",
        (),
        _OUTPUT,
    ),
    Command(
        "seeds",
        "sigfast._commands:run_seeds",
        "compare score distributions over random seeds (ASO, Welch, Mann-Whitney)",
        "Almost Stochastic Order between every pair of systems (as deepsig computes it), with Welch's t and "
        "Mann-Whitney U side by side. Each FILE holds one score per line (one per random seed); name a system "
        "with NAME=FILE.",
        (Arg("systems", "scores of one system, one per line", "+", "[NAME=]FILE"),),
        (
            Use("resamples", default=1000, why="deepsig's num_bootstrap_iterations"),
            "seed",
            "stream",
            "confidence",
            Use(
                "correction",
                default="bonferroni",
                why="deepsig's multi_aso",
                choices=("bonferroni", "deepsig", "none"),
            ),
            "tau",
            "dt",
            Use("alternative", help="sidedness of Welch and Mann-Whitney (default two-sided)"),
            "threads",
            "progress",
            *_OUTPUT,
        ),
        aliases=("aso",),
    ),
    Command(
        "diff",
        "sigfast.analysis.cli:run_diff",
        "what changed between two systems (corrections, new/changed errors)",
        "Units labeled differently by SYS1 and SYS2, split into corrections, new errors and changed errors, with "
        "top transitions and per-label accuracy (Tuggener 2017). --format conll2012 compares coreference "
        "mentions (ARCS classes).",
        (
            Arg("gold", "gold file"),
            Arg("system1", "SYS1 (PATH or NAME=PATH)"),
            Arg("system2", "SYS2 (PATH or NAME=PATH)"),
        ),
        (
            Use("top", default=10, why="Tuggener 2017 lists the top 10", help="transitions shown per class"),
            Use("criterion", default="both", why="both criteria side by side"),
            "label_rows",
            "sort",
            "format",
            "option",
            "view",
            "align",
            "no_punct",
            *_OUTPUT,
        ),
    ),
    Command(
        "oracle",
        "sigfast.analysis.cli:run_oracle",
        "oracle upper bound over N systems",
        "A unit counts as correct if any system gets it right; overall and per gold label, every system's "
        "accuracy beside the oracle's and its gain over the best single system, and the share of fully correct "
        "sentences (Tuggener 2017, Tables 3, 5, 9, 10). --format conll2012 gives each response's ARCS recall and "
        "their upper bound by mention type (Table 11).",
        (Arg("gold", "gold file"), Arg("systems", "SYSTEM ... (PATH or NAME=PATH)", "+")),
        (
            "matrix",
            "label_rows",
            "show_systems",
            "top_systems",
            Use("criterion", help="conll2012: the antecedent criterion of the recall upper bound (Table 11)"),
            "format",
            "option",
            "view",
            "align",
            "no_punct",
            *_OUTPUT,
        ),
    ),
    Command(
        "agreement",
        "sigfast.analysis.cli:run_agreement",
        "Krippendorff's alpha across systems, lowest-alpha sentences",
        "Krippendorff's alpha (nominal) per sentence and over the corpus across the systems; the lowest-alpha "
        "sentences with each system's labels beside gold (Gorman & Bedrick 2019).",
        (Arg("gold", "gold file"), Arg("systems", "SYSTEM ... (PATH or NAME=PATH)", "+")),
        ("lowest", "include_gold", "min_units", "format", "option", "view", "align", "no_punct", *_OUTPUT),
    ),
    Command(
        "split",
        "sigfast.studies.cli:run_split",
        "K seeded random train/dev/test splits of a corpus, with a manifest",
        "Cut CORPUS (and parallel files with the same number of units) into K random splits (Gorman & Bedrick "
        "2019), written byte for byte as DIR/splitKK/STEM.PART.EXT with DIR/manifest.json (seed, sizes, "
        "indices, SHA-256 of every file and of the unit multiset).",
        (Arg("corpus", "corpus file(s), plain or gzip; parallel files are cut alike", "+"),),
        (
            "out_dir",
            "splits",
            "ratios",
            "parts",
            "seed",
            "unit",
            Use("format", help="pick the unit from the format (conllu: sentence, mt: line, ...)"),
            "shuffled_order",
            "verify",
            *_OUTPUT,
        ),
    ),
    Command(
        "resample-train",
        "sigfast.studies.cli:run_resample",
        "training sets drawn with replacement at given sizes, with a manifest",
        "Draw training sets of the given sizes with replacement from CORPUS (Berg-Kirkpatrick et al. 2012, "
        "§3.2.1), written as DIR/sizeM/sampleRR/STEM.EXT with DIR/manifest.json.",
        (Arg("corpus", "training corpus file(s); parallel files are drawn alike", "+"),),
        (
            "out_dir",
            Use("sizes", required=True, help="training-set sizes in units"),
            Use("samples", help="training sets drawn per size"),
            "seed",
            "unit",
            Use("format", help="pick the unit from the format (conllu: sentence, mt: line, ...)"),
            "verify",
            *_OUTPUT,
        ),
    ),
    Command(
        "across-splits",
        "sigfast.studies.cli:run_across",
        "test every pair on K splits: significant wins, replicability, score ranges",
        "Gorman & Bedrick (2019): every pair of systems tested on each split's test part; the number of splits "
        "where one is significantly better after a correction, the replicability estimate (Dror et al. 2017), "
        "each system's score range and, for proportions (McNemar on the units of a view, POS accuracy), each "
        "system's accuracy on each split with its Wilson interval. Either score the whole corpus (GOLD SYSTEM "
        "...) and cut it with --manifest, or give --spec, a JSON list of {name, gold, systems: {name: path}} per "
        "split. --standard GOLD SYSTEM ... (or 'standard' in --spec) adds the standard split: its accuracy with "
        "a Wilson interval beside the random splits' range (G&B Table 2, Figure 1 with --plot) and the same test "
        "of every pair on it.",
        (Arg("files", "GOLD SYSTEM ... scored on the whole split corpus (with --manifest)", "*", "FILE"),),
        (
            "manifest",
            "part",
            "spec",
            "standard",
            "format",
            "option",
            "ref",
            Use(
                "metric",
                help="metric (repeatable: one study per metric); with McNemar on a format with units, a view "
                "whose units are compared (-m upos is --view upos)",
            ),
            Use("view", help="--test mcnemar on a format with units: the units compared (default: the format's first)"),
            "align",
            Use(
                "test",
                default="mcnemar",
                why="Gorman & Bedrick 2019 test each split's tokens with McNemar",
                choices=("mcnemar", "bootstrap", "permutation", "sign", "wilcoxon", "ttest"),
            ),
            Use("variant"),
            "binarize",
            "alpha",
            Use("correction", default="bonferroni", why="as Gorman & Bedrick 2019", choices=_CORRECTIONS),
            "family",
            Use("resamples", default=10_000, why=_STUDY_N, help="resamples per bootstrap or permutation test"),
            "seed",
            "stream",
            Use("backend", choices=("local", "ray")),
            Use("top", help="show only the N pairs with the largest mean gain"),
            "confidence",
            Use(
                "plot",
                help="G&B Figure 1: each system's range over the random splits and the standard split with its "
                "Wilson interval (.png, .pdf or .svg)",
            ),
            "progress",
            *_OUTPUT,
        ),
    ),
    Command(
        "test-size",
        "sigfast.studies.cli:run_test_size",
        "significance and the gain threshold against test-set size",
        "Berg-Kirkpatrick et al. (2012) Figures 9 and 10: every pair tested on initial segments (or random "
        "subsets) of 100, 200, 400, ... items and the full set; the gain threshold at each.",
        (_files_arg,),
        (
            "format",
            "option",
            "ref",
            Use("metric", help="metric (repeatable: one curve per metric; default: the headline metric)"),
            Use("sizes", help="test-set sizes (default 100 200 400 ... and the full set)"),
            "subsets",
            Use("samples", help="random subsets per size (--subsets random)"),
            Use("variant", choices=_BOOT_VARIANTS),
            "alpha",
            "band",
            "percentile",
            "tests",
            Use("resamples", default=10_000, why=_STUDY_N, help="bootstrap resamples per test"),
            "seed",
            "stream",
            "threads",
            Use("backend", choices=("local", "ray")),
            Use("plot", help="B-K Figures 9-10 (.png, .pdf or .svg)"),
            "progress",
            *_OUTPUT,
        ),
    ),
    Command(
        "calibration",
        "sigfast.studies.cli:run_calibration",
        "p-value bands against agreement with the population (BK Table 1)",
        "Berg-Kirkpatrick et al. (2012) §4.2: the scored test set is the population; test sets of --size items "
        "are drawn with replacement, every pair is tested on each, and among tests with p in a band the share "
        "whose sign agrees with the population is reported (Table 1). With domains (--domains-by-id-prefix), one "
        "table per target domain follows the pooled one, and --plot draws the domains overlaid at the fixed test "
        "size (Fig. 11) beside the calibration curves.",
        (_files_arg,),
        (
            "format",
            "option",
            "ref",
            Use("metric", help="metric (repeatable: one calibration per metric; default: the headline metric)"),
            "size",
            "test_sets",
            Use("variant", choices=_BOOT_VARIANTS),
            "bands",
            "domains_by_id_prefix",
            Use("tests", help="include every test's p-value and delta in the JSON"),
            Use("resamples", default=10_000, why=_STUDY_N, help="bootstrap resamples per test"),
            "seed",
            "stream",
            "threads",
            Use("backend", choices=("local", "ray")),
            Use("plot", help="calibration curves and, with domains, B-K Fig. 11 (.png, .pdf or .svg)"),
            "progress",
            *_OUTPUT,
        ),
    ),
    Command(
        "metaeval",
        "sigfast.metaeval_cli:run_metaeval",
        "correlate metrics with human scores, with intervals and pairwise metric tests",
        "Meta-evaluate metrics: correlations with human scores at system, global, item or system-grouped level; "
        "BOOT-SYSTEMS/INPUTS/BOTH intervals; PERM-SYSTEMS/INPUTS/BOTH (cell-wise, or rows then columns as "
        "nlpstats) or Williams tests of every pair of metrics with a multiple-testing correction; WMT-style "
        "clusters. Score files hold 'system item score' rows (TSV/CSV, a header may name the columns), one row per "
        "system, or 'system score' lines (WMT's and mt-metrics-eval's files); HUMAN may be an mt-metrics-eval "
        "test-set folder (human-scores/, metric-scores/), whose metrics are then compared.",
        (
            Arg("human", "human score file, or an mt-metrics-eval test-set folder (see --lp, --gold)"),
            Arg("metrics", "metric score files", "*"),
        ),
        (
            "name",
            "ref",
            "hyps",
            Use(
                "metric",
                help="segment metric scored on --hyps (repeatable; default bleu and chrf): bleu (sentence BLEU), "
                "chrf, chrf++; without --hyps, with a test-set folder as HUMAN: the folder's metrics compared "
                "(chrF keeps every reference's chrF-REF, chrF-refA one; default all)",
            ),
            "rename",
            "system",
            "layout",
            "score_column",
            "metric_layout",
            "metric_score_column",
            "lp",
            "gold",
            "missing",
            "level",
            "statistic",
            "threshold",
            "epsilon",
            "interval",
            Use(
                "test",
                default="perm-both",
                why="Deutsch et al. 2021 recommend PERM-BOTH",
                choices=_META_TESTS,
            ),
            Use(
                "resamples",
                default=1000,
                why="every resample recomputes every correlation; 1,000 as nlpstats",
            ),
            "seed",
            "stream",
            "confidence",
            Use("alternative", choices=("two-sided", "greater")),
            "raw_p",
            Use("nan_policy", default="omit", why="metaeval has always dropped undefined resamples, and counts them"),
            Use("correction", choices=_CORRECTIONS),
            "alpha",
            "threads",
            *_OUTPUT,
            Use("plot", help="plot of correlations with intervals (.png, .svg or .pdf)"),
            "progress",
        ),
    ),
    Command(
        "report",
        "sigfast.htmlreport:run_report",
        "one self-contained HTML report of many systems and metrics",
        "One page for a whole comparison (write it with --output FILE.html; --html prints it): per metric the "
        "leaderboard (score, bootstrap interval, rank range, significance group), the corrected p-value of every pair "
        "as a heat map and a table, confidence against gain with the gain threshold; where the format has units the "
        "per-label accuracy and, for chosen pairs, Tuggener's diff with McNemar's test per label; per item-length "
        "bucket the scores and the pairs' tests; the items where two systems differ most; the signature of every "
        "number and the commands that reproduce them. Nothing is fetched: styles, script and SVG figures are inline. "
        "Files as for pairwise (a folder of LLM runs too; --tasks adds a per-task table); -f battles BATTLES gives "
        "the Bradley-Terry ratings of a battle file.",
        (Arg("files", "GOLD SYSTEM ... in a scorer's format, or SYSTEM ... (per-item files, LLM logs)", "+", "FILE"),),
        (
            *_INPUTS,
            "cluster",
            Use("metric", help="metric (repeatable: one leaderboard, heat map and plot per metric)"),
            Use(
                "resamples",
                default=100_000,
                why="pair tests of tens of systems, corrected for hundreds of pairs, need small p-values",
                help="bootstrap resamples of the pair tests",
            ),
            "interval_resamples",
            "seed",
            "stream",
            "confidence",
            Use("correction", choices=_CORRECTIONS),
            "alpha",
            "band",
            "percentile",
            "pair",
            Use("top", default=10, why="as compare-mt", help="items shown per pair where the two systems differ most"),
            "tasks",
            "title",
            "data",
            "threads",
            *_OUTPUT,
        ),
    ),
    Command(
        "rate",
        "sigfast.ratings_cli:run_rate",
        "Bradley–Terry ratings of pairwise battles, with intervals and ranks",
        "Rate models from a battle file (the battles format: Chatbot Arena's model_a/model_b/winner, the one-hot "
        "Kaggle layout, or arena-hard-auto's judgment files; JSON, JSON lines, CSV, Parquet) by maximum "
        "likelihood, on the Elo scale, with model-based, sandwich or cluster-robust (--cluster FIELD --se "
        "cluster) intervals, FastChat's rank rule and tiers; --baseline adds win rates against one model.",
        (Arg("battles", "the battle file", None, "BATTLES"),),
        (
            "option",
            Use(
                "cluster",
                help="the battles' cluster field (judge, question_id, a session; -o cluster=FIELD): --se cluster "
                "sums the score within each cluster",
            ),
            "ties",
            "se",
            "scale",
            "base",
            "offset",
            "anchor",
            "ridge",
            "baseline",
            "bootstrap",
            "seed",
            "stream",
            "threads",
            "confidence",
            *_OUTPUT,
        ),
    ),
)

_BY_NAME: dict[str, Command] = {n: c for c in COMMANDS for n in (c.name, *c.aliases)}


# --------------------------------------------------------------------------------------------
# building the parser


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (exit 2) that name the closest valid choice or flag, and no
    abbreviated flags (``--resample`` is not taken for ``--resamples``: it is an unknown flag)."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        kw["allow_abbrev"] = False
        super().__init__(*a, **kw)

    def _filled(self) -> list[argparse.ArgumentParser]:
        """The subcommands' parsers that are filled in (one, when a subcommand runs)."""
        out = []
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                out += [p for p in dict.fromkeys(action.choices.values()) if len(p._actions) > 1]
        return out

    def _flags(self) -> list[str]:
        """Every option string of this parser and of its filled-in subcommands."""
        out = list(self._option_string_actions)
        for p in self._filled():
            out += [f for f in p._option_string_actions if f not in out]
        return out

    def error(self, message: str) -> Any:  # type: ignore[override]
        import difflib
        import re

        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            choices = [c.strip().strip("'") for c in m.group(2).split(",")]
            close = difflib.get_close_matches(m.group(1), choices, n=1)
            if close:
                message += f"; did you mean {close[0]!r}?"
        m = re.match(r"unrecognized arguments: (.*)", message)
        if m:
            flags = [f for f in self._flags() if f.startswith("--")]
            hints = []
            for tok in m.group(1).split():
                if tok.startswith("--"):
                    close = difflib.get_close_matches(tok.partition("=")[0], flags, n=1, cutoff=0.6)
                    if close:
                        hints.append(f"{tok.partition('=')[0]}: did you mean {close[0]!r}?")
            if hints:
                message += "; " + "; ".join(hints)
            filled = self._filled()
            if len(filled) == 1:  # the subcommand's flags: its help lists them
                self.exit(2, f"{filled[0].prog}: error: {' '.join(message.split())} (see `{filled[0].prog} --help`)\n")
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see `{self.prog} --help`)\n")


class _Version(argparse.Action):
    """``--version``: reads the version from the native module only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=kw.get("help"))

    def __call__(self, parser: argparse.ArgumentParser, *a: Any, **kw: Any) -> None:
        from ._native import __version__

        sys.stdout.write(f"sigfast {__version__}\n")  # on standard output: v=$(sigfast --version) works
        parser.exit(0)


def _deprecated(parser: argparse.ArgumentParser, action: Any, new: str) -> Any:
    base = action if isinstance(action, type) else parser._registry_get("action", action or "store", action)

    class Deprecated(base):  # type: ignore[misc, valid-type]
        def __call__(self, p: Any, ns: Any, values: Any, option_string: str | None = None) -> None:
            print(f"sigfast: warning: {option_string} is deprecated; use {new}", file=sys.stderr)
            super().__call__(p, ns, values, option_string)

    return Deprecated


def _why(flag: Flag, use: Use) -> str:
    default = flag.default if use.default is ... else use.default
    text = use.help or flag.help
    meanings = CHOICES.get(flag.key)
    if meanings and use.help is None:
        shown = use.choices or flag.choices or ()
        text += ": " + ", ".join(f"{c} ({meanings[c]})" if c in meanings else c for c in shown)
    if use.default is not ... and use.default != flag.default:
        assert use.why, f"{flag.key}: a default other than the shared one needs its reason"
        return f"{text} (default {_show(default)}: {use.why})"
    if flag.action in ("store_true", argparse.BooleanOptionalAction) or default is None:
        return text
    return f"{text} (default {_show(default)})"


def _show(v: Any) -> str:
    if isinstance(v, int) and not isinstance(v, bool) and v >= 10_000:
        return f"{v:,}"
    if isinstance(v, (list, tuple)):
        return " ".join(str(x) for x in v)
    return str(v)


#: required flags that have deprecated spellings, per parser: (dest, flag)
_REQUIRED: Any = __import__("weakref").WeakKeyDictionary()


def add_flag(p: argparse.ArgumentParser, spec: str | Use, group: Any = None) -> None:
    """Add one flag of :data:`FLAGS` to a subcommand's parser, as the subcommand uses it."""
    use = spec if isinstance(spec, Use) else Use(spec)
    flag = FLAGS[use.key]
    choices = flag.choices
    if use.choices is not None:
        assert flag.choices is not None and set(use.choices) <= set(flag.choices), (flag.key, use.choices)
        choices = use.choices
    default = flag.default if use.default is ... else use.default
    kw: dict[str, Any] = {"dest": flag.key, "help": _why(flag, use)}
    if flag.action is not None:
        kw["action"] = flag.action
    if flag.action not in ("store_true", argparse.BooleanOptionalAction):
        for k, v in (
            ("type", flag.type),
            ("choices", choices),
            ("nargs", flag.nargs),
            ("const", flag.const),
            ("metavar", flag.metavar),
        ):
            if v is not None:
                kw[k] = v
    kw["default"] = list(default) if isinstance(default, tuple) else default
    required = flag.required if use.required is None else use.required
    if required and flag.deprecated:  # argparse would not count the old spellings: checked after parsing
        _REQUIRED.setdefault(p, []).append((flag.key, flag.names[0]))
    elif required:
        kw["required"] = True
    (group or p).add_argument(*flag.names, **kw)
    for old in flag.deprecated:
        dkw = {k: v for k, v in kw.items() if k not in ("help", "default", "required")}
        dkw["action"] = _deprecated(p, kw.get("action"), flag.names[0])
        p.add_argument(old, **dkw, default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def _add_style_flags(p: argparse.ArgumentParser) -> None:
    """``--NAME`` for every output style of :mod:`sigfast.styles` but text (the default), one at most."""
    from .styles import styles

    group = p.add_mutually_exclusive_group()
    for s in styles(plugins=False):  # other distributions' styles: once main() has seen a flag for one
        if s.flag:
            if f"--{s.name}" in _FLAG_NAMES:
                raise ValueError(f"output style {s.name!r}: --{s.name} is already a flag of sigfast.cli.FLAGS")
            help_ = s.help or f"print {s.name} instead of the text table"
            group.add_argument(f"--{s.name}", action="store_true", default=False, help=help_)


def _fill(p: argparse.ArgumentParser, cmd: Command) -> None:
    for a in cmd.args:
        kw: dict[str, Any] = {"help": a.help}
        if a.nargs is not None:
            kw["nargs"] = a.nargs
        if a.metavar is not None:
            kw["metavar"] = a.metavar
        p.add_argument(a.dest, **kw)
    for spec in cmd.flags:
        key = spec.key if isinstance(spec, Use) else spec
        add_flag(p, spec)
        if key == "output":
            _add_style_flags(p)
    p.set_defaults(handler=cmd.handler, command=cmd.name, _parser=p)


def build_parser(command: str | None = "*") -> argparse.ArgumentParser:
    """The whole parser (``"*"``: every subcommand with its flags), the parser of one run of ``command``
    (that subcommand alone, filled in), or (``None``) every subcommand with its help line but no flags,
    which is what ``sigfast --help`` and a mistyped subcommand need."""
    ap = _Parser(
        prog="sigfast",
        description="Exact, deterministic and fast significance tests for NLP evaluation.",
        epilog="Errors print one line and exit 1; usage errors print one line and exit 2; --debug shows tracebacks.",
    )
    ap.add_argument("--version", action=_Version, help="show the version and exit")
    ap.add_argument("--debug", action="store_true", help="show tracebacks instead of one-line errors")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    for cmd in COMMANDS:
        chosen = command in (cmd.name, *cmd.aliases)
        if command in ("*", None) or chosen:
            p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description, aliases=list(cmd.aliases))
            if command == "*" or chosen:
                _fill(p, cmd)
    return ap


def _parser() -> argparse.ArgumentParser:
    """Every subcommand's parser, filled in (the vocabulary test walks it)."""
    return build_parser("*")


def _may_name_a_plugin_style(argv: Sequence[str]) -> bool:
    """Whether the command line may need the output styles of other distributions (:mod:`sigfast.styles`,
    whose scan of the installed distributions is left out of every other run): a help, a flag no
    registered style or :data:`FLAGS` owns, or an ``--output`` extension that no registered style picks."""
    from .styles import styles

    known = _FLAG_NAMES | {f"--{s.name}" for s in styles(plugins=False)}
    exts = {e for s in styles(plugins=False) for e in s.extensions}
    for k, a in enumerate(argv):
        if a == "--":
            break
        if a in ("-h", "--help"):
            return True
        if a.startswith("--") and a.split("=", 1)[0] not in known:
            return True
        out = a[len("--output=") :] if a.startswith("--output=") else None
        if a == "--output" and k + 1 < len(argv):
            out = argv[k + 1]
        if out is not None and os.path.splitext(out)[1].lower() not in exts:
            return True
    return False


def _command_of(argv: Sequence[str]) -> str | None:
    for a in argv:
        if a in _BY_NAME:
            return a
        if not a.startswith("-"):
            return None
    return None


def handler(name: str) -> Callable[[argparse.Namespace], int]:
    """The handler of a ``module:function`` name, imported now."""
    import importlib

    module, _, func = name.partition(":")
    return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# main


class Terminated(KeyboardInterrupt):
    """SIGTERM: raised where Ctrl-C's KeyboardInterrupt is, so the same clean-up runs (worker processes
    stop, progress bars close)."""


def _on_sigterm(main_pid: int) -> Callable[[int, Any], None]:
    def on(signum: int, frame: Any) -> None:
        import signal

        if os.getpid() != main_pid:  # a forked worker inherited the handler: end as SIGTERM ends it
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated()

    return on


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 error, 2 usage, 130 interrupted, 143 terminated)."""
    import signal

    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command_of(argv)
    if command is not None and _may_name_a_plugin_style(argv):
        from .styles import load_plugins

        load_plugins()
    args = build_parser(command).parse_args(argv)
    sub = args.__dict__.pop("_parser")
    args._argv = tuple(argv)  # the command line as given (sigfast report's "how to reproduce")
    missing = [flag for dest, flag in _REQUIRED.get(sub, ()) if getattr(args, dest, None) is None]
    if missing:
        sub.error(f"the following arguments are required: {', '.join(missing)}")
    if getattr(args, "mode", None) == "independent" and getattr(args, "backend", "local") != "local":
        sub.error("--mode independent runs its pairs in this process; --backend ray/processes runs --mode shared only")
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm(os.getpid()))
    except ValueError:  # not the main thread: leave SIGTERM alone
        pass
    try:
        return _run(args)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    from . import _cli
    from .exceptions import SigfastError, UsageError

    try:
        with _cli.one_line_warnings():
            return int(handler(args.handler)(args))
    except Terminated:
        print("sigfast: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("sigfast: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python from complaining at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:  # pragma: no cover
            pass
        return 0
    except UsageError as e:  # arguments that do not fit together: a usage error, as argparse's (exit 2)
        if args.debug:
            raise
        prog = f"sigfast {args.command}" if getattr(args, "command", None) else "sigfast"
        print(f"{prog}: error: {_cli.one_line(e)} (see `{prog} --help`)", file=sys.stderr)
        return 2
    except (SigfastError, OSError) as e:
        if args.debug:
            raise
        msg = " ".join(str(e).split("\n"))
        if isinstance(e, OSError) and not isinstance(e, SigfastError):
            msg = f"{e.filename + ': ' if getattr(e, 'filename', None) else ''}{e.strerror or msg}"
        print(f"sigfast: error: {_cli.one_line(msg)}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug: still one line, with the way to the traceback
        if args.debug:
            raise
        print(
            f"sigfast: internal error: {type(e).__name__}: {_cli.one_line(e)}. This is a bug: please report it "
            "with the command (--debug shows the traceback)",
            file=sys.stderr,
        )
        return 1
