//! Metric meta-evaluation: correlations of metric scores with human scores
//! over a systems × items table, their bootstrap intervals (BOOT-SYSTEMS,
//! BOOT-INPUTS, BOOT-BOTH) and permutation tests of "metric A correlates
//! better than metric B" (PERM-SYSTEMS, PERM-INPUTS, PERM-BOTH) after
//! Deutsch, Dror & Roth (2021, TACL).
//!
//! Scores are `S × N` row-major (system `i`, item `j`); human scores may be
//! NaN (not scored): only cells with a human score are used, for every level
//! and every metric, and resampling keeps that mask (a resampled cell is
//! missing exactly when its original cell is).
//!
//! Levels ([`Level`]): `System` (mean over a system's scored items, then one
//! correlation across systems), `Global` (all scored cells flattened), `Item`
//! (per item across systems, then the mean over items whose correlation is
//! defined) and `SystemGrouped` (per system across items, then the mean).
//! With tie calibration (`TieCalibratedAccuracy`) the grouped levels pick one
//! ε for all groups, maximising the mean of the groups' acc_eq (WMT23).
//!
//! # Random streams
//! Bootstrap resample `b` draws its systems from
//! `Stream::new(version, seed, TAG_META_BOOT, b, 0)` and its items from sub-stream 1
//! (so BOOT-BOTH draws the same systems as BOOT-SYSTEMS); permutation
//! resample `b` takes its swap bits from `Stream::new(version, seed, TAG_META_PERM, b,
//! 0)`, 64 per 64-bit word, low bit first, one per system, item or cell. Every pair
//! of metrics sees the same swap masks, so a pair's p-value does not depend on
//! which other metrics are tested. Resamples run in fixed blocks; counts are
//! integers, so results are the same bytes for any thread count.

use std::sync::atomic::Ordering;

use crate::engine::{par_blocks, Draws, Job};
use crate::inference::Alternative;
use crate::itemstat::{tie_calibrated, Group, ItemStatistic, Scratch};
use crate::rng::{Bounded, Version, TAG_META_BOOT, TAG_META_PERM};
use crate::simd::{dot, dotg, GROUP};
use crate::{Error, Result};

/// Where a correlation is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    System,
    Global,
    Item,
    SystemGrouped,
}

impl Level {
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "system" => Ok(Level::System),
            "global" | "segment" | "none" => Ok(Level::Global),
            "item" | "input" => Ok(Level::Item),
            "system_grouped" | "sys" => Ok(Level::SystemGrouped),
            _ => Err(Error::input(format!(
                "unknown level {s:?}; choose system, global, item or system_grouped"
            ))),
        }
    }
}

/// What a resample draws or swaps: systems, inputs (items), or both.
///
/// For the permutation tests, `Both` swaps every (system, item) cell on its
/// own bit (PERM-BOTH as Deutsch, Dror & Roth's code, sacrerouge, runs it);
/// `RowsThenColumns` swaps whole systems, then whole items, as nlpstats'
/// `permute(..., "both")` does, so cell (i, j) is swapped when exactly one
/// of system i's and item j's bits is set. The bootstrap has no
/// `RowsThenColumns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    Systems,
    Inputs,
    Both,
    RowsThenColumns,
}

impl Scheme {
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "systems" => Ok(Scheme::Systems),
            "inputs" | "items" => Ok(Scheme::Inputs),
            "both" | "both-cells" => Ok(Scheme::Both),
            "both-rowcol" | "rows-then-columns" => Ok(Scheme::RowsThenColumns),
            _ => Err(Error::input(format!(
                "unknown resampling {s:?}; choose systems, inputs, both or both-rowcol"
            ))),
        }
    }
}

/// Human scores and `k` metrics' scores on one `S × N` table.
pub struct MetaData<'a> {
    pub s: usize,
    pub n: usize,
    pub k: usize,
    human: &'a [f64],
    /// metric scores with unscored cells set to 0 (k × S × N)
    metrics0: Vec<f64>,
    /// human scores with unscored cells set to 0
    human0: Vec<f64>,
    /// 1.0 where scored, else 0.0
    valid_f: Vec<f64>,
    valid: Vec<bool>,
    /// per item, S × S signs of human differences (item-level Kendall τ-b;
    /// empty above [`SIGN_TABLE_LIMIT`] bytes, where the general path runs)
    hsign: Vec<i8>,
    /// System level: a resample with a system that has no scored item leaves
    /// that system out (true) or is undefined, NaN (false).
    pub drop_empty_systems: bool,
}

/// Largest table of precomputed human pair signs (bytes) a fast path builds.
pub const SIGN_TABLE_LIMIT: usize = 1 << 28;

/// A vector of `len` copies of `v`, or an input error when the memory
/// cannot be had (never an abort).
fn try_vec<T: Clone>(len: usize, v: T, what: &str) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| {
        Error::input(format!(
            "cannot allocate {len} values for the {what}; the table is too large for this machine's memory"
        ))
    })?;
    out.resize(len, v);
    Ok(out)
}

/// Per-worker buffers.
#[derive(Default)]
struct Work {
    sc: Scratch,
    gx: Vec<f64>,
    gy: Vec<f64>,
    offs: Vec<(usize, usize, f64)>,
    sx: Vec<f64>,
    sy: Vec<f64>,
    sw: Vec<f64>,
    rows_count: Vec<u32>,
    px: Vec<f64>,
    py: Vec<f64>,
    wf: Vec<f64>,
    ridx: Vec<u32>,
    cnt: Vec<u32>,
    cache_id: u64,
}

/// A resample: the list of systems (with repeats) and each item's multiplicity.
struct Resample<'r> {
    rows: &'r [usize],
    w: &'r [u32],
    /// Nonzero: resamples with the same id share the human side (cached in `Work`).
    id: u64,
}

impl<'a> MetaData<'a> {
    /// `human`: S × N (NaN = not scored); `metrics`: k × S × N, finite where
    /// the human score exists.
    pub fn new(human: &'a [f64], metrics: &'a [f64], s: usize, n: usize) -> Result<Self> {
        if s == 0 || n == 0 {
            return Err(Error::input("no systems or no items"));
        }
        if human.len() != s * n {
            return Err(Error::input(format!(
                "human scores hold {} values, expected {s} systems x {n} items",
                human.len()
            )));
        }
        if metrics.is_empty() || metrics.len() % (s * n) != 0 {
            return Err(Error::input(format!(
                "metric scores hold {} values, not a multiple of {s} systems x {n} items",
                metrics.len()
            )));
        }
        if s as u64 > 1 << 32 || n as u64 > 1 << 32 {
            return Err(Error::input("more than 2^32 systems or items"));
        }
        let k = metrics.len() / (s * n);
        if let Some(p) = human.iter().position(|v| v.is_infinite()) {
            return Err(Error::input(format!(
                "human score of system {}, item {} is infinite",
                p / n + 1,
                p % n + 1
            )));
        }
        let valid: Vec<bool> = human.iter().map(|v| !v.is_nan()).collect();
        if !valid.iter().any(|&v| v) {
            return Err(Error::input("no human scores: every cell is missing"));
        }
        for m in 0..k {
            let mm = &metrics[m * s * n..(m + 1) * s * n];
            if let Some(p) = (0..s * n).find(|&p| valid[p] && !mm[p].is_finite()) {
                return Err(Error::input(format!(
                    "metric {} has no finite score ({}) for system {}, item {}, which has a human score",
                    m + 1,
                    mm[p],
                    p / n + 1,
                    p % n + 1
                )));
            }
        }
        let mut metrics0 = try_vec(metrics.len(), 0.0f64, "metric scores")?;
        for (p, (o, &v)) in metrics0.iter_mut().zip(metrics).enumerate() {
            if valid[p % (s * n)] {
                *o = v;
            }
        }
        let mut human0 = try_vec(s * n, 0.0f64, "human scores")?;
        for ((o, &v), &ok) in human0.iter_mut().zip(human).zip(&valid) {
            if ok {
                *o = v;
            }
        }
        let mut valid_f = try_vec(s * n, 0.0f64, "score mask")?;
        for (o, &ok) in valid_f.iter_mut().zip(&valid) {
            *o = f64::from(u8::from(ok));
        }
        // the sign table is an optimisation: skipped when large or unavailable
        let signs = n
            .checked_mul(s * s)
            .filter(|&b| s <= 256 && b <= SIGN_TABLE_LIMIT);
        let mut hsign = signs
            .and_then(|len| try_vec(len, 0i8, "sign table").ok())
            .unwrap_or_default();
        if !hsign.is_empty() {
            for j in 0..n {
                for a in 0..s {
                    for b in 0..s {
                        let (ha, hb) = (human[a * n + j], human[b * n + j]);
                        hsign[(j * s + a) * s + b] = i8::from(ha > hb) - i8::from(ha < hb);
                    }
                }
            }
        }
        Ok(MetaData {
            s,
            n,
            k,
            human,
            metrics0,
            human0,
            valid_f,
            valid,
            hsign,
            drop_empty_systems: true,
        })
    }

    /// Metric `m` with unscored cells 0.
    fn metric(&self, m: usize) -> &[f64] {
        &self.metrics0[m * self.s * self.n..(m + 1) * self.s * self.n]
    }

    /// Metric `m`'s scores z-normalised over the scored cells (population
    /// standard deviation, as `scipy.stats.zscore`); a constant metric is
    /// only centred.
    #[must_use]
    pub fn standardized(&self, m: usize) -> Vec<f64> {
        let x = self.metric(m);
        // an exact power-of-two scale keeps scores near the ends of the float
        // range (1e±300) from overflowing or underflowing in the variance
        let f = crate::itemstat::pow2_scale(x);
        let cnt = self.valid.iter().filter(|&&v| v).count() as f64;
        let mean = x
            .iter()
            .zip(&self.valid)
            .filter(|(_, &v)| v)
            .map(|(a, _)| a * f)
            .sum::<f64>()
            / cnt;
        let var = x
            .iter()
            .zip(&self.valid)
            .filter(|(_, &v)| v)
            .map(|(a, _)| (a * f - mean) * (a * f - mean))
            .sum::<f64>()
            / cnt;
        let sd = if var > 0.0 { var.sqrt() } else { 1.0 };
        x.iter()
            .zip(&self.valid)
            .map(|(a, &v)| if v { (a * f - mean) / sd } else { 0.0 })
            .collect()
    }

    /// The level correlation of metric `m` with the human scores.
    #[must_use]
    pub fn observed(&self, level: Level, stat: &ItemStatistic, m: usize) -> f64 {
        self.value_of(level, stat, self.metric(m))
    }

    /// The level correlation of any `S × N` metric table.
    #[must_use]
    pub fn value_of(&self, level: Level, stat: &ItemStatistic, x: &[f64]) -> f64 {
        let rows: Vec<usize> = (0..self.s).collect();
        let w = vec![1u32; self.n];
        let rs = Resample {
            rows: &rows,
            w: &w,
            id: 0,
        };
        self.level_value(level, stat, x, &rs, &mut Work::default())
    }

    /// Per-group parts ([`ItemStatistic::parts`]; items for `Item`, systems
    /// for `SystemGrouped`), for the fast paths where only whole groups are
    /// resampled or swapped.
    fn group_values(&self, level: Level, stat: &ItemStatistic, x: &[f64]) -> Vec<(f64, f64)> {
        let mut wk = Work::default();
        match level {
            Level::Item => (0..self.n)
                .map(|j| {
                    self.column(x, j, &mut wk);
                    stat.parts(&wk.gx, &wk.gy, &mut wk.sc)
                })
                .collect(),
            Level::SystemGrouped => (0..self.s)
                .map(|i| {
                    self.row(x, i, &mut wk);
                    stat.parts(&wk.gx, &wk.gy, &mut wk.sc)
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn column(&self, x: &[f64], j: usize, wk: &mut Work) {
        wk.gx.clear();
        wk.gy.clear();
        for i in 0..self.s {
            let p = i * self.n + j;
            if self.valid[p] {
                wk.gx.push(x[p]);
                wk.gy.push(self.human[p]);
            }
        }
    }

    fn row(&self, x: &[f64], i: usize, wk: &mut Work) {
        wk.gx.clear();
        wk.gy.clear();
        for j in 0..self.n {
            let p = i * self.n + j;
            if self.valid[p] {
                wk.gx.push(x[p]);
                wk.gy.push(self.human[p]);
            }
        }
    }

    /// τ-b across the resampled systems within item `j`, from the
    /// precomputed human signs: Σ sign(Δx)·sign(Δh) over pairs, ties counted
    /// on the way (scipy's formula; repeated systems tie in both).
    /// `wk.cnt` holds each system's multiplicity in the resample.
    fn item_kendall_b(&self, x: &[f64], j: usize, wk: &mut Work) -> f64 {
        // distinct scored systems with their multiplicities: pairs of copies
        // of one system tie in both, pairs of two systems count c_a · c_b times
        let (s, n) = (self.s, self.n);
        wk.ridx.clear();
        wk.gx.clear();
        wk.gy.clear();
        let mut total = 0i64;
        let mut self_pairs = 0i64;
        for r in 0..s {
            let c = wk.cnt[r];
            if c > 0 && self.valid[r * n + j] {
                wk.ridx.push(r as u32);
                wk.gx.push(x[r * n + j]);
                wk.gy.push(f64::from(c));
                total += i64::from(c);
                self_pairs += i64::from(c) * (i64::from(c) - 1) / 2;
            }
        }
        let m = wk.gx.len();
        if total < 2 {
            return f64::NAN;
        }
        let hs = &self.hsign[j * s * s..(j + 1) * s * s];
        let (mut cmd, mut xt, mut yt) = (0i64, self_pairs, self_pairs);
        for a in 0..m {
            let (xa, ca) = (wk.gx[a], wk.gy[a] as i64);
            let ra = wk.ridx[a] as usize;
            let row = &hs[ra * s..(ra + 1) * s];
            let (mut c1, mut x1, mut y1) = (0i64, 0i64, 0i64);
            for ((&xb, &cb), &rb) in wk.gx[a + 1..m]
                .iter()
                .zip(&wk.gy[a + 1..m])
                .zip(&wk.ridx[a + 1..m])
            {
                let w = cb as i64;
                let dx = i64::from(xa > xb) - i64::from(xa < xb);
                let dh = i64::from(row[rb as usize]);
                c1 += w * (dx * dh);
                x1 += w & -i64::from(dx == 0);
                y1 += w & -i64::from(dh == 0);
            }
            cmd += ca * c1;
            xt += ca * x1;
            yt += ca * y1;
        }
        let _ = m;
        let tot = total * (total - 1) / 2;
        if xt == tot || yt == tot {
            return f64::NAN;
        }
        (cmd as f64 / ((tot - xt) as f64).sqrt() / ((tot - yt) as f64).sqrt()).clamp(-1.0, 1.0)
    }

    fn level_value(
        &self,
        level: Level,
        stat: &ItemStatistic,
        x: &[f64],
        rs: &Resample<'_>,
        wk: &mut Work,
    ) -> f64 {
        let (s, n) = (self.s, self.n);
        let calibrated = *stat == ItemStatistic::TieCalibratedAccuracy;
        match level {
            Level::System => {
                // per distinct system: weighted means over its scored items,
                // as dot products with the item weights (unscored cells are 0)
                if rs.id == 0 || wk.cache_id != rs.id {
                    wk.wf.clear();
                    wk.wf.extend(rs.w.iter().map(|&c| f64::from(c)));
                    wk.rows_count.clear();
                    wk.rows_count.resize(s, 0);
                    for &r in rs.rows {
                        wk.rows_count[r] += 1;
                    }
                    wk.sy.clear();
                    wk.sy.resize(s, 0.0);
                    wk.sw.clear();
                    wk.sw.resize(s, 0.0);
                    for i in 0..s {
                        if wk.rows_count[i] > 0 {
                            wk.sy[i] = dot(&self.human0[i * n..(i + 1) * n], &wk.wf);
                            wk.sw[i] = dot(&self.valid_f[i * n..(i + 1) * n], &wk.wf);
                        }
                    }
                    wk.cache_id = rs.id;
                }
                wk.sx.clear();
                wk.sx.resize(s, 0.0);
                for i in 0..s {
                    if wk.rows_count[i] > 0 && wk.sw[i] > 0.0 {
                        wk.sx[i] = dot(&x[i * n..(i + 1) * n], &wk.wf);
                    }
                }
                wk.gx.clear();
                wk.gy.clear();
                for &r in rs.rows {
                    if wk.sw[r] > 0.0 {
                        wk.gx.push(wk.sx[r] / wk.sw[r]);
                        wk.gy.push(wk.sy[r] / wk.sw[r]);
                    } else if !self.drop_empty_systems {
                        return f64::NAN;
                    }
                }
                stat.eval(&wk.gx, &wk.gy, &mut wk.sc)
            }
            Level::Global => {
                wk.gx.clear();
                wk.gy.clear();
                for &r in rs.rows {
                    for j in 0..n {
                        let p = r * n + j;
                        if self.valid[p] {
                            for _ in 0..rs.w[j] {
                                wk.gx.push(x[p]);
                                wk.gy.push(self.human[p]);
                            }
                        }
                    }
                }
                stat.eval(&wk.gx, &wk.gy, &mut wk.sc)
            }
            Level::Item | Level::SystemGrouped => {
                let by_item = level == Level::Item;
                // groups with their multiplicity
                wk.gx.clear();
                wk.gy.clear();
                wk.offs.clear();
                let (mut acc, mut wsum) = (0.0, 0.0);
                let mut eval_group = |wk: &mut Work, weight: f64| {
                    let start = wk.offs.last().map_or(0, |o| o.1);
                    if calibrated {
                        wk.offs.push((start, wk.gx.len(), weight));
                    } else {
                        let (num, den) = stat.parts(&wk.gx[start..], &wk.gy[start..], &mut wk.sc);
                        acc += weight * num;
                        wsum += weight * den;
                        wk.gx.truncate(start);
                        wk.gy.truncate(start);
                    }
                };
                if by_item && *stat == ItemStatistic::KendallB && !self.hsign.is_empty() {
                    wk.cnt.clear();
                    wk.cnt.resize(s, 0);
                    for &r in rs.rows {
                        wk.cnt[r] += 1;
                    }
                    for j in 0..n {
                        if rs.w[j] == 0 {
                            continue;
                        }
                        let v = self.item_kendall_b(x, j, wk);
                        if !v.is_nan() {
                            acc += f64::from(rs.w[j]) * v;
                            wsum += f64::from(rs.w[j]);
                        }
                    }
                } else if by_item {
                    for j in 0..n {
                        if rs.w[j] == 0 {
                            continue;
                        }
                        for &r in rs.rows {
                            let p = r * n + j;
                            if self.valid[p] {
                                wk.gx.push(x[p]);
                                wk.gy.push(self.human[p]);
                            }
                        }
                        eval_group(wk, f64::from(rs.w[j]));
                    }
                } else {
                    wk.rows_count.clear();
                    wk.rows_count.resize(s, 0);
                    for &r in rs.rows {
                        wk.rows_count[r] += 1;
                    }
                    for i in 0..s {
                        let c = wk.rows_count[i];
                        if c == 0 {
                            continue;
                        }
                        for j in 0..n {
                            let p = i * n + j;
                            if self.valid[p] {
                                for _ in 0..rs.w[j] {
                                    wk.gx.push(x[p]);
                                    wk.gy.push(self.human[p]);
                                }
                            }
                        }
                        eval_group(wk, f64::from(c));
                    }
                }
                if calibrated {
                    let groups: Vec<Group<'_>> = wk
                        .offs
                        .iter()
                        .map(|&(a, b, w)| Group {
                            x: &wk.gx[a..b],
                            y: &wk.gy[a..b],
                            weight: w,
                        })
                        .collect();
                    tie_calibrated(&groups, &mut wk.sc).0
                } else if wsum > 0.0 {
                    acc / wsum
                } else {
                    f64::NAN
                }
            }
        }
    }
}

/// Σ w(g)·num_g / Σ w(g)·den_g over the groups' parts `v[g]` (NaN when the
/// weights sum to 0: no group is defined).
fn mean_defined(v: &[(f64, f64)], w: impl Fn(usize) -> f64) -> f64 {
    let (mut a, mut c) = (0.0, 0.0);
    for (g, &(num, den)) in v.iter().enumerate() {
        let wg = w(g);
        if wg > 0.0 {
            a += wg * num;
            c += wg * den;
        }
    }
    if c > 0.0 {
        a / c
    } else {
        f64::NAN
    }
}

/// The engine's draws under the meta-evaluation's tag `tag` (sub-stream 0).
fn draws(v: Version, seed: u64, tag: u64) -> Draws {
    Draws {
        stream: v,
        seed,
        tag,
        sub: 0,
    }
}

/// The systems of bootstrap resample `b`, in draw order (sub-stream 0).
fn draw_rows(v: Version, seed: u64, b: u64, s: usize, rows: &mut Vec<usize>) {
    rows.clear();
    draws(v, seed, TAG_META_BOOT).indices(b, &Bounded::new(s as u64), s, |i| rows.push(i));
}

/// The item counts of bootstrap resample `b` (sub-stream 1).
fn draw_items(v: Version, seed: u64, b: u64, n: usize, w: &mut Vec<u32>) {
    w.clear();
    w.resize(n, 0);
    draws(v, seed, TAG_META_BOOT)
        .on_sub(1)
        .counts(b, &Bounded::new(n as u64), n, w);
}

/// Whether the precomputed per-group values answer this level and scheme.
fn group_fast_path(level: Level, stat: &ItemStatistic, scheme: Scheme) -> bool {
    *stat != ItemStatistic::TieCalibratedAccuracy
        && matches!(
            (level, scheme),
            (Level::Item, Scheme::Inputs) | (Level::SystemGrouped, Scheme::Systems)
        )
}

/// Level correlations of every metric on the job's bootstrap resamples:
/// `count × k` values, resample-major (NaN where the correlation is undefined
/// on a resample). Draws come from `(seed, TAG_META_BOOT, b, 0 | 1)`; the
/// job's `sub` is not used.
pub fn bootstrap(
    d: &MetaData<'_>,
    level: Level,
    stat: &ItemStatistic,
    scheme: Scheme,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let (seed, v) = (job.seed, job.stream);
    let (s, n, k) = (d.s, d.n, d.k);
    if scheme == Scheme::RowsThenColumns {
        return Err(Error::input(
            "the bootstrap resamples systems, inputs or both; rows-then-columns is a permutation scheme",
        ));
    }
    let fast = group_fast_path(level, stat, scheme);
    let groups: Vec<Vec<(f64, f64)>> = if fast {
        (0..k)
            .map(|m| d.group_values(level, stat, d.metric(m)))
            .collect()
    } else {
        Vec::new()
    };
    if level == Level::System {
        return system_bootstrap(d, stat, scheme, job);
    }
    par_blocks(job, k, |first, chunk| {
        let mut wk = Work::default();
        let mut rows: Vec<usize> = (0..s).collect();
        let mut w = vec![1u32; n];
        let mut cnt = vec![0u32; s];
        for (r, out) in chunk.chunks_mut(k).enumerate() {
            let b = first + r as u64;
            if scheme != Scheme::Inputs {
                draw_rows(v, seed, b, s, &mut rows);
            }
            if scheme != Scheme::Systems {
                draw_items(v, seed, b, n, &mut w);
            }
            if fast {
                if level == Level::SystemGrouped {
                    cnt.iter_mut().for_each(|c| *c = 0);
                    for &i in &rows {
                        cnt[i] += 1;
                    }
                }
                for (m, o) in out.iter_mut().enumerate() {
                    *o = if level == Level::Item {
                        mean_defined(&groups[m], |j| f64::from(w[j]))
                    } else {
                        mean_defined(&groups[m], |i| f64::from(cnt[i]))
                    };
                }
                continue;
            }
            let rs = Resample {
                rows: &rows,
                w: &w,
                id: b + 1,
            };
            for (m, o) in out.iter_mut().enumerate() {
                *o = d.level_value(level, stat, d.metric(m), &rs, &mut wk);
            }
        }
    })
}

/// System-level correlations on bootstrap resamples, [`GROUP`] resamples at
/// a time: each system's row of scores is read once for all their item
/// weights ([`dotg`]). Every value is the one `level_value` computes
/// for the resample alone (the same dot products in the same order), so the
/// same bytes.
fn system_bootstrap(
    d: &MetaData<'_>,
    stat: &ItemStatistic,
    scheme: Scheme,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    let (s, n, k) = (d.s, d.n, d.k);
    let (seed, v) = (job.seed, job.stream);
    par_blocks(job, k, |first, chunk| {
        let len = chunk.len() / k;
        let mut sc = Scratch::default();
        let mut rows: Vec<Vec<usize>> = vec![(0..s).collect(); GROUP];
        let mut w: Vec<Vec<u32>> = vec![vec![1u32; n]; GROUP];
        let mut wf: Vec<Vec<f64>> = vec![vec![1.0f64; n]; GROUP];
        let mut cnt = vec![[0u32; GROUP]; s];
        let mut sy = vec![[0.0f64; GROUP]; s];
        let mut sw = vec![[0.0f64; GROUP]; s];
        let mut sx = vec![[0.0f64; GROUP]; k * s];
        let (mut gx, mut gy) = (Vec::with_capacity(s), Vec::with_capacity(s));
        for g in (0..len).step_by(GROUP) {
            let gl = GROUP.min(len - g);
            cnt.iter_mut().for_each(|c| *c = [0; GROUP]);
            for q in 0..gl {
                let b = first + (g + q) as u64;
                if scheme != Scheme::Inputs {
                    draw_rows(v, seed, b, s, &mut rows[q]);
                }
                if scheme != Scheme::Systems {
                    draw_items(v, seed, b, n, &mut w[q]);
                    for (f, &c) in wf[q].iter_mut().zip(&w[q]) {
                        *f = f64::from(c);
                    }
                }
                for &r in &rows[q] {
                    cnt[r][q] += 1;
                }
            }
            let ws: [&[f64]; GROUP] = std::array::from_fn(|q| &wf[q][..]);
            for i in 0..s {
                if cnt[i].iter().all(|&c| c == 0) {
                    continue;
                }
                sy[i] = dotg(&d.human0[i * n..(i + 1) * n], ws);
                sw[i] = dotg(&d.valid_f[i * n..(i + 1) * n], ws);
                for m in 0..k {
                    sx[m * s + i] = dotg(&d.metric(m)[i * n..(i + 1) * n], ws);
                }
            }
            for q in 0..gl {
                let out = &mut chunk[(g + q) * k..(g + q + 1) * k];
                for (m, o) in out.iter_mut().enumerate() {
                    gx.clear();
                    gy.clear();
                    let mut empty = false;
                    for &r in &rows[q] {
                        let c = sw[r][q];
                        if c > 0.0 {
                            gx.push(sx[m * s + r][q] / c);
                            gy.push(sy[r][q] / c);
                        } else {
                            empty = true;
                        }
                    }
                    *o = if empty && !d.drop_empty_systems {
                        f64::NAN
                    } else {
                        stat.eval(&gx, &gy, &mut sc)
                    };
                }
            }
        }
    })
}

/// Percentile intervals of the bootstrap, streamed: see [`bootstrap_intervals`].
#[derive(Clone, Debug, PartialEq)]
pub struct BootIntervals {
    /// Per metric: the (low, high) percentile interval of its level value
    /// over the resamples on which it is defined (NaN when none is).
    pub intervals: Vec<(f64, f64)>,
    /// Per metric: resamples on which its value is defined.
    pub n_valid: Vec<u64>,
    /// Per pair (a, b), a < b in lexicographic order: the interval of
    /// r(a) − r(b) over the resamples on which both are defined.
    pub deltas: Vec<(f64, f64)>,
    /// Per pair: resamples on which the difference is defined.
    pub n_valid_deltas: Vec<u64>,
    /// Every resample's values (`count × k`), when asked for.
    pub samples: Option<Vec<f64>>,
    /// Passes made over the resamples (one unless some value is undefined
    /// on some resample, or a selection needs another pass).
    pub passes: usize,
}

/// Resamples per chunk of [`bootstrap_intervals`]: the working set is a
/// chunk of values per metric and pair (any chunking gives the same bytes).
pub const BOOT_CHUNK: usize = 8192;

/// Below this many values (resamples × (metrics + pairs); 4 MiB)
/// [`bootstrap_intervals`] keeps them and selects its quantiles directly:
/// the same floats as streaming, with less work per value.
pub const STORE_BELOW: usize = 1 << 19;

/// Percentile intervals (numpy's linear quantiles at (1 ± confidence)/2) of
/// every metric's level value and of every pair's difference over the
/// job's bootstrap resamples, in memory that does not grow with B: the
/// resamples run in chunks of [`BOOT_CHUNK`] and each column
/// streams through a [`Summary`](crate::stream::Summary), so the intervals
/// are the same floats as [`crate::inference::percentile_interval`] on the
/// stored defined values (below [`STORE_BELOW`] values in all, they are kept
/// and selected directly). Undefined values (NaN) sort above every number;
/// when a column has any, its quantiles are asked again of its defined
/// values and take another pass over the same resamples (each is a pure
/// function of (seed, index)). With `keep`, every resample's values are
/// also returned; their memory is reserved before any work starts (an
/// input error, never an abort, when it cannot be had).
pub fn bootstrap_intervals(
    d: &MetaData<'_>,
    level: Level,
    stat: &ItemStatistic,
    scheme: Scheme,
    confidence: f64,
    keep: bool,
    job: &Job<'_>,
) -> Result<BootIntervals> {
    use crate::stream::{Quantity, Summary};
    let (total, k) = (job.count, d.k);
    crate::engine::check_resamples(total as u64)?;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::input(format!(
            "confidence level must be in (0, 1), got {confidence}"
        )));
    }
    if scheme == Scheme::RowsThenColumns {
        return Err(Error::input(
            "the bootstrap resamples systems, inputs or both; rows-then-columns is a permutation scheme",
        ));
    }
    let pairs: Vec<(usize, usize)> = (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .collect();
    let cols = k + pairs.len();
    if total.checked_mul(cols).is_some_and(|v| v <= STORE_BELOW) {
        // few values: keep them and select directly (the same floats, less work per value)
        let vals = bootstrap(d, level, stat, scheme, job)?;
        let mut col: Vec<f64> = Vec::with_capacity(total);
        let (mut ivs, mut valid) = (Vec::with_capacity(cols), Vec::with_capacity(cols));
        for c in 0..cols {
            col.clear();
            for row in vals.chunks_exact(k) {
                let v = if c < k {
                    row[c]
                } else {
                    let (a, b) = pairs[c - k];
                    row[a] - row[b]
                };
                if !v.is_nan() {
                    col.push(v);
                }
            }
            valid.push(col.len() as u64);
            ivs.push(if col.is_empty() {
                (f64::NAN, f64::NAN)
            } else {
                let lo = crate::inference::quantile(&mut col, (1.0 - confidence) / 2.0);
                let hi = crate::inference::quantile(&mut col, (1.0 + confidence) / 2.0);
                (lo, hi)
            });
        }
        return Ok(BootIntervals {
            intervals: ivs[..k].to_vec(),
            n_valid: valid[..k].to_vec(),
            deltas: ivs[k..].to_vec(),
            n_valid_deltas: valid[k..].to_vec(),
            samples: keep.then_some(vals),
            passes: 1,
        });
    }
    let mut stored = if keep {
        Some(crate::engine::alloc_rows(total, k)?)
    } else {
        None
    };
    let levels = [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0];
    let summary = |n: u64| -> Result<(Summary, [usize; 2])> {
        let mut sm = Summary::new(total as u64, 1)?;
        let lo = sm.add_quantile_of(Quantity::Theta, levels[0], n)?;
        let hi = sm.add_quantile_of(Quantity::Theta, levels[1], n)?;
        Ok((sm, [lo, hi]))
    };
    let mut sums: Vec<Option<(Summary, [usize; 2])>> = (0..cols)
        .map(|_| summary(total as u64).map(Some))
        .collect::<Result<_>>()?;
    let mut valid = vec![0u64; cols];
    let mut buf: Vec<f64> = Vec::new();
    let mut passes = 0usize;
    loop {
        let active: Vec<bool> = sums
            .iter()
            .map(|c| c.as_ref().is_some_and(|(sm, _)| sm.pending()))
            .collect();
        if !active.iter().any(|&a| a) {
            break;
        }
        if passes > 64 {
            return Err(Error::Internal("selection did not converge".into()));
        }
        for (c, sm) in sums.iter_mut().enumerate() {
            if active[c] {
                if let Some((sm, _)) = sm {
                    sm.begin_pass();
                }
            }
        }
        if passes > 0 {
            // progress counts the resamples of the pass under way
            job.progress.done.store(0, Ordering::Relaxed);
        }
        let mut start = 0usize;
        while start < total {
            let len = BOOT_CHUNK.min(total - start);
            let fresh = if stored.is_some() && passes > 0 {
                None
            } else {
                Some(bootstrap(
                    d,
                    level,
                    stat,
                    scheme,
                    &job.range(job.start + start as u64, len),
                )?)
            };
            if passes == 0 {
                if let (Some(st), Some(f)) = (stored.as_mut(), fresh.as_ref()) {
                    st[start * k..(start + len) * k].copy_from_slice(f);
                }
            }
            let vals: &[f64] = match (&fresh, &stored) {
                (Some(f), _) => f,
                (None, Some(st)) => &st[start * k..(start + len) * k],
                (None, None) => unreachable!("a pass without values"),
            };
            for c in 0..cols {
                if !active[c] {
                    continue;
                }
                buf.clear();
                for row in vals.chunks_exact(k) {
                    let v = if c < k {
                        row[c]
                    } else {
                        let (a, b) = pairs[c - k];
                        row[a] - row[b]
                    };
                    // every NaN as the positive one, above +∞ in total order
                    buf.push(if v.is_nan() { f64::NAN } else { v });
                }
                if passes == 0 {
                    valid[c] += buf.iter().filter(|v| !v.is_nan()).count() as u64;
                }
                if let Some((sm, _)) = sums[c].as_mut() {
                    sm.feed(&buf)?;
                }
            }
            start += len;
        }
        for (c, sm) in sums.iter_mut().enumerate() {
            if active[c] {
                if let Some((sm, _)) = sm {
                    sm.end_pass()?;
                }
            }
        }
        if passes == 0 {
            // columns with undefined resamples: the quantiles of the defined ones
            for c in 0..cols {
                if valid[c] == 0 {
                    sums[c] = None;
                } else if valid[c] < total as u64 {
                    sums[c] = Some(summary(valid[c])?);
                }
            }
        }
        passes += 1;
    }
    let interval = |c: usize| -> (f64, f64) {
        match &sums[c] {
            Some((sm, [lo, hi])) => (
                sm.quantile(*lo).unwrap_or(f64::NAN),
                sm.quantile(*hi).unwrap_or(f64::NAN),
            ),
            None => (f64::NAN, f64::NAN),
        }
    };
    Ok(BootIntervals {
        intervals: (0..k).map(interval).collect(),
        n_valid: valid[..k].to_vec(),
        deltas: (k..cols).map(interval).collect(),
        n_valid_deltas: valid[k..].to_vec(),
        samples: stored,
        passes,
    })
}

/// Outcome of the permutation tests of metric pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct PermOutcome {
    /// Observed δ = r(a) − r(b) per pair, on standardized scores.
    pub observed: Vec<f64>,
    /// Resamples at least as extreme, per pair.
    pub counts: Vec<u64>,
    /// Resamples whose δ* was defined, per pair.
    pub valid: Vec<u64>,
}

/// Resamples per round of the permutation driver: memory is one round of
/// δ* values (`ROUND × pairs`), whatever B is.
pub const ROUND: usize = 64 * crate::engine::BLOCK;

/// Permutation tests of `pairs` (a, b) of metrics: does r(a) − r(b) exceed
/// what swapping the two metrics' standardized scores per system, per item,
/// or per cell (`scheme`) gives? Counts use the 100-ulp tolerance of
/// [`crate::inference::permutation_pvalue`]. Runs the job's resamples (swap
/// bits from `(seed, TAG_META_PERM, b, 0)`; the job's `sub` is not used).
pub fn permutation(
    d: &MetaData<'_>,
    level: Level,
    stat: &ItemStatistic,
    scheme: Scheme,
    pairs: &[(usize, usize)],
    alternative: Alternative,
    job: &Job<'_>,
) -> Result<PermOutcome> {
    let (seed, v, n_resamples, progress) = (job.seed, job.stream, job.count, job.progress);
    let (s, n, k) = (d.s, d.n, d.k);
    if let Some(&(a, b)) = pairs.iter().find(|&&(a, b)| a >= k || b >= k || a == b) {
        return Err(Error::input(format!(
            "metric pair ({a}, {b}) is not two different metrics among {k}"
        )));
    }
    let z: Vec<Vec<f64>> = (0..k).map(|m| d.standardized(m)).collect();
    let observed: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| d.value_of(level, stat, &z[a]) - d.value_of(level, stat, &z[b]))
        .collect();
    let fast = group_fast_path(level, stat, scheme);
    // System level, any scheme: a system's mean after swapping is
    // (S_a − t_a + t_b) / n with S its sum over scored items and t the sum
    // over the swapped cells, so a resample costs k·S dot products and O(S)
    // per pair.
    let sys_path = level == Level::System;
    let groups: Vec<Vec<(f64, f64)>> = if fast {
        z.iter().map(|x| d.group_values(level, stat, x)).collect()
    } else {
        Vec::new()
    };
    let ones = vec![1.0f64; n];
    let (sums, counts_i, human_means): (Vec<Vec<f64>>, Vec<f64>, Vec<f64>) = if sys_path {
        let c: Vec<f64> = (0..s)
            .map(|i| dot(&d.valid_f[i * n..(i + 1) * n], &ones))
            .collect();
        let hm = (0..s)
            .map(|i| dot(&d.human0[i * n..(i + 1) * n], &ones) / c[i])
            .collect();
        let sm = z
            .iter()
            .map(|x| (0..s).map(|i| dot(&x[i * n..(i + 1) * n], &ones)).collect())
            .collect();
        (sm, c, hm)
    } else {
        (Vec::new(), Vec::new(), Vec::new())
    };
    // Item level, Kendall τ-b, swaps of systems or cells: per item, the scored
    // systems and their human signs once; each resample fills both swapped
    // vectors and counts both in one pass (the same integers as the general
    // path, so the same bytes).
    let item_tau = level == Level::Item
        && *stat == ItemStatistic::KendallB
        && !fast
        && scheme != Scheme::Inputs
        && n.checked_mul(s * s).is_some_and(|b| b <= SIGN_TABLE_LIMIT);
    let (mut vr, mut voff, mut hcs, mut hoff, mut yts) = (
        Vec::new(),
        vec![0usize],
        Vec::new(),
        vec![0usize],
        Vec::new(),
    );
    let mut hmask: Vec<[u64; 2]> = Vec::new();
    if item_tau {
        for j in 0..n {
            let rows: Vec<u32> = (0..s)
                .filter(|&i| d.valid[i * n + j])
                .map(|i| i as u32)
                .collect();
            let mut yt = 0i64;
            for (p, &rp) in rows.iter().enumerate() {
                let hp = d.human[rp as usize * n + j];
                for (q, &rq) in rows.iter().enumerate() {
                    let hq = d.human[rq as usize * n + j];
                    hcs.push(i8::from(hp > hq) - i8::from(hp < hq));
                    if q > p && hp == hq {
                        yt += 1;
                    }
                }
            }
            if s <= 64 {
                for (p, &rp) in rows.iter().enumerate() {
                    let hp = d.human[rp as usize * n + j];
                    let (mut hg, mut hl) = (0u64, 0u64);
                    for (q, &rq) in rows.iter().enumerate().skip(p + 1) {
                        let hq = d.human[rq as usize * n + j];
                        hg |= u64::from(hp > hq) << q;
                        hl |= u64::from(hp < hq) << q;
                    }
                    hmask.push([hg, hl]);
                }
            }
            vr.extend_from_slice(&rows);
            voff.push(vr.len());
            hoff.push(hcs.len());
            yts.push(yt);
        }
    }
    // up to 64 systems: the pair signs as bit masks (see `tau_block`)
    let bit_tau = item_tau && s <= 64;
    let mut used = vec![false; k];
    for &(a, b) in pairs {
        used[a] = true;
        used[b] = true;
    }
    let bits = match scheme {
        Scheme::Systems => s,
        Scheme::Inputs => n,
        Scheme::Both => s * n,
        Scheme::RowsThenColumns => s + n,
    };
    let np = pairs.len();
    let mut counts = vec![0u64; np];
    let mut valid = vec![0u64; np];
    let gammas: Vec<f64> = observed
        .iter()
        .map(|o| (o * 100.0 * f64::EPSILON).abs())
        .collect();
    let mut start = 0usize;
    while start < n_resamples {
        let count = ROUND.min(n_resamples - start);
        if progress.cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let vals = par_blocks(
            &job.range(job.start + start as u64, count),
            np,
            |first, chunk| {
                let mut wk = Work::default();
                let mut mask = vec![false; bits];
                let mut maskf: Vec<f64> = Vec::with_capacity(bits);
                let mut tsum: Vec<f64> = Vec::new();
                let rows: Vec<usize> = (0..s).collect();
                let w = vec![1u32; n];
                let rs = Resample {
                    rows: &rows,
                    w: &w,
                    id: u64::MAX,
                };
                if bit_tau {
                    // each resample's swaps as one bit mask per item (over its scored
                    // systems), then pair by pair over the whole block
                    let len = chunk.len() / np;
                    let mut msk = vec![0u64; len * n];
                    for r in 0..len {
                        let b = first + r as u64;
                        draws(v, seed, TAG_META_PERM).swaps(b, &mut mask);
                        for j in 0..n {
                            let mut bits = 0u64;
                            for (p, &rr) in vr[voff[j]..voff[j + 1]].iter().enumerate() {
                                let sw = match scheme {
                                    Scheme::Systems => mask[rr as usize],
                                    Scheme::Inputs => mask[j],
                                    Scheme::Both => mask[rr as usize * n + j],
                                    Scheme::RowsThenColumns => mask[rr as usize] ^ mask[s + j],
                                };
                                bits |= u64::from(sw) << p;
                            }
                            msk[r * n + j] = bits;
                        }
                    }
                    let tb = TauBlock {
                        z: &z,
                        pairs,
                        n,
                        vr: &vr,
                        voff: &voff,
                        hmask: &hmask,
                        yts: &yts,
                    };
                    tb.run(&msk, chunk);
                    return;
                }
                for (r, out) in chunk.chunks_mut(np).enumerate() {
                    let b = first + r as u64;
                    draws(v, seed, TAG_META_PERM).swaps(b, &mut mask);
                    if sys_path {
                        // sums of each metric over its swapped cells, per system
                        maskf.clear();
                        maskf.extend(mask.iter().map(|&m| f64::from(u8::from(m))));
                        tsum.clear();
                        tsum.resize(k * s, 0.0);
                        for m in (0..k).filter(|&m| used[m]) {
                            let x = &z[m];
                            for i in 0..s {
                                tsum[m * s + i] = match scheme {
                                    Scheme::Systems => {
                                        if mask[i] {
                                            sums[m][i]
                                        } else {
                                            0.0
                                        }
                                    }
                                    Scheme::Inputs => dot(&x[i * n..(i + 1) * n], &maskf),
                                    Scheme::Both => {
                                        dot(&x[i * n..(i + 1) * n], &maskf[i * n..(i + 1) * n])
                                    }
                                    Scheme::RowsThenColumns => {
                                        // the columns' bits, flipped for a swapped row
                                        let t = dot(&x[i * n..(i + 1) * n], &maskf[s..s + n]);
                                        if mask[i] {
                                            sums[m][i] - t
                                        } else {
                                            t
                                        }
                                    }
                                };
                            }
                        }
                    }
                    for (o, &(a, bm)) in out.iter_mut().zip(pairs) {
                        *o = if fast {
                            let (ga, gb) = (&groups[a], &groups[bm]);
                            let sel = |g: usize, swap_to_b: bool| {
                                if mask[g] == swap_to_b {
                                    gb[g]
                                } else {
                                    ga[g]
                                }
                            };
                            let va = mean_values(ga.len(), |g| sel(g, true));
                            let vb = mean_values(ga.len(), |g| sel(g, false));
                            va - vb
                        } else if sys_path {
                            let (ta, tb) = (&tsum[a * s..(a + 1) * s], &tsum[bm * s..(bm + 1) * s]);
                            let (sa, sb) = (&sums[a], &sums[bm]);
                            wk.gx.clear();
                            wk.gy.clear();
                            wk.px.clear();
                            for i in 0..s {
                                if counts_i[i] == 0.0 {
                                    continue;
                                }
                                wk.gx.push((sa[i] - ta[i] + tb[i]) / counts_i[i]);
                                wk.px.push((sb[i] - tb[i] + ta[i]) / counts_i[i]);
                                wk.gy.push(human_means[i]);
                            }
                            let px = std::mem::take(&mut wk.px);
                            let va = stat.eval(&wk.gx, &wk.gy, &mut wk.sc);
                            let vb = stat.eval(&px, &wk.gy, &mut wk.sc);
                            wk.px = px;
                            va - vb
                        } else if item_tau {
                            let (za, zb) = (&z[a], &z[bm]);
                            let (mut acc_a, mut na, mut acc_b, mut nb) = (0.0, 0.0, 0.0, 0.0);
                            for j in 0..n {
                                let rows = &vr[voff[j]..voff[j + 1]];
                                let m = rows.len();
                                let tot = (m * m.saturating_sub(1) / 2) as i64;
                                let yt = yts[j];
                                if m < 2 || yt == tot {
                                    continue;
                                }
                                wk.gx.clear();
                                wk.gy.clear();
                                for &r in rows {
                                    let p = r as usize * n + j;
                                    let sw = match scheme {
                                        Scheme::Systems => mask[r as usize],
                                        Scheme::Inputs => mask[j],
                                        Scheme::Both => mask[p],
                                        Scheme::RowsThenColumns => mask[r as usize] ^ mask[s + j],
                                    };
                                    if sw {
                                        wk.gx.push(zb[p]);
                                        wk.gy.push(za[p]);
                                    } else {
                                        wk.gx.push(za[p]);
                                        wk.gy.push(zb[p]);
                                    }
                                }
                                let hc = &hcs[hoff[j]..hoff[j + 1]];
                                let (mut ca, mut cb, mut xa, mut xb) = (0i64, 0i64, 0i64, 0i64);
                                for p in 0..m {
                                    let (ua, ub) = (wk.gx[p], wk.gy[p]);
                                    let hrow = &hc[p * m..(p + 1) * m];
                                    for (q, &h) in hrow.iter().enumerate().skip(p + 1) {
                                        let dh = i64::from(h);
                                        let (va, vb) = (wk.gx[q], wk.gy[q]);
                                        let da = i64::from(ua > va) - i64::from(ua < va);
                                        let db = i64::from(ub > vb) - i64::from(ub < vb);
                                        ca += da * dh;
                                        cb += db * dh;
                                        xa += i64::from(da == 0);
                                        xb += i64::from(db == 0);
                                    }
                                }
                                let sy = ((tot - yt) as f64).sqrt();
                                add_tau(ca, xa, tot, sy, &mut acc_a, &mut na);
                                add_tau(cb, xb, tot, sy, &mut acc_b, &mut nb);
                            }
                            let (va, vb) = (mean_or_nan(acc_a, na), mean_or_nan(acc_b, nb));
                            va - vb
                        } else {
                            let (xa, xb) = (&z[a], &z[bm]);
                            let mut px = std::mem::take(&mut wk.px);
                            let mut py = std::mem::take(&mut wk.py);
                            px.clear();
                            py.clear();
                            for i in 0..s {
                                for j in 0..n {
                                    let p = i * n + j;
                                    let sw = match scheme {
                                        Scheme::Systems => mask[i],
                                        Scheme::Inputs => mask[j],
                                        Scheme::Both => mask[p],
                                        Scheme::RowsThenColumns => mask[i] ^ mask[s + j],
                                    };
                                    if sw {
                                        px.push(xb[p]);
                                        py.push(xa[p]);
                                    } else {
                                        px.push(xa[p]);
                                        py.push(xb[p]);
                                    }
                                }
                            }
                            let va = d.level_value(level, stat, &px, &rs, &mut wk);
                            let vb = d.level_value(level, stat, &py, &rs, &mut wk);
                            wk.px = px;
                            wk.py = py;
                            va - vb
                        };
                    }
                }
            },
        )?;
        for row in vals.chunks(np) {
            for (p, &v) in row.iter().enumerate() {
                // an undefined observed δ has no p-value: no resample counts
                if v.is_nan() || observed[p].is_nan() {
                    continue;
                }
                valid[p] += 1;
                let (o, g) = (observed[p], gammas[p]);
                let hit = match alternative {
                    Alternative::TwoSided => v.abs() >= o.abs() - g,
                    Alternative::Greater => v >= o - g,
                    Alternative::Less => v <= o + g,
                };
                counts[p] += u64::from(hit);
            }
        }
        start += count;
    }
    Ok(PermOutcome {
        observed,
        counts,
        valid,
    })
}

/// Item-level Kendall τ-b of swapped metric pairs, with the pair signs as bit
/// masks: per item and scored system p, which later systems q score below or
/// above p for each of the four (a or b at p, a or b at q) combinations. A
/// resample's swap mask M then selects each swapped vector's signs with a few
/// bit operations, and popcounts against the human signs give the same
/// integers as comparing pair by pair (so the same bytes).
struct TauBlock<'a> {
    z: &'a [Vec<f64>],
    pairs: &'a [(usize, usize)],
    n: usize,
    vr: &'a [u32],
    voff: &'a [usize],
    hmask: &'a [[u64; 2]],
    yts: &'a [i64],
}

impl TauBlock<'_> {
    fn run(&self, msk: &[u64], out: &mut [f64]) {
        crate::simd::with_popcnt(TauRun {
            block: self,
            msk,
            out,
        });
    }

    #[inline(always)]
    fn body(&self, msk: &[u64], out: &mut [f64]) {
        let (n, np) = (self.n, self.pairs.len());
        let len = out.len() / np;
        let (vr, voff) = (self.vr, self.voff);
        let mut tab: Vec<[u64; 8]> = Vec::with_capacity(vr.len());
        for (pi, &(a, b)) in self.pairs.iter().enumerate() {
            let (za, zb) = (&self.z[a], &self.z[b]);
            tab.clear();
            for j in 0..n {
                let rows = &vr[voff[j]..voff[j + 1]];
                for (p, &rp) in rows.iter().enumerate() {
                    let (ap, bp) = (za[rp as usize * n + j], zb[rp as usize * n + j]);
                    let mut t = [0u64; 8];
                    for (q, &rq) in rows.iter().enumerate().skip(p + 1) {
                        let (aq, bq) = (za[rq as usize * n + j], zb[rq as usize * n + j]);
                        t[0] |= u64::from(ap > aq) << q;
                        t[1] |= u64::from(ap > bq) << q;
                        t[2] |= u64::from(bp > aq) << q;
                        t[3] |= u64::from(bp > bq) << q;
                        t[4] |= u64::from(ap < aq) << q;
                        t[5] |= u64::from(ap < bq) << q;
                        t[6] |= u64::from(bp < aq) << q;
                        t[7] |= u64::from(bp < bq) << q;
                    }
                    tab.push(t);
                }
            }
            for r in 0..len {
                let mrow = &msk[r * n..(r + 1) * n];
                let (mut acc_a, mut na, mut acc_b, mut nb) = (0.0, 0.0, 0.0, 0.0);
                for j in 0..n {
                    let (lo, hi) = (voff[j], voff[j + 1]);
                    let m = hi - lo;
                    let tot = (m * m.saturating_sub(1) / 2) as i64;
                    let yt = self.yts[j];
                    if m < 2 || yt == tot {
                        continue;
                    }
                    let mm = mrow[j];
                    let nm = !mm;
                    let (mut ca, mut cb, mut xa, mut xb) = (0i64, 0i64, 0i64, 0i64);
                    for (p, (t, &[hg, hl])) in
                        tab[lo..hi].iter().zip(&self.hmask[lo..hi]).enumerate()
                    {
                        // all ones where system p is swapped
                        let sp = 0u64.wrapping_sub((mm >> p) & 1);
                        // A: p holds b if swapped, q holds b where M is set
                        let ga = (((t[0] & nm) | (t[1] & mm)) & !sp)
                            | (((t[2] & nm) | (t[3] & mm)) & sp);
                        let la = (((t[4] & nm) | (t[5] & mm)) & !sp)
                            | (((t[6] & nm) | (t[7] & mm)) & sp);
                        // B: the other metric everywhere
                        let gb = (((t[0] & mm) | (t[1] & nm)) & sp)
                            | (((t[2] & mm) | (t[3] & nm)) & !sp);
                        let lb = (((t[4] & mm) | (t[5] & nm)) & sp)
                            | (((t[6] & mm) | (t[7] & nm)) & !sp);
                        let up = (m - 1 - p) as i64;
                        ca += i64::from(((ga & hg) | (la & hl)).count_ones())
                            - i64::from(((ga & hl) | (la & hg)).count_ones());
                        cb += i64::from(((gb & hg) | (lb & hl)).count_ones())
                            - i64::from(((gb & hl) | (lb & hg)).count_ones());
                        xa += up - i64::from((ga | la).count_ones());
                        xb += up - i64::from((gb | lb).count_ones());
                    }
                    let sy = ((tot - yt) as f64).sqrt();
                    add_tau(ca, xa, tot, sy, &mut acc_a, &mut na);
                    add_tau(cb, xb, tot, sy, &mut acc_b, &mut nb);
                }
                let (va, vb) = (mean_or_nan(acc_a, na), mean_or_nan(acc_b, nb));
                out[r * np + pi] = va - vb;
            }
        }
    }
}

/// One call of [`TauBlock::body`], compiled into the POPCNT build.
struct TauRun<'a, 'b> {
    block: &'a TauBlock<'b>,
    msk: &'a [u64],
    out: &'a mut [f64],
}

impl crate::simd::Kernel for TauRun<'_, '_> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        self.block.body(self.msk, self.out);
    }
}

/// Adds one item's Kendall τ-b (concordant minus discordant pairs `c`, pairs
/// tied in the scores `xt`, of `tot`; `sy` = √(tot − human ties)) to a running
/// sum and count; an item whose scores all tie has no τ-b.
#[inline(always)]
fn add_tau(c: i64, xt: i64, tot: i64, sy: f64, acc: &mut f64, cnt: &mut f64) {
    if xt != tot {
        *acc += (c as f64 / ((tot - xt) as f64).sqrt() / sy).clamp(-1.0, 1.0);
        *cnt += 1.0;
    }
}

fn mean_or_nan(acc: f64, cnt: f64) -> f64 {
    if cnt > 0.0 {
        acc / cnt
    } else {
        f64::NAN
    }
}

fn mean_values(len: usize, v: impl Fn(usize) -> (f64, f64)) -> f64 {
    let (mut a, mut c) = (0.0, 0.0);
    for g in 0..len {
        let (num, den) = v(g);
        a += num;
        c += den;
    }
    if c > 0.0 {
        a / c
    } else {
        f64::NAN
    }
}

/// Williams' test for the difference of two dependent correlations sharing
/// one variable (Williams 1959; Graham & Baldwin 2014): r12 = r(human, a),
/// r13 = r(human, b), r23 = r(a, b), n observations. Returns the t statistic
/// with n − 3 degrees of freedom (positive when r12 > r13).
#[must_use]
pub fn williams_t(r12: f64, r13: f64, r23: f64, n: f64) -> f64 {
    let det = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23;
    let rbar = (r12 + r13) / 2.0;
    let cube = (1.0 - r23).powi(3);
    (r12 - r13)
        * ((n - 1.0) * (1.0 + r23) / (2.0 * (n - 1.0) / (n - 3.0) * det + rbar * rbar * cube))
            .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Progress;
    use crate::itemstat::{kendall_b, pearson};
    use crate::rng::swap_bits;

    fn table(s: usize, n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..s * n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 35) % 7) as f64
            })
            .collect()
    }

    #[test]
    fn levels_by_hand() {
        let (s, n) = (4, 6);
        let mut h = table(s, n, 1);
        h[3] = f64::NAN;
        let m = table(s, n, 2);
        let d = MetaData::new(&h, &m, s, n).unwrap();
        // system level: means over scored cells
        let hm: Vec<f64> = (0..s)
            .map(|i| {
                let v: Vec<f64> = (0..n)
                    .map(|j| h[i * n + j])
                    .filter(|v| !v.is_nan())
                    .collect();
                v.iter().sum::<f64>() / v.len() as f64
            })
            .collect();
        let mm: Vec<f64> = (0..s)
            .map(|i| {
                let v: Vec<f64> = (0..n)
                    .filter(|&j| !h[i * n + j].is_nan())
                    .map(|j| m[i * n + j])
                    .collect();
                v.iter().sum::<f64>() / v.len() as f64
            })
            .collect();
        let want = pearson(&mm, &hm);
        assert!((d.observed(Level::System, &ItemStatistic::Pearson, 0) - want).abs() < 1e-14);
        // item level
        let mut acc = 0.0;
        let mut c = 0.0;
        for j in 0..n {
            let (xs, ys): (Vec<f64>, Vec<f64>) = (0..s)
                .filter(|&i| !h[i * n + j].is_nan())
                .map(|i| (m[i * n + j], h[i * n + j]))
                .unzip();
            let v = kendall_b(&xs, &ys);
            if !v.is_nan() {
                acc += v;
                c += 1.0;
            }
        }
        let got = d.observed(Level::Item, &ItemStatistic::KendallB, 0);
        assert!((got - acc / c).abs() < 1e-14);
    }

    #[test]
    fn resampling_is_thread_independent_and_fast_paths_agree() {
        let (s, n) = (5, 40);
        let h = table(s, n, 3);
        let m = [table(s, n, 4), table(s, n, 5)].concat();
        let d = MetaData::new(&h, &m, s, n).unwrap();
        let p = Progress::new();
        for scheme in [Scheme::Systems, Scheme::Inputs, Scheme::Both] {
            for level in [
                Level::System,
                Level::Global,
                Level::Item,
                Level::SystemGrouped,
            ] {
                let st = ItemStatistic::KendallB;
                let job = Job::new(9, 300, 1, &p);
                let a = bootstrap(&d, level, &st, scheme, &job).unwrap();
                let b = bootstrap(&d, level, &st, scheme, &Job { threads: 2, ..job }).unwrap();
                assert_eq!(a.len(), 600);
                assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
            }
        }
        // the per-group fast path equals the general path
        let st = ItemStatistic::Spearman;
        let job = Job::new(9, 50, 1, &p);
        let fast = bootstrap(&d, Level::Item, &st, Scheme::Inputs, &job).unwrap();
        let mut w = Vec::new();
        let rows: Vec<usize> = (0..s).collect();
        for b in 0..50u64 {
            draw_items(Version::default(), 9, b, n, &mut w);
            let rs = Resample {
                rows: &rows,
                w: &w,
                id: 0,
            };
            let v = d.level_value(Level::Item, &st, d.metric(1), &rs, &mut Work::default());
            assert!((v - fast[b as usize * 2 + 1]).abs() < 1e-12);
        }
        let pairs = [(0, 1), (1, 0)];
        for scheme in [Scheme::Systems, Scheme::Inputs, Scheme::Both] {
            let job = Job::new(3, 700, 1, &p);
            let alt = Alternative::TwoSided;
            let a = permutation(&d, Level::Item, &st, scheme, &pairs, alt, &job).unwrap();
            let job2 = Job { threads: 2, ..job };
            let b = permutation(&d, Level::Item, &st, scheme, &pairs, alt, &job2).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.counts[0], a.counts[1]);
            assert!((a.observed[0] + a.observed[1]).abs() < 1e-15);
        }
    }

    #[test]
    fn item_kendall_fast_path_equals_scipy_formula() {
        let (s, n) = (6, 9);
        let mut h = table(s, n, 7);
        h[4] = f64::NAN;
        let m = table(s, n, 8);
        let d = MetaData::new(&h, &m, s, n).unwrap();
        let rows = [0usize, 0, 2, 5, 5, 5];
        let mut wk = Work {
            cnt: vec![2, 0, 1, 0, 0, 3],
            ..Default::default()
        };
        for j in 0..n {
            let (xs, ys): (Vec<f64>, Vec<f64>) = rows
                .iter()
                .filter(|&&r| !h[r * n + j].is_nan())
                .map(|&r| (m[r * n + j], h[r * n + j]))
                .unzip();
            let want = kendall_b(&xs, &ys);
            let got = d.item_kendall_b(d.metric(0), j, &mut wk);
            assert!(
                (want.is_nan() && got.is_nan()) || (want - got).abs() < 1e-15,
                "{j}: {want} {got}"
            );
        }
    }

    #[test]
    fn system_bootstrap_equals_one_resample_at_a_time() {
        let (s, n) = (7, 37);
        let mut h = table(s, n, 21);
        h[5] = f64::NAN;
        h[60] = f64::NAN;
        let m = [table(s, n, 22), table(s, n, 23), table(s, n, 24)].concat();
        let d = MetaData::new(&h, &m, s, n).unwrap();
        let p = Progress::new();
        for stat in [ItemStatistic::Pearson, ItemStatistic::KendallB] {
            for scheme in [Scheme::Systems, Scheme::Inputs, Scheme::Both] {
                for threads in [1, 3] {
                    let job = Job::new(9, 1030, threads, &p).range(3, 1030);
                    let got = bootstrap(&d, Level::System, &stat, scheme, &job).unwrap();
                    let mut wk = Work::default();
                    for b in 3..1033u64 {
                        let mut rows: Vec<usize> = (0..s).collect();
                        let mut w = vec![1u32; n];
                        if scheme != Scheme::Inputs {
                            draw_rows(Version::default(), 9, b, s, &mut rows);
                        }
                        if scheme != Scheme::Systems {
                            draw_items(Version::default(), 9, b, n, &mut w);
                        }
                        let rs = Resample {
                            rows: &rows,
                            w: &w,
                            id: 0,
                        };
                        for q in 0..3 {
                            let want =
                                d.level_value(Level::System, &stat, d.metric(q), &rs, &mut wk);
                            let g = got[(b as usize - 3) * 3 + q];
                            assert_eq!(g.to_bits(), want.to_bits(), "{scheme:?} b={b} m={q}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn item_tau_permutation_path_equals_general_path() {
        let (s, n) = (6, 30);
        let mut h = table(s, n, 12);
        h[7] = f64::NAN;
        h[40] = f64::NAN;
        let m = [table(s, n, 13), table(s, n, 14)].concat();
        let d = MetaData::new(&h, &m, s, n).unwrap();
        let p = Progress::new();
        for scheme in [Scheme::Systems, Scheme::Both] {
            let fast = permutation(
                &d,
                Level::Item,
                &ItemStatistic::KendallB,
                scheme,
                &[(0, 1)],
                Alternative::TwoSided,
                &Job::new(5, 400, 1, &p),
            )
            .unwrap();
            // the general path: materialize the swapped tables and evaluate
            // them without the precomputed signs
            let mut d2 = MetaData::new(&h, &m, s, n).unwrap();
            d2.hsign.clear();
            let (za, zb) = (d.standardized(0), d.standardized(1));
            let st = ItemStatistic::KendallB;
            let obs = d2.value_of(Level::Item, &st, &za) - d2.value_of(Level::Item, &st, &zb);
            assert_eq!(fast.observed[0].to_bits(), obs.to_bits());
            let g = (obs * 100.0 * f64::EPSILON).abs();
            let mut count = 0;
            for b in 0..400u64 {
                let mut stream =
                    crate::rng::Stream::new(Version::default(), 5, TAG_META_PERM, b, 0);
                let bits = if scheme == Scheme::Systems { s } else { s * n };
                let mut word = 0;
                let mask: Vec<bool> = (0..bits)
                    .map(|t| {
                        if t % 64 == 0 {
                            word = stream.next_u64();
                        }
                        (word >> (t % 64)) & 1 == 1
                    })
                    .collect();
                let (mut pa, mut pb) = (za.clone(), zb.clone());
                for p in 0..s * n {
                    let sw = if scheme == Scheme::Systems {
                        mask[p / n]
                    } else {
                        mask[p]
                    };
                    if sw {
                        pa[p] = zb[p];
                        pb[p] = za[p];
                    }
                }
                let dstar = d2.value_of(Level::Item, &st, &pa) - d2.value_of(Level::Item, &st, &pb);
                count += u64::from(dstar.abs() >= obs.abs() - g);
            }
            assert_eq!(fast.counts[0], count);
        }
    }

    #[test]
    fn streamed_intervals_equal_stored_percentiles() {
        // a sparse table: some BOOT-INPUTS resamples leave a system with no scored item
        let (s, n) = (5, 6);
        let mut h = table(s, n, 31);
        for j in 1..n {
            h[j] = f64::NAN; // system 0 is scored on item 0 only
        }
        let m = [table(s, n, 32), table(s, n, 33)].concat();
        let p = Progress::new();
        for drop in [true, false] {
            let mut d = MetaData::new(&h, &m, s, n).unwrap();
            d.drop_empty_systems = drop;
            let st = ItemStatistic::Pearson;
            for (level, scheme) in [(Level::System, Scheme::Inputs), (Level::Item, Scheme::Both)] {
                // above STORE_BELOW values: the streamed path
                let total = STORE_BELOW / 3 + 1000;
                let job = Job::new(4, total, 2, &p);
                let got = bootstrap_intervals(&d, level, &st, scheme, 0.9, true, &job).unwrap();
                let small = Job::new(4, 3000, 2, &p);
                let direct =
                    bootstrap_intervals(&d, level, &st, scheme, 0.9, false, &small).unwrap();
                let streamed = &got.samples.as_deref().unwrap_or_default()[..3000 * 2];
                // the direct path on the first 3000 resamples equals percentile_interval on them
                for c in 0..2 {
                    let v: Vec<f64> = streamed
                        .chunks(2)
                        .map(|r| r[c])
                        .filter(|v| !v.is_nan())
                        .collect();
                    let want = crate::inference::percentile_interval(&v, 0.9);
                    assert_eq!(direct.intervals[c].0.to_bits(), want.0.to_bits());
                    assert_eq!(direct.intervals[c].1.to_bits(), want.1.to_bits());
                    assert_eq!(direct.n_valid[c], v.len() as u64);
                }
                let stored = bootstrap(&d, level, &st, scheme, &job).unwrap();
                let kept = got.samples.as_deref().unwrap_or_default();
                assert!(kept.len() == stored.len());
                assert!(kept
                    .iter()
                    .zip(&stored)
                    .all(|(a, b)| a.to_bits() == b.to_bits()));
                let col = |c: usize| -> Vec<f64> {
                    stored
                        .chunks(2)
                        .map(|r| if c < 2 { r[c] } else { r[0] - r[1] })
                        .filter(|v| !v.is_nan())
                        .collect()
                };
                for c in 0..3 {
                    let v = col(c);
                    let want = crate::inference::percentile_interval(&v, 0.9);
                    let (iv, nv) = if c < 2 {
                        (got.intervals[c], got.n_valid[c])
                    } else {
                        (got.deltas[0], got.n_valid_deltas[0])
                    };
                    assert_eq!(nv, v.len() as u64);
                    assert_eq!(iv.0.to_bits(), want.0.to_bits(), "{drop} {level:?} {c}");
                    assert_eq!(iv.1.to_bits(), want.1.to_bits(), "{drop} {level:?} {c}");
                }
                if level == Level::System {
                    // dropping the resample leaves fewer defined values, and takes a second pass
                    assert_eq!(got.n_valid[0] < total as u64, !drop);
                    assert_eq!(got.passes > 1, !drop);
                }
            }
        }
    }

    #[test]
    fn rows_then_columns_swaps_cells_by_xor() {
        let (s, n) = (5, 12);
        let mut h = table(s, n, 41);
        h[3] = f64::NAN;
        let m = [table(s, n, 42), table(s, n, 43)].concat();
        let d = MetaData::new(&h, &m, s, n).unwrap();
        let p = Progress::new();
        let (za, zb) = (d.standardized(0), d.standardized(1));
        for (level, st) in [
            (Level::System, ItemStatistic::Pearson),
            (Level::Item, ItemStatistic::KendallB),
            (Level::Global, ItemStatistic::Spearman),
        ] {
            let job = Job::new(6, 300, 1, &p);
            let got = permutation(
                &d,
                level,
                &st,
                Scheme::RowsThenColumns,
                &[(0, 1)],
                Alternative::TwoSided,
                &job,
            )
            .unwrap();
            let obs = d.value_of(level, &st, &za) - d.value_of(level, &st, &zb);
            let g = (obs * 100.0 * f64::EPSILON).abs();
            let mut count = 0;
            for b in 0..300u64 {
                let mut stream =
                    crate::rng::Stream::new(Version::default(), 6, TAG_META_PERM, b, 0);
                let mut mask = vec![false; s + n];
                swap_bits(&mut mask, || stream.next_u64());
                let (mut pa, mut pb) = (za.clone(), zb.clone());
                for i in 0..s {
                    for j in 0..n {
                        if mask[i] != mask[s + j] {
                            pa[i * n + j] = zb[i * n + j];
                            pb[i * n + j] = za[i * n + j];
                        }
                    }
                }
                let dstar = d.value_of(level, &st, &pa) - d.value_of(level, &st, &pb);
                count += u64::from(dstar.abs() >= obs.abs() - g * 1e6);
            }
            // the system-level path sums differently: allow for ties at the 1e-10 level
            assert!(
                (got.counts[0] as i64 - count as i64).abs() <= 3,
                "{level:?}: {} vs {count}",
                got.counts[0]
            );
        }
        assert!(bootstrap(
            &d,
            Level::System,
            &ItemStatistic::Pearson,
            Scheme::RowsThenColumns,
            &Job::new(1, 10, 1, &p)
        )
        .is_err());
    }

    #[test]
    fn pooled_tau_like_adds_pairs_over_groups() {
        let (s, n) = (6, 9);
        let mut h = table(s, n, 51);
        for i in 1..s {
            h[i * n + 2] = f64::NAN; // item 2: one scored cell, undefined
        }
        for i in 0..s {
            h[i * n + 5] = 3.0; // item 5: every human score tied, no qualifying pair
        }
        let m = table(s, n, 52);
        let d = MetaData::new(&h, &m, s, n).unwrap();
        let (mut c, mut dd, mut vals) = (0i64, 0i64, Vec::new());
        for j in 0..n {
            let (mut cj, mut dj) = (0i64, 0i64);
            for a in 0..s {
                for b in a + 1..s {
                    let (ha, hb) = (h[a * n + j], h[b * n + j]);
                    if ha.is_nan() || hb.is_nan() || ha == hb {
                        continue;
                    }
                    let (xa, xb) = (m[a * n + j], m[b * n + j]);
                    if (ha > hb && xa > xb) || (ha < hb && xa < xb) {
                        cj += 1;
                    } else {
                        dj += 1;
                    }
                }
            }
            c += cj;
            dd += dj;
            if cj + dj > 0 {
                vals.push((cj - dj) as f64 / (cj + dj) as f64);
            }
        }
        let pooled = d.observed(
            Level::Item,
            &ItemStatistic::TauLikePooled { threshold: 0.0 },
            0,
        );
        let mean = d.observed(Level::Item, &ItemStatistic::TauLike { threshold: 0.0 }, 0);
        assert!((pooled - (c - dd) as f64 / (c + dd) as f64).abs() < 1e-15);
        assert!((mean - vals.iter().sum::<f64>() / vals.len() as f64).abs() < 1e-15);
        assert_eq!(vals.len(), n - 2); // the undefined items are skipped, not zeros
    }

    #[test]
    fn williams_worked_case() {
        // r12 = .8, r13 = .6, r23 = .5, n = 30:
        // det = 1 - .64 - .36 - .25 + 2(.8)(.6)(.5) = .23
        // t = .2 * sqrt(29 * 1.5 / (2 * 29/27 * .23 + .49 * .125)) = 1.77011...
        let t = williams_t(0.8, 0.6, 0.5, 30.0);
        let want = 0.2 * (29.0f64 * 1.5 / (2.0 * 29.0 / 27.0 * 0.23 + 0.49 * 0.125)).sqrt();
        assert!((t - want).abs() < 1e-14);
        assert!((t - 1.77011).abs() < 1e-4);
    }

    #[test]
    fn bad_input_is_an_error() {
        let h = [1.0, 2.0, f64::NAN, 3.0];
        let m = [1.0, f64::NAN, 0.0, 2.0];
        assert!(matches!(MetaData::new(&h, &m, 2, 2), Err(Error::Input(_))));
        assert!(matches!(MetaData::new(&h, &m, 3, 2), Err(Error::Input(_))));
        let m2 = [1.0, 5.0, f64::NAN, 2.0];
        assert!(MetaData::new(&h, &m2, 2, 2).is_ok());
    }
}
