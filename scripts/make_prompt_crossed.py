"""Write tests/data/llm/prompt-crossed/: one task under several prompts, as per-item records.

The Fig-QA logs in tests/data/llm hold the same mock models (alpha, beta, gamma) run by two
harnesses with three prompt templates on the same items: Inspect's multiple-choice template
(``inspect/``, 2 epochs), HELM's zero-shot ``multiple_choice_joint`` prompt (``helm/``) and HELM's
few-shot prompt (``helm-trials/``, 3 train trials, 90 items). This script reads them with sigfast's
own readers and writes, for each model, one JSON-lines file with a record per (item, prompt):
``{"id": ..., "prompt": "inspect" | "helm-zero-shot" | "helm-few-shot", "score": ...}``, the score
being the item's value under that prompt (the mean of its epochs or trials), on the 90 items that
all three runs share. Read it back with ``-f records -o prompt=prompt``.

    PYTHONPATH=python python scripts/make_prompt_crossed.py [--check]

``--check`` rewrites nothing and exits 1 when the files differ from what the script would write.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import sigfast

ROOT = Path(__file__).resolve().parent.parent
LLM = ROOT / "tests" / "data" / "llm"
OUT = LLM / "prompt-crossed"
MODELS = ("alpha", "beta", "gamma")


def runs() -> dict[str, sigfast.Statistics]:
    inspect = sigfast.read(None, [str(LLM / "inspect" / f"figqa_{m}.json.gz") for m in MODELS], format="inspect")
    helm = sigfast.read(None, [str(LLM / "helm" / f"figqa_model-sigfast_mock-{m}") for m in MODELS], format="helm")
    fewshot = sigfast.read(
        None, [str(LLM / "helm-trials" / f"figqa_fewshot_model-sigfast_mock-{m}") for m in MODELS], format="helm"
    )
    return {"inspect": inspect, "helm-zero-shot": helm, "helm-few-shot": fewshot}


def records() -> dict[str, str]:
    by_prompt = runs()
    shared = [i for i in by_prompt["helm-few-shot"].item_ids if all(i in s.item_ids for s in by_prompt.values())]
    out = {}
    for j, model in enumerate(MODELS):
        lines = []
        for i in shared:
            for prompt, stats in by_prompt.items():
                k = stats.item_ids.index(i)
                lines.append(json.dumps({"id": i, "prompt": prompt, "score": float(stats.values[j][k][0])}))
        out[f"{model}.jsonl"] = "\n".join(lines) + "\n"
    return out


def main() -> int:
    want = records()
    if "--check" in sys.argv[1:]:
        bad = [n for n, text in want.items() if not (OUT / n).exists() or (OUT / n).read_text() != text]
        print(f"{len(bad)} differ" + (f": {bad}" if bad else ""))
        return 1 if bad else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for n, text in want.items():
        (OUT / n).write_text(text)
    print(f"wrote {len(want)} files to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
