//! `nab compare --baseline DIR --candidate DIR`: compare.html and a terminal summary.

use crate::compare::{Comparison, read_pairwise};
use crate::finish::write_file;
use crate::html::render_compare;
use crate::run::Run;
use nab_protocol::run::PairwiseVerdict;
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct CompareArgs {
    #[arg(long, value_name = "DIR")]
    pub baseline: PathBuf,
    #[arg(long, value_name = "DIR")]
    pub candidate: PathBuf,
    /// Where to write compare.html (default: <candidate>/compare.html).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Pairwise judge results (JSON Lines: task_id, winner, consistent, judge_model, reason).
    #[arg(long, value_name = "FILE")]
    pub pairwise: Option<PathBuf>,
    /// Seed of the paired bootstrap.
    #[arg(long, default_value_t = crate::stats::bootstrap::DEFAULT_SEED)]
    pub seed: u64,
}

/// Loads both runs and computes the comparison (shared by `compare` and `gate`).
pub fn load(
    baseline: &std::path::Path,
    candidate: &std::path::Path,
    pairwise: Vec<PairwiseVerdict>,
    seed: u64,
) -> anyhow::Result<Comparison> {
    let b = Run::load(baseline)?;
    let c = Run::load(candidate)?;
    Ok(Comparison::compute(&b, &c, pairwise, seed)?)
}

pub fn run(args: &CompareArgs) -> anyhow::Result<Comparison> {
    let pairwise = match &args.pairwise {
        Some(p) => read_pairwise(p)?,
        None => Vec::new(),
    };
    let cmp = load(&args.baseline, &args.candidate, pairwise, args.seed)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| nab_protocol::run::RunPaths::new(&args.candidate).compare());
    write_file(&out, render_compare(&cmp)?.as_bytes())?;
    print!("{}", cmp.terminal_summary());
    println!("\nwrote {}", out.display());
    Ok(cmp)
}
