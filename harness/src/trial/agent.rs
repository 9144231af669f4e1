//! Agents: how each kind is started in the sandbox. The repo's own `nab-agent` mounts its
//! binary at /nab/agent, the trial's gateway socket at /nab/llm.sock and a writable
//! /nab/out (events, state); a `command:` agent given a model gets the same socket and
//! /nab/out.

use crate::agents::DeclaredAgent;
use crate::env::sandbox::BindMount;
use crate::task::Task;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentKind {
    /// Runs the task's `solution` argv with `solution/` at /nab/solution.
    Oracle,
    /// Does nothing: the untouched workspace must fail.
    Null,
    /// A known-wrong solution `wrong/<name>/`, run like the oracle; must fail.
    Wrong(String),
    /// Any host executable, mounted read-only, run with the instruction on stdin.
    Command(PathBuf),
    /// This repo's agent, talking to the model through the trial's gateway.
    NabAgent,
    /// An agent declared in `agents/<name>/agent.yaml`, run in its own image built on the
    /// task's image (see [`crate::agents`] and [`declared`]).
    Declared(Arc<DeclaredAgent>),
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentParseError {
    #[error(
        "unknown agent `{0}`; allowed: nab-agent, oracle, null, wrong:<name>, command:<path to an executable>, or an agent declared in agents/<name>/agent.yaml (`nab run --agent <name>`)"
    )]
    Unknown(String),
    #[error("agent `command:{path}`: {why}")]
    BadCommand { path: String, why: String },
    #[error(transparent)]
    Declared(#[from] crate::agents::AgentDeclError),
}

impl AgentKind {
    /// `--agent`: a built-in agent, or one declared in `agents_dir` by its name or as
    /// `agent:<name>`. An unknown name lists the declared agents.
    pub fn resolve(s: &str, agents_dir: &Path) -> Result<AgentKind, AgentParseError> {
        match s.parse::<AgentKind>() {
            Err(AgentParseError::Unknown(_)) => {
                let name = s.strip_prefix("agent:").unwrap_or(s);
                let agent = crate::agents::find_agent(agents_dir, name)?;
                Ok(AgentKind::Declared(Arc::new(agent)))
            }
            other => other,
        }
    }
}

impl std::str::FromStr for AgentKind {
    type Err = AgentParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "oracle" => Ok(AgentKind::Oracle),
            "null" => Ok(AgentKind::Null),
            "nab-agent" => Ok(AgentKind::NabAgent),
            _ => {
                if let Some(name) = s.strip_prefix("wrong:") {
                    return Ok(AgentKind::Wrong(name.to_owned()));
                }
                let Some(path) = s.strip_prefix("command:") else {
                    return Err(AgentParseError::Unknown(s.to_owned()));
                };
                let bad = |why: &str| AgentParseError::BadCommand {
                    path: path.to_owned(),
                    why: why.to_owned(),
                };
                let p = std::fs::canonicalize(path)
                    .map_err(|e| bad(&format!("cannot resolve the path: {e}")))?;
                let meta = std::fs::metadata(&p).map_err(|e| bad(&e.to_string()))?;
                if !meta.is_file() {
                    return Err(bad("is not a file"));
                }
                use std::os::unix::fs::PermissionsExt;
                if meta.permissions().mode() & 0o005 != 0o005 {
                    return Err(bad(
                        "must be readable and executable by everyone (it runs as uid 1000 in the sandbox); chmod a+rx it",
                    ));
                }
                Ok(AgentKind::Command(p))
            }
        }
    }
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentKind::Oracle => f.write_str("oracle"),
            AgentKind::Null => f.write_str("null"),
            AgentKind::Wrong(n) => write!(f, "wrong:{n}"),
            AgentKind::Command(p) => write!(f, "command:{}", p.display()),
            AgentKind::NabAgent => f.write_str("nab-agent"),
            AgentKind::Declared(a) => write!(f, "agent:{}", a.name),
        }
    }
}

/// Where the command agent's executable appears inside the container.
pub(crate) const COMMAND_PATH: &str = "/nab/cmd/agent";

/// Where nab-agent's binary appears inside the container.
pub(crate) const NAB_AGENT_PATH: &str = "/nab/agent/nab-agent";
/// The gateway socket inside the container.
pub(crate) const SOCKET_PATH: &str = "/nab/llm.sock";
/// The task's `mcp/` folder, for the oracle and the known-wrong solutions only (the
/// servers' data, which every other agent reaches through the servers alone).
pub(crate) const MCP_DATA_PATH: &str = "/nab/mcp";
/// Writable output folder inside the container (events.jsonl, the agent's state).
pub(crate) const OUT_PATH: &str = "/nab/out";

/// What a trial with a model provides to the agent's container.
#[derive(Debug, Clone)]
pub struct ModelMounts<'a> {
    /// The gateway's Unix socket on the host.
    pub socket: &'a Path,
    /// A folder writable by uid 1000, mounted at /nab/out: on this machine, or on the
    /// engine's when `out_on_engine` (a disk quota made there).
    pub out_dir: &'a Path,
    pub out_on_engine: bool,
    /// The nab-agent binary on the host (needed only by `nab-agent`).
    pub nab_agent: Option<&'a Path>,
    /// The `--model` nab-agent is given.
    pub agent_model: &'a str,
    /// The nab-relay binary on the host (needed by agents that reach the gateway at an
    /// HTTP base URL on the loopback, see [`AgentKind::uses_loopback`]).
    pub relay: Option<&'a Path>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    #[error("agent nab-agent needs a model: give --model <spec> (e.g. scripted:task)")]
    NoModel,
    #[error("agent nab-agent: no nab-agent binary was located for this run")]
    NoBinary,
    #[error("agent {0} needs a model: give --model <spec> (e.g. scripted:<trajectory file>)")]
    DeclaredNoModel(String),
    #[error(transparent)]
    Launch(#[from] crate::trial::declared::LaunchError),
    #[error(
        "agent {0}: no nab-relay binary was located for this run (it serves the gateway on the loopback)"
    )]
    RelayMissing(String),
}

/// What the agent phase needs: extra mounts and the argv to exec (None: run nothing).
#[derive(Debug, Clone)]
pub struct AgentPlan {
    pub binds: Vec<BindMount>,
    pub argv: Option<Vec<String>>,
    pub env: Vec<String>,
    /// Start the gateway's loopback relay before the agent (see `trial::loopback`).
    pub loopback: bool,
}

impl AgentKind {
    /// A short name for folders and tables.
    pub fn label(&self) -> String {
        match self {
            AgentKind::Command(p) => format!(
                "command-{}",
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ),
            AgentKind::Wrong(n) => format!("wrong-{n}"),
            AgentKind::Declared(a) => format!("agent-{}", a.name),
            other => other.to_string(),
        }
    }

    /// Agents that talk to a model through the gateway socket (`command:` ones only when
    /// the run has a model).
    pub fn uses_model(&self, run_has_model: bool) -> bool {
        match self {
            AgentKind::NabAgent | AgentKind::Declared(_) => true,
            AgentKind::Command(_) => run_has_model,
            _ => false,
        }
    }

    /// Agents that reach the gateway at an HTTP base URL on the container's loopback
    /// (nab-agent speaks to the socket itself).
    pub fn uses_loopback(&self) -> bool {
        matches!(self, AgentKind::Command(_) | AgentKind::Declared(_))
    }

    /// Mounts and argv for the agent phase. `model` is given for agents that use the
    /// gateway (see [`AgentKind::uses_model`]); `mcp_sockets` is the host folder of the
    /// sockets of the task's MCP servers (`mcp_servers:`, see `mcp_host`).
    pub fn plan(
        &self,
        task: &Task,
        model: Option<&ModelMounts>,
        mcp_sockets: Option<&Path>,
    ) -> Result<AgentPlan, PlanError> {
        let ro = |host: PathBuf, container: &str| BindMount {
            host,
            container: container.to_owned(),
            read_only: true,
            on_engine: false,
        };
        // Every agent sees the instruction and the fixtures; only the oracle-like ones
        // see a solution. Nothing of tests/ is ever mounted here.
        let mut binds = vec![ro(task.instruction_path(), "/nab/instruction.md")];
        if let Some(f) = task.fixtures_dir() {
            binds.push(ro(f, "/nab/task"));
        }
        // Every agent may reach the task's MCP servers; none sees their data, except that
        // the oracle-like ones (the suite's own, trusted solutions) read it directly.
        if let Some(dir) = mcp_sockets {
            binds.push(ro(dir.to_owned(), crate::trial::mcp_host::AGENT_DIR));
        }
        if matches!(self, AgentKind::Oracle | AgentKind::Wrong(_))
            && !task.spec.mcp_servers.is_empty()
        {
            binds.push(ro(task.mcp_dir(), MCP_DATA_PATH));
        }
        let (mut env, loopback) = match model.filter(|_| self.uses_model(true)) {
            Some(m) => self.model_binds(m, &mut binds)?,
            None => (Vec::new(), false),
        };
        let argv = match self {
            AgentKind::Declared(a) => {
                let m = model.ok_or_else(|| PlanError::DeclaredNoModel(self.to_string()))?;
                let launch = crate::trial::declared::launch(a, task, m.agent_model)?;
                // After the relay's variables: the declaration's own names and values.
                env.extend(launch.env);
                Some(launch.argv)
            }
            AgentKind::NabAgent => {
                let m = model.ok_or(PlanError::NoModel)?;
                let bin = m.nab_agent.ok_or(PlanError::NoBinary)?;
                binds.push(ro(bin.to_owned(), NAB_AGENT_PATH));
                Some(nab_agent_argv(task, m.agent_model, mcp_sockets.is_some()))
            }
            AgentKind::Null => None,
            AgentKind::Oracle => {
                binds.push(ro(task.solution_dir(), "/nab/solution"));
                Some(task.spec.solution.clone())
            }
            AgentKind::Wrong(name) => {
                binds.push(ro(task.wrong_dir(name), "/nab/solution"));
                Some(task.spec.solution.clone())
            }
            AgentKind::Command(path) => {
                binds.push(ro(path.clone(), COMMAND_PATH));
                // A constant program; the agent's path and the instruction are not spliced
                // into it, so nothing task- or user-provided is ever parsed by a shell.
                Some(vec![
                    "/bin/sh".into(),
                    "-c".into(),
                    "exec \"$0\" < /nab/instruction.md".into(),
                    COMMAND_PATH.into(),
                ])
            }
        };
        Ok(AgentPlan {
            binds,
            argv,
            env,
            loopback,
        })
    }
}

impl AgentKind {
    /// The gateway's socket and /nab/out, and for agents that take a base URL the loopback
    /// relay: the variables they get, and whether the relay is to be started.
    fn model_binds(
        &self,
        m: &ModelMounts,
        binds: &mut Vec<BindMount>,
    ) -> Result<(Vec<String>, bool), PlanError> {
        // The socket may be read-only: connecting needs no write access to the mount.
        binds.push(BindMount {
            host: m.socket.to_owned(),
            container: SOCKET_PATH.to_owned(),
            read_only: true,
            on_engine: false,
        });
        binds.push(BindMount {
            host: m.out_dir.to_owned(),
            container: OUT_PATH.into(),
            read_only: false,
            on_engine: m.out_on_engine,
        });
        if !self.uses_loopback() {
            return Ok((Vec::new(), false));
        }
        let relay = m
            .relay
            .ok_or_else(|| PlanError::RelayMissing(self.to_string()))?;
        binds.push(crate::trial::loopback::relay_bind(relay));
        Ok((crate::trial::loopback::env(), true))
    }
}

/// nab-agent's command line in the sandbox: fixed paths, plus the task's agent options.
fn nab_agent_argv(task: &Task, model: &str, mcp_sockets: bool) -> Vec<String> {
    let mut argv: Vec<String> = [
        NAB_AGENT_PATH,
        "run",
        "--workspace",
        "/workspace",
        "--instruction-file",
        "/nab/instruction.md",
        "--base-url",
        "unix:///nab/llm.sock",
        "--model",
        model,
        "--events",
        "/nab/out/events.jsonl",
        "--state-dir",
        "/nab/out/state",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(opts) = &task.spec.agent {
        if let Some(n) = opts.max_steps {
            argv.extend(["--max-steps".into(), n.to_string()]);
        }
        if let Some(n) = opts.context_window {
            argv.extend(["--context-window".into(), n.to_string()]);
        }
        if let Some(f) = &opts.mcp_config {
            argv.extend(["--mcp-config".into(), format!("/nab/task/{f}")]);
        }
    }
    if mcp_sockets {
        argv.extend([
            "--mcp-config".into(),
            format!(
                "{}/{}",
                crate::trial::mcp_host::AGENT_DIR,
                crate::trial::mcp_host::CONFIG_FILE
            ),
        ]);
    }
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_names_parse_and_bad_ones_say_what_is_allowed() {
        assert_eq!("oracle".parse::<AgentKind>().unwrap(), AgentKind::Oracle);
        assert_eq!("null".parse::<AgentKind>().unwrap(), AgentKind::Null);
        assert_eq!(
            "wrong:x".parse::<AgentKind>().unwrap(),
            AgentKind::Wrong("x".into())
        );
        assert_eq!(
            "nab-agent".parse::<AgentKind>().unwrap(),
            AgentKind::NabAgent
        );
        let e = "gpt".parse::<AgentKind>().unwrap_err().to_string();
        assert!(e.contains("allowed: nab-agent, oracle, null"), "{e}");
        let e = "command:/nonexistent/agent"
            .parse::<AgentKind>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot resolve"), "{e}");
        let sh = "command:/bin/sh".parse::<AgentKind>().unwrap();
        assert!(matches!(sh, AgentKind::Command(_)));
    }

    #[test]
    fn declared_agents_resolve_by_name_or_agent_prefix_and_built_ins_come_first() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents");
        for s in ["mini-swe-agent", "agent:mini-swe-agent"] {
            let a = AgentKind::resolve(s, &dir).unwrap();
            assert_eq!(a.to_string(), "agent:mini-swe-agent");
            assert_eq!(a.label(), "agent-mini-swe-agent");
            assert!(
                a.uses_model(false),
                "a declared agent always talks to a model"
            );
        }
        assert_eq!(
            AgentKind::resolve("oracle", &dir).unwrap(),
            AgentKind::Oracle
        );
        let e = AgentKind::resolve("swe-agent", &dir)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("the declared agents are: aider, mini-swe-agent"),
            "{e}"
        );
        let e = AgentKind::resolve("command:/nonexistent", &dir)
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot resolve"), "{e}");
    }

    fn task(agent: Option<crate::task::AgentOptions>) -> Task {
        let yaml = "id: t\ncategory: mcp\nlanguage: python\ndifficulty: easy\ntimeouts: {agent_s: 1, verify_s: 1}\nlimits: {cpus: 1, memory_mb: 256, pids: 64}\nverify: [{argv: [\"true\"], timeout_s: 1}]\nsolution: [\"true\"]\n";
        let mut spec: crate::task::TaskSpec = serde_yaml::from_str(yaml).unwrap();
        spec.agent = agent;
        Task {
            spec,
            dir: PathBuf::from("/suite/t"),
            wrong: vec![],
            pinned_tests: None,
            image: None,
        }
    }

    #[test]
    fn nab_agent_gets_the_socket_its_binary_and_the_tasks_options() {
        let t = task(Some(crate::task::AgentOptions {
            context_window: Some(16000),
            max_steps: Some(40),
            mcp_config: Some("mcp.json".into()),
            ..Default::default()
        }));
        let m = ModelMounts {
            socket: Path::new("/tmp/gw/llm.sock"),
            out_dir: Path::new("/tmp/out"),
            out_on_engine: false,
            nab_agent: Some(Path::new("/build/nab-agent")),
            agent_model: "scripted",
            relay: Some(Path::new("/build/nab-relay")),
        };
        let plan = AgentKind::NabAgent.plan(&t, Some(&m), None).unwrap();
        let argv = plan.argv.unwrap().join(" ");
        assert_eq!(
            argv,
            "/nab/agent/nab-agent run --workspace /workspace --instruction-file /nab/instruction.md \
             --base-url unix:///nab/llm.sock --model scripted --events /nab/out/events.jsonl \
             --state-dir /nab/out/state --max-steps 40 --context-window 16000 \
             --mcp-config /nab/task/mcp.json"
        );
        let bind = |c: &str| plan.binds.iter().find(|b| b.container == c).unwrap();
        assert!(bind(SOCKET_PATH).host.ends_with("llm.sock"));
        assert!(
            !bind(OUT_PATH).read_only,
            "the agent writes its events there"
        );
        assert!(bind(NAB_AGENT_PATH).read_only);
        // Without a model nab-agent cannot run; the oracle never gets the socket.
        assert!(matches!(
            AgentKind::NabAgent.plan(&t, None, None),
            Err(PlanError::NoModel)
        ));
        let oracle = AgentKind::Oracle.plan(&t, Some(&m), None).unwrap();
        assert!(oracle.binds.iter().all(|b| b.container != SOCKET_PATH));
        // A command agent in a run with a model may use the socket.
        let cmd = AgentKind::Command(PathBuf::from("/bin/true"))
            .plan(&t, Some(&m), None)
            .unwrap();
        assert!(cmd.binds.iter().any(|b| b.container == SOCKET_PATH));
        // ... or the loopback relay's base URL, with the relay mounted read-only.
        assert!(cmd.loopback && !oracle.loopback);
        assert!(
            cmd.env
                .iter()
                .any(|v| v.starts_with("OPENAI_BASE_URL=http://127.0.0.1:"))
        );
        let relay = cmd
            .binds
            .iter()
            .find(|b| b.host == Path::new("/build/nab-relay"));
        assert!(relay.is_some_and(|b| b.read_only), "{:?}", cmd.binds);
        // Without a relay binary, a command agent's plan says what is missing.
        let bare = ModelMounts {
            relay: None,
            ..m.clone()
        };
        let e = AgentKind::Command(PathBuf::from("/bin/true"))
            .plan(&t, Some(&bare), None)
            .unwrap_err();
        assert!(e.to_string().contains("no nab-relay binary"), "{e}");
    }

    #[test]
    fn mcp_servers_are_reached_by_socket_and_their_data_only_by_the_oracle() {
        let mut t = task(None);
        t.spec.mcp_servers.insert(
            "tracker".into(),
            crate::task::McpServer {
                argv: vec!["python3".into(), "/nab/mcp/tracker.py".into()],
                env: vec![],
            },
        );
        let m = ModelMounts {
            socket: Path::new("/tmp/gw/llm.sock"),
            out_dir: Path::new("/tmp/out"),
            out_on_engine: false,
            nab_agent: Some(Path::new("/build/nab-agent")),
            agent_model: "scripted",
            relay: Some(Path::new("/build/nab-relay")),
        };
        let sockets = Path::new("/tmp/nab-mcp-x");
        let agent = AgentKind::NabAgent
            .plan(&t, Some(&m), Some(sockets))
            .unwrap();
        let argv = agent.argv.clone().unwrap();
        assert!(
            argv.join(" ")
                .ends_with("--mcp-config /nab/mcp-sockets/servers.json"),
            "{argv:?}"
        );
        let mount = |p: &AgentPlan, c: &str| p.binds.iter().find(|b| b.container == c).cloned();
        let at = mount(&agent, crate::trial::mcp_host::AGENT_DIR).unwrap();
        assert!(at.read_only && at.host == sockets);
        for plan in [
            &agent,
            &AgentKind::Null.plan(&t, None, Some(sockets)).unwrap(),
            &"command:/bin/sh"
                .parse::<AgentKind>()
                .unwrap()
                .plan(&t, Some(&m), Some(sockets))
                .unwrap(),
        ] {
            assert!(
                plan.binds.iter().all(|b| b.host != t.mcp_dir()),
                "no agent under test may mount the servers' data: {:?}",
                plan.binds
            );
            assert!(mount(plan, crate::trial::mcp_host::AGENT_DIR).is_some());
        }
        let oracle = AgentKind::Oracle.plan(&t, None, Some(sockets)).unwrap();
        let data = mount(&oracle, MCP_DATA_PATH).unwrap();
        assert!(data.read_only && data.host == Path::new("/suite/t/mcp"));
    }
}
