//! The judges' verdicts on one run, summarised by task.
//!
//! A vetoed trial is not left out: leaving it out would keep only the survivors, so an
//! agent whose worst work gets vetoed would score higher the more it is vetoed. It counts
//! at [`VETO_SCORE`], the lowest score a rubric can give, and the veto rate is shown beside
//! the mean. The mean is over tasks (each task's mean over its judged trials), with a
//! percentile bootstrap over tasks, like every other figure: trials of one task are not
//! independent evidence.

use crate::run::Run;
use crate::stats::{self, Interval};
use nab_protocol::{JudgeRecord, TrialRecord, TrialStatus};
use serde::{Deserialize, Serialize};

/// A vetoed trial's score in the mean: a rubric's weighted score lies on the 1–5 scale,
/// so 1 is the lowest any trial can get.
pub const VETO_SCORE: f64 = 1.0;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeSummary {
    pub judged_trials: usize,
    /// Mean over tasks of each task's mean trial score; a trial's score is the mean of its
    /// judges' weighted scores (several judges combined per trial first), or [`VETO_SCORE`]
    /// when any judge vetoed it.
    pub mean_score: Option<f64>,
    /// 95% percentile bootstrap over tasks (seeded; within the 1–5 scale).
    #[serde(default)]
    pub interval: Option<Interval>,
    /// Tasks that entered `mean_score`.
    #[serde(default)]
    pub tasks: usize,
    /// Trials that entered `mean_score` (vetoed ones included).
    #[serde(default)]
    pub scored_trials: usize,
    pub vetoed_trials: usize,
    /// vetoed_trials / scored_trials, shown beside the mean.
    #[serde(default)]
    pub veto_rate: Option<f64>,
    /// The same mean over trials no judge vetoed (the survivors alone, for comparison with
    /// older reports); never the headline.
    #[serde(default)]
    pub mean_without_vetoed: Option<f64>,
    pub gate_failed_trials: usize,
    pub judge_errors: usize,
    /// What the judges' calls cost (sum of each judge record's `cost_usd`); absent when
    /// none was priced.
    #[serde(default)]
    pub cost_usd: Option<f64>,
    /// The score over the trials the hidden tests passed, and over those they failed: a
    /// judge that scores failures as high as passes is not telling the work apart.
    #[serde(default)]
    pub by_verdict: Vec<VerdictScore>,
}

/// The judges' score over the trials of one verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictScore {
    /// `passed` or `failed` (errors are not judged).
    pub verdict: String,
    /// Trials of this verdict with a score (vetoed ones included).
    pub trials: usize,
    /// Tasks with such a trial.
    pub tasks: usize,
    /// Mean over those tasks of each task's mean trial score, as `mean_score`.
    pub mean_score: Option<f64>,
    pub vetoed_trials: usize,
}

/// [`VerdictScore`] for each verdict that has a scored trial.
fn by_verdict(run: &Run) -> Vec<VerdictScore> {
    [
        (TrialStatus::Passed, "passed"),
        (TrialStatus::Failed, "failed"),
    ]
    .into_iter()
    .filter_map(|(status, word)| {
        let of = |r: &TrialRecord| r.outcome.status == status;
        let per_task = by_task(run, |r| of(r).then(|| trial_score(&r.judges)).flatten());
        let scored: Vec<&TrialRecord> = run
            .records
            .iter()
            .filter(|r| of(r) && trial_score(&r.judges).is_some())
            .collect();
        (!scored.is_empty()).then(|| VerdictScore {
            verdict: word.to_owned(),
            trials: scored.len(),
            tasks: per_task.len(),
            mean_score: mean(&per_task),
            vetoed_trials: scored
                .iter()
                .filter(|r| r.judges.iter().any(|j| j.vetoed))
                .count(),
        })
    })
    .collect()
}

/// A trial's score: [`VETO_SCORE`] if any judge vetoed it, else the mean of its judges'
/// weighted scores; `None` when no judge gave a score (judge errors).
pub fn trial_score(judges: &[JudgeRecord]) -> Option<f64> {
    if judges.iter().any(|j| j.vetoed) {
        return Some(VETO_SCORE);
    }
    let s: Vec<f64> = judges.iter().filter_map(|j| j.weighted_score).collect();
    (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64)
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Per task, the mean of `f` over its trials that have a value.
fn by_task(run: &Run, f: impl Fn(&TrialRecord) -> Option<f64>) -> Vec<f64> {
    run.tasks
        .iter()
        .filter_map(|t| {
            let v: Vec<f64> = t
                .trial_indexes
                .iter()
                .filter_map(|&i| f(&run.records[i]))
                .collect();
            mean(&v)
        })
        .collect()
}

pub fn summarize(run: &Run) -> Option<JudgeSummary> {
    let judged: Vec<&TrialRecord> = run
        .records
        .iter()
        .filter(|r| !r.judges.is_empty())
        .collect();
    if judged.is_empty() {
        return None;
    }
    let per_task = by_task(run, |r| trial_score(&r.judges));
    let scored_trials = judged
        .iter()
        .filter(|r| trial_score(&r.judges).is_some())
        .count();
    let vetoed_trials = judged
        .iter()
        .filter(|r| r.judges.iter().any(|j| j.vetoed))
        .count();
    let survivors = by_task(run, |r| {
        (!r.judges.iter().any(|j| j.vetoed))
            .then(|| trial_score(&r.judges))
            .flatten()
    });
    let costs: Vec<f64> = judged
        .iter()
        .flat_map(|r| r.judges.iter().filter_map(|j| j.cost_usd))
        .collect();
    Some(JudgeSummary {
        judged_trials: judged.len(),
        mean_score: mean(&per_task),
        interval: stats::paired_bootstrap(
            &per_task,
            stats::bootstrap::RESAMPLES,
            0.95,
            stats::bootstrap::DEFAULT_SEED,
        )
        .map(|b| b.interval),
        tasks: per_task.len(),
        scored_trials,
        vetoed_trials,
        veto_rate: (scored_trials > 0).then(|| vetoed_trials as f64 / scored_trials as f64),
        mean_without_vetoed: mean(&survivors),
        gate_failed_trials: judged
            .iter()
            .filter(|r| r.judges.iter().any(|j| j.gate_passed == Some(false)))
            .count(),
        judge_errors: judged
            .iter()
            .map(|r| r.judges.iter().filter(|j| j.error.is_some()).count())
            .sum(),
        cost_usd: (!costs.is_empty()).then(|| costs.iter().sum()),
        by_verdict: by_verdict(run),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::RunMeta;
    use std::path::Path;

    fn judge(score: f64, vetoed: bool) -> JudgeRecord {
        serde_json::from_value(serde_json::json!({
            "judge_model": "j", "rubric_id": "r", "rubric_hash": "h", "prompt_hash": "p",
            "weighted_score": score, "vetoed": vetoed, "cost_usd": 0.002
        }))
        .unwrap()
    }

    fn run(judges: Vec<(&str, Vec<JudgeRecord>)>) -> Run {
        let recs = judges
            .into_iter()
            .enumerate()
            .map(|(i, (task, j))| {
                let mut r = TrialRecord::new("r", task, "c", i as u32, "a");
                r.judges = j;
                r
            })
            .collect();
        Run::from_records(Path::new("r"), RunMeta::default(), recs, false)
    }

    #[test]
    fn a_vetoed_trial_counts_at_the_lowest_score_and_the_mean_is_over_tasks() {
        // Task a: two judges (2, 4) → 3, and a vetoed 5 → 1: task mean 2. Task b: 4.
        let r = run(vec![
            ("a", vec![judge(2.0, false), judge(4.0, false)]),
            ("a", vec![judge(5.0, true)]),
            ("b", vec![judge(4.0, false)]),
        ]);
        let s = summarize(&r).unwrap();
        assert_eq!(s.mean_score, Some(3.0));
        assert_eq!((s.scored_trials, s.vetoed_trials, s.tasks), (3, 1, 2));
        assert_eq!(s.veto_rate, Some(1.0 / 3.0));
        // The survivors alone would read 3.5: a veto must never raise the mean.
        assert_eq!(s.mean_without_vetoed, Some(3.5));
        let i = s.interval.unwrap();
        assert!(
            i.low >= 1.0 && i.high <= 5.0 && i.low <= 3.0 && 3.0 <= i.high,
            "{i:?}"
        );
        assert!((s.cost_usd.unwrap() - 0.008).abs() < 1e-12);
    }

    #[test]
    fn scores_are_split_by_the_hidden_tests_verdict() {
        let mut r = run(vec![
            ("a", vec![judge(5.0, false)]),
            ("a", vec![judge(3.0, false)]),
            ("b", vec![judge(4.0, true)]),
            ("b", vec![judge(2.0, false)]),
        ]);
        let statuses = [
            TrialStatus::Passed,
            TrialStatus::Passed,
            TrialStatus::Failed,
            TrialStatus::Failed,
        ];
        for (rec, st) in r.records.iter_mut().zip(statuses) {
            rec.outcome.status = st;
        }
        let r = Run::from_records(Path::new("r"), RunMeta::default(), r.records, false);
        let s = summarize(&r).unwrap();
        let [passed, failed] = &s.by_verdict[..] else {
            panic!("{:?}", s.by_verdict)
        };
        assert_eq!(
            (passed.verdict.as_str(), passed.trials, passed.tasks),
            ("passed", 2, 1)
        );
        assert_eq!(passed.mean_score, Some(4.0));
        assert_eq!(
            (failed.verdict.as_str(), failed.trials, failed.vetoed_trials),
            ("failed", 2, 1)
        );
        assert_eq!(failed.mean_score, Some(1.5), "the veto counts as 1");
    }

    #[test]
    fn more_vetoes_never_raise_the_mean() {
        let clean = run(vec![
            ("a", vec![judge(2.0, false)]),
            ("b", vec![judge(5.0, false)]),
        ]);
        let vetoed = run(vec![
            ("a", vec![judge(2.0, true)]),
            ("b", vec![judge(5.0, false)]),
        ]);
        let (c, v) = (summarize(&clean).unwrap(), summarize(&vetoed).unwrap());
        assert!(v.mean_score.unwrap() < c.mean_score.unwrap());
    }
}
