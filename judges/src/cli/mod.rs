//! The judge-related parts of the `nab` command line, as `clap` argument structs and `run`
//! functions the harness's binary calls. Models come from the harness through a
//! [`crate::model::ModelFactory`] (spec string → model).
//!
//! - `nab run … --judge SPEC [--judge SPEC…] [--rubric FILE]`: flatten [`JudgeOpts`] into
//!   the run arguments, build a [`crate::TrialGrader`] once ([`crate::TrialGrader::from_opts`]),
//!   call [`crate::TrialGrader::grade_trial`] after
//!   each trial's verification and store the records in `TrialRecord::judges`.
//! - `nab judge --run DIR`: [`judge::JudgeArgs`], [`judge::run`].
//! - `nab compare --baseline DIR --candidate DIR --judge SPEC`: [`compare::PairwiseArgs`],
//!   [`compare::run`].
//! - `nab review export|import`: [`review::ReviewArgs`], [`review::run`].

pub mod compare;
pub mod judge;
pub mod pairs_file;
pub mod review;
mod run_opts;

pub use run_opts::JudgeOpts;

use crate::rubric::Rubric;
use std::path::Path;

/// The rubric from `--rubric FILE`, or the shipped code-quality rubric.
pub fn load_rubric(path: Option<&Path>) -> anyhow::Result<Rubric> {
    Ok(match path {
        Some(p) => Rubric::load(p)?,
        None => Rubric::default_code_quality(),
    })
}
