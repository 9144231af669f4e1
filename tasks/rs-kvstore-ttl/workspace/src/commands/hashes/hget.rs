use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `HGET key field`
pub struct HGet;

impl Command for HGet {
    fn name(&self) -> &'static str {
        "HGET"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Nil),
            Some(Value::Hash(h)) => Ok(h
                .get(&args[2])
                .map_or(Reply::Nil, |v| Reply::bulk(v.clone()))),
            Some(_) => Err(Error::WrongType),
        }
    }
}
