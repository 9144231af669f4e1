//! Series identity: a metric name and a set of labels.

pub mod labels;
pub mod name;
pub mod sample;
pub mod series_key;

pub use labels::Labels;
pub use sample::Sample;
pub use series_key::SeriesKey;
