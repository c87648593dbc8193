"""The README keeps its promises: the tour and every CLI example run as written, the metric list is current."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from sigfast.cli import main
from sigfast.docs import formats_markdown, metrics_markdown

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_tour_runs() -> None:
    tour = re.findall(r"```python\n(.*?)```", README, re.S)[0]
    ns: dict[str, object] = {}
    exec(compile(tour, "README.md", "exec"), ns)
    r = ns["r"]
    assert r.n_resamples == 1_000_000 and r.seed == 12345  # the defaults the README promises
    assert 0 < r.pvalue <= 1 and r.statistic > 0


def test_many_systems_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    block = re.search(r"## Many systems\n\n```python\n(.*?)```", README, re.S)
    assert block is not None
    monkeypatch.chdir(tmp_path)  # it writes gain.png and p.png
    ns: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), ns)
    assert (tmp_path / "gain.png").stat().st_size > 0 and (tmp_path / "p.png").stat().st_size > 0
    assert ns["pw"].n_resamples == 10_000  # type: ignore[attr-defined]


def _cli_examples() -> list[str]:
    """The `sigfast` lines of the README's bash blocks, but for blocks marked ``<!-- cli-pending``
    (flags the CLI does not have yet; the integrator drops the mark when it does)."""
    lines = []
    for m in re.finditer(r"(<!-- cli-pending[^\n]*-->\n)?```bash\n(.*?)```", README, re.S):
        if m.group(1):
            continue
        for line in m.group(2).splitlines():
            if line.startswith("sigfast "):
                lines.append(line.split("  #")[0].strip())
    return lines


def test_comparing_llms_runs_as_written(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The "Comparing LLMs" example prints what its comments say."""
    section = README.split("## Comparing LLMs", 1)[1]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    want = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    assert out == want


def test_small_benchmarks_and_gates_run_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The "Small benchmarks, paired binary items and release gates" example prints what its comments say,
    and its table of the gate's exit codes is the one the CLI uses."""
    from sigfast.sequential import EXIT_CODES

    section = README.split("## Small benchmarks, paired binary items and release gates", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    want = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    assert out == want
    codes = dict(re.findall(r"^\| (ALLOW|REJECT|INCONCLUSIVE) \| .* \| (\d) \|$", section, re.M))
    assert {k: int(v) for k, v in codes.items()} == EXIT_CODES


def test_two_way_and_sidak_example_runs_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The "Items crossed with prompts, and intervals that hold together" example prints what its comments say."""
    title = "### Items crossed with prompts, and intervals that hold together"
    section = README.split(title, 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    want = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    assert out == want


def test_the_readme_has_cli_examples() -> None:
    assert len(_cli_examples()) >= 8


# Caches that tools in other tests create in the checkout, perhaps at the same time (pytest -n runs tests
# in parallel): hypothesis, mypy, pytest, bytecode. No README example writes them.
_TOOL_CACHES = {".hypothesis", ".mypy_cache", ".pytest_cache", ".ruff_cache", "__pycache__"}


def _listing() -> set[str]:
    """What a README example could leave behind: the checkout's top level, tests/ and tests/data/."""
    out = {f"./{p.name}" for p in ROOT.iterdir()} | {f"tests/{p.name}" for p in (ROOT / "tests").iterdir()}
    out |= {str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "data").rglob("*")}
    return {p for p in out if not _TOOL_CACHES & set(Path(p).parts)}


@pytest.mark.parametrize("line", _cli_examples())
def test_cli_example_runs_as_written(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    # run from the checkout, as the README says, with $S the scratch folder; the checkout stays as it was
    assert "S=$(mktemp -d)" in README
    monkeypatch.chdir(ROOT)
    before = _listing()
    if "$S/sample/" in line:
        assert main(["demo", "--save", str(tmp_path / "sample"), "-n", "100"]) == 0
    capsys.readouterr()
    assert main(shlex.split(line.replace("$S", str(tmp_path)))[1:]) == 0, line
    assert capsys.readouterr().out.strip()
    assert _listing() == before, f"{line!r} left {sorted(_listing() - before)} in the checkout"


def test_metric_list_is_generated_from_the_registry() -> None:
    block = re.search(r"<!-- metrics:start -->\n(.*?)\n<!-- metrics:end -->", README, re.S)
    assert block is not None
    assert block.group(1) == metrics_markdown(), "the README's metric list is stale: run python -m sigfast.docs"


def test_formats_table_is_generated_from_the_declarations() -> None:
    """Every built-in format is in the README's table, which is written from the declarations."""
    from sigfast.formats import specs

    block = re.search(r"<!-- formats:start -->\n(.*?)\n<!-- formats:end -->", README, re.S)
    assert block is not None
    assert block.group(1) == formats_markdown(), "the README's formats table is stale: run python -m sigfast.docs"
    listed = set(re.findall(r"^\| ([^|]+) \|", block.group(1), re.M))
    names = {n for cell in listed for n in re.findall(r"`([^`]+)`", cell)}
    assert names == {s.name for s in specs()}


# --------------------------------------------------------------------------- what a new user reads first (issue 29)


def _section(title: str) -> str:
    """The README's text under a heading, up to the next heading."""
    m = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#)", README, re.S | re.M)
    assert m is not None, title
    return m.group(1)


def test_the_shell_examples_say_to_activate_the_venv() -> None:
    """Before the first shell example that calls `sigfast`, the README says to activate .venv (or to write
    .venv/bin/sigfast), and .venv/bin/sigfast is what the install puts there: the console script."""
    first = min(m.start() for m in re.finditer(r"```bash\n(?:[^`]*\n)?sigfast ", README))
    before = README[:first]
    assert "source .venv/bin/activate" in before and "`.venv/bin/sigfast`" in before
    assert re.search(r'\[project\.scripts\]\nsigfast = "sigfast\.cli:main"', (ROOT / "pyproject.toml").read_text())


def test_system_names_are_derived_as_the_readme_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every `X` and `Y` are `A` and `B` of the System names section is what sigfast names them, from Python
    and from the shell; one file keeps its whole stem; an LLM log is named after its model."""
    from sigfast.formats import system_names

    text = " ".join(_section("System names").split())
    pairs = re.findall(r"`([^`]+)` and `([^`]+)` are `([^`]+)` and `([^`]+)`", text)
    assert len(pairs) >= 4, pairs
    for x, y, a, b in pairs:
        assert system_names([x, y]) == [a, b], (x, y)
    assert system_names(["tagger_A.jsonl"]) == ["tagger_A"] and "One file keeps its whole stem" in text
    for name in ("tagger_A", "tagger_B"):
        (tmp_path / f"{name}.tsv").write_text("".join(f"{(k * 7 + len(name)) % 10 / 10}\n" for k in range(12)))
    assert main(["compare", str(tmp_path / "tagger_A.tsv"), str(tmp_path / "tagger_B.tsv"), "-n", "100", "--json"]) == 0
    import json

    assert json.loads(capsys.readouterr().out)[0]["systems"] == ["A", "B"]
    import sigfast

    logs = [str(ROOT / "tests" / "data" / "llm" / "inspect" / f"figqa_{m}.json.gz") for m in ("alpha", "beta")]
    assert "(`mockllm/alpha`)" in text
    assert sigfast.read(None, logs, format="inspect").systems == ("mockllm/alpha", "mockllm/beta")


def test_signature_example_is_a_real_run(shared_data: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The signature the README shows is the last line that its command prints, today."""
    block = re.search(r"<!-- signature-example -->\n```console\n\$ (.*?)\n(.*?)```", README, re.S)
    assert block is not None
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    assert main(shlex.split(block.group(1))[1:]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == block.group(2).strip()
    # the reader options the README's prose says the example shows
    assert all(f"{k}=" in out[-1] for k in ("chrf_lowercase", "ter_normalized", "docs", "refs"))


def test_speed_section_is_generated_and_quotes_its_load() -> None:
    """The Speed section is benches/make_readme.py's output from benches/results.json (--check), and the
    start-up figures say the load they were measured at."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_readme", ROOT / "benches" / "make_readme.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--check"]) == 0
    waits = next(ln for ln in README.splitlines() if ln.startswith("Time a user waits"))
    import json

    res = json.loads((ROOT / "benches" / "results.json").read_text(encoding="utf-8"))
    load = res["benchmarks"]["startup"]["loadavg_before"][0]
    assert f"measured at load average {load}" in waits and "busy with other work" in waits
    assert re.search(r"`sigfast --help`: \*\*[\d.]+ ms\*\*, median [\d.]+ ms", README)


def test_romano_wolf_and_ranks_example_runs_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The "Many models at once: Romano–Wolf, P(best) and expected rank" example prints what its comments say."""
    title = "### Many models at once: Romano–Wolf, P(best) and expected rank"
    section = README.split(title, 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    want = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    assert out == want
