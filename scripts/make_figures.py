"""Draw every figure sigfast makes, on the shared data (../shared/data), to look at them.

    PYTHONPATH=python python scripts/make_figures.py OUT [pairwise curve calibration across metaeval]

Writes PNGs into OUT (nothing into the checkout) and prints the tables beside them: the BK
confidence-vs-gain plots and p-value heat maps (WMT21 de-en BLEU/chrF; file-stem names and full
stems), the test-size curve, the calibration study by en_ewt domain, Gorman & Bedrick's Figure 1
(en_ewt UPOS with McNemar and the standard split; LAS with the bootstrap) and the metaeval plots
(WMT21 en-de MQM). About two minutes on two cores.
"""

import glob
import os
import sys
import time

import sigfast
from sigfast import metaeval
from sigfast.results.plot import pyplot
from sigfast.studies import (
    across_splits,
    calibration,
    domains_from_item_ids,
    random_splits,
    split_units,
    test_size_curve,
    unit_statistics,
)

OUT = sys.argv[1]
which = set(sys.argv[2:])
os.makedirs(OUT, exist_ok=True)
S = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
WMT = f"{S}/machine_translation/wmt21_newstest2021_de_en"
EWT = f"{S}/dependency_parsing/conll2018_en_ewt"
plt = pyplot()


def want(k):
    return not which or k in which


t0 = time.time()
hyps = sorted(glob.glob(f"{WMT}/system-outputs/*.en"))
if want("pairwise") or want("curve"):
    st = sigfast.read(f"{WMT}/newstest2021.de-en.ref.A.en", hyps, format="mt", metric="bleu")
if want("pairwise"):
    labels = {s: ("online" if s.startswith("Online") else "research") for s in st.systems}
    pw = sigfast.pairwise(st, n_resamples=10000, labels=labels)
    plt.close(pw.plot_confidence_vs_gain(f"{OUT}/bk_confidence_vs_gain.png"))
    plt.close(pw.plot_heatmap(f"{OUT}/heatmap_bleu19.png"))
    st8 = sigfast.read(f"{WMT}/newstest2021.de-en.ref.A.en", hyps[:6], format="mt", metric="chrf")
    pw8 = sigfast.pairwise(st8, n_resamples=10000)
    plt.close(pw8.plot_heatmap(f"{OUT}/heatmap_chrf6.png"))
    plt.close(pw8.plot_confidence_vs_gain(f"{OUT}/bk_unlabeled_chrf6.png"))
    from sigfast.formats import system_names

    longn = system_names(hyps[:8], shorten=False)
    stl = sigfast.read(f"{WMT}/newstest2021.de-en.ref.A.en", dict(zip(longn, hyps[:8])), format="mt", metric="bleu")
    plt.close(sigfast.pairwise(stl, n_resamples=5000).plot_heatmap(f"{OUT}/heatmap_long_names.png"))
    print(pw.format("text"))
    print(pw8.tables()[2].render("text"))
    print("pairwise", time.time() - t0)
if want("curve"):
    c = test_size_curve(st, n_resamples=2000, seed=5)
    plt.close(c.plot(f"{OUT}/test_size_curve.png"))
    print(c.table())
    print("curve", time.time() - t0)
if want("calibration") or want("across"):
    systems = {os.path.basename(os.path.dirname(p)): p for p in sorted(glob.glob(f"{EWT}/systems/*/en_ewt.conllu.gz"))}
    parsed = sigfast.formats.parse("conllu", f"{EWT}/gold/en_ewt.conllu.gz", systems)
if want("calibration"):
    ewt = parsed.statistics("las")
    doms = domains_from_item_ids(ewt)
    rd = calibration(doms, m=300, n_test_sets=6, n_resamples=1000, seed=1)
    plt.close(rd.plot(f"{OUT}/calibration_domains.png"))
    print(rd.table())
    print("calibration", time.time() - t0)
if want("across"):
    sp = random_splits(f"{EWT}/gold/en_ewt.conllu.gz", None, n_splits=20, seed=2019)
    units = parsed.units("upos")
    names = list(units.names)[:8]
    parts = split_units(units, sp, part="test")
    parts = [p.select(*names) for p in parts]
    std = unit_statistics(units).select(*names)
    r = across_splits(parts, standard=std)
    plt.close(r.plot(f"{OUT}/gb_figure1_mcnemar.png"))
    print(r.table(max_rows=5))
    las = parsed.statistics("las")
    from sigfast.studies import split_statistics

    lp = [p.select(*names) for p in split_statistics(las, sp, part="test")]
    rb = across_splits(lp, test="bootstrap", n_resamples=500)
    plt.close(rb.plot(f"{OUT}/gb_figure1_bootstrap.png"))
    print(rb.table(max_rows=5))
    print("across", time.time() - t0)
if want("metaeval"):
    M = f"{S}/metric_meta_evaluation/wmt21_newstest2021_en_de_mqm"
    h = metaeval.read_scores(f"{M}/mqm_newstest2021_ende.avg_seg_scores.tsv")
    mh = sorted(glob.glob(f"{M}/system-outputs/*.de"))
    from sigfast.formats import system_names

    hy = dict(zip(system_names(mh), mh))
    tabs = {
        lab: metaeval.segment_scores(f"{M}/newstest2021.en-de.ref.A.de", hy, metric=m)
        for lab, m in (("sentBLEU", "bleu"), ("chrF", "chrf"), ("chrF++", "chrf++"))
    }
    tabs["COMET"] = metaeval.read_scores(f"{M}/COMET_newstest2021_ref-A.tsv")
    s_, i_, hh, mm = metaeval.align(h, tabs, level="system")
    r = metaeval.evaluate(hh, mm, names=list(tabs), systems=s_, level="system", statistic="pearson", n_resamples=2000)
    plt.close(r.plot(f"{OUT}/metaeval_system.png"))
    print(r)
    r2 = metaeval.evaluate(
        hh[:, :], mm[:3], names=list(tabs)[:3], systems=s_, level="item", statistic="kendall_b", n_resamples=300
    )
    plt.close(r2.plot(f"{OUT}/metaeval_item.png"))
    print(r2)
    print("metaeval", time.time() - t0)
