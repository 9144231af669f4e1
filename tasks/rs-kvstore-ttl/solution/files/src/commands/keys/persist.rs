use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `PERSIST key`: removes the key's deadline; 1 if it had one, 0 if it had none or there is
/// no such key.
pub struct Persist;

impl Command for Persist {
    fn name(&self) -> &'static str {
        "PERSIST"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        Ok(Reply::Int(ctx.db.clear_expiry(&args[1]) as i64))
    }
}
