//! Calling a provider the way the gateway does — retries with backoff, timeouts — without
//! HTTP in between. The gateway uses it per request; the judges call [`Client::complete`].

use crate::assemble::Assembler;
use crate::error::{GatewayError, ProviderError, SpecError};
use crate::pace::{Pace, SLOW_DOWN_STATUSES};
use crate::provider::{ChunkStream, Provider, ProviderResponse};
use crate::spec::{ProviderOptions, build_provider};
use futures::StreamExt;
use nab_protocol::Usage;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// Retries and timeouts for provider calls.
#[derive(Debug, Clone, PartialEq)]
pub struct CallPolicy {
    /// Retries after the first attempt for what [`ProviderError::is_retryable`] allows:
    /// 429, 5xx that are not validation errors, connection errors, timeouts and streams that
    /// broke before their first chunk.
    pub max_retries: u32,
    /// Backoff before retry k (0-based) is `base_backoff * 2^k`, unless the provider sent
    /// `Retry-After`; either way at most `max_backoff`.
    pub base_backoff: Duration,
    pub max_backoff: Duration,
    /// Longest gap between two stream chunks before the stream is ended as stalled.
    pub idle_timeout: Duration,
    /// Longest wait for the provider's answer to start (the headers and first chunk of a
    /// stream, the whole body of a non-stream answer).
    pub response_timeout: Duration,
}

/// The default retries after a call's first attempt (`nab run --max-retries`).
pub const DEFAULT_MAX_RETRIES: u32 = 8;

/// Defaults: 8 retries, waiting 1, 2, 4 … 128 s (about 4 min 15 s in all, so an overloaded
/// provider gets minutes to recover, not the 3.5 s of the first versions), each wait at most
/// 5 min; a `Retry-After` up to 5 min is honoured as given.
impl Default for CallPolicy {
    fn default() -> Self {
        CallPolicy {
            max_retries: DEFAULT_MAX_RETRIES,
            base_backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(300),
            idle_timeout: Duration::from_secs(60),
            response_timeout: Duration::from_secs(300),
        }
    }
}

impl CallPolicy {
    /// The wait before retry `retry` (0-based): the provider's `Retry-After` when it sent
    /// one, else `base_backoff · 2^retry`; either way at most `max_backoff`.
    pub fn backoff(&self, retry: u32, error: &ProviderError) -> Duration {
        let asked = match error {
            ProviderError::Http { retry_after, .. } => *retry_after,
            _ => None,
        };
        let exp = self
            .base_backoff
            .saturating_mul(2u32.saturating_pow(retry.min(16)));
        asked.unwrap_or(exp).min(self.max_backoff)
    }
}

/// Waits for the first item of a stream: an error (or the end) before any chunk fails the
/// attempt; otherwise the stream is given back whole.
async fn first_chunk(mut chunks: ChunkStream) -> Result<ChunkStream, ProviderError> {
    match chunks.next().await {
        Some(Ok(first)) => Ok(futures::stream::once(async move { Ok(first) })
            .chain(chunks)
            .boxed()),
        Some(Err(e)) => Err(e),
        None => Err(ProviderError::Truncated { chunks: 0 }),
    }
}

/// A provider with a call policy, and optionally the pace it shares with other clients of
/// the same provider ([`Pace`]).
#[derive(Clone)]
pub struct Client {
    provider: Arc<dyn Provider>,
    policy: CallPolicy,
    pace: Option<Arc<Pace>>,
}

/// The outcome of [`Client::open`]: the answer or the last error, and how many retries it took.
pub struct Opened {
    pub result: Result<ProviderResponse, ProviderError>,
    pub retries: u32,
}

impl Client {
    pub fn new(provider: Arc<dyn Provider>, policy: CallPolicy) -> Client {
        Client {
            provider,
            policy,
            pace: None,
        }
    }

    /// Every attempt waits for `pace` first, and a 429/503/529 answer cools it down for
    /// every client that shares it (instead of this client sleeping on its own).
    pub fn with_pace(mut self, pace: Option<Arc<Pace>>) -> Client {
        self.pace = pace;
        self
    }

    /// Builds the provider of `spec` (see [`crate::spec`]).
    pub fn from_spec(
        spec: &str,
        opts: &ProviderOptions,
        policy: CallPolicy,
    ) -> Result<Client, SpecError> {
        Ok(Client::new(build_provider(spec, opts)?, policy))
    }

    pub fn provider(&self) -> &Arc<dyn Provider> {
        &self.provider
    }

    pub fn policy(&self) -> &CallPolicy {
        &self.policy
    }

    /// Sends `request`, retrying what is retryable ([`ProviderError::is_retryable`]). A
    /// stream is returned once its first chunk arrived (within `response_timeout`: a slow
    /// first token is normal), so a stream that fails or ends before any chunk — an HTTP 200
    /// with an empty body — is retried like any failed attempt. What goes wrong after the
    /// first chunk is not retried here (the caller passes chunks on as they come).
    pub async fn open(&self, request: &Value) -> Opened {
        // Whoever calls, no provider (and no cassette) sees a field the allow-list refuses.
        if let Err(e) = crate::allowlist::check(request) {
            return Opened {
                result: Err(ProviderError::InvalidRequest(e.to_string())),
                retries: 0,
            };
        }
        let mut retries = 0;
        loop {
            if let Some(pace) = &self.pace {
                pace.wait().await;
            }
            let started = tokio::time::Instant::now();
            let limit = self.policy.response_timeout;
            let timeout = || ProviderError::Timeout {
                after: limit,
                what: "waiting for the response",
            };
            let attempt = match tokio::time::timeout(limit, self.provider.send(request)).await {
                Ok(Ok(ProviderResponse::Stream { status, chunks })) => {
                    let left = limit.saturating_sub(started.elapsed());
                    match tokio::time::timeout(left, first_chunk(chunks)).await {
                        Ok(Ok(chunks)) => Ok(ProviderResponse::Stream { status, chunks }),
                        Ok(Err(e)) => Err(e),
                        Err(_) => Err(timeout()),
                    }
                }
                Ok(other) => other,
                Err(_) => Err(timeout()),
            };
            // "Slow down" holds back every request to this provider, not just this one;
            // the retries still count against `max_retries`.
            let slow_down = match (&attempt, &self.pace) {
                (Err(e), Some(pace))
                    if e.status().is_some_and(|s| SLOW_DOWN_STATUSES.contains(&s)) =>
                {
                    pace.cool_down(self.policy.backoff(retries, e), self.policy.max_backoff);
                    true
                }
                _ => false,
            };
            match attempt {
                Err(e) if e.is_retryable() && retries < self.policy.max_retries => {
                    let wait = self.policy.backoff(retries, &e);
                    tracing::warn!(error = %e, retry = retries + 1, wait_ms = wait.as_millis() as u64, "provider call failed; retrying");
                    // After a slow-down the pace's cool-down is the wait.
                    if !slow_down {
                        tokio::time::sleep(wait).await;
                    }
                    retries += 1;
                }
                result => return Opened { result, retries },
            }
        }
    }

    /// Ends `chunks` with a [`ProviderError::Timeout`] when nothing arrives for the idle timeout.
    pub fn with_idle_timeout(&self, chunks: ChunkStream) -> ChunkStream {
        let idle = self.policy.idle_timeout;
        futures::stream::unfold(Some(chunks), move |state| async move {
            let mut chunks = state?;
            match tokio::time::timeout(idle, chunks.next()).await {
                Ok(Some(item)) => Some((item, Some(chunks))),
                Ok(None) => None,
                Err(_) => Some((
                    Err(ProviderError::Timeout {
                        after: idle,
                        what: "between stream chunks",
                    }),
                    None,
                )),
            }
        })
        .boxed()
    }

    /// One whole completion: the `chat.completion` object (a stream is reassembled) and
    /// its usage (zero when the provider reported none). For callers without HTTP, such
    /// as the judges.
    pub async fn complete(&self, request: Value) -> Result<(Value, Usage), GatewayError> {
        let opened = self.open(&request).await;
        let retries = opened.retries;
        let fail = |error| GatewayError::Provider { error, retries };
        let completion = match opened.result.map_err(fail)? {
            ProviderResponse::Json { body, .. } => body,
            ProviderResponse::Stream { chunks, .. } => {
                let mut chunks = self.with_idle_timeout(chunks);
                let mut assembler = Assembler::new();
                while let Some(item) = chunks.next().await {
                    let text = item.map_err(fail)?;
                    let chunk: Value = serde_json::from_str(&text).map_err(|e| {
                        fail(ProviderError::InvalidResponse(format!(
                            "a stream chunk is not JSON: {e}"
                        )))
                    })?;
                    assembler.push(&chunk);
                }
                if let Some(err) = assembler.stream_error() {
                    return Err(fail(ProviderError::InvalidResponse(format!(
                        "the provider sent an error inside the stream: {err}"
                    ))));
                }
                assembler.finish()
            }
        };
        let usage = completion
            .get("usage")
            .and_then(Usage::from_openai)
            .unwrap_or_default();
        Ok((completion, usage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(retry_after: Option<u64>) -> ProviderError {
        ProviderError::Http {
            status: 529,
            body: "overloaded".into(),
            retry_after: retry_after.map(Duration::from_secs),
        }
    }

    /// The default backoff reaches minutes (1, 2, … 128 s over 8 retries) and honours a
    /// provider's Retry-After up to the cap.
    #[test]
    fn the_default_backoff_doubles_to_minutes_and_honours_retry_after() {
        let p = CallPolicy::default();
        let waits: Vec<u64> = (0..p.max_retries)
            .map(|k| p.backoff(k, &http(None)).as_secs())
            .collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 64, 128]);
        assert_eq!(waits.iter().sum::<u64>(), 255);
        assert_eq!(p.backoff(0, &http(Some(90))), Duration::from_secs(90));
        assert_eq!(p.backoff(3, &http(Some(3600))), p.max_backoff);
        assert_eq!(p.backoff(20, &http(None)), p.max_backoff);
    }
}
