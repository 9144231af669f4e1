//! Playing one bundled run's planned trials again on this machine and comparing each with
//! its record.

use super::compare::{Compared, compare};
use super::{Planned, Workspace, cassettes};
use crate::run::bundle::regradable::read_transcript;
use crate::run::{EnginePool, Job, RunConfig, run_jobs};
use crate::task::Task;
use crate::trial::AgentKind;
use crate::trial::model::{ModelSetup, locate_nab_agent};
use nab_gateway::Normalizer;
use nab_gateway::trial_cassette::first_divergence;
use nab_protocol::{BundledRun, RunFolder, RunPaths, TRANSCRIPT_FILE, TrialRecord};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Where and how the trials run.
pub struct Engines {
    pub pool: Arc<EnginePool>,
    pub image: String,
    pub jobs: usize,
}

/// Plays `planned` (trials of `run`, the `index`-th run of the bundle) again and compares
/// each with its record. `tasks` holds every task the run names, loaded from `tasks_dir`.
pub async fn replay_run(
    ws: &Workspace,
    run: &BundledRun,
    planned: &[&Planned],
    tasks: &HashMap<String, Arc<Task>>,
    tasks_dir: &Path,
    engines: &Engines,
) -> anyhow::Result<Vec<Compared>> {
    let bundled = RunFolder::open(&ws.bundled(run))?;
    let agent: AgentKind = run.agent.as_deref().unwrap_or("").parse()?;
    let task = |id: &str| {
        tasks
            .get(id)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("task {id} is not in the suite"))
    };
    let model = match agent {
        AgentKind::NabAgent => Some(Arc::new(model_setup(ws, run, planned, &task)?)),
        _ => None,
    };
    let jobs = planned
        .iter()
        .map(|p| {
            Ok(Job {
                task: task(&p.task)?,
                agent: agent.clone(),
                trial: p.trial,
                dir_name: p.trial.to_string(),
                stop_at_first_failure: false,
            })
        })
        .collect::<anyhow::Result<Vec<Job>>>()?;
    let out = ws.replayed(run);
    let ids: Vec<String> = bundled.meta.task_ids.clone();
    let resume = RunPaths::new(&out).results().is_file();
    let run_id = format!("regrade-{}", run.run_id.as_deref().unwrap_or("run"));
    crate::run::meta::start(
        &out,
        &run_id,
        run.agent.as_deref().unwrap_or(""),
        model.as_ref().map(|m| m.spec.as_str()),
        crate::run::meta::Suite {
            dir: tasks_dir,
            ids: &ids,
        },
        bundled.meta.trials.unwrap_or(1),
        resume,
        Default::default(),
    )?;
    let cfg = RunConfig {
        jobs: engines.jobs,
        resume,
        model,
        ..RunConfig::on_engines(
            engines.pool.clone(),
            engines.image.clone(),
            out.clone(),
            run_id,
            2,
        )
    };
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await?;
    Ok(compare_all(&bundled, &report.records, planned, tasks, &out))
}

/// nab-agent's model: each trial's own cassette, the model name the recorded requests
/// carried, the recorded price (a task's dollar budget needs one).
fn model_setup(
    ws: &Workspace,
    run: &BundledRun,
    planned: &[&Planned],
    task: &dyn Fn(&str) -> anyhow::Result<Arc<Task>>,
) -> anyhow::Result<ModelSetup> {
    let root = ws.cassettes(run);
    let mut models = BTreeSet::new();
    for p in planned {
        let t = task(&p.task)?;
        models.extend(cassettes::write_one(&ws.bundled(run), &t, p.trial, &root)?);
    }
    let mut setup = ModelSetup::replaying_trials(root, cassettes::one_model(&models)?);
    setup.nab_agent = Some(locate_nab_agent()?);
    setup.price = run.provenance.as_ref().and_then(|p| p.price_per_mtok).map(
        |[input, cached_input, cache_write, output]| nab_gateway::ModelPrice {
            model: setup.agent_model.clone(),
            pattern: "the bundle's recorded price".into(),
            entry: 1,
            rate: nab_gateway::Rate {
                input,
                cached_input,
                cache_write,
                output,
            },
        },
    );
    Ok(setup)
}

fn compare_all(
    bundled: &RunFolder,
    replayed: &[TrialRecord],
    planned: &[&Planned],
    tasks: &HashMap<String, Arc<Task>>,
    out: &Path,
) -> Vec<Compared> {
    let key = |r: &TrialRecord| (r.task_id.clone(), r.trial);
    let recorded: HashMap<_, _> = bundled.records.iter().map(|r| (key(r), r)).collect();
    let again: HashMap<_, _> = replayed.iter().map(|r| (key(r), r)).collect();
    let mut all = Vec::new();
    for p in planned {
        let k = (p.task.clone(), p.trial);
        let Some(rec) = recorded.get(&k) else {
            continue;
        };
        let first_request = tasks.get(&p.task).and_then(|t| {
            let normalizer = Normalizer::with_patterns(&t.spec.replay_normalize).ok()?;
            let dir = |root: &Path| RunPaths::new(root).trial(&p.task, &p.trial.to_string());
            let a = read_transcript(&dir(bundled.dir()).path().join(TRANSCRIPT_FILE)).ok()?;
            let b = read_transcript(&dir(out).path().join(TRANSCRIPT_FILE)).ok()?;
            first_divergence(&a, &b, &normalizer)
        });
        all.push(compare(rec, again.get(&k).copied(), first_request));
    }
    all
}
