//! Every SIMD kernel of the crate, and the one CPU detection that picks them.
//!
//! Each kernel is a portable body (`#[inline(always)]`) compiled twice: as
//! is, and inside a `#[target_feature]` function that the dispatcher calls
//! when [`avx2`] (or [`avx2_bmi2`]) says the CPU has the features. The two
//! builds perform the same operations in the same order (Rust never fuses a
//! multiply and an add), so they give the same bytes; [`set_enabled`] turns
//! the SIMD builds off to test exactly that.
//!
//! The kernels: the bootstrap's summing loops (scalar, interleaved over four
//! resamples, and wide rows), the float swap sums of approximate
//! randomization, and the fixed-order dot products of meta-evaluation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crate::rng::{Bounded, Stream, TAG_BOOTSTRAP};

// ------------------------------------------------------------------------ detection

/// The CPU features the kernels use, detected once per process.
#[derive(Clone, Copy, Debug, Default)]
struct Cpu {
    avx2: bool,
    bmi2: bool,
    popcnt: bool,
}

fn cpu() -> Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    *CPU.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            Cpu {
                avx2: std::arch::is_x86_feature_detected!("avx2"),
                bmi2: std::arch::is_x86_feature_detected!("bmi2"),
                popcnt: std::arch::is_x86_feature_detected!("popcnt"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Cpu::default()
        }
    })
}

static OFF: AtomicBool = AtomicBool::new(false);

/// Turn the SIMD builds off (or back on). They compute the same bytes as the
/// portable ones; the switch exists to test exactly that, and to measure.
pub fn set_enabled(enabled: bool) {
    OFF.store(!enabled, Ordering::Relaxed);
}

/// Whether the AVX2 builds run (the CPU has AVX2 and they are not switched off).
#[inline]
#[must_use]
pub fn avx2() -> bool {
    !OFF.load(Ordering::Relaxed) && cpu().avx2
}

/// Whether the AVX2 + BMI2 builds run (the bootstrap's index draws use BMI2).
#[inline]
#[must_use]
pub fn avx2_bmi2() -> bool {
    avx2() && cpu().bmi2
}

/// Whether the POPCNT builds run.
#[inline]
#[must_use]
pub fn popcnt() -> bool {
    !OFF.load(Ordering::Relaxed) && cpu().popcnt
}

// ------------------------------------------------------------------------ bootstrap sums

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

#[inline(always)]
pub(crate) fn add4f(a: &mut [f64; 4], r: &[f64; 4]) {
    for l in 0..4 {
        a[l] += r[l];
    }
}

/// Float rows of at most 4 columns, summed in draw order.
pub(crate) fn float_seq_1(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    stream: &mut Stream,
    n: usize,
) -> [f64; 4] {
    let mut a = [0.0f64; 4];
    bnd.for_each(stream, n, |i| add4f(&mut a, &rows[i]));
    a
}

/// Four resamples of float rows (at most 4 columns), each summed in draw order.
pub(crate) fn sums4_f64(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    #[cfg(target_arch = "x86_64")]
    if avx2_bmi2() {
        // SAFETY: AVX2 is present (checked above).
        return unsafe { sums4_f64_avx2(rows, bnd, n, seed, b, sub) };
    }
    sums4_f64_body(rows, bnd, n, seed, b, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
pub(crate) unsafe fn sums4_f64_avx2(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    sums4_f64_body(rows, bnd, n, seed, b, sub)
}

#[inline(always)]
pub(crate) fn sums4_f64_body(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    let streams: [Stream; 4] =
        std::array::from_fn(|r| Stream::new(seed, TAG_BOOTSTRAP, b + r as u64, sub));
    interleaved4!(rows, bnd, n, streams, [0.0f64; 4], add4f)
}

/// Rows of 2..=16 chunks, accumulated in draw order: explicit AVX2 adds
/// where available (auto-vectorization of these loops proved fragile: some
/// chunk counts ran 5x slower), a plain loop otherwise. Same bytes either way.
macro_rules! wide_kernel {
    ($name:ident, $avx:ident, $lane:ty, $w:expr, $zero:expr, $add:path, $to_f64:expr,
     $vec:ty, $vzero:ident, $vload:ident, $vadd:ident, $vstore:ident) => {
        pub(crate) fn $name(
            rows: &[[$lane; $w]],
            chunks: usize,
            bnd: &Bounded,
            stream: &mut Stream,
            n: usize,
            out: &mut [f64],
        ) {
            debug_assert!(chunks <= 16 && rows.len() == n * chunks && bnd.n == n as u64);
            #[cfg(target_arch = "x86_64")]
            if avx2_bmi2() {
                // SAFETY: AVX2 is present (checked above).
                return unsafe { $avx(rows, chunks, bnd, stream, n, out) };
            }
            let mut acc = vec![[$zero; $w]; chunks];
            bnd.for_each(stream, n, |i| {
                for (a, r) in acc.iter_mut().zip(&rows[i * chunks..(i + 1) * chunks]) {
                    $add(a, r);
                }
            });
            for (c, o) in out.iter_mut().enumerate() {
                *o = $to_f64(acc[c / $w][c % $w]);
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi2")]
        unsafe fn $avx(
            rows: &[[$lane; $w]],
            chunks: usize,
            bnd: &Bounded,
            stream: &mut Stream,
            n: usize,
            out: &mut [f64],
        ) {
            use std::arch::x86_64::*;
            let mut acc: [$vec; 16] = [$vzero(); 16];
            let rp = rows.as_ptr();
            let add_row = |i: u32, acc: &mut [$vec; 16]| {
                // i < n (Bounded::map) and rows.len() == n * chunks
                let base = rp.add(i as usize * chunks);
                for c in 0..chunks {
                    acc[c] = $vadd(acc[c], $vload(base.add(c).cast()));
                }
            };
            // Bounded::for_each written out, so the adds stay in this AVX2 function
            let mut left = n;
            while left >= 2 {
                let u = stream.next_u64();
                if let Some(i) = bnd.map(u as u32) {
                    add_row(i, &mut acc);
                    left -= 1;
                }
                if let Some(i) = bnd.map((u >> 32) as u32) {
                    add_row(i, &mut acc);
                    left -= 1;
                }
            }
            while left > 0 {
                let u = stream.next_u64();
                if let Some(i) = bnd.map(u as u32) {
                    add_row(i, &mut acc);
                    break;
                }
                if let Some(i) = bnd.map((u >> 32) as u32) {
                    add_row(i, &mut acc);
                    left -= 1;
                }
            }
            let mut tmp = [[$zero; $w]; 16];
            for c in 0..chunks {
                $vstore(tmp[c].as_mut_ptr().cast(), acc[c]);
            }
            for (c, o) in out.iter_mut().enumerate() {
                *o = $to_f64(tmp[c / $w][c % $w]);
            }
        }
    };
}

wide_kernel!(
    wide_i32,
    wide_i32_avx2,
    i32,
    8,
    0i32,
    add8,
    f64::from,
    __m256i,
    _mm256_setzero_si256,
    _mm256_loadu_si256,
    _mm256_add_epi32,
    _mm256_storeu_si256
);
wide_kernel!(
    wide_f64,
    wide_f64_avx2,
    f64,
    4,
    0.0f64,
    add4f,
    |v: f64| v,
    __m256d,
    _mm256_setzero_pd,
    _mm256_loadu_pd,
    _mm256_add_pd,
    _mm256_storeu_pd
);

#[inline(always)]
pub(crate) fn add8(a: &mut [i32; 8], r: &[i32; 8]) {
    for l in 0..8 {
        a[l] = a[l].wrapping_add(r[l]);
    }
}

/// Four resamples' sums with their streams interleaved in registers.
/// Each stream is consumed exactly as [`Bounded::for_each`] consumes it.
pub(crate) fn sums4_i32(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    #[cfg(target_arch = "x86_64")]
    if avx2_bmi2() {
        // SAFETY: the CPU supports the enabled features (checked above).
        return unsafe { sums4_i32_avx2(rows, bnd, n, seed, b, sub) };
    }
    sums4_i32_body(rows, bnd, n, seed, b, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
pub(crate) unsafe fn sums4_i32_avx2(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    sums4_i32_body(rows, bnd, n, seed, b, sub)
}

#[inline(always)]
pub(crate) fn sums4_i32_body(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    let streams: [Stream; 4] =
        std::array::from_fn(|r| Stream::new(seed, TAG_BOOTSTRAP, b + r as u64, sub));
    interleaved4!(rows, bnd, n, streams, [0i32; 8], add8)
}

#[inline(always)]
pub(crate) fn floor_one(bnd: &Bounded, counts: &mut [u32], seed: u64, b: u64) {
    let n = counts.len();
    debug_assert!(n as u64 == bnd.n);
    let mut stream = Stream::new(seed, TAG_BOOTSTRAP, b, 0);
    // SAFETY: Bounded::map returns indices below bnd.n == counts.len().
    bnd.for_each(&mut stream, n, |i| unsafe {
        *counts.get_unchecked_mut(i) += 1
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
pub(crate) unsafe fn floor_one_avx2(bnd: &Bounded, counts: &mut [u32], seed: u64, b: u64) {
    floor_one(bnd, counts, seed, b);
}

// ------------------------------------------------------------------------ swap sums

/// Random resamples whose float swap sums run side by side (independent add
/// chains, so the adds pipeline instead of waiting on each other).
pub(crate) const SWAP_GROUP: usize = 4;

/// [`float_masked`] for [`SWAP_GROUP`] resamples at once, resample `r` taking
/// its swap words from `streams[r]` in order: each resample's lanes receive
/// the same terms in the same order. An unswapped item adds +0.0 where
/// `float_masked` adds `d · 0.0` (±0.0): a lane never holds −0.0 (it starts
/// at +0.0, and only −0.0 + −0.0 gives −0.0), so both leave it unchanged and
/// the sums have the same bytes.
#[inline(always)]
fn float_group_body(
    cols: &[f64],
    words: usize,
    k: usize,
    streams: &mut [Stream; SWAP_GROUP],
    lanes: &mut [[[f64; 4]; SWAP_GROUP]],
) {
    let npad = words * 64;
    for wi in 0..words {
        let ws: [u64; SWAP_GROUP] = std::array::from_fn(|r| streams[r].next_u64());
        for (c, lane) in lanes.iter_mut().enumerate().take(k) {
            let col = &cols[c * npad + wi * 64..c * npad + wi * 64 + 64];
            for q in 0..16 {
                for (r, lr) in lane.iter_mut().enumerate() {
                    for l in 0..4 {
                        let bit = (ws[r] >> (4 * q + l)) & 1 == 1;
                        lr[l] += if bit { col[4 * q + l] } else { 0.0 };
                    }
                }
            }
        }
    }
}

/// Lane masks for 4 swap bits: lane l all ones iff bit l is set.
#[cfg(target_arch = "x86_64")]
const LANE_MASKS: [[u64; 4]; 16] = {
    let mut t = [[0u64; 4]; 16];
    let mut b = 0;
    while b < 16 {
        let mut l = 0;
        while l < 4 {
            if (b >> l) & 1 == 1 {
                t[b][l] = u64::MAX;
            }
            l += 1;
        }
        b += 1;
    }
    t
};

/// [`float_group_body`] in AVX2 intrinsics (a 4-item step selects the
/// swapped items with a lane mask, then one vector add per resample): the
/// same terms in the same order, so the same bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn float_group_avx2(
    cols: &[f64],
    words: usize,
    k: usize,
    streams: &mut [Stream; SWAP_GROUP],
    lanes: &mut [[[f64; 4]; SWAP_GROUP]],
) {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_and_pd, _mm256_loadu_pd, _mm256_storeu_pd,
    };
    let npad = words * 64;
    assert!(cols.len() >= k * npad && lanes.len() >= k);
    let masks = LANE_MASKS.as_ptr().cast::<f64>();
    let mut acc: Vec<[__m256d; SWAP_GROUP]> = lanes
        .iter()
        .take(k)
        .map(|l| std::array::from_fn(|r| _mm256_loadu_pd(l[r].as_ptr())))
        .collect();
    for wi in 0..words {
        let ws: [u64; SWAP_GROUP] = std::array::from_fn(|r| streams[r].next_u64());
        for (c, a) in acc.iter_mut().enumerate() {
            // SAFETY: c * npad + wi * 64 + 64 <= k * npad <= cols.len()
            let col = cols.as_ptr().add(c * npad + wi * 64);
            for q in 0..16 {
                let x = _mm256_loadu_pd(col.add(4 * q));
                for r in 0..SWAP_GROUP {
                    let m = _mm256_loadu_pd(masks.add(4 * ((ws[r] >> (4 * q)) & 15) as usize));
                    a[r] = _mm256_add_pd(a[r], _mm256_and_pd(x, m));
                }
            }
        }
    }
    for (l, a) in lanes.iter_mut().zip(&acc) {
        for r in 0..SWAP_GROUP {
            _mm256_storeu_pd(l[r].as_mut_ptr(), a[r]);
        }
    }
}

pub(crate) fn float_group(
    cols: &[f64],
    words: usize,
    k: usize,
    streams: &mut [Stream; SWAP_GROUP],
    lanes: &mut [[[f64; 4]; SWAP_GROUP]],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            return unsafe { float_group_avx2(cols, words, k, streams, lanes) };
        }
    }
    float_group_body(cols, words, k, streams, lanes);
}

// ------------------------------------------------------------------------ dot products

/// Dot product in a fixed order: eight interleaved partial sums (lane `l`
/// takes elements `l, l + 8, ...`), reduced as ((0+4)+(1+5))+((2+6)+(3+7)),
/// then the remainder in order. Multiplies and adds are rounded separately
/// (Rust never fuses them), so the AVX2 build of the same loop gives the same
/// bytes as the baseline one.
#[inline(always)]
fn dot_body(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let ca = a.chunks_exact(8);
    let cb = b.chunks_exact(8);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut t = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (x, y) in ra.iter().zip(rb) {
        t += x * y;
    }
    t
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_avx2(a: &[f64], b: &[f64]) -> f64 {
    dot_body(a, b)
}

/// Resamples whose item weights `meta`'s system-level bootstrap reads each score row for.
pub(crate) const GROUP: usize = 6;

/// [`GROUP`] [`dot_body`]s of `a` with `w[q]` in one pass over `a`: each in
/// exactly `dot_body`'s order, so each gives the same bytes as `dot(a, w[q])`.
#[inline(always)]
fn dotg_body(a: &[f64], w: [&[f64]; GROUP]) -> [f64; GROUP] {
    let mut acc = [[0.0f64; 8]; GROUP];
    let full = a.len() / 8 * 8;
    for (q, acc) in acc.iter_mut().enumerate() {
        for (x, y) in a[..full].chunks_exact(8).zip(w[q][..full].chunks_exact(8)) {
            for l in 0..8 {
                acc[l] += x[l] * y[l];
            }
        }
    }
    finish_group(a, w, full, &acc)
}

#[inline(always)]
fn finish_group(
    a: &[f64],
    w: [&[f64]; GROUP],
    full: usize,
    acc: &[[f64; 8]; GROUP],
) -> [f64; GROUP] {
    let mut out = [0.0f64; GROUP];
    for (q, l) in acc.iter().enumerate() {
        let mut t = ((l[0] + l[4]) + (l[1] + l[5])) + ((l[2] + l[6]) + (l[3] + l[7]));
        for (x, y) in a[full..].iter().zip(&w[q][full..]) {
            t += x * y;
        }
        out[q] = t;
    }
    out
}

/// [`dotg_body`] in AVX2 intrinsics, one pass over `a` for all [`GROUP`]
/// weight vectors: lanes 0-3 and 4-7 of each accumulator in two registers,
/// products and sums rounded separately (no FMA), the same reduction and
/// remainder: the same bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dotg_avx2(a: &[f64], w: [&[f64]; GROUP]) -> [f64; GROUP] {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_setzero_pd, _mm256_storeu_pd,
    };
    let n = a.len();
    assert!(w.iter().all(|v| v.len() == n));
    let full = n / 8 * 8;
    let mut acc: [[__m256d; 2]; GROUP] = [[_mm256_setzero_pd(); 2]; GROUP];
    let pa = a.as_ptr();
    let ps: [*const f64; GROUP] = std::array::from_fn(|q| w[q].as_ptr());
    let mut c = 0;
    while c < full {
        // SAFETY: c + 8 <= full <= n, the length of every slice.
        let (xl, xh) = (_mm256_loadu_pd(pa.add(c)), _mm256_loadu_pd(pa.add(c + 4)));
        for q in 0..GROUP {
            let yl = _mm256_loadu_pd(ps[q].add(c));
            let yh = _mm256_loadu_pd(ps[q].add(c + 4));
            acc[q][0] = _mm256_add_pd(acc[q][0], _mm256_mul_pd(xl, yl));
            acc[q][1] = _mm256_add_pd(acc[q][1], _mm256_mul_pd(xh, yh));
        }
        c += 8;
    }
    let mut lanes = [[0.0f64; 8]; GROUP];
    for q in 0..GROUP {
        _mm256_storeu_pd(lanes[q].as_mut_ptr(), acc[q][0]);
        _mm256_storeu_pd(lanes[q].as_mut_ptr().add(4), acc[q][1]);
    }
    finish_group(a, w, full, &lanes)
}

/// [`dotg_body`], with AVX2 where the CPU has it (same bytes either way).
#[inline]
pub(crate) fn dotg(a: &[f64], w: [&[f64]; GROUP]) -> [f64; GROUP] {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            return unsafe { dotg_avx2(a, w) };
        }
    }
    dotg_body(a, w)
}

/// [`dot_body`], with AVX2 where the CPU has it (same bytes either way).
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            return unsafe { dot_avx2(a, b) };
        }
    }
    dot_body(a, b)
}

// ------------------------------------------------------------------------ bit counts

/// A kernel whose code is compiled into the POPCNT build: its `run` must be
/// `#[inline(always)]` (and call only `#[inline(always)]` code), so that it
/// is compiled inside [`with_popcnt`]'s `#[target_feature]` function.
pub(crate) trait Kernel {
    type Out;
    fn run(self) -> Self::Out;
}

/// `k.run()`, in the POPCNT build where [`popcnt`] says the CPU has it.
/// `count_ones` gives the same integers either way.
#[inline]
pub(crate) fn with_popcnt<K: Kernel>(k: K) -> K::Out {
    #[cfg(target_arch = "x86_64")]
    {
        if popcnt() {
            // SAFETY: the CPU supports POPCNT (checked at run time).
            return unsafe { popcnt_build(k) };
        }
    }
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn popcnt_build<K: Kernel>(k: K) -> K::Out {
    k.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_paths_agree() {
        let a: Vec<f64> = (0..1003).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..1003).map(|i| (i as f64 * 0.11).cos()).collect();
        let want: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - want).abs() < 1e-10);
        assert_eq!(dot(&a, &b).to_bits(), dot_body(&a, &b).to_bits());
        let c: Vec<f64> = (0..1003).map(|i| (i as f64 * 0.07).sin()).collect();
        let ws: [&[f64]; GROUP] = std::array::from_fn(|q| if q % 2 == 0 { &b[..] } else { &c[..] });
        let group = dotg(&a, ws);
        let plain = dotg_body(&a, ws);
        for (q, v) in ws.iter().enumerate() {
            assert_eq!(group[q].to_bits(), dot_body(&a, v).to_bits());
            assert_eq!(plain[q].to_bits(), dot_body(&a, v).to_bits());
        }
    }
}
