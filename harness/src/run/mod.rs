//! The runner: a dispatcher that owns scheduling, Ctrl-C and the results file, and
//! executors that run trials and report over a channel. An interruption flows through
//! the same cancellation token a deadline uses, so cleanup has one code path.

pub mod bundle;
pub mod cost_limit;
mod engines;
pub mod judge_model;
mod judging;
pub mod merge;
pub mod meta;
pub mod progress;
pub mod provenance;
mod provider_guard;
pub mod regrade;
mod results;
pub mod shard;
pub mod stop_signals;
pub mod sweep;
pub mod task_files;
pub mod task_images;
pub mod validate;

pub use cost_limit::CostLimit;
pub use engines::{Connected, EnginePool, Lease, NoEngine, PoolEngine};
pub use progress::{Progress, Reporter};
pub use provider_guard::ProviderGuard;
pub use results::{ResultsFile, ResumeState};
pub use task_images::TaskImages;

use crate::task::Task;
use crate::trial::agent::AgentKind;
use crate::trial::model::ModelSetup;
use crate::trial::{TrialContext, TrialError, TrialJob, TrialParts, run_trial};
use nab_protocol::RunPaths;
use nab_protocol::{AgentBehaviour, ModelUsage, TrialOutcome, TrialRecord, TrialStatus};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc};
use tokio_util::sync::CancellationToken;

/// One unit of work: a task, an agent, a trial index, and the name of its folder.
#[derive(Debug, Clone)]
pub struct Job {
    pub task: Arc<Task>,
    pub agent: AgentKind,
    pub trial: u32,
    /// Folder under `<out>/trials/<task>/`.
    pub dir_name: String,
    /// The hidden tests stop at the first real failure (see
    /// [`crate::trial::TrialJob::stop_at_first_failure`]): only for `nab validate`'s checks
    /// that must fail, whose verdict one failing test settles.
    pub stop_at_first_failure: bool,
}

pub struct RunConfig {
    /// The engines trials run on (one without `--engine`: [`EnginePool::single`]).
    pub engines: Arc<EnginePool>,
    pub image: String,
    pub out_dir: PathBuf,
    /// Used when not resuming a run that already has one.
    pub run_id: String,
    /// Trials at once over the whole run (`nab run` makes it the pool's capacity).
    pub jobs: usize,
    /// Attempts per trial for infrastructure errors (1 = no retry).
    pub max_attempts: u32,
    pub resume: bool,
    /// Where progress events go ([`progress::for_stderr`] for a command line).
    pub progress: Arc<dyn Reporter>,
    /// `--model`: the gateway's provider for agents that talk to a model.
    pub model: Option<Arc<crate::trial::model::ModelSetup>>,
    /// `--judge`: grade each verified trial (None: not judged).
    pub judge: Option<Arc<nab_judges::TrialGrader>>,
    /// The task images still being built; their trials run last and wait for them.
    pub images: Arc<TaskImages>,
}

impl RunConfig {
    /// A run of `nab` on the command line: as many trials at once as the engines have
    /// slots, progress on stderr, not resumed, no model, no judge.
    pub fn on_engines(
        engines: Arc<EnginePool>,
        image: String,
        out_dir: PathBuf,
        run_id: String,
        max_attempts: u32,
    ) -> RunConfig {
        RunConfig {
            jobs: engines.capacity(),
            engines,
            image,
            out_dir,
            run_id,
            max_attempts,
            resume: false,
            progress: progress::for_stderr(),
            model: None,
            judge: None,
            images: TaskImages::present(),
        }
    }
}

#[derive(Debug)]
pub struct RunReport {
    pub run_id: String,
    /// Every record of the run, including those kept from before a resume.
    pub records: Vec<TrialRecord>,
    pub resumed: usize,
    pub interrupted: bool,
    /// Containers/volumes/quotas the end-of-run sweep still found (should be 0).
    pub leftovers: usize,
    /// Trials `--max-cost-usd` kept from starting (not recorded).
    pub skipped: usize,
    /// Engines lost during the run: `(name, why)`. Their trials were retried elsewhere.
    pub lost_engines: Vec<(String, String)>,
    /// Set when every engine was lost: the run stopped, and the trials not yet run are not
    /// recorded (`--resume` runs them).
    pub no_engine: Option<String>,
    /// Set when the provider refused the run's configuration (a bad key, an unknown model):
    /// the run stopped and no trial was scored on it ([`ProviderGuard`]).
    pub provider_config: Option<String>,
}

/// How the scheduling of a run (or a sweep) ended, for the command line's last words.
#[derive(Debug, Clone, Copy)]
pub struct RunEnd<'a> {
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
    /// Engines lost on the way: `(name, why)`.
    pub lost_engines: &'a [(String, String)],
    /// Why it stopped when every engine was lost.
    pub no_engine: Option<&'a str>,
}

impl RunReport {
    /// How its scheduling ended.
    pub fn end(&self) -> RunEnd<'_> {
        RunEnd {
            interrupted: self.interrupted,
            lost_engines: &self.lost_engines,
            no_engine: self.no_engine.as_deref(),
        }
    }
}

/// What every trial of one run shares; each attempt runs on the engine it leased
/// ([`RunContext::on`]).
#[derive(Clone)]
pub struct RunContext {
    pub engines: Arc<EnginePool>,
    pub image: String,
    pub run_id: String,
    /// The run's model (`--model`), for agents that use the gateway.
    pub model: Option<Arc<ModelSetup>>,
    /// Stops the run when its provider refuses the configuration.
    pub guard: Arc<ProviderGuard>,
    /// The task images still being built.
    pub images: Arc<TaskImages>,
    /// Removals trials hand over (see [`crate::trial::Reaper`]); the run waits for them
    /// before its end-of-run sweep.
    pub reaper: Option<crate::trial::Reaper>,
    /// Disk quotas made ahead for the run's trials; removed, those left, at its end.
    pub quotas: Option<Arc<crate::trial::QuotaPool>>,
}

impl RunContext {
    /// The trial context of an attempt on `lease`'s engine.
    pub fn on(&self, lease: &Lease) -> TrialContext {
        TrialContext {
            backend: lease.backend().clone(),
            image: self.image.clone(),
            run_id: self.run_id.clone(),
            model: self.model.clone(),
            reaper: self.reaper.clone(),
            quotas: self.quotas.clone(),
        }
    }

    /// Waits for the removals the trials handed over, and removes the quotas made ahead
    /// that no trial took: what the end-of-run sweep would otherwise count as left behind.
    pub async fn settle(&self) {
        if let Some(r) = &self.reaper {
            r.wait().await;
        }
        if let Some(q) = &self.quotas {
            q.drain().await;
        }
    }
}

/// How a trial's executor ended.
#[derive(Debug)]
pub(crate) enum Ended {
    // Boxed: a record is large, and most values of a skip-heavy run are the small variants.
    Record(Box<TrialRecord>),
    /// Interrupted before it produced a record.
    Dropped,
    /// Not started: the cost limit was reached.
    Skipped,
}

impl Ended {
    /// Tells the reporter; returns the record, if any.
    pub(crate) fn report(self, reporter: &dyn Reporter) -> Option<TrialRecord> {
        match self {
            Ended::Record(rec) => {
                reporter.report(Progress::Trial(&rec));
                Some(*rec)
            }
            Ended::Dropped => {
                reporter.report(Progress::Dropped);
                None
            }
            Ended::Skipped => {
                reporter.report(Progress::Skipped);
                None
            }
        }
    }
}

/// Runs `trial` (an [`execute`] not yet started) unless `limit` was reached (then it is
/// skipped, never polled), and adds what it spent to the limit's total before returning,
/// i.e. before its slot is given to the next trial.
pub(crate) async fn execute_within(
    limit: Option<&CostLimit>,
    trial: impl std::future::Future<Output = Option<TrialRecord>>,
) -> Ended {
    if let Some(l) = limit
        && l.reached()
    {
        l.skip();
        return Ended::Skipped;
    }
    match trial.await {
        Some(rec) => {
            if let Some(l) = limit {
                l.add(rec.usage.cost_usd);
            }
            Ended::Record(Box::new(rec))
        }
        None => Ended::Dropped,
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    #[error("results file {path}: {message}")]
    Results { path: PathBuf, message: String },
    /// A second Ctrl-C: the run stopped at once, without waiting for its trials' cleanup
    /// (said on stderr when it happened). The binary exits with [`crate::exit::INTERRUPTED`].
    #[error("interrupted again: the run stopped without its cleanup")]
    Abandoned,
}

/// A stable identity for resume: the same task, agent and trial index.
fn key(task: &str, agent: &str, trial: u32) -> (String, String, u32) {
    (task.to_owned(), agent.to_owned(), trial)
}

pub async fn run_jobs(
    cfg: RunConfig,
    jobs: Vec<Job>,
    cancel: CancellationToken,
) -> Result<RunReport, RunError> {
    run_jobs_within(cfg, jobs, cancel, None).await
}

/// [`run_jobs`] under a spending limit (`--max-cost-usd`): once the trials' total cost
/// reaches it, no new trial starts; running ones finish and are recorded.
pub async fn run_jobs_within(
    cfg: RunConfig,
    jobs: Vec<Job>,
    cancel: CancellationToken,
    cost_limit: Option<Arc<CostLimit>>,
) -> Result<RunReport, RunError> {
    let Resumed {
        run_id,
        mut file,
        mut records,
        mut pending,
    } = resume(&cfg, jobs)?;
    // Trials whose image is still being built go last, in the order the images are built,
    // so the others fill the slots meanwhile (a stable sort: the order is kept otherwise).
    pending.sort_by_key(|j| cfg.images.queue_position(j.task.image.as_deref()));
    let resumed = records.len();

    let reporter = cfg.progress.clone();
    reporter.report(Progress::Started {
        pending: pending.len(),
    });
    let guard = Arc::new(ProviderGuard::new(cancel.clone()));
    let ctx = RunContext {
        engines: cfg.engines.clone(),
        image: cfg.image.clone(),
        run_id: run_id.clone(),
        model: cfg.model.clone(),
        guard: guard.clone(),
        images: cfg.images.clone(),
        reaper: Some(crate::trial::Reaper::default()),
        quotas: Some(Arc::default()),
    };
    let (tx, rx) = mpsc::channel::<Ended>(pending.len().max(1));
    let mut executors = spawn_in_order(&cfg, &ctx, pending, &cancel, cost_limit.as_ref(), tx);
    // Returning early (a second Ctrl-C) drops the executors: their trials stop where they are.
    let Received {
        mut interrupted,
        mut write_error,
    } = receive(
        rx,
        &guard,
        reporter.as_ref(),
        &mut file,
        &mut records,
        &cancel,
        &run_id,
    )
    .await?;
    while executors.join_next().await.is_some() {}
    ctx.settle().await;
    // Trials still held (too few 400s to call it the configuration) are scored as usual.
    for rec in guard.finish() {
        if let Err(e) = file.append(&rec) {
            write_error.get_or_insert(e);
        }
        // Already counted on the progress bar when it was held back.
        records.push(rec);
    }
    reporter.report(Progress::Finished);
    let provider_config = guard.stopped();
    interrupted |= cancel.is_cancelled() && provider_config.is_none();
    // A safety net behind the per-trial cleanup: anything still labelled with this run.
    let leftovers = cfg.engines.sweep(&format!("nab.run={run_id}")).await;
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(RunReport {
        run_id,
        records,
        resumed,
        interrupted,
        leftovers,
        skipped: cost_limit.as_ref().map_or(0, |l| l.skipped()),
        lost_engines: cfg.engines.lost(),
        no_engine: cfg.engines.all_lost(),
        provider_config,
    })
}

/// Where a run starts from: its results file open for appending, the records kept from
/// before (errors run again) and the jobs still to run.
struct Resumed {
    run_id: String,
    file: ResultsFile,
    records: Vec<TrialRecord>,
    pending: Vec<Job>,
}

/// Opens the run's results file, fresh or (with `--resume`) keeping its finished trials,
/// and drops the jobs those trials already did.
fn resume(cfg: &RunConfig, jobs: Vec<Job>) -> Result<Resumed, RunError> {
    std::fs::create_dir_all(&cfg.out_dir).map_err(|e| RunError::Results {
        path: cfg.out_dir.clone(),
        message: e.to_string(),
    })?;
    let results_path = RunPaths::new(&cfg.out_dir).results();
    let resume = if cfg.resume {
        ResumeState::load(&results_path)?
    } else {
        ResumeState::fresh(&results_path)?
    };
    let run_id = resume.run_id.clone().unwrap_or(cfg.run_id.clone());
    let file = ResultsFile::open_append(&results_path)?;

    let done: std::collections::HashSet<_> = resume
        .records
        .iter()
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .map(|r| key(&r.task_id, &r.agent, r.trial))
        .collect();
    let records: Vec<TrialRecord> = resume
        .records
        .into_iter()
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .collect();
    let pending: Vec<Job> = jobs
        .into_iter()
        .filter(|j| !done.contains(&key(j.task.id(), &j.agent.to_string(), j.trial)))
        .collect();
    Ok(Resumed {
        run_id,
        file,
        records,
        pending,
    })
}

/// One executor per job, at most `cfg.jobs` running at once; each sends how its trial
/// ended on `tx`.
fn spawn_in_order(
    cfg: &RunConfig,
    ctx: &RunContext,
    pending: Vec<Job>,
    cancel: &CancellationToken,
    cost_limit: Option<&Arc<CostLimit>>,
    tx: mpsc::Sender<Ended>,
) -> tokio::task::JoinSet<()> {
    let limit = Arc::new(Semaphore::new(cfg.jobs.max(1)));
    let mut executors = tokio::task::JoinSet::new();
    // Trials start in the order of `pending`: each executor asks for its permit only once
    // the one before it has its own (the semaphore serves waiters first come, first
    // served). Without this the runtime's polling order decides, and a `-j 1` run could
    // start its last trial first (and `--max-cost-usd` skip the earlier ones).
    let mut previous: Option<tokio::sync::oneshot::Receiver<()>> = None;
    for job in pending {
        let (ctx, limit, tx, cancel) = (ctx.clone(), limit.clone(), tx.clone(), cancel.clone());
        let out_dir = cfg.out_dir.clone();
        let max_attempts = cfg.max_attempts.max(1);
        let judge = cfg.judge.clone();
        let cost_limit = cost_limit.cloned();
        let (my_turn_done, next) = tokio::sync::oneshot::channel::<()>();
        let turn = previous.replace(next);
        executors.spawn(async move {
            if let Some(turn) = turn {
                // An error only means the one before stopped early: go on regardless.
                tokio::select! {
                    _ = turn => {}
                    _ = cancel.cancelled() => return,
                }
            }
            let permit = tokio::select! {
                p = limit.acquire_owned() => p,
                _ = cancel.cancelled() => return,
            };
            let _ = my_turn_done.send(());
            // The cost is added before the permit goes: the next trial sees it.
            let rec = execute_within(
                cost_limit.as_deref(),
                execute(
                    &ctx,
                    &job,
                    &out_dir,
                    max_attempts,
                    judge.as_deref(),
                    &cancel,
                ),
            )
            .await;
            drop(permit);
            let _ = tx.send(rec).await;
        });
    }
    executors
}

/// How the dispatcher's loop ended.
struct Received {
    /// By a first Ctrl-C or SIGTERM.
    interrupted: bool,
    /// The first failure to append to results.jsonl (the run was cancelled on it).
    write_error: Option<RunError>,
}

/// The dispatcher's loop: each trial's end reported and its record appended to
/// results.jsonl, until every executor is done. A first Ctrl-C or SIGTERM cancels the run;
/// a second returns [`RunError::Abandoned`] at once.
async fn receive(
    mut rx: mpsc::Receiver<Ended>,
    guard: &ProviderGuard,
    reporter: &dyn Reporter,
    file: &mut ResultsFile,
    records: &mut Vec<TrialRecord>,
    cancel: &CancellationToken,
    run_id: &str,
) -> Result<Received, RunError> {
    let mut interrupted = false;
    let mut write_error = None;
    let mut stop = stop_signals::StopSignals::listen();
    loop {
        tokio::select! {
            msg = rx.recv() => match msg {
                Some(ended) => {
                    // A trial held back by the provider guard is written once a later
                    // answer clears it.
                    let released = guard.take_released();
                    let rec = ended.report(reporter);
                    for rec in released.into_iter().chain(rec) {
                        if let Err(e) = file.append(&rec) {
                            write_error = Some(e);
                            cancel.cancel();
                        }
                        records.push(rec);
                    }
                }
                None => break,
            },
            () = stop.next() => {
                if interrupted {
                    // A second signal: the user will not wait for the cleanup.
                    eprintln!("\ninterrupted again: exiting now; `nab clean --run {run_id}` removes what is left");
                    return Err(RunError::Abandoned);
                }
                interrupted = true;
                reporter.report(Progress::Interrupting);
                eprintln!("\ninterrupted: stopping trials and removing their containers ...");
                cancel.cancel();
            }
        }
    }
    Ok(Received {
        interrupted,
        write_error,
    })
}

/// Runs one job with bounded retries for infrastructure errors. `None` when interrupted
/// (the trial is not recorded, so `--resume` runs it again). `nab sweep` runs its trials
/// through it too. The trial's record is assembled here, once, from the parts its phases
/// return: the trial's outcome, model usage and agent behaviour (or its last attempt's
/// error), the attempts, and the judges' verdicts.
pub(crate) async fn execute(
    ctx: &RunContext,
    job: &Job,
    out_dir: &std::path::Path,
    max_attempts: u32,
    judge: Option<&nab_judges::TrialGrader>,
    cancel: &CancellationToken,
) -> Option<TrialRecord> {
    let task = &job.task;
    let ready = image_ready(ctx, task, cancel).await;
    let started_at = nab_protocol::now_rfc3339();
    let tj = TrialJob {
        task: task.clone(),
        agent: job.agent.clone(),
        trial: job.trial,
        stop_at_first_failure: job.stop_at_first_failure,
        dir: RunPaths::new(out_dir)
            .trial(task.id(), &job.dir_name)
            .path()
            .to_owned(),
    };
    let (last, tried) = match ready {
        Ok(()) => attempt(ctx, &tj, max_attempts, cancel).await?,
        // Interrupted while it waited: not recorded, as any trial that never started.
        Err(failed) => (Last::Error(Box::new(failed?)), Tried::default()),
    };
    let (mut outcome, model, mut usage, behaviour, answers) = match last {
        Last::Verdict(p) => (p.outcome, p.model, p.usage, p.behaviour, Some(p.provider)),
        // An errored trial still names the model it was for (its progress line, a sweep's
        // records).
        Last::Error(e) => (
            *e,
            ctx.model
                .as_ref()
                .filter(|_| job.agent.uses_model(true))
                .map(|m| m.spec.clone()),
            ModelUsage::default(),
            AgentBehaviour::default(),
            None,
        ),
    };
    outcome.attempts = tried.count;
    outcome.engine = tried.engine;
    outcome.started_at = Some(started_at);
    // What the attempts before the last spent: the money is gone whether or not an
    // attempt ended in an infrastructure error, so the record's cost covers them all.
    if let Some(e) = tried.earlier_cost {
        usage.cost_usd = Some((usage.cost_usd.unwrap_or(0.0) + e).min(f64::MAX));
    }
    // Only a trial that reached its verdict is judged: an error left nothing to grade.
    let judges = match (judge, answers.is_some()) {
        (Some(grader), true) => {
            judging::judge_trial(grader, task, &tj.dir, &outcome.tamper_flags).await
        }
        _ => Vec::new(),
    };
    let rec = TrialRecord {
        v: nab_protocol::TRIAL_VERSION,
        run_id: ctx.run_id.clone(),
        task_id: task.id().to_owned(),
        category: task.spec.category.as_str().to_owned(),
        trial: job.trial,
        // The record names its folder when it is not the trial index, so readers find it.
        trial_dir: (job.dir_name != job.trial.to_string()).then(|| job.dir_name.clone()),
        agent: job.agent.to_string(),
        model,
        outcome,
        usage,
        behaviour,
        judges,
    };
    match answers {
        // Held back (or dropped) while the provider's 400s may be the configuration.
        Some(answers) => ctx.guard.admit(rec, &answers),
        None => Some(rec),
    }
}

/// Waits for the task's own image when it is still being built. `Err(None)` when
/// interrupted meanwhile; `Err(Some(outcome))`, an image error, when its build failed.
async fn image_ready(
    ctx: &RunContext,
    task: &Task,
    cancel: &CancellationToken,
) -> Result<(), Option<TrialOutcome>> {
    let Some(tag) = &task.image else {
        return Ok(());
    };
    match ctx.images.ready(tag, cancel).await {
        Ok(()) => Ok(()),
        Err(task_images::NotReady::Cancelled) => Err(None),
        Err(task_images::NotReady::Failed(why)) => Err(Some(TrialOutcome {
            status: TrialStatus::Error,
            error: Some(why),
            error_kind: Some(nab_protocol::ErrorKind::Image),
            ..TrialOutcome::default()
        })),
    }
}

/// What a trial's attempts add to its record.
#[derive(Default)]
struct Tried {
    /// How many attempts ran.
    count: u32,
    /// The engine of the last attempt, when the run names its engines.
    engine: Option<String>,
    /// What the attempts that ended in an error spent, when the model has a price.
    earlier_cost: Option<f64>,
}

/// How a trial's last attempt ended.
enum Last {
    /// The trial reached its verdict.
    Verdict(Box<TrialParts>),
    /// An infrastructure error: the outcome says which.
    Error(Box<TrialOutcome>),
}

/// Runs the attempts of one trial until one reaches a verdict, an error is not worth
/// retrying, or `max_attempts` ran. `None` when interrupted, when no engine was ever
/// leased, or when the provider refused the run's configuration (the run stops).
async fn attempt(
    ctx: &RunContext,
    tj: &TrialJob,
    max_attempts: u32,
    cancel: &CancellationToken,
) -> Option<(Last, Tried)> {
    let price = ctx.model.as_ref().and_then(|m| m.price.clone());
    let transcript = tj.dir.join(nab_protocol::TRANSCRIPT_FILE);
    let mut tried = Tried::default();
    let mut error: Option<TrialOutcome> = None;
    // The engine of the last attempt, kept for the next unless it was lost.
    let mut kept: Option<Lease> = None;
    for attempt in 1..=max_attempts {
        let lease = match kept.take() {
            Some(l) => l,
            None => match ctx.engines.acquire(cancel).await {
                Ok(l) => l,
                // Never started: not recorded, so `--resume` runs it.
                Err(NoEngine::Cancelled) => return None,
                Err(NoEngine::AllLost(_)) if attempt == 1 => return None,
                // The last attempt's error stands, and says why there is no other.
                Err(e @ NoEngine::AllLost(_)) => {
                    if let Some(err) = error.as_mut().and_then(|o| o.error.as_mut()) {
                        err.push_str(&format!("; not retried: {e}"));
                    }
                    break;
                }
            },
        };
        tried.count = attempt;
        if ctx.engines.names_engines() {
            tried.engine = Some(lease.name().to_owned());
        }
        // An attempt that fails before its gateway starts must not price the last one's
        // transcript again (the gateway also starts each attempt on a fresh file).
        if attempt > 1 {
            let _ = std::fs::remove_file(&transcript);
        }
        let e = match run_trial(&ctx.on(&lease), tj, cancel).await {
            // The lease goes with the return: judging needs no engine.
            Ok(parts) => return Some((Last::Verdict(Box::new(parts)), tried)),
            Err(TrialError::Cancelled) => return None,
            Err(TrialError::ProviderConfig(why)) => {
                // Not recorded: the run stops, and `--resume` runs it after the fix.
                ctx.guard.stop(why);
                return None;
            }
            Err(e) => e,
        };
        let (outcome, engine_lost) = failed_attempt(ctx, tj, attempt, &e, &lease).await;
        error = Some(outcome);
        if let Some(p) = &price {
            let spent = attempt_cost(p, &transcript).await;
            tried.earlier_cost = Some((tried.earlier_cost.unwrap_or(0.0) + spent).min(f64::MAX));
        }
        if engine_lost {
            continue;
        }
        if !e.is_retryable() {
            break;
        }
        kept = Some(lease);
        if attempt < max_attempts && !back_off(attempt, cancel).await {
            return None;
        }
    }
    // Every way out of the loop above follows an attempt that ended in an error.
    Some((Last::Error(Box::new(error?)), tried))
}

/// The outcome of `attempt`, which ended in infrastructure error `e`, and whether its
/// engine became unreachable (then the engine is the fault, not the trial: the next
/// attempt goes to another engine at once, with no backoff).
async fn failed_attempt(
    ctx: &RunContext,
    tj: &TrialJob,
    attempt: u32,
    e: &TrialError,
    lease: &Lease,
) -> (TrialOutcome, bool) {
    let (task, agent, trial) = (tj.task.id(), &tj.agent, tj.trial);
    tracing::warn!("{task} {agent} trial {trial} attempt {attempt}: {e}");
    let engine_lost = !ctx.engines.check(lease).await;
    let (error, error_kind) = if engine_lost {
        let error = format!("engine {} became unreachable: {e:#}", lease.name());
        (error, Some(nab_protocol::ErrorKind::Sandbox))
    } else {
        (format!("{e:#}"), e.error_kind())
    };
    let outcome = TrialOutcome {
        status: TrialStatus::Error,
        error: Some(error),
        error_kind,
        ..TrialOutcome::default()
    };
    (outcome, engine_lost)
}

/// Waits before attempt `attempt + 1` (2, 4, … 32 s); `false` when interrupted meanwhile.
async fn back_off(attempt: u32, cancel: &CancellationToken) -> bool {
    let backoff = Duration::from_secs(2u64.pow(attempt.min(5)));
    tokio::select! {
        _ = tokio::time::sleep(backoff) => true,
        _ = cancel.cancelled() => false,
    }
}

/// What a failed attempt spent: its transcript's usage (the gateway's counts) at `price`.
/// No transcript (the attempt failed before its gateway started) spent nothing; one that
/// does not read is logged and counted as nothing.
async fn attempt_cost(price: &nab_gateway::ModelPrice, transcript: &std::path::Path) -> f64 {
    let path = transcript.to_owned();
    let read = tokio::task::spawn_blocking(move || nab_gateway::metrics_from_file(&path)).await;
    match read {
        Ok(Ok(m)) => price.rate.cost(&m.usage()),
        Ok(Err(e)) => {
            tracing::warn!(
                "{}: the failed attempt's cost is not counted: {e}",
                transcript.display()
            );
            0.0
        }
        Err(e) => {
            tracing::warn!("reading {}: {e}", transcript.display());
            0.0
        }
    }
}

/// A run id that sorts by time: `20261130T040102Z-3f9a`.
pub fn new_run_id() -> String {
    let r: u16 = rand::random();
    format!("{}-{r:04x}", chrono::Utc::now().format("%Y%m%dT%H%M%SZ"))
}
