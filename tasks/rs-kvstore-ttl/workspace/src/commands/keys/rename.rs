use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;

/// `RENAME key newkey`: moves the value; an existing `newkey` is overwritten.
pub struct Rename;

impl Command for Rename {
    fn name(&self) -> &'static str {
        "RENAME"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let (from, to) = (&args[1], &args[2]);
        let value = ctx.db.remove(from).ok_or(Error::NoSuchKey)?;
        ctx.db.insert(to.clone(), value);
        Ok(Reply::Ok)
    }
}
