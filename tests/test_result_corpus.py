"""The saved-results corpus comes out byte for byte (tests/_corpus.py; scripts/make_result_corpus.py).

Every case (each test, variant, scheme, question and stream version of the public API on fixed data,
and command lines of the CLI on the committed test files) is rerun and its JSON (with its signature)
and text report compared with the committed bytes, so a redesign of the engine or of the layers
around it shows that it kept every result.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import _corpus

ROOT = Path(__file__).resolve().parent.parent
SAVED = Path(__file__).parent / "data" / "corpus" / "results.jsonl"
_LINES = {json.loads(x)["case"]: json.loads(x) for x in SAVED.read_text(encoding="utf-8").splitlines()}
_CLI = {f"cli:{k}": v for k, v in _corpus.CLI_CASES.items()}


def test_every_case_is_saved() -> None:
    assert sorted(_LINES) == sorted([*_corpus.CASES, *_CLI]), "regenerate with scripts/make_result_corpus.py"


@pytest.mark.parametrize("case", sorted(_corpus.CASES))
def test_case_keeps_its_bytes(case: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _corpus.render(_corpus.CASES[case]())
    for key, value in got.items():
        assert value == _LINES[case][key], f"{case}: {key} changed"


@pytest.mark.parametrize("case", sorted(_CLI))
def test_command_keeps_its_bytes(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    got = _corpus.render_cli(_CLI[case])
    for key, value in got.items():
        assert value == _LINES[case][key], f"{case}: {key} changed"
