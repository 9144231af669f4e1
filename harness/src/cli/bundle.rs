//! `nab bundle RUN_OR_SWEEP --out FILE`: one file to publish a run or sweep with.

use nab_harness::run::bundle::{BundleOptions, write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A run folder (results.jsonl) or a sweep folder (sweep.json).
    source: PathBuf,
    /// The bundle to write: a zstd-compressed tar (name it e.g. results.nab.tar.zst).
    #[arg(long)]
    out: PathBuf,
    /// The suite, to record each task's hash (default: the folder run.json records, else
    /// ./tasks; the bundle is complete without it).
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// Another variable whose value is a key to redact wherever it appears (repeatable;
    /// NAB_API_KEY, ANTHROPIC_API_KEY and OPENAI_API_KEY always are).
    #[arg(long = "redact-env", value_name = "VAR")]
    redact_env: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = BundleOptions {
        tasks: args.tasks,
        key_variables: args.redact_env,
    };
    let written = write(&args.source, &args.out, &opts)?;
    let m = &written.manifest;
    let trials: usize = m.runs.iter().map(|r| r.trials.len()).sum();
    let regradable: usize = m
        .runs
        .iter()
        .flat_map(|r| &r.trials)
        .filter(|t| t.not_regradable.is_none())
        .count();
    for run in &m.runs {
        for t in run.trials.iter().filter(|t| t.not_regradable.is_some()) {
            eprintln!(
                "not re-gradable: {}{}/{}: {}",
                if run.dir.is_empty() {
                    String::new()
                } else {
                    format!("{} ", run.dir)
                },
                t.task,
                t.trial,
                t.not_regradable.as_deref().unwrap_or("")
            );
        }
    }
    let redacted: u64 = m.redactions.values().sum();
    if redacted > 0 {
        eprintln!(
            "redacted {redacted} secret-looking string(s) in {} file(s): {}",
            m.redactions.len(),
            m.redactions.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    println!(
        "bundled {} run(s), {trials} trial(s) ({regradable} re-gradable), {} file(s), {} → {} bytes → {}",
        m.runs.len(),
        m.files.len(),
        written.raw_bytes,
        written.bytes,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
