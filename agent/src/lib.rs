//! nab-agent: the coding agent under test in Native AgentBench.
//!
//! A ReAct loop ([`agent_loop`]) drives a streaming OpenAI-compatible [`client`], runs the
//! model's tool calls through the [`exec`] executor over the [`tools`] registry, guarded by
//! [`guard`] (paths, command policy, child environment), and writes the event stream that
//! the harness reads ([`events`]). [`context`] is the seam where context management runs
//! before every model call.

pub mod agent_loop;
pub mod client;
pub mod config;
pub mod context;
pub mod diagnostics;
pub mod display;
pub mod events;
pub mod exec;
pub mod guard;
pub mod mcp;
pub mod message;
pub mod prompt;
pub mod stagnation;
pub mod text_calls;
pub mod tools;

pub use agent_loop::{Agent, RunOutcome};
pub use config::AgentConfig;
