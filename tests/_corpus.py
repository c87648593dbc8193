"""The saved-results corpus: one case per test, variant, scheme, question and stream version.

Each case is a name and a call of the public API on small fixed data (made here from a seeded
numpy generator, so the corpus needs no files). ``scripts/make_result_corpus.py`` writes every
case's JSON (with its signature) and its text report to ``tests/data/corpus/results.jsonl``;
``tests/test_result_corpus.py`` reruns each case and compares the bytes. A redesign of the
engine or of the layers around it must leave this file unchanged (or say in its commit which
case changed and why).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import sigfast

N = 240


def _data() -> dict[str, Any]:
    rng = np.random.default_rng(20261128)
    gold = rng.integers(0, 9, N)
    out: dict[str, Any] = {}
    for name, p in (("A", 0.70), ("B", 0.74), ("C", 0.72), ("D", 0.60)):
        guessed = np.maximum(gold + rng.integers(-2, 3, N), 0)
        tp = rng.binomial(np.minimum(gold, guessed), p)
        out[f"f1_{name}"] = np.stack([tp, guessed, gold], 1).astype(np.float64)
        out[f"mean_{name}"] = np.clip(rng.normal(p, 0.2, N), 0, 1)
        out[f"bin_{name}"] = (rng.random(N) < p).astype(np.float64)
    out["clusters"] = np.repeat(np.arange(N // 6), 6)
    out["seeds_a"] = rng.normal(0.70, 0.02, 8)
    out["seeds_b"] = rng.normal(0.72, 0.02, 8)
    out["human"] = rng.normal(0, 1, (6, 40))
    out["metrics"] = {m: out["human"] + rng.normal(0, s, (6, 40)) for m, s in (("m1", 0.5), ("m2", 1.0))}
    return out


D = _data()
F1 = (D["f1_A"], D["f1_B"])
MEAN = (D["mean_A"], D["mean_B"])
BIN = (D["bin_A"], D["bin_B"])
SYSTEMS_F1 = {k: D[f"f1_{k}"] for k in "ABCD"}
SYSTEMS_MEAN = {k: D[f"mean_{k}"] for k in "ABCD"}
CL = D["clusters"]


def _cases() -> dict[str, Callable[[], Any]]:
    c: dict[str, Callable[[], Any]] = {}
    pb, pt, bi = sigfast.paired_bootstrap, sigfast.permutation_test, sigfast.bootstrap_interval
    for stream in (1, 2):
        for variant in ("bk", "koehn", "shifted", "sacrebleu", "moses"):
            c[f"bootstrap/{variant}/f1/s{stream}"] = lambda v=variant, s=stream: pb(
                *F1, metric="f1", variant=v, n_resamples=2000, seed=3, stream=s
            )
            c[f"bootstrap/{variant}/mean/s{stream}"] = lambda v=variant, s=stream: pb(
                *MEAN, variant=v, n_resamples=2000, seed=3, stream=s
            )
        for alt in ("greater", "less"):
            c[f"bootstrap/shifted/{alt}/s{stream}"] = lambda a=alt, s=stream: pb(
                *MEAN, variant="shifted", alternative=a, n_resamples=2000, seed=4, stream=s
            )
        c[f"bootstrap/raw/s{stream}"] = lambda s=stream: pb(*F1, metric="f1", pvalue="raw", n_resamples=999, stream=s)
        c[f"bootstrap/distinct/s{stream}"] = lambda s=stream: pb(
            *BIN, resampling="distinct", n_resamples=2000, seed=5, stream=s
        )
        c[f"bootstrap/clusters/f1/s{stream}"] = lambda s=stream: pb(
            *F1, metric="f1", clusters=CL, n_resamples=2000, seed=6, stream=s
        )
        c[f"bootstrap/clusters/mean/s{stream}"] = lambda s=stream: pb(
            *MEAN, clusters=CL, n_resamples=2000, seed=6, stream=s
        )
        c[f"bootstrap/fbeta/s{stream}"] = lambda s=stream: pb(*F1, metric="fbeta", beta=0.5, n_resamples=1000, stream=s)
        for alt in ("two-sided", "greater", "less"):
            c[f"permutation/approx/{alt}/f1/s{stream}"] = lambda a=alt, s=stream: pt(
                *F1, metric="f1", alternative=a, n_resamples=2000, seed=7, stream=s
            )
        c[f"permutation/approx/mean/s{stream}"] = lambda s=stream: pt(*MEAN, n_resamples=2000, seed=7, stream=s)
        c[f"permutation/clusters/s{stream}"] = lambda s=stream: pt(
            *MEAN, clusters=CL, n_resamples=2000, seed=8, stream=s
        )
        for method in ("bca", "percentile"):
            c[f"interval/{method}/one/s{stream}"] = lambda m=method, s=stream: bi(
                D["f1_A"], metric="f1", method=m, n_resamples=2000, stream=s
            )
            c[f"interval/{method}/diff/s{stream}"] = lambda m=method, s=stream: bi(
                *MEAN, method=m, n_resamples=2000, stream=s
            )
        c[f"interval/clusters/s{stream}"] = lambda s=stream: bi(
            *MEAN, clusters=CL, method="percentile", n_resamples=2000, stream=s
        )
        for mode in ("shared", "independent"):
            c[f"pairwise/{mode}/f1/s{stream}"] = lambda m=mode, s=stream: sigfast.pairwise(
                SYSTEMS_F1, metric="f1", mode=m, n_resamples=1000, seed=9, stream=s
            )
        c[f"pairwise/clusters/mean/s{stream}"] = lambda s=stream: sigfast.pairwise(
            SYSTEMS_MEAN, clusters=CL, n_resamples=1000, seed=9, stream=s
        )
        c[f"pairwise/koehn/mean/s{stream}"] = lambda s=stream: sigfast.pairwise(
            SYSTEMS_MEAN, variant="koehn", n_resamples=1000, seed=9, stream=s
        )
        for pairs in ("normal", "bootstrap"):
            c[f"leaderboard/{pairs}/s{stream}"] = lambda p=pairs, s=stream: sigfast.leaderboard(
                SYSTEMS_MEAN, pairs=p, n_resamples=1000, stream=s
            )
        c[f"leaderboard/clusters/s{stream}"] = lambda s=stream: sigfast.leaderboard(
            SYSTEMS_MEAN, clusters=CL, n_resamples=1000, stream=s
        )
        c[f"aso/s{stream}"] = lambda s=stream: sigfast.aso(D["seeds_a"], D["seeds_b"], n_resamples=200, stream=s)
        c[f"compare_seeds/s{stream}"] = lambda s=stream: sigfast.compare_seeds(
            {"a": D["seeds_a"], "b": D["seeds_b"]}, n_resamples=200, stream=s
        )
        c[f"metaeval/perm-both/s{stream}"] = lambda s=stream: sigfast.metaeval.evaluate(
            D["human"], D["metrics"], level="system", n_resamples=200, stream=s
        )
    c["permutation/exact/f1"] = lambda: pt(F1[0][:12], F1[1][:12], metric="f1", method="exact")
    c["permutation/exact/mean"] = lambda: pt(MEAN[0][:14], MEAN[1][:14], method="exact")
    c["standard_error/one"] = lambda: sigfast.standard_error(D["mean_A"])
    c["standard_error/diff"] = lambda: sigfast.standard_error(*MEAN)
    c["standard_error/clusters"] = lambda: sigfast.standard_error(*MEAN, clusters=CL)
    c["leaderboard/none"] = lambda: sigfast.leaderboard(SYSTEMS_MEAN, bootstrap=False, pairs="none")
    for method in ("mid-p", "exact", "asymptotic"):
        c[f"mcnemar/{method}"] = lambda m=method: sigfast.mcnemar(*BIN, method=m)
    c["paired_ttest"] = lambda: sigfast.paired_ttest(*MEAN)
    c["wilcoxon"] = lambda: sigfast.wilcoxon(*MEAN)
    c["sign_test"] = lambda: sigfast.sign_test(*MEAN)
    c["welch_ttest"] = lambda: sigfast.welch_ttest(*MEAN)
    c["mann_whitney_u"] = lambda: sigfast.mann_whitney_u(*MEAN)
    for method in ("holm", "bonferroni", "hochberg", "bh", "by"):
        c[f"adjust/{method}"] = lambda m=method: sigfast.adjust([0.001, 0.01, 0.02, 0.04, 0.3], m)
    for method in ("wilson", "clopper-pearson", "agresti-coull"):
        c[f"proportion_interval/{method}"] = lambda m=method: sigfast.proportion_interval(17, 40, method=m)
    c["minimum_detectable_difference"] = lambda: sigfast.minimum_detectable_difference(300, cluster_size=3, icc=0.2)
    c["items_needed"] = lambda: sigfast.items_needed(0.03, correlation=0.5)
    return c


CASES = _cases()


def render(result: Any) -> dict[str, str]:
    """The bytes a case keeps: its JSON (with the signature) and, for results, its text report."""
    if hasattr(result, "to_json"):
        out = {"json": result.to_json()}
        if hasattr(result, "format"):
            out["text"] = result.format("text")
        return out
    return {"json": repr(result)}


# ------------------------------------------------------------------ the command line
# Paths are relative to the repository root (the test and the script run there), so the bytes hold
# in any checkout. Each command runs twice: its text report and its --json.
_C = "tests/data/corpus"
_S = [f"{_C}/scores_{k}.txt" for k in "ABC"]
_UD = ["tests/data/analysis/ud_gold.conllu", "raw=tests/data/analysis/ud_sys_raw.conllu"]
_NER = ["tests/data/chunk/ner_gold.txt", "tests/data/chunk/ner_system.txt"]
_LME = [f"tests/data/llm/lm-eval/dummy-seed{k}" for k in (1, 2, 3)]
_INS = [f"tests/data/llm/inspect/figqa_{k}.json.gz" for k in ("alpha", "beta", "gamma")]

CLI_CASES: dict[str, list[str]] = {
    "compare/bootstrap": ["compare", *_S, "-n", "2000"],
    "compare/stream1": ["compare", *_S[:2], "-n", "2000", "--stream", "1"],
    "compare/koehn": ["compare", *_S[:2], "-n", "2000", "--variant", "koehn"],
    "compare/permutation": ["compare", *_S[:2], "--test", "permutation", "-n", "2000"],
    "compare/mcnemar": ["compare", f"{_C}/correct_A.txt", f"{_C}/correct_B.txt", "--test", "mcnemar"],
    "compare/conllu": ["compare", "-f", "conllu", "-m", "las", "-m", "uas", *_UD, f"gold={_UD[0]}", "-n", "2000"],
    "compare/ner": ["compare", "-f", "ner", *_NER, _NER[0], "-n", "2000"],
    "compare/lm-eval/cluster": ["compare", "-f", "lm-eval", *_LME, "--task", "figqa", "--cluster", "pair", "-n", "999"],
    "compare/inspect": ["compare", "-f", "inspect", *_INS, "-n", "2000"],
    "pairwise/scores": ["pairwise", *_S, "-n", "2000"],
    "pairwise/lm-eval": ["pairwise", "-f", "lm-eval", *_LME, "--task", "figqa", "-n", "1000"],
    "interval/scores": ["interval", *_S, "-n", "2000"],
    "interval/inspect/cluster": ["interval", "-f", "inspect", *_INS, "--cluster", "pair", "-n", "2000"],
    "score/ner": ["score", "-f", "ner", *_NER],
    "score/conllu": ["score", "-f", "conllu", *_UD],
    "mcnemar": ["mcnemar", f"{_C}/correct_A.txt", f"{_C}/correct_C.txt"],
}


def run_cli(argv: list[str]) -> str:
    """What one command line prints on stdout (warnings and stderr left out); it must exit 0."""
    import contextlib
    import io
    import warnings

    from sigfast.cli import main

    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        warnings.simplefilter("ignore")
        code = main(argv)
    if code != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {code}: {err.getvalue()}")
    return out.getvalue()


def render_cli(argv: list[str]) -> dict[str, str]:
    return {"text": run_cli(argv), "json": run_cli([*argv, "--json"])}
