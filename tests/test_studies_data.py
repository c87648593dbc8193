"""End-to-end studies on the shared data: en_ewt random splits, a calibration study with the 25 CoNLL 2018
en_ewt parsers, across-splits tests, and a test-size curve for the WMT21 de-en systems (BLEU).

The studies have no reference implementation to match; the checks are the
guarantees the studies make (same seed -> same bytes, splits partition the
corpus by unit hashes, each test equals sigfast.pairwise on the same items
and seed) and the qualitative findings of the papers (the gain threshold
shrinks with test-set size; in-domain p near 0.05 agrees with the
population about 95% of the time, cross-domain much less often).
"""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path

import numpy as np
import pytest

import sigfast
import sigfast.formats
from sigfast.studies import (
    across_splits,
    calibration,
    domains_from_item_ids,
    random_splits,
    read_units,
    split_statistics,
    test_size_curve,
    verify_splits,
)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"
WMT = SHARED / "machine_translation" / "wmt21_newstest2021_de_en"

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="shared data not available")


@pytest.fixture(scope="module")
def ewt_las():
    if not (EWT / "gold" / "en_ewt.conllu.gz").is_file():
        pytest.skip("en_ewt data absent")
    systems = {
        os.path.basename(os.path.dirname(p)): p
        for p in sorted(glob.glob(str(EWT / "systems" / "*" / "en_ewt.conllu.gz")))
    }
    return sigfast.read(str(EWT / "gold" / "en_ewt.conllu.gz"), systems, format="conllu", metric="las")


def test_en_ewt_random_splits_partition_and_determinism(tmp_path):
    gold = EWT / "gold" / "en_ewt.conllu.gz"
    if not gold.is_file():
        pytest.skip("en_ewt gold absent")
    a = random_splits(gold, tmp_path / "a", n_splits=20, seed=2019)
    b = random_splits(gold, tmp_path / "b", n_splits=20, seed=2019)
    assert a.manifest["n_units"] == 2077
    assert a.splits[0]["sizes"] == {"train": 1661, "dev": 208, "test": 208}
    for sa, sb in zip(a.splits, b.splits):
        assert sa["indices"] == sb["indices"]
        assert {p: f["sha256"] for p, f in sa["files"][str(gold)].items()} == {
            p: f["sha256"] for p, f in sb["files"][str(gold)].items()
        }
    assert verify_splits(a.manifest_path)["splits_checked"] == 20
    # a written test part is a valid CoNLL-U file that scores 100 against itself
    test_file = a.splits[0]["files"][str(gold)]["test"]["file"]
    r = sigfast.formats.score("conllu", test_file, test_file)
    assert r.scores["las"] == pytest.approx(1.0)
    assert read_units(test_file).n_units == 208


def test_en_ewt_across_splits(ewt_las):
    r = random_splits(EWT / "gold" / "en_ewt.conllu.gz", None, n_splits=20, seed=2019)
    parts = split_statistics(ewt_las, r, part="test")
    res = across_splits(parts, binarize="exact")  # McNemar on whole-sentence LAS correctness, Bonferroni
    assert res.scores.shape == (25, 20)
    # the per-split scores are the LAS of the gold sentences in each test part
    k0 = parts[0]
    assert res.scores[:, 0] == pytest.approx(list(k0.scores().values()))
    ranges = {row["system"]: row for row in res.score_ranges()}
    assert all(row["range"] > 0.01 for row in ranges.values())  # scores move by points across splits
    hit = res.systems.index("HIT-SCIR-18")
    arm = res.systems.index("ArmParser")
    assert res.wins[arm, hit] >= 15  # the best parser beats the weakest on (nearly) every split
    json.loads(res.to_json())


def test_en_ewt_calibration_table1(ewt_las, tmp_path):
    # population = the full test set (2077 sentences), m = 500, 300 pairs; scaled down to 40 test sets x B = 2000
    r = calibration(ewt_las, m=500, n_test_sets=40, n_resamples=2000, seed=1)
    assert len(r.pairs) == 300
    s = {tuple(e["band"]): e for e in r.summary()}
    near = s[(0.04, 0.06)]["in_domain"]
    assert near["n"] > 50
    assert 0.85 <= near["share"] <= 1.0  # BK Table 1: 92% in-domain (calibrated: about 95%)
    assert s[(0.0, 0.01)]["in_domain"]["share"] > 0.99
    # cross-domain by genre (answers, email, newsgroup, reviews, weblog)
    doms = domains_from_item_ids(ewt_las)
    assert set(doms) == {"answers", "email", "newsgroup", "reviews", "weblog"}
    rd = calibration(doms, m=300, n_test_sets=6, n_resamples=1000, seed=1)
    sd = {tuple(e["band"]): e for e in rd.summary()}
    assert sd[(0.04, 0.06)]["cross_domain"]["share"] < sd[(0.04, 0.06)]["in_domain"]["share"]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    rd.plot(tmp_path / "calibration.png")
    assert (tmp_path / "calibration.png").stat().st_size > 10_000


def test_wmt21_test_size_curve(tmp_path):
    ref = WMT / "newstest2021.de-en.ref.A.en"
    if not ref.is_file():
        pytest.skip("WMT21 de-en absent")
    systems = {
        os.path.basename(p).split(".hyp.")[1][:-3]: p
        for p in sorted(glob.glob(str(WMT / "system-outputs" / "*.hyp.*")))
    }
    st = sigfast.read(str(ref), systems, format="mt", metric="bleu")
    c = test_size_curve(st, n_resamples=2000, seed=5)
    assert c.sizes == (100, 200, 400, 800, 1000)
    t = c.thresholds()
    assert t[0]["threshold"] > t[-1]["threshold"]  # the gain needed for significance shrinks
    assert t[0]["n_significant"] < t[-1]["n_significant"]
    # the full-size entry equals sigfast.pairwise on the whole test set with the derived seed
    from sigfast.studies._common import sub_seed

    full = sigfast.pairwise(st, n_resamples=2000, seed=sub_seed(5, 4, 0, 1), correction="none", resampling="items")
    iu = np.triu_indices(st.n_systems, 1)
    assert np.array_equal(c.pvalues[-1][0], full.pvalues[iu])
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    c.plot(tmp_path / "curve.png")
    assert (tmp_path / "curve.png").stat().st_size > 10_000
