//! Each run's model, checked against every task (keys, trajectories, cassettes) and priced
//! before Docker, with its provider pool's pace and retries; and what `sweep.json` records
//! of the runs and of the providers' pace.

use super::plan::Plan;
use crate::task::Task;
use crate::trial::cost::{Pricing, require_price};
use crate::trial::model::ModelSetup;
use nab_gateway::Pace;
use nab_protocol::{IndexProvider, IndexRun};
use std::path::Path;
use std::sync::Arc;

/// The sweep's prices: `--prices` (its file and what it read) and `--max-cost-usd`.
#[derive(Debug, Clone, Copy)]
pub struct Prices<'a> {
    pub prices: Option<&'a nab_gateway::Prices>,
    pub file: Option<&'a Path>,
    pub max_cost_usd: Option<f64>,
}

/// What [`prepare`] found.
#[derive(Debug)]
pub struct Models {
    /// One a run of the plan, in its order: `None` for an agent without a model (and for a
    /// refused one).
    pub setups: Vec<Option<Arc<ModelSetup>>>,
    /// What the prices say of a run's model (no entry matches it, …), one a line, in order.
    pub notes: Vec<String>,
    /// Each refused run, one a line: `run <dir> (agent <a>, model <m>): <why>`.
    pub problems: Vec<String>,
}

/// The pace each provider pool's trials share (`providers:` rpm), one a pool of `plan`.
pub fn paces(plan: &Plan) -> Vec<Arc<Pace>> {
    plan.pools
        .iter()
        .map(|p| Arc::new(Pace::new(p.name.clone(), p.limits.rpm)))
        .collect()
}

/// Every run's model checked against every task and priced, as `nab run` checks one; a
/// run with a model gets its pool's pace (from `paces`) and retries.
pub fn prepare(plan: &Plan, paces: &[Arc<Pace>], tasks: &[Arc<Task>], p: Prices<'_>) -> Models {
    let mut models = Models {
        setups: Vec::with_capacity(plan.runs.len()),
        notes: Vec::new(),
        problems: Vec::new(),
    };
    for run in &plan.runs {
        let limits = run.pool.map(|p| &plan.pools[p].limits);
        let key_env = limits.and_then(|l| l.api_key_env.clone());
        let setup = crate::trial::model::prepare(&run.agent, run.model.as_deref(), key_env, tasks)
            .map_err(|e| e.to_string())
            .and_then(|setup| {
                let pricing = Pricing::resolve(p.prices, setup.as_ref());
                // The same refusal as `nab run`: a dollar limit nobody can count is no limit.
                require_price(&pricing, setup.as_ref(), tasks, p.max_cost_usd, p.file)
                    .map_err(|e| e.to_string())?;
                Ok((setup, pricing))
            });
        match setup {
            Ok((setup, pricing)) => models.setups.push(setup.map(|mut s| {
                if let Some(note) = pricing.note() {
                    models.notes.push(format!("{}: {note}", run.dir));
                }
                s.price = pricing.price().cloned();
                if let Some(p) = run.pool {
                    s.pace = Some(paces[p].clone());
                    s.max_retries = plan.pools[p].limits.max_retries;
                }
                Arc::new(s)
            })),
            Err(e) => {
                models.problems.push(format!(
                    "run {} (agent {}, model {}): {e}",
                    run.dir,
                    run.agent,
                    run.model.as_deref().unwrap_or("none")
                ));
                models.setups.push(None);
            }
        }
    }
    models
}

/// The runs as `sweep.json` lists them.
pub fn index_runs(plan: &Plan) -> Vec<IndexRun> {
    plan.runs
        .iter()
        .map(|r| IndexRun {
            dir: r.dir.clone(),
            agent: r.agent.to_string(),
            model: r.model.clone(),
            provider: r.pool.map(|p| plan.pools[p].name.clone()),
        })
        .collect()
}

/// What each provider's pace counted, as `sweep.json` records it.
pub fn index_providers(plan: &Plan, paces: &[Arc<Pace>]) -> Vec<IndexProvider> {
    plan.pools
        .iter()
        .zip(paces)
        .map(|(p, pace)| {
            let s = pace.stats();
            IndexProvider {
                name: p.name.clone(),
                requests: s.requests,
                slowed: s.slowed,
                waited_ms: s.waited.as_millis() as u64,
            }
        })
        .collect()
}
