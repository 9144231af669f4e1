//! The gateway's transcript.jsonl as ATIF steps, streamed one line (one model call) at a
//! time. Each request repeats the conversation so far, so a tool call's result is the
//! `tool` message with its id in the first later request; the system prompt and the task's
//! instruction are the first request's. Requests are parsed one at a time and dropped.

use super::events::CallStatus;
use super::read::{self, MAX_TRANSCRIPT_BYTES, Refused};
use super::turn::{step_of, text_of};
use nab_protocol::{READ_LINE_LIMIT, TranscriptLine};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

use super::schema::Step;

/// What the transcript gives the trajectory.
#[derive(Debug, Default)]
pub struct Calls {
    /// The system prompt of the first request.
    pub system: Option<String>,
    /// Its first user message: the task's instruction.
    pub instruction: Option<String>,
    /// One step per model call, by `seq`.
    pub steps: Vec<(u64, Step)>,
    /// Results the agent never sent back (it stopped after the call): their count.
    pub unanswered_calls: usize,
    /// Lines not read, each `path:line: why`.
    pub skipped: Vec<String>,
}

/// Reads `path` (absent: no calls).
pub fn load(path: &Path, statuses: &HashMap<String, CallStatus>) -> Result<Calls, Refused> {
    let mut calls = Calls::default();
    let mut earliest = u64::MAX;
    // Calls whose result has not been seen yet: id → (step, call) indexes.
    let mut pending: HashMap<String, (usize, usize)> = HashMap::new();
    let mut bad = Vec::new();
    let too_long = read::each_line(path, MAX_TRANSCRIPT_BYTES, READ_LINE_LIMIT, |n, text| {
        let line = match serde_json::from_str::<TranscriptLine>(text) {
            Ok(l) => l,
            Err(e) => return bad.push(format!("{}:{n}: {e}", path.display())),
        };
        let messages = line.request.get("messages").and_then(Value::as_array);
        if line.seq < earliest {
            earliest = line.seq;
            calls.system = first_of(messages, "system");
            calls.instruction = first_of(messages, "user");
        }
        for m in messages.into_iter().flatten() {
            if m.get("role").and_then(Value::as_str) != Some("tool") {
                continue;
            }
            let Some(id) = m.get("tool_call_id").and_then(Value::as_str) else {
                continue;
            };
            if let Some((s, c)) = pending.remove(id) {
                set_result(&mut calls.steps[s].1, c, text_of(m.get("content")));
            }
        }
        let step = step_of(&line, statuses);
        for (c, tc) in step.tool_calls.iter().flatten().enumerate() {
            pending.insert(tc.tool_call_id.clone(), (calls.steps.len(), c));
        }
        calls.steps.push((line.seq, step));
    })?;
    calls.unanswered_calls = pending.len();
    calls.steps.sort_by_key(|(seq, _)| *seq);
    bad.extend(too_long);
    calls.skipped = bad;
    Ok(calls)
}

fn set_result(step: &mut Step, call: usize, content: Option<String>) {
    if let Some(r) = step
        .observation
        .as_mut()
        .and_then(|o| o.results.get_mut(call))
    {
        r.content = Some(content.unwrap_or_default());
    }
}

/// The text of the first message with `role`.
fn first_of(messages: Option<&Vec<Value>>, role: &str) -> Option<String> {
    messages
        .into_iter()
        .flatten()
        .find(|m| m.get("role").and_then(Value::as_str) == Some(role))
        .and_then(|m| text_of(m.get("content")))
}
