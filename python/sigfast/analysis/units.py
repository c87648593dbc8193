"""Reading the units that the analyses compare.

A *unit* is one thing every system labels: a syntactic word (POS tag, head,
dependency label), a token's BIO tag, or a labeled span. :class:`Units`
holds, for every unit, the gold label and each system's label, all as
strings, in one table, so that the analyses (:mod:`.diff`, :mod:`.oracle`,
:mod:`.agreement`) never see files.

Readers
-------
``conllu`` (CoNLL-U, also CoNLL-X / CoNLL-2006 10-column files): units are
syntactic words (multiword-token range lines ``3-4`` and empty nodes ``3.1``
are skipped, as in UD scoring). Views:

* ``upos`` / ``xpos`` — column 4 / 5;
* ``deprel`` — column 8 (subtypes ``nmod:poss`` → ``nmod`` unless
  ``subtypes=True``, as conll18_ud_eval.py does);
* ``uas`` (alias ``head``) — the attachment: the label is the head's offset
  from the word (``-1``, ``+3``) or ``root``; correct iff it is the gold
  head;
* ``las`` — head and label, shown as ``nmod(-1)``; correct iff both are.

``bio`` (CoNLL-2000/2003 columns, blank line between sentences,
``-DOCSTART-`` lines skipped): one tag column (``column``, default the
last). Views: ``tags`` — one unit per token, the BIO tag; ``spans`` — one
unit per span found in gold or in any system (``(sentence, first token,
last token)``, conlleval chunking, IOB1/IOB2/BIOES all read); its label is
the span's type where a source has that exact span and ``O`` where it has
not. Accuracy over span units is therefore not F1; the diff, the transitions
and the oracle *recall* (over gold spans) are what it is for.

``ptb`` (Penn Treebank bracketed trees, one or more lines each, ``(ROOT
…)`` or ``( …)`` wrappers allowed). Views: ``pos`` — one unit per word,
the pre-terminal tag; ``brackets`` — one unit per constituent span found
in gold or any system, labeled like EVALB with COLLINS.prm: function tags
stripped (``NP-SBJ-1`` → ``NP``), ``PRT`` read as ``ADVP``, traces
(``-NONE-``) and punctuation (``, : `` '' .``) removed from the words that
spans are counted over, pre-terminals and the root bracket (``ROOT``,
``TOP``, the unlabeled wrapper) not units. Where several brackets share a
span (a unary chain) the unit's label is the chain, top-down (``S/VP``);
where a source has no bracket over the span its label is ``O``. As for
``spans``, the oracle counts gold brackets only (oracle recall).

Alignment
---------
``align="strict"`` (default): every system must have exactly the gold
sentences and the gold word forms, in order; otherwise :class:`FormatError`
names the file, its line, the sentence and the first differing word. (Only
forms are compared, never tags.)

``align="chars"`` (CoNLL-U only; for raw-text systems such as the CoNLL
2018 shared task): gold and system words are aligned by their character
span in the text with whitespace removed, as ``conll18_ud_eval.py`` does:
outside multiword tokens a word aligns iff its span is identical; inside a
region covered by multiword tokens words align by the longest common
subsequence of their lower-cased forms. Texts that differ raise
:class:`FormatError`. Units are still the gold words; a gold word with no
aligned system word gets the label ``∅`` (:data:`MISSING`) for that system,
which counts as wrong and as a missing value for Krippendorff's α; a system
head that is not aligned shows as ``?``. Accuracy over gold words is then the
*recall* of conll18's UPOS/UAS/LAS (correct / gold words); it equals its F1
when the segmentation is the gold one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError

__all__ = ["MISSING", "VIEWS", "Units", "detect_format", "read_units", "units_from_labels"]

MISSING = "∅"
VIEWS = {
    "conllu": ("upos", "xpos", "deprel", "uas", "head", "las"),
    "bio": ("tags", "spans"),
    "ptb": ("brackets", "pos"),
}


@dataclass(frozen=True)
class Units:
    """Gold and system labels of the same units.

    ``gold`` has one label per unit; ``systems[k]`` likewise for system
    ``names[k]``. ``sentence`` gives each unit's sentence (0-based, gold
    order), ``forms`` its text (a word, or the words of a span) for display;
    ``sentence_ids`` the sentences' ids where the file has them.
    ``gold_present`` is False for span units that only a system proposed.
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
    align: str = "strict"
    groups: np.ndarray | None = None
    group_name: str = "gold label"

    @property
    def n_units(self) -> int:
        return len(self.gold)

    def correct(self, k: int) -> np.ndarray:
        return self.systems[k] == self.gold

    def system(self, name: str) -> np.ndarray:
        return self.systems[self.names.index(name)]

    def sentence_label(self, s: int) -> str:
        if self.sentence_ids and s < len(self.sentence_ids) and self.sentence_ids[s]:
            return self.sentence_ids[s]
        return f"#{s + 1}"


def units_from_labels(
    gold: Sequence[Sequence[str]] | Sequence[str],
    systems: Sequence[Sequence[Sequence[str]] | Sequence[str]],
    names: Sequence[str] | None = None,
    *,
    view: str = "labels",
    forms: Sequence[Sequence[str]] | None = None,
) -> Units:
    """Build :class:`Units` from Python lists.

    ``gold`` is a list of sentences (lists of labels) or one flat list (one
    sentence); each system likewise, with exactly the same shape (else
    :class:`InputError`). ``None`` in a system stands for a missing label.
    """

    def nested(x: Any) -> list[list[Any]]:
        x = list(x)
        if x and all(isinstance(v, (str, type(None))) for v in x):
            return [x]
        return [list(s) for s in x]

    g = nested(gold)
    names = tuple(names) if names is not None else tuple(f"S{i + 1}" for i in range(len(systems)))
    if len(names) != len(systems):
        raise InputError(f"{len(names)} names for {len(systems)} systems")
    if len(set(names)) != len(names):
        raise InputError(f"system names must be distinct: {list(names)}")
    syss = []
    for name, s in zip(names, systems):
        s = nested(s)
        if len(s) != len(g):
            raise InputError(f"system {name!r} has {len(s)} sentences, gold has {len(g)}")
        for i, (a, b) in enumerate(zip(g, s)):
            if len(a) != len(b):
                raise InputError(f"system {name!r}, sentence {i + 1}: {len(b)} labels, gold has {len(a)}")
        syss.append(np.array([MISSING if v is None else str(v) for sent in s for v in sent], dtype=object))
    flat_g = [str(v) for sent in g for v in sent]
    if any(v is None for sent in g for v in sent):
        raise InputError("gold labels cannot be None")
    sent = np.repeat(np.arange(len(g)), [len(s) for s in g])
    if forms is not None:
        f = nested(forms)
        fl = tuple(str(v) for s in f for v in s)
        if len(fl) != len(flat_g):
            raise InputError("forms must have the shape of gold")
    else:
        fl = tuple("" for _ in flat_g)
    return Units(
        view=view,
        names=names,
        gold=np.array(flat_g, dtype=object),
        systems=tuple(syss),
        sentence=sent,
        forms=fl,
        n_sentences=len(g),
    )


# --------------------------------------------------------------------------- files


def _read_text(path: Any, role: str) -> tuple[list[str], str]:
    from ..formats._base import read_file_bytes

    data, name = read_file_bytes(path, role)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FormatError(
            f"the {role} file is not valid UTF-8 (byte {e.start}); convert it to UTF-8", path=name, line=line
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise FormatError(f"the {role} file is empty", path=name)
    return text.split("\n"), name


def detect_format(path: Any) -> str:
    """``"ptb"`` if the first data line starts with ``(``; ``"conllu"`` if it has 10 tab-separated
    columns and an integer ID; else ``"bio"``."""
    lines, _ = _read_text(path, "input")
    for ln in lines:
        if not ln.strip() or ln.startswith("#") or ln.startswith("-DOCSTART-"):
            continue
        if ln.lstrip().startswith("("):
            return "ptb"
        cols = ln.rstrip("\r").split("\t")
        if len(cols) == 10 and re.fullmatch(r"\d+(-\d+|\.\d+)?", cols[0]):
            return "conllu"
        return "bio"
    return "bio"


@dataclass
class _Word:
    form: str
    upos: str
    xpos: str
    head: int  # sentence-relative, 0 = root
    deprel: str
    sent: int
    index: int  # global word index
    line: int
    start: int = 0  # char span in the whitespace-free text
    end: int = 0
    multi: bool = False


@dataclass
class _Doc:
    path: str
    words: list[_Word]
    sent_first: list[int]  # global index of each sentence's first word
    sent_line: list[int]
    sent_ids: list[str]
    text: str = ""


def _read_conllu(path: Any, role: str) -> _Doc:
    lines, name = _read_text(path, role)
    words: list[_Word] = []
    sent_first: list[int] = []
    sent_line: list[int] = []
    sent_ids: list[str] = []
    chars: list[str] = []
    cur_id: str = ""
    in_sent = False
    mwt_end = 0
    mwt_span = (0, 0)
    pos = 0
    wid = 0
    for ln_no, raw in enumerate(lines, 1):
        ln = raw.rstrip("\r")
        if not ln.strip():
            if in_sent:
                in_sent = False
                cur_id = ""
            continue
        if ln.startswith("#"):
            m = re.match(r"#\s*sent_id\s*=\s*(.*)", ln)
            if m:
                cur_id = m.group(1).strip()
            continue
        cols = ln.split("\t")
        if len(cols) != 10:
            raise FormatError(
                f"{role} CoNLL-U line has {len(cols)} tab-separated columns, expected 10 "
                "(is this a CoNLL-U / CoNLL-X file? use --format bio for CoNLL-2003 columns)",
                path=name,
                line=ln_no,
            )
        if not in_sent:
            in_sent = True
            sent_first.append(len(words))
            sent_line.append(ln_no)
            sent_ids.append(cur_id)
            wid = 0
            mwt_end = 0
        tid = cols[0]
        if "." in tid:
            continue  # empty node
        if "-" in tid:
            try:
                a, b = (int(x) for x in tid.split("-"))
            except ValueError:
                raise FormatError(f"bad multiword token ID {tid!r}", path=name, line=ln_no) from None
            form = cols[1].replace(" ", "")
            mwt_span = (pos, pos + len(form))
            chars.append(form)
            pos += len(form)
            mwt_end = b
            continue
        try:
            i = int(tid)
        except ValueError:
            raise FormatError(f"word ID {tid!r} is not an integer", path=name, line=ln_no) from None
        if i != wid + 1:
            raise FormatError(f"word IDs are not consecutive: {tid!r} after {wid}", path=name, line=ln_no)
        wid = i
        try:
            head = int(cols[6]) if cols[6] != "_" else -1
        except ValueError:
            raise FormatError(f"HEAD {cols[6]!r} is not an integer", path=name, line=ln_no) from None
        form = cols[1]
        w = _Word(
            form=form,
            upos=cols[3],
            xpos=cols[4],
            head=head,
            deprel=cols[7],
            sent=len(sent_first) - 1,
            index=len(words),
            line=ln_no,
        )
        if i <= mwt_end:
            w.start, w.end, w.multi = mwt_span[0], mwt_span[1], True
        else:
            f = form.replace(" ", "")
            w.start, w.end = pos, pos + len(f)
            chars.append(f)
            pos += len(f)
        words.append(w)
    if not words:
        raise FormatError(f"the {role} file has no words", path=name)
    ends = sent_first[1:] + [len(words)]
    for k, (a, b) in enumerate(zip(sent_first, ends)):
        for w in words[a:b]:
            if w.head > b - a:
                raise FormatError(
                    f"sentence {k + 1}{' (' + sent_ids[k] + ')' if sent_ids[k] else ''}: HEAD "
                    f"{w.head} is beyond the sentence's {b - a} words",
                    path=name,
                    line=w.line,
                )
    return _Doc(
        path=name, words=words, sent_first=sent_first, sent_line=sent_line, sent_ids=sent_ids, text="".join(chars)
    )


def _sent_bounds(doc: _Doc) -> list[tuple[int, int]]:
    ends = doc.sent_first[1:] + [len(doc.words)]
    return list(zip(doc.sent_first, ends))


def _check_same_words(gold: _Doc, sysd: _Doc, hint: str) -> None:
    gb, sb = _sent_bounds(gold), _sent_bounds(sysd)
    for k, ((ga, gz), (sa, sz)) in enumerate(zip(gb, sb)):
        gf = [w.form for w in gold.words[ga:gz]]
        sf = [w.form for w in sysd.words[sa:sz]]
        if gf != sf:
            j = next((j for j, (a, b) in enumerate(zip(gf, sf)) if a != b), min(len(gf), len(sf)))
            line = sysd.words[sa + j].line if sa + j < sz else sysd.sent_line[k]
            gw = repr(gf[j]) if j < len(gf) else "(end of sentence)"
            sw = repr(sf[j]) if j < len(sf) else "(end of sentence)"
            raise FormatError(
                f"sentence {k + 1}{' (' + gold.sent_ids[k] + ')' if gold.sent_ids[k] else ''}: word {j + 1} is {sw} "
                f"in the system file but {gw} in gold ({gold.path}); systems must have the gold "
                f"tokenization{hint}",
                path=sysd.path,
                line=line,
            )
    if len(gb) != len(sb):
        raise FormatError(
            f"the system file has {len(sb)} sentences, gold ({gold.path}) has {len(gb)}; "
            f"systems must have the gold sentences{hint}",
            path=sysd.path,
        )


def _lcs_pairs(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    n, m = len(a), len(b)
    t = np.zeros((n + 1, m + 1), dtype=np.int32)
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            t[i, j] = t[i + 1, j + 1] + 1 if a[i] == b[j] else max(t[i + 1, j], t[i, j + 1])
    out = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append((i, j))
            i += 1
            j += 1
        elif t[i + 1, j] >= t[i, j + 1]:
            i += 1
        else:
            j += 1
    return out


def _align_chars(gold: _Doc, sysd: _Doc) -> np.ndarray:
    """For every gold word, the index of its aligned system word or -1."""
    if gold.text != sysd.text:
        k = next(
            (k for k, (a, b) in enumerate(zip(gold.text, sysd.text)) if a != b), min(len(gold.text), len(sysd.text))
        )
        g = gold.text[max(0, k - 10) : k + 10]
        s = sysd.text[max(0, k - 10) : k + 10]
        raise FormatError(
            f"text mismatch with gold ({gold.path}) at non-whitespace character {k}: "
            f"gold {g!r}, system {s!r}; character alignment needs the same text",
            path=sysd.path,
        )
    G, S = gold.words, sysd.words
    out = np.full(len(G), -1, dtype=np.int64)
    gi = si = 0
    while gi < len(G) and si < len(S):
        g, s = G[gi], S[si]
        if g.multi or s.multi:
            end = max(g.end, s.end)
            gj, sj = gi, si
            while True:
                moved = False
                if gj < len(G) and G[gj].start < end:
                    end = max(end, G[gj].end)
                    gj += 1
                    moved = True
                if sj < len(S) and S[sj].start < end:
                    end = max(end, S[sj].end)
                    sj += 1
                    moved = True
                if not moved:
                    break
            for a, b in _lcs_pairs([w.form.lower() for w in G[gi:gj]], [w.form.lower() for w in S[si:sj]]):
                out[gi + a] = si + b
            gi, si = gj, sj
        elif (g.start, g.end) == (s.start, s.end):
            out[gi] = si
            gi += 1
            si += 1
        elif g.start < s.start or (g.start == s.start and g.end < s.end):
            gi += 1
        else:
            si += 1
    return out


def _strip(rel: str, subtypes: bool) -> str:
    return rel if subtypes else rel.split(":")[0]


def _off(head_global: int | None, dep_global: int, root: bool) -> str:
    if root:
        return "root"
    if head_global is None:
        return "?"
    return f"{head_global - dep_global:+d}"


def _conllu_units(
    gold_path: Any, sys_paths: Sequence[Any], names: Sequence[str], view: str, align: str, subtypes: bool
) -> Units:
    if view == "head":
        view = "uas"
    if view not in VIEWS["conllu"]:
        raise InputError(f"unknown view {view!r} for CoNLL-U; use one of {', '.join(VIEWS['conllu'])}")
    if align not in ("strict", "chars"):
        raise InputError(f"align must be 'strict' or 'chars', not {align!r}")
    gold = _read_conllu(gold_path, "gold")
    G = gold.words

    def glob_head(doc: _Doc, w: _Word) -> int | None:
        return None if w.head <= 0 else doc.sent_first[w.sent] + w.head - 1

    def label(doc: _Doc, w: _Word, mapped_head: int | None, dep_index: int) -> str:
        if view == "upos":
            return w.upos
        if view == "xpos":
            return w.xpos
        rel = _strip(w.deprel, subtypes)
        if view == "deprel":
            return rel
        o = _off(mapped_head, dep_index, w.head == 0)
        return o if view == "uas" else f"{rel}({o})"

    gold_labels = np.array([label(gold, w, glob_head(gold, w), w.index) for w in G], dtype=object)
    systems = []
    hint = "; for raw-text outputs use character alignment (--align chars / align='chars')" if align == "strict" else ""
    for p in sys_paths:
        sd = _read_conllu(p, "system")
        if align == "strict":
            _check_same_words(gold, sd, hint)
            amap = np.arange(len(G))
        else:
            amap = _align_chars(gold, sd)
        inv = np.full(len(sd.words), -1, dtype=np.int64)
        ok = amap >= 0
        inv[amap[ok]] = np.nonzero(ok)[0]
        lab = np.empty(len(G), dtype=object)
        for gi in range(len(G)):
            si = amap[gi]
            if si < 0:
                lab[gi] = MISSING
                continue
            w = sd.words[si]
            h = glob_head(sd, w)
            mh = None if h is None or inv[h] < 0 else int(inv[h])
            lab[gi] = label(sd, w, mh, gi)
        systems.append(lab)
    sent = np.array([w.sent for w in G], dtype=np.int64)
    groups = None
    if view in ("uas", "las"):
        groups = np.array([_strip(w.deprel, subtypes) for w in G], dtype=object)
    return Units(
        view=view,
        names=tuple(names),
        gold=gold_labels,
        systems=tuple(systems),
        sentence=sent,
        forms=tuple(w.form for w in G),
        n_sentences=len(gold.sent_first),
        sentence_ids=tuple(gold.sent_ids),
        align=align,
        groups=groups,
        group_name="gold relation" if groups is not None else "gold label",
    )


# --------------------------------------------------------------------------- BIO columns


@dataclass
class _Bio:
    path: str
    sents: list[list[tuple[str, str, int]]]  # (form, tag, line)


def _read_bio(path: Any, role: str, column: int) -> _Bio:
    lines, name = _read_text(path, role)
    sents: list[list[tuple[str, str, int]]] = []
    cur: list[tuple[str, str, int]] = []
    ncols = None
    for ln_no, raw in enumerate(lines, 1):
        ln = raw.rstrip("\r")
        if not ln.strip():
            if cur:
                sents.append(cur)
                cur = []
            continue
        cols = ln.split("\t") if "\t" in ln else ln.split()
        if cols[0] == "-DOCSTART-":
            continue
        if len(cols) < 2:
            raise FormatError(f"{role} line has {len(cols)} column; need a token and a tag", path=name, line=ln_no)
        if ncols is None:
            ncols = len(cols)
        elif len(cols) != ncols:
            raise FormatError(f"{role} line has {len(cols)} columns, earlier lines have {ncols}", path=name, line=ln_no)
        try:
            tag = cols[column]
        except IndexError:
            raise FormatError(f"no column {column} in a line of {len(cols)} columns", path=name, line=ln_no) from None
        if not re.fullmatch(r"O|[BIES]-\S+|[BIES]", tag):
            raise FormatError(
                f"tag {tag!r} is not a BIO/BIOES tag (O, B-X, I-X, E-X, S-X); choose the tag column with column=",
                path=name,
                line=ln_no,
            )
        cur.append((cols[0], tag, ln_no))
    if cur:
        sents.append(cur)
    if not sents:
        raise FormatError(f"the {role} file has no tokens", path=name)
    return _Bio(path=name, sents=sents)


def _spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """conlleval chunking (IOB1, IOB2, IOE, BIOES all read)."""
    out = []
    start = None
    ptag, ptype = "O", ""
    for i, t in enumerate(tags + ["O"]):
        tag, typ = (t.split("-", 1) + [""])[:2] if t != "O" else ("O", "")
        end_prev = (ptag in ("E", "S")) or (ptag in ("B", "I") and (tag in ("B", "S", "O") or typ != ptype))
        if ptag != "O" and end_prev and start is not None:
            out.append((start, i - 1, ptype))
            start = None
        begins = tag in ("B", "S") or (tag in ("I", "E") and (ptag in ("E", "S", "O") or typ != ptype))
        if tag != "O" and begins:
            start = i
        ptag, ptype = tag, typ
    return out


def _bio_units(gold_path: Any, sys_paths: Sequence[Any], names: Sequence[str], view: str, column: int) -> Units:
    if view not in VIEWS["bio"]:
        raise InputError(f"unknown view {view!r} for BIO columns; use one of {', '.join(VIEWS['bio'])}")
    gold = _read_bio(gold_path, "gold", column)
    syss = [_read_bio(p, "system", column) for p in sys_paths]
    for sd in syss:
        for k, (gs, ss) in enumerate(zip(gold.sents, sd.sents)):
            gf = [t[0] for t in gs]
            sf = [t[0] for t in ss]
            if gf != sf:
                j = next((j for j, (a, b) in enumerate(zip(gf, sf)) if a != b), min(len(gf), len(sf)))
                line = ss[j][2] if j < len(ss) else ss[-1][2]
                raise FormatError(
                    f"sentence {k + 1}: token {j + 1} is {sf[j] if j < len(sf) else '(end of sentence)'!r} in the "
                    f"system file but {gf[j] if j < len(gf) else '(end of sentence)'!r} in gold ({gold.path}); "
                    "systems must have the gold tokens and sentences",
                    path=sd.path,
                    line=line,
                )
        if len(gold.sents) != len(sd.sents):
            raise FormatError(
                f"the system file has {len(sd.sents)} sentences, gold ({gold.path}) has {len(gold.sents)}", path=sd.path
            )
    if view == "tags":
        return Units(
            view="tags",
            names=tuple(names),
            gold=np.array([t[1] for s in gold.sents for t in s], dtype=object),
            systems=tuple(np.array([t[1] for s in sd.sents for t in s], dtype=object) for sd in syss),
            sentence=np.repeat(np.arange(len(gold.sents)), [len(s) for s in gold.sents]),
            forms=tuple(t[0] for s in gold.sents for t in s),
            n_sentences=len(gold.sents),
        )
    gl, sl_all, sent, forms, present = [], [[] for _ in syss], [], [], []
    for k, gs in enumerate(gold.sents):
        gsp = {(a, b): t for a, b, t in _spans([t[1] for t in gs])}
        ssp = [{(a, b): t for a, b, t in _spans([t[1] for t in sd.sents[k]])} for sd in syss]
        keys = sorted(set(gsp).union(*[set(d) for d in ssp]))
        for key in keys:
            gl.append(gsp.get(key, "O"))
            present.append(key in gsp)
            for lst, d in zip(sl_all, ssp):
                lst.append(d.get(key, "O"))
            sent.append(k)
            forms.append(" ".join(t[0] for t in gs[key[0] : key[1] + 1]))
    return Units(
        view="spans",
        names=tuple(names),
        gold=np.array(gl, dtype=object),
        systems=tuple(np.array(x, dtype=object) for x in sl_all),
        sentence=np.array(sent, dtype=np.int64),
        forms=tuple(forms),
        n_sentences=len(gold.sents),
        gold_present=np.array(present, dtype=bool),
    )


# --------------------------------------------------------------------------- Penn trees

_PUNCT = {",", ":", "``", "''", "."}


def _read_trees(path: Any, role: str) -> tuple[list[tuple[int, Any]], str]:
    lines, name = _read_text(path, role)
    text = "\n".join(lines)
    toks = re.finditer(r"\(|\)|[^\s()]+", text)
    trees: list[tuple[int, Any]] = []
    stack: list[list[Any]] = []
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    start_line = 0
    for m in toks:
        t = m.group()
        if t == "(":
            if not stack:
                start_line = line_of(m.start())
            stack.append([])
        elif t == ")":
            if not stack:
                raise FormatError("unbalanced ')' in a tree", path=name, line=line_of(m.start()))
            node = stack.pop()
            if stack:
                stack[-1].append(node)
            else:
                trees.append((start_line, node))
        else:
            if not stack:
                raise FormatError(f"text {t!r} outside a tree", path=name, line=line_of(m.start()))
            stack[-1].append(t)
    if stack:
        raise FormatError("unbalanced '(': the last tree is not closed", path=name, line=start_line)
    if not trees:
        raise FormatError(f"the {role} file has no trees", path=name)
    return trees, name


def _tree_items(node: list[Any], path: str, line: int):
    """(words, tags, brackets) of a parsed tree; brackets are (start, end, label) over kept words."""
    words: list[str] = []
    tags: list[str] = []
    kept = 0
    spans: dict[tuple[int, int], list[str]] = {}

    def label_of(n: list[Any]) -> str:
        return n[0] if n and isinstance(n[0], str) else ""

    def walk(n: list[Any], depth: int) -> tuple[int, int]:
        nonlocal kept
        lab = label_of(n)
        kids = n[1:] if lab else n
        if lab and len(kids) == 1 and isinstance(kids[0], str):  # pre-terminal
            words.append(kids[0])
            tags.append(lab)
            if lab == "-NONE-" or lab in _PUNCT:
                return kept, kept
            kept += 1
            return kept - 1, kept
        if any(isinstance(k, str) for k in kids):
            raise FormatError(
                f"malformed tree: a word directly under a phrase with other children ({lab!r})", path=path, line=line
            )
        a = kept
        for k in kids:
            walk(k, depth + 1)
        b = kept
        if depth > 0 and lab and b > a and lab not in ("ROOT", "TOP"):
            base = re.split(r"(?<=.)[-=]", lab)[0]
            base = "ADVP" if base == "PRT" else base
            spans.setdefault((a, b), []).insert(0, base)  # post-order: outer brackets go first
        return a, b

    walk(node, 0)
    return words, tags, spans


def _ptb_units(gold_path: Any, sys_paths: Sequence[Any], names: Sequence[str], view: str) -> Units:
    if view not in VIEWS["ptb"]:
        raise InputError(f"unknown view {view!r} for Penn trees; use one of {', '.join(VIEWS['ptb'])}")
    gt, gname = _read_trees(gold_path, "gold")
    gitems = [_tree_items(t, gname, ln) for ln, t in gt]
    sitems = []
    for p in sys_paths:
        st, sname = _read_trees(p, "system")
        if len(st) != len(gt):
            raise FormatError(f"the system file has {len(st)} trees, gold ({gname}) has {len(gt)}", path=sname)
        items = []
        for k, ((ln, t), g) in enumerate(zip(st, gitems)):
            it = _tree_items(t, sname, ln)
            if it[0] != g[0]:
                j = next((j for j, (a, b) in enumerate(zip(g[0], it[0])) if a != b), min(len(g[0]), len(it[0])))
                raise FormatError(
                    f"tree {k + 1}: word {j + 1} is "
                    f"{it[0][j] if j < len(it[0]) else '(end of tree)'!r} in the system file but "
                    f"{g[0][j] if j < len(g[0]) else '(end of tree)'!r} in gold ({gname}); "
                    "systems must have the gold words",
                    path=sname,
                    line=ln,
                )
            items.append(it)
        sitems.append(items)
    if view == "pos":
        return Units(
            view="pos",
            names=tuple(names),
            gold=np.array([t for g in gitems for t in g[1]], dtype=object),
            systems=tuple(np.array([t for it in items for t in it[1]], dtype=object) for items in sitems),
            sentence=np.repeat(np.arange(len(gitems)), [len(g[1]) for g in gitems]),
            forms=tuple(w for g in gitems for w in g[0]),
            n_sentences=len(gitems),
        )
    gl, sl_all, sent, forms, present = [], [[] for _ in sitems], [], [], []
    for k, g in enumerate(gitems):
        kept_words = [w for w, t in zip(g[0], g[1]) if t != "-NONE-" and t not in _PUNCT]
        sys_spans = [items[k][2] for items in sitems]
        for key in sorted(set(g[2]).union(*[set(d) for d in sys_spans])):
            gl.append("/".join(g[2][key]) if key in g[2] else "O")
            present.append(key in g[2])
            for lst, d in zip(sl_all, sys_spans):
                lst.append("/".join(d[key]) if key in d else "O")
            sent.append(k)
            forms.append(" ".join(kept_words[key[0] : key[1]]))
    return Units(
        view="brackets",
        names=tuple(names),
        gold=np.array(gl, dtype=object),
        systems=tuple(np.array(x, dtype=object) for x in sl_all),
        sentence=np.array(sent, dtype=np.int64),
        forms=tuple(forms),
        n_sentences=len(gitems),
        gold_present=np.array(present, dtype=bool),
    )


def _default_names(paths: Sequence[Any]) -> list[str]:
    """File stems; where two collide, the parent folder's name (``HIT-SCIR-18/en_ewt``) is used."""
    stems = [Path(str(p)).name for p in paths]
    stems = [re.sub(r"(\.gz)?$", "", s) for s in stems]
    stems = [re.sub(r"\.(conllu|conll|txt|bio|tsv)$", "", s) for s in stems]
    if len(set(stems)) < len(stems):
        stems = [Path(str(p)).parent.name or s for p, s in zip(paths, stems)]
    if len(set(stems)) < len(stems):
        stems = [str(p) for p in paths]
    return stems


def read_units(
    gold: Any,
    systems: Sequence[Any],
    *,
    format: str = "auto",
    view: str | None = None,
    names: Sequence[str] | None = None,
    align: str = "strict",
    subtypes: bool = False,
    column: int = -1,
) -> Units:
    """Read a gold file and system files into :class:`Units`.

    ``format``: ``"conllu"`` (CoNLL-U / CoNLL-X), ``"bio"`` (CoNLL-2003-style
    columns), ``"ptb"`` (Penn trees) or ``"auto"``; ``view`` defaults to
    ``"las"`` for CoNLL-U, ``"tags"`` for BIO and ``"brackets"`` for trees. See the module docstring for ``align``,
    ``subtypes`` and ``column``.
    """
    systems = list(systems)
    if not systems:
        raise InputError("give at least one system file")
    names = list(names) if names is not None else _default_names(systems)
    if len(names) != len(systems):
        raise InputError(f"{len(names)} names for {len(systems)} system files")
    if len(set(names)) != len(names):
        raise InputError(f"system names must be distinct: {names}")
    fmt = detect_format(gold) if format == "auto" else format
    if fmt in ("conllu", "conllx", "conll"):
        return _conllu_units(gold, systems, names, view or "las", align, subtypes)
    if fmt in ("bio", "conll2003", "ner", "chunk"):
        if align != "strict":
            raise InputError("character alignment is only available for CoNLL-U; BIO files must share tokens")
        return _bio_units(gold, systems, names, view or "tags", column)
    if fmt in ("ptb", "penn", "trees", "evalb"):
        if align != "strict":
            raise InputError("character alignment is only available for CoNLL-U; trees must share words")
        return _ptb_units(gold, systems, names, view or "brackets")
    raise InputError(
        f"unknown format {format!r}; use 'conllu', 'bio', 'ptb' or 'auto' (coreference: sigfast.analysis.coref)"
    )
