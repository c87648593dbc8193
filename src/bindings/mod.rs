//! The private native module `sigfast._native`: thin glue over the engine.
//! Python owns defaults, validation messages and presentation; these
//! functions convert arrays, release the GIL while the engine runs, relay
//! progress, and turn Ctrl-C into `KeyboardInterrupt`.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use crate::engine::{self, Progress, Resampling, Table};
use crate::inference::{self, Alternative, BootVariant};
use crate::metric::{Metric, Smooth};
use crate::Error;

mod evalb_py;
mod meta_py;
mod text_py;
mod ud_py;

fn to_py(e: Error) -> PyErr {
    match e {
        Error::Input(m) => PyValueError::new_err(m),
        Error::Cancelled => PyKeyboardInterrupt::new_err("cancelled"),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn param(p: &HashMap<String, f64>, key: &str, default: f64) -> f64 {
    p.get(key).copied().unwrap_or(default)
}

fn parse_metric(name: &str, p: &HashMap<String, f64>) -> PyResult<Metric> {
    Ok(match name {
        "mean" => Metric::Mean {
            higher_is_better: param(p, "higher_is_better", 1.0) != 0.0,
        },
        "accuracy" => Metric::Accuracy,
        "precision" => Metric::Precision,
        "recall" => Metric::Recall,
        "fbeta" => Metric::FBeta {
            beta: param(p, "beta", 1.0),
        },
        "bleu" => {
            let v = param(p, "smooth_value", f64::NAN);
            let smooth = match param(p, "smooth", 3.0) as i64 {
                0 => Smooth::None,
                1 => Smooth::Floor(v),
                2 => Smooth::AddK(v),
                _ => Smooth::Exp,
            };
            let max_order = param(p, "max_order", 4.0) as usize;
            if !(1..=16).contains(&max_order) {
                return Err(PyValueError::new_err("BLEU max_order must be in 1..=16"));
            }
            Metric::Bleu {
                max_order,
                smooth,
                effective_order: param(p, "effective_order", 0.0) != 0.0,
            }
        }
        "chrf" => Metric::Chrf {
            char_order: param(p, "char_order", 6.0) as usize,
            word_order: param(p, "word_order", 0.0) as usize,
            beta: param(p, "beta", 2.0),
            eps_smoothing: param(p, "eps_smoothing", 0.0) != 0.0,
        },
        "aer" => Metric::Aer,
        "error_rate" => Metric::ErrorRate,
        "weighted_macro_f1" => Metric::WeightedMacroF1 {
            weight: param(p, "weight", 0.5),
        },
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown native metric {other:?}"
            )))
        }
    })
}

fn parse_resampling(s: &str) -> PyResult<Resampling> {
    match s {
        "items" => Ok(Resampling::Items),
        "distinct" => Ok(Resampling::Distinct),
        "auto" => Ok(Resampling::Auto),
        _ => Err(PyValueError::new_err(format!("unknown resampling {s:?}"))),
    }
}

fn parse_alternative(s: &str) -> PyResult<Alternative> {
    match s {
        "two-sided" => Ok(Alternative::TwoSided),
        "greater" => Ok(Alternative::Greater),
        "less" => Ok(Alternative::Less),
        _ => Err(PyValueError::new_err(format!("unknown alternative {s:?}"))),
    }
}

fn table<'a>(a: &'a PyReadonlyArray2<'_, f64>) -> PyResult<Table<'a>> {
    let shape = a.shape();
    let data = a
        .as_slice()
        .map_err(|_| PyValueError::new_err("statistics must be a C-contiguous float64 array"))?;
    Table::new(data, shape[0], shape[1]).map_err(to_py)
}

/// Run `job` on a worker thread with the GIL released; poll Ctrl-C and feed
/// `progress(done, total)` from the calling thread about ten times a second.
fn run_detached<T: Send>(
    py: Python<'_>,
    callback: Option<&Bound<'_, PyAny>>,
    total: u64,
    job: impl FnOnce(&Progress) -> crate::Result<T> + Send,
) -> PyResult<T> {
    let progress = Progress::new();
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|s| {
        let (prog, fin) = (&progress, &finished);
        let handle = s.spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(prog)));
            *fin.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
            fin.1.notify_all();
            out
        });
        loop {
            let done = py.detach(|| {
                let guard = finished
                    .0
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let (guard, _) = finished
                    .1
                    .wait_timeout_while(guard, Duration::from_millis(100), |d| !*d)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                *guard
            });
            let mut err = py.check_signals().err();
            if err.is_none() {
                if let Some(cb) = callback {
                    err = cb
                        .call1((progress.done.load(Ordering::Relaxed), total))
                        .err();
                }
            }
            if let Some(e) = err {
                progress.cancel.store(true, Ordering::Relaxed);
                let _ = handle.join();
                return Err(e);
            }
            if done {
                break;
            }
        }
        match handle.join() {
            Ok(Ok(r)) => r.map_err(to_py),
            Ok(Err(panic)) | Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

fn vec2<'py>(py: Python<'py>, v: Vec<f64>, cols: usize) -> PyResult<Bound<'py, PyAny>> {
    let rows = if cols == 0 { 0 } else { v.len() / cols };
    Ok(PyArray1::from_vec(py, v).reshape([rows, cols])?.into_any())
}

/// Metric values of every system on each bootstrap resample (B × S) and the
/// number of distinct rows when resampling over them.
#[pyfunction]
#[pyo3(signature = (data, metric, params, seed, n_resamples, resampling, threads, progress=None, sub=0))]
#[allow(clippy::too_many_arguments)]
fn bootstrap_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    metric: &str,
    params: HashMap<String, f64>,
    seed: u64,
    n_resamples: usize,
    resampling: &str,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
) -> PyResult<(Bound<'py, PyAny>, Option<usize>)> {
    let m = parse_metric(metric, &params)?;
    let r = parse_resampling(resampling)?;
    let t = table(&data)?;
    let systems = t.width / m.n_stats().max(1);
    let (v, d) = run_detached(py, progress.as_ref(), n_resamples as u64, |p| {
        let boot = engine::Bootstrap::new(&t, r).with_sub(sub);
        let d = boot.distinct_rows();
        Ok((
            engine::bootstrap_values_range(&t, &boot, &m, seed, 0, n_resamples, threads, p)?,
            d,
        ))
    })?;
    Ok((vec2(py, v, systems)?, d))
}

fn parse_variant(variant: &str) -> PyResult<BootVariant> {
    match variant {
        "bk" => Ok(BootVariant::BergKirkpatrick),
        "koehn" => Ok(BootVariant::Koehn),
        "shifted" => Ok(BootVariant::Shifted),
        _ => Err(PyValueError::new_err(format!(
            "unknown bootstrap variant {variant:?}"
        ))),
    }
}

fn pair_spec(variant: &str, alternative: &str, orient: f64) -> PyResult<crate::pairwise::PairSpec> {
    Ok(crate::pairwise::PairSpec {
        variant: parse_variant(variant)?,
        alternative: parse_alternative(alternative)?,
        orient,
    })
}

fn u64_matrix<'py>(py: Python<'py>, v: Vec<u64>, cols: usize) -> PyResult<Bound<'py, PyAny>> {
    let rows = if cols == 0 { 0 } else { v.len() / cols };
    Ok(PyArray1::from_vec(py, v).reshape([rows, cols])?.into_any())
}

/// One pairwise shard: (counts S×S, per-block δ* sums (blocks·S)×S, distinct rows
/// when resampling over them).
#[pyfunction]
#[pyo3(signature = (data, metric, params, seed, sub, start, stop, resampling, observed, variant, alternative, orient, means, threads, progress=None))]
#[allow(clippy::too_many_arguments)]
fn pairwise_shard<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    metric: &str,
    params: HashMap<String, f64>,
    seed: u64,
    sub: u64,
    start: u64,
    stop: u64,
    resampling: &str,
    observed: Vec<f64>,
    variant: &str,
    alternative: &str,
    orient: f64,
    means: Option<Vec<f64>>,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Option<usize>)> {
    let m = parse_metric(metric, &params)?;
    let r = parse_resampling(resampling)?;
    let spec = pair_spec(variant, alternative, orient)?;
    let t = table(&data)?;
    let s = observed.len();
    let (c, sums, d) = run_detached(py, progress.as_ref(), stop.saturating_sub(start), |p| {
        let boot = engine::Bootstrap::new(&t, r).with_sub(sub);
        let (c, sums) = crate::pairwise::pairwise_shard(
            &t,
            &boot,
            &m,
            seed,
            start,
            stop,
            &observed,
            spec,
            means.as_deref(),
            threads,
            p,
        )?;
        Ok((c, sums, boot.distinct_rows()))
    })?;
    Ok((u64_matrix(py, c, s)?, vec2(py, sums, s)?, d))
}

/// Pair counts from a block of metric values (rows × S): (counts S×S, δ* sums S×S).
#[pyfunction]
#[pyo3(signature = (values, observed, variant, alternative, orient, means, threads))]
fn pair_counts<'py>(
    py: Python<'py>,
    values: PyReadonlyArray2<'py, f64>,
    observed: Vec<f64>,
    variant: &str,
    alternative: &str,
    orient: f64,
    means: Option<Vec<f64>>,
    threads: usize,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let spec = pair_spec(variant, alternative, orient)?;
    let v = values
        .as_slice()
        .map_err(|_| PyValueError::new_err("values must be C-contiguous"))?;
    let s = observed.len();
    let (c, sums) = py
        .detach(|| crate::pairwise::count_block(v, s, &observed, spec, means.as_deref(), threads))
        .map_err(to_py)?;
    Ok((u64_matrix(py, c, s)?, vec2(py, sums, s)?))
}

/// Summed statistics of bootstrap resamples start..start+count (count × width).
#[pyfunction]
#[pyo3(signature = (data, seed, start, count, resampling, threads, progress=None, sub=0))]
#[allow(clippy::too_many_arguments)]
fn bootstrap_sums<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    seed: u64,
    start: u64,
    count: usize,
    resampling: &str,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
) -> PyResult<(Bound<'py, PyAny>, Option<usize>)> {
    let r = parse_resampling(resampling)?;
    let t = table(&data)?;
    let width = t.width;
    let (v, d) = run_detached(py, progress.as_ref(), count as u64, |p| {
        engine::bootstrap_sums_sub(&t, seed, start, count, r, sub, threads, p)
    })?;
    Ok((vec2(py, v, width)?, d))
}

/// Metric values (x', y') of approximate-randomization resamples (B × 2).
#[pyfunction]
#[pyo3(signature = (data, metric, params, seed, n_resamples, threads, progress=None))]
#[allow(clippy::too_many_arguments)]
fn permutation_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    metric: &str,
    params: HashMap<String, f64>,
    seed: u64,
    n_resamples: usize,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let m = parse_metric(metric, &params)?;
    let t = table(&data)?;
    let v = run_detached(py, progress.as_ref(), n_resamples as u64, |p| {
        engine::permutation_values(&t, &m, seed, n_resamples, threads, p)
    })?;
    vec2(py, v, 2)
}

/// Metric values (x', y') of all 2^n swap arrangements (2^n × 2).
#[pyfunction]
#[pyo3(signature = (data, metric, params, threads, progress=None))]
fn exact_permutation_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    metric: &str,
    params: HashMap<String, f64>,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let m = parse_metric(metric, &params)?;
    let t = table(&data)?;
    let total = 1u64 << t.n.min(63);
    let v = run_detached(py, progress.as_ref(), total, |p| {
        engine::exact_permutation_values(&t, &m, threads, p)
    })?;
    vec2(py, v, 2)
}

/// Summed statistics of swap resamples start..start+count (count × width).
#[pyfunction]
#[pyo3(signature = (data, seed, start, count, exact, threads, progress=None))]
#[allow(clippy::too_many_arguments)]
fn permutation_sums<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let t = table(&data)?;
    let width = t.width;
    let v = run_detached(py, progress.as_ref(), count as u64, |p| {
        engine::permutation_sums(&t, seed, start, count, exact, threads, p)
    })?;
    vec2(py, v, width)
}

/// The metric on each row of summed statistics (rows × k).
#[pyfunction]
fn metric_scores<'py>(
    py: Python<'py>,
    sums: PyReadonlyArray2<'py, f64>,
    metric: &str,
    params: HashMap<String, f64>,
    n_items: f64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let m = parse_metric(metric, &params)?;
    let k = m.n_stats();
    if sums.shape()[1] != k {
        return Err(PyValueError::new_err(format!(
            "metric {metric} needs {k} statistics per row, got {}",
            sums.shape()[1]
        )));
    }
    let data = sums
        .as_slice()
        .map_err(|_| PyValueError::new_err("sums must be C-contiguous"))?;
    let out: Vec<f64> = data.chunks(k).map(|row| m.score(row, n_items)).collect();
    Ok(PyArray1::from_vec(py, out))
}

/// (count, total, p) of a paired-bootstrap variant.
#[pyfunction]
fn bootstrap_pvalue(
    deltas: PyReadonlyArray1<'_, f64>,
    observed: f64,
    variant: &str,
    alternative: &str,
    orient: f64,
    plus_one: bool,
) -> PyResult<(u64, u64, f64)> {
    let v = parse_variant(variant)?;
    let a = parse_alternative(alternative)?;
    let d = deltas
        .as_slice()
        .map_err(|_| PyValueError::new_err("deltas must be contiguous"))?;
    let p = inference::bootstrap_pvalue(d, observed, v, a, orient, plus_one);
    Ok((p.count, p.total, p.pvalue))
}

/// (count, total, p) of a permutation test.
#[pyfunction]
fn permutation_pvalue(
    deltas: PyReadonlyArray1<'_, f64>,
    observed: f64,
    alternative: &str,
    plus_one: bool,
) -> PyResult<(u64, u64, f64)> {
    let a = parse_alternative(alternative)?;
    let d = deltas
        .as_slice()
        .map_err(|_| PyValueError::new_err("deltas must be contiguous"))?;
    let p = inference::permutation_pvalue(d, observed, a, plus_one);
    Ok((p.count, p.total, p.pvalue))
}

/// Equal-tailed percentile interval (numpy's linear quantiles).
#[pyfunction]
fn percentile_interval(values: PyReadonlyArray1<'_, f64>, confidence: f64) -> PyResult<(f64, f64)> {
    let v = values
        .as_slice()
        .map_err(|_| PyValueError::new_err("values must be contiguous"))?;
    if v.is_empty() {
        return Err(PyValueError::new_err("no values"));
    }
    Ok(inference::percentile_interval(v, confidence))
}

/// Benchmark floor: draw and count n_resamples × n indices; returns a checksum.
#[pyfunction]
fn draw_count_floor(
    py: Python<'_>,
    n: usize,
    n_resamples: usize,
    seed: u64,
    threads: usize,
) -> PyResult<u64> {
    py.detach(|| engine::draw_count_floor(n, n_resamples, seed, threads))
        .map_err(to_py)
}

/// The first `count` words of the xoshiro stream of (seed, tag, resample, sub).
#[pyfunction]
fn stream_words<'py>(
    py: Python<'py>,
    seed: u64,
    tag: u64,
    resample: u64,
    sub: u64,
    count: usize,
) -> Bound<'py, PyArray1<u64>> {
    let mut s = crate::rng::Stream::new(seed, tag, resample, sub);
    PyArray1::from_vec(py, (0..count).map(|_| s.next_u64()).collect())
}

/// Turn the SIMD kernels off or on (they give the same bytes; for tests and benches).
#[pyfunction]
fn set_simd(enabled: bool) {
    engine::set_simd(enabled);
}

/// Binomial draws from one stream (for distribution tests).
#[pyfunction]
fn binomial_draws<'py>(
    py: Python<'py>,
    seed: u64,
    n: u64,
    p: f64,
    count: usize,
) -> Bound<'py, PyArray1<u64>> {
    let mut s = crate::rng::Stream::new(seed, crate::rng::TAG_BOOTSTRAP, 0, 7);
    PyArray1::from_vec(
        py,
        (0..count)
            .map(|_| crate::binomial::binomial(&mut s, n, p))
            .collect(),
    )
}

#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STREAM_VERSION", crate::rng::STREAM_VERSION)?;
    m.add("TAG_BOOTSTRAP", crate::rng::TAG_BOOTSTRAP)?;
    m.add("TAG_PERMUTE", crate::rng::TAG_PERMUTE)?;
    m.add("BLOCK", engine::BLOCK)?;
    m.add("MAX_EXACT_ITEMS", engine::MAX_EXACT_ITEMS)?;
    m.add(
        "BUILD_PROFILE",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    m.add_function(wrap_pyfunction!(bootstrap_values, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_sums, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_values, m)?)?;
    m.add_function(wrap_pyfunction!(exact_permutation_values, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_sums, m)?)?;
    m.add_function(wrap_pyfunction!(metric_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_pvalue, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_pvalue, m)?)?;
    m.add_function(wrap_pyfunction!(percentile_interval, m)?)?;
    m.add_function(wrap_pyfunction!(draw_count_floor, m)?)?;
    m.add_function(wrap_pyfunction!(stream_words, m)?)?;
    m.add_function(wrap_pyfunction!(binomial_draws, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_shard, m)?)?;
    m.add_function(wrap_pyfunction!(set_simd, m)?)?;
    m.add_function(wrap_pyfunction!(pair_counts, m)?)?;
    m.add("PAIR_BLOCK", crate::pairwise::PAIR_BLOCK)?;
    evalb_py::register(m)?;
    meta_py::register(m)?;
    text_py::register(m)?;
    ud_py::register(m)?;
    Ok(())
}
