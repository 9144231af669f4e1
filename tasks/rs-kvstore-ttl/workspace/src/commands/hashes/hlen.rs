use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `HLEN key`
pub struct HLen;

impl Command for HLen {
    fn name(&self) -> &'static str {
        "HLEN"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Int(0)),
            Some(Value::Hash(h)) => Ok(Reply::Int(h.len() as i64)),
            Some(_) => Err(Error::WrongType),
        }
    }
}
