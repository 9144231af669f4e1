//! Pairwise judge results summarised by task, the unit of analysis.
//!
//! Each judged (task, trial) pair scores the candidate 1 (preferred), 0 (baseline preferred)
//! or ½ (a tie, or the two position-swapped orders disagreed). A task's preference is the
//! mean over its trials; the run-level preference is the mean over tasks with a 95%
//! t-interval over tasks, so trials of one task are not counted as independent evidence.
//! 0.5 means no preference. Each judge is summarised on its own; the combined figure
//! averages the judges per (task, trial) first. Swap-consistency is each judge's share of
//! pairs whose two orders agreed; agreement is how often two judges gave the same verdict
//! on the same pair (with Cohen's κ when there are exactly two judges).

use crate::stats::{Interval, paired_t_interval};
use nab_protocol::run::{PairwiseVerdict, Winner};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize)]
pub struct Preference {
    /// Tasks with at least one judged pair.
    pub tasks: usize,
    pub pairs: usize,
    /// Mean over tasks of the per-task preference for the candidate (0.5 = none).
    pub mean: f64,
    /// 95% t-interval over tasks; `None` with fewer than two tasks.
    pub interval: Option<Interval>,
    /// Share of pairs whose two position-swapped orders agreed.
    pub swap_consistency: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct JudgePreference {
    pub judge: String,
    #[serde(flatten)]
    pub preference: Preference,
}

#[derive(Debug, Clone, Serialize)]
pub struct Agreement {
    /// (task, trial) pairs read by at least two judges.
    pub items: usize,
    /// Share of judge pairs on the same item that gave the same verdict.
    pub rate: f64,
    /// Cohen's κ over baseline/candidate/tie, when exactly two judges read the items.
    pub kappa: Option<f64>,
}

fn score(r: &PairwiseVerdict) -> f64 {
    r.winner.candidate_score()
}

fn judge_of(r: &PairwiseVerdict) -> String {
    r.judge_model
        .clone()
        .unwrap_or_else(|| "(unnamed judge)".into())
}

/// Per-task preferences from per-(task, trial) scores, then the mean and interval over tasks.
fn over_tasks(items: &BTreeMap<(String, u32), f64>, pairs: usize, consistent: usize) -> Preference {
    let mut by_task: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for ((task, _), s) in items {
        by_task.entry(task.as_str()).or_default().push(*s);
    }
    let per_task: Vec<f64> = by_task
        .values()
        .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        .collect();
    let mean = per_task.iter().sum::<f64>() / per_task.len().max(1) as f64;
    Preference {
        tasks: per_task.len(),
        pairs,
        mean,
        interval: paired_t_interval(&per_task, 0.95).map(|t| t.interval),
        swap_consistency: consistent as f64 / pairs.max(1) as f64,
    }
}

/// Per judge, in order of first appearance.
pub fn per_judge(records: &[PairwiseVerdict]) -> Vec<JudgePreference> {
    let mut order: Vec<String> = Vec::new();
    for r in records {
        let j = judge_of(r);
        if !order.contains(&j) {
            order.push(j);
        }
    }
    order
        .into_iter()
        .map(|judge| {
            let mine: Vec<&PairwiseVerdict> =
                records.iter().filter(|r| judge_of(r) == judge).collect();
            // A judge that read one pair twice (two files merged) counts it once: the mean.
            let mut items: BTreeMap<(String, u32), Vec<f64>> = BTreeMap::new();
            for r in &mine {
                items
                    .entry((r.task_id.clone(), r.trial.unwrap_or(0)))
                    .or_default()
                    .push(score(r));
            }
            let items = items
                .into_iter()
                .map(|(k, v)| (k, v.iter().sum::<f64>() / v.len() as f64))
                .collect();
            let consistent = mine.iter().filter(|r| r.consistent).count();
            JudgePreference {
                judge,
                preference: over_tasks(&items, mine.len(), consistent),
            }
        })
        .collect()
}

/// Every judge combined: per (task, trial) the mean of the judges' scores, then by task.
pub fn combined(records: &[PairwiseVerdict]) -> Option<Preference> {
    if records.is_empty() {
        return None;
    }
    let mut items: BTreeMap<(String, u32), Vec<f64>> = BTreeMap::new();
    for r in records {
        items
            .entry((r.task_id.clone(), r.trial.unwrap_or(0)))
            .or_default()
            .push(score(r));
    }
    let items = items
        .into_iter()
        .map(|(k, v)| (k, v.iter().sum::<f64>() / v.len() as f64))
        .collect();
    let consistent = records.iter().filter(|r| r.consistent).count();
    Some(over_tasks(&items, records.len(), consistent))
}

/// Agreement between judges on the pairs several of them read.
pub fn agreement(records: &[PairwiseVerdict]) -> Option<Agreement> {
    let mut items: BTreeMap<(String, u32), BTreeMap<String, Winner>> = BTreeMap::new();
    for r in records {
        items
            .entry((r.task_id.clone(), r.trial.unwrap_or(0)))
            .or_default()
            .insert(judge_of(r), r.winner);
    }
    let shared: Vec<&BTreeMap<String, Winner>> = items.values().filter(|j| j.len() >= 2).collect();
    if shared.is_empty() {
        return None;
    }
    let (mut agree, mut total) = (0usize, 0usize);
    for j in &shared {
        let v: Vec<&Winner> = j.values().collect();
        for a in 0..v.len() {
            for b in a + 1..v.len() {
                total += 1;
                agree += usize::from(v[a] == v[b]);
            }
        }
    }
    let judges: std::collections::BTreeSet<&String> =
        shared.iter().flat_map(|j| j.keys()).collect();
    let kappa = (judges.len() == 2 && shared.iter().all(|j| j.len() == 2)).then(|| {
        let cats = Winner::ALL;
        let n = shared.len() as f64;
        let (mut m1, mut m2) = ([0.0; 3], [0.0; 3]);
        let mut po = 0.0;
        for j in &shared {
            let v: Vec<&Winner> = j.values().collect();
            let i = cats.iter().position(|c| c == v[0]).unwrap_or(2);
            let k = cats.iter().position(|c| c == v[1]).unwrap_or(2);
            m1[i] += 1.0 / n;
            m2[k] += 1.0 / n;
            po += f64::from(u8::from(i == k)) / n;
        }
        let pe: f64 = (0..3).map(|c| m1[c] * m2[c]).sum();
        if pe >= 1.0 {
            1.0
        } else {
            (po - pe) / (1.0 - pe)
        }
    });
    Some(Agreement {
        items: shared.len(),
        rate: agree as f64 / total as f64,
        kappa,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(task: &str, trial: u32, winner: &str, consistent: bool, judge: &str) -> PairwiseVerdict {
        PairwiseVerdict {
            task_id: task.into(),
            trial: Some(trial),
            winner: serde_json::from_value(serde_json::json!(winner)).unwrap(),
            consistent,
            judge_model: Some(judge.into()),
            reason: None,
            baseline_run: None,
            candidate_run: None,
        }
    }

    #[test]
    fn the_task_is_the_unit_and_judges_are_combined_per_pair_first() {
        // Judge a: task t1 has 4 trials all candidate, t2 one trial baseline, t3 one tie.
        // Per trial that would be 4 wins of 6 (0.75); per task it is (1 + 0 + 0.5)/3 = 0.5.
        let mut r: Vec<PairwiseVerdict> = (0..4)
            .map(|i| rec("t1", i, "candidate", true, "a"))
            .collect();
        r.push(rec("t2", 0, "baseline", true, "a"));
        r.push(rec("t3", 0, "tie", false, "a"));
        let j = per_judge(&r);
        assert_eq!(j.len(), 1);
        let p = &j[0].preference;
        assert!((p.mean - 0.5).abs() < 1e-12, "{p:?}");
        assert_eq!((p.tasks, p.pairs), (3, 6));
        assert!((p.swap_consistency - 5.0 / 6.0).abs() < 1e-12);
        // t-interval over the 3 task values [1, 0, 0.5]: sd 0.5, se 0.5/√3, t(.975,2) = 4.302653.
        let i = p.interval.unwrap();
        assert!(
            (i.high - (0.5 + 4.302_652_729_749 * 0.5 / 3f64.sqrt())).abs() < 1e-9,
            "{i:?}"
        );
        assert!(i.low < 0.5 && 0.5 < i.high);

        // A second judge disagrees on t2: combined t2 = (0 + 1)/2 = 0.5 for that pair.
        r.push(rec("t2", 0, "candidate", true, "b"));
        let c = combined(&r).unwrap();
        assert_eq!(c.tasks, 3);
        assert!((c.mean - (1.0 + 0.5 + 0.5) / 3.0).abs() < 1e-12, "{c:?}");
        let a = agreement(&r).unwrap();
        assert_eq!(a.items, 1);
        assert_eq!(a.rate, 0.0);
    }

    #[test]
    fn identical_verdicts_give_perfect_agreement_and_kappa() {
        let mut r = Vec::new();
        for (t, w) in [("t1", "candidate"), ("t2", "baseline"), ("t3", "tie")] {
            r.push(rec(t, 0, w, true, "a"));
            r.push(rec(t, 0, w, true, "b"));
        }
        let a = agreement(&r).unwrap();
        assert_eq!((a.items, a.rate), (3, 1.0));
        assert!((a.kappa.unwrap() - 1.0).abs() < 1e-12);
        assert!(agreement(&r[..1]).is_none());
    }
}
