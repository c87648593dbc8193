"""Record sacrebleu's own paired-bootstrap p-values on WMT21 de-en for tests/test_variants.py.

sacrebleu's ``PairedTest`` scores every segment in Python (about 20 s per call on the 2-core
development machine), so the two full-corpus comparisons read these recorded outputs; the
``SACREBLEU_SEED=7`` check on a 200-segment slice still runs sacrebleu live in the suite.

    python scripts/sacrebleu_paired_bs_outputs.py ../shared

writes ``tests/data/peer/sacrebleu_paired_bs.json`` (sacrebleu's version and this command inside).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_variants import _wmt

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "peer" / "sacrebleu_paired_bs.json"


def main() -> None:
    shared = Path(sys.argv[1]) / "data"
    # sacrebleu's default seed (12345) and 1,000 resamples: BLEU and chrF, Facebook-AI vs Online-B
    os.environ.pop("SACREBLEU_SEED", None)
    lines, refs = _wmt(shared, "Facebook-AI", "Online-B")
    pt = PairedTest(
        [(s, v) for s, v in lines.items()], {"BLEU": BLEU(), "chrF": CHRF()}, refs, test_type="bs", n_samples=1000
    )
    _, res = pt()
    exact = {k: {"pvalue": res[k][1].p_value, "score_y": res[k][1].score} for k in ("BLEU", "chrF2")}
    # its own random resamples under SACREBLEU_SEED = 1, 2, 3: BLEU, Facebook-AI vs UEdin
    lines, refs = _wmt(shared)
    seeds = {}
    for seed in (1, 2, 3):
        os.environ["SACREBLEU_SEED"] = str(seed)
        pt = PairedTest([(s, v) for s, v in lines.items()], {"BLEU": BLEU()}, refs, test_type="bs", n_samples=1000)
        _, res = pt()
        seeds[str(seed)] = res["BLEU"][1].p_value
    os.environ.pop("SACREBLEU_SEED", None)
    doc = {
        "tool": f"sacrebleu {sacrebleu.__version__}",
        "command": "python scripts/sacrebleu_paired_bs_outputs.py ../shared",
        "facebook_ai_vs_online_b_default_seed_1000": exact,
        "facebook_ai_vs_uedin_bleu_1000_by_sacrebleu_seed": seeds,
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
