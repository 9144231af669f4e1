//! `nab regrade FILE`: re-grades a bundle offline (no model, no key) and exits non-zero
//! when any trial comes out differently from its record. See `nab_harness::run::regrade`.

use super::common::load_or_report;
use nab_harness::exit::{BAD_INPUT, FAILED, exit};
use nab_harness::run::bundle::open::BundleError;
use nab_harness::run::regrade::outcome::{RunResult, headline, outcome, table, write_markdown};
use nab_harness::run::regrade::replay::{Engines, replay_run};
use nab_harness::run::regrade::{Planned, Workspace, image_problems, plan, suite_problems};
use nab_harness::run::shard::ShardSpec;
use nab_harness::task::Task;
use nab_protocol::{RegradeOutcome, RunFolder};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bundle (written by `nab bundle`).
    bundle: PathBuf,
    /// The suite: it must be the one the bundle's runs used (same task files, same
    /// tests.lock); a different one is refused, naming what differs.
    #[arg(long, default_value = "tasks")]
    tasks: PathBuf,
    /// The regrade's folder (default: <FILE>.regrade/): the bundle unpacked, each trial's
    /// cassette, the trials played again, regrade.md. Give the same folder again to resume:
    /// trials already played are kept.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Trials played at once.
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    jobs: usize,
    /// Re-grade only share K of N (1-based; every N-th re-gradable trial from the K-th), so
    /// N machines share the work; each writes its own outcome.
    #[arg(long, value_name = "K/N")]
    shard: Option<ShardSpec>,
    #[command(flatten)]
    engines: super::common::EngineOpts,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let out = args.out.clone().unwrap_or_else(|| {
        let mut name = args.bundle.as_os_str().to_owned();
        name.push(".regrade");
        PathBuf::from(name)
    });
    let ws = match Workspace::open(&args.bundle, &out) {
        Ok(ws) => ws,
        Err(e)
            if e.downcast_ref::<BundleError>()
                .is_some_and(|b| matches!(b, BundleError::Tampered { .. })) =>
        {
            eprintln!("{e}");
            return Ok(exit(FAILED));
        }
        Err(e) => return Err(e),
    };
    let shard = args
        .shard
        .as_ref()
        .map(|s| (s.index as usize, s.count as usize));
    let (planned, skipped) = plan(&ws.manifest, shard);
    let Some((mut tasks, problems)) = check_suite(&ws, &args.tasks) else {
        return Ok(exit(BAD_INPUT));
    };
    if !problems.is_empty() {
        eprintln!(
            "refused: the bundle cannot be re-graded against {}:\n{}",
            args.tasks.display(),
            problems.join("\n")
        );
        return Ok(exit(BAD_INPUT));
    }
    say_agent_build(&ws);
    let Some(engines) = ready_engines(&args, &ws, &mut tasks).await? else {
        return Ok(exit(BAD_INPUT));
    };
    let by_id: HashMap<String, Arc<Task>> = tasks
        .iter()
        .map(|t| (t.id().to_owned(), t.clone()))
        .collect();
    let mut results = Vec::new();
    for (i, run) in ws.manifest.runs.iter().enumerate() {
        let mine: Vec<&Planned> = planned.iter().filter(|p| p.run == i).collect();
        let compared = replay_run(&ws, run, &mine, &by_id, &args.tasks, &engines).await?;
        let prefix = format!("{} ", nab_harness::run::regrade::run_name(run));
        let skipped = skipped
            .iter()
            .filter(|s| s.starts_with(&prefix))
            .cloned()
            .collect();
        results.push(RunResult {
            run,
            compared,
            skipped,
        });
    }
    finish(
        &ws,
        &args.bundle,
        &results,
        args.shard.map(|s| format!("{}/{}", s.index, s.count)),
    )
}

/// The engines, with the images built here, or `None` (said on stderr) when those are not
/// the images the bundle's runs used.
async fn ready_engines(
    args: &Args,
    ws: &Workspace,
    tasks: &mut [Arc<Task>],
) -> anyhow::Result<Option<Engines>> {
    let prepared = super::prepare_engines(&args.engines, args.jobs, tasks).await?;
    let image = prepared.image.clone();
    let problems: Vec<String> = ws
        .manifest
        .runs
        .iter()
        .flat_map(|r| image_problems(r, &image, tasks))
        .collect();
    if !problems.is_empty() {
        eprintln!(
            "refused: the images built here are not the ones the bundle's runs used:\n{}",
            problems.join("\n")
        );
        return Ok(None);
    }
    prepared.all_images().await?;
    let pool = prepared.connected.pool()?;
    Ok(Some(Engines {
        jobs: pool.capacity(),
        pool,
        image,
    }))
}

/// The tasks every run names, loaded from `tasks_dir`, and where the suite is not the
/// one the runs used. `None` when the suite could not be loaded (said on stderr).
fn check_suite(ws: &Workspace, tasks_dir: &Path) -> Option<(Vec<Arc<Task>>, Vec<String>)> {
    let mut ids: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    for run in &ws.manifest.runs {
        match RunFolder::open(&ws.bundled(run)) {
            Ok(f) => {
                problems.extend(suite_problems(run, &f.meta.task_ids, tasks_dir));
                ids.extend(f.meta.task_ids.iter().cloned());
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    ids.sort();
    ids.dedup();
    let tasks = load_or_report(tasks_dir, &ids)?;
    Some((tasks, problems))
}

/// Says when the nab-agent here is not the build the runs recorded: a divergence may then
/// come from the agent, not from the results.
fn say_agent_build(ws: &Workspace) {
    let Ok(local) = nab_harness::trial::model::locate_nab_agent() else {
        return;
    };
    let Some(here) = nab_harness::run::provenance::agent_build(&local) else {
        return;
    };
    for run in &ws.manifest.runs {
        if let Some(recorded) = run.provenance.as_ref().and_then(|p| p.agent_build.as_ref())
            && recorded.sha256 != here.sha256
        {
            eprintln!(
                "note: {}: the run used nab-agent {} ({}), this machine has {} ({}); a divergence may come from the agent's build",
                nab_harness::run::regrade::run_name(run),
                recorded.version,
                recorded.sha256,
                here.version,
                here.sha256
            );
        }
    }
}

fn finish(
    ws: &Workspace,
    bundle: &Path,
    results: &[RunResult<'_>],
    shard: Option<String>,
) -> anyhow::Result<ExitCode> {
    let o = outcome(ws, results, shard);
    write_markdown(ws, bundle, results, &o)?;
    nab_protocol::write_json_atomic(&RegradeOutcome::path_for(bundle), &o)?;
    print!("{}", table(results));
    println!("{}", headline(&o));
    println!("details → {}", ws.root.join("regrade.md").display());
    // A pass that could not be played again is not confirmed: the regrade fails, as it
    // does for a divergence (a forger's cheapest move is to make a forged pass unreplayable).
    let confirmed = o.runs.iter().all(|r| r.confirms());
    Ok(if confirmed {
        ExitCode::SUCCESS
    } else {
        exit(FAILED)
    })
}
