//! The command language: splitting a line into arguments, reading numeric arguments, and
//! the replies a command gives.

pub mod args;
pub mod reply;
pub mod tokenizer;

pub use args::{parse_i64, parse_u64};
pub use reply::Reply;
pub use tokenizer::{quote, tokenize};
