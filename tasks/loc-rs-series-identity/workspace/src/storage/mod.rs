//! Series storage: a [`Db`] spreads series over shards by fingerprint; each series keeps
//! its samples in sealed chunks and an open head.

pub mod db;
pub mod head;
pub mod postings;
pub mod retention;
pub mod series;
pub mod shard;
pub mod stats;

pub use db::{Db, IngestReport, SeriesInfo};
pub use series::Series;
pub use stats::Stats;
