"""Synthetic battles and judge scores made with fixed seeds: the data of the battle and PPI parity tests
(scripts/battles_peers.py runs the peers on the same data; their outputs are in tests/data/battles/)."""

from __future__ import annotations

import hashlib

import numpy as np

PARITY_SEED = 20261128
N_MODELS = 20
N_BATTLES = 50_000
N_JUDGES = 25
WINNERS = ("model_a", "model_b", "tie")


def synthetic_battles(
    seed: int = PARITY_SEED,
    n_models: int = N_MODELS,
    n_battles: int = N_BATTLES,
    n_judges: int = N_JUDGES,
    tie_rate: float = 0.15,
    judge_sd: float = 0.0,
) -> dict[str, np.ndarray]:
    """Battles between models of known strength θ (Σθ = 0): a (int), b (int), outcome (0: a wins, 1: b wins,
    2: tie), judge (int), theta. ``judge_sd``: each judge's own shift of every pair's logit (a cluster effect)."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 0.8, n_models)
    theta -= theta.mean()
    a = rng.integers(0, n_models, n_battles)
    b = (a + rng.integers(1, n_models, n_battles)) % n_models
    judge = rng.integers(0, n_judges, n_battles)
    shift = rng.normal(0.0, judge_sd, (n_judges, n_models)) if judge_sd > 0 else np.zeros((n_judges, n_models))
    d = theta[a] - theta[b] + shift[judge, a] - shift[judge, b]
    p = 1.0 / (1.0 + np.exp(-d))
    u = rng.random(n_battles)
    tie = rng.random(n_battles) < tie_rate
    outcome = np.where(tie, 2, np.where(u < p, 0, 1))
    return {"a": a, "b": b, "outcome": outcome, "judge": judge, "theta": theta}


def digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for x in arrays:
        h.update(np.ascontiguousarray(np.asarray(x, dtype=np.int64)).tobytes())
    return h.hexdigest()


def synthetic_judge(seed: int = 7, n_labelled: int = 300, n_unlabelled: int = 3000) -> dict[str, np.ndarray]:
    """Human scores Y and judge scores Ŷ on a labelled set, and judge scores on an unlabelled set."""
    rng = np.random.default_rng(seed)
    n = n_labelled + n_unlabelled
    truth = rng.normal(0.6, 0.2, n)
    judge = 0.8 * truth + 0.15 + rng.normal(0.0, 0.1, n)
    human = truth + rng.normal(0.0, 0.05, n)
    return {"Y": human[:n_labelled], "Yhat": judge[:n_labelled], "Yhat_unlabeled": judge[n_labelled:]}


def float_digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for x in arrays:
        h.update(np.ascontiguousarray(np.asarray(x, dtype=np.float64)).tobytes())
    return h.hexdigest()
