//! The errors a command or a loader can return. Their `Display` is what a client sees after
//! `(error) `.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The command name is not known.
    UnknownCommand(String),
    /// The command got too few or too many arguments.
    WrongArity(String),
    /// The arguments do not make a valid command.
    Syntax,
    /// The key holds a value of another type.
    WrongType,
    /// The value (or an argument) is not an integer, or is out of range.
    NotInteger,
    /// An increment would overflow.
    Overflow,
    /// The key does not exist.
    NoSuchKey,
    /// An expire time that cannot be used, for the named command.
    InvalidExpireTime(String),
    /// A line could not be split into arguments.
    Protocol(String),
    /// A snapshot could not be read.
    Snapshot { line: usize, message: String },
    /// An append-only log could not be replayed.
    Aof { line: usize, message: String },
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownCommand(name) => write!(f, "ERR unknown command '{}'", name),
            Error::WrongArity(name) => {
                write!(f, "ERR wrong number of arguments for '{}' command", name)
            }
            Error::Syntax => write!(f, "ERR syntax error"),
            Error::WrongType => write!(
                f,
                "WRONGTYPE Operation against a key holding the wrong kind of value"
            ),
            Error::NotInteger => write!(f, "ERR value is not an integer or out of range"),
            Error::Overflow => write!(f, "ERR increment or decrement would overflow"),
            Error::NoSuchKey => write!(f, "ERR no such key"),
            Error::InvalidExpireTime(cmd) => {
                write!(f, "ERR invalid expire time in '{}' command", cmd)
            }
            Error::Protocol(msg) => write!(f, "ERR Protocol error: {}", msg),
            Error::Snapshot { line, message } => {
                write!(f, "ERR bad snapshot at line {}: {}", line, message)
            }
            Error::Aof { line, message } => {
                write!(f, "ERR bad append-only log at line {}: {}", line, message)
            }
        }
    }
}

impl std::error::Error for Error {}
