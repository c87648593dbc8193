"""Bounded work on hostile archives and big inputs (issue 29): the size limit checked while
decompressing every archive member with every codec, the process pool's bounded window of shards,
Parquet errors that end the process with exit 1, and the compact pair table of many systems."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

import fuzzlib
from sigfast import formats
from sigfast.exceptions import FormatError

DATA = Path(__file__).resolve().parent / "data"
EVAL = DATA / "llm" / "inspect" / "figqa_alpha_12items.eval"


def _padded(members: dict[str, bytes], size: int) -> tuple[dict[str, bytes], str]:
    """The log's members with its first sample grown to ``size`` bytes of valid JSON (a padded metadata field)."""
    first = next(k for k in members if k.startswith("samples/"))
    sample = json.loads(members[first])
    sample["metadata"] = {"pad": ""}
    head = json.dumps(sample).encode()
    pad = size - len(head)
    sample["metadata"] = {"pad": " " * pad}
    return {**members, first: json.dumps(sample).encode()}, first


@pytest.mark.parametrize("codec", ["zstd", "deflate", "stored"])
def test_eval_members_read_with_every_codec(codec: str, tmp_path: Path) -> None:
    p = tmp_path / f"log_{codec}.eval"
    p.write_bytes(fuzzlib.write_zip(fuzzlib.read_zip(EVAL.read_bytes()), codec))
    assert formats.score("inspect", None, p).scores == formats.score("inspect", None, EVAL).scores


@pytest.mark.parametrize("codec", ["zstd", "deflate"])
@pytest.mark.parametrize("lying", [False, True], ids=["declared", "lying-header"])
def test_eval_member_limit_is_checked_while_decompressing(
    codec: str, lying: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small .eval whose sample expands to 24 MB, under a 1 MB limit: refused with the member named, after
    decompressing about the limit (tracemalloc's peak), whatever size the zip header declares."""
    members, first = _padded(fuzzlib.read_zip(EVAL.read_bytes()), 24_000_000)
    p = tmp_path / "bomb.eval"
    p.write_bytes(fuzzlib.write_zip(members, codec, sizes={first: 900} if lying else None))
    assert p.stat().st_size < 200_000
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", "1000000")
    tracemalloc.start()
    try:
        with pytest.raises(FormatError) as e:
            formats.score("inspect", None, p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(e.value)
    assert str(p) in msg and first in msg
    if lying and codec == "deflate":  # zipfile stops at the declared size and finds the CRC wrong
        assert "corrupt" in msg
    else:
        assert "larger than 1,000,000 bytes once decompressed" in msg and "SIGFAST_MAX_FILE_BYTES=N" in msg
    assert peak < 5_000_000, peak  # the limit and a few decompressed pieces, not 24 MB


def test_eval_member_under_the_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    members, _ = _padded(fuzzlib.read_zip(EVAL.read_bytes()), 3_000_000)
    p = tmp_path / "big.eval"
    p.write_bytes(fuzzlib.write_zip(members, "zstd"))
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", "3000000")
    assert formats.score("inspect", None, p).scores == formats.score("inspect", None, EVAL).scores
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", "2999999")
    with pytest.raises(FormatError, match="larger than 2,999,999 bytes"):
        formats.score("inspect", None, p)


@pytest.mark.parametrize("codec", ["zstd", "deflate"])
def test_corrupt_eval_member_is_a_format_error(codec: str, tmp_path: Path) -> None:
    members = fuzzlib.read_zip(EVAL.read_bytes())
    data = bytearray(fuzzlib.write_zip(members, codec))
    name = b"samples/figqa-0003_epoch_1.json"
    at = data.index(name) + len(name) + 40  # inside the member's compressed payload
    data[at : at + 8] = b"\xff" * 8
    p = tmp_path / "bad.eval"
    p.write_bytes(bytes(data))
    with pytest.raises(FormatError, match=r"member samples/figqa-0003_epoch_1.json of the .eval log is corrupt"):
        formats.score("inspect", None, p)


def test_gzip_limit_is_checked_while_decompressing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "log.json.gz"
    p.write_bytes(gzip.compress(b"[" + b" " * 24_000_000 + b"]"))
    monkeypatch.setenv("SIGFAST_MAX_FILE_BYTES", "1000000")
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match="larger than 1,000,000 bytes once decompressed"):
            formats.score("inspect", None, p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, peak  # the limit and a few decompressed pieces, not 24 MB
