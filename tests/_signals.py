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

import signal
import subprocess


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
