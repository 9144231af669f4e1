use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `SMEMBERS key`: the members, sorted.
pub struct SMembers;

impl Command for SMembers {
    fn name(&self) -> &'static str {
        "SMEMBERS"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Array(vec![])),
            Some(Value::Set(s)) => Ok(Reply::strings(s.iter().cloned())),
            Some(_) => Err(Error::WrongType),
        }
    }
}
