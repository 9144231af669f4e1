use crate::commands::{as_str, Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::{parse_i64, Reply};
use crate::store::Value;

/// `INCR`, `DECR`, `INCRBY`, `DECRBY`: a missing key counts as 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Incr,
    Decr,
    IncrBy,
    DecrBy,
}

impl Step {
    pub const ALL: [Step; 4] = [Step::Incr, Step::Decr, Step::IncrBy, Step::DecrBy];
}

pub struct Incr(pub Step);

impl Command for Incr {
    fn name(&self) -> &'static str {
        match self.0 {
            Step::Incr => "INCR",
            Step::Decr => "DECR",
            Step::IncrBy => "INCRBY",
            Step::DecrBy => "DECRBY",
        }
    }
    fn arity(&self) -> Arity {
        match self.0 {
            Step::Incr | Step::Decr => Arity::Exactly(2),
            Step::IncrBy | Step::DecrBy => Arity::Exactly(3),
        }
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let by = match self.0 {
            Step::Incr => 1,
            Step::Decr => -1,
            Step::IncrBy => parse_i64(&args[2])?,
            Step::DecrBy => parse_i64(&args[2])?.checked_neg().ok_or(Error::Overflow)?,
        };
        let key = &args[1];
        let current = match ctx.db.get_mut(key) {
            None => 0,
            Some(v) => parse_i64(as_str(v)?)?,
        };
        let next = current.checked_add(by).ok_or(Error::Overflow)?;
        match ctx.db.get_mut(key) {
            Some(v) => *v = Value::Str(next.to_string()),
            None => ctx.db.insert(key.clone(), Value::Str(next.to_string())),
        }
        Ok(Reply::Int(next))
    }
}
