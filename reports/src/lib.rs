//! nab-reports: what a run's trial records mean, and how people and CI see it.
//!
//! - `stats`: the statistics, each a small pure function with its formula.
//! - `run`: a run directory loaded (through [`nab_protocol::RunFolder`]), grouped by task.
//! - `summary`: the run's aggregates (`summary.json`); `judge_summary` the judges' part.
//! - `table`: typed tables (`results.parquet`, the export's), in Parquet and CSV.
//! - `trial`: one trial's artifacts (trajectory, diff, logs) for its view.
//! - `html`: the self-contained `report.html`, `compare.html`, `leaderboard.html` and the
//!   viewer's `index.html` (minijinja templates).
//! - `mde`: the one minimum detectable effect every page shows.
//! - `compare`: the paired comparison of two runs.
//! - `gate`: the CI gate (rules, Markdown, JUnit XML).
//! - `leaderboard`: many runs ranked on common tasks (`nab leaderboard`).
//! - `export`: the trials of many runs as CSV or Parquet tables (`nab export`).
//! - `view`: the index page over a folder of runs and sweeps (`nab view`).
//! - `cli`: the `nab report | compare | gate | leaderboard | export | view` subcommands,
//!   as `clap::Args` + `run`.
//! - `finish`: what the runner calls at the end of `nab run`.
//!
//! The subcommands (`cli::report`, `cli::compare`, `cli::gate`, `cli::leaderboard`,
//! `cli::export`, `cli::view`: a `clap::Args` and a `run` each), the gate, the leaderboard,
//! the export, the viewer, the number formats and the end-of-run summary are public areas,
//! reached by path (`nab_reports::cli::gate::run`, `nab_reports::leaderboard::build`); the
//! other modules are private, and the items other crates use most are re-exported below by
//! their own names (the synthetic-run fixtures only with the `test-support` feature).

pub mod cli;
mod compaction;
mod compare;
mod error;
pub mod export;
mod finish;
#[cfg(any(test, feature = "test-support"))]
mod fixtures;
pub mod format;
pub mod gate;
mod html;
mod judge_summary;
pub mod leaderboard;
mod mde;
mod output;
mod pairwise;
mod quarantine;
mod run;
pub mod run_end;
#[cfg(any(test, feature = "test-support"))]
mod simulate;
mod stats;
mod summary;
mod table;
mod trial;
pub mod view;

pub use cli::{CompareArgs, ExportArgs, GateArgs, LeaderboardArgs, ReportArgs, ViewArgs};
pub use gate::{GateConfig, GateOutcome, RuleOutcome, RuleResult, SignificanceTest};
pub use leaderboard::{Leaderboard, write_leaderboard};
pub use stats::{Z95, pass_at_k, wilson};

// Synthetic runs for tests and benchmarks (feature `test-support`), never for a real run.
pub use compare::Comparison;
pub use error::{ReportError, Result};
pub use finish::{RunOutputs, write_outputs_at, write_run_outputs};
#[cfg(any(test, feature = "test-support"))]
pub use fixtures::{SynthSpec, synth_records, synth_task_id, write_synth_run};
#[cfg(any(test, feature = "test-support"))]
pub use html::trial_views;
pub use html::{render_compare, render_report};
pub use nab_protocol::RunMeta;
pub use run::Run;
#[cfg(any(test, feature = "test-support"))]
pub use simulate::{
    GateSim, GateTally, Noise, RankSim, RankTally, lowered, simulate_gates, simulate_rank_coverage,
};
pub use summary::RunSummary;
