//! The private native module `sigfast._native`: thin glue over the engine.
//! Python owns defaults, validation messages and presentation; these
//! functions convert arrays, release the GIL while the engine runs, relay
//! progress, and turn Ctrl-C into `KeyboardInterrupt`.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};

use crate::engine::{self, Table};
use crate::inference::{self, Alternative, BootVariant};
use crate::metric::{self, Metric, Value};
use crate::rng::{Version, STREAM_VERSION};
use crate::stream;
use crate::Error;

pub(crate) mod errors;
use errors::{quick, MetricError};

mod aso_py;
mod battles_py;
mod chunk_py;
mod coref_py;
mod evalb_py;
mod meta_py;
mod plan_py;
mod rouge_py;
mod ter_py;
mod text_py;
mod ud_py;

/// A parameter value from Python (bool, int, float or str).
fn value(key: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(v.extract::<bool>()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Value::Str(v.extract::<String>()?));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Value::Float(v.extract::<f64>()?));
    }
    if let Ok(i) = v.extract::<i64>() {
        return Ok(Value::Int(i));
    }
    if let Ok(x) = v.extract::<f64>() {
        return Ok(Value::Float(x));
    }
    Err(MetricError::new_err(format!(
        "metric parameter {key}: expected a bool, number or string, got {}",
        v.get_type().name()?
    )))
}

fn given(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Value)>> {
    let mut out = Vec::new();
    if let Some(d) = params {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            if v.is_none() {
                continue;
            }
            out.push((key.clone(), value(&key, &v)?));
        }
    }
    Ok(out)
}

/// A metric resolved once from its name and parameters: the bindings take it
/// instead of a name and parameters, so a name crosses the boundary once.
/// Pickled as the name and parameters it was resolved from.
#[pyclass(frozen, module = "sigfast._native", name = "MetricHandle")]
pub(crate) struct MetricHandle {
    name: String,
    given: Vec<(String, Value)>,
    pub(crate) r: metric::Resolved,
}

#[pymethods]
impl MetricHandle {
    #[new]
    #[pyo3(signature = (name, params=None))]
    fn py_new(py: Python<'_>, name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        resolve(py, name, params)
    }

    /// The name to show (`f1`, `f0.5`, `chrf++`).
    #[getter]
    fn label(&self, py: Python<'_>) -> PyResult<String> {
        quick(py, || Ok(self.r.label.clone()))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let h = slf.get();
        let (name, given) = quick(py, || Ok((h.name.clone(), h.given.clone())))?;
        let d = PyDict::new(py);
        for (k, v) in &given {
            d.set_item(k, py_value(py, Some(v))?)?;
        }
        Ok((slf.get_type().into_any(), (name, d)))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        quick(py, || Ok(format!("MetricHandle({:?})", self.r.label)))
    }
}

/// A metric from the registry: unknown names and invalid parameters raise `MetricError`.
fn resolve(
    py: Python<'_>,
    name: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<MetricHandle> {
    let given = given(params)?;
    let r = quick(py, || metric::resolve(name, &given))?;
    Ok(MetricHandle {
        name: name.to_string(),
        given,
        r,
    })
}

/// What `__reduce__` gives pickle: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Bound<'py, PyDict>));

/// The metric of summed statistics a handle holds (the engine's sums paths);
/// an item-level statistic is a `MetricError` here (the item paths take it).
fn sums_metric(h: &MetricHandle) -> PyResult<&Metric> {
    if h.r.metric.is_item() {
        return Err(PyErr::from(Error::metric(format!(
            "metric '{}' is computed on the items themselves, not on summed statistics",
            h.r.label
        ))));
    }
    Ok(&h.r.metric)
}

/// The stream version numbered `v` (an `InputError` when unknown).
pub(crate) fn version(v: u32) -> PyResult<Version> {
    Version::from_number(v).map_err(PyErr::from)
}

fn input(m: String) -> PyErr {
    PyErr::from(Error::Input(m))
}

fn py_value<'py>(py: Python<'py>, v: Option<&Value>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        None => py.None().into_bound(py),
        Some(Value::Bool(b)) => b.into_pyobject(py)?.to_owned().into_any(),
        Some(Value::Int(i)) => i.into_pyobject(py)?.into_any(),
        Some(Value::Float(x)) => x.into_pyobject(py)?.into_any(),
        Some(Value::Str(s)) => s.into_pyobject(py)?.into_any(),
    })
}

fn default_value(d: metric::ParamDefault) -> Option<Value> {
    match d {
        metric::ParamDefault::Bool(b) => Some(Value::Bool(b)),
        metric::ParamDefault::Int(i) => Some(Value::Int(i)),
        metric::ParamDefault::Float(x) => Some(Value::Float(x)),
        metric::ParamDefault::Str(s) => Some(Value::Str(s.into())),
        metric::ParamDefault::Derived => None,
    }
}

/// The registry as data: one dict per metric (name, aliases, parameters, direction, scale,
/// statistic layout, invariants, ...), from [`metric::Entry::describe`].
fn metric_table(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let described = quick(py, || {
        metric::REGISTRY
            .iter()
            .map(metric::Entry::describe)
            .collect::<crate::Result<Vec<_>>>()
    })?;
    let out = PyList::empty(py);
    for m in described {
        let s = &m.spec;
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        let aliases = PyList::empty(py);
        for a in s.aliases {
            let ad = PyDict::new(py);
            ad.set_item("name", a.name)?;
            let defs = PyDict::new(py);
            for (k, v) in a.defaults {
                defs.set_item(*k, py_value(py, default_value(*v).as_ref())?)?;
            }
            ad.set_item("defaults", defs)?;
            aliases.append(ad)?;
        }
        d.set_item("aliases", aliases)?;
        let params = PyList::empty(py);
        for p in s.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("aliases", p.aliases.to_vec())?;
            pd.set_item("type", p.kind.type_name())?;
            match p.kind {
                metric::Kind::Float { min, max, open_min } => {
                    pd.set_item("min", min)?;
                    pd.set_item("max", max)?;
                    pd.set_item("open_min", open_min)?;
                }
                metric::Kind::Int { min, max } => {
                    pd.set_item("min", min)?;
                    pd.set_item("max", max)?;
                }
                metric::Kind::Choice(c) => pd.set_item("choices", c.to_vec())?,
                metric::Kind::Bool => {}
            }
            pd.set_item("default", py_value(py, default_value(p.default).as_ref())?)?;
            pd.set_item("help", p.help)?;
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        d.set_item("higher_is_better", m.higher_is_better)?;
        d.set_item("scale", s.scale.name())?;
        d.set_item("counts", s.counts)?;
        d.set_item("description", s.description)?;
        d.set_item("reference", s.reference)?;
        d.set_item("kind", m.kind)?;
        d.set_item("stat_names", m.stat_names)?;
        d.set_item("invariants", m.invariants)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Resolve a metric: its canonical name, label, validated parameters (defaults filled in),
/// statistic names, direction, scale and whether its statistics are counts.
#[pyfunction]
#[pyo3(signature = (name, params=None))]
fn metric_resolve<'py>(
    py: Python<'py>,
    name: &str,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let h = Bound::new(py, resolve(py, name, params)?)?;
    let r = &h.get().r;
    let d = PyDict::new(py);
    d.set_item("handle", &h)?;
    d.set_item("name", r.spec.name)?;
    d.set_item("label", &r.label)?;
    let p = PyDict::new(py);
    for (k, v) in r.params.items() {
        p.set_item(*k, py_value(py, v.as_ref())?)?;
    }
    d.set_item("params", p)?;
    d.set_item("stat_names", r.metric.stat_names())?;
    d.set_item("higher_is_better", r.metric.higher_is_better())?;
    d.set_item("scale", r.spec.scale.name())?;
    d.set_item("counts", r.spec.counts)?;
    d.set_item("description", r.spec.description)?;
    d.set_item("kind", if r.metric.is_item() { "items" } else { "sums" })?;
    Ok(d)
}

/// Check per-item statistics (items × k) against a metric's invariants
/// (declared in the registry): raises `InputError` naming the item and statistic.
#[pyfunction]
#[pyo3(signature = (stats, metric))]
fn metric_check<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    metric: &Bound<'py, MetricHandle>,
) -> PyResult<()> {
    let r = &metric.get().r;
    let data = stats
        .as_slice()
        .map_err(|_| input("statistics must be a C-contiguous float64 array".to_string()))?;
    let (counts, label) = (r.spec.counts, r.label.clone());
    quick(py, || r.metric.check_rows(data, counts, &label))
}

fn parse_alternative(s: &str) -> PyResult<Alternative> {
    match s {
        "two-sided" => Ok(Alternative::TwoSided),
        "greater" => Ok(Alternative::Greater),
        "less" => Ok(Alternative::Less),
        _ => Err(input(format!("unknown alternative {s:?}"))),
    }
}

fn table<'a>(a: &'a PyReadonlyArray2<'_, f64>) -> PyResult<Table<'a>> {
    let shape = a.shape();
    let data = a
        .as_slice()
        .map_err(|_| input("statistics must be a C-contiguous float64 array".to_string()))?;
    Table::new(data, shape[0], shape[1]).map_err(PyErr::from)
}

fn vec2<'py>(py: Python<'py>, v: Vec<f64>, cols: usize) -> PyResult<Bound<'py, PyAny>> {
    let rows = v.len().checked_div(cols).unwrap_or(0);
    Ok(PyArray1::from_vec(py, v).reshape([rows, cols])?.into_any())
}

fn parse_variant(variant: &str) -> PyResult<BootVariant> {
    match variant {
        "bk" => Ok(BootVariant::BergKirkpatrick),
        "koehn" => Ok(BootVariant::Koehn),
        "shifted" => Ok(BootVariant::Shifted),
        "sacrebleu" => Ok(BootVariant::SacreBleu),
        "moses" => Ok(BootVariant::Moses),
        _ => Err(input(format!("unknown bootstrap variant {variant:?}"))),
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
    let rows = v.len().checked_div(cols).unwrap_or(0);
    Ok(PyArray1::from_vec(py, v).reshape([rows, cols])?.into_any())
}

/// Pair counts from a block of metric values (rows × S): (counts S×S, δ* sums S×S);
/// `test` is (variant, alternative, orient), as `resample_pairs` takes it.
#[pyfunction]
#[pyo3(signature = (values, observed, test, means, threads))]
fn pair_counts<'py>(
    py: Python<'py>,
    values: PyReadonlyArray2<'py, f64>,
    observed: Vec<f64>,
    test: (String, String, f64),
    means: Option<Vec<f64>>,
    threads: usize,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let spec = pair_spec(&test.0, &test.1, test.2)?;
    let v = values
        .as_slice()
        .map_err(|_| input("values must be C-contiguous".to_string()))?;
    let s = observed.len();
    let (c, sums) = quick(py, || {
        crate::pairwise::count_block(v, s, &observed, spec, means.as_deref(), threads)
    })?;
    Ok((u64_matrix(py, c, s)?, vec2(py, sums, s)?))
}

/// The metric on each row of summed statistics (rows × k).
#[pyfunction]
fn metric_scores<'py>(
    py: Python<'py>,
    sums: PyReadonlyArray2<'py, f64>,
    metric: &Bound<'py, MetricHandle>,
    n_items: f64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let m = sums_metric(metric.get())?;
    let k = m.n_stats();
    if sums.shape()[1] != k {
        return Err(input(format!(
            "metric {} needs {k} statistics per row, got {}",
            metric.get().r.label,
            sums.shape()[1]
        )));
    }
    let data = sums
        .as_slice()
        .map_err(|_| input("sums must be C-contiguous".to_string()))?;
    let out: Vec<f64> = quick(py, || {
        Ok(data.chunks(k).map(|row| m.score(row, n_items)).collect())
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// The metric on each of a few rows of summed statistics given as lists (a
/// report's corpus scores): the same kernel as `metric_scores`, without an array.
#[pyfunction]
#[pyo3(signature = (rows, metric, n_items))]
fn metric_rows(
    py: Python<'_>,
    rows: Vec<Vec<f64>>,
    metric: &Bound<'_, MetricHandle>,
    n_items: f64,
) -> PyResult<Vec<f64>> {
    let m = sums_metric(metric.get())?;
    let k = m.n_stats();
    if let Some(r) = rows.iter().find(|r| r.len() != k) {
        return Err(input(format!(
            "metric {} needs {k} statistics per row, got {}",
            metric.get().r.label,
            r.len()
        )));
    }
    quick(py, || {
        Ok(rows.iter().map(|row| m.score(row, n_items)).collect())
    })
}

/// (count, total, p) of a paired-bootstrap variant.
#[pyfunction]
fn bootstrap_pvalue(
    py: Python<'_>,
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
        .map_err(|_| input("deltas must be contiguous".to_string()))?;
    quick(py, || {
        let p = inference::bootstrap_pvalue(d, observed, v, a, orient, plus_one);
        Ok((p.count, p.total, p.pvalue))
    })
}

/// (count, total, p) of a permutation test.
#[pyfunction]
fn permutation_pvalue(
    py: Python<'_>,
    deltas: PyReadonlyArray1<'_, f64>,
    observed: f64,
    alternative: &str,
    plus_one: bool,
) -> PyResult<(u64, u64, f64)> {
    let a = parse_alternative(alternative)?;
    let d = deltas
        .as_slice()
        .map_err(|_| input("deltas must be contiguous".to_string()))?;
    quick(py, || {
        let p = inference::permutation_pvalue(d, observed, a, plus_one);
        Ok((p.count, p.total, p.pvalue))
    })
}

/// Equal-tailed percentile interval (numpy's linear quantiles).
#[pyfunction]
fn percentile_interval(
    py: Python<'_>,
    values: PyReadonlyArray1<'_, f64>,
    confidence: f64,
) -> PyResult<(f64, f64)> {
    let v = values
        .as_slice()
        .map_err(|_| input("values must be contiguous".to_string()))?;
    if v.is_empty() {
        return Err(input("no values".to_string()));
    }
    quick(py, || Ok(inference::percentile_interval(v, confidence)))
}

/// A streaming summary of a test (see `crate::stream`): counts, the blocked
/// mean of θ and exact quantiles over `total` resamples of `stride` values,
/// in bounded memory.
#[pyclass(module = "sigfast._native", name = "Summary")]
struct PySummary {
    inner: stream::Summary,
}

fn parse_quantity(s: &str) -> PyResult<stream::Quantity> {
    match s {
        "theta" => Ok(stream::Quantity::Theta),
        "x" => Ok(stream::Quantity::X),
        "y" => Ok(stream::Quantity::Y),
        _ => Err(input(format!("unknown quantity {s:?}"))),
    }
}

#[pymethods]
impl PySummary {
    #[new]
    fn new(py: Python<'_>, total: u64, stride: usize) -> PyResult<Self> {
        let inner = quick(py, || stream::Summary::new(total, stride))?;
        Ok(PySummary { inner })
    }

    /// Count a paired-bootstrap rule on θ (or −θ when `negate`).
    #[pyo3(signature = (variant, alternative, orient, observed, negate=false))]
    fn add_bootstrap_rule(
        &mut self,
        py: Python<'_>,
        variant: &str,
        alternative: &str,
        orient: f64,
        observed: f64,
        negate: bool,
    ) -> PyResult<()> {
        let rule = stream::Rule::Bootstrap {
            variant: parse_variant(variant)?,
            alternative: parse_alternative(alternative)?,
            orient,
            observed,
            negate,
        };
        self.add_rule(py, rule)
    }

    /// Count a permutation rule on θ.
    fn add_permutation_rule(
        &mut self,
        py: Python<'_>,
        alternative: &str,
        observed: f64,
    ) -> PyResult<()> {
        let rule = stream::Rule::Permutation {
            alternative: parse_alternative(alternative)?,
            observed,
        };
        self.add_rule(py, rule)
    }

    /// Count θ* < value (`or_equal`: θ* ≤ value).
    #[pyo3(signature = (value, or_equal=false))]
    fn add_less_rule(&mut self, py: Python<'_>, value: f64, or_equal: bool) -> PyResult<()> {
        let rule = if or_equal {
            stream::Rule::LessEq(value)
        } else {
            stream::Rule::Less(value)
        };
        self.add_rule(py, rule)
    }

    /// Ask for quantile `q` of "theta", "x" or "y"; returns its index.
    fn add_quantile(&mut self, py: Python<'_>, quantity: &str, q: f64) -> PyResult<usize> {
        let qt = parse_quantity(quantity)?;
        let inner = &mut self.inner;
        quick(py, || inner.add_quantile(qt, q))
    }

    /// Whether another pass over the resamples is needed.
    fn pending(&self, py: Python<'_>) -> PyResult<bool> {
        let inner = &self.inner;
        quick(py, || Ok(inner.pending()))
    }

    /// Passes made so far.
    fn passes(&self, py: Python<'_>) -> PyResult<usize> {
        let inner = &self.inner;
        quick(py, || Ok(inner.passes()))
    }

    fn begin_pass(&mut self, py: Python<'_>) -> PyResult<()> {
        let inner = &mut self.inner;
        quick(py, || {
            inner.begin_pass();
            Ok(())
        })
    }

    /// Feed the next rows of resampled values (rows × stride), in resample order.
    fn feed(&mut self, py: Python<'_>, rows: PyReadonlyArray2<'_, f64>) -> PyResult<()> {
        let v = rows
            .as_slice()
            .map_err(|_| input("rows must be a C-contiguous float64 array".to_string()))?;
        let inner = &mut self.inner;
        quick(py, || inner.feed(v))
    }

    /// End a pass; returns whether another is needed.
    fn end_pass(&mut self, py: Python<'_>) -> PyResult<bool> {
        let inner = &mut self.inner;
        quick(py, || inner.end_pass())
    }

    /// The rules' counts, in order.
    fn counts(&self, py: Python<'_>) -> PyResult<Vec<u64>> {
        let inner = &self.inner;
        quick(py, || Ok(inner.counts().to_vec()))
    }

    /// The blocked mean of θ (after the first pass).
    fn mean(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        let inner = &self.inner;
        quick(py, || Ok(inner.mean()))
    }

    /// Quantile `i` once known.
    fn quantile(&self, py: Python<'_>, i: usize) -> PyResult<Option<f64>> {
        let inner = &self.inner;
        quick(py, || Ok(inner.quantile(i)))
    }
}

impl PySummary {
    fn add_rule(&mut self, py: Python<'_>, rule: stream::Rule) -> PyResult<()> {
        let inner = &mut self.inner;
        quick(py, || inner.add_rule(rule))
    }
}

/// Benchmark floor: draw and count n_resamples × n indices of stream
/// version `stream`; returns a checksum.
#[pyfunction]
#[pyo3(signature = (n, n_resamples, seed, threads, stream=STREAM_VERSION))]
fn draw_count_floor(
    py: Python<'_>,
    n: usize,
    n_resamples: usize,
    seed: u64,
    threads: usize,
    stream: u32,
) -> PyResult<u64> {
    let v = version(stream)?;
    if n == 0 || n as u64 > 1 << 32 {
        return Err(input("n must be in 1..=2^32".to_string()));
    }
    quick(py, || {
        engine::draw_count_floor(n, n_resamples, seed, threads, v)
    })
}

/// The first `count` 64-bit words of the stream of (seed, tag, resample,
/// sub) in stream version `stream` (version 2: each two 32-bit words, the
/// first the low half).
#[pyfunction]
#[pyo3(signature = (seed, tag, resample, sub, count, stream=STREAM_VERSION))]
fn stream_words<'py>(
    py: Python<'py>,
    seed: u64,
    tag: u64,
    resample: u64,
    sub: u64,
    count: usize,
    stream: u32,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let v = version(stream)?;
    let words = quick(py, || {
        let mut s = crate::rng::Stream::new(v, seed, tag, resample, sub);
        Ok((0..count).map(|_| s.next_u64()).collect())
    })?;
    Ok(PyArray1::from_vec(py, words))
}

/// Turn the SIMD kernels off or on, and their AVX-512 builds alone (they
/// give the same bytes; for tests and benches).
#[pyfunction]
#[pyo3(signature = (enabled, avx512=true))]
fn set_simd(py: Python<'_>, enabled: bool, avx512: bool) -> PyResult<()> {
    quick(py, || {
        crate::simd::set_enabled(enabled);
        crate::simd::set_avx512(avx512);
        Ok(())
    })
}

/// Binomial draws from one stream (for distribution tests and power simulations).
#[pyfunction]
#[pyo3(signature = (seed, n, p, count, stream=STREAM_VERSION))]
fn binomial_draws<'py>(
    py: Python<'py>,
    seed: u64,
    n: u64,
    p: f64,
    count: usize,
    stream: u32,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let sv = version(stream)?;
    let v = quick(py, || {
        let mut s = crate::rng::Stream::new(sv, seed, crate::rng::TAG_BOOTSTRAP, 0, 7);
        Ok((0..count)
            .map(|_| crate::binomial::binomial(&mut s, n, p))
            .collect())
    })?;
    Ok(PyArray1::from_vec(py, v))
}

#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STREAM_VERSION", crate::rng::STREAM_VERSION)?;
    m.add(
        "STREAM_VERSIONS",
        pyo3::types::PyTuple::new(m.py(), crate::rng::STREAM_VERSIONS)?,
    )?;
    m.add("TAG_BOOTSTRAP", crate::rng::TAG_BOOTSTRAP)?;
    m.add("TAG_PERMUTE", crate::rng::TAG_PERMUTE)?;
    m.add("BLOCK", engine::BLOCK)?;
    m.add("MAX_EXACT_ITEMS", engine::MAX_EXACT_ITEMS)?;
    m.add("BUILD_PROFILE", env!("SIGFAST_BUILD_PROFILE"))?;
    m.add("METRICS", metric_table(m.py())?)?;
    m.add_function(wrap_pyfunction!(metric_resolve, m)?)?;
    m.add_function(wrap_pyfunction!(metric_check, m)?)?;
    m.add_function(wrap_pyfunction!(metric_scores, m)?)?;
    m.add_function(wrap_pyfunction!(metric_rows, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_pvalue, m)?)?;
    m.add_function(wrap_pyfunction!(permutation_pvalue, m)?)?;
    m.add_function(wrap_pyfunction!(percentile_interval, m)?)?;
    m.add_function(wrap_pyfunction!(draw_count_floor, m)?)?;
    m.add_function(wrap_pyfunction!(stream_words, m)?)?;
    m.add_function(wrap_pyfunction!(binomial_draws, m)?)?;
    m.add_function(wrap_pyfunction!(set_simd, m)?)?;
    m.add_function(wrap_pyfunction!(pair_counts, m)?)?;
    m.add("PAIR_BLOCK", crate::pairwise::PAIR_BLOCK)?;
    aso_py::register(m)?;
    m.add("MAX_RESAMPLES", engine::MAX_RESAMPLES)?;
    m.add("MAX_THREADS", engine::MAX_THREADS)?;
    m.add("CHUNK", stream::CHUNK)?;
    m.add_class::<PySummary>()?;
    m.add_class::<MetricHandle>()?;
    chunk_py::register(m)?;
    evalb_py::register(m)?;
    rouge_py::register(m)?;
    ter_py::register(m)?;
    meta_py::register(m)?;
    text_py::register(m)?;
    ud_py::register(m)?;
    coref_py::register(m)?;
    battles_py::register(m)?;
    plan_py::register(m)?;
    Ok(())
}
