//! `anthropic[cache=on|off]:<model>[@<base_url>]`: the Anthropic Messages API (`POST
//! {base}/v1/messages`) behind the OpenAI chat-completions protocol agents speak, with the
//! stable prefix of each request marked for prompt caching ([`cache`]) unless `cache=off`. The request is translated on
//! the way out ([`request`]), the answer on the way back ([`response`] for a whole message,
//! [`stream`] for server-sent events), so budgets, retries, the transcript and `record:` /
//! `replay:` (keyed by the agent's OpenAI-shaped request) work as for `openai:`.
//!
//! The key is sent only in the `x-api-key` header; anything the server echoes back is
//! scrubbed of it ([`crate::redact`]). Error statuses are [`ProviderError::Http`] with the
//! body turned OpenAI-shaped, so 429, 529 (overloaded) and other 5xx are retried by the
//! caller's table and a 400 reaches the agent as an OpenAI-style error.

pub mod cache;
pub mod request;
pub mod response;
pub mod stream;

use super::openai::{
    DEFAULT_MAX_ANSWER_BYTES, capped_events, describe, http_error, is_json, json_answer,
    redact_userinfo, request_object, whole_answer,
};
use crate::error::ProviderError;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use crate::redact::redact;
use serde_json::Value;
use std::time::Duration;

/// The base URL when the spec has none.
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// The API version sent in `anthropic-version`.
pub const API_VERSION: &str = "2023-06-01";

pub struct AnthropicProvider {
    model: String,
    /// Without a trailing slash; `/v1/messages` is appended.
    base_url: String,
    key: String,
    http: reqwest::Client,
    max_answer_bytes: u64,
    options: cache::AnthropicOptions,
}

impl AnthropicProvider {
    pub fn new(model: String, base_url: String, key: String) -> Result<Self, reqwest::Error> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(30))
            .build()?;
        Ok(AnthropicProvider {
            model,
            base_url: base_url.trim_end_matches('/').to_owned(),
            key,
            http,
            max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
            options: cache::AnthropicOptions::default(),
        })
    }

    /// The `anthropic[...]` options (prompt caching on or off).
    pub fn with_options(mut self, options: cache::AnthropicOptions) -> Self {
        self.options = options;
        self
    }

    /// Another cap on the size of one answer (see [`DEFAULT_MAX_ANSWER_BYTES`]).
    pub fn with_max_answer_bytes(mut self, bytes: u64) -> Self {
        self.max_answer_bytes = bytes;
        self
    }

    fn scrub(&self, text: &str) -> String {
        redact(text, &self.key)
    }
}

#[async_trait::async_trait]
impl Provider for AnthropicProvider {
    fn describe(&self) -> String {
        let kind = if self.options.is_default() {
            "anthropic".to_owned()
        } else {
            "anthropic[cache=off]".to_owned()
        };
        describe(&kind, &self.model, &self.base_url)
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let obj = request_object(request)?;
        let mut body = request::to_messages_request(obj, &self.model).map_err(|m| {
            ProviderError::InvalidRequest(format!("cannot translate for Anthropic: {m}"))
        })?;
        if self.options.cache {
            cache::mark_stable_prefix(&mut body);
        }
        let stream = wants_stream(request);
        let resp = self
            .http
            .post(format!("{}/v1/messages", self.base_url))
            .header("x-api-key", &self.key)
            .header("anthropic-version", API_VERSION)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| ProviderError::Connect(self.scrub(&redact_userinfo(&e.to_string()))))?;
        let status = resp.status().as_u16();
        if !resp.status().is_success() {
            return Err(
                http_error(resp, |text| response::openai_error_body(&self.scrub(text))).await,
            );
        }
        let cap = self.max_answer_bytes;
        if stream && !is_json(&resp) {
            let events = capped_events(resp, cap, Some(self.key.clone()));
            return Ok(ProviderResponse::Stream {
                status,
                chunks: stream::translate(events),
            });
        }
        let json = json_answer(resp, cap, |t| self.scrub(t), "an Anthropic message").await?;
        if let Some(e) = json.get("error").filter(|e| e.is_object()) {
            let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
            return Err(ProviderError::InStream {
                message: format!(
                    "{kind}: {}",
                    e.get("message").and_then(Value::as_str).unwrap_or("")
                ),
                retryable: response::is_retryable_error_type(kind),
            });
        }
        let completion = response::to_completion(&json)
            .map_err(|e| ProviderError::InvalidResponse(e.to_string()))?;
        // A server may answer a stream request with a whole message.
        Ok(whole_answer(status, completion, stream))
    }
}
