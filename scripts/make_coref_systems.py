"""Make coreference "systems" from OntoGUM's gold (CoNLL-2012 layout), for tests and benchmarks.

Reads ``../shared/data/coreference/ontogum_conll/ontogum_conll.tar.gz`` (281 documents, one file each, the
document name empty in their ``# begin document`` lines), leaves out the one whose brackets do not pair up
(``MALFORMED``), and writes the other 280, into ``--out``:

- ``key.conll``: the documents in file-name order, each as ``#begin document (NAME); part 000`` (NAME: the
  file name without ``.conll``), tab-separated ``index, token, coreference`` lines, sentences separated by
  blank lines, ``#end document``; the gold coreference unchanged (OntoGUM has no singletons);
- one ``NAME.conll`` per system in ``SYSTEMS``: the same tokens, the coreference column rewritten after
  these errors, drawn per document with ``numpy.random.default_rng([seed, system, document])``:

  1. missed mentions: each gold mention dropped with probability ``miss``;
  2. split entities: each entity of at least 4 mentions split with probability ``split`` at a random
     point of its mention order (the later mentions become a new entity);
  3. merged entities: ``merge`` × (number of entities) random pairs of entities merged;
  4. spurious mentions: ``spurious`` × (gold mentions) new spans of 1–3 tokens inside one sentence that
     are not gold mentions; half join a random entity of the document (a wrong link), half pair up
     into new two-mention entities;
  5. a span the gold gives to two entities (9 documents have one) kept in the first only, since scorer.pl
     refuses responses with more than 10 repeated mentions, and of two crossing mentions of one entity
     (which the bracket notation cannot write) the first only; then singletons removed (OntoNotes-trained
     systems output none): an entity left with one mention is dropped.

The rates of ``SYSTEMS`` (``strong`` misses 25% of the gold mentions, ``weak`` 28%) are chosen so that the
CoNLL F1 on the 280 documents (68.29 and 64.66) lies roughly where OntoNotes-trained systems score on
OntoGUM (the 60s; Zhu, Pradhan & Zeldes 2021). ``--docs N`` keeps the first N documents of a fixed sample
(for the small test files).

Usage: ``python scripts/make_coref_systems.py --out DIR [--docs N] [--seed 34]``.
"""

from __future__ import annotations

import argparse
import re
import tarfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "coreference" / "ontogum_conll" / "ontogum_conll.tar.gz"

#: name -> (miss, split, merge, spurious)
SYSTEMS = {"strong": (0.25, 0.20, 0.08, 0.12), "weak": (0.28, 0.22, 0.09, 0.14)}

#: documents whose brackets do not pair up (scorer.pl dies on them: "Detected the end of a mention ... without
#: begin"), left out
MALFORMED = ("GENTLE_poetry_road",)

#: the documents of the small test files (--docs), a spread of genres, in this order
SAMPLE = (
    "GUM_news_worship",
    "GENTLE_poetry_death",
    "GENTLE_threat_white",
    "GUM_reddit_superman",
    "GUM_letter_marcie3",
    "GUM_news_korea",
    "GENTLE_medical_anemia",
    "GUM_interview_mckenzie",
    "GENTLE_proof_five",
    "GUM_bio_hadid",
    "GUM_voyage_coron",
    "GENTLE_dictionary_next",
)


def read_doc(text: str) -> tuple[list[list[str]], list[tuple[int, int, str]]]:
    """Sentences of tokens and the gold mentions ``(first, last, entity)`` (token numbers in the document)."""
    sents: list[list[str]] = [[]]
    mentions: list[tuple[int, int, str]] = []
    stack: dict[str, list[int]] = {}
    t = 0
    for ln in text.splitlines():
        if ln.startswith("#"):
            continue
        if not ln.strip():
            if sents[-1]:
                sents.append([])
            continue
        cols = ln.split("\t")
        sents[-1].append(cols[1])
        field = cols[-1]
        for e in re.findall(r"\((\d+)\)", field):
            mentions.append((t, t, e))
        field = re.sub(r"\(\d+\)", "", field)
        for e in re.findall(r"\((\d+)", field):
            stack.setdefault(e, []).append(t)
        for e in re.findall(r"(\d+)\)", re.sub(r"\(\d+", "", field)):
            mentions.append((stack[e].pop(), t, e))
        t += 1
    if not sents[-1]:
        sents.pop()
    return sents, mentions


def perturb(
    sents: list[list[str]], mentions: list[tuple[int, int, str]], rates: tuple[float, ...], rng: np.random.Generator
) -> list[tuple[int, int, str]]:
    miss, split, merge, spurious = rates
    ents: dict[str, list[tuple[int, int]]] = {}
    for a, b, e in mentions:
        ents.setdefault(e, []).append((a, b))
    gold = {(a, b) for a, b, _ in mentions}
    out: dict[str, list[tuple[int, int]]] = {}
    for e, ms in ents.items():
        kept = [m for m in sorted(ms) if rng.random() >= miss]
        if len(kept) >= 4 and rng.random() < split:
            cut = int(rng.integers(1, len(kept)))
            out[e], out[e + "s"] = kept[:cut], kept[cut:]
        elif kept:
            out[e] = kept
    names = sorted(out)
    for _ in range(int(round(merge * len(names)))):
        if len(names) < 2:
            break
        i, j = rng.choice(len(names), 2, replace=False)
        a, b = names[i], names[j]
        out[a] = sorted(out[a] + out.pop(b))
        names = sorted(out)
    starts = np.cumsum([0] + [len(s) for s in sents])
    n_new = int(round(spurious * len(mentions)))
    fresh: list[tuple[int, int]] = []
    used = set(gold)
    tries = 0
    while len(fresh) < n_new and tries < 50 * (n_new + 1):
        tries += 1
        s = int(rng.integers(len(sents)))
        n = len(sents[s])
        w = int(rng.integers(1, 4))
        if n < w:
            continue
        a = int(starts[s] + rng.integers(n - w + 1))
        span = (a, a + w - 1)
        if span in used:
            continue
        used.add(span)
        fresh.append(span)
    pending: list[tuple[int, int]] = []
    for k, span in enumerate(fresh):
        if out and rng.random() < 0.5:
            e = sorted(out)[int(rng.integers(len(out)))]
            out[e] = sorted(out[e] + [span])
        else:
            pending.append(span)
            if len(pending) == 2:
                out[f"x{k}"] = sorted(pending)
                pending = []
    seen: set[tuple[int, int]] = set()  # a span the gold gives two entities is output once, in its first
    res = []
    for e, ms in out.items():
        ms = [m for m in ms if not (m in seen or seen.add(m))]
        # two mentions of one entity that cross ((3, 5) and (4, 7)) cannot be written unambiguously: the
        # format closes the latest open bracket of the entity; keep the first
        kept: list[tuple[int, int]] = []
        for a, b in sorted(ms):
            if not any(a0 < a <= b0 < b for a0, b0 in kept):
                kept.append((a, b))
        ms = kept
        if len(ms) > 1:
            res += [(a, b, e) for a, b in ms]
    return res


def write_doc(name: str, sents: list[list[str]], mentions: list[tuple[int, int, str]]) -> str:
    ids = {e: i for i, e in enumerate(dict.fromkeys(e for _, _, e in sorted(mentions)))}
    opens: dict[int, list[tuple[int, int]]] = {}
    closes: dict[int, list[tuple[int, int]]] = {}
    singles: dict[int, list[int]] = {}
    for a, b, e in mentions:
        if a == b:
            singles.setdefault(a, []).append(ids[e])
        else:
            opens.setdefault(a, []).append((-b, ids[e]))
            closes.setdefault(b, []).append((-a, ids[e]))
    out = [f"#begin document ({name}); part 000\n"]
    t = 0
    for s in sents:
        for i, w in enumerate(s):
            parts = [f"({e}" for _, e in sorted(opens.get(t, []))]
            parts += [f"({e})" for e in sorted(singles.get(t, []))]
            parts += [f"{e})" for _, e in sorted(closes.get(t, []))]
            out.append(f"{i}\t{w}\t{'|'.join(parts) or '_'}\n")
            t += 1
        out.append("\n")
    out.append("#end document\n")
    return "".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--docs", type=int, default=None, help="only the first N documents of SAMPLE")
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--data", type=Path, default=DATA)
    a = ap.parse_args()
    with tarfile.open(a.data) as tar:
        files = {
            Path(m.name).stem: tar.extractfile(m).read().decode("utf-8")
            for m in tar.getmembers()
            if m.isfile() and m.name.endswith(".conll")
        }
    for n in MALFORMED:
        files.pop(n, None)
    names = sorted(files) if a.docs is None else list(SAMPLE[: a.docs])
    a.out.mkdir(parents=True, exist_ok=True)
    missing = [n for n in names if n not in files]
    if missing:
        raise SystemExit(f"not in {a.data}: {', '.join(missing)}")
    order = {n: i for i, n in enumerate(sorted(files))}  # the same draws for a document in the full set and a sample
    parsed = {n: read_doc(files[n]) for n in names}
    with open(a.out / "key.conll", "w", encoding="utf-8", newline="\n") as f:
        f.writelines(write_doc(n, *parsed[n]) for n in names)
    for si, (sys_name, rates) in enumerate(SYSTEMS.items()):
        with open(a.out / f"{sys_name}.conll", "w", encoding="utf-8", newline="\n") as f:
            for n in names:
                rng = np.random.default_rng([a.seed, si, order[n]])
                sents, ms = parsed[n]
                f.write(write_doc(n, sents, perturb(sents, ms, rates, rng)))
    print(f"wrote {len(names)} documents: {a.out}/key.conll, " + ", ".join(f"{s}.conll" for s in SYSTEMS))


if __name__ == "__main__":
    main()
