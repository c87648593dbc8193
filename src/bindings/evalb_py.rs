//! Constituency-tree scoring in the manner of EVALB (owned by the trees work).
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::errors::{quick, Names};
use crate::evalb::{self, Params};

/// Parameters from a `.prm` text (or COLLINS.prm's settings when `prm` is
/// None), then the `-c` / `-e` overrides.
fn params(
    prm: Option<&[u8]>,
    cutoff: Option<i64>,
    max_error: Option<i64>,
) -> crate::Result<(Params, Vec<String>)> {
    let (mut p, warnings) = match prm {
        None => (Params::collins(), Vec::new()),
        Some(text) => {
            let mut p = Params::default();
            let w = p.apply_prm(text)?;
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
/// Returns `(text, rows, messages, warnings, cutoff_len)` where `rows` is an
/// int64 array (sentences × 9: id, len, status, matched, gold, test,
/// crossing, words, correct tags) and `messages` the error sentences'
/// `(line, text)`. Bad input raises `FormatError` naming the file.
#[pyfunction]
#[pyo3(signature = (gold, test, prm=None, cutoff_len=None, max_error=None, gold_name=None, system_name=None, prm_name=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn evalb_score<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyBytes>,
    test: &Bound<'py, PyBytes>,
    prm: Option<&Bound<'py, PyBytes>>,
    cutoff_len: Option<i64>,
    max_error: Option<i64>,
    gold_name: Option<String>,
    system_name: Option<String>,
    prm_name: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (g, t) = (gold.as_bytes(), test.as_bytes());
    let prm = prm.map(|b| b.as_bytes());
    let mut names = Names::new(gold_name, system_name);
    names.params = prm_name;
    let ((p, warnings), rows, text) = quick(py, &names, || {
        let (p, w) = params(prm, cutoff_len, max_error)?;
        let rows = evalb::evaluate(g, t, &p)?;
        let text = evalb::render(&rows, &p);
        Ok(((p, w), rows, text))
    })?;
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
    Ok((text, arr, messages, warnings, p.cutoff_len)
        .into_pyobject(py)?
        .into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evalb_score, m)?)?;
    Ok(())
}
