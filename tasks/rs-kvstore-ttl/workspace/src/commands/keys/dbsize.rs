use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `DBSIZE`: the number of keys.
pub struct DbSize;

impl Command for DbSize {
    fn name(&self) -> &'static str {
        "DBSIZE"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(1)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, _args: &[String]) -> Result<Reply> {
        Ok(Reply::Int(ctx.db.len() as i64))
    }
}
