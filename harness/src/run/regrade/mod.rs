//! `nab regrade`: a published bundle checked here, with no model and no key. Each
//! re-gradable trial is run again: the same agent, its own recorded answers as its model
//! (`replay:`, one cassette per trial), the local hidden tests as its verifier. Its verdict,
//! tests, steps and tokens must come out as the bundle records them.
//!
//! The pieces, in the order the command uses them: [`Workspace`] (the bundle unpacked and
//! checked), [`suite_problems`] (the local suite is the one the run used), [`plan`] (which
//! trials, in which share), [`cassettes`] (each trial's answers written for `replay:`), then
//! the ordinary runner, then [`compare`].

pub mod cassettes;
pub mod compare;
pub mod outcome;
pub mod replay;

use crate::run::bundle::open::{Limits, unpack};
use crate::run::bundle::regradable::why_not;
use crate::task::Task;
use crate::task::pinned::LOCK_FILE;
use nab_protocol::{BundleManifest, BundledRun, RunFolder};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The regrade's folder: the bundle unpacked (`bundle/`), each trial's cassette
/// (`cassettes/`), the runs played again (`runs/`), and what was found (`regrade.md`).
#[derive(Debug)]
pub struct Workspace {
    pub root: PathBuf,
    pub manifest: BundleManifest,
    /// `sha256:<hex>` of the bundle file.
    pub bundle_sha256: String,
}

/// The name a run has under `cassettes/` and `runs/`: its folder in the sweep, or `run`.
pub fn run_name(run: &BundledRun) -> &str {
    if run.dir.is_empty() { "run" } else { &run.dir }
}

impl Workspace {
    /// Unpacks and checks `bundle` into `root/bundle`. A folder left by an earlier regrade
    /// of the same bundle is reused (its finished trials are kept); one of another bundle
    /// is refused.
    pub fn open(bundle: &Path, root: &Path) -> anyhow::Result<Workspace> {
        let bundle_sha256 = crate::run::provenance::file_sha256(bundle)
            .map_err(|e| anyhow::anyhow!("cannot read the bundle {}: {e}", bundle.display()))?;
        let stamp = root.join("bundle.sha256");
        match std::fs::read_to_string(&stamp) {
            Ok(s) if s.trim() != bundle_sha256 => anyhow::bail!(
                "{} holds the regrade of another bundle ({}); choose another --out",
                root.display(),
                s.trim()
            ),
            Err(_) if root.exists() && std::fs::read_dir(root)?.next().is_some() => anyhow::bail!(
                "{} exists and is not a regrade folder; choose another --out",
                root.display()
            ),
            _ => {}
        }
        let unpacked = root.join("bundle");
        if unpacked.exists() {
            std::fs::remove_dir_all(&unpacked)?;
        }
        let manifest = unpack(bundle, &unpacked, Limits::default())?;
        std::fs::write(&stamp, format!("{bundle_sha256}\n"))?;
        let mut ws = Workspace {
            root: root.to_owned(),
            manifest,
            bundle_sha256,
        };
        ws.judge_regradable()?;
        Ok(ws)
    }

    /// Which trials can be played again is decided here, from the bundle's files, never
    /// taken from the manifest: its author could mark a forged pass "not re-gradable" to
    /// keep it from being checked. (A pass that cannot be played again fails the regrade.)
    fn judge_regradable(&mut self) -> anyhow::Result<()> {
        let root = self.root.join("bundle");
        for run in &mut self.manifest.runs {
            let folder = RunFolder::open(&root.join(&run.dir))?;
            let prefix = if run.dir.is_empty() {
                String::new()
            } else {
                format!("{}/", run.dir)
            };
            for t in &mut run.trials {
                let Some(record) = folder
                    .records
                    .iter()
                    .find(|r| r.task_id == t.task && r.trial == t.trial)
                else {
                    continue;
                };
                let dir = folder.trial_dir(record)?;
                let transcript = format!(
                    "{prefix}{}/{}/{}/{}",
                    nab_protocol::TRIALS_DIR,
                    t.task,
                    t.trial,
                    nab_protocol::TRANSCRIPT_FILE
                );
                let redacted = self.manifest.redactions.contains_key(&transcript);
                t.not_regradable = why_not(record, dir.path(), redacted);
                // A trial of an agent other than the run's is not this run's trial.
                if run.agent.as_deref() != Some(record.agent.as_str()) {
                    t.not_regradable = Some(format!(
                        "its record names agent `{}`, the run `{}`",
                        record.agent,
                        run.agent.as_deref().unwrap_or("")
                    ));
                }
            }
        }
        Ok(())
    }

    /// A run's folder as the bundle holds it.
    pub fn bundled(&self, run: &BundledRun) -> PathBuf {
        self.root.join("bundle").join(&run.dir)
    }

    /// Where a run's trials are played again.
    pub fn replayed(&self, run: &BundledRun) -> PathBuf {
        self.root.join("runs").join(run_name(run))
    }

    /// Where a run's per-trial cassettes go.
    pub fn cassettes(&self, run: &BundledRun) -> PathBuf {
        self.root.join("cassettes").join(run_name(run))
    }
}

/// Where the local suite is not the one `run` used: its hash over the run's tasks (naming
/// the tasks that differ, when the bundle has their hashes) and the pinned test set.
pub fn suite_problems(run: &BundledRun, task_ids: &[String], tasks_dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let name = run_name(run);
    match (&run.tasks_hash, nab_protocol::suite_hash(tasks_dir, task_ids)) {
        (_, Err(e)) => problems.push(format!("{name}: the suite in {}: {e}", tasks_dir.display())),
        (Some(want), Ok(have)) if *want != have => {
            let differing: Vec<&String> = run
                .task_hashes
                .iter()
                .filter(|(id, h)| {
                    nab_protocol::suite_hash(tasks_dir, std::slice::from_ref(id)).ok().as_ref() != Some(h)
                })
                .map(|(id, _)| id)
                .collect();
            problems.push(format!(
                "{name}: the suite differs: the run used {want}, {} gives {have}{}",
                tasks_dir.display(),
                if differing.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (tasks that differ: {})",
                        differing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    )
                }
            ));
        }
        (None, Ok(_)) => problems.push(format!(
            "{name}: run.json records no suite hash (a run older than suite hashing cannot be checked)"
        )),
        _ => {}
    }
    // A run from before provenance was recorded is checked by its suite hash alone (which
    // covers every file of its tasks, hidden tests included).
    let Some(provenance) = &run.provenance else {
        return problems;
    };
    let recorded_lock = provenance.tests_lock.clone();
    let local_lock = crate::run::provenance::file_sha256(&tasks_dir.join(LOCK_FILE)).ok();
    if recorded_lock != local_lock {
        problems.push(format!(
            "{name}: the pinned test set differs: the run's {LOCK_FILE} was {}, {} has {}",
            recorded_lock.as_deref().unwrap_or("absent"),
            tasks_dir.display(),
            local_lock.as_deref().unwrap_or("none")
        ));
    }
    problems
}

/// Where the images built here are not the ones `run` recorded (tags name recipe hashes).
pub fn image_problems(run: &BundledRun, base_image: &str, tasks: &[Arc<Task>]) -> Vec<String> {
    let Some(p) = &run.provenance else {
        return Vec::new();
    };
    let name = run_name(run);
    let mut problems = Vec::new();
    if let Some(want) = &p.base_image
        && want != base_image
    {
        problems.push(format!(
            "{name}: the base image differs: the run used {want}, this machine builds {base_image}"
        ));
    }
    for t in tasks {
        let want = p.task_images.get(t.id());
        if want != t.image.as_ref() {
            problems.push(format!(
                "{name}: task {}'s image differs: the run used {}, this machine builds {}",
                t.id(),
                want.map_or("the base image", |s| s.as_str()),
                t.image.as_deref().unwrap_or("the base image")
            ));
        }
    }
    problems
}

/// One trial to play again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// Index into the manifest's runs.
    pub run: usize,
    pub task: String,
    pub trial: u32,
}

/// Every re-gradable trial of the bundle, in a stable order, only share `k` of `n` with
/// `--shard k/n` (every n-th trial from the k-th); and those that cannot be re-graded, with
/// the reason, as `run task/trial: why`.
pub fn plan(
    manifest: &BundleManifest,
    shard: Option<(usize, usize)>,
) -> (Vec<Planned>, Vec<String>) {
    let mut planned = Vec::new();
    let mut skipped = Vec::new();
    for (i, run) in manifest.runs.iter().enumerate() {
        for t in &run.trials {
            match &t.not_regradable {
                Some(why) => {
                    skipped.push(format!("{} {}/{}: {why}", run_name(run), t.task, t.trial))
                }
                None => planned.push(Planned {
                    run: i,
                    task: t.task.clone(),
                    trial: t.trial,
                }),
            }
        }
    }
    planned.sort_by(|a, b| (a.run, &a.task, a.trial).cmp(&(b.run, &b.task, b.trial)));
    if let Some((k, n)) = shard {
        planned = planned
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, p)| p)
            .collect();
    }
    (planned, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::{BundledTrial, TrialStatus};

    fn manifest() -> BundleManifest {
        let trial = |task: &str, trial, why: Option<&str>| BundledTrial {
            task: task.into(),
            trial,
            status: TrialStatus::Passed,
            not_regradable: why.map(str::to_owned),
        };
        BundleManifest {
            v: 1,
            kind: nab_protocol::BUNDLE_KIND.into(),
            created_at: String::new(),
            nab_version: String::new(),
            sweep: false,
            runs: vec![BundledRun {
                dir: String::new(),
                run_id: None,
                agent: Some("nab-agent".into()),
                model: None,
                tasks_hash: None,
                task_hashes: Default::default(),
                provenance: None,
                trials: vec![
                    trial("b", 0, None),
                    trial("a", 1, None),
                    trial("a", 0, None),
                    trial("c", 0, Some("an infrastructure error")),
                ],
            }],
            files: Default::default(),
            redactions: Default::default(),
        }
    }

    #[test]
    fn the_plan_is_stable_says_what_it_skips_and_shares_cover_it_once() {
        let m = manifest();
        let (all, skipped) = plan(&m, None);
        let names: Vec<String> = all
            .iter()
            .map(|p| format!("{}/{}", p.task, p.trial))
            .collect();
        assert_eq!(names, ["a/0", "a/1", "b/0"]);
        assert_eq!(skipped, ["run c/0: an infrastructure error"]);
        let (one, _) = plan(&m, Some((1, 2)));
        let (two, _) = plan(&m, Some((2, 2)));
        assert_eq!(one.len() + two.len(), all.len());
        assert!(one.iter().all(|p| !two.contains(p)));
    }
}
