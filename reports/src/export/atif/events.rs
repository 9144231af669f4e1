//! What the trajectory takes from the agent's events.jsonl: each tool call's status and
//! duration (the transcript has the calls, only the agent knows how they ended), the
//! commands its policy blocked, the model it asked for and why it stopped. Without a
//! transcript (an agent that talks to no model through the gateway) the events are the
//! only account, and their tool calls become the steps.

use super::read::{self, MAX_EVENT_LINE, MAX_EVENTS_BYTES, Refused};
use super::schema::{Extra, Source, Step, ToolCall};
use nab_protocol::{Event, EventKind, ToolStatus};
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;

/// How one tool call ended, as the agent reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallStatus {
    pub status: ToolStatus,
    pub duration_ms: u64,
}

/// The agent's events, read.
#[derive(Debug, Default)]
pub struct Events {
    pub events: Vec<Event>,
    /// Lines that were not read, each `path:line: why`.
    pub skipped: Vec<String>,
}

/// Reads `path` (absent: no events). A line that does not parse is skipped and listed.
pub fn load(path: &Path) -> Result<Events, Refused> {
    let mut out = Events::default();
    let mut bad = Vec::new();
    let too_long =
        read::each_line(
            path,
            MAX_EVENTS_BYTES,
            MAX_EVENT_LINE,
            |n, line| match Event::parse_line(line) {
                Ok(e) => out.events.push(e),
                Err(e) => bad.push(format!("{}:{n}: {e}", path.display())),
            },
        )?;
    out.skipped = bad;
    out.skipped.extend(too_long);
    Ok(out)
}

impl Events {
    /// Each tool call's status and duration, by its id (the last report wins).
    pub fn statuses(&self) -> HashMap<String, CallStatus> {
        let mut m = HashMap::new();
        for e in &self.events {
            if let EventKind::ToolCall {
                tool_call_id,
                status,
                duration_ms,
                ..
            } = &e.kind
            {
                let s = CallStatus {
                    status: *status,
                    duration_ms: *duration_ms,
                };
                m.insert(tool_call_id.clone(), s);
            }
        }
        m
    }

    /// The model the agent said it asks for (its `start` event).
    pub fn model(&self) -> Option<String> {
        self.events.iter().find_map(|e| match &e.kind {
            EventKind::Start { model, .. } => Some(model.clone()),
            _ => None,
        })
    }

    /// The time of the first event, the agent's start.
    pub fn started_at(&self) -> Option<&str> {
        self.events.first().map(|e| e.ts.as_str())
    }

    /// The commands the agent's policy refused, with the rule and the reason it gave.
    pub fn policy_blocks(&self) -> Vec<serde_json::Value> {
        self.events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::PolicyBlock {
                    step,
                    command,
                    rule,
                    reason,
                } => Some(json!({
                    "ts": e.ts, "agent_step": step, "command": command,
                    "rule": rule, "reason": reason,
                })),
                _ => None,
            })
            .collect()
    }

    /// Why the agent stopped and what it said last (its `finish` event).
    pub fn finish(&self) -> Option<serde_json::Value> {
        self.events.iter().rev().find_map(|e| match &e.kind {
            EventKind::Finish {
                exit_reason,
                steps,
                message,
            } => Some(json!({ "exit_reason": exit_reason, "steps": steps, "message": message })),
            _ => None,
        })
    }

    /// Steps from the events alone: one agent step per step of the agent that ran tool
    /// calls (their arguments as the agent summarised them, in `extra`: the events never
    /// hold them whole), and the agent's last message when it finished with one.
    pub fn steps(&self) -> Vec<Step> {
        let mut steps: Vec<(u32, Step)> = Vec::new();
        for e in &self.events {
            let EventKind::ToolCall {
                step,
                tool_call_id,
                name,
                args_summary,
                status,
                duration_ms,
            } = &e.kind
            else {
                continue;
            };
            if steps.last().is_none_or(|(s, _)| s != step) {
                let mut st = Step::new(Source::Agent, String::new());
                st.timestamp = super::time::timestamp(&e.ts);
                st.extra = Some(object(json!({ "agent_step": step })));
                steps.push((*step, st));
            }
            let call = ToolCall {
                tool_call_id: tool_call_id.clone(),
                function_name: name.clone(),
                arguments: Extra::new(),
                extra: Some(object(json!({
                    "args_summary": args_summary, "status": status.as_str(),
                    "duration_ms": duration_ms,
                }))),
            };
            if let Some((_, st)) = steps.last_mut() {
                st.tool_calls.get_or_insert_with(Vec::new).push(call);
            }
        }
        let mut out: Vec<Step> = steps.into_iter().map(|(_, s)| s).collect();
        if let Some((ts, message)) = self.events.iter().rev().find_map(|e| match &e.kind {
            EventKind::Finish {
                message: Some(m), ..
            } => Some((e.ts.clone(), m.clone())),
            _ => None,
        }) {
            let mut st = Step::new(Source::Agent, message);
            st.timestamp = super::time::timestamp(&ts);
            out.push(st);
        }
        out
    }
}

fn object(v: serde_json::Value) -> Extra {
    match v {
        serde_json::Value::Object(m) => m,
        _ => Extra::new(),
    }
}
