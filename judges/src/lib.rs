//! nab-judges: LLM judging that is trustworthy by construction.
//!
//! - `rubric`: rubrics are YAML data, validated on load, identified by id + content hash.
//! - `answer_schema`: JSON Schemas of the two verdicts, for providers that constrain output.
//! - `fit`: prompts fitted into a judge's context window when it is small (local models).
//! - `diff_budget`: what a judge sees of a diff: a fair share per file, sizes and hashes kept.
//! - `prompt`: judge prompts rendered from minijinja templates; the candidate's diff and
//!   trajectory sit between delimiters carrying a per-request random nonce.
//! - `parse`: the strict answer parser (every dimension once, integer 1–5, real booleans…).
//! - `grade`: ask → validate → retry (at most twice, with the error shown) → score, giving a
//!   [`nab_protocol::JudgeRecord`]. A malformed answer is never scored.
//! - `score`: weighted score, vetoes and gates, computed in Rust.
//! - `pairwise`: baseline vs candidate, judged in both orders; a winner counts only when
//!   both orders agree.
//! - `kappa`, `combine`: agreement between raters (Cohen's kappa, quadratic-weighted
//!   kappa, seeded bootstrap intervals) and the median combination of several judges.
//! - `review`: blind, seeded, stratified human-review export and verdict import.
//! - `cli`: `clap` arguments and `run` functions for `nab judge`, `nab compare`,
//!   `nab review export|import`, and the `--judge/--rubric` options of `nab run`.
//!
//! The modules are private; what other crates use is re-exported below, item by item,
//! among them the command-line surface of `cli` (`clap::Args` and a `run` per subcommand:
//! [`JudgeArgs`] and [`cli::judge::run`], [`PairwiseArgs`] and [`cli::compare::run`],
//! [`ReviewArgs`] and [`cli::review::run`]).
//!
//! Models are reached only through the [`JudgeModel`] trait; the harness implements
//! it with its gateway providers.

mod answer_schema;
mod bytecode;
pub mod cli;
mod combine;
mod diff_budget;
mod error;
mod fit;
mod grade;
mod grader;
mod kappa;
mod material;
mod model;
mod pairwise;
mod parse;
mod prompt;
mod review;
mod rubric;
mod score;
#[cfg(any(test, feature = "test-support"))]
mod scripted;
mod seeded;
mod trajectory;
mod window;

mod hash;

pub use cli::JudgeOpts;
pub use cli::compare::{CompareSummary, PairwiseArgs, judge_pairs};
pub use cli::judge::JudgeArgs;
pub use cli::review::{
    ReviewArgs, ReviewCommand, ReviewExportArgs, ReviewImportArgs, ReviewOutcome,
    ReviewPairwiseExportArgs, SampleArgs,
};

pub use answer_schema::pairwise_schema;
pub use error::JudgeError;
pub use grade::{Grading, grade, grade_with_prompt};
pub use grader::TrialGrader;
pub use material::trajectory_files;
pub use model::{ChatMessage, JudgeModel, ModelError, ModelFactory, ModelReply, Role};
pub use pairwise::{PairLine, compare_pair};
pub use parse::{RejectKind, parse_single};
pub use prompt::{Candidate, pairwise_prompt, single_prompt};
pub use review::{AgreementRow, ExportSummary, ReviewReport, Sample};
pub use rubric::Rubric;
#[cfg(any(test, feature = "test-support"))]
pub use scripted::ScriptedJudge;
pub use window::{ContextWindow, MAX_RETRIES};
