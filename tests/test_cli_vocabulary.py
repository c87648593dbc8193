"""Every subcommand speaks one CLI vocabulary: the same flag has the same name, type, default and meaning.

The test walks the parsers of all subcommands (not a list kept by hand) and
checks each shared flag against one definition.
"""

from __future__ import annotations

import argparse

import pytest

from sigfast.cli import _parser

#: flag -> (dest, default or a sentinel for "differs by subcommand", whether it takes a value)
SHARED = {
    "--seed": ("seed", 12345),
    "--format": ("format", None),
    "--option": ("option", None),
    "--ref": ("ref", None),
    "--align": ("align", None),
    "--output": ("output", None),
    "--json": ("json", False),
    "--csv": ("csv", False),
    "--markdown": ("markdown", False),
    "--latex": ("latex", False),
    "--threads": ("threads", None),
    "--progress": ("progress", None),
    "--confidence": ("confidence", 0.95),
    "--alpha": ("alpha", 0.05),
}
#: flags whose default may differ by subcommand, but whose name and checks may not
SAME_TYPE = ("--resamples", "--seed", "--threads", "--confidence", "--alpha")
#: subcommands that print tables, so must offer every output style
TABLES = (
    "compare",
    "mcnemar",
    "score",
    "pairwise",
    "demo",
    "info",
    "diff",
    "oracle",
    "agreement",
    "seeds",
    "split",
    "resample-train",
    "across-splits",
    "test-size",
    "calibration",
)


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    ap = _parser()
    action = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _flags(p: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {s: a for a in p._actions for s in a.option_strings}


def test_every_table_command_has_every_output_style() -> None:
    subs = _subparsers()
    for name in TABLES:
        flags = _flags(subs[name])
        for f in ("--output", "--json", "--csv", "--markdown", "--latex"):
            assert f in flags, f"{name} lacks {f}"


def test_shared_flags_mean_the_same_everywhere() -> None:
    types: dict[str, object] = {}
    for name, p in _subparsers().items():
        for flag, a in _flags(p).items():
            if flag in SHARED:
                dest, default = SHARED[flag]
                assert a.dest == dest, (name, flag)
                assert a.default == default, (name, flag, a.default)
            if flag in SAME_TYPE:
                t = getattr(a.type, "__name__", str(a.type))
                assert types.setdefault(flag, t) == t, (name, flag, t)
            if flag in ("-n", "--resamples"):
                assert a.option_strings == ["-n", "--resamples"], name
            if flag == "--metric":
                assert a.option_strings == ["--metric", "-m"], name
            if flag == "--format":
                assert a.option_strings == ["--format", "-f"], name


@pytest.mark.parametrize("bad", ["0", "-1", "x", "1099511627777"])
def test_resamples_rejected_everywhere(bad: str) -> None:
    for p in _subparsers().values():
        flags = _flags(p)
        if "--resamples" not in flags:
            continue
        a = flags["--resamples"]
        with pytest.raises(argparse.ArgumentTypeError):
            a.type(bad)


def test_seed_default_is_one_everywhere() -> None:
    seeds = {name: _flags(p)["--seed"].default for name, p in _subparsers().items() if "--seed" in _flags(p)}
    assert len(seeds) >= 10 and set(seeds.values()) == {12345}, seeds
