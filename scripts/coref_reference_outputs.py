"""Record the reference scorers' outputs on tests/data/coref/ (the parity tests read them; no perl at test time).

Needs a checkout of conll/reference-coreference-scorers (scorer.pl v8.01, with the Perl modules
Algorithm::Munkres and Math::Combinatorics: Debian's libalgorithm-munkres-perl and
libmath-combinatorics-perl) and one of ns-moosavi/coval (for LEA), neither vendored here:

    python scripts/coref_reference_outputs.py --scorer /path/to/reference-coreference-scorers \\
        --coval /path/to/coval

Writes into tests/data/coref/expected/:

- ``CASE.all.none.txt``: ``perl scorer.pl all KEY RESPONSE none`` (the totals);
- ``CASE.all.docs.txt``: ``perl scorer.pl all KEY RESPONSE`` (every document, in Perl's hash order: run
  with PERL_HASH_SEED=0 so the file is reproducible);
- ``CASE.all.named.txt`` for the cases in NAMED: ``perl scorer.pl all KEY RESPONSE NAME``;
- ``CASE.METRIC.none.txt`` for single metrics on the OntoGUM sample;
- ``nosingletons/``: the cases' files with every one-mention entity removed, and the scorer's totals on them;
- ``lea.json``: per case and document, coval's LEA recall and precision numerators and denominators;
- ``SCORER.txt``: the scorer's commit and version, coval's commit, and the commands.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "coref"
OUT = DATA / "expected"

NAMED = {"multidoc": "(b/c/01); part 000"}


def pairs() -> list[tuple[str, Path, Path]]:
    out = []
    for k in sorted((DATA / "cases").glob("*.key")):
        out.append((k.stem, k, k.with_suffix(".response")))
    for sys_name in ("strong", "weak"):
        out.append((f"ontogum_{sys_name}", DATA / "ontogum" / "key.conll", DATA / "ontogum" / f"{sys_name}.conll"))
    return out


def run(scorer: Path, *args: str) -> str:
    env = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
    r = subprocess.run(
        ["perl", str(scorer / "scorer.pl"), *args], capture_output=True, text=True, env=env, cwd=scorer, check=False
    )
    if r.returncode:
        raise SystemExit(f"scorer.pl {' '.join(args)} failed: {r.stderr}")
    return r.stdout


def strip_singletons(src: Path, dst: Path) -> None:
    """The file with every one-mention entity's brackets removed (scorer.pl reads the rest unchanged)."""
    text = src.read_text(encoding="utf-8")
    docs = re.split(r"(?m)^(?=#begin document)", text)
    out = []
    for d in docs:
        counts: dict[str, int] = {}
        for ln in d.splitlines():
            if ln.startswith("#") or not ln.strip():
                continue
            f = ln.split("\t")[-1]
            for e in re.findall(r"\((\d+)", f):
                counts[e] = counts.get(e, 0) + 1
        single = {e for e, n in counts.items() if n == 1}
        lines = []
        for ln in d.splitlines(keepends=True):
            if ln.startswith("#") or not ln.strip():
                lines.append(ln)
                continue
            body = ln.rstrip("\n")
            cols = body.split("\t")
            pieces = re.findall(r"\(\d+\)|\(\d+|\d+\)", cols[-1])
            parts = [p for p in pieces if p.strip("()") not in single]
            cols[-1] = "|".join(parts) or "-"
            lines.append("\t".join(cols) + "\n")
        out.append("".join(lines))
    dst.write_text("".join(out), encoding="utf-8")


def coval_lea(coval: Path, key: Path, rsp: Path) -> dict[str, list[float]]:
    sys.path.insert(0, str(coval))
    from coval.conll import reader  # type: ignore[import-not-found]
    from coval.eval import evaluator  # type: ignore[import-not-found]

    infos = reader.get_coref_infos(str(key), str(rsp), False, False, True, False)
    out = {}
    for doc, info in infos.items():
        ev = evaluator.Evaluator(evaluator.lea)
        ev.update(info)
        out[doc] = [ev.r_num, ev.r_den, ev.p_num, ev.p_den]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--scorer", type=Path, required=True)
    ap.add_argument("--coval", type=Path, required=True)
    ap.add_argument("--scorer-commit", default=None, help="the scorer's commit, where --scorer is not a git checkout")
    ap.add_argument("--coval-commit", default=None, help="coval's commit, where --coval is not a git checkout")
    a = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "nosingletons").mkdir(exist_ok=True)
    lea = {}
    for name, key, rsp in pairs():
        k, r = str(key.resolve()), str(rsp.resolve())
        (OUT / f"{name}.all.none.txt").write_text(run(a.scorer, "all", k, r, "none"))
        if not name.startswith("ontogum"):
            (OUT / f"{name}.all.docs.txt").write_text(run(a.scorer, "all", k, r))
            ks, rs = OUT / "nosingletons" / f"{name}.key", OUT / "nosingletons" / f"{name}.response"
            strip_singletons(key, ks)
            strip_singletons(rsp, rs)
            (OUT / "nosingletons" / f"{name}.all.none.txt").write_text(
                run(a.scorer, "all", str(ks.resolve()), str(rs.resolve()), "none")
            )
        else:
            for m in ("muc", "blanc"):
                (OUT / f"{name}.{m}.none.txt").write_text(run(a.scorer, m, k, r, "none"))
        if name in NAMED:
            (OUT / f"{name}.all.named.txt").write_text(run(a.scorer, "all", k, r, NAMED[name]))
        lea[name] = coval_lea(a.coval, key, rsp)
    (OUT / "lea.json").write_text(json.dumps(lea, indent=1, sort_keys=True) + "\n")

    def commit(p: Path, given: str | None) -> str:
        if given:
            return given
        r = subprocess.run(["git", "-C", str(p), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
        return r.stdout.strip() or "(not a git checkout: see SOURCE.md)"

    (OUT / "SCORER.txt").write_text(
        f"scorer.pl version {run(a.scorer, 'muc', k, k, 'none').splitlines()[0].split()[1]}, "
        f"conll/reference-coreference-scorers {commit(a.scorer, a.scorer_commit)}\n"
        f"coval (LEA): ns-moosavi/coval {commit(a.coval, a.coval_commit)}\n"
        "commands (PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0): perl scorer.pl all KEY RESPONSE none | "
        "perl scorer.pl all KEY RESPONSE | perl scorer.pl all KEY RESPONSE NAME | perl scorer.pl METRIC KEY RESPONSE "
        "none; LEA: coval.conll.reader.get_coref_infos(KEY, RESPONSE, False, False, True, False) and "
        "coval.eval.evaluator.Evaluator(evaluator.lea) per document\n"
        "written by scripts/coref_reference_outputs.py\n"
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
