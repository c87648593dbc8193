"""Run the peers (choix, evalica, arena-rank, ppi-python) on sigfast's synthetic battle and judge data and write
their outputs to tests/data/battles/peers.json, which the tests compare against without the peers installed.

Run with the peers' own environment (never sigfast's):
    python3 -m venv /work/peerenv-battles
    /work/peerenv-battles/bin/pip install choix evalica arena-rank ppi-python pandas pyarrow
    /work/peerenv-battles/bin/python scripts/battles_peers.py
    /work/peerenv-battles/bin/python scripts/battles_peers.py --bootstrap   # tests/data/battles/peers_bootstrap.json
"""

from __future__ import annotations

import importlib.metadata as md
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from _battles_data import WINNERS, digest, float_digest, synthetic_battles, synthetic_judge  # noqa: E402


def main() -> None:
    import choix
    import evalica
    import pandas as pd
    from arena_rank.models.bradley_terry import BradleyTerry
    from arena_rank.utils.data_utils import PairDataset
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

    d = synthetic_battles()
    a, b, o = d["a"], d["b"], d["outcome"]
    m = int(max(a.max(), b.max()) + 1)
    names = [f"m{i:02d}" for i in range(m)]
    out: dict = {
        "command": "/work/peerenv-battles/bin/python scripts/battles_peers.py",
        "python": platform.python_version(),
        "versions": {p: md.version(p) for p in ("choix", "evalica", "arena-rank", "ppi-python", "jax", "numpy")},
        "battles_sha256": digest(a, b, o, d["judge"]),
        "models": names,
    }
    # choix: ties as half a win in the comparison matrix, I-LSR to its fixed point (the ML estimate)
    comp = np.zeros((m, m))
    np.add.at(comp, (a[o == 0], b[o == 0]), 1.0)
    np.add.at(comp, (b[o == 1], a[o == 1]), 1.0)
    np.add.at(comp, (a[o == 2], b[o == 2]), 0.5)
    np.add.at(comp, (b[o == 2], a[o == 2]), 0.5)
    th = choix.ilsr_pairwise_dense(comp, alpha=0.0, tol=1e-15, max_iter=100_000)
    out["choix_theta"] = (th - th.mean()).tolist()
    # evalica: Newman's iteration, ties weighted 0.5
    wmap = {0: evalica.Winner.X, 1: evalica.Winner.Y, 2: evalica.Winner.Draw}
    res = evalica.bradley_terry(
        [names[i] for i in a], [names[i] for i in b], [wmap[int(x)] for x in o], tolerance=1e-15, limit=100_000
    )
    lt = np.log(np.array([res.scores[n] for n in names], dtype=float))
    out["evalica_theta"] = (lt - lt.mean()).tolist()
    # arena-rank: its default sandwich intervals
    df = pd.DataFrame({"model_a": [names[i] for i in a], "model_b": [names[i] for i in b]})
    df["winner"] = [WINNERS[int(x)] for x in o]
    ds = PairDataset.from_pandas(df)
    assert ds.competitors == names
    bt = BradleyTerry(n_competitors=len(ds.competitors))
    r = bt.compute_ratings_and_cis(ds, significance_level=0.05)
    out["arena_rank"] = {
        "ratings": np.asarray(r["ratings"]).tolist(),
        "variances": np.asarray(r["variances"]).tolist(),
        "hessian_reg": bt.hessian_reg,
        "n_battles": int(len(df)),
    }
    # arena-rank's reweighted dataset: each row weighted 1 / max(its pair's count, 50)
    dsw = PairDataset.from_pandas(df, reweighted=True)
    btw = BradleyTerry(n_competitors=len(dsw.competitors))
    rw = btw.compute_ratings_and_cis(dsw, significance_level=0.05)
    out["arena_rank_reweighted"] = {
        "ratings": np.asarray(rw["ratings"]).tolist(),
        "variances": np.asarray(rw["variances"]).tolist(),
        "hessian_reg": btw.hessian_reg,
        "min_pair_count": 50,
    }
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        ds2 = PairDataset.from_pandas(df)
        bt2 = BradleyTerry(n_competitors=len(ds2.competitors))
        r2 = bt2.compute_ratings_and_cis(ds2, significance_level=0.05)
        np.asarray(r2["variances"])
        times.append(time.perf_counter() - t0)
    out["arena_rank"]["fit_sandwich_seconds"] = times
    # ppi-python: the plain (lam=1) and the power-tuned (lam=None) interval of a mean
    j = synthetic_judge()
    out["ppi_sha256"] = float_digest(j["Y"], j["Yhat"], j["Yhat_unlabeled"])
    ppi = {}
    for name, lam in (("plain", 1.0), ("tuned", None)):
        lo, hi = ppi_mean_ci(j["Y"], j["Yhat"], j["Yhat_unlabeled"], alpha=0.05, lam=lam)
        est = ppi_mean_pointestimate(j["Y"], j["Yhat"], j["Yhat_unlabeled"], lam=lam)
        ppi[name] = {
            "lower": float(np.ravel(lo)[0]),
            "upper": float(np.ravel(hi)[0]),
            "estimate": float(np.ravel(est)[0]),
        }
    out["ppi"] = ppi
    dest = ROOT / "tests" / "data" / "battles" / "peers.json"
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {dest}")


# the bootstrap comparison: a smaller set (each peer refits B times), the peers' battle bootstraps of B resamples
BOOT_SET = {"seed": 20261129, "n_models": 8, "n_battles": 4000, "n_judges": 25}
BOOT_B = 1000


def bootstrap_peers() -> None:
    """evalica's and arena-rank's bootstrap (resampling battles) of the ratings on BOOT_SET: the 2.5% and 97.5%
    percentiles on the Elo scale 1000 + 400·θ/ln 10 with Σθ = 0 in every resample (arena-rank's ratings are
    centred by its fit from zeros; evalica's scores π are taken as θ = ln π − mean ln π per resample)."""
    import evalica
    import pandas as pd
    from arena_rank.models.bradley_terry import BradleyTerry
    from arena_rank.utils.data_utils import PairDataset

    d = synthetic_battles(**BOOT_SET)
    a, b, o = d["a"], d["b"], d["outcome"]
    m = BOOT_SET["n_models"]
    names = [f"m{i:02d}" for i in range(m)]
    fac = 400.0 / np.log(10.0)
    out: dict = {
        "command": "/work/peerenv-battles/bin/python scripts/battles_peers.py --bootstrap",
        "python": platform.python_version(),
        "versions": {p: md.version(p) for p in ("evalica", "arena-rank", "jax", "scipy", "numpy")},
        "data": {**BOOT_SET, "tie_rate": 0.15},
        "battles_sha256": digest(a, b, o, d["judge"]),
        "models": names,
        "B": BOOT_B,
        "level": 0.95,
    }
    wmap = {0: evalica.Winner.X, 1: evalica.Winner.Y, 2: evalica.Winner.Draw}
    t0 = time.perf_counter()
    r = evalica.bootstrap(
        evalica.bradley_terry,
        [names[i] for i in a],
        [names[i] for i in b],
        [wmap[int(x)] for x in o],
        n_resamples=BOOT_B,
        bootstrap_method="percentile",
        random_state=1,
    )
    dist = np.log(r.distribution[names].to_numpy(dtype=float))
    dist = 1000.0 + fac * (dist - dist.mean(axis=1, keepdims=True))
    out["evalica"] = {
        "lower": np.quantile(dist, 0.025, axis=0).tolist(),
        "upper": np.quantile(dist, 0.975, axis=0).tolist(),
        "sd": dist.std(axis=0, ddof=1).tolist(),
        "seconds": time.perf_counter() - t0,
        "call": "evalica.bootstrap(evalica.bradley_terry, ..., n_resamples=B, bootstrap_method='percentile', "
        "random_state=1); percentiles (numpy's default) of its distribution, centred log scores",
    }
    df = pd.DataFrame({"model_a": [names[i] for i in a], "model_b": [names[i] for i in b]})
    df["winner"] = [WINNERS[int(x)] for x in o]
    ds = PairDataset.from_pandas(df)
    assert ds.competitors == names
    # arena-rank's compute_ratings_and_cis(ci_method="bootstrap") forks a multiprocessing pool, which deadlocked
    # under JAX here (its warning: "os.fork() ... will likely lead to a deadlock"); its own steps run serially:
    # the fit, the multinomial counts of its PRNG key, its fit_single_bootstrap_sample, its quantiles
    import jax
    import jax.numpy as jnp
    from arena_rank.models.bradley_terry import fit_single_bootstrap_sample

    t0 = time.perf_counter()
    model = BradleyTerry(n_competitors=m)
    model.fit(ds)
    total = jnp.sum(ds.counts)
    counts = jax.random.multinomial(
        key=jax.random.PRNGKey(42),
        n=int(total),
        p=ds.counts / total,
        shape=(BOOT_B, ds.counts.shape[0]),
        dtype=model.dtype,
    )
    boot = np.stack([np.asarray(fit_single_bootstrap_sample(counts[i], model, ds)["ratings"]) for i in range(BOOT_B)])
    scaled = boot * model.alpha + model.init_rating
    out["arena_rank"] = {
        "lower": np.asarray(jnp.quantile(scaled, 0.025, axis=0)).tolist(),
        "upper": np.asarray(jnp.quantile(scaled, 0.975, axis=0)).tolist(),
        "sd": scaled.std(axis=0, ddof=1).tolist(),
        "mean_of_sums": float(np.mean(boot.sum(axis=1))),
        "seconds": time.perf_counter() - t0,
        "call": "the steps of BradleyTerry.compute_ratings_and_cis(ci_method='bootstrap', seed=42) run serially "
        "(its pool deadlocked under JAX): fit, jax.random.multinomial counts, fit_single_bootstrap_sample, "
        "jnp.quantile",
    }
    dest = ROOT / "tests" / "data" / "battles" / "peers_bootstrap.json"
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {dest}")


if __name__ == "__main__":
    if "--bootstrap" in sys.argv[1:]:
        bootstrap_peers()
    else:
        main()
