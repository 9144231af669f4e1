use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::{parse_i64, Reply};

/// `EXPIRE key seconds`: 1 if the key now has that deadline, 0 if there is no such key.
pub struct Expire;

impl Command for Expire {
    fn name(&self) -> &'static str {
        "EXPIRE"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        let seconds = parse_i64(&args[2])?;
        if ctx.db.get(key, ctx.now).is_none() {
            return Ok(Reply::Int(0));
        }
        let at = ctx.now + (seconds * 1000) as u64;
        ctx.db.set_expiry(key, at);
        Ok(Reply::Int(1))
    }
}
