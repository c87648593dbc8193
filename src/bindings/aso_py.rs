//! Glue for `crate::aso`: Almost Stochastic Order over seed runs. Python
//! (`sigfast.seeds`) owns defaults, messages and ε_min; these functions copy
//! the scores, run the bootstrap with the GIL released (Ctrl-C and progress
//! through `errors::enter`) and return plain arrays.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use super::errors::quick;
use super::plan_py::PyJob;
use crate::aso::{self, AsoData};
use crate::Error;

fn scores(a: &PyReadonlyArray1<'_, f64>) -> PyResult<Vec<f64>> {
    Ok(a.as_slice()
        .map_err(|_| PyErr::from(Error::input("scores must be a contiguous float64 array")))?
        .to_vec())
}

/// Per pair: observed violation ratio, bootstrap count, mean and population
/// standard deviation; with `keep`, the violation ratios of every resample
/// (n_resamples × pairs).
type Boot<'py> = (
    Vec<f64>,
    Vec<u64>,
    Vec<f64>,
    Vec<f64>,
    Option<Bound<'py, PyAny>>,
);

/// ASO's bootstrap of every pair's violation ratio over the job's resamples
/// (system `s` on sub-stream `s` of the job's seed and stream version).
#[pyfunction]
#[pyo3(signature = (systems, names, pairs, dt, job, keep=false))]
fn aso_bootstrap<'py>(
    py: Python<'py>,
    systems: Vec<PyReadonlyArray1<'py, f64>>,
    names: Vec<String>,
    pairs: Vec<(usize, usize)>,
    dt: f64,
    job: &Bound<'py, PyJob>,
    keep: bool,
) -> PyResult<Boot<'py>> {
    let owned = systems.iter().map(scores).collect::<PyResult<Vec<_>>>()?;
    let refs: Vec<&[f64]> = owned.iter().map(Vec::as_slice).collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let data = AsoData::new(&refs, &name_refs, dt)?;
    let job = job.get();
    let n_resamples = job.count;
    let boot = job.run(py, |j| data.bootstrap(&pairs, keep, j))?;
    let samples = match boot.samples {
        Some(v) => Some(
            PyArray1::from_vec(py, v)
                .reshape([n_resamples, pairs.len()])?
                .into_any(),
        ),
        None => None,
    };
    let ps = &boot.pairs;
    Ok((
        ps.iter().map(|s| s.violation_ratio).collect(),
        ps.iter().map(|s| s.boot.count).collect(),
        ps.iter().map(|s| s.boot.mean).collect(),
        ps.iter().map(|s| s.boot.sd()).collect(),
        samples,
    ))
}

/// The violation ratio of two score lists' empirical quantile functions.
#[pyfunction]
fn aso_violation_ratio(
    py: Python<'_>,
    a: PyReadonlyArray1<'_, f64>,
    b: PyReadonlyArray1<'_, f64>,
    dt: f64,
) -> PyResult<f64> {
    let (a, b) = (scores(&a)?, scores(&b)?);
    quick(py, || aso::violation_ratio(&a, &b, dt))
}

/// The integration grid for `dt` (numpy's `arange(dt, 1, dt)`).
#[pyfunction]
fn aso_grid(py: Python<'_>, dt: f64) -> PyResult<Bound<'_, PyArray1<f64>>> {
    let g = quick(py, || aso::grid(dt))?;
    Ok(PyArray1::from_vec(py, g))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TAG_ASO", aso::TAG_ASO)?;
    m.add_function(wrap_pyfunction!(aso_bootstrap, m)?)?;
    m.add_function(wrap_pyfunction!(aso_violation_ratio, m)?)?;
    m.add_function(wrap_pyfunction!(aso_grid, m)?)?;
    Ok(())
}
