//! Fast CoNLL-U evaluation helpers (owned by the CoNLL-U work).
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::udstats::{self, Side};

/// Score system CoNLL-U bytes against gold ones as conll18_ud_eval.py v1.2.
///
/// Returns `(counts, sent_ids)`: counts is a flat uint64 array of
/// (gold sentences × 13 metrics × [correct, system, gold, aligned]).
/// On bad input raises ValueError with args
/// `("udstats", side, line, sentence, sent_id, message)`.
type Evaluated<'py> = (Bound<'py, PyArray1<u64>>, Vec<Option<String>>);

#[pyfunction]
fn ud_evaluate<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyBytes>,
    system: &Bound<'py, PyBytes>,
) -> PyResult<Evaluated<'py>> {
    let (g, s) = (gold.as_bytes(), system.as_bytes());
    match py.detach(|| udstats::evaluate(g, s)) {
        Ok(e) => Ok((PyArray1::from_vec(py, e.counts), e.sent_ids)),
        Err(e) => Err(PyValueError::new_err((
            "udstats",
            match e.side {
                Side::Gold => "gold",
                Side::System => "system",
            },
            e.line,
            e.sentence,
            e.sent_id,
            e.message,
        ))),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("UD_METRICS", udstats::METRICS.to_vec())?;
    m.add_function(wrap_pyfunction!(ud_evaluate, m)?)?;
    Ok(())
}
