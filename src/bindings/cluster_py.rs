//! Glue for `crate::engine::clusters`: the bootstrap, permutation and
//! pairwise drivers that draw or swap whole clusters of items. Every
//! function takes the items' cluster codes (`uint32`, one per item, codes
//! `0..G` with every cluster used); the Python executor builds them.

use std::collections::HashMap;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::{enter, quick, Names};
use super::meta_py::statistic;
use super::{
    input, job, pair_spec, parse_metric, stream_total, table, u64_matrix, vec2, version, PySummary,
};
use crate::engine::{self, Clusters};
use crate::rng::STREAM_VERSION;
use crate::stream;

fn codes<'a>(a: &'a PyReadonlyArray1<'_, u32>) -> PyResult<&'a [u32]> {
    a.as_slice()
        .map_err(|_| input("cluster codes must be a contiguous uint32 array".to_string()))
}

/// Each cluster's statistics summed in item order (G × width) and its item count.
#[pyfunction]
fn cluster_sums<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<u64>>)> {
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let w = t.width;
    let (sums, sizes) = quick(py, &Names::default(), || {
        let cl = Clusters::new(&t, c)?;
        Ok((cl.sums().to_vec(), cl.sizes().to_vec()))
    })?;
    Ok((vec2(py, sums, w)?, PyArray1::from_vec(py, sizes)))
}

/// Metric values of every system on cluster-bootstrap resamples start..start+count (count × S).
#[pyfunction]
#[pyo3(signature = (data, clusters, metric, params, seed, start, count, threads, progress=None, sub=0, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn cluster_bootstrap_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    metric: &str,
    params: Option<Bound<'py, PyDict>>,
    seed: u64,
    start: u64,
    count: usize,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    let m = parse_metric(py, metric, params.as_ref())?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let systems = t.width / m.n_stats().max(1);
    let v = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let cl = Clusters::new(&t, c)?;
            engine::cluster_bootstrap_values(&cl, &m, &job(sv, seed, sub, start, count, threads, p))
        },
    )?;
    vec2(py, v, systems.max(1))
}

/// Summed statistics of cluster-bootstrap resamples start..start+count (count × width)
/// and each resample's item count (count).
#[pyfunction]
#[pyo3(signature = (data, clusters, seed, start, count, threads, progress=None, sub=0, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn cluster_bootstrap_sums<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    seed: u64,
    start: u64,
    count: usize,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
    stream: u32,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>)> {
    let sv = version(stream)?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let width = t.width;
    let (v, n) = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let cl = Clusters::new(&t, c)?;
            engine::cluster_bootstrap_sums(&cl, &job(sv, seed, sub, start, count, threads, p))
        },
    )?;
    Ok((vec2(py, v, width)?, PyArray1::from_vec(py, n)))
}

/// Metric values (x', y') of cluster-swap resamples start..start+count (count × 2);
/// `exact`: arrangements start..start+count of the 2^G.
#[pyfunction]
#[pyo3(signature = (data, clusters, metric, params, seed, start, count, exact, threads, progress=None, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn cluster_permutation_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    metric: &str,
    params: Option<Bound<'py, PyDict>>,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    let m = parse_metric(py, metric, params.as_ref())?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let v = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let cl = Clusters::new(&t, c)?;
            engine::cluster_permutation_values(
                &cl,
                &m,
                exact,
                &job(sv, seed, 0, start, count, threads, p),
            )
        },
    )?;
    vec2(py, v, 2)
}

/// An item statistic on the items of cluster-bootstrap resamples start..start+count (count × S).
#[pyfunction]
#[pyo3(signature = (data, clusters, name, params, seed, start, count, threads, progress=None, sub=0, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn cluster_item_bootstrap_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    name: &str,
    params: HashMap<String, f64>,
    seed: u64,
    start: u64,
    count: usize,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    let (st, label) = statistic(py, name, &params)?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let systems = t.width / st.n_inputs();
    let v = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let cl = Clusters::new(&t, c)?;
            let job = job(sv, seed, sub, start, count, threads, p);
            engine::cluster_item_bootstrap_values(&t, &cl, &st, &label, &job)
        },
    )?;
    vec2(py, v, systems.max(1))
}

/// An item statistic (x', y') on cluster-swap resamples start..start+count of two systems (count × 2).
#[pyfunction]
#[pyo3(signature = (data, clusters, name, params, seed, start, count, exact, threads, progress=None, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn cluster_item_permutation_values<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    name: &str,
    params: HashMap<String, f64>,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    let (st, label) = statistic(py, name, &params)?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let v = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let cl = Clusters::new(&t, c)?;
            let job = job(sv, seed, 0, start, count, threads, p);
            engine::cluster_item_permutation_values(&t, &cl, &st, &label, exact, &job)
        },
    )?;
    vec2(py, v, 2)
}

/// Run the passes a summary needs over cluster-bootstrap resamples of a native metric.
#[pyfunction]
#[pyo3(signature = (summary, data, clusters, metric, params, seed, threads, progress=None, sub=0, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn stream_cluster_bootstrap<'py>(
    py: Python<'py>,
    summary: &Bound<'py, PySummary>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    metric: &str,
    params: Option<Bound<'py, PyDict>>,
    seed: u64,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    sub: u64,
    stream: u32,
) -> PyResult<()> {
    let sv = version(stream)?;
    let m = parse_metric(py, metric, params.as_ref())?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let mut guard = summary.borrow_mut();
    let s = &mut guard.inner;
    if t.width != s.stride() * m.n_stats() {
        return Err(input(format!(
            "the summary reads {} systems per resample; the statistics hold {} columns for a metric of {} statistics",
            s.stride(),
            t.width,
            m.n_stats()
        )));
    }
    let total = stream_total(s);
    enter(py, progress.as_ref(), total, &Names::default(), |p| {
        let cl = Clusters::new(&t, c)?;
        stream::run(s, |start, len| {
            engine::cluster_bootstrap_values(&cl, &m, &job(sv, seed, sub, start, len, threads, p))
        })
    })
}

/// Run the passes a summary needs over cluster-swap resamples (random, or all
/// 2^G arrangements when `exact`) of a native metric.
#[pyfunction]
#[pyo3(signature = (summary, data, clusters, metric, params, seed, exact, threads, progress=None, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn stream_cluster_permutation<'py>(
    py: Python<'py>,
    summary: &Bound<'py, PySummary>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    metric: &str,
    params: Option<Bound<'py, PyDict>>,
    seed: u64,
    exact: bool,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
) -> PyResult<()> {
    let sv = version(stream)?;
    let m = parse_metric(py, metric, params.as_ref())?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let mut guard = summary.borrow_mut();
    let s = &mut guard.inner;
    if s.stride() != 2 {
        return Err(input(
            "a permutation summary reads two systems per resample".to_string(),
        ));
    }
    let total = stream_total(s);
    enter(py, progress.as_ref(), total, &Names::default(), |p| {
        let cl = Clusters::new(&t, c)?;
        let sw = engine::Swapper::new(&cl.table())?;
        stream::run(s, |start, len| {
            let job = job(sv, seed, 0, start, len, threads, p);
            engine::cluster_swap_values_range(&cl, &sw, &m, exact, &job)
        })
    })
}

/// One pairwise shard on cluster-bootstrap resamples: (counts S×S, per-block δ* sums (blocks·S)×S).
#[pyfunction]
#[pyo3(signature = (data, clusters, metric, params, seed, sub, start, stop, observed, variant, alternative, orient, means, threads, progress=None, stream=STREAM_VERSION))]
#[allow(clippy::too_many_arguments)]
fn cluster_pairwise_shard<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    clusters: PyReadonlyArray1<'py, u32>,
    metric: &str,
    params: Option<Bound<'py, PyDict>>,
    seed: u64,
    sub: u64,
    start: u64,
    stop: u64,
    observed: Vec<f64>,
    variant: &str,
    alternative: &str,
    orient: f64,
    means: Option<Vec<f64>>,
    threads: usize,
    progress: Option<Bound<'py, PyAny>>,
    stream: u32,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let sv = version(stream)?;
    let m = parse_metric(py, metric, params.as_ref())?;
    let spec = pair_spec(variant, alternative, orient)?;
    let t = table(&data)?;
    let c = codes(&clusters)?;
    let s = observed.len();
    if stop < start {
        return Err(input(format!("shard [{start}, {stop}) is empty backwards")));
    }
    let count = usize::try_from(stop - start).map_err(|_| input("shard too large".into()))?;
    let (counts, sums) = enter(
        py,
        progress.as_ref(),
        count as u64,
        &Names::default(),
        |p| {
            let cl = Clusters::new(&t, c)?;
            let job = job(sv, seed, sub, start, count, threads, p);
            crate::pairwise::cluster_pairwise_shard(
                &cl,
                &m,
                &observed,
                spec,
                means.as_deref(),
                &job,
            )
        },
    )?;
    Ok((u64_matrix(py, counts, s)?, vec2(py, sums, s)?))
}

/// The clusters drawn by cluster-bootstrap resamples start..start+count (count × G,
/// in draw order): `item_indices(G, ...)`, named for what it gives here.
#[pyfunction]
#[pyo3(signature = (n_clusters, seed, start, count, sub=0, stream=STREAM_VERSION))]
fn cluster_draws<'py>(
    py: Python<'py>,
    n_clusters: usize,
    seed: u64,
    start: u64,
    count: usize,
    sub: u64,
    stream: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let sv = version(stream)?;
    if n_clusters == 0 || n_clusters as u64 > 1 << 32 {
        return Err(input("n_clusters must be in 1..=2^32".to_string()));
    }
    let v = quick(py, &Names::default(), || {
        Ok(engine::index_block(sv, n_clusters, seed, sub, start, count))
    })?;
    let v: Vec<i64> = v.into_iter().map(i64::from).collect();
    Ok(PyArray1::from_vec(py, v)
        .reshape([count, n_clusters])?
        .into_any())
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cluster_sums, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_bootstrap_values, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_bootstrap_sums, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_permutation_values, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_item_bootstrap_values, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_item_permutation_values, m)?)?;
    m.add_function(wrap_pyfunction!(stream_cluster_bootstrap, m)?)?;
    m.add_function(wrap_pyfunction!(stream_cluster_permutation, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_pairwise_shard, m)?)?;
    m.add_function(wrap_pyfunction!(cluster_draws, m)?)?;
    Ok(())
}
