//! Writes the compact o200k_base vocabulary (see `src/layout.rs`) from the copy that ships
//! inside tiktoken-rs, so nab-agent carries about 3.2 MiB of tables, mapped from its binary
//! and paged in as counted, instead of building tiktoken-rs's 46 MB of maps at run time.

// Shared with the build script, and each side uses only part of it.
#[allow(dead_code)]
#[path = "src/layout.rs"]
mod layout;

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/layout.rs");
    let bpe = tiktoken_rs::o200k_base()?;
    let mut bytes: Vec<u8> = Vec::new();
    let mut ends: Vec<u8> = Vec::new();
    let mut index = vec![layout::EMPTY; layout::INDEX_SLOTS];
    // o200k_base's ordinary ranks are 0..199998 with no gap; the special tokens (199999,
    // 200018) are not words of text and are left out, as `encode_ordinary` leaves them out.
    let mut rank: u32 = 0;
    while let Ok(token) = bpe.decode_bytes(&[rank]) {
        let (mut slot, tag) = layout::probe_of(&token);
        while index[slot] != layout::EMPTY {
            slot = (slot + 1) & (layout::INDEX_SLOTS - 1);
        }
        index[slot] = layout::entry(rank, tag);
        bytes.extend_from_slice(&token);
        ends.extend_from_slice(&u32::try_from(bytes.len())?.to_le_bytes());
        rank += 1;
    }
    if rank != 199_998 {
        return Err(format!("expected 199998 ordinary o200k_base ranks, found {rank}").into());
    }
    let index: Vec<u8> = index.iter().flat_map(|s| s.to_le_bytes()).collect();
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("o200k_bytes.bin"), &bytes)?;
    std::fs::write(out.join("o200k_ends.bin"), &ends)?;
    std::fs::write(out.join("o200k_index.bin"), &index)?;
    Ok(())
}
