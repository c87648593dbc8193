//! Glue for `crate::itemstat` and `crate::meta`: item-level statistics,
//! their bootstrap, resample index blocks for Python callables, and metric
//! meta-evaluation (correlations, BOOT-*/PERM-* resampling, Williams).

use std::collections::HashMap;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::errors::{enter, quick, to_py, Names};
use super::{job, parse_alternative, scheme, table, vec2, version, MetricHandle};
use crate::engine::Job;
use crate::itemstat::ItemStatistic;
use crate::meta::{self, Level, MetaData, Scheme};
use crate::metric::{self, Value};
use crate::rng::STREAM_VERSION;

fn input(m: impl Into<String>) -> PyErr {
    to_py(crate::Error::Input(m.into()), &Names::default())
}

/// An item statistic from the metric registry, with its label: unknown names,
/// invalid parameters and metrics of summed statistics are `MetricError`s.
pub(super) fn statistic(
    py: Python<'_>,
    name: &str,
    params: &HashMap<String, f64>,
) -> PyResult<(ItemStatistic, String)> {
    let given: Vec<(String, Value)> = params
        .iter()
        .map(|(k, v)| (k.clone(), Value::Float(*v)))
        .collect();
    quick(py, &Names::default(), || {
        let r = metric::resolve(name, &given)?;
        let st = r.metric.on_items().cloned().ok_or_else(|| {
            crate::Error::metric(format!(
                "metric '{}' is a function of summed statistics, not an item statistic",
                r.label
            ))
        })?;
        Ok((st, r.label))
    })
}

/// The item statistic a handle holds, with its label: a metric of summed
/// statistics is a `MetricError` here.
fn item_statistic_of(h: &MetricHandle) -> PyResult<(&ItemStatistic, &str)> {
    match h.r.metric.on_items() {
        Some(st) => Ok((st, &h.r.label)),
        None => Err(to_py(
            crate::Error::metric(format!(
                "metric '{}' is a function of summed statistics, not an item statistic",
                h.r.label
            )),
            &Names::default(),
        )),
    }
}

fn slice<'a>(a: &'a PyReadonlyArray1<'_, f64>, what: &str) -> PyResult<&'a [f64]> {
    a.as_slice()
        .map_err(|_| input(format!("{what} must be a contiguous float64 array")))
}

/// One item statistic of `x` (and `y`).
#[pyfunction]
#[pyo3(signature = (metric, x, y=None))]
fn item_statistic(
    py: Python<'_>,
    metric: &Bound<'_, MetricHandle>,
    x: PyReadonlyArray1<'_, f64>,
    y: Option<PyReadonlyArray1<'_, f64>>,
) -> PyResult<f64> {
    let (st, label) = item_statistic_of(metric.get())?;
    let xs = slice(&x, "x")?;
    let ys: &[f64] = match &y {
        Some(a) => slice(a, "y")?,
        None => &[],
    };
    if st.n_inputs() == 2 && ys.len() != xs.len() {
        return Err(input(format!(
            "{label} needs x and y of equal length, got {} and {}",
            xs.len(),
            ys.len()
        )));
    }
    if xs.iter().chain(ys).any(|v| !v.is_finite()) {
        return Err(input("item statistics need finite values"));
    }
    quick(py, &Names::default(), || {
        if st.n_inputs() == 2 {
            st.validate(ys)?;
        }
        Ok(st.eval(xs, ys, &mut crate::itemstat::Scratch::default()))
    })
}

/// (acc_eq, ε) of tie calibration over groups given by `group` ids (one per item).
#[pyfunction]
fn tie_calibration(
    py: Python<'_>,
    x: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    group: PyReadonlyArray1<'_, i64>,
) -> PyResult<(f64, f64)> {
    let (xs, ys) = (slice(&x, "x")?, slice(&y, "y")?);
    let g = group
        .as_slice()
        .map_err(|_| input("group must be contiguous int64"))?;
    if xs.len() != ys.len() || g.len() != xs.len() {
        return Err(input("x, y and group must have equal lengths"));
    }
    quick(py, &Names::default(), || {
        let mut order: Vec<usize> = (0..xs.len()).collect();
        order.sort_by_key(|&i| g[i]);
        let gx: Vec<f64> = order.iter().map(|&i| xs[i]).collect();
        let gy: Vec<f64> = order.iter().map(|&i| ys[i]).collect();
        let mut groups = Vec::new();
        let mut a = 0;
        while a < order.len() {
            let mut b = a + 1;
            while b < order.len() && g[order[b]] == g[order[a]] {
                b += 1;
            }
            groups.push(crate::itemstat::Group {
                x: &gx[a..b],
                y: &gy[a..b],
                weight: 1.0,
            });
            a = b;
        }
        Ok(crate::itemstat::tie_calibrated(
            &groups,
            &mut crate::itemstat::Scratch::default(),
        ))
    })
}

/// Item statistic on bootstrap resamples start..start+count (count × systems);
/// `clusters` (cluster codes): the items of whole clusters drawn (drawn
/// clusters in draw order, each cluster's items in item order).
#[pyfunction]
#[pyo3(signature = (data, metric, seed, start, count, threads, progress=None, sub=0, stream=STREAM_VERSION, clusters=None))]
#[allow(clippy::too_many_arguments)]
fn item_bootstrap_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    metric: &Bound<'py, MetricHandle>,
    seed: u64,
    start: u64,
    count: usize,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
    stream: u32,
    clusters: Option<PyReadonlyArray1<'py, u32>>,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    let (st, label) = item_statistic_of(metric.get())?;
    let r = scheme("items", clusters.as_ref(), None)?;
    let t = table(&data)?;
    let systems = t.width / st.n_inputs();
    let v = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let job = job(sv, seed, sub, start, count, threads, p);
            crate::engine::scheme_item_bootstrap_values(&t, r, st, label, &job)
        },
    )?;
    vec2(py, v, systems.max(1))
}

/// Values (x', y') of an item statistic on permutation resamples
/// start..start+count of two systems (count × 2): the same swaps as the
/// sums-based permutation test (all 2^n arrangements with `exact`); `clusters`
/// (cluster codes): every item of a swapped cluster swapped.
#[pyfunction]
#[pyo3(signature = (data, metric, seed, start, count, exact, threads, progress=None, stream=STREAM_VERSION, clusters=None))]
#[allow(clippy::too_many_arguments)]
fn item_permutation_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    metric: &Bound<'py, MetricHandle>,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
    clusters: Option<PyReadonlyArray1<'py, u32>>,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    let (st, label) = item_statistic_of(metric.get())?;
    let r = scheme("items", clusters.as_ref(), None)?;
    let t = table(&data)?;
    let v = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let job = job(sv, seed, 0, start, count, threads, p);
            crate::engine::scheme_item_permutation_values(&t, r, st, label, exact, &job)
        },
    )?;
    vec2(py, v, 2)
}

/// Item indices of bootstrap resamples start..start+count (count × n, int64);
/// with n the number of clusters, the clusters a cluster bootstrap draws.
#[pyfunction]
#[pyo3(signature = (n, seed, start, count, sub=0, stream=STREAM_VERSION))]
fn item_indices<'py>(
    py: Python<'py>,
    n: usize,
    seed: u64,
    start: u64,
    count: usize,
    sub: u64,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    if n == 0 || n as u64 > 1 << 32 {
        return Err(input("n must be in 1..=2^32"));
    }
    let v = quick(py, &Names::default(), || {
        Ok(crate::engine::index_block(sv, n, seed, sub, start, count))
    })?;
    let v: Vec<i64> = v.into_iter().map(i64::from).collect();
    Ok(PyArray1::from_vec(py, v).reshape([count, n])?.into_any())
}

/// Swap masks of permutation resamples `start .. start + count` (`count × n`, bool).
#[pyfunction]
#[pyo3(signature = (n, seed, start, count, exact = false, stream=STREAM_VERSION))]
fn swap_masks<'py>(
    py: Python<'py>,
    n: usize,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    if n == 0 || n as u64 > 1 << 32 {
        return Err(input("n must be in 1..=2^32"));
    }
    let v = quick(py, &Names::default(), || {
        Ok(crate::engine::swap_block(sv, n, seed, start, count, exact))
    })?;
    let v: Vec<bool> = v.into_iter().map(|b| b == 1).collect();
    Ok(PyArray1::from_vec(py, v).reshape([count, n])?.into_any())
}

fn meta_data<'a>(
    human: &'a PyReadonlyArray2<'_, f64>,
    metrics: &'a PyReadonlyArray2<'_, f64>,
) -> PyResult<MetaData<'a>> {
    meta_data_with(human, metrics, true)
}

/// The table, with a system-level resample that leaves a system without
/// scored items dropping that system (`drop_empty`) or undefined.
fn meta_data_with<'a>(
    human: &'a PyReadonlyArray2<'_, f64>,
    metrics: &'a PyReadonlyArray2<'_, f64>,
    drop_empty: bool,
) -> PyResult<MetaData<'a>> {
    let sh = human.shape();
    let h = human
        .as_slice()
        .map_err(|_| input("human scores must be C-contiguous float64"))?;
    let m = metrics
        .as_slice()
        .map_err(|_| input("metric scores must be C-contiguous float64"))?;
    let mut d = MetaData::new(h, m, sh[0], sh[1]).map_err(|e| to_py(e, &Names::default()))?;
    d.drop_empty_systems = drop_empty;
    Ok(d)
}

/// Observed level correlation of each metric (metrics: k × (S·N)).
#[pyfunction]
fn meta_observed<'py>(
    py: Python<'py>,
    human: PyReadonlyArray2<'py, f64>,
    metrics: PyReadonlyArray2<'py, f64>,
    level: &str,
    name: &str,
    params: HashMap<String, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let d = meta_data(&human, &metrics)?;
    let lv = Level::parse(level).map_err(|e| to_py(e, &Names::default()))?;
    let (st, _) = statistic(py, name, &params)?;
    let v = quick(py, &Names::default(), || {
        Ok((0..d.k).map(|m| d.observed(lv, &st, m)).collect::<Vec<_>>())
    })?;
    Ok(PyArray1::from_vec(py, v))
}

/// Percentile intervals of every metric and every pair's difference over
/// `count` bootstrap resamples, streamed in bounded memory: (intervals k × 2,
/// defined resamples per metric, pair intervals, defined resamples per pair,
/// the values count × k when `keep` else None, passes).
#[pyfunction]
#[pyo3(signature = (human, metrics, level, name, params, scheme, seed, count, confidence, threads, keep=false, drop_empty=true, progress=None, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn meta_bootstrap_intervals<'py>(
    py: Python<'py>,
    human: PyReadonlyArray2<'py, f64>,
    metrics: PyReadonlyArray2<'py, f64>,
    level: &str,
    name: &str,
    params: HashMap<String, f64>,
    scheme: &str,
    seed: u64,
    count: usize,
    confidence: f64,
    threads: usize,
    keep: bool,
    drop_empty: bool,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
) -> PyResult<(
    Vec<(f64, f64)>,
    Vec<u64>,
    Vec<(f64, f64)>,
    Vec<u64>,
    Option<Bound<'py, PyAny>>,
    usize,
)> {
    let sv = version(stream)?;
    let d = meta_data_with(&human, &metrics, drop_empty)?;
    let lv = Level::parse(level).map_err(|e| to_py(e, &Names::default()))?;
    let sc = Scheme::parse(scheme).map_err(|e| to_py(e, &Names::default()))?;
    let (st, _) = statistic(py, name, &params)?;
    let k = d.k;
    let o = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let job = job(sv, seed, 0, 0, count, threads, p);
            meta::bootstrap_intervals(&d, lv, &st, sc, confidence, keep, &job)
        },
    )?;
    let samples = match o.samples {
        Some(v) => Some(vec2(py, v, k)?),
        None => None,
    };
    Ok((
        o.intervals,
        o.n_valid,
        o.deltas,
        o.n_valid_deltas,
        samples,
        o.passes,
    ))
}

/// Permutation tests of metric pairs: (observed δ, counts, valid resamples).
#[pyfunction]
#[pyo3(signature = (human, metrics, level, name, params, scheme, pairs, seed, n_resamples, alternative, threads, progress=None, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn meta_permutation<'py>(
    py: Python<'py>,
    human: PyReadonlyArray2<'py, f64>,
    metrics: PyReadonlyArray2<'py, f64>,
    level: &str,
    name: &str,
    params: HashMap<String, f64>,
    scheme: &str,
    pairs: Vec<(usize, usize)>,
    seed: u64,
    n_resamples: usize,
    alternative: &str,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
) -> PyResult<(Vec<f64>, Vec<u64>, Vec<u64>)> {
    let sv = version(stream)?;
    let d = meta_data(&human, &metrics)?;
    let lv = Level::parse(level).map_err(|e| to_py(e, &Names::default()))?;
    let sc = Scheme::parse(scheme).map_err(|e| to_py(e, &Names::default()))?;
    let (st, _) = statistic(py, name, &params)?;
    let alt = parse_alternative(alternative)?;
    let o = enter(
        py,
        progress.as_ref(),
        n_resamples as u64,
        &Names::default(),
        |p| {
            let job = Job::new(seed, n_resamples, threads, p).with_stream(sv);
            meta::permutation(&d, lv, &st, sc, &pairs, alt, &job)
        },
    )?;
    Ok((o.observed, o.counts, o.valid))
}

/// Williams' t for dependent correlations (r12, r13 share variable 1).
#[pyfunction]
fn williams_t(py: Python<'_>, r12: f64, r13: f64, r23: f64, n: f64) -> PyResult<f64> {
    quick(py, &Names::default(), || {
        Ok(meta::williams_t(r12, r13, r23, n))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TAG_META_BOOT", crate::rng::TAG_META_BOOT)?;
    m.add("TAG_META_PERM", crate::rng::TAG_META_PERM)?;
    m.add_function(wrap_pyfunction!(item_statistic, m)?)?;
    m.add_function(wrap_pyfunction!(tie_calibration, m)?)?;
    m.add_function(wrap_pyfunction!(item_bootstrap_values, m)?)?;
    m.add_function(wrap_pyfunction!(item_permutation_values, m)?)?;
    m.add_function(wrap_pyfunction!(item_indices, m)?)?;
    m.add_function(wrap_pyfunction!(swap_masks, m)?)?;
    m.add_function(wrap_pyfunction!(meta_observed, m)?)?;
    m.add_function(wrap_pyfunction!(meta_bootstrap_intervals, m)?)?;
    m.add_function(wrap_pyfunction!(meta_permutation, m)?)?;
    m.add_function(wrap_pyfunction!(williams_t, m)?)?;
    Ok(())
}
