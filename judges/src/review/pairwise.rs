//! Human review of pairwise comparisons: a blind, seeded, task-stratified sample of the
//! pairs `nab compare --judge SPEC` judged (its `--pairs-out` file, default
//! `<candidate>/pairwise.jsonl`), with a seeded coin deciding which run is shown as A (so
//! the reviewer cannot learn a position), and agreement of the human's winner with each
//! judge's swap-checked outcome (plain Cohen's kappa; `inconsistent` counts as a tie,
//! as in the pairwise score).

use super::agreement::{AgreementRow, pairwise_agreement};
use super::blind::write_export;
use super::export::{ExportSummary, Sample, redact, render_html, secret_names, stratified_sample};
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

pub fn export_pairwise(
    baseline: &RunFolder,
    candidate: &RunFolder,
    pairwise_file: &Path,
    rubric: &Rubric,
    tasks_dir: &Path,
    out_dir: &Path,
    sample: Sample,
) -> Result<ExportSummary, JudgeError> {
    let pairs = read_judged(pairwise_file)?;
    let mut keys: Vec<(String, u32)> = pairs
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
    let picked = stratified_sample(&keys, sample.fraction, sample.seed);
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
        let find = |run: &RunFolder| {
            run.records
                .iter()
                .find(|r| &r.task_id == task && r.trial == *trial)
                .cloned()
                .ok_or_else(|| JudgeError::RunDir {
                    path: run.dir().to_owned(),
                    message: format!("trial {task}/{trial} is not in results.jsonl"),
                })
        };
        let bm = TrialMaterial::load(baseline, &find(baseline)?, tasks_dir)?;
        let cm = TrialMaterial::load(candidate, &find(candidate)?, tasks_dir)?;
        let side = |m: &TrialMaterial| Shown {
            diff: redact(&m.diff, &names),
            trajectory: redact(&m.trajectory.render(), &names),
        };
        let item = format!("pair-{:03}", n + 1);
        let cand_first = rng.index(2) == 1;
        let (a, b) = if cand_first {
            (side(&cm), side(&bm))
        } else {
            (side(&bm), side(&cm))
        };
        if cand_first {
            candidate_is_a.push(item.clone());
        }
        items.push(BlindPair {
            item: item.clone(),
            task: task.clone(),
            instruction: redact(&cm.instruction, &names),
            a,
            b,
        });
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
    let tasks = items
        .iter()
        .map(|i| i.task.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    write_export(out_dir, &items, &form, &key, keys.len(), tasks)
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
