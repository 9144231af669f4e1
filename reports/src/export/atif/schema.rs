//! The Agent Trajectory Interchange Format (ATIF), as Harbor's RFC 0001 specifies it: the
//! types nab writes, built from the specification's field tables (not from Harbor's code).
//!
//! Only what nab fills is here; every optional field is left out of the JSON when absent,
//! since the published validator forbids unknown fields and reads an absent field as null.
//! Version 1.7 is the first with `llm_call_count` and per-tool-call `extra`, both of which
//! nab writes; later versions only add fields nab does not use.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The `schema_version` nab writes.
pub const ATIF_VERSION: &str = "ATIF-v1.7";

/// Custom metadata, a JSON object (`extra` at every level of the format).
pub type Extra = Map<String, Value>;

/// One trajectory: a whole agent run (here, one trial).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    /// `ATIF-v1.7`.
    pub schema_version: String,
    /// The run the trajectory belongs to: nab's run id, task and trial.
    pub session_id: String,
    /// This document's own id (the same as `session_id`: one document per trial).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trajectory_id: Option<String>,
    /// The agent system that ran.
    pub agent: Agent,
    /// The interaction, in order; `step_id`s run 1, 2, 3, …
    pub steps: Vec<Step>,
    /// Free text: how nab built the document and where it departs from the totals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Totals over the trajectory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_metrics: Option<FinalMetrics>,
    /// nab's own metadata: the trial record (verdict, tests, timings) and what the export saw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// The agent system: its name and version, and the model it used by default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agent {
    pub name: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// Who a step comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The system prompt, or an event of the harness (a failed model call).
    System,
    /// The task's instruction.
    User,
    /// One model turn: its message, tool calls and their results.
    Agent,
}

/// One step. The agent-only fields (`model_name`, `reasoning_content`, `tool_calls`,
/// `metrics`) stay absent on system and user steps, as the format requires.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub step_id: u64,
    /// ISO 8601 (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    /// Required, possibly empty.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<Observation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Metrics>,
    /// Model calls the step stands for (1 for a model turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_call_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

impl Step {
    /// A step from `source` saying `message`, every optional field absent; the caller
    /// numbers it.
    pub fn new(source: Source, message: String) -> Step {
        Step {
            step_id: 0,
            timestamp: None,
            source,
            model_name: None,
            message,
            reasoning_content: None,
            tool_calls: None,
            observation: None,
            metrics: None,
            llm_call_count: None,
            extra: None,
        }
    }
}

/// One tool call of a model turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub tool_call_id: String,
    pub function_name: String,
    /// The arguments as a JSON object (the format requires an object).
    pub arguments: Extra,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// What the environment answered to a step's calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub results: Vec<ObservationResult>,
}

/// One result, tied to its call by `source_call_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservationResult {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// Token counts of one model call. `prompt_tokens` includes `cached_tokens`, as in nab's
/// own counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// Totals over the whole trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinalMetrics {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_prompt_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_completion_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_cached_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_cost_usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}
