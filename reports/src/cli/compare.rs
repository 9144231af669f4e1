//! `nab compare --baseline DIR --candidate DIR`: compare.html and a terminal summary. The
//! pairwise verdicts shown come from the judges' side of the command (`--pairwise`,
//! `--judge`), read and judged there.

use crate::compare::Comparison;
use crate::html::render_compare;
use crate::output::write_file;
use crate::run::Run;
use nab_protocol::PairwiseVerdict;
use std::path::{Path, PathBuf};

/// The two runs compared, and where the page goes.
#[derive(Debug, Clone, clap::Args)]
pub struct CompareArgs {
    /// The reference run folder (with results.jsonl).
    #[arg(long, value_name = "DIR")]
    pub baseline: PathBuf,
    /// The run folder being judged against it.
    #[arg(long, value_name = "DIR")]
    pub candidate: PathBuf,
    /// Where to write compare.html (default: <candidate>/compare.html).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Seed of the sign-flip test's Monte Carlo fallback (used only when its exact
    /// distribution is too large: many tasks with unlike trial counts).
    #[arg(long, default_value_t = crate::stats::bootstrap::DEFAULT_SEED)]
    pub seed: u64,
}

/// What `nab compare` computed and wrote.
#[derive(Debug)]
pub struct CompareOutcome {
    /// The comparison (its [`Comparison::terminal_summary`] is what the binary prints).
    pub comparison: Comparison,
    /// Where compare.html was written.
    pub html: PathBuf,
}

/// Loads both runs and computes the comparison (shared by `compare` and `gate`).
pub fn load(
    baseline: &Path,
    candidate: &Path,
    pairwise: Vec<PairwiseVerdict>,
    seed: u64,
) -> anyhow::Result<Comparison> {
    let b = Run::load(baseline)?;
    let c = Run::load(candidate)?;
    Ok(Comparison::compute(&b, &c, pairwise, seed)?)
}

/// Compares the runs, with these pairwise verdicts, and writes compare.html (beside and
/// renamed, so a browser never opens half a page).
pub fn run(args: &CompareArgs, pairwise: Vec<PairwiseVerdict>) -> anyhow::Result<CompareOutcome> {
    let comparison = load(&args.baseline, &args.candidate, pairwise, args.seed)?;
    let html = args
        .out
        .clone()
        .unwrap_or_else(|| nab_protocol::RunPaths::new(&args.candidate).compare());
    write_file(&html, render_compare(&comparison)?.as_bytes())?;
    Ok(CompareOutcome { comparison, html })
}
