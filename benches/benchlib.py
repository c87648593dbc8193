"""What every benchmark of ``run_all.py`` shares: paths, timing, and the records written to the JSON.

A benchmark is a function ``bench(ctx: Ctx) -> dict`` built from

* :func:`rounds`: times named functions in interleaved rounds (every round runs each function
  once, so a change of load on a shared machine hits all sides alike), after one warm-up call
  (none for slow peers, which run fewer times);
* :func:`timing`: one record per timed configuration (who, what, threads, every repeat's time,
  best and median);
* :func:`ratio`: a ratio of two timings, ``speedup`` (peer ÷ sigfast: how many times faster
  sigfast is) or ``of_floor`` (sigfast ÷ a floor: how many floors sigfast takes), with an
  optional target that the ratio can miss.

A benchmark raises :class:`Skip` when a peer, a reference script or the data is missing;
``run_all.py`` then records the reason and goes on.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: the shared data sets (``shared/data`` beside the checkout, or $SIGFAST_BENCH_DATA)
DATA = Path(os.environ.get("SIGFAST_BENCH_DATA", str(ROOT.parent / "shared" / "data")))
#: fetched reference scorers (never committed): $SIGFAST_BENCH_REFS or ~/.cache/sigfast-bench/refs
REFS = Path(os.environ.get("SIGFAST_BENCH_REFS", str(Path.home() / ".cache" / "sigfast-bench" / "refs")))


class Skip(Exception):
    """This benchmark cannot run here; the message says what is missing and how to get it."""


@dataclass
class Ctx:
    """Settings every benchmark reads."""

    quick: bool
    repeat: int  # timed repeats of each configuration
    slow_repeat: int  # repeats of peers that take tens of seconds a run (deepsig, sacrebleu TER)
    data: Path
    refs: Path
    tmp: Path
    cores: int
    old_venv: Path | None = None
    evaluatio_python: str | None = None
    python: str = sys.executable
    notes: list[str] = field(default_factory=list)

    def size(self, full: Any, quick: Any) -> Any:
        """``quick`` under ``--quick``, else ``full``."""
        return quick if self.quick else full

    def log(self, msg: str) -> None:
        print(f"  {msg}", file=sys.stderr, flush=True)


def need(path: Path, what: str) -> Path:
    """``path`` if it exists, else :class:`Skip` naming ``what``."""
    if not path.exists():
        raise Skip(f"{what} not found at {path}")
    return path


def rounds(fns: dict[str, Callable[[], Any]], ctx: Ctx, slow: Iterable[str] = ()) -> dict[str, list[float]]:
    """Wall times of each function, in interleaved rounds.

    Each function runs ``ctx.repeat`` times after one untimed warm-up call; those named in
    ``slow`` (peers that take tens of seconds a run) run ``ctx.slow_repeat`` times with no
    warm-up. A function stops taking part once it has its count.
    """
    slow = set(slow)
    want = {k: (ctx.slow_repeat if k in slow else ctx.repeat) for k in fns}
    for k, fn in fns.items():
        if k not in slow:
            fn()
    times: dict[str, list[float]] = {k: [] for k in fns}
    for r in range(max(want.values(), default=0)):
        for k, fn in fns.items():
            if r < want[k]:
                t = time.perf_counter()
                fn()
                times[k].append(time.perf_counter() - t)
    return times


def timing(times: list[float], who: str, what: str, threads: int, config: str | None = None) -> dict[str, Any]:
    """One timed configuration: ``who`` (sigfast or the peer's name), ``what`` ran, on how many threads."""
    return {
        "who": who,
        "what": what,
        "threads": threads,
        "config": config,
        "times_s": [round(t, 6) for t in times],
        "best_s": round(min(times), 6),
        "median_s": round(statistics.median(times), 6),
    }


def ratio(
    timings: dict[str, dict[str, Any]],
    name: str,
    scope: str,
    peer: str,
    ours: str,
    kind: str = "speedup",
    target: float | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    """A ratio of two timings of ``timings``.

    ``kind="speedup"``: peer ÷ sigfast (sigfast is that many times faster; a target is a minimum).
    ``kind="of_floor"``: sigfast ÷ floor (``peer`` is the floor; a target is a maximum).
    ``kind="scaling"``: ``peer`` ÷ ``ours`` for two sigfast configurations (thread or size
    scaling; a target is a minimum for threads, a maximum for sizes: say which in ``note``).
    ``scope`` is ``"per core"``, ``"all cores"`` or ``"whole process"``.
    """
    p, s = timings[peer], timings[ours]
    if kind == "of_floor":
        best, median = s["best_s"] / p["best_s"], s["median_s"] / p["median_s"]
    else:
        best, median = p["best_s"] / s["best_s"], p["median_s"] / s["median_s"]
    out: dict[str, Any] = {
        "name": name,
        "scope": scope,
        "kind": kind,
        "peer": peer,
        "sigfast": ours,
        "best": round(best, 4),
        "median": round(median, 4),
    }
    if target is not None:
        out["target"] = target
        out["met"] = bool(best <= target) if kind == "of_floor" else bool(best >= target)
    if note:
        out["note"] = note
    return out


def run_quiet(cmd: list[str], env: dict[str, str] | None = None, stdin_path: Path | None = None) -> str:
    """Run ``cmd``, return its stdout; a failure raises with the command's stderr."""
    full_env = None if env is None else {**os.environ, **env}
    if stdin_path is None:
        r = subprocess.run(cmd, capture_output=True, env=full_env)
    else:
        with open(stdin_path, "rb") as fh:
            r = subprocess.run(cmd, stdin=fh, capture_output=True, env=full_env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {r.returncode}: {r.stderr.decode(errors='replace')}")
    return r.stdout.decode()


def version_of(dist: str) -> str | None:
    """Installed version of a distribution, or None."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def blas_limits(threads: int | None):
    """A context manager limiting BLAS threads (threadpoolctl), or None when it is not installed.

    ``threads=None`` leaves BLAS at its default (all cores).
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(limits=threads, user_api="blas")


def with_blas(threads: int | None, fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` run with BLAS limited to ``threads`` (None: BLAS default)."""

    def run() -> Any:
        lim = blas_limits(threads) if threads is not None else None
        if lim is None:
            return fn()
        with lim:
            return fn()

    return run


def have_blas_control() -> bool:
    try:
        import threadpoolctl  # noqa: F401
    except ImportError:
        return False
    return True


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine()


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None
