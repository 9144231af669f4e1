//! Pairwise judge results summarised by task, the unit of analysis.
//!
//! Each judged (task, trial) pair scores the candidate 1 (preferred), 0 (baseline preferred)
//! or ½ (a tie, or the two position-swapped orders disagreed). A task's preference is the
//! mean over its trials; the run-level preference is the mean over tasks with a 95%
//! interval from the exact sign-flip test of (preference − ½) over tasks (within [0, 1]),
//! so trials of one task are not counted as independent evidence.
//! 0.5 means no preference. Each judge is summarised on its own; the combined figure
//! averages the judges per (task, trial) first. Swap-consistency is each judge's share of
//! pairs whose two orders agreed; agreement is how often two judges gave the same verdict
//! on the same pair (with Cohen's κ when there are exactly two judges).

use crate::stats::{Draws, Interval, sign_flip};
use nab_protocol::{PairwiseVerdict, Winner};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize)]
pub struct Preference {
    /// Tasks with at least one judged pair.
    pub tasks: usize,
    pub pairs: usize,
    /// Mean over tasks of the per-task preference for the candidate (0.5 = none).
    pub mean: f64,
    /// 95% interval over tasks (the sign-flip test of preference − ½ inverted, within
    /// [0, 1]); `None` without tasks.
    pub interval: Option<Interval>,
    /// Two-sided p of "no preference" (every task's preference as likely above ½ as below).
    #[serde(default)]
    pub p_value: Option<f64>,
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
    /// Chance-corrected agreement over baseline/candidate/tie: Cohen's κ when exactly two
    /// judges read the items; Fleiss' κ over the items every judge read when three or more
    /// did. None when undefined (every verdict the same) or when no item was read by all.
    pub kappa: Option<f64>,
    /// Which κ `kappa` is: `"cohen"` or `"fleiss"`.
    pub kappa_method: Option<&'static str>,
    /// Items the κ is computed over.
    pub kappa_items: usize,
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
    let centred: Vec<f64> = per_task.iter().map(|p| p - 0.5).collect();
    let test = sign_flip(
        &centred,
        0.95,
        Interval {
            low: -0.5,
            high: 0.5,
        },
        Draws::default(),
    );
    Preference {
        tasks: per_task.len(),
        pairs,
        mean,
        interval: test.map(|t| Interval {
            low: t.interval.low + 0.5,
            high: t.interval.high + 0.5,
        }),
        p_value: test.map(|t| t.p_two_sided),
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
            JudgePreference {
                judge,
                preference: per_pair_then_task(&mine),
            }
        })
        .collect()
}

/// Every judge combined: per (task, trial) the mean of the judges' scores, then by task.
pub fn combined(records: &[PairwiseVerdict]) -> Option<Preference> {
    if records.is_empty() {
        return None;
    }
    Some(per_pair_then_task(&records.iter().collect::<Vec<_>>()))
}

/// The preference over these verdicts: per (task, trial) the mean of its scores, then by
/// task ([`over_tasks`]).
fn per_pair_then_task(records: &[&PairwiseVerdict]) -> Preference {
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
    over_tasks(&items, records.len(), consistent)
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
    // Fleiss' κ needs the same raters on every item: the items every judge read.
    let counts: Vec<[usize; 3]> = shared
        .iter()
        .filter(|j| j.len() == judges.len())
        .map(|j| {
            let mut c = [0usize; 3];
            for w in j.values() {
                if let Some(i) = Winner::ALL.iter().position(|x| x == w) {
                    c[i] += 1;
                }
            }
            c
        })
        .collect();
    let (kappa, kappa_method) = match judges.len() {
        2 => {
            // Judge by judge (the maps are ordered by name): Cohen's κ keeps each judge's
            // own marginals.
            let pairs: Vec<(usize, usize)> = shared
                .iter()
                .filter_map(|j| {
                    let mut v = j
                        .values()
                        .filter_map(|w| Winner::ALL.iter().position(|x| x == w));
                    Some((v.next()?, v.next()?))
                })
                .collect();
            (cohen_kappa(&pairs), Some("cohen"))
        }
        n if n >= 3 => (fleiss_kappa(&counts, n), Some("fleiss")),
        _ => (None, None),
    };
    Some(Agreement {
        items: shared.len(),
        rate: agree as f64 / total as f64,
        kappa,
        kappa_method,
        kappa_items: counts.len(),
    })
}

/// Cohen's κ for two raters over category indices (first rater, second rater).
fn cohen_kappa(pairs: &[(usize, usize)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let (mut first, mut second) = ([0.0; 3], [0.0; 3]);
    let mut observed = 0.0;
    for &(a, b) in pairs {
        first[a] += 1.0 / n;
        second[b] += 1.0 / n;
        observed += f64::from(u8::from(a == b)) / n;
    }
    let expected: f64 = (0..3).map(|k| first[k] * second[k]).sum();
    (expected < 1.0 - 1e-12).then(|| (observed - expected) / (1.0 - expected))
}

/// Fleiss' κ for `raters` ratings per item: observed agreement among all rater pairs
/// against the agreement the pooled category shares would give by chance.
fn fleiss_kappa(items: &[[usize; 3]], raters: usize) -> Option<f64> {
    if items.is_empty() || raters < 2 {
        return None;
    }
    let (n_items, n) = (items.len() as f64, raters as f64);
    let mut share = [0.0; 3];
    let mut observed = 0.0;
    for c in items {
        let same: f64 = c.iter().map(|&k| (k * k) as f64).sum();
        observed += (same - n) / (n * (n - 1.0)) / n_items;
        for k in 0..3 {
            share[k] += c[k] as f64 / (n_items * n);
        }
    }
    let expected: f64 = share.iter().map(|p| p * p).sum();
    (expected < 1.0 - 1e-12).then(|| (observed - expected) / (1.0 - expected))
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
        // Centred task values [½, −½, 0]: three tasks cannot reach 2.5% on a side, so the
        // interval is the whole scale and "no preference" has p = 1 (the t-interval this
        // replaced reached past 1).
        let i = p.interval.unwrap();
        assert_eq!((i.low, i.high), (0.0, 1.0), "{i:?}");
        assert_eq!(p.p_value, Some(1.0));
        // Eight tasks all for the candidate: p = 2·2⁻⁸, and the interval stays within [0, 1].
        let all: Vec<PairwiseVerdict> = (0..8)
            .map(|t| rec(&format!("u{t}"), 0, "candidate", true, "a"))
            .collect();
        let p = &per_judge(&all)[0].preference;
        assert!((p.p_value.unwrap() - 2.0 / 256.0).abs() < 1e-15, "{p:?}");
        assert_eq!(
            p.interval,
            Some(Interval {
                low: 1.0,
                high: 1.0
            })
        );

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
        assert_eq!((a.kappa_method, a.kappa_items), (Some("cohen"), 3));
        assert!(agreement(&r[..1]).is_none());
    }

    #[test]
    fn cohen_kappa_for_two_judges_matches_the_hand_computed_value() {
        // a: C C B T, b: C B B T. p_o = 3/4; marginals a (B,C,T) = (1/4, 1/2, 1/4),
        // b = (1/2, 1/4, 1/4): p_e = 1/8 + 1/8 + 1/16 = 5/16; κ = (12/16 − 5/16)/(11/16) = 7/11.
        // (Which judge gave which verdict matters: swapping t2's two verdicts between the
        // judges' marginals would change p_e — see the t6 check below.)
        let mut r = Vec::new();
        for (t, wa, wb) in [
            ("t1", "candidate", "candidate"),
            ("t2", "candidate", "baseline"),
            ("t3", "baseline", "baseline"),
            ("t4", "tie", "tie"),
        ] {
            r.push(rec(t, 0, wa, true, "a"));
            r.push(rec(t, 0, wb, true, "b"));
        }
        let a = agreement(&r).unwrap();
        assert!((a.kappa.unwrap() - 7.0 / 11.0).abs() < 1e-12, "{a:?}");
    }

    #[test]
    fn three_judges_get_fleiss_kappa_over_the_items_all_of_them_read() {
        // Per item (baseline, candidate, tie) counts over 3 judges:
        // [0,3,0], [3,0,0], [0,2,1], [1,1,1]. Shares 4/12, 6/12, 2/12: P_e = 7/18.
        // P_i = 1, 1, 1/3, 0: P̄ = 7/12. κ = (7/12 − 7/18)/(1 − 7/18) = 7/22.
        let mut r = Vec::new();
        for (t, ws) in [
            ("t1", ["candidate", "candidate", "candidate"]),
            ("t2", ["baseline", "baseline", "baseline"]),
            ("t3", ["candidate", "candidate", "tie"]),
            ("t4", ["baseline", "candidate", "tie"]),
        ] {
            for (w, judge) in ws.iter().zip(["a", "b", "c"]) {
                r.push(rec(t, 0, w, true, judge));
            }
        }
        // An item only two of the three judges read is left out of κ (not of the rate).
        r.push(rec("t5", 0, "tie", true, "a"));
        r.push(rec("t5", 0, "baseline", true, "b"));
        let a = agreement(&r).unwrap();
        assert_eq!(
            (a.kappa_method, a.kappa_items, a.items),
            (Some("fleiss"), 4, 5)
        );
        assert!((a.kappa.unwrap() - 7.0 / 22.0).abs() < 1e-12, "{a:?}");

        // Unanimous on every item and always the same verdict: κ is undefined, not 1.
        let same: Vec<PairwiseVerdict> = ["a", "b", "c"]
            .iter()
            .map(|j| rec("t1", 0, "tie", true, j))
            .collect();
        assert_eq!(agreement(&same).unwrap().kappa, None);
    }
}
