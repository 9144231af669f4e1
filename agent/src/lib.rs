//! nab-agent: the coding agent under test in Native AgentBench.
//!
//! A ReAct loop ([`Agent`], in `agent_loop`) drives a streaming OpenAI-compatible
//! `client`, runs the model's tool calls through the `exec` executor over the `tools`
//! registry, guarded by `guard` (paths, command policy, child environment), and writes
//! the event stream that the harness reads (`events`). `context` is the seam where context management runs
//! before every model call.
//!
//! Every module is private; what the binary, the tests and the benchmarks use is
//! re-exported below item by item (renamed where a bare name would not say whose it is:
//! `McpEventSink`, `summarize_history`, `process_tree`, …). The loop's configuration,
//! the executor, the prompt, the stagnation check and the syntax diagnostics export
//! nothing beyond [`Agent`] and [`AgentConfig`].

mod agent_loop;
mod client;
mod config;
mod context;
mod diagnostics;
mod display;
mod events;
mod exec;
mod guard;
mod mcp;
mod message;
mod prompt;
mod stagnation;
mod text_calls;
mod tools;

pub use client::body::streaming_body;
pub use client::stream::{AssistantTurn, Patience as StreamPatience, read_sse_stream};
pub use client::{
    BudgetKind, ChatRequest, ClientConfig, ClientError, Completion, Endpoint, LlmClient,
    NoopObserver, RetryPolicy, StreamObserver,
};
pub use context::clear::{CLEARED_MARKER, clear_old_tool_results};
pub use context::offload::{OFFLOAD_MARKER, Offloader, offloaded_path};
pub use context::summarize::{
    ACK as SUMMARY_ACK, CHUNK_CHARS as SUMMARY_CHUNK_CHARS, SECTIONS as SUMMARY_SECTIONS,
    SUMMARY_HEADER, clear_threshold, summarize as summarize_history, summary_threshold,
    system_prompt as summary_system_prompt,
};
pub use context::tokens::{CHUNK_BYTES as TOKEN_CHUNK_BYTES, TokenCounter, tokenizer_loaded};
pub use context::{
    ClientSummarizer, ContextManager, ContextState, Summarizer, SummaryError, ThreeTier,
    check_history,
};
pub use display::Display as EventDisplay;
pub use events::EventSink;
pub use guard::env::child_env;
pub use guard::{CommandPolicy, PathError, PathGuard, PolicyVerdict, Rule as PolicyRule};
pub use mcp::link::{Launcher as McpLauncher, Link as McpLink};
pub use mcp::proctree::{
    ProcInfo, is_alive as process_is_alive, read_cmdline as read_proc_cmdline,
    read_stat as read_proc_stat, snapshot as process_tree,
};
pub use mcp::supervisor::{ServerShared, Status as ServerStatus, supervise as supervise_server};
pub use mcp::tool::sync_registry;
pub use mcp::{
    ConfigError as McpConfigError, EventSink as McpEventSink, LinkError, McpCallOutcome, McpConfig,
    McpManager, RingBuffer, ServerConfig as McpServerConfig, Timings,
};
pub use message::{Message, Role, ToolCall};
pub use text_calls::extract as extract_text_calls;
pub use tools::read_file::ReadFile;
pub use tools::{ToolContext, ToolError, ToolHandler, ToolOutput, ToolRegistry};

pub use agent_loop::{Agent, RunOutcome};
pub use config::AgentConfig;
