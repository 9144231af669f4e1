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

/// Every line of a trial's transcript, in the order its calls were made; a missing file is
/// an error (a model trial with no recorded answers cannot be replayed).
///
/// The file's order is when each line was written, after its answer went out, and two
/// lines can come out swapped: the gateway writes a line on the worker that answered, and
/// a loaded machine can hold that worker back past the agent's next call. `seq` is given
/// when a call is admitted, so it is the calls' order; a replay keyed by occurrence, and a
/// comparison call by call, need that one.
pub fn read_transcript(path: &Path) -> Result<Vec<TranscriptLine>, String> {
    if !path.is_file() {
        return Err(format!(
            "no recorded model answers ({} is missing)",
            nab_protocol::TRANSCRIPT_FILE
        ));
    }
    let mut lines = read_jsonl::<TranscriptLine>(path)
        .map(|r| r.records)
        .map_err(|e| format!("its transcript cannot be read: {e}"))?;
    lines.sort_by_key(|l| l.seq);
    Ok(lines)
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

    fn line(seq: u64, said: &str) -> String {
        serde_json::json!({
            "v": 1, "ts": "2026-12-07T00:00:00.000Z", "seq": seq, "provider": "scripted:task",
            "latency_ms": 1,
            "stream": false,
            "request": {"model": "m", "messages": [{"role": "user", "content": said}]},
            "response": {"choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": format!("answer to {said}")}}]},
        })
        .to_string()
            + "\n"
    }

    /// Two lines written in the other order (their answers went out close together on a
    /// loaded machine) are read in the calls' order, so a replay of the trial compares
    /// equal to its record call by call.
    #[test]
    fn a_transcript_is_read_in_the_calls_order_whatever_order_its_lines_were_written() {
        let dir = tempfile::tempdir().unwrap();
        let in_order = dir.path().join("a.jsonl");
        let swapped = dir.path().join("b.jsonl");
        std::fs::write(
            &in_order,
            [line(0, "one"), line(1, "two"), line(2, "three")].concat(),
        )
        .unwrap();
        std::fs::write(
            &swapped,
            [line(0, "one"), line(2, "three"), line(1, "two")].concat(),
        )
        .unwrap();
        let a = read_transcript(&in_order).unwrap();
        let b = read_transcript(&swapped).unwrap();
        let seqs: Vec<u64> = b.iter().map(|l| l.seq).collect();
        assert_eq!(seqs, [0, 1, 2]);
        let normalizer = Normalizer::default();
        assert_eq!(
            nab_gateway::trial_cassette::first_divergence(&a, &b, &normalizer),
            None
        );
    }
}
