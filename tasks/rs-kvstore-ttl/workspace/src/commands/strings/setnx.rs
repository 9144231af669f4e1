use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;
use crate::store::Value;

/// `SETNX key value`: sets only a key that does not exist; 1 if it did.
pub struct SetNx;

impl Command for SetNx {
    fn name(&self) -> &'static str {
        "SETNX"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        if ctx.db.contains(&args[1]) {
            return Ok(Reply::Int(0));
        }
        ctx.db.insert(args[1].clone(), Value::Str(args[2].clone()));
        Ok(Reply::Int(1))
    }
}
