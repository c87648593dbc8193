//! Streaming summaries of resampled values in bounded memory.
//!
//! A test of B resamples never holds B values. Values arrive in resample
//! order, in chunks of [`CHUNK`] rows (each row: one value per system), and a
//! [`Summary`] keeps only what the result needs:
//!
//! * **counts** for p-values (integers: any chunking gives the same counts);
//! * the **blocked mean** of θ (the shifted bootstrap's centre): in-order
//!   sums over fixed blocks of [`PAIR_BLOCK`] values, added in block order,
//!   exactly as [`crate::inference::mean_blocked`] sums a stored vector;
//! * **exact order statistics** for percentile intervals, by an exact
//!   streaming selection (below), so an interval is the same float as
//!   [`crate::inference::quantile`] on the stored values.
//!
//! Counts of the shifted bootstrap need the mean of all B values, known only
//! at the end. fl(δ* − m) is monotone in δ*, so each count is the size of an
//! up-set (or a down-set) of δ*: values far from the estimated threshold
//! (running mean ± 8 × the spread of the final mean) are classified as they
//! arrive, those near it are kept, and at the end the classified values
//! nearest the threshold are checked against the exact predicate with the
//! exact blocked mean (see [`Side`]). When a check fails (an 8σ event) the
//! count takes a second pass over the same resamples: every resample is a
//! pure function of (seed, index), so a pass can be repeated exactly.
//!
//! # Exact streaming selection
//! Each wanted rank r (0-based, in `f64::total_cmp` order) keeps a window
//! of keys `[lo, hi]`, the counts of values seen below and above it, and the
//! keys inside it with their multiplicities. The window starts as every
//! key and shrinks as values arrive: after t of N values, the target's
//! current position is hypergeometric with mean r·t/N and standard
//! deviation σ = √(t q (1−q)(1 − t/N)), q = r/N (resamples are i.i.d., so
//! their order is exchangeable); keys whose positions lie more than
//! 8σ + 32 away from r·t/N are folded into the below/above counts. At the
//! end, if r falls inside the window the answer is read off exactly;
//! otherwise (a ≥ 8σ event, or a window with more than [`MAX_KEYS`]
//! distinct keys) another pass narrows the range deterministically: it
//! collects the range's keys when they are at most [`MAX_KEYS`], else it
//! histograms them into 4096 bins and recurses into the bin holding r. Every
//! path ends with the exact value; only the number of passes varies. The
//! window holds O(√B) keys, so memory does not grow with B in practice
//! (about 2 × 8σ distinct keys, a few thousand even at B = 10^9).

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::engine::check_resamples;
use crate::inference::{Alternative, BootVariant, PAIR_BLOCK};
use crate::{Error, Result};

/// Rows per chunk of a streamed test: the memory of a pass is
/// `CHUNK × systems` values.
pub const CHUNK: usize = PAIR_BLOCK;

/// Most distinct keys one selection window may hold before it falls back to
/// histogram passes.
pub const MAX_KEYS: usize = 1 << 20;

const BINS_LOG2: u32 = 12;
const FEED_STEP: usize = 8192;
/// Values between window shrinks in a pass's first 8 × FEED_STEP values.
const EARLY_STEP: usize = 512;

/// Order-preserving key of a float: `key(a) < key(b)` iff `a.total_cmp(&b)` is `Less`.
#[inline]
#[must_use]
pub fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// The float of a key.
#[inline]
#[must_use]
pub fn unkey(k: u64) -> f64 {
    if k >> 63 == 1 {
        f64::from_bits(k & !(1 << 63))
    } else {
        f64::from_bits(!k)
    }
}

enum Mode {
    /// First pass: adaptive window.
    Adaptive,
    /// Collect every key of `[lo, hi]` (known to be at most MAX_KEYS).
    Collect,
    /// Histogram `[lo, hi]` into bins of 2^shift keys.
    Histogram { shift: u32, bins: Vec<u64> },
}

/// One wanted rank of one quantity.
struct Select {
    rank: u64,
    /// the current range [lo, hi] and the count of values below lo (from earlier passes)
    range: (u64, u64),
    base: u64,
    /// values in the range (known after the first pass)
    in_range: u64,
    mode: Mode,
    // per pass:
    lo: u64,
    hi: u64,
    below: u64,
    above: u64,
    seen: u64,
    inside: BTreeMap<u64, u64>,
    n_inside: u64,
    overflow: bool,
    result: Option<f64>,
}

impl Select {
    fn new(rank: u64, total: u64) -> Self {
        Select {
            rank,
            range: (0, u64::MAX),
            base: 0,
            in_range: total,
            mode: Mode::Adaptive,
            lo: 0,
            hi: u64::MAX,
            below: 0,
            above: 0,
            seen: 0,
            inside: BTreeMap::new(),
            n_inside: 0,
            overflow: false,
            result: None,
        }
    }

    fn begin(&mut self) {
        self.lo = self.range.0;
        self.hi = self.range.1;
        self.below = 0;
        self.above = 0;
        self.seen = 0;
        self.inside.clear();
        self.n_inside = 0;
        self.overflow = false;
    }

    fn feed(&mut self, values: &[f64]) {
        if self.result.is_some() {
            return;
        }
        let (l0, h0) = self.range;
        match &mut self.mode {
            Mode::Histogram { shift, bins } => {
                for &v in values {
                    let k = key(v);
                    if k >= l0 && k <= h0 {
                        bins[((k - l0) >> *shift) as usize] += 1;
                    }
                }
            }
            Mode::Collect => {
                for &v in values {
                    let k = key(v);
                    if k >= l0 && k <= h0 {
                        *self.inside.entry(k).or_insert(0) += 1;
                    }
                }
            }
            Mode::Adaptive => {
                let mut rest = values;
                while !rest.is_empty() {
                    // shrink often while the window is young (every value would otherwise
                    // go into the map until the first FEED_STEP values had passed)
                    let step = if self.seen < 8 * FEED_STEP as u64 {
                        EARLY_STEP
                    } else {
                        FEED_STEP
                    };
                    let (part, tail) = rest.split_at(step.min(rest.len()));
                    rest = tail;
                    for &v in part {
                        self.seen += 1;
                        let k = key(v);
                        if k < self.lo {
                            self.below += 1;
                        } else if k > self.hi {
                            self.above += 1;
                        } else {
                            self.n_inside += 1;
                            if !self.overflow {
                                *self.inside.entry(k).or_insert(0) += 1;
                            }
                        }
                    }
                    self.shrink();
                }
            }
        }
    }

    /// Fold keys far from the target's expected position into the counts.
    fn shrink(&mut self) {
        if self.overflow {
            return;
        }
        let t = self.seen as f64;
        let n = self.in_range as f64;
        if self.seen >= 1024 {
            let q = (self.rank - self.base) as f64 / n;
            let sd = (t * q * (1.0 - q) * (1.0 - t / n)).max(0.0).sqrt();
            let margin = 8.0 * sd + 32.0;
            let e = q * t;
            // drop keys whose last position is below e - margin
            let mut pos = self.below as f64;
            let mut drop_lo = Vec::new();
            for (&k, &c) in &self.inside {
                if pos + c as f64 - 1.0 < e - margin {
                    drop_lo.push((k, c));
                    pos += c as f64;
                } else {
                    break;
                }
            }
            for (k, c) in drop_lo {
                self.inside.remove(&k);
                self.below += c;
                self.n_inside -= c;
                self.lo = k.saturating_add(1);
            }
            // drop keys whose first position is above e + margin
            let mut pos = (self.below + self.n_inside) as f64;
            let mut drop_hi = Vec::new();
            for (&k, &c) in self.inside.iter().rev() {
                pos -= c as f64;
                if pos > e + margin {
                    drop_hi.push((k, c));
                } else {
                    break;
                }
            }
            for (k, c) in drop_hi {
                self.inside.remove(&k);
                self.above += c;
                self.n_inside -= c;
                self.hi = k.saturating_sub(1);
            }
        }
        if self.inside.len() > MAX_KEYS {
            self.overflow = true;
            self.inside.clear();
            // freeze the window: later values count below, inside or above it
            // as the window stands now.
        }
    }

    /// The key at position `p` (0-based) of the collected keys.
    fn nth(&self, p: u64) -> u64 {
        let mut acc = 0;
        for (&k, &c) in &self.inside {
            acc += c;
            if p < acc {
                return k;
            }
        }
        unreachable!("position inside the collected keys")
    }

    /// Finish a pass; returns true when the value is known.
    fn end(&mut self) -> bool {
        if self.result.is_some() {
            return true;
        }
        let p = self.rank - self.base;
        let (l0, h0) = self.range;
        match std::mem::replace(&mut self.mode, Mode::Collect) {
            Mode::Adaptive => {
                if !self.overflow && p >= self.below && p < self.below + self.n_inside {
                    self.result = Some(unkey(self.nth(p - self.below)));
                } else if p < self.below {
                    self.narrow(l0, self.lo.saturating_sub(1), self.base, self.below);
                } else if p < self.below + self.n_inside {
                    self.narrow(self.lo, self.hi, self.base + self.below, self.n_inside);
                } else {
                    let base = self.base + self.below + self.n_inside;
                    self.narrow(self.hi.saturating_add(1), h0, base, self.above);
                }
            }
            Mode::Collect => {
                self.result = Some(unkey(self.nth(p)));
            }
            Mode::Histogram { shift, bins } => {
                let mut acc = 0u64;
                for (i, &c) in bins.iter().enumerate() {
                    if p < acc + c {
                        let lo = l0 + ((i as u64) << shift);
                        let hi = lo.saturating_add((1u64 << shift) - 1).min(h0);
                        let base = self.base + acc;
                        self.narrow(lo, hi, base, c);
                        break;
                    }
                    acc += c;
                }
            }
        }
        self.result.is_some()
    }

    fn narrow(&mut self, lo: u64, hi: u64, base: u64, count: u64) {
        self.range = (lo, hi);
        self.base = base;
        self.in_range = count;
        if lo == hi {
            self.result = Some(unkey(lo));
        } else if count as usize <= MAX_KEYS {
            self.mode = Mode::Collect;
        } else {
            let span = hi - lo;
            let shift = (64 - span.leading_zeros()).saturating_sub(BINS_LOG2);
            let nbins = (span >> shift) as usize + 1;
            self.mode = Mode::Histogram {
                shift,
                bins: vec![0; nbins],
            };
        }
    }
}

/// One side of a shifted count: values v with fl(v − m) ≥ c (`up`) or
/// fl(v − m) ≤ c, m the blocked mean known only at the end. fl(v − m) is
/// monotone in v, so the side is an up-set (or a down-set) of v: values far
/// above or below the estimated threshold m_t + c are classified as they
/// arrive; those near it are kept (with multiplicities); the extreme
/// classified values are checked against the exact predicate at the end,
/// which makes the count exact or sends it to a second pass.
struct Side {
    up: bool,
    c: f64,
    lo: f64,
    hi: f64,
    /// values classified into the set, and the one nearest the threshold
    inside: u64,
    edge_in: Option<f64>,
    /// the excluded value nearest the threshold
    edge_out: Option<f64>,
    kept: BTreeMap<u64, u64>,
    failed: bool,
}

impl Side {
    fn new(up: bool, c: f64) -> Self {
        Side {
            up,
            c,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            inside: 0,
            edge_in: None,
            edge_out: None,
            kept: BTreeMap::new(),
            failed: false,
        }
    }

    fn pred(&self, v: f64, m: f64) -> bool {
        if self.up {
            v - m >= self.c
        } else {
            v - m <= self.c
        }
    }

    /// Classify `v` against the window [lo, hi].
    fn classify(&mut self, v: f64) -> bool {
        let (into, out) = if self.up {
            (v > self.hi, v < self.lo)
        } else {
            (v < self.lo, v > self.hi)
        };
        if into {
            self.inside += 1;
            let e = self.edge_in.get_or_insert(v);
            *e = if self.up { e.min(v) } else { e.max(v) };
        } else if out {
            let e = self.edge_out.get_or_insert(v);
            *e = if self.up { e.max(v) } else { e.min(v) };
        }
        into || out
    }

    fn feed(&mut self, v: f64) {
        if !self.classify(v) && !self.failed {
            *self.kept.entry(key(v)).or_insert(0) += 1;
        }
    }

    /// Move to window [lo, hi]; kept values outside it are classified.
    fn set_window(&mut self, lo: f64, hi: f64) {
        self.lo = lo;
        self.hi = hi;
        if self.failed {
            return;
        }
        let out: Vec<(u64, u64)> = self
            .kept
            .iter()
            .filter(|(&k, _)| {
                let v = unkey(k);
                v < lo || v > hi
            })
            .map(|(&k, &c)| (k, c))
            .collect();
        for (k, c) in out {
            self.kept.remove(&k);
            let v = unkey(k);
            for _ in 0..c.min(1) {
                self.classify(v);
            }
            if c > 1 && (if self.up { v > hi } else { v < lo }) {
                self.inside += c - 1;
            }
        }
        if self.kept.len() > MAX_KEYS {
            self.failed = true;
            self.kept.clear();
        }
    }

    /// The exact count with the final mean, or None (a second pass is needed).
    fn resolve(&self, m: f64) -> Option<u64> {
        if self.failed {
            return None;
        }
        if let Some(v) = self.edge_in {
            if !self.pred(v, m) {
                return None;
            }
        }
        if let Some(v) = self.edge_out {
            if self.pred(v, m) {
                return None;
            }
        }
        let near: u64 = self
            .kept
            .iter()
            .filter(|(&k, _)| self.pred(unkey(k), m))
            .map(|(_, &c)| c)
            .sum();
        Some(self.inside + near)
    }
}

/// A shifted rule counted in the first pass (see [`Side`]).
struct Centred {
    sign: f64,
    /// every value counts (two-sided with δ = 0)
    all: bool,
    sides: Vec<Side>,
}

impl Centred {
    fn of(rule: &Rule) -> Option<Self> {
        let Rule::Bootstrap {
            variant: BootVariant::Shifted,
            alternative,
            observed,
            negate,
            ..
        } = *rule
        else {
            return None;
        };
        let (all, sides) = match alternative {
            Alternative::TwoSided => {
                let a = observed.abs();
                if a == 0.0 {
                    (true, vec![])
                } else {
                    (false, vec![Side::new(true, a), Side::new(false, -a)])
                }
            }
            Alternative::Greater => (false, vec![Side::new(true, observed)]),
            Alternative::Less => (false, vec![Side::new(false, observed)]),
        };
        Some(Centred {
            sign: if negate { -1.0 } else { 1.0 },
            all,
            sides,
        })
    }
}

/// Which value of a row a rule or a quantile reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// θ: y − x for two systems, the value itself for one.
    Theta,
    /// The first system's value.
    X,
    /// The second system's value.
    Y,
}

/// What to count on θ (or on −θ when `negate`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// A paired-bootstrap p-value, as [`crate::inference::bootstrap_pvalue`].
    Bootstrap {
        variant: BootVariant,
        alternative: Alternative,
        orient: f64,
        observed: f64,
        negate: bool,
    },
    /// A permutation p-value, as [`crate::inference::permutation_pvalue`].
    Permutation {
        alternative: Alternative,
        observed: f64,
    },
    /// θ* < v (the BCa bias correction).
    Less(f64),
    /// θ* ≤ v.
    LessEq(f64),
}

impl Rule {
    fn needs_mean(&self) -> bool {
        matches!(
            self,
            Rule::Bootstrap {
                variant: BootVariant::Shifted | BootVariant::SacreBleu | BootVariant::Moses,
                ..
            }
        )
    }

    /// The sacrebleu and Moses rules centre |θ| (counted in a second pass,
    /// once the blocked mean of |θ| is known).
    fn centres_abs(&self) -> bool {
        matches!(
            self,
            Rule::Bootstrap {
                variant: BootVariant::SacreBleu | BootVariant::Moses,
                ..
            }
        )
    }
}

/// A quantile wanted of a quantity: numpy's "linear" method at level `q`.
#[derive(Clone, Copy, Debug)]
struct Quantile {
    quantity: Quantity,
    q: f64,
    prev: usize,
    next: usize,
    /// how many of the values the quantile is of (the smallest `n` in `f64::total_cmp` order)
    n: usize,
}

/// The streaming summary of one test: counts, the blocked mean of θ and
/// exact quantiles, over `total` rows of `stride` values (1 or 2).
pub struct Summary {
    total: u64,
    stride: usize,
    rules: Vec<Rule>,
    counts: Vec<u64>,
    /// per rule: its count is final
    done: Vec<bool>,
    /// per rule: the first-pass count of a shifted rule
    centred: Vec<Option<Centred>>,
    /// running mean and sum of squared deviations of θ (first pass; for windows only)
    run_n: u64,
    run_mean: f64,
    run_m2: f64,
    quantiles: Vec<Quantile>,
    /// selections per (quantity, rank)
    selects: Vec<(Quantity, Select)>,
    // blocked mean of θ, and of |θ|
    block_sum: f64,
    mean_total: f64,
    mean: Option<f64>,
    abs_block_sum: f64,
    abs_mean_total: f64,
    abs_mean: Option<f64>,
    // pass state
    pass: usize,
    pos: u64,
    scratch: [Vec<f64>; 3],
}

impl Summary {
    /// A summary of `total` rows of `stride` values (1: θ is the value; 2: θ = y − x).
    pub fn new(total: u64, stride: usize) -> Result<Self> {
        check_resamples(total)?;
        if stride != 1 && stride != 2 {
            return Err(Error::input("a summary reads one or two systems per row"));
        }
        Ok(Summary {
            total,
            stride,
            rules: Vec::new(),
            counts: Vec::new(),
            done: Vec::new(),
            centred: Vec::new(),
            run_n: 0,
            run_mean: 0.0,
            run_m2: 0.0,
            quantiles: Vec::new(),
            selects: Vec::new(),
            block_sum: 0.0,
            mean_total: 0.0,
            mean: None,
            abs_block_sum: 0.0,
            abs_mean_total: 0.0,
            abs_mean: None,
            pass: 0,
            pos: 0,
            scratch: [Vec::new(), Vec::new(), Vec::new()],
        })
    }

    /// Count `rule` (before the first pass).
    pub fn add_rule(&mut self, rule: Rule) -> Result<()> {
        if self.pass > 0 {
            return Err(Error::Internal(
                "rules are added before the first pass".into(),
            ));
        }
        self.centred.push(Centred::of(&rule));
        self.rules.push(rule);
        self.counts.push(0);
        self.done.push(false);
        Ok(())
    }

    /// Ask for quantile `q` of `quantity` (any time; later requests take extra passes).
    pub fn add_quantile(&mut self, quantity: Quantity, q: f64) -> Result<usize> {
        self.add_quantile_of(quantity, q, self.total)
    }

    /// Quantile `q` of the `n` smallest values of `quantity` in
    /// `f64::total_cmp` order: with NaN fed as positive NaN (above +∞) and
    /// `n` the number of other values, the quantile of the defined values.
    pub fn add_quantile_of(&mut self, quantity: Quantity, q: f64, n: u64) -> Result<usize> {
        if self.stride == 1 && quantity == Quantity::Y {
            return Err(Error::input("one system has no second value"));
        }
        if !(0.0..=1.0).contains(&q) {
            return Err(Error::input(format!("quantile level {q} is not in [0, 1]")));
        }
        if n == 0 || n > self.total {
            return Err(Error::input(format!(
                "a quantile of {n} of {} values",
                self.total
            )));
        }
        // numpy's "linear" indices, as crate::inference::quantile
        let n = n as usize;
        let vi = (n as f64 - 1.0) * q;
        let (prev, next) = if vi >= (n - 1) as f64 {
            (n - 1, n - 1)
        } else if vi < 0.0 {
            (0, 0)
        } else {
            let p = vi.floor() as usize;
            (p, p + 1)
        };
        for r in [prev, next] {
            if !self
                .selects
                .iter()
                .any(|(qt, s)| *qt == quantity && s.rank == r as u64)
            {
                self.selects
                    .push((quantity, Select::new(r as u64, self.total)));
            }
        }
        self.quantiles.push(Quantile {
            quantity,
            q,
            prev,
            next,
            n,
        });
        Ok(self.quantiles.len() - 1)
    }

    /// Whether another pass over the resamples is needed.
    #[must_use]
    pub fn pending(&self) -> bool {
        self.mean.is_none()
            || self.done.iter().any(|d| !d)
            || self.selects.iter().any(|(_, s)| s.result.is_none())
    }

    /// Passes made so far.
    #[must_use]
    pub fn passes(&self) -> usize {
        self.pass
    }

    /// Resamples per pass.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Values per row (systems).
    #[must_use]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Passes still expected (one; a second is an exception).
    #[must_use]
    pub fn expected_passes(&self) -> usize {
        1
    }

    /// Whether rule `i` is counted by comparison in this pass.
    fn counting(&self, i: usize) -> bool {
        !self.done[i] && (self.mean.is_some() || !self.rules[i].needs_mean())
    }

    /// Start a pass.
    pub fn begin_pass(&mut self) {
        self.pos = 0;
        for i in 0..self.rules.len() {
            if self.counting(i) {
                self.counts[i] = 0;
            }
        }
        for (_, s) in &mut self.selects {
            if s.result.is_none() {
                s.begin();
            }
        }
    }

    /// Feed the next rows (`rows × stride` values, in resample order).
    pub fn feed(&mut self, rows: &[f64]) -> Result<()> {
        let st = self.stride;
        if rows.len() % st != 0 {
            return Err(Error::Internal("rows do not fit the stride".into()));
        }
        let nrows = rows.len() / st;
        if self.pos + nrows as u64 > self.total {
            return Err(Error::Internal("more rows than resamples".into()));
        }
        let counting: Vec<bool> = (0..self.rules.len()).map(|i| self.counting(i)).collect();
        let [theta, xs, ys] = &mut self.scratch;
        theta.clear();
        xs.clear();
        ys.clear();
        for r in rows.chunks_exact(st) {
            if st == 2 {
                theta.push(r[1] - r[0]);
                xs.push(r[0]);
                ys.push(r[1]);
            } else {
                theta.push(r[0]);
            }
        }
        if self.pass == 0 {
            // blocked mean, block boundaries at multiples of PAIR_BLOCK
            let mut pos = self.pos;
            for &d in theta.iter() {
                self.block_sum += d;
                self.abs_block_sum += d.abs();
                pos += 1;
                if pos % PAIR_BLOCK as u64 == 0 {
                    self.mean_total += self.block_sum;
                    self.block_sum = 0.0;
                    self.abs_mean_total += self.abs_block_sum;
                    self.abs_block_sum = 0.0;
                }
            }
        }
        for (i, rule) in self.rules.iter().enumerate() {
            if counting[i] {
                let mean = if rule.centres_abs() {
                    self.abs_mean
                } else {
                    self.mean
                };
                self.counts[i] += count(rule, theta, mean);
            }
        }
        if self.pass == 0 && self.centred.iter().any(Option::is_some) {
            // shifted rules: classify against windows from the running mean so far,
            // re-centring the windows every FEED_STEP values
            for part in theta.chunks(FEED_STEP) {
                for c in self.centred.iter_mut().flatten() {
                    for side in &mut c.sides {
                        for &d in part {
                            side.feed(c.sign * d);
                        }
                    }
                }
                for &d in part {
                    self.run_n += 1;
                    let delta = d - self.run_mean;
                    self.run_mean += delta / self.run_n as f64;
                    self.run_m2 += delta * (d - self.run_mean);
                }
                let t = self.run_n as f64;
                let b = self.total as f64;
                if self.run_n >= 1024 {
                    let sd = (self.run_m2 / (t - 1.0)).max(0.0).sqrt();
                    // spread of the final mean around the running one
                    let spread = sd * ((1.0 - t / b) / t.sqrt() + (b - t).max(0.0).sqrt() / b);
                    for c in self.centred.iter_mut().flatten() {
                        let m = c.sign * self.run_mean;
                        for side in &mut c.sides {
                            let centre = m + side.c;
                            let w = 8.0 * spread + 1e-9 * (centre.abs() + sd) + f64::MIN_POSITIVE;
                            side.set_window(centre - w, centre + w);
                        }
                    }
                }
            }
        }
        let (theta, xs, ys) = (&*theta, &*xs, &*ys);
        let selects = &mut self.selects;
        crate::engine::with_pool(0, || {
            selects.par_iter_mut().for_each(|(qt, s)| {
                let v = match qt {
                    Quantity::Theta => theta,
                    Quantity::X => xs,
                    Quantity::Y => ys,
                };
                s.feed(v);
            });
        })?;
        self.pos += nrows as u64;
        Ok(())
    }

    /// End a pass; returns whether another pass is needed.
    pub fn end_pass(&mut self) -> Result<bool> {
        if self.pos != self.total {
            return Err(Error::Internal(format!(
                "a pass saw {} of {} resamples",
                self.pos, self.total
            )));
        }
        let counting: Vec<bool> = (0..self.rules.len()).map(|i| self.counting(i)).collect();
        if self.pass == 0 {
            if self.total % PAIR_BLOCK as u64 != 0 {
                self.mean_total += self.block_sum;
                self.abs_mean_total += self.abs_block_sum;
            }
            let m = self.mean_total / self.total as f64;
            self.mean = Some(m);
            self.abs_mean = Some(self.abs_mean_total / self.total as f64);
            for (i, c) in self.centred.iter_mut().enumerate() {
                let Some(c) = c.take() else { continue };
                let counted = if c.all {
                    Some(self.total)
                } else {
                    c.sides
                        .iter()
                        .map(|s| s.resolve(c.sign * m))
                        .sum::<Option<u64>>()
                };
                if let Some(n) = counted {
                    self.counts[i] = n;
                    self.done[i] = true;
                }
            }
        }
        for (i, &c) in counting.iter().enumerate() {
            if c {
                self.done[i] = true;
            }
        }
        for (_, s) in &mut self.selects {
            s.end();
        }
        self.pass += 1;
        Ok(self.pending())
    }

    /// The counts of the rules, in order.
    #[must_use]
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The blocked mean of θ.
    #[must_use]
    pub fn mean(&self) -> Option<f64> {
        self.mean
    }

    /// Quantile `i` (numpy's "linear"), once known.
    #[must_use]
    pub fn quantile(&self, i: usize) -> Option<f64> {
        let q = self.quantiles.get(i)?;
        let get = |r: usize| {
            self.selects
                .iter()
                .find(|(qt, s)| *qt == q.quantity && s.rank == r as u64)
                .and_then(|(_, s)| s.result)
        };
        let a = get(q.prev)?;
        let b = get(q.next)?;
        Some(crate::inference::lerp(a, b, q.q, q.n))
    }

    /// Distinct values held now by all selections and shifted counts (for
    /// tests of the memory bound).
    #[must_use]
    pub fn held_keys(&self) -> usize {
        self.selects
            .iter()
            .map(|(_, s)| s.inside.len())
            .sum::<usize>()
            + self
                .centred
                .iter()
                .flatten()
                .flat_map(|c| c.sides.iter().map(|s| s.kept.len()))
                .sum::<usize>()
    }
}

fn count(rule: &Rule, theta: &[f64], mean: Option<f64>) -> u64 {
    use crate::inference::{bootstrap_exceeds, permutation_exceeds};
    match *rule {
        Rule::Bootstrap {
            variant,
            alternative,
            orient,
            observed,
            negate,
        } => {
            let abs = matches!(variant, BootVariant::SacreBleu | BootVariant::Moses);
            let m = mean.map(|m| if negate && !abs { -m } else { m });
            let s = if negate { -1.0 } else { 1.0 };
            theta
                .iter()
                .filter(|&&d| bootstrap_exceeds(s * d, observed, variant, alternative, orient, m))
                .count() as u64
        }
        Rule::Permutation {
            alternative,
            observed,
        } => theta
            .iter()
            .filter(|&&d| permutation_exceeds(d, observed, alternative))
            .count() as u64,
        Rule::Less(v) => theta.iter().filter(|&&d| d < v).count() as u64,
        Rule::LessEq(v) => theta.iter().filter(|&&d| d <= v).count() as u64,
    }
}

/// Run passes over `total` resamples until `summary` is complete:
/// `produce(start, count)` returns the rows of resamples `start .. start + count`.
pub fn run(
    summary: &mut Summary,
    mut produce: impl FnMut(u64, usize) -> Result<Vec<f64>>,
) -> Result<()> {
    while summary.pending() {
        summary.begin_pass();
        let mut start = 0u64;
        while start < summary.total {
            let len = (summary.total - start).min(CHUNK as u64) as usize;
            let rows = produce(start, len)?;
            summary.feed(&rows)?;
            start += len as u64;
        }
        summary.end_pass()?;
        if summary.pass > 64 {
            return Err(Error::Internal("selection did not converge".into()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inference::{mean_blocked, quantile};

    fn lcg(seed: u64, n: usize) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect()
    }

    fn stream_quantiles(v: &[f64], qs: &[f64]) -> (Vec<f64>, usize) {
        let mut s = Summary::new(v.len() as u64, 1).unwrap();
        for &q in qs {
            s.add_quantile(Quantity::Theta, q).unwrap();
        }
        run(&mut s, |start, len| {
            Ok(v[start as usize..start as usize + len].to_vec())
        })
        .unwrap();
        (
            (0..qs.len()).map(|i| s.quantile(i).unwrap()).collect(),
            s.passes(),
        )
    }

    #[test]
    fn keys_keep_total_order() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            1e-310,
            1.0,
            f64::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} {}", w[0], w[1]);
        }
        for &x in &xs {
            assert_eq!(unkey(key(x)).to_bits(), x.to_bits());
        }
    }

    #[test]
    fn exact_quantiles_match_sorting() {
        let qs = [0.0, 0.025, 0.05, 0.5, 0.975, 1.0];
        for (seed, n) in [(1, 1), (2, 2), (3, 7), (4, 1000), (5, 70_000), (6, 300_001)] {
            let v = lcg(seed, n);
            let (got, _) = stream_quantiles(&v, &qs);
            for (g, &q) in got.iter().zip(&qs) {
                let mut w = v.clone();
                assert_eq!(g.to_bits(), quantile(&mut w, q).to_bits(), "n {n} q {q}");
            }
        }
    }

    #[test]
    fn ties_and_few_values() {
        // values from a handful of levels: heavy ties at every rank
        let v: Vec<f64> = lcg(9, 200_000)
            .iter()
            .map(|x| (x * 5.0).floor() / 5.0)
            .collect();
        let qs = [0.025, 0.5, 0.975];
        let (got, passes) = stream_quantiles(&v, &qs);
        assert_eq!(passes, 1);
        for (g, &q) in got.iter().zip(&qs) {
            let mut w = v.clone();
            assert_eq!(g.to_bits(), quantile(&mut w, q).to_bits());
        }
    }

    #[test]
    fn adversarial_order_falls_back_exactly() {
        // sorted input breaks exchangeability: the window must fall back
        let mut v = lcg(11, 150_000);
        v.sort_by(f64::total_cmp);
        v.reverse();
        let qs = [0.025, 0.975];
        let (got, passes) = stream_quantiles(&v, &qs);
        assert!(passes > 1);
        for (g, &q) in got.iter().zip(&qs) {
            let mut w = v.clone();
            assert_eq!(g.to_bits(), quantile(&mut w, q).to_bits());
        }
    }

    #[test]
    fn blocked_mean_matches() {
        for n in [1, 5, PAIR_BLOCK, PAIR_BLOCK + 3, 3 * PAIR_BLOCK] {
            let v = lcg(n as u64, n);
            let mut s = Summary::new(n as u64, 1).unwrap();
            run(&mut s, |a, l| Ok(v[a as usize..a as usize + l].to_vec())).unwrap();
            assert_eq!(s.mean().unwrap().to_bits(), mean_blocked(&v).to_bits());
        }
    }

    #[test]
    fn window_stays_small() {
        let n = 2_000_000usize;
        let mut s = Summary::new(n as u64, 1).unwrap();
        s.add_quantile(Quantity::Theta, 0.025).unwrap();
        s.add_quantile(Quantity::Theta, 0.975).unwrap();
        s.add_rule(Rule::Bootstrap {
            variant: BootVariant::Shifted,
            alternative: Alternative::TwoSided,
            orient: 1.0,
            observed: 2f64.powi(50),
            negate: false,
        })
        .unwrap();
        s.begin_pass();
        let mut most = 0;
        let mut state = 77u64;
        for _ in 0..n / CHUNK + 1 {
            let len = CHUNK.min(n - s.pos as usize);
            if len == 0 {
                break;
            }
            let rows: Vec<f64> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 11) as f64
                })
                .collect();
            s.feed(&rows).unwrap();
            most = most.max(s.held_keys());
        }
        assert!(!s.end_pass().unwrap());
        assert!(most < 40_000, "{most}");
    }

    fn shifted_counts(v: &[f64], obs: f64, alt: Alternative, negate: bool) -> (u64, usize) {
        let mut s = Summary::new(v.len() as u64, 1).unwrap();
        s.add_rule(Rule::Bootstrap {
            variant: BootVariant::Shifted,
            alternative: alt,
            orient: 1.0,
            observed: obs,
            negate,
        })
        .unwrap();
        run(&mut s, |a, l| Ok(v[a as usize..a as usize + l].to_vec())).unwrap();
        (s.counts()[0], s.passes())
    }

    #[test]
    fn shifted_counts_in_one_pass_equal_stored() {
        use crate::inference::bootstrap_pvalue;
        for (seed, n) in [(1, 3), (2, 1500), (3, 70_000), (4, 200_003)] {
            let v: Vec<f64> = lcg(seed, n).iter().map(|x| x - 0.45).collect();
            let discrete: Vec<f64> = v.iter().map(|x| (x * 8.0).round() / 8.0).collect();
            for data in [&v, &discrete] {
                let m = mean_blocked(data);
                for obs in [0.0, 0.05, -0.2, 0.125, m, -m, 0.3] {
                    for alt in [
                        Alternative::TwoSided,
                        Alternative::Greater,
                        Alternative::Less,
                    ] {
                        for negate in [false, true] {
                            let vv: Vec<f64> = if negate {
                                data.iter().map(|x| -x).collect()
                            } else {
                                data.to_vec()
                            };
                            let want =
                                bootstrap_pvalue(&vv, obs, BootVariant::Shifted, alt, 1.0, false);
                            let (got, passes) = shifted_counts(data, obs, alt, negate);
                            assert_eq!(got, want.count, "n {n} obs {obs} {alt:?} {negate}");
                            if n > 1024 && data == &v {
                                assert_eq!(passes, 1, "n {n} obs {obs} {alt:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shifted_counts_survive_adversarial_order() {
        use crate::inference::bootstrap_pvalue;
        let mut v = lcg(5, 150_000);
        v.sort_by(f64::total_cmp);
        let want = bootstrap_pvalue(
            &v,
            0.1,
            BootVariant::Shifted,
            Alternative::TwoSided,
            1.0,
            false,
        );
        let (got, _) = shifted_counts(&v, 0.1, Alternative::TwoSided, false);
        assert_eq!(got, want.count);
    }

    #[test]
    fn resample_bounds() {
        use crate::engine::MAX_RESAMPLES;
        assert!(check_resamples(0).is_err());
        assert!(check_resamples(MAX_RESAMPLES).is_ok());
        assert!(check_resamples(MAX_RESAMPLES + 1).is_err());
        assert!(Summary::new(1 << 63, 2).is_err());
    }
}
