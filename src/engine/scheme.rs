//! How resamples are drawn, as one value: the rows of the table (every
//! item, or its distinct rows), whole clusters of items, or a design of one
//! row per observation (two-level: items then repeats; crossed: items × prompts). Each driver
//! below answers its question under any scheme, so a binding takes the
//! scheme instead of being written once per scheme.

use super::designs::not_a_bootstrap;
use super::swap::{exact_size, swap_values_range};
use super::{
    bootstrap_sums, bootstrap_values, cluster_bootstrap_sums, cluster_bootstrap_values,
    cluster_item_bootstrap_values, cluster_item_permutation_values, cluster_permutation_values,
    design_bootstrap_sums, design_bootstrap_values, item_bootstrap_values, item_permutation_values,
    permutation_sums, permutation_values, Clusters, Design, Job, Level2, Resampling, Swapper,
    Table,
};
use crate::itemstat::ItemStatistic;
use crate::metric::Metric;
use crate::Result;

/// How a resample is drawn.
#[derive(Clone, Copy, Debug)]
pub enum Scheme<'a> {
    /// Rows of the table with replacement (bootstrap) or items swapped
    /// (permutation); [`Resampling`] picks items or distinct rows.
    Rows(Resampling),
    /// Whole clusters: each item's cluster code, `0..G` with every cluster used.
    Clusters(&'a [u32]),
    /// Two-level ([`super::designs`]): each row's item code (`0..G`) and its
    /// repeat code (distinct within the item); items drawn, then each drawn
    /// item's repeats with replacement.
    TwoLevel {
        items: &'a [u32],
        repeats: &'a [u32],
    },
    /// Crossed ([`super::designs`]): each row's item code (`0..G`) and prompt
    /// code (`0..P`), one row per cell; items and prompts drawn independently,
    /// a cell weighted by the product of their counts.
    Crossed {
        items: &'a [u32],
        prompts: &'a [u32],
    },
}

impl<'a> Scheme<'a> {
    /// The scheme of optional cluster codes (rows under `resampling` without them).
    pub fn new(resampling: Resampling, clusters: Option<&'a [u32]>) -> Self {
        match clusters {
            Some(c) => Scheme::Clusters(c),
            None => Scheme::Rows(resampling),
        }
    }

    /// The design of a design scheme (None for rows and clusters).
    pub fn design(self, t: &Table<'_>) -> Result<Option<Design>> {
        match self {
            Scheme::TwoLevel { items, repeats } => {
                Ok(Some(Design::new(t, items, repeats, Level2::Nested)?))
            }
            Scheme::Crossed { items, prompts } => {
                Ok(Some(Design::new(t, items, prompts, Level2::Crossed)?))
            }
            Scheme::Rows(_) | Scheme::Clusters(_) => Ok(None),
        }
    }

    /// Ok for rows and clusters; for a design scheme, the error of a
    /// question it does not answer (`what`: "a permutation test", ...).
    pub fn bootstrap_only(self, what: &str) -> Result<()> {
        match self.level2() {
            Some(l) => Err(not_a_bootstrap(l, what)),
            None => Ok(()),
        }
    }

    fn level2(self) -> Option<Level2> {
        match self {
            Scheme::TwoLevel { .. } => Some(Level2::Nested),
            Scheme::Crossed { .. } => Some(Level2::Crossed),
            Scheme::Rows(_) | Scheme::Clusters(_) => None,
        }
    }
}

/// Metric values of every system on the job's bootstrap resamples
/// (`count × systems`) and the distinct-row count when drawing distinct rows.
pub fn scheme_bootstrap_values(
    t: &Table<'_>,
    scheme: Scheme<'_>,
    metric: &Metric,
    job: &Job<'_>,
) -> Result<(Vec<f64>, Option<usize>)> {
    match scheme {
        Scheme::Rows(r) => bootstrap_values(t, metric, r, job),
        Scheme::Clusters(c) => Ok((
            cluster_bootstrap_values(&Clusters::new(t, c)?, metric, job)?,
            None,
        )),
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => {
            let d = scheme.design(t)?.expect("a design scheme");
            Ok((design_bootstrap_values(&d, metric, job)?, None))
        }
    }
}

/// Summed statistics of the job's bootstrap resamples (`count × width`) and
/// the distinct-row count when drawing distinct rows.
pub fn scheme_bootstrap_sums(
    t: &Table<'_>,
    scheme: Scheme<'_>,
    job: &Job<'_>,
) -> Result<(Vec<f64>, Option<usize>)> {
    match scheme {
        Scheme::Rows(r) => bootstrap_sums(t, r, job),
        Scheme::Clusters(c) => Ok((cluster_bootstrap_sums(&Clusters::new(t, c)?, job)?.0, None)),
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => {
            let d = scheme.design(t)?.expect("a design scheme");
            Ok((design_bootstrap_sums(&d, job)?.0, None))
        }
    }
}

/// Metric values (x', y') of the job's swap resamples (`count × 2`): items,
/// or whole clusters (`exact`: arrangements start..start+count of the 2^n or 2^G).
pub fn scheme_permutation_values(
    t: &Table<'_>,
    scheme: Scheme<'_>,
    metric: &Metric,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    match scheme {
        Scheme::Rows(_) if exact => {
            exact_size(t)?;
            swap_values_range(t, &Swapper::new(t)?, metric, true, job)
        }
        Scheme::Rows(_) => permutation_values(t, metric, job),
        Scheme::Clusters(c) => {
            cluster_permutation_values(&Clusters::new(t, c)?, metric, exact, job)
        }
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => Err(not_a_bootstrap(
            scheme.level2().expect("a design scheme"),
            "a permutation test",
        )),
    }
}

/// Summed statistics of the job's swap resamples (`count × width`): items
/// swapped, or the rows of the cluster sums swapped.
pub fn scheme_permutation_sums(
    t: &Table<'_>,
    scheme: Scheme<'_>,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    match scheme {
        Scheme::Rows(_) => permutation_sums(t, exact, job),
        Scheme::Clusters(c) => permutation_sums(&Clusters::new(t, c)?.table(), exact, job),
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => Err(not_a_bootstrap(
            scheme.level2().expect("a design scheme"),
            "a permutation test",
        )),
    }
}

/// An item statistic of every system on the job's bootstrap resamples
/// (`count × systems`).
pub fn scheme_item_bootstrap_values(
    t: &Table<'_>,
    scheme: Scheme<'_>,
    stat: &ItemStatistic,
    label: &str,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    match scheme {
        Scheme::Rows(_) => item_bootstrap_values(t, stat, label, job),
        Scheme::Clusters(c) => {
            cluster_item_bootstrap_values(t, &Clusters::new(t, c)?, stat, label, job)
        }
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => Err(not_a_bootstrap(
            scheme.level2().expect("a design scheme"),
            "an item statistic",
        )),
    }
}

/// An item statistic (x', y') on the job's swap resamples of two systems (`count × 2`).
pub fn scheme_item_permutation_values(
    t: &Table<'_>,
    scheme: Scheme<'_>,
    stat: &ItemStatistic,
    label: &str,
    exact: bool,
    job: &Job<'_>,
) -> Result<Vec<f64>> {
    match scheme {
        Scheme::Rows(_) => item_permutation_values(t, stat, label, exact, job),
        Scheme::Clusters(c) => {
            cluster_item_permutation_values(t, &Clusters::new(t, c)?, stat, label, exact, job)
        }
        Scheme::TwoLevel { .. } | Scheme::Crossed { .. } => Err(not_a_bootstrap(
            scheme.level2().expect("a design scheme"),
            "an item statistic",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Progress;

    #[test]
    fn each_scheme_reaches_its_own_driver() {
        // 12 items of two systems of one statistic, in 4 clusters of 3
        let data: Vec<f64> = (0..24).map(|i| f64::from((i * 7 % 11) as u8)).collect();
        let t = Table::new(&data, 12, 2).unwrap();
        let codes: Vec<u32> = (0..12).map(|i| i / 3).collect();
        let p = Progress::new();
        let job = Job::new(5, 40, 1, &p);
        let rows = Scheme::new(Resampling::Items, None);
        let clustered = Scheme::new(Resampling::Items, Some(&codes));
        let (a, d) = scheme_bootstrap_sums(&t, rows, &job).unwrap();
        assert_eq!((a, d), bootstrap_sums(&t, Resampling::Items, &job).unwrap());
        let cl = Clusters::new(&t, &codes).unwrap();
        let (b, d) = scheme_bootstrap_sums(&t, clustered, &job).unwrap();
        assert_eq!(d, None);
        assert_eq!(b, cluster_bootstrap_sums(&cl, &job).unwrap().0);
        // a cluster swap is the item swap of the clusters' summed rows
        let s = scheme_permutation_sums(&t, clustered, false, &job).unwrap();
        assert_eq!(s, permutation_sums(&cl.table(), false, &job).unwrap());
        let e = scheme_permutation_sums(&t, clustered, true, &job.range(0, 16)).unwrap();
        assert_eq!(e.len(), 16 * 2);
    }
}
