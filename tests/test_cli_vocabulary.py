"""One CLI vocabulary: every flag of every subcommand is one entry of one table, with one meaning.

The test walks the parser of every subcommand (built from :data:`sigfast.cli.COMMANDS`, not a list kept
by hand) and checks each flag against its one definition in :data:`sigfast.cli.FLAGS`: the same option
strings, destination, type, action, nargs and metavar everywhere; choices a subset of the definition's;
the same default, or another default whose reason the help gives. Each option string belongs to one
definition, except the commented exceptions below.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
import sigfast.styles

from sigfast import cli
from sigfast.cli import FLAGS, _parser, build_parser

#: option strings that belong to two definitions, each with the reason it is allowed
EXCEPTIONS = {
    # pairwise's --mode shared|independent; test-size's --subsets prefix|random was spelled --mode before
    # and still accepts it (hidden, with a deprecation warning). No subcommand takes both.
    "--mode": {"mode", "subsets"},
}
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
    "metaeval",
    "interval",
    "proportions",
    "gate",
)


def _subparsers(ap: argparse.ArgumentParser | None = None) -> dict[str, argparse.ArgumentParser]:
    ap = ap or _parser()
    action = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return {name: p for name, p in action.choices.items() if name in {c.name for c in cli.COMMANDS}}


def _options(p: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in p._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def _owners() -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    for key, f in FLAGS.items():
        for s in (*f.names, *f.deprecated):
            owners.setdefault(s, set()).add(key)
    return owners


def test_each_option_string_has_one_definition() -> None:
    for s, keys in _owners().items():
        if len(keys) > 1:
            assert EXCEPTIONS.get(s) == keys, f"{s} is defined by {sorted(keys)}: one name, one meaning"
    for s in EXCEPTIONS:
        assert len(_owners()[s]) > 1, f"{s} needs no exception any more"


def test_every_flag_of_every_subcommand_is_its_one_definition() -> None:
    subs = _subparsers()
    assert set(subs) == {c.name for c in cli.COMMANDS}
    used: set[str] = set()
    for name, p in subs.items():
        dests: dict[str, str] = {}
        styles = {f"--{s.name}" for s in sigfast.styles.styles() if s.flag}
        for a in _options(p):
            if a.option_strings[0] in styles:  # an output style's flag: declared by sigfast.styles, with --output
                assert len(a.option_strings) == 1 and a.dest == a.option_strings[0][2:], name
                assert any("--output" in b.option_strings for b in _options(p)), f"{name}: {a.option_strings}"
                continue
            keys = {k for s in a.option_strings for k in _owners().get(s, ())} & {a.dest}
            assert len(keys) == 1, f"{name}: {a.option_strings} is not a flag of sigfast.cli.FLAGS"
            f = FLAGS[keys.pop()]
            used.add(f.key)
            where = f"{name} {a.option_strings}"
            if a.help == argparse.SUPPRESS:  # a deprecated spelling, hidden from the help
                assert a.option_strings[0] in f.deprecated and len(a.option_strings) == 1, where
                assert a.default == argparse.SUPPRESS, where
                assert a.type is f.type and a.nargs == f.nargs, where
                continue
            names = list(f.names)
            if f.action is argparse.BooleanOptionalAction:
                names += [n.replace("--", "--no-", 1) for n in f.names if n.startswith("--")]
            assert a.option_strings == names, where
            assert dests.setdefault(a.dest, where) == where, f"{where}: dest {a.dest} used twice"
            assert a.type is f.type, where
            assert a.nargs == (0 if f.action in ("store_true",) else f.nargs) or isinstance(
                a, argparse.BooleanOptionalAction
            ), where
            assert a.const == f.const or f.action == "store_true", where
            if f.metavar is not None:
                assert a.metavar == f.metavar, where
            if f.choices is not None:
                assert a.choices is not None and set(a.choices) <= set(f.choices), where
            else:
                assert a.choices is None, where
            shared = list(f.default) if isinstance(f.default, tuple) else f.default
            if a.default != shared:  # another default: the help says which and why
                assert re.search(r"\(default [^:()]+: [^)]+\)", a.help or ""), f"{where}: default {a.default}, no why"
    assert used == set(FLAGS), f"flags no subcommand takes: {sorted(set(FLAGS) - used)}"


def test_every_table_command_has_every_output_style() -> None:
    subs = _subparsers()
    for name in TABLES:
        flags = {s for a in _options(subs[name]) for s in a.option_strings}
        for f in ("--output", "--json", "--csv", "--markdown", "--latex"):
            assert f in flags, f"{name} lacks {f}"


def test_metric_is_repeatable_everywhere() -> None:
    for name, p in _subparsers().items():
        for a in _options(p):
            if "--metric" in a.option_strings:
                assert isinstance(a, argparse._AppendAction), name


@pytest.mark.parametrize("bad", ["0", "-1", "x", "1.5", "1e-3", "1099511627777"])
def test_resamples_rejected_everywhere(bad: str) -> None:
    for p in _subparsers().values():
        for a in _options(p):
            if "--resamples" in a.option_strings:
                with pytest.raises(argparse.ArgumentTypeError):
                    a.type(bad)


def test_resamples_take_whole_numbers_in_any_spelling() -> None:
    t = FLAGS["resamples"].type
    assert t is not None
    assert t("1e4") == t("10_000") == t("10000") == t("1.0e4") == 10_000
    with pytest.raises(argparse.ArgumentTypeError, match="whole number"):
        t("1.5")


def test_seed_default_is_one_everywhere() -> None:
    seeds = {name: a.default for name, p in _subparsers().items() for a in _options(p) if "--seed" in a.option_strings}
    assert len(seeds) >= 10 and set(seeds.values()) == {12345}, seeds


def test_deprecated_spellings_still_work_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, dest, value in (
        (["test-size", "a", "b", "--mode", "random"], "subsets", "random"),
        (["split", "c", "--out", "d"], "out_dir", "d"),
        (["split", "c", "-O", "d"], "out_dir", "d"),
        (["oracle", "g", "s", "--labels", "5"], "label_rows", 5),
        (["oracle", "g", "s", "--systems", "A,B"], "show_systems", ["A,B"]),
    ):
        args = build_parser(argv[0]).parse_args(argv)
        assert getattr(args, dest) == value, argv
        err = capsys.readouterr().err
        assert "is deprecated; use --" in err and err.count("\n") == 1, err


def test_required_flag_with_deprecated_spellings(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["split", "c"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--out-dir" in err


def test_usage_errors_are_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, needle in (
        (["compar"], "did you mean 'compare'"),
        (["compare", "a", "b", "--test", "perm-both"], "invalid choice"),
        (["compare", "a", "b", "--nope"], "unrecognized arguments"),
        (["pairwise", "a", "b", "--variant", "mid-p"], "invalid choice"),
    ):
        with pytest.raises(SystemExit) as e:
            cli.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("sigfast") and needle in err, err


def test_no_library_module_registers_subcommands() -> None:
    pkg = Path(cli.__file__).parents[1]
    for path in pkg.rglob("*.py"):
        if path == Path(cli.__file__):
            continue
        text = path.read_text(encoding="utf-8")
        assert "add_parser(" not in text and "add_subparsers(" not in text, path
        assert "def add_cli" not in text, path


def test_defaults_that_differ_say_why() -> None:
    """The default that differs by subcommand is stated with its reason in that subcommand's help."""
    subs = _subparsers()
    helps = {name: {s: a.help for a in _options(p) for s in a.option_strings} for name, p in subs.items()}
    assert "deepsig" in helps["seeds"]["--correction"] and "Gorman" in helps["across-splits"]["--correction"]
    assert "(default 10,000:" in helps["test-size"]["--resamples"]
    assert "(default 1,000,000)" in helps["pairwise"]["--resamples"]
