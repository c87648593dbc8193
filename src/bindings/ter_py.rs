//! Glue for `crate::ter` (sacrebleu TER statistics).

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::errors::quick;
use super::vec2;
use crate::ter::{self, TerOptions};

/// Python's `str.lower()` of a line (Rust's lowercase tables may be of a
/// different Unicode version; ASCII lines stay in Rust).
fn py_lower(py: Python<'_>, s: String) -> PyResult<String> {
    if s.is_ascii() {
        return Ok(s.to_ascii_lowercase());
    }
    PyString::new(py, &s).call_method0("lower")?.extract()
}

/// sacrebleu TER statistics per segment (segments × 2: edits, average
/// reference length); `refs[k][i]` is reference `k` of segment `i`.
#[pyfunction]
#[pyo3(signature = (hyps, refs, normalized=false, no_punct=false, asian_support=false, case_sensitive=false, threads=0))]
#[allow(clippy::too_many_arguments)]
fn ter_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (hyps, refs) = if case_sensitive {
        (hyps, refs)
    } else {
        let h = hyps
            .into_iter()
            .map(|s| py_lower(py, s))
            .collect::<PyResult<Vec<_>>>()?;
        let r = refs
            .into_iter()
            .map(|r| r.into_iter().map(|s| py_lower(py, s)).collect())
            .collect::<PyResult<Vec<Vec<_>>>>()?;
        (h, r)
    };
    let opts = TerOptions {
        normalized,
        no_punct,
        asian_support,
        // lowercased above with Python's own rules
        case_sensitive: true,
    };
    let rows = quick(py, || ter::ter_stats(&hyps, &refs, opts, threads))?;
    vec2(py, rows.into_iter().flatten().collect(), 2)
}

/// sacrebleu's `TercomTokenizer` output for each line (right-stripped first).
#[pyfunction]
#[pyo3(signature = (lines, normalized=false, no_punct=false, asian_support=false, case_sensitive=false))]
fn ter_tokenize(
    py: Python<'_>,
    lines: Vec<String>,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
) -> PyResult<Vec<String>> {
    let opts = TerOptions {
        normalized,
        no_punct,
        asian_support,
        case_sensitive: true,
    };
    // Python's str.lower (sacrebleu lowercases with it) needs the GIL
    let lines = lines
        .into_iter()
        .map(|l| {
            if case_sensitive {
                Ok(l)
            } else {
                py_lower(py, l)
            }
        })
        .collect::<PyResult<Vec<String>>>()?;
    quick(py, || {
        Ok(lines.iter().map(|l| ter::preprocess_hyp(l, opts)).collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_stats, m)?)?;
    m.add_function(wrap_pyfunction!(ter_tokenize, m)?)?;
    Ok(())
}
