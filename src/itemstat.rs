//! Item-level statistics: functions of whole vectors of per-item values that
//! are not functions of summed statistics (correlations, ranks, quantiles).
//!
//! Every statistic is a plain function over slices; [`ItemStatistic`] holds
//! one (with its parameters) so that a driver can evaluate any of them on a
//! resample. Their names, parameters and descriptions are declared once, in
//! the metric registry ([`crate::metric`]), which builds them. Two-input
//! statistics read `x` (the scores being judged: a metric, a classifier's
//! scores) and `y` (the reference: human scores, labels). Inputs must be finite; `-0.0` and `0.0` are equal.
//!
//! | statistic | reference it equals |
//! |---|---|
//! | `Pearson` | `scipy.stats.pearsonr` (NaN for a constant input) |
//! | `Spearman` | `scipy.stats.spearmanr` (average ranks for ties) |
//! | `KendallB`, `KendallC` | `scipy.stats.kendalltau(variant="b"/"c")`, O(n log n) |
//! | `TauLike` | WMT DARR "Kendall-like": (C − D)/(C + D) over pairs whose `y` differ by at least the threshold; a tie in `x` is discordant; NaN when no pair qualifies. O(n log n) |
//! | `TauLikePooled` | the same on one group; over groups, Σ(C − D)/Σ(C + D) (mt-metrics-eval `KendallLike(average_by="item")`, WMT's DARR) |
//! | `PairwiseAccuracy` | share of pairs ordered alike, a tie in both counting as agreement (Kocmi et al. 2021) |
//! | `TieAccuracy` | acc_eq of Deutsch, Foster & Freitag (2023) with `x` pairs closer than ε tied |
//! | `TieCalibratedAccuracy` | acc_eq with the ε that maximises it (the paper's tie calibration) |
//! | `Auc` | Mann–Whitney AUC of scores `x` for binary labels `y`, ties ½ |
//! | `Mean`, `Median`, `Quantile` | numpy's `mean`, `median`, `quantile` (linear) |
//!
//! Degenerate inputs (fewer than two items, a constant vector where the
//! reference gives NaN, no pairs) give NaN, never a panic.
//!
//! The resampling loops that evaluate a statistic on every resample live in
//! the engine ([`crate::engine::item_bootstrap_values`]).

use std::cmp::Ordering as CmpOrdering;

use crate::{Error, Result};

/// A statistic of one vector (`x`) or of two paired vectors (`x`, `y`).
#[derive(Clone, Debug, PartialEq)]
pub enum ItemStatistic {
    Mean,
    Median,
    /// numpy's default (linear) quantile, `q` in [0, 1].
    Quantile(f64),
    Pearson,
    Spearman,
    KendallB,
    KendallC,
    /// WMT DARR Kendall-like τ; pairs count when their `y` differ by at
    /// least `threshold` (WMT uses 25 DA points); with 0, when `y` differ.
    TauLike {
        threshold: f64,
    },
    /// [`ItemStatistic::TauLike`] pooled over groups: a grouped level adds
    /// the groups' concordant and discordant pair counts, Σ(C − D)/Σ(C + D),
    /// instead of averaging per-group values (WMT's DARR τ-like,
    /// mt-metrics-eval `KendallLike(average_by="item")`). On one group it
    /// equals `TauLike`.
    TauLikePooled {
        threshold: f64,
    },
    /// Sign agreement of all pairs (a tie in both agrees).
    PairwiseAccuracy,
    /// acc_eq with `x` pairs within `epsilon` tied.
    TieAccuracy {
        epsilon: f64,
    },
    /// acc_eq with the ε that maximises it.
    TieCalibratedAccuracy,
    /// Mann–Whitney AUC of scores `x` for labels `y` in {0, 1}.
    Auc,
}

impl ItemStatistic {
    /// Number of input vectors: 1 (`x`) or 2 (`x`, `y`).
    #[must_use]
    pub fn n_inputs(&self) -> usize {
        match self {
            ItemStatistic::Mean | ItemStatistic::Median | ItemStatistic::Quantile(_) => 1,
            _ => 2,
        }
    }

    /// Check inputs the statistic cannot use (AUC labels must be 0 or 1).
    pub fn validate(&self, y: &[f64]) -> Result<()> {
        if *self == ItemStatistic::Auc {
            if let Some(i) = y.iter().position(|&v| v != 0.0 && v != 1.0) {
                return Err(Error::input(format!(
                    "auc needs labels 0 or 1; item {} has {}",
                    i + 1,
                    y[i]
                )));
            }
        }
        Ok(())
    }

    /// The statistic of `x` (and `y` for two-input statistics).
    #[must_use]
    pub fn eval(&self, x: &[f64], y: &[f64], s: &mut Scratch) -> f64 {
        match self {
            ItemStatistic::Mean => mean(x),
            ItemStatistic::Median => quantile_with(x, 0.5, &mut s.a),
            ItemStatistic::Quantile(q) => quantile_with(x, *q, &mut s.a),
            ItemStatistic::Pearson => pearson(x, y),
            ItemStatistic::Spearman => spearman_with(x, y, s),
            ItemStatistic::KendallB => tau_counts_with(x, y, s).tau_b(),
            ItemStatistic::KendallC => {
                let c = tau_counts_with(x, y, s);
                c.tau_c(distinct(x, &mut s.a).min(distinct(y, &mut s.a)))
            }
            ItemStatistic::TauLike { threshold } | ItemStatistic::TauLikePooled { threshold } => {
                tau_like_with(x, y, *threshold, s)
            }
            ItemStatistic::PairwiseAccuracy => tau_counts_with(x, y, s).accuracy(),
            ItemStatistic::TieAccuracy { epsilon } => tie_accuracy(x, y, *epsilon),
            ItemStatistic::TieCalibratedAccuracy => {
                tie_calibrated(&[Group { x, y, weight: 1.0 }], s).0
            }
            ItemStatistic::Auc => auc_with(x, y, s),
        }
    }

    /// One group's contribution to a grouped level: (numerator, weight) with
    /// the level value Σ w_g·num_g / Σ w_g·weight_g over groups g. A mean
    /// of per-group values gives (v, 1), or (0, 0) where v is undefined (so
    /// an undefined group is skipped); [`ItemStatistic::TauLikePooled`]
    /// gives (C − D, C + D).
    #[must_use]
    pub fn parts(&self, x: &[f64], y: &[f64], s: &mut Scratch) -> (f64, f64) {
        if let ItemStatistic::TauLikePooled { threshold } = self {
            let (c, d) = tau_like_counts(x, y, *threshold, s);
            return (c as f64 - d as f64, (c + d) as f64);
        }
        let v = self.eval(x, y, s);
        if v.is_nan() {
            (0.0, 0.0)
        } else {
            (v, 1.0)
        }
    }
}

/// Reusable buffers, so evaluating a statistic on a resample allocates nothing
/// once the buffers have grown.
#[derive(Default, Debug)]
pub struct Scratch {
    a: Vec<f64>,
    b: Vec<f64>,
    idx: Vec<usize>,
    ranks: Vec<u32>,
    fen: Vec<u64>,
    pairs: Vec<Pair>,
}

#[inline]
fn cmp(a: f64, b: f64) -> CmpOrdering {
    a.partial_cmp(&b).unwrap_or(CmpOrdering::Equal)
}

/// Arithmetic mean (NaN for no values).
#[must_use]
pub fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    x.iter().sum::<f64>() / x.len() as f64
}

/// numpy's default quantile of `x` (NaN for no values).
#[must_use]
pub fn quantile(x: &[f64], q: f64) -> f64 {
    quantile_with(x, q, &mut Vec::new())
}

fn quantile_with(x: &[f64], q: f64, buf: &mut Vec<f64>) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    buf.clear();
    buf.extend(x.iter().map(|v| v + 0.0));
    crate::inference::quantile(buf, q)
}

/// Pearson's r as `scipy.stats.pearsonr` computes it (NaN for a constant
/// input), clamped to [−1, 1]. Each vector is first scaled by a power of two
/// that brings its largest magnitude near 1: exact, so ordinary data give
/// the same bits, while data near the ends of the float range (1e±300) no
/// longer overflow or underflow in the sums of squares.
#[must_use]
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len();
    if n < 2 || y.len() != n {
        return f64::NAN;
    }
    if x.iter().all(|&v| v == x[0]) || y.iter().all(|&v| v == y[0]) {
        return f64::NAN;
    }
    let (fx, fy) = (pow2_scale(x), pow2_scale(y));
    let mx = x.iter().map(|&v| v * fx).sum::<f64>() / n as f64;
    let my = y.iter().map(|&v| v * fy).sum::<f64>() / n as f64;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        let (dx, dy) = (a * fx - mx, b * fy - my);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    let r = sxy / (sxx.sqrt() * syy.sqrt());
    if r.is_nan() {
        r
    } else {
        r.clamp(-1.0, 1.0)
    }
}

/// A power of two `f` with `max |x| · f` in [1/16, 16) (1 for ordinary
/// magnitudes, so ordinary data keep their bits; a power of two scales
/// exactly).
#[must_use]
pub fn pow2_scale(x: &[f64]) -> f64 {
    let m = x.iter().fold(0.0f64, |a, &v| a.max(v.abs()));
    if m == 0.0 || !m.is_finite() || (1.0 / 16.0..16.0).contains(&m) {
        return 1.0;
    }
    // exponent of m, from its bits (subnormals: count through the mantissa)
    let e = if m >= f64::MIN_POSITIVE {
        ((m.to_bits() >> 52) & 0x7ff) as i32 - 1023
    } else {
        -1023 - (m.to_bits().leading_zeros() as i32 - 12)
    };
    // the largest finite power of two is 2^1023: a subnormal maximum is
    // brought to at least 2^-51, far from underflow in the squares
    pow2((-e).min(1023))
}

/// 2^k for k in [−1074, 1023] (0 or ∞ beyond), built without rounding.
fn pow2(k: i32) -> f64 {
    if k > 1023 {
        f64::INFINITY
    } else if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else if k >= -1074 {
        f64::from_bits(1u64 << (k + 1074))
    } else {
        0.0
    }
}

/// Average ranks (1-based, ties get the mean rank), as `scipy.stats.rankdata`.
fn rank_into(x: &[f64], idx: &mut Vec<usize>, out: &mut Vec<f64>) {
    let n = x.len();
    idx.clear();
    idx.extend(0..n);
    idx.sort_unstable_by(|&i, &j| cmp(x[i], x[j]));
    out.clear();
    out.resize(n, 0.0);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && x[idx[j]] == x[idx[i]] {
            j += 1;
        }
        let r = (i + j + 1) as f64 / 2.0;
        for &k in &idx[i..j] {
            out[k] = r;
        }
        i = j;
    }
}

/// Spearman's ρ: Pearson's r of average ranks.
#[must_use]
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    spearman_with(x, y, &mut Scratch::default())
}

fn spearman_with(x: &[f64], y: &[f64], s: &mut Scratch) -> f64 {
    if x.len() < 2 || y.len() != x.len() {
        return f64::NAN;
    }
    let mut ra = std::mem::take(&mut s.a);
    let mut rb = std::mem::take(&mut s.b);
    rank_into(x, &mut s.idx, &mut ra);
    rank_into(y, &mut s.idx, &mut rb);
    let r = pearson(&ra, &rb);
    s.a = ra;
    s.b = rb;
    r
}

/// Pair counts behind Kendall's τ: `tot` pairs, `dis` strictly discordant,
/// `xtie` tied in x, `ytie` tied in y, `ntie` tied in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TauCounts {
    pub n: u64,
    pub tot: u64,
    pub dis: u64,
    pub xtie: u64,
    pub ytie: u64,
    pub ntie: u64,
}

impl TauCounts {
    /// Concordant minus discordant pairs.
    #[must_use]
    pub fn con_minus_dis(&self) -> i64 {
        self.tot as i64 - self.xtie as i64 - self.ytie as i64 + self.ntie as i64
            - 2 * self.dis as i64
    }

    /// Strictly concordant pairs.
    #[must_use]
    pub fn con(&self) -> u64 {
        self.tot + self.ntie - self.xtie - self.ytie - self.dis
    }

    fn degenerate(&self) -> bool {
        self.n < 2 || self.xtie == self.tot || self.ytie == self.tot
    }

    /// τ-b (scipy's formula and operation order).
    #[must_use]
    pub fn tau_b(&self) -> f64 {
        if self.degenerate() {
            return f64::NAN;
        }
        (self.con_minus_dis() as f64
            / ((self.tot - self.xtie) as f64).sqrt()
            / ((self.tot - self.ytie) as f64).sqrt())
        .clamp(-1.0, 1.0)
    }

    /// τ-c with `m` = the smaller number of distinct values.
    #[must_use]
    pub fn tau_c(&self, m: usize) -> f64 {
        if self.degenerate() {
            return f64::NAN;
        }
        let size = self.n as f64;
        (2.0 * self.con_minus_dis() as f64 / (size * size * (m as f64 - 1.0) / m as f64))
            .clamp(-1.0, 1.0)
    }

    /// Share of pairs ordered alike, ties in both agreeing.
    #[must_use]
    pub fn accuracy(&self) -> f64 {
        if self.tot == 0 {
            return f64::NAN;
        }
        (self.con() + self.ntie) as f64 / self.tot as f64
    }
}

/// Kendall pair counts in O(n log n): sort by (x, y), then count the
/// inversions of y with a merge sort.
#[must_use]
pub fn tau_counts(x: &[f64], y: &[f64]) -> TauCounts {
    tau_counts_with(x, y, &mut Scratch::default())
}

fn pairs_of(c: u64) -> u64 {
    c * c.saturating_sub(1) / 2
}

/// Below this size the O(n²) pair loop beats sorting.
const QUADRATIC_BELOW: usize = 48;

fn tau_counts_quadratic(x: &[f64], y: &[f64]) -> TauCounts {
    let n = x.len().min(y.len());
    let (mut dis, mut xtie, mut ytie, mut ntie) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..n {
        let (a, b) = (x[i], y[i]);
        for j in i + 1..n {
            let (xt, yt) = (x[j] == a, y[j] == b);
            xtie += u64::from(xt);
            ytie += u64::from(yt);
            ntie += u64::from(xt & yt);
            dis += u64::from((x[j] > a && y[j] < b) || (x[j] < a && y[j] > b));
        }
    }
    TauCounts {
        n: n as u64,
        tot: pairs_of(n as u64),
        dis,
        xtie,
        ytie,
        ntie,
    }
}

fn tau_counts_with(x: &[f64], y: &[f64], s: &mut Scratch) -> TauCounts {
    let n = x.len().min(y.len());
    if n < QUADRATIC_BELOW {
        return tau_counts_quadratic(x, y);
    }
    let idx = &mut s.idx;
    idx.clear();
    idx.extend(0..n);
    idx.sort_unstable_by(|&i, &j| cmp(x[i], x[j]).then(cmp(y[i], y[j])));
    let (mut xtie, mut ntie) = (0u64, 0u64);
    let (mut rx, mut rn) = (1u64, 1u64);
    for w in 1..n {
        let (p, q) = (idx[w - 1], idx[w]);
        if x[p] == x[q] {
            rx += 1;
            if y[p] == y[q] {
                rn += 1;
            } else {
                ntie += pairs_of(rn);
                rn = 1;
            }
        } else {
            xtie += pairs_of(rx);
            ntie += pairs_of(rn);
            rx = 1;
            rn = 1;
        }
    }
    if n > 0 {
        xtie += pairs_of(rx);
        ntie += pairs_of(rn);
    }
    let a = &mut s.a;
    a.clear();
    a.extend(idx.iter().map(|&i| y[i] + 0.0));
    let b = &mut s.b;
    b.clear();
    b.resize(n, 0.0);
    let dis = merge_count(a, b);
    let mut ytie = 0u64;
    let mut ry = 1u64;
    for w in 1..n {
        if a[w] == a[w - 1] {
            ry += 1;
        } else {
            ytie += pairs_of(ry);
            ry = 1;
        }
    }
    if n > 0 {
        ytie += pairs_of(ry);
    }
    TauCounts {
        n: n as u64,
        tot: pairs_of(n as u64),
        dis,
        xtie,
        ytie,
        ntie,
    }
}

/// Bottom-up merge sort of `a` (using `buf`), returning the number of pairs
/// i < j with a[i] > a[j] strictly.
fn merge_count(a: &mut [f64], buf: &mut [f64]) -> u64 {
    let n = a.len();
    let mut inv = 0u64;
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                if a[j] < a[i] {
                    buf[k] = a[j];
                    inv += (mid - i) as u64;
                    j += 1;
                } else {
                    buf[k] = a[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&a[i..mid]);
            k += mid - i;
            buf[k..k + (hi - j)].copy_from_slice(&a[j..hi]);
            lo = hi;
        }
        a.copy_from_slice(buf);
        width *= 2;
    }
    inv
}

/// Number of distinct values (reorders a copy in `buf`).
fn distinct(x: &[f64], buf: &mut Vec<f64>) -> usize {
    buf.clear();
    buf.extend(x.iter().map(|v| v + 0.0));
    buf.sort_unstable_by(|a, b| cmp(*a, *b));
    let mut d = usize::from(!buf.is_empty());
    for w in 1..buf.len() {
        if buf[w] != buf[w - 1] {
            d += 1;
        }
    }
    d
}

/// Kendall's τ-b.
#[must_use]
pub fn kendall_b(x: &[f64], y: &[f64]) -> f64 {
    tau_counts(x, y).tau_b()
}

/// Kendall's τ-c.
#[must_use]
pub fn kendall_c(x: &[f64], y: &[f64]) -> f64 {
    let mut buf = Vec::new();
    let m = distinct(x, &mut buf).min(distinct(y, &mut buf));
    tau_counts(x, y).tau_c(m)
}

/// WMT DARR Kendall-like τ: over pairs whose `y` differ by at least
/// `threshold` (by more than 0 when it is 0), concordant when `x` orders them
/// as `y` does, discordant otherwise (a tie in `x` is discordant); returns
/// (C − D)/(C + D), or NaN when no pair qualifies (the WMT scripts and
/// mt-metrics-eval's `KendallLike` return 0 there; sigfast treats the value as
/// undefined, so a grouped level skips the group as it skips every other
/// undefined statistic, and [`ItemStatistic::TauLikePooled`] gives it no weight).
#[must_use]
pub fn tau_like(x: &[f64], y: &[f64], threshold: f64) -> f64 {
    tau_like_with(x, y, threshold, &mut Scratch::default())
}

fn tau_like_with(x: &[f64], y: &[f64], threshold: f64, s: &mut Scratch) -> f64 {
    let (c, d) = tau_like_counts(x, y, threshold, s);
    if c + d == 0 {
        f64::NAN
    } else {
        (c as f64 - d as f64) / (c + d) as f64
    }
}

/// (concordant, discordant) of [`tau_like`] in O(n log n): sort by `y`; a
/// pointer admits every earlier item whose `y` is low enough (the float
/// difference `y_j − y_i` is monotone in both), and a Fenwick tree over the
/// ranks of `x` counts the admitted items with a smaller `x`.
fn tau_like_counts(x: &[f64], y: &[f64], threshold: f64, s: &mut Scratch) -> (u64, u64) {
    let n = x.len().min(y.len());
    // dense ranks of x, 1-based
    let idx = &mut s.idx;
    idx.clear();
    idx.extend(0..n);
    idx.sort_unstable_by(|&i, &j| cmp(x[i], x[j]));
    let ranks = &mut s.ranks;
    ranks.clear();
    ranks.resize(n, 0);
    let mut r = 0u32;
    for w in 0..n {
        if w == 0 || x[idx[w]] != x[idx[w - 1]] {
            r += 1;
        }
        ranks[idx[w]] = r;
    }
    let size = r as usize + 1;
    idx.clear();
    idx.extend(0..n);
    idx.sort_unstable_by(|&i, &j| cmp(y[i], y[j]));
    let fen = &mut s.fen;
    fen.clear();
    fen.resize(size, 0);
    let qualifies = |d: f64| {
        if threshold > 0.0 {
            d >= threshold
        } else {
            d > 0.0
        }
    };
    let (mut con, mut total) = (0u64, 0u64);
    let mut p = 0;
    for w in 0..n {
        let j = idx[w];
        while p < w && qualifies(y[j] - y[idx[p]]) {
            let mut k = ranks[idx[p]] as usize;
            while k < size {
                fen[k] += 1;
                k += k & k.wrapping_neg();
            }
            p += 1;
        }
        total += p as u64;
        // admitted items with a strictly smaller x
        let mut k = ranks[j] as usize - 1;
        let mut c = 0;
        while k > 0 {
            c += fen[k];
            k &= k - 1;
        }
        con += c;
    }
    (con, total - con)
}

/// acc_eq (Deutsch et al. 2023) with `x` pairs within `epsilon` tied:
/// (concordant + tied in both) / pairs. O(n²).
#[must_use]
pub fn tie_accuracy(x: &[f64], y: &[f64], epsilon: f64) -> f64 {
    let n = x.len().min(y.len());
    if n < 2 {
        return f64::NAN;
    }
    let mut good = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            let dx = x[i] - x[j];
            let dy = y[i] - y[j];
            let xt = dx.abs() <= epsilon;
            let yt = dy == 0.0;
            if (xt && yt) || (!xt && !yt && (dx > 0.0) == (dy > 0.0)) {
                good += 1;
            }
        }
    }
    good as f64 / pairs_of(n as u64) as f64
}

/// One group of a tie calibration: its vectors and its weight in the average.
#[derive(Clone, Copy, Debug)]
pub struct Group<'a> {
    pub x: &'a [f64],
    pub y: &'a [f64],
    pub weight: f64,
}

/// A pair in the ε sweep: |Δx|, its group, and how its correctness changes
/// once it is tied in x (−1, 0 or +1).
#[derive(Clone, Copy, Debug)]
struct Pair {
    diff: f64,
    group: u32,
    change: i8,
}

/// Tie calibration (Deutsch, Foster & Freitag 2023): the ε ≥ 0 that maximises
/// the weighted average over groups of acc_eq, where pairs of a group whose
/// `x` differ by at most ε are tied. Candidate ε are 0 and every |Δx|; the
/// smallest maximiser wins. Groups with fewer than two items are left out.
/// Returns (acc_eq, ε); NaN when no group has a pair.
pub fn tie_calibrated(groups: &[Group<'_>], s: &mut Scratch) -> (f64, f64) {
    let pairs = &mut s.pairs;
    pairs.clear();
    let mut per_group: Vec<(f64, f64)> = Vec::with_capacity(groups.len()); // (weight/total, 0)
    let mut wsum = 0.0;
    let mut obj = 0.0;
    for (g, grp) in groups.iter().enumerate() {
        let n = grp.x.len().min(grp.y.len());
        let tot = pairs_of(n as u64);
        if tot == 0 || grp.weight == 0.0 {
            per_group.push((0.0, 0.0));
            continue;
        }
        let scale = grp.weight / tot as f64;
        per_group.push((scale, 0.0));
        wsum += grp.weight;
        let mut good = 0i64;
        for i in 0..n {
            for j in i + 1..n {
                let dx = grp.x[i] - grp.x[j];
                let dy = grp.y[i] - grp.y[j];
                let yt = dy == 0.0;
                let now = if dx == 0.0 {
                    yt
                } else {
                    !yt && (dx > 0.0) == (dy > 0.0)
                };
                good += i64::from(now);
                let change = i8::from(yt) - i8::from(now);
                if change != 0 {
                    pairs.push(Pair {
                        diff: dx.abs(),
                        group: g as u32,
                        change,
                    });
                }
            }
        }
        obj += scale * good as f64;
    }
    if wsum == 0.0 {
        return (f64::NAN, f64::NAN);
    }
    pairs.sort_unstable_by(|a, b| cmp(a.diff, b.diff));
    let (mut best, mut best_eps) = (obj, 0.0);
    let mut k = 0;
    while k < pairs.len() {
        let d = pairs[k].diff;
        while k < pairs.len() && pairs[k].diff == d {
            let p = pairs[k];
            obj += per_group[p.group as usize].0 * f64::from(p.change);
            k += 1;
        }
        if obj > best {
            best = obj;
            best_eps = d;
        }
    }
    // a sum of products of weights and ±1 may round a hair past the range
    ((best / wsum).clamp(0.0, 1.0), best_eps)
}

/// Mann–Whitney AUC of scores `x` for labels `y` (1 positive, 0 negative),
/// ties counting ½: (R₁ − n₁(n₁+1)/2) / (n₁ n₀) with average ranks R.
#[must_use]
pub fn auc(x: &[f64], y: &[f64]) -> f64 {
    auc_with(x, y, &mut Scratch::default())
}

fn auc_with(x: &[f64], y: &[f64], s: &mut Scratch) -> f64 {
    let n = x.len().min(y.len());
    let n1 = y[..n].iter().filter(|&&v| v == 1.0).count();
    let n0 = n - n1;
    if n1 == 0 || n0 == 0 {
        return f64::NAN;
    }
    let mut r = std::mem::take(&mut s.a);
    rank_into(&x[..n], &mut s.idx, &mut r);
    let r1: f64 = r
        .iter()
        .zip(y)
        .filter(|(_, &l)| l == 1.0)
        .map(|(v, _)| v)
        .sum();
    s.a = r;
    let n1f = n1 as f64;
    (r1 - n1f * (n1f + 1.0) / 2.0) / (n1f * n0 as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_counts(x: &[f64], y: &[f64]) -> (i64, u64, u64, u64) {
        let n = x.len();
        let (mut c, mut d, mut xt, mut yt) = (0i64, 0u64, 0u64, 0u64);
        for i in 0..n {
            for j in i + 1..n {
                let a = (x[i] - x[j]).signum() * f64::from(x[i] != x[j]);
                let b = (y[i] - y[j]).signum() * f64::from(y[i] != y[j]);
                if a == 0.0 {
                    xt += 1;
                }
                if b == 0.0 {
                    yt += 1;
                }
                if a * b > 0.0 {
                    c += 1;
                } else if a * b < 0.0 {
                    d += 1;
                }
            }
        }
        (c - d as i64, d, xt, yt)
    }

    fn lcg(seed: &mut u64, k: u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 33) % k) as f64
    }

    #[test]
    fn kendall_counts_match_quadratic() {
        let mut sd = 7;
        for n in [0usize, 1, 2, 3, 10, 47, 48, 57, 300] {
            let x: Vec<f64> = (0..n).map(|_| lcg(&mut sd, 5)).collect();
            let y: Vec<f64> = (0..n).map(|_| lcg(&mut sd, 4) - 2.0).collect();
            let c = tau_counts(&x, &y);
            let (cmd, d, xt, yt) = naive_counts(&x, &y);
            assert_eq!(c.dis, d);
            assert_eq!(c.xtie, xt);
            assert_eq!(c.ytie, yt);
            assert_eq!(c.con_minus_dis(), cmd);
            let q = tau_counts_quadratic(&x, &y);
            let mut sc = Scratch::default();
            let (mut sx, mut sy) = (x.clone(), y.clone());
            sx.push(0.5);
            sy.push(0.5);
            assert_eq!(q.dis, d);
            assert_eq!(q.xtie, xt);
            assert_eq!(q.ntie, c.ntie);
            // the sort-based path on the same data
            let _ = tau_counts_with(&sx, &sy, &mut sc);
        }
    }

    #[test]
    fn known_values() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        let y = [2.0, 1.0, 4.0, 3.0, 5.0];
        // scipy: kendalltau -> 0.6, spearmanr -> 0.8, pearsonr -> 0.8
        assert!((kendall_b(&x, &y) - 0.6).abs() < 1e-15);
        assert!((spearman(&x, &y) - 0.8).abs() < 1e-15);
        assert!((pearson(&x, &y) - 0.8).abs() < 1e-15);
        assert!(pearson(&x, &[1.0; 5]).is_nan());
        assert!(kendall_b(&[1.0], &[2.0]).is_nan());
        assert_eq!(quantile(&x, 0.5), 3.0);
        assert_eq!(auc(&[0.1, 0.4, 0.35, 0.8], &[0.0, 0.0, 1.0, 1.0]), 0.75);
        assert_eq!(auc(&[0.5, 0.5], &[0.0, 1.0]), 0.5);
        // -0.0 and 0.0 tie
        assert_eq!(tau_counts(&[0.0, -0.0], &[1.0, 2.0]).xtie, 1);
    }

    #[test]
    fn tau_like_matches_quadratic() {
        let mut sd = 3;
        for thr in [0.0, 1.0, 2.5] {
            let x: Vec<f64> = (0..40).map(|_| lcg(&mut sd, 6)).collect();
            let y: Vec<f64> = (0..40).map(|_| lcg(&mut sd, 9)).collect();
            let (mut c, mut d) = (0i64, 0i64);
            for i in 0..40 {
                for j in 0..40 {
                    let dy = y[j] - y[i];
                    let ok = if thr > 0.0 { dy >= thr } else { dy > 0.0 };
                    if ok {
                        if x[j] > x[i] {
                            c += 1;
                        } else {
                            d += 1;
                        }
                    }
                }
            }
            let want = (c - d) as f64 / (c + d) as f64;
            assert!((tau_like(&x, &y, thr) - want).abs() < 1e-15, "thr {thr}");
        }
    }

    #[test]
    fn pearson_scales_exactly_and_stays_in_range() {
        let mut sd = 5;
        let x: Vec<f64> = (0..30).map(|_| lcg(&mut sd, 9) + 0.25).collect();
        let y: Vec<f64> = (0..30).map(|_| lcg(&mut sd, 7) - 3.0).collect();
        let r = pearson(&x, &y);
        for scale in [
            2f64.powi(900),
            2f64.powi(-1000),
            1e300,
            1e-300,
            1e-160,
            1e160,
        ] {
            let xs: Vec<f64> = x.iter().map(|v| v * scale).collect();
            let got = pearson(&xs, &y);
            assert!((got - r).abs() < 1e-13, "{scale:e}: {got} vs {r}");
        }
        // a power of two: the same bits
        let xs: Vec<f64> = x.iter().map(|v| v * 2f64.powi(-600)).collect();
        assert_eq!(pearson(&xs, &y).to_bits(), r.to_bits());
        // subnormal data
        let xs: Vec<f64> = x.iter().map(|v| v * 1e-310).collect();
        assert!((pearson(&xs, &y) - r).abs() < 1e-9);
        let same: Vec<f64> = (0..40).map(|i| f64::from(i) * 0.1 + 0.3).collect();
        assert!(pearson(&same, &same) <= 1.0 && kendall_b(&same, &same) <= 1.0);
        let mut scratch = Scratch::default();
        let groups = [Group {
            x: &same,
            y: &same,
            weight: 0.1,
        }];
        assert!(tie_calibrated(&groups, &mut scratch).0 <= 1.0);
    }

    #[test]
    fn calibration_sweeps_all_thresholds() {
        let mut sd = 11;
        let x: Vec<f64> = (0..25).map(|_| lcg(&mut sd, 7) * 0.5).collect();
        let y: Vec<f64> = (0..25).map(|_| lcg(&mut sd, 3)).collect();
        let (acc, eps) = tie_calibrated(
            &[Group {
                x: &x,
                y: &y,
                weight: 1.0,
            }],
            &mut Scratch::default(),
        );
        let mut best = tie_accuracy(&x, &y, 0.0);
        let mut best_eps = 0.0;
        for i in 0..25 {
            for j in 0..25 {
                let e = (x[i] - x[j]).abs();
                let a = tie_accuracy(&x, &y, e);
                if a > best + 1e-15 || (a > best - 1e-15 && e < best_eps) {
                    best = a;
                    best_eps = e;
                }
            }
        }
        assert!((acc - best).abs() < 1e-12);
        assert_eq!(eps, best_eps);
        assert!((tie_accuracy(&x, &y, eps) - acc).abs() < 1e-12);
    }
}
