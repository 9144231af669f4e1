//! `nab gate --baseline DIR --candidate DIR [--config gate.yaml]`.

use crate::gate::{self, GateConfig, GateOutcome};
use crate::output::write_file;
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct GateArgs {
    #[arg(long, value_name = "DIR")]
    pub baseline: PathBuf,
    #[arg(long, value_name = "DIR")]
    pub candidate: PathBuf,
    /// Rules and thresholds (default: every rule with its default threshold).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// JUnit XML output (default: <candidate>/gate-junit.xml).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write the Markdown summary here (e.g. "$GITHUB_STEP_SUMMARY"); it is always printed.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

/// The gate evaluated, and its Markdown summary (what `nab gate` prints).
#[derive(Debug)]
pub struct GateRun {
    /// Every rule's verdict.
    pub outcome: GateOutcome,
    /// The Markdown summary of `outcome`.
    pub markdown: String,
}

/// Evaluates the gate, then writes its files ([`evaluate`], [`write`]). Bad input is an
/// `Err` (the binary should exit 2 for it, so CI can tell a broken gate from a failing
/// candidate).
pub fn run(args: &GateArgs) -> anyhow::Result<GateOutcome> {
    let run = evaluate(args)?;
    write(args, &run)?;
    Ok(run.outcome)
}

/// Loads both runs and the rules and evaluates the gate.
pub fn evaluate(args: &GateArgs) -> anyhow::Result<GateRun> {
    let config = match &args.config {
        Some(p) => GateConfig::load(p)?,
        None => GateConfig::default(),
    };
    let cmp = super::compare::load(&args.baseline, &args.candidate, Vec::new(), config.seed)?;
    let outcome = gate::evaluate(cmp, &config);
    let markdown = gate::markdown::render(&outcome);
    Ok(GateRun { outcome, markdown })
}

/// Writes the gate's JUnit XML, and appends its Markdown summary to `--markdown` if given.
pub fn write(args: &GateArgs, run: &GateRun) -> anyhow::Result<()> {
    let (outcome, md) = (&run.outcome, &run.markdown);
    let junit = args
        .junit
        .clone()
        .unwrap_or_else(|| args.candidate.join("gate-junit.xml"));
    let xml = gate::junit::render(outcome)
        .map_err(|e| anyhow::anyhow!("cannot write the gate's JUnit XML: {e}"))?;
    write_file(&junit, xml.as_bytes())?;
    if let Some(p) = &args.markdown {
        // Append: a CI job summary file may already hold other steps' output.
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .map_err(|source| crate::ReportError::Write {
                path: p.clone(),
                source,
            })?;
        f.write_all(md.as_bytes())
            .map_err(|source| crate::ReportError::Write {
                path: p.clone(),
                source,
            })?;
    }
    Ok(())
}
