//! Resampling drivers: paired bootstrap (over items or over distinct rows),
//! approximate randomization and exact permutation.
//!
//! Statistics arrive item-major: `n` items × `width` columns, where the
//! columns of system `s` are `s*k .. (s+1)*k`. Work is split into fixed
//! blocks of [`BLOCK`] resamples; each resample draws from its own stream
//! (see [`crate::rng`]) and writes its own output row, so results do not
//! depend on the number of threads. Sums inside a resample run in a fixed
//! order: integer statistics are summed exactly in integers; float
//! statistics of a bootstrap resample are summed in draw order. (Four
//! resamples run interleaved to hide the adds' latency; each still sees only
//! its own draws, in order.) Swap sums are described at [`Swapper`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::binomial::multinomial;
use crate::metric::Metric;
use crate::rng::{Bounded, Stream, TAG_BOOTSTRAP, TAG_PERMUTE};
use crate::{Error, Result};

/// Four resamples with their streams interleaved in registers: each stream
/// is consumed exactly as [`Bounded::for_each`] consumes it, and each
/// accumulator receives its resample's draws in draw order.
macro_rules! interleaved4 {
    ($rows:expr, $bnd:expr, $n:expr, $streams:expr, $zero:expr, $add:path) => {{
        let rows = $rows;
        let bnd = $bnd;
        let n = $n;
        debug_assert!(rows.len() as u64 == bnd.n);
        let [mut s0, mut s1, mut s2, mut s3] = $streams;
        let (mut a0, mut a1, mut a2, mut a3) = ($zero, $zero, $zero, $zero);
        let (mut l0, mut l1, mut l2, mut l3) = (n, n, n, n);
        macro_rules! step {
            ($s:ident, $a:ident, $l:ident) => {{
                let u = $s.next_u64();
                // SAFETY: Bounded::map returns indices below bnd.n == rows.len().
                if let Some(i) = bnd.map(u as u32) {
                    $add(&mut $a, unsafe { rows.get_unchecked(i as usize) });
                    $l -= 1;
                }
                if let Some(i) = bnd.map((u >> 32) as u32) {
                    $add(&mut $a, unsafe { rows.get_unchecked(i as usize) });
                    $l -= 1;
                }
            }};
        }
        while l0 >= 2 && l1 >= 2 && l2 >= 2 && l3 >= 2 {
            step!(s0, a0, l0);
            step!(s1, a1, l1);
            step!(s2, a2, l2);
            step!(s3, a3, l3);
        }
        bnd.for_each(&mut s0, l0, |i| $add(&mut a0, &rows[i]));
        bnd.for_each(&mut s1, l1, |i| $add(&mut a1, &rows[i]));
        bnd.for_each(&mut s2, l2, |i| $add(&mut a2, &rows[i]));
        bnd.for_each(&mut s3, l3, |i| $add(&mut a3, &rows[i]));
        [a0, a1, a2, a3]
    }};
}

/// Resamples per work unit. Fixed, so block boundaries never depend on threads.
pub const BLOCK: usize = 256;
/// Largest item count for the exact permutation test (2^n arrangements).
pub const MAX_EXACT_ITEMS: usize = 26;

/// Shared progress counter and cancel flag, polled between blocks.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub cancel: AtomicBool,
}

impl Progress {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

/// How bootstrap resamples are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resampling {
    /// Draw n item indices per resample.
    Items,
    /// Draw multinomial counts over distinct rows (cost follows distinct rows).
    Distinct,
    /// `Distinct` when distinct rows are at most n/32, else `Items`.
    Auto,
}

/// A read-only item-major table of statistics.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    pub data: &'a [f64],
    pub n: usize,
    pub width: usize,
}

impl<'a> Table<'a> {
    pub fn new(data: &'a [f64], n: usize, width: usize) -> Result<Self> {
        if n == 0 {
            return Err(Error::Input(
                "no items: the statistics have zero items".into(),
            ));
        }
        if width == 0 {
            return Err(Error::Input("no statistics: width is zero".into()));
        }
        if data.len() != n * width {
            return Err(Error::Input(format!(
                "data has {} values, expected {} items x {} statistics",
                data.len(),
                n,
                width
            )));
        }
        if let Some(pos) = data.iter().position(|v| !v.is_finite()) {
            return Err(Error::Input(format!(
                "statistic at item {}, column {} is not finite ({})",
                pos / width,
                pos % width,
                data[pos]
            )));
        }
        if n as u64 > 1 << 32 {
            return Err(Error::Input("more than 2^32 items".into()));
        }
        Ok(Table { data, n, width })
    }

    fn row(&self, i: usize) -> &'a [f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    fn max_abs(&self) -> f64 {
        self.data.iter().fold(0.0f64, |m, v| m.max(v.abs()))
    }

    fn all_integral(&self) -> bool {
        self.data.iter().all(|v| v.fract() == 0.0)
    }
}

fn pack<T: Copy + Default, const L: usize>(
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

enum Packed {
    I32(Vec<[i32; 8]>, usize),
    I64(Vec<[i64; 4]>, usize),
    F64(Vec<[f64; 4]>, usize),
}

/// Which exact representation the sums use, from the data alone.
fn choose_packing(t: &Table<'_>, worst_sum: f64) -> Packed {
    if t.all_integral() {
        if worst_sum < f64::from(i32::MAX) {
            let (r, c) = pack::<i32, 8>(t, |v| v as i32);
            return Packed::I32(r, c);
        }
        if worst_sum < 9_007_199_254_740_992.0 {
            let (r, c) = pack::<i64, 4>(t, |v| v as i64);
            return Packed::I64(r, c);
        }
    }
    let (r, c) = pack::<f64, 4>(t, |v| v);
    Packed::F64(r, c)
}

/// A prepared paired bootstrap over one table.
pub struct Bootstrap {
    n: usize,
    /// columns actually summed (distinct columns of the table)
    width: usize,
    full_width: usize,
    /// for each column of the table, its summed column (None: all distinct)
    expand: Option<Vec<usize>>,
    packed: Packed,
    distinct: Option<(Vec<f64>, Vec<u64>)>,
    sub: u64,
}

impl Bootstrap {
    #[must_use]
    pub fn new(t: &Table<'_>, resampling: Resampling) -> Self {
        // Identical columns (say, the gold counts every system shares) are
        // summed once; sums are exact either way, so this changes no byte.
        let dedup = distinct_columns(t);
        let reduced;
        let tr = match &dedup {
            Some((data, _)) => {
                reduced = Table {
                    data,
                    n: t.n,
                    width: data.len() / t.n,
                };
                &reduced
            }
            None => t,
        };
        let packed = choose_packing(tr, tr.max_abs() * tr.n as f64);
        let distinct = match resampling {
            Resampling::Items => None,
            Resampling::Distinct | Resampling::Auto => {
                let (rows, weights) = distinct_rows(tr);
                let keep = resampling == Resampling::Distinct || weights.len() * 32 <= t.n;
                keep.then_some((rows, weights))
            }
        };
        let expand = dedup.as_ref().map(|(_, map)| map.clone());
        Bootstrap {
            n: t.n,
            width: tr.width,
            full_width: t.width,
            expand,
            packed,
            distinct,
            sub: 0,
        }
    }

    /// The summed statistics (`width` values of the table) of resample `b`.
    pub fn sums(&self, seed: u64, b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        match &self.expand {
            None => self.sums_packed(seed, b, out, counts),
            Some(map) => {
                let mut red = vec![0.0; self.width];
                self.sums_packed(seed, b, &mut red, counts);
                for (o, &m) in out.iter_mut().zip(map) {
                    *o = red[m];
                }
            }
        }
    }

    /// Sums of resamples `b .. b + 4` (`out`: 4 × width), identical to four
    /// calls of [`Bootstrap::sums`].
    pub fn sums4(&self, seed: u64, b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        match &self.expand {
            None => self.sums4_packed(seed, b, out, counts),
            Some(map) => {
                let w = self.width;
                let fw = self.full_width;
                let mut red = vec![0.0; 4 * w];
                self.sums4_packed(seed, b, &mut red, counts);
                for r in 0..4 {
                    for (c, &m) in map.iter().enumerate() {
                        out[r * fw + c] = red[r * w + m];
                    }
                }
            }
        }
    }

    /// The same bootstrap drawing from sub-stream `sub` (0 is the default
    /// stream; independent resamples per system pair use others).
    #[must_use]
    pub fn with_sub(mut self, sub: u64) -> Self {
        self.sub = sub;
        self
    }

    /// Number of distinct rows when resampling over distinct rows.
    #[must_use]
    pub fn distinct_rows(&self) -> Option<usize> {
        self.distinct.as_ref().map(|(_, w)| w.len())
    }

    /// The summed distinct columns of resample `b`.
    fn sums_packed(&self, seed: u64, b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        let mut stream = Stream::new(seed, TAG_BOOTSTRAP, b, self.sub);
        if let Some((rows, weights)) = &self.distinct {
            counts.resize(weights.len(), 0);
            multinomial(&mut stream, self.n as u64, weights, counts);
            out.fill(0.0);
            for (j, &k) in counts.iter().enumerate() {
                let kf = k as f64;
                for (o, &v) in out
                    .iter_mut()
                    .zip(&rows[j * self.width..(j + 1) * self.width])
                {
                    *o += kf * v;
                }
            }
            return;
        }
        let bnd = Bounded::new(self.n as u64);
        match &self.packed {
            Packed::I32(rows, chunks) => {
                if *chunks == 1 {
                    let mut acc = [0i32; 8];
                    bnd.for_each(&mut stream, self.n, |i| {
                        let r = &rows[i];
                        for l in 0..8 {
                            acc[l] = acc[l].wrapping_add(r[l]);
                        }
                    });
                    for (o, a) in out.iter_mut().zip(acc) {
                        *o = f64::from(a);
                    }
                } else if *chunks <= 16 {
                    wide_i32(rows, *chunks, &bnd, &mut stream, self.n, out);
                } else {
                    let mut acc = vec![[0i32; 8]; *chunks];
                    bnd.for_each(&mut stream, self.n, |i| {
                        for (a, r) in acc.iter_mut().zip(&rows[i * chunks..(i + 1) * chunks]) {
                            for l in 0..8 {
                                a[l] = a[l].wrapping_add(r[l]);
                            }
                        }
                    });
                    for (c, o) in out.iter_mut().enumerate() {
                        *o = f64::from(acc[c / 8][c % 8]);
                    }
                }
            }
            Packed::I64(rows, chunks) => {
                let mut acc = vec![[0i64; 4]; *chunks];
                bnd.for_each(&mut stream, self.n, |i| {
                    for (a, r) in acc.iter_mut().zip(&rows[i * chunks..(i + 1) * chunks]) {
                        for l in 0..4 {
                            a[l] = a[l].wrapping_add(r[l]);
                        }
                    }
                });
                for (c, o) in out.iter_mut().enumerate() {
                    *o = acc[c / 4][c % 4] as f64;
                }
            }
            Packed::F64(rows, chunks) => {
                let ch = *chunks;
                if ch == 1 {
                    let a = float_seq_1(rows, &bnd, &mut stream, self.n);
                    out.copy_from_slice(&a[..out.len()]);
                    return;
                }
                if ch <= 16 {
                    wide_f64(rows, ch, &bnd, &mut stream, self.n, out);
                    return;
                }
                let mut acc = vec![[0.0f64; 4]; ch];
                bnd.for_each(&mut stream, self.n, |i| {
                    for (a, r) in acc.iter_mut().zip(&rows[i * ch..(i + 1) * ch]) {
                        add4f(a, r);
                    }
                });
                for (c, o) in out.iter_mut().enumerate() {
                    *o = acc[c / 4][c % 4];
                }
            }
        }
    }
}

impl Bootstrap {
    /// Whether [`Bootstrap::sums4`] has a fast path for this data.
    fn has_fast4(&self) -> bool {
        self.distinct.is_none() && matches!(self.packed, Packed::I32(_, 1) | Packed::F64(_, 1))
    }

    /// Sums of resamples `b .. b + 4` (`out`: 4 × width), identical to four
    /// calls of [`Bootstrap::sums`], with the four streams interleaved.
    fn sums4_packed(&self, seed: u64, b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        let w = self.width;
        if let (true, Packed::I32(rows, _)) = (self.has_fast4(), &self.packed) {
            let bnd = Bounded::new(self.n as u64);
            let accs = sums4_i32(rows, &bnd, self.n, seed, b, self.sub);
            for (m, a) in accs.iter().enumerate() {
                for (o, &v) in out[m * w..(m + 1) * w].iter_mut().zip(a) {
                    *o = f64::from(v);
                }
            }
        } else if let (true, Packed::F64(rows, _)) = (self.has_fast4(), &self.packed) {
            let bnd = Bounded::new(self.n as u64);
            let accs = sums4_f64(rows, &bnd, self.n, seed, b, self.sub);
            for (m, a) in accs.iter().enumerate() {
                out[m * w..(m + 1) * w].copy_from_slice(&a[..w]);
            }
        } else {
            for m in 0..4 {
                self.sums_packed(seed, b + m as u64, &mut out[m * w..(m + 1) * w], counts);
            }
        }
    }
}

#[inline(always)]
fn add4f(a: &mut [f64; 4], r: &[f64; 4]) {
    for l in 0..4 {
        a[l] += r[l];
    }
}

/// Float rows of at most 4 columns, summed in draw order.
fn float_seq_1(rows: &[[f64; 4]], bnd: &Bounded, stream: &mut Stream, n: usize) -> [f64; 4] {
    let mut a = [0.0f64; 4];
    bnd.for_each(stream, n, |i| add4f(&mut a, &rows[i]));
    a
}

/// Four resamples of float rows (at most 4 columns), each summed in draw order.
fn sums4_f64(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 is present (checked above).
        return unsafe { sums4_f64_avx2(rows, bnd, n, seed, b, sub) };
    }
    sums4_f64_body(rows, bnd, n, seed, b, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
unsafe fn sums4_f64_avx2(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    sums4_f64_body(rows, bnd, n, seed, b, sub)
}

#[inline(always)]
fn sums4_f64_body(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    let streams: [Stream; 4] =
        std::array::from_fn(|r| Stream::new(seed, TAG_BOOTSTRAP, b + r as u64, sub));
    interleaved4!(rows, bnd, n, streams, [0.0f64; 4], add4f)
}

/// Rows of 2..=16 chunks, accumulated in draw order: explicit AVX2 adds
/// where available (auto-vectorization of these loops proved fragile: some
/// chunk counts ran 5x slower), a plain loop otherwise. Same bytes either way.
macro_rules! wide_kernel {
    ($name:ident, $avx:ident, $lane:ty, $w:expr, $zero:expr, $add:path, $to_f64:expr,
     $vec:ty, $vzero:ident, $vload:ident, $vadd:ident, $vstore:ident) => {
        fn $name(
            rows: &[[$lane; $w]],
            chunks: usize,
            bnd: &Bounded,
            stream: &mut Stream,
            n: usize,
            out: &mut [f64],
        ) {
            debug_assert!(chunks <= 16 && rows.len() == n * chunks && bnd.n == n as u64);
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: AVX2 is present (checked above).
                return unsafe { $avx(rows, chunks, bnd, stream, n, out) };
            }
            let mut acc = vec![[$zero; $w]; chunks];
            bnd.for_each(stream, n, |i| {
                for (a, r) in acc.iter_mut().zip(&rows[i * chunks..(i + 1) * chunks]) {
                    $add(a, r);
                }
            });
            for (c, o) in out.iter_mut().enumerate() {
                *o = $to_f64(acc[c / $w][c % $w]);
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi2")]
        unsafe fn $avx(
            rows: &[[$lane; $w]],
            chunks: usize,
            bnd: &Bounded,
            stream: &mut Stream,
            n: usize,
            out: &mut [f64],
        ) {
            use std::arch::x86_64::*;
            let mut acc: [$vec; 16] = [$vzero(); 16];
            let rp = rows.as_ptr();
            let add_row = |i: u32, acc: &mut [$vec; 16]| {
                // i < n (Bounded::map) and rows.len() == n * chunks
                let base = rp.add(i as usize * chunks);
                for c in 0..chunks {
                    acc[c] = $vadd(acc[c], $vload(base.add(c).cast()));
                }
            };
            // Bounded::for_each written out, so the adds stay in this AVX2 function
            let mut left = n;
            while left >= 2 {
                let u = stream.next_u64();
                if let Some(i) = bnd.map(u as u32) {
                    add_row(i, &mut acc);
                    left -= 1;
                }
                if let Some(i) = bnd.map((u >> 32) as u32) {
                    add_row(i, &mut acc);
                    left -= 1;
                }
            }
            while left > 0 {
                let u = stream.next_u64();
                if let Some(i) = bnd.map(u as u32) {
                    add_row(i, &mut acc);
                    break;
                }
                if let Some(i) = bnd.map((u >> 32) as u32) {
                    add_row(i, &mut acc);
                    left -= 1;
                }
            }
            let mut tmp = [[$zero; $w]; 16];
            for c in 0..chunks {
                $vstore(tmp[c].as_mut_ptr().cast(), acc[c]);
            }
            for (c, o) in out.iter_mut().enumerate() {
                *o = $to_f64(tmp[c / $w][c % $w]);
            }
        }
    };
}

wide_kernel!(
    wide_i32,
    wide_i32_avx2,
    i32,
    8,
    0i32,
    add8,
    f64::from,
    __m256i,
    _mm256_setzero_si256,
    _mm256_loadu_si256,
    _mm256_add_epi32,
    _mm256_storeu_si256
);
wide_kernel!(
    wide_f64,
    wide_f64_avx2,
    f64,
    4,
    0.0f64,
    add4f,
    |v: f64| v,
    __m256d,
    _mm256_setzero_pd,
    _mm256_loadu_pd,
    _mm256_add_pd,
    _mm256_storeu_pd
);

#[inline(always)]
fn add8(a: &mut [i32; 8], r: &[i32; 8]) {
    for l in 0..8 {
        a[l] = a[l].wrapping_add(r[l]);
    }
}

static SIMD_OFF: AtomicBool = AtomicBool::new(false);

/// Turn the SIMD kernels off (or back on). They compute the same bytes as
/// the scalar code; the switch exists to test exactly that, and to measure.
pub fn set_simd(enabled: bool) {
    SIMD_OFF.store(!enabled, Ordering::Relaxed);
}

/// Whether this CPU runs the AVX2 builds of the hot loops (same arithmetic,
/// so the same results, only faster).
#[inline]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        !SIMD_OFF.load(Ordering::Relaxed)
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Four resamples' sums with their streams interleaved in registers.
/// Each stream is consumed exactly as [`Bounded::for_each`] consumes it.
fn sums4_i32(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU supports the enabled features (checked above).
        return unsafe { sums4_i32_avx2(rows, bnd, n, seed, b, sub) };
    }
    sums4_i32_body(rows, bnd, n, seed, b, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
unsafe fn sums4_i32_avx2(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    sums4_i32_body(rows, bnd, n, seed, b, sub)
}

#[inline(always)]
fn sums4_i32_body(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    let streams: [Stream; 4] =
        std::array::from_fn(|r| Stream::new(seed, TAG_BOOTSTRAP, b + r as u64, sub));
    interleaved4!(rows, bnd, n, streams, [0i32; 8], add8)
}

/// The table's distinct columns (item-major) and, for every column, the
/// index of its distinct column; `None` when all columns differ.
fn distinct_columns(t: &Table<'_>) -> Option<(Vec<f64>, Vec<usize>)> {
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

fn distinct_rows(t: &Table<'_>) -> (Vec<f64>, Vec<u64>) {
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

/// Run `f(first_resample, out_rows)` over fixed blocks of resamples in a pool
/// of `threads` threads (0 = all cores); `stride` output values per resample.
pub fn par_blocks<F>(
    total: usize,
    stride: usize,
    threads: usize,
    progress: &Progress,
    f: F,
) -> Result<Vec<f64>>
where
    F: Fn(usize, &mut [f64]) + Sync,
{
    let mut out = vec![0.0f64; total * stride];
    if total == 0 {
        return Ok(out);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start threads: {e}")))?;
    pool.install(|| {
        out.par_chunks_mut(BLOCK * stride)
            .enumerate()
            .try_for_each(|(blk, chunk)| {
                if progress.cancel.load(Ordering::Relaxed) {
                    return Err(Error::Cancelled);
                }
                f(blk * BLOCK, chunk);
                progress
                    .done
                    .fetch_add((chunk.len() / stride) as u64, Ordering::Relaxed);
                Ok(())
            })
    })?;
    Ok(out)
}

fn check_systems(t: &Table<'_>, metric: &Metric) -> Result<usize> {
    let k = metric.n_stats();
    if t.width % k != 0 {
        return Err(Error::Input(format!(
            "{} statistic columns is not a multiple of the {} statistics per system that the metric needs",
            t.width, k
        )));
    }
    Ok(t.width / k)
}

/// Metric values of every system on every bootstrap resample:
/// `n_resamples × systems`, resample-major.
pub fn bootstrap_values(
    t: &Table<'_>,
    metric: &Metric,
    seed: u64,
    n_resamples: usize,
    resampling: Resampling,
    threads: usize,
    progress: &Progress,
) -> Result<(Vec<f64>, Option<usize>)> {
    let boot = Bootstrap::new(t, resampling);
    let d = boot.distinct_rows();
    Ok((
        bootstrap_values_range(t, &boot, metric, seed, 0, n_resamples, threads, progress)?,
        d,
    ))
}

/// Metric values of resamples `start .. start + count` with a prepared bootstrap.
#[allow(clippy::too_many_arguments)]
pub fn bootstrap_values_range(
    t: &Table<'_>,
    boot: &Bootstrap,
    metric: &Metric,
    seed: u64,
    start: u64,
    count: usize,
    threads: usize,
    progress: &Progress,
) -> Result<Vec<f64>> {
    let systems = check_systems(t, metric)?;
    let k = metric.n_stats();
    let nf = t.n as f64;
    par_blocks(count, systems, threads, progress, |first, chunk| {
        let w = t.width;
        let mut sums = vec![0.0; 4 * w];
        let mut counts = Vec::new();
        let rows = chunk.len() / systems;
        let mut r = 0;
        while r < rows {
            let b = start + (first + r) as u64;
            let group = if rows - r >= 4 { 4 } else { 1 };
            if group == 4 {
                boot.sums4(seed, b, &mut sums, &mut counts);
            } else {
                boot.sums(seed, b, &mut sums[..w], &mut counts);
            }
            for g in 0..group {
                let row = &mut chunk[(r + g) * systems..(r + g + 1) * systems];
                let sm = &sums[g * w..(g + 1) * w];
                for (s, v) in row.iter_mut().enumerate() {
                    *v = metric.score(&sm[s * k..(s + 1) * k], nf);
                }
            }
            r += group;
        }
    })
}

/// Summed statistics of bootstrap resamples `start .. start + count`
/// (`count × width`), for metrics evaluated outside the engine.
pub fn bootstrap_sums(
    t: &Table<'_>,
    seed: u64,
    start: u64,
    count: usize,
    resampling: Resampling,
    threads: usize,
    progress: &Progress,
) -> Result<(Vec<f64>, Option<usize>)> {
    bootstrap_sums_sub(t, seed, start, count, resampling, 0, threads, progress)
}

/// [`bootstrap_sums`] on sub-stream `sub`.
#[allow(clippy::too_many_arguments)]
pub fn bootstrap_sums_sub(
    t: &Table<'_>,
    seed: u64,
    start: u64,
    count: usize,
    resampling: Resampling,
    sub: u64,
    threads: usize,
    progress: &Progress,
) -> Result<(Vec<f64>, Option<usize>)> {
    let boot = Bootstrap::new(t, resampling).with_sub(sub);
    let out = par_blocks(count, t.width, threads, progress, |first, chunk| {
        let mut counts = Vec::new();
        for (r, row) in chunk.chunks_mut(t.width).enumerate() {
            boot.sums(seed, start + (first + r) as u64, row, &mut counts);
        }
    })?;
    Ok((out, boot.distinct_rows()))
}

/// Paired swaps of two systems' statistics (width = 2k: x then y).
///
/// Integer statistics keep y − x column by column in 32-bit (or 64-bit)
/// lanes, padded to whole 64-item words, and add them under 64-bit swap
/// masks: exact, and vectorized. Float statistics are added in item order.
pub struct Swapper {
    k: usize,
    words: usize,
    /// y − x, column-major, `k × 64·words`, when integral and small
    diff_i32: Option<Vec<i32>>,
    /// y − x, column-major, when integral but large
    diff_i64: Option<Vec<i64>>,
    /// y − x, column-major `k × 64·words` (float path)
    diff_f: Vec<f64>,
    total_x: Vec<f64>,
    total_y: Vec<f64>,
}

macro_rules! masked_column_sums {
    ($name:ident, $t:ty) => {
        #[inline(always)]
        fn $name(
            cols: &[$t],
            words: usize,
            k: usize,
            mut word: impl FnMut(usize) -> u64,
            acc: &mut [i64],
        ) {
            let npad = words * 64;
            acc.fill(0);
            for wi in 0..words {
                let w = word(wi);
                let mut m = [0 as $t; 64];
                for (j, mj) in m.iter_mut().enumerate() {
                    *mj = ((w >> j) & 1) as $t;
                    *mj = (0 as $t).wrapping_sub(*mj);
                }
                for (c, a) in acc.iter_mut().enumerate().take(k) {
                    let col = &cols[c * npad + wi * 64..c * npad + wi * 64 + 64];
                    let mut s: $t = 0;
                    for j in 0..64 {
                        s = s.wrapping_add(col[j] & m[j]);
                    }
                    *a += s as i64;
                }
            }
        }
    };
}
masked_column_sums!(masked_i32, i32);

/// Float swap sums: item i goes to lane i mod 4 (in item order within a
/// lane), the lanes combined as (l0 + l1) + (l2 + l3).
#[inline(always)]
fn float_masked(
    cols: &[f64],
    words: usize,
    k: usize,
    mut word: impl FnMut(usize) -> u64,
    acc: &mut [f64],
) {
    let npad = words * 64;
    let mut lanes = vec![[0.0f64; 4]; k];
    for wi in 0..words {
        let w = word(wi);
        let mut m = [0.0f64; 64];
        for (j, mj) in m.iter_mut().enumerate() {
            *mj = ((w >> j) & 1) as f64;
        }
        for (c, lane) in lanes.iter_mut().enumerate() {
            let col = &cols[c * npad + wi * 64..c * npad + wi * 64 + 64];
            for q in 0..16 {
                for l in 0..4 {
                    lane[l] += col[4 * q + l] * m[4 * q + l];
                }
            }
        }
    }
    for (a, lane) in acc.iter_mut().zip(&lanes) {
        *a = (lane[0] + lane[1]) + (lane[2] + lane[3]);
    }
}
masked_column_sums!(masked_i64, i64);

impl Swapper {
    pub fn new(t: &Table<'_>) -> Result<Self> {
        if t.width % 2 != 0 {
            return Err(Error::Input(
                "a paired swap needs two systems with equal statistics".into(),
            ));
        }
        let k = t.width / 2;
        let words = t.n.div_ceil(64);
        let npad = words * 64;
        let mut diff_f = Vec::with_capacity(t.n * k);
        let mut total_x = vec![0.0; k];
        let mut total_y = vec![0.0; k];
        for i in 0..t.n {
            let r = t.row(i);
            for c in 0..k {
                diff_f.push(r[k + c] - r[c]);
                total_x[c] += r[c];
                total_y[c] += r[k + c];
            }
        }
        let max_abs = t.max_abs();
        let integral = t.all_integral() && max_abs * 2.0 * (t.n as f64) < 4.5e15;
        let col_major = |conv: &dyn Fn(f64) -> i64| -> Vec<i64> {
            let mut v = vec![0i64; k * npad];
            for i in 0..t.n {
                for c in 0..k {
                    v[c * npad + i] = conv(diff_f[i * k + c]);
                }
            }
            v
        };
        let mut diff_fc = vec![0.0f64; k * npad];
        for i in 0..t.n {
            for c in 0..k {
                diff_fc[c * npad + i] = diff_f[i * k + c];
            }
        }
        let (mut diff_i32, mut diff_i64) = (None, None);
        if integral {
            let cols = col_major(&|v| v as i64);
            if 2.0 * max_abs * 64.0 < f64::from(i32::MAX) {
                diff_i32 = Some(cols.iter().map(|&v| v as i32).collect());
            } else {
                diff_i64 = Some(cols);
            }
        }
        Ok(Swapper {
            k,
            words,
            diff_i32,
            diff_i64,
            diff_f: diff_fc,
            total_x,
            total_y,
        })
    }

    /// Sums of (x', y') after swapping; `word(j)` gives the swap bits of
    /// items 64j .. 64j + 63 (bit i mod 64 set: item i swapped).
    fn sums(
        &self,
        word: impl FnMut(usize) -> u64,
        out: &mut [f64],
        acc_i: &mut [i64],
        acc_f: &mut [f64],
    ) {
        let k = self.k;
        if self.diff_i32.is_some() || self.diff_i64.is_some() {
            if let Some(d) = &self.diff_i32 {
                masked_i32(d, self.words, k, word, acc_i);
            } else if let Some(d) = &self.diff_i64 {
                masked_i64(d, self.words, k, word, acc_i);
            }
            for c in 0..k {
                let m = acc_i[c] as f64;
                out[c] = self.total_x[c] + m;
                out[k + c] = self.total_y[c] - m;
            }
        } else {
            float_masked(&self.diff_f, self.words, k, word, acc_f);
            for c in 0..k {
                out[c] = self.total_x[c] + acc_f[c];
                out[k + c] = self.total_y[c] - acc_f[c];
            }
        }
    }

    /// Random swaps of resample `b`: item i uses bit i mod 64 of word i / 64.
    pub fn random_sums(
        &self,
        seed: u64,
        b: u64,
        out: &mut [f64],
        acc_i: &mut [i64],
        acc_f: &mut [f64],
    ) {
        let mut stream = Stream::new(seed, TAG_PERMUTE, b, 0);
        self.sums(|_| stream.next_u64(), out, acc_i, acc_f);
    }

    /// Swaps of arrangement `mask`: item i swapped iff bit i is set (n ≤ 64).
    pub fn mask_sums(&self, mask: u64, out: &mut [f64], acc_i: &mut [i64], acc_f: &mut [f64]) {
        self.sums(|_| mask, out, acc_i, acc_f);
    }
}

fn swap_driver(
    t: &Table<'_>,
    total: usize,
    threads: usize,
    progress: &Progress,
    stride: usize,
    fill: impl Fn(&Swapper, u64, &mut [f64], &mut [f64], &mut [i64], &mut [f64]) + Sync,
) -> Result<Vec<f64>> {
    let sw = Swapper::new(t)?;
    par_blocks(total, stride, threads, progress, |start, chunk| {
        let mut sums = vec![0.0; t.width];
        let mut ai = vec![0i64; sw.k];
        let mut af = vec![0.0; sw.k];
        for (r, row) in chunk.chunks_mut(stride).enumerate() {
            fill(&sw, (start + r) as u64, row, &mut sums, &mut ai, &mut af);
        }
    })
}

/// Metric values (x', y') of approximate-randomization resamples: `n_resamples × 2`.
pub fn permutation_values(
    t: &Table<'_>,
    metric: &Metric,
    seed: u64,
    n_resamples: usize,
    threads: usize,
    progress: &Progress,
) -> Result<Vec<f64>> {
    two_systems(t, metric)?;
    let k = metric.n_stats();
    let nf = t.n as f64;
    swap_driver(
        t,
        n_resamples,
        threads,
        progress,
        2,
        |sw, b, row, sums, ai, af| {
            sw.random_sums(seed, b, sums, ai, af);
            row[0] = metric.score(&sums[..k], nf);
            row[1] = metric.score(&sums[k..], nf);
        },
    )
}

/// Metric values (x', y') of all 2^n swap arrangements: `2^n × 2`.
pub fn exact_permutation_values(
    t: &Table<'_>,
    metric: &Metric,
    threads: usize,
    progress: &Progress,
) -> Result<Vec<f64>> {
    two_systems(t, metric)?;
    exact_size(t)?;
    let k = metric.n_stats();
    let nf = t.n as f64;
    swap_driver(
        t,
        1usize << t.n,
        threads,
        progress,
        2,
        |sw, m, row, sums, ai, af| {
            sw.mask_sums(m, sums, ai, af);
            row[0] = metric.score(&sums[..k], nf);
            row[1] = metric.score(&sums[k..], nf);
        },
    )
}

fn exact_size(t: &Table<'_>) -> Result<()> {
    if t.n > MAX_EXACT_ITEMS {
        return Err(Error::Input(format!(
            "the exact permutation test enumerates 2^n arrangements; n = {} is above the limit of {}",
            t.n, MAX_EXACT_ITEMS
        )));
    }
    Ok(())
}

/// Summed statistics of swap resamples `start .. start + count` (`count × width`);
/// `exact` enumerates arrangements instead of drawing them.
pub fn permutation_sums(
    t: &Table<'_>,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
    threads: usize,
    progress: &Progress,
) -> Result<Vec<f64>> {
    if exact {
        exact_size(t)?;
    }
    swap_driver(
        t,
        count,
        threads,
        progress,
        t.width,
        |sw, r, row, _sums, ai, af| {
            let b = start + r;
            if exact {
                sw.mask_sums(b, row, ai, af);
            } else {
                sw.random_sums(seed, b, row, ai, af);
            }
        },
    )
}

fn two_systems(t: &Table<'_>, metric: &Metric) -> Result<()> {
    if check_systems(t, metric)? != 2 {
        return Err(Error::Input(
            "a paired test takes exactly two systems".into(),
        ));
    }
    Ok(())
}

/// The floor of any exact item bootstrap: draw and count `n_resamples × n`
/// indices with the same generator, and nothing else. Returns a checksum.
pub fn draw_count_floor(n: usize, n_resamples: usize, seed: u64, threads: usize) -> Result<u64> {
    let progress = Progress::new();
    let out = par_blocks(n_resamples, 1, threads, &progress, |start, chunk| {
        let bnd = Bounded::new(n as u64);
        let mut counts = vec![0u32; n];
        for (r, o) in chunk.iter_mut().enumerate() {
            counts.fill(0);
            let b = (start + r) as u64;
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: the CPU supports the enabled features (checked above).
                unsafe { floor_one_avx2(&bnd, &mut counts, seed, b) };
                *o = f64::from(counts[0]);
                continue;
            }
            floor_one(&bnd, &mut counts, seed, b);
            *o = f64::from(counts[0]);
        }
    })?;
    Ok(out.iter().map(|&v| v as u64).sum())
}

#[inline(always)]
fn floor_one(bnd: &Bounded, counts: &mut [u32], seed: u64, b: u64) {
    let n = counts.len();
    debug_assert!(n as u64 == bnd.n);
    let mut stream = Stream::new(seed, TAG_BOOTSTRAP, b, 0);
    // SAFETY: Bounded::map returns indices below bnd.n == counts.len().
    bnd.for_each(&mut stream, n, |i| unsafe {
        *counts.get_unchecked_mut(i) += 1
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
unsafe fn floor_one_avx2(bnd: &Bounded, counts: &mut [u32], seed: u64, b: u64) {
    floor_one(bnd, counts, seed, b);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(data: &[f64], n: usize, w: usize) -> Table<'_> {
        Table::new(data, n, w).unwrap()
    }

    #[test]
    fn identical_for_any_thread_count() {
        let n = 300;
        let data: Vec<f64> = (0..n * 6).map(|i| ((i * 7919) % 13) as f64).collect();
        let t = table(&data, n, 6);
        let m = Metric::FBeta { beta: 1.0 };
        let p = Progress::new();
        let (a, _) = bootstrap_values(&t, &m, 5, 1000, Resampling::Items, 1, &p).unwrap();
        for threads in [2, 3] {
            let (b, _) = bootstrap_values(&t, &m, 5, 1000, Resampling::Items, threads, &p).unwrap();
            assert_eq!(a, b);
        }
        let fl: Vec<f64> = data.iter().map(|v| v * 0.37 + 0.001).collect();
        let tf = table(&fl, n, 6);
        let (c, _) = bootstrap_values(&tf, &m, 5, 700, Resampling::Items, 1, &p).unwrap();
        let (d, _) = bootstrap_values(&tf, &m, 5, 700, Resampling::Items, 3, &p).unwrap();
        assert_eq!(c, d);
    }

    #[test]
    fn sums_batches_agree_with_values() {
        let n = 50;
        let data: Vec<f64> = (0..n * 2).map(|i| (i % 3) as f64).collect();
        let t = table(&data, n, 2);
        let p = Progress::new();
        let (all, _) = bootstrap_sums(&t, 9, 0, 600, Resampling::Items, 2, &p).unwrap();
        // grouped (4 at a time) and single resamples agree
        let boot = Bootstrap::new(&t, Resampling::Items);
        let mut four = vec![0.0; 8];
        let mut c = Vec::new();
        boot.sums4(9, 8, &mut four, &mut c);
        assert_eq!(&all[16..24], &four[..]);
        let (tail, _) = bootstrap_sums(&t, 9, 300, 300, Resampling::Items, 1, &p).unwrap();
        assert_eq!(&all[600..], &tail[..]);
        // every resample draws exactly n items: sums of a constant column
        let ones: Vec<f64> = vec![1.0; n];
        let t1 = table(&ones, n, 1);
        let (s, _) = bootstrap_sums(&t1, 1, 0, 10, Resampling::Items, 1, &p).unwrap();
        assert!(s.iter().all(|&v| v == n as f64));
    }

    #[test]
    fn distinct_rows_draw_n_items() {
        let n = 4000;
        let data: Vec<f64> = (0..n * 2)
            .map(|i| ((i / 2) % 4 == 0) as u8 as f64)
            .collect();
        let t = table(&data, n, 2);
        let boot = Bootstrap::new(&t, Resampling::Auto);
        assert_eq!(boot.distinct_rows(), Some(2));
        let mut out = vec![0.0; 2];
        let mut counts = Vec::new();
        let mut mean = 0.0;
        for b in 0..2000 {
            boot.sums(1, b, &mut out, &mut counts);
            assert_eq!(counts.iter().sum::<u64>(), n as u64);
            mean += out[0];
        }
        mean /= 2000.0;
        // expected 1000 ones; sd of the mean over 2000 resamples ≈ 0.61
        assert!((mean - 1000.0).abs() < 3.0, "{mean}");
    }

    #[test]
    fn identity_swap_gives_observed() {
        let data = [1.0, 2.0, 3.0, 5.0, 0.5, 0.25];
        let t = table(&data, 3, 2);
        let sw = Swapper::new(&t).unwrap();
        let mut out = [0.0; 2];
        let (mut ai, mut af) = (vec![0i64; 1], vec![0.0; 1]);
        sw.mask_sums(0, &mut out, &mut ai, &mut af);
        assert_eq!(out, [1.0 + 3.0 + 0.5, 2.0 + 5.0 + 0.25]);
        sw.mask_sums(0b111, &mut out, &mut ai, &mut af);
        assert_eq!(out, [2.0 + 5.0 + 0.25, 1.0 + 3.0 + 0.5]);
    }

    #[test]
    fn rejects_bad_tables() {
        assert!(Table::new(&[], 0, 1).is_err());
        assert!(Table::new(&[1.0, f64::NAN], 1, 2).is_err());
        assert!(Table::new(&[1.0, 2.0, 3.0], 2, 2).is_err());
        let data = [1.0; 40];
        let t = table(&data, 40, 1);
        let p = Progress::new();
        assert!(exact_permutation_values(
            &t,
            &Metric::Mean {
                higher_is_better: true
            },
            1,
            &p
        )
        .is_err());
    }

    #[test]
    fn cancel_stops_work() {
        let data = [1.0; 20];
        let t = table(&data, 10, 2);
        let p = Progress::new();
        p.cancel.store(true, Ordering::Relaxed);
        let r = bootstrap_values(
            &t,
            &Metric::Mean {
                higher_is_better: true,
            },
            1,
            10_000,
            Resampling::Items,
            1,
            &p,
        );
        assert!(matches!(r, Err(Error::Cancelled)));
    }
}
