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
        AgentKind::Declared(_) => {
            Some("a declared agent: re-running it is `nab run --agent` with a replay: model".into())
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(agent: &str, status: TrialStatus) -> TrialRecord {
        let mut r = TrialRecord::new("r", "t", "bug-fix", 0, agent);
        r.outcome.status = status;
        r
    }

    #[test]
    fn what_cannot_be_regraded_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let why = |agent, status, redacted| why_not(&record(agent, status), dir.path(), redacted);
        assert_eq!(why("oracle", TrialStatus::Passed, false), None);
        assert_eq!(why("wrong:off-by-one", TrialStatus::Failed, false), None);
        assert!(
            why("command:/bin/agent", TrialStatus::Passed, false)
                .unwrap()
                .contains("command:")
        );
        assert!(
            why("nab-agent", TrialStatus::Error, false)
                .unwrap()
                .contains("infrastructure")
        );
        assert!(
            why("nab-agent", TrialStatus::Passed, false)
                .unwrap()
                .contains("no recorded model answers")
        );
        std::fs::write(dir.path().join(nab_protocol::TRANSCRIPT_FILE), "").unwrap();
        assert_eq!(why("nab-agent", TrialStatus::Passed, false), None);
        assert!(
            why("nab-agent", TrialStatus::Passed, true)
                .unwrap()
                .contains("redacted")
        );
    }
}
