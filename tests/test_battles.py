"""Battle files, Bradley–Terry ratings, their standard errors and win rates.

References: choix's and evalica's maximum-likelihood fits and arena-rank's sandwich intervals on the same
synthetic battles (tests/_battles_data.py, seed fixed), run by scripts/battles_peers.py in the peers' own
environment; their outputs, versions and command are in tests/data/battles/peers.json. Closed forms for two
models; a numpy oracle of the sandwich formulas.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

import sigfast
from _battles_data import WINNERS, digest, synthetic_battles
from sigfast.cli import main
from sigfast.exceptions import FormatError, InputError, ScorerWarning
from sigfast.formats.battles import read_battles

DATA = Path(__file__).parent / "data" / "battles"
PEERS = json.loads((DATA / "peers.json").read_text())
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "preference" / "arena_hard_auto_judge_battles"
FAC = 400 / math.log(10)


@pytest.fixture(scope="module")
def synthetic() -> dict:
    d = synthetic_battles()
    assert digest(d["a"], d["b"], d["outcome"], d["judge"]) == PEERS["battles_sha256"], "the generator drifted"
    names = PEERS["models"]
    cols = {
        "model_a": [names[i] for i in d["a"]],
        "model_b": [names[i] for i in d["b"]],
        "winner": [WINNERS[o] for o in d["outcome"]],
        "judge": d["judge"].tolist(),
    }
    return {"cols": cols, "data": d}


def test_synthetic_set_is_big_enough(synthetic: dict) -> None:
    d = synthetic["data"]
    assert len(PEERS["models"]) >= 20 and len(d["a"]) >= 50_000 and (d["outcome"] == 2).sum() > 5000


@pytest.mark.parametrize("peer", ["choix_theta", "evalica_theta"])
def test_ratings_equal_choix_and_evalica(synthetic: dict, peer: str) -> None:
    r = sigfast.bradley_terry(synthetic["cols"])
    assert r.models == tuple(PEERS["models"])
    assert np.max(np.abs(FAC * (r.theta - np.array(PEERS[peer])))) < 1e-6  # Elo points
    # the default scale: mean rating 1000
    assert abs(r.rating.mean() - 1000) < 1e-9


def test_sandwich_equals_arena_rank(synthetic: dict) -> None:
    ar = PEERS["arena_rank"]
    r = sigfast.bradley_terry(synthetic["cols"], ridge=ar["hessian_reg"] * ar["n_battles"])
    assert np.max(np.abs(r.se_sandwich**2 / np.array(ar["variances"]) - 1)) < 1e-6
    # arena-rank's ratings come from L-BFGS stopped at its tolerances: equal to 1e-3 Elo
    assert np.max(np.abs(r.rating - np.array(ar["ratings"]))) < 1e-3
    # without the ridge sigfast's sandwich differs from arena-rank's by the ridge's share only
    r0 = sigfast.bradley_terry(synthetic["cols"])
    rel = np.abs(r0.se_sandwich**2 / np.array(ar["variances"]) - 1)
    assert 1e-5 < rel.max() < 1e-2


def _oracle(cols: dict, cluster: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """numpy oracle: ratings by scipy's optimiser, then H⁺, H⁺GH⁺ per battle and per cluster."""
    from scipy.optimize import minimize

    models = sorted(set(cols["model_a"]) | set(cols["model_b"]))
    ix = {m: i for i, m in enumerate(models)}
    a = np.array([ix[m] for m in cols["model_a"]])
    b = np.array([ix[m] for m in cols["model_b"]])
    y = np.array([{"model_a": 1.0, "model_b": 0.0}.get(w, 0.5) for w in cols["winner"]])
    m = len(models)
    X = np.zeros((len(a), m))
    X[np.arange(len(a)), a] = 1
    X[np.arange(len(a)), b] = -1

    def nll(t: np.ndarray) -> float:
        d = X @ t
        return float(-np.sum(y * d - np.logaddexp(0, d)))

    def grad(t: np.ndarray) -> np.ndarray:
        p = 1 / (1 + np.exp(-(X @ t)))
        return -(X.T @ (y - p))

    t = minimize(nll, np.zeros(m), jac=grad, method="BFGS", options={"gtol": 1e-12}).x
    t -= t.mean()
    p = 1 / (1 + np.exp(-(X @ t)))
    H = (X * (p * (1 - p))[:, None]).T @ X
    Hp = np.linalg.pinv(H)
    S = X * (y - p)[:, None]
    G = S.T @ S
    if cluster is not None:
        keys = np.unique(np.array(cols[cluster]), return_inverse=True)[1]
        Sc = np.zeros((keys.max() + 1, m))
        np.add.at(Sc, keys, S)
        g = Sc.shape[0]
        Gc = Sc.T @ Sc * g / (g - 1)
    else:
        Gc = G
    return t, Hp, Hp @ G @ Hp, Hp @ Gc @ Hp


def test_standard_errors_equal_a_numpy_oracle() -> None:
    rows = [json.loads(x) for x in (DATA / "arena.jsonl").read_text().splitlines()]
    cols = {k: [r[k] for r in rows] for k in ("model_a", "model_b", "winner", "judge")}
    r = sigfast.bradley_terry(cols, cluster="judge", se="cluster")
    t, Hp, sw, cl = _oracle(cols, "judge")
    assert np.allclose(r.theta, t, atol=1e-6)
    assert np.allclose(r.se_model, FAC * np.sqrt(np.diag(Hp)), rtol=1e-6)
    assert np.allclose(r.se_sandwich, FAC * np.sqrt(np.diag(sw)), rtol=1e-6)
    assert np.allclose(r.se_cluster, FAC * np.sqrt(np.diag(cl)), rtol=1e-6)
    assert np.allclose(r.se, r.se_cluster)
    # anchored: the SE of θ_i − θ_anchor
    ra = sigfast.bradley_terry(cols, anchor="beta", se="model")
    j = ra.models.index("beta")
    want = FAC * np.sqrt(np.diag(Hp) + Hp[j, j] - 2 * Hp[:, j])
    assert np.allclose(ra.se, want, rtol=1e-6, atol=1e-9) and ra.se[j] == 0 and ra.rating[j] == 1000


def test_two_models_closed_form_and_davidson() -> None:
    cols = {"model_a": ["x"] * 10, "model_b": ["y"] * 10, "winner": ["model_a"] * 6 + ["tie"] * 2 + ["model_b"] * 2}
    r = sigfast.bradley_terry(cols, anchor="y")
    assert r.rating[0] == pytest.approx(1000 + FAC * math.log(7 / 3), abs=1e-9)
    rd = sigfast.bradley_terry(cols, anchor="y", ties="davidson")
    # Davidson, two models: π_x/π_y = W_x/W_y, ν = T/sqrt(W_x W_y)
    assert rd.rating[0] == pytest.approx(1000 + FAC * math.log(3), abs=1e-9)
    assert rd.nu == pytest.approx(2 / math.sqrt(12), rel=1e-9)
    p = rd.win_probability()
    assert p[0, 1] + p[1, 0] == pytest.approx(1.0)


def test_ranks_follow_fastchats_rule(synthetic: dict) -> None:
    r = sigfast.bradley_terry(synthetic["cols"], cluster="judge", se="cluster")
    for i in range(len(r.models)):
        assert r.rank[i] == 1 + sum(r.lower[j] > r.upper[i] for j in range(len(r.models)))
    assert r.rank.min() == 1 and list(r.tier[r.order()]) == sorted(r.tier)


def test_models_with_only_wins_or_losses_get_a_one_sided_interval() -> None:
    cols = {
        "model_a": ["a", "a", "b", "top", "top", "c", "bottom"],
        "model_b": ["b", "b", "c", "a", "c", "a", "b"],
        "winner": ["model_a", "model_b", "tie", "model_a", "model_a", "model_b", "model_b"],
    }
    with pytest.warns(ScorerWarning) as rec:
        r = sigfast.bradley_terry(cols)
    msgs = sorted(str(w.message) for w in rec)
    assert msgs[0].startswith("model 'bottom' only lost") and msgs[1].startswith("model 'top' only won")
    i, j = r.models.index("top"), r.models.index("bottom")
    assert r.status[i] == "only wins" and r.status[j] == "only losses"
    assert np.isnan(r.rating[i]) and r.upper[i] == np.inf and np.isfinite(r.lower[i])
    assert r.lower[j] == -np.inf and np.isfinite(r.upper[j])
    assert r.rank[i] == 1 and r.to_dict()["models"][i]["upper"] is None
    assert len(r.warnings) == 2


@pytest.mark.parametrize("name", ["arena.jsonl", "arena.json", "arena.csv", "arena.parquet", "kaggle.csv"])
def test_every_layout_reads_the_same_table(name: str) -> None:
    if name.endswith("parquet"):
        pytest.importorskip("pyarrow")
    t = read_battles(DATA / name)
    ref = read_battles(DATA / "arena.jsonl")
    assert t.models == ref.models and t.n_battles == 40
    assert np.array_equal(t.pair_counts(), ref.pair_counts())


def test_cluster_and_weight_fields() -> None:
    t = read_battles(DATA / "arena.jsonl", cluster="judge", weight="weight")
    rows = [json.loads(x) for x in (DATA / "arena.jsonl").read_text().splitlines()]
    assert len(t.clusters) == 3 and t.w.sum() == pytest.approx(sum(r["weight"] for r in rows))
    assert t.w2.sum() == pytest.approx(sum(r["weight"] ** 2 for r in rows))


def test_arena_hard_judgments_follow_show_result() -> None:
    """show_result.py: game 2 (model as A) scores label_to_score[label], game 1 (baseline as A) 1 − that,
    strong verdicts 3 times; the model's mean score is its win rate."""
    recs = [json.loads(x) for x in (DATA / "judgments.jsonl").read_text().splitlines()]
    score = {"A>B": [1], "A>>B": [1] * 3, "A=B": [0.5], "B>A": [0], "B>>A": [0] * 3}
    want: dict[str, list[float]] = {}
    for r in recs:
        s = score[r["games"][1]["score"]] + [1 - x for x in score[r["games"][0]["score"]]]
        want.setdefault(r["model"], []).extend(s)
    wr = sigfast.win_rates(DATA / "judgments.jsonl", "base")
    for m, v in want.items():
        assert wr.rate[wr.models.index(m)] == pytest.approx(np.mean(v), abs=1e-12)
    t1 = read_battles(DATA / "judgments.jsonl", strong=1)
    assert t1.n_battles == 2 * len(recs)


def test_shared_arena_hard_battles_counts_and_clusters() -> None:
    if not SHARED.is_dir():
        pytest.skip("shared/data is not beside the checkout")
    t = read_battles(SHARED / "arena_hard_battles.jsonl.gz", cluster="question_id")
    pc = t.pair_counts()
    base = t.models.index("claude-3-haiku-20240307")
    sonnet = t.models.index("claude-3-5-sonnet-20240620")
    assert tuple(pc[sonnet, base]) == (414, 38, 8)  # SOURCE.md's counts
    assert t.n_battles == 1348 and len(t.clusters) == 100
    r = sigfast.bradley_terry(t, se="cluster", anchor="claude-3-haiku-20240307")
    fitted = [i for i in range(4) if i != base]
    assert (r.design_effect[fitted] > 2).all()  # one prompt's 2–6 rows are far from independent


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


BAD = {
    "unknown winner": (
        '{"model_a":"a","model_b":"b","winner":"model_a"}\n{"model_a":"a","model_b":"b","winner":"A"}\n',
        {},
        2,
        "unknown winner 'A'",
    ),
    "plays itself": (
        '{"model_a":"a","model_b":"b","winner":"tie"}\n\n{"model_a":"a","model_b":"a","winner":"tie"}\n',
        {},
        3,
        "plays itself",
    ),
    "missing column": (
        '{"model_a":"a","model_b":"b","winner":"tie"}\n{"model_a":"a","winner":"tie"}\n',
        {},
        2,
        "no field 'model_b'",
    ),
    "cluster missing": (
        '{"model_a":"a","model_b":"b","winner":"tie","judge":"x"}\n{"model_a":"a","model_b":"b","winner":"tie"}\n',
        {"cluster": "judge"},
        2,
        "no field 'judge'",
    ),
    "cluster empty": (
        '{"model_a":"a","model_b":"b","winner":"tie","judge":"x"}\n{"model_a":"a","model_b":"b","winner":"tie","judge":null}\n',
        {"cluster": "judge"},
        2,
        "cluster field 'judge' is empty",
    ),
    "nan weight": (
        '{"model_a":"a","model_b":"b","winner":"tie","w":1}\n{"model_a":"a","model_b":"b","winner":"tie","w":NaN}\n',
        {"weight": "w"},
        2,
        "finite number",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_battle_files_name_the_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, opts, line, msg = BAD[case]
    p = _write(tmp_path, "b.jsonl", text)
    with pytest.raises(FormatError, match=msg) as e:
        read_battles(p, **opts)
    assert e.value.line == line
    argv = ["rate", str(p)] + [x for k, v in opts.items() for x in ("-o", f"{k}={v}")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f", line {line}: " in err and msg.split("'")[0] in err


def test_bad_csv_and_json_array_name_the_line(tmp_path: Path) -> None:
    p = _write(tmp_path, "b.csv", "model_a,model_b,winner,w\na,b,tie,1\na,b,tie,nan\n")
    with pytest.raises(FormatError, match="finite") as e:
        read_battles(p, weight="w")
    assert e.value.line == 3
    p = _write(
        tmp_path,
        "b.json",
        '[\n {"model_a":"a","model_b":"b","winner":"tie"},\n {"model_a":"a","model_b":"b","winner":"x"}\n]\n',
    )
    with pytest.raises(FormatError, match="unknown winner") as e:
        read_battles(p)
    assert e.value.line == 3
    p = _write(tmp_path, "k.csv", "model_a,model_b,winner_model_a,winner_model_b,winner_tie\na,b,1,1,0\n")
    with pytest.raises(FormatError, match="exactly one 1") as e:
        read_battles(p)
    assert e.value.line == 2


def test_api_errors() -> None:
    cols = {"model_a": ["a", "b"], "model_b": ["b", "a"], "winner": ["model_a", "model_a"]}
    with pytest.raises(InputError, match="needs a cluster field"):
        sigfast.bradley_terry(cols, se="cluster")
    with pytest.raises(InputError, match="anchor"):
        sigfast.bradley_terry(cols, anchor="zzz")
    with pytest.raises(InputError, match="battle 2: model 'a' plays itself"):
        sigfast.bradley_terry({"model_a": ["a", "a"], "model_b": ["b", "a"], "winner": ["tie", "tie"]})
    with pytest.raises(InputError, match="Davidson"):
        sigfast.bradley_terry(cols, ties="davidson")


@pytest.mark.parametrize("style", ["--json", "--csv", "--markdown", "--latex", None])
def test_rate_cli_styles(style: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rate", str(DATA / "arena.jsonl"), "--cluster", "judge", "--se", "cluster", "--anchor", "alpha"]
    argv += ["--baseline", "alpha"] + ([style] if style else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    if style == "--json":
        d = json.loads(out)[0]
        assert d["anchor"] == "alpha" and d["se_method"] == "cluster" and "win_rates" in d
        assert "se:cluster" in d["signature"] and "cluster=judge" in d["signature"]
    elif style is None:
        assert "Bradley–Terry ratings" in out and "test:bradley_terry|variant:half" in out and "se:cluster" in out


def test_gzip_input(tmp_path: Path) -> None:
    p = tmp_path / "b.jsonl.gz"
    p.write_bytes(gzip.compress((DATA / "arena.jsonl").read_bytes()))
    assert read_battles(p).n_battles == 40


def test_davidson_equals_a_scipy_maximum_likelihood_fit() -> None:
    from scipy.optimize import minimize

    rows = [json.loads(x) for x in (DATA / "arena.jsonl").read_text().splitlines()]
    cols = {k: [r[k] for r in rows] for k in ("model_a", "model_b", "winner")}
    r = sigfast.bradley_terry(cols, ties="davidson", se="model")
    ix = {m: i for i, m in enumerate(r.models)}
    a = np.array([ix[x] for x in cols["model_a"]])
    b = np.array([ix[x] for x in cols["model_b"]])
    o = np.array([{"model_a": 0, "model_b": 1}.get(w, 2) for w in cols["winner"]])

    def nll(p: np.ndarray) -> float:
        t = np.append(p[:-1], -p[:-1].sum())  # Σθ = 0
        ln = p[-1]
        la, lb, lt = t[a], t[b], ln + (t[a] + t[b]) / 2
        lse = np.logaddexp(np.logaddexp(la, lb), lt)
        return float(-np.sum(np.choose(o, [la, lb, lt]) - lse))

    res = minimize(nll, np.zeros(len(r.models)), method="BFGS", options={"gtol": 1e-10})
    t = np.append(res.x[:-1], -res.x[:-1].sum())
    assert np.allclose(r.theta, t, atol=1e-5) and r.nu == pytest.approx(math.exp(res.x[-1]), rel=1e-5)
    assert r.loglik == pytest.approx(-res.fun, abs=1e-8)
    # the win-probability matrix is P(win) + P(tie)/2 and sums to 1 over a pair
    p = r.win_probability()
    off = ~np.eye(len(p), dtype=bool)
    assert np.allclose((p + p.T)[off], 1.0)


def test_json_output_has_the_win_probability_matrix() -> None:
    rows = [json.loads(x) for x in (DATA / "arena.jsonl").read_text().splitlines()]
    cols = {k: [r[k] for r in rows] for k in ("model_a", "model_b", "winner")}
    r = sigfast.bradley_terry(cols)
    d = r.to_dict()
    m = np.array(d["win_probability"], dtype=float)
    assert m.shape == (4, 4) and np.isnan(np.diag(m)).all()
    i, j = 0, 1
    assert m[i, j] == pytest.approx(1 / (1 + math.exp(-(r.theta[i] - r.theta[j]))))


def test_weighted_sandwich_equals_arena_rank_reweighted(synthetic: dict) -> None:
    """arena-rank's reweighted=True: each row weighted 1/max(its pair's count, 50); its ridge is then
    hessian_reg itself (1e-5, not × the battles). Equal within 1e-5 relative, not 1e-6: with a ridge of 1e-5
    against an information of about 4, arena-rank's H⁻¹GH⁻¹ amplifies the rounding of G along the ratings' null
    direction by 1/ridge²; its own formula evaluated in float64 numpy at its own ratings differs from its output
    by 1.4e-6 relative (measured with arena-rank 0.1.1, JAX 0.8.1). sigfast projects that direction out."""
    d = synthetic["data"]
    ar = PEERS["arena_rank_reweighted"]
    lo, hi = np.minimum(d["a"], d["b"]), np.maximum(d["a"], d["b"])
    key = lo * 100 + hi
    _, inv, cnt = np.unique(key, return_inverse=True, return_counts=True)
    cols = dict(synthetic["cols"], w=(1.0 / np.maximum(cnt[inv], ar["min_pair_count"])).tolist())
    r = sigfast.bradley_terry(cols, weight="w", ridge=ar["hessian_reg"])
    assert np.max(np.abs(r.se_sandwich**2 / np.array(ar["variances"]) - 1)) < 1e-5
    assert np.max(np.abs(r.rating - np.array(ar["ratings"]))) < 1e-3


def test_rate_cli_on_arena_hard_judgments_with_davidson(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rate", str(DATA / "judgments.jsonl"), "-o", "cluster=uid", "--se", "cluster", "--ties", "davidson"]
    assert main([*argv, "--anchor", "base", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["ties"] == "davidson" and d["nu"] > 0 and d["n_clusters"] == 12 and d["n_battles"] == 80
    r = sigfast.bradley_terry(DATA / "judgments.jsonl", cluster="uid", se="cluster", ties="davidson", anchor="base")
    assert [m["rating"] for m in d["models"]] == pytest.approx(list(r.rating), abs=1e-9)


# ---- the bootstrap (resamples of battles or of clusters, refitted on the summed count tables)


def _bt_fit_scipy(table: np.ndarray) -> np.ndarray:
    """Ties-half Bradley–Terry by scipy.optimize.root on the score equations (θ of the last model held at 0),
    then centred: an oracle independent of sigfast's Newton. ``table``: (models × models × 3) counts by the cell
    convention (a, b, outcome)."""
    from scipy.optimize import root

    m = table.shape[0]
    ia, ib = np.nonzero(table.sum(axis=2))
    wa, wb, wt = table[ia, ib, 0], table[ia, ib, 1], table[ia, ib, 2]
    y = wa + 0.5 * wt  # a's (half-)wins
    n = wa + wb + wt

    def full(x: np.ndarray) -> np.ndarray:
        return np.append(x, 0.0)

    def grad(x: np.ndarray) -> np.ndarray:
        t = full(x)
        p = 1.0 / (1.0 + np.exp(-(t[ia] - t[ib])))
        g = np.zeros(m)
        np.add.at(g, ia, y - n * p)
        np.add.at(g, ib, -(y - n * p))
        return g[:-1]

    def hess(x: np.ndarray) -> np.ndarray:
        t = full(x)
        p = 1.0 / (1.0 + np.exp(-(t[ia] - t[ib])))
        v = n * p * (1 - p)
        h = np.zeros((m, m))
        np.add.at(h, (ia, ia), -v)
        np.add.at(h, (ib, ib), -v)
        np.add.at(h, (ia, ib), v)
        np.add.at(h, (ib, ia), v)
        return h[:-1, :-1]

    sol = root(grad, np.zeros(m - 1), jac=hess, method="hybr", options={"xtol": 1e-14})
    assert sol.success
    t = full(sol.x)
    return t - t.mean()


def _small_battles(seed: int = 5) -> dict:
    rng = np.random.default_rng(seed)
    m, n = 6, 3000
    strength = np.linspace(-1, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    judge = rng.integers(0, 40, n)
    p = 1 / (1 + np.exp(-(strength[a] - strength[b])))
    u = rng.random(n)
    outcome = np.where(u < 0.15, 2, np.where(u < 0.15 + 0.85 * p, 0, 1))
    names = [f"m{i}" for i in range(m)]
    return {
        "model_a": [names[i] for i in a],
        "model_b": [names[i] for i in b],
        "winner": [WINNERS[o] for o in outcome],
        "judge": [f"j{j:02d}" for j in judge],
    }


@pytest.mark.parametrize("by_cluster", [True, False])
def test_bootstrap_equals_a_scipy_refit_of_the_same_draws(by_cluster: bool) -> None:
    from sigfast import _native
    from sigfast.inference.ratings import battle_table

    cols = _small_battles()
    B, seed = 5, 99
    r = sigfast.bradley_terry(cols, cluster="judge", bootstrap=B, seed=seed, cluster_bootstrap=by_cluster)
    t = battle_table(cols, cluster="judge")
    m = len(t.models)
    for b in range(B):
        table = np.zeros((m, m, 3))
        if by_cluster:
            g = len(t.clusters)
            k = np.bincount(np.asarray(_native.item_indices(g, _native.Job(seed, 1, b)))[0], minlength=g)
            np.add.at(table, (t.a, t.b, t.outcome), k[t.cluster] * t.w)
        else:
            cum = np.cumsum(t.w.astype(np.int64))
            idx = np.asarray(_native.item_indices(int(cum[-1]), _native.Job(seed, 1, b)))[0]
            cell = np.searchsorted(cum, idx, side="right")
            np.add.at(table, (t.a[cell], t.b[cell], t.outcome[cell]), 1.0)
        want = 1000 + FAC * _bt_fit_scipy(table)
        assert np.max(np.abs(r.bootstrap.draws[b] - want)) < 1e-6  # Elo points
    assert r.bootstrap.scheme == (f"clusters({t.cluster_field})" if by_cluster else "battles")
    sig = r.bootstrap.signature
    assert f"B:{B}" in sig and f"seed:{seed}" in sig and "stream:" in sig and "scheme:" in sig


def test_bootstrap_is_the_same_bytes_for_any_thread_count() -> None:
    cols = _small_battles(7)
    runs = [
        sigfast.bradley_terry(cols, cluster="judge", bootstrap=300, seed=1, n_threads=k, cluster_bootstrap=c)
        for c in (True, False)
        for k in (1, 2)
    ]
    assert runs[0].bootstrap.draws.tobytes() == runs[1].bootstrap.draws.tobytes()
    assert runs[2].bootstrap.draws.tobytes() == runs[3].bootstrap.draws.tobytes()
    assert runs[0].bootstrap.draws.tobytes() != runs[2].bootstrap.draws.tobytes()
    bt = runs[0].bootstrap
    assert bt.failed == 0 and not bt.not_rated.any() and abs(bt.p_rank1.sum() - 1) < 1e-12


def test_cluster_bootstrap_is_wider_than_the_battle_bootstrap_on_arena_hard() -> None:
    path = SHARED / "arena_hard_battles.jsonl.gz"
    rows = sigfast.bradley_terry(path, cluster="question_id", bootstrap=1000, seed=2, cluster_bootstrap=False)
    cl = sigfast.bradley_terry(path, cluster="question_id", bootstrap=1000, seed=2)
    wr = rows.bootstrap.upper - rows.bootstrap.lower
    wc = cl.bootstrap.upper - cl.bootstrap.lower
    assert np.all(wc > wr)
    # the battle bootstrap agrees with the sandwich interval, the cluster bootstrap with the cluster sandwich
    assert np.allclose(wr, 2 * 1.959964 * rows.se_sandwich, rtol=0.2)
    assert np.allclose(wc, 2 * 1.959964 * cl.se_cluster, rtol=0.25)


def test_bootstrap_reports_models_it_cannot_rate() -> None:
    # m2 won its only battle against m0 in some clusters: a cluster resample can leave it with only wins
    cols = {
        "model_a": ["m0", "m1", "m0", "m1", "m2", "m2", "m0"],
        "model_b": ["m1", "m0", "m1", "m0", "m0", "m1", "m2"],
        "winner": ["model_a", "model_a", "model_b", "tie", "model_a", "model_b", "model_a"],
        "q": ["1", "2", "3", "4", "5", "6", "7"],
    }
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = sigfast.bradley_terry(cols, cluster="q", bootstrap=200, seed=3)
    bt = r.bootstrap
    said = [str(w.message) for w in caught if issubclass(w.category, ScorerWarning)]
    assert any("'m2' could not be rated in" in w for w in said)
    assert any(f"{bt.failed} of 200 bootstrap resamples could rate no two models" in w for w in said)
    assert bt.failed > 0 and bt.not_rated[2] > bt.failed
    # never a percentile of infinities: the draws are finite or NaN, the interval over the rated resamples
    assert not np.isinf(bt.draws).any() and np.isfinite(bt.lower).all()
    assert list(r.warnings)[-1] == said[-1]
    with pytest.raises(InputError, match="positive number"):
        sigfast.bradley_terry(cols, bootstrap=-1)
    with pytest.raises(InputError, match="needs a cluster field"):
        sigfast.bradley_terry(cols, bootstrap=10, cluster_bootstrap=True)


def test_rate_cli_bootstrap_equals_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    path = SHARED / "arena_hard_battles.jsonl.gz"
    argv = ["rate", str(path), "--cluster", "question_id", "--bootstrap", "200", "--seed", "7", "--threads", "2"]
    assert main([*argv, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]["bootstrap"]
    api = sigfast.bradley_terry(path, cluster="question_id", bootstrap=200, seed=7).bootstrap
    assert d["signature"] == api.signature and "B:200|seed:7" in d["signature"]
    assert [m["lower"] for m in d["models"]] == [float(x) for x in api.lower]
    assert [m["p_rank1"] for m in d["models"]] == [float(x) for x in api.p_rank1]
    with pytest.raises(SystemExit) as e:
        main(["rate", str(path), "--bootstrap", "0"])
    assert e.value.code == 2


# ---- rank intervals (FastChat's rule) and significance groups from any of the intervals


def test_rank_intervals_follow_fastchats_rule() -> None:
    from sigfast.inference.ratings import rank_intervals

    lower = np.array([10.0, 8.0, 1.0, 0.5, np.nan])
    upper = np.array([12.0, 11.0, 3.0, 9.0, np.nan])
    best, worst = rank_intervals(lower, upper)
    # a direct reading of the rule: 1 + #{j: lower_j > upper_i}; #{j: upper_j >= lower_i}
    for i in range(4):
        assert best[i] == 1 + sum(lower[j] > upper[i] for j in range(4))
        assert worst[i] == sum(upper[j] >= lower[i] for j in range(4)) + 1  # the unknown model may be above
    assert list(best) == [1, 1, 3, 2, 1] and list(worst) == [3, 4, 5, 5, 5]


def test_ranks_and_groups_from_the_bootstrap_and_every_interval(capsys: pytest.CaptureFixture[str]) -> None:
    from sigfast.inference.ratings import rank_intervals

    cols = _small_battles(11)
    r = sigfast.bradley_terry(cols, cluster="judge", se="cluster", bootstrap=400, seed=4)
    bt = r.bootstrap
    assert (r.ranks("bootstrap")[0] == bt.rank).all() and (r.ranks("bootstrap")[1] == bt.worst_rank).all()
    assert (r.ranks()[0] == r.rank).all() and (r.ranks("cluster")[0] == r.rank).all()
    z = 1.959963984540054
    for kind, se in (("model", r.se_model), ("sandwich", r.se_sandwich)):
        want = rank_intervals(r.rating - z * se, r.rating + z * se)
        assert all((x == y).all() for x, y in zip(r.ranks(kind), want))
    # groups: a numpy oracle of the rule (numpy's percentiles of the paired differences; the 6 models are
    # well separated, so the percentile definition does not matter here)
    order = list(np.argsort(-r.rating))
    want, cur, head = {}, 0, None
    for i in order:
        if head is not None:
            d = bt.draws[:, head] - bt.draws[:, i]
            if np.quantile(d, 0.025) > 0:
                head = None
        if head is None:
            cur, head = cur + 1, i
        want[i] = cur
    assert [want[i] for i in range(6)] == list(bt.group)
    assert bt.group.max() >= 3
    # the JSON, the CSV and the text carry them
    d = json.loads(r.format("json"))
    d = d[0] if isinstance(d, list) else d
    assert [m["rank"] for m in d["bootstrap"]["models"]] == list(bt.rank)
    assert [m["group"] for m in d["bootstrap"]["models"]] == list(bt.group)
    rows = r.rows()
    assert [x["boot_worst_rank"] for x in rows] == list(bt.worst_rank) and "boot_p_rank1" in rows[0]
    assert "ranks" in r.format("text") and "group" in r.format("text")
    with pytest.raises(InputError, match="unknown interval"):
        r.ranks("percentile")


# ---- paired test of two models' win rates against one baseline, clustered by prompt


def _paired_oracle(rows: list[dict], a: str, b: str, base: str) -> tuple[float, float]:
    """Delta method on the prompts' totals, from the raw rows: per prompt (Σ y_A, n_A, Σ y_B, n_B);
    f = T1/T2 − T3/T4; var = G · ∇fᵀ cov(totals) ∇f (numpy's covariance, ddof 1), G the prompts used."""
    pairs = [{r["model_a"], r["model_b"]} for r in rows]
    qs = sorted({r["question_id"] for r, pr in zip(rows, pairs) if base in pr and {a, b} & pr})
    k = {q: j for j, q in enumerate(qs)}
    tot = np.zeros((len(qs), 4))
    for r in rows:
        pair = {r["model_a"], r["model_b"]}
        if base not in pair or not ({a, b} & pair):
            continue
        me = a if a in pair else b
        y = 0.5 if r["winner"].startswith("tie") else float(r[r["winner"]] == me)  # r["model_a"]: the winner
        col = 0 if me == a else 2
        tot[k[r["question_id"]], col] += y
        tot[k[r["question_id"]], col + 1] += 1.0
    t = tot.sum(axis=0)
    grad = np.array([1 / t[1], -t[0] / t[1] ** 2, -1 / t[3], t[2] / t[3] ** 2])
    var = len(qs) * grad @ np.cov(tot.T) @ grad
    return t[0] / t[1] - t[2] / t[3], float(np.sqrt(var))


def test_paired_win_rate_equals_a_numpy_delta_method_oracle() -> None:
    from scipy.stats import norm

    path = SHARED / "arena_hard_battles.jsonl.gz"
    with gzip.open(path, "rt") as f:
        rows = [json.loads(line) for line in f]
    base, a, b = "claude-3-haiku-20240307", "gpt-4o", "claude-3-opus-20240229"
    d, se = _paired_oracle(rows, a, b, base)
    p = sigfast.paired_win_rate(path, a, b, base, cluster="question_id")
    assert abs(p.difference - d) < 1e-12 and abs(p.se - se) < 1e-12
    assert abs(p.pvalue - 2 * norm.sf(abs(d / se))) < 1e-12
    assert p.lower == pytest.approx(d - 1.959963984540054 * se, abs=1e-12)
    # the rates are win_rates's; pairing by prompt narrows the interval of the difference (positive covariance)
    wr = sigfast.win_rates(path, base, cluster="question_id")
    ra, rb = (wr.rate[list(wr.models).index(x)] for x in (a, b))
    sa, sb = (wr.se[list(wr.models).index(x)] for x in (a, b))
    assert p.rate_a == pytest.approx(ra, abs=1e-15) and p.rate_b == pytest.approx(rb, abs=1e-15)
    assert p.se < math.hypot(sa, sb)
    assert "paired_win_rate" in p.signature and "difference" in p.format("text")
    with pytest.raises(InputError, match="cluster field"):
        sigfast.paired_win_rate(path, a, b, base)
    with pytest.raises(InputError, match="three different"):
        sigfast.paired_win_rate(path, a, a, base, cluster="question_id")


# ---- style control: covariate-adjusted Bradley–Terry


def _style_file(path: Path, seed: int = 3) -> dict[str, np.ndarray]:
    """Battles whose outcome depends on a normalized length difference (FastChat's style feature), with the
    lengths and bold counts in conv_metadata; returns the columns for the oracle."""
    rng = np.random.default_rng(seed)
    m, n = 5, 2000
    th = np.linspace(-0.8, 0.8, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    la, lb = rng.integers(50, 800, n), rng.integers(50, 800, n)
    ba, bb = rng.integers(0, 5, n), rng.integers(0, 5, n)
    f = (la - lb) / (la + lb)
    p = 1 / (1 + np.exp(-(th[a] - th[b] + 0.8 * (f - f.mean()) / f.std())))
    u = rng.random(n)
    outcome = np.where(rng.random(n) < 0.1, 2, np.where(u < p, 0, 1))
    q = rng.integers(0, 60, n)
    with open(path, "w") as fh:
        for k in range(n):
            meta = {"len_a": int(la[k]), "len_b": int(lb[k]), "bold_a": {"**": int(ba[k]), "__": 1}}
            meta["bold_b"] = {"**": int(bb[k]), "__": 0}
            rec = {
                "model_a": f"m{a[k]}",
                "model_b": f"m{b[k]}",
                "winner": WINNERS[outcome[k]],
                "question_id": int(q[k]),
            }
            fh.write(json.dumps({**rec, "conv_metadata": meta}) + "\n")
    return {"a": a, "b": b, "outcome": outcome, "q": q, "la": la, "lb": lb, "ba": ba + 1.0, "bb": bb + 0.0}


STYLE = "conv_metadata.len_a:conv_metadata.len_b,conv_metadata.bold_a:conv_metadata.bold_b"


def test_style_control_equals_a_statsmodels_logit_of_the_same_design(tmp_path: Path) -> None:
    import statsmodels.api as sm

    d = _style_file(tmp_path / "style.jsonl")
    r = sigfast.bradley_terry(tmp_path / "style.jsonl", covariates=STYLE, cluster="question_id", anchor="m0")
    # the design: model indicators (+1 for a, −1 for b; m0 the reference), FastChat's standardized features
    n, m = len(d["a"]), 5
    x = np.zeros((n, m - 1 + 2))
    for i in range(1, m):
        x[:, i - 1] = (d["a"] == i) * 1.0 - (d["b"] == i) * 1.0
    for j, (xa, xb) in enumerate(((d["la"], d["lb"]), (d["ba"], d["bb"]))):
        f = (xa - xb) / (xa + xb)
        x[:, m - 1 + j] = (f - f.mean()) / f.std()
    y = np.where(d["outcome"] == 2, 0.5, np.where(d["outcome"] == 0, 1.0, 0.0))
    model = sm.Logit(y, x)
    fit = model.fit(method="newton", tol=1e-14, maxiter=100, disp=0)
    hc0 = model.fit(method="newton", tol=1e-14, maxiter=100, disp=0, cov_type="HC0")
    cl = model.fit(method="newton", tol=1e-14, maxiter=100, disp=0, cov_type="cluster", cov_kwds={"groups": d["q"]})
    # ratings relative to m0, on the Elo scale; the style coefficients on the logit scale
    assert np.max(np.abs((r.rating[1:] - 1000) - FAC * fit.params[: m - 1])) < 1e-6
    assert np.max(np.abs(r.coef - fit.params[m - 1 :])) < 1e-9
    k = x.shape[1]
    for ours, theirs in (
        (np.append(r.se_model[1:] / FAC, r.coef_se_model), fit.bse),
        (np.append(r.se_sandwich[1:] / FAC, r.coef_se_sandwich), hc0.bse),
        # statsmodels' cluster covariance carries (N − 1)/(N − K) beside G/(G − 1); sigfast's only G/(G − 1)
        (np.append(r.se_cluster[1:] / FAC, r.coef_se_cluster), cl.bse * math.sqrt((n - k) / (n - 1))),
    ):
        assert np.max(np.abs(ours / theirs - 1)) < 1e-6
    rows = r.coefficient_rows()
    assert [c["covariate"] for c in rows] == STYLE.split(",")
    assert "covariates=" in r.signature and "Style control" in r.format("text")
    d = json.loads(r.format("json"))
    d = d[0] if isinstance(d, list) else d
    assert d["style"][0]["coef"] == pytest.approx(r.coef[0], abs=1e-15)


def test_style_control_errors_name_the_problem(tmp_path: Path) -> None:
    _style_file(tmp_path / "s.jsonl")
    with pytest.raises(FormatError, match="no covariate field 'conv_metadata.nope'"):
        sigfast.bradley_terry(tmp_path / "s.jsonl", covariates="conv_metadata.nope:conv_metadata.len_b")
    with pytest.raises(InputError, match="is not FIELD_A:FIELD_B"):
        sigfast.bradley_terry(tmp_path / "s.jsonl", covariates="conv_metadata.len_a")
    with pytest.raises(InputError, match="without a ridge or a bootstrap"):
        sigfast.bradley_terry(tmp_path / "s.jsonl", covariates=STYLE, bootstrap=10)


def test_bootstrap_interval_ends_agree_with_evalica_and_arena_rank() -> None:
    """The battle bootstrap's 95% percentile ends against evalica's and arena-rank's bootstraps of the same
    battles (scripts/battles_peers.py --bootstrap), within 4 Monte-Carlo standard errors of the difference of two
    percentile estimates: sqrt(p(1 − p)) / φ(z) · sd · sqrt(1/B_peer + 1/B)."""
    from scipy.stats import norm

    peers = json.loads((DATA / "peers_bootstrap.json").read_text())
    ds = peers["data"]
    d = synthetic_battles(seed=ds["seed"], n_models=ds["n_models"], n_battles=ds["n_battles"], n_judges=ds["n_judges"])
    assert digest(d["a"], d["b"], d["outcome"], d["judge"]) == peers["battles_sha256"]
    names = peers["models"]
    cols = {
        "model_a": [names[i] for i in d["a"]],
        "model_b": [names[i] for i in d["b"]],
        "winner": [WINNERS[int(x)] for x in d["outcome"]],
    }
    B = 4000
    bt = sigfast.bradley_terry(cols, bootstrap=B, seed=5).bootstrap
    assert bt.models == tuple(names)
    sd = np.nanstd(bt.draws, axis=0, ddof=1)
    p = 0.025
    mc = math.sqrt(p * (1 - p)) / norm.pdf(norm.ppf(p)) * sd * math.sqrt(1 / peers["B"] + 1 / B)
    for peer in ("evalica", "arena_rank"):
        lo, hi = np.array(peers[peer]["lower"]), np.array(peers[peer]["upper"])
        assert np.all(np.abs(bt.lower - lo) < 4 * mc), (peer, (bt.lower - lo) / mc)
        assert np.all(np.abs(bt.upper - hi) < 4 * mc), (peer, (bt.upper - hi) / mc)
        assert np.allclose(np.array(peers[peer]["sd"]), sd, rtol=0.15)
