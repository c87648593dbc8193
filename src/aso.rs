//! Almost Stochastic Order (ASO) on score distributions over random seeds.
//!
//! The quantities follow Dror, Shlomov & Reichart (2019) as the `deepsig`
//! package (Ulmer et al. 2022, version 1.2.8) computes them:
//!
//! * The empirical quantile function of `n` scores maps `p` to the sorted
//!   score of rank `clamp(ceil(n·p) − 1, 0, n − 1)` (`n·p` in binary64).
//! * The integration grid is numpy's `arange(dt, 1, dt)`: `G = ceil((1 −
//!   dt)/dt)` points, `t₀ = dt`, `t₁ = dt + dt`, `tᵢ = t₀ + i·((dt + dt) −
//!   dt)` for `i ≥ 2`.
//! * With `f = F⁻¹(t)`, `g = G⁻¹(t)`, `d = g − f` and `wᵢ = dᵢ²·dt`, the
//!   violation ratio is `Σ_{i ≥ 1, fᵢ < gᵢ} wᵢ / Σ_{i ≥ 0} wᵢ`: the first
//!   grid point counts in the squared Wasserstein distance but never in the
//!   violation set, exactly as deepsig does. A zero distance gives 0.5.
//!   Both sums run in numpy's pairwise order ([`pairwise_sum`]), so the
//!   ratio of the empirical quantile functions is the same double deepsig
//!   computes.
//! * One bootstrap resample draws `n` scores of each system with
//!   replacement. deepsig draws them by inverse transform (`F⁻¹(U)`, `U`
//!   uniform), which is uniform resampling of the scores; here each index is
//!   an exact uniform integer from [`Bounded`]. Its violation ratio is that
//!   of the resamples' empirical quantile functions.
//!
//! Only the bootstrap's mean and (population) standard deviation of the
//! violation ratio leave this module; ε_min is formed from them by the
//! caller (`sigfast.seeds`).
//!
//! # Determinism and memory
//! The resample `b` of system `s` draws from the stream `(seed, TAG_ASO, b,
//! s)` of the chosen stream version, so a system's resamples do not depend on the other systems, on
//! threads or on batching. Resamples run in fixed blocks of [`BLOCK`]; each
//! block reduces its own values to (count, mean, M2) per pair with two
//! passes in resample order, and blocks are merged in block order (Chan et
//! al.). Work runs in windows of [`WINDOW_BLOCKS`] blocks, so memory does
//! not grow with the number of resamples unless the caller asks for them.

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use crate::engine::{Draws, Job, BLOCK};
use crate::rng::Bounded;
use crate::{Error, Result};

/// Scheme tag of ASO's bootstrap streams: "aso_".
pub const TAG_ASO: u64 = 0x6173_6f5f;
/// Blocks run in parallel before their summaries are merged.
pub const WINDOW_BLOCKS: usize = 256;
/// Largest integration grid accepted (dt ≥ about 6e-8).
pub const MAX_GRID: usize = 1 << 24;

/// numpy's `arange(dt, 1.0, dt)` for float64, point by point.
pub fn grid(dt: f64) -> Result<Vec<f64>> {
    if !(dt.is_finite() && dt > 0.0 && dt < 1.0) {
        return Err(Error::input(format!(
            "dt must be a number in (0, 1), got {dt}"
        )));
    }
    let len = ((1.0 - dt) / dt).ceil();
    if len < 1.0 || len > MAX_GRID as f64 {
        return Err(Error::input(format!(
            "dt = {dt} gives {len} integration points; use dt in [{:e}, 0.5]",
            1.0 / MAX_GRID as f64
        )));
    }
    let len = len as usize;
    let mut t = Vec::with_capacity(len);
    t.push(dt);
    if len > 1 {
        t.push(dt + dt);
    }
    let delta = (dt + dt) - dt;
    for i in 2..len {
        t.push(dt + i as f64 * delta);
    }
    Ok(t)
}

/// The rank that deepsig's empirical quantile function of `n` sorted scores
/// reads at probability `p`: `clamp(ceil(n·p) − 1, 0, n − 1)`.
#[inline]
#[must_use]
pub fn quantile_rank(n: usize, p: f64) -> usize {
    let c = (n as f64 * p).ceil();
    if c <= 1.0 {
        0
    } else if c >= n as f64 {
        n - 1
    } else {
        c as usize - 1
    }
}

/// Sum in numpy's pairwise order (`np.add.reduce` on a contiguous float64
/// array): eight running lanes for up to 128 values, halves (cut at a
/// multiple of eight) above that.
#[must_use]
pub fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut s = 0.0;
        for &v in a {
            s += v;
        }
        s
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for (lane, v) in r.iter_mut().zip(&a[i..i + 8]) {
                *lane += *v;
            }
            i += 8;
        }
        let mut s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &v in &a[whole..] {
            s += v;
        }
        s
    } else {
        let mut half = n / 2;
        half -= half % 8;
        pairwise_sum(&a[..half]) + pairwise_sum(&a[half..])
    }
}

/// The violation ratio of two quantile functions read on the grid (`f` of
/// A, `g` of B, one value per grid point). `work` is scratch of any size.
#[must_use]
pub fn violation_ratio_q(f: &[f64], g: &[f64], dt: f64, work: &mut Vec<f64>) -> f64 {
    debug_assert_eq!(f.len(), g.len());
    let len = f.len();
    work.clear();
    work.resize(2 * len, 0.0);
    let (all, viol) = work.split_at_mut(len);
    for (i, (&fi, &gi)) in f.iter().zip(g).enumerate() {
        let d = gi - fi;
        let w = d * d * dt;
        all[i] = w;
        viol[i] = if fi >= gi { 0.0 } else { w };
    }
    let w2 = pairwise_sum(all);
    if w2 == 0.0 {
        return 0.5;
    }
    let v = if len > 1 {
        pairwise_sum(&viol[1..])
    } else {
        0.0
    };
    v / w2
}

fn check_scores(what: &str, s: &[f64]) -> Result<()> {
    if s.len() < 2 {
        return Err(Error::input(format!(
            "{what}: ASO needs at least 2 scores (one per random seed), got {}",
            s.len()
        )));
    }
    if let Some(i) = s.iter().position(|v| !v.is_finite()) {
        return Err(Error::input(format!(
            "{what}: score {i} is {} (not a finite number); remove or fix that run",
            s[i]
        )));
    }
    if s.len() as u64 > 1 << 32 {
        return Err(Error::input(format!("{what}: more than 2^32 scores")));
    }
    Ok(())
}

fn sorted(s: &[f64]) -> Vec<f64> {
    let mut v = s.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The violation ratio ε_W2(A, B) of the empirical quantile functions of
/// two score lists (no bootstrap): the share of the squared Wasserstein
/// distance where B's quantile function lies above A's.
pub fn violation_ratio(a: &[f64], b: &[f64], dt: f64) -> Result<f64> {
    check_scores("scores A", a)?;
    check_scores("scores B", b)?;
    let t = grid(dt)?;
    let (sa, sb) = (sorted(a), sorted(b));
    let f: Vec<f64> = t.iter().map(|&p| sa[quantile_rank(sa.len(), p)]).collect();
    let g: Vec<f64> = t.iter().map(|&p| sb[quantile_rank(sb.len(), p)]).collect();
    Ok(violation_ratio_q(&f, &g, dt, &mut Vec::new()))
}

/// Count, mean and sum of squared deviations of a run of values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    pub count: u64,
    pub mean: f64,
    pub m2: f64,
}

impl Moments {
    /// Two passes over `values` in order.
    #[must_use]
    pub fn of(values: impl Iterator<Item = f64> + Clone) -> Self {
        let mut count = 0u64;
        let mut sum = 0.0;
        for v in values.clone() {
            sum += v;
            count += 1;
        }
        if count == 0 {
            return Moments::default();
        }
        let mean = sum / count as f64;
        let m2 = values.map(|v| (v - mean) * (v - mean)).sum();
        Moments { count, mean, m2 }
    }

    /// The moments of both runs together (Chan, Golub & LeVeque).
    #[must_use]
    pub fn merge(self, o: Moments) -> Moments {
        if self.count == 0 {
            return o;
        }
        if o.count == 0 {
            return self;
        }
        let n = self.count + o.count;
        let (na, nb, nn) = (self.count as f64, o.count as f64, n as f64);
        let delta = o.mean - self.mean;
        Moments {
            count: n,
            mean: self.mean + delta * (nb / nn),
            m2: self.m2 + o.m2 + delta * delta * (na * nb / nn),
        }
    }

    /// Population standard deviation (numpy's `std`, ddof 0).
    #[must_use]
    pub fn sd(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            (self.m2 / self.count as f64).max(0.0).sqrt()
        }
    }
}

/// The observed violation ratio of one pair and the bootstrap's moments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairSummary {
    pub violation_ratio: f64,
    pub boot: Moments,
}

/// The outcome of [`AsoData::bootstrap`].
#[derive(Clone, Debug)]
pub struct AsoBoot {
    /// One summary per requested pair, in the pairs' order.
    pub pairs: Vec<PairSummary>,
    /// Every resample's violation ratios (resample-major, pairs per row),
    /// when asked for.
    pub samples: Option<Vec<f64>>,
}

/// Systems' score lists prepared for ASO: sorted, with the ranks their
/// quantile functions read on the grid.
pub struct AsoData {
    dt: f64,
    grid_len: usize,
    sorted: Vec<Vec<f64>>,
    ranks: Vec<Vec<u32>>,
    bounded: Vec<Bounded>,
}

struct Scratch {
    counts: Vec<u32>,
    resample: Vec<f64>,
    /// grid_len values per system: the resample's quantile function
    q: Vec<f64>,
    work: Vec<f64>,
    values: Vec<f64>,
}

impl AsoData {
    /// `names` label the systems in error messages.
    pub fn new(systems: &[&[f64]], names: &[&str], dt: f64) -> Result<Self> {
        if systems.len() < 2 {
            return Err(Error::input(format!(
                "ASO compares at least 2 systems, got {}",
                systems.len()
            )));
        }
        for (i, s) in systems.iter().enumerate() {
            let fallback = format!("system {i}");
            check_scores(names.get(i).copied().unwrap_or(&fallback), s)?;
        }
        let t = grid(dt)?;
        let sorted: Vec<Vec<f64>> = systems.iter().map(|s| sorted(s)).collect();
        let ranks = sorted
            .iter()
            .map(|s| {
                t.iter()
                    .map(|&p| quantile_rank(s.len(), p) as u32)
                    .collect()
            })
            .collect();
        let bounded = sorted
            .iter()
            .map(|s| Bounded::new(s.len() as u64))
            .collect();
        Ok(AsoData {
            dt,
            grid_len: t.len(),
            sorted,
            ranks,
            bounded,
        })
    }

    #[must_use]
    pub fn grid_len(&self) -> usize {
        self.grid_len
    }

    /// The empirical quantile function of system `s` on the grid.
    fn quantiles_into(&self, s: usize, values: &[f64], out: &mut [f64]) {
        for (o, &r) in out.iter_mut().zip(&self.ranks[s]) {
            *o = values[r as usize];
        }
    }

    /// The violation ratio of the observed scores of pair (i, j).
    #[must_use]
    pub fn observed(&self, i: usize, j: usize) -> f64 {
        let g = self.grid_len;
        let mut f = vec![0.0; g];
        let mut h = vec![0.0; g];
        self.quantiles_into(i, &self.sorted[i], &mut f);
        self.quantiles_into(j, &self.sorted[j], &mut h);
        violation_ratio_q(&f, &h, self.dt, &mut Vec::new())
    }

    fn scratch(&self, pairs: usize) -> Scratch {
        let nmax = self.sorted.iter().map(Vec::len).max().unwrap_or(0);
        Scratch {
            counts: vec![0; nmax],
            resample: vec![0.0; nmax],
            q: vec![0.0; self.grid_len * self.sorted.len()],
            work: Vec::with_capacity(2 * self.grid_len),
            values: Vec::with_capacity(BLOCK * pairs),
        }
    }

    /// Resample `b` of every system in `used`: each system's quantile
    /// function on the grid, written to its slot of `sc.q`.
    fn resample_quantiles(&self, from: Draws, b: u64, used: &[bool], sc: &mut Scratch) {
        let g = self.grid_len;
        for (s, sorted) in self.sorted.iter().enumerate() {
            if !used[s] {
                continue;
            }
            let n = sorted.len();
            let counts = &mut sc.counts[..n];
            counts.fill(0);
            from.on_sub(s as u64).counts(b, &self.bounded[s], n, counts);
            // the resample, sorted: sorted scores repeated by their counts
            let res = &mut sc.resample[..n];
            let mut pos = 0;
            for (&c, &v) in counts.iter().zip(sorted) {
                for _ in 0..c {
                    res[pos] = v;
                    pos += 1;
                }
            }
            let (q, res) = (&mut sc.q[s * g..(s + 1) * g], &sc.resample[..n]);
            self.quantiles_into(s, res, q);
        }
    }

    /// Bootstrap the violation ratio of each pair `(i, j)` (A = i, B = j)
    /// over the job's resamples (`job.start ..` for `job.count`, the job's
    /// seed and stream version; system `s` on sub-stream `s`, the job's own
    /// `sub` is not read) on the engine's pool of `job.threads` threads.
    pub fn bootstrap(
        &self,
        pairs: &[(usize, usize)],
        keep_samples: bool,
        job: &Job<'_>,
    ) -> Result<AsoBoot> {
        let (n_resamples, progress) = (job.count as u64, job.progress);
        let from = Draws::of(job, TAG_ASO);
        let s_count = self.sorted.len();
        if pairs.is_empty() {
            return Err(Error::input("no pairs of systems to compare"));
        }
        let mut used = vec![false; s_count];
        for &(i, j) in pairs {
            if i >= s_count || j >= s_count || i == j {
                return Err(Error::input(format!(
                    "pair ({i}, {j}) does not name two different systems of {s_count}"
                )));
            }
            used[i] = true;
            used[j] = true;
        }
        if n_resamples == 0 {
            return Err(Error::input("n_resamples must be at least 1"));
        }
        let p = pairs.len();
        if keep_samples && n_resamples.saturating_mul(p as u64) > (1u64 << 31) {
            return Err(Error::input(format!(
                "keeping {n_resamples} resamples x {p} pairs of violation ratios needs too much memory; \
                 ask for fewer resamples or do not keep them"
            )));
        }
        let pool = crate::engine::pool(job.threads)?;
        let observed: Vec<f64> = pairs.iter().map(|&(i, j)| self.observed(i, j)).collect();
        let blocks = n_resamples.div_ceil(BLOCK as u64);
        let mut total = vec![Moments::default(); p];
        let mut samples = keep_samples.then(|| Vec::with_capacity((n_resamples as usize) * p));
        let g = self.grid_len;
        let mut first = 0u64;
        while first < blocks {
            let last = (first + WINDOW_BLOCKS as u64).min(blocks);
            let outs: Vec<Result<(Vec<Moments>, Vec<f64>)>> = pool.install(|| {
                (first..last)
                    .into_par_iter()
                    .map_init(
                        || self.scratch(p),
                        |sc, blk| {
                            if progress.cancel.load(Ordering::Relaxed) {
                                return Err(Error::Cancelled);
                            }
                            let b0 = blk * BLOCK as u64;
                            let b1 = (b0 + BLOCK as u64).min(n_resamples);
                            let rows = (b1 - b0) as usize;
                            let mut values = std::mem::take(&mut sc.values);
                            values.clear();
                            values.resize(rows * p, 0.0);
                            for (r, row) in values.chunks_exact_mut(p).enumerate() {
                                self.resample_quantiles(from, job.start + b0 + r as u64, &used, sc);
                                for (v, &(i, j)) in row.iter_mut().zip(pairs) {
                                    let (qi, qj) =
                                        (&sc.q[i * g..(i + 1) * g], &sc.q[j * g..(j + 1) * g]);
                                    *v = violation_ratio_q(qi, qj, self.dt, &mut sc.work);
                                }
                            }
                            let moments = (0..p)
                                .map(|k| Moments::of(values.iter().skip(k).step_by(p).copied()))
                                .collect();
                            let kept = if keep_samples {
                                values.clone()
                            } else {
                                Vec::new()
                            };
                            sc.values = values;
                            progress.done.fetch_add(rows as u64, Ordering::Relaxed);
                            Ok((moments, kept))
                        },
                    )
                    .collect()
            });
            for out in outs {
                let (m, kept) = out?;
                for (t, b) in total.iter_mut().zip(m) {
                    *t = t.merge(b);
                }
                if let Some(s) = samples.as_mut() {
                    s.extend_from_slice(&kept);
                }
            }
            first = last;
        }
        Ok(AsoBoot {
            pairs: observed
                .into_iter()
                .zip(total)
                .map(|(violation_ratio, boot)| PairSummary {
                    violation_ratio,
                    boot,
                })
                .collect(),
            samples,
        })
    }
}

/// All ordered-by-index pairs `(i, j)`, `i < j`, of `s` systems, row by row.
#[must_use]
pub fn upper_pairs(s: usize) -> Vec<(usize, usize)> {
    (0..s)
        .flat_map(|i| (i + 1..s).map(move |j| (i, j)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Progress;

    #[test]
    fn grid_is_numpy_arange() {
        let t = grid(0.005).unwrap();
        assert_eq!(t.len(), 199);
        assert_eq!(t[0], 0.005);
        assert_eq!(t[1], 0.01);
        assert!(t[198] < 1.0);
        let t = grid(0.25).unwrap();
        assert_eq!(t, vec![0.25, 0.5, 0.75]);
        for bad in [0.0, -0.1, 1.0, 2.0, f64::NAN, 1e-12] {
            assert!(matches!(grid(bad), Err(Error::Input(_))), "{bad}");
        }
    }

    #[test]
    fn quantile_rank_follows_ceil() {
        // n = 4: p in (0, .25] -> 0, (.25, .5] -> 1, ...
        assert_eq!(quantile_rank(4, 0.0), 0);
        assert_eq!(quantile_rank(4, 0.1), 0);
        assert_eq!(quantile_rank(4, 0.25), 0);
        assert_eq!(quantile_rank(4, 0.26), 1);
        assert_eq!(quantile_rank(4, 0.5), 1);
        assert_eq!(quantile_rank(4, 0.99), 3);
        assert_eq!(quantile_rank(4, 1.0), 3);
    }

    #[test]
    fn pairwise_sum_orders() {
        let v: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.1).collect();
        for n in [0, 1, 7, 8, 9, 16, 100, 128, 129, 199, 1000] {
            let exact: f64 = (0..n).map(|i| i as f64 * 0.1).sum();
            assert!((pairwise_sum(&v[..n]) - exact).abs() <= 1e-9 * exact.max(1.0));
        }
        // the eight lanes are combined as ((0+1)+(2+3))+((4+5)+(6+7))
        let a = [1e16, 1.0, -1e16, 1.0, 0.0, 0.0, 0.0, 0.0];
        assert_eq!(pairwise_sum(&a), (1e16 + 1.0) + (-1e16 + 1.0));
    }

    #[test]
    fn violation_ratio_extremes() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let hi = [11.0, 12.0, 13.0, 14.0];
        // A entirely below B: everything but the first point is a violation
        let r = violation_ratio(&a, &hi, 0.25).unwrap();
        assert_eq!(r, 2.0 / 3.0);
        // A entirely above B: no violation
        assert_eq!(violation_ratio(&hi, &a, 0.25).unwrap(), 0.0);
        // identical: zero distance gives 0.5
        assert_eq!(violation_ratio(&a, &a, 0.01).unwrap(), 0.5);
        assert!(violation_ratio(&a, &hi, 0.001).unwrap() > 0.99);
    }

    #[test]
    fn rejects_bad_scores() {
        assert!(matches!(
            violation_ratio(&[1.0], &[1.0, 2.0], 0.01),
            Err(Error::Input(_))
        ));
        assert!(matches!(
            violation_ratio(&[1.0, f64::NAN], &[1.0, 2.0], 0.01),
            Err(Error::Input(_))
        ));
        assert!(matches!(
            AsoData::new(&[&[1.0, 2.0]], &["a"], 0.01),
            Err(Error::Input(_))
        ));
        let e = AsoData::new(&[&[1.0, 2.0], &[]], &["a", "b"], 0.01)
            .err()
            .unwrap();
        assert!(e.to_string().contains('b'), "{e}");
    }

    #[test]
    fn moments_merge_equals_whole() {
        let v: Vec<f64> = (0..1000).map(|i| (f64::from(i) * 0.37).sin()).collect();
        let whole = Moments::of(v.iter().copied());
        let mut m = Moments::default();
        for c in v.chunks(256) {
            m = m.merge(Moments::of(c.iter().copied()));
        }
        assert_eq!(m.count, 1000);
        assert!((m.mean - whole.mean).abs() < 1e-15);
        assert!((m.m2 - whole.m2).abs() < 1e-12 * whole.m2);
    }

    fn data() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let a: Vec<f64> = (0..20).map(|i| (f64::from(i) * 1.3).sin() + 0.3).collect();
        let b: Vec<f64> = (0..17).map(|i| (f64::from(i) * 0.7).cos()).collect();
        let c: Vec<f64> = (0..5).map(f64::from).collect();
        (a, b, c)
    }

    #[test]
    fn same_bytes_for_any_thread_count() {
        let (a, b, c) = data();
        let d = AsoData::new(&[&a, &b, &c], &["a", "b", "c"], 0.005).unwrap();
        let pairs = upper_pairs(3);
        let p = Progress::new();
        let one = d
            .bootstrap(&pairs, true, &Job::new(7, 1000, 1, &p))
            .unwrap();
        let four = d
            .bootstrap(&pairs, true, &Job::new(7, 1000, 4, &p))
            .unwrap();
        assert_eq!(one.pairs, four.pairs);
        assert_eq!(one.samples, four.samples);
        assert_eq!(one.samples.as_ref().unwrap().len(), 3000);
        // the kept samples agree with the moments
        let s = one.samples.unwrap();
        let m = Moments::of(s.iter().skip(1).step_by(3).copied());
        assert!((m.mean - one.pairs[1].boot.mean).abs() < 1e-14);
        // a system's resamples do not depend on the other pairs asked for
        let only = d
            .bootstrap(&[(0, 1)], false, &Job::new(7, 1000, 2, &p))
            .unwrap();
        assert_eq!(only.pairs[0], one.pairs[0]);
        assert!(only.samples.is_none());
    }

    #[test]
    fn observed_matches_free_function() {
        let (a, b, _) = data();
        let d = AsoData::new(&[&a, &b], &["a", "b"], 0.005).unwrap();
        assert_eq!(d.observed(0, 1), violation_ratio(&a, &b, 0.005).unwrap());
        let r = d
            .bootstrap(&[(0, 1)], false, &Job::new(1, 300, 1, &Progress::new()))
            .unwrap();
        assert_eq!(r.pairs[0].violation_ratio, d.observed(0, 1));
        assert_eq!(r.pairs[0].boot.count, 300);
        assert!(r.pairs[0].boot.sd() > 0.0);
    }

    #[test]
    fn cancel_stops_work() {
        let (a, b, _) = data();
        let d = AsoData::new(&[&a, &b], &["a", "b"], 0.005).unwrap();
        let p = Progress::new();
        p.cancel.store(true, Ordering::Relaxed);
        assert!(matches!(
            d.bootstrap(&[(0, 1)], false, &Job::new(1, 10_000, 1, &p)),
            Err(Error::Cancelled)
        ));
    }
}
