//! Parsing one line of a versioned JSON Lines file: every format here carries `v`.

use serde::de::DeserializeOwned;

/// Parses `line` as `T` after checking its `v` is in `1..=current`; `what` names the
/// format in messages ("event schema", "trial record").
pub fn parse_versioned_line<T: DeserializeOwned>(
    line: &str,
    what: &str,
    current: u32,
) -> Result<T, String> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let v = value
        .get("v")
        .and_then(|v| v.as_u64())
        .ok_or("missing numeric field `v`")?;
    if v == 0 || v > current as u64 {
        return Err(format!(
            "{what} version {v} is not supported (this build reads 1..={current}); upgrade nab"
        ));
    }
    serde_json::from_value(value).map_err(|e| format!("invalid {what}: {e}"))
}
