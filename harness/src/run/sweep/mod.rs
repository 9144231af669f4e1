//! `nab sweep`: agents × models × tasks × trials from one sweep file, each (agent, model)
//! pair an ordinary run folder under the sweep folder.
//!
//! - `file`: the sweep file's format and every check made before anything runs.
//! - `plan`: the runs, their provider pools, and the interleaved order of the trials.
//! - `schedule`: the dispatcher (global `jobs`, each pool's `concurrency`).
//! - `execute`: the run folders, their results files and `--resume`.
//! - `index`: starting and resuming `sweep.json` (its type is nab-protocol's `SweepIndex`).
//! - [`models`]: each run's model, checked and priced before Docker, and what `sweep.json`
//!   records of the runs and the providers.

mod execute;
mod file;
mod index;
pub mod models;
mod plan;
mod schedule;

pub use execute::{SweepConfig, SweepReport, SweepRunReport, run_sweep};
pub use index::SweepResume;

pub use file::{ProviderLimits, Sweep, SweepFile, SweepFileError, SweepIssue};
pub use plan::{Plan, PlannedRun, Pool, Unit};
