//! CoNLL-U evaluation (conll18_ud_eval.py v1.2) for `sigfast.formats.conllu`.
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::errors::{quick, Names};
use crate::udstats;

type Evaluated<'py> = (Bound<'py, PyArray1<u64>>, Vec<Option<String>>);

/// Score system CoNLL-U bytes against gold ones as conll18_ud_eval.py v1.2.
///
/// Returns `(counts, sent_ids)`: counts is a flat uint64 array of
/// (gold sentences × 13 metrics × [correct, system, gold, aligned]).
/// Bad input raises `FormatError` naming `gold_name` or `system_name`.
#[pyfunction]
#[pyo3(signature = (gold, system, gold_name=None, system_name=None))]
fn ud_evaluate<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyBytes>,
    system: &Bound<'py, PyBytes>,
    gold_name: Option<String>,
    system_name: Option<String>,
) -> PyResult<Evaluated<'py>> {
    let (g, s) = (gold.as_bytes(), system.as_bytes());
    let names = Names::new(gold_name, system_name);
    let e = quick(py, &names, || Ok(udstats::evaluate(g, s)?))?;
    Ok((PyArray1::from_vec(py, e.counts), e.sent_ids))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("UD_METRICS", udstats::METRICS.to_vec())?;
    m.add_function(wrap_pyfunction!(ud_evaluate, m)?)?;
    Ok(())
}
