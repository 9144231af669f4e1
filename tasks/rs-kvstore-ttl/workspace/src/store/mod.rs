//! The keyspace: values by key, deadlines by key, and what helps to walk them.

pub mod db;
pub mod expiry;
pub mod glob;
pub mod stats;
pub mod value;

pub use db::Db;
pub use stats::Stats;
pub use value::Value;
