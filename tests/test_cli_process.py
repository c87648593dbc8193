"""The command line as a whole process: what it imports at start-up, and how it ends on SIGTERM.

Start-up: ``sigfast --help`` and ``--version`` import no subcommand code and no third-party module
(``sigfast._options``, which holds the flags' defaults, imports the standard library only),
``info`` no numpy, and ``score`` with the formats whose report needs no numpy (``ner``, ``conlleval``,
``evalb``, ``conllu``, ``pos``) only its format's module and the engine. The sets are pinned here, so a
new import at start-up is a decision, not an accident.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NER = ROOT / "tests" / "data" / "chunk"
TREES = ROOT / "tests" / "data" / "trees"
CONLLU = ROOT / "tests" / "data" / "conllu"
POS = ROOT / "tests" / "data" / "pos"

_PROBE = r"""
import contextlib, io, json, runpy, sys
before = set(sys.modules)
_LAYERS = {'sigfast.engine', 'sigfast.results', 'sigfast.inference'}
sys.argv = ["sigfast", *json.loads(sys.argv[1])]
out = io.StringIO()
try:
    with contextlib.redirect_stdout(out):
        runpy.run_module("sigfast", run_name="__main__")
except SystemExit as e:
    code = e.code
new = set(sys.modules) - before
third = {m.split(".")[0] for m in new} - set(sys.stdlib_module_names) - {"sigfast", "__main__"}
print(json.dumps({"code": code, "sigfast": sorted(m for m in new if m.split(".")[0] == "sigfast" and m not in _LAYERS),
                  "third": sorted(third), "out": out.getvalue()[:200]}))
"""


def _imports(*argv: str) -> dict[str, object]:
    r = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(list(argv))], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_help_and_version_import_nothing_else() -> None:
    for argv in (["--help"], ["compare", "--help"], ["metaeval", "--help"]):
        d = _imports(*argv)
        want = ["sigfast", "sigfast._hooks", "sigfast.engine.options", "sigfast.cli"]
        want += ["sigfast.results.styles"] if len(argv) > 1 else []
        assert d["code"] == 0 and d["sigfast"] == sorted(want) and d["third"] == [], (
            argv,
            d,
        )  # styles: its --NAME flags
    d = _imports("--version")
    assert d["sigfast"] == sorted(
        ["sigfast", "sigfast._hooks", "sigfast._native", "sigfast.engine.options", "sigfast.cli"]
    ), d
    assert d["third"] == [], d


def test_info_imports_no_numpy() -> None:
    d = _imports("info")
    assert d["code"] == 0 and "random stream" in str(d["out"])
    assert d["third"] == [], d
    assert d["sigfast"] == sorted(
        [
            "sigfast",
            "sigfast.cli.common",
            "sigfast._formats_table",
            "sigfast._hooks",
            "sigfast.cli.info",
            "sigfast._native",
            "sigfast.engine.options",
            "sigfast.cli",
            "sigfast.exceptions",
            "sigfast.results.styles",
        ]
    ), d


#: what every ``sigfast score`` imports before its format's module: the CLI, the format registry (and
#: the LLM-log helpers it re-exports) and the metric registry, with the engine
_SCORE_MODULES = [
    "sigfast",
    "sigfast.cli.common",
    "sigfast.cli.commands",
    "sigfast._formats_table",
    "sigfast._hooks",  # the package's hooks for the keyword checks (standard library only)
    "sigfast._native",
    "sigfast.engine.options",  # the shared options' defaults, for the flags (standard library only)
    "sigfast.cli",
    "sigfast.exceptions",
    "sigfast.formats",
    "sigfast.formats._base",
    "sigfast.formats._logs",  # sigfast.formats re-exports runs_in from it
    "sigfast.formats._registry",  # the formats' registry (spec, specs)
    "sigfast.metrics",
    "sigfast.results.styles",  # the output styles' registry: the parser's --NAME flags
]


@pytest.mark.parametrize(
    "fmt,files,expect",
    [
        ("ner", [NER / "ner_gold.txt", NER / "ner_system.txt"], "accuracy"),
        ("conlleval", [NER / "iob1.txt"], "accuracy"),
        ("evalb", [TREES / "quote_gold.mrg", TREES / "quote_test.mrg"], "Sent.                        Matched"),
        ("conllu", [CONLLU / "mwt-gold.conllu", CONLLU / "mwt-sys.conllu"], "AligndAcc"),
        ("pos", [POS / "gold.conll", POS / "system.conll"], "token accuracy"),
    ],
)
def test_score_imports_its_format_and_the_engine_not_numpy(fmt: str, files: list[Path], expect: str) -> None:
    """The report of these formats comes from their one parse without numpy (their per-item statistics
    build numpy arrays from the same parse when compare, --per-item or the API ask for them)."""
    d = _imports("score", "-f", fmt, *map(str, files))
    assert d["code"] == 0 and expect in str(d["out"]), d
    assert d["third"] == [], d
    module = {"ner": "chunk", "conlleval": "chunk", "evalb": "trees"}.get(fmt, fmt)
    assert d["sigfast"] == sorted([*_SCORE_MODULES, f"sigfast.formats.{module}"]), d


def test_the_lazy_statistics_are_the_reports_parse() -> None:
    """The statistics a numpy-free report builds on first access are those of its parse (their sums give
    the report's scores), and the report's text and scores do not depend on whether they were built."""
    from sigfast.formats import score
    from sigfast.metrics import get

    a = score("ner", NER / "ner_gold.txt", NER / "ner_system.txt")
    b = score("ner", NER / "ner_gold.txt", NER / "ner_system.txt")
    assert "not built yet" in repr(a.stats) and list(a.stats) == list(b.stats)
    n = a.stats["f1"].values.shape[0]
    assert repr(a.stats).endswith(", built)") and len(a.item_ids or ()) == n
    for k, st in a.stats.items():
        total = get(st.metric, **st.metric_params).evaluate(st.values.sum(0, keepdims=True), n)[0]
        assert total == a.scores[k] == b.scores[k], k
    assert a.text == b.text


def test_info_reads_a_current_format_table() -> None:
    """`info` reads the generated table only while it matches the format modules; the repository keeps it
    current (after changing a format: `python -m sigfast.cli.info`)."""
    from sigfast import _formats_table, _info

    stale = "stale sigfast/_formats_table.py: run python -m sigfast.cli.info"
    assert _formats_table.SOURCE == _info._source_hash(), stale
    table = _info.format_table()
    assert json.loads(_formats_table.FORMATS) == table, stale
    assert _formats_table.MODULES == {n: f["module"] for f in table for n in (f["name"], *f["aliases"])}, stale
    code = "import sys; from sigfast import _info; f = _info._formats(); print('sigfast.formats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"  # a fresh process reads the table, not the format modules


def test_info_falls_back_to_the_format_modules() -> None:
    code = (
        "import sys; from sigfast import _formats_table, _info; _formats_table.SOURCE = 'stale'; "
        "f = _info._formats(); print(f == _info.format_table() and 'sigfast.formats' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the worker processes")
def test_sigterm_stops_process_pool_workers(tmp_path: Path) -> None:
    """SIGTERM ends `pairwise --backend processes` as Ctrl-C does: the workers stop, exit status 143."""
    from _signals import stop_process_pool

    r = stop_process_pool(tmp_path, signal.SIGTERM)
    assert r.workers, "no worker processes started"
    assert r.seconds < 5
    assert r.returncode == 143 and r.stderr.strip() == "sigfast: terminated", r.stderr
    assert not r.alive, f"orphaned workers {r.alive}"
