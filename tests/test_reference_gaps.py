"""The last reference-scorer gaps (issue 22), each against the reference's own output.

How the expected outputs were produced (the references run as they are, never vendored):

* sacrebleu 2.6.0 (PyPI) runs live here, as in tests/test_format_mt.py: its command line
  (``python -m sacrebleu REF -i SYS -m bleu chrf ter -w 2`` prints JSON; ``-lc``,
  ``--chrf-lowercase``, ``-f text``) and its Python objects (``BLEU().corpus_score``:
  ``precisions``, ``bp``, ``ratio``, ``sys_len``, ``ref_len``, ``counts``, ``totals``;
  ``BLEU(effective_order=True).get_signature()``; ``TER().corpus_score``: ``num_edits``,
  ``ref_length``). Skipped when sacrebleu is not 2.6.0.
* conlleval v2004-01-26 (deeppavlov/ner @ f107d6da6017b8a2ac56013e1f9985e376ef99da, md5
  66f60a06f6c514346b1a11491c91d1b4), perl 5.36: ``perl conlleval < iob1.txt`` prints
  tests/data/chunk/iob1.expected (checked again when this test was written).
* eval07.pl v1.4 (mstrise/dep2label @ 7a4626bc3a3c20fb18bc1c2ba2f1b124c00958aa, md5
  18fe5089e7eca6fb87d511b720ac7dd6), perl 5.36, on tests/data/dependency:
  ``perl eval07.pl -q -g basic.gold.conllx -s noblank.sys.conllx > noblank.conll07.expected``
  (stderr: ``Warning: ignoring missing blank line at the end of noblank.sys.conllx.``) and
  ``... -s extrablank.sys.conllx > extrablank.conll07.expected`` (stderr, twice: ``Warning:
  ignoring extra blank line at the end of extrablank.sys.conllx.``). ``noblank.sys.conllx`` is
  ``basic.sys.conllx`` without its final blank line, ``extrablank.sys.conllx`` with two more.
  eval.pl on noblank stops with "line mismatch, line 29" (exit 1).
* EVALB (nikitakit/self-attentive-parser @ 24435a156a64d7433829e9a500a81f46b7e58030, evalb.c
  md5 ea2ce9b8e6f997cdebd4609749486e38, gcc 12): ``evalb -p COLLINS.prm errors_gold.mrg
  errors_test.mrg`` prints 12 error lines on stderr ("2 : Words unmatch (b|c)" ... "13 : ...")
  and exits 1 without a summary; ``-e 11`` prints tests/data/trees/expected/errors_e11.rsl.
* wa_eval_align.pl: tests/test_format_alignment.py (no sure link, empty submission).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import sigfast.formats as formats
from _warns import expect_warnings, warnings_on_stderr
from sigfast.cli import main
from sigfast.formats.dependency import DependencyWarning

DATA = Path(__file__).resolve().parent / "data"
MT = DATA / "mt"


def _sacrebleu():
    sb = pytest.importorskip("sacrebleu")
    if sb.__version__ != "2.6.0":
        pytest.skip(f"the parity target is sacrebleu 2.6.0, not {sb.__version__}")
    return sb


def _sacrebleu_cli(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args], capture_output=True, text=True, check=True, encoding="utf-8"
    )
    return out.stdout


# ------------------------------------------------------------------------------------------------
# sacrebleu: JSON fields and lowercasing


@pytest.mark.parametrize("refs", [["edge.ref1"], ["edge.ref1", "edge.ref2"]])
def test_mt_json_has_sacrebleus_fields(refs, capsys):
    sb = _sacrebleu()
    ref_paths = [str(MT / r) for r in refs]
    hyp = str(MT / "edge.hyp")
    theirs = json.loads(_sacrebleu_cli(*ref_paths, "-i", hyp, "-m", "bleu", "chrf", "ter", "-w", "2"))
    args = ["score", "-f", "mt", "-o", "metric=bleu,chrf,ter", "--json"]
    assert main([*args, *[a for r in ref_paths for a in ("--ref", r)], hyp]) == 0
    ours = json.loads(capsys.readouterr().out)[0]["reference"]
    assert [d["name"] for d in ours] == [d["name"] for d in theirs]
    for o, t in zip(ours, theirs):
        assert {k: o[k] for k in t} == t  # every field sacrebleu prints, with its value
    # full precision, from sacrebleu's own score objects
    hyps = (MT / "edge.hyp").read_text(encoding="utf-8").split("\n")[:-1]
    rs = [(MT / r).read_text(encoding="utf-8").split("\n")[:-1] for r in refs]
    hyps = [h.rstrip() for h in hyps]
    rs = [[x.rstrip() for x in r] for r in rs]
    b = sb.metrics.BLEU().corpus_score(hyps, rs)
    bleu = ours[0]
    for k in ("precisions", "bp", "ratio", "sys_len", "ref_len", "counts", "totals"):
        assert bleu[k] == getattr(b, k), k
    sent = sb.metrics.BLEU(effective_order=True)
    sent.corpus_score(hyps, rs)  # its signature needs the number of references
    assert bleu["sentence_signature"] == str(sent.get_signature())
    t = sb.metrics.TER().corpus_score(hyps, rs)
    assert (ours[2]["num_edits"], ours[2]["ref_length"]) == (t.num_edits, t.ref_length)
    # the per-item BLEU signature is the one sacrebleu's --sentence-level prints
    line = _sacrebleu_cli(*ref_paths, "-i", hyp, "-m", "bleu", "--sentence-level", "-f", "text").splitlines()[0]
    assert line.startswith(f"BLEU|{bleu['sentence_signature']} = ")


@pytest.mark.parametrize(
    "opts, flags",
    [
        (["lowercase=true"], ["-lc"]),
        (["chrf_lowercase=true"], ["--chrf-lowercase"]),
        (["lowercase=true", "chrf_lowercase=true"], ["-lc", "--chrf-lowercase"]),
    ],
)
def test_lowercase_is_bleus_and_chrf_lowercase_chrfs(opts, flags, capsys):
    _sacrebleu()
    ref, hyp = str(MT / "edge.ref1"), str(MT / "edge.hyp")
    theirs = _sacrebleu_cli(ref, "-i", hyp, "-m", "bleu", "chrf", "-f", "text", "-w", "2", *flags)
    args = ["score", "-f", "mt", "-o", "metric=bleu,chrf", *[x for o in opts for x in ("-o", o)], ref, hyp]
    assert main(args) == 0
    assert capsys.readouterr().out == theirs
    # chrF++ takes chrf_lowercase too (sacrebleu: -m chrf --chrf-word-order 2 --chrf-lowercase)
    if "--chrf-lowercase" in flags:
        theirs = _sacrebleu_cli(ref, "-i", hyp, "-m", "chrf", "--chrf-word-order", "2", "-f", "text", "-w", "2", *flags)
        assert main(["score", "-f", "mt", "-o", "metric=chrf++", "-o", "chrf_lowercase=true", ref, hyp]) == 0
        assert capsys.readouterr().out == theirs


# ------------------------------------------------------------------------------------------------
# conlleval's one-file form


def test_conlleval_one_file(capsys):
    f = str(DATA / "chunk" / "iob1.txt")
    expected = (DATA / "chunk" / "iob1.expected").read_text()
    assert main(["score", "-f", "conlleval", f]) == 0
    assert capsys.readouterr().out == expected
    # FILE FILE (GOLD SYSTEM as for the other formats): the same file, printed once
    assert main(["score", "-f", "conlleval", f, f]) == 0
    assert capsys.readouterr().out == expected


def test_conlleval_files_must_share_their_gold_columns(tmp_path, capsys):
    f = DATA / "chunk" / "iob1.txt"
    other = tmp_path / "other.txt"
    lines = f.read_text().split("\n")
    i = next(i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("-X-"))
    cols = lines[i].split(" ")
    cols[-2] = "B-ZZZ"  # another gold tag
    lines[i] = " ".join(cols)
    other.write_text("\n".join(lines))
    assert main(["compare", "-f", "conlleval", str(f), str(other), "-n", "100"]) == 1
    err = capsys.readouterr().err
    assert "both conlleval files must hold the same tokens and gold tags" in err


# ------------------------------------------------------------------------------------------------
# hints spelled for the command line, and following them works


def _all_punct(tmp_path: Path) -> tuple[Path, Path]:
    rows = ["1\t,\t_\tP\tP\t_\t0\tROOT\t_\t_", "2\t.\t_\tP\tP\t_\t1\tP\t_\t_", ""]
    g = tmp_path / "g.conllx"
    g.write_text("\n".join(rows) + "\n")
    return g, g


def test_punctuation_hint_names_the_option_given(tmp_path, capsys):
    g, s = _all_punct(tmp_path)
    assert main(["score", "-f", "conllx", str(g), str(s)]) == 1
    err = capsys.readouterr().err
    assert "-o punct=true (punct=True in Python) scores it" in err and "pass punct" not in err
    assert main(["score", "-f", "conllx", "-o", "punct=true", str(g), str(s)]) == 0  # the hint followed
    capsys.readouterr()
    assert main(["score", "-f", "conllx", "-o", "p=false", str(g), str(s)]) == 1
    err = capsys.readouterr().err
    assert "-o p=true (p=True in Python) scores it" in err
    assert main(["score", "-f", "conllx", "-o", "p=true", str(g), str(s)]) == 0  # the hint followed
    capsys.readouterr()
    assert main(["score", "-f", "conllx", "-o", "p=false", "-o", "punct=true", str(g), str(s)]) == 1
    assert "-o punct=true and -o p=false contradict each other" in capsys.readouterr().err
    # conll07: -p leaves punctuation out
    assert main(["score", "-f", "conll07", "-o", "p=true", str(g), str(s)]) == 1
    assert "-o p=false (p=False in Python) scores it" in capsys.readouterr().err


def test_evalb_max_error_message(capsys):
    tr = DATA / "trees"
    args = ["score", "-f", "evalb", str(tr / "errors_gold.mrg"), str(tr / "errors_test.mrg")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "The first 5 of the 12 errors: 2 : Words unmatch (b|c);" in err
    assert "-o max_error=N (EVALB's -e N; max_error=N in Python)" in err
    with warnings_on_stderr():
        assert main([*args[:3], "-o", "max_error=11", *args[3:]]) == 0  # the hint followed: evalb -e 11
    out = capsys.readouterr()
    assert out.out == (tr / "expected" / "errors_e11.rsl").read_text()
    assert out.err.startswith("sigfast: warning: ") and "12 sentence(s) scored as EVALB 'Error'" in out.err


def test_old_positional_form_gets_a_hint(capsys):
    tr = DATA / "trees"
    assert main(["score", "evalb", str(tr / "gold.mrg"), str(tr / "test.mrg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'evalb' is a format name, not a file: name the format with -f" in err
    assert f"`sigfast score -f evalb {tr / 'gold.mrg'} {tr / 'test.mrg'}`" in err


# ------------------------------------------------------------------------------------------------
# eval07.pl's blank-line warnings


@pytest.mark.parametrize("which, count", [("noblank", ("missing", 1)), ("extrablank", ("extra", 2))])
def test_eval07_blank_line_warnings(which, count, capsys):
    dep = DATA / "dependency"
    sysf = dep / f"{which}.sys.conllx"
    with pytest.warns(DependencyWarning) as rec:
        r = formats.score("conll07", dep / "basic.gold.conllx", sysf)
    assert r.text == (dep / f"{which}.conll07.expected").read_text()
    msgs = [str(w.message) for w in rec if "blank line" in str(w.message)]
    what, n = count
    assert len(msgs) == 1
    assert f"{n} blank line(s) at its end" in msgs[0]
    assert f"eval07.pl warns 'Warning: ignoring {what} blank line at the end of {sysf}.'" in msgs[0]
    if which == "noblank":  # eval.pl stops there: sigfast says so
        with expect_warnings(DependencyWarning, "eval.pl stops there with 'Fatal: line mismatch'", "HEAD '02'"):
            formats.score("conllx", dep / "basic.gold.conllx", sysf)


# ------------------------------------------------------------------------------------------------
# info lists every metric a format gives


def test_info_lists_every_metric_each_format_gives():
    import re
    import warnings

    import fuzzlib

    for fmt in sorted(set(formats.available()) & set(fuzzlib.FORMAT_SEEDS)):
        gold, system = fuzzlib.FORMAT_SEEDS[fmt]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rep = formats.score(fmt, DATA / gold if gold else None, DATA / system)
        declared = formats.spec(fmt).metrics
        # <NAME>: a part the data or an option decides; "...": further metrics the log names (LLM logs)
        pats = [
            re.compile(
                ".+"
                if m == "..."
                else re.sub(r"<[A-Z_]+>", ".+", re.escape(m).replace(r"\<", "<").replace(r"\>", ">")) + r"\Z"
            )
            for m in declared
        ]
        for key in rep.stats:
            assert any(p.match(key) for p in pats), (fmt, key, declared)
        assert rep.default_metric == declared[0] or any(p.match(rep.default_metric) for p in pats[:1]), fmt


def test_conll08_takes_the_registry_metric_names(capsys):
    dep = DATA / "dependency"
    files = [str(dep / "basic.gold.conll08"), str(dep / "basic.sys.conll08"), str(dep / "lenient.sys.conll08")]
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    line = next(
        ln
        for ln in out.splitlines()[
            out.splitlines().index(
                "  conll08: " + formats.spec("conll08").description + " [eval08.pl (CoNLL 2008 shared task)]"
            ) :
        ]
        if ln.strip().startswith("metrics:")
    )
    assert len(line.split(", ")) == len(formats.spec("conll08").metrics) >= 38
    for m in ("macro_f1_2008", "weighted_macro_f1", "labeled_macro_f1"):
        with warnings_on_stderr():  # lenient.sys is scored as eval08.pl scores it, with its warnings
            assert main(["compare", "-f", "conll08", "-m", m, *files, "-n", "200", "--json"]) == 0, m
        out = capsys.readouterr()
        assert "sigfast: warning: " in out.err and "FORM 'Jon' differs" in out.err
        res = json.loads(out.out)[0]
        assert res["metric"] == "labeled_macro_f1" and "macro_f1_2008" in res["signature"], m
    with warnings_on_stderr():
        assert main(["compare", "-f", "conll08", "-m", "bleu", *files, "-n", "200"]) == 1
    assert "format 'conll08' has no per-item metric 'bleu'" in capsys.readouterr().err
