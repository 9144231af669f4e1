use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `MSET key value [key value ...]`
pub struct MSet;

impl Command for MSet {
    fn name(&self) -> &'static str {
        "MSET"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        if args.len() % 2 == 0 {
            return Err(Error::WrongArity("mset".into()));
        }
        for pair in args[1..].chunks(2) {
            ctx.db.insert(pair[0].clone(), Value::Str(pair[1].clone()));
        }
        Ok(Reply::Ok)
    }
}
