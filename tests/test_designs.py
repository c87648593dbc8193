"""Two-level and crossed designs (sigfast.designs, the engine's designs module): each checked against an
independent reference — the engine's sums against a plain Python loop over its exposed draws, the
bootstrap distributions against numpy implementations of the same draws and the closed-form bootstrap
variance, the variance split against a numpy ANOVA and statsmodels' MixedLM, the two-way error against
statsmodels OLS."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import _native
from sigfast.designs import crossed_standard_error, design_of, nested_variance, prompt_scores
from sigfast.exceptions import FormatError, InputError

ROOT = Path(__file__).resolve().parents[1]
LLM = ROOT / "tests" / "data" / "llm"
CROSSED = LLM / "prompt-crossed"


def _records(tmp_path: Path, name: str, rows: list[dict]) -> str:
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(p)


def _balanced(rng: np.random.Generator, n: int, k: int, sb: float, sw: float) -> np.ndarray:
    return rng.normal(0.0, sb, (n, 1)) + rng.normal(0.0, sw, (n, k))


# ----------------------------------------------------------------------------------------------
# the draws


@pytest.mark.parametrize("kind", ["two-level", "crossed"])
@pytest.mark.parametrize("stream", [1, 2])
def test_sums_are_a_loop_over_the_exposed_weights(kind: str, stream: int) -> None:
    rng = np.random.default_rng(3)
    if kind == "two-level":  # 12 items with 1..4 repeats, rows shuffled
        items = np.repeat(np.arange(12), [1, 2, 3, 4] * 3)
        second = np.concatenate([np.arange(k) for k in [1, 2, 3, 4] * 3])
    else:  # 9 items x 4 prompts
        items, second = np.repeat(np.arange(9), 4), np.tile(np.arange(4), 9)
    perm = rng.permutation(len(items))
    items, second = items[perm].astype(np.uint32), second[perm].astype(np.uint32)
    x = rng.normal(size=(len(items), 2))
    B = 40
    plan = _native.Plan(x, None, "bootstrap", kind, clusters=items, second=second)
    w, count = _native.design_weights(kind, items, second, _native.Job(5, B, 0, 1, stream=stream))
    sums, _ = _native.resample_values(plan, _native.Job(5, B, 0, 1, 2, stream=stream))
    for b in range(B):
        for c in range(2):
            acc = 0.0  # items by code; each drawn item's rows in table order, summed on their own first
            for i in range(int(items.max()) + 1):
                rows = np.flatnonzero(items == i)
                u = float(w[b, rows].sum()) / (len(rows) if kind == "two-level" else 4)  # copies drawn
                if u == 0:
                    continue
                s = 0.0
                for r in rows:  # two-level: the repeat's count; crossed: its prompt's count v_p = w / u_i
                    s = s + (float(w[b, r]) if kind == "two-level" else float(w[b, r]) / u) * float(x[r, c])
                acc = acc + (s / len(rows) if kind == "two-level" else u * s)
            assert np.float64(acc).tobytes() == np.float64(sums[b, c]).tobytes()
        if kind == "two-level":
            assert count[b] == 12
            # each drawn item's repeat counts sum to K_i per copy; the copies sum to the item count
            per_item = np.bincount(items, w[b]) / np.bincount(items)
            assert np.array_equal(per_item, np.round(per_item)) and per_item.sum() == 12
        else:
            assert count[b] == w[b].sum()
    # the same bytes on one thread, and for a later start
    one, _ = _native.resample_values(plan, _native.Job(5, B, 0, 1, 1, stream=stream))
    tail, _ = _native.resample_values(plan, _native.Job(5, 10, 30, 1, 2, stream=stream))
    assert one.tobytes() == sums.tobytes() and tail.tobytes() == sums[30:].tobytes()


def _numpy_two_level(y: np.ndarray, B: int, rng: np.random.Generator) -> np.ndarray:
    """The two-level bootstrap of the mean drawn by numpy: n items, then K repeats within each."""
    n, k = y.shape
    out = np.empty(B)
    for s in range(0, B, 1000):
        m = min(1000, B - s)
        it = rng.integers(0, n, (m, n))
        rep = rng.integers(0, k, (m, n, k))
        out[s : s + m] = y[it[:, :, None], rep].mean(axis=(1, 2))
    return out


def _numpy_crossed(y: np.ndarray, B: int, rng: np.random.Generator) -> np.ndarray:
    """The crossed bootstrap of the mean drawn by numpy: n items and P prompts, cell weight u_i v_p."""
    n, p = y.shape
    u = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(B)]).astype(float)
    v = np.stack([np.bincount(rng.integers(0, p, p), minlength=p) for _ in range(B)]).astype(float)
    return np.einsum("bi,ip,bp->b", u, y, v) / (n * p)


def _engine(y: np.ndarray, kind: str, B: int) -> np.ndarray:
    n, k = y.shape
    items = np.repeat(np.arange(n), k).astype(np.uint32)
    second = np.tile(np.arange(k), n).astype(np.uint32)
    mean = sigfast.metrics.resolve_metric("mean", None).handle
    plan = _native.Plan(y.reshape(-1, 1), mean, "bootstrap", kind, clusters=items, second=second)
    v, _ = _native.resample_values(plan, _native.Job(11, B, threads=2))
    return np.asarray(v)[:, 0]


def test_two_level_distribution_equals_numpy_and_the_closed_form() -> None:
    rng = np.random.default_rng(1)
    y = _balanced(rng, 40, 4, 1.0, 1.5)
    B = 20_000
    ours, ref = _engine(y, "two-level", B), _numpy_two_level(y, B, rng)
    n, k = y.shape
    m = y.mean(axis=1)
    # Var* = (mean_i (m_i - m)^2 + mean_i s_i^2(ddof 0) / K) / n: one drawn item's mean of K redrawn repeats
    exact = (np.mean((m - m.mean()) ** 2) + np.mean(y.var(axis=1)) / k) / n
    assert abs(ours.mean() - y.mean()) < 4 * math.sqrt(exact / B)
    for v in (ours.var(), ref.var()):  # the variance of B draws has relative sd sqrt(2/B) = 1 %
        assert abs(v / exact - 1) < 0.05
    # one-level (items only) would be visibly smaller: the repeats' part is there
    assert np.mean((m - m.mean()) ** 2) / n < 0.8 * exact


def test_crossed_distribution_equals_numpy_and_the_closed_form() -> None:
    rng = np.random.default_rng(2)
    n, p = 30, 6
    y = rng.normal(0, 1, (n, 1)) + rng.normal(0, 0.8, (1, p)) + rng.normal(0, 0.5, (n, p))
    B = 20_000
    ours, ref = _engine(y, "crossed", B), _numpy_crossed(y, B, rng)
    # Var*(u'Yv)/(nP)^2 with u ~ Mult(n, 1/n), v ~ Mult(P, 1/P) independent
    su = np.eye(n) - np.ones((n, n)) / n
    sv = np.eye(p) - np.ones((p, p)) / p
    evv = sv + np.ones((p, p))
    col = y.T @ np.ones(n)
    exact = (np.trace(su @ y @ evv @ y.T) + col @ sv @ col) / (n * p) ** 2
    assert abs(ours.mean() - y.mean()) < 4 * math.sqrt(exact / B)
    for v in (ours.var(), ref.var()):
        assert abs(v / exact - 1) < 0.05


def test_one_repeat_per_item_is_the_item_bootstrap(tmp_path: Path) -> None:
    # 0/1 scores: sums are exact in any order, so the two-level scheme with one run per item draws the items
    # exactly as the item bootstrap does (the same stream) and gives its p-value
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 2, 80), rng.integers(0, 2, 80)
    fa = _records(tmp_path, "a.jsonl", [{"id": i, "run": 1, "score": int(v)} for i, v in enumerate(a)])
    fb = _records(tmp_path, "b.jsonl", [{"id": i, "run": 1, "score": int(v)} for i, v in enumerate(b)])
    s = sigfast.read(None, [fa, fb], format="records", run="run")
    two = sigfast.paired_bootstrap(s, resampling="two-level", n_resamples=3000, return_distribution=True)
    items = sigfast.paired_bootstrap(s, resampling="items", n_resamples=3000, return_distribution=True)
    assert np.array_equal(two.distribution, items.distribution)
    assert two.pvalue == items.pvalue and "resampling:two-level(80,1,run)" in two.signature


# ----------------------------------------------------------------------------------------------
# the front-ends


def test_two_level_on_inspect_epochs_is_paired_and_thread_free() -> None:
    logs = [str(LLM / "inspect" / f"figqa_{m}.json.gz") for m in ("alpha", "beta")]
    s = sigfast.read(None, logs, format="inspect")
    d = design_of(s, "two-level")
    assert d.n_items == 1094 and d.n_second == 2 and d.table.shape == (2188, 2)
    r1 = sigfast.paired_bootstrap(s, resampling="two-level", n_resamples=2000, n_threads=1)
    r2 = sigfast.paired_bootstrap(s, resampling="two-level", n_resamples=2000, n_threads=2)
    assert (r1.pvalue, r1.confidence_interval) == (r2.pvalue, r2.confidence_interval)
    assert r1.resampling == "two-level(1094,2,samples)"
    assert "design:" in r1.signature and r1.signature == r2.signature.replace("threads", "threads")
    iv = sigfast.bootstrap_interval(s, systems=tuple(s.systems), resampling="two-level", n_resamples=2000)
    assert iv.confidence_interval.low < r1.statistic < iv.confidence_interval.high
    # the two-level interval is wider than the items-only one (the epochs' noise is counted)
    it = sigfast.bootstrap_interval(s, systems=tuple(s.systems), resampling="items", n_resamples=2000)
    assert (iv.confidence_interval.high - iv.confidence_interval.low) > (
        it.confidence_interval.high - it.confidence_interval.low
    )


def test_designs_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    s = sigfast.read(
        None, [str(CROSSED / "alpha.jsonl"), str(CROSSED / "beta.jsonl")], format="records", prompt="prompt"
    )
    with pytest.raises(InputError, match="resampling must be one of"):
        sigfast.pairwise(s, resampling="crossed", n_resamples=100)
    lm = [str(LLM / "lm-eval-repeats" / f"dummy-seed{k}") for k in (1, 2)]
    first = sigfast.read(None, lm, format="lm-eval")  # lm-eval's value of an item is its first repeat
    with pytest.raises(InputError, match="reducer=mean"):
        sigfast.paired_bootstrap(first, resampling="two-level", n_resamples=100)
    with pytest.raises(InputError, match="two-level"):  # repeats are not crossed with anything
        sigfast.paired_bootstrap(sigfast.read(None, lm, format="lm-eval", reducer="mean"), resampling="crossed")
    plain = sigfast.read(None, [str(CROSSED / "alpha.jsonl")], format="records", sample="prompt")
    with pytest.raises(InputError, match="-o prompt="):
        prompt_scores(plain)
    # a cell missing: the crossed design needs every item under every prompt
    rows = [{"id": i, "p": p, "score": 1.0} for i in range(3) for p in "xy" if (i, p) != (2, "y")]
    f = _records(tmp_path, "m.jsonl", rows)
    with pytest.raises(InputError, match="item '2' has no prompt 'y'"):
        design_of(sigfast.read(None, [f], format="records", prompt="p"), "crossed")
    with pytest.raises(FormatError, match="item '0', p 'x' occurs twice"):
        sigfast.read(None, [_records(tmp_path, "d.jsonl", rows + rows[:1])], format="records", prompt="p")
    with pytest.raises(InputError, match="one of -o run= and -o prompt="):
        sigfast.read(None, [f], format="records", prompt="p", run="p")


def test_prompt_fields_are_matched_by_key(tmp_path: Path) -> None:
    # the second system lists its prompts in another order: matched by prompt key, not by position
    a = [{"id": i, "t": t, "score": float(i + 10 * j)} for i in range(4) for j, t in enumerate("uvw")]
    b = [{"id": i, "t": t, "score": float(i + 10 * j)} for i in range(4) for j, t in reversed(list(enumerate("uvw")))]
    s = sigfast.read(
        None, [_records(tmp_path, "a.jsonl", a), _records(tmp_path, "b.jsonl", b)], format="records", prompt="t"
    )
    ps = prompt_scores(s)
    assert ps.prompts == ("u", "v", "w") and np.array_equal(ps.scores[0], ps.scores[1])
    assert ps.wins == (0, 0, 3)
    c = [r for r in b if r["t"] != "w"] + [{"id": i, "t": "z", "score": 0.0} for i in range(4)]
    with pytest.raises(InputError, match="lacks \\['w'\\]"):
        sigfast.read(
            None, [_records(tmp_path, "a.jsonl", a), _records(tmp_path, "c.jsonl", c)], format="records", prompt="t"
        )


def test_prompt_scores_quantiles_are_numpy_quantiles() -> None:
    files = [str(CROSSED / f"{m}.jsonl") for m in ("alpha", "beta", "gamma")]
    s = sigfast.read(None, files, format="records", prompt="prompt")
    ps = prompt_scores(s)
    recs = [json.loads(ln) for ln in (CROSSED / "beta.jsonl").read_text().splitlines()]
    by = {p: np.mean([r["score"] for r in recs if r["prompt"] == p]) for p in ps.prompts}
    assert np.allclose(ps.scores[1], [by[p] for p in ps.prompts], rtol=0, atol=1e-15)
    assert np.allclose(ps.quantiles[1], np.quantile(list(by.values()), [0.05, 0.25, 0.5, 0.75, 0.95]))
    assert math.isclose(ps.sd[1], float(np.std(list(by.values()), ddof=1)))


def test_two_way_error_equals_statsmodels() -> None:
    lm = pytest.importorskip("statsmodels.regression.linear_model")
    files = [str(CROSSED / f"{m}.jsonl") for m in ("alpha", "beta")]
    s = sigfast.read(None, files, format="records", prompt="prompt")
    r = crossed_standard_error(s)
    a = [json.loads(ln) for ln in (CROSSED / "alpha.jsonl").read_text().splitlines()]
    b = [json.loads(ln) for ln in (CROSSED / "beta.jsonl").read_text().splitlines()]
    assert [(x["id"], x["prompt"]) for x in a] == [(x["id"], x["prompt"]) for x in b]
    d = np.array([y["score"] - x["score"] for x, y in zip(a, b)])
    items = np.unique([x["id"] for x in a], return_inverse=True)[1]
    prompts = np.unique([x["prompt"] for x in a], return_inverse=True)[1]
    fit = lm.OLS(d, np.ones((len(d), 1))).fit(
        cov_type="cluster", cov_kwds={"groups": np.column_stack([items, prompts])}
    )
    assert math.isclose(r.estimate, float(fit.params[0]), rel_tol=1e-12)
    assert math.isclose(r.standard_error, float(fit.bse[0]), rel_tol=1e-10)


# ----------------------------------------------------------------------------------------------
# the nested variance


def test_nested_variance_equals_a_numpy_anova() -> None:
    rng = np.random.default_rng(6)
    n, k = 50, 5
    y = _balanced(rng, n, k, 0.7, 1.0)
    nv = nested_variance(y)
    m = y.mean(axis=1)
    msb = k * np.sum((m - y.mean()) ** 2) / (n - 1)
    msw = np.sum((y - m[:, None]) ** 2) / (n * (k - 1))
    assert math.isclose(nv.within, msw, rel_tol=1e-12)
    assert math.isclose(nv.between, (msb - msw) / k, rel_tol=1e-12)
    assert math.isclose(nv.within_share, msw / msb, rel_tol=1e-12)
    assert math.isclose(nv.f_statistic, msb / msw, rel_tol=1e-12) and nv.df == (n - 1, n * (k - 1))
    from scipy import stats as st

    lo, hi = (min(1.0, st.f.ppf(q, n - 1, n * (k - 1)) / (msb / msw)) for q in (0.025, 0.975))
    assert nv.within_share_interval == pytest.approx((lo, hi), rel=1e-12)
    # Miller's formula at the design's own n and K is the variance of the item means over n
    assert math.isclose(nv.standard_error(), math.sqrt(np.var(m, ddof=1) / n), rel_tol=1e-12)
    assert math.isclose(nv.standard_error(200, 2), math.sqrt((nv.between + nv.within / 2) / 200), rel_tol=1e-15)
    k_need = nv.repeats_needed(0.12)
    assert k_need > 1 and nv.standard_error(repeats=k_need) <= 0.12 < nv.standard_error(repeats=k_need - 1)
    with pytest.raises(InputError, match="no number of repeats"):  # the items alone vary more than that
        nv.repeats_needed(0.08)
    assert nv.repeats_needed(0.08, n_items=400) == 1


def test_nested_variance_equals_statsmodels_mixedlm() -> None:
    mlm = pytest.importorskip("statsmodels.regression.mixed_linear_model")

    rng = np.random.default_rng(8)
    n, k = 40, 4
    y = _balanced(rng, n, k, 0.8, 1.0)
    fit = mlm.MixedLM(y.ravel(), np.ones((n * k, 1)), groups=np.repeat(np.arange(n), k)).fit(reml=True)
    nv = nested_variance(y)
    # balanced one-way data: REML is the ANOVA estimate (where it is positive)
    assert math.isclose(nv.between, float(np.asarray(fit.cov_re)[0, 0]), rel_tol=1e-4)
    assert math.isclose(nv.within, float(fit.scale), rel_tol=1e-4)


def test_shares_stay_in_the_unit_interval_without_an_item_effect(tmp_path: Path) -> None:
    # 3 samples per item and no item effect (the input that once gave within_item_share = 1.06)
    rng = np.random.default_rng(9)
    for seed in range(20):
        y = np.random.default_rng(seed).normal(size=(30, 3))
        nv = nested_variance(y)
        for v in (nv.within_share, *nv.within_share_interval, nv.between_share, *nv.between_share_interval):
            assert 0.0 <= v <= 1.0
    rows = [{"id": i, "s": j, "score": float(rng.integers(0, 2))} for i in range(40) for j in range(3)]
    s = sigfast.read(None, [_records(tmp_path, "r.jsonl", rows)], format="records", sample="s")
    nv = nested_variance(s)
    assert 0 <= nv.within_share <= 1 and 0 <= nv.within_share_interval[0] <= nv.within_share_interval[1] <= 1
    se = sigfast.standard_error(s)
    assert se.within_item_share is not None and 0 <= se.within_item_share <= 1


def test_readme_designs_example_runs_as_written(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The README's "Designs" example prints what its comments say (real logs: lm-eval repeats, Inspect epochs,
    the prompt-crossed records), and the crossed result warns that three prompts are few."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Designs: repeats, seeds and prompts", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(ROOT)
    ns: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), ns)
    out = capsys.readouterr().out.splitlines()
    assert out == [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    assert any("only 3 prompts" in w for w in ns["c"].warnings)  # type: ignore[attr-defined]
    assert "scripts/make_prompt_crossed.py" in section


def test_stack_matches_logs_by_item_id_and_prompt(tmp_path: Path) -> None:
    """Logs of one task under several prompts, one log per system and prompt (here per-item records with the
    items in another order in each file), matched by item id and prompt."""
    from sigfast.designs import stack

    rng = np.random.default_rng(12)
    truth = {(m, p): rng.random(20) for m in ("a", "b") for p in ("p1", "p2", "p3")}
    logs: dict[str, dict[str, sigfast.Statistics]] = {"a": {}, "b": {}}
    for (m, p), v in truth.items():
        order = rng.permutation(20)
        f = _records(tmp_path, f"{m}_{p}.jsonl", [{"id": f"q{i}", "score": float(v[i])} for i in order])
        logs[m][p] = sigfast.read(None, [f], format="records")
    s = stack(logs)
    assert s.item_ids is not None and len(s.item_ids) == 20
    back = [int(i[1:]) for i in s.item_ids]
    ps = prompt_scores(s)
    for i, m in enumerate(("a", "b")):
        assert np.allclose(s.values[i, :, 0], np.mean([truth[(m, p)][back] for p in ("p1", "p2", "p3")], axis=0))
        assert np.allclose(ps.scores[i], [truth[(m, p)].mean() for p in ps.prompts])
    r = sigfast.paired_bootstrap(s, resampling="crossed", n_resamples=500)
    assert r.resampling == "crossed(20,3,prompt)"
    fewer = _records(tmp_path, "short.jsonl", [{"id": f"q{i}", "score": 0.5} for i in range(19)])
    logs["b"]["p3"] = sigfast.read(None, [fewer], format="records")
    with pytest.raises(InputError, match="its items differ"):
        stack(logs)
    del logs["b"]["p3"]
    with pytest.raises(InputError, match="has the prompts"):
        stack(logs)


def test_a_design_plan_needs_its_codes_and_is_a_bootstrap() -> None:
    t = np.zeros((4, 1))
    items, second = np.array([0, 0, 1, 1], np.uint32), np.array([0, 1, 0, 1], np.uint32)
    for kind in ("two-level", "crossed"):
        plan = _native.Plan(t, None, "bootstrap", kind, clusters=items, second=second)
        assert np.asarray(_native.resample_values(plan, _native.Job(1, 4))[0]).shape == (4, 1)
        with pytest.raises(InputError, match="second="):
            _native.Plan(t, None, "bootstrap", kind, clusters=items)
        with pytest.raises(InputError, match="permutation test"):
            plan = _native.Plan(t, None, "permutation", kind, clusters=items, second=second)
            _native.resample_values(plan, _native.Job(1, 4))
    with pytest.raises(InputError, match="second= codes belong"):
        _native.Plan(t, None, "bootstrap", "items", second=second)
    with pytest.raises(InputError, match="'two-level' or 'crossed'"):
        _native.design_weights("items", items, second, _native.Job(1, 4))
