//! Which recorded trials `nab regrade` can play again, and why not the others.

use crate::trial::AgentKind;
use nab_gateway::Normalizer;
use nab_gateway::trial_cassette::TrialAnswers;
use nab_protocol::{TranscriptLine, TrialRecord, TrialStatus, read_jsonl};
use std::path::Path;

/// Why the trial of `record`, whose folder is `trial_dir`, cannot be re-graded; `None`
/// when it can. `redacted` says a secret was taken out of its transcript.
pub fn why_not(record: &TrialRecord, trial_dir: &Path, redacted: bool) -> Option<String> {
    let agent: AgentKind = match record.agent.parse() {
        Ok(a) => a,
        Err(e) => {
            return Some(format!(
                "its agent `{}` is not one nab knows: {e}",
                record.agent
            ));
        }
    };
    if record.outcome.status == TrialStatus::Error {
        return Some("an infrastructure error: the trial never reached a verdict".into());
    }
    match agent {
        AgentKind::Command(_) => Some(
            "a command: agent: what it does is not a function of its model answers alone".into(),
        ),
        AgentKind::NabAgent => {
            if redacted {
                return Some("a secret was redacted from its transcript".into());
            }
            match read_transcript(&trial_dir.join(nab_protocol::TRANSCRIPT_FILE)) {
                Err(e) => Some(e),
                Ok(lines) => TrialAnswers::from_transcript(&lines, &Normalizer::default())
                    .err()
                    .map(|e| e.to_string()),
            }
        }
        // The oracle, the null agent and wrong solutions use no model: re-running them is
        // their regrade.
        AgentKind::Oracle | AgentKind::Null | AgentKind::Wrong(_) => None,
    }
}

/// Every line of a trial's transcript; a missing file is an error (a model trial with no
/// recorded answers cannot be replayed).
pub fn read_transcript(path: &Path) -> Result<Vec<TranscriptLine>, String> {
    if !path.is_file() {
        return Err(format!(
            "no recorded model answers ({} is missing)",
            nab_protocol::TRANSCRIPT_FILE
        ));
    }
    read_jsonl::<TranscriptLine>(path)
        .map(|r| r.records)
        .map_err(|e| format!("its transcript cannot be read: {e}"))
}
