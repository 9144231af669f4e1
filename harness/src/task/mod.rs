//! The task format: `tasks/<id>/task.yaml` plus the folders around it.
//!
//! Loading checks the whole suite before any container starts and reports every problem
//! at once; each problem names the file, the field, what is wrong and what is allowed.

pub(crate) mod environment;
pub mod import;
mod issue;
pub(crate) mod load;
pub mod pinned;
mod protected;
mod required_call;
mod schema;

pub use environment::{debian_name, pinned_requirement};
pub use issue::{SuiteError, TaskIssue};
pub use load::{load_suite, load_task, suggest};
pub use protected::Protected;
pub use required_call::{MadeCall, RequiredCall};
pub use schema::{
    AgentOptions, Budgets, Category, CommandStep, Compare, Difficulty, Environment, ExpectFile,
    ExpectStdout, GatewayOptions, Limits, McpServer, Origin, StepUser, TaskSpec, Timeouts,
    VerifierMode, VerifyStep, mib,
};

use std::path::PathBuf;

/// The task folder's sub-folder of expected data (`expect_file`/`expect_stdout`'s `equals`).
pub const EXPECTED_DIR: &str = "expected";
/// The largest expected file, and so the most bytes a host-side check reads of the agent's
/// file or a command's stdout.
pub const EXPECTED_CAP: u64 = 8 * 1024 * 1024;

/// The task folder's sub-folder of MCP server files (`mcp_servers:`), never mounted where
/// the agent can read it.
pub const MCP_DIR: &str = "mcp";

/// A task that passed every check.
#[derive(Debug, Clone)]
pub struct Task {
    pub spec: TaskSpec,
    /// Absolute path of `tasks/<id>/`.
    pub dir: PathBuf,
    /// Names of the known-wrong solutions under `wrong/`, sorted.
    pub wrong: Vec<String>,
    /// The test ids every verdict's reports must list (`tests.lock`, see
    /// [`crate::task::pinned`]); `None` when the lock has no fresh entry for the task.
    pub pinned_tests: Option<std::collections::BTreeSet<String>>,
    /// The image this task's containers run when it has an `environment:`
    /// (`nab-task:<hash>`), set once that image is built; `None` runs the base image.
    pub image: Option<String>,
}

impl Task {
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    pub fn instruction_path(&self) -> PathBuf {
        self.dir.join("instruction.md")
    }
    pub fn workspace_dir(&self) -> PathBuf {
        self.dir.join("workspace")
    }
    pub fn tests_dir(&self) -> PathBuf {
        self.dir.join("tests")
    }
    /// `expected/`: data that host-side checks compare with; never enters a container.
    pub fn expected_dir(&self) -> PathBuf {
        self.dir.join(EXPECTED_DIR)
    }
    pub fn solution_dir(&self) -> PathBuf {
        self.dir.join("solution")
    }
    pub fn wrong_dir(&self, name: &str) -> PathBuf {
        self.dir.join("wrong").join(name)
    }
    /// `mcp/`: the files of the task's MCP servers, mounted only in their sidecar.
    pub fn mcp_dir(&self) -> PathBuf {
        self.dir.join(MCP_DIR)
    }

    /// `fixtures/`, when the task has one.
    pub fn fixtures_dir(&self) -> Option<PathBuf> {
        let d = self.dir.join("fixtures");
        d.is_dir().then_some(d)
    }
}
