//! A single-trial verdict: `{"scores":[…],"vetoes":[…]}` checked against the rubric.

use super::envelope::{json_body, typed};
use super::fields::{Score, StrictBool};
use super::{RejectKind, Rejection, check_evidence, check_visible};
use crate::rubric::Rubric;
use nab_protocol::{DimensionScore, VetoVerdict};
use serde::Deserialize;
use std::collections::BTreeSet;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnswer {
    scores: Vec<RawScore>,
    vetoes: Vec<RawVeto>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScore {
    dimension: String,
    score: Score,
    evidence: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVeto {
    id: String,
    violated: StrictBool,
    evidence: String,
}

/// A validated answer, in the rubric's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidAnswer {
    pub scores: Vec<DimensionScore>,
    pub vetoes: Vec<VetoVerdict>,
}

/// Parses a judge's answer to a single-trial prompt: every rubric dimension scored and
/// every veto answered exactly once, each with evidence.
pub fn parse_single(raw: &str, rubric: &Rubric) -> Result<ValidAnswer, Rejection> {
    let body = json_body(raw)?;
    let answer: RawAnswer = typed(body)?;

    let dims: Vec<&str> = rubric.dimensions.iter().map(|d| d.id.as_str()).collect();
    check_scores(&answer.scores, &dims)?;
    let ids: Vec<&str> = rubric.vetoes.iter().map(|v| v.id.as_str()).collect();
    check_vetoes(&answer.vetoes, &ids)?;

    let score_of = |id: &str| answer.scores.iter().find(|s| s.dimension == id);
    let veto_of = |id: &str| answer.vetoes.iter().find(|v| v.id == id);
    Ok(ValidAnswer {
        scores: dims
            .iter()
            .filter_map(|d| score_of(d))
            .map(|s| DimensionScore {
                dimension: s.dimension.clone(),
                score: s.score.0,
                evidence: s.evidence.trim().to_owned(),
            })
            .collect(),
        vetoes: ids
            .iter()
            .filter_map(|v| veto_of(v))
            .map(|v| VetoVerdict {
                id: v.id.clone(),
                violated: v.violated.0,
                evidence: v.evidence.trim().to_owned(),
            })
            .collect(),
    })
}

/// Each of the rubric's dimensions `dims` scored exactly once, with evidence.
fn check_scores(scores: &[RawScore], dims: &[&str]) -> Result<(), Rejection> {
    let mut seen = BTreeSet::new();
    for s in scores {
        check_visible(&s.dimension, "a dimension id")?;
        if !dims.contains(&s.dimension.as_str()) {
            return Err(Rejection::new(
                RejectKind::UnknownDimension,
                format!(
                    "unknown dimension `{}`; the rubric's dimensions are: {}",
                    s.dimension,
                    dims.join(", ")
                ),
            ));
        }
        if !seen.insert(s.dimension.as_str()) {
            return Err(Rejection::new(
                RejectKind::DuplicateDimension,
                format!(
                    "dimension `{}` is scored more than once; score each exactly once",
                    s.dimension
                ),
            ));
        }
        check_evidence(&s.evidence, &s.dimension)?;
    }
    let missing: Vec<&str> = dims.iter().copied().filter(|d| !seen.contains(d)).collect();
    if !missing.is_empty() {
        return Err(Rejection::new(
            RejectKind::MissingDimension,
            format!(
                "missing dimension(s): {}; score every dimension exactly once",
                missing.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Each of the rubric's vetoes `ids` answered exactly once, with evidence.
fn check_vetoes(vetoes: &[RawVeto], ids: &[&str]) -> Result<(), Rejection> {
    let mut seen = BTreeSet::new();
    for v in vetoes {
        check_visible(&v.id, "a veto id")?;
        if !ids.contains(&v.id.as_str()) {
            let known = if ids.is_empty() {
                "(none: answer an empty list)".to_owned()
            } else {
                ids.join(", ")
            };
            return Err(Rejection::new(
                RejectKind::UnknownVeto,
                format!("unknown veto `{}`; the rubric's vetoes are: {known}", v.id),
            ));
        }
        if !seen.insert(v.id.as_str()) {
            return Err(Rejection::new(
                RejectKind::DuplicateVeto,
                format!(
                    "veto `{}` is answered more than once; answer each exactly once",
                    v.id
                ),
            ));
        }
        check_evidence(&v.evidence, &v.id)?;
    }
    let missing: Vec<&str> = ids.iter().copied().filter(|d| !seen.contains(d)).collect();
    if !missing.is_empty() {
        return Err(Rejection::new(
            RejectKind::MissingVeto,
            format!(
                "missing veto(es): {}; answer every veto exactly once",
                missing.join(", ")
            ),
        ));
    }
    Ok(())
}
