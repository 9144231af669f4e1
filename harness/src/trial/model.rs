//! The model side of a run: which provider spec the gateway plays (`--model`), what model
//! name the agent is told, and where the `nab-agent` binary mounted into the sandbox is.
//!
//! Everything here is checked once, before any container starts, so a wrong spec, a
//! missing trajectory or a missing binary is one clear error instead of N failed trials.

use crate::task::Task;
use nab_gateway::{ProviderOptions, build_provider};
use nab_gateway::{ProviderSpec, ScriptSource};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Shared by every trial of a run that talks to a model.
#[derive(Debug, Clone)]
pub struct ModelSetup {
    /// The provider spec as given (`scripted:task`, `replay:<dir>`, `openai:<m>@<url>`, …).
    pub spec: String,
    /// The `--model` nab-agent sends in its requests: the inner model of `openai:` (the
    /// gateway replaces it anyway), `scripted` for scripted models, and for `replay:` the
    /// model recorded in the cassette — so a recorded run and its replay send the same bytes.
    pub agent_model: String,
    /// The variable holding the API key on the host (default `NAB_API_KEY`).
    pub api_key_env: Option<String>,
    /// The nab-agent binary mounted at /nab/agent (for `--agent nab-agent`).
    pub nab_agent: Option<PathBuf>,
    /// The nab-relay binary, for agents that reach the gateway on the loopback.
    pub relay: Option<PathBuf>,
    /// The pace every trial's gateway shares with the other trials of this provider
    /// (`nab sweep`'s `providers:` rpm and cool-downs after 429s); None: unpaced.
    pub pace: Option<Arc<nab_gateway::Pace>>,
    /// Retries per model request instead of the gateway's default (`providers:` max_retries).
    pub max_retries: Option<u32>,
    /// The rate `--prices` gives this model ([`crate::trial::cost`]); `None`: trials have no cost.
    pub price: Option<nab_gateway::ModelPrice>,
    /// `nab regrade`: each trial replays its own cassette, `<root>/<task>/<trial>/`,
    /// instead of `spec` (a live model's trials of one task got different answers to the
    /// same first request, so one shared cassette cannot answer them all).
    pub trial_cassettes: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    #[error("--model: {0}")]
    Spec(#[from] nab_gateway::SpecError),
    #[error("--model {spec}: task {task}: {message}")]
    Task {
        spec: String,
        task: String,
        message: String,
    },
    #[error("--model {spec}: cassette {dir}: {message}")]
    Cassette {
        spec: String,
        dir: PathBuf,
        message: String,
    },
}

/// Why `nab run` cannot use its `--agent`/`--model` pair.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PrepareError {
    #[error(
        "--model is for agents that talk to a model (nab-agent, command:<path>); agent {agent} does not"
    )]
    ModelUnused { agent: String },
    #[error(
        "agent {agent} needs a model: give --model <spec> (its own scripted trajectory is --model scripted:<file>)"
    )]
    NeedsModel { agent: String },
    /// Every problem of the spec, one a line.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
    Spec(Vec<ModelError>),
    #[error(transparent)]
    Agent(#[from] LocateError),
}

/// Why there is no usable `nab-agent` binary to mount.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LocateError {
    #[error("cannot find the running nab: {0}")]
    CurrentExe(#[source] std::io::Error),
    #[error("cannot run cargo to build nab-agent: {0}")]
    Cargo(#[source] std::io::Error),
    #[error(
        "`cargo build -p nab-agent` in {} failed; build it, or set NAB_AGENT_BIN to the binary",
        .workspace.display()
    )]
    BuildFailed { workspace: PathBuf },
    #[error(
        "no nab-agent binary next to {} and no source checkout to build it from; set NAB_AGENT_BIN to the nab-agent binary",
        .exe.display()
    )]
    NotFound { exe: PathBuf },
    #[error("nab-agent at {}: {source}", .path.display())]
    Stat {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "nab-agent at {} must be a file readable and executable by everyone (it runs as uid 1000 in the sandbox)",
        .path.display()
    )]
    NotExecutable { path: PathBuf },
}

/// The file a `scripted:task` model plays for `task`.
pub fn task_trajectory(task: &Task) -> PathBuf {
    task.dir.join("trajectory.yaml")
}

impl ModelSetup {
    /// Parses `spec` and checks it against every task (each `scripted:task` needs a valid
    /// `trajectory.yaml`; an `openai:` spec needs its key): all problems at once.
    pub fn new(
        spec: &str,
        api_key_env: Option<String>,
        tasks: &[Arc<Task>],
    ) -> Result<ModelSetup, Vec<ModelError>> {
        let parsed = ProviderSpec::parse(spec).map_err(|e| vec![ModelError::Spec(e)])?;
        let agent_model = agent_model_name(spec, &parsed).map_err(|e| vec![e])?;
        let setup = ModelSetup {
            spec: spec.to_owned(),
            agent_model,
            api_key_env,
            nab_agent: None,
            relay: None,
            pace: None,
            max_retries: None,
            price: None,
            trial_cassettes: None,
        };
        let mut errors = Vec::new();
        for t in tasks {
            if let Err(e) = build_provider(spec, &setup.provider_options(t)) {
                errors.push(ModelError::Task {
                    spec: spec.to_owned(),
                    task: t.id().to_owned(),
                    message: e.to_string(),
                });
            }
        }
        if errors.is_empty() {
            Ok(setup)
        } else {
            Err(errors)
        }
    }

    /// Replays every trial from its own cassette under `root` (`<root>/<task>/<trial>/`),
    /// telling the agent `agent_model`, as the recorded run did.
    pub fn replaying_trials(root: PathBuf, agent_model: String) -> ModelSetup {
        ModelSetup {
            spec: format!("replay:{}", root.display()),
            agent_model,
            api_key_env: None,
            nab_agent: None,
            relay: None,
            pace: None,
            max_retries: None,
            price: None,
            trial_cassettes: Some(root),
        }
    }

    /// The provider spec trial `trial` of `task` plays.
    pub fn spec_for(&self, task: &str, trial: u32) -> String {
        match &self.trial_cassettes {
            Some(root) => format!(
                "replay:{}",
                root.join(task).join(trial.to_string()).display()
            ),
            None => self.spec.clone(),
        }
    }

    pub fn provider_options(&self, task: &Task) -> ProviderOptions {
        ProviderOptions {
            api_key_env: self.api_key_env.clone(),
            task_trajectory: Some(task_trajectory(task)),
            normalize: task.spec.replay_normalize.clone(),
            max_answer_bytes: task
                .spec
                .gateway
                .as_ref()
                .and_then(|g| g.max_answer_mb)
                .map(crate::task::mib),
            ..Default::default()
        }
    }
}

fn agent_model_name(spec: &str, parsed: &ProviderSpec) -> Result<String, ModelError> {
    match parsed {
        ProviderSpec::OpenAi { model, .. } | ProviderSpec::Anthropic { model, .. } => {
            Ok(model.clone())
        }
        ProviderSpec::Scripted { source } => Ok(match source {
            ScriptSource::Task | ScriptSource::File(_) => "scripted".to_owned(),
        }),
        ProviderSpec::Record { inner, .. } => agent_model_name(spec, inner),
        ProviderSpec::Replay { dir } => recorded_model(spec, dir),
        _ => Ok("default".to_owned()),
    }
}

/// The one model name a cassette's requests carry.
fn recorded_model(spec: &str, dir: &Path) -> Result<String, ModelError> {
    let err = |message: String| ModelError::Cassette {
        spec: spec.to_owned(),
        dir: dir.to_owned(),
        message,
    };
    // One entry at a time: the cassette is never held whole (a suite's is megabytes).
    let mut models: Vec<String> = Vec::new();
    for file in nab_gateway::cassette::entry_files(dir).map_err(|e| err(e.to_string()))? {
        let entry = nab_gateway::cassette::read_entry(&file).map_err(|e| err(e.to_string()))?;
        if let Some(m) = entry.request.get("model").and_then(Value::as_str)
            && !models.iter().any(|x| x == m)
        {
            models.push(m.to_owned());
        }
    }
    models.sort();
    models.dedup();
    match models.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(err(
            "has no recorded request with a `model`; record one first with record:<dir>:<spec>"
                .into(),
        )),
        many => Err(err(format!(
            "its requests name several models ({}); a replayed run must use one",
            many.join(", ")
        ))),
    }
}

/// Finds the `nab-agent` binary to mount: `$NAB_AGENT_BIN`, else the one next to the
/// running `nab` (same cargo target folder), building it with cargo when it is missing
/// there and this is a source checkout.
pub fn locate_nab_agent() -> Result<PathBuf, LocateError> {
    if let Some(p) = std::env::var_os("NAB_AGENT_BIN") {
        let p = PathBuf::from(p);
        return check_binary(&p).map(|()| p);
    }
    locate_binary("nab-agent")
}

/// Finds the binary `name` of this workspace (`nab-agent`, `nab-relay`) next to the
/// running `nab`, building its package with cargo when it is missing there and this is a
/// source checkout.
pub fn locate_binary(name: &str) -> Result<PathBuf, LocateError> {
    let exe = std::env::current_exe().map_err(LocateError::CurrentExe)?;
    // `target/<profile>/nab`, or `target/<profile>/deps/<test>` when run from a test.
    let mut dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir.pop();
    }
    let candidate = dir.join(name);
    if candidate.is_file() {
        return check_binary(&candidate).map(|()| candidate);
    }
    // A source checkout: <workspace>/target/<profile>/ with <workspace>/agent/Cargo.toml.
    let profile = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let workspace = dir.parent().and_then(Path::parent);
    match workspace {
        Some(ws) if ws.join("agent").join("Cargo.toml").is_file() => {
            eprintln!("building {name} (cargo build -p {name}) ...");
            let mut cmd = std::process::Command::new(
                std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
            );
            cmd.current_dir(ws).args(["build", "-p", name]);
            if profile == "release" {
                cmd.arg("--release");
            }
            let status = cmd.status().map_err(LocateError::Cargo)?;
            if !status.success() || !candidate.is_file() {
                return Err(LocateError::BuildFailed {
                    workspace: ws.to_path_buf(),
                });
            }
            check_binary(&candidate).map(|()| candidate)
        }
        _ => Err(LocateError::NotFound { exe }),
    }
}

fn check_binary(p: &Path) -> Result<(), LocateError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(p).map_err(|source| LocateError::Stat {
        path: p.to_path_buf(),
        source,
    })?;
    if !meta.is_file() || meta.permissions().mode() & 0o005 != 0o005 {
        return Err(LocateError::NotExecutable {
            path: p.to_path_buf(),
        });
    }
    Ok(())
}

/// The model nab-agent gets when `nab run` is given none: each task's scripted trajectory,
/// played by the gateway (no key, no network), so the whole loop — agent, gateway, metrics,
/// verifier, report — runs on a fresh machine.
pub const DEFAULT_MODEL: &str = "scripted:task";

/// What `nab run` does with `--agent` and `--model`: checks they fit together, checks the
/// spec against every task and locates nab-agent. `Ok(None)`: the agent needs no model.
pub fn prepare(
    agent: &crate::trial::agent::AgentKind,
    spec: Option<&str>,
    api_key_env: Option<String>,
    tasks: &[Arc<Task>],
) -> Result<Option<ModelSetup>, PrepareError> {
    use crate::trial::agent::AgentKind;
    let spec = match spec {
        Some(spec) => spec,
        None if *agent == AgentKind::NabAgent => DEFAULT_MODEL,
        // The suite's trajectories are nab-agent's tool calls: no default fits another agent.
        None if matches!(agent, AgentKind::Declared(_)) => {
            return Err(PrepareError::NeedsModel {
                agent: agent.to_string(),
            });
        }
        None => return Ok(None),
    };
    if !agent.uses_model(true) {
        return Err(PrepareError::ModelUnused {
            agent: agent.to_string(),
        });
    }
    let mut setup = ModelSetup::new(spec, api_key_env, tasks).map_err(PrepareError::Spec)?;
    if *agent == AgentKind::NabAgent {
        setup.nab_agent = Some(locate_nab_agent()?);
    }
    if agent.uses_loopback() {
        setup.relay = Some(locate_binary("nab-relay")?);
    }
    Ok(Some(setup))
}
