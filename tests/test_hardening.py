"""Bad input and huge runs: the repros of the hardening issue, kept as regression tests.

Streamed results are compared with independent numpy references computed on the stored
distribution (``return_distribution=True``): counts with numpy comparisons, intervals with
``np.quantile``, the shifted test's centre with in-order block sums (``np.cumsum``).
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sigfast
from sigfast import _native
from sigfast.cli import main
from sigfast.exceptions import FormatError, InputError, SigfastError

PAIR_BLOCK = int(_native.PAIR_BLOCK)


def _blocked_mean(d: np.ndarray) -> float:
    total = 0.0
    for start in range(0, d.size, PAIR_BLOCK):
        total += float(np.cumsum(d[start : start + PAIR_BLOCK])[-1])  # in-order sum
    return total / d.size


def _bootstrap_count(d: np.ndarray, obs: float, variant: str, alt: str) -> int:
    if variant == "berg-kirkpatrick":
        return int(np.count_nonzero(d > 2 * obs) if obs > 0 else np.count_nonzero(d < 2 * obs) if obs < 0 else d.size)
    if variant == "koehn":
        return int(np.count_nonzero(d <= 0) if obs > 0 else np.count_nonzero(d >= 0) if obs < 0 else d.size)
    m = _blocked_mean(d)
    if alt == "greater":
        return int(np.count_nonzero(d - m >= obs))
    if alt == "less":
        return int(np.count_nonzero(d - m <= obs))
    return int(np.count_nonzero(np.abs(d - m) >= abs(obs)))


@pytest.fixture(scope="module")
def pair() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    x = rng.normal(0.5, 0.2, 40)
    return x, x + rng.normal(0.01, 0.1, 40)


# ----------------------------------------------------------------------------- streaming
@pytest.mark.parametrize("variant,alt", [("bk", None), ("koehn", None), ("shifted", "two-sided"), ("shifted", "less")])
def test_streamed_bootstrap_equals_numpy_on_the_distribution(pair, variant, alt) -> None:  # type: ignore[no-untyped-def]
    x, y = pair
    B = 2 * PAIR_BLOCK + 12_345  # three chunks, a partial last block
    kw = dict(n_resamples=B, seed=11, variant=variant, alternative=alt, progress=False)
    r = sigfast.paired_bootstrap(x, y, **kw)
    full = sigfast.paired_bootstrap(x, y, return_distribution=True, **kw)
    v = full.distribution
    assert v is not None and v.shape == (B, 2)
    d = v[:, 1] - v[:, 0]
    assert r.count == _bootstrap_count(d, r.statistic, r.variant, r.alternative)
    assert r.pvalue == (r.count + 1) / (B + 1)
    lv = [(1 - 0.95) / 2, (1 + 0.95) / 2]  # the levels paired_bootstrap reads
    assert tuple(r.confidence_interval) == tuple(np.quantile(d, lv))
    assert tuple(r.score_x_interval) == tuple(np.quantile(v[:, 0], lv))
    assert tuple(r.score_y_interval) == tuple(np.quantile(v[:, 1], lv))
    assert r.to_dict() == full.to_dict()


def test_streamed_custom_metric_and_permutation(pair) -> None:  # type: ignore[no-untyped-def]
    x, y = pair
    B = PAIR_BLOCK + 7
    r = sigfast.permutation_test(x, y, n_resamples=B, seed=5, method="approximate", progress=False)
    full = sigfast.permutation_test(
        x, y, n_resamples=B, seed=5, method="approximate", progress=False, return_distribution=True
    )
    d = full.distribution[:, 1] - full.distribution[:, 0]
    gamma = abs(r.statistic * 100 * np.finfo(float).eps)
    assert r.count == int(np.count_nonzero(np.abs(d) >= abs(r.statistic) - gamma)) == full.count
    rng = np.random.default_rng(1)
    cx = rng.integers(0, 5, (60, 2)).astype(float)
    cx[:, 1] += cx[:, 0]

    def ratio(s: np.ndarray) -> np.ndarray:
        return s[:, 0] / np.maximum(s[:, 1], 1)

    kw = dict(metric=ratio, n_resamples=B, seed=2, progress=False)
    # ratio takes the old one-array form
    with pytest.warns(DeprecationWarning, match=r"takes one \(resamples, k\) array of sums"):
        a = sigfast.paired_bootstrap(cx, cx[::-1].copy(), **kw)
        b = sigfast.paired_bootstrap(cx, cx[::-1].copy(), return_distribution=True, **kw)
    db = b.distribution[:, 1] - b.distribution[:, 0]
    assert tuple(a.confidence_interval) == tuple(np.quantile(db, [(1 - 0.95) / 2, (1 + 0.95) / 2]))
    assert a.count == b.count


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_streamed_bootstrap_interval_equals_numpy(pair, method) -> None:  # type: ignore[no-untyped-def]
    x, y = pair
    B = PAIR_BLOCK + 999
    r = sigfast.bootstrap_interval(x, y, n_resamples=B, seed=4, method=method)
    full = sigfast.bootstrap_interval(x, y, n_resamples=B, seed=4, method=method, return_distribution=True)
    assert r.quantiles == full.quantiles
    assert tuple(r.confidence_interval) == tuple(np.quantile(full.distribution, list(r.quantiles)))


def test_pairwise_independent_streams_like_two_system_tests() -> None:
    rng = np.random.default_rng(8)
    scores = {k: rng.normal(0.5 + 0.01 * i, 0.2, 30) for i, k in enumerate("abc")}
    B = PAIR_BLOCK + 3
    res = sigfast.pairwise(scores, n_resamples=B, mode="independent", seed=9, variant="shifted", progress=False)
    d = _native.resample_values(
        _native.Plan(
            np.ascontiguousarray(np.stack([scores["a"], scores["b"]], 1)),
            _native.MetricHandle("mean"),
            "bootstrap",
            "auto",
        ),
        _native.Job(9, B, sub=1, threads=1),
    )[0]
    delta = d[:, 1] - d[:, 0]
    obs = float(scores["b"].mean() - scores["a"].mean())
    assert int(res.counts[0, 1]) == _bootstrap_count(delta, obs, "shifted", "two-sided")
    assert int(res.counts[1, 0]) == _bootstrap_count(-delta, -obs, "shifted", "two-sided")


# ----------------------------------------------------------------------------- sizes
@pytest.mark.parametrize("bad", [True, False, np.True_, 0, -1, 2**40 + 1, 2**62, 2**63, 2**64, 10**30, 1.5, "10"])
def test_resample_counts_are_checked(pair, bad) -> None:  # type: ignore[no-untyped-def]
    x, y = pair
    for fn in (sigfast.paired_bootstrap, sigfast.permutation_test):
        with pytest.raises(InputError, match="n_resamples"):
            fn(x, y, n_resamples=bad, method="approximate") if fn is sigfast.permutation_test else fn(
                x, y, n_resamples=bad
            )
    with pytest.raises(InputError, match="n_resamples"):
        sigfast.bootstrap_interval(x, n_resamples=bad)
    with pytest.raises(InputError, match="n_resamples"):
        sigfast.pairwise({"a": x, "b": y}, n_resamples=bad)


def test_native_sizes_never_wrap_or_abort(pair) -> None:  # type: ignore[no-untyped-def]
    x, y = pair
    t = np.ascontiguousarray(np.stack([x, y], 1))
    for b in (2**62, 2**63 - 1, 2**40 + 1):
        with pytest.raises(InputError):
            _native.resample_values(_native.Plan(t, _native.MetricHandle("mean")), _native.Job(1, b, threads=1))
        with pytest.raises(InputError):
            _native.Summary(b, 2)
    assert _native.MAX_RESAMPLES == 2**40


# ----------------------------------------------------------------------------- values
def test_sums_that_overflow_are_input_errors() -> None:
    big = np.full(50, 1e308)
    with pytest.raises(InputError, match="overflow"):
        sigfast.paired_bootstrap(big, -big, n_resamples=10)
    with pytest.raises(InputError, match="overflow"):
        sigfast.Statistics.from_scores({"a": big})
    with pytest.raises(InputError, match="overflow"):
        _native.resample_values(
            _native.Plan(np.ascontiguousarray(np.stack([big, -big], 1)), _native.MetricHandle("mean")),
            _native.Job(1, 5),
        )
    # large but summable values are fine
    ok = sigfast.paired_bootstrap(np.full(50, 1e300), np.full(50, -1e300), n_resamples=10)
    assert np.isfinite(ok.statistic)


def test_count_invariants_name_system_item_and_statistic() -> None:
    x = np.tile([3.0, 4.0, 5.0], (30, 1))
    y = x.copy()
    y[7] = [9.0, 4.0, 5.0]
    with pytest.raises(InputError, match=r"system 'y'.*item 8.*'tp' = 9.*'guessed' = 4"):
        sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=10)
    y = x.copy()
    y[2, 1] = 4.5
    with pytest.raises(InputError, match=r"item 3.*'guessed' is 4.5.*counts"):
        sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=10)
    y = x.copy()
    y[0, 2] = -1
    with pytest.raises(InputError, match=r"negative|counts"):
        sigfast.paired_bootstrap(x, y, metric="f1", n_resamples=10)
    acc = np.tile([3.0, 2.0], (20, 1))
    with pytest.raises(InputError, match=r"'correct' = 3.*'total' = 2"):
        sigfast.bootstrap_interval(acc, metric="accuracy", n_resamples=10)
    # the invariants are data in the registry
    spec = {s["name"]: s for s in sigfast.metrics.specs()}
    assert ("tp", "guessed") in [tuple(p) for p in spec["fbeta"]["invariants"]]
    assert spec["mean"]["invariants"] == []


def test_few_items_warn_loudly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    r = sigfast.paired_bootstrap([0.5], [0.9], n_resamples=100)
    assert r.warnings and "only 1 item" in r.warnings[0]
    assert "WARNING" in str(r)
    assert r.to_dict()["warnings"] == list(r.warnings)
    p = sigfast.permutation_test(np.arange(5.0), np.arange(5.0) + 1)
    assert p.warnings
    many = sigfast.paired_bootstrap(np.arange(10.0), np.arange(10.0) + 1, n_resamples=100)
    assert many.warnings == ()
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text("0.5\n")
    b.write_text("0.9\n")
    assert main(["compare", str(a), str(b), "-n", "100"]) == 0
    assert "WARNING: only 1 item" in capsys.readouterr().out


# ----------------------------------------------------------------------------- readers
def test_bom_is_not_a_header(tmp_path: Path) -> None:
    p = tmp_path / "bom.tsv"
    p.write_bytes(b"\xef\xbb\xbf" + b"".join(f"{i / 10}\n".encode() for i in range(50)))
    arr, names = sigfast.io.read_items(p)
    assert arr.shape == (50, 1) and names is None and arr[0, 0] == 0.0
    q = tmp_path / "bomh.tsv"
    q.write_bytes(b"\xef\xbb\xbftp\tguessed\n1\t2\n")
    assert sigfast.io.read_items(q)[1] == ("tp", "guessed")


def test_gzip_is_read_transparently(tmp_path: Path) -> None:
    p = tmp_path / "a.tsv.gz"
    p.write_bytes(gzip.compress(b"1\n2\n3\n"))
    assert sigfast.io.read_items(p)[0][:, 0].tolist() == [1.0, 2.0, 3.0]
    j = tmp_path / "a.jsonl.gz"
    j.write_bytes(gzip.compress(b'{"s": 1}\n{"s": 2}\n'))
    assert sigfast.io.read_items(j)[1] == ("s",)
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(b"\x1f\x8b\x08garbage")
    with pytest.raises(FormatError, match="gzip"):
        sigfast.io.read_items(bad)


def _npy(path: Path, header: str, payload: bytes = b"") -> None:
    h = header.encode("latin1")
    h = h + b" " * (-(len(h) + 11) % 64) + b"\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + payload)


def test_npy_headers_are_checked_before_loading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.npy"
    _npy(huge, "{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 120000), }", b"\0" * 6)
    assert huge.stat().st_size < 200
    with pytest.raises(FormatError, match="declares shape"):
        sigfast.io.read_items(huge)
    cases = {
        "eof": b"\x93NUMPY\x01",
        "token": None,
        "overflow": None,
    }
    (tmp_path / "eof.npy").write_bytes(cases["eof"])
    _npy(tmp_path / "token.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3,")
    _npy(tmp_path / "overflow.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }")
    _npy(tmp_path / "neg.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (-3,), }")
    _npy(tmp_path / "obj.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }", b"\0" * 24)
    for name in ("eof", "token", "overflow", "neg", "obj"):
        with pytest.raises(FormatError):
            sigfast.io.read_items(tmp_path / f"{name}.npy")
    c = tmp_path / "c.npy"
    np.save(c, np.arange(4) + 1j)
    with pytest.raises(FormatError, match="complex"):
        sigfast.io.read_items(c)
    ok = tmp_path / "ok.npy"
    np.save(ok, np.asfortranarray(np.arange(6.0).reshape(3, 2)))
    np.testing.assert_array_equal(sigfast.io.read_items(ok)[0], np.arange(6.0).reshape(3, 2))


def test_json_values_out_of_range(tmp_path: Path) -> None:
    for text in ["1" + "0" * 400, "1e400", "-1e400", "NaN", "[" * 100_000 + "]" * 100_000, '{"a": [1]}']:
        p = tmp_path / "v.jsonl"
        p.write_text("1\n" + text + "\n")
        with pytest.raises(FormatError, match="line 2"):
            sigfast.io.read_items(p)


# ----------------------------------------------------------------------------- CLI
@pytest.mark.parametrize(
    "args",
    [
        ["compare", "A", "B", "-n", "18446744073709551616"],
        ["compare", "A", "B", "-n", "0"],
        ["pairwise", "A", "B", "-n", "0"],
        ["pairwise", "A", "B", "-n", "-3"],
        ["compare", "A", "B", "--threads", "0"],
    ],
)
def test_cli_rejects_bad_counts_as_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args) -> None:  # type: ignore[no-untyped-def]
    # a count out of range is a usage error of the one CLI vocabulary: argparse's usage line and exit 2
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text("".join(f"{i}\n" for i in range(20)))
    b.write_text("".join(f"{i + 1}\n" for i in range(20)))
    argv = [str(a) if x == "A" else str(b) if x == "B" else x for x in args]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "must be at" in err and err.strip().splitlines()[-1].startswith("sigfast ")


def test_ctrl_c_stops_process_pool_workers(tmp_path: Path) -> None:
    from _signals import stop_process_pool

    r = stop_process_pool(tmp_path, signal.SIGINT)
    assert r.workers, "no worker processes started"
    assert r.seconds < 5
    assert r.returncode == 130 and "interrupted" in r.stderr
    assert not r.alive, f"orphaned workers {r.alive}"


def test_errors_are_sigfast_errors() -> None:
    assert issubclass(FormatError, SigfastError) and issubclass(InputError, SigfastError)
    assert json.loads(sigfast.paired_bootstrap(np.arange(12.0), np.arange(12.0), n_resamples=5).to_json())


def test_ci_runs_the_readme_command() -> None:
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```bash\n")[1:]]
    command = blocks[1]  # "Run every test, Rust and Python"
    assert "\n" not in command
    ci = (root / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == command
    for part in ("cargo fmt --check", "clippy --release -- -D warnings", "--features python -- -D warnings"):
        assert part in command
    assert "ruff check python tests benches" in command and "ruff format --check python tests benches" in command
    # every core, with the xdist_group marks honoured (README: "pytest runs the tests on every core")
    assert command.endswith(" -m pytest -n auto --dist loadgroup")


def test_the_suite_expects_its_scorer_warnings_and_deprecations() -> None:
    # pyproject.toml's filterwarnings: sigfast's scorer warnings and deprecations (attributed to the
    # caller, so matched by message) fail a test that does not expect them; others do not
    import warnings

    from sigfast.formats.dependency import DependencyWarning

    with pytest.raises(DependencyWarning):
        warnings.warn("a scorer warning", DependencyWarning, stacklevel=1)
    with pytest.raises(DeprecationWarning, match="item_bootstrap is deprecated"):
        sigfast.item_bootstrap(np.arange(5.0), np.arange(5.0), n_resamples=10)
    with warnings.catch_warnings(record=True) as rec:
        warnings.warn("some_library.f is deprecated", DeprecationWarning, stacklevel=1)
    assert len(rec) == 1


@pytest.mark.parametrize("ci, workers", [("true", "0"), ("true", "1"), ("", "0")])
def test_missing_shared_data_fails_under_ci(tmp_path: Path, ci: str, workers: str) -> None:
    # workers: pytest-xdist's -n (0: in this process; the README's command runs the tests in workers)
    tests = tmp_path / "checkout" / "tests"  # shared/ would be at tmp_path / "shared": absent
    tests.mkdir(parents=True)
    (tests / "conftest.py").write_text((Path(__file__).parent / "conftest.py").read_text(encoding="utf-8"))
    (tests / "test_uses_shared.py").write_text("def test_x(shared_data):\n    assert shared_data.is_dir()\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = ci
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", workers, str(tests)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    if ci:
        assert r.returncode != 0 and "CI is set but" in r.stdout
    else:
        assert r.returncode == 0 and "1 skipped" in r.stdout


def test_found_by_fuzzing_bootstrap_interval() -> None:
    # items of different counts in 2-D statistics: ValueError from np.stack before
    with pytest.raises(InputError, match="same items"):
        sigfast.bootstrap_interval(np.zeros((8, 1)), np.zeros((9, 1)), n_resamples=2)
    # BCa with deviations whose cubes overflow: OverflowError before; a is scale-free
    x, y = np.zeros((9, 1)), np.zeros((9, 1))
    y[-1] = 4.78892573e103
    big = sigfast.bootstrap_interval(x, y, n_resamples=50, method="bca", seed=3)
    small = sigfast.bootstrap_interval(x, y / 2.0**300, n_resamples=50, method="bca", seed=3)
    assert big.acceleration == small.acceleration
    assert big.quantiles == small.quantiles


def test_found_by_fuzzing_classical_and_power() -> None:
    # Welch's degrees of freedom square the variances: OverflowError before
    with pytest.raises(InputError, match="rescale"):
        sigfast.welch_ttest([0.0, 0.0], [0.0, 2.31584178e77])
    # a test-set size beyond 2^40 reached the native draws as an OverflowError
    with pytest.raises(InputError, match="n must be"):
        sigfast.mcnemar_power(2**70, 0.0, 1.0)
    with pytest.raises(InputError, match="n_resamples"):
        sigfast.bootstrap_power(100, 0.01, 0.1, n_resamples=True)
