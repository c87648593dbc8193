//! The one error contract across the boundary, and the one helper every
//! native call runs through.
//!
//! * [`to_py`] maps [`crate::Error`] one to one onto the Python classes of
//!   `sigfast.exceptions`: `Input` → `InputError`, `Format` → `FormatError`
//!   (with the file's name and line), `Metric` → `MetricError`, `Internal`
//!   → `SigfastError` with a "please report" note, `Cancelled` →
//!   `KeyboardInterrupt`. `impl From<Error> for PyErr` is the same map with
//!   no file names, so `?` converts an engine error in any binding.
//! * [`enter`] runs a long job with the GIL released on a worker thread,
//!   polls Ctrl-C and relays progress (the resampling bindings reach it
//!   through the job value, `bindings::job`); [`quick`] runs a short one
//!   with the GIL released on the calling thread ([`quick_named`] where the
//!   error names the files read). Both catch panics, so no `PanicException`
//!   ever reaches a user.

use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use crate::engine::Progress;
use crate::{Error, FileRole};

pyo3::import_exception!(sigfast.exceptions, SigfastError);
pyo3::import_exception!(sigfast.exceptions, InputError);
pyo3::import_exception!(sigfast.exceptions, FormatError);
pyo3::import_exception!(sigfast.exceptions, MetricError);

/// The display names of the files a call reads, for error messages.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub gold: Option<String>,
    pub system: Option<String>,
    pub params: Option<String>,
}

impl Names {
    pub fn new(gold: Option<String>, system: Option<String>) -> Self {
        Names {
            gold,
            system,
            params: None,
        }
    }

    fn of(&self, role: FileRole) -> Option<&str> {
        match role {
            FileRole::Gold => self.gold.as_deref(),
            FileRole::System => self.system.as_deref(),
            FileRole::Params => self.params.as_deref(),
        }
    }
}

fn role_word(role: FileRole) -> &'static str {
    match role {
        FileRole::Gold => "gold",
        FileRole::System => "system",
        FileRole::Params => "parameter",
    }
}

/// The Python exception for `e`.
pub fn to_py(e: Error, names: &Names) -> PyErr {
    match e {
        Error::Input(m) => InputError::new_err(m),
        Error::Metric(m) => MetricError::new_err(m),
        Error::Format {
            file,
            line,
            message,
        } => {
            let gold = names.gold.as_deref().unwrap_or("the gold file");
            let system = names.system.as_deref().unwrap_or("the system file");
            let message = message.replace("{gold}", gold).replace("{system}", system);
            let path = names
                .of(file)
                .map_or_else(|| format!("<{} input>", role_word(file)), str::to_string);
            FormatError::new_err((message, path, line))
        }
        Error::Internal(m) => internal(&m),
        Error::Cancelled => PyKeyboardInterrupt::new_err("cancelled"),
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        to_py(e, &Names::default())
    }
}

fn internal(m: &str) -> PyErr {
    SigfastError::new_err(format!(
        "internal error in sigfast {}: {m}. This is a bug: please report it with the command or \
         call that caused it",
        env!("CARGO_PKG_VERSION")
    ))
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

/// Run a short `job` with the GIL released on this thread; errors and panics
/// become `SigfastError` subclasses.
pub fn quick<T: Send>(
    py: Python<'_>,
    job: impl FnOnce() -> crate::Result<T> + Send,
) -> PyResult<T> {
    quick_named(py, &Names::default(), job)
}

/// [`quick`] for a job whose errors name the files it reads.
pub fn quick_named<T: Send>(
    py: Python<'_>,
    names: &Names,
    job: impl FnOnce() -> crate::Result<T> + Send,
) -> PyResult<T> {
    match py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))) {
        Ok(r) => r.map_err(|e| to_py(e, names)),
        Err(p) => Err(internal(&panic_message(p.as_ref()))),
    }
}

/// Run `job` on a worker of the engine's pool (threads started once per
/// process, not per call: `crate::engine::pool`) with the GIL released; poll Ctrl-C and feed
/// `progress(done, total)` from the calling thread about ten times a second.
/// Ctrl-C or an exception in the callback sets the job's cancel flag and
/// waits for it to stop.
pub fn enter<T: Send>(
    py: Python<'_>,
    callback: Option<&Bound<'_, PyAny>>,
    total: u64,
    job: impl FnOnce(&Progress) -> crate::Result<T> + Send,
) -> PyResult<T> {
    let progress = Progress::new();
    let finished = (Mutex::new(false), Condvar::new());
    let mut out = None;
    let pool = crate::engine::pool(0)?;
    let result = pool.in_place_scope(|s| {
        let (prog, fin, slot) = (&progress, &finished, &mut out);
        s.spawn(move |_| {
            *slot = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || job(prog),
            )));
            *fin.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
            fin.1.notify_all();
        });
        loop {
            let done = py.detach(|| {
                let guard = finished
                    .0
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let (guard, _) = finished
                    .1
                    .wait_timeout_while(guard, Duration::from_millis(100), |d| !*d)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                *guard
            });
            let mut err = py.check_signals().err();
            if err.is_none() {
                if let Some(cb) = callback {
                    err = cb
                        .call1((progress.done.load(Ordering::Relaxed), total))
                        .err();
                }
            }
            if let Some(e) = err {
                progress.cancel.store(true, Ordering::Relaxed);
                // wait for the job to see the flag (the scope joins it)
                py.detach(|| {
                    let guard = finished
                        .0
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    drop(
                        finished
                            .1
                            .wait_while(guard, |d| !*d)
                            .unwrap_or_else(std::sync::PoisonError::into_inner),
                    );
                });
                return Some(e);
            }
            if done {
                return None;
            }
        }
    });
    if let Some(e) = result {
        return Err(e);
    }
    match out {
        Some(Ok(r)) => r.map_err(PyErr::from),
        Some(Err(p)) => Err(internal(&panic_message(p.as_ref()))),
        None => Err(internal("the job did not run")),
    }
}
