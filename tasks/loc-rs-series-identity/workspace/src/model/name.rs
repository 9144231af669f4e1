use crate::error::{Error, Result};

/// A metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
pub fn check_metric_name(name: &str) -> Result<()> {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == ':' => {}
        _ => return Err(Error::InvalidName(name.to_string())),
    }
    if chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
        Ok(())
    } else {
        Err(Error::InvalidName(name.to_string()))
    }
}

/// A label name: `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__` (reserved).
pub fn check_label_name(name: &str) -> Result<()> {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return Err(Error::InvalidName(name.to_string())),
    }
    if name.starts_with("__") || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(Error::InvalidName(name.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_metric_name("http_requests_total").is_ok());
        assert!(check_metric_name("job:rate5m").is_ok());
        assert!(check_metric_name("5xx").is_err());
        assert!(check_label_name("instance").is_ok());
        assert!(check_label_name("__name__").is_err());
        assert!(check_label_name("a-b").is_err());
    }
}
