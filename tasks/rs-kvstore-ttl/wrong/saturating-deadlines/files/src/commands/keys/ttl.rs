use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `TTL key` (seconds, rounded to the nearest, half up) and `PTTL key` (milliseconds): the
/// time left before the key expires; -1 if it has no deadline, -2 if there is no such key.
pub struct Ttl {
    pub millis: bool,
}

impl Command for Ttl {
    fn name(&self) -> &'static str {
        if self.millis {
            "PTTL"
        } else {
            "TTL"
        }
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        if ctx.db.get(key, ctx.now).is_none() {
            return Ok(Reply::Int(-2));
        }
        match ctx.db.expiry(key) {
            None => Ok(Reply::Int(-1)),
            Some(at) => {
                let left = at - ctx.now;
                let n = if self.millis {
                    left
                } else {
                    (left + 500) / 1000
                };
                Ok(Reply::Int(n as i64))
            }
        }
    }
}
