//! Errors of this crate. Each message names the file or value at fault and what to do.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The run folder could not be read (not a run, a bad record, a bad run.json).
    #[error(transparent)]
    Run(#[from] nab_protocol::RunFolderError),
    #[error("{path}: invalid gate config: {message}")]
    GateConfig { path: PathBuf, message: String },
    #[error("{path}: {message}")]
    Quarantine { path: PathBuf, message: String },
    #[error(
        "pairwise judge results for task {task} were judged on runs {judged}, not on the runs compared ({compared}): refusing to mix another run pair's verdicts in"
    )]
    PairwiseRunMismatch {
        task: String,
        judged: String,
        compared: String,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot build the results table for {path}: {message}")]
    Table { path: PathBuf, message: String },
    #[error("cannot render {template}: {message}")]
    Render { template: String, message: String },
    #[error(
        "the baseline and the candidate share no task: nothing to compare ({baseline} vs {candidate})"
    )]
    NoCommonTasks {
        baseline: PathBuf,
        candidate: PathBuf,
    },
    #[error("{path}: {message}")]
    LeaderboardInput { path: PathBuf, message: String },
    /// A file `nab export` refuses to read or write, and why.
    #[error("{path}: {message}")]
    ExportInput { path: PathBuf, message: String },
    /// The folder `nab view` was asked to index is not one.
    #[error("{path}: {message}")]
    ViewInput { path: PathBuf, message: String },
    #[error(
        "refusing to rank runs of different task sets or suite versions:\n{details}\npass --allow-mixed to rank them anyway (the leaderboard then says so on every page)"
    )]
    MixedSuites { details: String },
    #[error("no task has a verdict in every run, so there is nothing to rank them on: {runs}")]
    NoCommonTasksAcross { runs: String },
    /// The run's task suite could not be found or is not the one it ran.
    #[error(transparent)]
    Suite(#[from] nab_protocol::SuiteError),
}

pub type Result<T, E = ReportError> = std::result::Result<T, E>;
