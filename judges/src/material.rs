//! What a judge reads of one trial: the task's instruction, the agent's diff and its
//! trajectory, from the run folder (layout in [`nab_protocol::run`]).

use crate::error::JudgeError;
use crate::prompt::Candidate;
use crate::trajectory::TrajectorySummary;
use nab_protocol::Event;
use nab_protocol::TranscriptLine;
use nab_protocol::TrialRecord;
use nab_protocol::{RunFolder, TrialDir, instruction_path};
use std::path::Path;

/// Everything a judge needs about one trial.
#[derive(Debug, Clone)]
pub struct TrialMaterial {
    pub instruction: String,
    pub diff: String,
    pub trajectory: TrajectorySummary,
}

impl TrialMaterial {
    pub fn candidate(&self) -> Candidate {
        Candidate::new(&self.diff, &self.trajectory.render())
    }

    /// Loads the instruction, diff and trajectory of one trial of `run`.
    pub fn load(
        run: &RunFolder,
        record: &TrialRecord,
        tasks_dir: &Path,
    ) -> Result<TrialMaterial, JudgeError> {
        let dir = run.trial_dir(record)?;
        let instruction_path = instruction_path(tasks_dir, &record.task_id);
        let instruction = read(&instruction_path).map_err(|e| JudgeError::RunDir {
            path: instruction_path.clone(),
            message: format!(
                "task instruction not found ({e}); pass --tasks with the suite folder the run used"
            ),
        })?;
        let diff = crate::bytecode::set_aside_bytecode(&read(&dir.diff())?);
        let (events, transcript) = trajectory_files(&dir);
        Ok(TrialMaterial {
            instruction,
            diff,
            trajectory: TrajectorySummary::from_trial(&events, &transcript),
        })
    }
}

/// The agent's events and the gateway's transcript of a trial. The trajectory is advisory
/// for a judge: a line that does not parse (a newer event kind, a torn write, the agent's
/// untrusted output) is skipped with a warning rather than failing the grade.
pub fn trajectory_files(dir: &TrialDir) -> (Vec<Event>, Vec<TranscriptLine>) {
    let events = nab_protocol::read_jsonl_lenient(
        &dir.events(),
        nab_protocol::READ_LINE_LIMIT,
        Event::parse_line,
    );
    let transcript = nab_protocol::read_jsonl_lenient(
        &dir.transcript(),
        nab_protocol::READ_LINE_LIMIT,
        nab_protocol::parse_without_request,
    );
    // One warning per file: the lines are the agent's doing and may be many.
    for skipped in [&events.skipped, &transcript.skipped] {
        if let Some(first) = skipped.first() {
            tracing::warn!(
                "skipped {} line(s) of the trajectory; the first: {first}",
                skipped.len()
            );
        }
    }
    // In the calls' order: two lines written close together can be in the file swapped.
    let mut lines = transcript.records;
    lines.sort_by_key(|l| l.seq);
    (events.records, lines)
}

fn read(path: &Path) -> Result<String, JudgeError> {
    std::fs::read_to_string(path).map_err(|source| JudgeError::Io {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seq: u64, content: &str, calls_a_tool: bool) -> String {
        let calls = match calls_a_tool {
            true => serde_json::json!([{"id": "c", "type": "function",
                "function": {"name": "read_file", "arguments": "{}"}}]),
            false => serde_json::json!([]),
        };
        serde_json::json!({
            "v": 1, "ts": "2026-12-07T00:00:00.000Z", "seq": seq, "provider": "p",
            "stream": false, "latency_ms": 1, "request": {},
            "response": {"choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": content, "tool_calls": calls}}]},
        })
        .to_string()
            + "\n"
    }

    /// The last call's line written before the one ahead of it (both answers went out
    /// close together; the one ahead is a text answer the agent was told to go on from):
    /// the trajectory is still in the calls' order and its final answer is the last call's.
    #[test]
    fn the_trajectory_follows_the_calls_order_not_the_files() {
        let dir = tempfile::tempdir().unwrap();
        let trial = TrialDir::new(dir.path());
        let text = [
            line(0, "looking", true),
            line(2, "Fixed the bound.", false),
            line(1, "I think it is done.", false),
        ]
        .concat();
        std::fs::write(trial.transcript(), text).unwrap();
        let (_, lines) = trajectory_files(&trial);
        assert_eq!(lines.iter().map(|l| l.seq).collect::<Vec<_>>(), [0, 1, 2]);
        let summary = TrajectorySummary::from_trial(&[], &lines);
        assert_eq!(summary.final_answer.as_deref(), Some("Fixed the bound."));
    }
}
