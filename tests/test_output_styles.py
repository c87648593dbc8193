"""The output styles' registry (sigfast.styles): a style is one file, and it reaches every command.

The toy style ``tests/data/styles/toystyle.py`` (tab-separated tables) is registered from the test
suite alone, through the entry point group ``sigfast.styles``: nothing in the package names it, yet
``compare``, ``pairwise``, ``diff``, ``score`` and ``metaeval`` take ``--tsv`` and ``--output x.tsv``,
and ``result.format("tsv")`` renders any result.
"""

from __future__ import annotations

import importlib.metadata as md
import re
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import styles
from sigfast.cli import main
from sigfast.exceptions import InputError

ROOT = Path(__file__).resolve().parents[1]
CONLLU = ROOT / "tests" / "data" / "conllu"
GOLD, SYS = str(CONLLU / "mwt-gold.conllu"), str(CONLLU / "mwt-sys.conllu")


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy style, found as another distribution's entry point would be."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "data" / "styles"))
    ep = EntryPoint(name="tsv", value="toystyle", group=styles.ENTRY_POINT_GROUP)
    real = md.entry_points

    def entry_points(**kw):  # type: ignore[no-untyped-def]
        if kw.get("group") == styles.ENTRY_POINT_GROUP:
            return [ep]
        return real(**kw)

    monkeypatch.setattr(md, "entry_points", entry_points)
    monkeypatch.setattr(styles, "_LOADED_ENTRY_POINTS", False)
    try:
        yield
    finally:
        styles.unregister("tsv")


def _scores(path: Path, systems: list[str], shift: float = 0.0) -> Path:
    rng = np.random.default_rng(len(systems))
    path.write_text(
        "system\titem\tscore\n"
        + "".join(f"{s}\t{i}\t{k + shift + rng.random():.4f}\n" for k, s in enumerate(systems) for i in range(6))
    )
    return path


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    human = _scores(tmp_path / "human.tsv", ["A", "B", "C"])
    m1 = _scores(tmp_path / "m1.tsv", ["A", "B", "C"], 0.1)
    m2 = _scores(tmp_path / "m2.tsv", ["A", "B", "C"], 0.2)
    return {
        "compare": ["compare", "-f", "conllu", GOLD, f"A={GOLD}", f"B={SYS}", "-n", "200"],
        "pairwise": ["pairwise", "-f", "conllu", GOLD, f"A={GOLD}", f"B={SYS}", f"C={SYS}", "-n", "200"],
        "diff": ["diff", "-f", "conllu", GOLD, f"A={GOLD}", f"B={SYS}"],
        "oracle": ["oracle", "-f", "conllu", GOLD, f"A={GOLD}", f"B={SYS}"],
        "agreement": ["agreement", "-f", "conllu", GOLD, f"A={GOLD}", f"B={SYS}"],
        "score": ["score", "-f", "conllu", GOLD, SYS],
        "metaeval": ["metaeval", str(human), str(m1), str(m2), "--level", "system", "--interval", "none"],
    }


def _is_tsv(out: str) -> bool:
    """Tab-separated tables (the error analyses' reports have prose lines between them), no text or markdown
    table rule."""
    return "\t" in out and "----" not in out and "|---" not in out and "| ---" not in out


@pytest.mark.parametrize("command", ["compare", "pairwise", "diff", "score", "metaeval", "oracle", "agreement"])
def test_a_style_declared_in_one_file_reaches_every_command(
    toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    argv = _commands(tmp_path)[command]
    assert main([*argv, "--tsv"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert _is_tsv(printed), printed
    if command == "diff":  # the report's section titles and signature through the style's heading and comment
        assert printed.startswith("# Diff A → B") and "\n# signature: sigfast:" in printed, printed
    out = tmp_path / "x.tsv"
    assert main([*argv, "--output", str(out)]) == 0, capsys.readouterr().err
    text = capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == printed  # --output x.tsv writes what --tsv prints
    assert not _is_tsv(text)  # and the terminal still gets the text table
    with pytest.raises(SystemExit) as e:  # one style at most
        main([*argv, "--tsv", "--json"])
    assert e.value.code == 2 and "not allowed with" in capsys.readouterr().err


def test_result_format_looks_the_style_up(toy: None) -> None:
    r = sigfast.paired_bootstrap([0.1, 0.5, 0.7, 0.2, 0.9], [0.3, 0.6, 0.8, 0.2, 1.0], n_resamples=200)
    styles.get("tsv")  # loads the entry point
    out = r.format("tsv")
    assert _is_tsv(out) and out.endswith("\n")
    head = next(ln for ln in out.splitlines() if not ln.startswith("#"))
    assert head.split("\t") == [str(h) for h in r.tables()[0].header]  # through the result's tables()
    assert f"# signature: {r.signature}" in out


def test_the_built_in_styles_are_one_list() -> None:
    assert styles.names()[:6] == ("text", "json", "csv", "markdown", "latex", "html")
    assert styles.extensions() == {
        ".txt": "text",
        ".json": "json",
        ".csv": "csv",
        ".md": "markdown",
        ".markdown": "markdown",
        ".tex": "latex",
        ".html": "html",
        ".htm": "html",
    }
    assert [s.name for s in styles.styles() if s.data] == ["json", "csv"]


def test_an_unknown_style_is_an_error_never_the_text_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = sigfast.paired_bootstrap([0.1, 0.5, 0.7, 0.2], [0.3, 0.6, 0.8, 0.2], n_resamples=100)
    closest = r"unknown output style, got 'markdwn'; did you mean 'markdown'\? \(the styles, closest first: markdown, "
    with pytest.raises(InputError, match=closest):
        r.format("markdwn")
    with pytest.raises(InputError, match="unknown output style, got 'rtf'"):
        r.format("rtf")
    from sigfast.report import Table

    with pytest.raises(InputError, match="unknown output style, got 'rtf'"):
        Table(("a",), ((1,),)).render("rtf")
    argv = _commands(tmp_path)["score"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--rtf"])
    assert e.value.code == 2 and "unrecognized arguments: --rtf" in capsys.readouterr().err
    assert main([*argv, "--output", str(tmp_path / "x.rtf")]) == 2
    err = capsys.readouterr().err
    assert "unknown extension .rtf; use .json, .csv, .md, .tex, .html or .txt" in err


def test_a_style_name_or_extension_is_declared_once() -> None:
    with pytest.raises(InputError, match="declared twice"):
        styles.register(styles.Style("csv", (".tsv",), table=str))
    with pytest.raises(InputError, match=r"the extension \.md of output style 'md' already picks 'markdown'"):
        styles.register(styles.Style("md", (".md",), table=str))
    assert "md" not in styles.names()


def test_readme_names_the_one_file_of_a_style() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adding an output style\n", 1)[1].split("\n## ", 1)[0]
    files = re.findall(r"`((?:python|tests|src)/[\w/.]+\.(?:py|rs))`", section)
    package = [f for f in files if f.startswith(("python/", "src/"))]
    assert set(package) == {"python/sigfast/styles.py"}, files  # the one file a style touches in the package
    assert "An output style is one file" in section
    for f in files:
        assert (ROOT / f).is_file(), f


@pytest.mark.parametrize(
    "kw,needle",
    [
        ({"name": "My Style", "extensions": (".x",), "table": str}, "lower-case letters"),
        ({"name": "x", "extensions": ".x", "table": str}, "extensions are a tuple"),
        ({"name": "x", "extensions": ("x",), "table": str}, "extensions are a tuple"),
        ({"name": "x", "extensions": (".x",)}, "needs a table renderer"),
    ],
)
def test_a_bad_declaration_is_an_error(kw: dict[str, object], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        styles.Style(**kw)  # type: ignore[arg-type]


def test_a_style_whose_flag_is_taken_is_refused(tmp_path: Path) -> None:
    styles.register(styles.Style("seed", (".seed",), table=str))
    try:
        with pytest.raises(ValueError, match="--seed is already a flag"):
            main(_commands(tmp_path)["score"])
    finally:
        styles.unregister("seed")


def test_a_style_registered_in_process_renders_through_tables() -> None:
    styles.register(styles.Style("rows", (".rows",), table=lambda t: f"{len(t.rows)} rows\n"))
    try:
        r = sigfast.paired_bootstrap([0.1, 0.5, 0.7, 0.2], [0.3, 0.6, 0.8, 0.2], n_resamples=100)
        assert r.format("rows") == "\n".join(f"{len(t.rows)} rows\n" for t in r.tables())
    finally:
        styles.unregister("rows")
    with pytest.raises(InputError, match="unknown output style, got 'rows'"):
        r.format("rows")


def test_a_style_that_renders_whole_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``render=`` alone: the commands that print results take it; one that prints tables says so in one line."""
    styles.register(styles.Style("keys", (".keys",), render=lambda r: " ".join(r.to_dict()) + "\n", data=True))
    try:
        argv = _commands(tmp_path)
        assert main([*argv["compare"], "--keys"]) == 0
        assert capsys.readouterr().out.startswith("test variant alternative")
        assert main([*argv["score"], "--keys"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'keys' renders results, and this command prints tables" in err, err
    finally:
        styles.unregister("keys")


@pytest.mark.parametrize("command", ["compare", "pairwise", "diff", "score", "metaeval", "oracle", "agreement"])
def test_the_html_style_is_one_page_on_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """--html: one self-contained document around the command's whole output (the style's document hook)."""
    assert main([*_commands(tmp_path)[command], "--html"]) == 0, capsys.readouterr().err
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and page.count("<html") == 1 and page.rstrip().endswith("</html>")
    assert "<table" in page and "<script" in page and "<link" not in page
