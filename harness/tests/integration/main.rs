//! The harness crate's integration tests in one binary: one link instead of one per file
//! (a module per former `tests/*.rs`; shared helpers in `common`).

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod agent_caused_failures;
mod atif_export;
mod cli_docs;
mod cli_evaluation;
mod cli_run;
mod cli_run_judged;
mod declared_agents;
mod engine_pool;
mod host_checks;
mod host_permissions;
mod hostile_output;
mod image_import;
mod import_harbor;
mod import_harbor_build;
mod loopback;
mod model_gateway;
mod model_time;
mod phase_times;
mod podman_run;
mod provider_failure;
mod regrade;
mod remote_engine;
mod report_forgery;
mod required_compaction;
mod runner_hygiene;
mod sandbox_lockdown;
mod selftest;
mod shards;
mod stop_signals;
mod suite_errors;
mod suite_shape;
mod sweep;
mod task_images;
mod trial_isolation;
mod verdict_gaming;
mod verifier_gone;
