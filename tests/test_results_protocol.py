"""One result shape (issue 19): every result class renders through the one protocol of
:class:`sigfast.results.Result` (``format``, ``to_dict``, ``to_json``, ``to_frame``, ``to_csv``,
``str``), filling in only its documented hooks (``rows``, ``tables``, ``_text``, ``_report``) and
data (``_keys``, ``_extra``, ``_hidden``, option fields, table specs).

Checked against independent readers: ``json.loads`` for the JSON, ``pandas.read_csv`` for the CSV
(it must load as it is, numbers as numbers), and the structure of the classes themselves.
"""

from __future__ import annotations

import functools
import io
import json
import warnings
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from test_signatures import CASES, TYPES, _split_cases, public_result_classes

#: the output methods the base defines once; a subclass may define one only as a deprecated alias
PROTOCOL = ("format", "to_dict", "to_json", "to_frame", "to_csv", "to_rows", "__str__")
#: the rendering methods of the old protocols (no subclass defines them but as deprecated aliases)
OLD = ("render", "to_markdown", "to_latex", "report")
STYLES = ("text", "markdown", "latex", "csv", "json")


@functools.cache
def _result(name: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name in CASES:
            make, base, _ = CASES[name]
        else:
            import tempfile

            make, base, _ = _split_cases(Path(tempfile.mkdtemp()))[name]
        return make(dict(base))


def test_no_class_overrides_the_output_methods() -> None:
    """Walking ``Result.__subclasses__()``: the output methods are the base's; an old name survives only as a
    thin deprecated alias (:func:`sigfast.results.deprecated_alias`), and ``to_rows`` only where a field is
    already named ``rows``."""
    classes = public_result_classes()
    assert len(classes) >= 25
    bad = []
    for c in classes:
        names = {f.name for f in fields(c)} if is_dataclass(c) else set()
        for attr in (*PROTOCOL, *OLD):
            v = c.__dict__.get(attr)
            if v is None or getattr(v, "deprecated_alias", False):
                continue
            if attr == "to_rows" and "rows" in names:  # CorefOracleResult: its field ``rows`` holds counts
                continue
            bad.append(f"{c.__name__}.{attr}")
    assert not bad, f"output methods outside the base's protocol: {bad}"


def test_display_settings_are_option_fields() -> None:
    """What used to be keywords of hand-written format/to_dict methods are option fields, taken by every output
    method and left out of to_dict."""
    r = _result("diff")
    assert r.format("text", sort="delta") == r.with_options(sort="delta").format("text")
    assert "sort" not in r.to_dict() and r.to_dict(sort="delta")["labels"]["sort"] == "delta"
    with pytest.raises(TypeError, match="no output option 'srot'"):
        r.format("text", srot="delta")
    with pytest.raises(TypeError, match="takes none"):
        _result("mcnemar").to_dict(sort="delta")
    c = _result("test_size")
    assert "pvalues" in c.to_dict() and "pvalues" not in c.to_dict(include_tests=False)


@pytest.mark.parametrize("name", sorted(TYPES))
def test_every_style_and_a_tidy_frame(name: str) -> None:
    pd = pytest.importorskip("pandas")
    r = _result(name)
    out = {s: r.format(s) for s in STYLES}
    assert all(isinstance(v, str) and v.endswith("\n") for v in out.values()), name
    assert str(r) == out["text"].removesuffix("\n")
    assert json.loads(out["json"]) == json.loads(json.dumps(r.to_dict())) == json.loads(r.to_json())
    assert out["csv"] == r.to_csv()
    frame = r.to_frame()
    assert len(frame) >= 1 and frame.columns.is_unique
    for col in frame.columns:  # tidy: one value per cell, no lists or tables inside
        assert isinstance(col, str), (name, col)
        assert not any(isinstance(v, (list, tuple, dict, np.ndarray)) for v in frame[col]), (name, col)
    csv = pd.read_csv(io.StringIO(out["csv"]))
    assert list(csv.columns) == list(frame.columns) and len(csv) == len(frame), name
    for col in frame.columns:  # numbers stay numbers
        if pd.api.types.is_float_dtype(frame[col]) and frame[col].notna().any():
            assert pd.api.types.is_numeric_dtype(csv[col]), (name, col)
            np.testing.assert_allclose(csv[col].to_numpy(float), frame[col].to_numpy(float), rtol=0, atol=0)
    if "\\begin{table}" in out["latex"]:  # tables: the signature is a comment, never in a caption
        assert all(r.signature not in line for line in out["latex"].splitlines() if "\\caption" in line)
