//! The ReAct loop: check budgets → manage context → call the model → run its tool calls,
//! or finish when it calls none. This file holds the agent and a run's start and end;
//! [`phases`] holds the steps in between.

mod phases;

use std::sync::Arc;

use nab_protocol::Usage;
use nab_protocol::{EventKind, ExitReason};

use crate::client::LlmClient;
use crate::config::AgentConfig;
use crate::context::{ContextManager, Passthrough};
use crate::display::Display;
use crate::events::EventSink;
use crate::mcp::{McpConfig, McpError, McpManager, Timings as McpTimings};
use crate::message::{Message, Role};
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
        let manager = McpManager::spawn(
            &config,
            &self.config.state_dir,
            Some(self.config.workspace.clone()),
            timings,
            events,
        )
        .await?
        .ready()
        .await;
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
        let last = history.last_mut();
        if let Some(last) = last.filter(|m| matches!(m.role, Role::Tool | Role::User)) {
            let mut m = (**last).clone();
            let old = m.content.take().unwrap_or_default();
            m.content = Some(format!("{old}\n\n{text}"));
            *last = Arc::new(m);
        } else {
            history.push(Arc::new(Message::user(text)));
        }
    }
}
