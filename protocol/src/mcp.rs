//! One line of `mcp_calls.jsonl`: a tool call a task's MCP server answered, as the harness's
//! MCP host saw it pass (the request on its way to the server, the result on its way back).
//!
//! This is the server side's own record: it lists only what a server actually served, so a
//! task's `required_tool_calls` are checked against it for every agent, with or without a
//! model session.

use serde::{Deserialize, Serialize};

/// The current version of [`McpCall`].
pub const MCP_CALL_VERSION: u32 = 1;

fn version() -> u32 {
    MCP_CALL_VERSION
}

/// A `tools/call` a server answered with a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct McpCall {
    /// Format version ([`MCP_CALL_VERSION`]).
    #[serde(default = "version")]
    pub v: u32,
    /// The server's name in task.yaml's `mcp_servers`.
    pub server: String,
    /// The tool's name as the server knows it.
    pub tool: String,
    /// The tool's name as an agent calls it: `mcp__<server>__<tool>`.
    pub name: String,
    /// The arguments sent (`null` when the request had none).
    #[serde(default)]
    pub arguments: serde_json::Value,
    /// The server's result said `isError: true` (the tool ran and reported a failure).
    #[serde(default)]
    pub is_error: bool,
    /// The result's text content (its `text` parts, joined by newlines), at most
    /// [`MAX_RESULT_TEXT`] bytes: what the server answered, for hidden tests that replay the
    /// record (a write's id, a replayed idempotency key, the error a call got). Absent in
    /// lines written before it was noted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_text: Option<String>,
    /// `result_text` was cut at [`MAX_RESULT_TEXT`] bytes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub result_cut: bool,
}

/// The most bytes of a result's text noted in [`McpCall::result_text`].
pub const MAX_RESULT_TEXT: usize = 16 * 1024;

impl McpCall {
    /// The name an agent uses for `server`'s `tool`.
    pub fn agent_name(server: &str, tool: &str) -> String {
        format!("mcp__{server}__{tool}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips_and_old_lines_without_a_version_read_as_v1() {
        let c = McpCall {
            v: MCP_CALL_VERSION,
            server: "tracker".into(),
            tool: "get_ticket".into(),
            name: McpCall::agent_name("tracker", "get_ticket"),
            arguments: serde_json::json!({"id": "T-1"}),
            is_error: false,
            result_text: Some("{}".into()),
            result_cut: false,
        };
        let line = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<McpCall>(&line).unwrap(), c);
        let old = r#"{"server":"s","tool":"t","name":"mcp__s__t","arguments":null}"#;
        let read: McpCall = serde_json::from_str(old).unwrap();
        assert_eq!((read.v, read.is_error, read.result_text), (1, false, None));
    }
}
