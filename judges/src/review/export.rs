//! The blind, seeded, task-stratified review sample.
//!
//! Sampling: among trials that have a scored verdict for the rubric, the sample size is
//! ⌈fraction·N⌉, but at least `min_items` (20 by default, or all N when there are fewer):
//! agreement measured on one or two items says nothing. Below, "fraction" is the one the
//! sample is drawn at: the larger of `--fraction` and min_items / N. Each task gets ⌊fraction·nₜ⌋ items, and the remaining slots
//! go to the tasks with the largest remainders (ties broken by a seeded shuffle); within a
//! task, trials are drawn by a seeded shuffle. The same run, fraction and seed always give
//! the same sample.
//!
//! Blindness: items carry an opaque id, the task, the instruction, the diff and the
//! trajectory summary — never the run id, agent, model or the judges' verdicts — and every
//! occurrence of the run's model and agent names inside the texts is replaced by
//! `[redacted]`.

use super::blind::write_export;
use super::{KeyEntry, ReviewKey};
use crate::error::JudgeError;
use crate::grade::is_scored;
use crate::material::TrialMaterial;
use crate::rubric::Rubric;
use crate::seeded::Seeded;
use minijinja::{AutoEscape, Environment, context};
use nab_protocol::RunFolder;
use nab_protocol::TrialRecord;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Agent adapter names that are ordinary words; they name no model and replacing them would
/// mangle code (`null`), so they are not redacted from diffs.
const GENERIC_AGENT_NAMES: &[&str] = &["null", "oracle"];

#[derive(Debug, Clone, Serialize)]
struct BlindItem {
    item: String,
    task: String,
    instruction: String,
    diff: String,
    trajectory: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExportSummary {
    pub eligible: usize,
    pub sampled: usize,
    pub tasks: usize,
    pub items_path: PathBuf,
    pub form_path: PathBuf,
    pub key_path: PathBuf,
}

/// How a review sample is drawn: the fraction of the eligible items, the fewest items it
/// holds, and the seed of its shuffles. [`Sample::new`] refuses a fraction outside (0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// In (0, 1].
    pub fraction: f64,
    /// The fewest items drawn (all of them when fewer are eligible).
    pub min_items: usize,
    /// The seed of every shuffle of the sample.
    pub seed: u64,
}

/// The fewest items a review sample holds by default: enough for an agreement figure with
/// an interval narrower than the whole scale.
pub const DEFAULT_MIN_ITEMS: usize = 20;

impl Sample {
    /// A sample of `fraction` (in (0, 1], as `--fraction` says) drawn with `seed`.
    pub fn new(fraction: f64, seed: u64) -> Result<Sample, JudgeError> {
        if !(fraction > 0.0 && fraction <= 1.0) {
            return Err(JudgeError::Invalid(format!(
                "--fraction {fraction} is not allowed; use a number in (0, 1]"
            )));
        }
        Ok(Sample {
            fraction,
            min_items: DEFAULT_MIN_ITEMS,
            seed,
        })
    }

    /// The fraction drawn from `eligible` items: `fraction`, raised to reach `min_items`.
    pub fn fraction_of(&self, eligible: usize) -> f64 {
        if eligible == 0 {
            return self.fraction;
        }
        self.fraction
            .max(self.min_items as f64 / eligible as f64)
            .min(1.0)
    }
}

/// Picks `(task, trial)` keys: see the module docs.
pub fn stratified_sample(
    eligible: &[(String, u32)],
    fraction: f64,
    seed: u64,
) -> Vec<(String, u32)> {
    let mut by_task: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (task, trial) in eligible {
        by_task.entry(task).or_default().push(*trial);
    }
    if by_task.is_empty() {
        return Vec::new();
    }
    let mut rng = Seeded::new(seed);
    let total = ((fraction * eligible.len() as f64).ceil() as usize).clamp(1, eligible.len());
    let mut tasks: Vec<(&str, Vec<u32>)> = by_task.into_iter().collect();
    for (_, trials) in tasks.iter_mut() {
        trials.sort_unstable();
        rng.shuffle(trials);
    }
    rng.shuffle(&mut tasks);
    let mut quota: Vec<usize> = tasks
        .iter()
        .map(|(_, t)| (fraction * t.len() as f64).floor() as usize)
        .collect();
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    let remainder = |i: usize| fraction * tasks[i].1.len() as f64 - quota[i] as f64;
    // Stable sort keeps the seeded order among equal remainders.
    order.sort_by(|&a, &b| remainder(b).total_cmp(&remainder(a)));
    let mut left = total.saturating_sub(quota.iter().sum());
    for &i in order.iter().cycle().take(order.len() * 4) {
        if left == 0 {
            break;
        }
        if quota[i] < tasks[i].1.len() {
            quota[i] += 1;
            left -= 1;
        }
    }
    let mut picked: Vec<(String, u32)> = tasks
        .iter()
        .zip(&quota)
        .flat_map(|((task, trials), &q)| trials.iter().take(q).map(|t| (task.to_string(), *t)))
        .collect();
    picked.sort();
    picked
}

/// Names that must not appear in the blind files.
pub(crate) fn secret_names(records: &[TrialRecord]) -> Vec<String> {
    let mut names = Vec::new();
    for r in records {
        names.push(r.run_id.clone());
        if !GENERIC_AGENT_NAMES.contains(&r.agent.as_str()) {
            names.push(r.agent.clone());
            if let Some(rest) = r.agent.strip_prefix("command:") {
                names.extend(
                    Path::new(rest)
                        .file_name()
                        .map(|f| f.to_string_lossy().into_owned()),
                );
            }
        }
        if let Some(model) = &r.model {
            names.push(model.clone());
            let bare = model.split_once(':').map_or(model.as_str(), |(_, m)| m);
            let bare = bare.split_once('@').map_or(bare, |(m, _)| m);
            names.push(bare.to_owned());
        }
    }
    names.retain(|n| n.len() >= 3);
    // Longest first, so `openai:x` is replaced before `x`.
    names.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    names.dedup();
    names
}

/// Case-insensitive (ASCII) replacement of every name by `[redacted]`.
pub fn redact(text: &str, names: &[String]) -> String {
    let mut out = text.to_owned();
    for name in names {
        let needle = name.to_ascii_lowercase();
        let mut result = String::with_capacity(out.len());
        let hay = out.to_ascii_lowercase();
        let mut last = 0;
        for (at, _) in hay.match_indices(&needle) {
            if at < last {
                continue;
            }
            result.push_str(&out[last..at]);
            result.push_str("[redacted]");
            last = at + needle.len();
        }
        result.push_str(&out[last..]);
        out = result;
    }
    out
}

/// Writes a blind review of a sample of the trials of `run` that have a scored verdict for
/// `rubric`.
pub fn export(
    run: &RunFolder,
    rubric: &Rubric,
    tasks_dir: &Path,
    out_dir: &Path,
    sample: Sample,
) -> Result<ExportSummary, JudgeError> {
    let eligible = scored_trials(run, rubric)?;
    let keys: Vec<(String, u32)> = eligible
        .iter()
        .map(|r| (r.task_id.clone(), r.trial))
        .collect();
    let picked = stratified_sample(&keys, sample.fraction_of(keys.len()), sample.seed);
    let names = secret_names(&run.records);
    let mut items = Vec::new();
    let mut entries = Vec::new();
    // Item numbers follow a seeded shuffle so their order reveals nothing either.
    let mut order: Vec<usize> = (0..picked.len()).collect();
    Seeded::new(sample.seed ^ 0x5eed_0f17).shuffle(&mut order);
    for (n, &i) in order.iter().enumerate() {
        let (task, trial) = &picked[i];
        let record = eligible
            .iter()
            .find(|r| &r.task_id == task && r.trial == *trial)
            .ok_or_else(|| JudgeError::Invalid("sampled trial vanished".into()))?;
        let item = format!("item-{:03}", n + 1);
        items.push(blind_item(run, record, &item, tasks_dir, &names)?);
        entries.push(KeyEntry {
            item,
            task_id: task.clone(),
            trial: *trial,
        });
    }

    let run_dir = std::fs::canonicalize(run.dir()).unwrap_or_else(|_| run.dir().to_owned());
    let key = ReviewKey {
        run_dir,
        rubric_id: rubric.id.clone(),
        rubric_hash: rubric.hash.clone(),
        fraction: sample.fraction,
        seed: sample.seed,
        items: entries,
        pairwise: None,
    };
    let tasks = distinct_tasks(items.iter().map(|i| i.task.as_str()));
    write_export(
        out_dir,
        &items,
        &render_form(rubric, &items)?,
        &key,
        eligible.len(),
        tasks,
    )
}

/// The trials of `run` with a scored verdict for `rubric`; none is an error.
fn scored_trials<'a>(
    run: &'a RunFolder,
    rubric: &Rubric,
) -> Result<Vec<&'a TrialRecord>, JudgeError> {
    let eligible: Vec<&TrialRecord> = run
        .records
        .iter()
        .filter(|r| {
            r.judges
                .iter()
                .any(|j| j.rubric_id == rubric.id && is_scored(j))
        })
        .collect();
    if eligible.is_empty() {
        return Err(JudgeError::RunDir {
            path: run.dir().to_owned(),
            message: format!(
                "no trial has a scored verdict for rubric `{}`; run `nab judge --run {}` first",
                rubric.id,
                run.dir().display()
            ),
        });
    }
    Ok(eligible)
}

/// One trial's redacted material under its opaque item id.
fn blind_item(
    run: &RunFolder,
    record: &TrialRecord,
    item: &str,
    tasks_dir: &Path,
    names: &[String],
) -> Result<BlindItem, JudgeError> {
    let m = TrialMaterial::load(run, record, tasks_dir)?;
    Ok(BlindItem {
        item: item.to_owned(),
        task: record.task_id.clone(),
        instruction: redact(&m.instruction, names),
        diff: redact(&m.diff, names),
        trajectory: redact(&m.trajectory.render(), names),
    })
}

/// How many distinct tasks the items cover.
pub(crate) fn distinct_tasks<'a>(tasks: impl Iterator<Item = &'a str>) -> usize {
    tasks.collect::<std::collections::BTreeSet<_>>().len()
}

fn render_form(rubric: &Rubric, items: &[BlindItem]) -> Result<String, JudgeError> {
    render_html(
        "review_form.html.j2",
        include_str!("../../templates/review_form.html.j2"),
        rubric,
        items,
    )
}

pub(crate) fn render_html<T: Serialize>(
    name: &'static str,
    source: &'static str,
    rubric: &Rubric,
    items: &[T],
) -> Result<String, JudgeError> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    let err = |e: minijinja::Error| JudgeError::Template {
        template: name.into(),
        message: format!("{e:#}"),
    };
    env.add_template(name, source).map_err(err)?;
    env.get_template(name)
        .map_err(err)?
        .render(context! { rubric => rubric, items => items })
        .map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_seeded_stratified_and_sized() {
        let eligible: Vec<(String, u32)> = (0..28)
            .flat_map(|t| (0..3).map(move |i| (format!("task-{t:02}"), i)))
            .collect();
        let a = stratified_sample(&eligible, 0.1, 42);
        assert_eq!(a, stratified_sample(&eligible, 0.1, 42));
        assert_ne!(a, stratified_sample(&eligible, 0.1, 43));
        // ⌈0.1·84⌉ = 9 items, each from a different task (all tasks have equal remainders).
        assert_eq!(a.len(), 9);
        let tasks: std::collections::BTreeSet<&str> = a.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(tasks.len(), 9);
        // A task with many trials gets its proportional share: 20 trials at 0.5 → 10.
        let mut skewed: Vec<(String, u32)> = (0..20).map(|i| ("big".to_owned(), i)).collect();
        skewed.extend((0..2).map(|i| ("small".to_owned(), i)));
        let s = stratified_sample(&skewed, 0.5, 1);
        assert_eq!(s.iter().filter(|(t, _)| t == "big").count(), 10);
        assert_eq!(s.iter().filter(|(t, _)| t == "small").count(), 1);
    }

    #[test]
    fn a_small_fraction_still_draws_the_minimum() {
        let s = Sample::new(0.1, 7).unwrap();
        assert_eq!(s.min_items, DEFAULT_MIN_ITEMS);
        // 10 eligible at 0.1 would be 1 item: all 10 are drawn instead.
        assert_eq!(s.fraction_of(10), 1.0);
        let ten: Vec<(String, u32)> = (0..10).map(|i| (format!("t{i}"), 0)).collect();
        assert_eq!(stratified_sample(&ten, s.fraction_of(10), 7).len(), 10);
        // 400 eligible at 0.1 is 40, above the minimum: the fraction stands.
        assert_eq!(s.fraction_of(400), 0.1);
        // 84 eligible: 20 drawn, not 9.
        let eligible: Vec<(String, u32)> = (0..28)
            .flat_map(|t| (0..3).map(move |i| (format!("task-{t:02}"), i)))
            .collect();
        assert_eq!(stratified_sample(&eligible, s.fraction_of(84), 7).len(), 20);
        let custom = Sample { min_items: 1, ..s };
        assert_eq!(
            stratified_sample(&eligible, custom.fraction_of(84), 7).len(),
            9
        );
    }

    #[test]
    fn redaction_is_case_insensitive() {
        let names = vec!["deepseek-chat".to_owned()];
        assert_eq!(
            redact("by DeepSeek-Chat, deepseek-chat.", &names),
            "by [redacted], [redacted]."
        );
    }
}
