"""Bradley–Terry intervals and prediction-powered inference: coverage by simulation, and speed against arena-rank.

Three parts, each printing the figures that ``benches/RESULTS-battles.md`` records:

``--coverage``: 1,000 battle sets drawn from known strengths with judge clusters. Each set: 8 models with
θ ~ N(0, 0.7²) (fixed per set, Σθ = 0), 4,000 battles between random pairs, each battle judged by one of 100
judges; binary outcomes (no ties, so the half-tie and the plain likelihood agree and θ is the estimand). The
clusters: a battle uses its judge's uniform draw with probability 0.5 and its own otherwise (a win when the draw
is below σ(θa − θb)), so the marginal law of every battle is exactly Bradley–Terry while the battles of one judge
move together. For each set, the 95% intervals of θ_i − θ_0 (i = 1..7) from the model-based, the sandwich and
the cluster-robust sandwich standard errors; coverage pooled over the 7 contrasts, with its standard error over
the 1,000 sets.

With ``--boot-B B`` (400 by default; 0 leaves them out) the same sets also give the 95% percentile intervals of
the battle (row) bootstrap and the cluster (judge) bootstrap, B resamples each, seeded by the set's number.

``--ppi``: 1,000 data sets of paired judge scores: 2,000 items in 100 documents (a document effect shared by
both systems' true scores, and one of each system's own, sd 0.1, that does not cancel in the difference), two
systems, true scores a_i, b_i, judge scores with a
system-specific bias, 200 labelled items drawn at random. The target is the known mean difference E[a − b] =
0.05. Coverage of the 95% paired-difference interval of PPI (λ = 1) and PPI++ with and without clusters, each
with its binomial standard error, and the mean width relative to the human-only interval.

``--speed``: the fit plus the sandwich on 20 models × 50,000 battles (tests/_battles_data.py's parity set),
sigfast against arena-rank (run in its own environment, ``--peer-python``), in one run: the median of 5 runs each.

    python benches/bench_battles.py --coverage
    python benches/bench_battles.py --ppi
    python benches/bench_battles.py --speed --peer-python /work/peerenv-battles/bin/python
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import sigfast
from sigfast.formats.battles import BattleTable
from sigfast.inference.ratings import battle_table

ROOT = Path(__file__).resolve().parents[1]
Z = 1.959963984540054


def table(a: np.ndarray, b: np.ndarray, outcome: np.ndarray, cluster: np.ndarray, m: int) -> BattleTable:
    """A count table from arrays (unit weights), the cells keyed by (cluster, a < b, outcome)."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    o = np.where(a > b, np.where(outcome == 2, 2, 1 - outcome), outcome)
    key = ((cluster.astype(np.int64) * m + lo) * m + hi) * 3 + o
    u, n = np.unique(key, return_counts=True)
    o_, rest = u % 3, u // 3
    hi_, rest = rest % m, rest // m
    lo_, cl_ = rest % m, rest // m
    ncl = int(cluster.max()) + 1
    return BattleTable(
        models=tuple(f"m{i}" for i in range(m)),
        clusters=tuple(str(c) for c in range(ncl)),
        cluster_field="judge",
        a=lo_.astype(np.uint32),
        b=hi_.astype(np.uint32),
        outcome=o_.astype(np.uint8),
        cluster=cl_.astype(np.uint32),
        w=n.astype(float),
        w2=n.astype(float),
        n_battles=len(a),
    )


def coverage(n_sets: int, seed: int, boot_b: int) -> None:
    m, n, g, rho = 8, 4000, 100, 0.5
    rng = np.random.default_rng(seed)
    hits: dict[str, list[float]] = {"model": [], "sandwich": [], "cluster": []}
    if boot_b:
        hits |= {"row boot": [], "clust boot": []}
    t0 = time.perf_counter()
    for _ in range(n_sets):
        theta = rng.normal(0, 0.7, m)
        theta -= theta.mean()
        a = rng.integers(0, m, n)
        b = (a + rng.integers(1, m, n)) % m
        judge = rng.integers(0, g, n)
        shared = rng.random(g)[judge]
        own = rng.random(n)
        u = np.where(rng.random(n) < rho, shared, own)
        p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
        outcome = np.where(u < p, 0, 1)
        t = table(a, b, outcome, judge, m)
        r = sigfast.bradley_terry(t, anchor="m0", se="cluster")
        true = theta - theta[0]
        est = r.theta
        for k, se in (("model", r.se_model), ("sandwich", r.se_sandwich), ("cluster", r.se_cluster)):
            s = se[1:] / r.factor
            hits[k].append(np.mean(np.abs(est[1:] - true[1:]) <= Z * s))
        if boot_b:
            elo = r.offset + r.factor * true[1:]
            for k, by_cluster in (("row boot", False), ("clust boot", True)):
                bt = sigfast.bradley_terry(
                    t, anchor="m0", bootstrap=boot_b, seed=len(hits[k]) + 1, cluster_bootstrap=by_cluster
                ).bootstrap
                hits[k].append(np.mean((bt.lower[1:] <= elo) & (elo <= bt.upper[1:])))
    secs = time.perf_counter() - t0
    print(f"{n_sets} battle sets: {m} models, {n} battles, {g} judges, shared-draw probability {rho}; binary outcomes")
    if boot_b:
        print(f"  bootstraps: B = {boot_b} percentile intervals, seed = the set's number (1, 2, ...)")
    for k, v in hits.items():
        v = np.array(v)
        print(f"  {k:<10} coverage {v.mean():.4f} (SE {v.std(ddof=1) / math.sqrt(len(v)):.4f})")
    print(f"  [{secs:.1f} s]")


def ppi(n_sets: int, seed: int) -> None:
    n, docs, n_lab, diff = 2000, 100, 200, 0.05
    rng = np.random.default_rng(seed)
    names = ("PPI", "PPI++", "PPI++ clusters", "human only")
    hits = {k: [] for k in names}
    width = {k: [] for k in names}
    t0 = time.perf_counter()
    for _ in range(n_sets):
        doc = rng.integers(0, docs, n)
        d_eff = rng.normal(0, 0.15, docs)[doc]
        ga, gb = rng.normal(0, 0.1, docs)[doc], rng.normal(0, 0.1, docs)[doc]
        a = 0.6 + d_eff + ga + rng.normal(0, 0.15, n)
        b = 0.6 - diff + d_eff + gb + rng.normal(0, 0.15, n)
        ja = 0.9 * a + 0.1 + rng.normal(0, 0.08, n)
        jb = 0.9 * b + 0.05 + rng.normal(0, 0.08, n)
        lab = np.zeros(n, bool)
        lab[rng.choice(n, n_lab, replace=False)] = True
        ha, hb = np.where(lab, a, np.nan), np.where(lab, b, np.nan)
        rs = {
            "PPI": sigfast.prediction_powered(ja, ha, judge_b=jb, human_b=hb, power_tuning=False),
            "PPI++": sigfast.prediction_powered(ja, ha, judge_b=jb, human_b=hb),
            "PPI++ clusters": sigfast.prediction_powered(ja, ha, judge_b=jb, human_b=hb, clusters=doc),
        }
        for k, r in rs.items():
            hits[k].append(r.lower <= diff <= r.upper)
            width[k].append(r.width_ratio)
        r = rs["PPI++ clusters"]
        hits["human only"].append(r.classical_lower <= diff <= r.classical_upper)
        width["human only"].append(1.0)
    secs = time.perf_counter() - t0
    print(f"{n_sets} data sets: {n} items in {docs} documents, {n_lab} labelled, paired difference {diff}")
    for k in names:
        v = np.array(hits[k], dtype=float)
        se = math.sqrt(v.mean() * (1 - v.mean()) / len(v))
        print(f"  {k:<15} coverage {v.mean():.4f} (SE {se:.4f})  width / human-only {np.mean(width[k]):.2f}")
    print(f"  [{secs:.1f} s]")


_PEER = r"""
import json, sys, time
import numpy as np, pandas as pd
sys.path.insert(0, sys.argv[1])
from _battles_data import WINNERS, synthetic_battles
from arena_rank.models.bradley_terry import BradleyTerry
from arena_rank.utils.data_utils import PairDataset
d = synthetic_battles()
names = [f"m{i:02d}" for i in range(20)]
df = pd.DataFrame({"model_a": [names[i] for i in d["a"]], "model_b": [names[i] for i in d["b"]],
                   "winner": [WINNERS[int(x)] for x in d["outcome"]]})
fit, whole = [], []
for _ in range(5):
    t0 = time.perf_counter()
    ds = PairDataset.from_pandas(df)
    t1 = time.perf_counter()
    r = BradleyTerry(n_competitors=20).compute_ratings_and_cis(ds, significance_level=0.05)
    np.asarray(r["variances"])
    t2 = time.perf_counter()
    fit.append(t2 - t1)
    whole.append(t2 - t0)
print(json.dumps({"fit": fit, "whole": whole}))
"""


def speed(peer_python: str | None) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from _battles_data import WINNERS, synthetic_battles

    d = synthetic_battles()
    names = [f"m{i:02d}" for i in range(20)]
    cols = {
        "model_a": [names[i] for i in d["a"]],
        "model_b": [names[i] for i in d["b"]],
        "winner": [WINNERS[int(x)] for x in d["outcome"]],
    }
    fit, whole = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        t = battle_table(cols)
        t1 = time.perf_counter()
        sigfast.bradley_terry(t)
        t2 = time.perf_counter()
        fit.append(t2 - t1)
        whole.append(t2 - t0)
    sf, sw = float(np.median(fit)), float(np.median(whole))
    print("20 models x 50,000 battles (ties 15%), fit + sandwich, median of 5 runs")
    print(f"  sigfast     fit+sandwich on the count table {sf * 1e3:8.1f} ms; from columns {sw * 1e3:8.1f} ms")
    if peer_python:
        out = subprocess.run(
            [peer_python, "-c", _PEER, str(ROOT / "tests")], capture_output=True, text=True, check=True
        ).stdout
        p = json.loads(out.strip().splitlines()[-1])
        pf, pw = float(np.median(p["fit"])), float(np.median(p["whole"]))
        print(
            f"  arena-rank  fit+sandwich on its PairDataset  {pf * 1e3:8.1f} ms; from the DataFrame {pw * 1e3:8.1f} ms"
        )
        print(f"  ratio (arena-rank / sigfast): fit+sandwich {pf / sf:.0f}x; whole {pw / sw:.1f}x")


_PEER_BOOT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import evalica
from _battles_data import synthetic_battles
d = synthetic_battles()
names = [f"m{i:02d}" for i in range(20)]
wmap = {0: evalica.Winner.X, 1: evalica.Winner.Y, 2: evalica.Winner.Draw}
xs, ys = [names[i] for i in d["a"]], [names[i] for i in d["b"]]
ws = [wmap[int(x)] for x in d["outcome"]]
t0 = time.perf_counter()
evalica.bootstrap(evalica.bradley_terry, xs, ys, ws, n_resamples=int(sys.argv[2]), bootstrap_method="percentile",
                  random_state=1)
print(json.dumps({"seconds": time.perf_counter() - t0, "version": evalica.__version__}))
"""


def boot_speed(peer_python: str | None, B: int) -> None:
    """The cluster bootstrap of the Bradley–Terry ratings (B resamples of the judges), 1 and 2 threads;
    evalica's bootstrap (of battles: it has no cluster resampling) of the same B, in its own environment."""
    sys.path.insert(0, str(ROOT / "tests"))
    from _battles_data import WINNERS, synthetic_battles

    d = synthetic_battles()
    names = [f"m{i:02d}" for i in range(20)]
    cols = {
        "model_a": [names[i] for i in d["a"]],
        "model_b": [names[i] for i in d["b"]],
        "winner": [WINNERS[int(x)] for x in d["outcome"]],
        "judge": [str(j) for j in d["judge"]],
    }
    t = battle_table(cols, cluster="judge")
    print(f"20 models x 50,000 battles, {len(t.clusters)} judge clusters, {len(t.a)} cells; B = {B} cluster bootstrap")
    runs: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(3):
        for k in (1, 2):
            t0 = time.perf_counter()
            r = sigfast.bradley_terry(t, bootstrap=B, seed=1, n_threads=k)
            runs[k].append(time.perf_counter() - t0)
    secs = {k: float(np.median(v)) for k, v in runs.items()}
    for k in (1, 2):
        print(f"  sigfast {k} thread(s): {secs[k]:7.2f} s, median of 3 (fit + bootstrap); failed {r.bootstrap.failed}")
    print(f"  load {os.getloadavg()[0]:.1f}")
    if peer_python:
        out = subprocess.run(
            [peer_python, "-c", _PEER_BOOT, str(ROOT / "tests"), str(B)], capture_output=True, text=True, check=True
        ).stdout
        p = json.loads(out.strip().splitlines()[-1])
        print(
            f"  evalica {p['version']} bootstrap (battles, percentile), its default threads: {p['seconds']:7.2f} s "
            f"(load {os.getloadavg()[0]:.1f})"
        )
        r1, r2 = p["seconds"] / secs[1], p["seconds"] / secs[2]
        print(f"  ratio evalica / sigfast: 1 thread {r1:.0f}x; 2 threads {r2:.0f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--coverage", action="store_true")
    ap.add_argument("--ppi", action="store_true")
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--boot-speed", action="store_true")
    ap.add_argument("--B", type=int, default=1000)
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--boot-B", type=int, default=400, help="B of the bootstraps in --coverage (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--peer-python", default=None)
    args = ap.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"sigfast {sigfast.__version__}, load {os.getloadavg()[0]:.1f}"
    )
    if args.coverage:
        coverage(args.sets, args.seed, args.boot_B)
    if args.ppi:
        ppi(args.sets, args.seed)
    if args.speed:
        speed(args.peer_python)
    if args.boot_speed:
        boot_speed(args.peer_python, args.B)


if __name__ == "__main__":
    main()
