//! p-values and percentile intervals from resampled metric values.

/// Sidedness of a test of δ = m(y) − m(x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alternative {
    TwoSided,
    Greater,
    Less,
}

/// Paired-bootstrap p-value definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BootVariant {
    /// Berg-Kirkpatrick et al. 2012: count δ* > 2δ, one-sided in the direction of δ.
    BergKirkpatrick,
    /// Koehn 2004: share of resamples the observed winner does not win.
    Koehn,
    /// The bootstrap distribution of δ shifted to mean zero:
    /// |δ* − mean δ*| ≥ |δ| (or the one-sided forms).
    Shifted,
    /// sacrebleu 2.x (`significance.py`, `_paired_bs_test`): count
    /// |δ*| − mean |δ*| > |δ| (two-sided).
    SacreBleu,
    /// Moses (`bootstrap-hypothesis-difference-significance.pl`): count
    /// |δ*| − mean |δ*| ≥ |δ| (two-sided; Moses reports c/B).
    Moses,
}

impl BootVariant {
    /// Whether the variant centres |δ*| (sacrebleu, Moses) rather than δ*:
    /// what the first pass over the resamples must sum.
    #[must_use]
    pub fn centres_abs(self) -> bool {
        matches!(self, BootVariant::SacreBleu | BootVariant::Moses)
    }

    /// Whether the variant needs the bootstrap mean (a first pass).
    #[must_use]
    pub fn needs_mean(self) -> bool {
        matches!(
            self,
            BootVariant::Shifted | BootVariant::SacreBleu | BootVariant::Moses
        )
    }
}

/// An exceedance count and its p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PValue {
    pub count: u64,
    pub total: u64,
    pub pvalue: f64,
}

fn finish(count: u64, total: u64, plus_one: bool) -> PValue {
    let pvalue = if plus_one {
        (count as f64 + 1.0) / (total as f64 + 1.0)
    } else {
        count as f64 / total as f64
    };
    PValue {
        count,
        total,
        pvalue,
    }
}

/// Whether one resampled δ* counts towards a paired-bootstrap p-value: the
/// one rule behind [`bootstrap_pvalue`], the pairwise counts and the
/// streamed counts. `mean` is the bootstrap mean of δ* (shifted variant)
/// or of |δ*| (sacrebleu and Moses variants); `None` counts nothing there.
#[inline]
#[must_use]
pub fn bootstrap_exceeds(
    d: f64,
    observed: f64,
    variant: BootVariant,
    alternative: Alternative,
    orient: f64,
    mean: Option<f64>,
) -> bool {
    match variant {
        BootVariant::BergKirkpatrick => {
            if observed > 0.0 {
                d > 2.0 * observed
            } else if observed < 0.0 {
                d < 2.0 * observed
            } else {
                true
            }
        }
        BootVariant::Koehn => {
            let g = observed * orient;
            if g > 0.0 {
                d * orient <= 0.0
            } else if g < 0.0 {
                d * orient >= 0.0
            } else {
                true
            }
        }
        BootVariant::Shifted => match mean {
            None => false,
            Some(m) => match alternative {
                Alternative::TwoSided => (d - m).abs() >= observed.abs(),
                Alternative::Greater => d - m >= observed,
                Alternative::Less => d - m <= observed,
            },
        },
        // `mean` is the bootstrap mean of |δ*| here
        BootVariant::SacreBleu | BootVariant::Moses => {
            mean.is_some_and(|m| abs_exceeds(variant, d.abs(), m, observed))
        }
    }
}

/// Bootstrap p-value from `deltas` (δ* of each resample) and the observed δ.
/// `orient` is +1 when higher metric values are better, −1 otherwise.
#[must_use]
pub fn bootstrap_pvalue(
    deltas: &[f64],
    observed: f64,
    variant: BootVariant,
    alternative: Alternative,
    orient: f64,
    plus_one: bool,
) -> PValue {
    let mean = match variant {
        BootVariant::Shifted => Some(mean_blocked(deltas)),
        // the sacrebleu and Moses rules centre |δ*|
        BootVariant::SacreBleu | BootVariant::Moses => {
            let abs: Vec<f64> = deltas.iter().map(|d| d.abs()).collect();
            Some(mean_blocked(&abs))
        }
        _ => None,
    };
    let count = deltas
        .iter()
        .filter(|&&d| bootstrap_exceeds(d, observed, variant, alternative, orient, mean))
        .count() as u64;
    finish(count, deltas.len() as u64, plus_one)
}

/// The sacrebleu and Moses rules for one resample: `abs_delta` = |δ*|,
/// `mean` = the bootstrap mean of |δ*|.
#[inline]
#[must_use]
pub fn abs_exceeds(variant: BootVariant, abs_delta: f64, mean: f64, observed: f64) -> bool {
    let t = abs_delta - mean;
    if variant == BootVariant::Moses {
        t >= observed.abs()
    } else {
        t > observed.abs()
    }
}

/// Shifted bootstrap p-value with a given sidedness.
#[must_use]
pub fn shifted_pvalue(
    deltas: &[f64],
    observed: f64,
    alternative: Alternative,
    plus_one: bool,
) -> PValue {
    bootstrap_pvalue(
        deltas,
        observed,
        BootVariant::Shifted,
        alternative,
        1.0,
        plus_one,
    )
}

/// A p-value from an exceedance count of `total` resamples.
#[must_use]
pub fn pvalue_of(count: u64, total: u64, plus_one: bool) -> PValue {
    finish(count, total, plus_one)
}

/// Resamples per block of the pairwise counts and of the blocked mean;
/// pairwise shard boundaries must fall on multiples.
pub const PAIR_BLOCK: usize = 65_536;

/// The bootstrap mean used by the shifted test: in-order sums over fixed
/// blocks of [`PAIR_BLOCK`] values, added in block order,
/// divided by the count. Identical for the two-system and the pairwise tests
/// and for every backend.
#[must_use]
pub fn mean_blocked(v: &[f64]) -> f64 {
    let mut total = 0.0;
    for blk in v.chunks(PAIR_BLOCK) {
        let mut s = 0.0;
        for &x in blk {
            s += x;
        }
        total += s;
    }
    total / v.len() as f64
}

/// Whether one resampled δ counts towards a permutation p-value: at least as
/// extreme as the observed δ, with a relative tolerance of 100 ulps so that
/// rearrangements equal to the observed one in exact arithmetic always count
/// (as scipy does).
#[inline]
#[must_use]
pub fn permutation_exceeds(d: f64, observed: f64, alternative: Alternative) -> bool {
    let gamma = (observed * 100.0 * f64::EPSILON).abs();
    match alternative {
        Alternative::TwoSided => d.abs() >= observed.abs() - gamma,
        Alternative::Greater => d >= observed - gamma,
        Alternative::Less => d <= observed + gamma,
    }
}

/// Permutation p-value (see [`permutation_exceeds`]).
#[must_use]
pub fn permutation_pvalue(
    deltas: &[f64],
    observed: f64,
    alternative: Alternative,
    plus_one: bool,
) -> PValue {
    let count = deltas
        .iter()
        .filter(|&&d| permutation_exceeds(d, observed, alternative))
        .count() as u64;
    finish(count, deltas.len() as u64, plus_one)
}

/// Quantile `q` of `values` with numpy's default ("linear") method, bit for bit.
/// Reorders `values`.
#[must_use]
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    let n = values.len();
    assert!(n > 0, "quantile of nothing");
    let vi = (n as f64 - 1.0) * q;
    let (prev, next) = if vi >= (n - 1) as f64 {
        (n - 1, n - 1)
    } else if vi < 0.0 {
        (0, 0)
    } else {
        let p = vi.floor() as usize;
        (p, p + 1)
    };
    let (_, a, rest) = values.select_nth_unstable_by(prev, f64::total_cmp);
    let a = *a;
    let b = if next == prev {
        a
    } else {
        rest.iter().copied().fold(f64::INFINITY, f64::min)
    };
    lerp(a, b, q, n)
}

/// numpy's "linear" interpolation between the order statistics `a` (rank
/// ⌊(n−1)q⌋) and `b` (the next rank), bit for bit. The streamed quantiles
/// ([`crate::stream`]) read `b` as the next value in `f64::total_cmp`
/// order, [`quantile`] as the smallest value after `a`: the same float,
/// since resampled metric values are never −0.0 (sums start at +0.0).
#[must_use]
pub fn lerp(a: f64, b: f64, q: f64, n: usize) -> f64 {
    let vi = (n as f64 - 1.0) * q;
    let gamma = vi - vi.floor();
    let d = b - a;
    if gamma >= 0.5 {
        b - d * (1.0 - gamma)
    } else {
        a + d * gamma
    }
}

/// Equal-tailed percentile interval at `confidence` (e.g. 0.95).
#[must_use]
pub fn percentile_interval(values: &[f64], confidence: f64) -> (f64, f64) {
    let mut v = values.to_vec();
    let lo = quantile(&mut v, (1.0 - confidence) / 2.0);
    let hi = quantile(&mut v, (1.0 + confidence) / 2.0);
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_linear() {
        let mut v = vec![4.0, 1.0, 3.0, 2.0];
        assert_eq!(quantile(&mut v, 0.5), 2.5);
        assert_eq!(quantile(&mut v, 0.0), 1.0);
        assert_eq!(quantile(&mut v, 1.0), 4.0);
        assert_eq!(quantile(&mut v, 0.25), 1.75);
    }

    #[test]
    fn bk_counts_in_observed_direction() {
        let d = [0.0, 1.0, 2.5, 3.0, -4.0];
        let p = bootstrap_pvalue(
            &d,
            1.0,
            BootVariant::BergKirkpatrick,
            Alternative::TwoSided,
            1.0,
            false,
        );
        assert_eq!(p.count, 2);
        let p = bootstrap_pvalue(
            &d,
            -1.0,
            BootVariant::BergKirkpatrick,
            Alternative::TwoSided,
            1.0,
            false,
        );
        assert_eq!(p.count, 1);
        let p = bootstrap_pvalue(
            &d,
            0.0,
            BootVariant::BergKirkpatrick,
            Alternative::TwoSided,
            1.0,
            true,
        );
        assert_eq!(p.pvalue, 1.0);
    }

    #[test]
    fn koehn_and_plus_one() {
        let d = [0.5, -0.1, 0.0, 0.2];
        let p = bootstrap_pvalue(
            &d,
            0.3,
            BootVariant::Koehn,
            Alternative::TwoSided,
            1.0,
            true,
        );
        assert_eq!(p.count, 2);
        assert_eq!(p.pvalue, 3.0 / 5.0);
        // lower is better: y "wins" with a negative delta
        let p = bootstrap_pvalue(
            &d,
            -0.3,
            BootVariant::Koehn,
            Alternative::TwoSided,
            -1.0,
            false,
        );
        assert_eq!(p.count, 3);
    }

    #[test]
    fn permutation_tolerance_counts_identity() {
        let d = [0.1 + 0.2, 0.3, -0.3, 0.0];
        let p = permutation_pvalue(&d, 0.3, Alternative::TwoSided, false);
        assert_eq!(p.count, 3);
    }
}
