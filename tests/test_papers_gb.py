"""Gorman & Bedrick (2019): the standard split beside random splits, from the API and the shell.

* Figure 1: per system, the range of accuracies over the random splits and
  the standard split's accuracy with its 95% Wilson interval.
* Table 2: the standard split's token accuracy with its Wilson interval;
  Table 3: per pair, the random splits where one is significantly better
  (McNemar mid-p, Bonferroni), beside the same test on the standard split.
* Every McNemar report prints the Wilson interval of each system's accuracy
  on each split (POS token accuracy included).

Wilson intervals are checked against statsmodels, McNemar mid-p against
scipy's binomial distribution, counts and ranks against numpy by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom
from statsmodels.stats.proportion import proportion_confint

import sigfast
import sigfast.formats
from sigfast.cli import main
from sigfast.studies import across_splits, proportion_counts, random_splits, split_units

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EWT = SHARED / "dependency_parsing" / "conll2018_en_ewt"


@pytest.fixture(autouse=True)
def _close_figures():
    """Free the figures a test drew (pyplot keeps them open)."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


def _wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    lo, hi = proportion_confint(k, n, alpha=1 - level, method="wilson")
    return float(lo), float(hi)


def _midp(x: np.ndarray, y: np.ndarray) -> float:
    """McNemar mid-p, two-sided: 2 P(B <= min) - P(B = min), B ~ Bin(b + c, 1/2)."""
    b = int(((x == 1) & (y == 0)).sum())
    c = int(((x == 0) & (y == 1)).sum())
    if b + c == 0:
        return 1.0
    k = min(b, c)
    return float(min(1.0, 2 * binom.cdf(k, b + c, 0.5) - binom.pmf(k, b + c, 0.5)))


def _data(seed: int = 3, k: int = 4, n: int = 150):
    """Three systems' 0/1 correctness on K random splits and on a larger standard split."""
    rng = np.random.default_rng(seed)
    rates = {"tnt": 0.80, "lapos": 0.84, "stanford": 0.85}
    splits = {f"r{i}": {s: (rng.random(n) < p).astype(float) for s, p in rates.items()} for i in range(k)}
    standard = {s: (rng.random(3 * n) < p).astype(float) for s, p in rates.items()}
    return splits, standard


def _result(level: float = 0.95):
    splits, standard = _data()
    per = {name: sigfast.Statistics.from_scores(d) for name, d in splits.items()}
    # the standard split lists the systems in another order: matched by name
    std = sigfast.Statistics.from_scores({s: standard[s] for s in ("stanford", "tnt", "lapos")})
    return splits, standard, across_splits(per, standard=std, confidence=level)


# --------------------------------------------------------------------------- Wilson intervals per split
@pytest.mark.parametrize("level", [0.95, 0.9])
def test_per_split_accuracy_with_wilson_by_hand(level) -> None:
    splits, _, r = _result(level)
    assert r.display_scale == 100  # accuracies of units: shown in points
    rows = {(e["split"], e["system"]): e for e in r.per_split()}
    table = r.tables()[-1]
    assert table.header[4] == f"{round(100 * level)}% Wilson"
    shown = {(row[0], row[1]): row for row in table.rows}
    for split, d in splits.items():
        acc = {s: v.mean() for s, v in d.items()}
        order = sorted(acc, key=lambda s: -acc[s])
        for s, v in d.items():
            k, n = int(v.sum()), v.size
            lo, hi = _wilson(k, n, level)
            e = rows[(split, s)]
            assert (e["successes"], e["trials"]) == (k, n)
            assert e["wilson"] == pytest.approx([lo, hi], abs=1e-12)
            assert e["rank"] == order.index(s) + 1
            row = shown[(split, s)]
            assert row[2] == f"{100 * k / n:.2f}" and row[3] == f"{k}/{n}"
            assert row[4] == f"[{100 * lo:.2f}, {100 * hi:.2f}]"


def test_standard_split_table2_and_same_test_by_hand() -> None:
    splits, standard, r = _result()
    std = {e["system"]: e for e in r.standard()}
    acc = {s: v.mean() for s, v in standard.items()}
    rank = sorted(acc, key=lambda s: -acc[s])
    for s, v in standard.items():
        e = std[s]
        assert e["standard"] == pytest.approx(acc[s])
        assert e["wilson"] == pytest.approx(list(_wilson(int(v.sum()), v.size)), abs=1e-12)
        assert e["standard_rank"] == rank.index(s) + 1
        rand = [splits[k][s].mean() for k in splits]
        assert (e["random_min"], e["random_max"]) == pytest.approx((min(rand), max(rand)))
        assert e["random_mean"] == pytest.approx(np.mean(rand))
    # McNemar mid-p on the standard split, by hand, for every pair
    for i, a in enumerate(r.systems):
        for j, b in enumerate(r.systems):
            if i != j:
                assert r.standard_pvalues[i, j] == pytest.approx(_midp(standard[a], standard[b]), abs=1e-12)
    t = r.tables()[1]
    assert t.title.startswith("standard split (450 items) vs 4 random splits")
    for row in t.rows[:-1]:
        lo, hi = _wilson(int(standard[row[0]].sum()), 450)
        assert row[2] == f"[{100 * lo:.2f}, {100 * hi:.2f}]"
    # the last row: the oracle ensemble (a unit is right when any system gets it right), by hand
    any_right = np.max([standard[s] for s in r.systems], axis=0)
    lo, hi = _wilson(int(any_right.sum()), 450)
    assert t.rows[-1][:3] == ("(oracle ensemble)", f"{100 * any_right.mean():.2f}", f"[{100 * lo:.2f}, {100 * hi:.2f}]")
    per_split = [np.max([splits[k][s] for s in r.systems], axis=0).mean() for k in splits]
    assert r.oracle_scores() == pytest.approx(per_split, abs=1e-12)
    assert r.tables()[0].rows[-1][:4] == (
        "(oracle ensemble)",
        f"{100 * np.mean(per_split):.2f}",
        f"{100 * min(per_split):.2f}",
        f"{100 * max(per_split):.2f}",
    )
    # the pairs table: splits where the better-on-average system scores higher, and the standard split's gain
    pairs = r.tables()[2]
    assert pairs.header[-2:] == ("standard gain (points)", "p (standard)")
    for row in pairs.rows:
        a, b = row[0], row[1]
        better_on = sum(splits[k][a].mean() > splits[k][b].mean() for k in splits)
        assert row[3] == f"{better_on}/4"
        g = 100 * (acc[a] - acc[b])
        assert row[7] == ("+" if g >= 0 else "") + f"{g:.2f}"
    d = json.loads(r.to_json())
    assert d["standard"]["n_items"] == 450 and len(d["per_split"]) == 12
    for style in ("text", "markdown", "latex"):
        out = sigfast.report.render_tables(r.tables(), style)
        assert "95" in out and "Wilson" in out


def test_proportions_and_non_proportions() -> None:
    acc = sigfast.Statistics.from_counts(
        {"a": [[3, 4], [2, 2]], "b": [[1, 4], [2, 2]]}, stat_names=("correct", "total"), metric="accuracy"
    )
    assert proportion_counts(acc).tolist() == [[5, 6], [3, 6]]
    f1 = sigfast.Statistics.from_counts(
        {"a": [[3, 4, 5], [2, 2, 2]], "b": [[1, 4, 5], [2, 2, 2]]}, stat_names=("tp", "guessed", "gold"), metric="f1"
    )
    assert proportion_counts(f1) is None
    r = across_splits([f1, f1], test="bootstrap", n_resamples=200)
    assert r.counts is None and r.wilson(0, 0) is None
    assert "no Wilson columns" in r.tables()[-1].notes[0]
    assert not any("Wilson" in h for h in r.tables()[-1].header)  # dropped, not left empty
    assert r.oracle is None  # no 0/1 units: no oracle ensemble
    with pytest.raises(sigfast.InputError, match="same systems"):
        across_splits([acc], standard=f1.select("a"))


# --------------------------------------------------------------------------- Figure 1
def test_figure1_ranges_and_wilson_whiskers(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.container import BarContainer, ErrorbarContainer

    splits, standard, r = _result()
    fig = r.plot(tmp_path / "fig1.png")
    ax = fig.axes[0]
    names = [t.get_text() for t in ax.get_yticklabels()]
    # best standard accuracy on top (the last tick from the bottom)
    acc = {s: v.mean() for s, v in standard.items()}
    assert names[0] == "oracle ensemble"  # G&B's last row
    names = names[1:]
    assert names[::-1] == sorted(acc, key=lambda s: -acc[s])
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    errs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 4 and len(errs) == 4  # three systems and the oracle
    for bar, err in zip(bars[:3], errs[:3]):
        rect = bar.patches[0]
        y = rect.get_y() + rect.get_height() / 2
        s = names[round(y) - 1]
        rand = [100 * splits[k][s].mean() for k in splits]
        assert rect.get_x() == pytest.approx(min(rand)) and rect.get_width() == pytest.approx(max(rand) - min(rand))
        (seg,) = err.lines[2][0].get_segments()
        lo, hi = _wilson(int(standard[s].sum()), standard[s].size)
        assert seg[:, 0] == pytest.approx([100 * lo, 100 * hi])
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "standard split, 95% Wilson interval" in legend and "range over 4 random splits" in legend
    # the legend sits above the plot, clear of the x label
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    leg = ax.get_legend().get_window_extent(renderer)
    assert leg.y0 >= ax.get_window_extent(renderer).y1 - 1
    assert not leg.overlaps(ax.xaxis.label.get_window_extent(renderer))
    assert (tmp_path / "fig1.png").stat().st_size > 10_000


# --------------------------------------------------------------------------- shell
def test_cli_spec_with_standard_every_style(tmp_path, capsys) -> None:
    splits, standard, _ = _result()

    def write(tag: str, d: dict[str, np.ndarray]) -> dict[str, str]:
        out = {}
        for s, v in d.items():
            f = tmp_path / f"{s}.{tag}.tsv"
            f.write_text("\n".join(str(int(x)) for x in v) + "\n")
            out[s] = f.name
        return out

    spec = {
        "splits": [{"name": k, "systems": write(k, d)} for k, d in splits.items()],
        "standard": {"systems": write("std", standard)},
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    base = ["across-splits", "--spec", str(tmp_path / "spec.json")]
    assert main([*base, "--json", "--plot", str(tmp_path / "f.png")]) == 0
    d = json.loads(capsys.readouterr().out)[0]
    std = {e["system"]: e for e in d["standard"]["systems"]}
    for s, v in standard.items():
        assert std[s]["wilson"] == pytest.approx(list(_wilson(int(v.sum()), v.size)), abs=1e-12)
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "standard split (450 items)" in text and "95% Wilson" in text and "correct/units" in text
    for style in ("--markdown", "--latex"):
        assert main([*base, style]) == 0
        assert "Wilson" in capsys.readouterr().out
    assert main([*base, "--csv"]) == 0  # data: one tidy row per pair of systems
    assert capsys.readouterr().out.startswith("system_i,system_j,mean_delta,")
    assert main([*base, "--standard", *[str(tmp_path / f"{s}.std.tsv") for s in standard]]) == 2
    assert "given twice" in capsys.readouterr().err


def _pos(tmp_path: Path, folder: str, n_sent: int, seed: int) -> list[str]:
    """A gold POS file (text layout, one sentence a line) and three taggers; returns [gold, taggers...]."""
    rng = np.random.default_rng(seed)
    tags = ["NN", "VB", "DT", "JJ"]
    d = tmp_path / folder
    d.mkdir()
    gold = [[(f"w{i}x{t}", tags[rng.integers(4)]) for t in range(int(rng.integers(3, 7)))] for i in range(n_sent)]
    (d / "gold.txt").write_text("\n".join(" ".join(f"{w}_{g}" for w, g in s) for s in gold) + "\n")
    files = [str(d / "gold.txt")]
    for name, r in (("tnt", 0.85), ("lapos", 0.9), ("flair", 0.95)):
        lines = [" ".join(f"{w}_{g if rng.random() < r else 'XX'}" for w, g in s) for s in gold]
        (d / f"{name}.txt").write_text("\n".join(lines) + "\n")
        files.append(str(d / f"{name}.txt"))
    return files


def _token_counts(gold: str, system: str, sentences) -> tuple[int, int]:
    g = Path(gold).read_text().splitlines()
    s = Path(system).read_text().splitlines()
    k = n = 0
    for i in sentences:
        for a, b in zip(g[i].split(), s[i].split()):
            n += 1
            k += a.rsplit("_", 1)[1] == b.rsplit("_", 1)[1]
    return k, n


def test_cli_pos_accuracy_wilson_per_split_and_standard(tmp_path, capsys) -> None:
    """POS token accuracy, as G&B report it: McNemar per split on tokens, each tagger's token accuracy
    with its Wilson interval per split, and the standard split's (scored from its own files)."""
    corpus = _pos(tmp_path, "corpus", 60, 1)
    std = _pos(tmp_path, "standard", 40, 2)
    assert (
        main(["split", corpus[0], "--unit", "line", "-k", "3", "--seed", "9", "--out-dir", str(tmp_path / "sp")]) == 0
    )
    capsys.readouterr()
    man = tmp_path / "sp" / "manifest.json"
    args = ["across-splits", "--format", "pos", "--manifest", str(man), *corpus, "--standard", *std, "--json"]
    assert main(args) == 0
    d = json.loads(capsys.readouterr().out)[0]
    assert d["metric"] == "tags"  # the units of the view "tags", McNemar on their correctness
    manifest = json.loads(man.read_text())
    for e in d["per_split"]:
        k = int(e["split"][-2:])
        sents = manifest["splits"][k]["indices"]["test"]
        sysfile = corpus[1 + ["tnt", "lapos", "flair"].index(e["system"])]
        c, n = _token_counts(corpus[0], sysfile, sents)
        assert (e["successes"], e["trials"]) == (c, n)
        assert e["wilson"] == pytest.approx(list(_wilson(c, n)), abs=1e-12)
    for e in d["standard"]["systems"]:
        sysfile = std[1 + ["tnt", "lapos", "flair"].index(e["system"])]
        c, n = _token_counts(std[0], sysfile, range(40))
        assert e["wilson"] == pytest.approx(list(_wilson(c, n)), abs=1e-12)
    assert main(args[:-1] + ["--plot", str(tmp_path / "g.png")]) == 0
    assert "95% Wilson" in capsys.readouterr().out
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"


# --------------------------------------------------------------------------- the paper's finding on real data
def test_en_ewt_random_splits_rank_close_systems_otherwise() -> None:
    """G&B §3.3: a difference that is significant on the standard split is not significant on most random
    splits, and for close systems random splits rank them the other way round on some splits."""
    gold = EWT / "gold" / "en_ewt.conllu.gz"
    if not gold.is_file():
        pytest.skip("en_ewt data absent")
    names = ("HIT-SCIR-18", "LATTICE-18", "Stanford-18", "CEA-LIST")
    systems = {n: str(EWT / "systems" / n / "en_ewt.conllu.gz") for n in names}
    units = sigfast.formats.parse("conllu", str(gold), systems).units("las")
    parts = split_units(units, random_splits(gold, None, n_splits=20, seed=2019), part="test")
    whole = sigfast.studies.unit_statistics(units)
    r = across_splits(parts, standard=whole)
    rows = {(c["system_i"], c["system_j"]): c for c in r.comparisons()}
    hit_lat = rows[("HIT-SCIR-18", "LATTICE-18")]
    assert hit_lat["standard_pvalue"] < 0.05 and hit_lat["standard_delta"] < 0  # HIT-SCIR better on the standard
    assert hit_lat["i_significantly_better"] < 10  # ... but significantly better on fewer than half the splits
    lat_sta = rows[("LATTICE-18", "Stanford-18")]
    assert lat_sta["standard_delta"] < 0  # the standard split ranks LATTICE above Stanford
    assert 0 < lat_sta["j_better_splits"] < 20  # ... and some random splits rank them the other way
    # the standard split's Wilson interval, against statsmodels
    k = int(units.correct(0).sum())
    assert r.wilson(0) == pytest.approx(_wilson(k, units.n_units), abs=1e-12)
    # every system's interval on every split contains its accuracy there
    for e in r.per_split():
        assert e["wilson"][0] <= e["score"] <= e["wilson"][1]
