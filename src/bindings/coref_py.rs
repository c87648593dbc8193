//! Coreference statistics (`scorer.pl` v8.01 and LEA) for `sigfast.formats.conll2012`.
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use rayon::prelude::*;

use super::errors::quick;
use crate::coref;

type Repeats = Vec<(usize, bool, u32, u32, u32, u32)>;

/// Per-document statistics of a response against the key.
///
/// Each side is four uint32 columns of mention rows `(document, entity,
/// first token, last token)`, sorted by document then entity, mentions of an
/// entity in the order the scorer reads them. Returns `(stats, repeats)`:
/// `stats` a flat float64 array of `n_docs × COREF_STATS` (names in
/// `COREF_STAT_NAMES`), `repeats` the repeated mentions the scorer reports,
/// as `(document, in_key, first, last, a, b)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn coref_scores<'py>(
    py: Python<'py>,
    key_doc: PyReadonlyArray1<'py, u32>,
    key_ent: PyReadonlyArray1<'py, u32>,
    key_first: PyReadonlyArray1<'py, u32>,
    key_last: PyReadonlyArray1<'py, u32>,
    rsp_doc: PyReadonlyArray1<'py, u32>,
    rsp_ent: PyReadonlyArray1<'py, u32>,
    rsp_first: PyReadonlyArray1<'py, u32>,
    rsp_last: PyReadonlyArray1<'py, u32>,
    n_docs: usize,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Repeats)> {
    let (kd, ke, kf, kl) = (
        key_doc.as_slice()?,
        key_ent.as_slice()?,
        key_first.as_slice()?,
        key_last.as_slice()?,
    );
    let (rd, re, rf, rl) = (
        rsp_doc.as_slice()?,
        rsp_ent.as_slice()?,
        rsp_first.as_slice()?,
        rsp_last.as_slice()?,
    );
    let (flat, repeats) = quick(py, || {
        let key = coref::group(kd, ke, kf, kl, n_docs)?;
        let rsp = coref::group(rd, re, rf, rl, n_docs)?;
        // the engine's pool (never rayon's global one: see `engine::pool`); documents are independent
        let docs: Vec<coref::DocStats> = crate::engine::with_pool(0, || {
            key.par_iter()
                .zip(rsp.par_iter())
                .map(|(k, r)| coref::score_document(k, r))
                .collect()
        })?;
        let mut flat = Vec::with_capacity(n_docs * coref::N_STATS);
        let mut repeats = Vec::new();
        for (d, s) in docs.iter().enumerate() {
            flat.extend_from_slice(&s.stats);
            for r in &s.repeats {
                repeats.push((d, r.in_key, r.span.0, r.span.1, r.a, r.b));
            }
        }
        Ok((flat, repeats))
    })?;
    Ok((PyArray1::from_vec(py, flat), repeats))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("COREF_STATS", coref::N_STATS)?;
    m.add("COREF_STAT_NAMES", coref::STAT_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(coref_scores, m)?)?;
    Ok(())
}
