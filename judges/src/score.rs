//! Scores, vetoes and gates, computed in Rust from a validated answer (never by the model).

use crate::rubric::Rubric;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Σ weightᵢ·scoreᵢ with normalised weights: on the 1–5 scale.
    pub weighted_score: f64,
    pub vetoed: bool,
    /// False when vetoed, below `min_weighted_score`, or below a `min_dimension`.
    pub gate_passed: bool,
    /// Why the gate failed, one line per reason.
    pub gate_failures: Vec<String>,
}

/// Scores per dimension id (integers from one judge, or medians of several) → the verdict.
/// Every rubric dimension must be present; callers pass validated answers only.
pub fn score(
    rubric: &Rubric,
    scores: &BTreeMap<String, f64>,
    violated_vetoes: &[String],
) -> Scored {
    let weighted_score: f64 = rubric
        .dimensions
        .iter()
        .map(|d| d.weight * scores.get(&d.id).copied().unwrap_or(0.0))
        .sum();
    // Rounded to remove float noise (e.g. 3.0000000000000004) from stored results.
    let weighted_score = (weighted_score * 1e9).round() / 1e9;
    let mut gate_failures: Vec<String> = violated_vetoes
        .iter()
        .map(|v| format!("veto `{v}` violated"))
        .collect();
    if let Some(min) = rubric.gates.min_weighted_score
        && weighted_score < min
    {
        gate_failures.push(format!("weighted score {weighted_score:.2} < {min}"));
    }
    for (dim, min) in &rubric.gates.min_dimension {
        let got = scores.get(dim).copied().unwrap_or(0.0);
        if got < f64::from(*min) {
            gate_failures.push(format!("{dim} {got} < {min}"));
        }
    }
    Scored {
        weighted_score,
        vetoed: !violated_vetoes.is_empty(),
        gate_passed: gate_failures.is_empty(),
        gate_failures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubric::Rubric;
    use std::path::Path;

    fn rubric() -> Rubric {
        Rubric::from_yaml(
            "id: r\ndimensions:\n- {id: a, weight: 3, description: d, anchors: {1: x, 3: y, 5: z}}\n- {id: b, weight: 1, description: d, anchors: {1: x, 3: y, 5: z}}\nvetoes: [{id: v, description: d}]\ngates: {min_weighted_score: 3.5, min_dimension: {b: 3}}\n",
            Path::new("r.yaml"),
        )
        .unwrap()
    }

    fn m(a: f64, b: f64) -> BTreeMap<String, f64> {
        BTreeMap::from([("a".to_owned(), a), ("b".to_owned(), b)])
    }

    #[test]
    fn weighted_score_uses_normalised_weights() {
        // 0.75·5 + 0.25·3 = 4.5
        let s = score(&rubric(), &m(5.0, 3.0), &[]);
        assert_eq!(s.weighted_score, 4.5);
        assert!(s.gate_passed && !s.vetoed, "{s:?}");
    }

    #[test]
    fn each_gate_and_the_veto_fail_the_gate_with_a_reason() {
        let low = score(&rubric(), &m(3.0, 3.0), &[]);
        assert!(
            !low.gate_passed && low.gate_failures[0].contains("weighted score 3.00 < 3.5"),
            "{low:?}"
        );
        let dim = score(&rubric(), &m(5.0, 2.0), &[]);
        assert_eq!(dim.weighted_score, 4.25);
        assert_eq!(dim.gate_failures, vec!["b 2 < 3".to_owned()]);
        let vetoed = score(&rubric(), &m(5.0, 5.0), &["v".to_owned()]);
        assert!(
            vetoed.vetoed && !vetoed.gate_passed && vetoed.weighted_score == 5.0,
            "{vetoed:?}"
        );
    }
}
