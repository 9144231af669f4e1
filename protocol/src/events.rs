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

/// One line of `events.jsonl`: the version, when it happened, and what happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The schema version the writer used ([`EVENTS_VERSION`] when this crate writes it).
    pub v: u32,
    /// RFC 3339, UTC, milliseconds.
    pub ts: String,
    /// What happened; its `kind` tag and fields sit beside `v` and `ts` on the line.
    #[serde(flatten)]
    pub kind: EventKind,
}

impl Event {
    /// An event of this kind, stamped with the current version and time.
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

/// What an event says happened, tagged by `kind` on the line.
///
/// Deliberately exhaustive (no `#[non_exhaustive]`): every reader matches on all kinds, so
/// a kind added here does not compile until each consumer decides what to do with it. A
/// kind this build does not know (a newer agent's) reads as [`EventKind::Unknown`] rather
/// than failing the line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// The agent started, with the settings it runs under.
    Start {
        /// The model name the agent asks for.
        model: String,
        /// The workspace folder it works in.
        workspace: String,
        /// Its step limit.
        max_steps: u32,
        /// The context window it manages to, when set.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_window: Option<u64>,
        /// Its own token budget, when set.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token_budget: Option<u64>,
    },
    /// One model call answered.
    ModelCall {
        /// The step (1-based) the call belongs to.
        step: u32,
        /// The token usage the provider reported.
        usage: Usage,
        /// From sending the request to the end of the answer.
        latency_ms: u64,
        /// The provider's finish reason, when it gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        finish_reason: Option<String>,
    },
    /// One tool call run (or refused).
    ToolCall {
        /// The step the call belongs to.
        step: u32,
        /// The model's id for the call.
        tool_call_id: String,
        /// The tool's name (`mcp__<server>__<tool>` for MCP tools).
        name: String,
        /// A short, capped rendering of the arguments (never the full file contents).
        args_summary: String,
        /// How the call ended.
        status: ToolStatus,
        /// How long it ran.
        duration_ms: u64,
    },
    /// A command the policy refused to run.
    PolicyBlock {
        /// The step the command belongs to.
        step: u32,
        /// The command as the model gave it.
        command: String,
        /// The id of the rule that blocked it.
        rule: String,
        /// Why, as told to the model.
        reason: String,
    },
    /// The syntax check after an edit found errors.
    Diagnostics {
        /// The step of the edit.
        step: u32,
        /// The edited file, relative to the workspace.
        path: String,
        /// Syntax errors found after an edit (the model is shown at most 20).
        count: u32,
    },
    /// A context-management action (offload, clear, summarize).
    Compaction {
        /// The step before whose model call it ran.
        step: u32,
        /// Which action.
        tier: CompactionTier,
        /// The context's estimated tokens before.
        tokens_before: u64,
        /// The context's estimated tokens after.
        tokens_after: u64,
        /// Messages in the history before.
        messages_before: u32,
        /// Messages in the history after.
        messages_after: u32,
        /// Whether the action did what it set out to do (a summary can fail validation).
        succeeded: bool,
        /// What happened, in words (a failure's cause, say).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// The life of an MCP server: start, ready, call, death, restart, give_up.
    Mcp {
        /// The server's name in the MCP configuration.
        server: String,
        /// `start`, `ready`, `call`, `death`, `restart` or `give_up`.
        action: String,
        /// More about it (a tool's name, an exit status, an error).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// The agent stopped: the last line of a complete stream.
    Finish {
        /// Why it stopped.
        exit_reason: ExitReason,
        /// How many steps it took.
        steps: u32,
        /// The final answer or the error, when there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// A kind this build does not know (written by a newer agent); its fields are dropped.
    /// Readers show it as unknown; no writer emits it.
    #[serde(other)]
    Unknown,
}

impl EventKind {
    /// The kind's `kind` tag as it is written in `events.jsonl` (`"unknown"` for a kind
    /// this build does not know).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Start { .. } => "start",
            EventKind::ModelCall { .. } => "model_call",
            EventKind::ToolCall { .. } => "tool_call",
            EventKind::PolicyBlock { .. } => "policy_block",
            EventKind::Diagnostics { .. } => "diagnostics",
            EventKind::Compaction { .. } => "compaction",
            EventKind::Mcp { .. } => "mcp",
            EventKind::Finish { .. } => "finish",
            EventKind::Unknown => "unknown",
        }
    }
}

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    /// It ran and succeeded.
    Ok,
    /// It ran and failed (or the tool is unknown, or its arguments were invalid).
    Error,
    /// It ran past its time limit.
    Timeout,
    /// A guard (path or command policy) refused it.
    Blocked,
}

impl ToolStatus {
    /// The status as it is written in `events.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolStatus::Ok => "ok",
            ToolStatus::Error => "error",
            ToolStatus::Timeout => "timeout",
            ToolStatus::Blocked => "blocked",
        }
    }
}

/// A context-management action, cheapest first (the order compares them: `Offload <
/// Clear < Summarize`, from the least to the most drastic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionTier {
    /// A large tool output written to a file, its head and tail kept in the context.
    Offload,
    /// Old tool results replaced by a placeholder.
    Clear,
    /// The older history replaced by a validated summary.
    Summarize,
}

impl CompactionTier {
    /// The tier as it is written in `events.jsonl` and `task.yaml`.
    pub fn as_str(self) -> &'static str {
        match self {
            CompactionTier::Offload => "offload",
            CompactionTier::Clear => "clear",
            CompactionTier::Summarize => "summarize",
        }
    }
}

/// Why the agent stopped. Each stop has its own reason so reports can tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExitReason {
    /// The model answered without tool calls.
    FinalAnswer,
    /// The step limit was reached.
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
    /// Anything else that stopped the agent (a failed model call, a broken workspace).
    Error,
}

impl ExitReason {
    /// The reason as it is written in `events.jsonl` and trial records.
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
    fn a_newer_kind_reads_as_unknown_and_a_known_kind_with_bad_fields_is_refused() {
        let e = Event::parse_line(
            r#"{"v":1,"ts":"2026-12-01T00:00:00.000Z","kind":"thought","step":3,"text":"hm"}"#,
        )
        .unwrap();
        assert_eq!(e.kind, EventKind::Unknown);
        assert_eq!(e.ts, "2026-12-01T00:00:00.000Z");
        let err = Event::parse_line(r#"{"v":1,"ts":"x","kind":"finish","steps":"many"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid event schema"), "{err}");
    }

    #[test]
    fn each_kind_name_is_its_serde_tag() {
        let kinds = [
            EventKind::Start {
                model: "m".into(),
                workspace: "/w".into(),
                max_steps: 1,
                context_window: None,
                token_budget: None,
            },
            EventKind::ModelCall {
                step: 1,
                usage: Usage::default(),
                latency_ms: 1,
                finish_reason: None,
            },
            EventKind::ToolCall {
                step: 1,
                tool_call_id: "c".into(),
                name: "n".into(),
                args_summary: String::new(),
                status: ToolStatus::Ok,
                duration_ms: 1,
            },
            EventKind::PolicyBlock {
                step: 1,
                command: "c".into(),
                rule: "r".into(),
                reason: "r".into(),
            },
            EventKind::Diagnostics {
                step: 1,
                path: "p".into(),
                count: 1,
            },
            EventKind::Compaction {
                step: 1,
                tier: CompactionTier::Clear,
                tokens_before: 2,
                tokens_after: 1,
                messages_before: 2,
                messages_after: 1,
                succeeded: true,
                detail: None,
            },
            EventKind::Mcp {
                server: "s".into(),
                action: "start".into(),
                detail: None,
            },
            EventKind::Finish {
                exit_reason: ExitReason::FinalAnswer,
                steps: 1,
                message: None,
            },
            EventKind::Unknown,
        ];
        for k in kinds {
            let v = serde_json::to_value(&k).unwrap();
            assert_eq!(v["kind"], k.name(), "{v}");
        }
    }

    #[test]
    fn tool_status_as_str_is_its_serde_name() {
        for s in [
            ToolStatus::Ok,
            ToolStatus::Error,
            ToolStatus::Timeout,
            ToolStatus::Blocked,
        ] {
            assert_eq!(
                serde_json::to_string(&s).unwrap(),
                format!("\"{}\"", s.as_str())
            );
        }
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
