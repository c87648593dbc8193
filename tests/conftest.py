from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        if os.environ.get("CI"):
            pytest.fail(
                f"CI is set but {SHARED_DATA} is missing: the tests that read the shared data sets "
                "would be skipped and CI would pass without them. Put shared/data beside the checkout "
                "(or unset CI to skip them locally)",
                pytrace=False,
            )
        pytest.skip("shared/data is not beside the checkout")
    return SHARED_DATA


def f1_counts(rng: np.random.Generator, n: int, p: float, gold: np.ndarray | None = None) -> np.ndarray:
    """Per-sentence (tp, guessed, gold) counts of a synthetic tagger."""
    if gold is None:
        gold = rng.integers(0, 12, n)
    guessed = np.maximum(gold + rng.integers(-2, 3, n), 0)
    tp = rng.binomial(np.minimum(gold, guessed), p)
    return np.stack([tp, guessed, gold], 1).astype(np.float64)
