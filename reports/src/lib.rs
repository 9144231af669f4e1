//! nab-reports: what a run's trial records mean, and how people and CI see it.
//!
//! - [`stats`]: the statistics, each a small pure function with its formula.
//! - `run`: a run directory loaded (through [`nab_protocol::run::RunFolder`]), grouped by task.
//! - `summary`: the run's aggregates (`summary.json`).
//! - `table`: `results.parquet` via polars.
//! - `trial`: one trial's artifacts (trajectory, diff, logs) for its view.
//! - `html`: the self-contained `report.html` and `compare.html` (minijinja templates).
//! - `mde`: the one minimum detectable effect every page shows.
//! - `compare`: the paired comparison of two runs.
//! - [`gate`]: the CI gate (rules, Markdown, JUnit XML).
//! - [`leaderboard`]: many runs ranked on common tasks (`nab leaderboard`).
//! - [`cli`]: the `nab report | compare | gate` subcommands, as `clap::Args` + `run`.
//! - `finish`: what the runner calls at the end of `nab run`.
//!
//! Only [`cli`], [`gate`], [`leaderboard`], [`stats`] (and, for tests, `fixtures`) are
//! public modules; the rest is private, its items other crates use re-exported below.

pub mod cli;
mod compare;
mod error;
mod finish;
#[cfg(any(test, feature = "test-support"))]
pub mod fixtures;
pub mod gate;
mod html;
pub mod leaderboard;
mod mde;
mod pairwise;
mod quarantine;
mod run;
pub mod stats;
mod summary;
mod table;
mod trial;

pub use compare::Comparison;
pub use error::{ReportError, Result};
pub use finish::{RunOutputs, write_outputs_at, write_run_outputs};
pub use html::{render_compare, render_report};
pub use nab_protocol::run::RunMeta;
pub use run::Run;
pub use summary::RunSummary;
