//! The APIs the agent may speak to the gateway, each at its own path:
//! OpenAI chat completions (`/v1/chat/completions`, the gateway's canonical form), the
//! Anthropic Messages API (`/v1/messages`, [`messages`]) and the OpenAI Responses API
//! (`/v1/responses`, [`responses`]).
//!
//! A request in another API is translated into a chat-completions request on arrival, so
//! the allow-list, budgets, providers, the transcript and the cassette key see one form
//! whatever the agent speaks (a recording made by an agent speaking one API replays to an
//! agent speaking another). The answer — a `chat.completion`, or its chunks as they come —
//! is translated back into the agent's API; its token counts are the upstream's.

pub mod messages;
pub mod responses;

use bytes::Bytes;
use http::StatusCode;
use serde_json::{Value, json};

/// Which API the agent spoke in one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentApi {
    ChatCompletions,
    Messages,
    Responses,
}

/// A request that has no chat-completions form; `param` is where (e.g. `messages[2].content[0]`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{param}`: {message}")]
pub struct BadRequest {
    pub param: String,
    pub message: String,
}

/// A [`BadRequest`] at `param`.
pub fn bad(param: impl Into<String>, message: impl Into<String>) -> BadRequest {
    BadRequest {
        param: param.into(),
        message: message.into(),
    }
}

impl AgentApi {
    /// The name a transcript line records (`TranscriptLine::api`).
    pub fn name(self) -> &'static str {
        match self {
            AgentApi::ChatCompletions => "chat_completions",
            AgentApi::Messages => "messages",
            AgentApi::Responses => "responses",
        }
    }

    /// The API served at `path` (with or without the `/v1` prefix).
    pub fn at(path: &str) -> Option<AgentApi> {
        match path.strip_prefix("/v1").unwrap_or(path) {
            "/chat/completions" => Some(AgentApi::ChatCompletions),
            "/messages" => Some(AgentApi::Messages),
            "/responses" => Some(AgentApi::Responses),
            _ => None,
        }
    }

    /// The agent's request as a chat-completions request (a chat request as it is).
    pub fn to_chat(self, request: Value) -> Result<Value, BadRequest> {
        match self {
            AgentApi::ChatCompletions => Ok(request),
            AgentApi::Messages => messages::request::to_chat(&request),
            AgentApi::Responses => responses::request::to_chat(&request),
        }
    }

    /// A whole `chat.completion` as this API's answer, serialized.
    pub fn answer_text(self, completion: &Value) -> String {
        match self {
            AgentApi::ChatCompletions => completion.to_string(),
            AgentApi::Messages => messages::answer::from_completion(completion).to_string(),
            AgentApi::Responses => responses::answer::from_completion(completion).to_string(),
        }
    }

    /// An OpenAI-style error body (`{"error": {type, code, message, param}}`, as the gateway
    /// and OpenAI-compatible providers write them; Anthropic's `{"type": "error", "error":
    /// {type, message}}` is read too) in this API's shape, for an answer with `status`.
    pub fn error_body(self, status: StatusCode, body: Value) -> Value {
        match self {
            AgentApi::ChatCompletions | AgentApi::Responses => body,
            AgentApi::Messages => messages::answer::error_body(status, &body),
        }
    }

    /// The translator of a streamed answer into this API's server-sent events.
    pub fn stream(self) -> Box<dyn EventWriter> {
        match self {
            AgentApi::ChatCompletions => Box::new(ChatEvents),
            AgentApi::Messages => Box::new(messages::stream::Events::default()),
            AgentApi::Responses => Box::new(responses::stream::Events::default()),
        }
    }
}

/// Writes a stream of `chat.completion.chunk`s as one API's server-sent events.
pub trait EventWriter: Send {
    /// The events for one chunk: `text` as the provider sent it, `chunk` parsed (None when
    /// it is not JSON).
    fn chunk(&mut self, text: &str, chunk: Option<&Value>) -> Vec<Bytes>;
    /// The events that close a stream that ended well.
    fn end(&mut self) -> Vec<Bytes>;
    /// The event telling the agent the stream failed; `body` is OpenAI-style, as
    /// [`AgentApi::error_body`] takes it.
    fn error(&mut self, body: &Value) -> Bytes;
}

/// One server-sent event with a name, as Anthropic and the Responses API send them.
pub fn named_event(name: &str, data: &Value) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

/// Chat completions: the provider's chunks as they came, then `[DONE]`.
struct ChatEvents;

impl EventWriter for ChatEvents {
    fn chunk(&mut self, text: &str, _chunk: Option<&Value>) -> Vec<Bytes> {
        vec![Bytes::from(format!("data: {text}\n\n"))]
    }

    fn end(&mut self) -> Vec<Bytes> {
        vec![Bytes::from_static(b"data: [DONE]\n\n")]
    }

    fn error(&mut self, body: &Value) -> Bytes {
        Bytes::from(format!("data: {body}\n\n"))
    }
}

/// The message of an error body in either shape, for the agent.
pub fn error_message(body: &Value) -> String {
    body.get("error")
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .map_or_else(|| body.to_string(), str::to_owned)
}

/// The `usage` of a completion or chunk, when it has one (the upstream's counts).
pub fn usage_of(v: &Value) -> Option<nab_protocol::Usage> {
    v.get("usage")
        .filter(|u| !u.is_null())
        .and_then(nab_protocol::Usage::from_openai)
}

/// The first choice's message of a `chat.completion` (an empty one when there is none).
pub fn first_message(completion: &Value) -> (Value, Option<String>) {
    let choice = completion
        .get("choices")
        .and_then(|c| c.get(0))
        .cloned()
        .unwrap_or(json!({}));
    let finish = choice
        .get("finish_reason")
        .and_then(Value::as_str)
        .map(str::to_owned);
    (choice.get("message").cloned().unwrap_or(json!({})), finish)
}

/// Refuses every top-level field of `request` not in `allowed`, naming it and the API.
pub fn only_fields(request: &Value, allowed: &[&str], api: &str) -> Result<(), BadRequest> {
    let Some(obj) = request.as_object() else {
        return Err(bad("(root)", "the request body must be a JSON object"));
    };
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(bad(
            k.as_str(),
            format!(
                "the gateway does not take this field of the {api} API (it would cost extra, fetch something, keep data at the provider, or has no chat-completions form); allowed: {}",
                allowed.join(", ")
            ),
        )),
        None => Ok(()),
    }
}
