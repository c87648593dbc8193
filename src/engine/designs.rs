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
//! of row `r` (an item with one row draws nothing: `c_r = u_i`). A drawn item
//! contributes the mean of its drawn repeats, and the item count is `G` (a mean
//! is the mean over the drawn items of their repeats' mean: the item value of
//! `sigfast.samples`, with unequal repeats too).
//!
//! **Crossed** (Owen 2007's pigeonhole bootstrap): the second level draws
//! `P` prompt indices with `Bounded::new(P)` from the `TAG_LEVEL2` stream and
//! counts them (`v_p`); a cell's weight is `u_i · v_p` and the item count
//! `Σ_i u_i Σ_{cells of i} v_p` (exact integers).
//!
//! **Sums.** Column by column, `acc = 0.0`; for each item `i` in code order
//! with `u_i > 0`: `s = 0.0; for r in the item's rows (table order): s = s +
//! w_r * x_r` (a product, then a sum: never fused; a zero weight adds a zero,
//! which leaves `s` unchanged) with `w_r = c_r` (two-level) or `v_p` (crossed),
//! then `acc = acc + s / K_i` (two-level) or `acc = acc + u_i * s` (crossed).
//! The metric is scored with the item count. [`Design::weights`] exposes each
//! row's count (`c_r`, or `u_i · v_p`) so that a plain loop in the same order
//! checks the sums; the draws are only the streams above, so results are the
//! same bytes for any thread count (fixed blocks of [`super::par_blocks`]).

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

/// Draws of one resample: item counts (`u`, G), prompt counts (`v`, P,
/// crossed) or each grouped row's repeat count (`c`, two-level), and a
/// per-item scratch sum (`s`, width).
#[derive(Clone, Debug)]
pub struct Counts {
    u: Vec<u32>,
    v: Vec<u32>,
    c: Vec<u32>,
    s: Vec<f64>,
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

    /// Scratch for [`Design::draw`].
    #[must_use]
    pub fn scratch(&self) -> Counts {
        Counts {
            u: vec![0; self.n_items],
            v: vec![0; self.n_second],
            c: match self.level2 {
                Level2::Nested => vec![0; self.n_rows()],
                Level2::Crossed => Vec::new(),
            },
            s: vec![0.0; self.width],
        }
    }

    /// The draws of resample `b` of stream (`v`, `seed`, `sub`) into `c` (items;
    /// prompts, or each grouped row's repeat count) and the resample's item count.
    pub fn draw(&self, (v, seed, sub): (Version, u64, u64), b: u64, c: &mut Counts) -> f64 {
        draw_counts(v, seed, sub, b, TAG_BOOTSTRAP, self.n_items, &mut c.u);
        match self.level2 {
            Level2::Crossed => {
                draw_counts(v, seed, sub, b, TAG_LEVEL2, self.n_second, &mut c.v);
                let mut items = 0u64;
                for (i, &ui) in c.u.iter().enumerate() {
                    if ui == 0 {
                        continue;
                    }
                    let cells: u64 = self.prompt[self.offsets[i]..self.offsets[i + 1]]
                        .iter()
                        .map(|&p| u64::from(c.v[p as usize]))
                        .sum();
                    items += u64::from(ui) * cells;
                }
                items as f64
            }
            Level2::Nested => {
                let mut stream = crate::simd::stream_new(v, seed, TAG_LEVEL2, b, sub);
                for (i, &ui) in c.u.iter().enumerate() {
                    let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
                    let k = hi - lo;
                    let rows = &mut c.c[lo..hi];
                    if k == 1 {
                        rows[0] = ui;
                        continue;
                    }
                    rows.fill(0);
                    if ui == 0 {
                        continue;
                    }
                    Bounded::new(k as u64).for_each(&mut stream, ui as usize * k, |j| rows[j] += 1);
                }
                self.n_items as f64
            }
        }
    }

    /// Each row's count in resample `b` (in the caller's row order): the
    /// repeat's draws (two-level: every copy of its item counted; an item with
    /// one row, the item's count) or `u_i · v_p` (crossed); and the item count.
    pub fn weights(&self, v: Version, seed: u64, sub: u64, b: u64, out: &mut [f64]) -> f64 {
        let mut c = self.scratch();
        let items = self.draw((v, seed, sub), b, &mut c);
        for (k, &r) in self.order.iter().enumerate() {
            out[r as usize] = match self.level2 {
                Level2::Nested => f64::from(c.c[k]),
                Level2::Crossed => {
                    let i = self.item_of(k);
                    f64::from(c.u[i]) * f64::from(c.v[self.prompt[k] as usize])
                }
            };
        }
        items
    }

    fn item_of(&self, k: usize) -> usize {
        self.offsets.partition_point(|&o| o <= k) - 1
    }

    /// Summed statistics (`width` values) of the drawn resample in `c`, in
    /// grouped order (see the module documentation).
    pub fn resample_sums(&self, c: &mut Counts, out: &mut [f64]) {
        match self.width {
            1 => self.sums_fixed::<1>(c, out),
            2 => self.sums_fixed::<2>(c, out),
            3 => self.sums_fixed::<3>(c, out),
            4 => self.sums_fixed::<4>(c, out),
            _ => self.sums_any(c, out),
        }
    }

    /// [`Design::resample_sums`] for `W` columns, the item's sums kept in registers.
    fn sums_fixed<const W: usize>(&self, c: &Counts, out: &mut [f64]) {
        let mut acc = [0.0f64; W];
        let nested = self.level2 == Level2::Nested;
        for (i, &ui) in c.u.iter().enumerate() {
            if ui == 0 {
                continue;
            }
            let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
            let mut s = [0.0f64; W];
            for k in lo..hi {
                let wk = if nested {
                    f64::from(c.c[k])
                } else {
                    f64::from(c.v[self.prompt[k] as usize])
                };
                let x = &self.data[k * W..(k + 1) * W];
                for j in 0..W {
                    s[j] += wk * x[j];
                }
            }
            if nested {
                let kf = (hi - lo) as f64;
                for j in 0..W {
                    acc[j] += s[j] / kf;
                }
            } else {
                let uf = f64::from(ui);
                for j in 0..W {
                    acc[j] += uf * s[j];
                }
            }
        }
        out[..W].copy_from_slice(&acc);
    }

    fn sums_any(&self, c: &mut Counts, out: &mut [f64]) {
        out.fill(0.0);
        let width = self.width;
        let s = &mut c.s;
        for (i, &ui) in c.u.iter().enumerate() {
            if ui == 0 {
                continue;
            }
            let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
            s.fill(0.0);
            for k in lo..hi {
                let wk = match self.level2 {
                    Level2::Nested => f64::from(c.c[k]),
                    Level2::Crossed => f64::from(c.v[self.prompt[k] as usize]),
                };
                for (a, &xv) in s.iter_mut().zip(&self.data[k * width..(k + 1) * width]) {
                    *a += wk * xv;
                }
            }
            let (f, nested) = match self.level2 {
                Level2::Nested => ((hi - lo) as f64, true),
                Level2::Crossed => (f64::from(ui), false),
            };
            for (o, &a) in out.iter_mut().zip(s.iter()) {
                *o += if nested { a / f } else { f * a };
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
        let mut g = Group::new(d);
        each_resample(
            d,
            job,
            first,
            chunk.len() / systems,
            &mut g,
            |r, sums, nf| {
                for (s, o) in chunk[r * systems..(r + 1) * systems].iter_mut().enumerate() {
                    *o = metric.score(&sums[s * k..(s + 1) * k], nf);
                }
            },
        );
    })
}

/// Summed statistics of the job's resamples of the design (`count × width`)
/// and each resample's item count (`count`).
pub fn design_bootstrap_sums(d: &Design, job: &Job<'_>) -> Result<(Vec<f64>, Vec<f64>)> {
    let wd = d.width;
    let out = par_blocks(job, wd + 1, |first, chunk| {
        let mut g = Group::new(d);
        each_resample(
            d,
            job,
            first,
            chunk.len() / (wd + 1),
            &mut g,
            |r, sums, nf| {
                let row = &mut chunk[r * (wd + 1)..(r + 1) * (wd + 1)];
                row[..wd].copy_from_slice(sums);
                row[wd] = nf;
            },
        );
    })?;
    let mut sums = Vec::with_capacity(job.count * wd);
    let mut items = Vec::with_capacity(job.count);
    for row in out.chunks_exact(wd + 1) {
        sums.extend_from_slice(&row[..wd]);
        items.push(row[wd]);
    }
    Ok((sums, items))
}

/// Resamples summed together: the crossed scheme reads each item's cells once
/// for [`GROUP`] resamples (the table is read once per group, not once per
/// resample), each resample's sums in its own order (the same bits as one at
/// a time).
const GROUP: usize = 16;

struct Group {
    counts: Vec<Counts>,
    items: Vec<f64>,
    sums: Vec<f64>,
}

impl Group {
    fn new(d: &Design) -> Self {
        Group {
            counts: (0..GROUP).map(|_| d.scratch()).collect(),
            items: vec![0.0; GROUP],
            sums: vec![0.0; GROUP * d.width],
        }
    }
}

/// `f(r, sums, items)` for resamples `first .. first + count` of the job, in order.
fn each_resample(
    d: &Design,
    job: &Job<'_>,
    first: u64,
    count: usize,
    g: &mut Group,
    mut f: impl FnMut(usize, &[f64], f64),
) {
    let w = d.width;
    let mut r0 = 0;
    while r0 < count {
        let n = GROUP.min(count - r0);
        for k in 0..n {
            let b = first + (r0 + k) as u64;
            g.items[k] = d.draw((job.stream, job.seed, job.sub), b, &mut g.counts[k]);
        }
        match (d.level2, w) {
            (Level2::Crossed, 1) => d.crossed_group::<1>(&g.counts[..n], &mut g.sums),
            (Level2::Crossed, 2) => d.crossed_group::<2>(&g.counts[..n], &mut g.sums),
            (Level2::Crossed, 3) => d.crossed_group::<3>(&g.counts[..n], &mut g.sums),
            (Level2::Crossed, 4) => d.crossed_group::<4>(&g.counts[..n], &mut g.sums),
            _ => {
                for k in 0..n {
                    d.resample_sums(&mut g.counts[k], &mut g.sums[k * w..(k + 1) * w]);
                }
            }
        }
        for k in 0..n {
            f(r0 + k, &g.sums[k * w..(k + 1) * w], g.items[k]);
        }
        r0 += n;
    }
}

impl Design {
    /// The crossed sums of the resamples drawn in `cs` (`W` columns each, into
    /// `out`), item by item: each resample sums exactly as
    /// [`Design::resample_sums`] does.
    fn crossed_group<const W: usize>(&self, cs: &[Counts], out: &mut [f64]) {
        let out = &mut out[..cs.len() * W];
        out.fill(0.0);
        for i in 0..self.n_items {
            let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
            let x = &self.data[lo * W..hi * W];
            let prompts = &self.prompt[lo..hi];
            for (c, acc) in cs.iter().zip(out.chunks_exact_mut(W)) {
                let ui = c.u[i];
                if ui == 0 {
                    continue;
                }
                let mut s = [0.0f64; W];
                for (xr, &p) in x.chunks_exact(W).zip(prompts) {
                    let vf = f64::from(c.v[p as usize]);
                    for j in 0..W {
                        s[j] += vf * xr[j];
                    }
                }
                let uf = f64::from(ui);
                for j in 0..W {
                    acc[j] += uf * s[j];
                }
            }
        }
    }
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
                // the values are per-item sums of the exposed counts, in grouped order
                let (sums, count) = design_bootstrap_sums(&d, &job).unwrap();
                for b in [0u64, 299, 699] {
                    let mut w = vec![0.0; n];
                    let items_b = d.weights(v, 3, 1, b, &mut w);
                    assert_eq!(items_b, count[b as usize]);
                    let mut c = d.scratch();
                    d.draw((v, 3, 1), b, &mut c);
                    let mut want = [0.0f64; 2];
                    for i in 0..d.n_items() {
                        if c.u[i] == 0 {
                            continue;
                        }
                        let rows = &d.order[d.offsets[i]..d.offsets[i + 1]];
                        let mut s = [0.0f64; 2];
                        for &r in rows {
                            let r = r as usize;
                            let wr = if level2 == Level2::Crossed {
                                w[r] / f64::from(c.u[i])
                            } else {
                                w[r]
                            };
                            s[0] += wr * data[r * 2];
                            s[1] += wr * data[r * 2 + 1];
                        }
                        for j in 0..2 {
                            want[j] += if level2 == Level2::Crossed {
                                f64::from(c.u[i]) * s[j]
                            } else {
                                s[j] / rows.len() as f64
                            };
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
            // each item's repeat counts sum to 4 per copy of the item drawn; the total is 4 G
            assert_eq!(w.iter().sum::<f64>(), 40.0);
            for i in 0..10 {
                assert_eq!(w[i * 4..i * 4 + 4].iter().sum::<f64>() % 4.0, 0.0);
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
    fn every_width_sums_each_column_alike() {
        // 5 columns (the general loop) against each column alone (the fixed-width loop)
        let items: Vec<u32> = (0..24).map(|r| r / 3).collect();
        let second: Vec<u32> = (0..24).map(|r| r % 3).collect();
        let data = lcg(24 * 5, 7);
        let t = Table::new(&data, 24, 5).unwrap();
        let p = Progress::new();
        let job = Job::new(2, 50, 1, &p);
        for level2 in [Level2::Nested, Level2::Crossed] {
            let d = Design::new(&t, &items, &second, level2).unwrap();
            let (all, _) = design_bootstrap_sums(&d, &job).unwrap();
            for col in 0..5 {
                let one: Vec<f64> = (0..24).map(|r| data[r * 5 + col]).collect();
                let t1 = Table::new(&one, 24, 1).unwrap();
                let d1 = Design::new(&t1, &items, &second, level2).unwrap();
                let (s1, _) = design_bootstrap_sums(&d1, &job).unwrap();
                for b in 0..50 {
                    assert_eq!(all[b * 5 + col].to_bits(), s1[b].to_bits());
                }
            }
        }
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
