//! A pairwise verdict: `{"winner":"A"|"B"|"tie","evidence":"…"}`.

use super::envelope::{json_body, typed};
use super::{Rejection, check_evidence};
use serde::{Deserialize, Serialize};

/// The side of the prompt a judge (or a reviewer) picked; [`crate::pairwise::map_back`] turns
/// it into the run it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    A,
    B,
    #[serde(rename = "tie")]
    Tie,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairwiseAnswer {
    pub winner: Side,
    pub evidence: String,
}

pub fn parse_pairwise(raw: &str) -> Result<PairwiseAnswer, Rejection> {
    let body = json_body(raw)?;
    let answer: PairwiseAnswer = typed(body)?;
    check_evidence(&answer.evidence, "winner")?;
    Ok(answer)
}
