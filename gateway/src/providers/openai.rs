//! `openai[<options>]:<model>[@<base_url>]`: any OpenAI-compatible chat-completions server
//! (vLLM, llama.cpp, Ollama, DeepSeek, Kimi, GLM, …), spoken in its [`Dialect`]. The key
//! comes from the host environment and is sent only in the `Authorization` header; anything
//! the server echoes back is scrubbed of it ([`crate::redact`]).
//!
//! A stream is an answer only when it ends with a finish reason or `[DONE]`; one that just
//! stops (an HTTP 200 with an empty body is the extreme case) is
//! [`ProviderError::Truncated`], which the caller retries.

use crate::assemble::completion_to_chunks;
use crate::dialect::Dialect;
use crate::error::ProviderError;
use crate::provider::{ChunkStream, Provider, ProviderResponse, wants_stream};
use crate::redact::redact;
use eventsource_stream::Eventsource;
use futures::StreamExt;
use nab_protocol::{cap_text, is_validation_error, upstream_error_message};
use serde_json::Value;
use std::time::Duration;

/// The largest answer taken from the server by default (a whole JSON body, or all of an
/// event stream): past it, the answer is an upstream error, never buffered further.
pub const DEFAULT_MAX_ANSWER_BYTES: u64 = 32 << 20;
/// The most of an error page kept (the rest is not read).
pub(crate) const ERROR_BODY_CAP: u64 = 64 * 1024;

pub struct OpenAiProvider {
    model: String,
    /// Without a trailing slash; `/chat/completions` is appended.
    base_url: String,
    key: Option<String>,
    dialect: Dialect,
    http: reqwest::Client,
    /// See [`DEFAULT_MAX_ANSWER_BYTES`].
    max_answer_bytes: u64,
}

/// Why reading an answer's body stopped.
#[derive(Debug)]
pub(crate) enum BodyError {
    TooLarge(u64),
    Transport(String),
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyError::TooLarge(cap) => write!(f, "the answer is larger than {cap} bytes"),
            BodyError::Transport(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for BodyError {}

pub(crate) fn too_large(cap: u64) -> ProviderError {
    ProviderError::InvalidResponse(format!(
        "the answer is larger than {cap} bytes (the gateway's cap on a provider's answer); not read further"
    ))
}

/// `<kind>:<model>@<base_url>`, the URL without its user info: how a provider over HTTP
/// names itself in messages and records.
pub(crate) fn describe(kind: &str, model: &str, base_url: &str) -> String {
    format!("{kind}:{model}@{}", redact_userinfo(base_url))
}

/// A whole JSON answer, read up to `cap` bytes (past it, [`too_large`]) and scrubbed by
/// `scrub`. An empty body is a server that failed after its headers
/// ([`ProviderError::Truncated`]), not an answer; anything but JSON is an invalid response
/// saying it `expected` a JSON object of that kind.
pub(crate) async fn json_answer(
    resp: reqwest::Response,
    cap: u64,
    scrub: impl Fn(&str) -> String,
    expected: &str,
) -> Result<Value, ProviderError> {
    let (body, over) = read_up_to(resp, cap)
        .await
        .map_err(|e| ProviderError::Connect(scrub(&redact_userinfo(&e.to_string()))))?;
    if over {
        return Err(too_large(cap));
    }
    let text = scrub(&String::from_utf8_lossy(&body));
    if text.trim().is_empty() {
        return Err(ProviderError::Truncated { chunks: 0 });
    }
    serde_json::from_str(&text).map_err(|e| {
        ProviderError::InvalidResponse(format!(
            "expected {expected} JSON object: {e}: {}",
            cap_text(&text, 200)
        ))
    })
}

/// A whole chat.completion as the agent gets it: as it is, or, when the agent asked for a
/// stream, cut into the chunks a stream of it would have had.
pub(crate) fn whole_answer(status: u16, completion: Value, stream: bool) -> ProviderResponse {
    if !stream {
        return ProviderResponse::Json {
            status,
            body: completion,
        };
    }
    let chunks: Vec<Result<String, ProviderError>> = completion_to_chunks(&completion)
        .into_iter()
        .map(|c| Ok(c.to_string()))
        .collect();
    ProviderResponse::Stream {
        status,
        chunks: futures::stream::iter(chunks).boxed(),
    }
}

/// The agent's request body as a JSON object, or the error a provider answers with.
pub(crate) fn request_object(
    request: &Value,
) -> Result<&serde_json::Map<String, Value>, ProviderError> {
    request.as_object().ok_or_else(|| {
        ProviderError::InvalidRequest("the request body is not a JSON object".into())
    })
}

/// The error for an answer whose status is not a success: the status, its Retry-After,
/// and the start of its body (at most [`ERROR_BODY_CAP`] bytes) as `body` words it.
pub(crate) async fn http_error(
    resp: reqwest::Response,
    body: impl FnOnce(&str) -> String,
) -> ProviderError {
    let status = resp.status().as_u16();
    let retry_after = retry_after(resp.headers());
    let (bytes, _) = read_up_to(resp, ERROR_BODY_CAP).await.unwrap_or_default();
    ProviderError::Http {
        status,
        body: body(&String::from_utf8_lossy(&bytes)),
        retry_after,
    }
}

/// Whether the server answered with a JSON body (`application/json`). Some servers label
/// their event stream text/plain, so a stream is anything else.
pub(crate) fn is_json(resp: &reqwest::Response) -> bool {
    resp.headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// The server's event stream, one `data` payload per item, scrubbed of `key`. The whole
/// stream counts against `cap`, not each event: past it the stream ends with
/// [`too_large`].
pub(crate) fn capped_events(resp: reqwest::Response, cap: u64, key: Option<String>) -> ChunkStream {
    let mut total = 0u64;
    resp.bytes_stream()
        .map(move |r| match r {
            Ok(b) => {
                total += b.len() as u64;
                if total > cap {
                    Err(BodyError::TooLarge(cap))
                } else {
                    Ok(b)
                }
            }
            Err(e) => Err(BodyError::Transport(e.to_string())),
        })
        .eventsource()
        .map(move |ev| match ev {
            Ok(e) => Ok(match &key {
                Some(k) => redact(&e.data, k),
                None => e.data,
            }),
            Err(eventsource_stream::EventStreamError::Transport(BodyError::TooLarge(cap))) => {
                Err(too_large(cap))
            }
            Err(e) => Err(ProviderError::Connect(format!("the stream broke: {e}"))),
        })
        .boxed()
}

/// Reads at most `cap` bytes of `resp`'s body: `Ok((bytes, false))` when it all fit,
/// `Ok((first cap bytes, true))` when there was more (the rest is not read). A
/// `Content-Length` over the cap stops before any byte is read.
pub(crate) async fn read_up_to(
    mut resp: reqwest::Response,
    cap: u64,
) -> Result<(Vec<u8>, bool), reqwest::Error> {
    if resp.content_length().is_some_and(|n| n > cap) {
        return Ok((Vec::new(), true));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        let room = (cap as usize).saturating_sub(body.len());
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, true));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, false))
}

impl OpenAiProvider {
    /// `key` may be `None` for local servers that need none.
    pub fn new(
        model: String,
        base_url: String,
        key: Option<String>,
    ) -> Result<Self, reqwest::Error> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(30))
            .build()?;
        Ok(OpenAiProvider {
            model,
            base_url: base_url.trim_end_matches('/').to_owned(),
            key: key.filter(|k| !k.is_empty()),
            dialect: Dialect::default(),
            http,
            max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
        })
    }

    /// Another cap on the size of one answer (see [`DEFAULT_MAX_ANSWER_BYTES`]).
    pub fn with_max_answer_bytes(mut self, bytes: u64) -> Self {
        self.max_answer_bytes = bytes;
        self
    }

    pub fn with_dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// Removes the key from text that came back from the server (error pages that echo
    /// the request, for instance) before it reaches the agent or the transcript.
    fn scrub(&self, text: &str) -> String {
        match &self.key {
            Some(k) => redact(text, k),
            None => text.to_owned(),
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

pub(crate) fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    let secs: f64 = v.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

#[async_trait::async_trait]
impl Provider for OpenAiProvider {
    fn describe(&self) -> String {
        let options = match self.dialect.is_default() {
            true => String::new(),
            false => format!("[{}]", self.dialect),
        };
        describe(&format!("openai{options}"), &self.model, &self.base_url)
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let obj = request_object(request)?;
        let agent_streams = wants_stream(request);
        let stream = agent_streams && self.dialect.stream;
        let upstream = Upstream {
            body: obj,
            model: &self.model,
            dialect: self.dialect,
            stream,
        };
        let bytes = serde_json::to_vec(&upstream)
            .map_err(|e| ProviderError::InvalidRequest(e.to_string()))?;
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
            return Err(http_error(resp, |text| self.scrub(text)).await);
        }
        // Only a JSON answer to a stream request is taken for a server that ignored
        // `stream: true`.
        let is_sse = !is_json(&resp);
        let cap = self.max_answer_bytes;
        if stream && is_sse {
            let chunks = capped_events(resp, cap, self.key.clone());
            return Ok(ProviderResponse::Stream {
                status,
                chunks: until_finished(chunks),
            });
        }
        let json = json_answer(resp, cap, |t| self.scrub(t), "a chat.completion").await?;
        if json.get("error").is_some_and(|e| !e.is_null()) {
            return Err(in_stream_error(&json));
        }
        // Not streamed upstream (`stream=off`, or a server that ignores `stream: true`): a
        // stream request gets the whole answer streamed on.
        Ok(whole_answer(status, json, agent_streams))
    }
}

/// The agent's request as the server gets it, serialized straight from the agent's body
/// (no copy of a long history): the spec's model in place of the agent's (the agent's
/// `model` is only a label), without what the dialect drops.
struct Upstream<'a> {
    body: &'a serde_json::Map<String, Value>,
    model: &'a str,
    dialect: Dialect,
    stream: bool,
}

impl serde::Serialize for Upstream<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (k, v) in self.body {
            if k == "model" {
                map.serialize_entry(k, self.model)?;
            } else if !self.dialect.drops(k, self.stream) {
                map.serialize_entry(k, v)?;
            }
        }
        if !self.body.contains_key("model") {
            map.serialize_entry("model", self.model)?;
        }
        map.end()
    }
}

/// An `{"error": …}` object a server sent with a 200 (inside a stream or as the body).
fn in_stream_error(v: &Value) -> ProviderError {
    let text = v.to_string();
    ProviderError::InStream {
        message: upstream_error_message(&text),
        retryable: !is_validation_error(&text),
    }
}

/// Only what the finish check needs from a chunk.
#[derive(serde::Deserialize)]
struct Probe {
    #[serde(default)]
    choices: Vec<ProbeChoice>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(serde::Deserialize)]
struct ProbeChoice {
    #[serde(default)]
    finish_reason: Option<Value>,
}

/// Passes the `data:` texts of a stream on until `[DONE]` (which is dropped: the gateway
/// writes its own). An `error` event becomes [`ProviderError::InStream`]; a stream that ends
/// without `[DONE]` and without any finish reason gets a [`ProviderError::Truncated`] as its
/// last item.
fn until_finished(data: ChunkStream) -> ChunkStream {
    struct State {
        data: ChunkStream,
        chunks: usize,
        finished: bool,
        over: bool,
    }
    let state = State {
        data,
        chunks: 0,
        finished: false,
        over: false,
    };
    futures::stream::unfold(state, |mut st| async move {
        loop {
            if st.over {
                return None;
            }
            let Some(item) = st.data.next().await else {
                st.over = true;
                if st.finished {
                    return None;
                }
                let chunks = st.chunks;
                return Some((Err(ProviderError::Truncated { chunks }), st));
            };
            let text = match item {
                Ok(t) => t,
                Err(e) => {
                    st.over = true;
                    return Some((Err(e), st));
                }
            };
            let trimmed = text.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed == "[DONE]" {
                return None;
            }
            st.chunks += 1;
            if let Ok(probe) = serde_json::from_str::<Probe>(trimmed) {
                if probe.error.as_ref().is_some_and(|e| !e.is_null()) {
                    st.over = true;
                    let err = serde_json::from_str::<Value>(trimmed)
                        .map(|v| in_stream_error(&v))
                        .unwrap_or_else(|e| ProviderError::InvalidResponse(e.to_string()));
                    return Some((Err(err), st));
                }
                if probe
                    .choices
                    .iter()
                    .any(|c| c.finish_reason.as_ref().is_some_and(|f| !f.is_null()))
                {
                    st.finished = true;
                }
            }
            return Some((Ok(text), st));
        }
    })
    .boxed()
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
