"""Write the saved-results corpus (tests/data/corpus/results.jsonl) from tests/_corpus.py.

    .venv/bin/python scripts/make_result_corpus.py          # write it
    .venv/bin/python scripts/make_result_corpus.py --check  # compare, print the cases that differ

One JSON line per case: {"case": name, "json": the result's JSON, "text": its text report}.
Run it before a redesign and commit the file; tests/test_result_corpus.py keeps the bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corpus" / "results.jsonl"


def build() -> list[dict[str, str]]:
    sys.path.insert(0, str(ROOT / "tests"))
    import _corpus

    lines = []
    for name, case in _corpus.CASES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lines.append({"case": name, **_corpus.render(case())})
    import os

    os.chdir(ROOT)  # the command lines name files relative to the repository root
    for name, argv in _corpus.CLI_CASES.items():
        lines.append({"case": f"cli:{name}", **_corpus.render_cli(argv)})
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = ap.parse_args()
    lines = build()
    text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
    if args.check:
        old = {json.loads(x)["case"]: x for x in OUT.read_text(encoding="utf-8").splitlines()}
        new = {x["case"]: json.dumps(x, ensure_ascii=False) for x in lines}
        diff = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
        for k in diff:
            print(k)
        print(f"{len(diff)} of {len(new)} cases differ")
        return 1 if diff else 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(lines)} cases to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
