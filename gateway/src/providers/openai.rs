//! `openai:<model>[@<base_url>]`: any OpenAI-compatible chat-completions server (vLLM,
//! llama.cpp, Ollama, DeepSeek, …). The key comes from the host environment and is sent only
//! in the `Authorization` header; anything the server echoes back is scrubbed of it.

use crate::assemble::completion_to_chunks;
use crate::error::ProviderError;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use eventsource_stream::Eventsource;
use futures::StreamExt;
use serde_json::Value;
use std::time::Duration;

pub struct OpenAiProvider {
    model: String,
    /// Without a trailing slash; `/chat/completions` is appended.
    base_url: String,
    key: Option<String>,
    http: reqwest::Client,
}

impl OpenAiProvider {
    /// `key` may be `None` for local servers that need none.
    pub fn new(model: String, base_url: String, key: Option<String>) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(OpenAiProvider {
            model,
            base_url: base_url.trim_end_matches('/').to_owned(),
            key: key.filter(|k| !k.is_empty()),
            http,
        })
    }

    /// Removes the key from text that came back from the server (error pages that echo
    /// the request, for instance) before it reaches the agent or the transcript.
    fn scrub(&self, text: &str) -> String {
        match &self.key {
            Some(k) if text.contains(k.as_str()) => text.replace(k.as_str(), "[REDACTED]"),
            _ => text.to_owned(),
        }
    }

    fn connect_error(&self, e: reqwest::Error) -> ProviderError {
        // reqwest's messages name the URL; strip any user:password it might carry.
        ProviderError::Connect(self.scrub(&redact_userinfo(&e.to_string())))
    }
}

/// `https://user:pass@host/v1` → `https://host/v1`, for anything written down.
pub fn redact_userinfo(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        let host_end = rest.find('/').unwrap_or(rest.len());
        if let Some(at) = rest[..host_end].rfind('@') {
            return format!("{scheme}://{}", &rest[at + 1..]);
        }
    }
    url.to_owned()
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    let secs: f64 = v.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

#[async_trait::async_trait]
impl Provider for OpenAiProvider {
    fn describe(&self) -> String {
        format!("openai:{}@{}", self.model, redact_userinfo(&self.base_url))
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let mut body = request.clone();
        let Some(obj) = body.as_object_mut() else {
            return Err(ProviderError::InvalidRequest(
                "the request body is not a JSON object".into(),
            ));
        };
        // The spec names the model; the agent's `model` field is only a label.
        obj.insert("model".into(), Value::String(self.model.clone()));
        let stream = wants_stream(&body);
        let bytes =
            serde_json::to_vec(&body).map_err(|e| ProviderError::InvalidRequest(e.to_string()))?;
        let mut req = self
            .http
            .post(format!("{}/chat/completions", self.base_url))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(bytes);
        if let Some(k) = &self.key {
            req = req.bearer_auth(k);
        }
        let resp = req.send().await.map_err(|e| self.connect_error(e))?;
        let status = resp.status().as_u16();
        if !resp.status().is_success() {
            let after = retry_after(resp.headers());
            let text = resp.text().await.unwrap_or_default();
            return Err(ProviderError::Http {
                status,
                body: self.scrub(&text),
                retry_after: after,
            });
        }
        // Some servers label their event stream text/plain; only a JSON answer to a stream
        // request is taken for a server that ignored `stream: true`.
        let is_sse = !resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if stream && is_sse {
            let key = self.key.clone();
            let chunks = resp
                .bytes_stream()
                .eventsource()
                .take_while(|ev| {
                    let done = matches!(ev, Ok(e) if e.data.trim() == "[DONE]");
                    futures::future::ready(!done)
                })
                .filter_map(move |ev| {
                    let out = match ev {
                        Ok(e) if e.data.trim().is_empty() => None,
                        Ok(e) => Some(Ok(match &key {
                            Some(k) if e.data.contains(k.as_str()) => {
                                e.data.replace(k.as_str(), "[REDACTED]")
                            }
                            _ => e.data,
                        })),
                        Err(e) => Some(Err(ProviderError::Connect(format!(
                            "the stream broke: {e}"
                        )))),
                    };
                    futures::future::ready(out)
                })
                .boxed();
            return Ok(ProviderResponse::Stream { status, chunks });
        }
        let text = resp.text().await.map_err(|e| self.connect_error(e))?;
        let text = self.scrub(&text);
        let json: Value = serde_json::from_str(&text).map_err(|e| {
            ProviderError::InvalidResponse(format!(
                "expected a chat.completion JSON object: {e}: {}",
                text.chars().take(200).collect::<String>()
            ))
        })?;
        if stream {
            // A server that ignores `stream: true`: stream its answer anyway.
            let chunks: Vec<Result<String, ProviderError>> = completion_to_chunks(&json)
                .into_iter()
                .map(|c| Ok(c.to_string()))
                .collect();
            return Ok(ProviderResponse::Stream {
                status,
                chunks: futures::stream::iter(chunks).boxed(),
            });
        }
        Ok(ProviderResponse::Json { status, body: json })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_is_removed_from_urls() {
        assert_eq!(
            redact_userinfo("https://u:p@h.example/v1"),
            "https://h.example/v1"
        );
        assert_eq!(redact_userinfo("http://h:8000/v1"), "http://h:8000/v1");
    }
}
