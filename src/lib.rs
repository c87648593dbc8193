//! sigfast: the resampling engine behind the `sigfast` Python package.
//!
//! Pure Rust, no Python: `cargo test` builds and tests it alone; the pyo3
//! glue lives in `bindings` behind the `python` feature.
//!
//! # Determinism
//! 1. The only randomness is [`rng::Stream`], keyed by (seed, scheme,
//!    resample index) through Philox4x64-10.
//! 2. Parallel work is split into fixed blocks of resamples; a resample's
//!    output row depends only on its own stream, never on a thread.
//! 3. Sums inside a resample run in a fixed order; integer statistics are
//!    summed exactly. Floating-point reductions never cross threads.
//! 4. [`rng::STREAM_VERSION`] names the stream layout; changing it is a
//!    breaking change.

pub mod binomial;
pub mod engine;
pub mod evalb;
pub mod inference;
pub mod metric;
pub mod pairwise;
pub mod rng;
pub mod textstats;
pub mod udstats;

#[cfg(feature = "python")]
mod bindings;

/// Errors of the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// Arguments or data that cannot be used, with the reason.
    InvalidArgument(String),
    /// The caller asked the work to stop.
    Cancelled,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::InvalidArgument(m) => write!(f, "{m}"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
