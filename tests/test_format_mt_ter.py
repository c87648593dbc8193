"""TER in the "mt" format and the ``ter`` metric, against sacrebleu 2.6.0.

Expected numbers come from the reference scorer itself, run in each test:
sacrebleu 2.6.0 from PyPI (a test dependency; never imported by the package).

* Python API: ``TER(normalized=..., no_punct=..., asian_support=...,
  case_sensitive=...)`` — ``._extract_corpus_statistics(hyps, refs)`` for the
  per-segment statistics, ``.corpus_score`` and ``.format(width=2,
  signature=...)`` for the report line, ``.sentence_score`` per segment for
  the per-item scores, ``._compute_score_from_stats`` on resampled statistics
  for the bootstrap;
* command line: ``python -m sacrebleu REF... -i SYS -m bleu chrf ter -f text
  -w 2 [--ter-normalized] [--ter-no-punct] [--ter-asian-support]
  [--ter-case-sensitive]``, whose stdout must equal the report byte for byte.

The files are read as sacrebleu's command line reads them (split on "\\n",
right-stripped).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sigfast
from oracle import boot_indices
from sigfast.cli import main
from sigfast.formats import score
from sigfast.metrics import get as get_metric

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import TER  # noqa: E402

HERE = Path(__file__).resolve().parent
FIX = HERE / "data" / "mt"
EDGE = [FIX / "edge.ref1", FIX / "edge.ref2"]
WMT = Path("machine_translation") / "wmt21_newstest2021_de_en"
FLAGS = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(FLAGS, v)) for v in itertools.product((False, True), repeat=4)]


def lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return [ln.rstrip() for ln in f]


def mt_options(opts: dict[str, bool]) -> dict[str, bool]:
    return {f"ter_{k}": v for k, v in opts.items()}


def check_ter(hyp: Path, refs: list[Path], **opts: bool) -> sigfast.formats.ScoreReport:
    """Statistics, corpus score, report line and per-segment scores against sacrebleu."""
    rep = score("mt", [str(p) for p in refs], str(hyp), metric="ter", **mt_options(opts))
    ter = TER(**opts)
    h, r = lines(hyp), [lines(p) for p in refs]
    expected = [[float(x) for x in row] for row in ter._extract_corpus_statistics(h, r)]
    st = rep.stats["ter"]
    assert st.metric == "ter" and st.stat_names == ("edits", "ref_len") and st.values.tolist() == expected
    corpus = ter.corpus_score(h, r)
    assert rep.scores["ter"] == corpus.score  # full precision
    m = get_metric(st.metric, **st.metric_params)
    assert m.evaluate(st.values.sum(0, keepdims=True), len(h))[0] == corpus.score
    assert rep.text == corpus.format(width=2, signature=ter.get_signature().format()) + "\n"
    per_item = st.item_scores()
    for i, seg in enumerate(h):
        assert per_item[i] == ter.sentence_score(seg, [x[i] for x in r]).score, i
    return rep


@pytest.mark.parametrize("opts", ALL_OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "default")
@pytest.mark.parametrize("refs", [EDGE[:1], EDGE], ids=["ref1", "both"])
def test_edge_cases_every_option(opts, refs):
    # empty hypothesis and reference, CJK, entities, numbers, punctuation, odd whitespace
    check_ter(FIX / "edge.hyp", refs, **opts)


def test_empty_references_rule(tmp_path):
    # sacrebleu: Σref_len = 0 gives 100 with edits, 0 without
    empty = tmp_path / "empty.ref"
    empty.write_text("\n\n")
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n\n")
    rep = check_ter(hyp, [empty])
    assert rep.scores["ter"] == 100.0 and rep.stats["ter"].values.tolist() == [[2.0, 0.0], [0.0, 0.0]]
    blank = tmp_path / "blank.txt"
    blank.write_text("\n\n")
    assert check_ter(blank, [empty]).scores["ter"] == 0.0


def test_ter_metric_registry():
    m = get_metric("ter")
    assert (m.name, m.stat_names, m.higher_is_better, m.scale, m.counts) == (
        "ter",
        ("edits", "ref_len"),
        False,
        "points",
        False,
    )
    assert m.display_scale == 1
    ter = TER()
    for row in ([3.0, 12.0], [7.0, 2.5], [2.0, 0.0], [0.0, 0.0]):
        assert m.evaluate(np.array([row]), 1)[0] == ter._compute_score_from_stats(row).score
    # error_rate keeps its fraction scale and no longer answers to "ter"
    assert get_metric("error_rate").evaluate(np.array([[3.0, 12.0]]), 1)[0] == 0.25
    assert "ter" not in [a["name"] for s in sigfast.metrics.specs() if s["name"] == "error_rate" for a in s["aliases"]]


@pytest.mark.parametrize(
    "flags",
    [(), ("--ter-normalized", "--ter-asian-support"), ("--ter-no-punct", "--ter-case-sensitive"), FLAGS],
    ids=["default", "norm-asian", "nopunct-case", "all"],
)
def test_report_equals_sacrebleu_command_line(flags, tmp_path, capsys):
    cli_flags = [f"--ter-{f.replace('_', '-')}" if f in FLAGS else f for f in flags]
    cmd = [sys.executable, "-m", "sacrebleu", *map(str, EDGE), "-i", str(FIX / "edge.hyp")]
    cmd += ["-m", "bleu", "chrf", "ter", "-f", "text", "-w", "2", *cli_flags]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    opts = {f"ter_{f[6:].replace('-', '_')}": True for f in cli_flags}
    rep = score("mt", [str(p) for p in EDGE], str(FIX / "edge.hyp"), metric=["bleu", "chrf", "ter"], **opts)
    assert rep.text == out
    # the same from sigfast's command line: -o with sacrebleu's flag names
    args = ["score", "-f", "mt", "-o", "metric=bleu,chrf,ter"]
    for f in cli_flags:
        args += ["-o", f"{f[2:]}=true"]
    assert main([*args, "--ref", str(EDGE[0]), "--ref", str(EDGE[1]), str(FIX / "edge.hyp")]) == 0
    assert capsys.readouterr().out == out


def test_ter_ignores_lowercase_like_sacrebleu_cli():
    # sacrebleu's -lc is BLEU's: TER reads the original text (and lowercases unless case-sensitive)
    a = score("mt", [str(p) for p in EDGE], str(FIX / "edge.hyp"), metric="ter", ter_case_sensitive=True)
    b = score(
        "mt", [str(p) for p in EDGE], str(FIX / "edge.hyp"), metric="ter", ter_case_sensitive=True, lowercase=True
    )
    assert a.text == b.text and np.array_equal(a.stats["ter"].values, b.stats["ter"].values)
    c = check_ter(FIX / "edge.hyp", EDGE, case_sensitive=True)
    assert c.text == a.text


def test_default_metrics_include_ter_and_read_finds_it():
    rep = score("mt", str(EDGE[0]), str(FIX / "edge.hyp"))
    assert list(rep.stats) == ["bleu", "chrf", "chrf++", "ter"]
    st = sigfast.read(str(EDGE[0]), [str(FIX / "edge.hyp"), str(EDGE[1])], format="mt", metric="ter")
    assert st.metric == "ter" and st.stat_names == ("edits", "ref_len")


def test_options_in_schema_and_info(capsys):
    spec = sigfast.formats.spec("mt")
    for f in FLAGS:
        assert spec.option(f"ter_{f}").type is bool
        assert spec.option(f"ter-{f.replace('_', '-')}").name == f"ter_{f}"
    assert "ter" in spec.metrics
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "-o ter_no_punct=bool (default False)" in out and "  ter: sacrebleu TER" in out


# --- real data ------------------------------------------------------------------------


def _wmt_subset(shared_data: Path, tmp_path: Path, systems: list[str], n: int) -> tuple[list[Path], dict[str, Path]]:
    d = shared_data / WMT
    refs = []
    for k in ("A", "B"):
        p = tmp_path / f"ref.{k}"
        p.write_text("\n".join(lines(d / f"newstest2021.de-en.ref.{k}.en")[:n]) + "\n", encoding="utf-8")
        refs.append(p)
    hyps = {}
    for s in systems:
        p = tmp_path / f"{s}.txt"
        p.write_text("\n".join(lines(d / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en")[:n]) + "\n")
        hyps[s] = p
    return refs, hyps


def test_wmt21_segments_two_references(shared_data, tmp_path):
    # the first 120 segments of WMT21 de-en (sacrebleu's TER is slow; all segments of all 19
    # systems are compared in tests/test_ter.py), 1 and 2 references, default and normalized
    refs, hyps = _wmt_subset(shared_data, tmp_path, ["Online-W", "UEdin"], 120)
    for hyp in hyps.values():
        check_ter(hyp, refs)
        check_ter(hyp, refs[:1], normalized=True, no_punct=True)


def _ter_of(stats: np.ndarray) -> float:
    return TER()._compute_score_from_stats(list(stats)).score


@pytest.mark.parametrize("variant", ["bk", "koehn", "sacrebleu"])
def test_bootstrap_pvalue_equals_resampled_sacrebleu(shared_data, tmp_path, variant):
    """sigfast's resamples reproduced exactly (tests/oracle.py boot_indices), each scored by
    sacrebleu's own TER formula: the p-value's count is the same."""
    refs, hyps = _wmt_subset(shared_data, tmp_path, ["Facebook-AI", "UEdin"], 200)
    ter = TER()
    h = {s: lines(p) for s, p in hyps.items()}
    r = [lines(p) for p in refs]
    st = {s: np.array(ter._extract_corpus_statistics(v, r), dtype=np.float64) for s, v in h.items()}
    stats = sigfast.read(refs, hyps, format="mt", metric="ter")
    for k, s in enumerate(hyps):
        assert np.array_equal(stats.values[k], st[s])
    B, seed = 300, 4242
    res = sigfast.paired_bootstrap(stats, variant=variant, n_resamples=B, seed=seed, resampling="items")
    x, y = list(hyps)
    sx, sy = _ter_of(st[x].sum(0)), _ter_of(st[y].sum(0))
    assert (res.score_x, res.score_y) == (sx, sy)
    idx = np.stack([boot_indices(seed, b, len(r[0])) for b in range(B)])
    px = np.array([_ter_of(st[x][i].sum(0)) for i in idx])
    py = np.array([_ter_of(st[y][i].sum(0)) for i in idx])
    d, delta = py - px, sy - sx
    if variant == "bk":
        c = int(np.sum(d > 2 * delta)) if delta > 0 else int(np.sum(d < 2 * delta))
    elif variant == "koehn":  # lower TER wins: resamples where the observed winner does not win
        c = int(np.sum(d >= 0)) if delta < 0 else int(np.sum(d <= 0))
    else:
        a = np.abs(d)
        c = int(np.sum(a - a.mean() > abs(delta)))
    assert res.count == c
    assert res.pvalue == (c + 1) / (B + 1)
    assert not res.higher_is_better and res.metric == "ter"


def test_cli_compare_and_pairwise_with_ter(shared_data, tmp_path, capsys):
    refs, hyps = _wmt_subset(shared_data, tmp_path, ["Facebook-AI", "UEdin", "Online-W"], 80)
    files = [f"{s}={p}" for s, p in hyps.items()]
    assert main(["compare", "-f", "mt", "-m", "ter", "-n", "200", "--json", str(refs[0]), *files[:2]]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["metric"] == "ter" and out[0]["systems"] == ["Facebook-AI", "UEdin"]
    ter = TER()
    r = [lines(refs[0])]
    assert out[0]["score_x"] == ter.corpus_score(lines(hyps["Facebook-AI"]), r).score
    assert main(["pairwise", "-f", "mt", "-m", "ter", "-n", "200", "--json", str(refs[0]), *files]) == 0
    pw = json.loads(capsys.readouterr().out)[0]
    assert pw["metric"] == "ter"
