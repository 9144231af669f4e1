//! Human review of pairwise comparisons: a blind, seeded, task-stratified sample of the
//! pairs `nab compare --judge SPEC` judged (its `--pairs-out` file, default
//! `<candidate>/pairwise.jsonl`), with a seeded coin deciding which run is shown as A (so
//! the reviewer cannot learn a position), and agreement of the human's winner with each
//! judge's swap-checked outcome (plain Cohen's kappa; `inconsistent` counts as a tie,
//! as in the pairwise score).

use super::agreement::{AgreementRow, pairwise_agreement};
use super::blind::write_export;
use super::export::{
    ExportSummary, Sample, distinct_tasks, redact, render_html, secret_names, stratified_sample,
};
use super::{KeyEntry, PairwiseKey, ReviewKey};
use crate::error::JudgeError;
use crate::material::TrialMaterial;
use crate::pairwise::{map_back, read_pairs};
use crate::parse::Side;
use crate::rubric::Rubric;
use crate::seeded::Seeded;
use nab_protocol::RunFolder;
use nab_protocol::Winner;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Serialize)]
struct Shown {
    diff: String,
    trajectory: String,
}

#[derive(Serialize)]
struct BlindPair {
    item: String,
    task: String,
    instruction: String,
    a: Shown,
    b: Shown,
}

/// A judged pair of the compare output: its (task, trial), judge and swap-checked
/// winner (`None` for a judge or model error; `inconsistent` counts as a tie).
struct Judged {
    task_id: String,
    trial: u32,
    judge: String,
    preference: Option<Winner>,
}

fn read_judged(path: &Path) -> Result<Vec<Judged>, JudgeError> {
    read_pairs(path)?
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let missing = |field: &str| JudgeError::Verdicts {
                path: path.to_owned(),
                line: i + 1,
                message: format!(
                    "missing field `{field}`; is this the pairs file `nab compare --judge` wrote (`--pairs-out`)?"
                ),
            };
            Ok(Judged {
                trial: p.trial.ok_or_else(|| missing("trial"))?,
                judge: p.judge_model.clone().ok_or_else(|| missing("judge_model"))?,
                preference: p.outcome.verdict().map(|(w, _)| w),
                task_id: p.task_id,
            })
        })
        .collect()
}

/// Writes a blind review of a sample of the judged pairs of `pairwise_file`: each item
/// shows both runs' work on one (task, trial), a seeded coin deciding which is A.
pub fn export_pairwise(
    baseline: &RunFolder,
    candidate: &RunFolder,
    pairwise_file: &Path,
    rubric: &Rubric,
    tasks_dir: &Path,
    out_dir: &Path,
    sample: Sample,
) -> Result<ExportSummary, JudgeError> {
    let keys = judged_trials(pairwise_file)?;
    let picked = stratified_sample(&keys, sample.fraction_of(keys.len()), sample.seed);
    let mut names = secret_names(&baseline.records);
    names.extend(secret_names(&candidate.records));
    names.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    names.dedup();
    let mut rng = Seeded::new(sample.seed ^ 0x0ab0_5eed);
    let mut order: Vec<usize> = (0..picked.len()).collect();
    rng.shuffle(&mut order);
    let (mut items, mut entries, mut candidate_is_a) = (Vec::new(), Vec::new(), Vec::new());
    for (n, &i) in order.iter().enumerate() {
        let (task, trial) = &picked[i];
        let bm = load_trial(baseline, task, *trial, tasks_dir)?;
        let cm = load_trial(candidate, task, *trial, tasks_dir)?;
        let item = format!("pair-{:03}", n + 1);
        let cand_first = rng.index(2) == 1;
        if cand_first {
            candidate_is_a.push(item.clone());
        }
        items.push(blind_pair(&item, task, &bm, &cm, cand_first, &names));
        entries.push(KeyEntry {
            item,
            task_id: task.clone(),
            trial: *trial,
        });
    }
    let form = render_html(
        "review_pairwise_form.html.j2",
        include_str!("../../templates/review_pairwise_form.html.j2"),
        rubric,
        &items,
    )?;
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    let key = ReviewKey {
        run_dir: canon(candidate.dir()),
        rubric_id: rubric.id.clone(),
        rubric_hash: rubric.hash.clone(),
        fraction: sample.fraction,
        seed: sample.seed,
        items: entries,
        pairwise: Some(PairwiseKey {
            baseline_dir: canon(baseline.dir()),
            pairwise_file: canon(pairwise_file),
            candidate_is_a,
        }),
    };
    let tasks = distinct_tasks(items.iter().map(|i| i.task.as_str()));
    write_export(out_dir, &items, &form, &key, keys.len(), tasks)
}

/// The (task, trial) keys, sorted and distinct, that some judge judged without an error:
/// the pairs eligible for review.
fn judged_trials(pairwise_file: &Path) -> Result<Vec<(String, u32)>, JudgeError> {
    let mut keys: Vec<(String, u32)> = read_judged(pairwise_file)?
        .iter()
        .filter(|p| p.preference.is_some())
        .map(|p| (p.task_id.clone(), p.trial))
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        return Err(JudgeError::RunDir {
            path: pairwise_file.to_owned(),
            message: "no judged pair without an error; nothing to review".into(),
        });
    }
    Ok(keys)
}

/// The material of trial `task`/`trial` of `run`, which must be in its results.
fn load_trial(
    run: &RunFolder,
    task: &str,
    trial: u32,
    tasks_dir: &Path,
) -> Result<TrialMaterial, JudgeError> {
    let record = run
        .records
        .iter()
        .find(|r| r.task_id == task && r.trial == trial)
        .ok_or_else(|| JudgeError::RunDir {
            path: run.dir().to_owned(),
            message: format!("trial {task}/{trial} is not in results.jsonl"),
        })?;
    TrialMaterial::load(run, record, tasks_dir)
}

/// One blind item: both sides redacted, the candidate shown as A when `cand_first`.
fn blind_pair(
    item: &str,
    task: &str,
    bm: &TrialMaterial,
    cm: &TrialMaterial,
    cand_first: bool,
    names: &[String],
) -> BlindPair {
    let side = |m: &TrialMaterial| Shown {
        diff: redact(&m.diff, names),
        trajectory: redact(&m.trajectory.render(), names),
    };
    let (a, b) = if cand_first {
        (side(cm), side(bm))
    } else {
        (side(bm), side(cm))
    };
    BlindPair {
        item: item.to_owned(),
        task: task.to_owned(),
        instruction: redact(&cm.instruction, names),
        a,
        b,
    }
}

/// Human winners (item → A/B/tie) against every judge's outcome on the same pairs.
pub(super) fn pairwise_rows(
    key: &ReviewKey,
    pk: &PairwiseKey,
    humans: &[(String, Side)],
    resamples: usize,
    seed: u64,
) -> Result<Vec<AgreementRow>, JudgeError> {
    let judged = read_judged(&pk.pairwise_file)?;
    let mut by_judge: BTreeMap<String, Vec<(Winner, Winner)>> = BTreeMap::new();
    for (item, winner) in humans {
        let Some(entry) = key.items.iter().find(|k| &k.item == item) else {
            continue;
        };
        let human = map_back(*winner, pk.candidate_is_a.contains(item));
        for j in judged
            .iter()
            .filter(|j| j.task_id == entry.task_id && j.trial == entry.trial)
        {
            if let Some(p) = j.preference {
                by_judge
                    .entry(j.judge.clone())
                    .or_default()
                    .push((human, p));
            }
        }
    }
    Ok(by_judge
        .iter()
        .map(|(judge, pairs)| pairwise_agreement(judge, pairs, resamples, seed))
        .collect())
}
