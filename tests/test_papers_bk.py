"""Berg-Kirkpatrick, Burkett & Klein (2012): everything the paper reports, from the API and the shell.

* §3.1.1 gain threshold: the percentile of |gain| over comparisons with p in
  a band, printed in the metric's display scale (points for fractions) with a
  warning when few comparisons carry it, in every report and output style
  (``pairwise --band --percentile``, test-size tables).
* Table 1 (calibration): one table per target domain, counts checked by hand
  on a tiny pool.
* Fig. 11: domains overlaid at a fixed test size; Figs. 9-10: the test-size
  plot with robust axes and no empty panel; Figs. 2-8: confidence vs gain,
  with unlabeled pairs said to be unlabeled; the heat map layout and cells.

Expected values are computed here by hand (percentiles by linear
interpolation written out, test sets redrawn from the documented seeds, means
and signs with numpy), never by calling the code under test a second way.
"""

from __future__ import annotations

import csv
import glob
import io
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast.cli import main
from sigfast.inference.pairwise import GainThreshold, gain_threshold
from sigfast.studies import calibration, domains_from_item_ids, test_size_curve

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"


@pytest.fixture(autouse=True)
def _close_figures():
    """Free the figures a test drew (pyplot keeps them open)."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


def _percentile(values: list[float], q: float) -> float:
    """numpy's default ('linear') percentile, written out: rank h = (n - 1) q / 100, interpolate."""
    xs = sorted(values)
    h = (len(xs) - 1) * q / 100
    lo = math.floor(h)
    if lo + 1 >= len(xs):
        return xs[lo]
    return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])


def _accuracy_systems(n: int = 300, rates=(0.70, 0.72, 0.74, 0.75, 0.80), seed: int = 0) -> dict[str, np.ndarray]:
    """Per-item accuracy counts [correct, total] (3 tokens per item) for several systems."""
    rng = np.random.default_rng(seed)
    return {f"s{k}": np.stack([rng.binomial(3, r, n), np.full(n, 3)], 1) for k, r in enumerate(rates)}


# --------------------------------------------------------------------------- §3.1.1 gain threshold
def test_min_reliable_and_warning_by_hand() -> None:
    # the q-th percentile of n gains is more than an interpolation of the two largest only when n >= 1/(1 - q)
    assert GainThreshold("all", 0.01, 3, (0.04, 0.06), 95).min_reliable == 20
    assert GainThreshold("all", 0.01, 3, (0.04, 0.06), 90).min_reliable == 10
    assert GainThreshold("all", 0.01, 3, (0.04, 0.06), 50).min_reliable == 5
    few = GainThreshold("all", 0.0123, 19, (0.04, 0.06), 95)
    enough = GainThreshold("all", 0.0123, 20, (0.04, 0.06), 95)
    assert "warning: only 19 comparisons" in few.describe(100)
    assert "warning" not in enough.describe(100)
    # display scale: points for fractions (x100, two decimals), the metric's own units otherwise
    assert enough.describe(100).startswith("gain threshold (all pairs): 1.23 points, the 95th percentile")
    assert enough.describe(1).startswith("gain threshold (all pairs): 0.0123, the 95th percentile")
    none = GainThreshold("same", None, 0, (0.04, 0.06), 95)
    assert none.describe(100) == "gain threshold (same group): no comparison with p in [0.04, 0.06]"
    assert none.to_dict()["warning"] == "no comparison with p in [0.04, 0.06]"


def test_threshold_by_hand_in_report_and_tables() -> None:
    pw = sigfast.pairwise(_accuracy_systems(), metric="accuracy", n_resamples=2000, seed=3)
    assert pw.display_scale == 100
    band, q = (0.0, 0.5), 80.0
    # by hand: the gains |m(j) - m(i)| of the pairs whose p lies in the band
    acc = {k: v[:, 0].sum() / v[:, 1].sum() for k, v in _accuracy_systems().items()}
    names = list(acc)
    gains = []
    for i in range(5):
        for j in range(i + 1, 5):
            if band[0] <= pw.pvalues[i, j] <= band[1]:
                gains.append(abs(acc[names[j]] - acc[names[i]]))
    assert len(gains) >= 2
    expected = _percentile(gains, q)
    (th,) = pw.gain_thresholds(band=band, percentile=q)  # no labels: one class, "all" only
    assert th.threshold == pytest.approx(expected, abs=1e-12)
    assert th.n_comparisons == len(gains)
    line = f"gain threshold (all pairs): {100 * expected:.2f} points, the 80th percentile of |delta| over {len(gains)}"
    assert line in pw.format("text", band=band, percentile=q)
    ttab = pw.tables(band=band, percentile=q)[2]
    assert ttab.rows[0][:3] == ("all pairs", f"{100 * expected:.2f}", len(gains))
    assert any(line in n for n in ttab.notes)
    for style in ("text", "csv", "markdown", "latex"):
        assert f"{100 * expected:.2f}" in ttab.render(style)
    # the default band and percentile: 95th percentile, few comparisons -> a warning in the report
    assert "gain threshold (all pairs)" in pw.format("text")


def test_pair_classes_unlabeled_by_default() -> None:
    pw = sigfast.pairwise(_accuracy_systems(), metric="accuracy", n_resamples=500)
    assert {c["pair_class"] for c in pw.comparisons()} == {"unlabeled"}
    assert [t.pair_class for t in pw.gain_thresholds(band=(0, 1))] == ["all"]  # not "all" and a duplicate
    lab = sigfast.pairwise(
        _accuracy_systems(), metric="accuracy", n_resamples=500, labels={"s0": "A", "s1": "A", "s2": "B"}
    )
    assert lab.pair_class(0, 1) == "same" and lab.pair_class(0, 2) == "different"
    assert lab.pair_class(0, 3) == "unlabeled"  # s3 has no label: the class is unknown, not "different"
    assert [t.pair_class for t in lab.gain_thresholds(band=(0, 1))] == ["all", "same", "different", "unlabeled"]
    # by hand: the "same" threshold is the gain of the one same-group pair (s0, s1)
    same = gain_threshold(lab, band=(0, 1), percentile=95)[1]
    assert same.n_comparisons == 1 and same.threshold == pytest.approx(abs(lab.delta[0, 1]))


# --------------------------------------------------------------------------- CLI: pairwise --band --percentile
def _pos_files(tmp_path: Path, rates=(0.80, 0.83, 0.86, 0.87), n_sent: int = 120) -> list[str]:
    """Gold and system POS files (text layout, word_TAG), 5 tokens a sentence; system k errs at 1 - rate."""
    rng = np.random.default_rng(5)
    tags = ["NN", "VB", "DT", "JJ", "IN"]
    gold = [[(f"w{s}_{t}", tags[rng.integers(5)]) for t in range(5)] for s in range(n_sent)]
    (tmp_path / "gold.txt").write_text("\n".join(" ".join(f"{w}_{g}" for w, g in sent) for sent in gold) + "\n")
    files = [str(tmp_path / "gold.txt")]
    for k, r in enumerate(rates):
        lines = []
        for sent in gold:
            toks = []
            for w, g in sent:
                t = g if rng.random() < r else tags[(tags.index(g) + 1) % 5]
                toks.append(f"{w}_{t}")
            lines.append(" ".join(toks))
        f = tmp_path / f"tagger{k}.txt"
        f.write_text("\n".join(lines) + "\n")
        files.append(str(f))
    return files


def test_cli_pairwise_band_percentile_every_style(tmp_path, capsys) -> None:
    files = _pos_files(tmp_path)
    base = ["pairwise", "--format", "pos", *files, "-n", "2000", "--band", "0", "0.5", "--percentile", "75"]
    assert main([*base, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    # by hand from the JSON matrices: |delta| of the pairs i < j with p in [0, 0.5], 75th percentile
    gains = [abs(d["delta"][i][j]) for i in range(4) for j in range(i + 1, 4) if 0 <= d["pvalues"][i][j] <= 0.5]
    expected = _percentile(gains, 75)
    th = d["thresholds"][0]
    assert th["pair_class"] == "all" and th["band"] == [0.0, 0.5] and th["percentile"] == 75.0
    assert th["threshold"] == pytest.approx(expected, abs=1e-12) and th["n_comparisons"] == len(gains)
    assert (th["warning"] is not None) == (len(gains) < 5)  # the 75th percentile needs max(5, 1/0.25) = 5
    assert d["display_scale"] == 100
    shown = f"{100 * expected:.2f}"
    assert main(base) == 0
    text = capsys.readouterr().out
    assert f"gain threshold (all pairs): {shown} points, the 75th percentile of |delta| over {len(gains)}" in text
    assert ("(warning: only" in text) == (len(gains) < 5)
    for style in ("--markdown", "--latex"):
        assert main([*base, style]) == 0
        out = capsys.readouterr().out
        assert shown in out and "gain threshold" in out
    assert main([*base, "--csv"]) == 0  # data: one tidy row per pair, the numbers unrounded
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sorted(abs(float(r["delta"])) for r in rows if 0 <= float(r["pvalue"]) <= 0.5) == sorted(gains)
    assert main([*base, "--output", str(tmp_path / "p.md")]) == 0
    assert shown in (tmp_path / "p.md").read_text()


def test_cli_pairwise_band_checked_before_work(tmp_path, capsys) -> None:
    files = _pos_files(tmp_path, n_sent=10)
    assert main(["pairwise", "--format", "pos", *files, "--band", "0.3", "0.1"]) == 2
    assert "--band LOW HIGH needs LOW <= HIGH" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["pairwise", "--format", "pos", *files, "--percentile", "101"])
    with pytest.raises(SystemExit):
        main(["pairwise", "--format", "pos", *files, "--band", "0", "1.5"])


# --------------------------------------------------------------------------- test-size tables (Figs. 9-10)
def _scores(n: int = 400, means=(0.60, 0.62, 0.65, 0.70), seed: int = 1) -> sigfast.Statistics:
    rng = np.random.default_rng(seed)
    return sigfast.Statistics.from_scores({f"m{k}": (rng.random(n) < p).astype(float) for k, p in enumerate(means)})


def test_test_size_table_uses_describe_by_hand() -> None:
    st = _scores()
    c = test_size_curve(st, sizes=[100, 400], n_resamples=1000, seed=2, band=(0.0, 0.6), percentile=90)
    t = c.tables()[0]
    for z, size in enumerate(c.sizes):
        p, g = c.pvalues[z].ravel(), c.gains[z].ravel()
        # the gains by hand: |mean of the first `size` items, system j - system i|
        v = st.values[:, :size, 0].mean(1)
        hand = np.array([abs(v[j] - v[i]) for i, j in c.pairs])
        assert np.allclose(g, hand)
        sel = [float(x) for x, pp in zip(hand, p) if 0.0 <= pp <= 0.6]
        expected = _percentile(sel, 90) if sel else None
        row = t.rows[z]
        assert row[0] == size and row[2] == len(sel)
        if expected is None:
            assert row[1] == "" and t.notes[z] == f"gain threshold (size {size}): no comparison with p in [0, 0.6]"
        else:
            assert row[1] == f"{expected:.4g}"  # metric "mean": the metric's own units
            assert t.notes[z].startswith(
                f"gain threshold (size {size}): {expected:.4g} mean units, the 90th percentile"
            )
            assert ("warning" in t.notes[z]) == (len(sel) < 10)
    d = json.loads(c.to_json(include_tests=False))
    assert [g["pair_class"] for g in d["gain_thresholds"]] == ["size 100", "size 400"]


# --------------------------------------------------------------------------- Table 1 per target domain
def _domain_pools() -> dict[str, sigfast.Statistics]:
    rng = np.random.default_rng(11)
    pools = {}
    # domain "news": c > b > a; domain "web": the order of a and b flips
    for dom, ps, n in (("news", (0.60, 0.66, 0.75), 50), ("web", (0.66, 0.60, 0.70), 40)):
        pools[dom] = sigfast.Statistics.from_scores({s: (rng.random(n) < p).astype(float) for s, p in zip("abc", ps)})
    return pools


def test_calibration_per_target_counts_by_hand() -> None:
    pools = _domain_pools()
    seed, m, T = 7, 30, 6
    r = calibration(pools, m=m, n_test_sets=T, n_resamples=400, seed=seed)
    pairs = [(0, 1), (0, 2), (1, 2)]
    assert list(r.pairs) == pairs
    pop = {
        d: np.array([st.values[j, :, 0].mean() - st.values[i, :, 0].mean() for i, j in pairs])
        for d, st in pools.items()
    }
    hand_delta = {}
    for di, (d, st) in enumerate(pools.items()):
        rows = []
        for t in range(T):
            # test set t of domain d: m items with replacement from the generator seeded by (seed, d, t)
            idx = np.random.default_rng(np.random.SeedSequence([seed, di, t])).integers(0, st.n_items, m)
            v = st.values[:, idx, 0].mean(1)
            rows.append([v[j] - v[i] for i, j in pairs])
        hand_delta[d] = np.array(rows)
        assert np.allclose(r.deltas[d], hand_delta[d])
        assert np.allclose(r.population_delta[d], pop[d])
    per = r.per_target()
    tables = r.tables()
    assert len(tables) == 1 + len(pools)  # pooled, then one per target domain
    for k, tgt in enumerate(pools):
        table = tables[1 + k]
        assert table.title.startswith(f"target domain {tgt}:")
        sources = [tgt] + [d for d in pools if d != tgt]
        assert table.header[2:-1] == tuple(f"from {s} (in-domain)" if s == tgt else f"from {s}" for s in sources)
        for b, (lo, hi) in enumerate(r.bands):
            cross_n = cross_a = 0
            for s_i, src in enumerate(sources):
                p = r.pvalues[src]
                n = a = 0
                for t in range(T):
                    for q in range(3):
                        x, y = hand_delta[src][t, q], pop[tgt][q]
                        in_band = (p[t, q] > lo or lo == 0) and p[t, q] <= hi
                        if not in_band or x == 0 or y == 0:
                            continue
                        n += 1
                        a += (x > 0) == (y > 0)
                got = per[tgt][b]["sources"][src]
                assert (got["n"], got["agree"]) == (n, a), (tgt, src, lo, hi)
                assert table.rows[b][2 + s_i] == ("" if n == 0 else f"{100 * a / n:.1f}% ({n})")
                if src != tgt:
                    cross_n += n
                    cross_a += a
            assert per[tgt][b]["cross_domain"]["n"] == cross_n
            assert table.rows[b][-1] == ("" if cross_n == 0 else f"{100 * cross_a / cross_n:.1f}% ({cross_n})")
    for style in ("text", "markdown", "latex"):
        out = sigfast.report.render_tables(tables, style)
        assert "target domain news" in out and "target domain web" in out
    pairs_seen = {(row["source"], row["target"]) for row in r.rows()}  # tidy data: one row per (source, target, band)
    assert pairs_seen == {(a, b) for a in ("news", "web") for b in ("news", "web")}
    d = json.loads(r.to_json())
    assert set(d["per_target"]) == {"news", "web"}
    # one domain: the pooled table is the in-domain one; no per-target tables
    assert len(calibration(pools["news"], m=20, n_test_sets=2, n_resamples=200).tables()) == 1


def _conllu(tmp_path: Path) -> list[str]:
    """Gold and 3 parsers in CoNLL-U; sentence ids carry a genre prefix (news-*, web-*), as EWT's do.

    Gold trees: word 1 is the root, word i attaches to a random earlier word. A parser's error keeps
    the tree and changes the relation (a LAS error)."""
    rng = np.random.default_rng(2)
    sents = []
    for k in range(60):
        heads = [0] + [int(rng.integers(1, i + 1)) for i in range(1, 5)]
        sents.append((f"{'news' if k < 30 else 'web'}-{k}", heads))
    files = []
    for name, err in (("gold", 0.0), ("p1", 0.15), ("p2", 0.25), ("p3", 0.35)):
        out = []
        for sid, heads in sents:
            out.append(f"# sent_id = {sid}\n# text = a b c d e")
            # genre-dependent errors: p2 is worse on news, p3 on web
            worse = (name == "p2" and sid.startswith("news")) or (name == "p3" and sid.startswith("web"))
            for i, h in enumerate(heads):
                rel = "root" if h == 0 else "dep"
                if name != "gold" and h != 0 and rng.random() < err + (0.1 if worse else 0.0):
                    rel = "obj"
                out.append(f"{i + 1}\t{'abcde'[i]}\t{'abcde'[i]}\tX\tX\t_\t{h}\t{rel}\t_\t_")
            out.append("")
        f = tmp_path / f"{name}.conllu"
        f.write_text("\n".join(out) + "\n")
        files.append(str(f))
    return files


def test_cli_calibration_per_target_tables_and_plot(tmp_path, capsys) -> None:
    files = _conllu(tmp_path)
    base = ["calibration", "--format", "conllu", "--metric", "las", *files, "--domains-by-id-prefix"]
    base += ["--size", "20", "--test-sets", "4", "-n", "300"]
    assert main([*base, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["domains"] == ["news", "web"] and set(d["per_target"]) == {"news", "web"}
    assert main([*base, "--plot", str(tmp_path / "cal.png")]) == 0
    text = capsys.readouterr().out
    assert "target domain news" in text and "from news (in-domain)" in text and "from web" in text
    for style in ("--markdown", "--latex"):
        assert main([*base, style]) == 0
        assert "target domain web" in capsys.readouterr().out
    assert main([*base, "--csv"]) == 0  # data: one tidy row per (source, target, band)
    assert "source,target,in_domain,band_0,band_1,n,agree" in capsys.readouterr().out
    assert (tmp_path / "cal.png").read_bytes()[:4] == b"\x89PNG"


# --------------------------------------------------------------------------- plots
def test_fig11_domains_overlaid_at_fixed_size(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    r = calibration(_domain_pools(), m=30, n_test_sets=6, n_resamples=300, seed=7)
    fig = r.plot_domains(tmp_path / "fig11.png")
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["news (18 tests)", "web (18 tests)"]  # 6 test sets x 3 pairs each
    assert f"m = {r.m}" in ax.get_title()
    both = r.plot(tmp_path / "cal.png")
    assert len(both.axes) == 2
    assert (tmp_path / "fig11.png").stat().st_size > 10_000


def test_test_size_plot_robust_axes_and_no_empty_panel(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(4)
    base = (rng.random(400) < 0.7).astype(float)
    scores = {"a": base, "a_copy": base.copy()}  # identical: gain 0, p = 1 under the BK rule (confidence 0)
    for k, p in enumerate((0.72, 0.75, 0.8)):
        scores[f"s{k}"] = (rng.random(400) < p).astype(float)
    st = sigfast.Statistics.from_scores(scores)
    c = test_size_curve(st, sizes=[100, 200, 400], n_resamples=500, seed=3)
    conf = np.concatenate([1 - p.ravel() for p in c.pvalues])
    assert conf.min() == 0.0  # the zero-gain pair: p = 1 under the BK rule
    fig = c.plot(tmp_path / "ts.png")
    ax1 = fig.axes[0]
    lo, _ = ax1.get_ylim()
    assert lo > 0.3  # not dragged to 0 by the zero-gain pair
    assert "robust" in ax1.get_ylabel() and "below, on the edge" in ax1.get_ylabel()
    for ax in fig.axes:  # no empty panel
        assert ax.collections or ax.lines
    one = test_size_curve(st, sizes=[400], n_resamples=300, seed=3).plot()
    assert len(one.axes) == 1  # one size: nothing to draw against size, so no second panel


def test_confidence_vs_gain_says_unlabeled(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    pw = sigfast.pairwise(_accuracy_systems(), metric="accuracy", n_resamples=1000)
    fig = pw.plot_confidence_vs_gain(tmp_path / "c.png", band=(0, 1), percentile=50)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "all pairs (10), unlabeled"
    th = pw.gain_thresholds(band=(0, 1), percentile=50)[0]
    assert any(lb.startswith(f"gain threshold {100 * th.threshold:.2f} points") for lb in labels)
    assert any("no labels given" in t.get_text() for t in ax.texts)
    lab = sigfast.pairwise(_accuracy_systems(), metric="accuracy", n_resamples=500, labels={"s0": "A", "s1": "A"})
    labels = [t.get_text() for t in lab.plot_confidence_vs_gain().axes[0].get_legend().get_texts()]
    assert labels[:2] == ["same group (1)", "unlabeled (9)"]


@pytest.mark.parametrize("n", [3, 4, 6])
def test_heatmap_cells_marks_and_layout(n, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    rates = (0.70, 0.71, 0.78, 0.80, 0.83, 0.90)[:n]
    pw = sigfast.pairwise(_accuracy_systems(rates=rates), metric="accuracy", n_resamples=2000, seed=1)
    fig = pw.plot_heatmap(tmp_path / "h.png")
    ax = fig.axes[0]
    order = pw.order()
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
    assert len(cells) == n * n
    for a in range(n):
        for b in range(n):
            txt = cells[(a, b)]
            if a == b:
                assert txt == "-"
                continue
            p = pw.adjusted[order[a], order[b]]
            shown = "<.001" if p < 0.001 else f"{p:.3f}".lstrip("0") if p < 1 else "1"
            assert txt == shown + ("*" if p < pw.alpha else "")
    # the title sits above the plot and the colour bar, overlapping neither
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    title = fig._suptitle.get_window_extent(renderer)
    for other in fig.axes:  # the heat map and its colour bar
        box = other.get_tightbbox(renderer)
        assert title.y0 >= box.y1 - 1 or not title.overlaps(box)


# --------------------------------------------------------------------------- the paper's findings on real data
@pytest.fixture(scope="module")
def ewt_las():
    if not (EWT / "gold" / "en_ewt.conllu.gz").is_file():
        pytest.skip("en_ewt data absent")
    systems = {
        os.path.basename(os.path.dirname(p)): p
        for p in sorted(glob.glob(str(EWT / "systems" / "*" / "en_ewt.conllu.gz")))
    }
    return sigfast.read(str(EWT / "gold" / "en_ewt.conllu.gz"), systems, format="conllu", metric="las")


def test_en_ewt_cross_domain_calibration_weaker_per_target(ewt_las) -> None:
    """BK Table 1 / §4.2: near p = 0.05 tests agree with their own domain's population about as often as
    1 - p says, and with other genres' populations less often, for every target genre of en_ewt."""
    doms = domains_from_item_ids(ewt_las)
    r = calibration(doms, m=300, n_test_sets=8, n_resamples=1000, seed=1, bands=[(0.0, 0.01), (0.01, 0.1), (0.1, 1)])
    for tgt, entries in r.per_target().items():
        near = entries[1]  # (0.01, 0.1]
        assert near["in_domain"]["n"] >= 30
        assert near["in_domain"]["share"] > near["cross_domain"]["share"], tgt
        assert near["in_domain"]["share"] >= 0.85, tgt


def test_en_ewt_threshold_shrinks_with_size_in_points(ewt_las) -> None:
    c = test_size_curve(ewt_las.select(*ewt_las.systems[:12]), sizes=[200, 2077], n_resamples=1000, seed=5)
    t = c.tables()[0]
    assert "threshold (points)" in t.header[1]
    assert all(n.startswith("gain threshold (size") for n in t.notes)
    a, b = c.thresholds()
    assert a["max_nonsignificant_gain"] > b["max_nonsignificant_gain"]


# --------------------------------------------------------------------------- what a reader of the paper needs
def test_gain_threshold_units_for_bleu_fractions_and_plain_metrics() -> None:
    """Every threshold carries its unit: BLEU (0-100) and fractions (x100) in points, a mean in its own units."""
    from sigfast.inference.pairwise import GainThreshold
    from sigfast.metrics import gain_unit

    th = GainThreshold("all", 0.7564, 9, (0.04, 0.06), 95)
    assert th.describe(1, "points").startswith("gain threshold (all pairs): 0.76 points, ")
    assert th.describe(1, "mean units").startswith("gain threshold (all pairs): 0.7564 mean units, ")
    assert (
        GainThreshold("same", 0.0049, 30, (0.04, 0.06), 95)
        .describe(100)
        .startswith("gain threshold (same group): 0.49 points")
    )
    assert [gain_unit(m) for m in ("bleu", "chrf", "ter", "f1", "accuracy")] == ["points"] * 5
    assert gain_unit("mean") == "mean units" and gain_unit("my_metric") == "my_metric units"
    # per-item BLEU statistics of four systems: the pairwise report and threshold table say "points"
    rng = np.random.default_rng(2)
    stats = {}
    for k in range(4):
        correct = rng.integers(0, 6, (60, 4)).astype(float)
        total = correct + rng.integers(0, 3, (60, 4))
        stats[f"s{k}"] = np.c_[total[:, 0], total[:, 0] + 1, correct, total]
    from sigfast.metrics import get

    names = get("bleu").stat_names
    pw = sigfast.pairwise(sigfast.Statistics.from_counts(stats, stat_names=names, metric="bleu"), n_resamples=300)
    assert pw.gain_unit == "points"
    t = pw.threshold_table(band=(0, 1), percentile=50)
    assert t.header[1] == "gain threshold (points)"
    assert t.notes[0].startswith("gain threshold (all pairs): ") and " points, the 50th" in t.notes[0]
    assert " points, the 50th" in pw.format("text", band=(0, 1), percentile=50)


def test_heatmap_colour_scale_spans_the_p_values_shown(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    pw = sigfast.pairwise(_accuracy_systems(rates=(0.6, 0.7, 0.8, 0.9)), metric="accuracy", n_resamples=2000, seed=1)
    fig = pw.plot_heatmap(tmp_path / "h.png")
    im = fig.axes[0].images[0]
    shown = pw.adjusted[np.isfinite(pw.adjusted)]
    assert im.norm.vmin == pytest.approx(shown.min()) and im.norm.vmax == 1.0  # not 1/(B + 1)
    assert shown.min() > 1 / (pw.n_resamples + 1)  # Holm lifts the smallest p above the floor
    cbar_labels = [t.get_text() for t in fig.axes[1].get_yticklabels()]
    assert "0.05 (alpha)" in cbar_labels
    assert "no pair within a block differs significantly" in fig._suptitle.get_text()
    assert "do not differ" not in fig._suptitle.get_text()


def test_calibration_panel_log_p_axis_and_zero_differences_stated(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    r = calibration(_domain_pools(), m=30, n_test_sets=6, n_resamples=300, seed=7)
    fig = r.plot_calibration(tmp_path / "cal.png", min_tests=1)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and "log scale" in ax.get_xlabel()
    table = r.tables()[0]
    assert "left out (difference 0)" in table.header
    assert any(n.startswith("left out: tests whose observed difference") for n in table.notes)
    zeros = sum(int(((r.deltas[d] == 0) | (r.population_delta[d][None] == 0)).sum()) for d in r.domains)
    assert sum(e["in_domain"]["zero"] for e in r.summary()) <= zeros  # in-band zeros only


def test_test_size_line_breaks_where_a_size_has_no_threshold(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from sigfast.studies import TestSizeCurve

    pv = tuple(np.array([[p, 0.5, 0.9]]) for p in (0.05, 0.9, 0.05, 0.05))  # size 200: nothing in the band
    gains = tuple(np.array([[g, 0.1, 0.01]]) for g in (2.0, 1.5, 1.0, 0.5))
    c = TestSizeCurve(("a", "b", "c"), ((0, 1), (0, 2), (1, 2)), "accuracy", (100, 200, 400, 800), "prefix", 1,
                      100, 0, "bk", 0.05, (0.04, 0.06), 95.0, pv, gains, 100)  # fmt: skip
    fig = c.plot(tmp_path / "ts.png")
    ax2 = fig.axes[1]
    blue = [ln for ln in ax2.get_lines() if ln.get_color() == "tab:blue"]
    (line,) = blue
    y = np.asarray(line.get_ydata(), dtype=float)
    assert np.isnan(y[1]) and np.isfinite(y[[0, 2, 3]]).all()  # broken at 200, not bridged
    ticks = [t.get_text() for t in ax2.get_xticklabels()]
    assert ticks[0] == "100\n200.00\nn=1" and ticks[1] == "200\n-\nn=0"  # thresholds under the sizes
    assert "gain threshold (points)" in ax2.get_xlabel()
