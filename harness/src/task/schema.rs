//! `task.yaml` as Rust types. Unknown fields are rejected so a typo never passes silently.

pub use nab_gateway::Budgets;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSpec {
    /// Must equal the folder name.
    pub id: String,
    pub category: Category,
    pub language: String,
    pub difficulty: Difficulty,
    /// One line, for tables.
    #[serde(default)]
    pub description: Option<String>,
    pub timeouts: Timeouts,
    pub limits: Limits,
    /// Run in order in a fresh verifier: commands (all must exit 0) and host-side checks.
    pub verify: Vec<VerifyStep>,
    /// How the hidden tests meet the code under test: `isolated` (default) or `shared`.
    #[serde(default, skip_serializing_if = "VerifierMode::is_default")]
    pub verifier: VerifierMode,
    /// The oracle's argv (also used for every `wrong/<name>/`).
    pub solution: Vec<String>,
    #[serde(default)]
    pub agent: Option<AgentOptions>,
    /// The gateway's limits on the trial (`usd` is priced by `nab run --prices`; a run
    /// whose model has no price refuses to start a task with one).
    #[serde(default)]
    pub budgets: Option<Budgets>,
    /// Limits on what the agent may ask of its model gateway; each has a default.
    #[serde(default)]
    pub gateway: Option<GatewayOptions>,
    /// Tool calls that must appear in the gateway transcript (MCP tasks): a name, or
    /// `{tool, arguments, at_least}` (see [`super::RequiredCall`]).
    #[serde(default)]
    pub required_tool_calls: Vec<super::RequiredCall>,
    /// MCP servers that run outside the agent's container, in a sidecar of the task's
    /// image that holds the task's `mcp/` folder (at /nab/mcp); the agent reaches each one
    /// through a Unix socket the harness serves, named in the MCP config it is given.
    /// Keyed by server name (the `<server>` in `mcp__<server>__<tool>`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub mcp_servers: std::collections::BTreeMap<String, McpServer>,
    /// Extra patterns for replay matching: volatile tokens in this task's tool results
    /// that the built-in normalizers do not know (nab_gateway::normalize).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replay_normalize: Vec<nab_gateway::Pattern>,
    /// Workspace globs (relative, `**` for any depth) whose change sets `tamper_flags`,
    /// on top of the defaults in `protected::DEFAULT_PROTECTED` and `protected::DEFAULT_TESTS`; a
    /// glob that starts with `!` exempts what it matches (edits the instruction asks for).
    #[serde(default)]
    pub protected: Vec<String>,
    /// The task's own image on top of the base image (`nab-task:<hash>`): extra Debian and
    /// PyPI packages and root set-up commands, installed once at build time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<Environment>,
    /// Where the task came from when a converter wrote it (`nab import harbor`). Imported
    /// tasks have no known-wrong solutions; `nab validate` says it skips that check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

/// `environment:` in task.yaml: what the task's image adds to the base image. Only the
/// build container has a network; agent and verifier containers keep the full lockdown.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Environment {
    /// Debian package names (bookworm), installed with `apt-get install --no-install-recommends`.
    #[serde(default)]
    pub apt: Vec<String>,
    /// PyPI requirements, each pinned to one version: `name==version`.
    #[serde(default)]
    pub pip: Vec<String>,
    /// Shell commands run in order as root at build time, after the packages (`sh -c`).
    #[serde(default)]
    pub setup: Vec<String>,
}

/// One entry of `mcp_servers:`: a stdio MCP server, started in the sidecar for each
/// connection the agent opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// The server's command line in the sidecar, e.g. `[python3, /nab/mcp/tracker.py]`.
    pub argv: Vec<String>,
    /// `NAME=value` environment entries for the server.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
}

/// The format a task was converted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    Harbor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Localization,
    BugFix,
    Terminal,
    Mcp,
    LongContext,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Localization => "localization",
            Category::BugFix => "bug-fix",
            Category::Terminal => "terminal",
            Category::Mcp => "mcp",
            Category::LongContext => "long-context",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

/// Seconds. Kept as numbers that may be zero or negative at parse time so the checker can
/// say "must be greater than 0" instead of a bare type error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timeouts {
    /// The agent's own time: for an agent with a model, the time its gateway spent waiting
    /// for the provider is not counted, so a slow endpoint does not lose trials a fast one
    /// would finish; for other agents, wall time.
    pub agent_s: f64,
    pub verify_s: f64,
    /// The wall-clock cap of the agent phase, model time included (default
    /// `AGENT_WALL_FACTOR` × `agent_s`): however slow the endpoint, a trial ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_wall_s: Option<f64>,
}

/// `agent_wall_s` when a task gives none: this many times `agent_s`.
pub(super) const AGENT_WALL_FACTOR: f64 = 4.0;

impl Timeouts {
    /// The agent phase's wall-clock cap in seconds (see [`Timeouts::agent_wall_s`]).
    pub fn agent_wall_cap(&self) -> f64 {
        self.agent_wall_s
            .unwrap_or(AGENT_WALL_FACTOR * self.agent_s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub cpus: f64,
    pub memory_mb: i64,
    pub pids: i64,
    /// Disk quota (MiB) of each place the agent can write to disk: its workspace (the
    /// verifier's too: it is the same file system) and /nab/out. Default 1024.
    #[serde(default = "default_disk_mb")]
    pub disk_mb: i64,
}

fn default_disk_mb() -> i64 {
    1024
}

/// One entry of `verify:`. Steps run in order in a fresh verifier and stop at the first
/// that fails. A step is a command, or a host-side check whose expected data never enters
/// a container (`expect_file`, `expect_stdout`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "RawStep")]
pub enum VerifyStep {
    /// `{argv, timeout_s, junit?}`: must exit 0 (and its JUnit report must agree).
    Command(CommandStep),
    /// `{expect_file: {path, equals, compare?}}`.
    ExpectFile(ExpectFile),
    /// `{expect_stdout: {argv, equals, timeout_s, compare?}}`.
    ExpectStdout(ExpectStdout),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandStep {
    pub argv: Vec<String>,
    pub timeout_s: f64,
    /// JUnit XML written by this step, under /nab/verify/ (a directory only the verifier
    /// user can reach).
    #[serde(default)]
    pub junit: Option<String>,
    /// Who runs it: the verifier (the test runner; default) or the sandbox user (a build of
    /// the code under test).
    #[serde(default)]
    pub user: StepUser,
}

/// How the verifier separates the hidden tests from the code under test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerifierMode {
    /// The tests run as the verifier user and reach the code under test only through the
    /// broker: the verdict is out of the code's reach.
    #[default]
    Isolated,
    /// Every step runs as the sandbox user, beside the code under test, and the hidden
    /// tests are readable to it (tasks written before the boundary, and imported ones whose
    /// tests load the workspace's code). The code under test can forge such a verdict: each
    /// trial's record says so (`verdict_reachable`), and the suite's own tasks never use it.
    Shared,
}

impl VerifierMode {
    pub fn is_default(&self) -> bool {
        *self == VerifierMode::Isolated
    }
}

/// Who runs a verify step. The verifier user runs the hidden tests and reaches the code
/// under test only through the broker (tasks/README.md, "Writing hidden tests"); the
/// sandbox user runs code from the workspace (builds, probes) and can only fail a trial:
/// its exit status is the code under test's own word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepUser {
    #[default]
    Verifier,
    Sandbox,
}

impl StepUser {
    pub fn is_default(&self) -> bool {
        *self == StepUser::Verifier
    }
}

/// A file of the agent's final workspace (as copied out when the agent stopped, before any
/// verify step ran) compared on the host with a file of the task folder's `expected/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectFile {
    /// Workspace-relative path (`report/summary.csv`); must be a regular file there.
    pub path: String,
    /// Task-folder-relative path under `expected/` (never mounted into any container).
    pub equals: String,
    #[serde(default)]
    pub compare: Compare,
}

/// A command run in the verifier whose stdout is compared on the host with a file of the
/// task folder's `expected/`. Its output is an observation, so either user may run it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectStdout {
    pub argv: Vec<String>,
    /// Task-folder-relative path under `expected/`.
    pub equals: String,
    pub timeout_s: f64,
    #[serde(default)]
    pub compare: Compare,
    #[serde(default, skip_serializing_if = "StepUser::is_default")]
    pub user: StepUser,
}

/// How a host-side check compares. Exact unless the task says otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    /// Byte for byte.
    #[default]
    Exact,
    /// After removing leading and trailing ASCII whitespace (space, tab, CR, LF) from the
    /// whole of both texts: for one-line answers, where a final newline is a matter of taste.
    Trimmed,
}

/// What a step looks like in YAML before it is known which kind it is.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    argv: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timeout_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    junit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    user: Option<StepUser>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expect_file: Option<ExpectFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expect_stdout: Option<ExpectStdout>,
}

/// Read through `RawStep` inside the step's own mapping, so that an error names the step
/// (`verify[1]`) and its line, not the list's.
impl<'de> Deserialize<'de> for VerifyStep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Step;
        impl<'de> serde::de::Visitor<'de> for Step {
            type Value = VerifyStep;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a verify step: `{argv, timeout_s}`, `{expect_file: ...}` or `{expect_stdout: ...}`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<VerifyStep, A::Error> {
                let raw = RawStep::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                VerifyStep::try_from(raw).map_err(serde::de::Error::custom)
            }
        }
        d.deserialize_map(Step)
    }
}

/// A verify step whose fields do not make one command or one check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StepError {
    #[error("a step holds one check; put `expect_file` and `expect_stdout` in separate steps")]
    TwoChecks,
    #[error(
        "a step is either a command `{{argv, timeout_s}}` or one check; this one has `{check}` and also `{}` (put the check's own fields inside `{check}:`)",
        .command_fields.join("`, `")
    )]
    Mixed {
        check: &'static str,
        command_fields: Vec<&'static str>,
    },
    #[error("missing field `timeout_s` (seconds the command may run)")]
    NoTimeout,
    #[error(
        "a step needs `argv` and `timeout_s` (a command), or `expect_file:` or `expect_stdout:` (a host-side check)"
    )]
    Empty,
}

impl TryFrom<RawStep> for VerifyStep {
    type Error = StepError;

    fn try_from(raw: RawStep) -> Result<Self, StepError> {
        let command_fields: Vec<&'static str> = [
            ("argv", raw.argv.is_some()),
            ("timeout_s", raw.timeout_s.is_some()),
            ("junit", raw.junit.is_some()),
            ("user", raw.user.is_some()),
        ]
        .into_iter()
        .filter_map(|(n, set)| set.then_some(n))
        .collect();
        let mixed = |check| StepError::Mixed {
            check,
            command_fields: command_fields.clone(),
        };
        match (raw.expect_file, raw.expect_stdout) {
            (Some(_), Some(_)) => Err(StepError::TwoChecks),
            (Some(f), None) if command_fields.is_empty() => Ok(VerifyStep::ExpectFile(f)),
            (Some(_), None) => Err(mixed("expect_file")),
            (None, Some(s)) if command_fields.is_empty() => Ok(VerifyStep::ExpectStdout(s)),
            (None, Some(_)) => Err(mixed("expect_stdout")),
            (None, None) => match (raw.argv, raw.timeout_s) {
                (Some(argv), Some(timeout_s)) => Ok(VerifyStep::Command(CommandStep {
                    argv,
                    timeout_s,
                    junit: raw.junit,
                    user: raw.user.unwrap_or_default(),
                })),
                (Some(_), None) => Err(StepError::NoTimeout),
                (None, _) => Err(StepError::Empty),
            },
        }
    }
}

impl From<VerifyStep> for RawStep {
    fn from(step: VerifyStep) -> Self {
        match step {
            VerifyStep::Command(c) => RawStep {
                argv: Some(c.argv),
                timeout_s: Some(c.timeout_s),
                junit: c.junit,
                user: (!c.user.is_default()).then_some(c.user),
                ..RawStep::default()
            },
            VerifyStep::ExpectFile(f) => RawStep {
                expect_file: Some(f),
                ..RawStep::default()
            },
            VerifyStep::ExpectStdout(s) => RawStep {
                expect_stdout: Some(s),
                ..RawStep::default()
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentOptions {
    #[serde(default)]
    pub context_window: Option<u64>,
    #[serde(default)]
    pub max_steps: Option<u64>,
    /// A file in `fixtures/`, given to the agent as `/nab/task/<file>`.
    #[serde(default)]
    pub mcp_config: Option<String>,
    /// The least drastic context compaction a trial must show (`offload`, `clear` or
    /// `summarize`; a more drastic tier also counts): a trial with a model whose events show
    /// none fails with `failure_reason: missing_compaction`. A `summarize` compaction
    /// counts only when the gateway answered a summarization request for it (the
    /// transcript, not the agent's word). Needs `context_window` (checked at load).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_compaction: Option<nab_protocol::CompactionTier>,
}

/// `gateway:` in task.yaml. Anything left out keeps the gateway's default
/// (`nab_gateway::GatewayLimits::default`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GatewayOptions {
    /// The largest request body, in MiB (default 8).
    #[serde(default)]
    pub max_request_mb: Option<f64>,
    /// Connections served at once (default 8).
    #[serde(default)]
    pub max_connections: Option<i64>,
    /// Seconds to wait for a request's headers (default 10).
    #[serde(default)]
    pub header_timeout_s: Option<f64>,
    /// Seconds to wait for a request's body, and for the agent to take each piece of a
    /// streamed answer (default 60).
    #[serde(default)]
    pub read_timeout_s: Option<f64>,
    /// The longest `transcript.jsonl` line, in MiB (default 4); a longer one keeps a
    /// summary of its request (then of its response).
    #[serde(default)]
    pub transcript_line_mb: Option<f64>,
    /// `transcript.jsonl`'s cap, in MiB (default 64): past it, lines keep no request.
    #[serde(default)]
    pub transcript_file_mb: Option<f64>,
    /// The largest answer taken from an `openai:` provider, in MiB (default 32): a larger
    /// one is an upstream error.
    #[serde(default)]
    pub max_answer_mb: Option<f64>,
}

/// MiB (checked by the loader: finite, positive) as bytes.
pub fn mib(mb: f64) -> u64 {
    (mb * (1 << 20) as f64) as u64
}
