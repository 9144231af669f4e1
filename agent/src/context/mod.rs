//! The context-management seam: called before every model call, and for every tool result
//! before it enters the history.
//!
//! This crate ships [`Passthrough`], which changes nothing. Three-tier management (offload
//! large outputs to `state_dir`, clear old tool results, summarize near the window) plugs in
//! here by implementing [`ContextManager`]; the loop reports whatever events it returns.

use std::path::Path;
use std::sync::Arc;

use nab_protocol::EventKind;
use nab_protocol::Usage;

use crate::message::Message;

/// What the manager may look at and change before a model call.
pub struct ContextState<'a> {
    /// The whole history, system prompt first. Replace an element to rewrite a message.
    pub history: &'a mut Vec<Arc<Message>>,
    /// The step about to run (1-based).
    pub step: u32,
    /// `--context-window`, when given.
    pub context_window: Option<u64>,
    /// Usage of the previous model call (its `prompt_tokens` is the last known context size).
    pub last_usage: Option<Usage>,
    /// Where large outputs may be written (`--state-dir`).
    pub state_dir: &'a Path,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ContextError {
    #[error("context management failed: {0}")]
    Failed(String),
    /// The history cannot be brought under the window; the loop stops with `context_overflow`.
    #[error("the context does not fit the window: {0}")]
    Overflow(String),
}

#[async_trait::async_trait]
pub trait ContextManager: Send {
    /// Runs before every model call; returns events (e.g. `compaction`) to record.
    async fn before_model_call(
        &mut self,
        state: ContextState<'_>,
    ) -> Result<Vec<EventKind>, ContextError>;

    /// Sees each tool result before it enters the history and may replace its text (e.g.
    /// with a pointer to a file in `state_dir`). The default keeps it as is.
    async fn on_tool_result(
        &mut self,
        _step: u32,
        _tool_name: &str,
        _tool_call_id: &str,
        text: String,
        _state_dir: &Path,
    ) -> (String, Vec<EventKind>) {
        (text, Vec::new())
    }
}

/// Keeps the history as it is.
#[derive(Debug, Default)]
pub struct Passthrough;

#[async_trait::async_trait]
impl ContextManager for Passthrough {
    async fn before_model_call(
        &mut self,
        _state: ContextState<'_>,
    ) -> Result<Vec<EventKind>, ContextError> {
        Ok(Vec::new())
    }
}

// Three-tier context management (issue 7).
pub mod clear;
pub mod client_summarizer;
pub mod offload;
pub mod summarize;
pub mod three_tier;
pub mod tokens;
pub mod validity;

pub use client_summarizer::ClientSummarizer;
pub use summarize::{Summarizer, SummaryError};
pub use three_tier::ThreeTier;
pub use validity::check_history;
