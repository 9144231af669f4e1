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
    (events.records, transcript.records)
}

fn read(path: &Path) -> Result<String, JudgeError> {
    std::fs::read_to_string(path).map_err(|source| JudgeError::Io {
        path: path.to_owned(),
        source,
    })
}
