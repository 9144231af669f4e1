//! A streaming OpenAI chat-completions client over HTTP/1.1 on TCP or a Unix socket.
//!
//! - [`endpoint`]: parses `http://…` and `unix:///path.sock` base URLs.
//! - [`request`] + [`body`]: the request, serialized straight into the connection.
//! - [`transport`]: one hyper connection per request.
//! - [`stream`]: SSE chunks assembled into an [`AssistantTurn`].
//! - [`retry`]: backoff with jitter, honouring `Retry-After`.

pub mod body;
pub mod endpoint;
pub mod error;
pub mod request;
pub mod retry;
pub mod stream;
pub mod tls;
pub mod transport;

use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::BodyExt;

pub use endpoint::Endpoint;
pub use error::{BudgetKind, ClientError};
pub use request::ChatRequest;
pub use retry::RetryPolicy;
pub use stream::{AssistantTurn, NoopObserver, StreamObserver};

/// How the client reaches the model and how patient it is.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub endpoint: Endpoint,
    pub api_key: Option<String>,
    pub retry: RetryPolicy,
    /// The longest silence allowed between two pieces of a streamed answer.
    pub idle_timeout: Duration,
    /// The longest wait for the answer to start (response headers, then its first byte): a
    /// model on a slow machine, or a gateway retrying a provider, may take minutes. Longer
    /// than the gateway's own limit (300 s), so the gateway's verdict arrives first.
    pub response_timeout: Duration,
    pub connect_timeout: Duration,
}

impl ClientConfig {
    pub fn new(endpoint: Endpoint) -> ClientConfig {
        ClientConfig {
            endpoint,
            api_key: None,
            retry: RetryPolicy::default(),
            idle_timeout: Duration::from_secs(180),
            response_timeout: Duration::from_secs(600),
            connect_timeout: Duration::from_secs(30),
        }
    }
}

/// One finished model call.
#[derive(Debug, Clone)]
pub struct Completion {
    pub turn: AssistantTurn,
    pub latency: Duration,
    /// Attempts made (1 when the first one succeeded).
    pub attempts: u32,
}

#[derive(Debug, Clone)]
pub struct LlmClient {
    config: Arc<ClientConfig>,
}

impl LlmClient {
    pub fn new(config: ClientConfig) -> LlmClient {
        LlmClient {
            config: Arc::new(config),
        }
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Sends `request` (streaming) and assembles the answer, retrying what the shared table
    /// ([`nab_protocol::upstream`]) calls transient — connection failures, 429, 5xx that are
    /// not validation errors, silences, truncated streams — with backoff. A rejected request
    /// ends the call at once. Deltas are shown to `observer` as they arrive.
    pub async fn complete(
        &self,
        request: Arc<ChatRequest>,
        observer: &mut dyn StreamObserver,
    ) -> Result<Completion, ClientError> {
        let started = Instant::now();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            match self.attempt(request.clone(), observer).await {
                Ok(turn) => {
                    return Ok(Completion {
                        turn,
                        latency: started.elapsed(),
                        attempts: attempt,
                    });
                }
                Err(Retryable { error, retry_after }) => {
                    if attempt > self.config.retry.max_retries {
                        return Err(ClientError::RetriesExhausted {
                            attempts: attempt,
                            last: Box::new(error),
                        });
                    }
                    let delay = self.config.retry.delay(attempt, retry_after);
                    tracing::warn!(%error, ?delay, attempt, "model call failed; retrying");
                    tokio::time::sleep(delay).await;
                }
                Err(Fatal(error)) => return Err(error),
            }
        }
    }

    async fn attempt(
        &self,
        request: Arc<ChatRequest>,
        observer: &mut dyn StreamObserver,
    ) -> Result<AssistantTurn, AttemptError> {
        let cfg = &self.config;
        let (body, serializer) = body::streaming_body(request);
        let response = tokio::time::timeout(
            cfg.response_timeout + cfg.connect_timeout,
            transport::send(cfg, body),
        )
        .await
        .map_err(|_| Retryable {
            error: ClientError::IdleTimeout {
                secs: cfg.response_timeout.as_secs(),
                phase: "waiting for response headers",
            },
            retry_after: None,
        })?;
        let response = response.map_err(|e| match e {
            e @ (ClientError::Connect { .. } | ClientError::Transport(_)) => Retryable {
                error: e,
                retry_after: None,
            },
            e => Fatal(e),
        })?;
        // The body has been handed over in full once the server answers; a serializer
        // failure then means the connection broke while sending.
        drop(serializer);

        let status = response.status();
        if !status.is_success() {
            let retry_after = retry::retry_after(response.headers());
            let text = read_capped(response.into_body(), 64 * 1024).await;
            let error = error::from_status(status.as_u16(), &text);
            return Err(if error.is_retryable() {
                Retryable { error, retry_after }
            } else {
                Fatal(error)
            });
        }
        let is_json = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if is_json {
            // The server ignored `stream: true`; accept a whole completion too.
            let text = read_capped(response.into_body(), 64 * 1024 * 1024).await;
            return stream::parse_completion(&text).map_err(classify);
        }
        let patience = stream::Patience {
            first: cfg.response_timeout,
            idle: cfg.idle_timeout,
        };
        stream::read_sse(response.into_body(), patience, observer)
            .await
            .map_err(classify)
    }
}

enum AttemptError {
    Retryable {
        error: ClientError,
        retry_after: Option<Duration>,
    },
    Fatal(ClientError),
}
use AttemptError::{Fatal, Retryable};

fn classify(error: ClientError) -> AttemptError {
    if error.is_retryable() {
        Retryable {
            error,
            retry_after: None,
        }
    } else {
        Fatal(error)
    }
}

async fn read_capped(body: hyper::body::Incoming, cap: usize) -> String {
    let mut out = Vec::new();
    let mut body = body;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else { break };
        if let Some(data) = frame.data_ref() {
            let room = cap.saturating_sub(out.len());
            out.extend_from_slice(&data[..data.len().min(room)]);
            if out.len() >= cap {
                break;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
