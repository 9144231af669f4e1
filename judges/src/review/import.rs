//! Importing human verdicts and measuring agreement with each judge.
//!
//! Verdict lines (what the form downloads):
//! `{"item":"item-003","reviewer":"ana","scores":{"readability":4,…},"vetoes":{"tests_tampered":false},"notes":""}`.
//! Scores must be integers 1–5 and vetoes JSON booleans, exactly as for judges. A human may
//! leave a dimension or veto unanswered; it is then left out of that comparison.

use super::agreement::{AgreementRow, agreement_warnings};
use super::{KEY_FILE, ReviewKey};
use crate::error::JudgeError;
use crate::grade::is_scored;
use crate::kappa::{bootstrap_95, cohen_kappa, percent_agreement, quadratic_weighted_kappa};
use crate::parse::Side;
use crate::parse::fields::{Score, StrictBool};
use nab_protocol::JudgeRecord;
use nab_protocol::RunFolder;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HumanVerdict {
    item: String,
    #[serde(default)]
    #[allow(dead_code)]
    reviewer: Option<String>,
    #[serde(default)]
    scores: BTreeMap<String, Score>,
    #[serde(default)]
    vetoes: BTreeMap<String, StrictBool>,
    /// Pairwise reviews only.
    #[serde(default)]
    winner: Option<Side>,
    #[serde(default)]
    #[allow(dead_code)]
    notes: String,
}

/// Why one line of a verdicts file was refused.
#[derive(Debug, thiserror::Error)]
enum VerdictLineError {
    #[error("at `{at}`: {source}")]
    Field {
        at: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("item `{item}` is not in {}", key.display())]
    UnknownItem {
        item: String,
        key: std::path::PathBuf,
    },
    #[error("item `{item}` appears twice")]
    Twice { item: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReviewReport {
    pub items: usize,
    pub threshold: f64,
    pub rows: Vec<AgreementRow>,
    /// One line per row whose kappa is below the threshold or undefined.
    pub warnings: Vec<String>,
}

impl ReviewReport {
    pub fn render_markdown(&self) -> String {
        let f = |x: Option<f64>| x.map_or("n/a".to_owned(), |v| format!("{v:.3}"));
        let mut s = format!(
            "Human review: {} items, kappa threshold {}\n\n| judge | kind | id | n | agreement | kappa | 95% CI |\n|---|---|---|---|---|---|---|\n",
            self.items, self.threshold
        );
        for r in &self.rows {
            let ci = r
                .kappa_ci95
                .map_or("n/a".to_owned(), |c| format!("[{:.3}, {:.3}]", c.lo, c.hi));
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {ci} |\n",
                r.judge,
                r.kind,
                r.id,
                r.n,
                f(r.percent_agreement),
                f(r.kappa)
            ));
        }
        for w in &self.warnings {
            s.push_str(&format!("\nWARNING: {w}"));
        }
        s
    }
}

/// Reads `verdicts` (JSONL), maps items back through the key in `export_dir`, and compares
/// with every judge's verdicts in the run.
pub fn import(
    verdicts: &Path,
    export_dir: &Path,
    threshold: f64,
    bootstrap_resamples: usize,
    seed: u64,
) -> Result<ReviewReport, JudgeError> {
    let key_path = export_dir.join(KEY_FILE);
    let key = read_key(&key_path)?;
    let run = RunFolder::open(&key.run_dir)?;
    let humans = read_human_verdicts(verdicts, &key, &key_path)?;

    let rows = match &key.pairwise {
        Some(pk) => {
            let winners = human_winners(verdicts, &humans)?;
            super::pairwise::pairwise_rows(&key, pk, &winners, bootstrap_resamples, seed)?
        }
        None => {
            let (dims, vetoes) = human_judge_pairs(&key, &run, &humans)?;
            agreement_rows(&dims, &vetoes, bootstrap_resamples, seed)
        }
    };
    let warnings = agreement_warnings(&rows, threshold);
    for w in &warnings {
        tracing::warn!("{w}");
    }
    Ok(ReviewReport {
        items: humans.len(),
        threshold,
        rows,
        warnings,
    })
}

/// The review key an export wrote.
fn read_key(key_path: &Path) -> Result<ReviewKey, JudgeError> {
    let key_text = std::fs::read_to_string(key_path).map_err(|source| JudgeError::Io {
        path: key_path.to_owned(),
        source,
    })?;
    serde_json::from_str(&key_text).map_err(|e| JudgeError::RunDir {
        path: key_path.to_owned(),
        message: format!("not a review key: {e}"),
    })
}

/// Every line of `verdicts` with its line number, each of an item of `key`, none twice.
fn read_human_verdicts(
    verdicts: &Path,
    key: &ReviewKey,
    key_path: &Path,
) -> Result<Vec<(usize, HumanVerdict)>, JudgeError> {
    // The reader treats a missing file as empty; a missing verdicts file is a mistake.
    std::fs::metadata(verdicts).map_err(|source| JudgeError::Io {
        path: verdicts.to_owned(),
        source,
    })?;
    let mut seen = BTreeSet::new();
    let parse = |n: usize, line: &str| -> Result<(usize, HumanVerdict), VerdictLineError> {
        let mut de = serde_json::Deserializer::from_str(line);
        let v: HumanVerdict =
            serde_path_to_error::deserialize(&mut de).map_err(|e| VerdictLineError::Field {
                at: e.path().to_string(),
                source: e.into_inner(),
            })?;
        if !key.items.iter().any(|k| k.item == v.item) {
            return Err(VerdictLineError::UnknownItem {
                item: v.item,
                key: key_path.to_owned(),
            });
        }
        if !seen.insert(v.item.clone()) {
            return Err(VerdictLineError::Twice { item: v.item });
        }
        Ok((n, v))
    };
    Ok(nab_protocol::read_jsonl_with(verdicts, usize::MAX, parse)
        .map_err(|e| JudgeError::Invalid(e.to_string()))?
        .records)
}

/// Each item's winner in a pairwise review; every line must name one.
fn human_winners(
    verdicts: &Path,
    humans: &[(usize, HumanVerdict)],
) -> Result<Vec<(String, Side)>, JudgeError> {
    humans
        .iter()
        .map(|(line, h)| match h.winner {
            Some(w) => Ok((h.item.clone(), w)),
            None => Err(JudgeError::Verdicts {
                path: verdicts.to_owned(),
                line: *line,
                message: "a pairwise review needs `winner`: \"A\", \"B\" or \"tie\"".into(),
            }),
        })
        .collect()
}

/// (judge, dimension or veto id) → the (human, judge) answers on the same trials.
type AnswerPairs<T> = BTreeMap<(String, String), Vec<(T, T)>>;

/// The human's and every scoring judge's answers side by side, per dimension and per veto.
/// A reviewed trial gone from results.jsonl is an error.
fn human_judge_pairs(
    key: &ReviewKey,
    run: &RunFolder,
    humans: &[(usize, HumanVerdict)],
) -> Result<(AnswerPairs<u8>, AnswerPairs<bool>), JudgeError> {
    let mut dims = BTreeMap::new();
    let mut vetoes = BTreeMap::new();
    for (_, h) in humans {
        let Some(entry) = key.items.iter().find(|k| k.item == h.item) else {
            continue;
        };
        let Some(record) = run
            .records
            .iter()
            .find(|r| r.task_id == entry.task_id && r.trial == entry.trial)
        else {
            return Err(JudgeError::RunDir {
                path: run.dir().to_owned(),
                message: format!(
                    "trial {}/{} of {} is no longer in results.jsonl",
                    entry.task_id, entry.trial, h.item
                ),
            });
        };
        for j in record
            .judges
            .iter()
            .filter(|j| j.rubric_id == key.rubric_id && is_scored(j))
        {
            collect(h, j, &mut dims, &mut vetoes);
        }
    }
    Ok((dims, vetoes))
}

/// One row per (judge, dimension) (quadratic-weighted kappa over scores 1–5), then one per
/// (judge, veto) (Cohen's kappa).
fn agreement_rows(
    dims: &AnswerPairs<u8>,
    vetoes: &AnswerPairs<bool>,
    bootstrap_resamples: usize,
    seed: u64,
) -> Vec<AgreementRow> {
    let mut rows = Vec::new();
    for ((judge, id), pairs) in dims {
        let stat = |s: &[(u8, u8)]| quadratic_weighted_kappa(s, 1, 5);
        rows.push(AgreementRow {
            judge: judge.clone(),
            kind: "dimension".into(),
            id: id.clone(),
            n: pairs.len(),
            percent_agreement: percent_agreement(pairs),
            kappa: stat(pairs),
            kappa_ci95: bootstrap_95(pairs, stat, bootstrap_resamples, seed),
        });
    }
    for ((judge, id), pairs) in vetoes {
        let stat = |s: &[(bool, bool)]| cohen_kappa(s);
        rows.push(AgreementRow {
            judge: judge.clone(),
            kind: "veto".into(),
            id: id.clone(),
            n: pairs.len(),
            percent_agreement: percent_agreement(pairs),
            kappa: stat(pairs),
            kappa_ci95: bootstrap_95(pairs, stat, bootstrap_resamples, seed),
        });
    }
    rows
}

fn collect(
    h: &HumanVerdict,
    j: &JudgeRecord,
    dims: &mut AnswerPairs<u8>,
    vetoes: &mut AnswerPairs<bool>,
) {
    for (dim, score) in &h.scores {
        if let Some(js) = j.scores.iter().find(|s| &s.dimension == dim) {
            dims.entry((j.judge_model.clone(), dim.clone()))
                .or_default()
                .push((score.0, js.score));
        }
    }
    for (id, violated) in &h.vetoes {
        if let Some(jv) = j.vetoes.iter().find(|v| &v.id == id) {
            vetoes
                .entry((j.judge_model.clone(), id.clone()))
                .or_default()
                .push((violated.0, jv.violated));
        }
    }
}
