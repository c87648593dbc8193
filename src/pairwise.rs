//! All ordered pairs of systems on shared bootstrap resamples.
//!
//! One matrix of resampled metric values (resamples × systems) serves every
//! pair (Berg-Kirkpatrick et al. 2012, footnote 5). Work streams through
//! fixed blocks of [`PAIR_BLOCK`] resamples, so memory stays O(block ×
//! systems + systems²) for any number of resamples. Entry (i, j) tests
//! system j against system i: δ = m(j) − m(i).
//!
//! Counts are integers (any merge order gives the same result). The shifted
//! variant needs the bootstrap mean of δ*, defined as the in-order sum of
//! per-block in-order sums, divided by B; blocks are fixed, so every backend
//! computes it identically.

use rayon::prelude::*;

use crate::engine::{
    bootstrap_values_range, cluster_bootstrap_values, Bootstrap, Clusters, Job, Table, BLOCK,
};
use crate::inference::{Alternative, BootVariant};
use crate::metric::Metric;
use crate::simd::{pair8, with_avx2, Kernel, Pair8, PairKind};
use crate::{Error, Result};

pub use crate::inference::PAIR_BLOCK;

/// What to count for each pair.
#[derive(Clone, Copy, Debug)]
pub struct PairSpec {
    pub variant: BootVariant,
    pub alternative: Alternative,
    /// +1 when higher metric values are better, −1 otherwise.
    pub orient: f64,
}

/// Resampled values one pass over the pairs holds at most (`rows × systems`).
const PASS_VALUES: usize = 1 << 20;
/// Systems compared side by side (SIMD lanes) in the pair loop.
const LANES: usize = 8;
/// Resamples per tile of the pair loop (a tile of values stays in cache).
const TILE: usize = 64;

fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        x
    } else if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// The rule of [`crate::inference::bootstrap_exceeds`] for one ordered pair,
/// in a form the SIMD lanes share: with `t = f(δ, mean)` (the variant's
/// transform: δ, δ·orient, |δ − mean|, δ − mean or |δ| − mean, see
/// [`PairLanes`]), count when `t > hi` or `t < lo`. Non-strict comparisons
/// become strict ones against the neighbouring float (`t ≥ x` ⇔
/// `t > next_down(x)`), and "always" becomes `t > −∞ or t < +∞`: the same
/// test on every number (a block with a NaN goes to [`count_scalar`]).
#[derive(Clone, Copy, Debug)]
struct Rule {
    hi: f64,
    lo: f64,
    mean: f64,
}

impl Rule {
    const NEVER: Rule = Rule {
        hi: f64::INFINITY,
        lo: f64::NEG_INFINITY,
        mean: 0.0,
    };

    /// The rule of pair (a, b) on δ* = v_b − v_a (`observed` = m(b) − m(a)).
    fn new(spec: PairSpec, observed: f64, mean: Option<f64>) -> Rule {
        let above = |hi: f64| Rule { hi, ..Rule::NEVER };
        let below = |lo: f64| Rule { lo, ..Rule::NEVER };
        // t > −∞ or t < +∞: every number, ±∞ included
        let always = Rule {
            hi: f64::NEG_INFINITY,
            lo: f64::INFINITY,
            mean: 0.0,
        };
        match spec.variant {
            BootVariant::BergKirkpatrick => {
                if observed > 0.0 {
                    above(2.0 * observed)
                } else if observed < 0.0 {
                    below(2.0 * observed)
                } else {
                    always
                }
            }
            BootVariant::Koehn => {
                // t = δ* · orient
                let g = observed * spec.orient;
                if g > 0.0 {
                    below(next_up(0.0)) // t ≤ 0
                } else if g < 0.0 {
                    above(next_down(0.0)) // t ≥ 0
                } else {
                    always
                }
            }
            BootVariant::Shifted => match mean {
                None => Rule::NEVER,
                Some(m) => {
                    let r = match spec.alternative {
                        // t = |δ* − m| ≥ |δ|
                        Alternative::TwoSided => above(next_down(observed.abs())),
                        // t = δ* − m ≥ δ, or ≤ δ
                        Alternative::Greater => above(next_down(observed)),
                        Alternative::Less => below(next_up(observed)),
                    };
                    Rule { mean: m, ..r }
                }
            },
            // t = |δ*| − m > |δ| (sacrebleu) or ≥ |δ| (Moses)
            BootVariant::SacreBleu | BootVariant::Moses => match mean {
                None => Rule::NEVER,
                Some(m) => {
                    let hi = if spec.variant == BootVariant::Moses {
                        next_down(observed.abs())
                    } else {
                        observed.abs()
                    };
                    Rule {
                        mean: m,
                        ..above(hi)
                    }
                }
            },
        }
    }

    /// The rule of the reverse pair (b, a), which sees −δ*, as a rule on δ*:
    /// every transform of −δ* is one of δ* (exactly: negation is exact), so
    /// both directions read the same δ*. `self` is the reverse pair's own
    /// rule ([`Rule::new`] on its observed difference and mean).
    fn on_negated(self, spec: PairSpec) -> Rule {
        let flip = |r: Rule| Rule {
            hi: -r.lo,
            lo: -r.hi,
            ..r
        };
        match (spec.variant, spec.alternative) {
            // t(−δ) = −t(δ): t(−δ) > hi ⇔ t(δ) < −hi
            (BootVariant::BergKirkpatrick | BootVariant::Koehn, _) => flip(self),
            // |−δ − m| = |δ − (−m)|
            (BootVariant::Shifted, Alternative::TwoSided) => Rule {
                mean: -self.mean,
                ..self
            },
            // −δ − m = −(δ − (−m))
            (BootVariant::Shifted, _) => Rule {
                mean: -self.mean,
                ..flip(self)
            },
            // |−δ| − m = |δ| − m
            (BootVariant::SacreBleu | BootVariant::Moses, _) => self,
        }
    }
}

/// Running sums and counts of every pair over the resamples of one
/// [`PAIR_BLOCK`] block, in resample order. Row `i` holds the pairs (i, j),
/// j > i: the in-order sum of δ* = v_j − v_i (of |δ*| for the variants that
/// centre it), the count of (i, j) on δ* and of (j, i) on −δ*.
struct PairAcc {
    s: usize,
    sums: Vec<f64>,
    fwd: Vec<u64>,
    rev: Vec<u64>,
}

/// The pair loop for one row `i` and `L` systems `j0 .. j0 + L` (all > i)
/// over `rows` resamples of `values` (resample-major, `s` per row): each
/// lane's sum runs in resample order, so lanes and tiles change no byte.
/// `fwd[l]` is the rule of (i, j0 + l), `rev[l]` that of (j0 + l, i) as a
/// rule on δ* ([`Rule::on_negated`]).
struct PairLanes<'a, const L: usize> {
    values: &'a [f64],
    s: usize,
    i: usize,
    j0: usize,
    rows: usize,
    spec: PairSpec,
    fwd: [Rule; L],
    rev: [Rule; L],
    sums: &'a mut [f64],
    count_fwd: &'a mut [u64],
    count_rev: &'a mut [u64],
}

impl<const L: usize> Kernel for PairLanes<'_, L> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        let orient = self.spec.orient;
        // one loop per transform, so that the loop body has no branch
        match (self.spec.variant, self.spec.alternative) {
            (BootVariant::BergKirkpatrick, _) => self.lanes(|d, _| d),
            (BootVariant::Koehn, _) => self.lanes(move |d, _| d * orient),
            (BootVariant::Shifted, Alternative::TwoSided) => self.lanes(|d, m| (d - m).abs()),
            (BootVariant::Shifted, _) => self.lanes(|d, m| d - m),
            (BootVariant::SacreBleu | BootVariant::Moses, _) => self.lanes(|d, m| d.abs() - m),
        }
    }
}

impl<const L: usize> PairLanes<'_, L> {
    /// The loop, with `f` the variant's transform (see [`Rule`]).
    #[inline(always)]
    fn lanes(self, f: impl Fn(f64, f64) -> f64) {
        let PairLanes {
            values,
            s,
            i,
            j0,
            rows,
            spec,
            fwd,
            rev,
            sums,
            count_fwd,
            count_rev,
        } = self;
        assert!(j0 + L <= s && i < s && values.len() >= rows * s);
        assert!(sums.len() >= L && count_fwd.len() >= L && count_rev.len() >= L);
        let abs = spec.variant.centres_abs();
        let mut acc: [f64; L] = std::array::from_fn(|l| sums[l]);
        let mut cf = [0u64; L];
        let mut cr = [0u64; L];
        let (fh, fl, fm) = (fwd.map(|r| r.hi), fwd.map(|r| r.lo), fwd.map(|r| r.mean));
        let (rh, rl, rm) = (rev.map(|r| r.hi), rev.map(|r| r.lo), rev.map(|r| r.mean));
        for b in 0..rows {
            // SAFETY: b < rows, j0 + L <= s and i < s, rows * s <= values.len() (asserted).
            let (vi, vj) = unsafe {
                let row = values.as_ptr().add(b * s);
                let vj: [f64; L] = std::array::from_fn(|l| *row.add(j0 + l));
                (*row.add(i), vj)
            };
            for l in 0..L {
                let d = vj[l] - vi;
                acc[l] += if abs { d.abs() } else { d };
                let t = f(d, fm[l]);
                cf[l] += u64::from((t > fh[l]) | (t < fl[l]));
                let t = f(d, rm[l]);
                cr[l] += u64::from((t > rh[l]) | (t < rl[l]));
            }
        }
        sums[..L].copy_from_slice(&acc);
        for l in 0..L {
            count_fwd[l] += cf[l];
            count_rev[l] += cr[l];
        }
    }
}

/// The pair loop of one row `i` in plain scalar code, on the rule of
/// [`crate::inference::bootstrap_exceeds`] itself: for blocks with a NaN.
#[allow(clippy::too_many_arguments)]
fn count_scalar(
    values: &[f64],
    s: usize,
    i: usize,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    sums: &mut [f64],
    fwd: &mut [u64],
    rev: &mut [u64],
) {
    let abs = spec.variant.centres_abs();
    for j in i + 1..s {
        let (obs, m_ij, m_ji) = (
            observed[j] - observed[i],
            means.map(|m| m[i * s + j]),
            means.map(|m| m[j * s + i]),
        );
        let obs_ji = observed[i] - observed[j];
        for row in values.chunks_exact(s) {
            let d = row[j] - row[i];
            sums[j] += if abs { d.abs() } else { d };
            let (v, a, o) = (spec.variant, spec.alternative, spec.orient);
            fwd[j] += u64::from(crate::inference::bootstrap_exceeds(d, obs, v, a, o, m_ij));
            // the reverse pair's alternative is the same: it is a statement about its own δ
            rev[j] += u64::from(crate::inference::bootstrap_exceeds(
                -d, obs_ji, v, a, o, m_ji,
            ));
        }
    }
}

/// Groups of rows `i` (`[i0, i1)`) with about equal numbers of pairs
/// (row `i` holds the `s − 1 − i` pairs (i, j > i)), at most `k` of them.
fn row_groups(s: usize, k: usize) -> Vec<(usize, usize)> {
    let total = s * s.saturating_sub(1) / 2;
    let per = total.div_ceil(k.max(1)).max(1);
    let mut out = Vec::new();
    let (mut i0, mut work) = (0, 0);
    for i in 0..s {
        work += s - 1 - i;
        if work >= per || i + 1 == s {
            out.push((i0, i + 1));
            (i0, work) = (i + 1, 0);
        }
    }
    out
}

/// One group's rows and rules: `rules[(i − i0)·s + j]` = the rule of
/// (i, j) and of (j, i) on δ* ([`Rule::on_negated`]).
struct Group {
    s: usize,
    i0: usize,
    i1: usize,
    spec: PairSpec,
    rules: Vec<(Rule, Rule)>,
}

impl Group {
    /// One tile of `rows` resamples for every pair of the group; `sums`,
    /// `fwd` and `rev` are the group's rows of the accumulators.
    fn tile(&self, tile: &[f64], rows: usize, sums: &mut [f64], fwd: &mut [u64], rev: &mut [u64]) {
        let (s, spec) = (self.s, self.spec);
        let kind = match (spec.variant, spec.alternative) {
            (BootVariant::BergKirkpatrick, _) => PairKind::Delta,
            (BootVariant::Koehn, _) => PairKind::Scaled(spec.orient),
            (BootVariant::Shifted, Alternative::TwoSided) => PairKind::AbsShift,
            (BootVariant::Shifted, _) => PairKind::Shift,
            (BootVariant::SacreBleu | BootVariant::Moses, _) => PairKind::AbsMinus,
        };
        for i in self.i0..self.i1 {
            let off = (i - self.i0) * s;
            let rules = &self.rules[off..off + s];
            let mut j0 = i + 1;
            while j0 < s {
                let l = if j0 + LANES <= s { LANES } else { 1 };
                let r = off + j0..off + j0 + l;
                let (sm, cf, cr) = (&mut sums[r.clone()], &mut fwd[r.clone()], &mut rev[r]);
                let rl = &rules[j0..j0 + l];
                if l == LANES {
                    let lanes = |f: fn(&(Rule, Rule)) -> Rule| -> [[f64; LANES]; 3] {
                        [
                            std::array::from_fn(|k| f(&rl[k]).hi),
                            std::array::from_fn(|k| f(&rl[k]).lo),
                            std::array::from_fn(|k| f(&rl[k]).mean),
                        ]
                    };
                    let mut p8 = Pair8 {
                        values: tile,
                        s,
                        i,
                        j0,
                        rows,
                        kind,
                        abs_sum: spec.variant.centres_abs(),
                        fwd: lanes(|r| r.0),
                        rev: lanes(|r| r.1),
                        sums: std::array::from_fn(|k| sm[k]),
                        cf: [0; LANES],
                        cr: [0; LANES],
                    };
                    if pair8(&mut p8) {
                        sm.copy_from_slice(&p8.sums);
                        for k in 0..LANES {
                            cf[k] += p8.cf[k];
                            cr[k] += p8.cr[k];
                        }
                    } else {
                        with_avx2(PairLanes::<LANES> {
                            values: tile,
                            s,
                            i,
                            j0,
                            rows,
                            spec,
                            fwd: std::array::from_fn(|k| rl[k].0),
                            rev: std::array::from_fn(|k| rl[k].1),
                            sums: sm,
                            count_fwd: cf,
                            count_rev: cr,
                        });
                    }
                } else {
                    with_avx2(PairLanes::<1> {
                        values: tile,
                        s,
                        i,
                        j0,
                        rows,
                        spec,
                        fwd: [rl[0].0],
                        rev: [rl[0].1],
                        sums: sm,
                        count_fwd: cf,
                        count_rev: cr,
                    });
                }
                j0 += l;
            }
        }
    }
}

impl PairAcc {
    fn new(s: usize) -> Self {
        PairAcc {
            s,
            sums: vec![0.0; s * s],
            fwd: vec![0; s * s],
            rev: vec![0; s * s],
        }
    }

    /// Add `rows` resamples of values (resample-major, `s` per row), in order.
    ///
    /// Work goes in groups of rows `i` (balanced by their pairs), each on
    /// one thread; a group walks the values tile by tile (a tile stays in
    /// cache for all its rows and pairs), so every pair still sees the
    /// resamples in order.
    fn add(
        &mut self,
        values: &[f64],
        observed: &[f64],
        spec: PairSpec,
        means: Option<&[f64]>,
        threads: usize,
    ) -> Result<()> {
        let s = self.s;
        let rows = values.len() / s;
        let nan = values.iter().any(|v| v.is_nan());
        let tile_rows = ((256 << 10) / (8 * s)).clamp(4, TILE);
        let (sums, fwd, rev) = (&mut self.sums, &mut self.fwd, &mut self.rev);
        crate::engine::with_pool(threads, || {
            let groups = row_groups(s, 4 * rayon::current_num_threads());
            let mut parts = Vec::with_capacity(groups.len());
            let (mut sm, mut cf, mut cr) = (&mut sums[..], &mut fwd[..], &mut rev[..]);
            for &(i0, i1) in &groups {
                let (a, ra) = std::mem::take(&mut sm).split_at_mut((i1 - i0) * s);
                let (b, rb) = std::mem::take(&mut cf).split_at_mut((i1 - i0) * s);
                let (c, rc) = std::mem::take(&mut cr).split_at_mut((i1 - i0) * s);
                parts.push((i0, i1, a, b, c));
                (sm, cf, cr) = (ra, rb, rc);
            }
            parts.into_par_iter().for_each(|(i0, i1, sums, fwd, rev)| {
                if nan {
                    for i in i0..i1 {
                        let r = (i - i0) * s..(i - i0 + 1) * s;
                        let (a, b, c) = (&mut sums[r.clone()], &mut fwd[r.clone()], &mut rev[r]);
                        count_scalar(values, s, i, observed, spec, means, a, b, c);
                    }
                    return;
                }
                let group = Group {
                    s,
                    i0,
                    i1,
                    spec,
                    rules: (i0..i1)
                        .flat_map(|i| {
                            (0..s).map(move |j| {
                                let rule = |a: usize, b: usize| {
                                    Rule::new(
                                        spec,
                                        observed[b] - observed[a],
                                        means.map(|m| m[a * s + b]),
                                    )
                                };
                                (rule(i, j), rule(j, i).on_negated(spec))
                            })
                        })
                        .collect(),
                };
                for t0 in (0..rows).step_by(tile_rows) {
                    let len = tile_rows.min(rows - t0);
                    group.tile(&values[t0 * s..(t0 + len) * s], len, sums, fwd, rev);
                }
            });
        })
    }

    /// The counts of every ordered pair (S × S) and the sums of δ* of every
    /// ordered pair (S × S; of |δ*| for the variants that centre it): the
    /// sum of (j, i) is the negated sum of (i, j) (exactly the in-order sum
    /// of −δ*: sums start at +0.0 and never hold −0.0, so 0.0 − x is it).
    fn finish(&self, counts: &mut [u64], spec: PairSpec) -> Vec<f64> {
        let s = self.s;
        let abs = spec.variant.centres_abs();
        let mut sums = vec![0.0; s * s];
        for i in 0..s {
            for j in i + 1..s {
                let x = self.sums[i * s + j];
                sums[i * s + j] = x;
                sums[j * s + i] = if abs { x } else { 0.0 - x };
                counts[i * s + j] += self.fwd[i * s + j];
                counts[j * s + i] += self.rev[i * s + j];
            }
        }
        sums
    }
}

fn check_pairs(values: &[f64], s: usize, observed: &[f64], means: Option<&[f64]>) -> Result<()> {
    if s == 0 || values.len() % s != 0 || observed.len() != s {
        return Err(Error::Input(
            "values, systems and observed scores do not fit together".into(),
        ));
    }
    if let Some(m) = means {
        if m.len() != s * s {
            return Err(Error::Input("means must be systems x systems".into()));
        }
    }
    Ok(())
}

/// Exceedance counts (S × S) for one block of values (`rows × s`, resample-major),
/// and the in-order sums of δ* per pair (S × S; of |δ*| for the sacrebleu
/// and Moses variants, which centre |δ*|). `observed` holds each
/// system's observed score; `means` (S × S) the bootstrap means for the
/// shifted variant (when `None`, the shifted counts are left at 0). Entry
/// (i, j) is system j against system i: δ* = v_j − v_i; each unordered pair
/// is computed once, (j, i) counting on −δ*.
pub fn count_block(
    values: &[f64],
    s: usize,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    threads: usize,
) -> Result<(Vec<u64>, Vec<f64>)> {
    check_pairs(values, s, observed, means)?;
    let mut acc = PairAcc::new(s);
    acc.add(values, observed, spec, means, threads)?;
    let mut counts = vec![0u64; s * s];
    let sums = acc.finish(&mut counts, spec);
    Ok((counts, sums))
}

/// Resamples per pass over the pairs: a multiple of [`BLOCK`] that keeps a
/// pass's values near [`PASS_VALUES`] (passes change no byte: the sums run
/// on across them in resample order).
fn pass_len(s: usize) -> usize {
    (PASS_VALUES / s.max(1) / BLOCK * BLOCK).clamp(BLOCK, PAIR_BLOCK)
}

/// One shard of a pairwise run: the job's resamples (its `start` on a
/// multiple of [`PAIR_BLOCK`]), returning summed counts (S × S) and one S × S
/// block of δ* sums per [`PAIR_BLOCK`] block, in order. Memory stays
/// O(systems × (pass + systems)) for any number of resamples.
pub fn pairwise_shard(
    t: &Table<'_>,
    boot: &Bootstrap,
    metric: &Metric,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    job: &Job<'_>,
) -> Result<(Vec<u64>, Vec<f64>)> {
    shard_with(observed, spec, means, job, |j| {
        bootstrap_values_range(t, boot, metric, j)
    })
}

/// A shard over the resamples whose values (`count × S`, resample-major)
/// `values` gives for any range of the job, in passes of [`pass_len`].
fn shard_with(
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    job: &Job<'_>,
    values: impl Fn(&Job<'_>) -> Result<Vec<f64>>,
) -> Result<(Vec<u64>, Vec<f64>)> {
    let (start, stop) = (job.start, job.start.saturating_add(job.count as u64));
    if start % PAIR_BLOCK as u64 != 0 {
        return Err(Error::Input(format!(
            "shard [{start}, {stop}) must start on a multiple of {PAIR_BLOCK}"
        )));
    }
    let s = observed.len();
    check_pairs(&[], s, observed, means)?;
    let pass = pass_len(s) as u64;
    let mut counts = vec![0u64; s * s];
    let mut block_sums = Vec::new();
    let mut b = start;
    while b < stop {
        let end = (stop - b).min(PAIR_BLOCK as u64) + b;
        let mut acc = PairAcc::new(s);
        let mut c = b;
        while c < end {
            let len = (end - c).min(pass) as usize;
            let v = values(&job.range(c, len))?;
            if v.len() != len * s {
                return Err(Error::Input(
                    "metric systems do not match the observed scores".into(),
                ));
            }
            acc.add(&v, observed, spec, means, job.threads)?;
            c += len as u64;
        }
        block_sums.extend(acc.finish(&mut counts, spec));
        b = end;
    }
    Ok((counts, block_sums))
}

/// Combine per-block sums (blocks × S²) in block order into means (S²).
#[must_use]
pub fn blocked_means(block_sums: &[f64], s: usize, total: u64) -> Vec<f64> {
    let mut acc = vec![0.0f64; s * s];
    for blk in block_sums.chunks(s * s) {
        for (a, &x) in acc.iter_mut().zip(blk) {
            *a += x;
        }
    }
    acc.iter().map(|&v| v / total as f64).collect()
}

/// One shard of a pairwise run on cluster resamples: as
/// [`pairwise_shard`], with the resamples of
/// [`crate::engine::cluster_bootstrap_values`] (whole clusters drawn).
pub fn cluster_pairwise_shard(
    cl: &Clusters,
    metric: &Metric,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    job: &Job<'_>,
) -> Result<(Vec<u64>, Vec<f64>)> {
    shard_with(observed, spec, means, job, |j| {
        cluster_bootstrap_values(cl, metric, j)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{bootstrap_values, Progress, Resampling};
    use crate::inference::{bootstrap_exceeds, bootstrap_pvalue};
    use crate::rng::Version;

    /// Every ordered pair's count and in-order sum, straight from the rule.
    fn naive(
        values: &[f64],
        s: usize,
        observed: &[f64],
        spec: PairSpec,
        means: Option<&[f64]>,
    ) -> (Vec<u64>, Vec<f64>) {
        let mut counts = vec![0u64; s * s];
        let mut sums = vec![0.0f64; s * s];
        for i in 0..s {
            for j in 0..s {
                if i == j {
                    continue;
                }
                let obs = observed[j] - observed[i];
                let mean = means.map(|m| m[i * s + j]);
                for row in values.chunks_exact(s) {
                    let d = row[j] - row[i];
                    sums[i * s + j] += if spec.variant.centres_abs() {
                        d.abs()
                    } else {
                        d
                    };
                    let hit = bootstrap_exceeds(
                        d,
                        obs,
                        spec.variant,
                        spec.alternative,
                        spec.orient,
                        mean,
                    );
                    counts[i * s + j] += u64::from(hit);
                }
            }
        }
        (counts, sums)
    }

    #[test]
    fn counts_follow_the_rule_on_every_variant() {
        // 13 systems: one SIMD group of 8 and single lanes; values on a coarse grid, so that
        // ties, zero deltas and deltas equal to 2δ happen
        let s = 13;
        let rows = 300;
        let grid = |i: usize| (((i * 2654435761usize) >> 7) % 9) as f64 * 0.125;
        let values: Vec<f64> = (0..rows * s).map(grid).collect();
        let mut observed: Vec<f64> = (0..s).map(|j| grid(j + 17)).collect();
        observed[3] = observed[4]; // a zero observed difference
        let means: Vec<f64> = (0..s * s).map(|k| grid(k + 5) - 0.5).collect();
        let variants = [
            BootVariant::BergKirkpatrick,
            BootVariant::Koehn,
            BootVariant::Shifted,
            BootVariant::SacreBleu,
            BootVariant::Moses,
        ];
        for variant in variants {
            for alternative in [
                Alternative::TwoSided,
                Alternative::Greater,
                Alternative::Less,
            ] {
                for orient in [1.0, -1.0] {
                    let spec = PairSpec {
                        variant,
                        alternative,
                        orient,
                    };
                    for m in [None, Some(&means[..])] {
                        let want = naive(&values, s, &observed, spec, m);
                        for (threads, simd) in [(1, true), (2, true), (1, false)] {
                            crate::simd::set_enabled(simd);
                            let got = count_block(&values, s, &observed, spec, m, threads).unwrap();
                            crate::simd::set_enabled(true);
                            assert_eq!(got.0, want.0, "{spec:?} means {}", m.is_some());
                            let (g, w): (Vec<u64>, Vec<u64>) = got
                                .1
                                .iter()
                                .zip(&want.1)
                                .map(|(a, b)| (a.to_bits(), b.to_bits()))
                                .unzip();
                            assert_eq!(g, w, "{spec:?} sums");
                        }
                        // passes split anywhere give the same bytes
                        let mut acc = PairAcc::new(s);
                        acc.add(&values[..77 * s], &observed, spec, m, 1).unwrap();
                        acc.add(&values[77 * s..], &observed, spec, m, 2).unwrap();
                        let mut counts = vec![0u64; s * s];
                        let sums = acc.finish(&mut counts, spec);
                        assert_eq!(counts, want.0);
                        assert!(sums
                            .iter()
                            .zip(&want.1)
                            .all(|(a, b)| a.to_bits() == b.to_bits()));
                    }
                }
            }
        }
        // a NaN value goes through the rule itself
        let mut nan = values.clone();
        nan[5 * s + 2] = f64::NAN;
        let spec = PairSpec {
            variant: BootVariant::BergKirkpatrick,
            alternative: Alternative::TwoSided,
            orient: 1.0,
        };
        let want = naive(&nan, s, &observed, spec, None);
        assert_eq!(
            count_block(&nan, s, &observed, spec, None, 2).unwrap().0,
            want.0
        );
    }

    #[test]
    fn pairs_equal_two_system_counts() {
        let n = 120;
        let s = 4;
        let k = 3;
        let data: Vec<f64> = (0..n * s * k)
            .map(|i| ((i * 2654435761usize) % 17) as f64)
            .collect();
        let t = Table::new(&data, n, s * k).unwrap();
        let m = Metric::named("f1").unwrap();
        let p = Progress::new();
        let boot = Bootstrap::new(&t, Resampling::Items, Version::default());
        let totals: Vec<f64> = (0..s * k)
            .map(|c| (0..n).map(|i| data[i * s * k + c]).sum())
            .collect();
        let observed: Vec<f64> = (0..s)
            .map(|j| m.score(&totals[j * k..(j + 1) * k], n as f64))
            .collect();
        let spec = PairSpec {
            variant: BootVariant::BergKirkpatrick,
            alternative: Alternative::TwoSided,
            orient: 1.0,
        };
        let job = Job::new(3, 700, 2, &p);
        let (counts, _) = pairwise_shard(&t, &boot, &m, &observed, spec, None, &job).unwrap();
        let one = Job { threads: 1, ..job };
        let (vals, _) = bootstrap_values(&t, &m, Resampling::Items, &one).unwrap();
        for i in 0..s {
            for j in 0..s {
                if i == j {
                    continue;
                }
                let d: Vec<f64> = (0..700)
                    .map(|b| vals[b * s + j] - vals[b * s + i])
                    .collect();
                let want = bootstrap_pvalue(
                    &d,
                    observed[j] - observed[i],
                    BootVariant::BergKirkpatrick,
                    Alternative::TwoSided,
                    1.0,
                    false,
                );
                assert_eq!(counts[i * s + j], want.count);
            }
        }
    }

    #[test]
    fn shard_alignment_enforced() {
        let data = [1.0; 8];
        let t = Table::new(&data, 4, 2).unwrap();
        let boot = Bootstrap::new(&t, Resampling::Items, Version::default());
        let spec = PairSpec {
            variant: BootVariant::Koehn,
            alternative: Alternative::TwoSided,
            orient: 1.0,
        };
        let p = Progress::new();
        let r = pairwise_shard(
            &t,
            &boot,
            &Metric::named("mean").unwrap(),
            &[1.0, 1.0],
            spec,
            None,
            &Job::new(1, 5, 1, &p).range(5, 5),
        );
        assert!(r.is_err());
    }
}
