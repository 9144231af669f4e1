//! The Native AgentBench model gateway and its providers.
//!
//! The agent runs without network and without keys; it speaks the OpenAI chat-completions
//! protocol over a Unix socket to a [`Gateway`] on the host, which adds credentials,
//! enforces the trial's [`Budgets`], retries what can be retried, passes streams through
//! as they arrive, and writes every exchange to `transcript.jsonl`
//! ([`nab_protocol::transcript::TranscriptLine`]). Trial metrics come from that transcript
//! ([`metrics`]).
//!
//! Providers are built from spec strings ([`spec`]): `openai[<options>]:<model>[@<base_url>]`
//! (options in [`dialect`]), `anthropic:<model>[@<base_url>]` (the Anthropic Messages API,
//! translated: [`providers::anthropic`]),
//! `record:<cassette-dir>:<inner spec>`, `replay:<cassette-dir>`, `scripted:<file>|task`.
//! [`Client::complete`] calls a provider without HTTP (for the judges).

pub mod allowlist;
pub mod assemble;
pub mod budget;
pub mod canonical;
pub mod cassette;
pub mod client;
pub mod dialect;
pub mod error;
pub mod intake;
pub mod json_scan;
pub mod limits;
pub mod metrics;
pub mod normalize;
pub mod provider;
pub mod providers;
pub mod recorder;
pub mod redact;
pub mod server;
pub mod spec;

pub use budget::{BudgetKind, Budgets};
pub use client::{CallPolicy, Client};
pub use dialect::Dialect;
pub use error::{GatewayError, ProviderError, SpecError};
pub use limits::GatewayLimits;
pub use metrics::{TranscriptMetrics, metrics_from_file};
pub use normalize::Normalizer;
pub use provider::{ChunkStream, Provider, ProviderResponse};
pub use server::{Gateway, GatewayConfig, GatewayHandle};
pub use spec::{ProviderOptions, ProviderSpec, build_provider};
