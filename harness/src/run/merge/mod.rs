//! `nab merge`: the shards of one run, written by `nab run --shard K/N` anywhere, joined
//! into one ordinary run folder.
//!
//! Before anything is written, the shards are checked against each other: the same agent,
//! model, suite hash, trial count and group (and, for shards that record one, the same
//! plan); no (task, trial) pair in two shards; no pair outside the suite; and no pair
//! missing (unless partial merges are allowed). Each check fails with the shards and
//! pairs it concerns.
//!
//! The merged folder depends only on the shards: records in suite order, trial folders
//! copied in name order, run.json's times taken from the shards, the report stamped with
//! the last shard's end. Merging the same shards twice gives the same bytes.

mod shard_run;
pub mod sweep;
pub mod tree;

pub use shard_run::ShardRun;

use nab_protocol::TrialRecord;
use nab_protocol::{MergedShard, RunMeta, RunPaths};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use tree::{Budget, Limits, TreeError};

/// How many missing or duplicated pairs an error lists by name before counting the rest.
const LISTED: usize = 40;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    #[error("{dir} is not a shard's run folder: {what}")]
    NotAShard { dir: PathBuf, what: String },
    #[error("{path}:{line}: {message}")]
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A trial record that is not one this build reads.
    #[error("{path}:{line}: {source}")]
    BadRecord {
        path: PathBuf,
        line: usize,
        #[source]
        source: nab_protocol::VersionedError,
    },
    #[error(transparent)]
    Tree(TreeError),
    #[error("the shards are not parts of one run:\n{0}")]
    Mismatch(String),
    #[error("{0}")]
    Pairs(String),
    #[error("{path}: {message}")]
    Output { path: PathBuf, message: String },
}

/// The shards, checked and joined in memory.
#[derive(Debug)]
pub struct Joined {
    pub meta: RunMeta,
    /// In suite order (run.json's task ids), then trial.
    pub records: Vec<TrialRecord>,
    /// For each record, the index of the shard it came from.
    pub origin: Vec<usize>,
    /// Pairs no shard recorded (only with `allow_partial`).
    pub missing: Vec<(String, u32)>,
    /// Torn tails, skipped entries, and the like.
    pub warnings: Vec<String>,
}

fn pair(p: &(String, u32)) -> String {
    format!("{} trial {}", p.0, p.1)
}

fn listed(items: &[String]) -> String {
    let mut s: Vec<String> = items
        .iter()
        .take(LISTED)
        .map(|i| format!("  {i}"))
        .collect();
    if items.len() > LISTED {
        s.push(format!("  ... and {} more", items.len() - LISTED));
    }
    s.join("\n")
}

/// A run.json field the shards must agree on: its name and how to read it.
type Field = (&'static str, fn(&RunMeta) -> Option<String>);

/// Checks that `shards` are the parts of one run and joins their records.
pub fn join(shards: &[ShardRun], allow_partial: bool) -> Result<Joined, MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::Mismatch("no shard folders given".into()));
    };
    check_one_run(shards)?;
    let task_ids = first.meta.task_ids.clone();
    let trials = first.meta.trials.unwrap_or(0);
    let mut warnings = Vec::new();
    let taken = take_records(shards, &task_ids, trials, &mut warnings)?;
    let missing = missing_pairs(
        shards,
        &task_ids,
        trials,
        &taken,
        allow_partial,
        &mut warnings,
    )?;

    let run_id = first
        .meta
        .group
        .clone()
        .or_else(|| first.meta.run_id.clone())
        .unwrap_or_else(|| "merged".into());
    let mut records = Vec::with_capacity(taken.len());
    let mut origin = Vec::with_capacity(taken.len());
    for (si, r) in taken.into_values() {
        let mut r = r.clone();
        r.run_id = run_id.clone();
        records.push(r);
        origin.push(si);
    }
    let meta = merged_meta(shards, run_id, task_ids);
    Ok(Joined {
        meta,
        records,
        origin,
        missing,
        warnings,
    })
}

/// The run.json fields every shard must agree on, and no shard index given twice; all
/// problems at once.
fn check_one_run(shards: &[ShardRun]) -> Result<(), MergeError> {
    let mut problems = Vec::new();
    // Each field, by name: every shard must say the same, and a suite hash and trial
    // count must be there at all (without them the expected pairs are unknown).
    let fields: [Field; 6] = [
        ("agent", |m| m.agent.clone()),
        ("model", |m| m.model.clone()),
        ("suite hash", |m| m.tasks_hash.clone()),
        ("trial count", |m| m.trials.map(|t| t.to_string())),
        ("group", |m| m.group.clone()),
        ("shard plan", |m| {
            m.shard
                .as_ref()
                .map(|s| format!("{} ({} shards, balanced by {})", s.plan, s.count, s.balance))
        }),
    ];
    for (name, get) in fields {
        let values: BTreeMap<Option<String>, Vec<String>> =
            shards.iter().fold(BTreeMap::new(), |mut m, s| {
                m.entry(get(&s.meta))
                    .or_insert_with(Vec::new)
                    .push(s.dir.display().to_string());
                m
            });
        if values.len() > 1 {
            let each: Vec<String> = values
                .iter()
                .map(|(v, dirs)| {
                    format!(
                        "{} in {}",
                        v.as_deref().unwrap_or("(none)"),
                        dirs.join(", ")
                    )
                })
                .collect();
            problems.push(format!("- the {name} differs: {}", each.join("; ")));
        } else if values.contains_key(&None)
            && matches!(name, "agent" | "suite hash" | "trial count")
        {
            problems.push(format!(
                "- no {name} recorded in run.json (a run from an older nab, or not a run folder): {}",
                shards.iter().map(|s| s.dir.display().to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    // The same shard index twice is two copies of one share.
    let mut by_index: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for s in shards {
        if let Some(sh) = &s.meta.shard {
            by_index
                .entry(sh.index)
                .or_default()
                .push(s.dir.display().to_string());
        }
    }
    for (k, dirs) in &by_index {
        if dirs.len() > 1 {
            problems.push(format!("- shard {k} is given twice: {}", dirs.join(", ")));
        }
    }
    if !problems.is_empty() {
        return Err(MergeError::Mismatch(problems.join("\n")));
    }
    Ok(())
}

/// Each (task position, trial) pair's record, with the index of the shard it came from.
type Taken<'a> = BTreeMap<(usize, u32), (usize, &'a TrialRecord)>;

/// Each (task position, trial) pair's record and the shard it came from. Records of
/// another suite, trial count or agent, and pairs in two shards, are errors.
fn take_records<'a>(
    shards: &'a [ShardRun],
    task_ids: &[String],
    trials: u32,
    warnings: &mut Vec<String>,
) -> Result<Taken<'a>, MergeError> {
    let agent = shards[0].meta.agent.clone().unwrap_or_default();
    let position: BTreeMap<&str, usize> = task_ids
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    let mut taken: Taken<'a> = BTreeMap::new();
    let mut duplicates = Vec::new();
    let mut foreign = Vec::new();
    for (si, s) in shards.iter().enumerate() {
        if s.torn_tail {
            warnings.push(format!(
                "{}: the last line of results.jsonl was cut off (the shard was stopped while writing) and is skipped",
                s.dir.display()
            ));
        }
        for r in &s.records {
            let Some(&ti) = position.get(r.task_id.as_str()) else {
                foreign.push(format!(
                    "{}: task {:?} is not in the suite",
                    s.dir.display(),
                    r.task_id
                ));
                continue;
            };
            if r.trial >= trials {
                foreign.push(format!(
                    "{}: {} trial {} is past the {trials} trial(s) per task",
                    s.dir.display(),
                    r.task_id,
                    r.trial
                ));
                continue;
            }
            if r.agent != agent {
                foreign.push(format!(
                    "{}: {} trial {} was run by agent {:?}, not {agent:?}",
                    s.dir.display(),
                    r.task_id,
                    r.trial,
                    r.agent
                ));
                continue;
            }
            if let Some((other, _)) = taken.get(&(ti, r.trial)) {
                duplicates.push(format!(
                    "{} trial {} is in {} and in {}",
                    r.task_id,
                    r.trial,
                    shards[*other].dir.display(),
                    s.dir.display()
                ));
                continue;
            }
            taken.insert((ti, r.trial), (si, r));
        }
    }
    if !foreign.is_empty() {
        return Err(MergeError::Pairs(format!(
            "{} trial record(s) do not belong to this run:\n{}",
            foreign.len(),
            listed(&foreign)
        )));
    }
    if !duplicates.is_empty() {
        return Err(MergeError::Pairs(format!(
            "{} (task, trial) pair(s) are in more than one shard (were the shards cut from different plans, or a shard given twice?):\n{}",
            duplicates.len(),
            listed(&duplicates)
        )));
    }
    Ok(taken)
}

/// The suite's pairs no shard recorded: an error, or with `allow_partial` a warning.
fn missing_pairs(
    shards: &[ShardRun],
    task_ids: &[String],
    trials: u32,
    taken: &Taken<'_>,
    allow_partial: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, u32)>, MergeError> {
    let missing: Vec<(String, u32)> = task_ids
        .iter()
        .enumerate()
        .flat_map(|(ti, t)| (0..trials).map(move |i| (ti, t, i)))
        .filter(|(ti, _, i)| !taken.contains_key(&(*ti, *i)))
        .map(|(_, t, i)| (t.clone(), i))
        .collect();
    if !missing.is_empty() {
        let mut text = format!(
            "{} of {} trial(s) are missing from the shards:\n{}",
            missing.len(),
            task_ids.len() as u64 * u64::from(trials),
            listed(&missing.iter().map(pair).collect::<Vec<_>>())
        );
        let absent = absent_shards(shards);
        if !absent.is_empty() {
            text.push_str(&format!("\nshards not given: {absent}"));
        }
        if !allow_partial {
            text.push_str(
                "\nrun the missing shards (or `nab run --resume` the unfinished ones) and merge again, or pass --allow-partial to merge what there is",
            );
            return Err(MergeError::Pairs(text));
        }
        warnings.push(text);
    }
    Ok(missing)
}

/// The merged run.json: the first shard's agreed fields, times spanning the shards, and
/// the shards it came from in index order.
fn merged_meta(shards: &[ShardRun], run_id: String, task_ids: Vec<String>) -> RunMeta {
    let first = &shards[0];
    let mut ordered: Vec<&ShardRun> = shards.iter().collect();
    ordered.sort_by_key(|s| s.meta.shard.as_ref().map(|m| m.index));
    RunMeta {
        run_id: Some(run_id),
        agent: first.meta.agent.clone(),
        model: first.meta.model.clone(),
        tasks_dir: None,
        tasks_hash: first.meta.tasks_hash.clone(),
        task_hashes: first.meta.task_hashes.clone(),
        label: first.meta.label.clone(),
        task_ids,
        trials: first.meta.trials,
        started_at: shards
            .iter()
            .filter_map(|s| s.meta.started_at.clone())
            .min(),
        finished_at: shards
            .iter()
            .filter_map(|s| s.meta.finished_at.clone())
            .max(),
        nab_version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        command: None,
        shard: None,
        group: first.meta.group.clone(),
        provenance: first.meta.provenance.clone(),
        merged_from: ordered
            .iter()
            .map(|s| MergedShard {
                run_id: s.meta.run_id.clone(),
                shard: s.meta.shard.clone(),
                trials: s.records.len(),
            })
            .collect(),
        ..RunMeta::default()
    }
}

/// `2/3, 3/3` when the shards say how many there are and some index was not given.
fn absent_shards(shards: &[ShardRun]) -> String {
    let Some(count) = shards
        .iter()
        .find_map(|s| s.meta.shard.as_ref().map(|m| m.count))
    else {
        return String::new();
    };
    let given: BTreeSet<u32> = shards
        .iter()
        .filter_map(|s| s.meta.shard.as_ref().map(|m| m.index))
        .collect();
    (1..=count)
        .filter(|k| !given.contains(k))
        .map(|k| format!("{k}/{count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the joined run into `out` with its report: built beside it and renamed into
/// place, so `out` is either the old merge or the new one. An `out` that holds anything
/// but an earlier merge is refused, never overwritten. `Ok(Some(..))`: merged, but the
/// report could not be written (why).
pub fn write(
    joined: &Joined,
    shards: &[ShardRun],
    out: &Path,
    budget: &mut Budget,
) -> Result<Option<String>, MergeError> {
    let output = |path: &Path| {
        let path = path.to_owned();
        move |e: String| MergeError::Output {
            path: path.clone(),
            message: e,
        }
    };
    check_out_is_replaceable(out)?;
    let staging = stage_beside(out)?;
    let paths = RunPaths::new(staging.path());
    for (r, &si) in joined.records.iter().zip(&joined.origin) {
        let shard = &shards[si];
        let src = shard.tree.path().to_owned();
        let index = r.trial.to_string();
        let folder = r.trial_dir.clone().unwrap_or(index);
        // Both names come from the shard's file: one plain component each, or refused.
        let dest = paths.trial_of(r).map_err(|e| MergeError::NotAShard {
            dir: src.clone(),
            what: e.to_string(),
        })?;
        let rel = [
            nab_protocol::TRIALS_DIR,
            r.task_id.as_str(),
            folder.as_str(),
        ];
        // A linked or odd trial folder loses its artifacts, not the trial's record.
        match shard.tree.copy_dir(&rel, dest.path(), budget) {
            Ok(_) => {}
            Err(e @ (TreeError::Symlink { .. } | TreeError::Kind { .. })) => budget
                .skipped
                .push(format!("{e}; the trial's record is kept without its files")),
            Err(e) => return Err(MergeError::Tree(e)),
        }
    }
    nab_protocol::write_jsonl_atomic(&paths.results(), &joined.records)
        .map_err(|e| output(&paths.results())(e.to_string()))?;
    joined
        .meta
        .write(staging.path())
        .map_err(|e| output(&paths.meta())(e.to_string()))?;
    // The report is built in the staging folder too (the tasks folder, recorded relative
    // to `out`, is found from its sibling just the same). Stamped with the last shard's
    // end, not the clock, so a second merge writes the same page.
    let stamp = joined.meta.finished_at.clone().unwrap_or_default();
    let report = nab_reports::Run::load(staging.path())
        .and_then(|run| nab_reports::write_outputs_at(&run, staging.path(), &stamp))
        .err()
        .map(|e| e.to_string());
    swap_in(staging, out)?;
    Ok(report)
}

fn parent_and_name(out: &Path) -> (PathBuf, String) {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "merged".into());
    (parent, name)
}

/// A staging folder beside `out` (same parent, so relative paths recorded for `out`
/// resolve the same from it), where a merge is built before [`swap_in`].
pub fn stage_beside(out: &Path) -> Result<tempfile::TempDir, MergeError> {
    let (parent, name) = parent_and_name(out);
    let output = |e: std::io::Error| MergeError::Output {
        path: parent.clone(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(&parent).map_err(output)?;
    tempfile::Builder::new()
        .prefix(&format!(".{name}.merging-"))
        .tempdir_in(&parent)
        .map_err(output)
}

/// Puts the staged merge at `out`: the old merge aside, the new one in, the old one
/// removed; `out` is always either the old merge or the new one.
pub fn swap_in(staging: tempfile::TempDir, out: &Path) -> Result<(), MergeError> {
    let (parent, name) = parent_and_name(out);
    let output = |e: std::io::Error| MergeError::Output {
        path: out.to_owned(),
        message: e.to_string(),
    };
    let staged = staging.keep();
    let old = parent.join(format!(".{name}.replaced-{}", std::process::id()));
    let had_old = out.exists();
    if had_old {
        std::fs::rename(out, &old).map_err(output)?;
    }
    if let Err(e) = std::fs::rename(&staged, out) {
        if had_old {
            let _ = std::fs::rename(&old, out);
        }
        let _ = std::fs::remove_dir_all(&staged);
        return Err(output(e));
    }
    if had_old {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
}

/// `out` may be absent, an empty folder, or an earlier merge (its run.json lists the
/// shards it was merged from). Anything else is the user's and is left alone.
fn check_out_is_replaceable(out: &Path) -> Result<(), MergeError> {
    let refuse = |why: &str| MergeError::Output {
        path: out.to_owned(),
        message: format!("{why}; choose another --out (nab merge replaces only an earlier merge)"),
    };
    let meta = match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(refuse(&e.to_string())),
        Ok(m) => m,
    };
    if !meta.is_dir() {
        return Err(refuse("exists and is not a folder"));
    }
    let empty = std::fs::read_dir(out)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false);
    if empty {
        return Ok(());
    }
    match RunMeta::read(out) {
        Ok(m) if !m.merged_from.is_empty() => Ok(()),
        _ => Err(refuse("holds files that are not an earlier merge")),
    }
}

/// Loads every shard folder with the default limits.
pub fn open_all(dirs: &[PathBuf], limits: Limits) -> Result<Vec<ShardRun>, MergeError> {
    dirs.iter().map(|d| ShardRun::open(d, limits)).collect()
}

/// The suite's folder as the merged run.json records it (relative to `--out` when both
/// are on one tree), once its hash is the shards'.
pub fn tasks_dir(
    tasks: Option<&Path>,
    out: &Path,
    shards: &[ShardRun],
    meta: &RunMeta,
) -> Option<PathBuf> {
    let found = match tasks {
        Some(t) => Some(nab_protocol::resolve_tasks_dir(
            meta,
            Path::new("."),
            Some(t),
        )),
        None => shards.iter().find_map(|s| {
            nab_protocol::resolve_tasks_dir(&s.meta, &s.dir, None)
                .ok()
                .map(Ok)
        }),
    };
    let dir = match found? {
        Ok(d) => d,
        Err(e) => {
            eprintln!("warning: {e}");
            return None;
        }
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).ok()?;
    let out = parent.canonicalize().ok()?.join(out.file_name()?);
    let tasks = dir.canonicalize().ok()?;
    Some(crate::run::meta::relative(&out, &tasks).unwrap_or(tasks))
}

#[cfg(test)]
mod tests;
