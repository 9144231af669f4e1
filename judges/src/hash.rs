//! Content hashes recorded with every verdict, so a score can be traced to the exact
//! rubric and prompt that produced it.

use sha2::{Digest, Sha256};

/// `sha256:<hex>` of `bytes`.
pub(crate) fn sha256_tagged(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}
