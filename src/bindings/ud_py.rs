//! CoNLL-U evaluation (conll18_ud_eval.py v1.2) for `sigfast.formats.conllu`.
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use super::errors::{quick_named, Names};
use crate::udstats;

type Evaluated<'py> = (Bound<'py, PyBytes>, Vec<Option<String>>);

/// Score system CoNLL-U bytes against gold ones as conll18_ud_eval.py v1.2.
///
/// Returns `(counts, sent_ids)`: counts is the bytes of a flat native-endian
/// uint64 array of (gold sentences × 13 metrics × [correct, system, gold,
/// aligned]), read without numpy (`memoryview(counts).cast("Q")`) for the
/// report and as an array (`numpy.frombuffer`) for the statistics.
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
    let e = quick_named(py, &names, || Ok(udstats::evaluate(g, s)?))?;
    let raw: Vec<u8> = e.counts.iter().flat_map(|x| x.to_ne_bytes()).collect();
    Ok((PyBytes::new(py, &raw), e.sent_ids))
}

/// The units of `system` against `gold` (conll18_ud_eval's parse and word
/// alignment): a dict with per-gold-word `sentence`, `forms`, `lines`,
/// `aligned` (system word index, -1 for none), `system_lines`,
/// `relation`, `gold_labels` and `system_labels` of `view` (one of
/// `UD_UNIT_VIEWS`), plus `n_system_words` and `sent_ids`.
#[pyfunction]
#[pyo3(signature = (gold, system, view, gold_name=None, system_name=None))]
fn ud_units<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyBytes>,
    system: &Bound<'py, PyBytes>,
    view: &str,
    gold_name: Option<String>,
    system_name: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let (g, s) = (gold.as_bytes(), system.as_bytes());
    let names = Names::new(gold_name, system_name);
    let v = udstats::UNIT_VIEWS
        .iter()
        .position(|&x| x == view)
        .ok_or_else(|| {
            PyErr::from(crate::Error::Input(format!(
                "CoNLL-U has no view {view:?}; views: {}",
                udstats::UNIT_VIEWS.join(", ")
            )))
        })?;
    let u = quick_named(py, &names, || Ok(udstats::units(g, s, v)?))?;
    let d = PyDict::new(py);
    d.set_item("sentence", PyArray1::from_vec(py, u.sentence))?;
    d.set_item("forms", u.forms)?;
    d.set_item("lines", PyArray1::from_vec(py, u.lines))?;
    let aligned: Vec<i64> = u
        .aligned
        .iter()
        .map(|&a| if a == u32::MAX { -1 } else { i64::from(a) })
        .collect();
    d.set_item("aligned", PyArray1::from_vec(py, aligned))?;
    d.set_item("system_lines", PyArray1::from_vec(py, u.system_lines))?;
    d.set_item("n_system_words", u.n_system_words)?;
    d.set_item("relation", u.relation)?;
    let (gold_labels, system_labels) = u.labels.into_iter().next().unwrap_or_default();
    d.set_item("gold_labels", gold_labels)?;
    d.set_item("system_labels", system_labels)?;
    d.set_item("sent_ids", u.sent_ids)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("UD_METRICS", udstats::METRICS.to_vec())?;
    m.add("UD_UNIT_VIEWS", udstats::UNIT_VIEWS.to_vec())?;
    m.add("MISSING", udstats::MISSING)?;
    m.add_function(wrap_pyfunction!(ud_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(ud_units, m)?)?;
    Ok(())
}
