//! The trajectory: model turns with their tool calls and results.
//!
//! The gateway transcript is authoritative: each line is one model call, its response is
//! the assistant turn, and the results of that turn's tool calls are the `tool` messages
//! of the *next* request (matched by `tool_call_id`). The agent's events add each call's
//! status and duration. Without a transcript the events alone are shown.

use super::MAX_TURNS;
use super::text::Text;
use nab_protocol::{Event, EventKind, TranscriptLine};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

#[derive(Debug, Clone, Default, Serialize)]
pub struct Trajectory {
    /// "transcript", "events" or "none".
    pub source: &'static str,
    pub system: Option<Text>,
    pub prompt: Option<Text>,
    pub turns: Vec<Turn>,
    pub omitted_turns: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    pub index: usize,
    pub reasoning: Option<Text>,
    pub content: Option<Text>,
    pub tool_calls: Vec<ToolCallView>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub latency_ms: u64,
    pub error: Option<String>,
    pub finish_reason: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ToolCallView {
    pub id: String,
    pub name: String,
    pub arguments: Text,
    pub result: Option<Text>,
    pub status: Option<String>,
    pub duration_ms: Option<u64>,
}

/// One line of events.jsonl for the timeline, from the protocol's typed [`Event`]. A kind
/// this build does not know ([`EventKind::Unknown`], a newer agent's) is shown as such.
#[derive(Debug, Clone, Serialize)]
pub struct EventRow {
    pub ts: String,
    pub kind: String,
    pub step: Option<u64>,
    pub detail: String,
    pub status: Option<String>,
}

impl EventRow {
    pub fn from_event(e: &Event) -> EventRow {
        let mut status = None;
        let (step, detail) = match &e.kind {
            EventKind::ToolCall {
                step,
                name,
                args_summary,
                status: s,
                ..
            } => {
                status = Some(s.as_str().to_owned());
                (Some(*step), format!("{name} {args_summary}"))
            }
            EventKind::PolicyBlock {
                step,
                command,
                reason,
                ..
            } => (Some(*step), format!("{command} — {reason}")),
            EventKind::Finish {
                exit_reason,
                message,
                ..
            } => (
                None,
                format!(
                    "{exit_reason}{}",
                    message
                        .as_ref()
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default()
                ),
            ),
            EventKind::ModelCall {
                step,
                latency_ms,
                finish_reason,
                ..
            } => (
                Some(*step),
                format!(
                    "{latency_ms} ms{}",
                    finish_reason
                        .as_ref()
                        .map(|f| format!(", {f}"))
                        .unwrap_or_default()
                ),
            ),
            EventKind::Diagnostics { step, .. } | EventKind::Compaction { step, .. } => {
                (Some(*step), fields_json(&e.kind))
            }
            EventKind::Start { .. } | EventKind::Mcp { .. } => (None, fields_json(&e.kind)),
            EventKind::Unknown => (
                None,
                "an event kind this report does not know (written by a newer agent?)".to_owned(),
            ),
        };
        EventRow {
            ts: e.ts.clone(),
            kind: e.kind.name().to_owned(),
            step: step.map(u64::from),
            status,
            detail: detail.chars().take(400).collect(),
        }
    }
}

/// The kind's own fields as compact JSON, without its `kind` tag and `step` (shown in
/// their own columns).
fn fields_json(kind: &EventKind) -> String {
    let mut v = serde_json::to_value(kind).unwrap_or(Value::Null);
    if let Some(m) = v.as_object_mut() {
        for k in ["kind", "step"] {
            m.remove(k);
        }
    }
    v.to_string()
}

/// Reads events.jsonl through the protocol's [`Event`]; absent → empty. A line that does
/// not parse (a torn write, a version this build does not read) is skipped with a warning;
/// a kind this build does not know still reads, as [`EventKind::Unknown`].
pub fn load_events(path: &Path) -> Vec<Event> {
    let read =
        nab_protocol::read_jsonl_lenient(path, nab_protocol::READ_LINE_LIMIT, Event::parse_line);
    if let Some(first) = read.skipped.first() {
        tracing::warn!(
            "skipped {} line(s) of {}; the first: {first}",
            read.skipped.len(),
            path.display()
        );
    }
    read.records
}

/// The text of a chat message's `content` (a string or an array of text parts).
fn content_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
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

fn pretty_args(raw: &str) -> String {
    serde_json::from_str::<Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_owned())
}

impl Trajectory {
    pub fn load(transcript: &Path, events: &[Event]) -> Trajectory {
        let lines = super::pruned::load_pruned(transcript);
        if !lines.is_empty() {
            return Trajectory::from_transcript(lines, events);
        }
        Trajectory {
            source: if events.is_empty() { "none" } else { "events" },
            ..Default::default()
        }
    }

    pub fn from_transcript(mut lines: Vec<TranscriptLine>, events: &[Event]) -> Trajectory {
        lines.sort_by_key(|l| l.seq);
        let calls = call_statuses(events);
        let results = tool_results(&lines);
        let first_msgs = lines[0].request.get("messages").and_then(Value::as_array);
        let find_role = |role: &str| {
            first_msgs
                .into_iter()
                .flatten()
                .find(|m| m.get("role").and_then(Value::as_str) == Some(role))
                .and_then(|m| content_text(m.get("content")))
                .map(|s| Text::new(&s))
        };
        Trajectory {
            source: "transcript",
            system: find_role("system").map(|mut t| {
                t.collapsed = true;
                t
            }),
            prompt: find_role("user"),
            turns: lines
                .iter()
                .take(MAX_TURNS)
                .enumerate()
                .map(|(index, l)| turn(index, l, &calls, &results))
                .collect(),
            omitted_turns: lines.len().saturating_sub(MAX_TURNS),
        }
    }
}

/// A tool call's status and duration, as the agent's events report them.
type CallStatus = (Option<String>, Option<u64>);

/// Status and duration of each tool call, by id, from the agent's events.
fn call_statuses(events: &[Event]) -> HashMap<&str, CallStatus> {
    let mut calls: HashMap<&str, CallStatus> = HashMap::new();
    for e in events {
        if let EventKind::ToolCall {
            tool_call_id,
            status,
            duration_ms,
            ..
        } = &e.kind
        {
            calls.insert(
                tool_call_id.as_str(),
                (Some(status.as_str().to_owned()), Some(*duration_ms)),
            );
        }
    }
    calls
}

/// Every tool result the agent sent, by tool_call_id (later requests repeat earlier
/// results; the first time a result appears it is still whole, before any clearing).
fn tool_results(lines: &[TranscriptLine]) -> HashMap<String, String> {
    let mut results: HashMap<String, String> = HashMap::new();
    for l in lines {
        for m in l
            .request
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if m.get("role").and_then(Value::as_str) == Some("tool")
                && let Some(id) = m.get("tool_call_id").and_then(Value::as_str)
                && !results.contains_key(id)
            {
                results.insert(
                    id.to_owned(),
                    content_text(m.get("content")).unwrap_or_default(),
                );
            }
        }
    }
    results
}

/// One model call as a turn: the response's message, its tool calls with their results,
/// the call's usage, latency and error.
fn turn(
    index: usize,
    l: &TranscriptLine,
    calls: &HashMap<&str, CallStatus>,
    results: &HashMap<String, String>,
) -> Turn {
    let choice = l
        .response
        .as_ref()
        .and_then(|r| r.get("choices"))
        .and_then(|c| c.get(0));
    let msg = choice.and_then(|c| c.get("message"));
    let tool_calls = msg
        .and_then(|m| m.get("tool_calls"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|tc| tool_call_view(tc, calls, results))
        .collect();
    Turn {
        index,
        reasoning: msg
            .and_then(|m| m.get("reasoning_content"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(|s| {
                let mut t = Text::new(s);
                t.collapsed = true;
                t
            }),
        content: content_text(msg.and_then(|m| m.get("content"))).map(|s| Text::new(&s)),
        tool_calls,
        input_tokens: l.usage.map(|u| u.prompt_tokens),
        output_tokens: l.usage.map(|u| u.completion_tokens),
        latency_ms: l.latency_ms,
        error: l.error.clone().or_else(|| {
            l.budget_exceeded
                .as_ref()
                .map(|b| format!("budget exceeded: {b}"))
        }),
        finish_reason: choice
            .and_then(|c| c.get("finish_reason"))
            .and_then(Value::as_str)
            .map(str::to_owned),
    }
}

/// One tool call of a response (`tc`), with its result and the agent's status for it.
fn tool_call_view(
    tc: &Value,
    calls: &HashMap<&str, CallStatus>,
    results: &HashMap<String, String>,
) -> ToolCallView {
    let id = tc
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let f = tc.get("function");
    let (status, duration_ms) = calls.get(id.as_str()).cloned().unwrap_or((None, None));
    ToolCallView {
        name: f
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned(),
        arguments: Text::new(&pretty_args(
            f.and_then(|f| f.get("arguments"))
                .and_then(Value::as_str)
                .unwrap_or(""),
        )),
        result: results.get(&id).map(|r| Text::new(r)),
        status,
        duration_ms,
        id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The timeline row as the report built it before events were read typed: loose JSON,
    /// matched on the kind's string. Kept here only as the reference the typed reader must
    /// reproduce on files written before the change.
    fn legacy_row(v: &Value) -> EventRow {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let kind = s("kind").unwrap_or_else(|| "?".into());
        let detail = match kind.as_str() {
            "tool_call" => format!(
                "{} {}",
                s("name").unwrap_or_default(),
                s("args_summary").unwrap_or_default()
            ),
            "policy_block" => format!(
                "{} — {}",
                s("command").unwrap_or_default(),
                s("reason").unwrap_or_default()
            ),
            "finish" => format!(
                "{}{}",
                s("exit_reason").unwrap_or_default(),
                s("message").map(|m| format!(": {m}")).unwrap_or_default()
            ),
            "model_call" => format!(
                "{} ms{}",
                v.get("latency_ms").and_then(Value::as_u64).unwrap_or(0),
                s("finish_reason")
                    .map(|f| format!(", {f}"))
                    .unwrap_or_default()
            ),
            _ => {
                let mut o = v.clone();
                if let Some(m) = o.as_object_mut() {
                    for k in ["v", "ts", "kind", "step"] {
                        m.remove(k);
                    }
                }
                o.to_string()
            }
        };
        EventRow {
            ts: s("ts").unwrap_or_default(),
            step: v.get("step").and_then(Value::as_u64),
            status: s("status"),
            detail: detail.chars().take(400).collect(),
            kind,
        }
    }

    fn baseline_trials() -> Vec<std::path::PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/baseline/trials");
        let mut out = Vec::new();
        for task in std::fs::read_dir(&root).unwrap() {
            for trial in std::fs::read_dir(task.unwrap().path()).unwrap() {
                out.push(trial.unwrap().path());
            }
        }
        out.sort();
        assert!(!out.is_empty(), "no trials under {}", root.display());
        out
    }

    #[test]
    fn baseline_events_render_exactly_as_the_loose_reader_rendered_them() {
        let (mut kinds, mut tool_ok, mut finished) = (BTreeSet::new(), 0, 0);
        for trial in baseline_trials() {
            let path = trial.join(nab_protocol::EVENTS_FILE);
            let text = std::fs::read_to_string(&path).unwrap();
            let legacy: Vec<EventRow> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| legacy_row(&serde_json::from_str(l).unwrap()))
                .collect();
            let typed = load_events(&path);
            assert_eq!(typed.len(), legacy.len(), "{}", path.display());
            for (e, old) in typed.iter().zip(&legacy) {
                assert_ne!(e.kind, EventKind::Unknown, "{}", path.display());
                let new = EventRow::from_event(e);
                assert_eq!(
                    serde_json::to_string(&new).unwrap(),
                    serde_json::to_string(old).unwrap(),
                    "{}",
                    path.display()
                );
                kinds.insert(new.kind.clone());
                tool_ok +=
                    usize::from(new.kind == "tool_call" && new.status.as_deref() == Some("ok"));
                finished += usize::from(new.kind == "finish" && !new.detail.is_empty());
            }
        }
        // The baseline exercises both the special-cased kinds and the generic ones.
        for k in [
            "start",
            "model_call",
            "tool_call",
            "finish",
            "compaction",
            "mcp",
        ] {
            assert!(kinds.contains(k), "{kinds:?}");
        }
        assert!(tool_ok > 0 && finished > 0, "{tool_ok} {finished}");
    }

    #[test]
    fn tool_calls_take_status_and_duration_from_typed_events_and_finish_shows_its_reason() {
        let trial = baseline_trials().remove(0);
        let events = load_events(&trial.join(nab_protocol::EVENTS_FILE));
        let traj = Trajectory::load(&trial.join(nab_protocol::TRANSCRIPT_FILE), &events);
        assert_eq!(traj.source, "transcript");
        let calls: Vec<&ToolCallView> = traj.turns.iter().flat_map(|t| &t.tool_calls).collect();
        assert!(!calls.is_empty());
        for c in &calls {
            assert!(c.status.is_some() && c.duration_ms.is_some(), "{c:?}");
        }
        let rows: Vec<EventRow> = events.iter().map(EventRow::from_event).collect();
        let first_call = rows.iter().find(|r| r.kind == "tool_call").unwrap();
        assert!(
            first_call
                .detail
                .starts_with(&format!("{} ", calls[0].name)),
            "{first_call:?}"
        );
        let finish = rows.last().unwrap();
        assert_eq!(finish.kind, "finish");
        assert!(finish.detail.starts_with("final_answer"), "{finish:?}");
    }

    #[test]
    fn an_unknown_kind_is_shown_as_unknown_between_the_known_ones() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join(nab_protocol::EVENTS_FILE);
        std::fs::write(
            &path,
            concat!(
                r#"{"v":1,"ts":"t1","kind":"tool_call","step":1,"tool_call_id":"c","name":"read_file","args_summary":"path=a","status":"error","duration_ms":3}"#,
                "\n",
                r#"{"v":1,"ts":"t2","kind":"thought","step":1,"text":"hmm"}"#,
                "\n",
                r#"{"v":1,"ts":"t3","kind":"finish","exit_reason":"max_steps","steps":1,"message":"out of steps"}"#,
                "\n",
            ),
        )
        .unwrap();
        let rows: Vec<EventRow> = load_events(&path)
            .iter()
            .map(EventRow::from_event)
            .collect();
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert_eq!(
            (
                rows[0].kind.as_str(),
                rows[0].detail.as_str(),
                rows[0].status.as_deref()
            ),
            ("tool_call", "read_file path=a", Some("error"))
        );
        assert_eq!(
            (rows[1].kind.as_str(), rows[1].ts.as_str()),
            ("unknown", "t2")
        );
        assert!(rows[1].detail.contains("does not know"), "{:?}", rows[1]);
        assert_eq!(rows[2].detail, "max_steps: out of steps");
    }
}
