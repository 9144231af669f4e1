//! The gateway crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `common`).

mod common;

mod allowlist;
mod answer_cap;
mod anthropic;
mod dialect;
mod gateway;
mod limits;
mod pace;
mod replay;
mod transcript;
