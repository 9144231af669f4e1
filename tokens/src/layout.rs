//! The compact vocabulary's layout, shared by the build script that writes it and the
//! library that reads it (the build script includes this file with `#[path]`).
//!
//! Three little-endian tables, each a file in `OUT_DIR` built into the binary:
//! - `o200k_bytes.bin`: every token's bytes, concatenated in rank order;
//! - `o200k_ends.bin`: `u32` end offset of each token in the bytes (token `r` is
//!   `bytes[ends[r-1]..ends[r]]`, with `ends[-1]` = 0);
//! - `o200k_index.bin`: an open-addressing hash table of [`INDEX_SLOTS`] `u32` entries, probed
//!   linearly from the slot [`probe_of`] gives. An entry holds `rank + 1` in its low
//!   [`RANK_BITS`] bits (0 = empty) and a tag (more bits of the same hash) above them, so a
//!   probe that meets another token's entry almost never reads that token's bytes.

/// Slots of the index: a power of two, 1.31 times the 199,998 ranks. A table about three
/// quarters full keeps the index at 1 MiB (half of what a half-full one takes, and the index
/// is what counting a long text pages in most); the tag keeps the longer probes cheap.
pub const INDEX_SLOTS: usize = 1 << 18;

/// Low bits of an entry that hold `rank + 1` (the largest, 199,998, is below 2^18).
pub const RANK_BITS: u32 = 18;

/// An empty slot.
pub const EMPTY: u32 = 0;

const RANK_MASK: u32 = (1 << RANK_BITS) - 1;

/// The first slot to probe for `bytes`, and the tag its entry carries: FNV-1a over the bytes,
/// the slot from the low bits, the tag from the top ones. Any fixed hash would do; this one
/// is short and needs no dependency.
pub fn probe_of(bytes: &[u8]) -> (usize, u32) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let slot = ((h ^ (h >> 29)) as usize) & (INDEX_SLOTS - 1);
    let tag = (h >> (64 - (32 - RANK_BITS))) as u32;
    (slot, tag)
}

/// The entry for token `rank` whose bytes hash to `tag`.
pub fn entry(rank: u32, tag: u32) -> u32 {
    (tag << RANK_BITS) | (rank + 1)
}

/// The tag of an entry.
pub fn tag_of(entry: u32) -> u32 {
    entry >> RANK_BITS
}

/// The rank an entry holds (the entry must not be [`EMPTY`]).
pub fn rank_of(entry: u32) -> u32 {
    (entry & RANK_MASK).wrapping_sub(1)
}
