//! nab-judges: LLM judging that is trustworthy by construction.
//!
//! - [`rubric`]: rubrics are YAML data, validated on load, identified by id + content hash.
//! - [`answer_schema`]: JSON Schemas of the two verdicts, for providers that constrain output.
//! - [`fit`]: prompts fitted into a judge's context window when it is small (local models).
//! - [`diff_budget`]: what a judge sees of a diff: a fair share per file, sizes and hashes kept.
//! - [`prompt`]: judge prompts rendered from minijinja templates; the candidate's diff and
//!   trajectory sit between delimiters carrying a per-request random nonce.
//! - [`parse`]: the strict answer parser (every dimension once, integer 1–5, real booleans…).
//! - [`grade`]: ask → validate → retry (at most twice, with the error shown) → score, giving a
//!   [`nab_protocol::trial::JudgeRecord`]. A malformed answer is never scored.
//! - [`score`]: weighted score, vetoes and gates, computed in Rust.
//! - [`pairwise`]: baseline vs candidate, judged in both orders; a winner counts only when
//!   both orders agree.
//! - [`kappa`], [`combine`]: agreement between raters (Cohen's kappa, quadratic-weighted
//!   kappa, seeded bootstrap intervals) and the median combination of several judges.
//! - [`review`]: blind, seeded, stratified human-review export and verdict import.
//! - [`cli`]: `clap` arguments and `run` functions for `nab judge`, `nab compare`,
//!   `nab review export|import`, and the `--judge/--rubric` options of `nab run`.
//!
//! Models are reached only through the [`model::JudgeModel`] trait; the harness implements
//! it with its gateway providers.

pub mod answer_schema;
pub mod cli;
pub mod combine;
pub mod diff_budget;
pub mod error;
pub mod fit;
pub mod grade;
mod grader;
pub mod kappa;
pub mod material;
pub mod model;
pub mod pairwise;
pub mod parse;
pub mod prompt;
pub mod review;
pub mod rubric;
pub mod score;
#[cfg(any(test, feature = "test-support"))]
pub mod scripted;
mod seeded;
pub mod trajectory;

mod hash;

pub use error::JudgeError;
pub use fit::ContextWindow;
pub use grade::{Grading, grade};
pub use grader::TrialGrader;
pub use model::{ChatMessage, JudgeModel, ModelError, ModelReply, Role};
pub use rubric::Rubric;
