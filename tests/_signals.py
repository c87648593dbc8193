"""Child processes that take Ctrl-C as a terminal delivers it.

A test run may start with SIGINT ignored or blocked, and a child inherits both: its SIGINT
would then never arrive, whatever sigfast does. This happened: the test command started as a
background job of a non-interactive shell under ``nohup`` (which ignores SIGINT, SIGQUIT and
SIGHUP for the job), and both Ctrl-C tests timed out, leaving a child that ran on for minutes
with SigIgn 0x1001007. ``as_from_a_terminal`` (a ``preexec_fn``) gives the child the
state an interactive shell gives it, SIGINT unblocked with its default action, so that the test
checks sigfast's handling of Ctrl-C and not the runner's signal state; ``signal_state`` says
what a child that did not stop had, for the failure message.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np


def as_from_a_terminal() -> None:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signal_state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return "; ".join(line.strip() for line in fh if line.startswith(("State", "SigBlk", "SigIgn", "SigPnd")))
    except OSError as e:
        return f"no /proc status ({e})"


def communicate_after_ctrl_c(p: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """``p.communicate(timeout)`` after a signal; a child still running then is killed and the test
    fails with its signal state."""
    try:
        return p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        state = signal_state(p.pid)
        p.kill()
        raise AssertionError(f"still running {timeout:g} s after the signal: {state}") from None


class PoolStop(NamedTuple):
    """What sending a signal to a busy ``pairwise --backend processes`` run gave."""

    returncode: int
    stderr: str
    seconds: float  # from the signal to the exit
    workers: set[int]  # the worker processes seen before the signal
    alive: list[int]  # those still running half a second after the exit (orphans)


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


def stop_process_pool(tmp_path: Path, sig: int) -> PoolStop:
    """Start ``sigfast pairwise --backend processes`` on three systems with 10^8 resamples, wait
    until its workers are busy, send ``sig`` and report how the run ended."""
    rng = np.random.default_rng(0)
    files = []
    for k in "abc":
        f = tmp_path / f"{k}.tsv"
        f.write_text("".join(f"{v}\n" for v in rng.random(3000)))
        files.append(str(f))
    cmd = [sys.executable, "-m", "sigfast", "pairwise", *files, "-n", "100000000", "--backend", "processes"]
    cmd += ["--threads", "1", "--no-progress"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal)
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not workers:
        time.sleep(0.2)
        workers |= children(p.pid)
    time.sleep(1.5)  # the workers are busy with shards
    workers |= children(p.pid)
    t = time.monotonic()
    p.send_signal(sig)
    _, err = communicate_after_ctrl_c(p, 30)
    seconds = time.monotonic() - t
    time.sleep(0.5)
    alive = [
        w for w in workers if os.path.exists(f"/proc/{w}") and "Z" not in open(f"/proc/{w}/stat").read().split()[2]
    ]
    return PoolStop(p.returncode, err, seconds, workers, alive)
