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
//! The module is split along what it holds: [`pack`] (exact packing of the
//! statistics, distinct columns and rows), [`kernels`] (the summing loops,
//! scalar and AVX2), [`bootstrap`] (the bootstrap and its drivers) and
//! [`swap`] (approximate randomization and exact permutation).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::metric::Metric;
use crate::{Error, Result};

/// Four resamples with their streams interleaved in registers: each stream
/// is consumed exactly as [`Bounded::for_each`] consumes it, and each
/// accumulator receives its resample's draws in draw order.
macro_rules! interleaved4 {
    ($rows:expr, $bnd:expr, $n:expr, $streams:expr, $zero:expr, $add:path) => {{
        let rows = $rows;
        let bnd = $bnd;
        let n = $n;
        debug_assert!(rows.len() as u64 == bnd.n);
        let [mut s0, mut s1, mut s2, mut s3] = $streams;
        let (mut a0, mut a1, mut a2, mut a3) = ($zero, $zero, $zero, $zero);
        let (mut l0, mut l1, mut l2, mut l3) = (n, n, n, n);
        macro_rules! step {
            ($s:ident, $a:ident, $l:ident) => {{
                let u = $s.next_u64();
                // SAFETY: Bounded::map returns indices below bnd.n == rows.len().
                if let Some(i) = bnd.map(u as u32) {
                    $add(&mut $a, unsafe { rows.get_unchecked(i as usize) });
                    $l -= 1;
                }
                if let Some(i) = bnd.map((u >> 32) as u32) {
                    $add(&mut $a, unsafe { rows.get_unchecked(i as usize) });
                    $l -= 1;
                }
            }};
        }
        while l0 >= 2 && l1 >= 2 && l2 >= 2 && l3 >= 2 {
            step!(s0, a0, l0);
            step!(s1, a1, l1);
            step!(s2, a2, l2);
            step!(s3, a3, l3);
        }
        bnd.for_each(&mut s0, l0, |i| $add(&mut a0, &rows[i]));
        bnd.for_each(&mut s1, l1, |i| $add(&mut a1, &rows[i]));
        bnd.for_each(&mut s2, l2, |i| $add(&mut a2, &rows[i]));
        bnd.for_each(&mut s3, l3, |i| $add(&mut a3, &rows[i]));
        [a0, a1, a2, a3]
    }};
}

mod bootstrap;
mod kernels;
mod pack;
mod swap;

pub use bootstrap::{
    bootstrap_sums, bootstrap_sums_sub, bootstrap_values, bootstrap_values_range, draw_count_floor,
    Bootstrap,
};
pub use kernels::set_simd;
pub use swap::{
    exact_permutation_values, permutation_sums, permutation_values, swap_values_range, Swapper,
};

/// Resamples per work unit. Fixed, so block boundaries never depend on threads.
pub const BLOCK: usize = 256;
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
                pos / width,
                pos % width,
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
                pos / width,
                pos % width,
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

/// Run `f(first_resample, out_rows)` over fixed blocks of resamples in a pool
/// of `threads` threads (0 = all cores); `stride` output values per resample.
pub fn par_blocks<F>(
    total: usize,
    stride: usize,
    threads: usize,
    progress: &Progress,
    f: F,
) -> Result<Vec<f64>>
where
    F: Fn(usize, &mut [f64]) + Sync,
{
    crate::stream::check_resamples(total as u64).or_else(|e| {
        if total == 0 {
            Ok(())
        } else {
            Err(e)
        }
    })?;
    let mut out = alloc_rows(total, stride)?;
    if total == 0 || stride == 0 {
        return Ok(out);
    }
    with_pool(threads, || {
        out.par_chunks_mut(BLOCK * stride)
            .enumerate()
            .try_for_each(|(blk, chunk)| {
                if progress.cancel.load(Ordering::Relaxed) {
                    return Err(Error::Cancelled);
                }
                f(blk * BLOCK, chunk);
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
        let m = Metric::FBeta { beta: 1.0 };
        let p = Progress::new();
        let (a, _) = bootstrap_values(&t, &m, 5, 1000, Resampling::Items, 1, &p).unwrap();
        for threads in [2, 3] {
            let (b, _) = bootstrap_values(&t, &m, 5, 1000, Resampling::Items, threads, &p).unwrap();
            assert_eq!(a, b);
        }
        let fl: Vec<f64> = data.iter().map(|v| v * 0.37 + 0.001).collect();
        let tf = table(&fl, n, 6);
        let (c, _) = bootstrap_values(&tf, &m, 5, 700, Resampling::Items, 1, &p).unwrap();
        let (d, _) = bootstrap_values(&tf, &m, 5, 700, Resampling::Items, 3, &p).unwrap();
        assert_eq!(c, d);
    }

    #[test]
    fn sums_batches_agree_with_values() {
        let n = 50;
        let data: Vec<f64> = (0..n * 2).map(|i| (i % 3) as f64).collect();
        let t = table(&data, n, 2);
        let p = Progress::new();
        let (all, _) = bootstrap_sums(&t, 9, 0, 600, Resampling::Items, 2, &p).unwrap();
        // grouped (4 at a time) and single resamples agree
        let boot = Bootstrap::new(&t, Resampling::Items);
        let mut four = vec![0.0; 8];
        let mut c = Vec::new();
        boot.sums4(9, 8, &mut four, &mut c);
        assert_eq!(&all[16..24], &four[..]);
        let (tail, _) = bootstrap_sums(&t, 9, 300, 300, Resampling::Items, 1, &p).unwrap();
        assert_eq!(&all[600..], &tail[..]);
        // every resample draws exactly n items: sums of a constant column
        let ones: Vec<f64> = vec![1.0; n];
        let t1 = table(&ones, n, 1);
        let (s, _) = bootstrap_sums(&t1, 1, 0, 10, Resampling::Items, 1, &p).unwrap();
        assert!(s.iter().all(|&v| v == n as f64));
    }

    #[test]
    fn distinct_rows_draw_n_items() {
        let n = 4000;
        let data: Vec<f64> = (0..n * 2)
            .map(|i| ((i / 2) % 4 == 0) as u8 as f64)
            .collect();
        let t = table(&data, n, 2);
        let boot = Bootstrap::new(&t, Resampling::Auto);
        assert_eq!(boot.distinct_rows(), Some(2));
        let mut out = vec![0.0; 2];
        let mut counts = Vec::new();
        let mut mean = 0.0;
        for b in 0..2000 {
            boot.sums(1, b, &mut out, &mut counts);
            assert_eq!(counts.iter().sum::<u64>(), n as u64);
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
            set_simd(simd);
            for g in 1..=4 {
                let mut got = vec![0.0; g * 4];
                sw.random_sums_group(77, 10, g, &mut got, &mut ai, &mut af);
                for r in 0..g {
                    let mut one = [0.0; 4];
                    sw.random_sums(77, 10 + r as u64, &mut one, &mut ai, &mut af);
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
        set_simd(true);
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
        assert!(exact_permutation_values(
            &t,
            &Metric::Mean {
                higher_is_better: true
            },
            1,
            &p
        )
        .is_err());
    }

    #[test]
    fn sizes_are_checked_not_wrapped() {
        let data = [1.0; 8];
        let t = table(&data, 4, 2);
        let m = Metric::Mean {
            higher_is_better: true,
        };
        let p = Progress::new();
        // 2^63 x 2 values would wrap to 0, 2^62 x 2 overflow: both are input errors
        for b in [1usize << 63, 1 << 62, (1 << 40) + 1] {
            let r = bootstrap_values(&t, &m, 1, b, Resampling::Items, 1, &p);
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
        let r = bootstrap_values(
            &t,
            &Metric::Mean {
                higher_is_better: true,
            },
            1,
            10_000,
            Resampling::Items,
            1,
            &p,
        );
        assert!(matches!(r, Err(Error::Cancelled)));
    }
}
