"""Bootstrap variants named after a tool reproduce that tool's rule.

* ``variant="sacrebleu"``: sacrebleu 2.x ``significance._paired_bs_test``
  counts |δ*| − mean|δ*| > |δ| and reports (c+1)/(B+1).
* ``variant="moses"``: Moses' ``bootstrap-hypothesis-difference-significance.pl``
  counts |δ*| − mean|δ*| ≥ |δ| and reports c/B (``pvalue="raw"``).
* ``variant="shifted"``: |δ* − mean δ*| ≥ |δ|, a different (centred) rule.

The same-resamples tests draw sigfast's resample indices with the independent
numpy oracle (``tests/oracle.py``), compute every resample's BLEU with
sacrebleu's own ``_compute_score_from_stats`` on sacrebleu's own per-segment
statistics, apply the tool's rule in numpy, and compare the count with
sigfast's. The end-to-end test runs sacrebleu's ``PairedTest`` (its own
random resamples) and compares p-values within Monte-Carlo error.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import sigfast
from oracle import boot_indices

WMT = "machine_translation/wmt21_newstest2021_de_en"
# sacrebleu's own PairedTest outputs where running it takes ~20 s (scripts/sacrebleu_paired_bs_outputs.py)
SACREBLEU = json.loads((Path(__file__).parent / "data" / "peer" / "sacrebleu_paired_bs.json").read_text())


def _wmt(shared_data, a="Facebook-AI", b="UEdin", n=None):
    d = shared_data / WMT
    refs = [d / "newstest2021.de-en.ref.A.en"]
    hyps = {s: d / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in (a, b)}
    lines = {s: p.read_text(encoding="utf-8").split("\n")[:-1] for s, p in hyps.items()}
    ref_lines = [r.read_text(encoding="utf-8").split("\n")[:-1] for r in refs]
    if n is not None:
        lines = {s: v[:n] for s, v in lines.items()}
        ref_lines = [r[:n] for r in ref_lines]
    return lines, ref_lines


def _sacre_rule(bl: np.ndarray, sy: np.ndarray, real: float, strict: bool) -> int:
    diffs = np.abs(sy - bl)
    stats = diffs - diffs.mean()
    return int(np.sum(stats > real)) if strict else int(np.sum(stats >= real))


@pytest.mark.parametrize("variant", ["sacrebleu", "moses"])
def test_same_resamples_same_count(shared_data, tmp_path, variant):
    from sacrebleu.metrics import BLEU

    lines, refs = _wmt(shared_data, n=300)
    names = list(lines)
    for s in names:
        (tmp_path / f"{s}.txt").write_text("\n".join(lines[s]) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    stats = sigfast.read(tmp_path / "ref.txt", {s: tmp_path / f"{s}.txt" for s in names}, format="mt", metric="bleu")
    B, seed = 400, 20261122
    r = sigfast.paired_bootstrap(stats, variant=variant, n_resamples=B, seed=seed, resampling="items")

    # sacrebleu's own statistics and score function, on sigfast's resample indices
    bleu = BLEU()
    st = {s: np.array(bleu._extract_corpus_statistics(lines[s], refs), dtype="float32") for s in names}
    score = {s: bleu._compute_score_from_stats(list(st[s].sum(0))).score for s in names}
    idx = np.stack([boot_indices(seed, b, len(refs[0])) for b in range(B)])
    per = {s: np.array([bleu._compute_score_from_stats(list(st[s][i].sum(0))).score for i in idx]) for s in names}
    real = abs(score[names[0]] - score[names[1]])
    c = _sacre_rule(per[names[0]], per[names[1]], real, strict=variant == "sacrebleu")
    assert r.count == c
    assert r.pvalue == pytest.approx((c + 1) / (B + 1), abs=0)
    raw = sigfast.paired_bootstrap(stats, variant=variant, n_resamples=B, seed=seed, resampling="items", pvalue="raw")
    assert raw.pvalue == c / B


def test_shifted_is_a_different_rule(shared_data, tmp_path):
    lines, refs = _wmt(shared_data, n=300)
    for s in lines:
        (tmp_path / f"{s}.txt").write_text("\n".join(lines[s]) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    stats = sigfast.read(tmp_path / "ref.txt", {s: tmp_path / f"{s}.txt" for s in lines}, format="mt", metric="bleu")
    kw = dict(n_resamples=2000, seed=3, resampling="items", return_distribution=True)
    sh = sigfast.paired_bootstrap(stats, variant="shifted", **kw)
    sb = sigfast.paired_bootstrap(stats, variant="sacrebleu", **kw)
    d = sh.distribution[:, 1] - sh.distribution[:, 0]
    assert sh.count == int(np.sum(np.abs(d - d.mean()) >= abs(sh.statistic)))
    assert sb.count == int(np.sum(np.abs(d) - np.abs(d).mean() > abs(sb.statistic)))
    assert sh.variant == "shifted" and sb.variant == "sacrebleu" and sh.signature != sb.signature


@pytest.mark.slow
def test_end_to_end_against_sacrebleu_paired_bs(shared_data):
    """WMT21 de-en BLEU, Facebook-AI vs UEdin: sacrebleu's own --paired-bs p within Monte-Carlo error
    (its p-values under SACREBLEU_SEED = 1, 2, 3, recorded by ``scripts/sacrebleu_paired_bs_outputs.py``)."""
    names = ["Facebook-AI", "UEdin"]
    d = shared_data / WMT
    stats = sigfast.read(
        d / "newstest2021.de-en.ref.A.en",
        {s: d / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in names},
        format="mt",
        metric="bleu",
    )
    r = sigfast.paired_bootstrap(stats, variant="sacrebleu", n_resamples=100_000, seed=12345)
    ps = list(SACREBLEU["facebook_ai_vs_uedin_bleu_1000_by_sacrebleu_seed"].values())
    assert len(ps) == 3
    p_sb = float(np.mean(ps))
    se = math.sqrt(p_sb * (1 - p_sb) / (1000 * len(ps))) + math.sqrt(r.pvalue * (1 - r.pvalue) / 100_000)
    assert abs(r.pvalue - p_sb) < 4 * se, (r.pvalue, ps)


def test_draws_sacrebleu_reproduces_sacrebleu_paired_bs_exactly(shared_data, monkeypatch):
    """``draws="sacrebleu"``: sacrebleu's own ``PairedTest`` p-values (BLEU and chrF, WMT21 de-en
    Facebook-AI vs Online-B, its default seed 12345 and 1,000 resamples; recorded by
    ``scripts/sacrebleu_paired_bs_outputs.py``) to the last digit, from paired_bootstrap and from
    pairwise; SACREBLEU_SEED's value passed as ``seed`` on a slice (sacrebleu run live)."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    names = ["Facebook-AI", "Online-B"]
    res = SACREBLEU["facebook_ai_vs_online_b_default_seed_1000"]
    d = shared_data / WMT
    hyps = {s: d / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in names}
    for metric, key in (("bleu", "BLEU"), ("chrf", "chrF2")):
        stats = sigfast.read(d / "newstest2021.de-en.ref.A.en", hyps, format="mt", metric=metric)
        r = sigfast.paired_bootstrap(stats, variant="sacrebleu", draws="sacrebleu", n_resamples=1000, seed=12345)
        assert r.pvalue == res[key]["pvalue"], (metric, r.pvalue, res[key]["pvalue"])
        assert r.score_y == pytest.approx(res[key]["score_y"], abs=1e-9)
        assert "draws:sacrebleu" in r.signature and "stream:numpy-pcg64-choice" in r.signature
        pw = sigfast.pairwise(stats, variant="sacrebleu", draws="sacrebleu", n_resamples=1000, correction="none")
        assert pw.pvalues[0, 1] == res[key]["pvalue"]
        own = sigfast.paired_bootstrap(stats, variant="sacrebleu", n_resamples=1000, seed=12345)
        assert own.signature != r.signature  # sigfast's own draws: the same rule, other resamples
    # SACREBLEU_SEED=7 in sacrebleu is seed=7 here (a 200-segment slice keeps it quick)
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    short, short_refs = _wmt(shared_data, "Facebook-AI", "Online-B", n=200)
    pt = PairedTest([(s, short[s]) for s in names], {"BLEU": BLEU()}, short_refs, test_type="bs", n_samples=300)
    _, res = pt()
    x, y = (np.array(BLEU()._extract_corpus_statistics(short[s], short_refs), dtype=np.float64) for s in names)
    r = sigfast.paired_bootstrap(x, y, metric="bleu", variant="sacrebleu", draws="sacrebleu", n_resamples=300, seed=7)
    assert r.pvalue == res["BLEU"][1].p_value


def test_draws_sacrebleu_is_refused_where_it_has_no_meaning():
    x, y = np.arange(20.0), np.arange(20.0)[::-1]
    with pytest.raises(TypeError, match="draws"):
        sigfast.permutation_test(x, y, draws="sacrebleu")
    from sigfast.executor import request

    with pytest.raises(sigfast.InputError, match="permutation test draws swaps"):
        request("paired", x, y, test="permutation", draws="sacrebleu")
    with pytest.raises(sigfast.InputError, match="draws must be"):
        sigfast.paired_bootstrap(x, y, draws="numpy")
    with pytest.raises(sigfast.InputError, match="resampling='distinct'"):
        sigfast.paired_bootstrap(x, y, draws="sacrebleu", resampling="distinct")
    with pytest.raises(sigfast.InputError, match="computed on the items"):
        sigfast.paired_bootstrap(np.c_[x, y], np.c_[y, x], metric="pearson", draws="sacrebleu")
    with pytest.raises(sigfast.InputError, match="mode='shared'"):
        sigfast.pairwise({"a": x, "b": y}, draws="sacrebleu", mode="independent")
    # a mean under sacrebleu's draws: numpy's own resampled means
    r = sigfast.paired_bootstrap(x, y, draws="sacrebleu", n_resamples=50, seed=3, return_distribution=True)
    idx = np.random.default_rng(3).choice(20, size=(50, 20), replace=True)
    np.testing.assert_allclose(r.distribution, np.c_[x[idx].mean(1), y[idx].mean(1)], rtol=0, atol=1e-12)
