"""Studies of significance: splits, training-set resampling, across-splits tests, test-size curves, calibration.

Expected numbers are worked by hand in the comments (McNemar mid-p from the
binomial pmf; Dror et al.'s Bonferroni partial conjunction), or are checked
against the direct call the study is defined by (sigfast.pairwise on the
same items and seed).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.exceptions import FormatError, InputError
from sigfast.studies import (
    CalibrationResult,
    across_splits,
    binary_outcomes,
    calibration,
    default_sizes,
    random_splits,
    read_units,
    resample_train,
    split_sizes,
    split_statistics,
    test_size_curve,
    verify_resample,
    verify_splits,
)
from sigfast.studies._common import sub_seed, subset

DATA = Path(__file__).parent / "data" / "studies"
TINY = DATA / "tiny.conllu"


# --------------------------------------------------------------------------- units
def test_sentence_units_keep_comments_and_concatenate_to_the_file():
    c = read_units(TINY, "sentence")
    assert c.n_units == 10
    assert b"".join(c.units) == TINY.read_bytes()  # byte for byte
    assert c.units[0].startswith(b"# newdoc id = d1\n# sent_id = 1\n")
    assert c.units[1].endswith(b"\n\n\n")  # both blank lines stay with sentence 2
    assert not c.normalised_end


def test_document_and_line_units():
    d = read_units(TINY, "document")
    assert d.n_units == 3
    assert [u.count(b"# sent_id") for u in d.units] == [2, 3, 5]
    assert b"".join(d.units) == TINY.read_bytes()
    lines = read_units(DATA / "tiny.src", "line")
    assert lines.n_units == 10 and lines.units[3] == b"source sentence 4\n"


def test_missing_final_blank_line_is_added_and_reported(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_bytes(b"1\ta\n\n1\tb")
    c = read_units(p)
    assert c.units == (b"1\ta\n\n", b"1\tb\n\n") and c.normalised_end


def test_gzip_input(tmp_path):
    p = tmp_path / "t.conllu.gz"
    p.write_bytes(gzip.compress(TINY.read_bytes()))
    assert read_units(p).units == read_units(TINY).units


def test_bad_inputs(tmp_path):
    empty = tmp_path / "e.conllu"
    empty.write_text("\n\n")
    with pytest.raises(FormatError, match="empty"):
        read_units(empty)
    nodoc = tmp_path / "n.conllu"
    nodoc.write_text("1\ta\n\n")
    with pytest.raises(FormatError, match="newdoc"):
        read_units(nodoc, "document")
    with pytest.raises(InputError, match="unit"):
        read_units(TINY, "paragraph")
    with pytest.raises(InputError, match="no such file"):
        read_units(tmp_path / "missing.conllu")
    with pytest.raises(InputError, match="same number"):
        random_splits([TINY, DATA / "tiny.src"], unit="line")  # 35 lines vs 10
    with pytest.raises(InputError, match="empty part"):
        random_splits(DATA / "tiny.src", format="mt", ratios=(0.98, 0.01, 0.01))
    with pytest.raises(InputError, match="ratios"):
        split_sizes(10, (0.5, 0.2))


# --------------------------------------------------------------------------- splits
def test_split_sizes():
    assert split_sizes(2077, (0.8, 0.1, 0.1)) == [1661, 208, 208]  # round(207.7) = 208
    assert split_sizes(10, (0.8, 0.1, 0.1)) == [8, 1, 1]
    assert split_sizes(15, (0.8, 0.1, 0.1)) == [11, 2, 2]  # halves round up: floor(1.5 + 0.5) = 2


def test_random_splits_are_deterministic_and_partition(tmp_path):
    a = random_splits(TINY, tmp_path / "a", n_splits=4, seed=7)
    b = random_splits(TINY, tmp_path / "b", n_splits=4, seed=7)
    c = random_splits(TINY, None, n_splits=4, seed=8)
    for sa, sb in zip(a.splits, b.splits):
        assert sa["indices"] == sb["indices"]
        for part in ("train", "dev", "test"):
            fa = sa["files"][str(TINY)][part]
            fb = sb["files"][str(TINY)][part]
            assert fa["sha256"] == fb["sha256"]
            assert Path(fa["file"]).read_bytes() == Path(fb["file"]).read_bytes()
    assert [s["indices"] for s in a.splits] != [s["indices"] for s in c.splits]
    assert a.splits[0]["sizes"] == {"train": 8, "dev": 1, "test": 1}
    for s in a.splits:
        allidx = sorted(i for p in s["indices"].values() for i in p)
        assert allidx == list(range(10))
    assert verify_splits(a.manifest_path) == {"ok": True, "splits_checked": 4, "n_units": 10, "unit": "sentence"}
    # the manifest's unit hashes: SHA-256 of every written unit, computed independently here
    units = read_units(TINY).units
    s0 = a.splits[0]
    test_file = Path(s0["files"][str(TINY)]["test"]["file"])
    assert test_file.read_bytes() == b"".join(units[i] for i in s0["indices"]["test"])
    assert hashlib.sha256(test_file.read_bytes()).hexdigest() == s0["files"][str(TINY)]["test"]["sha256"]
    assert test_file.name == "tiny.test.conllu" and test_file.parent.name == "split00"


def test_verify_catches_a_tampered_split(tmp_path):
    r = random_splits(TINY, tmp_path, n_splits=2, seed=1)
    info = r.splits[1]["files"][str(TINY)]
    dev = Path(info["dev"]["file"])
    test = Path(info["test"]["file"])
    test.write_bytes(dev.read_bytes())  # test now duplicates the dev sentence; its own sentence is lost
    with pytest.raises(InputError, match="changed"):
        verify_splits(r.manifest_path)
    # the same files with a manifest updated to the new hash: the partition check itself fails
    m = json.loads(Path(r.manifest_path).read_text())
    m["splits"][1]["files"][str(TINY)]["test"]["sha256"] = hashlib.sha256(test.read_bytes()).hexdigest()
    with pytest.raises(InputError, match="differ|partition"):
        verify_splits(m)
    m["splits"][1]["indices"]["test"] = m["splits"][1]["indices"]["dev"]
    with pytest.raises(InputError, match="not a partition: 1 units lost, 1 extra"):
        verify_splits(m)


def test_parallel_line_files_split_alike(tmp_path):
    r = random_splits(
        [DATA / "tiny.src", DATA / "tiny.ref"], tmp_path, n_splits=3, seed=5, format="mt", ratios=(0.6, 0.2, 0.2)
    )
    for s in r.splits:
        src = Path(s["files"][str(DATA / "tiny.src")]["test"]["file"]).read_text().split("\n")[:-1]
        ref = Path(s["files"][str(DATA / "tiny.ref")]["test"]["file"]).read_text().split("\n")[:-1]
        assert [x.split()[-1] for x in src] == [x.split()[-1] for x in ref]
        assert [int(x.split()[-1]) - 1 for x in src] == s["indices"]["test"]
    assert verify_splits(r.manifest)["splits_checked"] == 6


def test_document_splits(tmp_path):
    r = random_splits(TINY, tmp_path, n_splits=3, seed=2, unit="document", ratios=(1 / 3, 1 / 3, 1 / 3))
    assert all(sorted(i for part in s["indices"].values() for i in part) == [0, 1, 2] for s in r.splits)
    assert verify_splits(r.manifest_path)["ok"]


def test_resample_train(tmp_path):
    r = resample_train(TINY, tmp_path, sizes=[5, 20], n_samples=2, seed=3)
    r2 = resample_train(TINY, None, sizes=[5, 20], n_samples=2, seed=3)
    assert [s["indices"] for s in r.samples] == [s["indices"] for s in r2.samples]
    assert [len(s["indices"]) for s in r.samples] == [5, 5, 20, 20]
    assert all(0 <= i < 10 for s in r.samples for i in s["indices"])
    big = r.samples[2]
    assert big["n_distinct"] == len(set(big["indices"])) < 20  # drawn with replacement
    assert verify_resample(r.manifest_path) == {"ok": True, "files_checked": 4}
    # the same draw as numpy's generator seeded by (seed, size, sample)
    want = np.random.default_rng(np.random.SeedSequence([3, 20, 1])).integers(0, 10, 20)
    assert r.samples[3]["indices"] == want.tolist()
    with pytest.raises(InputError, match="sizes"):
        resample_train(TINY, None, sizes=[0])


# --------------------------------------------------------------------------- across splits
def _binary_splits() -> list[sigfast.Statistics]:
    """Two systems, three splits of 20 items scored 0/1.

    Splits A and B: system 1 right on 10 items where system 0 is wrong, both right elsewhere
    (b = 0, c = 10). Split C: b = c = 5.
    """
    a0 = np.r_[np.zeros(10), np.ones(10)]
    a1 = np.ones(20)
    c0 = np.r_[np.zeros(5), np.ones(5), np.ones(10)]
    c1 = np.r_[np.ones(5), np.zeros(5), np.ones(10)]
    return [sigfast.Statistics.from_scores({"base": x, "new": y}) for x, y in ((a0, a1), (a0, a1), (c0, c1))]


def test_across_splits_mcnemar_by_hand():
    r = across_splits(_binary_splits())
    # mid-p with b = 0, c = 10: 2 [P(C <= 0) - P(C = 0) / 2] = P(C = 0) = 2**-10
    assert r.pvalues[:, 0, 1] == pytest.approx([2**-10, 2**-10, 1.0])
    # Bonferroni over the pair's 3 splits
    assert r.adjusted[:, 0, 1] == pytest.approx([3 * 2**-10, 3 * 2**-10, 1.0])
    assert r.wins[0, 1] == 2 and r.wins[1, 0] == 0
    # one-sided p (new better): 2**-11, 2**-11, 1 - 1/2; Bonferroni partial conjunction
    # p^{1/3} = 3 * 2**-11, p^{2/3} = 2 * 2**-11, p^{3/3} = 0.5  ->  k-hat = 2
    assert r.k_hat[0, 1] == 2 and r.k_hat[1, 0] == 0
    assert r.scores.tolist() == [[0.5, 0.5, 0.75], [1.0, 1.0, 0.75]]
    rng = {row["system"]: row for row in r.score_ranges()}
    assert rng["base"]["min"] == 0.5 and rng["base"]["max"] == 0.75 and rng["new"]["best_rank"] == 1
    row = r.comparisons()[0]
    assert row["j_significantly_better"] == 2 and row["k_hat_j_better"] == 2
    d = json.loads(r.to_json())
    assert d["comparisons"][0]["pvalues"][2] == 1.0
    assert "2/3" in r.table()


def test_across_splits_family_all_and_other_tests():
    splits = _binary_splits()
    r = across_splits(splits, family="all", correction="holm")
    # Holm over 3 with a tie: 3p, max(3p, 2p) = 3p (step-down monotonicity), then 1
    assert r.adjusted[:, 0, 1] == pytest.approx([3 * 2**-10, 3 * 2**-10, 1.0])
    b1 = across_splits(splits, test="bootstrap", n_resamples=2000, seed=4)
    b2 = across_splits(splits, test="bootstrap", n_resamples=2000, seed=4)
    assert np.array_equal(b1.pvalues, b2.pvalues, equal_nan=True)
    # split k's bootstrap equals sigfast.pairwise with the seed derived from (seed, k)
    direct = sigfast.pairwise(
        splits[1],
        n_resamples=2000,
        seed=sub_seed(4, 1),
        variant="shifted",
        alternative="two-sided",
        correction="none",
        resampling="items",
    )
    assert b1.pvalues[1, 0, 1] == direct.pvalues[0, 1]
    with ThreadPoolExecutor(2) as ex:
        b3 = across_splits(splits, test="bootstrap", n_resamples=2000, seed=4, backend=ex)
    assert np.array_equal(b1.pvalues, b3.pvalues, equal_nan=True)
    calls = []

    def my_test(st):
        calls.append(st.systems)
        return 0.5

    c = across_splits(splits, test=my_test)
    assert len(calls) == 3 and np.all(c.pvalues[:, 0, 1] == 0.5) and c.test == "my_test"
    s = across_splits(splits, test="sign")
    assert s.pvalues[2, 0, 1] == pytest.approx(1.0)


def test_across_splits_errors():
    with pytest.raises(InputError, match="0/1 outcome"):
        across_splits([sigfast.Statistics.from_scores({"a": [0.2, 0.5], "b": [0.1, 0.3]})])
    s1 = sigfast.Statistics.from_scores({"a": [0, 1], "b": [1, 1]})
    s2 = sigfast.Statistics.from_scores({"b": [0, 1], "a": [1, 1]})
    with pytest.raises(InputError, match="same systems"):
        across_splits([s1, s2])
    with pytest.raises(InputError, match="unknown test"):
        across_splits([s1], test="magic")
    with pytest.raises(InputError, match="family"):
        across_splits([s1], family="pairs")


def test_binary_outcomes_exact_match():
    st = sigfast.Statistics.from_counts(
        {"a": [[2, 2], [1, 2]], "b": [[2, 2], [2, 2]]}, stat_names=("c", "t"), metric="accuracy"
    )
    assert binary_outcomes(st, "exact").tolist() == [[1, 0], [1, 1]]
    tok = sigfast.Statistics.from_counts(
        {"a": [[1, 1], [0, 1]], "b": [[1, 1], [1, 1]]}, stat_names=("c", "t"), metric="accuracy"
    )
    assert binary_outcomes(tok).tolist() == [[1, 0], [1, 1]]


def test_split_statistics_from_manifest(tmp_path):
    r = random_splits(TINY, None, n_splits=3, seed=9)
    st = sigfast.Statistics.from_scores({"a": np.arange(10.0), "b": np.arange(10.0) * 2})
    parts = split_statistics(st, r, part="test")
    assert [p.values[0, :, 0].tolist() for p in parts] == [[float(i) for i in s["indices"]["test"]] for s in r.splits]
    with pytest.raises(InputError, match="10 units"):
        split_statistics(sigfast.Statistics.from_scores({"a": [1.0, 2.0], "b": [1.0, 0.0]}), r)


# --------------------------------------------------------------------------- test-size curves
def _synthetic(n: int = 800, s: int = 5, seed: int = 0) -> sigfast.Statistics:
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    return sigfast.Statistics.from_scores(
        {f"sys{k}": (rng.random(n) < 0.6 + 0.02 * k).astype(float) * 0.5 + 0.5 * base for k in range(s)}
    )


def test_default_sizes():
    assert default_sizes(1000) == [100, 200, 400, 800, 1000]
    assert default_sizes(100) == [100]
    assert default_sizes(24000)[-2:] == [12800, 24000]


def test_test_size_curve_matches_direct_pairwise():
    st = _synthetic()
    c = test_size_curve(st, n_resamples=3000, seed=11)
    assert c.sizes == (100, 200, 400, 800)
    for z, size in enumerate(c.sizes):
        direct = sigfast.pairwise(
            subset(st, np.arange(size)),
            n_resamples=3000,
            seed=sub_seed(11, z, 0, 1),
            correction="none",
            resampling="items",
        )
        iu = np.triu_indices(5, 1)
        assert np.array_equal(c.pvalues[z][0], direct.pvalues[iu])
        assert np.allclose(c.gains[z][0], np.abs(direct.delta[iu]))
    c2 = test_size_curve(st, n_resamples=3000, seed=11)
    assert c.to_json() == c2.to_json()
    # the threshold is numpy's 95th percentile of gains with p in the band
    t = c.thresholds()
    for z, row in enumerate(t):
        p, g = c.pvalues[z].ravel(), c.gains[z].ravel()
        sel = (p >= 0.04) & (p <= 0.06)
        assert row["n_in_band"] == sel.sum()
        assert row["threshold"] == (float(np.percentile(g[sel], 95)) if sel.any() else None)
        assert row["n_significant"] == int((p < 0.05).sum())


def test_test_size_curve_random_mode_and_backend():
    st = _synthetic(400)
    a = test_size_curve(st, sizes=[100, 200], mode="random", n_draws=3, n_resamples=1000, seed=2)
    with ThreadPoolExecutor(2) as ex:
        b = test_size_curve(st, sizes=[100, 200], mode="random", n_draws=3, n_resamples=1000, seed=2, backend=ex)
    assert a.pvalues[1].shape == (3, 10)
    assert all(np.array_equal(x, y) for x, y in zip(a.pvalues, b.pvalues))
    with pytest.raises(InputError, match="sizes"):
        test_size_curve(st, sizes=[500])
    with pytest.raises(InputError, match="prefix"):
        test_size_curve(st, n_draws=2)
    with pytest.raises(InputError, match="backend"):
        test_size_curve(st, sizes=[100], n_resamples=10, backend="gpu")


# --------------------------------------------------------------------------- calibration
def test_calibration_agreement_by_hand():
    """Two pairs, four tests each; the band counts can be read off the arrays."""
    p = np.array([[0.005, 0.05], [0.05, 0.3], [0.045, 0.05], [0.2, 0.055]])
    d = np.array([[1.0, 2.0], [-1.0, 0.5], [1.0, -2.0], [0.0, 1.0]])
    pop = np.array([0.7, 1.5])
    r = CalibrationResult(
        systems=("a", "b", "c"),
        pairs=((0, 1), (0, 2)),
        domains=("x",),
        metric="mean",
        m=10,
        n_test_sets=4,
        n_resamples=100,
        seed=0,
        variant="bk",
        bands=((0.0, 0.01), (0.04, 0.06), (0.1, 0.5)),
        pvalues={"x": p},
        deltas={"x": d},
        population_delta={"x": pop},
    )
    rows = {tuple(row["band"]): row for row in r.rows()}
    assert rows[(0.0, 0.01)]["n"] == 1 and rows[(0.0, 0.01)]["agree"] == 1
    # p in (0.04, 0.06]: (0, 1) +2 agrees; (1, 0) -1 disagrees; (2, 0) +1 agrees; (2, 1) -2 disagrees;
    # (3, 1) +1 agrees -> 3 of 5
    assert rows[(0.04, 0.06)]["n"] == 5 and rows[(0.04, 0.06)]["agree"] == 3
    assert rows[(0.04, 0.06)]["share"] == pytest.approx(0.6)
    # (1, 1) p 0.3 agrees; (3, 0) p 0.2 has delta 0: no direction, left out
    assert rows[(0.1, 0.5)]["n"] == 1 and rows[(0.1, 0.5)]["agree"] == 1
    s = r.summary()
    assert s[1]["in_domain"] == {"n": 5, "agree": 3, "share": 0.6, "zero": 0}
    assert rows[(0.1, 0.5)]["zero"] == 1  # the delta-0 test, counted as left out
    assert "left out (difference 0)" in r.table() and "(1 in-domain in all)" in r.table()
    assert s[1]["cross_domain"]["n"] == 0
    assert "60.0%" in r.table()


def test_calibration_matches_direct_pairwise_and_is_deterministic():
    st = _synthetic(300, 4)
    a = calibration(st, m=120, n_test_sets=5, n_resamples=1000, seed=3)
    b = calibration(st, m=120, n_test_sets=5, n_resamples=1000, seed=3)
    assert a.to_json(include_tests=True) == b.to_json(include_tests=True)
    idx = np.random.default_rng(np.random.SeedSequence([3, 0, 2])).integers(0, 300, 120)
    direct = sigfast.pairwise(
        subset(st, idx), n_resamples=1000, seed=sub_seed(3, 0, 2, 1), correction="none", resampling="items"
    )
    iu = np.triu_indices(4, 1)
    assert np.array_equal(a.pvalues["population"][2], direct.pvalues[iu])
    assert np.allclose(a.deltas["population"][2], direct.delta[iu])
    full = np.array(list(st.scores().values()))
    assert np.allclose(a.population_delta["population"], full[iu[1]] - full[iu[0]])
    seen = []
    with ThreadPoolExecutor(2) as ex:
        c = calibration(
            st,
            m=120,
            n_test_sets=5,
            n_resamples=1000,
            seed=3,
            backend=ex,
            progress=lambda done, total: seen.append((done, total)),
        )
    assert np.array_equal(c.pvalues["population"], a.pvalues["population"])
    assert seen == [(k, 5) for k in range(1, 6)]


def test_calibration_domains_and_errors():
    x, y = _synthetic(200, 3, seed=1), _synthetic(200, 3, seed=2)
    r = calibration({"x": x, "y": y}, m=50, n_test_sets=3, n_resamples=500, seed=0)
    rows = r.rows()
    assert {(row["source"], row["target"]) for row in rows} == {("x", "x"), ("x", "y"), ("y", "x"), ("y", "y")}
    s = r.summary()
    assert sum(e["in_domain"]["n"] for e in s) + sum(e["cross_domain"]["n"] for e in s) <= 4 * 3 * 3
    with pytest.raises(InputError, match="same systems"):
        calibration({"x": x, "y": x.select(1, 0, 2)}, m=5, n_test_sets=1, n_resamples=10)
    with pytest.raises(InputError, match="band"):
        calibration(x, m=5, n_test_sets=1, n_resamples=10, bands=[(0.2, 0.1)])
    with pytest.raises(InputError, match="m must"):
        calibration(x, m=0)


# --------------------------------------------------------------------------- CLI and plots
def _cli(argv):
    from sigfast.cli import build_parser, handler

    args = build_parser(argv[0]).parse_args(argv)
    return handler(args.handler)(args)


def test_cli_split_and_resample(tmp_path, capsys):
    assert _cli(["split", str(TINY), "--out-dir", str(tmp_path / "s"), "-k", "3", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    assert out["n_splits"] == 3 and out["verified"]["ok"]
    m = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert [x["indices"] for x in m["splits"]] == [
        x["indices"] for x in random_splits(TINY, None, n_splits=3, seed=4).splits
    ]
    assert _cli(["resample-train", str(TINY), "--out-dir", str(tmp_path / "r"), "--sizes", "4", "8"]) == 0
    assert "verified: 2 file(s)" in capsys.readouterr().out


def test_cli_studies_on_item_files(tmp_path, capsys):
    st = _synthetic(400, 3)
    files = []
    for k, name in enumerate(st.systems):
        f = tmp_path / f"{name}.tsv"
        f.write_text("\n".join(f"{v:.6f}" for v in st.values[k, :, 0]) + "\n")
        files.append(str(f))
    assert _cli(["test-size", *files, "--sizes", "100", "400", "-n", "500", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["sizes"] == [100, 400] and len(d["thresholds"]) == 2
    assert (
        _cli(["calibration", *files, "--size", "100", "--test-sets", "3", "-n", "500", "--bands", "0", "0.05", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert "[0, 0.05]" in out and "(0.05, 1]" in out
    r = random_splits(DATA / "tiny.src", tmp_path / "sp", n_splits=2, format="mt")
    del r
    with pytest.raises(InputError, match="400 items"):
        _cli(["across-splits", "--manifest", str(tmp_path / "sp" / "manifest.json"), *files])


def test_main_cli_knows_the_studies(tmp_path):
    from sigfast.cli import main

    assert main(["split", str(DATA / "tiny.src"), "--format", "mt", "--out-dir", str(tmp_path), "-k", "2"]) == 0
    assert main(["split", str(tmp_path / "missing.txt"), "--out-dir", str(tmp_path)]) == 1


def test_plots(tmp_path):
    pytest.importorskip("matplotlib")
    st = _synthetic(400, 3)
    c = test_size_curve(st, sizes=[100, 400], n_resamples=300)
    c.plot(tmp_path / "curve.png")
    cal = calibration(st, m=100, n_test_sets=3, n_resamples=300)
    cal.plot(tmp_path / "cal.png")
    acr = across_splits(_binary_splits())
    acr.plot(tmp_path / "across.png")
    for name in ("curve.png", "cal.png", "across.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.xdist_group("ray")  # one local Ray cluster at a time (test_pairwise.py has the other)
def test_ray_backend_same_bytes():
    ray = pytest.importorskip("ray")
    st = _synthetic(300, 4)
    a = calibration(st, m=100, n_test_sets=3, n_resamples=500, seed=2)
    c = test_size_curve(st, sizes=[100, 300], n_resamples=500, seed=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        b = calibration(st, m=100, n_test_sets=3, n_resamples=500, seed=2, backend="ray")
        d = test_size_curve(st, sizes=[100, 300], n_resamples=500, seed=2, backend="ray")
    finally:
        ray.shutdown()
    assert a.to_json(include_tests=True) == b.to_json(include_tests=True)
    assert c.to_json() == d.to_json()


def test_cli_across_splits_spec(tmp_path, capsys):
    splits = _binary_splits()
    spec = []
    for k, st in enumerate(splits):
        entry = {"name": f"k{k}", "systems": {}}
        for s, name in enumerate(st.systems):
            f = tmp_path / f"{name}.{k}.tsv"
            f.write_text("\n".join(str(int(v)) for v in st.values[s, :, 0]) + "\n")
            entry["systems"][name] = f.name  # relative to the spec file
        spec.append(entry)
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    assert (
        _cli(["across-splits", "--spec", str(tmp_path / "spec.json"), "--json", "--plot", str(tmp_path / "a.png")]) == 0
    )
    d = json.loads(capsys.readouterr().out)[0]
    assert d["splits"] == ["k0", "k1", "k2"]
    assert d["comparisons"][0]["j_significantly_better"] == 2  # as in test_across_splits_mcnemar_by_hand


def test_leading_blank_lines_and_crlf(tmp_path):
    p = tmp_path / "lead.conllu"
    p.write_bytes(b"\r\n\r\n# c\r\n1\ta\r\n\r\n1\tb\r\n\r\n1\tc\r\n\r\n1\td\r\n\r\n1\te\r\n\r\n")
    c = read_units(p)
    assert c.n_units == 5 and c.units[0] == b"\r\n\r\n# c\r\n1\ta\r\n\r\n"
    r = random_splits(p, tmp_path / "out", n_splits=5, seed=0, ratios=(0.6, 0.2, 0.2))
    assert verify_splits(r.manifest_path)["splits_checked"] == 5
