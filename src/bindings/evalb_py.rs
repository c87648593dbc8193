//! Constituency-tree scoring in the manner of EVALB (owned by the trees work).
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::evalb::{self, EvalError, Params, Side};

fn side(s: Side) -> &'static str {
    match s {
        Side::Gold => "gold",
        Side::Test => "test",
    }
}

/// Parameters from a `.prm` text (or COLLINS.prm's settings when `prm` is
/// None), then the `-c` / `-e` overrides.
fn params(
    prm: Option<&[u8]>,
    cutoff: Option<i64>,
    max_error: Option<i64>,
) -> Result<(Params, Vec<String>), (usize, String)> {
    let (mut p, warnings) = match prm {
        None => (Params::collins(), Vec::new()),
        Some(text) => {
            let mut p = Params::default();
            let w = p.apply_prm(text).map_err(|e| (e.line, e.message))?;
            (p, w)
        }
    };
    if let Some(c) = cutoff {
        p.cutoff_len = c;
    }
    if let Some(m) = max_error {
        p.max_error = m;
    }
    let mut warnings = warnings;
    if p.debug != 0 {
        warnings.push(format!(
            "DEBUG {}: EVALB's debug dumps are not reproduced in the report text",
            p.debug
        ));
    }
    Ok((p, warnings))
}

/// Score `test` against `gold` (file contents as bytes) like EVALB.
///
/// Returns `(error, result)`: `error` is None or a tuple
/// `(kind, side, line, column, message, extra)` and `result` is None or
/// `(text, rows, messages, warnings, cutoff_len)` where `rows` is an int64
/// array (sentences × 9: id, len, status, matched, gold, test, crossing,
/// words, correct tags) and `messages` the error sentences' `(line, text)`.
#[pyfunction]
#[pyo3(signature = (gold, test, prm=None, cutoff_len=None, max_error=None))]
#[allow(clippy::type_complexity)]
fn evalb_score<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyBytes>,
    test: &Bound<'py, PyBytes>,
    prm: Option<&Bound<'py, PyBytes>>,
    cutoff_len: Option<i64>,
    max_error: Option<i64>,
) -> PyResult<(Option<Py<PyAny>>, Option<Py<PyAny>>)> {
    let (g, t) = (gold.as_bytes(), test.as_bytes());
    let (p, warnings) = match params(prm.map(|b| b.as_bytes()), cutoff_len, max_error) {
        Ok(x) => x,
        Err((line, msg)) => {
            let e = ("prm", "prm", line, 0usize, msg, Vec::<String>::new()).into_pyobject(py)?;
            return Ok((Some(e.into_any().unbind()), None));
        }
    };
    let out = py.detach(|| evalb::evaluate(g, t, &p).map(|rows| (evalb::render(&rows, &p), rows)));
    match out {
        Err(e) => {
            let obj = match e {
                EvalError::Malformed {
                    side: s,
                    line,
                    column,
                    message,
                } => ("malformed", side(s), line, column, message, Vec::new()),
                EvalError::Encoding {
                    side: s,
                    line,
                    message,
                } => ("encoding", side(s), line, 0, message, Vec::new()),
                EvalError::LineCount { gold, test } => {
                    ("line_count", "both", gold, test, String::new(), Vec::new())
                }
                EvalError::TooManyErrors {
                    line,
                    errors,
                    max_error,
                    first,
                } => (
                    "too_many_errors",
                    "test",
                    line,
                    errors,
                    max_error.to_string(),
                    first,
                ),
            };
            Ok((Some(obj.into_pyobject(py)?.into_any().unbind()), None))
        }
        Ok((text, rows)) => {
            let mut flat: Vec<i64> = Vec::with_capacity(rows.len() * 9);
            let mut messages = Vec::new();
            for r in &rows {
                flat.extend_from_slice(&[
                    r.id as i64,
                    i64::from(r.len),
                    i64::from(r.status),
                    i64::from(r.matched),
                    i64::from(r.gold_brackets),
                    i64::from(r.test_brackets),
                    i64::from(r.crossing),
                    i64::from(r.words),
                    i64::from(r.correct_tags),
                ]);
                if let Some(m) = &r.error {
                    messages.push((r.id, m.clone()));
                }
            }
            let arr = PyArray1::from_vec(py, flat).reshape([rows.len(), 9])?;
            let res = (text, arr, messages, warnings, p.cutoff_len).into_pyobject(py)?;
            Ok((None, Some(res.into_any().unbind())))
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evalb_score, m)?)?;
    Ok(())
}
