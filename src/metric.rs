//! The metric registry: every metric is declared once, in one `impl`.
//!
//! A metric is a type implementing [`Declare`]. Its implementation holds
//! everything about it: the registry entry ([`Declare::SPEC`]: name,
//! aliases, parameters with type, range and default, direction, display
//! scale, whether its statistics are counts, description and reference),
//! how validated parameters build it, what it reads ([`Input`]: summed
//! statistics with their names and invariants, or the items themselves
//! through an [`ItemStatistic`]) and its score. [`REGISTRY`] lists the
//! types once; nothing else names a metric. The Python layer reads the
//! registry as data (`_native.METRICS`) for `sigfast.metrics`, `sigfast
//! info`, reports and the README's metric list, and resolves names and
//! parameters through [`resolve`], so an invalid parameter is a
//! `MetricError` before any work starts.
//!
//! Sums metrics read a slice of `k` summed statistics (one system) and the
//! number of items that were summed:
//!
//! | metric | statistics | value |
//! |---|---|---|
//! | `mean` | score | Σscore / n |
//! | `accuracy` | correct, total | correct / total |
//! | `precision`, `recall`, `fbeta` | tp, guessed, gold | P = tp/guessed, R = tp/gold, F = (1+β²)PR/(β²P+R) |
//! | `bleu` | hyp_len, ref_len, correct_1..N, total_1..N | sacrebleu's BLEU (0–100) |
//! | `chrf` | (hyp, ref, match) per char order, then per word order | sacrebleu's chrF / chrF++ (0–100) |
//! | `aer` | \|A∩S\|, \|A∩P\|, \|A\|, \|S\| | 1 − (\|A∩S\| + \|A∩P\|) / (\|A\| + \|S\|) |
//! | `error_rate` | edits, reference length | edits / length |
//! | `ter` | edits, average reference length | sacrebleu's TER: 100 · edits / length (0–100+) |
//! | `macro_f1_2008` | syn_correct, syn_total, sem_correct, sem_guessed, sem_gold | CoNLL-2008 labeled macro F1 |
//! | `muc`, `bcub`, `ceafm`, `ceafe`, `lea` | r_num, r_den, p_num, p_den | R = r_num/r_den, P = p_num/p_den, F1 = 2PR/(P+R) (scorer.pl) |
//! | `blanc` | the four of the coreference links, then of the non-coreference links | scorer.pl's BLANC |
//! | `conll_f1` | muc's four, bcub's four, ceafe's four | the mean of the three F1 |
//!
//! A ratio with a zero denominator is 0 (conlleval's convention). Item
//! statistics (median, quantile, correlations, AUC) are computed on each
//! resample's items by [`crate::itemstat`].
//!
//! # Adding a metric
//! A type, its `impl Declare` (with a test against an independent formula),
//! and one line in [`REGISTRY`].

use std::any::Any;
use std::sync::Arc;

use crate::itemstat::ItemStatistic;
use crate::{Error, Result};

/// A parameter value as it crosses the boundary.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// The type and range of a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A finite float in `[min, max]`, or `(min, max]` when `open_min`.
    Float {
        min: f64,
        max: f64,
        open_min: bool,
    },
    /// An integer in `[min, max]`.
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    /// One of these strings.
    Choice(&'static [&'static str]),
}

impl Kind {
    /// `"float"`, `"int"`, `"bool"` or `"choice"`.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Kind::Float { .. } => "float",
            Kind::Int { .. } => "int",
            Kind::Bool => "bool",
            Kind::Choice(_) => "choice",
        }
    }

    fn describe(&self) -> String {
        match self {
            Kind::Float { min, max, open_min } => {
                let lo = if *open_min { "(" } else { "[" };
                if max.is_infinite() {
                    format!("a number in {lo}{min}, inf)")
                } else {
                    format!("a number in {lo}{min}, {max}]")
                }
            }
            Kind::Int { min, max } => format!("an integer in [{min}, {max}]"),
            Kind::Bool => "true or false".into(),
            Kind::Choice(c) => format!("one of {}", c.join(", ")),
        }
    }

    fn check(&self, v: &Value) -> Option<Value> {
        match (self, v) {
            (Kind::Float { min, max, open_min }, Value::Float(_) | Value::Int(_)) => {
                let x = match v {
                    Value::Float(x) => *x,
                    Value::Int(i) => *i as f64,
                    _ => unreachable!(),
                };
                let ok_lo = if *open_min { x > *min } else { x >= *min };
                (x.is_finite() && ok_lo && x <= *max).then_some(Value::Float(x))
            }
            (Kind::Int { min, max }, Value::Int(i)) => {
                (i >= min && i <= max).then_some(Value::Int(*i))
            }
            (Kind::Int { min, max }, Value::Float(x)) => {
                // 4.0 is accepted as 4; 4.5 is not an integer.
                let ok = x.fract() == 0.0 && *x >= *min as f64 && *x <= *max as f64;
                ok.then_some(Value::Int(*x as i64))
            }
            (Kind::Bool, Value::Bool(b)) => Some(Value::Bool(*b)),
            (Kind::Bool, Value::Int(i)) if *i == 0 || *i == 1 => Some(Value::Bool(*i == 1)),
            (Kind::Bool, Value::Str(s)) => match s.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Some(Value::Bool(true)),
                "false" | "no" | "0" => Some(Value::Bool(false)),
                _ => None,
            },
            (Kind::Choice(c), Value::Str(s)) => {
                c.contains(&s.as_str()).then(|| Value::Str(s.clone()))
            }
            _ => None,
        }
    }
}

/// A parameter's default: a value, or "none" where the default depends on
/// other parameters (the help says how).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamDefault {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
    /// No fixed default (e.g. BLEU's `smooth_value`: 0.1 for floor, 1 for add-k).
    Derived,
}

impl ParamDefault {
    fn value(self) -> Option<Value> {
        match self {
            ParamDefault::Bool(b) => Some(Value::Bool(b)),
            ParamDefault::Int(i) => Some(Value::Int(i)),
            ParamDefault::Float(x) => Some(Value::Float(x)),
            ParamDefault::Str(s) => Some(Value::Str(s.into())),
            ParamDefault::Derived => None,
        }
    }
}

/// One parameter of a metric.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    /// Other names accepted for it (e.g. sacrebleu's `smooth_method`).
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    pub default: ParamDefault,
    pub help: &'static str,
}

/// How scores of a metric are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A fraction in [0, 1], shown ×100 (accuracy, F1, AER).
    Fraction,
    /// Already on a 0–100 scale (BLEU, chrF).
    Points,
    /// As is (the mean of per-item scores).
    Plain,
}

impl Scale {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Scale::Fraction => "fraction",
            Scale::Points => "points",
            Scale::Plain => "plain",
        }
    }
}

/// Another name of a metric, with the defaults it implies (`chrf++` is chrF
/// with word_order 2).
#[derive(Clone, Copy, Debug)]
pub struct Alias {
    pub name: &'static str,
    pub defaults: &'static [(&'static str, ParamDefault)],
}

/// Which way a metric is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Higher,
    Lower,
    /// Decided by this boolean parameter (true: higher is better).
    Param(&'static str),
}

/// A metric's registry entry: what the registry, `sigfast info` and the
/// docs show about it. Declared in the metric's [`Declare::SPEC`].
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    pub aliases: &'static [Alias],
    pub params: &'static [Param],
    pub direction: Direction,
    pub scale: Scale,
    /// Statistics are non-negative counts (integers).
    pub counts: bool,
    pub description: &'static str,
    /// The reference the value reproduces, for the docs.
    pub reference: &'static str,
}

/// What a metric reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Statistics summed over items: their names, in order, and their
    /// invariants, pairs `(a, b)` with `stat[a] <= stat[b]` in every item (a
    /// part never exceeds its whole: tp ≤ guessed, correct ≤ total, ...).
    Sums {
        names: Vec<String>,
        invariants: Vec<(usize, usize)>,
    },
    /// The items themselves: the statistic is recomputed on every
    /// resample's items (`score` is NaN).
    Items(ItemStatistic),
}

/// Statistic names from string literals.
fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

/// One metric, declared once. See the module documentation.
pub trait Declare: std::fmt::Debug + Send + Sync + Sized + 'static {
    /// The registry entry.
    const SPEC: Spec;
    /// The metric with validated parameters (defaults filled in).
    fn build(p: &Params) -> Result<Self>;
    /// What the metric reads.
    fn input(&self) -> Input;
    /// The metric on summed statistics `s` of `n_items` items. Item
    /// statistics keep the default, NaN (a registry test checks that every
    /// sums metric scores).
    fn score(&self, _s: &[f64], _n_items: f64) -> f64 {
        f64::NAN
    }
    /// The name to show, where the parameters decide it (`f0.5`, `chrf++`);
    /// `None`: the name or alias asked for.
    fn label(&self) -> Option<String> {
        None
    }
    /// The item statistic that computes the same quantity on the items
    /// themselves (the item paths take it): an item metric's own, or e.g. the
    /// mean of per-item scores.
    fn on_items(&self) -> Option<ItemStatistic> {
        match self.input() {
            Input::Items(st) => Some(st),
            Input::Sums { .. } => None,
        }
    }
}

/// The object-safe face of [`Declare`], implemented for every declared type.
trait Dyn: std::fmt::Debug + Send + Sync {
    fn score(&self, s: &[f64], n_items: f64) -> f64;
    fn label(&self) -> Option<String>;
    fn as_any(&self) -> &dyn Any;
}

impl<T: Declare> Dyn for T {
    #[inline]
    fn score(&self, s: &[f64], n_items: f64) -> f64 {
        Declare::score(self, s, n_items)
    }
    fn label(&self) -> Option<String> {
        Declare::label(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A registry line: a declared type's entry and its builder.
#[derive(Clone, Copy)]
pub struct Entry {
    pub spec: Spec,
    build: fn(&Params) -> Result<Metric>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.spec.fmt(f)
    }
}

/// The registry line of `T`.
#[must_use]
pub const fn entry<T: Declare>() -> Entry {
    Entry {
        spec: T::SPEC,
        build: build::<T>,
    }
}

fn build<T: Declare>(p: &Params) -> Result<Metric> {
    let m = T::build(p)?;
    let higher_is_better = match T::SPEC.direction {
        Direction::Higher => true,
        Direction::Lower => false,
        Direction::Param(name) => p.b(name),
    };
    let input = m.input();
    let item = m.on_items();
    Ok(Metric {
        name: T::SPEC.name,
        higher_is_better,
        n_stats: match &input {
            Input::Sums { names, .. } => names.len(),
            Input::Items(st) => st.n_inputs(),
        },
        input,
        item,
        imp: Arc::new(m),
    })
}

/// A metric resolved with its parameters: what the engine computes with.
#[derive(Clone, Debug)]
pub struct Metric {
    name: &'static str,
    higher_is_better: bool,
    n_stats: usize,
    input: Input,
    item: Option<ItemStatistic>,
    imp: Arc<dyn Dyn>,
}

impl Metric {
    /// The metric `name` (or alias) with default parameters.
    pub fn named(name: &str) -> Result<Metric> {
        Ok(resolve(name, &[])?.metric)
    }

    /// The canonical name of its registry entry.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Number of statistics one system contributes (per item).
    #[inline]
    #[must_use]
    pub fn n_stats(&self) -> usize {
        self.n_stats
    }

    /// Whether higher values are better (from the declaration's [`Direction`]).
    #[must_use]
    pub fn higher_is_better(&self) -> bool {
        self.higher_is_better
    }

    /// +1 when higher values are better, −1 otherwise: the sign that turns
    /// a difference of values into "better by".
    #[must_use]
    pub fn orient(&self) -> f64 {
        if self.higher_is_better {
            1.0
        } else {
            -1.0
        }
    }

    /// The metric on summed statistics `s` of `n_items` items (NaN for an
    /// item statistic).
    #[inline]
    #[must_use]
    pub fn score(&self, s: &[f64], n_items: f64) -> f64 {
        self.imp.score(s, n_items)
    }

    /// What the metric reads.
    #[must_use]
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// Whether it is computed on the items themselves.
    #[must_use]
    pub fn is_item(&self) -> bool {
        matches!(self.input, Input::Items(_))
    }

    /// The item statistic computing it on the items ([`Declare::on_items`]).
    #[must_use]
    pub fn on_items(&self) -> Option<&ItemStatistic> {
        self.item.as_ref()
    }

    /// The declared value behind the metric, as its type.
    #[must_use]
    pub fn declared<T: Declare>(&self) -> Option<&T> {
        self.imp.as_any().downcast_ref::<T>()
    }

    /// Names of the statistics one system contributes, in order.
    #[must_use]
    pub fn stat_names(&self) -> Vec<String> {
        match &self.input {
            Input::Sums { names, .. } => names.clone(),
            Input::Items(st) => {
                if st.n_inputs() == 1 {
                    strs(&["score"])
                } else {
                    strs(&["score", "reference"])
                }
            }
        }
    }

    /// The invariants of one item's statistics (see [`Input::Sums`]).
    #[must_use]
    pub fn invariants(&self) -> &[(usize, usize)] {
        match &self.input {
            Input::Sums { invariants, .. } => invariants,
            Input::Items(_) => &[],
        }
    }

    /// Check per-item statistics (`rows × n_stats`, item-major) against the
    /// metric: every value finite; with `counts`, whole and non-negative;
    /// and every invariant of [`Metric::invariants`]. The error names the
    /// item, the statistic and the fix.
    pub fn check_rows(&self, data: &[f64], counts: bool, label: &str) -> Result<()> {
        let k = self.n_stats();
        if k == 0 || data.len() % k != 0 {
            return Err(Error::input(format!(
                "metric '{label}' reads {k} statistics per item; got {} values",
                data.len()
            )));
        }
        let names = self.stat_names();
        let inv = self.invariants();
        // items are named 1-based, as the Python layer names them
        for (i, row) in (1..).zip(data.chunks_exact(k)) {
            for (c, &v) in row.iter().enumerate() {
                if !v.is_finite() {
                    return Err(Error::input(format!(
                        "item {i}, statistic '{}' is {v}: not a finite number",
                        names[c]
                    )));
                }
                if counts && (v < 0.0 || v.fract() != 0.0) {
                    return Err(Error::input(format!(
                        "item {i}, statistic '{}' is {v}: metric '{label}' reads counts \
                         (whole numbers >= 0)",
                        names[c]
                    )));
                }
            }
            for &(a, b) in inv {
                if row[a] > row[b] {
                    return Err(Error::input(format!(
                        "item {i}: statistic '{}' = {} exceeds '{}' = {}; metric '{label}' needs \
                         {} <= {} (check the column order: {})",
                        names[a],
                        row[a],
                        names[b],
                        row[b],
                        names[a],
                        names[b],
                        names.join(", ")
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Resolved, validated parameters of one metric.
#[derive(Clone, Debug)]
pub struct Params {
    values: Vec<(&'static str, Option<Value>)>,
}

impl Params {
    /// The declared defaults of `spec`.
    fn defaults(spec: &Spec) -> Self {
        Self::with_alias(spec, None)
    }

    /// The defaults of `spec`, as asked for through `alias`.
    fn with_alias(spec: &Spec, alias: Option<&Alias>) -> Self {
        let values = spec
            .params
            .iter()
            .map(|p| {
                let d = alias
                    .and_then(|a| a.defaults.iter().find(|(k, _)| *k == p.name))
                    .map_or(p.default, |(_, d)| *d);
                (p.name, d.value())
            })
            .collect();
        Params { values }
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| v.as_ref())
    }
    fn f(&self, name: &str) -> f64 {
        match self.get(name) {
            Some(Value::Float(x)) => *x,
            Some(Value::Int(i)) => *i as f64,
            _ => f64::NAN,
        }
    }
    fn i(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(Value::Int(i)) => *i,
            _ => 0,
        }
    }
    fn b(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Bool(true)))
    }
    fn s(&self, name: &str) -> &str {
        match self.get(name) {
            Some(Value::Str(s)) => s,
            _ => "",
        }
    }
    /// The parameters with their values (None: derived and not given).
    #[must_use]
    pub fn items(&self) -> &[(&'static str, Option<Value>)] {
        &self.values
    }
}

/// A registry line as data: what `_native.METRICS` exports for it.
#[derive(Clone, Debug)]
pub struct Described {
    pub spec: Spec,
    /// The direction; `None` where a parameter decides.
    pub higher_is_better: Option<bool>,
    /// `"sums"` or `"items"`.
    pub kind: &'static str,
    /// The statistics with default parameters, and their invariants by name.
    pub stat_names: Vec<String>,
    pub invariants: Vec<(String, String)>,
}

impl Entry {
    /// The metric with default parameters.
    pub fn default_metric(&self) -> Result<Metric> {
        (self.build)(&Params::defaults(&self.spec))
    }

    /// The entry as data (every built-in metric builds with its defaults: a
    /// registry test checks it).
    pub fn describe(&self) -> Result<Described> {
        let m = self.default_metric()?;
        let stat_names = m.stat_names();
        let invariants = m
            .invariants()
            .iter()
            .map(|&(a, b)| (stat_names[a].clone(), stat_names[b].clone()))
            .collect();
        Ok(Described {
            spec: self.spec,
            higher_is_better: match self.spec.direction {
                Direction::Higher => Some(true),
                Direction::Lower => Some(false),
                Direction::Param(_) => None,
            },
            kind: if m.is_item() { "items" } else { "sums" },
            stat_names,
            invariants,
        })
    }
}

/// A metric resolved from a name and parameters.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub spec: &'static Spec,
    pub metric: Metric,
    pub params: Params,
    /// The name to show (`f1`, `f0.5`, `chrf++`, `wer`).
    pub label: String,
}

/// The entry of `name` (a canonical name or an alias, any case) and the alias used.
#[must_use]
pub fn lookup(name: &str) -> Option<(&'static Entry, Option<&'static Alias>)> {
    lookup_in(REGISTRY, name)
}

fn lookup_in<'a>(registry: &'a [Entry], name: &str) -> Option<(&'a Entry, Option<&'a Alias>)> {
    let n = name.to_ascii_lowercase();
    for e in registry {
        if e.spec.name == n {
            return Some((e, None));
        }
        if let Some(a) = e.spec.aliases.iter().find(|a| a.name == n) {
            return Some((e, Some(a)));
        }
    }
    None
}

/// Every name a metric can be asked for.
#[must_use]
pub fn names() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .flat_map(|e| std::iter::once(e.spec.name).chain(e.spec.aliases.iter().map(|a| a.name)))
        .collect()
}

/// Resolve `name` with `given` parameters: unknown names, unknown parameters
/// and values of the wrong type or range are [`Error::Metric`].
pub fn resolve(name: &str, given: &[(String, Value)]) -> Result<Resolved> {
    resolve_in(REGISTRY, name, given)
}

/// [`resolve`] in another registry (a test's).
pub fn resolve_in(
    registry: &'static [Entry],
    name: &str,
    given: &[(String, Value)],
) -> Result<Resolved> {
    let (entry, alias) = lookup_in(registry, name).ok_or_else(|| {
        let all: Vec<&str> = registry
            .iter()
            .flat_map(|e| std::iter::once(e.spec.name).chain(e.spec.aliases.iter().map(|a| a.name)))
            .collect();
        Error::metric(format!(
            "unknown metric '{name}'; built-in metrics: {}",
            all.join(", ")
        ))
    })?;
    let spec = &entry.spec;
    let mut values = Params::with_alias(spec, alias).values;
    let mut seen: Vec<&'static str> = Vec::new();
    for (key, v) in given {
        let k = key.to_ascii_lowercase().replace('-', "_");
        let Some(pi) = spec
            .params
            .iter()
            .position(|p| p.name == k || p.aliases.contains(&k.as_str()))
        else {
            let valid: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
            return Err(Error::metric(format!(
                "metric '{}' has no parameter '{key}'; {}",
                spec.name,
                if valid.is_empty() {
                    "it takes none".to_string()
                } else {
                    format!("its parameters: {}", valid.join(", "))
                }
            )));
        };
        let p = &spec.params[pi];
        if seen.contains(&p.name) {
            return Err(Error::metric(format!(
                "metric '{}': parameter {} given twice (also as an alias)",
                spec.name, p.name
            )));
        }
        seen.push(p.name);
        let checked = p.kind.check(v).ok_or_else(|| {
            Error::metric(format!(
                "metric '{}': parameter {} must be {}, got {v}",
                spec.name,
                p.name,
                p.kind.describe()
            ))
        })?;
        values[pi].1 = Some(checked);
    }
    let params = Params { values };
    let metric = (entry.build)(&params)?;
    let label = metric
        .imp
        .label()
        .unwrap_or_else(|| alias.map_or(spec.name, |a| a.name).to_string());
    Ok(Resolved {
        spec,
        metric,
        params,
        label,
    })
}

// ------------------------------------------------------------------------------------------
// The registry: one line per declared type. Its order is the order of `sigfast info` and of
// the README's metric list.

/// Every built-in metric.
pub static REGISTRY: &[Entry] = &[
    entry::<Mean>(),
    entry::<Accuracy>(),
    entry::<Precision>(),
    entry::<Recall>(),
    entry::<FBeta>(),
    entry::<Bleu>(),
    entry::<Chrf>(),
    entry::<Aer>(),
    entry::<ErrorRate>(),
    entry::<Ter>(),
    entry::<WeightedMacroF1>(),
    entry::<Muc>(),
    entry::<Bcub>(),
    entry::<CeafM>(),
    entry::<CeafE>(),
    entry::<Blanc>(),
    entry::<Lea>(),
    entry::<ConllF1>(),
    entry::<Median>(),
    entry::<Quantile>(),
    entry::<Pearson>(),
    entry::<Spearman>(),
    entry::<KendallB>(),
    entry::<KendallC>(),
    entry::<TauLike>(),
    entry::<TauLikePooled>(),
    entry::<PairwiseAccuracy>(),
    entry::<AccEq>(),
    entry::<Auc>(),
];

const FRACTION_REF: &str = "the formula on summed counts";

/// The fields most count metrics share: higher is better, a fraction shown ×100.
const COUNTS: Spec = Spec {
    name: "",
    aliases: &[],
    params: &[],
    direction: Direction::Higher,
    scale: Scale::Fraction,
    counts: true,
    description: "",
    reference: FRACTION_REF,
};

#[inline]
fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

// ------------------------------------------------------------------------------ sums metrics

/// The mean of per-item scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean;

impl Declare for Mean {
    const SPEC: Spec = Spec {
        name: "mean",
        params: &[Param {
            name: "higher_is_better",
            aliases: &[],
            kind: Kind::Bool,
            default: ParamDefault::Bool(true),
            help: "direction of the score",
        }],
        direction: Direction::Param("higher_is_better"),
        scale: Scale::Plain,
        counts: false,
        description: "mean of per-item scores",
        reference: "the mean",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Mean)
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&["score"]),
            invariants: vec![],
        }
    }
    fn score(&self, s: &[f64], n_items: f64) -> f64 {
        ratio(s[0], n_items)
    }
    fn on_items(&self) -> Option<ItemStatistic> {
        Some(ItemStatistic::Mean)
    }
}

/// correct / total.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accuracy;

impl Declare for Accuracy {
    const SPEC: Spec = Spec {
        name: "accuracy",
        description: "correct / total",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Accuracy)
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&["correct", "total"]),
            invariants: vec![(0, 1)],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        ratio(s[0], s[1])
    }
}

/// The statistics of precision, recall and F: tp ≤ guessed, tp ≤ gold.
fn prf_input() -> Input {
    Input::Sums {
        names: strs(&["tp", "guessed", "gold"]),
        invariants: vec![(0, 1), (0, 2)],
    }
}

/// tp / guessed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision;

impl Declare for Precision {
    const SPEC: Spec = Spec {
        name: "precision",
        description: "tp / guessed",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Precision)
    }
    fn input(&self) -> Input {
        prf_input()
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        ratio(s[0], s[1])
    }
}

/// tp / gold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recall;

impl Declare for Recall {
    const SPEC: Spec = Spec {
        name: "recall",
        description: "tp / gold",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Recall)
    }
    fn input(&self) -> Input {
        prf_input()
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        ratio(s[0], s[2])
    }
}

/// F-beta from tp, guessed, gold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FBeta {
    pub beta: f64,
}

impl Declare for FBeta {
    const SPEC: Spec = Spec {
        name: "fbeta",
        aliases: &[Alias {
            name: "f1",
            defaults: &[],
        }],
        params: &[Param {
            name: "beta",
            aliases: &[],
            kind: Kind::Float {
                min: 0.0,
                max: 1e6,
                open_min: true,
            },
            default: ParamDefault::Float(1.0),
            help: "weight of recall (1: F1)",
        }],
        description: "F-beta from tp, guessed, gold (conlleval, EVALB, conll18_ud_eval)",
        ..COUNTS
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(FBeta { beta: p.f("beta") })
    }
    fn input(&self) -> Input {
        prf_input()
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        let p = ratio(s[0], s[1]);
        let r = ratio(s[0], s[2]);
        let b2 = self.beta * self.beta;
        let d = b2 * p + r;
        if d == 0.0 {
            0.0
        } else {
            (1.0 + b2) * p * r / d
        }
    }
    fn label(&self) -> Option<String> {
        Some(if self.beta == 1.0 {
            "f1".into()
        } else {
            format!("f{}", self.beta)
        })
    }
}

/// BLEU smoothing, as in sacrebleu (Chen & Cherry 2014).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smooth {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

/// sacrebleu's BLEU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bleu {
    pub max_order: usize,
    pub smooth: Smooth,
    pub effective_order: bool,
}

impl Declare for Bleu {
    const SPEC: Spec = Spec {
        name: "bleu",
        params: &[
            Param {
                name: "max_order",
                aliases: &[],
                kind: Kind::Int { min: 1, max: 16 },
                default: ParamDefault::Int(4),
                help: "largest n-gram order",
            },
            Param {
                name: "smooth",
                aliases: &["smooth_method"],
                kind: Kind::Choice(&["none", "floor", "add-k", "exp"]),
                default: ParamDefault::Str("exp"),
                help: "sacrebleu's smoothing method",
            },
            Param {
                name: "smooth_value",
                aliases: &[],
                kind: Kind::Float {
                    min: 0.0,
                    max: f64::INFINITY,
                    open_min: false,
                },
                default: ParamDefault::Derived,
                help: "smoothing value (default 0.1 for floor, 1 for add-k)",
            },
            Param {
                name: "effective_order",
                aliases: &[],
                kind: Kind::Bool,
                default: ParamDefault::Bool(false),
                help: "stop at the highest order with n-grams (sentence BLEU)",
            },
        ],
        scale: Scale::Points,
        description: "sacrebleu BLEU",
        reference: "sacrebleu 2.x BLEU",
        ..COUNTS
    };
    fn build(p: &Params) -> Result<Self> {
        let v = p.get("smooth_value").map(|_| p.f("smooth_value"));
        let smooth = match p.s("smooth") {
            "none" => Smooth::None,
            "floor" => Smooth::Floor(v.unwrap_or(0.1)),
            "add-k" => Smooth::AddK(v.unwrap_or(1.0)),
            _ => Smooth::Exp,
        };
        Ok(Bleu {
            max_order: p.i("max_order") as usize,
            smooth,
            effective_order: p.b("effective_order"),
        })
    }
    fn input(&self) -> Input {
        let n = self.max_order;
        let mut v = strs(&["hyp_len", "ref_len"]);
        v.extend((1..=n).map(|i| format!("correct_{i}")));
        v.extend((1..=n).map(|i| format!("total_{i}")));
        Input::Sums {
            names: v,
            invariants: (0..n).map(|i| (2 + i, 2 + n + i)).collect(),
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        bleu(s, self.max_order, self.smooth, self.effective_order)
    }
}

/// sacrebleu's chrF / chrF++.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chrf {
    pub char_order: usize,
    pub word_order: usize,
    pub beta: f64,
    pub eps_smoothing: bool,
}

impl Declare for Chrf {
    const SPEC: Spec = Spec {
        name: "chrf",
        aliases: &[Alias {
            name: "chrf++",
            defaults: &[("word_order", ParamDefault::Int(2))],
        }],
        params: &[
            Param {
                name: "char_order",
                aliases: &[],
                kind: Kind::Int { min: 0, max: 32 },
                default: ParamDefault::Int(6),
                help: "largest character n-gram order",
            },
            Param {
                name: "word_order",
                aliases: &[],
                kind: Kind::Int { min: 0, max: 8 },
                default: ParamDefault::Int(0),
                help: "largest word n-gram order (2: chrF++)",
            },
            Param {
                name: "beta",
                aliases: &[],
                kind: Kind::Float {
                    min: 0.0,
                    max: 1e6,
                    open_min: true,
                },
                default: ParamDefault::Float(2.0),
                help: "weight of recall",
            },
            Param {
                name: "eps_smoothing",
                aliases: &[],
                kind: Kind::Bool,
                default: ParamDefault::Bool(false),
                help: "sacrebleu's eps_smoothing (chrF++.py's averaging)",
            },
        ],
        scale: Scale::Points,
        description: "sacrebleu chrF / chrF++",
        reference: "sacrebleu 2.x chrF",
        ..COUNTS
    };
    fn build(p: &Params) -> Result<Self> {
        let (c, w) = (p.i("char_order") as usize, p.i("word_order") as usize);
        if c + w == 0 {
            return Err(Error::metric(
                "metric 'chrf': char_order + word_order must be at least 1",
            ));
        }
        Ok(Chrf {
            char_order: c,
            word_order: w,
            beta: p.f("beta"),
            eps_smoothing: p.b("eps_smoothing"),
        })
    }
    fn input(&self) -> Input {
        let mut v = Vec::new();
        for (t, top) in [("c", self.char_order), ("w", self.word_order)] {
            for n in 1..=top {
                for kind in ["hyp", "ref", "match"] {
                    v.push(format!("{kind}_{t}{n}"));
                }
            }
        }
        Input::Sums {
            names: v,
            // matches never exceed the hypothesis's or the reference's n-grams
            invariants: (0..self.char_order + self.word_order)
                .flat_map(|o| [(3 * o + 2, 3 * o), (3 * o + 2, 3 * o + 1)])
                .collect(),
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        chrf(
            s,
            self.char_order + self.word_order,
            self.beta,
            self.eps_smoothing,
        )
    }
    fn label(&self) -> Option<String> {
        Some(match self.word_order {
            2 => "chrf++".into(),
            0 => "chrf".into(),
            w => format!("chrf+{w}"),
        })
    }
}

/// The alignment error rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aer;

impl Declare for Aer {
    const SPEC: Spec = Spec {
        name: "aer",
        direction: Direction::Lower,
        description: "alignment error rate 1 - (|A&S| + |A&P|) / (|A| + |S|)",
        reference: "Och & Ney 2003; wa_eval_align.pl",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Aer)
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&["a_and_s", "a_and_p", "a", "s"]),
            // |A∩S| ≤ |A| and |A∩P| ≤ |A|: A's links counted as the reference scorer counts them.
            // Not |A∩S| ≤ |A∩P| (aer.py --allSure --ignorePossible makes S ⊄ P) nor |A∩S| ≤ |S|
            // (wa_eval_align.pl counts a system link listed both S and P twice).
            invariants: vec![(0, 2), (1, 2)],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        1.0 - ratio(s[0] + s[1], s[2] + s[3])
    }
}

/// Edits / reference length (WER, CER).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorRate;

impl Declare for ErrorRate {
    const SPEC: Spec = Spec {
        name: "error_rate",
        aliases: &[
            Alias {
                name: "wer",
                defaults: &[],
            },
            Alias {
                name: "cer",
                defaults: &[],
            },
        ],
        direction: Direction::Lower,
        counts: false,
        description: "edits / reference length (WER, CER)",
        reference: "the formula on summed statistics",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(ErrorRate)
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&["edits", "ref_len"]),
            invariants: vec![],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        ratio(s[0], s[1])
    }
}

/// sacrebleu's TER on (edits, average reference length), on its 0–100 scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ter;

impl Declare for Ter {
    const SPEC: Spec = Spec {
        name: "ter",
        direction: Direction::Lower,
        scale: Scale::Points,
        counts: false,
        description:
            "sacrebleu TER: 100 * edits / average reference length (100 for edits against \
                      empty references)",
        reference: "sacrebleu 2.x TER",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Ter)
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&["edits", "ref_len"]),
            invariants: vec![],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        ter(s[0], s[1])
    }
}

/// The CoNLL-2008 labeled macro F1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightedMacroF1 {
    pub weight: f64,
}

impl Declare for WeightedMacroF1 {
    const SPEC: Spec = Spec {
        name: "macro_f1_2008",
        aliases: &[Alias {
            name: "weighted_macro_f1",
            defaults: &[],
        }],
        params: &[Param {
            name: "weight",
            aliases: &["w_sem"],
            kind: Kind::Float {
                min: 0.0,
                max: 1.0,
                open_min: false,
            },
            default: ParamDefault::Float(0.5),
            help: "weight of the semantic score (W_sem)",
        }],
        description: "CoNLL-2008 labeled macro F1",
        reference: "eval08.pl (Surdeanu et al. 2008)",
        ..COUNTS
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(WeightedMacroF1 {
            weight: p.f("weight"),
        })
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&[
                "syn_correct",
                "syn_total",
                "sem_correct",
                "sem_guessed",
                "sem_gold",
            ]),
            invariants: vec![(0, 1), (2, 3), (2, 4)],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        let w = self.weight;
        let syn = ratio(s[0], s[1]);
        let sem_p = ratio(s[2], s[3]);
        let sem_r = ratio(s[2], s[4]);
        let p = w * sem_p + (1.0 - w) * syn;
        let r = w * sem_r + (1.0 - w) * syn;
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

// ------------------------------------------------------------------------------ coreference

/// The `part` parameter of the coreference metrics.
const COREF_PART: Param = Param {
    name: "part",
    aliases: &[],
    kind: Kind::Choice(&["f1", "recall", "precision"]),
    default: ParamDefault::Str("f1"),
    help: "which number: F1, recall or precision",
};

/// Recall, precision or F1 from `[r_num, r_den, p_num, p_den]`, as scorer.pl's `ShowRPF` computes
/// them (a zero denominator gives 0).
fn coref_prf(s: &[f64], part: u8) -> f64 {
    let r = ratio(s[0], s[1]);
    let p = ratio(s[2], s[3]);
    match part {
        1 => r,
        2 => p,
        _ => {
            if r + p == 0.0 {
                0.0
            } else {
                2.0 * p * r / (p + r)
            }
        }
    }
}

fn coref_part(p: &Params) -> u8 {
    match p.s("part") {
        "recall" => 1,
        "precision" => 2,
        _ => 0,
    }
}

fn coref_label(name: &str, part: u8) -> Option<String> {
    match part {
        1 => Some(format!("{name}_recall")),
        2 => Some(format!("{name}_precision")),
        _ => None,
    }
}

fn coref_input(counts: bool) -> Input {
    Input::Sums {
        names: strs(&["r_num", "r_den", "p_num", "p_den"]),
        // a numerator never exceeds its denominator; only checked for whole counts (float sums such as
        // B³'s may pass their denominator by a rounding error)
        invariants: if counts { vec![(0, 1), (2, 3)] } else { vec![] },
    }
}

/// The fields the coreference metrics share.
const COREF: Spec = Spec {
    params: &[COREF_PART],
    reference: "scorer.pl v8.01 (conll/reference-coreference-scorers)",
    ..COUNTS
};

macro_rules! coref_metric {
    ($ty:ident, $name:literal, $counts:expr, $desc:literal, $reference:expr) => {
        #[doc = $desc]
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $ty {
            /// 0: F1, 1: recall, 2: precision.
            pub part: u8,
        }

        impl Declare for $ty {
            const SPEC: Spec = Spec {
                name: $name,
                counts: $counts,
                description: $desc,
                reference: $reference,
                ..COREF
            };
            fn build(p: &Params) -> Result<Self> {
                Ok($ty {
                    part: coref_part(p),
                })
            }
            fn input(&self) -> Input {
                coref_input($counts)
            }
            fn score(&self, s: &[f64], _: f64) -> f64 {
                coref_prf(s, self.part)
            }
            fn label(&self) -> Option<String> {
                coref_label($name, self.part)
            }
        }
    };
}

coref_metric!(
    Muc,
    "muc",
    true,
    "coreference MUC (Vilain et al. 1995): links recalled and kept, on summed counts",
    COREF.reference
);
coref_metric!(
    Bcub,
    "bcub",
    false,
    "coreference B-cubed (Bagga & Baldwin 1998): per-mention overlap, on summed numerators",
    COREF.reference
);
coref_metric!(
    CeafM,
    "ceafm",
    true,
    "coreference CEAF, mention-based (Luo 2005): best one-to-one entity alignment",
    COREF.reference
);
coref_metric!(
    CeafE,
    "ceafe",
    false,
    "coreference CEAF, entity-based (Luo 2005): best one-to-one entity alignment, phi4",
    COREF.reference
);
coref_metric!(
    Lea,
    "lea",
    false,
    "coreference LEA (Moosavi & Strube 2016): entities weighted by size, by resolved links",
    "LEA as coval computes it (ns-moosavi/coval)"
);

/// scorer.pl's BLANC on summed link counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blanc {
    /// 0: F1, 1: recall, 2: precision.
    pub part: u8,
}

impl Declare for Blanc {
    const SPEC: Spec = Spec {
        name: "blanc",
        description: "coreference BLANC (Recasens & Hovy 2011; Luo et al. 2014): coreference and \
                      non-coreference links",
        ..COREF
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(Blanc {
            part: coref_part(p),
        })
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&[
                "c_r_num", "c_r_den", "c_p_num", "c_p_den", "n_r_num", "n_r_den", "n_p_num",
                "n_p_den",
            ]),
            invariants: vec![(0, 1), (2, 3), (4, 5), (6, 7)],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        // scorer.pl's totals: a part whose key has no links drops out (its recall marked -1)
        let ra = if s[1] != 0.0 { s[0] / s[1] } else { -1.0 };
        let rr = if s[5] != 0.0 { s[4] / s[5] } else { -1.0 };
        let pa = ratio(s[2], s[3]);
        let pr = ratio(s[6], s[7]);
        let f = |p: f64, r: f64| {
            if p + r != 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            }
        };
        let (fa, fr) = (f(pa, ra), f(pr, rr));
        let (r, p, f1) = if ra == -1.0 && rr == -1.0 {
            (0.0, 0.0, 0.0)
        } else if ra == -1.0 {
            (rr, pr, fr)
        } else if rr == -1.0 {
            (ra, pa, fa)
        } else {
            ((ra + rr) / 2.0, (pa + pr) / 2.0, (fa + fr) / 2.0)
        };
        match self.part {
            1 => r,
            2 => p,
            _ => f1,
        }
    }
    fn label(&self) -> Option<String> {
        coref_label("blanc", self.part)
    }
}

/// The CoNLL-2012 score: the mean of MUC, B³ and CEAFe F1, each on the summed statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConllF1;

impl Declare for ConllF1 {
    const SPEC: Spec = Spec {
        name: "conll_f1",
        aliases: &[Alias {
            name: "conll",
            defaults: &[],
        }],
        counts: false,
        description: "the CoNLL-2012 coreference score: mean of the MUC, B-cubed and CEAFe F1",
        reference: "scorer.pl v8.01 (the CoNLL-2011/2012 shared tasks' average)",
        ..COUNTS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(ConllF1)
    }
    fn input(&self) -> Input {
        Input::Sums {
            names: strs(&[
                "muc_r_num",
                "muc_r_den",
                "muc_p_num",
                "muc_p_den",
                "bcub_r_num",
                "bcub_r_den",
                "bcub_p_num",
                "bcub_p_den",
                "ceafe_r_num",
                "ceafe_r_den",
                "ceafe_p_num",
                "ceafe_p_den",
            ]),
            invariants: vec![(0, 1), (2, 3)],
        }
    }
    fn score(&self, s: &[f64], _: f64) -> f64 {
        (coref_prf(&s[0..4], 0) + coref_prf(&s[4..8], 0) + coref_prf(&s[8..12], 0)) / 3.0
    }
}

// ------------------------------------------------------------------------------ item statistics

const ITEM_REF: &str = "scipy.stats / numpy on the items";

/// The fields item statistics share: higher is better, shown as is.
const ITEMS: Spec = Spec {
    name: "",
    aliases: &[],
    params: &[],
    direction: Direction::Higher,
    scale: Scale::Plain,
    counts: false,
    description: "",
    reference: ITEM_REF,
};

/// The median of per-item scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Median;

impl Declare for Median {
    const SPEC: Spec = Spec {
        name: "median",
        description: "median of per-item scores (numpy)",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Median)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::Median)
    }
}

/// A quantile of per-item scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantile {
    pub q: f64,
}

impl Declare for Quantile {
    const SPEC: Spec = Spec {
        name: "quantile",
        params: &[Param {
            name: "q",
            aliases: &[],
            kind: Kind::Float {
                min: 0.0,
                max: 1.0,
                open_min: false,
            },
            default: ParamDefault::Float(0.5),
            help: "the quantile level",
        }],
        description: "quantile q of per-item scores (numpy's linear method)",
        ..ITEMS
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(Quantile { q: p.f("q") })
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::Quantile(self.q))
    }
}

/// Pearson's r of scores against a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pearson;

impl Declare for Pearson {
    const SPEC: Spec = Spec {
        name: "pearson",
        description: "Pearson's r of a system's scores (column 0) against a reference (column 1)",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Pearson)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::Pearson)
    }
}

/// Spearman's ρ of scores against a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spearman;

impl Declare for Spearman {
    const SPEC: Spec = Spec {
        name: "spearman",
        description: "Spearman's rho of scores against a reference",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Spearman)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::Spearman)
    }
}

/// Kendall's τ-b of scores against a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KendallB;

impl Declare for KendallB {
    const SPEC: Spec = Spec {
        name: "kendall_b",
        aliases: &[Alias {
            name: "kendall",
            defaults: &[],
        }],
        description: "Kendall's tau-b of scores against a reference",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(KendallB)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::KendallB)
    }
}

/// Kendall's τ-c of scores against a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KendallC;

impl Declare for KendallC {
    const SPEC: Spec = Spec {
        name: "kendall_c",
        description: "Kendall's tau-c of scores against a reference",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(KendallC)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::KendallC)
    }
}

/// WMT DARR Kendall-like τ of scores against a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TauLike {
    pub threshold: f64,
}

impl Declare for TauLike {
    const SPEC: Spec = Spec {
        name: "tau_like",
        params: &[Param {
            name: "threshold",
            aliases: &[],
            kind: Kind::Float {
                min: 0.0,
                max: f64::INFINITY,
                open_min: false,
            },
            default: ParamDefault::Float(0.0),
            help: "reference difference that makes a pair (WMT DA: 25)",
        }],
        description: "WMT DARR Kendall-like tau of scores against a reference (grouped levels: \
                      the mean over groups)",
        ..ITEMS
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(TauLike {
            threshold: p.f("threshold"),
        })
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::TauLike {
            threshold: self.threshold,
        })
    }
}

/// WMT's DARR Kendall-like τ pooled over groups, Σ(C − D)/Σ(C + D).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TauLikePooled {
    pub threshold: f64,
}

impl Declare for TauLikePooled {
    const SPEC: Spec = Spec {
        name: "tau_like_pooled",
        params: TauLike::SPEC.params,
        description: "WMT DARR Kendall-like tau pooled over groups, sum(C-D)/sum(C+D) \
                      (mt-metrics-eval KendallLike); tau_like on one group",
        ..ITEMS
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(TauLikePooled {
            threshold: p.f("threshold"),
        })
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::TauLikePooled {
            threshold: self.threshold,
        })
    }
}

/// The share of item pairs ordered alike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairwiseAccuracy;

impl Declare for PairwiseAccuracy {
    const SPEC: Spec = Spec {
        name: "pairwise_accuracy",
        description: "share of item pairs ordered alike by scores and reference",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(PairwiseAccuracy)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::PairwiseAccuracy)
    }
}

/// acc_eq (Deutsch et al. 2023); without ε, tie-calibrated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccEq {
    pub epsilon: Option<f64>,
}

impl Declare for AccEq {
    const SPEC: Spec = Spec {
        name: "acc_eq",
        params: &[Param {
            name: "epsilon",
            aliases: &[],
            kind: Kind::Float {
                min: 0.0,
                max: f64::INFINITY,
                open_min: false,
            },
            default: ParamDefault::Derived,
            help: "tie threshold (default: tie calibration)",
        }],
        description: "acc_eq (Deutsch et al. 2023) of scores against a reference",
        ..ITEMS
    };
    fn build(p: &Params) -> Result<Self> {
        Ok(AccEq {
            epsilon: p.get("epsilon").map(|_| p.f("epsilon")),
        })
    }
    fn input(&self) -> Input {
        Input::Items(match self.epsilon {
            Some(epsilon) => ItemStatistic::TieAccuracy { epsilon },
            None => ItemStatistic::TieCalibratedAccuracy,
        })
    }
}

/// The AUC of scores for 0/1 reference labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Auc;

impl Declare for Auc {
    const SPEC: Spec = Spec {
        name: "auc",
        description: "AUC of scores for 0/1 reference labels (Mann-Whitney, ties 1/2)",
        ..ITEMS
    };
    fn build(_: &Params) -> Result<Self> {
        Ok(Auc)
    }
    fn input(&self) -> Input {
        Input::Items(ItemStatistic::Auc)
    }
}

// ------------------------------------------------------------------------------ scoring

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

/// sacrebleu's `TER._compute_score_from_stats`: 100 · edits / length; with
/// a zero length, 100 when there are edits (a non-empty hypothesis against
/// empty references), else 0.
fn ter(edits: f64, ref_len: f64) -> f64 {
    if ref_len > 0.0 {
        100.0 * (edits / ref_len)
    } else if edits > 0.0 {
        100.0
    } else {
        0.0
    }
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

    fn m(name: &str) -> Metric {
        Metric::named(name).unwrap()
    }

    fn r(name: &str, given: &[(&str, Value)]) -> Result<Resolved> {
        let g: Vec<(String, Value)> = given
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect();
        resolve(name, &g)
    }

    #[test]
    fn f1_and_friends() {
        let s = [8.0, 10.0, 16.0];
        assert_eq!(m("precision").score(&s, 1.0), 0.8);
        assert_eq!(m("recall").score(&s, 1.0), 0.5);
        let f = m("f1").score(&s, 1.0);
        assert!((f - 2.0 * 0.8 * 0.5 / 1.3).abs() < 1e-15);
        assert_eq!(m("f1").score(&[0.0, 0.0, 3.0], 1.0), 0.0);
        assert_eq!(m("accuracy").score(&[3.0, 4.0], 1.0), 0.75);
        assert_eq!(m("mean").score(&[3.0], 4.0), 0.75);
    }

    #[test]
    fn aer_direct_formula() {
        // |A∩S| = 3, |A∩P| = 4, |A| = 5, |S| = 4
        let v = m("aer").score(&[3.0, 4.0, 5.0, 4.0], 1.0);
        assert!((v - (1.0 - 7.0 / 9.0)).abs() < 1e-15);
        assert!(!m("aer").higher_is_better());
    }

    #[test]
    fn bleu_perfect_and_empty() {
        let b = m("bleu");
        let s = [10.0, 10.0, 10.0, 9.0, 8.0, 7.0, 10.0, 9.0, 8.0, 7.0];
        assert!((b.score(&s, 1.0) - 100.0).abs() < 1e-12);
        let z = [10.0, 10.0, 0.0, 0.0, 0.0, 0.0, 10.0, 9.0, 8.0, 7.0];
        assert_eq!(b.score(&z, 1.0), 0.0);
        assert_eq!(b.n_stats(), 10);
    }

    #[test]
    fn ter_on_sacrebleu_scale() {
        let t = m("ter");
        assert_eq!(t.score(&[3.0, 12.0], 1.0), 25.0);
        assert_eq!(t.score(&[2.0, 0.0], 1.0), 100.0);
        assert_eq!(t.score(&[0.0, 0.0], 1.0), 0.0);
        assert!(!t.higher_is_better());
        assert_eq!(t.n_stats(), 2);
    }

    #[test]
    fn macro_f1_2008() {
        let v = m("macro_f1_2008").score(&[80.0, 100.0, 30.0, 40.0, 50.0], 1.0);
        let p = 0.5 * 0.75 + 0.5 * 0.8;
        let r = 0.5 * 0.6 + 0.5 * 0.8;
        assert!((v - 2.0 * p * r / (p + r)).abs() < 1e-15);
    }

    #[test]
    fn every_entry_builds_scores_and_describes_itself() {
        for e in REGISTRY {
            let d = e.describe().unwrap();
            let mt = e.default_metric().unwrap();
            assert_eq!(mt.name(), e.spec.name);
            assert_eq!(d.stat_names.len(), mt.n_stats(), "{}", e.spec.name);
            assert!(mt.n_stats() >= 1, "{}", e.spec.name);
            let ones = vec![1.0; mt.n_stats()];
            // a sums metric scores; an item statistic is computed on items only
            assert_eq!(
                mt.score(&ones, 1.0).is_finite(),
                !mt.is_item(),
                "{}",
                e.spec.name
            );
            assert_eq!(
                mt.is_item(),
                mt.on_items().is_some() && e.spec.name != "mean"
            );
            for a in e.spec.aliases {
                r(a.name, &[]).unwrap();
            }
            // the direction is the declaration's, and the description says the same
            let want = match e.spec.direction {
                Direction::Higher => Some(true),
                Direction::Lower => Some(false),
                Direction::Param(_) => None,
            };
            assert_eq!(d.higher_is_better, want);
            if let Some(h) = want {
                assert_eq!(mt.higher_is_better(), h, "{}", e.spec.name);
            }
        }
        // names are unique across names and aliases
        let mut all = names();
        all.sort_unstable();
        let n = all.len();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn direction_parameter_decides() {
        let lower = r("mean", &[("higher_is_better", Value::Bool(false))]).unwrap();
        assert!(!lower.metric.higher_is_better());
        assert_eq!(lower.metric.orient(), -1.0);
        assert!(m("mean").higher_is_better());
    }

    #[test]
    fn every_invariant_is_in_range_and_checked() {
        for e in REGISTRY {
            let mt = e.default_metric().unwrap();
            let k = mt.n_stats();
            let counts = e.spec.counts;
            for &(a, b) in mt.invariants() {
                assert!(a < k && b < k && a != b, "{}", e.spec.name);
                // a row of ones passes; raising `a` above `b` fails, naming both
                let mut row = vec![1.0; k];
                assert!(mt.check_rows(&row, counts, e.spec.name).is_ok());
                row[a] = 2.0;
                let err = mt.check_rows(&row, counts, e.spec.name).unwrap_err();
                let names = mt.stat_names();
                assert!(err.to_string().contains(&names[a]), "{err}");
                assert!(err.to_string().contains(&names[b]), "{err}");
            }
        }
    }

    #[test]
    fn aer_invariants_are_the_reference_scorers_counts() {
        let aer = m("aer");
        // aer.py --allSure --ignorePossible: S ⊄ P, so |A∩S| may exceed |A∩P|;
        // wa_eval_align.pl counts a link listed both S and P twice, so |A∩S| may exceed |S|
        assert!(aer.check_rows(&[3.0, 2.0, 4.0, 3.0], true, "aer").is_ok());
        assert!(aer.check_rows(&[3.0, 4.0, 4.0, 2.0], true, "aer").is_ok());
        // but no count of A's links exceeds |A|
        assert!(aer.check_rows(&[5.0, 4.0, 4.0, 9.0], true, "aer").is_err());
        assert!(aer.check_rows(&[1.0, 5.0, 4.0, 9.0], true, "aer").is_err());
    }

    #[test]
    fn counts_are_whole_and_non_negative() {
        let f1 = m("f1");
        assert!(f1.check_rows(&[1.0, 2.0, 3.0], true, "f1").is_ok());
        assert!(f1.check_rows(&[1.5, 2.0, 3.0], true, "f1").is_err());
        assert!(f1.check_rows(&[-1.0, 2.0, 3.0], true, "f1").is_err());
        assert!(f1.check_rows(&[9.0, 4.0, 5.0], true, "f1").is_err());
        let mean = m("mean");
        assert!(mean.check_rows(&[-1.5], false, "mean").is_ok());
        assert!(mean.check_rows(&[f64::NAN], false, "mean").is_err());
    }

    #[test]
    fn invalid_parameters_are_metric_errors() {
        let e = r("chrf", &[("char_order", Value::Int(0))]).unwrap_err();
        assert!(matches!(e, Error::Metric(_)), "{e}");
        assert!(r("chrf", &[("char_order", Value::Int(-1))]).is_err());
        assert!(r("bleu", &[("max_order", Value::Int(0))]).is_err());
        assert!(r("bleu", &[("smooth", Value::Str("bogus".into()))]).is_err());
        assert!(r("fbeta", &[("beta", Value::Float(0.0))]).is_err());
        assert!(r("fbeta", &[("beta", Value::Float(f64::NAN))]).is_err());
        assert!(r("accuracy", &[("beta", Value::Float(1.0))]).is_err());
        assert!(r("bleu", &[("max_order", Value::Float(4.5))]).is_err());
        assert!(r("quantile", &[("q", Value::Float(1.5))]).is_err());
        assert!(r("tau_like", &[("threshold", Value::Float(f64::INFINITY))]).is_err());
        assert!(r("acc_eq", &[("epsilon", Value::Float(-1.0))]).is_err());
        assert!(r("nope", &[]).is_err());
        let e = r(
            "bleu",
            &[
                ("smooth", Value::Str("floor".into())),
                ("smooth_method", Value::Str("exp".into())),
            ],
        )
        .unwrap_err();
        assert!(e.to_string().contains("twice"));
    }

    #[test]
    fn aliases_set_defaults_and_labels() {
        let c = r("chrf++", &[]).unwrap();
        assert_eq!(c.label, "chrf++");
        assert_eq!(c.metric.n_stats(), 24);
        assert_eq!(r("F1", &[]).unwrap().label, "f1");
        assert_eq!(
            r("fbeta", &[("beta", Value::Float(0.5))]).unwrap().label,
            "f0.5"
        );
        assert_eq!(r("wer", &[]).unwrap().label, "wer");
        let t = r("TER", &[]).unwrap();
        assert_eq!((t.label.as_str(), t.spec.scale), ("ter", Scale::Points));
        assert_eq!(t.metric.declared::<Ter>(), Some(&Ter));
        let b = r("bleu", &[("smooth_method", Value::Str("floor".into()))]).unwrap();
        assert_eq!(
            b.metric.declared::<Bleu>(),
            Some(&Bleu {
                max_order: 4,
                smooth: Smooth::Floor(0.1),
                effective_order: false
            })
        );
    }

    #[test]
    fn item_statistics_are_registry_entries() {
        let k = r("kendall", &[]).unwrap();
        assert_eq!((k.spec.name, k.label.as_str()), ("kendall_b", "kendall"));
        assert_eq!(k.metric.on_items(), Some(&ItemStatistic::KendallB));
        assert_eq!(k.metric.stat_names(), ["score", "reference"]);
        let q = r("quantile", &[("q", Value::Float(0.25))]).unwrap();
        assert_eq!(q.metric.on_items(), Some(&ItemStatistic::Quantile(0.25)));
        assert_eq!(
            m("acc_eq").on_items(),
            Some(&ItemStatistic::TieCalibratedAccuracy)
        );
        let e = r("acc_eq", &[("epsilon", Value::Float(0.5))]).unwrap();
        assert_eq!(
            e.metric.on_items(),
            Some(&ItemStatistic::TieAccuracy { epsilon: 0.5 })
        );
        // the mean of per-item scores is a sums metric with an item form
        assert!(!m("mean").is_item());
        assert_eq!(m("mean").on_items(), Some(&ItemStatistic::Mean));
        // accuracy is correct / total, never an item statistic
        assert_eq!(m("accuracy").on_items(), None);
    }

    /// The coreference metrics against the hand formulas: F1 = 2PR/(P+R) of the summed
    /// numerators and denominators, the CoNLL F1 their mean over MUC, B³ and CEAFe, BLANC the
    /// mean of its two link F1 (one alone where the key has no links of the other kind).
    #[test]
    fn coreference_metrics() {
        let f1 = |r: f64, p: f64| 2.0 * p * r / (p + r);
        let s = [3.0, 4.0, 3.0, 6.0];
        assert!((m("muc").score(&s, 1.0) - f1(0.75, 0.5)).abs() < 1e-15);
        let rec = r("ceafm", &[("part", Value::Str("recall".into()))]).unwrap();
        assert_eq!(rec.metric.score(&s, 1.0), 0.75);
        assert_eq!(rec.label, "ceafm_recall");
        let all = [3.0, 4.0, 3.0, 6.0, 2.5, 5.0, 2.5, 4.0, 1.2, 2.0, 1.2, 3.0];
        let want = (f1(0.75, 0.5) + f1(0.5, 0.625) + f1(0.6, 0.4)) / 3.0;
        assert!((m("conll_f1").score(&all, 1.0) - want).abs() < 1e-15);
        assert_eq!(m("conll").name(), "conll_f1");
        let b = [1.0, 4.0, 1.0, 4.0, 5.0, 11.0, 5.0, 17.0];
        let want = (f1(0.25, 0.25) + f1(5.0 / 11.0, 5.0 / 17.0)) / 2.0;
        assert!((m("blanc").score(&b, 1.0) - want).abs() < 1e-15);
        // no key coreference links: the non-coreference links alone
        let b = [0.0, 0.0, 0.0, 1.0, 2.0, 4.0, 2.0, 2.0];
        assert!((m("blanc").score(&b, 1.0) - f1(0.5, 1.0)).abs() < 1e-15);
        assert_eq!(m("blanc").score(&[0.0; 8], 1.0), 0.0);
        assert!(m("bcub").input() == &coref_input(false));
        assert!(m("lea").higher_is_better() && !Metric::named("lea").unwrap().is_item());
    }
}
