"""Metrics on summed sufficient statistics.

Built-in metrics are computed in Rust; any other metric is a Python callable
vectorized over resamples: it receives summed statistics of shape
``(resamples, statistics)`` and returns one value per resample.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .exceptions import MetricError

__all__ = ["Metric", "available", "custom", "get"]

_SMOOTH = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}
_SMOOTH_DEFAULT_VALUE = {"none": 0.0, "floor": 0.1, "add-k": 1.0, "exp": 0.0}


@dataclass(frozen=True)
class Metric:
    """A metric: its name, statistics layout and direction.

    ``native`` names the Rust implementation (``None`` for a Python callable).
    """

    name: str
    stat_names: tuple[str, ...]
    higher_is_better: bool
    native: str | None = None
    params: Mapping[str, float] = field(default_factory=dict)
    func: Callable[[np.ndarray], np.ndarray] | None = None
    counts: bool = True
    description: str = ""

    @property
    def n_stats(self) -> int:
        return len(self.stat_names)

    def evaluate(self, sums: np.ndarray, n_items: int) -> np.ndarray:
        """The metric on each row of summed statistics ``(rows, n_stats)``."""
        sums = np.ascontiguousarray(np.atleast_2d(np.asarray(sums, dtype=np.float64)))
        if sums.shape[1] != self.n_stats:
            raise MetricError(f"metric {self.name!r} needs {self.n_stats} statistics, got {sums.shape[1]}")
        if self.native is not None:
            from . import _native

            return np.asarray(_native.metric_scores(sums, self.native, dict(self.params), float(n_items)))
        assert self.func is not None
        out = np.asarray(self.func(sums), dtype=np.float64)
        if out.shape != (sums.shape[0],):
            raise MetricError(
                f"custom metric {self.name!r} must return one value per row: "
                f"got shape {out.shape} for {sums.shape[0]} rows"
            )
        if not np.all(np.isfinite(out)):
            raise MetricError(f"custom metric {self.name!r} returned a non-finite value")
        return out


def _builtin(name: str, **params: Any) -> Metric:
    p = {k: v for k, v in params.items() if v is not None}
    if name == "mean":
        hib = bool(p.pop("higher_is_better", True))
        _no_extra(name, p)
        return Metric(
            "mean",
            ("score",),
            hib,
            "mean",
            {"higher_is_better": float(hib)},
            counts=False,
            description="mean of per-item scores",
        )
    if name == "accuracy":
        _no_extra(name, p)
        return Metric("accuracy", ("correct", "total"), True, "accuracy", description="correct / total")
    if name in ("precision", "recall"):
        _no_extra(name, p)
        return Metric(name, ("tp", "guessed", "gold"), True, name, description=f"{name} from tp, guessed, gold")
    if name in ("f1", "fbeta"):
        beta = float(p.pop("beta", 1.0))
        _no_extra(name, p)
        if not beta > 0:
            raise MetricError(f"beta must be positive, got {beta}")
        label = "f1" if beta == 1.0 else f"f{beta:g}"
        return Metric(
            label,
            ("tp", "guessed", "gold"),
            True,
            "fbeta",
            {"beta": beta},
            description=f"F-beta (beta={beta:g}) from tp, guessed, gold",
        )
    if name == "bleu":
        order = int(p.pop("max_order", 4))
        smooth = str(p.pop("smooth", p.pop("smooth_method", "exp")))
        if smooth not in _SMOOTH:
            raise MetricError(f"unknown BLEU smoothing {smooth!r}; choose one of {sorted(_SMOOTH)}")
        value = p.pop("smooth_value", None)
        value = _SMOOTH_DEFAULT_VALUE[smooth] if value is None else float(value)
        eff = bool(p.pop("effective_order", False))
        _no_extra(name, p)
        names = (
            ("hyp_len", "ref_len")
            + tuple(f"correct_{n}" for n in range(1, order + 1))
            + tuple(f"total_{n}" for n in range(1, order + 1))
        )
        return Metric(
            "bleu",
            names,
            True,
            "bleu",
            {"max_order": order, "smooth": _SMOOTH[smooth], "smooth_value": value, "effective_order": float(eff)},
            description=f"sacrebleu BLEU (max order {order}, smooth {smooth})",
        )
    if name in ("chrf", "chrf++"):
        char_order = int(p.pop("char_order", 6))
        word_order = int(p.pop("word_order", 2 if name == "chrf++" else 0))
        beta = float(p.pop("beta", 2.0))
        eps = bool(p.pop("eps_smoothing", False))
        _no_extra(name, p)
        names = tuple(
            f"{kind}_{t}{n}"
            for t, top in (("c", char_order), ("w", word_order))
            for n in range(1, top + 1)
            for kind in ("hyp", "ref", "match")
        )
        label = "chrf++" if word_order == 2 and name in ("chrf", "chrf++") and word_order else "chrf"
        return Metric(
            label,
            names,
            True,
            "chrf",
            {"char_order": char_order, "word_order": word_order, "beta": beta, "eps_smoothing": float(eps)},
            description=f"sacrebleu chrF (char {char_order}, word {word_order}, beta {beta:g})",
        )
    if name == "aer":
        _no_extra(name, p)
        return Metric(
            "aer",
            ("a_and_s", "a_and_p", "a", "s"),
            False,
            "aer",
            description="alignment error rate 1 - (|A&S| + |A&P|) / (|A| + |S|)",
        )
    if name in ("error_rate", "wer", "ter", "cer"):
        _no_extra(name, p)
        return Metric(name, ("edits", "ref_len"), False, "error_rate", description="edits / reference length")
    if name in ("macro_f1_2008", "weighted_macro_f1"):
        w = float(p.pop("weight", p.pop("w_sem", 0.5)))
        _no_extra(name, p)
        return Metric(
            "macro_f1_2008",
            ("syn_correct", "syn_total", "sem_correct", "sem_guessed", "sem_gold"),
            True,
            "weighted_macro_f1",
            {"weight": w},
            description=f"CoNLL-2008 labeled macro F1 (semantic weight {w:g})",
        )
    raise MetricError(f"unknown metric {name!r}; built-in metrics: {', '.join(available())}")


def _no_extra(name: str, p: Mapping[str, Any]) -> None:
    if p:
        raise MetricError(f"metric {name!r} takes no parameter(s) {sorted(p)}")


def available() -> list[str]:
    """Names of the built-in metrics."""
    return [
        "mean",
        "accuracy",
        "precision",
        "recall",
        "f1",
        "fbeta",
        "bleu",
        "chrf",
        "chrf++",
        "aer",
        "error_rate",
        "wer",
        "ter",
        "cer",
        "macro_f1_2008",
    ]


def get(name: str, **params: Any) -> Metric:
    """A built-in metric by name, e.g. ``get("bleu", smooth="floor")``."""
    return _builtin(str(name).lower(), **params)


def custom(
    func: Callable[[np.ndarray], np.ndarray],
    *,
    stat_names: tuple[str, ...] | list[str] | int,
    higher_is_better: bool = True,
    name: str | None = None,
) -> Metric:
    """A metric from a Python callable, vectorized over resamples.

    ``func(sums)`` receives summed statistics of shape ``(resamples, k)`` and
    returns ``(resamples,)`` values.
    """
    if not callable(func):
        raise MetricError("custom metric must be callable")
    names = tuple(f"s{i}" for i in range(stat_names)) if isinstance(stat_names, int) else tuple(stat_names)
    return Metric(
        name or getattr(func, "__name__", "custom"),
        names,
        higher_is_better,
        None,
        {},
        func,
        counts=False,
        description="user-defined metric",
    )


def resolve_metric(metric: Any, stats: Any = None, **params: Any) -> Metric:
    """A Metric from a Metric, a name, a callable, or the statistics' default."""
    if isinstance(metric, Metric):
        if params:
            raise MetricError("metric parameters go to sigfast.metrics.get() when passing a Metric")
        m = metric
    elif callable(metric):
        k = stats.n_stats if stats is not None else 1
        m = custom(metric, stat_names=k)
    else:
        name = metric
        if name is None:
            name = getattr(stats, "metric", None)
            if name is None:
                if stats is not None and stats.n_stats == 1:
                    name = "mean"
                else:
                    raise MetricError("no metric given and the statistics name none; pass metric=")
            base = dict(getattr(stats, "metric_params", {}) or {})
            base.update(params)
            params = base
        m = get(str(name), **params)
        label = getattr(stats, "metric_label", None)
        if metric is None and label:
            from dataclasses import replace

            m = replace(m, name=str(label))
    if stats is not None and m.n_stats != stats.n_stats:
        raise MetricError(
            f"metric {m.name!r} needs {m.n_stats} statistics per item ({', '.join(m.stat_names)}); "
            f"the data have {stats.n_stats} ({', '.join(stats.stat_names)})"
        )
    return m
