//! What a checked sweep runs: one ordinary run folder per (agent, model) pair, each tied to
//! the provider pool whose limits it obeys, and the order of the (run, task, trial) units.
//!
//! The order interleaves the runs: round r is trial r of every task, and within a round the
//! runs take turns task by task. A sweep stopped anywhere has nearly the same number of
//! trials in every run, so its partial results compare fairly.

use super::file::{ProviderLimits, Sweep};
use crate::trial::agent::AgentKind;

/// One (agent, model) pair of the sweep and its folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedRun {
    pub agent: AgentKind,
    /// `None` for an agent that talks to no model (oracle, null): it runs once, unpaired.
    pub model: Option<String>,
    /// The run folder's name under the sweep folder (`runs/<dir>`), unique in the sweep.
    pub dir: String,
    /// Index into [`Plan::pools`] (None: no model, no provider limits).
    pub pool: Option<usize>,
}

/// The models that share one provider's limits: a `providers:` key, or a model no key
/// matches (its own pool, limited only by `jobs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// The `providers:` key, or the model spec itself.
    pub name: String,
    pub limits: ProviderLimits,
}

/// One trial of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// Index into [`Plan::runs`].
    pub run: usize,
    /// Index into the sweep's tasks.
    pub task: usize,
    pub trial: u32,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub runs: Vec<PlannedRun>,
    pub pools: Vec<Pool>,
}

impl Plan {
    /// Pairs every agent that talks to a model with every model, in file order (agents
    /// first); an agent that talks to none gets one run without a model.
    pub fn new(sweep: &Sweep) -> Plan {
        let mut pools: Vec<Pool> = Vec::new();
        let mut pool_of = |model: &str| -> usize {
            let (name, limits) = match sweep.provider_key(model) {
                Some(k) => (
                    k.to_owned(),
                    sweep.file.providers.get(k).cloned().unwrap_or_default(),
                ),
                None => (model.to_owned(), ProviderLimits::default()),
            };
            match pools.iter().position(|p| p.name == name) {
                Some(i) => i,
                None => {
                    pools.push(Pool { name, limits });
                    pools.len() - 1
                }
            }
        };
        let mut runs = Vec::new();
        for agent in &sweep.agents {
            let models: Vec<Option<&String>> = if agent.uses_model(!sweep.file.models.is_empty()) {
                sweep.file.models.iter().map(Some).collect()
            } else {
                vec![None]
            };
            for model in models {
                let pool = model.map(|m| pool_of(m));
                let dir = dir_name(runs.len(), agent, model.map(String::as_str));
                runs.push(PlannedRun {
                    agent: agent.clone(),
                    model: model.cloned(),
                    dir,
                    pool,
                });
            }
        }
        Plan { runs, pools }
    }

    /// Every unit of the sweep in dispatch order: by round (trial), then task, then run.
    pub fn units(&self, tasks: usize, trials: u32) -> Vec<Unit> {
        let mut out = Vec::with_capacity(self.runs.len() * tasks * trials as usize);
        for trial in 0..trials {
            for task in 0..tasks {
                for run in 0..self.runs.len() {
                    out.push(Unit { run, task, trial });
                }
            }
        }
        out
    }
}

/// `01-nab-agent--openai-deepseek-chat`: the run's number (so names stay unique and sort in
/// file order), then the agent and the model with every character outside `[A-Za-z0-9._-]`
/// made `-`, cut to a length any file system takes. No URL or path survives as a path.
pub(super) fn dir_name(index: usize, agent: &AgentKind, model: Option<&str>) -> String {
    let clean = |s: &str, max: usize| -> String {
        let mut out: String = s
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .take(max)
            .collect();
        // No `..` or hidden-looking name once joined.
        while out.starts_with('.') {
            out.replace_range(0..1, "_");
        }
        out
    };
    let agent = match agent {
        // A command agent's path says little; its file name says enough.
        AgentKind::Command(p) => format!(
            "command-{}",
            p.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ),
        other => other.to_string(),
    };
    let mut name = format!("{:02}-{}", index + 1, clean(&agent, 40));
    if let Some(m) = model {
        name.push_str("--");
        name.push_str(&clean(m, 80));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn sweep(text: &str) -> Sweep {
        Sweep::parse(Path::new("s.yaml"), text).unwrap()
    }

    fn suite() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("t1")).unwrap();
        d
    }

    #[test]
    fn agents_pair_with_models_and_share_pools_by_key() {
        let d = suite();
        let s = sweep(&format!(
            "agents: [nab-agent, oracle]\nmodels: ['openai:a@http://h/v1', 'openai:b@http://h/v1', scripted:task]\ntasks: {{dir: {}}}\nproviders: {{'openai:': {{concurrency: 1}}}}\n",
            d.path().display()
        ));
        let p = Plan::new(&s);
        let names: Vec<(&str, Option<&str>, Option<usize>)> = p
            .runs
            .iter()
            .map(|r| (r.dir.as_str(), r.model.as_deref(), r.pool))
            .collect();
        assert_eq!(
            names,
            [
                (
                    "01-nab-agent--openai-a-http---h-v1",
                    Some("openai:a@http://h/v1"),
                    Some(0)
                ),
                (
                    "02-nab-agent--openai-b-http---h-v1",
                    Some("openai:b@http://h/v1"),
                    Some(0)
                ),
                (
                    "03-nab-agent--scripted-task",
                    Some("scripted:task"),
                    Some(1)
                ),
                ("04-oracle", None, None),
            ]
        );
        assert_eq!(p.pools[0].name, "openai:");
        assert_eq!(p.pools[0].limits.concurrency, Some(1));
        assert_eq!(p.pools[1].name, "scripted:task");
        assert_eq!(p.pools[1].limits, ProviderLimits::default());
    }

    #[test]
    fn units_interleave_runs_within_each_round() {
        let d = suite();
        let s = sweep(&format!(
            "agents: [nab-agent]\nmodels: [scripted:task, 'replay:x']\ntasks: {{dir: {}}}\n",
            d.path().display()
        ));
        let u = Plan::new(&s).units(2, 2);
        let t: Vec<(usize, usize, u32)> = u.iter().map(|u| (u.run, u.task, u.trial)).collect();
        assert_eq!(
            t,
            [
                (0, 0, 0),
                (1, 0, 0),
                (0, 1, 0),
                (1, 1, 0),
                (0, 0, 1),
                (1, 0, 1),
                (0, 1, 1),
                (1, 1, 1)
            ]
        );
        // Stopped after any prefix, the runs differ by at most one trial.
        for n in 0..u.len() {
            let per_run = |r| u[..n].iter().filter(|x| x.run == r).count();
            assert!(per_run(0).abs_diff(per_run(1)) <= 1);
        }
    }

    #[test]
    fn folder_names_never_escape_the_sweep_folder() {
        let n = dir_name(0, &AgentKind::NabAgent, Some("replay:../../etc"));
        assert_eq!(n, "01-nab-agent--replay-..-..-etc");
        assert!(!n.contains('/'));
        let long = "openai:".to_owned() + &"m".repeat(500);
        assert!(dir_name(9, &AgentKind::NabAgent, Some(&long)).len() < 130);
        let cmd = AgentKind::Command("/opt/agents/my agent".into());
        assert_eq!(dir_name(2, &cmd, None), "03-command-my-agent");
    }
}
