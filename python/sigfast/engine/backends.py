"""Running independent tasks locally, on Ray, or on any concurrent.futures Executor.

Tasks are pure functions of their arguments and results come back in task
order, so every backend gives the same bytes.
"""

from __future__ import annotations

import collections
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ..exceptions import InputError

__all__ = ["iter_tasks", "run_tasks", "stop_process_pool", "window_of"]


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


def window_of(backend: Any) -> int:
    """How many tasks an Executor holds at once: twice its workers (``_max_workers``, as process and thread
    pools have it; else this machine's CPUs), at least 2, so every worker has its next task queued while
    memory stays flat in the number of tasks."""
    workers = getattr(backend, "_max_workers", None)
    if not isinstance(workers, int) or workers < 1:
        workers = os.cpu_count() or 1
    return max(2, 2 * workers)


def iter_tasks(
    backend: Any,
    fn: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    progress: Callable[[int, int], Any] | None,
    weights: Iterable[int] | None = None,
    *,
    total: int | None = None,
    window: int | None = None,
) -> Iterator[Any]:
    """``fn(*task)`` for each task on ``"local"``, ``"ray"`` or an Executor; results yielded in task order.

    Tasks are taken lazily and at most ``window`` (default :func:`window_of`) are submitted and not yet
    collected, so memory does not grow with the number of tasks (a process pool used to hold one future
    per shard: 399 MiB at 10^10 resamples) and Ctrl-C has only a window of queued tasks to cancel.
    ``progress(done, total)`` is called after each task, counting ``weights`` (one per task by default;
    ``total`` is their sum, counted from the tasks when not given). On Ray, numpy arrays and
    Statistics objects are put into the object store once, however many tasks share them.
    """
    if total is None or weights is None:
        tasks = list(tasks)
        w_list = list(weights) if weights is not None else [1] * len(tasks)
        total = sum(w_list) if total is None else total
        weights = w_list
    w_iter = iter(weights)
    done = 0

    def step(result: Any) -> Any:
        nonlocal done
        done += next(w_iter)
        if progress is not None:
            progress(done, total)
        return result

    if backend == "local":
        for args in tasks:
            yield step(fn(*args))
        return
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

        def cancel(f: Any) -> None:
            try:
                ray.cancel(f, force=True)
            except Exception:
                pass

        if window is None:  # twice the cluster's CPUs, which may be many more than this machine's
            cpus = int(ray.cluster_resources().get("CPU", 0))
            window = max(2, 2 * cpus) if cpus else window_of(None)
        yield from _windowed(lambda args: remote.remote(*[put(a) for a in args]), ray.get, cancel, tasks, window, step)
        return
    if hasattr(backend, "submit"):
        yield from _windowed(
            lambda args: backend.submit(fn, *args),
            lambda f: f.result(),
            lambda f: f.cancel(),
            tasks,
            window or window_of(backend),
            step,
        )
        return
    raise InputError(f"backend must be 'local', 'ray' or a concurrent.futures.Executor, got {backend!r}")


def _windowed(
    submit: Callable[[tuple[Any, ...]], Any],
    get: Callable[[Any], Any],
    cancel: Callable[[Any], None],
    tasks: Iterable[tuple[Any, ...]],
    window: int,
    step: Callable[[Any], Any],
) -> Iterator[Any]:
    """Results in task order with at most ``window`` tasks in flight; on Ctrl-C, a failed task or a
    consumer that stops early, the tasks in flight are cancelled."""
    pending: collections.deque[Any] = collections.deque()
    it = iter(tasks)
    try:
        for args in it:
            pending.append(submit(args))
            if len(pending) >= window:
                yield step(get(pending.popleft()))
        while pending:
            yield step(get(pending.popleft()))
    except BaseException:  # Ctrl-C, a failed task, or the consumer closing us: drop the queued ones
        for f in pending:
            cancel(f)
        raise


def run_tasks(
    backend: Any,
    fn: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    progress: Callable[[int, int], Any] | None,
    weights: Sequence[int] | None = None,
) -> list[Any]:
    """:func:`iter_tasks` as a list."""
    return list(iter_tasks(backend, fn, tasks, progress, weights))
