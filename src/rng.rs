//! Random numbers: a counter-based key per resample, a fast stream within it.
//!
//! Every resample `b` of every scheme owns an independent stream, a pure
//! function of `(seed, tag, b, sub)` and the stream version: no thread, block
//! size or batching can change which numbers a resample sees. Two versions
//! exist; a [`Version`] picks one (version 2 is the default, version 1 stays
//! selectable so that every earlier result reproduces).
//!
//! **Version 1** ([`Xoshiro`]): one xoshiro256++ generator whose state is the
//! Philox4x64-10 block of counter `(b, sub, 0, 0)` under key `(seed, tag)`.
//! Its 64-bit outputs are the stream's words. Bounded integers in `[0, n)`
//! use Lemire's multiply-shift on 32-bit halves (low half of each 64-bit
//! output first, then the high half) with exact rejection; the last index of
//! a run takes the high half only if the low half was rejected.
//!
//! **Version 2** ([`Lanes`]): four xoshiro256++ lanes advanced together (one
//! AVX2 register per state word). Lane `l` (0..4) starts at the Philox4x64-10
//! block of counter `(b, sub, l, 2)` under key `(seed, tag)`. Step `t`
//! advances every lane once, giving outputs `o[t][0..4]`; the stream is the
//! sequence of 32-bit words `w[8t + 2l] = o[t][l] mod 2^32`,
//! `w[8t + 2l + 1] = o[t][l] >> 32` (lane by lane, low half first: the
//! little-endian bytes of the four outputs). Consumers take words in order:
//! a bounded integer in `[0, n)` takes one word `w`, rejects it when
//! `(w·n) mod 2^32 < 2^32 mod n` and otherwise is `(w·n) >> 32` (Lemire,
//! exact and unbiased); a 64-bit word is `w[p] + 2^32·w[p+1]` (the next two);
//! a double is the top 53 bits of a 64-bit word times 2^-53. A scalar
//! fallback and the SIMD kernels ([`crate::simd`]) produce the same words.

use crate::{Error, Result};

/// The default stream version (what a result uses unless told otherwise).
pub const STREAM_VERSION: u32 = 2;
/// Every stream version this build can draw.
pub const STREAM_VERSIONS: [u32; 2] = [1, 2];

/// A stream version: the mapping from (seed, tag, resample, sub) to draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Version {
    /// One xoshiro256++ generator per resample ([`Xoshiro`]).
    V1,
    /// Four xoshiro256++ lanes per resample, 32-bit words ([`Lanes`]).
    #[default]
    V2,
}

impl Version {
    /// The version numbered `v` (1 or 2).
    pub fn from_number(v: u32) -> Result<Self> {
        match v {
            1 => Ok(Version::V1),
            2 => Ok(Version::V2),
            _ => Err(Error::input(format!(
                "stream version {v} is unknown: this build draws versions {STREAM_VERSIONS:?}"
            ))),
        }
    }

    /// The version's number.
    #[must_use]
    pub fn number(self) -> u32 {
        match self {
            Version::V1 => 1,
            Version::V2 => 2,
        }
    }
}

/// Scheme tags: the second Philox key word.
pub const TAG_BOOTSTRAP: u64 = 0x626f_6f74; // "boot"
pub const TAG_PERMUTE: u64 = 0x7065_726d; // "perm"
/// The second level of a design bootstrap (`crate::engine::designs`): repeats
/// within drawn items, or the prompts crossed with items.
pub const TAG_LEVEL2: u64 = 0x6c76_6c32; // "lvl2"
/// Meta-evaluation bootstrap (`crate::meta`): sub-stream 0 draws systems, 1 items.
pub const TAG_META_BOOT: u64 = 0x6d62_6f6f; // "mboo"
/// Meta-evaluation permutation swap bits (`crate::meta`).
pub const TAG_META_PERM: u64 = 0x6d70_6572; // "mper"

pub(crate) const M0: u64 = 0xD2E7_470E_E14C_6C93;
pub(crate) const M1: u64 = 0xCA5A_8263_9512_1157;
pub(crate) const W0: u64 = 0x9E37_79B9_7F4A_7C15;
pub(crate) const W1: u64 = 0xBB67_AE85_84CA_A73B;

#[inline(always)]
fn mulhilo(a: u64, b: u64) -> (u64, u64) {
    let p = u128::from(a) * u128::from(b);
    ((p >> 64) as u64, p as u64)
}

/// The Philox4x64 block function with 10 rounds (Salmon et al. 2011).
#[must_use]
pub fn philox4x64_10(ctr: [u64; 4], key: [u64; 2]) -> [u64; 4] {
    let mut c = ctr;
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        let (hi0, lo0) = mulhilo(M0, c[0]);
        let (hi1, lo1) = mulhilo(M1, c[2]);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

/// xoshiro256++ (Blackman & Vigna) seeded from one Philox block: the
/// generator of stream version 1.
#[derive(Clone, Debug)]
pub struct Xoshiro {
    s: [u64; 4],
}

impl Xoshiro {
    /// The version-1 stream of resample `resample` (sub-stream `sub`) for `seed` and `tag`.
    #[must_use]
    pub fn new(seed: u64, tag: u64, resample: u64, sub: u64) -> Self {
        Xoshiro {
            s: seeded([resample, sub, 0, 0], [seed, tag]),
        }
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
}

/// A xoshiro256++ state from one Philox block (the all-zero state, a fixed
/// point of probability 2^-256, becomes (1, 0, 0, 0)).
fn seeded(ctr: [u64; 4], key: [u64; 2]) -> [u64; 4] {
    let mut s = philox4x64_10(ctr, key);
    if s == [0; 4] {
        s[0] = 1;
    }
    s
}

/// Lanes of the version-2 stream.
pub const LANES: usize = 4;
/// 32-bit words per step of the version-2 stream.
pub const STEP_WORDS: usize = 2 * LANES;

/// The generator of stream version 2: [`LANES`] xoshiro256++ lanes advanced
/// together, read as 32-bit words (see the module documentation).
#[derive(Clone, Debug)]
pub struct Lanes {
    /// `s[k][l]`: state word `k` of lane `l` (one SIMD register per state word)
    s: [[u64; LANES]; 4],
    /// the words of the last step not yet consumed: `buf[pos..]`
    buf: [u32; STEP_WORDS],
    pos: usize,
}

impl Lanes {
    /// The version-2 stream of resample `resample` (sub-stream `sub`) for `seed` and `tag`.
    #[must_use]
    pub fn new(seed: u64, tag: u64, resample: u64, sub: u64) -> Self {
        // four independent Philox blocks: out-of-order execution overlaps their multiply chains
        let blocks: [[u64; 4]; LANES] =
            Self::counters(resample, sub).map(|c| seeded(c, [seed, tag]));
        Self::from_blocks(blocks)
    }

    /// The Philox counters of the lanes' seeds (lane l: block l), under the key `[seed, tag]`.
    #[inline(always)]
    pub(crate) fn counters(resample: u64, sub: u64) -> [[u64; 4]; LANES] {
        std::array::from_fn(|l| [resample, sub, l as u64, 2])
    }

    /// The lanes seeded from their Philox blocks (each an all-zero block made
    /// (1, 0, 0, 0), as [`seeded`] does).
    #[inline(always)]
    pub(crate) fn from_blocks(mut blocks: [[u64; 4]; LANES]) -> Self {
        for b in &mut blocks {
            if *b == [0; 4] {
                b[0] = 1;
            }
        }
        let s: [[u64; LANES]; 4] = std::array::from_fn(|k| std::array::from_fn(|l| blocks[l][k]));
        Lanes {
            s,
            buf: [0; STEP_WORDS],
            pos: STEP_WORDS,
        }
    }

    /// Advance every lane once: the lanes' 64-bit outputs, lane by lane.
    #[inline(always)]
    pub fn step(&mut self) -> [u64; LANES] {
        let [s0, s1, s2, s3] = &mut self.s;
        let mut out = [0u64; LANES];
        for l in 0..LANES {
            out[l] = s0[l]
                .wrapping_add(s3[l])
                .rotate_left(23)
                .wrapping_add(s0[l]);
            let t = s1[l] << 17;
            s2[l] ^= s0[l];
            s3[l] ^= s1[l];
            s1[l] ^= s2[l];
            s0[l] ^= s3[l];
            s2[l] ^= t;
            s3[l] = s3[l].rotate_left(45);
        }
        out
    }

    /// The next step's eight 32-bit words, in stream order (the buffer is bypassed:
    /// call only when it is empty).
    #[inline(always)]
    pub fn step_words(&mut self) -> [u32; STEP_WORDS] {
        let o = self.step();
        let mut w = [0u32; STEP_WORDS];
        for l in 0..LANES {
            w[2 * l] = o[l] as u32;
            w[2 * l + 1] = (o[l] >> 32) as u32;
        }
        w
    }

    /// Whether the words of the last step are all consumed.
    #[inline(always)]
    #[must_use]
    pub fn at_step(&self) -> bool {
        self.pos == STEP_WORDS
    }

    /// The next 32-bit word.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        if self.pos == STEP_WORDS {
            self.buf = self.step_words();
            self.pos = 0;
        }
        let w = self.buf[self.pos];
        self.pos += 1;
        w
    }

    /// The next two words as one 64-bit word (the first is the low half).
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let lo = self.next_u32();
        let hi = self.next_u32();
        u64::from(lo) | (u64::from(hi) << 32)
    }

    /// Call `f` with `count` exact uniform indices in `[0, bnd.n)`, in order:
    /// each takes the next word, rejected words are skipped. Whole steps go
    /// eight words at a time; a step's unused words stay for the next call.
    #[inline(always)]
    pub fn bounded(&mut self, bnd: &Bounded, count: usize, mut f: impl FnMut(usize)) {
        let mut left = self.bounded_head(bnd, count, &mut f);
        while left >= STEP_WORDS {
            self.bounded_step(bnd, &mut left, &mut f);
        }
        self.bounded_tail(bnd, left, &mut f);
    }

    /// The first part of [`Lanes::bounded`]: the buffered words. Returns how
    /// many indices are still to draw; when any are, the buffer is empty.
    #[inline(always)]
    pub fn bounded_head(
        &mut self,
        bnd: &Bounded,
        count: usize,
        f: &mut impl FnMut(usize),
    ) -> usize {
        let mut left = count;
        while left > 0 && self.pos < STEP_WORDS {
            let w = self.buf[self.pos];
            self.pos += 1;
            if let Some(i) = bnd.map(w) {
                f(i as usize);
                left -= 1;
            }
        }
        left
    }

    /// One whole step of [`Lanes::bounded`] (the buffer is empty and at least
    /// eight indices are still to draw).
    #[inline(always)]
    pub fn bounded_step(&mut self, bnd: &Bounded, left: &mut usize, f: &mut impl FnMut(usize)) {
        debug_assert!(*left >= STEP_WORDS && self.at_step());
        let w = self.step_words();
        let mut idx = [0u32; STEP_WORDS];
        let mut ok = true;
        for k in 0..STEP_WORDS {
            let m = u64::from(w[k]) * bnd.n;
            idx[k] = (m >> 32) as u32;
            ok &= (m as u32) >= bnd.threshold;
        }
        if ok {
            for i in idx {
                f(i as usize);
            }
            *left -= STEP_WORDS;
        } else {
            // at most seven accepted: `left` stays positive
            for w in w {
                if let Some(i) = bnd.map(w) {
                    f(i as usize);
                    *left -= 1;
                }
            }
        }
    }

    /// The last part of [`Lanes::bounded`]: fewer than eight indices, word by
    /// word through the buffer.
    #[inline(always)]
    pub fn bounded_tail(&mut self, bnd: &Bounded, mut left: usize, f: &mut impl FnMut(usize)) {
        while left > 0 {
            let w = self.next_u32();
            if let Some(i) = bnd.map(w) {
                f(i as usize);
                left -= 1;
            }
        }
    }

    /// The lanes' state (`[word][lane]`), for SIMD kernels that advance it
    /// exactly as [`Lanes::step`] does (only while the buffer is empty).
    #[inline(always)]
    pub fn state_mut(&mut self) -> &mut [[u64; LANES]; 4] {
        debug_assert!(self.at_step());
        &mut self.s
    }
}

/// A resample's stream in either version.
#[derive(Clone, Debug)]
pub enum Stream {
    V1(Xoshiro),
    V2(Lanes),
}

impl Stream {
    /// The stream of resample `resample` (sub-stream `sub`) for `seed` and `tag`.
    #[must_use]
    pub fn new(version: Version, seed: u64, tag: u64, resample: u64, sub: u64) -> Self {
        match version {
            Version::V1 => Stream::V1(Xoshiro::new(seed, tag, resample, sub)),
            Version::V2 => Stream::V2(Lanes::new(seed, tag, resample, sub)),
        }
    }

    /// The next 64-bit word.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        match self {
            Stream::V1(x) => x.next_u64(),
            Stream::V2(l) => l.next_u64(),
        }
    }

    /// A double in [0, 1) with 53 random bits (the top bits of a 64-bit word).
    #[inline(always)]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }
}

/// Generators that give 64-bit words (the swap bits of permutations read them).
pub trait Words {
    fn next_u64(&mut self) -> u64;

    /// The next four words (what four calls of `next_u64` give).
    #[inline(always)]
    fn next4(&mut self) -> [u64; 4] {
        std::array::from_fn(|_| self.next_u64())
    }
}

impl Words for Xoshiro {
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        Xoshiro::next_u64(self)
    }
}

impl Words for Lanes {
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        Lanes::next_u64(self)
    }

    /// At a step, one step: lane l's output is the l-th 64-bit word (its low
    /// half first), as `next_u64` reads the step's words.
    #[inline(always)]
    fn next4(&mut self) -> [u64; 4] {
        if self.at_step() {
            self.step()
        } else {
            std::array::from_fn(|_| Lanes::next_u64(self))
        }
    }
}

impl Words for Stream {
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        Stream::next_u64(self)
    }
}

/// The swap bits of a permutation resample, one per unit (item, system or
/// cell): unit t is swapped when bit t mod 64 of word t / 64 is set, the
/// words taken in order from `word` (a resample's stream, or an exact
/// arrangement's own bits). The one reading of swap words into swaps.
#[inline]
pub fn swap_bits(mask: &mut [bool], mut word: impl FnMut() -> u64) {
    let mut w = 0u64;
    for (t, m) in mask.iter_mut().enumerate() {
        if t % 64 == 0 {
            w = word();
        }
        *m = (w >> (t % 64)) & 1 == 1;
    }
}

/// Exact uniform integers in `[0, n)` from 32-bit words (Lemire 2019).
#[derive(Clone, Copy, Debug)]
pub struct Bounded {
    pub(crate) n: u64,
    pub(crate) threshold: u32,
}

impl Bounded {
    /// `n` must be in `1..=2^32`.
    #[must_use]
    pub fn new(n: u64) -> Self {
        assert!(
            (1..=1 << 32).contains(&n),
            "bounded range must be in 1..=2^32"
        );
        let threshold = ((1u64 << 32) % n) as u32;
        Bounded { n, threshold }
    }

    /// Map one 32-bit word; `None` means the word is rejected.
    #[inline(always)]
    #[must_use]
    pub fn map(&self, x: u32) -> Option<u32> {
        let m = u64::from(x) * self.n;
        if (m as u32) >= self.threshold {
            Some((m >> 32) as u32)
        } else {
            None
        }
    }

    /// Call `f` with `count` exact uniform indices drawn from `stream`, in
    /// order (each version's rule: see the module documentation).
    #[inline(always)]
    pub fn for_each(&self, stream: &mut Stream, count: usize, f: impl FnMut(usize)) {
        match stream {
            Stream::V1(x) => self.for_each_v1(x, count, f),
            Stream::V2(l) => l.bounded(self, count, f),
        }
    }

    /// [`Bounded::for_each`] on a version-1 generator.
    #[inline(always)]
    pub fn for_each_v1(&self, stream: &mut Xoshiro, count: usize, mut f: impl FnMut(usize)) {
        let mut left = count;
        // whole words while at least two indices are still needed
        while left >= 2 {
            let u = stream.next_u64();
            if let Some(i) = self.map(u as u32) {
                f(i as usize);
                left -= 1;
            }
            if let Some(i) = self.map((u >> 32) as u32) {
                f(i as usize);
                left -= 1;
            }
        }
        // the last index: the low half first; the high half only if the low one was rejected
        while left > 0 {
            let u = stream.next_u64();
            if let Some(i) = self.map(u as u32) {
                f(i as usize);
                break;
            }
            if let Some(i) = self.map((u >> 32) as u32) {
                f(i as usize);
                left -= 1;
            }
        }
    }
}

impl Bounded {
    /// Like [`Bounded::for_each_v1`] for `M` independent streams at once:
    /// `f(m, index)` receives each stream's indices in that stream's order.
    /// Interleaving independent streams lets the CPU overlap their work; the
    /// draws of each stream are exactly those of `for_each`.
    #[inline(always)]
    pub fn for_each_multi<const M: usize>(
        &self,
        streams: &mut [Xoshiro; M],
        count: usize,
        mut f: impl FnMut(usize, usize),
    ) {
        let mut left = [count; M];
        // fast phase: every stream still needs at least two draws
        while left.iter().all(|&l| l >= 2) {
            for m in 0..M {
                let u = streams[m].next_u64();
                if let Some(i) = self.map(u as u32) {
                    f(m, i as usize);
                    left[m] -= 1;
                }
                if let Some(i) = self.map((u >> 32) as u32) {
                    f(m, i as usize);
                    left[m] -= 1;
                }
            }
        }
        // tails, stream by stream, continuing each stream exactly as for_each would
        for m in 0..M {
            let mut l = left[m];
            while l > 0 {
                let u = streams[m].next_u64();
                if let Some(i) = self.map(u as u32) {
                    f(m, i as usize);
                    l -= 1;
                    if l == 0 {
                        break;
                    }
                }
                if let Some(i) = self.map((u >> 32) as u32) {
                    f(m, i as usize);
                    l -= 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn philox_known_answers() {
        // The first is Random123's all-zero known answer; all three equal
        // numpy's independent Philox (numpy.random.Philox, counter - 1).
        assert_eq!(
            philox4x64_10([0; 4], [0; 2]),
            [
                0x1655_4d9e_ca36_314c,
                0xdb20_fe9d_672d_0fdc,
                0xd7e7_72ce_e186_176b,
                0x7e68_b68a_ec7b_a23b
            ]
        );
        assert_eq!(
            philox4x64_10([u64::MAX; 4], [u64::MAX; 2]),
            [
                0x87b0_92c3_013f_e90b,
                0x438c_3c67_be8d_0224,
                0x9cc7_d7c6_9cd7_77b6,
                0xa09c_aebf_594f_0ba0
            ]
        );
        assert_eq!(
            philox4x64_10(
                [
                    0x243f_6a88_85a3_08d3,
                    0x1319_8a2e_0370_7344,
                    0xa409_3822_299f_31d0,
                    0x082e_fa98_ec4e_6c89
                ],
                [0x4528_21e6_38d0_1377, 0xbe54_66cf_34e9_0c6c]
            ),
            [
                0xa528_f454_03e6_1d95,
                0x38c7_2dbd_566e_9788,
                0xa5a1_610e_72fd_18b5,
                0x57bd_43b5_e52b_7fe6
            ]
        );
    }

    #[test]
    fn bounded_is_exact_on_small_ranges() {
        // threshold = 2^32 mod n; words below it are rejected.
        let b = Bounded::new(3);
        assert_eq!(b.threshold, 1);
        assert_eq!(b.map(0), None);
        assert_eq!(b.map(1), Some(0));
        assert_eq!(b.map(u32::MAX), Some(2));
        let b1 = Bounded::new(1);
        assert_eq!(b1.map(0), Some(0));
        assert_eq!(b1.map(u32::MAX), Some(0));
        // counts over all words of a 2^8 slice land evenly when n | 2^32
        let b4 = Bounded::new(4);
        let mut counts = [0u32; 4];
        for x in 0..1024u32 {
            counts[b4.map(x << 22).unwrap() as usize] += 1;
        }
        assert_eq!(counts, [256; 4]);
    }

    #[test]
    fn multi_equals_single() {
        for n in [1u64, 2, 3, 7, 1000, (1 << 31) + 12345] {
            let b = Bounded::new(n);
            for count in [0usize, 1, 2, 3, 5, 64] {
                let mut single = Vec::new();
                for r in 0..4u64 {
                    let mut s = Xoshiro::new(11, TAG_BOOTSTRAP, r, 0);
                    let mut v = Vec::new();
                    b.for_each_v1(&mut s, count, |i| v.push(i));
                    single.push(v);
                }
                let mut streams: [Xoshiro; 4] =
                    std::array::from_fn(|r| Xoshiro::new(11, TAG_BOOTSTRAP, r as u64, 0));
                let mut multi = vec![Vec::new(); 4];
                b.for_each_multi(&mut streams, count, |m, i| multi[m].push(i));
                assert_eq!(single, multi, "n={n} count={count}");
            }
        }
    }

    #[test]
    fn v2_words_are_lane_outputs_in_order() {
        // word 8t + 2l is the low half of lane l's output at step t, 8t + 2l + 1 the high half;
        // lane l is xoshiro256++ from the Philox block of counter (b, sub, l, 2)
        let mut lanes = Lanes::new(5, TAG_PERMUTE, 9, 3);
        let mut solo: Vec<Xoshiro> = (0..LANES as u64)
            .map(|l| Xoshiro {
                s: seeded([9, 3, l, 2], [5, TAG_PERMUTE]),
            })
            .collect();
        for _ in 0..5 {
            let o: Vec<u64> = solo.iter_mut().map(Xoshiro::next_u64).collect();
            for &ol in &o {
                assert_eq!(lanes.next_u32(), ol as u32);
                assert_eq!(lanes.next_u32(), (ol >> 32) as u32);
            }
        }
        // 64-bit words straddle steps when the position is odd
        let mut a = Stream::new(Version::V2, 1, 2, 3, 4);
        let mut b = Lanes::new(1, 2, 3, 4);
        let mut words = Vec::new();
        for _ in 0..40 {
            words.push(b.next_u32());
        }
        let Stream::V2(l) = &mut a else { panic!() };
        assert_eq!(l.next_u32(), words[0]);
        for k in 0..19 {
            let want = u64::from(words[1 + 2 * k]) | (u64::from(words[2 + 2 * k]) << 32);
            assert_eq!(a.next_u64(), want, "{k}");
        }
    }

    #[test]
    fn v2_bounded_is_word_by_word() {
        // the eight-word fast path, its rejection fallback and the buffered tail take words
        // exactly in order: the same indices as one word at a time
        for n in [
            1u64,
            2,
            3,
            7,
            1000,
            (1 << 31) + 1,
            (1 << 31) + 12345,
            1 << 32,
        ] {
            let bnd = Bounded::new(n);
            for counts in [&[0usize, 1, 2][..], &[5, 3, 17], &[64], &[8, 8, 1, 40]] {
                let mut bulk = Lanes::new(3, TAG_BOOTSTRAP, n, 1);
                let mut one = bulk.clone();
                for &count in counts {
                    let mut got = Vec::new();
                    bulk.bounded(&bnd, count, |i| got.push(i));
                    let mut want = Vec::new();
                    while want.len() < count {
                        if let Some(i) = bnd.map(one.next_u32()) {
                            want.push(i as usize);
                        }
                    }
                    assert_eq!(got, want, "n={n} counts={counts:?}");
                    assert!(got.iter().all(|&i| (i as u64) < n));
                }
                // and the streams stand at the same word afterwards
                assert_eq!(bulk.next_u32(), one.next_u32());
            }
        }
    }

    #[test]
    fn versions() {
        assert_eq!(Version::default().number(), STREAM_VERSION);
        for v in STREAM_VERSIONS {
            assert_eq!(Version::from_number(v).unwrap().number(), v);
        }
        assert!(Version::from_number(0).is_err());
        assert!(Version::from_number(3).is_err());
    }

    #[test]
    fn streams_are_keyed() {
        for v in [Version::V1, Version::V2] {
            let mut a = Stream::new(v, 1, TAG_BOOTSTRAP, 0, 0);
            let mut b = Stream::new(v, 1, TAG_BOOTSTRAP, 1, 0);
            let mut c = Stream::new(v, 1, TAG_BOOTSTRAP, 0, 0);
            let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
            assert_ne!(x, y);
            assert_eq!(x, z);
            let f = a.next_f64();
            assert!((0.0..1.0).contains(&f));
        }
        // the versions are different streams
        let mut one = Stream::new(Version::V1, 1, TAG_BOOTSTRAP, 0, 0);
        let mut two = Stream::new(Version::V2, 1, TAG_BOOTSTRAP, 0, 0);
        assert_ne!(one.next_u64(), two.next_u64());
    }
}
