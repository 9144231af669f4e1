//! The judges crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `common`).

mod common;

mod malformed_corpus;
mod prompts;
mod run_dirs;
