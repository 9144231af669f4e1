//! `task.yaml` as Rust types. Unknown fields are rejected so a typo never passes silently.

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
    /// Run in order by argv in a fresh verifier; all must exit 0.
    pub verify: Vec<VerifyStep>,
    /// The oracle's argv (also used for every `wrong/<name>/`).
    pub solution: Vec<String>,
    #[serde(default)]
    pub agent: Option<AgentOptions>,
    #[serde(default)]
    pub budgets: Option<Budgets>,
    /// Limits on what the agent may ask of its model gateway; each has a default.
    #[serde(default)]
    pub gateway: Option<GatewayOptions>,
    /// Tool calls that must appear in the gateway transcript (MCP tasks).
    #[serde(default)]
    pub required_tool_calls: Vec<String>,
    /// Extra patterns for replay matching: volatile tokens in this task's tool results
    /// that the built-in normalizers do not know (nab_gateway::normalize).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replay_normalize: Vec<nab_gateway::normalize::Pattern>,
    /// Workspace globs (relative, `**` for any depth) whose change sets `tamper_flags`,
    /// on top of the defaults in `tamper::DEFAULT_PROTECTED`.
    #[serde(default)]
    pub protected: Vec<String>,
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
    pub agent_s: f64,
    pub verify_s: f64,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyStep {
    pub argv: Vec<String>,
    pub timeout_s: f64,
    /// JUnit XML written by this step, under /nab/verify/ (a directory the agent never had).
    #[serde(default)]
    pub junit: Option<String>,
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
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budgets {
    #[serde(default)]
    pub llm_calls: Option<u64>,
    #[serde(default)]
    pub tokens: Option<u64>,
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
}
