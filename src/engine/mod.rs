//! Resampling drivers: paired bootstrap (over items or over distinct rows),
//! approximate randomization and exact permutation.
//!
//! Statistics arrive item-major: `n` items × `width` columns, where the
//! columns of system `s` are `s*k .. (s+1)*k`. Work is split into fixed
//! blocks of [`BLOCK`] resamples; each resample draws from its own stream
//! (see [`crate::rng`]) and writes its own output row, so results do not
//! depend on the number of threads. Sums inside a resample run in a fixed
//! order: integer statistics are summed exactly in integers; float
//! statistics of a bootstrap resample are summed in draw order. (Four
//! resamples run interleaved to hide the adds' latency; each still sees only
//! its own draws, in order.) Swap sums are described at [`Swapper`].
//!
//! The module is split along what it holds: `pack` (exact packing of the
//! statistics, distinct columns and rows), `bootstrap` (the bootstrap, its
//! summing loops and its drivers; the SIMD draws live in [`crate::simd`]),
//! `swap` (approximate randomization and exact permutation), `gemm`
//! (a block of resamples as one product of counts by statistics: all pairs
//! and wide tables), `items` (item statistics recomputed on each resample's
//! items, and [`Draws`], the one per-resample draw block — indices, counts or
//! swaps of resample `b` from its stream — that the item statistics, the
//! clusters, the meta-evaluation ([`crate::meta`]), ASO ([`crate::aso`]) and
//! the battles' bootstrap ([`crate::battles`]) all draw from), `clusters`
//! (the same tests drawing or swapping whole clusters of items: a
//! [`Clusters`] value holds the assignment), `designs` (the two-level and
//! crossed bootstraps of a table of one row per observation: a [`Design`]
//! holds the rows' items and repeats or prompts) and `scheme` (how resamples
//! are drawn, as one value: [`Scheme`], rows, clusters, two-level or crossed).
//!
//! Every driver takes a [`Job`] (seed, sub-stream, stream version, the
//! resamples `start .. start + count`, threads, progress). A resampling
//! plan — scheme × draw × input, asked one question — is [`crate::plan`],
//! the layer the Python bindings call; it only dispatches to the drivers here.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::metric::Metric;
use crate::rng::Version;
use crate::{Error, Result};

mod bootstrap;
mod clusters;
mod designs;
mod gemm;
mod items;
mod pack;
mod scheme;
mod swap;

pub use bootstrap::{
    bootstrap_sums, bootstrap_values, bootstrap_values_range, draw_count_floor, Bootstrap,
};
pub use clusters::{
    cluster_bootstrap_sums, cluster_bootstrap_values, cluster_item_bootstrap_values,
    cluster_item_permutation_values, cluster_permutation_values, cluster_swap_values_range,
    Clusters,
};
pub use designs::{design_bootstrap_sums, design_bootstrap_values, Counts, Design, Level2};
pub use items::{index_block, item_bootstrap_values, item_permutation_values, swap_block, Draws};
pub use scheme::{
    scheme_bootstrap_sums, scheme_bootstrap_values, scheme_item_bootstrap_values,
    scheme_item_permutation_values, scheme_permutation_sums, scheme_permutation_values, Scheme,
};
pub use swap::{
    exact_permutation_values, permutation_sums, permutation_values, swap_values_range, Swapper,
};

/// Resamples per work unit. Fixed, so block boundaries never depend on threads.
pub const BLOCK: usize = 256;
/// Largest number of resamples a job accepts: 2^40 (about 1.1 × 10^12).
/// Resample indices, counts and progress are 64-bit, so this bound is far
/// from any overflow; it exists so that a typo (`-n 1e15`) is an error
/// instead of a run of years.
pub const MAX_RESAMPLES: u64 = 1 << 40;
/// Largest item count for the exact permutation test (2^n arrangements).
pub const MAX_EXACT_ITEMS: usize = 26;

/// Shared progress counter and cancel flag, polled between blocks.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub cancel: AtomicBool,
}

impl Progress {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

/// Check a resample count against [`MAX_RESAMPLES`].
pub fn check_resamples(b: u64) -> Result<()> {
    if b == 0 {
        return Err(Error::input("n_resamples must be at least 1"));
    }
    if b > MAX_RESAMPLES {
        return Err(Error::input(format!(
            "n_resamples = {b} is above the limit of 2^40 = {MAX_RESAMPLES}; use fewer resamples \
             (10^6 already resolves p-values to about 0.001)"
        )));
    }
    Ok(())
}

/// One run of resamples: which stream (`seed`, sub-stream `sub`, stream
/// version `stream`), which resamples (`start .. start + count`), on how many
/// threads, and the shared progress counter and cancel flag. Every driver
/// takes one; a resample's output is a pure function of (stream version,
/// seed, sub, its index), never of the job's split or threads.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub seed: u64,
    /// The stream version every draw of the job uses ([`crate::rng`]).
    pub stream: Version,
    /// The sub-stream: 0 by default; independent resamples per system pair
    /// use others. (Meta-evaluation keys its draws by its own sub-streams.)
    pub sub: u64,
    /// The first resample.
    pub start: u64,
    /// How many resamples.
    pub count: usize,
    /// Worker threads (0: one per core).
    pub threads: usize,
    pub progress: &'a Progress,
}

impl<'a> Job<'a> {
    /// Resamples `0 .. count` of `seed`'s default stream (the default version).
    #[must_use]
    pub fn new(seed: u64, count: usize, threads: usize, progress: &'a Progress) -> Self {
        Job {
            seed,
            stream: Version::default(),
            sub: 0,
            start: 0,
            count,
            threads,
            progress,
        }
    }

    /// The same job drawing from stream version `stream`.
    #[must_use]
    pub fn with_stream(self, stream: Version) -> Self {
        Job { stream, ..self }
    }

    /// The same job on sub-stream `sub`.
    #[must_use]
    pub fn on_sub(self, sub: u64) -> Self {
        Job { sub, ..self }
    }

    /// The same stream, threads and progress over resamples `start .. start + count`.
    #[must_use]
    pub fn range(self, start: u64, count: usize) -> Self {
        Job {
            start,
            count,
            ..self
        }
    }
}

/// How bootstrap resamples are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resampling {
    /// Draw n item indices per resample.
    Items,
    /// Draw multinomial counts over distinct rows (cost follows distinct rows).
    Distinct,
    /// `Distinct` when distinct rows are at most n/32, else `Items`.
    Auto,
}

/// A read-only item-major table of statistics.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    pub data: &'a [f64],
    pub n: usize,
    pub width: usize,
}

impl<'a> Table<'a> {
    pub fn new(data: &'a [f64], n: usize, width: usize) -> Result<Self> {
        if n == 0 {
            return Err(Error::Input(
                "no items: the statistics have zero items".into(),
            ));
        }
        if width == 0 {
            return Err(Error::Input("no statistics: width is zero".into()));
        }
        if data.len() != n * width {
            return Err(Error::Input(format!(
                "data has {} values, expected {} items x {} statistics",
                data.len(),
                n,
                width
            )));
        }
        if let Some(pos) = data.iter().position(|v| !v.is_finite()) {
            return Err(Error::Input(format!(
                "statistic at item {}, column {} is not finite ({})",
                pos / width + 1,
                pos % width + 1,
                data[pos]
            )));
        }
        if n as u64 > 1 << 32 {
            return Err(Error::Input("more than 2^32 items".into()));
        }
        // A resample sums n values of a column: |sum| <= n * max|v| must be finite.
        let (pos, max_abs) = data.iter().enumerate().fold((0, 0.0f64), |(p, m), (i, v)| {
            if v.abs() > m {
                (i, v.abs())
            } else {
                (p, m)
            }
        });
        if !(max_abs * n as f64).is_finite() {
            return Err(Error::Input(format!(
                "statistic at item {}, column {} is {:e}: sums of {} such values overflow float64; \
                 rescale the values (their magnitude must stay below {:e})",
                pos / width + 1,
                pos % width + 1,
                data[pos],
                n,
                f64::MAX / n as f64
            )));
        }
        Ok(Table { data, n, width })
    }

    fn row(&self, i: usize) -> &'a [f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    fn max_abs(&self) -> f64 {
        self.data.iter().fold(0.0f64, |m, v| m.max(v.abs()))
    }

    fn all_integral(&self) -> bool {
        self.data.iter().all(|v| v.fract() == 0.0)
    }
}

/// Largest thread count a call may ask for.
pub const MAX_THREADS: usize = 1024;

/// The pool of `threads` threads (0: one per core), built once per process
/// and thread count and kept, so calls do not start threads. rayon's global
/// pool is never used: a process forked from one that had started it (a
/// `ProcessPoolExecutor` worker) would find its threads gone and wait
/// forever; these pools are rebuilt after a fork (keyed by process id).
pub fn pool(threads: usize) -> Result<std::sync::Arc<rayon::ThreadPool>> {
    use std::sync::{Arc, Mutex, OnceLock};
    type Pools = Mutex<(u32, Vec<(usize, Arc<rayon::ThreadPool>)>)>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    if threads > MAX_THREADS {
        return Err(Error::input(format!(
            "threads = {threads} is above the limit of {MAX_THREADS}"
        )));
    }
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    } else {
        threads
    };
    let pid = std::process::id();
    let mut guard = POOLS
        .get_or_init(|| Mutex::new((pid, Vec::new())))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if guard.0 != pid {
        // forked: the parent's threads do not exist here; never drop their pools
        for p in guard.1.drain(..) {
            std::mem::forget(p);
        }
        guard.0 = pid;
    }
    if let Some((_, p)) = guard.1.iter().find(|(t, _)| *t == threads) {
        return Ok(Arc::clone(p));
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("sigfast-{threads}-{i}"))
            .build()
            .map_err(|e| Error::Internal(format!("cannot start threads: {e}")))?,
    );
    guard.1.push((threads, Arc::clone(&p)));
    Ok(p)
}

/// Run `f` in the pool of `threads` threads (0: one per core), see [`pool`].
/// Results never depend on the pool: work is split into fixed blocks.
pub fn with_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R> {
    Ok(pool(threads)?.install(f))
}

/// A zeroed vector of `rows × cols` values, or an [`Error::Input`] when the
/// size overflows or the memory cannot be had (never an abort).
pub fn alloc_rows(rows: usize, cols: usize) -> Result<Vec<f64>> {
    let len = rows.checked_mul(cols).ok_or_else(|| {
        Error::input(format!(
            "{rows} resamples x {cols} values do not fit in memory"
        ))
    })?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::input(format!(
            "cannot allocate {:.1} GiB for {rows} resamples x {cols} values; use fewer resamples \
             (tests stream their resamples and need no such memory; only stored distributions do)",
            len as f64 * 8.0 / f64::from(1u32 << 30)
        ))
    })?;
    v.resize(len, 0.0);
    Ok(v)
}

/// Run `f(first, out_rows)` over the job's resamples in fixed blocks of
/// [`BLOCK`], in the pool of `job.threads` threads: `first` is the index of
/// the block's first resample (`job.start + ...`), `out_rows` its rows of
/// `stride` output values each.
pub fn par_blocks<F>(job: &Job<'_>, stride: usize, f: F) -> Result<Vec<f64>>
where
    F: Fn(u64, &mut [f64]) + Sync,
{
    let total = job.count;
    if total != 0 {
        check_resamples(total as u64)?;
    }
    let mut out = alloc_rows(total, stride)?;
    if total == 0 || stride == 0 {
        return Ok(out);
    }
    let progress = job.progress;
    with_pool(job.threads, || {
        out.par_chunks_mut(BLOCK * stride)
            .enumerate()
            .try_for_each(|(blk, chunk)| {
                if progress.cancel.load(Ordering::Relaxed) {
                    return Err(Error::Cancelled);
                }
                f(job.start + (blk * BLOCK) as u64, chunk);
                progress
                    .done
                    .fetch_add((chunk.len() / stride) as u64, Ordering::Relaxed);
                Ok(())
            })
    })??;
    Ok(out)
}

fn check_systems(t: &Table<'_>, metric: &Metric) -> Result<usize> {
    let k = metric.n_stats();
    if t.width % k != 0 {
        return Err(Error::Input(format!(
            "{} statistic columns is not a multiple of the {} statistics per system that the metric needs",
            t.width, k
        )));
    }
    Ok(t.width / k)
}

fn two_systems(t: &Table<'_>, metric: &Metric) -> Result<()> {
    if check_systems(t, metric)? != 2 {
        return Err(Error::Input(
            "a paired test takes exactly two systems".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(data: &[f64], n: usize, w: usize) -> Table<'_> {
        Table::new(data, n, w).unwrap()
    }

    #[test]
    fn identical_for_any_thread_count() {
        let n = 300;
        let data: Vec<f64> = (0..n * 6).map(|i| ((i * 7919) % 13) as f64).collect();
        let t = table(&data, n, 6);
        let m = Metric::named("f1").unwrap();
        let p = Progress::new();
        let job = Job::new(5, 1000, 1, &p);
        let (a, _) = bootstrap_values(&t, &m, Resampling::Items, &job).unwrap();
        for threads in [2, 3] {
            let (b, _) =
                bootstrap_values(&t, &m, Resampling::Items, &Job { threads, ..job }).unwrap();
            assert_eq!(a, b);
        }
        let fl: Vec<f64> = data.iter().map(|v| v * 0.37 + 0.001).collect();
        let tf = table(&fl, n, 6);
        let job = Job::new(5, 700, 1, &p);
        let (c, _) = bootstrap_values(&tf, &m, Resampling::Items, &job).unwrap();
        let three = Job { threads: 3, ..job };
        let (d, _) = bootstrap_values(&tf, &m, Resampling::Items, &three).unwrap();
        assert_eq!(c, d);
    }

    #[test]
    fn sums_batches_agree_with_values() {
        let n = 50;
        let data: Vec<f64> = (0..n * 2).map(|i| (i % 3) as f64).collect();
        let t = table(&data, n, 2);
        let p = Progress::new();
        let job = Job::new(9, 600, 2, &p);
        let (all, _) = bootstrap_sums(&t, Resampling::Items, &job).unwrap();
        // grouped (4 at a time) and single resamples agree, in both versions
        for v in [Version::V1, Version::V2] {
            let job = job.with_stream(v);
            let (all, _) = bootstrap_sums(&t, Resampling::Items, &job).unwrap();
            let boot = Bootstrap::new(&t, Resampling::Items, v);
            let mut four = vec![0.0; 8];
            boot.block_sums(&job, 8, 4, &mut four);
            assert_eq!(&all[16..24], &four[..]);
            let mut one = vec![0.0; 2];
            boot.sums(&job, 9, &mut one);
            assert_eq!(&all[18..20], &one[..]);
        }
        let tail_job = Job { threads: 1, ..job }.range(300, 300);
        let (tail, _) = bootstrap_sums(&t, Resampling::Items, &tail_job).unwrap();
        assert_eq!(&all[600..], &tail[..]);
        // a sub-stream draws other resamples, the same on any thread count
        let (sub, _) = bootstrap_sums(&t, Resampling::Items, &job.on_sub(3)).unwrap();
        assert_ne!(sub, all);
        let sub1 = Job { threads: 1, ..job }.on_sub(3);
        assert_eq!(bootstrap_sums(&t, Resampling::Items, &sub1).unwrap().0, sub);
        // every resample draws exactly n items: sums of a constant column
        let ones: Vec<f64> = vec![1.0; n];
        let t1 = table(&ones, n, 1);
        let (s, _) = bootstrap_sums(&t1, Resampling::Items, &Job::new(1, 10, 1, &p)).unwrap();
        assert!(s.iter().all(|&v| v == n as f64));
    }

    #[test]
    fn distinct_rows_draw_n_items() {
        let n = 4000;
        // column 0: 1 on every fourth item; column 1: 1 on every item
        let data: Vec<f64> = (0..n * 2)
            .map(|i| (i % 2 == 1 || (i / 2) % 4 == 0) as u8 as f64)
            .collect();
        let t = table(&data, n, 2);
        let boot = Bootstrap::new(&t, Resampling::Auto, Version::default());
        assert_eq!(boot.distinct_rows(), Some(2));
        let mut out = vec![0.0; 2];
        let mut mean = 0.0;
        let p = Progress::new();
        let job = Job::new(1, 2000, 1, &p);
        for b in 0..2000 {
            boot.sums(&job, b, &mut out);
            // column 1 is 1 on every item: the resample's item count
            assert_eq!(out[1], n as f64);
            mean += out[0];
        }
        mean /= 2000.0;
        // expected 1000 ones; sd of the mean over 2000 resamples ≈ 0.61
        assert!((mean - 1000.0).abs() < 3.0, "{mean}");
    }

    #[test]
    fn grouped_float_swaps_equal_one_at_a_time() {
        // floats with cancellations, n not a multiple of 64, two statistics
        let n = 150;
        let data: Vec<f64> = (0..n * 4)
            .map(|i| ((i as f64) * 0.731).sin() * if i % 7 == 0 { 0.0 } else { 1.3 })
            .collect();
        let t = table(&data, n, 4);
        let sw = Swapper::new(&t).unwrap();
        let (mut ai, mut af) = (vec![0i64; 2], vec![0.0; 2]);
        for simd in [true, false] {
            crate::simd::set_enabled(simd);
            for g in 1..=4 {
                let mut got = vec![0.0; g * 4];
                let v = if g % 2 == 0 { Version::V1 } else { Version::V2 };
                let mut buf = swap::GroupBuf::default();
                sw.random_sums_group(v, 77, 10, g, &mut got, &mut ai, &mut af, &mut buf);
                for r in 0..g {
                    let mut one = [0.0; 4];
                    sw.random_sums(v, 77, 10 + r as u64, &mut one, &mut ai, &mut af);
                    for c in 0..4 {
                        assert_eq!(
                            got[r * 4 + c].to_bits(),
                            one[c].to_bits(),
                            "simd {simd} g {g} r {r}"
                        );
                    }
                }
            }
        }
        crate::simd::set_enabled(true);
    }

    #[test]
    fn identity_swap_gives_observed() {
        let data = [1.0, 2.0, 3.0, 5.0, 0.5, 0.25];
        let t = table(&data, 3, 2);
        let sw = Swapper::new(&t).unwrap();
        let mut out = [0.0; 2];
        let (mut ai, mut af) = (vec![0i64; 1], vec![0.0; 1]);
        sw.mask_sums(0, &mut out, &mut ai, &mut af);
        assert_eq!(out, [1.0 + 3.0 + 0.5, 2.0 + 5.0 + 0.25]);
        sw.mask_sums(0b111, &mut out, &mut ai, &mut af);
        assert_eq!(out, [2.0 + 5.0 + 0.25, 1.0 + 3.0 + 0.5]);
    }

    #[test]
    fn rejects_bad_tables() {
        assert!(Table::new(&[], 0, 1).is_err());
        assert!(Table::new(&[1.0, f64::NAN], 1, 2).is_err());
        assert!(Table::new(&[1.0, 2.0, 3.0], 2, 2).is_err());
        // finite values whose sums overflow
        assert!(Table::new(&[1e308, -1e308], 2, 1).is_err());
        assert!(Table::new(&[1e308, 1.0], 1, 2).is_ok());
        let data = [1.0; 40];
        let t = table(&data, 40, 1);
        let p = Progress::new();
        let mean = Metric::named("mean").unwrap();
        assert!(exact_permutation_values(&t, &mean, &Job::new(0, 0, 1, &p)).is_err());
    }

    #[test]
    fn sizes_are_checked_not_wrapped() {
        let data = [1.0; 8];
        let t = table(&data, 4, 2);
        let m = Metric::named("mean").unwrap();
        let p = Progress::new();
        // 2^63 x 2 values would wrap to 0, 2^62 x 2 overflow: both are input errors
        for b in [1usize << 63, 1 << 62, (1 << 40) + 1] {
            let r = bootstrap_values(&t, &m, Resampling::Items, &Job::new(1, b, 1, &p));
            assert!(matches!(r, Err(Error::Input(_))), "{b}: {r:?}");
        }
        assert!(matches!(alloc_rows(usize::MAX, 2), Err(Error::Input(_))));
        assert!(matches!(alloc_rows(1 << 40, 1 << 10), Err(Error::Input(_))));
    }

    #[test]
    fn pools_are_reused() {
        let a = with_pool(3, rayon::current_num_threads).unwrap();
        let b = with_pool(3, || std::thread::current().name().map(str::to_string)).unwrap();
        assert_eq!(a, 3);
        assert!(b.unwrap().starts_with("sigfast-3-"));
        assert!(with_pool(MAX_THREADS + 1, || ()).is_err());
    }

    #[test]
    fn cancel_stops_work() {
        let data = [1.0; 20];
        let t = table(&data, 10, 2);
        let p = Progress::new();
        p.cancel.store(true, Ordering::Relaxed);
        let mean = Metric::named("mean").unwrap();
        let r = bootstrap_values(&t, &mean, Resampling::Items, &Job::new(1, 10_000, 1, &p));
        assert!(matches!(r, Err(Error::Cancelled)));
    }
}

/// A metric declared in one place, outside the registry: lower is better.
/// The paired bootstrap picks the system with the lower value, and the
/// exported description says "lower".
#[cfg(test)]
mod toy_metric {
    use super::*;
    use crate::inference::{bootstrap_pvalue, Alternative, BootVariant};
    use crate::metric::{entry, resolve_in, Declare, Direction, Entry, Input, Params, Scale, Spec};

    /// Misses per attempt: (misses, attempts); lower is better.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct MissRate;

    impl Declare for MissRate {
        const SPEC: Spec = Spec {
            name: "miss_rate",
            aliases: &[],
            params: &[],
            direction: Direction::Lower,
            scale: Scale::Fraction,
            counts: true,
            description: "misses / attempts",
            reference: "the formula",
        };
        fn build(_: &Params) -> Result<Self> {
            Ok(MissRate)
        }
        fn input(&self) -> Input {
            Input::Sums {
                names: vec!["misses".into(), "attempts".into()],
                invariants: vec![(0, 1)],
            }
        }
        fn score(&self, s: &[f64], _: f64) -> f64 {
            if s[1] == 0.0 {
                0.0
            } else {
                s[0] / s[1]
            }
        }
    }

    #[test]
    fn paired_bootstrap_picks_the_lower_miss_rate() {
        static REGISTRY: [Entry; 1] = [entry::<MissRate>()];
        let d = REGISTRY[0].describe().unwrap();
        assert_eq!(d.higher_is_better, Some(false));
        assert_eq!(d.stat_names, ["misses", "attempts"]);
        let metric = resolve_in(&REGISTRY, "MISS_RATE", &[]).unwrap().metric;
        assert!(!metric.higher_is_better());
        // system A misses 3 of 10 attempts per item, system B 1 of 10
        let n = 200;
        let mut data = Vec::with_capacity(n * 4);
        for i in 0..n {
            let (a, b) = ((i % 7 < 2) as u8 + 2, (i % 11 < 2) as u8);
            data.extend([f64::from(a), 10.0, f64::from(b), 10.0]);
        }
        let t = Table::new(&data, n, 4).unwrap();
        let sums = |c: usize| (0..n).map(|i| data[i * 4 + c]).sum::<f64>();
        let (ma, mb) = (
            metric.score(&[sums(0), sums(1)], n as f64),
            metric.score(&[sums(2), sums(3)], n as f64),
        );
        assert!(mb < ma);
        let p = Progress::new();
        let job = Job::new(7, 2000, 1, &p);
        let (v, _) = bootstrap_values(&t, &metric, Resampling::Items, &job).unwrap();
        let deltas: Vec<f64> = v.chunks(2).map(|r| r[1] - r[0]).collect();
        let observed = mb - ma;
        // the winner is the system the metric's direction prefers: B
        let orient = metric.orient();
        assert!(observed * orient > 0.0, "B is better");
        for variant in [BootVariant::Koehn, BootVariant::BergKirkpatrick] {
            let pv = bootstrap_pvalue(
                &deltas,
                observed,
                variant,
                Alternative::TwoSided,
                orient,
                true,
            );
            assert!(pv.pvalue < 0.01, "{variant:?}: {pv:?}");
        }
        // read as higher-is-better (the old `_ => true`), the same numbers crown A
        assert!(observed * 1.0 < 0.0);
    }
}
