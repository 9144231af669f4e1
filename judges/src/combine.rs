//! Several judges on the same trials: the median combination of their verdicts, and how
//! well they agree with each other per dimension (quadratic-weighted kappa per judge pair).

use crate::grade::is_scored;
use crate::kappa::{percent_agreement, quadratic_weighted_kappa};
use crate::rubric::Rubric;
use crate::score::score;
use nab_protocol::JudgeRecord;
use serde::Serialize;
use std::collections::BTreeMap;

/// The median verdict of several judges on one trial.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Combined {
    /// Judges whose answers validated.
    pub used: Vec<String>,
    /// Judges that gave no usable verdict (judge or model error).
    pub failed: Vec<String>,
    /// Median score per dimension (the mean of the middle two for an even count).
    pub medians: BTreeMap<String, f64>,
    pub weighted_score: Option<f64>,
    /// Vetoes that at least half of the judges marked violated (ties err on the side of
    /// the veto: a veto names something a reviewer must look at).
    pub violated: Vec<String>,
    pub gate_passed: Option<bool>,
}

pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// Combines the records of one trial (records for another rubric are ignored).
pub fn combine(rubric: &Rubric, records: &[JudgeRecord]) -> Combined {
    let (ok, bad): (Vec<&JudgeRecord>, Vec<&JudgeRecord>) = records
        .iter()
        .filter(|r| r.rubric_id == rubric.id)
        .partition(|r| is_scored(r));
    let mut medians = BTreeMap::new();
    for d in &rubric.dimensions {
        let mut v: Vec<f64> = ok
            .iter()
            .filter_map(|r| r.scores.iter().find(|s| s.dimension == d.id))
            .map(|s| f64::from(s.score))
            .collect();
        if let Some(m) = median(&mut v) {
            medians.insert(d.id.clone(), m);
        }
    }
    let violated: Vec<String> = rubric
        .vetoes
        .iter()
        .filter(|v| {
            let yes = ok
                .iter()
                .filter(|r| r.vetoes.iter().any(|x| x.id == v.id && x.violated))
                .count();
            !ok.is_empty() && 2 * yes >= ok.len()
        })
        .map(|v| v.id.clone())
        .collect();
    let complete = !ok.is_empty() && medians.len() == rubric.dimensions.len();
    let scored = complete.then(|| score(rubric, &medians, &violated));
    Combined {
        used: ok.iter().map(|r| r.judge_model.clone()).collect(),
        failed: bad.iter().map(|r| r.judge_model.clone()).collect(),
        medians,
        weighted_score: scored.as_ref().map(|s| s.weighted_score),
        violated,
        gate_passed: scored.map(|s| s.gate_passed),
    }
}

/// Agreement of two judges on one dimension across trials both scored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DimensionAgreement {
    pub dimension: String,
    pub judge_a: String,
    pub judge_b: String,
    pub n: usize,
    pub percent_agreement: Option<f64>,
    /// Quadratic-weighted kappa; None when undefined (both judges constant).
    pub kappa: Option<f64>,
}

/// Per-dimension, per-judge-pair agreement over trials. `trials[i]` holds the records of
/// trial i (one per judge).
pub fn judge_agreement(rubric: &Rubric, trials: &[Vec<JudgeRecord>]) -> Vec<DimensionAgreement> {
    let mut judges: Vec<String> = trials
        .iter()
        .flatten()
        .filter(|r| r.rubric_id == rubric.id)
        .map(|r| r.judge_model.clone())
        .collect();
    judges.sort();
    judges.dedup();
    let score_of = |records: &[JudgeRecord], judge: &str, dim: &str| -> Option<u8> {
        records
            .iter()
            .find(|r| r.judge_model == judge && r.rubric_id == rubric.id && is_scored(r))?
            .scores
            .iter()
            .find(|s| s.dimension == dim)
            .map(|s| s.score)
    };
    let mut out = Vec::new();
    for d in &rubric.dimensions {
        for (i, a) in judges.iter().enumerate() {
            for b in &judges[i + 1..] {
                let pairs: Vec<(u8, u8)> = trials
                    .iter()
                    .filter_map(|t| Some((score_of(t, a, &d.id)?, score_of(t, b, &d.id)?)))
                    .collect();
                out.push(DimensionAgreement {
                    dimension: d.id.clone(),
                    judge_a: a.clone(),
                    judge_b: b.clone(),
                    n: pairs.len(),
                    percent_agreement: percent_agreement(&pairs),
                    kappa: quadratic_weighted_kappa(&pairs, 1, 5),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::{DimensionScore, VetoVerdict};

    fn rec(judge: &str, r: &Rubric, scores: [u8; 3], veto: bool) -> JudgeRecord {
        JudgeRecord {
            judge_model: judge.into(),
            rubric_id: r.id.clone(),
            rubric_hash: r.hash.clone(),
            prompt_hash: "h".into(),
            weighted_score: Some(0.0),
            scores: r
                .dimensions
                .iter()
                .zip(scores)
                .map(|(d, s)| DimensionScore {
                    dimension: d.id.clone(),
                    score: s,
                    evidence: "e".into(),
                })
                .collect(),
            vetoes: r
                .vetoes
                .iter()
                .map(|v| VetoVerdict {
                    id: v.id.clone(),
                    violated: veto && v.id == "tests_tampered",
                    evidence: "e".into(),
                })
                .collect(),
            vetoed: veto,
            gate_passed: Some(true),
            error: None,
            retries: 0,
            raw_output: String::new(),
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: None,
        }
    }

    #[test]
    fn median_of_three_judges_and_errors_are_left_out() {
        let r = Rubric::default_code_quality();
        let mut broken = rec("d", &r, [1, 1, 1], true);
        broken.error = Some("judge_error: x".into());
        broken.weighted_score = None;
        let c = combine(
            &r,
            &[
                rec("a", &r, [5, 2, 4], false),
                rec("b", &r, [3, 4, 4], true),
                rec("c", &r, [4, 3, 1], false),
                broken,
            ],
        );
        assert_eq!(c.used, vec!["a", "b", "c"]);
        assert_eq!(c.failed, vec!["d"]);
        assert_eq!(c.medians["readability"], 4.0);
        assert_eq!(c.medians["error_handling"], 3.0);
        assert_eq!(c.medians["minimal_change"], 4.0);
        // Equal weights: (4 + 3 + 4) / 3.
        assert!((c.weighted_score.unwrap() - 11.0 / 3.0).abs() < 1e-9);
        // One of three said tests_tampered: not a majority.
        assert!(
            c.violated.is_empty() && c.gate_passed == Some(true),
            "{c:?}"
        );
        // Two judges, one veto each way: half → violated.
        let two = combine(
            &r,
            &[
                rec("a", &r, [5, 2, 4], false),
                rec("b", &r, [3, 4, 4], true),
            ],
        );
        assert_eq!(two.violated, vec!["tests_tampered"]);
        assert_eq!(two.medians["readability"], 4.0);
        assert_eq!(two.gate_passed, Some(false));
    }

    #[test]
    fn agreement_between_two_judges_per_dimension() {
        let r = Rubric::default_code_quality();
        // Readability: a = 1..5, b = 1,2,3,4,4 → κ_w = 16/17 (see kappa tests).
        let trials: Vec<Vec<JudgeRecord>> = (1..=5u8)
            .map(|s| {
                vec![
                    rec("a", &r, [s, 3, 3], false),
                    rec("b", &r, [s.min(4), 3, 3], false),
                ]
            })
            .collect();
        let ag = judge_agreement(&r, &trials);
        let read = ag.iter().find(|a| a.dimension == "readability").unwrap();
        assert_eq!(
            (read.n, read.judge_a.as_str(), read.judge_b.as_str()),
            (5, "a", "b")
        );
        assert!((read.kappa.unwrap() - 16.0 / 17.0).abs() < 1e-12);
        // Both always 3 on error_handling: undefined, with full percent agreement.
        let eh = ag.iter().find(|a| a.dimension == "error_handling").unwrap();
        assert_eq!((eh.kappa, eh.percent_agreement), (None, Some(1.0)));
    }
}
