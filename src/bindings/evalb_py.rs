//! Constituency-tree scoring in the manner of EVALB (owned by the trees work).
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use super::errors::{quick_named, Names};
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
/// Returns `(text, rows, messages, warnings, cutoff_len)` where `rows` is the
/// bytes of a native-endian int64 array (sentences × 9: id, len, status,
/// matched, gold, test, crossing, words, correct tags; read without numpy as
/// `memoryview(rows).cast("q")`) and `messages` the error sentences'
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
    let ((p, warnings), rows, text) = quick_named(py, &names, || {
        let (p, w) = params(prm, cutoff_len, max_error)?;
        let rows = evalb::evaluate(g, t, &p)?;
        let text = evalb::render(&rows, &p);
        Ok(((p, w), rows, text))
    })?;
    let arr = PyBytes::new(py, &row_bytes(rows.iter()));
    let messages: Vec<(usize, String)> = rows
        .iter()
        .filter_map(|r| r.error.as_ref().map(|m| (r.id, m.clone())))
        .collect();
    Ok((text, arr, messages, warnings, p.cutoff_len)
        .into_pyobject(py)?
        .into_any())
}

/// EVALB's per-sentence rows, flat (sentences × 9: id, len, status, matched,
/// gold, test, crossing, words, correct tags).
fn rows_flat<'r>(rows: impl ExactSizeIterator<Item = &'r evalb::Sentence>) -> Vec<i64> {
    let n = rows.len();
    let mut flat: Vec<i64> = Vec::with_capacity(n * 9);
    for r in rows {
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
    }
    flat
}

/// The rows as the bytes of a native-endian int64 array.
fn row_bytes<'r>(rows: impl ExactSizeIterator<Item = &'r evalb::Sentence>) -> Vec<u8> {
    rows_flat(rows)
        .iter()
        .flat_map(|x| x.to_ne_bytes())
        .collect()
}

/// The rows as an int64 array (sentences × 9).
fn row_array<'py, 'r>(
    py: Python<'py>,
    rows: impl ExactSizeIterator<Item = &'r evalb::Sentence>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let n = rows.len();
    PyArray1::from_vec(py, rows_flat(rows)).reshape([n, 9])
}

/// The units of `test` against `gold` from the same evaluation as
/// `evalb_score` (same parse, deletions, label processing, quote repair and
/// bracket matching), as a dict of flat columns:
///
/// * `rows`: the per-sentence rows, as `evalb_score` returns them;
/// * `words`, `word_offsets` (sentences + 1): the gold words after deletions
///   (the positions brackets span), sentence k's being
///   `words[word_offsets[k]:word_offsets[k + 1]]`;
/// * `gold_sentence`, `gold_start`, `gold_end`, `gold_label`, `gold_match`:
///   the gold brackets EVALB counts (for an error or skip sentence: those it
///   would count), `gold_match` the index into the test columns of the test
///   bracket EVALB matched it with, -1 for none;
/// * `test_sentence`, `test_start`, `test_end`, `test_label`: the test
///   brackets EVALB counts (scored sentences only);
/// * `tag_sentence`, `tag_word` (index in the sentence's words), `gold_tag`,
///   `test_tag`, `tag_correct`: the words of the tagging accuracy (scored
///   sentences only).
///
/// Bad input raises what `evalb_score` raises.
#[pyfunction]
#[pyo3(signature = (gold, test, prm=None, cutoff_len=None, max_error=None, gold_name=None, system_name=None, prm_name=None))]
#[allow(clippy::too_many_arguments)]
fn evalb_units<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyBytes>,
    test: &Bound<'py, PyBytes>,
    prm: Option<&Bound<'py, PyBytes>>,
    cutoff_len: Option<i64>,
    max_error: Option<i64>,
    gold_name: Option<String>,
    system_name: Option<String>,
    prm_name: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let (g, t) = (gold.as_bytes(), test.as_bytes());
    let prm = prm.map(|b| b.as_bytes());
    let mut names = Names::new(gold_name, system_name);
    names.params = prm_name;
    let us = quick_named(py, &names, || {
        let (p, _) = params(prm, cutoff_len, max_error)?;
        Ok(evalb::units(g, t, &p)?)
    })?;
    let mut words = Vec::new();
    let mut offsets = vec![0i64];
    let (mut gs, mut g0, mut g1, mut gl, mut gm) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut ts, mut t0, mut t1, mut tl) = (vec![], vec![], vec![], vec![]);
    let (mut ws, mut wi, mut wg, mut wt, mut wc) = (vec![], vec![], vec![], vec![], vec![]);
    for (k, u) in us.iter().enumerate() {
        let k = k as i64;
        let base = ts.len() as i64;
        for (i, b) in u.gold.iter().enumerate() {
            gs.push(k);
            g0.push(i64::from(b.start));
            g1.push(i64::from(b.end));
            gl.push(b.label.as_str());
            gm.push(
                u.matched
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or(-1, |m| base + i64::from(m)),
            );
        }
        for b in &u.test {
            ts.push(k);
            t0.push(i64::from(b.start));
            t1.push(i64::from(b.end));
            tl.push(b.label.as_str());
        }
        for (i, (gt, tt, ok)) in u.tags.iter().enumerate() {
            ws.push(k);
            wi.push(i as i64);
            wg.push(gt.as_str());
            wt.push(tt.as_str());
            wc.push(*ok);
        }
        words.extend(u.words.iter().map(String::as_str));
        offsets.push(words.len() as i64);
    }
    let d = PyDict::new(py);
    d.set_item("rows", row_array(py, us.iter().map(|u| &u.row))?)?;
    d.set_item("words", words)?;
    d.set_item("word_offsets", PyArray1::from_vec(py, offsets))?;
    d.set_item("gold_sentence", PyArray1::from_vec(py, gs))?;
    d.set_item("gold_start", PyArray1::from_vec(py, g0))?;
    d.set_item("gold_end", PyArray1::from_vec(py, g1))?;
    d.set_item("gold_label", gl)?;
    d.set_item("gold_match", PyArray1::from_vec(py, gm))?;
    d.set_item("test_sentence", PyArray1::from_vec(py, ts))?;
    d.set_item("test_start", PyArray1::from_vec(py, t0))?;
    d.set_item("test_end", PyArray1::from_vec(py, t1))?;
    d.set_item("test_label", tl)?;
    d.set_item("tag_sentence", PyArray1::from_vec(py, ws))?;
    d.set_item("tag_word", PyArray1::from_vec(py, wi))?;
    d.set_item("gold_tag", wg)?;
    d.set_item("test_tag", wt)?;
    d.set_item("tag_correct", PyArray1::from_vec(py, wc))?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evalb_score, m)?)?;
    m.add_function(wrap_pyfunction!(evalb_units, m)?)?;
    Ok(())
}
