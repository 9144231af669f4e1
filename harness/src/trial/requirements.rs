//! A task's requirements on how the work was done, checked from records the agent cannot
//! write: `required_tool_calls` from the MCP host's record of the calls its servers served
//! (`mcp_calls.jsonl`), whatever agent ran and whatever its model claimed; and
//! `agent.requires_compaction`, a requirement on nab-agent's context management that only
//! its events and the gateway's transcript can show. Other agents are scored on their
//! answers there: the requirement is not judged for them, and the trial's log says so.

use crate::task::{MadeCall, Task};
use nab_protocol::{FailureReason, McpCall};
use std::path::Path;

/// What the trial broke, for its failure reason and its `violations`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Unmet {
    pub failure: Option<FailureReason>,
    pub violations: Vec<String>,
}

/// The required tool calls that `served` (the servers' record) does not meet. Calls whose
/// result was an error (`isError`) served nothing and do not count.
pub(crate) fn unmet_tool_calls(task: &Task, served: &[McpCall]) -> Vec<String> {
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
pub(crate) fn read_served(trial_dir: &Path) -> Result<Vec<McpCall>, nab_protocol::JsonlError> {
    let path = trial_dir.join(nab_protocol::MCP_CALLS_FILE);
    Ok(nab_protocol::read_jsonl::<McpCall>(&path)?.records)
}

/// What is known of a compaction the task requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Compaction {
    /// nab-agent with a model session: `None` when its events and the transcript show the
    /// compaction, else why not.
    Judged(Option<String>),
    /// Any other agent: not judged (its answers decide).
    NotJudged,
}

impl Compaction {
    /// What the trial record says of it, apart from the answers' verdict.
    pub(crate) fn check(&self) -> nab_protocol::CompactionCheck {
        match self {
            Compaction::Judged(None) => nab_protocol::CompactionCheck::Met,
            Compaction::Judged(Some(_)) => nab_protocol::CompactionCheck::Missed,
            Compaction::NotJudged => nab_protocol::CompactionCheck::NotJudged,
        }
    }
}

/// Checks both kinds of requirement.
pub(crate) fn check(task: &Task, served: &[McpCall], compaction: Compaction) -> Unmet {
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
    if task
        .spec
        .agent
        .as_ref()
        .is_some_and(|a| a.requires_compaction.is_some())
        && let Compaction::Judged(Some(why)) = compaction
    {
        unmet
            .failure
            .get_or_insert(FailureReason::MissingCompaction);
        unmet.violations.push(why);
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
            result_text: None,
            result_cut: false,
        }
    }

    #[test]
    fn required_calls_count_only_what_a_server_answered_with_a_result() {
        let t = task(
            "required_tool_calls:\n  - mcp__tracker__list_tickets\n  - {tool: mcp__tracker__get_ticket, arguments: {id: T-7}}\n",
        );
        // Nothing served (a model that "called" the tools through made-up answers).
        let none = check(&t, &[], Compaction::NotJudged);
        assert_eq!(none.failure, Some(FailureReason::MissingToolCalls));
        assert_eq!(none.violations.len(), 2, "{:?}", none.violations);
        // Served, but the ticket call was an error: still unmet.
        let list = served("mcp__tracker__list_tickets", json!({}), false);
        let bad = served("mcp__tracker__get_ticket", json!({"id": "T-7"}), true);
        let some = check(&t, &[list.clone(), bad], Compaction::NotJudged);
        assert_eq!(some.violations.len(), 1);
        assert!(
            some.violations[0].contains("get_ticket"),
            "{:?}",
            some.violations
        );
        let good = served("mcp__tracker__get_ticket", json!({"id": "T-7"}), false);
        assert_eq!(
            check(&t, &[list, good], Compaction::Judged(None)),
            Unmet::default()
        );
    }

    #[test]
    fn a_compaction_requirement_is_judged_for_nab_agent_only() {
        let t = task("agent: {context_window: 9000, requires_compaction: summarize}\n");
        let missing = check(&t, &[], Compaction::Judged(Some("no summary".into())));
        assert_eq!(missing.failure, Some(FailureReason::MissingCompaction));
        assert_eq!(missing.violations, vec!["no summary".to_string()]);
        assert_eq!(check(&t, &[], Compaction::Judged(None)), Unmet::default());
        // The oracle, or another agent: scored on its answers.
        assert_eq!(check(&t, &[], Compaction::NotJudged), Unmet::default());
    }
}
