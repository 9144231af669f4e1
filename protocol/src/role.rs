//! Who wrote a chat message, as the OpenAI chat-completions protocol names it.

use serde::{Deserialize, Serialize};

/// The author of one chat message (`"role"` on the wire, lowercase). nab-agent's history
/// and the judges' prompts both use it; only nab-agent sends `tool` results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The system prompt.
    System,
    /// The user's turn (the task, a judge's material).
    User,
    /// The model's turn.
    Assistant,
    /// A tool's result, answering one of the assistant's tool calls.
    Tool,
}
