//! emberkv: an embeddable in-memory key-value store.
//!
//! Commands are text lines in a Redis-like language (`SET greeting hello`, `LPUSH jobs a b`),
//! run by an [`Engine`] against its keyspace. An engine can keep an append-only log of the
//! writes it ran ([`Engine::enable_aof`]) and write a snapshot of its keyspace
//! ([`Engine::snapshot`]); both can be loaded into a new engine later.
//!
//! Time comes from a [`Clock`]: [`SystemClock`] in a server, [`ManualClock`] in tests.

pub mod clock;
pub mod commands;
pub mod config;
pub mod engine;
pub mod error;
pub mod persist;
pub mod protocol;
pub mod store;

pub use clock::{Clock, ManualClock, SystemClock};
pub use config::Config;
pub use engine::Engine;
pub use error::{Error, Result};
pub use protocol::reply::Reply;
