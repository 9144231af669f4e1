//! `nab judge --run DIR`: grade, or re-grade, the trials of an existing run.

use super::{JudgeOpts, load_rubric};
use crate::combine::{combine, judge_agreement};
use crate::grade::{grade, is_scored};
use crate::material::TrialMaterial;
use crate::model::{JudgeModel, ModelFactory};
use anyhow::Context;
use nab_protocol::JsonlAppender;
use nab_protocol::RunFolder;
use nab_protocol::{JudgeRecord, TrialRecord, TrialStatus};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct JudgeArgs {
    /// The run folder (with results.jsonl and trials/).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    #[command(flatten)]
    pub opts: JudgeOpts,
    /// The task suite the run used, for each task's instruction.md (default: the tasks
    /// folder recorded in <run>/run.json, else ./tasks; checked against the suite hash
    /// run.json records).
    #[arg(long, value_name = "DIR")]
    pub tasks: Option<PathBuf>,
    /// Re-grade trials that already have a verdict from the same judge and rubric.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct JudgeSummary {
    pub graded: usize,
    pub skipped: usize,
    pub judge_errors: usize,
    pub markdown: String,
}

pub async fn run(args: JudgeArgs, factory: ModelFactory<'_>) -> anyhow::Result<JudgeSummary> {
    if args.opts.judges.is_empty() {
        anyhow::bail!("nab judge needs at least one --judge SPEC");
    }
    let rubric = load_rubric(args.opts.rubric.as_deref())?;
    let models: Vec<Box<dyn JudgeModel>> = args
        .opts
        .judges
        .iter()
        .map(|s| factory(s).with_context(|| format!("--judge {s}")))
        .collect::<anyhow::Result<_>>()?;
    let run = RunFolder::open(&args.run)?;
    let tasks = nab_protocol::resolve_tasks_dir(&run.meta, &args.run, args.tasks.as_deref())?;
    let mut records = run.records.clone();
    let mut summary = JudgeSummary::default();
    for i in 0..records.len() {
        // An infrastructure error left nothing meaningful to grade.
        if records[i].outcome.status == TrialStatus::Error {
            summary.skipped += 1;
            continue;
        }
        let material = match TrialMaterial::load(&run, &records[i], &tasks) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("skipping {}/{}: {e}", records[i].task_id, records[i].trial);
                summary.skipped += 1;
                continue;
            }
        };
        let candidate = material.candidate();
        for model in &models {
            let id = model.id();
            let existing = records[i]
                .judges
                .iter()
                .position(|j| j.judge_model == id && j.rubric_id == rubric.id);
            if let Some(p) = existing
                && !args.force
                && records[i].judges[p].rubric_hash == rubric.hash
                && is_scored(&records[i].judges[p])
            {
                summary.skipped += 1;
                continue;
            }
            let grading = grade(model.as_ref(), &rubric, &material.instruction, &candidate).await?;
            if !is_scored(&grading.record) {
                summary.judge_errors += 1;
            }
            summary.graded += 1;
            append_attempts(&run, &records[i], &grading)?;
            match existing {
                Some(p) => records[i].judges[p] = grading.record,
                None => records[i].judges.push(grading.record),
            }
        }
        // Written after every trial so an interrupted re-grade keeps what it did.
        run.write_records(&records)?;
    }
    summary.markdown = render(
        &rubric,
        &records,
        &models.iter().map(|m| m.id()).collect::<Vec<_>>(),
    );
    Ok(summary)
}

/// Every attempt (raw answer + rejection) goes to the trial's `judge_attempts.jsonl`.
fn append_attempts(
    run: &RunFolder,
    record: &TrialRecord,
    g: &crate::Grading,
) -> anyhow::Result<()> {
    let path = run.trial_dir(record)?.judge_attempts();
    let line = serde_json::json!({
        "judge_model": g.record.judge_model, "rubric_id": g.record.rubric_id,
        "rubric_hash": g.record.rubric_hash, "prompt_hash": g.record.prompt_hash,
        "attempts": g.attempts, "error": g.record.error,
    });
    JsonlAppender::open(&path)?.append(&line)?;
    Ok(())
}

fn render(rubric: &crate::Rubric, records: &[TrialRecord], judges: &[String]) -> String {
    let mut s = format!(
        "Judged with rubric `{}` ({})\n\n| judge | scored | errors | mean weighted score | gate pass rate |\n|---|---|---|---|---|\n",
        rubric.id, rubric.hash
    );
    for j in judges {
        let recs: Vec<&JudgeRecord> = records
            .iter()
            .flat_map(|r| &r.judges)
            .filter(|x| &x.judge_model == j && x.rubric_id == rubric.id)
            .collect();
        let ok: Vec<&&JudgeRecord> = recs.iter().filter(|r| is_scored(r)).collect();
        let mean = if ok.is_empty() {
            "n/a".into()
        } else {
            format!(
                "{:.2}",
                ok.iter().filter_map(|r| r.weighted_score).sum::<f64>() / ok.len() as f64
            )
        };
        let pass = if ok.is_empty() {
            "n/a".into()
        } else {
            format!(
                "{:.0}%",
                100.0 * ok.iter().filter(|r| r.gate_passed == Some(true)).count() as f64
                    / ok.len() as f64
            )
        };
        s.push_str(&format!(
            "| {j} | {} | {} | {mean} | {pass} |\n",
            ok.len(),
            recs.len() - ok.len()
        ));
    }
    if judges.len() > 1 {
        let trials: Vec<Vec<JudgeRecord>> = records.iter().map(|r| r.judges.clone()).collect();
        let combined: Vec<f64> = trials
            .iter()
            .filter_map(|t| combine(rubric, t).weighted_score)
            .collect();
        if !combined.is_empty() {
            s.push_str(&format!(
                "\nMedian of judges: mean weighted score {:.2} over {} trials\n",
                combined.iter().sum::<f64>() / combined.len() as f64,
                combined.len()
            ));
        }
        s.push_str("\n| dimension | judge A | judge B | n | agreement | quadratic-weighted kappa |\n|---|---|---|---|---|---|\n");
        for a in judge_agreement(rubric, &trials) {
            let f = |x: Option<f64>| x.map_or("n/a".to_owned(), |v| format!("{v:.3}"));
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                a.dimension,
                a.judge_a,
                a.judge_b,
                a.n,
                f(a.percent_agreement),
                f(a.kappa)
            ));
        }
    }
    s
}
