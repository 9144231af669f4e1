//! `nab leaderboard`: many runs (agent/model pairs) ranked on one common task set, with the
//! uncertainty a ranking needs: pass rates with intervals, a pairwise significance matrix
//! (exact sign-flip tests on the same tasks, Holm-corrected) and simultaneous rank
//! intervals read off that matrix. Everything on a page — ranks, intervals, the matrix,
//! pass@k, the per-category table — uses that one task set, named on the page.
//!
//! - [`inputs`]: run folders and sweep folders expanded into runs, with size checks.
//! - [`mixed`]: whether the runs used the same tasks and suite version.
//! - [`common`]: the common task set (every run has trials of it) and the pass@k sets.
//! - [`row`]: one row's metrics.
//! - [`significance`]: the pairwise matrix.
//! - [`task_matrix`]: each common task's passes in every row.
//! - [`markdown`]: `leaderboard.md`; the page is `crate::html::leaderboard`.
//! - [`write`]: the three files.

pub mod common;
pub mod display;
pub mod inputs;
pub mod markdown;
pub mod mixed;
pub mod row;
pub mod significance;
pub mod task_matrix;
pub mod write;

use crate::error::{ReportError, Result};
use crate::quarantine::{QuarantineEntry, QuarantinedTask};
use crate::run::Run;
use crate::stats;
use common::{CommonTasks, ExcludedTask, KSet};
use row::Row;
use serde::Serialize;
use significance::Significance;
use std::path::PathBuf;

pub use write::{LeaderboardOutputs, write_leaderboard};

/// Category columns shown on the page and in the Markdown (all are in the JSON): a run
/// folder decides its categories, and a thousand columns help nobody.
pub const MAX_CATEGORIES: usize = 40;

/// Version 2: every trial counts (errors as not passed), one task set for everything,
/// sign-flip tests, simultaneous rank intervals.
pub const LEADERBOARD_VERSION: u32 = 2;

/// What the leaderboard is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Rank runs of different task sets or suite versions anyway (and say so).
    pub allow_mixed: bool,
    /// Seed of the sign-flip tests' Monte Carlo fallback and the cost bootstrap.
    pub seed: u64,
    /// Draws of that fallback (used only when a test's exact distribution is too large),
    /// and resamples of the cost-per-solved-task bootstrap.
    pub draws: usize,
    /// Runs read out of a bundle: what to call their folder, and what re-grading the
    /// bundle here found.
    pub sources: Vec<Source>,
}

/// A run folder unpacked from a bundle (`nab leaderboard FILE`).
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// Where it was unpacked.
    pub dir: PathBuf,
    /// How the page names it: the bundle and the run's folder in it.
    pub shown_as: String,
    /// `re-graded here on <date>: …`, when `nab regrade` left an outcome for this bundle.
    pub regraded: Option<String>,
    /// Whether that regrade confirmed the run (nothing diverged, every pass was played).
    pub confirmed: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            allow_mixed: false,
            seed: stats::bootstrap::DEFAULT_SEED,
            draws: stats::signflip::DRAWS,
            sources: Vec::new(),
        }
    }
}

/// What the rank intervals are, for the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankMethod {
    /// Family-wise level: every row's true rank lies in its interval at once with at least
    /// this probability.
    pub level: f64,
    /// The sentence the pages show.
    pub explanation: String,
    pub draws: usize,
    pub seed: u64,
}

/// What the rank intervals mean, in the words every page uses.
pub const RANK_EXPLANATION: &str = "Rank intervals are simultaneous: with probability at least 95%, every row's true rank on these tasks lies in its interval at once. A row's interval runs from 1 + the rows significantly better than it to the number of rows − the rows significantly worse than it, read off the Holm-corrected matrix below (family-wise α = 0.05); two rows' intervals overlap unless the matrix tells them apart.";

/// `leaderboard.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaderboard {
    pub v: u32,
    /// Best first (by pass rate on the common tasks, then by label).
    pub rows: Vec<Row>,
    /// The tasks every figure on the page is measured on (named on the page).
    pub common_tasks: Vec<String>,
    /// Tasks of some run left out, each with why.
    pub excluded_tasks: Vec<ExcludedTask>,
    pub categories: Vec<String>,
    pub k_sets: Vec<KSet>,
    /// The k shown in the main table (see [`CommonTasks::headline_k`]).
    pub headline_k: Option<u32>,
    pub significance: Significance,
    /// The common tasks × the rows (in the rows' order): where the rows differ.
    pub task_matrix: Vec<task_matrix::TaskLine>,
    pub ranks: RankMethod,
    /// How the runs' task sets or suite versions differ; empty when they match. Non-empty
    /// only with `--allow-mixed`.
    pub mixed: Vec<String>,
    /// Everything else a reader should know (unchecked suite versions, skipped folders,
    /// torn results files).
    pub notes: Vec<String>,
    /// Tasks `tasks/quarantine.yaml` keeps out of every row.
    pub quarantined: Vec<QuarantinedTask>,
}

/// Loads every DIR (run or sweep folder) and ranks the runs.
pub fn build(dirs: &[PathBuf], options: &Options) -> Result<Leaderboard> {
    let inputs = inputs::expand(dirs)?;
    let runs = inputs
        .runs
        .iter()
        .map(|d| Run::load(d))
        .collect::<Result<Vec<_>>>()?;
    let mut board = rank(runs, options)?;
    board.notes.splice(0..0, inputs.notes);
    apply_sources(&mut board, &options.sources);
    Ok(board)
}

/// Rows read from a bundle name the bundle, and those re-graded here say so in their label
/// (on every page) and in a note.
fn apply_sources(board: &mut Leaderboard, sources: &[Source]) {
    for row in &mut board.rows {
        let Some(s) = sources
            .iter()
            .find(|s| s.dir.display().to_string() == row.run_dir)
        else {
            continue;
        };
        row.run_dir = s.shown_as.clone();
        if let Some(text) = &s.regraded {
            let mark = if s.confirmed {
                "re-graded"
            } else {
                "re-grade did not confirm it"
            };
            row.label = format!("{} ({mark})", row.label);
            row.regraded = Some(text.clone());
            board.notes.push(format!("{}: {text}", row.label));
        }
    }
}

/// Unique labels: run.json's `label` or `agent · model`; a second run of the same pair gets its run id (or folder) appended, and
/// a number if even that repeats.
fn labels(runs: &[Run]) -> Vec<String> {
    // A sweep's alias (run.json `label`) when there is one, else `agent · model`.
    let base: Vec<String> = runs
        .iter()
        .map(|r| match &r.meta.label {
            Some(l) if !l.trim().is_empty() => display::short(l),
            _ => display::label(r.agent().as_deref(), r.model().as_deref()),
        })
        .collect();
    let mut out: Vec<String> = base
        .iter()
        .zip(runs)
        .map(|(l, run)| {
            if base.iter().filter(|o| *o == l).count() == 1 {
                return l.clone();
            }
            let tag = run
                .run_id()
                .unwrap_or_else(|| run.dir.display().to_string());
            format!("{l} ({})", display::short(&tag))
        })
        .collect();
    for i in 0..out.len() {
        if out[..i].contains(&out[i]) {
            out[i] = format!("{} #{}", out[i], i + 1);
        }
    }
    out
}

/// Ranks runs already loaded (tests and benchmarks call this directly).
pub fn rank(runs: Vec<Run>, options: &Options) -> Result<Leaderboard> {
    let runs = quarantine_all(runs);
    let labels = labels(&runs);
    let refs: Vec<&Run> = runs.iter().collect();

    let mixed = mixed::differences(&labels, &refs);
    if !mixed.is_empty() && !options.allow_mixed {
        return Err(ReportError::MixedSuites {
            details: mixed
                .iter()
                .map(|m| format!("  - {m}"))
                .collect::<Vec<_>>()
                .join("\n"),
        });
    }
    let mut notes: Vec<String> = mixed::subsets(&labels, &refs).into_iter().collect();
    notes.extend(mixed::unchecked(&labels, &refs));
    notes.extend(torn_tail_notes(&runs, &labels));

    let common = CommonTasks::of(&labels, &refs);
    if common.ids.is_empty() {
        return Err(ReportError::NoCommonTasksAcross {
            runs: runs
                .iter()
                .map(|r| r.dir.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let (rows, order, significance) = ranked_rows(&runs, labels, &common, options);
    let ordered: Vec<&Run> = order.iter().map(|&i| &runs[i]).collect();
    let task_matrix = task_matrix::build(&ordered, &common);
    Ok(Leaderboard {
        v: LEADERBOARD_VERSION,
        rows,
        categories: common.category_names(),
        headline_k: common.headline_k(),
        common_tasks: common.ids,
        excluded_tasks: common.excluded,
        k_sets: common.k_sets,
        significance,
        task_matrix,
        ranks: RankMethod {
            level: 1.0 - significance::ALPHA,
            explanation: RANK_EXPLANATION.to_owned(),
            draws: options.draws,
            seed: options.seed,
        },
        mixed,
        notes,
        quarantined: quarantined_union(&runs),
    })
}

/// The runs with every task quarantined for any of them left out of all of them (as in
/// compare).
fn quarantine_all(runs: Vec<Run>) -> Vec<Run> {
    let entries: Vec<QuarantineEntry> = runs
        .iter()
        .flat_map(|r| &r.quarantined)
        .map(|q| QuarantineEntry {
            task: q.task_id.clone(),
            reason: q.reason.clone(),
        })
        .collect();
    runs.into_iter().map(|r| r.quarantine(&entries)).collect()
}

/// A note for each run whose results.jsonl ended in a torn line.
fn torn_tail_notes(runs: &[Run], labels: &[String]) -> Vec<String> {
    runs.iter()
        .zip(labels)
        .filter(|(r, _)| r.truncated_tail)
        .map(|(r, l)| {
            format!(
                "{l}: the last line of {}/results.jsonl was cut off (an interrupted run) and is not counted",
                r.dir.display()
            )
        })
        .collect()
}

/// The rows best first, with their rank intervals, which run each row is (an index into
/// `runs`), and the significance matrix they are read off.
fn ranked_rows(
    runs: &[Run],
    labels: Vec<String>,
    common: &CommonTasks,
    options: &Options,
) -> (Vec<Row>, Vec<usize>, Significance) {
    // Best first; the order every table, the matrix and the JSON share.
    let mut rows: Vec<(Row, usize)> = runs
        .iter()
        .zip(labels)
        .enumerate()
        .map(|(i, (r, l))| (Row::compute(l, r, common, options.draws, options.seed), i))
        .collect();
    rows.sort_by(|(a, _), (b, _)| {
        b.pass_rate
            .unwrap_or(0.0)
            .total_cmp(&a.pass_rate.unwrap_or(0.0))
            .then_with(|| a.label.cmp(&b.label))
    });
    let order: Vec<usize> = rows.iter().map(|(_, i)| *i).collect();
    let rates: Vec<Vec<f64>> = order
        .iter()
        .map(|&i| row::task_rates(&runs[i], common))
        .collect();
    let draws = stats::Draws {
        draws: options.draws,
        seed: options.seed,
    };
    // The matrix and the ranks use the same tasks (`rates`), so a significant cell always
    // agrees with the order of its rows, and the intervals are read off the matrix.
    let significance = significance::matrix(&rates, significance::ALPHA, draws);
    let means: Vec<f64> = rows
        .iter()
        .map(|(r, _)| r.pass_rate.unwrap_or(0.0))
        .collect();
    let observed = stats::rank::competition_ranks(&means);
    let intervals = stats::rank::from_pairwise(&observed, |i, j| significance.better(i, j));
    let rows = rows
        .into_iter()
        .zip(intervals)
        .map(|((mut row, _), rank)| {
            row.rank = rank;
            row
        })
        .collect();
    (rows, order, significance)
}

/// Every run's quarantined tasks, each once (the first run's entry).
fn quarantined_union(runs: &[Run]) -> Vec<QuarantinedTask> {
    runs.iter()
        .flat_map(|r| r.quarantined.iter().cloned())
        .fold(Vec::<QuarantinedTask>::new(), |mut acc, q| {
            if !acc.iter().any(|a| a.task_id == q.task_id) {
                acc.push(q);
            }
            acc
        })
}
