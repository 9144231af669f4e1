//! Printing roll-up rows and series listings.

pub mod csv;
pub mod number;
pub mod table;

pub use number::format_value;
