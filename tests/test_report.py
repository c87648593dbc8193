"""``sigfast report`` and ``sigfast.report``: one self-contained HTML page, checked in headless Chromium.

The browser tests open the report of the 25 CoNLL 2018 en_ewt systems (LAS, UAS: the README's command)
and of the 19 WMT21 de-en systems (BLEU, chrF) and check, from the rendered DOM, that every section is
there, that every number shown equals the CLI's JSON of the same run (each number carries its path in
that JSON), that the page makes no request and logs no error, and that the controls work (sorting, the
system picker, arrow keys, the print stylesheet). Screenshots go to tests/artifacts/ (not committed).
Without Chromium these tests are skipped, unless CI is set: then a missing browser fails.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from _browser import Browser, find_chromium
from sigfast.cli import main

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.xdist_group("report-browser")  # one browser per worker, reused


def readme_command() -> list[str]:
    """The command of the README's "Report" section (its ``sh`` block), as words."""
    section = README.split("\n## Report\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the README's Report section has no sh block"
    lines = [ln for ln in block.group(1).splitlines() if ln.startswith("sigfast report ")]
    assert len(lines) == 1
    return shlex.split(lines[0])


def _expand(words: list[str], scratch: Path) -> list[str]:
    """Globs expanded (from the checkout) and ``$S`` the scratch folder, as the shell would."""
    out: list[str] = []
    for w in words:
        w = w.replace("$S", str(scratch))
        if any(c in w for c in "*?["):
            found = sorted(glob.glob(str(ROOT / w)))
            assert found, f"{w} matches nothing"
            out += [os.path.relpath(f, ROOT) for f in found]
        else:
            out.append(w)
    return out


def _chromium() -> str:
    exe = find_chromium()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but chromium is missing: scripts/ensure_chromium.sh installs it", pytrace=False)
        pytest.skip("chromium is not installed (apt-get install chromium, or scripts/ensure_chromium.sh)")
    return exe


@pytest.fixture(scope="module")
def browser() -> Any:
    with Browser(_chromium(), width=1280, height=900) as b:
        yield b


def _run(argv: list[str], capsys: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run ``sigfast report`` with ``--json`` added: the JSON it prints and the one ``--data`` wrote."""
    capsys.readouterr()
    assert main([*argv[1:], "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    data_path = argv[argv.index("--data") + 1]
    written = json.loads(Path(data_path).read_text(encoding="utf-8"))
    assert printed == [written]  # one document, the same whichever way it is asked for
    return printed[0], written


def _pointer(doc: Any, path: str) -> Any:
    for part in path.split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


_NUMBERS = """[...document.querySelectorAll('[data-k]')].map(e => [e.dataset.k, e.dataset.f,
  e.dataset.s || '1', e.textContent, e.closest('[hidden]') !== null])"""


def _check_page(b: Browser, html: Path, data: dict[str, Any], sections: list[str]) -> dict[str, Any]:
    b.open(html)
    assert b.requests() == [html.resolve().as_uri()], "the page fetched something"
    assert b.console_errors() == []
    present = b.eval("[...document.querySelectorAll('body > section[id]')].map(s => s.id)")
    assert present == sections
    # every number shown is the JSON's, as formatted
    shown = b.eval(_NUMBERS)
    assert len(shown) > 100
    for key, f, scale, text, _hidden in shown:
        v = _pointer(data, key)
        want = "–" if v is None else format(v * float(scale) if float(scale) != 1 else v, f)
        assert text == want, f"{key}: the page shows {text!r}, the JSON holds {v!r} ({f}, x{scale})"
    # no number in a numeric cell without its path
    bare = b.eval(
        """[...document.querySelectorAll('td.n')].filter(td => /\\d/.test(td.textContent)
           && !td.querySelector('[data-k]')).map(td => td.textContent)"""
    )
    assert bare == []
    # the leaderboards: one row per system, in the JSON's order, with the ranks and groups
    for k, m in enumerate(data["metrics"]):
        rows = b.eval(
            f"[...document.querySelectorAll('#leaderboard section.metric')[{k}].querySelectorAll('tbody tr')]"
            ".map(r => r.cells[1].textContent)"
        )
        assert rows == [r["system"] for r in m["table"]]
    # every figure has a text alternative: an SVG with role img, a title and a caption
    figs = b.eval(
        """[...document.querySelectorAll('figure')].map(f => { const s = f.querySelector('svg');
           return [s.getAttribute('role'), (s.querySelector('title') || {}).textContent || '',
                   (f.querySelector('figcaption') || {}).textContent || '']; })"""
    )
    assert len(figs) == 3 * len(data["metrics"])
    assert all(role == "img" and len(title) > 40 and caption == title for role, title, caption in figs)
    # the heat map: a cell with its p-value on hover for every ordered pair
    n = len(data["systems"])
    hover = b.eval("document.querySelector('#pvalues svg').querySelectorAll('rect > title').length")
    assert hover == n * (n - 1)
    return {"numbers": len(shown)}


def _check_controls(b: Browser, data: dict[str, Any]) -> None:
    # sorting: the leaderboard's score column, by its header button, ascending then descending
    scores = (
        "[...document.querySelectorAll('#leaderboard section.metric')[0].querySelectorAll('tbody tr')]"
        ".map(r => r.cells[1].textContent)"
    )
    best_first = b.eval(scores)
    b.eval("document.querySelectorAll('#leaderboard section.metric')[0].querySelectorAll('button.sort')[2].click()")
    assert b.eval(scores) == best_first[::-1]
    b.eval("document.querySelectorAll('#leaderboard section.metric')[0].querySelectorAll('button.sort')[2].click()")
    assert b.eval(scores) == best_first
    # the keyboard: arrow keys move between cells
    moved = b.eval(
        """(() => { const t = document.querySelector('#leaderboard table'); const c = t.tBodies[0].rows[0].cells[1];
           c.focus(); c.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true}));
           const a = document.activeElement; return [a.tagName, a.parentNode.rowIndex, a.cellIndex]; })()"""
    )
    assert moved == ["TD", 2, 1] or moved == ["TH", 2, 1]
    # the system picker shows the chosen pair's views, and says how to add a pair the report lacks
    pairs = data["pairs"]
    visible = "[...document.querySelectorAll('.pairview')].filter(v => !v.hidden).map(v => [v.dataset.a, v.dataset.b])"
    assert b.eval(visible) == [[pairs[0]["a"], pairs[0]["b"]]]
    last = pairs[-1]
    pick = """((a, b) => { const s = document.querySelector('#pairs');
      s.querySelector('select.pa').value = a; s.querySelector('select.pb').value = b;
      s.querySelector('select.pb').dispatchEvent(new Event('change', {bubbles: true}));
      return s.querySelector('.missing').hidden; })"""
    assert b.eval(f"{pick}({json.dumps(last['a'])}, {json.dumps(last['b'])})") is True
    assert b.eval(visible) == [[last["a"], last["b"]]]
    assert b.eval(f"{pick}({json.dumps(last['b'])}, {json.dumps(pairs[0]['a'])})") is False
    assert b.eval(visible) == []
    b.eval(f"{pick}({json.dumps(pairs[0]['a'])}, {json.dumps(pairs[0]['b'])})")
    # the print stylesheet shows every pair and hides the controls
    b.call("Emulation.setEmulatedMedia", media="print")
    try:
        shown = b.eval(
            "[...document.querySelectorAll('.pairview')].filter(v => getComputedStyle(v).display !== 'none').length"
        )
        assert shown == len(pairs)
        assert b.eval("getComputedStyle(document.querySelector('.picker')).display") == "none"
    finally:
        b.call("Emulation.setEmulatedMedia", media="")


def test_conll2018_report_in_chromium(
    shared_data: Path, browser: Browser, tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's command: 25 parsers, LAS and UAS."""
    argv = _expand(readme_command(), tmp_path)
    assert "../shared/data/dependency_parsing/conll2018_en_ewt/gold/en_ewt.conllu.gz" in argv
    monkeypatch.chdir(ROOT)  # the README's commands run from the checkout
    data, _ = _run(argv, capsys)
    assert len(data["systems"]) == 25 and [m["metric"] for m in data["metrics"]] == ["las", "uas"]
    html = tmp_path / "report.html"
    assert html.stat().st_size < 5_000_000
    _check_page(
        browser,
        html,
        data,
        ["leaderboard", "pvalues", "gain", "labels", "buckets", "pairs", "signatures", "reproduce"],
    )
    # per bucket: item length and gold-word frequency (a token task)
    assert browser.eval("[...document.querySelectorAll('#buckets h3')].map(h => h.textContent)") == [
        "By item length",
        "By word frequency",
    ]
    assert sum(b["n_units"] for b in data["frequency"]["buckets"]) == data["labels"]["n_units"]
    # the Tuggener diff and the differing items of the first pair, with gold and both systems' labels
    assert browser.eval("document.querySelectorAll('.pairview')[0].querySelectorAll('.tok.d small').length") > 0
    ARTIFACTS.mkdir(exist_ok=True)  # README's docs/report.png is the first of these
    browser.screenshot(ARTIFACTS / "report-conll2018.png", clip_height=1000)
    browser.screenshot(ARTIFACTS / "report-conll2018-full.png", full_page=True)
    _check_controls(browser, data)


def test_wmt21_report_in_chromium(shared_data: Path, browser: Browser, tmp_path: Path, capsys: Any) -> None:
    """19 MT systems against reference A, BLEU and chrF: no units, so no per-label section; the items
    that differ most show the reference and both translations."""
    wmt = shared_data / "machine_translation" / "wmt21_newstest2021_de_en"
    systems = sorted(str(p) for p in (wmt / "system-outputs").glob("*.en"))
    html, data_path = tmp_path / "wmt.html", tmp_path / "wmt.json"
    argv = ["sigfast", "report", "-f", "mt", str(wmt / "newstest2021.de-en.ref.A.en"), *systems, "-m", "bleu"]
    argv += [
        "-m",
        "chrf",
        "-n",
        "10000",
        "--interval-resamples",
        "500",
        "--output",
        str(html),
        "--data",
        str(data_path),
    ]
    data, _ = _run(argv, capsys)
    assert len(data["systems"]) == 19
    _check_page(browser, html, data, ["leaderboard", "pvalues", "gain", "buckets", "pairs", "signatures", "reproduce"])
    assert browser.eval("document.querySelectorAll('.pairview')[0].querySelectorAll('dd').length") == 3 * 10
    ARTIFACTS.mkdir(exist_ok=True)
    browser.screenshot(ARTIFACTS / "report-wmt21.png", clip_height=1400)


def test_llm_logs_report_in_chromium(browser: Browser, tmp_path: Path, capsys: Any) -> None:
    """A folder of lm-eval runs, items clustered in pairs: the per-task table with each system's
    cluster-robust standard error and design effect (those of sigfast.standard_error)."""
    import sigfast

    html, data_path = tmp_path / "llm.html", tmp_path / "llm.json"
    logs = str(ROOT / "tests/data/llm/lm-eval")
    argv = ["sigfast", "report", "-f", "lm-eval", logs, "--tasks", "figqa", "-m", "acc", "--cluster", "pair"]
    argv += ["-n", "2000", "--interval-resamples", "500", "--output", str(html), "--data", str(data_path)]
    data, _ = _run(argv, capsys)
    sections = ["leaderboard", "pvalues", "gain", "tasks", "pairs", "signatures", "reproduce"]
    _check_page(browser, html, data, sections)
    runs = [f"{logs}/dummy-seed{k}" for k in (1, 2, 3)]
    stats = sigfast.read(None, runs, format="lm-eval", task="figqa", metric="acc", cluster="pair")
    for name, row in zip(data["systems"], data["tasks"]["tasks"][0]["systems"]):
        se = sigfast.standard_error(stats, system=name)
        assert row["score"] == pytest.approx(se.estimate, abs=1e-15)
        assert row["design_effect"] == pytest.approx(se.design_effect, rel=1e-12)
    assert data["metrics"][0]["table"][0]["design_effect"] is not None


def test_battles_report_in_chromium(browser: Browser, tmp_path: Path, capsys: Any) -> None:
    """A battle file: the Bradley–Terry ratings, intervals, rank ranges, tiers and win probabilities of
    `sigfast rate` (its command, under "How to reproduce", prints the same JSON)."""
    html, data_path = tmp_path / "battles.html", tmp_path / "battles.json"
    battles = str(ROOT / "tests/data/battles/arena.csv")
    argv = ["sigfast", "report", "-f", "battles", battles, "--cluster", "judge", "--output", str(html)]
    data, _ = _run([*argv, "--data", str(data_path)], capsys)
    b = browser
    b.open(html)
    assert b.requests() == [html.resolve().as_uri()] and b.console_errors() == []
    assert b.eval("[...document.querySelectorAll('body > section[id]')].map(s => s.id)") == [
        "leaderboard",
        "winprob",
        "signatures",
        "reproduce",
    ]
    shown = b.eval(_NUMBERS)
    for key, f, scale, text, _hidden in shown:
        v = _pointer(data, key)
        assert text == ("–" if v is None else format(v * float(scale) if float(scale) != 1 else v, f)), key
    assert len(shown) >= 4 * 8 + 16
    rate = shlex.split(data["reproduce"][-1]["command"])
    assert main(rate[1:]) == 0
    assert json.loads(capsys.readouterr().out) == [data["ratings"]]


# --------------------------------------------------------------------------------------------
# without a browser


@pytest.fixture(scope="module")
def scores(tmp_path_factory: Any) -> list[str]:
    """Three systems' per-item score files (the demo's)."""
    from sigfast.demo import save_sample

    folder = tmp_path_factory.mktemp("demo")
    save_sample(str(folder))
    return [str(folder / f"scores_{x}.tsv") for x in "ABC"]


def test_report_api_equals_cli_and_reuses_the_results(shared_data: Path, capsys: Any) -> None:
    """sigfast.report gives the CLI's document; its numbers are those of pairwise, leaderboard and diff."""
    import sigfast
    from sigfast.analysis import diff

    conll = shared_data / "dependency_parsing" / "conll2018_en_ewt"
    g = str(conll / "gold" / "en_ewt.conllu.gz")
    systems = [str(conll / "systems" / s / "en_ewt.conllu.gz") for s in ("HIT-SCIR-18", "Stanford-18", "UDPipe-Future")]
    rep = sigfast.report(g, systems, format="conllu", metrics=["las"], n_resamples=2000, interval_resamples=300)
    assert [r["what"] for r in rep.to_dict()["reproduce"]][:2] == [
        "pair tests, rank ranges and groups (JSON)",
        "each system's interval (JSON)",
    ]
    d = rep.to_dict()
    argv = ["report", "-f", "conllu", g, *systems, "-m", "las", "-n", "2000", "--interval-resamples", "300", "--json"]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)[0]
    assert cli["reproduce"][1:] == d["reproduce"]  # the CLI's list starts with its own command line
    cli["reproduce"] = d["reproduce"] = []
    assert cli == d
    stats = sigfast.read(g, systems, format="conllu", metric="las")
    assert d["metrics"][0]["pairwise"] == json.loads(sigfast.pairwise(stats, n_resamples=2000).to_json())
    lb = sigfast.leaderboard(stats, n_resamples=300, pairs="none")
    assert d["metrics"][0]["leaderboard"] == json.loads(lb.to_json())
    pair = d["pairs"][0]
    ref = diff(
        g,
        *(systems[d["systems"].index(s)] for s in (pair["a"], pair["b"])),
        format="conllu",
        names=[pair["a"], pair["b"]],
    )
    assert {k: v for k, v in pair["diff"].items() if k != "mcnemar"} == json.loads(ref.to_json())
    # the "how to reproduce" commands print the same numbers
    by_what = {r["what"]: shlex.split(r["command"]) for r in rep.to_dict()["reproduce"]}
    capsys.readouterr()
    assert main(by_what["pair tests, rank ranges and groups (JSON)"][1:]) == 0
    (again,) = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in again.items() if k not in ("thresholds", "display_scale")} == d["metrics"][0]["pairwise"]
    assert again["thresholds"] == d["metrics"][0]["thresholds"]
    assert main(by_what["each system's interval (JSON)"][1:]) == 0
    assert json.loads(capsys.readouterr().out) == [d["metrics"][0]["leaderboard"]]
    assert main([*by_what[f"Tuggener's diff of {pair['a']} and {pair['b']}"][1:], "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [json.loads(ref.to_json())]
    html = rep.format("html")
    assert html.startswith("<!DOCTYPE html>")
    for fetches in ("<link", " src=", 'href="http', "url(", "@import"):  # nothing the page could fetch
        assert fetches not in html


def test_report_of_per_item_files(scores: list[str], tmp_path: Path, capsys: Any) -> None:
    """Files without gold: leaderboard, heat map and gain plot; no units, so no per-label or pair diff."""
    out = tmp_path / "r.html"
    assert main(["report", *scores, "-n", "1000", "--interval-resamples", "200", "--output", str(out)]) == 0
    assert "Leaderboard" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    assert 'id="leaderboard"' in page and 'id="pvalues"' in page and 'id="labels"' not in page


def test_html_style_for_one_result() -> None:
    """result.format("html") through the style registry: one page with the result's tables."""
    import sigfast

    r = sigfast.paired_bootstrap([1, 0, 1, 1, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1, 0, 1], n_resamples=100)
    page = r.format("html")
    assert page.startswith("<!DOCTYPE html>") and page.count("<html") == 1 and "<table" in page
    assert r.signature in page


def test_html_style_wraps_one_command_output_once(scores: list[str], capsys: Any) -> None:
    assert main(["pairwise", *scores, "-n", "500", "--html"]) == 0
    out = capsys.readouterr().out
    assert out.count("<!DOCTYPE html>") == 1 and "<table" in out


def test_report_usage_errors(scores: list[str], tmp_path: Path, capsys: Any) -> None:
    assert main(["report", *scores, "--pair", "nocomma"]) == 2
    assert "--pair takes A,B" in capsys.readouterr().err
    assert main(["report", *scores, "--data", str(tmp_path / "x.csv")]) == 2
    assert main(["report", *scores, "--pair", "a,b", "-n", "100"]) == 1
    assert "no system 'a'" in capsys.readouterr().err


@pytest.mark.parametrize("ci", ["", "true"])
def test_ensure_chromium_fails_under_ci_when_it_cannot_install(tmp_path: Path, ci: str) -> None:
    """With no browser on the PATH and no apt-get, the script fails under CI and says the browser tests
    will be skipped otherwise."""
    import subprocess

    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), **({"CI": ci} if ci else {})}
    r = subprocess.run(
        ["/bin/bash", str(ROOT / "scripts" / "ensure_chromium.sh")], env=env, capture_output=True, text=True
    )
    assert r.returncode == (1 if ci else 0)
    assert ("CI is set" in r.stderr) if ci else ("will be skipped" in r.stderr)


def test_the_readme_shows_a_screenshot_made_by_the_browser_test() -> None:
    """docs/report.png is tests/artifacts/report-conll2018.png of the README's command, committed."""
    section = README.split("\n## Report\n", 1)[1].split("\n## ", 1)[0]
    assert "![" in section and "(docs/report.png)" in section
    png = (ROOT / "docs" / "report.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 300_000
    assert readme_command()[:2] == ["sigfast", "report"]


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


#: Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB
_PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
_DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))


@pytest.mark.parametrize("vision", ["typical", "protanopia", "deuteranopia"])
def test_the_heat_map_palette_reads_by_lightness_alone(vision: str) -> None:
    """The heat map's colour runs from dark (small p) to light (p = 1) with a luminance that rises all
    the way, also as protanopes and deuteranopes see it: so it reads in greyscale and for red-green
    colour blindness."""
    from sigfast.htmlreport import _colour

    matrix = {"protanopia": _PROTANOPIA, "deuteranopia": _DEUTERANOPIA}.get(vision)
    lum = []
    for k in range(41):
        hexa = _colour(k / 40)
        rgb = [_linear(int(hexa[i : i + 2], 16)) for i in (1, 3, 5)]
        if matrix is not None:
            rgb = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix]
        lum.append(0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2])
    assert all(b > a for a, b in itertools.pairwise(lum)), lum
    assert lum[-1] - lum[0] > 0.6  # from near black to near white


def test_sigfast_report_is_the_module_and_the_function() -> None:
    """``sigfast.report`` is the presentation module (``sigfast.report.Table``) and, called, the report of a
    comparison, whichever is used first (a fresh interpreter each way)."""
    import subprocess
    import sys

    battles = str(ROOT / "tests/data/battles/arena.csv")
    for first in ("from sigfast.report import Table", "import sigfast"):
        code = (
            f"{first}\nimport sigfast\n"
            f"r = sigfast.report({battles!r}, format='battles')\n"
            "assert type(r).__name__ == 'Report' and sigfast.report.Table is not None\n"
            "assert sigfast.report.render_tables is not None"
        )
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
