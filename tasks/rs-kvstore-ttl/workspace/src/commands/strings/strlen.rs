use crate::commands::{as_str, Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `STRLEN key`: 0 for a missing key.
pub struct Strlen;

impl Command for Strlen {
    fn name(&self) -> &'static str {
        "STRLEN"
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
            Some(v) => Ok(Reply::Int(as_str(v)?.len() as i64)),
        }
    }
}
