//! The sealed-chunk encoding: times as zig-zag varint deltas, values as raw IEEE bits.

pub mod chunk;
pub mod varint;

pub use chunk::Chunk;
