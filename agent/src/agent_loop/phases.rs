//! The phases of one run, in the order a step goes through them: budgets → context →
//! model call → finish, or the tools the model asked for. Each phase either lets the step go
//! on or stops the run with a [`Stop`].

use std::ops::ControlFlow;
use std::sync::Arc;

use nab_protocol::Usage;
use nab_protocol::{EventKind, ExitReason};

use super::{Agent, RunOutcome};
use crate::client::{AssistantTurn, BudgetKind, ChatRequest, ClientError, Completion};
use crate::context::{ContextError, ContextState};
use crate::exec::{Executor, note_events};
use crate::message::{Message, Role, ToolCall};
use crate::stagnation::StagnationDetector;

impl Agent {
    /// The loop: one step after another until a budget, the context, the model or the
    /// stagnation check stops it.
    pub(super) async fn run_inner(&mut self, instruction: String) -> RunOutcome {
        let mut run = self.begin(instruction);
        loop {
            if let ControlFlow::Break(stop) = self.step(&mut run).await {
                return run.outcome(stop);
            }
        }
    }

    /// The executor and the first two messages; MCP tools are in the registry before the
    /// system prompt lists the tools.
    fn begin(&self, instruction: String) -> Progress {
        let mut executor = Executor::new(self.registry.clone(), self.tool_ctx.clone());
        executor.batch_limit = self.config.batch_limit;
        if let Some(mcp) = &self.mcp {
            crate::mcp::tool::sync_registry(mcp, &self.registry);
        }
        let history = vec![
            Arc::new(Message::system(crate::prompt::system_prompt(
                self.tool_ctx.guard.root(),
                &self.registry.names(),
            ))),
            Arc::new(Message::user(instruction)),
        ];
        Progress {
            executor,
            history,
            stagnation: StagnationDetector::new(self.config.stagnation_limit),
            usage: Usage::default(),
            last_usage: None,
            steps: 0,
            last_text: None,
        }
    }

    /// One step: budgets → context → model call → finish, or run the tools it asked for.
    async fn step(&mut self, run: &mut Progress) -> ControlFlow<Stop> {
        self.check_budgets(run)?;
        let step = run.steps + 1;
        self.display.step(step);
        self.sync_mcp(&mut run.history);
        self.manage_context(run, step).await?;
        let completion = self.call_model(run).await?;
        let turn = self.record_turn(run, step, completion);
        if turn.tool_calls.is_empty() {
            return ControlFlow::Break(final_stop(&turn));
        }
        self.check_stagnation(run, &turn.tool_calls)?;
        self.run_tools(run, step, &turn.tool_calls).await;
        ControlFlow::Continue(())
    }

    /// `--max-steps` and `--token-budget`, checked before each model call.
    fn check_budgets(&self, run: &Progress) -> ControlFlow<Stop> {
        if run.steps >= self.config.max_steps {
            let msg = format!("reached --max-steps {}", self.config.max_steps);
            return ControlFlow::Break(Stop::new(ExitReason::MaxSteps, msg));
        }
        if let Some(budget) = self.config.token_budget
            && run.usage.total() >= budget
        {
            let msg = format!(
                "used {} tokens of the --token-budget {budget}",
                run.usage.total()
            );
            return ControlFlow::Break(Stop::new(ExitReason::TokenBudget, msg));
        }
        ControlFlow::Continue(())
    }

    /// Lets the context manager clear, offload or summarize before the history is sent.
    async fn manage_context(&mut self, run: &mut Progress, step: u32) -> ControlFlow<Stop> {
        let state = ContextState {
            history: &mut run.history,
            step,
            context_window: self.config.context_window,
            last_usage: run.last_usage,
            state_dir: &self.config.state_dir,
        };
        match self.context.before_model_call(state).await {
            Ok(events) => {
                events.into_iter().for_each(|e| self.events.emit(e));
                ControlFlow::Continue(())
            }
            Err(ContextError::Overflow(m)) => {
                ControlFlow::Break(Stop::new(ExitReason::ContextOverflow, m))
            }
            Err(e) => ControlFlow::Break(Stop::new(ExitReason::Error, e.to_string())),
        }
    }

    /// The model call: the history and the tools, schemas sorted by name. A failure ends
    /// the run with the reason its error names (a budget, a full window, or an error).
    async fn call_model(&mut self, run: &Progress) -> ControlFlow<Stop, Completion> {
        let request = Arc::new(ChatRequest {
            model: self.config.model.clone(),
            messages: run.history.clone(),
            tools: Arc::new(self.registry.schemas()),
            max_tokens: None,
            temperature: None,
        });
        match self.client.complete(request, &mut self.display).await {
            Ok(c) => ControlFlow::Continue(c),
            Err(e) => {
                let reason = match e.budget() {
                    Some(BudgetKind::Tokens) => ExitReason::TokenBudget,
                    Some(BudgetKind::Calls) => ExitReason::CallBudget,
                    Some(BudgetKind::Cost) => ExitReason::CostBudget,
                    // The server said the history no longer fits its window.
                    None if e.is_context_overflow() => ExitReason::ContextOverflow,
                    None => ExitReason::Error,
                };
                ControlFlow::Break(Stop::new(reason, describe(&e)))
            }
        }
    }

    /// Counts the call, recovers tool calls written as text, reports the call and appends
    /// the assistant message to the history.
    fn record_turn(&self, run: &mut Progress, step: u32, completion: Completion) -> AssistantTurn {
        run.steps = step;
        let mut turn = completion.turn;
        if turn.tool_calls.is_empty()
            && let Some(calls) = crate::text_calls::extract(&turn.content, &self.registry.names())
        {
            tracing::info!(
                calls = calls.len(),
                "the model wrote its tool calls as text; running them as tool calls"
            );
            turn.tool_calls = calls;
            turn.content.clear();
        }
        let call_usage = turn.usage.unwrap_or_default();
        run.usage += call_usage;
        run.last_usage = turn.usage;
        self.events.emit(EventKind::ModelCall {
            step,
            usage: call_usage,
            latency_ms: completion.latency.as_millis() as u64,
            finish_reason: turn.finish_reason.clone(),
        });
        if !turn.content.is_empty() {
            run.last_text = Some(turn.content.clone());
        }
        run.history.push(Arc::new(Message {
            role: Role::Assistant,
            content: (!turn.content.is_empty()).then(|| turn.content.clone()),
            reasoning: (!turn.reasoning.is_empty()).then(|| turn.reasoning.clone()),
            tool_calls: turn.tool_calls.clone(),
            tool_call_id: None,
        }));
        turn
    }

    /// Ends the run when the model repeats one call with the same arguments too often.
    fn check_stagnation(&self, run: &mut Progress, calls: &[ToolCall]) -> ControlFlow<Stop> {
        for call in calls {
            if run
                .stagnation
                .observe(&call.function.name, &call.function.arguments)
            {
                let msg = format!(
                    "the model called `{}` with the same arguments {} times in a row",
                    call.function.name, self.config.stagnation_limit
                );
                return ControlFlow::Break(Stop::new(ExitReason::Stagnation, msg));
            }
        }
        ControlFlow::Continue(())
    }

    /// Runs the batch, reports each call, and appends the results (as the context manager
    /// leaves them) to the history.
    async fn run_tools(&mut self, run: &mut Progress, step: u32, calls: &[ToolCall]) {
        for call in calls {
            self.display.tool_start(
                &call.function.name,
                &crate::exec::summarize_args(&call.function.arguments),
            );
        }
        let results = run.executor.run_batch(calls).await;
        for r in results {
            self.display.tool_done(
                &r.name,
                r.output.status,
                r.duration.as_millis(),
                r.output.text.lines().next().unwrap_or(""),
            );
            for e in note_events(step, &r.output.notes) {
                self.events.emit(e);
            }
            self.events.emit(EventKind::ToolCall {
                step,
                tool_call_id: r.tool_call_id.clone(),
                name: r.name.clone(),
                args_summary: r.args_summary.clone(),
                status: r.output.status,
                duration_ms: r.duration.as_millis() as u64,
            });
            let (text, events) = self
                .context
                .on_tool_result(
                    step,
                    &r.name,
                    &r.tool_call_id,
                    r.output.text,
                    &self.config.state_dir,
                )
                .await;
            events.into_iter().for_each(|e| self.events.emit(e));
            run.history
                .push(Arc::new(Message::tool(r.tool_call_id, text)));
        }
    }
}

/// What one run carries from step to step.
struct Progress {
    executor: Executor,
    history: Vec<Arc<Message>>,
    stagnation: StagnationDetector,
    usage: Usage,
    /// The last call's usage: the context manager measures the history by it.
    last_usage: Option<Usage>,
    /// Model calls made.
    steps: u32,
    /// The model's last non-empty text.
    last_text: Option<String>,
}

impl Progress {
    fn outcome(self, stop: Stop) -> RunOutcome {
        RunOutcome {
            exit_reason: stop.reason,
            steps: self.steps,
            usage: self.usage,
            final_answer: self.last_text,
            message: stop.message,
        }
    }
}

/// Why the loop stops, and the message for the finish event.
struct Stop {
    reason: ExitReason,
    message: Option<String>,
}

impl Stop {
    fn new(reason: ExitReason, message: impl Into<String>) -> Stop {
        Stop {
            reason,
            message: Some(message.into()),
        }
    }
}

/// A turn without tool calls ends the run: a final answer, unless the model was cut off
/// by a full context.
fn final_stop(turn: &AssistantTurn) -> Stop {
    if turn.finish_reason.as_deref() == Some("length") {
        return Stop::new(
            ExitReason::ContextOverflow,
            "the model stopped with finish_reason=length (the context is full)",
        );
    }
    Stop {
        reason: ExitReason::FinalAnswer,
        message: None,
    }
}

/// The error with its retry history flattened, for the finish event.
fn describe(e: &ClientError) -> String {
    e.to_string()
}
