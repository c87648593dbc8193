//! Glue for `crate::itemstat` and `crate::meta`: item-level statistics,
//! resample index blocks for Python callables (the plan's draws, from a
//! `_native.Job`), and metric meta-evaluation (correlations, BOOT-*/PERM-*
//! resampling on the engine's draw blocks, Williams) under a `MetricHandle`.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::errors::quick;
use super::plan_py::PyJob;
use super::{parse_alternative, vec2, MetricHandle};
use crate::itemstat::ItemStatistic;
use crate::meta::{self, Level, MetaData, Scheme};

fn input(m: impl Into<String>) -> PyErr {
    PyErr::from(crate::Error::Input(m.into()))
}

/// The item statistic a handle holds, with its label: a metric of summed
/// statistics is a `MetricError` here.
fn item_statistic_of(h: &MetricHandle) -> PyResult<(&ItemStatistic, &str)> {
    match h.r.metric.on_items() {
        Some(st) => Ok((st, &h.r.label)),
        None => Err(PyErr::from(crate::Error::metric(format!(
            "metric '{}' is a function of summed statistics, not an item statistic",
            h.r.label
        )))),
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
    quick(py, || {
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
    quick(py, || {
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

/// Item indices of the job's bootstrap resamples (count × n, int64): the
/// draws of the plan's item bootstrap; with n the number of clusters, the
/// clusters a cluster bootstrap draws (the job's threads and progress are
/// not read).
#[pyfunction]
fn item_indices<'py>(
    py: Python<'py>,
    n: usize,
    job: &Bound<'py, PyJob>,
) -> PyResult<Bound<'py, PyAny>> {
    let j = job.get();
    if n == 0 || n as u64 > 1 << 32 {
        return Err(input("n must be in 1..=2^32"));
    }
    let (v, count) = (j.version(), j.count);
    let p = crate::engine::Progress::new();
    let e = j.engine(&p);
    let idx = quick(py, || {
        Ok(crate::engine::index_block(
            v, n, e.seed, e.sub, e.start, count,
        ))
    })?;
    let idx: Vec<i64> = idx.into_iter().map(i64::from).collect();
    Ok(PyArray1::from_vec(py, idx).reshape([count, n])?.into_any())
}

/// Swap masks of the job's permutation resamples (`count × n`, bool): the
/// swaps of the plan's permutation (`exact`: the bits of the resample's index).
#[pyfunction]
#[pyo3(signature = (n, job, exact = false))]
fn swap_masks<'py>(
    py: Python<'py>,
    n: usize,
    job: &Bound<'py, PyJob>,
    exact: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let j = job.get();
    if n == 0 || n as u64 > 1 << 32 {
        return Err(input("n must be in 1..=2^32"));
    }
    let (v, count) = (j.version(), j.count);
    let p = crate::engine::Progress::new();
    let e = j.engine(&p);
    let m = quick(py, || {
        Ok(crate::engine::swap_block(
            v, n, e.seed, e.start, count, exact,
        ))
    })?;
    let m: Vec<bool> = m.into_iter().map(|b| b == 1).collect();
    Ok(PyArray1::from_vec(py, m).reshape([count, n])?.into_any())
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
    let mut d = MetaData::new(h, m, sh[0], sh[1]).map_err(PyErr::from)?;
    d.drop_empty_systems = drop_empty;
    Ok(d)
}

/// Observed level correlation of each metric (metrics: k × (S·N)) under an
/// item statistic's handle.
#[pyfunction]
fn meta_observed<'py>(
    py: Python<'py>,
    human: PyReadonlyArray2<'py, f64>,
    metrics: PyReadonlyArray2<'py, f64>,
    level: &str,
    metric: &Bound<'py, MetricHandle>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let d = meta_data(&human, &metrics)?;
    let lv = Level::parse(level)?;
    let (st, _) = item_statistic_of(metric.get())?;
    let v = quick(py, || {
        Ok((0..d.k).map(|m| d.observed(lv, st, m)).collect::<Vec<_>>())
    })?;
    Ok(PyArray1::from_vec(py, v))
}

/// Percentile intervals of every metric and every pair's difference over
/// the job's bootstrap resamples (its count; BOOT-`scheme`), streamed in
/// bounded memory: (intervals k × 2, defined resamples per metric, pair
/// intervals, defined resamples per pair, the values count × k when `keep`
/// else None, passes).
#[pyfunction]
#[pyo3(signature = (human, metrics, level, metric, scheme, job, confidence, keep=false, drop_empty=true))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn meta_bootstrap_intervals<'py>(
    py: Python<'py>,
    human: PyReadonlyArray2<'py, f64>,
    metrics: PyReadonlyArray2<'py, f64>,
    level: &str,
    metric: &Bound<'py, MetricHandle>,
    scheme: &str,
    job: &Bound<'py, PyJob>,
    confidence: f64,
    keep: bool,
    drop_empty: bool,
) -> PyResult<(
    Vec<(f64, f64)>,
    Vec<u64>,
    Vec<(f64, f64)>,
    Vec<u64>,
    Option<Bound<'py, PyAny>>,
    usize,
)> {
    let d = meta_data_with(&human, &metrics, drop_empty)?;
    let lv = Level::parse(level)?;
    let sc = Scheme::parse(scheme)?;
    let (st, _) = item_statistic_of(metric.get())?;
    let k = d.k;
    let o = job.get().run(py, |j| {
        meta::bootstrap_intervals(&d, lv, st, sc, confidence, keep, j)
    })?;
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

/// Permutation tests (PERM-`scheme`) of metric pairs over the job's
/// resamples: (observed δ, counts, valid resamples).
#[pyfunction]
#[pyo3(signature = (human, metrics, level, metric, scheme, pairs, alternative, job))]
#[allow(clippy::too_many_arguments)]
fn meta_permutation<'py>(
    py: Python<'py>,
    human: PyReadonlyArray2<'py, f64>,
    metrics: PyReadonlyArray2<'py, f64>,
    level: &str,
    metric: &Bound<'py, MetricHandle>,
    scheme: &str,
    pairs: Vec<(usize, usize)>,
    alternative: &str,
    job: &Bound<'py, PyJob>,
) -> PyResult<(Vec<f64>, Vec<u64>, Vec<u64>)> {
    let d = meta_data(&human, &metrics)?;
    let lv = Level::parse(level)?;
    let sc = Scheme::parse(scheme)?;
    let (st, _) = item_statistic_of(metric.get())?;
    let alt = parse_alternative(alternative)?;
    let o = job
        .get()
        .run(py, |j| meta::permutation(&d, lv, st, sc, &pairs, alt, j))?;
    Ok((o.observed, o.counts, o.valid))
}

/// Williams' t for dependent correlations (r12, r13 share variable 1).
#[pyfunction]
fn williams_t(py: Python<'_>, r12: f64, r13: f64, r23: f64, n: f64) -> PyResult<f64> {
    quick(py, || Ok(meta::williams_t(r12, r13, r23, n)))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TAG_META_BOOT", crate::rng::TAG_META_BOOT)?;
    m.add("TAG_META_PERM", crate::rng::TAG_META_PERM)?;
    m.add_function(wrap_pyfunction!(item_statistic, m)?)?;
    m.add_function(wrap_pyfunction!(tie_calibration, m)?)?;
    m.add_function(wrap_pyfunction!(item_indices, m)?)?;
    m.add_function(wrap_pyfunction!(swap_masks, m)?)?;
    m.add_function(wrap_pyfunction!(meta_observed, m)?)?;
    m.add_function(wrap_pyfunction!(meta_bootstrap_intervals, m)?)?;
    m.add_function(wrap_pyfunction!(meta_permutation, m)?)?;
    m.add_function(wrap_pyfunction!(williams_t, m)?)?;
    Ok(())
}
