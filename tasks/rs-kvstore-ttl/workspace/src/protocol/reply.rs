//! What a command answers, and how a client prints it (redis-cli's style).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `OK`
    Ok,
    /// A status word such as `PONG` or a type name.
    Status(String),
    /// No value: `(nil)`.
    Nil,
    Int(i64),
    /// A string value, printed in double quotes.
    Bulk(String),
    Array(Vec<Reply>),
    /// An error; its text starts with a code such as `ERR` or `WRONGTYPE`.
    Error(String),
}

impl Reply {
    pub fn bulk<S: Into<String>>(s: S) -> Reply {
        Reply::Bulk(s.into())
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Reply::Error(_))
    }

    /// An array of bulk strings.
    pub fn strings<I, S>(items: I) -> Reply
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Reply::Array(items.into_iter().map(|s| Reply::Bulk(s.into())).collect())
    }
}

impl From<crate::error::Error> for Reply {
    fn from(e: crate::error::Error) -> Reply {
        Reply::Error(e.to_string())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => write!(f, "OK"),
            Reply::Status(s) => write!(f, "{}", s),
            Reply::Nil => write!(f, "(nil)"),
            Reply::Int(n) => write!(f, "(integer) {}", n),
            Reply::Bulk(s) => write!(f, "{:?}", s),
            Reply::Error(e) => write!(f, "(error) {}", e),
            Reply::Array(items) if items.is_empty() => write!(f, "(empty array)"),
            Reply::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{}) {}", i + 1, item)?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_like_redis_cli() {
        assert_eq!(Reply::Ok.to_string(), "OK");
        assert_eq!(Reply::Nil.to_string(), "(nil)");
        assert_eq!(Reply::Int(-2).to_string(), "(integer) -2");
        assert_eq!(Reply::bulk("a\"b").to_string(), "\"a\\\"b\"");
        assert_eq!(Reply::Array(vec![]).to_string(), "(empty array)");
        assert_eq!(Reply::strings(["x", "y"]).to_string(), "1) \"x\"\n2) \"y\"");
        assert_eq!(
            Reply::from(crate::error::Error::Syntax).to_string(),
            "(error) ERR syntax error"
        );
    }
}
