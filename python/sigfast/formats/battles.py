"""Pairwise battles (preference votes, LLM-judge verdicts): Chatbot Arena's schema, the one-hot Kaggle layout and
arena-hard-auto's judgment files, read into a count table for :func:`sigfast.bradley_terry` and ``sigfast rate``.

Format ``"battles"``: one file of battles, one record per battle. Schemas (``-o schema=``, default from the first
record's fields):

``arena``
    ``model_a``, ``model_b``, ``winner`` ∈ {``model_a``, ``model_b``, ``tie``, ``tie (bothbad)``}; any other field
    (``judge``, ``question_id``, ``tstamp``, ``conv_metadata``…) may be named as the cluster or the weight.
``kaggle``
    ``model_a``, ``model_b`` and the one-hot ``winner_model_a``, ``winner_model_b``, ``winner_tie`` (0/1, exactly
    one 1).
``arena-hard``
    arena-hard-auto's judgment files: ``model``, ``baseline`` (or ``-o baseline=NAME``), ``games``: two games,
    the first with the baseline as assistant A, the second with the model as A, each with a ``score`` label
    (``A>>B``, ``A>B``, ``A=B``, ``B>A``, ``B>>A`` and their mirror spellings). A strong verdict (``>>``/``<<``)
    counts as ``-o strong=3`` battles, as arena-hard-auto's ``show_result.py`` counts it (three rows, its
    ``weight=3``); ``strong=1`` counts every verdict once. A game without a verdict is an error (show_result.py
    drops the whole record; remove it from the file to do the same).

Layouts (``-o layout=``, default from the extension): JSON (``.json``: an array of objects, or one object per
line), JSON lines, CSV/TSV, Parquet (pyarrow); gzip allowed except for Parquet.

``-o covariates=FIELD_A:FIELD_B,...`` (arena and kaggle schemas) reads style-control covariates: for each pair, the
two sides' values (a number, or a mapping of numbers that is summed; a dotted name reads into nested fields such as
``conv_metadata.sum_assistant_a_tokens``) give the feature ``(x_a − x_b)/(x_a + x_b)`` (0 where both are 0),
standardized over the battles, as FastChat's style control; :func:`sigfast.bradley_terry` then fits the
covariate-adjusted model.

``-o cluster=FIELD`` names the field whose value groups battles that are not independent (``judge``,
``question_id``, a session): the cluster-robust standard errors sum the score within each cluster. ``-o
weight=FIELD`` names a row weight (finite, non-negative). Every bad record (an unknown winner, a model playing
itself, a missing field, a missing cluster value, a weight that is not a finite number ≥ 0) is an error naming its
line (its row for Parquet; its element for a JSON array, with the line it starts on).

The reader's product is a :class:`BattleTable`: the models, the cluster keys, and the count table, one cell per
(cluster, a, b, outcome) with the sum of the battles' weights and of their squared weights: the sufficient
statistics of the fit, the model-based and the sandwich standard errors.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from . import _logs
from ._base import FormatSpec, ItemStats, Option, ReadmeRow, ScoreReport, display
from .records import LAYOUTS, layout_of, read_records

__all__ = ["SCHEMAS", "SPECS", "WINNERS", "BattleTable", "read_battles"]

SCHEMAS = ("auto", "arena", "kaggle", "arena-hard")

#: Chatbot Arena's winner values → outcome code (0: model_a wins, 1: model_b wins, 2: tie)
WINNERS = {"model_a": 0, "model_b": 1, "tie": 2, "tie (bothbad)": 2}

#: arena-hard-auto's verdict labels → (outcome code with A as side a, strong)
_VERDICTS = {
    "A>>B": (0, True),
    "A>B": (0, False),
    "A=B": (2, False),
    "B=A": (2, False),
    "B>A": (1, False),
    "B>>A": (1, True),
    "A<B": (1, False),
    "A<<B": (1, True),
    "B<A": (0, False),
    "B<<A": (0, True),
}


@dataclass(frozen=True)
class BattleTable:
    """Battles as a count table.

    ``models``: the model names (sorted); ``clusters``: the cluster keys (one empty key without a cluster field:
    ``cluster_field`` None); ``a``, ``b`` (model indices, a < b), ``outcome`` (0: a wins, 1: b wins, 2: tie),
    ``cluster`` (codes into ``clusters``), ``w`` (Σ weights), ``w2`` (Σ squared weights): one entry per cell.
    ``n_battles``: the records read (a strong arena-hard verdict counts as its ``strong`` battles).
    """

    models: tuple[str, ...]
    clusters: tuple[str, ...]
    cluster_field: str | None
    a: np.ndarray
    b: np.ndarray
    outcome: np.ndarray
    cluster: np.ndarray
    w: np.ndarray
    w2: np.ndarray
    n_battles: int
    source: str = ""
    schema: str = "arena"
    weight_field: str | None = None
    #: style control (``-o covariates=``): the covariates' names and, one entry per battle in file order, the
    #: battle's models (as read: a, b), outcome, cluster code, weight and covariates (battles × covariates)
    covariate_names: tuple[str, ...] = ()
    battles: dict[str, np.ndarray] | None = None

    def pair_counts(self) -> np.ndarray:
        """(models × models × 3) weighted counts: [i, j, 0] i beat j, [i, j, 2] ties (both orders)."""
        m = len(self.models)
        out = np.zeros((m, m, 3))
        for a, b, o, w in zip(self.a, self.b, self.outcome, self.w):
            if o == 0:
                out[a, b, 0] += w
                out[b, a, 1] += w
            elif o == 1:
                out[b, a, 0] += w
                out[a, b, 1] += w
            else:
                out[a, b, 2] += w
                out[b, a, 2] += w
        return out

    def summary(self) -> str:
        """A plain-text table: each model's battles, wins, losses and ties (weighted)."""
        pc = self.pair_counts()
        rows = [f"{'model':<40} {'battles':>9} {'wins':>9} {'losses':>9} {'ties':>9}"]
        for i, name in enumerate(self.models):
            w, lo, t = pc[i, :, 0].sum(), pc[i, :, 1].sum(), pc[i, :, 2].sum()
            rows.append(f"{name:<40} {w + lo + t:>9g} {w:>9g} {lo:>9g} {t:>9g}")
        return "\n".join(rows) + "\n"


def _records(path: Path, layout: str | None) -> tuple[list[Mapping[str, Any]], list[int], str]:
    """The battle records of ``path`` by the records reader (one reader of JSON, JSON lines, CSV/TSV and
    Parquet), and what their positions are (lines, or Parquet rows)."""
    recs, where = read_records(path, layout, role="battle")
    return list(recs), list(where), "row" if layout_of(path, layout) == "parquet" else "line"


def _missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and v != v:
        return True
    return isinstance(v, str) and not v.strip()


def _name(v: Any, field: str, name: str, line: int) -> str:
    if _missing(v) or isinstance(v, (Mapping, list)):
        raise FormatError(f"field {field!r} holds no model name ({v!r})", name, line)
    return str(v).strip()


def _onehot(v: Any, field: str, name: str, line: int) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, np.integer)) and v in (0, 1):
        return int(v)
    if isinstance(v, (float, np.floating)) and v in (0.0, 1.0):
        return int(v)
    if isinstance(v, str) and v.strip() in ("0", "1", "0.0", "1.0", "true", "false", "True", "False"):
        return int(v.strip() in ("1", "1.0", "true", "True"))
    raise FormatError(f"field {field!r} must be 0 or 1, not {v!r}", name, line)


def _weight(v: Any, field: str, name: str, line: int) -> float:
    try:
        if isinstance(v, bool) or v is None or isinstance(v, (Mapping, list)):
            raise ValueError
        f = float(v)
    except (TypeError, ValueError):
        raise FormatError(f"weight field {field!r} is not a number ({v!r})", name, line) from None
    if not np.isfinite(f) or f < 0:
        raise FormatError(f"weight field {field!r} must be a finite number ≥ 0, not {v!r}", name, line)
    return f


def _fields_of(r: Mapping[str, Any]) -> str:
    keys = list(map(str, r))
    return ", ".join(keys[:12]) + (" …" if len(keys) > 12 else "")


def read_battles(
    path: Any,
    *,
    layout: str | None = None,
    schema: str = "auto",
    cluster: str | None = None,
    weight: str | None = None,
    strong: int = 3,
    baseline: str | None = None,
    covariates: str | None = None,
) -> BattleTable:
    """The battles of ``path`` as a :class:`BattleTable` (see the module's documentation for the options)."""
    cov_pairs = _covariate_spec(covariates)
    p = Path(os.fspath(path))
    name = str(p)
    if schema not in SCHEMAS:
        raise InputError(f"unknown battle schema {schema!r}; one of {', '.join(SCHEMAS)}")
    if strong < 1:
        raise InputError(f"-o strong= must be at least 1, not {strong}")
    recs, where, _what = _records(p, layout)
    if not recs:
        raise FormatError("the battle file holds no battle", path=name)
    if schema == "auto":
        first = recs[0]
        if "games" in first:
            schema = "arena-hard"
        elif "winner_model_a" in first or "winner_tie" in first:
            schema = "kaggle"
        elif "winner" in first:
            schema = "arena"
        else:
            raise FormatError(
                f"no field 'winner', 'winner_model_a' or 'games' (its fields: {_fields_of(first)}); the battle "
                "schemas: arena (model_a, model_b, winner), kaggle (winner_model_a, winner_model_b, winner_tie), "
                "arena-hard (model, baseline, games)",
                name,
                where[0],
            )
    if schema == "arena":
        needed = ["model_a", "model_b", "winner"]
    elif schema == "kaggle":
        needed = ["model_a", "model_b", "winner_model_a", "winner_model_b", "winner_tie"]
    else:
        needed = ["model", "games"] + ([] if baseline else ["baseline"])
    needed += [f for f in (cluster, weight) if f]
    if cov_pairs and schema == "arena-hard":
        raise InputError(
            "-o covariates= applies to the arena and kaggle schemas (one battle per record), not to arena-hard"
        )
    xs: list[list[float]] = []
    # battles: (a, b, outcome, cluster key, weight, repeats)
    rows: list[tuple[str, str, int, str, float, int]] = []
    for k, r in enumerate(recs):
        ln = where[k]
        for f in needed:
            if f not in r:
                hint = " (name the cluster field with -o cluster=)" if f == cluster else ""
                raise FormatError(f"no field {f!r} (its fields: {_fields_of(r)}){hint}", name, ln)
        ckey = ""  # without a cluster field one cell holds every battle of a pair and outcome
        if cluster is not None:
            cv = r[cluster]
            if _missing(cv):
                raise FormatError(f"the cluster field {cluster!r} is empty ({cv!r}); every battle needs one", name, ln)
            ckey = _logs.id_text(cv) if not isinstance(cv, (Mapping, list)) else json.dumps(cv, sort_keys=True)
        wt = 1.0 if weight is None else _weight(r[weight], weight, name, ln)
        if schema == "arena-hard":
            model = _name(r["model"], "model", name, ln)
            base = baseline if baseline else _name(r["baseline"], "baseline", name, ln)
            games = r["games"]
            if not isinstance(games, list) or len(games) != 2:
                raise FormatError("'games' must be a list of two games (baseline as A, then the model as A)", name, ln)
            if model == base:
                raise FormatError(f"model {model!r} plays itself (it is the baseline)", name, ln)
            for g, (side_a, side_b) in enumerate(((base, model), (model, base))):
                game = games[g]
                label = game.get("score") if isinstance(game, Mapping) else None
                if label is None:
                    raise FormatError(
                        f"game {g + 1} has no verdict (score); arena-hard-auto's show_result.py drops such a record: "
                        "remove it from the file to do the same",
                        name,
                        ln,
                    )
                if not isinstance(label, str) or label not in _VERDICTS:
                    raise FormatError(
                        f"game {g + 1}: unknown verdict {label!r}; one of {', '.join(_VERDICTS)}", name, ln
                    )
                o, is_strong = _VERDICTS[label]
                rows.append((side_a, side_b, o, ckey, wt, strong if is_strong else 1))
            continue
        a = _name(r["model_a"], "model_a", name, ln)
        b = _name(r["model_b"], "model_b", name, ln)
        if a == b:
            raise FormatError(f"model {a!r} plays itself", name, ln)
        if schema == "arena":
            v = r["winner"]
            if not isinstance(v, str) or v not in WINNERS:
                raise FormatError(f"unknown winner {v!r}; one of {', '.join(repr(x) for x in WINNERS)}", name, ln)
            o = WINNERS[v]
        else:
            hot = [_onehot(r[f], f, name, ln) for f in ("winner_model_a", "winner_model_b", "winner_tie")]
            if sum(hot) != 1:
                raise FormatError(
                    f"winner_model_a, winner_model_b, winner_tie must hold exactly one 1, not {hot}", name, ln
                )
            o = hot.index(1)
        rows.append((a, b, o, ckey, wt, 1))
        if cov_pairs:
            xs.append([_style_feature(r, fa, fb, name, ln) for fa, fb in cov_pairs])
    t = _table(rows, name, schema, cluster, weight)
    return _with_covariates(t, rows, xs, cov_pairs) if cov_pairs else t


def _covariate_spec(spec: str | None) -> list[tuple[str, str]]:
    """``FIELD_A:FIELD_B,...`` → [(FIELD_A, FIELD_B), ...] (a dotted name reads into nested records)."""
    if spec is None:
        return []
    out = []
    for part in str(spec).split(","):
        fa, sep, fb = part.strip().partition(":")
        if not sep or not fa.strip() or not fb.strip():
            raise InputError(
                f"-o covariates=: {part.strip()!r} is not FIELD_A:FIELD_B (the two sides' fields of one feature, "
                "e.g. len_a:len_b or conv_metadata.sum_assistant_a_tokens:conv_metadata.sum_assistant_b_tokens)"
            )
        out.append((fa.strip(), fb.strip()))
    return out


def _field(r: Mapping[str, Any], path: str, name: str, line: int) -> float:
    """A covariate's value for one side: a number, or a mapping of numbers (summed, as FastChat sums the counts
    of h1..h6 headers); a dotted name reads into nested records."""
    v: Any = r
    for key in path.split("."):
        if not isinstance(v, Mapping) or key not in v:
            raise FormatError(f"no covariate field {path!r} (its fields: {_fields_of(r)})", name, line)
        v = v[key]
    vals = list(v.values()) if isinstance(v, Mapping) else [v]
    total = 0.0
    for x in vals:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not np.isfinite(x) or x < 0:
            raise FormatError(f"the covariate field {path!r} must hold numbers ≥ 0, not {v!r}", name, line)
        total += float(x)
    return total


def _style_feature(r: Mapping[str, Any], fa: str, fb: str, name: str, line: int) -> float:
    """FastChat's style-control feature of one battle: (x_a − x_b) / (x_a + x_b); 0 where both are 0."""
    xa, xb = _field(r, fa, name, line), _field(r, fb, name, line)
    return 0.0 if xa + xb == 0 else (xa - xb) / (xa + xb)


def _with_covariates(
    t: BattleTable,
    rows: Sequence[tuple[str, str, int, str, float, int]],
    xs: list[list[float]],
    pairs: list[tuple[str, str]],
) -> BattleTable:
    """The table with its battles and their covariates: each feature standardized over the battles (mean 0,
    standard deviation 1, as FastChat's style control)."""
    import dataclasses

    x = np.array(xs, dtype=float).reshape(len(rows), len(pairs))
    sd = x.std(axis=0)
    for j, (fa, fb) in enumerate(pairs):
        if not sd[j] > 0:
            raise InputError(f"the covariate {fa}:{fb} is the same for every battle: it cannot be estimated")
    x = (x - x.mean(axis=0)) / sd
    index = {m: i for i, m in enumerate(t.models)}
    codes = {c: i for i, c in enumerate(t.clusters)}
    battles = {
        "a": np.array([index[r[0]] for r in rows], dtype=np.uint32),
        "b": np.array([index[r[1]] for r in rows], dtype=np.uint32),
        "outcome": np.array([r[2] for r in rows], dtype=np.uint8),
        "cluster": np.array([codes[r[3]] for r in rows], dtype=np.uint32),
        "w": np.array([r[4] for r in rows], dtype=float),
        "x": np.ascontiguousarray(x),
    }
    return dataclasses.replace(t, covariate_names=tuple(f"{fa}:{fb}" for fa, fb in pairs), battles=battles)


def _table(
    rows: Sequence[tuple[str, str, int, str, float, int]],
    source: str,
    schema: str,
    cluster_field: str | None,
    weight_field: str | None,
) -> BattleTable:
    models = tuple(sorted({r[0] for r in rows} | {r[1] for r in rows}))
    index = {m: i for i, m in enumerate(models)}
    ckeys: dict[str, int] = {}
    cells: dict[tuple[int, int, int, int], list[float]] = {}
    n = 0
    for a, b, o, c, w, rep in rows:
        i, j = index[a], index[b]
        if i > j:
            i, j = j, i
            o = {0: 1, 1: 0, 2: 2}[o]
        g = ckeys.setdefault(c, len(ckeys))
        cell = cells.setdefault((g, i, j, o), [0.0, 0.0])
        cell[0] += w * rep
        cell[1] += w * w * rep
        n += rep
    keys = sorted(cells)
    return BattleTable(
        models=models,
        clusters=tuple(ckeys),
        cluster_field=cluster_field,
        a=np.array([k[1] for k in keys], dtype=np.uint32),
        b=np.array([k[2] for k in keys], dtype=np.uint32),
        outcome=np.array([k[3] for k in keys], dtype=np.uint8),
        cluster=np.array([k[0] for k in keys], dtype=np.uint32),
        w=np.array([cells[k][0] for k in keys], dtype=float),
        w2=np.array([cells[k][1] for k in keys], dtype=float),
        n_battles=n,
        source=source,
        schema=schema,
        weight_field=weight_field,
    )


def table_from_arrays(
    model_a: Sequence[Any],
    model_b: Sequence[Any],
    winner: Sequence[Any],
    *,
    cluster: Sequence[Any] | None = None,
    weight: Sequence[float] | None = None,
) -> BattleTable:
    """A :class:`BattleTable` from columns (Chatbot Arena's winner values); errors name the row (from 1)."""
    n = len(model_a)
    if len(model_b) != n or len(winner) != n:
        raise InputError(f"model_a, model_b and winner differ in length ({n}, {len(model_b)}, {len(winner)})")
    for nm, col in (("cluster", cluster), ("weight", weight)):
        if col is not None and len(col) != n:
            raise InputError(f"{nm} has {len(col)} entries for {n} battles")
    rows = []
    for k in range(n):
        where = f"battle {k + 1}"
        a, b, v = str(model_a[k]), str(model_b[k]), winner[k]
        if a == b:
            raise InputError(f"{where}: model {a!r} plays itself")
        if not isinstance(v, str) or v not in WINNERS:
            raise InputError(f"{where}: unknown winner {v!r}; one of {', '.join(repr(x) for x in WINNERS)}")
        c = ""
        if cluster is not None:
            if _missing(cluster[k]):
                raise InputError(f"{where}: the cluster is empty ({cluster[k]!r}); every battle needs one")
            c = _logs.id_text(cluster[k])
        w = 1.0
        if weight is not None:
            w = float(weight[k])
            if not np.isfinite(w) or w < 0:
                raise InputError(f"{where}: the weight must be a finite number ≥ 0, not {weight[k]!r}")
        rows.append((a, b, WINNERS[v], c, w, 1))
    if not rows:
        raise InputError("no battle given")
    return _table(
        rows, "", "arena", "cluster" if cluster is not None else None, "weight" if weight is not None else None
    )


def _score(gold: Any, system: Any, **options: Any) -> ScoreReport:
    if gold is not None:
        raise InputError("format 'battles' reads one battle file per system argument; give no gold file")
    t = read_battles(system, **options)
    # per-battle statistic: model_a's score (1 win, ½ tie, 0 loss), in cell order, one row per cell weighted
    vals = np.where(t.outcome == 0, 1.0, np.where(t.outcome == 1, 0.0, 0.5))
    stats = {"a_score": ItemStats(None, ("value",), vals[:, None], counts=False)}
    return ScoreReport(
        format="battles",
        gold="",
        system=display(system),
        text=t.summary(),
        scores={"a_score": float(np.average(vals, weights=t.w)) if t.w.sum() > 0 else float("nan")},
        stats=stats,
        default_metric="a_score",
        log=t,
    )


#: this module's row of the README's formats table (``FormatSpec.readme``)
README_ROW = ReadmeRow(
    scorer=(
        "pairwise battles: Chatbot Arena's `model_a`/`model_b`/`winner`, the one-hot Kaggle layout, arena-hard-auto's "
        "judgment files (`-o strong=3` as its `show_result.py`); JSON, JSON lines, CSV, Parquet; `-o cluster=`, "
        "`-o weight=`; rated by `sigfast rate` ([Preference battles](#preference-battles-and-llm-judges))"
    ),
    checked=(
        "Bradley–Terry ratings equal choix's and evalica's fits, sandwich SEs equal arena-rank's "
        "(`tests/test_battles.py`); every bad record is an error naming its line"
    ),
    speed="fit + sandwich: [benches/RESULTS-battles.md](benches/RESULTS-battles.md)",
)


SPECS = (
    FormatSpec(
        name="battles",
        readme=README_ROW,
        description="pairwise battles: Chatbot Arena's model_a/model_b/winner, the one-hot Kaggle layout or "
        "arena-hard-auto's judgment files (JSON, JSON lines, CSV/TSV, Parquet), read into a count table; rated "
        "with `sigfast rate`",
        reference="FastChat's / arena-rank's Bradley–Terry fit (sigfast rate); the count table itself",
        score=_score,
        options=(
            Option("schema", str, "auto", help="the record schema (default: from the first record)", choices=SCHEMAS),
            Option("layout", str, None, choices=LAYOUTS, help="the file layout (default: from the extension)"),
            Option("cluster", str, None, help="the field grouping dependent battles (judge, question_id, session)"),
            Option("weight", str, None, help="the field holding a row weight (finite, ≥ 0)"),
            Option(
                "strong",
                int,
                3,
                minimum=1,
                help="arena-hard: battles a strong verdict (A>>B) counts as (show_result.py's weight=3)",
            ),
            Option("baseline", str, None, help="arena-hard: the baseline model where the records do not name it"),
            Option(
                "covariates",
                str,
                None,
                help="style control: FIELD_A:FIELD_B pairs, comma-separated (dotted names read nested fields); "
                "each feature (x_a − x_b)/(x_a + x_b), standardized",
            ),
        ),
        extensions=(),
        metrics=("a_score",),
        needs_gold=False,
        gold_optional=True,
    ),
)
