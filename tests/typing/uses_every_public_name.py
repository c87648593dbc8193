"""Uses every public function of sigfast; `mypy --strict` must pass on it (tests/test_typing.py)."""

from __future__ import annotations

import numpy as np

import sigfast

a = np.array([0.1, 0.2, 0.3, 0.4, 0.5] * 8)
b = a + 0.01
counts_a = np.array([[3, 4, 5], [2, 2, 2]] * 10)
counts_b = np.array([[4, 4, 5], [2, 2, 2]] * 10)
stats: sigfast.Statistics = sigfast.Statistics.from_scores({"a": a, "b": b, "c": b + 0.01})

r: sigfast.PairedTestResult = sigfast.paired_bootstrap(a, b, n_resamples=100, seed=1)
p: float = r.pvalue + sigfast.permutation_test(counts_a, counts_b, metric="f1", n_resamples=100).pvalue
lo, hi = r.confidence_interval or sigfast.ConfidenceInterval(0.0, 0.0)
iv: sigfast.BootstrapInterval = sigfast.bootstrap_interval(a, n_resamples=100)
pw: sigfast.PairwiseResult = sigfast.pairwise(stats, n_resamples=100)
se: sigfast.StandardErrorResult = sigfast.standard_error(a, b, clusters=np.arange(40) // 4)
lb: sigfast.Leaderboard = sigfast.leaderboard(stats, n_resamples=100)
mdd: sigfast.BenchmarkPower = sigfast.minimum_detectable_difference(1000, cluster_size=4, icc=0.2)
need: sigfast.BenchmarkPower = sigfast.items_needed(0.05, correlation=0.5)
thresholds = sigfast.gain_threshold(pw)
up: sigfast.UnpairedPairwiseResult = sigfast.pairwise_unpaired({"a": a, "b": b})
t: sigfast.TestResult = sigfast.mcnemar([1, 0, 1, 1], [1, 1, 1, 0])
for test in (sigfast.sign_test, sigfast.paired_ttest, sigfast.wilcoxon):
    t = test(a, b)
t = sigfast.mann_whitney_u(a, b)
t = sigfast.welch_ttest(a, b)
t = sigfast.binomial_test(7, 10)
ci: sigfast.ConfidenceInterval = sigfast.wilson_interval(7, 10)
ci = sigfast.clopper_pearson_interval(7, 10)
ci = sigfast.agresti_coull_interval(7, 10)
ci = sigfast.proportion_interval(7, 10)
ci = sigfast.jeffreys_interval(7, 10)
ci = sigfast.beta_binomial_interval(7, 10, prior=(1.0, 1.0))
pp: sigfast.PairedProportionResult = sigfast.paired_proportion_interval([[5, 2], [6, 7]], method="tango")
cs: sigfast.ConfidenceSequenceResult = sigfast.confidence_sequence(a, b, batch=10)
gr: sigfast.GateResult = sigfast.gate(a, b, min_difference=0.0)
print(pp.confidence_interval, cs.confidence_interval, gr.verdict, gr.exit_code)
bt = sigfast.bradley_terry(
    {
        "model_a": ["x", "y", "x", "y"],
        "model_b": ["y", "z", "z", "x"],
        "winner": ["model_a", "tie", "model_b", "model_a"],
    }
)
nan = float("nan")
ppi = sigfast.prediction_powered([0.2, 0.5, 0.7, 0.4, 0.9, 0.1], [0.3, nan, 0.6, nan, 1.0, 0.0])
wr: sigfast.WinRates = sigfast.win_rates(
    {
        "model_a": ["x", "y", "x", "y"],
        "model_b": ["y", "z", "z", "x"],
        "winner": ["model_a", "tie", "model_b", "model_a"],
    },
    "x",
)
rt: sigfast.Ratings = bt
pwr: sigfast.PairedWinRate = sigfast.paired_win_rate(
    {
        "model_a": ["x", "y", "x", "y", "x", "y"],
        "model_b": ["z", "z", "z", "z", "z", "z"],
        "winner": ["model_a", "model_b", "tie", "model_a", "model_b", "model_a"],
        "q": ["1", "1", "2", "2", "3", "3"],
    },
    "x",
    "y",
    "z",
    cluster="q",
)
print(pwr.pvalue)
ppw: sigfast.PredictionPowered = ppi
print(bt, ppi, wr, rt, ppw)
adj: sigfast.AdjustedPValues = sigfast.adjust([0.01, 0.04], "holm")
rep: sigfast.ReplicabilityResult = sigfast.replicability([0.01, 0.04, 0.2])
power: float = sigfast.mcnemar_power(100, 0.05, 0.1, n_simulations=10)
size = sigfast.mcnemar_sample_size(0.05, 0.1, n_simulations=10, max_n=1000)
bpower: float = sigfast.bootstrap_power(40, x=a, y=b, n_simulations=2, n_resamples=50)
bsize = sigfast.bootstrap_sample_size(0.05, 0.1, n_simulations=2, n_resamples=50, max_n=200)
d = sigfast.diff(["A", "B"], ["A", "C"], ["B", "B"])
o = sigfast.oracle(["A", "B"], [["A", "C"], ["B", "B"]])
ag = sigfast.agreement(["A", "B"], [["A", "C"], ["B", "B"]])
alpha: float = sigfast.krippendorff_alpha([["A", "B"], ["A", "C"]])
aso: sigfast.AsoResult = sigfast.aso(a, b, n_resamples=20)
seeds: sigfast.SeedComparison = sigfast.compare_seeds({"a": a, "b": b}, n_resamples=20)
m: sigfast.metrics.Metric = sigfast.metrics.get("bleu", smooth="floor")
version: str = sigfast.__version__ + str(sigfast.STREAM_VERSION)
err: type[sigfast.SigfastError] = sigfast.InputError
errs = (sigfast.FormatError, sigfast.MetricError, sigfast.ArgumentError, sigfast.exceptions.SigfastError)
warn: type[UserWarning] = sigfast.ScorerWarning
cd = sigfast.coref_diff
rd = sigfast.read
report_of: type[sigfast.Report] = sigfast.Report
make_report = sigfast.report
studies = sigfast.studies.across_splits
analysis_units = sigfast.analysis.units_from_labels
items = sigfast.io.read_items
violation = sigfast.seeds.violation_ratio
print(p, lo, hi, iv, thresholds, up, t, ci, adj, rep, power, size, bpower, bsize, d, o, ag, alpha, aso, seeds, m)
print(version, err, errs, cd, rd, studies, analysis_units, items, violation, report_of, make_report)
fields: dict[str, str] = sigfast.signature.parse(r.signature)
assert sigfast.signature.unparse(fields) == r.signature
