//! Packing of the statistics for adding drawn rows (32-bit integers where
//! every value is integral and sums cannot overflow, floats otherwise), and
//! the table's distinct columns and rows.

use std::collections::HashMap;

use super::Table;

pub(super) fn pack<T: Copy + Default, const L: usize>(
    t: &Table<'_>,
    conv: impl Fn(f64) -> T,
) -> (Vec<[T; L]>, usize) {
    let chunks = t.width.div_ceil(L);
    let mut rows = vec![[T::default(); L]; t.n * chunks];
    for i in 0..t.n {
        for (c, &v) in t.row(i).iter().enumerate() {
            rows[i * chunks + c / L][c % L] = conv(v);
        }
    }
    (rows, chunks)
}

/// A table packed for adding drawn rows: 32-bit integer rows in chunks of 8
/// columns (exact: sums stay below 2^31), or float rows in chunks of 4.
pub(super) enum Packed {
    I32(Vec<[i32; 8]>, usize),
    F64(Vec<[f64; 4]>, usize),
}

/// The table's distinct columns (item-major) and, for every column, the
/// index of its distinct column; `None` when all columns differ.
pub(super) fn distinct_columns(t: &Table<'_>) -> Option<(Vec<f64>, Vec<usize>)> {
    if t.width < 2 {
        return None;
    }
    let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
    let mut keep = Vec::new();
    let mut map = Vec::with_capacity(t.width);
    for c in 0..t.width {
        let key: Vec<u64> = (0..t.n)
            .map(|i| (t.data[i * t.width + c] + 0.0).to_bits())
            .collect();
        let next = keep.len();
        let j = *index.entry(key).or_insert(next);
        if j == next {
            keep.push(c);
        }
        map.push(j);
    }
    if keep.len() == t.width {
        return None;
    }
    let mut data = Vec::with_capacity(t.n * keep.len());
    for i in 0..t.n {
        for &c in &keep {
            data.push(t.data[i * t.width + c]);
        }
    }
    Some((data, map))
}

pub(super) fn distinct_rows(t: &Table<'_>) -> (Vec<f64>, Vec<u64>) {
    let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
    let mut rows = Vec::new();
    let mut weights: Vec<u64> = Vec::new();
    for i in 0..t.n {
        let r = t.row(i);
        // +0.0 and -0.0 are the same statistic
        let key: Vec<u64> = r.iter().map(|v| (v + 0.0).to_bits()).collect();
        let next = weights.len();
        let j = *index.entry(key).or_insert(next);
        if j == next {
            rows.extend_from_slice(r);
            weights.push(0);
        }
        weights[j] += 1;
    }
    (rows, weights)
}
