"""Anytime-valid confidence sequences and the gate: the closed-form boundaries against the paper's formulas
(a numpy oracle here) and confseq's published test values, the asymptotic sequence and the gate against evalsig
0.1.2's outputs on the same data (tests/data/peer/evalsig_sequential.json), the CLI's verdicts and exit codes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.cli import main
from sigfast.exceptions import InputError
from sigfast.inference.sequential import EXIT_CODES, normal_mixture_boundary, normal_mixture_rho, stitching_boundary

PEER = Path(__file__).parent / "data" / "peer" / "evalsig_sequential.json"


# --------------------------------------------------------------------------------------------
# the boundaries: Howard, Ramdas, McAuliffe & Sekhon (2021), written out again here


def _oracle_normal_mixture(v: np.ndarray, alpha: float, t_opt: float) -> np.ndarray:
    # two-sided normal mixture: |S_t| < sqrt((V + rho) log((V + rho) / (rho alpha^2))), rho tuned for v = t_opt
    rho = t_opt / (2 * np.log(1 / alpha) + np.log(1 + 2 * np.log(1 / alpha)))
    return np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha**2)))


def _oracle_stitching(v: np.ndarray, alpha: float, m: float, c: float, s: float = 1.4, eta: float = 2.0) -> np.ndarray:
    from scipy.special import zeta

    v = np.maximum(v, m)
    ell = s * np.log(np.log(eta * v / m)) + np.log(zeta(s) / np.log(eta) ** s) + np.log(1 / alpha)
    k1 = (eta**0.25 + eta**-0.25) / np.sqrt(2)
    k2 = (np.sqrt(eta) + 1) / 2
    return np.sqrt(k1**2 * v * ell + (k2 * c * ell) ** 2) + k2 * c * ell


def test_boundaries_match_confseqs_published_values() -> None:
    """confseq's unit tests (test/uniform_boundaries_unittest.cpp): best_rho(100, 0.05) = 12.60056, the
    two-sided normal mixture bound at v = 100 = 30.35209, PolyStitchingBound(10, 3, 1.4, 2)(100, 0.05) =
    64.48755 and with c = -1 28.99389 (each to 1e-5, as there)."""
    assert normal_mixture_rho(100, 0.05) == pytest.approx(12.60056, abs=1e-5)
    assert float(normal_mixture_boundary(100, 0.05, normal_mixture_rho(100, 0.05))) == pytest.approx(30.35209, abs=1e-5)
    assert float(stitching_boundary(100, 0.05, 10, 3)) == pytest.approx(64.48755, abs=1e-5)
    assert float(stitching_boundary(100, 0.05, 10, -1)) == pytest.approx(28.99389, abs=1e-5)


def test_boundaries_equal_the_papers_formulas() -> None:
    pytest.importorskip("scipy")
    v = np.concatenate([np.linspace(0.01, 5, 50), np.geomspace(5, 1e7, 200)])
    for alpha in (0.01, 0.05, 0.1, 0.2):
        for t_opt in (1.0, 30.0, 100.0, 5000.0):
            got = normal_mixture_boundary(v, alpha, normal_mixture_rho(t_opt, alpha))
            np.testing.assert_allclose(got, _oracle_normal_mixture(v, alpha, t_opt), rtol=1e-12, atol=1e-10)
        for m, c in ((1.0, 1.0), (1.0, 2.0), (10.0, 3.0), (0.5, 0.0)):
            np.testing.assert_allclose(
                stitching_boundary(v, alpha, m, c), _oracle_stitching(v, alpha, m, c), rtol=1e-12
            )


# --------------------------------------------------------------------------------------------
# the sequences


def _oracle_asymptotic(d: np.ndarray, alpha: float, t_opt: float) -> tuple[np.ndarray, np.ndarray]:
    t = np.arange(2, d.size + 1)
    mean = np.array([d[:k].mean() for k in t])
    sd = np.array([d[:k].std(ddof=1) for k in t])
    half = sd * _oracle_normal_mixture(t.astype(float), alpha, t_opt) / t
    half[sd == 0] = np.inf
    return mean - half, mean + half


def _oracle_bernstein(x: np.ndarray, alpha: float, lo: float, hi: float, paired: bool) -> tuple[np.ndarray, np.ndarray]:
    """Howard et al. (2021), Theorem 4 + eq. (10): values on the bounds' scale, predictable running mean, V_t the
    squared prediction errors, the stitched boundary at alpha/2 per side with m = 1 and c the values' range."""
    w = hi - lo
    u = x / w if paired else (x - lo) / w
    c = 2.0 if paired else 1.0
    out_lo, out_hi = [], []
    for k in range(1, u.size + 1):
        pred = np.array([(0.0 if paired else 0.5)] + [u[:i].mean() for i in range(1, k)])
        v = np.sum((u[:k] - pred) ** 2)
        half = _oracle_stitching(np.array(v), alpha / 2, 1.0, c) / k * w
        mean = x[:k].mean()
        edge = (-w, w) if paired else (lo, hi)
        out_lo.append(max(mean - half, edge[0]))
        out_hi.append(min(mean + half, edge[1]))
    return np.array(out_lo), np.array(out_hi)


def test_asymptotic_sequence_equals_evalsig_and_the_oracle() -> None:
    doc = json.loads(PEER.read_text())
    assert doc["tool"] == "evalsig 0.1.2" and len(doc["cases"]) == 12
    for case in doc["cases"]:
        x, y, level = np.array(case["x"]), np.array(case["y"]), case["confidence_level"]
        r = sigfast.confidence_sequence(x, y, method="asymptotic", confidence_level=level, t_opt=case["t_opt"])
        assert list(r.looks) == list(range(1, x.size + 1)) and r.method == "asymptotic"
        ref = np.array(case["intervals_from_t2"])
        for got, want in ((r.lower[1:], ref[:, 0]), (r.upper[1:], ref[:, 1])):
            assert np.array_equal(np.isfinite(got), np.isfinite(want)), case["name"]
            fin = np.isfinite(want)
            assert np.max(np.abs(got[fin] - want[fin])) < 1e-10, case["name"]
        lo, hi = _oracle_asymptotic(y - x, 1 - level, case["t_opt"])
        fin = np.isfinite(lo)
        assert np.max(np.abs(r.lower[1:][fin] - lo[fin])) < 1e-10 and np.max(np.abs(r.upper[1:][fin] - hi[fin])) < 1e-10
        assert not np.isfinite(r.lower[0])  # one item: no interval


def test_gate_equals_evalsigs_sequential_gate() -> None:
    """Two-sided, min_n 30, a look after every item: evalsig stops where the interval first excludes 0, as the
    gate with min_difference 0 stops with ALLOW (above) or REJECT (below)."""
    doc = json.loads(PEER.read_text())
    verdicts = set()
    for case in doc["cases"]:
        x, y, level = np.array(case["x"]), np.array(case["y"]), case["confidence_level"]
        g = sigfast.gate(x, y, method="asymptotic", confidence_level=level, t_opt=case["t_opt"], batch=1, min_items=30)
        want = case["gate_min_n_30"]["two-sided"]
        assert g.n_used == want["n_pairs"] and abs(g.estimate - want["delta"]) < 1e-12
        assert abs(g.confidence_interval.low - want["ci"][0]) < 1e-10
        assert abs(g.confidence_interval.high - want["ci"][1]) < 1e-10
        expected = "INCONCLUSIVE" if not want["stopped"] else ("ALLOW" if want["ci"][0] > 0 else "REJECT")
        assert g.verdict == expected and g.exit_code == EXIT_CODES[expected]
        # evalsig's one-sided gate stops at the same look when the two-sided one stops on that side
        side = {"ALLOW": "greater", "REJECT": "less"}.get(g.verdict)
        if side:
            assert case["gate_min_n_30"][side]["n_pairs"] == g.n_used
        verdicts.add(g.verdict)
    assert verdicts == {"ALLOW", "REJECT", "INCONCLUSIVE"}


@pytest.mark.parametrize("paired", [False, True])
def test_empirical_bernstein_sequence_equals_the_oracle(paired: bool) -> None:
    pytest.importorskip("scipy")
    rng = np.random.default_rng(4)
    x = rng.beta(2, 2, 150) * 10 - 3  # scores in [-3, 7]
    y = np.clip(x + rng.normal(0.3, 1.0, 150), -3, 7)
    r = (
        sigfast.confidence_sequence(x, y, method="empirical-bernstein", bounds=(-3, 7))
        if paired
        else sigfast.confidence_sequence(x, method="empirical-bernstein", bounds=(-3, 7))
    )
    lo, hi = _oracle_bernstein(y - x if paired else x, 0.05, -3.0, 7.0, paired)
    assert np.max(np.abs(r.lower - lo)) < 1e-10 and np.max(np.abs(r.upper - hi)) < 1e-10
    assert r.bounds == (-3.0, 7.0) and "bounds:-3+7" in r.signature


def _oracle_plugin(x: np.ndarray, alpha: float, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """Waudby-Smith & Ramdas (2023), Theorem 2 (PrPl-EB), values in [lo, hi] mapped to [0, 1], item by item."""
    u = (x - lo) / (hi - lo)
    out_lo, out_hi = [], []
    mu_prev, var_prev = 0.5, 0.25
    s_u = s_sq = lam_sum = lam_u = pen = 0.0
    for t, ui in enumerate(u, start=1):
        lam = min(math.sqrt(2 * math.log(2 / alpha) / (var_prev * t * math.log(1 + t))), 0.5)
        v = 4 * (ui - mu_prev) ** 2
        pen += v * (-math.log(1 - lam) - lam) / 4
        lam_sum += lam
        lam_u += lam * ui
        s_u += ui
        mu = (0.5 + s_u) / (t + 1)
        s_sq += (ui - mu) ** 2
        mu_prev, var_prev = mu, (0.25 + s_sq) / (t + 1)
        half = (math.log(2 / alpha) + pen) / lam_sum
        out_lo.append(lo + (hi - lo) * max(lam_u / lam_sum - half, 0.0))
        out_hi.append(lo + (hi - lo) * min(lam_u / lam_sum + half, 1.0))
    return np.array(out_lo), np.array(out_hi)


@pytest.mark.parametrize("paired", [False, True])
def test_plugin_bernstein_sequence_equals_the_oracle(paired: bool) -> None:
    rng = np.random.default_rng(6)
    x = rng.beta(2, 2, 300) * 10 - 3  # scores in [-3, 7]
    y = np.clip(x + rng.normal(0.3, 1.0, 300), -3, 7)
    r = (
        sigfast.confidence_sequence(x, y, method="plugin-bernstein", bounds=(-3, 7), confidence_level=0.9)
        if paired
        else sigfast.confidence_sequence(x, method="plugin-bernstein", bounds=(-3, 7), confidence_level=0.9)
    )
    lo, hi = _oracle_plugin(y - x, 0.1, -10.0, 10.0) if paired else _oracle_plugin(x, 0.1, -3.0, 7.0)
    assert np.max(np.abs(r.lower - lo)) < 1e-10 and np.max(np.abs(r.upper - hi)) < 1e-10


def test_looks_every_batch_are_the_same_intervals() -> None:
    rng = np.random.default_rng(2)
    x = rng.random(95)
    every = sigfast.confidence_sequence(x)
    tens = sigfast.confidence_sequence(x, batch=10)
    assert list(tens.looks) == [10, 20, 30, 40, 50, 60, 70, 80, 90, 95]
    np.testing.assert_array_equal(tens.lower, every.lower[tens.looks - 1])
    np.testing.assert_array_equal(tens.upper, every.upper[tens.looks - 1])
    assert tens.confidence_interval == every.confidence_interval and len(tens.rows()) == 10
    assert tens.method == "plugin-bernstein" and tens.bounds == (0.0, 1.0)  # auto: every score in [0, 1]
    assert sigfast.confidence_sequence(x * 3).method == "asymptotic"  # auto: not in [0, 1], no bounds given


@pytest.mark.parametrize("method", ["asymptotic", "plugin-bernstein", "empirical-bernstein"])
def test_a_look_depends_only_on_the_items_before_it(method: str) -> None:
    """Usable after every batch: the sequence of the first k items is the first looks of the whole run's."""
    rng = np.random.default_rng(12)
    x, y = rng.random(237), rng.random(237)
    whole = sigfast.confidence_sequence(x, y, method=method, bounds=(0, 1) if method != "asymptotic" else None)
    for k in (10, 50, 120):
        part = sigfast.confidence_sequence(x[:k], y[:k], method=method)
        np.testing.assert_array_equal(part.lower, whole.lower[:k])
        np.testing.assert_array_equal(part.upper, whole.upper[:k])


def test_statistics_in_and_names_out() -> None:
    logs = [str(Path(__file__).parent / "data" / "llm" / "inspect" / f"figqa_{m}.json.gz") for m in ("alpha", "beta")]
    stats = sigfast.read(None, logs, format="inspect")
    one = sigfast.confidence_sequence(stats, system="mockllm/beta", batch=100)
    assert one.systems == ("mockllm/beta",) and one.statistic == "mean" and "format:inspect" in one.signature
    pair = sigfast.confidence_sequence(stats, systems=("mockllm/alpha", "mockllm/beta"), batch=100)
    g = sigfast.gate(stats, systems=("mockllm/alpha", "mockllm/beta"), batch=100)
    assert pair.systems == g.systems == ("mockllm/alpha", "mockllm/beta") and pair.statistic == "difference"
    assert g.confidence_interval == (pair.lower[g.n_used // 100 - 1], pair.upper[g.n_used // 100 - 1])
    assert "test:gate" in g.signature and "format:inspect" in g.signature and "min_diff:0" in g.signature


def test_bad_input_is_a_clear_error() -> None:
    x = np.random.default_rng(0).random(50)
    with pytest.raises(InputError, match="outside bounds"):
        sigfast.confidence_sequence(x * 2, method="empirical-bernstein")
    with pytest.raises(InputError, match="bounds"):
        sigfast.confidence_sequence(x, bounds=(1, 0))
    with pytest.raises(InputError, match="batch"):
        sigfast.confidence_sequence(x, batch=0)
    with pytest.raises(InputError, match="two runs"):
        sigfast.gate(x)
    with pytest.raises(InputError, match="min_difference"):
        sigfast.gate(x, x, min_difference=math.nan)


def test_gate_verdicts() -> None:
    rng = np.random.default_rng(8)
    base = (rng.random(2000) < 0.6).astype(float)
    better = np.where(rng.random(2000) < 0.3, 1.0, base)
    allow = sigfast.gate(base, better)
    assert allow.verdict == "ALLOW" and allow.exit_code == 0 and allow.n_used < 2000
    assert allow.confidence_interval.low > 0 and allow.n_used % 10 == 0
    reject = sigfast.gate(better, base)
    assert reject.verdict == "REJECT" and reject.exit_code == 3
    same = sigfast.gate(base, base.copy(), min_difference=0.0)  # no difference at all: never above or below 0
    assert same.verdict == "INCONCLUSIVE" and same.exit_code == 4 and same.n_used == 2000
    assert sigfast.gate(base, base.copy(), min_difference=0.01).verdict == "REJECT"  # shown to be below 0.01
    noninferior = sigfast.gate(better, base, min_difference=-0.5)  # worse, but by less than 0.5: shown early
    assert noninferior.verdict == "ALLOW" and noninferior.n_used < 500
    assert "ALLOW" in allow.format("text") and allow.to_dict()["verdict"] == "ALLOW"


# --------------------------------------------------------------------------------------------
# the CLI


def _write(path: Path, values: np.ndarray) -> str:
    path.write_text("".join(f"{v:g}\n" for v in values))
    return str(path)


def test_cli_gate_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(8)
    base = (rng.random(600) < 0.5).astype(float)
    better = np.where(rng.random(600) < 0.4, 1.0, base)
    a, b = _write(tmp_path / "a.tsv", base), _write(tmp_path / "b.tsv", better)
    assert main(["gate", a, b]) == 0 and capsys.readouterr().out.startswith("ALLOW:")
    assert main(["gate", b, a]) == 3 and capsys.readouterr().out.startswith("REJECT:")
    assert main(["gate", a, a, "--min-diff", "0.01"]) == 4 and capsys.readouterr().out.startswith("INCONCLUSIVE:")
    assert main(["gate", a, b, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["verdict"] == "ALLOW" and d["exit_code"] == 0 and "test:gate" in d["signature"]
    with pytest.raises(SystemExit) as e:  # the paired-binary intervals are not sequences: a usage error
        main(["gate", a, b, "--method", "tango"])
    assert e.value.code == 2
    assert main(["gate", a, b, tmp_path.as_posix() + "/a.tsv"]) == 1  # three runs
    capsys.readouterr()


def test_cli_proportions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(9)
    x = (rng.random(80) < 0.6).astype(float)
    y = (rng.random(80) < 0.75).astype(float)
    a, b = _write(tmp_path / "a.tsv", x), _write(tmp_path / "b.tsv", y)
    assert main(["proportions", a, b, "--method", "tango"]) == 0
    out = capsys.readouterr().out
    r = sigfast.paired_proportion_interval(x, y, method="tango")
    lo, hi = r.intervals["tango"]
    assert f"[{100 * lo:.2f}, {100 * hi:.2f}]" in out and "Jeffreys" in out and "variant:tango" in out
    assert main(["proportions", a, b, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)[0]
    assert doc["paired"][0]["confidence_interval"]["low"] == r.intervals["newcombe"].low
    assert doc["systems"][0]["jeffreys_low"] == sigfast.jeffreys_interval(int(x.sum()), 80).low
    bad = _write(tmp_path / "c.tsv", rng.random(80))
    assert main(["proportions", a, bad]) == 1
    assert "0 or 1" in capsys.readouterr().err
