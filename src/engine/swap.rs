//! Approximate randomization and exact permutation: paired swaps of two
//! systems' statistics.

use crate::metric::Metric;
use crate::rng::{Version, Xoshiro, TAG_PERMUTE};
use crate::simd::{float_group, group_words, group_words_v2, lanes_new, SWAP_GROUP};
use crate::{Error, Result};

use super::{par_blocks, two_systems, Job, Table, MAX_EXACT_ITEMS};

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
        pub(super) fn $name(
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
pub(super) fn float_masked(
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

/// Scratch of [`Swapper::random_sums_group`], reused from group to group: the
/// group's swap words and its per-column lanes.
#[derive(Default)]
pub struct GroupBuf {
    words: Vec<u64>,
    lanes: Vec<[[f64; 4]; SWAP_GROUP]>,
}

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

    /// Random swaps of resample `b` of stream version `v`: item i uses bit
    /// i mod 64 of 64-bit word i / 64.
    pub fn random_sums(
        &self,
        v: Version,
        seed: u64,
        b: u64,
        out: &mut [f64],
        acc_i: &mut [i64],
        acc_f: &mut [f64],
    ) {
        let mut stream = crate::simd::stream_new(v, seed, TAG_PERMUTE, b, 0);
        self.sums(|_| stream.next_u64(), out, acc_i, acc_f);
    }

    /// Random swap sums of resamples `b0 .. b0 + g` (`g ≤ SWAP_GROUP`) into
    /// `out` (`g × 2k`), each the bytes [`Swapper::random_sums`] gives it; the
    /// float path runs the resamples side by side.
    #[allow(clippy::too_many_arguments)]
    pub fn random_sums_group(
        &self,
        v: Version,
        seed: u64,
        b0: u64,
        g: usize,
        out: &mut [f64],
        acc_i: &mut [i64],
        acc_f: &mut [f64],
        buf: &mut GroupBuf,
    ) {
        let (k, width) = (self.k, 2 * self.k);
        if self.diff_i32.is_some() || self.diff_i64.is_some() || g < 2 {
            for r in 0..g {
                self.random_sums(
                    v,
                    seed,
                    b0 + r as u64,
                    &mut out[r * width..(r + 1) * width],
                    acc_i,
                    acc_f,
                );
            }
            return;
        }
        let GroupBuf { words: all, lanes } = buf;
        lanes.clear();
        lanes.resize(k, [[0.0f64; 4]; SWAP_GROUP]);
        // each version's own generator (what Stream::new makes), its words drawn four at a time
        let b = |r: usize| b0 + r as u64;
        match v {
            Version::V1 => group_words(
                |r| Xoshiro::new(seed, TAG_PERMUTE, b(r), 0),
                self.words,
                all,
            ),
            Version::V2 => {
                group_words_v2(|r| lanes_new(seed, TAG_PERMUTE, b(r), 0), self.words, all);
            }
        }
        float_group(&self.diff_f, self.words, k, all, lanes);
        for r in 0..g {
            let o = &mut out[r * width..(r + 1) * width];
            for c in 0..k {
                let l = &lanes[c][r];
                let a = (l[0] + l[1]) + (l[2] + l[3]);
                o[c] = self.total_x[c] + a;
                o[k + c] = self.total_y[c] - a;
            }
        }
    }

    /// Swaps of arrangement `mask`: item i swapped iff bit i is set (n ≤ 64).
    pub fn mask_sums(&self, mask: u64, out: &mut [f64], acc_i: &mut [i64], acc_f: &mut [f64]) {
        self.sums(|_| mask, out, acc_i, acc_f);
    }
}

/// Swap sums of the job's resamples (or, `exact`, arrangements), block by
/// block; `finish(row, sums)` turns each resample's sums (`2k`) into its
/// output row (`stride`).
pub(super) fn swap_blocks(
    sw: &Swapper,
    stride: usize,
    exact: bool,
    job: &Job<'_>,
    finish: impl Fn(&mut [f64], &[f64]) + Sync,
) -> Result<Vec<f64>> {
    let width = 2 * sw.k;
    par_blocks(job, stride, |first, chunk| {
        let len = chunk.len() / stride;
        let mut sums = vec![0.0; width * SWAP_GROUP];
        let mut ai = vec![0i64; sw.k];
        let mut af = vec![0.0; sw.k];
        let mut buf = GroupBuf::default();
        for g0 in (0..len).step_by(SWAP_GROUP) {
            let gl = SWAP_GROUP.min(len - g0);
            let b0 = first + g0 as u64;
            if exact {
                for r in 0..gl {
                    sw.mask_sums(
                        b0 + r as u64,
                        &mut sums[r * width..(r + 1) * width],
                        &mut ai,
                        &mut af,
                    );
                }
            } else {
                let (v, seed) = (job.stream, job.seed);
                sw.random_sums_group(v, seed, b0, gl, &mut sums, &mut ai, &mut af, &mut buf);
            }
            for r in 0..gl {
                finish(
                    &mut chunk[(g0 + r) * stride..(g0 + r + 1) * stride],
                    &sums[r * width..(r + 1) * width],
                );
            }
        }
    })
}

/// Metric values (x', y') of the job's swap resamples (`count × 2`) with a
/// prepared swapper: random swaps of resample b, or (`exact`) arrangement b.
pub fn swap_values_range(
    t: &Table<'_>,
    sw: &Swapper,
    metric: &Metric,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    two_systems(t, metric)?;
    if exact {
        exact_size(t)?;
    }
    let k = metric.n_stats();
    let nf = t.n as f64;
    swap_blocks(sw, 2, exact, job, |row, sums| {
        row[0] = metric.score(&sums[..k], nf);
        row[1] = metric.score(&sums[k..], nf);
    })
}

/// Metric values (x', y') of the job's approximate-randomization resamples:
/// `count × 2`.
pub fn permutation_values(t: &Table<'_>, metric: &Metric, job: &Job<'_>) -> Result<Vec<f64>> {
    two_systems(t, metric)?;
    let sw = Swapper::new(t)?;
    swap_values_range(t, &sw, metric, false, job)
}

/// Metric values (x', y') of all 2^n swap arrangements: `2^n × 2` (the job's
/// seed and range are not used).
pub fn exact_permutation_values(t: &Table<'_>, metric: &Metric, job: &Job<'_>) -> Result<Vec<f64>> {
    two_systems(t, metric)?;
    exact_size(t)?;
    let sw = Swapper::new(t)?;
    swap_values_range(t, &sw, metric, true, &job.range(0, 1usize << t.n))
}

pub(super) fn exact_size(t: &Table<'_>) -> Result<()> {
    if t.n > MAX_EXACT_ITEMS {
        return Err(Error::Input(format!(
            "the exact permutation test enumerates 2^n arrangements; n = {} is above the limit of {}",
            t.n, MAX_EXACT_ITEMS
        )));
    }
    Ok(())
}

/// Summed statistics of the job's swap resamples (`count × width`); `exact`
/// enumerates arrangements instead of drawing them.
pub fn permutation_sums(t: &Table<'_>, exact: bool, job: &Job<'_>) -> Result<Vec<f64>> {
    if exact {
        exact_size(t)?;
    }
    let sw = Swapper::new(t)?;
    swap_blocks(&sw, t.width, exact, job, |row, sums| {
        row.copy_from_slice(sums);
    })
}
