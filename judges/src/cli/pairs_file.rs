//! The pairs file of `nab compare --judge` (`--pairs-out`, default
//! `<candidate>/pairwise.jsonl`): one [`PairLine`] per judged pair, appended and fsynced the
//! moment the pair is judged, so a comparison that is stopped keeps every verdict it reached.
//!
//! A rerun resumes from the file:
//! - a pair already judged by the same judge with the same rubric is not asked again (a pair
//!   whose judgement was an error is: the later line stands);
//! - a torn last line (the process was stopped mid-write) is cut off before anything is
//!   appended, so the next line starts on a line of its own;
//! - a line judged on other runs than the two being compared is refused, with its line
//!   number: verdicts of another run pair are never mixed in.

use crate::error::JudgeError;
use crate::pairwise::{PairLine, PairOutcome};
use nab_protocol::JsonlAppender;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What identifies a judged pair across reruns.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PairKey {
    pub task_id: String,
    pub trial: u32,
    pub judge_model: String,
    pub rubric_hash: String,
}

impl PairKey {
    pub fn of(line: &PairLine) -> PairKey {
        PairKey {
            task_id: line.task_id.clone(),
            trial: line.trial,
            judge_model: line.judgement.judge_model.clone(),
            rubric_hash: line.judgement.rubric_hash.clone(),
        }
    }
}

/// The pairs file, opened for appending, with what it already held.
/// Why one line of an existing pairs file was refused.
#[derive(Debug, thiserror::Error)]
enum PairLineError {
    #[error(
        "{0}; not a line `nab compare --judge` writes (remove the file or choose another --pairs-out)"
    )]
    NotAPair(#[source] serde_json::Error),
    #[error(
        "this pair was judged on run {baseline} (baseline) vs {candidate} (candidate), not on the runs being compared ({compared_baseline} vs {compared_candidate}); refusing to mix another run pair's verdicts in: remove the file or choose another --pairs-out"
    )]
    OtherRuns {
        baseline: String,
        candidate: String,
        compared_baseline: String,
        compared_candidate: String,
    },
}

#[derive(Debug)]
pub struct PairsFile {
    appender: JsonlAppender,
    /// The last line of each pair already in the file, in file order of first appearance.
    done: Vec<PairLine>,
    index: HashMap<PairKey, usize>,
    /// A torn last line was cut off.
    pub dropped_torn_line: bool,
}

impl PairsFile {
    /// Opens (creating) `path`. `baseline_runs` and `candidate_runs` are the run ids of the
    /// two runs being compared; a line judged on any other run is refused.
    pub fn open(
        path: &Path,
        baseline_runs: &BTreeSet<String>,
        candidate_runs: &BTreeSet<String>,
    ) -> Result<PairsFile, JudgeError> {
        let parse = |_, text: &str| -> Result<PairLine, PairLineError> {
            let line: PairLine = serde_json::from_str(text).map_err(PairLineError::NotAPair)?;
            if !baseline_runs.contains(&line.baseline_run)
                || !candidate_runs.contains(&line.candidate_run)
            {
                return Err(PairLineError::OtherRuns {
                    baseline: line.baseline_run,
                    candidate: line.candidate_run,
                    compared_baseline: names(baseline_runs),
                    compared_candidate: names(candidate_runs),
                });
            }
            Ok(line)
        };
        let read = nab_protocol::read_jsonl_with(path, usize::MAX, parse).map_err(|e| match e {
            e @ nab_protocol::JsonlError::Line { .. } => JudgeError::Lines(e),
            other => JudgeError::RunDir {
                path: path.to_owned(),
                message: other.to_string(),
            },
        })?;
        if read.truncated_tail {
            cut_torn_tail(path)?;
        }
        let mut done: Vec<PairLine> = Vec::new();
        let mut index = HashMap::new();
        for line in read.records {
            match index.get(&PairKey::of(&line)) {
                Some(&i) => done[i] = line,
                None => {
                    index.insert(PairKey::of(&line), done.len());
                    done.push(line);
                }
            }
        }
        let appender = JsonlAppender::open(path).map_err(|e| JudgeError::RunDir {
            path: e.path,
            message: e.source.to_string(),
        })?;
        Ok(PairsFile {
            appender,
            done,
            index,
            dropped_torn_line: read.truncated_tail,
        })
    }

    /// The line already judged for `key`, unless its judgement was an error (asked again).
    pub fn judged(&self, key: &PairKey) -> Option<&PairLine> {
        let line = &self.done[*self.index.get(key)?];
        (line.judgement.outcome != PairOutcome::Error).then_some(line)
    }

    /// Every pair the file held when opened (the last line of each).
    pub fn lines(&self) -> &[PairLine] {
        &self.done
    }

    /// Appends one judged pair: one write of the line and its newline, then fsync.
    pub fn append(&mut self, line: &PairLine) -> Result<(), JudgeError> {
        self.appender.append(line).map_err(|e| JudgeError::RunDir {
            path: e.path,
            message: e.source.to_string(),
        })
    }

    pub fn path(&self) -> PathBuf {
        self.appender.path().to_owned()
    }
}

fn names(runs: &BTreeSet<String>) -> String {
    runs.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// Cuts the file after its last newline (what follows is a torn write, already skipped by
/// the reader), so appending starts a new line.
fn cut_torn_tail(path: &Path) -> Result<(), JudgeError> {
    let io = |e: std::io::Error| JudgeError::Io {
        path: path.to_owned(),
        source: e,
    };
    let text = std::fs::read(path).map_err(io)?;
    let keep = text.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io)?;
    f.set_len(keep as u64)
        .and_then(|_| f.sync_data())
        .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairwise::PairJudgement;

    fn line(task: &str, outcome: PairOutcome, runs: (&str, &str)) -> PairLine {
        PairLine {
            task_id: task.into(),
            trial: 0,
            baseline_run: runs.0.into(),
            candidate_run: runs.1.into(),
            judgement: PairJudgement {
                judge_model: "scripted:j".into(),
                rubric_id: "r".into(),
                rubric_hash: "h".into(),
                outcome,
                first: None,
                second: None,
                evidence: vec!["e".into()],
                prompt_hashes: Default::default(),
                raw_outputs: Default::default(),
                retries: 0,
                input_tokens: 1,
                output_tokens: 1,
                error: None,
            },
        }
    }

    fn set(ids: &[&str]) -> BTreeSet<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn lines_round_trip_and_errors_are_asked_again_with_the_later_line_standing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pairs.jsonl");
        let (b, c) = (set(&["b"]), set(&["c"]));
        let mut f = PairsFile::open(&p, &b, &c).unwrap();
        let err = line("t1", PairOutcome::Error, ("b", "c"));
        f.append(&err).unwrap();
        f.append(&line("t2", PairOutcome::Win, ("b", "c"))).unwrap();
        drop(f);
        let f = PairsFile::open(&p, &b, &c).unwrap();
        assert_eq!(f.lines().len(), 2);
        assert_eq!(f.lines()[0], err, "the whole line reads back");
        assert!(
            f.judged(&PairKey::of(&err)).is_none(),
            "an error is asked again"
        );
        let win = line("t2", PairOutcome::Win, ("b", "c"));
        assert!(f.judged(&PairKey::of(&win)).is_some());
        drop(f);
        let mut f = PairsFile::open(&p, &b, &c).unwrap();
        f.append(&line("t1", PairOutcome::Tie, ("b", "c"))).unwrap();
        drop(f);
        let f = PairsFile::open(&p, &b, &c).unwrap();
        assert_eq!(f.lines().len(), 2, "one pair, its later line");
        assert_eq!(f.lines()[0].judgement.outcome, PairOutcome::Tie);
    }
}
