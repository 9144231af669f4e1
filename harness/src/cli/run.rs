//! `nab run`: an agent on tasks, K trials each, results appended to results.jsonl.

use super::common::{default_out, load_or_report};
use nab_harness::exit::{BAD_INPUT, exit};
use nab_harness::run::shard::Share;
use nab_harness::run::{CostLimit, Job, RunConfig, RunReport, new_run_id, run_jobs_within};
use nab_harness::task::Task;
use nab_harness::trial::AgentKind;
use nab_harness::trial::model::ModelSetup;
use nab_protocol::{RunMeta, TrialStatus};
use nab_reports::run_end::tasks_table;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder with one sub-folder per task.
    #[arg(long, default_value = "tasks")]
    tasks: PathBuf,
    /// nab-agent | oracle | null | wrong:<name> | command:<path> | a declared agent:
    /// <name> or agent:<name>, declared in <agents dir>/<name>/agent.yaml (e.g.
    /// mini-swe-agent, aider). A declared agent runs in its own image on top of each
    /// task's image, built before the first trial when missing (`nab image build --agent
    /// <name>` builds it ahead); it needs --model.
    #[arg(long)]
    agent: String,
    /// The folder of declared agents (one sub-folder per agent, each with an agent.yaml).
    #[arg(long, value_name = "DIR", default_value = nab_harness::agents::DEFAULT_DIR)]
    agents: PathBuf,
    /// The model behind the trial's gateway: scripted:task | scripted:<file> |
    /// replay:<cassette-dir> | record:<cassette-dir>:<spec> |
    /// openai[<options>]:<model>[@<base_url>], options (comma-separated) stream=on|off,
    /// stream_options=send|omit, tool_choice=send|omit, parallel_tool_calls=send|omit |
    /// anthropic[cache=on|off]:<model>[@<base_url>] (the Messages API, translated, with the
    /// stable prompt prefix marked for prompt caching unless cache=off; key
    /// ANTHROPIC_API_KEY unless --api-key-env; default base URL https://api.anthropic.com).
    /// nab-agent without one gets scripted:task (each task's scripted trajectory: no key,
    /// no network); a command: agent given one may use /nab/llm.sock, or the same gateway
    /// at $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL (http://127.0.0.1:47611, the container's
    /// own loopback; the keys it is given are placeholders).
    #[arg(long)]
    model: Option<String>,
    /// The host variable holding the provider's API key (default NAB_API_KEY;
    /// ANTHROPIC_API_KEY for anthropic:).
    #[arg(long)]
    api_key_env: Option<String>,
    /// A prices file (YAML; see ci/prices.example.yaml): model globs → USD per million
    /// input, cached-input (cache read), cache-write and output tokens. The first entry
    /// matching the model name the gateway sends upstream prices every trial (`cost_usd` in
    /// its record, from the gateway's token counts); the judges' calls (`--judge`) are priced
    /// from the same file, each on its own record. Without it, or when no entry matches (said
    /// once at the start), records have no cost.
    #[arg(long, value_name = "FILE")]
    prices: Option<PathBuf>,
    /// A spending limit for the whole run, in US dollars: once the finished trials' total
    /// `cost_usd` reaches it, no new trial starts (running ones finish and are recorded).
    /// Trials not started are not recorded, so `--resume` runs them later; the run then
    /// exits 3. One trial may cross the limit (it is checked between trials). Needs a
    /// price for the model (--prices).
    #[arg(long, value_name = "USD", value_parser = nab_harness::run::cost_limit::parse_usd)]
    max_cost_usd: Option<f64>,
    /// Trials per task.
    #[arg(long, default_value_t = 1)]
    trials: u32,
    /// Trials run at once (on each engine, unless its --engine URL says #slots=N).
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    jobs: usize,
    /// Output folder (default runs/<run id>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Skip trials already recorded in <out>/results.jsonl.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Attempts per trial when the infrastructure fails (not when the task fails).
    #[arg(long, default_value_t = 3)]
    attempts: u32,
    /// Retries of one model call the provider failed (429, 5xx that are not validation
    /// errors, dropped connections, timeouts, streams that broke before their first chunk),
    /// waiting 1, 2, 4 … s between them (at most 5 min each; a Retry-After up to 5 min is
    /// honoured). The default, 8, waits about 4 min 15 s in all before the call fails and
    /// the trial becomes an infrastructure error (then retried per --attempts).
    #[arg(long, value_name = "N", default_value_t = nab_gateway::DEFAULT_MAX_RETRIES,
          value_parser = clap::value_parser!(u32).range(0..=20))]
    max_retries: u32,
    /// Run id (default: time-based). Labels every container as nab.run=<id>.
    #[arg(long)]
    run_id: Option<String>,
    #[command(flatten)]
    sharding: super::shard_opts::ShardOpts,
    /// LLM judges: `--judge SPEC` (repeatable) grades each verified trial; `--rubric FILE`.
    #[command(flatten)]
    judge: nab_judges::JudgeOpts,
    #[command(flatten)]
    judge_call: nab_harness::run::judge_model::JudgeCallOpts,
    #[command(flatten)]
    engines: super::common::EngineOpts,
    /// Task ids (default: every task in --tasks).
    ids: Vec<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let agent = AgentKind::resolve(&args.agent, &args.agents)?;
    if args.trials == 0 {
        anyhow::bail!("--trials must be at least 1");
    }
    let Some(mut tasks) = load_or_report(&args.tasks, &args.ids) else {
        return Ok(exit(BAD_INPUT));
    };
    // Each task's files as they were loaded: a trial reads its task's files when it starts.
    let files = nab_harness::run::task_files::TaskFiles::hash(&tasks)?;
    every_task_has(&agent, &tasks)?;
    let prices = args
        .prices
        .as_deref()
        .map(nab_gateway::Prices::load)
        .transpose()?;
    let (model, cost_limit) = priced_model(&args, &agent, &tasks, prices.as_ref())?;
    // Judges are built before Docker so a bad --judge spec or rubric fails fast.
    let judge = nab_judges::TrialGrader::from_opts(
        &args.judge,
        &nab_harness::run::judge_model::judge_factory(
            args.judge_call,
            prices.clone().map(Arc::new),
        ),
    )?
    .map(Arc::new);
    // The share is cut before Docker is touched: a bad --balance-from fails fast.
    let share = args.sharding.cut(&tasks, args.trials)?;
    let prepared = super::prepare_engines(&args.engines, args.jobs, &mut tasks).await?;
    if let AgentKind::Declared(a) = &agent {
        super::agent_images::for_run(&prepared, a, &tasks).await?;
    }
    let (engines, image) = (prepared.connected.pool()?, prepared.image.clone());
    let run_id = args.run_id.clone().unwrap_or_else(new_run_id);
    let out = args.out.clone().unwrap_or_else(|| default_out("", &run_id));
    let meta = start_meta(
        &args,
        &out,
        &run_id,
        model.as_deref(),
        &tasks,
        &image,
        share.as_ref(),
    )?;
    let jobs = jobs_of(&tasks, &agent, args.trials, share.as_ref());
    let cfg = RunConfig {
        resume: args.resume,
        model,
        judge,
        images: prepared.images.clone(),
        progress: prepared.progress.clone(),
        ..RunConfig::on_engines(engines, image, out.clone(), run_id, args.attempts)
    };
    let report = run_jobs_within(cfg, jobs, CancellationToken::new(), cost_limit.clone()).await?;
    let resume = format!("nab run --resume --out {} ...", out.display());
    if let Some(why) = &report.provider_config {
        // One line, nothing scored: a table or report of 0% would read as the model's
        // result. run.json stays unfinished, as after an interruption.
        return Ok(super::common::provider_config_stop(why, &resume));
    }
    print_end(&out, meta, &report);
    warn_if_changed(&files, &tasks);
    let errors = report
        .records
        .iter()
        .filter(|r| r.outcome.status == TrialStatus::Error)
        .count();
    Ok(super::common::finish(
        report.end(),
        errors,
        cost_limit.as_deref(),
        &resume,
    ))
}

/// `--agent wrong:NAME` needs that known-wrong solution in every task of the run.
fn every_task_has(agent: &AgentKind, tasks: &[Arc<Task>]) -> anyhow::Result<()> {
    if let AgentKind::Wrong(name) = agent
        && let Some(t) = tasks.iter().find(|t| !t.wrong.contains(name))
    {
        anyhow::bail!(
            "agent wrong:{name}: task {} has no wrong/{name}/ (it has: {:?})",
            t.id(),
            t.wrong
        );
    }
    Ok(())
}

/// Names the tasks whose files changed while the run went on: their later trials ran on
/// other files than run.json's hashes say.
fn warn_if_changed(files: &nab_harness::run::task_files::TaskFiles, tasks: &[Arc<Task>]) {
    let changed = files.changed(tasks);
    if !changed.is_empty() {
        eprintln!(
            "warning: task(s) changed while the run went on: {}. run.json's task hashes are those of the start, and the trials that started after the change ran on the new files: run these tasks again",
            changed.join(", ")
        );
    }
}

/// run.json, written before the first trial: the run's specs, suite and share, and its
/// provenance (agent build, images, test set, price).
fn start_meta(
    args: &Args,
    out: &Path,
    run_id: &str,
    model: Option<&ModelSetup>,
    tasks: &[Arc<Task>],
    image: &str,
    share: Option<&Share>,
) -> anyhow::Result<RunMeta> {
    let ids: Vec<String> = tasks.iter().map(|t| t.id().to_owned()).collect();
    let mut meta = nab_harness::run::meta::start(
        out,
        run_id,
        &args.agent,
        model.map(|m| m.spec.as_str()),
        nab_harness::run::meta::Suite {
            dir: &args.tasks,
            ids: &ids,
        },
        args.trials,
        args.resume,
        args.sharding.recorded(share),
    )?;
    let provenance = nab_harness::run::provenance::of_run(model, image, tasks, &args.tasks);
    nab_harness::run::provenance::record(out, &mut meta, provenance)?;
    Ok(meta)
}

/// The run's `--max-cost-usd` total, shared with the runner.
type CostLimitRef = Arc<CostLimit>;

/// The run's model (checked against the agent and every task), priced from the prices
/// file, and the `--max-cost-usd` limit, which needs that price.
fn priced_model(
    args: &Args,
    agent: &AgentKind,
    tasks: &[Arc<Task>],
    prices: Option<&nab_gateway::Prices>,
) -> anyhow::Result<(Option<Arc<ModelSetup>>, Option<CostLimitRef>)> {
    let mut model = nab_harness::trial::model::prepare(
        agent,
        args.model.as_deref(),
        args.api_key_env.clone(),
        tasks,
    )?;
    let pricing = nab_harness::trial::cost::Pricing::resolve(prices, model.as_ref());
    if let Some(note) = pricing.note() {
        eprintln!("{note}");
    }
    // A dollar limit the gateway cannot price would be no limit: refused before anything runs.
    nab_harness::trial::cost::require_price(
        &pricing,
        model.as_ref(),
        tasks,
        args.max_cost_usd,
        args.prices.as_deref(),
    )?;
    let cost_limit = args
        .max_cost_usd
        .map(CostLimit::new)
        .transpose()?
        .map(Arc::new);
    if let Some(m) = model.as_mut() {
        m.price = pricing.price().cloned();
        m.max_retries = Some(args.max_retries);
    }
    Ok((model.map(Arc::new), cost_limit))
}

/// Every task's trials `0..trials`, those of this shard only with `--shard`.
fn jobs_of(tasks: &[Arc<Task>], agent: &AgentKind, trials: u32, share: Option<&Share>) -> Vec<Job> {
    tasks
        .iter()
        .flat_map(|t| {
            (0..trials).map(|i| Job {
                task: t.clone(),
                agent: agent.clone(),
                trial: i,
                dir_name: i.to_string(),
                stop_at_first_failure: false,
            })
        })
        .filter(|j| share.is_none_or(|s| s.has(j.task.id(), j.trial)))
        .collect()
}

/// The tasks table, where the results are, run.json finished with the report's path (the
/// last line on stdout: what a person opens next), and a warning for leftovers.
fn print_end(out: &Path, meta: RunMeta, report: &RunReport) {
    print!("{}", tasks_table(&report.records));
    println!(
        "run {} → {}{}",
        report.run_id,
        nab_protocol::RunPaths::new(out).results().display(),
        if report.resumed > 0 {
            format!(" ({} trial(s) kept from before)", report.resumed)
        } else {
            String::new()
        }
    );
    super::run_meta::finish(out, meta, &report.run_id);
    if report.leftovers > 0 {
        eprintln!(
            "warning: the end-of-run sweep removed {} leftover container(s)/volume(s)/disk quota(s)",
            report.leftovers
        );
    }
}
