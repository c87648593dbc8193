//! The paired bootstrap over items or distinct rows, and its drivers.
//!
//! How a resample's sums are formed, by stream version and data:
//!
//! * integer statistics (sums below 2^53) are exact, so the order never
//!   matters: narrow tables (sums below 2^31; at most 64 columns under
//!   stream version 1, 8 under version 2) add each drawn row in 32-bit
//!   lanes; wider ones count the draws of a block of resamples and multiply
//!   the counts by the statistics ([`Product`]);
//! * float statistics under stream version 1 are summed in draw order (the
//!   bytes of every earlier release);
//! * float statistics under stream version 2 are `Σ_i fl(c_i · v_i)` over
//!   items `i` in increasing order (`c_i`: how often item `i` was drawn;
//!   products rounded, then added; see [`crate::simd::fixed_product`]), so a
//!   block of resamples is one fixed-order matrix product;
//! * over distinct rows (both versions), `Σ_j fl(c_j · v_j)` over distinct
//!   rows `j` in order of first appearance, from multinomial counts `c_j`.

use crate::binomial::multinomial;
use crate::metric::Metric;
use crate::rng::{Bounded, Version, Xoshiro, TAG_BOOTSTRAP};
use crate::simd::{
    add4f, add8, avx2_bmi2, count_v2, float_seq_1, floor_one, sums4_f64, sums4_i32, sums_i32_v2,
    wide_f64, wide_i32, Cell,
};
use crate::Result;

use super::gemm::{Product, F64_EXACT};
use super::pack::*;
use super::{check_systems, par_blocks, Job, Progress, Resampling, Table};

/// How a prepared bootstrap forms its sums.
enum Plan {
    /// Drawn rows added in draw order (packed exactly, see [`Packed`]).
    Draw(Packed),
    /// Counts of a block of resamples times the statistics.
    Counts(Product),
    /// Multinomial counts over distinct rows (rows, multiplicities).
    Distinct(Vec<f64>, Vec<u64>),
}

/// Widest integer table whose sums add drawn rows (in 32-bit lanes) under
/// stream version 1; wider ones go through a GEMM of the draw counts, which
/// then costs less. (Under version 2, whose draws cost less, the GEMM wins
/// beyond 8 columns.)
const DRAW_WIDTH: usize = 64;

/// Largest count matrix (bytes) one GEMM works on at a time (the GEMM packs
/// its operands; larger blocks amortize packing the statistics).
const COUNTS_BYTES: usize = 4 << 20;
/// Largest count matrix (bytes) one fixed-order product of a narrow table
/// (one panel of columns) works on at a time: it reads the counts once, in
/// place, so they should stay in cache. Wide tables take [`COUNTS_BYTES`]:
/// every block of resamples reads the whole table once.
const FIXED_COUNTS_BYTES: usize = 256 << 10;

/// A prepared paired bootstrap over one table, for one stream version.
pub struct Bootstrap {
    n: usize,
    /// columns actually summed (distinct columns of the table)
    width: usize,
    full_width: usize,
    /// for each column of the table, its summed column (None: all distinct)
    expand: Option<Vec<usize>>,
    version: Version,
    plan: Plan,
}

impl Bootstrap {
    #[must_use]
    pub fn new(t: &Table<'_>, resampling: Resampling, version: Version) -> Self {
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
        let distinct = match resampling {
            Resampling::Items => None,
            Resampling::Distinct | Resampling::Auto => {
                let (rows, weights) = distinct_rows(tr);
                let keep = resampling == Resampling::Distinct || weights.len() * 32 <= t.n;
                keep.then_some((rows, weights))
            }
        };
        let worst = tr.max_abs() * tr.n as f64;
        let plan = match distinct {
            Some((rows, weights)) => Plan::Distinct(rows, weights),
            None => {
                let exact = tr.all_integral() && worst < F64_EXACT;
                let draw_width = if version == Version::V1 {
                    DRAW_WIDTH
                } else {
                    8
                };
                if exact && worst < f64::from(i32::MAX) && tr.width <= draw_width {
                    let (rows, chunks) = pack::<i32, 8>(tr, |v| v as i32);
                    Plan::Draw(Packed::I32(rows, chunks))
                } else if exact || version == Version::V2 {
                    Plan::Counts(Product::new(tr, exact, worst))
                } else {
                    let (rows, chunks) = pack::<f64, 4>(tr, |v| v);
                    Plan::Draw(Packed::F64(rows, chunks))
                }
            }
        };
        let expand = dedup.as_ref().map(|(_, map)| map.clone());
        Bootstrap {
            n: t.n,
            width: tr.width,
            full_width: t.width,
            expand,
            version,
            plan,
        }
    }

    /// The stream version the bootstrap draws from.
    #[must_use]
    pub fn version(&self) -> Version {
        self.version
    }

    /// Number of distinct rows when resampling over them.
    #[must_use]
    pub fn distinct_rows(&self) -> Option<usize> {
        match &self.plan {
            Plan::Distinct(_, w) => Some(w.len()),
            _ => None,
        }
    }

    /// The summed statistics (`width` values of the table) of resample `b`
    /// of the job's stream.
    pub fn sums(&self, job: &Job<'_>, b: u64, out: &mut [f64]) {
        self.block_sums(job, b, 1, out);
    }

    /// The summed statistics of resamples `first .. first + rows` of the
    /// job's stream into `out` (`rows × width`, resample-major): the same
    /// bytes as one call of [`Bootstrap::sums`] per resample.
    pub fn block_sums(&self, job: &Job<'_>, first: u64, rows: usize, out: &mut [f64]) {
        assert_eq!(
            job.stream, self.version,
            "a bootstrap prepared for one stream version draws only from it"
        );
        let (w, fw) = (self.width, self.full_width);
        assert!(out.len() >= rows * fw);
        match &self.expand {
            None => self.reduced_sums((job.seed, job.sub), first, rows, out),
            Some(map) => {
                let mut red = vec![0.0; rows * w];
                self.reduced_sums((job.seed, job.sub), first, rows, &mut red);
                for r in 0..rows {
                    for (c, &m) in map.iter().enumerate() {
                        out[r * fw + c] = red[r * w + m];
                    }
                }
            }
        }
    }

    /// Sums of the distinct columns of resamples `first .. first + rows`.
    fn reduced_sums(&self, key: (u64, u64), first: u64, rows: usize, out: &mut [f64]) {
        let w = self.width;
        match &self.plan {
            Plan::Distinct(drows, weights) => {
                let mut counts = vec![0u64; weights.len()];
                for r in 0..rows {
                    let b = first + r as u64;
                    let mut stream =
                        crate::simd::stream_new(self.version, key.0, TAG_BOOTSTRAP, b, key.1);
                    multinomial(&mut stream, self.n as u64, weights, &mut counts);
                    let o = &mut out[r * w..(r + 1) * w];
                    o.fill(0.0);
                    for (j, &k) in counts.iter().enumerate() {
                        let kf = k as f64;
                        for (o, &v) in o.iter_mut().zip(&drows[j * w..(j + 1) * w]) {
                            *o += kf * v;
                        }
                    }
                }
            }
            Plan::Draw(packed) => {
                let mut r = 0;
                while r < rows {
                    let b = first + r as u64;
                    if self.version == Version::V1 && rows - r >= 4 && has_fast4(packed) {
                        sums4_v1(packed, self.n, key, b, &mut out[r * w..(r + 4) * w], w);
                        r += 4;
                    } else {
                        self.draw_sums(packed, key, b, &mut out[r * w..(r + 1) * w]);
                        r += 1;
                    }
                }
            }
            Plan::Counts(product) if self.n <= usize::from(u16::MAX) => {
                self.product_sums::<u16>(product, key, first, rows, out);
            }
            Plan::Counts(product) => self.product_sums::<u32>(product, key, first, rows, out),
        }
    }

    /// Counts of resample `b` into `row` (one cell per item), counted in
    /// `scratch` (integers: the fastest increments).
    fn count_row<S: Cell + Default + Into<u32>, C: Cell>(
        &self,
        key: (u64, u64),
        b: u64,
        scratch: &mut [S],
        row: &mut [C],
    ) {
        scratch.fill(S::default());
        let bnd = Bounded::new(self.n as u64);
        match self.version {
            Version::V1 => {
                let mut x = Xoshiro::new(key.0, TAG_BOOTSTRAP, b, key.1);
                // SAFETY: Bounded::map returns indices below n == scratch.len().
                bnd.for_each_v1(&mut x, self.n, |i| unsafe {
                    scratch.get_unchecked_mut(i).inc()
                });
            }
            Version::V2 => {
                let mut l = crate::simd::lanes_new(key.0, TAG_BOOTSTRAP, b, key.1);
                count_v2(&bnd, &mut l, self.n, scratch);
            }
        }
        for (o, &c) in row.iter_mut().zip(scratch.iter()) {
            *o = C::of(c.into());
        }
    }

    /// Sums through a product of counts, in sub-blocks that keep the count
    /// matrix near [`COUNTS_BYTES`]; each resample counted in cells `S`
    /// (16-bit where n fits: a resample's counts are at most n).
    fn product_sums<S: Cell + Default + Into<u32>>(
        &self,
        product: &Product,
        key: (u64, u64),
        first: u64,
        rows: usize,
        out: &mut [f64],
    ) {
        let (n, w) = (self.n, self.width);
        let cell = if product.single() { 4 } else { 8 };
        let bytes = if product.fixed() && w <= 8 {
            FIXED_COUNTS_BYTES
        } else {
            COUNTS_BYTES
        };
        let cap = (bytes / (n * cell)).clamp(8, 256);
        let m = rows.min(cap);
        let mut scratch = vec![S::default(); n];
        if product.single() {
            let mut a = vec![0.0f32; m * n];
            let mut c = vec![0.0f32; m * w];
            for r0 in (0..rows).step_by(m) {
                let len = m.min(rows - r0);
                for (r, row) in a.chunks_exact_mut(n).take(len).enumerate() {
                    self.count_row(key, first + (r0 + r) as u64, &mut scratch, row);
                }
                product.multiply_f32(&a, len, n, w, &mut c);
                for (o, &v) in out[r0 * w..(r0 + len) * w].iter_mut().zip(&c) {
                    *o = f64::from(v);
                }
            }
        } else if product.fixed() {
            // counts in tiles of `tr` rows: item-major within a tile, or row-major
            let (tr, packed) = Product::tiles(w);
            let tiles = m.div_ceil(tr);
            let mut a = vec![0.0f64; tiles * tr * n];
            let mut c = vec![0.0f64; tiles * tr * w];
            let mut row = vec![0.0f64; if packed { n } else { 0 }];
            for r0 in (0..rows).step_by(m) {
                let len = m.min(rows - r0);
                let used = len.div_ceil(tr);
                for r in 0..used * tr {
                    let b = first + (r0 + r) as u64;
                    if !packed {
                        let dst = &mut a[r * n..(r + 1) * n];
                        if r < len {
                            self.count_row(key, b, &mut scratch, dst);
                        } else {
                            dst.fill(0.0);
                        }
                        continue;
                    }
                    let (t, lane) = (r / tr, r % tr);
                    let tile = &mut a[t * tr * n..(t + 1) * tr * n];
                    if r < len {
                        self.count_row(key, b, &mut scratch, &mut row);
                        for (i, &v) in row.iter().enumerate() {
                            tile[i * tr + lane] = v;
                        }
                    } else {
                        for i in 0..n {
                            tile[i * tr + lane] = 0.0;
                        }
                    }
                }
                product.multiply_fixed(&a, used, n, w, &mut c);
                out[r0 * w..(r0 + len) * w].copy_from_slice(&c[..len * w]);
            }
        } else {
            let mut a = vec![0.0f64; m * n];
            for r0 in (0..rows).step_by(m) {
                let len = m.min(rows - r0);
                for (r, row) in a.chunks_exact_mut(n).take(len).enumerate() {
                    self.count_row(key, first + (r0 + r) as u64, &mut scratch, row);
                }
                product.multiply_f64(&a, len, n, w, &mut out[r0 * w..(r0 + len) * w]);
            }
        }
    }

    /// The summed distinct columns of resample `b`, drawn rows added in draw order.
    fn draw_sums(&self, packed: &Packed, (seed, sub): (u64, u64), b: u64, out: &mut [f64]) {
        let bnd = Bounded::new(self.n as u64);
        if self.version == Version::V2 {
            // only integer rows of at most 8 columns are drawn under version 2
            let Packed::I32(rows, chunks) = packed else {
                unreachable!("version 2 draws only integer rows")
            };
            debug_assert_eq!(*chunks, 1);
            let mut lanes = crate::simd::lanes_new(seed, TAG_BOOTSTRAP, b, sub);
            let acc = sums_i32_v2(rows, &bnd, &mut lanes, self.n);
            for (o, a) in out.iter_mut().zip(acc) {
                *o = f64::from(a);
            }
            return;
        }
        let mut stream = Xoshiro::new(seed, TAG_BOOTSTRAP, b, sub);
        match packed {
            Packed::I32(rows, 1) => {
                let mut acc = [0i32; 8];
                bnd.for_each_v1(&mut stream, self.n, |i| add8(&mut acc, &rows[i]));
                for (o, a) in out.iter_mut().zip(acc) {
                    *o = f64::from(a);
                }
            }
            Packed::I32(rows, chunks) => wide_i32(rows, *chunks, &bnd, &mut stream, self.n, out),
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
                bnd.for_each_v1(&mut stream, self.n, |i| {
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

/// Whether [`sums4_v1`] has a fast path for this data.
fn has_fast4(packed: &Packed) -> bool {
    matches!(packed, Packed::I32(_, 1) | Packed::F64(_, 1))
}

/// Sums of version-1 resamples `b .. b + 4` (`out`: 4 × w) with the four
/// streams interleaved: each the bytes of a single resample's sums.
fn sums4_v1(packed: &Packed, n: usize, (seed, sub): (u64, u64), b: u64, out: &mut [f64], w: usize) {
    let bnd = Bounded::new(n as u64);
    match packed {
        Packed::I32(rows, 1) => {
            let accs = sums4_i32(rows, &bnd, n, seed, b, sub);
            for (m, a) in accs.iter().enumerate() {
                for (o, &v) in out[m * w..(m + 1) * w].iter_mut().zip(a) {
                    *o = f64::from(v);
                }
            }
        }
        Packed::F64(rows, 1) => {
            let accs = sums4_f64(rows, &bnd, n, seed, b, sub);
            for (m, a) in accs.iter().enumerate() {
                out[m * w..(m + 1) * w].copy_from_slice(&a[..w]);
            }
        }
        _ => unreachable!("sums4_v1 runs only where has_fast4"),
    }
}

/// Metric values of every system on the job's bootstrap resamples:
/// `count × systems`, resample-major; and the number of distinct rows when
/// resampling over them.
pub fn bootstrap_values(
    t: &Table<'_>,
    metric: &Metric,
    resampling: Resampling,
    job: &Job<'_>,
) -> Result<(Vec<f64>, Option<usize>)> {
    let boot = Bootstrap::new(t, resampling, job.stream);
    let d = boot.distinct_rows();
    Ok((bootstrap_values_range(t, &boot, metric, job)?, d))
}

/// Metric values of the job's resamples with a prepared bootstrap.
pub fn bootstrap_values_range(
    t: &Table<'_>,
    boot: &Bootstrap,
    metric: &Metric,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let systems = check_systems(t, metric)?;
    let k = metric.n_stats();
    let nf = t.n as f64;
    par_blocks(job, systems, |first, chunk| {
        let fw = t.width;
        let rows = chunk.len() / systems;
        let mut sums = vec![0.0; rows * fw];
        boot.block_sums(job, first, rows, &mut sums);
        for (row, sm) in chunk.chunks_exact_mut(systems).zip(sums.chunks_exact(fw)) {
            for (s, v) in row.iter_mut().enumerate() {
                *v = metric.score(&sm[s * k..(s + 1) * k], nf);
            }
        }
    })
}

/// Summed statistics of the job's bootstrap resamples (`count × width`),
/// for metrics evaluated outside the engine; and the number of distinct rows
/// when resampling over them.
pub fn bootstrap_sums(
    t: &Table<'_>,
    resampling: Resampling,
    job: &Job<'_>,
) -> Result<(Vec<f64>, Option<usize>)> {
    let boot = Bootstrap::new(t, resampling, job.stream);
    let out = par_blocks(job, t.width, |first, chunk| {
        boot.block_sums(job, first, chunk.len() / t.width, chunk);
    })?;
    Ok((out, boot.distinct_rows()))
}

/// [`draw_count_floor`]'s version-2 block: resamples `start ..` counted in cells `C`.
fn floor_v2<C: Cell + Default + Into<u32>>(
    bnd: &Bounded,
    seed: u64,
    start: u64,
    chunk: &mut [f64],
) {
    let n = bnd.n as usize;
    let mut counts = vec![C::default(); n];
    for (r, o) in chunk.iter_mut().enumerate() {
        counts.fill(C::default());
        let mut l = crate::simd::lanes_new(seed, TAG_BOOTSTRAP, start + r as u64, 0);
        count_v2(bnd, &mut l, n, &mut counts);
        *o = f64::from(counts[0].into());
    }
}

/// The floor of any exact item bootstrap: draw and count `n_resamples × n`
/// indices with the same generator (stream `version`), and nothing else.
/// Returns a checksum.
pub fn draw_count_floor(
    n: usize,
    n_resamples: usize,
    seed: u64,
    threads: usize,
    version: Version,
) -> Result<u64> {
    let progress = Progress::new();
    let job = Job::new(seed, n_resamples, threads, &progress);
    let out = par_blocks(&job, 1, |start, chunk| {
        let bnd = Bounded::new(n as u64);
        if version == Version::V2 {
            // a resample's counts are at most n: 16-bit cells where n fits (half the bytes to clear)
            if n <= usize::from(u16::MAX) {
                floor_v2::<u16>(&bnd, seed, start, chunk);
            } else {
                floor_v2::<u32>(&bnd, seed, start, chunk);
            }
            return;
        }
        let mut counts = vec![0u32; n];
        for (r, o) in chunk.iter_mut().enumerate() {
            counts.fill(0);
            let b = start + r as u64;
            #[cfg(target_arch = "x86_64")]
            if avx2_bmi2() {
                // SAFETY: the CPU supports the enabled features (checked above).
                unsafe { crate::simd::floor_one_avx2(&bnd, &mut counts, seed, b) };
                *o = f64::from(counts[0]);
                continue;
            }
            floor_one(&bnd, &mut counts, seed, b);
            *o = f64::from(counts[0]);
        }
    })?;
    Ok(out.iter().map(|&v| v as u64).sum())
}
