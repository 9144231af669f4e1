//! Pieces `run` and `validate` share: loading the suite before Docker, and the runner set-up.

use nab_harness::pinned::pin_suite;
use nab_harness::task::{Task, load_suite};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loads and checks the suite and pins each task's test set from `tests.lock`; on any
/// problem prints them all and nothing else happens (no Docker connection, no container).
/// A task the lock does not pin gets a warning.
pub fn load_or_report(tasks: &Path, ids: &[String]) -> Option<Vec<Arc<Task>>> {
    let mut loaded = match load_suite(tasks, ids) {
        Ok(t) => t,
        Err(e) => {
            eprint!("{e}");
            return None;
        }
    };
    match pin_suite(tasks, &mut loaded) {
        Ok(warnings) => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
        }
        Err(e) => {
            eprintln!("{e}");
            return None;
        }
    }
    Some(loaded.into_iter().map(Arc::new).collect())
}

pub fn default_out(prefix: &str, run_id: &str) -> PathBuf {
    PathBuf::from("runs").join(format!("{prefix}{run_id}"))
}
