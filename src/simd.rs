//! Every SIMD kernel of the crate, and the one CPU detection that picks them.
//!
//! Each kernel is a portable body (`#[inline(always)]`) compiled twice: as
//! is, and inside a `#[target_feature]` function that the dispatcher calls
//! when [`avx2`] (or [`avx2_bmi2`]) says the CPU has the features. The two
//! builds perform the same operations in the same order (Rust never fuses a
//! multiply and an add), so they give the same bytes; [`set_enabled`] turns
//! the SIMD builds off to test exactly that. The version-2 draws have a third
//! build for CPUs with AVX-512F/VL ([`avx512`]: one-instruction rotations and
//! compares into masks, on the same 256-bit registers), which
//! [`set_avx512`] turns off alone.
//!
//! The kernels: the bootstrap's summing loops (scalar, interleaved over four
//! resamples, and wide rows), the float swap sums of approximate
//! randomization, and the fixed-order dot products of meta-evaluation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crate::rng::{Bounded, Lanes, Stream, Version, Words, Xoshiro, TAG_BOOTSTRAP};

// ------------------------------------------------------------------------ detection

/// The CPU features the kernels use, detected once per process.
#[derive(Clone, Copy, Debug, Default)]
struct Cpu {
    avx2: bool,
    bmi2: bool,
    popcnt: bool,
    /// AVX-512 foundation and vector-length extensions (512-bit rotations and
    /// compares into masks on 256-bit registers)
    avx512: bool,
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
                avx512: std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Cpu::default()
        }
    })
}

static OFF: AtomicBool = AtomicBool::new(false);
static AVX512_OFF: AtomicBool = AtomicBool::new(false);

/// Turn the SIMD builds off (or back on). They compute the same bytes as the
/// portable ones; the switch exists to test exactly that, and to measure.
pub fn set_enabled(enabled: bool) {
    OFF.store(!enabled, Ordering::Relaxed);
}

/// Turn the AVX-512 builds off (or back on), leaving the AVX2 ones: they
/// compute the same bytes; the switch exists to test that on CPUs with both.
pub fn set_avx512(enabled: bool) {
    AVX512_OFF.store(!enabled, Ordering::Relaxed);
}

/// Whether the AVX-512VL builds run (the CPU has AVX2, AVX-512F and
/// AVX-512VL, and neither switch is off).
#[inline]
#[must_use]
pub fn avx512() -> bool {
    avx2() && !AVX512_OFF.load(Ordering::Relaxed) && cpu().avx512
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

/// Whether the BMI2 builds run.
#[inline]
#[must_use]
pub fn bmi2() -> bool {
    !OFF.load(Ordering::Relaxed) && cpu().bmi2
}

/// Whether the POPCNT builds run.
#[inline]
#[must_use]
pub fn popcnt() -> bool {
    !OFF.load(Ordering::Relaxed) && cpu().popcnt
}

// ------------------------------------------------------------------------ bootstrap sums

/// Four resamples with their (version-1) streams interleaved in registers:
/// each stream is consumed exactly as [`Bounded::for_each_v1`] consumes it, and each
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
        bnd.for_each_v1(&mut s0, l0, |i| $add(&mut a0, &rows[i]));
        bnd.for_each_v1(&mut s1, l1, |i| $add(&mut a1, &rows[i]));
        bnd.for_each_v1(&mut s2, l2, |i| $add(&mut a2, &rows[i]));
        bnd.for_each_v1(&mut s3, l3, |i| $add(&mut a3, &rows[i]));
        [a0, a1, a2, a3]
    }};
}

#[inline(always)]
pub(crate) fn add4f(a: &mut [f64; 4], r: &[f64; 4]) {
    for l in 0..4 {
        a[l] += r[l];
    }
}

/// Float rows of at most 4 columns, summed in draw order (version 1).
pub(crate) fn float_seq_1(
    rows: &[[f64; 4]],
    bnd: &Bounded,
    stream: &mut Xoshiro,
    n: usize,
) -> [f64; 4] {
    let mut a = [0.0f64; 4];
    bnd.for_each_v1(stream, n, |i| add4f(&mut a, &rows[i]));
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
    let streams: [Xoshiro; 4] =
        std::array::from_fn(|r| Xoshiro::new(seed, TAG_BOOTSTRAP, b + r as u64, sub));
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
            stream: &mut Xoshiro,
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
            bnd.for_each_v1(stream, n, |i| {
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
            stream: &mut Xoshiro,
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

/// Four resamples' sums with their (version-1) streams interleaved in
/// registers. Each stream is consumed exactly as [`Bounded::for_each_v1`] consumes it.
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
    let streams: [Xoshiro; 4] =
        std::array::from_fn(|r| Xoshiro::new(seed, TAG_BOOTSTRAP, b + r as u64, sub));
    interleaved4!(rows, bnd, n, streams, [0i32; 8], add8)
}

#[inline(always)]
pub(crate) fn floor_one(bnd: &Bounded, counts: &mut [u32], seed: u64, b: u64) {
    let n = counts.len();
    debug_assert!(n as u64 == bnd.n);
    let mut stream = Xoshiro::new(seed, TAG_BOOTSTRAP, b, 0);
    // SAFETY: Bounded::map returns indices below bnd.n == counts.len().
    bnd.for_each_v1(&mut stream, n, |i| unsafe {
        *counts.get_unchecked_mut(i) += 1
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
pub(crate) unsafe fn floor_one_avx2(bnd: &Bounded, counts: &mut [u32], seed: u64, b: u64) {
    floor_one(bnd, counts, seed, b);
}

// ------------------------------------------------------------------------ version-2 draws

/// A count cell: integer or float counts of drawn items.
pub(crate) trait Cell: Copy {
    fn inc(&mut self);
    /// A count as this cell (exact: f32 cells hold counts below 2^24).
    fn of(count: u32) -> Self;
}

impl Cell for u32 {
    #[inline(always)]
    fn inc(&mut self) {
        *self += 1;
    }
    #[inline(always)]
    fn of(count: u32) -> Self {
        count
    }
}

impl Cell for u16 {
    #[inline(always)]
    fn inc(&mut self) {
        *self += 1;
    }
    #[inline(always)]
    fn of(count: u32) -> Self {
        debug_assert!(count <= u32::from(u16::MAX));
        count as u16
    }
}

impl Cell for f32 {
    #[inline(always)]
    fn inc(&mut self) {
        *self += 1.0;
    }
    #[inline(always)]
    fn of(count: u32) -> Self {
        count as f32
    }
}

impl Cell for f64 {
    #[inline(always)]
    fn inc(&mut self) {
        *self += 1.0;
    }
    #[inline(always)]
    fn of(count: u32) -> Self {
        f64::from(count)
    }
}

/// [`Lanes::new`]: with BMI2 the four Philox blocks' rounds are interleaved
/// on `mulx`, so that their multiplies overlap (the same blocks, the same
/// lanes; plain `u128` products side by side get turned into slow emulated
/// SIMD products instead).
#[inline]
pub(crate) fn lanes_new(seed: u64, tag: u64, resample: u64, sub: u64) -> Lanes {
    #[cfg(target_arch = "x86_64")]
    if bmi2() {
        // SAFETY: the CPU supports BMI2 (checked above).
        return Lanes::from_blocks(unsafe {
            philox_x4_bmi2(Lanes::counters(resample, sub), [seed, tag])
        });
    }
    Lanes::new(seed, tag, resample, sub)
}

/// [`Stream::new`], its version-2 lanes seeded by [`lanes_new`] (the same stream).
#[inline]
pub(crate) fn stream_new(version: Version, seed: u64, tag: u64, resample: u64, sub: u64) -> Stream {
    match version {
        Version::V1 => Stream::V1(Xoshiro::new(seed, tag, resample, sub)),
        Version::V2 => Stream::V2(lanes_new(seed, tag, resample, sub)),
    }
}

/// [`crate::rng::philox4x64_10`] of four counters under one key, rounds interleaved.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn philox_x4_bmi2(ctrs: [[u64; 4]; 4], key: [u64; 2]) -> [[u64; 4]; 4] {
    use crate::rng::{M0, M1, W0, W1};
    use std::arch::x86_64::_mulx_u64;
    let mut c = ctrs;
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        for b in &mut c {
            let (mut hi0, mut hi1) = (0u64, 0u64);
            let lo0 = _mulx_u64(M0, b[0], &mut hi0);
            let lo1 = _mulx_u64(M1, b[2], &mut hi1);
            *b = [hi1 ^ b[1] ^ k[0], lo1, hi0 ^ b[3] ^ k[1], lo0];
        }
    }
    c
}

/// xoshiro256++ on four lanes in AVX2 (state word k of every lane in `sk`):
/// advances the lanes once and returns their outputs, as [`Lanes::step`] does.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn xoshiro_x4_avx2(
    s0: &mut std::arch::x86_64::__m256i,
    s1: &mut std::arch::x86_64::__m256i,
    s2: &mut std::arch::x86_64::__m256i,
    s3: &mut std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let sum = _mm256_add_epi64(*s0, *s3);
    let rot = _mm256_or_si256(_mm256_slli_epi64::<23>(sum), _mm256_srli_epi64::<41>(sum));
    let out = _mm256_add_epi64(rot, *s0);
    let t = _mm256_slli_epi64::<17>(*s1);
    *s2 = _mm256_xor_si256(*s2, *s0);
    *s3 = _mm256_xor_si256(*s3, *s1);
    *s1 = _mm256_xor_si256(*s1, *s2);
    *s0 = _mm256_xor_si256(*s0, *s3);
    *s2 = _mm256_xor_si256(*s2, t);
    *s3 = _mm256_or_si256(_mm256_slli_epi64::<45>(*s3), _mm256_srli_epi64::<19>(*s3));
    out
}

/// `vprolq` on a 256-bit register (AVX-512VL: a 64-bit rotation in one
/// instruction). Inline assembly, not `_mm256_rol_epi64`: that intrinsic is
/// stable only since Rust 1.89, above the crate's `rust-version`.
#[cfg(target_arch = "x86_64")]
macro_rules! vprolq {
    ($x:expr, $imm:literal) => {{
        let out: std::arch::x86_64::__m256i;
        std::arch::asm!(
            concat!("vprolq {o}, {i}, ", $imm),
            o = lateout(ymm_reg) out,
            i = in(ymm_reg) $x,
            options(pure, nomem, nostack, preserves_flags),
        );
        out
    }};
}

/// [`xoshiro_x4_avx2`] with AVX-512VL rotations (one instruction each; the same outputs).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
#[inline]
unsafe fn xoshiro_x4_avx512(
    s0: &mut std::arch::x86_64::__m256i,
    s1: &mut std::arch::x86_64::__m256i,
    s2: &mut std::arch::x86_64::__m256i,
    s3: &mut std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let out = _mm256_add_epi64(vprolq!(_mm256_add_epi64(*s0, *s3), 23), *s0);
    let t = _mm256_slli_epi64::<17>(*s1);
    *s2 = _mm256_xor_si256(*s2, *s0);
    *s3 = _mm256_xor_si256(*s3, *s1);
    *s1 = _mm256_xor_si256(*s1, *s2);
    *s0 = _mm256_xor_si256(*s0, *s3);
    *s2 = _mm256_xor_si256(*s2, t);
    *s3 = vprolq!(*s3, 45);
    out
}

/// One step of a version-2 stream's lanes in AVX2: the lanes' outputs, as
/// [`Lanes::step`] gives them (the same words).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn lanes_step_avx2(st: &mut [[u64; 4]; 4]) -> [u64; 4] {
    use std::arch::x86_64::*;
    let mut s0 = _mm256_loadu_si256(st[0].as_ptr().cast());
    let mut s1 = _mm256_loadu_si256(st[1].as_ptr().cast());
    let mut s2 = _mm256_loadu_si256(st[2].as_ptr().cast());
    let mut s3 = _mm256_loadu_si256(st[3].as_ptr().cast());
    let out = xoshiro_x4_avx2(&mut s0, &mut s1, &mut s2, &mut s3);
    _mm256_storeu_si256(st[0].as_mut_ptr().cast(), s0);
    _mm256_storeu_si256(st[1].as_mut_ptr().cast(), s1);
    _mm256_storeu_si256(st[2].as_mut_ptr().cast(), s2);
    _mm256_storeu_si256(st[3].as_mut_ptr().cast(), s3);
    let mut o = [0u64; 4];
    _mm256_storeu_si256(o.as_mut_ptr().cast(), out);
    o
}

/// Hand the eight indices of `v` (a step's, in word order) to `f`, two per
/// 64-bit lane moved to a general register: `f(i, false)` for the first of a
/// pair, `f(j, true)` for the second (a consumer may keep two accumulators).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn pairs<F: FnMut(usize, bool)>(v: std::arch::x86_64::__m256i, f: &mut F) {
    use std::arch::x86_64::*;
    let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    for w in [
        _mm_cvtsi128_si64(lo),
        _mm_extract_epi64::<1>(lo),
        _mm_cvtsi128_si64(hi),
        _mm_extract_epi64::<1>(hi),
    ] {
        let w = w as u64;
        f(w as u32 as usize, false);
        f((w >> 32) as usize, true);
    }
}

/// Whether every product's low word is at least `threshold` (AVX2: unsigned
/// maximum, equality, byte mask; the high words hold 0 in the threshold).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn accepted_avx2(m: std::arch::x86_64::__m256i, threshold: u32) -> bool {
    use std::arch::x86_64::*;
    let tv = _mm256_set1_epi64x(i64::from(threshold));
    _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(m, tv), m)) == -1
}

/// [`accepted_avx2`] with one AVX-512VL unsigned compare into a mask (even
/// words only; inline assembly for the crate's `rust-version`, as [`vprolq`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
#[inline]
unsafe fn accepted_avx512(m: std::arch::x86_64::__m256i, threshold: u32) -> bool {
    use std::arch::x86_64::*;
    let below: u32;
    // predicate 1: unsigned less than
    std::arch::asm!(
        "vpcmpud {k}, {m}, {t}, 1",
        "kmovb {r:e}, {k}",
        k = out(kreg) _,
        r = lateout(reg) below,
        m = in(ymm_reg) m,
        t = in(ymm_reg) _mm256_set1_epi32(threshold as i32),
        options(pure, nomem, nostack, preserves_flags),
    );
    below & 0b0101_0101 == 0
}

/// The version-2 draws (whole steps in SIMD registers) and their consumers,
/// one body built for each instruction set: `$feat` enables it, `$xoshiro`
/// advances the four lanes once, `$accepted` says whether a step's eight
/// products all pass Lemire's threshold. Both builds take the same words and
/// give the same indices as [`Lanes::bounded`].
macro_rules! v2_kernels {
    ($isa:ident, $feat:literal, $xoshiro:ident, $accepted:ident) => {
        #[cfg(target_arch = "x86_64")]
        mod $isa {
            use super::{pairs, $accepted, $xoshiro, Cell};
            use crate::rng::{Bounded, Lanes};
            use std::arch::x86_64::*;

            /// Whole steps of a bounded draw for a consumer whose result does not
            /// depend on the order of the indices within a step (counts, integer
            /// sums): the lanes' state words in four registers, a step's eight
            /// words mapped by two 32 × 32-bit products, two steps at a time. The
            /// words consumed are exactly those of [`Lanes::bounded_step`] (a step
            /// with a rejected word goes word by word, in order). Runs while at
            /// least eight indices are still to draw (`*left`); `n < 2^32`.
            #[target_feature(enable = $feat)]
            #[inline]
            unsafe fn steps<F: FnMut(usize, bool)>(
                stream: &mut Lanes,
                bnd: &Bounded,
                left: &mut usize,
                f: &mut F,
            ) {
                debug_assert!(bnd.n < 1 << 32);
                let st = stream.state_mut();
                let mut s0 = _mm256_loadu_si256(st[0].as_ptr().cast());
                let mut s1 = _mm256_loadu_si256(st[1].as_ptr().cast());
                let mut s2 = _mm256_loadu_si256(st[2].as_ptr().cast());
                let mut s3 = _mm256_loadu_si256(st[3].as_ptr().cast());
                // both halves of each 64-bit lane hold n: the products read the low ones
                let nv = _mm256_set1_epi32(bnd.n as u32 as i32);
                macro_rules! step {
                    () => {{
                        let out = $xoshiro(&mut s0, &mut s1, &mut s2, &mut s3);
                        // Lemire: the low halves (even words) and the high halves (odd
                        // words) times n; each 64-bit product holds its word's verdict
                        // (low) and index (high)
                        (
                            _mm256_mul_epu32(out, nv),
                            _mm256_mul_epu32(_mm256_srli_epi64::<32>(out), nv),
                        )
                    }};
                }
                // a step's eight indices in word order: word 2l's (the even product's
                // high half, shifted down) and word 2l + 1's (the odd product's)
                macro_rules! indices {
                    ($me:expr, $mo:expr) => {
                        _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>($me), $mo)
                    };
                }
                // one step word by word, in order (words 2l and 2l + 1: lane l's halves)
                macro_rules! in_order {
                    ($me:expr, $mo:expr) => {{
                        let mut p = [[0u64; 4]; 2];
                        _mm256_storeu_si256(p[0].as_mut_ptr().cast(), $me);
                        _mm256_storeu_si256(p[1].as_mut_ptr().cast(), $mo);
                        for l in 0..4 {
                            for h in 0..2 {
                                let m = p[h][l];
                                if (m as u32) >= bnd.threshold {
                                    f((m >> 32) as usize, false);
                                    *left -= 1;
                                }
                            }
                        }
                    }};
                }
                while *left >= 16 {
                    let (ae, ao) = step!();
                    let (be, bo) = step!();
                    let lo = _mm256_min_epu32(_mm256_min_epu32(ae, ao), _mm256_min_epu32(be, bo));
                    if $accepted(lo, bnd.threshold) {
                        pairs(indices!(ae, ao), f);
                        pairs(indices!(be, bo), f);
                        *left -= 16;
                    } else {
                        // a rejected word: both steps word by word, each consumed whole
                        // (one of them accepts at most seven words, so at least one
                        // index remains)
                        in_order!(ae, ao);
                        in_order!(be, bo);
                    }
                }
                while *left >= 8 {
                    let (me, mo) = step!();
                    if $accepted(_mm256_min_epu32(me, mo), bnd.threshold) {
                        pairs(indices!(me, mo), f);
                        *left -= 8;
                    } else {
                        in_order!(me, mo);
                    }
                }
                _mm256_storeu_si256(st[0].as_mut_ptr().cast(), s0);
                _mm256_storeu_si256(st[1].as_mut_ptr().cast(), s1);
                _mm256_storeu_si256(st[2].as_mut_ptr().cast(), s2);
                _mm256_storeu_si256(st[3].as_mut_ptr().cast(), s3);
            }

            /// [`Lanes::bounded`] with its whole steps in SIMD registers ([`steps`]):
            /// `f(i, odd)` for each index, `odd` only ever true for the second of
            /// a pair handed together.
            #[target_feature(enable = $feat)]
            #[inline]
            pub(in crate::simd) unsafe fn bounded<F: FnMut(usize, bool)>(
                stream: &mut Lanes,
                bnd: &Bounded,
                count: usize,
                mut f: F,
            ) {
                let mut left = stream.bounded_head(bnd, count, &mut |i| f(i, false));
                if bnd.n < 1 << 32 {
                    steps(stream, bnd, &mut left, &mut f);
                } else {
                    while left >= 8 {
                        stream.bounded_step(bnd, &mut left, &mut |i| f(i, false));
                    }
                }
                stream.bounded_tail(bnd, left, &mut |i| f(i, false));
            }

            /// [`super::count_v2`] in this build.
            #[target_feature(enable = $feat)]
            pub(in crate::simd) unsafe fn count<C: Cell>(
                bnd: &Bounded,
                stream: &mut Lanes,
                draws: usize,
                counts: &mut [C],
            ) {
                assert!(counts.len() as u64 >= bnd.n);
                let c = counts.as_mut_ptr();
                // SAFETY: the indices are below bnd.n <= counts.len() (asserted).
                bounded(stream, bnd, draws, |i, _| unsafe { (*c.add(i)).inc() });
            }

            /// [`super::sums_i32_v2`] in this build: two accumulators (a pair's
            /// first and second index), added at the end (integers: the same sums).
            #[target_feature(enable = $feat)]
            pub(in crate::simd) unsafe fn sums_i32(
                rows: &[[i32; 8]],
                bnd: &Bounded,
                stream: &mut Lanes,
                n: usize,
            ) -> [i32; 8] {
                assert!(rows.len() as u64 >= bnd.n);
                let (mut even, mut odd) = (_mm256_setzero_si256(), _mm256_setzero_si256());
                let rp = rows.as_ptr();
                // SAFETY: the indices are below bnd.n <= rows.len() (asserted).
                bounded(stream, bnd, n, |i, second| unsafe {
                    let r = _mm256_loadu_si256(rp.add(i).cast());
                    if second {
                        odd = _mm256_add_epi32(odd, r);
                    } else {
                        even = _mm256_add_epi32(even, r);
                    }
                });
                let mut out = [0i32; 8];
                _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_add_epi32(even, odd));
                out
            }
        }
    };
}

v2_kernels!(v2_avx2, "avx2", xoshiro_x4_avx2, accepted_avx2);
v2_kernels!(
    v2_avx512,
    "avx2,avx512f,avx512vl",
    xoshiro_x4_avx512,
    accepted_avx512
);

/// Add one to `counts[i]` for each of `draws` indices drawn from a
/// version-2 stream (whole steps in SIMD registers where the CPU has AVX2 or
/// AVX-512VL; the same indices either way).
#[inline]
pub(crate) fn count_v2<C: Cell>(bnd: &Bounded, stream: &mut Lanes, draws: usize, counts: &mut [C]) {
    #[cfg(target_arch = "x86_64")]
    {
        if avx512() {
            // SAFETY: the CPU supports AVX2 and AVX-512F/VL (checked above).
            return unsafe { v2_avx512::count(bnd, stream, draws, counts) };
        }
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked above).
            return unsafe { v2_avx2::count(bnd, stream, draws, counts) };
        }
    }
    assert!(counts.len() as u64 >= bnd.n);
    // SAFETY: the indices are below bnd.n <= counts.len() (asserted).
    stream.bounded(bnd, draws, |i| unsafe { counts.get_unchecked_mut(i).inc() });
}

/// Integer rows of at most 8 columns summed over `n` draws of a version-2
/// stream (exact: any order gives these integers).
#[inline]
pub(crate) fn sums_i32_v2(
    rows: &[[i32; 8]],
    bnd: &Bounded,
    stream: &mut Lanes,
    n: usize,
) -> [i32; 8] {
    #[cfg(target_arch = "x86_64")]
    {
        if avx512() {
            // SAFETY: the CPU supports AVX2 and AVX-512F/VL (checked above).
            return unsafe { v2_avx512::sums_i32(rows, bnd, stream, n) };
        }
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked above).
            return unsafe { v2_avx2::sums_i32(rows, bnd, stream, n) };
        }
    }
    assert!(rows.len() as u64 >= bnd.n);
    let mut acc = [0i32; 8];
    // SAFETY: the indices are below bnd.n <= rows.len() (asserted).
    stream.bounded(bnd, n, |i| add8(&mut acc, unsafe { rows.get_unchecked(i) }));
    acc
}

// ------------------------------------------------------------------------ fixed-order products

/// Items per block of [`fixed_product`]: accumulators go back to memory
/// between blocks and come back for the next, which changes no byte.
pub(crate) const KBLOCK: usize = 256;

/// One tile of [`fixed_product`]: the `M` rows of row tile `t` of `a`
/// (`PACKED`: item-major within the tile; else `a` is row-major, `k` per
/// row) by a panel of `P` columns, items `i0 .. i1`, accumulated onto `c`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fixed_tile<const M: usize, const P: usize, const PACKED: bool>(
    a: &[f64],
    k: usize,
    t: usize,
    panel: &[f64],
    i0: usize,
    i1: usize,
    c: &mut [f64],
    ldc: usize,
    c0: usize,
    cols: usize,
) {
    let tile = &a[t * k * M..(t + 1) * k * M];
    // where item i of the tile's row r lies
    let at = |i: usize, r: usize| if PACKED { i * M + r } else { r * k + i };
    assert!(i1 <= k && i1 * P <= panel.len() && cols <= P);
    assert!((t * M + M - 1) * ldc + c0 + cols <= c.len());
    let mut acc = [[0.0f64; P]; M];
    for (r, ar) in acc.iter_mut().enumerate() {
        let row = (t * M + r) * ldc + c0;
        ar[..cols].copy_from_slice(&c[row..row + cols]);
    }
    for i in i0..i1 {
        // SAFETY: i < i1 <= k: i * P + P <= panel.len() and i * M + M <= tile.len() (asserted).
        let x: [f64; P] = std::array::from_fn(|l| unsafe { *panel.get_unchecked(i * P + l) });
        for (r, ar) in acc.iter_mut().enumerate() {
            let av = unsafe { *tile.get_unchecked(at(i, r)) };
            for l in 0..P {
                ar[l] += av * x[l];
            }
        }
    }
    for (r, ar) in acc.iter().enumerate() {
        let row = (t * M + r) * ldc + c0;
        c[row..row + cols].copy_from_slice(&ar[..cols]);
    }
}

#[inline(always)]
fn fixed_body<const M: usize, const P: usize, const PACKED: bool>(
    a: &[f64],
    tiles: usize,
    k: usize,
    packed: &[f64],
    c: &mut [f64],
    w: usize,
) {
    let panels = w.div_ceil(P);
    for i0 in (0..k).step_by(KBLOCK) {
        let i1 = (i0 + KBLOCK).min(k);
        for p in 0..panels {
            let panel = &packed[p * k * P..(p + 1) * k * P];
            let (c0, cols) = (p * P, P.min(w - p * P));
            for t in 0..tiles {
                fixed_tile::<M, P, PACKED>(a, k, t, panel, i0, i1, c, w, c0, cols);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fixed_avx2<const M: usize, const P: usize, const PACKED: bool>(
    a: &[f64],
    tiles: usize,
    k: usize,
    packed: &[f64],
    c: &mut [f64],
    w: usize,
) {
    fixed_body::<M, P, PACKED>(a, tiles, k, packed, c, w);
}

/// Columns per panel of [`fixed_product`] for a table `w` columns wide.
#[must_use]
pub(crate) fn fixed_panel(w: usize) -> usize {
    if w <= 4 {
        4
    } else {
        8
    }
}

/// Whether [`fixed_product`] takes its counts packed in tiles (tables of
/// more than one panel of columns) rather than row-major.
#[must_use]
pub(crate) fn fixed_packed(w: usize) -> bool {
    w > fixed_panel(w)
}

/// Rows per tile of [`fixed_product`] for a table `w` columns wide.
#[must_use]
pub(crate) fn fixed_rows(w: usize) -> usize {
    if w <= 4 {
        8
    } else {
        4
    }
}

/// `c = a · x` in a fixed order: `c[r][j]` is the sum over items `i` in
/// increasing order of `a[r][i] · x[i][j]`, each product rounded, then
/// added (no fused multiply-add), starting from +0.0. `a` holds `tiles`
/// tiles of [`fixed_rows`]`(w)` rows: item-major within each tile
/// (`a[t][i][r]`) for a table of more than one panel, where every panel
/// reads the counts again; row-major (`a[r][i]`) for one panel; `x` arrives packed in panels of [`fixed_panel`]`(w)` columns (panel `p`:
/// `k` rows of its columns, zero-padded); `c` is `(tiles · rows) × w`.
/// Every entry is its own chain in item order, so tiles, blocks and the
/// SIMD build change no byte.
pub(crate) fn fixed_product(
    a: &[f64],
    tiles: usize,
    k: usize,
    packed: &[f64],
    c: &mut [f64],
    w: usize,
) {
    let m = fixed_rows(w);
    assert!(a.len() >= tiles * m * k && c.len() >= tiles * m * w);
    c[..tiles * m * w].fill(0.0);
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU supports AVX2 (checked above).
        unsafe {
            match (fixed_panel(w) == 8, fixed_packed(w)) {
                (true, true) => fixed_avx2::<4, 8, true>(a, tiles, k, packed, c, w),
                (true, false) => fixed_avx2::<4, 8, false>(a, tiles, k, packed, c, w),
                (false, _) => fixed_avx2::<8, 4, false>(a, tiles, k, packed, c, w),
            }
        }
        return;
    }
    match (fixed_panel(w) == 8, fixed_packed(w)) {
        (true, true) => fixed_body::<4, 8, true>(a, tiles, k, packed, c, w),
        (true, false) => fixed_body::<4, 8, false>(a, tiles, k, packed, c, w),
        (false, _) => fixed_body::<8, 4, false>(a, tiles, k, packed, c, w),
    }
}

// ------------------------------------------------------------------------ pair counts

/// The transform a paired-bootstrap rule applies to δ* (and a mean) before
/// comparing (see `crate::pairwise`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum PairKind {
    /// δ*
    Delta,
    /// δ* · orient
    Scaled(f64),
    /// |δ* − m|
    AbsShift,
    /// δ* − m
    Shift,
    /// |δ*| − m
    AbsMinus,
}

/// Eight pairs (i, j0 + l) of `crate::pairwise`'s loop over `rows`
/// resamples of `values` (resample-major, `s` per row): δ* = v_j − v_i; the
/// sums (of |δ*| when `abs_sum`) run on in resample order; each direction
/// counts `t > hi or t < lo` with `t` the transform of δ* and its lane's
/// mean (`fwd`/`rev`: hi, lo, mean per lane).
pub(crate) struct Pair8<'a> {
    pub values: &'a [f64],
    pub s: usize,
    pub i: usize,
    pub j0: usize,
    pub rows: usize,
    pub kind: PairKind,
    pub abs_sum: bool,
    pub fwd: [[f64; 8]; 3],
    pub rev: [[f64; 8]; 3],
    pub sums: [f64; 8],
    pub cf: [u64; 8],
    pub cr: [u64; 8],
}

/// [`Pair8`] in AVX2 registers: the same IEEE operations as the portable
/// loop (subtract, clear the sign bit, multiply, ordered compares), so the
/// same sums and counts. Returns false (and does nothing) without AVX2.
pub(crate) fn pair8(p: &mut Pair8<'_>) -> bool {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        assert!(p.j0 + 8 <= p.s && p.i < p.s && p.values.len() >= p.rows * p.s);
        // SAFETY: the CPU supports AVX2 (checked above); the bounds are asserted.
        unsafe { pair8_avx2(p) };
        return true;
    }
    let _ = p;
    false
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pair8_avx2(p: &mut Pair8<'_>) {
    use std::arch::x86_64::*;
    let ld = |a: &[f64; 8], h: usize| _mm256_loadu_pd(a.as_ptr().add(4 * h));
    let (fh, fl, fm) = (
        [ld(&p.fwd[0], 0), ld(&p.fwd[0], 1)],
        [ld(&p.fwd[1], 0), ld(&p.fwd[1], 1)],
        [ld(&p.fwd[2], 0), ld(&p.fwd[2], 1)],
    );
    let (rh, rl, rm) = (
        [ld(&p.rev[0], 0), ld(&p.rev[0], 1)],
        [ld(&p.rev[1], 0), ld(&p.rev[1], 1)],
        [ld(&p.rev[2], 0), ld(&p.rev[2], 1)],
    );
    let mut acc = [ld(&p.sums, 0), ld(&p.sums, 1)];
    let mut cf = [_mm256_setzero_si256(); 2];
    let mut cr = [_mm256_setzero_si256(); 2];
    let sign = _mm256_set1_pd(-0.0);
    let base = p.values.as_ptr();
    let (s, i, j0, rows) = (p.s, p.i, p.j0, p.rows);
    macro_rules! run {
        ($abs:expr, |$d:ident, $m:ident| $t:expr) => {
            for b in 0..rows {
                let row = base.add(b * s);
                let vi = _mm256_broadcast_sd(&*row.add(i));
                for h in 0..2 {
                    let $d = _mm256_sub_pd(_mm256_loadu_pd(row.add(j0 + 4 * h)), vi);
                    acc[h] =
                        _mm256_add_pd(acc[h], if $abs { _mm256_andnot_pd(sign, $d) } else { $d });
                    let t = {
                        let $m = fm[h];
                        $t
                    };
                    let c = _mm256_or_pd(
                        _mm256_cmp_pd::<_CMP_GT_OQ>(t, fh[h]),
                        _mm256_cmp_pd::<_CMP_LT_OQ>(t, fl[h]),
                    );
                    cf[h] = _mm256_sub_epi64(cf[h], _mm256_castpd_si256(c));
                    let t = {
                        let $m = rm[h];
                        $t
                    };
                    let c = _mm256_or_pd(
                        _mm256_cmp_pd::<_CMP_GT_OQ>(t, rh[h]),
                        _mm256_cmp_pd::<_CMP_LT_OQ>(t, rl[h]),
                    );
                    cr[h] = _mm256_sub_epi64(cr[h], _mm256_castpd_si256(c));
                }
            }
        };
    }
    macro_rules! kinds {
        ($abs:expr) => {
            match p.kind {
                PairKind::Delta => run!($abs, |d, _m| d),
                PairKind::Scaled(o) => {
                    let ov = _mm256_set1_pd(o);
                    run!($abs, |d, _m| _mm256_mul_pd(d, ov))
                }
                PairKind::AbsShift => {
                    run!($abs, |d, m| _mm256_andnot_pd(sign, _mm256_sub_pd(d, m)))
                }
                PairKind::Shift => run!($abs, |d, m| _mm256_sub_pd(d, m)),
                PairKind::AbsMinus => {
                    run!($abs, |d, m| _mm256_sub_pd(_mm256_andnot_pd(sign, d), m))
                }
            }
        };
    }
    if p.abs_sum {
        kinds!(true)
    } else {
        kinds!(false)
    }
    let mut sums = [0.0f64; 8];
    _mm256_storeu_pd(sums.as_mut_ptr(), acc[0]);
    _mm256_storeu_pd(sums.as_mut_ptr().add(4), acc[1]);
    p.sums = sums;
    let mut c = [0u64; 8];
    _mm256_storeu_si256(c.as_mut_ptr().cast(), cf[0]);
    _mm256_storeu_si256(c.as_mut_ptr().add(4).cast(), cf[1]);
    for (a, x) in p.cf.iter_mut().zip(c) {
        *a += x;
    }
    _mm256_storeu_si256(c.as_mut_ptr().cast(), cr[0]);
    _mm256_storeu_si256(c.as_mut_ptr().add(4).cast(), cr[1]);
    for (a, x) in p.cr.iter_mut().zip(c) {
        *a += x;
    }
}

// ------------------------------------------------------------------------ any kernel in AVX2

/// `k.run()` in the AVX2 build where [`avx2`] says the CPU has it (the
/// kernel's `run` must be `#[inline(always)]`, and give the same bytes in
/// either build: no fused multiply-add, no reassociation).
#[inline]
pub(crate) fn with_avx2<K: Kernel>(k: K) -> K::Out {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            return unsafe { avx2_build(k) };
        }
    }
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2_build<K: Kernel>(k: K) -> K::Out {
    k.run()
}

// ------------------------------------------------------------------------ swap sums

/// Random resamples whose float swap sums run side by side (independent add
/// chains, so the adds pipeline instead of waiting on each other).
pub(crate) const SWAP_GROUP: usize = 4;

/// The swap words of a group's resamples into `all`, word-major (`words ×
/// SWAP_GROUP`: word `wi` of resample `r` at `wi * SWAP_GROUP + r`), each
/// resample's in its stream's order, drawn four at a time by `next4`.
/// `make(r)` gives resample `r`'s stream (made one at a time, in place);
/// `all` is reused from group to group.
#[inline(always)]
fn group_words_body<G: Words>(
    mut make: impl FnMut(usize) -> G,
    mut next4: impl FnMut(&mut G) -> [u64; 4],
    words: usize,
    all: &mut Vec<u64>,
) {
    all.clear();
    all.resize(words * SWAP_GROUP, 0);
    for r in 0..SWAP_GROUP {
        let mut g = make(r);
        let mut wi = 0;
        while wi + 4 <= words {
            for (j, w) in next4(&mut g).into_iter().enumerate() {
                all[(wi + j) * SWAP_GROUP + r] = w;
            }
            wi += 4;
        }
        for w in wi..words {
            all[w * SWAP_GROUP + r] = g.next_u64();
        }
    }
}

/// [`group_words_body`] with each stream's own four-word draw.
pub(crate) fn group_words<G: Words>(
    make: impl FnMut(usize) -> G,
    words: usize,
    all: &mut Vec<u64>,
) {
    group_words_body(make, |g| g.next4(), words, all);
}

/// [`group_words`] for version-2 streams: whole steps in AVX2 where the CPU
/// has it ([`lanes_step_avx2`]; the same words).
pub(crate) fn group_words_v2(make: impl FnMut(usize) -> Lanes, words: usize, all: &mut Vec<u64>) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU supports AVX2 (checked above).
        return unsafe { group_words_v2_avx2(make, words, all) };
    }
    group_words(make, words, all)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn group_words_v2_avx2(make: impl FnMut(usize) -> Lanes, words: usize, all: &mut Vec<u64>) {
    let step = |g: &mut Lanes| {
        if g.at_step() {
            // SAFETY: this function runs only where the CPU has AVX2.
            unsafe { lanes_step_avx2(g.state_mut()) }
        } else {
            g.next4()
        }
    };
    group_words_body(make, step, words, all);
}

/// [`float_masked`] for [`SWAP_GROUP`] resamples at once, resample `r` taking
/// its swap words from `all` ([`group_words`]) in order: each resample's
/// lanes receive the same terms in the same order. An unswapped item adds
/// +0.0 where `float_masked` adds `d · 0.0` (±0.0): a lane never holds −0.0
/// (it starts at +0.0, and only −0.0 + −0.0 gives −0.0), so both leave it
/// unchanged and the sums have the same bytes.
#[inline(always)]
fn float_group_body(
    cols: &[f64],
    words: usize,
    k: usize,
    all: &[u64],
    lanes: &mut [[[f64; 4]; SWAP_GROUP]],
) {
    let npad = words * 64;
    assert!(all.len() >= words * SWAP_GROUP);
    for wi in 0..words {
        let ws = &all[wi * SWAP_GROUP..(wi + 1) * SWAP_GROUP];
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
    all: &[u64],
    lanes: &mut [[[f64; 4]; SWAP_GROUP]],
) {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_and_pd, _mm256_loadu_pd, _mm256_storeu_pd,
    };
    let npad = words * 64;
    assert!(cols.len() >= k * npad && lanes.len() >= k);
    let masks = LANE_MASKS.as_ptr().cast::<f64>();
    assert!(all.len() >= words * SWAP_GROUP);
    // column by column (each column's accumulators are its own: the same adds in the same
    // order as word by word), the accumulators in registers
    for (c, lane) in lanes.iter_mut().enumerate().take(k) {
        let mut a: [__m256d; SWAP_GROUP] =
            std::array::from_fn(|r| _mm256_loadu_pd(lane[r].as_ptr()));
        for wi in 0..words {
            // each word read on its own (a volatile read): as one vector, its nibbles would be
            // cut out with slow lane extracts instead of scalar shifts
            let wp = all.as_ptr().add(wi * SWAP_GROUP);
            let ws: [u64; SWAP_GROUP] = std::array::from_fn(|r| std::ptr::read_volatile(wp.add(r)));
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
        for r in 0..SWAP_GROUP {
            _mm256_storeu_pd(lane[r].as_mut_ptr(), a[r]);
        }
    }
}

pub(crate) fn float_group(
    cols: &[f64],
    words: usize,
    k: usize,
    all: &[u64],
    lanes: &mut [[[f64; 4]; SWAP_GROUP]],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            return unsafe { float_group_avx2(cols, words, k, all, lanes) };
        }
    }
    float_group_body(cols, words, k, all, lanes);
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
    fn lanes_new_is_the_scalar_seeding() {
        let mut x = Xoshiro::new(5, 6, 7, 8);
        for i in 0..300u64 {
            let (seed, tag, resample, sub) = if i < 4 {
                ([0, u64::MAX, 1, 0][i as usize], i, i, 0)
            } else {
                (x.next_u64(), x.next_u64(), x.next_u64(), x.next_u64())
            };
            for on in [true, false] {
                set_enabled(on);
                let mut a = lanes_new(seed, tag, resample, sub);
                set_enabled(true);
                let mut b = Lanes::new(seed, tag, resample, sub);
                for _ in 0..12 {
                    assert_eq!(a.next_u64(), b.next_u64());
                }
            }
        }
    }

    #[test]
    fn group_words_are_each_streams_words_in_order() {
        // word-major: word wi of resample r at wi * SWAP_GROUP + r, as next_u64 gives them,
        // for both versions, every word count around the four-word steps, with and without AVX2
        for words in [0usize, 1, 3, 4, 5, 8, 31, 32, 33] {
            for seed in [0u64, 7, u64::MAX] {
                let want = |mut next: Box<dyn FnMut(usize) -> Vec<u64>>| {
                    let rows: Vec<Vec<u64>> = (0..SWAP_GROUP).map(&mut next).collect();
                    (0..words * SWAP_GROUP)
                        .map(|i| rows[i % SWAP_GROUP][i / SWAP_GROUP])
                        .collect::<Vec<u64>>()
                };
                let v1 = want(Box::new(|r| {
                    let mut x = Xoshiro::new(seed, 3, r as u64, 1);
                    (0..words).map(|_| x.next_u64()).collect()
                }));
                let v2 = want(Box::new(|r| {
                    let mut l = Lanes::new(seed, 3, r as u64, 1);
                    (0..words).map(|_| l.next_u64()).collect()
                }));
                // one buffer for every call, as a block reuses it from group to group
                let mut all = vec![7u64; 3];
                group_words(|r| Xoshiro::new(seed, 3, r as u64, 1), words, &mut all);
                assert_eq!(all, v1);
                group_words(|r| Lanes::new(seed, 3, r as u64, 1), words, &mut all);
                assert_eq!(all, v2);
                for on in [true, false] {
                    set_enabled(on);
                    group_words_v2(|r| Lanes::new(seed, 3, r as u64, 1), words, &mut all);
                    set_enabled(true);
                    assert_eq!(all, v2);
                }
            }
        }
    }

    #[test]
    fn v2_simd_steps_take_the_words_of_the_scalar_path() {
        // the SIMD steps (AVX2, and AVX-512VL where the CPU has it) may hand a step's indices
        // in any order (their consumers add them up), but take exactly the words of the scalar
        // path, rejections (n = 2^31 + 1: about half the words) included
        #[cfg(target_arch = "x86_64")]
        for n in [1u64, 3, 1000, (1 << 31) + 1, (1 << 31) + 12345, 1 << 32] {
            let bnd = Bounded::new(n);
            for count in [0usize, 5, 8, 15, 16, 17, 24, 200, 1001] {
                let mut want = Vec::new();
                let mut b = Lanes::new(1, TAG_BOOTSTRAP, n, 0);
                let _ = b.next_u32(); // start mid-step
                b.bounded(&bnd, count, |i| want.push(i));
                want.sort_unstable();
                let after = b.next_u32();
                for isa in [512, 2] {
                    if (isa == 512 && !avx512()) || !avx2() {
                        continue;
                    }
                    let mut a = Lanes::new(1, TAG_BOOTSTRAP, n, 0);
                    let _ = a.next_u32();
                    let mut got = Vec::new();
                    let push = |i: usize, _: bool| got.push(i);
                    // SAFETY: the CPU supports the build's features (checked above).
                    unsafe {
                        if isa == 512 {
                            v2_avx512::bounded(&mut a, &bnd, count, push);
                        } else {
                            v2_avx2::bounded(&mut a, &bnd, count, push);
                        }
                    }
                    got.sort_unstable();
                    assert_eq!(got, want, "isa {isa} n={n} count={count}");
                    assert_eq!(a.next_u32(), after, "isa {isa} n={n} count={count}");
                }
            }
        }
    }

    #[test]
    fn v2_counts_and_sums_agree_across_builds() {
        // every build (portable, AVX2, AVX-512VL) counts and sums the same draws
        let n = 997usize;
        let rows: Vec<[i32; 8]> = (0..n)
            .map(|i| std::array::from_fn(|c| ((i * 31 + c * 7) % 23) as i32 - 11))
            .collect();
        let bnd = Bounded::new(n as u64);
        let run = || {
            let mut counts = vec![0u32; n];
            let mut l = Lanes::new(9, TAG_BOOTSTRAP, 4, 0);
            count_v2(&bnd, &mut l, 3 * n + 5, &mut counts);
            let mut m = Lanes::new(9, TAG_BOOTSTRAP, 5, 0);
            (
                counts,
                sums_i32_v2(&rows, &bnd, &mut m, n),
                l.next_u32(),
                m.next_u32(),
            )
        };
        let mut want_counts = vec![0u32; n];
        let mut l = Lanes::new(9, TAG_BOOTSTRAP, 4, 0);
        l.bounded(&bnd, 3 * n + 5, |i| want_counts[i] += 1);
        let mut want_sums = [0i32; 8];
        let mut m = Lanes::new(9, TAG_BOOTSTRAP, 5, 0);
        m.bounded(&bnd, n, |i| add8(&mut want_sums, &rows[i]));
        let want = (want_counts, want_sums, l.next_u32(), m.next_u32());
        for (on, wide) in [(true, true), (true, false), (false, false)] {
            set_enabled(on);
            set_avx512(wide);
            let got = run();
            set_enabled(true);
            set_avx512(true);
            assert!(got == want, "simd {on} avx512 {wide}");
        }
    }

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
