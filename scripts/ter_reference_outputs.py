"""Record sacrebleu's own TER outputs for the tests that are too slow to run it live.

sacrebleu's pure-Python TER takes about 12 s per WMT21 system and reference set, so
``tests/test_ter.py`` compares sigfast with these recorded outputs (every segment of every
system, one and two references, and the long synthetic sentences where TER's limits bite);
a quick live run on the first segments still checks sacrebleu itself in the suite.

    python scripts/ter_reference_outputs.py ../shared [--workers 2]

writes ``tests/data/peer/sacrebleu_ter.json.gz``: per system and reference set the
per-segment ``[edits, reference length]`` of ``TER()._extract_corpus_statistics`` and
``corpus_score``; per segment it checks that ``sentence_score`` gives the same edits and
length (recorded as a fact, not repeated). The sacrebleu version and this command are
written into the file.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import sacrebleu
import sacrebleu.metrics.lib_ter as sb_lib_ter
from sacrebleu.metrics import TER

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_ter import WMT, _permuted, lines, memoized_sacrebleu

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "peer" / "sacrebleu_ter.json.gz"


def long_sentences() -> tuple[list[str], list[str]]:
    """Shift blocks longer than 10 words, shifts further than 50 words, the 1,000-candidate
    budget, and length ratios that widen the beam (the same corpus the test builds)."""
    rng = random.Random(7)
    vocab = [f"w{k}" for k in range(12)] + ["the", "of", "a"]
    hyps, refs = [], []
    for n in (45, 80):
        for _ in range(2):
            ref = [rng.choice(vocab) for _ in range(n)]
            hyps.append(" ".join(_permuted(rng, ref, rng.randint(2, 6))))
            refs.append(" ".join(ref))
    ref = [f"u{k}" for k in range(90)]
    hyps.append(" ".join(ref[60:75] + ref[:60] + ref[75:]))
    refs.append(" ".join(ref))
    hyps += ["u3 u80", " ".join(ref + ref), "v"]
    refs += [" ".join(ref[:120] + ref[:40]), "u1 u2", " ".join(["v"] * 130)]
    return hyps, refs


def record(hyps: list[str], refs: list[list[str]]) -> dict:
    with memoized_sacrebleu():
        ter = TER()
        stats = [[float(x) for x in s] for s in ter._extract_corpus_statistics(hyps, refs)]
        corpus = ter.corpus_score(hyps, refs).score
        for i, h in enumerate(hyps):
            s = ter.sentence_score(h, [r[i] for r in refs])
            assert [float(s.num_edits), float(s.ref_length)] == stats[i], i
    return {"stats": stats, "corpus": corpus}


def one_system(path: str, ref_a: list[str], ref_b: list[str]) -> tuple[str, dict]:
    hyps = lines(Path(path))
    return Path(path).name, {"AB": record(hyps, [ref_a, ref_b]), "A": record(hyps, [ref_a])}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("shared", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    d = args.shared / "data" / WMT
    ref_a = lines(d / "newstest2021.de-en.ref.A.en")
    ref_b = lines(d / "newstest2021.de-en.ref.B.en")
    systems = sorted((d / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    with ProcessPoolExecutor(args.workers) as pool:
        wmt = dict(pool.map(one_system, [str(p) for p in systems], [ref_a] * len(systems), [ref_b] * len(systems)))

    hyps, refs = long_sentences()
    most: list[int] = []
    original = sb_lib_ter._shift

    def counting_shift(*a):
        out = original(*a)
        most.append(out[2])
        return out

    sb_lib_ter._shift = counting_shift
    try:
        long_one = record(hyps, [refs])
        long_two = record(hyps, [refs, refs[::-1]])
    finally:
        sb_lib_ter._shift = original
    doc = {
        "tool": f"sacrebleu {sacrebleu.__version__}",
        "command": "python scripts/ter_reference_outputs.py ../shared",
        "options": "TER() defaults: normalized=False, no_punct=False, asian_support=False, case_sensitive=False",
        "sentence_scores_equal_segment_statistics": True,
        "wmt21_de_en": wmt,
        "long_sentences": {
            "hyps": hyps,
            "refs": refs,
            "one_reference": long_one,
            "two_references": long_two,
            "most_shift_candidates": max(most),
        },
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    with gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as f:  # the same bytes on every run
        f.write(data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes): {len(wmt)} systems")


if __name__ == "__main__":
    main()
