//! results.jsonl: one trial record per line, appended and fsynced, so a crash loses at
//! most the line being written — and `--resume` tolerates exactly that torn line.

use super::RunError;
use nab_protocol::TrialRecord;
use nab_protocol::{JsonlAppender, WriteError};
use std::path::Path;

pub struct ResultsFile(JsonlAppender);

fn write_err(e: WriteError) -> RunError {
    RunError::Results {
        path: e.path,
        message: e.source.to_string(),
    }
}

impl ResultsFile {
    pub fn open_append(path: &Path) -> Result<ResultsFile, RunError> {
        JsonlAppender::open(path)
            .map(ResultsFile)
            .map_err(write_err)
    }

    pub fn append(&mut self, rec: &TrialRecord) -> Result<(), RunError> {
        self.0.append(rec).map_err(write_err)
    }
}

/// What an existing results file holds.
#[derive(Debug, Default)]
pub struct ResumeState {
    pub records: Vec<TrialRecord>,
    pub run_id: Option<String>,
}

impl ResumeState {
    /// A new run must not mix with an old one in the same file.
    pub fn fresh(path: &Path) -> Result<ResumeState, RunError> {
        if std::fs::metadata(path)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
        {
            return Err(RunError::Results {
                path: path.to_owned(),
                message: "already holds results; pass --resume to continue that run, or choose another --out".into(),
            });
        }
        Ok(ResumeState::default())
    }

    /// Reads the records; a torn last line (no newline, not JSON) is cut off the file so
    /// the next append starts on a line of its own.
    pub fn load(path: &Path) -> Result<ResumeState, RunError> {
        let read =
            nab_protocol::read_jsonl::<TrialRecord>(path).map_err(|e| RunError::Results {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        if read.truncated_tail {
            let text = std::fs::read(path).map_err(|e| RunError::Results {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
            let keep = text
                .iter()
                .rposition(|b| *b == b'\n')
                .map(|i| i + 1)
                .unwrap_or(0);
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| RunError::Results {
                    path: path.to_owned(),
                    message: e.to_string(),
                })?;
            f.set_len(keep as u64)
                .and_then(|_| f.sync_data())
                .map_err(|e| RunError::Results {
                    path: path.to_owned(),
                    message: e.to_string(),
                })?;
            tracing::warn!(
                "{}: dropped a torn last line (an interrupted write)",
                path.display()
            );
        }
        let run_id = read.records.first().map(|r| r.run_id.clone());
        Ok(ResumeState {
            records: read.records,
            run_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::TrialStatus;
    use std::io::Write;

    #[test]
    fn resume_reads_records_and_cuts_a_torn_tail_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let p = nab_protocol::RunPaths::new(dir.path()).results();
        let mut f = ResultsFile::open_append(&p).unwrap();
        let mut r = TrialRecord::new("run1", "t", "terminal", 0, "oracle");
        r.outcome.status = TrialStatus::Passed;
        f.append(&r).unwrap();
        drop(f);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(b"{\"v\":1,\"run_")
            .unwrap();
        assert!(ResumeState::fresh(&p).is_err());
        let s = ResumeState::load(&p).unwrap();
        assert_eq!(s.records.len(), 1);
        assert_eq!(s.run_id.as_deref(), Some("run1"));
        let mut f = ResultsFile::open_append(&p).unwrap();
        f.append(&r).unwrap();
        assert_eq!(
            nab_protocol::read_jsonl::<TrialRecord>(&p)
                .unwrap()
                .records
                .len(),
            2
        );
    }
}
