use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `SCARD key`
pub struct SCard;

impl Command for SCard {
    fn name(&self) -> &'static str {
        "SCARD"
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
            Some(Value::Set(s)) => Ok(Reply::Int(s.len() as i64)),
            Some(_) => Err(Error::WrongType),
        }
    }
}
