//! A compact, judge-sized summary of what the agent did: its tool calls (name, short
//! arguments, status), policy blocks, how it stopped, and its final answer.
//!
//! Built from the agent's `events.jsonl` ([`nab_protocol::events`]) and, for the final
//! answer, the gateway's `transcript.jsonl` (agents started with `command:` may write no
//! events at all; then the transcript is all there is).

use nab_protocol::TranscriptLine;
use nab_protocol::{Event, EventKind};
use serde::Serialize;

/// Tool calls kept at the start and at the end when a trajectory is long; the middle is
/// summarised as a count so the judge's context stays bounded.
const HEAD_CALLS: usize = 60;
const TAIL_CALLS: usize = 20;
const MAX_ARGS_CHARS: usize = 160;
const MAX_FINAL_CHARS: usize = 4_000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCallLine {
    pub step: u32,
    pub name: String,
    pub args: String,
    pub status: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TrajectorySummary {
    pub tool_calls: Vec<ToolCallLine>,
    pub policy_blocks: Vec<String>,
    pub exit_reason: Option<String>,
    pub steps: Option<u32>,
    pub final_answer: Option<String>,
}

impl TrajectorySummary {
    pub fn from_trial(events: &[Event], transcript: &[TranscriptLine]) -> TrajectorySummary {
        let mut s = TrajectorySummary::default();
        let mut finish_message = None;
        for e in events {
            match &e.kind {
                EventKind::ToolCall {
                    step,
                    name,
                    args_summary,
                    status,
                    ..
                } => s.tool_calls.push(ToolCallLine {
                    step: *step,
                    name: name.clone(),
                    args: cap(args_summary, MAX_ARGS_CHARS),
                    status: status.as_str().to_owned(),
                }),
                EventKind::PolicyBlock {
                    step,
                    command,
                    rule,
                    ..
                } => s.policy_blocks.push(format!(
                    "step {step}: blocked `{}` (rule {rule})",
                    cap(command, MAX_ARGS_CHARS)
                )),
                EventKind::Finish {
                    exit_reason,
                    steps,
                    message,
                } => {
                    s.exit_reason = Some(exit_reason.to_string());
                    s.steps = Some(*steps);
                    finish_message = message.clone();
                }
                // Not shown to a judge; a kind added to the protocol must be placed here.
                EventKind::Start { .. }
                | EventKind::ModelCall { .. }
                | EventKind::Diagnostics { .. }
                | EventKind::Compaction { .. }
                | EventKind::Mcp { .. }
                | EventKind::Unknown => {}
            }
        }
        s.final_answer = final_answer_from_transcript(transcript)
            .or(finish_message)
            .map(|a| cap(&a, MAX_FINAL_CHARS));
        s
    }

    /// The text shown to the judge.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let n = self.tool_calls.len();
        out.push_str(&format!("tool calls: {n}\n"));
        let line = |c: &ToolCallLine| {
            format!(
                "- step {}: {}({}) -> {}\n",
                c.step, c.name, c.args, c.status
            )
        };
        if n <= HEAD_CALLS + TAIL_CALLS {
            self.tool_calls.iter().for_each(|c| out.push_str(&line(c)));
        } else {
            self.tool_calls[..HEAD_CALLS]
                .iter()
                .for_each(|c| out.push_str(&line(c)));
            out.push_str(&format!(
                "- … {} more tool calls …\n",
                n - HEAD_CALLS - TAIL_CALLS
            ));
            self.tool_calls[n - TAIL_CALLS..]
                .iter()
                .for_each(|c| out.push_str(&line(c)));
        }
        for b in &self.policy_blocks {
            out.push_str(&format!("- {b}\n"));
        }
        match (&self.exit_reason, self.steps) {
            (Some(r), Some(steps)) => out.push_str(&format!("stopped: {r} after {steps} steps\n")),
            _ => out.push_str("stopped: unknown (no finish event)\n"),
        }
        match &self.final_answer {
            Some(a) => out.push_str(&format!("final answer:\n{a}\n")),
            None => out.push_str("final answer: (none)\n"),
        }
        out
    }
}

/// The content of the last assistant message that made no tool calls.
fn final_answer_from_transcript(lines: &[TranscriptLine]) -> Option<String> {
    lines.iter().rev().find_map(|l| {
        let msg = l
            .response
            .as_ref()?
            .get("choices")?
            .get(0)?
            .get("message")?;
        let has_calls = msg
            .get("tool_calls")
            .and_then(|c| c.as_array())
            .is_some_and(|c| !c.is_empty());
        if has_calls {
            return None;
        }
        msg.get("content")?
            .as_str()
            .map(str::to_owned)
            .filter(|c| !c.trim().is_empty())
    })
}

/// At most `max` characters, marking what was cut.
pub(crate) fn cap(s: &str, max: usize) -> String {
    let count = s.chars().count();
    if count <= max {
        return s.to_owned();
    }
    let kept: String = s.chars().take(max).collect();
    format!("{kept}… [{} more characters]", count - max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::{ExitReason, ToolStatus};

    fn ev(kind: EventKind) -> Event {
        Event {
            v: 1,
            ts: "t".into(),
            kind,
        }
    }

    #[test]
    fn summary_lists_calls_blocks_exit_and_final_answer_from_transcript() {
        let events = vec![
            ev(EventKind::ToolCall {
                step: 1,
                tool_call_id: "c1".into(),
                name: "read_file".into(),
                args_summary: "path=a.py".into(),
                status: ToolStatus::Ok,
                duration_ms: 3,
            }),
            ev(EventKind::PolicyBlock {
                step: 2,
                command: "rm -rf /".into(),
                rule: "rm-root".into(),
                reason: "x".into(),
            }),
            ev(EventKind::Finish {
                exit_reason: ExitReason::FinalAnswer,
                steps: 3,
                message: Some("from events".into()),
            }),
        ];
        let transcript: TranscriptLine = serde_json::from_value(serde_json::json!({
            "v":1,"ts":"t","seq":0,"provider":"p","stream":false,"request":{},"latency_ms":1,
            "response":{"choices":[{"message":{"role":"assistant","content":"Fixed the slice."}}]}
        }))
        .unwrap();
        let s = TrajectorySummary::from_trial(&events, &[transcript]);
        let text = s.render();
        assert!(
            text.contains("- step 1: read_file(path=a.py) -> ok"),
            "{text}"
        );
        assert!(text.contains("blocked `rm -rf /` (rule rm-root)"), "{text}");
        assert!(
            text.contains("stopped: final_answer after 3 steps"),
            "{text}"
        );
        assert_eq!(s.final_answer.as_deref(), Some("Fixed the slice."));
        // Without a transcript the finish event's message is used.
        assert_eq!(
            TrajectorySummary::from_trial(&events, &[])
                .final_answer
                .as_deref(),
            Some("from events")
        );
    }

    #[test]
    fn long_trajectories_keep_head_and_tail() {
        let events: Vec<Event> = (0..100)
            .map(|i| {
                ev(EventKind::ToolCall {
                    step: i,
                    tool_call_id: format!("c{i}"),
                    name: "list_dir".into(),
                    args_summary: String::new(),
                    status: ToolStatus::Ok,
                    duration_ms: 1,
                })
            })
            .collect();
        let text = TrajectorySummary::from_trial(&events, &[]).render();
        assert!(text.contains("- … 20 more tool calls …"), "{text}");
        assert!(
            text.contains("step 59:") && !text.contains("step 60:") && text.contains("step 80:"),
            "{text}"
        );
    }
}
