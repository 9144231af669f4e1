//! Stagnation: the same call (tool name + canonical arguments) several times in a row.

use serde_json::Value;

pub const DEFAULT_LIMIT: u32 = 3;

#[derive(Debug)]
pub struct StagnationDetector {
    last: Option<String>,
    repeats: u32,
    limit: u32,
}

impl Default for StagnationDetector {
    fn default() -> Self {
        StagnationDetector::new(DEFAULT_LIMIT)
    }
}

impl StagnationDetector {
    pub fn new(limit: u32) -> StagnationDetector {
        StagnationDetector {
            last: None,
            repeats: 0,
            limit,
        }
    }

    /// Records a call; true when it is the `limit`-th identical call in a row.
    pub fn observe(&mut self, name: &str, arguments: &str) -> bool {
        let key = format!("{name}\u{0}{}", canonical_args(arguments));
        if self.last.as_deref() == Some(key.as_str()) {
            self.repeats += 1;
        } else {
            self.last = Some(key);
            self.repeats = 1;
        }
        self.repeats >= self.limit
    }
}

/// Arguments with object keys sorted and whitespace removed; not-JSON text is kept trimmed,
/// so `{"b":1, "a":2}` and `{"a":2,"b":1}` are the same call.
pub fn canonical_args(arguments: &str) -> String {
    match serde_json::from_str::<Value>(arguments) {
        Ok(v) => nab_protocol::to_sorted_string(&v),
        Err(_) => arguments.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_identical_call_trips_and_key_order_does_not_matter() {
        let mut d = StagnationDetector::default();
        assert!(!d.observe("read_file", r#"{"path":"a","limit":5}"#));
        assert!(!d.observe("read_file", r#"{ "limit": 5, "path": "a" }"#));
        assert!(d.observe("read_file", r#"{"path":"a","limit":5}"#));
        let mut d = StagnationDetector::default();
        assert!(!d.observe("read_file", r#"{"path":"a"}"#));
        assert!(!d.observe("read_file", r#"{"path":"a"}"#));
        assert!(
            !d.observe("read_file", r#"{"path":"b"}"#),
            "a different call resets the count"
        );
        assert!(
            !d.observe("list_dir", r#"{"path":"b"}"#),
            "same args, other tool"
        );
    }
}
