//! Cluster resampling: whole clusters of items (the questions on one
//! passage, the segments of one document, a task's paired items) are drawn
//! or swapped together.
//!
//! A table of `n` items and an assignment of each item to one of `G`
//! clusters (codes `0..G`, every cluster non-empty) is first pre-summed
//! into a G-row table: row `c` is the sum of the rows of cluster `c`'s
//! items, added in item order starting from `0.0`; `sizes[c]` is its item
//! count.
//!
//! **Bootstrap.** Resample `b` draws `G` cluster indices with
//! `Bounded::new(G)` from `Stream::new(version, seed, TAG_BOOTSTRAP, b, sub)` — the
//! item bootstrap's stream, so that `G = n` singleton clusters draw exactly
//! the item bootstrap's indices — and counts them (`k_c` draws of cluster
//! `c`). Its summed statistics are, column by column,
//! `acc = 0.0; for c in 0..G with k_c > 0: acc = acc + (k_c as f64) * row_c`
//! (a product, then a sum: never fused), in cluster order; its item count is
//! `Σ k_c · sizes[c]` (exact), and the metric is scored with that count
//! (`Metric::score(sums, n*)`: a mean divides by the items drawn). A numpy
//! loop over the same draws (`sigfast._native.item_indices(G, ...)`) in the
//! same order gives the same bytes.
//!
//! **Permutation.** Resample `b` swaps the two systems' statistics of whole
//! clusters: the item permutation test run on the G-row table (cluster `c`
//! reads swap bit `c mod 64` of 64-bit word `c / 64` of `Stream::new(version,
//! seed, TAG_PERMUTE, b, 0)`; exact enumeration swaps the clusters whose bits of
//! `b` are set, for `G` ≤ [`MAX_EXACT_ITEMS`]), the metric scored with the
//! total item count `n` (float sums are added as [`super::Swapper`] adds
//! them, over cluster rows).
//!
//! **Item statistics** (a median, a correlation) are recomputed on the items
//! of the drawn clusters: drawn clusters in draw order, each cluster's items
//! in item order; a permutation swaps every item of a swapped cluster.
//!
//! Work runs in the fixed blocks of [`super::par_blocks`]: the same bytes
//! for any thread count.

use crate::itemstat::{ItemStatistic, Scratch};
use crate::metric::Metric;
use crate::rng::{Bounded, Version, Xoshiro, TAG_BOOTSTRAP};
use crate::simd::count_v2;
use crate::{Error, Result};

use super::items::swap_mask;
use super::swap::{exact_size, swap_blocks};
use super::{check_systems, par_blocks, two_systems, Job, Swapper, Table};

/// Items grouped into clusters, with each cluster's statistics pre-summed.
#[derive(Clone, Debug)]
pub struct Clusters {
    n: usize,
    g: usize,
    width: usize,
    /// G × width: each cluster's rows summed in item order
    sums: Vec<f64>,
    /// items per cluster
    sizes: Vec<u64>,
    /// cluster c's items are `members[offsets[c] .. offsets[c + 1]]`, in item order
    offsets: Vec<usize>,
    members: Vec<u32>,
}

impl Clusters {
    /// The clusters of `t`'s items: `assign[i]` is item i's cluster, codes
    /// `0..G` with every cluster holding at least one item.
    pub fn new(t: &Table<'_>, assign: &[u32]) -> Result<Self> {
        if assign.len() != t.n {
            return Err(Error::input(format!(
                "{} cluster codes for {} items; give one cluster per item",
                assign.len(),
                t.n
            )));
        }
        let g = assign.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        let mut sizes = vec![0u64; g];
        for &c in assign {
            sizes[c as usize] += 1;
        }
        if let Some(c) = sizes.iter().position(|&s| s == 0) {
            return Err(Error::input(format!(
                "cluster code {c} has no item: codes must be 0..G with every cluster used"
            )));
        }
        if g as u64 > 1 << 32 {
            return Err(Error::input("more than 2^32 clusters"));
        }
        let w = t.width;
        let mut sums = vec![0.0f64; g * w];
        for (i, &c) in assign.iter().enumerate() {
            let row = &mut sums[c as usize * w..(c as usize + 1) * w];
            for (a, &v) in row.iter_mut().zip(t.row(i)) {
                *a += v;
            }
        }
        let mut offsets = vec![0usize; g + 1];
        for c in 0..g {
            offsets[c + 1] = offsets[c] + sizes[c] as usize;
        }
        let mut next = offsets[..g].to_vec();
        let mut members = vec![0u32; t.n];
        for (i, &c) in assign.iter().enumerate() {
            members[next[c as usize]] = i as u32;
            next[c as usize] += 1;
        }
        Ok(Clusters {
            n: t.n,
            g,
            width: w,
            sums,
            sizes,
            offsets,
            members,
        })
    }

    /// Number of clusters G.
    #[must_use]
    pub fn n_clusters(&self) -> usize {
        self.g
    }

    /// Number of items n.
    #[must_use]
    pub fn n_items(&self) -> usize {
        self.n
    }

    /// Items per cluster.
    #[must_use]
    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The pre-summed statistics, G × width.
    #[must_use]
    pub fn sums(&self) -> &[f64] {
        &self.sums
    }

    /// The pre-summed statistics as a G-row table.
    #[must_use]
    pub fn table(&self) -> Table<'_> {
        Table {
            data: &self.sums,
            n: self.g,
            width: self.width,
        }
    }

    /// The items of cluster `c`, in item order.
    #[must_use]
    pub fn members(&self, c: usize) -> &[u32] {
        &self.members[self.offsets[c]..self.offsets[c + 1]]
    }

    /// How often each cluster is drawn in resample `b` of stream `(seed, sub)`
    /// of version `v`.
    pub fn draw_counts(&self, v: Version, seed: u64, sub: u64, b: u64, counts: &mut [u32]) {
        counts.fill(0);
        let bnd = Bounded::new(self.g as u64);
        match v {
            Version::V1 => {
                let mut x = Xoshiro::new(seed, TAG_BOOTSTRAP, b, sub);
                bnd.for_each_v1(&mut x, self.g, |c| counts[c] += 1);
            }
            Version::V2 => {
                let mut l = crate::simd::lanes_new(seed, TAG_BOOTSTRAP, b, sub);
                count_v2(&bnd, &mut l, self.g, counts);
            }
        }
    }

    /// The clusters drawn in resample `b` of version `v`, in draw order.
    pub fn draws(&self, v: Version, seed: u64, sub: u64, b: u64, out: &mut Vec<usize>) {
        out.clear();
        let from = super::Draws {
            stream: v,
            seed,
            tag: TAG_BOOTSTRAP,
            sub,
        };
        from.indices(b, &Bounded::new(self.g as u64), self.g, |c| out.push(c));
    }

    /// Summed statistics (`width` values) of resample `b` from its draw
    /// counts, in cluster order (see the module documentation); returns
    /// the resample's item count.
    pub fn resample_sums(&self, counts: &[u32], out: &mut [f64]) -> f64 {
        out.fill(0.0);
        let w = self.width;
        let mut items = 0u64;
        for (c, &k) in counts.iter().enumerate() {
            if k == 0 {
                continue;
            }
            items += u64::from(k) * self.sizes[c];
            let kf = f64::from(k);
            for (a, &v) in out.iter_mut().zip(&self.sums[c * w..(c + 1) * w]) {
                *a += kf * v;
            }
        }
        items as f64
    }
}

/// Metric values of every system on the job's cluster-bootstrap resamples:
/// `count × systems`, resample-major.
pub fn cluster_bootstrap_values(cl: &Clusters, metric: &Metric, job: &Job<'_>) -> Result<Vec<f64>> {
    let t = cl.table();
    let systems = check_systems(&t, metric)?;
    let k = metric.n_stats();
    par_blocks(job, systems, |first, chunk| {
        let mut counts = vec![0u32; cl.g];
        let mut sums = vec![0.0; cl.width];
        for (r, row) in chunk.chunks_mut(systems).enumerate() {
            cl.draw_counts(job.stream, job.seed, job.sub, first + r as u64, &mut counts);
            let nf = cl.resample_sums(&counts, &mut sums);
            for (s, v) in row.iter_mut().enumerate() {
                *v = metric.score(&sums[s * k..(s + 1) * k], nf);
            }
        }
    })
}

/// Summed statistics of the job's cluster-bootstrap resamples (`count ×
/// width`) and each resample's item count (`count`), for metrics evaluated
/// outside the engine.
pub fn cluster_bootstrap_sums(cl: &Clusters, job: &Job<'_>) -> Result<(Vec<f64>, Vec<f64>)> {
    let w = cl.width;
    let out = par_blocks(job, w + 1, |first, chunk| {
        let mut counts = vec![0u32; cl.g];
        for (r, row) in chunk.chunks_mut(w + 1).enumerate() {
            cl.draw_counts(job.stream, job.seed, job.sub, first + r as u64, &mut counts);
            row[w] = cl.resample_sums(&counts, &mut row[..w]);
        }
    })?;
    let mut sums = Vec::with_capacity(job.count * w);
    let mut items = Vec::with_capacity(job.count);
    for row in out.chunks_exact(w + 1) {
        sums.extend_from_slice(&row[..w]);
        items.push(row[w]);
    }
    Ok((sums, items))
}

/// Metric values (x', y') of the job's cluster-swap resamples with a
/// swapper prepared on the cluster table ([`Clusters::table`]): `count × 2`.
pub fn cluster_swap_values_range(
    cl: &Clusters,
    sw: &Swapper,
    metric: &Metric,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let t = cl.table();
    two_systems(&t, metric)?;
    if exact {
        exact_size(&t)?;
    }
    let k = metric.n_stats();
    let nf = cl.n as f64;
    swap_blocks(sw, 2, exact, job, |row, sums| {
        row[0] = metric.score(&sums[..k], nf);
        row[1] = metric.score(&sums[k..], nf);
    })
}

/// Metric values (x', y') of the job's cluster-swap resamples (`count × 2`;
/// `exact`: arrangement b of the 2^G).
pub fn cluster_permutation_values(
    cl: &Clusters,
    metric: &Metric,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let sw = Swapper::new(&cl.table())?;
    cluster_swap_values_range(cl, &sw, metric, exact, job)
}

fn item_columns(t: &Table<'_>) -> Vec<f64> {
    let n = t.n;
    let mut cols = vec![0.0f64; n * t.width];
    for i in 0..n {
        for c in 0..t.width {
            cols[c * n + i] = t.data[i * t.width + c];
        }
    }
    cols
}

/// An item statistic of every system on the items of the job's
/// cluster-bootstrap resamples (drawn clusters in draw order, each
/// cluster's items in item order): `count × systems`.
pub fn cluster_item_bootstrap_values(
    t: &Table<'_>,
    cl: &Clusters,
    stat: &ItemStatistic,
    label: &str,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let k = stat.n_inputs();
    if t.width % k != 0 || t.n != cl.n {
        return Err(Error::input(format!(
            "{} columns of {} items do not fit the {k} inputs of {label} and the {} clustered items",
            t.width, t.n, cl.n
        )));
    }
    let systems = t.width / k;
    let n = t.n;
    let cols = item_columns(t);
    if k == 2 {
        for s in 0..systems {
            stat.validate(&cols[(2 * s + 1) * n..(2 * s + 2) * n])?;
        }
    }
    par_blocks(job, systems, |first, chunk| {
        let mut scratch = Scratch::default();
        let mut draws = Vec::with_capacity(cl.g);
        let mut idx: Vec<usize> = Vec::new();
        let (mut gx, mut gy) = (Vec::new(), Vec::new());
        for (r, row) in chunk.chunks_mut(systems).enumerate() {
            cl.draws(job.stream, job.seed, job.sub, first + r as u64, &mut draws);
            idx.clear();
            for &c in &draws {
                idx.extend(cl.members(c).iter().map(|&i| i as usize));
            }
            for (s, o) in row.iter_mut().enumerate() {
                let xc = &cols[s * k * n..(s * k + 1) * n];
                gx.clear();
                gx.extend(idx.iter().map(|&i| xc[i]));
                gy.clear();
                if k == 2 {
                    let yc = &cols[(s * k + 1) * n..(s * k + 2) * n];
                    gy.extend(idx.iter().map(|&i| yc[i]));
                }
                *o = stat.eval(&gx, &gy, &mut scratch);
            }
        }
    })
}

/// Values (x', y') of an item statistic on the job's cluster-swap
/// resamples of two systems: every item of a swapped cluster trades its
/// two systems' inputs (`count × 2`; `exact`: arrangement b of the 2^G).
pub fn cluster_item_permutation_values(
    t: &Table<'_>,
    cl: &Clusters,
    stat: &ItemStatistic,
    label: &str,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let k = stat.n_inputs();
    if t.width != 2 * k || t.n != cl.n {
        return Err(Error::input(format!(
            "a permutation test compares two systems: {} columns of {} items do not fit 2 x the {k} inputs \
             of {label} and the {} clustered items",
            t.width, t.n, cl.n
        )));
    }
    if exact {
        exact_size(&cl.table())?;
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
    let mut cluster_of = vec![0usize; n];
    for c in 0..cl.g {
        for &i in cl.members(c) {
            cluster_of[i as usize] = c;
        }
    }
    let (seed, v) = (job.seed, job.stream);
    par_blocks(job, 2, |first, chunk| {
        let mut scratch = Scratch::default();
        let (mut gx, mut gy) = (vec![0.0; n], vec![0.0; n]);
        let (mut grx, mut gry) = (rx.clone(), ry.clone());
        let mut mask = vec![false; cl.g];
        for (r, row) in chunk.chunks_mut(2).enumerate() {
            swap_mask(v, seed, first + r as u64, exact, &mut mask);
            for i in 0..n {
                let swap = mask[cluster_of[i]];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{bootstrap_values, index_block, permutation_values, Progress, Resampling};

    fn lcg(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (s >> 11) as f64 / (1u64 << 53) as f64 - 0.3
            })
            .collect()
    }

    #[test]
    fn sums_equal_a_loop_over_the_drawn_clusters() {
        // 3 statistics, 40 items in 7 clusters of uneven size, float values
        let n = 40;
        let data = lcg(n * 3, 3);
        let t = Table::new(&data, n, 3).unwrap();
        let assign: Vec<u32> = (0..n)
            .map(|i| {
                if i < 7 {
                    i as u32
                } else {
                    ((i * i + 3) % 7) as u32
                }
            })
            .collect();
        let cl = Clusters::new(&t, &assign).unwrap();
        assert_eq!(cl.n_clusters(), 7);
        let p = Progress::new();
        let job = Job::new(11, 300, 2, &p).on_sub(2);
        let (sums, items) = cluster_bootstrap_sums(&cl, &job).unwrap();
        let draws = index_block(Version::default(), 7, 11, 2, 0, 300);
        for b in 0..300 {
            // the cluster rows, each summed in item order from 0.0
            let mut rows = vec![0.0f64; 7 * 3];
            for (i, &c) in assign.iter().enumerate() {
                for j in 0..3 {
                    rows[c as usize * 3 + j] += data[i * 3 + j];
                }
            }
            let mut k = [0u32; 7];
            for &c in &draws[b * 7..(b + 1) * 7] {
                k[c as usize] += 1;
            }
            let mut want = [0.0f64; 3];
            let mut m = 0u64;
            for c in 0..7 {
                if k[c] > 0 {
                    for j in 0..3 {
                        want[j] += f64::from(k[c]) * rows[c * 3 + j];
                    }
                    m += u64::from(k[c]) * cl.sizes()[c];
                }
            }
            for j in 0..3 {
                assert_eq!(sums[b * 3 + j].to_bits(), want[j].to_bits());
            }
            assert_eq!(items[b], m as f64);
        }
        let one = Job { threads: 1, ..job };
        assert_eq!(cluster_bootstrap_sums(&cl, &one).unwrap().0, sums);
    }

    #[test]
    fn singleton_clusters_are_the_item_bootstrap() {
        // integer statistics: sums are exact in any order
        let n = 90;
        let data: Vec<f64> = (0..n * 4).map(|i| ((i * 7919) % 5) as f64).collect();
        let t = Table::new(&data, n, 4).unwrap();
        let assign: Vec<u32> = (0..n as u32).collect();
        let cl = Clusters::new(&t, &assign).unwrap();
        let p = Progress::new();
        let data3: Vec<f64> = data
            .chunks(4)
            .flat_map(|r| {
                [
                    r[0].min(r[1]),
                    r[0].max(r[1]),
                    r[2].min(r[3]),
                    r[2].max(r[3]),
                ]
            })
            .collect();
        let t3 = Table::new(&data3, n, 4).unwrap();
        let m2 = Metric::named("mean").unwrap();
        let job = Job::new(5, 500, 2, &p);
        let (want, _) = bootstrap_values(&t, &m2, Resampling::Items, &job).unwrap();
        assert_eq!(cluster_bootstrap_values(&cl, &m2, &job).unwrap(), want);
        let acc = Metric::named("accuracy").unwrap();
        let cl3 = Clusters::new(&t3, &assign).unwrap();
        let (want, _) = bootstrap_values(&t3, &acc, Resampling::Items, &job).unwrap();
        assert_eq!(cluster_bootstrap_values(&cl3, &acc, &job).unwrap(), want);
        // the permutation swaps clusters as the item test swaps items
        let two: Vec<f64> = data.chunks(4).flat_map(|r| [r[0], r[1]]).collect();
        let t4 = Table::new(&two, n, 2).unwrap();
        let cl4 = Clusters::new(&t4, &assign).unwrap();
        let a = permutation_values(&t4, &m2, &job).unwrap();
        let b = cluster_permutation_values(&cl4, &m2, false, &job).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn mean_divides_by_the_items_drawn() {
        // two clusters: 3 items of value 1 and 1 item of value 0
        let data = [1.0, 1.0, 1.0, 0.0];
        let t = Table::new(&data, 4, 1).unwrap();
        let cl = Clusters::new(&t, &[0, 0, 0, 1]).unwrap();
        let m = Metric::named("mean").unwrap();
        let p = Progress::new();
        let v = cluster_bootstrap_values(&cl, &m, &Job::new(1, 64, 1, &p)).unwrap();
        // every resample is all of cluster 0 (1.0), all of cluster 1 (0.0), or one each (3/4)
        assert!(
            v.iter().all(|&x| x == 1.0 || x == 0.0 || x == 0.75),
            "{v:?}"
        );
        assert!(v.contains(&0.75));
    }

    #[test]
    fn cluster_codes_are_checked() {
        let data = [1.0; 6];
        let t = Table::new(&data, 6, 1).unwrap();
        assert!(Clusters::new(&t, &[0, 0, 1]).is_err());
        assert!(Clusters::new(&t, &[0, 0, 2, 2, 2, 0]).is_err());
        let cl = Clusters::new(&t, &[1, 0, 1, 1, 0, 2]).unwrap();
        assert_eq!(cl.sizes(), &[2, 3, 1]);
        assert_eq!(cl.members(1), &[0, 2, 3]);
        assert_eq!(cl.sums(), &[2.0, 3.0, 1.0]);
    }

    #[test]
    fn item_statistics_see_the_drawn_clusters() {
        let n = 30;
        let data = lcg(n * 2, 9);
        let t = Table::new(&data, n, 2).unwrap();
        let assign: Vec<u32> = (0..n).map(|i| (i / 4) as u32).collect();
        let cl = Clusters::new(&t, &assign).unwrap();
        let p = Progress::new();
        let job = Job::new(4, 40, 3, &p);
        let med = ItemStatistic::Median;
        let v = cluster_item_bootstrap_values(&t, &cl, &med, "median", &job).unwrap();
        let one = Job { threads: 1, ..job };
        assert_eq!(
            cluster_item_bootstrap_values(&t, &cl, &med, "median", &one).unwrap(),
            v
        );
        let g = cl.n_clusters();
        let draws = index_block(Version::default(), g, 4, 0, 0, 40);
        for b in 0..40 {
            let mut xs: Vec<f64> = Vec::new();
            for &c in &draws[b * g..(b + 1) * g] {
                xs.extend(
                    cl.members(c as usize)
                        .iter()
                        .map(|&i| data[i as usize * 2 + 1]),
                );
            }
            assert_eq!(v[b * 2 + 1], crate::itemstat::quantile(&xs, 0.5));
        }
        let pv = cluster_item_permutation_values(&t, &cl, &med, "median", false, &job).unwrap();
        assert_eq!(pv.len(), 80);
    }
}
