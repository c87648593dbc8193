"""A metric resolved once (issue 30 item 2): a name becomes a native handle, and every native call
after takes the handle, so one ``sigfast compare`` passes the metric name into Rust at most once."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sigfast import _native, metrics
from sigfast.cli import main

DATA = Path(__file__).parent / "data"
NAMES = {n.lower() for n in metrics.available()}


def _crossings(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> list[tuple[str, str]]:
    """Run ``sigfast`` once (modules imported, their import-time metrics resolved), then again with
    every native function wrapped and the resolved metrics forgotten: (function, name) for each call
    of the second run that passes a metric name (a registry name or alias, any case)."""
    assert main(argv) == 0
    seen: list[tuple[str, str]] = []
    for attr in dir(_native):
        f = getattr(_native, attr)
        if attr.startswith("_") or not callable(f) or isinstance(f, type):
            continue

        def wrapped(*a: Any, _f: Any = f, _name: str = attr, **k: Any) -> Any:
            seen.extend((_name, v.lower()) for v in (*a, *k.values()) if isinstance(v, str) and v.lower() in NAMES)
            return _f(*a, **k)

        monkeypatch.setattr(_native, attr, wrapped)
    monkeypatch.setattr(metrics, "_RESOLVED", {})
    assert main(argv) == 0
    return seen


@pytest.mark.parametrize("metric", ["mean", "median"])  # summed statistics, an item statistic
@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_a_compare_passes_the_metric_name_into_rust_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, test: str, metric: str
) -> None:
    rng = np.random.default_rng(1)
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text("\n".join(f"{v:g}" for v in rng.normal(0.5, 0.1, 60)) + "\n")
    b.write_text("\n".join(f"{v:g}" for v in rng.normal(0.6, 0.1, 60)) + "\n")
    seen = _crossings(monkeypatch, ["compare", str(a), str(b), "-m", metric, "-n", "300", "--test", test])
    assert seen == [("metric_resolve", metric)]
    capsys.readouterr()


def test_a_conllu_compare_with_a_named_metric_passes_it_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, sys_ = DATA / "conllu" / "func-gold.conllu", DATA / "conllu" / "func-sys.conllu"
    argv = ["compare", "-f", "conllu", "-m", "las", "-n", "300", str(gold), f"A={sys_}", f"B={gold}"]
    seen = _crossings(monkeypatch, argv)
    assert [f for f, _ in seen] == ["metric_resolve"]  # las: the format's f1 over its arcs
    capsys.readouterr()


def test_a_handle_pickles_as_its_name_and_parameters() -> None:
    h = _native.MetricHandle("fbeta", {"beta": 0.5})
    back = pickle.loads(pickle.dumps(h))
    assert back.label == h.label == "f0.5"
    table = np.ascontiguousarray(np.tile([[3.0, 4.0, 5.0]], (4, 1)))
    assert np.array_equal(_native.metric_scores(table, h, 4.0), _native.metric_scores(table, back, 4.0))


def test_the_engine_never_takes_a_name() -> None:
    with pytest.raises(TypeError):
        _native.Plan(np.zeros((3, 2)), "mean")
