//! Everything a run needs, independent of how it was given (CLI or a test).

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct AgentConfig {
    pub workspace: PathBuf,
    pub model: String,
    pub max_steps: u32,
    pub context_window: Option<u64>,
    /// Stop before a call once prompt + completion tokens so far reach this.
    pub token_budget: Option<u64>,
    /// Where large outputs are offloaded (context management).
    pub state_dir: PathBuf,
    /// The limit for one turn's tool calls together.
    pub batch_limit: Duration,
    /// Identical consecutive calls that count as stagnation.
    pub stagnation_limit: u32,
}

impl AgentConfig {
    pub fn new(workspace: PathBuf, model: impl Into<String>, state_dir: PathBuf) -> AgentConfig {
        AgentConfig {
            workspace,
            model: model.into(),
            max_steps: 50,
            context_window: None,
            token_budget: None,
            state_dir,
            batch_limit: crate::exec::BATCH_LIMIT,
            stagnation_limit: crate::stagnation::DEFAULT_LIMIT,
        }
    }
}
