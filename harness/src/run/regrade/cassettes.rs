//! Each planned trial's recorded answers written as its own cassette
//! (`<cassettes>/<task>/<trial>/`), keyed under its task's normalizers as `replay:` will
//! key the replayed requests; and the one model name the agent is told.

use crate::run::bundle::regradable::read_transcript;
use crate::task::Task;
use nab_gateway::Normalizer;
use nab_gateway::trial_cassette::TrialAnswers;
use nab_protocol::{RunPaths, TRANSCRIPT_FILE};
use std::collections::BTreeSet;
use std::path::Path;

/// Writes the cassette of trial `trial` of `task` from the bundled run at `bundled` into
/// `root`; returns the model names its requests carried.
pub fn write_one(
    bundled: &Path,
    task: &Task,
    trial: u32,
    root: &Path,
) -> anyhow::Result<BTreeSet<String>> {
    let dir = RunPaths::new(bundled).trial(task.id(), &trial.to_string());
    let lines = read_transcript(&dir.path().join(TRANSCRIPT_FILE))
        .map_err(|e| anyhow::anyhow!("trial {}/{trial}: {e}", task.id()))?;
    let normalizer = Normalizer::with_patterns(&task.spec.replay_normalize)
        .map_err(|e| anyhow::anyhow!("task {}: replay_normalize: {e}", task.id()))?;
    let answers = TrialAnswers::from_transcript(&lines, &normalizer)
        .map_err(|e| anyhow::anyhow!("trial {}/{trial}: {e}", task.id()))?;
    let out = root.join(task.id()).join(trial.to_string());
    if out.exists() {
        std::fs::remove_dir_all(&out)?;
    }
    answers.write(&out)?;
    Ok(lines
        .iter()
        .filter_map(|l| l.request.get("model")?.as_str().map(str::to_owned))
        .collect())
}

/// The one model name a run's recorded requests carry (what nab-agent was told), or why
/// there is not one.
pub fn one_model(models: &BTreeSet<String>) -> anyhow::Result<String> {
    match models.len() {
        1 => Ok(models.iter().next().cloned().unwrap_or_default()),
        // No call was recorded: a replayed call would miss whatever the name.
        0 => Ok("unrecorded".to_owned()),
        _ => anyhow::bail!(
            "the run's requests name several models ({}); a run has one",
            models.iter().cloned().collect::<Vec<_>>().join(", ")
        ),
    }
}
