//! `nab merge --out DIR SHARD_DIR...`: joins the run folders of `nab run --shard K/N`
//! into one run folder with its report. See `nab_harness::merge` for the checks.

use nab_harness::merge::tree::{Budget, Limits};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The merged run folder (absent, empty, or an earlier merge, which is replaced).
    #[arg(long)]
    out: PathBuf,
    /// Merge even when some (task, trial) pairs are in no shard; they are listed.
    #[arg(long)]
    allow_partial: bool,
    /// The task suite, for the report's instructions (checked against the shards' suite
    /// hash). Default: the folder the shards recorded, else ./tasks.
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// The shards' run folders (each written by `nab run --shard K/N --group ID`).
    #[arg(required = true)]
    shards: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shards = nab_harness::merge::open_all(&args.shards, Limits::default())?;
    let mut joined = nab_harness::merge::join(&shards, args.allow_partial)?;
    joined.meta.command = Some(std::env::args().collect::<Vec<_>>().join(" "));
    joined.meta.tasks_dir = tasks_dir(&args, &shards, &joined.meta);
    if joined.meta.tasks_dir.is_none() {
        eprintln!(
            "warning: the task suite was not found (pass --tasks); the report shows no instructions"
        );
    }
    let mut budget = Budget::default();
    let report = nab_harness::merge::write(&joined, &shards, &args.out, &mut budget)?;
    for w in joined.warnings.iter().chain(&budget.skipped) {
        eprintln!("warning: {w}");
    }
    if let Some(e) = report {
        eprintln!(
            "warning: the report was not written: {e}; retry with: nab report --run {}",
            args.out.display()
        );
    }
    println!(
        "merged {} shard(s), {} trial(s){} → {}",
        shards.len(),
        joined.records.len(),
        if joined.missing.is_empty() {
            String::new()
        } else {
            format!(", {} missing", joined.missing.len())
        },
        args.out.display()
    );
    print!("{}", nab_harness::runner::summary_table(&joined.records));
    Ok(ExitCode::SUCCESS)
}

/// The suite's folder as the merged run.json records it (relative to `--out` when both
/// are on one tree), once its hash is the shards'.
fn tasks_dir(
    args: &Args,
    shards: &[nab_harness::merge::ShardRun],
    meta: &nab_protocol::run::RunMeta,
) -> Option<PathBuf> {
    let found = match &args.tasks {
        Some(t) => Some(nab_protocol::run::resolve_tasks_dir(
            meta,
            Path::new("."),
            Some(t),
        )),
        None => shards.iter().find_map(|s| {
            nab_protocol::run::resolve_tasks_dir(&s.meta, &s.dir, None)
                .ok()
                .map(Ok)
        }),
    };
    let dir = match found? {
        Ok(d) => d,
        Err(e) => {
            eprintln!("warning: {e}");
            return None;
        }
    };
    let parent = match args.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).ok()?;
    let out = parent.canonicalize().ok()?.join(args.out.file_name()?);
    let tasks = dir.canonicalize().ok()?;
    Some(super::run_meta::relative(&out, &tasks).unwrap_or(tasks))
}
