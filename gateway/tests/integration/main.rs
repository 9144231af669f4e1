//! The gateway crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `common`).

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod agent_apis;
mod allowlist;
mod answer_cap;
mod anthropic;
mod dialect;
mod gateway;
mod limits;
mod pace;
mod replay;
mod transcript;
