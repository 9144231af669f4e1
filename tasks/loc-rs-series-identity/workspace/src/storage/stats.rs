/// Counters of a [`crate::Db`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub samples_appended: u64,
    pub samples_replaced: u64,
    pub samples_out_of_order: u64,
    pub series_created: u64,
}
