//! tidemark: an embeddable metrics store.
//!
//! Samples come in through the text format ([`parse`]) or the library API
//! ([`storage::Db::append`]), are kept per series in compressed chunks spread over shards
//! ([`storage`]), and are read back by selectors ([`query`]) and windowed roll-ups
//! ([`rollup`]), printed by [`report`].

pub mod cli;
pub mod codec;
pub mod config;
pub mod error;
pub mod export;
pub mod hash;
pub mod model;
pub mod parse;
pub mod query;
pub mod report;
pub mod rollup;
pub mod storage;
pub mod time;

pub use config::Config;
pub use error::{Error, Result};
pub use model::{Labels, Sample, SeriesKey};
pub use storage::Db;
