//! The agent's event stream: one JSON object per line in `events.jsonl`.
//!
//! This is the contract between an agent and the harness. Every line is an [`Event`]:
//! `{"v":1,"ts":"2026-11-30T10:00:00.000Z","kind":"tool_call", ...fields of the kind}`.
//! The harness treats the gateway transcript as authoritative for tokens and model
//! calls; events supply what only the agent knows (tool calls, policy blocks, its exit
//! reason).

use crate::usage::Usage;
use serde::{Deserialize, Serialize};

/// The version this crate writes. Readers accept `1..=EVENTS_VERSION`.
pub const EVENTS_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub v: u32,
    /// RFC 3339, UTC, milliseconds.
    pub ts: String,
    #[serde(flatten)]
    pub kind: EventKind,
}

impl Event {
    pub fn now(kind: EventKind) -> Event {
        Event {
            v: EVENTS_VERSION,
            ts: crate::now_rfc3339(),
            kind,
        }
    }

    /// Parses one line, rejecting versions this build does not know with a clear message.
    pub fn parse_line(line: &str) -> Result<Event, crate::versioned::VersionedError> {
        crate::versioned::parse_versioned_line(line, "event schema", EVENTS_VERSION)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum EventKind {
    Start {
        model: String,
        workspace: String,
        max_steps: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_window: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token_budget: Option<u64>,
    },
    ModelCall {
        step: u32,
        usage: Usage,
        latency_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        finish_reason: Option<String>,
    },
    ToolCall {
        step: u32,
        tool_call_id: String,
        name: String,
        /// A short, capped rendering of the arguments (never the full file contents).
        args_summary: String,
        status: ToolStatus,
        duration_ms: u64,
    },
    PolicyBlock {
        step: u32,
        command: String,
        rule: String,
        reason: String,
    },
    Diagnostics {
        step: u32,
        path: String,
        /// Syntax errors found after an edit (the model is shown at most 20).
        count: u32,
    },
    /// A context-management action (offload, clear, summarize).
    Compaction {
        step: u32,
        tier: CompactionTier,
        tokens_before: u64,
        tokens_after: u64,
        messages_before: u32,
        messages_after: u32,
        succeeded: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// The life of an MCP server: start, ready, call, death, restart, give_up.
    Mcp {
        server: String,
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    Finish {
        exit_reason: ExitReason,
        steps: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Error,
    Timeout,
    Blocked,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionTier {
    Offload,
    Clear,
    Summarize,
}

/// Why the agent stopped. Each stop has its own reason so reports can tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExitReason {
    /// The model answered without tool calls.
    FinalAnswer,
    MaxSteps,
    /// The same call (name + canonical arguments) three times in a row.
    Stagnation,
    /// The agent's own `--token-budget`, or the gateway's token limit.
    TokenBudget,
    /// The gateway's limit on model calls.
    CallBudget,
    /// The gateway's dollar limit (`budgets.usd`, priced by `nab run --prices`).
    CostBudget,
    /// The provider said the context was full (`finish_reason: length` on the prompt).
    ContextOverflow,
    Error,
}

impl ExitReason {
    pub fn as_str(&self) -> &'static str {
        match self {
            ExitReason::FinalAnswer => "final_answer",
            ExitReason::MaxSteps => "max_steps",
            ExitReason::Stagnation => "stagnation",
            ExitReason::TokenBudget => "token_budget",
            ExitReason::CallBudget => "call_budget",
            ExitReason::CostBudget => "cost_budget",
            ExitReason::ContextOverflow => "context_overflow",
            ExitReason::Error => "error",
        }
    }
}

impl std::fmt::Display for ExitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips_with_its_kind_tag() {
        let e = Event::now(EventKind::ToolCall {
            step: 2,
            tool_call_id: "call_1".into(),
            name: "read_file".into(),
            args_summary: "path=src/a.py".into(),
            status: ToolStatus::Timeout,
            duration_ms: 90_000,
        });
        let line = serde_json::to_string(&e).unwrap();
        assert!(line.contains(r#""kind":"tool_call""#), "{line}");
        assert!(line.contains(r#""status":"timeout""#), "{line}");
        assert_eq!(Event::parse_line(&line).unwrap(), e);
    }

    #[test]
    fn an_unknown_version_is_rejected_with_the_supported_range() {
        let err = Event::parse_line(
            r#"{"v":9,"ts":"x","kind":"finish","exit_reason":"error","steps":0}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("version 9") && err.contains("1..=1"), "{err}");
    }
}
