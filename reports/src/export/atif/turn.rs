//! One transcript line (one model call, as the gateway relayed it) as one ATIF step: the
//! answer's text, reasoning and tool calls, the call's token counts and time. A call that
//! got no answer (refused by the gateway, failed at the provider) is a system step saying
//! so, since no model turn happened.

use super::events::CallStatus;
use super::schema::{Extra, Metrics, Observation, ObservationResult, Source, Step, ToolCall};
use super::time::timestamp;
use nab_protocol::{Omitted, TranscriptLine};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The step for `line`, its tool calls' results still empty (they are in later requests);
/// `statuses` are the agent's own reports of each call, by id.
pub fn step_of(line: &TranscriptLine, statuses: &HashMap<String, CallStatus>) -> Step {
    match &line.response {
        Some(response) => answered(line, response, statuses),
        None => unanswered(line),
    }
}

fn answered(
    line: &TranscriptLine,
    response: &Value,
    statuses: &HashMap<String, CallStatus>,
) -> Step {
    let choice = response.get("choices").and_then(|c| c.get(0));
    let msg = choice.and_then(|c| c.get("message"));
    let mut step = Step::new(
        Source::Agent,
        text_of(msg.and_then(|m| m.get("content"))).unwrap_or_default(),
    );
    step.timestamp = timestamp(&line.ts);
    step.model_name = response
        .get("model")
        .and_then(Value::as_str)
        .map(str::to_owned);
    step.reasoning_content = msg
        .and_then(|m| m.get("reasoning_content"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    let calls: Vec<ToolCall> = msg
        .and_then(|m| m.get("tool_calls"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(k, tc)| tool_call(line.seq, k, tc, statuses))
        .collect();
    if !calls.is_empty() {
        step.observation = Some(Observation {
            results: calls
                .iter()
                .map(|c| ObservationResult {
                    source_call_id: Some(c.tool_call_id.clone()),
                    content: None,
                    extra: None,
                })
                .collect(),
        });
        step.tool_calls = Some(calls);
    }
    step.metrics = line.usage.map(|u| Metrics {
        prompt_tokens: Some(u.prompt_tokens),
        completion_tokens: Some(u.completion_tokens),
        cached_tokens: Some(u.cached_tokens),
        extra: (u.cache_write_tokens > 0)
            .then(|| object(json!({ "cache_write_tokens": u.cache_write_tokens }))),
    });
    step.llm_call_count = Some(1);
    let mut extra = call_extra(line);
    if let Some(f) = choice
        .and_then(|c| c.get("finish_reason"))
        .and_then(Value::as_str)
    {
        extra.insert("finish_reason".into(), f.into());
    }
    if let Some(o) = Omitted::of(response) {
        extra.insert("response_omitted".into(), json!(o));
    }
    step.extra = Some(extra);
    step
}

fn unanswered(line: &TranscriptLine) -> Step {
    let message = match (&line.refused, &line.error) {
        (Some(code), _) => format!("the gateway refused the agent's request ({code})"),
        (None, Some(e)) => format!("the model call failed: {e}"),
        (None, None) => "the model call got no answer".to_owned(),
    };
    let mut step = Step::new(Source::System, message);
    step.timestamp = timestamp(&line.ts);
    step.extra = Some(call_extra(line));
    step
}

/// What the gateway recorded about the call itself.
fn call_extra(line: &TranscriptLine) -> Extra {
    let mut e = object(json!({ "seq": line.seq, "latency_ms": line.latency_ms }));
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            e.insert(k.into(), v);
        }
    };
    put("status", line.status.map(Value::from));
    put("retries", (line.retries > 0).then_some(line.retries.into()));
    put("error", line.error.clone().map(Value::from));
    put("error_code", line.error_code.clone().map(Value::from));
    put(
        "budget_exceeded",
        line.budget_exceeded.clone().map(Value::from),
    );
    put("refused", line.refused.clone().map(Value::from));
    put("replay_drift", line.replay_drift.clone().map(Value::from));
    e
}

/// One tool call of the answer. A call without an id gets one made from the call's place
/// (`seq`, index) so its result can still point at it; arguments that are not a JSON
/// object are kept as text in `extra.raw_arguments`.
fn tool_call(seq: u64, k: usize, tc: &Value, statuses: &HashMap<String, CallStatus>) -> ToolCall {
    let f = tc.get("function");
    let id = tc
        .get("id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| format!("nab-call-{seq}-{k}"));
    let raw = f.and_then(|f| f.get("arguments"));
    let parsed = match raw {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
        other => other.cloned(),
    };
    let mut extra = Extra::new();
    let arguments = match parsed {
        Some(Value::Object(m)) => m,
        _ => {
            if let Some(r) = raw {
                extra.insert(
                    "raw_arguments".into(),
                    r.as_str()
                        .map_or_else(|| r.to_string(), str::to_owned)
                        .into(),
                );
            }
            Extra::new()
        }
    };
    if let Some(s) = statuses.get(&id) {
        extra.insert("status".into(), s.status.as_str().into());
        extra.insert("duration_ms".into(), s.duration_ms.into());
    }
    ToolCall {
        function_name: f
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        arguments,
        extra: (!extra.is_empty()).then_some(extra),
        tool_call_id: id,
    }
}

/// The text of a chat message's `content`: a string, or the text parts of an array.
pub fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let t: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            (!t.is_empty()).then(|| t.join("\n"))
        }
        _ => None,
    }
}

fn object(v: Value) -> Extra {
    match v {
        Value::Object(m) => m,
        _ => Extra::new(),
    }
}
