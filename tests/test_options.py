"""The shared options (issue 30 item 4): their defaults, checks and meaning live in ``sigfast._options``;
the seed's literal is written once, the stream version is resolved in one place, and the command line
refuses a bad shared option while parsing its arguments, before any file is read."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
from pathlib import Path

import pytest

import sigfast
from sigfast import _native, _options
from sigfast.cli import main
from sigfast.exceptions import InputError
from sigfast.itemlevel import item_indices

PACKAGE = Path(sigfast.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_default_seed_is_written_once():
    hits = [
        f"{p.relative_to(PACKAGE)}:{i}"
        for p in SOURCES
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"(?<![\d.])12345(?!\d)", line)
    ]
    assert hits == ["_options.py:" + str(_line_of("_options.py", "DEFAULT_SEED = 12345"))], hits
    for f in (sigfast.paired_bootstrap, sigfast.permutation_test, sigfast.bootstrap_interval, sigfast.pairwise):
        assert inspect.signature(f).parameters["seed"].default == _options.DEFAULT_SEED


def _line_of(name: str, text: str) -> int:
    lines = (PACKAGE / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(text))


def test_no_module_defines_its_own_default_seed_or_stream_check():
    for p in SOURCES:
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and p.name != "_options.py":
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                assert "DEFAULT_SEED" not in names, p
            if isinstance(node, ast.FunctionDef) and p.name != "_options.py":
                assert node.name != "check_stream", p


def test_the_stream_version_is_checked_in_one_place():
    """``check_stream`` is named once outside its definition (the table :func:`sigfast._options.check`
    reads), and every function taking ``stream`` resolves it through :func:`shared_options`."""
    uses = []
    for p in SOURCES:
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Name) and node.id == "check_stream") or (
                isinstance(node, ast.Attribute) and node.attr == "check_stream"
            ):
                uses.append(f"{p.relative_to(PACKAGE)}:{node.lineno}")
            elif isinstance(node, ast.alias) and node.name == "check_stream":
                uses.append(f"{p.relative_to(PACKAGE)}: import")
    assert len(uses) == 1 and uses[0].startswith("_options.py:"), uses


@pytest.mark.parametrize(
    "func",
    [
        sigfast.mcnemar_power,
        sigfast.mcnemar_sample_size,
        sigfast.bootstrap_power,
        sigfast.bootstrap_sample_size,
        sigfast.leaderboard,
        item_indices,
    ],
    ids=lambda f: f.__name__,
)
def test_public_functions_keep_their_signature_and_refuse_a_bad_stream(func):
    sig = inspect.signature(func)
    assert "stream" in sig.parameters and sig.parameters["stream"].default is None
    assert "args" not in sig.parameters and "kwargs" not in sig.parameters
    with pytest.raises(InputError, match=r"stream must be one of the stream versions \[1, 2\]"):
        func(stream=3)


def test_stream_resolves_to_the_default_version():
    assert _options.check("stream", None) == int(_native.STREAM_VERSION)
    assert _options.check("stream", 1) == 1
    for bad in (3, 0, True, 2.0, "2"):
        with pytest.raises(InputError, match="stream must be one of"):
            _options.check("stream", bad)

    @_options.shared_options
    def f(a, stream=None):
        return stream

    assert f(0) == f(0, None) == f(0, stream=None) == int(_native.STREAM_VERSION)
    assert f(0, 1) == f(0, stream=1) == 1
    assert inspect.signature(f) == inspect.signature(f.__wrapped__)


def test_the_limits_are_the_engines():
    assert _options.MAX_RESAMPLES == int(_native.MAX_RESAMPLES)
    assert int(_native.STREAM_VERSION) in _options.stream_versions()
    assert set(_options.OPTIONS) >= {"n_resamples", "seed", "stream", "n_threads", "nan_policy", "confidence_level"}


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--stream", "3", "--stream must be one of the stream versions"),
        ("--stream", "x", "--stream must be a whole number"),
        ("--seed", "-1", "--seed must be in [0, 2^64)"),
        ("--seed", str(2**64), "--seed must be in [0, 2^64)"),
        ("--seed", "1.5", "--seed must be a whole number"),
        ("--resamples", "0", "--resamples must be at least 1"),
        ("--resamples", str(2**40 + 1), "--resamples must be at most 2^40"),
        ("--threads", "0", "--threads must be at least 1"),
    ],
)
def test_the_cli_refuses_a_bad_shared_option_before_reading_files(tmp_path, capsys, flag, value, says):
    missing = [str(tmp_path / "nonexistent_a"), str(tmp_path / "nonexistent_b")]
    with pytest.raises(SystemExit) as e:
        main(["compare", flag, value, *missing])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "nonexistent" not in err, err


def test_the_cli_and_the_api_run_the_same_check():
    """A flag's message is the API's, with the flag's name: one check, two spellings of its name."""
    from sigfast import cli

    for flag_type, name, bad in ((cli.seed, "seed", -1), (cli.resamples, "n_resamples", 0), (cli.stream, "stream", 9)):
        with pytest.raises(InputError) as api:
            _options.check(name, bad)
        with pytest.raises(argparse.ArgumentTypeError) as flag:
            flag_type(str(bad))
        assert str(flag.value).split(" must ", 1)[1] == str(api.value).split(" must ", 1)[1]


FRONT_ENDS = ("significance.py", "pairwise.py", "intervals.py", "errorbars.py")


def test_front_ends_do_not_forward_the_options_by_hand():
    """The paired tests, pairwise and the bootstrap interval pass their arguments to ``request()``
    through ``executor.ask`` (by name), not keyword by keyword."""
    for name in FRONT_ENDS:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "request"]
        assert not calls, name
        asked = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "ask"]
        assert asked, name
        for call in asked:
            assert not {k.arg for k in call.keywords} & {"seed", "stream", "n_threads", "nan_policy", "n_resamples"}


@pytest.mark.parametrize(
    "func",
    [sigfast.paired_bootstrap, sigfast.permutation_test, sigfast.bootstrap_interval, sigfast.pairwise],
    ids=lambda f: f.__name__,
)
def test_every_argument_of_a_front_end_reaches_the_request(func):
    """``ask`` passes on what ``request()`` takes by name: a front-end's parameter that it does not take
    would be dropped silently, so there is none (``progress`` goes to ``run``, ``data`` is ``x``)."""
    from sigfast.executor import _ASKED

    own = set(inspect.signature(func).parameters) - {"progress", "data"}
    assert own <= _ASKED, own - _ASKED


def test_shared_defaults_are_named_not_written():
    """A confidence level, nan_policy or backend default is the shared constant, not a literal."""
    literal = []
    for p in SOURCES:
        if p.name == "_options.py":
            continue
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            pairs = list(zip(a.args[len(a.args) - len(a.defaults) :], a.defaults)) + [
                (k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None
            ]
            for arg, default in pairs:
                if arg.arg in ("confidence_level", "confidence") and isinstance(default, ast.Constant):
                    if default.value == 0.95:
                        literal.append(f"{p.relative_to(PACKAGE)}:{node.name}({arg.arg})")
    assert not literal, literal


def test_the_seed_has_one_check():
    """Every front-end whose seed is a 64-bit engine seed refuses the same seeds with the same words
    (the studies derive a seed per split from any non-negative integer, so they accept larger ones)."""
    from sigfast.itemlevel import item_indices

    calls = [
        lambda s: sigfast.paired_bootstrap([0.1, 0.2, 0.3], [0.2, 0.3, 0.5], n_resamples=10, seed=s),
        lambda s: sigfast.permutation_test([0.1, 0.2, 0.3], [0.2, 0.3, 0.5], n_resamples=10, seed=s),
        lambda s: sigfast.mcnemar_power(200, gain=0.05, discordance=0.2, n_simulations=10, seed=s),
        lambda s: item_indices(5, n_resamples=2, seed=s),
    ]
    for bad in (-1, 2**64):
        for call in calls:
            with pytest.raises(InputError, match=r"seed must be in \[0, 2\^64\)"):
                call(bad)


def test_readme_options_table_is_generated():
    from sigfast.docs import options_markdown

    readme = (PACKAGE.parent.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- options:start -->\n(.*?)\n<!-- options:end -->", readme, re.S)
    assert block is not None
    assert block.group(1) == options_markdown(), "the README's options table is stale: run python -m sigfast.docs"


def test_the_defaults_the_readme_states_are_the_functions_and_the_flags():
    """The table's defaults hold for the paired tests and pairwise, and for every command's flag."""
    from sigfast.cli import FLAGS

    want = {
        "seed": _options.DEFAULT_SEED,
        "stream": None,
        "n_threads": None,
        "nan_policy": _options.DEFAULT_NAN_POLICY,
        "confidence_level": _options.DEFAULT_CONFIDENCE,
        "backend": _options.DEFAULT_BACKEND,
    }
    resamples = {
        sigfast.paired_bootstrap: _options.DEFAULT_RESAMPLES,
        sigfast.pairwise: _options.DEFAULT_RESAMPLES,
        sigfast.permutation_test: _options.DEFAULT_PERMUTATIONS,
    }
    for func, b in resamples.items():
        params = inspect.signature(func).parameters
        assert params["n_resamples"].default == b
        for name, default in want.items():
            if name in params:
                assert params[name].default == default, (func.__name__, name)
    flags = {o.flag.split("/")[-1]: name for name, o in _options.OPTIONS.items()}
    cli_default = {
        "--resamples": _options.DEFAULT_RESAMPLES,
        "--seed": _options.DEFAULT_SEED,
        "--stream": None,
        "--threads": None,
        "--nan-policy": _options.DEFAULT_NAN_POLICY,
        "--confidence": _options.DEFAULT_CONFIDENCE,
        "--backend": _options.DEFAULT_BACKEND,
    }
    assert set(flags) == set(cli_default)
    by_flag = {n: f for f in FLAGS.values() for n in f.names}
    for flag, default in cli_default.items():
        assert by_flag[flag].default == default, flag
