//! Numeric arguments.

use crate::error::{Error, Result};

/// A signed 64-bit integer written in decimal, with an optional leading `-`.
pub fn parse_i64(s: &str) -> Result<i64> {
    if s.is_empty() || s.starts_with('+') || (s.len() > 1 && s.starts_with('0')) {
        return Err(Error::NotInteger);
    }
    s.parse::<i64>().map_err(|_| Error::NotInteger)
}

/// A non-negative 64-bit integer written in decimal.
pub fn parse_u64(s: &str) -> Result<u64> {
    if s.starts_with('-') {
        return Err(Error::NotInteger);
    }
    let n = parse_i64(s)?;
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_i64("0").unwrap(), 0);
        assert_eq!(parse_i64("-17").unwrap(), -17);
        assert_eq!(parse_i64("9223372036854775807").unwrap(), i64::MAX);
        for bad in ["", "+1", "01", "1.5", "abc", "9223372036854775808", " 1"] {
            assert!(parse_i64(bad).is_err(), "{}", bad);
        }
        assert!(parse_u64("-1").is_err());
        assert_eq!(parse_u64("42").unwrap(), 42);
    }
}
