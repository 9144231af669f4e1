//! Runs one model turn's tool calls.
//!
//! Consecutive read-only calls run concurrently (at most [`MAX_PARALLEL`] at a time);
//! a mutating call runs alone, after everything before it and before everything after it,
//! so the model's order of effects holds. The whole batch shares one deadline; a call cut
//! off by it is reported as timed out while the others keep their results. Results come
//! back in call order, each with its `tool_call_id`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::Value;

use crate::message::ToolCall;
use crate::tools::{ToolContext, ToolHandler, ToolNote, ToolOutput, ToolRegistry};

pub const MAX_PARALLEL: usize = 4;
pub const BATCH_LIMIT: Duration = Duration::from_secs(90);

/// The outcome of one call, in the batch's order.
#[derive(Debug, Clone)]
pub struct CallResult {
    pub tool_call_id: String,
    pub name: String,
    pub args_summary: String,
    pub output: ToolOutput,
    pub duration: Duration,
}

pub struct Executor {
    registry: Arc<ToolRegistry>,
    ctx: Arc<ToolContext>,
    pub batch_limit: Duration,
    pub max_parallel: usize,
}

enum Prepared {
    /// Answered without running anything (unknown tool, bad JSON).
    Done(ToolOutput),
    Run(Arc<dyn ToolHandler>, Value),
}

impl Executor {
    pub fn new(registry: Arc<ToolRegistry>, ctx: Arc<ToolContext>) -> Executor {
        Executor {
            registry,
            ctx,
            batch_limit: BATCH_LIMIT,
            max_parallel: MAX_PARALLEL,
        }
    }

    pub async fn run_batch(&self, calls: &[ToolCall]) -> Vec<CallResult> {
        let deadline = tokio::time::Instant::now() + self.batch_limit;
        let prepared: Vec<Prepared> = calls.iter().map(|c| self.prepare(c)).collect();

        // Group: a run of read-only calls, or a single mutating call.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, p) in prepared.iter().enumerate() {
            let mutating = matches!(p, Prepared::Run(t, _) if t.is_mutating());
            match groups.last_mut() {
                Some(g) if !mutating && !g.iter().any(|&j| is_mutating(&prepared[j])) => g.push(i),
                _ => groups.push(vec![i]),
            }
        }

        let mut results: Vec<Option<(ToolOutput, Duration)>> = vec![None; calls.len()];
        let ctx = &self.ctx;
        for group in groups {
            let outs: Vec<(usize, ToolOutput, Duration)> = futures::stream::iter(group)
                .map(|i| {
                    let p = &prepared[i];
                    let name = calls[i].function.name.clone();
                    async move {
                        let started = Instant::now();
                        let out = match p {
                            Prepared::Done(out) => out.clone(),
                            Prepared::Run(tool, args) => {
                                match tokio::time::timeout_at(deadline, tool.call(ctx, args.clone())).await {
                                    Ok(out) => out,
                                    Err(_) => ToolOutput::timeout(format!(
                                        "`{name}` did not finish before this turn's {} s limit for all tool calls and was cancelled",
                                        self.batch_limit.as_secs()
                                    )),
                                }
                            }
                        };
                        (i, out, started.elapsed())
                    }
                })
                .buffered(self.max_parallel.max(1))
                .collect()
                .await;
            for (i, out, d) in outs {
                results[i] = Some((out, d));
            }
        }

        calls
            .iter()
            .zip(results)
            .map(|(call, r)| {
                let (output, duration) = r.unwrap_or_else(|| {
                    (
                        ToolOutput::error("internal: call was not run"),
                        Duration::ZERO,
                    )
                });
                CallResult {
                    tool_call_id: call.id.clone(),
                    name: call.function.name.clone(),
                    args_summary: summarize_args(&call.function.arguments),
                    output,
                    duration,
                }
            })
            .collect()
    }

    fn prepare(&self, call: &ToolCall) -> Prepared {
        let name = &call.function.name;
        let Some(tool) = self.registry.get(name) else {
            return Prepared::Done(ToolOutput::error(format!(
                "unknown tool `{name}`. The available tools are: {}",
                self.registry.names().join(", ")
            )));
        };
        let raw = call.function.arguments.trim();
        let args: Value = if raw.is_empty() {
            Value::Object(Default::default())
        } else {
            match serde_json::from_str(raw) {
                Ok(v) => v,
                Err(e) => {
                    return Prepared::Done(ToolOutput::error(format!(
                        "the arguments of `{name}` are not valid JSON ({e}); send a JSON object matching the tool's schema"
                    )));
                }
            }
        };
        if !args.is_object() {
            return Prepared::Done(ToolOutput::error(format!(
                "the arguments of `{name}` must be a JSON object, got {}",
                type_name(&args)
            )));
        }
        Prepared::Run(tool, args)
    }
}

fn is_mutating(p: &Prepared) -> bool {
    matches!(p, Prepared::Run(t, _) if t.is_mutating())
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A short rendering of the arguments for events: `key=value` pairs, long values cut.
pub fn summarize_args(raw: &str) -> String {
    const MAX_VALUE: usize = 80;
    const MAX_TOTAL: usize = 300;
    let cut = |s: &str, n: usize| -> String {
        if s.chars().count() > n {
            format!(
                "{}…({} chars)",
                s.chars().take(n).collect::<String>(),
                s.chars().count()
            )
        } else {
            s.to_string()
        }
    };
    let text = match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::String(s) => s.replace('\n', "⏎"),
                    other => other.to_string(),
                };
                format!("{k}={}", cut(&v, MAX_VALUE))
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => raw.to_string(),
    };
    cut(&text, MAX_TOTAL)
}

/// Converts a call's notes into events for step `step`.
pub fn note_events(step: u32, notes: &[ToolNote]) -> Vec<nab_protocol::EventKind> {
    use nab_protocol::EventKind;
    notes
        .iter()
        .map(|n| match n {
            ToolNote::PolicyBlock {
                command,
                rule,
                reason,
            } => EventKind::PolicyBlock {
                step,
                command: command.clone(),
                rule: rule.clone(),
                reason: reason.clone(),
            },
            ToolNote::Diagnostics { path, total, .. } => EventKind::Diagnostics {
                step,
                path: path.clone(),
                count: *total,
            },
        })
        .collect()
}
