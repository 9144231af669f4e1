//! The o200k_base vocabulary as the build script laid it out (`layout.rs`): looked up in
//! place in the binary's read-only data, never copied into the heap.

use crate::layout::{EMPTY, INDEX_SLOTS, probe_of, rank_of, tag_of};

static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_bytes.bin"));
static ENDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_ends.bin"));
static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_index.bin"));

/// Tokens of o200k_base that text can produce (the special tokens are not among them).
pub const RANKS: u32 = 199_998;

fn word(table: &[u8], i: usize) -> u32 {
    let at = i * 4;
    match table.get(at..at + 4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => EMPTY,
    }
}

/// The bytes of token `rank`.
pub fn token(rank: u32) -> &'static [u8] {
    let r = rank as usize;
    let start = if r == 0 {
        0
    } else {
        word(ENDS, r - 1) as usize
    };
    let end = word(ENDS, r) as usize;
    BYTES.get(start..end).unwrap_or_default()
}

/// The rank of the token whose bytes are `bytes`, if there is one.
pub fn rank(bytes: &[u8]) -> Option<u32> {
    let (mut slot, tag) = probe_of(bytes);
    // Some slots stay empty (the table is three quarters full), so a probe always ends.
    for _ in 0..INDEX_SLOTS {
        let entry = word(INDEX, slot);
        if entry == EMPTY {
            return None;
        }
        if tag_of(entry) == tag {
            let r = rank_of(entry);
            if token(r) == bytes {
                return Some(r);
            }
        }
        slot = (slot + 1) & (INDEX_SLOTS - 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_is_found_by_its_bytes() {
        assert_eq!(ENDS.len(), RANKS as usize * 4);
        assert_eq!(INDEX.len(), INDEX_SLOTS * 4);
        for r in 0..RANKS {
            assert_eq!(rank(token(r)), Some(r), "rank {r}");
        }
        // Every single byte is a token (so any text can be encoded).
        for b in 0..=255u8 {
            assert!(rank(&[b]).is_some(), "byte {b}");
        }
        assert_eq!(rank(b"hello"), Some(24912));
        assert_eq!(rank(b" world"), Some(2375));
        assert_eq!(rank(b"no such token in o200k at all"), None);
        assert_eq!(rank(b""), None);
    }
}
