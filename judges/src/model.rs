//! The one seam to language models: a chat model that answers a list of messages with text
//! and token usage. The harness implements it with its gateway providers (`openai:`,
//! `replay:`, `scripted:`…); this crate never speaks HTTP itself.

use crate::window::ContextWindow;
use async_trait::async_trait;
use nab_protocol::Usage;
use serde::{Deserialize, Serialize};

pub use nab_protocol::Role;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::System,
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::User,
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// What the model said, and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModelReply {
    pub text: String,
    pub usage: Usage,
}

/// The model could not be asked (provider down, budget spent…). This is an infrastructure
/// failure, recorded apart from a malformed answer and never retried as one.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ModelError(pub String);

#[async_trait]
pub trait JudgeModel: Send + Sync {
    /// The id recorded with every verdict, e.g. `openai:gpt-4.1` (no secrets).
    fn id(&self) -> String;

    /// Answers `messages` (system first). Implementations should ask for deterministic
    /// sampling (temperature 0) where the provider allows it.
    async fn complete(&self, messages: &[ChatMessage]) -> Result<ModelReply, ModelError>;

    /// Answers `messages` with output constrained to `answer_schema` (a JSON Schema of the
    /// verdict, [`crate::answer_schema`]) where the provider can do that; the default ignores
    /// the schema. The strict parser checks the answer either way.
    async fn complete_shaped(
        &self,
        messages: &[ChatMessage],
        answer_schema: &serde_json::Value,
    ) -> Result<ModelReply, ModelError> {
        let _ = answer_schema;
        self.complete(messages).await
    }

    /// The model's context window, when it is small enough to matter: prompts are then
    /// fitted into it ([`crate::fit`]). `None` sends prompts whole.
    fn window(&self) -> Option<ContextWindow> {
        None
    }

    /// What calls of `usage` cost in US dollars, when the caller was given a price for this
    /// judge's model (`nab run --prices`, `nab judge --prices`); `None` without one. The
    /// cost lands on each [`nab_protocol::JudgeRecord`], so judging is never free by omission.
    fn price_usd(&self, usage: &Usage) -> Option<f64> {
        let _ = usage;
        None
    }
}

/// Turns a `--judge` spec string into a model. The harness passes its provider factory.
pub type ModelFactory<'a> = &'a (dyn Fn(&str) -> anyhow::Result<Box<dyn JudgeModel>> + Sync);
