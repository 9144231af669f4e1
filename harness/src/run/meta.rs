//! `run.json` for `nab run` and each run of `nab sweep`: what the run was (agent, model,
//! tasks folder and the suite's hash, trials), which the report, `nab judge`, `nab compare`
//! and `nab review` read back.

use nab_protocol::{RUN_META_VERSION, RunMeta, ShardMeta};
use std::path::{Component, Path, PathBuf};

/// The suite a run uses: its folder and the ids of the tasks it runs.
pub struct Suite<'a> {
    pub dir: &'a Path,
    pub ids: &'a [String],
}

/// `--shard` and `--group`: which share of which sharded run this is.
#[derive(Debug, Clone, Default)]
pub struct Sharding {
    pub shard: Option<ShardMeta>,
    pub group: Option<String>,
}

/// Writes `<out>/run.json` before the first trial. On `--resume` the original start time
/// is kept, and the shard and group must be the ones the run started with.
#[allow(clippy::too_many_arguments)]
pub fn start(
    out: &Path,
    run_id: &str,
    agent: &str,
    model: Option<&str>,
    suite: Suite<'_>,
    trials: u32,
    resume: bool,
    sharding: Sharding,
) -> anyhow::Result<RunMeta> {
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("cannot create the output folder {}: {e}", out.display()))?;
    let before = if resume {
        RunMeta::read(out)?
    } else {
        RunMeta::default()
    };
    if resume && (before.shard != sharding.shard || before.group != sharding.group) {
        anyhow::bail!(
            "{} is {}; resume it with the same --shard, --group and --balance-from it started with",
            out.display(),
            match (&before.shard, &before.group) {
                (Some(s), g) => format!(
                    "shard {}/{} of group {} (plan {})",
                    s.index,
                    s.count,
                    g.as_deref().unwrap_or("(none)"),
                    s.plan
                ),
                (None, _) => "not a shard".into(),
            }
        );
    }
    let meta = RunMeta {
        v: RUN_META_VERSION,
        run_id: Some(run_id.to_owned()),
        agent: Some(agent.to_owned()),
        model: model.map(str::to_owned),
        tasks_dir: Some(tasks_dir_from(out, suite.dir)),
        tasks_hash: Some(nab_protocol::suite_hash(suite.dir, suite.ids)?),
        task_hashes: nab_protocol::task_hashes(suite.dir, suite.ids)?,
        // A sweep names its runs after writing this (its `aliases:`); a resumed run keeps it.
        label: before.label,
        task_ids: suite.ids.to_vec(),
        trials: Some(trials),
        started_at: before
            .started_at
            .or_else(|| Some(nab_protocol::now_rfc3339())),
        finished_at: None,
        nab_version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        command: Some(std::env::args().collect::<Vec<_>>().join(" ")),
        shard: sharding.shard,
        group: sharding.group,
        merged_from: Vec::new(),
        provenance: before.provenance,
    };
    meta.write(out)?;
    Ok(meta)
}

/// The tasks folder as run.json stores it: relative to the run folder when both are on
/// one tree (so a checkout can move), else absolute.
fn tasks_dir_from(out: &Path, tasks: &Path) -> PathBuf {
    let (Ok(out), Ok(tasks)) = (out.canonicalize(), tasks.canonicalize()) else {
        return tasks.to_owned();
    };
    relative(&out, &tasks).unwrap_or(tasks)
}

/// `to` relative to `from` (both absolute and normalised).
pub(crate) fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut rel = PathBuf::new();
    for _ in common..f.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c);
    }
    Some(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite<'a>(dir: &'a Path, ids: &'a [String]) -> Suite<'a> {
        Suite { dir, ids }
    }

    /// Starts run `r1` of the oracle on `ids` of `tasks` in `out`, unsharded.
    fn start_oracle(out: &Path, tasks: &Path, ids: &[String], trials: u32, resume: bool) {
        start(
            out,
            "r1",
            "oracle",
            None,
            suite(tasks, ids),
            trials,
            resume,
            Sharding::default(),
        )
        .unwrap();
    }

    #[test]
    fn relative_paths_climb_out_of_the_run_folder() {
        assert_eq!(
            relative(Path::new("/r/runs/x"), Path::new("/r/tasks")).unwrap(),
            PathBuf::from("../../tasks")
        );
        assert_eq!(
            relative(Path::new("/r"), Path::new("/r/tasks")).unwrap(),
            PathBuf::from("tasks")
        );
    }

    #[test]
    fn run_json_points_back_at_the_tasks() {
        let root = tempfile::tempdir().unwrap();
        let tasks = root.path().join("tasks");
        std::fs::create_dir_all(tasks.join("t1")).unwrap();
        std::fs::write(tasks.join("t1/instruction.md"), "do it").unwrap();
        let ids = ["t1".to_owned()];
        let out = root.path().join("runs").join("r1");
        start_oracle(&out, &tasks, &ids, 2, false);
        let meta = RunMeta::read(&out).unwrap();
        assert_eq!(meta.tasks_dir.as_deref(), Some(Path::new("../../tasks")));
        assert_eq!(
            meta.tasks_dir_in(&out).unwrap().canonicalize().unwrap(),
            tasks.canonicalize().unwrap()
        );
        assert_eq!(meta.agent.as_deref(), Some("oracle"));
        assert_eq!(meta.trials, Some(2));
        let started = meta.started_at.clone();
        start_oracle(&out, &tasks, &ids, 2, true);
        assert_eq!(RunMeta::read(&out).unwrap().started_at, started);
    }

    #[test]
    fn a_run_folder_copied_elsewhere_checks_the_tasks_it_is_given() {
        let root = tempfile::tempdir().unwrap();
        let tasks = root.path().join("suite/tasks");
        std::fs::create_dir_all(tasks.join("t1")).unwrap();
        std::fs::write(tasks.join("t1/instruction.md"), "do it").unwrap();
        let out = root.path().join("suite/runs/r1");
        start_oracle(&out, &tasks, &["t1".into()], 1, false);
        let meta = RunMeta::read(&out).unwrap();
        assert!(meta.tasks_hash.as_deref().unwrap().starts_with("sha256:"));
        // Each task's own hash too, so subsets of the suite can be compared.
        assert_eq!(
            meta.task_hashes.keys().collect::<Vec<_>>(),
            meta.task_ids.iter().collect::<Vec<_>>()
        );
        assert_eq!(meta.task_ids, ["t1"]);

        // The artifact is downloaded somewhere else: ../../tasks no longer leads anywhere.
        let copy = root.path().join("downloads/r1");
        std::fs::create_dir_all(&copy).unwrap();
        let file = nab_protocol::RUN_META_FILE;
        std::fs::copy(out.join(file), copy.join(file)).unwrap();
        let meta = RunMeta::read(&copy).unwrap();
        let resolve = nab_protocol::resolve_tasks_dir;
        assert_eq!(resolve(&meta, &copy, Some(&tasks)).unwrap(), tasks);

        std::fs::write(tasks.join("t1/instruction.md"), "do something else").unwrap();
        let err = resolve(&meta, &copy, Some(&tasks)).unwrap_err();
        assert!(
            matches!(err, nab_protocol::SuiteError::Mismatch { .. }),
            "{err}"
        );
    }
}
