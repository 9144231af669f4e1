//! `nab compare --baseline DIR --candidate DIR --judge SPEC`: position-swapped pairwise
//! comparison over the (task, trial) pairs both runs have.

use super::load_rubric;
use crate::material::TrialMaterial;
use crate::model::{JudgeModel, ModelFactory};
use crate::pairwise::{PairLine, PairwiseReport, compare_pair};
use anyhow::Context;
use nab_protocol::run::RunFolder;
use nab_protocol::trial::TrialStatus;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct CompareArgs {
    #[arg(long, value_name = "DIR")]
    pub baseline: PathBuf,
    #[arg(long, value_name = "DIR")]
    pub candidate: PathBuf,
    /// Judge model spec; repeat for several judges (each is reported on its own).
    #[arg(long = "judge", value_name = "SPEC", required = true)]
    pub judges: Vec<String>,
    #[arg(long, value_name = "FILE")]
    pub rubric: Option<PathBuf>,
    /// The task suite both runs used (for each task's instruction.md).
    #[arg(long, value_name = "DIR", default_value = "tasks")]
    pub tasks: PathBuf,
    /// Write every judged pair (both raw answers) here as JSONL.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub struct CompareSummary {
    /// Per judge, in `--judge` order.
    pub reports: Vec<(String, PairwiseReport)>,
    pub pairs: Vec<PairLine>,
    pub markdown: String,
}

pub async fn run(args: CompareArgs, factory: ModelFactory<'_>) -> anyhow::Result<CompareSummary> {
    let rubric = load_rubric(args.rubric.as_deref())?;
    let models: Vec<Box<dyn JudgeModel>> = args
        .judges
        .iter()
        .map(|s| factory(s).with_context(|| format!("--judge {s}")))
        .collect::<anyhow::Result<_>>()?;
    let base = RunFolder::open(&args.baseline)?;
    let cand = RunFolder::open(&args.candidate)?;
    let mut pairs = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    let mut shared = 0usize;
    for c in cand
        .records
        .iter()
        .filter(|r| r.status != TrialStatus::Error)
    {
        let Some(b) = base.records.iter().find(|b| {
            b.task_id == c.task_id && b.trial == c.trial && b.status != TrialStatus::Error
        }) else {
            continue;
        };
        shared += 1;
        let (bm, cm) = match (
            TrialMaterial::load(&base, b, &args.tasks),
            TrialMaterial::load(&cand, c, &args.tasks),
        ) {
            (Ok(bm), Ok(cm)) => (bm, cm),
            (Err(e), _) | (_, Err(e)) => {
                skipped.push(format!("{}/{}: {e}", c.task_id, c.trial));
                continue;
            }
        };
        for model in &models {
            let judgement = compare_pair(
                model.as_ref(),
                &rubric,
                &cm.instruction,
                &bm.candidate(),
                &cm.candidate(),
            )
            .await?;
            pairs.push(PairLine {
                task_id: c.task_id.clone(),
                trial: c.trial,
                baseline_run: b.run_id.clone(),
                candidate_run: c.run_id.clone(),
                judgement,
            });
        }
    }
    if shared > 0 && skipped.len() == shared {
        // One cause (a missing suite, say) usually skips every pair: say it once.
        anyhow::bail!(
            "all {shared} shared (task, trial) pairs were skipped; the first: {}",
            skipped[0]
        );
    }
    for s in &skipped {
        eprintln!("skipping {s}");
    }
    if pairs.is_empty() {
        anyhow::bail!(
            "the runs share no (task, trial) pair that completed in both: nothing to compare"
        );
    }
    if let Some(out) = &args.out {
        nab_protocol::files::write_jsonl_atomic(out, &pairs)?;
    }
    let mut markdown = format!(
        "Pairwise comparison (candidate vs baseline), rubric `{}`, {} pairs per judge\n\n",
        rubric.id,
        pairs.len() / models.len().max(1)
    );
    let mut reports = Vec::new();
    for model in &models {
        let id = model.id();
        let report = PairwiseReport::from_outcomes(
            pairs
                .iter()
                .filter(|p| p.judgement.judge_model == id)
                .map(|p| &p.judgement.outcome),
        );
        markdown.push_str(&report.render_markdown(&id));
        reports.push((id, report));
    }
    Ok(CompareSummary {
        reports,
        pairs,
        markdown,
    })
}
