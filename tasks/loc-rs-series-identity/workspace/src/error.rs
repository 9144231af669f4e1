use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A line of the text format that does not parse: its number (from 1) and why.
    Parse { line: usize, msg: String },
    InvalidName(String),
    DuplicateLabel(String),
    /// A sample older than the newest one of its series.
    OutOfOrder { series: String, ts: i64, newest: i64 },
    InvalidTime(String),
    InvalidDuration(String),
    InvalidSelector(String),
    Usage(String),
    Corrupt(String),
    Io(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse { line, msg } => write!(f, "line {}: {}", line, msg),
            Error::InvalidName(n) => write!(f, "invalid name {:?}", n),
            Error::DuplicateLabel(n) => write!(f, "label {:?} given twice", n),
            Error::OutOfOrder { series, ts, newest } => write!(
                f,
                "out of order sample for {}: {} is older than {}",
                series, ts, newest
            ),
            Error::InvalidTime(t) => write!(f, "invalid time {:?}", t),
            Error::InvalidDuration(d) => write!(f, "invalid duration {:?}", d),
            Error::InvalidSelector(s) => write!(f, "invalid selector: {}", s),
            Error::Usage(u) => write!(f, "usage: {}", u),
            Error::Corrupt(c) => write!(f, "corrupt chunk: {}", c),
            Error::Io(e) => write!(f, "{}", e),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e.to_string())
    }
}
