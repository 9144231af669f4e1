//! The agent crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `support`).

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod agent_loop;
mod cli;
mod client_sse;
mod context_compaction;
mod context_offload_read;
mod dialects;
mod mcp_agent_run;
mod mcp_backoff;
mod mcp_servers;
mod path_guard;
mod policy_table;
mod real_server_answers;
mod tools;
