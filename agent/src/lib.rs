//! nab-agent: the coding agent under test in Native AgentBench.
//!
//! A ReAct loop ([`Agent`], in `agent_loop`) drives a streaming OpenAI-compatible
//! `client`, runs the model's tool calls through the `exec` executor over the `tools`
//! registry, guarded by `guard` (paths, command policy, child environment), and writes
//! the event stream that the harness reads (`events`). `context` is the seam where context management runs
//! before every model call.
//!
//! The areas a caller reaches by path are public (`client`, `context`, `display`, `guard`,
//! `mcp`, `text_calls`): a name that needs its area to say whose it is is used with it
//! (`mcp::EventSink`, `context::summarize::summarize`, `mcp::proctree::snapshot`), never
//! renamed. The names most callers need are also re-exported flat, below. The loop, its
//! configuration, the executor, the prompt, the stagnation check and the syntax diagnostics
//! stay private and export nothing beyond [`Agent`] and [`AgentConfig`].

mod agent_loop;
pub mod client;
mod config;
pub mod context;
mod diagnostics;
pub mod display;
mod events;
mod exec;
pub mod guard;
pub mod mcp;
mod message;
mod prompt;
mod stagnation;
pub mod text_calls;
mod tools;

pub use client::body::streaming_body;
pub use client::stream::{AssistantTurn, read_sse_stream};
pub use client::{
    BudgetKind, ChatRequest, ClientConfig, ClientError, Completion, Endpoint, LlmClient,
    NoopObserver, RetryPolicy, StreamObserver,
};
pub use context::clear::{CLEARED_MARKER, clear_old_tool_results};
pub use context::offload::{OFFLOAD_MARKER, Offloader, offloaded_path};
pub use context::summarize::{SUMMARY_HEADER, clear_threshold, summary_threshold};
pub use context::tokens::{TokenCounter, tokenizer_loaded};
pub use context::{
    ClientSummarizer, ContextManager, ContextState, Summarizer, SummaryError, ThreeTier,
    check_history,
};
pub use events::EventSink;
pub use guard::env::child_env;
pub use guard::{CommandPolicy, PathError, PathGuard, PolicyVerdict};
pub use mcp::supervisor::ServerShared;
pub use mcp::tool::sync_registry;
pub use mcp::{LinkError, McpCallOutcome, McpConfig, McpManager, RingBuffer, Timings};
pub use message::{Message, Role, ToolCall};
pub use tools::read_file::ReadFile;
pub use tools::{ToolContext, ToolError, ToolHandler, ToolOutput, ToolRegistry};

pub use agent_loop::{Agent, RunOutcome};
pub use config::AgentConfig;
