//! Pieces `run` and `validate` share: loading the suite before Docker, and the runner set-up.

use nab_harness::task::{Task, load_suite};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loads and checks the suite; on any problem prints them all and nothing else happens
/// (no Docker connection, no container).
pub fn load_or_report(tasks: &Path, ids: &[String]) -> Option<Vec<Arc<Task>>> {
    match load_suite(tasks, ids) {
        Ok(t) => Some(t.into_iter().map(Arc::new).collect()),
        Err(e) => {
            eprint!("{e}");
            None
        }
    }
}

pub fn default_out(prefix: &str, run_id: &str) -> PathBuf {
    PathBuf::from("runs").join(format!("{prefix}{run_id}"))
}
