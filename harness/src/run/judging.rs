//! `nab run --judge SPEC`: grade a verified trial from the files its folder holds (the
//! diff, the agent's events, the gateway's transcript) and the task's instruction. The
//! judges call their models directly, never through the trial's gateway, so judge tokens
//! stay on each `JudgeRecord` and never mix with the agent's.

use crate::task::Task;
use nab_judges::TrialGrader;
use nab_judges::trajectory_files;
use nab_protocol::JudgeRecord;
use nab_protocol::TrialDir;
use std::path::Path;

/// The judges' verdicts on the trial in `dir`. Judge and model errors are inside the
/// records; a defect (a broken prompt template) is logged and leaves the trial unjudged
/// rather than turning a verified trial into an infrastructure error.
pub(crate) async fn judge_trial(
    grader: &TrialGrader,
    task: &Task,
    dir: &Path,
    tamper_flags: &[String],
) -> Vec<JudgeRecord> {
    let instruction = match std::fs::read_to_string(task.instruction_path()) {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(
                "{}: not judged: cannot read {}: {e}",
                task.id(),
                task.instruction_path().display()
            );
            return Vec::new();
        }
    };
    // A trial without a diff (the agent changed nothing) is still judged: an empty change
    // is something the rubric has a view on.
    let files = TrialDir::new(dir);
    let diff = std::fs::read_to_string(files.diff()).unwrap_or_default();
    // The trajectory is context for the judge, not evidence the harness vouches for: a
    // line that does not parse (the agent's output is untrusted) is skipped.
    let (events, transcript) = trajectory_files(&files);
    match grader
        .grade_trial(&instruction, &diff, &events, &transcript, tamper_flags)
        .await
    {
        Ok(records) => records,
        Err(e) => {
            tracing::warn!("{}: not judged: {e}", task.id());
            Vec::new()
        }
    }
}
