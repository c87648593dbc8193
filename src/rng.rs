//! Random numbers: a counter-based key per resample, a fast stream within it.
//!
//! Every resample `b` of every scheme owns an independent stream whose state
//! is the Philox4x64-10 block of counter `(b, sub, 0, 0)` under key
//! `(seed, scheme tag)`. Within a resample the draws come from xoshiro256++
//! started at that state. The stream of resample `b` is therefore a pure
//! function of `(seed, tag, b, sub)`: no thread, block size or batching can
//! change which numbers a resample sees.
//!
//! Bounded integers in `[0, n)` use Lemire's multiply-shift on 32-bit words
//! (low half of each 64-bit output first, then the high half) with exact
//! rejection, so every index is exactly uniform.

/// Bumped whenever the mapping from (seed, resample) to draws changes.
pub const STREAM_VERSION: u32 = 1;

/// Scheme tags: the second Philox key word.
pub const TAG_BOOTSTRAP: u64 = 0x626f_6f74; // "boot"
pub const TAG_PERMUTE: u64 = 0x7065_726d; // "perm"
/// Meta-evaluation bootstrap (`crate::meta`): sub-stream 0 draws systems, 1 items.
pub const TAG_META_BOOT: u64 = 0x6d62_6f6f; // "mboo"
/// Meta-evaluation permutation swap bits (`crate::meta`).
pub const TAG_META_PERM: u64 = 0x6d70_6572; // "mper"

const M0: u64 = 0xD2E7_470E_E14C_6C93;
const M1: u64 = 0xCA5A_8263_9512_1157;
const W0: u64 = 0x9E37_79B9_7F4A_7C15;
const W1: u64 = 0xBB67_AE85_84CA_A73B;

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

/// xoshiro256++ (Blackman & Vigna), seeded from one Philox block.
#[derive(Clone, Debug)]
pub struct Stream {
    s: [u64; 4],
}

impl Stream {
    /// The stream of resample `resample` (sub-stream `sub`) for `seed` and `tag`.
    #[must_use]
    pub fn new(seed: u64, tag: u64, resample: u64, sub: u64) -> Self {
        let mut s = philox4x64_10([resample, sub, 0, 0], [seed, tag]);
        if s == [0; 4] {
            s[0] = 1; // the all-zero state is a fixed point; probability 2^-256
        }
        Stream { s }
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

    /// A double in [0, 1) with 53 random bits.
    #[inline(always)]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
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

    /// Call `f` with `count` exact uniform indices drawn from `stream`, in order.
    #[inline(always)]
    pub fn for_each(&self, stream: &mut Stream, count: usize, mut f: impl FnMut(usize)) {
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
    /// Like [`Bounded::for_each`] for `M` independent streams at once:
    /// `f(m, index)` receives each stream's indices in that stream's order.
    /// Interleaving independent streams lets the CPU overlap their work; the
    /// draws of each stream are exactly those of `for_each`.
    #[inline(always)]
    pub fn for_each_multi<const M: usize>(
        &self,
        streams: &mut [Stream; M],
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
                    let mut s = Stream::new(11, TAG_BOOTSTRAP, r, 0);
                    let mut v = Vec::new();
                    b.for_each(&mut s, count, |i| v.push(i));
                    single.push(v);
                }
                let mut streams: [Stream; 4] =
                    std::array::from_fn(|r| Stream::new(11, TAG_BOOTSTRAP, r as u64, 0));
                let mut multi = vec![Vec::new(); 4];
                b.for_each_multi(&mut streams, count, |m, i| multi[m].push(i));
                assert_eq!(single, multi, "n={n} count={count}");
            }
        }
    }

    #[test]
    fn streams_are_keyed() {
        let mut a = Stream::new(1, TAG_BOOTSTRAP, 0, 0);
        let mut b = Stream::new(1, TAG_BOOTSTRAP, 1, 0);
        let mut c = Stream::new(1, TAG_BOOTSTRAP, 0, 0);
        let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
        assert_ne!(x, y);
        assert_eq!(x, z);
        let f = a.next_f64();
        assert!((0.0..1.0).contains(&f));
    }
}
