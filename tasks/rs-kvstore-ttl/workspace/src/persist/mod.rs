//! Persistence: snapshots of a keyspace, and the append-only log of writes.

pub mod aof;
pub mod escape;
pub mod snapshot;
