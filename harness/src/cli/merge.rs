//! `nab merge --out DIR SHARD_DIR...`: joins the run folders of `nab run --shard K/N`
//! into one run folder with its report, or the sweep folders of `nab sweep --shard K/N`
//! into one sweep folder (each run merged as a run is). See `nab_harness::run::merge` for the
//! checks.

use nab_harness::run::merge::sweep::{SweepShards, check_out_is_replaceable, is_sweep};
use nab_harness::run::merge::tree::{Budget, Limits};
use nab_protocol::SweepIndex;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The merged run (or sweep) folder (absent, empty, or an earlier merge, which is
    /// replaced).
    #[arg(long)]
    out: PathBuf,
    /// Merge even when some (task, trial) pairs are in no shard; they are listed.
    #[arg(long)]
    allow_partial: bool,
    /// The task suite, for the report's instructions (checked against the shards' suite
    /// hash). Default: the folder the shards recorded, else ./tasks.
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// The shards' folders: run folders (each written by `nab run --shard K/N --group ID`)
    /// or sweep folders (each written by `nab sweep --shard K/N --group ID`), not both.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sweeps = args.shards.iter().filter(|d| is_sweep(d)).count();
    if sweeps == 0 {
        merge_run(&args, &args.shards, &args.out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if sweeps != args.shards.len() {
        anyhow::bail!(
            "{} of the {} folders are sweep folders (they hold sweep.json): merge the shards of one sweep, or of one run, not both",
            sweeps,
            args.shards.len()
        );
    }
    let sweep = SweepShards::open(&args.shards)?;
    check_out_is_replaceable(&args.out)?;
    // Every run is checked before anything is written: one bad run writes nothing.
    let mut runs = Vec::new();
    for dir in sweep.run_dirs() {
        let shards = nab_harness::run::merge::open_all(&sweep.run_shards(&dir), Limits::default())?;
        let joined = join_run(&args, &shards, &args.out.join(&dir))?;
        runs.push((dir, shards, joined));
    }
    // Built beside --out and swapped in whole, as a run's merge is.
    let staging = nab_harness::run::merge::stage_beside(&args.out)?;
    for (dir, shards, joined) in &runs {
        println!("\n{dir}");
        write_run(
            joined,
            shards,
            &staging.path().join(dir),
            &args.out.join(dir),
        )?;
    }
    sweep.merged_index().write(staging.path())?;
    nab_harness::run::merge::swap_in(staging, &args.out)?;
    println!(
        "\nmerged {} sweep shard(s) → {}",
        args.shards.len(),
        SweepIndex::path(&args.out).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Merges the shard run folders `dirs` into the run folder `out`, with its report.
fn merge_run(args: &Args, dirs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let shards = nab_harness::run::merge::open_all(dirs, Limits::default())?;
    let joined = join_run(args, &shards, out)?;
    write_run(&joined, &shards, out, out)
}

/// The shards checked and joined, run.json completed for its place at `out`.
fn join_run(
    args: &Args,
    shards: &[nab_harness::run::merge::ShardRun],
    out: &Path,
) -> anyhow::Result<nab_harness::run::merge::Joined> {
    let mut joined = nab_harness::run::merge::join(shards, args.allow_partial)?;
    joined.meta.command = Some(std::env::args().collect::<Vec<_>>().join(" "));
    joined.meta.tasks_dir =
        nab_harness::run::merge::tasks_dir(args.tasks.as_deref(), out, shards, &joined.meta);
    if joined.meta.tasks_dir.is_none() {
        eprintln!(
            "warning: the task suite was not found (pass --tasks); the report shows no instructions"
        );
    }
    Ok(joined)
}

/// Writes a joined run at `at` (its final place `out`, or a folder staged beside it).
fn write_run(
    joined: &nab_harness::run::merge::Joined,
    shards: &[nab_harness::run::merge::ShardRun],
    at: &Path,
    out: &Path,
) -> anyhow::Result<()> {
    let mut budget = Budget::default();
    let report = nab_harness::run::merge::write(joined, shards, at, &mut budget)?;
    for w in joined.warnings.iter().chain(&budget.skipped) {
        eprintln!("warning: {w}");
    }
    if let Some(e) = report {
        eprintln!(
            "warning: the report was not written: {e}; retry with: nab report --run {}",
            out.display()
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
        out.display()
    );
    print!("{}", nab_reports::run_end::tasks_table(&joined.records));
    Ok(())
}
