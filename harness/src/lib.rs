#![warn(unreachable_pub)]
//! nab-harness: loads the task suite, builds the base image, runs agents in locked-down
//! Docker containers, verifies with hidden tests in a fresh container, and records results.
//!
//! - `task`: the task format and the suite checker (no Docker).
//! - `image`: the base image recipe and its build (mmdebstrap → Docker import), and the
//!   task images built on it from a task's `environment:` (`nab image ls|rm`).
//! - `import`: `nab import harbor`, converting Harbor-format tasks or refusing them.
//! - `sandbox`: the only module that talks to Docker, behind a backend trait.
//! - `agent`: how each kind of agent is started in the sandbox.
//! - `workspace`: workspace archives in and out, and the diff against the original.
//! - `verify`: the verifier phase; `junit`: its reports, judged with the trial's
//!   `canary` (a test planted under a random name that must fail) set apart, and
//!   compared with the task's `pinned` test ids (`tasks/tests.lock`).
//! - `expect`: host-side checks against expected data that never enters a container.
//! - `tamper`: protected workspace paths, and the `tamper_flags` a diff that touches them sets.
//! - `mcp_host`: a task's MCP servers in a sidecar container, reached by the agent through
//!   sockets the harness serves (their data never enters the agent's container).
//! - `model`, `llm`, `metrics`: the model spec, one trial's gateway, and the
//!   metrics from its transcript and the agent's events; `provider_answers`: what the
//!   provider answered a trial's calls (a misconfigured run stops, `runner::ProviderGuard`).
//! - `cost`: `--prices`, the rate of the run's model and a trial's `cost_usd`.
//! - `trial`: one trial end to end, with cleanup on every path; `own_time`: the agent's
//!   time limit without the time its gateway waited for the model.
//! - `judge_model`: the judges' model seam implemented with the gateway's providers.
//! - `runner`: scheduling, retries, results.jsonl, resume, summaries.
//! - `shard`: `--shard K/N`, a deterministic cost-balanced share of a run's pairs;
//!   `merge`: `nab merge`, the shards' folders checked and joined into one run.
//! - `sweep`: `nab sweep`, a matrix of agents × models × tasks × trials, interleaved,
//!   with per-provider limits.
//! - `untrusted`: reading a file the agent left (no links, no blocking, capped).
//! - `selftest`: `nab selftest`, the built-in hostile agents run against the harness.
//!
//! Every module is private. What the `nab` binary, the tests and the benchmarks use is
//! re-exported below item by item (renamed where a bare name would not say whose it is:
//! `EXIT_FAILED`, `open_shards`, `run_selftest`, …). The trial's own phases (`trial`,
//! `workspace`, `verify`, `junit`, `canary`, `expect`, `tamper`, `llm`, `metrics`,
//! `untrusted`) export nothing: the runner and the selftest drive them, the binary never
//! does.

pub mod env;
pub mod exit;
pub mod run;
pub mod selftest;
pub mod task;
pub mod trial;
