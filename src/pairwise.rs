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
    bootstrap_values_range, cluster_bootstrap_values, Bootstrap, Clusters, Job, Table,
};
use crate::inference::{Alternative, BootVariant};
use crate::metric::Metric;
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

/// Exceedance counts (S × S) for one block of values (`rows × s`, resample-major),
/// and the in-order sums of δ* per pair (S × S; of |δ*| for the sacrebleu
/// and Moses variants, which centre |δ*|). `observed` holds each
/// system's observed score; `means` (S × S) the bootstrap means for the
/// shifted variant (when `None`, the shifted counts are left at 0).
pub fn count_block(
    values: &[f64],
    s: usize,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    threads: usize,
) -> Result<(Vec<u64>, Vec<f64>)> {
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
    let rows = values.len() / s;
    // column-major copy, so that each pair reads two contiguous columns
    let mut cols = vec![0.0f64; values.len()];
    for (b, row) in values.chunks_exact(s).enumerate() {
        for (j, &v) in row.iter().enumerate() {
            cols[j * rows + b] = v;
        }
    }
    let per_row: Vec<(Vec<u64>, Vec<f64>)> = crate::engine::with_pool(threads, || {
        (0..s)
            .into_par_iter()
            .map(|i| {
                let mut counts = vec![0u64; s];
                let mut sums = vec![0.0f64; s];
                let ci = &cols[i * rows..(i + 1) * rows];
                for j in 0..s {
                    if i == j {
                        continue;
                    }
                    let cj = &cols[j * rows..(j + 1) * rows];
                    let obs = observed[j] - observed[i];
                    let mean = means.map(|m| m[i * s + j]);
                    let mut c = 0u64;
                    let mut sum = 0.0;
                    let abs = spec.variant.centres_abs();
                    for (&vj, &vi) in cj.iter().zip(ci) {
                        let d = vj - vi;
                        sum += if abs { d.abs() } else { d };
                        c += u64::from(exceeds(d, obs, spec, mean));
                    }
                    counts[j] = c;
                    sums[j] = sum;
                }
                (counts, sums)
            })
            .collect()
    })?;
    let mut counts = Vec::with_capacity(s * s);
    let mut sums = Vec::with_capacity(s * s);
    for (c, m) in per_row {
        counts.extend(c);
        sums.extend(m);
    }
    Ok((counts, sums))
}

/// Whether one resampled δ counts towards the p-value (the rule of
/// [`crate::inference::bootstrap_exceeds`]).
#[inline]
fn exceeds(d: f64, obs: f64, spec: PairSpec, mean: Option<f64>) -> bool {
    crate::inference::bootstrap_exceeds(d, obs, spec.variant, spec.alternative, spec.orient, mean)
}

/// One shard of a pairwise run: the job's resamples (its `start` on a
/// multiple of [`PAIR_BLOCK`]), returning summed counts (S × S) and one S × S
/// block of δ* sums per [`PAIR_BLOCK`] block, in order.
pub fn pairwise_shard(
    t: &Table<'_>,
    boot: &Bootstrap,
    metric: &Metric,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    job: &Job<'_>,
) -> Result<(Vec<u64>, Vec<f64>)> {
    let (start, stop) = (job.start, job.start.saturating_add(job.count as u64));
    if start % PAIR_BLOCK as u64 != 0 {
        return Err(Error::Input(format!(
            "shard [{start}, {stop}) must start on a multiple of {PAIR_BLOCK}"
        )));
    }
    let s = observed.len();
    let mut counts = vec![0u64; s * s];
    let mut block_sums = Vec::new();
    let mut b = start;
    while b < stop {
        let len = (stop - b).min(PAIR_BLOCK as u64) as usize;
        let values = bootstrap_values_range(t, boot, metric, &job.range(b, len))?;
        if values.len() != len * s {
            return Err(Error::Input(
                "metric systems do not match the observed scores".into(),
            ));
        }
        let (c, sums) = count_block(&values, s, observed, spec, means, job.threads)?;
        for (a, x) in counts.iter_mut().zip(c) {
            *a += x;
        }
        block_sums.extend(sums);
        b += len as u64;
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
    let (start, stop) = (job.start, job.start.saturating_add(job.count as u64));
    if start % PAIR_BLOCK as u64 != 0 {
        return Err(Error::Input(format!(
            "shard [{start}, {stop}) must start on a multiple of {PAIR_BLOCK}"
        )));
    }
    let s = observed.len();
    let mut counts = vec![0u64; s * s];
    let mut block_sums = Vec::new();
    let mut b = start;
    while b < stop {
        let len = (stop - b).min(PAIR_BLOCK as u64) as usize;
        let values = cluster_bootstrap_values(cl, metric, &job.range(b, len))?;
        if values.len() != len * s {
            return Err(Error::Input(
                "metric systems do not match the observed scores".into(),
            ));
        }
        let (c, sums) = count_block(&values, s, observed, spec, means, job.threads)?;
        for (a, x) in counts.iter_mut().zip(c) {
            *a += x;
        }
        block_sums.extend(sums);
        b += len as u64;
    }
    Ok((counts, block_sums))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{bootstrap_values, Progress, Resampling};
    use crate::inference::bootstrap_pvalue;

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
        let boot = Bootstrap::new(&t, Resampling::Items);
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
        let boot = Bootstrap::new(&t, Resampling::Items);
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
