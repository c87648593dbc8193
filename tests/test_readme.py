"""The README keeps its promises: the tour and every CLI example run as written, the metric list is current."""

from __future__ import annotations

import os
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
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            if line.startswith("sigfast "):
                lines.append(line.split("  #")[0].strip())
    return lines


def test_the_readme_has_cli_examples() -> None:
    assert len(_cli_examples()) >= 8


@pytest.mark.parametrize("line", _cli_examples())
def test_cli_example_runs_as_written(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    # run in a scratch folder holding the repository's tests/ folder and the demo's sample files
    monkeypatch.chdir(tmp_path)
    os.symlink(ROOT / "tests", tmp_path / "tests")
    if "sample/" in line and "--save" not in line:
        assert main(["demo", "--save", "sample", "-n", "100"]) == 0
    capsys.readouterr()
    assert main(shlex.split(line)[1:]) == 0, line
    assert capsys.readouterr().out.strip()


def test_metric_list_is_generated_from_the_registry() -> None:
    block = re.search(r"<!-- metrics:start -->\n(.*?)\n<!-- metrics:end -->", README, re.S)
    assert block is not None
    assert block.group(1) == metrics_markdown(), "the README's metric list is stale: run python -m sigfast.docs"
