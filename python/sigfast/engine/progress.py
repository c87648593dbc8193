"""Progress reporting: a callable (done, total), a tqdm bar, or nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

ProgressArg = bool | Callable[[int, int], Any] | None


class _Bar:
    def __init__(self, total: int, desc: str) -> None:
        self.total = total
        self.bar: Any = None
        self.desc = desc
        self.last = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                self.bar = False
            else:
                self.bar = tqdm(total=total, desc=self.desc, unit="resample", unit_scale=True, leave=False)
        if self.bar is False:
            pct = int(100 * done / max(total, 1))
            if pct >= self.last + 10 or done == total:
                print(f"{self.desc}: {pct}%", file=sys.stderr, flush=True)
                self.last = pct
            return
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.bar.close()

    def close(self) -> None:
        if self.bar not in (None, False):
            self.bar.close()


def resolve(progress: ProgressArg, total: int, work: float, desc: str) -> Callable[[int, int], Any] | None:
    """None: a bar only on a terminal and for work expected to take over ~1 s."""
    if progress is None:
        if work < 5e8 or not sys.stderr.isatty():
            return None
        return _Bar(total, desc)
    if progress is True:
        return _Bar(total, desc)
    if progress is False:
        return None
    if callable(progress):
        return progress
    raise TypeError("progress must be None, True, False or a callable(done, total)")
