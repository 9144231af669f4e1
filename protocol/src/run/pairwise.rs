//! A pairwise judge verdict on one (task, trial) of two runs, as `nab compare` reads it:
//! which run was preferred, and whether the two position-swapped orders agreed.

use serde::{Deserialize, Serialize};

/// Which run a judge (or a human) preferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// The baseline run was preferred.
    Baseline,
    /// The candidate run was preferred.
    Candidate,
    /// A tie, or (in a [`PairwiseVerdict`] with `consistent: false`) two orders that
    /// disagreed.
    Tie,
}

impl Winner {
    /// Every winner, in the order messages list them.
    pub const ALL: [Winner; 3] = [Winner::Baseline, Winner::Candidate, Winner::Tie];

    /// The candidate's score for this verdict: 1, 0, or ½ for a tie.
    pub fn candidate_score(self) -> f64 {
        match self {
            Winner::Candidate => 1.0,
            Winner::Baseline => 0.0,
            Winner::Tie => 0.5,
        }
    }

    /// The name as written in a verdict line (`baseline`, `candidate`, `tie`).
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::Baseline => "baseline",
            Winner::Candidate => "candidate",
            Winner::Tie => "tie",
        }
    }
}

/// One pairwise verdict (JSON Lines, one per line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawVerdict")]
pub struct PairwiseVerdict {
    /// The task both trials ran.
    pub task_id: String,
    /// The trial index (absent in verdicts written without one).
    #[serde(default)]
    pub trial: Option<u32>,
    /// Which run was preferred.
    pub winner: Winner,
    /// False when the two position-swapped judgements disagreed (scored as a tie).
    pub consistent: bool,
    /// The judge's model spec, when a model judged.
    #[serde(default)]
    pub judge_model: Option<String>,
    /// The judge's reason, in its words.
    #[serde(default)]
    pub reason: Option<String>,
    /// The run ids the pair was judged on (written by `nab compare --judge`); a verdict
    /// from another run pair is refused rather than mixed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_run: Option<String>,
    /// See `baseline_run`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate_run: Option<String>,
}

/// The line as written, so a bad winner is reported with its task.
#[derive(Deserialize)]
struct RawVerdict {
    task_id: String,
    #[serde(default)]
    trial: Option<u32>,
    winner: String,
    #[serde(default = "yes")]
    consistent: bool,
    #[serde(default)]
    judge_model: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    baseline_run: Option<String>,
    #[serde(default)]
    candidate_run: Option<String>,
}

fn yes() -> bool {
    true
}

/// A verdict line whose `winner` is not one of [`Winner::ALL`].
#[derive(Debug, thiserror::Error)]
#[error("task {task_id}: winner must be baseline, candidate or tie, not {winner:?}")]
pub struct BadWinner {
    /// The task the line is about.
    pub task_id: String,
    /// The winner as written.
    pub winner: String,
}

impl TryFrom<RawVerdict> for PairwiseVerdict {
    type Error = BadWinner;

    fn try_from(r: RawVerdict) -> Result<Self, BadWinner> {
        let Some(winner) = Winner::ALL.into_iter().find(|w| w.as_str() == r.winner) else {
            return Err(BadWinner {
                task_id: r.task_id,
                winner: r.winner,
            });
        };
        Ok(PairwiseVerdict {
            task_id: r.task_id,
            trial: r.trial,
            winner,
            consistent: r.consistent,
            judge_model: r.judge_model,
            reason: r.reason,
            baseline_run: r.baseline_run,
            candidate_run: r.candidate_run,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_round_trip_and_an_unknown_winner_names_its_task() {
        let v: PairwiseVerdict =
            serde_json::from_str(r#"{"task_id":"t","winner":"candidate"}"#).unwrap();
        assert_eq!(
            (v.winner, v.consistent, v.trial),
            (Winner::Candidate, true, None)
        );
        let back: PairwiseVerdict =
            serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(back, v);
        let e = serde_json::from_str::<PairwiseVerdict>(r#"{"task_id":"t","winner":"both"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("task t") && e.contains("\"both\""), "{e}");
        assert_eq!(Winner::ALL.map(Winner::candidate_score), [0.0, 1.0, 0.5]);
    }
}
