//! The Native AgentBench model gateway and its providers.
//!
//! The agent runs without network and without keys; it speaks OpenAI chat completions,
//! the Anthropic Messages API or the OpenAI Responses API ([`agent_api`], each translated to
//! and from chat completions, the canonical form) over a Unix socket to a [`Gateway`] on
//! the host, which adds credentials,
//! enforces the trial's [`Budgets`], retries what can be retried, passes streams through
//! as they arrive, and writes every exchange to `transcript.jsonl`
//! ([`nab_protocol::TranscriptLine`]). Trial metrics come from that transcript
//! ([`metrics`]).
//!
//! Providers are built from spec strings ([`spec`]): `openai[<options>]:<model>[@<base_url>]`
//! (options in [`dialect`]), `anthropic[cache=on|off]:<model>[@<base_url>]` (the Anthropic Messages API,
//! translated: [`providers::anthropic`]),
//! `record:<cassette-dir>:<inner spec>`, `replay:<cassette-dir>`, `scripted:<file>|task`.
//! [`Client::complete`] calls a provider without HTTP (for the judges). A [`Pace`] shared by
//! the gateways of one provider spreads their requests (rpm) and holds them all back after
//! a 429/503/529 (`nab sweep`).

mod agent_api;
mod allowlist;
mod assemble;
mod budget;
mod canonical;
pub mod cassette;
pub mod cassette_index;
mod client;
mod dialect;
mod error;
#[cfg(feature = "test-support")]
mod fixed;
mod intake;
mod json_scan;
mod limits;
mod metrics;
mod model_clock;
pub mod normalize;
mod pace;
mod pricing;
mod provider;
mod providers;
mod recorder;
mod redact;
mod server;
mod spec;
pub mod trial_cassette;

pub use budget::{BudgetKind, Budgets};
pub use canonical::{canonical_json, request_key};
pub use client::{CallPolicy, Client, DEFAULT_MAX_RETRIES};
pub use dialect::Dialect;
pub use error::{GatewayError, ProviderError, SpecError};
#[cfg(feature = "test-support")]
pub use fixed::FixedAnswer;
pub use limits::GatewayLimits;
pub use metrics::{TranscriptMetrics, metrics_from_file};
pub use model_clock::ModelClock;
pub use normalize::{Normalizer, Pattern};
pub use pace::{Pace, PaceStats, SLOW_DOWN_STATUSES};
pub use pricing::{ModelPrice, PriceError, Prices, Rate};
pub use provider::{ChunkStream, Provider, ProviderResponse};
pub use recorder::TranscriptCaps;
pub use server::{Gateway, GatewayConfig, GatewayHandle};
pub use spec::{ProviderOptions, ProviderSpec, ScriptSource, build_provider};
