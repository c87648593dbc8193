"""Coreference (``conll2012``): speed against scorer.pl, and the type-I error of the document bootstrap.

Speed: ``sigfast score -f conll2012 KEY SYSTEM`` (all six metrics and the CoNLL F1 computed, scorer.pl's
five-metric report printed) as a process, best of ``--repeats``, against ``perl scorer.pl all KEY SYSTEM
none`` on the same files (best of ``--scorer-repeats``), on OntoGUM's 280 well-formed documents with the
``strong`` system of ``scripts/make_coref_systems.py`` (written to a temporary folder). Needs perl, the
Perl modules Algorithm::Munkres and Math::Combinatorics, and a checkout of
conll/reference-coreference-scorers (``--scorer DIR``).

Type-I error: ``--datasets`` simulated data sets of two equally good systems. Each draws ``--docs``
documents of OntoGUM (without replacement) and makes two systems from them by the same error process
(``make_coref_systems.perturb`` with the ``strong`` rates, independent draws), so neither is better in
expectation; the document bootstrap (``B = --resamples``) tests their CoNLL F1, two-sided at alpha = 0.05:
the shifted (null-centred) bootstrap with the two-sided alternative, and Berg-Kirkpatrick's (one-sided in
the observed direction) rejecting at p < alpha/2. The rate is the
share of data sets rejected, with its binomial standard error.

    PYTHONPATH=python .venv/bin/python benches/bench_coref.py --scorer ../refscorer
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

import sigfast
from sigfast import _native
from sigfast.formats import _corefscorer as cs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import make_coref_systems as mk  # noqa: E402

CONLL_COLS = [4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19]


def _best(cmd: list[str], repeats: int, cwd: Path | None = None) -> float:
    best = math.inf
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=cwd)
        best = min(best, time.perf_counter() - t)
    return best


def speed(args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "make_coref_systems.py"), "--out", tmp], check=True)
        key, rsp = f"{tmp}/key.conll", f"{tmp}/strong.conll"
        env_py = [sys.executable, "-m", "sigfast", "score", "-f", "conll2012", key, rsp]
        load0 = os.getloadavg()
        ours = _best(env_py, args.repeats)
        theirs = _best(["perl", "scorer.pl", "all", key, rsp, "none"], args.scorer_repeats, cwd=args.scorer)
        load1 = os.getloadavg()
        ours_text = subprocess.run(env_py, capture_output=True, text=True, check=True).stdout.split("\n", 1)[1]
        theirs_text = subprocess.run(
            ["perl", "scorer.pl", "all", key, rsp, "none"], capture_output=True, text=True, cwd=args.scorer, check=True
        ).stdout.split("\n", 1)[1]

    def apart(text: str) -> tuple[list[str], list[str]]:
        # scorer.pl prints a document's "Repeated mention" lines in Perl's hash order of documents
        lines = text.splitlines()
        rep = [ln for ln in lines if ln.startswith("Repeated")]
        return [ln for ln in lines if not ln.startswith("Repeated")], sorted(rep)

    return {
        "documents": 280,
        "sigfast_s": round(ours, 3),
        "scorer_pl_s": round(theirs, 3),
        "ratio": round(theirs / ours, 1),
        "reports_byte_identical_but_first_line": ours_text == theirs_text,
        "reports_identical_but_first_line_and_repeated_mention_order": apart(ours_text) == apart(theirs_text),
        "load_before_after": [round(load0[0], 2), round(load1[0], 2)],
    }


def _entities(mentions: list[tuple[int, int, str]]) -> list[list[tuple[int, int]]]:
    ents: dict[str, list[tuple[int, int]]] = {}
    for a, b, e in sorted(mentions):
        ents.setdefault(e, []).append((a, b))
    return list(ents.values())


def _stats(key: list, rsp: list) -> np.ndarray:
    kd = [cs.CorefDocument(str(i), 0, 0, k) for i, k in enumerate(key)]
    rd = [cs.CorefDocument(str(i), 0, 0, r) for i, r in enumerate(rsp)]
    flat, _ = _native.coref_scores(*cs._rows(kd), *cs._rows(rd), len(kd))
    return np.asarray(flat).reshape(len(kd), -1)[:, CONLL_COLS]


def type_one(args: argparse.Namespace) -> dict:
    with tarfile.open(mk.DATA) as tar:
        files = {
            Path(m.name).stem: tar.extractfile(m).read().decode("utf-8")
            for m in tar.getmembers()
            if m.isfile() and m.name.endswith(".conll")
        }
    for n in mk.MALFORMED:
        files.pop(n)
    names = sorted(files)
    parsed = [mk.read_doc(files[n]) for n in names]
    gold = [_entities(ms) for _, ms in parsed]
    rates = mk.SYSTEMS["strong"]
    rng = np.random.default_rng(args.seed)
    rejected = {"shifted": 0, "bk": 0}
    t0 = time.perf_counter()
    for d in range(args.datasets):
        pick = rng.choice(len(names), args.docs, replace=False)
        key = [gold[i] for i in pick]
        a = [_entities(mk.perturb(*parsed[i], rates, rng)) for i in pick]
        b = [_entities(mk.perturb(*parsed[i], rates, rng)) for i in pick]
        x, y = _stats(key, a), _stats(key, b)
        for variant in rejected:
            r = sigfast.paired_bootstrap(
                x, y, metric="conll_f1", n_resamples=args.resamples, seed=args.seed * 1_000_003 + d,
                variant=variant, alternative="two-sided" if variant == "shifted" else None, n_threads=1,
            )  # fmt: skip
            # Berg-Kirkpatrick's p is one-sided in the observed direction: p < alpha/2 is the two-sided test
            rejected[variant] += bool(r.pvalue < (args.alpha if variant == "shifted" else args.alpha / 2))
    secs = time.perf_counter() - t0
    D = args.datasets
    out = {"datasets": D, "documents": args.docs, "B": args.resamples, "alpha": args.alpha, "seconds": round(secs)}
    for v, k in rejected.items():
        p = k / D
        out[v] = {"rejected": k, "rate": round(p, 4), "se": round(math.sqrt(p * (1 - p) / D), 4)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scorer", type=Path, help="checkout of conll/reference-coreference-scorers (speed)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--scorer-repeats", type=int, default=2)
    ap.add_argument("--datasets", type=int, default=500)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("-n", "--resamples", type=int, default=999)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--only", choices=("speed", "typeI"), default=None)
    args = ap.parse_args()
    res: dict = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}",
        "sigfast": sigfast.__version__,
    }
    if args.only != "typeI":
        if args.scorer is None:
            ap.error("--scorer DIR is needed for the speed run (or --only typeI)")
        res["speed"] = speed(args)
    if args.only != "speed":
        res["typeI"] = type_one(args)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
