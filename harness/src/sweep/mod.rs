//! `nab sweep`: agents × models × tasks × trials from one sweep file, each (agent, model)
//! pair an ordinary run folder under the sweep folder.
//!
//! - [`file`]: the sweep file's format and every check made before anything runs.
//! - [`plan`]: the runs, their provider pools, and the interleaved order of the trials.

pub mod file;
pub mod plan;

pub use file::{ProviderLimits, Sweep, SweepFile, SweepFileError, SweepIssue};
pub use plan::{Plan, PlannedRun, Pool, Unit};
