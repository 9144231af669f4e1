//! `nab review export --run DIR --fraction 0.1 --seed S` and `nab review import FILE`.

use super::load_rubric;
use crate::review::pairwise::export_pairwise;
use crate::review::{ExportSummary, ReviewReport, Sample, export, import};
use crate::rubric::Rubric;
use nab_protocol::{RunFolder, resolve_tasks_dir};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct ReviewArgs {
    #[command(subcommand)]
    pub command: ReviewCommand,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum ReviewCommand {
    /// Write a blind, seeded, task-stratified sample of judged trials for human review.
    Export(ReviewExportArgs),
    /// Write a blind sample of the pairs `nab compare --judge` judged (its `--pairs-out` file).
    ExportPairwise(ReviewPairwiseExportArgs),
    /// Read human verdicts and report agreement with each judge.
    Import(ReviewImportArgs),
}

/// How both exports draw their sample, and what its items are shown with.
#[derive(clap::Args, Debug, Clone)]
pub struct SampleArgs {
    /// The share of the eligible items to draw, in (0, 1].
    #[arg(long, default_value_t = 0.1)]
    pub fraction: f64,
    /// The fewest items drawn, whatever the fraction (all when fewer are eligible): an
    /// agreement figure over one or two items says nothing.
    #[arg(long, value_name = "N", default_value_t = crate::review::DEFAULT_MIN_ITEMS)]
    pub min_items: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The rubric the trials were judged with (default: the shipped code-quality rubric).
    #[arg(long, value_name = "FILE")]
    pub rubric: Option<PathBuf>,
    /// The task suite (default: the folder run.json records, else ./tasks; checked
    /// against the suite hash run.json records).
    #[arg(long, value_name = "DIR")]
    pub tasks: Option<PathBuf>,
}

impl SampleArgs {
    /// The rubric and the sample, checked.
    fn load(&self) -> anyhow::Result<(Rubric, Sample)> {
        Ok((
            load_rubric(self.rubric.as_deref())?,
            Sample {
                min_items: self.min_items,
                ..Sample::new(self.fraction, self.seed)?
            },
        ))
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct ReviewPairwiseExportArgs {
    #[arg(long, value_name = "DIR")]
    pub baseline: PathBuf,
    #[arg(long, value_name = "DIR")]
    pub candidate: PathBuf,
    /// The pairs JSONL `nab compare --judge` wrote (`--pairs-out`, default <candidate>/pairwise.jsonl).
    #[arg(long, value_name = "FILE")]
    pub pairwise: PathBuf,
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Output folder. Give reviewers only its `blind/` folder.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ReviewExportArgs {
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Output folder (default: <run>/review). Give reviewers only its `blind/` folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ReviewImportArgs {
    /// The verdicts file the review form downloaded (JSONL).
    pub file: PathBuf,
    /// The export folder holding review-key.json (default: the verdict file's folder).
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Warn when a kappa is below this.
    #[arg(long, default_value_t = 0.6)]
    pub threshold: f64,
    #[arg(long, default_value_t = 2000)]
    pub bootstrap: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

pub enum ReviewOutcome {
    Exported(ExportSummary),
    Imported(ReviewReport),
}

pub fn run(args: ReviewArgs) -> anyhow::Result<ReviewOutcome> {
    match args.command {
        ReviewCommand::Export(a) => {
            let (rubric, sample) = a.sample.load()?;
            let run = RunFolder::open(&a.run)?;
            let out = a
                .out
                .unwrap_or_else(|| a.run.join(nab_protocol::REVIEW_DIR));
            Ok(ReviewOutcome::Exported(export(
                &run,
                &rubric,
                &resolve_tasks_dir(&run.meta, &a.run, a.sample.tasks.as_deref())?,
                &out,
                sample,
            )?))
        }
        ReviewCommand::ExportPairwise(a) => {
            let (rubric, sample) = a.sample.load()?;
            let (base, cand) = (
                RunFolder::open(&a.baseline)?,
                RunFolder::open(&a.candidate)?,
            );
            Ok(ReviewOutcome::Exported(export_pairwise(
                &base,
                &cand,
                &a.pairwise,
                &rubric,
                &resolve_tasks_dir(&cand.meta, &a.candidate, a.sample.tasks.as_deref())?,
                &a.out,
                sample,
            )?))
        }
        ReviewCommand::Import(a) => {
            let export_dir = match a.export {
                Some(d) => d,
                None => a
                    .file
                    .parent()
                    .map(|p| {
                        if p.as_os_str().is_empty() {
                            PathBuf::from(".")
                        } else {
                            p.to_owned()
                        }
                    })
                    .unwrap_or_else(|| PathBuf::from(".")),
            };
            Ok(ReviewOutcome::Imported(import(
                &a.file,
                &export_dir,
                a.threshold,
                a.bootstrap,
                a.seed,
            )?))
        }
    }
}
