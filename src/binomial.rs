//! Exact binomial and multinomial draws, used where statistic rows repeat.
//!
//! Resampling `n` items with replacement, when the items fall into `d`
//! distinct rows with multiplicities `m_j`, gives row counts that are
//! multinomial(n; m_j / n). Drawing those counts as a chain of conditional
//! binomials costs O(d) per resample instead of O(n).
//!
//! Binomial(n, p) uses inversion when n·min(p, 1-p) < 10 and otherwise the
//! transformed rejection method with decomposition, BTRD (Hörmann 1993,
//! "The generation of binomial random variates", J. Statist. Comput.
//! Simul. 46), both exact.

use crate::rng::Stream;

/// Stirling-series remainder fc(k) = ln k! - (k + 1/2) ln(k + 1) + (k + 1) - ln(2π)/2.
fn stirling_tail(k: f64) -> f64 {
    #[allow(clippy::excessive_precision)]
    const TABLE: [f64; 10] = [
        0.081_061_466_795_327_26,
        0.041_340_695_955_409_29,
        0.027_677_925_684_998_34,
        0.020_790_672_103_765_09,
        0.016_644_691_189_821_19,
        0.013_876_128_823_070_75,
        0.011_896_709_945_891_77,
        0.010_411_265_261_972_09,
        0.009_255_462_182_712_733,
        0.008_330_563_433_362_871,
    ];
    if k < 10.0 {
        TABLE[k as usize]
    } else {
        let r = 1.0 / (k + 1.0);
        let r2 = r * r;
        (1.0 / 12.0 - (1.0 / 360.0 - r2 / 1260.0) * r2) * r
    }
}

fn inversion(stream: &mut Stream, n: u64, p: f64) -> u64 {
    let q = 1.0 - p;
    let s = p / q;
    let a = (n as f64 + 1.0) * s;
    let r0 = q.powf(n as f64);
    loop {
        let mut u = stream.next_f64();
        let mut r = r0;
        let mut x: u64 = 0;
        loop {
            if u < r {
                return x;
            }
            u -= r;
            x += 1;
            if x > n {
                break; // rounding left mass over; draw again
            }
            r *= a / x as f64 - s;
        }
    }
}

fn btrd(stream: &mut Stream, n: u64, p: f64) -> u64 {
    let nf = n as f64;
    let q = 1.0 - p;
    let m = ((nf + 1.0) * p).floor();
    let r = p / q;
    let nr = (nf + 1.0) * r;
    let npq = nf * p * q;
    let spq = npq.sqrt();
    let b = 1.15 + 2.53 * spq;
    let a = -0.0873 + 0.0248 * b + 0.01 * p;
    let c = nf * p + 0.5;
    let alpha = (2.83 + 5.1 / b) * spq;
    let vr = 0.92 - 4.2 / b;
    let urvr = 0.86 * vr;
    loop {
        let mut v = stream.next_f64();
        if v <= urvr {
            let u = v / vr - 0.43;
            return ((2.0 * a / (0.5 - u.abs()) + b) * u + c).floor() as u64;
        }
        let u;
        if v >= vr {
            u = stream.next_f64() - 0.5;
        } else {
            let w = v / vr - 0.93;
            u = 0.5f64.copysign(w) - w;
            v = stream.next_f64() * vr;
        }
        let us = 0.5 - u.abs();
        let kf = ((2.0 * a / us + b) * u + c).floor();
        if kf < 0.0 || kf > nf {
            continue;
        }
        v = v * alpha / (a / (us * us) + b);
        let km = (kf - m).abs();
        if km <= 15.0 {
            // recursive evaluation of f(k) / f(m)
            let mut f = 1.0;
            let (k, mi) = (kf as u64, m as u64);
            if mi < k {
                for i in (mi + 1)..=k {
                    f *= nr / i as f64 - r;
                }
            } else if mi > k {
                for i in (k + 1)..=mi {
                    v *= nr / i as f64 - r;
                }
            }
            if v <= f {
                return k;
            }
            continue;
        }
        // squeeze on the log scale
        let lv = v.ln();
        let rho = (km / npq) * (((km / 3.0 + 0.625) * km + 1.0 / 6.0) / npq + 0.5);
        let t = -km * km / (2.0 * npq);
        if lv < t - rho {
            return kf as u64;
        }
        if lv > t + rho {
            continue;
        }
        let nm = nf - m + 1.0;
        let h = (m + 0.5) * ((m + 1.0) / (r * nm)).ln() + stirling_tail(m) + stirling_tail(nf - m);
        let nk = nf - kf + 1.0;
        if lv
            <= h + (nf + 1.0) * (nm / nk).ln() + (kf + 0.5) * (nk * r / (kf + 1.0)).ln()
                - stirling_tail(kf)
                - stirling_tail(nf - kf)
        {
            return kf as u64;
        }
    }
}

/// An exact Binomial(n, p) draw.
pub fn binomial(stream: &mut Stream, n: u64, p: f64) -> u64 {
    if n == 0 || p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return n;
    }
    if p > 0.5 {
        return n - binomial(stream, n, 1.0 - p);
    }
    if (n as f64) * p < 10.0 {
        inversion(stream, n, p)
    } else {
        btrd(stream, n, p)
    }
}

/// Multinomial counts of `n` draws over categories with integer weights
/// `weights` (the multiplicities of distinct rows), as a chain of binomials
/// in category order. `out` receives one count per category.
pub fn multinomial(stream: &mut Stream, n: u64, weights: &[u64], out: &mut [u64]) {
    let mut left = n;
    let mut mass: u64 = weights.iter().sum();
    let last = weights.len() - 1;
    for (j, (&w, o)) in weights.iter().zip(out.iter_mut()).enumerate() {
        if j == last {
            *o = left;
            break;
        }
        let k = if left == 0 || w == 0 {
            0
        } else if w == mass {
            left
        } else {
            binomial(stream, left, w as f64 / mass as f64)
        };
        *o = k;
        left -= k;
        mass -= w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Version, TAG_BOOTSTRAP};

    fn moments(n: u64, p: f64, draws: usize) -> (f64, f64) {
        let mut s = Stream::new(Version::default(), 7, TAG_BOOTSTRAP, n, 1);
        let (mut sum, mut sq) = (0.0, 0.0);
        for _ in 0..draws {
            let k = binomial(&mut s, n, p) as f64;
            assert!(k <= n as f64);
            sum += k;
            sq += k * k;
        }
        let mean = sum / draws as f64;
        (mean, sq / draws as f64 - mean * mean)
    }

    #[test]
    fn binomial_moments_match() {
        for &(n, p) in &[
            (5u64, 0.3),
            (40, 0.1),
            (1000, 0.5),
            (130_000, 0.07),
            (130_000, 0.93),
            (25, 0.49),
        ] {
            let draws = 200_000;
            let (mean, var) = moments(n, p, draws);
            let (m, v) = (n as f64 * p, n as f64 * p * (1.0 - p));
            let se = (v / draws as f64).sqrt();
            assert!(
                (mean - m).abs() < 5.0 * se,
                "n={n} p={p} mean={mean} want {m}"
            );
            assert!(
                (var / v - 1.0).abs() < 0.03,
                "n={n} p={p} var={var} want {v}"
            );
        }
    }

    #[test]
    fn multinomial_sums_to_n() {
        let mut s = Stream::new(Version::default(), 3, TAG_BOOTSTRAP, 0, 0);
        let w = [5u64, 0, 100, 1, 7];
        let mut out = [0u64; 5];
        for _ in 0..1000 {
            multinomial(&mut s, 113, &w, &mut out);
            assert_eq!(out.iter().sum::<u64>(), 113);
            assert_eq!(out[1], 0);
        }
    }
}
