//! Commands: one type per command (or per family of twins such as `LPUSH`/`RPUSH`), each
//! implementing [`Command`], registered by name in [`registry::Registry`].

pub mod hashes;
pub mod keys;
pub mod lists;
pub mod registry;
pub mod server;
pub mod sets;
pub mod strings;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::{Db, Value};

/// What a command may touch while it runs.
pub struct Ctx<'a> {
    pub db: &'a mut Db,
    /// The engine's time, milliseconds since the Unix epoch, fixed for the whole command.
    pub now: u64,
    pub config: &'a Config,
}

/// How many arguments a command takes, its name included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    Exactly(usize),
    AtLeast(usize),
}

impl Arity {
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }
}

pub trait Command {
    /// The upper-case name.
    fn name(&self) -> &'static str;
    fn arity(&self) -> Arity;
    /// Whether the command can change the keyspace (such commands are logged).
    fn is_write(&self) -> bool;
    /// Runs the command; `args[0]` is the command's name as the client wrote it.
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply>;
}

/// The string a value holds, or `WRONGTYPE`.
pub fn as_str(v: &Value) -> Result<&String> {
    match v {
        Value::Str(s) => Ok(s),
        _ => Err(Error::WrongType),
    }
}

/// `now` plus `amount` units of `unit_ms` milliseconds (negative amounts go back), or
/// `None` when that is not a time in range (before the epoch counts as in range: 0).
pub fn deadline_after(now: u64, amount: i64, unit_ms: i64) -> Option<u64> {
    let delta = amount.checked_mul(unit_ms)?;
    let at = (now as i64).checked_add(delta)?;
    Some(at.max(0) as u64)
}

/// Removes `key` if it is a collection with no elements left.
pub fn drop_if_empty(db: &mut Db, key: &str) {
    if db.get_mut(key).map_or(false, |v| v.is_empty_collection()) {
        db.remove(key);
    }
}
