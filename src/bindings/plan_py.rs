//! Glue for `crate::plan`: the job value (`_native.Job`), the plan value
//! (`_native.Plan`) and one binding per question: `resample_values` (every
//! resample's values), `resample_summary` (a test or an interval streamed in
//! bounded memory) and `resample_pairs` (all pairs, one shard).

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use super::errors::{enter, quick};
use super::PySummary;
use super::{input, pair_spec, table, u64_matrix, vec2, MetricHandle};
use crate::engine::{self, Resampling, Scheme};
use crate::plan::{self, Draw, Input, Plan};
use crate::rng::{Version, STREAM_VERSION};
use crate::Error;

/// What `__reduce__` of a job gives pickle: seed, count, start, sub, threads, stream.
type JobArgs = (u64, usize, u64, u64, usize, u32);

/// The job of a resampling call as one value: resamples `start .. start +
/// count` of the stream (seed, sub-stream `sub`, stream version `stream`),
/// on `threads` threads (0: one per core), reporting to `progress(done,
/// total)`. Every resampling binding takes one; the stream version is
/// checked once, here.
#[pyclass(frozen, module = "sigfast._native", name = "Job")]
pub(crate) struct PyJob {
    #[pyo3(get)]
    seed: u64,
    #[pyo3(get)]
    pub(super) count: usize,
    #[pyo3(get)]
    start: u64,
    #[pyo3(get)]
    sub: u64,
    #[pyo3(get)]
    threads: usize,
    version: Version,
    progress: Option<Py<PyAny>>,
}

#[pymethods]
impl PyJob {
    #[new]
    #[pyo3(signature = (seed, count=0, start=0, sub=0, threads=0, stream=STREAM_VERSION, progress=None))]
    fn py_new(
        seed: u64,
        count: usize,
        start: u64,
        sub: u64,
        threads: usize,
        stream: u32,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let version = Python::attach(|py| quick(py, || Version::from_number(stream)))?;
        Ok(PyJob {
            seed,
            count,
            start,
            sub,
            threads,
            version,
            progress,
        })
    }

    /// The stream version's number.
    #[getter]
    fn stream(&self, py: Python<'_>) -> PyResult<u32> {
        quick(py, || Ok(self.version.number()))
    }

    /// A job pickles without its progress callback (a callback stays in its process).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, JobArgs)> {
        let j = slf.get();
        let args = quick(slf.py(), || {
            Ok((
                j.seed,
                j.count,
                j.start,
                j.sub,
                j.threads,
                j.version.number(),
            ))
        })?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        quick(py, || {
            Ok(format!(
                "Job(seed={}, count={}, start={}, sub={}, threads={}, stream={})",
                self.seed,
                self.count,
                self.start,
                self.sub,
                self.threads,
                self.version.number()
            ))
        })
    }
}

impl PyJob {
    /// The engine's job over this job's resamples, reporting to `p`.
    pub(super) fn engine<'a>(&self, p: &'a engine::Progress) -> engine::Job<'a> {
        engine::Job::new(self.seed, self.count, self.threads, p)
            .with_stream(self.version)
            .on_sub(self.sub)
            .range(self.start, self.count)
    }

    /// Run `f` on the engine's job with the GIL released (Ctrl-C and
    /// progress through [`enter`], `total` steps).
    pub(super) fn run_total<T: Send>(
        &self,
        py: Python<'_>,
        total: u64,
        f: impl FnOnce(&engine::Job<'_>) -> crate::Result<T> + Send,
    ) -> PyResult<T> {
        let cb = self.progress.as_ref().map(|c| c.bind(py).clone());
        enter(py, cb.as_ref(), total, |p| f(&self.engine(p)))
    }

    /// [`PyJob::run_total`] over the job's `count` resamples.
    pub(super) fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&engine::Job<'_>) -> crate::Result<T> + Send,
    ) -> PyResult<T> {
        self.run_total(py, self.count as u64, f)
    }

    /// The stream version.
    pub(super) fn version(&self) -> Version {
        self.version
    }
}

/// How resamples are drawn and what each reduces, as one value: the
/// statistics `data` (items × width, or one row per observation for a
/// design), the input (`metric`: a handle's metric of summed statistics or
/// its item statistic; None: the summed statistics themselves), the test
/// (`"bootstrap"` or `"permutation"`, `exact`: all 2^n arrangements) and the
/// scheme (`resampling`: "items", "distinct" or "auto"; `clusters`: uint32
/// codes, whole clusters drawn or swapped; "two-level" or "crossed": a
/// bootstrap of the rows' items (`clusters`) and their repeats or prompts
/// (`second`, uint32 codes)).
#[pyclass(frozen, module = "sigfast._native", name = "Plan")]
pub(crate) struct PyPlan {
    data: Py<PyArray2<f64>>,
    metric: Option<Py<MetricHandle>>,
    draw: Draw,
    resampling: Kind,
    clusters: Option<Py<PyArray1<u32>>>,
    second: Option<Py<PyArray1<u32>>>,
}

/// The scheme a plan names: rows (or clusters, given codes) or a design.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Rows(Resampling),
    TwoLevel,
    Crossed,
}

#[pymethods]
impl PyPlan {
    #[new]
    #[pyo3(signature = (data, metric=None, test="bootstrap", resampling="items", clusters=None, exact=false, second=None))]
    fn py_new(
        data: Bound<'_, PyArray2<f64>>,
        metric: Option<Bound<'_, MetricHandle>>,
        test: &str,
        resampling: &str,
        clusters: Option<Bound<'_, PyArray1<u32>>>,
        exact: bool,
        second: Option<Bound<'_, PyArray1<u32>>>,
    ) -> PyResult<Self> {
        let (has_clusters, has_second) = (clusters.is_some(), second.is_some());
        let (draw, resampling) = quick(data.py(), || {
            let kind = kind_of(resampling, has_clusters, has_second)?;
            Ok((draw_of(test, exact)?, kind))
        })?;
        Ok(PyPlan {
            data: data.unbind(),
            metric: metric.map(Bound::unbind),
            draw,
            resampling,
            clusters: clusters.map(Bound::unbind),
            second: second.map(Bound::unbind),
        })
    }
}

/// The draw a test names.
fn draw_of(test: &str, exact: bool) -> crate::Result<Draw> {
    match test {
        "bootstrap" if !exact => Ok(Draw::Bootstrap),
        "bootstrap" => Err(Error::input("an exact test is a permutation test")),
        "permutation" => Ok(Draw::Swap { exact }),
        _ => Err(Error::input(format!(
            "unknown test {test:?} (bootstrap or permutation)"
        ))),
    }
}

/// The scheme `resampling` names ("items", "distinct", "auto", "two-level"
/// or "crossed"); a design needs the rows' item codes (`clusters`) and their
/// repeat or prompt codes (`second`), and only a design takes `second`.
fn kind_of(s: &str, clusters: bool, second: bool) -> crate::Result<Kind> {
    let kind = match s {
        "items" => Kind::Rows(Resampling::Items),
        "distinct" => Kind::Rows(Resampling::Distinct),
        "auto" => Kind::Rows(Resampling::Auto),
        "two-level" => Kind::TwoLevel,
        "crossed" => Kind::Crossed,
        _ => return Err(Error::input(format!("unknown resampling {s:?}"))),
    };
    match kind {
        Kind::TwoLevel | Kind::Crossed if !(clusters && second) => Err(Error::input(format!(
            "resampling {s:?} needs the rows' item codes (clusters=) and their {} codes (second=)",
            if matches!(kind, Kind::Crossed) {
                "prompt"
            } else {
                "repeat"
            }
        ))),
        Kind::Rows(_) if second => Err(Error::input(format!(
            "second= codes belong to resampling 'two-level' or 'crossed', not {s:?}"
        ))),
        _ => Ok(kind),
    }
}

/// The engine's scheme of a plan's kind and codes (checked by [`kind_of`]).
fn scheme_of<'a>(kind: Kind, clusters: Option<&'a [u32]>, second: Option<&'a [u32]>) -> Scheme<'a> {
    match (kind, clusters, second) {
        (Kind::TwoLevel, Some(items), Some(repeats)) => Scheme::TwoLevel { items, repeats },
        (Kind::Crossed, Some(items), Some(prompts)) => Scheme::Crossed { items, prompts },
        (Kind::Rows(r), c, _) => Scheme::new(r, c),
        (Kind::TwoLevel | Kind::Crossed, ..) => unreachable!("kind_of checks a design's codes"),
    }
}

/// A contiguous slice of uint32 codes.
fn slice_of<'a>(
    a: &'a Option<numpy::PyReadonlyArray1<'_, u32>>,
    what: &str,
) -> PyResult<Option<&'a [u32]>> {
    a.as_ref()
        .map(|a| {
            a.as_slice()
                .map_err(|_| input(format!("{what} codes must be a contiguous uint32 array")))
        })
        .transpose()
}

impl PyPlan {
    /// Run `f` on the engine's plan (the arrays borrowed read-only).
    fn with<T>(&self, py: Python<'_>, f: impl FnOnce(&Plan<'_>) -> PyResult<T>) -> PyResult<T> {
        let data = self.data.bind(py).readonly();
        let codes = self.clusters.as_ref().map(|c| c.bind(py).readonly());
        let second = self.second.as_ref().map(|c| c.bind(py).readonly());
        let (codes, second) = (slice_of(&codes, "cluster")?, slice_of(&second, "second")?);
        let input = match self.metric.as_ref().map(Py::get) {
            None => Input::Sums,
            Some(h) if h.r.metric.is_item() => match h.r.metric.on_items() {
                Some(stat) => Input::Items {
                    stat,
                    label: &h.r.label,
                },
                None => {
                    return Err(PyErr::from(crate::Error::metric(format!(
                        "metric '{}' has no native item statistic",
                        h.r.label
                    ))))
                }
            },
            Some(h) => Input::Metric(&h.r.metric),
        };
        f(&Plan {
            table: table(&data)?,
            scheme: scheme_of(self.resampling, codes, second),
            draw: self.draw,
            input,
        })
    }
}

/// Every resample's values of a plan over the job's resamples (count ×
/// values: one per system for a metric or an item statistic, two for a
/// permutation's (x', y'), the table's width for summed statistics) and the
/// distinct-row count when the bootstrap draws distinct rows.
#[pyfunction]
fn resample_values<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyPlan>,
    job: &Bound<'py, PyJob>,
) -> PyResult<(Bound<'py, PyAny>, Option<usize>)> {
    let job = job.get();
    let (v, d, w) = plan.get().with(py, |p| {
        let (v, d) = job.run(py, |j| plan::values(p, j))?;
        Ok((v, d, p.width()))
    })?;
    Ok((vec2(py, v, w.max(1))?, d))
}

/// Run the passes a summary needs over the plan's resamples `0 .. total`
/// (a test of two systems, an interval) in bounded memory; returns the
/// distinct-row count when the bootstrap draws distinct rows. The job gives
/// the stream, threads and progress (its start and count are not read).
#[pyfunction]
fn resample_summary<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyPlan>,
    job: &Bound<'py, PyJob>,
    summary: &Bound<'py, PySummary>,
) -> PyResult<Option<usize>> {
    let job = job.get();
    let mut guard = summary.borrow_mut();
    let s = &mut guard.inner;
    let total = s.total().saturating_mul(s.expected_passes() as u64);
    plan.get()
        .with(py, |p| job.run_total(py, total, |j| plan::summary(p, s, j)))
}

/// One shard of all pairs (the job's resamples, starting on a multiple of
/// `PAIR_BLOCK`): (counts S×S, per-block δ* sums (blocks·S)×S, distinct rows
/// when drawing them); `test` is (variant, alternative, orient).
#[pyfunction]
#[pyo3(signature = (plan, job, observed, test, means=None))]
fn resample_pairs<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyPlan>,
    job: &Bound<'py, PyJob>,
    observed: Vec<f64>,
    test: (String, String, f64),
    means: Option<Vec<f64>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Option<usize>)> {
    let spec = pair_spec(&test.0, &test.1, test.2)?;
    let job = job.get();
    let s = observed.len();
    let (c, sums, d) = plan.get().with(py, |p| {
        job.run(py, |j| plan::pairs(p, &observed, spec, means.as_deref(), j))
    })?;
    Ok((u64_matrix(py, c, s)?, vec2(py, sums, s)?, d))
}

/// The row counts of a design's bootstrap resamples (the job's, count ×
/// rows in the caller's row order; two-level: the draws of each repeat over
/// every copy of its item; crossed: u_i · v_p) and each resample's item
/// count: the draws of `resampling` "two-level" or "crossed" with the rows'
/// item codes `clusters` and repeat or prompt codes `second`, exposed so that
/// an independent loop can check the sums (the job's threads and progress
/// are not read).
#[pyfunction]
fn design_weights<'py>(
    py: Python<'py>,
    resampling: &str,
    clusters: numpy::PyReadonlyArray1<'py, u32>,
    second: numpy::PyReadonlyArray1<'py, u32>,
    job: &Bound<'py, PyJob>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let kind = quick(py, || match kind_of(resampling, true, true)? {
        k @ (Kind::TwoLevel | Kind::Crossed) => Ok(k),
        Kind::Rows(_) => Err(Error::input(format!(
            "design_weights draws 'two-level' or 'crossed', not {resampling:?}"
        ))),
    })?;
    let (c, s) = (Some(clusters), Some(second));
    let (items, other) = (slice_of(&c, "cluster")?, slice_of(&s, "second")?);
    let rows = items.map_or(0, <[u32]>::len);
    let scheme = scheme_of(kind, items, other);
    let j = job.get();
    let (v, count) = (j.version(), j.count);
    let p = engine::Progress::new();
    let e = j.engine(&p);
    let zeros = vec![0.0; rows];
    let (w, items) = quick(py, || {
        engine::check_resamples(count.max(1) as u64)?;
        let t = engine::Table::new(&zeros, rows, 1)?;
        let d = scheme.design(&t)?.expect("a design scheme");
        let mut w = engine::alloc_rows(count, rows)?;
        let mut items = Vec::with_capacity(count);
        for (b, out) in w.chunks_mut(rows.max(1)).enumerate() {
            items.push(d.weights(v, e.seed, e.sub, e.start + b as u64, out));
        }
        Ok((w, items))
    })?;
    Ok((vec2(py, w, rows)?, PyArray1::from_vec(py, items).into_any()))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyJob>()?;
    m.add_class::<PyPlan>()?;
    m.add_function(wrap_pyfunction!(resample_values, m)?)?;
    m.add_function(wrap_pyfunction!(resample_summary, m)?)?;
    m.add_function(wrap_pyfunction!(resample_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(design_weights, m)?)?;
    Ok(())
}
