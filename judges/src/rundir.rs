//! Reading (and rewriting) a run folder:
//!
//! ```text
//! <run>/results.jsonl                               one TrialRecord per line
//! <run>/trials/<task>/<trial>/diff.patch            the agent's change
//! <run>/trials/<task>/<trial>/events.jsonl          the agent's events
//! <run>/trials/<task>/<trial>/transcript.jsonl      the gateway's transcript
//! <tasks>/<task>/instruction.md                     what the agent was told
//! ```

use crate::error::JudgeError;
use crate::prompt::Candidate;
use crate::trajectory::TrajectorySummary;
use nab_protocol::events::Event;
use nab_protocol::transcript::TranscriptLine;
use nab_protocol::trial::TrialRecord;
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct RunDir {
    pub path: PathBuf,
    pub records: Vec<TrialRecord>,
}

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
}

fn read(path: &Path) -> Result<String, JudgeError> {
    std::fs::read_to_string(path).map_err(|source| JudgeError::Io {
        path: path.to_owned(),
        source,
    })
}

impl RunDir {
    pub fn open(path: &Path) -> Result<RunDir, JudgeError> {
        let results = path.join("results.jsonl");
        let text = read(&results)?;
        let mut records = Vec::new();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match TrialRecord::parse_line(line) {
                Ok(r) => records.push(r),
                // A torn last line (interrupted writer) is skipped, as everywhere else.
                Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
                Err(message) => {
                    return Err(JudgeError::RunDir {
                        path: results,
                        message: format!("line {}: {message}", i + 1),
                    });
                }
            }
        }
        Ok(RunDir {
            path: path.to_owned(),
            records,
        })
    }

    pub fn trial_dir(&self, task_id: &str, trial: u32) -> PathBuf {
        self.path
            .join("trials")
            .join(task_id)
            .join(trial.to_string())
    }

    /// Loads the instruction, diff and trajectory of one trial.
    pub fn material(
        &self,
        record: &TrialRecord,
        tasks_dir: &Path,
    ) -> Result<TrialMaterial, JudgeError> {
        let dir = self.trial_dir(&record.task_id, record.trial);
        let instruction_path = tasks_dir.join(&record.task_id).join("instruction.md");
        let instruction = read(&instruction_path).map_err(|e| JudgeError::RunDir {
            path: instruction_path.clone(),
            message: format!(
                "task instruction not found ({e}); pass --tasks with the suite folder the run used"
            ),
        })?;
        let diff = read(&dir.join("diff.patch"))?;
        let events: Vec<Event> = read_lines(&dir.join("events.jsonl"), Event::parse_line);
        let transcript: Vec<TranscriptLine> = read_lines(
            &dir.join("transcript.jsonl"),
            nab_protocol::transcript::parse_without_request,
        );
        Ok(TrialMaterial {
            instruction,
            diff,
            trajectory: TrajectorySummary::from_trial(&events, &transcript),
        })
    }

    /// Rewrites `results.jsonl` atomically (temp file, fsync, rename).
    pub fn write_records(&self, records: &[TrialRecord]) -> Result<(), JudgeError> {
        let target = self.path.join("results.jsonl");
        let tmp = self.path.join(".results.jsonl.judging");
        let io = |source| JudgeError::Io {
            path: tmp.clone(),
            source,
        };
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        for r in records {
            let line = serde_json::to_string(r)
                .map_err(|e| JudgeError::Invalid(format!("cannot serialise trial record: {e}")))?;
            writeln!(f, "{line}").map_err(io)?;
        }
        f.sync_all().map_err(io)?;
        std::fs::rename(&tmp, &target).map_err(|source| JudgeError::Io {
            path: target,
            source,
        })
    }
}

/// The trajectory is advisory for a judge: a line that does not parse (a newer event kind,
/// a torn write) is skipped with a warning rather than failing the grade.
fn read_lines<T>(path: &Path, parse: impl Fn(&str) -> Result<T, String>) -> Vec<T> {
    // Streamed one line at a time: a transcript may be tens of MiB.
    let mut out = Vec::new();
    let _ = nab_protocol::jsonl::for_each_line(
        path,
        nab_protocol::transcript::READ_LINE_LIMIT,
        |n, l, _| {
            if l.trim().is_empty() {
                return;
            }
            match parse(l) {
                Ok(v) => out.push(v),
                Err(e) => {
                    tracing::warn!("{}:{n}: skipped: {e}", path.display());
                }
            }
        },
    );
    out
}
