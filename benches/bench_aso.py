"""ASO over random seeds: sigfast against deepsig (the reference implementation).

Same settings on both sides: 2 systems × 20 seeds (N(0.3, 1) against N(0, 1)), confidence
0.95, dt = 0.005, B bootstrap iterations. Per core: ``deepsig.aso(num_jobs=1)`` against
``sigfast.aso(n_threads=1)``. All cores: sigfast on all threads against deepsig's faster of
``num_jobs=1`` and ``num_jobs=-1`` (joblib worker processes; named in the record). deepsig takes
tens of seconds a run at B = 1,000, so it runs ``--slow-repeat`` times.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from benchlib import Ctx, ratio, rounds, timing, version_of


def aso(ctx: Ctx) -> dict[str, Any]:
    import deepsig

    import sigfast

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(2024)
    a, b = rng.normal(0.3, 1, 20), rng.normal(0, 1, 20)
    B = ctx.size(1000, 20)
    last: dict[str, float] = {}

    def ds(jobs: int) -> None:
        last["deepsig"] = deepsig.aso(a, b, num_bootstrap_iterations=B, num_jobs=jobs, seed=1, show_progress=False)

    def sf(th: int | None) -> None:
        last["sigfast"] = sigfast.aso(a, b, n_resamples=B, seed=1, n_threads=th).statistic

    fns = {
        "deepsig_1": lambda: ds(1),
        "deepsig_all": lambda: ds(-1),
        "sigfast_1": lambda: sf(1),
        "sigfast_all": lambda: sf(None),
    }
    times = rounds(fns, ctx, slow=["deepsig_1", "deepsig_all"])
    v = version_of("deepsig")
    t = {
        "deepsig_1": timing(times["deepsig_1"], "deepsig", f"deepsig {v} aso(num_jobs=1)", 1, "num_jobs=1"),
        "deepsig_all": timing(
            times["deepsig_all"],
            "deepsig",
            f"deepsig {v} aso(num_jobs=-1)",
            ctx.cores,
            "num_jobs=-1 (joblib processes)",
        ),
        "sigfast_1": timing(times["sigfast_1"], "sigfast", "sigfast.aso(n_threads=1)", 1),
        "sigfast_all": timing(times["sigfast_all"], "sigfast", "sigfast.aso()", ctx.cores),
    }
    best = min(("deepsig_1", "deepsig_all"), key=lambda k: t[k]["best_s"])
    return {
        "title": "ASO, 2 systems × 20 seeds",
        "params": {"seeds": 20, "B": B, "confidence": 0.95, "dt": 0.005},
        "timings": t,
        "ratios": [
            ratio(t, "deepsig aso", "per core", "deepsig_1", "sigfast_1"),
            ratio(t, "deepsig aso", "all cores", best, "sigfast_all", note=f"deepsig: {t[best]['config']}"),
        ],
        "checks": {
            "eps_min_deepsig": float(last["deepsig"]),
            "eps_min_sigfast": float(last["sigfast"]),
            "note": "different random streams",
        },
    }
