//! The reports crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `common`).

mod common;

mod browser;
mod compare;
mod gate;
mod gate_simulation;
mod leaderboard;
mod leaderboard_browser;
mod report;
