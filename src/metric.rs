//! Metrics computed from summed sufficient statistics.
//!
//! Every metric reads a slice of `k` summed statistics (one system) and the
//! number of items that were summed. Layouts:
//!
//! | metric | statistics | value |
//! |---|---|---|
//! | `Mean` | score | Σscore / n |
//! | `Accuracy` | correct, total | correct / total |
//! | `Precision`, `Recall`, `FBeta` | tp, guessed, gold | P = tp/guessed, R = tp/gold, F = (1+β²)PR/(β²P+R) |
//! | `Bleu` | hyp_len, ref_len, correct_1..N, total_1..N | sacrebleu's BLEU (0–100) |
//! | `Chrf` | (hyp, ref, match) per char order, then per word order | sacrebleu's chrF / chrF++ (0–100) |
//! | `Aer` | \|A∩S\|, \|A∩P\|, \|A\|, \|S\| | 1 − (\|A∩S\| + \|A∩P\|) / (\|A\| + \|S\|) |
//! | `ErrorRate` | edits, reference length | edits / length |
//! | `WeightedMacroF1` | syn_correct, syn_total, sem_correct, sem_guessed, sem_gold | CoNLL-2008 labeled macro F1 |
//!
//! A ratio with a zero denominator is 0 (conlleval's convention).

/// BLEU smoothing, as in sacrebleu (Chen & Cherry 2014).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smooth {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Metric {
    Mean {
        higher_is_better: bool,
    },
    Accuracy,
    Precision,
    Recall,
    FBeta {
        beta: f64,
    },
    Bleu {
        max_order: usize,
        smooth: Smooth,
        effective_order: bool,
    },
    Chrf {
        char_order: usize,
        word_order: usize,
        beta: f64,
        eps_smoothing: bool,
    },
    Aer,
    ErrorRate,
    WeightedMacroF1 {
        weight: f64,
    },
}

#[inline]
fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

impl Metric {
    /// Number of statistics one system contributes.
    #[must_use]
    pub fn n_stats(&self) -> usize {
        match self {
            Metric::Mean { .. } => 1,
            Metric::Accuracy | Metric::ErrorRate => 2,
            Metric::Precision | Metric::Recall | Metric::FBeta { .. } => 3,
            Metric::Bleu { max_order, .. } => 2 + 2 * max_order,
            Metric::Chrf {
                char_order,
                word_order,
                ..
            } => 3 * (char_order + word_order),
            Metric::Aer => 4,
            Metric::WeightedMacroF1 { .. } => 5,
        }
    }

    #[must_use]
    pub fn higher_is_better(&self) -> bool {
        match self {
            Metric::Mean { higher_is_better } => *higher_is_better,
            Metric::Aer | Metric::ErrorRate => false,
            _ => true,
        }
    }

    /// The metric on summed statistics `s` of `n_items` items.
    #[must_use]
    pub fn score(&self, s: &[f64], n_items: f64) -> f64 {
        match self {
            Metric::Mean { .. } => ratio(s[0], n_items),
            Metric::Accuracy => ratio(s[0], s[1]),
            Metric::Precision => ratio(s[0], s[1]),
            Metric::Recall => ratio(s[0], s[2]),
            Metric::FBeta { beta } => {
                let p = ratio(s[0], s[1]);
                let r = ratio(s[0], s[2]);
                let b2 = beta * beta;
                let d = b2 * p + r;
                if d == 0.0 {
                    0.0
                } else {
                    (1.0 + b2) * p * r / d
                }
            }
            Metric::Bleu {
                max_order,
                smooth,
                effective_order,
            } => bleu(s, *max_order, *smooth, *effective_order),
            Metric::Chrf {
                char_order,
                word_order,
                beta,
                eps_smoothing,
            } => chrf(s, char_order + word_order, *beta, *eps_smoothing),
            Metric::Aer => 1.0 - ratio(s[0] + s[1], s[2] + s[3]),
            Metric::ErrorRate => ratio(s[0], s[1]),
            Metric::WeightedMacroF1 { weight } => {
                let syn = ratio(s[0], s[1]);
                let sem_p = ratio(s[2], s[3]);
                let sem_r = ratio(s[2], s[4]);
                let p = weight * sem_p + (1.0 - weight) * syn;
                let r = weight * sem_r + (1.0 - weight) * syn;
                if p + r == 0.0 {
                    0.0
                } else {
                    2.0 * p * r / (p + r)
                }
            }
        }
    }
}

/// sacrebleu's `BLEU.compute_bleu` on summed statistics.
fn bleu(s: &[f64], order: usize, smooth: Smooth, effective_order: bool) -> f64 {
    let sys_len = s[0];
    let ref_len = s[1];
    let correct = &s[2..2 + order];
    let total = &s[2 + order..2 + 2 * order];
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        };
    }
    if correct.iter().all(|&c| c == 0.0) {
        return 0.0;
    }
    let mut precisions = [0.0f64; 16];
    let mut smooth_mteval = 1.0;
    let mut eff_order = order;
    for n in 0..order {
        let (mut c, mut t) = (correct[n], total[n]);
        if let Smooth::AddK(k) = smooth {
            if n > 0 {
                c += k;
                t += k;
            }
        }
        if t == 0.0 {
            break;
        }
        if effective_order {
            eff_order = n + 1;
        }
        if c == 0.0 {
            match smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n] = 100.0 / (smooth_mteval * t);
                }
                Smooth::Floor(v) => precisions[n] = 100.0 * v / t,
                _ => {}
            }
        } else {
            precisions[n] = 100.0 * c / t;
        }
    }
    let mut log_sum = 0.0;
    for &p in &precisions[..eff_order] {
        log_sum += if p == 0.0 { -9_999_999_999.0 } else { p.ln() };
    }
    bp * (log_sum / eff_order as f64).exp()
}

/// sacrebleu's `CHRF._compute_f_score` on summed statistics.
pub(crate) fn chrf(s: &[f64], orders: usize, beta: f64, eps_smoothing: bool) -> f64 {
    let eps = 1e-16;
    let factor = beta * beta;
    let mut score = 0.0;
    let mut eff = 0usize;
    let (mut avg_p, mut avg_r) = (0.0, 0.0);
    for i in 0..orders {
        let (hyp, rf, m) = (s[3 * i], s[3 * i + 1], s[3 * i + 2]);
        let prec = if hyp > 0.0 { m / hyp } else { eps };
        let rec = if rf > 0.0 { m / rf } else { eps };
        let denom = factor * prec + rec;
        score += if denom > 0.0 {
            (1.0 + factor) * prec * rec / denom
        } else {
            eps
        };
        if hyp > 0.0 && rf > 0.0 {
            avg_p += prec;
            avg_r += rec;
            eff += 1;
        }
    }
    if eps_smoothing {
        return 100.0 * score / orders as f64;
    }
    if eff == 0 {
        avg_p = 0.0;
        avg_r = 0.0;
    } else {
        avg_p /= eff as f64;
        avg_r /= eff as f64;
    }
    if avg_p + avg_r != 0.0 {
        let mut sc = (1.0 + factor) * avg_p * avg_r;
        sc /= (factor * avg_p) + avg_r;
        100.0 * sc
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f1_and_friends() {
        let s = [8.0, 10.0, 16.0];
        assert_eq!(Metric::Precision.score(&s, 1.0), 0.8);
        assert_eq!(Metric::Recall.score(&s, 1.0), 0.5);
        let f = Metric::FBeta { beta: 1.0 }.score(&s, 1.0);
        assert!((f - 2.0 * 0.8 * 0.5 / 1.3).abs() < 1e-15);
        assert_eq!(
            Metric::FBeta { beta: 1.0 }.score(&[0.0, 0.0, 3.0], 1.0),
            0.0
        );
        assert_eq!(Metric::Accuracy.score(&[3.0, 4.0], 1.0), 0.75);
        assert_eq!(
            Metric::Mean {
                higher_is_better: true
            }
            .score(&[3.0], 4.0),
            0.75
        );
    }

    #[test]
    fn aer_direct_formula() {
        // |A∩S| = 3, |A∩P| = 4, |A| = 5, |S| = 4
        let v = Metric::Aer.score(&[3.0, 4.0, 5.0, 4.0], 1.0);
        assert!((v - (1.0 - 7.0 / 9.0)).abs() < 1e-15);
        assert!(!Metric::Aer.higher_is_better());
    }

    #[test]
    fn bleu_perfect_and_empty() {
        let m = Metric::Bleu {
            max_order: 4,
            smooth: Smooth::Exp,
            effective_order: false,
        };
        let s = [10.0, 10.0, 10.0, 9.0, 8.0, 7.0, 10.0, 9.0, 8.0, 7.0];
        assert!((m.score(&s, 1.0) - 100.0).abs() < 1e-12);
        let z = [10.0, 10.0, 0.0, 0.0, 0.0, 0.0, 10.0, 9.0, 8.0, 7.0];
        assert_eq!(m.score(&z, 1.0), 0.0);
        assert_eq!(m.n_stats(), 10);
    }

    #[test]
    fn macro_f1_2008() {
        let m = Metric::WeightedMacroF1 { weight: 0.5 };
        let v = m.score(&[80.0, 100.0, 30.0, 40.0, 50.0], 1.0);
        let p = 0.5 * 0.75 + 0.5 * 0.8;
        let r = 0.5 * 0.6 + 0.5 * 0.8;
        assert!((v - 2.0 * p * r / (p + r)).abs() < 1e-15);
    }
}
