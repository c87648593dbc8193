"""``sigfast report``: the time and size of the report of 25 systems x 2 metrics at B = 10^5.

Runs the whole command as a process (Python start-up, reading and scoring the 25 CoNLL 2018 en_ewt
parsers against gold, the per-label units, the leaderboards with each system's bootstrap interval at
the default 10^4 resamples, all 300 pairs per metric at B = 10^5, the pair views, the HTML and the
JSON), ``--threads`` threads (default 2), best of ``--repeats``, and prints the wall time, the sizes of
the page and of its data, and the load average before and after (the machine may be shared).

    PYTHONPATH=python .venv/bin/python benches/bench_report.py
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONLL = ROOT.parent / "shared" / "data" / "dependency_parsing" / "conll2018_en_ewt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--resamples", type=int, default=100_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=1)
    a = ap.parse_args()
    systems = sorted(str(p) for p in (CONLL / "systems").glob("*/en_ewt.conllu.gz"))
    assert len(systems) == 25, systems
    with tempfile.TemporaryDirectory() as tmp:
        html, data = Path(tmp) / "report.html", Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "sigfast", "report", "-f", "conllu", str(CONLL / "gold" / "en_ewt.conllu.gz")]
        cmd += [*systems, "-m", "las", "-m", "uas", "-n", str(a.resamples), "--threads", str(a.threads)]
        cmd += ["--output", str(html), "--data", str(data)]
        best = cpu = float("inf")
        load_before = os.getloadavg()
        for _ in range(a.repeats):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - t
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if wall < best:
                best, cpu = wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        load_after = os.getloadavg()
        print(f"sigfast report: 25 systems x 2 metrics (las, uas), B = {a.resamples:,}, {a.threads} threads")
        print(f"wall time (best of {a.repeats}): {best:.2f} s; CPU time (user + system) of that run: {cpu:.2f} s")
        print(f"page: {html.stat().st_size / 1e6:.2f} MB; data (--data): {data.stat().st_size / 1e6:.2f} MB")
        print(f"load average (1, 5, 15 min) before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
        print(f"load average (1, 5, 15 min) after:  {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
