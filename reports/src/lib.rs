//! nab-reports: what a run's trial records mean, and how people and CI see it.
//!
//! - `stats`: the statistics, each a small pure function with its formula.
//! - `run`: a run directory loaded (through [`nab_protocol::RunFolder`]), grouped by task.
//! - `summary`: the run's aggregates (`summary.json`); `judge_summary` the judges' part.
//! - `table`: `results.parquet` via polars.
//! - `trial`: one trial's artifacts (trajectory, diff, logs) for its view.
//! - `html`: the self-contained `report.html` and `compare.html` (minijinja templates).
//! - `mde`: the one minimum detectable effect every page shows.
//! - `compare`: the paired comparison of two runs.
//! - `gate`: the CI gate (rules, Markdown, JUnit XML).
//! - `leaderboard`: many runs ranked on common tasks (`nab leaderboard`).
//! - `cli`: the `nab report | compare | gate` subcommands, as `clap::Args` + `run`.
//! - `finish`: what the runner calls at the end of `nab run`.
//!
//! Every module is private; the items other crates use are re-exported below, one by one
//! (the synthetic-run fixtures only with the `test-support` feature).

mod cli;
mod compaction;
mod compare;
mod error;
mod finish;
#[cfg(any(test, feature = "test-support"))]
mod fixtures;
pub mod format;
mod gate;
mod html;
mod judge_summary;
mod leaderboard;
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

pub use cli::compare::run as run_compare;
pub use cli::gate::{evaluate as evaluate_gate_run, run as run_gate, write as write_gate_outputs};
pub use cli::leaderboard::{run as run_leaderboard, terminal as leaderboard_terminal};
pub use cli::report::run as run_report;
pub use cli::{CompareArgs, GateArgs, LeaderboardArgs, ReportArgs};
pub use gate::{
    GateConfig, GateOutcome, RuleOutcome, RuleResult, SignificanceTest, evaluate as evaluate_gate,
};
pub use leaderboard::row::Row as LeaderboardRow;
pub use leaderboard::{
    Leaderboard, Options as LeaderboardOptions, build as build_leaderboard, write_leaderboard,
};
pub use run_end::terminal as report_terminal;
pub use stats::{Z95, pass_at_k, wilson};

// Synthetic runs for tests and benchmarks (feature `test-support`), never for a real run.
pub use compare::Comparison;
pub use error::{ReportError, Result};
pub use finish::{RunOutputs, write_outputs_at, write_run_outputs};
#[cfg(any(test, feature = "test-support"))]
pub use fixtures::{
    SynthSpec, records as synth_records, task_id as synth_task_id, write_run as write_synth_run,
};
pub use html::{render_compare, render_report};
pub use nab_protocol::RunMeta;
pub use run::Run;
#[cfg(any(test, feature = "test-support"))]
pub use simulate::{
    GateSim, GateTally, Noise, RankSim, RankTally, lowered, simulate_gates, simulate_rank_coverage,
};
pub use summary::RunSummary;
