//! `agents/<name>/agent.yaml`: an agent declared as data. Its environment is a task's
//! `environment:` (Debian packages, pinned PyPI packages in a virtual environment of its
//! own, set-up commands), built into an image on top of each task's image; the rest says
//! how to start it and how it reaches the model.

use crate::task::Environment;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSpec {
    /// One line: what the agent is, shown when the declared agents are listed.
    pub description: String,
    /// What the agent's image adds to the task's image.
    pub environment: Environment,
    /// The command line, run by argv (no shell) in /workspace as uid 1000. Placeholders:
    /// `{model}`, `{instruction}` (the instruction's text), `{instruction_file}`.
    pub command: Vec<String>,
    /// How the agent is given the task's instruction.
    pub instruction: InstructionVia,
    /// The API the agent speaks to the model.
    pub api: Api,
    /// Variables the agent reads its API base URL from; each is set to the in-container
    /// relay's URL in the form `api` expects.
    #[serde(default)]
    pub base_url_env: Vec<String>,
    /// Variables the agent reads its API key from; each is set to a placeholder (the
    /// gateway holds the real key, the agent never sees it).
    #[serde(default)]
    pub api_key_env: Vec<String>,
    /// Constant variables the agent needs (settings, a writable HOME under /tmp, no
    /// update checks). Values may use `{model}`.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// How the instruction reaches the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstructionVia {
    /// On standard input.
    Stdin,
    /// A path to the instruction file, where the command says `{instruction_file}`.
    File,
    /// The text itself, where the command says `{instruction}`.
    Argument,
}

/// The model APIs the gateway serves (all at the same socket, each at its own path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Api {
    /// `POST /v1/chat/completions`.
    OpenaiChat,
    /// `POST /v1/responses`.
    OpenaiResponses,
    /// `POST /v1/messages`.
    AnthropicMessages,
}

impl Api {
    /// The base URL an agent of this API expects, given the relay's root URL: OpenAI's
    /// clients append `/chat/completions` or `/responses` to a base ending in `/v1`,
    /// Anthropic's append `/v1/messages` to the root.
    pub fn base_url(self, root: &str) -> String {
        match self {
            Api::OpenaiChat | Api::OpenaiResponses => format!("{root}/v1"),
            Api::AnthropicMessages => root.to_owned(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Api::OpenaiChat => "openai-chat",
            Api::OpenaiResponses => "openai-responses",
            Api::AnthropicMessages => "anthropic-messages",
        }
    }
}
