"""Meta-evaluation: run_all's entry for ``benches/bench_metaeval.py`` (skipped while that file is absent).

It uses that module's inputs and implementations: ``data()`` (K metrics on S systems × N
segments), ``sig_boot``/``sig_perm`` (sigfast.metaeval), ``nlp_boot``/``nlp_perm`` (nlpstats,
the reference implementation) and ``numpy_boot``/``numpy_perm`` (a numpy loop), all of them
single-threaded except sigfast on all cores. System level only (Pearson): at item level the
peers take hours, and this entry runs nothing it would have to scale. The bootstrap runs at
B = 1,000 (all K metrics), the permutation tests at B = 100 on all K(K−1)/2 pairs, the same
work on every side.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from benchlib import Ctx, Skip, ratio, rounds, timing, version_of, with_blas

TASKS = {"boot": "bootstrap intervals", "perm": "permutation tests"}
NEEDED = ("data", "K", "sig_boot", "sig_perm", "numpy_boot", "numpy_perm", "nlp_boot", "nlp_perm")


def metaeval(ctx: Ctx) -> dict[str, Any]:
    try:
        bm = importlib.import_module("bench_metaeval")
    except ImportError as e:
        raise Skip(f"benches/bench_metaeval.py or sigfast.metaeval is not here yet ({e})") from e
    missing = [n for n in NEEDED if not hasattr(bm, n)]
    if missing:
        raise Skip(f"bench_metaeval.py lacks {', '.join(missing)}")
    warnings.simplefilter("ignore")
    h, m = bm.data()
    K = bm.K
    pairs = [(a, c) for a in range(K) for c in range(a + 1, K)]
    Bb, Bp = ctx.size(1000, 20), ctx.size(100, 5)
    lv = "system"
    fns: dict[str, Any] = {
        "boot_sigfast_1": lambda: bm.sig_boot(lv, h, m, 1, Bb),
        "boot_sigfast_all": lambda: bm.sig_boot(lv, h, m, None, Bb),
        "boot_numpy": with_blas(1, lambda: bm.numpy_boot(lv, h, m, Bb)),
        "perm_sigfast_1": lambda: bm.sig_perm(lv, h, m, 1, Bp),
        "perm_sigfast_all": lambda: bm.sig_perm(lv, h, m, None, Bp),
        "perm_numpy": with_blas(1, lambda: bm.numpy_perm(lv, h, m, Bp, pairs)),
    }
    have_nlp = version_of("nlpstats") is not None
    if have_nlp:
        fns["boot_nlpstats"] = with_blas(1, lambda: bm.nlp_boot(lv, h, m, Bb))
        fns["perm_nlpstats"] = with_blas(1, lambda: bm.nlp_perm(lv, h, m, Bp, pairs))
    times = rounds(fns, ctx, slow=[k for k in fns if k.endswith(("nlpstats", "numpy"))])
    who = {
        "sigfast_1": ("sigfast", 1),
        "sigfast_all": ("sigfast", ctx.cores),
        "numpy": ("numpy loop", 1),
        "nlpstats": (f"nlpstats {version_of('nlpstats')}", 1),
    }
    t = {}
    for k, ts in times.items():
        task, side = k.split("_", 1)
        name, threads = who[side]
        what = (
            f"BOOT-BOTH intervals of {K} metrics' Pearson r, B = {Bb}"
            if task == "boot"
            else f"PERM-BOTH tests of {len(pairs)} pairs, Pearson r, B = {Bp}"
        )
        t[k] = timing(ts, name, what, threads)
    ratios = []
    for task in ("boot", "perm"):
        peers = ["numpy"] + (["nlpstats"] if have_nlp else [])
        for peer in peers:
            ratios.append(ratio(t, f"{peer}, {TASKS[task]}", "per core", f"{task}_{peer}", f"{task}_sigfast_1"))
            ratios.append(
                ratio(
                    t,
                    f"{peer}, {TASKS[task]}",
                    "all cores",
                    f"{task}_{peer}",
                    f"{task}_sigfast_all",
                    note=f"{peer}: one thread",
                )
            )
    return {
        "title": f"Meta-evaluation, system level (Pearson), {K} metrics",
        "params": {"level": lv, "statistic": "pearson", "metrics": K, "pairs": len(pairs), "B_boot": Bb, "B_perm": Bp},
        "timings": t,
        "ratios": ratios,
        "notes": [] if have_nlp else ["nlpstats not installed"],
    }
