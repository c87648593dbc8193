//! Resampling of item statistics (a median, a correlation, an AUC): the
//! statistic is recomputed on every resample's items, not read off sums.
//!
//! Resample `b` of the bootstrap draws its item indices from
//! `Stream::new(version, seed, TAG_BOOTSTRAP, b, sub)` exactly as the bootstrap of
//! summed statistics does ([`super::Bootstrap`] over items), so a
//! statistic's bootstrap sees the same resamples as `paired_bootstrap` with
//! the same seed; a permutation resample swaps exactly the items the sums
//! permutation swaps ([`swap_mask`]). Work runs in fixed blocks of
//! [`super::BLOCK`] resamples; memory is one resample per worker plus the
//! output values.

use rayon::prelude::*;

use crate::itemstat::{ItemStatistic, Scratch};
use crate::rng::{swap_bits, Bounded, Version, TAG_BOOTSTRAP, TAG_PERMUTE};
use crate::{Error, Result};

use super::{par_blocks, Job, Table, MAX_EXACT_ITEMS};

/// Statistic values on the job's bootstrap resamples of the items of `t`.
/// The table holds `systems × k` columns (`k` = the statistic's inputs:
/// system `s` reads columns `s*k .. s*k + k`). Returns `count × systems`
/// values, resample-major; the same bytes for any thread count.
pub fn item_bootstrap_values(
    t: &Table<'_>,
    stat: &ItemStatistic,
    label: &str,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let k = stat.n_inputs();
    if t.width % k != 0 {
        return Err(Error::input(format!(
            "{} columns is not a multiple of the {k} inputs of {label}",
            t.width,
        )));
    }
    let systems = t.width / k;
    let n = t.n;
    // column-major copy: one contiguous vector per input of each system
    let mut cols = vec![0.0f64; n * t.width];
    for i in 0..n {
        for c in 0..t.width {
            cols[c * n + i] = t.data[i * t.width + c];
        }
    }
    if k == 2 {
        for s in 0..systems {
            stat.validate(&cols[(2 * s + 1) * n..(2 * s + 2) * n])?;
        }
    }
    let bnd = Bounded::new(n as u64);
    let from = Draws::of(job, TAG_BOOTSTRAP);
    par_blocks(job, systems, |first, chunk| {
        let mut scratch = Scratch::default();
        let mut draws: Vec<usize> = Vec::with_capacity(n);
        let mut gx = vec![0.0; n];
        let mut gy = vec![0.0; n];
        for (r, row) in chunk.chunks_mut(systems).enumerate() {
            draws.clear();
            from.indices(first + r as u64, &bnd, n, |i| draws.push(i));
            for (s, o) in row.iter_mut().enumerate() {
                let xc = &cols[s * k * n..(s * k + 1) * n];
                for (g, &i) in gx.iter_mut().zip(&draws) {
                    *g = xc[i];
                }
                if k == 2 {
                    let yc = &cols[(s * k + 1) * n..(s * k + 2) * n];
                    for (g, &i) in gy.iter_mut().zip(&draws) {
                        *g = yc[i];
                    }
                }
                *o = stat.eval(&gx, &gy, &mut scratch);
            }
        }
    })
}

/// Values (x', y') of `stat` on the job's permutation resamples of two
/// systems (`t`: x's inputs then y's), resample-major `count × 2`: item i
/// swaps the two systems' inputs as `swap_mask` says — the same swaps as
/// the sums-based permutation test. With `exact`, resample b swaps the items
/// whose bits are set in b (all 2^n arrangements, n ≤ 26).
pub fn item_permutation_values(
    t: &Table<'_>,
    stat: &ItemStatistic,
    label: &str,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let k = stat.n_inputs();
    if t.width != 2 * k {
        return Err(Error::input(format!(
            "a permutation test compares two systems: {} columns is not 2 x the {k} inputs of {label}",
            t.width,
        )));
    }
    if exact && t.n > MAX_EXACT_ITEMS {
        return Err(Error::input(format!(
            "exact permutation takes at most {MAX_EXACT_ITEMS} items, got {}",
            t.n
        )));
    }
    let n = t.n;
    let col = |c: usize| -> Vec<f64> { (0..n).map(|i| t.data[i * t.width + c]).collect() };
    let (x, y) = (col(0), col(k));
    let (rx, ry) = if k == 2 {
        (col(1), col(k + 1))
    } else {
        (Vec::new(), Vec::new())
    };
    if k == 2 {
        stat.validate(&rx)?;
        stat.validate(&ry)?;
    }
    let (seed, v) = (job.seed, job.stream);
    par_blocks(job, 2, |first, chunk| {
        let mut scratch = Scratch::default();
        let mut gx = vec![0.0; n];
        let mut gy = vec![0.0; n];
        let (mut grx, mut gry) = (rx.clone(), ry.clone());
        let mut mask = vec![false; n];
        for (r, row) in chunk.chunks_mut(2).enumerate() {
            swap_mask(v, seed, first + r as u64, exact, &mut mask);
            for (i, &swap) in mask.iter().enumerate() {
                (gx[i], gy[i]) = if swap { (y[i], x[i]) } else { (x[i], y[i]) };
                if k == 2 {
                    (grx[i], gry[i]) = if swap { (ry[i], rx[i]) } else { (rx[i], ry[i]) };
                }
            }
            row[0] = stat.eval(&gx, &grx, &mut scratch);
            row[1] = stat.eval(&gy, &gry, &mut scratch);
        }
    })
}

/// Where the draws of a resample come from: the stream `(stream version,
/// seed, tag, b, sub)` of resample `b`. The one draw block of every driver
/// that draws indices or swaps one resample at a time: the item statistics
/// here, the clusters, the meta-evaluation (its own tags), ASO (one sub-stream
/// per system) and the battles' bootstrap.
#[derive(Clone, Copy, Debug)]
pub struct Draws {
    pub stream: Version,
    pub seed: u64,
    pub tag: u64,
    pub sub: u64,
}

impl Draws {
    /// The draws of `job`'s stream (version, seed, sub-stream) under `tag`.
    #[must_use]
    pub fn of(job: &Job<'_>, tag: u64) -> Self {
        Draws {
            stream: job.stream,
            seed: job.seed,
            tag,
            sub: job.sub,
        }
    }

    /// The same draws on sub-stream `sub`.
    #[must_use]
    pub fn on_sub(self, sub: u64) -> Self {
        Draws { sub, ..self }
    }

    /// Call `f` with the `n` indices of resample `b`, uniform in `0..bnd`'s
    /// bound, in draw order.
    #[inline]
    pub fn indices(&self, b: u64, bnd: &Bounded, n: usize, f: impl FnMut(usize)) {
        let mut stream = crate::simd::stream_new(self.stream, self.seed, self.tag, b, self.sub);
        bnd.for_each(&mut stream, n, f);
    }

    /// Add the counts of resample `b`'s `n` draws (uniform in `0..counts.len()`
    /// under `bnd`) into `counts`.
    #[inline]
    pub fn counts(&self, b: u64, bnd: &Bounded, n: usize, counts: &mut [u32]) {
        self.indices(b, bnd, n, |i| counts[i] += 1);
    }

    /// The swaps of resample `b`: bit `i mod 64` of the stream's word `i / 64`.
    #[inline]
    pub fn swaps(&self, b: u64, mask: &mut [bool]) {
        let mut stream = crate::simd::stream_new(self.stream, self.seed, self.tag, b, self.sub);
        swap_bits(mask, || stream.next_u64());
    }
}

/// The swaps of permutation resample `b` (`mask[i]`: item i's two systems
/// trade places): the resample's stream words, bit i mod 64 of word i / 64,
/// as [`super::Swapper`] reads them; or (`exact`) the bits of `b` itself.
pub fn swap_mask(v: Version, seed: u64, b: u64, exact: bool, mask: &mut [bool]) {
    if exact {
        let mut word = Some(b);
        swap_bits(mask, || word.take().unwrap_or(0));
    } else {
        Draws {
            stream: v,
            seed,
            tag: TAG_PERMUTE,
            sub: 0,
        }
        .swaps(b, mask);
    }
}

/// Swap masks of permutation resamples `start .. start + count` (`count × n`,
/// resample-major, 1 = the item's two outputs trade places): exactly the swaps
/// [`item_permutation_values`] and the sums permutation use (`exact`: the bits of `b`).
#[must_use]
pub fn swap_block(
    v: Version,
    n: usize,
    seed: u64,
    start: u64,
    count: usize,
    exact: bool,
) -> Vec<u8> {
    let mut out = vec![0u8; n * count];
    if n == 0 {
        return out;
    }
    out.par_chunks_mut(n).enumerate().for_each(|(r, row)| {
        let mut mask = vec![false; n];
        swap_mask(v, seed, start + r as u64, exact, &mut mask);
        for (v, &m) in row.iter_mut().zip(&mask) {
            *v = u8::from(m);
        }
    });
    out
}

/// Item indices of bootstrap resamples `start .. start + count` (`count × n`,
/// resample-major): exactly the draws [`item_bootstrap_values`] uses.
#[must_use]
pub fn index_block(
    v: Version,
    n: usize,
    seed: u64,
    sub: u64,
    start: u64,
    count: usize,
) -> Vec<u32> {
    let mut out = vec![0u32; n * count];
    if n == 0 {
        return out;
    }
    let bnd = Bounded::new(n as u64);
    let draws = Draws {
        stream: v,
        seed,
        tag: TAG_BOOTSTRAP,
        sub,
    };
    out.par_chunks_mut(n).enumerate().for_each(|(r, row)| {
        let mut k = 0;
        draws.indices(start + r as u64, &bnd, n, |i| {
            row[k] = i as u32;
            k += 1;
        });
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Progress;
    use crate::itemstat::quantile;

    #[test]
    fn bootstrap_is_thread_independent() {
        let data: Vec<f64> = (0..300).map(|i| ((i * 37) % 11) as f64).collect();
        let t = Table::new(&data, 100, 3).unwrap();
        let p = Progress::new();
        let med = ItemStatistic::Median;
        let job = Job::new(5, 600, 1, &p);
        let a = item_bootstrap_values(&t, &med, "median", &job).unwrap();
        let b = item_bootstrap_values(&t, &med, "median", &Job { threads: 2, ..job }).unwrap();
        assert_eq!(a, b);
        let tail = Job { threads: 2, ..job }.range(300, 300);
        let c = item_bootstrap_values(&t, &med, "median", &tail).unwrap();
        assert_eq!(&a[900..], &c[..]);
        let idx = index_block(Version::default(), 100, 5, 0, 0, 2);
        let x0: Vec<f64> = idx[..100].iter().map(|&i| data[i as usize * 3]).collect();
        assert_eq!(quantile(&x0, 0.5), a[0]);
        assert!(matches!(
            item_bootstrap_values(&t, &ItemStatistic::Pearson, "pearson", &job.range(0, 10)),
            Err(Error::Input(_))
        ));
    }

    #[test]
    fn swap_masks_are_the_swapper_bits() {
        // bit i mod 64 of word i / 64 of the resample's stream
        let n = 130;
        for v in [Version::V1, Version::V2] {
            let m = swap_block(v, n, 9, 4, 3, false);
            for r in 0..3u64 {
                let mut s = crate::rng::Stream::new(v, 9, TAG_PERMUTE, 4 + r, 0);
                let words = [s.next_u64(), s.next_u64(), s.next_u64()];
                for i in 0..n {
                    let want = u8::from((words[i / 64] >> (i % 64)) & 1 == 1);
                    assert_eq!(m[r as usize * n + i], want, "resample {r} item {i}");
                }
            }
        }
        // exact: the bits of the arrangement's index
        let e = swap_block(Version::V2, 5, 0, 0b10110, 1, true);
        assert_eq!(e, vec![0, 1, 1, 0, 1]);
    }
}
