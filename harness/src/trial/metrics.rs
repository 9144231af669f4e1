//! A trial's model metrics. Tokens and model calls come from the gateway transcript, which
//! the agent cannot touch; steps, tool calls and policy blocks come from the agent's own
//! events; the exit reason comes from the events and is cross-checked with the transcript.

use nab_protocol::TranscriptLine;
use nab_protocol::TrialRecord;
use nab_protocol::{CompactionTier, Event, EventKind, ToolStatus};

/// What a trial with a model adds to its record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelMetrics {
    pub model: String,
    pub llm_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cached_tokens: u64,
    /// Of the input tokens, those written to the provider's prompt cache.
    pub cache_write_tokens: u64,
    /// The tokens above priced by the run's `--prices` ([`crate::trial::cost`]); `None` without a
    /// price for the model.
    pub cost_usd: Option<f64>,
    /// Absent when the agent wrote no events.
    pub steps: Option<u64>,
    pub tool_calls: Option<u64>,
    pub tool_failures: Option<u64>,
    pub tool_failure_rate: Option<f64>,
    pub policy_blocks: Option<u64>,
    pub agent_exit_reason: Option<String>,
    pub budget_exceeded: bool,
    /// Requests the gateway refused (see `TrialRecord::refused_requests`).
    pub refused_requests: u64,
    /// Why the exit reason differs from what the agent's events said, if it does.
    pub exit_reason_note: Option<String>,
    /// Why the trial shows no compaction that the task's `agent.requires_compaction` asks
    /// for ([`missing_compaction`]); `None` when it shows one or the task asks none.
    pub missing_compaction: Option<String>,
    /// The agent's events claim a compaction (of any tier, succeeded or not): such a claim
    /// is checked against the gateway whatever the agent.
    pub claims_compaction: bool,
    /// Set when the agent stopped because the model provider failed (see
    /// [`provider_failure`]): the trial is an infrastructure error, not the agent's failure.
    pub provider_failure: Option<String>,
    /// Set when a replayed call found no recording: the gateway's message, naming the
    /// first difference. The trial is an infrastructure error (`replay_miss`): the agent's
    /// requests changed and the cassette must be recorded again.
    pub replay_miss: Option<String>,
    /// Calls answered from the cassette after normalization (see `TrialRecord::replay_drift`).
    pub replay_drift: Vec<String>,
    /// What the provider answered the trial's calls: a 401/403/404, or 400s with no answer,
    /// are the run's configuration (see [`crate::trial::provider_answers`]).
    pub provider: crate::trial::provider_answers::ProviderAnswers,
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
    /// The gateway's token counts of the trial, as one usage.
    pub fn usage(&self) -> nab_protocol::Usage {
        nab_protocol::Usage {
            prompt_tokens: self.input_tokens,
            completion_tokens: self.output_tokens,
            cached_tokens: self.cached_tokens,
            cache_write_tokens: self.cache_write_tokens,
        }
    }

    /// Computes everything from the transcript and the events. `timed_out`: the harness
    /// killed the agent at its deadline.
    pub fn compute(
        model: &str,
        transcript: &[TranscriptLine],
        events: &[Event],
        timed_out: bool,
    ) -> ModelMetrics {
        let t = nab_gateway::TranscriptMetrics::from_lines(transcript);
        let mut m = ModelMetrics {
            model: model.to_owned(),
            llm_calls: t.llm_calls,
            input_tokens: t.input_tokens,
            output_tokens: t.output_tokens,
            cached_tokens: t.cached_tokens,
            cache_write_tokens: t.cache_write_tokens,
            budget_exceeded: t.budget_exceeded.is_some(),
            refused_requests: t.refused_requests,
            ..Default::default()
        };
        if !events.is_empty() {
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
            m.steps = Some(finish.map_or(max_step, |(_, s)| s));
            m.tool_calls = Some(calls);
            m.tool_failures = Some(failures);
            m.tool_failure_rate = Some(if calls == 0 {
                0.0
            } else {
                failures as f64 / calls as f64
            });
            m.policy_blocks = Some(blocks);
            m.agent_exit_reason = finish.map(|(r, _)| r.as_str().to_owned());
        }
        // The gateway's refusal is what stopped the agent, whatever its events say.
        let refused = t.budget_exceeded.as_deref().map(|b| match b {
            "tokens" => "token_budget",
            "llm_calls" => "call_budget",
            "usd" => "cost_budget",
            other => other,
        });
        match (refused, m.agent_exit_reason.as_deref()) {
            (Some(r), Some(e)) if r != e => {
                m.exit_reason_note = Some(format!(
                    "the agent's events say `{e}` but the gateway refused a call ({r}); recorded `{r}`"
                ));
                m.agent_exit_reason = Some(r.to_owned());
            }
            (Some(r), None) => m.agent_exit_reason = Some(r.to_owned()),
            (None, Some(e @ ("token_budget" | "call_budget" | "cost_budget"))) => {
                m.exit_reason_note = Some(format!(
                    "the agent's events say `{e}` but the gateway refused no call"
                ));
            }
            _ => {}
        }
        if m.agent_exit_reason.is_none() && timed_out {
            m.agent_exit_reason = Some("timeout".into());
        }
        m.provider_failure = provider_failure(transcript, m.agent_exit_reason.as_deref());
        m.provider = crate::trial::provider_answers::ProviderAnswers::of(transcript);
        m.replay_miss = transcript
            .iter()
            .filter(|l| l.error_code.as_deref() == Some("replay_miss"))
            .min_by_key(|l| l.seq)
            .map(|l| l.error.clone().unwrap_or_else(|| "replay miss".into()));
        let mut drifted: Vec<&TranscriptLine> = transcript
            .iter()
            .filter(|l| l.replay_drift.is_some())
            .collect();
        drifted.sort_by_key(|l| l.seq);
        m.replay_drift = drifted
            .iter()
            .map(|l| {
                format!(
                    "call {}: {}",
                    l.seq,
                    l.replay_drift.as_deref().unwrap_or("")
                )
            })
            .collect();
        m
    }

    /// Copies the metrics into a trial record.
    pub fn apply(&self, rec: &mut TrialRecord) {
        rec.model = Some(self.model.clone());
        rec.llm_calls = Some(self.llm_calls);
        rec.input_tokens = Some(self.input_tokens);
        rec.output_tokens = Some(self.output_tokens);
        rec.cached_tokens = Some(self.cached_tokens);
        // Kept apart from cache reads, and only where there were some (most providers
        // never write to a cache).
        rec.cache_write_tokens = (self.cache_write_tokens > 0).then_some(self.cache_write_tokens);
        rec.cost_usd = self.cost_usd;
        rec.steps = self.steps;
        rec.tool_calls = self.tool_calls;
        rec.tool_failures = self.tool_failures;
        rec.tool_failure_rate = self.tool_failure_rate;
        rec.policy_blocks = self.policy_blocks;
        rec.agent_exit_reason = self.agent_exit_reason.clone();
        rec.budget_exceeded = Some(self.budget_exceeded);
        rec.refused_requests = Some(self.refused_requests);
        rec.replay_drift = self.replay_drift.clone();
    }
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
        assert_eq!(
            (
                m.llm_calls,
                m.input_tokens,
                m.output_tokens,
                m.cached_tokens
            ),
            (2, 200, 20, 80)
        );
        // Cache writes are summed apart from the reads and reach the record.
        assert_eq!(m.cache_write_tokens, 20);
        let mut rec = TrialRecord::new("r", "t", "c", 0, "a");
        m.apply(&mut rec);
        assert_eq!(
            (rec.cached_tokens, rec.cache_write_tokens),
            (Some(80), Some(20))
        );
        assert_eq!(m.steps, Some(3));
        assert_eq!(
            (m.tool_calls, m.tool_failures, m.policy_blocks),
            (Some(3), Some(2), Some(1))
        );
        assert!((m.tool_failure_rate.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(m.agent_exit_reason.as_deref(), Some("final_answer"));
        assert!(!m.budget_exceeded && m.exit_reason_note.is_none());
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
        assert_eq!(m.agent_exit_reason.as_deref(), Some("token_budget"));
        assert!(m.budget_exceeded);
        assert!(m.exit_reason_note.unwrap().contains("`error`"));
        assert_eq!(m.llm_calls, 1, "a refused call is not a model call");
        // No events at all (a command agent): the refusal still gives the reason.
        let m = ModelMetrics::compute("m", &transcript, &[], false);
        assert_eq!(m.agent_exit_reason.as_deref(), Some("token_budget"));
        assert_eq!(m.steps, None);
        let m = ModelMetrics::compute("m", &[line(0, &[], None, Some("llm_calls"))], &[], false);
        assert_eq!(m.agent_exit_reason.as_deref(), Some("call_budget"));
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
            m.replay_drift,
            vec![
                "call 1: messages[3].content: `in 0.001s` → `in 0.000s`".to_string(),
                "call 2: messages[5].content: `in 0.002s` → `in 0.001s`".to_string(),
            ]
        );
        assert!(
            m.provider_failure.is_none(),
            "a miss is not a provider fault"
        );
        let mut rec = TrialRecord::new("r", "t", "bug-fix", 0, "nab-agent");
        m.apply(&mut rec);
        assert_eq!(rec.replay_drift, m.replay_drift);
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
