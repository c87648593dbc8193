"""Peak memory (RSS) of the two-system paired bootstrap as the number of resamples grows.

Each run is a fresh process (``python -c``) whose peak RSS is read from ``wait4``'s rusage;
the figures are that process's whole peak (interpreter, numpy, sigfast and the test). Tests
stream their resamples in chunks (``sigfast._native.CHUNK`` rows), so the peak stays flat in
B; ``--stored`` adds runs with ``return_distribution=True``, which keeps every resample's
values (B x 2 float64) and grows with B.

    .venv/bin/python benches/bench_memory.py            # B = 10^5 .. 10^8
    .venv/bin/python benches/bench_memory.py --max 7 --stored
    .venv/bin/python benches/bench_memory.py --meta    # metaeval and the median bootstrap
    .venv/bin/python benches/bench_memory.py --archive # .eval logs whose sample member expands to 300 MiB, 1.2 GiB
    .venv/bin/python benches/bench_memory.py --pool 10 # pairwise --backend processes, Ctrl-C after 10 s
    .venv/bin/python benches/make_runs.py /tmp/runs2000  # then:
    .venv/bin/python benches/bench_memory.py --scale /tmp/runs2000  # pairwise, interval, leaderboard

``--archive`` writes Inspect ``.eval`` logs (the 12-item test log with its first sample padded to
300 MiB or 1.2 GiB of valid JSON, zstd as Inspect writes it, or deflate) and reads each with
``sigfast.formats.score`` in a fresh process, under the default limit and under
``SIGFAST_MAX_FILE_BYTES=50000000``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

ARCHIVE = """
import sys, time
from sigfast import formats
from sigfast.exceptions import FormatError
t = time.perf_counter()
try:
    formats.score("inspect", None, sys.argv[1])
    print("read")
except FormatError as e:
    msg = str(e).split(": ", 1)[1]
    print("refused: " + ("larger than the limit" if "larger than" in msg else msg[:60]))
"""

META = """
import numpy as np, sigfast
from sigfast import metaeval
rng = np.random.default_rng(0)
h = rng.normal(size=(5, 20)); m = np.stack([h + rng.normal(size=h.shape), h + rng.normal(size=h.shape)])
if {B}:
    r = metaeval.evaluate(h, m, level="system", statistic="pearson", interval="both", n_resamples={B}, seed=1{extra})
    print(r.intervals.tolist(), r.pvalues[0, 1])
"""

CODE = """
import numpy as np, sigfast
rng = np.random.default_rng(0)
x = rng.normal(0.5, 0.2, {n}); y = x + rng.normal(0.01, 0.1, {n})
if {B}:
    r = sigfast.{fn}(x, y, n_resamples={B}, seed=1{extra})
    print(r.pvalue if hasattr(r, "pvalue") else r.confidence_interval)
"""


def peak(n: int, B: int, fn: str = "paired_bootstrap", extra: str = "") -> tuple[float, float, str]:
    code = (META if fn == "metaeval" else CODE).format(n=n, B=B, fn=fn, extra=extra)
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None
    out = p.stdout.read().strip()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise SystemExit(f"run failed: B={B} {fn}{extra}")
    return ru.ru_maxrss / 1024.0, time.perf_counter() - t, out


def padded_eval(path: Path, size: int, codec: str, lie: bool = False) -> None:
    """The 12-item test log with its first sample padded to ``size`` bytes of valid JSON, compressed
    piece by piece (nothing of ``size`` is held); ``lie``: the zip headers declare the member 1,000 bytes."""
    import fuzzlib

    members = fuzzlib.read_zip((ROOT / "tests/data/llm/inspect/figqa_alpha_12items.eval").read_bytes())
    first = next(k for k in members if k.startswith("samples/"))
    sample = json.loads(members[first])
    sample["metadata"] = {"pad": "PAD"}
    head, tail = json.dumps(sample).encode().split(b"PAD")
    pad = size - len(head) - len(tail)
    if codec == "zstd":
        import zstandard

        c = zstandard.ZstdCompressor(level=3).compressobj()
    else:
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
    crc, parts, left = zlib.crc32(head), [c.compress(head)], pad
    block = b"x" * (1 << 20)
    while left:
        b = block[: min(left, len(block))]
        crc = zlib.crc32(b, crc)
        parts.append(c.compress(b))
        left -= len(b)
    crc = zlib.crc32(tail, crc)
    parts += [c.compress(tail), c.flush()]
    sizes = {first: 1000} if lie else None
    path.write_bytes(fuzzlib.write_zip(members, codec, raw={first: (b"".join(parts), crc, size)}, sizes=sizes))


def peak_of(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    out = p.stdout.read().strip()
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"run failed: {args}")
    return ru.ru_maxrss / 1024.0, time.perf_counter() - t, out


def archive() -> None:
    work = Path(tempfile.mkdtemp(prefix="sigfast-bomb-"))
    base, _, _ = peak_of(["-c", "from sigfast import formats; import sigfast.formats.inspectlog"])
    print(f"baseline (import sigfast and the Inspect reader): {base:.1f} MiB")
    print(f"{'member':>10} {'codec':>14} {'file KB':>8} {'limit':>15} {'peak RSS MiB':>13} {'seconds':>8}  outcome")
    for size, label in ((300 << 20, "300 MiB"), (1200 << 20, "1.2 GiB")):
        for codec, lie in (("zstd", False), ("zstd", True), ("deflate", False)):
            f = work / "bomb.eval"
            padded_eval(f, size, codec, lie)
            for limit in (None, 50_000_000):
                env = dict(os.environ)
                env.pop("SIGFAST_MAX_FILE_BYTES", None)
                if limit:
                    env["SIGFAST_MAX_FILE_BYTES"] = str(limit)
                mib, secs, out = peak_of(["-c", ARCHIVE, str(f)], env)
                shown = f"{limit:,}" if limit else "1 GiB (default)"
                kb = f.stat().st_size / 1000
                name = codec + (" (lying size)" if lie else "")
                print(f"{label:>10} {name:>14} {kb:>8.0f} {shown:>15} {mib:>13.1f} {secs:>8.1f}  {out}", flush=True)
            f.unlink()


def pool(seconds: float) -> None:
    """``sigfast pairwise --backend processes`` on three systems of 3,000 items (as tests/_signals.py) at
    B = 10^8, 10^9, 10^10: Ctrl-C (SIGINT) after ``seconds``; the main process's peak RSS (wait4) and the
    time from the signal to its exit."""
    import signal

    import numpy as np

    work = Path(tempfile.mkdtemp(prefix="sigfast-pool-"))
    rng = np.random.default_rng(0)
    files = []
    for k in "abc":
        f = work / f"{k}.tsv"
        f.write_text("".join(f"{v}\n" for v in rng.random(3000)))
        files.append(str(f))
    print(f"Ctrl-C after {seconds:g} s of work; peak RSS of the main process (the workers are not counted)")
    print(f"{'B':>16} {'peak RSS MiB':>13} {'signal to exit s':>17} {'exit':>5}")
    for e in (8, 9, 10):
        cmd = [sys.executable, "-m", "sigfast", "pairwise", *files, "-n", str(10**e), "--backend", "processes"]
        p = subprocess.Popen(cmd + ["--threads", "1", "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(seconds)
        t = time.perf_counter()
        p.send_signal(signal.SIGINT)
        _, status, ru = os.wait4(p.pid, 0)
        secs = time.perf_counter() - t
        rc = os.waitstatus_to_exitcode(status)
        print(f"{10**e:>16,} {ru.ru_maxrss / 1024:>13.1f} {secs:>17.3f} {rc:>5}", flush=True)


LEADERBOARD = """
import sys, glob, numpy as np, sigfast
files = sorted(glob.glob(sys.argv[1] + "/*.csv"))
data = {f.rsplit("/", 1)[1][:-4]: np.loadtxt(f, delimiter=",", skiprows=1, usecols=1) for f in files}
r = sigfast.leaderboard(data, n_resamples=1000)
print(len(r.systems), "models")
"""


def scale(folder: str, which: list[str]) -> None:
    """``sigfast pairwise`` (text, JSON, CSV), ``sigfast interval`` and ``sigfast.leaderboard`` on a folder
    of runs (benches/make_runs.py), B = 1,000, output to /dev/null: peak RSS (wait4) and seconds."""
    n = len(list(Path(folder).glob("*.csv")))
    runs: list[tuple[str, list[str]]] = []
    for style in ("text", "json", "csv"):
        flag = [] if style == "text" else [f"--{style}"]
        cmd = ["-m", "sigfast", "pairwise", "-f", "records", folder, "-n", "1000", "--no-progress", *flag]
        runs.append((f"pairwise ({style})", cmd))
    runs.append(("interval", ["-m", "sigfast", "interval", "-f", "records", folder, "-n", "1000"]))
    runs.append(("sigfast.leaderboard (API)", ["-c", LEADERBOARD, folder]))
    print(f"{n} runs in {folder}, B = 1,000")
    print(f"{'command':<28} {'peak RSS MiB':>13} {'seconds':>8}")
    for label, cmd in runs:
        if not any(label.startswith(w) for w in which):
            continue
        t = time.perf_counter()
        with open(os.devnull, "w") as null:
            p = subprocess.Popen([sys.executable, *cmd], stdout=null)
            _, status, ru = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"run failed: {label}")
        print(f"{label:<28} {ru.ru_maxrss / 1024:>13.1f} {time.perf_counter() - t:>8.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=100)
    ap.add_argument("--min", type=int, default=5, help="smallest B = 10^min")
    ap.add_argument("--max", type=int, default=8, help="largest B = 10^max")
    ap.add_argument("--stored", action="store_true", help="also runs with return_distribution=True (up to 10^7)")
    ap.add_argument(
        "--meta",
        action="store_true",
        help="instead: metaeval.evaluate (system level, BOOT-BOTH and PERM-BOTH, 5 x 20 table, 2 metrics) and the "
        "median paired bootstrap (nan_policy raise and omit) at B = 10^4, 10^6, 10^7",
    )
    ap.add_argument("--archive", action="store_true", help="instead: .eval logs with a 300 MiB and a 1.2 GiB member")
    ap.add_argument(
        "--pool", type=float, default=None, metavar="SECONDS", help="instead: pairwise --backend processes, Ctrl-C"
    )
    ap.add_argument("--scale", metavar="FOLDER", help="instead: pairwise, interval and leaderboard on a folder of runs")
    ap.add_argument("--only", nargs="*", default=["pairwise", "interval", "sigfast.leaderboard"], help="with --scale")
    args = ap.parse_args()
    if args.scale:
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
        scale(args.scale, args.only)
        return
    if args.pool is not None:
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
        pool(args.pool)
        return
    if args.archive:
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
        archive()
        return
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    base, _, _ = peak(args.items, 0)
    print(f"baseline (import sigfast, make the data, no test): {base:.1f} MiB")
    print(f"{'test':<62} {'B':>12} {'peak RSS MiB':>13} {'above baseline':>15} {'seconds':>8}")
    quiet = ", progress=False"
    runs = [("paired_bootstrap", quiet, e) for e in range(args.min, args.max + 1)]
    runs += [("paired_bootstrap", quiet + ", variant='shifted'", e) for e in (args.min, args.max)]
    runs += [("bootstrap_interval", ", method='percentile'", e) for e in (args.min, min(args.max, 7))]
    runs += [("bootstrap_interval", ", method='bca'", e) for e in (args.min, min(args.max, 7))]
    if args.stored and not args.meta:
        stored = quiet + ", return_distribution=True"
        runs += [("paired_bootstrap", stored, e) for e in range(args.min, min(args.max, 7) + 1)]
    if args.meta:
        runs = [("metaeval", "", e) for e in (4, 6, 7)]
        runs += [("paired_bootstrap", quiet + ", metric='median'", e) for e in (4, 6, 7)]
        runs += [("paired_bootstrap", quiet + ", metric='median', nan_policy='omit'", e) for e in (4, 6, 7)]
    for fn, extra, e in runs:
        mib, secs, _ = peak(args.items, 10**e, fn, extra)
        label = fn + extra.replace(", progress=False", "").replace(", ", " ")
        print(f"{label:<62} {10**e:>12,} {mib:>13.1f} {mib - base:>15.1f} {secs:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
