"""The README keeps its promises: the tour and every CLI example run as written, the metric list is current."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from sigfast.cli import main
from sigfast.docs import metrics_markdown

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
