//! conlleval chunk scoring for `sigfast.formats.chunk` (formats `conlleval` and `ner`).
//!
//! The scoring functions return plain Python values for the report (no
//! numpy: `sigfast score -f ner` starts without it) and a [`PyChunkParse`]
//! that holds the parse, whose methods give the per-item counts, the
//! chunking and the tokens as arrays and lists when the statistics or the
//! units are asked for.
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use super::errors::{quick, quick_named, to_py, FormatError, Names};
use crate::conlleval::{self, Bad, Options, Scored, Source};

/// One file's lines as Python passes them: its bytes (split on the
/// delimiter byte), or each line's fields split by Python (a regular
/// expression delimiter).
#[derive(FromPyObject)]
enum Lines<'py> {
    Bytes(Bound<'py, PyBytes>),
    Fields(Vec<Vec<String>>),
}

impl<'py> Lines<'py> {
    fn source(&self, delimiter: u8) -> Source<'_> {
        match self {
            Lines::Bytes(b) => Source::Bytes(b.as_bytes(), delimiter),
            Lines::Fields(f) => Source::Fields(f.clone()),
        }
    }
}

/// The parse of one scored file, for the statistics and the units.
/// Not added to the module: it is only ever returned.
#[pyclass(module = "sigfast._native", name = "_ChunkParse", frozen)]
struct PyChunkParse {
    inner: Scored,
}

#[pymethods]
impl PyChunkParse {
    /// The per-item counts, an int64 array (items × (3 × types + 2)):
    /// correct chunks per type, guessed per type, gold per type, correct
    /// tags, tokens.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = &self.inner;
        let flat = quick(py, || Ok(s.counts.clone()))?;
        Ok(PyArray1::from_vec(py, flat)
            .reshape([s.n_items, s.width()])?
            .into_any())
    }

    /// The chunking the counts were read from, as a dict of columns (see
    /// `conlleval::Chunked`): int64 and bool arrays, `types` and `acc_tags`
    /// lists, `n_sent`.
    fn chunked<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = &self.inner.chunked;
        let wide = |v: &[u32]| -> Vec<i64> { v.iter().map(|&x| i64::from(x)).collect() };
        let wide64 = |v: &[u64]| -> Vec<i64> { v.iter().map(|&x| x as i64).collect() };
        let (gold, system, tag_type, cs, ce) = quick(py, || {
            Ok((
                wide(&c.gold),
                wide(&c.system),
                wide(&c.tag_type),
                wide64(&c.correct_start),
                wide64(&c.correct_end),
            ))
        })?;
        let d = PyDict::new(py);
        d.set_item("tok", PyArray1::from_slice(py, &c.tok))?;
        d.set_item("gold", PyArray1::from_vec(py, gold))?;
        d.set_item("system", PyArray1::from_vec(py, system))?;
        d.set_item("sent", PyArray1::from_slice(py, &c.sent))?;
        d.set_item("n_sent", c.n_sent)?;
        d.set_item("start_gold", PyArray1::from_slice(py, &c.start_gold))?;
        d.set_item("start_system", PyArray1::from_slice(py, &c.start_system))?;
        d.set_item("end_gold", PyArray1::from_slice(py, &c.end_gold))?;
        d.set_item("end_system", PyArray1::from_slice(py, &c.end_system))?;
        d.set_item("correct_start", PyArray1::from_vec(py, cs))?;
        d.set_item("correct_end", PyArray1::from_vec(py, ce))?;
        d.set_item("tag_type", PyArray1::from_vec(py, tag_type))?;
        d.set_item("types", c.types.clone())?;
        d.set_item("acc_tags", c.acc_tags.clone())?;
        Ok(d)
    }

    /// The tokens of the token lines, in order (the gold file's for `ner`).
    fn tokens(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let s = &self.inner;
        quick(py, || Ok(s.tokens()))
    }
}

/// The report's part of a parse, plain values: `types` (sorted), `totals`
/// (the counts summed over items), `n_items`, `item_lines` (each item's
/// first line, 0-based, in the system file).
fn report<'py>(py: Python<'py>, s: Scored) -> PyResult<Bound<'py, PyTuple>> {
    let d = PyDict::new(py);
    d.set_item("types", s.types.clone())?;
    d.set_item("totals", s.totals())?;
    d.set_item("n_items", s.n_items)?;
    d.set_item("item_lines", s.item_lines.clone())?;
    let parse = Bound::new(py, PyChunkParse { inner: s })?;
    PyTuple::new(py, [d.into_any(), parse.into_any()])
}

/// The Python exception for `bad`; messages that quote tokens use
/// `sigfast.formats._base.shorten`, as the other formats' messages do.
fn raise(py: Python<'_>, bad: Bad, names: &Names) -> PyErr {
    let name =
        |n: &Option<String>, role: &str| n.clone().unwrap_or_else(|| format!("<{role} input>"));
    let built = (|| -> PyResult<PyErr> {
        let shorten = py.import("sigfast.formats._base")?.getattr("shorten")?;
        let short = |v: Bound<'_, PyAny>| -> PyResult<String> { shorten.call1((v,))?.extract() };
        Ok(match bad {
            Bad::Error(e) => to_py(e, names),
            Bad::Token {
                gold_line,
                system_line,
                sentence,
                gold,
                system,
            } => {
                let message = format!(
                    "token {} where the gold file (line {gold_line}) has {} in sentence {sentence}; \
                     the system file must keep the gold tokens",
                    short(system.into_pyobject(py)?.into_any())?,
                    short(gold.into_pyobject(py)?.into_any())?,
                );
                FormatError::new_err((message, name(&names.system, "system"), Some(system_line)))
            }
            Bad::GoldColumn { line, gold, system } => {
                let message = format!(
                    "token/gold tag {} in the gold file but {} at the same line of {}; both \
                     conlleval files must hold the same tokens and gold tags",
                    short(PyTuple::new(py, [gold.0, gold.1])?.into_any())?,
                    short(PyTuple::new(py, [system.0, system.1])?.into_any())?,
                    name(&names.system, "system"),
                );
                FormatError::new_err((message, name(&names.gold, "gold"), Some(line)))
            }
        })
    })();
    built.unwrap_or_else(|e| e)
}

fn options(
    iobes: bool,
    raw: bool,
    o_tag: String,
    boundary: String,
    skip_docstart: bool,
) -> Options {
    Options {
        iobes,
        raw,
        o_tag,
        boundary,
        skip_docstart,
    }
}

/// Score one conlleval-layout file (`token ... gold-tag system-tag`) as
/// conlleval does; `gold`, if given, must hold the same tokens and gold tags.
///
/// `system` and `gold` are a file's bytes (split on the byte `delimiter`) or
/// its lines' fields. Returns `(report, parse)`: `report` a dict of plain
/// values (`types`, `totals`, `n_items`, `item_lines`), `parse` a
/// `_ChunkParse`. Bad input raises `FormatError` naming the file and line.
#[pyfunction]
#[pyo3(signature = (system, delimiter, gold=None, *, iobes=false, raw=false, o_tag="O".to_string(), boundary="-X-".to_string(), skip_docstart=false, gold_name=None, system_name=None))]
#[allow(clippy::too_many_arguments)]
fn chunk_conlleval<'py>(
    py: Python<'py>,
    system: Lines<'py>,
    delimiter: u8,
    gold: Option<Lines<'py>>,
    iobes: bool,
    raw: bool,
    o_tag: String,
    boundary: String,
    skip_docstart: bool,
    gold_name: Option<String>,
    system_name: Option<String>,
) -> PyResult<Bound<'py, PyTuple>> {
    let names = Names::new(gold_name, system_name);
    let opt = options(iobes, raw, o_tag, boundary, skip_docstart);
    let (s, g) = (
        system.source(delimiter),
        gold.as_ref().map(|g| g.source(delimiter)),
    );
    match quick_named(py, &names, || Ok(conlleval::score_conlleval(s, g, &opt)))? {
        Ok(scored) => report(py, scored),
        Err(bad) => Err(raise(py, bad, &names)),
    }
}

/// Score a CoNLL-2003 column file of system tags against a gold one (`token
/// ... tag`, the same sentences and tokens) as conlleval scores the pasted
/// `token gold-tag system-tag` file. Arguments and result as
/// `chunk_conlleval`, with a delimiter byte per file.
#[pyfunction]
#[pyo3(signature = (gold, system, gold_delimiter, system_delimiter, *, iobes=false, raw=false, o_tag="O".to_string(), boundary="-X-".to_string(), skip_docstart=false, gold_name=None, system_name=None))]
#[allow(clippy::too_many_arguments)]
fn chunk_ner<'py>(
    py: Python<'py>,
    gold: Lines<'py>,
    system: Lines<'py>,
    gold_delimiter: u8,
    system_delimiter: u8,
    iobes: bool,
    raw: bool,
    o_tag: String,
    boundary: String,
    skip_docstart: bool,
    gold_name: Option<String>,
    system_name: Option<String>,
) -> PyResult<Bound<'py, PyTuple>> {
    let names = Names::new(gold_name, system_name);
    let opt = options(iobes, raw, o_tag, boundary, skip_docstart);
    let (g, s) = (gold.source(gold_delimiter), system.source(system_delimiter));
    match quick_named(py, &names, || Ok(conlleval::score_ner(g, s, &opt)))? {
        Ok(scored) => report(py, scored),
        Err(bad) => Err(raise(py, bad, &names)),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chunk_conlleval, m)?)?;
    m.add_function(wrap_pyfunction!(chunk_ner, m)?)?;
    Ok(())
}
