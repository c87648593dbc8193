//! Counts × statistics: a block of resamples as one matrix product.
//!
//! A block of `m` resamples is a count matrix (`m × n`: how often each item
//! was drawn) times the statistics (`n × w`). For integer statistics whose
//! sums stay below 2^24 (f32) or 2^53 (f64) every product and partial sum is
//! an exact integer, so any kernel and any order give the same bytes: a real
//! GEMM (the `matrixmultiply` crate) does the work. Float statistics use
//! [`crate::simd::fixed_product`] instead, whose order is fixed (item by
//! item, no fused multiply-add), so its bytes do not depend on the CPU.

use crate::simd::{fixed_packed, fixed_panel, fixed_product, fixed_rows};

use super::Table;

/// Counts of `m` resamples times the statistics.
pub(super) enum Product {
    /// Integer statistics, sums below 2^24: f32 GEMM (exact).
    F32(Vec<f32>),
    /// Integer statistics, sums below 2^53: f64 GEMM (exact).
    F64(Vec<f64>),
    /// Float statistics: the fixed-order product; the table packed in panels.
    Fixed(Vec<f64>),
}

/// Largest integer below which f32 integers are exact.
const F32_EXACT: f64 = 16_777_216.0;
/// Largest integer below which f64 integers are exact.
pub(super) const F64_EXACT: f64 = 9_007_199_254_740_992.0;

impl Product {
    /// The exact GEMM for an integer table whose sums stay below `worst`
    /// (< 2^53), or the fixed-order product for any other table.
    pub(super) fn new(t: &Table<'_>, exact: bool, worst: f64) -> Self {
        if exact && worst < F32_EXACT {
            Product::F32(t.data.iter().map(|&v| v as f32).collect())
        } else if exact && worst < F64_EXACT {
            Product::F64(t.data.to_vec())
        } else {
            let p = fixed_panel(t.width);
            let panels = t.width.div_ceil(p);
            let mut packed = vec![0.0f64; panels * t.n * p];
            for i in 0..t.n {
                for (c, &v) in t.row(i).iter().enumerate() {
                    packed[(c / p) * t.n * p + i * p + c % p] = v;
                }
            }
            Product::Fixed(packed)
        }
    }

    /// Whether this is the fixed-order product.
    pub(super) fn fixed(&self) -> bool {
        matches!(self, Product::Fixed(_))
    }

    /// Whether the counts are f32.
    pub(super) fn single(&self) -> bool {
        matches!(self, Product::F32(_))
    }

    /// `c = a · x` in f32 (`a`: `m × n` counts, `c`: `m × w`).
    pub(super) fn multiply_f32(&self, a: &[f32], m: usize, n: usize, w: usize, c: &mut [f32]) {
        let Product::F32(x) = self else {
            unreachable!("f32 counts go with the f32 product")
        };
        assert!(a.len() >= m * n && x.len() == n * w && c.len() >= m * w);
        // SAFETY: the slices hold m × n, n × w and m × w elements (asserted), row-major.
        unsafe {
            matrixmultiply::sgemm(
                m,
                n,
                w,
                1.0,
                a.as_ptr(),
                n as isize,
                1,
                x.as_ptr(),
                w as isize,
                1,
                0.0,
                c.as_mut_ptr(),
                w as isize,
                1,
            );
        }
    }

    /// `c = a · x` in f64 (`a`: `m × n` counts, row-major; `c`: `m × w`).
    pub(super) fn multiply_f64(&self, a: &[f64], m: usize, n: usize, w: usize, c: &mut [f64]) {
        let Product::F64(x) = self else {
            unreachable!("row-major f64 counts go with the f64 GEMM")
        };
        assert!(a.len() >= m * n && x.len() == n * w && c.len() >= m * w);
        // SAFETY: the slices hold m × n, n × w and m × w elements (asserted), row-major.
        unsafe {
            matrixmultiply::dgemm(
                m,
                n,
                w,
                1.0,
                a.as_ptr(),
                n as isize,
                1,
                x.as_ptr(),
                w as isize,
                1,
                0.0,
                c.as_mut_ptr(),
                w as isize,
                1,
            );
        }
    }

    /// Rows per tile of the fixed-order product's counts, and whether they
    /// come packed item-major within a tile (else row-major).
    pub(super) fn tiles(w: usize) -> (usize, bool) {
        (fixed_rows(w), fixed_packed(w))
    }

    /// `c = a · x` in the fixed order (`a`: `tiles` tiles of packed counts,
    /// see [`crate::simd::fixed_product`]; `c`: `(tiles · rows) × w`).
    pub(super) fn multiply_fixed(
        &self,
        a: &[f64],
        tiles: usize,
        n: usize,
        w: usize,
        c: &mut [f64],
    ) {
        let Product::Fixed(packed) = self else {
            unreachable!("packed counts go with the fixed-order product")
        };
        fixed_product(a, tiles, n, packed, c, w);
    }
}
