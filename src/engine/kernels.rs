//! The summing loops of the bootstrap: scalar, interleaved over four
//! resamples, and AVX2 where the CPU has it (same bytes either way).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::rng::{Bounded, Stream, TAG_BOOTSTRAP};

#[inline(always)]
pub(super) fn add4f(a: &mut [f64; 4], r: &[f64; 4]) {
    for l in 0..4 {
        a[l] += r[l];
    }
}

/// Float rows of at most 4 columns, summed in draw order.
pub(super) fn float_seq_1(
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
pub(super) fn sums4_f64(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[f64; 4]; 4] {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 is present (checked above).
        return unsafe { sums4_f64_avx2(rows, bnd, n, seed, b, sub) };
    }
    sums4_f64_body(rows, bnd, n, seed, b, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
pub(super) unsafe fn sums4_f64_avx2(
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
pub(super) fn sums4_f64_body(
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
        pub(super) fn $name(
            rows: &[[$lane; $w]],
            chunks: usize,
            bnd: &Bounded,
            stream: &mut Stream,
            n: usize,
            out: &mut [f64],
        ) {
            debug_assert!(chunks <= 16 && rows.len() == n * chunks && bnd.n == n as u64);
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
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
pub(super) fn add8(a: &mut [i32; 8], r: &[i32; 8]) {
    for l in 0..8 {
        a[l] = a[l].wrapping_add(r[l]);
    }
}

static SIMD_OFF: AtomicBool = AtomicBool::new(false);

/// Turn the SIMD kernels off (or back on). They compute the same bytes as
/// the scalar code; the switch exists to test exactly that, and to measure.
pub fn set_simd(enabled: bool) {
    SIMD_OFF.store(!enabled, Ordering::Relaxed);
}

/// Whether this CPU runs the AVX2 builds of the hot loops (same arithmetic,
/// so the same results, only faster).
#[inline]
pub(super) fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        !SIMD_OFF.load(Ordering::Relaxed)
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Four resamples' sums with their streams interleaved in registers.
/// Each stream is consumed exactly as [`Bounded::for_each`] consumes it.
pub(super) fn sums4_i32(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    n: usize,
    seed: u64,
    b: u64,
    sub: u64,
) -> [[i32; 8]; 4] {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU supports the enabled features (checked above).
        return unsafe { sums4_i32_avx2(rows, bnd, n, seed, b, sub) };
    }
    sums4_i32_body(rows, bnd, n, seed, b, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
pub(super) unsafe fn sums4_i32_avx2(
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
pub(super) fn sums4_i32_body(
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
