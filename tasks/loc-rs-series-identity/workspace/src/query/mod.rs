//! Reading series back: selectors, time ranges and sample iteration.

pub mod iter;
pub mod matcher;
pub mod range;
pub mod select;
pub mod selector;

pub use matcher::{Matcher, Op};
pub use range::TimeRange;
pub use select::{select, Selected};
pub use selector::Selector;
