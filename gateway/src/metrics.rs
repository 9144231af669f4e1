//! Trial metrics computed from the transcript: the authoritative numbers, whatever the
//! agent says about itself.

use nab_protocol::JsonlError;
use nab_protocol::TranscriptLine;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranscriptMetrics {
    /// Calls forwarded to the provider (refused-by-budget lines are not calls).
    pub llm_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Of the input tokens, cache reads.
    pub cached_tokens: u64,
    /// Of the input tokens, cache writes (priced apart).
    #[serde(default)]
    pub cache_write_tokens: u64,
    /// Forwarded calls that ended in an error (after retries).
    pub failed_calls: u64,
    /// Retries over all calls.
    pub retries: u64,
    /// The first budget that refused a call (`llm_calls`, `tokens` or `usd`), if any.
    pub budget_exceeded: Option<String>,
    /// Requests the gateway refused before calling a provider (too large, not allowed, …).
    #[serde(default)]
    pub refused_requests: u64,
}

impl TranscriptMetrics {
    pub fn add(&mut self, line: &TranscriptLine) {
        if line.refused.is_some() {
            self.refused_requests += 1;
            return;
        }
        if let Some(b) = &line.budget_exceeded {
            if self.budget_exceeded.is_none() {
                self.budget_exceeded = Some(b.clone());
            }
            return;
        }
        self.llm_calls += 1;
        self.retries = self.retries.saturating_add(u64::from(line.retries));
        if line.error.is_some() {
            self.failed_calls += 1;
        }
        // Saturating: the counts are what an upstream claimed, absurd ones included.
        if let Some(u) = &line.usage {
            self.input_tokens = self.input_tokens.saturating_add(u.prompt_tokens);
            self.output_tokens = self.output_tokens.saturating_add(u.completion_tokens);
            self.cached_tokens = self.cached_tokens.saturating_add(u.cached_tokens);
            self.cache_write_tokens = self.cache_write_tokens.saturating_add(u.cache_write_tokens);
        }
    }

    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a TranscriptLine>) -> Self {
        let mut m = TranscriptMetrics::default();
        lines.into_iter().for_each(|l| m.add(l));
        m
    }

    /// The totals as one usage (what a price is applied to).
    pub fn usage(&self) -> nab_protocol::Usage {
        nab_protocol::Usage {
            prompt_tokens: self.input_tokens,
            completion_tokens: self.output_tokens,
            cached_tokens: self.cached_tokens,
            cache_write_tokens: self.cache_write_tokens,
        }
    }

    pub fn total_tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// Reads a `transcript.jsonl` as a stream and computes its metrics (a missing file has
/// none; a torn last line is skipped).
pub fn metrics_from_file(path: &Path) -> Result<TranscriptMetrics, JsonlError> {
    let read = nab_protocol::read_without_requests(path)?;
    Ok(TranscriptMetrics::from_lines(&read.records))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::Usage;

    fn line(usage: Option<Usage>, error: Option<&str>, budget: Option<&str>) -> TranscriptLine {
        TranscriptLine {
            v: 1,
            ts: String::new(),
            seq: 0,
            provider: "p".into(),
            stream: false,
            api: None,
            request: serde_json::json!({}),
            response: None,
            usage,
            latency_ms: 1,
            status: None,
            retries: 1,
            error: error.map(str::to_owned),
            error_code: None,
            budget_exceeded: budget.map(str::to_owned),
            replay_drift: None,
            refused: None,
        }
    }

    #[test]
    fn counts_calls_tokens_failures_and_budget() {
        let u = Usage {
            prompt_tokens: 10,
            completion_tokens: 2,
            cached_tokens: 4,
            cache_write_tokens: 0,
        };
        let lines = [
            line(Some(u), None, None),
            line(Some(u), None, None),
            line(None, Some("boom"), None),
            line(None, Some("refused"), Some("tokens")),
        ];
        let m = TranscriptMetrics::from_lines(&lines);
        assert_eq!(m.llm_calls, 3);
        assert_eq!(m.input_tokens, 20);
        assert_eq!(m.output_tokens, 4);
        assert_eq!(m.cached_tokens, 8);
        assert_eq!(m.failed_calls, 1);
        assert_eq!(m.retries, 3);
        assert_eq!(m.budget_exceeded.as_deref(), Some("tokens"));
    }
}
