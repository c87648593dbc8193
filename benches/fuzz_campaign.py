"""A long mutation-fuzzing campaign over sigfast's readers.

Runs the mutations of ``tests/fuzzlib.py`` round-robin over every reader target
(``sigfast.io.read_items`` for tsv/jsonl/npy and gzip, ``sigfast.read`` and
``sigfast.formats.score`` for every format; meta-evaluation score tables read and evaluated,
seeds files compared, CoNLL-2012 coreference diffs, per-item scores and TER) and counts, per target, the executions and
their outcomes: "ok", each ``SigfastError`` class, and any other exception (a bug). Every
bug's input is saved under ``--crashes`` with a line in the summary to reproduce it.

    .venv/bin/python benches/fuzz_campaign.py --executions 1000000 --seed 1
    .venv/bin/python benches/fuzz_campaign.py --seconds 600
    .venv/bin/python benches/fuzz_campaign.py --seconds 600 --only metaeval seeds coref per_item ter

The summary (markdown) is what ``benches/RESULTS-fuzz.md`` records.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzzlib


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--executions", type=int, default=1_000_000)
    ap.add_argument("--seconds", type=float, default=None, help="stop after this long")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--crashes", default="fuzz-crashes", help="folder for inputs that raised a non-SigfastError")
    ap.add_argument("--report-every", type=int, default=10_000)
    ap.add_argument(
        "--only",
        nargs="*",
        default=None,
        metavar="PREFIX",
        help="targets whose names start so (e.g. metaeval seeds ter)",
    )
    args = ap.parse_args()

    import warnings

    import sigfast

    warnings.simplefilter("ignore")  # readers warn about odd but valid input (EVALB 'Error' sentences, ...)
    targets = fuzzlib.targets()
    if args.only:
        targets = [t for t in targets if t.name.startswith(tuple(args.only))]
        if not targets:
            raise SystemExit(f"no target starts with {args.only}")
    rnd = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="sigfast-campaign-"))
    crashes = Path(args.crashes)
    runs: collections.Counter[str] = collections.Counter()
    outcomes: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    bugs: collections.Counter[str] = collections.Counter()
    first_bug: dict[str, str] = {}
    t0 = time.perf_counter()
    done = 0
    while done < args.executions:
        if args.seconds is not None and time.perf_counter() - t0 > args.seconds:
            break
        target = targets[done % len(targets)]
        files = fuzzlib.mutated_files(target, rnd)
        runs[target.name] += 1
        try:
            outcomes[target.name][fuzzlib.run_case(target, files, work)] += 1
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            kind = f"{type(e).__name__} in {target.name}"
            bugs[kind] += 1
            outcomes[target.name][f"BUG {type(e).__name__}"] += 1
            if kind not in first_bug:
                crashes.mkdir(parents=True, exist_ok=True)
                stem = f"{target.name.replace(':', '_')}-{type(e).__name__}"
                for k, data in enumerate(files):
                    (crashes / f"{stem}.{k}{target.suffixes[k]}").write_bytes(data)
                first_bug[kind] = f"{crashes / stem}.*: {''.join(traceback.format_exception_only(e)).strip()}"
        done += 1
        if args.report_every and done % args.report_every == 0:
            rate = done / (time.perf_counter() - t0)
            print(f"{done} executions, {rate:.0f}/s, bugs {sum(bugs.values())}", file=sys.stderr, flush=True)
    secs = time.perf_counter() - t0

    print(f"sigfast {sigfast.__version__}, fuzz campaign seed {args.seed}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{done} executions in {secs:.0f} s ({done / secs:.0f}/s)\n"
    )
    kinds = sorted({k for c in outcomes.values() for k in c})
    print("| target | executions | " + " | ".join(kinds) + " |")
    print("|---|---:|" + "---:|" * len(kinds))
    for t in targets:
        c = outcomes[t.name]
        print(f"| {t.name} | {runs[t.name]} | " + " | ".join(str(c.get(k, 0)) for k in kinds) + " |")
    total = collections.Counter()
    for c in outcomes.values():
        total.update(c)
    print(f"| **all** | {done} | " + " | ".join(str(total.get(k, 0)) for k in kinds) + " |")
    print()
    if bugs:
        print(f"non-SigfastError exceptions: {sum(bugs.values())}")
        for kind, n in bugs.most_common():
            print(f"- {n} x {kind}: {first_bug[kind]}")
        return 1
    print("non-SigfastError exceptions: 0")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
