//! Glue for `crate::battles`: one function, the Bradley–Terry fit of a
//! count table with its three covariance matrices.

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::quick;
use super::plan_py::PyJob;
use super::{input, vec2};
use crate::battles::{self, Cells, Ties};

fn col<T: Copy + numpy::Element>(a: &PyReadonlyArray1<'_, T>, what: &str) -> PyResult<Vec<T>> {
    a.as_slice().map(<[T]>::to_vec).map_err(|_| {
        input(format!(
            "the count table's {what} must be a contiguous array"
        ))
    })
}

/// Bradley–Terry fit of a count table (cells: a, b, outcome 0/1/2, cluster code,
/// Σw, Σw²) among `n_models` models; `ties` is "half" or "davidson". Returns a
/// dict: theta (NaN where not fitted), log_nu, status, bound, fitted, cov_model,
/// cov_sandwich, cov_cluster (p × p over the fitted models, then log ν),
/// n_clusters, loglik, iterations.
#[pyfunction]
#[pyo3(signature = (a, b, outcome, cluster, w, w2, n_models, ties, ridge=0.0, crit=1.920_729_410_347_062, anchor=None))]
#[allow(clippy::too_many_arguments)]
fn battles_fit<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u32>,
    b: PyReadonlyArray1<'py, u32>,
    outcome: PyReadonlyArray1<'py, u8>,
    cluster: PyReadonlyArray1<'py, u32>,
    w: PyReadonlyArray1<'py, f64>,
    w2: PyReadonlyArray1<'py, f64>,
    n_models: usize,
    ties: &str,
    ridge: f64,
    crit: f64,
    anchor: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let t = tie_model(ties)?;
    let cells = cells_of(&a, &b, &outcome, &cluster, &w, &w2)?;
    let f = quick(py, || {
        battles::fit(&cells, n_models, t, ridge, crit, anchor)
    })?;
    let d = PyDict::new(py);
    d.set_item("theta", PyArray1::from_vec(py, f.theta))?;
    d.set_item("log_nu", f.log_nu)?;
    d.set_item("status", PyArray1::from_vec(py, f.status))?;
    d.set_item("bound", PyArray1::from_vec(py, f.bound))?;
    d.set_item(
        "fitted",
        PyArray1::from_vec(py, f.fitted.iter().map(|&i| i as u64).collect::<Vec<_>>()),
    )?;
    d.set_item("cov_model", vec2(py, f.cov_model, f.p)?)?;
    d.set_item("cov_sandwich", vec2(py, f.cov_sandwich, f.p)?)?;
    d.set_item("cov_cluster", vec2(py, f.cov_cluster, f.p)?)?;
    d.set_item("n_clusters", f.n_clusters)?;
    d.set_item("loglik", f.loglik)?;
    d.set_item("iterations", f.iterations)?;
    Ok(d)
}

fn tie_model(ties: &str) -> PyResult<Ties> {
    match ties {
        "half" => Ok(Ties::Half),
        "davidson" => Ok(Ties::Davidson),
        other => Err(input(format!(
            "unknown tie model {other:?} (half or davidson)"
        ))),
    }
}

fn cells_of(
    a: &PyReadonlyArray1<'_, u32>,
    b: &PyReadonlyArray1<'_, u32>,
    outcome: &PyReadonlyArray1<'_, u8>,
    cluster: &PyReadonlyArray1<'_, u32>,
    w: &PyReadonlyArray1<'_, f64>,
    w2: &PyReadonlyArray1<'_, f64>,
) -> PyResult<Cells> {
    Ok(Cells {
        a: col(a, "a")?,
        b: col(b, "b")?,
        outcome: col(outcome, "outcome")?,
        cluster: col(cluster, "cluster")?,
        w: col(w, "w")?,
        w2: col(w2, "w2")?,
    })
}

/// Bootstrap of the Bradley–Terry fit of a count table (see `battles_fit`):
/// the job's resamples drawing whole clusters (`by_cluster`) or battles
/// (each cell's w a whole count) from the plan's draws (`item_indices` over
/// the clusters or battles), refitted from the full fit. Returns
/// `count × (n_models + 1)`: θ per model (NaN: not rated in that resample),
/// then log ν.
#[pyfunction]
#[pyo3(signature = (a, b, outcome, cluster, w, w2, n_models, ties, by_cluster, job))]
#[allow(clippy::too_many_arguments)]
fn battles_bootstrap<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u32>,
    b: PyReadonlyArray1<'py, u32>,
    outcome: PyReadonlyArray1<'py, u8>,
    cluster: PyReadonlyArray1<'py, u32>,
    w: PyReadonlyArray1<'py, f64>,
    w2: PyReadonlyArray1<'py, f64>,
    n_models: usize,
    ties: &str,
    by_cluster: bool,
    job: &Bound<'py, PyJob>,
) -> PyResult<Bound<'py, PyAny>> {
    let t = tie_model(ties)?;
    let cells = cells_of(&a, &b, &outcome, &cluster, &w, &w2)?;
    let full = quick(py, || battles::fit(&cells, n_models, t, 0.0, 1.0, None))?;
    let v = job.get().run(py, |j| {
        battles::bootstrap(&cells, n_models, t, &full, by_cluster, j)
    })?;
    vec2(py, v, n_models + 1)
}

/// Covariate-adjusted Bradley–Terry (style control) on battles, one entry per
/// battle (a, b, outcome 0/1/2, cluster code, weight; `x`: battles ×
/// covariates, a's side minus b's): ties as half a win, P(a beats b) =
/// σ(θa − θb + xᵀβ). Returns a dict: theta (Σ = 0), beta, cov_model,
/// cov_sandwich, cov_cluster ((models + covariates)², θ first), n_clusters,
/// loglik, iterations.
#[pyfunction]
#[pyo3(signature = (a, b, outcome, cluster, w, x, n_models))]
#[allow(clippy::too_many_arguments)]
fn battles_fit_adjusted<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u32>,
    b: PyReadonlyArray1<'py, u32>,
    outcome: PyReadonlyArray1<'py, u8>,
    cluster: PyReadonlyArray1<'py, u32>,
    w: PyReadonlyArray1<'py, f64>,
    x: PyReadonlyArray2<'py, f64>,
    n_models: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let k = x.shape()[1];
    let xs = x
        .as_slice()
        .map_err(|_| input("the covariates must be a contiguous (C-order) array".to_string()))?
        .to_vec();
    let (a, b, o, c, w) = (
        col(&a, "a")?,
        col(&b, "b")?,
        col(&outcome, "outcome")?,
        col(&cluster, "cluster")?,
        col(&w, "w")?,
    );
    let f = quick(py, || {
        battles::fit_adjusted(&a, &b, &o, &c, &w, &xs, k, n_models)
    })?;
    let d = PyDict::new(py);
    d.set_item("theta", PyArray1::from_vec(py, f.theta))?;
    d.set_item("beta", PyArray1::from_vec(py, f.beta))?;
    d.set_item("cov_model", vec2(py, f.cov_model, f.p)?)?;
    d.set_item("cov_sandwich", vec2(py, f.cov_sandwich, f.p)?)?;
    d.set_item("cov_cluster", vec2(py, f.cov_cluster, f.p)?)?;
    d.set_item("n_clusters", f.n_clusters)?;
    d.set_item("loglik", f.loglik)?;
    d.set_item("iterations", f.iterations)?;
    Ok(d)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(battles_fit, m)?)?;
    m.add_function(wrap_pyfunction!(battles_fit_adjusted, m)?)?;
    m.add_function(wrap_pyfunction!(battles_bootstrap, m)?)?;
    Ok(())
}
