//! Evaluation designs beyond one row per item: the two-level bootstrap
//! (items, then the repeats, samples or runs within each drawn item) and the
//! crossed bootstrap (items and prompts drawn independently).
//!
//! The table holds one row per observation: `rows × width` statistics (every
//! system's columns side by side, so every system sees the same draws: the
//! schemes are paired across systems). Each row carries an item code
//! (`0..G`, every item used) and a second code: the repeat (two-level; any
//! codes, distinct within an item) or the prompt (crossed; `0..P`, every
//! prompt used; one row per (item, prompt) cell). Rows are grouped by item in
//! code order, each item's rows in table order: the *grouped order*.
//!
//! **Items.** Resample `b` draws `G` item indices with `Bounded::new(G)` from
//! `Stream::new(version, seed, TAG_BOOTSTRAP, b, sub)` — the cluster
//! bootstrap's stream — and counts them: `u_i` copies of item `i`.
//!
//! **Two-level.** The second level draws from `Stream::new(version, seed,
//! TAG_LEVEL2, b, sub)`: for each item `i` in code order with `u_i > 0` and
//! `K_i ≥ 2` rows, `u_i · K_i` indices with `Bounded::new(K_i)` (each copy of
//! the item redraws its K_i repeats with replacement); `c_r` counts the draws
//! of row `r`. An item with one row draws nothing (`c_r = u_i`). A row's
//! weight is `w_r = c_r / K_i` (one division), so a drawn item contributes the
//! mean of its drawn repeats and the item count is `G` (a mean is the mean
//! over the drawn items of their repeats' mean: the item value of
//! [`sigfast.samples`] with unequal repeats too).
//!
//! **Crossed** (Owen 2007's pigeonhole bootstrap): the second level draws
//! `P` prompt indices with `Bounded::new(P)` from the `TAG_LEVEL2` stream and
//! counts them (`v_p`); a cell's weight is `w_r = u_i · v_p` (exact) and the
//! item count `Σ_r w_r` over the cells present (exact integers).
//!
//! **Sums.** Column by column, `acc = 0.0; for r in grouped order with
//! w_r > 0: acc = acc + w_r * row_r` (a product, then a sum: never fused),
//! and the metric is scored with the item count. The weights of a resample are
//! exposed ([`Design::weights`]) so that a numpy loop over them checks the
//! sums; the draws are only the streams above, so results are the same bytes
//! for any thread count (fixed blocks of [`super::par_blocks`]).

use crate::metric::Metric;
use crate::rng::{Bounded, Version, Xoshiro, TAG_BOOTSTRAP, TAG_LEVEL2};
use crate::simd::count_v2;
use crate::{Error, Result};

use super::{check_systems, par_blocks, Job, Table};

/// Which second level a design resamples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level2 {
    /// Repeats (samples, epochs, runs) nested in items, redrawn within each drawn item.
    Nested,
    /// Prompts (templates) crossed with items, drawn once per resample.
    Crossed,
}

/// Draw counts of one resample: items (`u`, G) and prompts (`v`, P).
#[derive(Clone, Debug)]
pub struct Counts {
    u: Vec<u32>,
    v: Vec<u32>,
}

/// Rows of a two-level or crossed design, grouped by item, with their statistics.
#[derive(Clone, Debug)]
pub struct Design {
    level2: Level2,
    width: usize,
    n_items: usize,
    /// crossed: the number of prompts P
    n_second: usize,
    /// the statistics in grouped order (rows × width)
    data: Vec<f64>,
    /// grouped position -> the row of the caller's table
    order: Vec<u32>,
    /// item i's rows are grouped positions `offsets[i] .. offsets[i + 1]`
    offsets: Vec<usize>,
    /// crossed: each grouped row's prompt code
    prompt: Vec<u32>,
}

fn dense_count(codes: &[u32], what: &str) -> Result<usize> {
    let g = codes.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    let mut used = vec![false; g];
    for &c in codes {
        used[c as usize] = true;
    }
    if let Some(c) = used.iter().position(|&u| !u) {
        return Err(Error::input(format!(
            "{what} code {c} has no row: codes must be 0..{g} with every {what} used"
        )));
    }
    if g as u64 > 1 << 32 {
        return Err(Error::input(format!("more than 2^32 {what}s")));
    }
    Ok(g)
}

impl Design {
    /// The design of `t`'s rows: `items[r]` is row r's item, `second[r]` its
    /// repeat (`Nested`: distinct within an item) or prompt (`Crossed`: codes
    /// `0..P`, one row per (item, prompt)).
    pub fn new(t: &Table<'_>, items: &[u32], second: &[u32], level2: Level2) -> Result<Self> {
        for (codes, what) in [(items, "item"), (second, "second-level")] {
            if codes.len() != t.n {
                return Err(Error::input(format!(
                    "{} {what} codes for {} rows; give one per row",
                    codes.len(),
                    t.n
                )));
            }
        }
        let g = dense_count(items, "item")?;
        let p = match level2 {
            Level2::Crossed => dense_count(second, "prompt")?,
            Level2::Nested => 0,
        };
        let mut offsets = vec![0usize; g + 1];
        for &i in items {
            offsets[i as usize + 1] += 1;
        }
        for i in 0..g {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets[..g].to_vec();
        let mut order = vec![0u32; t.n];
        for (r, &i) in items.iter().enumerate() {
            order[next[i as usize]] = r as u32;
            next[i as usize] += 1;
        }
        // the same second code twice in one item is an error (a cell or a repeat given twice)
        let mut seen: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for i in 0..g {
            seen.clear();
            for &r in &order[offsets[i]..offsets[i + 1]] {
                if let Some(first) = seen.insert(second[r as usize], r as usize) {
                    let what = match level2 {
                        Level2::Nested => "repeat",
                        Level2::Crossed => "prompt",
                    };
                    return Err(Error::input(format!(
                        "rows {first} and {r} are the same {what} (code {}) of item {i}: give each \
                         (item, {what}) one row",
                        second[r as usize]
                    )));
                }
            }
        }
        let w = t.width;
        let mut data = Vec::with_capacity(t.n * w);
        for &r in &order {
            data.extend_from_slice(t.row(r as usize));
        }
        let prompt = match level2 {
            Level2::Crossed => order.iter().map(|&r| second[r as usize]).collect(),
            Level2::Nested => Vec::new(),
        };
        Ok(Design {
            level2,
            width: w,
            n_items: g,
            n_second: p,
            data,
            order,
            offsets,
            prompt,
        })
    }

    /// Number of items G.
    #[must_use]
    pub fn n_items(&self) -> usize {
        self.n_items
    }

    /// Number of rows.
    #[must_use]
    pub fn n_rows(&self) -> usize {
        self.order.len()
    }

    /// Which second level.
    #[must_use]
    pub fn level2(&self) -> Level2 {
        self.level2
    }

    /// Scratch for [`Design::weights_grouped`].
    #[must_use]
    pub fn scratch(&self) -> Counts {
        Counts {
            u: vec![0; self.n_items],
            v: vec![0; self.n_second],
        }
    }

    /// Each row's weight in resample `b` of stream (`v`, `seed`, `sub`)
    /// (grouped order, `n_rows` values) and the resample's item count.
    pub fn weights_grouped(
        &self,
        (v, seed, sub): (Version, u64, u64),
        b: u64,
        c: &mut Counts,
        w: &mut [f64],
    ) -> f64 {
        let (u, vp) = (&mut c.u, &mut c.v);
        draw_counts(v, seed, sub, b, TAG_BOOTSTRAP, self.n_items, u);
        match self.level2 {
            Level2::Crossed => {
                draw_counts(v, seed, sub, b, TAG_LEVEL2, self.n_second, vp);
                let mut items = 0u64;
                for (i, &ui) in u.iter().enumerate() {
                    let ui = u64::from(ui);
                    for k in self.offsets[i]..self.offsets[i + 1] {
                        let c = ui * u64::from(vp[self.prompt[k] as usize]);
                        items += c;
                        w[k] = c as f64;
                    }
                }
                items as f64
            }
            Level2::Nested => {
                w.fill(0.0);
                let mut stream = crate::simd::stream_new(v, seed, TAG_LEVEL2, b, sub);
                for (i, &ui) in u.iter().enumerate() {
                    let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
                    let k = hi - lo;
                    if ui == 0 {
                        continue;
                    }
                    if k == 1 {
                        w[lo] = f64::from(ui);
                        continue;
                    }
                    let ws = &mut w[lo..hi];
                    Bounded::new(k as u64).for_each(&mut stream, ui as usize * k, |j| {
                        ws[j] += 1.0;
                    });
                    let kf = k as f64;
                    for x in ws.iter_mut() {
                        *x /= kf;
                    }
                }
                self.n_items as f64
            }
        }
    }

    /// [`Design::weights_grouped`] in the caller's row order.
    pub fn weights(&self, v: Version, seed: u64, sub: u64, b: u64, out: &mut [f64]) -> f64 {
        let mut c = self.scratch();
        let mut w = vec![0.0; self.n_rows()];
        let items = self.weights_grouped((v, seed, sub), b, &mut c, &mut w);
        for (k, &r) in self.order.iter().enumerate() {
            out[r as usize] = w[k];
        }
        items
    }

    /// Summed statistics (`width` values) under grouped weights `w`, in grouped order.
    pub fn resample_sums(&self, w: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        let width = self.width;
        for (k, &wk) in w.iter().enumerate() {
            if wk == 0.0 {
                continue;
            }
            for (a, &x) in out.iter_mut().zip(&self.data[k * width..(k + 1) * width]) {
                *a += wk * x;
            }
        }
    }

    /// The table of the design's rows in grouped order.
    fn table(&self) -> Table<'_> {
        Table {
            data: &self.data,
            n: self.n_rows(),
            width: self.width,
        }
    }
}

/// Counts of `n` draws over `0..n` from stream (tag, b, sub) of version `v`.
fn draw_counts(v: Version, seed: u64, sub: u64, b: u64, tag: u64, n: usize, counts: &mut [u32]) {
    counts.fill(0);
    let bnd = Bounded::new(n as u64);
    match v {
        Version::V1 => {
            let mut x = Xoshiro::new(seed, tag, b, sub);
            bnd.for_each_v1(&mut x, n, |c| counts[c] += 1);
        }
        Version::V2 => {
            let mut l = crate::simd::lanes_new(seed, tag, b, sub);
            count_v2(&bnd, &mut l, n, counts);
        }
    }
}

/// Metric values of every system on the job's resamples of the design
/// (`count × systems`, resample-major).
pub fn design_bootstrap_values(d: &Design, metric: &Metric, job: &Job<'_>) -> Result<Vec<f64>> {
    let systems = check_systems(&d.table(), metric)?;
    let k = metric.n_stats();
    par_blocks(job, systems, |first, chunk| {
        let mut c = d.scratch();
        let mut w = vec![0.0; d.n_rows()];
        let mut sums = vec![0.0; d.width];
        for (r, row) in chunk.chunks_mut(systems).enumerate() {
            let b = first + r as u64;
            let nf = d.weights_grouped((job.stream, job.seed, job.sub), b, &mut c, &mut w);
            d.resample_sums(&w, &mut sums);
            for (s, o) in row.iter_mut().enumerate() {
                *o = metric.score(&sums[s * k..(s + 1) * k], nf);
            }
        }
    })
}

/// Summed statistics of the job's resamples of the design (`count × width`)
/// and each resample's item count (`count`).
pub fn design_bootstrap_sums(d: &Design, job: &Job<'_>) -> Result<(Vec<f64>, Vec<f64>)> {
    let wd = d.width;
    let out = par_blocks(job, wd + 1, |first, chunk| {
        let mut c = d.scratch();
        let mut w = vec![0.0; d.n_rows()];
        for (r, row) in chunk.chunks_mut(wd + 1).enumerate() {
            let b = first + r as u64;
            row[wd] = d.weights_grouped((job.stream, job.seed, job.sub), b, &mut c, &mut w);
            d.resample_sums(&w, &mut row[..wd]);
        }
    })?;
    let mut sums = Vec::with_capacity(job.count * wd);
    let mut items = Vec::with_capacity(job.count);
    for row in out.chunks_exact(wd + 1) {
        sums.extend_from_slice(&row[..wd]);
        items.push(row[wd]);
    }
    Ok((sums, items))
}

/// The error of a question a design scheme does not answer.
pub(super) fn not_a_bootstrap(level2: Level2, what: &str) -> Error {
    let name = match level2 {
        Level2::Nested => "two-level",
        Level2::Crossed => "crossed",
    };
    Error::input(format!(
        "the {name} scheme is a bootstrap of per-row statistics; {what} is not defined on it \
         (use the bootstrap with a metric of summed statistics)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{cluster_bootstrap_sums, Clusters, Progress};

    fn lcg(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.3) * 4.0
            })
            .collect()
    }

    #[test]
    fn same_bytes_for_any_thread_count_and_block() {
        // 30 items with 1..4 repeats, rows shuffled; two systems
        let mut items = Vec::new();
        let mut reps = Vec::new();
        for i in 0..30u32 {
            for j in 0..(i % 4 + 1) {
                items.push((i * 7) % 30);
                reps.push(j + 10);
            }
        }
        let n = items.len();
        let data = lcg(n * 2, 5);
        let t = Table::new(&data, n, 2).unwrap();
        let mean = Metric::named("mean").unwrap();
        let p = Progress::new();
        for level2 in [Level2::Nested, Level2::Crossed] {
            let second: Vec<u32> = if level2 == Level2::Crossed {
                reps.iter().map(|&r| r - 10).collect()
            } else {
                reps.clone()
            };
            let d = Design::new(&t, &items, &second, level2).unwrap();
            for v in [Version::V1, Version::V2] {
                let job = Job::new(3, 700, 1, &p).with_stream(v).on_sub(1);
                let a = design_bootstrap_values(&d, &mean, &job).unwrap();
                for threads in [2, 3] {
                    let b = design_bootstrap_values(&d, &mean, &Job { threads, ..job }).unwrap();
                    assert_eq!(a, b);
                }
                let tail = design_bootstrap_values(&d, &mean, &job.range(300, 400)).unwrap();
                assert_eq!(&a[600..], &tail[..]);
                // the values are the sums under the exposed weights, in grouped order
                let (sums, count) = design_bootstrap_sums(&d, &job).unwrap();
                for b in [0u64, 299, 699] {
                    let mut w = vec![0.0; n];
                    let items_b = d.weights(v, 3, 1, b, &mut w);
                    assert_eq!(items_b, count[b as usize]);
                    let mut want = [0.0f64; 2];
                    for &r in &d.order {
                        let r = r as usize;
                        if w[r] != 0.0 {
                            want[0] += w[r] * data[r * 2];
                            want[1] += w[r] * data[r * 2 + 1];
                        }
                    }
                    assert_eq!(sums[b as usize * 2].to_bits(), want[0].to_bits());
                    assert_eq!(sums[b as usize * 2 + 1].to_bits(), want[1].to_bits());
                    assert_eq!(a[b as usize * 2], want[0] / items_b);
                }
            }
        }
    }

    #[test]
    fn nested_weights_keep_each_drawn_item_whole() {
        let items: Vec<u32> = (0..40).map(|r| r / 4).collect();
        let reps: Vec<u32> = (0..40).map(|r| r % 4).collect();
        let data = vec![1.0; 40];
        let t = Table::new(&data, 40, 1).unwrap();
        let d = Design::new(&t, &items, &reps, Level2::Nested).unwrap();
        let mut w = vec![0.0; 40];
        for b in 0..200 {
            let n = d.weights(Version::V2, 9, 0, b, &mut w);
            assert_eq!(n, 10.0);
            // each item's weights sum to its draw count (an integer); the total is G
            let total: f64 = w.iter().sum();
            assert_eq!(total, 10.0);
            for i in 0..10 {
                let s: f64 = w[i * 4..i * 4 + 4].iter().sum();
                assert_eq!(s.fract(), 0.0);
            }
        }
    }

    #[test]
    fn one_prompt_is_the_cluster_bootstrap_of_items() {
        // crossed with P = 1: every cell weight is u_i, the cluster bootstrap's counts
        let n = 25;
        let data: Vec<f64> = (0..n * 2).map(|i| ((i * 31) % 7) as f64).collect();
        let t = Table::new(&data, n, 2).unwrap();
        let items: Vec<u32> = (0..n as u32).collect();
        let d = Design::new(&t, &items, &vec![0; n], Level2::Crossed).unwrap();
        let cl = Clusters::new(&t, &items).unwrap();
        let p = Progress::new();
        let job = Job::new(8, 300, 2, &p);
        assert_eq!(
            design_bootstrap_sums(&d, &job).unwrap(),
            cluster_bootstrap_sums(&cl, &job).unwrap()
        );
    }

    #[test]
    fn codes_are_checked() {
        let data = [1.0; 4];
        let t = Table::new(&data, 4, 1).unwrap();
        assert!(Design::new(&t, &[0, 0, 1], &[0, 1, 0], Level2::Nested).is_err());
        assert!(Design::new(&t, &[0, 0, 2, 2], &[0, 1, 0, 1], Level2::Nested).is_err());
        assert!(Design::new(&t, &[0, 0, 1, 1], &[0, 0, 0, 1], Level2::Nested).is_err());
        assert!(Design::new(&t, &[0, 0, 1, 1], &[0, 2, 0, 2], Level2::Crossed).is_err());
        assert!(Design::new(&t, &[0, 0, 1, 1], &[0, 1, 1, 0], Level2::Crossed).is_ok());
    }
}
