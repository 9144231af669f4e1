//! One shard's run folder, loaded through [`super::tree`]: `run.json` and
//! `results.jsonl`, each capped, neither followed through a link. A torn last line (the
//! shard was killed mid-write) is skipped and its pair then shows up as missing; any other
//! bad line is an error naming the file and line.

use super::MergeError;
use super::tree::{Limits, Tree};
use nab_protocol::TrialRecord;
use nab_protocol::{RESULTS_FILE, RUN_META_FILE, RunMeta};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// run.json is a few KiB; anything near this is not one.
pub(super) const MAX_META: u64 = 1 << 20;
/// results.jsonl of a 700-trial shard is about 1 MiB.
pub(super) const MAX_RESULTS: u64 = 256 << 20;
/// One trial record (judge answers included).
pub(super) const MAX_LINE: usize = 8 << 20;

/// A shard as read.
#[derive(Debug)]
pub struct ShardRun {
    pub dir: PathBuf,
    pub meta: RunMeta,
    /// One record per (task, trial): the last line of each pair wins (`--resume` retried
    /// it), in the order first seen.
    pub records: Vec<TrialRecord>,
    /// The last line was cut off and skipped.
    pub torn_tail: bool,
    pub tree: Tree,
}

impl ShardRun {
    pub fn open(dir: &Path, limits: Limits) -> Result<ShardRun, MergeError> {
        let tree = Tree::open(dir, limits).map_err(MergeError::Tree)?;
        let meta_bytes = tree
            .read(&[RUN_META_FILE], MAX_META)
            .map_err(MergeError::Tree)?
            .ok_or_else(|| MergeError::NotAShard {
                dir: dir.to_owned(),
                what: format!("it has no {RUN_META_FILE}"),
            })?;
        let meta = parse_meta(&meta_bytes).map_err(|message| MergeError::NotAShard {
            dir: dir.to_owned(),
            what: format!("{RUN_META_FILE}: {message}"),
        })?;
        let results = tree
            .read(&[RESULTS_FILE], MAX_RESULTS)
            .map_err(MergeError::Tree)?
            .ok_or_else(|| MergeError::NotAShard {
                dir: dir.to_owned(),
                what: format!("it has no {RESULTS_FILE} (did the shard start?)"),
            })?;
        let (records, torn_tail) = parse_results(&results, &dir.join(RESULTS_FILE))?;
        Ok(ShardRun {
            dir: dir.to_owned(),
            meta,
            records,
            torn_tail,
            tree,
        })
    }
}

/// Why a shard's `run.json` was refused.
#[derive(Debug, thiserror::Error)]
enum MetaError {
    #[error("{0}")]
    Json(#[source] serde_json::Error),
    #[error("version {v} is newer than this nab reads ({reads}); upgrade nab")]
    TooNew { v: u32, reads: u32 },
}

fn parse_meta(bytes: &[u8]) -> Result<RunMeta, MetaError> {
    let meta: RunMeta = serde_json::from_slice(bytes).map_err(MetaError::Json)?;
    if meta.v > nab_protocol::RUN_META_VERSION {
        return Err(MetaError::TooNew {
            v: meta.v,
            reads: nab_protocol::RUN_META_VERSION,
        });
    }
    Ok(meta)
}

/// The records of a results file in memory, latest per pair, and whether the tail was torn.
pub(super) fn parse_results(
    bytes: &[u8],
    path: &Path,
) -> Result<(Vec<TrialRecord>, bool), MergeError> {
    let mut lines: Vec<TrialRecord> = Vec::new();
    let mut bad: Option<MergeError> = None;
    let mut torn = false;
    let stats = nab_protocol::for_each_line_in(bytes, path, MAX_LINE, |n, line, last| {
        if bad.is_some() || line.trim().is_empty() {
            return;
        }
        match TrialRecord::parse_line(line) {
            Ok(r) => lines.push(r),
            Err(_) if last && serde_json::from_str::<serde::de::IgnoredAny>(line).is_err() => {
                torn = true
            }
            Err(source) => {
                bad = Some(MergeError::BadRecord {
                    path: path.to_owned(),
                    line: n,
                    source,
                })
            }
        }
    })
    .map_err(|e| MergeError::BadLine {
        path: path.to_owned(),
        line: 0,
        message: e.to_string(),
    })?;
    if let Some(e) = bad {
        return Err(e);
    }
    if stats.too_long > 0 {
        return Err(MergeError::BadLine {
            path: path.to_owned(),
            line: 0,
            message: format!(
                "{} line(s) longer than {MAX_LINE} bytes; not a trial record",
                stats.too_long
            ),
        });
    }
    let mut order: Vec<(String, u32)> = Vec::new();
    let mut latest: BTreeMap<(String, u32), TrialRecord> = BTreeMap::new();
    for r in lines {
        let k = (r.task_id.clone(), r.trial);
        if !latest.contains_key(&k) {
            order.push(k.clone());
        }
        latest.insert(k, r);
    }
    let records = order
        .into_iter()
        .filter_map(|k| latest.remove(&k))
        .collect();
    Ok((records, torn))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::TrialStatus;

    fn line(task: &str, trial: u32, status: TrialStatus) -> String {
        let mut r = TrialRecord::new("r", task, "c", trial, "oracle");
        r.outcome.status = status;
        serde_json::to_string(&r).unwrap() + "\n"
    }

    #[test]
    fn a_torn_tail_is_skipped_a_retried_pair_counts_once_and_a_bad_middle_line_is_named() {
        let p = Path::new("s/results.jsonl");
        let text = line("a", 0, TrialStatus::Error)
            + &line("b", 0, TrialStatus::Failed)
            + &line("a", 0, TrialStatus::Passed)
            + "{\"v\":1,\"run_id\":\"r\",\"task_";
        let (recs, torn) = parse_results(text.as_bytes(), p).unwrap();
        assert!(torn);
        assert_eq!(recs.len(), 2);
        assert_eq!(
            (recs[0].task_id.as_str(), recs[0].outcome.status),
            ("a", TrialStatus::Passed)
        );

        let text =
            line("a", 0, TrialStatus::Passed) + "not json\n" + &line("b", 0, TrialStatus::Passed);
        let e = parse_results(text.as_bytes(), p).unwrap_err().to_string();
        assert!(e.contains("s/results.jsonl:2"), "{e}");
        // A whole object of a newer version on the last line is not a torn write.
        let text = line("a", 0, TrialStatus::Passed) + "{\"v\":99}";
        let e = parse_results(text.as_bytes(), p).unwrap_err().to_string();
        assert!(e.contains(":2") && e.contains("99"), "{e}");
        let text = format!("{{\"v\":1,\"x\":\"{}\"}}\n", "y".repeat(MAX_LINE));
        let e = parse_results(text.as_bytes(), p).unwrap_err().to_string();
        assert!(e.contains("longer than"), "{e}");
    }
}
