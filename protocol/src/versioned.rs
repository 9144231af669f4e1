//! Parsing one line of a versioned JSON Lines file: every format here carries `v`.

use serde::de::DeserializeOwned;

/// Why a versioned line was refused; `what` names the format ("event schema", "trial
/// record").
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VersionedError {
    /// The line is not JSON at all.
    #[error("not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    /// The object has no numeric `v`.
    #[error("missing numeric field `v`")]
    MissingVersion,
    /// `v` is 0 or newer than this build reads.
    #[error("{what} version {v} is not supported (this build reads 1..={current}); upgrade nab")]
    Unsupported {
        /// The format's name.
        what: &'static str,
        /// The line's version.
        v: u64,
        /// The newest version this build reads.
        current: u32,
    },
    /// The version is known but the fields do not match it.
    #[error("invalid {what}: {source}")]
    Invalid {
        /// The format's name.
        what: &'static str,
        /// What serde found wrong.
        #[source]
        source: serde_json::Error,
    },
}

/// Parses `line` as `T` after checking its `v` is in `1..=current`; `what` names the
/// format in messages ("event schema", "trial record").
pub fn parse_versioned_line<T: DeserializeOwned>(
    line: &str,
    what: &'static str,
    current: u32,
) -> Result<T, VersionedError> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(VersionedError::NotJson)?;
    let v = value
        .get("v")
        .and_then(|v| v.as_u64())
        .ok_or(VersionedError::MissingVersion)?;
    if v == 0 || v > current as u64 {
        return Err(VersionedError::Unsupported { what, v, current });
    }
    serde_json::from_value(value).map_err(|source| VersionedError::Invalid { what, source })
}
