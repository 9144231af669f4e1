use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `TTL key`: the seconds left before the key expires; -1 if it has no deadline, -2 if
/// there is no such key.
pub struct Ttl;

impl Command for Ttl {
    fn name(&self) -> &'static str {
        "TTL"
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
            Some(at) => Ok(Reply::Int(((at - ctx.now) / 1000) as i64)),
        }
    }
}
