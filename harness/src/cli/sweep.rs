//! `nab sweep sweep.yaml [--out DIR] [--resume] [-j N]`: agents × models × tasks × trials,
//! one ordinary run folder per (agent, model) pair under the sweep folder, trials
//! interleaved across the runs, each provider under its own concurrency and pace.

use super::common::{default_out, load_or_report};
use nab_gateway::Pace;
use nab_harness::exit::{BAD_INPUT, INTERRUPTED, exit};
use nab_harness::run::shard::Share;
use nab_harness::run::sweep::{Plan, Sweep, SweepConfig, SweepReport, SweepResume, models};
use nab_harness::run::{CostLimit, new_run_id};
use nab_harness::task::Task;
use nab_harness::trial::model::ModelSetup;
use nab_protocol::RunMeta;
use nab_protocol::SweepIndex;
use nab_protocol::TrialStatus;
use nab_reports::run_end::tasks_table;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The sweep file (YAML). Keys: agents (list, as --agent takes them), models (list, as
    /// --model takes them), tasks {dir, ids (optional)}, trials (default 1), jobs (default
    /// 1), attempts (default 3), providers {<model spec or its start>: {concurrency, rpm,
    /// max_retries, api_key_env}}. Example: ci/sweep.example.yaml; docs/src/guide/sweeps-and-leaderboards.md has the rest.
    file: PathBuf,
    /// The sweep folder (default runs/sweep-<time>): sweep.json and one run folder per
    /// (agent, model) pair.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the stopped sweep in --out: trials its run folders already recorded are
    /// skipped (errors run again). Refused when the sweep file changed since it started.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Trials at once over the whole sweep (default: the file's `jobs`).
    #[arg(short = 'j', long = "jobs")]
    jobs: Option<usize>,
    /// A prices file (YAML; see ci/prices.example.yaml), as `nab run --prices`: each run's
    /// model is priced by the first entry matching it, and its trial records get `cost_usd`.
    #[arg(long, value_name = "FILE")]
    prices: Option<PathBuf>,
    /// A spending limit for the whole sweep, in US dollars, as `nab run --max-cost-usd`:
    /// one total over all its runs; once it is reached no new trial starts anywhere in the
    /// sweep, trials not started are not recorded (`--resume` runs them) and the sweep
    /// exits 3. Every model of the sweep needs a price (--prices).
    #[arg(long, value_name = "USD", value_parser = nab_harness::run::cost_limit::parse_usd)]
    max_cost_usd: Option<f64>,
    /// Sweep id (default: time-based); run N is labelled nab.run=<id>-NN (`nab clean --run`).
    #[arg(long)]
    id: Option<String>,
    #[command(flatten)]
    sharding: super::shard_opts::ShardOpts,
    #[command(flatten)]
    engines: super::common::EngineOpts,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(Checked {
        sweep,
        mut tasks,
        share,
        plan,
        paces,
        setups,
    }) = check(&args)?
    else {
        return Ok(exit(BAD_INPUT));
    };
    let f = &sweep.file;
    let sweep_id = args.id.clone().unwrap_or_else(new_run_id);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out("sweep-", &sweep_id));
    let mut index = open_index(&args, &sweep, &plan, share.as_ref(), &out)?;
    let jobs = args.jobs.unwrap_or(f.jobs as usize);
    let prepared = super::prepare_with_images(&args.engines, jobs, &mut tasks).await?;
    super::agent_images::for_agents(&prepared, &sweep.agents, &tasks).await?;
    let (engines, image) = (prepared.connected.pool()?, prepared.image.clone());
    index.write(&out)?;
    let run_ids: Vec<String> = (0..plan.runs.len())
        .map(|i| format!("{sweep_id}-{:02}", i + 1))
        .collect();
    let mut metas = start_runs(&args, &sweep, &plan, &tasks, &out, &run_ids, share.as_ref())?;
    record_provenance(
        &mut metas,
        &plan,
        &setups,
        &image,
        &tasks,
        &f.tasks.dir,
        &out,
    )?;
    let cost_limit = cost_limit(&args)?;
    let cancel = CancellationToken::new();
    let whole = share.is_none();
    let cfg = SweepConfig {
        plan: plan.clone(),
        tasks,
        trials: f.trials,
        // Each engine takes `jobs` trials (or its #slots=N): the sweep runs them all.
        jobs: engines.capacity(),
        attempts: f.attempts,
        out: out.clone(),
        resume: args.resume,
        engines,
        image,
        models: setups,
        run_ids,
        progress: prepared.progress.clone(),
        cost_limit: cost_limit.clone(),
        share,
    };
    let report = tokio::select! {
        report = nab_harness::run::sweep::run_sweep(cfg, cancel.clone()) => report?,
        // Dropping the sweep stops its trials where they are.
        () = interrupted_twice(cancel.clone()) => return Ok(exit(INTERRUPTED)),
    };
    let resume = resume_command(&args, &out);
    if let Some((run, why)) = &report.provider_config {
        return Ok(super::common::provider_config_stop(
            &format!("run {run}: {why}"),
            &resume,
        ));
    }

    let errors = print_runs(&plan, &report, metas);
    finish_index(&mut index, &plan, &paces, &report, &out)?;
    rank_if_whole(whole, &report, &out);
    Ok(super::common::finish(
        report.end(),
        errors,
        cost_limit.as_deref(),
        &resume,
    ))
}

/// A whole sweep that ran to its end is ranked at once; a shard or a stopped sweep is not
/// (`nab leaderboard` ranks it once merged or resumed).
fn rank_if_whole(whole: bool, report: &SweepReport, out: &Path) {
    if whole && !report.interrupted && report.no_engine.is_none() {
        print_leaderboard(out);
    }
}

/// Ranks the sweep's runs as `nab leaderboard SWEEP` does, and says where the pages are. A
/// leaderboard that cannot be built (every trial an error, say) is said, not an error of
/// the sweep: its results are all written.
fn print_leaderboard(out: &Path) {
    use clap::{Args as _, FromArgMatches as _};
    // Its defaults are the command's own: parsed as `nab leaderboard SWEEP` would be.
    let command = nab_reports::LeaderboardArgs::augment_args(clap::Command::new("leaderboard"));
    let parsed = command
        .try_get_matches_from([std::ffi::OsStr::new("leaderboard"), out.as_os_str()])
        .and_then(|m| nab_reports::LeaderboardArgs::from_arg_matches(&m));
    let args = match parsed {
        Ok(a) => a,
        Err(e) => {
            eprintln!("leaderboard: {e}");
            return;
        }
    };
    match nab_reports::cli::leaderboard::run_with(&args, Vec::new()) {
        Ok(r) => {
            print!("{}", nab_reports::cli::leaderboard::terminal(&r.board));
            println!("leaderboard {}", r.written.html.display());
        }
        Err(e) => eprintln!("no leaderboard for this sweep: {e:#}"),
    }
}

/// A sweep whose file, tasks and models passed every check.
struct Checked {
    sweep: Sweep,
    tasks: Vec<Arc<Task>>,
    share: Option<Share>,
    plan: Plan,
    paces: Vec<Arc<Pace>>,
    /// Each run's model, in the plan's order.
    setups: Vec<Option<Arc<ModelSetup>>>,
}

/// The sweep file, its tasks and every model, checked before Docker or the sweep folder
/// is touched. `None` when something is wrong (said on stderr): exit 2.
fn check(args: &Args) -> anyhow::Result<Option<Checked>> {
    let sweep = match Sweep::load(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Ok(None);
        }
    };
    if args.jobs == Some(0) {
        anyhow::bail!("-j/--jobs must be at least 1");
    }
    let f = &sweep.file;
    let Some(tasks) = load_or_report(&f.tasks.dir, &f.tasks.ids) else {
        return Ok(None);
    };
    let prices = args
        .prices
        .as_deref()
        .map(nab_gateway::Prices::load)
        .transpose()?;
    if !wrong_solutions_exist(&args.file, &sweep, &tasks) {
        return Ok(None);
    }
    // Every run is cut as `nab run --shard` cuts it: shard K holds the same (task, trial)
    // pairs of each run, so a sweep's shards stay balanced across its models.
    let share = args.sharding.cut(&tasks, f.trials)?;
    let plan = Plan::new(&sweep);
    let paces = models::paces(&plan);
    let prices = models::Prices {
        prices: prices.as_ref(),
        file: args.prices.as_deref(),
        max_cost_usd: args.max_cost_usd,
    };
    let Some(setups) = prepare_models(&args.file, &plan, &paces, &tasks, prices) else {
        return Ok(None);
    };
    Ok(Some(Checked {
        sweep,
        tasks,
        share,
        plan,
        paces,
        setups,
    }))
}

/// The sweep folder and its sweep.json: begun, or (with `--resume`) read back and checked
/// against this sweep file and shard.
fn open_index(
    args: &Args,
    sweep: &Sweep,
    plan: &Plan,
    share: Option<&Share>,
    out: &Path,
) -> anyhow::Result<SweepIndex> {
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("cannot create the sweep folder {}: {e}", out.display()))?;
    let index_runs = models::index_runs(plan);
    let mut index = SweepIndex::begin(out, &args.file, &sweep.hash, index_runs, args.resume)?;
    index.check_sharding(
        out,
        args.resume,
        share.map(|s| &s.meta),
        args.sharding.group.as_deref(),
    )?;
    Ok(index)
}

/// sweep.json's last write: how each provider paced the sweep (said on stderr when it
/// slowed), and its end time unless the sweep stopped early.
fn finish_index(
    index: &mut SweepIndex,
    plan: &Plan,
    paces: &[Arc<Pace>],
    report: &SweepReport,
    out: &Path,
) -> anyhow::Result<()> {
    index.providers = models::index_providers(plan, paces);
    for p in index.providers.iter().filter(|p| p.slowed > 0) {
        eprintln!(
            "provider {}: {} answer(s) asked to slow down; requests waited {:.1} s in all",
            p.name,
            p.slowed,
            p.waited_ms as f64 / 1000.0
        );
    }
    // A sweep the cost limit stopped is not finished: `--resume` completes it.
    if !report.interrupted && report.skipped == 0 && report.no_engine.is_none() {
        index.finished_at = Some(nab_protocol::now_rfc3339());
    }
    index.write(out)?;
    println!("\nsweep → {}", SweepIndex::path(out).display());
    Ok(())
}

/// A known-wrong solution must exist in every task, as `nab run --agent wrong:` checks.
/// False (and said on stderr) when an agent names one some task lacks.
fn wrong_solutions_exist(file: &Path, sweep: &Sweep, tasks: &[Arc<Task>]) -> bool {
    for (i, a) in sweep.agents.iter().enumerate() {
        if let nab_harness::trial::AgentKind::Wrong(name) = a
            && let Some(t) = tasks.iter().find(|t| !t.wrong.contains(name))
        {
            eprintln!(
                "{}: field `agents[{i}]`: task {} has no wrong/{name}/ (it has: {:?})",
                file.display(),
                t.id(),
                t.wrong
            );
            return false;
        }
    }
    true
}

/// Every model checked against every task (keys, trajectories, cassettes) before Docker:
/// each run's model setup, or `None` when a run is refused (all refusals said on stderr).
fn prepare_models(
    file: &Path,
    plan: &Plan,
    paces: &[Arc<Pace>],
    tasks: &[Arc<Task>],
    prices: models::Prices<'_>,
) -> Option<Vec<Option<Arc<ModelSetup>>>> {
    let models::Models {
        setups,
        notes,
        problems,
    } = models::prepare(plan, paces, tasks, prices);
    for note in notes {
        eprintln!("{note}");
    }
    let problems: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {p}", file.display()))
        .collect();
    if !problems.is_empty() {
        eprintln!("{}", problems.join("\n"));
        return None;
    }
    Some(setups)
}

/// `--max-cost-usd`, shared with the sweep's trials.
fn cost_limit(args: &Args) -> anyhow::Result<Option<Arc<CostLimit>>> {
    Ok(args
        .max_cost_usd
        .map(CostLimit::new)
        .transpose()?
        .map(Arc::new))
}

/// The command that continues this sweep.
fn resume_command(args: &Args, out: &Path) -> String {
    format!(
        "nab sweep {} --resume --out {}",
        args.file.display(),
        out.display()
    )
}

/// Each run's provenance (agent build, images, test set, price) in its run.json.
fn record_provenance(
    metas: &mut [RunMeta],
    plan: &Plan,
    setups: &[Option<Arc<ModelSetup>>],
    image: &str,
    tasks: &[Arc<Task>],
    tasks_dir: &Path,
    out: &Path,
) -> anyhow::Result<()> {
    for ((meta, run), setup) in metas.iter_mut().zip(&plan.runs).zip(setups) {
        let provenance =
            nab_harness::run::provenance::of_run(setup.as_deref(), image, tasks, tasks_dir);
        nab_harness::run::provenance::record(&out.join(&run.dir), meta, provenance)?;
    }
    Ok(())
}

/// Each run's folder and run.json, in the plan's order; then what the sweep runs, on stderr.
fn start_runs(
    args: &Args,
    sweep: &Sweep,
    plan: &Plan,
    tasks: &[Arc<Task>],
    out: &Path,
    run_ids: &[String],
    share: Option<&Share>,
) -> anyhow::Result<Vec<RunMeta>> {
    let f = &sweep.file;
    let ids: Vec<String> = tasks.iter().map(|t| t.id().to_owned()).collect();
    let mut metas = Vec::with_capacity(plan.runs.len());
    for (i, run) in plan.runs.iter().enumerate() {
        let dir = out.join(&run.dir);
        let mut meta = nab_harness::run::meta::start(
            &dir,
            &run_ids[i],
            &run.agent.to_string(),
            run.model.as_deref(),
            nab_harness::run::meta::Suite {
                dir: &f.tasks.dir,
                ids: &ids,
            },
            f.trials,
            args.resume,
            args.sharding.recorded(share),
        )?;
        // The model's alias names the run on every page (`agent · alias`).
        let alias = run.model.as_ref().and_then(|m| f.aliases.get(m));
        if let Some(alias) = alias {
            meta.label = Some(format!("{} · {}", run.agent, alias.trim()));
            meta.write(&dir)?;
        }
        metas.push(meta);
    }
    eprintln!(
        "sweep {}: {} run(s) × {} task(s) × {} trial(s) → {}",
        args.file.display(),
        plan.runs.len(),
        tasks.len(),
        f.trials,
        out.display()
    );
    Ok(metas)
}

/// Each run's table of tasks, its run.json finished, and a warning for leftovers the
/// end-of-run sweep removed. Returns the number of trials that ended in an error.
fn print_runs(plan: &Plan, report: &SweepReport, metas: Vec<RunMeta>) -> usize {
    let mut errors = 0;
    for ((run, r), meta) in plan.runs.iter().zip(&report.runs).zip(metas) {
        println!(
            "\n{} (agent {}, model {})",
            run.dir,
            run.agent,
            run.model.as_deref().unwrap_or("none")
        );
        print!("{}", tasks_table(&r.records));
        super::run_meta::finish(&r.dir, meta, &r.run_id);
        errors += r
            .records
            .iter()
            .filter(|x| x.outcome.status == TrialStatus::Error)
            .count();
        if r.leftovers > 0 {
            eprintln!(
                "warning: the end-of-run sweep removed {} leftover container(s)/volume(s)/disk quota(s) of {}",
                r.leftovers, r.run_id
            );
        }
    }
    errors
}

/// The first Ctrl-C or SIGTERM stops the sweep (running trials are stopped and cleaned up,
/// finished ones kept); this returns on a second one, when the sweep must end at once, and
/// never otherwise.
async fn interrupted_twice(cancel: CancellationToken) {
    let mut stop = nab_harness::run::stop_signals::StopSignals::listen();
    stop.next().await;
    eprintln!("\ninterrupted: stopping trials and removing their containers ...");
    cancel.cancel();
    stop.next().await;
    eprintln!("\ninterrupted again: exiting now; `nab clean` removes what is left");
}
