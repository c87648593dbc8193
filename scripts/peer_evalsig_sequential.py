"""Run evalsig's sequential confidence sequence and gate on fixed data; write tests/data/peer/evalsig_sequential.json.

Run in a separate environment that has evalsig (not sigfast's):

    python3 -m venv /work/peerenv && /work/peerenv/bin/pip install evalsig==0.1.2
    /work/peerenv/bin/python scripts/peer_evalsig_sequential.py

evalsig.inference.sequential (Howard et al. 2021's asymptotic confidence sequence) takes the paired
differences y - x and a rho; sigfast's t_opt gives rho**2 = t_opt / (2 log(1/alpha) + log(1 + 2 log(1/alpha))),
so each case records the t_opt and the rho passed. For every prefix t >= 2 of each data set the file holds
evalsig's interval (confidence_sequence), and sequential_gate's outcome (two-sided, greater, less; min_n 30).
tests/test_sequential.py compares sigfast with the file (no evalsig needed there).
"""

from __future__ import annotations

import json
import math
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
from evalsig.inference.sequential import confidence_sequence, sequential_gate

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "peer" / "evalsig_sequential.json"


def rho_for(t_opt: float, alpha: float) -> float:
    la = 2.0 * math.log(1.0 / alpha)
    return math.sqrt(t_opt / (la + math.log1p(la)))


def datasets() -> list[tuple[str, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(20261128)
    out = []
    n = 200
    x = (rng.random(n) < 0.6).astype(float)
    y = (rng.random(n) < 0.7).astype(float)
    out.append(("binary, candidate better", x, y))
    x = (rng.random(n) < 0.5).astype(float)
    out.append(("binary, no difference", x, np.where(rng.random(n) < 0.8, x, 1 - x)))
    x = rng.beta(2, 3, n)
    out.append(("bounded scores, candidate worse", x, np.clip(x - 0.08 + rng.normal(0, 0.1, n), 0, 1)))
    x = rng.normal(0.5, 0.2, n)
    out.append(("unbounded scores", x, x + rng.normal(0.02, 0.3, n)))
    return out


def main() -> None:
    cases = []
    for name, x, y in datasets():
        d = y - x
        for level, t_opt in ((0.95, 100.0), (0.9, 50.0), (0.99, 400.0)):
            alpha = 1.0 - level
            rho = rho_for(t_opt, alpha)
            seq = [list(confidence_sequence(d[:t], alpha=alpha, rho=rho).ci) for t in range(2, d.size + 1)]
            gates = {}
            for alt in ("two-sided", "greater", "less"):
                g = sequential_gate(d, alpha=alpha, alternative=alt, rho=rho, min_n=30)
                gates[alt] = {"stopped": g.stopped, "n_pairs": g.n_pairs, "ci": list(g.ci), "delta": g.delta}
            cases.append(
                {
                    "name": name,
                    "x": x.tolist(),
                    "y": y.tolist(),
                    "confidence_level": level,
                    "t_opt": t_opt,
                    "rho": rho,
                    "intervals_from_t2": seq,
                    "gate_min_n_30": gates,
                }
            )
    doc = {
        "tool": f"evalsig {version('evalsig')}",
        "functions": "evalsig.inference.sequential: confidence_sequence(d[:t], alpha, rho) for t = 2..n; "
        "sequential_gate(d, alpha, alternative, rho, min_n=30); d = y - x",
        "command": "python3 -m venv /work/peerenv && /work/peerenv/bin/pip install evalsig==0.1.2 && "
        "/work/peerenv/bin/python scripts/peer_evalsig_sequential.py",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "cases": cases,
    }
    OUT.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
