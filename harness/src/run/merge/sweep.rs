//! `nab merge` of sweep folders: the shards of one `nab sweep --shard K/N`, each a sweep
//! folder holding shard K of every run, joined run by run into one sweep folder.
//!
//! The shards' `sweep.json` must describe one sweep: the same sweep file (by hash), the
//! same runs (folder, agent, model), the same group and plan, and no shard given twice.
//! Each run is then merged exactly as `nab merge` merges the shards of one run (every
//! check of [`super::join`] applies, per run), into `<out>/<run folder>`, and the merged
//! `sweep.json` lists the runs so `nab leaderboard <out>` reads the whole sweep.

use nab_protocol::{IndexProvider, SweepIndex};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::MergeError;

/// The shards' sweep indexes, checked to be parts of one sweep.
#[derive(Debug)]
pub struct SweepShards {
    /// The shard folders, as given.
    pub dirs: Vec<PathBuf>,
    pub indexes: Vec<SweepIndex>,
}

/// Whether `dir` is a sweep folder (it holds a `sweep.json`).
pub fn is_sweep(dir: &Path) -> bool {
    std::fs::symlink_metadata(SweepIndex::path(dir)).is_ok()
}

impl SweepShards {
    /// Reads every shard's `sweep.json` and checks that they are shards of one sweep.
    pub fn open(dirs: &[PathBuf]) -> Result<SweepShards, MergeError> {
        let mut indexes = Vec::with_capacity(dirs.len());
        for d in dirs {
            let index = SweepIndex::read(d)
                .map_err(|e| MergeError::NotAShard {
                    dir: d.clone(),
                    what: e.to_string(),
                })?
                .ok_or_else(|| MergeError::NotAShard {
                    dir: d.clone(),
                    what: "it holds no sweep.json, and the other folders are sweep folders: merge sweep shards with sweep shards".into(),
                })?;
            indexes.push(index);
        }
        let shards = SweepShards {
            dirs: dirs.to_vec(),
            indexes,
        };
        shards.check()?;
        Ok(shards)
    }

    fn check(&self) -> Result<(), MergeError> {
        let Some(first) = self.indexes.first() else {
            return Err(MergeError::Mismatch("no shard folders given".into()));
        };
        let mut problems = Vec::new();
        let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
        for (dir, index) in self.dirs.iter().zip(&self.indexes) {
            let name = dir.display();
            let Some(shard) = &index.shard else {
                problems.push(format!(
                    "  {name}: not a shard (sweep.json records no --shard)"
                ));
                continue;
            };
            if let Some(other) = seen.insert(shard.index, dir) {
                problems.push(format!(
                    "  {name} and {}: both are shard {}/{}",
                    other.display(),
                    shard.index,
                    shard.count
                ));
            }
            if index.sweep_hash != first.sweep_hash {
                problems.push(format!(
                    "  {name}: sweep file {} (first shard: {})",
                    index.sweep_hash, first.sweep_hash
                ));
            }
            if index.group != first.group {
                problems.push(format!(
                    "  {name}: group {:?} (first shard: {:?})",
                    index.group, first.group
                ));
            }
            let runs = |i: &SweepIndex| {
                i.runs
                    .iter()
                    .map(|r| (r.dir.clone(), r.agent.clone(), r.model.clone()))
                    .collect::<Vec<_>>()
            };
            if runs(index) != runs(first) {
                problems.push(format!(
                    "  {name}: other runs ({}) than the first shard ({})",
                    run_list(index),
                    run_list(first)
                ));
            }
            if let Some(f) = &first.shard
                && (shard.count != f.count || shard.plan != f.plan)
            {
                problems.push(format!(
                    "  {name}: shard of {} with plan {} (first shard: of {} with plan {})",
                    shard.count, shard.plan, f.count, f.plan
                ));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(MergeError::Mismatch(problems.join("\n")))
        }
    }

    /// The run folders (relative to each shard) the sweep holds, in the sweep's order.
    pub fn run_dirs(&self) -> Vec<String> {
        self.indexes
            .first()
            .map(|i| i.runs.iter().map(|r| r.dir.clone()).collect())
            .unwrap_or_default()
    }

    /// Each shard's folder of run `dir`.
    pub fn run_shards(&self, dir: &str) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join(dir)).collect()
    }

    /// The merged sweep's index: the shards' runs, times from the shards (so a second
    /// merge writes the same bytes), the providers' counts added up.
    pub fn merged_index(&self) -> SweepIndex {
        let first = &self.indexes[0];
        let started_at = self
            .indexes
            .iter()
            .map(|i| i.started_at.clone())
            .min()
            .unwrap_or_default();
        let finished_at = self
            .indexes
            .iter()
            .map(|i| i.finished_at.clone())
            .collect::<Option<Vec<_>>>()
            .and_then(|ends| ends.into_iter().max());
        let mut providers: Vec<IndexProvider> = Vec::new();
        for p in self.indexes.iter().flat_map(|i| &i.providers) {
            match providers.iter_mut().find(|q| q.name == p.name) {
                Some(q) => {
                    q.requests = q.requests.saturating_add(p.requests);
                    q.slowed = q.slowed.saturating_add(p.slowed);
                    q.waited_ms = q.waited_ms.saturating_add(p.waited_ms);
                }
                None => providers.push(p.clone()),
            }
        }
        SweepIndex {
            started_at,
            finished_at,
            providers,
            shard: None,
            merged_from: self.dirs.clone(),
            ..first.clone()
        }
    }
}

fn run_list(index: &SweepIndex) -> String {
    index
        .runs
        .iter()
        .map(|r| r.dir.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `out` may be absent, empty, or an earlier sweep merge: anything else is the user's.
pub fn check_out_is_replaceable(out: &Path) -> Result<(), MergeError> {
    let refuse = |why: &str| MergeError::Output {
        path: out.to_owned(),
        message: format!("{why}; choose another --out (nab merge replaces only an earlier merge)"),
    };
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(refuse(&e.to_string())),
        Ok(m) if !m.is_dir() => return Err(refuse("exists and is not a folder")),
        Ok(_) => {}
    }
    let empty = std::fs::read_dir(out)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false);
    if empty {
        return Ok(());
    }
    match SweepIndex::read(out) {
        Ok(Some(i)) if !i.merged_from.is_empty() => Ok(()),
        _ => Err(refuse("holds files that are not an earlier sweep merge")),
    }
}
