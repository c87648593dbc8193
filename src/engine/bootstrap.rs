//! The paired bootstrap over items or distinct rows, and its drivers.

use crate::binomial::multinomial;
use crate::metric::Metric;
use crate::rng::{Bounded, Stream, TAG_BOOTSTRAP};
use crate::simd::{
    add4f, avx2_bmi2, float_seq_1, floor_one, sums4_f64, sums4_i32, wide_f64, wide_i32,
};
use crate::Result;

use super::pack::*;
use super::{check_systems, par_blocks, Job, Progress, Resampling, Table};

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
        }
    }

    /// The summed statistics (`width` values of the table) of resample `b`
    /// of the job's stream.
    pub fn sums(&self, job: &Job<'_>, b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        let key = (job.seed, job.sub);
        match &self.expand {
            None => self.sums_packed(key, b, out, counts),
            Some(map) => {
                let mut red = vec![0.0; self.width];
                self.sums_packed(key, b, &mut red, counts);
                for (o, &m) in out.iter_mut().zip(map) {
                    *o = red[m];
                }
            }
        }
    }

    /// Sums of resamples `b .. b + 4` (`out`: 4 × width), identical to four
    /// calls of [`Bootstrap::sums`].
    pub fn sums4(&self, job: &Job<'_>, b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        let key = (job.seed, job.sub);
        match &self.expand {
            None => self.sums4_packed(key, b, out, counts),
            Some(map) => {
                let w = self.width;
                let fw = self.full_width;
                let mut red = vec![0.0; 4 * w];
                self.sums4_packed(key, b, &mut red, counts);
                for r in 0..4 {
                    for (c, &m) in map.iter().enumerate() {
                        out[r * fw + c] = red[r * w + m];
                    }
                }
            }
        }
    }

    /// Number of distinct rows when resampling over distinct rows.
    #[must_use]
    pub fn distinct_rows(&self) -> Option<usize> {
        self.distinct.as_ref().map(|(_, w)| w.len())
    }

    /// The summed distinct columns of resample `b` of stream `(seed, sub)`.
    fn sums_packed(&self, (seed, sub): (u64, u64), b: u64, out: &mut [f64], counts: &mut Vec<u64>) {
        let mut stream = Stream::new(seed, TAG_BOOTSTRAP, b, sub);
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
    fn sums4_packed(
        &self,
        (seed, sub): (u64, u64),
        b: u64,
        out: &mut [f64],
        counts: &mut Vec<u64>,
    ) {
        let w = self.width;
        if let (true, Packed::I32(rows, _)) = (self.has_fast4(), &self.packed) {
            let bnd = Bounded::new(self.n as u64);
            let accs = sums4_i32(rows, &bnd, self.n, seed, b, sub);
            for (m, a) in accs.iter().enumerate() {
                for (o, &v) in out[m * w..(m + 1) * w].iter_mut().zip(a) {
                    *o = f64::from(v);
                }
            }
        } else if let (true, Packed::F64(rows, _)) = (self.has_fast4(), &self.packed) {
            let bnd = Bounded::new(self.n as u64);
            let accs = sums4_f64(rows, &bnd, self.n, seed, b, sub);
            for (m, a) in accs.iter().enumerate() {
                out[m * w..(m + 1) * w].copy_from_slice(&a[..w]);
            }
        } else {
            for m in 0..4 {
                let o = &mut out[m * w..(m + 1) * w];
                self.sums_packed((seed, sub), b + m as u64, o, counts);
            }
        }
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
    let boot = Bootstrap::new(t, resampling);
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
        let w = t.width;
        let mut sums = vec![0.0; 4 * w];
        let mut counts = Vec::new();
        let rows = chunk.len() / systems;
        let mut r = 0;
        while r < rows {
            let b = first + r as u64;
            let group = if rows - r >= 4 { 4 } else { 1 };
            if group == 4 {
                boot.sums4(job, b, &mut sums, &mut counts);
            } else {
                boot.sums(job, b, &mut sums[..w], &mut counts);
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

/// Summed statistics of the job's bootstrap resamples (`count × width`),
/// for metrics evaluated outside the engine; and the number of distinct rows
/// when resampling over them.
pub fn bootstrap_sums(
    t: &Table<'_>,
    resampling: Resampling,
    job: &Job<'_>,
) -> Result<(Vec<f64>, Option<usize>)> {
    let boot = Bootstrap::new(t, resampling);
    let out = par_blocks(job, t.width, |first, chunk| {
        let mut counts = Vec::new();
        for (r, row) in chunk.chunks_mut(t.width).enumerate() {
            boot.sums(job, first + r as u64, row, &mut counts);
        }
    })?;
    Ok((out, boot.distinct_rows()))
}

/// The floor of any exact item bootstrap: draw and count `n_resamples × n`
/// indices with the same generator, and nothing else. Returns a checksum.
pub fn draw_count_floor(n: usize, n_resamples: usize, seed: u64, threads: usize) -> Result<u64> {
    let progress = Progress::new();
    let job = Job::new(seed, n_resamples, threads, &progress);
    let out = par_blocks(&job, 1, |start, chunk| {
        let bnd = Bounded::new(n as u64);
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
