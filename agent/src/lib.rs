//! nab-agent: the coding agent under test in Native AgentBench.
//!
//! A ReAct loop ([`Agent`], in `agent_loop`) drives a streaming OpenAI-compatible
//! [`client`], runs the model's tool calls through the `exec` executor over the [`tools`]
//! registry, guarded by [`guard`] (paths, command policy, child environment), and writes
//! the event stream that the harness reads ([`events`]). [`context`] is the seam where context management runs
//! before every model call.
//!
//! The loop, its configuration, the executor, the prompt, the stagnation check and the
//! syntax diagnostics are private; the modules the binary, the tests and the benchmarks
//! use stay public.

mod agent_loop;
pub mod client;
mod config;
pub mod context;
mod diagnostics;
pub mod display;
pub mod events;
mod exec;
pub mod guard;
pub mod mcp;
pub mod message;
mod prompt;
mod stagnation;
pub mod text_calls;
pub mod tools;

pub use agent_loop::{Agent, RunOutcome};
pub use config::AgentConfig;
