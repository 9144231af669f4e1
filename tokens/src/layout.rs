//! The compact vocabulary's layout, shared by the build script that writes it and the
//! library that reads it (the build script includes this file with `#[path]`).
//!
//! Three little-endian tables, each a file in `OUT_DIR` built into the binary:
//! - `o200k_bytes.bin`: every token's bytes, concatenated in rank order;
//! - `o200k_ends.bin`: `u32` end offset of each token in the bytes (token `r` is
//!   `bytes[ends[r-1]..ends[r]]`, with `ends[-1]` = 0);
//! - `o200k_index.bin`: an open-addressing hash table of [`INDEX_SLOTS`] `u32` slots holding
//!   `rank + 1` (0 = empty), probed linearly from [`slot_of`]`(token bytes)`.

/// Slots of the index: a power of two, a bit over twice the 199,998 ranks, so probes stay
/// short.
pub const INDEX_SLOTS: usize = 1 << 19;

/// An empty slot.
pub const EMPTY: u32 = 0;

/// The first slot to probe for `bytes`: FNV-1a over the bytes, folded to the table size.
/// Any fixed hash would do; this one is short and needs no dependency.
pub fn slot_of(bytes: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    ((h ^ (h >> 29)) as usize) & (INDEX_SLOTS - 1)
}
