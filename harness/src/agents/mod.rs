//! Declared agents: `agents/<name>/agent.yaml` at the repository's root. An agent is data,
//! like a task's environment: Debian and pinned PyPI packages and set-up commands (built
//! into an image on top of each task's image, see `env::image`), its command line, how it
//! is given the instruction, which model API it speaks and which variables it reads the
//! base URL and the key from. It runs under exactly the lockdown of every other agent; the
//! verifier never runs its image.

mod load;
pub mod placeholders;
mod schema;

pub use load::{AgentDeclError, declared_names, find_agent, load_agent};
pub use schema::{AgentSpec, Api, InstructionVia};

use std::path::PathBuf;

/// The file that declares an agent, in its folder.
pub const AGENT_FILE: &str = "agent.yaml";
/// Where the declared agents are looked for unless `--agents` says otherwise.
pub const DEFAULT_DIR: &str = "agents";
/// The virtual environment the declaration's PyPI packages are installed in, apart from
/// the task's Python (the agent's command names its scripts in `bin/`).
pub const VENV: &str = "/opt/nab-agent";

/// An agent declaration that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredAgent {
    /// The folder's name: what `--agent` selects.
    pub name: String,
    pub dir: PathBuf,
    pub spec: AgentSpec,
}
