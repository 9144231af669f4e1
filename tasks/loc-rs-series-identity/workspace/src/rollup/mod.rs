//! Windowed roll-ups: each series' samples in each window are reduced to one value, then
//! the series of each group are combined.

pub mod agg;
pub mod group;
pub mod plan;
pub mod rate;
pub mod window;

pub use agg::{Across, Agg};
pub use plan::{run, Row, RollupSpec};
