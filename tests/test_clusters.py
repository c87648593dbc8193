"""Cluster resampling: whole clusters drawn or swapped, checked against numpy loops over the same
draws and exact enumeration, never against sigfast itself."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import _native
from sigfast.exceptions import InputError
from sigfast.signature import parse

ROOT = Path(__file__).resolve().parent
INSPECT = ROOT / "data" / "llm" / "inspect"


def _clustered(n: int = 120, g: int = 17, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, g, n)
    keys[:g] = np.arange(g)  # every cluster used
    effect = rng.normal(0, 1, g)[keys]
    x = 0.5 + 0.3 * effect + rng.normal(0, 0.4, n)
    y = x + 0.05 + 0.2 * effect + rng.normal(0, 0.3, n)
    return x, y, keys


def _codes(keys: np.ndarray) -> np.ndarray:
    """Dense codes in order of first appearance (the order sigfast numbers clusters in)."""
    first: dict[int, int] = {}
    return np.array([first.setdefault(int(k), len(first)) for k in keys])


def _numpy_cluster_sums(table: np.ndarray, codes: np.ndarray, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The documented order: cluster rows summed in item order from 0.0; each resample adds
    count * row in cluster order, from 0.0, skipping clusters not drawn."""
    g = int(codes.max()) + 1
    rows = np.zeros((g, table.shape[1]))
    for i in range(table.shape[0]):
        rows[codes[i]] = rows[codes[i]] + table[i]
    sizes = np.bincount(codes, minlength=g)
    sums = np.empty((draws.shape[0], table.shape[1]))
    items = np.empty(draws.shape[0])
    for b, d in enumerate(draws):
        k = np.bincount(d, minlength=g)
        acc = np.zeros(table.shape[1])
        for c in range(g):
            if k[c]:
                acc = acc + float(k[c]) * rows[c]
        sums[b], items[b] = acc, float((k * sizes).sum())
    return sums, items


def test_the_cluster_bootstrap_equals_a_numpy_loop_over_the_same_cluster_draws() -> None:
    x, y, keys = _clustered()
    codes = _codes(keys)
    g = int(codes.max()) + 1
    B = 300
    r = sigfast.paired_bootstrap(x, y, clusters=keys, n_resamples=B, seed=7, return_distribution=True)
    draws = np.asarray(_native.item_indices(g, _native.Job(7, B)))
    sums, items = _numpy_cluster_sums(np.column_stack([x, y]), codes, draws)
    want = sums / items[:, None]  # the mean of the drawn clusters' items
    assert np.array_equal(r.distribution.view(np.uint64), want.view(np.uint64))
    assert r.resampling == f"clusters({g},given)" and r.n_clusters == g
    # the p-value is the Berg-Kirkpatrick count on those resamples
    d = want[:, 1] - want[:, 0]
    obs = y.mean() - x.mean()
    assert r.count == int(np.sum(d > 2 * obs)) and r.pvalue == (r.count + 1) / (B + 1)
    # the streamed pass (no stored distribution) gives the same bytes, on any thread count
    for threads in (1, 2):
        s = sigfast.paired_bootstrap(x, y, clusters=keys, n_resamples=B, seed=7, n_threads=threads)
        assert (s.pvalue, s.confidence_interval) == (r.pvalue, r.confidence_interval)


def test_counts_metric_scores_the_summed_counts_of_the_drawn_clusters() -> None:
    rng = np.random.default_rng(3)
    n, g = 90, 12
    keys = np.repeat(np.arange(g), [7, 8] * 6)[:n]
    gold = rng.integers(1, 6, n)
    guessed = rng.integers(1, 6, n)
    tp_x, tp_y = np.minimum(gold, guessed) - rng.integers(0, 2, n), np.minimum(gold, guessed)
    xs = np.column_stack([np.maximum(tp_x, 0), guessed, gold]).astype(float)
    ys = np.column_stack([tp_y, guessed, gold]).astype(float)
    B = 200
    r = sigfast.paired_bootstrap(xs, ys, metric="f1", clusters=keys, n_resamples=B, seed=1, return_distribution=True)
    draws = np.asarray(_native.item_indices(g, _native.Job(1, B)))
    sums, _ = _numpy_cluster_sums(np.column_stack([xs, ys]), _codes(keys), draws)
    f1 = lambda s: 2 * s[:, 0] / (s[:, 1] + s[:, 2])
    assert np.allclose(r.distribution[:, 0], f1(sums[:, :3]), rtol=0, atol=1e-15)
    assert np.allclose(r.distribution[:, 1], f1(sums[:, 3:]), rtol=0, atol=1e-15)


def test_singleton_clusters_are_the_item_bootstrap() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.integers(0, 2, 300).astype(float), rng.integers(0, 2, 300).astype(float)
    a = sigfast.paired_bootstrap(x, y, n_resamples=2000, seed=3, resampling="items", return_distribution=True)
    b = sigfast.paired_bootstrap(x, y, n_resamples=2000, seed=3, clusters=np.arange(300), return_distribution=True)
    assert np.array_equal(a.distribution, b.distribution) and a.pvalue == b.pvalue


def test_exact_cluster_permutation_equals_enumeration() -> None:
    rng = np.random.default_rng(11)
    g = 9
    keys = np.repeat(np.arange(g), rng.integers(1, 5, g))
    rng.shuffle(keys)
    n = len(keys)
    x = rng.normal(0.5, 0.2, n)
    y = x + rng.normal(0.1, 0.2, n)
    r = sigfast.permutation_test(x, y, clusters=keys, method="exact")
    assert r.test == "exact_permutation" and r.n_resamples == 2**g
    obs = y.mean() - x.mean()
    hits = 0
    for bits in itertools.product((False, True), repeat=g):
        swap = np.array(bits)[keys]
        d = np.where(swap, x, y).mean() - np.where(swap, y, x).mean()
        hits += abs(d) >= abs(obs) * (1 - 1e-12)
    assert r.count == hits and r.pvalue == hits / 2**g
    sig = parse(r.signature)
    assert sig["resampling"] == f"clusters({g},given)"


def test_approximate_cluster_swaps_follow_the_swap_masks() -> None:
    x, y, keys = _clustered(n=80, g=25, seed=2)
    codes = _codes(keys)
    B = 400
    r = sigfast.permutation_test(x, y, clusters=keys, method="approximate", n_resamples=B, return_distribution=True)
    masks = np.asarray(_native.swap_masks(25, _native.Job(sigfast.executor.DEFAULT_SEED, B)))[:, codes]
    xp = np.where(masks, y, x).mean(axis=1)
    yp = np.where(masks, x, y).mean(axis=1)
    assert np.allclose(r.distribution[:, 0], xp, rtol=0, atol=1e-14)
    assert np.allclose(r.distribution[:, 1], yp, rtol=0, atol=1e-14)
    assert r.resampling.startswith("swap-each-cluster") and r.n_clusters == 25


def test_item_statistics_see_the_items_of_the_drawn_clusters() -> None:
    x, y, keys = _clustered(n=60, g=11, seed=4)
    codes = _codes(keys)
    B = 50
    r = sigfast.paired_bootstrap(x, y, metric="median", clusters=keys, n_resamples=B, seed=2, return_distribution=True)
    draws = np.asarray(_native.item_indices(11, _native.Job(2, B)))
    members = [np.flatnonzero(codes == c) for c in range(11)]
    for b in range(B):
        idx = np.concatenate([members[c] for c in draws[b]])
        assert r.distribution[b, 0] == np.median(x[idx]) and r.distribution[b, 1] == np.median(y[idx])
    # a Python item statistic sees the same items
    med = sigfast.metrics.custom(lambda v: np.median(v, axis=1), stat_names=1, name="med", on="items")
    p = sigfast.paired_bootstrap(x, y, metric=med, clusters=keys, n_resamples=B, seed=2, return_distribution=True)
    assert np.array_equal(p.distribution, r.distribution)


def test_a_python_metric_of_sums_sees_the_same_cluster_sums() -> None:
    x, y, keys = _clustered(n=70, g=14, seed=6)
    tot = sigfast.metrics.custom(lambda s: s, stat_names=1, name="total")
    r = sigfast.paired_bootstrap(x, y, metric=tot, clusters=keys, n_resamples=100, seed=9, return_distribution=True)
    draws = np.asarray(_native.item_indices(14, _native.Job(9, 100)))
    sums, _ = _numpy_cluster_sums(np.column_stack([x, y]), _codes(keys), draws)
    assert np.array_equal(r.distribution, sums)


def test_pairwise_with_clusters_equals_each_pair_alone() -> None:
    rng = np.random.default_rng(8)
    n, g = 150, 30
    keys = rng.integers(0, g, n)
    keys[:g] = np.arange(g)
    effect = rng.normal(0, 0.3, g)[keys]
    data = {f"m{j}": (rng.random(n) < 0.5 + 0.05 * j + effect).astype(float) for j in range(4)}
    pw = sigfast.pairwise(data, clusters=keys, n_resamples=1000, seed=4)
    assert pw.resampling == f"clusters({g},given)" and pw.n_clusters == g
    for i, j in [(0, 1), (1, 3), (3, 2)]:
        a, b = f"m{i}", f"m{j}"
        one = sigfast.paired_bootstrap(data[a], data[b], clusters=keys, n_resamples=1000, seed=4)
        assert pw.counts[i, j] == one.count
    ind = sigfast.pairwise(data, clusters=keys, n_resamples=500, seed=4, mode="independent")
    assert ind.resampling == pw.resampling


def test_bca_jackknife_leaves_one_cluster_out() -> None:
    x, _, keys = _clustered(n=90, g=15, seed=1)
    codes = _codes(keys)
    r = sigfast.bootstrap_interval(x, clusters=keys, n_resamples=2000, seed=3)
    loo = np.array([x[codes != c].mean() for c in range(15)])
    dev = loo.mean() - loo
    a = float(np.sum(dev**3) / (6 * np.sum(dev**2) ** 1.5))
    assert r.acceleration == pytest.approx(a, rel=1e-12, abs=1e-15)
    assert r.n_clusters == 15 and parse(r.signature)["resampling"] == "clusters(15,given)"


def test_clusters_from_the_logs_drive_the_resampling_and_the_signature() -> None:
    files = [str(INSPECT / "figqa_alpha.json.gz"), str(INSPECT / "figqa_gamma.json.gz")]
    clustered = sigfast.read(None, files, format="inspect", cluster="pair")
    plain = sigfast.read(None, files, format="inspect")
    a = sigfast.paired_bootstrap(clustered, n_resamples=500, seed=1)
    b = sigfast.paired_bootstrap(plain, n_resamples=500, seed=1)
    sa, sb = parse(a.signature), parse(b.signature)
    assert sa["resampling"] == "clusters(547,pair)" and a.n_clusters == 547
    assert sb["resampling"] != sa["resampling"] and b.n_clusters is None
    assert sa["data"] != sb["data"]  # the assignment is part of the data hash
    keys = clustered.provenance["clusters"]
    c = sigfast.paired_bootstrap(plain, clusters=keys, n_resamples=500, seed=1)
    assert c.confidence_interval == a.confidence_interval
    sc = parse(c.signature)
    assert sc["data"] == sa["data"] and sc["resampling"] == "clusters(547,given)"  # same partition, other label
    # the same partition under other names hashes the same
    renamed = [f"z{k}" for k in keys]
    d = sigfast.paired_bootstrap(plain, clusters=renamed, n_resamples=500, seed=1)
    assert parse(d.signature)["data"] == parse(c.signature)["data"]
    # resampling="items" opts out
    e = sigfast.paired_bootstrap(clustered, n_resamples=500, seed=1, resampling="items")
    assert parse(e.signature)["resampling"] == "items" and e.n_clusters is None
    # permutation and intervals read the same keys
    p = sigfast.permutation_test(clustered, n_resamples=500)
    assert parse(p.signature)["resampling"] == "clusters(547,pair)"


def test_stale_or_misfit_clusters_are_refused() -> None:
    x, y, keys = _clustered(n=40, g=8)
    with pytest.raises(InputError, match="39 cluster keys"):
        sigfast.paired_bootstrap(x, y, clusters=keys[:-1], n_resamples=10)
    with pytest.raises(InputError, match="resampling='items'"):
        sigfast.paired_bootstrap(x, y, clusters=keys, resampling="items", n_resamples=10)
    with pytest.raises(InputError, match="needs the items' clusters"):
        sigfast.paired_bootstrap(x, y, resampling="clusters", n_resamples=10)
    with pytest.raises(InputError, match="cannot resample whole clusters"):
        sigfast.paired_bootstrap(x, y, clusters=keys, draws="sacrebleu", n_resamples=10)
    files = [str(INSPECT / "figqa_alpha.json.gz"), str(INSPECT / "figqa_gamma.json.gz")]
    st = sigfast.read(None, files, format="inspect", cluster="pair")
    cut = st.replace(values=st.values[:, :100], item_ids=st.item_ids[:100])
    with pytest.raises(InputError, match="no longer fit"):
        sigfast.paired_bootstrap(cut, n_resamples=10)
    taken = st.take(np.arange(100))
    r = sigfast.paired_bootstrap(taken, n_resamples=10)
    assert r.n_clusters == len(set(st.provenance["clusters"][:100]))
    few = sigfast.paired_bootstrap(x, y, clusters=np.arange(40) % 3, n_resamples=10)
    assert any("only 3 clusters" in w for w in few.warnings)


def test_conll2012_parts_of_one_document_form_a_cluster(tmp_path: Path) -> None:
    data = ROOT / "data" / "analysis"
    parts = [
        ("wsj_0001", 0),
        ("wsj_0001", 1),
        ("wsj_0001", 2),
        ("bc/cnn/00/cnn_0004", 0),
        ("bc/cnn/00/cnn_0004", 1),
        ("x", 0),
    ]

    def many(src: Path, dst: Path) -> Path:
        body = src.read_text().split("\n", 1)[1]  # the toy document without its '#begin' line
        dst.write_text("".join(f"#begin document ({d}); part {p:03d}\n{body}" for d, p in parts))
        return dst

    key = many(data / "coref_key.conll", tmp_path / "key.conll")
    r1 = many(data / "coref_r1.conll", tmp_path / "r1.conll")
    r2 = many(data / "coref_r2.conll", tmp_path / "r2.conll")
    st = sigfast.read(str(key), [str(r1), str(r2)], format="conll2012", cluster="doc")
    assert st.provenance["clusters"] == tuple(d for d, _ in parts) and st.provenance["cluster_field"] == "doc"
    r = sigfast.paired_bootstrap(st, n_resamples=50)
    assert r.n_clusters == 3 and parse(r.signature)["resampling"] == "clusters(3,doc)"
    plain = sigfast.read(str(key), [str(r1), str(r2)], format="conll2012")
    assert "clusters" not in plain.provenance


def test_mt_document_ids_from_a_file(tmp_path: Path) -> None:
    fix = ROOT / "data" / "mt"
    docs = tmp_path / "docs.txt"
    ids = [f"doc{i // 4}" for i in range(13)]
    docs.write_text("\n".join(ids) + "\n")
    st = sigfast.read(
        str(fix / "edge.ref1"), [str(fix / "edge.hyp"), str(fix / "edge.ref2")], format="mt", docs=str(docs)
    )
    assert st.provenance["clusters"] == tuple(ids)
    r = sigfast.paired_bootstrap(st, n_resamples=50)
    assert r.n_clusters == 4
    docs.write_text("\n".join(ids[:-1]) + "\n")
    with pytest.raises(sigfast.FormatError, match="12 document ids for 13 segments"):
        sigfast.read(str(fix / "edge.ref1"), [str(fix / "edge.hyp")], format="mt", docs=str(docs))


def test_a_folder_of_runs_gives_one_system_per_run() -> None:
    from sigfast.formats import runs_in

    llm = ROOT / "data" / "llm"
    lm = runs_in(llm / "lm-eval", "lm-eval")
    assert [Path(p).name for p in lm] == ["dummy-seed1", "dummy-seed2", "dummy-seed3"]
    assert len(runs_in(llm / "helm", "helm")) == 4 and len(runs_in(llm / "lighteval", "lighteval")) == 3
    assert runs_in(llm / "lm-eval" / "dummy-seed1", "lm-eval") == [str(llm / "lm-eval" / "dummy-seed1")]
    st = sigfast.read(None, lm, format="lm-eval", task="figqa", cluster="pair")
    pw = sigfast.pairwise(st, n_resamples=200)
    assert pw.systems == ("dummy-seed1", "dummy-seed2", "dummy-seed3") and pw.n_clusters == 547
    with pytest.raises(InputError, match="no inspect runs"):
        runs_in(llm / "helm", "inspect")
