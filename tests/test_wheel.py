"""The release wheel installs and runs with no Rust (scripts/check_wheel.sh).

Building a release wheel takes minutes, so this runs only with SIGFAST_WHEEL_TEST=1
(SIGFAST_WHEEL=path.whl checks a wheel built elsewhere instead of building one).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "check_wheel.sh"


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("SIGFAST_WHEEL_TEST") != "1", reason="set SIGFAST_WHEEL_TEST=1 to build the wheel")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the script builds a manylinux wheel")
def test_wheel_installs_and_runs_without_rust() -> None:
    bash = shutil.which("bash")
    assert bash is not None
    proc = subprocess.run([bash, str(SCRIPT)], capture_output=True, text=True, timeout=3600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "command -v cargo: not found" in out
    assert "cp310-abi3-manylinux" in out
    assert "sigfast demo: built-in sample data" in out
    assert "== OK:" in out
