//! The reports crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `common`).

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod browser;
mod code_shape;
mod compare;
mod docs_links;
mod export;
mod export_atif;
mod gate;
mod gate_simulation;
mod leaderboard;
mod leaderboard_browser;
mod report;
mod view;
mod view_browser;
