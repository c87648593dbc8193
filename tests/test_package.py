"""Package hygiene: light imports, one version, typed, small API."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import sigfast


def test_import_is_light() -> None:
    code = (
        "import sys, sigfast; heavy = [m for m in ('tqdm', 'matplotlib', 'pandas', 'ray', 'scipy') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_one_version() -> None:
    assert metadata.version("sigfast") == sigfast.__version__
    cargo = (Path(__file__).resolve().parents[1] / "Cargo.toml").read_text()
    assert f'version = "{sigfast.__version__}"' in cargo


def test_typed() -> None:
    pkg = Path(sigfast.__file__).parent
    assert (pkg / "py.typed").exists() and (pkg / "_native.pyi").exists()


def test_keyword_only_after_data() -> None:
    import inspect

    for fn in (sigfast.paired_bootstrap, sigfast.permutation_test):
        params = list(inspect.signature(fn).parameters.values())
        assert [p.name for p in params[:2]] == ["x", "y"]
        assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in params[2:])


def test_progress_callback_and_gil_release() -> None:
    import threading

    import numpy as np

    calls: list[tuple[int, int]] = []
    ticks = 0
    stop = False

    def ticker() -> None:
        nonlocal ticks
        while not stop:
            ticks += 1

    th = threading.Thread(target=ticker)
    th.start()
    x = np.random.default_rng(0).normal(size=3000)
    sigfast.paired_bootstrap(x, x + 0.01, n_resamples=300_000, n_threads=1, progress=lambda d, t: calls.append((d, t)))
    stop = True
    th.join()
    assert calls and calls[-1] == (300_000, 300_000)
    assert ticks > 1000  # Python ran while the engine worked


def test_ctrl_c_stops_a_long_run() -> None:
    import signal
    import time

    code = (
        "import numpy as np, sigfast, sys\n"
        "x = np.random.default_rng(0).normal(size=5000)\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    sigfast.paired_bootstrap(x, x + 0.1, n_resamples=10**9, progress=False)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True); sys.exit(3)\n"
    )
    from _signals import as_from_a_terminal, communicate_after_ctrl_c

    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal)
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    t = time.perf_counter()
    p.send_signal(signal.SIGINT)
    out, _ = communicate_after_ctrl_c(p, 20)
    assert p.returncode == 3 and "interrupted" in out
    assert time.perf_counter() - t < 5
