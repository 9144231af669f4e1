//! A trial's model metrics. Tokens and model calls come from the gateway transcript, which
//! the agent cannot touch; steps, tool calls and policy blocks come from the agent's own
//! events; the exit reason comes from the events and is cross-checked with the transcript.

use nab_gateway::TranscriptMetrics;
use nab_protocol::TranscriptLine;
use nab_protocol::{AgentBehaviour, ModelUsage};
use nab_protocol::{CompactionTier, Event, EventKind, ToolStatus};

/// What a trial with a model found in its gateway's transcript and its agent's events: two
/// parts of its record, and what the trial itself acts on.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ModelMetrics {
    /// The model's spec, the record's `model`.
    pub(crate) model: String,
    /// Calls and tokens from the transcript; `cost_usd` is set by the trial, which knows
    /// the price ([`crate::trial::cost`]).
    pub(crate) usage: ModelUsage,
    /// Steps and tools from the events, the exit reason checked against the transcript;
    /// `violations` is left to the trial's requirements.
    pub(crate) behaviour: AgentBehaviour,
    /// Why the exit reason differs from what the agent's events said, if it does.
    pub(crate) exit_reason_note: Option<String>,
    /// Why the trial shows no compaction that the task's `agent.requires_compaction` asks
    /// for ([`missing_compaction`]); `None` when it shows one or the task asks none.
    pub(crate) missing_compaction: Option<String>,
    /// The agent's events claim a compaction (of any tier, succeeded or not): such a claim
    /// is checked against the gateway whatever the agent.
    pub(crate) claims_compaction: bool,
    /// Set when the agent stopped because the model provider failed (see
    /// [`provider_failure`]): the trial is an infrastructure error, not the agent's failure.
    pub(crate) provider_failure: Option<String>,
    /// Set when a replayed call found no recording: the gateway's message, naming the
    /// first difference. The trial is an infrastructure error (`replay_miss`): the agent's
    /// requests changed and the cassette must be recorded again.
    pub(crate) replay_miss: Option<String>,
    /// What the provider answered the trial's calls: a 401/403/404, or 400s with no answer,
    /// are the run's configuration (see [`crate::trial::provider_answers`]).
    pub(crate) provider: crate::trial::provider_answers::ProviderAnswers,
}

/// The gateway's `error_code`s that mean the provider itself failed after the gateway's
/// retries (a rejected request, a budget refusal, a replay miss or the agent hanging up are
/// not among them).
pub(crate) const PROVIDER_FAULT_CODES: &[&str] = &[
    "provider_http_error",
    "provider_unreachable",
    "idle_timeout",
    "stream_truncated",
    "provider_stream_error",
    "invalid_provider_response",
];

/// Why the trial is an infrastructure error, when the agent stopped on a provider failure:
/// its last model call (the transcript line with the highest `seq`) failed with one of
/// [`PROVIDER_FAULT_CODES`] and the agent ended with `error` (or wrote no end at all). The
/// message names the provider. An agent that recovered (a later call succeeded) or that
/// ended for its own reasons is judged on its work as usual.
pub(crate) fn provider_failure(
    transcript: &[TranscriptLine],
    agent_exit_reason: Option<&str>,
) -> Option<String> {
    if !matches!(agent_exit_reason, None | Some("error")) {
        return None;
    }
    let last = transcript.iter().max_by_key(|l| l.seq)?;
    let code = last.error_code.as_deref()?;
    if !PROVIDER_FAULT_CODES.contains(&code) {
        return None;
    }
    Some(format!(
        "the model provider {} failed ({code}) after {} retries, and the agent stopped on it: {}",
        last.provider,
        last.retries,
        last.error.as_deref().unwrap_or("no message")
    ))
}

impl ModelMetrics {
    /// Computes everything from the transcript and the events. `timed_out`: the harness
    /// killed the agent at its deadline.
    pub(crate) fn compute(
        model: &str,
        transcript: &[TranscriptLine],
        events: &[Event],
        timed_out: bool,
    ) -> ModelMetrics {
        let t = TranscriptMetrics::from_lines(transcript);
        // No events at all (a command agent): nothing is known of its steps and tools.
        let mut behaviour = if events.is_empty() {
            AgentBehaviour::default()
        } else {
            from_events(events)
        };
        let exit_reason_note = settle_exit_reason(
            &mut behaviour.agent_exit_reason,
            t.budget_exceeded.as_deref(),
            timed_out,
        );
        behaviour.budget_exceeded = Some(t.budget_exceeded.is_some());
        behaviour.refused_requests = Some(t.refused_requests);
        behaviour.replay_drift = replay_drift(transcript);
        ModelMetrics {
            model: model.to_owned(),
            usage: usage(&t),
            provider_failure: provider_failure(transcript, behaviour.agent_exit_reason.as_deref()),
            provider: crate::trial::provider_answers::ProviderAnswers::of(transcript),
            replay_miss: replay_miss(transcript),
            behaviour,
            exit_reason_note,
            missing_compaction: None,
            claims_compaction: false,
        }
    }
}

impl ModelMetrics {
    /// For an agent that writes no events (a declared agent): each step of its loop is one
    /// model call, so its steps are the calls the gateway served, a count it cannot forge.
    /// Events it wrote to /nab/out/events.jsonl after all keep their own count.
    pub(crate) fn steps_from_model_calls(&mut self) {
        if self.behaviour.steps.is_none() {
            self.behaviour.steps = self.usage.llm_calls;
        }
    }
}

/// The gateway's counts, as the record has them: cache writes only where there were some
/// (most providers never write to a cache). Not priced yet.
fn usage(t: &TranscriptMetrics) -> ModelUsage {
    ModelUsage {
        llm_calls: Some(t.llm_calls),
        input_tokens: Some(t.input_tokens),
        output_tokens: Some(t.output_tokens),
        cached_tokens: Some(t.cached_tokens),
        cache_write_tokens: (t.cache_write_tokens > 0).then_some(t.cache_write_tokens),
        cost_usd: None,
    }
}

/// Steps, tool calls, policy blocks and the exit reason the agent's events claim.
fn from_events(events: &[Event]) -> AgentBehaviour {
    let (mut calls, mut failures, mut blocks, mut max_step) = (0u64, 0u64, 0u64, 0u64);
    let mut finish = None;
    for e in events {
        match &e.kind {
            EventKind::ToolCall { status, step, .. } => {
                calls += 1;
                if *status != ToolStatus::Ok {
                    failures += 1;
                }
                max_step = max_step.max(u64::from(*step));
            }
            EventKind::PolicyBlock { .. } => blocks += 1,
            EventKind::ModelCall { step, .. } => max_step = max_step.max(u64::from(*step)),
            EventKind::Finish {
                exit_reason, steps, ..
            } => finish = Some((*exit_reason, u64::from(*steps))),
            // Counted elsewhere (compactions from the trial's own check) or not
            // counted; a kind added to the protocol must be placed here.
            EventKind::Start { .. }
            | EventKind::Diagnostics { .. }
            | EventKind::Compaction { .. }
            | EventKind::Mcp { .. }
            | EventKind::Unknown => {}
        }
    }
    AgentBehaviour {
        steps: Some(finish.map_or(max_step, |(_, s)| s)),
        tool_calls: Some(calls),
        tool_failures: Some(failures),
        tool_failure_rate: Some(if calls == 0 {
            0.0
        } else {
            failures as f64 / calls as f64
        }),
        policy_blocks: Some(blocks),
        agent_exit_reason: finish.map(|(r, _)| r.as_str().to_owned()),
        ..AgentBehaviour::default()
    }
}

/// Settles the exit reason: the gateway's budget refusal (`budget`, its resource) is what
/// stopped the agent, whatever its events say; an agent killed at its deadline with no
/// reason of its own `timeout`. Returns why the reason differs from the events', if it does.
fn settle_exit_reason(
    reason: &mut Option<String>,
    budget: Option<&str>,
    timed_out: bool,
) -> Option<String> {
    let refused = budget.map(|b| match b {
        "tokens" => "token_budget",
        "llm_calls" => "call_budget",
        "usd" => "cost_budget",
        other => other,
    });
    let mut note = None;
    match (refused, reason.as_deref()) {
        (Some(r), Some(e)) if r != e => {
            note = Some(format!(
                "the agent's events say `{e}` but the gateway refused a call ({r}); recorded `{r}`"
            ));
            *reason = Some(r.to_owned());
        }
        (Some(r), None) => *reason = Some(r.to_owned()),
        (None, Some(e @ ("token_budget" | "call_budget" | "cost_budget"))) => {
            note = Some(format!(
                "the agent's events say `{e}` but the gateway refused no call"
            ));
        }
        _ => {}
    }
    if reason.is_none() && timed_out {
        *reason = Some("timeout".into());
    }
    note
}

/// The gateway's message for the first replayed call that found no recording.
fn replay_miss(transcript: &[TranscriptLine]) -> Option<String> {
    transcript
        .iter()
        .filter(|l| l.error_code.as_deref() == Some("replay_miss"))
        .min_by_key(|l| l.seq)
        .map(|l| l.error.clone().unwrap_or_else(|| "replay miss".into()))
}

/// The calls answered from the cassette only after normalization, in call order.
fn replay_drift(transcript: &[TranscriptLine]) -> Vec<String> {
    let mut drifted: Vec<&TranscriptLine> = transcript
        .iter()
        .filter(|l| l.replay_drift.is_some())
        .collect();
    drifted.sort_by_key(|l| l.seq);
    drifted
        .iter()
        .map(|l| {
            format!(
                "call {}: {}",
                l.seq,
                l.replay_drift.as_deref().unwrap_or("")
            )
        })
        .collect()
}

/// Checks a task's `agent.requires_compaction`: the agent's events must show a compaction
/// that succeeded, of the `required` tier or a more drastic one (`offload < clear <
/// summarize`). The gateway cannot see an offload or a clear, so those are taken from the
/// events; a `summarize` event is the agent's claim that it had the model write a summary,
/// which the gateway can check: such events count only up to the number of summarization
/// requests the gateway answered (`answered_summary_requests`, from
/// `nab_protocol::answered_summary_requests`), so a forged event without its
/// request counts for nothing. Returns the violation when nothing counts.
pub(crate) fn missing_compaction(
    required: CompactionTier,
    events: &[Event],
    answered_summary_requests: usize,
) -> Option<String> {
    let (mut summaries, mut others) = (0usize, 0usize);
    for e in events {
        if let EventKind::Compaction {
            tier,
            succeeded: true,
            ..
        } = &e.kind
            && *tier >= required
        {
            match tier {
                CompactionTier::Summarize => summaries += 1,
                _ => others += 1,
            }
        }
    }
    if others + summaries.min(answered_summary_requests) > 0 {
        return None;
    }
    let want = match required {
        CompactionTier::Summarize => "a `summarize` compaction".to_owned(),
        t => format!(
            "a context compaction (`{}` or a more drastic tier)",
            t.as_str()
        ),
    };
    Some(if summaries > 0 {
        format!(
            "the task requires {want}: the agent's events claim {summaries} `summarize` compaction(s), but the gateway answered no summarization request, so none counts"
        )
    } else {
        format!("the task requires {want}, but the agent's events show none that succeeded")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::ExitReason;
    use nab_protocol::Usage;
    use serde_json::json;

    fn line(
        seq: u64,
        tools: &[&str],
        usage: Option<Usage>,
        budget: Option<&str>,
    ) -> TranscriptLine {
        let calls: Vec<_> = tools
            .iter()
            .map(|n| json!({"id": "c", "type": "function", "function": {"name": n, "arguments": "{}"}}))
            .collect();
        TranscriptLine {
            v: 1,
            ts: "t".into(),
            seq,
            provider: "scripted:x".into(),
            stream: true,
            api: None,
            request: json!({}),
            response: budget.is_none().then(|| {
                json!({"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": calls}}]})
            }),
            usage,
            latency_ms: 1,
            status: budget.is_none().then_some(200),
            retries: 0,
            error: None,
            error_code: None,
            budget_exceeded: budget.map(str::to_owned),
            replay_drift: None,
            refused: None,
        }
    }

    fn ev(kind: EventKind) -> Event {
        Event::now(kind)
    }

    fn tool(step: u32, status: ToolStatus) -> Event {
        ev(EventKind::ToolCall {
            step,
            tool_call_id: "c".into(),
            name: "read_file".into(),
            args_summary: String::new(),
            status,
            duration_ms: 1,
        })
    }

    #[test]
    fn tokens_come_from_the_transcript_and_tools_from_the_events() {
        let u = Usage {
            prompt_tokens: 100,
            completion_tokens: 10,
            cached_tokens: 40,
            cache_write_tokens: 10,
        };
        let transcript = vec![
            line(0, &["read_file"], Some(u), None),
            line(1, &[], Some(u), None),
        ];
        let events = vec![
            // A fake usage claim must not matter.
            ev(EventKind::ModelCall {
                step: 1,
                usage: Usage {
                    prompt_tokens: 9_999_999,
                    completion_tokens: 1,
                    cached_tokens: 0,
                    cache_write_tokens: 0,
                },
                latency_ms: 1,
                finish_reason: None,
            }),
            tool(1, ToolStatus::Ok),
            tool(1, ToolStatus::Error),
            tool(2, ToolStatus::Blocked),
            ev(EventKind::PolicyBlock {
                step: 2,
                command: "rm -rf /".into(),
                rule: "r".into(),
                reason: "x".into(),
            }),
            ev(EventKind::Finish {
                exit_reason: ExitReason::FinalAnswer,
                steps: 3,
                message: None,
            }),
        ];
        let m = ModelMetrics::compute("scripted:task", &transcript, &events, false);
        let u = &m.usage;
        assert_eq!(
            (
                u.llm_calls,
                u.input_tokens,
                u.output_tokens,
                u.cached_tokens
            ),
            (Some(2), Some(200), Some(20), Some(80))
        );
        // Cache writes are summed apart from the reads; not priced here.
        assert_eq!((u.cache_write_tokens, u.cost_usd), (Some(20), None));
        let b = &m.behaviour;
        assert_eq!(b.steps, Some(3));
        assert_eq!(
            (b.tool_calls, b.tool_failures, b.policy_blocks),
            (Some(3), Some(2), Some(1))
        );
        assert!((b.tool_failure_rate.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(b.agent_exit_reason.as_deref(), Some("final_answer"));
        assert_eq!(b.budget_exceeded, Some(false));
        assert!(m.exit_reason_note.is_none());
    }

    #[test]
    fn a_budget_refusal_in_the_transcript_overrides_the_events() {
        let transcript = vec![line(0, &[], None, None), line(1, &[], None, Some("tokens"))];
        let events = vec![ev(EventKind::Finish {
            exit_reason: ExitReason::Error,
            steps: 1,
            message: None,
        })];
        let m = ModelMetrics::compute("m", &transcript, &events, false);
        assert_eq!(
            m.behaviour.agent_exit_reason.as_deref(),
            Some("token_budget")
        );
        assert_eq!(m.behaviour.budget_exceeded, Some(true));
        assert!(m.exit_reason_note.unwrap().contains("`error`"));
        assert_eq!(
            m.usage.llm_calls,
            Some(1),
            "a refused call is not a model call"
        );
        // No cache writes: none recorded.
        assert_eq!(m.usage.cache_write_tokens, None);
        // No events at all (a command agent): the refusal still gives the reason.
        let m = ModelMetrics::compute("m", &transcript, &[], false);
        assert_eq!(
            m.behaviour.agent_exit_reason.as_deref(),
            Some("token_budget")
        );
        assert_eq!(m.behaviour.steps, None);
        // A declared agent writes no events: its steps are the gateway's model calls.
        let mut m = m;
        m.steps_from_model_calls();
        assert_eq!(m.behaviour.steps, Some(1));
        let m = ModelMetrics::compute("m", &[line(0, &[], None, Some("llm_calls"))], &[], false);
        assert_eq!(
            m.behaviour.agent_exit_reason.as_deref(),
            Some("call_budget")
        );
    }

    #[test]
    fn an_agent_stopped_by_a_provider_fault_is_an_infrastructure_error() {
        let fault = |seq: u64, code: &str| TranscriptLine {
            error: Some(format!("boom {code}")),
            error_code: Some(code.to_owned()),
            response: None,
            status: None,
            retries: 3,
            ..line(seq, &[], None, None)
        };
        let ended = |r: ExitReason| {
            vec![ev(EventKind::Finish {
                exit_reason: r,
                steps: 1,
                message: None,
            })]
        };
        // (transcript, agent's end, provider failure expected)
        let table: Vec<(Vec<TranscriptLine>, Vec<Event>, bool)> = vec![
            (
                vec![line(0, &[], None, None), fault(1, "stream_truncated")],
                ended(ExitReason::Error),
                true,
            ),
            (vec![fault(0, "provider_unreachable")], vec![], true),
            (
                vec![fault(0, "provider_http_error")],
                ended(ExitReason::Error),
                true,
            ),
            (
                vec![fault(0, "idle_timeout")],
                ended(ExitReason::Error),
                true,
            ),
            // Recovered: a later call answered.
            (
                vec![fault(0, "stream_truncated"), line(1, &[], None, None)],
                ended(ExitReason::Error),
                false,
            ),
            // The agent's own end.
            (
                vec![fault(0, "stream_truncated")],
                ended(ExitReason::Stagnation),
                false,
            ),
            // Not the provider's fault.
            (
                vec![fault(0, "provider_rejected")],
                ended(ExitReason::Error),
                false,
            ),
            (
                vec![fault(0, "agent_disconnected")],
                ended(ExitReason::Error),
                false,
            ),
            (
                vec![fault(0, "replay_miss")],
                ended(ExitReason::Error),
                false,
            ),
            (vec![], ended(ExitReason::Error), false),
        ];
        for (i, (transcript, events, want)) in table.into_iter().enumerate() {
            let m = ModelMetrics::compute("openai:m@http://h/v1", &transcript, &events, false);
            assert_eq!(
                m.provider_failure.is_some(),
                want,
                "row {i}: {:?}",
                m.provider_failure
            );
            if let Some(msg) = m.provider_failure {
                assert!(
                    msg.contains("scripted:x") && msg.contains("after 3 retries"),
                    "{msg}"
                );
            }
        }
    }

    #[test]
    fn replay_misses_and_drift_come_from_the_transcript() {
        let drifted = |seq: u64, what: &str| TranscriptLine {
            replay_drift: Some(what.to_owned()),
            ..line(seq, &[], None, None)
        };
        let miss = TranscriptLine {
            error: Some("replay miss: first difference at `messages[0].content`".into()),
            error_code: Some("replay_miss".into()),
            response: None,
            ..line(3, &[], None, None)
        };
        let transcript = vec![
            drifted(2, "messages[5].content: `in 0.002s` → `in 0.001s`"),
            line(0, &[], None, None),
            drifted(1, "messages[3].content: `in 0.001s` → `in 0.000s`"),
            miss,
        ];
        let m = ModelMetrics::compute("replay:c", &transcript, &[], false);
        assert_eq!(
            m.replay_miss.as_deref(),
            Some("replay miss: first difference at `messages[0].content`")
        );
        assert_eq!(
            m.behaviour.replay_drift,
            vec![
                "call 1: messages[3].content: `in 0.001s` → `in 0.000s`".to_string(),
                "call 2: messages[5].content: `in 0.002s` → `in 0.001s`".to_string(),
            ]
        );
        assert!(
            m.provider_failure.is_none(),
            "a miss is not a provider fault"
        );
    }

    fn compaction(tier: CompactionTier, succeeded: bool) -> Event {
        ev(EventKind::Compaction {
            step: 3,
            tier,
            tokens_before: 9000,
            tokens_after: 3000,
            messages_before: 20,
            messages_after: 6,
            succeeded,
            detail: None,
        })
    }

    #[test]
    fn a_required_compaction_must_show_in_the_events_and_a_summary_in_the_transcript() {
        use CompactionTier::{Clear, Offload, Summarize};
        let work = || tool(1, ToolStatus::Ok);
        // (required tier, events, answered summary requests, satisfied)
        let table: Vec<(CompactionTier, Vec<Event>, usize, bool)> = vec![
            (
                Summarize,
                vec![work(), compaction(Summarize, true)],
                1,
                true,
            ),
            // A summarize event the gateway never saw a request for: forged.
            (
                Summarize,
                vec![work(), compaction(Summarize, true)],
                0,
                false,
            ),
            // A summary request without a successful compaction event.
            (Summarize, vec![compaction(Summarize, false)], 2, false),
            (Summarize, vec![work()], 3, false),
            (Summarize, vec![], 0, false),
            // Less drastic tiers do not satisfy a more drastic requirement.
            (
                Summarize,
                vec![compaction(Offload, true), compaction(Clear, true)],
                0,
                false,
            ),
            (Clear, vec![compaction(Offload, true)], 0, false),
            // A more drastic tier satisfies a less drastic one.
            (Clear, vec![compaction(Clear, true)], 0, true),
            (Offload, vec![compaction(Summarize, true)], 1, true),
            (Offload, vec![compaction(Summarize, true)], 0, false),
            (Offload, vec![compaction(Offload, false)], 0, false),
        ];
        for (i, (required, events, answered, ok)) in table.into_iter().enumerate() {
            let got = missing_compaction(required, &events, answered);
            assert_eq!(got.is_none(), ok, "row {i}: {got:?}");
        }
        let forged = missing_compaction(Summarize, &[compaction(Summarize, true)], 0).unwrap();
        assert!(
            forged.contains("claim 1 `summarize`") && forged.contains("no summarization request"),
            "{forged}"
        );
        let none = missing_compaction(Clear, &[], 0).unwrap();
        assert!(
            none.contains("`clear` or a more drastic tier") && none.contains("show none"),
            "{none}"
        );
    }
}
