//! Statistics as small pure functions. Each one documents its formula.
//!
//! The task is the unit of analysis throughout: a run of 28 tasks × 5 trials holds 28
//! independent observations, not 140, because trials of one task share everything but the
//! model's sampling. Functions here therefore take per-task values (pass counts or rates),
//! and the intervals use the number of tasks as their sample size.

pub mod binomial;
pub mod bootstrap;
pub mod dist;
pub mod fisher;
pub mod flip;
pub mod growth;
pub mod holm;
pub mod mcnemar;
pub mod mde;
pub mod pass_at_k;
pub mod quantile;
pub mod rank;
pub mod ratio;
pub mod seeded;
pub mod signflip;
pub mod tarone;
pub mod wilson;

pub use bootstrap::paired_bootstrap;
pub use flip::{flip_rate, task_flip_rate};
pub use holm::holm;
pub use mcnemar::mcnemar_exact;
pub use mde::mde_paired;
pub use pass_at_k::{pass_at_k, pass_hat_k};
pub use quantile::{median, p90};
pub use rank::RankInterval;
pub use signflip::{Draws, SignFlip, sign_flip};
pub use wilson::wilson;

use serde::{Deserialize, Serialize};

/// A two-sided interval around an estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// z for a two-sided 95% interval: Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;
