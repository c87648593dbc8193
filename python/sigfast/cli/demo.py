"""`sigfast demo`: the main job on sample data that sigfast makes itself."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..engine.options import DEFAULT_SEED

__all__ = ["make_sample", "run_demo", "save_sample"]


def make_sample(seed: int = 7) -> dict[str, np.ndarray]:
    """Synthetic per-sentence statistics of two NER taggers and token-level correctness of two POS taggers.

    ``ner_a``/``ner_b``: (2,000 sentences x [tp, guessed, gold]); tagger B is
    about one F1 point better. ``pos_a``/``pos_b``: 130,000 tokens, 1 if the
    tag is right; B is 0.2 points more accurate.
    """
    rng = np.random.default_rng(seed)
    n = 2000
    gold = rng.poisson(3.0, n)

    def tagger(recall: float, noise: float) -> np.ndarray:
        tp = rng.binomial(gold, recall)
        fp = rng.poisson(noise * (gold + 1))
        return np.stack([tp, tp + fp, gold], 1).astype(np.float64)

    tokens = 130_000
    hard = rng.random(tokens) < 0.04
    pos_a = np.where(hard, rng.random(tokens) < 0.55, rng.random(tokens) < 0.985).astype(np.float64)
    pos_b = np.where(
        rng.random(tokens) < 0.8, pos_a, np.where(hard, rng.random(tokens) < 0.62, rng.random(tokens) < 0.986)
    ).astype(np.float64)
    return {"ner_a": tagger(0.86, 0.05), "ner_b": tagger(0.87, 0.045), "pos_a": pos_a, "pos_b": pos_b}


def save_sample(folder: str) -> list[str]:
    """Write :func:`make_sample`'s data as files the CLI reads; returns their paths.

    ``tagger_A.jsonl``/``tagger_B.jsonl``: per-sentence F1 statistics
    (``{"tp": .., "guessed": .., "gold": ..}``) of the two NER taggers;
    ``pos_A.txt``/``pos_B.txt``: per-token correctness (0/1) of the two POS
    taggers; ``scores_A.tsv``/``scores_B.tsv``/``scores_C.tsv``: one score per
    sentence of three systems.
    """
    import json
    import os

    data = make_sample()
    os.makedirs(folder, exist_ok=True)
    paths = []
    for name, key in (("tagger_A", "ner_a"), ("tagger_B", "ner_b")):
        p = os.path.join(folder, f"{name}.jsonl")
        with open(p, "w", encoding="utf-8") as fh:
            for tp, guessed, gold in data[key].astype(int):
                fh.write(json.dumps({"tp": int(tp), "guessed": int(guessed), "gold": int(gold)}) + "\n")
        paths.append(p)
    for name, key in (("pos_A", "pos_a"), ("pos_B", "pos_b")):
        p = os.path.join(folder, f"{name}.txt")
        with open(p, "w", encoding="utf-8") as fh:
            fh.write("\n".join(str(int(v)) for v in data[key]) + "\n")
        paths.append(p)
    rng = np.random.default_rng(3)
    base = rng.random(500)
    for k, name in enumerate(("A", "B", "C")):
        p = os.path.join(folder, f"scores_{name}.tsv")
        scores = np.clip(base + rng.normal(0.02 * k, 0.1, 500), 0, 1)
        with open(p, "w", encoding="utf-8") as fh:
            fh.write("score\n" + "\n".join(f"{v:.6f}" for v in scores) + "\n")
        paths.append(p)
    return paths


def run_demo(
    n_resamples: int | None = None, seed: int = DEFAULT_SEED, threads: int | None = None
) -> list[tuple[str, Any, float]]:
    """The demo's three tests on :func:`make_sample` data: ``(title, result, seconds)`` each.

    ``n_resamples``: the resamples of every test; by default, as ``sigfast compare``, 1,000,000 for the
    bootstrap and 100,000 for the randomization test.
    """
    import sigfast
    from sigfast.significance import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES

    data = make_sample()
    runs = []
    t = time.perf_counter()
    r1 = sigfast.paired_bootstrap(
        data["ner_a"],
        data["ner_b"],
        metric="f1",
        systems=("tagger_A", "tagger_B"),
        n_resamples=n_resamples or DEFAULT_RESAMPLES,
        seed=seed,
        n_threads=threads,
    )
    runs.append(("NER F1, 2,000 sentences: paired bootstrap", r1, time.perf_counter() - t))
    t = time.perf_counter()
    r2 = sigfast.permutation_test(
        data["ner_a"],
        data["ner_b"],
        metric="f1",
        systems=("tagger_A", "tagger_B"),
        n_resamples=n_resamples or DEFAULT_PERMUTATIONS,
        seed=seed,
        n_threads=threads,
    )
    runs.append(("NER F1, 2,000 sentences: approximate randomization", r2, time.perf_counter() - t))
    t = time.perf_counter()
    r3 = sigfast.paired_bootstrap(
        data["pos_a"],
        data["pos_b"],
        systems=("pos_A", "pos_B"),
        n_resamples=n_resamples or DEFAULT_RESAMPLES,
        seed=seed,
        n_threads=threads,
    )
    runs.append(("POS token accuracy, 130,000 tokens: paired bootstrap", r3, time.perf_counter() - t))
    return runs
