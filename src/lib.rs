//! sigfast: the resampling engine behind the `sigfast` Python package.
//!
//! Pure Rust, no Python: `cargo test` builds and tests it alone; the pyo3
//! glue lives in `bindings` behind the `python` feature.
//!
//! # Determinism
//! 1. The only randomness is [`rng::Stream`], keyed by (stream version,
//!    seed, scheme, resample index) through Philox4x64-10.
//! 2. Parallel work is split into fixed blocks of resamples; a resample's
//!    output row depends only on its own stream, never on a thread.
//! 3. Sums inside a resample run in a fixed order; integer statistics are
//!    summed exactly. Floating-point reductions never cross threads.
//! 4. [`rng::Version`] names the stream layout ([`rng::STREAM_VERSION`] is
//!    the default); a new layout is a new version, and every version stays
//!    selectable ([`engine::Job::stream`]).

pub mod aso;
pub mod battles;
pub mod binomial;
pub mod conlleval;
pub mod coref;
pub mod engine;
pub mod evalb;
pub mod inference;
pub mod itemstat;
pub mod meta;
pub mod metric;
pub mod pairwise;
pub mod plan;
pub mod porter;
pub mod rng;
pub mod rouge;
pub mod simd;
pub mod stream;
pub mod ter;
pub mod textstats;
pub mod udstats;

#[cfg(feature = "python")]
mod bindings;

#[cfg(test)]
mod architecture;

/// Which input a [`Error::Format`] is about. The Python layer knows the
/// files' names; the core only knows their roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileRole {
    Gold,
    System,
    /// A parameter file (EVALB's `.prm`).
    Params,
}

/// The one error type of the core. At the Python boundary each variant maps
/// onto one exception class: `Input` → `InputError`, `Format` →
/// `FormatError` (with the file's name and the line), `Metric` →
/// `MetricError`, `Internal` → `SigfastError` ("please report"),
/// `Cancelled` → `KeyboardInterrupt`.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// Data or arguments that cannot be used, with the reason and the fix.
    Input(String),
    /// A file that cannot be read. `message` may hold `{gold}` or `{system}`,
    /// replaced by the files' names where they are known.
    Format {
        file: FileRole,
        line: Option<usize>,
        message: String,
    },
    /// An unknown metric, an invalid metric parameter, or statistics that
    /// do not fit the metric.
    Metric(String),
    /// A broken invariant inside sigfast: a bug.
    Internal(String),
    /// The caller asked the work to stop.
    Cancelled,
}

impl Error {
    /// An [`Error::Input`] from anything printable.
    pub fn input(m: impl Into<String>) -> Self {
        Error::Input(m.into())
    }

    /// An [`Error::Metric`] from anything printable.
    pub fn metric(m: impl Into<String>) -> Self {
        Error::Metric(m.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Input(m) | Error::Metric(m) => write!(f, "{m}"),
            Error::Format {
                file,
                line,
                message,
            } => {
                write!(f, "{file:?} file")?;
                if let Some(l) = line {
                    write!(f, ", line {l}")?;
                }
                write!(f, ": {message}")
            }
            Error::Internal(m) => write!(f, "internal error: {m}"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
