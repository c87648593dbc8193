//! Glue for `crate::rouge` and `crate::porter` (rouge-score's ROUGE).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use super::errors::quick;
use crate::rouge::{self, RougeType};
use crate::{porter, Result};

/// Per-document ROUGE (documents × types × (precision, recall, F)) as
/// rouge-score computes it; `refs[k][i]` is reference `k` of document `i`,
/// and with several references each type keeps the one with the best F.
#[pyfunction]
#[pyo3(signature = (preds, refs, rouge_types, use_stemmer=false, threads=0))]
fn rouge_scores<'py>(
    py: Python<'py>,
    preds: Vec<String>,
    refs: Vec<Vec<String>>,
    rouge_types: Vec<String>,
    use_stemmer: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let types = rouge_types
        .iter()
        .map(|t| RougeType::parse(t))
        .collect::<Result<Vec<_>>>()
        .map_err(PyErr::from)?;
    let rows = quick(py, || {
        rouge::rouge_scores(&preds, &refs, &types, use_stemmer, threads)
    })?;
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([preds.len(), types.len(), 3])?
        .into_any())
}

/// NLTK's `PorterStemmer().stem(word)` (default mode) of each word.
#[pyfunction]
fn porter_stem(py: Python<'_>, words: Vec<String>) -> PyResult<Vec<String>> {
    quick(py, || Ok(words.iter().map(|w| porter::stem(w)).collect()))
}

/// rouge-score's tokens of each text, with or without stemming.
#[pyfunction]
#[pyo3(signature = (texts, use_stemmer=false))]
fn rouge_tokenize(
    py: Python<'_>,
    texts: Vec<String>,
    use_stemmer: bool,
) -> PyResult<Vec<Vec<String>>> {
    quick(py, || {
        Ok(texts
            .iter()
            .map(|t| rouge::tokenize(t, use_stemmer))
            .collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_scores, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_tokenize, m)?)?;
    Ok(())
}
