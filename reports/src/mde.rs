//! The one minimum detectable effect (MDE) every page shows: paired across tasks, with α,
//! power and the source of its standard deviation stated, and the trials per task that
//! would make a 10-point difference detectable.
//!
//! ```text
//! MDE = (t_{1−α/2, m−1} + t_{power, m−1}) · s_d / √m        (m tasks, paired)
//! ```
//!
//! s_d is the standard deviation of per-task differences (candidate − baseline):
//! - comparing two runs: the observed differences;
//! - one run alone (report.html, summary.json): what a rerun of the same design would give
//!   under a constant shift, s_d² = 2·v̄/n̄, from the run's own within-task variance
//!   v̄ = mean over tasks of p̂(1−p̂)·n/(n−1) and n̄ trials per task;
//! - when the data cannot say (one trial per task, or no spread at all): the stated
//!   planning value v = p̄(1−p̄) (¼ when p̄ is 0 or 1).
//!
//! Trials for a 10-point difference: with per-trial variance v and the part of s_d² that more
//! trials cannot remove, τ² = max(0, s_d² − 2v/n̄), the smallest n with
//! (t₁ + t₂)·√(τ² + 2v/n)/√m ≤ 0.10; none when τ² alone is too large (more tasks needed).

use crate::stats::mde_paired;
use serde::{Deserialize, Serialize};

pub const ALPHA: f64 = 0.05;
pub const POWER: f64 = 0.8;
/// The difference whose required trials per task every page states.
pub const TARGET: f64 = 0.10;

/// A task's (scored trials, passed trials).
pub type Counts = (u32, u32);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mde {
    /// The MDE as a fraction (0.16 = 16 points); `None` with fewer than two tasks.
    pub value: Option<f64>,
    /// False when no difference up to 100 points can be detected (value ≥ 1 or none).
    pub detectable: bool,
    pub tasks: usize,
    pub alpha: f64,
    pub power: f64,
    /// The standard deviation of per-task differences used, and where it came from.
    pub sd: f64,
    pub sd_source: String,
    /// Trials per task that would make a 10-point difference detectable; `None` when no
    /// number of trials can (or there are too few tasks).
    pub trials_for_10_points: Option<u32>,
    /// The one sentence every page shows.
    pub explanation: String,
}

/// Within-task (per-trial) variance from (scored, passed) counts: the mean over tasks with
/// n ≥ 2 of p̂(1−p̂)·n/(n−1), and the mean trials per task. `None` when no task has two trials.
pub fn within_task_variance(counts: &[(u32, u32)]) -> Option<(f64, f64)> {
    let eligible: Vec<_> = counts.iter().filter(|(n, _)| *n >= 2).collect();
    if eligible.is_empty() {
        return None;
    }
    let v = eligible
        .iter()
        .map(|(n, c)| {
            let (n, c) = (f64::from(*n), f64::from(*c));
            let p = c / n;
            p * (1.0 - p) * n / (n - 1.0)
        })
        .sum::<f64>()
        / eligible.len() as f64;
    let nbar = eligible.iter().map(|(n, _)| f64::from(*n)).sum::<f64>() / eligible.len() as f64;
    Some((v, nbar))
}

/// The planning per-trial variance p̄(1−p̄), or ¼ when p̄ is 0 or 1.
fn planning_variance(pbar: f64) -> f64 {
    let v = pbar * (1.0 - pbar);
    if v > 0.0 { v } else { 0.25 }
}

fn trials_for(target: f64, v: f64, tau2: f64, m: usize) -> Option<u32> {
    if m < 2 {
        return None;
    }
    let df = (m - 1) as f64;
    let t = crate::stats::dist::t_quantile(1.0 - ALPHA / 2.0, df)?
        + crate::stats::dist::t_quantile(POWER, df)?;
    let budget = (target * (m as f64).sqrt() / t).powi(2) - tau2;
    if budget <= 0.0 {
        return None;
    }
    let n = (2.0 * v / budget).ceil().max(1.0);
    (n <= 1e6).then_some(n as u32)
}

impl Mde {
    fn build(sd: f64, sd_source: String, m: usize, v: f64, tau2: f64) -> Mde {
        let value = mde_paired(sd, m, ALPHA, POWER);
        let detectable = value.is_some_and(|v| v < 1.0);
        let trials = trials_for(TARGET, v, tau2, m);
        let explanation = match value {
            None => format!(
                "with {m} task(s) no difference can be detected: a paired test needs at least 2 tasks"
            ),
            Some(_) if !detectable => format!(
                "with {m} tasks no difference can be detected at α {ALPHA}, power {POWER} (sd of per-task differences {sd:.3}, {sd_source})"
            ),
            Some(x) => format!(
                "paired across {m} tasks, two-sided α {ALPHA}, power {POWER}, sd of per-task differences {sd:.3} ({sd_source}): a true difference of {:.1} points or more is found {:.0}% of the time; smaller ones can go unseen",
                x * 100.0,
                POWER * 100.0
            ),
        };
        let trials_text = match trials {
            Some(n) => format!(
                "; {n} trial(s) per task would make a {:.0}-point difference detectable",
                TARGET * 100.0
            ),
            None if m >= 2 => format!(
                "; no number of trials per task makes a {:.0}-point difference detectable with {m} tasks (the tasks' own differences vary too much): more tasks are needed",
                TARGET * 100.0
            ),
            None => String::new(),
        };
        Mde {
            value,
            detectable,
            tasks: m,
            alpha: ALPHA,
            power: POWER,
            sd,
            sd_source,
            trials_for_10_points: trials,
            explanation: format!("{explanation}{trials_text}."),
        }
    }

    /// One run alone: the MDE of a paired comparison against a rerun of the same design
    /// (same tasks, same trials per task), from the run's own within-task variance.
    pub fn for_run(counts: &[(u32, u32)]) -> Mde {
        let scored: Vec<(u32, u32)> = counts.iter().copied().filter(|(n, _)| *n > 0).collect();
        let m = scored.len();
        let pbar = scored
            .iter()
            .map(|(n, c)| f64::from(*c) / f64::from(*n))
            .sum::<f64>()
            / m.max(1) as f64;
        let nbar = scored.iter().map(|(n, _)| f64::from(*n)).sum::<f64>() / m.max(1) as f64;
        let (v, source) = match within_task_variance(&scored) {
            Some((v, _)) if v > 0.0 => (
                v,
                "from this run's within-task variance, for a rerun of the same design".to_owned(),
            ),
            Some(_) => (
                planning_variance(pbar),
                "planning value p̄(1−p̄): no task's verdict varied across its trials".to_owned(),
            ),
            None => (
                planning_variance(pbar),
                "planning value p̄(1−p̄): one trial per task shows no within-task variance"
                    .to_owned(),
            ),
        };
        let sd = (2.0 * v / nbar.max(1.0)).sqrt();
        Mde::build(sd, source, m, v, 0.0)
    }

    /// Two runs compared: sd from the observed per-task differences; `sides` are the paired
    /// tasks' (baseline, candidate) counts, for the per-trial variance and the planning value.
    pub fn for_comparison(diffs_sd: Option<f64>, sides: &[(Counts, Counts)]) -> Mde {
        let m = sides.len();
        let all: Vec<(u32, u32)> = sides.iter().flat_map(|(b, c)| [*b, *c]).collect();
        let nbar = all.iter().map(|(n, _)| f64::from(*n)).sum::<f64>() / all.len().max(1) as f64;
        let pbar = all
            .iter()
            .map(|(n, c)| f64::from(*c) / f64::from((*n).max(1)))
            .sum::<f64>()
            / all.len().max(1) as f64;
        let v = match within_task_variance(&all) {
            Some((v, _)) if v > 0.0 => v,
            _ => planning_variance(pbar),
        };
        let noise = 2.0 * v / nbar.max(1.0);
        match diffs_sd {
            Some(sd) if sd > 0.0 => Mde::build(
                sd,
                "observed per-task differences".to_owned(),
                m,
                v,
                (sd * sd - noise).max(0.0),
            ),
            _ => Mde::build(
                noise.sqrt(),
                "planning value: the observed differences have no spread".to_owned(),
                m,
                v,
                0.0,
            ),
        }
    }

    /// The value as the pages print it: points, or "none" when nothing can be detected.
    pub fn shown(&self) -> String {
        match self.value {
            Some(v) if self.detectable => format!("{:.1}%", v * 100.0),
            _ => "none".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_28_tasks_at_5_trials_uses_its_within_task_variance() {
        // 14 tasks at 5/5, 14 at 2/5: v̄ = (0 + 0.24·5/4)/2 = 0.15, s_d = √(2·0.15/5) = √0.06.
        let counts: Vec<(u32, u32)> = (0..28).map(|i| (5, if i < 14 { 5 } else { 2 })).collect();
        let m = Mde::for_run(&counts);
        assert!((m.sd - 0.06f64.sqrt()).abs() < 1e-12, "{m:?}");
        // (2.051830516 + 0.855137231)·√0.06/√28 = 0.134564...
        let want = (2.051_830_516_480_285 + 0.855_137_230_694_282) * 0.06f64.sqrt() / 28f64.sqrt();
        assert!((m.value.unwrap() - want).abs() < 1e-9, "{m:?}");
        assert!(m.detectable);
        // n ≥ 2·0.15·(2.906968·/(0.1·√28))² = 0.3·(1.0987)²·… → 9 trials.
        let t = 2.051_830_516_480_285 + 0.855_137_230_694_282;
        let n = (2.0 * 0.15 / (0.1 * 28f64.sqrt() / t).powi(2)).ceil() as u32;
        assert_eq!(m.trials_for_10_points, Some(n));
        assert!(
            m.explanation.contains("within-task variance"),
            "{}",
            m.explanation
        );
        assert!(
            m.explanation.contains(&format!("{n} trial(s) per task")),
            "{}",
            m.explanation
        );
    }

    #[test]
    fn three_tasks_say_in_words_that_nothing_can_be_detected() {
        let m = Mde::for_run(&[(1, 1), (1, 0), (1, 1)]);
        assert!(!m.detectable, "{m:?}");
        assert_eq!(m.shown(), "none");
        assert!(
            m.explanation
                .starts_with("with 3 tasks no difference can be detected at α 0.05, power 0.8"),
            "{}",
            m.explanation
        );
        assert!(
            m.explanation.contains("planning value"),
            "{}",
            m.explanation
        );
        assert!(!Mde::for_run(&[(2, 1)]).detectable);
    }

    #[test]
    fn a_comparison_uses_the_observed_sd_and_says_when_trials_cannot_help() {
        let sides: Vec<_> = (0..28).map(|_| ((5, 3), (5, 3))).collect();
        let m = Mde::for_comparison(Some(0.3), &sides);
        let t = 2.051_830_516_480_285 + 0.855_137_230_694_282;
        assert!((m.value.unwrap() - t * 0.3 / 28f64.sqrt()).abs() < 1e-9);
        assert_eq!(m.sd_source, "observed per-task differences");
        // A spread of 0.6 between tasks cannot be averaged away by trials.
        let m = Mde::for_comparison(Some(0.6), &sides);
        assert_eq!(m.trials_for_10_points, None);
        assert!(
            m.explanation.contains("more tasks are needed"),
            "{}",
            m.explanation
        );
        // No spread: planning value from the trials' variance.
        let m = Mde::for_comparison(Some(0.0), &sides);
        assert!(m.sd_source.starts_with("planning value"), "{m:?}");
        assert!(m.sd > 0.0);
    }
}
