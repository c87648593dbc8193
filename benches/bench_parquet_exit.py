"""Exit statuses of the CLI when an error follows the reading of a Parquet file (issue 29).

pyarrow's thread pools, once a read starts them, can end a process that exits soon after with
SIGABRT ("terminate called without an active exception", exit 134) after sigfast's one-line
message. This runs ``sigfast compare -f records good.parquet bad.parquet`` (the bad file's last
score is null: a FormatError right after the read) ``--runs`` times and counts the exit statuses,
and, for the cause, a bare ``pyarrow.parquet.read_table`` followed by ``sys.exit(1)``.

    .venv/bin/python benches/bench_parquet_exit.py --runs 50
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

BARE = """
import io, sys
import pyarrow.parquet as pq
t = pq.read_table(io.BytesIO(open(sys.argv[1], "rb").read()))
rows = t.to_pylist()
sys.exit(1)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq

    work = Path(tempfile.mkdtemp(prefix="sigfast-parquet-"))
    ids = [f"q{i}" for i in range(300)]
    good, bad = work / "good.parquet", work / "bad.parquet"
    pq.write_table(pa.table({"id": ids, "score": [0.5] * 300}), good)
    pq.write_table(pa.table({"id": ids, "score": pa.array([0.5] * 299 + [None])}), bad)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    print(f"machine: {machine}, pyarrow {pa.__version__}")
    cases = {
        "sigfast compare -f records good.parquet bad.parquet": [
            "-m",
            "sigfast",
            "compare",
            "-f",
            "records",
            str(good),
            str(bad),
            "-n",
            "100",
        ],
        "pyarrow.parquet.read_table, then sys.exit(1)": ["-c", BARE, str(good)],
    }
    for label, cmd in cases.items():
        codes = collections.Counter(
            subprocess.run([sys.executable, *cmd], capture_output=True).returncode for _ in range(args.runs)
        )
        shown = ", ".join(f"exit {c}: {n}" for c, n in sorted(codes.items()))
        print(f"{label}: {args.runs} runs, {shown}", flush=True)


if __name__ == "__main__":
    main()
