//! `nab compare … --judge SPEC`: position-swapped pairwise comparison over the (task, trial)
//! pairs both runs have, and `--pairwise FILE`, earlier verdicts to show. Each judged pair is
//! appended to the pairs file as soon as it is judged, and a rerun resumes from that file
//! ([`super::pairs_file`]). The two runs are the reports' side of the command
//! (`nab_reports::CompareArgs`); [`run`] takes them as arguments.

use super::load_rubric;
use super::pairs_file::{PairKey, PairsFile};
use crate::material::TrialMaterial;
use crate::model::{JudgeModel, ModelFactory};
use crate::pairwise::{PairLine, PairwiseReport, compare_pair, read_verdicts};
use crate::rubric::Rubric;
use anyhow::Context;
use nab_protocol::{PairwiseVerdict, RunFolder, RunPaths};
use nab_protocol::{TrialRecord, TrialStatus};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The pairwise part of `nab compare`: judges to ask, and earlier verdicts to show.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PairwiseArgs {
    /// Judge the (task, trial) pairs both runs completed with this model, both orders
    /// (provider spec as for `nab run --judge`). Repeat for several judges.
    #[arg(long = "judge", value_name = "SPEC")]
    pub judges: Vec<String>,
    /// Rubric YAML for the pairwise judge (default: the shipped code-quality rubric).
    #[arg(long, value_name = "FILE", requires = "judges")]
    pub rubric: Option<PathBuf>,
    /// The task suite the runs used, for each task's instruction.md (default: the tasks
    /// folder recorded in the candidate's run.json, else ./tasks).
    #[arg(long, value_name = "DIR")]
    pub tasks: Option<PathBuf>,
    /// Where the judged pairs go, with both raw answers (JSONL; the input of
    /// `nab review export-pairwise`). Default: <candidate>/pairwise.jsonl. Each pair is
    /// appended as soon as it is judged; run the same command again to resume a stopped
    /// comparison (pairs already in the file are not judged again; a file of another run
    /// pair is refused).
    #[arg(long, value_name = "FILE", requires = "judges")]
    pub pairs_out: Option<PathBuf>,
    /// Earlier pairwise results to show (a `--pairs-out` file, or records with task_id,
    /// winner, consistent, judge_model, reason).
    #[arg(long, value_name = "FILE")]
    pub pairwise: Option<PathBuf>,
    /// With both --pairwise and --judge: show the earlier file's verdicts together with the
    /// new ones. Without it the two are never mixed silently (an error says so).
    #[arg(long, requires_all = ["pairwise", "judges"])]
    pub merge_pairwise: bool,
}

/// What the pairwise part of `nab compare` found: every verdict to show, and what the
/// judges did when `--judge` was given.
#[derive(Debug, Clone)]
pub struct PairwiseOutcome {
    /// The `--pairwise` file's verdicts, then the judged pairs' (errors left out).
    pub verdicts: Vec<PairwiseVerdict>,
    /// With `--judge`: the judging summary and the pairs file it wrote.
    pub judged: Option<(CompareSummary, PathBuf)>,
}

/// Reads `--pairwise`, then judges the pairs with `--judge` (appending them to
/// `--pairs-out`, default `<candidate>/pairwise.jsonl`). Mixing the two needs
/// `--merge-pairwise`.
pub async fn run(
    args: PairwiseArgs,
    baseline: &Path,
    candidate: &Path,
    factory: ModelFactory<'_>,
) -> anyhow::Result<PairwiseOutcome> {
    if args.pairwise.is_some() && !args.judges.is_empty() && !args.merge_pairwise {
        anyhow::bail!(
            "--pairwise FILE and --judge both given: the earlier file's verdicts would be mixed with the new ones; pass --merge-pairwise to show them together, or drop one"
        );
    }
    let mut verdicts = match &args.pairwise {
        Some(p) => read_verdicts(p)?,
        None => Vec::new(),
    };
    if args.judges.is_empty() {
        return Ok(PairwiseOutcome {
            verdicts,
            judged: None,
        });
    }
    let pairs_out = args
        .pairs_out
        .clone()
        .unwrap_or_else(|| RunPaths::new(candidate).pairwise());
    let summary = judge_pairs(&args, baseline, candidate, Some(&pairs_out), factory).await?;
    verdicts.extend(summary.pairs.iter().filter_map(PairLine::verdict));
    Ok(PairwiseOutcome {
        verdicts,
        judged: Some((summary, pairs_out)),
    })
}

/// The judged pairs of one comparison.
#[derive(Debug, Clone)]
pub struct CompareSummary {
    /// Per judge, in `--judge` order.
    pub reports: Vec<(String, PairwiseReport)>,
    /// Every pair, judged now or read back.
    pub pairs: Vec<PairLine>,
    /// Of `pairs`, how many were read back from the pairs file instead of being judged.
    pub resumed: usize,
    /// The per-judge tables, for the terminal.
    pub markdown: String,
}

/// Judges every (task, trial) pair both runs completed with each of `args.judges`, in
/// both orders. With `out`, each pair is appended there as it is judged and pairs already
/// there (same runs, judge and rubric) are read back instead of judged again.
pub async fn judge_pairs(
    args: &PairwiseArgs,
    baseline: &Path,
    candidate: &Path,
    out: Option<&Path>,
    factory: ModelFactory<'_>,
) -> anyhow::Result<CompareSummary> {
    let rubric = load_rubric(args.rubric.as_deref())?;
    let models: Vec<Box<dyn JudgeModel>> = args
        .judges
        .iter()
        .map(|s| factory(s).with_context(|| format!("--judge {s}")))
        .collect::<anyhow::Result<_>>()?;
    let base = RunFolder::open(baseline)?;
    let cand = RunFolder::open(candidate)?;
    let tasks = nab_protocol::resolve_tasks_dir(&cand.meta, candidate, args.tasks.as_deref())?;
    // Opened before any judge is asked: a file of another run pair stops the run here.
    let file = match out {
        Some(out) => Some(open_pairs_file(out, &base, &cand)?),
        None => None,
    };
    let mut judging = Judging {
        rubric: &rubric,
        models: &models,
        tasks: &tasks,
        file,
        pairs: Vec::new(),
        resumed: 0,
    };
    let mut skipped: Vec<String> = Vec::new();
    let mut shared = 0usize;
    for (b, c) in shared_trials(&base, &cand) {
        shared += 1;
        if let Some(reason) = judging.judge_trial(&base, b, &cand, c).await? {
            skipped.push(reason);
        }
    }
    report_skipped(shared, &skipped)?;
    let Judging {
        file,
        pairs,
        resumed,
        ..
    } = judging;
    if pairs.is_empty() {
        anyhow::bail!(
            "the runs share no (task, trial) pair that completed in both: nothing to compare"
        );
    }
    let mut markdown = summary_preamble(&rubric, &models, file.as_ref(), &pairs, resumed);
    let reports = per_judge_reports(&models, &pairs, &mut markdown);
    Ok(CompareSummary {
        reports,
        pairs,
        resumed,
        markdown,
    })
}

/// Opens the pairs file for the two runs' ids, warning when a torn last line was dropped.
fn open_pairs_file(out: &Path, base: &RunFolder, cand: &RunFolder) -> anyhow::Result<PairsFile> {
    let run_ids = |f: &RunFolder| -> BTreeSet<String> {
        f.records.iter().map(|r| r.run_id.clone()).collect()
    };
    let file = PairsFile::open(out, &run_ids(base), &run_ids(cand))?;
    if file.dropped_torn_line {
        eprintln!(
            "{}: dropped a torn last line (an interrupted write); that pair is judged again",
            file.path().display()
        );
    }
    Ok(file)
}

/// The (baseline, candidate) records of every (task, trial) both runs completed without an
/// error, in the candidate's order.
fn shared_trials<'a>(
    base: &'a RunFolder,
    cand: &'a RunFolder,
) -> impl Iterator<Item = (&'a TrialRecord, &'a TrialRecord)> {
    cand.records
        .iter()
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .filter_map(|c| {
            let b = base.records.iter().find(|b| {
                b.task_id == c.task_id
                    && b.trial == c.trial
                    && b.outcome.status != TrialStatus::Error
            })?;
            Some((b, c))
        })
}

/// Fails when every shared pair was skipped, else names each skipped pair on stderr.
fn report_skipped(shared: usize, skipped: &[String]) -> anyhow::Result<()> {
    if shared > 0 && skipped.len() == shared {
        // One cause (a missing suite, say) usually skips every pair: say it once.
        anyhow::bail!(
            "all {shared} shared (task, trial) pairs were skipped; the first: {}",
            skipped[0]
        );
    }
    for s in skipped {
        eprintln!("skipping {s}");
    }
    Ok(())
}

/// The judging of one comparison in progress: what every pair is judged with, and the
/// pairs so far.
struct Judging<'a> {
    rubric: &'a Rubric,
    models: &'a [Box<dyn JudgeModel>],
    tasks: &'a Path,
    file: Option<PairsFile>,
    pairs: Vec<PairLine>,
    /// Of `pairs`, how many were read back from the pairs file.
    resumed: usize,
}

impl Judging<'_> {
    /// Judges one shared (task, trial) with every judge, reading back the judges' earlier
    /// lines from the pairs file. `Ok(Some(reason))` when a trial's material could not be
    /// loaded and the pair is skipped.
    async fn judge_trial(
        &mut self,
        base: &RunFolder,
        b: &TrialRecord,
        cand: &RunFolder,
        c: &TrialRecord,
    ) -> anyhow::Result<Option<String>> {
        let earlier: Vec<Option<PairLine>> = self
            .models
            .iter()
            .map(|m| {
                let key = PairKey {
                    task_id: c.task_id.clone(),
                    trial: c.trial,
                    judge_model: m.id(),
                    rubric_hash: self.rubric.hash.clone(),
                };
                self.file.as_ref().and_then(|f| f.judged(&key)).cloned()
            })
            .collect();
        // Every judge already judged this pair: its material need not even be loaded.
        if earlier.iter().all(Option::is_some) {
            self.resumed += earlier.len();
            self.pairs.extend(earlier.into_iter().flatten());
            return Ok(None);
        }
        let (bm, cm) = match (
            TrialMaterial::load(base, b, self.tasks),
            TrialMaterial::load(cand, c, self.tasks),
        ) {
            (Ok(bm), Ok(cm)) => (bm, cm),
            (Err(e), _) | (_, Err(e)) => {
                return Ok(Some(format!("{}/{}: {e}", c.task_id, c.trial)));
            }
        };
        for (model, earlier) in self.models.iter().zip(earlier) {
            if let Some(line) = earlier {
                self.resumed += 1;
                self.pairs.push(line);
                continue;
            }
            let line = self.judge_one(model.as_ref(), b, c, &bm, &cm).await?;
            if let Some(f) = self.file.as_mut() {
                f.append(&line)?;
            }
            self.pairs.push(line);
        }
        Ok(None)
    }

    /// Asks one judge about one pair (both orders), with a progress line on stderr.
    async fn judge_one(
        &self,
        model: &dyn JudgeModel,
        b: &TrialRecord,
        c: &TrialRecord,
        bm: &TrialMaterial,
        cm: &TrialMaterial,
    ) -> anyhow::Result<PairLine> {
        let started = std::time::Instant::now();
        let judgement = compare_pair(
            model,
            self.rubric,
            &cm.instruction,
            &bm.candidate(),
            &cm.candidate(),
        )
        .await?;
        // Progress for long runs with slow judges (stdout carries the report).
        eprintln!(
            "judged {}/{} with {}: {:?} in {:.0} s",
            c.task_id,
            c.trial,
            judgement.judge_model,
            judgement.outcome,
            started.elapsed().as_secs_f64()
        );
        Ok(PairLine {
            task_id: c.task_id.clone(),
            trial: c.trial,
            baseline_run: b.run_id.clone(),
            candidate_run: c.run_id.clone(),
            judgement,
        })
    }
}

/// The summary's heading, with a note on pairs read back from the pairs file and on pairs
/// there of another judge or rubric.
fn summary_preamble(
    rubric: &Rubric,
    models: &[Box<dyn JudgeModel>],
    file: Option<&PairsFile>,
    pairs: &[PairLine],
    resumed: usize,
) -> String {
    let mut markdown = format!(
        "Pairwise comparison (candidate vs baseline), rubric `{}`, {} pairs per judge\n\n",
        rubric.id,
        pairs.len() / models.len().max(1)
    );
    if resumed > 0 {
        markdown.push_str(&format!(
            "{resumed} of the {} judged pairs were read back from the pairs file (judged by an earlier run of this comparison).\n\n",
            pairs.len()
        ));
    }
    if let Some(f) = file {
        let ids: BTreeSet<String> = models.iter().map(|m| m.id()).collect();
        let other = f
            .lines()
            .iter()
            .filter(|l| {
                !ids.contains(&l.judgement.judge_model) || l.judgement.rubric_hash != rubric.hash
            })
            .count();
        if other > 0 {
            markdown.push_str(&format!(
                "{other} pair(s) in {} were judged by another judge or rubric: kept in the file, not counted here.\n\n",
                f.path().display()
            ));
        }
    }
    markdown
}

/// One report per judge, in `--judge` order, each table appended to `markdown`.
fn per_judge_reports(
    models: &[Box<dyn JudgeModel>],
    pairs: &[PairLine],
    markdown: &mut String,
) -> Vec<(String, PairwiseReport)> {
    let mut reports = Vec::new();
    for model in models {
        let id = model.id();
        let report = PairwiseReport::from_outcomes(
            pairs
                .iter()
                .filter(|p| p.judgement.judge_model == id)
                .map(|p| (p.task_id.as_str(), &p.judgement.outcome)),
        );
        markdown.push_str(&report.render_markdown(&id));
        reports.push((id, report));
    }
    reports
}
