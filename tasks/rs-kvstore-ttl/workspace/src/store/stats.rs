//! Counters shown by `INFO`.

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Commands run (including failed ones).
    pub commands: u64,
    /// Keys removed because their deadline had passed.
    pub expired_keys: u64,
    /// Lookups that found their key.
    pub hits: u64,
    /// Lookups that did not.
    pub misses: u64,
}
