"""Running independent tasks locally, on Ray, or on any concurrent.futures Executor.

Tasks are pure functions of their arguments and results come back in task
order, so every backend gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .exceptions import InputError

__all__ = ["run_tasks", "stop_process_pool"]


def stop_process_pool(pool: Any, timeout: float = 1.0) -> None:
    """Stop a ProcessPoolExecutor at once: cancel queued tasks and end its worker processes
    (a plain ``shutdown()`` would wait for every queued task)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout)
        if p.is_alive():
            p.kill()
            p.join(timeout)


def run_tasks(
    backend: Any,
    fn: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    progress: Callable[[int, int], Any] | None,
    weights: Sequence[int] | None = None,
) -> list[Any]:
    """``fn(*task)`` for each task on ``"local"``, ``"ray"`` or an Executor; results in task order.

    ``progress(done, total)`` is called after each task, counting ``weights``
    (one per task by default). On Ray, numpy arrays and Statistics objects
    are put into the object store once, however many tasks share them.
    """
    w = list(weights) if weights is not None else [1] * len(tasks)
    total = sum(w)
    done = 0

    def collect(results: Any) -> list[Any]:
        nonlocal done
        out = []
        for t, get in enumerate(results):
            out.append(get())
            done += w[t]
            if progress is not None:
                progress(done, total)
        return out

    if backend == "local":
        return collect((lambda args=args: fn(*args)) for args in tasks)
    if backend == "ray":
        try:
            import ray
        except ImportError:
            raise InputError("backend='ray' needs Ray: pip install 'sigfast[ray]'") from None
        from .stats import Statistics

        if not ray.is_initialized():
            ray.init(include_dashboard=False, log_to_driver=False)
        remote = ray.remote(fn)
        shared: dict[int, Any] = {}

        def put(a: Any) -> Any:
            if isinstance(a, (Statistics, np.ndarray)):
                if id(a) not in shared:
                    shared[id(a)] = ray.put(a)
                return shared[id(a)]
            return a

        futures = [remote.remote(*[put(a) for a in args]) for args in tasks]
        try:
            return collect((lambda f=f: ray.get(f)) for f in futures)
        except BaseException:  # Ctrl-C or a failed task: stop the others
            for f in futures:
                try:
                    ray.cancel(f, force=True)
                except Exception:
                    pass
            raise
    if hasattr(backend, "submit"):
        futures = [backend.submit(fn, *args) for args in tasks]
        try:
            return collect((lambda f=f: f.result()) for f in futures)
        except BaseException:  # Ctrl-C or a failed task: drop the queued ones
            for f in futures:
                f.cancel()
            raise
    raise InputError(f"backend must be 'local', 'ray' or a concurrent.futures.Executor, got {backend!r}")
