"""Test-time builders for dependency-parsing fixtures taken from /work/shared/data.

Third-party data (the UD English-EWT gold standard and team HIT-SCIR's CoNLL 2018
shared-task output) is not redistributed with this repository; the excerpts the
tests need are rebuilt here from the shared data set at test time.
"""

from __future__ import annotations

import gzip
from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
EN_EWT = SHARED_DATA / "dependency_parsing" / "conll2018_en_ewt"
EN_EWT_GOLD = EN_EWT / "gold" / "en_ewt.conllu.gz"
EN_EWT_HITSCIR = EN_EWT / "systems" / "HIT-SCIR-18" / "en_ewt.conllu.gz"

_N_SENTENCES = 25
_GOLD_WINDOW = 400
_MIN_WORDS = 4


def en_ewt_available() -> bool:
    """True when the shared files that :func:`en_ewt25` reads are present."""
    return EN_EWT_GOLD.is_file() and EN_EWT_HITSCIR.is_file()


def _read_conllu_words(path: Path) -> list[list[list[str]]]:
    """Sentences of ``path`` as lists of syntactic-word rows (10 CoNLL-U fields each).

    Comment lines, multiword-token ranges (``1-2``) and empty nodes (``1.1``) are dropped.
    """
    sentences: list[list[list[str]]] = []
    current: list[list[str]] = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                if current:
                    sentences.append(current)
                    current = []
                continue
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                raise ValueError(f"{path}:{lineno}: expected 10 tab-separated CoNLL-U fields, got {len(cols)}")
            if "-" in cols[0] or "." in cols[0]:
                continue
            current.append(cols)
    if current:
        sentences.append(current)
    return sentences


def _to_conllx(sentence: list[list[str]]) -> str:
    """One sentence in CoNLL-X 10-column form: UPOS as CPOSTAG, XPOS as POSTAG, PHEAD/PDEPREL ``_``."""
    out = []
    for cols in sentence:
        wid, form, lemma, upos, xpos, feats, head, deprel = cols[:8]
        out.append("\t".join((wid, form, lemma, upos, xpos, feats, head, deprel, "_", "_")) + "\n")
    return "".join(out) + "\n"


def en_ewt25(tmp_dir: Path) -> tuple[Path, Path]:
    """Write ``en_ewt25.gold.conllx`` and ``en_ewt25.hitscir.conllx`` into ``tmp_dir``.

    The sentences are the first 25, among the first 400 gold sentences of UD 2.2
    English-EWT test, whose word forms equal those of some sentence of the HIT-SCIR
    output and which have at least 4 words, none containing a space. Each system
    sentence is the first HIT-SCIR sentence with those word forms. Returns
    ``(gold_path, system_path)``.
    """
    gold = _read_conllu_words(EN_EWT_GOLD)
    system = _read_conllu_words(EN_EWT_HITSCIR)
    by_forms: dict[tuple[str, ...], list[list[str]]] = {}
    for sent in system:
        by_forms.setdefault(tuple(c[1] for c in sent), sent)

    picked: list[tuple[list[list[str]], list[list[str]]]] = []
    for sent in gold[:_GOLD_WINDOW]:
        forms = tuple(c[1] for c in sent)
        if len(forms) < _MIN_WORDS or any(" " in f for f in forms):
            continue
        match = by_forms.get(forms)
        if match is None:
            continue
        picked.append((sent, match))
        if len(picked) == _N_SENTENCES:
            break
    if len(picked) != _N_SENTENCES:
        raise RuntimeError(f"only {len(picked)} matching en_ewt sentences found, expected {_N_SENTENCES}")

    tmp_dir = Path(tmp_dir)
    tmp_dir.mkdir(parents=True, exist_ok=True)
    gold_path = tmp_dir / "en_ewt25.gold.conllx"
    sys_path = tmp_dir / "en_ewt25.hitscir.conllx"
    gold_path.write_text("".join(_to_conllx(g) for g, _ in picked), encoding="utf-8", newline="\n")
    sys_path.write_text("".join(_to_conllx(s) for _, s in picked), encoding="utf-8", newline="\n")
    return gold_path, sys_path
