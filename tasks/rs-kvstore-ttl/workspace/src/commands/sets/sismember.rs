use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `SISMEMBER key member`
pub struct SIsMember;

impl Command for SIsMember {
    fn name(&self) -> &'static str {
        "SISMEMBER"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Int(0)),
            Some(Value::Set(s)) => Ok(Reply::Int(s.contains(&args[2]) as i64)),
            Some(_) => Err(Error::WrongType),
        }
    }
}
