"""CoNLL-2012 coreference: scored as the CoNLL-2012 reference scorer scores it, or with ARCS (Tuggener 2014).

Format ``"conll2012"`` (aliases ``conll12``, ``coref``): a key (gold) file and response (system) files in the
CoNLL-2012 layout: ``#begin document (NAME); part NNN`` … ``#end document``, one token per line, the
coreference in the last column (``(12``, ``12)``, ``(12)``, ``-``, several joined by ``|`` or written
together), a blank line after each sentence.

``measure="scorer"`` (default): MUC, B³, CEAFm, CEAFe and BLANC exactly as ``scorer.pl`` v8.01
(``conll/reference-coreference-scorers``) computes them, LEA (Moosavi & Strube 2016) as its reference
implementation (``coval``) computes it on the scorer's entities, and the CoNLL F1 (the mean of the MUC, B³ and
CEAFe F1). :mod:`sigfast.formats._corefscorer` reads the files as the scorer does and prints its report;
``src/coref.rs`` computes each document's statistics. Items are the scorer's documents (every part is one),
in key order (``item_ids`` their names); ``stats`` holds, for each metric of the registry (``conll_f1``, the
headline, ``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``blanc``, ``lea``), each document's recall and precision
numerators and denominators (BLANC: those of the coreference links, then of the non-coreference links), whose
sums are the scorer's corpus numbers. Options: ``report`` (``all`` or one metric, as the scorer's metric
argument), ``per_document`` (every document, as the scorer without a name argument), ``document`` (one
document, as its name argument), ``singletons`` (``remove``: one-mention entities dropped from key and
response first, as coval's ``remove_singletons``), ``items`` (``document``: the parts of one document summed into one
item, ``item_ids`` the document names; sums, scores and the report unchanged).

``measure="arcs"``: mentions classed by their antecedents (Tuggener 2014), as below. Its reader needs at least
6 columns (the word form in column 4, the POS in column 5), the lines of one sentence the same number, and
responses holding the key's documents, in order, with the same words (else
:class:`~sigfast.exceptions.FormatError`).

Mentions are ordered by (sentence, first word, last word). A mention is *nominal* if it spans
several words or its POS is a noun tag (``NN``, ``NNS``, ``NNP``, ``NNPS``); a mention is
*anaphoric* in a partition if an earlier mention of its chain exists (singletons never are).
Every key mention anaphoric in the key is classed for a response: ``FN`` if the response does
not have it or has it first in its chain; otherwise, with ``criterion="any"``, ``TP`` if any of
its response antecedents is one of its key antecedents, else ``WL`` (wrong linkage); with
``criterion="nominal"`` (closest nominal antecedent) key chains without a nominal mention and
key mentions without a nominal key antecedent are left out, and a mention is ``TP`` if its
*closest* nominal response antecedent is one of its key antecedents, ``WL`` if it is not,
``FN`` if the response gives it none. A response mention anaphoric in the response (under
``"nominal"``: with a nominal response antecedent) but not in the key is ``FP``.

ARCS statistics (items = documents, in key order): ``f1``, ``precision`` and ``recall`` with
``[TP, TP + WL + FP, TP + WL + FN]`` (ARCS: precision TP / (TP + WL + FP), recall TP / (TP + WL + FN);
a wrong linkage is an error of both), and ``accuracy`` ``[TP, TP + WL]`` (ARCS' resolution accuracy).
There is no reference scorer to reproduce: ``ScoreReport.text`` is sigfast's summary (the counts, then P,
R, F1 and accuracy in percent with two decimals). :mod:`sigfast.analysis.coref` builds the diff (Tuggener
2017, Table 8) and the recall upper bound (Table 11) on the same classification, whatever ``measure``.

Option ``cluster="doc"`` (both measures): the parts of one document (``(NAME); part NNN`` share ``NAME``)
form one cluster, which the tests draw or swap as a whole (``Statistics.provenance["clusters"]``, see
:mod:`sigfast.clusters`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from ..metrics import get as _get_metric
from ._base import FormatSpec, ItemStats, Option, Punct, ReadmeRow, ScoreReport, read_text, shorten, split_lines

__all__ = [
    "CLASSES",
    "NOUN_TAGS",
    "PRONOUN_TAGS",
    "SPECS",
    "CorefDoc",
    "check_docs",
    "classify_mentions",
    "is_nominal",
    "read_conll2012",
    "score_conll2012",
]

NOUN_TAGS = ("NN", "NNS", "NNP", "NNPS")
PRONOUN_TAGS = ("PRP", "PRP$")
CLASSES = ("TP", "WL", "FN", "FP", "TN")
CRITERIA = ("any", "nominal")

Mention = tuple[int, int, int]  # (sentence, first word, last word) inside a document

_COREF = re.compile(r"(\()?(\d+)(\))?")


@dataclass
class CorefDoc:
    """One document as read: its name, first line, sentences of (form, POS) and chains of mentions."""

    name: str
    line: int
    words: list[list[tuple[str, str]]]
    chains: dict[str, list[Mention]]


def read_conll2012(path: Any, role: str = "key") -> tuple[list[CorefDoc], str]:
    """The documents of a CoNLL-2012 file (see the module docstring) and the file's display name."""
    text, name = read_text(path, role)
    if not text.strip():
        raise FormatError(f"the {role} file is empty", path=name)
    docs: list[CorefDoc] = []
    cur: CorefDoc | None = None
    sent: list[tuple[str, str]] = []
    width = 0  # columns of the current sentence's lines
    opened: dict[str, list[tuple[int, int]]] = defaultdict(list)

    def close_sentence() -> None:
        nonlocal sent, width
        if sent and cur is not None:
            cur.words.append(sent)
        sent = []
        width = 0

    for ln_no, raw in enumerate(split_lines(text), 1):
        ln = raw.rstrip("\r")
        if ln.startswith("#begin document"):
            if cur is not None:
                raise FormatError(
                    "'#begin document' inside a document (missing '#end document')", path=name, line=ln_no
                )
            m = re.match(r"#begin document\s*(.*)$", ln)
            cur = CorefDoc(name=m.group(1).strip() if m else "", line=ln_no, words=[], chains=defaultdict(list))
            opened.clear()
            continue
        if ln.startswith("#end document"):
            if cur is None:
                raise FormatError("'#end document' without '#begin document'", path=name, line=ln_no)
            close_sentence()
            left = [k for k, v in opened.items() if v]
            if left:
                raise FormatError(
                    f"document {cur.name}: mention(s) of chain {left[0]} opened but never closed", path=name, line=ln_no
                )
            cur.chains = {k: sorted(v) for k, v in cur.chains.items()}
            docs.append(cur)
            cur = None
            continue
        if ln.startswith("#"):
            continue
        if not ln.strip():
            close_sentence()
            continue
        if cur is None:
            raise FormatError("a token line outside '#begin document' … '#end document'", path=name, line=ln_no)
        cols = ln.split()
        if len(cols) < 6:
            raise FormatError(
                f"CoNLL-2012 line has {len(cols)} columns; need at least 6 (document, part, word number, word, "
                "POS, …, coreference last)",
                path=name,
                line=ln_no,
            )
        if width and len(cols) != width:
            raise FormatError(
                f"{len(cols)} columns, but the sentence's earlier lines have {width}; every line of a sentence "
                "needs the same columns (a missing column?)",
                path=name,
                line=ln_no,
            )
        width = len(cols)
        s, w = len(cur.words), len(sent)
        sent.append((cols[3], cols[4]))
        coref = cols[-1]
        if coref in ("-", "_"):
            continue
        for part in coref.split("|"):
            m = _COREF.fullmatch(part)
            if not m or not (m.group(1) or m.group(3)):
                raise FormatError(
                    f"bad coreference field {shorten(coref)} (expected e.g. '(3', '3)', '(3)', '-')",
                    path=name,
                    line=ln_no,
                )
            cid = m.group(2)
            if m.group(1) and m.group(3):
                cur.chains[cid].append((s, w, w))
            elif m.group(1):
                opened[cid].append((s, w))
            else:
                if not opened[cid]:
                    raise FormatError(f"chain {cid} closed here but not opened", path=name, line=ln_no)
                s0, w0 = opened[cid].pop()
                if s0 != s:
                    raise FormatError(f"a mention of chain {cid} crosses a sentence boundary", path=name, line=ln_no)
                cur.chains[cid].append((s, w0, w))
    if cur is not None:
        raise FormatError(f"document {cur.name} has no '#end document'", path=name)
    if not docs:
        raise FormatError(f"the {role} file has no documents", path=name)
    return docs, name


def check_docs(key: list[CorefDoc], kname: str, res: list[CorefDoc], rname: str) -> None:
    """A response must hold the key's documents, in order, with the same words."""
    if [d.name for d in key] != [d.name for d in res]:
        kn, rn = [d.name for d in key], [d.name for d in res]
        i = next((i for i, (a, b) in enumerate(zip(kn, rn)) if a != b), min(len(kn), len(rn)))
        raise FormatError(
            f"document {i + 1} is {rn[i] if i < len(rn) else '(none)'!r} in the response but "
            f"{kn[i] if i < len(kn) else '(none)'!r} in the key ({kname}); responses must hold "
            "the key's documents in order",
            path=rname,
        )
    for kd, rd in zip(key, res):
        kf = [[f for f, _ in s] for s in kd.words]
        rf = [[f for f, _ in s] for s in rd.words]
        if kf != rf:
            i = next((i for i, (a, b) in enumerate(zip(kf, rf)) if a != b), min(len(kf), len(rf)))
            raise FormatError(
                f"document {kd.name}, sentence {i + 1}: words differ from the key ({kname}); "
                "responses must have the key's words",
                path=rname,
                line=rd.line,
            )


def is_nominal(doc: CorefDoc, m: Mention, noun_tags: tuple[str, ...] = NOUN_TAGS) -> bool:
    """Several words, or one word with a noun tag."""
    s, a, b = m
    return b > a or doc.words[s][a][1] in noun_tags


def classify_mentions(
    key_doc: CorefDoc, res_doc: CorefDoc, criterion: str = "any", noun_tags: tuple[str, ...] = NOUN_TAGS
) -> dict[Mention, str]:
    """Class of every classed mention of one document (see the module docstring): TP/WL/FN for key
    mentions, FP for response-only anaphoric mentions."""
    if criterion not in CRITERIA:
        raise InputError(f"criterion must be 'any' or 'nominal', not {criterion!r}")
    nominal = criterion == "nominal"
    res_chain: dict[Mention, list[Mention]] = {}
    for ch in res_doc.chains.values():
        for m in ch:
            res_chain[m] = ch
    key_chain: dict[Mention, list[Mention]] = {}
    for ch in key_doc.chains.values():
        for m in ch:
            key_chain[m] = ch
    out: dict[Mention, str] = {}
    for ch in key_doc.chains.values():
        if len(ch) < 2:
            continue
        if nominal and not any(is_nominal(key_doc, m, noun_tags) for m in ch):
            continue
        for i, m in enumerate(ch[1:], 1):
            kante = ch[:i]
            if nominal and not any(is_nominal(key_doc, a, noun_tags) for a in kante):
                continue
            rc = res_chain.get(m)
            if rc is None or rc.index(m) == 0:
                out[m] = "FN"
                continue
            rante = rc[: rc.index(m)]
            if not nominal:
                out[m] = "TP" if any(a in kante for a in rante) else "WL"
            else:
                noms = [a for a in rante if is_nominal(res_doc, a, noun_tags)]
                out[m] = "FN" if not noms else ("TP" if noms[-1] in kante else "WL")
    for ch in res_doc.chains.values():
        for i, m in enumerate(ch[1:], 1):
            if nominal and not any(is_nominal(res_doc, a, noun_tags) for a in ch[:i]):
                continue
            kc = key_chain.get(m)
            if kc is None or kc.index(m) == 0:
                out[m] = "FP"
    return out


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.2f}" if b else "0.00"


def document_name(part_name: str) -> str:
    """The document of a CoNLL-2012 part: ``NAME`` of ``(NAME); part NNN`` (the whole name otherwise)."""
    m = _PART.fullmatch(part_name.strip())
    return m.group(1) if m else part_name


_PART = re.compile(r"\((.*)\);\s*part\s+\d+")


#: the registry metrics of ``measure="scorer"`` (the headline first) and their statistics' columns
SCORER_STATS = {
    "conll_f1": (4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19),
    "muc": (4, 5, 6, 7),
    "bcub": (8, 9, 10, 11),
    "ceafm": (12, 13, 14, 15),
    "ceafe": (16, 17, 18, 19),
    "blanc": tuple(range(20, 28)),
    "lea": (28, 29, 30, 31),
}
MEASURES = ("scorer", "arcs")
ITEMS = ("part", "document")
SINGLETONS = ("keep", "remove")


def score_scorer(
    gold: Any,
    system: Any,
    *,
    report: str = "all",
    per_document: bool = False,
    document: str | None = None,
    singletons: str = "keep",
    items: str = "part",
    cluster: str | None = None,
) -> ScoreReport:
    """MUC, B³, CEAFm, CEAFe, BLANC, LEA and the CoNLL F1 per document, and scorer.pl's report."""
    from . import _corefscorer as cs

    if report not in cs.REPORTS:
        raise InputError(f"report must be one of {', '.join(cs.REPORTS)}, not {report!r}")
    if singletons not in SINGLETONS:
        raise InputError(f"singletons must be 'keep' or 'remove', not {singletons!r}")
    if items not in ITEMS:
        raise InputError(f"items must be 'part' or 'document', not {items!r}")
    if items == "document" and cluster == "doc":
        raise InputError(
            "items=document already makes each document one item; cluster=doc (parts as items, drawn together) is "
            "the other way: give one of them"
        )
    sc = cs.score_documents(gold, system, document=document, singletons=singletons)
    rows, ids = sc.stats, tuple(d.name for d in sc.key)
    if items == "document":  # the parts of one document summed into one item (the sums are unchanged)
        docs = tuple(dict.fromkeys(document_name(n) for n in ids))
        where = {d: i for i, d in enumerate(docs)}
        rows = np.zeros((len(docs), sc.stats.shape[1]))
        for part, row in zip(ids, sc.stats):
            rows[where[document_name(part)]] += row
        ids = docs
    stats: dict[str, ItemStats] = {}
    for m, cols in SCORER_STATS.items():
        metric = _get_metric(m)
        stats[m] = ItemStats(m, tuple(metric.stat_names), rows[:, cols].copy(), counts=metric.counts)
    n = len(ids)
    scores = {}
    for m, cols in SCORER_STATS.items():  # from the scorer's documents (parts), as the report
        tot = np.asarray([cs.corpus_sums(sc.stats[:, cols])], dtype=np.float64)
        scores[m] = float(_get_metric(m).evaluate(tot, n)[0])
    if cluster == "doc" and items == "part":
        extra = {"clusters": tuple(document_name(n) for n in ids), "cluster_field": "doc"}
        stats = {k: replace(st, extra=extra) for k, st in stats.items()}
    text = cs.report_text(sc, report, per_document=per_document, single=document is not None)
    return ScoreReport(
        format="conll2012",
        gold=sc.key_name,
        system=sc.response_name,
        text=text,
        scores=scores,
        stats=stats,
        default_metric="conll_f1",
        item_ids=ids,
    )


def score_conll2012(
    gold: Any,
    system: Any,
    *,
    measure: str = "scorer",
    report: str = "all",
    per_document: bool = False,
    document: str | None = None,
    singletons: str = "keep",
    items: str = "part",
    criterion: str = "any",
    cluster: str | None = None,
) -> ScoreReport:
    """One response against the key, per document: as scorer.pl scores it (``measure="scorer"``) or ARCS
    (``measure="arcs"``; see the module docstring)."""
    if measure not in MEASURES:
        raise InputError(f"measure must be 'scorer' or 'arcs', not {measure!r}")
    if cluster not in (None, "doc"):
        raise InputError(f"cluster must be 'doc' (the parts of one document), not {cluster!r}")
    scorer_only = {"report": report != "all", "per_document": per_document, "document": document is not None}
    scorer_only |= {"singletons": singletons != "keep", "items": items != "part"}
    given = [k for k, v in scorer_only.items() if v]
    if measure == "arcs" and given:
        raise InputError(f"option {given[0]} applies to measure=scorer (scorer.pl's metrics), not to measure=arcs")
    if measure == "scorer" and criterion != "any":
        raise InputError("option criterion applies to measure=arcs (ARCS), not to measure=scorer")
    if measure == "scorer":
        return score_scorer(
            gold,
            system,
            report=report,
            per_document=per_document,
            document=document,
            singletons=singletons,
            items=items,
            cluster=cluster,
        )
    return score_arcs(gold, system, criterion=criterion, cluster=cluster)


def score_arcs(gold: Any, system: Any, *, criterion: str = "any", cluster: str | None = None) -> ScoreReport:
    """ARCS counts and scores of one response against the key, per document (see the module docstring)."""
    if criterion not in CRITERIA:
        raise InputError(f"criterion must be 'any' or 'nominal', not {criterion!r}")
    if cluster not in (None, "doc"):
        raise InputError(f"cluster must be 'doc' (the parts of one document), not {cluster!r}")
    kd, kn = read_conll2012(gold, "key")
    rd, rn = read_conll2012(system, "response")
    check_docs(kd, kn, rd, rn)
    rows = []
    for k, r in zip(kd, rd):
        c = Counter(classify_mentions(k, r, criterion).values())
        rows.append((c["TP"], c["WL"], c["FN"], c["FP"]))
    v = np.asarray(rows, dtype=np.float64).reshape(-1, 4)
    tp, wl, fn, fp = v[:, 0], v[:, 1], v[:, 2], v[:, 3]
    prf = np.column_stack([tp, tp + wl + fp, tp + wl + fn])
    stats = {
        "f1": ItemStats("f1", ("tp", "guessed", "gold"), prf),
        "precision": ItemStats("precision", ("tp", "guessed", "gold"), prf.copy()),
        "recall": ItemStats("recall", ("tp", "guessed", "gold"), prf.copy()),
        "accuracy": ItemStats("accuracy", ("correct", "total"), np.column_stack([tp, tp + wl])),
    }
    n = len(rows)
    scores = {
        k: float(_get_metric(st.metric).evaluate(st.values.sum(0, keepdims=True), n)[0]) for k, st in stats.items()
    }
    if cluster == "doc":  # the parts of one document resampled together
        extra = {"clusters": tuple(document_name(d.name) for d in kd), "cluster_field": "doc"}
        stats = {k: replace(st, extra=extra) for k, st in stats.items()}
    t = [int(x) for x in v.sum(0)]
    text = (
        f"ARCS ({criterion} antecedent), {n} document(s): TP {t[0]}  WL {t[1]}  FN {t[2]}  FP {t[3]}\n"
        f"precision: {_pct(t[0], t[0] + t[1] + t[3])}%; recall: {_pct(t[0], t[0] + t[1] + t[2])}%; "
        f"F1: {100 * scores['f1']:.2f}; accuracy: {_pct(t[0], t[0] + t[1])}%\n"
    )
    return ScoreReport(
        format="conll2012",
        gold=kn,
        system=rn,
        text=text,
        scores=scores,
        stats=stats,
        default_metric="f1",
        item_ids=tuple(d.name for d in kd),
    )


def _is_conll2012(head: list[str]) -> bool:
    return any(re.match(r"#\s*begin document", ln) for ln in head)


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer=(
        "`scorer.pl` v8.01 (MUC, B³, CEAFm, CEAFe, BLANC; `all`, one metric, per document, one named document) "
        "and LEA as coval, with the CoNLL F1 (see [Coreference](#coreference)); ARCS (Tuggener 2014) with "
        "`-o measure=arcs`, and `diff` and `oracle` give Tuggener 2017's tables; `-o cluster=doc` resamples the "
        "parts of one document together"
    ),
    checked=(
        "byte-identical reports on 14 key/response pairs (hand-made and OntoGUM); LEA per document equal to "
        "coval's; ARCS: hand counts"
    ),
    speed="see [Coreference](#coreference)",
)


SPECS = (
    FormatSpec(
        name="conll2012",
        readme=README_ROW,
        description="CoNLL-2012 coreference: MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA and the CoNLL F1 as scorer.pl "
        "v8.01 scores them (or ARCS: -o measure=arcs)",
        reference="scorer.pl v8.01 (conll/reference-coreference-scorers); LEA as coval; ARCS (Tuggener 2014) as "
        "sigfast computes it",
        score=score_conll2012,
        options=(
            Option(
                "measure",
                str,
                "scorer",
                "scorer: the reference scorer's metrics and report; arcs: Tuggener's ARCS (mentions classed by "
                "their antecedents; what diff and oracle show)",
                choices=MEASURES,
            ),
            Option(
                "report",
                str,
                "all",
                "what the report prints, as scorer.pl's metric argument (all: its five metrics; lea in the same "
                "layout); every metric's statistics are computed either way",
                choices=("all", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea"),
            ),
            Option(
                "per_document",
                bool,
                False,
                "print every document's entities and scores, as scorer.pl without a name argument (documents in "
                "key order); default: the totals, as its name argument 'none'",
            ),
            Option(
                "document",
                str,
                None,
                "score this document (part) only, as scorer.pl's name argument, e.g. '(wsj_0001); part 000'",
                nullable=True,
            ),
            Option(
                "singletons",
                str,
                "keep",
                "keep: score one-mention entities as scorer.pl does; remove: drop them from key and response first "
                "(coval's remove_singletons)",
                choices=SINGLETONS,
            ),
            Option(
                "items",
                str,
                "part",
                "the items the tests resample: part (each '#begin document' block, as scorer.pl scores them) or "
                "document (the parts of one document summed into one item; see also cluster=doc)",
                choices=ITEMS,
            ),
            Option(
                "criterion",
                str,
                "any",
                "measure=arcs: antecedent criterion: any key antecedent, or the closest nominal one (Tuggener 2017)",
                choices=CRITERIA,
            ),
            Option(
                "cluster",
                str,
                None,
                "doc: the parts ('(NAME); part NNN') of one document form a cluster, drawn or swapped together by "
                "the tests (Statistics.provenance['clusters'])",
                choices=("doc",),
                nullable=True,
            ),
        ),
        aliases=("conll12", "coref"),
        extensions=(".conll2012",),
        metrics=(*SCORER_STATS, "f1", "precision", "recall", "accuracy"),
        detect=_is_conll2012,
        split_unit=None,
        punct=Punct("refuse", "coreference mentions are not judged by punctuation"),
    ),
)
