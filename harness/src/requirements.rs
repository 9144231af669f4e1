//! A task's requirements on how the work was done, checked from records the agent cannot
//! write: `required_tool_calls` from the MCP host's record of the calls its servers served
//! (`mcp_calls.jsonl`), whatever agent ran and whatever its model claimed; and
//! `agent.requires_compaction`, which only a model session can show. A requirement that
//! cannot be checked fails the trial with a reason that names it.

use crate::task::{MadeCall, Task};
use nab_protocol::{FailureReason, McpCall};
use std::path::Path;

/// What the trial broke, for its failure reason and its `violations`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Unmet {
    pub failure: Option<FailureReason>,
    pub violations: Vec<String>,
}

/// The required tool calls that `served` (the servers' record) does not meet. Calls whose
/// result was an error (`isError`) served nothing and do not count.
pub fn unmet_tool_calls(task: &Task, served: &[McpCall]) -> Vec<String> {
    let made: Vec<MadeCall<'_>> = served
        .iter()
        .filter(|c| !c.is_error)
        .map(|c| MadeCall {
            tool: &c.name,
            arguments: c.arguments.clone(),
        })
        .collect();
    task.spec
        .required_tool_calls
        .iter()
        .filter_map(|r| r.unmet(&made))
        .collect()
}

/// Reads the MCP host's record in `trial_dir` (absent: nothing was served).
pub fn read_served(trial_dir: &Path) -> Result<Vec<McpCall>, nab_protocol::JsonlError> {
    let path = trial_dir.join(nab_protocol::MCP_CALLS_FILE);
    Ok(nab_protocol::read_jsonl::<McpCall>(&path)?.records)
}

/// Checks both kinds of requirement. `compaction`: the finding from the agent's session
/// (`Some(None)`: shown; `Some(Some(why))`: not shown), or `None` without a session.
pub fn check(task: &Task, served: &[McpCall], compaction: Option<Option<String>>) -> Unmet {
    let mut unmet = Unmet::default();
    let calls = unmet_tool_calls(task, served);
    if !calls.is_empty() {
        unmet.failure = Some(FailureReason::MissingToolCalls);
        unmet.violations.extend(
            calls
                .into_iter()
                .map(|why| format!("{why} (the MCP servers' record)")),
        );
    }
    if let Some(tier) = task.spec.agent.as_ref().and_then(|a| a.requires_compaction) {
        let why = match compaction {
            Some(found) => found,
            None => Some(format!(
                "the task requires a `{}` compaction, which only a model session through the gateway can show, and this agent had none",
                tier.as_str()
            )),
        };
        if let Some(why) = why {
            unmet
                .failure
                .get_or_insert(FailureReason::MissingCompaction);
            unmet.violations.push(why);
        }
    }
    unmet
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task(yaml_extra: &str) -> Task {
        let dir = tempfile::tempdir().unwrap();
        let yaml = format!(
            "id: t\ncategory: mcp\nlanguage: shell\ndifficulty: easy\ntimeouts: {{agent_s: 10, verify_s: 10}}\nlimits: {{cpus: 1, memory_mb: 256, pids: 64}}\nverify:\n  - {{argv: [true], timeout_s: 5}}\nsolution: [true]\n{yaml_extra}"
        );
        Task {
            spec: serde_yaml::from_str(&yaml).unwrap(),
            dir: dir.path().to_owned(),
            wrong: vec![],
            pinned_tests: None,
            image: None,
        }
    }

    fn served(name: &str, args: serde_json::Value, is_error: bool) -> McpCall {
        let (server, tool) = name
            .strip_prefix("mcp__")
            .and_then(|r| r.split_once("__"))
            .unwrap();
        McpCall {
            v: 1,
            server: server.into(),
            tool: tool.into(),
            name: name.into(),
            arguments: args,
            is_error,
        }
    }

    #[test]
    fn required_calls_count_only_what_a_server_answered_with_a_result() {
        let t = task(
            "required_tool_calls:\n  - mcp__tracker__list_tickets\n  - {tool: mcp__tracker__get_ticket, arguments: {id: T-7}}\n",
        );
        // Nothing served (a model that "called" the tools through made-up answers).
        let none = check(&t, &[], None);
        assert_eq!(none.failure, Some(FailureReason::MissingToolCalls));
        assert_eq!(none.violations.len(), 2, "{:?}", none.violations);
        // Served, but the ticket call was an error: still unmet.
        let list = served("mcp__tracker__list_tickets", json!({}), false);
        let bad = served("mcp__tracker__get_ticket", json!({"id": "T-7"}), true);
        let some = check(&t, &[list.clone(), bad], None);
        assert_eq!(some.violations.len(), 1);
        assert!(
            some.violations[0].contains("get_ticket"),
            "{:?}",
            some.violations
        );
        let good = served("mcp__tracker__get_ticket", json!({"id": "T-7"}), false);
        assert_eq!(check(&t, &[list, good], None), Unmet::default());
    }

    #[test]
    fn a_compaction_requirement_without_a_session_fails_and_says_why() {
        let t = task("agent: {context_window: 9000, requires_compaction: summarize}\n");
        let none = check(&t, &[], None);
        assert_eq!(none.failure, Some(FailureReason::MissingCompaction));
        assert!(none.violations[0].contains("no"), "{:?}", none.violations);
        assert_eq!(check(&t, &[], Some(None)), Unmet::default());
        let shown = check(&t, &[], Some(Some("no summary".into())));
        assert_eq!(shown.violations, vec!["no summary".to_string()]);
    }
}
