//! Runs a planned sweep: one ordinary run folder per (agent, model) pair under the sweep
//! folder (`results.jsonl` appended and fsynced as each trial ends, exactly as `nab run`
//! writes it), the units dispatched across all of them ([`super::schedule`]), and trials a
//! folder already holds skipped (`--resume`).

use super::plan::{Plan, Unit};
use super::schedule::{Panicked, Slots, dispatch};
use crate::run::{
    CostLimit, Ended, EnginePool, Job, Progress, Reporter, ResultsFile, ResumeState, RunContext,
    RunError, execute, execute_within,
};
use crate::task::Task;
use crate::trial::model::ModelSetup;
use nab_protocol::RunPaths;
use nab_protocol::{TrialRecord, TrialStatus};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Everything a sweep needs, checked and prepared.
pub struct SweepConfig {
    pub plan: Plan,
    pub tasks: Vec<Arc<Task>>,
    pub trials: u32,
    pub jobs: usize,
    /// Attempts per trial for infrastructure errors (1 = no retry).
    pub attempts: u32,
    /// The sweep folder; run `i` is `<out>/<plan.runs[i].dir>`.
    pub out: PathBuf,
    pub resume: bool,
    /// The engines trials run on (`--engine`; one without it).
    pub engines: Arc<EnginePool>,
    pub image: String,
    /// The model of each run (`plan.runs[i]`), None for agents without one.
    pub models: Vec<Option<Arc<ModelSetup>>>,
    /// Run ids for runs that have none yet (a resumed run keeps its own).
    pub run_ids: Vec<String>,
    pub progress: Arc<dyn Reporter>,
    /// `--max-cost-usd`: one total over every run of the sweep.
    pub cost_limit: Option<Arc<CostLimit>>,
    /// `--shard K/N`: the (task, trial) pairs this shard runs, in every run.
    pub share: Option<crate::run::shard::Share>,
}

/// What one run of the sweep did.
#[derive(Debug)]
pub struct SweepRunReport {
    pub run_id: String,
    pub dir: PathBuf,
    /// Every record, including those kept from before a resume.
    pub records: Vec<TrialRecord>,
    pub resumed: usize,
    pub leftovers: usize,
}

#[derive(Debug)]
pub struct SweepReport {
    pub runs: Vec<SweepRunReport>,
    pub interrupted: bool,
    /// Trials `--max-cost-usd` kept from starting (not recorded), over the whole sweep.
    pub skipped: usize,
    /// Engines lost during the sweep: `(name, why)`.
    pub lost_engines: Vec<(String, String)>,
    /// Set when every engine was lost and the sweep stopped.
    pub no_engine: Option<String>,
    /// Set when a run's provider refused its configuration (a bad key, an unknown model):
    /// `(run folder, why)`; the sweep stopped ([`crate::run::ProviderGuard`]).
    pub provider_config: Option<(String, String)>,
}

impl SweepReport {
    /// How its scheduling ended.
    pub fn end(&self) -> crate::run::RunEnd<'_> {
        crate::run::RunEnd {
            interrupted: self.interrupted,
            lost_engines: &self.lost_engines,
            no_engine: self.no_engine.as_deref(),
        }
    }
}

struct RunState {
    ctx: RunContext,
    dir: PathBuf,
    file: ResultsFile,
    records: Vec<TrialRecord>,
    resumed: usize,
    done: HashSet<(String, u32)>,
}

fn open_run(cfg: &SweepConfig, i: usize, cancel: &CancellationToken) -> Result<RunState, RunError> {
    let dir = cfg.out.join(&cfg.plan.runs[i].dir);
    std::fs::create_dir_all(&dir).map_err(|e| RunError::Results {
        path: dir.clone(),
        message: e.to_string(),
    })?;
    let results = RunPaths::new(&dir).results();
    let before = if cfg.resume {
        ResumeState::load(&results)?
    } else {
        ResumeState::fresh(&results)?
    };
    let run_id = before
        .run_id
        .clone()
        .or_else(|| cfg.run_ids.get(i).cloned())
        .unwrap_or_else(crate::run::new_run_id);
    // Errors are run again, as `nab run --resume` does.
    let records: Vec<TrialRecord> = before
        .records
        .into_iter()
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .collect();
    let done = records
        .iter()
        .map(|r| (r.task_id.clone(), r.trial))
        .collect();
    Ok(RunState {
        ctx: RunContext {
            engines: cfg.engines.clone(),
            image: cfg.image.clone(),
            run_id,
            model: cfg.models.get(i).cloned().flatten(),
            guard: Arc::new(crate::run::ProviderGuard::new(cancel.clone())),
            images: crate::run::TaskImages::present(),
            // Each trial removes what it made before it returns.
            reaper: None,
            quotas: None,
        },
        file: ResultsFile::open_append(&results)?,
        resumed: records.len(),
        records,
        done,
        dir,
    })
}

/// Runs every unit of the plan not already recorded, and returns each run's records.
pub async fn run_sweep(
    cfg: SweepConfig,
    cancel: CancellationToken,
) -> Result<SweepReport, RunError> {
    let mut runs = Vec::with_capacity(cfg.plan.runs.len());
    for i in 0..cfg.plan.runs.len() {
        runs.push(open_run(&cfg, i, &cancel)?);
    }
    let units = pending_units(&cfg, &runs);
    let reporter = cfg.progress.clone();
    reporter.report(Progress::Started {
        pending: units.len(),
    });
    let mut write_error = None;
    let panicked = run_units(
        &cfg,
        &mut runs,
        units,
        reporter.as_ref(),
        &cancel,
        &mut write_error,
    )
    .await;
    let (plan, tasks) = (&cfg.plan, &cfg.tasks);
    let provider_config = write_held(&mut runs, plan, &mut write_error);
    reporter.report(Progress::Finished);
    for Panicked(u) in &panicked {
        let (run, task) = (&plan.runs[u.run].dir, tasks[u.task].id());
        tracing::error!(
            "a trial task panicked (a bug in nab): run {run} task {task} trial {}",
            u.trial
        );
    }
    let interrupted = cancel.is_cancelled() && provider_config.is_none();
    let reports = run_reports(&cfg.engines, runs).await;
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(SweepReport {
        runs: reports,
        interrupted,
        skipped: cfg.cost_limit.as_ref().map_or(0, |l| l.skipped()),
        lost_engines: cfg.engines.lost(),
        no_engine: cfg.engines.all_lost(),
        provider_config,
    })
}

/// Runs `units` across the sweep's runs, each trial's end reported and its record appended
/// to its run's results.jsonl as it comes. Returns the units whose task panicked; the
/// first failure to write a record is kept in `write_error` (the sweep is cancelled on it).
async fn run_units(
    cfg: &SweepConfig,
    runs: &mut [RunState],
    units: Vec<Unit>,
    reporter: &dyn Reporter,
    cancel: &CancellationToken,
    write_error: &mut Option<RunError>,
) -> Vec<Panicked> {
    // The sweep's jobs, and each provider's pool under its own concurrency.
    let slots = Slots {
        jobs: cfg.jobs,
        pools: cfg
            .plan
            .pools
            .iter()
            .map(|p| p.limits.concurrency.map(|c| c as usize))
            .collect(),
    };
    let contexts: Vec<RunContext> = runs.iter().map(|r| r.ctx.clone()).collect();
    let dirs: Vec<PathBuf> = runs.iter().map(|r| r.dir.clone()).collect();
    let (plan, tasks, attempts) = (&cfg.plan, &cfg.tasks, cfg.attempts.max(1));
    dispatch(
        units,
        |u| plan.runs[u.run].pool,
        &slots,
        cancel,
        |u| {
            let ctx = contexts[u.run].clone();
            let out_dir = dirs[u.run].clone();
            let job = Job {
                task: tasks[u.task].clone(),
                agent: plan.runs[u.run].agent.clone(),
                trial: u.trial,
                dir_name: u.trial.to_string(),
                stop_at_first_failure: false,
            };
            let cancel = cancel.clone();
            let limit = cfg.cost_limit.clone();
            // The cost is added before the unit ends, so before its slot is reused.
            async move {
                execute_within(
                    limit.as_deref(),
                    execute(&ctx, &job, &out_dir, attempts, None, &cancel),
                )
                .await
            }
        },
        |u, ended: Ended| {
            let run = &mut runs[u.run];
            // Trials the provider guard held back are written once a later answer clears
            // them.
            let released = run.ctx.guard.take_released();
            let rec = ended.report(reporter);
            for rec in released.into_iter().chain(rec) {
                if let Err(e) = run.file.append(&rec) {
                    write_error.get_or_insert(e);
                    cancel.cancel();
                }
                run.records.push(rec);
            }
        },
    )
    .await
}

/// The plan's units in this shard that their run has not recorded yet.
fn pending_units(cfg: &SweepConfig, runs: &[RunState]) -> Vec<Unit> {
    cfg.plan
        .units(cfg.tasks.len(), cfg.trials)
        .into_iter()
        .filter(|u| {
            let id = cfg.tasks[u.task].id();
            cfg.share.as_ref().is_none_or(|s| s.has(id, u.trial))
                && !runs[u.run].done.contains(&(id.to_owned(), u.trial))
        })
        .collect()
}

/// Writes the trials each run's provider guard still holds (too few refusals to call it
/// the configuration: scored as usual). Returns the first run whose provider refused its
/// configuration, with why.
fn write_held(
    runs: &mut [RunState],
    plan: &Plan,
    write_error: &mut Option<RunError>,
) -> Option<(String, String)> {
    let mut provider_config = None;
    for (i, run) in runs.iter_mut().enumerate() {
        if let Some(why) = run.ctx.guard.stopped() {
            provider_config.get_or_insert((plan.runs[i].dir.clone(), why));
        }
        for rec in run.ctx.guard.finish() {
            if let Err(e) = run.file.append(&rec) {
                write_error.get_or_insert(e);
            }
            // Already counted on the progress bar when it was held back.
            run.records.push(rec);
        }
    }
    provider_config
}

/// Each run's report, after the end-of-run sweep of what is still labelled with its id.
async fn run_reports(engines: &EnginePool, runs: Vec<RunState>) -> Vec<SweepRunReport> {
    let mut reports = Vec::with_capacity(runs.len());
    for run in runs {
        let leftovers = engines.sweep(&format!("nab.run={}", run.ctx.run_id)).await;
        reports.push(SweepRunReport {
            run_id: run.ctx.run_id,
            dir: run.dir,
            records: run.records,
            resumed: run.resumed,
            leftovers,
        });
    }
    reports
}
