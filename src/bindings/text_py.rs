//! Glue for `crate::textstats`: BLEU / chrF per-segment statistics.
//! Python reads the files, checks line counts and lowercases; these
//! functions take the lines and return float64 arrays (segments × stats).

use numpy::PyArray1;
use numpy::PyArrayMethods;
use pyo3::prelude::*;

use super::errors::quick;
use crate::textstats::{self, Tokenizer};
use crate::Error;

fn input(m: impl Into<String>) -> PyErr {
    PyErr::from(Error::Input(m.into()))
}

fn check_refs(n: usize, refs: &[Vec<String>]) -> PyResult<()> {
    if refs.is_empty() {
        return Err(input("at least one reference stream is needed"));
    }
    for (k, r) in refs.iter().enumerate() {
        if r.len() != n {
            return Err(input(format!(
                "reference stream {k} has {} lines, the hypotheses {n}",
                r.len()
            )));
        }
    }
    Ok(())
}

fn to_array(py: Python<'_>, rows: Vec<Vec<u64>>, cols: usize) -> PyResult<Bound<'_, PyAny>> {
    let n = rows.len();
    let mut flat = Vec::with_capacity(n * cols);
    for r in rows {
        debug_assert_eq!(r.len(), cols);
        flat.extend(r.into_iter().map(|v| v as f64));
    }
    Ok(PyArray1::from_vec(py, flat).reshape([n, cols])?.into_any())
}

/// sacrebleu BLEU statistics per segment (segments × (2 + 2·max_order)).
#[pyfunction]
#[pyo3(signature = (hyps, refs, tokenize, max_order=4))]
fn bleu_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    tokenize: &str,
    max_order: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let tok = Tokenizer::parse(tokenize).ok_or_else(|| {
        input(format!(
            "tokenizer {tokenize:?} is not implemented natively"
        ))
    })?;
    if !(1..=16).contains(&max_order) {
        return Err(input("max_order must be in 1..=16"));
    }
    check_refs(hyps.len(), &refs)?;
    let rows = quick(py, || {
        let mut seg_refs: Vec<&str> = Vec::with_capacity(refs.len());
        Ok(hyps
            .iter()
            .enumerate()
            .map(|(i, h)| {
                seg_refs.clear();
                seg_refs.extend(refs.iter().map(|r| r[i].as_str()));
                textstats::bleu_line(h, &seg_refs, tok, max_order)
            })
            .collect::<Vec<_>>())
    })?;
    to_array(py, rows, 2 + 2 * max_order)
}

/// sacrebleu chrF statistics per segment (segments × 3·(char_order + word_order)).
#[pyfunction]
#[pyo3(signature = (hyps, refs, char_order=6, word_order=0, beta=2.0))]
fn chrf_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    char_order: usize,
    word_order: usize,
    beta: f64,
) -> PyResult<Bound<'py, PyAny>> {
    if char_order + word_order == 0 {
        return Err(input("char_order + word_order must be positive"));
    }
    check_refs(hyps.len(), &refs)?;
    let rows = quick(py, || {
        let mut seg_refs: Vec<&str> = Vec::with_capacity(refs.len());
        Ok(hyps
            .iter()
            .enumerate()
            .map(|(i, h)| {
                seg_refs.clear();
                seg_refs.extend(refs.iter().map(|r| r[i].as_str()));
                textstats::chrf_segment(h, &seg_refs, char_order, word_order, beta)
            })
            .collect::<Vec<_>>())
    })?;
    to_array(py, rows, 3 * (char_order + word_order))
}

/// The tokenized form of each line (right-stripped, then tokenized), joined by spaces.
#[pyfunction]
fn tokenize_lines(py: Python<'_>, lines: Vec<String>, tokenize: &str) -> PyResult<Vec<String>> {
    let tok = Tokenizer::parse(tokenize).ok_or_else(|| {
        input(format!(
            "tokenizer {tokenize:?} is not implemented natively"
        ))
    })?;
    quick(py, || {
        Ok(lines.iter().map(|l| textstats::tokenize(l, tok)).collect())
    })
}

/// Longest-common-subsequence length of each pair of whitespace-separated token strings.
#[pyfunction]
fn lcs_lengths(py: Python<'_>, a: Vec<String>, b: Vec<String>) -> PyResult<Vec<usize>> {
    if a.len() != b.len() {
        return Err(input(format!(
            "{} first sequences but {} second ones",
            a.len(),
            b.len()
        )));
    }
    quick(py, || {
        Ok(a.iter()
            .zip(&b)
            .map(|(x, y)| textstats::lcs_len_str(x, y))
            .collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(lcs_lengths, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_stats, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_stats, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize_lines, m)?)?;
    Ok(())
}
