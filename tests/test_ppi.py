"""Prediction-powered inference: equal to ppi-python's ppi_mean_ci (plain and power-tuned; its outputs on the
same data are in tests/data/battles/peers.json, made by scripts/battles_peers.py), a numpy oracle for paired
differences and clusters, and the input checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sigfast
from _battles_data import float_digest, synthetic_judge
from sigfast.exceptions import InputError

PEERS = json.loads((Path(__file__).parent / "data" / "battles" / "peers.json").read_text())


def _data() -> tuple[np.ndarray, np.ndarray]:
    j = synthetic_judge()
    assert float_digest(j["Y"], j["Yhat"], j["Yhat_unlabeled"]) == PEERS["ppi_sha256"], "the generator drifted"
    judge = np.concatenate([j["Yhat"], j["Yhat_unlabeled"]])
    human = np.concatenate([j["Y"], np.full(len(j["Yhat_unlabeled"]), np.nan)])
    return judge, human


@pytest.mark.parametrize("form", ["plain", "tuned"])
def test_equals_ppi_python(form: str) -> None:
    judge, human = _data()
    r = sigfast.prediction_powered(judge, human, power_tuning=form == "tuned")
    want = PEERS["ppi"][form]
    assert abs(r.lower - want["lower"]) < 1e-9 and abs(r.upper - want["upper"]) < 1e-9
    assert abs(r.estimate - want["estimate"]) < 1e-9
    assert (r.lam == 1.0) == (form == "plain")


def test_paired_difference_and_clusters_equal_a_numpy_oracle() -> None:
    rng = np.random.default_rng(5)
    n = 400
    truth_a, truth_b = rng.normal(0.6, 0.2, n), rng.normal(0.5, 0.2, n)
    ja, jb = truth_a + rng.normal(0, 0.1, n), truth_b + rng.normal(0, 0.1, n)
    lab = rng.random(n) < 0.3
    ha, hb = np.where(lab, truth_a, np.nan), np.where(lab, truth_b, np.nan)
    cl = rng.integers(0, 40, n)
    r = sigfast.prediction_powered(ja, ha, judge_b=jb, human_b=hb, clusters=cl, lam=0.7)
    # oracle: θ = λ·mean(Ŷ_u) + mean(Y − λŶ)_l on the differences; influence summed per cluster, G/(G−1)
    y, yh = (truth_a - truth_b)[lab], (ja - jb)[lab]
    yu = (ja - jb)[~lab]
    est = 0.7 * yu.mean() + (y - 0.7 * yh).mean()
    psi = np.zeros(n)
    psi[~lab] = 0.7 * (yu - yu.mean()) / len(yu)
    rr = y - 0.7 * yh
    psi[lab] = (rr - rr.mean()) / len(rr)
    s = np.array([psi[cl == g].sum() for g in range(40)])
    se = np.sqrt((s**2).sum() * 40 / 39)
    assert r.estimate == pytest.approx(est, abs=1e-12) and r.se == pytest.approx(se, rel=1e-12)
    assert r.paired and r.n_clusters == 40 and r.n_labelled == lab.sum()


def test_input_checks() -> None:
    with pytest.raises(InputError, match="differ in length"):
        sigfast.prediction_powered([1.0, 2.0], [1.0])
    with pytest.raises(InputError, match="at least 2 labelled"):
        sigfast.prediction_powered([1.0, 2.0, 3.0], [1.0, np.nan, np.nan])
    with pytest.raises(InputError, match="labelled for one system"):
        sigfast.prediction_powered([1, 2, 3], [1, 2, np.nan], judge_b=[1, 2, 3], human_b=[1, np.nan, np.nan])
    with pytest.raises(InputError, match="not a finite number"):
        sigfast.prediction_powered([1, np.nan, 3], [1, 2, np.nan])
