//! nab-reports: what a run's trial records mean, and how people and CI see it.
//!
//! - [`stats`]: the statistics, each a small pure function with its formula.
//! - [`run`]: a run directory loaded (through [`nab_protocol::run::RunFolder`]), grouped by task.
//! - [`suite`]: the suite's identity, so a copied run folder finds and checks its tasks.
//! - [`summary`]: the run's aggregates (`summary.json`).
//! - [`table`]: `results.parquet` via polars.
//! - [`trial`]: one trial's artifacts (trajectory, diff, logs) for its view.
//! - [`html`]: the self-contained `report.html` and `compare.html` (minijinja templates).
//! - [`mde`]: the one minimum detectable effect every page shows.
//! - [`compare`]: the paired comparison of two runs.
//! - [`gate`]: the CI gate (rules, Markdown, JUnit XML).
//! - [`leaderboard`]: many runs ranked on common tasks (`nab leaderboard`).
//! - [`cli`]: the `nab report | compare | gate` subcommands, as `clap::Args` + `run`.
//! - [`finish`]: what the runner calls at the end of `nab run`.

pub mod cli;
pub mod compare;
pub mod error;
pub mod finish;
#[cfg(any(test, feature = "test-support"))]
pub mod fixtures;
pub mod gate;
pub mod html;
pub mod leaderboard;
pub mod mde;
pub mod pairwise;
pub mod quarantine;
pub mod run;
pub mod stats;
pub mod summary;
pub mod table;
pub mod trial;

pub use error::{ReportError, Result};
pub use finish::{RunOutputs, write_outputs_at, write_run_outputs};
pub use nab_protocol::run::RunMeta;
pub use run::Run;
pub use summary::RunSummary;
