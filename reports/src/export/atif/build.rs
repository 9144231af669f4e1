//! One trial as one ATIF trajectory: the system prompt and the instruction (from the first
//! request), a step per model call (from the transcript, the gateway's record), each tool
//! call's result and status, token totals from the trial record (the gateway's counts, as
//! every nab report), and nab's verdict in `extra.nab`.

use super::events::{self, Events};
use super::read::Refused;
use super::schema::{ATIF_VERSION, Agent, Extra, FinalMetrics, Source, Step, Trajectory};
use super::transcript::{self, Calls};
use nab_protocol::{RunMeta, TrialDir, TrialRecord};
use serde_json::{Value, json};
use std::path::PathBuf;

/// A trajectory and the lines of the trial's files it left out.
#[derive(Debug)]
pub struct Built {
    pub trajectory: Trajectory,
    pub skipped: Vec<String>,
}

/// Why a trial has no trajectory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotBuilt {
    /// Neither a transcript nor events: nothing to build from (the oracle, the null agent,
    /// an infrastructure error before the agent ran).
    Nothing,
    /// A file of the trial was refused.
    Refused { path: PathBuf, message: String },
}

/// Builds the trajectory of `record`, whose files are in `dir`.
pub fn build(record: &TrialRecord, meta: &RunMeta, dir: &TrialDir) -> Result<Built, NotBuilt> {
    let refused = |path: PathBuf| move |Refused(message)| NotBuilt::Refused { path, message };
    let events = events::load(&dir.events()).map_err(refused(dir.events()))?;
    let calls = transcript::load(&dir.transcript(), &events.statuses())
        .map_err(refused(dir.transcript()))?;
    let mut steps = prompt_steps(&calls, &events);
    let from_transcript = !calls.steps.is_empty();
    if from_transcript {
        steps.extend(calls.steps.iter().map(|(_, s)| s.clone()));
    } else {
        steps.extend(events.steps());
    }
    if steps.is_empty() {
        return Err(NotBuilt::Nothing);
    }
    for (i, s) in steps.iter_mut().enumerate() {
        s.step_id = i as u64 + 1;
        mark_missing_results(s);
    }
    let mut skipped = events.skipped.clone();
    skipped.extend(calls.skipped.iter().cloned());
    let final_metrics = final_metrics(record, &steps);
    let trajectory = Trajectory {
        schema_version: ATIF_VERSION.to_owned(),
        session_id: session_id(record),
        trajectory_id: Some(session_id(record)),
        agent: agent(record, meta, &events, &steps),
        notes: Some(notes(from_transcript, &calls, &skipped)),
        final_metrics: Some(final_metrics),
        extra: Some(nab_extra(record, &events, &skipped)),
        steps,
    };
    Ok(Built {
        trajectory,
        skipped,
    })
}

/// `<run id>/<task>/<trial>`: unique per trial across runs.
fn session_id(r: &TrialRecord) -> String {
    let folder = r.trial_dir.clone().unwrap_or_else(|| r.trial.to_string());
    format!("{}/{}/{folder}", r.run_id, r.task_id)
}

/// The system prompt and the instruction, timed at the agent's start.
fn prompt_steps(calls: &Calls, events: &Events) -> Vec<Step> {
    let ts = events.started_at().and_then(super::time::timestamp);
    let mut out = Vec::new();
    for (source, text) in [
        (Source::System, &calls.system),
        (Source::User, &calls.instruction),
    ] {
        if let Some(t) = text {
            let mut s = Step::new(source, t.clone());
            s.timestamp = ts.clone();
            out.push(s);
        }
    }
    out
}

/// A call whose result never reached a later request (the agent stopped first) says so.
fn mark_missing_results(step: &mut Step) {
    for r in step.observation.iter_mut().flat_map(|o| &mut o.results) {
        if r.content.is_none() {
            r.extra = Some(object(json!({
                "missing": "the agent sent no request after this call, so its result is not in the transcript"
            })));
        }
    }
}

fn agent(r: &TrialRecord, meta: &RunMeta, events: &Events, steps: &[Step]) -> Agent {
    let build = meta
        .provenance
        .as_ref()
        .and_then(|p| p.agent_build.as_ref());
    let version = match build {
        Some(b) if r.agent == "nab-agent" => b.version.clone(),
        _ => meta.nab_version.clone().unwrap_or_else(|| "unknown".into()),
    };
    let model_name = steps
        .iter()
        .find_map(|s| s.model_name.clone())
        .or_else(|| events.model())
        .or_else(|| r.model.clone());
    let mut extra = Extra::new();
    if let Some(m) = &r.model {
        extra.insert("model_spec".into(), m.clone().into());
    }
    if let Some(b) = build.filter(|_| r.agent == "nab-agent") {
        extra.insert("sha256".into(), b.sha256.clone().into());
    }
    Agent {
        name: r.agent.clone(),
        version,
        model_name,
        extra: (!extra.is_empty()).then_some(extra),
    }
}

fn final_metrics(r: &TrialRecord, steps: &[Step]) -> FinalMetrics {
    let u = &r.usage;
    let mut extra = Extra::new();
    for (k, v) in [
        ("llm_calls", u.llm_calls),
        ("cache_write_tokens", u.cache_write_tokens),
        ("agent_steps", r.behaviour.steps),
        ("tool_calls", r.behaviour.tool_calls),
        ("tool_failures", r.behaviour.tool_failures),
        ("policy_blocks", r.behaviour.policy_blocks),
    ] {
        if let Some(v) = v {
            extra.insert(k.into(), v.into());
        }
    }
    FinalMetrics {
        total_prompt_tokens: u.input_tokens,
        total_completion_tokens: u.output_tokens,
        total_cached_tokens: u.cached_tokens,
        total_cost_usd: u.cost_usd,
        total_steps: Some(steps.len() as u64),
        extra: (!extra.is_empty()).then_some(extra),
    }
}

fn notes(from_transcript: bool, calls: &Calls, skipped: &[String]) -> String {
    let mut n = String::from(if from_transcript {
        "Written by nab from the trial's gateway transcript (one agent step per model call; \
         tool results as the agent sent them back to the model) and the agent's events \
         (each call's status and duration). final_metrics are the gateway's counts for the \
         whole trial; extra.nab holds nab's trial record (verdict, tests, timings)."
    } else {
        "Written by nab from the agent's events alone (no model exchange went through the \
         gateway): tool calls carry the agent's summary of their arguments, not the \
         arguments, and no results. extra.nab holds nab's trial record."
    });
    if calls.unanswered_calls > 0 {
        n.push_str(&format!(
            " {} tool call(s) have no result: the agent made no request after them.",
            calls.unanswered_calls
        ));
    }
    if !skipped.is_empty() {
        n.push_str(&format!(
            " {} unreadable line(s) of the trial's files were left out (extra.nab.skipped).",
            skipped.len()
        ));
    }
    n
}

/// nab's view of the trial: its record (verdict, failure reason, tests, timings, judges),
/// the commands the agent's policy blocked, why the agent stopped, and what was skipped.
fn nab_extra(r: &TrialRecord, events: &Events, skipped: &[String]) -> Extra {
    let mut nab = Extra::new();
    nab.insert(
        "record".into(),
        serde_json::to_value(r).unwrap_or(Value::Null),
    );
    nab.insert("policy_blocks".into(), events.policy_blocks().into());
    if let Some(f) = events.finish() {
        nab.insert("finish".into(), f);
    }
    if !skipped.is_empty() {
        nab.insert("skipped".into(), json!(skipped));
    }
    object(json!({ "nab": nab }))
}

fn object(v: Value) -> Extra {
    match v {
        Value::Object(m) => m,
        _ => Extra::new(),
    }
}
