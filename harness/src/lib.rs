#![warn(unreachable_pub)]
//! nab-harness: loads the task suite, builds the base image, runs agents in locked-down
//! Docker containers, verifies with hidden tests in a fresh container, and records results.
//! The `nab` binary (`main.rs`, `cli/`) parses arguments, calls this library and prints.
//!
//! The library is seven areas. Each uses only the areas listed before it (`exit` is used by
//! none), so the list reads bottom up:
//!
//! - [`exit`]: `nab`'s exit codes, in one place (`exit::FAILED`, `exit::HELP`, …).
//! - [`task`]: the task format (`tasks/<id>/task.yaml` and the folders around it), loading
//!   and the suite checker, the protected globs (`task::Protected`), the pinned test ids of
//!   `tasks/tests.lock` (`task::pinned`, recorded by `nab validate`) and `nab import harbor`
//!   (`task::import`). No Docker.
//! - [`agents`]: declared agents (`agents/<name>/agent.yaml`): the format, loading and its
//!   checks, the command line's placeholders. No Docker.
//! - [`env`](mod@env): where a trial runs: the sandbox (`env::sandbox`, the only code that talks to
//!   Docker, behind a backend trait; engines, disk quotas, host permissions), the base and
//!   task images and the declared agents' images (`env::image`), the workspace archives in and out and their diff, and
//!   reading what the agent left (no links, no blocking, capped).
//! - [`trial`]: one trial end to end, with cleanup on every path: the agent
//!   (`trial::AgentKind`, a declared one's launch in `trial::declared`), its gateway and the model spec (`trial::model`), the MCP host,
//!   the verifier phase with its junit reports, canaries, host-side expectations, tamper
//!   flags and task requirements, and the record's metrics, own time and cost
//!   (`trial::cost`).
//! - [`run`]: many trials: the runner (scheduling, retries, results.jsonl, resume, Ctrl-C,
//!   the engine pool, progress, the provider guard, judging), run.json (`run::meta`),
//!   `--shard` (`run::shard`), `nab merge` (`run::merge`), `nab sweep` (`run::sweep`),
//!   `nab validate`'s jobs and verdicts (`run::validate`) and the judges' model seam
//!   (`run::judge_model`).
//! - [`selftest`]: `nab selftest`, the built-in hostile agents run against the harness.
//!
//! Differences from the intended areas, and why: the model spec (`trial::model`) sits in
//! `trial`, since every trial's gateway is built from it and `model::prepare` checks it
//! against the trial's agent kind; the judges' model seam sits in `run`, next to the
//! judging of a run's trials (it serves `nab run --judge`, `nab judge` and `nab compare`),
//! so there is no `model` area. The protected globs are the task's (loading checks them);
//! the flags a diff gets from them are the trial's (`tamper`).
//!
//! Each area chooses its exports (a `pub use` inside the area, or a public submodule), and
//! nothing is re-exported under another name: callers write the area's path
//! (`nab_harness::run::merge::join`, `nab_harness::selftest::run`). Everything else is
//! `pub(crate)` (`unreachable_pub` is on).

pub mod agents;
pub mod env;
pub mod exit;
pub mod run;
pub mod selftest;
pub mod task;
pub mod trial;
