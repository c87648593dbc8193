//! A resampling plan as one value: how resamples are drawn (an
//! [`engine::Scheme`] and a [`Draw`]), what each resample reduces (an
//! [`Input`]) and on which statistics ([`Table`]); the question asked of the
//! resamples picks one of three drivers ([`values`], [`summary`], [`pairs`]),
//! and the job ([`engine::Job`]: B, seed, start, stream version, threads,
//! progress) says which resamples run where.
//!
//! Each axis is an enum matched in one place per driver, so a new scheme,
//! input or question is one variant and one arm, not another binding: the
//! Python layer builds a plan (`_native.Plan`) and a job (`_native.Job`) and
//! calls the one binding of its question.
//!
//! The drivers only dispatch: every resample is drawn and reduced by the
//! engine's drivers ([`crate::engine`], [`crate::pairwise`]), so a plan gives
//! exactly the bytes of the driver it names.

use crate::engine::{self, Clusters, Job, Scheme, Swapper, Table};
use crate::itemstat::ItemStatistic;
use crate::metric::Metric;
use crate::pairwise::{self, PairSpec};
use crate::stream::{self, Summary};
use crate::{Error, Result};

/// How one resample is drawn from the scheme's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// Units drawn with replacement (the paired bootstrap).
    Bootstrap,
    /// Each unit's two systems trade places at random (approximate
    /// randomization), or (`exact`) resample `b` swaps the units whose bits
    /// are set in `b` (all 2^n arrangements).
    Swap { exact: bool },
}

/// What a resample reduces to.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// The summed statistics themselves (`width` per resample), for a metric
    /// the engine does not know (a Python callable of sums).
    Sums,
    /// A metric of summed statistics (plain scores: the mean), one value per system.
    Metric(&'a Metric),
    /// An item statistic recomputed on each resample's items, one value per system.
    Items {
        stat: &'a ItemStatistic,
        label: &'a str,
    },
}

/// Scheme × draw × input over one table of statistics.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    pub table: Table<'a>,
    pub scheme: Scheme<'a>,
    pub draw: Draw,
    pub input: Input<'a>,
}

impl Plan<'_> {
    /// Values per resample in the output of [`values`]: systems for a
    /// metric or an item statistic, the table's width for sums.
    #[must_use]
    pub fn width(&self) -> usize {
        match self.input {
            Input::Sums => self.table.width,
            Input::Metric(m) => self.table.width / m.n_stats().max(1),
            Input::Items { stat, .. } => match self.draw {
                Draw::Swap { .. } => 2,
                Draw::Bootstrap => self.table.width / stat.n_inputs().max(1),
            },
        }
    }

    /// The metric of summed statistics a streamed or pairwise question needs.
    fn metric(&self, question: &str) -> Result<&Metric> {
        match self.input {
            Input::Metric(m) => Ok(m),
            Input::Sums | Input::Items { .. } => Err(Error::input(format!(
                "{question} needs a native metric of summed statistics"
            ))),
        }
    }
}

/// Question "per-resample values": every resample's values
/// (`count × plan.width()`, resample-major) and the distinct-row count when
/// the bootstrap draws distinct rows.
pub fn values(plan: &Plan<'_>, job: &Job<'_>) -> Result<(Vec<f64>, Option<usize>)> {
    let (t, r) = (&plan.table, plan.scheme);
    match (plan.draw, plan.input) {
        (Draw::Bootstrap, Input::Metric(m)) => engine::scheme_bootstrap_values(t, r, m, job),
        (Draw::Bootstrap, Input::Sums) => engine::scheme_bootstrap_sums(t, r, job),
        (Draw::Bootstrap, Input::Items { stat, label }) => Ok((
            engine::scheme_item_bootstrap_values(t, r, stat, label, job)?,
            None,
        )),
        (Draw::Swap { exact }, Input::Metric(m)) => Ok((
            engine::scheme_permutation_values(t, r, m, exact, job)?,
            None,
        )),
        (Draw::Swap { exact }, Input::Sums) => {
            Ok((engine::scheme_permutation_sums(t, r, exact, job)?, None))
        }
        (Draw::Swap { exact }, Input::Items { stat, label }) => Ok((
            engine::scheme_item_permutation_values(t, r, stat, label, exact, job)?,
            None,
        )),
    }
}

/// Question "two systems under a test" and "an interval", in bounded
/// memory: the passes `s` needs (its rules and quantiles) over the
/// resamples `0 .. s.total` of the job's stream, chunk by chunk. Returns the
/// distinct-row count when the bootstrap draws distinct rows.
pub fn summary(plan: &Plan<'_>, s: &mut Summary, job: &Job<'_>) -> Result<Option<usize>> {
    let m = plan.metric("a streamed summary")?;
    let t = &plan.table;
    let range = |start: u64, len: usize| job.range(start, len);
    match plan.draw {
        Draw::Bootstrap => {
            if t.width != s.stride() * m.n_stats() {
                return Err(Error::input(format!(
                    "the summary reads {} systems per resample; the statistics hold {} columns for a metric of {} statistics",
                    s.stride(),
                    t.width,
                    m.n_stats()
                )));
            }
            match plan.scheme {
                Scheme::Rows(r) => {
                    let boot = engine::Bootstrap::new(t, r, job.stream);
                    stream::run(s, |start, len| {
                        engine::bootstrap_values_range(t, &boot, m, &range(start, len))
                    })?;
                    Ok(boot.distinct_rows())
                }
                Scheme::Clusters(codes) => {
                    let cl = Clusters::new(t, codes)?;
                    stream::run(s, |start, len| {
                        engine::cluster_bootstrap_values(&cl, m, &range(start, len))
                    })?;
                    Ok(None)
                }
                Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => {
                    let d = plan.scheme.design(t)?.expect("a design scheme");
                    stream::run(s, |start, len| {
                        engine::design_bootstrap_values(&d, m, &range(start, len))
                    })?;
                    Ok(None)
                }
            }
        }
        Draw::Swap { exact } => {
            plan.scheme.bootstrap_only("a permutation test")?;
            if s.stride() != 2 {
                return Err(Error::input(
                    "a permutation summary reads two systems per resample",
                ));
            }
            match plan.scheme {
                Scheme::Rows(_) => {
                    let sw = Swapper::new(t)?;
                    stream::run(s, |start, len| {
                        engine::swap_values_range(t, &sw, m, exact, &range(start, len))
                    })?;
                }
                Scheme::Clusters(codes) => {
                    let cl = Clusters::new(t, codes)?;
                    let sw = Swapper::new(&cl.table())?;
                    stream::run(s, |start, len| {
                        engine::cluster_swap_values_range(&cl, &sw, m, exact, &range(start, len))
                    })?;
                }
                Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => {
                    unreachable!("refused by bootstrap_only above")
                }
            }
            Ok(None)
        }
    }
}

/// Question "all pairs": the pair counts (`S × S`) and per-block δ* sums of
/// the job's bootstrap resamples against the `observed` values under
/// `spec`, and the distinct-row count when drawing distinct rows.
pub fn pairs(
    plan: &Plan<'_>,
    observed: &[f64],
    spec: PairSpec,
    means: Option<&[f64]>,
    job: &Job<'_>,
) -> Result<(Vec<u64>, Vec<f64>, Option<usize>)> {
    let m = plan.metric("all pairs")?;
    if plan.draw != Draw::Bootstrap {
        return Err(Error::input("all pairs are compared by the bootstrap"));
    }
    let t = &plan.table;
    match plan.scheme {
        Scheme::Rows(r) => {
            let boot = engine::Bootstrap::new(t, r, job.stream);
            let (c, sums) = pairwise::pairwise_shard(t, &boot, m, observed, spec, means, job)?;
            Ok((c, sums, boot.distinct_rows()))
        }
        Scheme::Clusters(codes) => {
            let cl = Clusters::new(t, codes)?;
            let (c, sums) = pairwise::cluster_pairwise_shard(&cl, m, observed, spec, means, job)?;
            Ok((c, sums, None))
        }
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => Err(Error::input(
            "all pairs run on rows or clusters; the two-level and crossed schemes compare two \
             systems or give an interval",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Progress, Resampling};

    #[test]
    fn a_plan_gives_the_bytes_of_the_driver_it_names() {
        let data: Vec<f64> = (0..40).map(|i| f64::from((i * 7 % 11) as u8)).collect();
        let t = Table::new(&data, 20, 2).unwrap();
        let codes: Vec<u32> = (0..20).map(|i| i / 4).collect();
        let p = Progress::new();
        let job = Job::new(3, 50, 1, &p);
        for scheme in [
            Scheme::new(Resampling::Items, None),
            Scheme::new(Resampling::Items, Some(&codes)),
        ] {
            let plan = Plan {
                table: t,
                scheme,
                draw: Draw::Bootstrap,
                input: Input::Sums,
            };
            assert_eq!(plan.width(), 2);
            assert_eq!(
                values(&plan, &job).unwrap(),
                engine::scheme_bootstrap_sums(&t, scheme, &job).unwrap()
            );
            let swap = Plan {
                draw: Draw::Swap { exact: false },
                ..plan
            };
            assert_eq!(
                values(&swap, &job).unwrap().0,
                engine::scheme_permutation_sums(&t, scheme, false, &job).unwrap()
            );
        }
    }

    #[test]
    fn a_design_plan_is_a_bootstrap_of_its_driver() {
        let data: Vec<f64> = (0..48).map(|i| f64::from((i * 5 % 13) as u8)).collect();
        let t = Table::new(&data, 24, 2).unwrap();
        let items: Vec<u32> = (0..24).map(|i| i / 4).collect();
        let second: Vec<u32> = (0..24).map(|i| i % 4).collect();
        let p = Progress::new();
        let job = Job::new(7, 40, 1, &p);
        for scheme in [
            Scheme::TwoLevel {
                items: &items,
                repeats: &second,
            },
            Scheme::Crossed {
                items: &items,
                prompts: &second,
            },
        ] {
            let plan = Plan {
                table: t,
                scheme,
                draw: Draw::Bootstrap,
                input: Input::Sums,
            };
            assert_eq!(
                values(&plan, &job).unwrap(),
                engine::scheme_bootstrap_sums(&t, scheme, &job).unwrap()
            );
            let swap = Plan {
                draw: Draw::Swap { exact: false },
                ..plan
            };
            assert!(matches!(values(&swap, &job), Err(Error::Input(_))));
            let mean = Metric::named("mean").unwrap();
            let boot = Plan {
                input: Input::Metric(&mean),
                ..plan
            };
            let spec = PairSpec {
                variant: crate::inference::BootVariant::BergKirkpatrick,
                alternative: crate::inference::Alternative::TwoSided,
                orient: 1.0,
            };
            assert!(matches!(
                pairs(&boot, &[0.0, 0.0], spec, None, &job),
                Err(Error::Input(_))
            ));
        }
    }
}
