"""The public API is typed: `mypy --strict` passes on a script that uses every public name (lazy ones too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import sigfast

SCRIPT = Path(__file__).parent / "typing" / "uses_every_public_name.py"


def test_script_uses_every_public_name() -> None:
    text = SCRIPT.read_text()
    missing = [n for n in sigfast.__all__ if f"sigfast.{n}" not in text and not n.startswith("__")]
    assert missing == [], f"add these public names to {SCRIPT.name}: {missing}"


def test_mypy_strict_on_a_script_using_every_public_name() -> None:
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", str(SCRIPT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_script_runs() -> None:
    subprocess.run([sys.executable, str(SCRIPT)], check=True, capture_output=True)
