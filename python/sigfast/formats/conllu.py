"""CoNLL-U (Universal Dependencies) scored like the CoNLL 2018 shared task.

Format ``"conllu"``: a gold and a system CoNLL-U file, scored with the
semantics of ``conll18_ud_eval.py`` v1.2 (ufal/conll2018,
``evaluation_script/conll18_ud_eval.py``): Tokens, Sentences, Words, UPOS,
XPOS, UFeats, AllTags, Lemmas, UAS, LAS, CLAS, MLAS and BLEX, each as
precision / recall / F1 over words aligned on the characters of the text
without whitespace (multiword tokens aligned by LCS of lower-cased forms
inside their multiword span, empty nodes ignored, FEATS reduced to the
universal features, DEPREL subtypes ignored). Reading and alignment run in
Rust (``sigfast._native.ud_evaluate``).

Options
-------
``table``: ``"verbose"`` (default) — ``ScoreReport.text`` is the scorer's
``--verbose`` table (Metric | Precision | Recall | F1 Score | AligndAcc);
``"counts"`` — its ``--counts`` table; ``"short"`` — its default three lines
(LAS / MLAS / BLEX). ``text`` equals the scorer's stdout byte for byte,
trailing newline included (file paths appear nowhere in that output).

Items and statistics
--------------------
Items are the **gold** sentences, in file order (``item_ids`` are their
``# sent_id`` when every gold sentence has one). For each metric
``stats[name]`` has, per gold sentence, ``[correct, system, gold]`` with
metric ``f1`` (F1 = 2·correct / (system + gold), the scorer's formula).
When the system splits sentences (or tokens) differently from gold:

* a gold word, a correctly scored word and an *aligned* system word count
  for the gold sentence that contains the gold word;
* an unaligned system word, and every system token and system sentence,
  count for the gold sentence containing its first character (every
  character of the text belongs to exactly one gold sentence, since gold and
  system texts are identical).

So summed statistics always give the corpus counts, and a system with the
gold segmentation gets exactly per-sentence counts.

``scores`` holds the unrounded F1 (a fraction, not a percentage) of every
metric, keyed by lower-case names (``"tokens"``, ``"sentences"``,
``"words"``, ``"upos"``, ``"xpos"``, ``"ufeats"``, ``"alltags"``,
``"lemmas"``, ``"uas"``, ``"las"``, ``"clas"``, ``"mlas"``, ``"blex"``),
computed from the summed statistics by :func:`sigfast.metrics.get("f1")`.
The headline metric is ``"las"``.

Errors
------
Where the scorer stops with ``UDError`` (or crashes) — wrong column count,
non-integer IDs or HEADs, HEAD outside the sentence, cycles, not exactly
one root, empty FORM, no final empty line, texts that differ between gold
and system ("text mismatch") — this raises :class:`FormatError` naming the
file, the line and the sentence. It is stricter than the scorer on a few
malformed inputs the scorer reads silently: an empty file, word IDs inside
a multiword token that are not consecutive, an empty multiword range, IDs
or HEADs that are not plain ASCII integers, a carriage return inside a line,
undecodable (non UTF-8) bytes. Gzip-compressed files (``.gz``) are read
transparently.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from ..exceptions import FormatError, InputError
from ._base import (
    FormatSpec,
    ItemStats,
    LazyStats,
    Option,
    Punct,
    ReadmeRow,
    ScoreReport,
    UnitTable,
    display,
    read_file_bytes,
)

__all__ = ["METRICS", "SPECS", "VIEWS", "counts", "score_conllu"]

METRICS = (
    "Tokens",
    "Sentences",
    "Words",
    "UPOS",
    "XPOS",
    "UFeats",
    "AllTags",
    "Lemmas",
    "UAS",
    "LAS",
    "CLAS",
    "MLAS",
    "BLEX",
)
_STAT_NAMES = ("correct", "system", "gold")


#: The last gold file read: ((real path, size, mtime), bytes, name). Scoring N systems against one gold
#: file reads it once, and their reports (which keep the bytes for their units) share one copy.
_LAST_GOLD: list[tuple[tuple[str, int, int], bytes, str]] = []


def _read(path: Any, role: str) -> tuple[bytes, str]:
    if isinstance(path, (bytes, bytearray)):
        return bytes(path), f"<{role} bytes>"
    if role != "gold" or not isinstance(path, (str, os.PathLike)):
        return read_file_bytes(path, role)
    try:
        st = os.stat(path)
    except OSError:
        return read_file_bytes(path, role)
    if not stat.S_ISREG(st.st_mode):
        return read_file_bytes(path, role)
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    if _LAST_GOLD and _LAST_GOLD[0][0] == key and _LAST_GOLD[0][2] == display(path):
        return _LAST_GOLD[0][1], _LAST_GOLD[0][2]
    data, name = read_file_bytes(path, role)
    _LAST_GOLD[:] = [(key, data, name)]
    return data, name


_WIDTH = 4 * len(METRICS)  # per sentence: [correct, system, gold, aligned] of each metric


def _evaluate(gold: Any, system: Any) -> tuple[bytes, list[str | None], tuple[bytes, str, bytes, str]]:
    """Counts (the bytes of a uint64 array, sentences × metrics × 4) and sentence ids, and the bytes read
    (the units come from these, never from a second read)."""
    from .. import _native

    gbytes, gname = _read(gold, "gold")
    sbytes, sname = _read(system, "system")
    counts, ids = _native.ud_evaluate(gbytes, sbytes, gname, sname)
    return counts, ids, (gbytes, gname, sbytes, sname)


def _totals(raw: bytes) -> tuple[int, list[tuple[int, int, int, int]]]:
    """The number of sentences, and each metric's counts summed over them (no numpy)."""
    flat = memoryview(raw).cast("Q")
    col = [sum(flat[j::_WIDTH]) for j in range(_WIDTH)]
    return len(flat) // _WIDTH, [
        (col[4 * k], col[4 * k + 1], col[4 * k + 2], col[4 * k + 3]) for k in range(len(METRICS))
    ]


def _item_stats(raw: bytes) -> dict[str, ItemStats]:
    """Each metric's per-sentence statistics [correct, system, gold]."""
    import numpy as np

    counts = np.frombuffer(raw, np.uint64).reshape(-1, len(METRICS), 4)
    return {
        m.lower(): ItemStats("f1", _STAT_NAMES, np.ascontiguousarray(counts[:, k, :3], dtype=np.float64))
        for k, m in enumerate(METRICS)
    }


def _p(c: int, d: int) -> float:
    return c / d if d else 0.0


def _table(tot: list[tuple[int, int, int, int]], table: str) -> str:
    rows = tot
    if table == "short":
        f1 = {m: (2 * c / (s + g) if s + g else 0.0) for m, (c, s, g, a) in zip(METRICS, rows)}
        return "LAS F1 Score: {:.2f}\nMLAS Score: {:.2f}\nBLEX Score: {:.2f}\n".format(
            100 * f1["LAS"], 100 * f1["MLAS"], 100 * f1["BLEX"]
        )
    out = []
    if table == "counts":
        out.append("Metric     | Correct   |      Gold | Predicted | Aligned")
    else:
        out.append("Metric     | Precision |    Recall |  F1 Score | AligndAcc")
    out.append("-----------+-----------+-----------+-----------+-----------")
    for k, (m, (c, s, g, a)) in enumerate(zip(METRICS, rows)):
        # The scorer has no aligned count for Tokens, Sentences and Words.
        has_aligned = k > 2
        if table == "counts":
            last = a if has_aligned and a else (c if m == "Words" else "")
            out.append(f"{m:11}|{c:10} |{g:10} |{s:10} |{last:10}")
        else:
            acc = "" if not has_aligned else f"{100 * (c / a if a else 0):10.2f}"
            f1 = 2 * c / (s + g) if s + g else 0.0
            out.append(f"{m:11}|{100 * _p(c, s):10.2f} |{100 * _p(c, g):10.2f} |{100 * f1:10.2f} |{acc}")
    return "\n".join(out) + "\n"


def score_conllu(gold: Any, system: Any, *, table: str = "verbose", align: str = "chars") -> ScoreReport:
    """Score a system CoNLL-U file against gold like ``conll18_ud_eval.py`` v1.2.

    ``gold`` and ``system`` are paths (plain or gzip) or raw bytes. See the
    module docstring for items, statistics, units, options and errors.
    """
    from .. import metrics as _metrics

    if table not in ("verbose", "counts", "short"):
        raise InputError(f"conllu: table must be 'verbose', 'counts' or 'short', got {table!r}")
    raw, ids, read = _evaluate(gold, system)
    n, tot = _totals(raw)
    f1 = _metrics.get("f1").score_rows([t[:3] for t in tot], n)
    scores = {m.lower(): v for m, v in zip(METRICS, f1)}
    stats = LazyStats(list(scores), lambda: _item_stats(raw))
    item_ids = tuple(ids) if all(i is not None for i in ids) else None  # type: ignore[arg-type]
    return ScoreReport(
        format="conllu",
        gold=_name(gold),
        system=_name(system),
        text=_table(tot, table),
        scores=scores,
        stats=stats,
        default_metric="las",
        item_ids=item_ids,
        views=VIEWS,
        unit_source=lambda view: _units(read, view, align),
    )


def _units(read: tuple[bytes, str, bytes, str], view: str, align: str) -> UnitTable:
    """One view's units, from the bytes the score was computed from and the same word alignment."""
    import numpy as np

    from .. import _native

    gbytes, gname, sbytes, sname = read
    u = _native.ud_units(gbytes, sbytes, view, gname, sname)
    aligned = np.asarray(u["aligned"])
    if align == "tokens" and ((aligned < 0).any() or u["n_system_words"] != len(aligned)):
        _not_same_words(u, gname, sname)
    gold_labels, sys_labels = u["gold_labels"], u["system_labels"]
    ids = tuple(i or "" for i in u["sent_ids"])
    grouped = view in ("las", "uas")
    return UnitTable(
        view=view,
        gold=np.array(gold_labels, dtype=object),
        system=np.array(sys_labels, dtype=object),
        sentence=np.asarray(u["sentence"], dtype=np.int64),
        forms=tuple(u["forms"]),
        n_sentences=len(ids),
        sentence_ids=ids,
        groups=np.array(u["relation"], dtype=object) if grouped else None,
        group_name="gold relation" if grouped else "gold label",
        note="" if align == "tokens" else "words aligned on characters as conll18_ud_eval.py does",
    )


def _not_same_words(u: dict[str, Any], gname: str, sname: str) -> None:
    import numpy as np

    aligned = np.asarray(u["aligned"])
    hint = "; to compare raw-text outputs, align on characters (align=chars, --align chars)"
    missing = np.flatnonzero(aligned < 0)
    if len(missing):
        i = int(missing[0])
        k = int(u["sentence"][i])
        sid = u["sent_ids"][k]
        where = f"sentence {k + 1}" + (f" ({sid})" if sid else "")
        before = np.flatnonzero(aligned[:i] >= 0)
        line = int(u["system_lines"][before[-1]]) + 1 if len(before) else None
        raise FormatError(
            f"the system file does not have gold word {u['forms'][i]!r} ({where}, gold line {int(u['lines'][i])}): "
            f"it splits the text into other words{hint}",
            path=sname,
            line=line,
        )
    raise FormatError(
        f"the system file has {u['n_system_words']} words, gold ({gname}) has {len(aligned)}{hint}", path=sname
    )


def _name(p: Any) -> str:
    return "<bytes>" if isinstance(p, (bytes, bytearray)) else display(p)


def counts(gold: Any, system: Any) -> dict[str, tuple[int, int, int, int]]:
    """Corpus counts ``(correct, gold, system, aligned)`` per metric, as ``--counts`` prints them."""
    raw, _, _ = _evaluate(gold, system)
    _, tot = _totals(raw)
    return {m: (t[0], t[2], t[1], t[3]) for m, t in zip(METRICS, tot)}


def _is_conllu(head: list[str]) -> bool:
    if any(ln.startswith(("# sent_id", "# text")) for ln in head):
        return True
    cols = [ln.split("\t") for ln in head if ln.strip() and not ln.startswith("#")]
    return bool(cols) and all(len(c) == 10 and c[0].split("-")[0].split(".")[0].isdigit() for c in cols)


VIEWS = ("las", "uas", "deprel", "upos", "xpos", "ufeats", "lemmas")

#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer="`conll18_ud_eval.py` v1.2 (all 13 metrics, word alignment on characters)",
    checked="byte-identical `-v` table on all 25 en_ewt systems",
    speed="see [Speed](#speed)",
)


SPECS = (
    FormatSpec(
        name="conllu",
        readme=README_ROW,
        description="CoNLL-U (Universal Dependencies), all 13 metrics of the CoNLL 2018 shared task",
        reference="conll18_ud_eval.py v1.2",
        score=score_conllu,
        options=(
            Option(
                "table",
                str,
                "verbose",
                "report: --verbose table, --counts table, or the short 3 lines",
                choices=("verbose", "counts", "short"),
            ),
            Option(
                "align",
                str,
                "chars",
                "units: words aligned on characters as the scorer does (chars), or "
                "systems must have exactly the gold words (tokens)",
                choices=("chars", "tokens"),
            ),
        ),
        extensions=(".conllu",),
        views=VIEWS,
        metrics=tuple(m.lower() for m in METRICS[9:10] + METRICS[:9] + METRICS[10:]),
        detect=_is_conllu,
        split_unit="sentence",
        punct=Punct(
            "relation", "gold UD relation punct, the words conll18_ud_eval.py leaves out of CLAS, MLAS and BLEX"
        ),
    ),
)
