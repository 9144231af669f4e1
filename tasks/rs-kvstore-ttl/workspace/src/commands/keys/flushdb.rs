use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `FLUSHDB`: removes every key.
pub struct FlushDb;

impl Command for FlushDb {
    fn name(&self) -> &'static str {
        "FLUSHDB"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(1)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, _args: &[String]) -> Result<Reply> {
        ctx.db.clear();
        Ok(Reply::Ok)
    }
}
