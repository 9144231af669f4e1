//! The ReAct loop: check budgets → manage context → call the model → run its tool calls,
//! or finish when it calls none.

use std::sync::Arc;

use nab_protocol::Usage;
use nab_protocol::events::{EventKind, ExitReason};

use crate::client::{BudgetKind, ChatRequest, ClientError, LlmClient};
use crate::config::AgentConfig;
use crate::context::{ContextError, ContextManager, ContextState, Passthrough};
use crate::display::Display;
use crate::events::EventSink;
use crate::exec::{Executor, note_events};
use crate::mcp::{McpConfig, McpError, McpManager, Timings as McpTimings};
use crate::message::{Message, Role};
use crate::stagnation::StagnationDetector;
use crate::tools::{ToolContext, ToolRegistry};

/// How a run ended.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub exit_reason: ExitReason,
    /// Model calls made.
    pub steps: u32,
    pub usage: Usage,
    /// The model's last answer text (the final answer when `exit_reason` is `final_answer`).
    pub final_answer: Option<String>,
    pub message: Option<String>,
}

pub struct Agent {
    config: AgentConfig,
    client: LlmClient,
    registry: Arc<ToolRegistry>,
    tool_ctx: Arc<ToolContext>,
    context: Box<dyn ContextManager>,
    /// Shared with the MCP supervisors, which report from their own tasks.
    events: Arc<EventSink>,
    display: Display,
    /// `--mcp-config`: the servers are started when the run starts, ended when it ends.
    mcp_config: Option<(McpConfig, McpTimings)>,
    mcp: Option<Arc<McpManager>>,
}

impl Agent {
    /// An agent with the built-in tools and no context management.
    pub fn new(
        config: AgentConfig,
        client: LlmClient,
        events: EventSink,
    ) -> std::io::Result<Agent> {
        let mut tool_ctx = ToolContext::new(&config.workspace)?;
        // Offloaded outputs live in the state directory; read_file may read them back.
        tool_ctx.state_dir = Some(config.state_dir.clone());
        let tool_ctx = Arc::new(tool_ctx);
        Ok(Agent {
            config,
            client,
            registry: Arc::new(ToolRegistry::with_builtins()),
            tool_ctx,
            context: Box::new(Passthrough),
            events: Arc::new(events),
            display: Display::disabled(),
            mcp_config: None,
            mcp: None,
        })
    }

    /// MCP servers to start with the run; their tools join the registry as
    /// `mcp__<server>__<tool>` and follow the servers' lives.
    pub fn with_mcp(mut self, config: McpConfig, timings: McpTimings) -> Agent {
        self.mcp_config = Some((config, timings));
        self
    }

    pub fn with_display(mut self, display: Display) -> Agent {
        self.display = display;
        self
    }

    pub fn with_context_manager(mut self, context: Box<dyn ContextManager>) -> Agent {
        self.context = context;
        self
    }

    /// The tools; register or unregister at any time (e.g. MCP tools).
    pub fn registry(&self) -> &Arc<ToolRegistry> {
        &self.registry
    }

    pub fn events(&self) -> &EventSink {
        &self.events
    }

    /// Runs the task. The instruction becomes the first user message as it is: pass a
    /// `String` to hand it over without a copy (it may be megabytes).
    pub async fn run(&mut self, instruction: impl Into<String>) -> RunOutcome {
        let instruction = instruction.into();
        let cfg = self.config.clone();
        self.events.emit(EventKind::Start {
            model: cfg.model.clone(),
            workspace: cfg.workspace.display().to_string(),
            max_steps: cfg.max_steps,
            context_window: cfg.context_window,
            token_budget: cfg.token_budget,
        });
        let outcome = match self.start_mcp().await {
            Ok(()) => self.run_inner(instruction).await,
            Err(e) => RunOutcome {
                exit_reason: ExitReason::Error,
                steps: 0,
                usage: Usage::default(),
                final_answer: None,
                message: Some(e.to_string()),
            },
        };
        // Every MCP server's process tree ends before the run reports its end.
        if let Some(mcp) = self.mcp.take() {
            mcp.shutdown().await;
        }
        self.display.finish(
            outcome.exit_reason,
            outcome.steps,
            outcome.message.as_deref(),
        );
        self.events.emit(EventKind::Finish {
            exit_reason: outcome.exit_reason,
            steps: outcome.steps,
            message: outcome.message.clone(),
        });
        outcome
    }

    async fn start_mcp(&mut self) -> Result<(), McpError> {
        let Some((config, timings)) = self.mcp_config.clone() else {
            return Ok(());
        };
        let sink = self.events.clone();
        let events: crate::mcp::EventSink = Arc::new(move |e| sink.emit(e));
        let manager = McpManager::start(
            &config,
            &self.config.state_dir,
            Some(self.config.workspace.clone()),
            timings,
            events,
        )
        .await?;
        self.mcp = Some(Arc::new(manager));
        Ok(())
    }

    /// Brings the registry's MCP tools in line with the servers (a change takes effect on
    /// the next model call) and tells the model about servers that were given up.
    fn sync_mcp(&self, history: &mut Vec<Arc<Message>>) {
        let Some(mcp) = &self.mcp else { return };
        crate::mcp::tool::sync_registry(mcp, &self.registry);
        let notices = mcp.take_notices();
        if notices.is_empty() {
            return;
        }
        let text = format!(
            "[nab-agent notice] {}",
            notices.join("\n\n[nab-agent notice] ")
        );
        // Appended to the message the model reads next, so roles keep alternating.
        match history.last() {
            Some(last) if matches!(last.role, Role::Tool | Role::User) => {
                let mut m = (**last).clone();
                let old = m.content.take().unwrap_or_default();
                m.content = Some(format!("{old}\n\n{text}"));
                *history.last_mut().expect("checked above") = Arc::new(m);
            }
            _ => history.push(Arc::new(Message::user(text))),
        }
    }

    async fn run_inner(&mut self, instruction: String) -> RunOutcome {
        let cfg = self.config.clone();
        let mut executor = Executor::new(self.registry.clone(), self.tool_ctx.clone());
        executor.batch_limit = cfg.batch_limit;
        // MCP tools are in the registry before the system prompt lists the tools.
        if let Some(mcp) = &self.mcp {
            crate::mcp::tool::sync_registry(mcp, &self.registry);
        }
        let mut history: Vec<Arc<Message>> = vec![
            Arc::new(Message::system(crate::prompt::system_prompt(
                self.tool_ctx.guard.root(),
                &self.registry.names(),
            ))),
            Arc::new(Message::user(instruction)),
        ];
        let mut stagnation = StagnationDetector::new(cfg.stagnation_limit);
        let mut usage = Usage::default();
        let mut last_usage: Option<Usage> = None;
        let mut steps: u32 = 0;
        let mut last_text: Option<String> = None;

        let end = |reason: ExitReason,
                   steps: u32,
                   usage: Usage,
                   last: Option<String>,
                   msg: Option<String>| RunOutcome {
            exit_reason: reason,
            steps,
            usage,
            final_answer: last,
            message: msg,
        };

        loop {
            // 1. Budgets.
            if steps >= cfg.max_steps {
                let msg = format!("reached --max-steps {}", cfg.max_steps);
                return end(ExitReason::MaxSteps, steps, usage, last_text, Some(msg));
            }
            if let Some(budget) = cfg.token_budget
                && usage.total() >= budget
            {
                let msg = format!(
                    "used {} tokens of the --token-budget {budget}",
                    usage.total()
                );
                return end(ExitReason::TokenBudget, steps, usage, last_text, Some(msg));
            }
            let step = steps + 1;
            self.display.step(step);

            // 2. MCP tool changes and notices, then context management.
            self.sync_mcp(&mut history);
            let state = ContextState {
                history: &mut history,
                step,
                context_window: cfg.context_window,
                last_usage,
                state_dir: &cfg.state_dir,
            };
            match self.context.before_model_call(state).await {
                Ok(events) => events.into_iter().for_each(|e| self.events.emit(e)),
                Err(ContextError::Overflow(m)) => {
                    return end(
                        ExitReason::ContextOverflow,
                        steps,
                        usage,
                        last_text,
                        Some(m),
                    );
                }
                Err(e) => {
                    return end(
                        ExitReason::Error,
                        steps,
                        usage,
                        last_text,
                        Some(e.to_string()),
                    );
                }
            }

            // 3. The model call: history and tools, schemas sorted by name.
            let request = Arc::new(ChatRequest {
                model: cfg.model.clone(),
                messages: history.clone(),
                tools: Arc::new(self.registry.schemas()),
                max_tokens: None,
                temperature: None,
            });
            let completion = match self.client.complete(request, &mut self.display).await {
                Ok(c) => c,
                Err(e) => {
                    let reason = match e.budget() {
                        Some(BudgetKind::Tokens) => ExitReason::TokenBudget,
                        Some(BudgetKind::Calls) => ExitReason::CallBudget,
                        // The server said the history no longer fits its window.
                        None if e.is_context_overflow() => ExitReason::ContextOverflow,
                        None => ExitReason::Error,
                    };
                    return end(reason, steps, usage, last_text, Some(describe(&e)));
                }
            };
            steps = step;
            let mut turn = completion.turn;
            if turn.tool_calls.is_empty()
                && let Some(calls) =
                    crate::text_calls::extract(&turn.content, &self.registry.names())
            {
                tracing::info!(
                    calls = calls.len(),
                    "the model wrote its tool calls as text; running them as tool calls"
                );
                turn.tool_calls = calls;
                turn.content.clear();
            }
            let call_usage = turn.usage.unwrap_or_default();
            usage += call_usage;
            last_usage = turn.usage;
            self.events.emit(EventKind::ModelCall {
                step,
                usage: call_usage,
                latency_ms: completion.latency.as_millis() as u64,
                finish_reason: turn.finish_reason.clone(),
            });
            if !turn.content.is_empty() {
                last_text = Some(turn.content.clone());
            }
            history.push(Arc::new(Message {
                role: Role::Assistant,
                content: (!turn.content.is_empty()).then(|| turn.content.clone()),
                reasoning: (!turn.reasoning.is_empty()).then(|| turn.reasoning.clone()),
                tool_calls: turn.tool_calls.clone(),
                tool_call_id: None,
            }));

            // 4. Finish, or run the tools.
            if turn.tool_calls.is_empty() {
                if turn.finish_reason.as_deref() == Some("length") {
                    let msg = "the model stopped with finish_reason=length (the context is full)"
                        .to_string();
                    return end(
                        ExitReason::ContextOverflow,
                        steps,
                        usage,
                        last_text,
                        Some(msg),
                    );
                }
                return end(ExitReason::FinalAnswer, steps, usage, last_text, None);
            }
            for call in &turn.tool_calls {
                if stagnation.observe(&call.function.name, &call.function.arguments) {
                    let msg = format!(
                        "the model called `{}` with the same arguments {} times in a row",
                        call.function.name, cfg.stagnation_limit
                    );
                    return end(ExitReason::Stagnation, steps, usage, last_text, Some(msg));
                }
            }
            for call in &turn.tool_calls {
                self.display.tool_start(
                    &call.function.name,
                    &crate::exec::summarize_args(&call.function.arguments),
                );
            }
            let results = executor.run_batch(&turn.tool_calls).await;
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
                        &cfg.state_dir,
                    )
                    .await;
                events.into_iter().for_each(|e| self.events.emit(e));
                history.push(Arc::new(Message::tool(r.tool_call_id, text)));
            }
        }
    }
}

/// The error with its retry history flattened, for the finish event.
fn describe(e: &ClientError) -> String {
    e.to_string()
}
