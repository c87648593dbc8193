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
//! | `Ter` | edits, average reference length | sacrebleu's TER: 100 · edits / length (0–100+) |
//! | `WeightedMacroF1` | syn_correct, syn_total, sem_correct, sem_guessed, sem_gold | CoNLL-2008 labeled macro F1 |
//!
//! A ratio with a zero denominator is 0 (conlleval's convention).
//!
//! [`SPECS`] declares every metric once: name, aliases, parameters (type,
//! range, default), direction, display scale and description.

use crate::{Error, Result};

// ------------------------------------------------------------------------------------------
// The registry: every built-in metric is declared here once. The Python layer reads
// `SPECS` (as data) for `sigfast.metrics`, `sigfast info`, reports and the README's metric
// list, and resolves names and parameters through `resolve`, so an invalid parameter is a
// `MetricError` before any work starts.

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

/// A metric's declaration.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    pub aliases: &'static [Alias],
    pub params: &'static [Param],
    /// None where a parameter decides (the mean's `higher_is_better`).
    pub higher_is_better: Option<bool>,
    pub scale: Scale,
    /// Statistics are non-negative counts (integers).
    pub counts: bool,
    pub description: &'static str,
    /// The reference the value reproduces, for the docs.
    pub reference: &'static str,
    /// Not a function of summed statistics: computed on the resampled items themselves.
    pub items: bool,
    build: fn(&Params) -> Result<Metric>,
}

/// Resolved, validated parameters of one metric.
#[derive(Clone, Debug)]
pub struct Params {
    values: Vec<(&'static str, Option<Value>)>,
}

impl Params {
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

const FRACTION_REF: &str = "the formula on summed counts";

fn item(name: &str, p: &Params) -> Result<Metric> {
    let get = |k: &str| p.get(k).map(|_| p.f(k));
    Ok(Metric::Item(crate::itemstat::ItemStatistic::parse(
        name, get,
    )?))
}

const ITEM_REF: &str = "scipy.stats / numpy on the items";

/// Every built-in metric. Adding a metric: one entry here (and its arm in
/// [`Metric`]); Python, `sigfast info` and the docs read this table.
pub static SPECS: &[Spec] = &[
    Spec {
        name: "mean",
        aliases: &[],
        params: &[Param {
            name: "higher_is_better",
            aliases: &[],
            kind: Kind::Bool,
            default: ParamDefault::Bool(true),
            help: "direction of the score",
        }],
        higher_is_better: None,
        scale: Scale::Plain,
        counts: false,
        description: "mean of per-item scores",
        reference: "the mean",
        items: false,
        build: |p| {
            Ok(Metric::Mean {
                higher_is_better: p.b("higher_is_better"),
            })
        },
    },
    Spec {
        name: "accuracy",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Fraction,
        counts: true,
        description: "correct / total",
        reference: FRACTION_REF,
        items: false,
        build: |_| Ok(Metric::Accuracy),
    },
    Spec {
        name: "precision",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Fraction,
        counts: true,
        description: "tp / guessed",
        reference: FRACTION_REF,
        items: false,
        build: |_| Ok(Metric::Precision),
    },
    Spec {
        name: "recall",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Fraction,
        counts: true,
        description: "tp / gold",
        reference: FRACTION_REF,
        items: false,
        build: |_| Ok(Metric::Recall),
    },
    Spec {
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
        higher_is_better: Some(true),
        scale: Scale::Fraction,
        counts: true,
        description: "F-beta from tp, guessed, gold (conlleval, EVALB, conll18_ud_eval)",
        reference: FRACTION_REF,
        items: false,
        build: |p| Ok(Metric::FBeta { beta: p.f("beta") }),
    },
    Spec {
        name: "bleu",
        aliases: &[],
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
        higher_is_better: Some(true),
        scale: Scale::Points,
        counts: true,
        description: "sacrebleu BLEU",
        reference: "sacrebleu 2.x BLEU",
        items: false,
        build: |p| {
            let v = p.get("smooth_value").map(|_| p.f("smooth_value"));
            let smooth = match p.s("smooth") {
                "none" => Smooth::None,
                "floor" => Smooth::Floor(v.unwrap_or(0.1)),
                "add-k" => Smooth::AddK(v.unwrap_or(1.0)),
                _ => Smooth::Exp,
            };
            Ok(Metric::Bleu {
                max_order: p.i("max_order") as usize,
                smooth,
                effective_order: p.b("effective_order"),
            })
        },
    },
    Spec {
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
        higher_is_better: Some(true),
        scale: Scale::Points,
        counts: true,
        description: "sacrebleu chrF / chrF++",
        reference: "sacrebleu 2.x chrF",
        items: false,
        build: |p| {
            let (c, w) = (p.i("char_order") as usize, p.i("word_order") as usize);
            if c + w == 0 {
                return Err(Error::metric(
                    "metric 'chrf': char_order + word_order must be at least 1",
                ));
            }
            Ok(Metric::Chrf {
                char_order: c,
                word_order: w,
                beta: p.f("beta"),
                eps_smoothing: p.b("eps_smoothing"),
            })
        },
    },
    Spec {
        name: "aer",
        aliases: &[],
        params: &[],
        higher_is_better: Some(false),
        scale: Scale::Fraction,
        counts: true,
        description: "alignment error rate 1 - (|A&S| + |A&P|) / (|A| + |S|)",
        reference: "Och & Ney 2003; wa_eval_align.pl",
        items: false,
        build: |_| Ok(Metric::Aer),
    },
    Spec {
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
        params: &[],
        higher_is_better: Some(false),
        scale: Scale::Fraction,
        counts: false,
        description: "edits / reference length (WER, CER)",
        reference: "the formula on summed statistics",
        items: false,
        build: |_| Ok(Metric::ErrorRate),
    },
    Spec {
        name: "ter",
        aliases: &[],
        params: &[],
        higher_is_better: Some(false),
        scale: Scale::Points,
        counts: false,
        description:
            "sacrebleu TER: 100 * edits / average reference length (100 for edits against \
                      empty references)",
        reference: "sacrebleu 2.x TER",
        items: false,
        build: |_| Ok(Metric::Ter),
    },
    Spec {
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
        higher_is_better: Some(true),
        scale: Scale::Fraction,
        counts: true,
        description: "CoNLL-2008 labeled macro F1",
        reference: "eval08.pl (Surdeanu et al. 2008)",
        items: false,
        build: |p| {
            Ok(Metric::WeightedMacroF1 {
                weight: p.f("weight"),
            })
        },
    },
    Spec {
        name: "median",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "median of per-item scores (numpy)",
        reference: ITEM_REF,
        items: true,
        build: |p| item("median", p),
    },
    Spec {
        name: "quantile",
        aliases: &[],
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
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "quantile q of per-item scores (numpy's linear method)",
        reference: ITEM_REF,
        items: true,
        build: |p| item("quantile", p),
    },
    Spec {
        name: "pearson",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "Pearson's r of a system's scores (column 0) against a reference (column 1)",
        reference: ITEM_REF,
        items: true,
        build: |p| item("pearson", p),
    },
    Spec {
        name: "spearman",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "Spearman's rho of scores against a reference",
        reference: ITEM_REF,
        items: true,
        build: |p| item("spearman", p),
    },
    Spec {
        name: "kendall_b",
        aliases: &[Alias {
            name: "kendall",
            defaults: &[],
        }],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "Kendall's tau-b of scores against a reference",
        reference: ITEM_REF,
        items: true,
        build: |p| item("kendall_b", p),
    },
    Spec {
        name: "kendall_c",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "Kendall's tau-c of scores against a reference",
        reference: ITEM_REF,
        items: true,
        build: |p| item("kendall_c", p),
    },
    Spec {
        name: "tau_like",
        aliases: &[],
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
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "WMT DARR Kendall-like tau of scores against a reference",
        reference: ITEM_REF,
        items: true,
        build: |p| item("tau_like", p),
    },
    Spec {
        name: "pairwise_accuracy",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "share of item pairs ordered alike by scores and reference",
        reference: ITEM_REF,
        items: true,
        build: |p| item("pairwise_accuracy", p),
    },
    Spec {
        name: "acc_eq",
        aliases: &[],
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
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "acc_eq (Deutsch et al. 2023) of scores against a reference",
        reference: ITEM_REF,
        items: true,
        build: |p| item("acc_eq", p),
    },
    Spec {
        name: "auc",
        aliases: &[],
        params: &[],
        higher_is_better: Some(true),
        scale: Scale::Plain,
        counts: false,
        description: "AUC of scores for 0/1 reference labels (Mann-Whitney, ties 1/2)",
        reference: ITEM_REF,
        items: true,
        build: |p| item("auc", p),
    },
];

/// A metric resolved from a name and parameters.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub spec: &'static Spec,
    pub metric: Metric,
    pub params: Params,
    /// The name to show (`f1`, `f0.5`, `chrf++`, `wer`).
    pub label: String,
}

/// The spec of `name` (a canonical name or an alias, any case) and the alias used.
#[must_use]
pub fn lookup(name: &str) -> Option<(&'static Spec, Option<&'static Alias>)> {
    let n = name.to_ascii_lowercase();
    for s in SPECS {
        if s.name == n {
            return Some((s, None));
        }
        if let Some(a) = s.aliases.iter().find(|a| a.name == n) {
            return Some((s, Some(a)));
        }
    }
    None
}

/// Every name a metric can be asked for.
#[must_use]
pub fn names() -> Vec<&'static str> {
    SPECS
        .iter()
        .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().map(|a| a.name)))
        .collect()
}

/// Resolve `name` with `given` parameters: unknown names, unknown parameters
/// and values of the wrong type or range are [`Error::Metric`].
pub fn resolve(name: &str, given: &[(String, Value)]) -> Result<Resolved> {
    let (spec, alias) = lookup(name).ok_or_else(|| {
        Error::metric(format!(
            "unknown metric '{name}'; built-in metrics: {}",
            names().join(", ")
        ))
    })?;
    let mut values: Vec<(&'static str, Option<Value>)> = spec
        .params
        .iter()
        .map(|p| {
            let d = alias
                .and_then(|a| a.defaults.iter().find(|(k, _)| *k == p.name))
                .map_or(p.default, |(_, d)| *d);
            (p.name, d.value())
        })
        .collect();
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
    let metric = (spec.build)(&params)?;
    let label = label(spec, alias, &metric);
    Ok(Resolved {
        spec,
        metric,
        params,
        label,
    })
}

fn label(spec: &Spec, alias: Option<&Alias>, m: &Metric) -> String {
    match m {
        Metric::FBeta { beta } => {
            if *beta == 1.0 {
                "f1".into()
            } else {
                format!("f{beta}")
            }
        }
        Metric::Chrf { word_order, .. } => {
            if *word_order == 2 {
                "chrf++".into()
            } else if *word_order == 0 {
                "chrf".into()
            } else {
                format!("chrf+{word_order}")
            }
        }
        _ => alias.map_or(spec.name, |a| a.name).to_string(),
    }
}

impl Metric {
    /// Names of the statistics one system contributes, in order.
    #[must_use]
    pub fn stat_names(&self) -> Vec<String> {
        match self {
            Metric::Item(st) => {
                if st.n_inputs() == 1 {
                    vec!["score".into()]
                } else {
                    vec!["score".into(), "reference".into()]
                }
            }
            Metric::Mean { .. } => vec!["score".into()],
            Metric::Accuracy => vec!["correct".into(), "total".into()],
            Metric::Precision | Metric::Recall | Metric::FBeta { .. } => {
                vec!["tp".into(), "guessed".into(), "gold".into()]
            }
            Metric::Bleu { max_order, .. } => {
                let mut v = vec!["hyp_len".to_string(), "ref_len".to_string()];
                v.extend((1..=*max_order).map(|n| format!("correct_{n}")));
                v.extend((1..=*max_order).map(|n| format!("total_{n}")));
                v
            }
            Metric::Chrf {
                char_order,
                word_order,
                ..
            } => {
                let mut v = Vec::new();
                for (t, top) in [("c", *char_order), ("w", *word_order)] {
                    for n in 1..=top {
                        for kind in ["hyp", "ref", "match"] {
                            v.push(format!("{kind}_{t}{n}"));
                        }
                    }
                }
                v
            }
            Metric::Aer => vec!["a_and_s".into(), "a_and_p".into(), "a".into(), "s".into()],
            Metric::ErrorRate | Metric::Ter => vec!["edits".into(), "ref_len".into()],
            Metric::WeightedMacroF1 { .. } => vec![
                "syn_correct".into(),
                "syn_total".into(),
                "sem_correct".into(),
                "sem_guessed".into(),
                "sem_gold".into(),
            ],
        }
    }
}

impl Metric {
    /// The invariants of one item's statistics, declared once: pairs `(a, b)`
    /// of statistic indices with `stat[a] <= stat[b]` (a part never exceeds
    /// its whole: tp ≤ guessed, correct ≤ total, matches ≤ n-grams, ...).
    #[must_use]
    pub fn invariants(&self) -> Vec<(usize, usize)> {
        match self {
            Metric::Item(_) | Metric::Mean { .. } | Metric::ErrorRate | Metric::Ter => vec![],
            Metric::Accuracy => vec![(0, 1)],
            Metric::Precision | Metric::Recall | Metric::FBeta { .. } => vec![(0, 1), (0, 2)],
            Metric::Bleu { max_order, .. } => (0..*max_order)
                .map(|i| (2 + i, 2 + max_order + i))
                .collect(),
            Metric::Chrf {
                char_order,
                word_order,
                ..
            } => (0..char_order + word_order)
                .flat_map(|o| [(3 * o + 2, 3 * o), (3 * o + 2, 3 * o + 1)])
                .collect(),
            // |A∩S| ≤ |A| and |A∩P| ≤ |A|: A's links counted as the reference scorer counts them.
            // Not |A∩S| ≤ |A∩P| (aer.py --allSure --ignorePossible makes S ⊄ P) nor |A∩S| ≤ |S|
            // (wa_eval_align.pl counts a system link listed both S and P twice).
            Metric::Aer => vec![(0, 2), (1, 2)],
            Metric::WeightedMacroF1 { .. } => vec![(0, 1), (2, 3), (2, 4)],
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
        for (i, row) in data.chunks_exact(k).enumerate() {
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
            for &(a, b) in &inv {
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
    /// A statistic of the items themselves (a median, a correlation), not a
    /// function of summed statistics: the engine's item path computes it on
    /// every resample ([`crate::itemstat`]); [`Metric::score`] is NaN.
    Item(crate::itemstat::ItemStatistic),
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
    /// sacrebleu's TER on (edits, average reference length), on its 0–100 scale.
    Ter,
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
            Metric::Item(st) => st.n_inputs(),
            Metric::Mean { .. } => 1,
            Metric::Accuracy | Metric::ErrorRate | Metric::Ter => 2,
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
            Metric::Aer | Metric::ErrorRate | Metric::Ter => false,
            _ => true,
        }
    }

    /// The metric on summed statistics `s` of `n_items` items.
    #[must_use]
    pub fn score(&self, s: &[f64], n_items: f64) -> f64 {
        match self {
            Metric::Item(_) => f64::NAN,
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
            Metric::Ter => ter(s[0], s[1]),
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
    fn ter_on_sacrebleu_scale() {
        assert_eq!(Metric::Ter.score(&[3.0, 12.0], 1.0), 25.0);
        assert_eq!(Metric::Ter.score(&[2.0, 0.0], 1.0), 100.0);
        assert_eq!(Metric::Ter.score(&[0.0, 0.0], 1.0), 0.0);
        assert!(!Metric::Ter.higher_is_better());
        assert_eq!(Metric::Ter.n_stats(), 2);
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

#[cfg(test)]
mod invariant_tests {
    use super::*;

    #[test]
    fn every_invariant_is_in_range_and_checked() {
        for spec in SPECS {
            let m = resolve(spec.name, &[]).unwrap().metric;
            let k = m.n_stats();
            for (a, b) in m.invariants() {
                assert!(a < k && b < k && a != b, "{}", spec.name);
                // a row of ones passes; raising `a` above `b` fails, naming both
                let mut row = vec![1.0; k];
                assert!(m.check_rows(&row, spec.counts, spec.name).is_ok());
                row[a] = 2.0;
                let e = m.check_rows(&row, spec.counts, spec.name).unwrap_err();
                let names = m.stat_names();
                assert!(e.to_string().contains(&names[a]), "{e}");
                assert!(e.to_string().contains(&names[b]), "{e}");
            }
        }
    }

    #[test]
    fn aer_invariants_are_the_reference_scorers_counts() {
        // aer.py --allSure --ignorePossible: S ⊄ P, so |A∩S| may exceed |A∩P|;
        // wa_eval_align.pl counts a link listed both S and P twice, so |A∩S| may exceed |S|
        assert!(Metric::Aer
            .check_rows(&[3.0, 2.0, 4.0, 3.0], true, "aer")
            .is_ok());
        assert!(Metric::Aer
            .check_rows(&[3.0, 4.0, 4.0, 2.0], true, "aer")
            .is_ok());
        // but no count of A's links exceeds |A|
        assert!(Metric::Aer
            .check_rows(&[5.0, 4.0, 4.0, 9.0], true, "aer")
            .is_err());
        assert!(Metric::Aer
            .check_rows(&[1.0, 5.0, 4.0, 9.0], true, "aer")
            .is_err());
    }

    #[test]
    fn counts_are_whole_and_non_negative() {
        let f1 = Metric::FBeta { beta: 1.0 };
        assert!(f1.check_rows(&[1.0, 2.0, 3.0], true, "f1").is_ok());
        assert!(f1.check_rows(&[1.5, 2.0, 3.0], true, "f1").is_err());
        assert!(f1.check_rows(&[-1.0, 2.0, 3.0], true, "f1").is_err());
        assert!(f1.check_rows(&[9.0, 4.0, 5.0], true, "f1").is_err());
        let mean = Metric::Mean {
            higher_is_better: true,
        };
        assert!(mean.check_rows(&[-1.5], false, "mean").is_ok());
        assert!(mean.check_rows(&[f64::NAN], false, "mean").is_err());
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    fn r(name: &str, given: &[(&str, Value)]) -> Result<Resolved> {
        let g: Vec<(String, Value)> = given
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect();
        resolve(name, &g)
    }

    #[test]
    fn every_spec_resolves_with_defaults() {
        for s in SPECS {
            let m = r(s.name, &[]).unwrap();
            assert_eq!(
                m.metric.stat_names().len(),
                m.metric.n_stats(),
                "{}",
                s.name
            );
            for a in s.aliases {
                r(a.name, &[]).unwrap();
            }
        }
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
        let m = r("chrf++", &[]).unwrap();
        assert_eq!(m.label, "chrf++");
        assert_eq!(m.metric.n_stats(), 24);
        assert_eq!(r("F1", &[]).unwrap().label, "f1");
        assert_eq!(
            r("fbeta", &[("beta", Value::Float(0.5))]).unwrap().label,
            "f0.5"
        );
        assert_eq!(r("wer", &[]).unwrap().label, "wer");
        let t = r("TER", &[]).unwrap();
        assert_eq!((t.label.as_str(), t.spec.scale), ("ter", Scale::Points));
        assert_eq!(t.metric, Metric::Ter);
        let b = r("bleu", &[("smooth_method", Value::Str("floor".into()))]).unwrap();
        assert_eq!(
            b.metric,
            Metric::Bleu {
                max_order: 4,
                smooth: Smooth::Floor(0.1),
                effective_order: false
            }
        );
    }
}
