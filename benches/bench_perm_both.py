"""PERM-BOTH's two schemes at B = 10^5 against independent implementations.

``perm-both`` swaps each (system, item) cell of metrics A and B on its own coin (the paper's code,
sacrerouge); ``perm-both-rowcol`` swaps whole systems, then whole items (nlpstats'
``permutation_test(..., "both")``), so a cell is swapped when exactly one of its row's and its
column's coins says so. Each is checked at system level (Pearson, z-normalised metrics, p = c/B)
against a vectorised numpy implementation written from those definitions and, on the synthetic
table, against nlpstats itself (its "both", and its driver with a cell-wise swap function), all at
B = 10^5. Differences are given in standard errors of the difference of two independent estimates,
sqrt(2 p (1 - p) / B). The same p-values show how far the two schemes are apart.

    .venv/bin/python benches/bench_perm_both.py            # synthetic + WMT21 data (../shared/data)
    .venv/bin/python benches/bench_perm_both.py -n 20000   # quicker
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import time
import warnings
from pathlib import Path

import numpy as np

from sigfast import metaeval

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def perm_numpy(h: np.ndarray, x: np.ndarray, y: np.ndarray, scheme: str, B: int, seed: int) -> float:
    """System-level Pearson PERM test, p = c/B, vectorised over chunks of resamples."""
    rng = np.random.default_rng(seed)
    ok = ~np.isnan(h)
    cnt = ok.sum(1)

    def z(a: np.ndarray) -> np.ndarray:
        v = a[ok]
        return np.where(ok, (a - v.mean()) / v.std(), 0.0)

    x, y = z(x), z(y)
    hm = np.where(ok, h, 0.0).sum(1) / cnt
    hc = hm - hm.mean()

    def r(means: np.ndarray) -> np.ndarray:
        a = means - means.mean(-1, keepdims=True)
        return (a @ hc) / np.sqrt((a * a).sum(-1) * (hc @ hc))

    xs, ys = x.sum(1), y.sum(1)
    obs = r(xs / cnt) - r(ys / cnt)
    s, n = h.shape
    c = 0
    step = max(1, 2_000_000 // (s * n))
    diff = y - x  # zero on unscored cells
    for start in range(0, B, step):
        k = min(step, B - start)
        if scheme == "both":
            mask = rng.random((k, s, n)) < 0.5
        else:
            mask = (rng.random((k, s, 1)) < 0.5) ^ (rng.random((k, 1, n)) < 0.5)
        t = (mask * diff).sum(-1)  # sum over a system's swapped cells of (y - x)
        d = r((xs + t) / cnt) - r((ys - t) / cnt)
        c += int(np.sum(np.abs(d) >= abs(obs) - 1e-12))
    return c / B


def perm_nlpstats(h: np.ndarray, x: np.ndarray, y: np.ndarray, scheme: str, B: int, seed: int) -> float:
    from nlpstats.correlations import permutation_test

    def cells(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mask = np.random.rand(*a.shape) > 0.5
        return np.where(mask, b, a), np.where(mask, a, b)

    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = permutation_test(
            x, y, h, "system", "pearson", "both" if scheme == "both-rowcol" else cells, n_resamples=B
        )
    return float(res.pvalue)


def synthetic() -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(15)
    h = rng.integers(0, 6, (8, 20)).astype(float)
    a = h + rng.normal(0, 1.0, h.shape).round(1)
    b = a + rng.normal(0, 1.0, h.shape)
    return h, np.stack([a, b]), ["A", "B"]


def wmt() -> list[tuple[str, np.ndarray, np.ndarray, list[str]]]:
    out = []
    mqm = SHARED / "metric_meta_evaluation" / "wmt21_newstest2021_en_de_mqm"
    if mqm.is_dir():
        human = metaeval.read_scores(mqm / "mqm_newstest2021_ende.avg_seg_scores.tsv")
        human = metaeval.ScoreTable(
            tuple("NVIDIA-NeMo" if s == "Nemo" else s for s in human.systems), human.items, human.values
        )
        systems = (
            "Facebook-AI",
            "HuaweiTSC",
            "NVIDIA-NeMo",
            "Online-W",
            "UEdin",
            "VolcTrans-AT",
            "VolcTrans-GLAT",
            "eTranslation",
        )
        hyps = {s: mqm / "system-outputs" / f"newstest2021.en-de.hyp.{s}.de" for s in systems}
        ref = mqm / "newstest2021.en-de.ref.A.de"
        tables = {k: metaeval.segment_scores(ref, hyps, metric=v) for k, v in (("chrF", "chrf"), ("chrF++", "chrf++"))}
        _, _, h, m = metaeval.align(human, tables)
        out.append(("WMT21 en-de MQM", h, m, list(tables)))
    da = SHARED / "machine_translation" / "wmt21_newstest2021_de_en"
    if da.is_dir():
        z = metaeval.read_scores(da / "humaneval" / "ad-seg-scores-de-en.csv", layout="long", score_column="Z.SCR")
        name = lambda s: "NVIDIA-NeMo" if re.sub(r"\.\d+$", "", s) == "Nemo" else re.sub(r"\.\d+$", "", s)
        z = metaeval.ScoreTable(tuple(name(s) for s in z.systems), z.items, z.values)
        hyps = {p.name.split(".")[-2]: p for p in sorted((da / "system-outputs").glob("*.en"))}
        ref = da / "newstest2021.de-en.ref.A.en"
        tables = {
            k: metaeval.segment_scores(ref, hyps, metric=v) for k, v in (("sentBLEU", "bleu"), ("chrF++", "chrf++"))
        }
        _, _, h, m = metaeval.align(z, tables)
        out.append(("WMT21 de-en DA", h, m, list(tables)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--resamples", type=int, default=100_000)
    ap.add_argument("--no-nlpstats", action="store_true")
    args = ap.parse_args()
    B = args.resamples
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}")
    print(f"system level, Pearson, two-sided, p = c/B, B = {B}; z = (p1 - p2) / sqrt(2 p (1 - p) / B)")
    head = f"{'data':<18} {'pair':<16} {'scheme':<12} {'sigfast':>8} {'numpy':>8} {'z':>6}"
    print(head + f" {'nlpstats':>9} {'z':>6} {'secs':>6}")
    sets = [("synthetic 8x20", *synthetic())] + wmt()
    for label, h, m, names in sets:
        for scheme in ("both", "both-rowcol"):
            t = time.perf_counter()
            r = metaeval.evaluate(
                h, m, names=names, level="system", statistic="pearson", interval="none", test=f"perm-{scheme}",
                n_resamples=B, pvalue="raw", seed=7,
            )  # fmt: skip
            ps = float(r.pvalues[0, 1])
            pn = perm_numpy(h, m[0], m[1], scheme, B, seed=11)

            def zz(a: float, b: float) -> float:
                p = (a + b) / 2
                return (a - b) / math.sqrt(2 * p * (1 - p) / B) if 0 < p < 1 else 0.0

            nl, znl = "", ""
            if label.startswith("synthetic") and not args.no_nlpstats:
                pl = perm_nlpstats(h, m[0], m[1], scheme, B, seed=3)
                nl, znl = f"{pl:.4f}", f"{zz(ps, pl):+.2f}"
            secs = time.perf_counter() - t
            print(
                f"{label:<18} {names[0] + ' vs ' + names[1]:<16} {scheme:<12} {ps:>8.4f} {pn:>8.4f} "
                f"{zz(ps, pn):>+6.2f} {nl:>9} {znl:>6} {secs:>6.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
