use crate::commands::{as_str, Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `GET key`
pub struct Get;

impl Command for Get {
    fn name(&self) -> &'static str {
        "GET"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Nil),
            Some(v) => Ok(Reply::bulk(as_str(v)?.clone())),
        }
    }
}
